/* tools/opfor/bench_web.c — `opfor bench web`: the table page's WebSocket path against the Unix
 * socket, in one run.
 *
 *   opfor bench web [--clients N] [--seconds S] [--runs R] [--connect ADDR --web URL]
 *                   [--no-pin] [--json]
 * N connections (50 by default) on each path send the same requests one at a time (ping and
 * one calc, alternately: cheap methods, so the transport is what is measured), for S seconds
 * per run; the runs alternate WebSocket and Unix socket so both see the same machine. The
 * WebSocket clients use libwebsockets' client API on its own poll loop (no framing of ours);
 * the Unix clients a libuv loop with opfor_frame_scan(). Each run reports requests per second
 * and the p50/p99 latency (send to full answer); the median run of R is the answer. Without
 * --connect it starts its own opford (next to this binary) with `--listen http://127.0.0.1:0`
 * and reads the page's port from the daemon's standard output; with two or more CPUs the
 * daemon is pinned to one CPU and this process to the others, as `opfor bench rpc` does.
 */
#ifdef __linux__
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <libwebsockets.h>
#include <msgpack.h>
#include <uv.h>

#include "bench_daemon.h"
#include "bench_stream.h"
#include "bench_util.h"
#include "cli.h"
#include "json_out.h"
#include "opfor/client.h"
#include "opfor/frame.h"
#include "opfor/rpc.h"

#define MAX_CLIENTS 200
#define MAX_RUNS 9
#define ID_OFFSET 3   /* requests start 0x94, 0x00, 0xce, then the 4-byte id */
#define IN_MAX 65536  /* the largest answer this benchmark expects (a calc is a few KiB) */
#define MSG_MAX 512   /* the largest request */
#define PORT_WAIT 500 /* tries, 10 ms apart, to read the page's port from the daemon */

/* The two requests, packed once: [0, id, "ping", []] and a calc (as `opfor bench rpc`). */
typedef struct packed {
    char bytes[MSG_MAX];
    size_t len;
} packed_t;

typedef struct samples {
    float *v;        /* latencies in microseconds */
    size_t n, cap;   /* held, allocated */
    long errors;     /* error answers or malformed ones */
    int oom;         /* an allocation failed */
    uint64_t t0, t1; /* the run's start and its last answer */
} samples_t;

typedef struct bench bench_t;

typedef struct wsconn {
    bench_t *b;
    struct lws *wsi;
    int established, busy;
    uint32_t next_id;
    uint64_t sent_ns;
    int mix;
    uint8_t in[IN_MAX];
    size_t in_len;
} wsconn_t;

typedef struct uxconn {
    bench_t *b;
    uv_pipe_t pipe;
    uv_connect_t creq;
    int busy;
    uint32_t next_id;
    uint64_t sent_ns;
    int mix;
    opfor_bench_inbuf_t in; /* received bytes not yet framed */
} uxconn_t;

struct bench {
    int clients, runs, json, pin, daemon_cpu;
    double seconds;
    packed_t req[2];
    char unix_path[200];     /* the daemon's Unix socket */
    char host[64];           /* the page's host ("127.0.0.1") */
    int port;                /* and port */
    opfor_bench_daemon_t dm; /* spawned opford (pid 0: none) */
    char err[300];           /* first failure */
    int failed;
    /* the run in progress */
    int running;     /* 1: answers are followed by the next request */
    uint64_t end_ns; /* no request is sent after this */
    int busy;        /* connections with a request in flight */
    samples_t *s;    /* where latencies go */
    /* WebSocket side */
    struct lws_context *ctx;
    wsconn_t *ws;
    int ws_up, ws_closed, ws_stopping;
    /* Unix side */
    uv_loop_t loop;
    uxconn_t *ux;
    int ux_up, ux_opened;
};

static void fail(bench_t *b, const char *what, const char *detail) {
    if (!b->failed)
        snprintf(b->err, sizeof b->err, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
    b->failed = 1;
}

static void pack_requests(bench_t *b) {
    for (int k = 0; k < 2; k++) {
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_array(&pk, 4);
        msgpack_pack_uint8(&pk, 0);
        static const char id_hdr[5] = {(char)0xce, 0, 0, 0, 0}; /* fixed width: patched */
        msgpack_sbuffer_write(&sb, id_hdr, sizeof id_hdr);
        if (k == 0) {
            opfor_rpc_pack_cstr(&pk, "ping");
            msgpack_pack_array(&pk, 0);
        } else {
            opfor_rpc_pack_cstr(&pk, "calc");
            msgpack_pack_array(&pk, 1);
            msgpack_pack_map(&pk, 2);
            opfor_rpc_pack_cstr(&pk, "action");
            opfor_rpc_pack_cstr(&pk, "fire_rifle");
            opfor_rpc_pack_cstr(&pk, "fields");
            msgpack_pack_map(&pk, 2);
            opfor_rpc_pack_cstr(&pk, "actor");
            opfor_rpc_pack_cstr(&pk, "veteran");
            opfor_rpc_pack_cstr(&pk, "range");
            opfor_rpc_pack_cstr(&pk, "20");
        }
        b->req[k].len = sb.size < MSG_MAX ? sb.size : 0;
        memcpy(b->req[k].bytes, sb.data, b->req[k].len);
        msgpack_sbuffer_destroy(&sb);
    }
}

/* The next request of a connection into out (MSG_MAX bytes); returns its length. */
static size_t next_request(bench_t *b, int *mix, uint32_t *next_id, char *out) {
    const packed_t *r = &b->req[*mix];
    *mix ^= 1;
    uint32_t id = (*next_id)++;
    memcpy(out, r->bytes, r->len);
    out[ID_OFFSET] = (char)(id >> 24);
    out[ID_OFFSET + 1] = (char)(id >> 16);
    out[ID_OFFSET + 2] = (char)(id >> 8);
    out[ID_OFFSET + 3] = (char)id;
    return r->len;
}

/* Records one answer (p, len) to a request sent at sent_ns. */
static void record(bench_t *b, const uint8_t *p, size_t len, uint64_t sent_ns) {
    samples_t *s = b->s;
    uint64_t now = uv_hrtime();
    /* [1, id, error, result]: an unsigned id (packed as small as it fits), then nil. */
    size_t idlen = len < 3        ? 0
                   : p[2] <= 0x7f ? 1
                   : p[2] == 0xcc ? 2
                   : p[2] == 0xcd ? 3
                   : p[2] == 0xce ? 5
                                  : 0;
    if (!idlen || len < 3 + idlen || p[0] != 0x94 || p[1] != 0x01 || p[2 + idlen] != 0xc0)
        s->errors++;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 65536;
        float *v = realloc(s->v, cap * sizeof *v);
        if (!v) {
            s->oom = 1;
            return;
        }
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = (float)((double)(now - sent_ns) / 1e3);
    s->t1 = now;
}

/* ------------------------------------------------------------------ WebSocket clients */

static void ws_ask(wsconn_t *c) {
    c->busy = 1;
    c->b->busy++;
    lws_callback_on_writable(c->wsi);
}

static int on_ws(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                 size_t len) {
    wsconn_t *c = user;
    bench_t *b = c ? c->b : NULL;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        if (b) {
            fail(b, "WebSocket connection failed", in ? (const char *)in : "no reason given");
            b->ws_closed++;
        }
        return 0;
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        c->established = 1;
        b->ws_up++;
        return 0;
    case LWS_CALLBACK_CLIENT_WRITEABLE: {
        if (!c->busy)
            return 0;
        unsigned char buf[LWS_PRE + MSG_MAX];
        size_t n = next_request(b, &c->mix, &c->next_id, (char *)buf + LWS_PRE);
        c->sent_ns = uv_hrtime();
        if (lws_write(wsi, buf + LWS_PRE, n, LWS_WRITE_BINARY) < (int)n) {
            fail(b, "WebSocket write failed", NULL);
            return -1;
        }
        return 0;
    }
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (c->in_len + len > IN_MAX) {
            fail(b, "an answer over 64 KiB", NULL);
            return -1;
        }
        memcpy(c->in + c->in_len, in, len);
        c->in_len += len;
        if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
            return 0;
        record(b, c->in, c->in_len, c->sent_ns);
        c->in_len = 0;
        if (c->busy) {
            c->busy = 0;
            b->busy--;
        }
        if (b->running && uv_hrtime() < b->end_ns)
            ws_ask(c);
        return 0;
    case LWS_CALLBACK_CLIENT_CLOSED:
        if (b) {
            if (!b->ws_stopping)
                fail(b, "the daemon closed a WebSocket", NULL);
            b->ws_closed++;
        }
        return 0;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols ws_protocols[] = {
    {"bench", on_ws, 0, IN_MAX, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* Connects b->clients WebSockets to the page. Returns 0 or -1 (b->err). */
static int ws_open(bench_t *b) {
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = ws_protocols;
    info.uid = (uid_t)-1;
    info.gid = (gid_t)-1;
    lws_set_log_level(0, NULL); /* failures are reported by this command, not lws */
    b->ctx = lws_create_context(&info);
    if (!b->ctx) {
        fail(b, "libwebsockets could not start a client", NULL);
        return -1;
    }
    char hosthdr[96];
    snprintf(hosthdr, sizeof hosthdr, "%s:%d", b->host, b->port);
    for (int i = 0; i < b->clients; i++) {
        wsconn_t *c = &b->ws[i];
        c->b = b;
        c->next_id = 1;
        c->mix = i & 1;
        struct lws_client_connect_info ci;
        memset(&ci, 0, sizeof ci);
        ci.context = b->ctx;
        ci.address = b->host;
        ci.port = b->port;
        ci.path = "/";
        ci.host = hosthdr;
        ci.ietf_version_or_minus_one = -1;
        ci.userdata = c;
        ci.pwsi = &c->wsi;
        if (!lws_client_connect_via_info(&ci)) {
            fail(b, "cannot start a WebSocket connection", hosthdr);
            return -1;
        }
    }
    uint64_t give_up = uv_hrtime() + 10000000000ull;
    while (!b->failed && b->ws_up < b->clients && uv_hrtime() < give_up)
        lws_service(b->ctx, 0);
    if (!b->failed && b->ws_up < b->clients)
        fail(b, "the WebSockets did not all connect within 10 s", NULL);
    return b->failed ? -1 : 0;
}

static void ws_run(bench_t *b) {
    for (int i = 0; i < b->clients; i++)
        ws_ask(&b->ws[i]);
    while (!b->failed && b->busy > 0)
        lws_service(b->ctx, 0);
}

static void ws_close(bench_t *b) {
    if (!b->ctx)
        return;
    b->ws_stopping = 1;
    lws_context_destroy(b->ctx);
    b->ctx = NULL;
}

/* ------------------------------------------------------------------ Unix socket clients */

static void ux_ask(uxconn_t *c) {
    bench_t *b = c->b;
    char msg[MSG_MAX];
    size_t n = next_request(b, &c->mix, &c->next_id, msg);
    c->busy = 1;
    b->busy++;
    c->sent_ns = uv_hrtime();
    int w = opfor_bench_write((uv_stream_t *)&c->pipe, msg, n);
    if (w < 0) {
        fail(b, "Unix socket write failed", uv_strerror(w));
        uv_stop(&b->loop);
    }
}

static void on_ux_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    (void)suggested;
    opfor_bench_inbuf_alloc(&((uxconn_t *)h->data)->in, buf);
}

/* One answer on a Unix connection: counted, and the next request while the run lasts. */
static void on_ux_frame(void *arg, const uint8_t *p, size_t len) {
    uxconn_t *c = arg;
    bench_t *b = c->b;
    record(b, p, len, c->sent_ns);
    if (c->busy) {
        c->busy = 0;
        b->busy--;
    }
    if (b->running && uv_hrtime() < b->end_ns && !b->failed)
        ux_ask(c);
}

static void on_ux_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
    (void)buf;
    uxconn_t *c = s->data;
    bench_t *b = c->b;
    if (nread < 0) {
        fail(b, "the daemon closed a Unix socket", uv_strerror((int)nread));
        uv_stop(&b->loop);
        return;
    }
    const char *why = NULL;
    if (opfor_bench_inbuf_frames(&c->in, (size_t)nread, on_ux_frame, c, &why) != 0) {
        fail(b, "bad frame from the daemon", why);
        uv_stop(&b->loop);
        return;
    }
    if (b->busy == 0)
        uv_stop(&b->loop);
}

static void on_ux_connect(uv_connect_t *req, int status) {
    uxconn_t *c = req->data;
    bench_t *b = c->b;
    if (status < 0) {
        fail(b, "cannot connect to the Unix socket", uv_strerror(status));
        uv_stop(&b->loop);
        return;
    }
    uv_read_start((uv_stream_t *)&c->pipe, on_ux_alloc, on_ux_read);
    if (++b->ux_up == b->clients)
        uv_stop(&b->loop);
}

static int ux_open(bench_t *b) {
    uv_loop_init(&b->loop);
    b->ux_opened = 1;
    for (int i = 0; i < b->clients; i++) {
        uxconn_t *c = &b->ux[i];
        c->b = b;
        c->next_id = 1;
        c->mix = i & 1;
        uv_pipe_init(&b->loop, &c->pipe, 0);
        c->pipe.data = c;
        c->creq.data = c;
        uv_pipe_connect(&c->creq, &c->pipe, b->unix_path, on_ux_connect);
    }
    uv_run(&b->loop, UV_RUN_DEFAULT);
    if (!b->failed && b->ux_up < b->clients)
        fail(b, "the Unix sockets did not all connect", NULL);
    return b->failed ? -1 : 0;
}

static void ux_run(bench_t *b) {
    for (int i = 0; i < b->clients && !b->failed; i++)
        ux_ask(&b->ux[i]);
    if (!b->failed)
        uv_run(&b->loop, UV_RUN_DEFAULT);
}

static void ux_close(bench_t *b) {
    for (int i = 0; i < b->clients; i++)
        if (b->ux[i].b && !uv_is_closing((uv_handle_t *)&b->ux[i].pipe))
            uv_close((uv_handle_t *)&b->ux[i].pipe, NULL);
    uv_run(&b->loop, UV_RUN_DEFAULT);
    uv_loop_close(&b->loop);
    for (int i = 0; i < b->clients; i++)
        free(b->ux[i].in.in);
}

/* ------------------------------------------------------------------ the daemon */

/* In the daemon's process before its exec: its standard output (where it prints the page's
 * address) into DIR/stdout, and pinned to its CPU. */
static void daemon_child(void *arg) {
    bench_t *b = arg;
    char path[128];
    snprintf(path, sizeof path, "%s/stdout", b->dm.dir);
    if (!freopen(path, "w", stdout))
        _exit(127);
    if (b->daemon_cpu >= 0)
        opfor_bench_pin(b->daemon_cpu, -1);
}

/* Reads "table page at http://HOST:PORT/" from the daemon's standard output. */
static int read_port(bench_t *b) {
    char path[128], line[300];
    snprintf(path, sizeof path, "%s/stdout", b->dm.dir);
    for (int i = 0; i < PORT_WAIT; i++) {
        FILE *f = fopen(path, "r");
        while (f && fgets(line, sizeof line, f)) {
            const char *p = strstr(line, "table page at http://");
            if (p && sscanf(p + 21, "%63[^:]:%d", b->host, &b->port) == 2) {
                fclose(f);
                return 0;
            }
        }
        if (f)
            fclose(f);
        uv_sleep(10);
    }
    return -1;
}

static int spawn_daemon(bench_t *b) {
    char maxc[16];
    snprintf(maxc, sizeof maxc, "%d", 2 * b->clients + 8);
    const char *const args[] = {"--log-level",        "warn", "--max-clients", maxc, "--listen",
                                "http://127.0.0.1:0", NULL};
    int rc = opfor_bench_daemon_start(&b->dm, "bench web", "bench", args, 0, daemon_child, b);
    if (rc != 0)
        return rc;
    snprintf(b->unix_path, sizeof b->unix_path, "%s", b->dm.addr + 5); /* after "unix:" */
    if (read_port(b) < 0)
        return opfor_cli_fail("bench web: opford printed no table page address within 5 s");
    return 0;
}

/* Stops the daemon and removes its folder, with the two files opfor_bench_daemon_stop() does
 * not know: the daemon's standard output and the page's tokens (STATE_DIR/web-tokens). */
static void stop_daemon(bench_t *b) {
    char dir[sizeof b->dm.dir], path[sizeof dir + 32];
    snprintf(dir, sizeof dir, "%s", b->dm.dir);
    opfor_bench_daemon_stop(&b->dm); /* the folder stays: it still holds the two files */
    if (!dir[0])
        return;
    static const char *const extra[] = {"stdout", "state/web-tokens", "state", ""};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, extra[i]);
        if (remove(path) != 0 && errno != ENOENT)
            break;
    }
}

/* ------------------------------------------------------------------ the command */

typedef struct result {
    double rps, p50_ms, p99_ms;
    double cpu_us; /* the spawned daemon's CPU time per request, or -1 */
    long errors;
} result_t;

static int cmp_rps(const void *x, const void *y) {
    double a = ((const result_t *)x)->rps, c = ((const result_t *)y)->rps;
    return (a > c) - (a < c);
}

/* One run of one path: S seconds of requests, then the figures. */
static int measure(bench_t *b, int web, result_t *out) {
    samples_t s = {0};
    b->s = &s;
    b->running = 1;
    double cpu0 = b->dm.pid ? opfor_bench_proc_cpu_seconds(b->dm.pid) : -1;
    s.t0 = uv_hrtime();
    b->end_ns = s.t0 + (uint64_t)(b->seconds * 1e9);
    if (web)
        ws_run(b);
    else
        ux_run(b);
    b->running = 0;
    b->s = NULL;
    double cpu1 = b->dm.pid ? opfor_bench_proc_cpu_seconds(b->dm.pid) : -1;
    if (s.oom)
        fail(b, "out of memory", NULL);
    if (!b->failed && s.n == 0)
        fail(b, "no answers", NULL);
    if (!b->failed) {
        qsort(s.v, s.n, sizeof *s.v, opfor_bench_cmp_float);
        out->rps = (double)s.n / ((double)(s.t1 - s.t0) / 1e9);
        out->p50_ms = s.v[s.n / 2] / 1e3;
        out->p99_ms = s.v[(size_t)((double)s.n * 0.99)] / 1e3;
        out->errors = s.errors;
        out->cpu_us = cpu0 >= 0 && cpu1 >= 0 ? (cpu1 - cpu0) * 1e6 / (double)s.n : -1;
    }
    free(s.v);
    return b->failed ? -1 : 0;
}

static void json_side(opfor_json_t *j, const char *key, result_t *r, int runs) {
    opfor_json_key(j, key);
    opfor_json_obj_begin(j);
    opfor_json_kv_num(j, "requests_per_second", r[runs / 2].rps);
    opfor_json_kv_num(j, "latency_p50_ms", r[runs / 2].p50_ms);
    opfor_json_kv_num(j, "latency_p99_ms", r[runs / 2].p99_ms);
    opfor_json_key(j, "daemon_cpu_us_per_request");
    if (r[runs / 2].cpu_us >= 0)
        opfor_json_num(j, r[runs / 2].cpu_us);
    else
        opfor_json_null(j);
    long errors = 0;
    for (int i = 0; i < runs; i++)
        errors += r[i].errors;
    opfor_json_kv_int(j, "error_responses", errors);
    opfor_json_key(j, "all_runs_rps");
    opfor_json_arr_begin(j);
    for (int i = 0; i < runs; i++)
        opfor_json_num(j, r[i].rps);
    opfor_json_arr_end(j);
    opfor_json_obj_end(j);
}

#define STR_(x) #x
#define STR(x) STR_(x)

int opfor_bench_web(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    bench_t *b = calloc(1, sizeof *b);
    if (!b)
        return opfor_cli_fail("bench web: out of memory");
    long clients = 50, runs = 3;
    double seconds = 2;
    const char *connect = NULL, *web = NULL;
    int rc = 0, pin = 1;
    const opfor_cli_opt_t opts[] = {
        {.name = "--clients",
         .type = OPFOR_CLI_WHOLE,
         .whole = &clients,
         .lo = 1,
         .hi = MAX_CLIENTS,
         .arg = "N",
         .help = "connections on each path (1-" STR(MAX_CLIENTS) ", default 50)"},
        OPFOR_BENCH_SECONDS_OPT(&seconds, "seconds per run and path (default 2)"),
        {.name = "--runs",
         .type = OPFOR_CLI_WHOLE,
         .whole = &runs,
         .lo = 1,
         .hi = MAX_RUNS,
         .arg = "R",
         .help = "measured runs (1-" STR(MAX_RUNS) ", default 3)"},
        {.name = "--connect",
         .type = OPFOR_CLI_STRING,
         .string = &connect,
         .arg = "ADDR",
         .wants = "a Unix socket (unix:PATH or PATH)",
         .help = "use the daemon at this Unix socket (with --web)"},
        {.name = "--web",
         .type = OPFOR_CLI_STRING,
         .string = &web,
         .arg = "URL",
         .wants = "the page's address (http://HOST:PORT/)",
         .help = "and its table page at http://HOST:PORT/ (loopback: no token)"},
        {.name = "--no-pin",
         .type = OPFOR_CLI_NOFLAG,
         .flag = &pin,
         .help = "let the kernel place the spawned daemon and this process"},
        {.name = "--json",
         .type = OPFOR_CLI_FLAG,
         .flag = &b->json,
         .help = "print one JSON document"},
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "bench web",
        .about = "Measures the table page's WebSocket path beside the Unix socket: N connections\n"
                 "on each send ping and a calc alternately, one request at a time, for S seconds\n"
                 "per run; runs alternate the two paths. Prints requests per second and the\n"
                 "p50/p99 latency of the median of R runs (after one warm-up run of each), and\n"
                 "the WebSocket's share of the Unix socket's rate (issue 19 asks for at least\n"
                 "half). Without --connect it starts its own opford with the page on a port the\n"
                 "kernel picks.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc)) {
        free(b);
        return rc;
    }
    if ((connect == NULL) != (web == NULL)) {
        free(b);
        return opfor_cli_usage_error("bench web: --connect and --web go together");
    }
    b->clients = (int)clients;
    b->runs = (int)runs;
    b->seconds = seconds;
    b->pin = pin;
    b->daemon_cpu = -1;
    pack_requests(b);
    if (connect) {
        const char *p = strncmp(connect, "unix:", 5) == 0 ? connect + 5 : connect;
        snprintf(b->unix_path, sizeof b->unix_path, "%s", p);
        if (sscanf(web, "http://%63[^:/]:%d", b->host, &b->port) != 2) {
            free(b);
            return opfor_cli_usage_error("bench web: --web wants http://HOST:PORT/");
        }
    } else {
        b->daemon_cpu = pin ? opfor_bench_daemon_cpu() : -1;
        if ((rc = spawn_daemon(b)) != 0) {
            stop_daemon(b);
            free(b);
            return rc;
        }
        if (b->daemon_cpu >= 0)
            opfor_bench_pin(-1, b->daemon_cpu);
    }
    b->ws = calloc((size_t)b->clients, sizeof *b->ws);
    b->ux = calloc((size_t)b->clients, sizeof *b->ux);
    result_t wr[MAX_RUNS], ur[MAX_RUNS], warm;
    int ok = b->ws && b->ux && ws_open(b) == 0 && ux_open(b) == 0;
    for (int run = 0; ok && run < b->runs + 1; run++) /* run 0 warms both up */
        ok = measure(b, 1, run ? &wr[run - 1] : &warm) == 0 &&
             measure(b, 0, run ? &ur[run - 1] : &warm) == 0;
    ws_close(b);
    if (b->ux_opened)
        ux_close(b);
    int spawned = b->dm.pid != 0;
    stop_daemon(b);
    free(b->ws);
    free(b->ux);
    if (!ok) {
        int r = opfor_cli_fail("bench web: %s", b->failed ? b->err : "out of memory");
        free(b);
        return r;
    }
    qsort(wr, (size_t)b->runs, sizeof *wr, cmp_rps);
    qsort(ur, (size_t)b->runs, sizeof *ur, cmp_rps);
    const result_t *w = &wr[b->runs / 2], *u = &ur[b->runs / 2];
    double ratio = w->rps / u->rps;
    long errors = 0;
    for (int i = 0; i < b->runs; i++)
        errors += wr[i].errors + ur[i].errors;
    opfor_bench_host_t host;
    opfor_bench_host(&host);
    if (b->json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "bench", "web");
        opfor_json_kv_str(&j, "method", "ping and calc, alternately");
        opfor_json_kv_int(&j, "clients", b->clients);
        opfor_json_kv_num(&j, "seconds_per_run", b->seconds);
        opfor_json_kv_int(&j, "runs", b->runs);
        opfor_json_kv_str(&j, "daemon", spawned ? "spawned" : b->unix_path);
        opfor_json_key(&j, "daemon_cpu");
        if (b->daemon_cpu >= 0)
            opfor_json_int(&j, b->daemon_cpu);
        else
            opfor_json_null(&j);
        json_side(&j, "websocket", wr, b->runs);
        json_side(&j, "unix", ur, b->runs);
        opfor_json_kv_num(&j, "websocket_share_of_unix", ratio);
        opfor_json_kv_bool(&j, "at_least_half", ratio >= 0.5);
        opfor_json_kv_str(&j, "machine", host.machine);
        opfor_json_kv_str(&j, "cpu", host.cpu);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else {
        printf("opford ping and calc: %d clients on each path, one request at a time, %g s x %d "
               "runs (median)\n",
               b->clients, b->seconds, b->runs);
        for (int k = 0; k < 2; k++) {
            const result_t *r = k ? u : w;
            printf("  %-11s  %8.0f requests/s, p50 %.3f ms, p99 %.3f ms",
                   k ? "Unix socket" : "WebSocket", r->rps, r->p50_ms, r->p99_ms);
            if (r->cpu_us >= 0)
                printf(", daemon CPU %.1f us per request", r->cpu_us);
            printf("\n");
        }
        printf("  WebSocket / Unix socket: %.2f (%s half)\n", ratio,
               ratio >= 0.5 ? "at least" : "under");
        if (errors)
            printf("  error responses: %ld (there should be none)\n", errors);
        printf("  daemon       %s%s; %s, %s\n",
               spawned ? "spawned next to this binary" : b->unix_path,
               b->daemon_cpu >= 0 ? ", pinned to one CPU (this process on the others)" : "",
               host.machine, host.cpu);
    }
    free(b);
    return errors ? OPFOR_EXIT_FAIL : OPFOR_EXIT_OK;
}
