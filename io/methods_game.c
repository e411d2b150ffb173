/* io/methods_game.c — the game methods: game.new, game.list, game.state, game.close,
 * patrol.initiative, report, ai.orders, subscribe, unsubscribe, and for games of the other
 * registered rulesets game.act, game.roll, game.report, game.action; and the registry behind
 * them. A game of the table engine's ruleset (opfor__game_native) lives in game*.c; any other
 * in game_gen.c (g->gen), which the same commit, replay, events and workers serve.
 *
 * A mutation is computed on a copy of the game's table (game*.c), appended to the store's log,
 * and only then swapped in, published as `event` notifications and answered: the answer is the
 * acknowledgement that the entry is durable. Games load lazily by replaying their logs from
 * the latest snapshot; a snapshot is written every OPFOR__GAME_SNAPSHOT_EVERY entries. AI
 * orders (and, at level challenge, the director's choice of a spotting) are worked out on the
 * daemon's worker threads on a copy of the table; a job holds a reference on its game and is
 * cancelled when its client leaves or the game changes. Loop thread only, except plan_run and
 * press_run.
 */
#include "games_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game_gen_int.h"
#include "game_int.h"
#include "methods_int.h"
#include "opfor/ai.h"
#include "opfor/ruleset.h"
#include "opfor/viktoria/director.h"
#include "opfor/scores.h"
#include "opfor/store.h"
#include "opfor/workers.h"
#include "pack_int.h"
#include "server_int.h"

struct opfor__games {
    opfor_server_t *srv; /* the server */
    opfor__game_t *list; /* games in memory */
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

static void ring_push(opfor__game_t *g, const char *data, size_t len, uint64_t seq) {
    unsigned slot = (g->ev_head + g->ev_count) % OPFOR__GAME_EVENTS_KEEP;
    if (g->ev_count == OPFOR__GAME_EVENTS_KEEP) {
        slot = g->ev_head;
        g->ev_head = (g->ev_head + 1) % OPFOR__GAME_EVENTS_KEEP;
    } else {
        g->ev_count++;
    }
    msgpack_sbuffer_clear(&g->ev[slot]);
    msgpack_sbuffer_write(&g->ev[slot], data, len);
    g->ev_seq_of[slot] = seq;
}

/* The seq numbers of ev's events are t->ev_seq - n + 1 .. t->ev_seq. */
static void keep_events(opfor__game_t *g, const opfor__evlist_t *ev, uint64_t last_seq) {
    for (int i = 0; i < ev->n; i++)
        ring_push(g, ev->buf[i].data, ev->buf[i].size, last_seq - (uint64_t)(ev->n - 1 - i));
}

static void publish(struct opfor__games *gs, opfor__game_t *g, const opfor__evlist_t *ev) {
    keep_events(g, ev, g->t.ev_seq);
    if (ev->n && opfor__server_has_event_listener(gs->srv)) {
        /* opford's e-ink display (opfor_server_on_event): each event with the new state */
        msgpack_sbuffer st;
        msgpack_sbuffer_init(&st);
        msgpack_packer spk;
        msgpack_packer_init(&spk, &st, msgpack_sbuffer_write);
        if (g->gen) /* the panel stands at the table: the table's view, never the AI's hand */
            opfor__gen_pack_state(g, opfor__gen_table_side(g), &spk);
        else
            opfor__game_pack_state(g, &spk);
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

/* ------------------------------------------------------------------ loading (replay) */

typedef struct replay {
    struct opfor__games *gs; /* registry */
    opfor__game_t *g;        /* game being rebuilt */
    opfor__table_t *tmp;     /* scratch copy */
    int bad_snapshot;        /* 1: the snapshot was unusable; replay from the start */
    unsigned skipped;        /* entries that did not apply (logged) */
} replay_t;

static int on_snapshot(void *ud, uint64_t seq, const void *state, size_t len) {
    replay_t *r = ud;
    if (r->g->gen) {
        if (opfor__gen_restore(r->g, seq, state, len) != 0) {
            r->bad_snapshot = 1;
            return 1;
        }
        return 0;
    }
    opfor__table_t head;
    if (len != sizeof head) {
        r->bad_snapshot = 1;
        return 1;
    }
    memcpy(&head, state, sizeof head);
    if (head.magic != OPFOR__TABLE_MAGIC || head.size != sizeof head || head.log_seq != seq) {
        r->bad_snapshot = 1;
        return 1;
    }
    memcpy(&r->g->t, state, sizeof head);
    return 0;
}

/* A generic game's log entry (payload bytes) applied to its work copies and t. */
static int gen_apply_entry(const opfor__game_t *g, opfor__table_t *t, const opfor_store_entry_t *e,
                           opfor__evlist_t *ev, opfor__gerr_t *err) {
    opfor__gen_begin(g->gen);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    const msgpack_object *pl = NULL;
    if (e->len && msgpack_unpack_next(&u, e->payload, e->len, &off) == MSGPACK_UNPACK_SUCCESS)
        pl = &u.data;
    int rc = opfor__gen_apply(g, t, e->seq, e->kind, pl, ev, err);
    msgpack_unpacked_destroy(&u);
    return rc;
}

static int on_entry(void *ud, const opfor_store_entry_t *e) {
    replay_t *r = ud;
    opfor__game_t *g = r->g;
    opfor__evlist_t ev;
    opfor__evlist_init(&ev);
    opfor__gerr_t err = {0};
    memcpy(r->tmp, &g->t, sizeof *r->tmp);
    int rc =
        g->gen ? gen_apply_entry(g, r->tmp, e, &ev, &err)
               : opfor__game_apply_entry(g, r->tmp, e->seq, e->kind, e->payload, e->len, &ev, &err);
    if (rc < 0) {
        LOG(r->gs->srv, WARN, "game %s: log entry %llu (%s) does not apply: %s", g->row.id,
            (unsigned long long)e->seq, e->kind, err.msg);
        g->t.log_seq = e->seq;
        r->skipped++;
    } else {
        memcpy(&g->t, r->tmp, sizeof g->t);
        if (g->gen)
            opfor__gen_keep(g->gen);
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

/* A game of another ruleset is replayed only under the rules its log was written under (its
 * `begin` entry). 0, or -1 with the call answered. */
static int rules_ok(opfor_call_t *call, opfor_store_t *store, const opfor_store_game_t *row,
                    const opfor_ruleset_t *rs) {
    first_entry_t f;
    memset(&f, 0, sizeof f);
    int rc = opfor_store_entries(store, row->id, 0, on_first, &f);
    if (rc < 0) {
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game store: %s", opfor_store_errmsg(store));
        return -1;
    }
    opfor__gerr_t err = {0};
    if (opfor__gen_rules_check(row, rs, f.found ? f.kind : NULL, f.payload, f.len, &err) < 0) {
        answer_gerr(call, &err);
        return -1;
    }
    return 0;
}

/* The game with this id, loaded (by replay) when needed. Answers the call on failure. */
static opfor__game_t *get_game(opfor_call_t *call, const char *id) {
    struct opfor__games *gs = opfor__server_games(call->srv);
    opfor__game_t *g = find_loaded(gs, id);
    if (g)
        return g;
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
    if (!rs || (!opfor__game_native(rs) && rules_ok(call, store, &row, rs) < 0)) {
        free(yaml);
        return NULL;
    }
    if (opfor__game_native(rs))
        rc = opfor__game_open(&g, &row, yaml, ylen, opfor__server_model(call->srv), &err);
    else
        rc = opfor__gen_open(&g, &row, rs, &err);
    free(yaml);
    if (rc < 0) {
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game %s cannot be rebuilt: %s", id, err.msg);
        return NULL;
    }
    replay_t r = {gs, g, NULL, 0, 0};
    r.tmp = malloc(sizeof *r.tmp);
    if (!r.tmp) {
        opfor__game_free(g);
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "out of memory");
        return NULL;
    }
    opfor__table_t opening;
    memcpy(&opening, &g->t, sizeof opening);
    rc = opfor_store_load(store, id, on_snapshot, on_entry, &r);
    if (rc == 1 && r.bad_snapshot) { /* from the opening position, every entry */
        memcpy(&g->t, &opening, sizeof opening);
        if (g->gen)
            opfor__gen_reset(g);
        rc = opfor_store_entries(store, id, 0, on_entry, &r);
    }
    free(r.tmp);
    if (rc < 0) {
        opfor__game_free(g);
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game store: %s", opfor_store_errmsg(store));
        return NULL;
    }
    if (strcmp(row.status, "closed") == 0)
        g->t.status = OPFOR__GS_CLOSED;
    LOG(call->srv, INFO, "game %s: loaded, %llu log entries, turn %d%s", id,
        (unsigned long long)g->t.log_seq, g->t.ps.turn, r.skipped ? " (some entries skipped)" : "");
    g->next = gs->list;
    gs->list = g;
    return g;
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

static void stop_searches(opfor__game_t *g);

typedef int (*apply_fn)(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const void *arg,
                        opfor__evlist_t *ev, opfor__gerr_t *err);

static int apply_press(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const void *arg,
                       opfor__evlist_t *ev, opfor__gerr_t *err) {
    opfor__press_opt_t opt;
    memset(&opt, 0, sizeof opt);
    if (arg) {
        opt.has_spot = 1;
        opt.spot = *(const opfor_patrol_spot_t *)arg;
    }
    return opfor__game_press(g, t, seq, arg ? &opt : NULL, ev, err);
}

static int apply_report(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const void *arg,
                        opfor__evlist_t *ev, opfor__gerr_t *err) {
    return opfor__game_report(g, t, seq, arg, ev, err);
}

static int apply_order(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const void *arg,
                       opfor__evlist_t *ev, opfor__gerr_t *err) {
    return opfor__game_order(g, t, seq, arg, ev, err);
}

static int apply_close(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const void *arg,
                       opfor__evlist_t *ev, opfor__gerr_t *err) {
    (void)arg;
    if (g->gen)
        return opfor__gen_apply(g, t, seq, "close", NULL, ev, err);
    return opfor__game_close(g, t, seq, ev, err);
}

/* A generic game's log entry: its kind and payload. */
typedef struct gen_entry {
    const char *kind;
    const msgpack_object *payload;
} gen_entry_t;

static int apply_gen(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const void *arg,
                     opfor__evlist_t *ev, opfor__gerr_t *err) {
    const gen_entry_t *e = arg;
    return opfor__gen_apply(g, t, seq, e->kind, e->payload, ev, err);
}

static void record_score(struct opfor__games *gs, opfor__game_t *g) {
    char err[512];
    if (!gs->hs && opfor_scores_open(&gs->hs, gs->dbpath, err, sizeof err) != 0) {
        LOG(gs->srv, ERROR, "game %s: high score not saved: %s", g->row.id, err);
        return;
    }
    opfor_score_row_t row;
    memset(&row, 0, sizeof row);
    snprintf(row.scenario, sizeof row.scenario, "%.63s", g->row.scenario_name);
    snprintf(row.player, sizeof row.player, "%.63s", g->row.id);
    row.score = opfor__game_score_total(g, &g->t);
    row.seed = g->row.seed;
    snprintf(row.result, sizeof row.result, "%s", opfor__game_result_name(g->t.result));
    row.turns = g->t.ps.turn;
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
    int rc = 0;
    if (g->gen) {
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        rc = opfor__gen_snapshot(g, &sb);
        if (rc == 0)
            rc = opfor_store_snapshot_put(store, g->row.id, seq, sb.data, sb.size);
        msgpack_sbuffer_destroy(&sb);
        if (rc == OPFOR_ENOTSUP)
            return; /* the ruleset cannot serialize: its games always replay in full */
    } else {
        rc = opfor_store_snapshot_put(store, g->row.id, seq, &g->t, sizeof g->t);
    }
    if (rc < 0)
        LOG(s, WARN, "game %s: snapshot at %llu not saved: %s", g->row.id, (unsigned long long)seq,
            opfor_store_errmsg(store));
}

/* Applies a mutation to a copy, appends it to the log (durably), then swaps it in and
 * publishes its events. Returns 0 with ev filled, or answers the call and returns -1. */
static int commit(opfor_call_t *call, opfor__game_t *g, const char *kind, const void *payload,
                  size_t len, apply_fn fn, const void *arg, opfor__evlist_t *ev) {
    opfor_server_t *s = call->srv;
    struct opfor__games *gs = opfor__server_games(s);
    opfor_store_t *store = opfor__server_store(s);
    opfor__table_t *tmp = malloc(sizeof *tmp);
    if (!tmp) {
        answer(call, OPFOR_RPC_E_INTERNAL, "out of memory");
        return -1;
    }
    memcpy(tmp, &g->t, sizeof *tmp);
    if (g->gen)
        opfor__gen_begin(g->gen);
    const uint64_t seq = g->t.log_seq + 1;
    const int was_status = g->t.status;
    opfor__gerr_t err = {.code = OPFOR_RPC_E_INTERNAL};
    int rc = fn(g, tmp, seq, arg, ev, &err);
    if (rc < 0) {
        free(tmp);
        opfor_call_error_hint(call, err.code ? err.code : opfor_rpc_err_from_opfor(rc), &err.hint,
                              "%s", err.msg[0] ? err.msg : opfor_strerror(rc));
        return -1;
    }
    uint64_t got = 0;
    rc = opfor_store_append(store, g->row.id, kind, payload, len, &got);
    if (rc < 0 || got != seq) {
        free(tmp);
        LOG(s, ERROR, "game %s: cannot save a %s: %s", g->row.id, kind,
            rc < 0 ? opfor_store_errmsg(store) : "the log and the game disagree");
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "the %s was not saved (%s): nothing changed",
                         kind, rc < 0 ? opfor_store_errmsg(store) : "log out of step");
        if (rc == 0) { /* reload the game from its log next time */
            for (opfor__game_t **pp = &gs->list; *pp; pp = &(*pp)->next)
                if (*pp == g) {
                    *pp = g->next;
                    break;
                }
            g->unloaded = 1;
            game_unref(g);
        }
        return -1;
    }
    memcpy(&g->t, tmp, sizeof g->t);
    free(tmp);
    if (g->gen)
        opfor__gen_keep(g->gen);
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
        if (g->t.status == OPFOR__GS_FINISHED && !g->gen) /* Patrol Mode's high scores */
            record_score(gs, g);
    }
    return 0;
}

/* The common answer of a mutation: where the game stands and the events it caused. */
static void answer_ack(opfor_call_t *call, const opfor__game_t *g, const opfor__evlist_t *ev,
                       int with_order) {
    msgpack_packer *pk = opfor_call_result_begin(call);
    if (g->gen) {
        msgpack_pack_map(pk, 8);
        opfor__kv_str(pk, "game", g->row.id);
        opfor__gen_pack_where(g, pk);
        opfor_rpc_pack_cstr(pk, "events");
        msgpack_pack_array(pk, (size_t)(ev ? ev->n : 0));
        for (int i = 0; ev && i < ev->n; i++)
            pack_raw(pk, ev->buf[i].data, ev->buf[i].size);
        opfor_call_result_end(call);
        return;
    }
    msgpack_pack_map(pk, 9 + (with_order ? 1 : 0));
    opfor__kv_str(pk, "game", g->row.id);
    opfor__kv_u64(pk, "log_seq", g->t.log_seq);
    opfor__kv_u64(pk, "event_seq", g->t.ev_seq);
    opfor__kv_int(pk, "turn", g->t.ps.turn);
    opfor__kv_str(pk, "pending", opfor__game_pending_name(g->t.pending));
    opfor__kv_str(pk, "status", opfor__game_status_name(g->t.status));
    opfor__kv_str(pk, "result", opfor__game_result_name(g->t.result));
    opfor_rpc_pack_cstr(pk, "score");
    opfor__game_pack_score(g, &g->t, pk);
    if (with_order) {
        opfor_rpc_pack_cstr(pk, "order");
        if (g->t.order.active)
            opfor__order_pack(g, &g->t, &g->t.order, pk);
        else
            msgpack_pack_nil(pk);
    }
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

/* `level` (the AI level) and its deprecated alias `difficulty` (api_level 3) into
 * row->difficulty: either may be given, both only when they agree. Answers the call and
 * returns -1 on failure. */
/* A new game of another ruleset: its log's first entry says which rules it is played under.
 * 0, or -1 with the game deleted, freed and the call answered. */
static int gen_begin_entry(opfor_call_t *call, opfor__game_t *g) {
    opfor_store_t *store = opfor__server_store(call->srv);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    opfor__gen_begin_payload(g->gen->rs, &pk);
    uint64_t got = 0;
    int rc = opfor_store_append(store, g->row.id, "begin", sb.data, sb.size, &got);
    msgpack_sbuffer_destroy(&sb);
    if (rc < 0 || got != 1) {
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "game store: %s",
                         rc < 0 ? opfor_store_errmsg(store) : "the new game's log is not empty");
        opfor_store_game_delete(store, g->row.id);
        opfor__game_free(g);
        return -1;
    }
    g->t.log_seq = 1;
    return 0;
}

static int yaml_given(const msgpack_object *params) {
    return opfor_rpc_params_get(params, "scenario_yaml") != NULL;
}

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
    static const char *const allowed[] = {
        "id", "ruleset", "scenario", "scenario_yaml", "mode", "seed", "difficulty", "level", NULL};
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
    const opfor_ruleset_t *rs = ruleset_param(call, &row);
    if (!rs)
        return 0;
    if (!opfor__game_native(rs) && yaml_given(params))
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
    int rc = opfor__game_native(rs)
                 ? opfor__game_open(&g, &row, yaml, ylen, opfor__server_model(call->srv), &err)
                 : opfor__gen_open(&g, &row, rs, &err);
    if (rc < 0)
        return answer_gerr(call, &err);
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
    if (g->gen && gen_begin_entry(call, g) < 0)
        return 0;
    snprintf(g->row.status, sizeof g->row.status, "active");
    g->next = gs->list;
    gs->list = g;
    LOG(call->srv, INFO, "game %s: new %s game on %s, seed %llu, %s", g->row.id,
        g->row.mode[0] ? g->row.mode : g->row.ruleset,
        g->row.scenario_name[0] ? g->row.scenario_name : "inline YAML",
        (unsigned long long)g->row.seed, g->row.difficulty);
    msgpack_packer *pk = opfor_call_result_begin(call);
    if (g->gen)
        opfor__gen_pack_state(g, opfor__gen_table_side(g), pk);
    else
        opfor__game_pack_state(g, pk);
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
    msgpack_packer *pk = opfor_call_result_begin(call);
    msgpack_pack_map(pk, 1);
    opfor_rpc_pack_cstr(pk, "games");
    msgpack_pack_array(pk, l.n);
    for (size_t i = 0; i < l.n; i++) {
        const opfor_store_game_t *r = &l.rows[i];
        msgpack_pack_map(pk, 10);
        opfor__kv_str(pk, "game", r->id);
        opfor__kv_str(pk, "ruleset", r->ruleset);
        opfor__kv_str(pk, "scenario", r->scenario_name);
        opfor__kv_str(pk, "mode", r->mode);
        opfor__kv_u64(pk, "seed", r->seed);
        opfor__kv_str(pk, "difficulty", r->difficulty);
        opfor__kv_str(pk, "status", r->status);
        opfor__kv_i64(pk, "created", r->created);
        opfor__kv_i64(pk, "updated", r->updated);
        opfor__kv_u64(pk, "log_seq", r->last_seq);
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
    if (g->gen) {
        opfor__gerr_t err = {0};
        if (opfor__gen_viewer(g, params, opfor__server_cfg(call->srv)->debug_methods, &viewer,
                              &err) < 0)
            return answer_gerr(call, &err);
    } else if (opfor_rpc_params_get(params, "viewer")) {
        return answer(call, OPFOR_RPC_E_INVALID_PARAMS,
                      "viewer: this game's state has no per-side views");
    }
    msgpack_packer *pk = opfor_call_result_begin(call);
    if (g->gen)
        opfor__gen_pack_state(g, viewer, pk);
    else
        opfor__game_pack_state(g, pk);
    opfor_call_result_end(call);
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
    if (g->t.status != OPFOR__GS_CLOSED &&
        commit(call, g, "close", NULL, 0, apply_close, NULL, &ev) < 0) {
        opfor__evlist_free(&ev);
        return 0;
    }
    answer_ack(call, g, &ev, 0);
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
    if (rc < 0)
        return rc;
    g->refs++;
    g->searching++;
    return 0;
}

/* A method of the table engine's games asked of a game of another ruleset. */
static int not_here(opfor_call_t *call, const opfor__game_t *g, const char *method) {
    opfor_rpc_hint_t h = {0};
    opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_USE_GAME_METHODS);
    opfor_rpc_hint_str(&h, "method", method);
    opfor_rpc_hint_str(&h, "ruleset", g->row.ruleset);
    opfor_call_error_hint(call, OPFOR_RPC_E_UNSUPPORTED, &h,
                          "%s: not for %s games: use game.act, game.roll, game.report and "
                          "game.action",
                          method, g->row.ruleset);
    return 0;
}

/* A press at level challenge: the director (the ruleset's ai_director.c) picks the outcome of a
 * spotting on a worker, from a copy of the table; the press is then committed with that outcome in
 * its log entry, so replays need no director. */
typedef struct press_job {
    opfor_job_t job;        /* must stay first */
    opfor__game_t *g;       /* the game (a reference is held) */
    uint64_t log_seq;       /* the game's log when the job began */
    int rc;                 /* the dry press's result */
    opfor__press_opt_t opt; /* out: whether it spotted, and what */
    opfor__table_t t;       /* the table pressed (a copy) */
} press_job_t;

static int press_steer(void *ud, const opfor__game_t *g, const opfor__table_t *t,
                       opfor_patrol_spot_t *spot) {
    (void)ud;
    opfor_director_config_t dc;
    opfor_director_config_default(&dc);
    opfor_director_t *d = NULL;
    int rc = opfor_director_create(&d, &dc);
    if (rc < 0)
        return rc;
    opfor_director_table_t tb = {
        t->units,    t->nunits,  t->figures,
        t->nfigures, t->ps.turn, &t->ps,
        &t->rng,     g->enemy,   opfor_rng_mix64(g->row.seed ^ ((uint64_t)t->presses << 24))};
    rc = opfor_director_steer_table(d, g->rs, &tb, spot);
    opfor_director_free(d);
    return rc < 0 ? rc : 0;
}

static void press_run(opfor_job_t *job) {
    press_job_t *pj = (press_job_t *)job;
    opfor__evlist_t ev;
    opfor__evlist_init(&ev);
    opfor__gerr_t err = {0};
    pj->opt.steer = press_steer;
    pj->rc = opfor__game_press(pj->g, &pj->t, pj->log_seq + 1, &pj->opt, &ev, &err);
    opfor__evlist_free(&ev);
}

static void press_done(opfor_job_t *job) {
    press_job_t *pj = (press_job_t *)job;
    opfor__game_t *g = pj->g;
    opfor_call_t *call = job->call;
    g->searching--;
    if (g->unloaded) {
        opfor_call_error(call, OPFOR_RPC_E_CANCELLED, "the game was unloaded during the press");
    } else if (!job->ran || opfor_job_cancelled(job)) {
        opfor_rpc_hint_t h = {0};
        opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_PRESS_AGAIN);
        opfor_rpc_hint_str(&h, "why", "cancelled");
        opfor_call_error_hint(call, OPFOR_RPC_E_CANCELLED, &h,
                              "the press was cancelled (the client left or the server is "
                              "stopping): press again");
    } else if (g->t.log_seq != pj->log_seq) {
        opfor_rpc_hint_t h = {0};
        opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_PRESS_AGAIN);
        opfor_rpc_hint_str(&h, "why", "changed");
        opfor_call_error_hint(call, OPFOR_RPC_E_CANCELLED, &h,
                              "the game changed while the director chose the spotting: press "
                              "again");
    } else {
        /* pj->rc < 0: the committed press reports the same error. */
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        int spotted = pj->rc == 0 && pj->opt.spotted;
        if (spotted)
            opfor__press_payload_pack(&pj->opt.used, &pk);
        opfor__evlist_t ev;
        opfor__evlist_init(&ev);
        if (commit(call, g, "press", spotted ? sb.data : NULL, spotted ? sb.size : 0, apply_press,
                   spotted ? &pj->opt.used : NULL, &ev) == 0)
            answer_ack(call, g, &ev, 0);
        opfor__evlist_free(&ev);
        msgpack_sbuffer_destroy(&sb);
    }
    game_unref(g);
    free(pj);
}

int opfor__method_rs_initiative(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", NULL};
    opfor__game_t *g = game_of_params(call, params, allowed);
    if (!g)
        return 0;
    if (g->gen)
        return not_here(call, g, call->name);
    if (call->rs && opfor_ruleset_find(g->row.ruleset) != call->rs) { /* RULESET.VERB */
        opfor_call_error(call, OPFOR_RPC_E_UNSUPPORTED, "%s: game %s is a %s game", call->name,
                         g->row.id, g->row.ruleset);
        return 0;
    }
    if (g->mode == OPFOR_MODE_COOP && g->level == OPFOR_AI_CHALLENGE && g->rs &&
        g->t.status == OPFOR__GS_ACTIVE) {
        press_job_t *pj = malloc(sizeof *pj);
        if (!pj)
            return OPFOR_ENOMEM;
        memset(pj, 0, sizeof *pj);
        pj->g = g;
        pj->log_seq = g->t.log_seq;
        memcpy(&pj->t, &g->t, sizeof pj->t);
        int rc = submit_job(call, g, &pj->job, press_run, press_done);
        if (rc < 0)
            free(pj);
        return rc; /* 0: answered by press_done */
    }
    opfor__evlist_t ev;
    opfor__evlist_init(&ev);
    if (commit(call, g, "press", NULL, 0, apply_press, NULL, &ev) == 0)
        answer_ack(call, g, &ev, 0);
    opfor__evlist_free(&ev);
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
    if (g->gen)
        return not_here(call, g, "report");
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_object(&pk, *params); /* the report as given is the log entry */
    opfor__evlist_t ev;
    opfor__evlist_init(&ev);
    if (commit(call, g, "report", sb.data, sb.size, apply_report, params, &ev) == 0)
        answer_ack(call, g, &ev, 0);
    opfor__evlist_free(&ev);
    msgpack_sbuffer_destroy(&sb);
    return 0;
}

/* ------------------------------------------------------------------ ai.orders */

typedef struct plan_job {
    opfor_job_t job;       /* must stay first */
    struct plan_job *next; /* the game's list of running searches (g->jobs) */
    opfor__game_t *g;      /* the game (a reference is held) */
    uint64_t log_seq;      /* the game's log when the search began */
    int rc;                /* opfor__game_plan's result */
    opfor__order_t order;  /* the plan */
    opfor__table_t t;      /* the position searched (a copy) */
    /* games of other rulesets (g->gen): */
    unsigned char *gstate;     /* the position searched (a copy, malloc'd) */
    int decision;              /* the AI's decision number */
    opfor__gen_order_t gorder; /* the plan */
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
    if (pj->g->gen)
        pj->rc =
            opfor__gen_plan(pj->g, pj->gstate, pj->decision, &job->call->cancelled, &pj->gorder);
    else
        pj->rc =
            opfor__game_plan(pj->g, &pj->t, plan_cancelled, job, &job->call->cancelled, &pj->order);
}

/* Answers with the game's open order when one was given since `since`. */
static int answer_existing(opfor_call_t *call, opfor__game_t *g, uint64_t since) {
    if (g->gen) {
        const opfor__gen_order_t *o = &g->gen->order;
        if (!o->active || !o->open || o->log_seq <= since)
            return 0;
        msgpack_packer *pk = opfor_call_result_begin(call);
        opfor__gen_order_pack(g, o, pk);
        opfor_call_result_end(call);
        return 1;
    }
    if (!g->t.order.active || !g->t.order.open || g->t.order.log_seq <= since)
        return 0;
    msgpack_packer *pk = opfor_call_result_begin(call);
    opfor__order_pack(g, &g->t, &g->t.order, pk);
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
    } else if (pj->rc == OPFOR_EILLEGAL && g->gen) {
        opfor_call_error(call, OPFOR_RPC_E_ILLEGAL, "the AI's side %d is not to move",
                         g->gen->ai_side);
    } else if (pj->rc == OPFOR_EILLEGAL) {
        opfor_call_error(call, OPFOR_RPC_E_ILLEGAL, "no unit of the %s can act now",
                         g->sc->sides[g->enemy].name);
    } else if (pj->rc < 0) {
        opfor_call_error(call, opfor_rpc_err_from_opfor(pj->rc), "the search failed: %s",
                         opfor_strerror(pj->rc));
    } else {
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        pj->order.log_seq = g->t.log_seq + 1;
        pj->gorder.log_seq = g->t.log_seq + 1;
        if (g->gen)
            opfor__gen_order_pack(g, &pj->gorder, &pk);
        else
            opfor__order_pack(g, &g->t, &pj->order, &pk);
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        if (msgpack_unpack_next(&u, sb.data, sb.size, &off) != MSGPACK_UNPACK_SUCCESS) {
            opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "order packing failed");
        } else {
            opfor__evlist_t ev;
            opfor__evlist_init(&ev);
            gen_entry_t ge = {"order", &u.data};
            if (g->gen
                    ? commit(call, g, "order", sb.data, sb.size, apply_gen, &ge, &ev) == 0
                    : commit(call, g, "order", sb.data, sb.size, apply_order, &u.data, &ev) == 0) {
                msgpack_packer *rp = opfor_call_result_begin(call);
                if (g->gen)
                    opfor__gen_order_pack(g, &g->gen->order, rp);
                else
                    opfor__order_pack(g, &g->t, &g->t.order, rp);
                opfor_call_result_end(call);
            }
            opfor__evlist_free(&ev);
        }
        msgpack_unpacked_destroy(&u);
        msgpack_sbuffer_destroy(&sb);
    }
    game_unref(g);
    free(pj->gstate);
    free(pj);
}

/* ai.orders for a game of another ruleset: the AI's side must be to move. */
static int gen_ai_orders(opfor_call_t *call, opfor__game_t *g) {
    const opfor__gen_t *gen = g->gen;
    int cur = opfor_game_current(&gen->game, gen->state);
    if (g->t.status != OPFOR__GS_ACTIVE || cur != gen->ai_side) {
        if (answer_existing(call, g, 0))
            return 0; /* the order just given, again */
        opfor_rpc_hint_t h = {0};
        if (g->t.status == OPFOR__GS_ACTIVE && cur == OPFOR_PLAYER_CHANCE) {
            opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_ROLL_FIRST);
        } else if (g->t.status == OPFOR__GS_ACTIVE && cur >= 0) {
            opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_TABLE_TO_MOVE);
            opfor_rpc_hint_int(&h, "side", cur);
        }
        opfor_call_error_hint(call, OPFOR_RPC_E_ILLEGAL, &h, "the AI (side %d) is not to move: %s",
                              gen->ai_side,
                              g->t.status != OPFOR__GS_ACTIVE ? "the game is over"
                              : cur == OPFOR_PLAYER_CHANCE    ? "the dice decide first (game.roll)"
                              : cur == OPFOR_PLAYER_TERMINAL  ? "the game is over"
                                                              : "a table side is (game.act)");
        return 0;
    }
    plan_job_t *pj = malloc(sizeof *pj);
    unsigned char *st = malloc(gen->rs->state_size);
    if (!pj || !st) {
        free(pj);
        free(st);
        return OPFOR_ENOMEM;
    }
    memset(pj, 0, sizeof *pj);
    pj->g = g;
    pj->log_seq = g->t.log_seq;
    pj->gstate = st;
    pj->decision = g->t.decisions;
    memcpy(st, gen->state, gen->rs->state_size);
    int rc = submit_job(call, g, &pj->job, plan_run, plan_done);
    if (rc < 0) {
        free(st);
        free(pj);
        return rc;
    }
    pj->next = g->jobs;
    g->jobs = pj;
    return 0; /* answered by plan_done */
}

int opfor__method_ai_orders(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", NULL};
    opfor__game_t *g = game_of_params(call, params, allowed);
    if (!g)
        return 0;
    if (g->gen)
        return gen_ai_orders(call, g);
    if (g->t.pending != OPFOR__PEND_ENEMY) {
        if (answer_existing(call, g, 0))
            return 0; /* the order of this activation, again */
        /* what to do instead: the game is over, a player unit must be reported first, or
           nobody holds the initiative yet */
        opfor_rpc_hint_t h = {0};
        if (g->t.status == OPFOR__GS_ACTIVE) {
            opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_NO_AI_INITIATIVE);
            opfor_rpc_hint_str(&h, "side", g->sc->sides[g->enemy].name);
            opfor_rpc_hint_str(&h, "holder", opfor__game_pending_name(g->t.pending));
        }
        opfor_call_error_hint(call, OPFOR_RPC_E_ILLEGAL, &h,
                              "no unit of the %s holds the initiative (%s)",
                              g->sc->sides[g->enemy].name,
                              g->t.status != OPFOR__GS_ACTIVE ? "the game is over"
                              : g->t.pending == OPFOR__PEND_PLAYER
                                  ? "the players hold it: report which of their units acted first"
                                  : "nobody holds it: press the initiative button first");
        return 0;
    }
    plan_job_t *pj = malloc(sizeof *pj);
    if (!pj)
        return OPFOR_ENOMEM;
    memset(&pj->job, 0, sizeof pj->job);
    pj->g = g;
    pj->log_seq = g->t.log_seq;
    pj->rc = 0;
    pj->gstate = NULL;
    memcpy(&pj->t, &g->t, sizeof pj->t);
    int rc = submit_job(call, g, &pj->job, plan_run, plan_done);
    if (rc < 0) {
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

/* ------------------------------------------------------------------ games of other rulesets */

/* game.act, game.roll, game.report, game.action: the params become the log entry's payload
 * (an act's phrase its index), which is applied to a copy and committed like any entry. */
static int gen_mutation(opfor_call_t *call, const msgpack_object *params,
                        const char *const *allowed, const char *kind) {
    opfor__game_t *g = game_of_params(call, params, allowed);
    if (!g)
        return 0;
    if (!g->gen) {
        opfor_rpc_hint_t h = {0};
        opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_USE_RULESET_METHODS);
        opfor_rpc_hint_str(&h, "ruleset", g->row.ruleset);
        char methods[160] = "";
        const opfor_ruleset_t *grs = opfor_ruleset_find(g->row.ruleset);
        size_t at = 0;
        for (const char *const *v = grs ? grs->methods : NULL; v && *v && at < sizeof methods; v++)
            at += (size_t)snprintf(methods + at, sizeof methods - at, "%s.%s, ", grs->name, *v);
        if (at < sizeof methods)
            snprintf(methods + at, sizeof methods - at, "report, ai.orders");
        opfor_rpc_hint_str(&h, "methods", methods);
        opfor_call_error_hint(call, OPFOR_RPC_E_UNSUPPORTED, &h,
                              "this game is played with patrol.initiative, report and ai.orders");
        return 0;
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    opfor__gerr_t err = {0};
    if (opfor__gen_prepare(g, kind, params, &pk, &err) < 0) {
        msgpack_sbuffer_destroy(&sb);
        return answer_gerr(call, &err);
    }
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    if (msgpack_unpack_next(&u, sb.data, sb.size, &off) != MSGPACK_UNPACK_SUCCESS) {
        answer(call, OPFOR_RPC_E_INTERNAL, "entry packing failed");
    } else {
        gen_entry_t ge = {kind, &u.data};
        opfor__evlist_t ev;
        opfor__evlist_init(&ev);
        if (commit(call, g, kind, sb.data, sb.size, apply_gen, &ge, &ev) == 0)
            answer_ack(call, g, &ev, 0);
        opfor__evlist_free(&ev);
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return 0;
}

int opfor__method_game_act(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "action", NULL};
    return gen_mutation(call, params, allowed, "act");
}

int opfor__method_game_roll(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "outcome", NULL};
    return gen_mutation(call, params, allowed, "roll");
}

int opfor__method_game_report(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "form", "fields", "side", NULL};
    return gen_mutation(call, params, allowed, "report");
}

int opfor__method_game_action(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"game", "form", "fields", NULL};
    return gen_mutation(call, params, allowed, "action");
}
