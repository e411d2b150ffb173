/* rulesets/viktoria/patrol_config.c — Patrol Mode settings: defaults and the scenario's
 * `patrol:` block (Viktoria! XV; keys in docs/patrol-mode.md).
 *
 * core/scenario.c keeps the block (declared in scenario_check.c's rules) as a libfyaml node,
 * found with opfor_scenario_block, and leaves its keys to this module, which walks it with the
 * same typed readers (opfor/yamlread.h): an unknown key, a misspelt name, a weight below zero or
 * a bad dice expression is reported at its file:line:column with what was expected. The
 * defaults are the odds documented in docs/patrol-mode.md; a scenario overrides only what it
 * names. The collection (the game master's own miniatures) is read into fixed arrays so the
 * config needs no pointers.
 */
#include "opfor/viktoria/patrol.h"
#include "opfor/yamlread.h"

#include <libfyaml.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const opfor_name_t opfor_patrol_type_names[] = {
    {"infantry", OPFOR_PT_INFANTRY},      {"cavalry", OPFOR_PT_CAVALRY},
    {"artillery", OPFOR_PT_ARTILLERY},    {"headquarters", OPFOR_PT_HEADQUARTERS},
    {"supply", OPFOR_PT_SUPPLY},          {"machinegun", OPFOR_PT_ARTILLERY},
    {"artillery_mg", OPFOR_PT_ARTILLERY}, {"mg", OPFOR_PT_ARTILLERY},
    {"hq", OPFOR_PT_HEADQUARTERS},        {"supply_transport", OPFOR_PT_SUPPLY},
    {"transport", OPFOR_PT_SUPPLY},       {NULL, 0},
};

const char *opfor_patrol_type_label(int type) {
    static const char *const labels[OPFOR_PT_COUNT] = {"infantry", "cavalry", "artillery/MG",
                                                       "headquarters", "supply transport"};
    return (unsigned)type < OPFOR_PT_COUNT ? labels[type] : "?";
}

int opfor_patrol_type_of_unit(int unit_type) {
    switch (unit_type) {
    case OPFOR_UT_INFANTRY:
        return OPFOR_PT_INFANTRY;
    case OPFOR_UT_CAVALRY:
        return OPFOR_PT_CAVALRY;
    case OPFOR_UT_ARTILLERY:
    case OPFOR_UT_MACHINEGUN:
        return OPFOR_PT_ARTILLERY;
    case OPFOR_UT_HEADQUARTERS:
        return OPFOR_PT_HEADQUARTERS;
    case OPFOR_UT_SUPPLY:
        return OPFOR_PT_SUPPLY;
    default:
        return -1;
    }
}

/* ---- defaults (docs/patrol-mode.md, "Default odds") ---- */

/* Spotted types: infantry most common, then cavalry, then guns and MGs; HQ and supply
 * rare (XV.B). */
static const uint32_t default_types[OPFOR_PT_COUNT] = {50, 25, 15, 5, 5};
/* Quality by type: civilian, conscript, soldier, veteran, elite (IV). */
static const uint32_t default_quality[OPFOR_PT_COUNT][OPFOR_Q_COUNT] = {
    {2, 25, 45, 20, 8},  /* infantry */
    {0, 15, 45, 28, 12}, /* cavalry */
    {0, 15, 50, 25, 10}, /* artillery / MG */
    {0, 0, 10, 30, 60},  /* headquarters: officers */
    {10, 60, 25, 5, 0},  /* supply: conscript guards (XV.B) */
};
/* Distance choices by type: dice count, sides, bonus inches, weight. */
typedef struct dist_default {
    int n, count, bonus;
    uint32_t weight;
} dist_default_t;
static const dist_default_t default_dist[OPFOR_PT_COUNT][4] = {
    {{4, 2, 6, 3}, {0, 3, 6, 4}, {0, 4, 6, 2}, {0, 3, 12, 1}},   /* infantry */
    {{3, 3, 6, 3}, {0, 4, 6, 3}, {0, 4, 12, 2}, {0, 0, 0, 0}},   /* cavalry scout further */
    {{3, 3, 12, 2}, {0, 4, 12, 2}, {0, 4, 18, 1}, {0, 0, 0, 0}}, /* guns stand off */
    {{2, 3, 12, 1}, {0, 4, 12, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}},
    {{2, 3, 6, 1}, {0, 4, 12, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}},
};

static void dice_nd6(opfor_dice_t *d, int count, int bonus) {
    memset(d, 0, sizeof *d);
    d->nterms = 1;
    d->inches = 1;
    d->terms[0].count = (uint8_t)count;
    d->terms[0].sides = 6;
    d->bonus = bonus;
}

/* Unit vector from the players toward the enemy: away from the player side's edge, else
 * toward the enemy's edge, else north. Always along an axis. */
static opfor_vec_t forward_of(const opfor_scenario_t *sc, int player, int enemy) {
    if (sc->sides[player].edge >= 0)
        return opfor_edge_inward((opfor_edge_t)sc->sides[player].edge);
    if (sc->sides[enemy].edge >= 0)
        return opfor_vscale(opfor_edge_inward((opfor_edge_t)sc->sides[enemy].edge), -1.0f);
    return opfor_compass_vec((opfor_table_north_t)sc->table.north, OPFOR_N);
}

void opfor_patrol_config_default(opfor_patrol_config_t *cfg, const opfor_scenario_t *sc) {
    memset(cfg, 0, sizeof *cfg);
    cfg->player = sc->sides[1].player && !sc->sides[0].player ? 1 : 0;
    cfg->enemy = 1 - cfg->player;
    cfg->forward = forward_of(sc, cfg->player, cfg->enemy);
    cfg->table = sc->table;
    cfg->nobjectives = sc->nobjectives;
    memcpy(cfg->objectives, sc->objectives, sizeof cfg->objectives);
    cfg->turn_limit = sc->turn_limit;
    cfg->nterritory = sc->sides[cfg->player].nterritory;
    memcpy(cfg->territory, sc->sides[cfg->player].territory, sizeof cfg->territory);
    cfg->front_line_gap = 12.0f;
    cfg->keep_passed_ground = 1;
    cfg->hiding_terrain = 1;
    cfg->allow_behind = 0;
    cfg->clear_ground = 1;
    cfg->edge_inset = 1.0f;
    cfg->side_weight[0] = 1.0;
    cfg->side_weight[1] = 1.0;
    cfg->spot_base = 0.04;
    cfg->spot_per_sqft = 0.03;
    cfg->spot_max = 0.5;
    cfg->spot_limit = 12;
    memcpy(cfg->type_weight, default_types, sizeof cfg->type_weight);
    memcpy(cfg->quality_weight, default_quality, sizeof cfg->quality_weight);
    for (int t = 0; t < OPFOR_PT_COUNT; t++) {
        int n = default_dist[t][0].n;
        cfg->ndist[t] = n;
        for (int i = 0; i < n; i++) {
            dice_nd6(&cfg->dist[t][i].dice, default_dist[t][i].count, default_dist[t][i].bonus);
            cfg->dist[t][i].weight = default_dist[t][i].weight;
        }
    }
    for (int d = 0; d < OPFOR_COMPASS_COUNT; d++)
        cfg->dir_weight[d] = 1;
    cfg->units_per_general = 3;
    cfg->general_quality = OPFOR_Q_ELITE;
    cfg->general_mounted = 1;
    cfg->general_weapons = OPFOR_W_SWORD | OPFOR_W_PISTOL;
    snprintf(cfg->general_name, sizeof cfg->general_name, "General");
}

/* ---- the reader ---- */

/* Patrol settings read with the lax rules of opfor/yamlread.h (rd.strict = 0). */
typedef struct rd {
    opfor_yaml_rd_t rd; /* errors go to rd.diag, the first is rd.err */
    opfor_patrol_config_t *cfg;
} rd_t;

/* A weight map {name: weight, ...} over table's values 0..count-1; absent names weigh 0.
 * At least one weight must be positive. */
static int get_weights(rd_t *r, struct fy_node *n, struct fy_node *alt, const char *what,
                       const opfor_name_t *table, int count, uint32_t *out) {
    uint32_t w[16] = {0};
    uint64_t total = 0;
    if (opfor_yaml_want_map(&r->rd, n, alt, what))
        return r->rd.err;
    void *it = NULL;
    struct fy_node_pair *p;
    while ((p = fy_node_mapping_iterate(n, &it)) != NULL) {
        int v, x;
        if (opfor_yaml_get_enum(&r->rd, fy_node_pair_key(p), n, what, table, &v) ||
            opfor_yaml_get_int(&r->rd, fy_node_pair_value(p), fy_node_pair_key(p), "a weight", 0,
                               1000000, &x))
            return r->rd.err;
        if (v < 0 || v >= count)
            return opfor_yaml_fail(&r->rd, OPFOR_ERANGE, fy_node_pair_key(p), n,
                                   "%s: value out of range", what);
        w[v] = (uint32_t)x;
    }
    for (int i = 0; i < count; i++)
        total += w[i];
    if (total == 0)
        return opfor_yaml_fail(&r->rd, OPFOR_ERANGE, n, alt,
                               "%s: at least one weight must be above 0", what);
    memcpy(out, w, sizeof(uint32_t) * (size_t)count);
    return 0;
}

/* One distance choice: "3 dice + 6 inches" or {dice: ..., weight: N}. */
static int get_dist_opt(rd_t *r, struct fy_node *n, struct fy_node *alt,
                        opfor_patrol_dist_opt_t *o) {
    struct fy_node *dn = n;
    int weight = 1;
    if (n && fy_node_is_mapping(n)) {
        enum { DICE, WEIGHT, NF };
        opfor_yaml_field_t f[NF] = {{"dice", 0, 0}, {"weight", 0, 0}};
        if (opfor_yaml_read_fields(&r->rd, n, alt, "distance choice", f, NF))
            return r->rd.err;
        if (!f[DICE].v)
            return opfor_yaml_fail(&r->rd, OPFOR_EPARSE, n, alt,
                                   "missing required key 'dice' in distance choice");
        if (f[WEIGHT].v && opfor_yaml_get_int(&r->rd, f[WEIGHT].v, f[WEIGHT].k, "distance weight",
                                              1, 1000000, &weight))
            return r->rd.err;
        dn = f[DICE].v;
    }
    char buf[128];
    if (opfor_yaml_get_str(&r->rd, dn, n, "distance dice", buf, sizeof buf))
        return r->rd.err;
    opfor_diag_t dd;
    opfor_dice_t d;
    opfor_diag_clear(&dd);
    if (opfor_dice_parse(buf, &d, &dd) != 0)
        return opfor_yaml_fail(
            &r->rd, OPFOR_EPARSE, dn, n,
            "bad distance '%s' at character %d: %s; write dice plus inches, such as "
            "\"3 dice + 6 inches\" or 3d6+6",
            buf, dd.col, dd.msg);
    if (opfor_dice_min(&d) < 0 || opfor_dice_max(&d) > 240)
        return opfor_yaml_fail(&r->rd, OPFOR_ERANGE, dn, n,
                               "distance '%s' must stay within 0..240 inches (it spans %d..%d)",
                               buf, opfor_dice_min(&d), opfor_dice_max(&d));
    d.inches = 1;
    o->dice = d;
    o->weight = (uint32_t)weight;
    return 0;
}

static int get_dist_list(rd_t *r, struct fy_node *n, struct fy_node *alt, int type) {
    opfor_patrol_config_t *cfg = r->cfg;
    opfor_patrol_dist_opt_t opts[OPFOR_PATROL_MAX_DIST];
    int k = 0;
    if (n && fy_node_is_scalar(n)) {
        if (get_dist_opt(r, n, alt, &opts[0]))
            return r->rd.err;
        k = 1;
    } else {
        if (opfor_yaml_want_seq(&r->rd, n, alt, "distance"))
            return r->rd.err;
        int cnt = fy_node_sequence_item_count(n);
        if (cnt < 1 || cnt > OPFOR_PATROL_MAX_DIST)
            return opfor_yaml_fail(&r->rd, OPFOR_ERANGE, n, alt,
                                   "distance lists 1 to %d choices, found %d",
                                   OPFOR_PATROL_MAX_DIST, cnt);
        void *it = NULL;
        struct fy_node *item;
        while ((item = fy_node_sequence_iterate(n, &it)) != NULL)
            if (get_dist_opt(r, item, n, &opts[k++]))
                return r->rd.err;
    }
    for (int t = 0; t < OPFOR_PT_COUNT; t++) {
        if (type >= 0 && t != type)
            continue;
        cfg->ndist[t] = k;
        memset(cfg->dist[t], 0, sizeof cfg->dist[t]);
        memcpy(cfg->dist[t], opts, sizeof opts[0] * (size_t)k);
    }
    return 0;
}

/* ---- the collection ---- */

static int parse_group(rd_t *r, struct fy_node *n, struct fy_node *alt, opfor_patrol_template_t *t,
                       int quality) {
    enum { COUNT, QUAL, WEAP, SKILL, MOUNTED, HORSE, EQUIP, NF };
    opfor_yaml_field_t f[NF] = {{"count", 0, 0},    {"quality", 0, 0}, {"weapons", 0, 0},
                                {"skills", 0, 0},   {"mounted", 0, 0}, {"horse", 0, 0},
                                {"equipment", 0, 0}};
    opfor_patrol_config_t *cfg = r->cfg;
    int count = 1, mounted = 0, horse = -1, equip = 0;
    unsigned weapons = 0, skills = 0;
    if (opfor_yaml_read_fields(&r->rd, n, alt, "figure group", f, NF))
        return r->rd.err;
    if ((f[COUNT].v &&
         opfor_yaml_get_int(&r->rd, f[COUNT].v, f[COUNT].k, "count", 1, 64, &count)) ||
        (f[QUAL].v && opfor_yaml_get_enum(&r->rd, f[QUAL].v, f[QUAL].k, "quality",
                                          opfor_quality_names, &quality)) ||
        (f[WEAP].v && opfor_yaml_get_bits(&r->rd, f[WEAP].v, f[WEAP].k, "weapon",
                                          opfor_weapon_names, 0, &weapons)) ||
        (f[SKILL].v && opfor_yaml_get_bits(&r->rd, f[SKILL].v, f[SKILL].k, "skill",
                                           opfor_skill_names, 0, &skills)) ||
        (f[MOUNTED].v &&
         opfor_yaml_get_bool(&r->rd, f[MOUNTED].v, f[MOUNTED].k, "mounted", &mounted)) ||
        (f[HORSE].v && opfor_yaml_get_bool(&r->rd, f[HORSE].v, f[HORSE].k, "horse", &horse)) ||
        (f[EQUIP].v && opfor_yaml_get_bool(&r->rd, f[EQUIP].v, f[EQUIP].k, "equipment", &equip)))
        return r->rd.err;
    if (cfg->nfigs + count > OPFOR_PATROL_MAX_TEMPLATE_FIGS)
        return opfor_yaml_fail(&r->rd, OPFOR_EFULL, n, alt,
                               "the collection holds at most %d figures in all",
                               OPFOR_PATROL_MAX_TEMPLATE_FIGS);
    if (horse < 0)
        horse = mounted;
    uint16_t flags = OPFOR_FIG_ALIVE;
    if (mounted)
        flags |= OPFOR_FIG_MOUNTED;
    if (horse || mounted)
        flags |= OPFOR_FIG_HORSE;
    if (equip)
        flags |= OPFOR_FIG_EQUIPMENT;
    for (int i = 0; i < count; i++) {
        opfor_figure_t *fig = &cfg->figs[cfg->nfigs++];
        memset(fig, 0, sizeof *fig);
        fig->quality = (uint8_t)quality;
        fig->weapons = (uint16_t)weapons;
        fig->skills = (uint16_t)skills;
        fig->flags = flags;
    }
    t->unit.count = (uint16_t)(t->unit.count + count);
    return 0;
}

static int parse_entry(rd_t *r, struct fy_node *n, struct fy_node *alt) {
    enum { NAME, TYPE, QUAL, QUALS, STANDS, COPIES, FORM, SELF, FIGS, NF };
    opfor_yaml_field_t f[NF] = {
        {"name", 0, 0},       {"type", 0, 0},   {"quality", 0, 0},   {"qualities", 0, 0},
        {"stands_for", 0, 0}, {"copies", 0, 0}, {"formation", 0, 0}, {"self_commanding", 0, 0},
        {"figures", 0, 0}};
    opfor_patrol_config_t *cfg = r->cfg;
    char name[64];
    int type, quality = OPFOR_Q_SOLDIER, v;
    unsigned bits;
    if (opfor_yaml_read_fields(&r->rd, n, alt, "collection unit", f, NF))
        return r->rd.err;
    if (cfg->ntemplates >= OPFOR_PATROL_MAX_TEMPLATES)
        return opfor_yaml_fail(&r->rd, OPFOR_EFULL, n, alt, "the collection holds at most %d units",
                               OPFOR_PATROL_MAX_TEMPLATES);
    if (!f[NAME].v)
        return opfor_yaml_fail(&r->rd, OPFOR_EPARSE, n, alt,
                               "missing required key 'name' in collection unit");
    if (opfor_yaml_get_str(&r->rd, f[NAME].v, f[NAME].k, "unit name", name, sizeof name))
        return r->rd.err;
    if (!name[0] || strlen(name) >= OPFOR_UNIT_NAME_MAX)
        return opfor_yaml_fail(&r->rd, OPFOR_ERANGE, f[NAME].v, f[NAME].k,
                               "a collection unit's name needs 1 to %d bytes",
                               OPFOR_UNIT_NAME_MAX - 1);
    for (int i = 0; i < cfg->ntemplates; i++)
        if (strcasecmp(cfg->templates[i].unit.name, name) == 0)
            return opfor_yaml_fail(&r->rd, OPFOR_EPARSE, f[NAME].v, f[NAME].k,
                                   "the collection already has a unit named '%s'", name);
    if (!f[TYPE].v)
        return opfor_yaml_fail(&r->rd, OPFOR_EPARSE, n, alt,
                               "missing required key 'type' in collection unit");
    if (opfor_yaml_get_enum(&r->rd, f[TYPE].v, f[TYPE].k, "unit type", opfor_unit_type_names,
                            &type))
        return r->rd.err;
    opfor_patrol_template_t *t = &cfg->templates[cfg->ntemplates];
    memset(t, 0, sizeof *t);
    memcpy(t->unit.name, name, strlen(name) + 1);
    t->unit.type = (uint8_t)type;
    t->unit.first = (uint16_t)cfg->nfigs;
    t->copies = 1;
    if (f[QUAL].v &&
        opfor_yaml_get_enum(&r->rd, f[QUAL].v, f[QUAL].k, "quality", opfor_quality_names, &quality))
        return r->rd.err;
    t->unit.quality = (uint8_t)quality;
    if (f[QUALS].v) {
        if (opfor_yaml_get_bits(&r->rd, f[QUALS].v, f[QUALS].k, "quality", opfor_quality_names,
                                OPFOR_YAML_BITS_SHIFT, &bits))
            return r->rd.err;
        t->qualities = (uint8_t)bits;
    }
    int pt = opfor_patrol_type_of_unit(type);
    if (f[STANDS].v) {
        if (opfor_yaml_get_bits(&r->rd, f[STANDS].v, f[STANDS].k, "spotted type",
                                opfor_patrol_type_names, OPFOR_YAML_BITS_SHIFT, &bits))
            return r->rd.err;
        t->stands_for = (uint8_t)bits;
    } else if (pt >= 0) {
        t->stands_for = (uint8_t)(1u << pt);
    } else {
        return opfor_yaml_fail(
            &r->rd, OPFOR_EPARSE, f[TYPE].v, f[TYPE].k,
            "a %s stands for no spotted type by itself: add stands_for: [infantry, "
            "cavalry, artillery, headquarters or supply] (Viktoria! XV.B substitution)",
            opfor_vocab_name(opfor_unit_type_names, type));
    }
    if (f[COPIES].v) {
        if (opfor_yaml_get_int(&r->rd, f[COPIES].v, f[COPIES].k, "copies", 1, 8, &v))
            return r->rd.err;
        t->copies = (uint8_t)v;
    }
    if (f[FORM].v) {
        if (opfor_yaml_get_enum(&r->rd, f[FORM].v, f[FORM].k, "formation", opfor_formation_names,
                                &v))
            return r->rd.err;
        t->unit.formation = (uint8_t)v;
    }
    if (f[SELF].v) {
        if (opfor_yaml_get_bool(&r->rd, f[SELF].v, f[SELF].k, "self_commanding", &v))
            return r->rd.err;
        if (v)
            t->unit.flags |= OPFOR_UNIT_SELF_COMMANDING;
    }
    if (!f[FIGS].v)
        return opfor_yaml_fail(&r->rd, OPFOR_EPARSE, n, alt,
                               "missing required key 'figures' in collection unit");
    if (opfor_yaml_want_seq(&r->rd, f[FIGS].v, f[FIGS].k, "figures"))
        return r->rd.err;
    if (fy_node_sequence_item_count(f[FIGS].v) == 0)
        return opfor_yaml_fail(&r->rd, OPFOR_EPARSE, f[FIGS].v, f[FIGS].k,
                               "a unit needs at least one figure");
    void *it = NULL;
    struct fy_node *g;
    while ((g = fy_node_sequence_iterate(f[FIGS].v, &it)) != NULL)
        if (parse_group(r, g, f[FIGS].v, t, quality))
            return r->rd.err;
    t->unit.strength = t->unit.count;
    if (t->unit.count > 64)
        return opfor_yaml_fail(&r->rd, OPFOR_ERANGE, f[FIGS].v, f[FIGS].k,
                               "unit '%s' has %d figures: at most 64", name, t->unit.count);
    /* Every unit is led (Viktoria! VII): the best figure on foot leads when none is named. */
    int best = -1;
    for (int i = t->unit.first; i < t->unit.first + t->unit.count; i++) {
        if (cfg->figs[i].skills & OPFOR_S_LEADER) {
            best = -2;
            break;
        }
        if (!(cfg->figs[i].flags & OPFOR_FIG_EQUIPMENT) &&
            (best < 0 || cfg->figs[i].quality > cfg->figs[best].quality))
            best = i;
    }
    if (best == -1)
        return opfor_yaml_fail(&r->rd, OPFOR_EPARSE, f[FIGS].v, f[FIGS].k,
                               "unit '%s' has no figure able to lead it (Viktoria! VII)", name);
    if (best >= 0)
        cfg->figs[best].skills |= OPFOR_S_LEADER;
    cfg->ntemplates++;
    return 0;
}

/* quality_by_type (dist = 0) or distance_by_type (1): {spotted type: weights or distances}. */
static int parse_by_type(rd_t *r, const opfor_yaml_field_t *f, int dist) {
    if (opfor_yaml_want_map(&r->rd, f->v, f->k, f->key))
        return r->rd.err;
    void *it = NULL;
    struct fy_node_pair *p;
    int v;
    while ((p = fy_node_mapping_iterate(f->v, &it)) != NULL) {
        struct fy_node *k = fy_node_pair_key(p), *val = fy_node_pair_value(p);
        if (opfor_yaml_get_enum(&r->rd, k, f->v, "spotted type", opfor_patrol_type_names, &v) ||
            (dist ? get_dist_list(r, val, k, v)
                  : get_weights(r, val, k, "quality", opfor_quality_names, OPFOR_Q_COUNT,
                                r->cfg->quality_weight[v])))
            return r->rd.err;
    }
    return 0;
}

/* ---- the block ---- */

static int parse_block(rd_t *r, struct fy_node *n) {
    enum {
        GAP,
        KEEP,
        HIDE,
        BEHIND,
        INSET,
        INIT,
        SPOT,
        TYPES,
        QUAL,
        QBT,
        DIST,
        DBT,
        DIRS,
        GEN,
        COLL,
        NF
    };
    opfor_yaml_field_t f[NF] = {{"front_line_gap", 0, 0}, {"keep_passed_ground", 0, 0},
                                {"hiding_terrain", 0, 0}, {"allow_behind", 0, 0},
                                {"edge_inset", 0, 0},     {"initiative", 0, 0},
                                {"spotting", 0, 0},       {"types", 0, 0},
                                {"quality", 0, 0},        {"quality_by_type", 0, 0},
                                {"distance", 0, 0},       {"distance_by_type", 0, 0},
                                {"directions", 0, 0},     {"generals", 0, 0},
                                {"collection", 0, 0}};
    opfor_patrol_config_t *cfg = r->cfg;
    double x;
    int v;
    if (opfor_yaml_read_fields(&r->rd, n, NULL, "patrol", f, NF))
        return r->rd.err;
    if (f[GAP].v) {
        if (opfor_yaml_get_num(&r->rd, f[GAP].v, f[GAP].k, "front_line_gap", 0, 120, &x))
            return r->rd.err;
        cfg->front_line_gap = (float)x;
    }
    if (f[KEEP].v && opfor_yaml_get_bool(&r->rd, f[KEEP].v, f[KEEP].k, "keep_passed_ground",
                                         &cfg->keep_passed_ground))
        return r->rd.err;
    if (f[HIDE].v &&
        opfor_yaml_get_bool(&r->rd, f[HIDE].v, f[HIDE].k, "hiding_terrain", &cfg->hiding_terrain))
        return r->rd.err;
    if (f[BEHIND].v &&
        opfor_yaml_get_bool(&r->rd, f[BEHIND].v, f[BEHIND].k, "allow_behind", &cfg->allow_behind))
        return r->rd.err;
    if (f[INSET].v) {
        if (opfor_yaml_get_num(&r->rd, f[INSET].v, f[INSET].k, "edge_inset", 0, 6, &x))
            return r->rd.err;
        cfg->edge_inset = (float)x;
    }
    if (f[INIT].v) {
        enum { PL, EN, INF };
        opfor_yaml_field_t g[INF] = {{"player", 0, 0}, {"enemy", 0, 0}};
        if (opfor_yaml_read_fields(&r->rd, f[INIT].v, f[INIT].k, "initiative", g, INF) ||
            (g[PL].v && opfor_yaml_get_num(&r->rd, g[PL].v, g[PL].k, "player weight", 0, 1000,
                                           &cfg->side_weight[0])) ||
            (g[EN].v && opfor_yaml_get_num(&r->rd, g[EN].v, g[EN].k, "enemy weight", 0, 1000,
                                           &cfg->side_weight[1])))
            return r->rd.err;
        if (!(cfg->side_weight[0] + cfg->side_weight[1] > 0))
            return opfor_yaml_fail(&r->rd, OPFOR_ERANGE, f[INIT].v, f[INIT].k,
                                   "initiative: the player and enemy weights may not both be 0");
    }
    if (f[SPOT].v) {
        enum { BASE, PER, MAX, LIMIT, SNF };
        opfor_yaml_field_t g[SNF] = {
            {"base", 0, 0}, {"per_sqft", 0, 0}, {"max", 0, 0}, {"limit", 0, 0}};
        if (opfor_yaml_read_fields(&r->rd, f[SPOT].v, f[SPOT].k, "spotting", g, SNF) ||
            (g[BASE].v && opfor_yaml_get_num(&r->rd, g[BASE].v, g[BASE].k, "spotting base", 0, 1,
                                             &cfg->spot_base)) ||
            (g[PER].v && opfor_yaml_get_num(&r->rd, g[PER].v, g[PER].k, "spotting per_sqft", 0, 1,
                                            &cfg->spot_per_sqft)) ||
            (g[MAX].v && opfor_yaml_get_num(&r->rd, g[MAX].v, g[MAX].k, "spotting max", 0, 1,
                                            &cfg->spot_max)) ||
            (g[LIMIT].v && opfor_yaml_get_int(&r->rd, g[LIMIT].v, g[LIMIT].k, "spotting limit", 0,
                                              1000, &cfg->spot_limit)))
            return r->rd.err;
        if (cfg->spot_base > cfg->spot_max)
            return opfor_yaml_fail(&r->rd, OPFOR_ERANGE, g[BASE].v ? g[BASE].v : f[SPOT].v,
                                   f[SPOT].k, "spotting base (%g) is above spotting max (%g)",
                                   cfg->spot_base, cfg->spot_max);
    }
    if (f[TYPES].v && get_weights(r, f[TYPES].v, f[TYPES].k, "spotted type",
                                  opfor_patrol_type_names, OPFOR_PT_COUNT, cfg->type_weight))
        return r->rd.err;
    if (f[QUAL].v) {
        uint32_t w[OPFOR_Q_COUNT];
        if (get_weights(r, f[QUAL].v, f[QUAL].k, "quality", opfor_quality_names, OPFOR_Q_COUNT, w))
            return r->rd.err;
        for (int t = 0; t < OPFOR_PT_COUNT; t++)
            memcpy(cfg->quality_weight[t], w, sizeof w);
    }
    if (f[QBT].v && parse_by_type(r, &f[QBT], 0))
        return r->rd.err;
    if (f[DIST].v && get_dist_list(r, f[DIST].v, f[DIST].k, -1))
        return r->rd.err;
    if (f[DBT].v && parse_by_type(r, &f[DBT], 1))
        return r->rd.err;
    if (f[DIRS].v && get_weights(r, f[DIRS].v, f[DIRS].k, "compass direction", opfor_compass_names,
                                 OPFOR_COMPASS_COUNT, cfg->dir_weight))
        return r->rd.err;
    if (f[GEN].v) {
        enum { PER, GQ, GM, GW, GN, GNF };
        opfor_yaml_field_t g[GNF] = {{"per_units", 0, 0},
                                     {"quality", 0, 0},
                                     {"mounted", 0, 0},
                                     {"weapons", 0, 0},
                                     {"name", 0, 0}};
        unsigned bits;
        if (opfor_yaml_read_fields(&r->rd, f[GEN].v, f[GEN].k, "generals", g, GNF) ||
            (g[PER].v && opfor_yaml_get_int(&r->rd, g[PER].v, g[PER].k, "generals per_units", 0, 32,
                                            &cfg->units_per_general)))
            return r->rd.err;
        if (g[GQ].v) {
            if (opfor_yaml_get_enum(&r->rd, g[GQ].v, g[GQ].k, "quality", opfor_quality_names, &v))
                return r->rd.err;
            cfg->general_quality = (uint8_t)v;
        }
        if (g[GM].v) {
            if (opfor_yaml_get_bool(&r->rd, g[GM].v, g[GM].k, "mounted", &v))
                return r->rd.err;
            cfg->general_mounted = (uint8_t)v;
        }
        if (g[GW].v) {
            if (opfor_yaml_get_bits(&r->rd, g[GW].v, g[GW].k, "weapon", opfor_weapon_names, 0,
                                    &bits))
                return r->rd.err;
            cfg->general_weapons = (uint16_t)bits;
        }
        if (g[GN].v) {
            char buf[64];
            if (opfor_yaml_get_str(&r->rd, g[GN].v, g[GN].k, "general name", buf, sizeof buf))
                return r->rd.err;
            if (!buf[0] || strlen(buf) >= sizeof cfg->general_name)
                return opfor_yaml_fail(&r->rd, OPFOR_ERANGE, g[GN].v, g[GN].k,
                                       "the generals' name needs 1 to %zu bytes",
                                       sizeof cfg->general_name - 1);
            memcpy(cfg->general_name, buf, strlen(buf) + 1);
        }
    }
    if (f[COLL].v) {
        if (opfor_yaml_want_seq(&r->rd, f[COLL].v, f[COLL].k, "collection"))
            return r->rd.err;
        void *it = NULL;
        struct fy_node *item;
        while ((item = fy_node_sequence_iterate(f[COLL].v, &it)) != NULL)
            if (parse_entry(r, item, f[COLL].v))
                return r->rd.err;
    }
    return 0;
}

int opfor_patrol_config_load(opfor_patrol_config_t *cfg, const opfor_scenario_t *sc,
                             const char *file, opfor_diag_t *diag) {
    opfor_diag_t local;
    if (!diag)
        diag = &local;
    opfor_diag_clear(diag);
    if (file)
        snprintf(diag->file, sizeof diag->file, "%s", file);
    if (!cfg || !sc)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no scenario or config");
    if (sc->sides[0].player == sc->sides[1].player)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0,
                              "patrol mode needs exactly one side with player: true");
    opfor_patrol_config_default(cfg, sc);
    struct fy_node *block = opfor_scenario_block(sc, "patrol");
    if (!block)
        return 0;
    rd_t r = {{diag, 0, 0}, cfg};
    return parse_block(&r, block);
}
