/* rulesets/splendid/engine_phase.c — the simultaneous phases of a game turn (§The Game Turn
 * Sequence; docs/splendid.md 3.1): firing (declared by the initiative side then the other on
 * one picture, R-6, then all dice; bounce-through), hand-to-hand (join-ins and hold back,
 * the marker on every unit in contact, attacks and re-throws, R-7), removing losses (by unit
 * size, the non-initiative side first, routs, retreats) and the victory phase (the quarter,
 * third and half, R-20, R-21), and the step machine that runs them between decisions.
 */
#include <string.h>

#include "engine_int.h"

static int quality(const sv_ctx_t *c, const sv_unit_t *u) {
    return c->opt.unit_quality ? u->quality : 1;
}

/* ---------------------------------------------------------------- firing */

void sv_start_fire(const sv_ctx_t *c, sv_state_t *s) {
    (void)c;
    for (int i = 0; i < s->nunits; i++) {
        s->u[i].flags &= (uint16_t)~SV_F_DECIDED;
        s->u[i].target = 0xFF;
    }
    s->phase = SV_P_PIVOT; /* every pivot before firing first, then the declarations */
    s->side = s->init;
}

static int can_fire_any(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int u) {
    for (int t = 0; t < s->nunits; t++)
        if (sv_fire_dice_g(c, s, g, u, t) > 0)
            return 1;
    return 0;
}

/* §Bounce-Through: the next closest eligible unit over 20" to 40" from a regular or heavy
 * gun, friend or foe, the first target ignored as if absent; -1 when there is none. */
static int bounce_target(const sv_ctx_t *c, const sv_state_t *s, int g, int first) {
    const sv_unit_t *u = &s->u[g];
    opfor_pt_t ru[4];
    sv_rect(c, u, ru);
    int best = -1;
    float bd = 1e30f;
    opfor_vec_t f = opfor_pt(u->fx, u->fy);
    opfor_pt_t z[4] = {opfor_pt(ru[0].x + f.x * 40.0f, ru[0].y + f.y * 40.0f),
                       opfor_pt(ru[1].x + f.x * 40.0f, ru[1].y + f.y * 40.0f), ru[1], ru[0]};
    for (int t = 0; t < s->nunits; t++) {
        if (t == g || t == first || !sv_alive(&s->u[t]))
            continue;
        opfor_pt_t rt[4];
        sv_rect(c, &s->u[t], rt);
        float d = sv_rect_dist(ru, rt);
        if (d <= 20.0f || d > 40.0f || d >= bd || !sv_rect_overlap(z, rt, 1e-3f))
            continue;
        opfor_pt_t to = opfor_pt((rt[0].x + rt[2].x) * 0.5f, (rt[0].y + rt[2].y) * 0.5f);
        int blocked = 0;
        for (int i = 0; i < s->nunits && !blocked; i++) {
            if (i == g || i == t || i == first || !sv_alive(&s->u[i]))
                continue;
            opfor_pt_t r[4];
            sv_rect(c, &s->u[i], r);
            blocked = sv_seg_hits_rect(opfor_pt(u->x, u->y), to, r, 0.01f);
        }
        if (!blocked) {
            best = t;
            bd = d;
        }
    }
    return best;
}

void sv_resolve_fire(const sv_ctx_t *c, sv_state_t *s) {
    int dice[SV_MAX_UNITS];
    sv_geo_t g;
    sv_geo_build(c, s, &g);
    /* every firing is judged on the one picture before any die is thrown */
    for (int i = 0; i < s->nunits; i++)
        dice[i] = s->u[i].target != 0xFF ? sv_fire_dice_g(c, s, &g, i, s->u[i].target) : 0;
    int add[SV_MAX_UNITS];
    memset(add, 0, sizeof add);
    for (int i = 0; i < s->nunits; i++) {
        sv_unit_t *u = &s->u[i];
        if (dice[i] <= 0)
            continue;
        int need = c->model.fire_need[quality(c, u)];
        int hits = sv_roll(s, dice[i], need);
        add[u->target] += hits;
        u->flags |= SV_F_RED;
        if (u->kind == SV_GUN || u->kind == SV_HEAVYGUN) { /* never frame guns */
            int b = bounce_target(c, s, i, u->target), misses = dice[i] - hits;
            if (b >= 0 && misses > 0) { /* terrain's modifiers only; quality applies */
                int bd = misses;
                if (c->table.nfeatures)
                    bd += sv_terrain_fire_dice(c, g.r[b]);
                if (bd > 0)
                    add[b] += sv_roll(s, bd, need);
            }
        }
    }
    for (int i = 0; i < s->nunits; i++) {
        int m = s->u[i].markers + add[i];
        s->u[i].markers = (uint8_t)(m > 255 ? 255 : m);
        s->u[i].target = 0xFF;
    }
}

/* ---------------------------------------------------------------- hand-to-hand */

static int join_dist(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int ui, int *enemy,
                     float *dist) {
    const sv_unit_t *u = &s->u[ui];
    if (!sv_alive(u) || u->n < 2 || sv_is_art(u) || sv_is_cmd(u) || u->form == SV_DEFBLOCK ||
        u->form == SV_COLUMN || g->contact[ui])
        return 0;
    float tol = c->opt.contact_tolerance;
    for (int e = 0; e < s->nunits; e++) {
        const sv_unit_t *E = &s->u[e];
        if (E->side == u->side || !sv_alive(E) ||
            !sv_rect_near_gap(g->r[ui], g->r[e], sv_box_gap(g->box[ui], g->box[e]), 3.0f + tol))
            continue;
        /* E is already in contact with a friend of u */
        if (!(g->contact[e] & ~(1u << ui)))
            continue;
        /* straight forward up to 3", touching nothing else on the way */
        sv_unit_t m = *u;
        for (int step = 1; step <= 60; step++) {
            float d = 0.05f * (float)step;
            m.x = u->x + u->fx * d;
            m.y = u->y + u->fy * d;
            opfor_pt_t rm[4];
            sv_rect(c, &m, rm);
            if (!sv_on_table(c, rm))
                break;
            if (sv_rect_near(rm, g->r[e], tol)) {
                int clear = 1;
                for (int k = 0; k < s->nunits && clear; k++)
                    if (k != ui && k != e && sv_alive(&s->u[k]) && sv_rect_near(rm, g->r[k], tol))
                        clear = 0;
                if (!clear)
                    break;
                *enemy = e;
                *dist = d;
                return 1;
            }
            int hit = 0;
            for (int k = 0; k < s->nunits && !hit; k++)
                if (k != ui && sv_alive(&s->u[k]) && sv_rect_near(rm, g->r[k], tol))
                    hit = 1;
            if (hit)
                break;
        }
    }
    return 0;
}

int sv_join_dist(const sv_ctx_t *c, const sv_state_t *s, int ui, int *enemy, float *dist) {
    sv_geo_t g;
    sv_geo_build(c, s, &g);
    return join_dist(c, s, &g, ui, enemy, dist);
}

static void start_join(const sv_ctx_t *c, sv_state_t *s) {
    (void)c;
    for (int i = 0; i < s->nunits; i++)
        s->u[i].flags &= (uint16_t)~SV_F_DECIDED;
    s->phase = SV_P_JOIN;
    s->side = s->init;
}

void sv_start_join(const sv_ctx_t *c, sv_state_t *s) {
    start_join(c, s);
}

void sv_after_join(const sv_ctx_t *c, sv_state_t *s) {
    /* one green marker on every unit in contact with an enemy unit */
    uint8_t hit[SV_MAX_UNITS];
    for (int i = 0; i < s->nunits; i++)
        hit[i] = sv_alive(&s->u[i]) && sv_engaged(c, s, i);
    for (int i = 0; i < s->nunits; i++) {
        if (hit[i] && s->u[i].markers < 255)
            s->u[i].markers++;
        s->u[i].flags &= (uint16_t) ~(SV_F_DECIDED | SV_F_RETHROWN);
    }
    s->phase = SV_P_MELEE;
    s->side = s->init;
}

/* The stands of u's attack i of k (§How do you resolve hand-to-hand combat?: a unit may split
 * its stands between the enemy units it touches): each stand type shared out as evenly as it
 * goes, the earlier attacks taking the odd ones. */
static void share(const sv_unit_t *u, int k, int i, int *first, int *second) {
    int f = (u->kind == SV_PM || u->kind == SV_FOOT) ? u->a : u->n, g = u->n - f;
    *first = f / k + (i < f % k);
    *second = g / k + (i < g % k);
}

/* The hits of u's attack i of k on t. */
static int attack_hits(const sv_ctx_t *c, sv_state_t *s, int ui, int ti, int k, int i) {
    const sv_unit_t *u = &s->u[ui], *t = &s->u[ti];
    int per = sv_outflanks(c, u, t) ? 2 : 1; /* §Can a unit be outflanked?: 2D6 a stand */
    int first, second;
    share(u, k, i, &first, &second);
    int hits = first > 0 ? sv_roll(s, first * per, sv_cv(c, u, 1, t)) : 0;
    if (second > 0)
        hits += sv_roll(s, second * per, sv_cv(c, u, 0, t));
    return hits;
}

static void add_markers(sv_unit_t *t, int hits) {
    int m = t->markers + hits;
    t->markers = (uint8_t)(m > 255 ? 255 : m);
}

/* Throws u's remaining attacks (s->split_left) in order; stops at a re-throw decision
 * (returns 1). */
static int next_attack(const sv_ctx_t *c, sv_state_t *s, int ui) {
    sv_unit_t *u = &s->u[ui];
    while (s->split_left) {
        int t = 0;
        while (!(s->split_left >> t & 1u))
            t++;
        s->split_left &= ~(1u << t);
        u->target = (uint8_t)t;
        int hits = attack_hits(c, s, ui, t, s->split_k, s->split_i);
        if (!(u->flags & SV_F_RETHROWN) && sv_in_command(c, s, ui)) { /* §Re-throws, R-7 */
            s->phase = SV_P_RETHROW;
            s->cur = (uint8_t)ui;
            s->side = u->side;
            s->hits = (uint8_t)hits;
            return 1;
        }
        add_markers(&s->u[t], hits);
        s->split_i++;
    }
    return 0;
}

int sv_attack(const sv_ctx_t *c, sv_state_t *s, int ui, int ti) {
    s->u[ui].flags |= SV_F_DECIDED;
    if (ti < 0) { /* split between every enemy unit in contact */
        uint32_t m = 0;
        int k = 0;
        for (int i = 0; i < s->nunits; i++)
            if (s->u[i].side != s->u[ui].side && sv_alive(&s->u[i]) &&
                sv_in_contact(c, &s->u[ui], &s->u[i])) {
                m |= 1u << i;
                k++;
            }
        s->split_left = m;
        s->split_k = (uint8_t)k;
    } else {
        s->split_left = 1u << ti;
        s->split_k = 1;
    }
    s->split_i = 0;
    return next_attack(c, s, ui);
}

void sv_rethrow(const sv_ctx_t *c, sv_state_t *s, int again) {
    int ui = s->cur;
    sv_unit_t *u = &s->u[ui];
    int hits = s->hits;
    if (again) {
        u->flags |= SV_F_RETHROWN;
        hits = attack_hits(c, s, ui, u->target, s->split_k, s->split_i); /* it stands */
    }
    add_markers(&s->u[u->target], hits);
    s->split_i++;
    s->phase = SV_P_MELEE;
    next_attack(c, s, ui);
}

/* Enemy units in contact with u, as a mask. */
static uint32_t contacts(const sv_ctx_t *c, const sv_state_t *s, int ui) {
    uint32_t m = 0;
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].side != s->u[ui].side && sv_alive(&s->u[i]) &&
            sv_in_contact(c, &s->u[ui], &s->u[i]))
            m |= 1u << i;
    return m;
}

/* ---------------------------------------------------------------- removing losses */

void sv_remove_losses(const sv_ctx_t *c, sv_state_t *s) {
    int maxn = 0;
    for (int i = 0; i < s->nunits; i++) {
        s->u[i].size4 = sv_alive(&s->u[i]) ? s->u[i].n : 0;
        if (s->u[i].size4 > maxn)
            maxn = s->u[i].size4;
    }
    for (int size = 1; size <= maxn; size++)
        for (int pass = 0; pass < 2; pass++) {
            int side = pass == 0 ? 1 - s->init : s->init; /* the non-initiative side first */
            for (int i = 0; i < s->nunits; i++) {
                sv_unit_t *u = &s->u[i];
                if (u->side != side || u->size4 != size || !sv_alive(u))
                    continue;
                int lose = u->markers / 2;
                u->markers = 0; /* a single leftover and any over-kill are discarded */
                if (lose == 0)
                    continue;
                uint32_t before = contacts(c, s, i);
                sv_remove(s, i, lose);
                if (!sv_alive(u))
                    continue;
                int rout = !sv_form_ok(u, u->form) || (c->opt.one_stand_rout && u->n == 1);
                for (int e = 0; e < s->nunits && !rout; e++) /* §Rout: keep every contact */
                    if ((before >> e & 1u) && sv_alive(&s->u[e]) && !sv_in_contact(c, u, &s->u[e]))
                        rout = 1;
                if (rout)
                    sv_remove(s, i, u->n);
            }
        }
    for (int i = 0; i < s->nunits; i++)
        s->u[i].markers = 0;
    /* §Retreat: every single-stand unit in contact retreats, all at once */
    uint32_t out = 0;
    for (int i = 0; i < s->nunits; i++)
        if (sv_alive(&s->u[i]) && s->u[i].n == 1 && contacts(c, s, i))
            out |= 1u << i;
    for (int i = 0; i < s->nunits; i++)
        if (out >> i & 1u)
            sv_remove(s, i, s->u[i].n);
}

/* ---------------------------------------------------------------- victory */

void sv_victory(const sv_ctx_t *c, sv_state_t *s) {
    int over[2] = {0, 0}, third[2], half[2];
    for (int side = 0; side < 2; side++) {
        int q;
        opfor__sv_breakpoints(s->stands0[side], &q, &third[side], &half[side]);
        if (!c->opt.breakpoints)
            continue;
        /* the quarter, then the third, then the half, each on the updated tally */
        if (s->tally[side] > q && !(s->cut[side] & 1)) {
            s->cut[side] |= 1;
            for (int i = 0; i < s->nunits; i++)
                if (s->u[i].side == side && s->u[i].kind == SV_SUB && sv_alive(&s->u[i]))
                    sv_remove(s, i, s->u[i].n);
        }
        if (s->tally[side] > third[side] && !(s->cut[side] & 2)) {
            s->cut[side] |= 2;
            for (int i = 0; i < s->nunits; i++)
                if (s->u[i].side == side && s->u[i].kind == SV_COMMANDER && sv_alive(&s->u[i]))
                    sv_remove(s, i, s->u[i].n);
        }
        over[side] = s->tally[side] > half[side];
    }
    if (over[0] || over[1]) {
        s->phase = SV_P_OVER;
        if (over[0] && over[1]) {
            s->result = SV_R_DRAW;
        } else {
            int w = over[0] ? 1 : 0;
            s->winner = (uint8_t)w;
            s->result = s->tally[w] > third[w] ? SV_R_MINOR : SV_R_SPLENDID;
        }
        return;
    }
    for (int i = 0; i < s->nunits; i++)
        s->u[i].flags &= (uint16_t)~SV_F_RED;
    if (s->turn >= c->turn_limit) { /* the scenario's limit: a draw (design) */
        s->phase = SV_P_OVER;
        s->result = SV_R_DRAW;
        return;
    }
    s->turn++;
    s->phase = SV_P_INITIATIVE;
}

/* ---------------------------------------------------------------- manoeuvre and the machine */

void sv_start_move(const sv_ctx_t *c, sv_state_t *s, int mphase) {
    (void)c;
    s->mphase = (uint8_t)mphase;
    s->side = (uint8_t)(mphase == 0 ? s->init : 1 - s->init);
    s->retreating = 0;
    for (int i = 0; i < s->nunits; i++) {
        sv_unit_t *u = &s->u[i];
        if (u->side == s->side)
            u->flags &= (uint16_t) ~(SV_F_ACTED | SV_F_FORMED | SV_F_MOVED | SV_F_CHARGE_FAILED |
                                     SV_F_FLOWED);
        else
            u->flags &= (uint16_t)~SV_F_REACTED;
    }
    s->phase = SV_P_MOVE;
}

/* The next unit of side (then, from the initiative side, the other) that wants asking; the
 * first pass starts at unit `from` (units of the side before it are known not to want it). */
static int next_unit(const sv_ctx_t *c, sv_state_t *s, int from,
                     int (*wants)(const sv_ctx_t *, const sv_state_t *, const sv_geo_t *, int)) {
    sv_geo_t g; /* asking changes nobody's place */
    sv_geo_build(c, s, &g);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = pass ? 0 : from; i < s->nunits; i++)
            if (s->u[i].side == s->side && !(s->u[i].flags & SV_F_DECIDED) && wants(c, s, &g, i)) {
                s->cur = (uint8_t)i;
                return i;
            }
        if (s->side != s->init)
            return -1;
        s->side = (uint8_t)(1 - s->init);
    }
    return -1;
}

static int wants_pivot(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int i) {
    opfor_vec_t f[2];
    return sv_fire_pivots_g(c, s, g, i, f) > 0;
}

static int wants_fire(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int i) {
    return can_fire_any(c, s, g, i);
}

static int wants_join(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int i) {
    int e;
    float d;
    return join_dist(c, s, g, i, &e, &d);
}

static int wants_melee(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int i) {
    (void)c;
    return sv_alive(&s->u[i]) && g->contact[i] != 0;
}

void sv_settle_from(const sv_ctx_t *c, sv_state_t *s, int from) {
    for (;; from = 0) {
        switch (s->phase) {
        case SV_P_PIVOT:
            if (next_unit(c, s, from, wants_pivot) >= 0)
                return;
            for (int i = 0; i < s->nunits; i++)
                s->u[i].flags &= (uint16_t)~SV_F_DECIDED;
            s->phase = SV_P_FIRE;
            s->side = s->init;
            break;
        case SV_P_FIRE:
            if (next_unit(c, s, from, wants_fire) >= 0)
                return;
            s->phase = SV_P_FIRE_ROLL;
            {
                int any = 0;
                for (int i = 0; i < s->nunits; i++)
                    any |= s->u[i].target != 0xFF;
                if (any)
                    return; /* a chance node: all the dice */
            }
            start_join(c, s);
            break;
        case SV_P_JOIN:
            if (next_unit(c, s, 0, wants_join) >= 0)
                return;
            sv_after_join(c, s);
            break;
        case SV_P_MELEE: {
            int i = next_unit(c, s, 0, wants_melee);
            if (i < 0) {
                sv_remove_losses(c, s);
                sv_start_move(c, s, 0);
                break;
            }
            uint32_t m = contacts(c, s, i);
            if ((m & (m - 1)) != 0 || s->table)
                return; /* the owner names the enemy unit it attacks (a table: its dice) */
            int t = 0;
            while (!(m >> t & 1u))
                t++;
            if (sv_attack(c, s, i, t))
                return; /* re-throw or keep */
            break;
        }
        default:
            return;
        }
    }
}

void sv_settle(const sv_ctx_t *c, sv_state_t *s) {
    sv_settle_from(c, s, 0);
}

int sv_bounce_target(const sv_ctx_t *c, const sv_state_t *s, int g, int first) {
    return bounce_target(c, s, g, first);
}
