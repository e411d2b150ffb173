/* tools/opfor/bench_engine.c — `opfor bench engine [--ruleset NAME] [--json] [--seconds S]`:
 * how fast a ruleset's rules play.
 *
 * A ruleset that brings its own engine benchmark ("bench engine" in its RULESET_COMMANDS,
 * with figures of its own engine) gets it: the command is handed on without
 * --ruleset. For the others this one plays whole games of the ruleset's default scenario on
 * one thread through the interface (opfor_game_*: uniform random actions, chance by its listed
 * roll) and reports the median of 5 runs of actions, activations (opfor_game_progress, when
 * the ruleset keeps the count) and games per second of the thread's CPU time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "cli.h"
#include "json_out.h"
#include "opfor/rng.h"
#include "opfor/ruleset.h"

#define ENGINE_RUNS 5
#define ENGINE_MAX_STEPS 1000000L /* a game longer than this is cut (a broken ruleset) */

/* One timed run's figures, per second of the thread's CPU time. */
typedef struct engine_run {
    double steps, acts, games;
} engine_run_t;

/* Random playouts for `seconds` of CPU time from *seed on; 0 or a negative error. */
static int one_run(opfor_game_t *g, void *state, opfor_action_t *acts, double seconds,
                   uint64_t *seed, engine_run_t *out) {
    double c0 = opfor_bench_thread_cpu_ms(), c = c0;
    long steps = 0, games = 0, activations = 0;
    opfor_rng_t rng;
    opfor_rng_seed(&rng, *seed, 0);
    while (c - c0 < seconds * 1000.0) {
        int rc = opfor_game_new_state(g, state, (*seed)++);
        for (long k = 0; rc == 0 && k < ENGINE_MAX_STEPS; k++) {
            if (opfor_game_current(g, state) == OPFOR_PLAYER_TERMINAL)
                break;
            int n = opfor_game_legal(g, state, acts, g->rs->max_actions);
            if (n < 1)
                return n < 0 ? n : -1;
            rc = opfor_game_apply(g, state, &acts[opfor_rng_below(&rng, (uint32_t)n)]);
            steps++;
        }
        if (rc < 0)
            return rc;
        opfor_progress_t pr;
        if (opfor_game_progress(g, state, &pr) == 0)
            activations += (long)pr.activation;
        games++;
        c = opfor_bench_thread_cpu_ms();
    }
    double s = (c - c0) / 1000.0;
    out->steps = (double)steps / s;
    out->acts = (double)activations / s;
    out->games = (double)games / s;
    return 0;
}

/* The generic benchmark of rs; returns the exit code. */
static int bench_generic(const opfor_ruleset_t *rs, int argc, char **argv) {
    int json = 0, rc;
    double seconds = 1.0;
    char about[512];
    snprintf(about, sizeof about,
             "Plays whole games of the ruleset's default scenario (one thread) with uniform\n"
             "random actions, %d runs of S seconds of the thread's CPU time (default 1), and\n"
             "reports the median actions, activations and games per CPU second.",
             ENGINE_RUNS);
    const opfor_cli_opt_t opts[] = {
        OPFOR_CLI_JSON_OPT(&json),
        OPFOR_BENCH_SECONDS_OPT(&seconds, "CPU seconds per run (default 1)"),
        {0},
    };
    const opfor_cli_spec_t spec = {.cmd = "bench engine",
                                   .usage = "[--ruleset NAME] [--json] [--seconds S]",
                                   .about = about,
                                   .opts = opts};
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    void *ctx = NULL;
    if (opfor_ruleset_ctx_new(rs, NULL, &ctx, &d) != 0)
        return opfor_cli_fail("bench engine: %s: cannot start a game: %s", rs->name,
                              d.msg[0] ? d.msg : "no ctx_new");
    opfor_game_t g;
    void *state = malloc(rs->state_size);
    opfor_action_t *acts = malloc((size_t)rs->max_actions * sizeof *acts);
    rc = OPFOR_EXIT_OK;
    if (!state || !acts)
        rc = opfor_cli_fail("bench engine: out of memory");
    else if (opfor_game_init(&g, rs, ctx, 0) != 0)
        rc = opfor_cli_fail("bench engine: the ruleset '%s' has a bad descriptor", rs->name);
    double st[ENGINE_RUNS], ac[ENGINE_RUNS], ga[ENGINE_RUNS];
    uint64_t seed = 1;
    for (int r = 0; rc == OPFOR_EXIT_OK && r < ENGINE_RUNS; r++) {
        engine_run_t x = {0, 0, 0};
        int err = one_run(&g, state, acts, seconds, &seed, &x);
        if (err)
            rc = opfor_cli_fail("bench engine: %s: a game failed (%d)", rs->name, err);
        st[r] = x.steps;
        ac[r] = x.acts;
        ga[r] = x.games;
    }
    if (rc == OPFOR_EXIT_OK) {
        double ms = opfor_bench_median(st, ENGINE_RUNS), ma = opfor_bench_median(ac, ENGINE_RUNS),
               mg = opfor_bench_median(ga, ENGINE_RUNS);
        opfor_bench_host_t host;
        opfor_bench_host(&host);
        if (json) {
            opfor_json_t j;
            opfor_json_init(&j, stdout);
            opfor_json_obj_begin(&j);
            opfor_json_kv_str(&j, "name", "engine");
            opfor_json_kv_str(&j, "ruleset", rs->name);
            opfor_json_kv_str(&j, "machine", host.machine);
            opfor_json_kv_str(&j, "cpu", host.cpu);
            opfor_json_kv_str(&j, "policy", "random");
            opfor_json_kv_int(&j, "threads", 1);
            opfor_json_kv_num(&j, "seconds_per_run", seconds);
            opfor_json_kv_int(&j, "runs", ENGINE_RUNS);
            opfor_json_kv_str(&j, "clock", "thread CPU time");
            opfor_json_kv_num(&j, "actions_per_s", ms);
            opfor_json_kv_num(&j, "activations_per_s", ma);
            opfor_json_kv_num(&j, "games_per_s", mg);
            opfor_json_kv_int(&j, "state_bytes", (int64_t)rs->state_size);
            opfor_json_obj_end(&j);
            opfor_json_end(&j);
        } else {
            printf("machine: %s\ncpu: %s\n", host.machine, host.cpu);
            printf("engine: %.0f actions/s, %.0f activations/s, %.1f games/s (%s, random "
                   "policy, one thread, per CPU second; median of %d runs of %g s)\n"
                   "  state: %zu bytes\n",
                   ms, ma, mg, rs->name, ENGINE_RUNS, seconds, rs->state_size);
        }
    }
    free(acts);
    free(state);
    opfor_ruleset_ctx_free(rs, ctx);
    return rc;
}

int opfor_bench_engine(int argc, char **argv) {
    size_t count = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&count);
    const char *name = count ? list[0].name : NULL;
    /* --ruleset NAME (or =NAME) comes out of the command line; the rest is handed on. */
    char **args = malloc((size_t)(argc + 1) * sizeof *args);
    if (!args)
        return opfor_cli_fail("bench engine: out of memory");
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (i > 0 && strcmp(argv[i], "--ruleset") == 0) {
            if (i + 1 >= argc) {
                free(args);
                return opfor_cli_usage_error("bench engine: --ruleset needs a value: a ruleset");
            }
            name = argv[++i];
        } else if (i > 0 && strncmp(argv[i], "--ruleset=", 10) == 0) {
            name = argv[i] + 10;
        } else {
            args[n++] = argv[i];
        }
    }
    args[n] = NULL;
    const opfor_ruleset_t *rs = name ? opfor_ruleset_find(name) : NULL;
    int rc;
    if (!rs) {
        rc = opfor_cli_usage_error("bench engine: --ruleset must be a registered ruleset, got "
                                   "'%s'",
                                   name ? name : "");
    } else {
        const opfor_cli_cmd_t *own = opfor_cli_ruleset_command(rs->name, "bench engine");
        rc = own ? own->fn(n, args) : bench_generic(rs, n, args);
    }
    free(args);
    return rc;
}
