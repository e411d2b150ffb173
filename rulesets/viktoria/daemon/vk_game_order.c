/* rulesets/viktoria/daemon/vk_game_order.c — the non-player side's orders: planning one on a worker
 * thread, its wire and log form, and recording it in the game.
 *
 * The plan looks one ply ahead with the rules engine: every unit that may act and every
 * action the engine lists for it is tried on copies of the position whose dice come from the
 * decision's own stream (never the game's future dice), scored with the engine's evaluation
 * averaged over a few samples (more at higher difficulty), and the best is the order; the
 * second best is the runner-up the reason names. The log keeps the chosen engine actions as
 * bytes, so replay never searches again. When the AI library's planner (ai/) offers orders
 * this is the place to call it. Rules: Viktoria! V.A (activation), VII (command test).
 */
#include "vk_game_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ai.h"
#include "opfor/mcts.h"
#include "opfor/orders.h"
#include "opfor/rpc.h"
#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/engine_query.h"
#include "opfor/viktoria/session_plan.h"
#include "pack_int.h"

_Static_assert((int)OPFOR__CMD_IN_COMMAND == (int)OPFOR_TABLE_CMD_IN_COMMAND &&
                   (int)OPFOR__CMD_PASSED == (int)OPFOR_TABLE_CMD_PASSED &&
                   (int)OPFOR__CMD_FAILED == (int)OPFOR_TABLE_CMD_FAILED,
               "the order's command outcome is the planner's");

#define AI_POOL_BYTES ((size_t)16 << 20) /* search memory of one order */

/* ------------------------------------------------------------------ engine glue */

uint64_t opfor__vkg_decision_seed(const opfor__vkg_t *g, int decision) {
    return opfor_rng_mix64(g->row->seed ^ 0x6f72646572ull ^
                           ((uint64_t)(decision + 1) * 0x9E3779B97F4A7C15ull));
}

void opfor__vkg_engine_state(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                             opfor_vk_state_t *st, uint64_t seed, int side) {
    opfor_vk_state_init(g->ctx, st, seed);
    memcpy(st->units, t->units, sizeof st->units);
    memcpy(st->figures, t->figures, sizeof st->figures);
    st->nunits = (uint8_t)t->nunits;
    st->nfigures = (uint16_t)t->nfigures;
    for (int u = 0; u < t->nunits; u++)
        st->ux[u].removed = !opfor__vkg_in_play(t, u);
    st->level = (uint8_t)t->weather[0];
    st->wind = (uint8_t)t->weather[1];
    st->turn = t->ps.turn;
    st->phase = OPFOR_VK_PH_SELECT_UNIT;
    st->side = (uint8_t)side;
    st->cur = OPFOR_VK_NONE;
}

/* The table as the planner reads it (rulesets/viktoria/session_plan.c). */
static opfor_table_view_t plan_table(const opfor__vkg_t *g, const opfor__vkg_table_t *t) {
    opfor_table_view_t tb = {t->units,    t->nunits,  t->figures,
                             t->nfigures, t->ps.turn, g->mode == OPFOR_MODE_COOP ? &t->ps : NULL,
                             &t->rng};
    return tb;
}

/* The command radius of the weather now (VII, XIII). */
static float command_radius(const opfor__vkg_table_t *t) {
    return (float)opfor_viktoria_command_radius(t->weather[0]);
}

int opfor__vkg_in_command(const opfor__vkg_t *g, const opfor__vkg_table_t *t, int u) {
    opfor_table_view_t tb = plan_table(g, t);
    return opfor_table_plan_in_command(&tb, u, command_radius(t));
}

void opfor__vkg_take_engine(const opfor__vkg_t *g, opfor__vkg_table_t *t,
                            const opfor_vk_state_t *st) {
    const uint16_t ukeep = OPFOR_UNIT_LIMBERED | OPFOR_UNIT_LOADED | OPFOR_UNIT_IN_MELEE;
    int n = st->nunits < t->nunits ? st->nunits : t->nunits;
    for (int u = 0; u < n; u++) {
        opfor_unit_t *tu = &t->units[u];
        const opfor_unit_t *eu = &st->units[u];
        tu->facing = eu->facing;
        tu->status = eu->status;
        tu->flags = (uint16_t)((tu->flags & ~ukeep) | (eu->flags & ukeep));
        for (int i = tu->first; i < tu->first + tu->count && i < st->nfigures; i++)
            t->figures[i] = st->figures[i];
        if (st->ux[u].removed && opfor__vkg_in_play(t, u)) { /* routed, fled, surrendered */
            tu->flags |= OPFOR_UNIT_OFF_TABLE;
            if (g->mode == OPFOR_MODE_COOP && t->ps.fate[u] == OPFOR_PATROL_FATE_NONE)
                t->ps.fate[u] = OPFOR_PATROL_FATE_DRIVEN_OFF;
        }
    }
}

/* ------------------------------------------------------------------ planning */

static int action_has_target(const opfor_vk_action_t *a) {
    switch (a->kind) {
    case OPFOR_VK_CHARGE:
    case OPFOR_VK_FIRE:
    case OPFOR_VK_THROW_BOMB:
    case OPFOR_VK_MERGE:
        return a->target != OPFOR_VK_NONE;
    default:
        return (a->flags & OPFOR_VK_AF_FIRE) && a->target != OPFOR_VK_NONE;
    }
}

static int action_has_dest(const opfor_vk_action_t *a) {
    switch (a->kind) {
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_RUN:
    case OPFOR_VK_CRAWL:
    case OPFOR_VK_FIRE_MG:
    case OPFOR_VK_FIRE_ARTILLERY:
    case OPFOR_VK_CALL_SUPPORT:
    case OPFOR_VK_UNLIMBER:
    case OPFOR_VK_REACT_FLEE:
        return 1;
    default:
        return 0;
    }
}

/* Samples averaged per action by AI level. */
static int level_samples(int level) {
    static const int s[OPFOR_AI_LEVEL_COUNT] = {1, 2, 3, 4, 4};
    return level >= 0 && level < OPFOR_AI_LEVEL_COUNT ? s[level] : 2;
}

typedef struct cand {
    opfor_vk_action_t select; /* the unit's SELECT action */
    opfor_vk_action_t action; /* the action */
    double value;             /* mean evaluation after it */
    int command;              /* OPFOR__CMD_* for that unit */
    int inert;                /* 1: the table could not carry it out (opfor_vk_query_inert) */
} cand_t;

/* Whether candidate a is a better order than b: one the table can carry out first, then the
 * higher value. */
static int cand_better(const cand_t *a, const cand_t *b) {
    if (a->inert != b->inert)
        return a->inert < b->inert;
    return a->value > b->value;
}

/* Brings st (just after SELECT_UNIT for unit u) to its ACTION phase: a unit near a Patrol Mode
 * general needs no test; otherwise the engine rolls the command test. */
int opfor__vkg_to_action(const opfor__vkg_t *g, const opfor__vkg_table_t *t, opfor_vk_state_t *st,
                         int u) {
    opfor_table_view_t tb = plan_table(g, t);
    return opfor_table_plan_command(g->ctx, st, &tb, u, command_radius(t), NULL);
}

static int plan_greedy(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                       opfor__cancel_fn cancelled, void *ud, opfor__vkg_order_t *o);

void opfor__vkg_force_command(opfor_vk_state_t *st, int command) {
    if (st->phase != OPFOR_VK_PH_COMMAND)
        return;
    st->phase = OPFOR_VK_PH_ACTION;
    st->restricted = command == OPFOR__CMD_FAILED;
}

static void order_common(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                         opfor__vkg_order_t *o) {
    o->unit = o->action.unit != OPFOR_VK_NONE ? o->action.unit : o->select.unit;
    o->target =
        action_has_target(&o->action) && o->action.target < t->nunits ? o->action.target : -1;
    o->has_dest = action_has_dest(&o->action);
    o->turn = t->ps.turn;
    snprintf(o->level, sizeof o->level, "%s", opfor_vocab_name(opfor_ai_level_names, g->level));
    snprintf(o->command_text, sizeof o->command_text, "%s",
             opfor_table_plan_command_text(o->command));
}

/* "8+ on 2D6" -> "2D6"; "4+" -> "D6"; a move's dice stay as they are. */
static void need_dice(const char *need, char *dice, size_t n) {
    const char *on = strstr(need, " on ");
    if (on)
        snprintf(dice, n, "%.7s", on + 4);
    else if (need[0] >= '1' && need[0] <= '6')
        snprintf(dice, n, "D6");
    else
        dice[0] = '\0';
}

/* The AI of ai/: a search per decision (the unit to act, then its action) on the position
 * taken from the table; Patrol Mode's generals spare the command test as in `opfor patrol`. */
static int plan_ai(const opfor__vkg_t *g, const opfor__vkg_table_t *t, opfor__cancel_fn cancelled,
                   void *ud, const atomic_int *cancel, unsigned share, opfor__vkg_order_t *o) {
    opfor_game_t game;
    if (opfor_game_init(&game, &opfor_viktoria_ruleset, g->rs, 0) != 0)
        return OPFOR_EINVAL;
    const opfor_evaluator_t *ev = opfor_ai_evaluator(game.rs);
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    opfor_ai_search_tuning(game.rs, &cfg);
    cfg.memory_bytes = AI_POOL_BYTES;
    cfg.seed = g->row->seed;
    /* no level reads the hidden spawns (challenge is fair, docs/ai.md): only a game started
       with game.new's `cheat` (opfor patrol --cheat) */
    cfg.cheat = g->cheat && *g->cheat;
    opfor_mcts_t *m = NULL;
    opfor_vk_rs_state_t *st = calloc(1, sizeof *st);
    opfor_order_t *ord = calloc(1, sizeof *ord);
    opfor_ai_decision_t *d = calloc(1, sizeof *d);
    int rc =
        st && ord && d ? opfor_mcts_create(&m, &opfor_viktoria_ruleset, &cfg, 0) : OPFOR_ENOMEM;
    const int decision = t->decisions;
    opfor_table_view_t tb = plan_table(g, t);
    if (rc == 0)
        rc =
            opfor_table_plan_begin(g->rs, st, &tb, g->enemy, opfor__vkg_decision_seed(g, decision));
    memset(o, 0, sizeof *o);
    o->decision = decision;
    o->command = OPFOR__CMD_IN_COMMAND;
    int done = 0;
    for (int step = 0; rc == 0 && !done && step < 8; step++) {
        if (cancelled && cancelled(ud)) {
            rc = OPFOR_ECANCELED;
            break;
        }
        int phase = st->vk.phase;
        int next = opfor_table_plan_next(g->rs, st, g->enemy);
        if (next == OPFOR_TABLE_PLAN_COMMAND) {
            o->command = opfor__vkg_to_action(g, t, &st->vk, o->select.unit);
            continue;
        }
        if (next != OPFOR_TABLE_PLAN_DECIDE ||
            (phase != OPFOR_VK_PH_SELECT_UNIT && phase != OPFOR_VK_PH_ACTION)) {
            rc = OPFOR_EILLEGAL;
            break;
        }
        rc = opfor_ai_decide_opts(m, &game, st, ev, g->level,
                                  (uint64_t)decision * 2u + (phase == OPFOR_VK_PH_ACTION), cancel,
                                  OPFOR_AI_EXACT | (share > 1 ? OPFOR_AI_SHARE(share) : 0u), d);
        if (rc < 0)
            break;
        opfor_vk_action_t ea;
        opfor_vk_rs_action_to_engine(&d->action, &ea);
        if (phase == OPFOR_VK_PH_SELECT_UNIT) {
            o->select = ea;
            rc = opfor_table_plan_apply(g->rs, st, &d->action, NULL);
            rc = rc > 0 ? 0 : rc;
            continue;
        }
        o->action = ea;
        rc = opfor_order_from_decision(&game, st, d, ord);
        if (rc < 0)
            break;
        snprintf(o->sentence, sizeof o->sentence, "%.255s", ord->sentence);
        char note[80]; /* a busy daemon's shorter search, said at the reason's end */
        opfor_ai_share_note(g->level, share, note, sizeof note);
        snprintf(o->reason, sizeof o->reason, "%.*s%s%s",
                 note[0] ? (int)(sizeof o->reason - 3 - strlen(note)) : 255, ord->reason,
                 note[0] ? "; " : "", note);
        for (int i = 0; i < ord->nalts && o->nalts < OPFOR__ORDER_ALTS; i++) {
            opfor__vkg_alt_t *x = &o->alts[o->nalts++];
            snprintf(x->text, sizeof x->text, "%s", ord->alts[i].text);
            x->visits = ord->alts[i].visits;
            x->chosen = ord->alts[i].chosen;
            x->value = ord->alts[i].value;
        }
        if (ord->has_runner_up) {
            o->has_runner = 1;
            snprintf(o->runner_sentence, sizeof o->runner_sentence, "%.111s", ord->runner_up);
            if (d->has_runner_up)
                opfor_vk_rs_action_to_engine(&d->runner_up.action, &o->runner);
            else
                o->runner = ea;
        }
        for (int i = 0; i < ord->nrolls && o->nneeds < OPFOR__ORDER_NEEDS; i++) {
            opfor__vkg_need_t *nd = &o->needs[o->nneeds++];
            snprintf(nd->name, sizeof nd->name, "%.15s", ord->rolls[i].label);
            snprintf(nd->label, sizeof nd->label, "%.23s", ord->rolls[i].label);
            snprintf(nd->need, sizeof nd->need, "%.31s", ord->rolls[i].need);
            need_dice(nd->need, nd->dice, sizeof nd->dice);
            nd->count = ord->rolls[i].dice;
            snprintf(nd->per, sizeof nd->per, "%.11s", ord->rolls[i].per);
            nd->p = ord->rolls[i].p;
        }
        o->figures = ord->figures;
        o->figures_how = ord->figures_how;
        o->has_stop = ord->has_move;
        o->stop = opfor_pt(ord->x, ord->y);
        o->has_limit = ord->has_limit;
        o->limit = opfor_pt(ord->limit_x, ord->limit_y);
        snprintf(o->limit_why, sizeof o->limit_why, "%.47s", ord->limit_why);
        o->has_via = ord->has_via;
        o->via = opfor_pt(ord->via_x, ord->via_y);
        o->nstops = ord->nstops == 3 ? 3 : 0;
        for (int k = 0; k < o->nstops; k++)
            o->stops[k] = opfor_pt(ord->stops_x[k], ord->stops_y[k]);
        snprintf(o->engine, sizeof o->engine, "mcts");
        done = 1;
    }
    if (rc == 0 && !done)
        rc = OPFOR_EILLEGAL;
    if (rc == 0)
        order_common(g, t, o);
    opfor_mcts_free(m);
    free(st);
    free(ord);
    free(d);
    return rc;
}

int opfor__vkg_plan(const opfor__vkg_t *g, const opfor__vkg_table_t *t, opfor__cancel_fn cancelled,
                    void *ud, const atomic_int *cancel, opfor__vkg_order_t *o) {
    return opfor__vkg_plan_share(g, t, cancelled, ud, cancel, 1, o);
}

int opfor__vkg_plan_share(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                          opfor__cancel_fn cancelled, void *ud, const atomic_int *cancel,
                          unsigned share, opfor__vkg_order_t *o) {
    if (t->pending != OPFOR__PEND_ENEMY || !g->ctx)
        return OPFOR_EILLEGAL;
    if (g->rs) {
        int rc = plan_ai(g, t, cancelled, ud, cancel, share, o);
        if (rc == 0 || rc == OPFOR_ECANCELED || (cancelled && cancelled(ud)))
            return rc == 0 ? 0 : OPFOR_ECANCELED;
        /* the search could not decide here: the engine's look-ahead still can */
    }
    return plan_greedy(g, t, cancelled, ud, o);
}

static int plan_greedy(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                       opfor__cancel_fn cancelled, void *ud, opfor__vkg_order_t *o) {
    if (t->pending != OPFOR__PEND_ENEMY || !g->ctx)
        return OPFOR_EILLEGAL;
    opfor_vk_state_t *st = malloc(sizeof *st), *unit_st = malloc(sizeof *unit_st),
                     *tmp = malloc(sizeof *tmp);
    opfor_vk_action_t *sel = malloc(sizeof *sel * OPFOR_VK_MAX_ACTIONS);
    opfor_vk_action_t *acts = malloc(sizeof *acts * OPFOR_VK_MAX_ACTIONS);
    cand_t *cands = malloc(sizeof *cands * OPFOR_VK_MAX_ACTIONS * OPFOR_MAX_UNITS);
    int rc = 0, ncand = 0;
    if (!st || !unit_st || !tmp || !sel || !acts || !cands) {
        rc = OPFOR_ENOMEM;
        goto out;
    }
    const int decision = t->decisions;
    const uint64_t seed = opfor__vkg_decision_seed(g, decision);
    const int samples = level_samples(g->level);
    opfor_rng_t srng;
    opfor_rng_derive(&srng, seed, 0x73616d70u);
    opfor__vkg_engine_state(g, t, st, seed, g->enemy);
    int nsel = opfor_vk_legal(g->ctx, st, sel, OPFOR_VK_MAX_ACTIONS);
    for (int i = 0; i < nsel; i++) {
        if (sel[i].kind != OPFOR_VK_SELECT_UNIT || sel[i].unit >= t->nunits ||
            t->units[sel[i].unit].side != g->enemy)
            continue;
        memcpy(unit_st, st, sizeof *st);
        if (opfor_vk_apply(g->ctx, unit_st, &sel[i], NULL) != 0)
            continue;
        int command = opfor__vkg_to_action(g, t, unit_st, sel[i].unit);
        if (unit_st->phase != OPFOR_VK_PH_ACTION || opfor_vk_current(g->ctx, unit_st) != g->enemy)
            continue;
        int n = opfor_vk_legal(g->ctx, unit_st, acts, OPFOR_VK_MAX_ACTIONS);
        for (int k = 0; k < n; k++) {
            if (cancelled && cancelled(ud)) {
                rc = OPFOR_ECANCELED;
                goto out;
            }
            double sum = 0.0;
            int ok = 0;
            for (int s = 0; s < samples; s++) {
                memcpy(tmp, unit_st, sizeof *tmp);
                opfor_rng_seed(&tmp->rng,
                               opfor_rng_u32(&srng) | (uint64_t)opfor_rng_u32(&srng) << 32,
                               (uint64_t)s);
                if (opfor_vk_apply(g->ctx, tmp, &acts[k], NULL) != 0)
                    break;
                opfor_vk_settle(g->ctx, tmp, NULL);
                sum += opfor_vk_evaluate(g->ctx, tmp, g->enemy);
                ok++;
            }
            if (!ok)
                continue;
            cand_t *c = &cands[ncand++];
            c->select = sel[i];
            c->action = acts[k];
            c->value = sum / ok;
            c->command = command;
            /* an order the table could not carry out is given only when nothing else is */
            c->inert = opfor_vk_query_inert(g->ctx, unit_st, &acts[k]);
        }
    }
    if (ncand == 0) {
        rc = OPFOR_EILLEGAL;
        goto out;
    }
    /* best and runner-up; novice picks among the best three with the decision's stream */
    int best = 0, second = -1;
    for (int i = 1; i < ncand; i++)
        if (cand_better(&cands[i], &cands[best]))
            best = i;
    for (int i = 0; i < ncand; i++)
        if (i != best && (second < 0 || cand_better(&cands[i], &cands[second])))
            second = i;
    if (g->level == OPFOR_AI_NOVICE && second >= 0 && opfor_rng_below(&srng, 3) == 0) {
        int swap = best;
        best = second;
        second = swap;
    }
    /* the order: re-derive the chosen unit's state so the command test is the real one */
    memset(o, 0, sizeof *o);
    o->decision = decision;
    o->turn = t->ps.turn;
    o->select = cands[best].select;
    o->action = cands[best].action;
    o->unit = o->action.unit != OPFOR_VK_NONE ? o->action.unit : o->select.unit;
    o->target = action_has_target(&o->action) ? o->action.target : -1;
    o->has_dest = action_has_dest(&o->action);
    o->command = cands[best].command;
    memcpy(unit_st, st, sizeof *st);
    opfor_vk_apply(g->ctx, unit_st, &o->select, NULL);
    opfor__vkg_to_action(g, t, unit_st, o->select.unit);
    opfor_vk_action_str(g->ctx, unit_st, &o->action, o->sentence, sizeof o->sentence);
    if (second >= 0) {
        o->has_runner = 1;
        o->runner = cands[second].action;
        if (cands[second].select.unit == o->select.unit) {
            opfor_vk_action_str(g->ctx, unit_st, &o->runner, o->runner_sentence,
                                sizeof o->runner_sentence);
        } else {
            memcpy(tmp, st, sizeof *st);
            opfor_vk_apply(g->ctx, tmp, &cands[second].select, NULL);
            opfor__vkg_to_action(g, t, tmp, cands[second].select.unit);
            opfor_vk_action_str(g->ctx, tmp, &o->runner, o->runner_sentence,
                                sizeof o->runner_sentence);
        }
    }
    snprintf(o->engine, sizeof o->engine, "greedy");
    snprintf(o->level, sizeof o->level, "%s", opfor_vocab_name(opfor_ai_level_names, g->level));
    snprintf(o->command_text, sizeof o->command_text, "%s",
             opfor_table_plan_command_text(o->command));
    if (second >= 0)
        snprintf(o->reason, sizeof o->reason,
                 "best expected position of %d choices (%+.2f); runner-up: %.120s (%+.2f)", ncand,
                 cands[best].value, o->runner_sentence, cands[second].value);
    else
        snprintf(o->reason, sizeof o->reason, "the only choice (%+.2f)", cands[best].value);
out:
    free(st);
    free(unit_st);
    free(tmp);
    free(sel);
    free(acts);
    free(cands);
    return rc;
}

/* ------------------------------------------------------------------ wire and log form */

void opfor__vkg_order_pack(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                           const opfor__vkg_order_t *o, msgpack_packer *pk) {
    const char *unit = o->unit >= 0 && o->unit < t->nunits ? t->units[o->unit].name : "";
    msgpack_pack_map(pk, 27);
    opfor__kv_str(pk, "game", g->row->id);
    opfor__vkg_alts_pack(o, pk); /* what the search weighed */
    opfor__kv_u64(pk, "order_id", o->log_seq);
    opfor__kv_u64(pk, "answered_by", o->answered_by); /* the report that answered it; 0 none */
    opfor__kv_int(pk, "turn", o->turn);
    opfor__kv_str(pk, "side", g->sc->sides[g->enemy].name);
    opfor__kv_str(pk, "unit", unit);
    opfor__kv_str(pk, "action", opfor_vk_kind_name(o->action.kind));
    opfor__kv_str(pk, "sentence", o->sentence);
    opfor_rpc_pack_cstr(pk, "destination");
    if (o->has_dest)
        opfor__vkg_pack_pt(pk, o->action.dest);
    else
        msgpack_pack_nil(pk);
    /* a move's one end point (at its mean roll); destination is then only where it heads */
    opfor_rpc_pack_cstr(pk, "stop");
    if (o->has_stop)
        opfor__vkg_pack_pt(pk, o->stop);
    else
        msgpack_pack_nil(pk);
    /* where a move stops however well its die rolls, and why (nil when nothing cuts it) */
    opfor_rpc_pack_cstr(pk, "limit");
    if (o->has_limit) {
        msgpack_pack_map(pk, 3);
        opfor__kv_double(pk, "x", (double)(int64_t)((double)o->limit.x * 100.0 + 0.5) / 100.0);
        opfor__kv_double(pk, "y", (double)(int64_t)((double)o->limit.y * 100.0 + 0.5) / 100.0);
        opfor__kv_str(pk, "why", o->limit_why);
    } else {
        msgpack_pack_nil(pk);
    }
    /* where a move turns first (a way round closed ground), nil when it goes straight */
    opfor_rpc_pack_cstr(pk, "via");
    if (o->has_via)
        opfor__vkg_pack_pt(pk, o->via);
    else
        msgpack_pack_nil(pk);
    /* where the move ends for each face of its D3 (nil when it does not move) */
    opfor_rpc_pack_cstr(pk, "stops");
    if (o->nstops == 3) {
        msgpack_pack_array(pk, 3);
        for (int k = 0; k < 3; k++)
            opfor__vkg_pack_pt(pk, o->stops[k]);
    } else {
        msgpack_pack_nil(pk);
    }
    opfor_rpc_pack_cstr(pk, "target");
    if (o->target >= 0 && o->target < t->nunits)
        opfor_rpc_pack_cstr(pk, t->units[o->target].name);
    else
        msgpack_pack_nil(pk);
    opfor_rpc_pack_cstr(pk, "needs");
    msgpack_pack_array(pk, (size_t)o->nneeds);
    for (int i = 0; i < o->nneeds; i++) {
        msgpack_pack_map(pk, 7);
        opfor__kv_str(pk, "name", o->needs[i].name);
        opfor__kv_str(pk, "label", o->needs[i].label);
        opfor__kv_str(pk, "dice", o->needs[i].dice);
        opfor__kv_str(pk, "need", o->needs[i].need);
        opfor__kv_int(pk, "count", o->needs[i].count); /* rolls of it; 0 not counted */
        opfor__kv_str(pk, "per", o->needs[i].per);     /* "hit": one per success before */
        opfor_rpc_pack_cstr(pk, "p"); /* one roll's chance as rendered; nil: not given */
        if (o->needs[i].p > 0)
            msgpack_pack_double(pk, o->needs[i].p);
        else
            msgpack_pack_nil(pk);
    }
    /* how many figures fire: nil when the order does not fire */
    opfor_rpc_pack_cstr(pk, "figures");
    if (o->figures_how != OPFOR_ORDER_FIG_NONE)
        msgpack_pack_int(pk, o->figures);
    else
        msgpack_pack_nil(pk);
    opfor_rpc_pack_cstr(pk, "figures_at_most");
    if (o->figures_how == OPFOR_ORDER_FIG_UPTO)
        msgpack_pack_true(pk);
    else
        msgpack_pack_false(pk);
    opfor__kv_str(pk, "reason", o->reason);
    opfor_rpc_pack_cstr(pk, "runner_up");
    if (o->has_runner) {
        int ru = o->runner.unit;
        msgpack_pack_map(pk, 3);
        opfor__kv_str(pk, "sentence", o->runner_sentence);
        opfor__kv_str(pk, "action", opfor_vk_kind_name(o->runner.kind));
        opfor__kv_str(pk, "unit", ru < t->nunits ? t->units[ru].name : "");
    } else {
        msgpack_pack_nil(pk);
    }
    opfor__kv_str(pk, "level", o->level);
    opfor__kv_str(pk, "engine", o->engine);
    opfor__kv_str(pk, "command", o->command_text);
    opfor__kv_int(pk, "resolved", o->resolved);
    opfor__kv_int(pk, "open", o->open); /* may it still be resolved (until the next press) */
    /* the last order and no press since (an order just planned is about to be): a report of
       moves or casualties answers it */
    opfor__kv_int(pk, "current", o != &t->order || opfor__vkg_order_current(t));
    opfor_rpc_pack_cstr(pk, "raw");
    msgpack_pack_map(pk, 6);
    opfor_rpc_pack_cstr(pk, "select");
    msgpack_pack_bin(pk, sizeof o->select);
    msgpack_pack_bin_body(pk, &o->select, sizeof o->select);
    opfor_rpc_pack_cstr(pk, "action");
    msgpack_pack_bin(pk, sizeof o->action);
    msgpack_pack_bin_body(pk, &o->action, sizeof o->action);
    opfor_rpc_pack_cstr(pk, "runner");
    msgpack_pack_bin(pk, sizeof o->runner);
    msgpack_pack_bin_body(pk, &o->runner, sizeof o->runner);
    opfor__kv_int(pk, "decision", o->decision);
    opfor__kv_int(pk, "command", o->command);
    opfor__kv_int(pk, "has_runner", o->has_runner);
}

static int get_bin(const msgpack_object *m, const char *key, void *out, size_t size) {
    const msgpack_object *v = opfor_rpc_params_get(m, key);
    if (!v || v->type != MSGPACK_OBJECT_BIN || v->via.bin.size != size)
        return -1;
    memcpy(out, v->via.bin.ptr, size);
    return 0;
}

int opfor__vkg_order(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                     const msgpack_object *payload, opfor__evlist_t *ev, opfor__gerr_t *err) {
    if (t->status != OPFOR__GS_ACTIVE || t->pending != OPFOR__PEND_ENEMY) {
        err->code = OPFOR_RPC_E_ILLEGAL;
        snprintf(err->msg, sizeof err->msg, "no unit of the %s holds the initiative",
                 g->sc->sides[g->enemy].name);
        return OPFOR_EILLEGAL;
    }
    opfor__vkg_order_t o;
    memset(&o, 0, sizeof o);
    const msgpack_object *raw = opfor_rpc_params_get(payload, "raw");
    if (!raw || raw->type != MSGPACK_OBJECT_MAP || get_bin(raw, "select", &o.select, 24) ||
        get_bin(raw, "action", &o.action, 24) || get_bin(raw, "runner", &o.runner, 24)) {
        err->code = OPFOR_RPC_E_INTERNAL;
        snprintf(err->msg, sizeof err->msg, "order: malformed log payload");
        return OPFOR_EPROTO;
    }
    o.unit = o.action.unit != OPFOR_VK_NONE ? o.action.unit : o.select.unit;
    if (o.unit >= t->nunits || t->units[o.unit].side != g->enemy ||
        (t->units[o.unit].flags & OPFOR_UNIT_ACTED) || !opfor__vkg_in_play(t, o.unit)) {
        err->code = OPFOR_RPC_E_ILLEGAL;
        snprintf(err->msg, sizeof err->msg, "order: unit %d cannot act now", o.unit);
        return OPFOR_EILLEGAL;
    }
    opfor__vkg_undo_barrier(t, log_seq, "order");
    o.active = 1;
    o.open = 1;
    o.log_seq = log_seq;
    o.turn = t->ps.turn;
    o.decision = (int32_t)opfor_rpc_params_int_or(raw, "decision", 0, INT32_MAX, t->decisions);
    o.command = (int32_t)opfor_rpc_params_int_or(raw, "command", 0, 2, 0);
    o.has_runner = (int32_t)opfor_rpc_params_int_or(raw, "has_runner", 0, 1, 0);
    o.target = action_has_target(&o.action) && o.action.target < t->nunits ? o.action.target : -1;
    o.has_dest = action_has_dest(&o.action);
    opfor_rpc_params_str_or(payload, "sentence", o.sentence, sizeof o.sentence);
    opfor_rpc_params_str_or(payload, "reason", o.reason, sizeof o.reason);
    opfor_rpc_params_str_or(payload, "engine", o.engine, sizeof o.engine);
    opfor_rpc_params_str_or(payload, "level", o.level, sizeof o.level);
    opfor_rpc_params_str_or(payload, "command", o.command_text, sizeof o.command_text);
    const msgpack_object *ru = opfor_rpc_params_get(payload, "runner_up");
    if (ru && ru->type == MSGPACK_OBJECT_MAP)
        opfor_rpc_params_str_or(ru, "sentence", o.runner_sentence, sizeof o.runner_sentence);
    const msgpack_object *needs = opfor_rpc_params_get(payload, "needs");
    if (needs && needs->type == MSGPACK_OBJECT_ARRAY)
        for (uint32_t i = 0; i < needs->via.array.size && o.nneeds < OPFOR__ORDER_NEEDS; i++) {
            const msgpack_object *n = &needs->via.array.ptr[i];
            if (n->type != MSGPACK_OBJECT_MAP)
                continue;
            opfor__vkg_need_t *nd = &o.needs[o.nneeds++];
            opfor_rpc_params_str_or(n, "name", nd->name, sizeof nd->name);
            opfor_rpc_params_str_or(n, "label", nd->label, sizeof nd->label);
            opfor_rpc_params_str_or(n, "dice", nd->dice, sizeof nd->dice);
            opfor_rpc_params_str_or(n, "need", nd->need, sizeof nd->need);
            nd->count = (int32_t)opfor_rpc_params_int_or(n, "count", 0, 10000, 0);
            opfor_rpc_params_str_or(n, "per", nd->per, sizeof nd->per);
            const msgpack_object *np = opfor_rpc_params_get(n, "p");
            nd->p = np && (np->type == MSGPACK_OBJECT_FLOAT64 || np->type == MSGPACK_OBJECT_FLOAT32)
                        ? np->via.f64
                        : 0.0;
        }
    /* figures that fire (entries from before they were counted have none) */
    const msgpack_object *fig = opfor_rpc_params_get(payload, "figures");
    if (fig && (fig->type == MSGPACK_OBJECT_POSITIVE_INTEGER)) {
        o.figures = (int32_t)opfor_rpc_params_int_or(payload, "figures", 0, 10000, 0);
        const msgpack_object *am = opfor_rpc_params_get(payload, "figures_at_most");
        o.figures_how = am && am->type == MSGPACK_OBJECT_BOOLEAN && am->via.boolean
                            ? OPFOR_ORDER_FIG_UPTO
                            : OPFOR_ORDER_FIG_EXACT;
    }
    opfor__vkg_alts_read(payload, &o);
    /* the move's end point (entries from before it was logged have none) */
    const msgpack_object *sp = opfor_rpc_params_get(payload, "stop");
    if (sp && sp->type == MSGPACK_OBJECT_MAP) {
        o.has_stop = 1;
        o.stop = opfor_pt((float)opfor_rpc_params_num_or(sp, "x", 0.0),
                          (float)opfor_rpc_params_num_or(sp, "y", 0.0));
    }
    /* where it stops at best, and why (entries from before issue 15 have none) */
    const msgpack_object *lm = opfor_rpc_params_get(payload, "limit");
    if (lm && lm->type == MSGPACK_OBJECT_MAP) {
        o.has_limit = 1;
        o.limit = opfor_pt((float)opfor_rpc_params_num_or(lm, "x", 0.0),
                           (float)opfor_rpc_params_num_or(lm, "y", 0.0));
        opfor_rpc_params_str_or(lm, "why", o.limit_why, sizeof o.limit_why);
    }
    const msgpack_object *vv = opfor_rpc_params_get(payload, "via");
    if (vv && vv->type == MSGPACK_OBJECT_MAP) {
        o.has_via = 1;
        o.via = opfor_pt((float)opfor_rpc_params_num_or(vv, "x", 0.0),
                         (float)opfor_rpc_params_num_or(vv, "y", 0.0));
    }
    /* the end for each face of the D3 (entries from before they were logged have none) */
    const msgpack_object *sv = opfor_rpc_params_get(payload, "stops");
    if (sv && sv->type == MSGPACK_OBJECT_ARRAY && sv->via.array.size == 3) {
        o.nstops = 3;
        for (int k = 0; k < 3; k++) {
            const msgpack_object *e = &sv->via.array.ptr[k];
            if (e->type != MSGPACK_OBJECT_MAP) {
                o.nstops = 0;
                break;
            }
            o.stops[k] = opfor_pt((float)opfor_rpc_params_num_or(e, "x", 0.0),
                                  (float)opfor_rpc_params_num_or(e, "y", 0.0));
        }
    }
    memcpy(&t->order, &o, sizeof o);
    t->units[o.unit].flags |= OPFOR_UNIT_ACTED;
    t->pending = OPFOR__PEND_NONE;
    t->decisions++;
    msgpack_packer pk;
    opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "order");
    opfor__vkg_order_pack(g, t, &t->order, &pk);
    opfor__vkg_hist_note(t, log_seq, "order", t->order.sentence);
    t->log_seq = log_seq;
    return 0;
}
