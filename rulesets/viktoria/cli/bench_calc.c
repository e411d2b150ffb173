/* rulesets/viktoria/cli/bench_calc.c — `opfor bench [calc] [--json] [--seconds S]`: the
 * Viktoria! calculator's speed, run by the generic `opfor bench` (tools/opfor/cmd_bench.c,
 * which has read and checked the command line) as this ruleset's own "bench calc"
 * (registered in ruleset.cmake).
 *
 * One table row per benchmark; each row's function runs its workload for a given time and
 * reports operations per second. Every benchmark runs 5 times and reports the median, with
 * the machine (uname) and CPU model (/proc/cpuinfo), so docs/BENCHMARKS.md can record the
 * exact figure and where it came from.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "cli.h"
#include "json_out.h"
#include "opfor/viktoria/calc.h"

#define BENCH_RUNS 5

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ calc */

/* The fixed mix: one request per common kind of query, in the proportions a game asks them
 * (fire and tests most often). Each string is "action field value field value ...". */
static const char *const CALC_MIX[] = {
    "fire_rifle actor veteran target soldier cover soft range 20",
    "fire_rifle actor soldier target conscript range 30 moving yes",
    "fire_carbine actor soldier target veteran cover hard range 10 actor-mounted yes",
    OPFOR_BENCH_CALC_CORE_QUERIES,
    "test_out_of_command actor soldier range 26",
    "advance actor soldier terrain rough obstacles 1",
    "call_support_fire registered 2",
    "throw_bomb actor soldier range 4",
    "weather_event level 3 wind N",
    "hypnotic_attack actor elite target soldier range 5",
};
#define CALC_MIX_N (sizeof CALC_MIX / sizeof CALC_MIX[0])

typedef struct calc_ctx {
    opfor_viktoria_model_t model;
    opfor_viktoria_req_t reqs[CALC_MIX_N];
} calc_ctx_t;

/* Parses the mix into requests; 0 or -1 with a message on stderr. */
static int calc_prepare(calc_ctx_t *c) {
    opfor_diag_t d;
    if (opfor_viktoria_model_default(&c->model, &d) != 0) {
        fprintf(stderr, "opfor: bench calc: model: %s\n", d.msg);
        return -1;
    }
    for (size_t i = 0; i < CALC_MIX_N; i++) {
        char buf[256], *save = NULL;
        snprintf(buf, sizeof buf, "%s", CALC_MIX[i]);
        char *word = strtok_r(buf, " ", &save);
        int id = opfor_viktoria_action_find(word);
        if (id < 0 || opfor_viktoria_req_init(&c->reqs[i], id) != 0) {
            fprintf(stderr, "opfor: bench calc: bad mix entry '%s'\n", CALC_MIX[i]);
            return -1;
        }
        char *field, *value;
        while ((field = strtok_r(NULL, " ", &save)) && (value = strtok_r(NULL, " ", &save)))
            if (opfor_viktoria_req_set(&c->reqs[i], field, value, &d) != 0) {
                fprintf(stderr, "opfor: bench calc: %s\n", d.msg);
                return -1;
            }
    }
    return 0;
}

/* Answers the mix round and round for `seconds`; returns queries per second. */
static double calc_run(void *ctx, double seconds) {
    calc_ctx_t *c = ctx;
    opfor_viktoria_result_t res;
    opfor_diag_t d;
    volatile double sink = 0.0; /* keeps the answers alive */
    long n = 0;
    double t0 = now_seconds(), t = t0;
    while (t - t0 < seconds) {
        for (int k = 0; k < 64; k++)
            for (size_t i = 0; i < CALC_MIX_N; i++) {
                if (opfor_viktoria_calc(&c->model, &c->reqs[i], &res, &d) == 0 && res.nrolls)
                    sink += res.rolls[0].roll.p_exact;
                n++;
            }
        t = now_seconds();
    }
    (void)sink;
    return (double)n / (t - t0);
}

/* ------------------------------------------------------------------ the table */

typedef struct bench {
    const char *name;                      /* `opfor bench NAME` */
    const char *what;                      /* one line */
    const char *unit;                      /* what run() counts per second */
    size_t ctx_size;                       /* bytes of context to allocate */
    int (*prepare)(void *ctx);             /* once, before the runs; 0 or -1 */
    double (*run)(void *ctx, double secs); /* one timed run: units per second */
} bench_t;

static int calc_prepare_v(void *ctx) {
    return calc_prepare(ctx);
}

static const bench_t BENCHES[] = {
    {"calc", "Viktoria! calculator: answers per second over a fixed mix of 16 queries", "queries/s",
     sizeof(calc_ctx_t), calc_prepare_v, calc_run},
};
#define NBENCH (sizeof BENCHES / sizeof BENCHES[0])

/* ------------------------------------------------------------------ machine */

/* BENCH_NAME: one positional argument, a benchmark of BENCHES to run (the generic command
 * has checked the names already). */
typedef struct chosen {
    int on[NBENCH]; /* run BENCHES[k] */
    int any;        /* some were named: run only those */
} chosen_t;

static int bench_name(void *ud, const char *s) {
    chosen_t *ch = ud;
    size_t k = 0;
    while (k < NBENCH && strcmp(BENCHES[k].name, s) != 0)
        k++;
    if (k == NBENCH)
        return opfor_cli_usage_error("bench: unknown benchmark '%s'", s);
    ch->on[k] = 1;
    ch->any = 1;
    return 0;
}

int opfor_vk_bench_calc(int argc, char **argv);

int opfor_vk_bench_calc(int argc, char **argv) {
    int json = 0, usage_rc;
    double seconds = 1.0;
    chosen_t ch = {{0}, 0};
    const opfor_cli_opt_t opts[] = {
        OPFOR_CLI_JSON_OPT(&json),
        OPFOR_BENCH_SECONDS_OPT(&seconds, "seconds per run (default 1)"),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "bench",
        .args = "[calc]",
        .opts = opts,
        .positional = bench_name,
        .ud = &ch,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &usage_rc))
        return usage_rc;
    const int *chosen = ch.on;
    int any = ch.any;

    opfor_bench_host_t host;
    opfor_bench_host(&host);

    opfor_json_t j;
    if (json) {
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "machine", host.machine);
        opfor_json_kv_str(&j, "cpu", host.cpu);
        opfor_json_kv_num(&j, "seconds_per_run", seconds);
        opfor_json_kv_int(&j, "runs", BENCH_RUNS);
        opfor_json_key(&j, "benchmarks");
        opfor_json_arr_begin(&j);
    } else {
        printf("machine: %s\ncpu: %s\n", host.machine, host.cpu);
    }
    int rc = OPFOR_EXIT_OK;
    for (size_t k = 0; k < NBENCH; k++) {
        if (any && !chosen[k])
            continue;
        const bench_t *b = &BENCHES[k];
        void *ctx = calloc(1, b->ctx_size);
        if (!ctx || b->prepare(ctx) != 0) {
            free(ctx);
            rc = OPFOR_EXIT_FAIL;
            continue;
        }
        double runs[BENCH_RUNS], sorted[BENCH_RUNS];
        for (int r = 0; r < BENCH_RUNS; r++)
            runs[r] = sorted[r] = b->run(ctx, seconds);
        free(ctx);
        qsort(sorted, BENCH_RUNS, sizeof sorted[0], opfor_bench_cmp_double);
        double median = sorted[BENCH_RUNS / 2];
        if (json) {
            opfor_json_obj_begin(&j);
            opfor_json_kv_str(&j, "name", b->name);
            opfor_json_kv_str(&j, "what", b->what);
            opfor_json_kv_str(&j, "unit", b->unit);
            opfor_json_kv_num(&j, "median", median);
            opfor_json_kv_num(&j, "min", sorted[0]);
            opfor_json_kv_num(&j, "max", sorted[BENCH_RUNS - 1]);
            opfor_json_key(&j, "per_run");
            opfor_json_arr_begin(&j);
            for (int r = 0; r < BENCH_RUNS; r++)
                opfor_json_num(&j, runs[r]);
            opfor_json_arr_end(&j);
            opfor_json_obj_end(&j);
        } else {
            printf("%s: %.0f %s (median of %d runs of %g s; min %.0f, max %.0f)\n  %s\n", b->name,
                   median, b->unit, BENCH_RUNS, seconds, sorted[0], sorted[BENCH_RUNS - 1],
                   b->what);
        }
    }
    if (json) {
        opfor_json_arr_end(&j);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    }
    return rc;
}
