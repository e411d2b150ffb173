/* rulesets/viktoria/ai_table_bot.c — the behaviour-table bot: printed-solo-rules priorities over
 * the engine's legal actions (the table itself is in opfor/viktoria/table_bot.h).
 *
 * Each decision scores the listed actions by the table's row number (lower is better) and
 * keeps the best; geometry comes from the public engine state (unit centres, objectives,
 * terrain cover), so the bot needs no engine internals and never looks ahead. Exact ties are
 * broken with the rng, which keeps equal rows from always favouring the first listed.
 */
#include "opfor/viktoria/table_bot.h"

#include <float.h>
#include <string.h>

#include "opfor/scenario.h"

/* A row number no real row reaches: "not in the table". */
#define NO_ROW 1000.0

/* What the bot knows about one unit now. */
typedef struct tb_unit {
    int live;     /* in play */
    opfor_pt_t c; /* centre of its living figures */
} tb_unit_t;

typedef struct tb_view {
    const opfor_vk_ctx_t *ctx;
    const opfor_vk_state_t *st;
    const opfor_scenario_t *sc;
    tb_unit_t u[OPFOR_MAX_UNITS];
} tb_view_t;

static void view_init(tb_view_t *v, const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    v->ctx = ctx;
    v->st = st;
    v->sc = opfor_vk_ctx_scenario(ctx);
    for (int u = 0; u < st->nunits && u < OPFOR_MAX_UNITS; u++) {
        v->u[u].live = opfor_vk_unit_in_play(st, u) &&
                       opfor_unit_centre(&st->units[u], st->figures, &v->u[u].c) > 0;
    }
}

/* Nearest enemy unit of unit u (generals count only when nothing else is left). */
static int nearest_enemy(const tb_view_t *v, int u, float *dist) {
    const opfor_vk_state_t *st = v->st;
    int best = -1, best_gen = -1;
    float bd = FLT_MAX, bg = FLT_MAX;
    for (int e = 0; e < st->nunits; e++) {
        if (!v->u[e].live || st->units[e].side == st->units[u].side)
            continue;
        float d = opfor_dist(v->u[u].c, v->u[e].c);
        if (st->units[e].flags & OPFOR_UNIT_GENERAL) {
            if (d < bg) {
                bg = d;
                best_gen = e;
            }
        } else if (d < bd) {
            bd = d;
            best = e;
        }
    }
    if (best < 0) {
        best = best_gen;
        bd = bg;
    }
    if (dist)
        *dist = best >= 0 ? bd : FLT_MAX;
    return best;
}

/* Whether side holds objective o alone now (a living figure of its in-play units within
 * the radius and none of the other side's). */
static int holds(const tb_view_t *v, int side, const opfor_objective_t *ob) {
    const opfor_vk_state_t *st = v->st;
    int mine = 0, theirs = 0;
    float r2 = ob->radius * ob->radius;
    for (int i = 0; i < st->nfigures; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!opfor_figure_alive(f) || f->unit >= st->nunits || !v->u[f->unit].live)
            continue;
        if (opfor_dist2(f->pos, ob->pos) > r2)
            continue;
        if (st->units[f->unit].side == side)
            mine = 1;
        else
            theirs = 1;
    }
    return mine && !theirs;
}

/* Where unit u heads: an objective its side does not hold (with focus), else the nearest
 * enemy, else any objective. Returns 0 when there is nowhere to go. */
static int goal_of(const tb_view_t *v, int u, const opfor_table_bot_opts_t *o, opfor_pt_t *out) {
    const opfor_scenario_t *sc = v->sc;
    int side = v->st->units[u].side;
    if (o && o->objective_focus) {
        float bd = FLT_MAX;
        for (int k = 0; k < sc->nobjectives; k++) {
            if (holds(v, side, &sc->objectives[k]))
                continue;
            float d = opfor_dist(v->u[u].c, sc->objectives[k].pos);
            if (d < bd) {
                bd = d;
                *out = sc->objectives[k].pos;
            }
        }
        if (bd < FLT_MAX)
            return 1;
    }
    int e = nearest_enemy(v, u, NULL);
    if (e >= 0) {
        *out = v->u[e].c;
        return 1;
    }
    if (sc->nobjectives > 0) {
        *out = sc->objectives[0].pos;
        return 1;
    }
    return 0;
}

/* Whether point p lies in terrain that gives cover. */
static int in_cover(const tb_view_t *v, opfor_pt_t p) {
    const opfor_table_t *t = &v->sc->table;
    for (int i = 0; i < t->nfeatures; i++)
        if (t->features[i].cover > OPFOR_COVER_NONE && opfor_feature_contains(&t->features[i], p))
            return 1;
    return 0;
}

/* Score of a move toward dest for a unit at c heading for goal: inches left to the goal,
 * less a cover bonus when the covered spot also gains ground. Lower is better. */
static double move_score(const tb_view_t *v, opfor_pt_t c, opfor_pt_t goal, opfor_pt_t dest) {
    double left = opfor_dist(dest, goal), now = opfor_dist(c, goal);
    double s = left;
    if (left < now - 1.0 && in_cover(v, dest))
        s -= 6.0;
    return s;
}

/* Gap from the acting unit to the enemy it flees from after moving to dest (higher is
 * better): used by the rows that escape. */
static double away_score(const tb_view_t *v, int u, opfor_pt_t dest) {
    int e = nearest_enemy(v, u, NULL);
    return e >= 0 ? opfor_dist(dest, v->u[e].c) : 0.0;
}

static int is_move(const opfor_vk_action_t *a) {
    return (a->kind == OPFOR_VK_ADVANCE || a->kind == OPFOR_VK_RUN) &&
           !(a->flags & OPFOR_VK_AF_FIRE);
}

/* Distance from the acting unit to an action's target unit, FLT_MAX without one. */
static float target_dist(const tb_view_t *v, int u, const opfor_vk_action_t *a) {
    if (a->target == OPFOR_VK_NONE || a->target >= v->st->nunits || !v->u[a->target].live)
        return FLT_MAX;
    return opfor_dist(v->u[u].c, v->u[a->target].c);
}

/* Row of the unit-selection table (V.A), with the distance as the fraction. */
static double select_row(const tb_view_t *v, int u) {
    const opfor_vk_state_t *st = v->st;
    const opfor_unit_t *un = &st->units[u];
    if (!v->u[u].live)
        return 900.0;
    float d;
    nearest_enemy(v, u, &d);
    double frac = d < FLT_MAX ? (double)d / 1000.0 : 0.999;
    if (frac > 0.999)
        frac = 0.999;
    if ((un->flags & OPFOR_UNIT_IN_MELEE) || st->melee[u])
        return 1.0 + frac;
    if (un->status == OPFOR_WAVERING)
        return 2.0 + frac;
    if ((un->flags & OPFOR_UNIT_GENERAL) || un->type == OPFOR_UT_HEADQUARTERS ||
        un->type == OPFOR_UT_SUPPLY)
        return 4.0 + frac;
    return 3.0 + frac;
}

/* Row of an action for the acting unit u (ACTION phase). */
static double action_row(const tb_view_t *v, int u, const opfor_vk_action_t *a,
                         const opfor_table_bot_opts_t *o, opfor_pt_t goal, int has_goal) {
    const opfor_vk_state_t *st = v->st;
    const opfor_unit_t *un = &st->units[u];
    float gap;
    int enemy = nearest_enemy(v, u, &gap);
    float run_beyond = o && o->run_beyond > 0.0f ? o->run_beyond : 20.0f;
    /* fractions order the candidates of one row: nearer targets, better moves first */
    double tfrac = target_dist(v, u, a) < FLT_MAX ? target_dist(v, u, a) / 1000.0 : 0.5;
    if (tfrac > 0.999)
        tfrac = 0.999;
    if (a->kind == OPFOR_VK_FIGHT)
        return 1.0;
    if (a->kind == OPFOR_VK_RALLY)
        return un->status == OPFOR_WAVERING ? 2.0 : NO_ROW;
    if (a->kind == OPFOR_VK_CHARGE && (a->flags & OPFOR_VK_AF_HOLD))
        return NO_ROW; /* the table's chargers always follow up (X step 8) */
    int type = un->type;
    if (un->flags & OPFOR_UNIT_GENERAL) {
        if (is_move(a) && a->kind == OPFOR_VK_ADVANCE && enemy >= 0 && gap < 12.0f)
            return 3.0 + 0.5 / (1.0 + away_score(v, u, a->dest));
        return a->kind == OPFOR_VK_STAND ? 4.0 : NO_ROW;
    }
    switch (type) {
    case OPFOR_UT_HEADQUARTERS:
    case OPFOR_UT_SUPPLY:
        if (a->kind == OPFOR_VK_RUN && !(a->flags & OPFOR_VK_AF_FIRE) && enemy >= 0 && gap < 18.0f)
            return 3.0 + 0.5 / (1.0 + away_score(v, u, a->dest));
        if (a->kind == OPFOR_VK_FIRE && !a->flags)
            return 4.0 + tfrac;
        return a->kind == OPFOR_VK_STAND ? 5.0 : NO_ROW;
    case OPFOR_UT_ARTILLERY:
    case OPFOR_UT_MACHINEGUN: {
        int limbered = (un->flags & OPFOR_UNIT_LIMBERED) != 0;
        if (a->kind == OPFOR_VK_UNLIMBER)
            return enemy >= 0 ? 3.0 : NO_ROW;
        if (a->kind == OPFOR_VK_LOAD)
            return 4.0;
        if (a->kind == OPFOR_VK_FIRE_ARTILLERY)
            return 5.0 + tfrac;
        if (a->kind == OPFOR_VK_FIRE_MG)
            return 5.0 + tfrac + (a->arc == OPFOR_ARC_45 ? 0.0 : 0.0001 * (a->arc + 1));
        if (a->kind == OPFOR_VK_FIRE && !a->flags)
            return 6.0 + tfrac;
        if (limbered && is_move(a) && a->kind == OPFOR_VK_ADVANCE && has_goal)
            return 7.0 + move_score(v, v->u[u].c, goal, a->dest) / 10000.0;
        return a->kind == OPFOR_VK_STAND ? 8.0 : NO_ROW;
    }
    case OPFOR_UT_CAVALRY:
        if (a->kind == OPFOR_VK_CHARGE)
            return 3.0 + tfrac;
        if (a->kind == OPFOR_VK_FIRE && !a->flags)
            return 4.0 + tfrac;
        if (a->kind == OPFOR_VK_RUN && is_move(a) && has_goal)
            return 5.0 + move_score(v, v->u[u].c, goal, a->dest) / 10000.0;
        return a->kind == OPFOR_VK_STAND ? 6.0 : NO_ROW;
    default: {
        if (a->kind == OPFOR_VK_CHARGE) {
            int t = a->target;
            int bold = un->quality >= OPFOR_Q_VETERAN ||
                       (t < st->nunits && st->units[t].status == OPFOR_WAVERING);
            return bold ? 3.0 + tfrac : NO_ROW;
        }
        if (a->kind == OPFOR_VK_FIRE && !a->flags)
            return 4.0 + tfrac;
        if (is_move(a) && has_goal) {
            int want_run = enemy < 0 || gap > run_beyond;
            if ((a->kind == OPFOR_VK_RUN) != want_run)
                return NO_ROW;
            return 5.0 + move_score(v, v->u[u].c, goal, a->dest) / 10000.0;
        }
        return a->kind == OPFOR_VK_STAND ? 6.0 : NO_ROW;
    }
    }
}

/* Row of a charged unit's reaction (X). */
static double reaction_row(const opfor_vk_state_t *st, const opfor_vk_action_t *a) {
    int u = a->unit < st->nunits ? a->unit : 0;
    if (a->flags & OPFOR_VK_AF_HOLD)
        return NO_ROW; /* the table always follows up after a melee (X steps 8-9) */
    switch (a->kind) {
    case OPFOR_VK_REACT_COUNTER:
        return 1.0;
    case OPFOR_VK_REACT_FIRE:
        return 2.0;
    case OPFOR_VK_REACT_FLEE: /* a full run away (X), never a crawl or an advance */
        return st->units[u].status == OPFOR_WAVERING && opfor_vk_flight_kind(a->arc) == OPFOR_VK_RUN
                   ? 3.0
                   : NO_ROW;
    case OPFOR_VK_REACT_STAND:
        return 4.0;
    default:
        return NO_ROW;
    }
}

int opfor_table_bot_choose(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                           const opfor_vk_action_t *acts, int n, const opfor_table_bot_opts_t *o,
                           opfor_rng_t *rng) {
    if (n <= 1 || !ctx || !st || !acts)
        return 0;
    tb_view_t v;
    view_init(&v, ctx, st);
    double row[OPFOR_VK_MAX_ACTIONS];
    int m = n < OPFOR_VK_MAX_ACTIONS ? n : OPFOR_VK_MAX_ACTIONS;
    opfor_pt_t goal = opfor_pt(0.0f, 0.0f);
    int has_goal = 0;
    if (st->phase == OPFOR_VK_PH_ACTION && st->cur < st->nunits && v.u[st->cur].live)
        has_goal = goal_of(&v, st->cur, o, &goal);
    for (int i = 0; i < m; i++) {
        const opfor_vk_action_t *a = &acts[i];
        switch (st->phase) {
        case OPFOR_VK_PH_SELECT_UNIT:
            row[i] = a->kind == OPFOR_VK_SELECT_UNIT && a->unit < st->nunits
                         ? select_row(&v, a->unit)
                         : NO_ROW;
            break;
        case OPFOR_VK_PH_ACTION:
            row[i] = st->cur < st->nunits && v.u[st->cur].live
                         ? action_row(&v, st->cur, a, o, goal, has_goal)
                         : NO_ROW;
            break;
        case OPFOR_VK_PH_REACTION:
            row[i] = reaction_row(st, a);
            break;
        default:
            row[i] = (double)i; /* control and anything else: the first legal action */
            break;
        }
    }
    /* The best row; exact ties drawn uniformly (reservoir sampling). */
    int best = 0, ties = 1;
    for (int i = 1; i < m; i++) {
        if (row[i] < row[best]) {
            best = i;
            ties = 1;
        } else if (row[i] == row[best] && rng) {
            ties++;
            if (opfor_rng_below(rng, (uint32_t)ties) == 0)
                best = i;
        }
    }
    if (row[best] >= NO_ROW) { /* nothing in the table: stand if listed, else the first */
        for (int i = 0; i < m; i++)
            if (acts[i].kind == OPFOR_VK_STAND)
                return i;
        return 0;
    }
    return best;
}
