/* io/game_gen.c — daemon games of any registered ruleset: opening, the log's entries (act,
 * roll, report, action, order, undo, close), the AI's orders, the viewer's state, snapshots.
 *
 * Only the ruleset interface is used here, so a ruleset plays in the daemon by registering.
 * The design (log kinds, who sees what, the snapshot format) is written up in game_gen_int.h.
 */
#include "game_gen_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ai.h"
#include "opfor/form.h"
#include "opfor/mcts.h"
#include "opfor/order.h"
#include "opfor/rpc.h"
#include "opfor/ruleset_ai.h"
#include "opfor/scene.h"
#include "opfor/session.h"
#include "opfor/vocab.h"
#include "pack_int.h"

#define AI_POOL_BYTES ((size_t)16 << 20) /* search memory of one order */
#define MAX_FIELD_TEXT 128               /* bytes of one field value as text */
#define MAX_UNIT_VALUES 256              /* names in one UNIT field's `values` */

/* ------------------------------------------------------------------ small helpers */

/* Whether the MessagePack string o equals s. */
static int str_is(const msgpack_object *o, const char *s) {
    size_t n = strlen(s);
    return o->type == MSGPACK_OBJECT_STR && o->via.str.size == n &&
           memcmp(o->via.str.ptr, s, n) == 0;
}

/* Copies a MessagePack string into buf; 0, or -1 when o is not a string that fits. */
static int str_copy(const msgpack_object *o, char *buf, size_t n) {
    if (o->type != MSGPACK_OBJECT_STR || o->via.str.size >= n ||
        memchr(o->via.str.ptr, '\0', o->via.str.size))
        return -1;
    memcpy(buf, o->via.str.ptr, o->via.str.size);
    buf[o->via.str.size] = '\0';
    return 0;
}

int opfor__gen_table_side(const opfor__game_t *g) {
    return opfor__gen_of(g)->ai_side == 0 ? 1 : 0;
}

static int progress_turn(const opfor__gen_t *gen, const void *state) {
    opfor_progress_t p;
    return opfor_game_progress(&gen->game, state, &p) == 0 ? (int)p.turn : 0;
}

/* Starts the next event of the game in ev (numbered by t), with the turn of the work state;
 * returns pk ready for the event's data. */
static msgpack_packer *ev_begin(opfor__evlist_t *ev, msgpack_packer *pk, const opfor__game_t *g,
                                opfor__table_t *t, uint64_t log_seq, const char *kind) {
    return opfor__ev_begin(ev, pk, g->row.id, &t->ev_seq,
                           progress_turn(opfor__gen_of(g), opfor__gen_of(g)->work), log_seq, kind);
}

/* The legal actions of the work state into gen->acts; the count (0 at the end). */
static int work_legal(const opfor__gen_t *gen, const void *state) {
    int n = opfor_game_legal(&gen->game, state, gen->acts, gen->rs->max_actions);
    return n < 0 ? 0 : n;
}

/* The phrases of the n actions in gen->acts, quoted and comma-separated, into buf. */
static void list_phrases(const opfor__gen_t *gen, const void *state, int n, char *buf,
                         size_t size) {
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + 8 < size; i++) {
        char p[112];
        opfor_game_action_str(&gen->game, state, &gen->acts[i], p, sizeof p);
        int w = snprintf(buf + len, size - len, "%s'%s'", i ? ", " : "", p);
        if (w < 0 || (size_t)w >= size - len) {
            snprintf(buf + (len < size - 5 ? len : size - 5), 5, "...");
            return;
        }
        len += (size_t)w;
    }
}

/* ------------------------------------------------------------------ open / free */

void opfor__gen_free(opfor__gen_t *gen) {
    if (!gen)
        return;
    opfor_ruleset_ctx_free(gen->rs, gen->ctx);
    free(gen->state);
    free(gen->work);
    free(gen->undo_state);
    free(gen->work_undo_state);
    free(gen->acts);
    free(gen->outs);
    free(gen);
}

void opfor__gen_reset(opfor__game_t *g) {
    opfor__gen_t *gen = opfor__gen_of(g);
    memset(&g->t, 0, sizeof g->t);
    memset(&gen->order, 0, sizeof gen->order);
    memset(&gen->undo, 0, sizeof gen->undo);
    opfor_game_new_state(&gen->game, gen->state, g->row.seed);
}

/* The index of name among rs's built-in scenarios, or -1. */
static int builtin_listed(const opfor_ruleset_t *rs, const char *name) {
    for (size_t i = 0; rs->builtin_name && rs->builtin_name(i); i++)
        if (strcmp(rs->builtin_name(i), name) == 0)
            return (int)i;
    return -1;
}

/* rs's built-in scenarios for a message: "built-in: a, b" or "it has none". */
static void builtin_names(const opfor_ruleset_t *rs, char *buf, size_t n) {
    size_t len = (size_t)snprintf(buf, n, "built-in:");
    size_t i = 0;
    for (; rs->builtin_name && rs->builtin_name(i) && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s %s", i ? "," : "", rs->builtin_name(i));
    if (i == 0)
        snprintf(buf, n, "it has none");
}

/* The table game's open (opfor__table_game_ops_t.open): g's row as given. */
static int op_open(opfor__game_t *g, const struct opfor_ruleset *rs, const opfor__game_src_t *src,
                   opfor__gerr_t *err) {
    const opfor_store_game_t *row = &g->row;
    if (src->yaml)
        return opfor__gerr_set(err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOTSUP,
                               "scenario_yaml: inline scenarios are for the table engine's "
                               "rulesets; name a scenario of this ruleset instead");
    /* ctx_new reads scenario files; the daemon opens no file a client names: only the
     * ruleset's built-in scenarios, by the names its builtin_name lists */
    char builtin[sizeof row->scenario_name + 8] = "";
    if (row->scenario_name[0] && strcmp(row->scenario_name, "default") != 0) {
        if (builtin_listed(rs, row->scenario_name) < 0) {
            char names[400];
            builtin_names(rs, names, sizeof names);
            return opfor__gerr_set(
                err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOENT,
                "scenario: '%s' is not a built-in scenario of %s (%s; or leave it out for the "
                "default)",
                row->scenario_name, rs->name, names);
        }
        snprintf(builtin, sizeof builtin, "builtin:%s", row->scenario_name);
    }
    if (row->mode[0])
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "mode: %s games have no modes (leave it out)", rs->name);
    if (rs->max_players < 2)
        return opfor__gerr_set(
            err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOTSUP,
            "ruleset: the daemon plays one side against the table's, and %s has %d", rs->name,
            rs->max_players);
    int level = OPFOR_AI_STANDARD;
    if (row->difficulty[0] && opfor_ai_level_find(row->difficulty, &level) != 0)
        return opfor__gerr_set(
            err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
            "level: '%s' is not a level (novice, standard, veteran, ruthless, challenge)",
            row->difficulty);
    opfor__gen_t *gen = calloc(1, sizeof *gen);
    if (!gen)
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_ENOMEM, "out of memory");
    gen->rs = rs;
    gen->level = level;
    gen->ai_side = rs->max_players - 1;
    snprintf(g->row.difficulty, sizeof g->row.difficulty, "%s",
             opfor_vocab_name(opfor_ai_level_names, level));
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = opfor_ruleset_ctx_new(rs, builtin[0] ? builtin : NULL, &gen->ctx, &d);
    if (rc < 0) {
        char where[700];
        int code = rc == OPFOR_ENOENT    ? OPFOR_RPC_E_NOT_FOUND
                   : rc == OPFOR_ENOTSUP ? OPFOR_RPC_E_UNSUPPORTED
                   : rc == OPFOR_ENOMEM  ? OPFOR_RPC_E_INTERNAL
                                         : OPFOR_RPC_E_INVALID_PARAMS;
        opfor__gerr_set(err, code, rc, "scenario: %s",
                        rc == OPFOR_ENOTSUP ? "this ruleset cannot build a game context"
                        : d.msg[0]          ? opfor_diag_format(&d, where, sizeof where)
                                            : opfor_strerror(rc));
        opfor__gen_free(gen);
        return rc;
    }
    rc = opfor_game_init(&gen->game, rs, gen->ctx, 0);
    gen->state = calloc(1, rs->state_size);
    gen->work = calloc(1, rs->state_size);
    gen->undo_state = calloc(1, rs->state_size);
    gen->work_undo_state = calloc(1, rs->state_size);
    gen->acts = calloc((size_t)rs->max_actions, sizeof *gen->acts);
    gen->outs = calloc((size_t)rs->max_actions, sizeof *gen->outs);
    if (rc == 0 && (!gen->state || !gen->work || !gen->undo_state || !gen->work_undo_state ||
                    !gen->acts || !gen->outs))
        rc = OPFOR_ENOMEM;
    if (rc == 0)
        rc = opfor_game_new_state(&gen->game, gen->state, row->seed);
    if (rc < 0) {
        opfor__gerr_set(err, rc == OPFOR_ENOMEM ? OPFOR_RPC_E_INTERNAL : OPFOR_RPC_E_INVALID_PARAMS,
                        rc, "the %s ruleset cannot start this game: %s", rs->name,
                        opfor_strerror(rc));
        opfor__gen_free(gen);
        return rc;
    }
    if (!g->row.scenario_name[0])
        snprintf(g->row.scenario_name, sizeof g->row.scenario_name, "default");
    g->tg = gen;
    memset(&g->t, 0, sizeof g->t);
    return 0;
}

int opfor__gen_open(opfor__game_t **out, const opfor_store_game_t *row, const opfor_ruleset_t *rs,
                    opfor__gerr_t *err) {
    return opfor__game_open(out, row, rs, &opfor__gen_ops, NULL, err);
}

void opfor__gen_begin(opfor__gen_t *gen) {
    memcpy(gen->work, gen->state, gen->rs->state_size);
    gen->work_order = gen->order;
    gen->work_undo = gen->undo;
    memcpy(gen->work_undo_state, gen->undo_state, gen->rs->state_size);
}

void opfor__gen_keep(opfor__gen_t *gen) {
    memcpy(gen->state, gen->work, gen->rs->state_size);
    gen->order = gen->work_order;
    gen->undo = gen->work_undo;
    memcpy(gen->undo_state, gen->work_undo_state, gen->rs->state_size);
}

/* ------------------------------------------------------------------ preparing entries */

/* A field value as text: strings as written, numbers, yes/no, arrays joined by commas. */
static int value_text(const msgpack_object *v, char *buf, size_t n) {
    switch (v->type) {
    case MSGPACK_OBJECT_STR:
        return str_copy(v, buf, n);
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        snprintf(buf, n, "%llu", (unsigned long long)v->via.u64);
        return 0;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        snprintf(buf, n, "%lld", (long long)v->via.i64);
        return 0;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        snprintf(buf, n, "%.17g", v->via.f64);
        return 0;
    case MSGPACK_OBJECT_BOOLEAN:
        snprintf(buf, n, "%s", v->via.boolean ? "yes" : "no");
        return 0;
    case MSGPACK_OBJECT_ARRAY: {
        size_t len = 0;
        buf[0] = '\0';
        for (uint32_t i = 0; i < v->via.array.size; i++) {
            char one[64];
            const msgpack_object *e = &v->via.array.ptr[i];
            if (e->type == MSGPACK_OBJECT_ARRAY || value_text(e, one, sizeof one) < 0)
                return -1;
            int w = snprintf(buf + len, n - len, "%s%s", i ? "," : "", one);
            if (w < 0 || (size_t)w >= n - len)
                return -1;
            len += (size_t)w;
        }
        return 0;
    }
    default:
        return -1;
    }
}

/* report/action params: {"form", "fields", "side"} into the payload {"form", ["side",]
 * "fields": {name: text}}; nil values are left out. */
static int prepare_form(const opfor__game_t *g, int with_side, const msgpack_object *params,
                        msgpack_packer *pk, opfor__gerr_t *err) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    char form[64], why[200];
    int rc = opfor_rpc_params_str(params, "form", form, sizeof form, why, sizeof why);
    if (rc < 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL, "%s",
                               rc == OPFOR_ENOENT ? "form: the form's name is required" : why);
    int64_t side = opfor__gen_table_side(g);
    if (with_side && opfor_rpc_params_int(params, "side", 0, gen->rs->max_players - 1, &side, why,
                                          sizeof why) == OPFOR_EINVAL)
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL, "%s", why);
    const msgpack_object *seen = opfor_rpc_params_get(params, "seen");
    if (seen && (seen->type != MSGPACK_OBJECT_POSITIVE_INTEGER))
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "seen: the log_seq of the state the client saw (an integer)");
    if (seen && seen->via.u64 != g->t.log_seq) { /* the client answers a state that is gone */
        opfor_rpc_hint_set(opfor__gerr_hint(err), OPFOR_RPC_HINT_STALE_STATE);
        opfor_rpc_hint_int(opfor__gerr_hint(err), "seen", (int64_t)seen->via.u64);
        opfor_rpc_hint_int(opfor__gerr_hint(err), "log_seq", (int64_t)g->t.log_seq);
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                               "seen: the %s answers the game as it stood at entry %llu, but it "
                               "has %llu entries now: read the game again",
                               with_side ? "report" : "action", (unsigned long long)seen->via.u64,
                               (unsigned long long)g->t.log_seq);
    }
    const msgpack_object *fields = opfor_rpc_params_get(params, "fields");
    if (fields && fields->type != MSGPACK_OBJECT_MAP && fields->type != MSGPACK_OBJECT_NIL)
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "fields: a map of field name to value");
    uint32_t nf = 0, keep = 0;
    if (fields && fields->type == MSGPACK_OBJECT_MAP) {
        nf = fields->via.map.size;
        for (uint32_t i = 0; i < nf; i++) {
            const msgpack_object_kv *kv = &fields->via.map.ptr[i];
            char name[64], text[MAX_FIELD_TEXT];
            if (str_copy(&kv->key, name, sizeof name) < 0)
                return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                       "fields: keys are field names (strings)");
            if (kv->val.type == MSGPACK_OBJECT_NIL)
                continue;
            if (value_text(&kv->val, text, sizeof text) < 0)
                return opfor__gerr_set(
                    err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                    "fields.%s: give a string, a number, a boolean or a list of them "
                    "(at most %d characters)",
                    name, MAX_FIELD_TEXT - 1);
            keep++;
        }
    }
    msgpack_pack_map(pk, with_side ? 3 : 2);
    opfor__kv_str(pk, "form", form);
    if (with_side)
        opfor__kv_int(pk, "side", (int)side);
    opfor_rpc_pack_cstr(pk, "fields");
    msgpack_pack_map(pk, keep);
    for (uint32_t i = 0; i < nf; i++) {
        const msgpack_object_kv *kv = &fields->via.map.ptr[i];
        char name[64], text[MAX_FIELD_TEXT];
        if (kv->val.type == MSGPACK_OBJECT_NIL)
            continue;
        str_copy(&kv->key, name, sizeof name);
        value_text(&kv->val, text, sizeof text);
        opfor__kv_str(pk, name, text);
    }
    return 0;
}

int opfor__gen_prepare(const opfor__game_t *g, const char *kind, const msgpack_object *params,
                       msgpack_packer *pk, opfor__gerr_t *err) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    if (strcmp(kind, "report") == 0 || strcmp(kind, "action") == 0)
        return prepare_form(g, kind[0] == 'r', params, pk, err);
    if (strcmp(kind, "undo") == 0) { /* the params as sent: the entry to take back, if named */
        const msgpack_object *r = opfor_rpc_params_get(params, "report");
        if (r && (r->type != MSGPACK_OBJECT_POSITIVE_INTEGER || r->via.u64 > INT64_MAX))
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                   "report: the log entry to take back (game.state's "
                                   "undo_report), an integer");
        msgpack_pack_map(pk, r ? 1 : 0);
        if (r)
            opfor__kv_u64(pk, "report", r->via.u64);
        return 0;
    }
    const msgpack_object *v =
        opfor_rpc_params_get(params, strcmp(kind, "act") == 0 ? "action" : "outcome");
    if (strcmp(kind, "roll") == 0) {
        if (!v || str_is(v, "auto")) {
            msgpack_pack_map(pk, 1);
            opfor__kv_bool(pk, "auto", 1);
            return 0;
        }
        if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > INT32_MAX)
            return opfor__gerr_set(
                err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                "outcome: an outcome's index (game.state lists them) or \"auto\"");
        msgpack_pack_map(pk, 1);
        opfor__kv_int(pk, "outcome", (int)v->via.u64);
        return 0;
    }
    /* act: a phrase exactly as the ruleset writes it, or an index */
    if (!v)
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "action: the action's phrase (game.state lists them) or its index");
    int cur = opfor_game_current(&gen->game, gen->state);
    int n = cur >= 0 ? work_legal(gen, gen->state) : 0;
    int idx = -1;
    char want[112] = "", p[112];
    if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
        idx = v->via.u64 < (uint64_t)n ? (int)v->via.u64 : -2;
    } else if (str_copy(v, want, sizeof want) == 0) {
        for (int i = 0; i < n && idx < 0; i++)
            if (strcmp(opfor_game_action_str(&gen->game, gen->state, &gen->acts[i], p, sizeof p),
                       want) == 0)
                idx = i;
    } else {
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "action: the action's phrase (a string) or its index (an integer)");
    }
    if (idx < 0 && n > 0 && cur >= 0 && cur != gen->ai_side) {
        char list[300];
        list_phrases(gen, gen->state, n, list, sizeof list);
        if (idx == -2)
            return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                                   "action: side %d has %d legal actions (0..%d): %s", cur, n,
                                   n - 1, list);
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                               "action: '%s' is not a legal action of side %d now; legal: %s", want,
                               cur, list);
    }
    /* an index (or nothing, when the state itself refuses any act: apply says why) */
    if (idx >= 0)
        opfor_game_action_str(&gen->game, gen->state, &gen->acts[idx], p, sizeof p);
    else
        p[0] = '\0';
    msgpack_pack_map(pk, 2);
    opfor__kv_int(pk, "index", idx < 0 ? 0 : idx);
    opfor__kv_str(pk, "action", idx < 0 ? want : p);
    return 0;
}

void opfor__gen_begin_payload(const opfor_ruleset_t *rs, msgpack_packer *pk) {
    opfor__game_begin_payload(NULL, rs, pk);
}

int opfor__gen_rules_check(const opfor_store_game_t *row, const opfor_ruleset_t *rs,
                           const char *kind, const void *payload, size_t len, opfor__gerr_t *err) {
    return opfor__game_rules_check(row, rs, kind, payload, len, err);
}

/* ------------------------------------------------------------------ applying entries */

/* Why a side may not act now, or 0. */
static int turn_check(const opfor__game_t *g, const opfor__table_t *t, int cur, int ai,
                      opfor__gerr_t *err) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    if (t->status != OPFOR__GS_ACTIVE)
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL, "the game is %s",
                               t->status == OPFOR__GS_CLOSED ? "closed" : "over");
    if (cur == OPFOR_PLAYER_TERMINAL)
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL, "the game is over");
    if (cur == OPFOR_PLAYER_CHANCE) {
        opfor_rpc_hint_set(opfor__gerr_hint(err), OPFOR_RPC_HINT_ROLL_FIRST);
        return opfor__gerr_set(
            err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
            "the dice decide now: roll first (game.roll with an outcome's index, or "
            "\"auto\" for the daemon's dice)");
    }
    if (!ai && cur == gen->ai_side) {
        opfor_rpc_hint_set(opfor__gerr_hint(err), OPFOR_RPC_HINT_AI_TO_MOVE);
        opfor_rpc_hint_int(opfor__gerr_hint(err), "side", cur);
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                               "side %d, the AI's, is to move: ask for its orders (ai.orders)",
                               cur);
    }
    if (ai && cur != gen->ai_side)
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                               "side %d (the table's) is to move, not the AI", cur);
    return 0;
}

/* After a move: a new turn, the end of the game, or who is to move now, as events. */
static void after_move(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, int turn0,
                       opfor__evlist_t *ev) {
    opfor__gen_t *gen = opfor__gen_of(g);
    msgpack_packer pk;
    int turn = progress_turn(gen, gen->work);
    if (turn != turn0) {
        ev_begin(ev, &pk, g, t, seq, "turn");
        msgpack_pack_map(&pk, 1);
        opfor__kv_int(&pk, "turn", turn);
    }
    int cur = opfor_game_current(&gen->game, gen->work);
    if (cur == OPFOR_PLAYER_TERMINAL) {
        double ret[OPFOR_MAX_PLAYERS] = {0};
        opfor_game_returns(&gen->game, gen->work, ret);
        double best_table = -2.0;
        for (int s = 0; s < gen->rs->max_players; s++)
            if (s != gen->ai_side && ret[s] > best_table)
                best_table = ret[s];
        double ai = ret[gen->ai_side];
        t->result = best_table > ai   ? OPFOR__RES_WON
                    : best_table < ai ? OPFOR__RES_LOST
                                      : OPFOR__RES_ENDED;
        t->status = OPFOR__GS_FINISHED;
        gen->work_order.open = 0;
        ev_begin(ev, &pk, g, t, seq, "game_over");
        msgpack_pack_map(&pk, 2);
        opfor__kv_str(&pk, "result", opfor__game_result_name(t->result));
        opfor_rpc_pack_cstr(&pk, "returns");
        msgpack_pack_array(&pk, (size_t)gen->rs->max_players);
        for (int s = 0; s < gen->rs->max_players; s++)
            msgpack_pack_double(&pk, ret[s]);
        return;
    }
    ev_begin(ev, &pk, g, t, seq, "to_move");
    msgpack_pack_map(&pk, 3);
    opfor_rpc_pack_cstr(&pk, "side");
    if (cur >= 0)
        msgpack_pack_int(&pk, cur);
    else
        msgpack_pack_nil(&pk);
    opfor__kv_bool(&pk, "chance", cur == OPFOR_PLAYER_CHANCE);
    opfor__kv_bool(&pk, "ai", cur == gen->ai_side);
}

static int apply_act(const opfor__game_t *g, opfor__table_t *t, uint64_t seq,
                     const msgpack_object *pl, opfor__evlist_t *ev, opfor__gerr_t *err) {
    opfor__gen_t *gen = opfor__gen_of(g);
    int cur = opfor_game_current(&gen->game, gen->work);
    int rc = turn_check(g, t, cur, 0, err);
    if (rc < 0)
        return rc;
    int n = work_legal(gen, gen->work);
    int64_t idx = opfor_rpc_params_int_or(pl, "index", 0, INT32_MAX, -1);
    char want[112], p[112];
    opfor_rpc_params_str_or(pl, "action", want, sizeof want);
    if (idx < 0 || idx >= n ||
        strcmp(opfor_game_action_str(&gen->game, gen->work, &gen->acts[idx], p, sizeof p), want)) {
        char list[300];
        list_phrases(gen, gen->work, n, list, sizeof list);
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                               "action: '%s' is not a legal action of side %d now; legal: %s", want,
                               cur, list);
    }
    int turn0 = progress_turn(gen, gen->work);
    opfor_action_t a = gen->acts[idx];
    rc = opfor_game_apply(&gen->game, gen->work, &a);
    if (rc < 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, rc, "action: the rules refuse '%s' (%s)",
                               want, opfor_strerror(rc));
    msgpack_packer pk;
    ev_begin(ev, &pk, g, t, seq, "act");
    msgpack_pack_map(&pk, 3);
    opfor__kv_int(&pk, "side", cur);
    opfor__kv_int(&pk, "index", (int)idx);
    opfor__kv_str(&pk, "action", p);
    after_move(g, t, seq, turn0, ev);
    return 0;
}

static int apply_roll(const opfor__game_t *g, opfor__table_t *t, uint64_t seq,
                      const msgpack_object *pl, opfor__evlist_t *ev, opfor__gerr_t *err) {
    opfor__gen_t *gen = opfor__gen_of(g);
    int cur = opfor_game_current(&gen->game, gen->work);
    if (t->status != OPFOR__GS_ACTIVE || cur == OPFOR_PLAYER_TERMINAL)
        return turn_check(g, t, OPFOR_PLAYER_TERMINAL, 0, err);
    if (cur != OPFOR_PLAYER_CHANCE) {
        opfor_rpc_hint_set(opfor__gerr_hint(err), cur == gen->ai_side
                                                      ? OPFOR_RPC_HINT_AI_TO_MOVE
                                                      : OPFOR_RPC_HINT_TABLE_TO_MOVE);
        opfor_rpc_hint_int(opfor__gerr_hint(err), "side", cur);
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                               "no dice to roll: side %d is to move%s", cur,
                               cur == gen->ai_side ? " (the AI's: ai.orders)" : " (game.act)");
    }
    int turn0 = progress_turn(gen, gen->work);
    const msgpack_object *autov = opfor_rpc_params_get(pl, "auto");
    int is_auto = autov && autov->type == MSGPACK_OBJECT_BOOLEAN && autov->via.boolean;
    opfor_action_t a;
    char phrase[112] = "";
    int64_t idx = -1;
    if (is_auto) {
        if (work_legal(gen, gen->work) < 1)
            return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                                   "the ruleset lists no roll at this chance node");
        a = gen->acts[0];
    } else {
        int n = opfor_game_chance_outcomes(&gen->game, gen->work, gen->outs, gen->rs->max_actions);
        if (n <= 0)
            return opfor__gerr_set(
                err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                "outcome: this chance node has no listed outcomes: roll \"auto\"");
        idx = opfor_rpc_params_int_or(pl, "outcome", 0, INT32_MAX, -1);
        if (idx < 0 || idx >= n)
            return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                                   "outcome: %lld is not one of the %d outcomes (0..%d)",
                                   (long long)idx, n, n - 1);
        a = gen->outs[idx].action;
        opfor_game_action_str(&gen->game, gen->work, &a, phrase, sizeof phrase);
    }
    int rc = opfor_game_apply(&gen->game, gen->work, &a);
    if (rc < 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, rc, "the roll does not apply (%s)",
                               opfor_strerror(rc));
    msgpack_packer pk;
    ev_begin(ev, &pk, g, t, seq, "roll");
    msgpack_pack_map(&pk, 3);
    opfor__kv_bool(&pk, "auto", is_auto);
    opfor_rpc_pack_cstr(&pk, "index");
    if (idx >= 0)
        msgpack_pack_int64(&pk, idx);
    else
        msgpack_pack_nil(&pk);
    /* the daemon's own dice in a game with hidden information may be a hidden draw */
    opfor_rpc_pack_cstr(&pk, "outcome");
    if (phrase[0])
        opfor_rpc_pack_cstr(&pk, phrase);
    else
        msgpack_pack_nil(&pk);
    after_move(g, t, seq, turn0, ev);
    return 0;
}

/* A session report (side >= 0) or table action (side -1) from its payload. */
static int apply_form(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, int is_report,
                      const msgpack_object *pl, opfor__evlist_t *ev, opfor__gerr_t *err) {
    opfor__gen_t *gen = opfor__gen_of(g);
    const opfor_ruleset_session_t *ss = gen->rs->session;
    const opfor_form_t *forms = ss ? (is_report ? ss->reports : ss->actions) : NULL;
    int nforms = ss ? (is_report ? ss->nreports : ss->nactions) : 0;
    if (!ss || !forms || nforms <= 0 || (is_report ? !ss->report : !ss->action))
        return opfor__gerr_set(err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOTSUP,
                               "the %s ruleset has no table %s", gen->rs->name,
                               is_report ? "reports" : "actions");
    if (t->status != OPFOR__GS_ACTIVE)
        return turn_check(g, t, OPFOR_PLAYER_TERMINAL, 0, err);
    char name[64];
    opfor_rpc_params_str_or(pl, "form", name, sizeof name);
    const opfor_form_t *f = opfor_form_find(forms, nforms, name);
    if (!f) {
        char list[300];
        size_t len = 0;
        list[0] = '\0';
        for (int i = 0; i < nforms && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                    forms[i].name);
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "form: '%s' is not one of the %s's %s (%s)", name, gen->rs->name,
                               is_report ? "reports" : "table actions", list);
    }
    int side = -1;
    if (is_report) {
        side = (int)opfor_rpc_params_int_or(pl, "side", 0, gen->rs->max_players - 1, -1);
        if (side < 0 || side == gen->ai_side)
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                   "side: a table side reports (not %d, the AI's)", gen->ai_side);
    }
    opfor_value_t vals[64];
    char texts[64][MAX_FIELD_TEXT];
    if (f->nfields > 64)
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_ERANGE,
                               "form %s has too many fields", f->name);
    memset(vals, 0, sizeof vals);
    const msgpack_object *fields = opfor_rpc_params_get(pl, "fields");
    for (uint32_t i = 0; fields && fields->type == MSGPACK_OBJECT_MAP && i < fields->via.map.size;
         i++) {
        const msgpack_object_kv *kv = &fields->via.map.ptr[i];
        char fname[64], msg[256];
        if (str_copy(&kv->key, fname, sizeof fname) < 0)
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                   "fields: bad field name");
        int k = opfor_form_field(f, fname);
        if (k < 0) {
            char list[240];
            size_t len = 0;
            list[0] = '\0';
            for (int j = 0; j < f->nfields && len < sizeof list; j++)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", j ? ", " : "",
                                        f->fields[j].name);
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                   "fields: %s has no field '%s' (fields: %s)", f->name, fname,
                                   f->nfields ? list : "none");
        }
        if (str_copy(&kv->val, texts[k], sizeof texts[k]) < 0)
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                   "fields.%s: bad value", fname);
        int rc = opfor_field_parse(&f->fields[k], texts[k], &vals[k], msg, sizeof msg);
        if (rc < 0)
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, rc, "fields.%s", msg);
    }
    char msg[256];
    int rc = opfor_form_check(f, vals, msg, sizeof msg);
    if (rc < 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, rc, "fields.%s", msg);
    opfor_session_result_t res;
    memset(&res, 0, sizeof res);
    int turn0 = progress_turn(gen, gen->work);
    rc = is_report ? ss->report(gen->ctx, gen->work, side, f, vals, &res)
                   : ss->action(gen->ctx, gen->work, f, vals, &res);
    if (rc < 0) {
        /* "initiative: a tie ..." is not prefixed again with the form's name */
        size_t nl = strlen(f->name);
        int named = strncmp(res.error, f->name, nl) == 0 && res.error[nl] == ':';
        return opfor__gerr_set(
            err, rc == OPFOR_EILLEGAL ? OPFOR_RPC_E_ILLEGAL : OPFOR_RPC_E_INVALID_PARAMS, rc,
            "%s%s%s", named ? "" : f->name, named ? "" : ": ",
            res.error[0] ? res.error : opfor_strerror(rc));
    }
    msgpack_packer pk;
    ev_begin(ev, &pk, g, t, seq, is_report ? "report" : "action");
    msgpack_pack_map(&pk, is_report ? 3 : 2);
    opfor__kv_str(&pk, "form", f->name);
    if (is_report)
        opfor__kv_int(&pk, "side", side);
    opfor_rpc_pack_cstr(&pk, "fields");
    int nset = 0;
    for (int k = 0; k < f->nfields; k++)
        nset += vals[k].set;
    msgpack_pack_map(&pk, (size_t)nset);
    for (int k = 0; k < f->nfields; k++)
        if (vals[k].set)
            opfor__kv_str(&pk, f->fields[k].name, texts[k]);
    for (int i = 0; i < res.nevents && i < OPFOR_SESSION_MAX_EVENTS; i++) {
        ev_begin(ev, &pk, g, t, seq, "session");
        msgpack_pack_map(&pk, 2);
        opfor__kv_str(&pk, "kind", res.events[i].kind);
        opfor__kv_str(&pk, "text", res.events[i].text);
    }
    after_move(g, t, seq, turn0, ev);
    return 0;
}

/* Reads an order's wire map into *o. */
static void order_read(const msgpack_object *m, opfor__gen_order_t *o) {
    memset(o, 0, sizeof *o);
    o->log_seq = (uint64_t)opfor_rpc_params_int_or(m, "order_id", 0, INT64_MAX, 0);
    o->turn = (int32_t)opfor_rpc_params_int_or(m, "turn", 0, INT32_MAX, 0);
    o->side = (int32_t)opfor_rpc_params_int_or(m, "side", 0, OPFOR_MAX_PLAYERS - 1, 0);
    o->index = (int32_t)opfor_rpc_params_int_or(m, "index", 0, INT32_MAX, -1);
    o->decision = (int32_t)opfor_rpc_params_int_or(m, "decision", 0, INT32_MAX, 0);
    o->open = (int32_t)opfor_rpc_params_int_or(m, "open", 0, 1, 1);
    o->iterations = (uint64_t)opfor_rpc_params_int_or(m, "iterations", 0, INT64_MAX, 0);
    o->value = opfor_rpc_params_num_or(m, "value", 0.0);
    opfor_rpc_params_str_or(m, "action", o->action, sizeof o->action);
    opfor_rpc_params_str_or(m, "sentence", o->sentence, sizeof o->sentence);
    opfor_rpc_params_str_or(m, "reason", o->reason, sizeof o->reason);
    opfor_rpc_params_str_or(m, "level", o->level, sizeof o->level);
    opfor_rpc_params_str_or(m, "unit", o->unit, sizeof o->unit);
    opfor_rpc_params_str_or(m, "verb", o->verb, sizeof o->verb);
    opfor_rpc_params_str_or(m, "target", o->target, sizeof o->target);
    const msgpack_object *ru = opfor_rpc_params_get(m, "runner_up");
    if (ru && ru->type == MSGPACK_OBJECT_MAP) {
        o->has_runner = 1;
        opfor_rpc_params_str_or(ru, "sentence", o->runner, sizeof o->runner);
        o->runner_value = opfor_rpc_params_num_or(ru, "value", 0.0);
    }
    const msgpack_object *d = opfor_rpc_params_get(m, "destination");
    if (d && d->type == MSGPACK_OBJECT_MAP) {
        o->has_dest = 1;
        o->x = (float)opfor_rpc_params_num_or(d, "x", 0.0);
        o->y = (float)opfor_rpc_params_num_or(d, "y", 0.0);
    }
    const msgpack_object *needs = opfor_rpc_params_get(m, "needs");
    if (needs && needs->type == MSGPACK_OBJECT_ARRAY)
        for (uint32_t i = 0; i < needs->via.array.size && o->nneeds < OPFOR__GEN_NEEDS; i++) {
            const msgpack_object *n = &needs->via.array.ptr[i];
            if (n->type != MSGPACK_OBJECT_MAP)
                continue;
            opfor_rpc_params_str_or(n, "label", o->needs[o->nneeds].label,
                                    sizeof o->needs[0].label);
            opfor_rpc_params_str_or(n, "need", o->needs[o->nneeds].need, sizeof o->needs[0].need);
            o->needs[o->nneeds].p = opfor_rpc_params_num_or(n, "p", 0.0);
            o->nneeds++;
        }
    o->active = 1;
}

static int apply_order(const opfor__game_t *g, opfor__table_t *t, uint64_t seq,
                       const msgpack_object *pl, opfor__evlist_t *ev, opfor__gerr_t *err) {
    opfor__gen_t *gen = opfor__gen_of(g);
    int cur = opfor_game_current(&gen->game, gen->work);
    int rc = turn_check(g, t, cur, 1, err);
    if (rc < 0)
        return rc;
    opfor__gen_order_t o;
    order_read(pl, &o);
    int n = work_legal(gen, gen->work);
    char p[112];
    if (o.index < 0 || o.index >= n ||
        strcmp(opfor_game_action_str(&gen->game, gen->work, &gen->acts[o.index], p, sizeof p),
               o.action) != 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                               "order: '%s' (action %d) is not a legal action of the AI here",
                               o.action, o.index);
    int turn0 = progress_turn(gen, gen->work);
    opfor_action_t a = gen->acts[o.index];
    rc = opfor_game_apply(&gen->game, gen->work, &a);
    if (rc < 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, rc, "order: the rules refuse '%s' (%s)",
                               o.action, opfor_strerror(rc));
    o.log_seq = seq;
    o.open = 1;
    o.side = cur;
    o.turn = turn0;
    gen->work_order = o;
    t->decisions++;
    msgpack_packer pk;
    ev_begin(ev, &pk, g, t, seq, "order");
    opfor__gen_order_pack(g, &gen->work_order, &pk);
    after_move(g, t, seq, turn0, ev);
    return 0;
}

static int apply_close(const opfor__game_t *g, opfor__table_t *t, uint64_t seq,
                       opfor__evlist_t *ev) {
    t->status = OPFOR__GS_CLOSED;
    opfor__gen_of(g)->work_order.open = 0;
    msgpack_packer pk;
    ev_begin(ev, &pk, g, t, seq, "closed");
    msgpack_pack_map(&pk, 0);
    return 0;
}

/* A table entry was applied: it is the one an undo takes back now. */
static void undo_note(opfor__gen_t *gen, uint64_t seq, const char *kind, const msgpack_object *pl) {
    opfor__gen_undo_t *u = &gen->work_undo;
    u->entry = u->last = seq;
    u->barrier = 0;
    snprintf(u->kind, sizeof u->kind, "%s", kind);
    char text[100] = "";
    if (kind[0] == 'a' && kind[1] == 'c' && kind[2] == 't' && !kind[3]) {
        opfor_rpc_params_str_or(pl, "action", text, sizeof text);
        snprintf(u->what, sizeof u->what, "%s", text);
    } else if (kind[0] == 'r' && kind[1] == 'o') {
        int64_t o = opfor_rpc_params_int_or(pl, "outcome", 0, INT32_MAX, -1);
        if (o < 0)
            snprintf(u->what, sizeof u->what, "the daemon's roll");
        else
            snprintf(u->what, sizeof u->what, "rolled outcome %d", (int)o);
    } else {
        opfor_rpc_params_str_or(pl, "form", text, sizeof text);
        snprintf(u->what, sizeof u->what, "%s %s", kind, text);
    }
}

/* game.undo: puts the state and order back to what they were before the last table entry
 * (replaying the log without it gives the same bytes), one level, until the next order. */
static int apply_undo(const opfor__game_t *g, opfor__table_t *t, uint64_t seq,
                      const msgpack_object *pl, opfor__evlist_t *ev, opfor__gerr_t *err) {
    opfor__gen_t *gen = opfor__gen_of(g);
    opfor__gen_undo_t *u = &gen->work_undo;
    if (t->status != OPFOR__GS_ACTIVE)
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                               "undo: the game is %s: nothing can be taken back",
                               t->status == OPFOR__GS_CLOSED ? "closed" : "over");
    opfor_rpc_hint_t *h = opfor__gerr_hint(err);
    if (!u->entry) {
        opfor_rpc_hint_set(h, OPFOR_RPC_HINT_NOTHING_TO_UNDO);
        if (!u->last) {
            opfor_rpc_hint_str(h, "why", "no_report");
            return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                                   "undo: nothing to undo: nothing was done at the table yet");
        }
        if (u->last_undo > u->last) {
            opfor_rpc_hint_str(h, "why", "undone");
            return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                                   "undo: nothing to undo: the last table entry (entry %llu) was "
                                   "already undone at entry %llu",
                                   (unsigned long long)u->last, (unsigned long long)u->last_undo);
        }
        opfor_rpc_hint_str(h, "why", "order");
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                               "undo: nothing to undo: the AI's order came after the last table "
                               "entry (entry %llu, order entry %llu); an entry can be undone only "
                               "until the next order",
                               (unsigned long long)u->last, (unsigned long long)u->barrier);
    }
    int64_t want = opfor_rpc_params_int_or(pl, "report", 0, INT64_MAX, 0);
    if (want && (uint64_t)want != u->entry)
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                               "report: entry %llu is not the last table entry (that is entry "
                               "%llu): only the last one can be undone",
                               (unsigned long long)want, (unsigned long long)u->entry);
    const uint64_t undone = u->entry;
    int turn0 = progress_turn(gen, gen->work);
    memcpy(gen->work, gen->work_undo_state, gen->rs->state_size);
    gen->work_order = u->order;
    u->entry = 0;
    u->last_undo = seq;
    char text[200];
    snprintf(text, sizeof text, "the %s of entry %llu is taken back%s%s%s", u->kind,
             (unsigned long long)undone, u->what[0] ? ": \"" : "", u->what, u->what[0] ? "\"" : "");
    msgpack_packer pk;
    ev_begin(ev, &pk, g, t, seq, "undo");
    msgpack_pack_map(&pk, 2);
    opfor_rpc_pack_cstr(&pk, "report");
    msgpack_pack_uint64(&pk, undone);
    opfor__kv_str(&pk, "text", text);
    after_move(g, t, seq, turn0, ev);
    return 0;
}

int opfor__gen_apply(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const char *kind,
                     const msgpack_object *payload, opfor__evlist_t *ev, opfor__gerr_t *err) {
    int rc;
    if (strcmp(kind, "begin") == 0) {
        rc = seq == 1 ? 0
                      : opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                                        "log entry %llu: a second begin", (unsigned long long)seq);
    } else if (strcmp(kind, "close") == 0) {
        rc = apply_close(g, t, seq, ev);
    } else if (!payload || payload->type != MSGPACK_OBJECT_MAP) {
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                               "log entry %llu (%s): no payload", (unsigned long long)seq, kind);
    } else if (strcmp(kind, "undo") == 0) {
        rc = apply_undo(g, t, seq, payload, ev, err);
    } else {
        opfor__gen_t *gen = opfor__gen_of(g);
        const int table = strcmp(kind, "order") != 0;
        if (table) { /* a table entry: what it changes can be taken back (game.undo) */
            memcpy(gen->work_undo_state, gen->work, gen->rs->state_size);
            gen->work_undo.order = gen->work_order;
            gen->work_order.open = 0; /* the game moved on past the last order */
        }
        if (strcmp(kind, "act") == 0)
            rc = apply_act(g, t, seq, payload, ev, err);
        else if (strcmp(kind, "roll") == 0)
            rc = apply_roll(g, t, seq, payload, ev, err);
        else if (strcmp(kind, "report") == 0)
            rc = apply_form(g, t, seq, 1, payload, ev, err);
        else if (strcmp(kind, "action") == 0)
            rc = apply_form(g, t, seq, 0, payload, ev, err);
        else if (strcmp(kind, "order") == 0)
            rc = apply_order(g, t, seq, payload, ev, err);
        else
            return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                                   "log entry %llu: unknown kind '%s'", (unsigned long long)seq,
                                   kind);
        if (rc == 0 && table)
            undo_note(gen, seq, kind, payload);
        else if (rc == 0 && gen->work_undo.entry) { /* an order: no undo past it */
            gen->work_undo.entry = 0;
            gen->work_undo.barrier = seq;
        }
    }
    if (rc == 0)
        t->log_seq = seq;
    return rc;
}

/* ------------------------------------------------------------------ the AI's orders */

int opfor__gen_plan(const opfor__game_t *g, const void *state, int decision,
                    const atomic_int *cancel, opfor__gen_order_t *o) {
    return opfor__gen_plan_share(g, state, decision, cancel, 1, o);
}

int opfor__gen_plan_share(const opfor__game_t *g, const void *state, int decision,
                          const atomic_int *cancel, unsigned share, opfor__gen_order_t *o) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    const opfor_ruleset_t *rs = gen->rs;
    opfor_game_t game;
    int rc = opfor_game_init(&game, rs, gen->ctx, 0);
    if (rc < 0)
        return rc;
    if (opfor_game_current(&game, state) != gen->ai_side)
        return OPFOR_EILLEGAL;
    const opfor_ruleset_ai_t *ai = rs->ai;
    const opfor_evaluator_t *ev = ai ? ai->evaluator : NULL;
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    if (ai && ai->uct_c > 0)
        cfg.uct_c = ai->uct_c;
    if (ai && ai->pw_c != 0)
        cfg.pw_c = ai->pw_c;
    if (ai && ai->pw_alpha > 0)
        cfg.pw_alpha = ai->pw_alpha;
    cfg.memory_bytes = AI_POOL_BYTES;
    cfg.seed = g->row.seed;
    cfg.cheat = 0; /* the AI never reads the table's hidden hands: it resamples them */
    opfor_mcts_t *m = NULL;
    opfor_ai_decision_t *d = calloc(1, sizeof *d);
    opfor_action_t *acts = calloc((size_t)rs->max_actions, sizeof *acts);
    opfor_order_t *ord = calloc(1, sizeof *ord);
    rc = d && acts && ord ? opfor_mcts_create(&m, rs, &cfg, ev ? ev->scratch_size : 0)
                          : OPFOR_ENOMEM;
    if (rc == 0)
        rc = opfor_ai_decide_opts(m, &game, state, ev, gen->level, (uint64_t)decision, cancel,
                                  OPFOR_AI_EXACT | (share > 1 ? OPFOR_AI_SHARE(share) : 0u), d);
    int n = rc == 0 ? opfor_game_legal(&game, state, acts, rs->max_actions) : 0;
    memset(o, 0, sizeof *o);
    o->index = -1;
    for (int i = 0; i < n && o->index < 0; i++)
        if (opfor_action_eq(&acts[i], &d->action))
            o->index = i;
    if (rc == 0 && o->index < 0)
        rc = OPFOR_EPROTO; /* the search chose an action the ruleset does not list */
    if (rc == 0) {
        o->active = 1;
        o->side = gen->ai_side;
        o->decision = decision;
        o->turn = progress_turn(gen, state);
        opfor_game_action_str(&game, state, &d->action, o->action, sizeof o->action);
        snprintf(o->sentence, sizeof o->sentence, "%s", o->action);
        snprintf(o->reason, sizeof o->reason, "%s", d->reason);
        if (ai && ai->order && ai->order(gen->ctx, state, &d->action, ord) == 0) {
            if (ord->sentence[0])
                snprintf(o->sentence, sizeof o->sentence, "%s", ord->sentence);
            if (ord->reason[0])
                snprintf(o->reason, sizeof o->reason, "%.199s; %.198s", ord->reason, d->reason);
            snprintf(o->unit, sizeof o->unit, "%s", ord->unit_name);
            snprintf(o->verb, sizeof o->verb, "%s", ord->verb);
            snprintf(o->target, sizeof o->target, "%s", ord->target_name);
            if (ord->has_move) {
                o->has_dest = 1;
                o->x = ord->x;
                o->y = ord->y;
            }
            for (int i = 0;
                 i < ord->nrolls && i < OPFOR_ORDER_MAX_ROLLS && o->nneeds < OPFOR__GEN_NEEDS;
                 i++) {
                snprintf(o->needs[o->nneeds].label, sizeof o->needs[0].label, "%s",
                         ord->rolls[i].label);
                snprintf(o->needs[o->nneeds].need, sizeof o->needs[0].need, "%s",
                         ord->rolls[i].need);
                o->needs[o->nneeds].p = ord->rolls[i].p;
                o->nneeds++;
            }
        }
        if (d->chosen >= 0 && d->chosen < d->search.nchoices)
            o->value = d->search.top[d->chosen].value;
        o->iterations = d->search.iterations;
        if (d->has_runner_up) {
            o->has_runner = 1;
            opfor_game_action_str(&game, state, &d->runner_up.action, o->runner, sizeof o->runner);
            o->runner_value = d->runner_up.value;
        }
        snprintf(o->level, sizeof o->level, "%s",
                 opfor_vocab_name(opfor_ai_level_names, gen->level));
        char note[80];
        if (opfor_ai_share_note(gen->level, share, note, sizeof note)[0]) {
            char r[sizeof o->reason];
            snprintf(r, sizeof r, "%s", o->reason);
            snprintf(o->reason, sizeof o->reason, "%.*s; %s",
                     (int)(sizeof o->reason - 3 - strlen(note)), r, note);
        }
    }
    opfor_mcts_free(m);
    free(d);
    free(acts);
    free(ord);
    return rc;
}

void opfor__gen_order_pack(const opfor__game_t *g, const opfor__gen_order_t *o,
                           msgpack_packer *pk) {
    msgpack_pack_map(pk, 21);
    opfor__kv_str(pk, "game", g->row.id);
    opfor__kv_u64(pk, "order_id", o->log_seq);
    opfor__kv_int(pk, "turn", o->turn);
    opfor__kv_int(pk, "side", o->side);
    opfor__kv_int(pk, "index", o->index);
    opfor__kv_str(pk, "action", o->action);
    opfor__kv_str(pk, "sentence", o->sentence);
    opfor__kv_str(pk, "reason", o->reason);
    opfor_rpc_pack_cstr(pk, "runner_up");
    if (o->has_runner) {
        msgpack_pack_map(pk, 2);
        opfor__kv_str(pk, "sentence", o->runner);
        opfor__kv_double(pk, "value", o->runner_value);
    } else {
        msgpack_pack_nil(pk);
    }
    opfor__kv_str(pk, "level", o->level);
    opfor__kv_str(pk, "engine", "mcts");
    opfor__kv_double(pk, "value", o->value);
    opfor__kv_u64(pk, "iterations", o->iterations);
    opfor__kv_str(pk, "unit", o->unit);
    opfor__kv_str(pk, "verb", o->verb);
    opfor__kv_str(pk, "target", o->target);
    opfor_rpc_pack_cstr(pk, "destination");
    if (o->has_dest) {
        msgpack_pack_map(pk, 2);
        opfor__kv_double(pk, "x", (double)o->x);
        opfor__kv_double(pk, "y", (double)o->y);
    } else {
        msgpack_pack_nil(pk);
    }
    opfor_rpc_pack_cstr(pk, "needs");
    msgpack_pack_array(pk, (size_t)o->nneeds);
    for (int i = 0; i < o->nneeds; i++) {
        msgpack_pack_map(pk, 3);
        opfor__kv_str(pk, "label", o->needs[i].label);
        opfor__kv_str(pk, "need", o->needs[i].need);
        opfor__kv_double(pk, "p", o->needs[i].p);
    }
    opfor__kv_int(pk, "decision", o->decision);
    opfor__kv_int(pk, "open", o->open);
    opfor__kv_int(pk, "resolved", 0);
}

/* ------------------------------------------------------------------ reading */

int opfor__gen_viewer(const opfor__game_t *g, const msgpack_object *params, int gm, int *viewer,
                      opfor__gerr_t *err) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    const msgpack_object *v = opfor_rpc_params_get(params, "viewer");
    *viewer = opfor__gen_table_side(g);
    if (!v || v->type == MSGPACK_OBJECT_NIL)
        return 0;
    if (str_is(v, "all")) {
        if (!gm)
            return opfor__gerr_set(
                err, OPFOR_RPC_E_UNAUTHORIZED, OPFOR_EAUTH,
                "viewer: \"all\" (the game master's view) needs a daemon run with "
                "debug-methods");
        *viewer = OPFOR_VIEW_ALL;
        return 0;
    }
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 >= (uint64_t)gen->rs->max_players)
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "viewer: a side 0..%d, or \"all\"", gen->rs->max_players - 1);
    if ((int)v->via.u64 == gen->ai_side)
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "viewer: side %d is the AI's; what it hides is not shown",
                               gen->ai_side);
    *viewer = (int)v->via.u64;
    return 0;
}

static void pack_pt(msgpack_packer *pk, opfor_scene_pt_t p) {
    msgpack_pack_array(pk, 2);
    msgpack_pack_double(pk, (double)p.x);
    msgpack_pack_double(pk, (double)p.y);
}

void opfor__pack_scene(msgpack_packer *pk, const opfor_scene_t *sc) {
    msgpack_pack_map(pk, 6);
    opfor__kv_double(pk, "width", (double)sc->width);
    opfor__kv_double(pk, "depth", (double)sc->depth);
    int ns = sc->nshapes < OPFOR_SCENE_MAX_SHAPES ? sc->nshapes : OPFOR_SCENE_MAX_SHAPES;
    int nu = sc->nunits < OPFOR_SCENE_MAX_UNITS ? sc->nunits : OPFOR_SCENE_MAX_UNITS;
    int na = sc->narrows < OPFOR_SCENE_MAX_ARROWS ? sc->narrows : OPFOR_SCENE_MAX_ARROWS;
    int nl = sc->nlabels < OPFOR_SCENE_MAX_LABELS ? sc->nlabels : OPFOR_SCENE_MAX_LABELS;
    opfor_rpc_pack_cstr(pk, "shapes");
    msgpack_pack_array(pk, (size_t)ns);
    for (int i = 0; i < ns; i++) {
        const opfor_scene_shape_t *s = &sc->shapes[i];
        int nv = s->n < OPFOR_SCENE_MAX_VERTS ? s->n : OPFOR_SCENE_MAX_VERTS;
        msgpack_pack_map(pk, 4);
        opfor__kv_str(pk, "style", opfor_scene_style_name(s->style));
        opfor__kv_bool(pk, "closed", s->closed);
        opfor_rpc_pack_cstr(pk, "name");
        msgpack_pack_str(pk, strnlen(s->name, sizeof s->name));
        msgpack_pack_str_body(pk, s->name, strnlen(s->name, sizeof s->name));
        opfor_rpc_pack_cstr(pk, "points");
        msgpack_pack_array(pk, (size_t)nv);
        for (int k = 0; k < nv; k++)
            pack_pt(pk, s->v[k]);
    }
    opfor_rpc_pack_cstr(pk, "units");
    msgpack_pack_array(pk, (size_t)nu);
    for (int i = 0; i < nu; i++) {
        const opfor_scene_unit_t *u = &sc->units[i];
        msgpack_pack_map(pk, 8);
        opfor_rpc_pack_cstr(pk, "at");
        pack_pt(pk, u->at);
        opfor__kv_double(pk, "w", (double)u->w);
        opfor__kv_double(pk, "d", (double)u->d);
        opfor__kv_double(pk, "facing", (double)u->facing);
        opfor__kv_int(pk, "side", u->side);
        opfor__kv_int(pk, "flags", u->flags);
        opfor__kv_int(pk, "id", u->id);
        opfor_rpc_pack_cstr(pk, "name");
        msgpack_pack_str(pk, strnlen(u->name, sizeof u->name));
        msgpack_pack_str_body(pk, u->name, strnlen(u->name, sizeof u->name));
    }
    opfor_rpc_pack_cstr(pk, "arrows");
    msgpack_pack_array(pk, (size_t)na);
    for (int i = 0; i < na; i++) {
        const opfor_scene_arrow_t *a = &sc->arrows[i];
        static const char *const kinds[] = {"move", "fire", "place"};
        msgpack_pack_map(pk, 3);
        opfor__kv_str(pk, "kind", a->kind < 3 ? kinds[a->kind] : "?");
        opfor_rpc_pack_cstr(pk, "from");
        pack_pt(pk, a->from);
        opfor_rpc_pack_cstr(pk, "to");
        pack_pt(pk, a->to);
    }
    opfor_rpc_pack_cstr(pk, "labels");
    msgpack_pack_array(pk, (size_t)nl);
    for (int i = 0; i < nl; i++) {
        const opfor_scene_label_t *l = &sc->labels[i];
        msgpack_pack_map(pk, 2);
        opfor_rpc_pack_cstr(pk, "at");
        pack_pt(pk, l->at);
        opfor_rpc_pack_cstr(pk, "text");
        msgpack_pack_str(pk, strnlen(l->text, sizeof l->text));
        msgpack_pack_str_body(pk, l->text, strnlen(l->text, sizeof l->text));
    }
}

/* Packs who is to move: a side, "chance" or "over". */
static void pack_to_move(msgpack_packer *pk, int cur) {
    if (cur >= 0)
        msgpack_pack_int(pk, cur);
    else
        opfor_rpc_pack_cstr(pk, cur == OPFOR_PLAYER_CHANCE ? "chance" : "over");
}

/* game.state's `values` of a UNIT field: the units the ruleset's session allows now when the
 * table side reports (opfor/session.h unit_values); nothing packed (nil: any unit) without
 * the hook or when the ruleset gives no list for the field. */
typedef struct gen_values_ud {
    const opfor__gen_t *gen;
    int side; /* the reporting side; -1 for table actions */
} gen_values_ud_t;

static int gen_unit_values(void *ud, const opfor_form_t *f, int k, msgpack_packer *pk) {
    const gen_values_ud_t *v = ud;
    const opfor_ruleset_session_t *ss = v->gen->rs->session;
    if (!ss || !ss->unit_values || f->fields[k].type != OPFOR_FIELD_UNIT)
        return 0;
    const char *names[MAX_UNIT_VALUES];
    int n = ss->unit_values(v->gen->ctx, v->gen->state, v->side, f, k, names, MAX_UNIT_VALUES);
    if (n < 0)
        return 0;
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++)
        opfor_rpc_pack_cstr(pk, names[i] ? names[i] : "");
    return 1;
}

int opfor__gen_pack_where(const opfor__game_t *g, msgpack_packer *pk) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    int cur = opfor_game_current(&gen->game, gen->state);
    opfor__kv_u64(pk, "log_seq", g->t.log_seq);
    opfor__kv_u64(pk, "event_seq", g->t.ev_seq);
    opfor__kv_int(pk, "turn", progress_turn(gen, gen->state));
    opfor_rpc_pack_cstr(pk, "to_move");
    pack_to_move(pk, cur);
    opfor__kv_str(pk, "status", opfor__game_status_name(g->t.status));
    opfor__kv_str(pk, "result", opfor__game_result_name(g->t.result));
    return 6;
}

void opfor__gen_pack_state(const opfor__game_t *g, int viewer, msgpack_packer *pk) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    const opfor_ruleset_t *rs = gen->rs;
    const void *st = gen->state;
    unsigned char *view = calloc(1, rs->state_size);
    opfor_scene_t *sc = calloc(1, sizeof *sc);
    unsigned char vbuf[4096];
    unsigned char *vbytes = NULL;
    size_t vlen = 0;
    int have_view = view && opfor_game_view(&gen->game, st, viewer, view) == 0;
    if (have_view) {
        int rc = opfor_game_serialize(&gen->game, view, vbuf, sizeof vbuf, &vlen);
        if (rc == 0) {
            vbytes = vbuf;
        } else if (rc == OPFOR_ERANGE && (vbytes = malloc(vlen)) != NULL) {
            if (opfor_game_serialize(&gen->game, view, vbytes, vlen, &vlen) != 0) {
                free(vbytes);
                vbytes = NULL;
            }
        }
    }
    int have_scene = sc && opfor_game_scene(&gen->game, st, viewer, sc) == 0;
    int cur = opfor_game_current(&gen->game, st);
    opfor_progress_t prog;
    int have_prog = opfor_game_progress(&gen->game, st, &prog) == 0;
    char hash[24];
    snprintf(hash, sizeof hash, "%016llx",
             (unsigned long long)(have_view ? opfor_game_hash(&gen->game, view) : 0));
    msgpack_pack_map(pk, 29);
    opfor__kv_str(pk, "game", g->row.id);
    opfor__kv_str(pk, "ruleset", g->row.ruleset);
    opfor__kv_str(pk, "title", rs->title ? rs->title : rs->name);
    opfor__kv_str(pk, "rules_version", rs->rules_version ? rs->rules_version : "");
    opfor__kv_str(pk, "scenario", g->row.scenario_name);
    opfor__kv_u64(pk, "seed", g->row.seed);
    opfor__kv_str(pk, "level", g->row.difficulty);
    opfor__kv_str(pk, "difficulty", g->row.difficulty);
    opfor__kv_str(pk, "status", opfor__game_status_name(g->t.status));
    opfor__kv_str(pk, "result", opfor__game_result_name(g->t.result));
    opfor__kv_u64(pk, "log_seq", g->t.log_seq);
    opfor__kv_u64(pk, "event_seq", g->t.ev_seq);
    opfor__kv_int(pk, "players", rs->max_players);
    opfor__kv_int(pk, "ai_side", gen->ai_side);
    opfor_rpc_pack_cstr(pk, "viewer");
    if (viewer == OPFOR_VIEW_ALL)
        opfor_rpc_pack_cstr(pk, "all");
    else
        msgpack_pack_int(pk, viewer);
    opfor_rpc_pack_cstr(pk, "to_move");
    pack_to_move(pk, cur);
    opfor_rpc_pack_cstr(pk, "progress");
    if (have_prog) {
        msgpack_pack_map(pk, 2);
        opfor__kv_u64(pk, "turn", prog.turn);
        opfor__kv_u64(pk, "activation", prog.activation);
    } else {
        msgpack_pack_nil(pk);
    }
    /* the legal actions of a table side to move (the AI's would tell its hand) */
    opfor_rpc_pack_cstr(pk, "legal");
    int n = cur >= 0 && (cur != gen->ai_side || viewer == OPFOR_VIEW_ALL) ? work_legal(gen, st) : 0;
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        char p[112];
        opfor_rpc_pack_cstr(pk, opfor_game_action_str(&gen->game, st, &gen->acts[i], p, sizeof p));
    }
    opfor_rpc_pack_cstr(pk, "outcomes");
    int no = cur == OPFOR_PLAYER_CHANCE
                 ? opfor_game_chance_outcomes(&gen->game, st, gen->outs, rs->max_actions)
                 : 0;
    msgpack_pack_array(pk, (size_t)(no > 0 ? no : 0));
    for (int i = 0; i < no; i++) {
        char p[112];
        msgpack_pack_map(pk, 3);
        opfor__kv_int(pk, "index", i);
        opfor__kv_str(pk, "text",
                      opfor_game_action_str(&gen->game, st, &gen->outs[i].action, p, sizeof p));
        opfor__kv_double(pk, "p", gen->outs[i].p);
    }
    opfor_rpc_pack_cstr(pk, "returns");
    if (cur == OPFOR_PLAYER_TERMINAL) {
        double ret[OPFOR_MAX_PLAYERS] = {0};
        opfor_game_returns(&gen->game, st, ret);
        msgpack_pack_array(pk, (size_t)rs->max_players);
        for (int s = 0; s < rs->max_players; s++)
            msgpack_pack_double(pk, ret[s]);
    } else {
        msgpack_pack_nil(pk);
    }
    opfor__kv_str(pk, "hash", hash);
    opfor_rpc_pack_cstr(pk, "view");
    if (vbytes) {
        msgpack_pack_bin(pk, vlen);
        msgpack_pack_bin_body(pk, vbytes, vlen);
    } else {
        msgpack_pack_nil(pk);
    }
    opfor_rpc_pack_cstr(pk, "scene");
    if (have_scene)
        opfor__pack_scene(pk, sc);
    else
        msgpack_pack_nil(pk);
    opfor_rpc_pack_cstr(pk, "order");
    if (gen->order.active)
        opfor__gen_order_pack(g, &gen->order, pk);
    else
        msgpack_pack_nil(pk);
    const opfor_ruleset_session_t *ss = rs->session;
    opfor_rpc_pack_cstr(pk, "reports");
    gen_values_ud_t rv = {gen, opfor__gen_table_side(g)}, av = {gen, -1};
    opfor__pack_forms(pk, ss ? ss->reports : NULL, ss ? ss->nreports : 0, gen_unit_values, &rv);
    opfor_rpc_pack_cstr(pk, "actions");
    opfor__pack_forms(pk, ss ? ss->actions : NULL, ss ? ss->nactions : 0, gen_unit_values, &av);
    /* the keys every game's state has, so a client never asks which ruleset it is */
    opfor__kv_bool(pk, "ai_to_order", g->t.status == OPFOR__GS_ACTIVE && cur == gen->ai_side);
    const int undo = g->t.status == OPFOR__GS_ACTIVE && gen->undo.entry != 0;
    opfor__kv_bool(pk, "can_undo", undo);
    opfor_rpc_pack_cstr(pk, "undo_report");
    if (undo)
        msgpack_pack_uint64(pk, gen->undo.entry);
    else
        msgpack_pack_nil(pk);
    if (vbytes != vbuf)
        free(vbytes);
    free(view);
    free(sc);
}

/* ------------------------------------------------------------------ snapshots */

/* Serializes state into small (n bytes) or a buffer it allocates (*out; free it when it is
 * not small); 0 with *len, or a negative code. */
static int serialize(const opfor__gen_t *gen, const void *state, unsigned char *small, size_t n,
                     unsigned char **out, size_t *len) {
    *out = small;
    int rc = opfor_game_serialize(&gen->game, state, small, n, len);
    if (rc == OPFOR_ERANGE) {
        if (!(*out = malloc(*len)))
            return OPFOR_ENOMEM;
        rc = opfor_game_serialize(&gen->game, state, *out, *len, len);
    }
    return rc;
}

/* The snapshot's "undo": the bookkeeping, and the state before the entry while it can be
 * undone. */
static void undo_pack(const opfor__game_t *g, msgpack_packer *pk, const unsigned char *st,
                      size_t len) {
    const opfor__gen_undo_t *u = &opfor__gen_of(g)->undo;
    msgpack_pack_map(pk, 8);
    opfor__kv_u64(pk, "entry", u->entry);
    opfor__kv_u64(pk, "last", u->last);
    opfor__kv_u64(pk, "last_undo", u->last_undo);
    opfor__kv_u64(pk, "barrier", u->barrier);
    opfor__kv_str(pk, "kind", u->kind);
    opfor__kv_str(pk, "what", u->what);
    opfor_rpc_pack_cstr(pk, "state");
    msgpack_pack_bin(pk, u->entry ? len : 0);
    msgpack_pack_bin_body(pk, st, u->entry ? len : 0);
    opfor_rpc_pack_cstr(pk, "order");
    if (u->order.active)
        opfor__gen_order_pack(g, &u->order, pk);
    else
        msgpack_pack_nil(pk);
}

/* Reads a snapshot's "undo" (absent: nothing to undo); 0, or OPFOR_EPARSE. */
static int undo_read(opfor__gen_t *gen, const msgpack_object *m) {
    opfor__gen_undo_t u;
    memset(&u, 0, sizeof u);
    if (m && m->type == MSGPACK_OBJECT_MAP) {
        u.entry = (uint64_t)opfor_rpc_params_int_or(m, "entry", 0, INT64_MAX, 0);
        u.last = (uint64_t)opfor_rpc_params_int_or(m, "last", 0, INT64_MAX, 0);
        u.last_undo = (uint64_t)opfor_rpc_params_int_or(m, "last_undo", 0, INT64_MAX, 0);
        u.barrier = (uint64_t)opfor_rpc_params_int_or(m, "barrier", 0, INT64_MAX, 0);
        opfor_rpc_params_str_or(m, "kind", u.kind, sizeof u.kind);
        opfor_rpc_params_str_or(m, "what", u.what, sizeof u.what);
        const msgpack_object *o = opfor_rpc_params_get(m, "order");
        if (o && o->type == MSGPACK_OBJECT_MAP)
            order_read(o, &u.order);
        const msgpack_object *st = opfor_rpc_params_get(m, "state");
        if (u.entry && (!st || st->type != MSGPACK_OBJECT_BIN ||
                        opfor_game_deserialize(&gen->game, gen->undo_state, st->via.bin.ptr,
                                               st->via.bin.size) != 0))
            return OPFOR_EPARSE;
    }
    gen->undo = u;
    return 0;
}

int opfor__gen_snapshot(const opfor__game_t *g, msgpack_sbuffer *sb) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    if (!gen->rs->serialize || !gen->rs->deserialize)
        return OPFOR_ENOTSUP;
    size_t len = 0, ulen = 0;
    unsigned char small[4096], usmall[4096];
    unsigned char *buf = small, *ubuf = usmall;
    int rc = serialize(gen, gen->state, small, sizeof small, &buf, &len);
    if (rc == 0 && gen->undo.entry)
        rc = serialize(gen, gen->undo_state, usmall, sizeof usmall, &ubuf, &ulen);
    if (rc == 0) {
        msgpack_packer pk;
        msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
        msgpack_pack_map(&pk, 9);
        opfor__kv_int(&pk, "v", 1);
        opfor__kv_u64(&pk, "log_seq", g->t.log_seq);
        opfor__kv_u64(&pk, "ev_seq", g->t.ev_seq);
        opfor__kv_int(&pk, "status", g->t.status);
        opfor__kv_int(&pk, "result", g->t.result);
        opfor__kv_int(&pk, "decisions", g->t.decisions);
        opfor_rpc_pack_cstr(&pk, "state");
        msgpack_pack_bin(&pk, len);
        msgpack_pack_bin_body(&pk, buf, len);
        opfor_rpc_pack_cstr(&pk, "order");
        if (gen->order.active)
            opfor__gen_order_pack(g, &gen->order, &pk);
        else
            msgpack_pack_nil(&pk);
        opfor_rpc_pack_cstr(&pk, "undo");
        undo_pack(g, &pk, ubuf, ulen);
    }
    if (buf != small && buf)
        free(buf);
    if (ubuf != usmall && ubuf)
        free(ubuf);
    return rc;
}

int opfor__gen_restore(opfor__game_t *g, uint64_t seq, const void *buf, size_t len) {
    opfor__gen_t *gen = opfor__gen_of(g);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    int rc = OPFOR_EPARSE;
    if (msgpack_unpack_next(&u, buf, len, &off) == MSGPACK_UNPACK_SUCCESS &&
        u.data.type == MSGPACK_OBJECT_MAP && opfor_rpc_params_int_or(&u.data, "v", 0, 9, 0) == 1 &&
        (uint64_t)opfor_rpc_params_int_or(&u.data, "log_seq", 0, INT64_MAX, -1) == seq) {
        const msgpack_object *st = opfor_rpc_params_get(&u.data, "state");
        if (st && st->type == MSGPACK_OBJECT_BIN &&
            opfor_game_deserialize(&gen->game, gen->work, st->via.bin.ptr, st->via.bin.size) == 0 &&
            undo_read(gen, opfor_rpc_params_get(&u.data, "undo")) == 0) {
            memcpy(gen->state, gen->work, gen->rs->state_size);
            g->t.log_seq = seq;
            g->t.ev_seq = (uint64_t)opfor_rpc_params_int_or(&u.data, "ev_seq", 0, INT64_MAX, 0);
            g->t.status = (int32_t)opfor_rpc_params_int_or(&u.data, "status", 0, 2, 0);
            g->t.result = (int32_t)opfor_rpc_params_int_or(&u.data, "result", 0, 3, 0);
            g->t.decisions =
                (int32_t)opfor_rpc_params_int_or(&u.data, "decisions", 0, INT32_MAX, 0);
            const msgpack_object *o = opfor_rpc_params_get(&u.data, "order");
            if (o && o->type == MSGPACK_OBJECT_MAP)
                order_read(o, &gen->order);
            else
                memset(&gen->order, 0, sizeof gen->order);
            rc = 0;
        }
    }
    msgpack_unpacked_destroy(&u);
    return rc;
}

/* ------------------------------------------------------------------ the table game operations */

static void op_free(void *tg) {
    opfor__gen_free(tg);
}

static void op_begin_payload(const opfor__game_t *g, msgpack_packer *pk) {
    opfor__game_begin_payload(g, opfor__gen_of(g)->rs, pk);
}

static int op_rules_check(opfor__game_t *g, const char *kind, const void *payload, size_t len,
                          opfor__gerr_t *err) {
    return opfor__game_rules_check(&g->row, opfor__gen_of(g)->rs, kind, payload, len, err);
}

static void op_begin(opfor__game_t *g) {
    opfor__gen_begin(opfor__gen_of(g));
}

static int op_apply(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const char *kind,
                    const void *payload, size_t len, opfor__evlist_t *ev, opfor__gerr_t *err) {
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    const msgpack_object *pl = NULL;
    if (len && msgpack_unpack_next(&u, payload, len, &off) == MSGPACK_UNPACK_SUCCESS)
        pl = &u.data;
    int rc = opfor__gen_apply(g, t, seq, kind, pl, ev, err);
    msgpack_unpacked_destroy(&u);
    return rc;
}

static void op_keep(opfor__game_t *g) {
    opfor__gen_keep(opfor__gen_of(g));
}

static int op_prepare(const opfor__game_t *g, const char *method, const msgpack_object *params,
                      opfor__entry_t *e, opfor__gerr_t *err) {
    static const char *const kinds[][2] = {{"game.act", "act"},
                                           {"game.roll", "roll"},
                                           {"game.report", "report"},
                                           {"game.action", "action"},
                                           {"game.undo", "undo"}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(method, kinds[i][0]) == 0) {
            snprintf(e->kind, sizeof e->kind, "%s", kinds[i][1]);
            msgpack_packer pk;
            msgpack_packer_init(&pk, e->sb, msgpack_sbuffer_write);
            return opfor__gen_prepare(g, kinds[i][1], params, &pk, err);
        }
    return opfor__game_not_here(g, method, err);
}

static int op_plan_check(const opfor__game_t *g, opfor__gerr_t *err) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    int cur = opfor_game_current(&gen->game, gen->state);
    if (g->t.status == OPFOR__GS_ACTIVE && cur == gen->ai_side)
        return 0;
    if (g->t.status == OPFOR__GS_ACTIVE && cur == OPFOR_PLAYER_CHANCE) {
        opfor_rpc_hint_set(opfor__gerr_hint(err), OPFOR_RPC_HINT_ROLL_FIRST);
    } else if (g->t.status == OPFOR__GS_ACTIVE && cur >= 0) {
        opfor_rpc_hint_set(opfor__gerr_hint(err), OPFOR_RPC_HINT_TABLE_TO_MOVE);
        opfor_rpc_hint_int(opfor__gerr_hint(err), "side", cur);
    }
    return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                           "the AI (side %d) is not to move: %s", gen->ai_side,
                           g->t.status != OPFOR__GS_ACTIVE ? "the game is over"
                           : cur == OPFOR_PLAYER_CHANCE    ? "the dice decide first (game.roll)"
                           : cur == OPFOR_PLAYER_TERMINAL  ? "the game is over"
                                                           : "a table side is (game.act)");
}

/* A worker's plan: the position searched (a copy) and the order found. */
typedef struct plan_work {
    int decision;             /* the AI's decision number */
    opfor__gen_order_t order; /* the plan */
    unsigned char state[];    /* the position (rs->state_size bytes) */
} plan_work_t;

static void *op_plan_new(const opfor__game_t *g) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    plan_work_t *pw = malloc(sizeof *pw + gen->rs->state_size);
    if (pw) {
        memset(pw, 0, sizeof *pw);
        pw->decision = g->t.decisions;
        memcpy(pw->state, gen->state, gen->rs->state_size);
    }
    return pw;
}

static int op_plan(const opfor__game_t *g, void *job, opfor__cancel_fn cancelled, void *ud,
                   const atomic_int *cancel, unsigned share, opfor__gerr_t *err) {
    (void)cancelled;
    (void)ud;
    plan_work_t *pw = job;
    int rc = opfor__gen_plan_share(g, pw->state, pw->decision, cancel, share, &pw->order);
    if (rc == OPFOR_EILLEGAL)
        opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, rc, "the AI's side %d is not to move",
                        opfor__gen_of(g)->ai_side);
    return rc;
}

static void op_plan_pack(const opfor__game_t *g, void *job, uint64_t log_seq, msgpack_packer *pk) {
    plan_work_t *pw = job;
    pw->order.log_seq = log_seq;
    opfor__gen_order_pack(g, &pw->order, pk);
}

static int op_order_open(const opfor__game_t *g, uint64_t since) {
    const opfor__gen_order_t *o = &opfor__gen_of(g)->order;
    return o->active && o->open && o->log_seq > since;
}

static void op_pack_order(const opfor__game_t *g, msgpack_packer *pk) {
    const opfor__gen_order_t *o = &opfor__gen_of(g)->order;
    if (o->active)
        opfor__gen_order_pack(g, o, pk);
    else
        msgpack_pack_nil(pk);
}

static int op_viewer(const opfor__game_t *g, const msgpack_object *params, int gm, int *viewer,
                     opfor__gerr_t *err) {
    return opfor__gen_viewer(g, params, gm, viewer, err);
}

static void op_pack_where(const opfor__game_t *g, msgpack_packer *pk) {
    opfor__gen_pack_where(g, pk);
}

static int op_turn(const opfor__game_t *g) {
    const opfor__gen_t *gen = opfor__gen_of(g);
    return progress_turn(gen, gen->state);
}

const opfor__table_game_ops_t opfor__gen_ops = {
    .name = "generic",
    .inline_scenarios = 0,
    .open = op_open,
    .free = op_free,
    .reset = opfor__gen_reset,
    .sync = NULL,
    .begin_payload = op_begin_payload,
    .rules_check = op_rules_check,
    .begin_on_wire = 1,
    .begin = op_begin,
    .apply = op_apply,
    .keep = op_keep,
    .prepare = op_prepare,
    .method = NULL,
    .method_run = NULL,
    .method_done = NULL,
    .plan_check = op_plan_check,
    .plan_new = op_plan_new,
    .plan = op_plan,
    .plan_pack = op_plan_pack,
    .order_open = op_order_open,
    .pack_order = op_pack_order,
    .viewer = op_viewer,
    .pack_state = opfor__gen_pack_state,
    .pack_where = op_pack_where,
    .nwhere = 6,
    .turn = op_turn,
    .score = NULL,
    .snapshot = opfor__gen_snapshot,
    .restore = opfor__gen_restore,
};
