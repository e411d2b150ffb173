/* io/web.c — the table page's transport: libwebsockets on opford's own libuv loop.
 *
 * One lws context with the server's loop as its foreign loop (LWS_SERVER_OPTION_LIBUV), so the
 * page shares the thread, the timers and the games with every other client. One protocol serves
 * both kinds of connection: a plain GET gets one of the page's built-in files (io/web_files.c);
 * an upgrade to WebSocket becomes a session of server.c (opfor__server_web_open), whose binary
 * messages are MessagePack-RPC frames. The upgrade is refused when its Origin is not this page's
 * own address (a page from another site must not drive the daemon from a player's browser).
 * Messages to send wait in the connection's queue, each with the LWS_PRE headroom lws writes
 * its header into, and go out one per WRITEABLE callback.
 */
#include "web_int.h"

#include "diag_int.h"
#include "opfor/config.h"

#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HTTP_CHUNK 16384 /* bytes of a file written per WRITEABLE callback */

typedef struct outmsg {
    struct outmsg *next;
    size_t len;
    unsigned char buf[]; /* LWS_PRE bytes of headroom, then the message */
} outmsg_t;

struct opfor_web_conn {
    opfor_web_t *web;
    struct lws *wsi;
    opfor_peer_t *peer;           /* the session; NULL once it let go (or before it began) */
    int is_ws;                    /* 1 once upgraded to WebSocket */
    int close_after;              /* 1: close once the queue is empty */
    outmsg_t *head, *tail;        /* messages to write, oldest first */
    size_t queued;                /* their bytes */
    const opfor_web_file_t *file; /* HTTP: the file being sent */
    size_t sent;                  /* HTTP: its bytes written */
};

struct opfor_web {
    opfor_server_t *srv;
    struct lws_context *ctx;
    struct lws_vhost *vh;
    void *loops[1];  /* the server's loop, lent to lws */
    uv_loop_t *loop; /* the same */
    int port;
    int destroying; /* 1 once lws_context_destroy was called */
};

static void queue_free(opfor_web_conn_t *wc) {
    while (wc->head) {
        outmsg_t *m = wc->head;
        wc->head = m->next;
        free(m);
    }
    wc->tail = NULL;
    wc->queued = 0;
}

/* Writes one message at once when nothing is queued and the socket takes it now
 * (lws_send_pipe_choked: no partial write pending and the socket writable), which saves the
 * round of asking for WRITEABLE (a poll change each way and a loop turn) for each answer:
 * the usual case of a page awaiting its answer. 1 when written, 0 when it must be queued. */
static int write_now(opfor_web_conn_t *wc, const char *data, size_t len) {
    unsigned char stackbuf[LWS_PRE + 4096];
    if (wc->head || !wc->is_ws || len > sizeof stackbuf - LWS_PRE || lws_send_pipe_choked(wc->wsi))
        return 0;
    memcpy(stackbuf + LWS_PRE, data, len);
    if (lws_write(wc->wsi, stackbuf + LWS_PRE, len, LWS_WRITE_BINARY) < 0)
        opfor__web_close(wc);
    return 1; /* lws keeps any part the socket did not take and sends it first */
}

void opfor__web_send(opfor_web_conn_t *wc, const char *data, size_t len) {
    if (wc->close_after)
        return;
    if (write_now(wc, data, len))
        return;
    outmsg_t *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m) {
        opfor__web_close(wc);
        return;
    }
    m->next = NULL;
    m->len = len;
    memcpy(m->buf + LWS_PRE, data, len);
    if (wc->tail)
        wc->tail->next = m;
    else
        wc->head = m;
    wc->tail = m;
    wc->queued += len;
    lws_callback_on_writable(wc->wsi);
}

size_t opfor__web_queued(const opfor_web_conn_t *wc) {
    return wc->queued;
}

void opfor__web_close(opfor_web_conn_t *wc) {
    wc->peer = NULL;
    wc->close_after = 1;
    lws_callback_on_writable(wc->wsi);
}

/* The WebSocket upgrade's Origin must be this page's own: "http://" + the Host header. A client
 * that sends no Origin is not a browser (browsers always send it on an upgrade) and is let in,
 * as on the TCP socket. Returns 1 when allowed. */
static int origin_ok(struct lws *wsi) {
    char origin[256], host[256], want[272];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
        return 1;
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0 ||
        lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return 0;
    snprintf(want, sizeof want, "http://%s", host);
    return strcasecmp(origin, want) == 0;
}

static int serve_file(struct lws *wsi, opfor_web_conn_t *wc, const char *path) {
    unsigned char hdr[LWS_PRE + 1024], *start = hdr + LWS_PRE, *p = start,
                                       *end = hdr + sizeof hdr - 1;
    const opfor_web_file_t *f = opfor__web_file(path);
    if (!f) {
        lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, "no such page");
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    static const char csp[] = "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                              "object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
    if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, f->mime, *f->len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)"no-cache", 8, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"x-content-type-options:",
                                    (const unsigned char *)"nosniff", 7, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"content-security-policy:",
                                    (const unsigned char *)csp, (int)strlen(csp), &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    wc->file = f;
    wc->sent = 0;
    lws_callback_on_writable(wsi);
    return 0;
}

static int write_file(struct lws *wsi, opfor_web_conn_t *wc) {
    const opfor_web_file_t *f = wc->file;
    if (!f)
        return 0;
    unsigned char buf[LWS_PRE + HTTP_CHUNK];
    size_t n = *f->len - wc->sent;
    if (n > HTTP_CHUNK)
        n = HTTP_CHUNK;
    int final = wc->sent + n == *f->len;
    memcpy(buf + LWS_PRE, f->data + wc->sent, n);
    if (lws_write(wsi, buf + LWS_PRE, n, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < (int)n)
        return -1;
    wc->sent += n;
    if (!final) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    wc->file = NULL;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int write_queue(struct lws *wsi, opfor_web_conn_t *wc) {
    outmsg_t *m = wc->head;
    if (m) {
        wc->head = m->next;
        if (!wc->head)
            wc->tail = NULL;
        wc->queued -= m->len;
        int n = lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_BINARY);
        free(m);
        if (n < 0)
            return -1;
    }
    if (wc->head) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    return wc->close_after ? -1 : 0; /* -1: lws closes the connection */
}

static void describe(struct lws *wsi, char *out, size_t size) {
    char ip[64] = "?";
    lws_get_peer_simple(wsi, ip, sizeof ip);
    snprintf(out, size, "web %s", ip);
}

static int on_lws(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                  size_t len) {
    opfor_web_conn_t *wc = user;
    struct lws_vhost *vh = lws_get_vhost(wsi);
    opfor_web_t *w = vh ? lws_get_vhost_user(vh) : NULL;
    switch (reason) {
    case LWS_CALLBACK_HTTP:
        wc->web = w;
        wc->wsi = wsi;
        if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0) {
            lws_return_http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, "GET only");
            return -1;
        }
        return serve_file(wsi, wc, in ? (const char *)in : "/");
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return write_file(wsi, wc);
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return origin_ok(wsi) ? 0 : 1; /* nonzero refuses the upgrade */
    case LWS_CALLBACK_ESTABLISHED: {
        char name[80];
        memset(wc, 0, sizeof *wc);
        wc->web = w;
        wc->wsi = wsi;
        wc->is_ws = 1;
        describe(wsi, name, sizeof name);
        wc->peer = opfor__server_web_open(w->srv, wc, name);
        if (!wc->peer) { /* refused (told why) or the server is stopping */
            wc->close_after = 1;
            lws_callback_on_writable(wsi);
        }
        return 0;
    }
    case LWS_CALLBACK_RECEIVE:
        if (wc->peer)
            opfor__server_web_input(wc->peer, in, len, lws_is_first_fragment(wsi),
                                    lws_is_final_fragment(wsi), lws_frame_is_binary(wsi));
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return write_queue(wsi, wc);
    case LWS_CALLBACK_CLOSED: {
        opfor_peer_t *c = wc->peer;
        wc->peer = NULL;
        queue_free(wc);
        if (c)
            opfor__server_web_gone(c);
        return 0;
    }
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    {"opfor-rpc", on_lws, sizeof(opfor_web_conn_t), 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

int opfor__web_start(opfor_web_t **out, opfor_server_t *s, uv_loop_t *loop, const char *http,
                     int verbose, opfor_diag_t *d) {
    opfor_listen_addr_t a;
    int rc = opfor_config_parse_listen(http, &a, d);
    if (rc < 0)
        return rc;
    opfor_web_t *w = calloc(1, sizeof *w);
    if (!w)
        return opfor__diag_msg(d, OPFOR_ENOMEM, "out of memory");
    w->srv = s;
    w->loops[0] = loop;
    w->loop = loop;
    /* lws logs to stderr by itself; a library does not print, so only when asked (debug). */
    lws_set_log_level(verbose ? LLL_ERR | LLL_WARN : 0, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN |
                   LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
    info.foreign_loops = w->loops;
    info.count_threads = 1;
    info.uid = (uid_t)-1;
    info.gid = (gid_t)-1;
    info.pcontext = &w->ctx; /* lws clears it once its destruction has finished on our loop */
    w->ctx = lws_create_context(&info);
    if (!w->ctx) {
        free(w);
        return opfor__diag_msg(d, OPFOR_EIO,
                               "http: libwebsockets could not start on the daemon's loop (is "
                               "libwebsockets-evlib-uv installed?)");
    }
    memset(&info, 0, sizeof info);
    info.options = a.ipv6 ? 0 : LWS_SERVER_OPTION_DISABLE_IPV6;
    info.vhost_name = "opford";
    info.port = a.port; /* 0: the kernel picks one (lws_get_vhost_listen_port) */
    info.iface = a.host;
    info.protocols = protocols;
    info.user = w;
    info.keepalive_timeout = 30;
    w->vh = lws_create_vhost(w->ctx, &info);
    if (!w->vh) {
        lws_context_destroy(w->ctx);
        free(w);
        return opfor__diag_msg(d, OPFOR_EIO, "cannot serve %s (address in use?)", http);
    }
    w->port = lws_get_vhost_listen_port(w->vh);
    *out = w;
    return 0;
}

int opfor__web_port(const opfor_web_t *w) {
    return w->port;
}

void opfor__web_stop(opfor_web_t *w) {
    if (!w || w->destroying || !w->ctx)
        return;
    w->destroying = 1;
    lws_context_destroy(w->ctx); /* its handles close as the loop runs on */
}

void opfor__web_free(opfor_web_t *w) {
    if (!w)
        return;
    opfor__web_stop(w);
    /* With a foreign loop lws finishes in its handles' close callbacks; a second destroy call
     * completes whatever is left once the loop has let them go. */
    for (int i = 0; w->ctx && i < 100; i++)
        uv_run(w->loop, UV_RUN_NOWAIT);
    if (w->ctx)
        lws_context_destroy(w->ctx);
    free(w);
}
