/* tools/opfor/bench_mcts.c — `opfor bench mcts`: search speed, latency and memory per level.
 *
 * Has the AI decide N positions at each level and reports iterations per second, decision
 * latency (median, p95, max; wall clock) and memory (pool allocated, nodes used, all the
 * search allocated). The workload is a registered ruleset (`--ruleset NAME`, by default the
 * registry's first) with its own evaluator (random playouts without one), on positions from
 * its "heuristic" bot's games when it has one (else from random games) on its built-in
 * scenarios in name order, equal shares (or its default scenario, or `--scenario`).
 * With --runs R each level is measured R times and every figure is the median of the runs.
 * Target at standard on one core: p95 <= 150 ms, pool <= 64 MiB.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "cli.h"
#include "json_out.h"
#include "opfor/ai.h"
#include "opfor/mcts.h"
#include "opfor/ruleset.h"
#include "opfor/ruleset_ai.h"

#define DEFAULT_DECISIONS 30
#define MAX_RUNS 15
/* Most scenarios the positions come from: the ruleset's built-in ones in name order (a ruleset
 * without any: its default). */
#define NSCEN 8
#define MAX_DECISIONS 10000
#define POOL_BYTES ((size_t)64 << 20)
#define TARGET_LEVEL OPFOR_AI_STANDARD
#define TARGET_P95_MS 150.0
#define TARGET_POOL_MIB 64.0

static double ms_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* CPU time of the calling thread, ms: with one search thread, the decision's own work,
 * whatever else the machine is doing. */
static double cpu_ms_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The ruleset measured without --ruleset: the registry's first. */
static const opfor_ruleset_t *default_ruleset(void) {
    size_t n = 0;
    return opfor_ruleset_list(&n)[0].rs;
}

/* qsort comparator of names. */
static int cmp_name(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The ruleset names --ruleset accepts, for error messages. */
static void allowed_rulesets(char *buf, size_t n) {
    size_t k = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&k);
    buf[0] = 0;
    for (size_t i = 0; i < k; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", list[i].name);
}

/* One position to decide: a state and the game (context) it belongs to. */
typedef struct position {
    const opfor_game_t *game;
    unsigned char *state;
} position_t;

/* Collects up to n decision states with at least two legal actions from games of g, into
 * pos[*have ..]. The games are played by bot (the ruleset's planner; one move in ten
 * uniform, so the games differ), or by uniform choice when bot is NULL. About one decision
 * in three is kept. */
static void collect_states(const opfor_game_t *g0, opfor_policy_t *bot, position_t *pos, int *have,
                           int n, uint64_t seed) {
    opfor_game_t g = *g0;
    const opfor_ruleset_t *rs = g.rs;
    unsigned char *s = malloc(rs->state_size);
    opfor_action_t *acts = malloc((size_t)rs->max_actions * sizeof *acts);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, seed, 0xBE7C);
    for (uint64_t game = 0; s && acts && *have < n && game < 1000; game++) {
        if (opfor_game_new_state(&g, s, seed + game) != 0)
            break;
        for (int step = 0; step < 100000 && *have < n; step++) {
            int p = opfor_game_current(&g, s);
            if (p == OPFOR_PLAYER_TERMINAL)
                break;
            int k = opfor_game_legal(&g, s, acts, rs->max_actions);
            if (k <= 0)
                break;
            int pick = 0;
            opfor_action_t chosen;
            const opfor_action_t *play = NULL;
            if (p >= 0) {
                if (k > 1 && opfor_rng_below(&rng, 3) == 0) {
                    unsigned char *copy = malloc(rs->state_size);
                    if (!copy)
                        break;
                    memcpy(copy, s, rs->state_size);
                    pos[*have].game = g0;
                    pos[*have].state = copy;
                    (*have)++;
                }
                pick = (int)opfor_rng_below(&rng, (uint32_t)k);
                if (bot && opfor_rng_below(&rng, 10) != 0 &&
                    bot->choose(bot->self, &g, s, &rng, &chosen) == 0)
                    play = &chosen;
            }
            if (opfor_game_apply(&g, s, play ? play : &acts[pick]) != 0)
                break;
        }
    }
    free(s);
    free(acts);
}

/* Figures for one level. */
typedef struct level_run {
    int level;
    double median_ms, p95_ms, max_ms; /* wall clock */
    double cpu_median_ms, cpu_p95_ms; /* the search thread's CPU time (one thread) */
    double iters_per_s;               /* per CPU second of the calling thread */
    double mean_iterations;           /* per decision */
    uint64_t peak_nodes;              /* most nodes one decision used */
    size_t pool_bytes;                /* node pool allocated */
    size_t memory_bytes;              /* everything the search allocated */
    int wall_capped;                  /* decisions stopped by the wall cap */
    int decisions;                    /* decided */
} level_run_t;

static int run_level(const position_t *pos, int n, const opfor_ruleset_t *rs,
                     const opfor_evaluator_t *ev, int level, int threads, uint64_t seed,
                     double *lat, double *cpu, level_run_t *out) {
    memset(out, 0, sizeof *out);
    out->level = level;
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    if (ev)
        opfor_ai_search_tuning(rs, &cfg);
    cfg.memory_bytes = POOL_BYTES;
    cfg.threads = threads;
    cfg.seed = seed;
    opfor_ai_level_apply(level, &cfg);
    opfor_mcts_t *m = NULL;
    int rc = opfor_mcts_create(&m, rs, &cfg, ev ? ev->scratch_size : 0);
    if (rc)
        return rc;
    double busy = 0.0;
    uint64_t iterations = 0;
    for (int i = 0; i < n; i++) {
        opfor_ai_decision_t d;
        double t0 = ms_now(), c0 = cpu_ms_now();
        rc = opfor_ai_decide(m, pos[i].game, pos[i].state, ev, level, (uint64_t)i, NULL, &d);
        double dt = ms_now() - t0, dc = cpu_ms_now() - c0;
        if (rc) {
            opfor_mcts_free(m);
            return rc;
        }
        lat[i] = dt;
        cpu[i] = dc;
        busy += dc;
        iterations += d.search.iterations;
        if (d.search.nodes > out->peak_nodes)
            out->peak_nodes = d.search.nodes;
        out->wall_capped += d.search.stop == OPFOR_MCTS_STOP_WALL;
        out->pool_bytes = (size_t)d.search.node_capacity * OPFOR_MCTS_NODE_BYTES;
    }
    out->decisions = n;
    out->mean_iterations = (double)iterations / n;
    out->memory_bytes = opfor_mcts_memory(m);
    opfor_mcts_free(m);
    qsort(lat, (size_t)n, sizeof *lat, opfor_bench_cmp_double);
    out->median_ms = n % 2 ? lat[n / 2] : 0.5 * (lat[n / 2 - 1] + lat[n / 2]);
    int r95 = (95 * n + 99) / 100; /* nearest rank */
    out->p95_ms = lat[(r95 > 0 ? r95 : 1) - 1];
    out->max_ms = lat[n - 1];
    qsort(cpu, (size_t)n, sizeof *cpu, opfor_bench_cmp_double);
    out->cpu_median_ms = n % 2 ? cpu[n / 2] : 0.5 * (cpu[n / 2 - 1] + cpu[n / 2]);
    out->cpu_p95_ms = cpu[(r95 > 0 ? r95 : 1) - 1];
    out->iters_per_s = busy > 0.0 ? (double)iterations / (busy / 1000.0) : 0.0;
    return 0;
}

static double median_of(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, opfor_bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The median over runs of each figure (peaks and memory: the largest). */
static void merge_runs(const level_run_t *runs, int r, level_run_t *out) {
    double a[MAX_RUNS], b[MAX_RUNS], c[MAX_RUNS], d[MAX_RUNS], e[MAX_RUNS], f[MAX_RUNS],
        g[MAX_RUNS];
    *out = runs[0];
    int capped = 0;
    for (int i = 0; i < r; i++) {
        a[i] = runs[i].median_ms;
        b[i] = runs[i].p95_ms;
        c[i] = runs[i].max_ms;
        d[i] = runs[i].iters_per_s;
        e[i] = runs[i].mean_iterations;
        f[i] = runs[i].cpu_median_ms;
        g[i] = runs[i].cpu_p95_ms;
        if (runs[i].peak_nodes > out->peak_nodes)
            out->peak_nodes = runs[i].peak_nodes;
        capped += runs[i].wall_capped;
    }
    out->median_ms = median_of(a, r);
    out->p95_ms = median_of(b, r);
    out->max_ms = median_of(c, r);
    out->iters_per_s = median_of(d, r);
    out->mean_iterations = median_of(e, r);
    out->cpu_median_ms = median_of(f, r);
    out->cpu_p95_ms = median_of(g, r);
    out->wall_capped = capped;
}

static void free_positions(position_t *pos, int n) {
    for (int i = 0; i < n; i++)
        free(pos[i].state);
    free(pos);
}

int opfor_bench_mcts(int argc, char **argv) {
    int json = 0, only = -1, usage_rc = 0;
    long decisions = DEFAULT_DECISIONS, runs_l = 1, threads_l = 1, seed_l = 20261126;
    const char *rsname = NULL, *scen = NULL;
    char names[256], about[1400];
    snprintf(about, sizeof about,
             "Has the AI decide N positions (default %d) at each level (or only L: novice,\n"
             "standard, veteran, ruthless, challenge) and reports iterations per second,\n"
             "decision latency (median, p95 and max, wall clock, ms) and memory (pool\n"
             "allocated, nodes used, all the search allocated) per level. Searches run on T\n"
             "threads (default 1: the one-core figures; iterations per second and the cpu\n"
             "columns count the search thread's CPU time, so a busy machine slows the wall\n"
             "clock figures, not those). With --runs R (default 1, at most %d)\n"
             "each level is measured R times and each figure is the median of the runs.\n"
             "Target at standard on one core: p95 at most %.0f ms with a pool of at most\n"
             "%.0f MiB. Long runs report progress on standard error.\n"
             "\n"
             "The workload is the ruleset (--ruleset NAME, default the first registered:\n"
             "%s) with its evaluator (random playouts without one), on positions from\n"
             "planner-against-planner games (random ones without a planner) on its built-in\n"
             "scenarios, in equal shares (or its default scenario; --scenario picks one).",
             DEFAULT_DECISIONS, MAX_RUNS, TARGET_P95_MS, TARGET_POOL_MIB, default_ruleset()->name);
    const opfor_cli_opt_t opts[] = {
        OPFOR_CLI_JSON_OPT(&json),
        {.name = "--ruleset",
         .type = OPFOR_CLI_STRING,
         .string = &rsname,
         .arg = "NAME",
         .wants = "a ruleset",
         .help = "the ruleset measured (default: the first registered)"},
        {.name = "--scenario",
         .type = OPFOR_CLI_STRING,
         .string = &scen,
         .arg = "NAME",
         .wants = "a scenario (file or built-in name)",
         .help = "positions from this scenario only"},
        {.name = "--level",
         .type = OPFOR_CLI_CHOICE,
         .choice = &only,
         .names = opfor_ai_level_names,
         .arg = "L",
         .help = "measure this level only (default: every level)"},
        {.name = "--decisions",
         .type = OPFOR_CLI_WHOLE,
         .whole = &decisions,
         .lo = 1,
         .hi = MAX_DECISIONS,
         .arg = "N",
         .help = "positions decided per level"},
        {.name = "--runs",
         .type = OPFOR_CLI_WHOLE,
         .whole = &runs_l,
         .lo = 1,
         .hi = MAX_RUNS,
         .arg = "R",
         .help = "measures per level; each figure is their median"},
        {.name = "--threads",
         .type = OPFOR_CLI_WHOLE,
         .whole = &threads_l,
         .lo = 1,
         .hi = OPFOR_MCTS_MAX_THREADS,
         .arg = "T",
         .help = "search threads (default 1)"},
        OPFOR_CLI_SEED_OPT(&seed_l, "seed of the games the positions come from (default 20261126)"),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "bench mcts",
        .usage = "[--json] [--ruleset NAME] [--scenario NAME] [--level L]\n"
                 "                        [--decisions N] [--runs R] [--threads T] [--seed S]",
        .about = about,
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &usage_rc))
        return usage_rc;
    int runs = (int)runs_l, threads = (int)threads_l;
    uint64_t seed = (uint64_t)seed_l;

    const opfor_ruleset_t *rs = default_ruleset();
    if (rsname) {
        rs = opfor_ruleset_find(rsname);
        if (!rs) {
            allowed_rulesets(names, sizeof names);
            return opfor_cli_usage_error("bench mcts: --ruleset must be one of %s; got '%s'", names,
                                         rsname);
        }
    }
    /* contexts: the built-in scenarios in name order (or the one asked), or the ruleset's
     * default */
    const char *scen_names[NSCEN];
    int nctx = 0;
    for (size_t i = 0; !scen && rs->builtin_name && rs->builtin_name(i) && nctx < NSCEN; i++)
        scen_names[nctx++] = rs->builtin_name(i);
    int builtins = nctx > 0;
    if (builtins)
        qsort(scen_names, (size_t)nctx, sizeof scen_names[0], cmp_name);
    else
        scen_names[nctx++] = scen;
    void *ctx[NSCEN] = {NULL};
    opfor_game_t games[NSCEN];
    opfor_diag_t diag;
    memset(&diag, 0, sizeof diag);
    for (int c = 0; c < nctx; c++) {
        int rc = opfor_ruleset_ctx_new(rs, scen_names[c], &ctx[c], &diag);
        if (rc != 0 && !(rc == OPFOR_ENOTSUP && !scen_names[c])) {
            for (int k = 0; k < c; k++)
                opfor_ruleset_ctx_free(rs, ctx[k]);
            return opfor_cli_fail("bench mcts: %s: %s: %s", rs->name,
                                  scen_names[c] ? scen_names[c] : "default scenario",
                                  diag.msg[0] ? diag.msg : opfor_strerror(rc));
        }
        if (opfor_game_init(&games[c], rs, ctx[c], 0) != 0) {
            for (int k = 0; k <= c; k++)
                opfor_ruleset_ctx_free(rs, ctx[k]);
            return opfor_cli_fail("bench mcts: %s: the ruleset is incomplete", rs->name);
        }
    }
    const opfor_evaluator_t *ev = opfor_ai_evaluator(rs);
    /* the games the positions come from: the ruleset's planner, when it has one */
    opfor_policy_t bot;
    memset(&bot, 0, sizeof bot);
    int have_bot =
        rs->ai && rs->ai->bot_open && rs->ai->bot_open("heuristic", &games[0], &bot) == 0;

    int n = (int)decisions;
    position_t *pos = calloc((size_t)n, sizeof *pos);
    double *lat = malloc((size_t)n * sizeof *lat), *cpus = malloc((size_t)n * sizeof *cpus);
    int have = 0;
    if (pos && lat && cpus)
        for (int c = 0; c < nctx; c++)
            collect_states(&games[c], have_bot ? &bot : NULL, pos, &have,
                           c == nctx - 1 ? n : have + (n - have) / (nctx - c), seed + 7919u * c);
    if (have_bot && bot.release)
        bot.release(bot.self);
    int rc = 0;
    if (!pos || !lat || !cpus)
        rc = OPFOR_ENOMEM;
    else if (have < 1)
        rc = OPFOR_EINVAL;
    n = have;

    opfor_bench_host_t host;
    opfor_bench_host(&host);
    char workload[256];
    if (have_bot && scen_names[0]) {
        int w = snprintf(workload, sizeof workload, "%s, heuristic planner; positions from ",
                         rs->title);
        for (int c = 0; c < nctx && w > 0 && (size_t)w < sizeof workload; c++)
            w += snprintf(workload + w, sizeof workload - (size_t)w, "%s%s",
                          c == 0          ? ""
                          : c == nctx - 1 ? " and "
                                          : ", ",
                          scen_names[c]);
    } else
        snprintf(workload, sizeof workload, "%s, evaluator %s; positions from %s games", rs->title,
                 ev ? ev->name : "none (random playouts)", have_bot ? "planner" : "random");

    level_run_t results[OPFOR_AI_LEVEL_COUNT], tries[MAX_RUNS];
    int nres = 0;
    /* Progress on standard error (the table comes at the end): after a level's run, at most
     * once every 5 s, so short runs print none. */
    int steps = (only >= 0 ? 1 : OPFOR_AI_LEVEL_COUNT) * runs, step = 0;
    double start = ms_now(), last = start;
    for (int lv = 0; lv < OPFOR_AI_LEVEL_COUNT && rc == 0; lv++) {
        if (only >= 0 && lv != only)
            continue;
        for (int r = 0; r < runs && rc == 0; r++) {
            rc = run_level(pos, n, rs, ev, lv, threads, seed, lat, cpus, &tries[r]);
            double t = ms_now();
            step++;
            if (t - last >= 5000.0) {
                last = t;
                fprintf(stderr, "bench mcts: %d/%d level runs done (%s run %d of %d), %.0f s\n",
                        step, steps, opfor_ai_level_info(lv)->name, r + 1, runs,
                        (t - start) / 1000.0);
            }
        }
        if (rc == 0)
            merge_runs(tries, runs, &results[nres++]);
    }
    free_positions(pos, have);
    free(lat);
    free(cpus);
    for (int c = 0; c < nctx; c++)
        opfor_ruleset_ctx_free(rs, ctx[c]);
    if (rc == OPFOR_EINVAL && have < 1)
        return opfor_cli_fail("bench mcts: %s: the games gave no decision to search", rs->name);
    if (rc)
        return opfor_cli_fail("bench mcts: search failed: %s", opfor_strerror(rc));

    const level_run_t *target = NULL;
    for (int i = 0; i < nres; i++)
        if (results[i].level == TARGET_LEVEL)
            target = &results[i];
    int met = target && target->p95_ms <= TARGET_P95_MS &&
              target->pool_bytes <= (size_t)(TARGET_POOL_MIB * 1048576.0);

    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "benchmark", "mcts");
        opfor_json_kv_str(&j, "ruleset", rs->name);
        opfor_json_kv_bool(&j, "toy", 0); /* kept for readers of older output */
        opfor_json_kv_str(&j, "workload", workload);
        opfor_json_kv_str(&j, "evaluator", ev ? ev->name : "random");
        opfor_json_kv_str(&j, "machine", host.machine);
        opfor_json_kv_str(&j, "cpu", host.cpu);
        opfor_json_kv_int(&j, "threads", threads);
        opfor_json_kv_int(&j, "decisions", n);
        opfor_json_kv_int(&j, "runs", runs);
        opfor_json_kv_int(&j, "seed", (int64_t)seed);
        opfor_json_key(&j, "levels");
        opfor_json_obj_begin(&j);
        for (int i = 0; i < nres; i++) {
            const level_run_t *r = &results[i];
            const opfor_ai_level_info_t *lv = opfor_ai_level_info(r->level);
            opfor_json_key(&j, lv->name);
            opfor_json_obj_begin(&j);
            opfor_json_kv_int(&j, "budget_iterations", lv->iterations);
            opfor_json_kv_int(&j, "wall_cap_ms", lv->wall_ms);
            opfor_json_kv_num(&j, "iterations_per_s", r->iters_per_s);
            opfor_json_kv_num(&j, "mean_iterations", r->mean_iterations);
            opfor_json_kv_num(&j, "median_ms", r->median_ms);
            opfor_json_kv_num(&j, "p95_ms", r->p95_ms);
            opfor_json_kv_num(&j, "max_ms", r->max_ms);
            opfor_json_kv_num(&j, "cpu_median_ms", r->cpu_median_ms);
            opfor_json_kv_num(&j, "cpu_p95_ms", r->cpu_p95_ms);
            opfor_json_kv_int(&j, "wall_capped", r->wall_capped);
            opfor_json_kv_int(&j, "pool_bytes", (int64_t)r->pool_bytes);
            opfor_json_kv_int(&j, "peak_node_bytes",
                              (int64_t)(r->peak_nodes * OPFOR_MCTS_NODE_BYTES));
            opfor_json_kv_int(&j, "memory_bytes", (int64_t)r->memory_bytes);
            opfor_json_obj_end(&j);
        }
        opfor_json_obj_end(&j);
        opfor_json_key(&j, "target");
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "level", opfor_ai_level_info(TARGET_LEVEL)->name);
        opfor_json_kv_num(&j, "p95_ms_max", TARGET_P95_MS);
        opfor_json_kv_num(&j, "pool_mib_max", TARGET_POOL_MIB);
        if (target)
            opfor_json_kv_bool(&j, "met", met);
        else
            opfor_json_kv_str(&j, "met", "not measured");
        opfor_json_obj_end(&j);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
        return OPFOR_EXIT_OK;
    }

    printf("mcts on %s: %s\n", rs->name, workload);
    printf("machine: %s\ncpu: %s\n", host.machine, host.cpu);
    printf("%d decisions (seed %llu), %d thread%s, pool %.0f MiB, %d run%s (medians)\n\n", n,
           (unsigned long long)seed, threads, threads == 1 ? "" : "s",
           (double)POOL_BYTES / 1048576.0, runs, runs == 1 ? "" : "s");
    printf("%-10s %7s %7s %9s %8s %9s %8s %8s %8s %8s %8s %8s %8s\n", "level", "budget", "wall ms",
           "iter/s", "iter/dec", "median ms", "p95 ms", "max ms", "cpu med", "cpu p95", "pool MiB",
           "used MiB", "mem MiB");
    for (int i = 0; i < nres; i++) {
        const level_run_t *r = &results[i];
        const opfor_ai_level_info_t *lv = opfor_ai_level_info(r->level);
        printf("%-10s %7u %7u %9.0f %8.0f %9.2f %8.2f %8.2f %8.2f %8.2f %8.1f %8.2f %8.1f%s\n",
               lv->name, lv->iterations, lv->wall_ms, r->iters_per_s, r->mean_iterations,
               r->median_ms, r->p95_ms, r->max_ms, r->cpu_median_ms, r->cpu_p95_ms,
               (double)r->pool_bytes / 1048576.0,
               (double)r->peak_nodes * OPFOR_MCTS_NODE_BYTES / 1048576.0,
               (double)r->memory_bytes / 1048576.0, r->wall_capped ? "  (wall cap hit)" : "");
    }
    if (target)
        printf("\ntarget at %s (p95 <= %.0f ms, pool <= %.0f MiB): %s\n",
               opfor_ai_level_info(TARGET_LEVEL)->name, TARGET_P95_MS, TARGET_POOL_MIB,
               met ? "met" : "NOT met");
    return OPFOR_EXIT_OK;
}
