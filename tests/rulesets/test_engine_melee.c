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

/* X: a counter-charge meets the chargers at the halfway point of the distance left once the
 * chargers have gone half the way (audit row 70): of an 8 in gap the counter-chargers ride 2
 * in, the chargers 6; both strike as charging. */
static void melee_counter_charge_meets_at_three_quarters(void **state) {
    (void)state;
    const float gap = 8.0f;
    opfor_scenario_t *sc =
        charge_pair(gap, 1, OPFOR_Q_ELITE, OPFOR_W_SWORD, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int countered = 0, measured = 0;
    for (int s = 0; s < 60; s++) {
        opfor_vk_state_t st;
        charged(ctx, &st, (uint64_t)s);
        if (st.phase != OPFOR_VK_PH_REACTION)
            continue;
        int c = st.units[0].first, t = st.units[1].first;
        opfor_pt_t c0 = st.figures[c].pos, t0 = st.figures[t].pos;
        opfor_vk_action_t r = fx_act(OPFOR_VK_REACT_COUNTER, 1);
        assert_int_equal(opfor_vk_apply(ctx, &st, &r, NULL), 0);
        countered++;
        assert_true(st.ux[1].flags & OPFOR_VK_UX_FOUGHT);
        if (!(st.figures[t].flags & OPFOR_FIG_ALIVE) || (st.ux[1].flags & OPFOR_VK_UX_FLED))
            continue;
        measured++;
        assert_float_equal(opfor_dist(t0, st.figures[t].pos), 0.25f * gap, 0.05f);
        if ((st.figures[c].flags & OPFOR_FIG_ALIVE) && !(st.ux[0].flags & OPFOR_VK_UX_FLED))
            assert_float_equal(opfor_dist(c0, st.figures[c].pos), 0.75f * gap, 0.1f);
    }
    assert_true(countered > 20);
    assert_true(measured > 5);
    fx_done(ctx, sc);
}

/* X: the move away from a charge may be a crawl, a run/gallop or an advance (audit row 62): the
 * three are offered (arc: the move), an advance goes an advance's distance, not a run's, and a
 * crawl leaves the figures prone. */
static void melee_reaction_move_away_is_chosen(void **state) {
    (void)state;
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    int adv = m.move.foot[OPFOR_VK_MOVE_ADVANCE][OPFOR_Q_ELITE];
    int crawl = m.move.foot[OPFOR_VK_MOVE_CRAWL][OPFOR_Q_ELITE];
    opfor_scenario_t *sc = charge_pair(10.0f, 1, OPFOR_Q_ELITE, OPFOR_W_SWORD, 0);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int offered = 0;
    for (int s = 0; s < 40; s++) {
        opfor_vk_state_t st;
        charged(ctx, &st, (uint64_t)s);
        if (st.phase != OPFOR_VK_PH_REACTION)
            continue;
        opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st, acts, OPFOR_VK_MAX_ACTIONS);
        unsigned hows = 0;
        for (int i = 0; i < n; i++) {
            if (acts[i].kind != OPFOR_VK_REACT_FLEE)
                continue;
            hows |= 1u << acts[i].arc;
            int t = st.units[1].first;
            opfor_vk_state_t after = st;
            opfor_pt_t t0 = after.figures[t].pos;
            assert_int_equal(opfor_vk_apply(ctx, &after, &acts[i], NULL), 0);
            /* a lone elite figure: only its own move away shifts it (caught, it is struck
               where it stands) */
            float went = opfor_dist(t0, after.figures[t].pos);
            if (acts[i].arc == OPFOR_VK_ADVANCE)
                assert_true(went <= (float)(adv + 3) + 0.01f);
            if (acts[i].arc == OPFOR_VK_CRAWL) {
                assert_true(went <= (float)(crawl + 3) + 0.01f);
                if (after.figures[t].flags & OPFOR_FIG_ALIVE)
                    assert_true(after.figures[t].flags & OPFOR_FIG_PRONE);
            }
            if (acts[i].arc == OPFOR_VK_RUN)
                assert_true(went > (float)(adv + 3));
        }
        assert_int_equal(hows, 1u << OPFOR_VK_RUN | 1u << OPFOR_VK_ADVANCE | 1u << OPFOR_VK_CRAWL);
        offered++;
        /* a flight naming no move is refused */
        opfor_vk_action_t bad = fx_act(OPFOR_VK_REACT_FLEE, 1);
        bad.arc = OPFOR_VK_CHARGE;
        assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
    }
    assert_true(offered > 10);
    fx_done(ctx, sc);
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

/* The reaction's "fires at the chargers" line in buf, shots * 100 + killed, or -1. */
static int defensive_kills(const char *buf) {
    const char *p = strstr(buf, "fires at the chargers:");
    int shots, kills;
    const char *c = p ? strchr(p, ',') : NULL; /* "N shot(s), K killed" */
    if (!p || !c || sscanf(strchr(p, ':') + 1, " %d shot", &shots) != 1 ||
        sscanf(c + 1, " %d killed", &kills) != 1)
        return -1;
    return shots * 100 + kills;
}

/* X: charging figures get no benefit of cover from defensive fire (audit row 65): lancers
 * charging out of the edge of a wood lose, roll for roll, what they lose charging in the open;
 * and defensive fire needs sight: riflemen behind a hill do not fire. */
static void melee_defensive_fire_gives_chargers_no_cover(void **state) {
    (void)state;
    int kills[2] = {0, 0}, differ = 0, checked = 0;
    for (int s = 0; s < 200; s++) {
        int k[2];
        for (int wood = 0; wood < 2; wood++) {
            opfor_scenario_t *sc = fx_new(48, 48);
            if (wood) /* the lancers' bases 0.5 in inside its edge: seen, but in soft cover */
                fx_rect(sc, OPFOR_TK_WOODS, 10, 4, 30, 11.5f);
            fx_unit(sc, "Lancers", 0, OPFOR_UT_CAVALRY, OPFOR_Q_CONSCRIPT, 4, opfor_pt(20, 10),
                    opfor_pt(0, 1), 0, OPFOR_W_LANCE, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
            fx_foot(sc, "Rifles", 1, OPFOR_Q_ELITE, 10, opfor_pt(20, 19), OPFOR_W_RIFLE);
            fx_generals(sc, opfor_pt(4, 4), opfor_pt(44, 44));
            opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
            opfor_vk_state_t st;
            charged(ctx, &st, (uint64_t)s);
            k[wood] = -1;
            if (st.phase == OPFOR_VK_PH_REACTION) {
                char buf[1024] = "";
                opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
                opfor_vk_action_t r = fx_act(OPFOR_VK_REACT_FIRE, 1);
                assert_int_equal(opfor_vk_apply(ctx, &st, &r, &ev), 0);
                k[wood] = defensive_kills(buf);
                assert_true(k[wood] >= 0);
            }
            fx_done(ctx, sc);
        }
        /* a lancer deeper in the wood may be out of a rifleman's sight once the nearer ones
           fall: compare the volleys of as many shots */
        if (k[0] < 0 || k[1] < 0 || k[0] / 100 != k[1] / 100)
            continue;
        checked++;
        kills[0] += k[0] % 100;
        kills[1] += k[1] % 100;
        differ += k[0] != k[1];
    }
    assert_true(checked > 50);
    assert_true(kills[0] > 0);
    assert_int_equal(differ, 0);
    /* and it needs sight: of two riflemen, the one a building hides from the lancers does
       not fire (the charge goes in, as the other is in view) */
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_rect(sc, OPFOR_TK_BUILDING, 24, 11, 27, 17);
    fx_unit(sc, "Lancers", 0, OPFOR_UT_CAVALRY, OPFOR_Q_SOLDIER, 1, opfor_pt(20, 10),
            opfor_pt(0, 1), 0, OPFOR_W_LANCE, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    fx_foot(sc, "Rifles", 1, OPFOR_Q_ELITE, 2, opfor_pt(20, 16), OPFOR_W_RIFLE);
    fx_fig(sc, 1, 0)->pos = opfor_pt(20, 16);
    fx_fig(sc, 1, 1)->pos = opfor_pt(30, 16);
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(44, 44));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int reacted = 0;
    for (int s = 0; s < 40; s++) {
        opfor_vk_state_t st;
        charged(ctx, &st, (uint64_t)s);
        if (st.phase != OPFOR_VK_PH_REACTION)
            continue;
        reacted++;
        assert_false(vk_los(ctx, &st, st.units[1].first + 1, 0));
        assert_int_equal(vk_defensive_count(ctx, &st, NULL), 1);
    }
    assert_true(reacted > 0);
    fx_done(ctx, sc);
}

/* X: veterans fire defensively at half the distance their charging target moves (audit row
 * 64), the path it takes in the charge, not half the gap the charge began at. Two elite lancers
 * abreast 16 in from two veteran pistoleers, the second of whom stands 3 in deeper: the lancer
 * facing it rides 16 in with the formation and on up to 3 in more (its d3) alone. On a d3 of 3
 * it rides 19 in: half is 9.5 in, beyond a pistol's 9, and that veteran cannot fire (half the
 * starting gap, 8 in, was in reach); on a 1 it rides 17 in and both fire. */
static void melee_veterans_fire_at_half_the_charge_path(void **state) {
    (void)state;
    const float gap = 16.0f, deeper = 3.0f;
    opfor_scenario_t *sc = fx_new(48, 60);
    int l = fx_unit(sc, "Lancers", 0, OPFOR_UT_CAVALRY, OPFOR_Q_ELITE, 2, opfor_pt(23, 10),
                    opfor_pt(0, 1), 0, OPFOR_W_LANCE, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    fx_fig(sc, l, 0)->pos = opfor_pt(20, 10);
    fx_fig(sc, l, 1)->pos = opfor_pt(26, 10);
    float y1 = 10 + OPFOR_RADIUS_MOUNTED + gap + OPFOR_RADIUS_FOOT;
    int v = fx_foot(sc, "Veterans", 1, OPFOR_Q_VETERAN, 2, opfor_pt(23, y1), OPFOR_W_PISTOL);
    fx_fig(sc, v, 0)->pos = opfor_pt(20, y1);
    fx_fig(sc, v, 0)->skills = 0; /* a veteran, not a leader (who fires at the shortest) */
    fx_fig(sc, v, 1)->pos = opfor_pt(26, y1 + deeper);
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(44, 56));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int seen[4] = {0, 0, 0, 0};
    for (int s = 0; s < 200; s++) {
        opfor_vk_state_t st;
        charged(ctx, &st, (uint64_t)s);
        if (st.phase != OPFOR_VK_PH_REACTION)
            continue;
        int d3 = st.charge.d3;
        int want = d3 == 3 ? 1 : 2;
        assert_int_equal(vk_defensive_count(ctx, &st, NULL), want);
        /* the first veteran's target rides the 16 in gap: it fires at 8 in */
        assert_float_equal(opfor_vk_query_defensive_range(ctx, &st), 0.5f * gap, 0.05f);
        char buf[1024] = "";
        opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
        opfor_vk_action_t r = fx_act(OPFOR_VK_REACT_FIRE, 1);
        assert_int_equal(opfor_vk_apply(ctx, &st, &r, &ev), 0);
        assert_int_equal(defensive_kills(buf) / 100, want);
        seen[d3]++;
    }
    assert_true(seen[1] > 5 && seen[3] > 5);
    fx_done(ctx, sc);
}

/* X: a charge into an ongoing melee resolves that melee only (audit row 73): a second melee
 * elsewhere on the table does not strike. */
static void melee_charge_into_a_melee_leaves_other_melees(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(72, 48);
    int a = fx_foot(sc, "A", 0, OPFOR_Q_VETERAN, 6, opfor_pt(10, 20), OPFOR_W_BAYONET);
    int b = fx_foot(sc, "B", 1, OPFOR_Q_VETERAN, 6, opfor_pt(10, 21.02f), OPFOR_W_BAYONET);
    int c = fx_foot(sc, "C", 0, OPFOR_Q_VETERAN, 6, opfor_pt(50, 26), OPFOR_W_BAYONET);
    int d = fx_foot(sc, "D", 1, OPFOR_Q_VETERAN, 6, opfor_pt(50, 27.02f), OPFOR_W_BAYONET);
    int l = fx_unit(sc, "Lancers", 0, OPFOR_UT_CAVALRY, OPFOR_Q_SOLDIER, 3, opfor_pt(50, 31.5f),
                    opfor_pt(0, -1), 0, OPFOR_W_LANCE, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(68, 44));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int charges = 0, struck = 0;
    for (int s = 0; s < 200; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        st.melee[a] = 1u << b;
        st.melee[b] = 1u << a;
        st.melee[c] = 1u << d;
        st.melee[d] = 1u << c;
        fx_activate(ctx, &st, l);
        opfor_vk_action_t ch = fx_aim(OPFOR_VK_CHARGE, l, d);
        if (opfor_vk_apply(ctx, &st, &ch, NULL) != 0)
            continue;
        charges++;
        /* the melee of A and B, far away, is untouched */
        for (int i = 0; i < st.nfigures; i++)
            if (st.figures[i].unit == a || st.figures[i].unit == b)
                assert_int_equal(st.figures[i].flags, st.figures[i].flags & ~OPFOR_FIG_WOUNDED);
        for (int i = st.units[a].first; i < st.units[b].first + st.units[b].count; i++)
            assert_true(st.figures[i].flags & OPFOR_FIG_ALIVE);
        /* while C, in the melee charged into, strikes at D */
        struck += opfor_vk_unit_present(&st, d) < 6 || fx_wounded(&st, d) > 0;
    }
    assert_true(charges > 100);
    assert_true(struck > 0);
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

/* XI: a Wavering unit may Move or Rally, also when locked in melee (audit row 75): it is
 * offered moves off as well as FIGHT and RALLY, a run away leaves the melee, and a Solid unit
 * still only fights. */
static void melee_wavering_unit_may_move_off(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int a = fx_foot(sc, "A", 0, OPFOR_Q_VETERAN, 3, opfor_pt(20, 20), OPFOR_W_BAYONET);
    int b = fx_foot(sc, "B", 1, OPFOR_Q_VETERAN, 3, opfor_pt(20, 21.02f), OPFOR_W_BAYONET);
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(44, 44));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    for (int s = 0; s < 20; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        st.melee[a] = 1u << b;
        st.melee[b] = 1u << a;
        st.units[a].status = OPFOR_WAVERING;
        fx_activate(ctx, &st, a);
        opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st, acts, OPFOR_VK_MAX_ACTIONS);
        assert_true(fx_find(acts, n, OPFOR_VK_FIGHT, OPFOR_VK_NONE) >= 0);
        assert_true(fx_find(acts, n, OPFOR_VK_RALLY, OPFOR_VK_NONE) >= 0);
        assert_true(fx_find(acts, n, OPFOR_VK_ADVANCE, OPFOR_VK_NONE) >= 0);
        assert_true(fx_find(acts, n, OPFOR_VK_RUN, OPFOR_VK_NONE) >= 0);
        assert_int_equal(fx_find(acts, n, OPFOR_VK_CHARGE, OPFOR_VK_NONE), -1);
        assert_int_equal(fx_find(acts, n, OPFOR_VK_FIRE, OPFOR_VK_NONE), -1);
        for (int i = 0; i < n; i++) /* no moving fire either (XI: Move or Rally) */
            assert_false(acts[i].flags & OPFOR_VK_AF_FIRE);
        /* it runs off, away from B: the melee is over */
        opfor_vk_action_t run = fx_act(OPFOR_VK_RUN, a);
        run.dest = opfor_pt(20, 6);
        opfor_pt_t from = st.figures[st.units[a].first].pos;
        assert_int_equal(opfor_vk_apply(ctx, &st, &run, NULL), 0);
        assert_true(from.y - st.figures[st.units[a].first].pos.y > 4.0f);
        assert_int_equal(st.melee[a], 0);
        assert_int_equal(st.melee[b], 0);
        assert_int_equal(st.units[a].status, OPFOR_WAVERING);
        assert_true(st.units[a].flags & OPFOR_UNIT_ACTED);
    }
    /* a Solid unit in melee may only fight */
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    st.melee[a] = 1u << b;
    st.melee[b] = 1u << a;
    fx_activate(ctx, &st, a);
    opfor_vk_action_t run = fx_act(OPFOR_VK_RUN, a);
    run.dest = opfor_pt(20, 6);
    assert_int_equal(opfor_vk_apply(ctx, &st, &run, NULL), OPFOR_EILLEGAL);
    fx_done(ctx, sc);
}

/* X steps 8-9: after the melee the chargers, then the defenders, MAY advance into contact or
 * support (audit row 68): OPFOR_VK_AF_HOLD on the charge or the reaction says they do not. The
 * hold variants are offered; a defender that holds leaves its loose figures where they stood;
 * chargers that hold leave their loose rider where the charge left it. */
static void melee_follow_up_is_a_choice(void **state) {
    (void)state;
    /* the defenders: one lancer against six elite swordsmen, of whom one or two are struck */
    opfor_scenario_t *sc = charge_pair(3.0f, 6, OPFOR_Q_ELITE, OPFOR_W_SWORD, 0);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int stood = 0, held = 0, advanced = 0;
    for (int s = 0; s < 60; s++) {
        opfor_vk_state_t st;
        charged(ctx, &st, (uint64_t)s);
        if (st.phase != OPFOR_VK_PH_REACTION)
            continue;
        opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st, acts, OPFOR_VK_MAX_ACTIONS), offered = 0;
        for (int i = 0; i < n; i++)
            offered += acts[i].kind == OPFOR_VK_REACT_STAND && acts[i].flags == OPFOR_VK_AF_HOLD;
        assert_int_equal(offered, 1);
        stood++;
        for (int hold = 0; hold < 2; hold++) {
            opfor_vk_state_t after = st;
            opfor_vk_action_t r = fx_act(OPFOR_VK_REACT_STAND, 1);
            r.flags = hold ? OPFOR_VK_AF_HOLD : 0;
            assert_int_equal(opfor_vk_apply(ctx, &after, &r, NULL), 0);
            if (after.ux[1].flags & OPFOR_VK_UX_FLED)
                continue; /* broke after the melee: a flight, not a follow-up */
            int moved = 0;
            const opfor_unit_t *tu = &after.units[1];
            for (int i = tu->first; i < tu->first + tu->count; i++)
                moved += opfor_dist(st.figures[i].pos, after.figures[i].pos) > 0.01f;
            if (hold) {
                assert_int_equal(moved, 0);
                held++;
            } else {
                advanced += moved > 0;
            }
        }
    }
    assert_true(stood > 20 && held > 20);
    assert_true(advanced > 10);
    fx_done(ctx, sc);

    /* the chargers: four lancers abreast 14 in from one rifleman; the far-flank rider cannot
       reach it with the charge's d3 and follows up afterwards, unless the charge holds */
    sc = fx_new(48, 48);
    int l = fx_unit(sc, "Lancers", 0, OPFOR_UT_CAVALRY, OPFOR_Q_SOLDIER, 4, opfor_pt(24, 10),
                    opfor_pt(0, 1), 0, OPFOR_W_LANCE, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    for (int k = 0; k < 4; k++)
        fx_fig(sc, l, k)->pos = opfor_pt(20.0f + 2.5f * (float)k, 10);
    fx_foot(sc, "Rifle", 1, OPFOR_Q_CONSCRIPT, 1,
            opfor_pt(20, 10 + OPFOR_RADIUS_MOUNTED + 14.0f + OPFOR_RADIUS_FOOT), OPFOR_W_DAGGER);
    fx_generals(sc, opfor_pt(4, 4), opfor_pt(44, 44));
    ctx = fx_ctx(sc, NULL);
    int charges = 0, differ = 0, listed = 0;
    for (int s = 0; s < 60; s++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, (uint64_t)s, l);
        opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, &st, acts, OPFOR_VK_MAX_ACTIONS);
        for (int i = 0; i < n; i++)
            listed += acts[i].kind == OPFOR_VK_CHARGE && acts[i].flags == OPFOR_VK_AF_HOLD;
        opfor_vk_state_t run[2];
        int ok = 1;
        for (int hold = 0; hold < 2; hold++) {
            run[hold] = st;
            opfor_vk_action_t c = fx_aim(OPFOR_VK_CHARGE, l, l + 1);
            c.flags = hold ? OPFOR_VK_AF_HOLD : 0;
            assert_int_equal(opfor_vk_apply(ctx, &run[hold], &c, NULL), 0);
            if (run[hold].phase == OPFOR_VK_PH_REACTION) {
                opfor_vk_action_t r = fx_act(OPFOR_VK_REACT_STAND, l + 1);
                assert_int_equal(opfor_vk_apply(ctx, &run[hold], &r, NULL), 0);
            }
            ok &= (run[hold].ux[l].flags & OPFOR_VK_UX_FOUGHT) &&
                  !(run[hold].ux[l].flags & OPFOR_VK_UX_FLED) &&
                  !(run[hold].ux[l + 1].flags & OPFOR_VK_UX_FLED);
        }
        if (!ok)
            continue;
        charges++;
        /* the same dice up to the follow-up: holding, the far rider is no nearer the rifleman */
        int far = st.units[l].first + 3, rifle = st.units[l + 1].first;
        float dh = opfor_dist(run[1].figures[far].pos, run[1].figures[rifle].pos);
        float dn = opfor_dist(run[0].figures[far].pos, run[0].figures[rifle].pos);
        if (!(run[0].figures[rifle].flags & OPFOR_FIG_ALIVE))
            continue;
        assert_true(dh >= dn - 0.001f);
        differ += dh > dn + 0.1f;
    }
    assert_true(listed > 20);
    assert_true(charges > 10);
    assert_true(differ > 5);
    fx_done(ctx, sc);
}

static void melee_fleeing_unit_is_pursued(void **state) {
    (void)state;
    opfor_scenario_t *sc = charge_pair(3.0f, 2, OPFOR_Q_CIVILIAN, OPFOR_W_DAGGER, 0);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int caught = 0, fled = 0, fought = 0;
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
        /* caught, the target's action is spent too (X: a charge uses both sides' actions
           unless it fails to reach; audit row 59) */
        if (st.ux[1].flags & OPFOR_VK_UX_FOUGHT) {
            fought++;
            assert_true(st.units[1].flags & OPFOR_UNIT_ACTED);
        }
    }
    assert_true(fled > 20);
    assert_true(caught > 0); /* galloping lancers catch running civilians (X) */
    assert_true(fought > 0);
    fx_done(ctx, sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(melee_charge_needs_reach_and_sight),
        cmocka_unit_test(melee_short_charge_leaves_the_target_alone),
        cmocka_unit_test(melee_target_checks_morale_and_may_flee),
        cmocka_unit_test(melee_reactions_on_offer),
        cmocka_unit_test(melee_counter_charge_meets_at_three_quarters),
        cmocka_unit_test(melee_reaction_move_away_is_chosen),
        cmocka_unit_test(melee_charge_attack_matches_the_calculator),
        cmocka_unit_test(melee_defensive_fire_can_stop_a_charge),
        cmocka_unit_test(melee_defensive_fire_gives_chargers_no_cover),
        cmocka_unit_test(melee_veterans_fire_at_half_the_charge_path),
        cmocka_unit_test(melee_charge_into_a_melee_leaves_other_melees),
        cmocka_unit_test(melee_goes_on_into_later_turns),
        cmocka_unit_test(melee_wavering_unit_may_move_off),
        cmocka_unit_test(melee_follow_up_is_a_choice),
        cmocka_unit_test(melee_fleeing_unit_is_pursued),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
