/* tests/rulesets/test_engine_move_result.c — the engine's own answer about a move
 * (opfor_vk_query_move_result) and a move resolved with the table's die
 * (opfor_vk_apply_move_roll).
 *
 * The query runs the apply's movement on a copy with the d3 given: its end point must be
 * exactly where opfor_vk_apply_move_roll puts the unit with that die, and why it stopped
 * must name what stopped it (allowance, ground, another unit, the table edge).
 */
#include "rulesets/vk_fixture.h"

#include "opfor/viktoria/engine_query.h"

/* One soldier (mounted with riders) of side 0 at p heading east; an enemy far away. */
static opfor_vk_ctx_t *lone(opfor_scenario_t *sc, opfor_pt_t p, unsigned ff) {
    fx_unit(sc, "Walker", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 1, p, opfor_pt(1, 0), 0,
            OPFOR_W_RIFLE, ff);
    fx_foot(sc, "Far", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(46, 46), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(p.x, p.y + 4));
    return fx_ctx(sc, NULL);
}

static opfor_vk_action_t move_to(int kind, opfor_pt_t dest) {
    opfor_vk_action_t a = fx_act(kind, 0);
    a.dest = dest;
    return a;
}

static int near(float a, float b) {
    return fabsf(a - b) < 0.01f;
}

/* The query's end point and distance are those of the move resolved with the same die, for
 * every die and many positions; the state it was asked about is untouched. */
static void move_result_is_the_apply_with_that_die(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_rect(sc, OPFOR_TK_ROUGH, 14, 10, 20, 30);
    fx_rect(sc, OPFOR_TK_IMPASSABLE, 26, 0, 30, 18);
    opfor_vk_ctx_t *ctx = lone(sc, opfor_pt(6, 20), 0);
    opfor_pt_t dests[] = {opfor_pt(40, 20), opfor_pt(8, 21), opfor_pt(30, 8), opfor_pt(-10, 20),
                          opfor_pt(16, 40)};
    int kinds[] = {OPFOR_VK_ADVANCE, OPFOR_VK_RUN, OPFOR_VK_CRAWL};
    for (int s = 0; s < 4; s++)
        for (size_t di = 0; di < sizeof dests / sizeof dests[0]; di++)
            for (int ki = 0; ki < 3; ki++)
                for (int d3 = 1; d3 <= 3; d3++) {
                    opfor_vk_state_t st, before, after;
                    fx_start(ctx, &st, (uint64_t)s, 0);
                    before = st;
                    opfor_vk_action_t a = move_to(kinds[ki], dests[di]);
                    opfor_vk_move_result_t r;
                    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, d3, &r), 0);
                    assert_memory_equal(&st, &before, sizeof st);
                    after = st;
                    assert_int_equal(opfor_vk_apply_move_roll(ctx, &after, &a, d3, NULL), 0);
                    opfor_vk_ugeo_t g;
                    opfor_vk_query_geo(&after, 0, &g);
                    assert_true(near(r.to.x, g.c.x) && near(r.to.y, g.c.y));
                    assert_true(near(r.moved, opfor_dist(r.from, r.to)));
                    /* the die rolled by the engine gives the same move as that die given */
                    opfor_vk_state_t rolled = st;
                    assert_int_equal(opfor_vk_apply(ctx, &rolled, &a, NULL), 0);
                    opfor_vk_ugeo_t g2;
                    opfor_vk_query_geo(&rolled, 0, &g2);
                    for (int k = 1; k <= 3; k++) {
                        opfor_vk_move_result_t rk;
                        assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, k, &rk), 0);
                        if (near(rk.to.x, g2.c.x) && near(rk.to.y, g2.c.y))
                            break;
                        assert_true(k < 3); /* some die explains the rolled move */
                    }
                    /* opfor_vk_apply_move with d3 0 is opfor_vk_apply, bit for bit, and says
                       what it did: the die it rolled, and that die's move result */
                    opfor_vk_state_t told = st;
                    opfor_vk_move_result_t rt;
                    assert_int_equal(opfor_vk_apply_move(ctx, &told, &a, 0, NULL, &rt), 0);
                    assert_memory_equal(&told, &rolled, sizeof told);
                    assert_true(rt.d3 >= 1 && rt.d3 <= 3);
                    opfor_vk_move_result_t rq;
                    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, rt.d3, &rq), 0);
                    assert_memory_equal(&rt, &rq, sizeof rt);
                }
    fx_done(ctx, sc);
}

static void move_result_says_why_it_stops(void **state) {
    (void)state;
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    int x = m.move.foot[OPFOR_VK_MOVE_ADVANCE][OPFOR_Q_SOLDIER];
    opfor_scenario_t *sc = fx_new(48, 48);
    int house = fx_rect(sc, OPFOR_TK_BUILDING, 10, 10, 20, 30);
    opfor_vk_ctx_t *ctx = lone(sc, opfor_pt(6, 20), 0);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, 0);
    opfor_vk_move_result_t r;
    /* open ground, far: the allowance (X + d3) */
    opfor_vk_action_t a = move_to(OPFOR_VK_ADVANCE, opfor_pt(6, 1));
    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, 2, &r), 0);
    assert_int_equal(r.why, OPFOR_VK_STOP_ALLOWANCE);
    assert_true(near(r.allowance, (float)(x + 2)));
    assert_true(near(r.moved, (float)(x + 2)));
    /* near: arrived */
    a = move_to(OPFOR_VK_ADVANCE, opfor_pt(6, 18));
    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, 3, &r), 0);
    assert_int_equal(r.why, OPFOR_VK_STOP_ARRIVED);
    assert_true(near(r.to.y, 18.0f));
    /* the table edge */
    a = move_to(OPFOR_VK_RUN, opfor_pt(-20, 20));
    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, 3, &r), 0);
    assert_int_equal(r.why, OPFOR_VK_STOP_EDGE);
    assert_true(r.to.x < 0.6f);
    fx_done(ctx, sc);

    /* a rider at a farmhouse: the ground, naming the building */
    sc = fx_new(48, 48);
    house = fx_rect(sc, OPFOR_TK_BUILDING, 10, 10, 20, 30);
    ctx = lone(sc, opfor_pt(6, 20), OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    fx_start(ctx, &st, 1, 0);
    a = move_to(OPFOR_VK_RUN, opfor_pt(40, 20));
    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, 3, &r), 0);
    assert_int_equal(r.why, OPFOR_VK_STOP_GROUND);
    assert_int_equal(r.feature, house);
    assert_true(r.to.x <= 10.0f);
    fx_done(ctx, sc);

    /* another unit's bases: names the unit */
    sc = fx_new(48, 48);
    fx_unit(sc, "Walker", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 1, opfor_pt(6, 20), opfor_pt(1, 0),
            0, OPFOR_W_RIFLE, 0);
    fx_unit(sc, "Block", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 1, opfor_pt(7.05f, 20),
            opfor_pt(-1, 0), 0, OPFOR_W_RIFLE, 0);
    fx_foot(sc, "Far", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(46, 46), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(6, 24));
    ctx = fx_ctx(sc, NULL);
    fx_start(ctx, &st, 1, 0);
    a = move_to(OPFOR_VK_ADVANCE, opfor_pt(40, 20));
    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, 3, &r), 0);
    assert_int_equal(r.why, OPFOR_VK_STOP_UNIT);
    assert_int_equal(r.unit, 1);
    assert_true(r.moved < 0.25f); /* bases touching already: it goes nowhere */
    fx_done(ctx, sc);
}

static void move_result_refuses_what_is_not_a_move(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    opfor_vk_ctx_t *ctx = lone(sc, opfor_pt(6, 20), 0);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, 0);
    opfor_vk_action_t a = move_to(OPFOR_VK_ADVANCE, opfor_pt(20, 20));
    opfor_vk_move_result_t r;
    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, 0, &r), OPFOR_EINVAL);
    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, 4, &r), OPFOR_EINVAL);
    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &a, 2, NULL), OPFOR_EINVAL);
    opfor_vk_action_t f = fx_aim(OPFOR_VK_FIRE, 0, 1);
    assert_int_equal(opfor_vk_query_move_result(ctx, &st, &f, 2, &r), OPFOR_EINVAL);
    opfor_vk_state_t before = st;
    assert_int_equal(opfor_vk_apply_move_roll(ctx, &st, &a, 0, NULL), OPFOR_EINVAL);
    assert_int_equal(opfor_vk_apply_move_roll(ctx, &st, &a, 4, NULL), OPFOR_EINVAL);
    assert_int_equal(opfor_vk_apply_move_roll(ctx, &st, &f, 2, NULL), OPFOR_EINVAL);
    assert_memory_equal(&st, &before, sizeof st);
    /* not at the action phase */
    st.phase = OPFOR_VK_PH_INITIATIVE;
    assert_int_equal(opfor_vk_apply_move_roll(ctx, &st, &a, 2, NULL), OPFOR_EILLEGAL);
    fx_done(ctx, sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(move_result_is_the_apply_with_that_die),
        cmocka_unit_test(move_result_says_why_it_stops),
        cmocka_unit_test(move_result_refuses_what_is_not_a_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
