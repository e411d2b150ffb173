/* tests/ai/test_arena.c — the match runner: the Wilson interval against worked values, side
 * swapping, results that do not depend on the thread count, a stop flag ending the run with
 * a prefix of the games, the summary's arithmetic, and (on the Viktoria! rules) the
 * behaviour-table bot beating uniform random play.
 *
 * Toy games from tests/ai/toy_games.c give fast, exactly known games; the Viktoria! batch
 * uses the built-in competitive scenario with a fixed seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ai/arena_match.h"
#include "ai/toy_games.c"
#include "opfor/arena.h"
#include "opfor/viktoria/table_bot.h"
#include "opfor/viktoria/adapter.h"

/* ---------------------------------------------------------------- a toy policy */

/* The skirmish's "sharpshooter": fires whenever it may, else moves, else holds (an exact
 * rule, so it beats uniform play by a wide margin). */
static int sharp_choose(void *self, const opfor_game_t *g, const void *state, opfor_rng_t *rng,
                        opfor_action_t *out) {
    (void)self;
    opfor_action_t acts[64];
    int n = opfor_game_legal(g, state, acts, 64);
    if (n < 1)
        return OPFOR_EINVAL;
    int best = -1, rank = -1;
    for (int i = 0; i < n; i++) {
        int r = acts[i].kind == TOY_SK_FIRE ? 3 : acts[i].kind == TOY_SK_MOVE ? 2 : 1;
        if (r > rank) {
            rank = r;
            best = i;
        }
    }
    (void)rng;
    *out = acts[best];
    return 0;
}

static int toy_open(void *user, const char *spec, const opfor_game_t *g,
                    opfor_arena_policy_t *out) {
    (void)user;
    if (strcmp(spec, "sharp") == 0) {
        memset(out, 0, sizeof *out);
        strcpy(out->name, "sharp");
        out->choose = sharp_choose;
        return 0;
    }
    return opfor_arena_policy_open(NULL, spec, g, out);
}

/* a against b on rs (its default context in *ctx), with the toy policies on offer. */
static void config_toy(opfor_arena_config_t *cfg, const opfor_ruleset_t *rs, const void **ctx,
                       const char *a, const char *b) {
    *ctx = toy_default_ctx(rs);
    arena_match(cfg, rs, (const void *const *)ctx, a, b);
    cfg->nctx = 1;
    cfg->open = toy_open;
}

/* ---------------------------------------------------------------- tests */

static void arena_wilson_known_values(void **state) {
    (void)state;
    double lo, hi;
    opfor_arena_wilson(50, 100, OPFOR_ARENA_Z95, &lo, &hi);
    assert_true(fabs(lo - 0.403832) < 1e-5 && fabs(hi - 0.596168) < 1e-5);
    opfor_arena_wilson(0, 10, OPFOR_ARENA_Z95, &lo, &hi);
    assert_true(lo == 0.0 && fabs(hi - 0.277533) < 1e-5);
    opfor_arena_wilson(10, 10, OPFOR_ARENA_Z95, &lo, &hi);
    assert_true(fabs(lo - 0.722467) < 1e-5 && fabs(hi - 1.0) < 1e-12);
    /* 65% of 400: the interval the arena's targets are read against */
    opfor_arena_wilson(260, 400, OPFOR_ARENA_Z95, &lo, &hi);
    assert_true(fabs(lo - 0.602032) < 1e-5 && fabs(hi - 0.695114) < 1e-5);
    /* always inside [0, 1], always around the rate, narrower with more games */
    double lo2, hi2;
    opfor_arena_wilson(2600, 4000, OPFOR_ARENA_Z95, &lo2, &hi2);
    assert_true(lo2 > lo && hi2 < hi && lo2 < 0.65 && hi2 > 0.65);
    opfor_arena_wilson(0, 0, OPFOR_ARENA_Z95, &lo, &hi);
    assert_true(lo == 0.0 && hi == 1.0);
}

static void arena_swaps_sides_every_other_game(void **state) {
    (void)state;
    opfor_arena_config_t cfg;
    const void *ctx;
    config_toy(&cfg, &toy_sk_ruleset, &ctx, "sharp", "random");
    cfg.games = 40;
    cfg.seed = 7;
    opfor_arena_result_t r;
    assert_int_equal(opfor_arena_run(&cfg, &r), 0);
    for (long i = 0; i < r.games; i++) {
        assert_int_equal(r.log[i].a_side, (int)(i & 1));
        assert_true(r.log[i].seed == opfor_arena_game_seed(7, i));
    }
    assert_int_equal(r.a_games_side[0], 20);
    assert_int_equal(r.a_games_side[1], 20);
    /* the sharpshooter wins from both seats */
    assert_true(r.a_wins_side[0] >= 14 && r.a_wins_side[1] >= 14);
    opfor_arena_result_free(&r);
    /* without swapping, a keeps the seat it was given */
    cfg.swap = 0;
    cfg.a_side = 1;
    assert_int_equal(opfor_arena_run(&cfg, &r), 0);
    for (long i = 0; i < r.games; i++)
        assert_int_equal(r.log[i].a_side, 1);
    assert_int_equal(r.a_games_side[1], 40);
    opfor_arena_result_free(&r);
}

static void arena_same_results_with_any_thread_count(void **state) {
    (void)state;
    opfor_arena_config_t cfg;
    const void *ctx;
    config_toy(&cfg, &toy_sk_ruleset, &ctx, "random", "random");
    cfg.games = 101;
    cfg.seed = 12345;
    opfor_arena_result_t r1, r2, r3;
    cfg.threads = 1;
    assert_int_equal(opfor_arena_run(&cfg, &r1), 0);
    cfg.threads = 2;
    assert_int_equal(opfor_arena_run(&cfg, &r2), 0);
    cfg.threads = 3;
    assert_int_equal(opfor_arena_run(&cfg, &r3), 0);
    assert_memory_equal(r1.log, r2.log, sizeof *r1.log * 101);
    assert_memory_equal(r1.log, r3.log, sizeof *r1.log * 101);
    assert_int_equal(r1.wins_a, r2.wins_a);
    assert_int_equal(r1.draws, r2.draws);
    assert_true(r1.win_rate_a == r3.win_rate_a && r1.ci_lo == r3.ci_lo);
    /* random against itself: neither side is far ahead, and games differ */
    assert_true(r1.win_rate_a > 0.25 && r1.win_rate_a < 0.75);
    int differ = 0;
    for (int i = 1; i < 101; i++)
        differ += r1.log[i].steps != r1.log[0].steps;
    assert_true(differ > 10);
    /* another seed, other games */
    cfg.seed = 12346;
    opfor_arena_result_t r4;
    assert_int_equal(opfor_arena_run(&cfg, &r4), 0);
    assert_true(memcmp(r1.log, r4.log, sizeof *r1.log * 101) != 0);
    opfor_arena_result_free(&r1);
    opfor_arena_result_free(&r2);
    opfor_arena_result_free(&r3);
    opfor_arena_result_free(&r4);
}

/* Sets the stop flag once `after` games are done (as a signal handler would mid-run). */
typedef struct stopper {
    atomic_int flag;
    long after;
} stopper_t;

static void stop_after(void *user, long done, long total) {
    stopper_t *s = user;
    (void)total;
    if (done >= s->after)
        atomic_store(&s->flag, 1);
}

static void arena_stop_flag_ends_with_a_prefix(void **state) {
    (void)state;
    opfor_arena_config_t cfg;
    const void *ctx;
    config_toy(&cfg, &toy_sk_ruleset, &ctx, "random", "random");
    cfg.games = 200;
    cfg.seed = 99;
    opfor_arena_result_t full;
    assert_int_equal(opfor_arena_run(&cfg, &full), 0);
    assert_false(full.interrupted);
    assert_int_equal(full.games, 200);
    for (int t = 1; t <= 3; t++) {
        stopper_t s = {0, 10};
        cfg.threads = t;
        cfg.stop = &s.flag;
        cfg.progress = stop_after;
        cfg.progress_user = &s;
        opfor_arena_result_t r;
        assert_int_equal(opfor_arena_run(&cfg, &r), 0);
        /* games 0..N-1, each as in the full run, N from 10 to 10 + threads - 1 */
        assert_true(r.interrupted);
        assert_true(r.games >= 10 && r.games < 10 + t);
        assert_memory_equal(r.log, full.log, sizeof *r.log * (size_t)r.games);
        long wins = 0, draws = 0;
        for (long i = 0; i < r.games; i++) {
            wins += r.log[i].outcome == 1;
            draws += r.log[i].outcome == 0;
        }
        assert_int_equal(r.wins_a, wins);
        assert_int_equal(r.draws, draws);
        assert_int_equal(r.wins_a + r.wins_b + r.draws + r.errors, r.games);
        opfor_arena_result_free(&r);
    }
    /* a flag set before the start: no game, an empty summary */
    stopper_t s = {1, 0};
    cfg.stop = &s.flag;
    cfg.progress = NULL;
    opfor_arena_result_t r;
    assert_int_equal(opfor_arena_run(&cfg, &r), 0);
    assert_true(r.interrupted);
    assert_int_equal(r.games, 0);
    assert_true(r.win_rate_a == 0.0 && r.ci_lo == 0.0 && r.ci_hi == 1.0);
    opfor_arena_result_free(&r);
    /* a flag that stays 0 changes nothing */
    atomic_store(&s.flag, 0);
    assert_int_equal(opfor_arena_run(&cfg, &r), 0);
    assert_false(r.interrupted);
    assert_int_equal(r.games, 200);
    assert_memory_equal(r.log, full.log, sizeof *r.log * 200);
    opfor_arena_result_free(&r);
    opfor_arena_result_free(&full);
}

static void arena_summary_adds_up(void **state) {
    (void)state;
    opfor_arena_config_t cfg;
    const void *ctx;
    config_toy(&cfg, &toy_ttt_ruleset, &ctx, "random", "random");
    cfg.games = 200;
    cfg.seed = 3;
    cfg.threads = 2;
    opfor_arena_result_t r;
    assert_int_equal(opfor_arena_run(&cfg, &r), 0);
    assert_int_equal(r.games, 200);
    assert_int_equal(r.errors, 0);
    assert_int_equal(r.wins_a + r.wins_b + r.draws, 200);
    long wa = 0, wb = 0, dr = 0;
    for (long i = 0; i < 200; i++) {
        wa += r.log[i].outcome == 1;
        wb += r.log[i].outcome == -1;
        dr += r.log[i].outcome == 0;
        assert_true(r.log[i].steps >= 5 && r.log[i].steps <= 9);
    }
    assert_int_equal(wa, r.wins_a);
    assert_int_equal(wb, r.wins_b);
    assert_int_equal(dr, r.draws);
    assert_true(fabs(r.win_rate_a - (double)r.wins_a / 200.0) < 1e-12);
    assert_true(fabs(r.score_a - ((double)r.wins_a + 0.5 * (double)r.draws) / 200.0) < 1e-12);
    double lo, hi;
    opfor_arena_wilson(r.wins_a, 200, OPFOR_ARENA_Z95, &lo, &hi);
    assert_true(lo == r.ci_lo && hi == r.ci_hi);
    /* tic-tac-toe between random players: the first mover wins more (about 58% vs 29%) */
    long x_wins = 0, o_wins = 0;
    for (long i = 0; i < 200; i++) {
        int winner_side = r.log[i].outcome == 1    ? r.log[i].a_side
                          : r.log[i].outcome == -1 ? 1 - r.log[i].a_side
                                                   : -1;
        x_wins += winner_side == 0;
        o_wins += winner_side == 1;
    }
    assert_true(x_wins > o_wins + 30);
    opfor_arena_result_free(&r);
}

static void arena_rejects_bad_configs(void **state) {
    (void)state;
    opfor_arena_config_t cfg;
    const void *ctx;
    opfor_arena_result_t r;
    config_toy(&cfg, &toy_sk_ruleset, &ctx, "random", "nonsense");
    assert_int_equal(opfor_arena_run(&cfg, &r), OPFOR_ENOENT);
    assert_null(r.log);
    cfg.b = "random";
    cfg.threads = 0;
    assert_int_equal(opfor_arena_run(&cfg, &r), OPFOR_EINVAL);
    cfg.threads = OPFOR_ARENA_MAX_THREADS + 1;
    assert_int_equal(opfor_arena_run(&cfg, &r), OPFOR_EINVAL);
    cfg.threads = 1;
    cfg.games = 0;
    assert_int_equal(opfor_arena_run(&cfg, &r), OPFOR_EINVAL);
    /* one player is not a match */
    config_toy(&cfg, &toy_bandit_ruleset, &ctx, "random", "random");
    assert_int_equal(opfor_arena_run(&cfg, &r), OPFOR_EINVAL);
    /* a ruleset's bots are its own: the toy (no AI table) knows no "table" */
    config_toy(&cfg, &toy_sk_ruleset, &ctx, "table", "random");
    cfg.open = NULL;
    assert_int_equal(opfor_arena_run(&cfg, &r), OPFOR_ENOENT);
    /* nor has it a director */
    config_toy(&cfg, &toy_sk_ruleset, &ctx, "random", "random");
    cfg.open = NULL;
    cfg.referee = opfor_arena_director;
    assert_int_equal(opfor_arena_run(&cfg, &r), OPFOR_ENOTSUP);
}

static void arena_table_bot_beats_random(void **state) {
    (void)state;
    opfor_vk_rs_ctx_t *vctx = NULL;
    opfor_diag_t d;
    assert_int_equal(opfor_vk_rs_ctx_load(&vctx, "competitive_default", &d), 0);
    const void *ctxs[1] = {vctx};
    opfor_arena_config_t cfg;
    arena_match(&cfg, &opfor_viktoria_ruleset, ctxs, "table", "random");
    cfg.games = 60;
    cfg.seed = 2026;
    cfg.threads = 2;
    opfor_arena_result_t r;
    assert_int_equal(opfor_arena_run(&cfg, &r), 0);
    assert_int_equal(r.errors, 0);
    /* a clear margin: the lower end of the interval above one half */
    assert_true(r.win_rate_a >= 0.70);
    assert_true(r.ci_lo > 0.5);
    assert_true(r.a_wins_side[0] > 0 && r.a_wins_side[1] > 0);
    opfor_arena_result_free(&r);
    opfor_vk_rs_ctx_free(vctx);
}

/* The catalogue is the same for every ruleset (random, mcts:LEVEL) plus the ruleset's own
 * bots: the toy has none, Viktoria! its five; mcts:LEVEL plays any ruleset. */
static void arena_catalogue_is_generic(void **state) {
    (void)state;
    char buf[256];
    assert_string_equal(opfor_arena_policy_list(&toy_sk_ruleset, buf, sizeof buf),
                        "random, mcts:LEVEL (novice, standard, veteran, ruthless, challenge)");
    assert_string_equal(opfor_arena_policy_list(&opfor_viktoria_ruleset, buf, sizeof buf),
                        "random, table, weak, medium, strong, heuristic, mcts:LEVEL (novice, "
                        "standard, veteran, ruthless, challenge)");
    assert_true(opfor_arena_policy_known(&opfor_viktoria_ruleset, "table"));
    assert_true(opfor_arena_policy_known(&opfor_viktoria_ruleset, "Heuristic"));
    assert_true(opfor_arena_policy_known(&opfor_viktoria_ruleset, "mcts:novice"));
    assert_false(opfor_arena_policy_known(&opfor_viktoria_ruleset, "tab"));
    assert_false(opfor_arena_policy_known(&opfor_viktoria_ruleset, "mcts:godlike"));
    assert_false(opfor_arena_policy_known(&opfor_viktoria_ruleset, ""));
    assert_true(opfor_arena_policy_known(&toy_sk_ruleset, "random"));
    assert_false(opfor_arena_policy_known(&toy_sk_ruleset, "table"));
    /* the search at a level on a ruleset without an AI table: random playouts */
    opfor_arena_config_t cfg;
    const void *ctx;
    opfor_arena_result_t r1, r2;
    config_toy(&cfg, &toy_sk_ruleset, &ctx, "mcts:novice", "random");
    cfg.open = NULL;
    cfg.games = 6;
    cfg.seed = 11;
    assert_int_equal(opfor_arena_run(&cfg, &r1), 0);
    assert_int_equal(r1.errors, 0);
    assert_true(r1.wins_a > r1.wins_b);
    cfg.threads = 2;
    assert_int_equal(opfor_arena_run(&cfg, &r2), 0);
    assert_memory_equal(r1.log, r2.log, sizeof r1.log[0] * (size_t)r1.games);
    opfor_arena_result_free(&r1);
    opfor_arena_result_free(&r2);
    /* a Viktoria! spec goes to the ruleset's bots, which refuse what they do not know */
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, &opfor_viktoria_ruleset, NULL, 0), 0);
    opfor_arena_policy_t pol;
    assert_int_equal(opfor_arena_policy_open(NULL, "nonsense", &g, &pol), OPFOR_ENOENT);
    assert_int_equal(opfor_arena_policy_open(NULL, "weak", &g, &pol), 0);
    assert_string_equal(pol.name, "weak");
    pol.release(pol.self);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arena_catalogue_is_generic),
        cmocka_unit_test(arena_wilson_known_values),
        cmocka_unit_test(arena_swaps_sides_every_other_game),
        cmocka_unit_test(arena_same_results_with_any_thread_count),
        cmocka_unit_test(arena_stop_flag_ends_with_a_prefix),
        cmocka_unit_test(arena_summary_adds_up),
        cmocka_unit_test(arena_rejects_bad_configs),
        cmocka_unit_test(arena_table_bot_beats_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
