/* tests/rulesets/test_engine_sequencing.c — the turn's state machine (Viktoria! V.A):
 * chance nodes, initiative with ties re-rolled, one activation per unit a turn, the mode hook,
 * illegal actions, and how a game ends (turn limit, a side wiped out).
 *
 * Positions are built in code (vk_fixture.h); distributions use fixed seeds and a 4-sigma
 * band.
 */
#include "rulesets/vk_fixture.h"

#include "engine_int.h"

/* Two infantry units a side, far apart on an open table, generals beside them. */
static opfor_scenario_t *two_a_side(void) {
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_unit(sc, "B1", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 4, opfor_pt(12, 6), opfor_pt(0, 1), 0,
            OPFOR_W_RIFLE, 0);
    fx_unit(sc, "B2", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 4, opfor_pt(36, 6), opfor_pt(0, 1), 0,
            OPFOR_W_RIFLE, 0);
    fx_unit(sc, "R1", 1, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 4, opfor_pt(12, 42), opfor_pt(0, -1),
            0, OPFOR_W_RIFLE, 0);
    fx_unit(sc, "R2", 1, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 4, opfor_pt(36, 42), opfor_pt(0, -1),
            0, OPFOR_W_RIFLE, 0);
    fx_general(sc, 0, opfor_pt(24, 3));
    fx_general(sc, 1, opfor_pt(24, 45));
    return sc;
}

static void engine_state_is_small_and_flat(void **state) {
    (void)state;
    assert_true(sizeof(opfor_vk_state_t) < 8192);
    assert_int_equal(sizeof(opfor_vk_action_t), 24);
    opfor_scenario_t *sc = two_a_side();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t a, b;
    opfor_vk_state_init(ctx, &a, 7);
    memcpy(&b, &a, sizeof a);
    assert_true(opfor_vk_state_hash(&a) == opfor_vk_state_hash(&b));
    assert_int_equal(a.phase, OPFOR_VK_PH_START_TURN);
    assert_int_equal(a.turn, 0);
    assert_int_equal(opfor_vk_current(ctx, &a), OPFOR_VK_CHANCE);
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    assert_int_equal(opfor_vk_legal(ctx, &a, acts, OPFOR_VK_MAX_ACTIONS), 1);
    assert_int_equal(acts[0].kind, OPFOR_VK_ROLL);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void engine_initiative_is_a_fair_chance_node(void **state) {
    (void)state;
    opfor_scenario_t *sc = two_a_side();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int wins[2] = {0, 0};
    const int n = 4000;
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s + 1);
        assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0); /* START_TURN */
        assert_int_equal(st.turn, 1);
        assert_int_equal(st.phase, OPFOR_VK_PH_INITIATIVE);
        assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0); /* initiative */
        assert_int_equal(st.phase, OPFOR_VK_PH_SELECT_UNIT);
        assert_int_equal(opfor_vk_current(ctx, &st), st.side);
        /* the winner rolled higher; ties never stand */
        assert_true(st.init_die[0] != st.init_die[1]);
        assert_int_equal(st.side, st.init_die[0] > st.init_die[1] ? 0 : 1);
        wins[st.side]++;
    }
    fx_assert_rate(wins[0], n, 0.5, 4.0);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

/* Plays random games and checks that each turn every unit in play activates exactly once. */
static void engine_every_unit_acts_once_a_turn(void **state) {
    (void)state;
    opfor_scenario_t *sc = two_a_side();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_rng_t pr;
    opfor_rng_seed(&pr, 3, 3);
    for (int g = 0; g < 50; g++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)g + 100);
        int count[OPFOR_MAX_UNITS] = {0};
        int turn = 0;
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        while (!opfor_vk_is_terminal(ctx, &st)) {
            if (st.turn != turn) {
                /* a new turn: every unit that was in play all through the last one acted once */
                turn = st.turn;
                memset(count, 0, sizeof count);
            }
            int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
            assert_true(n > 0);
            int cur = opfor_vk_current(ctx, &st);
            int i = cur == OPFOR_VK_CHANCE
                        ? 0
                        : opfor_vk_policy_choose(ctx, &st, OPFOR_VK_POLICY_RANDOM, a, n, &pr);
            if (a[i].kind == OPFOR_VK_SELECT_UNIT) {
                count[a[i].unit]++;
                assert_int_equal(count[a[i].unit], 1);
                assert_false(st.units[a[i].unit].flags & OPFOR_UNIT_ACTED);
            }
            int phase = st.phase;
            assert_int_equal(opfor_vk_apply(ctx, &st, &a[i], NULL), 0);
            if (phase == OPFOR_VK_PH_INITIATIVE && st.phase == OPFOR_VK_PH_START_TURN) {
                /* the turn ended: no unit was left ready */
                for (int u = 0; u < st.nunits; u++)
                    if (opfor_vk_unit_in_play(&st, u))
                        assert_true(st.units[u].flags & OPFOR_UNIT_ACTED);
            }
        }
    }
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void engine_side_with_units_left_acts_without_a_roll(void **state) {
    (void)state;
    opfor_scenario_t *sc = two_a_side();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 5);
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0);
    /* side 0 has already moved everything */
    for (int u = 0; u < st.nunits; u++)
        if (st.units[u].side == 0)
            st.units[u].flags |= OPFOR_UNIT_ACTED;
    uint64_t before = st.rng.state;
    assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0);
    assert_int_equal(st.side, 1);
    assert_true(st.rng.state == before); /* no dice were needed */
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static int always_red(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, void *user) {
    int *calls = user;
    (*calls)++;
    return opfor_vk_side_ready(ctx, st, 1) ? 1 : 0;
}

static void engine_mode_hook_decides_who_activates(void **state) {
    (void)state;
    opfor_scenario_t *sc = two_a_side();
    int calls = 0;
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.initiative = always_red;
    opt.initiative_user = &calls;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, &opt);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 9);
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    opfor_vk_apply(ctx, &st, &roll, NULL);
    /* red's three units (two infantry, a general) come first, then blue's */
    for (int k = 0; k < 6; k++) {
        assert_int_equal(st.phase, OPFOR_VK_PH_INITIATIVE);
        assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0);
        assert_int_equal(st.side, k < 3 ? 1 : 0);
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        assert_true(n > 0);
        assert_int_equal(opfor_vk_apply(ctx, &st, &a[0], NULL), 0);
        opfor_vk_settle(ctx, &st, NULL);
        if (st.phase == OPFOR_VK_PH_ACTION) {
            opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, st.cur);
            assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);
        }
    }
    assert_int_equal(calls, 6);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void engine_side_by_side_moves_a_whole_side_first(void **state) {
    (void)state;
    opfor_scenario_t *sc = two_a_side();
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.seq = OPFOR_VK_SEQ_SIDE_BY_SIDE;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, &opt);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 11);
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    opfor_vk_apply(ctx, &st, &roll, NULL);
    int first = st.seq_side, switched = 0, last = first;
    for (int k = 0; k < 6; k++) {
        opfor_vk_apply(ctx, &st, &roll, NULL);
        if (st.side != last)
            switched++;
        last = st.side;
        opfor_vk_action_t sel = fx_act(OPFOR_VK_SELECT_UNIT, 0);
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        sel = a[0];
        opfor_vk_apply(ctx, &st, &sel, NULL);
        opfor_vk_settle(ctx, &st, NULL);
        opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, st.cur);
        assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);
    }
    assert_int_equal(switched, 1); /* three of one side, then three of the other */
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void engine_rejects_actions_out_of_place(void **state) {
    (void)state;
    opfor_scenario_t *sc = two_a_side();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 13);
    uint64_t h = opfor_vk_state_hash(&st);
    opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, 0);
    assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), OPFOR_EILLEGAL); /* a chance node */
    assert_true(opfor_vk_state_hash(&st) == h);
    fx_activate(ctx, &st, 0);
    h = opfor_vk_state_hash(&st);
    opfor_vk_action_t other = fx_act(OPFOR_VK_STAND, 1); /* not the active unit */
    assert_int_equal(opfor_vk_apply(ctx, &st, &other, NULL), OPFOR_EILLEGAL);
    opfor_vk_action_t fire = fx_act(OPFOR_VK_FIRE, 0);
    fire.target = 1; /* a friend */
    assert_int_equal(opfor_vk_apply(ctx, &st, &fire, NULL), OPFOR_EILLEGAL);
    opfor_vk_action_t rally = fx_act(OPFOR_VK_RALLY, 0); /* Solid units do not rally */
    assert_int_equal(opfor_vk_apply(ctx, &st, &rally, NULL), OPFOR_EILLEGAL);
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), OPFOR_EILLEGAL);
    assert_true(opfor_vk_state_hash(&st) == h);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void engine_turn_limit_ends_the_game(void **state) {
    (void)state;
    opfor_scenario_t *sc = two_a_side();
    sc->turn_limit = 2;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 17);
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    while (!opfor_vk_is_terminal(ctx, &st)) {
        int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        assert_true(n > 0);
        int pick = 0;
        for (int i = 0; i < n; i++)
            if (a[i].kind == OPFOR_VK_STAND)
                pick = i;
        assert_int_equal(opfor_vk_apply(ctx, &st, &a[pick], NULL), 0);
    }
    assert_int_equal(st.turn, 2);
    assert_int_equal(opfor_vk_current(ctx, &st), OPFOR_VK_TERMINAL);
    assert_int_equal(opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS), 0);
    opfor_vk_result_t r;
    opfor_vk_result(ctx, &st, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, -1); /* nobody fired, nobody holds anything */
    assert_int_equal(r.killed[0] + r.killed[1], 0);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void engine_side_wiped_out_loses(void **state) {
    (void)state;
    opfor_scenario_t *sc = two_a_side();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 19);
    /* red's two infantry units are gone (the general alone does not hold the field) */
    for (int u = 2; u <= 3; u++)
        for (int i = st.units[u].first; i < st.units[u].first + st.units[u].count; i++)
            st.figures[i].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0);
    assert_true(opfor_vk_is_terminal(ctx, &st));
    opfor_vk_result_t r;
    opfor_vk_result(ctx, &st, &r);
    assert_int_equal(r.winner, 0);
    assert_int_equal(r.units[1], 0);
    assert_int_equal(r.score[0], 2); /* two enemy units destroyed */
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void engine_objectives_score_at_the_end(void **state) {
    (void)state;
    opfor_scenario_t *sc = two_a_side();
    sc->turn_limit = 1;
    sc->nobjectives = 1;
    snprintf(sc->objectives[0].name, sizeof sc->objectives[0].name, "Hill");
    sc->objectives[0].pos = opfor_pt(12, 6);
    sc->objectives[0].radius = 4;
    sc->objectives[0].points = 3;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 23);
    opfor_vk_result_t r;
    opfor_vk_result(ctx, &st, &r);
    assert_false(r.over);
    assert_int_equal(r.score[0], 3); /* B1 stands on it */
    assert_int_equal(r.score[1], 0);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(engine_state_is_small_and_flat),
        cmocka_unit_test(engine_initiative_is_a_fair_chance_node),
        cmocka_unit_test(engine_every_unit_acts_once_a_turn),
        cmocka_unit_test(engine_side_with_units_left_acts_without_a_roll),
        cmocka_unit_test(engine_mode_hook_decides_who_activates),
        cmocka_unit_test(engine_side_by_side_moves_a_whole_side_first),
        cmocka_unit_test(engine_rejects_actions_out_of_place),
        cmocka_unit_test(engine_turn_limit_ends_the_game),
        cmocka_unit_test(engine_side_wiped_out_loses),
        cmocka_unit_test(engine_objectives_score_at_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
