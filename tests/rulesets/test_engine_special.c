/* tests/rulesets/test_engine_special.c — wounds and special rules: medics binding wounds (VI),
 * mesmerism, the test to break it and the mesmerist's control of the figure (XII.B), the
 * start-of-turn weather event (XIII), and the XII options: armour of machines, walkers (and
 * their three shells a turn), balloons drifting with the wind, dirigibles steering and
 * climbing, balloons climbing.
 *
 * Rates use fixed seeds and a 4-sigma band around the calculator's rendered chances.
 */
#include "rulesets/vk_fixture.h"

#include "rulesets/vk_calc_fixture.h"

#include "engine_int.h"

static double roll_p(int action, const char *roll, int field, int v) {
    opfor_viktoria_req_t req;
    opfor_viktoria_req_init(&req, action);
    if (field >= 0)
        req.v[field] = v;
    return fx_calc_roll(&req, roll);
}

static void special_medics_bind_wounds(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int u = fx_foot(sc, "Aid", 0, OPFOR_Q_VETERAN, 2, opfor_pt(20, 10), OPFOR_W_PISTOL);
    fx_fig(sc, u, 1)->skills |= OPFOR_S_MEDIC;
    int w = fx_foot(sc, "Hurt", 0, OPFOR_Q_SOLDIER, 2, opfor_pt(20, 14), OPFOR_W_RIFLE);
    fx_fig(sc, w, 1)->flags |= OPFOR_FIG_WOUNDED;
    fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(44, 44), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(4, 4));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    double p = roll_p(OPFOR_VK_A_HEAL, "heal", OPFOR_VK_F_ACTOR, OPFOR_Q_VETERAN);
    int healed = 0;
    const int n = 3000;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, (uint64_t)s, u);
        opfor_vk_action_t heal;
        assert_true(fx_offered(ctx, &st, OPFOR_VK_HEAL, OPFOR_VK_NONE, &heal) >= 0);
        assert_int_equal(opfor_vk_apply(ctx, &st, &heal, NULL), 0);
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
    fx_done(ctx, sc);
}

/* VI: the medic must reach contact to roll. A river (impassable) between a medic and a wounded
 * man 4 in away: the heal is offered (he is within 6 in) but the medic never gets there, so the
 * wound is never bound. */
static void special_medic_rolls_only_in_contact(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int u = fx_foot(sc, "Aid", 0, OPFOR_Q_ELITE, 2, opfor_pt(20, 10), OPFOR_W_PISTOL);
    fx_fig(sc, u, 1)->skills |= OPFOR_S_MEDIC;
    int w = fx_foot(sc, "Hurt", 0, OPFOR_Q_SOLDIER, 2, opfor_pt(20, 15), OPFOR_W_RIFLE);
    fx_fig(sc, w, 1)->flags |= OPFOR_FIG_WOUNDED;
    fx_rect(sc, OPFOR_TK_IMPASSABLE, 0, 12, 48, 13);
    fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(44, 44), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(4, 4));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    for (int s = 0; s < 200; s++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, (uint64_t)s, u);
        opfor_vk_action_t heal;
        assert_true(fx_offered(ctx, &st, OPFOR_VK_HEAL, OPFOR_VK_NONE, &heal) >= 0);
        assert_int_equal(opfor_vk_apply(ctx, &st, &heal, NULL), 0);
        int f = st.units[w].first + 1;
        assert_true(st.figures[f].flags & OPFOR_FIG_WOUNDED);
        assert_true(st.figures[st.units[u].first + 1].pos.y < 12.0f); /* stopped at the river */
    }
    fx_done(ctx, sc);
}

/* IX: wounded sent to the rear whose wounds are bound may return to their unit. A medic within
 * 6 in of his own table edge tends a man at the rear (a medic far from it cannot); the man then
 * rejoins his unit during its action, beside a fellow, and the unit's strength rises again. */
static void special_bound_wounded_return_from_the_rear(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int line = fx_foot(sc, "Line", 0, OPFOR_Q_SOLDIER, 4, opfor_pt(20, 20), OPFOR_W_RIFLE);
    fx_fig(sc, line, 2)->flags |= OPFOR_FIG_WOUNDED;
    fx_fig(sc, line, 3)->flags |= OPFOR_FIG_WOUNDED;
    int aid = fx_foot(sc, "Aid", 0, OPFOR_Q_ELITE, 2, opfor_pt(30, 3), OPFOR_W_PISTOL);
    fx_fig(sc, aid, 1)->skills |= OPFOR_S_MEDIC;
    fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(44, 44), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(20, 6));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 7, line);
    opfor_vk_action_t rear = fx_act(OPFOR_VK_TO_REAR, line);
    assert_int_equal(opfor_vk_apply(ctx, &st, &rear, NULL), 0);
    assert_int_equal(opfor_vk_unit_present(&st, line), 2);
    assert_int_equal(st.units[line].strength, 2);
    /* nobody is bound yet: no one may come back */
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_TO_REAR, OPFOR_VK_NONE, NULL), -1);
    opfor_vk_action_t back = fx_act(OPFOR_VK_TO_REAR, line);
    back.flags = OPFOR_VK_AF_RETURN;
    assert_int_equal(opfor_vk_apply(ctx, &st, &back, NULL), OPFOR_EILLEGAL);
    opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, line);
    assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);
    /* a medic far from his edge cannot reach the rear */
    int medic = st.units[aid].first + 1;
    opfor_pt_t at_edge = st.figures[medic].pos;
    st.figures[medic].pos = opfor_pt(30, 30);
    fx_again(&st, aid);
    st.restricted = 0;
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_HEAL, OPFOR_VK_NONE, NULL), -1);
    st.figures[medic].pos = at_edge;
    /* at the edge he tends the men at the rear, one a try, until one is bound */
    int bound = -1;
    for (int t = 0; t < 60 && bound < 0; t++) {
        fx_again(&st, aid);
        st.restricted = 0;
        opfor_vk_action_t heal;
        assert_true(fx_offered(ctx, &st, OPFOR_VK_HEAL, OPFOR_VK_NONE, &heal) >= 0);
        assert_int_equal(opfor_vk_apply(ctx, &st, &heal, NULL), 0);
        for (int k = 2; k < 4; k++) {
            int f = st.units[line].first + k;
            if (!(st.figures[f].flags & OPFOR_FIG_WOUNDED))
                bound = f;
        }
    }
    assert_true(bound >= 0);
    assert_true(st.figures[bound].flags & OPFOR_FIG_REAR); /* bound, still at the rear */
    /* his unit calls him back during its action, then acts */
    fx_again(&st, line);
    st.restricted = 0;
    assert_true(fx_offered(ctx, &st, OPFOR_VK_TO_REAR, OPFOR_VK_NONE, &back) >= 0);
    assert_int_equal(back.flags, OPFOR_VK_AF_RETURN);
    assert_int_equal(opfor_vk_apply(ctx, &st, &back, NULL), 0);
    assert_false(st.figures[bound].flags & OPFOR_FIG_REAR);
    assert_int_equal(opfor_vk_unit_present(&st, line), 3);
    assert_int_equal(st.units[line].strength, 3);
    assert_int_equal(st.phase, OPFOR_VK_PH_ACTION);
    float nearest = 1e9f;
    for (int k = 0; k < 4; k++) {
        int f = st.units[line].first + k;
        if (f == bound || !(st.figures[f].flags & OPFOR_FIG_ALIVE) ||
            (st.figures[f].flags & OPFOR_FIG_REAR))
            continue;
        float d = opfor_dist(st.figures[f].pos, st.figures[bound].pos);
        assert_true(d >= 2 * OPFOR_RADIUS_FOOT); /* no overlap */
        if (d < nearest)
            nearest = d;
    }
    assert_true(nearest - 2 * OPFOR_RADIUS_FOOT <= 3.0f); /* beside a fellow */
    assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);
    assert_true(st.figures[bound].flags & OPFOR_FIG_ACTED); /* he acted with his unit */
    fx_done(ctx, sc);
}

/* A mesmerist (side 0) 4 in from a unit of 3 soldiers (side 1). */
static opfor_scenario_t *mesmer_pair(void) {
    opfor_scenario_t *sc = fx_new(48, 48);
    int m = fx_foot(sc, "Cult", 0, OPFOR_Q_ELITE, 1, opfor_pt(20, 10), OPFOR_W_PISTOL);
    fx_fig(sc, m, 0)->skills |= OPFOR_S_MESMERIST;
    fx_foot(sc, "Subjects", 1, OPFOR_Q_SOLDIER, 3, opfor_pt(20, 15), OPFOR_W_RIFLE);
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(44, 44));
    return sc;
}

static void special_mesmerism_takes_hold_at_the_calculators_rate(void **state) {
    (void)state;
    opfor_scenario_t *sc = mesmer_pair();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int held = 0;
    const int n = 3000;
    double p = 0;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, (uint64_t)s, 0);
        opfor_vk_action_t mes;
        assert_true(fx_offered(ctx, &st, OPFOR_VK_MESMERIZE, 1, &mes) >= 0);
        int g = mes.figure;
        if (s == 0) {
            float gap = opfor_dist(st.figures[0].pos, st.figures[g].pos) - 1.0f;
            opfor_viktoria_req_t req = fx_req_at(OPFOR_VK_A_HYPNOTIC_ATTACK, OPFOR_Q_ELITE, gap);
            req.v[OPFOR_VK_F_TARGET] = OPFOR_Q_SOLDIER;
            p = fx_calc_roll(&req, "mesmerise");
        }
        assert_int_equal(opfor_vk_apply(ctx, &st, &mes, NULL), 0);
        held += (st.figures[g].flags & OPFOR_FIG_MESMERIZED) != 0;
    }
    fx_assert_rate(held, n, p, 4.0);
    fx_done(ctx, sc);
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
    fx_done(ctx, sc);
}

/* XII.B: a controller may make a mesmerised figure harm himself or strike a fellow in base
 * contact, besides firing at his fellows, walking or standing idle: each rolled as a melee
 * blow with his weapon, harming only the one struck. */
static void special_mesmerised_figure_may_strike_fellows_or_itself(void **state) {
    (void)state;
    opfor_scenario_t *sc = mesmer_pair();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int self_harmed = 0, fellow_harmed = 0, tries = 0;
    for (int s = 0; s < 400; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        int g = st.units[1].first + 2, j = st.units[1].first + 1;
        st.figures[g].flags |= OPFOR_FIG_MESMERIZED;
        st.figures[j].pos = opfor_pt(st.figures[g].pos.x + 1.0f, st.figures[g].pos.y);
        fx_activate(ctx, &st, 1);
        if (!(st.figures[g].flags & OPFOR_FIG_MESMERIZED))
            continue;
        opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, 1);
        assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);
        assert_int_equal(st.phase, OPFOR_VK_PH_CONTROL);
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS], self, strike;
        int na = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS), ks = -1, kt = -1;
        for (int i = 0; i < na; i++) {
            if (a[i].flags == OPFOR_VK_AF_SELF)
                ks = i;
            if (a[i].flags == OPFOR_VK_AF_STRIKE && a[i].target == 1)
                kt = i;
        }
        assert_true(ks >= 0);
        assert_true(kt >= 0);
        self = a[ks];
        strike = a[kt];
        /* refused: self-injury aimed at a unit, two orders at once */
        opfor_vk_action_t bad = self;
        bad.target = 1;
        assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
        bad = self;
        bad.flags |= OPFOR_VK_AF_MOVE;
        assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
        opfor_vk_state_t st2 = st;
        unsigned before_j = st.figures[j].flags, before_g = st.figures[g].flags;
        assert_int_equal(opfor_vk_apply(ctx, &st, &self, NULL), 0);
        self_harmed += st.figures[g].flags != before_g;
        assert_int_equal(st.figures[j].flags, before_j); /* only himself */
        assert_int_equal(opfor_vk_apply(ctx, &st2, &strike, NULL), 0);
        fellow_harmed += st2.figures[j].flags != before_j;
        assert_int_equal(st2.figures[g].flags, before_g); /* only the fellow */
        tries++;
    }
    assert_true(tries > 50);
    assert_true(self_harmed > 0 && self_harmed < tries);
    assert_true(fellow_harmed > 0 && fellow_harmed < tries);
    fx_done(ctx, sc);
}

static void special_weather_event_each_turn(void **state) {
    (void)state;
    opfor_scenario_t *sc = mesmer_pair();
    sc->weather.level = 3;
    sc->weather.wind = OPFOR_N;
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 0, 1);
    opfor_viktoria_req_t req;
    opfor_viktoria_req_init(&req, OPFOR_VK_A_WEATHER_EVENT);
    req.v[OPFOR_VK_F_LEVEL] = 3;
    req.v[OPFOR_VK_F_WIND] = OPFOR_N;
    opfor_viktoria_result_t res;
    fx_calc(&req, &res);
    double pl = fx_outcome_p(&res, "level_changes");
    double pw = fx_outcome_p(&res, "wind_shifts");
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
    fx_done(ctx, sc);
}

static void special_machines_armour_and_walkers(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int walker = fx_unit(sc, "Tripod", 1, OPFOR_UT_WALKER, OPFOR_Q_ELITE, 1, opfor_pt(24, 30),
                         opfor_pt(0, -1), 0, OPFOR_W_FIELD_GUN, OPFOR_FIG_EQUIPMENT);
    int rifles = fx_foot(sc, "Rifles", 0, OPFOR_Q_SOLDIER, 4, opfor_pt(24, 10), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(4, 4));
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    assert_int_equal(vk_armour(ctx, &st, walker), OPFOR_COVER_FORT);
    /* a walker moves at transport advance mounted, whatever its move, a run too (XII.E, audit
       row 103) */
    int wf = st.units[walker].first,
        xta = ctx->tab->move_x[VK_MV_ADVANCE][OPFOR_VK_TRANSPORT][1][0][0];
    assert_true(xta > 0);
    assert_int_equal(vk_move_x(ctx, &st, wf, VK_MV_ADVANCE), xta);
    assert_int_equal(vk_move_x(ctx, &st, wf, VK_MV_RUN), xta);
    fx_activate(ctx, &st, rifles);
    /* small arms cannot touch a walker (XII.E) */
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_FIRE, walker, NULL), -1);
    /* a kill only staggers it: it has not acted this turn, so it recovers this turn */
    vk_harm(ctx, &st, st.units[walker].first, 2, 0, 0, NULL);
    assert_true(st.figures[st.units[walker].first].flags & OPFOR_FIG_ALIVE);
    assert_int_equal(st.ux[walker].hesitate, st.turn);
    fx_done(ctx, sc);
}

/* XII.D: all fire from a balloon in the air is moving fire (audit row 101): the same crew with
 * the same dice hits less often aloft than landed. */
static void special_balloon_fire_aloft_is_moving_fire(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    sc->weather.level = 1; /* calm: no drift, no damage */
    int b = fx_unit(sc, "Balloon", 0, OPFOR_UT_BALLOON, OPFOR_Q_SOLDIER, 4, opfor_pt(24, 10),
                    opfor_pt(0, 1), 0, OPFOR_W_RIFLE, 0);
    int foe = fx_foot(sc, "Foe", 1, OPFOR_Q_CIVILIAN, 6, opfor_pt(24, 22), OPFOR_W_RIFLE);
    fx_general(sc, 1, opfor_pt(44, 44));
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
    int lost[2] = {0, 0};
    for (int aloft = 0; aloft < 2; aloft++)
        for (int s = 0; s < 300; s++) {
            opfor_vk_state_t st;
            opfor_vk_state_init(ctx, &st, (uint64_t)s);
            fx_activate(ctx, &st, b);
            st.ux[b].altitude = (uint8_t)aloft; /* landed, or one level up */
            assert_int_equal(vk_fire_aloft(ctx, &st, b), aloft);
            opfor_vk_action_t f = fx_aim(OPFOR_VK_FIRE, b, foe);
            assert_int_equal(opfor_vk_apply(ctx, &st, &f, NULL), 0);
            lost[aloft] += 6 - fx_alive(&st, foe);
        }
    assert_true(lost[0] > 0);
    assert_true(lost[1] < lost[0]);
    fx_done(ctx, sc);
}

/* XII.D (audit row 97): a balloon moves with the wind as its move, when it activates (not at
 * the start of the turn): a steady breeze carries it transport advance mounted (X + d3)
 * downwind; a tethered balloon does not move at all. */
static void special_balloons_drift_downwind(void **state) {
    (void)state;
    for (int tether = 0; tether < 2; tether++) {
        opfor_scenario_t *sc = fx_new(48, 48);
        sc->weather.level = 3;
        sc->weather.wind = OPFOR_W; /* blowing from the west: drift east */
        int b = fx_unit(sc, "Balloon", 0, OPFOR_UT_BALLOON, OPFOR_Q_SOLDIER, 2, opfor_pt(10, 24),
                        opfor_pt(0, 1), 0, OPFOR_W_RIFLE, 0);
        fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(44, 44), OPFOR_W_RIFLE);
        sc->machine[b].tethered = (uint8_t)tether;
        opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
        int x = ctx->tab->move_x[VK_MV_ADVANCE][OPFOR_VK_TRANSPORT][1][0][0];
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, 1);
        float x0 = st.figures[st.units[b].first].pos.x, y0 = st.figures[st.units[b].first].pos.y;
        opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
        assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0);
        assert_int_equal(st.ux[b].altitude, 1);
        /* nothing moves at the start of the turn */
        assert_true(fabsf(st.figures[st.units[b].first].pos.x - x0) < 0.01f);
        st.phase = OPFOR_VK_PH_SELECT_UNIT;
        st.side = 0;
        opfor_vk_action_t sel = fx_act(OPFOR_VK_SELECT_UNIT, b);
        assert_int_equal(opfor_vk_apply(ctx, &st, &sel, NULL), 0);
        float dx = st.figures[st.units[b].first].pos.x - x0;
        if (tether) {
            assert_true(fabsf(dx) < 0.01f);
        } else {
            assert_true(dx > (float)x + 0.99f && dx < (float)x + 3.01f);
        }
        assert_true(fabsf(st.figures[st.units[b].first].pos.y - y0) < 0.01f);
        fx_done(ctx, sc);
    }
}

/* XII.D (audit rows 100, 95, 99): fire at a balloon's envelope, separate from fire at its
 * occupants. The envelope is a Civilian target without cover, Wounded once damaged, with a save;
 * a wound is damage, and the balloon loses a level at once; a kill destroys it. Fire at a craft
 * in the air is one range bracket further out for each altitude level: a rifle at 8 in (short)
 * shoots a balloon at level 1 at the medium bracket. */
static void special_balloon_envelope_is_shot_as_a_civilian(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    sc->weather.level = 1; /* calm: no drift, no wind damage */
    int b = fx_unit(sc, "Balloon", 0, OPFOR_UT_BALLOON, OPFOR_Q_ELITE, 2, opfor_pt(24, 26),
                    opfor_pt(0, -1), 0, OPFOR_W_PISTOL, 0);
    int foe = fx_foot(sc, "Marksman", 1, OPFOR_Q_VETERAN, 1, opfor_pt(24, 17), OPFOR_W_RIFLE);
    fx_general(sc, 1, opfor_pt(44, 44));
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    float gap = vk_nearest_pair(&st, foe, b, NULL, NULL);
    assert_int_equal(opfor_viktoria_bracket_of(&ctx->model, OPFOR_VK_R_RIFLE, gap), OPFOR_VK_SHORT);
    opfor_viktoria_req_t req = fx_req_at(OPFOR_VK_A_FIRE_RIFLE, OPFOR_Q_VETERAN, 0);
    req.v[OPFOR_VK_F_RANGE] = OPFOR_VK_MEDIUM; /* short, one level up */
    req.v[OPFOR_VK_F_TARGET] = OPFOR_Q_CIVILIAN;
    double p_damage = fx_calc_outcome(&req, "wounded"), p_wreck = fx_calc_outcome(&req, "killed");
    req.v[OPFOR_VK_F_TARGET_WOUNDED] = 1;
    double p_wreck_damaged = fx_calc_outcome(&req, "killed");
    const int n = 4000;
    int damaged = 0, wrecked = 0, wrecked2 = 0;
    for (int s = 0; s < n; s++) {
        fx_start(ctx, &st, (uint64_t)s, foe);
        assert_int_equal(st.ux[b].altitude, 1);
        opfor_vk_action_t fire;
        assert_true(fx_offered(ctx, &st, OPFOR_VK_FIRE, b, NULL) >= 0);
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int na = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS), k = -1;
        for (int i = 0; i < na; i++)
            if (a[i].kind == OPFOR_VK_FIRE && a[i].flags == OPFOR_VK_AF_AT_CRAFT &&
                a[i].target == b)
                k = i;
        assert_true(k >= 0); /* offered, at the balloon itself */
        fire = a[k];
        opfor_vk_state_t again = st;
        assert_int_equal(opfor_vk_apply(ctx, &st, &fire, NULL), 0);
        if (st.ux[b].damage < 2) /* the occupants are not hit, unless the balloon falls */
            assert_int_equal(fx_alive(&st, b) - fx_wounded(&st, b), 2);
        if (st.ux[b].damage == 1) {
            damaged++;
            assert_int_equal(st.ux[b].altitude, 0); /* a level lost at once (row 99) */
        } else if (st.ux[b].damage == 2) {
            wrecked++;
        }
        /* once damaged, the envelope counts as Wounded: a wound now destroys it */
        again.ux[b].damage = 1;
        assert_int_equal(opfor_vk_apply(ctx, &again, &fire, NULL), 0);
        wrecked2 += again.ux[b].damage == 2;
    }
    fx_assert_rate(damaged, n, p_damage, 4.0);
    fx_assert_rate(wrecked, n, p_wreck, 4.0);
    fx_assert_rate(wrecked2, n, p_wreck_damaged, 4.0);
    /* a burst on a balloon landed on the ground: its envelope tests once, as a Civilian */
    opfor_viktoria_req_t bq;
    opfor_viktoria_req_init(&bq, OPFOR_VK_A_TEST_VS_BLAST);
    bq.v[OPFOR_VK_F_ACTOR] = OPFOR_Q_CIVILIAN;
    bq.v[OPFOR_VK_F_BLAST] = OPFOR_VK_BLAST_SHELL;
    double p_hurt = 1.0 - fx_calc_outcome(&bq, "unharmed");
    int hurt = 0;
    for (int s = 0; s < n; s++) {
        fx_start(ctx, &st, (uint64_t)s, foe);
        st.ux[b].altitude = 0;
        opfor_pt_t far = opfor_pt(st.figures[st.units[b].first].pos.x + 2.0f,
                                  st.figures[st.units[b].first].pos.y + 2.0f);
        vk_blast(ctx, &st, far, 3.0f, OPFOR_VK_BLAST_SHELL, 1, NULL);
        hurt += st.ux[b].damage > 0;
    }
    fx_assert_rate(hurt, n, p_hurt, 4.0);
    /* a wrecked balloon is no longer a target of its own */
    fx_start(ctx, &st, 1, foe);
    st.ux[b].damage = 2;
    opfor_vk_action_t at = fx_aim(OPFOR_VK_FIRE, foe, b);
    at.flags = OPFOR_VK_AF_AT_CRAFT;
    assert_int_equal(opfor_vk_apply(ctx, &st, &at, NULL), OPFOR_EILLEGAL);
    fx_done(ctx, sc);
}

/* XII.D (audit row 95): fire from a craft in the air goes one range bracket further for each
 * level of altitude: a pistol at 3 in (short) from level 2 shoots at the long bracket, from
 * level 3 it is out of range (and not offered); the calculator's roll for the long bracket,
 * moving fire (from a balloon aloft), is the engine's rate. Bombs from a balloon are measured
 * from the point beneath it, and are not thrown at a craft in the air. */
static void special_balloon_altitude_adds_brackets(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    sc->weather.level = 1;
    int b = fx_unit(sc, "Balloon", 0, OPFOR_UT_BALLOON, OPFOR_Q_ELITE, 1, opfor_pt(24, 20),
                    opfor_pt(0, 1), 0, OPFOR_W_PISTOL | OPFOR_W_BOMBS, 0);
    int foe = fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(24, 24), OPFOR_W_RIFLE);
    int kite = fx_unit(sc, "Kite", 1, OPFOR_UT_BALLOON, OPFOR_Q_SOLDIER, 1, opfor_pt(30, 20),
                       opfor_pt(0, -1), 0, OPFOR_W_RIFLE, 0);
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(44, 44));
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, b);
    float gap = vk_nearest_pair(&st, b, foe, NULL, NULL);
    assert_int_equal(opfor_viktoria_bracket_of(&ctx->model, OPFOR_VK_R_PISTOL, gap),
                     OPFOR_VK_SHORT);
    assert_int_equal(opfor_viktoria_bracket_aloft(&ctx->model, OPFOR_VK_R_PISTOL, gap, 2),
                     OPFOR_VK_LONG);
    assert_int_equal(opfor_viktoria_bracket_aloft(&ctx->model, OPFOR_VK_R_PISTOL, gap, 3),
                     OPFOR_ERANGE);
    assert_int_equal(opfor_viktoria_bracket_aloft(&ctx->model, OPFOR_VK_R_RIFLE, 30.0, 5),
                     OPFOR_VK_LONG); /* a rifle's last bracket has no limit */
    /* bombs: at the foe on the ground within 6 in of the point beneath, never at the kite */
    assert_true(fx_offered(ctx, &st, OPFOR_VK_THROW_BOMB, foe, NULL) >= 0);
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_THROW_BOMB, kite, NULL), -1);
    opfor_vk_action_t at_kite = fx_aim(OPFOR_VK_THROW_BOMB, b, kite);
    opfor_vk_state_t tmp = st;
    assert_int_equal(opfor_vk_apply(ctx, &tmp, &at_kite, NULL), OPFOR_EILLEGAL);
    for (int s = 0; s < 200; s++) { /* its own bomb never hurts the balloon above */
        tmp = st;
        opfor_rng_seed(&tmp.rng, (uint64_t)s, 9);
        opfor_vk_action_t drop = fx_aim(OPFOR_VK_THROW_BOMB, b, foe);
        assert_int_equal(opfor_vk_apply(ctx, &tmp, &drop, NULL), 0);
        assert_int_equal(fx_alive(&tmp, b) - fx_wounded(&tmp, b), 1);
    }
    /* level 3: out of pistol range, not offered, refused */
    st.ux[b].altitude = 3;
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_FIRE, foe, NULL), -1);
    opfor_vk_action_t fire = fx_aim(OPFOR_VK_FIRE, b, foe);
    tmp = st;
    assert_int_equal(opfor_vk_apply(ctx, &tmp, &fire, NULL), OPFOR_EILLEGAL);
    /* level 2: the long bracket */
    st.ux[b].altitude = 2;
    assert_true(fx_offered(ctx, &st, OPFOR_VK_FIRE, foe, NULL) >= 0);
    opfor_viktoria_req_t req = fx_req_at(OPFOR_VK_A_FIRE_PISTOL, OPFOR_Q_ELITE, 0);
    req.v[OPFOR_VK_F_RANGE] = OPFOR_VK_LONG;
    req.v[OPFOR_VK_F_MOVING] = 1;
    double p = 1.0 - fx_calc_outcome(&req, "unharmed");
    const int n = 4000;
    int hurt = 0;
    for (int s = 0; s < n; s++) {
        tmp = st;
        opfor_rng_seed(&tmp.rng, (uint64_t)s, 13);
        assert_int_equal(opfor_vk_apply(ctx, &tmp, &fire, NULL), 0);
        hurt += fx_alive(&tmp, foe) == 0 || fx_wounded(&tmp, foe) > 0;
    }
    fx_assert_rate(hurt, n, p, 4.0);
    fx_done(ctx, sc);
}

/* XII.D: dirigibles are fired on as balloons, unless the scenario gives one a hardened shell:
 * its envelope is then targeted at that quality (here veteran), still Wounded once damaged. */
static void special_dirigible_shell_is_targeted_at_its_quality(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    sc->weather.level = 1;
    int d = fx_unit(sc, "Airship", 0, OPFOR_UT_DIRIGIBLE, OPFOR_Q_ELITE, 2, opfor_pt(24, 26),
                    opfor_pt(0, -1), 0, OPFOR_W_PISTOL, 0);
    int foe = fx_foot(sc, "Marksman", 1, OPFOR_Q_VETERAN, 1, opfor_pt(24, 17), OPFOR_W_RIFLE);
    fx_general(sc, 1, opfor_pt(44, 44));
    sc->machine[d].shell = 1 + OPFOR_Q_VETERAN;
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
    assert_int_equal(opfor_vk_query_envelope_class(ctx, NULL, d), -1);
    opfor_viktoria_req_t req = fx_req_at(OPFOR_VK_A_FIRE_RIFLE, OPFOR_Q_VETERAN, 0);
    req.v[OPFOR_VK_F_RANGE] = OPFOR_VK_SHORT;
    req.v[OPFOR_VK_F_ALTITUDE] = 1; /* one level up: medium */
    req.v[OPFOR_VK_F_TARGET] = OPFOR_Q_VETERAN;
    double p_damage = fx_calc_outcome(&req, "wounded");
    const int n = 4000;
    int damaged = 0;
    opfor_vk_action_t fire = fx_aim(OPFOR_VK_FIRE, foe, d);
    fire.flags = OPFOR_VK_AF_AT_CRAFT;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, (uint64_t)s, foe);
        if (s == 0) {
            assert_int_equal(opfor_vk_query_envelope_class(ctx, &st, d), OPFOR_Q_VETERAN);
            float gap = vk_nearest_pair(&st, foe, d, NULL, NULL);
            assert_int_equal(opfor_viktoria_bracket_of(&ctx->model, OPFOR_VK_R_RIFLE, gap),
                             OPFOR_VK_SHORT);
        }
        assert_int_equal(opfor_vk_apply(ctx, &st, &fire, NULL), 0);
        damaged += st.ux[d].damage == 1;
    }
    fx_assert_rate(damaged, n, p_damage, 4.0);
    fx_done(ctx, sc);
}

/* XII.D (audit row 100): the occupants of a balloon drifting in a steady breeze or more are
 * running targets; a tethered balloon does not drift, and its occupants do not run. */
static void special_balloon_occupants_run_in_a_breeze(void **state) {
    (void)state;
    int hits[3] = {0, 0, 0};
    for (int c = 0; c < 3; c++) {
        opfor_scenario_t *sc = fx_new(48, 48);
        sc->weather.level = 1; /* calm at the start of the turn: nobody drifts */
        int b = fx_unit(sc, "Balloon", 0, OPFOR_UT_BALLOON, OPFOR_Q_SOLDIER, 6, opfor_pt(24, 26),
                        opfor_pt(0, -1), 0, OPFOR_W_PISTOL, 0);
        int foe = fx_foot(sc, "Rifles", 1, OPFOR_Q_VETERAN, 6, opfor_pt(24, 17), OPFOR_W_RIFLE);
        fx_general(sc, 1, opfor_pt(44, 44));
        sc->machine[b].tethered = c == 2;
        opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
        for (int s = 0; s < 600; s++) {
            opfor_vk_state_t st;
            fx_start(ctx, &st, (uint64_t)s, foe);
            st.level = c == 0 ? 1 : 3; /* then the wind freshens to a steady breeze */
            opfor_vk_action_t fire = fx_aim(OPFOR_VK_FIRE, foe, b);
            assert_int_equal(opfor_vk_apply(ctx, &st, &fire, NULL), 0);
            hits[c] += 6 - fx_alive(&st, b) + fx_wounded(&st, b);
        }
        fx_done(ctx, sc);
    }
    assert_true(hits[1] < hits[0] * 0.85);
    assert_true(hits[2] > hits[1] * 1.1); /* tethered: not running */
}

/* XII.D (audit row 99): a balloon the wind damages loses a level at once, and another at the
 * start of each later turn. */
static void special_balloon_damaged_sinks_at_once(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(200, 200);
    sc->weather.level = 4; /* high winds */
    sc->weather.wind = OPFOR_W;
    int b = fx_unit(sc, "Balloon", 0, OPFOR_UT_BALLOON, OPFOR_Q_SOLDIER, 2, opfor_pt(20, 100),
                    opfor_pt(0, 1), 0, OPFOR_W_RIFLE, 0);
    fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(190, 190), OPFOR_W_RIFLE);
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
    int seen = 0;
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    for (uint64_t s = 1; s <= 200; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, s);
        assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0); /* turn 1 */
        if (st.ux[b].damage != 1)
            continue;
        seen++;
        assert_int_equal(st.ux[b].altitude, 0); /* aloft at level 1, down at once */
        /* at level 3 and damaged: down a level at the start of the next turn */
        st.ux[b].altitude = 3;
        st.level = 1;
        st.phase = OPFOR_VK_PH_START_TURN;
        assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0);
        assert_int_equal(st.ux[b].altitude, 2);
    }
    assert_true(seen > 10);
    fx_done(ctx, sc);
}

/* Walkers (XII.E) under the XII options: three shots a turn, each resolved as artillery
 * fire, in any direction, served by the walker itself (no crew, no loading, no limbering: it
 * walks); a staggered walker may not fire. */
static int count_of(const char *s, const char *w) {
    int n = 0;
    for (const char *p = strstr(s, w); p; p = strstr(p + 1, w))
        n++;
    return n;
}

static void special_walker_fires_three_shells(void **state) {
    (void)state;
    for (int specials = 0; specials < 2; specials++) {
        opfor_scenario_t *sc = fx_new(48, 48);
        int walker = fx_unit(sc, "Tripod", 1, OPFOR_UT_WALKER, OPFOR_Q_ELITE, 1, opfor_pt(24, 30),
                             opfor_pt(0, -1), 0, OPFOR_W_FIELD_GUN, OPFOR_FIG_EQUIPMENT);
        int rifles = fx_foot(sc, "Rifles", 0, OPFOR_Q_SOLDIER, 8, opfor_pt(24, 10), OPFOR_W_RIFLE);
        fx_general(sc, 0, opfor_pt(4, 4));
        opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, specials, 0);
        opfor_vk_state_t st;
        fx_start(ctx, &st, 4, walker);
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        int k = fx_find(a, n, OPFOR_VK_FIRE_ARTILLERY, rifles);
        if (!specials) { /* without the XII options a crewless gun does not fire */
            assert_int_equal(k, -1);
            fx_done(ctx, sc);
            continue;
        }
        assert_true(k >= 0);
        assert_true(fx_find(a, n, OPFOR_VK_ADVANCE, OPFOR_VK_NONE) >= 0); /* it walks */
        assert_int_equal(fx_find(a, n, OPFOR_VK_LIMBER, OPFOR_VK_NONE), -1);
        assert_int_equal(fx_find(a, n, OPFOR_VK_UNLIMBER, OPFOR_VK_NONE), -1);
        opfor_vk_state_t staggered = st;
        char buf[2048];
        opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
        buf[0] = 0;
        assert_int_equal(opfor_vk_apply(ctx, &st, &a[k], &ev), 0);
        assert_int_equal(count_of(buf, "shell"), 3);
        /* next turn it fires again, with no loading in between */
        fx_again(&st, walker);
        st.side = 1;
        n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        assert_true(fx_find(a, n, OPFOR_VK_FIRE_ARTILLERY, OPFOR_VK_NONE) >= 0);
        /* a staggered walker only recovers (in the turn it recovers in) */
        staggered.ux[walker].hesitate = (uint8_t)staggered.turn;
        n = opfor_vk_legal(ctx, &staggered, a, OPFOR_VK_MAX_ACTIONS);
        assert_int_equal(fx_find(a, n, OPFOR_VK_FIRE_ARTILLERY, OPFOR_VK_NONE), -1);
        fx_done(ctx, sc);
    }
}

/* XII.E (audit row 105): a kill makes a walker hesitate for a turn: its next activation is a
 * recovery (no move, no fire). Hit before it acts, it recovers this turn and fires again the
 * next; hit after it acted, it recovers next turn and fires again the turn after. */
static void special_walker_hesitates_for_one_activation(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int walker = fx_unit(sc, "Tripod", 1, OPFOR_UT_WALKER, OPFOR_Q_ELITE, 1, opfor_pt(24, 30),
                         opfor_pt(0, -1), 0, OPFOR_W_FIELD_GUN, OPFOR_FIG_EQUIPMENT);
    int rifles = fx_foot(sc, "Rifles", 0, OPFOR_Q_SOLDIER, 8, opfor_pt(24, 10), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(4, 4));
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
    for (int acted = 0; acted < 2; acted++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, 7, rifles);
        if (acted)
            st.units[walker].flags |= OPFOR_UNIT_ACTED;
        vk_harm(ctx, &st, st.units[walker].first, 2, 0, 0, NULL); /* a kill, during turn 1 */
        int turn = st.turn;
        /* the turn it recovers in: nothing but recovering */
        fx_again(&st, walker);
        st.turn = (uint16_t)(turn + acted);
        st.side = 1;
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        assert_true(n > 0);
        for (int i = 0; i < n; i++)
            assert_int_equal(a[i].kind, OPFOR_VK_STAND);
        /* the turn after: it walks and fires again */
        st.turn++;
        n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        assert_true(fx_find(a, n, OPFOR_VK_FIRE_ARTILLERY, OPFOR_VK_NONE) >= 0);
        assert_true(fx_find(a, n, OPFOR_VK_ADVANCE, OPFOR_VK_NONE) >= 0);
    }
    fx_done(ctx, sc);
}

/* XII.E (audit row 104): a walker's three shots go "in any direction": one action may split
 * them between aim points, one at dest, one at via, one at a figure's place, each resolved as
 * artillery fire on its own; a gun that is not a walker's has one aim point. */
static void special_walker_splits_its_three_shells(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(60, 48);
    int walker = fx_unit(sc, "Tripod", 1, OPFOR_UT_WALKER, OPFOR_Q_ELITE, 1, opfor_pt(30, 34),
                         opfor_pt(0, -1), 0, OPFOR_W_FIELD_GUN, OPFOR_FIG_EQUIPMENT);
    int a = fx_foot(sc, "Left", 0, OPFOR_Q_SOLDIER, 3, opfor_pt(12, 14), OPFOR_W_RIFLE);
    int b = fx_foot(sc, "Middle", 0, OPFOR_Q_SOLDIER, 3, opfor_pt(30, 12), OPFOR_W_RIFLE);
    int c = fx_foot(sc, "Right", 0, OPFOR_Q_SOLDIER, 3, opfor_pt(48, 14), OPFOR_W_RIFLE);
    int gun = fx_unit(sc, "Battery", 1, OPFOR_UT_ARTILLERY, OPFOR_Q_SOLDIER, 3, opfor_pt(50, 40),
                      opfor_pt(0, -1), 0, OPFOR_W_RIFLE, 0);
    fx_fig(sc, gun, 0)->flags |= OPFOR_FIG_EQUIPMENT;
    fx_fig(sc, gun, 0)->weapons = OPFOR_W_FIELD_GUN;
    fx_general(sc, 0, opfor_pt(4, 4));
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 2, walker);
    opfor_vk_action_t l[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, &st, l, OPFOR_VK_MAX_ACTIONS), k = -1;
    for (int i = 0; i < n; i++)
        if (l[i].kind == OPFOR_VK_FIRE_ARTILLERY && (l[i].flags & OPFOR_VK_AF_VIA) &&
            l[i].figure != OPFOR_VK_NO_FIGURE)
            k = i;
    assert_true(k >= 0); /* offered: the shots split between three units */
    opfor_vk_action_t split = l[k];
    /* three different units aimed at */
    int units[3] = {split.target, -1, st.figures[split.figure].unit};
    for (int u = 0; u < st.nunits; u++) {
        vk_ugeo_t g;
        vk_unit_geo(&st, u, &g);
        if (opfor_dist(g.c, split.via) < 0.01f)
            units[1] = u;
    }
    assert_true(units[0] != units[1] && units[1] != units[2] && units[0] != units[2]);
    for (int i = 0; i < 3; i++)
        assert_true(units[i] == a || units[i] == b || units[i] == c);
    opfor_pt_t aims[3] = {split.dest, split.via, st.figures[split.figure].pos};
    int on[3] = {0, 0, 0};
    for (int s = 0; s < 200; s++) {
        opfor_vk_state_t t = st;
        opfor_rng_seed(&t.rng, (uint64_t)s, 21);
        char buf[4096];
        opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
        buf[0] = 0;
        assert_int_equal(opfor_vk_apply(ctx, &t, &split, &ev), 0);
        /* each shell that lands on target bursts on its own aim point */
        const char *p = buf;
        for (int shot = 0; shot < 3; shot++) {
            const char *sh = strstr(p, "shell");
            assert_non_null(sh);
            const char *bl = strstr(sh, "blast of 3 in at (");
            assert_non_null(bl);
            float x, y;
            assert_int_equal(sscanf(bl, "blast of 3 in at (%f, %f)", &x, &y), 2);
            if (strncmp(sh, "shell lands on target", 21) == 0) {
                assert_true(opfor_dist(opfor_pt(x, y), aims[shot]) < 0.1f);
                on[shot]++;
            }
            p = bl + 1;
        }
    }
    for (int shot = 0; shot < 3; shot++)
        assert_true(on[shot] > 20);
    /* an ordinary gun has one aim point */
    fx_again(&st, gun);
    opfor_vk_action_t one = fx_act(OPFOR_VK_FIRE_ARTILLERY, gun);
    one.dest = split.dest;
    opfor_vk_state_t t = st;
    assert_int_equal(opfor_vk_apply(ctx, &t, &one, NULL), 0);
    one.flags = OPFOR_VK_AF_VIA;
    one.via = split.via;
    t = st;
    assert_int_equal(opfor_vk_apply(ctx, &t, &one, NULL), OPFOR_EILLEGAL);
    fx_done(ctx, sc);
}

/* Balloons and dirigibles (XII.D) under the XII options: a dirigible steers up to twice
 * transport advance mounted (X + d3) in any direction, over buildings, and climbs or
 * descends up to two levels a move; a balloon only climbs or descends one level (and no
 * longer climbs once damaged); nobody flies below the ground. */
static void special_dirigibles_steer_and_climb(void **state) {
    (void)state;
    static const opfor_pt_t house[4] = {{16, 18}, {22, 18}, {22, 30}, {16, 30}};
    opfor_scenario_t *sc = fx_new(60, 48);
    sc->weather.level = 1; /* calm: no drift */
    int d = fx_unit(sc, "Airship", 0, OPFOR_UT_DIRIGIBLE, OPFOR_Q_SOLDIER, 2, opfor_pt(10, 24),
                    opfor_pt(1, 0), 0, OPFOR_W_RIFLE, 0);
    int b = fx_unit(sc, "Balloon", 0, OPFOR_UT_BALLOON, OPFOR_Q_SOLDIER, 1, opfor_pt(10, 40),
                    opfor_pt(1, 0), 0, OPFOR_W_RIFLE, 0);
    fx_unit(sc, "Foe", 1, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 1, opfor_pt(56, 4), opfor_pt(0, 1), 0,
            OPFOR_W_RIFLE, 0);
    fx_general(sc, 0, opfor_pt(4, 4));
    fx_feature(sc, OPFOR_TK_BUILDING, OPFOR_SHAPE_AREA, house, 4, 0.0f);
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
    int x = ctx->tab->move_x[VK_MV_ADVANCE][OPFOR_VK_TRANSPORT][1][0][0];
    assert_true(x > 0);
    int seen[4] = {0, 0, 0, 0};
    for (uint64_t seed = 1; seed <= 60; seed++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, seed, d);
        assert_int_equal(st.ux[d].altitude, 1); /* aloft from the start */
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        int climbs = 0, runs = 0;
        for (int i = 0; i < n; i++) {
            climbs += (a[i].flags & OPFOR_VK_AF_CLIMB) != 0;
            runs += a[i].kind == OPFOR_VK_RUN || a[i].kind == OPFOR_VK_CRAWL;
        }
        assert_int_equal(climbs, 2); /* one or two levels */
        assert_int_equal(runs, 0);
        opfor_vk_action_t fly = fx_act(OPFOR_VK_ADVANCE, d);
        fly.dest = opfor_pt(58, 24); /* straight over the house */
        fly.flags = OPFOR_VK_AF_CLIMB;
        fly.arc = 2;
        opfor_pt_t p0 = st.figures[st.units[d].first].pos;
        assert_int_equal(opfor_vk_apply(ctx, &st, &fly, NULL), 0);
        opfor_pt_t p1 = st.figures[st.units[d].first].pos;
        float flown = p1.x - p0.x;
        int face = (int)(flown / 2.0f + 0.5f) - x; /* the d3 */
        assert_true(face >= 1 && face <= 3);
        assert_true(fabsf(flown - 2.0f * (float)(x + face)) < 0.01f);
        assert_true(fabsf(p1.y - p0.y) < 0.001f);
        seen[face]++;
        assert_int_equal(st.ux[d].altitude, 3);
        /* three levels down in one move, or below the ground, are not allowed */
        opfor_vk_state_t s2 = st;
        fx_again(&s2, d);
        s2.side = 0;
        opfor_vk_action_t down = fx_act(OPFOR_VK_ADVANCE, d);
        down.dest = p1;
        down.flags = OPFOR_VK_AF_DESCEND;
        down.arc = 3;
        assert_int_equal(opfor_vk_apply(ctx, &s2, &down, NULL), OPFOR_EILLEGAL);
        s2.ux[d].altitude = 1;
        down.arc = 2;
        assert_int_equal(opfor_vk_apply(ctx, &s2, &down, NULL), OPFOR_EILLEGAL);
        down.arc = 1;
        assert_int_equal(opfor_vk_apply(ctx, &s2, &down, NULL), 0);
        assert_int_equal(s2.ux[d].altitude, 0);
    }
    for (int f = 1; f <= 3; f++) /* every d3 face comes up */
        assert_true(seen[f] > 5);
    /* the balloon: one level, no steering, no climbing once damaged */
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, b);
    opfor_vk_action_t up = fx_act(OPFOR_VK_ADVANCE, b);
    up.dest = opfor_pt(40, 40);
    up.flags = OPFOR_VK_AF_CLIMB;
    up.arc = 2;
    assert_int_equal(opfor_vk_apply(ctx, &st, &up, NULL), OPFOR_EILLEGAL);
    opfor_vk_state_t damaged = st;
    up.arc = 1;
    opfor_pt_t p0 = st.figures[st.units[b].first].pos;
    assert_int_equal(opfor_vk_apply(ctx, &st, &up, NULL), 0);
    assert_int_equal(st.ux[b].altitude, 2);
    assert_true(opfor_dist(p0, st.figures[st.units[b].first].pos) < 0.001f);
    damaged.ux[b].damage = 1;
    assert_int_equal(opfor_vk_apply(ctx, &damaged, &up, NULL), OPFOR_EILLEGAL);
    /* whole random games with both craft: every listed action applies, nobody sinks below
       the ground or climbs past the ceiling */
    opfor_rng_t r;
    opfor_rng_seed(&r, 3, 3);
    for (uint64_t seed = 1; seed <= 40; seed++) {
        opfor_vk_state_init(ctx, &st, seed);
        for (int step = 0; step < 3000 && opfor_vk_current(ctx, &st) != OPFOR_VK_TERMINAL; step++) {
            opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
            int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
            assert_true(n > 0);
            int i = opfor_vk_current(ctx, &st) == OPFOR_VK_CHANCE
                        ? 0
                        : (int)opfor_rng_below(&r, (uint32_t)n);
            assert_int_equal(opfor_vk_apply(ctx, &st, &a[i], NULL), 0);
            assert_true(st.ux[d].altitude <= VK_MAX_ALTITUDE &&
                        st.ux[b].altitude <= VK_MAX_ALTITUDE);
        }
    }
    fx_done(ctx, sc);
}

/* Random games with balloons (bombs aboard), a tethered balloon, a dirigible, a walker and an
 * MG in a steady breeze and changing weather: every listed action applies (the new ones too: fire
 * at a balloon, split shells), damage stays within 0..2, altitude within 0..9, and each kind is
 * used. */
static void special_flying_craft_random_games(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(72, 48);
    sc->weather.level = 3; /* a steady breeze; the weather events may raise it */
    sc->weather.wind = OPFOR_N;
    int b = fx_unit(sc, "Balloon", 0, OPFOR_UT_BALLOON, OPFOR_Q_SOLDIER, 2, opfor_pt(20, 14),
                    opfor_pt(0, 1), 0, OPFOR_W_RIFLE | OPFOR_W_BOMBS, 0);
    int k = fx_unit(sc, "Kite", 0, OPFOR_UT_BALLOON, OPFOR_Q_SOLDIER, 1, opfor_pt(40, 10),
                    opfor_pt(0, 1), 0, OPFOR_W_RIFLE, 0);
    sc->machine[k].tethered = 1;
    int d = fx_unit(sc, "Airship", 0, OPFOR_UT_DIRIGIBLE, OPFOR_Q_SOLDIER, 2, opfor_pt(56, 14),
                    opfor_pt(0, 1), 0, OPFOR_W_RIFLE, 0);
    fx_unit(sc, "Tripod", 1, OPFOR_UT_WALKER, OPFOR_Q_ELITE, 1, opfor_pt(36, 36), opfor_pt(0, -1),
            0, OPFOR_W_FIELD_GUN, OPFOR_FIG_EQUIPMENT);
    fx_foot(sc, "Rifles", 1, OPFOR_Q_SOLDIER, 6, opfor_pt(20, 19), OPFOR_W_RIFLE);
    int mg = fx_foot(sc, "Maxim", 1, OPFOR_Q_SOLDIER, 3, opfor_pt(52, 30), OPFOR_W_PISTOL);
    fx_fig(sc, mg, 0)->flags |= OPFOR_FIG_EQUIPMENT;
    fx_fig(sc, mg, 0)->weapons = OPFOR_W_MG;
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(68, 44));
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 1);
    opfor_rng_t r;
    opfor_rng_seed(&r, 5, 5);
    int at_craft = 0, split = 0, bombs = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, seed);
        for (int step = 0; step < 3000 && opfor_vk_current(ctx, &st) != OPFOR_VK_TERMINAL; step++) {
            opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
            int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
            assert_true(n > 0);
            int i = opfor_vk_current(ctx, &st) == OPFOR_VK_CHANCE
                        ? 0
                        : (int)opfor_rng_below(&r, (uint32_t)n);
            at_craft += a[i].kind == OPFOR_VK_FIRE && (a[i].flags & OPFOR_VK_AF_AT_CRAFT);
            split += a[i].kind == OPFOR_VK_FIRE_ARTILLERY && (a[i].flags & OPFOR_VK_AF_VIA);
            bombs += a[i].kind == OPFOR_VK_THROW_BOMB;
            assert_int_equal(opfor_vk_apply(ctx, &st, &a[i], NULL), 0);
            int us[3] = {b, k, d};
            for (int j = 0; j < 3; j++)
                assert_true(st.ux[us[j]].damage <= 2 && st.ux[us[j]].altitude <= VK_MAX_ALTITUDE);
        }
    }
    assert_true(at_craft > 0);
    assert_true(split > 0);
    assert_true(bombs > 0);
    fx_done(ctx, sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(special_medics_bind_wounds),
        cmocka_unit_test(special_medic_rolls_only_in_contact),
        cmocka_unit_test(special_bound_wounded_return_from_the_rear),
        cmocka_unit_test(special_mesmerism_takes_hold_at_the_calculators_rate),
        cmocka_unit_test(special_mesmerised_figure_tests_then_obeys),
        cmocka_unit_test(special_mesmerised_figure_may_strike_fellows_or_itself),
        cmocka_unit_test(special_weather_event_each_turn),
        cmocka_unit_test(special_machines_armour_and_walkers),
        cmocka_unit_test(special_balloons_drift_downwind),
        cmocka_unit_test(special_balloon_fire_aloft_is_moving_fire),
        cmocka_unit_test(special_walker_fires_three_shells),
        cmocka_unit_test(special_balloon_envelope_is_shot_as_a_civilian),
        cmocka_unit_test(special_balloon_occupants_run_in_a_breeze),
        cmocka_unit_test(special_dirigible_shell_is_targeted_at_its_quality),
        cmocka_unit_test(special_balloon_altitude_adds_brackets),
        cmocka_unit_test(special_balloon_damaged_sinks_at_once),
        cmocka_unit_test(special_walker_hesitates_for_one_activation),
        cmocka_unit_test(special_walker_splits_its_three_shells),
        cmocka_unit_test(special_dirigibles_steer_and_climb),
        cmocka_unit_test(special_flying_craft_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
