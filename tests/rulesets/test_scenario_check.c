/* tests/rulesets/test_scenario_check.c — Viktoria!'s scenario checks (rulesets/viktoria/
 * scenario_check.c) through opfor_viktoria_scenario_load_string: the ruleset's name, its
 * measures on the table, the leader warning (VII), and for each rule the code, line, column
 * and words of the error (limbers VIII; passengers, tracks, speed and drive XII.C; airborne and
 * runways XII.D; what Patrol Mode needs, XV), its words for the modes and its `patrol:` block. The
 * same files through the format alone pass, so these errors come only from the ruleset's hooks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ruleset.h"
#include "opfor/scenario.h"
#include "opfor/viktoria/scenario.h"

/* A valid two-side scenario (as tests/core/test_scenario.c's). Line numbers: 1 name, 2 sides,
 * 3-4 the sides, 5 units, 6-11 unit U1. */
#define BASE                                                                                       \
    "name: T\n"                                                                                    \
    "sides:\n"                                                                                     \
    "  - {name: A, player: true, edge: bottom}\n"                                                  \
    "  - {name: B}\n"                                                                              \
    "units:\n"                                                                                     \
    "  - name: U1\n"                                                                               \
    "    side: A\n"                                                                                \
    "    type: infantry\n"                                                                         \
    "    position: [10, 10]\n"                                                                     \
    "    figures:\n"                                                                               \
    "      - {count: 3, skills: leader}\n"
#define HEAD "name: T\nsides: [{name: A}, {name: B}]\n"
/* Two lines, as HEAD, with a player side on the bottom edge. */
#define HEAD2 "name: T\nsides: [{name: Blue, player: true, edge: bottom}, {name: Red}]\n"

static opfor_scenario_t *new_sc(void) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    return sc;
}

static int load(const char *text, opfor_scenario_t *sc, opfor_diag_t *d) {
    return opfor_viktoria_scenario_load_string(text, strlen(text), "t.yaml", sc, d);
}

/* Loads text the Viktoria! way, expecting error rc at line:col with msg containing want, and
 * the format alone (no rules) to accept it. Prints and returns 1 on a mismatch. */
static int expect_error(const char *text, int rc, int line, int col, const char *want) {
    opfor_scenario_t *sc = new_sc();
    opfor_diag_t d;
    int got = load(text, sc, &d);
    int bad = got != rc || d.line != line || d.col != col || !strstr(d.msg, want) ||
              strcmp(d.file, "t.yaml") != 0 || sc->doc != NULL;
    if (bad)
        print_error("got rc %d at %d:%d '%s'\nwant rc %d at %d:%d containing '%s'\n", got, d.line,
                    d.col, d.msg, rc, line, col, want);
    opfor_scenario_free(sc);
    opfor_scenario_rules_t format_only = {.terrain = opfor_viktoria_terrain_rules};
    int plain = opfor_scenario_load_string(text, strlen(text), "t.yaml", &format_only, sc, &d);
    if (plain != 0 && strstr(want, "ruleset") == NULL) {
        print_error("the format alone refused it too: %d:%d %s\n", d.line, d.col, d.msg);
        bad = 1;
    }
    opfor_scenario_free(sc);
    free(sc);
    return bad;
}

static void scenario_check_name_and_measures(void **state) {
    (void)state;
    opfor_scenario_t *sc = new_sc();
    opfor_diag_t d;
    assert_int_equal(load(BASE, sc, &d), 0);
    assert_string_equal(sc->ruleset, "viktoria"); /* the default */
    assert_float_equal(sc->table.rules.foliage_sight, 2.0, 0);
    assert_float_equal(sc->table.rules.line_cover, 1.0, 0);
    assert_float_equal(sc->table.rules.radii.foot, 0.5, 0);
    assert_float_equal(sc->table.rules.radii.mounted, 0.8, 0);
    assert_float_equal(sc->table.rules.radii.equipment, 1.0, 0);
    /* what each kind of terrain does unless the scenario says otherwise (VIII, IX, XV.B) */
    const opfor_terrain_rules_t *vk = &opfor_viktoria_terrain_rules;
    assert_memory_equal(&sc->table.rules, vk, sizeof *vk);
    assert_int_equal(vk->kinds[OPFOR_TK_BUILDING].cover, OPFOR_COVER_HARD);
    assert_true(vk->kinds[OPFOR_TK_BUILDING].flags & OPFOR_TF_NO_MOUNTED);
    assert_int_equal(vk->kinds[OPFOR_TK_FIELD_WORKS].cover, OPFOR_COVER_FORT);
    assert_int_equal(vk->kinds[OPFOR_TK_HEDGE].sight, OPFOR_SIGHT_BLOCKS);
    assert_int_equal(vk->kinds[OPFOR_TK_WALL].move, OPFOR_MOVE_OBSTACLE);
    assert_int_equal(vk->kinds[OPFOR_TK_WOODS].sight, OPFOR_SIGHT_FOLIAGE);
    assert_float_equal(vk->line_width[OPFOR_TK_FENCE], 0.25, 0);
    assert_float_equal(vk->line_width[OPFOR_TK_ROAD], 2.0, 0);
    /* A line of three 1.5 inches apart around [10, 10] (bases of 0.5, a 0.5 gap). */
    assert_float_equal(sc->figures[0].pos.x, 8.5, 1e-4);
    assert_float_equal(sc->figures[2].pos.x, 11.5, 1e-4);
    assert_int_equal(sc->nwarnings, 0);
    opfor_scenario_free(sc);
    assert_int_equal(load(HEAD "ruleset: VIKTORIA\n", sc, &d), 0);
    assert_string_equal(sc->ruleset, "viktoria");
    opfor_scenario_free(sc);
    /* a balloon may be tethered in place (XII.D) */
    assert_int_equal(load(HEAD2 "units:\n  - {name: Obs, side: Blue, type: balloon, tethered: true,"
                                " position: [5, 5], figures: [{count: 1, skills: leader}]}\n",
                          sc, &d),
                     0);
    assert_int_equal(sc->machine[0].tethered, 1);
    opfor_scenario_free(sc);
    /* a dirigible may have a hardened shell, fired on at its quality (XII.D) */
    assert_int_equal(load(HEAD2
                          "units:\n  - {name: Zep, side: Blue, type: dirigible, shell: veteran,"
                          " position: [5, 5], figures: [{count: 1, skills: leader}]}\n",
                          sc, &d),
                     0);
    assert_int_equal(sc->machine[0].shell, 1 + OPFOR_Q_VETERAN);
    opfor_scenario_free(sc);
    free(sc);
}

static void scenario_check_leader_warning(void **state) {
    (void)state;
    const char *text = "name: T\n"
                       "sides: [{name: A}, {name: B}]\n"
                       "units:\n"
                       "  - name: Mob\n"
                       "    side: B\n"
                       "    type: infantry\n"
                       "    position: [30, 30]\n"
                       "    figures:\n"
                       "      - {count: 2}\n"
                       "      - {count: 1, quality: veteran}\n"
                       "mode: competitive\n"
                       "patrol: {x: 1}\n";
    opfor_scenario_t *sc = new_sc();
    opfor_diag_t d;
    assert_int_equal(load(text, sc, &d), 0);
    assert_int_equal(sc->nwarnings, 2);
    assert_int_equal(sc->nwarnings_total, 2);
    /* The veteran (figure 3) is made leader; the warning points at the unit. */
    assert_int_equal(sc->warnings[0].line, 4);
    assert_int_equal(sc->warnings[0].col, 5);
    assert_string_equal(sc->warnings[0].file, "t.yaml");
    assert_non_null(strstr(sc->warnings[0].msg, "no leader"));
    assert_non_null(strstr(sc->warnings[0].msg, "figure 3"));
    assert_non_null(strstr(sc->warnings[0].msg, "(Viktoria! VII)"));
    assert_int_equal(sc->figures[2].skills, OPFOR_S_LEADER);
    assert_int_equal(sc->figures[0].skills, 0);
    assert_int_equal(sc->units[0].quality, OPFOR_Q_VETERAN); /* best of its figures */
    /* A patrol block outside patrol mode is kept but warned about (after the rules' warnings). */
    assert_int_equal(sc->warnings[1].line, 12);
    assert_non_null(strstr(sc->warnings[1].msg, "patrol"));
    opfor_scenario_free(sc);
    /* Runways shorter than 24 inches are warned of at their line, before the units. */
    const char *runway = HEAD2 "terrain:\n"
                               "  - {name: Strip, kind: runway, line: [[0, 20], [20, 20]]}\n"
                               "units:\n"
                               "  - {name: A, side: Blue, type: infantry, position: [40, 5], "
                               "figures: [{count: 2}]}\n";
    assert_int_equal(load(runway, sc, &d), 0);
    assert_int_equal(sc->nwarnings, 2);
    assert_int_equal(sc->warnings[0].line, 4);
    assert_int_equal(sc->warnings[0].col, 41);
    assert_string_equal(sc->warnings[0].msg, "runway 'Strip' is 20.0 in long: aeroplanes need 24 "
                                             "in to take off or land (Viktoria! XII.D)");
    assert_int_equal(sc->warnings[1].line, 6);
    assert_int_equal(sc->warnings[1].col, 6);
    assert_string_equal(sc->warnings[1].msg, "unit 'A' has no leader (skills: [leader]); its "
                                             "figure 1 (soldier) leads it (Viktoria! VII)");
    opfor_scenario_free(sc);
    free(sc);
}

static void scenario_check_errors_name_line_and_column(void **state) {
    (void)state;
    int bad = 0;
    bad += expect_error(HEAD "ruleset: dbm\n", OPFOR_EPARSE, 3, 10, "expected one of: viktoria");
    bad += expect_error(BASE "    limbered: true\n", OPFOR_EPARSE, 12, 15,
                        "only artillery units limber");
    bad += expect_error(HEAD2 "units:\n  - {name: A, side: Blue, type: infantry, limbered: true, "
                              "position: [5, 5], figures: [{count: 1, skills: leader}]}\n",
                        OPFOR_EPARSE, 4, 53,
                        "only artillery units limber (Viktoria! VIII); this unit is infantry");
    bad += expect_error(HEAD2 "units:\n  - {name: A, side: Blue, type: infantry, payload: 2, "
                              "position: [5, 5], figures: [{count: 1}]}\n",
                        OPFOR_EPARSE, 4, 52,
                        "only vehicles carry passengers (Viktoria! XII.C); this unit is infantry");
    bad += expect_error(HEAD2 "terrain:\n  - {name: Line, kind: track, line: [[0, 20], [72, 20]]}\n"
                              "units:\n  - {name: A, side: Blue, type: infantry, track: Line, "
                              "position: [5, 20], figures: [{count: 1}]}\n",
                        OPFOR_EPARSE, 6, 50,
                        "only vehicles run on a track (Viktoria! XII.C); this unit is infantry");
    bad += expect_error(HEAD2 "units:\n  - name: A\n    side: Blue\n    type: balloon\n"
                              "    airborne: false\n    position: [5, 5]\n"
                              "    figures: [{count: 1}]\n",
                        OPFOR_EPARSE, 7, 15,
                        "airborne applies to aeroplanes (Viktoria! XII.D); this unit is balloon");
    bad += expect_error(HEAD2 "units:\n  - name: A\n    side: Blue\n    type: balloon\n"
                              "    shell: elite\n    position: [5, 5]\n"
                              "    figures: [{count: 1}]\n",
                        OPFOR_EPARSE, 7, 12,
                        "only dirigibles have a hardened shell (Viktoria! XII.D); this unit is "
                        "balloon");
    bad += expect_error(HEAD2 "units:\n  - name: A\n    side: Blue\n    type: dirigible\n"
                              "    tethered: true\n    position: [5, 5]\n"
                              "    figures: [{count: 1}]\n",
                        OPFOR_EPARSE, 7, 15,
                        "only balloons are tethered (Viktoria! XII.D); this unit is dirigible");
    bad += expect_error(HEAD2 "units:\n  - {name: A, side: Blue, type: cavalry, speed: fast, "
                              "position: [5, 5], figures: [{count: 1, mounted: true}]}\n",
                        OPFOR_EPARSE, 4, 49,
                        "speed applies to vehicles (Viktoria! XII.C); this unit is cavalry");
    bad += expect_error(HEAD2 "units:\n  - {name: A, side: Blue, type: infantry,\n"
                              "     drive: tracked, position: [5, 5], figures: [{count: 1}]}\n",
                        OPFOR_EPARSE, 5, 13,
                        "drive applies to vehicles (Viktoria! XII.C); this unit is infantry");
    bad += expect_error(
        HEAD2 "terrain:\n  - {name: Line, kind: track, line: [[0, 20], [72, 20]]}\n"
              "units:\n  - {name: T, side: Blue, type: vehicle, track: Line, speed: fast, "
              "position: [5, 20], figures: [{count: 1, equipment: true}]}\n",
        OPFOR_EPARSE, 6, 62,
        "a train's speed is set by its runs along the track (XII.C), not by speed");
    bad += expect_error(HEAD2 "units:\n  - {name: C, side: Blue, type: vehicle, payload: 4, "
                              "position: [5, 5], figures: [{count: 1, equipment: true}]}\n"
                              "  - name: R\n    side: Blue\n    type: cavalry\n"
                              "    embarked_in: C\n    figures: [{count: 2, mounted: true}]\n",
                        OPFOR_EPARSE, 8, 18,
                        "embarked_in: unit 'R' has riders or equipment; only people on foot ride "
                        "as passengers (Viktoria! XII.C)");
    /* Patrol Mode (XV; `coop` is one of its words) needs one player side, with units: an error
     * at the scenario's first line. */
    bad += expect_error(
        "name: T\nmode: coop\nsides: [{name: A, player: true}, {name: B, player: true}]\n",
        OPFOR_EPARSE, 1, 1, "patrol mode needs exactly one side with player: true, found 2");
    bad += expect_error("name: T\nmode: coop\nsides: [{name: A}, {name: B}]\n", OPFOR_EPARSE, 1, 1,
                        "patrol mode needs exactly one side with player: true, found 0");
    bad += expect_error(HEAD2 "mode: coop\nunits:\n  - {name: R, side: Red, type: infantry, "
                              "position: [5, 40], figures: [{count: 1, skills: leader}]}\n",
                        OPFOR_EPARSE, 1, 1, "patrol mode: the player side 'Blue' has no units");
    assert_int_equal(bad, 0);
}

/* Viktoria!'s words for the modes (Patrol Mode is the cooperative one, with its aliases) and
 * the `patrol:` block it reads, kept by the loader by name. */
static void scenario_check_modes_and_patrol_block(void **state) {
    (void)state;
    opfor_scenario_t *sc = new_sc();
    opfor_diag_t d;
    static const struct {
        const char *word;
        int mode;
    } words[] = {{"patrol", OPFOR_MODE_COOP},
                 {"coop", OPFOR_MODE_COOP},
                 {"solo", OPFOR_MODE_COOP},
                 {"competitive", OPFOR_MODE_COMPETITIVE},
                 {"competitive_play", OPFOR_MODE_COMPETITIVE}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, BASE "mode: %s\npatrol: {front_line_gap: 6}\n", words[i].word);
        assert_int_equal(load(text, sc, &d), 0);
        assert_int_equal(sc->mode, words[i].mode);
        assert_string_equal(opfor_scenario_mode_name(sc, sc->mode),
                            words[i].mode == OPFOR_MODE_COOP ? "patrol" : "competitive");
        assert_non_null(opfor_scenario_block(sc, "patrol"));
        /* outside Patrol Mode the block is kept, with a warning at its key */
        assert_int_equal(sc->nwarnings, words[i].mode == OPFOR_MODE_COOP ? 0 : 1);
        if (sc->nwarnings) {
            assert_int_equal(sc->warnings[0].line, 13);
            assert_int_equal(sc->warnings[0].col, 1);
            assert_string_equal(sc->warnings[0].msg,
                                "a patrol block is ignored unless mode is patrol");
        }
        opfor_scenario_free(sc);
    }
    const char *typo = HEAD "mode: patrl\n";
    assert_int_equal(load(typo, sc, &d), OPFOR_EPARSE);
    assert_int_equal(d.line, 3);
    assert_int_equal(d.col, 7);
    assert_string_equal(d.msg, "unknown mode 'patrl'; expected one of: competitive, patrol");
    const char *list = BASE "mode: patrol\npatrol: [1]\n";
    assert_int_equal(load(list, sc, &d), OPFOR_EPARSE);
    assert_int_equal(d.line, 13);
    assert_int_equal(d.col, 10); /* a flow sequence starts at its first item */
    assert_string_equal(d.msg, "expected a mapping (key: value) for patrol");
    free(sc);
}

/* Generic code finds the checks through the registry: the descriptor's scenario rules. */
static void scenario_check_through_the_registry(void **state) {
    (void)state;
    const opfor_ruleset_t *rs = opfor_ruleset_find("viktoria");
    assert_non_null(rs);
    assert_ptr_equal(rs->scenario, &opfor_viktoria_scenario_rules);
    const char *text = BASE "    limbered: true\n";
    opfor_scenario_t *sc = new_sc();
    opfor_diag_t d;
    assert_int_equal(opfor_scenario_load_string(text, strlen(text), "t.yaml", rs->scenario, sc, &d),
                     OPFOR_EPARSE);
    assert_int_equal(d.line, 12);
    assert_int_equal(d.col, 15);
    assert_string_equal(d.msg,
                        "only artillery units limber (Viktoria! VIII); this unit is infantry");
    opfor_scenario_free(sc);
    free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scenario_check_name_and_measures),
        cmocka_unit_test(scenario_check_leader_warning),
        cmocka_unit_test(scenario_check_errors_name_line_and_column),
        cmocka_unit_test(scenario_check_modes_and_patrol_block),
        cmocka_unit_test(scenario_check_through_the_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
