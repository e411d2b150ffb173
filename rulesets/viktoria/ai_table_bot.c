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
#include "opfor/viktoria/engine_query.h"

/* A row number no real row reaches: "not in the table". */
#define NO_ROW 1000.0
/* A Wavering unit tries to rally only when it succeeds at least this often (XI: a failure
   removes it from play; a Wavering unit that moves instead stays in play). */
#define RALLY_MIN 0.5
/* A unit makes for an objective once the turns left, at about 6 inches a turn, cover no more
   than its distance plus this margin (inches): late enough not to walk into fire all game,
   early enough to arrive (measured: 0, 24 and 36 did worse against random). */
#define LATE_MARGIN 12.0f
/* Cavalry gallops toward its goal only while the gap is within its charge reach plus this
   (inches); otherwise it waits (measured: 0, 6, 8 and 20 did no better). */
#define CAV_WAIT 4.0f
/* A Wavering unit whose centre lies within an objective's radius plus this (inches) holds it
   (measured against random over 4,000 games: 0 and 4 did no better). */
#define WAVER_HOLD 2.0f

/* A machinegun fires an arc that holds some of its own side's figures only when it holds at
   least this many enemy figures for each of them (IX: the arc tests friend and foe alike;
   measured against random over 20,000 games: never 0.915, 1 0.917, 2 0.919, 3 0.918, always
   0.911). */
#define MG_FRIENDS_PER 2

/* In the last this many turns the general rides for ground his side does not hold (XIV: every
   figure in play holds ground, a general's too; measured against random over 2,400 games:
   from 2, 4 and 5 turns left won less, all game much less). */
#define GENERAL_RIDE_TURNS 3

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

/* Whether unit type t fights for ground: not generals, headquarters, supply or guns. */
static int takes_ground(const opfor_unit_t *un) {
    if (un->flags & OPFOR_UNIT_GENERAL)
        return 0;
    switch (un->type) {
    case OPFOR_UT_HEADQUARTERS:
    case OPFOR_UT_SUPPLY:
    case OPFOR_UT_ARTILLERY:
    case OPFOR_UT_MACHINEGUN:
        return 0;
    default:
        return 1;
    }
}

/* Whether unit w of side could be sent to point p: in play, taking ground, free to move (not
 * in melee, not Wavering), and allowed onto the ground there. */
static int may_go(const tb_view_t *v, int w, int side, opfor_pt_t p) {
    const opfor_vk_state_t *st = v->st;
    const opfor_unit_t *un = &st->units[w];
    if (!v->u[w].live || un->side != side || !takes_ground(un) || un->status == OPFOR_WAVERING ||
        (un->flags & OPFOR_UNIT_IN_MELEE) || st->melee[w])
        return 0;
    int mounted = (st->figures[un->first].flags & OPFOR_FIG_MOUNTED) != 0;
    return !opfor_vk_query_impassable(v->ctx, p, mounted);
}

/* The objective unit u is sent to (XIV: objectives score at the end), or -1: the first
 * objective, by points then nearness, that its side does not hold and for which u is the
 * nearest of its side's units that take ground; or the objective u already stands on. *on
 * gets 1 when u's centre is within that objective's radius. */
static int objective_of(const tb_view_t *v, int u, int *on) {
    const opfor_vk_state_t *st = v->st;
    const opfor_scenario_t *sc = v->sc;
    int side = st->units[u].side, best = -1;
    *on = 0;
    if (!takes_ground(&st->units[u]))
        return -1;
    const opfor_figure_t *f0 = &st->figures[st->units[u].first];
    int mounted = (f0->flags & OPFOR_FIG_MOUNTED) != 0;
    for (int k = 0; k < sc->nobjectives; k++)
        if (opfor_dist(v->u[u].c, sc->objectives[k].pos) <= sc->objectives[k].radius) {
            *on = 1;
            return k;
        }
    for (int k = 0; k < sc->nobjectives; k++) {
        const opfor_objective_t *ob = &sc->objectives[k];
        if (holds(v, side, ob) || opfor_vk_query_impassable(v->ctx, ob->pos, mounted))
            continue; /* held, or ground the unit may not enter (a building for riders) */
        float du = opfor_dist(v->u[u].c, ob->pos);
        int nearest = 1;
        for (int w = 0; w < st->nunits && nearest; w++)
            if (w != u && may_go(v, w, side, ob->pos) && opfor_dist(v->u[w].c, ob->pos) < du)
                nearest = 0;
        if (!nearest)
            continue;
        if (best < 0 || ob->points > sc->objectives[best].points ||
            (ob->points == sc->objectives[best].points &&
             du < opfor_dist(v->u[u].c, sc->objectives[best].pos)))
            best = k;
    }
    return best;
}

/* Whether unit t (an action's target, OPFOR_VK_NONE for none) stands within a few inches of an
 * objective. */
static int on_ground(const tb_view_t *v, int t) {
    if (t == OPFOR_VK_NONE || t >= v->st->nunits || !v->u[t].live)
        return 0;
    for (int k = 0; k < v->sc->nobjectives; k++)
        if (opfor_dist(v->u[t].c, v->sc->objectives[k].pos) <= v->sc->objectives[k].radius + 4.0f)
            return 1;
    return 0;
}

/* Whether unit u's centre lies within some objective's radius plus margin inches. */
static int near_objective(const tb_view_t *v, int u, float margin) {
    for (int k = 0; k < v->sc->nobjectives; k++)
        if (opfor_dist(v->u[u].c, v->sc->objectives[k].pos) <= v->sc->objectives[k].radius + margin)
            return 1;
    return 0;
}

/* The objective general u rides for at the end of the game: the nearest one his side does not
 * hold whose centre he may enter (never a building for a rider, VIII). Returns 0 when none. */
static int general_ground(const tb_view_t *v, int u, opfor_pt_t *out) {
    const opfor_vk_state_t *st = v->st;
    int mounted = (st->figures[st->units[u].first].flags & OPFOR_FIG_MOUNTED) != 0;
    float bd = FLT_MAX;
    for (int k = 0; k < v->sc->nobjectives; k++) {
        const opfor_objective_t *ob = &v->sc->objectives[k];
        if (holds(v, st->units[u].side, ob) || opfor_vk_query_impassable(v->ctx, ob->pos, mounted))
            continue;
        float d = opfor_dist(v->u[u].c, ob->pos);
        if (d < bd) {
            bd = d;
            *out = ob->pos;
        }
    }
    return bd < FLT_MAX;
}

/* Whether unit u must set out for objective ob now: the turns left, at about 6 inches a turn,
 * cover no more than the way there plus LATE_MARGIN. */
static int time_to_go(const tb_view_t *v, int u, const opfor_objective_t *ob) {
    int left = opfor_vk_ctx_turn_limit(v->ctx) - v->st->turn;
    return (float)left * 6.0f <= opfor_dist(v->u[u].c, ob->pos) + LATE_MARGIN;
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

/* Living figures of unit u. */
static int alive_in(const opfor_vk_state_t *st, int u) {
    int n = 0;
    for (int i = st->units[u].first; i < st->units[u].first + st->units[u].count; i++)
        n += opfor_figure_alive(&st->figures[i]) != 0;
    return n;
}

/* Whether a charge by u at t is one a solo card would order: the target is Wavering, or a
 * gun's crew, a headquarters or a supply train, or no larger than the chargers (X: a melee is
 * won by numbers as much as by dice). */
static int charge_odds_ok(const opfor_vk_state_t *st, int u, int t) {
    if (t < 0 || t >= st->nunits)
        return 0;
    const opfor_unit_t *tu = &st->units[t];
    if (tu->status == OPFOR_WAVERING)
        return 1;
    switch (tu->type) {
    case OPFOR_UT_ARTILLERY:
    case OPFOR_UT_MACHINEGUN:
    case OPFOR_UT_HEADQUARTERS:
    case OPFOR_UT_SUPPLY:
        return 1;
    default:
        return alive_in(st, t) <= alive_in(st, u);
    }
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
    if (on_ground(v, a->target))
        tfrac *= 0.1; /* XIV: enemies standing on an objective are shot at first */
    if (a->kind == OPFOR_VK_FIGHT)
        return 1.0;
    if (un->status == OPFOR_WAVERING && !((un->flags & OPFOR_UNIT_IN_MELEE) || st->melee[u])) {
        /* XI: a failed rally takes the unit off the table, so the card rallies only when that
           is the likelier outcome; else the unit falls back out of reach, still in play */
        double p = 0.0;
        int rally = opfor_vk_query_rally_chance(v->ctx, st, u, &p) == 0 && p >= RALLY_MIN;
        if (near_objective(v, u, WAVER_HOLD)) {
            /* XIV scores a Wavering unit in play like any other, while a failed rally removes
               it (XI) and falling back gives up the ground: it takes cover where it stands,
               else stands */
            if (a->kind == OPFOR_VK_CRAWL && opfor_dist(a->dest, v->u[u].c) < 0.5f)
                return 2.0;
            return a->kind == OPFOR_VK_STAND ? 2.1 : NO_ROW;
        }
        if (a->kind == OPFOR_VK_RALLY)
            return rally ? 2.0 : NO_ROW;
        if (!rally && is_move(a) && enemy >= 0)
            return 2.0 + 0.5 / (1.0 + away_score(v, u, a->dest));
        if (!rally) /* stand; else take cover (the only move out of command, VII), or send the
                       wounded back */
            return a->kind == OPFOR_VK_STAND     ? 2.9
                   : a->kind == OPFOR_VK_CRAWL   ? 2.92
                   : a->kind == OPFOR_VK_TO_REAR ? 2.95
                                                 : NO_ROW;
    }
    if (a->kind == OPFOR_VK_RALLY)
        return un->status == OPFOR_WAVERING ? 2.0 : NO_ROW;
    if (a->kind == OPFOR_VK_CHARGE && (a->flags & OPFOR_VK_AF_HOLD))
        return NO_ROW; /* the table's chargers always follow up (X step 8) */
    int type = un->type;
    int on_obj = 0, obj = a->kind == OPFOR_VK_CHARGE ? -1 : objective_of(v, u, &on_obj);
    if (obj >= 0) {
        /* XIV: ground that scores. A unit on an objective stays on it (it may still fire or
           charge); the nearest unit to an objective its side does not hold goes for it before
           it fires */
        const opfor_objective_t *ob = &v->sc->objectives[obj];
        if (on_obj && is_move(a) && opfor_dist(a->dest, ob->pos) > ob->radius)
            return NO_ROW;
        /* late enough that it must go now: about 6 in a turn, with a turn to spare */
        int late = time_to_go(v, u, ob);
        if (!on_obj && late && is_move(a)) {
            int want_run = enemy < 0 || gap > run_beyond;
            if ((a->kind == OPFOR_VK_RUN) != want_run && type != OPFOR_UT_CAVALRY)
                return NO_ROW;
            return 3.5 + move_score(v, v->u[u].c, ob->pos, a->dest) / 10000.0;
        }
    }
    if (un->flags & OPFOR_UNIT_GENERAL) {
        opfor_pt_t ground = v->u[u].c;
        if (opfor_vk_ctx_turn_limit(v->ctx) - st->turn < GENERAL_RIDE_TURNS && is_move(a) &&
            general_ground(v, u, &ground))
            return 2.5 + opfor_dist(a->dest, ground) / 10000.0;
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
        if (a->kind == OPFOR_VK_FIRE_MG) {
            /* IX: the burst tests every figure in the arc, friend or foe, at any range. The
               card aims it where it catches the most enemy figures, and never where it would
               catch more than one of its own for every MG_FRIENDS_PER enemies */
            int own = opfor_vk_query_mg_tests_side(v->ctx, st, u, a->arc, a->dest, un->side);
            int foe = opfor_vk_query_mg_tests_side(v->ctx, st, u, a->arc, a->dest, 1 - un->side);
            if (own > 0 && foe < MG_FRIENDS_PER * own)
                return NO_ROW;
            return 5.0 + 0.5 / (1.0 + foe) + tfrac / 100.0 +
                   (a->arc == OPFOR_ARC_45 ? 0.0 : 0.000001 * (a->arc + 1));
        }
        if (a->kind == OPFOR_VK_FIRE && !a->flags)
            return 6.0 + tfrac;
        if (limbered && is_move(a) && a->kind == OPFOR_VK_ADVANCE && has_goal)
            return 7.0 + move_score(v, v->u[u].c, goal, a->dest) / 10000.0;
        return a->kind == OPFOR_VK_STAND ? 8.0 : NO_ROW;
    }
    case OPFOR_UT_CAVALRY:
        if (a->kind == OPFOR_VK_CHARGE)
            return charge_odds_ok(st, u, a->target) ? 3.0 + tfrac : NO_ROW;
        if (a->kind == OPFOR_VK_FIRE && !a->flags)
            return 4.0 + tfrac;
        /* horse in the open is the easiest target on the table: it closes in only where a
           charge will follow (the gap within its reach next turn), else it waits in reserve */
        if (a->kind == OPFOR_VK_RUN && is_move(a) && has_goal &&
            gap <= opfor_vk_query_charge_reach(v->ctx, st, u) + CAV_WAIT)
            return 5.0 + move_score(v, v->u[u].c, goal, a->dest) / 10000.0;
        return a->kind == OPFOR_VK_STAND ? 6.0 : NO_ROW;
    default: {
        if (a->kind == OPFOR_VK_CHARGE) {
            int t = a->target;
            int bold = un->quality >= OPFOR_Q_VETERAN ||
                       (t < st->nunits && st->units[t].status == OPFOR_WAVERING);
            return bold && charge_odds_ok(st, u, t) ? 3.0 + tfrac : NO_ROW;
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

int opfor_table_bot_objective(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int *on,
                              int *late) {
    *on = *late = 0;
    if (!ctx || !st || u < 0 || u >= st->nunits)
        return -1;
    tb_view_t v;
    view_init(&v, ctx, st);
    if (!v.u[u].live)
        return -1;
    int k = objective_of(&v, u, on);
    if (k >= 0) {
        *late = time_to_go(&v, u, &v.sc->objectives[k]);
    }
    return k;
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
