/* tools/opfor/bench_daemon.c — a benchmark's private opford (see bench_daemon.h). */
#include "bench_daemon.h"

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
