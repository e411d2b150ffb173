/* rulesets/viktoria/ai_heuristic.c — the Viktoria! heuristic planner (opfor/viktoria/heuristic.h).
 *
 * One pass reads the position into a small "situation" (each unit's footprint, firepower,
 * melee power, reach, good range, move, role), then each candidate is scored from it: where
 * the unit would stop, what it can hit from there or now, what can hit it there, cover,
 * objectives, command and morale, plus what its role (XV.B) asks of it. The estimates are
 * deliberately simple expected-hit counts (a readable model, not the calculator's exact
 * odds, which the orders quote instead): they only have to rank actions sensibly and fast
 * enough for playouts. All weights sit in opfor_heur_default_weights.
 */
#include "opfor/viktoria/heuristic.h"

#include <stdio.h>
#include <string.h>

#include "opfor/order.h"
#include "opfor/text.h"
#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/engine_query.h"
#include "opfor/viktoria/table_bot.h"
#include "opfor/viktoria/move_stop.h"

/* ---------------------------------------------------------------- names and weights */

const opfor_name_t opfor_heur_term_names[] = {
    {"threat_to", OPFOR_HT_THREAT_TO}, {"threat_from", OPFOR_HT_THREAT_FROM},
    {"cover", OPFOR_HT_COVER},         {"objective", OPFOR_HT_OBJECTIVE},
    {"command", OPFOR_HT_COMMAND},     {"morale", OPFOR_HT_MORALE},
    {"role", OPFOR_HT_ROLE},           {NULL, 0},
};

static const char *const TERM_LABEL[OPFOR_HT_COUNT] = {
    "threat to the enemy",
    "threat from the enemy",
    "cover",
    "objective",
    "command",
    "morale",
    "role",
};

const char *opfor_heur_term_label(int term) {
    return term >= 0 && term < OPFOR_HT_COUNT ? TERM_LABEL[term] : "?";
}

/* The ground that scores (XIV), measured against the behaviour table on the built-in
 * competitive scenario (docs/ai.md): the men holding an objective are worth HEUR_HOLDER times
 * their figures as targets (1, 2.5 and 4 did worse); the move to the objective the table would
 * send the unit to counts HEUR_LATE times once it is time to go or while the unit holds it (1,
 * 6 and 12 did worse), and, from then, HEUR_GO per 6 inches of progress (issue 17: 12 beats the
 * old 2, 4 and 8 once the planner keeps its own time to go, below; 4,000 games), with walking
 * off held ground costing as much. */
#define HEUR_HOLDER 1.5f
/* ... and HEUR_HOLDER_LATE times in the last HEUR_HOLDER_TURNS turns, when a table that keeps a
 * Wavering unit on its ground holds it to the end (issue 17; 2, 3 and 4, and from 3 or 5 turns
 * left, did no better over 2,400 arena games against the table, seeds 1-6). */
#define HEUR_HOLDER_LATE 2.5f
#define HEUR_HOLDER_TURNS 4
#define HEUR_LATE 3.0f
#define HEUR_GO 12.0f
/* The planner's own "time to go" (issue 17): once the turns left at about 6 inches a turn no
 * longer cover the way to its objective with more than HEUR_SPARE inches to spare, a unit goes
 * for it before it fires. The table's 12 inches of margin (and 6) put it under fire for longer
 * and won less against the table (2,000 games). */
#define HEUR_SPARE 0.0f
/* A Wavering unit may only move or rally (XI): until it rallies it neither fires nor takes
 * ground, so a rally likelier to succeed than not is worth HEUR_RALLY times its odds against
 * staying Wavering (2 did worse than 25 and 50 against the table; 2,000 games). */
#define HEUR_RALLY 50.0f
/* VII: a unit more than the command radius from its general tests before it acts and, failing,
 * may only fire, take cover, stand or load, so the general keeps his units within reach: each
 * unit his move brings in (or leaves out) counts HEUR_KEEP in the command term (0.5 and 4 did
 * worse than 16 and 32 against the table; 2,000 games each). */
#define HEUR_KEEP 16.0f
/* XIV scores only ground a side holds alone, and a table that holds a Wavering unit on an
 * objective keeps it there to the end: in the last HEUR_CLEAR_TURNS turns a charge at men
 * standing within an objective's radius plus 2 inches counts HEUR_CLEAR more in the role term
 * (the charge contests the ground or drives them off it; 6 and 10 did no better). */
#define HEUR_CLEAR 3.0f
#define HEUR_CLEAR_TURNS 3
/* XIV: a general's figure holds ground like any other. In the last HEUR_RIDE_TURNS turns the
 * general rides for the nearest objective his side does not hold (as the table's general):
 * HEUR_RIDE in the role term per 6 inches gained, and once more for ending on it (4 did a
 * little worse, 32 and 64 the same; from 2 or 4 turns left worse; 2,400 arena games). */
#define HEUR_RIDE 16.0f
#define HEUR_RIDE_TURNS 3
/* IX: a machinegun's arc tests friend and foe alike. The burst is worth the harm to each unit in
 * proportion to its figures in the arc, and harm to the firer's own side counts HEUR_MG_OWN
 * times against it (issue 17, fourth pass). */
#define HEUR_MG_OWN 2.0f
/* A shot or a charge at a unit with a crewed gun or machinegun counts HEUR_GUN_AIM times its
 * harm: an enemy machinegun that aims its arc where it catches the most men (the table's card
 * does) is the first thing to silence. Only the choice of target: where a unit stands keeps the
 * figures' worth (a larger prize in the figures' worth drew infantry out of cover toward the
 * gun). Against the table, 1,600 games (seeds 1-4): 1 0.560, 1.6 0.610, 2 0.608, 2.4 0.606,
 * 3 0.594. */
#define HEUR_GUN_AIM 2.0f
/* The one table of weights. Action terms first (threat to, threat from, cover, objective,
 * command, morale, role), then the position value. */
const opfor_heur_weights_t opfor_heur_default_weights = {
    /* tuned against the behaviour table on seeds 2-4 of `opfor arena` (docs/ai.md): harm done
       counts most, then the role's wishes; morale bonuses cost more activations than they
       save, so they only break ties */
    .term = {3.0, 0.8, 0.9, 0.8, 0.25, 0.2, 2.0},
    .figure = 1.0,
    .wounded = 0.6,
    .equipment = 3.0,
    .unit = 3.0,
    .wavering = 2.0,
    .objective = 4.0,
    .approach = 1.5,
    .value_scale = 12.0,
    .general_last = 0.3,
};

void opfor_heur_init(opfor_heur_t *h) {
    memset(h, 0, sizeof *h);
    h->w = &opfor_heur_default_weights;
    h->epsilon = 0.1;
    h->fast_playouts = 1;
}

/* OPFOR_HEUR_UCT_C, _PW_C, _PW_ALPHA were measured on the built-in competitive scenario,
 * standard budget, against the planner alone: c 1.4 / alpha 0.5 won 8 of 16, c 0.5 / 0.35 11,
 * c 0.3 / 0.3 14. */

/* ---------------------------------------------------------------- the situation */

/* Roles of XV.B (and generals). */
enum { R_INFANTRY = 0, R_CAVALRY, R_GUN, R_HQ, R_SUPPLY, R_GENERAL };

/* Quality factors: figure value, chance to hit with a firearm, melee power. */
static const float Q_VALUE[OPFOR_Q_COUNT] = {0.5f, 0.8f, 1.0f, 1.2f, 1.5f};
static const float Q_HIT[OPFOR_Q_COUNT] = {0.15f, 0.25f, 0.33f, 0.4f, 0.5f};
static const float Q_MELEE[OPFOR_Q_COUNT] = {0.4f, 0.8f, 1.0f, 1.2f, 1.5f};
/* Share of hits that get through each level of cover. */
static const float COVER_PASS[OPFOR_COVER_COUNT] = {1.0f, 0.6f, 0.4f, 0.25f};

#define FAR 1e6f
#define MAX_CMD 16

typedef struct sit {
    const opfor_heur_weights_t *w;
    const opfor_vk_ctx_t *vk;
    const opfor_scenario_t *sc;
    const opfor_vk_state_t *st;
    int side;    /* the side deciding */
    int fast;    /* 1: no line-of-sight tests in threat terms */
    int nunits;  /* unit slots */
    float width; /* table */
    float depth;
    float cmd_radius;
    int ncmd;                /* commanders of the deciding side */
    opfor_pt_t cmd[MAX_CMD]; /* their centres */
    opfor_vk_ugeo_t geo[OPFOR_MAX_UNITS];
    uint8_t live[OPFOR_MAX_UNITS]; /* in play */
    uint8_t role[OPFOR_MAX_UNITS];
    uint8_t gun[OPFOR_MAX_UNITS];       /* 1: has a crewed gun or MG */
    float people[OPFOR_MAX_UNITS];      /* living person figures present */
    float value[OPFOR_MAX_UNITS];       /* what destroying a figure of it is worth */
    float fire[OPFOR_MAX_UNITS];        /* expected hits of a volley at close range */
    float melee[OPFOR_MAX_UNITS];       /* melee power */
    float reach[OPFOR_MAX_UNITS];       /* farthest it can shoot */
    float good[OPFOR_MAX_UNITS];        /* distance up to which its fire is effective */
    float move[OPFOR_MAX_UNITS];        /* mean advance, inches */
    uint8_t rides[OPFOR_MAX_UNITS];     /* has riders, guns or transport (opfor_move_rides) */
    float charge[OPFOR_MAX_UNITS];      /* charge reach, inches */
    float danger_here[OPFOR_MAX_UNITS]; /* cached danger where it stands (-1: not yet) */
    uint8_t melee_now[OPFOR_MAX_UNITS]; /* 1: in melee (not a target for fire) */
    float allow_run, allow_crawl;       /* the acting unit's run and crawl (-1: not yet) */
    int obj_unit;                       /* whose objective obj_* hold (-1: none yet) */
    int obj, obj_on, obj_late;          /* opfor_table_bot_objective for obj_unit */
} sit_t;

static int role_of(const opfor_unit_t *un) {
    if (un->flags & OPFOR_UNIT_GENERAL)
        return R_GENERAL;
    switch (un->type) {
    case OPFOR_UT_CAVALRY:
        return R_CAVALRY;
    case OPFOR_UT_ARTILLERY:
    case OPFOR_UT_MACHINEGUN:
        return R_GUN;
    case OPFOR_UT_HEADQUARTERS:
        return R_HQ;
    case OPFOR_UT_SUPPLY:
        return R_SUPPLY;
    default:
        return R_INFANTRY;
    }
}

static float range_edge(const opfor_viktoria_model_t *m, int k, int b) {
    double e = m->range_edge[k][b];
    return e < 1e6 ? (float)e : 200.0f;
}

/* Reads unit u into the situation. */
static void read_unit(sit_t *s, const opfor_viktoria_model_t *m, int u) {
    const opfor_vk_state_t *st = s->st;
    const opfor_unit_t *un = &st->units[u];
    s->live[u] = (uint8_t)opfor_vk_unit_in_play(st, u);
    s->role[u] = (uint8_t)role_of(un);
    s->danger_here[u] = -1.0f;
    s->melee_now[u] = (uint8_t)opfor_vk_query_in_melee(st, u);
    opfor_vk_query_geo(st, u, &s->geo[u]);
    s->rides[u] = (uint8_t)opfor_move_rides(st, u);
    float people = 0, fire = 0, melee = 0, value = 0;
    unsigned w = 0;
    int equip = 0, crew = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!opfor_vk_query_fig_present(st, i))
            continue;
        if (f->flags & OPFOR_FIG_EQUIPMENT) {
            equip |= f->weapons & (OPFOR_W_MG | OPFOR_W_FIELD_GUN);
            continue;
        }
        int q = f->quality < OPFOR_Q_COUNT ? f->quality : OPFOR_Q_SOLDIER;
        float hurt = (f->flags & OPFOR_FIG_WOUNDED) ? 0.7f : 1.0f;
        people += 1.0f;
        value += Q_VALUE[q] * hurt;
        w |= f->weapons;
        crew += (f->skills & OPFOR_S_CREW) != 0;
        if (f->weapons & (OPFOR_W_PISTOL | OPFOR_W_CARBINE | OPFOR_W_RIFLE))
            fire += Q_HIT[q] * hurt * ((f->flags & OPFOR_FIG_MOUNTED) ? 0.7f : 1.0f);
        float mp = Q_MELEE[q] * hurt;
        if (!(f->weapons & (OPFOR_W_SWORD | OPFOR_W_LANCE | OPFOR_W_BAYONET)))
            mp *= 0.6f;
        if (f->flags & OPFOR_FIG_MOUNTED)
            mp *= (f->weapons & OPFOR_W_LANCE) ? 1.7f : 1.5f;
        melee += mp;
    }
    if (!crew && people > 0 && equip)
        crew = 1; /* anyone may serve a piece in a pinch */
    s->gun[u] = (uint8_t)(equip && crew);
    s->people[u] = people;
    s->value[u] = people > 0 ? value / people : 1.0f;
    /* XIV: the ground held at the end scores, so the men holding an objective are worth more */
    for (int o = 0; o < s->sc->nobjectives; o++) {
        const opfor_objective_t *ob = &s->sc->objectives[o];
        if (opfor_dist(s->geo[u].c, ob->pos) <= ob->radius + s->geo[u].r + 2.0f) {
            s->value[u] *= opfor_vk_ctx_turn_limit(s->vk) - st->turn < HEUR_HOLDER_TURNS
                               ? HEUR_HOLDER_LATE
                               : HEUR_HOLDER;
            break;
        }
    }
    float reach = opfor_vk_query_reach(s->vk, st, u), good = 0.0f;
    int k = (w & OPFOR_W_RIFLE)     ? OPFOR_VK_R_RIFLE
            : (w & OPFOR_W_CARBINE) ? OPFOR_VK_R_CARBINE
            : (w & OPFOR_W_PISTOL)  ? OPFOR_VK_R_PISTOL
                                    : -1;
    if (k >= 0)
        good = range_edge(m, k, OPFOR_VK_MEDIUM);
    if (s->gun[u]) {
        int g = (equip & OPFOR_W_FIELD_GUN) ? OPFOR_VK_R_ARTILLERY : OPFOR_VK_R_MG;
        fire += g == OPFOR_VK_R_MG ? 3.0f : 2.5f;
        float gr = range_edge(m, g, OPFOR_VK_MEDIUM), rr = range_edge(m, g, OPFOR_VK_LONG);
        if (gr > good)
            good = gr;
        if (rr > reach)
            reach = rr;
        if (g == OPFOR_VK_R_ARTILLERY && (un->flags & OPFOR_UNIT_LIMBERED))
            fire -= 2.5f; /* a limbered gun cannot fire */
    }
    if (reach > 1e5f)
        reach = 200.0f;
    if (good > reach)
        good = reach;
    s->fire[u] = fire;
    s->melee[u] = melee;
    s->reach[u] = reach;
    s->good[u] = good;
    s->move[u] = s->live[u] ? opfor_vk_query_move(s->vk, st, u, OPFOR_VK_ADVANCE) : 0.0f;
    s->charge[u] =
        (s->live[u] && melee > 0 && !s->gun[u]) ? opfor_vk_query_charge_reach(s->vk, st, u) : 0.0f;
    /* what hurting it is worth: headquarters members and supply are prizes (XV.B) */
    float prize = s->role[u] == R_HQ || s->role[u] == R_SUPPLY || s->role[u] == R_GENERAL ? 2.0f
                  : s->gun[u]                                                             ? 1.3f
                                                                                          : 1.0f;
    if (un->status == OPFOR_WAVERING)
        prize *= 1.3f;
    s->value[u] *= prize;
}

static int read_situation(sit_t *s, const opfor_heur_t *h, const opfor_game_t *g, const void *state,
                          int fast) {
    if (!g || !state || g->rs != &opfor_viktoria_ruleset || !g->ctx)
        return OPFOR_EINVAL;
    const opfor_vk_rs_state_t *rs = state;
    s->w = h && h->w ? h->w : &opfor_heur_default_weights;
    s->vk = opfor_vk_rs_engine(g->ctx);
    s->sc = opfor_vk_ctx_scenario(s->vk);
    s->st = &rs->vk;
    s->fast = fast;
    int cur = opfor_vk_current(s->vk, s->st);
    s->side = cur == 0 || cur == 1 ? cur : -1;
    s->nunits = s->st->nunits;
    s->width = s->sc->table.width;
    s->depth = s->sc->table.depth;
    s->cmd_radius = opfor_vk_query_command_radius(s->st);
    const opfor_viktoria_model_t *m = opfor_vk_query_model(s->vk);
    s->ncmd = 0;
    s->allow_run = s->allow_crawl = -1.0f;
    s->obj_unit = -1;
    for (int u = 0; u < s->nunits; u++) {
        read_unit(s, m, u);
        const opfor_unit_t *un = &s->st->units[u];
        if (s->live[u] && un->side == s->side && s->ncmd < MAX_CMD &&
            ((un->flags & OPFOR_UNIT_GENERAL) || un->type == OPFOR_UT_HEADQUARTERS))
            s->cmd[s->ncmd++] = s->geo[u].c;
    }
    return 0;
}

/* ---------------------------------------------------------------- estimates */

static float clampf(float x, float lo, float hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

/* Share of a close-range volley's hits at gap inches for a unit of good range and reach. */
static float range_factor(float gap, float good, float reach) {
    if (gap > reach)
        return 0.0f;
    if (gap <= 0.5f * good)
        return 1.0f;
    if (gap <= good)
        return 0.75f;
    return 0.4f;
}

/* Base-to-base gap estimate between a unit of footprint radius ra at a and unit t. */
static float gap_to(const sit_t *s, opfor_pt_t a, float ra, int t) {
    float d = opfor_dist(a, s->geo[t].c) - s->geo[t].r - ra;
    return d < 0.0f ? 0.0f : d;
}

static int sees(const sit_t *s, opfor_pt_t a, opfor_pt_t b) {
    return s->fast || opfor_vk_query_los(s->vk, a, b);
}

static int cover_at(const sit_t *s, opfor_pt_t from, opfor_pt_t at) {
    return s->fast ? opfor_vk_query_cover_any(s->vk, at, OPFOR_RADIUS_FOOT)
                   : opfor_vk_query_cover(s->vk, from, at, OPFOR_RADIUS_FOOT);
}

/* Expected harm (hits times the target's worth) of u's fire at t from point p. */
static float harm(const sit_t *s, int u, int t, opfor_pt_t p, int moving) {
    if (!s->live[t] || s->fire[u] <= 0.0f || s->melee_now[t])
        return 0.0f;
    float gap = gap_to(s, p, s->geo[u].r, t);
    float rf = range_factor(gap, s->good[u], s->reach[u]);
    if (rf <= 0.0f)
        return 0.0f;
    int cov = cover_at(s, p, s->geo[t].c);
    float hits = s->fire[u] * rf * COVER_PASS[cov] * (moving ? 0.6f : 1.0f);
    float most = s->people[t];
    if (hits > most)
        hits = most;
    return hits * s->value[t];
}

/* How much more than its figures' worth a shot at unit t is: HEUR_GUN_AIM for a crewed gun or
 * machinegun (silence it first), else 1. Only the choice of target, not where a unit stands. */
static float aim_factor(const sit_t *s, int t) {
    return s->gun[t] ? HEUR_GUN_AIM : 1.0f;
}

/* What unit u's machinegun burst a does (IX: the arc tests every figure in it, friend or foe,
 * at any range): the harm to each unit in proportion to its figures in the arc, an enemy's
 * counted for, one of its own side's HEUR_MG_OWN times against. */
static float mg_harm(const sit_t *s, int u, const opfor_action_t *a) {
    int per[OPFOR_MAX_UNITS];
    if (opfor_vk_query_mg_tests_units(s->vk, s->st, u, a->sub, opfor_pt(a->x, a->y), per) <= 0)
        return 0.0f;
    int side = s->st->units[u].side;
    float h = 0.0f;
    for (int t = 0; t < s->nunits; t++) {
        if (!per[t] || t == u || s->people[t] <= 0.0f)
            continue;
        float part = harm(s, u, t, s->geo[u].c, 0) * (float)per[t] / s->people[t];
        h += s->st->units[t].side == side ? -HEUR_MG_OWN * part : part * aim_factor(s, t);
    }
    return h;
}

/* Danger to unit u (of the deciding side) standing at p: the enemy's expected hits on it
 * next activation, plus the melee power of enemies that could charge it. *charge_part gets
 * the charge share when not NULL. */
static float danger(const sit_t *s, int u, opfor_pt_t p, int prone, float *charge_part) {
    float tot = 0.0f, ch = 0.0f;
    int side = s->st->units[u].side;
    int fast_cov = -1; /* fast mode: one cover look-up for the point, whoever fires */
    for (int t = 0; t < s->nunits; t++) {
        if (!s->live[t] || s->st->units[t].side == side || s->melee_now[t])
            continue;
        float gap = gap_to(s, p, s->geo[u].r, t);
        int near_fire = s->fire[t] > 0.0f && gap <= s->reach[t] + 0.5f * s->move[t];
        int near_charge = s->charge[t] > 0.0f && gap <= s->charge[t];
        if (!near_fire && !near_charge)
            continue;
        float vis = sees(s, s->geo[t].c, p) ? 1.0f : 0.25f;
        int cov;
        if (s->fast) {
            if (fast_cov < 0)
                fast_cov = opfor_vk_query_cover_any(s->vk, p, OPFOR_RADIUS_FOOT);
            cov = fast_cov;
        } else {
            cov = cover_at(s, s->geo[t].c, p);
        }
        if (near_fire) {
            float rf = range_factor(gap, s->good[t], s->reach[t] + 0.5f * s->move[t]);
            tot += s->fire[t] * rf * COVER_PASS[cov] * (prone ? 0.7f : 1.0f) * vis;
        }
        if (near_charge) {
            float c = 0.35f * s->melee[t] * (cov > OPFOR_COVER_NONE ? 0.7f : 1.0f) * vis;
            tot += c;
            ch += c;
        }
    }
    if (charge_part)
        *charge_part = ch;
    return tot;
}

static float danger_here(sit_t *s, int u) {
    if (s->danger_here[u] < 0.0f)
        s->danger_here[u] = danger(s, u, s->geo[u].c, 0, NULL);
    return s->danger_here[u];
}

/* Distance from p to the nearest commander of the deciding side, base to base (about). */
static float cmd_dist(const sit_t *s, opfor_pt_t p) {
    float best = FAR;
    for (int i = 0; i < s->ncmd; i++) {
        float d = opfor_dist(p, s->cmd[i]) - 1.0f;
        if (d < best)
            best = d;
    }
    return best < 0.0f ? 0.0f : best;
}

/* The nearest enemy unit of side to p (its gap in *gap), or -1. */
static int nearest_enemy(const sit_t *s, int side, opfor_pt_t p, float r, float *gap) {
    int best = -1;
    float bd = FAR;
    for (int t = 0; t < s->nunits; t++) {
        if (!s->live[t] || s->st->units[t].side == side ||
            (s->st->units[t].flags & OPFOR_UNIT_GENERAL && s->people[t] < 1))
            continue;
        float d = gap_to(s, p, r, t);
        if (d < bd) {
            bd = d;
            best = t;
        }
    }
    *gap = bd;
    return best;
}

/* Objective term for moving unit u from a to b: progress in 6-inch steps toward the
 * nearest objective not yet held by its side, plus holding. */
/* Whether side alone holds objective ob now (XIV: a living figure of its units in play within
 * the radius, and none of the other side's). */
static int side_holds(const sit_t *s, int side, const opfor_objective_t *ob) {
    const opfor_vk_state_t *st = s->st;
    int mine = 0, theirs = 0;
    for (int i = 0; i < st->nfigures; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!opfor_figure_alive(f) || f->unit >= s->nunits || !s->live[f->unit] ||
            opfor_dist(f->pos, ob->pos) > ob->radius)
            continue;
        if (st->units[f->unit].side == side)
            mine = 1;
        else
            theirs = 1;
    }
    return mine && !theirs;
}

/* The general's ride for ground at the end (as the table's): progress from a to b toward the
 * nearest objective his side does not hold that he may enter, in the last HEUR_RIDE_TURNS. */
static float ride_term(const sit_t *s, int u, opfor_pt_t a, opfor_pt_t b) {
    const opfor_vk_state_t *st = s->st;
    if (opfor_vk_ctx_turn_limit(s->vk) - st->turn >= HEUR_RIDE_TURNS)
        return 0.0f;
    int mounted = (st->figures[st->units[u].first].flags & OPFOR_FIG_MOUNTED) != 0;
    int side = st->units[u].side, best = -1;
    float bd = FAR;
    for (int k = 0; k < s->sc->nobjectives; k++) {
        const opfor_objective_t *ob = &s->sc->objectives[k];
        float d = opfor_dist(a, ob->pos);
        if (d < bd && !side_holds(s, side, ob) &&
            !opfor_vk_query_impassable(s->vk, ob->pos, mounted)) {
            bd = d;
            best = k;
        }
    }
    if (best < 0)
        return 0.0f;
    const opfor_objective_t *ob = &s->sc->objectives[best];
    float da = opfor_dist(a, ob->pos), db = opfor_dist(b, ob->pos);
    return HEUR_RIDE * ((da - db) / 6.0f + (db <= ob->radius ? 1.0f : 0.0f));
}

static float objective_term(sit_t *s, int u, opfor_pt_t a, opfor_pt_t b) {
    const opfor_scenario_t *sc = s->sc;
    int role = s->role[u];
    if (sc->nobjectives == 0 || role == R_HQ || role == R_SUPPLY || role == R_GENERAL)
        return 0.0f;
    const opfor_vk_state_t *st = s->st;
    /* the ground the behaviour table would send u to (XIV: held at the end), weighed more once
       it is time to go or while u holds it; else the nearest objective u may enter */
    if (s->obj_unit != u) { /* once per unit and decision: it walks the whole state */
        s->obj = opfor_table_bot_objective(s->vk, st, u, &s->obj_on, &s->obj_late);
        s->obj_unit = u;
    }
    int on = s->obj_on, late = s->obj_late, best = s->obj;
    if (best >= 0 && !on) { /* the planner's own time to go (HEUR_SPARE) */
        int left = opfor_vk_ctx_turn_limit(s->vk) - st->turn;
        late = (float)left * 6.0f <= opfor_dist(a, sc->objectives[best].pos) + HEUR_SPARE;
    }
    float boost = best >= 0 && (late || on) ? HEUR_LATE : 1.0f;
    int mounted = (st->figures[st->units[u].first].flags & OPFOR_FIG_MOUNTED) != 0;
    float bd = FAR;
    for (int o = 0; best < 0 && o < sc->nobjectives; o++) {
        float d = opfor_dist(a, sc->objectives[o].pos);
        /* not ground the unit may not enter (a building, for riders and guns: VIII) */
        if (d < bd && !opfor_vk_query_impassable(s->vk, sc->objectives[o].pos, mounted)) {
            bd = d;
            best = o;
        }
    }
    if (best < 0)
        return 0.0f;
    const opfor_objective_t *ob = &sc->objectives[best];
    float da = opfor_dist(a, ob->pos), db = opfor_dist(b, ob->pos);
    float pw = 0.5f + 0.1f * (float)(ob->points > 0 ? ob->points : 1);
    float progress = clampf((da - db) / 6.0f, -1.5f, 1.5f);
    float hold = (db <= ob->radius + s->geo[u].r ? 1.0f : 0.0f) -
                 (da <= ob->radius + s->geo[u].r ? 1.0f : 0.0f);
    if (role == R_GUN)
        progress *= 0.3f; /* guns support the attack from range; they do not take ground */
    if (best >= 0 && late && !on && progress > 0.0f)
        return HEUR_GO * progress; /* time to go: before anything else but a fight, as the table */
    if (on && hold < 0.0f)
        return -HEUR_GO; /* never walk off ground it holds */
    return boost * pw * (progress + hold);
}

/* Gap from a commander at p to unit v as VII measures it: to v's nearest figure present, base
 * to base (about: the centre distance less an inch). */
static float command_gap(const sit_t *s, int v, opfor_pt_t p) {
    const opfor_unit_t *un = &s->st->units[v];
    float best = FAR;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!opfor_vk_query_fig_present(s->st, i))
            continue;
        float d = opfor_dist(p, s->st->figures[i].pos) - 1.0f;
        if (d < best)
            best = d;
    }
    return best;
}

/* Command term for unit u ending at b (from a). */
static float command_term(const sit_t *s, int u, opfor_pt_t a, opfor_pt_t b) {
    const opfor_unit_t *un = &s->st->units[u];
    float R = s->cmd_radius;
    if (s->role[u] == R_GENERAL || s->role[u] == R_HQ) {
        /* a commander: own units within its radius after, less before */
        int before = 0, after = 0;
        for (int v = 0; v < s->nunits; v++) {
            if (v == u || !s->live[v] || s->st->units[v].side != un->side ||
                s->role[v] == R_GENERAL || s->role[v] == R_SUPPLY)
                continue;
            if (s->role[u] == R_GENERAL) { /* his units, each to its nearest figure (VII) */
                before += command_gap(s, v, a) <= R;
                after += command_gap(s, v, b) <= R;
                continue;
            }
            before += opfor_dist(a, s->geo[v].c) - s->geo[v].r <= R;
            after += opfor_dist(b, s->geo[v].c) - s->geo[v].r <= R;
        }
        return (s->role[u] == R_GENERAL ? HEUR_KEEP : 0.5f) * (float)(after - before);
    }
    if ((un->flags & OPFOR_UNIT_SELF_COMMANDING) || s->role[u] == R_SUPPLY || s->ncmd == 0)
        return 0.0f;
    float da = cmd_dist(s, a), db = cmd_dist(s, b);
    int ina = da <= R, inb = db <= R;
    if (ina || inb)
        return (float)(inb - ina);
    return clampf((da - db) / 12.0f, -0.5f, 0.5f); /* closing the distance helps next time */
}

/* How exposed target t is to a charge by u (0..1.5): in the open, shaken, weak in melee,
 * a gun, headquarters or supply (XV.B: cavalry charges exposed targets). */
static float exposure(const sit_t *s, int u, int t) {
    float e = 0.0f;
    if (cover_at(s, s->geo[u].c, s->geo[t].c) == OPFOR_COVER_NONE)
        e += 0.4f;
    if (s->st->units[t].status == OPFOR_WAVERING)
        e += 0.4f;
    if (s->melee[t] < 0.7f * s->melee[u])
        e += 0.4f;
    if (s->role[t] == R_GUN || s->role[t] == R_HQ || s->role[t] == R_SUPPLY)
        e += 0.3f;
    return e;
}

/* Where a move of kind toward dest stops: the mean allowance along the line, or where it
 * stands when ground it may not enter bars the way at once (opfor_move_stop). */
static opfor_pt_t end_point(sit_t *s, int u, int kind, opfor_pt_t dest) {
    opfor_pt_t c = s->geo[u].c;
    float d = opfor_dist(c, dest);
    float allow = s->move[u];
    if (kind == OPFOR_VK_RUN || kind == OPFOR_VK_CRAWL) {
        float *slot = kind == OPFOR_VK_RUN ? &s->allow_run : &s->allow_crawl;
        if (u != s->st->cur)
            allow = opfor_vk_query_move(s->vk, s->st, u, kind);
        else {
            if (*slot < 0.0f)
                *slot = opfor_vk_query_move(s->vk, s->st, u, kind);
            allow = *slot;
        }
    }
    opfor_pt_t e = d <= allow || d <= 0.0f ? dest : opfor_vlerp(c, dest, allow / d);
    /* a way barred at once (a rider at a farmhouse wall) goes nowhere; a way barred further on
       is scored to its end as before (the weights were tuned so) */
    if (opfor_dist(c, opfor_move_stop(s->vk, s->rides[u], c, e, NULL)) < 0.25f)
        return c;
    return e;
}

/* ---------------------------------------------------------------- action scores */

static void score_select(sit_t *s, int u, float *t) {
    const opfor_unit_t *un = &s->st->units[u];
    int role = s->role[u];
    float dz = danger_here(s, u);
    if (opfor_vk_query_in_melee(s->st, u))
        t[OPFOR_HT_MORALE] += 1.5f;
    if (un->status == OPFOR_WAVERING)
        t[OPFOR_HT_MORALE] += 0.8f;
    t[OPFOR_HT_MORALE] += 0.4f * dz; /* under fire: act before it is too late */
    float best = 0.0f;
    for (int v = 0; v < s->nunits; v++) {
        if (!s->live[v] || s->st->units[v].side == un->side)
            continue;
        float h = harm(s, u, v, s->geo[u].c, 0);
        if (h > 0.0f && !sees(s, s->geo[u].c, s->geo[v].c))
            h = 0.0f;
        if (h > best)
            best = h;
        if (role == R_CAVALRY && s->charge[u] > 0.0f &&
            gap_to(s, s->geo[u].c, s->geo[u].r, v) <= s->charge[u])
            t[OPFOR_HT_ROLE] =
                t[OPFOR_HT_ROLE] > exposure(s, u, v) ? t[OPFOR_HT_ROLE] : exposure(s, u, v);
    }
    t[OPFOR_HT_THREAT_TO] += best;
    if (role == R_HQ || role == R_SUPPLY)
        t[OPFOR_HT_ROLE] += 0.5f * dz; /* get away while it can */
    if (role == R_GENERAL)
        t[OPFOR_HT_COMMAND] -= (float)s->w->general_last / (float)s->w->term[OPFOR_HT_COMMAND];
    if (opfor_vk_query_needs_command_test(s->vk, s->st, u))
        t[OPFOR_HT_COMMAND] -= 0.3f;
}

/* Terms common to every action that leaves unit u at e (prone: lying down there). */
static void score_position(sit_t *s, int u, opfor_pt_t e, int prone, int running, float *t) {
    float dz = danger(s, u, e, prone, NULL) * (running ? 0.85f : 1.0f);
    t[OPFOR_HT_THREAT_FROM] -= dz;
    float ng;
    int near = nearest_enemy(s, s->st->units[u].side, e, s->geo[u].r, &ng);
    if (near >= 0 && ng <= s->reach[near] + s->move[near] + 6.0f) {
        int cov = cover_at(s, s->geo[near].c, e);
        t[OPFOR_HT_COVER] += (float)cov + (prone ? 0.5f : 0.0f);
    }
    const opfor_unit_t *un = &s->st->units[u];
    if (un->status == OPFOR_WAVERING)
        t[OPFOR_HT_MORALE] += 0.5f * (danger_here(s, u) - dz);
}

static void score_move(sit_t *s, int u, const opfor_action_t *a, float *t) {
    int kind = a->kind;
    opfor_pt_t c = s->geo[u].c, dest = opfor_pt(a->x, a->y);
    opfor_pt_t e = end_point(s, u, kind, dest);
    int prone = kind == OPFOR_VK_CRAWL;
    int fire_at = (a->flags & OPFOR_VK_AF_FIRE) && a->target < s->nunits ? a->target : -1;
    score_position(s, u, e, prone, kind == OPFOR_VK_RUN, t);
    t[OPFOR_HT_OBJECTIVE] += objective_term(s, u, c, e);
    t[OPFOR_HT_COMMAND] += command_term(s, u, c, e);
    int role = s->role[u];
    int side = s->st->units[u].side;
    /* fire now (moving fire) or set up fire for the next activation */
    if (fire_at >= 0) {
        /* from the waypoint when the action fires there (IX: at any point of the move) */
        opfor_pt_t from = (a->flags & OPFOR_VK_AF_FIRE_VIA) ? opfor_pt(a->x2, a->y2) : e;
        t[OPFOR_HT_THREAT_TO] += harm(s, u, fire_at, from, 1);
    } else {
        float best = 0.0f;
        for (int v = 0; v < s->nunits; v++) {
            if (!s->live[v] || s->st->units[v].side == side)
                continue;
            float h = harm(s, u, v, e, 0);
            if (h > best && sees(s, e, s->geo[v].c))
                best = h;
        }
        if (s->st->units[u].status != OPFOR_WAVERING) /* XI: it must rally before it fires */
            t[OPFOR_HT_THREAT_TO] += 0.4f * best;
    }
    float ng0, ng1;
    int n0 = nearest_enemy(s, side, c, s->geo[u].r, &ng0);
    int n1 = nearest_enemy(s, side, e, s->geo[u].r, &ng1);
    switch (role) {
    case R_INFANTRY:
        if (fire_at >= 0)
            t[OPFOR_HT_ROLE] += 0.2f;
        break;
    case R_CAVALRY:
        /* flanking: ending beside or behind an enemy, within charging distance */
        if (n1 >= 0 && ng1 <= 1.5f * s->charge[u] + 2.0f) {
            opfor_vec_t to = opfor_vnorm(opfor_vsub(e, s->geo[n1].c));
            float front = opfor_vdot(to, s->st->units[n1].facing);
            if (front < 0.3f)
                t[OPFOR_HT_ROLE] += 0.6f + 0.4f * exposure(s, u, n1);
        }
        if (fire_at >= 0)
            t[OPFOR_HT_ROLE] -= 0.2f;
        break;
    case R_GUN: {
        /* keep the range: never closer than half the good range */
        if (n1 >= 0 && ng1 < 0.5f * s->good[u])
            t[OPFOR_HT_ROLE] -= (0.5f * s->good[u] - ng1) / 6.0f;
        if (n0 >= 0 && ng0 < 0.5f * s->good[u] && ng1 > ng0)
            t[OPFOR_HT_ROLE] += (ng1 - ng0) / 6.0f;
        break;
    }
    case R_HQ:
    case R_SUPPLY: {
        /* escape (XV.B): away from the enemy and toward the own edge */
        opfor_vec_t home = opfor_vk_query_home(s->vk, side);
        float gain = (ng1 > 60.0f ? 60.0f : ng1) - (ng0 > 60.0f ? 60.0f : ng0);
        t[OPFOR_HT_ROLE] += gain / 6.0f + 0.5f * opfor_vdot(opfor_vsub(e, c), home) / 6.0f;
        if (fire_at >= 0)
            t[OPFOR_HT_ROLE] -= 0.3f;
        break;
    }
    case R_GENERAL:
        t[OPFOR_HT_ROLE] += ride_term(s, u, c, e);
        break;
    }
}

static void score_charge(sit_t *s, int u, int v, float *t) {
    if (v >= s->nunits || !s->live[v])
        return;
    int cov = cover_at(s, s->geo[u].c, s->geo[v].c);
    float cf = cov == OPFOR_COVER_NONE ? 1.0f : cov == OPFOR_COVER_SOFT ? 0.8f : 0.6f;
    float mine = s->melee[u] * 1.3f * cf, theirs = s->melee[v];
    if (s->role[v] == R_GUN || s->role[v] == R_SUPPLY)
        theirs *= 0.7f;
    float cap = s->people[v] * s->value[v] * aim_factor(s, v);
    float won = 0.5f * mine * s->value[v] * aim_factor(s, v);
    t[OPFOR_HT_THREAT_TO] += won > cap ? cap : won;
    /* contact: the target's melee answer, and whatever else can reach the spot */
    t[OPFOR_HT_THREAT_FROM] -= 0.4f * theirs + 0.5f * danger(s, u, s->geo[v].c, 0, NULL);
    switch (s->role[u]) {
    case R_CAVALRY:
        t[OPFOR_HT_ROLE] += exposure(s, u, v);
        break;
    case R_INFANTRY:
        t[OPFOR_HT_ROLE] += mine > 1.5f * theirs ? 0.2f : -0.3f;
        break;
    default:
        t[OPFOR_HT_ROLE] -= 1.5f; /* guns, headquarters, supply and generals do not charge */
        break;
    }
    if (s->st->units[u].status == OPFOR_WAVERING)
        t[OPFOR_HT_MORALE] -= 1.0f;
    if (opfor_vk_ctx_turn_limit(s->vk) - s->st->turn < HEUR_CLEAR_TURNS) {
        for (int k = 0; k < s->sc->nobjectives; k++)
            if (opfor_dist(s->geo[v].c, s->sc->objectives[k].pos) <=
                s->sc->objectives[k].radius + 2.0f) {
                t[OPFOR_HT_ROLE] += HEUR_CLEAR;
                break;
            }
    }
    t[OPFOR_HT_OBJECTIVE] += objective_term(s, u, s->geo[u].c, s->geo[v].c);
}

static void score_action(sit_t *s, const opfor_action_t *a, float *t) {
    const opfor_vk_state_t *st = s->st;
    int u = a->unit;
    if (u >= s->nunits)
        return;
    int role = s->role[u];
    int side = st->units[u].side;
    const opfor_unit_t *un = &st->units[u];
    switch (a->kind) {
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_RUN:
    case OPFOR_VK_CRAWL:
        score_move(s, u, a, t);
        return;
    case OPFOR_VK_CHARGE:
        score_charge(s, u, a->target, t);
        return;
    case OPFOR_VK_FIRE:
        if (a->target < s->nunits) {
            float h = harm(s, u, a->target, s->geo[u].c, 0) * aim_factor(s, a->target);
            if (a->flags & (OPFOR_VK_AF_AIM_WOUNDED | OPFOR_VK_AF_AIM_GENERAL))
                h *= a->flags & OPFOR_VK_AF_AIM_GENERAL ? 1.1f : 1.05f;
            t[OPFOR_HT_THREAT_TO] += h;
        }
        score_position(s, u, s->geo[u].c, 0, 0, t);
        t[OPFOR_HT_ROLE] += role == R_INFANTRY                 ? 0.3f
                            : role == R_GUN                    ? 0.2f
                            : role == R_CAVALRY                ? -0.2f
                            : role == R_HQ || role == R_SUPPLY ? -0.3f
                                                               : 0.0f;
        return;
    case OPFOR_VK_FIRE_MG:
    case OPFOR_VK_FIRE_ARTILLERY:
    case OPFOR_VK_CALL_SUPPORT: {
        int v = a->target < s->nunits ? a->target : -1;
        float h = 0.0f;
        if (a->kind == OPFOR_VK_FIRE_MG)
            h = mg_harm(s, u, a) * (a->sub == OPFOR_ARC_45 ? 1.0f : 0.95f);
        else if (v >= 0)
            h = harm(s, u, v, s->geo[u].c, 0) * aim_factor(s, v);
        else
            h = 1.0f; /* registered point */
        if (a->kind == OPFOR_VK_CALL_SUPPORT)
            h = 1.5f * (v >= 0 ? s->value[v] : 1.0f);
        t[OPFOR_HT_THREAT_TO] += h;
        score_position(s, u, s->geo[u].c, 0, 0, t);
        t[OPFOR_HT_ROLE] += role == R_GUN ? 0.6f : 0.2f;
        return;
    }
    case OPFOR_VK_THROW_BOMB:
        if (a->target < s->nunits && s->live[a->target])
            t[OPFOR_HT_THREAT_TO] += 1.2f * s->value[a->target];
        score_position(s, u, s->geo[u].c, 0, 0, t);
        return;
    case OPFOR_VK_MESMERIZE:
        if (a->target < s->nunits && s->live[a->target])
            t[OPFOR_HT_THREAT_TO] += 1.0f * s->value[a->target];
        score_position(s, u, s->geo[u].c, 0, 0, t);
        return;
    case OPFOR_VK_STAND:
        score_position(s, u, s->geo[u].c, 0, 0, t);
        if (role == R_HQ || role == R_SUPPLY)
            t[OPFOR_HT_ROLE] -= 0.3f;
        return;
    case OPFOR_VK_LOAD: {
        score_position(s, u, s->geo[u].c, 0, 0, t);
        float ng;
        int n = nearest_enemy(s, side, s->geo[u].c, s->geo[u].r, &ng);
        t[OPFOR_HT_ROLE] += n >= 0 && ng <= s->reach[u] ? 0.8f : 0.3f;
        return;
    }
    case OPFOR_VK_RALLY: {
        /* XI: a failed rally removes the unit from play, so rallying is worth its chance of
           success less its chance of failure (a Wavering unit that does not rally stays) */
        score_position(s, u, s->geo[u].c, 0, 0, t);
        double p = 0.0;
        if (un->status == OPFOR_WAVERING && opfor_vk_query_rally_chance(s->vk, st, u, &p) == 0)
            t[OPFOR_HT_MORALE] += HEUR_RALLY * (float)(2.0 * p - 1.0);
        return;
    }
    case OPFOR_VK_FIGHT:
        t[OPFOR_HT_THREAT_TO] += 0.5f * s->melee[u];
        t[OPFOR_HT_MORALE] += 0.5f;
        return;
    case OPFOR_VK_HEAL: {
        int wounded = 0;
        for (int i = un->first; i < un->first + un->count; i++)
            wounded += (st->figures[i].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED)) ==
                       (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED);
        score_position(s, u, s->geo[u].c, 0, 0, t);
        t[OPFOR_HT_MORALE] += 0.3f * (float)(wounded ? wounded : 1);
        return;
    }
    case OPFOR_VK_LIMBER:
    case OPFOR_VK_UNLIMBER: {
        score_position(s, u, s->geo[u].c, 0, 0, t);
        float ng;
        int n = nearest_enemy(s, side, s->geo[u].c, s->geo[u].r, &ng);
        int in_range = n >= 0 && ng <= 1.5f * s->good[u];
        if (a->kind == OPFOR_VK_UNLIMBER)
            t[OPFOR_HT_ROLE] += in_range ? 0.8f : 0.1f;
        else
            t[OPFOR_HT_ROLE] += in_range ? -0.6f : 0.3f;
        return;
    }
    case OPFOR_VK_MOUNT:
    case OPFOR_VK_DISMOUNT: {
        score_position(s, u, s->geo[u].c, 0, 0, t);
        float ng;
        int n = nearest_enemy(s, side, s->geo[u].c, s->geo[u].r, &ng);
        int close = n >= 0 && ng <= 12.0f;
        float r = a->kind == OPFOR_VK_MOUNT ? (close ? -0.1f : 0.2f) : (close ? 0.1f : -0.3f);
        if (role == R_CAVALRY && a->kind == OPFOR_VK_DISMOUNT)
            r -= 0.3f;
        t[OPFOR_HT_ROLE] += r;
        return;
    }
    case OPFOR_VK_SPLIT:
        score_position(s, u, s->geo[u].c, 0, 0, t);
        t[OPFOR_HT_ROLE] -= 0.5f;
        return;
    case OPFOR_VK_MERGE:
        score_position(s, u, s->geo[u].c, 0, 0, t);
        t[OPFOR_HT_MORALE] += s->people[u] <= 3.0f ? 0.3f : -0.3f;
        return;
    case OPFOR_VK_TO_REAR:
        score_position(s, u, s->geo[u].c, 0, 0, t);
        t[OPFOR_HT_MORALE] -= 0.1f;
        return;
    default:
        return;
    }
}

static void score_reaction(sit_t *s, const opfor_action_t *a, float *t) {
    const opfor_vk_state_t *st = s->st;
    int u = st->charge.target, c = st->charge.charger;
    if (u >= s->nunits || c >= s->nunits)
        return;
    int role = s->role[u];
    int shaken = st->units[u].status == OPFOR_WAVERING;
    switch (a->kind) {
    case OPFOR_VK_REACT_STAND:
        t[OPFOR_HT_THREAT_FROM] -= 0.4f * s->melee[c];
        break;
    case OPFOR_VK_REACT_FIRE:
        t[OPFOR_HT_THREAT_TO] += 0.8f * harm(s, u, c, s->geo[u].c, 0);
        t[OPFOR_HT_THREAT_FROM] -= 0.4f * s->melee[c];
        break;
    case OPFOR_VK_REACT_FLEE:
        /* only a run gets clear of the charge; an advance or a crawl away is still caught */
        if (opfor_vk_flight_kind(a->sub) == OPFOR_VK_RUN)
            t[OPFOR_HT_THREAT_FROM] -= 0.1f * s->melee[c];
        t[OPFOR_HT_MORALE] +=
            shaken || role == R_HQ || role == R_SUPPLY || role == R_GUN ? 1.0f : -0.8f;
        break;
    case OPFOR_VK_REACT_COUNTER:
        t[OPFOR_HT_THREAT_TO] += 0.5f * 1.3f * s->melee[u] * s->value[c];
        t[OPFOR_HT_THREAT_FROM] -= 0.3f * s->melee[c];
        t[OPFOR_HT_ROLE] += role == R_CAVALRY ? 0.4f : 0.0f;
        break;
    default:
        break;
    }
}

static void score_control(const sit_t *s, const opfor_action_t *a, float *t) {
    (void)s;
    if (a->target != OPFOR_ACTION_NONE)
        t[OPFOR_HT_THREAT_TO] += 1.0f;
    else if (a->flags & OPFOR_VK_AF_MOVE)
        t[OPFOR_HT_THREAT_TO] += 0.4f;
    else if (a->flags & OPFOR_VK_AF_SELF) /* harms one of theirs, at worse odds than a shot */
        t[OPFOR_HT_THREAT_TO] += 0.6f;
}

static void score_one(sit_t *s, const opfor_action_t *a, opfor_heur_score_t *out) {
    float t[OPFOR_HT_COUNT] = {0};
    switch (s->st->phase) {
    case OPFOR_VK_PH_SELECT_UNIT:
        if (a->kind == OPFOR_VK_SELECT_UNIT && a->unit < s->nunits)
            score_select(s, a->unit, t);
        break;
    case OPFOR_VK_PH_ACTION:
        score_action(s, a, t);
        break;
    case OPFOR_VK_PH_REACTION:
        score_reaction(s, a, t);
        break;
    case OPFOR_VK_PH_CONTROL:
        score_control(s, a, t);
        break;
    default:
        break;
    }
    out->total = 0.0;
    for (int i = 0; i < OPFOR_HT_COUNT; i++) {
        out->term[i] = s->w->term[i] * (double)t[i];
        out->total += out->term[i];
    }
}

/* ---------------------------------------------------------------- public calls */

int opfor_heur_score_all(const opfor_heur_t *h, const opfor_game_t *g, const void *state,
                         const opfor_action_t *acts, int n, opfor_heur_score_t *out) {
    sit_t s;
    if (!acts || !out || n < 0 || read_situation(&s, h, g, state, 0) != 0 || s.side < 0)
        return OPFOR_EINVAL;
    for (int i = 0; i < n; i++)
        score_one(&s, &acts[i], &out[i]);
    return 0;
}

int opfor_heur_score(const opfor_heur_t *h, const opfor_game_t *g, const void *state,
                     const opfor_action_t *a, opfor_heur_score_t *out) {
    return opfor_heur_score_all(h, g, state, a, 1, out);
}

/* Index of the best of n actions scored in situation s (ties: first). */
static int best_of(sit_t *s, const opfor_action_t *acts, int n, opfor_heur_score_t *best) {
    int k = 0;
    opfor_heur_score_t b, x;
    for (int i = 0; i < n; i++) {
        score_one(s, &acts[i], &x);
        if (i == 0 || x.total > b.total + 1e-12) {
            b = x;
            k = i;
        }
    }
    if (best)
        *best = b;
    return k;
}

int opfor_heur_best(const opfor_heur_t *h, const opfor_game_t *g, const void *state,
                    const opfor_action_t *acts, int n, opfor_heur_score_t *best) {
    sit_t s;
    if (!acts || n < 1 || read_situation(&s, h, g, state, 0) != 0 || s.side < 0)
        return OPFOR_EINVAL;
    return best_of(&s, acts, n, best);
}

int opfor_heur_value(const opfor_heur_t *h, const opfor_game_t *g, const void *state,
                     double *values) {
    if (!g || !state || !values || g->rs != &opfor_viktoria_ruleset || !g->ctx)
        return OPFOR_EINVAL;
    const opfor_heur_weights_t *w = h && h->w ? h->w : &opfor_heur_default_weights;
    const opfor_vk_rs_state_t *rs = state;
    const opfor_vk_state_t *st = &rs->vk;
    const opfor_vk_ctx_t *vk = opfor_vk_rs_engine(g->ctx);
    const opfor_scenario_t *sc = opfor_vk_ctx_scenario(vk);
    double v[2] = {0.0, 0.0};
    uint8_t live[OPFOR_MAX_UNITS];
    for (int u = 0; u < st->nunits; u++) {
        live[u] = (uint8_t)opfor_vk_unit_in_play(st, u);
        const opfor_unit_t *un = &st->units[u];
        if (!live[u] || un->side > 1)
            continue;
        double sv = 0.0;
        int equip = 0, crew = 0;
        for (int i = un->first; i < un->first + un->count; i++) {
            const opfor_figure_t *f = &st->figures[i];
            if (!opfor_vk_query_fig_present(st, i))
                continue;
            if (f->flags & OPFOR_FIG_EQUIPMENT) {
                equip = 1;
                continue;
            }
            crew = 1;
            int q = f->quality < OPFOR_Q_COUNT ? f->quality : OPFOR_Q_SOLDIER;
            sv += w->figure * Q_VALUE[q] * ((f->flags & OPFOR_FIG_WOUNDED) ? w->wounded : 1.0);
        }
        if (equip && crew)
            sv += w->equipment;
        if (!(un->flags & OPFOR_UNIT_GENERAL))
            sv += w->unit;
        if (un->status == OPFOR_WAVERING)
            sv -= w->wavering;
        v[un->side] += sv;
    }
    for (int o = 0; o < sc->nobjectives; o++) {
        const opfor_objective_t *ob = &sc->objectives[o];
        int held[2] = {0, 0};
        float near[2] = {FAR, FAR};
        float r2 = ob->radius * ob->radius;
        for (int i = 0; i < st->nfigures; i++) {
            const opfor_figure_t *f = &st->figures[i];
            int u = f->unit;
            if (u >= st->nunits || !live[u] || !opfor_vk_query_fig_present(st, i) ||
                (f->flags & OPFOR_FIG_EQUIPMENT) || (st->units[u].flags & OPFOR_UNIT_GENERAL))
                continue;
            int sd = st->units[u].side & 1;
            float d2 = opfor_dist2(f->pos, ob->pos);
            if (d2 <= r2)
                held[sd] = 1;
            if (d2 < near[sd])
                near[sd] = d2;
        }
        double pts = ob->points > 0 ? ob->points : 1;
        for (int sd = 0; sd < 2; sd++) {
            if (held[sd] && !held[1 - sd])
                v[sd] += w->objective * pts;
            double close = 1.0 - sqrtf(near[sd]) / 72.0;
            if (close > 0.0)
                v[sd] += w->approach * pts * close;
        }
    }
    double d = v[0] - v[1];
    double k = w->value_scale > 0.0 ? w->value_scale : 1.0;
    double x = d / ((d < 0 ? -d : d) + k);
    values[0] = x;
    values[1] = -x;
    return 0;
}

const char *opfor_heur_reason(const opfor_heur_score_t *s, int max, char *buf, size_t n) {
    _Static_assert(OPFOR_HT_COUNT <= OPFOR_ORDER_MAX_TERMS, "every term fits an order");
    opfor_order_term_t t[OPFOR_HT_COUNT];
    memset(t, 0, sizeof t);
    for (int i = 0; i < OPFOR_HT_COUNT; i++) {
        opfor_text_copy(t[i].label, sizeof t[i].label, TERM_LABEL[i]);
        t[i].value = s->term[i];
    }
    return opfor_order_terms_text(t, OPFOR_HT_COUNT, max, buf, n);
}

/* ---------------------------------------------------------------- evaluator hooks */

static int ev_evaluate(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                       double *values) {
    (void)scratch;
    return opfor_heur_value(user, g, state, values);
}

static int ev_prior(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                    const opfor_action_t *acts, int n, float *prior) {
    (void)scratch;
    const opfor_heur_t *h = user;
    sit_t s;
    if (read_situation(&s, h, g, state, h->fast_playouts) != 0 || s.side < 0)
        return OPFOR_EINVAL;
    for (int i = 0; i < n; i++) {
        opfor_heur_score_t x;
        score_one(&s, &acts[i], &x);
        prior[i] = (float)x.total;
    }
    return 0;
}

static int ev_policy(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                     const opfor_action_t *acts, int n, opfor_rng_t *rng) {
    (void)scratch;
    const opfor_heur_t *h = user;
    if (n <= 1)
        return 0;
    if (h->epsilon > 0.0 && opfor_rng_unit(rng) < h->epsilon)
        return (int)opfor_rng_below(rng, (uint32_t)n);
    sit_t s;
    if (read_situation(&s, h, g, state, h->fast_playouts) != 0 || s.side < 0)
        return -1;
    return best_of(&s, acts, n, NULL);
}

void opfor_heur_evaluator(opfor_evaluator_t *ev, const opfor_heur_t *h) {
    memset(ev, 0, sizeof *ev);
    ev->name = "planner";
    ev->user = h;
    ev->scratch_size = 0;
    ev->evaluate = ev_evaluate;
    ev->prior = ev_prior;
    ev->policy = ev_policy;
}

/* The planner's defaults as opfor_heur_init sets them, for the static evaluator. */
static const opfor_heur_t DEFAULT_HEUR = {
    .w = &opfor_heur_default_weights,
    .epsilon = 0.1,
    .fast_playouts = 1,
};

const opfor_evaluator_t opfor_heur_default_evaluator = {
    .name = "planner",
    .user = &DEFAULT_HEUR,
    .scratch_size = 0,
    .evaluate = ev_evaluate,
    .prior = ev_prior,
    .policy = ev_policy,
};
