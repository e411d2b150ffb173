/* tests/rulesets/test_splendid_engine_combat.c — A Splendid Victory!'s simultaneous phases
 * from small positions: fire dice with the text's examples (four muskets at a mounted block,
 * heavy artillery at 19"), zero dice (R-12), blocked fire, a pivot before firing (R-6); the melee
 * example's combat values and outflank, a split attack; the loss-removal example with its retreat
 * and tallies, a rout for a lost contact; the breakpoint arithmetic of 69 stands with its cascade
 * (R-21) and the results.
 */
#include "test_splendid_engine_helper.h"

static void fire_examples(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    /* four musket stands in line, six mounted stands in block 5" ahead */
    int m = fx_unit(c, SV_PM, 0, SV_LINE, 4, 0, 0, 24, 10, 0, 1);
    int h = fx_unit(c, SV_MOUNTED, 1, SV_BLOCK, 6, 6, 3, 24, 15, 0, -1);
    /* heavy artillery 19" from a Pike and Musket block */
    int g = fx_unit(c, SV_HEAVYGUN, 0, SV_UNLIMBERED, 1, 1, 1, 40, 5, 0, 1);
    int b = fx_unit(c, SV_PM, 1, SV_BLOCK, 6, 2, 3, 40, 24, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_FIRE, 0, 1);
    assert_int_equal(sv_fire_dice(c, &s, m, h), 6); /* 4 + 1 block + 1 mounted */
    assert_int_equal(sv_fire_dice(c, &s, g, b), 3); /* 2 close + 1 block */
    assert_int_equal(sv_fire_dice(c, &s, m, b), 0); /* out of the muskets' range and zone */
    assert_int_equal(sv_fire_dice(c, &s, h, m), 0); /* mounted units do not fire */
    /* a unit between blocks the fire */
    sv_ctx_t *c2 = fx_ctx();
    int m2 = fx_unit(c2, SV_PM, 0, SV_LINE, 4, 0, 0, 24, 10, 0, 1);
    int h2 = fx_unit(c2, SV_MOUNTED, 1, SV_BLOCK, 6, 6, 3, 24, 16, 0, -1);
    fx_unit(c2, SV_PM, 0, SV_LINE, 2, 0, 0, 24, 13, 0, 1);
    fx_state(c2, &s, SV_P_FIRE, 0, 1);
    assert_int_equal(sv_fire_dice(c2, &s, m2, h2), 0);
    free(c);
    free(c2);
}

static void zero_dice_and_quality(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int m = fx_unit(c, SV_PM, 0, SV_LINE, 2, 1, 0, 24, 10, 0, 1); /* one musket */
    int d = fx_unit(c, SV_DRAGOON, 1, SV_OPEN, 2, 2, 0, 24, 14, 0, -1);
    c->start.u[d].flags |= SV_F_DISMOUNTED; /* foot in open order: -1 */
    sv_state_t s;
    fx_state(c, &s, SV_P_FIRE, 0, 1);
    assert_int_equal(sv_fire_dice(c, &s, m, d), 0); /* */
    /* the dragoons in open order fire all round with both muskets at a line: 2 dice */
    assert_int_equal(sv_fire_dice(c, &s, d, m), 2);
    free(c);
}

static void fire_phase_marks(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int m = fx_unit(c, SV_PM, 0, SV_LINE, 4, 0, 0, 24, 10, 0, 1);
    int h = fx_unit(c, SV_MOUNTED, 1, SV_BLOCK, 6, 6, 3, 24, 15, 0, -1);
    long total = 0;
    for (uint64_t seed = 1; seed <= 600; seed++) {
        sv_state_t s;
        fx_state(c, &s, SV_P_FIRE, 0, seed);
        sv_settle(c, &s);
        assert_int_equal(s.phase, SV_P_FIRE);
        assert_int_equal(s.cur, m);
        opfor_action_t a = {.kind = SV_A_FIRE, .unit = (uint8_t)m, .target = (uint8_t)h};
        assert_int_equal(sv_engine_apply(c, &s, &a), 0);
        assert_int_equal(sv_engine_current(&s), OPFOR_PLAYER_CHANCE);
        opfor_action_t r = {
            .kind = SV_A_ROLL, .unit = OPFOR_ACTION_NONE, .target = OPFOR_ACTION_NONE};
        sv_state_t t = s;
        sv_resolve_fire(c, &t);
        assert_true(t.u[h].markers <= 6);
        assert_true(t.u[m].flags & SV_F_RED);
        total += t.u[h].markers;
        assert_int_equal(sv_engine_apply(c, &s, &r), 0);
    }
    /* 6D6 needing 2: 2 hits expected a volley */
    assert_true(total > 600 * 2 * 0.9 && total < 600 * 2 * 1.1);
    free(c);
}

/* §How do you resolve hand-to-hand combat?'s example: A (1 pike, 2 muskets) in front of a
 * five-stand Foot block, B the same at its rear, outflanking. */
static sv_ctx_t *melee_example(int *A, int *B, int *F) {
    sv_ctx_t *c = fx_ctx();
    *F = fx_unit(c, SV_FOOT, 1, SV_BLOCK, 5, 5, 3, 24, 20, 0, -1);
    *A = fx_unit(c, SV_PM, 0, SV_BLOCK, 3, 1, 2, 24, 19.99f, 0, 1);
    *B = fx_unit(c, SV_PM, 0, SV_BLOCK, 3, 1, 2, 24, 20 + 2 * STAND + 0.01f, 0, -1);
    return c;
}

static void melee_values_and_outflank(void **st) {
    (void)st;
    int A, B, F;
    sv_ctx_t *c = melee_example(&A, &B, &F);
    sv_state_t s;
    fx_state(c, &s, SV_P_MELEE, 1, 3);
    const sv_unit_t *u = s.u;
    assert_true(sv_in_contact(c, &u[A], &u[F]));
    assert_true(sv_in_contact(c, &u[B], &u[F]));
    assert_false(sv_outflanks(c, &u[A], &u[F]));
    assert_true(sv_outflanks(c, &u[B], &u[F]));
    assert_false(sv_outflanks(c, &u[F], &u[B]));
    assert_int_equal(sv_cv(c, &u[A], 1, &u[F]), 4); /* pikes */
    assert_int_equal(sv_cv(c, &u[A], 0, &u[F]), 2); /* muskets */
    assert_int_equal(sv_cv(c, &u[F], 1, &u[B]), 3); /* hand-to-hand weapons */
    /* the marker on every unit in contact, then the Foot chooses whom it attacks */
    sv_after_join(c, &s);
    assert_int_equal(s.u[A].markers, 1);
    assert_int_equal(s.u[B].markers, 1);
    assert_int_equal(s.u[F].markers, 1);
    s.side = 1;
    sv_settle(c, &s);
    assert_int_equal(s.phase, SV_P_MELEE);
    assert_int_equal(s.cur, F); /* the initiative side's unit first, two enemies: a choice */
    assert_true(fx_listed(c, &s, SV_A_ATTACK, F, A));
    assert_true(fx_listed(c, &s, SV_A_ATTACK, F, B));
    /* a defensive block is never outflanked; mounted attackers lose 2 against pikes in it */
    sv_unit_t d = u[F];
    d.form = SV_DEFBLOCK;
    assert_false(sv_outflanks(c, &u[B], &d));
    sv_unit_t hm = u[A];
    hm.kind = SV_MOUNTED;
    hm.form = SV_BLOCK;
    sv_unit_t pk = u[B];
    pk.form = SV_DEFBLOCK;
    assert_int_equal(sv_cv(c, &hm, 1, &pk), 2);
    free(c);
}

static void loss_removal_example(void **st) {
    (void)st;
    int A, B, F;
    sv_ctx_t *c = melee_example(&A, &B, &F);
    sv_state_t s;
    fx_state(c, &s, SV_P_MELEE, 1, 3); /* A and B's side removes first */
    s.u[A].markers = 1;
    s.u[B].markers = 4;
    s.u[F].markers = 2;
    sv_remove_losses(c, &s);
    assert_int_equal(s.u[A].n, 3);         /* one marker: nothing */
    assert_true(s.u[B].flags & SV_F_GONE); /* two lost, then the last stand retreats */
    assert_int_equal(s.u[B].n, 0);
    assert_int_equal(s.u[F].n, 4);
    assert_false(s.u[F].flags & SV_F_GONE);
    assert_int_equal(s.tally[0], 3);
    assert_int_equal(s.tally[1], 1);
    for (int i = 0; i < s.nunits; i++)
        assert_int_equal(s.u[i].markers, 0);
    free(c);
}

static void rout_for_lost_contact(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    /* a four-stand block (two ranks) touched at its rear; losing two stands leaves one rank */
    int F = fx_unit(c, SV_FOOT, 1, SV_BLOCK, 4, 4, 2, 24, 20, 0, -1);
    int A = fx_unit(c, SV_PM, 0, SV_BLOCK, 4, 2, 2, 24, 19.99f, 0, 1);
    int B = fx_unit(c, SV_PM, 0, SV_BLOCK, 4, 2, 2, 24, 20 + 2 * STAND + 0.01f, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MELEE, 0, 3);
    s.u[F].markers = 4;
    sv_remove_losses(c, &s);
    assert_true(s.u[F].flags & SV_F_GONE); /* routed: all four stands count */
    assert_int_equal(s.tally[1], 4);
    assert_int_equal(s.u[A].n, 4);
    assert_int_equal(s.u[B].n, 4);
    /* the same losses with nobody behind: it stays as a line of two */
    sv_ctx_t *c2 = fx_ctx();
    F = fx_unit(c2, SV_FOOT, 1, SV_BLOCK, 4, 4, 2, 24, 20, 0, -1);
    fx_unit(c2, SV_PM, 0, SV_BLOCK, 4, 2, 2, 24, 19.99f, 0, 1);
    fx_state(c2, &s, SV_P_MELEE, 0, 3);
    s.u[F].markers = 5; /* a leftover marker is discarded */
    sv_remove_losses(c2, &s);
    assert_int_equal(s.u[F].n, 2);
    assert_int_equal(s.u[F].markers, 0);
    assert_int_equal(s.tally[1], 2);
    free(c);
    free(c2);
}

static void breakpoints_69(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int sub = fx_unit(c, SV_SUB, 0, SV_OPEN, 1, 1, 1, 5, 5, 0, 1);
    int cmd = fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 1, 1, 10, 5, 0, 1);
    fx_unit(c, SV_COMMANDER, 1, SV_OPEN, 1, 1, 1, 10, 30, 0, -1);
    c->start.stands0[0] = 69;
    c->start.stands0[1] = 69;
    sv_state_t s;
    /* 18 is not over the quarter (18) */
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    s.tally[0] = 18;
    sv_victory(c, &s);
    assert_true(sv_alive(&s.u[sub]));
    assert_int_equal(s.phase, SV_P_INITIATIVE);
    assert_int_equal(s.turn, 2);
    /* 19: the sub-commanders go (20), the commander stays (third 23) */
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    s.tally[0] = 19;
    sv_victory(c, &s);
    assert_false(sv_alive(&s.u[sub]));
    assert_true(sv_alive(&s.u[cmd]));
    assert_int_equal(s.tally[0], 20);
    /* 23: the sub-commander's removal makes 24, over the third: the commander goes too */
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    s.tally[0] = 23;
    sv_victory(c, &s);
    assert_false(sv_alive(&s.u[cmd]));
    assert_int_equal(s.tally[0], 25);
    assert_int_equal(s.phase, SV_P_INITIATIVE);
    /* 36: over the half (35): the other side's Splendid Victory, or Minor, or a draw */
    double r[2];
    int other[4] = {0, 24, 36, 23};
    int result[4] = {SV_R_SPLENDID, SV_R_MINOR, SV_R_DRAW, SV_R_SPLENDID};
    for (int k = 0; k < 4; k++) {
        fx_state(c, &s, SV_P_MOVE, 0, 1);
        s.tally[0] = 36;
        s.tally[1] = (uint16_t)other[k];
        s.cut[1] = 3; /* its command stands are long gone */
        sv_victory(c, &s);
        assert_int_equal(s.phase, SV_P_OVER);
        assert_int_equal(s.result, result[k]);
        sv_engine_returns(&s, r);
        if (result[k] != SV_R_DRAW)
            assert_int_equal(s.winner, 1);
        assert_true(r[0] + r[1] == 0.0);
        assert_true(r[1] == (result[k] == SV_R_SPLENDID ? 1.0
                             : result[k] == SV_R_MINOR  ? 0.5
                                                        : 0.0));
    }
    /* the scenario's turn limit: a draw */
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    s.turn = (uint8_t)c->turn_limit;
    sv_victory(c, &s);
    assert_int_equal(s.phase, SV_P_OVER);
    assert_int_equal(s.result, SV_R_DRAW);
    free(c);
}

static void split_attack(void **st) {
    (void)st;
    int A, B, F;
    sv_ctx_t *c = melee_example(&A, &B, &F);
    long on_a = 0, on_b = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        sv_state_t s;
        fx_state(c, &s, SV_P_MELEE, 1, seed);
        s.side = 1;
        sv_settle(c, &s);
        assert_int_equal(s.cur, F);
        opfor_action_t acts[SV_MAX_ACTIONS];
        int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS);
        assert_int_equal(n, 3); /* A, B, or split */
        assert_int_equal(acts[2].sub, 1);
        sv_state_t t = s;
        assert_int_equal(sv_engine_apply(c, &t, &acts[2]), 0);
        assert_int_equal(sv_attack(c, &s, F, -1), 0); /* what that action does */
        /* no command stand near: no re-throw; 3 stands at A, 2 at B, each hitting on 3 */
        assert_true(s.u[A].markers <= 3 && s.u[B].markers <= 2);
        on_a += s.u[A].markers;
        on_b += s.u[B].markers;
    }
    assert_true(on_a > 400 * 1.5 * 0.85 && on_a < 400 * 1.5 * 1.15);
    assert_true(on_b > 400 * 1.0 * 0.85 && on_b < 400 * 1.0 * 1.15);
    free(c);
}

static void pivot_before_fire(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int m = fx_unit(c, SV_PM, 0, SV_LINE, 4, 0, 0, 24, 10, 0, 1);
    int b = fx_unit(c, SV_PM, 1, SV_BLOCK, 4, 2, 2, 29.3f, 15, 0, -1); /* just right of its zone */
    sv_state_t s;
    fx_state(c, &s, SV_P_INITIATIVE, 0, 1);
    assert_int_equal(sv_fire_dice(c, &s, m, b), 0);
    sv_start_fire(c, &s);
    sv_settle(c, &s);
    assert_int_equal(s.phase, SV_P_PIVOT); /* pivots first */
    assert_int_equal(s.cur, m);
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS);
    assert_int_equal(n, 2); /* hold, or the pivot that brings b into its zone */
    assert_int_equal(acts[1].sub, 4);
    assert_true(acts[1].x2 > 0.15f && acts[1].x2 < 0.17f); /* 9.1 degrees for four stands */
    assert_int_equal(sv_engine_apply(c, &s, &acts[1]), 0);
    if (s.phase == SV_P_PIVOT) { /* b may pivot towards m in its turn: it holds */
        assert_int_equal(s.cur, b);
        opfor_action_t hold = {.kind = SV_A_HOLD, .unit = (uint8_t)b, .target = OPFOR_ACTION_NONE};
        assert_int_equal(sv_engine_apply(c, &s, &hold), 0);
    }
    assert_int_equal(s.phase, SV_P_FIRE);
    assert_true(fx_listed(c, &s, SV_A_FIRE, m, b));
    free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fire_examples),
        cmocka_unit_test(zero_dice_and_quality),
        cmocka_unit_test(fire_phase_marks),
        cmocka_unit_test(pivot_before_fire),
        cmocka_unit_test(melee_values_and_outflank),
        cmocka_unit_test(split_attack),
        cmocka_unit_test(loss_removal_example),
        cmocka_unit_test(rout_for_lost_contact),
        cmocka_unit_test(breakpoints_69),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
