/* tools/opfor/bench_util.h — what every `opfor bench` program shares: the CPU's name for the
 * report (with the machine's uname), sorting and medians of repeated runs, and the clocks the
 * figures are read from (thread CPU time, so a shared machine measures our work rather than its
 * neighbours').
 */
#ifndef OPFOR_TOOLS_BENCH_UTIL_H
#define OPFOR_TOOLS_BENCH_UTIL_H

#include <stddef.h>

/* Seven common calculator queries ("action field value ..."), the middle of the request mix
 * of both calc benchmarks: `opfor bench calc` (cmd_bench.c) and `opfor bench rpc`. */
#define OPFOR_BENCH_CALC_CORE_QUERIES                                                              \
    "fire_pistol actor elite target soldier range 3",                                              \
        "test_vs_mg actor soldier cover soft range 25",                                            \
        "test_vs_blast actor conscript cover none",                                                \
        "attack_lance actor soldier target soldier charging yes",                                  \
        "attack_bayonet actor veteran target soldier cover hard",                                  \
        "check_morale actor veteran general yes", "rally actor soldier musician yes colours yes"

/* Where a benchmark ran, for its report: uname's "sysname release machine" (or "unknown")
 * and the CPU model (opfor_bench_cpu_model). */
typedef struct opfor_bench_host {
    char machine[400];
    char cpu[256];
} opfor_bench_host_t;
void opfor_bench_host(opfor_bench_host_t *h);

/* The CPU model from /proc/cpuinfo ("model name", or "Hardware"/"Model" on ARM boards), or
 * "unknown". */
void opfor_bench_cpu_model(char *buf, size_t size);
/* qsort comparator for doubles, ascending. */
int opfor_bench_cmp_double(const void *a, const void *b);
/* The same for floats (latency samples). */
int opfor_bench_cmp_float(const void *a, const void *b);
/* Sorts v (n > 0 values) and returns its median (the upper one for even n). */
double opfor_bench_median(double *v, int n);
/* Milliseconds of the calling thread's CPU time, and of the monotonic clock. */
double opfor_bench_thread_cpu_ms(void);
double opfor_bench_wall_ms(void);

/* The --seconds S option of the `opfor bench` programs, for their option tables: a number
 * above 0 and at most 60 into *seconds (a double). */
#define OPFOR_BENCH_SECONDS_OPT(seconds, what)                                                     \
    {                                                                                              \
        .name = "--seconds", .type = OPFOR_CLI_NUMBER, .number = (seconds), .min = 0, .max = 60,   \
        .above = 1, .arg = "S", .help = (what)                                                     \
    }

#endif
