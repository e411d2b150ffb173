/* tools/opfor/bench_daemon.h — the private opford a benchmark starts when it is given no
 * --connect (`opfor bench rpc`, `opfor bench club`): the binary next to this one, in a fresh
 * temporary directory with its socket and state, gone with the benchmark (even when the
 * benchmark is killed), and its files removed after it.
 */
#ifndef OPFOR_TOOLS_BENCH_DAEMON_H
#define OPFOR_TOOLS_BENCH_DAEMON_H

#include <sys/types.h>

typedef struct opfor_bench_daemon {
    pid_t pid;      /* the daemon, or 0 */
    char dir[64];   /* its temporary directory, or "" */
    char addr[200]; /* "unix:DIR/opford.sock" */
    char log[128];  /* DIR/opford.log when its stderr is kept there, else "" */
} opfor_bench_daemon_t;

/* Starts the opford next to this binary in /tmp/opfor-TAG-XXXXXX: --socket and --state-dir
 * there, hello and idle timeouts off, then args (a NULL-terminated list of more options). Its
 * stderr goes to d->log when keep_log. child (may be NULL) runs in the child before the exec
 * (e.g. to pin it to a CPU). Under a cross build's emulator, OPFOR_EXEC_WRAPPER holds the
 * words to start it with. Waits until it accepts a connection (at most 10 s). Returns 0, or
 * prints why with `who` ("bench rpc") as opfor_cli_fail does and returns its code; call
 * opfor_bench_daemon_stop either way. */
int opfor_bench_daemon_start(opfor_bench_daemon_t *d, const char *who, const char *tag,
                             const char *const *args, int keep_log, void (*child)(void *),
                             void *child_arg);

/* Stops the daemon (SIGTERM, then SIGKILL after 5 s) and removes its directory. Safe to call
 * again, and on a daemon that never started. */
void opfor_bench_daemon_stop(opfor_bench_daemon_t *d);

/* The daemon's CPU for a pinned benchmark: the first one this process may use, when it may use
 * two or more; -1 when pinning is not possible (one CPU, or not Linux). */
int opfor_bench_daemon_cpu(void);
/* Pins the calling thread (and what it later execs) to CPU `only` (>= 0), or to every allowed
 * CPU but `except` (>= 0); a no-op where affinity is not available. */
void opfor_bench_pin(int only, int except);
/* CPU seconds (user + system) used so far by process pid, from /proc; -1 when unknown. */
double opfor_bench_proc_cpu_seconds(pid_t pid);

#endif
