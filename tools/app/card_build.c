/* tools/app/card_build.c — event + game state (MessagePack) -> orders card (card_build.h).
 *
 * Reads the documented wire shapes (docs/protocol.md: Game events, Orders, game.state) and
 * ignores keys it does not know, so a newer daemon never breaks an older display. Table
 * coordinates arrive with a south-west origin (y up); the card's mini-map wants y down, so
 * every point is flipped here. Shapes with more vertices than the card holds are thinned
 * evenly, and when there are more units than fit, the acting unit, its target and the spotted
 * unit are kept first.
 */
#include "card_build.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <stdlib.h>

#include "opfor/error.h"
#include "opfor/rpc.h"
#include "opfor/rpc_num.h"
#include "opfor/ruleset.h"
#include "opfor/scene.h"
#include "opfor/scenario.h"
#include "opfor/vocab.h"

/* ---- msgpack helpers ---- */

const msgpack_object *opfor_mp_get(const msgpack_object *m, const char *key) {
    return opfor_rpc_params_get(m, key);
}

/* Largest n <= len that does not cut a UTF-8 sequence. */
static size_t utf8_cut(const char *s, size_t len) {
    size_t n = len;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    return n;
}

static void copy_text(char *buf, size_t size, const char *s, size_t len) {
    if (len >= size)
        len = utf8_cut(s, size - 1);
    memcpy(buf, s, len);
    buf[len] = '\0';
}

int opfor_mp_str(const msgpack_object *o, char *buf, size_t size) {
    if (!o || o->type != MSGPACK_OBJECT_STR || size == 0)
        return -1;
    copy_text(buf, size, o->via.str.ptr, o->via.str.size);
    return 0;
}

int opfor_mp_num(const msgpack_object *o, double *out) {
    return opfor_rpc_num(o, out);
}

static int mp_int(const msgpack_object *o, long long *out) {
    double v;
    if (opfor_mp_num(o, &v) < 0)
        return -1;
    *out = (long long)v;
    return 0;
}

/* A flag written true/false or 1/0 (game.state packs some flags as integers). */
static int mp_flag(const msgpack_object *o, int *out) {
    if (o && o->type == MSGPACK_OBJECT_BOOLEAN) {
        *out = o->via.boolean;
        return 0;
    }
    if (o && o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
        *out = o->via.u64 != 0;
        return 0;
    }
    return -1;
}

static int mp_bool(const msgpack_object *o) {
    int v = 0;
    return mp_flag(o, &v) == 0 && v;
}

/* "key" as a string into buf; "" when absent. */
static void get_str(const msgpack_object *m, const char *key, char *buf, size_t size) {
    if (opfor_mp_str(opfor_mp_get(m, key), buf, size) < 0)
        buf[0] = '\0';
}

static int str_is(const msgpack_object *o, const char *s) {
    size_t n = strlen(s);
    return o && o->type == MSGPACK_OBJECT_STR && o->via.str.size == n &&
           strncasecmp(o->via.str.ptr, s, n) == 0;
}

/* A point written [x, y] or {x, y}. */
static int mp_point(const msgpack_object *o, double *x, double *y) {
    if (!o)
        return -1;
    if (o->type == MSGPACK_OBJECT_ARRAY && o->via.array.size >= 2)
        return opfor_mp_num(&o->via.array.ptr[0], x) < 0 ||
                       opfor_mp_num(&o->via.array.ptr[1], y) < 0
                   ? -1
                   : 0;
    if (o->type == MSGPACK_OBJECT_MAP)
        return opfor_mp_num(opfor_mp_get(o, "x"), x) < 0 ||
                       opfor_mp_num(opfor_mp_get(o, "y"), y) < 0
                   ? -1
                   : 0;
    return -1;
}

/* ---- text ---- */

/* Appends text (truncated to fit) to lines, an array of OPFOR_CARD_LINES lines of len bytes
 * with *n in use; 0, or -1 when full or text is empty. */
static int add_line(char *lines, size_t len, uint8_t *n, const char *text) {
    if (*n >= OPFOR_CARD_LINES || !text[0])
        return -1;
    copy_text(lines + (size_t)*n * len, len, text, strlen(text));
    (*n)++;
    return 0;
}

/* Appends a line to the card's order lines. */
static int add_order(opfor_card_t *c, const char *text) {
    return add_line((char *)c->orders, OPFOR_CARD_LINE_LEN, &c->n_orders, text);
}

/* Appends a line to the card's score lines. */
static int add_needed(opfor_card_t *c, const char *text) {
    return add_line((char *)c->needed, OPFOR_CARD_NEED_LEN, &c->n_needed, text);
}

/* Adds text as order lines, broken at spaces so each fits, using at most max_lines; the lines
 * after the first go on the same order (no number of their own). */
static void add_wrapped(opfor_card_t *c, const char *text, int max_lines) {
    const size_t width = OPFOR_CARD_LINE_LEN - 1;
    const uint8_t first = c->n_orders;
    while (*text == ' ')
        text++;
    while (*text && max_lines-- > 0 && c->n_orders < OPFOR_CARD_LINES) {
        if (c->n_orders > first && c->n_orders < 8)
            c->cont |= (uint8_t)(1u << c->n_orders);
        size_t len = strlen(text);
        if (len > width && max_lines > 0) {
            size_t cut = width;
            while (cut > width / 2 && text[cut] != ' ')
                cut--;
            if (text[cut] != ' ')
                cut = utf8_cut(text, width);
            char line[OPFOR_CARD_LINE_LEN];
            copy_text(line, sizeof line, text, cut);
            add_order(c, line);
            text += cut;
            while (*text == ' ')
                text++;
            continue;
        }
        if (len > width) { /* last line: end with an ellipsis */
            char line[OPFOR_CARD_LINE_LEN];
            size_t cut = utf8_cut(text, width - 3);
            copy_text(line, sizeof line, text, cut);
            snprintf(line + strlen(line), sizeof line - strlen(line), "\xE2\x80\xA6");
            add_order(c, line);
        } else {
            add_order(c, text);
        }
        return;
    }
}

static void upper_first(char *s) {
    if (s[0] >= 'a' && s[0] <= 'z')
        s[0] = (char)(s[0] - 'a' + 'A');
}

/* The order sentence without the unit's name in front ("Jager Company: advance 6 in" or
 * "Jager Company advance 6 in" -> "Advance 6 in") and without the final full stop, first
 * letter upper-case. */
static void strip_unit(char *out, size_t size, const char *sentence, const char *unit) {
    size_t ul = strlen(unit);
    const char *s = sentence;
    if (ul && strncasecmp(s, unit, ul) == 0 && (s[ul] == ' ' || s[ul] == ':')) {
        s += ul + (s[ul] == ':');
        while (*s == ' ')
            s++;
    }
    snprintf(out, size, "%s", s);
    size_t n = strlen(out);
    if (n > 0 && out[n - 1] == '.')
        out[n - 1] = '\0';
    upper_first(out);
}

/* Adds one phrase of an order: as one line when it fits, else split after its last ", "
 * that fits, the rest on a second line (cut with an ellipsis if still too long). */
static void add_phrase(opfor_card_t *c, const char *text) {
    const size_t width = OPFOR_CARD_LINE_LEN - 1;
    size_t len = strlen(text);
    if (len <= width) {
        add_order(c, text);
        return;
    }
    size_t cut = 0;
    for (size_t i = 0; i + 1 < width && text[i]; i++)
        if (text[i] == ',' && text[i + 1] == ' ')
            cut = i;
    if (cut < width / 3) {
        add_wrapped(c, text, 2);
        return;
    }
    char head[OPFOR_CARD_LINE_LEN], tail[256];
    copy_text(head, sizeof head, text, cut);
    snprintf(tail, sizeof tail, "%s", text + cut + 2);
    add_order(c, head);
    uint8_t n = c->n_orders;
    add_wrapped(c, tail, 1);
    if (c->n_orders > n && n < 8) /* the same order goes on: no number of its own */
        c->cont |= (uint8_t)(1u << n);
}

static void set_turn(opfor_card_t *c, long long turn) {
    if (turn > 0 && turn < 100000)
        snprintf(c->turn, sizeof c->turn, "Turn %d", (int)turn);
}

/* ---- the map ---- */

/* Appends a shape of style from a list of points (table inches, south-west origin), thinned
 * to OPFOR_CARD_MAX_VERTS; at most max shapes in the scene. */
static void add_shape(opfor_scene_t *m, int max, int style, int closed, const double *xs,
                      const double *ys, int n) {
    if (m->nshapes >= max || n < 2)
        return;
    opfor_scene_shape_t t;
    memset(&t, 0, sizeof t);
    t.style = (uint8_t)style;
    t.closed = (uint8_t)(closed && n >= 3);
    int k = n <= OPFOR_CARD_MAX_VERTS ? n : OPFOR_CARD_MAX_VERTS;
    for (int i = 0; i < k; i++) {
        /* evenly spaced, always keeping the first and (for lines) the last point */
        int j = k == n ? i : (int)((long)i * (n - 1) / (k - 1));
        t.v[i].x = (float)xs[j];
        t.v[i].y = (float)ys[j];
    }
    t.n = (uint8_t)k;
    opfor_scene_add_shape(m, &t);
}

/* Appends a terrain piece of kind (vocab.h) from a list of points. */
static void add_terrain(opfor_scene_t *m, int kind, int closed, const double *xs, const double *ys,
                        int n) {
    add_shape(m, OPFOR_CARD_MAX_TERRAIN, opfor_scene_terrain_style(kind), closed, xs, ys, n);
}

/* One terrain entry of game.state: kind plus polygon | line | rect | circle | points. */
static void read_terrain(opfor_scene_t *m, const msgpack_object *t) {
    char kname[32];
    get_str(t, "kind", kname, sizeof kname);
    int kind = OPFOR_TK_OPEN;
    if (opfor_vocab_lookup(opfor_terrain_kind_names, kname, &kind) < 0)
        kind = OPFOR_TK_OPEN;
    double xs[64], ys[64];
    int n = 0, closed = 1;
    const msgpack_object *pts = opfor_mp_get(t, "polygon");
    if (!pts)
        pts = opfor_mp_get(t, "points");
    if (!pts) {
        pts = opfor_mp_get(t, "line");
        if (pts)
            closed = 0;
    }
    mp_flag(opfor_mp_get(t, "closed"), &closed);
    mp_flag(opfor_mp_get(t, "area"), &closed);
    if (pts && pts->type == MSGPACK_OBJECT_ARRAY) {
        for (uint32_t i = 0; i < pts->via.array.size && n < 64; i++)
            if (mp_point(&pts->via.array.ptr[i], &xs[n], &ys[n]) == 0)
                n++;
        add_terrain(m, kind, closed, xs, ys, n);
        return;
    }
    const msgpack_object *r = opfor_mp_get(t, "rect");
    if (r && r->type == MSGPACK_OBJECT_ARRAY && r->via.array.size == 4) {
        double v[4];
        for (int i = 0; i < 4; i++)
            if (opfor_mp_num(&r->via.array.ptr[i], &v[i]) < 0)
                return;
        double rx[4] = {v[0], v[0] + v[2], v[0] + v[2], v[0]};
        double ry[4] = {v[1], v[1], v[1] + v[3], v[1] + v[3]};
        add_terrain(m, kind, 1, rx, ry, 4);
        return;
    }
    const msgpack_object *c = opfor_mp_get(t, "circle");
    double cx, cy, rad;
    if (c && mp_point(opfor_mp_get(c, "center"), &cx, &cy) == 0 &&
        opfor_mp_num(opfor_mp_get(c, "radius"), &rad) == 0) {
        /* a 12-gon through the circle: cos/sin of multiples of 30 degrees, as constants */
        static const double co[12] = {1,  0.8660254,  0.5,  0, -0.5, -0.8660254,
                                      -1, -0.8660254, -0.5, 0, 0.5,  0.8660254};
        for (int i = 0; i < 12; i++) {
            xs[i] = cx + rad * co[i];
            ys[i] = cy + rad * co[(i + 9) % 12];
        }
        add_terrain(m, kind, 1, xs, ys, 12);
    }
}

/* Is this unit entry on the non-player side? Accepts "player": bool, "enemy": bool, or a
 * "side"/"owner" string compared with the names of the player and non-player sides. */
static int unit_is_opfor(const msgpack_object *u, const char *opfor_side) {
    int v;
    if (mp_flag(opfor_mp_get(u, "player"), &v) == 0)
        return !v;
    if (mp_flag(opfor_mp_get(u, "enemy"), &v) == 0)
        return v;
    const msgpack_object *s = opfor_mp_get(u, "side");
    if (str_is(s, "enemy") || str_is(s, "opfor"))
        return 1;
    if (str_is(s, "player"))
        return 0;
    return opfor_side[0] && str_is(s, opfor_side);
}

/* The non-player side's name from game.state: "enemy_side", or the side marked player:false. */
static void opfor_side_name(const msgpack_object *state, char *buf, size_t size) {
    buf[0] = '\0';
    get_str(state, "enemy_side", buf, size);
    if (buf[0])
        return;
    const msgpack_object *sides = opfor_mp_get(state, "sides");
    if (!sides || sides->type != MSGPACK_OBJECT_ARRAY)
        return;
    for (uint32_t i = 0; i < sides->via.array.size; i++) {
        const msgpack_object *s = &sides->via.array.ptr[i];
        int player;
        if (mp_flag(opfor_mp_get(s, "player"), &player) == 0 && !player) {
            get_str(s, "name", buf, size);
            return;
        }
    }
}

static int unit_gone(const msgpack_object *u) {
    if (mp_bool(opfor_mp_get(u, "off_table")) || mp_bool(opfor_mp_get(u, "removed")) ||
        mp_bool(opfor_mp_get(u, "destroyed")) || mp_bool(opfor_mp_get(u, "hidden")))
        return 1;
    /* game.state: "state" is ready, acted, off_table, destroyed, driven_off or captured */
    const msgpack_object *st = opfor_mp_get(u, "state");
    return str_is(st, "destroyed") || str_is(st, "off_table") || str_is(st, "driven_off") ||
           str_is(st, "captured") || str_is(st, "removed");
}

static int unit_pos(const msgpack_object *u, double *x, double *y) {
    static const char *const keys[] = {"position", "pos", "at", "point"};
    for (int i = 0; i < 4; i++)
        if (mp_point(opfor_mp_get(u, keys[i]), x, y) == 0)
            return 0;
    if (opfor_mp_num(opfor_mp_get(u, "x"), x) == 0 && opfor_mp_num(opfor_mp_get(u, "y"), y) == 0)
        return 0;
    return -1;
}

static int name_is(const msgpack_object *u, const char *name) {
    return name && name[0] && str_is(opfor_mp_get(u, "name"), name);
}

/* The arrow of a spotted unit starts at the table edge its compass point names. */
static opfor_scene_pt_t spot_from(const opfor_scene_t *m, opfor_scene_pt_t at, const char *dir) {
    opfor_scene_pt_t f = at;
    if (!dir[0])
        return f; /* equal to `at`: the renderer picks the nearest edge */
    if (strchr(dir, 'N') || strchr(dir, 'n'))
        f.y = m->depth;
    if (strchr(dir, 'S') || strchr(dir, 's'))
        f.y = 0;
    if (strchr(dir, 'E') || strchr(dir, 'e'))
        f.x = m->width;
    if (strchr(dir, 'W') || strchr(dir, 'w'))
        f.x = 0;
    return f;
}

/* Fills memo's terrain cache from the built-in scenario called name of the ruleset called
 * ruleset ("" or unknown: the first registered ruleset that has a scenario of that name;
 * nothing when none has: a game made from inline YAML). */
static void builtin_terrain(opfor_card_memo_t *memo, const char *ruleset, const char *name) {
    if (strcmp(memo->terrain_of, name) == 0)
        return;
    snprintf(memo->terrain_of, sizeof memo->terrain_of, "%s", name);
    memo->n_terrain = 0;
    const opfor_ruleset_t *rs = opfor_ruleset_find(ruleset);
    const char *text = NULL;
    size_t len = 0;
    if (rs && rs->builtin_text)
        text = rs->builtin_text(name, &len);
    size_t n = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    for (size_t i = 0; !text && i < n; i++)
        if ((rs = list[i].rs)->builtin_text)
            text = rs->builtin_text(name, &len);
    if (!text)
        return;
    opfor_scenario_t *sc = malloc(sizeof *sc); /* large: not on the stack */
    if (!sc)
        return;
    if (opfor_scenario_load_string(text, len, name, rs->scenario, sc, NULL) == 0) {
        opfor_scene_t *tmp = calloc(1, sizeof *tmp);
        for (int i = 0; tmp && i < sc->table.nfeatures; i++) {
            const opfor_terrain_feature_t *f = &sc->table.features[i];
            double xs[OPFOR_POLY_MAX_PTS], ys[OPFOR_POLY_MAX_PTS];
            for (int j = 0; j < f->npts; j++) {
                xs[j] = f->pts[j].x;
                ys[j] = f->pts[j].y;
            }
            add_terrain(tmp, f->kind, f->shape == OPFOR_SHAPE_AREA, xs, ys, f->npts);
        }
        if (tmp) {
            memo->n_terrain = (uint8_t)tmp->nshapes;
            memcpy(memo->terrain, tmp->shapes, sizeof memo->terrain);
        }
        free(tmp);
        opfor_scenario_free(sc);
    }
    free(sc);
}

/* ---- a scene as game.state gives it (games of any ruleset) ---- */

static int style_of(const msgpack_object *o) {
    for (int i = 0; i < OPFOR_SCENE_STYLE_COUNT; i++)
        if (str_is(o, opfor_scene_style_name(i)))
            return i;
    return OPFOR_SCENE_OPEN;
}

/* A point [x, y] as a scene point; 0, or -1. */
static int scene_pt(const msgpack_object *o, opfor_scene_pt_t *p) {
    double x, y;
    if (mp_point(o, &x, &y) < 0)
        return -1;
    *p = (opfor_scene_pt_t){(float)x, (float)y};
    return 0;
}

static float mp_float(const msgpack_object *o) {
    double v = 0;
    return opfor_mp_num(o, &v) == 0 && v > -1e6 && v < 1e6 ? (float)v : 0.0f;
}

/* Reads game.state's `scene` map into m (width and depth already set): shapes, units (those of
 * side ai_side marked as the AI's, the ones named acting and target marked), arrows, labels;
 * entries that do not read are left out. */
static void read_scene(const msgpack_object *sc, int ai_side, const char *acting,
                       const char *target, opfor_scene_t *m) {
    const msgpack_object *a = opfor_mp_get(sc, "shapes");
    for (uint32_t i = 0; a && a->type == MSGPACK_OBJECT_ARRAY && i < a->via.array.size; i++) {
        const msgpack_object *e = &a->via.array.ptr[i];
        const msgpack_object *pts = opfor_mp_get(e, "points");
        opfor_scene_shape_t sh;
        memset(&sh, 0, sizeof sh);
        sh.style = (uint8_t)style_of(opfor_mp_get(e, "style"));
        sh.closed = (uint8_t)mp_bool(opfor_mp_get(e, "closed"));
        get_str(e, "name", sh.name, sizeof sh.name);
        for (uint32_t k = 0; pts && pts->type == MSGPACK_OBJECT_ARRAY && k < pts->via.array.size &&
                             sh.n < OPFOR_SCENE_MAX_VERTS;
             k++)
            if (scene_pt(&pts->via.array.ptr[k], &sh.v[sh.n]) == 0)
                sh.n++;
        if (sh.n >= 2)
            opfor_scene_add_shape(m, &sh);
    }
    a = opfor_mp_get(sc, "units");
    for (uint32_t i = 0; a && a->type == MSGPACK_OBJECT_ARRAY && i < a->via.array.size; i++) {
        const msgpack_object *e = &a->via.array.ptr[i];
        opfor_scene_unit_t u;
        memset(&u, 0, sizeof u);
        if (scene_pt(opfor_mp_get(e, "at"), &u.at) < 0)
            continue;
        u.w = mp_float(opfor_mp_get(e, "w"));
        u.d = mp_float(opfor_mp_get(e, "d"));
        u.facing = mp_float(opfor_mp_get(e, "facing"));
        long long side = -1, flags = 0, id = 0;
        mp_int(opfor_mp_get(e, "side"), &side);
        mp_int(opfor_mp_get(e, "flags"), &flags);
        mp_int(opfor_mp_get(e, "id"), &id);
        u.side = (uint8_t)(side >= 0 && side < 256 ? side : 0);
        u.flags = (uint8_t)(flags & 0xff);
        u.id = (uint16_t)(id >= 0 && id < 65536 ? id : 0);
        get_str(e, "name", u.name, sizeof u.name);
        if (ai_side >= 0 && side == ai_side)
            u.flags |= OPFOR_SCENE_U_AI;
        if (name_is(e, acting))
            u.flags |= OPFOR_SCENE_U_ACTING;
        if (name_is(e, target))
            u.flags |= OPFOR_SCENE_U_TARGET;
        opfor_scene_add_unit(m, &u);
    }
    a = opfor_mp_get(sc, "arrows");
    for (uint32_t i = 0; a && a->type == MSGPACK_OBJECT_ARRAY && i < a->via.array.size; i++) {
        const msgpack_object *e = &a->via.array.ptr[i], *k = opfor_mp_get(e, "kind");
        opfor_scene_pt_t from, to;
        int kind = str_is(k, "fire")    ? OPFOR_SCENE_FIRE
                   : str_is(k, "place") ? OPFOR_SCENE_PLACE
                                        : OPFOR_SCENE_MOVE;
        if (scene_pt(opfor_mp_get(e, "from"), &from) == 0 &&
            scene_pt(opfor_mp_get(e, "to"), &to) == 0)
            opfor_scene_add_arrow(m, kind, from, to);
    }
    a = opfor_mp_get(sc, "labels");
    for (uint32_t i = 0; a && a->type == MSGPACK_OBJECT_ARRAY && i < a->via.array.size; i++) {
        const msgpack_object *e = &a->via.array.ptr[i];
        opfor_scene_pt_t at;
        char text[OPFOR_SCENE_NAME_LEN];
        get_str(e, "text", text, sizeof text);
        if (scene_pt(opfor_mp_get(e, "at"), &at) == 0 && text[0])
            opfor_scene_add_label(m, at, text);
    }
}

/* The table's size from a scene ({width, depth}) or a table ({width, depth | height}); 0, or
 * -1 when there is none (or it is absurd). */
static int table_size(const msgpack_object *t, double *w, double *h) {
    if (opfor_mp_num(opfor_mp_get(t, "width"), w) < 0)
        return -1;
    if (opfor_mp_num(opfor_mp_get(t, "depth"), h) < 0 &&
        opfor_mp_num(opfor_mp_get(t, "height"), h) < 0)
        return -1;
    return *w > 0 && *h > 0 && *w < 10000 && *h < 10000 ? 0 : -1;
}

/* The scene of a game of another ruleset, or NULL. A state with a `table` and `units` of its
 * own (the first ruleset's games) carries a scene too, for the table page's map, but its card is
 * drawn from its units and the scenario's terrain as before, so the panel's picture stays the
 * same. */
static const msgpack_object *generic_scene(const msgpack_object *state) {
    const msgpack_object *scene = opfor_mp_get(state, "scene");
    if (!scene || scene->type != MSGPACK_OBJECT_MAP || opfor_mp_get(state, "table"))
        return NULL;
    return scene;
}

int opfor_card_map_from_state(const msgpack_object *state, const char *acting, const char *target,
                              opfor_card_memo_t *memo, opfor_scene_t *m) {
    memset(m, 0, sizeof *m);
    double w = 0, h = 0;
    const msgpack_object *scene = generic_scene(state);
    if (scene) {
        if (table_size(scene, &w, &h) < 0)
            return 0;
        m->width = (float)w;
        m->depth = (float)h;
        long long ai = -1;
        mp_int(opfor_mp_get(state, "ai_side"), &ai);
        read_scene(scene, (int)ai, acting, target, m);
        return m->nunits;
    }
    if (table_size(opfor_mp_get(state, "table"), &w, &h) < 0)
        return 0;
    m->width = (float)w;
    m->depth = (float)h;
    const msgpack_object *ter = opfor_mp_get(state, "terrain");
    char scen[64], ruleset[32];
    if (opfor_mp_str(opfor_mp_get(state, "ruleset"), ruleset, sizeof ruleset) < 0)
        ruleset[0] = '\0';
    if (ter && ter->type == MSGPACK_OBJECT_ARRAY) {
        for (uint32_t i = 0; i < ter->via.array.size; i++)
            read_terrain(m, &ter->via.array.ptr[i]);
    } else if (memo && opfor_mp_str(opfor_mp_get(state, "scenario"), scen, sizeof scen) == 0) {
        builtin_terrain(memo, ruleset, scen);
        for (int i = 0; i < memo->n_terrain; i++)
            opfor_scene_add_shape(m, &memo->terrain[i]);
    }

    char oside[48];
    opfor_side_name(state, oside, sizeof oside);
    const msgpack_object *units = opfor_mp_get(state, "units");
    int have_spot = memo && memo->have_spot;
    int act = -1, tgt = -1;
    /* Two passes: first the units that must be shown, then the rest while room remains. */
    for (int pass = 0; pass < 2 && units && units->type == MSGPACK_OBJECT_ARRAY; pass++) {
        for (uint32_t i = 0; i < units->via.array.size; i++) {
            const msgpack_object *u = &units->via.array.ptr[i];
            int is_act = name_is(u, acting), is_tgt = name_is(u, target);
            int is_spot = have_spot && name_is(u, memo->spot_unit);
            if ((pass == 0) != (is_act || is_tgt || is_spot))
                continue;
            double x, y;
            if (m->nunits >= OPFOR_CARD_MAX_UNITS || unit_gone(u) || unit_pos(u, &x, &y) < 0)
                continue;
            opfor_scene_unit_t cu;
            memset(&cu, 0, sizeof cu);
            cu.at = (opfor_scene_pt_t){(float)x, (float)y};
            cu.id = (uint16_t)m->nunits;
            get_str(u, "name", cu.name, sizeof cu.name); /* its label: a name or a tag */
            if (unit_is_opfor(u, oside))
                cu.flags |= OPFOR_SCENE_U_AI;
            if (is_act) {
                cu.flags |= OPFOR_SCENE_U_ACTING;
                act = act < 0 ? m->nunits : act;
            }
            if (is_tgt) {
                cu.flags |= OPFOR_SCENE_U_TARGET;
                tgt = tgt < 0 ? m->nunits : tgt;
            }
            if (is_spot) {
                cu.flags |= OPFOR_SCENE_U_SPOTTED;
                opfor_scene_add_arrow(m, OPFOR_SCENE_PLACE, spot_from(m, cu.at, memo->spot_dir),
                                      cu.at);
                have_spot = 2; /* drawn */
            }
            opfor_scene_add_unit(m, &cu);
        }
    }
    /* A spotting whose unit is not in the state (yet): mark the point where it appears. */
    if (have_spot == 1 && memo->spot_placed && m->nunits < OPFOR_CARD_MAX_UNITS) {
        opfor_scene_unit_t cu;
        memset(&cu, 0, sizeof cu);
        cu.at = (opfor_scene_pt_t){memo->spot_x, memo->spot_y};
        cu.id = (uint16_t)m->nunits;
        cu.flags = OPFOR_SCENE_U_AI | OPFOR_SCENE_U_SPOTTED;
        opfor_scene_add_arrow(m, OPFOR_SCENE_PLACE, spot_from(m, cu.at, memo->spot_dir), cu.at);
        opfor_scene_add_unit(m, &cu);
    }
    /* the acting unit and its target: a fire line between their rings */
    if (act >= 0 && tgt >= 0)
        opfor_scene_add_arrow(m, OPFOR_SCENE_FIRE, m->units[act].at, m->units[tgt].at);
    return m->nunits;
}

/* ---- cards ---- */

void opfor_card_memo_reset(opfor_card_memo_t *memo) {
    memset(memo, 0, sizeof *memo);
}

void opfor_card_waiting(opfor_card_t *c, const char *title, const char *line) {
    memset(c, 0, sizeof *c);
    c->initiative = OPFOR_CARD_SIDE_PLAYER;
    c->choice = OPFOR_CARD_NOTES; /* a hint, not an order to number */
    snprintf(c->side_name, sizeof c->side_name, "No initiative"); /* the bar, as it is */
    copy_text(c->unit, sizeof c->unit, title, strlen(title));
    if (line && line[0])
        add_wrapped(c, line, 2);
}

static void card_order(opfor_card_t *c, const msgpack_object *o) {
    char unit[sizeof c->unit], sentence[256], text[256], cmd[64];
    c->initiative = OPFOR_CARD_SIDE_OPFOR;
    get_str(o, "side", c->side_name, sizeof c->side_name);
    get_str(o, "unit", unit, sizeof unit);
    snprintf(c->unit, sizeof c->unit, "%s", unit[0] ? unit : "Orders");
    get_str(o, "sentence", sentence, sizeof sentence);
    if (!sentence[0])
        get_str(o, "action", sentence, sizeof sentence);
    strip_unit(text, sizeof text, sentence, unit);
    /* "fire at X, 27 in away: to hit 5+, save 5+": the action, then the rolls, which go to
     * the scores-needed block when the order lists them */
    const msgpack_object *needs = opfor_mp_get(o, "needs");
    int have_needs = needs && needs->type == MSGPACK_OBJECT_ARRAY && needs->via.array.size > 0;
    char *rolls = strstr(text, ": ");
    if (rolls) {
        *rolls = '\0';
        rolls += 2;
    }
    add_phrase(c, text);
    if (rolls && !have_needs) {
        upper_first(rolls);
        add_phrase(c, rolls);
    }
    get_str(o, "command", cmd, sizeof cmd);
    if (strncasecmp(cmd, "failed", 6) == 0) {
        snprintf(text, sizeof text, "Command test %s", cmd);
        add_order(c, text);
    }
    if (have_needs) { /* each score with how many dice it is rolled on */
        int at_most = mp_bool(opfor_mp_get(o, "figures_at_most"));
        for (uint32_t i = 0; i < needs->via.array.size; i++) {
            char label[40], need[40], per[16], line[144];
            const msgpack_object *n = &needs->via.array.ptr[i];
            get_str(n, "label", label, sizeof label);
            if (!label[0])
                get_str(n, "name", label, sizeof label);
            get_str(n, "need", need, sizeof need);
            if (!need[0])
                continue;
            get_str(n, "per", per, sizeof per);
            long long count = 0;
            mp_int(opfor_mp_get(n, "count"), &count);
            char dice[48] = "";
            if (count > 0)
                snprintf(dice, sizeof dice, ", %s%lld %s", at_most ? "up to " : "", count,
                         count == 1 ? "die" : "dice");
            else if (per[0])
                snprintf(dice, sizeof dice, " per %s", per);
            snprintf(line, sizeof line, "%s%s%s%s", label, label[0] ? " " : "", need, dice);
            upper_first(line);
            add_needed(c, line);
        }
        /* how many figures fire, when a line is left (the to-hit line has it as its dice) */
        long long figures = -1;
        if (mp_int(opfor_mp_get(o, "figures"), &figures) == 0 && figures >= 0) {
            char line[64];
            if (figures == 0)
                snprintf(line, sizeof line, "No figure can fire");
            else
                snprintf(line, sizeof line, "%s%lld figure%s fire%s", at_most ? "Up to " : "",
                         figures, figures == 1 ? "" : "s", figures == 1 ? "s" : "");
            add_needed(c, line);
        }
    }
}

static void card_spotted(opfor_card_t *c, const msgpack_object *d, opfor_card_memo_t *memo) {
    char unit[48], type[24], quality[24], text[256], dist[24], dir[8];
    c->initiative = OPFOR_CARD_SIDE_OPFOR; /* side_name "": the bar reads "Enemy acts" */
    get_str(d, "unit", unit, sizeof unit);
    get_str(d, "type", type, sizeof type);
    get_str(d, "quality", quality, sizeof quality);
    get_str(d, "text", text, sizeof text);
    get_str(d, "distance", dist, sizeof dist);
    get_str(d, "direction", dir, sizeof dir);
    char title[160];
    if (unit[0])
        snprintf(title, sizeof title, "Spotted: %s", unit);
    else
        snprintf(title, sizeof title, "Spotted: %s%s%s", quality, quality[0] ? " " : "",
                 type[0] ? type : "enemy");
    copy_text(c->unit, sizeof c->unit, title, strlen(title));
    upper_first(text);
    if (text[0])
        add_wrapped(c, text, 2);
    long long rolled = 0, figures = 0;
    mp_int(opfor_mp_get(d, "rolled"), &rolled);
    mp_int(opfor_mp_get(d, "figures"), &figures);
    double x, y;
    int placed =
        mp_bool(opfor_mp_get(d, "placed")) && mp_point(opfor_mp_get(d, "point"), &x, &y) == 0;
    char line[128], why[96];
    get_str(d, "why", why, sizeof why);
    int refused = !placed && mp_bool(opfor_mp_get(d, "refused"));
    if (refused) { /* the daemon placed nothing: nothing to put on the table */
        snprintf(line, sizeof line, "Not placed: %s", why);
        add_wrapped(c, line, 2);
        line[0] = '\0';
        rolled = figures = 0;
        dist[0] = '\0';
    } else if (placed)
        /* table coordinates (south-west origin), as `opfor state` writes them; the compass
           point is the direction from the front line, already in the text */
        snprintf(line, sizeof line, "Place at x %.1f, y %.1f", x, y);
    else if (rolled > 0)
        snprintf(line, sizeof line, "%lld in to the %s", rolled, dir[0] ? dir : "front");
    else
        line[0] = '\0';
    add_order(c, line);
    /* how it stands: "In line, facing S" (daemons before issue 15 send neither) */
    char form[24], facing[8];
    get_str(d, "formation", form, sizeof form);
    get_str(d, "facing", facing, sizeof facing);
    if (placed && (form[0] || facing[0])) {
        snprintf(line, sizeof line, "%s%s%s%s%s", form[0] ? "in " : "", form,
                 strcmp(form, "skirmish") == 0 ? " order" : "",
                 facing[0] ? (form[0] ? ", facing " : "facing ") : "", facing);
        upper_first(line);
        add_order(c, line);
    }
    if (figures > 0) {
        snprintf(line, sizeof line, "%lld figure%s", figures, figures == 1 ? "" : "s");
        add_needed(c, line);
    }
    if (rolled > 0) { /* the dice are in the text; the column is narrow */
        snprintf(line, sizeof line, "Distance %lld in", rolled);
        add_needed(c, line);
    } else if (dist[0]) {
        snprintf(line, sizeof line, "Distance %s", dist);
        add_needed(c, line);
    }
    /* the generals who come with it, when a score line is left */
    const msgpack_object *gens = opfor_mp_get(d, "generals");
    if (placed && gens && gens->type == MSGPACK_OBJECT_ARRAY)
        for (uint32_t i = 0; i < gens->via.array.size; i++) {
            char name[40];
            if (opfor_mp_str(&gens->via.array.ptr[i], name, sizeof name) < 0)
                continue;
            snprintf(line, sizeof line, "With %s", name);
            add_needed(c, line);
        }
    if (memo) {
        memo->have_spot = 1;
        snprintf(memo->spot_unit, sizeof memo->spot_unit, "%s", unit);
        memo->spot_placed = placed;
        memo->spot_x = placed ? (float)x : 0;
        memo->spot_y = placed ? (float)y : 0;
        snprintf(memo->spot_dir, sizeof memo->spot_dir, "%.3s", dir);
    }
}

/* The initiative card: player 1 when the people at the table may activate one of ready. */
static void card_initiative_parts(opfor_card_t *c, int player, const char *side,
                                  const msgpack_object *ready) {
    copy_text(c->side_name, sizeof c->side_name, side, strlen(side));
    if (player) {
        c->initiative = OPFOR_CARD_SIDE_PLAYER;
        snprintf(c->unit, sizeof c->unit, "Your initiative");
        uint32_t n = ready && ready->type == MSGPACK_OBJECT_ARRAY ? ready->via.array.size : 0;
        if (n == 0) {
            add_order(c, "Activate a unit");
            return;
        }
        /* One line a unit that may act; when they are more than the lines, the last line
           names the rest together (the renderer ends it with an ellipsis if it must). */
        c->choice = OPFOR_CARD_CHOICE;
        char line[OPFOR_CARD_LINE_LEN];
        size_t len = 0;
        for (uint32_t i = 0; i < n; i++) {
            char name[64];
            if (opfor_mp_str(&ready->via.array.ptr[i], name, sizeof name) < 0)
                continue;
            if (c->n_orders < OPFOR_CARD_LINES - 1 || n <= OPFOR_CARD_LINES) {
                add_order(c, name);
                continue;
            }
            if (len < sizeof line - 1)
                len +=
                    (size_t)snprintf(line + len, sizeof line - len, "%s%s", len ? ", " : "", name);
        }
        if (len)
            add_order(c, line);
    } else {
        c->initiative = OPFOR_CARD_SIDE_OPFOR;
        snprintf(c->unit, sizeof c->unit, "Enemy initiative");
        add_order(c, "Waiting for the enemy's orders");
    }
}

static void card_initiative(opfor_card_t *c, const msgpack_object *d) {
    char side[48];
    get_str(d, "side", side, sizeof side);
    card_initiative_parts(c, str_is(opfor_mp_get(d, "holder"), "player"), side,
                          opfor_mp_get(d, "ready"));
}

/* The head of a game-over card: nobody holds the initiative; the result and the score (when
 * the game keeps one: score non-NULL). */
static void game_over_head(opfor_card_t *c, const msgpack_object *res, const long long *score) {
    char line[64];
    c->initiative = OPFOR_CARD_SIDE_PLAYER;
    snprintf(c->side_name, sizeof c->side_name, "No initiative"); /* the bar, as it is */
    snprintf(c->unit, sizeof c->unit, "Game over: %s",
             str_is(res, "won")    ? "victory"
             : str_is(res, "lost") ? "defeat"
                                   : "ended");
    if (score) {
        snprintf(line, sizeof line, "Score %lld", *score);
        add_order(c, line);
    }
    c->choice = OPFOR_CARD_NOTES; /* facts, not orders */
}

static void card_game_over(opfor_card_t *c, const msgpack_object *d) {
    char line[64];
    long long score = 0, turns = 0;
    int have_score = mp_int(opfor_mp_get(d, "score"), &score) == 0;
    mp_int(opfor_mp_get(d, "turns"), &turns);
    /* a game of another ruleset gives no score: only the result */
    game_over_head(c, opfor_mp_get(d, "result"),
                   have_score || !opfor_mp_get(d, "returns") ? &score : NULL);
    if (turns > 0) {
        snprintf(line, sizeof line, "After %lld turn%s", turns, turns == 1 ? "" : "s");
        add_order(c, line);
    }
}

/* The card while nobody holds the initiative: press the button (the scenario's title below). */
static void press_card(opfor_card_t *c, const msgpack_object *state) {
    char title[64];
    get_str(state, "title", title, sizeof title);
    opfor_card_waiting(c, "Press for the initiative",
                       title[0] ? title : "Press the initiative button to go on");
}

/* A report event that ends an activation (a player unit acted, the open order was resolved)
 * and leaves nobody holding the initiative in a game still going: the card of the activation
 * is done with, the table presses the button next. */
static int activation_done(const msgpack_object *data, const msgpack_object *state) {
    const msgpack_object *k = opfor_mp_get(data, "kind");
    if (!state || !(str_is(k, "acted") || str_is(k, "resolve")))
        return 0;
    return str_is(opfor_mp_get(state, "pending"), "none") &&
           str_is(opfor_mp_get(state, "status"), "active");
}

/* Points memo at the game m names (a new game clears it) and at turn (a new turn forgets the
 * spotting: it is news for the rest of its turn only). */
static void memo_follow(opfor_card_memo_t *memo, const msgpack_object *m, long long turn) {
    char game[64];
    get_str(m, "game", game, sizeof game);
    if (strcmp(game, memo->game) != 0) {
        opfor_card_memo_reset(memo);
        snprintf(memo->game, sizeof memo->game, "%s", game);
    }
    if (turn > 0 && turn != memo->turn) {
        memo->turn = (int)turn;
        memo->have_spot = 0;
    }
}

static void card_from_generic(const msgpack_object *state, opfor_card_t *c, char *acting,
                              char *target, size_t size);

/* A to_move event of a game of another ruleset whose state (with a scene) has a table side,
 * not the AI's, to move. */
static int table_to_move(const msgpack_object *data, const msgpack_object *state) {
    long long side = -1, ai = -1;
    if (!state || !opfor_mp_get(state, "scene") || mp_bool(opfor_mp_get(data, "ai")) ||
        mp_int(opfor_mp_get(data, "side"), &side) < 0 ||
        mp_int(opfor_mp_get(state, "ai_side"), &ai) < 0)
        return 0;
    return side >= 0 && side != ai;
}

int opfor_card_from_event(const msgpack_object *ev, const msgpack_object *state,
                          opfor_card_memo_t *memo, opfor_card_t *c) {
    memset(c, 0, sizeof *c);
    if (!ev || ev->type != MSGPACK_OBJECT_MAP)
        return OPFOR_EINVAL;
    const msgpack_object *kind = opfor_mp_get(ev, "kind");
    const msgpack_object *data = opfor_mp_get(ev, "data");
    if (!kind || kind->type != MSGPACK_OBJECT_STR)
        return OPFOR_EINVAL;
    long long turn = 0, seq = 0;
    mp_int(opfor_mp_get(ev, "turn"), &turn);
    mp_int(opfor_mp_get(ev, "seq"), &seq);
    if (memo) {
        memo_follow(memo, ev, turn);
        if (seq > 0)
            memo->last_seq = seq;
    }
    char acting[48] = "", target[48] = "";
    if (str_is(kind, "order")) {
        if (!data || data->type != MSGPACK_OBJECT_MAP)
            return OPFOR_EINVAL;
        card_order(c, data);
        get_str(data, "unit", acting, sizeof acting);
        get_str(data, "target", target, sizeof target);
    } else if (str_is(kind, "spotted")) {
        if (!data || data->type != MSGPACK_OBJECT_MAP)
            return OPFOR_EINVAL;
        card_spotted(c, data, memo);
        if (state) /* the bar names the side, as on its orders */
            opfor_side_name(state, c->side_name, sizeof c->side_name);
    } else if (str_is(kind, "initiative")) {
        if (!data || data->type != MSGPACK_OBJECT_MAP)
            return OPFOR_EINVAL;
        card_initiative(c, data);
    } else if (str_is(kind, "game_over")) {
        card_game_over(c, data);
    } else if (str_is(kind, "report")) {
        if (!activation_done(data, state))
            return 0;
        press_card(c, state);
    } else if (str_is(kind, "to_move")) {
        /* a game of another ruleset: a table side to move after the AI's order was carried
           out shows its choices (the dice and the AI's own turn keep the order card up) */
        if (!table_to_move(data, state))
            return 0;
        card_from_generic(state, c, acting, target, sizeof acting);
    } else {
        return 0;
    }
    set_turn(c, turn);
    if (state)
        opfor_card_map_from_state(state, acting, target, memo, &c->map);
    return 1;
}

/* The name of the side that is (player 1) or is not (player 0) played by people. */
static void side_name_of(const msgpack_object *state, int player, char *buf, size_t size) {
    buf[0] = '\0';
    const msgpack_object *sides = opfor_mp_get(state, "sides");
    if (!sides || sides->type != MSGPACK_OBJECT_ARRAY)
        return;
    for (uint32_t i = 0; i < sides->via.array.size; i++) {
        int p;
        if (mp_flag(opfor_mp_get(&sides->via.array.ptr[i], "player"), &p) == 0 && p == player) {
            get_str(&sides->via.array.ptr[i], "name", buf, size);
            return;
        }
    }
}

/* Is the state's last order the one to carry out now? Only while it is open (the daemon says
 * so; an older daemon does not, and then the turn must be the order's), nobody holds the
 * initiative and it is not resolved: ai.orders hands the initiative back, so once someone
 * holds it again the order belongs to an earlier activation. */
static int order_current(const msgpack_object *ord, const msgpack_object *pend, long long turn) {
    long long oturn = 0;
    if (!ord || ord->type != MSGPACK_OBJECT_MAP || mp_bool(opfor_mp_get(ord, "resolved")))
        return 0;
    const msgpack_object *open = opfor_mp_get(ord, "open");
    if (open && !mp_bool(open))
        return 0;
    if (str_is(pend, "player") || str_is(pend, "enemy"))
        return 0;
    return mp_int(opfor_mp_get(ord, "turn"), &oturn) < 0 || oturn == turn;
}

/* A game of another ruleset (its state carries a `scene`): the game over, the AI's order while
 * it is open, else who is to move: a table side (the legal actions to choose from), the AI, or
 * the dice. Returns the acting unit and target of an open order. */
static void card_from_generic(const msgpack_object *state, opfor_card_t *c, char *acting,
                              char *target, size_t size) {
    const msgpack_object *ord = opfor_mp_get(state, "order");
    const msgpack_object *mv = opfor_mp_get(state, "to_move");
    long long ai = -1, side = -1;
    mp_int(opfor_mp_get(state, "ai_side"), &ai);
    if (str_is(opfor_mp_get(state, "status"), "finished")) {
        game_over_head(c, opfor_mp_get(state, "result"), NULL);
    } else if (ord && ord->type == MSGPACK_OBJECT_MAP && mp_bool(opfor_mp_get(ord, "open"))) {
        card_order(c, ord);
        get_str(ord, "unit", acting, size);
        get_str(ord, "target", target, size);
    } else if (str_is(mv, "chance")) {
        opfor_card_waiting(c, "Roll the dice", "Report the roll, or let the daemon roll");
    } else if (mp_int(mv, &side) == 0 && side == ai) {
        c->initiative = OPFOR_CARD_SIDE_OPFOR;
        snprintf(c->unit, sizeof c->unit, "Enemy to move");
        add_order(c, "Waiting for the enemy's orders");
    } else if (side >= 0) {
        c->initiative = OPFOR_CARD_SIDE_PLAYER;
        snprintf(c->unit, sizeof c->unit, "Your move");
        card_initiative_parts(c, 1, "", opfor_mp_get(state, "legal"));
        snprintf(c->unit, sizeof c->unit, "Your move");
    } else {
        opfor_card_waiting(c, "Waiting", "The game is not being played");
    }
}

int opfor_card_from_state(const msgpack_object *state, opfor_card_memo_t *memo, opfor_card_t *c) {
    memset(c, 0, sizeof *c);
    if (!state || state->type != MSGPACK_OBJECT_MAP)
        return OPFOR_EINVAL;
    if (generic_scene(state)) {
        char acting[48] = "", target[48] = "";
        long long turn = 0;
        mp_int(opfor_mp_get(opfor_mp_get(state, "progress"), "turn"), &turn);
        if (memo) {
            memo_follow(memo, state, turn);
            long long seq = 0;
            if (mp_int(opfor_mp_get(state, "event_seq"), &seq) == 0)
                memo->last_seq = seq;
        }
        card_from_generic(state, c, acting, target, sizeof acting);
        set_turn(c, turn);
        opfor_card_map_from_state(state, acting, target, memo, &c->map);
        return 1;
    }
    long long turn = 0;
    mp_int(opfor_mp_get(state, "turn"), &turn);
    if (memo) {
        memo_follow(memo, state, turn);
        long long seq = 0;
        if (mp_int(opfor_mp_get(state, "event_seq"), &seq) == 0)
            memo->last_seq = seq;
    }
    const msgpack_object *pend = opfor_mp_get(state, "pending");
    const msgpack_object *ord = opfor_mp_get(state, "order");
    char acting[48] = "", target[48] = "", side[48];
    if (str_is(opfor_mp_get(state, "status"), "finished")) {
        long long total = 0;
        mp_int(opfor_mp_get(opfor_mp_get(state, "score"), "total"), &total);
        game_over_head(c, opfor_mp_get(state, "result"), &total);
    } else if (order_current(ord, pend, turn)) {
        /* the last order, still to be carried out */
        card_order(c, ord);
        get_str(ord, "unit", acting, sizeof acting);
        get_str(ord, "target", target, sizeof target);
    } else if (str_is(pend, "player") || str_is(pend, "enemy")) {
        int player = str_is(pend, "player");
        side_name_of(state, player, side, sizeof side);
        card_initiative_parts(c, player, side, opfor_mp_get(state, "ready"));
    } else {
        press_card(c, state);
    }
    set_turn(c, turn);
    opfor_card_map_from_state(state, acting, target, memo, &c->map);
    return 1;
}
