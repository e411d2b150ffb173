/* tools/opfor/cmd_bench.c — `opfor bench [calc] [--json] [--seconds S]` and `opfor bench
 * engine|mcts|rpc|web|display|club [OPTIONS]`: benchmarks.
 *
 * The benchmarks with their own options and several figures each live in their own files
 * (bench_engine.c, bench_mcts.c, bench_rpc.c, bench_web.c, bench_club.c, bench_display.c; declared
 * in cli.h) and run alone. The first form, the calculator's speed, is read and checked here and run
 * by the first registered ruleset that brings a "bench calc" of its own (RULESET_COMMANDS): how
 * fast a calculator answers is a measure of that ruleset's own code.
 */
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "cli.h"

#define BENCH_RUNS 5

typedef struct bench_cmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *what;
} bench_cmd_t;

static const bench_cmd_t BENCH_CMDS[] = {
    {"engine", opfor_bench_engine, "rules engine: activations and games per second (--ruleset)"},
    {"mcts", opfor_bench_mcts, "MCTS: iterations per second and decision latency by level"},
    {"rpc", opfor_bench_rpc, "opford: calc requests per second and latency from N clients"},
    {"web", opfor_bench_web, "opford: the table page's WebSocket beside the Unix socket"},
    {"display", opfor_bench_display, "e-ink: render time and bytes per refresh, per panel"},
    {"club", opfor_bench_club, "opford: AI decision times solo, at a club's pace, in a burst"},
};
#define NBENCH_CMDS (sizeof BENCH_CMDS / sizeof BENCH_CMDS[0])

/* BENCH_NAME: one positional argument of `opfor bench`: calc, the only benchmark of the
 * first form. */
static int bench_name(void *ud, const char *s) {
    (void)ud;
    if (strcmp(s, "calc") == 0)
        return 0;
    for (size_t j = 0; j < NBENCH_CMDS; j++)
        if (strcmp(BENCH_CMDS[j].name, s) == 0)
            return opfor_cli_usage_error("bench: %s runs alone, with its own "
                                         "options: opfor bench %s --help",
                                         s, s);
    char names[256] = "calc";
    for (size_t j = 0; j < NBENCH_CMDS; j++)
        snprintf(names + strlen(names), sizeof names - strlen(names), ", %s", BENCH_CMDS[j].name);
    return opfor_cli_usage_error("bench: unknown benchmark '%s'; allowed: %s", s, names);
}

int opfor_cmd_bench(int argc, char **argv) {
    if (argc > 1)
        for (size_t k = 0; k < NBENCH_CMDS; k++)
            if (strcmp(argv[1], BENCH_CMDS[k].name) == 0)
                return BENCH_CMDS[k].fn(argc - 1, argv + 1);
    const opfor_cli_cmd_t *calc = opfor_cli_ruleset_command(NULL, "bench calc");
    int json = 0, usage_rc;
    double seconds = 1.0;
    char about[320], list[1024];
    snprintf(about, sizeof about,
             "The first form runs the calculator benchmark %d times for S seconds (default 1)\n"
             "and reports the median with the machine and CPU model. The others run alone,\n"
             "each with its own options.",
             BENCH_RUNS);
    int n = snprintf(list, sizeof list, "benchmarks:\n");
    if (calc && n > 0 && (size_t)n < sizeof list)
        n += snprintf(list + n, sizeof list - (size_t)n, "  %-8s %s\n", "calc", calc->summary);
    for (size_t i = 0; i < NBENCH_CMDS && n > 0 && (size_t)n < sizeof list; i++)
        n += snprintf(list + n, sizeof list - (size_t)n,
                      "  %-8s %s (own options: opfor bench %s --help)\n", BENCH_CMDS[i].name,
                      BENCH_CMDS[i].what, BENCH_CMDS[i].name);
    const opfor_cli_opt_t opts[] = {
        OPFOR_CLI_JSON_OPT(&json),
        OPFOR_BENCH_SECONDS_OPT(&seconds, "seconds per run (default 1)"),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "bench",
        .usage = "[calc] [--json] [--seconds S]\n"
                 "       opfor bench engine|mcts|rpc|web|display|club [OPTIONS]",
        .about = about,
        .epilog = list,
        .opts = opts,
        .positional = bench_name,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &usage_rc))
        return usage_rc;
    if (!calc)
        return opfor_cli_fail("bench: no ruleset in this build brings a calculator benchmark");
    return calc->fn(argc, argv);
}
