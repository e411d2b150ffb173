/* tools/opfor/arena_cli.c — the run and report of `opfor arena` (arena_cli.h), shared by the
 * generic command (cmd_arena.c) and a ruleset's own version of it. Standard output is the same
 * for the same command whatever the thread count; progress and timing go to standard error.
 * The first SIGINT/SIGTERM stops new games, lets the games in progress finish and prints the
 * summary of games 1..N marked as interrupted (exit 128 + the signal); a second one ends the
 * process at once.
 */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arena_cli.h"
#include "opfor/error.h"

/* The signal that asked the run to stop (0: none): the one global a handler needs. A lock-free
 * atomic, so the handler may set it and the arena's worker threads read it (C11 7.14.1.1). */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the stop flag must be lock-free");
static atomic_int arena_stop;

/* First SIGINT/SIGTERM: note it (SA_RESETHAND makes a second one fatal at once). */
static void on_stop_signal(int sig) {
    static const char msg[] = "\narena: interrupted: no new games; finishing the games in "
                              "progress (interrupt again to quit at once)\n";
    atomic_store_explicit(&arena_stop, sig, memory_order_relaxed);
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing to do: the summary still comes */
    }
}

typedef struct progress {
    int on;       /* print at all */
    long step;    /* print at most every step games ... */
    double start; /* seconds at the start */
    double last;  /* ... and every 5 seconds: when the last line was printed */
} progress_t;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_progress(void *user, long done, long total) {
    progress_t *p = user;
    if (!p->on || (done % p->step != 0 && done != total))
        return;
    double t = now_s() - p->start;
    if (t - p->last < 5.0)
        return;
    p->last = t;
    double eta = done > 0 ? t * (double)(total - done) / (double)done : 0.0;
    fprintf(stderr, "arena: %ld/%ld games, %.0f s, about %.0f s left\n", done, total, t, eta);
}

void opfor_cli_arena_init(opfor_cli_arena_t *ar) {
    memset(ar, 0, sizeof *ar);
    ar->games = -1;
    ar->seed = -1;
    ar->threads = 1;
    ar->mode = "competitive";
}

int opfor_cli_arena_ruleset(int argc, char **argv, const opfor_ruleset_t **rs) {
    size_t n = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    const char *name = n ? list[0].name : "";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--ruleset") == 0) {
            if (i + 1 >= argc)
                return opfor_cli_usage_error("arena: --ruleset needs a value: a ruleset");
            name = argv[++i];
        } else if (strncmp(argv[i], "--ruleset=", 10) == 0) {
            name = argv[i] + 10;
        }
    }
    *rs = opfor_ruleset_find(name);
    if (*rs)
        return 0;
    char names[256];
    size_t len = 0;
    names[0] = '\0';
    for (size_t i = 0; i < n && len < sizeof names; i++) {
        int w = snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", list[i].name);
        len += w > 0 ? (size_t)w : 0;
    }
    return opfor_cli_usage_error("arena: --ruleset must be one of %s; got '%s'", names, name);
}

const char *opfor_cli_arena_policies(const opfor_ruleset_t *rs, char *buf, size_t n) {
    return opfor_arena_policy_list(rs, buf, n);
}

int opfor_cli_arena_check(const opfor_cli_arena_t *ar) {
    char specs[256];
    opfor_arena_policy_list(ar->rs, specs, sizeof specs);
    if (!ar->a || !ar->b)
        return opfor_cli_usage_error("arena: --a POLICY and --b POLICY are required (%s)", specs);
    for (int k = 0; k < 2; k++)
        if (!opfor_arena_policy_known(ar->rs, k ? ar->b : ar->a))
            return opfor_cli_usage_error("arena: %s must be one of %s; got '%s'", k ? "--b" : "--a",
                                         specs, k ? ar->b : ar->a);
    if (ar->games < 0)
        return opfor_cli_usage_error("arena: --games N is required (1 to %ld)",
                                     OPFOR_CLI_ARENA_MAX_GAMES);
    if (ar->seed < 0)
        return opfor_cli_usage_error("arena: --seed S is required (a whole number >= 0)");
    return 0;
}

void opfor_cli_arena_free(opfor_cli_arena_t *ar) {
    for (int k = 0; k < ar->nctx; k++)
        opfor_ruleset_ctx_free(ar->rs, ar->ctxs[k]);
    ar->nctx = 0;
}

/* The report as one JSON document. */
static void report_json(const opfor_cli_arena_t *ar, const opfor_arena_result_t *res) {
    opfor_json_t j;
    opfor_json_init(&j, stdout);
    opfor_json_obj_begin(&j);
    opfor_json_kv_str(&j, "ruleset", ar->rs->name);
    opfor_json_kv_str(&j, "mode", ar->mode);
    opfor_json_kv_str(&j, "a", ar->a);
    opfor_json_kv_str(&j, "b", ar->b);
    opfor_json_kv_int(&j, "seed", ar->seed);
    opfor_json_key(&j, "scenarios");
    opfor_json_arr_begin(&j);
    for (int k = 0; k < ar->nctx; k++)
        opfor_json_str(&j, ar->names[k]);
    opfor_json_arr_end(&j);
    opfor_json_kv_int(&j, "games", res->games);
    opfor_json_kv_bool(&j, "interrupted", res->interrupted);
    if (res->interrupted) {
        opfor_json_kv_int(&j, "games_played", res->games);
        opfor_json_kv_int(&j, "games_requested", ar->games);
    }
    opfor_json_kv_int(&j, "wins_a", res->wins_a);
    opfor_json_kv_int(&j, "wins_b", res->wins_b);
    opfor_json_kv_int(&j, "draws", res->draws);
    opfor_json_kv_int(&j, "losses_a", res->wins_b);
    opfor_json_kv_int(&j, "errors", res->errors);
    opfor_json_kv_num(&j, "win_rate_a", res->win_rate_a);
    opfor_json_key(&j, "ci95");
    opfor_json_arr_begin(&j);
    opfor_json_num(&j, res->ci_lo);
    opfor_json_num(&j, res->ci_hi);
    opfor_json_arr_end(&j);
    opfor_json_kv_num(&j, "score_a", res->score_a);
    opfor_json_key(&j, "a_by_side");
    opfor_json_arr_begin(&j);
    for (int s = 0; s < 2; s++) {
        opfor_json_obj_begin(&j);
        opfor_json_kv_int(&j, "side", s);
        opfor_json_kv_int(&j, "games", res->a_games_side[s]);
        opfor_json_kv_int(&j, "wins", res->a_wins_side[s]);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_kv_num(&j, "mean_actions", res->mean_steps);
    if (ar->report_json)
        ar->report_json(ar->user, &j, res);
    opfor_json_obj_end(&j);
    opfor_json_end(&j);
}

/* The report as text. */
static void report_text(const opfor_cli_arena_t *ar, const opfor_arena_result_t *res) {
    if (res->interrupted && res->games > 0)
        printf("arena: interrupted after %ld of %ld games (the summary covers games 1-%ld)\n",
               res->games, ar->games, res->games);
    else if (res->interrupted)
        printf("arena: interrupted after 0 of %ld games (no game finished)\n", ar->games);
    printf("arena: %s (a) vs %s (b), %s, %ld games, seed %ld\n", ar->a, ar->b, ar->mode, res->games,
           ar->seed);
    for (int k = 0; k < ar->nctx; k++)
        printf("scenario: %s\n", ar->names[k]);
    printf("a wins %ld, b wins %ld, draws %ld, errors %ld\n", res->wins_a, res->wins_b, res->draws,
           res->errors);
    printf("win_rate_a %.3f (95%% CI %.3f-%.3f), score_a %.3f\n", res->win_rate_a, res->ci_lo,
           res->ci_hi, res->score_a);
    if (ar->report_text)
        ar->report_text(ar->user, res);
    else
        printf("a as side 0: %ld of %ld won; as side 1: %ld of %ld won\n", res->a_wins_side[0],
               res->a_games_side[0], res->a_wins_side[1], res->a_games_side[1]);
    printf("mean %.1f actions per game\n", res->mean_steps);
}

int opfor_cli_arena_run(opfor_cli_arena_t *ar, opfor_arena_config_t *cfg) {
    cfg->rs = ar->rs;
    cfg->ctxs = (const void *const *)ar->ctxs;
    cfg->nctx = ar->nctx;
    cfg->a = ar->a;
    cfg->b = ar->b;
    cfg->games = ar->games;
    cfg->seed = (uint64_t)ar->seed;
    cfg->threads = (int)ar->threads;
    /* Every 5 percent of the games (every game under 20: a few slow games also take long). */
    progress_t prog = {!ar->quiet, ar->games >= 20 ? ar->games / 20 : 1, now_s(), 0.0};
    cfg->progress = on_progress;
    cfg->progress_user = &prog;
    /* Ctrl-C or SIGTERM keeps the games already played (see on_stop_signal). */
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    atomic_store(&arena_stop, 0);
    /* A signal the caller ignores (SIGINT for `opfor arena ... &` in a script) stays ignored. */
    sigaction(SIGINT, NULL, &old_int);
    sigaction(SIGTERM, NULL, &old_term);
    if (old_int.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
    if (old_term.sa_handler != SIG_IGN)
        sigaction(SIGTERM, &sa, NULL);
    cfg->stop = &arena_stop;
    opfor_arena_result_t res;
    int err = opfor_arena_run(cfg, &res);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (err != 0) {
        opfor_cli_arena_free(ar);
        if (err == OPFOR_ENOTSUP)
            return opfor_cli_fail("arena: a policy is not available in this build (%s)",
                                  opfor_strerror(err));
        return opfor_cli_fail("arena: %s", opfor_strerror(err));
    }
    if (ar->json)
        report_json(ar, &res);
    else
        report_text(ar, &res);
    if (!ar->quiet && now_s() - prog.start >= 5.0)
        fprintf(stderr, "arena: done in %.1f s\n", now_s() - prog.start);
    int interrupted = res.interrupted;
    opfor_arena_result_free(&res);
    opfor_cli_arena_free(ar);
    int sig = atomic_load(&arena_stop);
    if (interrupted && sig)
        return 128 + sig; /* the shell's convention: 130 for SIGINT, 143 for SIGTERM */
    return OPFOR_EXIT_OK;
}
