/* tests/rulesets/test_ruleset_ai.c — the AI table (opfor/ruleset_ai.h) of every registered
 * ruleset that has one, checked over random playouts as the conformance suite checks the game:
 * the evaluator's values lie in [-1, 1] and its prior and policy answer for every action; the
 * order hook words every legal action of the side to move; every bot the table lists opens and
 * plays only legal actions, an unknown one is refused; the director opens as a referee.
 * Needs no ai/: the table is the ruleset's own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opfor/order.h"
#include "opfor/ruleset.h"
#include "opfor/ruleset_ai.h"

#define GAMES 3        /* random games per ruleset */
#define STEP_CAP 20000 /* a game longer than this is cut */
#define CHECK_EVERY 7  /* decision states between two full checks */
#define MAX_BOTS 16    /* bots a table may list */
#define BOT_NAME 32    /* longest bot name */

/* The words of a "table, weak, ..." list into names; returns the count. */
static int bot_names(const char *list, char names[MAX_BOTS][BOT_NAME]) {
    int n = 0;
    while (list && *list && n < MAX_BOTS) {
        while (*list == ' ' || *list == ',')
            list++;
        size_t k = strcspn(list, ", ");
        if (k > 0 && k < BOT_NAME) {
            memcpy(names[n], list, k);
            names[n][k] = 0;
            n++;
        }
        list += k;
    }
    return n;
}

/* 1 when a is among the n actions acts. */
static int listed(const opfor_action_t *acts, int n, const opfor_action_t *a) {
    for (int i = 0; i < n; i++)
        if (opfor_action_eq(&acts[i], a))
            return 1;
    return 0;
}

typedef struct kit {
    const opfor_ruleset_t *rs;
    const opfor_ruleset_ai_t *ai;
    opfor_game_t g;
    unsigned char *s;
    opfor_action_t *acts;
    void *scratch;
    float *prior;
    opfor_policy_t bots[MAX_BOTS];
    int nbots;
    long evaluated, worded, bot_moves;
} kit_t;

/* The full checks at a decision state of side p with n legal actions. */
static void check_decision(kit_t *K, int p, int n, opfor_rng_t *rng) {
    const opfor_evaluator_t *ev = K->ai->evaluator;
    if (ev) {
        double v[OPFOR_MAX_PLAYERS];
        if (ev->evaluate && ev->evaluate(ev->user, K->scratch, &K->g, K->s, v) == 0) {
            for (int i = 0; i < K->rs->max_players; i++)
                assert_true(v[i] >= -1.0 && v[i] <= 1.0);
            K->evaluated++;
        }
        if (ev->prior)
            assert_true(ev->prior(ev->user, K->scratch, &K->g, K->s, K->acts, n, K->prior) <= 0);
        if (ev->policy) {
            int k = ev->policy(ev->user, K->scratch, &K->g, K->s, K->acts, n, rng);
            (void)k; /* out of range falls back to uniform: any answer is allowed */
        }
    }
    if (K->ai->order) {
        for (int i = 0; i < n; i++) {
            opfor_order_t o;
            assert_int_equal(K->ai->order(K->g.ctx, K->s, &K->acts[i], &o), 0);
            assert_true(o.sentence[0] != 0);
            assert_int_equal(o.side, p);
            assert_true(o.nrolls >= 0 && o.nrolls <= OPFOR_ORDER_MAX_ROLLS);
            assert_true(o.nterms >= 0 && o.nterms <= OPFOR_ORDER_MAX_TERMS);
            assert_int_equal(o.iterations, 0); /* the search's part is not the ruleset's */
            assert_int_equal(o.nalts, 0);
            K->worded++;
        }
    }
    for (int b = 0; b < K->nbots; b++) {
        opfor_action_t a;
        assert_int_equal(K->bots[b].choose(K->bots[b].self, &K->g, K->s, rng, &a), 0);
        assert_true(listed(K->acts, n, &a));
        K->bot_moves++;
    }
}

static void check_ruleset(const opfor_ruleset_t *rs) {
    kit_t K;
    memset(&K, 0, sizeof K);
    K.rs = rs;
    K.ai = rs->ai;
    assert_true(K.ai->uct_c >= 0.0 && K.ai->pw_c >= 0.0 && K.ai->pw_alpha >= 0.0);
    void *ctx = NULL;
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    int rc = opfor_ruleset_ctx_new(rs, NULL, &ctx, &d);
    assert_true(rc == 0 || rc == OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_init(&K.g, rs, ctx, 0), 0);
    K.s = malloc(rs->state_size);
    K.acts = malloc(sizeof *K.acts * (size_t)rs->max_actions);
    K.prior = malloc(sizeof *K.prior * (size_t)rs->max_actions);
    K.scratch = K.ai->evaluator && K.ai->evaluator->scratch_size
                    ? malloc(K.ai->evaluator->scratch_size)
                    : NULL;
    assert_non_null(K.s);
    assert_non_null(K.acts);
    assert_non_null(K.prior);

    /* every listed bot opens (the rollout bot among them); an unknown one is refused */
    char names[MAX_BOTS][BOT_NAME];
    int nb = K.ai->bot_open ? bot_names(K.ai->bots, names) : 0;
    int rollout_listed = K.ai->rollout_bot == NULL || strcasecmp(K.ai->rollout_bot, "random") == 0;
    for (int b = 0; b < nb; b++) {
        assert_int_equal(K.ai->bot_open(names[b], &K.g, &K.bots[b]), 0);
        assert_non_null(K.bots[b].choose);
        assert_true(K.bots[b].name[0] != 0);
        if (K.ai->rollout_bot && strcasecmp(K.ai->rollout_bot, names[b]) == 0)
            rollout_listed = 1;
    }
    K.nbots = nb;
    assert_true(rollout_listed);
    if (K.ai->bot_open) {
        opfor_policy_t none;
        assert_int_equal(K.ai->bot_open("no-such-bot", &K.g, &none), OPFOR_ENOENT);
    }
    /* the director opens as a referee with its defaults */
    if (K.ai->director_open) {
        opfor_referee_t ref;
        memset(&ref, 0, sizeof ref);
        assert_int_equal(K.ai->director_open(NULL, &K.g, &ref), 0);
        assert_non_null(ref.chance);
        if (ref.release)
            ref.release(ref.self);
    }

    opfor_rng_t rng;
    opfor_rng_seed(&rng, 2026, 0xA1);
    long decisions = 0;
    for (int game = 0; game < GAMES; game++) {
        assert_int_equal(opfor_game_new_state(&K.g, K.s, 100 + (uint64_t)game), 0);
        for (int b = 0; b < nb; b++)
            if (K.bots[b].begin)
                assert_int_equal(K.bots[b].begin(K.bots[b].self, &K.g, 100 + (uint64_t)game, 0), 0);
        for (int step = 0; step < STEP_CAP; step++) {
            int p = opfor_game_current(&K.g, K.s);
            if (p == OPFOR_PLAYER_TERMINAL)
                break;
            int n = opfor_game_legal(&K.g, K.s, K.acts, rs->max_actions);
            assert_true(n >= 1);
            int pick = 0;
            if (p >= 0) {
                if (decisions++ % CHECK_EVERY == 0)
                    check_decision(&K, p, n, &rng);
                pick = (int)opfor_rng_below(&rng, (uint32_t)n);
            }
            assert_int_equal(opfor_game_apply(&K.g, K.s, &K.acts[pick]), 0);
        }
    }
    fprintf(stderr, "%s: %ld decisions, %ld evaluated, %ld worded, %ld bot moves\n", rs->name,
            decisions, K.evaluated, K.worded, K.bot_moves);
    assert_true(decisions > 0);
    if (K.ai->order)
        assert_true(K.worded > 0);
    if (K.ai->evaluator && K.ai->evaluator->evaluate)
        assert_true(K.evaluated > 0);
    if (nb > 0)
        assert_true(K.bot_moves > 0);

    for (int b = 0; b < nb; b++)
        if (K.bots[b].release)
            K.bots[b].release(K.bots[b].self);
    free(K.s);
    free(K.acts);
    free(K.prior);
    free(K.scratch);
    opfor_ruleset_ctx_free(rs, ctx);
}

static void ruleset_ai_tables_conform(void **state) {
    (void)state;
    size_t n = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    int tables = 0;
    for (size_t i = 0; i < n; i++) {
        if (!list[i].rs->ai)
            continue;
        check_ruleset(list[i].rs);
        tables++;
    }
    assert_true(tables >= 1); /* Viktoria! has one */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ruleset_ai_tables_conform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
