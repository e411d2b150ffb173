/* tools/opfor/bench_rpc.c — `opfor bench rpc`: opford's calc throughput and latency.
 *
 *   opfor bench rpc [--clients N] [--requests M] [--pipeline D] [--threads T] [--runs R]
 *                   [--connect ADDR] [--no-pin] [--json]   (--socket PATH: the old name)
 * By default it starts its own opford (the binary next to this one) on a socket in a fresh
 * temporary directory. The load comes from one libuv loop per client thread holding N/T
 * connections, each keeping D calc requests in flight (D = 1: strict request-response), so the
 * client costs little next to the server. Request bytes are packed once per request kind and
 * only the id is patched; responses are framed with opfor_frame_scan() and matched by id
 * without decoding the result. Every run reports requests per second and the p50/p99 latency
 * of all its requests (send to full response); the median run of R is the answer. When it
 * spawns the daemon on a machine with two or more CPUs, the daemon is pinned to one CPU and the
 * client threads to the others (--no-pin turns this off): unpinned, the kernel keeps putting
 * the client and the daemon on the same core, where each wake-up preempts the other, and the
 * benchmark then measures that ping-pong rather than the daemon.
 */
#ifdef __linux__
#endif
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <msgpack.h>
#include <uv.h>

#include "bench_daemon.h"
#include "bench_stream.h"
#include "bench_util.h"
#include "cli.h"
#include "json_out.h"
#include "opfor/client.h"
#include "opfor/config.h"
#include "opfor/frame.h"
#include "opfor/rpc.h"

#define MAX_CLIENTS 1000
#define MAX_THREADS 16
#define MAX_PIPELINE 64
#define MAX_RUNS 9

/* The request mix: common calculator queries as `opfor calc` takes them. Each entry is
 * "action field value field value ...". */
static const char *const MIX[] = {
    "fire_rifle actor veteran target soldier cover soft range 20",
    "fire_rifle actor soldier target conscript range 30 moving yes",
    "fire_carbine actor soldier target veteran cover hard range 10",
    OPFOR_BENCH_CALC_CORE_QUERIES,
    "advance actor soldier terrain rough obstacles 1",
    "weather_event level 3 wind N",
};
#define MIX_N (sizeof MIX / sizeof MIX[0])

/* A packed request: bytes with a 4-byte big-endian id at offset ID_OFFSET. */
#define ID_OFFSET 3 /* 0x94, 0x00, 0xce, then the id */
typedef struct packed_req {
    char *bytes; /* the whole message */
    size_t len;  /* its length */
} packed_req_t;

typedef struct bench bench_t;
typedef struct worker worker_t;

typedef struct conn {
    uv_pipe_t pipe;                 /* Unix socket connection (pipe or tcp: see is_tcp) */
    uv_tcp_t tcp;                   /* TCP connection when --connect tcp:// */
    uv_connect_t connect_req;       /* the connect request */
    worker_t *w;                    /* owner */
    int is_tcp;                     /* which handle is in use */
    opfor_bench_inbuf_t in;         /* received bytes not yet framed */
    uint32_t next_id;               /* id of the next request */
    unsigned inflight;              /* requests awaiting a response */
    uint64_t sent_ns[MAX_PIPELINE]; /* send time per id % pipeline */
    int mix;                        /* next mix entry */
    int waiting;                    /* closed after a full listen queue: connect again */
} conn_t;

struct worker {
    bench_t *b;         /* shared settings */
    uv_loop_t loop;     /* this thread's loop */
    uv_thread_t thread; /* the thread */
    conn_t *conns;      /* its connections */
    int nconns;         /* how many */
    int connected;      /* connections established */
    long quota;         /* requests this worker sends per run */
    long sent, done;    /* this run: sent, answered */
    long errors;        /* error responses or broken frames */
    float *lat_us;      /* latency of each answered request this run */
    int failed;         /* a connection failed: message in b->err */
    int stop;           /* 1: close everything and leave */
    uv_timer_t retry;   /* connects again the connections the listen queue turned away */
    uint64_t give_up;   /* loop time (ms) after which a full listen queue is a failure */
    int is_tcp;         /* the daemon's address: TCP (peer) or a Unix socket (path) */
    struct sockaddr_storage peer;
    const char *path;
};

/* How long connections turned away by a full listen queue (the daemon has not accepted the
 * earlier ones yet) are tried again, and how often. */
#define CONNECT_RETRY_MS 10000
#define CONNECT_RETRY_EVERY_MS 5

struct bench {
    char addr[200]; /* where the daemon listens */
    int clients, threads, pipeline, runs, json;
    long requests;            /* per run, all clients together */
    packed_req_t reqs[MIX_N]; /* the mix, packed */
    worker_t w[MAX_THREADS];  /* client threads */
    uv_barrier_t start, end;  /* run boundaries */
    char err[600];            /* first failure */
    opfor_bench_daemon_t dm;  /* spawned opford (pid 0: none) */
    int pin;                  /* 1: pin the daemon and the clients to separate CPUs */
    int daemon_cpu;           /* the daemon's CPU when pinned, else -1 */
};

static uint64_t now_ns(void) {
    return uv_hrtime();
}

/* ------------------------------------------------------------------ CPU pinning */

/* ------------------------------------------------------------------ request packing */

/* Frees what pack_mix() built. */
static void free_mix(bench_t *b) {
    for (size_t i = 0; i < MIX_N; i++) {
        free(b->reqs[i].bytes);
        b->reqs[i].bytes = NULL;
    }
}

static int pack_mix(bench_t *b) {
    for (size_t i = 0; i < MIX_N; i++) {
        char buf[256], *save = NULL, *words[16];
        int n = 0;
        snprintf(buf, sizeof buf, "%s", MIX[i]);
        for (char *t = strtok_r(buf, " ", &save); t && n < 16; t = strtok_r(NULL, " ", &save))
            words[n++] = t;
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_array(&pk, 4);
        msgpack_pack_uint8(&pk, 0);
        /* A fixed-width id (0xce + 4 bytes) so each send only patches it. */
        static const char id_hdr[5] = {(char)0xce, 0, 0, 0, 0};
        msgpack_sbuffer_write(&sb, id_hdr, sizeof id_hdr);
        opfor_rpc_pack_cstr(&pk, "calc");
        msgpack_pack_array(&pk, 1);
        msgpack_pack_map(&pk, 2);
        opfor_rpc_pack_cstr(&pk, "action");
        opfor_rpc_pack_cstr(&pk, words[0]);
        opfor_rpc_pack_cstr(&pk, "fields");
        msgpack_pack_map(&pk, (size_t)(n - 1) / 2);
        for (int k = 1; k + 1 < n; k += 2) {
            opfor_rpc_pack_cstr(&pk, words[k]);
            opfor_rpc_pack_cstr(&pk, words[k + 1]);
        }
        b->reqs[i].len = sb.size;
        b->reqs[i].bytes = msgpack_sbuffer_release(&sb);
        if (!b->reqs[i].bytes)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ connections */

static uv_stream_t *conn_stream(conn_t *c) {
    return c->is_tcp ? (uv_stream_t *)&c->tcp : (uv_stream_t *)&c->pipe;
}

/* The error when the daemon hung up (%s: why). */
#define DAEMON_CLOSED                                                                              \
    "the daemon closed a connection: %s (opford drops the clients beyond its --max-clients, 1024 " \
    "unless set)"

static void fail_worker(worker_t *w, const char *fmt, const char *what) {
    if (!w->failed)
        snprintf(w->b->err, sizeof w->b->err, fmt, what);
    w->failed = 1;
    uv_stop(&w->loop);
}

/* Sends the next request of the mix on c. */
static void send_one(conn_t *c) {
    worker_t *w = c->w;
    const packed_req_t *r = &w->b->reqs[c->mix];
    c->mix = (c->mix + 1) % (int)MIX_N;
    char msg[512];
    memcpy(msg, r->bytes, r->len);
    uint32_t id = c->next_id++;
    msg[ID_OFFSET] = (char)(id >> 24);
    msg[ID_OFFSET + 1] = (char)(id >> 16);
    msg[ID_OFFSET + 2] = (char)(id >> 8);
    msg[ID_OFFSET + 3] = (char)id;
    c->sent_ns[id % (uint32_t)w->b->pipeline] = now_ns();
    c->inflight++;
    w->sent++;
    int n = opfor_bench_write(conn_stream(c), msg, r->len);
    if (n == UV_EPIPE || n == UV_ECONNRESET)
        fail_worker(w, DAEMON_CLOSED, uv_strerror(n));
    else if (n < 0)
        fail_worker(w, "write failed: %s", uv_strerror(n));
}

/* Reads a MessagePack unsigned integer at p (n bytes available); -1 when it is not one. */
static long long read_uint(const uint8_t *p, size_t n, size_t *used) {
    if (n < 1)
        return -1;
    if (p[0] <= 0x7f) {
        *used = 1;
        return p[0];
    }
    int bytes = p[0] == 0xcc ? 1 : p[0] == 0xcd ? 2 : p[0] == 0xce ? 4 : 0;
    if (!bytes || n < (size_t)bytes + 1)
        return -1;
    long long v = 0;
    for (int i = 1; i <= bytes; i++)
        v = (v << 8) | p[i];
    *used = (size_t)bytes + 1;
    return v;
}

static void handle_response(conn_t *c, const uint8_t *p, size_t len) {
    worker_t *w = c->w;
    size_t used = 0;
    long long id = len > 2 && p[0] == 0x94 && p[1] == 0x01 ? read_uint(p + 2, len - 2, &used) : -1;
    if (id < 0) {
        w->errors++;
        return;
    }
    if (p[2 + used] != 0xc0) /* error is not nil */
        w->errors++;
    uint64_t t = now_ns() - c->sent_ns[(uint32_t)id % (uint32_t)w->b->pipeline];
    if (w->done < w->quota)
        w->lat_us[w->done] = (float)((double)t / 1e3);
    w->done++;
    c->inflight--;
}

static void on_frame(void *arg, const uint8_t *p, size_t len) {
    handle_response(arg, p, len);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    (void)suggested;
    opfor_bench_inbuf_alloc(&((conn_t *)h->data)->in, buf);
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
    (void)buf;
    conn_t *c = s->data;
    worker_t *w = c->w;
    if (nread < 0) {
        if (!w->stop)
            fail_worker(w, DAEMON_CLOSED, uv_strerror((int)nread));
        return;
    }
    const char *why = NULL;
    if (opfor_bench_inbuf_frames(&c->in, (size_t)nread, on_frame, c, &why) != 0) {
        fail_worker(w, "bad frame from the daemon: %s", why);
        return;
    }
    /* Keep the pipeline full while this run still owes requests. */
    while (c->inflight < (unsigned)w->b->pipeline && w->sent < w->quota && !w->failed)
        send_one(c);
    if (w->done >= w->quota)
        uv_stop(&w->loop);
}

static void on_retry(uv_timer_t *t);

/* A connection closed after a full listen queue: connect it again shortly. */
static void on_closed_for_retry(uv_handle_t *h) {
    conn_t *c = h->data;
    if (c->w->failed || c->w->stop)
        return; /* closed for good */
    c->waiting = 1;
    if (!uv_is_active((uv_handle_t *)&c->w->retry))
        uv_timer_start(&c->w->retry, on_retry, CONNECT_RETRY_EVERY_MS, 0);
}

static void on_connect(uv_connect_t *req, int status) {
    conn_t *c = req->data;
    worker_t *w = c->w;
    if (status == UV_EAGAIN && uv_now(&w->loop) < w->give_up) {
        /* The daemon's queue of connections not yet accepted is full: many clients at once. */
        uv_close((uv_handle_t *)conn_stream(c), on_closed_for_retry);
        return;
    }
    if (status == UV_EAGAIN) {
        fail_worker(w,
                    "cannot connect: %s (the daemon's queue of new connections stayed full "
                    "for 10 s)",
                    uv_strerror(status));
        return;
    }
    if (status < 0) {
        fail_worker(w, "cannot connect: %s", uv_strerror(status));
        return;
    }
    uv_read_start(conn_stream(c), on_alloc, on_read);
    if (++w->connected == w->nconns)
        uv_stop(&w->loop);
}

/* Starts a run (or, once w->stop is set, closes the connections) on the worker's thread. */
static void kick(worker_t *w) {
    if (w->stop) {
        for (int i = 0; i < w->nconns; i++)
            if (!uv_is_closing((uv_handle_t *)conn_stream(&w->conns[i])))
                uv_close((uv_handle_t *)conn_stream(&w->conns[i]), NULL);
        uv_close((uv_handle_t *)&w->retry, NULL);
        return;
    }
    /* Start a run: every connection fills its pipeline. */
    for (int i = 0; i < w->nconns && w->sent < w->quota; i++)
        for (int k = 0; k < w->b->pipeline && w->sent < w->quota; k++)
            send_one(&w->conns[i]);
}

/* Opens connection c (again after a full listen queue) to the worker's daemon. */
static void start_connect(conn_t *c) {
    worker_t *w = c->w;
    c->connect_req.data = c;
    if (w->is_tcp) {
        uv_tcp_init(&w->loop, &c->tcp);
        c->tcp.data = c;
        uv_tcp_nodelay(&c->tcp, 1);
        uv_tcp_connect(&c->connect_req, &c->tcp, (struct sockaddr *)&w->peer, on_connect);
    } else {
        uv_pipe_init(&w->loop, &c->pipe, 0);
        c->pipe.data = c;
        uv_pipe_connect(&c->connect_req, &c->pipe, w->path, on_connect);
    }
}

static void on_retry(uv_timer_t *t) {
    worker_t *w = t->data;
    for (int i = 0; i < w->nconns; i++)
        if (w->conns[i].waiting) {
            w->conns[i].waiting = 0;
            start_connect(&w->conns[i]);
        }
}

static int open_conns(worker_t *w) {
    bench_t *b = w->b;
    int is_tcp = strncmp(b->addr, "tcp://", 6) == 0;
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    if (is_tcp) {
        opfor_listen_addr_t la;
        opfor_diag_t d;
        if (opfor_config_parse_listen(b->addr, &la, &d) < 0) {
            snprintf(b->err, sizeof b->err, "%s", d.msg);
            return -1;
        }
        if (la.ipv6)
            uv_ip6_addr(la.host, la.port, (struct sockaddr_in6 *)&ss);
        else
            uv_ip4_addr(la.host, la.port, (struct sockaddr_in *)&ss);
    }
    w->is_tcp = is_tcp;
    w->peer = ss;
    w->path = strncmp(b->addr, "unix:", 5) == 0 ? b->addr + 5 : b->addr;
    uv_timer_init(&w->loop, &w->retry);
    w->retry.data = w;
    uv_update_time(&w->loop);
    w->give_up = uv_now(&w->loop) + CONNECT_RETRY_MS;
    for (int i = 0; i < w->nconns; i++) {
        conn_t *c = &w->conns[i];
        c->w = w;
        c->is_tcp = is_tcp;
        c->next_id = 1;
        c->mix = i % (int)MIX_N;
        start_connect(c);
    }
    uv_run(&w->loop, UV_RUN_DEFAULT);
    uv_timer_stop(&w->retry);
    return w->failed ? -1 : 0;
}

/* One client thread: connect, then per run wait at the start barrier, run, wait at the end. */
static void worker_main(void *arg) {
    worker_t *w = arg;
    bench_t *b = w->b;
    if (b->daemon_cpu >= 0)
        opfor_bench_pin(-1, b->daemon_cpu); /* the clients keep off the daemon's CPU */
    int ok = open_conns(w) == 0;
    for (int run = 0; run < b->runs + 1; run++) { /* run 0 warms up */
        uv_barrier_wait(&b->start);
        w->sent = w->done = 0;
        if (ok && !w->failed) {
            kick(w);
            uv_run(&w->loop, UV_RUN_DEFAULT);
        }
        uv_barrier_wait(&b->end);
    }
    w->stop = 1;
    kick(w);
    uv_run(&w->loop, UV_RUN_DEFAULT);
}

/* ------------------------------------------------------------------ the daemon */

/* In the spawned daemon's process, before its exec: pinned to the chosen CPU. */
static void pin_daemon(void *arg) {
    opfor_bench_pin(*(const int *)arg, -1); /* inherited across exec */
}

static int spawn_daemon(bench_t *b) {
    char maxc[16], infl[16];
    snprintf(maxc, sizeof maxc, "%d", b->clients + 8);
    snprintf(infl, sizeof infl, "%d", b->pipeline > 8 ? b->pipeline : 8);
    const char *const args[] = {"--log-level", "warn", "--max-clients", maxc, "--max-inflight",
                                infl,          NULL};
    int rc = opfor_bench_daemon_start(&b->dm, "bench rpc", "bench", args, 0,
                                      b->daemon_cpu >= 0 ? pin_daemon : NULL, &b->daemon_cpu);
    if (rc == 0)
        snprintf(b->addr, sizeof b->addr, "%s", b->dm.addr);
    return rc;
}

static void stop_daemon(bench_t *b) {
    opfor_bench_daemon_stop(&b->dm);
}

/* ------------------------------------------------------------------ the command */

typedef struct run_result {
    double rps;             /* requests per second */
    double p50_ms, p99_ms;  /* latency percentiles */
    double p90_ms, p999_ms; /* two more, to show the shape of the tail */
    double max_ms;          /* worst latency */
    double server_cpu_us;   /* daemon CPU microseconds per request, or -1 */
    long errors;            /* error responses */
} run_result_t;

static int cmp_rps(const void *a, const void *b) {
    double x = ((const run_result_t *)a)->rps, y = ((const run_result_t *)b)->rps;
    return (x > y) - (x < y);
}

/* A number as text, for the option table's help ("1-" STR(MAX_CLIENTS)). */
#define STR_(x) #x
#define STR(x) STR_(x)

static void machine(char *buf, size_t size) {
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(buf, size, "%s %s, %ld cores", u.sysname, u.machine,
                 sysconf(_SC_NPROCESSORS_ONLN));
    else
        snprintf(buf, size, "unknown");
}

int opfor_bench_rpc(int argc, char **argv) {
    /* A daemon that drops a connection must make a write fail with EPIPE (reported), not
     * kill this process silently. */
    signal(SIGPIPE, SIG_IGN);
    bench_t *b = calloc(1, sizeof *b);
    if (!b)
        return opfor_cli_fail("bench rpc: out of memory");
    long clients = 50, requests = 200000, pipeline = 1, threads = 1, runs = 3;
    const char *addr = NULL;
    int rc = 0, pin = 1;
    const opfor_cli_opt_t opts[] = {
        {.name = "--clients",
         .type = OPFOR_CLI_WHOLE,
         .whole = &clients,
         .lo = 1,
         .hi = MAX_CLIENTS,
         .arg = "N",
         .help = "connections (1-" STR(MAX_CLIENTS) ", default 50)"},
        {.name = "--requests",
         .type = OPFOR_CLI_WHOLE,
         .whole = &requests,
         .lo = 100,
         .hi = 100000000,
         .arg = "M",
         .help = "requests per run, all connections together (100-100000000,\n"
                 "default 200000)"},
        {.name = "--pipeline",
         .type = OPFOR_CLI_WHOLE,
         .whole = &pipeline,
         .lo = 1,
         .hi = MAX_PIPELINE,
         .arg = "D",
         .help = "requests in flight per connection (1-" STR(MAX_PIPELINE) ", default 1)"},
        {.name = "--threads",
         .type = OPFOR_CLI_WHOLE,
         .whole = &threads,
         .lo = 1,
         .hi = MAX_THREADS,
         .arg = "T",
         .help = "client threads (1-" STR(MAX_THREADS) ", default 1)"},
        {.name = "--runs",
         .type = OPFOR_CLI_WHOLE,
         .whole = &runs,
         .lo = 1,
         .hi = MAX_RUNS,
         .arg = "R",
         .help = "measured runs (1-" STR(MAX_RUNS) ", default 3)"},
        {.name = "--connect",
         .alias = "--socket",
         .type = OPFOR_CLI_STRING,
         .string = &addr,
         .arg = "ADDR",
         .wants = "an address (unix:PATH, PATH or tcp://HOST:PORT)",
         .help = "use the daemon at unix:PATH, PATH or tcp://HOST:PORT"},
        {.name = "--no-pin",
         .type = OPFOR_CLI_NOFLAG,
         .flag = &pin,
         .help = "let the kernel place the spawned daemon and the clients"},
        {.name = "--json",
         .type = OPFOR_CLI_FLAG,
         .flag = &b->json,
         .help = "print one JSON document"},
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "bench rpc",
        .about = "Measures opford: N connections send calc requests (a fixed mix of common\n"
                 "calculator queries), each keeping D requests in flight, from T client threads.\n"
                 "Prints requests per second and the p50/p99 latency (send to full response) of\n"
                 "the median of R runs of M requests, after one warm-up run. Without --connect\n"
                 "it starts its own opford (next to this binary) on a temporary socket and also\n"
                 "reports the daemon's CPU time per request; with two or more CPUs it pins the\n"
                 "daemon to one CPU and the clients to the others (else the two keep preempting\n"
                 "each other on one core).",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc)) {
        free(b);
        return rc;
    }
    if (threads > clients)
        threads = clients;
    b->pin = pin;
    b->clients = (int)clients;
    b->threads = (int)threads;
    b->pipeline = (int)pipeline;
    b->runs = (int)runs;
    b->requests = requests;
    b->daemon_cpu = -1;
    if (pack_mix(b) < 0) {
        free_mix(b);
        free(b);
        return opfor_cli_fail("bench rpc: out of memory");
    }
    if (addr) {
        if (opfor_client_default_addr(addr, b->addr, sizeof b->addr) < 0) {
            free_mix(b);
            free(b);
            return opfor_cli_usage_error("bench rpc: address too long");
        }
        opfor_client_t *c;
        opfor_diag_t d;
        if (opfor_client_connect(&c, b->addr, 3000, &d) != 0) {
            free_mix(b);
            free(b);
            return opfor_cli_fail("bench rpc: %s", d.msg);
        }
        opfor_client_close(c);
    } else if ((b->daemon_cpu = b->pin ? opfor_bench_daemon_cpu() : -1),
               (rc = spawn_daemon(b)) != 0) {
        stop_daemon(b);
        free_mix(b);
        free(b);
        return rc;
    }

    run_result_t res[MAX_RUNS];
    uv_barrier_init(&b->start, (unsigned)b->threads + 1);
    uv_barrier_init(&b->end, (unsigned)b->threads + 1);
    for (int t = 0; t < b->threads; t++) {
        worker_t *w = &b->w[t];
        w->b = b;
        w->nconns = b->clients / b->threads + (t < b->clients % b->threads);
        w->quota = b->requests / b->threads + (t < b->requests % b->threads);
        w->conns = calloc((size_t)w->nconns, sizeof *w->conns);
        w->lat_us = malloc((size_t)w->quota * sizeof *w->lat_us);
        uv_loop_init(&w->loop);
        uv_thread_create(&w->thread, worker_main, w);
    }
    float *all = malloc((size_t)b->requests * sizeof *all);
    int failed = 0;
    for (int run = 0; run < b->runs + 1; run++) {
        double cpu0 = b->dm.pid ? opfor_bench_proc_cpu_seconds(b->dm.pid) : -1;
        uint64_t t0 = now_ns();
        uv_barrier_wait(&b->start);
        uv_barrier_wait(&b->end);
        double secs = (double)(now_ns() - t0) / 1e9;
        double cpu1 = b->dm.pid ? opfor_bench_proc_cpu_seconds(b->dm.pid) : -1;
        long done = 0, errors = 0;
        for (int t = 0; t < b->threads; t++) {
            failed |= b->w[t].failed;
            long n = b->w[t].done < b->w[t].quota ? b->w[t].done : b->w[t].quota;
            memcpy(all + done, b->w[t].lat_us, (size_t)n * sizeof *all);
            done += n;
            errors += b->w[t].errors;
            b->w[t].errors = 0;
        }
        if (failed || run == 0)
            continue;
        qsort(all, (size_t)done, sizeof *all, opfor_bench_cmp_float);
        run_result_t *r = &res[run - 1];
        r->rps = (double)done / secs;
        r->p50_ms = all[done / 2] / 1e3;
        r->p99_ms = all[(size_t)((double)done * 0.99)] / 1e3;
        r->p90_ms = all[(size_t)((double)done * 0.90)] / 1e3;
        r->p999_ms = all[(size_t)((double)done * 0.999)] / 1e3;
        r->max_ms = all[done - 1] / 1e3;
        r->server_cpu_us = cpu0 >= 0 && cpu1 >= 0 ? (cpu1 - cpu0) * 1e6 / (double)done : -1;
        r->errors = errors;
    }
    for (int t = 0; t < b->threads; t++) {
        uv_thread_join(&b->w[t].thread);
        uv_loop_close(&b->w[t].loop);
        for (int i = 0; i < b->w[t].nconns; i++)
            free(b->w[t].conns[i].in.in);
        free(b->w[t].conns);
        free(b->w[t].lat_us);
    }
    int spawned = b->dm.pid != 0;
    stop_daemon(b);
    free(all);
    uv_barrier_destroy(&b->start);
    uv_barrier_destroy(&b->end);
    free_mix(b);
    if (failed) {
        int r = opfor_cli_fail("bench rpc: %s", b->err);
        free(b);
        return r;
    }

    qsort(res, (size_t)b->runs, sizeof res[0], cmp_rps);
    const run_result_t *med = &res[b->runs / 2];
    char mach[256];
    machine(mach, sizeof mach);
    long errors = 0;
    for (int i = 0; i < b->runs; i++)
        errors += res[i].errors;
    if (b->json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "bench", "rpc");
        opfor_json_kv_str(&j, "method", "calc");
        opfor_json_kv_int(&j, "clients", b->clients);
        opfor_json_kv_int(&j, "pipeline", b->pipeline);
        opfor_json_kv_int(&j, "threads", b->threads);
        opfor_json_kv_int(&j, "requests_per_run", b->requests);
        opfor_json_kv_int(&j, "runs", b->runs);
        opfor_json_kv_str(&j, "daemon", spawned ? "spawned" : b->addr);
        opfor_json_key(&j, "daemon_cpu");
        if (b->daemon_cpu >= 0)
            opfor_json_int(&j, b->daemon_cpu);
        else
            opfor_json_null(&j);
        opfor_json_kv_num(&j, "requests_per_second", med->rps);
        opfor_json_kv_num(&j, "latency_p50_ms", med->p50_ms);
        opfor_json_kv_num(&j, "latency_p90_ms", med->p90_ms);
        opfor_json_kv_num(&j, "latency_p99_ms", med->p99_ms);
        opfor_json_kv_num(&j, "latency_p999_ms", med->p999_ms);
        opfor_json_kv_num(&j, "latency_max_ms", med->max_ms);
        opfor_json_key(&j, "server_cpu_us_per_request");
        if (med->server_cpu_us >= 0)
            opfor_json_num(&j, med->server_cpu_us);
        else
            opfor_json_null(&j);
        opfor_json_kv_int(&j, "error_responses", errors);
        opfor_json_key(&j, "all_runs_rps");
        opfor_json_arr_begin(&j);
        for (int i = 0; i < b->runs; i++)
            opfor_json_num(&j, res[i].rps);
        opfor_json_arr_end(&j);
        opfor_json_kv_str(&j, "machine", mach);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else {
        printf("opford calc RPC: %d clients, pipeline %d, %d client thread%s, %ld requests x %d "
               "runs (median)\n",
               b->clients, b->pipeline, b->threads, b->threads == 1 ? "" : "s", b->requests,
               b->runs);
        printf("  requests/s  %.0f\n", med->rps);
        printf("  latency     p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms\n",
               med->p50_ms, med->p90_ms, med->p99_ms, med->p999_ms, med->max_ms);
        if (med->server_cpu_us >= 0)
            printf("  daemon CPU  %.2f us per request\n", med->server_cpu_us);
        if (errors)
            printf("  error responses: %ld (the mix should have none)\n", errors);
        char pinned[64] = "";
        if (b->daemon_cpu >= 0)
            snprintf(pinned, sizeof pinned, ", pinned to CPU %d (clients on the others)",
                     b->daemon_cpu);
        printf("  daemon      %s%s; client and daemon share this machine (%s)\n",
               spawned ? "spawned next to this binary" : b->addr, pinned, mach);
    }
    free(b);
    return errors ? OPFOR_EXIT_FAIL : OPFOR_EXIT_OK;
}
