/* rulesets/viktoria/scenario_check.c — what Viktoria! asks of a scenario beyond its format.
 *
 * core/scenario.c reads the format and checks what any ruleset needs (on the table, no
 * overlaps, carriers with room); these hooks (opfor_scenario_rules_t) add Viktoria!'s rules,
 * reporting through opfor_scenario_ck_fail / _warn at the key's file:line:column:
 *  - per unit, once its own keys are read: only artillery limbers (VIII); only vehicles carry
 *    passengers, run on a track, or take speed and drive (XII.C); only aeroplanes take
 *    airborne (XII.D); a train's speed comes from its runs, not from speed (XII.C);
 *  - once the whole scenario is read: runways shorter than OPFOR_VK_RUNWAY_MIN are warned of
 *    (XII.D), passengers are people on foot (XII.C), and every unit is led (VII): a unit with
 *    no leader gets its best figure as leader, with a warning.
 * The measures (base radii, foliage, lining a wall) go to the table through the same struct.
 */
#include "opfor/viktoria/scenario.h"

#include "opfor/vocab.h"

const opfor_terrain_rules_t opfor_viktoria_terrain_rules = {
    .foliage_sight = OPFOR_VK_FOLIAGE_SIGHT,
    .line_cover = OPFOR_VK_LINE_COVER_DIST,
    .radii = {OPFOR_VK_RADIUS_FOOT, OPFOR_VK_RADIUS_MOUNTED, OPFOR_VK_RADIUS_EQUIPMENT},
};

/* Which unit types may have a unit's machine keys and limber. */
static int check_unit(opfor_scenario_ck_t *ck, int u, void *user) {
    (void)user;
    const opfor_scenario_t *sc = opfor_scenario_ck_scenario(ck);
    const opfor_unit_t *un = &sc->units[u];
    const opfor_unit_machine_t *m = &sc->machine[u];
    const char *tname = opfor_vocab_name(opfor_unit_type_names, un->type);
    if ((un->flags & OPFOR_UNIT_LIMBERED) && un->type != OPFOR_UT_ARTILLERY)
        return opfor_scenario_ck_fail(
            ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, "limbered",
            "only artillery units limber (Viktoria! VIII); this unit is %s", tname);
    if (m->payload > 0 && un->type != OPFOR_UT_VEHICLE)
        return opfor_scenario_ck_fail(
            ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, "payload",
            "only vehicles carry passengers (Viktoria! XII.C); this unit is %s", tname);
    if (m->track && un->type != OPFOR_UT_VEHICLE)
        return opfor_scenario_ck_fail(
            ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, "track",
            "only vehicles run on a track (Viktoria! XII.C); this unit is %s", tname);
    if (un->type != OPFOR_UT_AEROPLANE &&
        opfor_scenario_ck_has(ck, OPFOR_SCENARIO_UNIT, u, "airborne"))
        return opfor_scenario_ck_fail(
            ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, "airborne",
            "airborne applies to aeroplanes (Viktoria! XII.D); this unit is %s", tname);
    static const char *const vehicle_keys[] = {"speed", "drive"};
    for (int k = 0; k < 2; k++)
        if (un->type != OPFOR_UT_VEHICLE &&
            opfor_scenario_ck_has(ck, OPFOR_SCENARIO_UNIT, u, vehicle_keys[k]))
            return opfor_scenario_ck_fail(
                ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, vehicle_keys[k],
                "%s applies to vehicles (Viktoria! XII.C); this unit is %s", vehicle_keys[k],
                tname);
    if (m->track && m->speed)
        return opfor_scenario_ck_fail(
            ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, "speed",
            "a train's speed is set by its runs along the track (XII.C), not by speed");
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

/* The whole scenario: runways, passengers, leaders (in the order the file holds them:
 * terrain before units). */
static int check_scenario(opfor_scenario_ck_t *ck, void *user) {
    (void)user;
    opfor_scenario_t *sc = opfor_scenario_ck_scenario(ck);
    for (int r = 0; r < sc->nroutes; r++) {
        const opfor_route_t *rt = &sc->routes[r];
        if (rt->kind == OPFOR_ROUTE_RUNWAY && rt->length < OPFOR_VK_RUNWAY_MIN)
            opfor_scenario_ck_warn(ck, OPFOR_SCENARIO_ROUTE, r, "line",
                                   "runway '%s' is %.1f in long: aeroplanes need %g in to take off "
                                   "or land (Viktoria! XII.D)",
                                   rt->name, (double)rt->length, (double)OPFOR_VK_RUNWAY_MIN);
    }
    for (int u = 0; u < sc->nunits; u++) {
        const opfor_unit_t *pu = &sc->units[u];
        if (!sc->machine[u].embarked_in)
            continue;
        for (int i = pu->first; i < pu->first + pu->count; i++)
            if (sc->figures[i].flags & (OPFOR_FIG_EQUIPMENT | OPFOR_FIG_MOUNTED))
                return opfor_scenario_ck_fail(
                    ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, u, "embarked_in",
                    "embarked_in: unit '%s' has riders or equipment; only people on foot "
                    "ride as passengers (Viktoria! XII.C)",
                    pu->name);
    }
    for (int u = 0; u < sc->nunits; u++)
        name_leader(ck, sc, u);
    return 0;
}

const opfor_scenario_rules_t opfor_viktoria_scenario_rules = {
    .name = "viktoria",
    .terrain =
        {
            .foliage_sight = OPFOR_VK_FOLIAGE_SIGHT,
            .line_cover = OPFOR_VK_LINE_COVER_DIST,
            .radii = {OPFOR_VK_RADIUS_FOOT, OPFOR_VK_RADIUS_MOUNTED, OPFOR_VK_RADIUS_EQUIPMENT},
        },
    .unit = check_unit,
    .check = check_scenario,
    .user = NULL,
};

int opfor_viktoria_scenario_load_string(const char *text, size_t len, const char *name,
                                        opfor_scenario_t *sc, opfor_diag_t *diag) {
    return opfor_scenario_load_string(text, len, name, &opfor_viktoria_scenario_rules, sc, diag);
}

int opfor_viktoria_scenario_load_file(const char *path, opfor_scenario_t *sc, opfor_diag_t *diag) {
    return opfor_scenario_load_file(path, &opfor_viktoria_scenario_rules, sc, diag);
}
