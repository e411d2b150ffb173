/* tests/ai/test_viktoria_mcts.c — the search on Viktoria! through the adapter and the planner.
 *
 * A small budget must beat random play in a batch of games with fixed seeds (the batch
 * alternates sides, and the same games played at random on both sides are the baseline); a search
 * is a function of (game seed, decision number); and in Patrol Mode a search that does not cheat
 * never reads the true spawn stream (its result is the same whatever that stream holds, and every
 * iteration resamples), while a cheating search does read it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ai.h"
#include "opfor/viktoria/heuristic.h"
#include "opfor/mcts.h"
#include "opfor/viktoria/adapter.h"

#define GAMES 10
#define BUDGET 100

typedef struct world {
    void *ctx;
    opfor_game_t game;
    opfor_heur_t heur;
    opfor_evaluator_t ev;
} world_t;

static void world_open(world_t *w, const char *scenario) {
    opfor_diag_t d;
    memset(w, 0, sizeof *w);
    assert_int_equal(opfor_ruleset_ctx_new(&opfor_viktoria_ruleset, scenario, &w->ctx, &d), 0);
    assert_int_equal(opfor_game_init(&w->game, &opfor_viktoria_ruleset, w->ctx, 0), 0);
    opfor_heur_init(&w->heur);
    opfor_heur_evaluator(&w->ev, &w->heur);
}

static opfor_mcts_t *search(uint64_t seed, uint32_t iterations, int cheat) {
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    opfor_ai_search_tuning(&opfor_viktoria_ruleset, &cfg);
    cfg.iterations = iterations;
    cfg.seed = seed;
    cfg.cheat = cheat;
    cfg.memory_bytes = (size_t)8 << 20;
    opfor_mcts_t *m = NULL;
    assert_int_equal(opfor_mcts_create(&m, &opfor_viktoria_ruleset, &cfg, 0), 0);
    return m;
}

/* Plays from state s with random choices (rng) until a decision of `side` (or the end);
 * returns 1 when one was reached. */
static int advance_to(world_t *w, opfor_vk_rs_state_t *s, int side, int min_steps,
                      opfor_rng_t *rng) {
    opfor_action_t a[OPFOR_VK_RS_MAX_ACTIONS];
    for (int step = 0; step < 5000; step++) {
        int p = opfor_game_current(&w->game, s);
        if (p == OPFOR_PLAYER_TERMINAL)
            return 0;
        int n = opfor_game_legal(&w->game, s, a, OPFOR_VK_RS_MAX_ACTIONS);
        assert_true(n > 0);
        if (p == side && step >= min_steps && n > 1)
            return 1;
        int k = p >= 0 ? (int)opfor_rng_below(rng, (uint32_t)n) : 0;
        assert_int_equal(opfor_game_apply(&w->game, s, &a[k]), 0);
    }
    return 0;
}

/* Plays GAMES games; side g % 2 searches with BUDGET iterations when search is 1, plays
 * uniformly at random otherwise; the other side always plays at random. Returns the games
 * the first side won. */
static int batch(world_t *w, int use_search) {
    opfor_vk_rs_state_t *s = malloc(sizeof *s);
    assert_non_null(s);
    opfor_action_t a[OPFOR_VK_RS_MAX_ACTIONS];
    int wins = 0;
    for (int g = 0; g < GAMES; g++) {
        int ai = g % 2; /* the side under test alternates */
        opfor_mcts_t *m = search(100 + (uint64_t)g, BUDGET, 0);
        opfor_rng_t rng;
        opfor_rng_seed(&rng, (uint64_t)g, 77);
        assert_int_equal(opfor_game_new_state(&w->game, s, 5000 + (uint64_t)g), 0);
        uint64_t decision = 0;
        for (int step = 0; step < 100000; step++) {
            int p = opfor_game_current(&w->game, s);
            if (p == OPFOR_PLAYER_TERMINAL)
                break;
            int n = opfor_game_legal(&w->game, s, a, OPFOR_VK_RS_MAX_ACTIONS);
            assert_true(n > 0);
            opfor_action_t act = a[0];
            if (p == ai && use_search) {
                opfor_mcts_result_t r;
                assert_int_equal(opfor_mcts_search(m, &w->game, s, &w->ev, decision++, NULL, &r),
                                 0);
                act = r.top[0].action; /* the most visited, as the deterministic levels do */
            } else if (p >= 0) {
                act = a[opfor_rng_below(&rng, (uint32_t)n)];
            }
            assert_int_equal(opfor_game_apply(&w->game, s, &act), 0);
        }
        double v[2];
        assert_int_equal(opfor_game_returns(&w->game, s, v), 0);
        wins += v[ai] > 0.0;
        opfor_mcts_free(m);
    }
    free(s);
    return wins;
}

static void viktoria_mcts_beats_random(void **state) {
    (void)state;
    world_t w;
    world_open(&w, NULL);
    int baseline = batch(&w, 0), searched = batch(&w, 1);
    /* random against random wins about half of these (each side in turn); a small search
       wins nearly all of them */
    assert_true(baseline <= GAMES - 3);
    assert_true(searched >= GAMES - 1);
    assert_true(searched >= baseline + 3);
    opfor_ruleset_ctx_free(&opfor_viktoria_ruleset, w.ctx);
}

/* Equal statistics at the root, action by action. */
static int same_result(const opfor_mcts_result_t *a, const opfor_mcts_result_t *b) {
    if (a->nchoices != b->nchoices || a->iterations != b->iterations)
        return 0;
    for (int i = 0; i < a->nchoices; i++)
        if (!opfor_action_eq(&a->top[i].action, &b->top[i].action) ||
            a->top[i].visits != b->top[i].visits || a->top[i].value != b->top[i].value)
            return 0;
    return 1;
}

static void viktoria_mcts_deterministic(void **state) {
    (void)state;
    world_t w;
    world_open(&w, NULL);
    opfor_vk_rs_state_t *s = malloc(sizeof *s);
    assert_non_null(s);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 4, 4);
    assert_int_equal(opfor_game_new_state(&w.game, s, 99), 0);
    assert_true(advance_to(&w, s, 1, 30, &rng));
    opfor_mcts_t *m1 = search(7, 400, 0), *m2 = search(7, 400, 0);
    opfor_mcts_result_t r1, r2, r3;
    assert_int_equal(opfor_mcts_search(m1, &w.game, s, &w.ev, 12, NULL, &r1), 0);
    assert_int_equal(opfor_mcts_search(m2, &w.game, s, &w.ev, 12, NULL, &r2), 0);
    assert_int_equal(r1.stop, OPFOR_MCTS_STOP_BUDGET);
    assert_int_equal(r1.iterations, 400);
    assert_true(same_result(&r1, &r2)); /* same (seed, decision): same search */
    assert_int_equal(opfor_mcts_search(m1, &w.game, s, &w.ev, 13, NULL, &r3), 0);
    assert_false(same_result(&r1, &r3)); /* another decision number: other dice */
    /* and the ruleset's root is left as it was */
    opfor_vk_rs_state_t *t = malloc(sizeof *t);
    assert_non_null(t);
    memcpy(t, s, sizeof *t);
    assert_int_equal(opfor_mcts_search(m2, &w.game, s, &w.ev, 12, NULL, &r2), 0);
    assert_memory_equal(t, s, sizeof *t);
    opfor_mcts_free(m1);
    opfor_mcts_free(m2);
    free(s);
    free(t);
    opfor_ruleset_ctx_free(&opfor_viktoria_ruleset, w.ctx);
}

static void viktoria_mcts_hidden_spawns(void **state) {
    (void)state;
    world_t w;
    world_open(&w, "patrol_default");
    opfor_vk_rs_state_t *s = malloc(sizeof *s), *t = malloc(sizeof *t);
    assert_true(s && t);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 8, 8);
    assert_int_equal(opfor_game_new_state(&w.game, s, 123), 0);
    assert_true(advance_to(&w, s, 0, 3, &rng));
    opfor_mcts_result_t r1, r2;
    /* not cheating: every iteration redraws the spawn stream, so the true one is never
       read: changing it changes nothing */
    opfor_mcts_t *m = search(5, 300, 0);
    assert_int_equal(opfor_mcts_search(m, &w.game, s, &w.ev, 1, NULL, &r1), 0);
    assert_int_equal(r1.resamples, r1.iterations);
    for (int k = 0; k < 3; k++) {
        memcpy(t, s, sizeof *t);
        opfor_rng_seed(&t->patrol_rng, 1000 + (uint64_t)k, 3);
        assert_int_equal(opfor_mcts_search(m, &w.game, t, &w.ev, 1, NULL, &r2), 0);
        assert_true(same_result(&r1, &r2));
    }
    opfor_mcts_free(m);
    /* cheating: no redraw, and the search follows the true stream */
    m = search(5, 300, 1);
    assert_int_equal(opfor_mcts_search(m, &w.game, s, &w.ev, 1, NULL, &r1), 0);
    assert_int_equal(r1.resamples, 0);
    int differs = 0;
    for (int k = 0; k < 3; k++) {
        memcpy(t, s, sizeof *t);
        opfor_rng_seed(&t->patrol_rng, 1000 + (uint64_t)k, 3);
        assert_int_equal(opfor_mcts_search(m, &w.game, t, &w.ev, 1, NULL, &r2), 0);
        differs |= !same_result(&r1, &r2);
    }
    assert_true(differs);
    opfor_mcts_free(m);
    free(s);
    free(t);
    opfor_ruleset_ctx_free(&opfor_viktoria_ruleset, w.ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(viktoria_mcts_beats_random),
        cmocka_unit_test(viktoria_mcts_deterministic),
        cmocka_unit_test(viktoria_mcts_hidden_spawns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
