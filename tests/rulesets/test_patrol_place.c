/* tests/rulesets/test_patrol_place.c — the players' front line and the placement of spotted
 * enemies (Viktoria! XV.B): every compass direction in front, on the flanks, behind and
 * off the table edge; gaps, hiding terrain, ground passed through, impassable ground,
 * other norths and player edges, and a scenario allowing appearances behind the lines.
 */
#include "test_patrol_fixture.h"

#define NEAR(a, b, tol) assert_float_equal((double)(a), (double)(b), (tol))

static opfor_patrol_placement_t place(pfx_t *x, int dir, float m, int mounted) {
    opfor_patrol_placement_t pl;
    assert_int_equal(opfor_patrol_place(&x->cfg, &x->ps, &x->fo, dir, m, mounted, &pl), 0);
    assert_int_equal(pl.direction, dir);
    if (pl.placed) {
        /* The minimum distance always holds, and the point is on the table. */
        assert_true(pl.distance >= m - 0.01f);
        assert_true(pl.point.x >= 0 && pl.point.x <= 72 && pl.point.y >= 0 && pl.point.y <= 48);
    }
    return pl;
}

/* place() (on foot) that must place the enemy by `rule`. */
static opfor_patrol_placement_t placed_by(pfx_t *x, int dir, float m, int rule) {
    opfor_patrol_placement_t pl = place(x, dir, m, 0);
    assert_true(pl.placed);
    assert_int_equal(pl.rule, rule);
    return pl;
}

/* place() (on foot) that must refuse by `rule`. */
static void refused_by(pfx_t *x, int dir, float m, int rule) {
    opfor_patrol_placement_t pl = place(x, dir, m, 0);
    assert_false(pl.placed);
    assert_int_equal(pl.rule, rule);
}

/* p is (px, py), x within tx and y within ty. */
static void near_pt(opfor_pt_t p, double px, double tx, double py, double ty) {
    NEAR(p.x, px, tx);
    NEAR(p.y, py, ty);
}

/* One unit of 6 in line at (x, y), north being the top edge; extra YAML as pfx_table takes. */
static pfx_t *line_at(float x, float y, const char *extra) {
    char u[512];
    return pfx_table("top", pfx_unit(u, sizeof u, "Line", x, y, 6), extra);
}

/* One unit of 6 in line at (36, 12): bases span x 31.75..40.25, front edge at y 12.5. */
static pfx_t *lone_unit(const char *extra) {
    return line_at(36, 12, extra);
}

/* Clients read a refusal from the rule, never from the wording of its text. */
static void patrol_place_rule_refused(void **state) {
    (void)state;
    const char *why = NULL;
    assert_int_equal(opfor_patrol_rule_refused(OPFOR_PLACE_REFUSED_BEHIND, &why), 1);
    assert_string_equal(why, "it would appear behind the players' line");
    assert_int_equal(opfor_patrol_rule_refused(OPFOR_PLACE_REFUSED_ROOM, &why), 1);
    assert_true(why[0] != '\0' && strncmp(why, "refused", 7) != 0);
    assert_int_equal(opfor_patrol_rule_refused(OPFOR_PLACE_REFUSED_NONE, NULL), 1);
    for (int r = OPFOR_PLACE_FRONT; r <= OPFOR_PLACE_BEHIND; r++) {
        assert_int_equal(opfor_patrol_rule_refused(r, &why), 0);
        assert_string_equal(why, "");
    }
}

static void patrol_place_dot_is_front_of_line(void **state) {
    (void)state;
    pfx_t *x = lone_unit(NULL);
    opfor_pt_t dot;
    assert_int_equal(opfor_patrol_dot(&x->cfg, &x->ps, &x->fo, &dot), 0);
    near_pt(dot, 36.0, 0.01, 12.5, 0.001);
    assert_true(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(36, 5)));
    assert_true(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(33, 12.4f)));
    assert_false(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(36, 12.6f)));
    assert_false(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(45, 5)));
    /* 16 columns of 0.5625 inch, 12.5 deep. */
    NEAR(opfor_patrol_area(&x->cfg, &x->ps), 16 * 0.5625 * 12.5, 0.01);
    pfx_free(x);
}

static void patrol_place_front_directions(void **state) {
    (void)state;
    pfx_t *x = lone_unit(NULL);
    opfor_patrol_placement_t pl = placed_by(x, OPFOR_N, 10, OPFOR_PLACE_FRONT);
    near_pt(pl.point, 36.0, 0.01, 22.5, 0.01);
    NEAR(pl.traced, 0, 0);
    /* The diagonals go out along their ray, as far as the distance needs. */
    for (int dir = OPFOR_NW; dir != OPFOR_E; dir = dir == OPFOR_NW ? OPFOR_NE : OPFOR_E) {
        pl = placed_by(x, dir, 10, OPFOR_PLACE_FRONT);
        float dx = pl.point.x - pl.dot.x, dy = pl.point.y - pl.dot.y;
        NEAR(dy, fabsf(dx), 0.01); /* on the 45-degree ray */
        assert_true(dir == OPFOR_NE ? dx > 0 : dx < 0);
        assert_true(pl.distance < 10.4f); /* the first point far enough, not beyond */
    }
    /* Symmetric unit, symmetric answers. */
    opfor_patrol_placement_t a = place(x, OPFOR_NE, 10, 0), b = place(x, OPFOR_NW, 10, 0);
    NEAR(a.point.x - 36.0f, 36.0f - b.point.x, 0.02);
    NEAR(a.point.y, b.point.y, 0.01);
    pfx_free(x);
}

static void patrol_place_flank_directions(void **state) {
    (void)state;
    pfx_t *x = lone_unit(NULL);
    opfor_patrol_placement_t pl = placed_by(x, OPFOR_E, 10, OPFOR_PLACE_FLANK);
    near_pt(pl.point, 71.0, 0.001, 12.5, 0.001); /* the edge, 1 inch in */
    NEAR(pl.traced, 0, 0.001);
    NEAR(pl.distance, 71.0 - 39.75 - 0.5, 0.01);
    pl = place(x, OPFOR_W, 10, 0);
    assert_int_equal(pl.rule, OPFOR_PLACE_FLANK);
    near_pt(pl.point, 1.0, 0.001, 12.5, 0.001);
    /* A flank edge too close: traced up the edge until far enough. With 40 inches needed,
     * the right edge point must rise until 40.5 from the figure at (39.75, 12). */
    pl = place(x, OPFOR_E, 40, 0);
    assert_int_equal(pl.rule, OPFOR_PLACE_FLANK);
    NEAR(pl.point.x, 71.0, 0.001);
    double need = 12.0 + sqrt(40.5 * 40.5 - 31.25 * 31.25);
    assert_true(pl.point.y >= need - 0.01 && pl.point.y <= need + 0.3);
    NEAR(pl.traced, pl.point.y - 12.5f, 0.01);
    pfx_free(x);
}

static void patrol_place_behind_refused(void **state) {
    (void)state;
    pfx_t *x = lone_unit(NULL);
    int dirs[3] = {OPFOR_S, OPFOR_SE, OPFOR_SW};
    for (int i = 0; i < 3; i++)
        refused_by(x, dirs[i], 10, OPFOR_PLACE_REFUSED_BEHIND);
    pfx_free(x);
}

/* A unit near the right edge at (64, 30): bases x 59.75..68.25, front 30.5. */
static void patrol_place_back_diagonal_on_flank(void **state) {
    (void)state;
    pfx_t *x = line_at(64, 30, NULL);
    /* SE leaves through the right (flank) edge outside the line: a flank appearance,
     * traced up that edge until 10.5 inches from the figure at (67.75, 30). */
    opfor_patrol_placement_t pl = placed_by(x, OPFOR_SE, 10, OPFOR_PLACE_FLANK);
    near_pt(pl.edge, 71.0, 0.001, 30.5f - (71.0f - pl.dot.x), 0.01); /* the dot sits at x 64.1 */
    NEAR(pl.point.x, 71.0, 0.001);
    double need = 30.0 + sqrt(10.5 * 10.5 - 3.25 * 3.25);
    assert_true(pl.point.y >= need - 0.01 && pl.point.y <= need + 0.3);
    NEAR(pl.traced, pl.point.y - pl.edge.y, 0.01);
    /* NE runs off the right edge before 10 inches: off-table, traced the same way. */
    pl = place(x, OPFOR_NE, 10, 0);
    assert_int_equal(pl.rule, OPFOR_PLACE_OFF_TABLE);
    NEAR(pl.point.x, 71.0, 0.001);
    assert_true(pl.point.y >= need - 0.01 && pl.point.y <= need + 0.3);
    /* SW leaves through the players' own edge: behind the lines. */
    assert_int_equal(place(x, OPFOR_SW, 10, 0).rule, OPFOR_PLACE_REFUSED_BEHIND);
    pfx_free(x);
}

/* Near the enemy edge, straight ahead falls off the table. */
static void patrol_place_off_table_ahead(void **state) {
    (void)state;
    pfx_t *x = line_at(36, 40, NULL);
    opfor_patrol_placement_t pl = placed_by(x, OPFOR_N, 10, OPFOR_PLACE_OFF_TABLE);
    near_pt(pl.edge, 36.0, 0.01, 47.0, 0.001);
    NEAR(pl.point.y, 47.0, 0.001);
    /* Along the enemy edge to 10.5 inches from (39.75, 40): x >= 39.75 + 7.83. Ties between
     * the two ways go east. */
    assert_true(pl.point.x >= 47.58 && pl.point.x <= 47.9);
    NEAR(pl.traced, pl.point.x - 36.0f, 0.02);
    /* Too far for the table: nowhere qualifies. */
    refused_by(x, OPFOR_N, 80, OPFOR_PLACE_REFUSED_ROOM);
    pfx_free(x);
}

static void patrol_place_gap_joins_line(void **state) {
    (void)state;
    char a[512], b[512], units[1100];
    /* Bases 24.25 and 31.75: a 7.5 inch gap is joined. */
    snprintf(units, sizeof units, "%s%s", pfx_unit(a, sizeof a, "A", 20, 12, 6),
             pfx_unit(b, sizeof b, "B", 36, 12, 6));
    pfx_t *x = pfx_table("top", units, NULL);
    assert_true(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(28, 12)));
    pfx_free(x);
    /* 15.5 inches is not. */
    snprintf(units, sizeof units, "%s%s", pfx_unit(a, sizeof a, "A", 20, 12, 6),
             pfx_unit(b, sizeof b, "B", 44, 12, 6));
    x = pfx_table("top", units, NULL);
    assert_false(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(32, 12)));
    assert_false(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(32, 2)));
    pfx_free(x);
    /* Unless the scenario widens the gap. */
    x = pfx_table("top", units, "patrol: {front_line_gap: 16}\n");
    assert_true(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(32, 12)));
    pfx_free(x);
}

static void patrol_place_hiding_terrain(void **state) {
    (void)state;
    const char *terrain = "terrain:\n"
                          "  - {name: Copse, kind: woods, rect: [34, 10, 4, 6]}\n";
    pfx_t *x = line_at(36, 30, terrain);
    /* The copse lies behind the line but nobody has entered it: not held. */
    assert_false(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(36, 13)));
    assert_true(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(33, 13)));
    assert_int_equal(x->ps.entered, 0);
    /* A figure walks into it: from then on it is held, even after leaving. */
    opfor_pt_t old = x->fo.figures[0].pos;
    x->fo.figures[0].pos = opfor_pt(36, 13);
    opfor_patrol_observe(&x->cfg, &x->ps, &x->fo);
    assert_int_equal(x->ps.entered, 1);
    x->fo.figures[0].pos = old;
    opfor_patrol_observe(&x->cfg, &x->ps, &x->fo);
    assert_true(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(36, 13)));
    pfx_free(x);
    /* A scenario may ignore hiding terrain. */
    x = line_at(36, 30,
                "terrain:\n  - {name: Copse, kind: woods, rect: [34, 10, 4, 6]}\n"
                "patrol: {hiding_terrain: false}\n");
    assert_true(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(36, 13)));
    pfx_free(x);
}

static void patrol_place_territory_held(void **state) {
    (void)state;
    static const char yaml[] =
        "name: Held\nmode: patrol\ntable: {width: 72, depth: 48}\n"
        "sides:\n  - {name: Blue, player: true, edge: bottom,\n"
        "     territory: [[0, 0], [72, 0], [72, 20], [0, 20]]}\n"
        "  - {name: Red, player: false, edge: top}\n"
        "units:\n  - {name: Line, side: Blue, type: infantry, position: [36, 12],\n"
        "     figures: [{count: 6, weapons: rifle, skills: leader}]}\n";
    pfx_t *x = pfx_load(yaml);
    assert_true(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(65, 19.5f)));
    assert_false(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(65, 20.5f)));
    /* The dot is now the territory's edge, the whole width being held to 20 inches. */
    opfor_pt_t dot;
    assert_int_equal(opfor_patrol_dot(&x->cfg, &x->ps, &x->fo, &dot), 0);
    assert_float_equal(dot.y, 20.0, 0.3);
    /* East is no longer open ground at the unit's depth: the edge point is the line's. */
    opfor_patrol_placement_t pl;
    assert_int_equal(opfor_patrol_place(&x->cfg, &x->ps, &x->fo, OPFOR_E, 5, 0, &pl), 0);
    assert_int_equal(pl.rule, OPFOR_PLACE_FLANK);
    assert_true(pl.point.y >= 19.7f); /* not at the unit's own depth, 12.5 */
    pfx_free(x);
}

static void patrol_place_keeps_ground_passed(void **state) {
    (void)state;
    for (int keep = 1; keep >= 0; keep--) {
        pfx_t *x = line_at(36, 30, keep ? NULL : "patrol: {keep_passed_ground: false}\n");
        for (int i = 0; i < x->fo.nfigures; i++)
            x->fo.figures[i].pos.y -= 20;
        opfor_patrol_observe(&x->cfg, &x->ps, &x->fo);
        assert_int_equal(opfor_patrol_controlled(&x->cfg, &x->ps, opfor_pt(36, 25)), keep);
        opfor_pt_t dot;
        assert_int_equal(opfor_patrol_dot(&x->cfg, &x->ps, &x->fo, &dot), 0);
        NEAR(dot.y, keep ? 30.5 : 10.5, 0.001);
        pfx_free(x);
    }
}

static void patrol_place_avoids_impassable_and_buildings(void **state) {
    (void)state;
    pfx_t *x =
        lone_unit("terrain:\n"
                  "  - {name: Pond, kind: impassable, circle: {center: [36, 23], radius: 2}}\n"
                  "  - {name: Barn, kind: building, rect: [20, 20, 6, 6]}\n");
    opfor_patrol_placement_t pl = place(x, OPFOR_N, 10, 0);
    assert_int_equal(pl.rule, OPFOR_PLACE_FRONT);
    assert_true(pl.point.y > 24.8f && pl.point.y < 25.5f);
    assert_true(opfor_terrain_impassable_at(&x->cfg.table, pl.point, 0) < 0);
    /* Along NW the ray crosses the barn at about 12 inches: fine on foot, not mounted. */
    opfor_patrol_placement_t foot = place(x, OPFOR_NW, 12, 0), horse = place(x, OPFOR_NW, 12, 1);
    assert_int_equal(foot.rule, OPFOR_PLACE_FRONT);
    assert_int_equal(horse.rule, OPFOR_PLACE_FRONT);
    assert_true(opfor_terrain_impassable_at(&x->cfg.table, foot.point, 1) >= 0);
    assert_true(opfor_terrain_impassable_at(&x->cfg.table, horse.point, 1) < 0);
    assert_true(horse.distance > foot.distance);
    pfx_free(x);
}

static void patrol_place_behind_allowed(void **state) {
    (void)state;
    pfx_t *x = lone_unit("patrol: {allow_behind: true}\n");
    opfor_patrol_placement_t pl = placed_by(x, OPFOR_S, 5, OPFOR_PLACE_BEHIND);
    NEAR(pl.point.x, 36.0, 0.01);
    assert_true(pl.point.y < 7.0f && pl.point.y > 5.5f);
    /* Too far to fit behind: traced along the players' edge instead. */
    placed_by(x, OPFOR_SE, 30, OPFOR_PLACE_OFF_TABLE);
    /* Front directions are unchanged. */
    assert_int_equal(place(x, OPFOR_N, 10, 0).rule, OPFOR_PLACE_FRONT);
    pfx_free(x);
}

static void patrol_place_other_norths_and_edges(void **state) {
    (void)state;
    char u[512];
    /* North is the right edge: "west" is straight up the table, toward the enemy. */
    pfx_t *x = pfx_table("right", pfx_unit(u, sizeof u, "Line", 36, 12, 6), NULL);
    opfor_patrol_placement_t pl = place(x, OPFOR_W, 10, 0);
    assert_int_equal(pl.rule, OPFOR_PLACE_FRONT);
    near_pt(pl.point, 36.0, 0.01, 22.5, 0.01);
    assert_int_equal(place(x, OPFOR_N, 10, 0).rule, OPFOR_PLACE_FLANK); /* the right edge */
    assert_int_equal(place(x, OPFOR_E, 10, 0).rule, OPFOR_PLACE_REFUSED_BEHIND);
    pfx_free(x);
    /* Players enter from the left edge, enemy on the right. */
    static const char yaml[] =
        "name: Sideways\nmode: patrol\ntable: {width: 72, depth: 48}\n"
        "sides:\n  - {name: Blue, player: true, edge: left}\n"
        "  - {name: Red, player: false, edge: right}\n"
        "units:\n  - {name: Line, side: Blue, type: infantry, position: [12, 24], facing: E,\n"
        "     figures: [{count: 6, weapons: rifle, skills: leader}]}\n";
    x = pfx_load(yaml);
    opfor_pt_t dot;
    assert_int_equal(opfor_patrol_dot(&x->cfg, &x->ps, &x->fo, &dot), 0);
    NEAR(dot.x, 12.5, 0.001);
    pl = place(x, OPFOR_E, 10, 0);
    assert_int_equal(pl.rule, OPFOR_PLACE_FRONT);
    NEAR(pl.point.x, 22.5, 0.01);
    pl = place(x, OPFOR_N, 10, 0);
    assert_int_equal(pl.rule, OPFOR_PLACE_FLANK);
    NEAR(pl.point.y, 47.0, 0.001);
    assert_int_equal(place(x, OPFOR_W, 10, 0).rule, OPFOR_PLACE_REFUSED_BEHIND);
    assert_int_equal(place(x, OPFOR_NW, 10, 0).rule, OPFOR_PLACE_REFUSED_BEHIND);
    pfx_free(x);
}

static void patrol_place_no_players_and_bad_args(void **state) {
    (void)state;
    pfx_t *x = lone_unit(NULL);
    opfor_patrol_placement_t pl;
    assert_int_equal(opfor_patrol_place(&x->cfg, &x->ps, &x->fo, 8, 10, 0, &pl), OPFOR_EINVAL);
    assert_int_equal(opfor_patrol_place(&x->cfg, &x->ps, &x->fo, OPFOR_N, -1, 0, &pl),
                     OPFOR_EINVAL);
    pfx_kill_unit(x, 0);
    opfor_patrol_init(&x->cfg, &x->ps, &x->fo);
    refused_by(x, OPFOR_N, 10, OPFOR_PLACE_REFUSED_NONE);
    pfx_free(x);
}

/* The built-in scenario: the answers opfor patrol place gives (tests/cli/patrol.sh too). */
static void patrol_place_builtin_all_directions(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    int want[8] = {OPFOR_PLACE_FRONT,          OPFOR_PLACE_FRONT,
                   OPFOR_PLACE_FLANK,          OPFOR_PLACE_REFUSED_BEHIND,
                   OPFOR_PLACE_REFUSED_BEHIND, OPFOR_PLACE_REFUSED_BEHIND,
                   OPFOR_PLACE_FLANK,          OPFOR_PLACE_FRONT};
    for (int d = 0; d < 8; d++) {
        opfor_patrol_placement_t pl = place(x, d, 14, 0);
        assert_int_equal(pl.rule, want[d]);
        assert_int_equal(pl.placed, want[d] <= OPFOR_PLACE_BEHIND);
        if (pl.placed)
            assert_false(opfor_patrol_controlled(&x->cfg, &x->ps, pl.point));
    }
    pfx_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(patrol_place_rule_refused),
        cmocka_unit_test(patrol_place_dot_is_front_of_line),
        cmocka_unit_test(patrol_place_front_directions),
        cmocka_unit_test(patrol_place_flank_directions),
        cmocka_unit_test(patrol_place_behind_refused),
        cmocka_unit_test(patrol_place_back_diagonal_on_flank),
        cmocka_unit_test(patrol_place_off_table_ahead),
        cmocka_unit_test(patrol_place_gap_joins_line),
        cmocka_unit_test(patrol_place_hiding_terrain),
        cmocka_unit_test(patrol_place_territory_held),
        cmocka_unit_test(patrol_place_keeps_ground_passed),
        cmocka_unit_test(patrol_place_avoids_impassable_and_buildings),
        cmocka_unit_test(patrol_place_behind_allowed),
        cmocka_unit_test(patrol_place_other_norths_and_edges),
        cmocka_unit_test(patrol_place_no_players_and_bad_args),
        cmocka_unit_test(patrol_place_builtin_all_directions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
