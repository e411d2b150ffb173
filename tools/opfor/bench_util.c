/* tools/opfor/bench_util.c — helpers shared by the `opfor bench` programs (bench_util.h). */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

void opfor_bench_cpu_model(char *buf, size_t size) {
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Hardware", 8) == 0 ||
            strncmp(line, "Model", 5) == 0) {
            char *colon = strchr(line, ':');
            if (!colon)
                continue;
            colon++;
            while (*colon == ' ' || *colon == '\t')
                colon++;
            colon[strcspn(colon, "\n")] = 0;
            snprintf(buf, size, "%s", colon);
            break;
        }
    }
    fclose(f);
}

void opfor_bench_host(opfor_bench_host_t *h) {
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(h->machine, sizeof h->machine, "%s %s %s", u.sysname, u.release, u.machine);
    else
        snprintf(h->machine, sizeof h->machine, "unknown");
    opfor_bench_cpu_model(h->cpu, sizeof h->cpu);
}

int opfor_bench_cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int opfor_bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double opfor_bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof v[0], opfor_bench_cmp_double);
    return v[n / 2];
}

static double ms_of(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

double opfor_bench_thread_cpu_ms(void) {
    return ms_of(CLOCK_THREAD_CPUTIME_ID);
}

double opfor_bench_wall_ms(void) {
    return ms_of(CLOCK_MONOTONIC);
}
