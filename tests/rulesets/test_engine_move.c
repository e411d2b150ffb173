/* tests/rulesets/test_engine_move.c — movement (Viktoria! VIII): X plus 1d3 with X from the
 * calculator, rough ground at half (foot) and quarter (mounted) speed, roads cancelling rough,
 * linear obstacles costing an inch, impassable terrain, no moving through figures or into
 * enemy contact, the table edge, coherency, crawling, mounting and limbering, and detours
 * (waypoints) round terrain that blocks a straight move.
 *
 * Distances are checked exactly for each d3 face; face frequencies with a 4-sigma band over
 * fixed seeds.
 */
#include "rulesets/vk_fixture.h"

#include "engine_int.h"

/* One soldier of side 0 at p; an enemy far away so the game is live. Returns the context. */
static opfor_vk_ctx_t *lone(opfor_scenario_t *sc, opfor_pt_t p, unsigned ff) {
    fx_unit(sc, "Walker", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 1, p, opfor_pt(1, 0), 0,
            OPFOR_W_RIFLE, ff);
    fx_foot(sc, "Far", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(46, 46), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(p.x, p.y + 4));
    return fx_ctx(sc, NULL);
}

/* Moves unit 0 of a fresh state toward dest with kind; returns how far figure 0 went. */
static float move_once(const opfor_vk_ctx_t *ctx, uint64_t seed, int kind, opfor_pt_t dest,
                       opfor_vk_state_t *out) {
    opfor_vk_state_t st;
    fx_start(ctx, &st, seed, 0);
    opfor_pt_t p0 = st.figures[0].pos;
    opfor_vk_action_t a = fx_act(kind, 0);
    a.dest = dest;
    assert_int_equal(opfor_vk_apply(ctx, &st, &a, NULL), 0);
    if (out)
        *out = st;
    return opfor_dist(p0, st.figures[0].pos);
}

static int near(float a, float b) {
    return fabsf(a - b) < 0.02f;
}

static void move_open_ground_is_x_plus_d3(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    opfor_vk_ctx_t *ctx = lone(sc, opfor_pt(6, 20), 0);
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    int x = m.move.foot[OPFOR_VK_MOVE_ADVANCE][OPFOR_Q_SOLDIER];
    int runx = m.move.foot[OPFOR_VK_MOVE_RUN][OPFOR_Q_SOLDIER];
    long face[4] = {0};
    const int n = 900;
    for (int s = 0; s < n; s++) {
        float d = move_once(ctx, (uint64_t)s, OPFOR_VK_ADVANCE, opfor_pt(40, 20), NULL);
        int k = (int)(d - (float)x + 0.5f);
        assert_true(k >= 1 && k <= 3);
        assert_true(near(d, (float)(x + k)));
        face[k]++;
    }
    for (int k = 1; k <= 3; k++)
        fx_assert_rate((double)face[k], n, 1.0 / 3.0, 4.0);
    /* running goes further: run X plus 1d3 */
    float d = move_once(ctx, 1, OPFOR_VK_RUN, opfor_pt(40, 20), NULL);
    assert_true(d >= (float)runx + 1 - 0.02f && d <= (float)runx + 3 + 0.02f);
    /* a destination closer than the allowance is reached exactly */
    d = move_once(ctx, 2, OPFOR_VK_ADVANCE, opfor_pt(8, 20), NULL);
    assert_true(near(d, 2.0f));
    fx_done(ctx, sc);
}

static void move_rough_ground_halves_foot_and_quarters_riders(void **state) {
    (void)state;
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    for (int mounted = 0; mounted < 2; mounted++) {
        opfor_scenario_t *sc = fx_new(48, 48);
        fx_rect(sc, OPFOR_TK_ROUGH, 0, 0, 48, 40);
        opfor_vk_ctx_t *ctx =
            lone(sc, opfor_pt(6, 20), mounted ? OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE : 0);
        int x = mounted ? m.move.mounted[OPFOR_VK_MOVE_ADVANCE][OPFOR_Q_SOLDIER]
                        : m.move.foot[OPFOR_VK_MOVE_ADVANCE][OPFOR_Q_SOLDIER];
        float div = mounted ? 4.0f : 2.0f;
        for (int s = 0; s < 60; s++) {
            float d = move_once(ctx, (uint64_t)s, OPFOR_VK_ADVANCE, opfor_pt(40, 20), NULL);
            int ok = 0;
            for (int k = 1; k <= 3; k++)
                ok |= fabsf(d - (float)(x + k) / div) < 0.05f;
            assert_true(ok);
        }
        fx_done(ctx, sc);
    }
}

static void move_road_cancels_rough(void **state) {
    (void)state;
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_rect(sc, OPFOR_TK_ROUGH, 0, 0, 48, 40);
    opfor_pt_t road[2] = {{0, 20}, {48, 20}};
    fx_feature(sc, OPFOR_TK_ROAD, OPFOR_SHAPE_LINE, road, 2, 2.0f);
    opfor_vk_ctx_t *ctx = lone(sc, opfor_pt(6, 20), 0);
    int x = m.move.foot[OPFOR_VK_MOVE_ADVANCE][OPFOR_Q_SOLDIER];
    for (int s = 0; s < 30; s++) {
        float d = move_once(ctx, (uint64_t)s, OPFOR_VK_ADVANCE, opfor_pt(40, 20), NULL);
        assert_true(d >= (float)x + 1 - 0.05f && d <= (float)x + 3 + 0.05f);
    }
    fx_done(ctx, sc);
}

static void move_linear_obstacle_costs_an_inch(void **state) {
    (void)state;
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    opfor_scenario_t *sc = fx_new(48, 48);
    opfor_pt_t wall[2] = {{9, 0}, {9, 40}};
    fx_feature(sc, OPFOR_TK_WALL, OPFOR_SHAPE_LINE, wall, 2, 0.5f);
    opfor_vk_ctx_t *ctx = lone(sc, opfor_pt(6, 20), 0);
    int x = m.move.foot[OPFOR_VK_MOVE_ADVANCE][OPFOR_Q_SOLDIER];
    int seen[4] = {0};
    for (int s = 0; s < 90; s++) {
        float d = move_once(ctx, (uint64_t)s, OPFOR_VK_ADVANCE, opfor_pt(40, 20), NULL);
        int k = (int)(d - (float)(x - 1) + 0.5f);
        assert_true(k >= 1 && k <= 3);
        assert_true(fabsf(d - (float)(x - 1 + k)) < 0.05f);
        seen[k] = 1;
    }
    assert_true(seen[1] && seen[2] && seen[3]);
    fx_done(ctx, sc);
}

static void move_never_enters_impassable_terrain(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_rect(sc, OPFOR_TK_IMPASSABLE, 10, 0, 20, 40);
    opfor_vk_ctx_t *ctx = lone(sc, opfor_pt(6, 20), 0);
    for (int s = 0; s < 30; s++) {
        opfor_vk_state_t st;
        move_once(ctx, (uint64_t)s, OPFOR_VK_RUN, opfor_pt(40, 20), &st);
        assert_true(st.figures[0].pos.x <= 10.0f);
        assert_true(st.figures[0].pos.x > 9.0f); /* it got right up to the edge */
        assert_int_equal(opfor_terrain_impassable_at(&sc->table, st.figures[0].pos, 0), -1);
    }
    /* buildings are closed to riders (VIII) but not to men on foot */
    opfor_scenario_t *sc2 = fx_new(48, 48);
    fx_rect(sc2, OPFOR_TK_BUILDING, 10, 0, 20, 40);
    opfor_vk_ctx_t *ctx2 = lone(sc2, opfor_pt(6, 20), OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    opfor_vk_state_t st;
    move_once(ctx2, 3, OPFOR_VK_RUN, opfor_pt(40, 20), &st);
    assert_true(st.figures[0].pos.x <= 10.0f);
    fx_done(ctx2, sc2);
    fx_done(ctx, sc);
}

static void move_does_not_pass_through_figures(void **state) {
    (void)state;
    for (int enemy = 0; enemy < 2; enemy++) {
        opfor_scenario_t *sc = fx_new(48, 48);
        fx_unit(sc, "Walker", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 1, opfor_pt(6, 20),
                opfor_pt(1, 0), 0, OPFOR_W_RIFLE, 0);
        fx_unit(sc, "Block", enemy, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 1, opfor_pt(11, 20),
                opfor_pt(-1, 0), 0, OPFOR_W_RIFLE, 0);
        fx_foot(sc, "Far", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(46, 46), OPFOR_W_RIFLE);
        fx_general(sc, 0, opfor_pt(6, 24));
        opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
        for (int s = 0; s < 20; s++) {
            opfor_vk_state_t st;
            move_once(ctx, (uint64_t)s, OPFOR_VK_RUN, opfor_pt(40, 20), &st);
            float gap = opfor_dist(st.figures[0].pos, st.figures[1].pos) - 1.0f;
            assert_true(gap >= -0.001f);
            if (enemy)
                assert_true(gap >= 0.2f); /* no contact with the enemy except by a charge */
            else
                assert_true(gap < 0.1f); /* it went right up to its friend */
        }
        fx_done(ctx, sc);
    }
}

static void move_stays_on_the_table(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    opfor_vk_ctx_t *ctx = lone(sc, opfor_pt(3, 20), 0);
    opfor_vk_state_t st;
    move_once(ctx, 1, OPFOR_VK_RUN, opfor_pt(-30, 20), &st);
    assert_true(st.figures[0].pos.x >= 0.5f - 0.001f);
    assert_true(st.figures[0].pos.x < 0.6f);
    fx_done(ctx, sc);
}

static void move_keeps_units_together(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int u = fx_foot(sc, "Line", 0, OPFOR_Q_SOLDIER, 5, opfor_pt(20, 10), OPFOR_W_RIFLE);
    fx_foot(sc, "Far", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(46, 46), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(20, 4));
    /* one man has strayed 6 in to the side */
    fx_fig(sc, u, 4)->pos.x += 6.0f;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, u);
    opfor_pt_t before[5];
    for (int k = 0; k < 5; k++)
        before[k] = st.figures[k].pos;
    opfor_vk_action_t a = fx_act(OPFOR_VK_ADVANCE, u);
    a.dest = opfor_pt(20, 30);
    assert_int_equal(opfor_vk_apply(ctx, &st, &a, NULL), 0);
    /* the formation moved up the table together, every man by the same step */
    opfor_vec_t step = opfor_vsub(st.figures[0].pos, before[0]);
    assert_true(step.y > 4.0f);
    for (int k = 1; k < 4; k++) {
        assert_true(near(st.figures[k].pos.x - before[k].x, step.x));
        assert_true(near(st.figures[k].pos.y - before[k].y, step.y));
    }
    /* the straggler closed up to within 3 in of a fellow (VIII) */
    float best = 1e9f;
    for (int k = 0; k < 4; k++) {
        float g = opfor_dist(st.figures[4].pos, st.figures[k].pos) - 1.0f;
        if (g < best)
            best = g;
    }
    assert_true(best <= 3.0f + 0.01f);
    fx_done(ctx, sc);
}

static void move_crawl_goes_prone_and_dismounts(void **state) {
    (void)state;
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    opfor_scenario_t *sc = fx_new(48, 48);
    opfor_vk_ctx_t *ctx = lone(sc, opfor_pt(6, 20), OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    opfor_vk_state_t st;
    float d = move_once(ctx, 4, OPFOR_VK_CRAWL, opfor_pt(40, 20), &st);
    int x = m.move.foot[OPFOR_VK_MOVE_CRAWL][OPFOR_Q_SOLDIER];
    assert_true(d >= (float)x + 1 - 0.02f && d <= (float)x + 3 + 0.02f);
    assert_true(st.figures[0].flags & OPFOR_FIG_PRONE);
    assert_false(st.figures[0].flags & OPFOR_FIG_MOUNTED);
    assert_true(st.figures[0].flags & OPFOR_FIG_HORSE);
    /* standing up again: an advance clears prone */
    opfor_vk_state_t st2;
    move_once(ctx, 5, OPFOR_VK_ADVANCE, opfor_pt(40, 20), &st2);
    assert_false(st2.figures[0].flags & OPFOR_FIG_PRONE);
    fx_done(ctx, sc);
}

static void move_mount_and_dismount(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int u = fx_unit(sc, "Dragoons", 0, OPFOR_UT_CAVALRY, OPFOR_Q_SOLDIER, 4, opfor_pt(20, 10),
                    opfor_pt(0, 1), 0, OPFOR_W_CARBINE | OPFOR_W_SWORD, OPFOR_FIG_HORSE);
    fx_foot(sc, "Far", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(46, 46), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(20, 4));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, u);
    assert_true(fx_offered(ctx, &st, OPFOR_VK_MOUNT, OPFOR_VK_NONE, NULL) >= 0);
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_DISMOUNT, OPFOR_VK_NONE, NULL), -1);
    opfor_vk_action_t mount = fx_act(OPFOR_VK_MOUNT, u);
    assert_int_equal(opfor_vk_apply(ctx, &st, &mount, NULL), 0);
    for (int k = 0; k < 4; k++) {
        assert_true(st.figures[k].flags & OPFOR_FIG_MOUNTED);
        for (int j = 0; j < k; j++) /* the wider bases do not overlap */
            assert_false(opfor_bases_overlap(st.figures[k].pos, OPFOR_RADIUS_MOUNTED,
                                             st.figures[j].pos, OPFOR_RADIUS_MOUNTED, 0.01f));
    }
    /* next turn: mounted now, so dismount is offered and mount is not */
    fx_again(&st, u);
    assert_true(fx_offered(ctx, &st, OPFOR_VK_DISMOUNT, OPFOR_VK_NONE, NULL) >= 0);
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_MOUNT, OPFOR_VK_NONE, NULL), -1);
    fx_done(ctx, sc);
}

/* The first listed action of kind with all of flags and at point arc; -1 if none. */
static int offered_with(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int kind,
                        unsigned flags, int arc, opfor_vk_action_t *out) {
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (a[i].kind == kind && (a[i].flags & flags) == flags && a[i].arc == arc) {
            *out = a[i];
            return i;
        }
    return -1;
}

/* VIII: riders remount or dismount as part of a move, offered to the planner: mount, then
 * advance (or gallop) at the mounted rate; ride, then dismount where the move ends. Not in a
 * charge, not with a crawl (which dismounts anyway), not both at once. */
static void move_mount_and_dismount_as_part_of_a_move(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int u = fx_unit(sc, "Dragoons", 0, OPFOR_UT_CAVALRY, OPFOR_Q_SOLDIER, 4, opfor_pt(20, 8),
                    opfor_pt(0, 1), 0, OPFOR_W_CARBINE | OPFOR_W_SWORD, OPFOR_FIG_HORSE);
    fx_foot(sc, "Far", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(24, 46), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(20, 3));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 3, u);
    opfor_vk_action_t gallop, adv, bad;
    assert_true(
        offered_with(ctx, &st, OPFOR_VK_RUN, OPFOR_VK_AF_MOUNT, OPFOR_VK_AT_START, &gallop) >= 0);
    assert_true(
        offered_with(ctx, &st, OPFOR_VK_ADVANCE, OPFOR_VK_AF_MOUNT, OPFOR_VK_AT_START, &adv) >= 0);
    /* on foot: nothing to dismount */
    assert_int_equal(
        offered_with(ctx, &st, OPFOR_VK_ADVANCE, OPFOR_VK_AF_DISMOUNT, OPFOR_VK_AT_END, &bad), -1);
    bad = adv;
    bad.kind = OPFOR_VK_CRAWL;
    assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
    bad = adv;
    bad.flags |= OPFOR_VK_AF_DISMOUNT;
    assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
    bad = adv;
    bad.arc = 2;
    assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
    bad = fx_aim(OPFOR_VK_CHARGE, u, 1);
    bad.flags = OPFOR_VK_AF_MOUNT;
    assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
    /* mount, then advance: mounted the whole way (soldiers: 4 + d3 on foot, 9 + d3 mounted) */
    float y0 = st.figures[st.units[u].first].pos.y;
    assert_int_equal(opfor_vk_apply(ctx, &st, &adv, NULL), 0);
    for (int k = 0; k < 4; k++)
        assert_true(st.figures[st.units[u].first + k].flags & OPFOR_FIG_MOUNTED);
    float y1 = st.figures[st.units[u].first].pos.y;
    assert_true(y1 - y0 > 7.5f);
    /* next turn, mounted: ride on, then dismount where the move ends */
    fx_again(&st, u);
    opfor_vk_action_t ride;
    assert_true(offered_with(ctx, &st, OPFOR_VK_ADVANCE, OPFOR_VK_AF_DISMOUNT, OPFOR_VK_AT_END,
                             &ride) >= 0);
    assert_int_equal(
        offered_with(ctx, &st, OPFOR_VK_RUN, OPFOR_VK_AF_MOUNT, OPFOR_VK_AT_START, &bad), -1);
    assert_int_equal(opfor_vk_apply(ctx, &st, &ride, NULL), 0);
    for (int k = 0; k < 4; k++)
        assert_false(st.figures[st.units[u].first + k].flags & OPFOR_FIG_MOUNTED);
    assert_true(st.figures[st.units[u].first].pos.y - y1 > 7.5f);
    fx_done(ctx, sc);
}

static void move_guns_limber_to_move_and_unlimber_to_fire(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int u = fx_unit(sc, "Battery", 0, OPFOR_UT_ARTILLERY, OPFOR_Q_SOLDIER, 3, opfor_pt(20, 10),
                    opfor_pt(0, 1), 0, OPFOR_W_PISTOL, 0);
    opfor_figure_t *gun = fx_fig(sc, u, 1);
    gun->flags |= OPFOR_FIG_EQUIPMENT;
    gun->weapons = OPFOR_W_FIELD_GUN;
    fx_fig(sc, u, 0)->skills |= OPFOR_S_CREW;
    fx_fig(sc, u, 2)->skills |= OPFOR_S_CREW;
    fx_foot(sc, "Target", 1, OPFOR_Q_SOLDIER, 3, opfor_pt(20, 40), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(26, 4));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, u);
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
    /* unlimbered: fires, limbers, may not move (VIII) */
    assert_int_equal(fx_find(a, n, OPFOR_VK_ADVANCE, OPFOR_VK_NONE), -1);
    assert_int_equal(fx_find(a, n, OPFOR_VK_RUN, OPFOR_VK_NONE), -1);
    assert_true(fx_find(a, n, OPFOR_VK_FIRE_ARTILLERY, OPFOR_VK_NONE) >= 0);
    assert_true(fx_find(a, n, OPFOR_VK_LIMBER, OPFOR_VK_NONE) >= 0);
    opfor_vk_action_t adv = fx_act(OPFOR_VK_ADVANCE, u);
    adv.dest = opfor_pt(20, 30);
    assert_int_equal(opfor_vk_apply(ctx, &st, &adv, NULL), OPFOR_EILLEGAL);
    opfor_vk_action_t limber = fx_act(OPFOR_VK_LIMBER, u);
    assert_int_equal(opfor_vk_apply(ctx, &st, &limber, NULL), 0);
    assert_true(st.units[u].flags & OPFOR_UNIT_LIMBERED);
    fx_again(&st, u);
    n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
    /* limbered: moves, unlimbers, may not fire */
    assert_true(fx_find(a, n, OPFOR_VK_ADVANCE, OPFOR_VK_NONE) >= 0);
    assert_true(fx_find(a, n, OPFOR_VK_UNLIMBER, OPFOR_VK_NONE) >= 0);
    assert_int_equal(fx_find(a, n, OPFOR_VK_FIRE_ARTILLERY, OPFOR_VK_NONE), -1);
    /* nor load, even unloaded (VIII: "limbered guns cannot fire or load"): not listed, not
       legal, and not among the unit's kinds */
    opfor_vk_state_t un = st;
    un.units[u].flags &= (uint16_t)~OPFOR_UNIT_LOADED;
    n = opfor_vk_legal(ctx, &un, a, OPFOR_VK_MAX_ACTIONS);
    assert_int_equal(fx_find(a, n, OPFOR_VK_LOAD, OPFOR_VK_NONE), -1);
    opfor_vk_action_t load = fx_act(OPFOR_VK_LOAD, u);
    assert_int_equal(opfor_vk_apply(ctx, &un, &load, NULL), OPFOR_EILLEGAL);
    opfor_vk_action_t unl = fx_act(OPFOR_VK_UNLIMBER, u);
    assert_int_equal(opfor_vk_apply(ctx, &un, &unl, NULL), 0);
    fx_again(&un, u);
    n = opfor_vk_legal(ctx, &un, a, OPFOR_VK_MAX_ACTIONS);
    assert_true(fx_find(a, n, OPFOR_VK_LOAD, OPFOR_VK_NONE) >= 0); /* unlimbered, it loads */
    n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
    opfor_pt_t g0 = st.figures[st.units[u].first + 1].pos;
    assert_int_equal(opfor_vk_apply(ctx, &st, &adv, NULL), 0);
    assert_true(st.figures[st.units[u].first + 1].pos.y > g0.y + 1.0f); /* the gun went along */
    fx_done(ctx, sc);
}

/* Detours (VIII): where a straight move is blocked (impassable ground; a building for riders),
 * the legal list offers a waypoint round the obstacle, reachable in a straight line, and
 * moving by it gets further than running into the obstacle. */
static int find_via(const opfor_vk_action_t *a, int n, int kind, opfor_pt_t dest) {
    for (int i = 0; i < n; i++)
        if (a[i].kind == kind && (a[i].flags & OPFOR_VK_AF_VIA) &&
            opfor_dist(a[i].dest, dest) < 0.01f)
            return i;
    return -1;
}

static void move_detours_round_blocking_terrain(void **state) {
    (void)state;
    static const opfor_pt_t house[4] = {{18, 26}, {30, 26}, {30, 32}, {18, 32}};
    for (int riders = 0; riders < 2; riders++) {
        opfor_scenario_t *sc = fx_new(48, 48);
        fx_unit(sc, riders ? "Hussars" : "Rifles", 0, riders ? OPFOR_UT_CAVALRY : OPFOR_UT_INFANTRY,
                OPFOR_Q_SOLDIER, 3, opfor_pt(24, 20), opfor_pt(0, 1), 0, OPFOR_W_CARBINE,
                riders ? OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE : 0);
        fx_foot(sc, "Far", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(24, 46), OPFOR_W_RIFLE);
        fx_general(sc, 0, opfor_pt(24, 14));
        fx_feature(sc, OPFOR_TK_BUILDING, OPFOR_SHAPE_AREA, house, 4, 0.0f);
        opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
        opfor_vk_state_t st0;
        fx_start(ctx, &st0, 3, 0);
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st0, a, OPFOR_VK_MAX_ACTIONS);
        opfor_pt_t enemy = st0.figures[st0.units[1].first].pos;
        int iv = find_via(a, n, OPFOR_VK_ADVANCE, enemy);
        if (!riders) { /* men on foot go through the house's doors: no detour needed */
            assert_int_equal(iv, -1);
            fx_done(ctx, sc);
            continue;
        }
        assert_true(iv >= 0);
        assert_true(find_via(a, n, OPFOR_VK_RUN, enemy) >= 0);
        assert_false(opfor_poly_seg_intersects(house, 4, opfor_pt(24, 20), a[iv].via));
        assert_false(opfor_poly_contains(house, 4, a[iv].via));
        /* four advances on the enemy: straight on they stop at the wall, by the offered
           detours they get round the house */
        for (int detour = 0; detour < 2; detour++) {
            opfor_vk_state_t st = st0;
            for (int k = 0; k < 4; k++) {
                fx_again(&st, 0);
                st.side = 0;
                n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
                int i = detour ? find_via(a, n, OPFOR_VK_ADVANCE, enemy) : -1;
                opfor_vk_action_t mv = fx_act(OPFOR_VK_ADVANCE, 0);
                mv.dest = enemy;
                if (i >= 0)
                    mv = a[i];
                assert_int_equal(opfor_vk_apply(ctx, &st, &mv, NULL), 0);
                for (int f = 0; f < 3; f++) /* nobody ever stands in the house */
                    assert_false(opfor_poly_contains(house, 4, st.figures[f].pos));
            }
            for (int f = 0; f < 3; f++) {
                if (detour)
                    assert_true(st.figures[f].pos.y > 32.0f);
                else
                    assert_true(st.figures[f].pos.y < 26.0f);
            }
        }
        fx_done(ctx, sc);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(move_open_ground_is_x_plus_d3),
        cmocka_unit_test(move_rough_ground_halves_foot_and_quarters_riders),
        cmocka_unit_test(move_road_cancels_rough),
        cmocka_unit_test(move_linear_obstacle_costs_an_inch),
        cmocka_unit_test(move_never_enters_impassable_terrain),
        cmocka_unit_test(move_does_not_pass_through_figures),
        cmocka_unit_test(move_stays_on_the_table),
        cmocka_unit_test(move_keeps_units_together),
        cmocka_unit_test(move_crawl_goes_prone_and_dismounts),
        cmocka_unit_test(move_mount_and_dismount),
        cmocka_unit_test(move_mount_and_dismount_as_part_of_a_move),
        cmocka_unit_test(move_guns_limber_to_move_and_unlimber_to_fire),
        cmocka_unit_test(move_detours_round_blocking_terrain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
