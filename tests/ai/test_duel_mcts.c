/* tests/ai/test_duel_mcts.c — the search on the dice duel, through the ruleset interface only:
 * a sure kill is found, the decision is the same for the same key, and the search never
 * reads the opponent's hidden hand (two states that differ only there get the same answer).
 * Built only with OPFOR_TEST_RULESETS (the duel is a test-only ruleset).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ai.h"
#include "opfor/duel/duel.h"
#include "opfor/mcts.h"
#include "opfor/ruleset_ai.h"

static const opfor_ruleset_t *RS = &opfor_duel_ruleset;

/* Moves one card of value v from the deck into side's hand slot i (the old card back). */
static void give(opfor_duel_state_t *s, int side, int i, int v) {
    int k = 0;
    while (k < s->ndeck && s->deck[k] != v)
        k++;
    assert_true(k < s->ndeck);
    s->deck[k] = s->hand[side][i];
    s->hand[side][i] = (uint8_t)v;
}

static opfor_duel_state_t position(uint64_t seed) {
    opfor_duel_state_t s;
    assert_int_equal(RS->init(&opfor_duel_default_ctx, &s, seed), 0);
    return s;
}

static opfor_action_t decide(const opfor_duel_state_t *s, int level, uint64_t seed) {
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, RS, &opfor_duel_default_ctx, 0), 0);
    const opfor_evaluator_t *ev = RS->ai->evaluator;
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    cfg.uct_c = RS->ai->uct_c;
    cfg.seed = seed;
    cfg.memory_bytes = (size_t)8 << 20;
    opfor_mcts_t *m = NULL;
    assert_int_equal(opfor_mcts_create(&m, RS, &cfg, ev->scratch_size), 0);
    opfor_ai_decision_t *d = calloc(1, sizeof *d);
    assert_non_null(d);
    assert_int_equal(opfor_ai_decide_opts(m, &g, s, ev, level, 0, NULL, OPFOR_AI_EXACT, d), 0);
    opfor_action_t a = d->action;
    free(d);
    opfor_mcts_free(m);
    return a;
}

/* Blue has 2 hit points left: Red's 6 always does 2 or more (die + 6 - 5), the 1 rarely. */
static void duel_mcts_finds_the_sure_kill(void **st) {
    opfor_duel_state_t s = position(17);
    s.hp[1] = 2;
    give(&s, 0, 0, 1);
    give(&s, 0, 1, 1);
    give(&s, 0, 2, 6);
    opfor_action_t six = opfor_duel_play(6);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        opfor_action_t a = decide(&s, OPFOR_AI_RUTHLESS, seed);
        assert_true(opfor_action_eq(&a, &six));
    }
}

static void duel_mcts_same_key_same_decision(void **st) {
    opfor_duel_state_t s = position(23);
    opfor_action_t a = decide(&s, OPFOR_AI_STANDARD, 5);
    opfor_action_t b = decide(&s, OPFOR_AI_STANDARD, 5);
    assert_true(opfor_action_eq(&a, &b));
}

/* Blue's hand is hidden from Red: change it (swapping with the deck) and Red's decision,
 * searched with resampling, stays the same for the same key. */
static void duel_mcts_does_not_peek(void **st) {
    opfor_duel_state_t s = position(29), t = s;
    /* swap Blue's hand with the top of the deck: the same cards unseen by Red */
    for (int i = 0; i < OPFOR_DUEL_HAND; i++) {
        uint8_t c = t.hand[1][i];
        t.hand[1][i] = t.deck[i];
        t.deck[i] = c;
    }
    opfor_duel_state_t vs, vt;
    RS->view(&opfor_duel_default_ctx, &s, 0, &vs);
    /* keep the hands sorted as the rules do */
    for (int i = 1; i < OPFOR_DUEL_HAND; i++)
        for (int j = i; j > 0 && t.hand[1][j - 1] > t.hand[1][j]; j--) {
            uint8_t c = t.hand[1][j];
            t.hand[1][j] = t.hand[1][j - 1];
            t.hand[1][j - 1] = c;
        }
    RS->view(&opfor_duel_default_ctx, &t, 0, &vt);
    assert_memory_equal(&vs, &vt, sizeof vs);
    assert_memory_not_equal(&s, &t, sizeof s);
    opfor_action_t a = decide(&s, OPFOR_AI_STANDARD, 9);
    opfor_action_t b = decide(&t, OPFOR_AI_STANDARD, 9);
    assert_true(opfor_action_eq(&a, &b));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(duel_mcts_finds_the_sure_kill),
        cmocka_unit_test(duel_mcts_same_key_same_decision),
        cmocka_unit_test(duel_mcts_does_not_peek),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
