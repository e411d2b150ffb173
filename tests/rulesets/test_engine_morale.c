/* tests/rulesets/test_engine_morale.c — morale (Viktoria! XI): checks after a figure is
 * killed (not wounded), the general / musician / colours / half-strength check-boxes, Wavering
 * units limited to moving or rallying, rallies that restore or remove, strength after splits
 * and the rear, and colours picked up after fire or captured in melee.
 *
 * Rates are compared with the calculator's check_morale and rally over fixed seeds (4-sigma).
 */
#include "rulesets/vk_fixture.h"

#include "engine_int.h"
#include "opfor/viktoria/calc.h"

static double calc_p(int action, int q, int general, int musician, int colours, int half) {
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    opfor_viktoria_req_t req;
    opfor_viktoria_req_init(&req, action);
    req.v[OPFOR_VK_F_ACTOR] = q;
    req.v[OPFOR_VK_F_GENERAL] = general;
    req.v[OPFOR_VK_F_MUSICIAN] = musician;
    req.v[OPFOR_VK_F_COLOURS] = colours;
    req.v[OPFOR_VK_F_HALF_STRENGTH] = half;
    opfor_viktoria_result_t res;
    assert_int_equal(opfor_viktoria_calc(&m, &req, &res, NULL), 0);
    return opfor_viktoria_result_roll(&res, "pass")->roll.p_rendered;
}

/* Shooter (side 0) and a target unit of n conscripts (side 1), generals far away. */
static opfor_scenario_t *pair(int n) {
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_unit(sc, "Shooter", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 2, opfor_pt(10, 6),
            opfor_pt(0, 1), 0, OPFOR_W_RIFLE, 0);
    fx_unit(sc, "Target", 1, OPFOR_UT_INFANTRY, OPFOR_Q_CONSCRIPT, n, opfor_pt(20, 30),
            opfor_pt(0, -1), 0, OPFOR_W_RIFLE, 0);
    fx_general(sc, 0, opfor_pt(10, 2));
    fx_general(sc, 1, opfor_pt(46, 46));
    return sc;
}

/* Kills (effect 2) or wounds (1) k figures of unit 1 during unit 0's activation, ends the
 * activation, and returns unit 1's status. */
static int after_harm(const opfor_vk_ctx_t *ctx, uint64_t seed, int effect, int k,
                      opfor_vk_state_t *out) {
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, seed);
    fx_activate(ctx, &st, 0);
    for (int i = 0; i < k; i++)
        vk_harm(ctx, &st, st.units[1].first + 1 + i, effect, 0, 0, NULL);
    opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, 0);
    assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);
    if (out)
        *out = st;
    return st.units[1].status;
}

static void morale_checked_after_a_kill_not_a_wound(void **state) {
    (void)state;
    opfor_scenario_t *sc = pair(10);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    double p = calc_p(OPFOR_VK_A_CHECK_MORALE, OPFOR_Q_CONSCRIPT, 0, 0, 0, 0);
    int wavering = 0, wounds_wavering = 0;
    const int n = 3000;
    for (int s = 0; s < n; s++) {
        wavering += after_harm(ctx, (uint64_t)s, 2, 1, NULL) == OPFOR_WAVERING;
        wounds_wavering += after_harm(ctx, (uint64_t)s, 1, 3, NULL) == OPFOR_WAVERING;
    }
    fx_assert_rate(wavering, n, 1.0 - p, 4.0);
    assert_int_equal(wounds_wavering, 0); /* wounds alone never force a check (XI) */
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void morale_half_strength_counts_against_the_original(void **state) {
    (void)state;
    opfor_scenario_t *sc = pair(10);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    double p = calc_p(OPFOR_VK_A_CHECK_MORALE, OPFOR_Q_CONSCRIPT, 0, 0, 0, 1);
    int wavering = 0;
    const int n = 3000;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        wavering += after_harm(ctx, (uint64_t)s, 2, 5, &st) == OPFOR_WAVERING;
        assert_true(vk_half_strength(&st, 1));
    }
    fx_assert_rate(wavering, n, 1.0 - p, 4.0);
    /* four of ten gone is not half */
    opfor_vk_state_t st;
    after_harm(ctx, 1, 2, 4, &st);
    assert_false(vk_half_strength(&st, 1));
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void morale_general_musician_colours_help(void **state) {
    (void)state;
    opfor_scenario_t *sc = pair(10);
    /* the red general stands beside the target; a musician plays; colours are carried */
    sc->figures[sc->units[3].first].pos = opfor_pt(20, 34);
    fx_fig(sc, 1, 2)->skills |= OPFOR_S_COLOURS;
    fx_fig(sc, 1, 3)->skills |= OPFOR_S_MUSICIAN;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    double p = calc_p(OPFOR_VK_A_CHECK_MORALE, OPFOR_Q_CONSCRIPT, 1, 1, 1, 0);
    double p0 = calc_p(OPFOR_VK_A_CHECK_MORALE, OPFOR_Q_CONSCRIPT, 0, 0, 0, 0);
    assert_true(p > p0);
    int wavering = 0;
    const int n = 3000;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        fx_activate(ctx, &st, 0);
        st.figx[st.units[1].first + 3] |= OPFOR_VK_FX_PLAYING; /* it played this turn */
        vk_harm(ctx, &st, st.units[1].first + 5, 2, 0, 0, NULL);
        opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, 0);
        assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);
        wavering += st.units[1].status == OPFOR_WAVERING;
    }
    fx_assert_rate(wavering, n, 1.0 - p, 4.0);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

/* VI, VII, XI: the musician's Play is his Stand, or his Advance when he moves playing; never
 * while running or crawling, nor when he made another action (an attack in a melee). A unit
 * that lay prone and now advances is upright: its musician plays. */
static void morale_musician_plays_as_his_stand_or_advance(void **state) {
    (void)state;
    opfor_scenario_t *sc = pair(6);
    fx_fig(sc, 1, 3)->skills |= OPFOR_S_MUSICIAN;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    const int kinds[5] = {OPFOR_VK_ADVANCE, OPFOR_VK_STAND, OPFOR_VK_RUN, OPFOR_VK_CRAWL,
                          OPFOR_VK_STAND};
    const int plays[5] = {1, 0, 0, 0, 0};
    for (int c = 0; c < 5; c++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, 3);
        fx_activate(ctx, &st, 1);
        int m = st.units[1].first + 3;
        for (int i = st.units[1].first; i < st.units[1].first + st.units[1].count; i++)
            if (c < 4)
                st.figures[i].flags |= OPFOR_FIG_PRONE; /* took cover last turn */
        if (c == 4)
            st.figx[m] |= OPFOR_VK_FX_ATTACKED; /* struck a blow in a melee this turn */
        opfor_vk_action_t a = fx_act(kinds[c], 1);
        a.dest = opfor_pt(20, 38);
        assert_int_equal(opfor_vk_apply(ctx, &st, &a, NULL), 0);
        assert_int_equal((st.figx[m] & OPFOR_VK_FX_PLAYING) != 0, plays[c]);
    }
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void morale_wavering_units_only_move_or_rally(void **state) {
    (void)state;
    opfor_scenario_t *sc = pair(6);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    st.units[1].status = OPFOR_WAVERING;
    fx_activate(ctx, &st, 1);
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
    int rally = 0, moves = 0;
    for (int i = 0; i < n; i++) {
        if (a[i].kind == OPFOR_VK_RALLY)
            rally++;
        else if (a[i].kind == OPFOR_VK_ADVANCE || a[i].kind == OPFOR_VK_RUN ||
                 a[i].kind == OPFOR_VK_CRAWL)
            moves++;
        else
            fail_msg("a Wavering unit was offered %s", opfor_vk_kind_name(a[i].kind));
        assert_false(a[i].flags & OPFOR_VK_AF_FIRE);
    }
    assert_int_equal(rally, 1);
    assert_true(moves > 0);
    opfor_vk_action_t fire = fx_act(OPFOR_VK_FIRE, 1);
    fire.target = 0;
    assert_int_equal(opfor_vk_apply(ctx, &st, &fire, NULL), OPFOR_EILLEGAL);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void morale_rally_restores_or_removes(void **state) {
    (void)state;
    opfor_scenario_t *sc = pair(6);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    double p = calc_p(OPFOR_VK_A_RALLY, OPFOR_Q_CONSCRIPT, 0, 0, 0, 0);
    int solid = 0, removed = 0;
    const int n = 3000;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        st.units[1].status = OPFOR_WAVERING;
        fx_activate(ctx, &st, 1);
        opfor_vk_action_t rally = fx_act(OPFOR_VK_RALLY, 1);
        assert_int_equal(opfor_vk_apply(ctx, &st, &rally, NULL), 0);
        assert_true(st.units[1].flags & OPFOR_UNIT_ACTED); /* rallying is the unit's action */
        if (st.units[1].status == OPFOR_SOLID && opfor_vk_unit_in_play(&st, 1))
            solid++;
        if (!opfor_vk_unit_in_play(&st, 1))
            removed++;
    }
    assert_int_equal(solid + removed, n);
    fx_assert_rate(solid, n, p, 4.0);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void morale_wounded_sent_to_the_rear_lower_strength(void **state) {
    (void)state;
    opfor_scenario_t *sc = pair(6);
    for (int k = 3; k < 6; k++)
        fx_fig(sc, 1, k)->flags |= OPFOR_FIG_WOUNDED;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    fx_activate(ctx, &st, 1);
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
    int k = fx_find(a, n, OPFOR_VK_TO_REAR, OPFOR_VK_NONE);
    assert_true(k >= 0);
    assert_int_equal(opfor_vk_apply(ctx, &st, &a[k], NULL), 0);
    assert_int_equal(opfor_vk_unit_present(&st, 1), 3);
    assert_int_equal(st.units[1].strength, 3); /* not losses: the total is reduced (IX, XI) */
    assert_false(vk_half_strength(&st, 1));
    opfor_vk_ctx_free(ctx);
    free(sc);
}

/* IX: the wounded go to the rear during their unit's action, which the unit then takes; the
 * order is not offered again (nothing left to send), and a unit whose only wounded man is its
 * leader has none to send. */
static void morale_wounded_go_to_the_rear_during_the_units_action(void **state) {
    (void)state;
    opfor_scenario_t *sc = pair(6);
    for (int k = 3; k < 6; k++)
        fx_fig(sc, 1, k)->flags |= OPFOR_FIG_WOUNDED;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    fx_activate(ctx, &st, 1);
    opfor_vk_action_t rear;
    assert_true(fx_offered(ctx, &st, OPFOR_VK_TO_REAR, OPFOR_VK_NONE, &rear) >= 0);
    assert_int_equal(rear.flags, 0);
    assert_int_equal(opfor_vk_apply(ctx, &st, &rear, NULL), 0);
    assert_int_equal(opfor_vk_unit_present(&st, 1), 3);
    /* still the unit's action: it has not acted and may now fire */
    assert_int_equal(st.phase, OPFOR_VK_PH_ACTION);
    assert_int_equal(st.cur, 1);
    assert_false(st.units[1].flags & OPFOR_UNIT_ACTED);
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_TO_REAR, OPFOR_VK_NONE, NULL), -1);
    opfor_vk_action_t again = fx_act(OPFOR_VK_TO_REAR, 1);
    assert_int_equal(opfor_vk_apply(ctx, &st, &again, NULL), OPFOR_EILLEGAL);
    opfor_vk_action_t fire;
    assert_true(fx_offered(ctx, &st, OPFOR_VK_FIRE, 0, &fire) >= 0);
    assert_int_equal(opfor_vk_apply(ctx, &st, &fire, NULL), 0);
    assert_true(st.units[1].flags & OPFOR_UNIT_ACTED);
    /* a wounded leader stays with his men: nothing to send */
    fx_again(&st, 1);
    for (int i = st.units[1].first; i < st.units[1].first + st.units[1].count; i++)
        if (!(st.figures[i].flags & OPFOR_FIG_REAR)) /* (those at the rear stay wounded) */
            st.figures[i].flags &= (uint16_t)~OPFOR_FIG_WOUNDED;
    st.figures[st.units[1].first].flags |= OPFOR_FIG_WOUNDED; /* figure 0: the leader */
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_TO_REAR, OPFOR_VK_NONE, NULL), -1);
    assert_int_equal(opfor_vk_apply(ctx, &st, &again, NULL), OPFOR_EILLEGAL);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void morale_colours_picked_up_or_captured(void **state) {
    (void)state;
    opfor_scenario_t *sc = pair(6);
    fx_fig(sc, 1, 2)->skills |= OPFOR_S_COLOURS;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    int bearer = st.units[1].first + 2;
    vk_harm(ctx, &st, bearer, 2, 0, 0, NULL); /* killed by fire: a friend takes them up */
    int carriers = 0;
    for (int i = 0; i < st.nfigures; i++)
        if ((st.figures[i].flags & OPFOR_FIG_ALIVE) && (st.figures[i].skills & OPFOR_S_COLOURS)) {
            carriers++;
            assert_int_equal(st.figures[i].unit, 1);
        }
    assert_int_equal(carriers, 1);
    assert_int_equal(st.colours_taken[0], 0);
    /* the new bearer falls in melee: captured */
    for (int i = 0; i < st.nfigures; i++)
        if ((st.figures[i].flags & OPFOR_FIG_ALIVE) && (st.figures[i].skills & OPFOR_S_COLOURS))
            vk_harm(ctx, &st, i, 2, 1, 0, NULL);
    assert_int_equal(st.colours_taken[0], 1);
    for (int i = 0; i < st.nfigures; i++)
        if (st.figures[i].flags & OPFOR_FIG_ALIVE)
            assert_false(st.figures[i].skills & OPFOR_S_COLOURS);
    opfor_vk_result_t r;
    opfor_vk_result(ctx, &st, &r);
    assert_int_equal(r.score[0], 1); /* captured colours count */
    opfor_vk_ctx_free(ctx);
    free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(morale_checked_after_a_kill_not_a_wound),
        cmocka_unit_test(morale_half_strength_counts_against_the_original),
        cmocka_unit_test(morale_general_musician_colours_help),
        cmocka_unit_test(morale_musician_plays_as_his_stand_or_advance),
        cmocka_unit_test(morale_wavering_units_only_move_or_rally),
        cmocka_unit_test(morale_rally_restores_or_removes),
        cmocka_unit_test(morale_wounded_sent_to_the_rear_lower_strength),
        cmocka_unit_test(morale_wounded_go_to_the_rear_during_the_units_action),
        cmocka_unit_test(morale_colours_picked_up_or_captured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
