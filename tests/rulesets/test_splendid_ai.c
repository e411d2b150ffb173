/* tests/rulesets/test_splendid_ai.c — A Splendid Victory!'s AI side in small positions where the
 * sensible choice is clear (docs/splendid.md 10): horse charges an unsupported shot unit; foot
 * threatened by horse forms a defensive block, and charged by horse forms a hasty one; the
 * orders name the test, the dice and the score needed; the position value favours the side
 * whose enemy is nearer its breakpoint; both bots open and play legal actions.
 */
#include "../../rulesets/splendid/ai_int.h"
#include "test_splendid_engine_helper.h"

extern const opfor_ruleset_t opfor_splendid_ruleset;

/* The bot's choice in s. */
static opfor_action_t bot_pick(const sv_ctx_t *c, const sv_state_t *s, const char *name) {
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, &opfor_splendid_ruleset, c, 0), 0);
    opfor_policy_t p;
    assert_int_equal(sv_ai_bot_open(name, &g, &p), 0);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 7, 1);
    opfor_action_t a;
    assert_int_equal(p.choose(p.self, &g, s, &rng, &a), 0);
    p.release(p.self);
    return a;
}

/* A horse unit with its commander beside it (in command: no charge test) and a shot unit of
 * three musket stands in line 10" ahead, nothing to support it. */
static sv_ctx_t *horse_and_shot(int *horse, int *shot) {
    sv_ctx_t *c = fx_ctx();
    *horse = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 4, 0, 0, 24, 10, 0, 1);
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 0, 0, 24, 6, 0, 1);
    *shot = fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 24, 20, 0, -1);
    fx_unit(c, SV_COMMANDER, 1, SV_OPEN, 1, 0, 0, 44, 32, 0, -1);
    return c;
}

static void horse_charges_unsupported_shot(void **state) {
    (void)state;
    int horse, shot;
    sv_ctx_t *c = horse_and_shot(&horse, &shot);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    assert_true(fx_listed(c, &s, SV_A_CHARGE, horse, shot));
    const char *names[2] = {"table", "heuristic"};
    for (int b = 0; b < 2; b++) {
        opfor_action_t a = bot_pick(c, &s, names[b]);
        assert_int_equal(a.kind, SV_A_CHARGE);
        assert_int_equal(a.unit, horse);
        assert_int_equal(a.target, shot);
        assert_int_equal(a.sub, 0); /* a plain charge, not an extended one */
    }
    free(c);
}

static void foot_forms_defensive_block_against_horse(void **state) {
    (void)state;
    sv_ctx_t *c = fx_ctx();
    int foot = fx_unit(c, SV_PM, 0, SV_BLOCK, 6, 2, 3, 24, 10, 0, 1);
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 0, 0, 4, 4, 0, 1);
    int horse = fx_unit(c, SV_HEAVY, 1, SV_BLOCK, 5, 0, 3, 24, 17, 0, -1);
    fx_unit(c, SV_COMMANDER, 1, SV_OPEN, 1, 0, 0, 44, 32, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t a = bot_pick(c, &s, "table");
    assert_int_equal(a.kind, SV_A_FORM);
    assert_int_equal(a.unit, foot);
    assert_int_equal(a.sub, SV_DEFBLOCK);

    /* charged by that horse from afar: a hasty defensive block (§Reactions 4), by both bots */
    fx_state(c, &s, SV_P_REACT, 1, 1);
    s.side = 0;
    s.charger = (uint8_t)horse;
    s.charged = (uint8_t)foot;
    s.u[horse].y = 10.0f; /* in contact, front to front */
    assert_true(sv_in_contact(c, &s.u[horse], &s.u[foot]));
    s.charge_far = 1;             /* it came from beyond 9": the horse tests to pull up short */
    a = bot_pick(c, &s, "table"); /* the card: the block before defensive fire */
    assert_int_equal(a.kind, SV_A_HASTY);
    assert_int_equal(a.unit, foot);
    /* the planner weighs the muskets' defensive fire too; foot without muskets blocks */
    s.u[foot].kind = SV_FOOT;
    for (int b = 0; b < 2; b++) {
        a = bot_pick(c, &s, b ? "heuristic" : "table");
        assert_int_equal(a.kind, SV_A_HASTY);
        assert_int_equal(a.unit, foot);
    }
    free(c);
}

static void charge_order_names_the_test_and_its_score(void **state) {
    (void)state;
    sv_ctx_t *c = fx_ctx();
    int horse = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 4, 0, 0, 24, 10, 0, 1);
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 0, 0, 2, 2, 0, 1); /* far: out of command */
    int shot = fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 24, 20, 0, -1);
    snprintf(c->names[horse], sizeof c->names[horse], "Fairfax's Horse");
    snprintf(c->names[shot], sizeof c->names[shot], "Byron's Shot");
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t a;
    memset(&a, 0, sizeof a);
    a.kind = SV_A_CHARGE;
    a.unit = (uint8_t)horse;
    a.target = (uint8_t)shot;
    assert_true(fx_listed(c, &s, SV_A_CHARGE, horse, shot));
    opfor_order_t o;
    assert_int_equal(sv_ai_order(c, &s, &a, &o), 0);
    assert_int_equal(o.side, 0);
    assert_string_equal(o.unit_name, "Fairfax's Horse");
    assert_string_equal(o.target_name, "Byron's Shot");
    assert_string_equal(o.verb, "charge");
    assert_non_null(strstr(o.sentence, "Fairfax's Horse"));
    assert_non_null(strstr(o.sentence, "charges Byron's Shot"));
    assert_non_null(strstr(o.sentence, "charge test 1D6, 3 or less (50%)")); /* regular */
    assert_int_equal(o.nrolls, 1);
    assert_string_equal(o.rolls[0].label, "charge test");
    assert_string_equal(o.rolls[0].need, "3 or less on 1D6");
    assert_true(fabs(o.rolls[0].p - 0.5) < 1e-9);
    assert_int_equal(o.has_move, 1);
    assert_string_equal(o.direction, "N");
    assert_true(o.reason[0] != 0);

    /* the shot's fire at the horse: 3 muskets in line, +1 against mounted, 2 or less hits */
    fx_state(c, &s, SV_P_FIRE, 1, 1);
    s.side = 1;
    s.cur = (uint8_t)shot;
    s.u[horse].y = 15.0f; /* 5" away, in musket range */
    memset(&a, 0, sizeof a);
    a.kind = SV_A_FIRE;
    a.unit = (uint8_t)shot;
    a.target = (uint8_t)horse;
    assert_int_equal(sv_fire_dice(c, &s, shot, horse), 4);
    assert_int_equal(sv_ai_order(c, &s, &a, &o), 0);
    assert_int_equal(o.side, 1);
    assert_int_equal(o.figures, 3);
    assert_int_equal(o.rolls[0].dice, 4);
    assert_string_equal(o.rolls[0].need, "2 or less on 1D6");
    assert_non_null(strstr(o.sentence, "4D6, each 2 or less hits"));
    free(c);
}

static void value_favours_the_side_nearer_victory(void **state) {
    (void)state;
    int horse, shot;
    sv_ctx_t *c = horse_and_shot(&horse, &shot);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    double v0 = sv_ai_value(c, &s, NULL);
    assert_true(v0 >= -1.0 && v0 <= 1.0);
    sv_remove(&s, shot, 2); /* side 1 loses two stands */
    double v1 = sv_ai_value(c, &s, NULL);
    assert_true(v1 > v0 + 0.2);
    s.u[horse].markers = 4; /* two stands of side 0 about to go */
    assert_true(sv_ai_value(c, &s, NULL) < v1);
    free(c);
}

/* A gun's order names its state of limber plainly: "1 stand, unlimbered", not "1 stand in
 * unlimbered" (docs/splendid.md 10.1). */
static void gun_order_names_its_limber_plainly(void **state) {
    (void)state;
    sv_ctx_t *c = fx_ctx();
    int gun = fx_unit(c, SV_FRAME, 0, SV_UNLIMBERED, 1, 0, 1, 24, 10, 0, 1);
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 0, 0, 24, 6, 0, 1);
    fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 40, 20, 0, -1);
    fx_unit(c, SV_COMMANDER, 1, SV_OPEN, 1, 0, 0, 44, 32, 0, -1);
    snprintf(c->names[gun], sizeof c->names[gun], "Rupert's Guns");
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t a;
    memset(&a, 0, sizeof a);
    a.kind = SV_A_MOVE;
    a.sub = 4; /* a pivot about the front centre */
    a.unit = (uint8_t)gun;
    a.target = OPFOR_ACTION_NONE;
    a.x = 24.0f;
    a.y = 10.0f;
    a.x2 = 1.0f;
    a.y2 = 0.0f;
    opfor_order_t o;
    assert_int_equal(sv_ai_order(c, &s, &a, &o), 0);
    assert_string_equal(o.verb, "pivot");
    assert_string_equal(o.sentence, "Rupert's Guns (frame gun, 1 stand, unlimbered) pivots about "
                                    "its front centre to face E.");
    s.u[gun].form = SV_LIMBERED;
    assert_int_equal(sv_ai_order(c, &s, &a, &o), 0);
    assert_non_null(strstr(o.sentence, "(frame gun, 1 stand, limbered)"));
    free(c);
}

/* The planner judges a manoeuvre by the phase it belongs to: a horse charge across the front of
 * enemy heavy horse that intercepts it is not made, although the charged shot alone would lose
 * (the one-action planner charged: it valued the position before the intercept). */
static void horse_does_not_charge_across_enemy_heavy_horse(void **state) {
    (void)state;
    sv_ctx_t *c = fx_ctx();
    int horse = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 4, 0, 0, 24, 10, 0, 1);
    int shot = fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 24, 20, 0, -1);
    fx_unit(c, SV_HEAVY, 1, SV_LINE, 4, 0, 0, 16, 15, 1, 0); /* facing the charge's path */
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 0, 0, 2, 2, 0, 1);
    fx_unit(c, SV_COMMANDER, 1, SV_OPEN, 1, 0, 0, 44, 40, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    assert_true(fx_listed(c, &s, SV_A_CHARGE, horse, shot));
    opfor_action_t a = bot_pick(c, &s, "heuristic");
    assert_int_equal(a.unit, horse);
    assert_int_not_equal(a.kind, SV_A_CHARGE);
    free(c);
}

/* A side past its half breakpoint has lost: the victory phase of this turn ends the game (§The
 * Determine Victory Phase), so the value is the result, not a lead — a splendid victory (1) while
 * the winner's own tally is within its third, a minor one (0.5) beyond it. The search's value of
 * a position still open stays below the least victory, so a lead never looks better than a win
 * it could take (the returns are 1, 0.5 and 0 for a draw at the turn limit). */
static void value_of_a_broken_army_is_the_result(void **state) {
    (void)state;
    int horse, shot;
    sv_ctx_t *c = horse_and_shot(&horse, &shot); /* 5 stands against 4: side 1 breaks at 3 */
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, &opfor_splendid_ruleset, c, 0), 0);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    sv_remove(&s, shot, 2); /* two of side 1's four stands: at its half, not past it */
    double v[2], d;
    assert_int_equal(sv_ai_decided(c, &s, &d), 0);
    assert_int_equal(opfor__sv_evaluator.evaluate(NULL, NULL, &g, &s, v), 0);
    assert_true(v[0] > 0.2 && v[0] <= 0.5); /* well ahead, not yet won */
    assert_true(v[1] == -v[0]);
    sv_remove(&s, shot, 1); /* the third: past the half, side 0 has won splendidly */
    assert_int_equal(sv_ai_decided(c, &s, &d), 1);
    assert_true(d == 1.0);
    assert_true(sv_ai_value(c, &s, NULL) == 1.0);
    assert_int_equal(opfor__sv_evaluator.evaluate(NULL, NULL, &g, &s, v), 0);
    assert_true(v[0] == 1.0 && v[1] == -1.0);
    sv_remove(&s, horse, 3); /* side 0 past its own third (2 of 5): a minor victory */
    assert_true(sv_ai_value(c, &s, NULL) == 0.5);
    free(c);
}

/* In hand-to-hand a unit touching two enemies may also split its stands between them (an
 * attack with no one target). The rule card looks for the enemy it outflanks among the
 * attacks that name one and never reads a unit past the state's list for the split (it did:
 * u[255], out of bounds, and a stray unit there made it split when one attack was plainly
 * better). The state is laid in a larger block whose unit at that place would be outflanked,
 * so the old read is seen without a sanitizer; the ASan run of the suite sees it too. */
static void table_split_attack_reads_no_unit_past_the_list(void **state) {
    (void)state;
    sv_ctx_t *c = fx_ctx();
    int foot = fx_unit(c, SV_PM, 0, SV_LINE, 4, 0, 4, 24, 10, 0, 1);
    float w = STAND; /* two enemy units of two stands each, front to front with it */
    int left = fx_unit(c, SV_PM, 1, SV_LINE, 2, 0, 2, 24 - w, 10, 0, -1);
    int right = fx_unit(c, SV_PM, 1, SV_LINE, 2, 0, 2, 24 + w, 10, 0, -1);
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 0, 0, 4, 4, 0, 1);
    fx_unit(c, SV_COMMANDER, 1, SV_OPEN, 1, 0, 0, 44, 32, 0, -1);
    struct {
        sv_state_t s;
        sv_unit_t beyond[256];
    } *big = calloc(1, sizeof *big);
    assert_non_null(big);
    fx_state(c, &big->s, SV_P_MELEE, 0, 1);
    big->s.cur = (uint8_t)foot;
    assert_true(sv_in_contact(c, &big->s.u[foot], &big->s.u[left]));
    assert_true(sv_in_contact(c, &big->s.u[foot], &big->s.u[right]));
    opfor_action_t acts[8];
    assert_int_equal(sv_engine_legal(c, &big->s, acts, 8), 3); /* left, right or split */
    /* at u[OPFOR_ACTION_NONE]'s place: an enemy whose rear the foot's front presses */
    char *at = (char *)&big->s.u[0] + (size_t)OPFOR_ACTION_NONE * sizeof(sv_unit_t);
    assert_true(at >= (char *)big->beyond &&
                at + sizeof(sv_unit_t) <= (char *)big->beyond + sizeof big->beyond);
    sv_unit_t stray = big->s.u[left];
    stray.fx = 0.0f;
    stray.fy = 1.0f;
    stray.y = 10.0f + STAND;
    assert_true(sv_outflanks(c, &big->s.u[foot], &stray));
    memcpy(at, &stray, sizeof stray);
    opfor_action_t a = bot_pick(c, &big->s, "table");
    assert_int_equal(a.kind, SV_A_ATTACK);
    assert_int_equal(a.unit, foot);
    assert_int_equal(a.sub, 0);
    assert_true(a.target == left || a.target == right);
    free(big);
    free(c);
}

/* The search's playouts never concede: a uniform draw among the legal actions (one playout step
 * in five) picked the concession that a side past its third is offered, and the playout ended
 * as a loss that no player would have chosen. */
static void playouts_never_concede(void **state) {
    (void)state;
    int horse, shot;
    sv_ctx_t *c = horse_and_shot(&horse, &shot);
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, &opfor_splendid_ruleset, c, 0), 0);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    sv_remove(&s, horse, 3); /* side 0: 3 of 5 stands lost, past its third: it may concede */
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS);
    assert_int_equal(acts[n - 1].kind, SV_A_CONCEDE);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 3, 1);
    for (int k = 0; k < 4000; k++) {
        int i = opfor__sv_evaluator.policy(NULL, NULL, &g, &s, acts, n, &rng);
        assert_true(i >= 0 && i < n);
        assert_int_not_equal(acts[i].kind, SV_A_CONCEDE);
    }
    free(c);
}

/* Whether a manoeuvre a puts any corner of its unit off the table (R-31: those stands are lost). */
static int off_table(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a) {
    if (a->kind != SV_A_MOVE || a->unit >= s->nunits)
        return 0;
    sv_unit_t m = s->u[a->unit];
    m.x = a->x;
    m.y = a->y;
    m.fx = a->x2;
    m.fy = a->y2;
    opfor_pt_t r[4];
    sv_rect(c, &m, r);
    return !sv_on_table(c, r);
}

/* The Lifeguard (two stands of Royalist heavy horse) has ridden round Parliament's foot to the
 * bottom edge, an enemy block of horse to its right: the engine lists manoeuvres that keep
 * their distance from the foot by riding on over the edge (R-31 takes every stand with a
 * corner off the table), and no bot orders one; the score says why. The old rule card rode off
 * the table so in 55 of 400 games against random, and lost them (a position from such a
 * game; docs/ai.md). */
static void no_bot_rides_off_the_table(void **state) {
    (void)state;
    sv_ctx_t *c = fx_ctx();
    fx_unit(c, SV_PM, 0, SV_BLOCK, 6, 2, 3, 22.0f, 8.85f, 0, -1);
    fx_unit(c, SV_MOUNTED, 0, SV_BLOCK, 4, 4, 2, 34.0f, 12.0f, -0.59f, 0.81f);
    fx_unit(c, SV_COMMANDER, 1, SV_OPEN, 1, 0, 0, 24, 32, 0, -1);
    int horse = fx_unit(c, SV_HEAVY, 1, SV_BLOCK, 2, 2, 2, 25.11f, 3.85f, -0.8f, -0.6f);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 1, 1);
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS), off = 0;
    for (int i = 0; i < n; i++)
        if (off_table(c, &s, &acts[i]) && acts[i].unit == horse) {
            off++;
            const char *why = NULL;
            assert_true(sv_ai_score(c, &s, &acts[i], &why) < 0.0);
            assert_non_null(strstr(why, "off the table"));
        }
    assert_true(off > 0); /* the position offers the fault */
    const char *names[2] = {"table", "heuristic"};
    for (int b = 0; b < 2; b++) {
        opfor_action_t a = bot_pick(c, &s, names[b]);
        assert_false(off_table(c, &s, &a));
    }
    free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(horse_charges_unsupported_shot),
        cmocka_unit_test(foot_forms_defensive_block_against_horse),
        cmocka_unit_test(charge_order_names_the_test_and_its_score),
        cmocka_unit_test(value_favours_the_side_nearer_victory),
        cmocka_unit_test(gun_order_names_its_limber_plainly),
        cmocka_unit_test(horse_does_not_charge_across_enemy_heavy_horse),
        cmocka_unit_test(value_of_a_broken_army_is_the_result),
        cmocka_unit_test(table_split_attack_reads_no_unit_past_the_list),
        cmocka_unit_test(playouts_never_concede),
        cmocka_unit_test(no_bot_rides_off_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
