/* io/methods_game.c — the game methods: game.new, game.list, game.state, game.close,
 * game.act, game.roll, game.report, game.action, report, ai.orders, a ruleset's own methods
 * (RULESET.VERB), subscribe, unsubscribe; and the registry behind them. Every game is a shell
 * (io/game_ops.h) around a table game reached only through its operations: the built-in one
 * (io/game_gen.c) or a ruleset's daemon plug-in; the same commit, replay, events and workers
 * serve them all.
 *
 * A mutation is computed on the table game's work copies, appended to the store's log, and
 * only then kept, published as `event` notifications and answered: the answer is the
 * acknowledgement that the entry is durable. Games load lazily by replaying their logs from
 * the latest snapshot; a snapshot is written every OPFOR__GAME_SNAPSHOT_EVERY entries. A game
 * leaves memory (unload) once closed or finished, or when no call named it for
 * `game-idle-unload`: its searches are cancelled first (the jobs hold their own reference and
 * answer CANCELLED), and its subscribers' serials wait in the registry (`dormant`) until a
 * call loads it again, so a subscription outlives the unloading (nothing can happen to an
 * unloaded game, so no event is missed). AI
 * orders (and a ruleset method's worker step, such as a director's choice) are worked out on
 * the daemon's worker threads on a copy of the position; a job holds a reference on its game
 * and an AI job is cancelled when its client leaves or the game changes. Loop thread only,
 * except plan_run and method_run.
 */
#include "games_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

#include "game_ops.h"
#include "methods_int.h"
#include "opfor/ai.h"
#include "opfor/ruleset.h"
#include "opfor/scores.h"
#include "opfor/store.h"
#include "opfor/workers.h"
#include "pack_int.h"
#include "players_int.h"
#include "server_int.h"

/* The subscribers of a game out of memory, by connection serial. */
typedef struct dormant {
    struct dormant *next; /* the registry's list */
    char id[64];          /* the game */
    uint64_t *subs;       /* subscribed connection serials (taken from the game) */
    unsigned nsubs, cap;  /* used, allocated */
} dormant_t;

struct opfor__games {
    opfor_server_t *srv; /* the server */
    opfor__game_t *list; /* games in memory */
    dormant_t *dormant;  /* subscriptions of games out of memory */
    unsigned loaded;     /* games in list (for the log) */
    opfor_scores_t *hs;  /* high-score table, opened on first use */
    char dbpath[4200];   /* <state-dir>/opfor.db */
    uint64_t counter;    /* for generated ids */
};

int opfor__games_new(struct opfor__games **out, opfor_server_t *s, const char *dbpath) {
    struct opfor__games *gs = calloc(1, sizeof *gs);
    if (!gs)
        return OPFOR_ENOMEM;
    gs->srv = s;
    snprintf(gs->dbpath, sizeof gs->dbpath, "%s", dbpath);
    *out = gs;
    return 0;
}

static void game_unref(opfor__game_t *g) {
    if (--g->refs == 0)
        opfor__game_free(g);
}

void opfor__games_free(struct opfor__games *gs) {
    if (!gs)
        return;
    while (gs->list) {
        opfor__game_t *g = gs->list;
        gs->list = g->next;
        g->unloaded = 1;
        game_unref(g);
    }
    while (gs->dormant) {
        dormant_t *d = gs->dormant;
        gs->dormant = d->next;
        free(d->subs);
        free(d);
    }
    opfor_scores_close(gs->hs);
    free(gs);
}

/* ------------------------------------------------------------------ helpers */

#define LOG(s, lvl, ...) opfor_server_log((s), OPFOR_LOG_##lvl, __VA_ARGS__)

/* Answers INVALID_PARAMS (or another code) and returns 0, as handlers do. */
static int answer(opfor_call_t *call, int code, const char *msg) {
    opfor_call_error(call, code, "%s", msg);
    return 0;
}

/* Answers with a game error: its code, message and hint. */
static int answer_gerr(opfor_call_t *call, const opfor__gerr_t *err) {
    opfor_call_error_hint(call, err->code, &err->hint, "%s", err->msg);
    return 0;
}

/* 1 when the call comes from a session of the table page's players' link (docs/web.md "The
 * players' view"): it sees no seed, no `cheat` game and only the first table side's view. */
static int players(const opfor_call_t *call) {
    return call->client && call->client->players_link;
}

/* Appends already-packed MessagePack bytes as the next object. */
static void pack_raw(msgpack_packer *pk, const char *data, size_t len) {
    pk->callback(pk->data, data, len);
}

static opfor__game_t *find_loaded(struct opfor__games *gs, const char *id) {
    for (opfor__game_t *g = gs->list; g; g = g->next)
        if (strcmp(g->row.id, id) == 0)
            return g;
    return NULL;
}

/* Keeps an event in g's ring (the oldest goes when it is full) in exactly len bytes:
 * msgpack_sbuffer_write would reserve 8 KiB in each slot, half a MiB a game for events of a
 * few hundred bytes. Out of memory, the event is not kept (a resubscriber sees `missed`). */
static void ring_push(opfor__game_t *g, const char *data, size_t len, uint64_t seq) {
    unsigned slot = (g->ev_head + g->ev_count) % OPFOR__GAME_EVENTS_KEEP;
    if (g->ev_count == OPFOR__GAME_EVENTS_KEEP)
        slot = g->ev_head;
    msgpack_sbuffer *b = &g->ev[slot];
    if (len > b->alloc || !b->data) {
        char *p = malloc(len ? len : 1);
        if (!p)
            return;
        free(b->data);
        b->data = p;
        b->alloc = len ? len : 1;
    }
    memcpy(b->data, data, len);
    b->size = len;
    g->ev_seq_of[slot] = seq;
    if (g->ev_count == OPFOR__GAME_EVENTS_KEEP)
        g->ev_head = (g->ev_head + 1) % OPFOR__GAME_EVENTS_KEEP;
    else
        g->ev_count++;
}

/* The seq numbers of ev's events are t->ev_seq - n + 1 .. t->ev_seq. */
static void keep_events(opfor__game_t *g, const opfor__evlist_t *ev, uint64_t last_seq) {
    for (int i = 0; i < ev->n; i++)
        ring_push(g, ev->buf[i].data, ev->buf[i].size, last_seq - (uint64_t)(ev->n - 1 - i));
}

/* Packs g's state as the event listener sees it into st (initialised by the caller). */
static void pack_listener_state(opfor__game_t *g, msgpack_sbuffer *st) {
    msgpack_packer spk;
    msgpack_packer_init(&spk, st, msgpack_sbuffer_write);
    int viewer = 0; /* the panel stands at the table: the table's view, never the AI's hand */
    g->ops->viewer(g, NULL, 0, &viewer, NULL);
    g->ops->pack_state(g, viewer, &spk);
}

static void publish(struct opfor__games *gs, opfor__game_t *g, const opfor__evlist_t *ev) {
    keep_events(g, ev, g->t.ev_seq);
    if (ev->n && opfor__server_has_event_listener(gs->srv)) {
        /* opford's e-ink display (opfor_server_on_event): each event with the new state */
        msgpack_sbuffer st;
        msgpack_sbuffer_init(&st);
        pack_listener_state(g, &st);
        for (int i = 0; i < ev->n; i++)
            opfor__server_event(gs->srv, ev->buf[i].data, ev->buf[i].size, st.data, st.size);
        msgpack_sbuffer_destroy(&st);
    }
    if (!g->nsubs || !ev->n)
        return;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    for (int i = 0; i < ev->n; i++) {
        msgpack_sbuffer_clear(&sb);
        opfor_rpc_pack_notify_begin(&pk, "event");
        pack_raw(&pk, ev->buf[i].data, ev->buf[i].size);
        for (unsigned k = 0; k < g->nsubs;) {
            opfor_peer_t *c = opfor__server_peer(gs->srv, g->subs[k]);
            if (!c) { /* the client left: its subscription goes with it */
                g->subs[k] = g->subs[--g->nsubs];
                continue;
            }
            opfor__peer_send(c, sb.data, sb.size);
            k++;
        }
    }
    msgpack_sbuffer_destroy(&sb);
}

/* ------------------------------------------------------------------ leaving memory */

static void stop_searches(opfor__game_t *g);

/* Drops the serials of clients that have gone from subs (n entries); returns how many stay. */
static unsigned subs_prune(struct opfor__games *gs, uint64_t *subs, unsigned n) {
    for (unsigned k = 0; k < n;)
        if (!opfor__server_peer(gs->srv, subs[k]))
            subs[k] = subs[--n];
        else
            k++;
    return n;
}

static dormant_t **dormant_find(struct opfor__games *gs, const char *id) {
    dormant_t **pp = &gs->dormant;
    while (*pp && strcmp((*pp)->id, id) != 0)
        pp = &(*pp)->next;
    return pp;
}

/* g leaves memory: its searches are cancelled first (a job still queued or running holds its
 * own reference, finds g->unloaded and answers CANCELLED without touching the registry or
 * the store), its subscribers wait by serial in the dormant list, and the registry's
 * reference goes. why is for the log. */
static void unload(struct opfor__games *gs, opfor__game_t *g, const char *why) {
    for (opfor__game_t **pp = &gs->list; *pp; pp = &(*pp)->next)
        if (*pp == g) {
            *pp = g->next;
            gs->loaded--;
            break;
        }
    opfor_workers_game_changed(opfor__server_workers(gs->srv), g->row.id);
    stop_searches(g);
    g->nsubs = subs_prune(gs, g->subs, g->nsubs);
    if (g->nsubs) {
        dormant_t *d = calloc(1, sizeof *d);
        if (d) { /* out of memory: the subscriptions end (the clients may subscribe again) */
            snprintf(d->id, sizeof d->id, "%s", g->row.id);
            d->subs = g->subs;
            d->nsubs = g->nsubs;
            d->cap = g->subs_cap;
            g->subs = NULL;
            g->nsubs = g->subs_cap = 0;
            d->next = gs->dormant;
            gs->dormant = d;
        }
    }
    g->unloaded = 1;
    LOG(gs->srv, INFO, "game %s: unloaded (%s), %u game%s in memory", g->row.id, why, gs->loaded,
        gs->loaded == 1 ? "" : "s");
    game_unref(g);
}

/* g was loaded again: its waiting subscribers take their places back. */
static void dormant_wake(struct opfor__games *gs, opfor__game_t *g) {
    dormant_t **pp = dormant_find(gs, g->row.id), *d = *pp;
    if (!d)
        return;
    *pp = d->next;
    free(g->subs);
    g->subs = d->subs;
    g->nsubs = subs_prune(gs, d->subs, d->nsubs);
    g->subs_cap = d->cap;
    free(d);
}

/* A call named g (or its search ended): it is not idle; the games timer looks at it when its
 * idle time may be up, or at once when it is over (closed, finished). */
static void touch(struct opfor__games *gs, opfor__game_t *g) {
    g->used_ms = opfor__server_now(gs->srv);
    uint32_t idle = opfor__server_cfg(gs->srv)->game_idle_unload_ms;
    if (g->t.status != OPFOR__GS_ACTIVE)
        opfor__server_games_wake(gs->srv, 0);
    else if (idle)
        opfor__server_games_wake(gs->srv, idle);
}

uint64_t opfor__games_sweep(struct opfor__games *gs, uint64_t now) {
    const uint64_t idle = opfor__server_cfg(gs->srv)->game_idle_unload_ms;
    const unsigned was = gs->loaded;
    uint64_t next = 0;
    for (opfor__game_t *g = gs->list, *n; g; g = n) {
        n = g->next;
        if (g->searching) { /* its answer touches it again */
            continue;
        } else if (g->t.status != OPFOR__GS_ACTIVE) {
            unload(gs, g, opfor__game_status_name(g->t.status));
        } else if (idle && now >= g->used_ms && now - g->used_ms >= idle) {
            unload(gs, g, "idle");
        } else if (idle) {
            uint64_t due = g->used_ms + idle - now;
            next = !next || due < next ? due : next;
        }
    }
#ifdef __GLIBC__
    if (gs->loaded < was) /* glibc keeps freed heap pages; a game's tables are megabytes */
        malloc_trim(0);
#endif
    for (dormant_t **pp = &gs->dormant; *pp;) { /* subscribers that left */
        dormant_t *d = *pp;
        d->nsubs = subs_prune(gs, d->subs, d->nsubs);
        if (d->nsubs) {
            pp = &d->next;
            continue;
        }
        *pp = d->next;
        free(d->subs);
        free(d);
    }
    return next;
}

/* ------------------------------------------------------------------ loading (replay) */

typedef struct replay {
    struct opfor__games *gs; /* registry */
    opfor__game_t *g;        /* game being rebuilt */
    int bad_snapshot;        /* 1: the snapshot was unusable; replay from the start */
    unsigned skipped;        /* entries that did not apply (logged) */
} replay_t;

static int on_snapshot(void *ud, uint64_t seq, const void *state, size_t len) {
    replay_t *r = ud;
    if (r->g->ops->restore(r->g, seq, state, len) != 0) {
        r->bad_snapshot = 1;
        return 1;
    }
    return 0;
}

static int on_entry(void *ud, const opfor_store_entry_t *e) {
    replay_t *r = ud;
    opfor__game_t *g = r->g;
    opfor__evlist_t ev;
    opfor__evlist_init(&ev);
    opfor__gerr_t err = {0};
    opfor__table_t t = g->t;
    g->ops->begin(g);
    int rc = g->ops->apply(g, &t, e->seq, e->kind, e->payload, e->len, &ev, &err);
    if (rc < 0) {
        LOG(r->gs->srv, WARN, "game %s: log entry %llu (%s) does not apply: %s", g->row.id,
            (unsigned long long)e->seq, e->kind, err.msg);
        g->t.log_seq = e->seq;
        if (g->ops->sync)
            g->ops->sync(g);
        r->skipped++;
    } else {
        g->t = t;
        g->ops->keep(g);
        keep_events(g, &ev, g->t.ev_seq);
    }
    opfor__evlist_free(&ev);
    return 0;
}

/* The registered ruleset a saved game was begun under; NULL with the call answered when this
 * build does not register it. */
static const opfor_ruleset_t *saved_ruleset(opfor_call_t *call, const opfor_store_game_t *row) {
    size_t n = 0;
    const opfor_ruleset_entry_t *reg = opfor_ruleset_list(&n);
    const opfor_ruleset_t *rs = row->ruleset[0] ? opfor_ruleset_find(row->ruleset)
                                : n             ? reg[0].rs
                                                : NULL;
    if (!rs) {
        opfor_call_error(call, OPFOR_RPC_E_UNSUPPORTED,
                         "game %s is a game of the '%s' ruleset, which this build does not "
                         "register",
                         row->id, row->ruleset);
        return NULL;
    }
    return rs;
}

/* The first log entry of a game, copied (for the rules check). */
typedef struct first_entry {
    char kind[32];
    char payload[512];
    size_t len;
    int found;
} first_entry_t;

static int on_first(void *ud, const opfor_store_entry_t *e) {
    first_entry_t *f = ud;
    f->found = 1;
    snprintf(f->kind, sizeof f->kind, "%s", e->kind);
    f->len = e->len < sizeof f->payload ? e->len : 0;
    if (f->len)
        memcpy(f->payload, e->payload, f->len);
    return 1; /* that one is enough */
}

/* The first log entry of game id into f (f->found 0: an empty log); 0 or a store error. */
static int first_entry(opfor_store_t *store, const char *id, first_entry_t *f) {
    memset(f, 0, sizeof *f);
    int rc = opfor_store_entries(store, id, 0, on_first, f);
    return rc < 0 ? rc : 0;
}

/* A game whose AI reads what the table hides (game.new's `cheat`) is not open to the players'
 * link: each of its orders, reasons and values is drawn from the hidden draws themselves. 1
 * when the call may have g; 0 with the call answered. */
static int players_may(opfor_call_t *call, const opfor__game_t *g) {
    if (!players(call) || !g->cheat)
        return 1;
    opfor_call_error(call, OPFOR_RPC_E_UNAUTHORIZED,
                     "game %s: its AI reads what the table hides (cheat), so it is open to the "
                     "game master's link only",
                     g->row.id);
    return 0;
}

/* The game with this id, loaded (by replay) when needed. Answers the call on failure (and
 * refuses a `cheat` game to the players' link). */
static opfor__game_t *get_game(opfor_call_t *call, const char *id) {
    struct opfor__games *gs = opfor__server_games(call->srv);
    opfor__game_t *g = find_loaded(gs, id);
    if (g) {
        touch(gs, g);
        return players_may(call, g) ? g : NULL;
    }
    opfor_store_t *store = opfor__server_store(call->srv);
    opfor_store_game_t row;
    int rc = opfor_store_game_get(store, id, &row);
    if (rc == OPFOR_ENOENT) {
        opfor_rpc_hint_t h = {0};
        opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_NO_GAME);
        opfor_rpc_hint_str(&h, "game", id);
        opfor_call_error_hint(call, OPFOR_RPC_E_NOT_FOUND, &h,
                              "game: no game '%s' (game.list lists them)", id);
        return NULL;
    }
    char *yaml = NULL;
    size_t ylen = 0;
    if (rc == 0)
        rc = opfor_store_game_yaml(store, id, &yaml, &ylen);
    if (rc < 0) {
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game store: %s", opfor_store_errmsg(store));
        return NULL;
    }
    opfor__gerr_t err = {0};
    const opfor_ruleset_t *rs = saved_ruleset(call, &row);
    if (!rs) {
        free(yaml);
        return NULL;
    }
    const opfor__table_game_ops_t *ops = opfor__table_game_for(rs);
    first_entry_t f; /* the table game replays a log only under the rules it was written under */
    if (ops->rules_check && first_entry(store, id, &f) < 0) {
        free(yaml);
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game store: %s", opfor_store_errmsg(store));
        return NULL;
    }
    opfor__game_src_t src = {yaml, ylen, opfor__server_model(call->srv)};
    rc = opfor__game_open(&g, &row, rs, ops, &src, &err);
    free(yaml);
    if (rc < 0) {
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game %s cannot be rebuilt: %s", id, err.msg);
        return NULL;
    }
    if (ops->rules_check &&
        ops->rules_check(g, f.found ? f.kind : NULL, f.payload, f.len, &err) < 0) {
        opfor__game_free(g);
        answer_gerr(call, &err);
        return NULL;
    }
    if (ops->rules_check && f.found && strcmp(f.kind, "begin") == 0)
        opfor__game_options_read(g, f.payload, f.len); /* game.new's player and cheat */
    replay_t r = {gs, g, 0, 0};
    rc = opfor_store_load(store, id, on_snapshot, on_entry, &r);
    if (rc == 1 && r.bad_snapshot) { /* from the opening position, every entry */
        g->ops->reset(g);
        rc = opfor_store_entries(store, id, 0, on_entry, &r);
    }
    if (rc < 0) {
        opfor__game_free(g);
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game store: %s", opfor_store_errmsg(store));
        return NULL;
    }
    if (strcmp(row.status, "closed") == 0) {
        g->t.status = OPFOR__GS_CLOSED;
        if (g->ops->sync)
            g->ops->sync(g);
    }
    LOG(call->srv, INFO, "game %s: loaded, %llu log entries, turn %d%s", id,
        (unsigned long long)g->t.log_seq, g->ops->turn(g),
        r.skipped ? " (some entries skipped)" : "");
    g->next = gs->list;
    gs->list = g;
    gs->loaded++;
    dormant_wake(gs, g);
    touch(gs, g);
    return players_may(call, g) ? g : NULL;
}

/* ------------------------------------------------------------------ the listener at start */

typedef struct latest {
    char id[64]; /* the most recently changed active game; "" none */
} latest_t;

static int on_latest(void *ud, const opfor_store_game_t *g) {
    latest_t *l = ud;
    if (strcmp(g->status, "active") != 0)
        return 0;
    snprintf(l->id, sizeof l->id, "%s", g->id);
    return 1; /* the list is most recently updated first: this one */
}

/* The message of an error answer packed into a call's buffer ("" when there is none). */
static void call_error_text(const opfor_call_t *call, char *buf, size_t size) {
    buf[0] = '\0';
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    size_t off = 0;
    if (call->buf.size &&
        msgpack_unpack_next(&up, call->buf.data, call->buf.size, &off) == MSGPACK_UNPACK_SUCCESS &&
        up.data.type == MSGPACK_OBJECT_ARRAY && up.data.via.array.size >= 3) {
        const msgpack_object *e = &up.data.via.array.ptr[2]; /* [code, message, ...] */
        if (e->type == MSGPACK_OBJECT_ARRAY && e->via.array.size >= 2 &&
            e->via.array.ptr[1].type == MSGPACK_OBJECT_STR)
            snprintf(buf, size, "%.*s", (int)e->via.array.ptr[1].via.str.size,
                     e->via.array.ptr[1].via.str.ptr);
    }
    msgpack_unpacked_destroy(&up);
}

int opfor__games_show_current(struct opfor__games *gs) {
    if (!opfor__server_has_event_listener(gs->srv))
        return 0;
    opfor_store_t *store = opfor__server_store(gs->srv);
    latest_t l = {""};
    int rc = opfor_store_game_list(store, on_latest, &l);
    if (rc < 0) {
        LOG(gs->srv, WARN, "the current game cannot be shown: game store: %s",
            opfor_store_errmsg(store));
        return rc;
    }
    if (!l.id[0])
        return 0;
    /* get_game answers a call on failure: a call of nobody's, whose answer goes nowhere */
    opfor_call_t call;
    memset(&call, 0, sizeof call);
    call.srv = gs->srv;
    call.notification = 1;
    call.in_handler = 1; /* the call is ours to free */
    msgpack_sbuffer_init(&call.buf);
    opfor__game_t *g = get_game(&call, l.id);
    if (!g) {
        char why[256];
        call_error_text(&call, why, sizeof why);
        LOG(gs->srv, WARN, "game %s cannot be shown: %s", l.id, why[0] ? why : "it does not load");
        msgpack_sbuffer_destroy(&call.buf);
        return OPFOR_EIO;
    }
    msgpack_sbuffer_destroy(&call.buf);
    msgpack_sbuffer st;
    msgpack_sbuffer_init(&st);
    pack_listener_state(g, &st);
    opfor__server_event(gs->srv, NULL, 0, st.data, st.size);
    msgpack_sbuffer_destroy(&st);
    LOG(gs->srv, INFO, "game %s: its current state handed to the event listener", l.id);
    return 1;
}

/* Reads the required `game` param after checking the keys. Answers the call on failure. */
static int game_param(opfor_call_t *call, const msgpack_object *params, const char *const *allowed,
                      char *id, size_t n) {
    char why[200];
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0) {
        answer(call, OPFOR_RPC_E_INVALID_PARAMS, why);
        return -1;
    }
    int rc = opfor_rpc_params_str(params, "game", id, n, why, sizeof why);
    if (rc == OPFOR_ENOENT) {
        answer(call, OPFOR_RPC_E_INVALID_PARAMS, "game: the game id is required");
        return -1;
    }
    if (rc < 0) {
        answer(call, OPFOR_RPC_E_INVALID_PARAMS, why);
        return -1;
    }
    return 0;
}

/* The game a call's params name (params checked against allowed), loaded if need be; NULL
 * when the call has been answered with the error. */
static opfor__game_t *game_of_params(opfor_call_t *call, const msgpack_object *params,
                                     const char *const *allowed) {
    char id[64];
    if (game_param(call, params, allowed, id, sizeof id) < 0)
        return NULL;
    return get_game(call, id);
}

/* ------------------------------------------------------------------ committing */

/* Saves g's points in the high-score table under result: its result name when it finished,
 * OPFOR_SCORES_ABANDONED when it was closed before its end (kept apart, never ranked). */
static void record_score(struct opfor__games *gs, opfor__game_t *g, const char *result) {
    char err[512];
    if (!gs->hs && opfor_scores_open(&gs->hs, gs->dbpath, err, sizeof err) != 0) {
        LOG(gs->srv, ERROR, "game %s: high score not saved: %s", g->row.id, err);
        return;
    }
    opfor_score_row_t row;
    memset(&row, 0, sizeof row);
    snprintf(row.scenario, sizeof row.scenario, "%.63s", g->row.scenario_name);
    snprintf(row.player, sizeof row.player, "%.63s", g->player[0] ? g->player : g->row.id);
    g->ops->score(g, &row.score, &row.turns);
    row.seed = g->row.seed;
    snprintf(row.result, sizeof row.result, "%s", result);
    if (opfor_scores_add(gs->hs, &row, NULL) != 0)
        LOG(gs->srv, ERROR, "game %s: high score not saved: %s", g->row.id,
            opfor_scores_errmsg(gs->hs));
    else
        LOG(gs->srv, INFO, "game %s: %s with %d points (high-score table)", g->row.id, row.result,
            row.score);
}

/* Saves g's position as of log entry seq (a failure only costs a longer replay). */
static void snapshot(opfor_server_t *s, opfor__game_t *g, uint64_t seq) {
    opfor_store_t *store = opfor__server_store(s);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    int rc = g->ops->snapshot(g, &sb);
    if (rc == 0)
        rc = opfor_store_snapshot_put(store, g->row.id, seq, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
    if (rc == OPFOR_ENOTSUP)
        return; /* the table game cannot serialize: its games always replay in full */
    if (rc < 0)
        LOG(s, WARN, "game %s: snapshot at %llu not saved: %s", g->row.id, (unsigned long long)seq,
            opfor_store_errmsg(store));
}

/* Applies a log entry (kind, payload bytes; len 0: none) to the work copies, appends it to
 * the log (durably), then keeps it and publishes its events. Returns 0 with ev filled, or
 * answers the call and returns -1. */
static int commit(opfor_call_t *call, opfor__game_t *g, const char *kind, const void *payload,
                  size_t len, opfor__evlist_t *ev) {
    opfor_server_t *s = call->srv;
    struct opfor__games *gs = opfor__server_games(s);
    opfor_store_t *store = opfor__server_store(s);
    opfor__table_t tmp = g->t;
    g->ops->begin(g);
    const uint64_t seq = g->t.log_seq + 1;
    const int was_status = g->t.status;
    opfor__gerr_t err = {.code = OPFOR_RPC_E_INTERNAL};
    int rc = g->ops->apply(g, &tmp, seq, kind, payload, len, ev, &err);
    if (rc < 0) {
        opfor_call_error_hint(call, err.code ? err.code : opfor_rpc_err_from_opfor(rc), &err.hint,
                              "%s", err.msg[0] ? err.msg : opfor_strerror(rc));
        return -1;
    }
    uint64_t got = 0;
    rc = opfor_store_append(store, g->row.id, kind, payload, len, &got);
    if (rc < 0 || got != seq) {
        LOG(s, ERROR, "game %s: cannot save a %s: %s", g->row.id, kind,
            rc < 0 ? opfor_store_errmsg(store) : "the log and the game disagree");
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "the %s was not saved (%s): nothing changed",
                         kind, rc < 0 ? opfor_store_errmsg(store) : "log out of step");
        if (rc == 0) /* reload the game from its log next time */
            unload(gs, g, "its log is out of step");
        return -1;
    }
    g->t = tmp;
    g->ops->keep(g);
    opfor_workers_game_changed(opfor__server_workers(s), g->row.id);
    stop_searches(g);
    publish(gs, g, ev);
    if (seq % OPFOR__GAME_SNAPSHOT_EVERY == 0)
        snapshot(s, g, seq);
    if (was_status == OPFOR__GS_ACTIVE && g->t.status != OPFOR__GS_ACTIVE) {
        const char *st = opfor__game_status_name(g->t.status);
        if (opfor_store_game_set_status(store, g->row.id, st) < 0)
            LOG(s, WARN, "game %s: status not saved: %s", g->row.id, opfor_store_errmsg(store));
        snprintf(g->row.status, sizeof g->row.status, "%s", st);
        if (g->ops->score) /* a ruleset that scores: a game closed early is abandoned */
            record_score(gs, g,
                         g->t.status == OPFOR__GS_FINISHED ? opfor__game_result_name(g->t.result)
                                                           : OPFOR_SCORES_ABANDONED);
        touch(gs, g); /* it leaves memory once this call is answered */
    }
    return 0;
}

/* The common answer of a mutation: where the game stands and the events it caused. */
static void answer_ack(opfor_call_t *call, const opfor__game_t *g, const opfor__evlist_t *ev) {
    msgpack_packer *pk = opfor_call_result_begin(call);
    msgpack_pack_map(pk, (uint32_t)(2 + g->ops->nwhere));
    opfor__kv_str(pk, "game", g->row.id);
    g->ops->pack_where(g, pk);
    opfor_rpc_pack_cstr(pk, "events");
    msgpack_pack_array(pk, (size_t)(ev ? ev->n : 0));
    for (int i = 0; ev && i < ev->n; i++)
        pack_raw(pk, ev->buf[i].data, ev->buf[i].size);
    opfor_call_result_end(call);
}

/* ------------------------------------------------------------------ game.new, list, state */

static int id_char_ok(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
}

/* A new game whose table game writes a `begin` entry: its log's first entry says which rules
 * it is played under. 0, or -1 with the game deleted, freed and the call answered. */
static int begin_entry(opfor_call_t *call, opfor__game_t *g) {
    opfor_store_t *store = opfor__server_store(call->srv);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    g->ops->begin_payload(g, &pk);
    uint64_t got = 0;
    int rc = opfor_store_append(store, g->row.id, "begin", sb.data, sb.size, &got);
    opfor__table_t t = g->t;
    opfor__evlist_t ev;
    opfor__evlist_init(&ev);
    opfor__gerr_t err = {0};
    if (rc == 0 && got == 1) { /* applied like any entry, as replay will */
        g->ops->begin(g);
        rc = g->ops->apply(g, &t, 1, "begin", sb.data, sb.size, &ev, &err);
    }
    opfor__evlist_free(&ev);
    msgpack_sbuffer_destroy(&sb);
    if (rc < 0 || got != 1) {
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game store: %s",
                         rc < 0 && !err.msg[0] ? opfor_store_errmsg(store)
                         : got != 1            ? "the new game's log is not empty"
                                               : err.msg);
        opfor_store_game_delete(store, g->row.id);
        opfor__game_free(g);
        return -1;
    }
    g->t = t;
    g->ops->keep(g);
    return 0;
}

static int yaml_given(const msgpack_object *params) {
    return opfor_rpc_params_get(params, "scenario_yaml") != NULL;
}

/* `level` (the AI level) and its deprecated alias `difficulty` (api_level 3) into
 * row->difficulty: either may be given, both only when they agree. Answers the call and
 * returns -1 on failure. */
static int level_param(opfor_call_t *call, const msgpack_object *params, opfor_store_game_t *row) {
    char level[sizeof row->difficulty] = "", why[200];
    if (opfor_rpc_params_str(params, "level", level, sizeof level, why, sizeof why) ==
        OPFOR_EINVAL) {
        answer(call, OPFOR_RPC_E_INVALID_PARAMS, why);
        return -1;
    }
    if (!level[0])
        return 0; /* difficulty alone (checked when the game opens), or neither */
    int lv;
    if (opfor_ai_level_find(level, &lv) != 0) {
        opfor_call_error(call, OPFOR_RPC_E_INVALID_PARAMS,
                         "level: '%s' is not a level (novice, standard, veteran, ruthless, "
                         "challenge)",
                         level);
        return -1;
    }
    int dv;
    if (row->difficulty[0] && (opfor_ai_level_find(row->difficulty, &dv) != 0 || dv != lv)) {
        opfor_call_error(call, OPFOR_RPC_E_INVALID_PARAMS,
                         "level: '%s' and difficulty: '%s' disagree (difficulty is the old name "
                         "of level: give one)",
                         level, row->difficulty);
        return -1;
    }
    snprintf(row->difficulty, sizeof row->difficulty, "%s", level);
    return 0;
}

/* The registered ruleset row->ruleset names ("" : the first registered), its name written
 * back into the row; NULL when there is none, with the call answered (listing the
 * registered rulesets). */
static const opfor_ruleset_t *ruleset_param(opfor_call_t *call, opfor_store_game_t *row) {
    size_t n = 0;
    const opfor_ruleset_entry_t *reg = opfor_ruleset_list(&n);
    const opfor_ruleset_t *rs = row->ruleset[0] ? opfor_ruleset_find(row->ruleset)
                                : n             ? reg[0].rs
                                                : NULL;
    if (rs) {
        snprintf(row->ruleset, sizeof row->ruleset, "%s", rs->name);
        return rs;
    }
    char names[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < sizeof names; i++)
        len +=
            (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", reg[i].name);
    opfor_call_error(call, OPFOR_RPC_E_UNSUPPORTED,
                     "ruleset: no ruleset '%s' in this build (registered: %s)", row->ruleset,
                     n ? names : "none");
    return NULL;
}

int opfor__method_game_new(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"id",     "ruleset", "scenario",   "scenario_yaml",
                                          "mode",   "seed",    "difficulty", "level",
                                          "player", "cheat",   NULL};
    char why[200];
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0)
        return answer(call, OPFOR_RPC_E_INVALID_PARAMS, why);
    opfor_store_game_t row;
    memset(&row, 0, sizeof row);
    int64_t seed = -1;
    struct {
        const char *key;
        char *buf;
        size_t n;
    } strs[] = {{"id", row.id, 41},
                {"ruleset", row.ruleset, sizeof row.ruleset},
                {"scenario", row.scenario_name, sizeof row.scenario_name},
                {"mode", row.mode, sizeof row.mode},
                {"difficulty", row.difficulty, sizeof row.difficulty}};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (opfor_rpc_params_str(params, strs[i].key, strs[i].buf, strs[i].n, why, sizeof why) ==
            OPFOR_EINVAL)
            return answer(call, OPFOR_RPC_E_INVALID_PARAMS, why);
    if (opfor_rpc_params_int(params, "seed", 0, INT64_MAX, &seed, why, sizeof why) == OPFOR_EINVAL)
        return answer(call, OPFOR_RPC_E_INVALID_PARAMS, why);
    if (level_param(call, params, &row) < 0)
        return 0;
    char player[64] = "";
    int cheat = 0;
    if (opfor_rpc_params_str(params, "player", player, sizeof player, why, sizeof why) ==
            OPFOR_EINVAL ||
        opfor_rpc_params_bool(params, "cheat", &cheat, why, sizeof why) == OPFOR_EINVAL)
        return answer(call, OPFOR_RPC_E_INVALID_PARAMS, why);
    const opfor_ruleset_t *rs = ruleset_param(call, &row);
    if (!rs)
        return 0;
    const opfor__table_game_ops_t *ops = opfor__table_game_for(rs);
    if ((player[0] || cheat) && !ops->begin_payload)
        return answer(call, OPFOR_RPC_E_UNSUPPORTED,
                      "player, cheat: this ruleset's games do not keep game options");
    if (cheat && !ops->cheats)
        return answer(call, OPFOR_RPC_E_UNSUPPORTED,
                      "cheat: this ruleset's AI has nothing hidden to read");
    if (!ops->inline_scenarios && yaml_given(params))
        return answer(call, OPFOR_RPC_E_UNSUPPORTED,
                      "scenario_yaml: inline scenarios are for the table engine's rulesets; "
                      "name a scenario of this ruleset instead");
    for (const char *c = row.id; *c; c++)
        if (!id_char_ok(*c))
            return answer(call, OPFOR_RPC_E_INVALID_PARAMS,
                          "id: letters, digits, '-', '_' and '.' only (at most 40)");
    const msgpack_object *yo = opfor_rpc_params_get(params, "scenario_yaml");
    const char *yaml = NULL;
    size_t ylen = 0;
    if (yo) {
        if (yo->type != MSGPACK_OBJECT_STR || yo->via.str.size == 0)
            return answer(call, OPFOR_RPC_E_INVALID_PARAMS,
                          "scenario_yaml: must be the scenario's YAML text");
        yaml = yo->via.str.ptr;
        ylen = yo->via.str.size;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct opfor__games *gs = opfor__server_games(call->srv);
    uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    row.seed = seed >= 0 ? (uint64_t)seed : opfor_rng_mix64(now) >> 1;
    opfor__game_t *g = NULL;
    opfor__gerr_t err = {0};
    opfor__game_src_t src = {yaml, ylen, opfor__server_model(call->srv)};
    int rc = opfor__game_open(&g, &row, rs, ops, &src, &err);
    if (rc < 0)
        return answer_gerr(call, &err);
    snprintf(g->player, sizeof g->player, "%s", player); /* kept in the begin entry */
    g->cheat = cheat;
    opfor_store_t *store = opfor__server_store(call->srv);
    const int given = row.id[0] != '\0';
    for (int attempt = 0; attempt < 8; attempt++) {
        if (!given)
            snprintf(g->row.id, sizeof g->row.id, "g%08llx",
                     (unsigned long long)(opfor_rng_mix64(now ^ ++gs->counter) & 0xffffffffu));
        rc = opfor_store_game_create(store, &g->row, yaml, ylen);
        if (rc != OPFOR_EBUSY || given)
            break;
    }
    if (rc < 0) {
        opfor__game_free(g);
        if (rc == OPFOR_EBUSY)
            return answer(call, OPFOR_RPC_E_ILLEGAL, "id: a game with that id exists already");
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game store: %s", opfor_store_errmsg(store));
        return 0;
    }
    if (g->ops->begin_payload && begin_entry(call, g) < 0)
        return 0;
    snprintf(g->row.status, sizeof g->row.status, "active");
    g->next = gs->list;
    gs->list = g;
    gs->loaded++;
    dormant_wake(gs, g); /* none: a new id */
    touch(gs, g);
    LOG(call->srv, INFO, "game %s: new %s game on %s, seed %llu, %s", g->row.id,
        g->row.mode[0] ? g->row.mode : g->row.ruleset,
        g->row.scenario_name[0] ? g->row.scenario_name : "inline YAML",
        (unsigned long long)g->row.seed, g->row.difficulty);
    int viewer = 0;
    g->ops->viewer(g, NULL, 0, &viewer, NULL);
    msgpack_packer *pk = opfor_call_result_begin(call);
    g->ops->pack_state(g, viewer, pk);
    opfor_call_result_end(call);
    return 0;
}

typedef struct list_ctx {
    opfor_store_game_t *rows; /* gathered rows */
    size_t n, cap;            /* used, allocated */
    char status[16];          /* filter, "" all */
} list_ctx_t;

static int on_list(void *ud, const opfor_store_game_t *g) {
    list_ctx_t *l = ud;
    if (l->status[0] && strcmp(l->status, g->status) != 0)
        return 0;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        opfor_store_game_t *p = realloc(l->rows, cap * sizeof *p);
        if (!p)
            return OPFOR_ENOMEM;
        l->rows = p;
        l->cap = cap;
    }
    l->rows[l->n++] = *g;
    return 0;
}

int opfor__method_game_list(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"status", NULL};
    char why[200];
    list_ctx_t l;
    memset(&l, 0, sizeof l);
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0 ||
        opfor_rpc_params_str(params, "status", l.status, sizeof l.status, why, sizeof why) ==
            OPFOR_EINVAL)
        return answer(call, OPFOR_RPC_E_INVALID_PARAMS, why);
    opfor_store_t *store = opfor__server_store(call->srv);
    int rc = opfor_store_game_list(store, on_list, &l);
    if (rc < 0) {
        free(l.rows);
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game store: %s",
                         rc == OPFOR_ENOMEM ? "out of memory" : opfor_store_errmsg(store));
        return 0;
    }
    const int pl = players(call);
    if (pl) { /* the players' link lists no `cheat` game (the others in their order) */
        size_t keep = 0;
        for (size_t i = 0; i < l.n; i++) {
            first_entry_t f;
            if (first_entry(store, l.rows[i].id, &f) == 0 && f.found &&
                strcmp(f.kind, "begin") == 0 && opfor__game_options_cheat(f.payload, f.len))
                continue;
            if (keep != i)
                l.rows[keep] = l.rows[i];
            keep++;
        }
        l.n = keep;
    }
    msgpack_packer *pk = opfor_call_result_begin(call);
    msgpack_pack_map(pk, 1);
    opfor_rpc_pack_cstr(pk, "games");
    msgpack_pack_array(pk, l.n);
    for (size_t i = 0; i < l.n; i++) {
        const opfor_store_game_t *r = &l.rows[i];
        uint64_t seq = r->last_seq;
        const opfor_ruleset_t *rs = opfor_ruleset_find(r->ruleset);
        first_entry_t f; /* a begin entry the table game does not count on the wire */
        if (seq && rs && !opfor__table_game_for(rs)->begin_on_wire &&
            first_entry(store, r->id, &f) == 0 && f.found && strcmp(f.kind, "begin") == 0)
            seq--;
        msgpack_pack_map(pk, pl ? 9 : 10);
        opfor__kv_str(pk, "game", r->id);
        opfor__kv_str(pk, "ruleset", r->ruleset);
        opfor__kv_str(pk, "scenario", r->scenario_name);
        opfor__kv_str(pk, "mode", r->mode);
        if (!pl) /* the players' view: every draw of the game follows from it */
            opfor__kv_u64(pk, "seed", r->seed);
        opfor__kv_str(pk, "difficulty", r->difficulty);
        opfor__kv_str(pk, "status", r->status);
        opfor__kv_i64(pk, "created", r->created);
        opfor__kv_i64(pk, "updated", r->updated);
        opfor__kv_u64(pk, "log_seq", seq);
    }
    opfor_call_result_end(call);
    free(l.rows);
    return 0;
}

int opfor__method_game_state(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "viewer", NULL};
    opfor__game_t *g = game_of_params(call, params, allowed);
    if (!g)
        return 0;
    int viewer = 0;
    opfor__gerr_t err = {0};
    const int pl = players(call);
    if (g->ops->viewer(g, params, !pl && opfor__server_cfg(call->srv)->debug_methods, &viewer,
                       &err) < 0)
        return answer_gerr(call, &err);
    if (!pl) {
        msgpack_packer *pk = opfor_call_result_begin(call);
        g->ops->pack_state(g, viewer, pk);
        opfor_call_result_end(call);
        return 0;
    }
    int table = 0; /* the players' view: the default viewer (the first table side) only */
    g->ops->viewer(g, NULL, 0, &table, NULL);
    if (viewer != table)
        return answer(call, OPFOR_RPC_E_UNAUTHORIZED,
                      "viewer: the players' link sees the game as its first table side does "
                      "(leave viewer out); the game master's link opens the others");
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer spk;
    msgpack_packer_init(&spk, &sb, msgpack_sbuffer_write);
    g->ops->pack_state(g, viewer, &spk);
    msgpack_packer *pk = opfor_call_result_begin(call);
    opfor__players_pack(pk, sb.data, sb.size); /* without the seed */
    opfor_call_result_end(call);
    msgpack_sbuffer_destroy(&sb);
    return 0;
}

/* ------------------------------------------------------------------ close, press, report */

int opfor__method_game_close(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", NULL};
    opfor__game_t *g = game_of_params(call, params, allowed);
    if (!g)
        return 0;
    opfor__evlist_t ev;
    opfor__evlist_init(&ev);
    if (g->t.status != OPFOR__GS_CLOSED && commit(call, g, "close", NULL, 0, &ev) < 0) {
        opfor__evlist_free(&ev);
        return 0;
    }
    answer_ack(call, g, &ev);
    opfor__evlist_free(&ev);
    return 0;
}

/* Hands a job for game g to the worker threads (keyed by the game, so a change to it cancels
 * the job); the game is held until the job's done callback. 0 or a negative error. */
static int submit_job(opfor_call_t *call, opfor__game_t *g, opfor_job_t *job, opfor_job_fn run,
                      opfor_job_fn done) {
    job->run = run;
    job->done = done;
    job->call = call;
    snprintf(job->key, sizeof job->key, "%s", g->row.id);
    int rc = opfor_workers_submit(opfor__server_workers(call->srv), job);
    if (rc == OPFOR_EFULL) { /* issue 16: a full search queue says so (docs/protocol.md) */
        opfor_rpc_hint_t h = {0};
        opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_ASK_AGAIN);
        opfor_call_error_hint(call, OPFOR_RPC_E_BUSY, &h,
                              "the daemon's search queue is full (%u searches wait for a worker, "
                              "its --max-queued): ask again in a few seconds",
                              opfor__server_cfg(call->srv)->max_queued);
    }
    if (rc < 0)
        return rc;
    g->refs++;
    g->searching++;
    return 0;
}

/* Commits the entry a request became and answers with where the game stands. */
static void commit_entry(opfor_call_t *call, opfor__game_t *g, const opfor__entry_t *e) {
    opfor__evlist_t ev;
    opfor__evlist_init(&ev);
    if (commit(call, g, e->kind, e->sb->size ? e->sb->data : NULL, e->sb->size, &ev) == 0)
        answer_ack(call, g, &ev);
    opfor__evlist_free(&ev);
}

/* A ruleset method's step on a worker (a director's choice, say), then the entry it gives. */
typedef struct method_job {
    opfor_job_t job;  /* must stay first */
    opfor__game_t *g; /* the game (a reference is held) */
    uint64_t log_seq; /* the game's log when the job began */
    void *work;       /* the table game's step (ops->method) */
} method_job_t;

static void method_run(opfor_job_t *job) {
    method_job_t *mj = (method_job_t *)job;
    mj->g->ops->method_run(mj->g, mj->work);
}

static void method_done(opfor_job_t *job) {
    method_job_t *mj = (method_job_t *)job;
    opfor__game_t *g = mj->g;
    opfor_call_t *call = job->call;
    g->searching--;
    {
        int why = g->unloaded                             ? 3
                  : !job->ran || opfor_job_cancelled(job) ? 1
                  : g->t.log_seq != mj->log_seq           ? 2
                                                          : 0;
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        opfor__entry_t e = {"", &sb};
        opfor__gerr_t err = {0};
        if (g->ops->method_done(g, mj->work, why, &e, &err) < 0)
            answer_gerr(call, &err);
        else
            commit_entry(call, g, &e);
        msgpack_sbuffer_destroy(&sb);
    }
    if (!g->unloaded)
        touch(opfor__server_games(call->srv), g);
    game_unref(g);
    free(mj->work);
    free(mj);
}

/* Runs the table game's own method `verb` (ops->method) for g: the entry it gives is
 * committed, or its step goes to a worker first and method_done answers. */
static int run_method(opfor_call_t *call, opfor__game_t *g, const char *verb,
                      const msgpack_object *params) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    opfor__entry_t e = {"", &sb};
    opfor__gerr_t err = {0};
    void *work = NULL;
    int rc = g->ops->method(g, call->name, verb, params, &e, &work, &err);
    if (rc < 0) {
        answer_gerr(call, &err);
    } else if (rc == 0) {
        commit_entry(call, g, &e);
    } else {
        method_job_t *mj = malloc(sizeof *mj);
        rc = mj ? 0 : OPFOR_ENOMEM;
        if (mj) {
            memset(mj, 0, sizeof *mj);
            mj->g = g;
            mj->log_seq = g->t.log_seq;
            mj->work = work;
            rc = submit_job(call, g, &mj->job, method_run, method_done);
            if (rc < 0)
                free(mj);
        }
        if (rc < 0)
            free(work);
        msgpack_sbuffer_destroy(&sb);
        return rc; /* 0: answered by method_done */
    }
    msgpack_sbuffer_destroy(&sb);
    return 0;
}

int opfor__method_rs_method(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", NULL};
    opfor__game_t *g = game_of_params(call, params, allowed);
    if (!g)
        return 0;
    if (!g->ops->method) {
        opfor__gerr_t err = {0};
        opfor__game_not_here(g, call->name, &err);
        return answer_gerr(call, &err);
    }
    if (call->rs && opfor_ruleset_find(g->row.ruleset) != call->rs) { /* RULESET.VERB */
        opfor_call_error(call, OPFOR_RPC_E_UNSUPPORTED, "%s: game %s is a %s game", call->name,
                         g->row.id, g->row.ruleset);
        return 0;
    }
    const char *verb = strrchr(call->name, '.');
    verb = verb ? verb + 1 : call->name;
    return run_method(call, g, verb, params);
}

/* report, game.act, game.roll, game.report, game.action: the table game turns the params into
 * the log entry (or refuses a method that is not its own), which is committed like any. */
static int mutation(opfor_call_t *call, opfor__game_t *g, const char *method,
                    const msgpack_object *params) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    opfor__entry_t e = {"", &sb};
    opfor__gerr_t err = {0};
    int rc = g->ops->prepare(g, method, params, &e, &err);
    if (rc < 0) {
        answer_gerr(call, &err);
    } else if (rc == 1 && g->ops->method) { /* a table action that is the game's own method */
        char verb[sizeof e.kind];
        snprintf(verb, sizeof verb, "%s", e.kind);
        msgpack_sbuffer_destroy(&sb);
        return run_method(call, g, verb, params);
    } else {
        commit_entry(call, g, &e);
    }
    msgpack_sbuffer_destroy(&sb);
    return 0;
}

int opfor__method_report(opfor_call_t *call, const msgpack_object *params) {
    char id[64], why[200];
    int rc = opfor_rpc_params_str(params, "game", id, sizeof id, why, sizeof why);
    if (rc < 0)
        return answer(call, OPFOR_RPC_E_INVALID_PARAMS,
                      rc == OPFOR_ENOENT ? "game: the game id is required" : why);
    opfor__game_t *g = get_game(call, id);
    if (!g)
        return 0;
    return mutation(call, g, "report", params);
}

/* ------------------------------------------------------------------ ai.orders */

typedef struct plan_job {
    opfor_job_t job;       /* must stay first */
    struct plan_job *next; /* the game's list of running searches (g->jobs) */
    opfor__game_t *g;      /* the game (a reference is held) */
    uint64_t log_seq;      /* the game's log when the search began */
    int rc;                /* ops->plan's result */
    opfor__gerr_t err;     /* why it failed */
    void *work;            /* the table game's job: the position searched, the plan */
} plan_job_t;

/* The game changed: searches still running for it stop within one iteration (their calls
 * are answered with the new order, or CANCELLED). */
static void stop_searches(opfor__game_t *g) {
    for (plan_job_t *pj = g->jobs; pj; pj = pj->next)
        if (pj->job.call)
            atomic_store(&pj->job.call->cancelled, 1);
}

static int plan_cancelled(void *ud) {
    return opfor_job_cancelled(ud);
}

static void plan_run(opfor_job_t *job) {
    plan_job_t *pj = (plan_job_t *)job;
    pj->rc = pj->g->ops->plan(pj->g, pj->work, plan_cancelled, job, &job->call->cancelled,
                              job->share, &pj->err);
}

/* Answers with the game's open order when one was given since `since`. */
static int answer_existing(opfor_call_t *call, opfor__game_t *g, uint64_t since) {
    if (!g->ops->order_open(g, since))
        return 0;
    msgpack_packer *pk = opfor_call_result_begin(call);
    g->ops->pack_order(g, pk);
    opfor_call_result_end(call);
    return 1;
}

static void plan_done(opfor_job_t *job) {
    plan_job_t *pj = (plan_job_t *)job;
    opfor__game_t *g = pj->g;
    opfor_call_t *call = job->call;
    g->searching--;
    for (plan_job_t **pp = (plan_job_t **)&g->jobs; *pp; pp = &(*pp)->next)
        if (*pp == pj) {
            *pp = pj->next;
            break;
        }
    if (g->unloaded) {
        opfor_call_error(call, OPFOR_RPC_E_CANCELLED, "the game was unloaded during the search");
    } else if (answer_existing(call, g, pj->log_seq)) {
        /* another search for the same initiative finished first: its order stands */
    } else if (!job->ran || pj->rc == OPFOR_ECANCELED || opfor_job_cancelled(job)) {
        opfor_call_error(call, OPFOR_RPC_E_CANCELLED,
                         "the search was cancelled (the client left, the game changed or the "
                         "server is stopping)");
    } else if (g->t.log_seq != pj->log_seq) {
        opfor_rpc_hint_t h = {0};
        opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_ASK_AGAIN);
        opfor_call_error_hint(call, OPFOR_RPC_E_CANCELLED, &h,
                              "the game changed during the search: ask again");
    } else if (pj->rc == OPFOR_EILLEGAL && pj->err.msg[0]) {
        answer_gerr(call, &pj->err);
    } else if (pj->rc < 0) {
        opfor_call_error(call, opfor_rpc_err_from_opfor(pj->rc), "the search failed: %s",
                         opfor_strerror(pj->rc));
    } else {
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        g->ops->plan_pack(g, pj->work, g->t.log_seq + 1, &pk);
        opfor__evlist_t ev;
        opfor__evlist_init(&ev);
        if (commit(call, g, "order", sb.data, sb.size, &ev) == 0) {
            msgpack_packer *rp = opfor_call_result_begin(call);
            g->ops->pack_order(g, rp);
            opfor_call_result_end(call);
        }
        opfor__evlist_free(&ev);
        msgpack_sbuffer_destroy(&sb);
    }
    if (!g->unloaded)
        touch(opfor__server_games(call->srv), g);
    game_unref(g);
    free(pj->work);
    free(pj);
}

int opfor__method_ai_orders(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", NULL};
    opfor__game_t *g = game_of_params(call, params, allowed);
    if (!g)
        return 0;
    opfor__gerr_t err = {0};
    if (g->ops->plan_check(g, &err) < 0) {
        if (answer_existing(call, g, 0))
            return 0; /* the order just given, again */
        return answer_gerr(call, &err);
    }
    plan_job_t *pj = malloc(sizeof *pj);
    void *work = g->ops->plan_new(g);
    if (!pj || !work) {
        free(pj);
        free(work);
        return OPFOR_ENOMEM;
    }
    memset(pj, 0, sizeof *pj);
    pj->g = g;
    pj->log_seq = g->t.log_seq;
    pj->work = work;
    int rc = submit_job(call, g, &pj->job, plan_run, plan_done);
    if (rc < 0) {
        free(work);
        free(pj);
        return rc;
    }
    pj->next = g->jobs;
    g->jobs = pj;
    return 0; /* answered by plan_done */
}

/* ------------------------------------------------------------------ subscriptions */

int opfor__method_subscribe(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "after", NULL};
    char id[64], why[200];
    int64_t after = -1;
    if (game_param(call, params, allowed, id, sizeof id) < 0)
        return 0;
    if (opfor_rpc_params_int(params, "after", 0, INT64_MAX, &after, why, sizeof why) ==
        OPFOR_EINVAL)
        return answer(call, OPFOR_RPC_E_INVALID_PARAMS, why);
    opfor__game_t *g = get_game(call, id);
    if (!g || !call->client)
        return 0;
    uint64_t serial = call->client->serial;
    unsigned k = 0;
    while (k < g->nsubs && g->subs[k] != serial)
        k++;
    if (k == g->nsubs) {
        if (g->nsubs == g->subs_cap) {
            unsigned cap = g->subs_cap ? g->subs_cap * 2 : 4;
            uint64_t *p = realloc(g->subs, cap * sizeof *p);
            if (!p)
                return OPFOR_ENOMEM;
            g->subs = p;
            g->subs_cap = cap;
        }
        g->subs[g->nsubs++] = serial;
    }
    /* events after `after` that are still kept */
    unsigned first = g->ev_count;
    for (unsigned i = 0; i < g->ev_count && after >= 0; i++)
        if (g->ev_seq_of[(g->ev_head + i) % OPFOR__GAME_EVENTS_KEEP] > (uint64_t)after) {
            first = i;
            break;
        }
    unsigned n = after >= 0 ? g->ev_count - first : 0;
    int missed = 0;
    if (after >= 0 && (uint64_t)after < g->t.ev_seq) {
        uint64_t oldest =
            n ? g->ev_seq_of[(g->ev_head + first) % OPFOR__GAME_EVENTS_KEEP] : g->t.ev_seq + 1;
        missed = oldest > (uint64_t)after + 1;
    }
    msgpack_packer *pk = opfor_call_result_begin(call);
    msgpack_pack_map(pk, 5);
    opfor__kv_str(pk, "game", g->row.id);
    opfor__kv_bool(pk, "subscribed", 1);
    opfor__kv_u64(pk, "seq", g->t.ev_seq);
    opfor__kv_int(pk, "missed", missed);
    opfor_rpc_pack_cstr(pk, "events");
    msgpack_pack_array(pk, n);
    for (unsigned i = first; i < g->ev_count && n; i++) {
        const msgpack_sbuffer *b = &g->ev[(g->ev_head + i) % OPFOR__GAME_EVENTS_KEEP];
        pack_raw(pk, b->data, b->size);
    }
    opfor_call_result_end(call);
    return 0;
}

int opfor__method_unsubscribe(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", NULL};
    char id[64];
    if (game_param(call, params, allowed, id, sizeof id) < 0)
        return 0;
    struct opfor__games *gs = opfor__server_games(call->srv);
    opfor__game_t *g = find_loaded(gs, id);
    int was = 0;
    if (g && call->client)
        for (unsigned k = 0; k < g->nsubs; k++)
            if (g->subs[k] == call->client->serial) {
                g->subs[k] = g->subs[--g->nsubs];
                was = 1;
                break;
            }
    dormant_t *d = g ? NULL : *dormant_find(gs, id); /* the game is out of memory */
    for (unsigned k = 0; d && call->client && k < d->nsubs; k++)
        if (d->subs[k] == call->client->serial) {
            d->subs[k] = d->subs[--d->nsubs];
            was = 1;
            break;
        }
    if (!g) {
        opfor_store_game_t row;
        if (opfor_store_game_get(opfor__server_store(call->srv), id, &row) == OPFOR_ENOENT)
            return answer(call, OPFOR_RPC_E_NOT_FOUND, "game: no such game");
    }
    msgpack_packer *pk = opfor_call_result_begin(call);
    msgpack_pack_map(pk, 3);
    opfor__kv_str(pk, "game", id);
    opfor__kv_bool(pk, "subscribed", 0);
    opfor__kv_int(pk, "was_subscribed", was);
    opfor_call_result_end(call);
    return 0;
}

/* ------------------------------------------------------------------ game.act, roll, ... */

static int gen_mutation(opfor_call_t *call, const msgpack_object *params,
                        const char *const *allowed, const char *method) {
    opfor__game_t *g = game_of_params(call, params, allowed);
    if (!g)
        return 0;
    return mutation(call, g, method, params);
}

int opfor__method_game_act(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "action", NULL};
    return gen_mutation(call, params, allowed, "game.act");
}

int opfor__method_game_roll(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "outcome", NULL};
    return gen_mutation(call, params, allowed, "game.roll");
}

int opfor__method_game_report(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "form", "fields", "side", "seen", NULL};
    return gen_mutation(call, params, allowed, "game.report");
}

/* game.undo: takes back the last report (the table game says whether it can, and logs the
 * undo as an entry, so it replays and every subscriber sees its event). */
int opfor__method_game_undo(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "report", NULL};
    return gen_mutation(call, params, allowed, "game.undo");
}

int opfor__method_game_action(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "form", "fields", "seen", NULL};
    return gen_mutation(call, params, allowed, "game.action");
}
