/* rulesets/splendid/engine.c — A Splendid Victory!'s rules engine behind the game hooks: who
 * decides (a side, the dice, or nobody once the game is over), the legal actions of each step
 * in a fixed order, applying one (refused with OPFOR_EILLEGAL, the state untouched, when it is
 * not allowed), and the returns (§The Determine Victory Phase: a Splendid Victory 1, a Minor
 * Victory 0.5, a draw 0; a concession is the other side's Splendid Victory).
 */
#include <string.h>

#include "engine_int.h"

static opfor_action_t mk(int kind, int unit, int target) {
    opfor_action_t a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.unit = (uint8_t)unit;
    a.target = (uint8_t)target;
    return a;
}

int sv_engine_init(const sv_ctx_t *c, sv_state_t *s, uint64_t seed) {
    memcpy(s, &c->start, sizeof *s);
    opfor_rng_seed(&s->rng, seed, 18);
    s->phase = SV_P_INITIATIVE;
    s->turn = 1;
    if (c->opt.variable_command) /* §Variable Command Quality: once, before the game */
        for (int i = 0; i < s->nunits; i++) {
            sv_unit_t *u = &s->u[i];
            if (u->kind != SV_COMMANDER && u->kind != SV_SUB)
                continue;
            const opfor_sv_command_t *cmd = &c->model.command[u->kind == SV_SUB];
            int face = opfor_rng_d6(&s->rng), k = 0;
            while (k < 2 && face > cmd->top[k])
                k++;
            u->cmd10 = (uint8_t)(10 * cmd->range[k]);
        }
    return 0;
}

int sv_engine_current(const sv_state_t *s) {
    switch (s->phase) {
    case SV_P_OVER:
        return OPFOR_PLAYER_TERMINAL;
    case SV_P_INITIATIVE:
    case SV_P_FIRE_ROLL:
        return OPFOR_PLAYER_CHANCE;
    default:
        return s->side;
    }
}

/* Whether the side's position is hopeless enough to offer concession in the list: its tally
 * exceeds its third (the concession itself is accepted from any deciding side). */
static int may_offer_concession(const sv_state_t *s) {
    int q, t, h;
    opfor__sv_breakpoints(s->stands0[s->side], &q, &t, &h);
    return s->tally[s->side] > t;
}

int sv_engine_legal(const sv_ctx_t *c, const sv_state_t *s, opfor_action_t *out, int max) {
    int n = 0;
    if (max < 1)
        return 0;
    switch (s->phase) {
    case SV_P_OVER:
        return 0;
    case SV_P_INITIATIVE:
    case SV_P_FIRE_ROLL:
        out[0] = mk(SV_A_ROLL, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE);
        return 1;
    case SV_P_PIVOT: {
        opfor_vec_t f[2];
        int k = sv_fire_pivots(c, s, s->cur, f);
        out[n++] = mk(SV_A_HOLD, s->cur, OPFOR_ACTION_NONE);
        for (int i = 0; i < k && n < max; i++) {
            out[n] = mk(SV_A_MOVE, s->cur, OPFOR_ACTION_NONE);
            out[n].sub = 4;
            out[n].x = s->u[s->cur].x;
            out[n].y = s->u[s->cur].y;
            out[n].x2 = f[i].x;
            out[n++].y2 = f[i].y;
        }
        return n;
    }
    case SV_P_FIRE: {
        sv_geo_t g;
        sv_geo_build(c, s, &g);
        for (int t = 0; t < s->nunits && n < max; t++)
            if (sv_fire_dice_g(c, s, &g, s->cur, t) > 0)
                out[n++] = mk(SV_A_FIRE, s->cur, t);
        if (n < max)
            out[n++] = mk(SV_A_HOLD, s->cur, OPFOR_ACTION_NONE);
        return n;
    }
    case SV_P_JOIN:
        out[n++] = mk(SV_A_JOIN, s->cur, OPFOR_ACTION_NONE);
        if (n < max)
            out[n++] = mk(SV_A_HOLDBACK, s->cur, OPFOR_ACTION_NONE);
        return n;
    case SV_P_MELEE:
        for (int t = 0; t < s->nunits && n < max; t++)
            if (s->u[t].side != s->u[s->cur].side && sv_alive(&s->u[t]) &&
                sv_in_contact(c, &s->u[s->cur], &s->u[t]))
                out[n++] = mk(SV_A_ATTACK, s->cur, t);
        if (n >= 2 && n < max) { /* or split its stands between them */
            out[n] = mk(SV_A_ATTACK, s->cur, OPFOR_ACTION_NONE);
            out[n++].sub = 1;
        }
        return n;
    case SV_P_RETHROW:
        out[n++] = mk(SV_A_KEEP, s->cur, OPFOR_ACTION_NONE);
        if (n < max)
            out[n++] = mk(SV_A_RETHROW, s->cur, OPFOR_ACTION_NONE);
        return n;
    case SV_P_MOVE:
        n = sv_move_legal(c, s, out, max);
        if (n < max && may_offer_concession(s))
            out[n++] = mk(SV_A_CONCEDE, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE);
        return n;
    case SV_P_REACT:
        return sv_react_legal(c, s, out, max);
    case SV_P_INTERCEPT:
        return sv_intercept_legal(c, s, out, max);
    case SV_P_BREAK:
        return sv_break_legal(c, s, out, max);
    default:
        return 0;
    }
}

/* §The Determine the Initiative Phase: 2D6 each, the lower total wins, ties thrown again. */
static void initiative(const sv_ctx_t *c, sv_state_t *s) {
    int t0, t1;
    do {
        t0 = opfor_rng_d6(&s->rng) + opfor_rng_d6(&s->rng);
        t1 = opfor_rng_d6(&s->rng) + opfor_rng_d6(&s->rng);
    } while (t0 == t1);
    s->init = t0 < t1 ? 0 : 1;
    sv_start_fire(c, s);
}

static int is_action(const opfor_action_t *a, int kind, int unit) {
    return a->kind == kind && a->unit == unit;
}

int sv_engine_apply(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a) {
    int rc = 0;
    if (a->kind == SV_A_CONCEDE) { /* at any time the side decides */
        if (sv_engine_current(s) < 0)
            return OPFOR_EILLEGAL;
        s->conceded = (uint8_t)(1 + s->side);
        s->winner = (uint8_t)(1 - s->side);
        s->result = SV_R_SPLENDID;
        s->phase = SV_P_OVER;
        s->activations++;
        return 0;
    }
    switch (s->phase) {
    case SV_P_INITIATIVE:
        if (a->kind != SV_A_ROLL)
            return OPFOR_EILLEGAL;
        initiative(c, s);
        break;
    case SV_P_FIRE_ROLL:
        if (a->kind != SV_A_ROLL)
            return OPFOR_EILLEGAL;
        sv_resolve_fire(c, s);
        sv_start_join(c, s);
        break;
    case SV_P_PIVOT: {
        opfor_vec_t f[2];
        int k = sv_fire_pivots(c, s, s->cur, f), ok = is_action(a, SV_A_HOLD, s->cur);
        for (int i = 0; i < k && !ok; i++)
            ok = is_action(a, SV_A_MOVE, s->cur) && a->sub == 4 && a->x2 == f[i].x &&
                 a->y2 == f[i].y;
        if (!ok)
            return OPFOR_EILLEGAL;
        if (a->kind == SV_A_MOVE) {
            s->u[s->cur].fx = a->x2;
            s->u[s->cur].fy = a->y2;
        }
        s->u[s->cur].flags |= SV_F_DECIDED;
        break;
    }
    case SV_P_FIRE:
        if (is_action(a, SV_A_HOLD, s->cur)) {
            s->u[s->cur].target = 0xFF;
        } else if (is_action(a, SV_A_FIRE, s->cur) && a->target < s->nunits &&
                   sv_fire_dice(c, s, s->cur, a->target) > 0) {
            s->u[s->cur].target = a->target;
        } else {
            return OPFOR_EILLEGAL;
        }
        s->u[s->cur].flags |= SV_F_DECIDED;
        break;
    case SV_P_JOIN: {
        int e;
        float d;
        sv_unit_t *u = &s->u[s->cur];
        if ((!is_action(a, SV_A_JOIN, s->cur) && !is_action(a, SV_A_HOLDBACK, s->cur)) ||
            !sv_join_dist(c, s, s->cur, &e, &d))
            return OPFOR_EILLEGAL;
        int held = 0;
        if (a->kind == SV_A_HOLDBACK) /* in command: held; else 1D6, 3 or less (5 open) */
            held = sv_in_command(c, s, s->cur) ||
                   opfor_rng_d6(&s->rng) <= (u->form == SV_OPEN ? 5 : 3);
        if (!held) {
            u->x += u->fx * d;
            u->y += u->fy * d;
        }
        u->flags |= SV_F_DECIDED;
        break;
    }
    case SV_P_MELEE: {
        int split = a->kind == SV_A_ATTACK && a->unit == s->cur && a->sub == 1 &&
                    a->target == OPFOR_ACTION_NONE;
        if (split) {
            opfor_action_t list[SV_MAX_UNITS + 1];
            if (sv_engine_legal(c, s, list, SV_MAX_UNITS + 1) < 3)
                return OPFOR_EILLEGAL; /* it touches one enemy unit only */
        } else if (a->kind != SV_A_ATTACK || a->unit != s->cur || a->sub != 0 ||
                   a->target >= s->nunits || s->u[a->target].side == s->u[s->cur].side ||
                   !sv_alive(&s->u[a->target]) ||
                   !sv_in_contact(c, &s->u[s->cur], &s->u[a->target])) {
            return OPFOR_EILLEGAL;
        }
        if (sv_attack(c, s, s->cur, split ? -1 : a->target)) {
            s->activations++;
            return 0;
        }
        break;
    }
    case SV_P_RETHROW:
        if (!is_action(a, SV_A_KEEP, s->cur) && !is_action(a, SV_A_RETHROW, s->cur))
            return OPFOR_EILLEGAL;
        sv_rethrow(c, s, a->kind == SV_A_RETHROW);
        break;
    case SV_P_MOVE:
        rc = sv_move_apply(c, s, a);
        break;
    case SV_P_REACT:
        rc = sv_react_apply(c, s, a);
        break;
    case SV_P_INTERCEPT:
        rc = sv_intercept_apply(c, s, a);
        break;
    case SV_P_BREAK:
        rc = sv_break_apply(c, s, a);
        break;
    default:
        return OPFOR_EILLEGAL;
    }
    if (rc)
        return rc;
    if (a->kind != SV_A_ROLL)
        s->activations++;
    /* a hold before firing or a fire declaration moves nobody: the units of the side before the
     * one just asked did not want asking and still do not (the list is asked in order) */
    int from = 0;
    if ((s->phase == SV_P_PIVOT && a->kind == SV_A_HOLD) || s->phase == SV_P_FIRE)
        from = s->cur + 1;
    sv_settle_from(c, s, from);
    return 0;
}

void sv_engine_returns(const sv_state_t *s, double out[2]) {
    out[0] = out[1] = 0.0;
    if (s->phase != SV_P_OVER || s->result == SV_R_DRAW || s->result == SV_R_NONE)
        return;
    double v = s->result == SV_R_SPLENDID ? 1.0 : 0.5;
    out[s->winner] = v;
    out[1 - s->winner] = -v;
}
