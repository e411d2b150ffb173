/* rulesets/splendid/ai_eval.c — A Splendid Victory!'s position value and action score
 * (docs/splendid.md 10.2) and the evaluator the search uses: the value in [-1, 1] weighs the
 * distance of each side to its half breakpoint (§The Determine Victory Phase, with the stands
 * the green markers and declared fire will cost), the surviving stands by worth and quality,
 * and the threat each side's units make on the other's (musket and gun fire in range, a charge
 * within its allowance whose hand-to-hand favours the charger); a settled position (a side past
 * its half breakpoint) is worth its result, and the search sees an open one at half that value,
 * below the least victory. The action score is a cheap
 * one-look judgement of an action (no dice thrown) used as the prior, in the playouts and in
 * the orders' reasons. Nothing here allocates; the scratch is unused.
 */
#include <math.h>
#include <string.h>

#include "ai_int.h"

#ifndef SV_AI_OPEN_SCALE
#define SV_AI_OPEN_SCALE                                                                           \
    0.5 /* the search's value of an undecided position: at most a minor win                        \
         */
#endif
#ifndef SV_AI_THREAT_W
#define SV_AI_THREAT_W 2.0 /* the threat term's weight in the value */
#endif

/* The gun's fire dice at distance d before the target's modifiers (§To fire artillery). */
static int gun_dice(const sv_unit_t *u, float d) {
    static const int table[3][4] = {{1, 0, -1, -1}, {2, 1, 0, -1}, {4, 2, 1, 0}};
    int band = d <= 10.0f ? 0 : d <= 20.0f ? 1 : d <= 40.0f ? 2 : 3;
    int k = u->kind - SV_FRAME;
    return k >= 0 && k < 3 ? table[k][band] : 0;
}

/* What unit u threatens to do to enemy e at distance d in the next fire or charge, in stands
 * of e's worth (a cheap reading: no line of sight, no zone). */
static double threat(const sv_ctx_t *c, const sv_unit_t *u, const sv_unit_t *e, float d) {
    double hits = 0.0;
    if (d < 0.2f) /* in contact: the fight is counted as pending losses */
        return 0.0;
    if (sv_is_art(u)) {
        if (u->form == SV_UNLIMBERED) {
            int k = gun_dice(u, d);
            if (k > 0)
                hits = k * sv_ai_p_fire(c, u);
        }
    } else if (sv_muskets(u) > 0 && u->form != SV_COLUMN && d <= 7.0f) {
        int all = u->form == SV_OPEN || u->form == SV_DEFBLOCK;
        int k = all ? sv_muskets(u) : (sv_muskets(u) < u->files ? sv_muskets(u) : u->files);
        hits = k * sv_ai_p_fire(c, u);
    }
    float reach = sv_charge_allow(u);
    if (reach > 0.0f && d <= reach) {
        double edge = sv_ai_melee_hits(c, u, e, 0) - sv_ai_melee_hits(c, e, u, 0);
        double pc = c->model.charge_need[sv_ai_quality(c, u)] / 6.0;
        if (edge * pc > hits)
            hits = edge * pc;
    }
    return 0.5 * hits * sv_ai_stand_worth(e);
}

int sv_ai_decided(const sv_ctx_t *c, const sv_state_t *s, double *v) {
    if (s->phase == SV_P_OVER) {
        double r[2];
        sv_engine_returns(s, r);
        *v = r[0];
        return 1;
    }
    if (!c->opt.breakpoints)
        return 0;
    int over[2], third[2];
    for (int side = 0; side < 2; side++) {
        int q, h;
        opfor__sv_breakpoints(s->stands0[side], &q, &third[side], &h);
        over[side] = s->tally[side] > h;
    }
    if (over[0] == over[1])
        return 0;
    /* the tally never falls: this turn's victory phase gives the other side the victory
     * (§The Determine Victory Phase), splendid while its own tally is within its third */
    int w = over[0] ? 1 : 0;
    double r = s->tally[w] > third[w] ? 0.5 : 1.0;
    *v = w == 0 ? r : -r;
    return 1;
}

double sv_ai_value(const sv_ctx_t *c, const sv_state_t *s, double *terms) {
    double pend[2] = {0, 0}, mat[2] = {0, 0}, thr[2] = {0, 0};
    double dv;
    if (sv_ai_decided(c, s, &dv)) {
        if (terms)
            terms[0] = terms[1] = terms[2] = terms[3] = 0.0;
        return dv;
    }
    int fire = s->phase == SV_P_FIRE || s->phase == SV_P_FIRE_ROLL;
    for (int i = 0; i < s->nunits; i++) {
        const sv_unit_t *u = &s->u[i];
        if (!sv_alive(u))
            continue;
        double m = u->markers;
        if (fire) /* declared fire still to be thrown */
            for (int j = 0; j < s->nunits; j++)
                if (s->u[j].target == i && (s->u[j].flags & SV_F_DECIDED) &&
                    s->u[j].side != u->side)
                    m += sv_fire_dice(c, s, j, i) * sv_ai_p_fire(c, &s->u[j]);
        if (s->phase != SV_P_OVER) /* hand-to-hand to come or under way: its expected hits */
            for (int j = 0; j < s->nunits; j++) {
                const sv_unit_t *e = &s->u[j];
                if (e->side != u->side && sv_alive(e) && sv_unit_near(c, u, e, 0.2f) &&
                    sv_in_contact(c, e, u) &&
                    !(s->phase == SV_P_MELEE && (e->flags & SV_F_DECIDED)))
                    m += sv_ai_melee_hits(c, e, u, sv_outflanks(c, e, u));
            }
        double lost = m * 0.5;
        if (lost > u->n)
            lost = u->n;
        double w = sv_ai_stand_worth(u) * (1.0 + 0.15 * (sv_ai_quality(c, u) - 1));
        pend[u->side] += lost;
        mat[u->side] += w * (u->n - lost);
        if (sv_is_cmd(u))
            continue;
        double best = 0.0;
        for (int j = 0; j < s->nunits; j++) {
            const sv_unit_t *e = &s->u[j];
            if (e->side == u->side || !sv_alive(e) || !sv_unit_near(c, u, e, 24.0f))
                continue;
            double t = threat(c, u, e, sv_unit_dist(c, u, e));
            if (t > best)
                best = t;
        }
        thr[u->side] += best;
    }
    double lossf[2];
    for (int side = 0; side < 2; side++) {
        int q, t, h;
        opfor__sv_breakpoints(s->stands0[side], &q, &t, &h);
        lossf[side] = (s->tally[side] + pend[side]) / (double)(h + 1);
    }
    double tot = mat[0] + mat[1];
    double b = lossf[1] - lossf[0];
    double m = tot > 0.0 ? (mat[0] - mat[1]) / tot : 0.0;
    double k = (thr[0] - thr[1]) / (1.0 + 0.25 * (s->stands0[0] + s->stands0[1]));
    double p = (pend[1] - pend[0]) / (1.0 + 0.25 * (s->stands0[0] + s->stands0[1]));
    if (terms) {
        terms[0] = 1.4 * b;
        terms[1] = 0.6 * m;
        terms[2] = SV_AI_THREAT_W * k;
        terms[3] = p;
    }
    return tanh(1.4 * b + 0.6 * m + SV_AI_THREAT_W * k);
}

/* ---------------------------------------------------------------- the action score */

/* What unit m (of side m->side, standing where it would stand) threatens and suffers: the most
 * it threatens on one enemy, less the sum of the enemy's threats on it, and the distance to the
 * nearest enemy it could hurt (its prey). */
static double stance(const sv_ctx_t *c, const sv_state_t *s, int ui, const sv_unit_t *m,
                     float *prey) {
    double out = 0.0, in = 0.0;
    *prey = 1e30f;
    for (int j = 0; j < s->nunits; j++) {
        const sv_unit_t *e = &s->u[j];
        if (j == ui || e->side == m->side || !sv_alive(e))
            continue;
        float d = sv_unit_dist(c, m, e);
        if (d > 26.0f) {
            if (d < *prey && !sv_is_cmd(m))
                *prey = d;
            continue;
        }
        double t = threat(c, m, e, d);
        if (t > out)
            out = t;
        in += threat(c, e, m, d);
        int hurts = sv_muskets(m) > 0 || sv_is_art(m) ||
                    sv_ai_melee_hits(c, m, e, 0) > sv_ai_melee_hits(c, e, m, 0);
        if (hurts && d < *prey && !sv_is_cmd(m))
            *prey = d;
    }
    return out - in;
}

/* Score of moving unit ui to m (its place after the move). */
static double move_score(const sv_ctx_t *c, const sv_state_t *s, int ui, const sv_unit_t *m) {
    const sv_unit_t *u = &s->u[ui];
    float p0, p1;
    double sc = stance(c, s, ui, m, &p1) - stance(c, s, ui, u, &p0);
    if (p0 < 1e29f && p1 < 1e29f) {
        float gap = sv_is_art(u) ? 12.0f : sv_muskets(u) > 0 ? 4.0f : 1.0f;
        float a0 = p0 > gap ? p0 - gap : 0.0f, a1 = p1 > gap ? p1 - gap : 0.0f;
        sc += (a0 - a1) / 20.0;
    }
    if (sv_is_cmd(u)) { /* a commander keeps units in command and out of reach */
        int n0 = 0, n1 = 0;
        float r = (float)u->cmd10 / 10.0f;
        for (int i = 0; i < s->nunits; i++)
            if (i != ui && s->u[i].side == u->side && sv_alive(&s->u[i]) && !sv_is_cmd(&s->u[i])) {
                n0 += sv_unit_near(c, u, &s->u[i], r);
                n1 += sv_unit_near(c, m, &s->u[i], r);
            }
        sc += 0.15 * (n1 - n0);
    }
    return sc;
}

static double charge_score(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a) {
    const sv_unit_t *u = &s->u[a->unit], *t = &s->u[a->target];
    double p = sv_ai_p_charge(c, s, a->unit);
    int flank = sv_ai_from_behind(t, u);
    double mine = sv_ai_melee_hits(c, u, t, flank), theirs = sv_ai_melee_hits(c, t, u, 0);
    if (sv_is_mounted(c, u) && sv_is_foot(t) && t->n >= 2 && t->form != SV_DEFBLOCK) {
        sv_unit_t b = *t; /* it may form a hasty defensive block (§Reactions 4) */
        b.form = SV_DEFBLOCK;
        double m2 = sv_ai_melee_hits(c, u, &b, flank);
        if (m2 < mine)
            mine = m2 + 0.5; /* the block costs it markers of its own */
    }
    if (sv_is_foot(t) && sv_muskets(t) > 0 && !(t->flags & SV_F_RED))
        theirs += 0.5 * (sv_muskets(t) < t->files ? sv_muskets(t) : t->files) * sv_ai_p_fire(c, t);
    double edge = (mine - theirs) * sv_ai_stand_worth(t);
    double sc = p * edge * 0.6 - (1.0 - p) * 0.1;
    if (a->sub)
        sc = sc * 0.5 - 0.15; /* an extended charge: a marker and a chance to fall short */
    return sc;
}

static double react_score(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a) {
    const sv_unit_t *t = &s->u[s->charged], *ch = &s->u[s->charger];
    double mine = sv_ai_melee_hits(c, t, ch, 0), theirs = sv_ai_melee_hits(c, ch, t, 0);
    int horse = sv_is_mounted(c, ch);
    switch (a->kind) {
    case SV_A_HOLD:
        return 0.2 + 0.2 * (mine - theirs);
    case SV_A_HASTY:
        if (!horse)
            return -0.5;
        return 0.6 + 0.3 * sv_pikes(t) + (s->charge_far ? 0.3 : 0.0);
    case SV_A_DEFFIRE: {
        int all = t->form == SV_OPEN || t->form == SV_DEFBLOCK;
        int k = all ? sv_muskets(t) : (sv_muskets(t) < t->files ? sv_muskets(t) : t->files);
        return 0.3 + 0.4 * k * sv_ai_p_fire(c, t) - (horse && t->n >= 2 ? 0.4 : 0.0);
    }
    case SV_A_RECOIL:
        return theirs > mine ? 0.4 + 0.2 * (theirs - mine) : 0.0;
    case SV_A_EVADE:
        return theirs > mine ? 0.6 : 0.1;
    case SV_A_ABOUTFACE:
        return sv_ai_from_behind(t, ch) ? 0.9 : -1.0;
    default:
        return 0.0;
    }
}

double sv_ai_score(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a,
                   const char **why) {
    const char *w = "no strong reason";
    double sc = 0.0;
    const sv_unit_t *u = a->unit < s->nunits ? &s->u[a->unit] : NULL;
    switch (a->kind) {
    case SV_A_FIRE: {
        if (!u || a->target >= s->nunits)
            break;
        const sv_unit_t *t = &s->u[a->target];
        double hits = sv_fire_dice(c, s, a->unit, a->target) * sv_ai_p_fire(c, u);
        sc = 0.5 + 0.5 * hits * sv_ai_stand_worth(t) + (t->markers & 1 ? 0.15 : 0.0);
        w = "expected hits";
        break;
    }
    case SV_A_HOLD:
        sc = s->phase == SV_P_REACT ? react_score(c, s, a) : 0.0;
        w = s->phase == SV_P_REACT ? "stand and fight" : "nothing worth the powder";
        break;
    case SV_A_JOIN:
    case SV_A_HOLDBACK: {
        int e;
        float d;
        if (!u || !sv_join_dist(c, s, a->unit, &e, &d))
            break;
        double edge = sv_ai_melee_hits(c, u, &s->u[e], 0) - sv_ai_melee_hits(c, &s->u[e], u, 0);
        sc = a->kind == SV_A_JOIN ? 0.3 + 0.5 * edge : 0.3;
        w = "hand-to-hand edge";
        break;
    }
    case SV_A_ATTACK:
        if (!u || a->target >= s->nunits)
            break;
        sc = sv_ai_melee_hits(c, u, &s->u[a->target], sv_outflanks(c, u, &s->u[a->target])) *
                 sv_ai_stand_worth(&s->u[a->target]) +
             (s->u[a->target].markers & 1 ? 0.2 : 0.0);
        w = "expected hits";
        break;
    case SV_A_KEEP:
    case SV_A_RETHROW:
        if (!u || u->target >= s->nunits)
            break;
        sc = a->kind == SV_A_KEEP
                 ? 0.0
                 : sv_ai_melee_hits(c, u, &s->u[u->target], sv_outflanks(c, u, &s->u[u->target])) -
                       s->hits;
        w = "hits against the mean";
        break;
    case SV_A_CHARGE:
        sc = charge_score(c, s, a);
        w = "charge edge";
        break;
    case SV_A_MOVE:
    case SV_A_DISENGAGE: {
        sv_unit_t m = *u;
        m.x = a->x;
        m.y = a->y;
        m.fx = a->x2;
        m.fy = a->y2;
        sc = move_score(c, s, a->unit, &m);
        opfor_pt_t r[4];
        sv_rect(c, &m, r);
        if (!sv_on_table(c, r)) { /* every stand with a corner off the table is lost */
            sc = -2.0;
            w = "off the table: its stands would be lost";
            break;
        }
        if (a->kind == SV_A_DISENGAGE) {
            int e;
            float d;
            e = sv_ai_nearest_enemy(c, s, u, &d);
            double edge =
                e >= 0 ? sv_ai_melee_hits(c, u, &s->u[e], 0) - sv_ai_melee_hits(c, &s->u[e], u, 0)
                       : 0.0;
            sc = -0.2 - 0.4 * edge;
            w = "losing fight";
        } else {
            w = "distance to the enemy";
        }
        break;
    }
    case SV_A_FORM: {
        float de;
        sv_ai_nearest_enemy(c, s, u, &de);
        int horse_near = sv_ai_horse_threat(c, s, a->unit);
        if (a->sub == SV_DEFBLOCK) {
            sc = horse_near && u->n >= 2 ? 0.7 + 0.2 * sv_pikes(u) : -0.4;
            w = "horse within reach";
        } else if (u->form == SV_DEFBLOCK) {
            sc = horse_near ? -0.5 : (a->sub == SV_BLOCK || a->sub == SV_LINE ? 0.35 : 0.0);
            w = "no horse near";
        } else if (u->form == SV_COLUMN) {
            sc = de < 24.0f ? (a->sub == SV_LINE || a->sub == SV_BLOCK ? 0.6 : 0.2) : 0.0;
            w = "enemy near the column";
        } else if (a->sub == SV_COLUMN) {
            sc = de > 30.0f ? 0.15 : -0.5;
            w = "march";
        } else if (a->sub == SV_LINE && sv_muskets(u) > 0 && !horse_near && de < 12.0f) {
            sc = 0.05 * (sv_muskets(u) - (u->files < sv_muskets(u) ? u->files : sv_muskets(u)));
            w = "more muskets in the front rank";
        } else {
            sc = -0.1;
        }
        break;
    }
    case SV_A_LIMBER: {
        float de;
        sv_ai_nearest_enemy(c, s, u, &de);
        float range = u->kind == SV_FRAME ? 20.0f : u->kind == SV_GUN ? 40.0f : 60.0f;
        if (a->sub == 0) {
            opfor_vec_t f = {a->x2, a->y2};
            sc = de <= range ? 0.5 + 0.1 * (f.x * u->fx + f.y * u->fy < 0.99f) : 0.0;
            w = "enemy in range";
        } else {
            sc = de > range ? 0.2 : -0.5;
            w = "enemy out of range";
        }
        break;
    }
    case SV_A_MOUNT: {
        float de;
        sv_ai_nearest_enemy(c, s, u, &de);
        sc = a->sub ? (de > 12.0f ? 0.2 : -0.2) : (de < 9.0f ? 0.3 : -0.2);
        w = "distance to the enemy";
        break;
    }
    case SV_A_PROLONG:
        sc = -0.1;
        break;
    case SV_A_RETREAT:
        sc = -0.8;
        w = "a stand lost to the tally";
        break;
    case SV_A_DONE:
        sc = 0.02;
        w = "every unit has its orders";
        break;
    case SV_A_CONCEDE:
        sc = -5.0;
        w = "the day is lost";
        break;
    case SV_A_RECOIL:
    case SV_A_EVADE:
    case SV_A_HASTY:
    case SV_A_ABOUTFACE:
    case SV_A_DEFFIRE:
        sc = react_score(c, s, a);
        w = "the reaction's odds";
        break;
    default:
        break;
    }
    if (why)
        *why = w;
    return sc;
}

/* ---------------------------------------------------------------- the evaluator */

#define GC(g) ((const sv_ctx_t *)(g)->ctx)

static int ev_evaluate(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                       double *values) {
    (void)user;
    (void)scratch;
    /* on the returns' scale: a position not yet decided is worth less than the least victory
     * (a minor one, 0.5), so the search never prefers a lead to the win it could take */
    double v;
    if (!sv_ai_decided(GC(g), state, &v))
        v = SV_AI_OPEN_SCALE * sv_ai_value(GC(g), state, NULL);
    values[0] = v;
    values[1] = -v;
    return 0;
}

static int ev_prior(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                    const opfor_action_t *acts, int n, float *prior) {
    (void)user;
    (void)scratch;
    for (int i = 0; i < n; i++)
        prior[i] = (float)sv_ai_score(GC(g), state, &acts[i], NULL);
    return 0;
}

/* Playouts: the best-scored of a few actions drawn at random (the end of the phase always
 * among them), one time in five a uniform draw; never the concession. */
static int ev_policy(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                     const opfor_action_t *acts, int n, opfor_rng_t *rng) {
    (void)user;
    (void)scratch;
    /* a playout never concedes (listed last when offered): a player who has not conceded plays
     * on, and a uniform draw of it ended one playout in so many as a loss for no reason */
    if (n >= 2 && acts[n - 1].kind == SV_A_CONCEDE)
        n--;
    if (n <= 1)
        return 0;
    if (opfor_rng_below(rng, 5) == 0)
        return (int)opfor_rng_below(rng, (uint32_t)n);
    const sv_ctx_t *c = GC(g);
    int best = -1;
    double bs = -1e30;
    for (int k = 0; k < 5; k++) {
        int i = (int)opfor_rng_below(rng, (uint32_t)n);
        double sc = sv_ai_score(c, state, &acts[i], NULL);
        if (sc > bs) {
            bs = sc;
            best = i;
        }
    }
    for (int i = n - 2 < 0 ? 0 : n - 2; i < n; i++) /* the end of the phase is listed last */
        if (acts[i].kind == SV_A_DONE && sv_ai_score(c, state, &acts[i], NULL) > bs)
            best = i;
    return best;
}

const opfor_evaluator_t opfor__sv_evaluator = {
    .name = "splendid",
    .user = NULL,
    .scratch_size = 0,
    .evaluate = ev_evaluate,
    .prior = ev_prior,
    .policy = ev_policy,
};
