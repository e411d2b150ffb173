/* tests/rulesets/test_engine_special.c — wounds and special rules: medics binding wounds (VI),
 * mesmerism, the test to break it and the mesmerist's control of the figure (XII.B), the
 * start-of-turn weather event (XIII), and the XII options: armour of machines, walkers, and
 * balloons drifting with the wind.
 *
 * Rates use fixed seeds and a 4-sigma band around the calculator's rendered chances.
 */
#include "rulesets/vk_fixture.h"

#include "engine_int.h"
#include "opfor/viktoria/calc.h"

static double roll_p(int action, const char *roll, int field, int v) {
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    opfor_viktoria_req_t req;
    opfor_viktoria_req_init(&req, action);
    if (field >= 0)
        req.v[field] = v;
    opfor_viktoria_result_t res;
    assert_int_equal(opfor_viktoria_calc(&m, &req, &res, NULL), 0);
    return opfor_viktoria_result_roll(&res, roll)->roll.p_rendered;
}

static void special_medics_bind_wounds(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int u = fx_unit(sc, "Aid", 0, OPFOR_UT_INFANTRY, OPFOR_Q_VETERAN, 2, opfor_pt(20, 10),
                    opfor_pt(0, 1), 0, OPFOR_W_PISTOL, 0);
    fx_fig(sc, u, 1)->skills |= OPFOR_S_MEDIC;
    int w = fx_unit(sc, "Hurt", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 2, opfor_pt(20, 14),
                    opfor_pt(0, 1), 0, OPFOR_W_RIFLE, 0);
    fx_fig(sc, w, 1)->flags |= OPFOR_FIG_WOUNDED;
    fx_unit(sc, "Foe", 1, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 1, opfor_pt(44, 44), opfor_pt(0, -1),
            0, OPFOR_W_RIFLE, 0);
    fx_general(sc, 0, opfor_pt(4, 4));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    double p = roll_p(OPFOR_VK_A_HEAL, "heal", OPFOR_VK_F_ACTOR, OPFOR_Q_VETERAN);
    int healed = 0;
    const int n = 3000;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        fx_activate(ctx, &st, u);
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int na = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        int k = fx_find(a, na, OPFOR_VK_HEAL, OPFOR_VK_NONE);
        assert_true(k >= 0);
        assert_int_equal(opfor_vk_apply(ctx, &st, &a[k], NULL), 0);
        int f = st.units[w].first + 1;
        if (!(st.figures[f].flags & OPFOR_FIG_WOUNDED)) {
            healed++;
            assert_true(st.figures[f].flags & OPFOR_FIG_BOUND);
        }
        /* the medic went to the patient (up to 6 in, into contact) */
        float gap = opfor_dist(st.figures[st.units[u].first + 1].pos, st.figures[f].pos) - 1.0f;
        assert_true(gap < 0.1f);
    }
    fx_assert_rate(healed, n, p, 4.0);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

/* A mesmerist (side 0) 4 in from a unit of 3 soldiers (side 1). */
static opfor_scenario_t *mesmer_pair(void) {
    opfor_scenario_t *sc = fx_new(48, 48);
    int m = fx_unit(sc, "Cult", 0, OPFOR_UT_INFANTRY, OPFOR_Q_ELITE, 1, opfor_pt(20, 10),
                    opfor_pt(0, 1), 0, OPFOR_W_PISTOL, 0);
    fx_fig(sc, m, 0)->skills |= OPFOR_S_MESMERIST;
    fx_unit(sc, "Subjects", 1, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 3, opfor_pt(20, 15),
            opfor_pt(0, -1), 0, OPFOR_W_RIFLE, 0);
    fx_general(sc, 0, opfor_pt(4, 4));
    fx_general(sc, 1, opfor_pt(44, 44));
    return sc;
}

static void special_mesmerism_takes_hold_at_the_calculators_rate(void **state) {
    (void)state;
    opfor_scenario_t *sc = mesmer_pair();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    int held = 0;
    const int n = 3000;
    double p = 0;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        fx_activate(ctx, &st, 0);
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int na = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        int k = fx_find(a, na, OPFOR_VK_MESMERIZE, 1);
        assert_true(k >= 0);
        int g = a[k].figure;
        if (s == 0) {
            float gap = opfor_dist(st.figures[0].pos, st.figures[g].pos) - 1.0f;
            opfor_viktoria_req_t req;
            opfor_viktoria_req_init(&req, OPFOR_VK_A_HYPNOTIC_ATTACK);
            req.v[OPFOR_VK_F_ACTOR] = OPFOR_Q_ELITE;
            req.v[OPFOR_VK_F_TARGET] = OPFOR_Q_SOLDIER;
            req.v[OPFOR_VK_F_RANGE] = OPFOR_VK_INCHES;
            req.inches = gap;
            opfor_viktoria_result_t res;
            assert_int_equal(opfor_viktoria_calc(&m, &req, &res, NULL), 0);
            p = opfor_viktoria_result_roll(&res, "mesmerise")->roll.p_rendered;
        }
        assert_int_equal(opfor_vk_apply(ctx, &st, &a[k], NULL), 0);
        held += (st.figures[g].flags & OPFOR_FIG_MESMERIZED) != 0;
    }
    fx_assert_rate(held, n, p, 4.0);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void special_mesmerised_figure_tests_then_obeys(void **state) {
    (void)state;
    opfor_scenario_t *sc = mesmer_pair();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    double p = roll_p(OPFOR_VK_A_TEST_VS_MESMERISM, "break", OPFOR_VK_F_ACTOR, OPFOR_Q_SOLDIER);
    int broke = 0, controlled = 0;
    const int n = 3000;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        int g = st.units[1].first + 2;
        st.figures[g].flags |= OPFOR_FIG_MESMERIZED;
        fx_activate(ctx, &st, 1); /* the test comes before the unit acts */
        if (!(st.figures[g].flags & OPFOR_FIG_MESMERIZED)) {
            broke++;
            continue;
        }
        assert_true(st.figx[g] & OPFOR_VK_FX_CONTROLLED);
        opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, 1);
        assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);
        /* after the rest of the unit, the mesmerist (side 0) directs the figure */
        assert_int_equal(st.phase, OPFOR_VK_PH_CONTROL);
        assert_int_equal(opfor_vk_current(ctx, &st), 0);
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int na = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        int fire_fellows = 0;
        for (int i = 0; i < na; i++) {
            assert_int_equal(a[i].kind, OPFOR_VK_CONTROL);
            assert_int_equal(a[i].figure, g);
            if (a[i].target == 1)
                fire_fellows = 1;
        }
        assert_true(fire_fellows); /* it may turn on its own unit (XII.B) */
        assert_int_equal(opfor_vk_apply(ctx, &st, &a[na - 1], NULL), 0);
        assert_int_equal(st.phase, OPFOR_VK_PH_INITIATIVE);
        assert_true(st.figures[g].flags & OPFOR_FIG_MESMERIZED); /* until it breaks the spell */
        controlled++;
    }
    fx_assert_rate(broke, n, p, 4.0);
    assert_true(controlled > 0);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void special_weather_event_each_turn(void **state) {
    (void)state;
    opfor_scenario_t *sc = mesmer_pair();
    sc->weather.level = 3;
    sc->weather.wind = OPFOR_N;
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.weather_events = 1;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, &opt);
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    opfor_viktoria_req_t req;
    opfor_viktoria_req_init(&req, OPFOR_VK_A_WEATHER_EVENT);
    req.v[OPFOR_VK_F_LEVEL] = 3;
    req.v[OPFOR_VK_F_WIND] = OPFOR_N;
    opfor_viktoria_result_t res;
    assert_int_equal(opfor_viktoria_calc(&m, &req, &res, NULL), 0);
    double pl = opfor_viktoria_result_outcome(&res, "level_changes")->p_rendered;
    double pw = opfor_viktoria_result_outcome(&res, "wind_shifts")->p_rendered;
    int lc = 0, wc = 0;
    const int n = 3000;
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0);
        assert_true(st.level >= 2 && st.level <= 4);
        lc += st.level != 3;
        wc += st.wind != OPFOR_N;
    }
    fx_assert_rate(lc, n, pl, 4.0);
    fx_assert_rate(wc, n, pw, 4.0);
    /* with events off the weather never changes */
    opfor_vk_ctx_t *still = fx_ctx(sc, NULL);
    for (int s = 0; s < 200; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(still, &st, (uint64_t)s);
        assert_int_equal(opfor_vk_apply(still, &st, &roll, NULL), 0);
        assert_int_equal(st.level, 3);
        assert_int_equal(st.wind, OPFOR_N);
    }
    opfor_vk_ctx_free(still);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void special_machines_armour_and_walkers(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int walker = fx_unit(sc, "Tripod", 1, OPFOR_UT_WALKER, OPFOR_Q_ELITE, 1, opfor_pt(24, 30),
                         opfor_pt(0, -1), 0, OPFOR_W_FIELD_GUN, OPFOR_FIG_EQUIPMENT);
    int rifles = fx_unit(sc, "Rifles", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 4, opfor_pt(24, 10),
                         opfor_pt(0, 1), 0, OPFOR_W_RIFLE, 0);
    fx_general(sc, 0, opfor_pt(4, 4));
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.specials = 1;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, &opt);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    assert_int_equal(vk_armour(ctx, &st, walker), OPFOR_COVER_FORT);
    fx_activate(ctx, &st, rifles);
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int na = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
    /* small arms cannot touch a walker (XII.E) */
    assert_int_equal(fx_find(a, na, OPFOR_VK_FIRE, walker), -1);
    /* a kill only staggers it for a turn */
    vk_harm(ctx, &st, st.units[walker].first, 2, 0, 0, NULL);
    assert_true(st.figures[st.units[walker].first].flags & OPFOR_FIG_ALIVE);
    assert_true(st.ux[walker].hesitate > st.turn);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void special_balloons_drift_downwind(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    sc->weather.level = 3;
    sc->weather.wind = OPFOR_W; /* blowing from the west: drift east */
    int b = fx_unit(sc, "Balloon", 0, OPFOR_UT_BALLOON, OPFOR_Q_SOLDIER, 2, opfor_pt(10, 24),
                    opfor_pt(0, 1), 0, OPFOR_W_RIFLE, 0);
    fx_unit(sc, "Foe", 1, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 1, opfor_pt(44, 44), opfor_pt(0, -1),
            0, OPFOR_W_RIFLE, 0);
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.specials = 1;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, &opt);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    float x0 = st.figures[st.units[b].first].pos.x, y0 = st.figures[st.units[b].first].pos.y;
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0);
    assert_int_equal(st.ux[b].altitude, 1);
    assert_true(st.figures[st.units[b].first].pos.x > x0 + 1.0f);
    assert_true(fabsf(st.figures[st.units[b].first].pos.y - y0) < 0.01f);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(special_medics_bind_wounds),
        cmocka_unit_test(special_mesmerism_takes_hold_at_the_calculators_rate),
        cmocka_unit_test(special_mesmerised_figure_tests_then_obeys),
        cmocka_unit_test(special_weather_event_each_turn),
        cmocka_unit_test(special_machines_armour_and_walkers),
        cmocka_unit_test(special_balloons_drift_downwind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
