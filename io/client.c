/* io/client.c — the blocking MessagePack-RPC client (see opfor/client.h).
 *
 * The socket is non-blocking and every wait is a poll() against a deadline, so connect, send
 * and receive share one timeout rule. Incoming bytes accumulate in a growing buffer; each frame
 * is bounded by opfor_frame_scan() (with client-side limits larger than the server's, since
 * game states can be big) and then decoded by opfor_rpc_decode(). The last response's decoded
 * objects are kept in `reply` until the next call, which is what makes results caller-free.
 */
#include "opfor/client.h"

#include "diag_int.h"

#include "opfor/config.h"
#include "opfor/frame.h"
#include "opfor/rpc.h"
#include "opfor/server.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#define CLIENT_MAX_FRAME (64u << 20) /* replies (game states) may exceed the server's 1 MiB */
#define CLIENT_MAX_DEPTH 64

struct opfor_client {
    int fd;                         /* the socket, -1 once closed */
    int timeout_ms;                 /* per call; 0 = forever */
    uint32_t next_id;               /* id of the next request */
    uint8_t *in;                    /* received bytes not yet consumed */
    size_t in_len, in_cap;          /* bytes held, bytes allocated */
    msgpack_sbuffer out;            /* the request being sent */
    opfor_rpc_msg_t reply;          /* the last response (owns the result) */
    uint8_t *msg_buf;               /* bytes of the message being handled (msgpack-c points
                                       its strings into them) */
    size_t msg_cap;                 /* allocated size of msg_buf */
    uint8_t *reply_buf;             /* bytes of `reply`, kept until the next call */
    size_t reply_cap;               /* allocated size of reply_buf */
    opfor_client_notify_fn notify;  /* notification callback or NULL */
    void *notify_ud;                /* its argument */
    int err_code;                   /* server error code after OPFOR_CLIENT_REMOTE, else 0 */
    char err_msg[512];              /* the last failure, either side */
    char err_hint[64];              /* the error's hint code ("" none) */
    char last_words[300];           /* an `error` notification's message: why the server is
                                       closing, added to the failure when the close comes */
    const msgpack_object *err_args; /* the hint's args map (points into `reply`) or NULL */
    int api_level;                  /* from hello */
    char version[32];               /* from hello */
};

static int fail(opfor_client_t *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static const msgpack_object *map_get(const msgpack_object *m, const char *key);

static int fail(opfor_client_t *c, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err_msg, sizeof c->err_msg, fmt, ap);
    va_end(ap);
    c->err_code = 0;
    c->err_hint[0] = '\0';
    c->err_args = NULL;
    return code;
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds left until deadline (-1 = none) for poll(). */
static int left_ms(int64_t deadline) {
    if (deadline < 0)
        return -1;
    int64_t l = deadline - now_ms();
    return l < 0 ? 0 : (l > 1 << 30 ? 1 << 30 : (int)l);
}

int opfor_client_default_addr(const char *addr, char *buf, size_t size) {
    int n;
    if (addr && *addr) {
        n = snprintf(buf, size, "%s", addr);
    } else if (getenv("OPFOR_SOCKET") && *getenv("OPFOR_SOCKET")) {
        n = snprintf(buf, size, "%s", getenv("OPFOR_SOCKET"));
    } else {
        opfor_config_t def;
        opfor_config_defaults(&def);
        n = snprintf(buf, size, "unix:%s", def.socket);
    }
    return n >= 0 && (size_t)n < size ? 0 : OPFOR_ERANGE;
}

/* Waits for fd to become ready for events; 0, OPFOR_ETIMEDOUT or OPFOR_EIO. */
static int wait_fd(int fd, short events, int64_t deadline) {
    for (;;) {
        struct pollfd p = {fd, events, 0};
        int r = poll(&p, 1, left_ms(deadline));
        if (r > 0)
            return 0;
        if (r == 0)
            return OPFOR_ETIMEDOUT;
        if (errno != EINTR)
            return OPFOR_EIO;
    }
}

int opfor_client_connect(opfor_client_t **out, const char *addr, int timeout_ms, opfor_diag_t *d) {
    *out = NULL;
    char a[1100];
    if (opfor_client_default_addr(addr, a, sizeof a) < 0)
        return opfor__diag_msg(d, OPFOR_EINVAL, "address too long");
    struct sockaddr_storage ss;
    socklen_t slen;
    memset(&ss, 0, sizeof ss);
    int is_tcp = strncmp(a, "tcp://", 6) == 0;
    if (is_tcp) {
        opfor_listen_addr_t la;
        opfor_diag_t pd;
        opfor_diag_clear(&pd);
        if (opfor_config_parse_listen(a, &la, &pd) < 0) /* its "listen: " is the daemon's */
            return opfor__diag_msg(d, OPFOR_EINVAL, "%s",
                                   pd.msg + (strncmp(pd.msg, "listen: ", 8) == 0 ? 8 : 0));
        if (la.ipv6) {
            struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
            s6->sin6_family = AF_INET6;
            s6->sin6_port = htons((uint16_t)la.port);
            inet_pton(AF_INET6, la.host, &s6->sin6_addr);
            slen = sizeof *s6;
        } else {
            struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
            s4->sin_family = AF_INET;
            s4->sin_port = htons((uint16_t)la.port);
            inet_pton(AF_INET, la.host, &s4->sin_addr);
            slen = sizeof *s4;
        }
        if (la.port == 0)
            return opfor__diag_msg(d, OPFOR_EINVAL, "%s: port 0 cannot be connected to", a);
    } else {
        const char *path = strncmp(a, "unix:", 5) == 0 ? a + 5 : a;
        if (path == a && !strchr(a, '/'))
            return opfor__diag_msg(
                d, OPFOR_EINVAL,
                "'%s' is not an address: use unix:PATH, a path, or tcp://HOST:PORT", a);
        struct sockaddr_un *su = (struct sockaddr_un *)&ss;
        if (strlen(path) >= sizeof su->sun_path)
            return opfor__diag_msg(d, OPFOR_EINVAL, "%s: socket path too long", path);
        su->sun_family = AF_UNIX;
        memcpy(su->sun_path, path, strlen(path) + 1);
        slen = sizeof *su;
    }
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return opfor__diag_msg(d, OPFOR_EIO, "socket(): %s", strerror(errno));
    int64_t deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : OPFOR_CLIENT_TIMEOUT_DEFAULT_MS);
    int rc = connect(fd, (struct sockaddr *)&ss, slen);
    if (rc < 0 && (errno == EINPROGRESS || errno == EAGAIN)) {
        int w = wait_fd(fd, POLLOUT, deadline);
        if (w < 0) {
            close(fd);
            return opfor__diag_msg(d, w, "cannot connect to %s: %s", a,
                                   w == OPFOR_ETIMEDOUT ? "timed out" : "poll failed");
        }
        int soerr = 0;
        socklen_t sl = sizeof soerr;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
        errno = soerr;
        rc = soerr ? -1 : 0;
    }
    if (rc < 0) {
        int e = errno;
        close(fd);
        if (!is_tcp && (e == ENOENT || e == ECONNREFUSED))
            return opfor__diag_msg(d, e == ENOENT ? OPFOR_ENOENT : OPFOR_EIO,
                                   "cannot connect to %s: %s (is opford running?)", a, strerror(e));
        return opfor__diag_msg(d, OPFOR_EIO, "cannot connect to %s: %s", a, strerror(e));
    }
    if (is_tcp) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    opfor_client_t *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return opfor__diag_msg(d, OPFOR_ENOMEM, "out of memory");
    }
    c->fd = fd;
    c->timeout_ms = OPFOR_CLIENT_TIMEOUT_DEFAULT_MS;
    c->next_id = 1;
    msgpack_sbuffer_init(&c->out);
    msgpack_unpacked_init(&c->reply.unpacked);
    *out = c;
    return 0;
}

static void drop_connection(opfor_client_t *c) {
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

void opfor_client_close(opfor_client_t *c) {
    if (!c)
        return;
    drop_connection(c);
    opfor_rpc_msg_free(&c->reply);
    msgpack_sbuffer_destroy(&c->out);
    free(c->in);
    free(c->msg_buf);
    free(c->reply_buf);
    free(c);
}

void opfor_client_set_timeout(opfor_client_t *c, int timeout_ms) {
    c->timeout_ms = timeout_ms < 0 ? 0 : timeout_ms;
}

void opfor_client_on_notify(opfor_client_t *c, opfor_client_notify_fn fn, void *ud) {
    c->notify = fn;
    c->notify_ud = ud;
}

int opfor_client_api_level(const opfor_client_t *c) {
    return c->api_level;
}

const char *opfor_client_server_version(const opfor_client_t *c) {
    return c->version;
}

int opfor_client_error_code(const opfor_client_t *c) {
    return c->err_code;
}

const char *opfor_client_error_message(const opfor_client_t *c) {
    return c->err_msg;
}

const char *opfor_client_error_hint(const opfor_client_t *c) {
    return c->err_hint;
}

const msgpack_object *opfor_client_error_args(const opfor_client_t *c) {
    return c->err_hint[0] ? c->err_args : NULL;
}

const char *opfor_client_error_arg(const opfor_client_t *c, const char *key, char *buf, size_t n) {
    const msgpack_object *v = map_get(opfor_client_error_args(c), key);
    if (!v || n == 0)
        return NULL;
    switch (v->type) {
    case MSGPACK_OBJECT_STR:
        snprintf(buf, n, "%.*s", (int)v->via.str.size, v->via.str.ptr);
        return buf;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        snprintf(buf, n, "%llu", (unsigned long long)v->via.u64);
        return buf;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        snprintf(buf, n, "%lld", (long long)v->via.i64);
        return buf;
    case MSGPACK_OBJECT_BOOLEAN:
        snprintf(buf, n, "%s", v->via.boolean ? "true" : "false");
        return buf;
    default:
        return NULL;
    }
}

int opfor_client_fd(const opfor_client_t *c) {
    return c->fd;
}

static void catch_last_words(opfor_client_t *c);

static int send_all(opfor_client_t *c, const char *p, size_t n, int64_t deadline) {
    while (n > 0) {
        ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int rc = wait_fd(c->fd, POLLOUT, deadline);
            if (rc == OPFOR_ETIMEDOUT)
                return fail(c, rc, "timed out sending a request");
            if (rc < 0)
                return fail(c, rc, "poll failed");
            continue;
        }
        int e = errno;
        catch_last_words(c);
        drop_connection(c);
        if (c->last_words[0])
            return fail(c, OPFOR_EIO, "the server closed the connection: %s", c->last_words);
        return fail(c, OPFOR_EIO, "connection lost while sending: %s", strerror(e));
    }
    return 0;
}

/* Reads what is available (waiting until deadline for the first byte). 0, or a negative code. */
static int fill(opfor_client_t *c, int64_t deadline) {
    if (c->fd < 0)
        return fail(c, OPFOR_EIO, "not connected");
    if (c->in_cap - c->in_len < 16384) {
        size_t cap = c->in_cap ? c->in_cap * 2 : 65536;
        uint8_t *p = realloc(c->in, cap);
        if (!p)
            return fail(c, OPFOR_ENOMEM, "out of memory");
        c->in = p;
        c->in_cap = cap;
    }
    for (;;) {
        ssize_t r = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, 0);
        if (r > 0) {
            c->in_len += (size_t)r;
            return 0;
        }
        if (r == 0) {
            drop_connection(c);
            if (c->last_words[0])
                return fail(c, OPFOR_EIO, "the server closed the connection: %s", c->last_words);
            return fail(c, OPFOR_EIO, "the server closed the connection");
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            int rc = wait_fd(c->fd, POLLIN, deadline);
            if (rc == OPFOR_ETIMEDOUT)
                return fail(c, rc, "timed out waiting for the server");
            if (rc < 0)
                return fail(c, rc, "poll failed");
            continue;
        }
        int e = errno;
        drop_connection(c);
        if (c->last_words[0])
            return fail(c, OPFOR_EIO, "the server closed the connection: %s", c->last_words);
        return fail(c, OPFOR_EIO, "connection lost: %s", strerror(e));
    }
}

/* Takes the next complete message out of the buffer into *m. 1 when one was decoded, 0 when
 * more bytes are needed, negative on a protocol fault (the connection is then dropped). */
static int next_message(opfor_client_t *c, opfor_rpc_msg_t *m) {
    if (c->in_len == 0)
        return 0;
    opfor_frame_limits_t lim = {CLIENT_MAX_FRAME, CLIENT_MAX_DEPTH};
    opfor_frame_result_t r;
    opfor_frame_status_t st = opfor_frame_scan(c->in, c->in_len, &lim, &r);
    if (st == OPFOR_FRAME_NEED_MORE)
        return 0;
    if (st == OPFOR_FRAME_INVALID) {
        drop_connection(c);
        return fail(c, OPFOR_EPROTO, "the server sent an invalid frame: %s", r.reason);
    }
    /* msgpack-c's strings point into the frame, so the frame moves to its own buffer. */
    if (c->msg_cap < r.len) {
        uint8_t *p = realloc(c->msg_buf, r.len);
        if (!p)
            return fail(c, OPFOR_ENOMEM, "out of memory");
        c->msg_buf = p;
        c->msg_cap = r.len;
    }
    memcpy(c->msg_buf, c->in, r.len);
    memmove(c->in, c->in + r.len, c->in_len - r.len);
    c->in_len -= r.len;
    opfor_rpc_fault_t f;
    int rc = opfor_rpc_decode(m, c->msg_buf, r.len, &f);
    if (rc < 0 || m->kind == OPFOR_RPC_REQUEST) {
        opfor_rpc_msg_free(m);
        drop_connection(c);
        return fail(c, OPFOR_EPROTO, "the server sent an unusable message: %s",
                    rc < 0 ? f.message : "a request");
    }
    return 1;
}

static void deliver_notify(opfor_client_t *c, opfor_rpc_msg_t *m) {
    if (m->method_len == 5 && memcmp(m->method, "error", 5) == 0) {
        const msgpack_object *msg = map_get(m->params, "message");
        if (msg && msg->type == MSGPACK_OBJECT_STR)
            snprintf(c->last_words, sizeof c->last_words, "%.*s", (int)msg->via.str.size,
                     msg->via.str.ptr);
    }
    if (c->notify)
        c->notify(c->notify_ud, m->method, m->method_len, m->params);
}

/* After a send failed because the server had closed: reads what it sent before (without
 * waiting) in case its `error` notification said why. Notifications go to the callback as
 * usual; responses are stale by then and dropped. */
static void catch_last_words(opfor_client_t *c) {
    for (int i = 0; i < 64 && c->fd >= 0 && !c->last_words[0]; i++) {
        opfor_rpc_msg_t m;
        int rc = next_message(c, &m);
        if (rc < 0)
            return;
        if (rc == 0) {
            if (fill(c, now_ms()) < 0)
                return;
            continue;
        }
        if (m.kind == OPFOR_RPC_NOTIFY)
            deliver_notify(c, &m);
        opfor_rpc_msg_free(&m);
    }
}

/* The value under the string key in map m, or NULL. */
static const msgpack_object *map_get(const msgpack_object *m, const char *key) {
    size_t n = strlen(key);
    if (!m || m->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        const msgpack_object *k = &m->via.map.ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
            memcmp(k->via.str.ptr, key, n) == 0)
            return &m->via.map.ptr[i].val;
    }
    return NULL;
}

/* The optional third element {"hint": str, "args": map} into err_hint/err_args; anything else
 * there (a newer server's shape) is ignored. */
static void take_hint(opfor_client_t *c, const msgpack_object *h) {
    const msgpack_object *code = map_get(h, "hint");
    if (!code || code->type != MSGPACK_OBJECT_STR || code->via.str.size >= sizeof c->err_hint)
        return;
    memcpy(c->err_hint, code->via.str.ptr, code->via.str.size);
    c->err_hint[code->via.str.size] = '\0';
    const msgpack_object *args = map_get(h, "args");
    c->err_args = args && args->type == MSGPACK_OBJECT_MAP ? args : NULL;
}

/* Copies the [code, message, hint?] error object of a response into err_code/err_msg and the
 * hint. */
static void take_error(opfor_client_t *c, const msgpack_object *e) {
    c->err_code = OPFOR_RPC_E_INTERNAL;
    c->err_hint[0] = '\0';
    c->err_args = NULL;
    snprintf(c->err_msg, sizeof c->err_msg, "malformed error from the server");
    if (e->type != MSGPACK_OBJECT_ARRAY || e->via.array.size < 1)
        return;
    const msgpack_object *code = &e->via.array.ptr[0];
    if (code->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        c->err_code = (int)code->via.u64;
    else if (code->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        c->err_code = (int)code->via.i64;
    if (e->via.array.size >= 2 && e->via.array.ptr[1].type == MSGPACK_OBJECT_STR) {
        const msgpack_object_str *s = &e->via.array.ptr[1].via.str;
        snprintf(c->err_msg, sizeof c->err_msg, "%.*s", (int)s->size, s->ptr);
    } else {
        snprintf(c->err_msg, sizeof c->err_msg, "%s", opfor_rpc_err_message(c->err_code));
    }
    if (e->via.array.size >= 3)
        take_hint(c, &e->via.array.ptr[2]);
}

static void pack_empty(msgpack_packer *pk, void *ud) {
    (void)ud;
    msgpack_pack_map(pk, 0);
}

int opfor_client_call(opfor_client_t *c, const char *method, opfor_client_pack_fn pack, void *ud,
                      const msgpack_object **result) {
    if (result)
        *result = NULL;
    opfor_rpc_msg_free(&c->reply);
    msgpack_unpacked_init(&c->reply.unpacked);
    c->err_hint[0] = '\0';
    c->err_args = NULL; /* pointed into the reply just freed */
    if (c->fd < 0)
        return fail(c, OPFOR_EIO, "not connected");
    int64_t deadline = c->timeout_ms > 0 ? now_ms() + c->timeout_ms : -1;
    uint32_t id = c->next_id++;
    msgpack_sbuffer_clear(&c->out);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &c->out, msgpack_sbuffer_write);
    opfor_rpc_pack_request_begin(&pk, id, method);
    (pack ? pack : pack_empty)(&pk, ud);
    int rc = send_all(c, c->out.data, c->out.size, deadline);
    if (rc < 0)
        return rc;
    for (;;) {
        opfor_rpc_msg_t m;
        rc = next_message(c, &m);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            rc = fill(c, deadline);
            if (rc < 0)
                return rc;
            continue;
        }
        if (m.kind == OPFOR_RPC_NOTIFY) {
            deliver_notify(c, &m);
            opfor_rpc_msg_free(&m);
            continue;
        }
        if (m.id != id) { /* a late answer to a call that timed out */
            opfor_rpc_msg_free(&m);
            continue;
        }
        c->reply = m; /* keep its bytes too: swap the buffers */
        uint8_t *b = c->reply_buf;
        size_t cap = c->reply_cap;
        c->reply_buf = c->msg_buf;
        c->reply_cap = c->msg_cap;
        c->msg_buf = b;
        c->msg_cap = cap;
        if (m.error && m.error->type != MSGPACK_OBJECT_NIL) {
            take_error(c, m.error);
            return OPFOR_CLIENT_REMOTE;
        }
        c->err_code = 0;
        c->err_msg[0] = '\0';
        c->err_hint[0] = '\0';
        c->err_args = NULL;
        if (result)
            *result = m.result;
        return 0;
    }
}

int opfor_client_poll(opfor_client_t *c, int timeout_ms) {
    int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    int handled = 0;
    for (;;) {
        opfor_rpc_msg_t m;
        int rc = next_message(c, &m);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            if (m.kind == OPFOR_RPC_NOTIFY) {
                deliver_notify(c, &m);
                handled++;
            }
            opfor_rpc_msg_free(&m);
            continue;
        }
        if (handled > 0)
            return handled;
        rc = fill(c, deadline);
        if (rc == OPFOR_ETIMEDOUT)
            return handled;
        if (rc < 0)
            return rc;
    }
}

/* --- hello --- */

typedef struct hello_args {
    const char *name;  /* client name or NULL */
    const char *token; /* token or NULL */
} hello_args_t;

static void pack_hello(msgpack_packer *pk, void *ud) {
    const hello_args_t *h = ud;
    int n = 1 + (h->name && *h->name) + (h->token && *h->token);
    msgpack_pack_map(pk, (size_t)n);
    opfor_rpc_pack_cstr(pk, "api_level");
    msgpack_pack_int(pk, OPFOR_API_LEVEL);
    if (h->name && *h->name) {
        opfor_rpc_pack_cstr(pk, "client");
        opfor_rpc_pack_cstr(pk, h->name);
    }
    if (h->token && *h->token) {
        opfor_rpc_pack_cstr(pk, "token");
        opfor_rpc_pack_cstr(pk, h->token);
    }
}

int opfor_client_hello(opfor_client_t *c, const char *client_name, const char *token) {
    hello_args_t h = {client_name, token};
    const msgpack_object *res;
    int rc = opfor_client_call(c, "hello", pack_hello, &h, &res);
    if (rc != 0)
        return rc;
    if (res->type == MSGPACK_OBJECT_MAP) {
        const msgpack_object *v = opfor_rpc_params_get(res, "api_level");
        if (v && v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
            c->api_level = (int)v->via.u64;
        v = opfor_rpc_params_get(res, "version");
        if (v && v->type == MSGPACK_OBJECT_STR)
            snprintf(c->version, sizeof c->version, "%.*s", (int)v->via.str.size, v->via.str.ptr);
    }
    return 0;
}
