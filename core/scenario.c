/* core/scenario.c — loads and checks YAML scenario files (format: docs/scenario-format.md).
 *
 * libfyaml builds the document (quietly: its messages are collected, never printed); this
 * file walks it with a strict schema (the typed readers of opfor/yamlread.h), so an unknown
 * key, a misspelt name or a figure off the table is reported at its file:line:column with
 * the allowed alternatives. Parsing fills the fixed-size opfor_scenario_t directly; nothing
 * here is needed after loading except the top-level blocks a ruleset reads itself
 * (opfor_scenario_rules_t blocks), whose document is kept alive until opfor_scenario_free.
 * Tracks and runways are written as terrain entries but stored apart (opfor_route_t); the
 * machine keys of a unit (payload, fire_out, embarked_in, track, airborne, speed, drive,
 * armour, tethered, shell) fill opfor_unit_machine_t, resolved once every unit is known.
 * This file holds the format and the checks any ruleset needs (on the table, no overlaps,
 * carriers with room). What a ruleset's rules allow (which unit types may limber, carry or
 * fly, who leads a unit, what each mode needs) is checked by its hooks (opfor_scenario_rules_t),
 * called as the parse meets each key concerned, which report through opfor_scenario_ck_fail at
 * the key's file:line:column. The ruleset also gives the words for the modes.
 */
#include "opfor/scenario.h"
#include "opfor/yamlread.h"
#include "opfor/yamltext.h"

#include <errno.h>
#include <libfyaml.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const opfor_name_t opfor_mode_neutral_names[] = {
    {"competitive", OPFOR_MODE_COMPETITIVE},
    {"coop", OPFOR_MODE_COOP},
    {NULL, 0},
};

/* Longest scalar read as text (names, enum values, numbers). */
#define SCALAR_MAX 256
/* cos of k * 22.5 degrees, k = 0..15 (sin k = cos (k + 12) mod 16): circles as 16-gons. */
static const float cos16[16] = {
    1.0f,  OPFOR_COS_22_5,  OPFOR_SQRT1_2,  OPFOR_SIN_22_5,
    0.0f,  -OPFOR_SIN_22_5, -OPFOR_SQRT1_2, -OPFOR_COS_22_5,
    -1.0f, -OPFOR_COS_22_5, -OPFOR_SQRT1_2, -OPFOR_SIN_22_5,
    0.0f,  OPFOR_SIN_22_5,  OPFOR_SQRT1_2,  OPFOR_COS_22_5,
};

/* Parse state. The *_src arrays remember which YAML node placed each figure, unit and
 * objective, so checks made after parsing still point at the right line. */
typedef struct ctx {
    opfor_yaml_rd_t rd; /* strict: errors go to rd.diag, the first is rd.err */
    opfor_scenario_t *sc;
    const opfor_scenario_rules_t *rules;         /* the ruleset's part (never NULL) */
    const opfor_name_t *modes;                   /* the words `mode:` takes */
    struct fy_node *root;                        /* the top-level mapping */
    struct fy_node *route_src[OPFOR_MAX_ROUTES]; /* the terrain entry of each route */
    struct fy_node *fig_src[OPFOR_MAX_FIGURES];
    struct fy_node *unit_src[OPFOR_MAX_UNITS];
    struct fy_node *embark_src[OPFOR_MAX_UNITS]; /* value of a unit's embarked_in, or NULL */
} ctx_t;

__attribute__((format(printf, 4, 5))) static void warn(ctx_t *c, struct fy_node *n,
                                                       struct fy_node *alt, const char *fmt, ...) {
    opfor_scenario_t *sc = c->sc;
    sc->nwarnings_total++;
    if (sc->nwarnings >= OPFOR_SCENARIO_MAX_WARNINGS)
        return;
    opfor_diag_t *w = &sc->warnings[sc->nwarnings++];
    opfor_diag_clear(w);
    if (c->rd.diag)
        memcpy(w->file, c->rd.diag->file, sizeof w->file);
    va_list ap;
    va_start(ap, fmt);
    opfor_yaml_vreport(w, 0, n, alt, fmt, ap);
    va_end(ap);
}

/* The ruleset's item hook at (kind, i, key), when it has one: 0, or the (first) error. */
static int hook(ctx_t *c, opfor_scenario_item_t kind, int i, const char *key) {
    if (!c->rules->item)
        return 0;
    int rc = c->rules->item((opfor_scenario_ck_t *)c, kind, i, key, c->rules->user);
    return rc ? (c->rd.err ? c->rd.err : rc) : 0;
}

/* ---- typed readers (opfor/yamlread.h, strict): each returns 0 or the (first) error ---- */

/* A number within lo..hi, kept as a float. */
static int get_num(ctx_t *c, struct fy_node *n, struct fy_node *alt, const char *what, float lo,
                   float hi, float *out) {
    double v;
    int e = opfor_yaml_get_num(&c->rd, n, alt, what, lo, hi, &v);
    if (e)
        return e;
    *out = (float)v;
    return 0;
}

/* A point [x, y]; on the table unless table is NULL. */
static int get_pt(ctx_t *c, struct fy_node *n, struct fy_node *alt, const char *what,
                  const opfor_table_t *table, opfor_pt_t *out) {
    if (opfor_yaml_want_seq(&c->rd, n, alt, what))
        return c->rd.err;
    if (fy_node_sequence_item_count(n) != 2)
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, n, alt,
                               "expected [x, y] (two numbers, inches) for %s", what);
    float x, y;
    if (get_num(c, fy_node_sequence_get_by_index(n, 0), n, what, -1e6f, 1e6f, &x) ||
        get_num(c, fy_node_sequence_get_by_index(n, 1), n, what, -1e6f, 1e6f, &y))
        return c->rd.err;
    if (table && !opfor_rect_contains(table->width, table->depth, opfor_pt(x, y)))
        return opfor_yaml_fail(
            &c->rd, OPFOR_ERANGE, n, alt,
            "%s [%g, %g] is off the table: x must be within 0..%g and y within 0..%g", what,
            (double)x, (double)y, (double)table->width, (double)table->depth);
    *out = opfor_pt(x, y);
    return 0;
}

/* A list of min..max points, all on the table. */
static int get_pts(ctx_t *c, struct fy_node *n, struct fy_node *alt, const char *what, int min,
                   int max, const opfor_table_t *table, opfor_pt_t *pts, int *np) {
    if (opfor_yaml_want_seq(&c->rd, n, alt, what))
        return c->rd.err;
    int k = fy_node_sequence_item_count(n);
    if (k < min || k > max)
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, n, alt,
                               "%s needs %d to %d points [x, y], found %d", what, min, max, k);
    void *it = NULL;
    struct fy_node *item;
    int i = 0;
    while ((item = fy_node_sequence_iterate(n, &it)) != NULL && i < max)
        if (get_pt(c, item, n, what, table, &pts[i++]))
            return c->rd.err;
    *np = i;
    return 0;
}

static int require(ctx_t *c, const opfor_yaml_field_t *f, struct fy_node *map, const char *what) {
    if (f->v)
        return 0;
    return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, map, NULL, "missing required key '%s' in %s",
                           f->key, what);
}

/* ---- sections ---- */

static int parse_table(ctx_t *c, struct fy_node *n, struct fy_node *alt) {
    enum { W, D, N, NF };
    opfor_yaml_field_t f[NF] = {{"width", 0, 0}, {"depth", 0, 0}, {"north", 0, 0}};
    float w = 72.0f, d = 48.0f;
    int north = OPFOR_EDGE_TOP;
    if (n && opfor_yaml_read_fields(&c->rd, n, alt, "table", f, NF))
        return c->rd.err;
    if (f[W].v && get_num(c, f[W].v, f[W].k, "table width", 6.0f, 480.0f, &w))
        return c->rd.err;
    if (f[D].v && get_num(c, f[D].v, f[D].k, "table depth", 6.0f, 480.0f, &d))
        return c->rd.err;
    if (f[N].v &&
        opfor_yaml_get_enum(&c->rd, f[N].v, f[N].k, "north edge", opfor_edge_names, &north))
        return c->rd.err;
    opfor_table_init(&c->sc->table, w, d, (opfor_table_north_t)north);
    c->sc->table.rules = c->rules->terrain;
    return 0;
}

/* Whether n is the plain scalar word (any case). */
static int is_word(struct fy_node *n, const char *word) {
    size_t len = 0;
    const char *t = fy_node_is_scalar(n) ? fy_node_get_scalar(n, &len) : NULL;
    return t && len == strlen(word) && strncasecmp(t, word, len) == 0;
}

static int parse_weather(ctx_t *c, struct fy_node *n, struct fy_node *alt) {
    enum { L, WD, NF };
    opfor_yaml_field_t f[NF] = {{"level", 0, 0}, {"wind", 0, 0}};
    int level = 1, wind = OPFOR_N, wind_random = 0;
    if (opfor_yaml_read_fields(&c->rd, n, alt, "weather", f, NF))
        return c->rd.err;
    /* `random` leaves the roll to the ruleset */
    if (f[L].v && is_word(f[L].v, "random"))
        level = 0;
    else if (f[L].v && opfor_yaml_get_int(&c->rd, f[L].v, f[L].k, "weather level", 1, 5, &level))
        return c->rd.err;
    if (f[WD].v && is_word(f[WD].v, "random"))
        wind_random = 1;
    else if (f[WD].v && opfor_yaml_get_enum(&c->rd, f[WD].v, f[WD].k, "wind direction",
                                            opfor_compass_names, &wind))
        return c->rd.err;
    c->sc->weather.level = level;
    c->sc->weather.wind = (opfor_compass_t)wind;
    c->sc->weather.wind_random = wind_random;
    return 0;
}

/* Whether kind may be drawn as an area / as a line. */
static int kind_area_ok(int kind) {
    return kind != OPFOR_TK_WALL && kind != OPFOR_TK_HEDGE && kind != OPFOR_TK_FENCE;
}
static int kind_line_ok(int kind) {
    return kind == OPFOR_TK_WALL || kind == OPFOR_TK_HEDGE || kind == OPFOR_TK_FENCE ||
           kind == OPFOR_TK_ROAD || kind == OPFOR_TK_RIVER || kind == OPFOR_TK_FIELD_WORKS;
}

/* A track or runway: only name, kind and line are allowed; a runway is one
 * straight segment. f holds the terrain entry's fields; line is the index of `line`. */
static int parse_route(ctx_t *c, struct fy_node *n, struct fy_node *alt,
                       const opfor_yaml_field_t *f, int nf, int line, const char *name, int kind) {
    opfor_scenario_t *sc = c->sc;
    const char *what = kind == OPFOR_ROUTE_TRACK ? "track" : "runway";
    for (int i = 0; i < nf; i++)
        if (f[i].v && i > 1 && i != line)
            return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, f[i].k, n,
                                   "a %s takes only name, kind and line", what);
    if (!f[line].v)
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, n, alt,
                               "a %s is drawn with line: [[x, y], ...]", what);
    if (sc->nroutes >= OPFOR_MAX_ROUTES)
        return opfor_yaml_fail(&c->rd, OPFOR_EFULL, n, alt,
                               "too many tracks and runways: at most %d", OPFOR_MAX_ROUTES);
    opfor_route_t *r = &sc->routes[sc->nroutes];
    memset(r, 0, sizeof *r);
    int np = 0;
    if (kind == OPFOR_ROUTE_RUNWAY && fy_node_is_sequence(f[line].v) &&
        fy_node_sequence_item_count(f[line].v) != 2)
        return opfor_yaml_fail(
            &c->rd, OPFOR_EPARSE, f[line].v, f[line].k,
            "a runway is one straight strip: line: [[x, y], [x, y]], found %d points",
            fy_node_sequence_item_count(f[line].v));
    if (get_pts(c, f[line].v, f[line].k, what, 2,
                kind == OPFOR_ROUTE_RUNWAY ? 2 : OPFOR_POLY_MAX_PTS, &sc->table, r->pts, &np))
        return c->rd.err;
    for (int i = 0; i + 1 < np; i++)
        r->length += opfor_dist(r->pts[i], r->pts[i + 1]);
    if (!(r->length > 0.1f))
        return opfor_yaml_fail(&c->rd, OPFOR_ERANGE, f[line].v, f[line].k, "the %s has no length",
                               what);
    for (int i = 0; i < sc->nroutes; i++)
        if (name[0] && strcasecmp(sc->routes[i].name, name) == 0)
            return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, f[0].v, n,
                                   "a track or runway named '%s' already exists", name);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->kind = (uint8_t)kind;
    r->npts = (uint8_t)np;
    c->route_src[sc->nroutes] = n;
    sc->nroutes++;
    return hook(c, OPFOR_SCENARIO_ROUTE, sc->nroutes - 1, "line");
}

static int parse_feature(ctx_t *c, struct fy_node *n, struct fy_node *alt) {
    enum { NAME, KIND, POLY, LINE, RECT, CIRC, WIDTH, COVER, SIGHT, MOVE, HIDES, CLOSED, NF };
    opfor_yaml_field_t f[NF] = {{"name", 0, 0},  {"kind", 0, 0},  {"polygon", 0, 0},
                                {"line", 0, 0},  {"rect", 0, 0},  {"circle", 0, 0},
                                {"width", 0, 0}, {"cover", 0, 0}, {"sight", 0, 0},
                                {"move", 0, 0},  {"hides", 0, 0}, {"closed_to_mounted", 0, 0}};
    opfor_table_t *t = &c->sc->table;
    char name[32] = "";
    int kind, v;
    opfor_pt_t pts[OPFOR_POLY_MAX_PTS];
    int np = 0, shape = OPFOR_SHAPE_AREA;
    struct fy_node *shape_node = NULL;
    if (opfor_yaml_read_fields(&c->rd, n, alt, "terrain feature", f, NF) ||
        require(c, &f[KIND], n, "terrain feature"))
        return c->rd.err;
    if (f[NAME].v &&
        opfor_yaml_get_str(&c->rd, f[NAME].v, f[NAME].k, "feature name", name, sizeof name))
        return c->rd.err;
    {
        char kbuf[SCALAR_MAX], sh[48], list[400];
        if (opfor_yaml_get_str(&c->rd, f[KIND].v, f[KIND].k, "terrain kind", kbuf, sizeof kbuf))
            return c->rd.err;
        if (strcasecmp(kbuf, "track") == 0 || strcasecmp(kbuf, "runway") == 0)
            return parse_route(c, n, alt, f, NF, LINE, name,
                               strcasecmp(kbuf, "track") == 0 ? OPFOR_ROUTE_TRACK
                                                              : OPFOR_ROUTE_RUNWAY);
        if (opfor_vocab_lookup(opfor_terrain_kind_names, kbuf, &kind) != 0)
            return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, f[KIND].v, f[KIND].k,
                                   "unknown terrain kind %s; expected one of: %s, track, runway",
                                   opfor_yaml_shown(f[KIND].v, sh, sizeof sh),
                                   opfor_vocab_list(opfor_terrain_kind_names, list, sizeof list));
    }
    struct fy_node *second = NULL;
    int nshapes = 0;
    for (int i = POLY; i <= CIRC; i++)
        if (f[i].v && ++nshapes == 2)
            second = f[i].k;
    if (nshapes != 1)
        return opfor_yaml_fail(
            &c->rd, OPFOR_EPARSE, second ? second : n, n,
            "a terrain feature needs exactly one of: polygon, line, rect, circle");
    if (t->nfeatures >= OPFOR_MAX_FEATURES)
        return opfor_yaml_fail(&c->rd, OPFOR_EFULL, n, alt, "too many terrain features: at most %d",
                               OPFOR_MAX_FEATURES);
    if (f[POLY].v) {
        shape_node = f[POLY].k;
        if (get_pts(c, f[POLY].v, f[POLY].k, "polygon", 3, OPFOR_POLY_MAX_PTS, t, pts, &np))
            return c->rd.err;
    } else if (f[LINE].v) {
        shape = OPFOR_SHAPE_LINE;
        shape_node = f[LINE].k;
        if (get_pts(c, f[LINE].v, f[LINE].k, "line", 2, OPFOR_POLY_MAX_PTS, t, pts, &np))
            return c->rd.err;
    } else if (f[RECT].v) {
        struct fy_node *r = f[RECT].v;
        float x, y, w, d;
        shape_node = f[RECT].k;
        if (opfor_yaml_want_seq(&c->rd, r, f[RECT].k, "rect"))
            return c->rd.err;
        if (fy_node_sequence_item_count(r) != 4)
            return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, r, f[RECT].k,
                                   "expected [x, y, width, depth] (inches) for rect");
        if (get_num(c, fy_node_sequence_get_by_index(r, 0), r, "rect x", 0.0f, t->width, &x) ||
            get_num(c, fy_node_sequence_get_by_index(r, 1), r, "rect y", 0.0f, t->depth, &y) ||
            get_num(c, fy_node_sequence_get_by_index(r, 2), r, "rect width", 0.01f, t->width - x,
                    &w) ||
            get_num(c, fy_node_sequence_get_by_index(r, 3), r, "rect depth", 0.01f, t->depth - y,
                    &d))
            return c->rd.err;
        pts[0] = opfor_pt(x, y);
        pts[1] = opfor_pt(x + w, y);
        pts[2] = opfor_pt(x + w, y + d);
        pts[3] = opfor_pt(x, y + d);
        np = 4;
    } else {
        enum { CEN, RAD, CNF };
        opfor_yaml_field_t cf[CNF] = {{"center", 0, 0}, {"radius", 0, 0}};
        opfor_pt_t ctr;
        float rad;
        shape_node = f[CIRC].k;
        if (opfor_yaml_read_fields(&c->rd, f[CIRC].v, f[CIRC].k, "circle", cf, CNF) ||
            require(c, &cf[CEN], f[CIRC].v, "circle") || require(c, &cf[RAD], f[CIRC].v, "circle"))
            return c->rd.err;
        if (get_pt(c, cf[CEN].v, cf[CEN].k, "circle center", t, &ctr) ||
            get_num(c, cf[RAD].v, cf[RAD].k, "circle radius", 0.1f, 240.0f, &rad))
            return c->rd.err;
        for (int k = 0; k < 16; k++) {
            pts[k] = opfor_pt(ctr.x + rad * cos16[k], ctr.y + rad * cos16[(k + 12) % 16]);
            if (!opfor_rect_contains(t->width, t->depth, pts[k]))
                return opfor_yaml_fail(&c->rd, OPFOR_ERANGE, cf[RAD].v, cf[RAD].k,
                                       "circle of radius %g around [%g, %g] runs off the table",
                                       (double)rad, (double)ctr.x, (double)ctr.y);
        }
        np = 16;
    }
    const char *kname = opfor_vocab_name(opfor_terrain_kind_names, kind);
    if (shape == OPFOR_SHAPE_AREA && !kind_area_ok(kind))
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, shape_node, n,
                               "a %s is drawn with line: [[x, y], ...]", kname);
    if (shape == OPFOR_SHAPE_LINE && !kind_line_ok(kind))
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, shape_node, n,
                               "a %s is an area: use polygon, rect or circle", kname);
    if (shape == OPFOR_SHAPE_AREA && !(fabsf(opfor_poly_area2(pts, np)) > 0.02f))
        return opfor_yaml_fail(&c->rd, OPFOR_ERANGE, shape_node, n, "the %s's polygon has no area",
                               kname);
    float width = c->rules->terrain.line_width[kind];
    if (f[WIDTH].v) {
        if (shape == OPFOR_SHAPE_AREA)
            return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, f[WIDTH].k, n,
                                   "width applies only to line features");
        if (get_num(c, f[WIDTH].v, f[WIDTH].k, "line width", 0.0f, 24.0f, &width))
            return c->rd.err;
    }
    opfor_terrain_feature_t feat;
    if (opfor_terrain_feature_init(&feat, &c->rules->terrain, (opfor_terrain_kind_t)kind,
                                   (opfor_shape_t)shape, name, pts, np, width) != 0)
        return opfor_yaml_fail(&c->rd, OPFOR_EINVAL, n, alt, "invalid terrain feature");
    if (f[COVER].v) {
        if (opfor_yaml_get_enum(&c->rd, f[COVER].v, f[COVER].k, "cover", opfor_cover_names, &v))
            return c->rd.err;
        feat.cover = (uint8_t)v;
    }
    if (f[SIGHT].v) {
        if (opfor_yaml_get_enum(&c->rd, f[SIGHT].v, f[SIGHT].k, "sight", opfor_sight_names, &v))
            return c->rd.err;
        feat.sight = (uint8_t)v;
    }
    if (f[MOVE].v) {
        if (opfor_yaml_get_enum(&c->rd, f[MOVE].v, f[MOVE].k, "movement class",
                                opfor_move_class_names, &v))
            return c->rd.err;
        feat.move = (uint8_t)v;
    }
    if (f[HIDES].v) {
        if (opfor_yaml_get_bool(&c->rd, f[HIDES].v, f[HIDES].k, "hides", &v))
            return c->rd.err;
        feat.flags = (uint16_t)(v ? feat.flags | OPFOR_TF_HIDES : feat.flags & ~OPFOR_TF_HIDES);
    }
    if (f[CLOSED].v) {
        if (opfor_yaml_get_bool(&c->rd, f[CLOSED].v, f[CLOSED].k, "closed_to_mounted", &v))
            return c->rd.err;
        feat.flags =
            (uint16_t)(v ? feat.flags | OPFOR_TF_NO_MOUNTED : feat.flags & ~OPFOR_TF_NO_MOUNTED);
    }
    opfor_table_add(t, &feat);
    return 0;
}

static int parse_terrain(ctx_t *c, struct fy_node *n, struct fy_node *alt) {
    if (opfor_yaml_want_seq(&c->rd, n, alt, "terrain"))
        return c->rd.err;
    void *it = NULL;
    struct fy_node *item;
    while ((item = fy_node_sequence_iterate(n, &it)) != NULL)
        if (parse_feature(c, item, n))
            return c->rd.err;
    return 0;
}

static int parse_side(ctx_t *c, struct fy_node *n, struct fy_node *alt, opfor_side_t *s) {
    enum { NAME, PLAYER, EDGE, TERR, NF };
    opfor_yaml_field_t f[NF] = {
        {"name", 0, 0}, {"player", 0, 0}, {"edge", 0, 0}, {"territory", 0, 0}};
    int v;
    if (opfor_yaml_read_fields(&c->rd, n, alt, "side", f, NF) || require(c, &f[NAME], n, "side"))
        return c->rd.err;
    if (opfor_yaml_get_str(&c->rd, f[NAME].v, f[NAME].k, "side name", s->name, sizeof s->name))
        return c->rd.err;
    if (!s->name[0])
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, f[NAME].v, f[NAME].k,
                               "a side's name may not be empty");
    s->edge = -1;
    if (f[PLAYER].v) {
        if (opfor_yaml_get_bool(&c->rd, f[PLAYER].v, f[PLAYER].k, "player", &v))
            return c->rd.err;
        s->player = (uint8_t)v;
    }
    if (f[EDGE].v) {
        if (opfor_yaml_get_enum(&c->rd, f[EDGE].v, f[EDGE].k, "table edge", opfor_edge_names, &v))
            return c->rd.err;
        s->edge = (int8_t)v;
    }
    if (f[TERR].v) {
        int np = 0;
        if (get_pts(c, f[TERR].v, f[TERR].k, "territory", 3, OPFOR_POLY_MAX_PTS, &c->sc->table,
                    s->territory, &np))
            return c->rd.err;
        s->nterritory = (uint8_t)np;
    }
    return 0;
}

static int parse_sides(ctx_t *c, struct fy_node *n, struct fy_node *alt) {
    if (opfor_yaml_want_seq(&c->rd, n, alt, "sides"))
        return c->rd.err;
    if (fy_node_sequence_item_count(n) != OPFOR_MAX_SIDES)
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, n, alt, "expected exactly 2 sides, found %d",
                               fy_node_sequence_item_count(n));
    for (int i = 0; i < OPFOR_MAX_SIDES; i++)
        if (parse_side(c, fy_node_sequence_get_by_index(n, i), n, &c->sc->sides[i]))
            return c->rd.err;
    if (strcasecmp(c->sc->sides[0].name, c->sc->sides[1].name) == 0)
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, fy_node_sequence_get_by_index(n, 1), n,
                               "both sides are named '%s'", c->sc->sides[0].name);
    return 0;
}

static int get_side(ctx_t *c, struct fy_node *n, struct fy_node *alt, int *out) {
    char name[SCALAR_MAX];
    if (opfor_yaml_get_str(&c->rd, n, alt, "side", name, sizeof name))
        return c->rd.err;
    *out = opfor_scenario_side(c->sc, name);
    if (*out < 0)
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, n, alt,
                               "unknown side '%s'; expected one of: %s, %s", name,
                               c->sc->sides[0].name, c->sc->sides[1].name);
    return 0;
}

/* Facing: a compass point or a vector [dx, dy]. */
static int get_facing(ctx_t *c, struct fy_node *n, struct fy_node *alt, opfor_vec_t *out) {
    if (n && fy_node_is_sequence(n)) {
        opfor_pt_t v;
        if (get_pt(c, n, alt, "facing", NULL, &v))
            return c->rd.err;
        if (!(opfor_vlen2(v) > 0.0f))
            return opfor_yaml_fail(&c->rd, OPFOR_ERANGE, n, alt, "facing [0, 0] has no direction");
        *out = opfor_vnorm(v);
        return 0;
    }
    int d;
    if (opfor_yaml_get_enum(&c->rd, n, alt, "facing (a compass point or [dx, dy])",
                            opfor_compass_names, &d))
        return c->rd.err;
    *out = opfor_compass_vec((opfor_table_north_t)c->sc->table.north, (opfor_compass_t)d);
    return 0;
}

/* Default facing for a side's units: away from its edge, else north. */
static opfor_vec_t side_facing(const opfor_scenario_t *sc, int side) {
    int e = sc->sides[side].edge;
    if (e >= 0)
        return opfor_edge_inward((opfor_edge_t)e);
    return opfor_compass_vec((opfor_table_north_t)sc->table.north, OPFOR_N);
}

static int unit_name(ctx_t *c, struct fy_node *n, struct fy_node *alt, opfor_unit_t *u) {
    char name[SCALAR_MAX];
    if (opfor_yaml_get_str(&c->rd, n, alt, "unit name", name, sizeof name))
        return c->rd.err;
    if (!name[0])
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, n, alt, "a unit's name may not be empty");
    if (strlen(name) >= sizeof u->name)
        return opfor_yaml_fail(&c->rd, OPFOR_ERANGE, n, alt,
                               "unit name '%s' is too long: at most %d bytes", name,
                               OPFOR_UNIT_NAME_MAX - 1);
    if (opfor_scenario_unit(c->sc, name) >= 0)
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, n, alt, "a unit named '%s' already exists",
                               name);
    memcpy(u->name, name, strlen(name) + 1);
    return 0;
}

/* Reads one figure group into the figure array; marks figures needing placement in
 * autoplace[]. */
static int parse_group(ctx_t *c, struct fy_node *n, struct fy_node *alt, int unit, int quality,
                       unsigned char *autoplace) {
    enum { COUNT, QUAL, WEAP, SKILL, MOUNTED, HORSE, EQUIP, WOUNDED, POS, NF };
    opfor_yaml_field_t f[NF] = {{"count", 0, 0},     {"quality", 0, 0}, {"weapons", 0, 0},
                                {"skills", 0, 0},    {"mounted", 0, 0}, {"horse", 0, 0},
                                {"equipment", 0, 0}, {"wounded", 0, 0}, {"positions", 0, 0}};
    opfor_scenario_t *sc = c->sc;
    int count = 1, mounted = 0, horse = -1, equip = 0, wounded = 0;
    unsigned weapons = 0, skills = 0;
    if (opfor_yaml_read_fields(&c->rd, n, alt, "figure group", f, NF))
        return c->rd.err;
    if (f[COUNT].v &&
        opfor_yaml_get_int(&c->rd, f[COUNT].v, f[COUNT].k, "count", 1, OPFOR_MAX_FIGURES, &count))
        return c->rd.err;
    if (f[QUAL].v &&
        opfor_yaml_get_enum(&c->rd, f[QUAL].v, f[QUAL].k, "quality", opfor_quality_names, &quality))
        return c->rd.err;
    if (f[WEAP].v && opfor_yaml_get_bits(&c->rd, f[WEAP].v, f[WEAP].k, "weapon", opfor_weapon_names,
                                         OPFOR_YAML_BITS_NONE, &weapons))
        return c->rd.err;
    if (f[SKILL].v && opfor_yaml_get_bits(&c->rd, f[SKILL].v, f[SKILL].k, "skill",
                                          opfor_skill_names, OPFOR_YAML_BITS_NONE, &skills))
        return c->rd.err;
    if ((f[MOUNTED].v &&
         opfor_yaml_get_bool(&c->rd, f[MOUNTED].v, f[MOUNTED].k, "mounted", &mounted)) ||
        (f[HORSE].v && opfor_yaml_get_bool(&c->rd, f[HORSE].v, f[HORSE].k, "horse", &horse)) ||
        (f[EQUIP].v && opfor_yaml_get_bool(&c->rd, f[EQUIP].v, f[EQUIP].k, "equipment", &equip)) ||
        (f[WOUNDED].v &&
         opfor_yaml_get_bool(&c->rd, f[WOUNDED].v, f[WOUNDED].k, "wounded", &wounded)))
        return c->rd.err;
    if (sc->nfigures + count > OPFOR_MAX_FIGURES)
        return opfor_yaml_fail(&c->rd, OPFOR_EFULL, f[COUNT].v ? f[COUNT].v : n, alt,
                               "too many figures: a scenario holds at most %d", OPFOR_MAX_FIGURES);
    if (f[POS].v) {
        if (opfor_yaml_want_seq(&c->rd, f[POS].v, f[POS].k, "positions"))
            return c->rd.err;
        if (fy_node_sequence_item_count(f[POS].v) != count)
            return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, f[POS].v, f[POS].k,
                                   "positions lists %d points but count is %d",
                                   fy_node_sequence_item_count(f[POS].v), count);
    }
    if (horse < 0)
        horse = mounted;
    uint16_t flags = OPFOR_FIG_ALIVE;
    if (mounted)
        flags |= OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE;
    if (horse)
        flags |= OPFOR_FIG_HORSE;
    if (equip)
        flags |= OPFOR_FIG_EQUIPMENT;
    if (wounded)
        flags |= OPFOR_FIG_WOUNDED;
    for (int i = 0; i < count; i++) {
        int fi = sc->nfigures++;
        opfor_figure_t *fig = &sc->figures[fi];
        memset(fig, 0, sizeof *fig);
        fig->unit = (uint8_t)unit;
        fig->quality = (uint8_t)quality;
        fig->weapons = (uint16_t)weapons;
        fig->skills = (uint16_t)skills;
        fig->flags = flags;
        c->fig_src[fi] = n;
        autoplace[fi] = 1;
        if (f[POS].v) {
            struct fy_node *p = fy_node_sequence_get_by_index(f[POS].v, i);
            if (get_pt(c, p, f[POS].v, "figure position", NULL, &fig->pos))
                return c->rd.err;
            c->fig_src[fi] = p;
            autoplace[fi] = 0;
        }
    }
    return 0;
}

/* After a unit's figures are read: places the ones without positions, gives the unit the
 * best quality of its figures when none was stated, and calls the ruleset's hook. */
static int finish_unit(ctx_t *c, opfor_unit_t *u, struct fy_node *pos_node, opfor_pt_t pos,
                       unsigned char *autoplace, int quality_given) {
    opfor_scenario_t *sc = c->sc;
    opfor_figure_t tmp[OPFOR_MAX_FIGURES];
    int idx[OPFOR_MAX_FIGURES], k = 0;
    for (int i = u->first; i < u->first + u->count; i++)
        if (autoplace[i]) {
            idx[k] = i;
            tmp[k++] = sc->figures[i];
        }
    if (k > 0) {
        opfor_unit_place(&c->rules->terrain.radii, tmp, k, pos, u->facing,
                         (opfor_formation_t)u->formation);
        for (int i = 0; i < k; i++) {
            sc->figures[idx[i]].pos = tmp[i].pos;
            c->fig_src[idx[i]] = pos_node;
        }
    }
    if (!quality_given) {
        int q = opfor_unit_best_quality(u, sc->figures);
        u->quality = (uint8_t)(q < 0 ? OPFOR_Q_SOLDIER : q);
    }
    return hook(c, OPFOR_SCENARIO_UNIT, sc->nunits - 1, "figures");
}

static int new_unit(ctx_t *c, struct fy_node *n, struct fy_node *alt, opfor_unit_t **out) {
    opfor_scenario_t *sc = c->sc;
    if (sc->nunits >= OPFOR_MAX_UNITS)
        return opfor_yaml_fail(&c->rd, OPFOR_EFULL, n, alt,
                               "too many units: a scenario holds at most %d", OPFOR_MAX_UNITS);
    c->unit_src[sc->nunits] = n;
    opfor_unit_t *u = &sc->units[sc->nunits];
    memset(u, 0, sizeof *u);
    u->first = (uint16_t)sc->nfigures;
    *out = u;
    return 0;
}

/* Speed classes of a vehicle and how it drives over rough ground. */
const opfor_name_t opfor_speed_names[] = {
    {"slow", OPFOR_SPEED_SLOW},
    {"fast", OPFOR_SPEED_FAST},
    {"very_fast", OPFOR_SPEED_VERY_FAST},
    {"extremely_fast", OPFOR_SPEED_EXTREMELY_FAST},
    {NULL, 0},
};
const opfor_name_t opfor_drive_names[] = {
    {"wheeled", OPFOR_DRIVE_WHEELED},
    {"tracked", OPFOR_DRIVE_TRACKED},
    {NULL, 0},
};

/* The machine fields of a unit, in this order (a slice of parse_unit's fields). */
enum {
    MF_PAYLOAD,
    MF_FIREOUT,
    MF_EMBARK,
    MF_TRACK,
    MF_AIRBORNE,
    MF_SPEED,
    MF_DRIVE,
    MF_ARMOUR,
    MF_TETHER,
    MF_SHELL,
    MF_N
};

/* The machine keys of the unit being parsed (index sc->nunits): payload and fire_out,
 * track (a track drawn in terrain), airborne, speed, drive, armour, tethered and shell;
 * embarked_in is resolved later, by resolve_machines. Which unit types may have them is the
 * ruleset's unit hook's check. */
static int parse_machine(ctx_t *c, const opfor_yaml_field_t *mf) {
    struct fy_node *pk = mf[MF_PAYLOAD].k, *pv = mf[MF_PAYLOAD].v, *fk = mf[MF_FIREOUT].k,
                   *fv = mf[MF_FIREOUT].v, *ev = mf[MF_EMBARK].v, *tk = mf[MF_TRACK].k,
                   *tv = mf[MF_TRACK].v, *ak = mf[MF_AIRBORNE].k, *av = mf[MF_AIRBORNE].v;
    opfor_scenario_t *sc = c->sc;
    opfor_unit_machine_t *m = &sc->machine[sc->nunits];
    int v;
    memset(m, 0, sizeof *m);
    c->embark_src[sc->nunits] = ev;
    if (pv) {
        if (opfor_yaml_get_int(&c->rd, pv, pk, "payload", 0, 64, &v))
            return c->rd.err;
        m->payload = (uint8_t)v;
        if (hook(c, OPFOR_SCENARIO_UNIT, sc->nunits, "payload"))
            return c->rd.err;
    }
    if (fv) {
        if (opfor_yaml_get_int(&c->rd, fv, fk, "fire_out", 0, 64, &v))
            return c->rd.err;
        if (v > m->payload)
            return opfor_yaml_fail(&c->rd, OPFOR_ERANGE, fv, fk,
                                   "fire_out (%d) may not exceed the vehicle's payload (%d)", v,
                                   m->payload);
        m->fire_out = (uint8_t)v;
    }
    if (tv) {
        char name[SCALAR_MAX];
        if (opfor_yaml_get_str(&c->rd, tv, tk, "track", name, sizeof name) ||
            hook(c, OPFOR_SCENARIO_UNIT, sc->nunits, "track"))
            return c->rd.err;
        int r = opfor_scenario_route(sc, name);
        if (r < 0 || sc->routes[r].kind != OPFOR_ROUTE_TRACK)
            return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, tv, tk,
                                   "no track named '%s': draw it first in terrain with kind: track",
                                   name);
        m->track = (uint8_t)(r + 1);
    }
    if (av) {
        if (opfor_yaml_get_bool(&c->rd, av, ak, "airborne", &v))
            return c->rd.err;
        m->grounded = (uint8_t)!v;
        if (hook(c, OPFOR_SCENARIO_UNIT, sc->nunits, "airborne"))
            return c->rd.err;
    }
    for (int k = MF_SPEED; k <= MF_ARMOUR; k++) {
        if (!mf[k].v)
            continue;
        if (hook(c, OPFOR_SCENARIO_UNIT, sc->nunits, mf[k].key))
            return c->rd.err;
        const opfor_name_t *names = k == MF_SPEED   ? opfor_speed_names
                                    : k == MF_DRIVE ? opfor_drive_names
                                                    : opfor_cover_names;
        if (opfor_yaml_get_enum(&c->rd, mf[k].v, mf[k].k, mf[k].key, names, &v))
            return c->rd.err;
        if (k == MF_SPEED)
            m->speed = (uint8_t)v;
        else if (k == MF_DRIVE)
            m->drive = (uint8_t)v;
        else
            m->armour = (uint8_t)(v + 1);
    }
    if (mf[MF_TETHER].v) {
        if (opfor_yaml_get_bool(&c->rd, mf[MF_TETHER].v, mf[MF_TETHER].k, "tethered", &v))
            return c->rd.err;
        m->tethered = (uint8_t)(v != 0);
        if (hook(c, OPFOR_SCENARIO_UNIT, sc->nunits, "tethered"))
            return c->rd.err;
    }
    if (mf[MF_SHELL].v) {
        if (hook(c, OPFOR_SCENARIO_UNIT, sc->nunits, "shell") ||
            opfor_yaml_get_enum(&c->rd, mf[MF_SHELL].v, mf[MF_SHELL].k, "shell",
                                opfor_quality_names, &v))
            return c->rd.err;
        m->shell = (uint8_t)(v + 1);
    }
    return 0;
}

static int parse_unit(ctx_t *c, struct fy_node *n, struct fy_node *alt, unsigned char *autoplace) {
    enum {
        NAME,
        SIDE,
        TYPE,
        QUAL,
        STATUS,
        POS,
        FACE,
        FORM,
        SELF,
        LIMB,
        OFF,
        FIGS,
        PAYLOAD,
        FIREOUT,
        EMBARK,
        TRACK,
        AIRBORNE,
        SPEED,
        DRIVE,
        ARMOUR,
        TETHER,
        SHELL,
        NF
    };
    opfor_yaml_field_t f[NF] = {{"name", 0, 0},     {"side", 0, 0},      {"type", 0, 0},
                                {"quality", 0, 0},  {"status", 0, 0},    {"position", 0, 0},
                                {"facing", 0, 0},   {"formation", 0, 0}, {"self_commanding", 0, 0},
                                {"limbered", 0, 0}, {"off_table", 0, 0}, {"figures", 0, 0},
                                {"payload", 0, 0},  {"fire_out", 0, 0},  {"embarked_in", 0, 0},
                                {"track", 0, 0},    {"airborne", 0, 0},  {"speed", 0, 0},
                                {"drive", 0, 0},    {"armour", 0, 0},    {"tethered", 0, 0},
                                {"shell", 0, 0}};
    opfor_scenario_t *sc = c->sc;
    opfor_unit_t *u = NULL; /* set by new_unit; NULL keeps -O3 from warning */
    int side, type, quality = OPFOR_Q_SOLDIER, v;
    opfor_pt_t pos = {0, 0};
    /* Required keys are checked as they are needed, so errors come in the documented
     * key order (name, side, type, ..., figures). */
    if (opfor_yaml_read_fields(&c->rd, n, alt, "unit", f, NF) || new_unit(c, n, alt, &u))
        return c->rd.err;
    if (require(c, &f[NAME], n, "unit") || unit_name(c, f[NAME].v, f[NAME].k, u) ||
        require(c, &f[SIDE], n, "unit") || get_side(c, f[SIDE].v, f[SIDE].k, &side) ||
        require(c, &f[TYPE], n, "unit") ||
        opfor_yaml_get_enum(&c->rd, f[TYPE].v, f[TYPE].k, "unit type", opfor_unit_type_names,
                            &type))
        return c->rd.err;
    u->side = (uint8_t)side;
    u->type = (uint8_t)type;
    if (f[QUAL].v) {
        if (opfor_yaml_get_enum(&c->rd, f[QUAL].v, f[QUAL].k, "quality", opfor_quality_names,
                                &quality))
            return c->rd.err;
        u->quality = (uint8_t)quality;
    }
    if (f[STATUS].v) {
        if (opfor_yaml_get_enum(&c->rd, f[STATUS].v, f[STATUS].k, "status", opfor_status_names, &v))
            return c->rd.err;
        u->status = (uint8_t)v;
    }
    u->facing = side_facing(sc, side);
    if (f[FACE].v && get_facing(c, f[FACE].v, f[FACE].k, &u->facing))
        return c->rd.err;
    if (f[FORM].v) {
        if (opfor_yaml_get_enum(&c->rd, f[FORM].v, f[FORM].k, "formation", opfor_formation_names,
                                &v))
            return c->rd.err;
        u->formation = (uint8_t)v;
    }
    if (f[SELF].v) {
        if (opfor_yaml_get_bool(&c->rd, f[SELF].v, f[SELF].k, "self_commanding", &v))
            return c->rd.err;
        if (v)
            u->flags |= OPFOR_UNIT_SELF_COMMANDING;
    }
    if (f[LIMB].v) {
        if (opfor_yaml_get_bool(&c->rd, f[LIMB].v, f[LIMB].k, "limbered", &v))
            return c->rd.err;
        if (v)
            u->flags |= OPFOR_UNIT_LIMBERED;
        if (hook(c, OPFOR_SCENARIO_UNIT, sc->nunits, "limbered"))
            return c->rd.err;
    }
    if (f[OFF].v) {
        if (opfor_yaml_get_bool(&c->rd, f[OFF].v, f[OFF].k, "off_table", &v))
            return c->rd.err;
        if (v)
            u->flags |= OPFOR_UNIT_OFF_TABLE;
    }
    _Static_assert(FIREOUT - PAYLOAD == MF_FIREOUT && DRIVE - PAYLOAD == MF_DRIVE &&
                       ARMOUR - PAYLOAD == MF_ARMOUR && TETHER - PAYLOAD == MF_TETHER &&
                       SHELL - PAYLOAD == MF_SHELL,
                   "parse_unit's machine fields follow parse_machine's order");
    if (parse_machine(c, &f[PAYLOAD]))
        return c->rd.err;
    /* the ruleset's checks of the unit's own keys, before its figures are read */
    if (hook(c, OPFOR_SCENARIO_UNIT, sc->nunits, NULL))
        return c->rd.err;
    if (f[POS].v && get_pt(c, f[POS].v, f[POS].k, "position", NULL, &pos))
        return c->rd.err;
    if (require(c, &f[FIGS], n, "unit") ||
        opfor_yaml_want_seq(&c->rd, f[FIGS].v, f[FIGS].k, "figures"))
        return c->rd.err;
    if (fy_node_sequence_item_count(f[FIGS].v) == 0)
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, f[FIGS].v, f[FIGS].k,
                               "a unit needs at least one figure");
    void *it = NULL;
    struct fy_node *g;
    while ((g = fy_node_sequence_iterate(f[FIGS].v, &it)) != NULL)
        if (parse_group(c, g, f[FIGS].v, sc->nunits, quality, autoplace))
            return c->rd.err;
    u->count = (uint16_t)(sc->nfigures - u->first);
    u->strength = u->count;
    int need_pos = 0;
    for (int i = u->first; i < sc->nfigures; i++)
        need_pos |= autoplace[i];
    if (need_pos && !f[POS].v && !f[EMBARK].v)
        return opfor_yaml_fail(
            &c->rd, OPFOR_EPARSE, n, alt,
            "unit '%s' needs a position: [x, y] (or positions for every figure group)", u->name);
    sc->nunits++;
    return finish_unit(c, u, f[POS].v, pos, autoplace, f[QUAL].v != NULL);
}

static int parse_general(ctx_t *c, struct fy_node *n, struct fy_node *alt,
                         unsigned char *autoplace) {
    enum { NAME, SIDE, POS, QUAL, MOUNTED, WEAP, SKILL, FACE, NF };
    opfor_yaml_field_t f[NF] = {{"name", 0, 0},    {"side", 0, 0},    {"position", 0, 0},
                                {"quality", 0, 0}, {"mounted", 0, 0}, {"weapons", 0, 0},
                                {"skills", 0, 0},  {"facing", 0, 0}};
    opfor_scenario_t *sc = c->sc;
    opfor_unit_t *u = NULL;
    int side, quality = OPFOR_Q_ELITE, mounted = 0;
    unsigned weapons = OPFOR_W_SWORD | OPFOR_W_PISTOL, skills = 0;
    if (opfor_yaml_read_fields(&c->rd, n, alt, "general", f, NF) || new_unit(c, n, alt, &u))
        return c->rd.err;
    if (require(c, &f[NAME], n, "general") || unit_name(c, f[NAME].v, f[NAME].k, u) ||
        require(c, &f[SIDE], n, "general") || get_side(c, f[SIDE].v, f[SIDE].k, &side) ||
        require(c, &f[POS], n, "general"))
        return c->rd.err;
    if (sc->nfigures >= OPFOR_MAX_FIGURES)
        return opfor_yaml_fail(&c->rd, OPFOR_EFULL, n, alt,
                               "too many figures: a scenario holds at most %d", OPFOR_MAX_FIGURES);
    if ((f[QUAL].v && opfor_yaml_get_enum(&c->rd, f[QUAL].v, f[QUAL].k, "quality",
                                          opfor_quality_names, &quality)) ||
        (f[MOUNTED].v &&
         opfor_yaml_get_bool(&c->rd, f[MOUNTED].v, f[MOUNTED].k, "mounted", &mounted)) ||
        (f[WEAP].v && opfor_yaml_get_bits(&c->rd, f[WEAP].v, f[WEAP].k, "weapon",
                                          opfor_weapon_names, OPFOR_YAML_BITS_NONE, &weapons)) ||
        (f[SKILL].v && opfor_yaml_get_bits(&c->rd, f[SKILL].v, f[SKILL].k, "skill",
                                           opfor_skill_names, OPFOR_YAML_BITS_NONE, &skills)))
        return c->rd.err;
    u->side = (uint8_t)side;
    u->type = OPFOR_UT_HEADQUARTERS;
    u->quality = (uint8_t)quality;
    u->flags = OPFOR_UNIT_GENERAL;
    u->facing = side_facing(sc, side);
    if (f[FACE].v && get_facing(c, f[FACE].v, f[FACE].k, &u->facing))
        return c->rd.err;
    opfor_figure_t *fig = &sc->figures[sc->nfigures];
    memset(fig, 0, sizeof *fig);
    if (get_pt(c, f[POS].v, f[POS].k, "position", NULL, &fig->pos))
        return c->rd.err;
    fig->unit = (uint8_t)sc->nunits;
    fig->quality = (uint8_t)quality;
    fig->weapons = (uint16_t)weapons;
    fig->skills = (uint16_t)(skills | OPFOR_S_LEADER | OPFOR_S_GENERAL);
    fig->flags = (uint16_t)(OPFOR_FIG_ALIVE | (mounted ? OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE : 0));
    c->fig_src[sc->nfigures] = f[POS].v;
    autoplace[sc->nfigures] = 0;
    sc->nfigures++;
    u->count = u->strength = 1;
    sc->nunits++;
    return 0;
}

static int parse_list(ctx_t *c, struct fy_node *n, struct fy_node *alt, const char *what,
                      int (*fn)(ctx_t *, struct fy_node *, struct fy_node *, unsigned char *),
                      unsigned char *autoplace) {
    if (opfor_yaml_want_seq(&c->rd, n, alt, what))
        return c->rd.err;
    void *it = NULL;
    struct fy_node *item;
    while ((item = fy_node_sequence_iterate(n, &it)) != NULL)
        if (fn(c, item, n, autoplace))
            return c->rd.err;
    return 0;
}

static int parse_objective(ctx_t *c, struct fy_node *n, struct fy_node *alt) {
    enum { NAME, POS, RAD, PTS, NF };
    opfor_yaml_field_t f[NF] = {
        {"name", 0, 0}, {"position", 0, 0}, {"radius", 0, 0}, {"points", 0, 0}};
    opfor_scenario_t *sc = c->sc;
    if (opfor_yaml_read_fields(&c->rd, n, alt, "objective", f, NF))
        return c->rd.err;
    if (sc->nobjectives >= OPFOR_MAX_OBJECTIVES)
        return opfor_yaml_fail(&c->rd, OPFOR_EFULL, n, alt, "too many objectives: at most %d",
                               OPFOR_MAX_OBJECTIVES);
    opfor_objective_t *o = &sc->objectives[sc->nobjectives];
    memset(o, 0, sizeof *o);
    o->radius = 3.0f;
    o->points = 1;
    if (require(c, &f[NAME], n, "objective") ||
        opfor_yaml_get_str(&c->rd, f[NAME].v, f[NAME].k, "objective name", o->name,
                           sizeof o->name) ||
        require(c, &f[POS], n, "objective") ||
        get_pt(c, f[POS].v, f[POS].k, "objective position", &sc->table, &o->pos) ||
        (f[RAD].v && get_num(c, f[RAD].v, f[RAD].k, "objective radius", 0.1f, 48.0f, &o->radius)) ||
        (f[PTS].v &&
         opfor_yaml_get_int(&c->rd, f[PTS].v, f[PTS].k, "objective points", -100, 100, &o->points)))
        return c->rd.err;
    sc->nobjectives++;
    return 0;
}

/* ---- whole-scenario checks ---- */

/* The figure passengers sit on: the vehicle's first equipment figure, else its first. */
static int hull_of(const opfor_scenario_t *sc, int u) {
    const opfor_unit_t *un = &sc->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (sc->figures[i].flags & OPFOR_FIG_EQUIPMENT)
            return i;
    return un->first;
}

/* embarked_in: the carrier exists, carries passengers, is of the same side and has room, and
 * the passenger is no machine, general or off-table unit; they are placed on the carrier's
 * hull. (Who may ride is the ruleset's check.) */
static int resolve_machines(ctx_t *c) {
    opfor_scenario_t *sc = c->sc;
    int load[OPFOR_MAX_UNITS] = {0};
    for (int u = 0; u < sc->nunits; u++) {
        struct fy_node *ev = c->embark_src[u];
        if (!ev)
            continue;
        char name[SCALAR_MAX];
        if (opfor_yaml_get_str(&c->rd, ev, c->unit_src[u], "embarked_in", name, sizeof name))
            return c->rd.err;
        int v = opfor_scenario_unit(sc, name);
        const opfor_unit_t *pu = &sc->units[u];
        if (v < 0)
            return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, ev, NULL,
                                   "embarked_in: no unit named '%s'", name);
        if (v == u || sc->machine[v].payload == 0)
            return opfor_yaml_fail(
                &c->rd, OPFOR_EPARSE, ev, NULL,
                "embarked_in: unit '%s' carries no passengers (give it payload: N)",
                sc->units[v].name);
        if (sc->units[v].side != pu->side)
            return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, ev, NULL,
                                   "embarked_in: '%s' belongs to the other side",
                                   sc->units[v].name);
        if (sc->machine[v].embarked_in || sc->machine[u].payload || sc->machine[u].track ||
            pu->type >= OPFOR_UT_VEHICLE ||
            (pu->flags & (OPFOR_UNIT_GENERAL | OPFOR_UNIT_OFF_TABLE)))
            return opfor_yaml_fail(
                &c->rd, OPFOR_EPARSE, ev, NULL,
                "embarked_in: unit '%s' cannot ride in a vehicle (it is a machine, a "
                "general, off the table, or its carrier is itself aboard another)",
                pu->name);
        if (hook(c, OPFOR_SCENARIO_UNIT, u, "embarked_in"))
            return c->rd.err;
        load[v] += pu->count;
        if (load[v] > sc->machine[v].payload)
            return opfor_yaml_fail(
                &c->rd, OPFOR_ERANGE, ev, NULL,
                "embarked_in: '%s' carries at most %d passengers, %d are put aboard",
                sc->units[v].name, sc->machine[v].payload, load[v]);
        sc->machine[u].embarked_in = (uint8_t)(v + 1);
        opfor_pt_t at = sc->figures[hull_of(sc, v)].pos;
        for (int i = pu->first; i < pu->first + pu->count; i++) {
            sc->figures[i].pos = at;
            c->fig_src[i] = ev;
        }
    }
    /* trains start on their track */
    for (int u = 0; u < sc->nunits; u++) {
        if (!sc->machine[u].track || (sc->units[u].flags & OPFOR_UNIT_OFF_TABLE))
            continue;
        const opfor_route_t *r = &sc->routes[sc->machine[u].track - 1];
        const opfor_unit_t *un = &sc->units[u];
        for (int i = un->first; i < un->first + un->count; i++) {
            float off;
            opfor_route_project(r, sc->figures[i].pos, &off);
            if (off > 0.5f)
                return opfor_yaml_fail(
                    &c->rd, OPFOR_ERANGE, c->fig_src[i], c->unit_src[u],
                    "figure %d of train '%s' at [%.2f, %.2f] is %.2f in from its track "
                    "'%s' (at most 0.5)",
                    i - un->first + 1, un->name, (double)sc->figures[i].pos.x,
                    (double)sc->figures[i].pos.y, (double)off, r->name);
        }
    }
    return 0;
}

static int validate(ctx_t *c) {
    opfor_scenario_t *sc = c->sc;
    const opfor_table_t *t = &sc->table;
    for (int i = 0; i < sc->nfigures; i++) {
        const opfor_figure_t *f = &sc->figures[i];
        const opfor_unit_t *u = &sc->units[f->unit];
        if ((u->flags & OPFOR_UNIT_OFF_TABLE) || sc->machine[f->unit].embarked_in)
            continue; /* passengers sit on their vehicle's hull */
        int k = i - u->first + 1;
        if (!opfor_rect_contains(t->width, t->depth, f->pos))
            return opfor_yaml_fail(
                &c->rd, OPFOR_ERANGE, c->fig_src[i], c->unit_src[f->unit],
                "figure %d of unit '%s' would stand at [%.2f, %.2f], off the %g x %g "
                "table",
                k, u->name, (double)f->pos.x, (double)f->pos.y, (double)t->width, (double)t->depth);
        int closed_m = (f->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0 ||
                       (u->flags & OPFOR_UNIT_LIMBERED);
        int fi = opfor_terrain_impassable_at(t, f->pos, closed_m);
        if (fi >= 0) {
            const opfor_terrain_feature_t *tf = &t->features[fi];
            return opfor_yaml_fail(
                &c->rd, OPFOR_ERANGE, c->fig_src[i], c->unit_src[f->unit],
                "figure %d of unit '%s' at [%.2f, %.2f] is inside %s '%s' (terrain "
                "feature %d), %s",
                k, u->name, (double)f->pos.x, (double)f->pos.y,
                opfor_vocab_name(opfor_terrain_kind_names, tf->kind), tf->name, fi + 1,
                tf->move == OPFOR_MOVE_IMPASSABLE ? "which is impassable"
                                                  : "closed to mounted figures and guns");
        }
        const opfor_base_radii_t *radii = &c->rules->terrain.radii;
        float r = opfor_figure_radius(radii, f);
        for (int j = 0; j < i; j++) {
            const opfor_figure_t *g = &sc->figures[j];
            if ((sc->units[g->unit].flags & OPFOR_UNIT_OFF_TABLE) ||
                sc->machine[g->unit].embarked_in)
                continue;
            if (opfor_bases_overlap(f->pos, r, g->pos, opfor_figure_radius(radii, g), 0.01f))
                return opfor_yaml_fail(
                    &c->rd, OPFOR_ERANGE, c->fig_src[i], c->unit_src[f->unit],
                    "figure %d of unit '%s' at [%.2f, %.2f] overlaps figure %d of unit "
                    "'%s' at [%.2f, %.2f]",
                    k, u->name, (double)f->pos.x, (double)f->pos.y,
                    j - sc->units[g->unit].first + 1, sc->units[g->unit].name, (double)g->pos.x,
                    (double)g->pos.y);
        }
    }
    return 0;
}

/* ---- top level ---- */

/* `ruleset:`: the loading ruleset's own name (when it gave one), else any name. */
static int parse_ruleset(ctx_t *c, struct fy_node *v, struct fy_node *k) {
    opfor_scenario_t *sc = c->sc;
    const char *own = c->rules->name;
    if (own) {
        const opfor_name_t names[] = {{own, 0}, {NULL, 0}};
        int id;
        if (v && opfor_yaml_get_enum(&c->rd, v, k, "ruleset", names, &id))
            return c->rd.err;
        snprintf(sc->ruleset, sizeof sc->ruleset, "%s", own);
        return 0;
    }
    if (v && opfor_yaml_get_str(&c->rd, v, k, "ruleset", sc->ruleset, sizeof sc->ruleset))
        return c->rd.err;
    return 0;
}

/* ---- the ruleset's hooks (opfor_scenario_ck_t is the parse context) ---- */

opfor_scenario_t *opfor_scenario_ck_scenario(opfor_scenario_ck_t *ck) {
    return ((ctx_t *)ck)->sc;
}

opfor_yaml_rd_t *opfor_scenario_ck_reader(opfor_scenario_ck_t *ck) {
    return &((ctx_t *)ck)->rd;
}

/* The value and key nodes of key in mapping map (exact match, as opfor_yaml_read_fields). */
static struct fy_node *find_key(struct fy_node *map, const char *key, struct fy_node **kn) {
    void *it = NULL;
    struct fy_node_pair *p;
    size_t want = strlen(key);
    *kn = NULL;
    if (!map || !fy_node_is_mapping(map))
        return NULL;
    while ((p = fy_node_mapping_iterate(map, &it)) != NULL) {
        struct fy_node *k = fy_node_pair_key(p);
        size_t len = 0;
        const char *s =
            k && fy_node_is_scalar(k) && !fy_node_is_alias(k) ? fy_node_get_scalar(k, &len) : NULL;
        if (s && len == want && memcmp(s, key, len) == 0) {
            *kn = k;
            return fy_node_pair_value(p);
        }
    }
    return NULL;
}

/* Where item (kind, i) and its key were written: *v the value (or the item), *k its key. */
static void ck_where(ctx_t *c, opfor_scenario_item_t kind, int i, const char *key,
                     struct fy_node **v, struct fy_node **k) {
    struct fy_node *item = NULL;
    *v = *k = NULL;
    if (kind == OPFOR_SCENARIO_UNIT && i >= 0 && i < OPFOR_MAX_UNITS)
        item = c->unit_src[i];
    else if (kind == OPFOR_SCENARIO_ROUTE && i >= 0 && i < OPFOR_MAX_ROUTES)
        item = c->route_src[i];
    else if (kind == OPFOR_SCENARIO_ROOT)
        item = c->root;
    *v = item;
    if (!item || !key)
        return;
    struct fy_node *kn, *vn = find_key(item, key, &kn);
    if (kn) {
        *v = vn;
        *k = kn;
    }
}

int opfor_scenario_ck_has(opfor_scenario_ck_t *ck, opfor_scenario_item_t kind, int i,
                          const char *key) {
    struct fy_node *v, *k;
    ck_where((ctx_t *)ck, kind, i, key, &v, &k);
    return key && k != NULL;
}

int opfor_scenario_ck_fail(opfor_scenario_ck_t *ck, int code, opfor_scenario_item_t kind, int i,
                           const char *key, const char *fmt, ...) {
    ctx_t *c = (ctx_t *)ck;
    if (c->rd.err)
        return c->rd.err;
    struct fy_node *v, *k;
    ck_where(c, kind, i, key, &v, &k);
    c->rd.err = code;
    va_list ap;
    va_start(ap, fmt);
    opfor_yaml_vreport(c->rd.diag, code, v, k, fmt, ap);
    va_end(ap);
    return code;
}

void opfor_scenario_ck_warn(opfor_scenario_ck_t *ck, opfor_scenario_item_t kind, int i,
                            const char *key, const char *fmt, ...) {
    ctx_t *c = (ctx_t *)ck;
    opfor_scenario_t *sc = c->sc;
    struct fy_node *v, *k;
    ck_where(c, kind, i, key, &v, &k);
    sc->nwarnings_total++;
    if (sc->nwarnings >= OPFOR_SCENARIO_MAX_WARNINGS)
        return;
    opfor_diag_t *w = &sc->warnings[sc->nwarnings++];
    opfor_diag_clear(w);
    if (c->rd.diag)
        memcpy(w->file, c->rd.diag->file, sizeof w->file);
    va_list ap;
    va_start(ap, fmt);
    opfor_yaml_vreport(w, 0, v, k, fmt, ap);
    va_end(ap);
}

static int parse_root(ctx_t *c, struct fy_node *root) {
    enum {
        NAME,
        DESC,
        RULES,
        MODE,
        TABLE,
        TURNS,
        WEATHER,
        TERRAIN,
        SIDES,
        UNITS,
        GENERALS,
        OBJ,
        NF
    };
    /* the format's keys, then the ruleset's blocks */
    opfor_yaml_field_t f[NF + OPFOR_SCENARIO_MAX_BLOCKS] = {
        {"name", 0, 0},  {"description", 0, 0}, {"ruleset", 0, 0},  {"mode", 0, 0},
        {"table", 0, 0}, {"turn_limit", 0, 0},  {"weather", 0, 0},  {"terrain", 0, 0},
        {"sides", 0, 0}, {"units", 0, 0},       {"generals", 0, 0}, {"objectives", 0, 0}};
    opfor_scenario_t *sc = c->sc;
    unsigned char autoplace[OPFOR_MAX_FIGURES];
    const opfor_scenario_block_rule_t *blocks = c->rules->blocks;
    int v, nb = 0;
    for (; blocks && blocks[nb].name; nb++) {
        if (nb == OPFOR_SCENARIO_MAX_BLOCKS)
            return opfor_yaml_fail(&c->rd, OPFOR_EINVAL, NULL, NULL,
                                   "the ruleset declares more than %d scenario blocks",
                                   OPFOR_SCENARIO_MAX_BLOCKS);
        for (int i = 0; i < NF + nb; i++)
            if (strcmp(f[i].key, blocks[nb].name) == 0)
                return opfor_yaml_fail(&c->rd, OPFOR_EINVAL, NULL, NULL,
                                       "the ruleset's scenario block '%s' has a name already taken",
                                       blocks[nb].name);
        f[NF + nb] = (opfor_yaml_field_t){blocks[nb].name, NULL, NULL};
    }
    if (!root)
        return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, NULL, NULL,
                               "empty scenario: expected a mapping with at least name and sides");
    if (opfor_yaml_read_fields(&c->rd, root, NULL, "scenario", f, NF + nb) ||
        require(c, &f[NAME], root, "scenario") ||
        opfor_yaml_get_str(&c->rd, f[NAME].v, f[NAME].k, "scenario name", sc->name,
                           sizeof sc->name))
        return c->rd.err;
    if (f[DESC].v) {
        size_t len = 0;
        const char *s;
        if (opfor_yaml_not_alias(&c->rd, f[DESC].v, f[DESC].k, "description"))
            return c->rd.err;
        if (!fy_node_is_scalar(f[DESC].v) || !(s = fy_node_get_scalar(f[DESC].v, &len)))
            return opfor_yaml_fail(&c->rd, OPFOR_EPARSE, f[DESC].v, f[DESC].k,
                                   "expected text for description");
        if (len >= sizeof sc->description) {
            len = sizeof sc->description - 1;
            while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
                len--; /* do not cut a UTF-8 sequence */
        }
        memcpy(sc->description, s, len);
        sc->description[len] = '\0';
    }
    if (parse_ruleset(c, f[RULES].v, f[RULES].k))
        return c->rd.err;
    if (f[MODE].v) {
        if (opfor_yaml_get_enum(&c->rd, f[MODE].v, f[MODE].k, "mode", c->modes, &v))
            return c->rd.err;
        sc->mode = (opfor_mode_t)v;
    }
    if (f[TURNS].v &&
        opfor_yaml_get_int(&c->rd, f[TURNS].v, f[TURNS].k, "turn_limit", 0, 1000, &sc->turn_limit))
        return c->rd.err;
    sc->weather.level = 1;
    sc->weather.wind = OPFOR_N;
    if (parse_table(c, f[TABLE].v, f[TABLE].k) ||
        (f[WEATHER].v && parse_weather(c, f[WEATHER].v, f[WEATHER].k)) ||
        (f[TERRAIN].v && parse_terrain(c, f[TERRAIN].v, f[TERRAIN].k)) ||
        require(c, &f[SIDES], root, "scenario") || parse_sides(c, f[SIDES].v, f[SIDES].k))
        return c->rd.err;
    memset(autoplace, 0, sizeof autoplace);
    if ((f[GENERALS].v &&
         parse_list(c, f[GENERALS].v, f[GENERALS].k, "generals", parse_general, autoplace)) ||
        (f[UNITS].v && parse_list(c, f[UNITS].v, f[UNITS].k, "units", parse_unit, autoplace)))
        return c->rd.err;
    if (f[OBJ].v) {
        if (opfor_yaml_want_seq(&c->rd, f[OBJ].v, f[OBJ].k, "objectives"))
            return c->rd.err;
        void *it = NULL;
        struct fy_node *item;
        while ((item = fy_node_sequence_iterate(f[OBJ].v, &it)) != NULL)
            if (parse_objective(c, item, f[OBJ].v))
                return c->rd.err;
    }
    for (int b = 0; b < nb; b++) {
        const opfor_yaml_field_t *bf = &f[NF + b];
        if (!bf->v)
            continue;
        if (opfor_yaml_want_map(&c->rd, bf->v, bf->k, bf->key))
            return c->rd.err;
        sc->blocks[b] = bf->v;
        if (blocks[b].mode >= 0 && (int)sc->mode != blocks[b].mode)
            warn(c, bf->k, NULL, "a %s block is ignored unless mode is %s", bf->key,
                 opfor_vocab_name(c->modes, blocks[b].mode));
    }
    if (resolve_machines(c) || validate(c))
        return c->rd.err;
    if (c->rules->check) {
        int rc = c->rules->check((opfor_scenario_ck_t *)c, c->rules->user);
        if (rc)
            return c->rd.err ? c->rd.err : rc;
    }
    return 0;
}

int opfor_scenario_load_string(const char *text, size_t len, const char *name,
                               const opfor_scenario_rules_t *rules, opfor_scenario_t *sc,
                               opfor_diag_t *diag) {
    static const opfor_scenario_rules_t no_rules; /* the format alone */
    opfor_diag_t local;
    if (!diag)
        diag = &local;
    opfor_diag_clear(diag);
    if (name)
        snprintf(diag->file, sizeof diag->file, "%s", name);
    if (!sc)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no scenario to fill");
    memset(sc, 0, sizeof *sc);
    sc->rules = rules;
    if (!text && len > 0)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no text");
    if (len > OPFOR_SCENARIO_MAX_BYTES)
        return opfor_diag_set(diag, OPFOR_EFULL, 0, 0, "scenario is larger than %d bytes",
                              OPFOR_SCENARIO_MAX_BYTES);

    int rc0 = opfor_yaml_text_check(text, len, diag);
    if (rc0)
        return rc0;

    /* The document points into its text, and the blocks may outlive this call: parse
     * a private copy, kept with the document. */
    char *copy = malloc(len + 1);
    if (!copy)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    if (len)
        memcpy(copy, text, len);
    copy[len] = '\0';

    struct fy_document *doc = NULL;
    int prc = opfor_yaml_parse(copy, len, &doc, diag);
    if (prc == 0 && !doc)
        prc = opfor_diag_set(diag, OPFOR_EPARSE, 0, 0,
                             "empty scenario: expected a mapping with at least name and sides");
    if (prc) {
        free(copy);
        return prc;
    }

    ctx_t *c = calloc(1, sizeof *c);
    int rc;
    if (!c) {
        rc = opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    } else {
        c->sc = sc;
        c->rules = rules ? rules : &no_rules;
        c->modes = c->rules->modes ? c->rules->modes : opfor_mode_neutral_names;
        c->root = fy_document_root(doc);
        c->rd.diag = diag;
        c->rd.strict = 1;
        rc = parse_root(c, c->root);
        free(c);
    }
    int kept = 0;
    for (int b = 0; b < OPFOR_SCENARIO_MAX_BLOCKS; b++)
        kept |= sc->blocks[b] != NULL;
    if (rc != 0 || !kept) {
        memset(sc->blocks, 0, sizeof sc->blocks);
        fy_document_destroy(doc);
        free(copy);
    } else {
        sc->doc = doc;
        sc->text = copy;
    }
    return rc;
}

int opfor_scenario_load_file(const char *path, const opfor_scenario_rules_t *rules,
                             opfor_scenario_t *sc, opfor_diag_t *diag) {
    opfor_diag_t local;
    if (!diag)
        diag = &local;
    opfor_diag_clear(diag);
    if (sc)
        memset(sc, 0, sizeof *sc);
    if (!path || !sc)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no file or scenario given");
    snprintf(diag->file, sizeof diag->file, "%s", path);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return opfor_diag_set(diag, OPFOR_EIO, 0, 0, "cannot open: %s", strerror(errno));
    char *buf = malloc(OPFOR_SCENARIO_MAX_BYTES + 1);
    if (!buf) {
        fclose(fp);
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    }
    size_t n = fread(buf, 1, OPFOR_SCENARIO_MAX_BYTES + 1, fp);
    int bad = ferror(fp) ? errno : 0;
    fclose(fp);
    int rc;
    if (bad) /* a directory, say */
        rc = opfor_diag_set(diag, OPFOR_EIO, 0, 0, "cannot read: %s", strerror(bad));
    else if (n > OPFOR_SCENARIO_MAX_BYTES)
        rc = opfor_diag_set(diag, OPFOR_EFULL, 0, 0, "file is larger than %d bytes",
                            OPFOR_SCENARIO_MAX_BYTES);
    else
        rc = opfor_scenario_load_string(buf, n, path, rules, sc, diag);
    free(buf);
    return rc;
}

void opfor_scenario_free(opfor_scenario_t *sc) {
    if (!sc)
        return;
    if (sc->doc)
        fy_document_destroy(sc->doc);
    free(sc->text);
    sc->doc = NULL;
    sc->text = NULL;
    memset(sc->blocks, 0, sizeof sc->blocks);
}

struct fy_node *opfor_scenario_block(const opfor_scenario_t *sc, const char *name) {
    if (!sc || !sc->rules || !sc->rules->blocks || !name)
        return NULL;
    for (int b = 0; b < OPFOR_SCENARIO_MAX_BLOCKS && sc->rules->blocks[b].name; b++)
        if (strcmp(sc->rules->blocks[b].name, name) == 0)
            return sc->blocks[b];
    return NULL;
}

const char *opfor_scenario_mode_name(const opfor_scenario_t *sc, int mode) {
    const opfor_name_t *words = sc && sc->rules && sc->rules->modes ? sc->rules->modes : NULL;
    const char *w = words ? opfor_vocab_name(words, mode) : "?";
    return strcmp(w, "?") != 0 ? w : opfor_vocab_name(opfor_mode_neutral_names, mode);
}

int opfor_scenario_side(const opfor_scenario_t *sc, const char *name) {
    for (int i = 0; i < OPFOR_MAX_SIDES; i++)
        if (sc->sides[i].name[0] && strcasecmp(sc->sides[i].name, name) == 0)
            return i;
    return -1;
}

int opfor_scenario_unit(const opfor_scenario_t *sc, const char *name) {
    for (int i = 0; i < sc->nunits; i++)
        if (strcasecmp(sc->units[i].name, name) == 0)
            return i;
    return -1;
}

int opfor_scenario_route(const opfor_scenario_t *sc, const char *name) {
    for (int i = 0; i < sc->nroutes; i++)
        if (strcasecmp(sc->routes[i].name, name) == 0)
            return i;
    return -1;
}

opfor_pt_t opfor_route_point(const opfor_route_t *r, float s) {
    if (r->npts == 0)
        return opfor_pt(0.0f, 0.0f);
    if (!(s > 0.0f))
        return r->pts[0];
    for (int i = 0; i + 1 < r->npts; i++) {
        float L = opfor_dist(r->pts[i], r->pts[i + 1]);
        if (s <= L && L > 0.0f) {
            float t = s / L;
            return opfor_pt(r->pts[i].x + (r->pts[i + 1].x - r->pts[i].x) * t,
                            r->pts[i].y + (r->pts[i + 1].y - r->pts[i].y) * t);
        }
        s -= L;
    }
    return r->pts[r->npts - 1];
}

float opfor_route_project(const opfor_route_t *r, opfor_pt_t p, float *off) {
    float best = 1e30f, at = 0.0f, run = 0.0f;
    for (int i = 0; i + 1 < r->npts; i++) {
        float L = opfor_dist(r->pts[i], r->pts[i + 1]);
        float t = opfor_seg_closest_t(r->pts[i], r->pts[i + 1], p);
        opfor_pt_t q = opfor_seg_closest(r->pts[i], r->pts[i + 1], p);
        float d = opfor_dist(q, p);
        if (d < best) {
            best = d;
            at = run + t * L;
        }
        run += L;
    }
    if (off)
        *off = r->npts ? best : 0.0f;
    return at;
}
