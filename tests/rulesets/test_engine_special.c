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
    /* a kill only staggers it for a turn */
    vk_harm(ctx, &st, st.units[walker].first, 2, 0, 0, NULL);
    assert_true(st.figures[st.units[walker].first].flags & OPFOR_FIG_ALIVE);
    assert_true(st.ux[walker].hesitate > st.turn);
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

static void special_balloons_drift_downwind(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    sc->weather.level = 3;
    sc->weather.wind = OPFOR_W; /* blowing from the west: drift east */
    int b = fx_unit(sc, "Balloon", 0, OPFOR_UT_BALLOON, OPFOR_Q_SOLDIER, 2, opfor_pt(10, 24),
                    opfor_pt(0, 1), 0, OPFOR_W_RIFLE, 0);
    fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(44, 44), OPFOR_W_RIFLE);
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    float x0 = st.figures[st.units[b].first].pos.x, y0 = st.figures[st.units[b].first].pos.y;
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0);
    assert_int_equal(st.ux[b].altitude, 1);
    assert_true(st.figures[st.units[b].first].pos.x > x0 + 1.0f);
    assert_true(fabsf(st.figures[st.units[b].first].pos.y - y0) < 0.01f);
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
        /* a staggered walker only recovers */
        staggered.ux[walker].hesitate = (uint8_t)(staggered.turn + 1);
        n = opfor_vk_legal(ctx, &staggered, a, OPFOR_VK_MAX_ACTIONS);
        assert_int_equal(fx_find(a, n, OPFOR_VK_FIRE_ARTILLERY, OPFOR_VK_NONE), -1);
        fx_done(ctx, sc);
    }
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
        cmocka_unit_test(special_dirigibles_steer_and_climb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
