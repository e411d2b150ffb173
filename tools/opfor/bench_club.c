/* tools/opfor/bench_club.c — `opfor bench club`: opford serving a club's tables at once.
 *
 *   opfor bench club [--games G] [--pace S] [--duration S] [--burst B] [--solo N] [--seed S]
 *                    [--level L] [--ruleset R] [--workers N] [--connect ADDR] [--json]
 * Three measures of AI decision time (the `ai.orders` call, send to answer), side by side:
 * solo, one decision at a time on an idle daemon, in the games the club tables will play (the
 * same seeds, as many decisions each as a club table makes), so both see the same positions
 * (median, p95); club pace, G games each asking at random (exponential) arrivals averaging one
 * every S seconds, for the duration (p95, held against twice the solo p95); and a burst of B
 * decisions sent at once, half of them by one client for many games on one connection (sent
 * 5 ms first) and the rest by one client per game: every one must be answered, every
 * single-game client before the flood's last answer (none starved behind it), and the last
 * within the bound docs/protocol.md
 * states. Between decisions each game is played on like a table would (untimed): the
 * ruleset's press method (from hello's ruleset_info), a unit of the players acting, the order
 * resolved by the daemon; or, in a game of turns, the table's first legal action and the dice.
 * By default it starts its own opford (next to this binary) in a temporary directory, with
 * the daemon's default workers. Progress goes to stderr. Exit 1 when a decision went
 * unanswered or the burst was unfair; the timing targets are reported, not enforced.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <msgpack.h>
#include <uv.h>

#include "bench_daemon.h"
#include "bench_util.h"
#include "cli.h"
#include "game_rpc.h"
#include "json_out.h"
#include "opfor/client.h"
#include "opfor/rng.h"
#include "opfor/rpc.h"

#define MAX_GAMES 1000
#define MAX_BURST 1000
#define CALL_TIMEOUT_MS 120000 /* a decision under the heaviest burst answers well within this */
#define MAX_STEPS 400          /* table steps to bring a game to the AI's turn, at most */
#define FLOOD_LEAD_MS 5        /* the burst's flood goes this long before the single clients */

/* The settings and what every thread shares. */
typedef struct club {
    char addr[200];          /* the daemon */
    opfor_bench_daemon_t dm; /* the spawned daemon (dir "": none) */
    const char *level;       /* game.new's level */
    const char *ruleset;     /* game.new's ruleset, or NULL: the daemon's default */
    char press[72];          /* the game's press method ("RULESET.VERB"), or "" */
    long seed;               /* games and arrivals */
    double pace_s;           /* mean seconds between one game's decisions */
    double duration_s;       /* club phase length */
    double t0_ms;            /* club phase start (monotonic ms) */
    atomic_long club_done;   /* club decisions answered so far (progress) */
    atomic_int failed;       /* 1 once a call failed */
    char err[400];           /* the first failure */
    uv_mutex_t err_lock;     /* guards err */
} club_t;

static void fail(club_t *b, const char *fmt, const char *a, const char *m) {
    uv_mutex_lock(&b->err_lock);
    if (!atomic_load(&b->failed))
        snprintf(b->err, sizeof b->err, fmt, a, m);
    atomic_store(&b->failed, 1);
    uv_mutex_unlock(&b->err_lock);
}

/* ------------------------------------------------------------------ params */

/* A request's params: up to four keys with a string, an integer or a boolean each. */
typedef struct kv {
    const char *key[4];
    const char *str[4]; /* the string, or NULL for the number */
    long num[4];        /* the number (a boolean when isbool) */
    int isbool[4];      /* 1: num is a boolean */
    int n;              /* keys */
} kv_t;

static void kv_str(kv_t *p, const char *key, const char *v) {
    if (!v)
        return;
    p->key[p->n] = key;
    p->str[p->n] = v;
    p->n++;
}

static void kv_num(kv_t *p, const char *key, long v, int isbool) {
    p->key[p->n] = key;
    p->str[p->n] = NULL;
    p->num[p->n] = v;
    p->isbool[p->n] = isbool;
    p->n++;
}

static void pack_kv(msgpack_packer *pk, void *ud) {
    const kv_t *p = ud;
    msgpack_pack_map(pk, (size_t)p->n);
    for (int i = 0; i < p->n; i++) {
        opfor_rpc_pack_cstr(pk, p->key[i]);
        if (p->str[i])
            opfor_rpc_pack_cstr(pk, p->str[i]);
        else if (p->isbool[i])
            p->num[i] ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
        else
            msgpack_pack_int64(pk, p->num[i]);
    }
}

/* ------------------------------------------------------------------ one table */

/* One game and its client connection. */
typedef struct table {
    club_t *b;          /* shared */
    opfor_client_t *c;  /* its connection */
    char game[64];      /* the game's id */
    int index;          /* which table (with the seed, its games' seeds) */
    const char *tag;    /* the phase, in its games' ids: "solo", "burst", "club" */
    int games;          /* games started (a finished one is replaced) */
    double *lat_ms;     /* club decisions' times */
    int nlat, cap;      /* held, allocated */
    uv_thread_t thread; /* club phase */
    int raw_id;         /* burst: the request's id on the raw connection */
    double answered_ms; /* burst: when its answer came (0: not yet) */
    int answered_ok;    /* burst: 1 for a result, 0 for an error */
    int position;       /* burst: 1-based place among all answers */
    int shortened;      /* burst: 1 when the order's reason says its search was shortened */
} table_t;

static int call(table_t *t, const char *method, kv_t *p, const msgpack_object **res) {
    int rc = opfor_client_call(t->c, method, pack_kv, p, res);
    if (rc < 0)
        fail(t->b, "%s: %s", method, opfor_client_error_message(t->c));
    return rc;
}

static int new_game(table_t *t) {
    char id[64];
    snprintf(id, sizeof id, "%s-%ld-%d-%d", t->tag, t->b->seed, t->index, t->games++);
    kv_t p = {0};
    kv_str(&p, "id", id);
    kv_num(&p, "seed", t->b->seed * 1000003L + t->index * 101L + t->games, 0);
    kv_str(&p, "level", t->b->level);
    kv_str(&p, "ruleset", t->b->ruleset);
    const msgpack_object *res = NULL;
    int rc = call(t, "game.new", &p, &res);
    if (rc == OPFOR_CLIENT_REMOTE)
        fail(t->b, "game.new: %s%s", opfor_client_error_message(t->c), "");
    if (rc != 0)
        return -1;
    opfor__rpc_str(res, "game", t->game, sizeof t->game);
    return 0;
}

/* Plays the table's side until the AI is to decide (a new game when one ends). 0 or -1. */
static int to_ai_turn(table_t *t) {
    for (int step = 0; step < MAX_STEPS && !atomic_load(&t->b->failed); step++) {
        kv_t p = {0};
        kv_str(&p, "game", t->game);
        const msgpack_object *st = NULL;
        if (call(t, "game.state", &p, &st) != 0)
            return -1;
        char status[32], pending[32], ready[64], to_move[32] = "";
        opfor__rpc_str(st, "status", status, sizeof status);
        opfor__rpc_str(st, "pending", pending, sizeof pending);
        const msgpack_object *rd = opfor__rpc_get(st, "ready");
        ready[0] = '\0';
        if (rd && rd->type == MSGPACK_OBJECT_ARRAY && rd->via.array.size > 0 &&
            rd->via.array.ptr[0].type == MSGPACK_OBJECT_STR)
            snprintf(ready, sizeof ready, "%.*s", (int)rd->via.array.ptr[0].via.str.size,
                     rd->via.array.ptr[0].via.str.ptr);
        const msgpack_object *tm = opfor__rpc_get(st, "to_move");
        long ai_side = (long)opfor__rpc_int(st, "ai_side", -1), mover = -2;
        if (tm && tm->type == MSGPACK_OBJECT_STR)
            snprintf(to_move, sizeof to_move, "%.*s", (int)tm->via.str.size, tm->via.str.ptr);
        else if (tm && tm->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
            mover = (long)tm->via.u64;
        if (strcmp(status, "active") != 0) {
            if (new_game(t) < 0)
                return -1;
            continue;
        }
        kv_t q = {0};
        kv_str(&q, "game", t->game);
        const char *method;
        if (pending[0]) { /* a game of initiatives: press, a player's unit acts, or the AI */
            if (strcmp(pending, "enemy") == 0)
                return 0;
            if (strcmp(pending, "player") == 0 && ready[0]) {
                method = "report";
                kv_str(&q, "acted", ready);
            } else if (t->b->press[0]) {
                method = t->b->press;
            } else {
                fail(t->b, "game %s: nobody holds the initiative and the ruleset lists no %s",
                     t->game, "method to press");
                return -1;
            }
        } else if (mover == ai_side) { /* a game of turns */
            return 0;
        } else if (strcmp(to_move, "chance") == 0) {
            method = "game.roll";
            kv_str(&q, "outcome", "auto");
        } else {
            method = "game.act";
            kv_num(&q, "action", 0, 0);
        }
        int rc = call(t, method, &q, NULL);
        if (rc < 0)
            return -1;
        /* a refused step (an ILLEGAL report) is played again from the new state */
    }
    if (!atomic_load(&t->b->failed))
        fail(t->b, "game %s: the AI's turn did not come within %s table steps", t->game, "400");
    return -1;
}

/* After the AI's order: the table resolves it where the game takes a report. */
static void after_order(table_t *t) {
    kv_t p = {0};
    kv_str(&p, "game", t->game);
    const msgpack_object *st = NULL;
    if (opfor_client_call(t->c, "game.state", pack_kv, &p, &st) != 0)
        return;
    const msgpack_object *pd = opfor__rpc_get(st, "pending");
    if (!pd)
        return;
    kv_num(&p, "resolve", 1, 1);
    opfor_client_call(t->c, "report", pack_kv, &p, NULL); /* ILLEGAL is fine: played on */
}

/* One timed decision. Its milliseconds, or -1. */
static double decide(table_t *t) {
    kv_t p = {0};
    kv_str(&p, "game", t->game);
    double t0 = opfor_bench_wall_ms();
    int rc = opfor_client_call(t->c, "ai.orders", pack_kv, &p, NULL);
    double ms = opfor_bench_wall_ms() - t0;
    if (rc != 0) {
        fail(t->b, "ai.orders: %s (%s)", opfor_client_error_message(t->c), t->game);
        return -1;
    }
    return ms;
}

/* Connects table t and starts its game. 0 or -1. */
static int table_connect(table_t *t, club_t *b, int index, const char *tag) {
    memset(t, 0, sizeof *t);
    t->tag = tag;
    t->b = b;
    t->index = index;
    opfor_diag_t d;
    if (opfor_client_connect(&t->c, b->addr, 5000, &d) != 0) {
        fail(b, "connect: %s%s", d.msg, "");
        return -1;
    }
    opfor_client_set_timeout(t->c, CALL_TIMEOUT_MS);
    /* hello at once: a daemon with its default hello timeout drops a table that waits for its
       first decision without one (--connect) */
    if (opfor_client_hello(t->c, "opfor-bench-club", NULL) != 0) {
        fail(b, "hello: %s%s", opfor_client_error_message(t->c), "");
        return -1;
    }
    return new_game(t);
}

/* table_connect, then the table's side played until the AI is to decide. */
static int table_open(table_t *t, club_t *b, int index, const char *tag) {
    return table_connect(t, b, index, tag) < 0 ? -1 : to_ai_turn(t);
}

static void table_close(table_t *t) {
    opfor_client_close(t->c);
    free(t->lat_ms);
    t->c = NULL;
    t->lat_ms = NULL;
}

/* ------------------------------------------------------------------ club pace */

static void sleep_until(double when_ms) {
    for (;;) {
        double left = when_ms - opfor_bench_wall_ms();
        if (left <= 0)
            return;
        uv_sleep(left > 200 ? 200 : (unsigned)left + 1);
    }
}

static void club_main(void *arg) {
    table_t *t = arg;
    club_t *b = t->b;
    opfor_rng_t rng;
    opfor_rng_seed(&rng, (uint64_t)b->seed, 0x636c7562u + (uint64_t)t->index);
    double next = b->t0_ms, end = b->t0_ms + b->duration_s * 1000.0;
    for (;;) {
        next += -log(1.0 - opfor_rng_unit(&rng)) * b->pace_s * 1000.0;
        if (next >= end || atomic_load(&b->failed))
            break;
        sleep_until(next);
        double ms = decide(t);
        if (ms < 0)
            break;
        if (t->nlat == t->cap) {
            int cap = t->cap ? t->cap * 2 : 16;
            double *p = realloc(t->lat_ms, (size_t)cap * sizeof *p);
            if (!p)
                break;
            t->lat_ms = p;
            t->cap = cap;
        }
        t->lat_ms[t->nlat++] = ms;
        atomic_fetch_add(&b->club_done, 1);
        after_order(t);
        if (to_ai_turn(t) < 0)
            break;
    }
}

/* ------------------------------------------------------------------ the burst */

/* Packs [0, id, "ai.orders", [{"game": game}]] onto sb. */
static void pack_orders(msgpack_sbuffer *sb, uint32_t id, const char *game) {
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 4);
    msgpack_pack_uint8(&pk, 0);
    msgpack_pack_uint32(&pk, id);
    opfor_rpc_pack_cstr(&pk, "ai.orders");
    msgpack_pack_array(&pk, 1);
    msgpack_pack_map(&pk, 1);
    opfor_rpc_pack_cstr(&pk, "game");
    opfor_rpc_pack_cstr(&pk, game);
}

static int write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
            struct pollfd pf = {fd, POLLOUT, 0};
            poll(&pf, 1, 1000);
            continue;
        }
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* A raw connection of the burst: its fd, its tables (requests by id), what it has read. */
typedef struct rawconn {
    int fd;               /* the client's socket */
    table_t **tables;     /* by request id - 1 */
    int ntables;          /* requests sent */
    msgpack_unpacker unp; /* responses */
    int answers;          /* responses read */
} rawconn_t;

/* Sends every decision at once and waits for the answers. The flood connection holds
 * tables[0..nflood) on one client; each of the others is a client of its own. */
static int burst(club_t *b, table_t *tables, int n, int nflood, double *last_ms) {
    int nconn = 1 + (n - nflood);
    rawconn_t *rc = calloc((size_t)nconn, sizeof *rc);
    table_t **byid = calloc((size_t)n, sizeof *byid);
    if (!rc || !byid) {
        free(rc);
        free(byid);
        return -1;
    }
    for (int i = 0; i < n; i++)
        byid[i] = &tables[i];
    rc[0].fd = opfor_client_fd(tables[0].c);
    rc[0].tables = byid;
    rc[0].ntables = nflood;
    for (int k = 1; k < nconn; k++) {
        rc[k].fd = opfor_client_fd(tables[nflood + k - 1].c);
        rc[k].tables = &byid[nflood + k - 1];
        rc[k].ntables = 1;
    }
    for (int k = 0; k < nconn; k++)
        msgpack_unpacker_init(&rc[k].unp, 1 << 16);
    /* every request packed first, so the sends go out back to back */
    msgpack_sbuffer *sb = calloc((size_t)nconn, sizeof *sb);
    for (int k = 0; k < nconn; k++) {
        msgpack_sbuffer_init(&sb[k]);
        for (int i = 0; i < rc[k].ntables; i++) {
            rc[k].tables[i]->raw_id = 900000 + i;
            pack_orders(&sb[k], (uint32_t)rc[k].tables[i]->raw_id, rc[k].tables[i]->game);
        }
    }
    double t0 = opfor_bench_wall_ms();
    /* the flood first, the single clients FLOOD_LEAD_MS later (reading answers meanwhile), so
     * the flood is queued first: a first-come queue would answer all of it first */
    int ok = write_all(rc[0].fd, sb[0].data, sb[0].size), singles_sent = 0;
    int answered = 0, position = 0;
    struct pollfd *pf = calloc((size_t)nconn, sizeof *pf);
    while (ok == 0 && answered < n && pf) {
        double lead = t0 + FLOOD_LEAD_MS - opfor_bench_wall_ms();
        if (!singles_sent && lead <= 0) {
            for (int k = 1; k < nconn && ok == 0; k++)
                ok = write_all(rc[k].fd, sb[k].data, sb[k].size);
            singles_sent = 1;
        }
        int live = 0;
        for (int k = 0; k < nconn; k++)
            if (rc[k].answers < rc[k].ntables) {
                pf[live].fd = rc[k].fd;
                pf[live].events = POLLIN;
                pf[live].revents = 0;
                live++;
            }
        int r = poll(pf, (nfds_t)live, singles_sent ? CALL_TIMEOUT_MS : (int)lead + 1);
        if (r == 0 && !singles_sent)
            continue;
        if (r <= 0) {
            fail(b, "burst: %s (%s)", r == 0 ? "no answer within 120 s" : strerror(errno),
                 "some decisions went unanswered");
            ok = -1;
            break;
        }
        for (int k = 0; k < nconn && ok == 0; k++) {
            int ready = 0;
            for (int j = 0; j < live; j++)
                if (pf[j].fd == rc[k].fd && (pf[j].revents & (POLLIN | POLLHUP | POLLERR)))
                    ready = 1;
            if (!ready)
                continue;
            msgpack_unpacker_reserve_buffer(&rc[k].unp, 1 << 16);
            ssize_t got = read(rc[k].fd, msgpack_unpacker_buffer(&rc[k].unp),
                               msgpack_unpacker_buffer_capacity(&rc[k].unp));
            if (got < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (got <= 0) {
                fail(b, "burst: the daemon closed a connection%s%s", "", "");
                ok = -1;
                break;
            }
            double now = opfor_bench_wall_ms() - t0;
            msgpack_unpacker_buffer_consumed(&rc[k].unp, (size_t)got);
            msgpack_unpacked m;
            msgpack_unpacked_init(&m);
            while (msgpack_unpacker_next(&rc[k].unp, &m) == MSGPACK_UNPACK_SUCCESS) {
                const msgpack_object *o = &m.data;
                if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 4 ||
                    o->via.array.ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
                    o->via.array.ptr[0].via.u64 != 1)
                    continue; /* a notification */
                uint64_t id = o->via.array.ptr[1].via.u64;
                for (int i = 0; i < rc[k].ntables; i++)
                    if ((uint64_t)rc[k].tables[i]->raw_id == id && !rc[k].tables[i]->position) {
                        table_t *t = rc[k].tables[i];
                        t->answered_ms = now;
                        t->answered_ok = o->via.array.ptr[2].type == MSGPACK_OBJECT_NIL;
                        t->position = ++position;
                        char reason[400];
                        opfor__rpc_str(&o->via.array.ptr[3], "reason", reason, sizeof reason);
                        t->shortened = strstr(reason, "busy daemon:") != NULL;
                        if (!t->answered_ok)
                            fail(b, "burst: a decision was refused (%s): %s", t->game,
                                 "see the daemon's log");
                        rc[k].answers++;
                        answered++;
                        *last_ms = now;
                    }
            }
            msgpack_unpacked_destroy(&m);
        }
    }
    free(pf);
    for (int k = 0; k < nconn; k++) {
        msgpack_sbuffer_destroy(&sb[k]);
        msgpack_unpacker_destroy(&rc[k].unp);
    }
    free(sb);
    free(rc);
    free(byid);
    return ok == 0 && answered == n ? 0 : -1;
}

/* ------------------------------------------------------------------ the daemon */

static int spawn_daemon(club_t *b, long games, long burst_n, long workers) {
    char maxc[24], infl[24], wk[24];
    snprintf(maxc, sizeof maxc, "%ld", games + burst_n + 16);
    snprintf(infl, sizeof infl, "%ld", burst_n > 8 ? burst_n : 8);
    snprintf(wk, sizeof wk, "%ld", workers);
    const char *const args[] = {
        "--log-level", "info", "--max-clients", maxc, "--max-inflight", infl, "--workers", wk,
        NULL};
    int rc = opfor_bench_daemon_start(&b->dm, "bench club", "club", args, 1, NULL, NULL);
    if (rc == 0)
        snprintf(b->addr, sizeof b->addr, "%s", b->dm.addr);
    return rc;
}

/* Lines of the spawned daemon's log that say searches were shortened. */
static int busy_lines(const club_t *b) {
    char line[512];
    FILE *f = fopen(b->dm.log, "r");
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, "busy: searches get") != NULL;
    if (f)
        fclose(f);
    return n;
}

static void stop_daemon(club_t *b) {
    opfor_bench_daemon_stop(&b->dm);
}

/* The press method of the game's ruleset, from hello's ruleset_info (its first own method). */
static void find_press(club_t *b, table_t *t) {
    char rs[64] = "";
    kv_t q = {0};
    kv_str(&q, "game", t->game);
    const msgpack_object *st = NULL, *hello = NULL;
    if (b->ruleset)
        snprintf(rs, sizeof rs, "%s", b->ruleset);
    else if (opfor_client_call(t->c, "game.state", pack_kv, &q, &st) == 0)
        opfor__rpc_str(st, "ruleset", rs, sizeof rs);
    kv_t p = {0};
    kv_str(&p, "client", "opfor-bench-club");
    kv_num(&p, "api_level", 5, 0);
    if (opfor_client_call(t->c, "hello", pack_kv, &p, &hello) != 0)
        return;
    const msgpack_object *info = opfor__rpc_get(hello, "ruleset_info");
    for (uint32_t i = 0; info && info->type == MSGPACK_OBJECT_ARRAY && i < info->via.array.size;
         i++) {
        char name[64];
        const msgpack_object *e = &info->via.array.ptr[i];
        const msgpack_object *m = opfor__rpc_get(e, "methods");
        if (strcmp(opfor__rpc_str(e, "name", name, sizeof name), rs) == 0 && m &&
            m->type == MSGPACK_OBJECT_ARRAY && m->via.array.size > 0 &&
            m->via.array.ptr[0].type == MSGPACK_OBJECT_STR)
            snprintf(b->press, sizeof b->press, "%.*s", (int)m->via.array.ptr[0].via.str.size,
                     m->via.array.ptr[0].via.str.ptr);
    }
}

/* ------------------------------------------------------------------ the command */

/* The machine's 1-minute load average (/proc/loadavg), or -1: the figures of a shared machine
 * are read against it. */
static double load_average(void) {
    double v = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

typedef struct stats {
    int n;                      /* decisions */
    double median, p95, max_ms; /* milliseconds */
} stats_t;

static stats_t stats_of(double *v, int n) {
    stats_t s = {n, 0, 0, 0};
    if (n <= 0)
        return s;
    qsort(v, (size_t)n, sizeof *v, opfor_bench_cmp_double);
    s.median = v[n / 2];
    int k = (int)ceil(0.95 * n) - 1;
    s.p95 = v[k < 0 ? 0 : k];
    s.max_ms = v[n - 1];
    return s;
}

int opfor_bench_club(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    long games = 100, burst_n = 100, solo_n = 0, workers = 0, seed = 1;
    double pace = 30.0, duration = 300.0;
    const char *addr = NULL, *level = "standard", *ruleset = NULL;
    int json = 0, rc = 0;
    const opfor_cli_opt_t opts[] = {
        {.name = "--games",
         .type = OPFOR_CLI_WHOLE,
         .whole = &games,
         .lo = 1,
         .hi = MAX_GAMES,
         .arg = "G",
         .help = "tables playing at once in the club phase (1-1000, default 100)"},
        {.name = "--pace",
         .type = OPFOR_CLI_NUMBER,
         .number = &pace,
         .min = 0,
         .max = 3600,
         .above = 1,
         .arg = "S",
         .help = "mean seconds between one table's decisions (default 30)"},
        {.name = "--duration",
         .type = OPFOR_CLI_NUMBER,
         .number = &duration,
         .min = 0,
         .max = 86400,
         .above = 1,
         .arg = "S",
         .help = "seconds of the club phase (default 300)"},
        {.name = "--burst",
         .type = OPFOR_CLI_WHOLE,
         .whole = &burst_n,
         .lo = 2,
         .hi = MAX_BURST,
         .arg = "B",
         .help = "decisions sent at once in the burst (2-1000, default 100)"},
        {.name = "--solo",
         .type = OPFOR_CLI_WHOLE,
         .whole = &solo_n,
         .lo = 0,
         .hi = 100000,
         .arg = "N",
         .help = "solo decisions, one at a time, in the club tables' games (default 0:\n"
                 "as many as the club phase should ask, G x duration / pace)"},
        {.name = "--workers",
         .type = OPFOR_CLI_WHOLE,
         .whole = &workers,
         .lo = 0,
         .hi = 256,
         .arg = "N",
         .help = "the spawned daemon's --workers (default 0: its default)"},
        OPFOR_CLI_SEED_OPT(&seed, "the games' and the arrivals' seed (default 1)"),
        OPFOR_CLI_LEVEL_TEXT_OPT(&level, "the AI's level in every game (default standard)"),
        {.name = "--ruleset",
         .type = OPFOR_CLI_STRING,
         .string = &ruleset,
         .arg = "NAME",
         .help = "the games' ruleset (default: the daemon's default)"},
        {.name = "--connect",
         .type = OPFOR_CLI_STRING,
         .string = &addr,
         .arg = "ADDR",
         .wants = "an address (unix:PATH, PATH or tcp://HOST:PORT)",
         .help = "use the daemon at ADDR instead of starting one (its --max-inflight\n"
                 "must allow B/2 requests on one connection)"},
        OPFOR_CLI_JSON_OPT(&json),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "bench club",
        .about = "Measures opford serving a club: AI decision times (ai.orders) solo, at a club's\n"
                 "pace (G tables, random arrivals averaging one decision every S seconds each)\n"
                 "and in a burst of B decisions at once (half from one client for many games,\n"
                 "the rest one client per game). Targets: the club's p95 at most twice the solo\n"
                 "p95; every burst decision answered, no single-game client starved behind the\n"
                 "flood, the last within (2 + B / (4 x workers)) x the solo p95 (the bound in\n"
                 "docs/protocol.md). Without --connect it starts its own opford (next to this\n"
                 "binary, default workers). Progress on stderr; exit 1 when a decision went\n"
                 "unanswered or the burst was unfair.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    club_t *b = calloc(1, sizeof *b);
    table_t *tabs = calloc((size_t)games, sizeof *tabs);
    table_t *bt = calloc((size_t)burst_n, sizeof *bt);
    double *all = NULL;
    if (!b || !tabs || !bt) {
        free(b);
        free(tabs);
        free(bt);
        return opfor_cli_fail("bench club: out of memory");
    }
    uv_mutex_init(&b->err_lock);
    b->level = level;
    b->ruleset = ruleset;
    b->seed = seed;
    b->pace_s = pace;
    b->duration_s = duration;
    unsigned nworkers = (unsigned)workers;
    if (nworkers == 0) { /* the daemon's default on this machine (opfor_workers_default_count) */
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        nworkers = ncpu > 2 ? (unsigned)(ncpu - 1) : 1u;
    }
    if (addr) {
        if (opfor_client_default_addr(addr, b->addr, sizeof b->addr) < 0)
            rc = opfor_cli_usage_error("bench club: address too long");
    } else {
        rc = spawn_daemon(b, games, burst_n, workers);
    }
    table_t solo;
    memset(&solo, 0, sizeof solo);
    stats_t s_solo = {0}, s_club = {0};
    double burst_last = 0;
    int burst_ok = 0, fair = 0, worst_single = 0, flood_last = 0, busy = -1, shortened = 0;
    int nflood = (int)burst_n / 2, nsingle = (int)burst_n - nflood;
    long club_n = 0;
    if (rc != 0)
        goto out;

    /* (a) solo */
    /* The club's own positions, one at a time: the club tables' games (the same seeds), each
     * for as many decisions as a club table makes on average, so solo and club time the same
     * positions (they vary far more than the load adds). */
    int per = (int)(duration / pace + 0.5);
    per = per < 1 ? 1 : per;
    if (solo_n == 0)
        solo_n = games * per;
    fprintf(stderr, "bench club: solo: %ld decisions, %d in each of the club's first games\n",
            solo_n, per);
    if (table_connect(&solo, b, 1, "solo") < 0)
        goto failed;
    find_press(b, &solo);
    if (to_ai_turn(&solo) < 0)
        goto failed;
    all = malloc((size_t)(solo_n > 64 ? solo_n : 64) * sizeof *all);
    for (long i = 0; all && i < solo_n; i++) {
        if (i > 0 && i % per == 0) { /* the next club table's game */
            solo.index++;
            solo.games = 0;
            if (new_game(&solo) < 0)
                goto failed;
        }
        if (to_ai_turn(&solo) < 0)
            goto failed;
        double ms = decide(&solo);
        if (ms < 0)
            goto failed;
        after_order(&solo);
        all[i] = ms;
    }
    s_solo = stats_of(all, (int)solo_n);
    fprintf(stderr, "bench club: solo: median %.1f ms, p95 %.1f ms\n", s_solo.median, s_solo.p95);

    /* (b) burst: B tables brought to the AI's turn, then every decision sent at once */
    fprintf(stderr, "bench club: burst: preparing %ld games\n", burst_n);
    for (int i = 0; i < (int)burst_n; i++) {
        if (i < nflood && i > 0) { /* the flood's games share the first table's connection */
            bt[i].b = b;
            bt[i].index = 10000 + i;
            bt[i].tag = "burst";
            bt[i].c = bt[0].c;
            if (new_game(&bt[i]) < 0 || to_ai_turn(&bt[i]) < 0)
                goto failed;
        } else if (table_open(&bt[i], b, 10000 + i, "burst") < 0) {
            goto failed;
        }
    }
    fprintf(stderr,
            "bench club: burst: %ld decisions at once (%d from one client, %d clients "
            "with one each)\n",
            burst_n, nflood, nsingle);
    burst_ok = burst(b, bt, (int)burst_n, nflood, &burst_last) == 0;
    for (int i = nflood; i < (int)burst_n; i++)
        if (bt[i].position > worst_single)
            worst_single = bt[i].position;
    for (int i = 0; i < (int)burst_n; i++)
        shortened += bt[i].shortened;
    /* fair: every single-game client is answered before the flood's last answer (a
     * first-come queue answers them after it: the flood was queued first) */
    for (int i = 0; i < nflood; i++)
        flood_last = bt[i].position > flood_last ? bt[i].position : flood_last;
    fair = burst_ok && worst_single < flood_last;
    fprintf(stderr,
            "bench club: burst: last answer at %.0f ms; single-game clients answered by "
            "place %d of %ld\n",
            burst_last, worst_single, burst_n);

    /* (c) club pace */
    fprintf(stderr, "bench club: club: preparing %ld games\n", games);
    for (int i = 0; i < (int)games; i++)
        if (table_open(&tabs[i], b, 1 + i, "club") < 0)
            goto failed;
    fprintf(stderr,
            "bench club: club: %ld games, one decision every %.0f s each on average, "
            "for %.0f s\n",
            games, pace, duration);
    double load0 = load_average();
    b->t0_ms = opfor_bench_wall_ms() + 100;
    for (int i = 0; i < (int)games; i++)
        uv_thread_create(&tabs[i].thread, club_main, &tabs[i]);
    for (double next = b->t0_ms + 10000; !atomic_load(&b->failed);) {
        double now = opfor_bench_wall_ms();
        if (now >= b->t0_ms + duration * 1000.0)
            break;
        if (now >= next) {
            fprintf(stderr, "bench club: club: %.0f s of %.0f, %ld decisions\n",
                    (now - b->t0_ms) / 1000.0, duration, atomic_load(&b->club_done));
            next += 10000;
        }
        uv_sleep(100);
    }
    for (int i = 0; i < (int)games; i++)
        uv_thread_join(&tabs[i].thread);
    for (int i = 0; i < (int)games; i++)
        club_n += tabs[i].nlat;
    free(all);
    all = malloc((size_t)(club_n > 0 ? club_n : 1) * sizeof *all);
    club_n = 0;
    for (int i = 0; all && i < (int)games; i++)
        for (int k = 0; k < tabs[i].nlat; k++)
            all[club_n++] = tabs[i].lat_ms[k];
    s_club = stats_of(all, (int)club_n);
    double load1 = load_average();
    if (atomic_load(&b->failed))
        goto failed;
    busy = b->dm.log[0] ? busy_lines(b) : -1;

    {
        double club_target = 2.0 * s_solo.p95;
        double bound = (2.0 + (double)burst_n / (4.0 * nworkers)) * s_solo.p95;
        int club_pass = s_club.n > 0 && s_club.p95 <= club_target;
        int burst_pass = burst_ok && burst_last <= bound;
        if (json) {
            opfor_json_t j;
            opfor_json_init(&j, stdout);
            opfor_json_obj_begin(&j);
            opfor_json_kv_str(&j, "bench", "club");
            opfor_json_kv_str(&j, "level", level);
            opfor_json_kv_int(&j, "workers", nworkers);
            opfor_json_kv_int(&j, "seed", seed);
            opfor_json_kv_int(&j, "solo_decisions", s_solo.n);
            opfor_json_kv_num(&j, "solo_median_ms", s_solo.median);
            opfor_json_kv_num(&j, "solo_p95_ms", s_solo.p95);
            opfor_json_kv_int(&j, "club_games", games);
            opfor_json_kv_num(&j, "club_pace_s", pace);
            opfor_json_kv_num(&j, "club_duration_s", duration);
            opfor_json_kv_int(&j, "club_decisions", s_club.n);
            opfor_json_kv_num(&j, "club_median_ms", s_club.median);
            opfor_json_kv_num(&j, "club_p95_ms", s_club.p95);
            opfor_json_kv_num(&j, "club_max_ms", s_club.max_ms);
            opfor_json_kv_num(&j, "club_target_ms", club_target);
            opfor_json_kv_bool(&j, "club_pass", club_pass);
            opfor_json_kv_int(&j, "burst", burst_n);
            opfor_json_kv_int(&j, "burst_answered", burst_ok ? burst_n : 0);
            opfor_json_kv_num(&j, "burst_last_ms", burst_last);
            opfor_json_kv_num(&j, "burst_bound_ms", bound);
            opfor_json_kv_bool(&j, "burst_pass", burst_pass);
            opfor_json_kv_int(&j, "burst_single_clients", nsingle);
            opfor_json_kv_int(&j, "burst_single_last_place", worst_single);
            opfor_json_kv_int(&j, "burst_flood_last_place", flood_last);
            opfor_json_kv_bool(&j, "burst_fair", fair);
            opfor_json_kv_int(&j, "burst_shortened", shortened);
            opfor_json_kv_int(&j, "daemon_busy_log_lines", busy);
            opfor_json_kv_num(&j, "load_average_club_start", load0);
            opfor_json_kv_num(&j, "load_average_club_end", load1);
            opfor_json_kv_int(&j, "cores", sysconf(_SC_NPROCESSORS_ONLN));
            opfor_json_obj_end(&j);
            opfor_json_end(&j);
        } else {
            printf("opford club bench: level %s, %u worker%s, seed %ld (%s)\n", level, nworkers,
                   nworkers == 1 ? "" : "s", seed, b->dm.dir[0] ? "daemon spawned" : b->addr);
            printf("  %-10s %-36s %9s %9s %9s  %s\n", "", "", "median", "p95", "max", "target");
            char what[80];
            snprintf(what, sizeof what, "the same positions, one at a time: %d", s_solo.n);
            printf("  %-10s %-36s %6.1f ms %6.1f ms %6.1f ms\n", "solo", what, s_solo.median,
                   s_solo.p95, s_solo.max_ms);
            snprintf(what, sizeof what, "%ld games, 1/%.0f s each, %.0f s: %d", games, pace,
                     duration, s_club.n);
            printf("  %-10s %-36s %6.1f ms %6.1f ms %6.1f ms  p95 <= 2 x solo p95 = %.1f ms: %s\n",
                   "club pace", what, s_club.median, s_club.p95, s_club.max_ms, club_target,
                   club_pass ? "PASS" : "FAIL");
            snprintf(what, sizeof what, "%ld at once: %ld answered", burst_n,
                     burst_ok ? burst_n : 0L);
            printf("  %-10s %-36s %9s %9s %6.0f ms  last <= (2 + %ld/(4 x %u)) x solo p95 = %.0f "
                   "ms: %s\n",
                   "burst", what, "", "", burst_last, burst_n, nworkers, bound,
                   burst_pass ? "PASS" : "FAIL");
            printf("  %-10s the %d single-game clients answered by place %d, before the flood's "
                   "last (place %d): %s\n",
                   "fairness", nsingle, worst_single, flood_last, fair ? "PASS" : "FAIL");
            printf(
                "  %-10s %d of the burst's orders say their search was shortened (busy daemon)\n",
                "budgets", shortened);
            printf("  %-10s 1-minute load average %.2f at the club phase's start, %.2f at its end "
                   "(%ld cores; the bench's own clients and daemon included)\n",
                   "machine", load0, load1, sysconf(_SC_NPROCESSORS_ONLN));
            if (busy >= 0)
                printf("  %-10s %d daemon log line%s said searches were shortened\n", "log", busy,
                       busy == 1 ? "" : "s");
        }
        rc = burst_ok && fair ? OPFOR_EXIT_OK : OPFOR_EXIT_FAIL;
        if (!fair)
            fprintf(stderr,
                    "bench club: the burst was unfair: a single-game client's answer came "
                    "at place %d, after the flood's last (place %d)\n",
                    worst_single, flood_last);
    }
    goto out;
failed:
    rc = opfor_cli_fail("bench club: %s", b->err[0] ? b->err : "out of memory");
out:
    if (solo.c)
        table_close(&solo);
    for (int i = 0; i < (int)burst_n; i++)
        if (bt[i].c && (i == 0 || i >= nflood))
            table_close(&bt[i]);
    for (int i = 0; i < (int)games; i++)
        if (tabs[i].c)
            table_close(&tabs[i]);
    stop_daemon(b);
    uv_mutex_destroy(&b->err_lock);
    free(all);
    free(bt);
    free(tabs);
    free(b);
    return rc;
}
