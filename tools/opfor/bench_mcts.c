/* tools/opfor/bench_mcts.c — `opfor bench mcts`: search speed, latency and memory per level.
 *
 * Has the AI decide N positions from random games at each level and reports iterations per
 * second, decision latency (median, p95, max; wall clock) and memory (pool allocated, nodes
 * used). Target at standard on one core: p95 <= 150 ms, pool <= 64 MiB. Until the Viktoria!
 * adapter is registered the workload is the toy skirmish of tests/ai/toy_games.c, compiled
 * in here, and the output says so; --ruleset picks a registered ruleset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/ai.h"
#include "opfor/mcts.h"
#include "opfor/ruleset.h"

/* The toy workload: compiled into this one binary until a real ruleset is registered. */
#include "../../tests/ai/toy_games.c"

#define DEFAULT_DECISIONS 30
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

static void cpu_name(char *buf, size_t size) {
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Hardware", 8) == 0 ||
            strncmp(line, "Model", 5) == 0) {
            char *c = strchr(line, ':');
            if (!c)
                continue;
            c++;
            while (*c == ' ' || *c == '\t')
                c++;
            c[strcspn(c, "\n")] = 0;
            snprintf(buf, size, "%s", c);
            break;
        }
    }
    fclose(f);
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void help(FILE *f) {
    fprintf(f,
            "usage: opfor bench mcts [--json] [--ruleset NAME] [--level L] [--decisions N]\n"
            "                        [--threads T] [--seed S]\n"
            "\n"
            "Has the AI decide N positions (default %d) taken from random games, at each\n"
            "level (or only L: novice, standard, veteran, ruthless, challenge), and reports\n"
            "iterations per second, decision latency (median, p95 and max, wall clock, ms)\n"
            "and memory (pool allocated, nodes used) per level. Searches run on T threads\n"
            "(default 1: the one-core figures). Target at standard on one core: p95 at most\n"
            "%.0f ms with a pool of at most %.0f MiB.\n"
            "\n"
            "--ruleset NAME picks a registered ruleset (its default scenario); the default\n"
            "is the built-in toy skirmish (2 x 4 units on a lane, 6 turns) while no real\n"
            "ruleset is registered.\n",
            DEFAULT_DECISIONS, TARGET_P95_MS, TARGET_POOL_MIB);
}

/* The ruleset names --ruleset accepts, for error messages. */
static void allowed_rulesets(char *buf, size_t n) {
    size_t k = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&k);
    snprintf(buf, n, "%s", toy_sk_ruleset.name);
    for (size_t i = 0; i < k; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), ", %s", list[i].name);
}

/* Fills states (room for n, each rs->state_size bytes) with decision states that have at
 * least two legal actions, from random games played with the given seed. Returns how many
 * were found (fewer than n only if the games offer too few). */
static int collect_states(const opfor_game_t *g0, unsigned char *states, int n, uint64_t seed) {
    opfor_game_t g = *g0;
    const opfor_ruleset_t *rs = g.rs;
    unsigned char *s = malloc(rs->state_size);
    opfor_action_t *acts = malloc((size_t)rs->max_actions * sizeof *acts);
    int found = 0;
    opfor_rng_t rng;
    opfor_rng_seed(&rng, seed, 0xBE7C);
    for (uint64_t game = 0; s && acts && found < n && game < 1000; game++) {
        if (opfor_game_new_state(&g, s, seed + game) != 0)
            break;
        for (int step = 0; step < 100000 && found < n; step++) {
            int p = opfor_game_current(&g, s);
            if (p == OPFOR_PLAYER_TERMINAL)
                break;
            int k = opfor_game_legal(&g, s, acts, rs->max_actions);
            if (k <= 0)
                break;
            int pick = 0;
            if (p >= 0) {
                /* take about one decision in three, to spread over the game */
                if (k > 1 && opfor_rng_below(&rng, 3) == 0)
                    memcpy(states + (size_t)found++ * rs->state_size, s, rs->state_size);
                pick = (int)opfor_rng_below(&rng, (uint32_t)k);
            }
            if (opfor_game_apply(&g, s, &acts[pick]) != 0)
                break;
        }
    }
    free(s);
    free(acts);
    return found;
}

/* Figures for one level. */
typedef struct level_run {
    int level;
    double median_ms, p95_ms, max_ms;
    double iters_per_s;
    uint64_t iterations; /* all decisions */
    uint64_t peak_nodes; /* most nodes one decision used */
    size_t pool_bytes;   /* node pool allocated */
    size_t memory_bytes; /* everything the search allocated */
    int wall_capped;     /* decisions stopped by the wall cap */
    int decisions;       /* decided */
} level_run_t;

static int run_level(const opfor_game_t *g, const unsigned char *states, int n, int level,
                     int threads, uint64_t seed, double *lat, level_run_t *out) {
    memset(out, 0, sizeof *out);
    out->level = level;
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    cfg.memory_bytes = POOL_BYTES;
    cfg.threads = threads;
    cfg.seed = seed;
    opfor_ai_level_apply(level, &cfg);
    opfor_mcts_t *m = NULL;
    int rc = opfor_mcts_create(&m, g->rs, &cfg, 0);
    if (rc)
        return rc;
    double busy = 0.0;
    for (int i = 0; i < n; i++) {
        opfor_ai_decision_t d;
        double t0 = ms_now();
        rc = opfor_ai_decide(m, g, states + (size_t)i * g->rs->state_size, NULL, level, (uint64_t)i,
                             NULL, &d);
        double dt = ms_now() - t0;
        if (rc) {
            opfor_mcts_free(m);
            return rc;
        }
        lat[i] = dt;
        busy += dt;
        out->iterations += d.search.iterations;
        if (d.search.nodes > out->peak_nodes)
            out->peak_nodes = d.search.nodes;
        out->wall_capped += d.search.stop == OPFOR_MCTS_STOP_WALL;
        out->pool_bytes = (size_t)d.search.node_capacity * OPFOR_MCTS_NODE_BYTES;
    }
    out->decisions = n;
    out->memory_bytes = opfor_mcts_memory(m);
    opfor_mcts_free(m);
    qsort(lat, (size_t)n, sizeof *lat, cmp_d);
    out->median_ms = n % 2 ? lat[n / 2] : 0.5 * (lat[n / 2 - 1] + lat[n / 2]);
    int r95 = (95 * n + 99) / 100; /* nearest rank */
    out->p95_ms = lat[(r95 > 0 ? r95 : 1) - 1];
    out->max_ms = lat[n - 1];
    out->iters_per_s = busy > 0.0 ? (double)out->iterations / (busy / 1000.0) : 0.0;
    return 0;
}

int opfor_bench_mcts(int argc, char **argv) {
    int json = 0, only = -1, threads = 1;
    long decisions = DEFAULT_DECISIONS, v;
    uint64_t seed = 20261126;
    const char *rsname = NULL;
    char names[256];
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *val = NULL;
#define OPT(name)                                                                                  \
    ((strcmp(s, name) == 0 && (val = i + 1 < argc ? argv[++i] : "", 1)) ||                         \
     (strncmp(s, name "=", sizeof name) == 0 && (val = s + sizeof name, 1)))
        if (opfor_cli_is_help(s)) {
            help(stdout);
            return OPFOR_EXIT_OK;
        } else if (strcmp(s, "--json") == 0) {
            json = 1;
        } else if (OPT("--level")) {
            if (opfor_ai_level_find(val, &only) != 0)
                return opfor_cli_usage_error(
                    "bench mcts: --level must be one of %s; got '%s'",
                    opfor_vocab_list(opfor_ai_level_names, names, sizeof names), val);
        } else if (OPT("--decisions")) {
            if (opfor_cli_parse_long(val, &decisions) != 0 || decisions < 1 ||
                decisions > MAX_DECISIONS)
                return opfor_cli_usage_error("bench mcts: --decisions needs a whole number "
                                             "from 1 to %d, got '%s'",
                                             MAX_DECISIONS, val);
        } else if (OPT("--threads")) {
            if (opfor_cli_parse_long(val, &v) != 0 || v < 1 || v > OPFOR_MCTS_MAX_THREADS)
                return opfor_cli_usage_error("bench mcts: --threads needs a whole number from "
                                             "1 to %d, got '%s'",
                                             OPFOR_MCTS_MAX_THREADS, val);
            threads = (int)v;
        } else if (OPT("--seed")) {
            if (opfor_cli_parse_long(val, &v) != 0 || v < 0)
                return opfor_cli_usage_error("bench mcts: --seed needs a whole number of 0 or "
                                             "more, got '%s'",
                                             val);
            seed = (uint64_t)v;
        } else if (OPT("--ruleset")) {
            rsname = val;
        } else {
            return opfor_cli_usage_error("bench mcts: unknown option '%s'; allowed: --json, "
                                         "--ruleset NAME, --level L, --decisions N, "
                                         "--threads T, --seed S, --help",
                                         s);
        }
#undef OPT
    }

    const opfor_ruleset_t *rs = &toy_sk_ruleset;
    int toy = 1;
    if (rsname && strcmp(rsname, toy_sk_ruleset.name) != 0) {
        rs = opfor_ruleset_find(rsname);
        toy = 0;
        if (!rs) {
            allowed_rulesets(names, sizeof names);
            return opfor_cli_usage_error("bench mcts: --ruleset must be one of %s; got '%s'", names,
                                         rsname);
        }
    }
    void *ctx = NULL;
    opfor_diag_t diag;
    memset(&diag, 0, sizeof diag);
    if (!toy) {
        int rc = opfor_ruleset_ctx_new(rs, NULL, &ctx, &diag);
        if (rc != 0 && rc != OPFOR_ENOTSUP)
            return opfor_cli_fail("bench mcts: %s: no default scenario: %s", rs->name,
                                  diag.msg[0] ? diag.msg : opfor_strerror(rc));
    }
    opfor_game_t g;
    if (opfor_game_init(&g, rs, ctx, 0) != 0) {
        opfor_ruleset_ctx_free(rs, ctx);
        return opfor_cli_fail("bench mcts: %s: the ruleset is incomplete", rs->name);
    }

    int n = (int)decisions;
    unsigned char *states = malloc((size_t)n * rs->state_size);
    double *lat = malloc((size_t)n * sizeof *lat);
    if (!states || !lat) {
        free(states);
        free(lat);
        opfor_ruleset_ctx_free(rs, ctx);
        return opfor_cli_fail("bench mcts: out of memory");
    }
    n = collect_states(&g, states, n, seed);
    if (n < 1) {
        free(states);
        free(lat);
        opfor_ruleset_ctx_free(rs, ctx);
        return opfor_cli_fail("bench mcts: %s: random games gave no decision to search", rs->name);
    }

    struct utsname u;
    char machine[400], cpu[256];
    if (uname(&u) == 0)
        snprintf(machine, sizeof machine, "%s %s %s", u.sysname, u.release, u.machine);
    else
        snprintf(machine, sizeof machine, "unknown");
    cpu_name(cpu, sizeof cpu);
    const char *workload = toy ? "toy game (the Viktoria! adapter is not registered yet): "
                                 "2 x 4 units on a lane, 6 turns, buckets of hits"
                               : rs->title;

    level_run_t runs[OPFOR_AI_LEVEL_COUNT];
    int nruns = 0, rc = 0;
    for (int lv = 0; lv < OPFOR_AI_LEVEL_COUNT; lv++) {
        if (only >= 0 && lv != only)
            continue;
        rc = run_level(&g, states, n, lv, threads, seed, lat, &runs[nruns]);
        if (rc)
            break;
        nruns++;
    }
    free(states);
    free(lat);
    opfor_ruleset_ctx_free(rs, ctx);
    if (rc)
        return opfor_cli_fail("bench mcts: search failed: %s", opfor_strerror(rc));

    const level_run_t *target = NULL;
    for (int i = 0; i < nruns; i++)
        if (runs[i].level == TARGET_LEVEL)
            target = &runs[i];
    int met = target && target->p95_ms <= TARGET_P95_MS &&
              target->pool_bytes <= (size_t)(TARGET_POOL_MIB * 1048576.0);

    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "benchmark", "mcts");
        opfor_json_kv_str(&j, "ruleset", rs->name);
        opfor_json_kv_bool(&j, "toy", toy);
        opfor_json_kv_str(&j, "workload", workload);
        opfor_json_kv_str(&j, "machine", machine);
        opfor_json_kv_str(&j, "cpu", cpu);
        opfor_json_kv_int(&j, "threads", threads);
        opfor_json_kv_int(&j, "decisions", n);
        opfor_json_kv_int(&j, "seed", (int64_t)seed);
        opfor_json_key(&j, "levels");
        opfor_json_obj_begin(&j);
        for (int i = 0; i < nruns; i++) {
            const level_run_t *r = &runs[i];
            const opfor_ai_level_info_t *lv = opfor_ai_level_info(r->level);
            opfor_json_key(&j, lv->name);
            opfor_json_obj_begin(&j);
            opfor_json_kv_int(&j, "budget_iterations", lv->iterations);
            opfor_json_kv_int(&j, "wall_cap_ms", lv->wall_ms);
            opfor_json_kv_num(&j, "iterations_per_s", r->iters_per_s);
            opfor_json_kv_num(&j, "mean_iterations", (double)r->iterations / r->decisions);
            opfor_json_kv_num(&j, "median_ms", r->median_ms);
            opfor_json_kv_num(&j, "p95_ms", r->p95_ms);
            opfor_json_kv_num(&j, "max_ms", r->max_ms);
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
    printf("machine: %s\ncpu: %s\n", machine, cpu);
    printf("%d decisions from random games (seed %llu), %d thread%s, pool %.0f MiB\n\n", n,
           (unsigned long long)seed, threads, threads == 1 ? "" : "s",
           (double)POOL_BYTES / 1048576.0);
    printf("%-10s %9s %8s %11s %9s %9s %9s %9s %9s\n", "level", "budget", "wall ms", "iter/s",
           "median ms", "p95 ms", "max ms", "pool MiB", "used MiB");
    for (int i = 0; i < nruns; i++) {
        const level_run_t *r = &runs[i];
        const opfor_ai_level_info_t *lv = opfor_ai_level_info(r->level);
        printf("%-10s %9u %8u %11.0f %9.2f %9.2f %9.2f %9.1f %9.2f%s\n", lv->name, lv->iterations,
               lv->wall_ms, r->iters_per_s, r->median_ms, r->p95_ms, r->max_ms,
               (double)r->pool_bytes / 1048576.0,
               (double)r->peak_nodes * OPFOR_MCTS_NODE_BYTES / 1048576.0,
               r->wall_capped ? "  (wall cap hit)" : "");
    }
    if (target)
        printf("\ntarget at %s (p95 <= %.0f ms, pool <= %.0f MiB): %s\n",
               opfor_ai_level_info(TARGET_LEVEL)->name, TARGET_P95_MS, TARGET_POOL_MIB,
               met ? "met" : "NOT met");
    return OPFOR_EXIT_OK;
}
