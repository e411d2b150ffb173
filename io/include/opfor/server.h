/* io/include/opfor/server.h — opford's libuv server: listeners, clients, method dispatch.
 *
 * The server owns its listeners (a Unix socket, an optional TCP address, or the sockets systemd
 * passed in), the clients, and the signal handles; the caller owns the uv_loop_t. Each request
 * becomes an opfor_call_t handed to a method handler (the table is in io/methods_int.h). A
 * handler may answer at once or keep the call and answer later, e.g. when a search running on a
 * worker thread posts its result back with opfor_server_post(); calls outlive their clients, so
 * an answer for a client that left is simply dropped. Nothing here prints: log lines go to the
 * log hook. All functions run on the loop thread except opfor_server_post() and
 * opfor_call_cancelled().
 */
#ifndef OPFOR_SERVER_H
#define OPFOR_SERVER_H

#include <stdint.h>

#include <msgpack.h>
#include <uv.h>

#include "opfor/config.h"
#include "opfor/error.h"
#include "opfor/rpc.h"

#define OPFOR_API_LEVEL 5 /* raised whenever the protocol gains or changes a method */

typedef struct opfor_server opfor_server_t;
typedef struct opfor_call opfor_call_t;

/* Receives one finished log line (no newline) at a level it has already passed the filter. */
typedef void (*opfor_log_fn)(void *ud, int level, const char *line);
/* Builds the configuration a SIGHUP should apply (defaults, file, flags). Returns 0 or a
 * negative OPFOR_E* code with d filled; on failure the server keeps its old settings. */
typedef int (*opfor_reload_fn)(void *ud, opfor_config_t *out, opfor_diag_t *d);

typedef struct opfor_server_hooks {
    opfor_log_fn log;       /* NULL: log lines are dropped */
    void *log_ud;           /* passed to log */
    opfor_reload_fn reload; /* NULL: SIGHUP only logs that there is nothing to reload */
    void *reload_ud;        /* passed to reload */
} opfor_server_hooks_t;

/* The daemon's version string ("0.1.0"), the project version. */
const char *opfor_server_version(void);

/* Allocates a server for loop with a copy of cfg. hooks may be NULL. Returns 0, OPFOR_ENOMEM. */
int opfor_server_new(opfor_server_t **out, uv_loop_t *loop, const opfor_config_t *cfg,
                     const opfor_server_hooks_t *hooks);

/* Starts listening and installs SIGINT/SIGTERM (graceful stop), SIGHUP (reload) and ignores
 * SIGPIPE. With systemd socket activation (LISTEN_PID is ours, LISTEN_FDS >= 1) the passed
 * sockets are used instead of `socket` and `listen`. Otherwise the Unix socket's parent directory
 * is created 0700 and the socket 0600; a stale socket file (connect refused) is replaced, a live
 * one is an error. A non-loopback TCP address needs a token file. Also creates state_dir (0700)
 * and, before anything else happens in it, locks it for this server's lifetime (flock on
 * state_dir/opford.lock, which records this process's pid and start time; released by
 * opfor_server_free, or by the kernel when the process dies): a directory another process holds
 * is OPFOR_EBUSY, and opfor_server_state_dir_holder() then says who. Raises the process's soft
 * RLIMIT_NOFILE up to the hard limit when max_clients does not fit under it (logged; a hard
 * limit still too low is a warning). Returns 0, or a negative OPFOR_E* code with d->msg saying
 * what to fix. */
int opfor_server_start(opfor_server_t *s, opfor_diag_t *d);

/* The process holding a state directory (see opfor_server_start). */
typedef struct opfor_state_holder {
    long pid;         /* its pid; 0 when it had not written it yet */
    char name[64];    /* its name ("opford") from /proc, "" when unknown */
    char started[40]; /* when it took the directory, "2026-11-27 18:06:25 UTC"; "" unknown */
} opfor_state_holder_t;

/* After opfor_server_start returned OPFOR_EBUSY because another process holds the state
 * directory: fills *h and returns 1 (d->msg named it too); otherwise returns 0. */
int opfor_server_state_dir_holder(const opfor_server_t *s, opfor_state_holder_t *h);

/* Begins a graceful stop, as SIGTERM does: stops accepting, closes clients, removes the socket
 * file. uv_run() then returns once the closes complete. */
void opfor_server_stop(opfor_server_t *s);

/* Frees the server after uv_run() returned; closes what is left and runs the loop until the
 * close callbacks are done. Worker threads that post must be joined first. */
void opfor_server_free(opfor_server_t *s);

/* The TCP port actually bound (useful with port 0), or -1 when not listening on TCP. */
int opfor_server_tcp_port(const opfor_server_t *s);
/* The table page's HTTP port actually bound (`http` setting), or -1 when it is not served. */
int opfor_server_http_port(const opfor_server_t *s);
/* The table page's address with the port bound ("http://127.0.0.1:8080/") in buf; 0, or -1
 * when the page is not served. */
int opfor_server_http_url(const opfor_server_t *s, char *buf, size_t size);
/* The same with a token: which 1 = the game master's link (everything), 2 = the players' link
 * ("http://HOST:PORT/#t=TOKEN"; the token stays in the browser, never in a request line). For a
 * wildcard address the host is this machine's first network address. 0, or -1 when the page is
 * not served. */
int opfor_server_http_link(const opfor_server_t *s, int which, char *buf, size_t size);
/* The settings in force. */
const opfor_config_t *opfor_server_config(const opfor_server_t *s);
/* An application pointer for method handlers (game registry, thread pool, ...); NULL by default. */
void opfor_server_set_app(opfor_server_t *s, void *app);
void *opfor_server_app(const opfor_server_t *s);
/* Receives each game event the server publishes, on the loop thread, right after it went to the
 * subscribers: event is the packed params map of the `event` notification (docs/protocol.md,
 * Game events), state the packed `game.state` result after the change that produced it (NULL
 * and 0 when not available). From opfor_server_show_current, event is NULL (event_len 0) and
 * state the current game's. Both are valid only during the call. For in-process consumers
 * such as opford's e-ink display; keep it quick (hand work to another thread). */
typedef void (*opfor_event_fn)(void *ud, const char *event, size_t event_len, const char *state,
                               size_t state_len);
/* Sets the one event listener (fn NULL removes it). */
void opfor_server_on_event(opfor_server_t *s, opfor_event_fn fn, void *ud);
/* Hands the event listener, once, the packed `game.state` (the table's view) of the most
 * recently changed active game with event NULL and event_len 0: no new event, only where play
 * stands, for a listener that starts (or a daemon that restarts) while games are under way; the
 * game is loaded from the store when need be. Call after opfor_server_start, on the loop
 * thread. Returns 1 when a game was handed over, 0 when there is no listener or no active game,
 * or a negative OPFOR_E* code (the game could not be listed or loaded; logged). */
int opfor_server_show_current(opfor_server_t *s);
/* Formats a line and hands it to the log hook when level passes the configured filter. */
void opfor_server_log(opfor_server_t *s, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* --- Back to the loop from other threads --- */

/* A completion a worker thread hands back. Embed it in the job struct; fn runs on the loop
 * thread (recover the job with offsetof/container_of). */
typedef struct opfor_post {
    struct opfor_post *next;          /* internal queue link */
    void (*fn)(struct opfor_post *p); /* called once, on the loop thread */
} opfor_post_t;

/* Thread-safe: queues p and wakes the loop, which calls p->fn(p) soon after. Posts are run in
 * the order they were queued. Does not allocate. */
void opfor_server_post(opfor_server_t *s, opfor_post_t *p);

/* --- Calls: one per request or notification, answered exactly once --- */

/* A method handler. params is the request's params map or NULL, valid only during the call:
 * copy what is needed. Return 0 after answering (opfor_call_result_* or opfor_call_error), or 0
 * WITHOUT answering to keep the call and answer later (from a post callback); or return a
 * negative OPFOR_E* code without answering, and the dispatcher answers with the matching error. */
typedef int (*opfor_method_fn)(opfor_call_t *call, const msgpack_object *params);

/* The server the call arrived on. */
opfor_server_t *opfor_call_server(const opfor_call_t *call);
/* The request id (0 for notifications). */
uint32_t opfor_call_id(const opfor_call_t *call);
/* True when no answer will be sent (a notification). */
int opfor_call_is_notification(const opfor_call_t *call);
/* Thread-safe: true once the client has gone or the server is stopping; long work should poll
 * it and give up (answering with OPFOR_RPC_E_CANCELLED). */
int opfor_call_cancelled(const opfor_call_t *call);

/* Starts the success response and returns the packer: pack exactly ONE object (the result),
 * then call opfor_call_result_end(). */
msgpack_packer *opfor_call_result_begin(opfor_call_t *call);
/* Sends the response started by opfor_call_result_begin() and releases the call. */
void opfor_call_result_end(opfor_call_t *call);
/* Answers with [code, message] (code is OPFOR_RPC_E_*; message printf-style, NULL = the
 * code's default text) and releases the call. */
void opfor_call_error(opfor_call_t *call, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same with a hint (opfor/rpc.h) as the error's third element, for clients that word what
 * to do next themselves; hint NULL or without an id: as opfor_call_error. */
void opfor_call_error_hint(opfor_call_t *call, int code, const opfor_rpc_hint_t *hint,
                           const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
