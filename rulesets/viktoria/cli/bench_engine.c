/* rulesets/viktoria/cli/bench_engine.c — `opfor bench engine [--ruleset viktoria] [--json]
 * [--seconds S]`: how fast the Viktoria! rules engine plays (Viktoria!'s own version of the
 * generic engine benchmark, tools/opfor/bench_engine.c; registered in ruleset.cmake).
 *
 * Plays whole games on the built-in competitive scenario on one thread, with the random
 * policy (uniform over the full legal list) and with random_kind (a group of actions first,
 * listed lazily: the cheap rollout policy), and reports unit activations per second and
 * whole games per second for each (median of 5 runs), the size of the game state in bytes,
 * and state copies per second. It takes argv with argv[0] == "engine" (--ruleset taken out).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "cli.h"
#include "json_out.h"
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/engine.h"

#define ENGINE_RUNS 5

static double secs_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of this thread: on a shared machine it measures the engine, not the neighbours. */
static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct run {
    double acts_per_s, games_per_s; /* per second of the thread's CPU time */
    double wall_acts_per_s;         /* per second of wall-clock time */
} run_t;

static run_t one_run(const opfor_vk_ctx_t *ctx, double seconds, uint64_t *seed,
                     opfor_vk_policy_t pol) {
    double c0 = cpu_now(), c = c0, w0 = secs_now();
    long acts = 0, games = 0;
    while (c - c0 < seconds) {
        opfor_vk_result_t r;
        acts += opfor_vk_play(ctx, *seed, pol, pol, *seed ^ 0xabcdefULL, &r, NULL, NULL, 0, NULL);
        (*seed)++;
        games++;
        c = cpu_now();
    }
    double w = secs_now() - w0;
    run_t out = {(double)acts / (c - c0), (double)games / (c - c0), (double)acts / w};
    return out;
}

static double copies_per_s(const opfor_vk_ctx_t *ctx, double seconds) {
    opfor_vk_state_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return 0.0;
    }
    opfor_vk_state_init(ctx, a, 1);
    long n = 0;
    double t0 = secs_now(), t = t0;
    while (t - t0 < seconds * 0.2) {
        for (int k = 0; k < 10000; k++) {
            memcpy(b, a, sizeof *a);
            a->activations = (uint16_t)(b->activations + 1); /* keep the copy live */
        }
        n += 10000;
        t = secs_now();
    }
    free(a);
    free(b);
    return (double)n / (t - t0);
}

int opfor_vk_bench_engine(int argc, char **argv);

int opfor_vk_bench_engine(int argc, char **argv) {
    int json = 0, rc;
    double seconds = 1.0;
    char about[640];
    snprintf(about, sizeof about,
             "Plays whole Viktoria! games on the built-in competitive scenario (one\n"
             "thread), %d runs of S seconds of the thread's CPU time (default 1) with the\n"
             "random policy (uniform over the full legal list), then %d with random_kind\n"
             "(an action group first, listed lazily), and reports for each the median unit\n"
             "activations and games per CPU second (and activations per wall-clock\n"
             "second), the state size in bytes and state copies per second.",
             ENGINE_RUNS, ENGINE_RUNS);
    const opfor_cli_opt_t opts[] = {
        OPFOR_CLI_JSON_OPT(&json),
        OPFOR_BENCH_SECONDS_OPT(&seconds, "CPU seconds per run (default 1)"),
        {0},
    };
    const opfor_cli_spec_t spec = {.cmd = "bench engine", .about = about, .opts = opts};
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    opfor_diag_t d;
    opfor_viktoria_model_t m;
    opfor_vk_ctx_t *ctx = NULL;
    if (!sc)
        return opfor_cli_fail("bench engine: out of memory");
    if (opfor_viktoria_builtin_load("competitive_default", sc, &d) != 0 ||
        opfor_viktoria_model_default(&m, &d) != 0 ||
        opfor_vk_ctx_init(&ctx, sc, &m, NULL, &d) != 0) {
        opfor_scenario_free(sc);
        free(sc);
        return opfor_cli_fail("bench engine: %s", d.msg);
    }
    double ctx_t0 = secs_now();
    opfor_vk_ctx_t *tmp = NULL;
    opfor_vk_ctx_init(&tmp, sc, &m, NULL, &d);
    double ctx_secs = secs_now() - ctx_t0;
    opfor_vk_ctx_free(tmp);

    /* [0] random, [1] random_kind; each over the same seeds */
    static const opfor_vk_policy_t POL[2] = {OPFOR_VK_POLICY_RANDOM, OPFOR_VK_POLICY_RANDOM_KIND};
    double acts[2][ENGINE_RUNS], games[2][ENGINE_RUNS], sa[2][ENGINE_RUNS], sg[2][ENGINE_RUNS],
        sw[2][ENGINE_RUNS];
    for (int p = 0; p < 2; p++) {
        uint64_t seed = 1;
        for (int r = 0; r < ENGINE_RUNS; r++) {
            run_t x = one_run(ctx, seconds, &seed, POL[p]);
            acts[p][r] = sa[p][r] = x.acts_per_s;
            games[p][r] = sg[p][r] = x.games_per_s;
            sw[p][r] = x.wall_acts_per_s;
        }
        qsort(sa[p], ENGINE_RUNS, sizeof sa[p][0], opfor_bench_cmp_double);
        qsort(sg[p], ENGINE_RUNS, sizeof sg[p][0], opfor_bench_cmp_double);
        qsort(sw[p], ENGINE_RUNS, sizeof sw[p][0], opfor_bench_cmp_double);
    }
    double copies = copies_per_s(ctx, seconds);
    opfor_bench_host_t host;
    opfor_bench_host(&host);
    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", "engine");
        opfor_json_kv_str(&j, "machine", host.machine);
        opfor_json_kv_str(&j, "cpu", host.cpu);
        opfor_json_kv_str(&j, "scenario", sc->name);
        opfor_json_kv_str(&j, "policy", "random");
        opfor_json_kv_int(&j, "threads", 1);
        opfor_json_kv_num(&j, "seconds_per_run", seconds);
        opfor_json_kv_int(&j, "runs", ENGINE_RUNS);
        opfor_json_kv_str(&j, "clock", "thread CPU time");
        for (int p = 0; p < 2; p++) {
            const char *pfx = p == 0 ? "" : "random_kind_";
            char key[64];
            snprintf(key, sizeof key, "%sactivations_per_s", pfx);
            opfor_json_kv_num(&j, key, sa[p][ENGINE_RUNS / 2]);
            snprintf(key, sizeof key, "%sgames_per_s", pfx);
            opfor_json_kv_num(&j, key, sg[p][ENGINE_RUNS / 2]);
            snprintf(key, sizeof key, "%swall_activations_per_s", pfx);
            opfor_json_kv_num(&j, key, sw[p][ENGINE_RUNS / 2]);
            snprintf(key, sizeof key, "%sactivations_per_run", pfx);
            opfor_json_key(&j, key);
            opfor_json_arr_begin(&j);
            for (int r = 0; r < ENGINE_RUNS; r++)
                opfor_json_num(&j, acts[p][r]);
            opfor_json_arr_end(&j);
            snprintf(key, sizeof key, "%sgames_per_run", pfx);
            opfor_json_key(&j, key);
            opfor_json_arr_begin(&j);
            for (int r = 0; r < ENGINE_RUNS; r++)
                opfor_json_num(&j, games[p][r]);
            opfor_json_arr_end(&j);
        }
        opfor_json_kv_int(&j, "state_bytes", (int64_t)sizeof(opfor_vk_state_t));
        opfor_json_kv_num(&j, "state_copies_per_s", copies);
        opfor_json_kv_num(&j, "context_init_s", ctx_secs);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else {
        printf("machine: %s\ncpu: %s\n", host.machine, host.cpu);
        for (int p = 0; p < 2; p++)
            printf("engine: %.0f activations/s, %.1f games/s (%s policy, one thread, per CPU "
                   "second; median of %d runs of %g s; activations min %.0f max %.0f; wall "
                   "clock %.0f/s)\n",
                   sa[p][ENGINE_RUNS / 2], sg[p][ENGINE_RUNS / 2],
                   p == 0 ? "random" : "random_kind", ENGINE_RUNS, seconds, sa[p][0],
                   sa[p][ENGINE_RUNS - 1], sw[p][ENGINE_RUNS / 2]);
        printf("  scenario: %s\n  state: %zu bytes, %.0f copies/s; context built in %.3f s\n",
               sc->name, sizeof(opfor_vk_state_t), copies, ctx_secs);
    }
    opfor_vk_ctx_free(ctx);
    opfor_scenario_free(sc);
    free(sc);
    return OPFOR_EXIT_OK;
}
