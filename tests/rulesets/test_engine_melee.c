/* tests/rulesets/test_engine_melee.c — charges and melee (Viktoria! X): charge reach, the
 * charged unit's morale check and flight, the reactions on offer (counter-charge only for
 * cavalry in the open), attacks matching the calculator, defensive fire, melee lasting into
 * later turns with FIGHT the only action, and pursuit of a unit that flees.
 *
 * Rates use fixed seeds and a 4-sigma band around the calculator's rendered chances.
 */
#include "rulesets/vk_fixture.h"

#include "rulesets/vk_calc_fixture.h"

#include "engine_int.h"

/* Lancers (side 0, mounted) `gap` inches below a target unit (side 1). */
static opfor_scenario_t *charge_pair(float gap, int tn, int tq, unsigned tw, unsigned tff) {
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_unit(sc, "Lancers", 0, OPFOR_UT_CAVALRY, OPFOR_Q_SOLDIER, 1, opfor_pt(20, 10),
            opfor_pt(0, 1), 0, OPFOR_W_LANCE | OPFOR_W_SWORD, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    float tr = (tff & OPFOR_FIG_MOUNTED) ? OPFOR_RADIUS_MOUNTED : OPFOR_RADIUS_FOOT;
    fx_unit(sc, "Target", 1, (tff & OPFOR_FIG_MOUNTED) ? OPFOR_UT_CAVALRY : OPFOR_UT_INFANTRY, tq,
            tn, opfor_pt(20, 10 + OPFOR_RADIUS_MOUNTED + gap + tr), opfor_pt(0, -1), 0, tw, tff);
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(44, 44));
    return sc;
}

/* A fresh game (from seed) in which the lancers have charged the target. */
static void charged(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, uint64_t seed) {
    opfor_vk_action_t c = fx_aim(OPFOR_VK_CHARGE, 0, 1);
    fx_play(ctx, st, seed, &c);
}

static void melee_charge_needs_reach_and_sight(void **state) {
    (void)state;
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    int x = m.move.mounted[OPFOR_VK_MOVE_CHARGE][OPFOR_Q_SOLDIER];
    for (int k = 0; k < 2; k++) {
        float gap = k ? (float)x + 3.5f : (float)x + 2.5f;
        opfor_scenario_t *sc = charge_pair(gap, 1, OPFOR_Q_SOLDIER, OPFOR_W_RIFLE, 0);
        opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
        opfor_vk_state_t st;
        fx_start(ctx, &st, 1, 0);
        assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_CHARGE, 1, NULL) >= 0, k == 0);
        fx_done(ctx, sc);
    }
    /* a building in the way hides the target: no charge */
    opfor_scenario_t *sc = charge_pair(6.0f, 1, OPFOR_Q_SOLDIER, OPFOR_W_RIFLE, 0);
    fx_rect(sc, OPFOR_TK_BUILDING, 17, 12, 23, 15);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, 0);
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_CHARGE, 1, NULL), -1);
    fx_done(ctx, sc);
}

static void melee_short_charge_leaves_the_target_alone(void **state) {
    (void)state;
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    int x = m.move.mounted[OPFOR_VK_MOVE_CHARGE][OPFOR_Q_SOLDIER];
    opfor_scenario_t *sc = charge_pair((float)x + 2.5f, 1, OPFOR_Q_SOLDIER, OPFOR_W_RIFLE, 0);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int shorts = 0, reached = 0;
    for (int s = 0; s < 300; s++) {
        opfor_vk_state_t st;
        charged(ctx, &st, (uint64_t)s);
        if (st.charge.d3 < 3) { /* x + 1 or x + 2 < the gap: falls short */
            shorts++;
            assert_false(st.units[1].flags & OPFOR_UNIT_ACTED);
            assert_int_equal(st.units[1].status, OPFOR_SOLID);
            assert_int_equal(st.melee[0], 0);
            assert_int_equal(st.phase, OPFOR_VK_PH_INITIATIVE);
        } else {
            reached++;
        }
    }
    assert_true(shorts > 150 && reached > 60);
    fx_done(ctx, sc);
}

static void melee_target_checks_morale_and_may_flee(void **state) {
    (void)state;
    opfor_scenario_t *sc = charge_pair(4.0f, 3, OPFOR_Q_CONSCRIPT, OPFOR_W_RIFLE, 0);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_viktoria_req_t req;
    opfor_viktoria_req_init(&req, OPFOR_VK_A_CHECK_MORALE);
    req.v[OPFOR_VK_F_ACTOR] = OPFOR_Q_CONSCRIPT;
    double p = fx_calc_roll(&req, "pass");
    int fled = 0;
    const int n = 2000;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        charged(ctx, &st, (uint64_t)s);
        if (st.phase == OPFOR_VK_PH_REACTION) {
            assert_int_equal(opfor_vk_current(ctx, &st), 1); /* the charged side decides */
            assert_int_equal(st.units[1].status, OPFOR_SOLID);
        } else {
            fled++;
            assert_int_equal(st.units[1].status, OPFOR_WAVERING);
            assert_true(st.ux[1].flags & OPFOR_VK_UX_FLED);
        }
    }
    fx_assert_rate(fled, n, 1.0 - p, 4.0);
    fx_done(ctx, sc);
}

/* The reactions listed for a target; returns a bit mask of kinds. */
static unsigned reactions(opfor_scenario_t *sc) {
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    unsigned mask = 0;
    for (int s = 0; s < 40 && !mask; s++) {
        opfor_vk_state_t st;
        charged(ctx, &st, (uint64_t)s);
        if (st.phase != OPFOR_VK_PH_REACTION)
            continue;
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        for (int i = 0; i < n; i++)
            mask |= 1u << a[i].kind;
    }
    opfor_vk_ctx_free(ctx);
    return mask;
}

static void melee_reactions_on_offer(void **state) {
    (void)state;
    unsigned base = 1u << OPFOR_VK_REACT_STAND | 1u << OPFOR_VK_REACT_FLEE;
    /* infantry with rifles: stand, flee, fire */
    opfor_scenario_t *sc = charge_pair(4.0f, 3, OPFOR_Q_ELITE, OPFOR_W_RIFLE, 0);
    assert_int_equal(reactions(sc), base | 1u << OPFOR_VK_REACT_FIRE);
    free(sc);
    /* no firearms: stand or flee */
    sc = charge_pair(4.0f, 3, OPFOR_Q_ELITE, OPFOR_W_SWORD, 0);
    assert_int_equal(reactions(sc), base);
    free(sc);
    /* cavalry in the open may counter-charge */
    sc = charge_pair(4.0f, 3, OPFOR_Q_ELITE, OPFOR_W_SWORD, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    assert_int_equal(reactions(sc), base | 1u << OPFOR_VK_REACT_COUNTER);
    /* ... but not from the woods */
    fx_rect(sc, OPFOR_TK_WOODS, 10, 14, 30, 30);
    assert_int_equal(reactions(sc), base);
    free(sc);
}

static void melee_charge_attack_matches_the_calculator(void **state) {
    (void)state;
    opfor_scenario_t *sc = charge_pair(4.0f, 1, OPFOR_Q_ELITE, OPFOR_W_DAGGER, 0);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_viktoria_req_t req;
    opfor_viktoria_req_init(&req, OPFOR_VK_A_ATTACK_LANCE);
    req.v[OPFOR_VK_F_ACTOR] = OPFOR_Q_SOLDIER;
    req.v[OPFOR_VK_F_TARGET] = OPFOR_Q_ELITE;
    req.v[OPFOR_VK_F_ACTOR_MOUNTED] = 1;
    req.v[OPFOR_VK_F_CHARGING] = 1;
    double pk = fx_calc_outcome(&req, "killed");
    int stood = 0, killed = 0, linked = 0;
    for (int s = 0; s < 6000; s++) {
        opfor_vk_state_t st;
        charged(ctx, &st, (uint64_t)s);
        if (st.phase != OPFOR_VK_PH_REACTION)
            continue;
        opfor_vk_action_t r = fx_act(OPFOR_VK_REACT_STAND, 1);
        assert_int_equal(opfor_vk_apply(ctx, &st, &r, NULL), 0);
        stood++;
        int t = st.units[1].first;
        killed += !(st.figures[t].flags & OPFOR_FIG_ALIVE);
        /* both units used their action (X) */
        assert_true(st.units[1].flags & OPFOR_UNIT_ACTED);
        if (opfor_vk_unit_in_play(&st, 0) && opfor_vk_unit_in_play(&st, 1) && st.melee[0])
            linked++;
    }
    assert_true(stood > 2000);
    fx_assert_rate(killed, stood, pk, 4.0);
    assert_true(linked > 0); /* survivors stay locked in melee */
    fx_done(ctx, sc);
}

static void melee_defensive_fire_can_stop_a_charge(void **state) {
    (void)state;
    /* four conscript lancers against ten elite riflemen */
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_unit(sc, "Lancers", 0, OPFOR_UT_CAVALRY, OPFOR_Q_CONSCRIPT, 4, opfor_pt(20, 10),
            opfor_pt(0, 1), 0, OPFOR_W_LANCE, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    fx_foot(sc, "Rifles", 1, OPFOR_Q_ELITE, 10, opfor_pt(20, 19), OPFOR_W_RIFLE);
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(44, 44));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int fired = 0, losses = 0, faltered = 0;
    for (int s = 0; s < 400; s++) {
        opfor_vk_state_t st;
        charged(ctx, &st, (uint64_t)s);
        if (st.phase != OPFOR_VK_PH_REACTION)
            continue;
        int before = opfor_vk_unit_present(&st, 0);
        opfor_vk_action_t r = fx_act(OPFOR_VK_REACT_FIRE, 1);
        assert_int_equal(opfor_vk_apply(ctx, &st, &r, NULL), 0);
        fired++;
        if (opfor_vk_unit_present(&st, 0) < before)
            losses++;
        if (st.units[0].status == OPFOR_WAVERING && !st.melee[0])
            faltered++;
    }
    assert_true(fired > 100);
    assert_true(losses > 0);
    assert_true(faltered > 0); /* step 4: a failed check stops the charge short */
    fx_done(ctx, sc);
}

static void melee_goes_on_into_later_turns(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int a =
        fx_foot(sc, "A", 0, OPFOR_Q_VETERAN, 6, opfor_pt(20, 20), OPFOR_W_BAYONET | OPFOR_W_RIFLE);
    int b = fx_foot(sc, "B", 1, OPFOR_Q_VETERAN, 6, opfor_pt(20, 21.02f),
                    OPFOR_W_BAYONET | OPFOR_W_RIFLE);
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(44, 44));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int fights = 0;
    for (int s = 0; s < 50; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        st.melee[a] = 1u << b;
        st.melee[b] = 1u << a;
        fx_activate(ctx, &st, a);
        opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st, acts, OPFOR_VK_MAX_ACTIONS);
        assert_int_equal(n, 1);
        assert_int_equal(acts[0].kind, OPFOR_VK_FIGHT);
        int alive = opfor_vk_unit_present(&st, a) + opfor_vk_unit_present(&st, b);
        assert_int_equal(opfor_vk_apply(ctx, &st, &acts[0], NULL), 0);
        fights++;
        /* one initiative resolves the whole melee: both units have acted (X) */
        if (opfor_vk_unit_in_play(&st, b))
            assert_true(st.units[b].flags & OPFOR_UNIT_ACTED);
        int after = opfor_vk_unit_present(&st, a) + opfor_vk_unit_present(&st, b);
        assert_true(after <= alive);
    }
    assert_int_equal(fights, 50);
    fx_done(ctx, sc);
}

static void melee_fleeing_unit_is_pursued(void **state) {
    (void)state;
    opfor_scenario_t *sc = charge_pair(3.0f, 2, OPFOR_Q_CIVILIAN, OPFOR_W_DAGGER, 0);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int caught = 0, fled = 0;
    for (int s = 0; s < 300; s++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, (uint64_t)s, 0);
        opfor_vk_action_t c = fx_aim(OPFOR_VK_CHARGE, 0, 1);
        opfor_pt_t start = st.figures[0].pos;
        assert_int_equal(opfor_vk_apply(ctx, &st, &c, NULL), 0);
        if (st.phase == OPFOR_VK_PH_REACTION)
            continue;
        fled++;
        /* the lancers followed: they moved toward where the target went */
        assert_true(opfor_dist(start, st.figures[0].pos) > 2.0f);
        if (st.ux[1].casualties || opfor_vk_unit_present(&st, 1) < 2 ||
            st.figures[st.units[1].first].flags & OPFOR_FIG_WOUNDED ||
            st.figures[st.units[1].first + 1].flags & OPFOR_FIG_WOUNDED)
            caught++;
    }
    assert_true(fled > 20);
    assert_true(caught > 0); /* galloping lancers catch running civilians (X) */
    fx_done(ctx, sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(melee_charge_needs_reach_and_sight),
        cmocka_unit_test(melee_short_charge_leaves_the_target_alone),
        cmocka_unit_test(melee_target_checks_morale_and_may_flee),
        cmocka_unit_test(melee_reactions_on_offer),
        cmocka_unit_test(melee_charge_attack_matches_the_calculator),
        cmocka_unit_test(melee_defensive_fire_can_stop_a_charge),
        cmocka_unit_test(melee_goes_on_into_later_turns),
        cmocka_unit_test(melee_fleeing_unit_is_pursued),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
