/* tests/rulesets/test_duel.c — the dice duel's rules from small positions: the deal, the
 * hidden hand (views and resampling), the explicit 1D6 chance node, the ends of the game,
 * the scenario file, portable bytes, and the duel's calculator, session and AI tables.
 * Built only with OPFOR_TEST_RULESETS (the duel is a test-only ruleset).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opfor/duel/duel.h"
#include "opfor/order.h"
#include "opfor/ruleset_ai.h"
#include "opfor/ruleset_calc.h"
#include "opfor/session.h"

static const opfor_ruleset_t *RS = &opfor_duel_ruleset;
static const opfor_duel_ctx_t *CTX = &opfor_duel_default_ctx;

/* A fresh game of the built-in scenario. */
static opfor_duel_state_t fresh(uint64_t seed) {
    opfor_duel_state_t s;
    assert_int_equal(RS->init(CTX, &s, seed), 0);
    return s;
}

/* Sets side's hand (ascending values, 0-padded) keeping the card counts consistent: the
 * cards leave the deck (or come from `used` when the deck lacks them). */
static void set_hand(opfor_duel_state_t *s, int side, int a, int b, int c) {
    int want[3] = {a, b, c};
    /* put the old hand back in the deck */
    for (int i = 0; i < OPFOR_DUEL_HAND; i++)
        if (s->hand[side][i])
            s->deck[s->ndeck++] = s->hand[side][i];
    memset(s->hand[side], 0, OPFOR_DUEL_HAND);
    for (int i = 0; i < 3 && want[i]; i++) {
        int k = 0;
        while (k < s->ndeck && s->deck[k] != want[i])
            k++;
        assert_true(k < s->ndeck);
        s->deck[k] = s->deck[--s->ndeck];
        s->deck[s->ndeck] = 0;
        s->hand[side][i] = (uint8_t)want[i];
    }
}

static int hand_count(const opfor_duel_state_t *s, int side) {
    int n = 0;
    for (int i = 0; i < OPFOR_DUEL_HAND; i++)
        n += s->hand[side][i] != 0;
    return n;
}

static int legal(const opfor_duel_state_t *s, opfor_action_t *acts) {
    return RS->legal(CTX, s, acts, OPFOR_DUEL_MAX_ACTIONS);
}

static void apply_ok(opfor_duel_state_t *s, opfor_action_t a) {
    assert_int_equal(RS->apply(CTX, s, &a), 0);
}

/* ---------------------------------------------------------------- the rules */

static void duel_deal(void **st) {
    opfor_duel_state_t s = fresh(42), t = fresh(42);
    assert_memory_equal(&s, &t, sizeof s);
    assert_int_equal(s.ndeck, OPFOR_DUEL_DECK - 2 * OPFOR_DUEL_HAND);
    int count[8] = {0};
    for (int side = 0; side < 2; side++) {
        assert_int_equal(s.hp[side], 10);
        for (int i = 0; i < OPFOR_DUEL_HAND; i++) {
            assert_true(s.hand[side][i] >= 1 && s.hand[side][i] <= 6);
            count[s.hand[side][i]]++;
            if (i)
                assert_true(s.hand[side][i - 1] <= s.hand[side][i]); /* kept sorted */
        }
    }
    for (int i = 0; i < s.ndeck; i++)
        count[s.deck[i]]++;
    for (int v = 1; v <= 6; v++)
        assert_int_equal(count[v], 3);
    assert_int_equal(RS->current(CTX, &s), 0);
    /* another seed, another deal */
    opfor_duel_state_t u = fresh(43);
    assert_memory_not_equal(&s, &u, sizeof s);
}

static void duel_legal_lists_distinct_cards_then_pass(void **st) {
    opfor_duel_state_t s = fresh(1);
    set_hand(&s, 0, 2, 2, 5);
    opfor_action_t acts[8];
    int n = legal(&s, acts);
    assert_int_equal(n, 3);
    opfor_action_t p2 = opfor_duel_play(2), p5 = opfor_duel_play(5), pass = opfor_duel_pass();
    assert_true(opfor_action_eq(&acts[0], &p2));
    assert_true(opfor_action_eq(&acts[1], &p5));
    assert_true(opfor_action_eq(&acts[2], &pass));
    /* a card not in hand is refused and the state stays */
    opfor_duel_state_t t = s;
    opfor_action_t p6 = opfor_duel_play(6);
    assert_int_equal(RS->apply(CTX, &t, &p6), OPFOR_EILLEGAL);
    assert_memory_equal(&t, &s, sizeof s);
    /* an empty hand may only pass */
    set_hand(&s, 0, 0, 0, 0);
    assert_int_equal(legal(&s, acts), 1);
    assert_true(opfor_action_eq(&acts[0], &pass));
}

static void duel_explicit_outcomes(void **st) {
    opfor_duel_state_t s = fresh(7);
    set_hand(&s, 0, 3, 0, 0);
    apply_ok(&s, opfor_duel_play(3));
    assert_int_equal(RS->current(CTX, &s), OPFOR_PLAYER_CHANCE);
    assert_int_equal(s.pending, 3);
    opfor_action_t acts[8];
    assert_int_equal(legal(&s, acts), 1);
    opfor_action_t roll = opfor_duel_roll();
    assert_true(opfor_action_eq(&acts[0], &roll));
    opfor_chance_outcome_t outs[8];
    assert_int_equal(RS->chance_outcomes(CTX, &s, outs, 8), 6);
    assert_int_equal(RS->chance_outcomes(CTX, &s, outs, 5), OPFOR_ERANGE);
    double sum = 0;
    for (int f = 1; f <= 6; f++) {
        assert_int_equal(outs[f - 1].action.sub, f);
        sum += outs[f - 1].p;
        /* the card 3 against defence 5: damage = die - 2 when above 0 */
        opfor_duel_state_t t = s;
        apply_ok(&t, outs[f - 1].action);
        int dmg = f + 3 - 5 > 0 ? f + 3 - 5 : 0;
        assert_int_equal(t.hp[1], 10 - dmg);
        assert_int_equal(t.last_roll, f);
        assert_int_equal(t.last_damage, dmg);
        assert_int_equal(RS->current(CTX, &t), 1); /* Blue's turn */
        assert_int_equal(hand_count(&t, 0), 3);    /* Red drew back to 3 */
    }
    assert_true(fabs(sum - 1.0) < 1e-12);
    /* no outcomes where nobody rolls */
    opfor_duel_state_t d = fresh(7);
    assert_int_equal(RS->chance_outcomes(CTX, &d, outs, 8), 0);
    /* the open-loop roll draws from the state's stream: the same stream, the same die */
    opfor_duel_state_t a = s, b = s;
    apply_ok(&a, roll);
    apply_ok(&b, roll);
    assert_memory_equal(&a, &b, sizeof a);
    assert_true(a.last_roll >= 1 && a.last_roll <= 6);
}

static void duel_guard_heals_to_the_start(void **st) {
    opfor_duel_state_t s = fresh(3);
    s.hp[0] = 9;
    apply_ok(&s, opfor_duel_pass());
    assert_int_equal(s.hp[0], 10);
    assert_int_equal(s.last_kind, OPFOR_DUEL_PASS);
    apply_ok(&s, opfor_duel_pass()); /* Blue at full: stays 10 */
    assert_int_equal(s.hp[1], 10);
    opfor_progress_t pr;
    assert_int_equal(RS->progress(CTX, &s, &pr), 0);
    assert_int_equal(pr.turn, 1);
    assert_int_equal(pr.activation, 2);
}

static void duel_ends_at_zero_hp(void **st) {
    opfor_duel_state_t s = fresh(5);
    set_hand(&s, 0, 6, 0, 0);
    s.hp[1] = 2;
    apply_ok(&s, opfor_duel_play(6));
    apply_ok(&s, opfor_duel_force(1)); /* 1 + 6 - 5 = 2 damage */
    assert_int_equal(s.hp[1], 0);
    assert_int_equal(RS->current(CTX, &s), OPFOR_PLAYER_TERMINAL);
    assert_int_equal(s.winner, OPFOR_DUEL_RED);
    opfor_action_t acts[8];
    assert_int_equal(legal(&s, acts), 0);
    double v[2];
    assert_int_equal(RS->returns(CTX, &s, v), 0);
    assert_true(v[0] == 1.0 && v[1] == -1.0);
    opfor_action_t pass = opfor_duel_pass();
    assert_int_equal(RS->apply(CTX, &s, &pass), OPFOR_EILLEGAL);
}

static void duel_ends_after_the_rounds(void **st) {
    opfor_duel_ctx_t c = {.hp = 10, .rounds = 1, .defence = 5};
    opfor_duel_state_t s;
    assert_int_equal(RS->init(&c, &s, 9), 0);
    opfor_action_t pass = opfor_duel_pass();
    assert_int_equal(RS->apply(&c, &s, &pass), 0);
    assert_int_equal(RS->current(&c, &s), 1);
    assert_int_equal(RS->apply(&c, &s, &pass), 0);
    assert_int_equal(RS->current(&c, &s), OPFOR_PLAYER_TERMINAL);
    assert_int_equal(s.winner, OPFOR_DUEL_DRAW); /* equal hit points */
    double v[2];
    RS->returns(&c, &s, v);
    assert_true(v[0] == 0.0 && v[1] == 0.0);
    /* more hit points wins on points */
    assert_int_equal(RS->init(&c, &s, 9), 0);
    s.hp[0] = 4;
    assert_int_equal(RS->apply(&c, &s, &pass), 0); /* Red heals to 5 */
    assert_int_equal(RS->apply(&c, &s, &pass), 0);
    assert_int_equal(s.winner, OPFOR_DUEL_BLUE);
    RS->returns(&c, &s, v);
    assert_true(v[0] == -1.0 && v[1] == 1.0);
}

/* ---------------------------------------------------------------- hidden information */

static void duel_view_hides_the_other_hand(void **st) {
    opfor_duel_state_t s = fresh(11), v, w;
    assert_int_equal(RS->view(CTX, &s, OPFOR_VIEW_ALL, &v), 0);
    assert_memory_equal(&v, &s, sizeof s);
    assert_int_equal(RS->view(CTX, &s, 0, &v), 0);
    assert_memory_equal(v.hand[0], s.hand[0], OPFOR_DUEL_HAND); /* its own */
    for (int i = 0; i < OPFOR_DUEL_HAND; i++)
        assert_int_equal(v.hand[1][i], OPFOR_DUEL_UNKNOWN);
    for (int i = 0; i < v.ndeck; i++)
        assert_int_equal(v.deck[i], OPFOR_DUEL_UNKNOWN);
    assert_int_equal(v.hp[1], s.hp[1]);
    /* the view of a view is the view */
    assert_int_equal(RS->view(CTX, &v, 0, &w), 0);
    assert_memory_equal(&v, &w, sizeof v);
    assert_int_equal(RS->view(CTX, &s, 2, &v), OPFOR_EINVAL);
    /* a view lists the viewer's own moves as the state does */
    opfor_action_t a1[8], a2[8];
    int n = legal(&s, a1);
    assert_int_equal(legal(&v, a2), n);
    assert_memory_equal(a1, a2, (size_t)n * sizeof a1[0]);
}

static void duel_resample_redraws_only_the_unseen(void **st) {
    opfor_duel_state_t s = fresh(13);
    apply_ok(&s, opfor_duel_play(s.hand[0][0]));
    apply_ok(&s, opfor_duel_force(4));
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 99, 1);
    int changed = 0;
    for (int k = 0; k < 50; k++) {
        opfor_duel_state_t t = s, vs, vt;
        assert_int_equal(RS->resample(CTX, &t, 1, &rng), 0);
        /* Blue's own hand, the public counts and the dice stay */
        assert_memory_equal(t.hand[1], s.hand[1], OPFOR_DUEL_HAND);
        assert_int_equal(t.ndeck, s.ndeck);
        assert_memory_equal(t.used, s.used, sizeof s.used);
        assert_memory_equal(&t.rng, &s.rng, sizeof s.rng);
        /* the same cards, dealt differently */
        int count[8] = {0};
        for (int i = 0; i < OPFOR_DUEL_HAND; i++)
            count[s.hand[0][i]]++, count[t.hand[0][i]]--;
        for (int i = 0; i < s.ndeck; i++)
            count[s.deck[i]]++, count[t.deck[i]]--;
        for (int v = 0; v < 8; v++)
            assert_int_equal(count[v], 0);
        changed += memcmp(&t, &s, sizeof s) != 0;
        /* Blue cannot tell them apart */
        RS->view(CTX, &s, 1, &vs);
        RS->view(CTX, &t, 1, &vt);
        assert_memory_equal(&vs, &vt, sizeof vs);
        /* and resampling Blue's view gives a whole state of the game again */
        assert_int_equal(RS->resample(CTX, &vs, 1, &rng), 0);
        for (int i = 0; i < OPFOR_DUEL_HAND; i++)
            assert_true(vs.hand[0][i] <= 6);
    }
    assert_true(changed > 25);
    assert_int_equal(RS->resample(CTX, &s, 2, &rng), OPFOR_EINVAL);
}

/* ---------------------------------------------------------------- scenario and bytes */

static void duel_scenario_file(void **st) {
    char path[] = "/tmp/opfor-duel-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# a short duel\nhp: 3\nrounds: 2   # two rounds\n\ndefence: 4\n");
    fclose(f);
    void *ctx = NULL;
    opfor_diag_t d;
    assert_int_equal(RS->ctx_new(path, &ctx, &d), 0);
    const opfor_duel_ctx_t *c = ctx;
    assert_int_equal(c->hp, 3);
    assert_int_equal(c->rounds, 2);
    assert_int_equal(c->defence, 4);
    RS->ctx_free(ctx);

    f = fopen(path, "w");
    fprintf(f, "hp: 3\nspeed: 2\n");
    fclose(f);
    assert_int_equal(RS->ctx_new(path, &ctx, &d), OPFOR_EPARSE);
    assert_null(ctx);
    assert_int_equal(d.line, 2);
    assert_non_null(strstr(d.msg, "speed"));
    f = fopen(path, "w");
    fprintf(f, "hp: 300\n");
    fclose(f);
    assert_int_equal(RS->ctx_new(path, &ctx, &d), OPFOR_EPARSE);
    unlink(path);
    assert_int_equal(RS->ctx_new(path, &ctx, &d), OPFOR_ENOENT);
    assert_int_equal(RS->ctx_new(NULL, &ctx, &d), 0);
    assert_memory_equal(ctx, CTX, sizeof *CTX);
    RS->ctx_free(ctx);
}

static void duel_serialize_refuses_bad_bytes(void **st) {
    opfor_duel_state_t s = fresh(21), t;
    unsigned char buf[128];
    size_t len = 0;
    assert_int_equal(RS->serialize(CTX, &s, buf, 10, &len), OPFOR_ERANGE);
    assert_true(len > 10);
    assert_int_equal(RS->serialize(CTX, &s, buf, sizeof buf, &len), 0);
    assert_memory_equal(buf, "DUEL", 4);
    assert_int_equal(RS->deserialize(CTX, &t, buf, len), 0);
    assert_memory_equal(&t, &s, sizeof s);
    /* the rng travels little-endian: the same bytes on every machine */
    assert_int_equal(buf[5], (unsigned char)(s.rng.state & 0xFF));
    unsigned char bad[128];
    memcpy(bad, buf, len);
    bad[4] = 2; /* another version */
    assert_int_equal(RS->deserialize(CTX, &t, bad, len), OPFOR_EPARSE);
    memcpy(bad, buf, len);
    bad[21] = 9; /* a card that does not exist */
    assert_int_equal(RS->deserialize(CTX, &t, bad, len), OPFOR_EPARSE);
    assert_int_equal(RS->deserialize(CTX, &t, buf, len + 1), OPFOR_EPARSE);
    assert_memory_equal(&t, &s, sizeof s); /* untouched on failure */
}

/* ---------------------------------------------------------------- calc, session, AI */

static void duel_calc_attack(void **st) {
    const opfor_ruleset_calc_t *calc = RS->calc;
    const opfor_form_t *f = opfor_form_find(calc->actions, calc->nactions, "attack");
    assert_non_null(f);
    opfor_value_t vals[2];
    memset(vals, 0, sizeof vals);
    char msg[200];
    assert_int_equal(opfor_field_parse(&f->fields[0], "3", &vals[0], msg, sizeof msg), 0);
    opfor_calc_answer_t a;
    assert_int_equal(calc->run(NULL, f, vals, NULL, &a, msg, sizeof msg), 0);
    assert_string_equal(a.needed, "3+");
    assert_true(fabs(a.p - 4.0 / 6.0) < 1e-12);
    assert_int_equal(a.ndist, 5); /* 0 (on 1, 2), 1, 2, 3, 4 */
    assert_true(fabs(a.dist[0].p - 2.0 / 6.0) < 1e-12);
    assert_true(fabs(a.expected - 10.0 / 6.0) < 1e-12);
    assert_int_equal(calc->run(NULL, f, vals, "4", &a, msg, sizeof msg), 0);
    assert_int_equal(a.rolled, 1);
    assert_int_equal(a.success, 1);
    assert_non_null(strstr(a.outcome, "2 damage"));
    assert_int_equal(calc->run(NULL, f, vals, "7", &a, msg, sizeof msg), OPFOR_EINVAL);
    assert_non_null(strstr(msg, "rolled"));
    /* the 1 against defence 11 cannot hit */
    assert_int_equal(opfor_field_parse(&f->fields[0], "1", &vals[0], msg, sizeof msg), 0);
    assert_int_equal(opfor_field_parse(&f->fields[1], "11", &vals[1], msg, sizeof msg), 0);
    assert_int_equal(calc->run(NULL, f, vals, NULL, &a, msg, sizeof msg), 0);
    assert_true(a.p == 0.0);
    assert_string_equal(a.needed, "cannot hit");
}

static void duel_session_play(void **st) {
    const opfor_ruleset_session_t *ses = RS->session;
    const opfor_form_t *f = opfor_form_find(ses->reports, ses->nreports, "play");
    assert_non_null(f);
    opfor_duel_state_t s = fresh(31);
    set_hand(&s, 0, 4, 0, 0);
    opfor_value_t vals[2];
    char msg[200];
    opfor_session_result_t r;
    memset(vals, 0, sizeof vals);
    /* a card Red does not hold */
    assert_int_equal(opfor_field_parse(&f->fields[0], "6", &vals[0], msg, sizeof msg), 0);
    assert_int_equal(opfor_field_parse(&f->fields[1], "5", &vals[1], msg, sizeof msg), 0);
    opfor_duel_state_t t = s;
    assert_int_equal(ses->report(CTX, &t, 0, f, vals, &r), OPFOR_EILLEGAL);
    assert_string_equal(r.error, "card: Red holds no 6");
    /* not Blue's turn */
    assert_int_equal(ses->report(CTX, &t, 1, f, vals, &r), OPFOR_EILLEGAL);
    assert_non_null(strstr(r.error, "not this side's turn"));
    /* the 4 and a 5: 4 damage */
    assert_int_equal(opfor_field_parse(&f->fields[0], "4", &vals[0], msg, sizeof msg), 0);
    t = s;
    assert_int_equal(ses->report(CTX, &t, 0, f, vals, &r), 0);
    assert_int_equal(t.hp[1], 6);
    assert_int_equal(RS->current(CTX, &t), 1);
    assert_true(r.nevents >= 2);
    /* an attack without its die */
    vals[1].set = 0;
    t = s;
    assert_int_equal(ses->report(CTX, &t, 0, f, vals, &r), OPFOR_EINVAL);
    assert_non_null(strstr(r.error, "dice"));
    /* a guard */
    assert_int_equal(opfor_field_parse(&f->fields[0], "0", &vals[0], msg, sizeof msg), 0);
    t = s;
    assert_int_equal(ses->report(CTX, &t, 0, f, vals, &r), 0);
    assert_int_equal(RS->current(CTX, &t), 1);
}

static void duel_greedy_bot_and_order(void **st) {
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, RS, CTX, 0), 0);
    opfor_policy_t bot;
    assert_int_equal(RS->ai->bot_open("nonesuch", &g, &bot), OPFOR_ENOENT);
    assert_int_equal(RS->ai->bot_open(RS->ai->rollout_bot, &g, &bot), 0);
    opfor_duel_state_t s = fresh(41);
    set_hand(&s, 0, 1, 3, 5);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 1, 1);
    opfor_action_t a;
    assert_int_equal(bot.choose(bot.self, &g, &s, &rng, &a), 0);
    opfor_action_t p5 = opfor_duel_play(5);
    assert_true(opfor_action_eq(&a, &p5));
    opfor_order_t o;
    assert_int_equal(RS->ai->order(CTX, &s, &a, &o), 0);
    assert_string_equal(o.unit_name, "Red");
    assert_string_equal(o.target_name, "Blue");
    assert_int_equal(o.nrolls, 1);
    assert_string_equal(o.rolls[0].need, "1+ on 1D6");
    assert_true(o.rolls[0].p == 1.0);
    assert_non_null(strstr(o.sentence, "Red attacks Blue with the 5"));
    /* cards that cannot hit: the greedy side guards */
    opfor_duel_ctx_t hard = {.hp = 10, .rounds = 8, .defence = 12};
    opfor_game_t gh;
    assert_int_equal(opfor_game_init(&gh, RS, &hard, 0), 0);
    assert_int_equal(bot.choose(bot.self, &gh, &s, &rng, &a), 0);
    assert_int_equal(a.kind, OPFOR_DUEL_PASS);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(duel_deal),
        cmocka_unit_test(duel_legal_lists_distinct_cards_then_pass),
        cmocka_unit_test(duel_explicit_outcomes),
        cmocka_unit_test(duel_guard_heals_to_the_start),
        cmocka_unit_test(duel_ends_at_zero_hp),
        cmocka_unit_test(duel_ends_after_the_rounds),
        cmocka_unit_test(duel_view_hides_the_other_hand),
        cmocka_unit_test(duel_resample_redraws_only_the_unseen),
        cmocka_unit_test(duel_scenario_file),
        cmocka_unit_test(duel_serialize_refuses_bad_bytes),
        cmocka_unit_test(duel_calc_attack),
        cmocka_unit_test(duel_session_play),
        cmocka_unit_test(duel_greedy_bot_and_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
