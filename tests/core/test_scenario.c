/* tests/core/test_scenario.c — scenario parsing (the format, with the tests' measures and a
 * test ruleset's mode words and block): defaults, shapes and overrides, generals, formations,
 * the kept block, a ruleset's name, hooks, mode words and blocks, and for each kind of error the
 * code, the line and column, and the words of the message. A ruleset's own checks are tested with
 * it (tests/rulesets/test_scenario_check.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <libfyaml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opfor/scenario.h"
#include "test_rules.h"

#define EPS 1e-4

/* A valid two-side scenario; cases below append to it or edit it. Line numbers:
 * 1 name, 2 sides, 3-4 the sides, 5 units, 6-11 unit U1. */
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

/* The two lines every case needs before the part it tests. */
#define HEAD "name: T\nsides: [{name: A}, {name: B}]\n"

static opfor_scenario_t *new_sc(void) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    return sc;
}

/* A test ruleset's words for the modes (the cooperative one called patrol, as Viktoria! does)
 * and the block it reads in that mode. */
static const opfor_name_t test_modes[] = {
    {"competitive", OPFOR_MODE_COMPETITIVE}, {"patrol", OPFOR_MODE_COOP}, {NULL, 0}};
static const opfor_scenario_block_rule_t test_blocks[] = {{"patrol", OPFOR_MODE_COOP, "the test"},
                                                          {NULL, 0, NULL}};

/* The format with those words and block: any ruleset name, the tests' measures, no hooks. */
static const opfor_scenario_rules_t core_rules = {
    .terrain = test_rules, .modes = test_modes, .blocks = test_blocks};

static int load(const char *text, opfor_scenario_t *sc, opfor_diag_t *d) {
    return opfor_scenario_load_string(text, strlen(text), "t.yaml", &core_rules, sc, d);
}

/* Loads text, expecting error rc at line:col with msg containing want. Prints what it got
 * and returns 1 on a mismatch, so one run shows every wrong case; callers assert the sum. */
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
    free(sc);
    return bad;
}

static void scenario_minimal_defaults(void **state) {
    (void)state;
    opfor_scenario_t *sc = new_sc();
    opfor_diag_t d;
    assert_int_equal(load(BASE, sc, &d), 0);
    assert_string_equal(sc->name, "T");
    assert_string_equal(sc->ruleset, ""); /* no `ruleset:`, and the rules name none */
    /* the measures reach the table */
    assert_float_equal(sc->table.rules.foliage_sight, TEST_FOLIAGE_SIGHT, 0);
    assert_float_equal(sc->table.rules.radii.mounted, TEST_RADIUS_MOUNTED, 0);
    assert_int_equal(sc->mode, OPFOR_MODE_COMPETITIVE);
    assert_int_equal(sc->turn_limit, 0);
    assert_float_equal(sc->table.width, 72, 0);
    assert_float_equal(sc->table.depth, 48, 0);
    assert_int_equal(sc->table.north, OPFOR_EDGE_TOP);
    assert_int_equal(sc->weather.level, 1);
    assert_int_equal(sc->weather.wind, OPFOR_N);
    assert_int_equal(sc->table.nfeatures, 0);
    assert_string_equal(sc->sides[0].name, "A");
    assert_int_equal(sc->sides[0].player, 1);
    assert_int_equal(sc->sides[0].edge, OPFOR_EDGE_BOTTOM);
    assert_int_equal(sc->sides[1].player, 0);
    assert_int_equal(sc->sides[1].edge, -1);
    assert_int_equal(sc->nunits, 1);
    assert_int_equal(sc->nfigures, 3);
    const opfor_unit_t *u = &sc->units[0];
    assert_string_equal(u->name, "U1");
    assert_int_equal(u->first, 0);
    assert_int_equal(u->count, 3);
    assert_int_equal(u->strength, 3);
    assert_int_equal(u->type, OPFOR_UT_INFANTRY);
    assert_int_equal(u->quality, OPFOR_Q_SOLDIER);
    assert_int_equal(u->status, OPFOR_SOLID);
    /* Side A holds the bottom edge, so its units face up the table. */
    assert_true(u->facing.x == 0 && u->facing.y == 1);
    /* A line of three 1.5 inches apart around [10, 10]. */
    assert_float_equal(sc->figures[0].pos.x, 8.5, EPS);
    assert_float_equal(sc->figures[2].pos.x, 11.5, EPS);
    assert_float_equal(sc->figures[1].pos.y, 10, EPS);
    assert_int_equal(sc->figures[1].flags, OPFOR_FIG_ALIVE);
    assert_int_equal(sc->figures[1].skills, OPFOR_S_LEADER);
    assert_int_equal(sc->nwarnings, 0);
    assert_null(opfor_scenario_block(sc, "patrol"));
    assert_int_equal(opfor_scenario_side(sc, "b"), 1);
    assert_int_equal(opfor_scenario_unit(sc, "u1"), 0);
    assert_int_equal(opfor_scenario_unit(sc, "nobody"), -1);
    opfor_scenario_free(sc);
    opfor_scenario_free(sc); /* twice is harmless */
    free(sc);
}

static void scenario_full_features(void **state) {
    (void)state;
    const char *text =
        "name: Full\n"
        "description: a test\n"
        "ruleset: Any Rules\n"
        "mode: patrol\n"
        "turn_limit: 12\n"
        "table: {width: 60, depth: 40, north: right}\n"
        "weather: {level: 4, wind: south-west}\n"
        "terrain:\n"
        "  - {name: Wood, kind: woods, polygon: [[1, 1], [5, 1], [5, 5], [1, 5]], hides: false}\n"
        "  - {kind: river, line: [[30, 0], [30, 40]], width: 3, move: rough}\n"
        "  - {kind: hill, circle: {center: [40, 20], radius: 4}, sight: clear}\n"
        "  - {kind: building, rect: [50, 30, 4, 2], cover: fort, closed_to_mounted: no}\n"
        "sides:\n"
        "  - {name: Blue, player: yes, territory: [[0, 0], [60, 0], [60, 10]]}\n"
        "  - {name: Red, edge: top}\n"
        "generals:\n"
        "  - {name: Boss, side: Blue, position: [20, 2], mounted: true}\n"
        "units:\n"
        "  - name: Guns\n"
        "    side: blue\n"
        "    type: artillery\n"
        "    limbered: true\n"
        "    self_commanding: true\n"
        "    quality: veteran\n"
        "    position: [10, 20]\n"
        "    facing: N\n"
        "    formation: column\n"
        "    figures:\n"
        "      - {equipment: true, weapons: gun}\n"
        "      - {count: 2, skills: [leader, crew], weapons: [pistol]}\n"
        "      - {count: 2, skills: crew, wounded: true, quality: conscript}\n"
        "  - name: Scouts\n"
        "    side: Red\n"
        "    type: cavalry\n"
        "    off_table: true\n"
        "    status: wavering\n"
        "    facing: [1, 1]\n"
        "    figures:\n"
        "      - {count: 2, mounted: true, skills: leader, positions: [[100, 100], [100, 100]]}\n"
        "objectives:\n"
        "  - {name: Ford, position: [30, 20]}\n"
        "  - {name: Hill, position: [40, 20], radius: 5, points: 3}\n"
        "patrol:\n"
        "  front_line_gap: 12\n"
        "  future_key: [1, 2, 3]\n";
    opfor_scenario_t *sc = new_sc();
    opfor_diag_t d;
    int rc = load(text, sc, &d);
    if (rc)
        print_error("%d:%d %s\n", d.line, d.col, d.msg);
    assert_int_equal(rc, 0);
    assert_string_equal(sc->description, "a test");
    assert_string_equal(sc->ruleset, "Any Rules"); /* any name when the rules name none */
    assert_int_equal(sc->mode, OPFOR_MODE_COOP);
    assert_int_equal(sc->turn_limit, 12);
    assert_int_equal(sc->table.north, OPFOR_EDGE_RIGHT);
    assert_float_equal(sc->table.width, 60, 0);
    assert_int_equal(sc->weather.level, 4);
    assert_int_equal(sc->weather.wind, OPFOR_SW);
    /* Terrain: overrides of the kinds' defaults. */
    assert_int_equal(sc->table.nfeatures, 4);
    const opfor_terrain_feature_t *f = sc->table.features;
    assert_string_equal(f[0].name, "Wood");
    assert_false(f[0].flags & OPFOR_TF_HIDES);
    assert_int_equal(f[1].shape, OPFOR_SHAPE_LINE);
    assert_float_equal(f[1].width, 3, 0);
    assert_int_equal(f[1].move, OPFOR_MOVE_ROUGH);
    assert_int_equal(f[2].npts, 16);
    assert_int_equal(f[2].sight, OPFOR_SIGHT_CLEAR);
    for (int i = 0; i < 16; i++)
        assert_float_equal(opfor_dist(f[2].pts[i], opfor_pt(40, 20)), 4.0, EPS);
    assert_int_equal(f[3].npts, 4);
    assert_int_equal(f[3].cover, OPFOR_COVER_FORT);
    assert_false(f[3].flags & OPFOR_TF_NO_MOUNTED);
    assert_float_equal(f[3].pts[2].x, 54, 0);
    assert_float_equal(f[3].pts[2].y, 32, 0);
    assert_int_equal(sc->sides[0].nterritory, 3);
    assert_int_equal(sc->sides[1].edge, OPFOR_EDGE_TOP);
    /* The general is a one-figure headquarters unit. */
    assert_int_equal(sc->nunits, 3);
    const opfor_unit_t *g = &sc->units[0];
    assert_string_equal(g->name, "Boss");
    assert_true(g->flags & OPFOR_UNIT_GENERAL);
    assert_int_equal(g->type, OPFOR_UT_HEADQUARTERS);
    assert_int_equal(g->count, 1);
    const opfor_figure_t *gf = &sc->figures[g->first];
    assert_int_equal(gf->skills, OPFOR_S_LEADER | OPFOR_S_GENERAL);
    assert_int_equal(gf->weapons, OPFOR_W_SWORD | OPFOR_W_PISTOL);
    assert_int_equal(gf->quality, OPFOR_Q_ELITE);
    assert_true(gf->flags & OPFOR_FIG_MOUNTED);
    /* North is the right edge: facing N is +x. */
    const opfor_unit_t *guns = &sc->units[1];
    assert_true(guns->facing.x == 1 && guns->facing.y == 0);
    assert_int_equal(guns->flags, OPFOR_UNIT_LIMBERED | OPFOR_UNIT_SELF_COMMANDING);
    assert_int_equal(guns->count, 5);
    assert_int_equal(guns->quality, OPFOR_Q_VETERAN);
    assert_int_equal(guns->formation, OPFOR_FORMATION_COLUMN);
    const opfor_figure_t *gun = &sc->figures[guns->first];
    assert_true(gun->flags & OPFOR_FIG_EQUIPMENT);
    assert_int_equal(gun->weapons, OPFOR_W_FIELD_GUN);
    assert_float_equal(gun->pos.x, 10, EPS);
    assert_float_equal(gun->pos.y, 20, EPS);
    assert_int_equal(gun[1].quality, OPFOR_Q_VETERAN);
    assert_int_equal(gun[3].quality, OPFOR_Q_CONSCRIPT);
    assert_true(gun[3].flags & OPFOR_FIG_WOUNDED);
    /* Crew behind the gun (facing +x, so at smaller x). */
    assert_true(gun[1].pos.x < 9);
    const opfor_unit_t *sco = &sc->units[2];
    assert_true(sco->flags & OPFOR_UNIT_OFF_TABLE);
    assert_int_equal(sco->status, OPFOR_WAVERING);
    assert_float_equal(sco->facing.x, 0.70710678, EPS);
    assert_float_equal(sc->figures[sco->first].pos.x, 100, 0);
    assert_int_equal(sc->nobjectives, 2);
    assert_float_equal(sc->objectives[0].radius, 3, 0);
    assert_int_equal(sc->objectives[0].points, 1);
    assert_int_equal(sc->objectives[1].points, 3);
    /* The patrol block is kept whole, unknown keys included. */
    struct fy_node *patrol = opfor_scenario_block(sc, "patrol");
    assert_non_null(patrol);
    assert_non_null(sc->doc);
    struct fy_node *gap = fy_node_mapping_lookup_by_string(patrol, "front_line_gap", -1);
    assert_non_null(gap);
    size_t len;
    const char *s = fy_node_get_scalar(gap, &len);
    assert_int_equal(len, 2);
    assert_memory_equal(s, "12", 2);
    assert_non_null(fy_node_mapping_lookup_by_string(patrol, "future_key", -1));
    assert_int_equal(sc->nwarnings, 0);
    opfor_scenario_free(sc);
    assert_null(sc->doc);
    assert_null(opfor_scenario_block(sc, "patrol"));
    free(sc);
}

/* The format alone names no leader (that is a ruleset's rule): only the patrol warning. */
static void scenario_no_rule_checks_without_hooks(void **state) {
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
    assert_int_equal(sc->nwarnings, 1);
    assert_int_equal(sc->nwarnings_total, 1);
    assert_int_equal(sc->figures[2].skills, 0);
    assert_int_equal(sc->figures[0].skills, 0);
    assert_int_equal(sc->units[0].quality, OPFOR_Q_VETERAN); /* best of its figures */
    /* A patrol block outside patrol mode is kept but warned about. */
    assert_int_equal(sc->warnings[0].line, 12);
    assert_string_equal(sc->warnings[0].file, "t.yaml");
    assert_non_null(strstr(sc->warnings[0].msg, "patrol"));
    opfor_scenario_free(sc);
    free(sc);
}

static void scenario_errors_name_line_and_column(void **state) {
    (void)state;
    int bad = 0;
    /* Unknown key: points at the key and lists the allowed ones. */
    bad +=
        expect_error("name: T\nsidez: []\n", OPFOR_EPARSE, 2, 1,
                     "unknown key 'sidez' in scenario; allowed keys: name, description, ruleset");
    bad += expect_error(BASE "    colour: red\n", OPFOR_EPARSE, 12, 5,
                        "unknown key 'colour' in unit; allowed keys: name, side, type");
    /* Bad names list the allowed names. */
    bad += expect_error(HEAD "mode: patrl\n", OPFOR_EPARSE, 3, 7,
                        "unknown mode 'patrl'; expected one of: competitive, patrol");
    bad += expect_error(HEAD "table: {north: up}\n", OPFOR_EPARSE, 3, 16,
                        "unknown north edge 'up'; expected one of: top, right, bottom, left");
    bad += expect_error("name: T\nsides:\n  - {name: A}\n  - {name: B}\nunits:\n  - name: U1\n"
                        "    side: A\n    type: infantary\n",
                        OPFOR_EPARSE, 8, 11,
                        "unknown unit type 'infantary'; expected one of: infantry");
    bad += expect_error(BASE "      - {weapons: [rifle, lazer]}\n", OPFOR_EPARSE, 12, 27,
                        "unknown weapon 'lazer'; expected one of: pistol, carbine, rifle");
    bad += expect_error(BASE "    quality: heroic\n", OPFOR_EPARSE, 12, 14,
                        "expected one of: civilian, conscript, soldier, veteran, elite");
    /* Missing keys: at the mapping that lacks them. */
    bad +=
        expect_error("name: T\n", OPFOR_EPARSE, 1, 1, "missing required key 'sides' in scenario");
    bad +=
        expect_error("name: T\nsides: [{name: A}, {name: B}]\nunits:\n  - name: U1\n    side: A\n"
                     "    figures: [{count: 1}]\n",
                     OPFOR_EPARSE, 4, 5, "missing required key 'type' in unit");
    /* Wrong types and numbers. */
    bad += expect_error(HEAD "table: {width: abc}\n", OPFOR_EPARSE, 3, 16,
                        "expected a number for table width, found 'abc'");
    bad += expect_error(HEAD "table: {width: 2}\n", OPFOR_ERANGE, 3, 16,
                        "table width must be between 6 and 480, found 2");
    /* A huge number is still a number: say the range, not "expected a number". */
    bad += expect_error(HEAD "table: {width: 1e300}\n", OPFOR_ERANGE, 3, 16,
                        "table width must be between 6 and 480, found '1e300'");
    bad += expect_error(HEAD "table: {depth: 1e400}\n", OPFOR_ERANGE, 3, 16,
                        "table depth must be between 6 and 480, found '1e400'");
    bad += expect_error(HEAD "weather: {level: 7}\n", OPFOR_ERANGE, 3, 18,
                        "weather level must be between 1 and 5");
    bad +=
        expect_error("name: T\nsides: {a: 1}\n", OPFOR_EPARSE, 2, 9, "expected a list for sides");
    bad += expect_error("name: T\nsides: [{name: A}, {name: B}, {name: C}]\n", OPFOR_EPARSE, 2, 10,
                        "expected exactly 2 sides, found 3");
    bad += expect_error("name: T\nsides: [{name: A}, {name: a}]\n", OPFOR_EPARSE, 2, 21,
                        "both sides are named 'A'");
    bad +=
        expect_error("name: T\nsides: [{name: A}, {name: B}]\nunits:\n  - name: U1\n    side: C\n",
                     OPFOR_EPARSE, 5, 11, "unknown side 'C'; expected one of: A, B");
    bad += expect_error(BASE "      - {count: 2, mounted: maybe}\n", OPFOR_EPARSE, 12, 29,
                        "expected true or false for mounted, found 'maybe'");
    bad += expect_error(BASE "    facing: [0, 0]\n", OPFOR_ERANGE, 12, 14,
                        "facing [0, 0] has no direction");
    /* Positions off the table, in impassable ground, overlapping. */
    bad += expect_error(BASE "objectives:\n  - {name: X, position: [80, 5]}\n", OPFOR_ERANGE, 13,
                        26, "objective position [80, 5] is off the table");
    bad += expect_error(
        "name: T\nsides: [{name: A}, {name: B}]\nunits:\n  - name: U1\n    side: A\n"
        "    type: infantry\n    position: [71, 10]\n    figures: [{count: 3}]\n",
        OPFOR_ERANGE, 7, 16, "figure 3 of unit 'U1' would stand at [72.50, 10.00], off");
    bad += expect_error(BASE "terrain:\n  - {kind: impassable, name: Lake, rect: [5, 5, 10, 10]}\n",
                        OPFOR_ERANGE, 9, 16, "is inside impassable 'Lake' (terrain feature 1)");
    bad +=
        expect_error(HEAD "terrain:\n  - {kind: building, name: Inn, rect: [5, 30, 10, 10]}\n"
                          "units:\n  - name: Horse\n    side: B\n    type: cavalry\n"
                          "    figures: [{mounted: true, skills: leader, positions: [[8, 33]]}]\n",
                     OPFOR_ERANGE, 9, 60, "closed to mounted figures and guns");
    bad += expect_error(BASE "  - name: U2\n    side: B\n    type: infantry\n    figures:\n"
                             "      - {skills: leader, positions: [[10.2, 10.5]]}\n",
                        OPFOR_ERANGE, 16, 39,
                        "figure 1 of unit 'U2' at [10.20, 10.50] overlaps figure 2 of unit 'U1'");
    /* Terrain shape rules. */
    bad += expect_error(HEAD "terrain:\n  - {kind: wall, polygon: [[1, 1], [2, 1], [2, 2]]}\n",
                        OPFOR_EPARSE, 4, 18, "a wall is drawn with line");
    bad += expect_error(HEAD "terrain:\n  - {kind: woods, line: [[1, 1], [2, 1]]}\n", OPFOR_EPARSE,
                        4, 19, "a woods is an area");
    bad += expect_error(HEAD "terrain:\n  - {kind: woods, rect: [1, 1, 2, 2], line: [[1, 1]]}\n",
                        OPFOR_EPARSE, 4, 19, "exactly one of: polygon, line, rect, circle");
    bad += expect_error(HEAD "terrain:\n  - {kind: hill, polygon: [[1, 1], [2, 2], [3, 3]]}\n",
                        OPFOR_ERANGE, 4, 18, "polygon has no area");
    bad += expect_error(HEAD "terrain:\n  - {kind: hill, circle: {center: [2, 2], radius: 5}}\n",
                        OPFOR_ERANGE, 4, 51, "runs off the table");
    /* A block the ruleset reads must be a mapping. */
    bad += expect_error(HEAD "patrol: [1, 2]\n", OPFOR_EPARSE, 3, 10,
                        "expected a mapping (key: value) for patrol");
    /* YAML itself: syntax, duplicate keys, aliases. */
    bad += expect_error("name: [T\n", OPFOR_EPARSE, 2, 1, "YAML syntax");
    bad += expect_error("name: T\nname: U\n", OPFOR_EPARSE, 2, 1, "YAML syntax: duplicate key");
    bad += expect_error("name: &n T\nsides: *n\n", OPFOR_EPARSE, 2, 9,
                        "YAML aliases are not supported");
    bad += expect_error("- 1\n- 2\n", OPFOR_EPARSE, 1, 3,
                        "expected a mapping (key: value) for scenario");
    bad +=
        expect_error(BASE "    figures: []\n", OPFOR_EPARSE, 12, 5, "YAML syntax: duplicate key");
    bad +=
        expect_error("name: T\nsides: [{name: A}, {name: B}]\nunits:\n  - name: U1\n    side: A\n"
                     "    type: infantry\n    figures: []\n",
                     OPFOR_EPARSE, 7, 5, "a unit needs at least one figure");
    bad +=
        expect_error("name: T\nsides: [{name: A}, {name: B}]\nunits:\n  - name: U1\n    side: A\n"
                     "    type: infantry\n    figures: [{count: 2}]\n",
                     OPFOR_EPARSE, 4, 5, "unit 'U1' needs a position");
    bad +=
        expect_error("name: T\nsides: [{name: A}, {name: B}]\nunits:\n  - name: U1\n    side: A\n"
                     "    type: infantry\n    figures: [{count: 2, positions: [[1, 1]]}]\n",
                     OPFOR_EPARSE, 7, 39, "positions lists 1 points but count is 2");
    bad += expect_error(
        "name: T\nsides: [{name: A}, {name: B}]\nunits:\n  - name: A very long unit name "
        "indeed\n",
        OPFOR_ERANGE, 4, 11, "is too long: at most 23 bytes");
    bad += expect_error("", OPFOR_EPARSE, 0, 0, "empty scenario");
    /* Bytes checked before YAML parsing: UTF-8 only, no control characters. Columns count
     * characters ("é" is one). */
    bad += expect_error("name: T\nsides: \xc3\xa9\xff\n", OPFOR_EPARSE, 2, 9,
                        "not UTF-8 text (byte 0xff)");
    bad +=
        expect_error("name: T\xc3\n", OPFOR_EPARSE, 1, 8, "not UTF-8 text (byte 0x0a after 0xc3)");
    bad += expect_error("name: \xe0\x80\x80\n", OPFOR_EPARSE, 1, 7, "invalid sequence");
    bad += expect_error("name: \xed\xa0\x80\n", OPFOR_EPARSE, 1, 7, "invalid sequence");
    bad += expect_error("name: T\n\x1b[31m\n", OPFOR_EPARSE, 2, 1,
                        "control character U+001B is not allowed");
    bad += expect_error("%YAML 1.2\n---\nname: T\n\xc2\x9b\n", OPFOR_EPARSE, 4, 1,
                        "control character U+009B");
    assert_int_equal(bad, 0);
}

/* A test ruleset's hooks: the item hook logs what it is called with, refuses `limbered` on a
 * unit named Bad (at the key's value), and warns of every route at its line; the check hook
 * refuses a second unit (at the unit's mapping). */
typedef struct hook_log {
    int units, checks;
    char calls[512]; /* "u0:limbered u0:- u0:figures r0:line ..." */
} hook_log_t;

static int hook_item(opfor_scenario_ck_t *ck, opfor_scenario_item_t kind, int i, const char *key,
                     void *user) {
    hook_log_t *log = user;
    const opfor_scenario_t *sc = opfor_scenario_ck_scenario(ck);
    size_t n = strlen(log->calls);
    snprintf(log->calls + n, sizeof log->calls - n, "%s%c%d:%s", n ? " " : "",
             kind == OPFOR_SCENARIO_UNIT ? 'u' : 'r', i, key ? key : "-");
    if (kind == OPFOR_SCENARIO_ROUTE) {
        assert_int_equal(i, sc->nroutes - 1);
        opfor_scenario_ck_warn(ck, kind, i, "line", "route %d", i);
        return 0;
    }
    if (!key) {
        log->units++;
        assert_int_equal(i, sc->nunits); /* the unit being read */
    }
    if (key && strcmp(key, "limbered") == 0 && strcmp(sc->units[i].name, "Bad") == 0) {
        assert_true(opfor_scenario_ck_has(ck, OPFOR_SCENARIO_UNIT, i, "limbered"));
        assert_false(opfor_scenario_ck_has(ck, OPFOR_SCENARIO_UNIT, i, "payload"));
        return opfor_scenario_ck_fail(ck, OPFOR_EPARSE, OPFOR_SCENARIO_UNIT, i, key,
                                      "no limbers for %s", sc->units[i].name);
    }
    return 0;
}

static int hook_check(opfor_scenario_ck_t *ck, void *user) {
    hook_log_t *log = user;
    opfor_scenario_t *sc = opfor_scenario_ck_scenario(ck);
    log->checks++;
    if (sc->nunits > 1)
        return opfor_scenario_ck_fail(ck, OPFOR_ERANGE, OPFOR_SCENARIO_UNIT, 1, NULL,
                                      "one unit only");
    return 0;
}

static void scenario_ruleset_name_and_hooks(void **state) {
    (void)state;
    hook_log_t log = {0, 0, ""};
    opfor_scenario_rules_t rules = {.name = "duel",
                                    .terrain = test_rules,
                                    .item = hook_item,
                                    .check = hook_check,
                                    .user = &log};
    opfor_scenario_t *sc = new_sc();
    opfor_diag_t d;
    /* The ruleset's name is the only one accepted, and the default. */
    const char *named = HEAD "ruleset: dbm\n";
    assert_int_equal(opfor_scenario_load_string(named, strlen(named), "t.yaml", &rules, sc, &d),
                     OPFOR_EPARSE);
    assert_int_equal(d.line, 3);
    assert_int_equal(d.col, 10);
    assert_non_null(strstr(d.msg, "unknown ruleset 'dbm'; expected one of: duel"));
    named = HEAD "ruleset: Duel\n";
    assert_int_equal(opfor_scenario_load_string(named, strlen(named), "t.yaml", &rules, sc, &d), 0);
    assert_string_equal(sc->ruleset, "duel");
    opfor_scenario_free(sc);
    /* The item hook runs at the unit's keys, in the loader's order, and may refuse a key at
     * its value. */
    log = (hook_log_t){0, 0, ""};
    assert_int_equal(opfor_scenario_load_string(BASE, strlen(BASE), "t.yaml", &rules, sc, &d), 0);
    assert_string_equal(sc->ruleset, "duel");
    assert_int_equal(log.units, 1);
    assert_int_equal(log.checks, 1);
    assert_string_equal(log.calls, "u0:- u0:figures");
    opfor_scenario_free(sc);
    const char *bad_unit = HEAD "units:\n  - name: Bad\n    side: A\n    type: artillery\n"
                                "    limbered: true\n    position: [5, 5]\n"
                                "    figures: [{skills: leader}]\n";
    log = (hook_log_t){0, 0, ""};
    assert_int_equal(
        opfor_scenario_load_string(bad_unit, strlen(bad_unit), "t.yaml", &rules, sc, &d),
        OPFOR_EPARSE);
    assert_int_equal(d.line, 7);
    assert_int_equal(d.col, 15);
    assert_string_equal(d.msg, "no limbers for Bad");
    assert_int_equal(log.checks, 0); /* the load stopped at the unit's key */
    assert_string_equal(log.calls, "u0:limbered");
    /* Routes are announced at their line; the check hook runs after the loader's checks and
     * may fail at a unit (NULL key: the unit's mapping). */
    const char *two = HEAD "terrain:\n  - {kind: track, name: Rail, line: [[1, 1], [9, 1]]}\n"
                           "units:\n"
                           "  - {name: U1, side: A, type: infantry, figures: [{positions: [[5, "
                           "5]]}]}\n"
                           "  - {name: U2, side: B, type: infantry, figures: [{positions: [[9, "
                           "9]]}]}\n";
    log = (hook_log_t){0, 0, ""};
    assert_int_equal(opfor_scenario_load_string(two, strlen(two), "t.yaml", &rules, sc, &d),
                     OPFOR_ERANGE);
    assert_int_equal(log.units, 2);
    assert_int_equal(log.checks, 1);
    assert_int_equal(d.line, 7);
    assert_int_equal(d.col, 6); /* a flow mapping starts at its first key */
    assert_string_equal(d.msg, "one unit only");
    assert_int_equal(sc->nwarnings, 1);
    assert_int_equal(sc->warnings[0].line, 4);
    assert_int_equal(sc->warnings[0].col, 39);
    assert_string_equal(sc->warnings[0].msg, "route 0");
    assert_string_equal(log.calls, "r0:line u0:- u0:figures u1:- u1:figures");
    opfor_scenario_free(sc);
    free(sc);
}

/* A check hook that refuses the cooperative mode at the scenario's `mode:` value, and a
 * scenario with no units at its first line (the scenario's own place, OPFOR_SCENARIO_ROOT). */
static int mode_check(opfor_scenario_ck_t *ck, void *user) {
    (void)user;
    const opfor_scenario_t *sc = opfor_scenario_ck_scenario(ck);
    if (sc->nunits == 0)
        return opfor_scenario_ck_fail(ck, OPFOR_EPARSE, OPFOR_SCENARIO_ROOT, 0, NULL, "no units");
    if (sc->mode == OPFOR_MODE_COOP)
        return opfor_scenario_ck_fail(ck, OPFOR_EPARSE, OPFOR_SCENARIO_ROOT, 0, "mode",
                                      "no %s here", opfor_scenario_mode_name(sc, sc->mode));
    return 0;
}

static void scenario_modes_and_blocks_of_the_ruleset(void **state) {
    (void)state;
    opfor_scenario_t *sc = new_sc();
    opfor_diag_t d;
    /* With no rules, the neutral words and no blocks: core knows no ruleset's mode or block,
     * and checks nothing a mode needs (two player sides in the cooperative mode pass). */
    const char *coop = "name: T\nmode: coop\nsides: [{name: A, player: true}, {name: B, player: "
                       "true}]\n";
    assert_int_equal(opfor_scenario_load_string(coop, strlen(coop), "t.yaml", NULL, sc, &d), 0);
    assert_int_equal(sc->mode, OPFOR_MODE_COOP);
    assert_null(sc->rules);
    assert_string_equal(opfor_scenario_mode_name(sc, sc->mode), "coop");
    assert_string_equal(opfor_scenario_mode_name(NULL, OPFOR_MODE_COMPETITIVE), "competitive");
    assert_string_equal(opfor_scenario_mode_name(sc, OPFOR_MODE_COUNT), "?");
    opfor_scenario_free(sc);
    const char *word = HEAD "mode: patrol\n";
    assert_int_equal(opfor_scenario_load_string(word, strlen(word), "t.yaml", NULL, sc, &d),
                     OPFOR_EPARSE);
    assert_string_equal(d.msg, "unknown mode 'patrol'; expected one of: competitive, coop");
    const char *block = HEAD "patrol: {x: 1}\n";
    assert_int_equal(opfor_scenario_load_string(block, strlen(block), "t.yaml", NULL, sc, &d),
                     OPFOR_EPARSE);
    assert_int_equal(d.line, 3);
    assert_non_null(strstr(d.msg, "unknown key 'patrol' in scenario"));

    /* A ruleset's own words (aliases too) and blocks: each block kept by name, warned of in
     * a mode it does not serve; the mode named by its first word. */
    static const opfor_name_t words[] = {{"versus", OPFOR_MODE_COMPETITIVE},
                                         {"together", OPFOR_MODE_COOP},
                                         {"team", OPFOR_MODE_COOP},
                                         {NULL, 0}};
    static const opfor_scenario_block_rule_t blocks[] = {
        {"orders", -1, NULL}, {"setup", OPFOR_MODE_COMPETITIVE, "the setup"}, {NULL, 0, NULL}};
    opfor_scenario_rules_t rules = {.terrain = test_rules, .modes = words, .blocks = blocks};
    const char *both = BASE "mode: team\norders: {a: 1}\nsetup: {b: 2}\n";
    assert_int_equal(opfor_scenario_load_string(both, strlen(both), "t.yaml", &rules, sc, &d), 0);
    assert_int_equal(sc->mode, OPFOR_MODE_COOP);
    assert_ptr_equal(sc->rules, &rules);
    assert_string_equal(opfor_scenario_mode_name(sc, sc->mode), "together");
    assert_non_null(opfor_scenario_block(sc, "orders"));
    assert_non_null(fy_node_mapping_lookup_by_string(opfor_scenario_block(sc, "setup"), "b", -1));
    assert_null(opfor_scenario_block(sc, "patrol"));
    assert_null(opfor_scenario_block(sc, NULL));
    assert_non_null(sc->doc);
    assert_int_equal(sc->nwarnings, 1);
    assert_int_equal(sc->warnings[0].line, 14);
    assert_int_equal(sc->warnings[0].col, 1);
    assert_string_equal(sc->warnings[0].msg, "a setup block is ignored unless mode is versus");
    opfor_scenario_free(sc);
    assert_null(opfor_scenario_block(sc, "orders"));
    /* Absent blocks keep no document; the blocks join the allowed keys. */
    assert_int_equal(opfor_scenario_load_string(BASE, strlen(BASE), "t.yaml", &rules, sc, &d), 0);
    assert_null(sc->doc);
    assert_null(opfor_scenario_block(sc, "orders"));
    opfor_scenario_free(sc);
    const char *typo = HEAD "order: {}\n";
    assert_int_equal(opfor_scenario_load_string(typo, strlen(typo), "t.yaml", &rules, sc, &d),
                     OPFOR_EPARSE);
    assert_non_null(strstr(d.msg, "generals, objectives, orders, setup"));
    assert_null(sc->doc);

    /* The check hook fails at the scenario itself, or at one of its top-level keys. */
    rules.check = mode_check;
    const char *team = BASE "mode: team\n";
    assert_int_equal(opfor_scenario_load_string(team, strlen(team), "t.yaml", &rules, sc, &d),
                     OPFOR_EPARSE);
    assert_int_equal(d.line, 12);
    assert_int_equal(d.col, 7);
    assert_string_equal(d.msg, "no together here");
    const char *none = HEAD "mode: versus\n";
    assert_int_equal(opfor_scenario_load_string(none, strlen(none), "t.yaml", &rules, sc, &d),
                     OPFOR_EPARSE);
    assert_int_equal(d.line, 1);
    assert_int_equal(d.col, 1);
    assert_string_equal(d.msg, "no units");

    /* A ruleset may not take a key of the format, nor declare too many blocks. */
    static const opfor_scenario_block_rule_t taken[] = {{"units", -1, NULL}, {NULL, 0, NULL}};
    static const opfor_scenario_block_rule_t many[] = {{"a", -1, NULL}, {"b", -1, NULL},
                                                       {"c", -1, NULL}, {"d", -1, NULL},
                                                       {"e", -1, NULL}, {NULL, 0, NULL}};
    opfor_scenario_rules_t bad = {.terrain = test_rules, .blocks = taken};
    assert_int_equal(opfor_scenario_load_string(BASE, strlen(BASE), "t.yaml", &bad, sc, &d),
                     OPFOR_EINVAL);
    assert_non_null(strstr(d.msg, "'units'"));
    bad.blocks = many;
    assert_int_equal(opfor_scenario_load_string(BASE, strlen(BASE), "t.yaml", &bad, sc, &d),
                     OPFOR_EINVAL);
    assert_non_null(strstr(d.msg, "more than 4"));
    free(sc);
}

static void scenario_errors_over_the_maxima(void **state) {
    (void)state;
    int bad = 0;
    /* 33 one-figure units, one per line: the 33rd is refused. */
    size_t cap = 8192, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    n += (size_t)snprintf(text + n, cap - n, "name: T\nsides: [{name: A}, {name: B}]\nunits:\n");
    for (int i = 0; i < 33; i++)
        n += (size_t)snprintf(text + n, cap - n,
                              "  - {name: U%d, side: A, type: infantry, figures: [{skills: leader, "
                              "positions: [[%d, 1]]}]}\n",
                              i, i + 1);
    bad += expect_error(text, OPFOR_EFULL, 36, 6, "too many units: a scenario holds at most 32");
    /* 200 + 100 figures. */
    n = (size_t)snprintf(text, cap,
                         "name: T\nsides: [{name: A}, {name: B}]\nunits:\n"
                         "  - {name: U1, side: A, type: infantry, position: [1, 1], "
                         "figures: [{count: 200}]}\n"
                         "  - {name: U2, side: A, type: infantry, position: [1, 9], "
                         "figures: [{count: 100}]}\n");
    bad += expect_error(text, OPFOR_EFULL, 5, 77, "too many figures: a scenario holds at most 256");
    /* 65 terrain features. */
    n = (size_t)snprintf(text, cap, HEAD "terrain:\n");
    for (int i = 0; i < 65; i++)
        n += (size_t)snprintf(text + n, cap - n, "  - {kind: rough, rect: [1, 1, 1, 1]}\n");
    bad += expect_error(text, OPFOR_EFULL, 68, 6, "too many terrain features: at most 64");
    /* 9 objectives. */
    n = (size_t)snprintf(text, cap, HEAD "objectives:\n");
    for (int i = 0; i < 9; i++)
        n += (size_t)snprintf(text + n, cap - n, "  - {name: O, position: [1, 1]}\n");
    bad += expect_error(text, OPFOR_EFULL, 12, 6, "too many objectives: at most 8");
    free(text);
    assert_int_equal(bad, 0);
}

static void scenario_input_edges(void **state) {
    (void)state;
    opfor_scenario_t *sc = new_sc();
    opfor_diag_t d;
    /* Not NUL-terminated: only len bytes are read. */
    char buf[sizeof(BASE) + 16];
    memcpy(buf, BASE, sizeof BASE - 1);
    memcpy(buf + sizeof BASE - 1, "garbage: [[[", 12);
    assert_int_equal(opfor_scenario_load_string(buf, sizeof BASE - 1, NULL, NULL, sc, &d), 0);
    opfor_scenario_free(sc);
    /* UTF-8 names pass through untouched. */
    assert_int_equal(
        load("name: Schlo\xc3\x9f Caf\xc3\xa9\nsides: [{name: \xc3\x84}, {name: B}]\n", sc, &d), 0);
    assert_string_equal(sc->name, "Schlo\xc3\x9f Caf\xc3\xa9");
    assert_int_equal(opfor_scenario_side(sc, "\xc3\x84"), 0);
    opfor_scenario_free(sc);
    /* Embedded NUL bytes are refused, not misread. */
    static const char nul[] = "name: \"a\\0b\"\nsides: []\n";
    assert_int_equal(opfor_scenario_load_string(nul, sizeof nul - 1, "n", NULL, sc, &d),
                     OPFOR_EPARSE);
    assert_non_null(strstr(d.msg, "NUL"));
    assert_int_equal(opfor_scenario_load_string(NULL, 5, "n", NULL, sc, &d), OPFOR_EINVAL);
    assert_int_equal(opfor_scenario_load_string(BASE, strlen(BASE), "n", NULL, NULL, &d),
                     OPFOR_EINVAL);
    assert_int_equal(load(BASE, sc, NULL), 0); /* diag may be NULL */
    opfor_scenario_free(sc);
    /* Files. */
    assert_int_equal(opfor_scenario_load_file("/nonexistent/x.yaml", &core_rules, sc, &d),
                     OPFOR_EIO);
    assert_string_equal(d.file, "/nonexistent/x.yaml");
    assert_non_null(strstr(d.msg, "cannot open"));
    char path[] = "/tmp/opfor_test_scenario_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *bad = BASE "    plating: thick\n";
    assert_int_equal(write(fd, bad, strlen(bad)), (ssize_t)strlen(bad));
    close(fd);
    assert_int_equal(opfor_scenario_load_file(path, &core_rules, sc, &d), OPFOR_EPARSE);
    char line[1024];
    char want[128];
    snprintf(want, sizeof want, "%s:12:5: unknown key", path);
    assert_non_null(strstr(opfor_diag_format(&d, line, sizeof line), want));
    unlink(path);
    free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scenario_minimal_defaults),
        cmocka_unit_test(scenario_full_features),
        cmocka_unit_test(scenario_no_rule_checks_without_hooks),
        cmocka_unit_test(scenario_ruleset_name_and_hooks),
        cmocka_unit_test(scenario_modes_and_blocks_of_the_ruleset),
        cmocka_unit_test(scenario_errors_name_line_and_column),
        cmocka_unit_test(scenario_errors_over_the_maxima),
        cmocka_unit_test(scenario_input_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
