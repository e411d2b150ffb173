/* rulesets/splendid/engine_scenario.c — A Splendid Victory! scenarios: core's scenario reader
 * (docs/scenario-format.md: the table, terrain, sides, units with their stands as figures and
 * their position as the centre of the front edge, generals as command units, turn_limit) plus
 * the `splendid:` block this ruleset reads itself (unit types, pikes, formations, files,
 * options, base sizes in millimetres, victory overrides), checked when the scenario loads so
 * every error names its file, line and column; the army restrictions of §Pike and Musket
 * Units … §Dragoon Units; the opening position of a game; and the built-in scenarios
 * (the YAML files of scenarios/, compiled in).
 */
#include <libfyaml.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine_int.h"
#include "opfor/yamlread.h"
#include "scenario_gen.h"

const char *const sv_kind_names[SV_KIND_COUNT] = {
    "pike_and_musket", "foot",      "heavy_mounted",   "mounted",   "dragoon",
    "frame_gun",       "artillery", "heavy_artillery", "commander", "sub_commander"};
const char *const sv_form_names[SV_FORM_COUNT] = {
    "block", "defensive_block", "line", "open_order", "road_column", "limbered", "unlimbered"};

static const opfor_name_t KINDS[] = {{"pike_and_musket", SV_PM},
                                     {"foot", SV_FOOT},
                                     {"heavy_mounted", SV_HEAVY},
                                     {"mounted", SV_MOUNTED},
                                     {"dragoon", SV_DRAGOON},
                                     {"dragoons", SV_DRAGOON},
                                     {"frame_gun", SV_FRAME},
                                     {"artillery", SV_GUN},
                                     {"regular_artillery", SV_GUN},
                                     {"heavy_artillery", SV_HEAVYGUN},
                                     {"commander", SV_COMMANDER},
                                     {"sub_commander", SV_SUB},
                                     {NULL, 0}};
static const opfor_name_t FORMS[] = {{"block", SV_BLOCK},
                                     {"defensive_block", SV_DEFBLOCK},
                                     {"line", SV_LINE},
                                     {"open_order", SV_OPEN},
                                     {"open", SV_OPEN},
                                     {"road_column", SV_COLUMN},
                                     {"column", SV_COLUMN},
                                     {"limbered", SV_LIMBERED},
                                     {"unlimbered", SV_UNLIMBERED},
                                     {"bent_line", 100},
                                     {"bent_open_order", 100},
                                     {"bent_road_column", 100},
                                     {NULL, 0}};
static const opfor_name_t SURVIVOR[] = {{"line", 0}, {"rout", 1}, {NULL, 0}};

/* Unit sizes of §How do stands form a unit? (index: kind). */
static const int MIN_STANDS[SV_KIND_COUNT] = {2, 2, 2, 2, 2, 1, 1, 1, 1, 1};
static const int MAX_STANDS[SV_KIND_COUNT] = {9, 9, 4, 7, 7, 1, 1, 1, 1, 1};

static const opfor_scenario_block_rule_t BLOCKS[] = {{"splendid", -1, NULL}, {NULL, 0, NULL}};

/* What one unit's entry of the block said. */
typedef struct entry {
    int kind, pikes, form, files, lance, dismounted;
    struct fy_node *node; /* the entry, for errors */
} entry_t;

static int fail(opfor_yaml_rd_t *rd, opfor_scenario_ck_t *ck, int u, const char *key,
                struct fy_node *n, const char *msg) {
    if (n)
        return opfor_yaml_fail(rd, OPFOR_EINVAL, n, NULL, "%s", msg);
    if (ck)
        return opfor_scenario_ck_fail(ck, OPFOR_EINVAL,
                                      u < 0 ? OPFOR_SCENARIO_ROOT : OPFOR_SCENARIO_UNIT,
                                      u < 0 ? 0 : u, key, "%s", msg);
    return OPFOR_EINVAL;
}

static int read_base(opfor_yaml_rd_t *rd, opfor_yaml_field_t *f, float *w, float *d) {
    if (!f->v)
        return 0;
    if (opfor_yaml_want_seq(rd, f->v, f->k, f->key))
        return rd->err;
    if (fy_node_sequence_item_count(f->v) != 2)
        return opfor_yaml_fail(rd, OPFOR_EPARSE, f->v, f->k,
                               "%s: expected [width, depth] in millimetres", f->key);
    double a, b;
    if (opfor_yaml_get_num(rd, fy_node_sequence_get_by_index(f->v, 0), f->v, "base width (mm)", 5,
                           500, &a) ||
        opfor_yaml_get_num(rd, fy_node_sequence_get_by_index(f->v, 1), f->v, "base depth (mm)", 5,
                           500, &b))
        return rd->err;
    *w = (float)(a / 25.4);
    *d = (float)(b / 25.4);
    return 0;
}

static int read_options(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt, sv_ctx_t *c) {
    enum { UQ, SURV, TOL, BP, VC, NF };
    opfor_yaml_field_t f[NF] = {{"unit_quality", 0, 0},
                                {"one_stand_survivor", 0, 0},
                                {"contact_tolerance", 0, 0},
                                {"breakpoints", 0, 0},
                                {"variable_command", 0, 0}};
    if (opfor_yaml_read_fields(rd, n, alt, "options", f, NF))
        return rd->err;
    double tol = c->opt.contact_tolerance;
    if ((f[UQ].v &&
         opfor_yaml_get_bool(rd, f[UQ].v, f[UQ].k, "unit_quality", &c->opt.unit_quality)) ||
        (f[SURV].v && opfor_yaml_get_enum(rd, f[SURV].v, f[SURV].k, "one_stand_survivor (R-5)",
                                          SURVIVOR, &c->opt.one_stand_rout)) ||
        (f[TOL].v && opfor_yaml_get_num(rd, f[TOL].v, f[TOL].k, "contact_tolerance (R-24)", 0.001,
                                        1.0, &tol)) ||
        (f[BP].v &&
         opfor_yaml_get_bool(rd, f[BP].v, f[BP].k, "breakpoints", &c->opt.breakpoints)) ||
        (f[VC].v &&
         opfor_yaml_get_bool(rd, f[VC].v, f[VC].k, "variable_command", &c->opt.variable_command)))
        return rd->err;
    c->opt.contact_tolerance = (float)tol;
    return 0;
}

static int read_entry(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *k, entry_t *e) {
    enum { KIND, PIKES, FORM, FILES, LANCE, DISM, NF };
    opfor_yaml_field_t f[NF] = {{"kind", 0, 0},  {"pikes", 0, 0}, {"formation", 0, 0},
                                {"files", 0, 0}, {"lance", 0, 0}, {"dismounted", 0, 0}};
    if (opfor_yaml_read_fields(rd, n, k, "a splendid unit", f, NF))
        return rd->err;
    if (!f[KIND].v)
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, k, "a splendid unit needs a kind");
    e->node = n;
    if (opfor_yaml_get_enum(rd, f[KIND].v, f[KIND].k, "kind", KINDS, &e->kind) ||
        (f[PIKES].v && opfor_yaml_get_int(rd, f[PIKES].v, f[PIKES].k, "pikes", 0, 9, &e->pikes)) ||
        (f[FORM].v &&
         opfor_yaml_get_enum(rd, f[FORM].v, f[FORM].k, "formation", FORMS, &e->form)) ||
        (f[FILES].v && opfor_yaml_get_int(rd, f[FILES].v, f[FILES].k, "files", 1, 9, &e->files)) ||
        (f[LANCE].v && opfor_yaml_get_bool(rd, f[LANCE].v, f[LANCE].k, "lance", &e->lance)) ||
        (f[DISM].v && opfor_yaml_get_bool(rd, f[DISM].v, f[DISM].k, "dismounted", &e->dismounted)))
        return rd->err;
    if (e->form == 100)
        return opfor_yaml_fail(rd, OPFOR_EINVAL, f[FORM].v, f[FORM].k,
                               "bent formations are not played by this engine yet");
    if (e->pikes && e->kind != SV_PM)
        return opfor_yaml_fail(rd, OPFOR_EINVAL, f[PIKES].v, f[PIKES].k,
                               "only Pike and Musket units have pikes");
    if (e->lance && e->kind != SV_MOUNTED)
        return opfor_yaml_fail(rd, OPFOR_EINVAL, f[LANCE].v, f[LANCE].k,
                               "only Mounted units carry lances");
    if (e->dismounted && e->kind != SV_DRAGOON)
        return opfor_yaml_fail(rd, OPFOR_EINVAL, f[DISM].v, f[DISM].k, "only dragoons dismount");
    return 0;
}

/* Reads sc (and its splendid block) into c; ck, when not NULL, places the errors that belong
 * to a unit of the units list. Returns 0 or the first error. */
static int build(opfor_yaml_rd_t *rd, opfor_scenario_ck_t *ck, const opfor_scenario_t *sc,
                 sv_ctx_t *c) {
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", sc->name);
    c->width = sc->table.width;
    c->depth = sc->table.depth;
    c->turn_limit = sc->turn_limit > 0 ? sc->turn_limit : SV_DEFAULT_TURNS;
    c->table = sc->table;
    for (int k = 0; k < 2; k++) {
        snprintf(c->side_names[k], sizeof c->side_names[k], "%s", sc->sides[k].name);
        c->side_player[k] = sc->sides[k].player;
    }
    c->model = opfor__sv_model_builtin;
    c->opt.contact_tolerance = 0.05f;
    c->opt.breakpoints = 1;
    const float mm = 1.0f / 25.4f;
    for (int k = 0; k < 4; k++) {
        c->base_w[k] = 40.0f * mm;
        c->base_d[k] = (k == 2 ? 80.0f : 40.0f) * mm;
    }
    entry_t e[SV_MAX_UNITS];
    memset(e, 0, sizeof e);
    for (int i = 0; i < SV_MAX_UNITS; i++)
        e[i].kind = e[i].form = -1;
    sv_gen_t gen;
    memset(&gen, 0, sizeof gen);
    struct fy_node *blk = opfor_scenario_block(sc, "splendid");
    struct fy_node *units = NULL, *units_k = NULL;
    if (blk) {
        enum { OPT, BASES, UNITS, GEN, TERRAIN, NF };
        opfor_yaml_field_t f[NF] = {{"options", 0, 0},
                                    {"bases", 0, 0},
                                    {"units", 0, 0},
                                    {"generate", 0, 0},
                                    {"terrain", 0, 0}};
        if (opfor_yaml_read_fields(rd, blk, NULL, "splendid", f, NF) ||
            (f[OPT].v && read_options(rd, f[OPT].v, f[OPT].k, c)) ||
            /* the game master's terrain numbers over model.yaml's (docs/splendid.md 5) */
            (f[TERRAIN].v && opfor__sv_terrain_read(rd, f[TERRAIN].v, f[TERRAIN].k, &c->model)) ||
            (f[GEN].v && sv_gen_read(rd, f[GEN].v, f[GEN].k, &gen)))
            return rd->err;
        if (f[BASES].v) {
            opfor_yaml_field_t b[4] = {
                {"foot", 0, 0}, {"mounted", 0, 0}, {"artillery", 0, 0}, {"command", 0, 0}};
            if (opfor_yaml_read_fields(rd, f[BASES].v, f[BASES].k, "bases", b, 4))
                return rd->err;
            for (int k = 0; k < 4; k++)
                if (read_base(rd, &b[k], &c->base_w[k], &c->base_d[k]))
                    return rd->err;
        }
        units = f[UNITS].v;
        units_k = f[UNITS].k;
    }
    if (units) {
        if (opfor_yaml_want_map(rd, units, units_k, "splendid units"))
            return rd->err;
        struct fy_node_pair *pair;
        void *it = NULL;
        while ((pair = fy_node_mapping_iterate(units, &it)) != NULL) {
            struct fy_node *k = fy_node_pair_key(pair), *v = fy_node_pair_value(pair);
            char name[64];
            if (opfor_yaml_get_str(rd, k, units, "unit name", name, sizeof name))
                return rd->err;
            int u = opfor_scenario_unit(sc, name);
            if (u < 0)
                return opfor_yaml_fail(rd, OPFOR_EINVAL, k, NULL,
                                       "no unit or general called '%s' in units or generals", name);
            if (read_entry(rd, v, k, &e[u]))
                return rd->err;
        }
    }
    sv_state_t *s = &c->start;
    memset(s, 0, sizeof *s);
    s->turn = 1;
    s->nunits = (uint8_t)sc->nunits;
    int commanders[2] = {0, 0};
    for (int i = 0; i < sc->nunits; i++) {
        const opfor_unit_t *cu = &sc->units[i];
        sv_unit_t *u = &s->u[i];
        snprintf(c->names[i], sizeof c->names[i], "%s", cu->name);
        int general = (cu->flags & OPFOR_UNIT_GENERAL) != 0;
        if (e[i].kind < 0) {
            if (!general)
                return fail(rd, ck, i, NULL, NULL,
                            "this unit needs an entry under splendid: units: (its kind)");
            e[i].kind = commanders[cu->side] ? SV_SUB : SV_COMMANDER;
        }
        if (e[i].kind == SV_COMMANDER && commanders[cu->side]++)
            return fail(rd, ck, i, NULL, e[i].node, "a side has one Commander (R-2)");
        u->kind = (uint8_t)e[i].kind;
        u->side = cu->side;
        u->n = u->n0 = (uint8_t)(cu->count > 255 ? 255 : cu->count);
        if (u->n < MIN_STANDS[u->kind] || u->n > MAX_STANDS[u->kind]) {
            char msg[160];
            snprintf(msg, sizeof msg, "a %s unit has %d to %d stands, not %d",
                     sv_kind_names[u->kind], MIN_STANDS[u->kind], MAX_STANDS[u->kind], u->n);
            return fail(rd, ck, i, "figures", e[i].node, msg);
        }
        if (e[i].pikes > u->n)
            return fail(rd, ck, i, NULL, e[i].node, "more pikes than stands");
        u->a = (uint8_t)(u->kind == SV_PM ? e[i].pikes : u->kind == SV_FOOT ? u->n : u->n);
        u->quality = cu->quality <= OPFOR_Q_CONSCRIPT ? 0 : cu->quality == OPFOR_Q_SOLDIER ? 1 : 2;
        u->target = 0xFF;
        if (e[i].lance)
            u->flags |= SV_F_LANCE;
        if (e[i].dismounted)
            u->flags |= SV_F_DISMOUNTED;
        int form = e[i].form >= 0 ? e[i].form : SV_LINE;
        if (sv_is_art(u))
            form = (cu->flags & OPFOR_UNIT_LIMBERED) ? SV_LIMBERED : SV_UNLIMBERED;
        if (sv_is_cmd(u)) {
            form = SV_OPEN;
            u->cmd10 = (uint8_t)(10 * c->model.command[u->kind == SV_SUB].basic);
        }
        u->form = (uint8_t)form;
        if (!sv_form_ok(u, form)) {
            char msg[160];
            snprintf(msg, sizeof msg, "a %d-stand %s unit cannot be in %s", u->n,
                     sv_kind_names[u->kind], sv_form_names[form]);
            return fail(rd, ck, i, NULL, e[i].node, msg);
        }
        u->files = (uint8_t)(e[i].files ? e[i].files : sv_default_files(u, form));
        if (u->files > u->n || ((form == SV_LINE || form == SV_OPEN) && u->files != u->n) ||
            (form == SV_COLUMN && u->files != 1))
            return fail(rd, ck, i, NULL, e[i].node, "files do not fit the formation");
        opfor_pt_t p;
        if (opfor_unit_centre(cu, sc->figures, &p) == 0)
            return fail(rd, ck, i, NULL, NULL, "a unit needs a place on the table");
        opfor_vec_t f = opfor_vnorm(cu->facing);
        u->x = p.x;
        u->y = p.y;
        u->fx = f.x;
        u->fy = f.y;
        s->stands0[u->side] = (uint16_t)(s->stands0[u->side] + u->n);
    }
    if (gen.on) { /* docs/splendid.md 9.5: an army thrown for each side */
        for (int k = 0; k < 2; k++)
            if (commanders[k])
                return opfor_yaml_fail(rd, OPFOR_EINVAL, gen.node, NULL,
                                       "generate: %s has a Commander already; a generated army "
                                       "brings its own (leave the side's generals out)",
                                       sc->sides[k].name);
        for (int k = 0; k < 2; k++)
            gen.top[k] = sc->sides[k].edge >= 0 ? sc->sides[k].edge == OPFOR_EDGE_TOP : k == 1;
        if (sv_gen_armies(rd, &gen, c))
            return rd->err;
    }
    for (int i = 0; i < s->nunits; i++) {
        opfor_pt_t r[4];
        sv_rect(c, &s->u[i], r);
        int at = i < sc->nunits ? i : -1; /* generated units: the scenario's errors */
        if (!sv_on_table(c, r))
            return fail(rd, ck, at, "position", gen.on && at < 0 ? gen.node : NULL,
                        "the unit's stands do not all stand on the table");
        if (!sv_terrain_ok(c, &s->u[i], r)) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s stands in terrain closed to it", c->names[i]);
            return fail(rd, ck, at, "position", at < 0 ? gen.node : NULL,
                        at < 0 ? msg : "the unit stands in terrain closed to it");
        }
        for (int j = 0; j < i; j++) {
            opfor_pt_t q[4];
            sv_rect(c, &s->u[j], q);
            if (sv_rect_overlap(r, q, 0.01f)) {
                char msg[160];
                if (at < 0)
                    snprintf(msg, sizeof msg, "%s's stands overlap those of %s", c->names[i],
                             c->names[j]);
                else
                    snprintf(msg, sizeof msg, "the unit's stands overlap those of %s", c->names[j]);
                return fail(rd, ck, at, "position", at < 0 ? gen.node : NULL, msg);
            }
        }
    }
    /* army restrictions (docs/splendid.md 1.3) */
    for (int side = 0; side < 2; side++) {
        int foot = 0, foot_st = 0, pm = 0, fo = 0, mtd = 0, mtd_st = 0, hm = 0;
        for (int i = 0; i < s->nunits; i++) {
            const sv_unit_t *u = &s->u[i];
            if (u->side != side)
                continue;
            if (u->kind == SV_PM || u->kind == SV_FOOT) {
                foot++;
                foot_st += u->n;
                pm += u->kind == SV_PM;
                fo += u->kind == SV_FOOT;
            }
            if (u->kind == SV_HEAVY || u->kind == SV_MOUNTED || u->kind == SV_DRAGOON) {
                mtd++;
                mtd_st += u->n;
                hm += u->kind == SV_HEAVY;
            }
        }
        const char *why = NULL;
        if (foot_st > 6 * foot)
            why = "foot units average more than 6 stands (§Pike and Musket Units)";
        else if (foot && pm <= fo)
            why = "Pike and Musket units must outnumber Foot units (§Foot Units)";
        else if (mtd_st > 5 * mtd)
            why = "mounted units average more than 5 stands (§Mounted Units)";
        else if (hm > (mtd + 14) / 15)
            why = "more than one Heavy Mounted unit in every 15 mounted units (R-15)";
        if (why) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s: %s", sc->sides[side].name, why);
            return fail(rd, ck, -1, "splendid", NULL, msg);
        }
    }
    return 0;
}

static int check_scenario(opfor_scenario_ck_t *ck, void *user) {
    (void)user;
    sv_ctx_t *c = malloc(sizeof *c);
    if (!c)
        return opfor_scenario_ck_fail(ck, OPFOR_ENOMEM, OPFOR_SCENARIO_ROOT, 0, NULL,
                                      "no memory for the game context");
    opfor_yaml_rd_t *rd = opfor_scenario_ck_reader(ck);
    int rc = build(rd, ck, opfor_scenario_ck_scenario(ck), c);
    free(c);
    if (rc && rd->err)
        return rd->err;
    return rc;
}

/* What each kind of terrain does (docs/splendid.md 5, design): woods, buildings and hills
 * prohibit fire through them; buildings and rough ground (marsh) are closed to mounted units,
 * command units and artillery; rivers and impassable ground to everyone; the engine adds
 * woods to artillery and hedges, walls and fences to unlimbered guns. */
const opfor_scenario_rules_t opfor__sv_scenario_rules = {
    .name = "splendid",
    .terrain =
        {
            .radii = {0.2f, 0.2f, 0.2f},
            .kinds =
                {
                    [OPFOR_TK_OPEN] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OPEN, 0},
                    [OPFOR_TK_WOODS] = {OPFOR_COVER_SOFT, OPFOR_SIGHT_BLOCKS, OPFOR_MOVE_ROUGH, 0},
                    [OPFOR_TK_BUILDING] = {OPFOR_COVER_HARD, OPFOR_SIGHT_BLOCKS,
                                           OPFOR_MOVE_OBSTACLE, OPFOR_TF_NO_MOUNTED},
                    [OPFOR_TK_WALL] = {OPFOR_COVER_HARD, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OBSTACLE, 0},
                    [OPFOR_TK_HEDGE] = {OPFOR_COVER_SOFT, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OBSTACLE,
                                        0},
                    [OPFOR_TK_FENCE] = {OPFOR_COVER_SOFT, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OBSTACLE,
                                        0},
                    [OPFOR_TK_HILL] = {OPFOR_COVER_NONE, OPFOR_SIGHT_BLOCKS, OPFOR_MOVE_OPEN, 0},
                    [OPFOR_TK_ROAD] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_ROAD, 0},
                    [OPFOR_TK_RIVER] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_IMPASSABLE,
                                        0},
                    [OPFOR_TK_FIELD_WORKS] = {OPFOR_COVER_FORT, OPFOR_SIGHT_CLEAR,
                                              OPFOR_MOVE_OBSTACLE, 0},
                    [OPFOR_TK_ROUGH] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_ROUGH,
                                        OPFOR_TF_NO_MOUNTED},
                    [OPFOR_TK_IMPASSABLE] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR,
                                             OPFOR_MOVE_IMPASSABLE, 0},
                },
            .line_width = {[OPFOR_TK_WALL] = 0.5f,
                           [OPFOR_TK_HEDGE] = 0.5f,
                           [OPFOR_TK_FENCE] = 0.25f,
                           [OPFOR_TK_ROAD] = 2.0f,
                           [OPFOR_TK_RIVER] = 2.0f,
                           [OPFOR_TK_FIELD_WORKS] = 1.0f},
        },
    .check = check_scenario,
    .blocks = BLOCKS,
};

/* ---------------------------------------------------------------- contexts and built-ins */

extern const unsigned char opfor_splendid_scenario_encounter[];
extern const unsigned long opfor_splendid_scenario_encounter_len;
extern const unsigned char opfor_splendid_scenario_generated[];
extern const unsigned long opfor_splendid_scenario_generated_len;

static const struct {
    const char *name;
    const unsigned char *text;
    const unsigned long *len;
} BUILTINS[] = {
    {"encounter", opfor_splendid_scenario_encounter, &opfor_splendid_scenario_encounter_len},
    {"generated", opfor_splendid_scenario_generated, &opfor_splendid_scenario_generated_len},
};
#define NBUILTINS (sizeof BUILTINS / sizeof BUILTINS[0])

const char *sv_builtin_name(size_t i) {
    return i < NBUILTINS ? BUILTINS[i].name : NULL;
}

const char *sv_builtin_text(const char *name, size_t *len) {
    if (!name)
        return NULL;
    if (strncmp(name, "builtin:", 8) == 0)
        name += 8;
    for (size_t i = 0; i < NBUILTINS; i++)
        if (strcmp(BUILTINS[i].name, name) == 0) {
            if (len)
                *len = (size_t)*BUILTINS[i].len;
            return (const char *)BUILTINS[i].text;
        }
    return NULL;
}

static int from_scenario(opfor_scenario_t *sc, sv_ctx_t **out, opfor_diag_t *diag) {
    sv_ctx_t *c = malloc(sizeof *c);
    if (!c) {
        opfor_scenario_free(sc);
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "no memory for the game context");
    }
    opfor_diag_t d;
    opfor_diag_clear(&d);
    opfor_yaml_rd_t rd = {&d, 0, 1};
    int rc = build(&rd, NULL, sc, c);
    opfor_scenario_free(sc);
    if (rc) {
        free(c);
        if (diag)
            *diag = d;
        return rc;
    }
    *out = c;
    return 0;
}

int sv_ctx_load_text(const char *text, size_t len, const char *name, sv_ctx_t **out,
                     opfor_diag_t *diag) {
    *out = NULL;
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    if (!sc)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "no memory for the scenario");
    int rc = opfor_scenario_load_string(text, len, name, &opfor__sv_scenario_rules, sc, diag);
    if (rc == 0)
        rc = from_scenario(sc, out, diag);
    free(sc);
    return rc;
}

int sv_ctx_load(const char *scenario, sv_ctx_t **out, opfor_diag_t *diag) {
    *out = NULL;
    if (!scenario)
        scenario = "encounter";
    struct stat st;
    size_t len = 0;
    const char *text = sv_builtin_text(scenario, &len);
    int named_builtin = strncmp(scenario, "builtin:", 8) == 0; /* never a file */
    if (named_builtin && !text)
        return opfor_diag_set(diag, OPFOR_ENOENT, 0, 0, "%s: no such built-in scenario", scenario);
    if (text && (named_builtin || stat(scenario, &st) != 0)) {
        char label[128];
        snprintf(label, sizeof label, "builtin:%s",
                 strncmp(scenario, "builtin:", 8) == 0 ? scenario + 8 : scenario);
        return sv_ctx_load_text(text, len, label, out, diag);
    }
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    if (!sc)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "no memory for the scenario");
    int rc = opfor_scenario_load_file(scenario, &opfor__sv_scenario_rules, sc, diag);
    if (rc == 0)
        rc = from_scenario(sc, out, diag);
    free(sc);
    return rc;
}

void sv_ctx_free(sv_ctx_t *c) {
    free(c);
}
