/* tools/opfor/bench_daemon.c — a benchmark's private opford, and the CPU pinning and CPU
 * accounting the daemon benchmarks share (see bench_daemon.h). */
#define _GNU_SOURCE /* sched_setaffinity and the CPU_* macros (Linux only) */
#include "bench_daemon.h"

#include <sched.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uv.h>

#include "cli.h"
#include "opfor/client.h"

/* In the child: exec's the daemon with its arguments (through the emulator when set). */
static void exec_daemon(const char *exe, const char *const *fixed, size_t nfixed,
                        const char *const *args) {
    char *argv[64];
    int na = 0;
    char wrap[512];
    const char *w = getenv("OPFOR_EXEC_WRAPPER"); /* a cross build's emulator */
    snprintf(wrap, sizeof wrap, "%s", w ? w : "");
    for (char *save = NULL, *tok = strtok_r(wrap, " ", &save); tok && na < 8;
         tok = strtok_r(NULL, " ", &save))
        argv[na++] = tok;
    int wrapped = na > 0;
    argv[na++] = (char *)exe;
    for (size_t k = 0; k < nfixed; k++)
        argv[na++] = (char *)fixed[k];
    for (size_t k = 0; args && args[k] && na < 63; k++)
        argv[na++] = (char *)args[k];
    argv[na] = NULL;
    if (wrapped)
        execvp(argv[0], argv);
    else
        execv(exe, argv);
    _exit(127);
}

int opfor_bench_daemon_start(opfor_bench_daemon_t *d, const char *who, const char *tag,
                             const char *const *args, int keep_log, void (*child)(void *),
                             void *child_arg) {
    memset(d, 0, sizeof *d);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 16);
    if (n <= 0)
        return opfor_cli_fail("%s: cannot find my own binary (/proc/self/exe)", who);
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    snprintf(slash + 1, sizeof exe - (size_t)(slash + 1 - exe), "opford");
    if (access(exe, X_OK) != 0)
        return opfor_cli_fail("%s: %s not found; build it, or give --connect to use a running "
                              "daemon",
                              who, exe);
    snprintf(d->dir, sizeof d->dir, "/tmp/opfor-%s-XXXXXX", tag);
    if (!mkdtemp(d->dir)) {
        d->dir[0] = '\0';
        return opfor_cli_fail("%s: cannot create a temporary directory: %s", who, strerror(errno));
    }
    char sock[128], state[128];
    snprintf(sock, sizeof sock, "%s/opford.sock", d->dir);
    snprintf(state, sizeof state, "%s/state", d->dir);
    snprintf(d->addr, sizeof d->addr, "unix:%s", sock);
    if (keep_log)
        snprintf(d->log, sizeof d->log, "%s/opford.log", d->dir);
    const char *const fixed[] = {"--socket",        sock, "--state-dir",    state,
                                 "--hello-timeout", "0",  "--idle-timeout", "0"};
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return opfor_cli_fail("%s: fork: %s", who, strerror(errno));
    if (pid == 0) {
#ifdef __linux__
        /* The daemon goes when this process goes, even when killed (SIGTERM, SIGKILL). */
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
            _exit(127);
#else
        (void)parent;
#endif
        if (keep_log && !freopen(d->log, "w", stderr))
            _exit(127);
        if (child)
            child(child_arg);
        exec_daemon(exe, fixed, sizeof fixed / sizeof fixed[0], args);
    }
    d->pid = pid;
    for (int i = 0; i < 1000; i++) { /* ready when a client can connect: at most 10 s */
        opfor_client_t *c;
        if (opfor_client_connect(&c, d->addr, 1000, NULL) == 0) {
            opfor_client_close(c);
            return 0;
        }
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) {
            d->pid = 0;
            return d->log[0] ? opfor_cli_fail("%s: opford exited at start (status %d; log %s)", who,
                                              st, d->log)
                             : opfor_cli_fail("%s: opford exited at start (status %d)", who, st);
        }
        uv_sleep(10);
    }
    return opfor_cli_fail("%s: opford did not start listening within 10 s", who);
}

void opfor_bench_daemon_stop(opfor_bench_daemon_t *d) {
    if (d->pid > 0) {
        kill(d->pid, SIGTERM);
        int st;
        for (int i = 0; i < 500 && waitpid(d->pid, &st, WNOHANG) == 0; i++)
            uv_sleep(10);
        if (waitpid(d->pid, &st, WNOHANG) == 0) {
            kill(d->pid, SIGKILL);
            waitpid(d->pid, &st, 0);
        }
        d->pid = 0;
    }
    if (d->dir[0]) {
        static const char *const files[] = {"state/opfor.db-wal", "state/opfor.db-shm",
                                            "state/opfor.db",     "state/opford.lock",
                                            "opford.sock",        "opford.log"};
        char p[160];
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
            snprintf(p, sizeof p, "%s/%s", d->dir, files[i]);
            unlink(p);
        }
        snprintf(p, sizeof p, "%s/state", d->dir);
        rmdir(p);
        rmdir(d->dir);
        d->dir[0] = '\0';
    }
}

int opfor_bench_daemon_cpu(void) {
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < 2)
        return -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &set))
            return cpu;
#endif
    return -1;
}

void opfor_bench_pin(int only, int except) {
#ifdef __linux__
    cpu_set_t set;
    if (only >= 0) {
        CPU_ZERO(&set);
        CPU_SET(only, &set);
    } else if (sched_getaffinity(0, sizeof set, &set) != 0) {
        return;
    }
    if (except >= 0)
        CPU_CLR(except, &set);
    sched_setaffinity(0, sizeof set, &set);
#else
    (void)only;
    (void)except;
#endif
}

double opfor_bench_proc_cpu_seconds(pid_t pid) {
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    char *p = strrchr(line, ')');
    unsigned long ut = 0, st = 0;
    /* after the command: state(3) ... utime(14) stime(15) */
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}
