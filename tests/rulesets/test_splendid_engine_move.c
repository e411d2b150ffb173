/* tests/rulesets/test_splendid_engine_move.c — A Splendid Victory!'s manoeuvre phases and
 * join-ins from small positions: a charge in command needs no test and ends in contact, then
 * the charged side decides (stand, or defensive fire with its flinch and light impact); a
 * charge test out of command passes about half the time and a failed charger may still
 * manoeuvre; foot without pikes may not charge mounted frontally; a road column near the enemy
 * must change formation; double time only far from the enemy; a manoeuvre never makes contact;
 * flowing around friends; pivots (a defensive block's only manoeuvre, R-18); join-ins and holding
 * back; a charged limbered gun is overrun and the charger breaks through; disengaging; voluntary
 * retreat; the hasty defensive block with pulling up short and charging home, recoil, evade and the
 * emergency about-face; intercepts mid-move (1D6, 3 or less, out of command) and counter-charges
 * (no test); extended charges (the text's example: 3" beyond, 4/6 to reach).
 */
#include "test_splendid_engine_helper.h"

static opfor_action_t find(const sv_ctx_t *c, const sv_state_t *s, int kind, int unit, int target,
                           int sub) {
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c, s, acts, SV_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (acts[i].kind == kind && acts[i].unit == unit &&
            (target < 0 || acts[i].target == target) && (sub < 0 || acts[i].sub == sub))
            return acts[i];
    fail_msg("no action %d for unit %d", kind, unit);
    return acts[0];
}

static void charge_in_command_then_reaction(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int h = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 4, 4, 0, 24, 10, 0, 1);
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 24, 6, 0, 1);
    int p = fx_unit(c, SV_PM, 1, SV_BLOCK, 6, 2, 3, 24, 20, 0, -1);
    int flinched = 0, tries = 300;
    for (uint64_t seed = 1; seed <= (uint64_t)tries; seed++) {
        sv_state_t s;
        fx_state(c, &s, SV_P_MOVE, 0, seed);
        opfor_action_t a = find(c, &s, SV_A_CHARGE, h, p, -1);
        assert_int_equal(sv_engine_apply(c, &s, &a), 0);
        assert_true(sv_in_contact(c, &s.u[h], &s.u[p])); /* no test in command */
        assert_int_equal(s.phase, SV_P_REACT);
        assert_int_equal(sv_engine_current(&s), 1);
        assert_true(fx_listed(c, &s, SV_A_HOLD, p, -1));
        assert_true(fx_listed(c, &s, SV_A_DEFFIRE, p, h));
        sv_state_t t = s;
        opfor_action_t hold = find(c, &t, SV_A_HOLD, p, -1, -1);
        assert_int_equal(sv_engine_apply(c, &t, &hold), 0);
        assert_int_equal(t.phase, SV_P_MOVE);
        assert_int_equal(t.side, 0);
        assert_true(t.u[p].flags & SV_F_REACTED);
        opfor_action_t df = find(c, &s, SV_A_DEFFIRE, p, h, -1);
        assert_int_equal(sv_engine_apply(c, &s, &df), 0);
        assert_true(s.u[p].flags & SV_F_RED);
        int hits = s.u[h].markers;
        assert_true(hits <= 4); /* 3 front muskets + 1 at a mounted unit */
        if (hits >= 2) {        /* the charger flinches 3" back */
            flinched++;
            assert_false(sv_in_contact(c, &s.u[h], &s.u[p]));
        } else {
            assert_true(sv_in_contact(c, &s.u[h], &s.u[p]));
            assert_int_equal(s.u[p].markers, hits == 0 ? 1 : 0); /* a light impact */
        }
    }
    /* P(2 or more hits of 4D6 needing 2) = 33/81 */
    assert_true(flinched > tries * 33 / 81 - 40 && flinched < tries * 33 / 81 + 40);
    free(c);
}

static void charge_test_out_of_command(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int h = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 4, 4, 0, 24, 10, 0, 1);
    int p = fx_unit(c, SV_PM, 1, SV_BLOCK, 6, 2, 3, 24, 20, 0, -1);
    int failed = 0, tries = 400;
    for (uint64_t seed = 1; seed <= (uint64_t)tries; seed++) {
        sv_state_t s;
        fx_state(c, &s, SV_P_MOVE, 0, seed);
        opfor_action_t a = find(c, &s, SV_A_CHARGE, h, p, -1);
        assert_int_equal(sv_engine_apply(c, &s, &a), 0);
        if (s.u[h].flags & SV_F_CHARGE_FAILED) {
            failed++;
            assert_false(sv_in_contact(c, &s.u[h], &s.u[p]));
            assert_false(fx_listed(c, &s, SV_A_CHARGE, h, p));
            assert_true(fx_listed(c, &s, SV_A_MOVE, h, -1)); /* it may still manoeuvre */
        }
    }
    assert_true(failed > tries / 2 - 45 && failed < tries / 2 + 45); /* 1D6: 3 or less passes */
    free(c);
}

static void foot_without_pikes_and_mounted(void **st) {
    (void)st;
    /* a mounted line straight ahead: the foot would not outflank it */
    sv_ctx_t *c = fx_ctx();
    int f = fx_unit(c, SV_FOOT, 0, SV_BLOCK, 4, 4, 2, 24, 10, 0, 1);
    int m = fx_unit(c, SV_MOUNTED, 1, SV_LINE, 3, 3, 0, 24, 14, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    assert_false(fx_listed(c, &s, SV_A_CHARGE, f, m));
    /* the same line showing its flank: the foot's front covers its rear corner */
    c->start.u[m].fx = 1;
    c->start.u[m].fy = 0;
    c->start.u[m].x = 24 + STAND / 2;
    c->start.u[m].y = 14 + 1.5f * STAND;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    assert_true(fx_listed(c, &s, SV_A_CHARGE, f, m));
    /* a Pike and Musket unit straight ahead may be charged */
    sv_ctx_t *c2 = fx_ctx();
    f = fx_unit(c2, SV_FOOT, 0, SV_BLOCK, 4, 4, 2, 24, 10, 0, 1);
    int p = fx_unit(c2, SV_PM, 1, SV_LINE, 2, 0, 0, 24, 14, 0, -1);
    fx_state(c2, &s, SV_P_MOVE, 0, 1);
    assert_true(fx_listed(c2, &s, SV_A_CHARGE, f, p));
    free(c);
    free(c2);
}

static void road_column_and_double_time(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int col = fx_unit(c, SV_PM, 0, SV_COLUMN, 4, 2, 1, 10, 10, 0, 1);
    int e = fx_unit(c, SV_MOUNTED, 1, SV_LINE, 3, 3, 0, 10, 30, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    /* within 24": it must change formation, nothing else, and the phase cannot end before */
    assert_true(fx_listed(c, &s, SV_A_FORM, col, -1));
    assert_false(fx_listed(c, &s, SV_A_MOVE, col, -1));
    assert_false(fx_listed(c, &s, SV_A_DONE, OPFOR_ACTION_NONE, -1));
    opfor_action_t a = find(c, &s, SV_A_FORM, col, -1, SV_BLOCK);
    assert_int_equal(sv_engine_apply(c, &s, &a), 0);
    assert_int_equal(s.u[col].form, SV_BLOCK);
    assert_true(fx_listed(c, &s, SV_A_DONE, OPFOR_ACTION_NONE, -1));
    /* far from the enemy: double time, and a road column may be formed */
    sv_ctx_t *c2 = fx_ctx();
    int u = fx_unit(c2, SV_PM, 0, SV_LINE, 4, 2, 0, 10, 8, 0, 1);
    fx_unit(c2, SV_MOUNTED, 1, SV_LINE, 3, 3, 0, 40, 34, 0, -1);
    fx_state(c2, &s, SV_P_MOVE, 0, 1);
    assert_true(fx_listed(c2, &s, SV_A_FORM, u, -1));
    opfor_action_t dt = find(c2, &s, SV_A_MOVE, u, -1, 1);
    assert_true(fabsf(dt.y - 16.0f) < 1e-3f); /* 8" at double time */
    /* near the enemy: no double time */
    c2->start.u[1].x = 10;
    c2->start.u[1].y = 20;
    fx_state(c2, &s, SV_P_MOVE, 0, 1);
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c2, &s, acts, SV_MAX_ACTIONS);
    for (int i = 0; i < n; i++) {
        assert_false(acts[i].kind == SV_A_MOVE && acts[i].sub == 1);
        if (acts[i].kind == SV_A_MOVE) { /* no manoeuvre ends in contact */
            sv_unit_t m = s.u[acts[i].unit];
            m.x = acts[i].x;
            m.y = acts[i].y;
            m.fx = acts[i].x2;
            m.fy = acts[i].y2;
            assert_false(sv_in_contact(c2, &m, &s.u[1]));
        }
    }
    (void)e;
    free(c);
    free(c2);
}

static void join_in_and_hold_back(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int E = fx_unit(c, SV_FOOT, 1, SV_BLOCK, 6, 6, 3, 24, 20, 0, -1);
    int A = fx_unit(c, SV_PM, 0, SV_BLOCK, 4, 2, 2, 24, 19.99f, 0, 1);
    /* C faces E's right flank 2" away */
    int C = fx_unit(c, SV_PM, 0, SV_LINE, 2, 0, 0, 24 + 1.5f * STAND + 2.0f, 21.5f, -1, 0);
    sv_state_t s;
    fx_state(c, &s, SV_P_JOIN, 0, 5);
    int e;
    float d;
    assert_true(sv_join_dist(c, &s, C, &e, &d));
    assert_int_equal(e, E);
    assert_true(d > 1.9f && d < 2.1f);
    assert_false(sv_join_dist(c, &s, A, &e, &d)); /* already in contact */
    sv_settle(c, &s);
    assert_int_equal(s.phase, SV_P_JOIN);
    assert_int_equal(s.cur, C);
    sv_state_t t = s;
    opfor_action_t j = find(c, &t, SV_A_JOIN, C, -1, -1);
    assert_int_equal(sv_engine_apply(c, &t, &j), 0);
    assert_true(sv_in_contact(c, &t.u[C], &t.u[E]));
    /* the marker on every unit in contact, then the attacks' hits */
    assert_true(t.u[C].markers >= 1 && t.u[A].markers >= 1 && t.u[E].markers >= 1);
    /* out of command, holding back passes on 3 or less */
    int held = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        fx_state(c, &s, SV_P_JOIN, 0, seed);
        sv_settle(c, &s);
        opfor_action_t hb = find(c, &s, SV_A_HOLDBACK, C, -1, -1);
        assert_int_equal(sv_engine_apply(c, &s, &hb), 0);
        held += !sv_in_contact(c, &s.u[C], &s.u[E]);
    }
    assert_true(held > 150 - 35 && held < 150 + 35);
    /* in command, it is held back */
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 34, 21.5f, 0, 1);
    fx_state(c, &s, SV_P_JOIN, 0, 9);
    sv_settle(c, &s);
    opfor_action_t hb = find(c, &s, SV_A_HOLDBACK, C, -1, -1);
    assert_int_equal(sv_engine_apply(c, &s, &hb), 0);
    assert_false(sv_in_contact(c, &s.u[C], &s.u[E]));
    free(c);
}

static void overrun_disengage_retreat(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int h = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 4, 4, 0, 24, 10, 0, 1);
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 24, 6, 0, 1);
    int g = fx_unit(c, SV_GUN, 1, SV_LIMBERED, 1, 1, 1, 24, 16, 0, -1);
    int b = fx_unit(c, SV_PM, 1, SV_BLOCK, 4, 2, 2, 24, 24, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t a = find(c, &s, SV_A_CHARGE, h, g, 0);
    assert_int_equal(sv_engine_apply(c, &s, &a), 0);
    assert_true(s.u[g].flags & SV_F_GONE); /* a limbered gun is overrun */
    assert_int_equal(s.tally[1], 1);
    /* the charger breaks through: stop, go on up to 9", or charge within 9" without a test */
    assert_int_equal(s.phase, SV_P_BREAK);
    assert_int_equal(sv_engine_current(&s), 0);
    assert_true(fx_listed(c, &s, SV_A_HOLD, h, -1));
    assert_true(fx_listed(c, &s, SV_A_CHARGE, h, b));
    sv_state_t t = s;
    opfor_action_t stop = find(c, &t, SV_A_HOLD, h, -1, -1);
    assert_int_equal(sv_engine_apply(c, &t, &stop), 0);
    assert_int_equal(t.phase, SV_P_MOVE);
    a = find(c, &s, SV_A_CHARGE, h, b, 0);
    assert_int_equal(sv_engine_apply(c, &s, &a), 0);
    assert_true(sv_in_contact(c, &s.u[h], &s.u[b]));
    assert_int_equal(s.phase, SV_P_REACT);
    /* disengaging from foot: out of contact, one marker */
    sv_ctx_t *c2 = fx_ctx();
    h = fx_unit(c2, SV_MOUNTED, 0, SV_LINE, 4, 4, 0, 24, 19.99f, 0, 1);
    int p = fx_unit(c2, SV_PM, 1, SV_BLOCK, 6, 2, 3, 24, 20, 0, -1);
    int one = fx_unit(c2, SV_PM, 0, SV_LINE, 1, 0, 0, 5, 5, 0, 1);
    fx_state(c2, &s, SV_P_MOVE, 0, 1);
    assert_false(fx_listed(c2, &s, SV_A_MOVE, h, -1)); /* in contact: nothing but disengage */
    opfor_action_t dis = find(c2, &s, SV_A_DISENGAGE, h, -1, -1);
    assert_int_equal(sv_engine_apply(c2, &s, &dis), 0);
    assert_false(sv_in_contact(c2, &s.u[h], &s.u[p]));
    assert_int_equal(s.u[h].markers, 1);
    assert_true(s.u[h].fy < 0.0f); /* about-faced */
    /* a single stand retreats voluntarily; then the side moves nothing more */
    opfor_action_t r = find(c2, &s, SV_A_RETREAT, one, -1, -1);
    assert_int_equal(sv_engine_apply(c2, &s, &r), 0);
    assert_true(s.u[one].flags & SV_F_GONE);
    assert_int_equal(s.tally[0], 1);
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c2, &s, acts, SV_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        assert_true(acts[i].kind == SV_A_RETREAT || acts[i].kind == SV_A_DONE ||
                    acts[i].kind == SV_A_CONCEDE);
    free(c);
    free(c2);
}

/* A charge by the mounted unit h in command on unit t; the state waits for t's reaction. */
static void charged(const sv_ctx_t *c, sv_state_t *s, int h, int t, uint64_t seed) {
    fx_state(c, s, SV_P_MOVE, 0, seed);
    opfor_action_t a = find(c, s, SV_A_CHARGE, h, t, 0);
    assert_int_equal(sv_engine_apply(c, s, &a), 0);
    while (s->phase == SV_P_INTERCEPT) { /* no counter-charge */
        opfor_action_t pass = find(c, s, SV_A_HOLD, s->cur, -1, -1);
        assert_int_equal(sv_engine_apply(c, s, &pass), 0);
    }
    assert_int_equal(s->phase, SV_P_REACT);
}

static void hasty_defensive_block(void **st) {
    (void)st;
    /* from more than 9": the mounted player tests to pull up short (5 or less: pikes) */
    sv_ctx_t *c = fx_ctx();
    int h = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 4, 4, 0, 24, 6, 0, 1);
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 24, 2, 0, 1);
    int p = fx_unit(c, SV_PM, 1, SV_LINE, 4, 2, 0, 24, 20, 0, -1);
    int pulled = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        sv_state_t s;
        charged(c, &s, h, p, seed);
        opfor_action_t a = find(c, &s, SV_A_HASTY, p, h, -1);
        assert_int_equal(sv_engine_apply(c, &s, &a), 0);
        assert_int_equal(s.u[p].form, SV_DEFBLOCK);
        if (s.u[p].markers == 1) { /* 2 for leaving a line, 1 taken off */
            pulled++;
            assert_false(sv_in_contact(c, &s.u[h], &s.u[p]));
        } else {
            assert_int_equal(s.u[p].markers, 3); /* and a light impact */
            assert_true(sv_in_contact(c, &s.u[h], &s.u[p]));
        }
    }
    assert_true(pulled > 250 - 25 && pulled < 250 + 25);
    /* from 9" or less: the foot player tests to take a light (1) or heavy (2) impact */
    c->start.u[h].y = 14;
    c->start.u[h + 1].y = 10;
    int light = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        sv_state_t s;
        charged(c, &s, h, p, seed);
        opfor_action_t a = find(c, &s, SV_A_HASTY, p, h, -1);
        assert_int_equal(sv_engine_apply(c, &s, &a), 0);
        assert_true(s.u[p].markers == 3 || s.u[p].markers == 4);
        light += s.u[p].markers == 3;
        assert_true(sv_in_contact(c, &s.u[h], &s.u[p]));
    }
    assert_true(light > 150 - 35 && light < 150 + 35);
    free(c);
}

static void recoil_evade_about_face(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int h = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 4, 4, 0, 24, 6, 0, 1);
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 24, 2, 0, 1);
    int m = fx_unit(c, SV_MOUNTED, 1, SV_LINE, 3, 3, 0, 24, 14, 0, -1);
    sv_state_t s;
    charged(c, &s, h, m, 1);
    assert_false(fx_listed(c, &s, SV_A_HASTY, m, h)); /* foot only */
    opfor_action_t a = find(c, &s, SV_A_RECOIL, m, h, -1);
    assert_int_equal(sv_engine_apply(c, &s, &a), 0);
    assert_int_equal(s.u[m].markers, 1);
    assert_false(sv_in_contact(c, &s.u[h], &s.u[m]));
    assert_true(s.u[m].fy > 0.99f); /* facing away */
    assert_true(sv_unit_dist(c, &s.u[h], &s.u[m]) > 11.0f);
    /* foot in open order evades foot: 6" away, no marker */
    sv_ctx_t *c2 = fx_ctx();
    int f = fx_unit(c2, SV_FOOT, 0, SV_BLOCK, 4, 4, 2, 24, 10, 0, 1);
    fx_unit(c2, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 24, 4, 0, 1);
    int d = fx_unit(c2, SV_DRAGOON, 1, SV_OPEN, 3, 3, 0, 24, 13, 0, -1);
    c2->start.u[d].flags |= SV_F_DISMOUNTED;
    charged(c2, &s, f, d, 1);
    a = find(c2, &s, SV_A_EVADE, d, f, -1);
    assert_int_equal(sv_engine_apply(c2, &s, &a), 0);
    assert_int_equal(s.u[d].markers, 0);
    assert_false(sv_in_contact(c2, &s.u[f], &s.u[d]));
    /* a block charged in the rear about-faces: two markers with pikes, and no outflank */
    sv_ctx_t *c3 = fx_ctx();
    h = fx_unit(c3, SV_MOUNTED, 0, SV_LINE, 4, 4, 0, 24, 6, 0, 1);
    fx_unit(c3, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 24, 2, 0, 1);
    int p = fx_unit(c3, SV_PM, 1, SV_BLOCK, 6, 2, 3, 24, 10 + 2 * STAND, 0, 1); /* back to h */
    charged(c3, &s, h, p, 1);
    assert_true(sv_outflanks(c3, &s.u[h], &s.u[p]));
    a = find(c3, &s, SV_A_ABOUTFACE, p, h, -1);
    assert_int_equal(sv_engine_apply(c3, &s, &a), 0);
    assert_int_equal(s.u[p].markers, 2);
    assert_true(s.u[p].fy < -0.99f);
    assert_true(sv_in_contact(c3, &s.u[h], &s.u[p]));
    assert_false(sv_outflanks(c3, &s.u[h], &s.u[p]));
    free(c);
    free(c2);
    free(c3);
}

static void extended_charge(void **st) {
    (void)st;
    /* the text's example: the target 3" beyond a mounted unit's 18" charge */
    sv_ctx_t *c = fx_ctx();
    int h = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 4, 4, 0, 24, 2, 0, 1);
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 16, 2, 0, 1);
    int p = fx_unit(c, SV_PM, 1, SV_BLOCK, 6, 2, 3, 24, 23, 0, -1);
    int reached = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        sv_state_t s;
        fx_state(c, &s, SV_P_MOVE, 0, seed);
        assert_false(fx_listed(c, &s, SV_A_CHARGE, h, -1) &&
                     find(c, &s, SV_A_CHARGE, h, p, -1).sub == 0); /* too far for a charge */
        opfor_action_t a = find(c, &s, SV_A_CHARGE, h, p, 1);
        assert_int_equal(sv_engine_apply(c, &s, &a), 0);
        assert_int_equal(s.u[h].markers, 1); /* the extension costs a marker */
        if (sv_in_contact(c, &s.u[h], &s.u[p])) {
            reached++;
            assert_int_equal(s.phase, SV_P_REACT);
        } else { /* short: it stops on its path, done for the phase */
            assert_int_equal(s.phase, SV_P_MOVE);
            assert_true(s.u[h].flags & SV_F_ACTED);
            assert_true(s.u[h].y > 20.9f && s.u[h].y < 22.1f); /* 18" and 1 or 2 more */
        }
    }
    assert_true(reached > 200 - 30 && reached < 200 + 30); /* 1D6 of 3 or more: 4/6 */
    /* foot reach 2" beyond, no more */
    sv_ctx_t *c2 = fx_ctx();
    int f = fx_unit(c2, SV_PM, 0, SV_BLOCK, 4, 2, 2, 24, 2, 0, 1);
    fx_unit(c2, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 20, 2, 0, 1);
    int q = fx_unit(c2, SV_PM, 1, SV_BLOCK, 4, 2, 2, 24, 7.5f, 0, -1);
    sv_state_t s;
    fx_state(c2, &s, SV_P_MOVE, 0, 1);
    opfor_action_t a = find(c2, &s, SV_A_CHARGE, f, q, 1);
    assert_int_equal(sv_engine_apply(c2, &s, &a), 0);
    assert_true(sv_in_contact(c2, &s.u[f], &s.u[q]));
    c2->start.u[q].y = 8.5f; /* 4.5" beyond a 4" charge */
    fx_state(c2, &s, SV_P_MOVE, 0, 1);
    assert_false(fx_listed(c2, &s, SV_A_CHARGE, f, q));
    free(c);
    free(c2);
}

static void intercept_and_counter_charge(void **st) {
    (void)st;
    /* a foot unit marching 4" east ends in the zone of an enemy mounted unit 4.4" south */
    sv_ctx_t *c = fx_ctx();
    int f = fx_unit(c, SV_PM, 0, SV_LINE, 2, 0, 0, 18, 14, 1, 0);
    int h = fx_unit(c, SV_MOUNTED, 1, SV_LINE, 3, 3, 0, 24, 20, 0, -1);
    sv_state_t s, t;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t mv = find(c, &s, SV_A_MOVE, f, -1, 0);
    assert_true(fabsf(mv.x - 22.0f) < 1e-3f);
    assert_int_equal(sv_engine_apply(c, &s, &mv), 0);
    assert_int_equal(s.phase, SV_P_INTERCEPT); /* the other side decides mid-move */
    assert_int_equal(sv_engine_current(&s), 1);
    assert_true(fx_listed(c, &s, SV_A_INTERCEPT, h, f));
    t = s;
    opfor_action_t pass = find(c, &t, SV_A_HOLD, h, -1, -1);
    assert_int_equal(sv_engine_apply(c, &t, &pass), 0); /* let it pass: the move ends */
    assert_int_equal(t.phase, SV_P_MOVE);
    assert_true(fabsf(t.u[f].x - 22.0f) < 1e-3f);
    assert_false(t.u[h].flags & SV_F_REACTED);
    /* out of command the interceptor throws 1D6, 3 or less */
    int stopped = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        fx_state(c, &t, SV_P_MOVE, 0, seed);
        assert_int_equal(sv_engine_apply(c, &t, &mv), 0);
        opfor_action_t ic = find(c, &t, SV_A_INTERCEPT, h, f, -1);
        assert_int_equal(sv_engine_apply(c, &t, &ic), 0);
        assert_true(t.u[h].flags & SV_F_REACTED);
        if (sv_in_contact(c, &t.u[h], &t.u[f])) {
            stopped++;
            assert_int_equal(t.u[h].markers, 1);
            assert_int_equal(t.u[f].markers, 1);
        } else {
            assert_true(fabsf(t.u[f].x - 22.0f) < 1e-3f); /* it went on */
            assert_true(fabsf(t.u[h].y - 20.0f) < 1e-3f);
        }
    }
    assert_true(stopped > 150 - 35 && stopped < 150 + 35);
    /* a mounted unit charged head-on counter-charges without a test */
    sv_ctx_t *c2 = fx_ctx();
    int a = fx_unit(c2, SV_MOUNTED, 0, SV_LINE, 3, 3, 0, 24, 6, 0, 1);
    fx_unit(c2, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 16, 6, 0, 1);
    int b = fx_unit(c2, SV_MOUNTED, 1, SV_LINE, 3, 3, 0, 24, 20, 0, -1);
    for (uint64_t seed = 1; seed <= 50; seed++) {
        fx_state(c2, &s, SV_P_MOVE, 0, seed);
        opfor_action_t ch = find(c2, &s, SV_A_CHARGE, a, b, 0);
        assert_int_equal(sv_engine_apply(c2, &s, &ch), 0);
        assert_int_equal(s.phase, SV_P_INTERCEPT);
        opfor_action_t cc = find(c2, &s, SV_A_INTERCEPT, b, a, -1);
        assert_int_equal(sv_engine_apply(c2, &s, &cc), 0);
        assert_true(sv_in_contact(c2, &s.u[a], &s.u[b]));
        assert_true(s.u[a].y < 12.5f); /* met on the way, at the edge of b's 9" zone */
        assert_int_equal(s.phase, SV_P_MOVE);
    }
    free(c);
    free(c2);
}

static int lists_move_to(const sv_ctx_t *c, const sv_state_t *s, int u, float x, float y) {
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c, s, acts, SV_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (acts[i].kind == SV_A_MOVE && acts[i].unit == u && fabsf(acts[i].x - x) < 1e-3f &&
            fabsf(acts[i].y - y) < 1e-3f)
            return 1;
    return 0;
}

static void flow_around(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int h = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 3, 3, 0, 24, 4, 0, 1);
    fx_unit(c, SV_PM, 0, SV_BLOCK, 4, 2, 2, 24, 10, 0, 1); /* a friend in the way */
    int f = fx_unit(c, SV_PM, 0, SV_LINE, 2, 0, 0, 10, 3, 0, 1);
    fx_unit(c, SV_PM, 0, SV_LINE, 2, 0, 0, 10, 5, 0, 1);
    int d = fx_unit(c, SV_DRAGOON, 0, SV_OPEN, 2, 2, 0, 40, 3, 0, 1);
    fx_unit(c, SV_PM, 0, SV_LINE, 2, 0, 0, 40, 5, 0, 1);
    fx_unit(c, SV_MOUNTED, 1, SV_LINE, 3, 3, 0, 5, 34, 0, -1);
    c->start.u[d].flags |= SV_F_DISMOUNTED;
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    assert_true(lists_move_to(c, &s, h, 24, 18)); /* mounted: through its friends */
    assert_false(lists_move_to(c, &s, f, 10, 7)); /* a foot line may not */
    assert_true(lists_move_to(c, &s, d, 40, 9));  /* foot in open order may */
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (acts[i].kind == SV_A_MOVE && acts[i].unit == h && fabsf(acts[i].y - 18) < 1e-3f) {
            assert_int_equal(sv_engine_apply(c, &s, &acts[i]), 0);
            break;
        }
    assert_true(fabsf(s.u[h].y - 18.0f) < 1e-3f);
    assert_false(fx_listed(c, &s, SV_A_FORM, h, -1)); /* no change of formation after */
    free(c);
}

static void pivots(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int d = fx_unit(c, SV_PM, 0, SV_DEFBLOCK, 4, 2, 2, 24, 10, 0, 1);
    fx_unit(c, SV_MOUNTED, 1, SV_LINE, 3, 3, 0, 5, 34, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS), pivots = 0, moves = 0;
    for (int i = 0; i < n; i++)
        if (acts[i].kind == SV_A_MOVE && acts[i].unit == d) {
            moves++;
            pivots += acts[i].sub == 4;
        }
    assert_int_equal(pivots, 2); /* a defensive block may only pivot */
    assert_int_equal(moves, 2);
    opfor_action_t p = find(c, &s, SV_A_MOVE, d, -1, 4);
    assert_int_equal(sv_engine_apply(c, &s, &p), 0);
    /* two stands wide: the front corners move 1/2" at 2 asin(0.5 / 3.15"), 18.3 degrees */
    float deg = acosf(s.u[d].fy) * 180.0f / 3.14159265f;
    assert_true(deg > 18.0f && deg < 18.5f);
    assert_true(fabsf(s.u[d].x - 24.0f) < 1e-4f && fabsf(s.u[d].y - 10.0f) < 1e-4f);
    /* a wider pivot is refused */
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    p.x2 = sinf(0.4f);
    p.y2 = cosf(0.4f);
    assert_int_equal(sv_engine_apply(c, &s, &p), OPFOR_EILLEGAL);
    free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(charge_in_command_then_reaction),
        cmocka_unit_test(charge_test_out_of_command),
        cmocka_unit_test(foot_without_pikes_and_mounted),
        cmocka_unit_test(road_column_and_double_time),
        cmocka_unit_test(join_in_and_hold_back),
        cmocka_unit_test(overrun_disengage_retreat),
        cmocka_unit_test(hasty_defensive_block),
        cmocka_unit_test(recoil_evade_about_face),
        cmocka_unit_test(extended_charge),
        cmocka_unit_test(intercept_and_counter_charge),
        cmocka_unit_test(flow_around),
        cmocka_unit_test(pivots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
