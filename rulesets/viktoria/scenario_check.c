/* rulesets/viktoria/scenario_check.c — what Viktoria! asks of a scenario beyond its format.
 *
 * core/scenario.c reads the format and checks what any ruleset needs (on the table, no
 * overlaps, carriers with room); this item hook (opfor_scenario_rules_t.item), called as the
 * loader meets each key concerned, adds Viktoria!'s rules, reporting through
 * opfor_scenario_ck_fail / _warn at the key's file:line:column:
 *  - only artillery limbers (VIII); only vehicles carry passengers, run on a track, or take
 *    speed and drive (XII.C); only aeroplanes take airborne (XII.D); a train's speed comes
 *    from its runs, not from speed (XII.C); passengers are people on foot (XII.C);
 *  - runways shorter than OPFOR_VK_RUNWAY_MIN are warned of (XII.D);
 *  - every unit is led (VII): a unit with no leader gets its best figure as leader, with a
 *    warning.
 * Its words for the modes (Patrol Mode, XV, is its cooperative mode: `patrol`, or `coop` or
 * `solo`), the `patrol:` block the loader keeps for the Patrol Mode module (patrol_config.c),
 * and, in the check hook, what Patrol Mode needs (one player side, with units) go to the
 * loader the same way.
 * The measures (base radii, foliage, lining a wall) and what each kind of terrain does go to
 * the table through the same struct (VK_TERRAIN_RULES).
 */
#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/scenario.h"
#include "opfor/yamlread.h"

#include <libfyaml.h>
#include <string.h>
#include <strings.h>

#include "opfor/vocab.h"
#include "opfor/yamlread.h"

/* Viktoria!'s terrain (VIII, IX, XIV, XV.B): the measures, and what each kind does unless the
 * scenario says otherwise. Hedges block sight (dense foliage), woods let it through for
 * OPFOR_VK_FOLIAGE_SIGHT inches; buildings are entered through windows and doors (an obstacle
 * for each crossing of the wall) and are closed to horses and limbers; rivers are impassable
 * unless the scenario calls them fordable; woods and buildings hide the enemy (XV.B). Lines
 * are drawn half an inch wide (a quarter for fences), roads and rivers two inches. */
#define VK_TERRAIN_RULES                                                                           \
    {                                                                                              \
        .foliage_sight = OPFOR_VK_FOLIAGE_SIGHT, .line_cover = OPFOR_VK_LINE_COVER_DIST,           \
        .radii = {OPFOR_VK_RADIUS_FOOT, OPFOR_VK_RADIUS_MOUNTED, OPFOR_VK_RADIUS_EQUIPMENT},       \
        .kinds =                                                                                   \
            {                                                                                      \
                [OPFOR_TK_OPEN] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OPEN, 0},       \
                [OPFOR_TK_WOODS] = {OPFOR_COVER_SOFT, OPFOR_SIGHT_FOLIAGE, OPFOR_MOVE_ROUGH,       \
                                    OPFOR_TF_HIDES},                                               \
                [OPFOR_TK_BUILDING] = {OPFOR_COVER_HARD, OPFOR_SIGHT_BLOCKS, OPFOR_MOVE_OBSTACLE,  \
                                       OPFOR_TF_NO_MOUNTED | OPFOR_TF_HIDES},                      \
                [OPFOR_TK_WALL] = {OPFOR_COVER_HARD, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OBSTACLE, 0},   \
                [OPFOR_TK_HEDGE] = {OPFOR_COVER_SOFT, OPFOR_SIGHT_BLOCKS, OPFOR_MOVE_OBSTACLE, 0}, \
                [OPFOR_TK_FENCE] = {OPFOR_COVER_SOFT, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OBSTACLE, 0},  \
                [OPFOR_TK_HILL] = {OPFOR_COVER_NONE, OPFOR_SIGHT_BLOCKS, OPFOR_MOVE_OPEN, 0},      \
                [OPFOR_TK_ROAD] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_ROAD, 0},       \
                [OPFOR_TK_RIVER] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_IMPASSABLE,    \
                                    0},                                                            \
                [OPFOR_TK_FIELD_WORKS] = {OPFOR_COVER_FORT, OPFOR_SIGHT_CLEAR,                     \
                                          OPFOR_MOVE_OBSTACLE, 0},                                 \
                [OPFOR_TK_ROUGH] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_ROUGH, 0},     \
                [OPFOR_TK_IMPASSABLE] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR,                      \
                                         OPFOR_MOVE_IMPASSABLE, 0},                                \
            },                                                                                     \
        .line_width = {                                                                            \
            [OPFOR_TK_WALL] = 0.5f, [OPFOR_TK_HEDGE] = 0.5f, [OPFOR_TK_FENCE] = 0.25f,             \
            [OPFOR_TK_ROAD] = 2.0f, [OPFOR_TK_RIVER] = 2.0f, [OPFOR_TK_FIELD_WORKS] = 1.0f,        \
            [OPFOR_TK_OPEN] = 1.0f, [OPFOR_TK_WOODS] = 1.0f, [OPFOR_TK_BUILDING] = 1.0f,           \
            [OPFOR_TK_HILL] = 1.0f, [OPFOR_TK_ROUGH] = 1.0f, [OPFOR_TK_IMPASSABLE] = 1.0f,         \
        },                                                                                         \
    }

const opfor_terrain_rules_t opfor_viktoria_terrain_rules = VK_TERRAIN_RULES;

/* Which unit types may limber or have a unit's machine keys (VIII, XII.C, XII.D): at unit u's
 * key (the loader calls in its own order, so the first error is the one it always gave). */
static int check_unit_key(opfor_scenario_ck_t *ck, const opfor_scenario_t *sc, int u,
                          const char *key) {
    const opfor_unit_t *un = &sc->units[u];
    const opfor_unit_machine_t *m = &sc->machine[u];
    const char *tname = opfor_vocab_name(opfor_unit_type_names, un->type);
    if (strcmp(key, "limbered") == 0) {
        if ((un->flags & OPFOR_UNIT_LIMBERED) && un->type != OPFOR_UT_ARTILLERY)
            return opfor_scenario_ck_fail(
                ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, key,
                "only artillery units limber (Viktoria! VIII); this unit is %s", tname);
    } else if (strcmp(key, "payload") == 0) {
        if (m->payload > 0 && un->type != OPFOR_UT_VEHICLE)
            return opfor_scenario_ck_fail(
                ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, key,
                "only vehicles carry passengers (Viktoria! XII.C); this unit is %s", tname);
    } else if (strcmp(key, "track") == 0) {
        if (un->type != OPFOR_UT_VEHICLE)
            return opfor_scenario_ck_fail(
                ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, key,
                "only vehicles run on a track (Viktoria! XII.C); this unit is %s", tname);
    } else if (strcmp(key, "airborne") == 0) {
        if (un->type != OPFOR_UT_AEROPLANE)
            return opfor_scenario_ck_fail(
                ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, key,
                "airborne applies to aeroplanes (Viktoria! XII.D); this unit is %s", tname);
    } else if (strcmp(key, "tethered") == 0) {
        if (m->tethered && un->type != OPFOR_UT_BALLOON)
            return opfor_scenario_ck_fail(
                ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, key,
                "only balloons are tethered (Viktoria! XII.D); this unit is %s", tname);
    } else if (strcmp(key, "shell") == 0) {
        if (un->type != OPFOR_UT_DIRIGIBLE)
            return opfor_scenario_ck_fail(
                ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, key,
                "only dirigibles have a hardened shell (Viktoria! XII.D); this unit is %s", tname);
    } else if (strcmp(key, "armour") == 0) {
        if (un->type != OPFOR_UT_VEHICLE && un->type != OPFOR_UT_AUTOMATON &&
            un->type != OPFOR_UT_WALKER)
            return opfor_scenario_ck_fail(
                ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, key,
                "armour applies to vehicles, automatons and walkers (Viktoria! XII.A-C, E); this "
                "unit is %s",
                tname);
    } else if (strcmp(key, "speed") == 0 || strcmp(key, "drive") == 0) {
        if (un->type != OPFOR_UT_VEHICLE)
            return opfor_scenario_ck_fail(
                ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, key,
                "%s applies to vehicles (Viktoria! XII.C); this unit is %s", key, tname);
    } else if (strcmp(key, "embarked_in") == 0) {
        /* passengers are people on foot (XII.C) */
        for (int i = un->first; i < un->first + un->count; i++)
            if (sc->figures[i].flags & (OPFOR_FIG_EQUIPMENT | OPFOR_FIG_MOUNTED))
                return opfor_scenario_ck_fail(
                    ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, key,
                    "embarked_in: unit '%s' has riders or equipment; only people on foot "
                    "ride as passengers (Viktoria! XII.C)",
                    un->name);
    }
    return 0;
}

/* Every unit is led (Viktoria! VII): when none of u's figures is a leader, its best figure
 * that is not equipment (first of equal quality) becomes one, with a warning. */
static void name_leader(opfor_scenario_ck_t *ck, opfor_scenario_t *sc, int u) {
    const opfor_unit_t *un = &sc->units[u];
    if (opfor_unit_leader(un, sc->figures) >= 0)
        return;
    int best = -1;
    for (int i = un->first; i < un->first + un->count; i++)
        if (!(sc->figures[i].flags & OPFOR_FIG_EQUIPMENT) &&
            (best < 0 || sc->figures[i].quality > sc->figures[best].quality))
            best = i;
    if (best < 0) {
        opfor_scenario_ck_warn(ck, OPFOR_SCENARIO_UNIT, u, NULL,
                               "unit '%s' has no figure able to lead it (Viktoria! VII)", un->name);
        return;
    }
    sc->figures[best].skills |= OPFOR_S_LEADER;
    opfor_scenario_ck_warn(ck, OPFOR_SCENARIO_UNIT, u, NULL,
                           "unit '%s' has no leader (skills: [leader]); its figure %d (%s) leads "
                           "it (Viktoria! VII)",
                           un->name, best - un->first + 1,
                           opfor_vocab_name(opfor_quality_names, sc->figures[best].quality));
}

/* Viktoria!'s words for the modes: Patrol Mode (XV) is its cooperative one. The first word of
 * each mode is its name. */
const opfor_name_t opfor_viktoria_mode_names[] = {
    {"competitive", OPFOR_MODE_COMPETITIVE},
    {"patrol", OPFOR_MODE_COOP},
    {"competitive_play", OPFOR_MODE_COMPETITIVE},
    {"coop", OPFOR_MODE_COOP},
    {"solo", OPFOR_MODE_COOP},
    {NULL, 0},
};

/* The `patrol:` settings (docs/patrol-mode.md), read by opfor_patrol_config_load, and the
 * `support:` settings (IX, docs/scenario-format.md), read by opfor_viktoria_support_team. */
static const opfor_scenario_block_rule_t vk_blocks[] = {
    {"patrol", OPFOR_MODE_COOP, "the Patrol Mode module"},
    {"rules", -1, NULL}, /* the optional rules in play: scenario_rules.c */
    {"support", -1, NULL},
    {NULL, 0, NULL},
};

/* `team:` of the support block: one number for both sides, or a mapping of side names to
 * numbers (a side not named keeps the default). */
static int support_team_value(opfor_yaml_rd_t *rd, const opfor_scenario_t *sc,
                              const opfor_yaml_field_t *f, int team[2]) {
    const char *what = "support team (figures a call for supporting fire needs)";
    if (!fy_node_is_mapping(f->v)) {
        int v;
        if (opfor_yaml_get_int(rd, f->v, f->k, what, 1, OPFOR_VK_SUPPORT_TEAM_MAX, &v))
            return rd->err;
        team[0] = team[1] = v;
        return 0;
    }
    void *it = NULL;
    struct fy_node_pair *p;
    while ((p = fy_node_mapping_iterate(f->v, &it)) != NULL) {
        char name[64];
        int v, side = -1;
        if (opfor_yaml_get_str(rd, fy_node_pair_key(p), f->v, "side name", name, sizeof name))
            return rd->err;
        for (int s = 0; s < 2; s++)
            if (strcasecmp(name, sc->sides[s].name) == 0)
                side = s;
        if (side < 0)
            return opfor_yaml_fail(rd, OPFOR_EPARSE, fy_node_pair_key(p), f->v,
                                   "support team: no side is called '%s' (the sides are '%s' "
                                   "and '%s')",
                                   name, sc->sides[0].name, sc->sides[1].name);
        if (opfor_yaml_get_int(rd, fy_node_pair_value(p), fy_node_pair_key(p), what, 1,
                               OPFOR_VK_SUPPORT_TEAM_MAX, &v))
            return rd->err;
        team[side] = v;
    }
    return 0;
}

/* The support block read with rd (the loader's own reader in the check hook, so an error
 * lands at its file:line:column like any other). team gets 1, 1 without the block. */
static int support_team_read(opfor_yaml_rd_t *rd, const opfor_scenario_t *sc, int team[2]) {
    team[0] = team[1] = 1;
    struct fy_node *block = opfor_scenario_block(sc, "support");
    if (!block)
        return 0;
    enum { TEAM, NF };
    opfor_yaml_field_t f[NF] = {{"team", 0, 0}};
    if (opfor_yaml_read_fields(rd, block, NULL, "support", f, NF))
        return rd->err;
    int t[2] = {1, 1};
    if (f[TEAM].v && support_team_value(rd, sc, &f[TEAM], t))
        return rd->err;
    team[0] = t[0];
    team[1] = t[1];
    return 0;
}

int opfor_viktoria_support_team(const opfor_scenario_t *sc, int team[2], opfor_diag_t *diag) {
    opfor_diag_t local;
    if (!diag)
        diag = &local;
    if (!sc || !team)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no scenario");
    opfor_yaml_rd_t rd = {diag, 0, 1};
    return support_team_read(&rd, sc, team);
}

/* The loader's check hook (opfor_scenario_rules_t.check): Patrol Mode needs exactly one side
 * played by people, and that side needs units (XV). */
static int check_scenario(opfor_scenario_ck_t *ck, void *user) {
    (void)user;
    const opfor_scenario_t *sc = opfor_scenario_ck_scenario(ck);
    /* the blocks Viktoria! reads itself (`rules:`, `support:`), read here with the loader's
       reader so that a bad value fails the load at its line and column */
    opfor_yaml_rd_t *rd = opfor_scenario_ck_reader(ck);
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    int team[2];
    if (opfor_vk_scenario_options(rd, sc, &opt) || support_team_read(rd, sc, team))
        return rd->err;
    if (sc->mode != OPFOR_MODE_COOP)
        return 0;
    int players = sc->sides[0].player + sc->sides[1].player;
    if (players != 1)
        return opfor_scenario_ck_fail(
            ck, OPFOR_EPARSE, OPFOR_SCENARIO_ROOT, 0, NULL,
            "patrol mode needs exactly one side with player: true, found %d", players);
    int ps = sc->sides[0].player ? 0 : 1, n = 0;
    for (int i = 0; i < sc->nunits; i++)
        n += sc->units[i].side == ps;
    if (n == 0)
        return opfor_scenario_ck_fail(ck, OPFOR_EPARSE, OPFOR_SCENARIO_ROOT, 0, NULL,
                                      "patrol mode: the player side '%s' has no units",
                                      sc->sides[ps].name);
    return 0;
}

/* The loader's item hook (opfor_scenario_rules_t.item). */
static int check_item(opfor_scenario_ck_t *ck, opfor_scenario_item_t kind, int i, const char *key,
                      void *user) {
    (void)user;
    opfor_scenario_t *sc = opfor_scenario_ck_scenario(ck);
    if (kind == OPFOR_SCENARIO_ROUTE) {
        /* runways shorter than an aeroplane needs are warned of (XII.D) */
        const opfor_route_t *rt = &sc->routes[i];
        if (rt->kind == OPFOR_ROUTE_RUNWAY && rt->length < OPFOR_VK_RUNWAY_MIN)
            opfor_scenario_ck_warn(ck, OPFOR_SCENARIO_ROUTE, i, "line",
                                   "runway '%s' is %.1f in long: aeroplanes need %g in to take off "
                                   "or land (Viktoria! XII.D)",
                                   rt->name, (double)rt->length, (double)OPFOR_VK_RUNWAY_MIN);
        return 0;
    }
    if (!key) {
        /* every machine key read: a train's speed comes from its runs (XII.C) */
        const opfor_unit_machine_t *m = &sc->machine[i];
        if (m->track && m->speed)
            return opfor_scenario_ck_fail(
                ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, i, "speed",
                "a train's speed is set by its runs along the track (XII.C), not by speed");
        return 0;
    }
    if (strcmp(key, "figures") == 0) {
        name_leader(ck, sc, i);
        return 0;
    }
    return check_unit_key(ck, sc, i, key);
}

const opfor_scenario_rules_t opfor_viktoria_scenario_rules = {
    .name = "viktoria",
    .terrain = VK_TERRAIN_RULES,
    .item = check_item,
    .check = check_scenario,
    .user = NULL,
    .modes = opfor_viktoria_mode_names,
    .blocks = vk_blocks,
};

int opfor_viktoria_scenario_load_string(const char *text, size_t len, const char *name,
                                        opfor_scenario_t *sc, opfor_diag_t *diag) {
    return opfor_scenario_load_string(text, len, name, &opfor_viktoria_scenario_rules, sc, diag);
}

int opfor_viktoria_scenario_load_file(const char *path, opfor_scenario_t *sc, opfor_diag_t *diag) {
    return opfor_scenario_load_file(path, &opfor_viktoria_scenario_rules, sc, diag);
}
