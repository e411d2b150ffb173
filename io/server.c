/* io/server.c — opford's libuv server: listeners, clients, framing, dispatch, signals.
 *
 * Bytes from a client accumulate in its input buffer; opfor_frame_scan() decides where each
 * frame ends before msgpack-c is involved, so the buffer never grows past one maximum frame
 * plus one read. Every handle is embedded in the struct that owns it and that struct is freed
 * only when its last handle's close callback runs; write buffers live until their write
 * callback. Answers go through opfor_call_t, which a closing client detaches from, so late
 * answers from worker threads are dropped safely.
 */
#include "server_int.h"

#include "diag_int.h"
#include "games_int.h"
#include "methods_calc_int.h"
#include "methods_int.h"
#include "web_int.h"
#include "opfor/notify.h"
#include "opfor/ruleset.h"
#include "opfor/ruleset_calc.h"
#include "opfor/store.h"
#include "opfor/workers.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifndef OPFOR_VERSION_STRING
#define OPFOR_VERSION_STRING "0.1.0"
#endif

#ifndef S_ISVTX
#define S_ISVTX 01000 /* sticky bit: an XSI name that plain POSIX 2008 headers hide */
#endif

#define MAX_LISTENERS 8
#define READ_CHUNK (64 * 1024)
#define DRAIN_TIMEOUT_MS 5000
#define LISTEN_BACKLOG 128 /* at least; max-clients when larger (the kernel caps it) */
#define REFUSED_MAX 32     /* refused connections still saying why; more are closed at once */
#define FD_RESERVE 64      /* open files besides the clients: listeners, store, lock, loop... */
#define LOCK_FILE "opford.lock" /* in the state directory: one daemon per directory */
#define BATCH_MAX (64 * 1024)   /* answers gathered for one client before a write */

typedef struct opfor_listener {
    union {
        uv_handle_t handle;
        uv_stream_t stream;
        uv_pipe_t pipe;
        uv_tcp_t tcp;
    } h;                 /* the listening socket */
    opfor_server_t *srv; /* owner */
    int is_tcp;          /* 1 for TCP */
    int active;          /* 1 between init and uv_close */
    char name[160];      /* "unix:/run/opfor/opford.sock", "tcp://127.0.0.1:7373" */
} opfor_listener_t;

struct opfor_server {
    uv_loop_t *loop;                           /* the caller's loop */
    opfor_config_t cfg;                        /* settings in force */
    opfor_server_hooks_t hooks;                /* log and reload callbacks */
    opfor_frame_limits_t limits;               /* frame size and nesting limits */
    opfor_listener_t listeners[MAX_LISTENERS]; /* listening sockets */
    int nlisteners;                            /* used entries of listeners */
    uv_signal_t sigs[3];                       /* SIGINT, SIGTERM, SIGHUP */
    int sigs_on;                               /* 1 while the signal handles are open */
    uv_async_t async;                          /* wakes the loop for posts */
    int async_on;                              /* 1 while async is open */
    uv_mutex_t post_lock;                      /* guards posts */
    opfor_post_t *posts;                       /* queued completions, newest first */
    opfor_peer_t *clients;                     /* connected clients */
    unsigned nclients;                         /* clients in the list, minus the refused */
    unsigned nrefused;                         /* refused ones still being told why */
    int lock_fd;                               /* <state-dir>/opford.lock, flocked; or -1 */
    int state_dir_held;                        /* 1: start failed, another process has it */
    opfor_state_holder_t holder;               /* that process, when state_dir_held */
    uint64_t next_serial;                      /* next connection number */
    char token[256];                           /* TCP token, "" when none */
    char sock_path[108];                       /* the Unix socket file we created */
    int owns_socket;                           /* 1 while sock_path is ours to remove */
    dev_t sock_dev;                            /* its device, to remove only our file */
    ino_t sock_ino;                            /* and its inode */
    int tcp_port;                              /* bound TCP port or -1 */
    int stopping;                              /* 1 after the first stop request */
    unsigned pending_closes;                   /* handles closed but not yet called back */
    void *app;                                 /* for method handlers */
    opfor_call_t *call_cache;                  /* freed calls for reuse (loop thread only) */
    unsigned ncached;                          /* length of call_cache */
    void *model;                               /* the default calculator's model in force */
    opfor_workers_t *workers;                  /* threads for long jobs; NULL before start */
    opfor_store_t *store;                      /* saved games, <state-dir>/opfor.db */
    struct opfor__games *games;                /* games in memory, subscriptions */
    uv_timer_t games_timer;                    /* when games leave memory (opfor__games_sweep) */
    int games_timer_on;                        /* 1 while games_timer is open */
    opfor_web_t *web;                          /* the table page (http), or NULL */
    opfor_web_tokens_t web_tokens;             /* its two tokens (when web is set) */
    int web_tokens_required;                   /* 1: http on an address beyond loopback */
    opfor_event_fn on_event;                   /* listener for every published event */
    void *on_event_ud;                         /* its argument */
};

static void client_close(opfor_peer_t *c);
static void on_connection(uv_stream_t *server, int status);

/* ------------------------------------------------------------------ misc */

const char *opfor_server_version(void) {
    return OPFOR_VERSION_STRING;
}

void opfor_server_log(opfor_server_t *s, int level, const char *fmt, ...) {
    if (!s->hooks.log || level > s->cfg.log_level)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    s->hooks.log(s->hooks.log_ud, level, line);
}

#define LOG(s, lvl, ...) opfor_server_log((s), OPFOR_LOG_##lvl, __VA_ARGS__)

int opfor_server_tcp_port(const opfor_server_t *s) {
    return s->tcp_port;
}

int opfor_server_http_port(const opfor_server_t *s) {
    return s->web ? opfor__web_port(s->web) : -1;
}

const opfor_config_t *opfor_server_config(const opfor_server_t *s) {
    return &s->cfg;
}

const opfor_config_t *opfor__server_cfg(const opfor_server_t *s) {
    return &s->cfg;
}

void opfor_server_set_app(opfor_server_t *s, void *app) {
    s->app = app;
}

void *opfor_server_app(const opfor_server_t *s) {
    return s->app;
}

void opfor_server_on_event(opfor_server_t *s, opfor_event_fn fn, void *ud) {
    s->on_event = fn;
    s->on_event_ud = ud;
}

int opfor_server_show_current(opfor_server_t *s) {
    if (!s || !s->games || !s->on_event)
        return 0;
    return opfor__games_show_current(s->games);
}

int opfor__server_has_event_listener(const opfor_server_t *s) {
    return s->on_event != NULL;
}

void opfor__server_event(opfor_server_t *s, const char *event, size_t event_len, const char *state,
                         size_t state_len) {
    if (s->on_event)
        s->on_event(s->on_event_ud, event, event_len, state, state_len);
}

const void *opfor__server_model(const opfor_server_t *s) {
    return s->model;
}

opfor_workers_t *opfor__server_workers(const opfor_server_t *s) {
    return s->workers;
}

opfor_store_t *opfor__server_store(const opfor_server_t *s) {
    return s->store;
}

struct opfor__games *opfor__server_games(const opfor_server_t *s) {
    return s->games;
}

/* The games' clock: io/methods_game.c says which games leave memory and when to look again. */
static void on_games_timer(uv_timer_t *t) {
    opfor_server_t *s = t->data;
    uint64_t next = opfor__games_sweep(s->games, uv_now(s->loop));
    if (next && !s->stopping)
        uv_timer_start(&s->games_timer, on_games_timer, next, 0);
}

void opfor__server_games_wake(opfor_server_t *s, uint64_t ms) {
    if (!s->games_timer_on || s->stopping)
        return;
    if (uv_is_active((uv_handle_t *)&s->games_timer) && uv_timer_get_due_in(&s->games_timer) <= ms)
        return;
    uv_timer_start(&s->games_timer, on_games_timer, ms, 0);
}

uint64_t opfor__server_now(opfor_server_t *s) {
    uv_update_time(s->loop); /* not the iteration's start: loading a game takes a while */
    return uv_now(s->loop);
}

/* Loads the default calculator's model named by cfg (the built-in one when none) into *m
 * (NULL, and 0, when no ruleset has a calculator). Release with free_model. */
static int load_model(const opfor_config_t *cfg, void **m, opfor_diag_t *d) {
    const opfor_ruleset_t *rs = opfor__calc_default();
    *m = NULL;
    if (!rs || !rs->calc->model_load)
        return 0;
    opfor_diag_t md;
    opfor_diag_clear(&md);
    int rc = rs->calc->model_load(cfg->model[0] ? cfg->model : NULL, m, &md);
    if (rc < 0 && d) {
        *d = md; /* keeps file:line:col of the model file */
        snprintf(d->msg, sizeof d->msg, "calculator model: %.*s", (int)sizeof d->msg - 20, md.msg);
    }
    return rc;
}

static void free_model(void *m) {
    const opfor_ruleset_t *rs = opfor__calc_default();
    if (m && rs && rs->calc->model_free)
        rs->calc->model_free(m);
}

int opfor__server_web_role(const opfor_server_t *s, const char *token) {
    return s->web ? opfor__web_token_role(&s->web_tokens, token) : 0;
}

int opfor__server_token_ok(const opfor_server_t *s, const char *token) {
    size_t a = strlen(s->token), b = strlen(token);
    unsigned diff = (unsigned)(a ^ b);
    for (size_t i = 0; i < a; i++)
        diff |=
            (unsigned)(unsigned char)s->token[i] ^ (unsigned)(unsigned char)(i < b ? token[i] : 0);
    return a > 0 && diff == 0;
}

/* ------------------------------------------------------------------ writing */

typedef struct wreq {
    uv_write_t req; /* libuv's request; req.data is the client */
    size_t len;     /* bytes in data */
    char data[];    /* the bytes still to write, owned until the callback */
} wreq_t;

static void on_write(uv_write_t *req, int status) {
    opfor_peer_t *c = req->data;
    free(req);
    if (status < 0 && status != UV_ECANCELED && !c->closing) {
        LOG(c->srv, DEBUG, "%s: write failed: %s", c->peer, uv_strerror(status));
        client_close(c);
    }
}

/* A WebSocket session: each MessagePack message of data (answers gathered while input was
 * processed, events) goes out as one binary message, within the same write-queue bound. */
static void web_write(opfor_peer_t *c, const char *data, size_t len) {
    const opfor_frame_limits_t whole = {
        UINT32_MAX, OPFOR_FRAME_MAX_DEPTH_HARD}; /* our own output: split, not judged */
    size_t off = 0;
    while (off < len) {
        opfor_frame_result_t r;
        if (opfor_frame_scan((const uint8_t *)data + off, len - off, &whole, &r) !=
            OPFOR_FRAME_COMPLETE) {
            LOG(c->srv, ERROR, "%s: cannot split an answer into messages: %s", c->peer,
                r.reason ? r.reason : "cut short");
            client_close(c);
            return;
        }
        size_t queued = opfor__web_queued(c->web);
        if (queued + r.len > c->srv->cfg.write_queue_max) {
            LOG(c->srv, WARN, "%s: %zu bytes wait to be read (limit %u); disconnecting", c->peer,
                queued + r.len, c->srv->cfg.write_queue_max);
            client_close(c);
            return;
        }
        opfor__web_send(c->web, data + off, r.len);
        off += r.len;
    }
}

/* Writes len bytes now: uv_try_write() first (the usual case: the socket takes it all and
 * nothing is allocated), and only what it left over is copied into a queued uv_write. libuv
 * refuses try_write while earlier writes are queued, so the order is kept. */
static void write_now(opfor_peer_t *c, const char *data, size_t len) {
    if (!len || c->closing)
        return;
    if (c->is_web) {
        if (c->web)
            web_write(c, data, len);
        return;
    }
    size_t queued = uv_stream_get_write_queue_size(&c->h.stream);
    if (queued + len > c->srv->cfg.write_queue_max) {
        LOG(c->srv, WARN, "%s: %zu bytes wait to be read (limit %u); disconnecting", c->peer,
            queued + len, c->srv->cfg.write_queue_max);
        client_close(c);
        return;
    }
    uv_buf_t b = uv_buf_init((char *)data, (unsigned)len);
    int n = uv_try_write(&c->h.stream, &b, 1);
    if (n == (int)len)
        return;
    if (n < 0 && n != UV_EAGAIN && n != UV_ENOSYS) {
        LOG(c->srv, DEBUG, "%s: write failed: %s", c->peer, uv_strerror(n));
        client_close(c);
        return;
    }
    size_t off = n > 0 ? (size_t)n : 0;
    wreq_t *w = malloc(sizeof *w + (len - off));
    if (!w) {
        client_close(c);
        return;
    }
    w->len = len - off;
    memcpy(w->data, data + off, w->len);
    w->req.data = c;
    b = uv_buf_init(w->data, (unsigned)w->len);
    int rc = uv_write(&w->req, &c->h.stream, &b, 1, on_write);
    if (rc < 0) {
        free(w);
        LOG(c->srv, DEBUG, "%s: write failed: %s", c->peer, uv_strerror(rc));
        client_close(c);
    }
}

/* Sends the packed bytes of sb (which stays the caller's) unless the client stopped reading.
 * While the client's input is being processed the bytes are gathered in its output buffer and
 * go out in one write at the end (flush_output), so pipelined requests cost one syscall. */
static void client_send(opfor_peer_t *c, msgpack_sbuffer *sb) {
    if (!sb->size || c->closing)
        return;
    if (c->batching && c->out_len + sb->size > BATCH_MAX && c->out_len) {
        size_t n = c->out_len; /* a long burst goes out in pieces, each checked by write_now */
        c->out_len = 0;
        write_now(c, c->out, n);
        if (c->closing)
            return;
    }
    if (c->batching && sb->size <= BATCH_MAX) {
        if (c->out_len + sb->size > c->out_cap) {
            size_t cap = c->out_cap ? c->out_cap : 16384;
            while (cap < c->out_len + sb->size)
                cap *= 2;
            char *p = realloc(c->out, cap);
            if (!p) {
                client_close(c);
                return;
            }
            c->out = p;
            c->out_cap = cap;
        }
        memcpy(c->out + c->out_len, sb->data, sb->size);
        c->out_len += sb->size;
        return;
    }
    write_now(c, sb->data, sb->size);
}

/* Writes what client_send gathered during input processing. */
static void flush_output(opfor_peer_t *c) {
    c->batching = 0;
    if (c->out_len) {
        size_t n = c->out_len;
        c->out_len = 0;
        write_now(c, c->out, n);
    }
    if (c->out_cap > 4 * BATCH_MAX) { /* give back an unusually big buffer */
        free(c->out);
        c->out = NULL;
        c->out_cap = 0;
    }
}

void opfor__peer_send(opfor_peer_t *c, const char *data, size_t len) {
    msgpack_sbuffer sb = {len, (char *)data, len}; /* a view: client_send copies or writes */
    client_send(c, &sb);
}

opfor_peer_t *opfor__server_peer(opfor_server_t *s, uint64_t serial) {
    for (opfor_peer_t *c = s->clients; c; c = c->next)
        if (c->serial == serial)
            return c->closing || c->draining ? NULL : c;
    return NULL;
}

static void send_error_hint(opfor_peer_t *c, uint32_t id, int code, const opfor_rpc_hint_t *hint,
                            const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define send_error(c, id, code, ...) send_error_hint(c, id, code, NULL, __VA_ARGS__)

static void send_error_hint(opfor_peer_t *c, uint32_t id, int code, const opfor_rpc_hint_t *hint,
                            const char *fmt, ...) {
    char m[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    opfor_rpc_pack_error_hint(&pk, id, code, m, hint);
    LOG(c->srv, DEBUG, "%s: error response to #%u: %d %s", c->peer, id, code, m);
    client_send(c, &sb);
    msgpack_sbuffer_destroy(&sb);
}

/* Sends the notification [2, "error", [{code, message}]] and ends the session. */
static void protocol_error(opfor_peer_t *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void protocol_error(opfor_peer_t *c, int code, const char *fmt, ...) {
    char m[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    LOG(c->srv, WARN, "%s: %s; closing", c->peer, m);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    opfor_rpc_pack_notify_begin(&pk, "error");
    msgpack_pack_map(&pk, 2);
    opfor_rpc_pack_cstr(&pk, "code");
    msgpack_pack_int(&pk, code);
    opfor_rpc_pack_cstr(&pk, "message");
    opfor_rpc_pack_cstr(&pk, m);
    client_send(c, &sb);
    msgpack_sbuffer_destroy(&sb);
    opfor__peer_drain(c, m);
}

/* ------------------------------------------------------------------ calls */

#define CALL_CACHE_MAX 256         /* freed calls kept for reuse, with their buffers */
#define CALL_BUF_KEEP (64u * 1024) /* larger response buffers are not kept */

static void call_free(opfor_call_t *call) {
    opfor_peer_t *c = call->client;
    if (c) {
        if (call->prev)
            call->prev->next = call->next;
        else
            c->calls = call->next;
        if (call->next)
            call->next->prev = call->prev;
        c->inflight--;
    }
    opfor_server_t *s = call->srv;
    if (s->ncached < CALL_CACHE_MAX && call->buf.alloc <= CALL_BUF_KEEP) {
        call->next = s->call_cache;
        s->call_cache = call;
        s->ncached++;
        return;
    }
    msgpack_sbuffer_destroy(&call->buf);
    free(call);
}

/* A zeroed call, from the cache when possible (its response buffer is kept, emptied). */
static opfor_call_t *call_alloc(opfor_server_t *s) {
    opfor_call_t *call = s->call_cache;
    if (call) {
        s->call_cache = call->next;
        s->ncached--;
        msgpack_sbuffer keep = call->buf;
        memset(call, 0, sizeof *call);
        call->buf = keep;
        msgpack_sbuffer_clear(&call->buf);
        return call;
    }
    call = calloc(1, sizeof *call);
    if (call)
        msgpack_sbuffer_init(&call->buf);
    return call;
}

/* Sends (or drops) the packed answer; frees the call unless the dispatcher will. */
static void call_finish(opfor_call_t *call) {
    call->answered = 1;
    call->packing = 0;
    opfor_peer_t *c = call->client;
    if (c && !call->notification && !c->closing)
        client_send(c, &call->buf);
    if (!call->in_handler)
        call_free(call);
}

opfor_server_t *opfor_call_server(const opfor_call_t *call) {
    return call->srv;
}

uint32_t opfor_call_id(const opfor_call_t *call) {
    return call->id;
}

int opfor_call_is_notification(const opfor_call_t *call) {
    return call->notification;
}

int opfor_call_cancelled(const opfor_call_t *call) {
    return atomic_load(&call->cancelled);
}

msgpack_packer *opfor_call_result_begin(opfor_call_t *call) {
    msgpack_sbuffer_clear(&call->buf);
    msgpack_packer_init(&call->pk, &call->buf, msgpack_sbuffer_write);
    opfor_rpc_pack_response_begin(&call->pk, call->id);
    call->packing = 1;
    return &call->pk;
}

void opfor_call_result_end(opfor_call_t *call) {
    if (call->answered)
        return;
    call_finish(call);
}

static void call_verror(opfor_call_t *call, int code, const opfor_rpc_hint_t *hint, const char *fmt,
                        va_list ap) {
    if (call->answered)
        return;
    char m[512] = "";
    if (fmt)
        vsnprintf(m, sizeof m, fmt, ap);
    msgpack_sbuffer_clear(&call->buf);
    msgpack_packer_init(&call->pk, &call->buf, msgpack_sbuffer_write);
    opfor_rpc_pack_error_hint(&call->pk, call->id, code, m, hint);
    if (call->client)
        LOG(call->srv, DEBUG, "%s: error response to #%u: %d %s", call->client->peer, call->id,
            code, m[0] ? m : opfor_rpc_err_message(code));
    call_finish(call);
}

void opfor_call_error(opfor_call_t *call, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    call_verror(call, code, NULL, fmt, ap);
    va_end(ap);
}

void opfor_call_error_hint(opfor_call_t *call, int code, const opfor_rpc_hint_t *hint,
                           const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    call_verror(call, code, hint, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ dispatch */

static void handle_frame(opfor_peer_t *c, const uint8_t *p, size_t len) {
    opfor_server_t *s = c->srv;
    opfor_rpc_msg_t m;
    opfor_rpc_fault_t f;
    if (opfor_rpc_decode(&m, p, len, &f) < 0) {
        if (f.has_id)
            send_error(c, f.id, f.code, "%s", f.message);
        else
            protocol_error(c, f.code, "%s", f.message);
        goto out;
    }
    if (m.kind == OPFOR_RPC_RESPONSE) {
        protocol_error(c, OPFOR_RPC_E_INVALID_REQUEST, "clients must not send responses");
        goto out;
    }
    const int notif = m.kind == OPFOR_RPC_NOTIFY;
    const int mlen = (int)m.method_len;
    const struct opfor_ruleset *mrs = NULL;
    int mid = opfor__method_find(m.method, m.method_len, &mrs);
    if (notif)
        LOG(s, DEBUG, "%s: notification %.*s", c->peer, mlen, m.method);
    else
        LOG(s, DEBUG, "%s: request #%u %.*s", c->peer, m.id, mlen, m.method);
    if (mid < 0) {
        if (!notif)
            send_error(c, m.id, OPFOR_RPC_E_METHOD_NOT_FOUND, "unknown method '%.*s'", mlen,
                       m.method);
        goto out;
    }
    const opfor__method_t *meth = &opfor__methods[mid];
    if ((meth->flags & OPFOR_METHOD_DEBUG) && !s->cfg.debug_methods) {
        if (!notif)
            send_error(c, m.id, OPFOR_RPC_E_METHOD_NOT_FOUND,
                       "unknown method '%.*s' (debug methods are off)", mlen, m.method);
        goto out;
    }
    if (c->token_required && !c->authed && !(meth->flags & OPFOR_METHOD_PREAUTH)) {
        if (!notif) {
            opfor_rpc_hint_t h = {0};
            opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_HELLO_TOKEN);
            char called[72];
            snprintf(called, sizeof called, "%.*s", mlen, m.method);
            opfor_rpc_hint_str(&h, "method", called);
            send_error_hint(c, m.id, OPFOR_RPC_E_UNAUTHORIZED, &h,
                            "'%s' needs a hello with the token first", called);
        }
        goto out;
    }
    if (c->players_link && !(meth->flags & OPFOR_METHOD_PLAYERS)) {
        if (!notif)
            send_error(c, m.id, OPFOR_RPC_E_UNAUTHORIZED,
                       "'%.*s' is not open to the players' link: it opens the calculator and "
                       "the games (list, follow, play), not starting or closing one; the game "
                       "master's link opens everything",
                       mlen, m.method);
        goto out;
    }
    if (c->inflight >= s->cfg.max_inflight) {
        if (!notif)
            send_error(c, m.id, OPFOR_RPC_E_BUSY, "%u requests already await answers (limit %u)",
                       c->inflight, s->cfg.max_inflight);
        goto out;
    }
    opfor_call_t *call = call_alloc(s);
    if (!call) {
        if (!notif)
            send_error(c, m.id, OPFOR_RPC_E_INTERNAL, "out of memory");
        goto out;
    }
    call->srv = s;
    call->client = c;
    call->id = notif ? 0 : m.id;
    call->method = mid;
    call->rs = mrs;
    /* the name as called: "%.*s" without printf (this runs for every request) */
    size_t nlen = m.method_len < sizeof call->name - 1 ? m.method_len : sizeof call->name - 1;
    nlen = strnlen(m.method, nlen);
    memcpy(call->name, m.method, nlen);
    call->name[nlen] = '\0';
    call->notification = notif;
    atomic_init(&call->cancelled, 0);
    call->next = c->calls;
    if (c->calls)
        c->calls->prev = call;
    c->calls = call;
    c->inflight++;

    call->in_handler = 1;
    int rc = meth->fn(call, m.params);
    call->in_handler = 0;
    if (!call->answered && rc < 0)
        opfor_call_error(call, opfor_rpc_err_from_opfor(rc), "%s", opfor_strerror(rc));
    if (call->answered)
        call_free(call);
out:
    opfor_rpc_msg_free(&m);
}

/* ------------------------------------------------------------------ clients */

static void on_idle(uv_timer_t *t);

static void restart_idle(opfor_peer_t *c) {
    if (c->closing || c->draining)
        return;
    uint32_t ms = c->srv->cfg.idle_timeout_ms;
    if (ms)
        uv_timer_start(&c->timer, on_idle, ms, 0);
    else
        uv_timer_stop(&c->timer);
}

static void on_idle(uv_timer_t *t) {
    opfor_peer_t *c = t->data;
    if (c->inflight > 0) { /* waiting for an answer is not idleness */
        restart_idle(c);
        return;
    }
    LOG(c->srv, INFO, "%s: silent for %u ms", c->peer, c->srv->cfg.idle_timeout_ms);
    protocol_error(c, OPFOR_RPC_E_TIMEOUT, "idle timeout: no request for %u ms",
                   c->srv->cfg.idle_timeout_ms);
}

static void on_hello_timeout(uv_timer_t *t) {
    opfor_peer_t *c = t->data;
    protocol_error(c, OPFOR_RPC_E_TIMEOUT, "no hello within %u ms", c->srv->cfg.hello_timeout_ms);
}

void opfor__peer_hello_ok(opfor_peer_t *c, int auth) {
    c->hello_done = 1;
    if (auth)
        c->authed = 1;
    restart_idle(c);
}

static void on_client_closed(uv_handle_t *h) {
    opfor_peer_t *c = h->data;
    c->srv->pending_closes--;
    if (--c->open_handles == 0) {
        free(c->in);
        free(c->out);
        free(c);
    }
}

static void client_close(opfor_peer_t *c) {
    if (c->closing)
        return;
    c->closing = 1;
    opfor_server_t *s = c->srv;
    for (opfor_call_t *call = c->calls; call; call = call->next) {
        call->client = NULL;
        atomic_store(&call->cancelled, 1);
    }
    c->calls = NULL;
    c->inflight = 0;
    if (c->prev)
        c->prev->next = c->next;
    else if (s->clients == c)
        s->clients = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
    if (c->refused) {
        s->nrefused--;
    } else {
        s->nclients--;
        LOG(s, INFO, "%s: disconnected", c->peer);
    }
    if (c->is_web) { /* the connection goes once its queued messages are written */
        if (c->web)
            opfor__web_close(c->web);
        c->web = NULL;
        s->pending_closes += 1;
        uv_close((uv_handle_t *)&c->timer, on_client_closed);
        return;
    }
    s->pending_closes += 2;
    uv_close(&c->h.handle, on_client_closed);
    uv_close((uv_handle_t *)&c->timer, on_client_closed);
}

static void on_drain_timeout(uv_timer_t *t) {
    client_close(t->data);
}

static void on_shutdown(uv_shutdown_t *req, int status) {
    client_close(req->data);
}

void opfor__peer_drain(opfor_peer_t *c, const char *why) {
    if (c->closing || c->draining)
        return;
    c->draining = 1;
    LOG(c->srv, DEBUG, "%s: closing after pending writes (%s)", c->peer, why);
    flush_output(c); /* gathered answers (and the final notice) go out before the shutdown */
    if (c->is_web) { /* queued messages stay with the connection, which closes after them */
        client_close(c);
        return;
    }
    uv_read_stop(&c->h.stream);
    uv_timer_start(&c->timer, on_drain_timeout, DRAIN_TIMEOUT_MS, 0);
    c->shutdown_req.data = c;
    if (uv_shutdown(&c->shutdown_req, &c->h.stream, on_shutdown) < 0)
        client_close(c);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    opfor_peer_t *c = h->data;
    size_t want = c->in_len + READ_CHUNK;
    if (c->in_cap < want) {
        size_t cap = c->in_cap ? c->in_cap : READ_CHUNK;
        while (cap < want)
            cap *= 2;
        const size_t most = (size_t)c->srv->limits.max_size + READ_CHUNK;
        if (cap > most)
            cap = most > want ? most : want;
        uint8_t *p = realloc(c->in, cap);
        if (!p) {
            *buf = uv_buf_init(NULL, 0); /* read_cb gets UV_ENOBUFS */
            return;
        }
        c->in = p;
        c->in_cap = cap;
    }
    *buf = uv_buf_init((char *)c->in + c->in_len, (unsigned)(c->in_cap - c->in_len));
}

static void process_input(opfor_peer_t *c) {
    size_t off = 0;
    c->batching = 1;
    while (!c->closing && !c->draining && off < c->in_len) {
        opfor_frame_result_t r;
        opfor_frame_status_t st =
            opfor_frame_scan(c->in + off, c->in_len - off, &c->srv->limits, &r);
        if (st == OPFOR_FRAME_NEED_MORE)
            break;
        if (st == OPFOR_FRAME_INVALID) {
            protocol_error(c, OPFOR_RPC_E_PARSE, "invalid frame (byte %zu of the frame): %s",
                           r.offset, r.reason);
            break;
        }
        handle_frame(c, c->in + off, r.len);
        off += r.len;
    }
    flush_output(c);
    if (off) {
        memmove(c->in, c->in + off, c->in_len - off);
        c->in_len -= off;
    }
    if (c->in_len == 0 && c->in_cap > 4 * READ_CHUNK) { /* give back a big frame's buffer */
        free(c->in);
        c->in = NULL;
        c->in_cap = 0;
    }
}

static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
    opfor_peer_t *c = stream->data;
    if (nread == 0 || c->closing)
        return;
    if (nread < 0) {
        if (nread != UV_EOF)
            LOG(c->srv, DEBUG, "%s: read failed: %s", c->peer, uv_strerror((int)nread));
        client_close(c);
        return;
    }
    if (c->draining)
        return;
    c->in_len += (size_t)nread;
    if (c->hello_done || !c->srv->cfg.hello_timeout_ms)
        restart_idle(c);
    process_input(c);
}

static void describe_peer(opfor_peer_t *c) {
    if (!c->is_tcp) {
        snprintf(c->peer, sizeof c->peer, "unix#%llu", (unsigned long long)c->serial);
        return;
    }
    struct sockaddr_storage ss;
    int len = sizeof ss;
    char host[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (uv_tcp_getpeername(&c->h.tcp, (struct sockaddr *)&ss, &len) == 0) {
        if (ss.ss_family == AF_INET6) {
            struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
            uv_ip6_name(a, host, sizeof host);
            port = ntohs(a->sin6_port);
        } else {
            struct sockaddr_in *a = (struct sockaddr_in *)&ss;
            uv_ip4_name(a, host, sizeof host);
            port = ntohs(a->sin_port);
        }
    }
    snprintf(c->peer, sizeof c->peer, "tcp %s:%d#%llu", host, port, (unsigned long long)c->serial);
}

/* A connection over max-clients: it leaves the count at once and is told why before the close
 * (unless REFUSED_MAX others are still being told: a flood is closed without a word). */
static void refuse(opfor_peer_t *c) {
    opfor_server_t *s = c->srv;
    unsigned used = --s->nclients;
    c->refused = 1;
    s->nrefused++;
    if (s->nrefused > REFUSED_MAX) {
        LOG(s, DEBUG, "%s: refused without a message (%u refusals pending)", c->peer,
            s->nrefused - 1);
        client_close(c);
        return;
    }
    protocol_error(c, OPFOR_RPC_E_BUSY,
                   "too many connections: %u of %u in use; try again later, or raise the "
                   "daemon's max-clients",
                   used, s->cfg.max_clients);
}

static void on_connection(uv_stream_t *server, int status) {
    opfor_listener_t *L = server->data;
    opfor_server_t *s = L->srv;
    if (status < 0) {
        LOG(s, WARN, "%s: accept failed: %s", L->name, uv_strerror(status));
        return;
    }
    opfor_peer_t *c = calloc(1, sizeof *c);
    if (!c) {
        LOG(s, ERROR, "out of memory accepting a client");
        return;
    }
    c->srv = s;
    c->is_tcp = L->is_tcp;
    c->serial = ++s->next_serial;
    if (L->is_tcp)
        uv_tcp_init(s->loop, &c->h.tcp);
    else
        uv_pipe_init(s->loop, &c->h.pipe, 0);
    c->h.handle.data = c;
    uv_timer_init(s->loop, &c->timer);
    c->timer.data = c;
    c->open_handles = 2;
    c->next = s->clients;
    if (s->clients)
        s->clients->prev = c;
    s->clients = c;
    s->nclients++;
    int rc = uv_accept(server, &c->h.stream);
    if (rc < 0) {
        snprintf(c->peer, sizeof c->peer, "client#%llu", (unsigned long long)c->serial);
        LOG(s, WARN, "%s: accept failed: %s", L->name, uv_strerror(rc));
        client_close(c);
        return;
    }
    describe_peer(c);
    if (s->stopping) {
        client_close(c);
        return;
    }
    if (s->nclients > s->cfg.max_clients) {
        refuse(c);
        return;
    }
    if (c->is_tcp)
        uv_tcp_nodelay(&c->h.tcp, 1);
    c->token_required = c->is_tcp && s->token[0];
    c->authed = !c->token_required;
    LOG(s, INFO, "%s: connected%s", c->peer, c->token_required ? " (token required)" : "");
    if (s->cfg.hello_timeout_ms)
        uv_timer_start(&c->timer, on_hello_timeout, s->cfg.hello_timeout_ms, 0);
    else
        restart_idle(c);
    rc = uv_read_start(&c->h.stream, on_alloc, on_read);
    if (rc < 0)
        client_close(c);
}

/* ------------------------------------------------------------------ WebSocket sessions */

/* A WebSocket connection of the table page (io/web.c) becomes a session like a socket's: the
 * same hello and idle timers, limits, dispatch and subscriptions. Its messages arrive whole (in
 * parts that web.c hands over) and each must be exactly one MessagePack frame. */
opfor_peer_t *opfor__server_web_open(opfor_server_t *s, opfor_web_conn_t *wc, const char *peer) {
    if (s->stopping)
        return NULL;
    opfor_peer_t *c = calloc(1, sizeof *c);
    if (!c) {
        LOG(s, ERROR, "out of memory accepting a client");
        return NULL;
    }
    c->srv = s;
    c->is_web = 1;
    c->web = wc;
    c->serial = ++s->next_serial;
    snprintf(c->peer, sizeof c->peer, "%s#%llu", peer, (unsigned long long)c->serial);
    uv_timer_init(s->loop, &c->timer);
    c->timer.data = c;
    c->open_handles = 1;
    c->next = s->clients;
    if (s->clients)
        s->clients->prev = c;
    s->clients = c;
    s->nclients++;
    c->token_required = s->web_tokens_required;
    c->authed = !c->token_required;
    if (s->nclients > s->cfg.max_clients) {
        refuse(c); /* told why, then closed: the connection is already let go of */
        return NULL;
    }
    LOG(s, INFO, "%s: connected%s", c->peer, c->token_required ? " (token required)" : "");
    if (s->cfg.hello_timeout_ms)
        uv_timer_start(&c->timer, on_hello_timeout, s->cfg.hello_timeout_ms, 0);
    else
        restart_idle(c);
    return c;
}

void opfor__server_web_input(opfor_peer_t *c, const uint8_t *data, size_t len, int first, int final,
                             int binary) {
    if (c->closing || c->draining)
        return;
    if (!binary) {
        protocol_error(c, OPFOR_RPC_E_PARSE,
                       "text message: send each MessagePack-RPC frame as one binary message");
        return;
    }
    if (first)
        c->in_len = 0;
    const size_t most = c->srv->limits.max_size;
    if (len > most - c->in_len) {
        protocol_error(c, OPFOR_RPC_E_PARSE, "invalid frame: a message longer than %zu bytes",
                       most);
        return;
    }
    if (c->in_cap < c->in_len + len) {
        size_t cap = c->in_cap ? c->in_cap : 4096;
        while (cap < c->in_len + len)
            cap *= 2;
        uint8_t *p = realloc(c->in, cap);
        if (!p) {
            client_close(c);
            return;
        }
        c->in = p;
        c->in_cap = cap;
    }
    memcpy(c->in + c->in_len, data, len);
    c->in_len += len;
    if (!final)
        return;
    if (c->hello_done || !c->srv->cfg.hello_timeout_ms)
        restart_idle(c);
    opfor_frame_result_t r;
    opfor_frame_status_t st = opfor_frame_scan(c->in, c->in_len, &c->srv->limits, &r);
    size_t n = c->in_len;
    c->in_len = 0;
    c->batching = 1;
    if (st == OPFOR_FRAME_INVALID)
        protocol_error(c, OPFOR_RPC_E_PARSE, "invalid frame (byte %zu of the frame): %s", r.offset,
                       r.reason);
    else if (st != OPFOR_FRAME_COMPLETE || r.len != n)
        protocol_error(c, OPFOR_RPC_E_PARSE,
                       "invalid frame: a binary message must hold exactly one MessagePack "
                       "object (%zu bytes, %s)",
                       n, st == OPFOR_FRAME_COMPLETE ? "more than one" : "cut short");
    else
        handle_frame(c, c->in, n);
    if (!c->closing)
        flush_output(c);
    if (c->in_cap > 4 * READ_CHUNK) { /* give back a big message's buffer */
        free(c->in);
        c->in = NULL;
        c->in_cap = 0;
    }
}

void opfor__server_web_gone(opfor_peer_t *c) {
    c->web = NULL; /* the connection is going: nothing more is written to it */
    client_close(c);
}

/* ------------------------------------------------------------------ listeners */

/* Creates the missing directories of path, each with mode. */
static int mkdir_p(const char *path, mode_t mode, opfor_diag_t *d) {
    char buf[OPFOR_CONFIG_PATH_MAX];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return opfor__diag_msg(d, OPFOR_ERANGE, "%s: path too long", path);
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(buf, mode) != 0 && errno != EEXIST)
                return opfor__diag_msg(d, OPFOR_EIO, "cannot create directory %s: %s", buf,
                                       strerror(errno));
            struct stat st;
            if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
                return opfor__diag_msg(d, OPFOR_EIO, "%s exists and is not a directory", buf);
            *p = saved;
            if (!saved)
                break;
        }
    }
    return 0;
}

/* Makes sure the socket's directory exists (0700 when created) and is safe to use. */
static int prepare_socket_dir(const char *sock, opfor_diag_t *d) {
    char dir[sizeof((struct sockaddr_un *)0)->sun_path];
    snprintf(dir, sizeof dir, "%s", sock);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return 0; /* relative name in the working directory */
    if (slash == dir)
        return 0; /* directly under / */
    *slash = '\0';
    int rc = mkdir_p(dir, 0700, d);
    if (rc < 0)
        return rc;
    struct stat st;
    if (lstat(dir, &st) != 0)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot inspect %s: %s", dir, strerror(errno));
    if (st.st_uid != geteuid() && st.st_uid != 0)
        return opfor__diag_msg(
            d, OPFOR_EAUTH,
            "socket directory %s belongs to uid %u, not to us (uid %u); refusing to use "
            "it",
            dir, (unsigned)st.st_uid, (unsigned)geteuid());
    if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
        return opfor__diag_msg(
            d, OPFOR_EAUTH, "socket directory %s is writable by anyone; refusing to use it", dir);
    return 0;
}

/* 0 when path is free (absent, or a stale socket we removed); an error when in use. */
static int clear_stale_socket(opfor_server_t *s, const char *path, opfor_diag_t *d) {
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : opfor__diag_msg(d, OPFOR_EIO, "%s: %s", path, strerror(errno));
    if (!S_ISSOCK(st.st_mode))
        return opfor__diag_msg(d, OPFOR_EBUSY,
                               "%s exists and is not a socket; remove it or choose another "
                               "--socket",
                               path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return opfor__diag_msg(d, OPFOR_EIO, "socket(): %s", strerror(errno));
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int rc = connect(fd, (struct sockaddr *)&sa, sizeof sa);
    int e = errno;
    close(fd);
    if (rc == 0)
        return opfor__diag_msg(
            d, OPFOR_EBUSY,
            "another opford is already listening on %s; stop it first or choose another "
            "--socket",
            path);
    if (e != ECONNREFUSED)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot check the existing socket %s: %s", path,
                               strerror(e));
    if (unlink(path) != 0 && errno != ENOENT)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot remove the stale socket %s: %s", path,
                               strerror(errno));
    LOG(s, INFO, "removed a stale socket file %s (left by a crash?)", path);
    return 0;
}

/* Connections the kernel may queue before accept: enough for every table reconnecting at once
 * after a restart (the kernel caps it at net.core.somaxconn). */
static int listen_backlog(const opfor_server_t *s) {
    return s->cfg.max_clients > LISTEN_BACKLOG ? (int)s->cfg.max_clients : LISTEN_BACKLOG;
}

static opfor_listener_t *new_listener(opfor_server_t *s, int is_tcp) {
    if (s->nlisteners >= MAX_LISTENERS)
        return NULL;
    opfor_listener_t *L = &s->listeners[s->nlisteners++];
    memset(L, 0, sizeof *L);
    L->srv = s;
    L->is_tcp = is_tcp;
    if (is_tcp)
        uv_tcp_init(s->loop, &L->h.tcp);
    else
        uv_pipe_init(s->loop, &L->h.pipe, 0);
    L->h.handle.data = L;
    L->active = 1;
    return L;
}

static void remove_socket_file(opfor_server_t *s) {
    if (!s->owns_socket)
        return;
    s->owns_socket = 0;
    struct stat st;
    if (lstat(s->sock_path, &st) == 0 && st.st_dev == s->sock_dev && st.st_ino == s->sock_ino)
        unlink(s->sock_path);
}

static int listen_unix(opfor_server_t *s, opfor_diag_t *d) {
    const char *path = s->cfg.socket;
    int rc = prepare_socket_dir(path, d);
    if (rc < 0)
        return rc;
    rc = clear_stale_socket(s, path, d);
    if (rc < 0)
        return rc;
    opfor_listener_t *L = new_listener(s, 0);
    if (!L)
        return opfor__diag_msg(d, OPFOR_EFULL, "too many listeners");
    snprintf(L->name, sizeof L->name, "unix:%s", path);
    mode_t old = umask(0177); /* the socket is born 0600 */
    rc = uv_pipe_bind(&L->h.pipe, path);
    umask(old);
    if (rc < 0)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot bind %s: %s", path, uv_strerror(rc));
    struct stat st;
    if (chmod(path, 0600) != 0 || lstat(path, &st) != 0)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot set the mode of %s: %s", path,
                               strerror(errno));
    snprintf(s->sock_path, sizeof s->sock_path, "%s", path);
    s->sock_dev = st.st_dev;
    s->sock_ino = st.st_ino;
    s->owns_socket = 1;
    rc = uv_listen(&L->h.stream, listen_backlog(s), on_connection);
    if (rc < 0)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot listen on %s: %s", path, uv_strerror(rc));
    LOG(s, INFO, "listening on %s", L->name);
    return 0;
}

static int bound_port(opfor_listener_t *L) {
    struct sockaddr_storage ss;
    int len = sizeof ss;
    if (uv_tcp_getsockname(&L->h.tcp, (struct sockaddr *)&ss, &len) != 0)
        return -1;
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static int listen_tcp(opfor_server_t *s, opfor_diag_t *d) {
    opfor_listen_addr_t a;
    int rc = opfor_config_parse_listen(s->cfg.listen, &a, d);
    if (rc < 0)
        return rc;
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    if (a.ipv6)
        rc = uv_ip6_addr(a.host, a.port, (struct sockaddr_in6 *)&ss);
    else
        rc = uv_ip4_addr(a.host, a.port, (struct sockaddr_in *)&ss);
    if (rc < 0)
        return opfor__diag_msg(d, OPFOR_EINVAL, "listen: bad address %s: %s", a.host,
                               uv_strerror(rc));
    opfor_listener_t *L = new_listener(s, 1);
    if (!L)
        return opfor__diag_msg(d, OPFOR_EFULL, "too many listeners");
    rc = uv_tcp_bind(&L->h.tcp, (struct sockaddr *)&ss, a.ipv6 ? UV_TCP_IPV6ONLY : 0);
    if (rc == 0)
        rc = uv_listen(&L->h.stream, listen_backlog(s), on_connection);
    if (rc < 0)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot listen on %s: %s", s->cfg.listen,
                               uv_strerror(rc));
    s->tcp_port = bound_port(L);
    snprintf(L->name, sizeof L->name, a.ipv6 ? "tcp://[%s]:%d" : "tcp://%s:%d", a.host,
             s->tcp_port);
    LOG(s, INFO, "listening on %s%s", L->name, s->token[0] ? " (token required)" : "");
    return 0;
}

/* Adopts sockets passed by systemd (LISTEN_PID/LISTEN_FDS, starting at fd 3). Returns the number
 * adopted (0 when not socket-activated) or a negative code. */
static int adopt_activated(opfor_server_t *s, opfor_diag_t *d) {
    const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
    if (!pid || !fds)
        return 0;
    char *end;
    long lp = strtol(pid, &end, 10);
    if (*end || lp != (long)getpid())
        return 0;
    long n = strtol(fds, &end, 10);
    if (*end || n < 1)
        return 0;
    unsetenv("LISTEN_PID");
    unsetenv("LISTEN_FDS");
    unsetenv("LISTEN_FDNAMES");
    if (n > MAX_LISTENERS)
        return opfor__diag_msg(d, OPFOR_EFULL,
                               "systemd passed %ld sockets; at most %d are supported", n,
                               MAX_LISTENERS);
    for (int fd = 3; fd < 3 + n; fd++) {
        int type = 0;
        socklen_t tl = sizeof type;
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0 || type != SOCK_STREAM ||
            getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
            return opfor__diag_msg(d, OPFOR_EINVAL, "passed fd %d is not a stream socket", fd);
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        int is_tcp = ss.ss_family == AF_INET || ss.ss_family == AF_INET6;
        if (!is_tcp && ss.ss_family != AF_UNIX)
            return opfor__diag_msg(d, OPFOR_EINVAL,
                                   "passed fd %d is neither a Unix nor a TCP socket", fd);
        if (is_tcp && !s->token[0]) {
            int loop4 = ss.ss_family == AF_INET &&
                        (ntohl(((struct sockaddr_in *)&ss)->sin_addr.s_addr) >> 24) == 127;
            int loop6 = ss.ss_family == AF_INET6 &&
                        IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)&ss)->sin6_addr);
            if (!loop4 && !loop6)
                return opfor__diag_msg(
                    d, OPFOR_EINVAL,
                    "passed TCP socket (fd %d) is not on a loopback address; set "
                    "token-file",
                    fd);
        }
        opfor_listener_t *L = new_listener(s, is_tcp);
        int rc = is_tcp ? uv_tcp_open(&L->h.tcp, fd) : uv_pipe_open(&L->h.pipe, fd);
        if (rc == 0)
            rc = uv_listen(&L->h.stream, listen_backlog(s), on_connection);
        if (rc < 0)
            return opfor__diag_msg(d, OPFOR_EIO, "cannot listen on passed fd %d: %s", fd,
                                   uv_strerror(rc));
        if (is_tcp) {
            s->tcp_port = bound_port(L);
            snprintf(L->name, sizeof L->name, "tcp fd %d (port %d)", fd, s->tcp_port);
        } else {
            struct sockaddr_un *un = (struct sockaddr_un *)&ss;
            snprintf(L->name, sizeof L->name, "unix fd %d (%s)", fd,
                     un->sun_path[0] ? un->sun_path : "unnamed");
        }
        LOG(s, INFO, "listening on %s (socket activation)", L->name);
    }
    return (int)n;
}

/* ------------------------------------------------------------------ state dir, open files */

/* Reads who holds the lock from the lock file's text ("pid N\nstarted T\nname P\n"): its
 * program's name as it wrote it (under an emulator /proc would say the emulator's), else the
 * process's name from /proc. pid stays 0 when the holder has not written it yet. */
static void read_holder(int fd, opfor_state_holder_t *h) {
    memset(h, 0, sizeof *h);
    char text[160];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = '\0';
    const char *p = strstr(text, "pid ");
    if (p)
        h->pid = strtol(p + 4, NULL, 10);
    p = strstr(text, "started ");
    if (p)
        sscanf(p + 8, "%39[^\n]", h->started);
    if (h->pid <= 0) {
        h->pid = 0;
        return;
    }
    p = strstr(text, "name ");
    if (p && sscanf(p + 5, "%31[^\n]", h->name) == 1)
        return;
    char path[48];
    snprintf(path, sizeof path, "/proc/%ld/comm", h->pid);
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(h->name, sizeof h->name, f))
            h->name[0] = '\0';
        h->name[strcspn(h->name, "\n")] = '\0';
        fclose(f);
    }
}

/* "process 123 (opford, started 2026-11-27 18:06:25 UTC)", or as much of it as is known. */
static void describe_holder(const opfor_state_holder_t *h, char *out, size_t size) {
    if (!h->pid)
        snprintf(out, size, "another process (it has not written its pid yet)");
    else if (!h->name[0] && !h->started[0])
        snprintf(out, size, "process %ld", h->pid);
    else
        snprintf(out, size, "process %ld (%s%s%s%s)", h->pid, h->name,
                 h->name[0] && h->started[0] ? ", " : "", h->started[0] ? "started " : "",
                 h->started);
}

int opfor_server_state_dir_holder(const opfor_server_t *s, opfor_state_holder_t *h) {
    if (!s->state_dir_held)
        return 0;
    *h = s->holder;
    return 1;
}

/* Takes <state-dir>/opford.lock with flock(): the kernel drops the lock when this process ends,
 * however it ends, so a SIGKILL never leaves the directory locked, and the file itself is never
 * removed (removing it would let two daemons lock two different files). The holder writes its
 * pid and start time into the file for the refusal to name it. */
static int lock_state_dir(opfor_server_t *s, opfor_diag_t *d) {
    char path[OPFOR_CONFIG_PATH_MAX + 16];
    int n = snprintf(path, sizeof path, "%s/%s", s->cfg.state_dir, LOCK_FILE);
    if (n < 0 || (size_t)n >= sizeof path)
        return opfor__diag_msg(d, OPFOR_ERANGE, "state-dir path too long");
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot open the lock file %s: %s", path,
                               strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        if (e != EWOULDBLOCK) {
            close(fd);
            return opfor__diag_msg(d, OPFOR_EIO, "cannot lock %s: %s", path, strerror(e));
        }
        read_holder(fd, &s->holder);
        close(fd);
        s->state_dir_held = 1;
        char who[200];
        describe_holder(&s->holder, who, sizeof who);
        return opfor__diag_msg(d, OPFOR_EBUSY, "state-dir %s is in use by %s", s->cfg.state_dir,
                               who);
    }
    char line[200], exe[256];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    /* this program's name (an emulator answers /proc/self/exe with the emulated program) */
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[el > 0 ? el : 0] = '\0';
    const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
    n = snprintf(line, sizeof line, "pid %ld\nstarted %04d-%02d-%02d %02d:%02d:%02d UTC\n",
                 (long)getpid(), tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                 tm.tm_min, tm.tm_sec);
    if (base[0])
        n += snprintf(line + n, sizeof line - (size_t)n, "name %.31s\n", base);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, line, (size_t)n, 0) != n) {
        int e = errno;
        close(fd);
        return opfor__diag_msg(d, OPFOR_EIO, "cannot write %s: %s", path, strerror(e));
    }
    s->lock_fd = fd;
    return 0;
}

/* Empties the lock file (its pid is no longer true) and lets the lock go. */
static void unlock_state_dir(opfor_server_t *s) {
    if (s->lock_fd < 0)
        return;
    if (ftruncate(s->lock_fd, 0) != 0) {
        /* nothing to do: the next holder rewrites it */
    }
    close(s->lock_fd); /* releases the flock */
    s->lock_fd = -1;
}

/* Every client is an open file: raises the soft RLIMIT_NOFILE to the hard limit when
 * max-clients (plus FD_RESERVE) does not fit under it, and warns when even that is short,
 * since connections past the limit can only be closed without a word. */
static void fit_open_files(opfor_server_t *s) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    const rlim_t need = (rlim_t)s->cfg.max_clients + FD_RESERVE;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
        const rlim_t was = rl.rlim_cur;
        struct rlimit want = rl;
        want.rlim_cur = rl.rlim_max == RLIM_INFINITY ? need : rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &want) != 0 && want.rlim_cur > need) {
            want.rlim_cur = need; /* a hard limit above the kernel's nr_open: ask for less */
            (void)setrlimit(RLIMIT_NOFILE, &want);
        }
        if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
            rl.rlim_cur = was;
        if (rl.rlim_cur != was)
            LOG(s, INFO, "open-file limit raised from %llu to %llu for max-clients %u",
                (unsigned long long)was, (unsigned long long)rl.rlim_cur, s->cfg.max_clients);
    }
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need)
        LOG(s, WARN,
            "max-clients %u needs about %llu open files but this process may open only %llu "
            "(hard limit %llu): about %llu clients can connect and later ones are closed "
            "without a message; raise the limit (LimitNOFILE= in the unit, ulimit -n) or "
            "lower max-clients",
            s->cfg.max_clients, (unsigned long long)need, (unsigned long long)rl.rlim_cur,
            (unsigned long long)rl.rlim_max,
            rl.rlim_cur > FD_RESERVE ? (unsigned long long)(rl.rlim_cur - FD_RESERVE) : 0ull);
}

/* ------------------------------------------------------------------ posts, signals */

void opfor_server_post(opfor_server_t *s, opfor_post_t *p) {
    uv_mutex_lock(&s->post_lock);
    p->next = s->posts;
    s->posts = p;
    uv_mutex_unlock(&s->post_lock);
    uv_async_send(&s->async);
}

static void run_posts(opfor_server_t *s) {
    uv_mutex_lock(&s->post_lock);
    opfor_post_t *list = s->posts;
    s->posts = NULL;
    uv_mutex_unlock(&s->post_lock);
    opfor_post_t *fifo = NULL; /* the queue is LIFO; reverse it */
    while (list) {
        opfor_post_t *next = list->next;
        list->next = fifo;
        fifo = list;
        list = next;
    }
    while (fifo) {
        opfor_post_t *next = fifo->next;
        fifo->next = NULL;
        fifo->fn(fifo);
        fifo = next;
    }
}

static void on_async(uv_async_t *a) {
    run_posts(a->data);
}

static void reload(opfor_server_t *s) {
    if (!s->hooks.reload) {
        LOG(s, INFO, "SIGHUP: no config file to reload");
        return;
    }
    opfor_sd_notify(NULL, "RELOADING=1");
    opfor_config_t n;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    char where[1024];
    int rc = s->hooks.reload(s->hooks.reload_ud, &n, &d);
    if (rc == 0) {
        /* Listeners and the state directory stay as they are until a restart. */
        if (strcmp(n.socket, s->cfg.socket) || strcmp(n.listen, s->cfg.listen) ||
            strcmp(n.http, s->cfg.http) || strcmp(n.state_dir, s->cfg.state_dir))
            LOG(s, WARN,
                "reload: socket, listen, http and state-dir changes take effect on restart");
        memcpy(n.socket, s->cfg.socket, sizeof n.socket);
        memcpy(n.listen, s->cfg.listen, sizeof n.listen);
        memcpy(n.http, s->cfg.http, sizeof n.http);
        memcpy(n.state_dir, s->cfg.state_dir, sizeof n.state_dir);
        rc = opfor_config_check(&n, &d);
    }
    char token[sizeof s->token] = "";
    if (rc == 0 && n.token_file[0])
        rc = opfor_config_read_token(n.token_file, token, sizeof token, &d);
    void *model = NULL;
    if (rc == 0)
        rc = load_model(&n, &model, &d);
    if (rc == 0 && n.workers != s->cfg.workers)
        LOG(s, WARN, "reload: a new workers count takes effect on restart");
    if (rc < 0) {
        free_model(model);
        LOG(s, ERROR, "reload failed, keeping the running settings: %s",
            opfor_diag_format(&d, where, sizeof where));
    } else {
        free_model(s->model);
        s->model = model;
        n.workers = s->cfg.workers;
        s->cfg = n;
        opfor_workers_set_max_queued(s->workers, n.max_queued);
        memcpy(s->token, token, sizeof token);
        fit_open_files(s);
        LOG(s, INFO,
            "reloaded: log-level %s, hello-timeout %u ms, idle-timeout %u ms, max-inflight %u, "
            "max-clients %u, write-queue-max %u, token %s, model %s",
            opfor_log_level_name(n.log_level), n.hello_timeout_ms, n.idle_timeout_ms,
            n.max_inflight, n.max_clients, n.write_queue_max, token[0] ? "set" : "none",
            n.model[0] ? n.model : "built-in");
    }
    opfor_sd_notify(NULL, "READY=1");
}

static void on_signal(uv_signal_t *h, int signum) {
    opfor_server_t *s = h->data;
    if (signum == SIGHUP) {
        reload(s);
        return;
    }
    if (s->stopping) {
        LOG(s, ERROR, "second %s: exiting at once", signum == SIGINT ? "SIGINT" : "SIGTERM");
        remove_socket_file(s);
        _exit(128 + signum);
    }
    LOG(s, INFO, "%s: shutting down", signum == SIGINT ? "SIGINT" : "SIGTERM");
    opfor_server_stop(s);
}

/* ------------------------------------------------------------------ lifecycle */

int opfor_server_new(opfor_server_t **out, uv_loop_t *loop, const opfor_config_t *cfg,
                     const opfor_server_hooks_t *hooks) {
    opfor_server_t *s = calloc(1, sizeof *s);
    if (!s)
        return OPFOR_ENOMEM;
    if (uv_mutex_init(&s->post_lock) != 0) {
        free(s);
        return OPFOR_ENOMEM;
    }
    opfor_config_t builtin;
    memset(&builtin, 0, sizeof builtin); /* no model file: the built-in model */
    opfor_diag_t md;
    if (load_model(&builtin, &s->model, &md) < 0) {
        uv_mutex_destroy(&s->post_lock);
        free(s);
        return OPFOR_ENOMEM;
    }
    s->loop = loop;
    s->cfg = *cfg;
    if (hooks)
        s->hooks = *hooks;
    s->limits = opfor_frame_limits_default();
    s->tcp_port = -1;
    s->lock_fd = -1;
    *out = s;
    return 0;
}

/* The host a person types for the page: the configured one, or for a wildcard address
 * (0.0.0.0, [::]) this machine's first address on a network (else loopback). */
static void web_host(const opfor_listen_addr_t *a, char *out, size_t size) {
    int wildcard = strcmp(a->host, "0.0.0.0") == 0 || strcmp(a->host, "::") == 0;
    snprintf(out, size, a->ipv6 ? "[%s]" : "%s", a->host);
    if (!wildcard)
        return;
    snprintf(out, size, "127.0.0.1");
    uv_interface_address_t *ifs = NULL;
    int n = 0;
    if (uv_interface_addresses(&ifs, &n) != 0)
        return;
    for (int i = 0; i < n; i++)
        if (!ifs[i].is_internal && ifs[i].address.address4.sin_family == AF_INET) {
            uv_ip4_name(&ifs[i].address.address4, out, size);
            break;
        }
    uv_free_interface_addresses(ifs, n);
}

int opfor_server_http_url(const opfor_server_t *s, char *buf, size_t size) {
    return opfor_server_http_link(s, 0, buf, size);
}

int opfor_server_http_link(const opfor_server_t *s, int which, char *buf, size_t size) {
    opfor_listen_addr_t a;
    if (!s->web || opfor_config_parse_listen(s->cfg.http, &a, NULL) < 0)
        return -1;
    char host[80];
    web_host(&a, host, sizeof host);
    const char *tok = which == 1 ? s->web_tokens.gm : which == 2 ? s->web_tokens.player : NULL;
    snprintf(buf, size, "http://%s:%d/%s%s", host, opfor__web_port(s->web), tok ? "#t=" : "",
             tok ? tok : "");
    return 0;
}

int opfor_server_start(opfor_server_t *s, opfor_diag_t *d) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);

    int rc = opfor_config_check(&s->cfg, d);
    if (rc < 0)
        return rc;
    if (s->cfg.token_file[0]) {
        rc = opfor_config_read_token(s->cfg.token_file, s->token, sizeof s->token, d);
        if (rc < 0)
            return rc;
    }
    rc = mkdir_p(s->cfg.state_dir, 0700, d);
    if (rc < 0)
        return rc;
    rc = lock_state_dir(s, d); /* before anything in the directory is opened */
    if (rc < 0)
        return rc;
    char dbpath[OPFOR_CONFIG_PATH_MAX + 16];
    if (opfor_store_path(dbpath, sizeof dbpath, s->cfg.state_dir) < 0)
        return opfor__diag_msg(d, OPFOR_ERANGE, "state-dir path too long");
    rc = opfor_store_open(&s->store, dbpath, d); /* runs PRAGMA quick_check */
    if (rc < 0)
        return rc;
    LOG(s, INFO, "game store %s (schema %d, integrity ok)", dbpath,
        opfor_store_schema_version(s->store));
    rc = opfor__games_new(&s->games, s, s->cfg.scores_db[0] ? s->cfg.scores_db : dbpath);
    if (rc < 0)
        return opfor__diag_msg(d, rc, "cannot set up the games: %s", opfor_strerror(rc));
    uv_timer_init(s->loop, &s->games_timer);
    s->games_timer.data = s;
    uv_unref((uv_handle_t *)&s->games_timer); /* never keeps the loop alive on its own */
    s->games_timer_on = 1;
    if (s->cfg.model[0]) {
        void *model = NULL;
        rc = load_model(&s->cfg, &model, d);
        if (rc < 0)
            return rc;
        free_model(s->model);
        s->model = model;
        LOG(s, INFO, "calculator model: %s", s->cfg.model);
    }

    rc = adopt_activated(s, d);
    if (rc < 0)
        return rc;
    if (rc > 0) {
        if (s->cfg.listen[0])
            LOG(s, INFO, "socket activation: ignoring listen %s", s->cfg.listen);
    } else {
        if (s->cfg.socket[0] && (rc = listen_unix(s, d)) < 0)
            return rc;
        if (s->cfg.listen[0] && (rc = listen_tcp(s, d)) < 0)
            return rc;
    }
    if (s->cfg.http[0]) { /* not a systemd socket: the page is served beside whatever that is */
        opfor_listen_addr_t a;
        rc = opfor_config_parse_listen(s->cfg.http, &a, d);
        if (rc == 0)
            rc = opfor__web_tokens_load(s->cfg.state_dir, &s->web_tokens, d);
        if (rc < 0)
            return rc;
        s->web_tokens_required = !a.loopback;
        if (s->web_tokens.created)
            LOG(s, INFO, "table page: new links (%s/web-tokens)", s->cfg.state_dir);
        rc = opfor__web_start(&s->web, s, s->loop, s->cfg.http, s->cfg.log_level >= OPFOR_LOG_DEBUG,
                              d);
        if (rc < 0)
            return rc;
        char url[160];
        opfor_server_http_url(s, url, sizeof url);
        LOG(s, INFO, "table page: %s (docs/web.md)", url);
    }

    fit_open_files(s);
    static const int signums[3] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
        uv_signal_init(s->loop, &s->sigs[i]);
        s->sigs[i].data = s;
        uv_signal_start(&s->sigs[i], on_signal, signums[i]);
    }
    s->sigs_on = 1;
    uv_async_init(s->loop, &s->async, on_async);
    s->async.data = s;
    uv_unref((uv_handle_t *)&s->async); /* posts never keep the loop alive on their own */
    s->async_on = 1;
    rc = opfor_workers_new(&s->workers, s, s->cfg.workers);
    if (rc < 0)
        return opfor__diag_msg(d, rc, "cannot start the worker threads: %s", opfor_strerror(rc));
    opfor_workers_set_max_queued(s->workers, s->cfg.max_queued);
    LOG(s, INFO, "%u worker thread%s for searches, at most %u waiting",
        opfor_workers_count(s->workers), opfor_workers_count(s->workers) == 1 ? "" : "s",
        s->cfg.max_queued);
    return 0;
}

/* Close callback of the server's own handles (listeners, signals, async); data is the server. */
static void on_server_handle_closed(uv_handle_t *h) {
    opfor_server_t *s = h->data;
    s->pending_closes--;
}

static void server_close_handle(opfor_server_t *s, uv_handle_t *h) {
    h->data = s;
    s->pending_closes++;
    uv_close(h, on_server_handle_closed);
}

static void close_listeners(opfor_server_t *s) {
    remove_socket_file(s);
    for (int i = 0; i < s->nlisteners; i++)
        if (s->listeners[i].active) {
            s->listeners[i].active = 0;
            server_close_handle(s, &s->listeners[i].h.handle);
        }
}

void opfor_server_stop(opfor_server_t *s) {
    if (s->stopping)
        return;
    s->stopping = 1;
    opfor_sd_notify(NULL, "STOPPING=1");
    close_listeners(s);
    while (s->clients) {
        opfor_peer_t *c = s->clients;
        for (opfor_call_t *call = c->calls; call; call = call->next)
            atomic_store(&call->cancelled, 1);
        client_close(c);
    }
    opfor__web_stop(s->web); /* after the sessions have let go of their connections */
    if (s->sigs_on) /* keep catching signals (a second one exits at once), but let uv_run end */
        for (int i = 0; i < 3; i++)
            uv_unref((uv_handle_t *)&s->sigs[i]);
}

void opfor_server_free(opfor_server_t *s) {
    if (!s)
        return;
    s->stopping = 1;
    close_listeners(s);
    while (s->clients)
        client_close(s->clients);
    opfor__web_free(s->web); /* runs the loop until lws is done with it */
    s->web = NULL;
    if (s->sigs_on) {
        for (int i = 0; i < 3; i++)
            server_close_handle(s, (uv_handle_t *)&s->sigs[i]);
        s->sigs_on = 0;
    }
    /* Joins the threads; their jobs' completions are posted and run just below. */
    opfor_workers_free(s->workers);
    s->workers = NULL;
    if (s->async_on) {
        run_posts(s);
        server_close_handle(s, (uv_handle_t *)&s->async);
        s->async_on = 0;
    }
    if (s->games_timer_on) {
        uv_timer_stop(&s->games_timer);
        server_close_handle(s, (uv_handle_t *)&s->games_timer);
        s->games_timer_on = 0;
    }
    opfor__games_free(s->games); /* after the jobs' completions: they hold games */
    s->games = NULL;
    /* Only until our own closes are done: the loop may hold other handles that stay open. With
     * closing handles pending, one iteration never blocks. */
    while (s->pending_closes > 0)
        uv_run(s->loop, UV_RUN_ONCE);
    opfor_store_close(s->store);
    unlock_state_dir(s); /* after the store: nothing of the directory is open any more */
    while (s->call_cache) {
        opfor_call_t *call = s->call_cache;
        s->call_cache = call->next;
        msgpack_sbuffer_destroy(&call->buf);
        free(call);
    }
    uv_mutex_destroy(&s->post_lock);
    free_model(s->model);
    free(s);
}
