/* tests/rulesets/test_ruleset_conformance.c — one suite run over every ruleset.
 *
 * As open_spiel/tests/basic_tests.h: random playouts check who moves, legal lists empty only
 * at the end, one roll at chance nodes, outcome probabilities summing to 1, returns in
 * [-1, 1], clones staying equal under the same actions, serialization round trips,
 * resampling that keeps the observer's choices, unlisted actions refused. Runs over the
 * registry and the toy games of tests/ai; then the registry's and the wrapper's contracts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/toy_games.c"
#include "opfor/ruleset.h"

#define GAMES 24           /* random games per ruleset */
#define STEP_CAP 100000    /* a game longer than this does not end */
#define SER_CAP (1u << 20) /* serialization buffer */

typedef struct suite {
    const opfor_ruleset_t *rs;
    const void *ctx;
    unsigned char *s, *t, *u; /* state buffers */
    opfor_action_t *acts, *acts2;
    opfor_chance_outcome_t *outs;
    unsigned char *ser;
    /* what the playouts met, so the suite can say it exercised each part */
    long decisions, chances, outcome_lists, serialized, resampled, terminals;
} suite_t;

static void check_values(const suite_t *S, const double *v, int zero_sum) {
    double sum = 0.0;
    for (int i = 0; i < S->rs->max_players; i++) {
        assert_true(v[i] >= -1.0 && v[i] <= 1.0);
        sum += v[i];
    }
    if (zero_sum)
        assert_true(fabs(sum) < 1e-9);
}

/* Checks made at every state of a playout. */
static void check_state(suite_t *S, opfor_game_t *g, int p, int n, opfor_rng_t *rng) {
    const opfor_ruleset_t *rs = S->rs;
    size_t size = rs->state_size;
    /* hash: equal states hash equally */
    memcpy(S->t, S->s, size);
    assert_true(opfor_game_hash(g, S->s) == opfor_game_hash(g, S->t));
    /* every listed action has a phrase, and none is listed twice */
    for (int i = 0; i < n; i++) {
        char buf[256] = "";
        opfor_game_action_str(g, S->s, &S->acts[i], buf, sizeof buf);
        assert_true(buf[0] != 0);
        for (int j = 0; j < i; j++)
            assert_false(opfor_action_eq(&S->acts[i], &S->acts[j]));
    }
    /* serialization round trip, when supported */
    size_t len = 0;
    int rc = opfor_game_serialize(g, S->s, S->ser, SER_CAP, &len);
    if (rc != OPFOR_ENOTSUP) {
        assert_int_equal(rc, 0);
        assert_true(len > 0 && len <= SER_CAP);
        memset(S->u, 0xA5, size);
        assert_int_equal(opfor_game_deserialize(g, S->u, S->ser, len), 0);
        assert_memory_equal(S->u, S->s, size);
        if (len > 1) /* a cut-off buffer is refused */
            assert_true(opfor_game_deserialize(g, S->u, S->ser, len - 1) < 0);
        S->serialized++;
    }
    /* the ruleset's own estimate, when it has one */
    double v[OPFOR_MAX_PLAYERS];
    if (p >= 0 && opfor_game_evaluate(g, S->s, v) == 0)
        check_values(S, v, 0);
    /* resampling keeps who moves and, for the observer, its own choices */
    if ((rs->flags & OPFOR_RS_HIDDEN) && rs->resample && p >= 0) {
        memcpy(S->t, S->s, size);
        assert_int_equal(opfor_game_resample(g, S->t, p, rng), 0);
        assert_int_equal(opfor_game_current(g, S->t), p);
        int n2 = opfor_game_legal(g, S->t, S->acts2, rs->max_actions);
        assert_int_equal(n2, n);
        assert_memory_equal(S->acts2, S->acts, (size_t)n * sizeof(opfor_action_t));
        S->resampled++;
    }
    /* an action nobody lists is refused, by the wrapper and by the ruleset itself, and
     * leaves the state as it was */
    opfor_action_t junk = opfor_action_make(0xEE);
    junk.unit = junk.target = 0xEE;
    junk.arg = 0xEEEE;
    junk.x = -1e9f;
    memcpy(S->t, S->s, size);
    assert_int_equal(opfor_game_apply(g, S->t, &junk), OPFOR_EILLEGAL);
    assert_int_equal(rs->apply(S->ctx, S->t, &junk), OPFOR_EILLEGAL);
    assert_memory_equal(S->t, S->s, size);
}

/* Plays one game with random choices (explicit outcomes half of the time at chance nodes
 * that have them) and checks every state and step. */
static void playout(suite_t *S, uint64_t seed) {
    const opfor_ruleset_t *rs = S->rs;
    size_t size = rs->state_size;
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, rs, S->ctx, OPFOR_GAME_CHECK_LEGAL), 0);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, seed, 0xC0F);
    memset(S->s, 0, size);
    assert_int_equal(opfor_game_new_state(&g, S->s, seed), 0);
    /* the same seed gives the same opening */
    memset(S->t, 0x5A, size);
    assert_int_equal(opfor_game_new_state(&g, S->t, seed), 0);
    assert_memory_equal(S->s, S->t, size);

    opfor_progress_t last = {0, 0};
    int have_progress = opfor_game_progress(&g, S->s, &last) == 0;
    for (long step = 0;; step++) {
        assert_true(step < STEP_CAP);
        int p = opfor_game_current(&g, S->s);
        assert_true(p == OPFOR_PLAYER_TERMINAL || p == OPFOR_PLAYER_CHANCE ||
                    (p >= 0 && p < rs->max_players));
        int n = opfor_game_legal(&g, S->s, S->acts, rs->max_actions);
        assert_true(n >= 0 && n <= rs->max_actions);
        if (have_progress) {
            opfor_progress_t now;
            assert_int_equal(opfor_game_progress(&g, S->s, &now), 0);
            assert_true(now.turn >= last.turn && now.activation >= last.activation);
            last = now;
        }
        if (p == OPFOR_PLAYER_TERMINAL) {
            assert_int_equal(n, 0); /* nothing to do at the end ... */
            double v[OPFOR_MAX_PLAYERS];
            assert_int_equal(opfor_game_returns(&g, S->s, v), 0);
            check_values(S, v, (rs->flags & OPFOR_RS_ZERO_SUM) != 0);
            S->terminals++;
            check_state(S, &g, p, n, &rng);
            return;
        }
        assert_true(n > 0); /* ... and only there */
        check_state(S, &g, p, n, &rng);
        const opfor_action_t *a;
        if (p == OPFOR_PLAYER_CHANCE) {
            assert_true(rs->flags & OPFOR_RS_CHANCE);
            assert_int_equal(n, 1); /* the roll */
            S->chances++;
            a = &S->acts[0];
            int k = opfor_game_chance_outcomes(&g, S->s, S->outs, rs->max_actions);
            if (k != OPFOR_ENOTSUP)
                assert_true(k >= 0);
            if (k > 0) {
                double sum = 0.0;
                for (int i = 0; i < k; i++) {
                    assert_true(S->outs[i].p > 0.0 && S->outs[i].p <= 1.0);
                    sum += S->outs[i].p;
                    for (int j = 0; j < i; j++)
                        assert_false(opfor_action_eq(&S->outs[i].action, &S->outs[j].action));
                    /* each outcome applies (and passes the wrapper's check) */
                    memcpy(S->t, S->s, size);
                    assert_int_equal(opfor_game_apply(&g, S->t, &S->outs[i].action), 0);
                }
                assert_true(fabs(sum - 1.0) < 1e-9);
                S->outcome_lists++;
                if (opfor_rng_below(&rng, 2))
                    a = &S->outs[opfor_rng_below(&rng, (uint32_t)k)].action;
            }
        } else {
            S->decisions++;
            a = &S->acts[opfor_rng_below(&rng, (uint32_t)n)];
        }
        /* a clone stays equal to its original under the same action */
        memcpy(S->t, S->s, size);
        assert_int_equal(opfor_game_apply(&g, S->s, a), 0);
        assert_int_equal(opfor_game_apply(&g, S->t, a), 0);
        assert_memory_equal(S->s, S->t, size);
        /* re-seeding the dice changes nothing else a test can see: still a valid state */
        if (rs->reseed && opfor_rng_below(&rng, 8) == 0)
            assert_int_equal(opfor_game_reseed(&g, S->s, opfor_rng_u32(&rng)), 0);
    }
}

static void run_suite(const opfor_ruleset_t *rs, const void *ctx, suite_t *S) {
    memset(S, 0, sizeof *S);
    S->rs = rs;
    S->ctx = ctx;
    assert_non_null(rs->name);
    assert_non_null(rs->title);
    assert_true(rs->max_players >= 1 && rs->max_players <= OPFOR_MAX_PLAYERS);
    assert_true(rs->state_size > 0);
    assert_true(rs->max_actions >= 1);
    S->s = calloc(1, rs->state_size);
    S->t = calloc(1, rs->state_size);
    S->u = calloc(1, rs->state_size);
    S->acts = calloc((size_t)rs->max_actions, sizeof(opfor_action_t));
    S->acts2 = calloc((size_t)rs->max_actions, sizeof(opfor_action_t));
    S->outs = calloc((size_t)rs->max_actions, sizeof(opfor_chance_outcome_t));
    S->ser = malloc(SER_CAP);
    assert_true(S->s && S->t && S->u && S->acts && S->acts2 && S->outs && S->ser);
    for (uint64_t seed = 1; seed <= GAMES; seed++)
        playout(S, seed * 7919);
    assert_int_equal(S->terminals, GAMES);
    assert_true(S->decisions > 0);
    if (rs->flags & OPFOR_RS_CHANCE)
        assert_true(S->chances > 0);
    if (rs->chance_outcomes)
        assert_true(S->outcome_lists > 0);
    if (rs->serialize)
        assert_true(S->serialized > 0);
    if ((rs->flags & OPFOR_RS_HIDDEN) && rs->resample)
        assert_true(S->resampled > 0);
    free(S->s);
    free(S->t);
    free(S->u);
    free(S->acts);
    free(S->acts2);
    free(S->outs);
    free(S->ser);
}

/* ---------------------------------------------------------------- the tests */

static void conformance_registered_rulesets(void **st) {
    size_t n = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    assert_non_null(list);
    for (size_t i = 0; i < n; i++) {
        const opfor_ruleset_t *rs = list[i].rs;
        assert_non_null(rs);
        void *ctx = NULL;
        opfor_diag_t d;
        int rc = opfor_ruleset_ctx_new(rs, NULL, &ctx, &d);
        if (rc != OPFOR_ENOTSUP)
            assert_int_equal(rc, 0);
        suite_t S;
        run_suite(rs, ctx, &S);
        opfor_ruleset_ctx_free(rs, ctx);
    }
}

static void conformance_toy_games(void **st) {
    int count = 0;
    for (const opfor_ruleset_t *const *p = toy_rulesets; *p; p++, count++) {
        suite_t S;
        run_suite(*p, toy_default_ctx(*p), &S);
    }
    assert_int_equal(count, 4);
}

static void ruleset_registry(void **st) {
    size_t n = 99;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    assert_non_null(list);
    assert_true(n < 99);
    assert_null(list[n].name); /* the sentinel */
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(list[i].name, list[i].rs->name);
        assert_ptr_equal(opfor_ruleset_find(list[i].name), list[i].rs);
        char upper[64];
        snprintf(upper, sizeof upper, "%s", list[i].name);
        for (char *c = upper; *c; c++)
            if (*c >= 'a' && *c <= 'z')
                *c = (char)(*c - 'a' + 'A');
        assert_ptr_equal(opfor_ruleset_find(upper), list[i].rs);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(list[i].name, list[j].name);
    }
    assert_null(opfor_ruleset_find("no-such-ruleset"));
    assert_null(opfor_ruleset_find(NULL));
    assert_non_null(opfor_ruleset_list(NULL));
}

static void ruleset_wrapper_contracts(void **st) {
    opfor_game_t g;
    /* required hooks and a sane descriptor */
    opfor_ruleset_t bad = toy_ttt_ruleset;
    bad.apply = NULL;
    assert_int_equal(opfor_game_init(&g, &bad, NULL, 0), OPFOR_EINVAL);
    bad = toy_ttt_ruleset;
    bad.max_players = 0;
    assert_int_equal(opfor_game_init(&g, &bad, NULL, 0), OPFOR_EINVAL);
    bad = toy_ttt_ruleset;
    bad.state_size = 0;
    assert_int_equal(opfor_game_init(&g, &bad, NULL, 0), OPFOR_EINVAL);

    /* tic-tac-toe has none of the optional hooks */
    assert_int_equal(opfor_game_init(&g, &toy_ttt_ruleset, NULL, 0), 0);
    toy_ttt_state_t s, t;
    assert_int_equal(opfor_game_new_state(&g, &s, 1), 0);
    unsigned char buf[64];
    size_t len;
    opfor_chance_outcome_t outs[4];
    opfor_progress_t pr;
    double v[2];
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 1, 1);
    assert_int_equal(opfor_game_serialize(&g, &s, buf, sizeof buf, &len), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_deserialize(&g, &s, buf, 4), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_chance_outcomes(&g, &s, outs, 4), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_progress(&g, &s, &pr), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_evaluate(&g, &s, v), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_reseed(&g, &s, 3), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_resample(&g, &s, 0, &rng), 0); /* nothing hidden */
    void *ctx = &g;
    assert_int_equal(opfor_ruleset_ctx_new(&toy_ttt_ruleset, NULL, &ctx, NULL), OPFOR_ENOTSUP);
    assert_null(ctx);
    opfor_ruleset_ctx_free(&toy_ttt_ruleset, NULL);

    /* the fallback hash and phrase */
    opfor_game_clone(&g, &t, &s);
    assert_memory_equal(&t, &s, sizeof s);
    assert_true(opfor_game_hash(&g, &s) == opfor_game_hash(&g, &t));
    opfor_action_t a = toy_ttt_action(4);
    assert_int_equal(opfor_game_apply(&g, &t, &a), 0);
    assert_true(opfor_game_hash(&g, &s) != opfor_game_hash(&g, &t));
    char phrase[128];
    assert_string_equal(opfor_game_action_str(&g, &s, &a, phrase, sizeof phrase), "mark b2");
    opfor_ruleset_t plain = toy_ttt_ruleset;
    plain.action_str = NULL;
    opfor_game_t gp;
    assert_int_equal(opfor_game_init(&gp, &plain, NULL, 0), 0);
    opfor_game_action_str(&gp, &s, &a, phrase, sizeof phrase);
    assert_non_null(strstr(phrase, "arg 4"));

    /* counters, and the debug check of apply */
    assert_int_equal(opfor_game_init(&g, &toy_ttt_ruleset, NULL, OPFOR_GAME_CHECK_LEGAL), 0);
    toy_ttt_set(&s, "x........", 1);
    t = s;
    opfor_action_t taken = toy_ttt_action(0);
    assert_int_equal(opfor_game_apply(&g, &s, &taken), OPFOR_EILLEGAL);
    assert_memory_equal(&s, &t, sizeof s);
    opfor_action_t odd = toy_ttt_action(3);
    odd.flags = 1; /* not a listed action, though the square is free */
    assert_int_equal(opfor_game_apply(&g, &s, &odd), OPFOR_EILLEGAL);
    assert_int_equal(opfor_game_apply(&g, &s, &a), 0);
    assert_int_equal(g.applies, 3);
    assert_int_equal(g.rejected, 2);
    assert_int_equal(opfor_game_legal(&g, &s, NULL, 3), OPFOR_EINVAL);

    /* actions: equality is bytewise; make() fills the "none" markers */
    opfor_action_t m = opfor_action_make(7);
    assert_int_equal(m.kind, 7);
    assert_int_equal(m.unit, OPFOR_ACTION_NONE);
    assert_int_equal(m.target, OPFOR_ACTION_NONE);
    opfor_action_t m2 = m;
    assert_true(opfor_action_eq(&m, &m2));
    m2.y2 = 0.5f;
    assert_false(opfor_action_eq(&m, &m2));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(conformance_registered_rulesets),
        cmocka_unit_test(conformance_toy_games),
        cmocka_unit_test(ruleset_registry),
        cmocka_unit_test(ruleset_wrapper_contracts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
