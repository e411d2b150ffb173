/* rulesets/viktoria/daemon/vk_game_ops.c — Viktoria!'s table game operations (io/game_ops.h):
 * the daemon's shell reaches the game model of vk_game*.c only through opfor_vk_table_game.
 *
 * The committed table is the model's g->t; a mutation works on its work copy (begin, apply,
 * keep), with the shell's counters copied in before an entry and back after it, so the table's
 * own counters (in its hash and snapshot) and the shell's never disagree. A new game's log
 * begins with a `begin` entry naming the ruleset and its rules_version (as the built-in table
 * game's do); a log that names other rules is refused, and a log written before games had one
 * (its first entry a press, report, order or close) is read as rules_version "1", the rules it
 * was written under. The begin entry is bookkeeping: the table's log_seq, the one clients
 * see, does not count it (base), so the wire's numbers are those of the logs before it. Its own
 * method is `initiative` (the initiative button, XV.A): at level challenge in Patrol Mode the
 * director (the ruleset's ai_director.c) picks the outcome of a spotting on a worker, from a copy
 * of the table, and the press is then logged with that outcome, so replays need no director.
 */
#include "vk_game_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ai.h"
#include "opfor/ruleset.h"
#include "opfor/viktoria/director.h"
#include "opfor/viktoria/adapter.h"
#include "pack_int.h"

/* The rules version of the logs written before logs began with a `begin` entry. */
#define LEGACY_RULES_VERSION "1"

static opfor__vkg_t *vk(const opfor__game_t *g) {
    return g->tg;
}

/* The shell's counters into a table, and back (the shell's log_seq counts the begin entry). */
static void counters_in(const opfor__vkg_t *v, const opfor__table_t *c, opfor__vkg_table_t *t) {
    t->log_seq = c->log_seq - (uint64_t)v->base;
    t->ev_seq = c->ev_seq;
    t->status = c->status;
    t->result = c->result;
    t->decisions = c->decisions;
}

static void counters_out(const opfor__vkg_t *v, const opfor__vkg_table_t *t, opfor__table_t *c) {
    c->log_seq = t->log_seq + (uint64_t)v->base;
    c->ev_seq = t->ev_seq;
    c->status = t->status;
    c->result = t->result;
    c->decisions = t->decisions;
}

/* ------------------------------------------------------------------ life */

static int op_open(opfor__game_t *g, const struct opfor_ruleset *rs, const opfor__game_src_t *src,
                   opfor__gerr_t *err) {
    (void)rs;
    opfor__vkg_t *v = NULL;
    int rc = opfor__vkg_open(&v, &g->row, src->yaml, src->yaml_len, src->model, err);
    if (rc < 0)
        return rc;
    g->row = v->rowbuf; /* the normalized scenario, mode and difficulty */
    v->row = &g->row;   /* the shell's, whose id game.new may still choose */
    v->cheat = &g->cheat;
    g->tg = v;
    memset(&g->t, 0, sizeof g->t);
    counters_out(v, &v->t, &g->t);
    return 0;
}

static void op_free(void *tg) {
    opfor__vkg_free(tg);
}

static void op_reset(opfor__game_t *g) {
    opfor__vkg_t *v = vk(g);
    opfor__vkg_opening(v, &v->t);
    v->base = 0; /* until the begin entry is applied again */
    memset(&g->t, 0, sizeof g->t);
    counters_out(v, &v->t, &g->t);
}

static void op_sync(opfor__game_t *g) {
    counters_in(vk(g), &g->t, &vk(g)->t);
}

/* ------------------------------------------------------------------ the log */

static void op_begin(opfor__game_t *g) {
    opfor__vkg_t *v = vk(g);
    memcpy(v->work, &v->t, sizeof *v->work);
}

static int op_apply(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const char *kind,
                    const void *payload, size_t len, opfor__evlist_t *ev, opfor__gerr_t *err) {
    (void)payload;
    opfor__vkg_t *v = vk(g);
    if (strcmp(kind, "begin") == 0) { /* checked by rules_check, or just written */
        if (seq != 1)
            return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                                   "log entry %llu: a begin entry after the first",
                                   (unsigned long long)seq);
        v->base = 1;
        t->log_seq = 1;
        return 0;
    }
    counters_in(v, t, v->work);
    int rc =
        opfor__vkg_apply_entry(v, v->work, seq - (uint64_t)v->base, kind, payload, len, ev, err);
    if (rc == 0)
        counters_out(v, v->work, t);
    return rc;
}

static void op_keep(opfor__game_t *g) {
    opfor__vkg_t *v = vk(g);
    memcpy(&v->t, v->work, sizeof v->t);
}

/* The table's report (`report`: the params as given are the log entry, once
 * opfor__vkg_report_check found that it counts once) and its undo (`game.undo`: the params
 * are the entry); game.report and game.action take the session's forms (vk_game_forms.c: a
 * report entry, or the press); game.act and game.roll are not this game's. */
static int op_prepare(const opfor__game_t *g, const char *method, const msgpack_object *params,
                      opfor__entry_t *e, opfor__gerr_t *err) {
    if (strcmp(method, "report") == 0 || strcmp(method, "game.undo") == 0) {
        const int undo = method[0] == 'g';
        opfor__gerr_t why = {0};
        int rc = undo ? 0 : opfor__vkg_report_check(vk(g), &vk(g)->t, params, &why);
        if (rc < 0) {
            if (err)
                *err = why;
            return rc;
        }
        snprintf(e->kind, sizeof e->kind, "%s", undo ? "undo" : "report");
        msgpack_packer pk;
        msgpack_packer_init(&pk, e->sb, msgpack_sbuffer_write);
        msgpack_pack_object(&pk, *params);
        return 0;
    }
    if (strcmp(method, "game.report") == 0 || strcmp(method, "game.action") == 0)
        return opfor__vkg_form_prepare(vk(g), method, params, e, err);
    opfor_rpc_hint_t *h = opfor__gerr_hint(err);
    opfor_rpc_hint_set(h, OPFOR_RPC_HINT_USE_RULESET_METHODS);
    opfor_rpc_hint_str(h, "ruleset", g->row.ruleset);
    char methods[160] = "";
    const opfor_ruleset_t *grs = opfor_ruleset_find(g->row.ruleset);
    size_t at = 0;
    for (const char *const *m = grs ? grs->methods : NULL; m && *m && at < sizeof methods; m++)
        at += (size_t)snprintf(methods + at, sizeof methods - at, "%s.%s, ", grs->name, *m);
    if (at < sizeof methods)
        snprintf(methods + at, sizeof methods - at, "report, ai.orders");
    opfor_rpc_hint_str(h, "methods", methods);
    return opfor__gerr_set(err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOTSUP,
                           "this game is played with patrol.initiative, report and ai.orders");
}

/* ------------------------------------------------------------------ initiative */

/* A press steered by the director, worked out on a worker from a copy of the table. */
typedef struct press_work {
    uint64_t log_seq;           /* the game's log when the press began */
    int rc;                     /* the dry press's result */
    opfor__vkg_press_opt_t opt; /* out: whether it spotted, and what */
    opfor__vkg_table_t t;       /* the table pressed (a copy) */
} press_work_t;

static int press_steer(void *ud, const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                       opfor_patrol_spot_t *spot) {
    (void)ud;
    opfor_director_config_t dc;
    opfor_director_config_default(&dc);
    opfor_director_t *d = NULL;
    int rc = opfor_director_create(&d, &dc);
    if (rc < 0)
        return rc;
    opfor_director_table_t tb = {
        {t->units, t->nunits, t->figures, t->nfigures, t->ps.turn, &t->ps, &t->rng},
        g->enemy,
        opfor_director_table_key(g->row->seed, t->presses)};
    rc = opfor_director_steer_table(d, g->rs, &tb, spot);
    opfor_director_free(d);
    return rc < 0 ? rc : rc == 1; /* 1: it chose another spotting than the dice's */
}

static int op_method(const opfor__game_t *g, const char *name, const char *verb,
                     const msgpack_object *params, opfor__entry_t *e, void **work,
                     opfor__gerr_t *err) {
    (void)params;
    const opfor__vkg_t *v = vk(g);
    if (strcmp(verb, "initiative") != 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOTSUP,
                               "%s: not a method of this game", name);
    if (v->mode == OPFOR_MODE_COOP && v->level == OPFOR_AI_CHALLENGE && v->rs &&
        v->t.status == OPFOR__GS_ACTIVE) {
        press_work_t *pw = malloc(sizeof *pw);
        if (!pw)
            return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_ENOMEM, "out of memory");
        memset(pw, 0, sizeof *pw);
        pw->log_seq = v->t.log_seq;
        memcpy(&pw->t, &v->t, sizeof pw->t);
        *work = pw;
        return 1;
    }
    snprintf(e->kind, sizeof e->kind, "press");
    return 0;
}

static void op_method_run(const opfor__game_t *g, void *work) {
    press_work_t *pw = work;
    opfor__evlist_t ev;
    opfor__evlist_init(&ev);
    opfor__gerr_t err = {0};
    pw->opt.steer = press_steer;
    pw->rc = opfor__vkg_press(vk(g), &pw->t, pw->log_seq + 1, &pw->opt, &ev, &err);
    opfor__evlist_free(&ev);
}

static int op_method_done(const opfor__game_t *g, void *work, int why, opfor__entry_t *e,
                          opfor__gerr_t *err) {
    (void)g;
    press_work_t *pw = work;
    if (why == 3)
        return opfor__gerr_set(err, OPFOR_RPC_E_CANCELLED, OPFOR_ECANCELED,
                               "the game was unloaded during the press");
    if (why) {
        opfor_rpc_hint_set(opfor__gerr_hint(err), OPFOR_RPC_HINT_PRESS_AGAIN);
        opfor_rpc_hint_str(opfor__gerr_hint(err), "why", why == 1 ? "cancelled" : "changed");
        return opfor__gerr_set(err, OPFOR_RPC_E_CANCELLED, OPFOR_ECANCELED, "%s",
                               why == 1 ? "the press was cancelled (the client left or the server "
                                          "is stopping): press again"
                                        : "the game changed while the director chose the "
                                          "spotting: press again");
    }
    /* pw->rc < 0: the committed press reports the same error. */
    snprintf(e->kind, sizeof e->kind, "press");
    if (pw->rc == 0 && pw->opt.spotted) {
        msgpack_packer pk;
        msgpack_packer_init(&pk, e->sb, msgpack_sbuffer_write);
        opfor__vkg_press_payload_pack(&pw->opt.used, pw->opt.steered, &pk);
    }
    return 0;
}

/* ------------------------------------------------------------------ the AI's orders */

typedef struct plan_work {
    opfor__vkg_order_t order; /* the plan */
    opfor__vkg_table_t t;     /* the position searched (a copy) */
} plan_work_t;

static int op_plan_check(const opfor__game_t *g, opfor__gerr_t *err) {
    const opfor__vkg_t *v = vk(g);
    const opfor__vkg_table_t *t = &v->t;
    if (t->pending == OPFOR__PEND_ENEMY)
        return 0;
    /* what to do instead: the game is over, a player unit must be reported first, or nobody
       holds the initiative yet */
    const char *enemy = v->sc->sides[v->enemy].name;
    if (t->status == OPFOR__GS_ACTIVE) {
        opfor_rpc_hint_set(opfor__gerr_hint(err), OPFOR_RPC_HINT_NO_AI_INITIATIVE);
        opfor_rpc_hint_str(opfor__gerr_hint(err), "side", enemy);
        opfor_rpc_hint_str(opfor__gerr_hint(err), "holder", opfor__vkg_pending_name(t->pending));
    }
    return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                           "no unit of the %s holds the initiative (%s)", enemy,
                           t->status != OPFOR__GS_ACTIVE ? "the game is over"
                           : t->pending == OPFOR__PEND_PLAYER
                               ? "the players hold it: report which of their units acted first"
                               : "nobody holds it: press the initiative button first");
}

static void *op_plan_new(const opfor__game_t *g) {
    plan_work_t *pw = malloc(sizeof *pw);
    if (pw) {
        memset(&pw->order, 0, sizeof pw->order);
        memcpy(&pw->t, &vk(g)->t, sizeof pw->t);
    }
    return pw;
}

static int op_plan(const opfor__game_t *g, void *job, opfor__cancel_fn cancelled, void *ud,
                   const atomic_int *cancel, unsigned share, opfor__gerr_t *err) {
    plan_work_t *pw = job;
    const opfor__vkg_t *v = vk(g);
    int rc = opfor__vkg_plan_share(v, &pw->t, cancelled, ud, cancel, share, &pw->order);
    if (rc == OPFOR_EILLEGAL)
        opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, rc, "no unit of the %s can act now",
                        v->sc->sides[v->enemy].name);
    return rc;
}

static void op_plan_pack(const opfor__game_t *g, void *job, uint64_t log_seq, msgpack_packer *pk) {
    plan_work_t *pw = job;
    const opfor__vkg_t *v = vk(g);
    pw->order.log_seq = log_seq - (uint64_t)v->base;
    opfor__vkg_order_pack(v, &v->t, &pw->order, pk);
}

static int op_order_open(const opfor__game_t *g, uint64_t since) {
    const opfor__vkg_t *v = vk(g);
    const opfor__vkg_order_t *o = &v->t.order;
    return o->active && o->open && o->log_seq + (uint64_t)v->base > since;
}

static void op_pack_order(const opfor__game_t *g, msgpack_packer *pk) {
    const opfor__vkg_t *v = vk(g);
    if (v->t.order.active)
        opfor__vkg_order_pack(v, &v->t, &v->t.order, pk);
    else
        msgpack_pack_nil(pk);
}

/* ------------------------------------------------------------------ reading */

static int op_viewer(const opfor__game_t *g, const msgpack_object *params, int gm, int *viewer,
                     opfor__gerr_t *err) {
    (void)g;
    (void)gm;
    *viewer = 0;
    if (params && opfor_rpc_params_get(params, "viewer"))
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "viewer: this game's state has no per-side views");
    return 0;
}

static void op_pack_state(const opfor__game_t *g, int viewer, msgpack_packer *pk) {
    (void)viewer;
    opfor__vkg_pack_state(vk(g), pk);
}

static void op_pack_where(const opfor__game_t *g, msgpack_packer *pk) {
    const opfor__vkg_t *v = vk(g);
    const opfor__vkg_table_t *t = &v->t;
    opfor__kv_u64(pk, "log_seq", t->log_seq);
    opfor__kv_u64(pk, "event_seq", t->ev_seq);
    opfor__kv_int(pk, "turn", t->ps.turn);
    opfor__kv_str(pk, "pending", opfor__vkg_pending_name(t->pending));
    opfor__kv_str(pk, "status", opfor__game_status_name(t->status));
    opfor__kv_str(pk, "result", opfor__game_result_name(t->result));
    opfor__kv_str(pk, "verdict", opfor__vkg_verdict(v, t, NULL));
    opfor_rpc_pack_cstr(pk, "score");
    opfor__vkg_pack_score(v, t, pk);
}

static int op_turn(const opfor__game_t *g) {
    return vk(g)->t.ps.turn;
}

static void op_score(const opfor__game_t *g, int *score, int *turns) {
    const opfor__vkg_t *v = vk(g);
    *score = opfor__vkg_score_total(v, &v->t);
    *turns = v->t.ps.turn;
}

/* ------------------------------------------------------------------ snapshots */

/* A snapshot is the table's bytes (OPFOR__TABLE_MAGIC, its size): one from another build or
 * another entry is refused and the game replays from its first entry. */
static int op_snapshot(const opfor__game_t *g, msgpack_sbuffer *sb) {
    const opfor__vkg_t *v = vk(g);
    return msgpack_sbuffer_write(sb, (const char *)&v->t, sizeof v->t) == 0 ? 0 : OPFOR_ENOMEM;
}

static int op_restore(opfor__game_t *g, uint64_t seq, const void *buf, size_t len) {
    opfor__vkg_t *v = vk(g);
    if (len != sizeof *v->work)
        return OPFOR_EPARSE;
    memcpy(v->work, buf, sizeof *v->work);
    if (v->work->magic != OPFOR__TABLE_MAGIC || v->work->size != sizeof *v->work ||
        v->work->log_seq + (uint64_t)v->base != seq)
        return OPFOR_EPARSE;
    memcpy(&v->t, v->work, sizeof v->t);
    counters_out(v, &v->t, &g->t);
    return 0;
}

static void op_begin_payload(const opfor__game_t *g, msgpack_packer *pk) {
    opfor__game_begin_payload(g, &opfor_viktoria_ruleset, pk);
}

/* The rules of a saved game's log: its begin entry's, or (a log from before games had one)
 * rules version "1"; the game replays under them (v->rules). Notes in base whether the log
 * has a begin entry. A version this build cannot read is refused, naming both. */
static int op_rules_check(opfor__game_t *g, const char *kind, const void *payload, size_t len,
                          opfor__gerr_t *err) {
    opfor__vkg_t *v = vk(g);
    const opfor_ruleset_t *rs = &opfor_viktoria_ruleset;
    const char *mine = rs->rules_version ? rs->rules_version : "";
    v->base = kind && strcmp(kind, "begin") == 0;
    if (!v->base) {
        v->rules = opfor__vkg_rules_number(LEGACY_RULES_VERSION);
        return 0;
    }
    char version[64];
    int rc = opfor__game_rules_read(&g->row, rs, kind, payload, len, version, sizeof version, err);
    if (rc < 0)
        return rc;
    if (!opfor__vkg_rules_number(version))
        return opfor__gerr_set(
            err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOTSUP,
            "game %s was saved under %s rules version '%s', and this build reads %s rules "
            "versions '1' and '%s': it is not replayed under other rules (open it with a build "
            "of that version)",
            g->row.id, rs->name, version, rs->name, mine);
    v->rules = opfor__vkg_rules_number(version);
    return 0;
}

const opfor__table_game_ops_t opfor_vk_table_game = {
    .name = "viktoria",
    .inline_scenarios = 1,
    .cheats = 1,
    .open = op_open,
    .free = op_free,
    .reset = op_reset,
    .sync = op_sync,
    .begin_payload = op_begin_payload,
    .rules_check = op_rules_check,
    .begin_on_wire = 0,
    .begin = op_begin,
    .apply = op_apply,
    .keep = op_keep,
    .prepare = op_prepare,
    .method = op_method,
    .method_run = op_method_run,
    .method_done = op_method_done,
    .plan_check = op_plan_check,
    .plan_new = op_plan_new,
    .plan = op_plan,
    .plan_pack = op_plan_pack,
    .order_open = op_order_open,
    .pack_order = op_pack_order,
    .viewer = op_viewer,
    .pack_state = op_pack_state,
    .pack_where = op_pack_where,
    .nwhere = 8,
    .turn = op_turn,
    .score = op_score,
    .snapshot = op_snapshot,
    .restore = op_restore,
};
