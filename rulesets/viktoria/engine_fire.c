/* rulesets/viktoria/engine_fire.c — personal weapons (Viktoria! IX): pistol 9 in, carbine
 * 36 in, rifle without limit; line of sight, the half-inch gap rule, cover, moving fire,
 * aiming at the wounded or at leaders, criticals, saves and effects.
 *
 * Each firing figure picks its own target figure (the nearest it can see and reach, or the
 * nearest wounded figure / leader when the action says so) and rolls the calculator's hit,
 * critical, save and effect in that order. Targets are tried nearest first and at most three
 * per firer, so the cost stays linear in the figures involved.
 *
 * Speed: a volley copies once the figures that could stand in a line of fire and the target's
 * people into compact arrays and keeps them up to date itself (a shot changes no figure but
 * the one hit); each firer's targets come from a partial selection over the target's people,
 * whose keys also give the range; each shot tests the sight line, then (as that fails more
 * often) the gap rule in one pass over the candidates, the firer and the target hidden from
 * it, with a sure rejection by the distance to the line of fire first (both tests are pure).
 * The answers are those of the plain code (lane_blocked_in and core/terrain.c's
 * opfor_fire_lane_blocked, a full selection of the three nearest targets, the target's people
 * listed again after every hit): tests/rulesets/test_engine_fire_fast.c compares whole
 * volleys to the byte.
 */
#include <math.h>
#include <string.h>

#include "engine_int.h"

int vk_firearm_m(const opfor_viktoria_model_t *m, const opfor_figure_t *f, float gap) {
    if (f->flags & OPFOR_FIG_EQUIPMENT)
        return -1;
    /* rifle, then carbine, then pistol: the longer arm shoots better at any range */
    for (int w = 2; w >= 0; w--) {
        if (!(f->weapons & (OPFOR_W_PISTOL << w)))
            continue;
        if (gap <= (float)m->range_edge[w][OPFOR_VK_BRACKET_COUNT - 1])
            return w;
    }
    return -1;
}

int vk_firearm_lv(const opfor_viktoria_model_t *m, const opfor_figure_t *f, float gap, int lv) {
    if (lv <= 0)
        return vk_firearm_m(m, f, gap);
    if (f->flags & OPFOR_FIG_EQUIPMENT)
        return -1;
    for (int w = 2; w >= 0; w--)
        if ((f->weapons & (OPFOR_W_PISTOL << w)) &&
            opfor_viktoria_bracket_aloft(m, (opfor_viktoria_ranged_t)w, gap, lv) >= 0)
            return w;
    return -1;
}

/* Flags of a living person (vk_alive and vk_is_person in one mask test). */
#define VK_PERSON_MASK (OPFOR_FIG_ALIVE | OPFOR_FIG_REAR | OPFOR_FIG_EQUIPMENT)

float vk_unit_reach_m(const opfor_viktoria_model_t *m, const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    float best = 0.0f;
    unsigned w = 0;
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if ((st->figures[i].flags & VK_PERSON_MASK) == OPFOR_FIG_ALIVE)
            w |= st->figures[i].weapons;
    for (int k = 0; k < 3; k++)
        if (w & (OPFOR_W_PISTOL << k)) {
            double e = m->range_edge[k][OPFOR_VK_BRACKET_COUNT - 1];
            float r = e > 1e9 ? 1e9f : (float)e;
            if (r > best)
                best = r;
        }
    return best;
}

int vk_in_contact(const opfor_vk_state_t *st, int g) {
    const opfor_figure_t *f = &st->figures[g];
    uint32_t m = st->melee[f->unit];
    float rf = vk_radius(f);
    for (int v = 0; m; v++, m >>= 1) {
        if (!(m & 1u))
            continue;
        const opfor_unit_t *vu = &st->units[v];
        for (int j = vu->first, e = vu->first + vu->count; j < e; j++) {
            if (!vk_alive(st, j))
                continue;
            /* bases this close touch (X), as the melee's own test */
            float lim = rf + vk_radius(&st->figures[j]) + VK_CONTACT;
            if (opfor_dist2(f->pos, st->figures[j].pos) <= lim * lim)
                return 1;
        }
    }
    return 0;
}

float vk_unit_reach_lv(const opfor_viktoria_model_t *m, const opfor_vk_state_t *st, int u, int lv) {
    if (lv <= 0)
        return vk_unit_reach_m(m, st, u);
    const opfor_unit_t *un = &st->units[u];
    float best = 0.0f;
    unsigned w = 0;
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if ((st->figures[i].flags & VK_PERSON_MASK) == OPFOR_FIG_ALIVE)
            w |= st->figures[i].weapons;
    for (int k = 0; k < 3; k++) {
        if (!(w & (OPFOR_W_PISTOL << k)))
            continue;
        /* a gap in bracket b is in reach when b + lv is a bracket, or the last has no limit */
        const double *edge = m->range_edge[k];
        double e = isinf(edge[OPFOR_VK_BRACKET_COUNT - 1]) ? 1e9
                   : lv < OPFOR_VK_BRACKET_COUNT           ? edge[OPFOR_VK_BRACKET_COUNT - 1 - lv]
                                                           : 0.0;
        float r = e > 1e9 ? 1e9f : (float)e;
        if (r > best)
            best = r;
    }
    return best;
}

int vk_fire_target_ok(const opfor_vk_state_t *st, int t) {
    /* figures in combat contact are not targets (IX), figure by figure: a unit in melee is a
       target while one of its people touches no foe. A unit in play on the table with a
       living person is active (vk_unit_active), so one scan answers both. */
    if (t < 0 || t >= st->nunits || st->ux[t].removed ||
        (st->units[t].flags & OPFOR_UNIT_OFF_TABLE))
        return 0;
    const opfor_unit_t *un = &st->units[t];
    int melee = vk_in_melee(st, t);
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if ((st->figures[i].flags & VK_PERSON_MASK) == OPFOR_FIG_ALIVE &&
            (!melee || !vk_in_contact(st, i)))
            return 1;
    return 0;
}

int vk_cover(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int g, opfor_pt_t from) {
    const opfor_figure_t *f = &st->figures[g];
    int c = vk_terrain_cover(ctx, from, f->pos, vk_radius(f));
    int arm = vk_armour(ctx, st, f->unit);
    if (arm > 0) {
        /* soft cover raises armour one level, hard cover two (XII.A) */
        int add = c == OPFOR_COVER_SOFT ? 1 : c >= OPFOR_COVER_HARD ? 2 : 0;
        c = arm + add;
        if (c > OPFOR_COVER_FORT)
            c = OPFOR_COVER_FORT;
    }
    return c;
}

/* The gap rule against a list of candidate figures (indices): the plain version, behind
 * vk_lane_blocked (a volley uses lanes_blocked below, which answers the same). */
static int lane_blocked_in(const opfor_vk_state_t *st, int f, int g, const int *cand, int nc) {
    opfor_pt_t a = st->figures[f].pos, b = st->figures[g].pos;
    float lox = (a.x < b.x ? a.x : b.x) - 1.5f, hix = (a.x > b.x ? a.x : b.x) + 1.5f;
    float loy = (a.y < b.y ? a.y : b.y) - 1.5f, hiy = (a.y > b.y ? a.y : b.y) + 1.5f;
    opfor_circle_t c[OPFOR_GAP_MAX_CIRCLES];
    int n = 0;
    for (int k = 0; k < nc && n < OPFOR_GAP_MAX_CIRCLES; k++) {
        int i = cand[k];
        if (i == f || i == g || !vk_alive(st, i))
            continue;
        const opfor_figure_t *o = &st->figures[i];
        if (o->pos.x < lox || o->pos.x > hix || o->pos.y < loy || o->pos.y > hiy)
            continue;
        /* cheap reject: farther from the line than a base and a gap */
        float d = opfor_seg_dist_pt(a, b, o->pos);
        if (d > vk_radius(o) + 1.2f)
            continue;
        c[n].c = o->pos;
        c[n].r = vk_radius(o);
        n++;
    }
    if (n == 0)
        return 0;
    return opfor_fire_lane_blocked(a, b, c, n, OPFOR_FIRE_GAP) == 1;
}

/* A volley's lane candidates as compact arrays (index order), for the gap rule of each shot.
 * Positions and base sizes do not change during a volley, and the only figure that can die in
 * one is the one shot at: a candidate that dies gets x = INFINITY, which no box of the gap
 * rule takes, so the rule never reads life again. For the length of one firer, and of one
 * shot, the firer's and the target's own places get INFINITY too (the rule skips them): see
 * lanes_hide. lim2: the square of the base's radius plus the gap and a margin (below). */
#define VK_LANE_BLOCK 4 /* candidates the first tests of lanes_blocked take at a time */
typedef struct vk_lanes {
    int n;
    int idx[OPFOR_MAX_FIGURES];
    float r[OPFOR_MAX_FIGURES];
    /* padded to whole blocks of VK_LANE_BLOCK with points at infinity, which no box takes */
    float x[OPFOR_MAX_FIGURES + VK_LANE_BLOCK - 1], y[OPFOR_MAX_FIGURES + VK_LANE_BLOCK - 1];
    float lim2[OPFOR_MAX_FIGURES + VK_LANE_BLOCK - 1];
    /* place of a figure of the two units (by figure index) among the candidates, or -1 */
    int16_t slot[OPFOR_MAX_FIGURES];
} vk_lanes_t;

#define VK_LANE_MARGIN 0.05f

/* The figures that could stand in the way of fire between units u and t: the living ones of
 * units in play inside the box around both units' living figures, in index order. */
static void lanes_build(const opfor_vk_state_t *st, int u, int t, vk_lanes_t *L) {
    float lox = 1e30f, loy = 1e30f, hix = -1e30f, hiy = -1e30f;
    int us[2] = {u, t};
    for (int k = 0; k < 2; k++) {
        const opfor_unit_t *un = &st->units[us[k]];
        for (int i = un->first, e = un->first + un->count; i < e; i++) {
            L->slot[i] = -1;
            if (!vk_alive(st, i))
                continue;
            opfor_pt_t p = st->figures[i].pos;
            lox = p.x < lox ? p.x : lox;
            hix = p.x > hix ? p.x : hix;
            loy = p.y < loy ? p.y : loy;
            hiy = p.y > hiy ? p.y : hiy;
        }
    }
    lox -= 1.5f;
    loy -= 1.5f;
    hix += 1.5f;
    hiy += 1.5f;
    int n = 0;
    for (int i = 0, e = st->nfigures; i < e; i++) {
        const opfor_figure_t *o = &st->figures[i];
        opfor_pt_t p = o->pos;
        if (p.x < lox || p.x > hix || p.y < loy || p.y > hiy)
            continue;
        if (!vk_alive(st, i) || st->ux[o->unit].removed)
            continue;
        float r = vk_radius(o), lim = r + OPFOR_FIRE_GAP + VK_LANE_MARGIN;
        if (o->unit == u || o->unit == t)
            L->slot[i] = (int16_t)n;
        L->idx[n] = i;
        L->x[n] = p.x;
        L->y[n] = p.y;
        L->r[n] = r;
        L->lim2[n] = lim * lim;
        n++;
    }
    L->n = n;
    for (int k = n; k % VK_LANE_BLOCK; k++) {
        L->x[k] = INFINITY;
        L->y[k] = INFINITY;
        L->lim2[k] = 0.0f;
    }
}

int vk_lane_blocked(const opfor_vk_state_t *st, int f, int g) {
    vk_lanes_t L;
    lanes_build(st, st->figures[f].unit, st->figures[g].unit, &L);
    return lane_blocked_in(st, f, g, L.idx, L.n);
}

/* Hides place k (a no-op for -1) from the gap rule; returns its x to put back. */
static float lanes_hide(vk_lanes_t *L, int k) {
    if (k < 0)
        return 0.0f;
    float x = L->x[k];
    L->x[k] = INFINITY;
    return x;
}

static void lanes_unhide(vk_lanes_t *L, int k, float x) {
    if (k >= 0)
        L->x[k] = x;
}

/* lane_blocked_in and opfor_fire_lane_blocked in one pass over the compact candidates, the
 * same answer for fire from a to b when the firer's and the target's places are hidden and
 * the dead are at infinity: the same box, then the same circle tests in the same order (a
 * base the line passes through blocks; bases within r + gap are paired in index order for the
 * narrow-gap test). lane_blocked_in's reject beyond r + 1.2 in only dropped circles that the
 * gap rule ignores (beyond r + gap), so it is not repeated. After the box, the distance to the
 * line of fire (never more than to the segment) rejects bases clearly beyond r + gap: its
 * rounding (the cross product with the firer's terms taken out) is under 1e-6 times the
 * coordinates, far below the margin of VK_LANE_MARGIN on any table. Below 0.5 in between
 * firer and target it is not used. */
static int lanes_blocked(const vk_lanes_t *L, opfor_pt_t a, opfor_pt_t b) {
    float lox = (a.x < b.x ? a.x : b.x) - 1.5f, hix = (a.x > b.x ? a.x : b.x) + 1.5f;
    float loy = (a.y < b.y ? a.y : b.y) - 1.5f, hiy = (a.y > b.y ? a.y : b.y) + 1.5f;
    float abx = b.x - a.x, aby = b.y - a.y;
    float l2 = abx * abx + aby * aby;
    float l2cut = l2 >= 0.25f ? l2 : INFINITY; /* INFINITY: never rejects */
    float c0 = abx * a.y - aby * a.x;
    int near[OPFOR_MAX_FIGURES];
    int nn = 0;
    /* The box and line rejections are pure and cheap: they are worked out for a block of
       candidates at a time without branches (fewer instructions than one branch per test), in
       the same float operations and with the same outcome ("!(x < lo)" keeps what "x < lo"
       does not reject, NaN included); the padding points fail the box. The survivors then go
       through the other tests in index order, as before. */
    for (int k0 = 0; k0 < L->n; k0 += VK_LANE_BLOCK) {
        int keep[VK_LANE_BLOCK], any = 0;
        for (int j = 0; j < VK_LANE_BLOCK; j++) {
            float px = L->x[k0 + j], py = L->y[k0 + j];
            float cr = (abx * py - aby * px) - c0; /* |ab| times the distance to the line */
            keep[j] = !(px < lox) & !(px > hix) & !(py < loy) & !(py > hiy) &
                      !(cr * cr > L->lim2[k0 + j] * l2cut);
            any |= keep[j];
        }
        if (!any)
            continue;
        for (int j = 0; j < VK_LANE_BLOCK; j++) {
            if (!keep[j])
                continue;
            int k = k0 + j;
            float r = L->r[k];
            opfor_pt_t c = opfor_pt(L->x[k], L->y[k]);
            if (opfor_dist2(a, c) <= r * r || opfor_dist2(b, c) <= r * r)
                continue; /* the firer's or the target's own base */
            float d = opfor_seg_dist_pt(a, b, c);
            if (d < r)
                return 1; /* through a base */
            if (d <= r + OPFOR_FIRE_GAP)
                near[nn++] = k;
        }
    }
    /* Only bases within r + gap of the line can flank a narrow gap that it crosses. */
    for (int i = 0; i < nn; i++) {
        opfor_pt_t ci = opfor_pt(L->x[near[i]], L->y[near[i]]);
        float ri = L->r[near[i]];
        for (int j = i + 1; j < nn; j++) {
            opfor_pt_t cj = opfor_pt(L->x[near[j]], L->y[near[j]]);
            if (opfor_base_dist(ci, ri, cj, L->r[near[j]]) < OPFOR_FIRE_GAP &&
                opfor_seg_intersect(a, b, ci, cj, NULL, NULL))
                return 1;
        }
    }
    return 0;
}

int vk_shoot(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int f, int g, int w, float gap,
             int moving, opfor_vk_events_t *ev) {
    const vk_tabs_t *T = ctx->tab;
    const opfor_figure_t *fr = &st->figures[f], *tg = &st->figures[g];
    /* one bracket more for each altitude level between them (XII.D) */
    int br = opfor_viktoria_bracket_aloft(&ctx->model, (opfor_viktoria_ranged_t)w, gap,
                                          vk_levels(st, fr->unit, tg->unit));
    if (br < 0)
        return 0;
    int aq = fr->quality, tc = vk_target_class(ctx, st, g);
    int cov =
        (moving & VK_SHOOT_NO_COVER) ? vk_armour(ctx, st, tg->unit) : vk_cover(ctx, st, g, fr->pos);
    moving &= 1;
    int am = (fr->flags & OPFOR_FIG_MOUNTED) != 0, ss = (fr->skills & OPFOR_S_SHARPSHOOTER) != 0;
    int aw = (fr->flags & OPFOR_FIG_WOUNDED) != 0, tw = (tg->flags & OPFOR_FIG_WOUNDED) != 0;
    int tm = (tg->flags & OPFOR_FIG_MOUNTED) != 0;
    /* the occupants of a balloon drifting in a steady breeze or more run (XII.D) */
    int post = ((tg->flags & OPFOR_FIG_RUNNING) || vk_craft_running(ctx, st, tg->unit))
                   ? VK_POST_RUNNING
               : (tg->flags & OPFOR_FIG_PRONE) ? VK_POST_PRONE
                                               : VK_POST_NONE;
    const vk_roll_t *hit =
        &T->fire_hit[vk_fire_idx(w, aq, tc, cov, br, am, ss, aw, moving ? 1 : 0, tw, tm, post)];
    int crit;
    if (!vk_roll_hit(st, hit, &T->critical, &crit))
        return 0;
    int effect;
    if (crit) {
        effect = 2; /* a 6 then a 6: dead, no save (IX) */
        VK_EV(ev, "    a critical hit on a figure of %s", st->units[tg->unit].name);
    } else {
        if (vk_roll(st, &T->fire_save[w][tc][cov][br][tw][tm], NULL))
            return 0;
        effect = vk_effect_roll(
            st, &T->effect[OPFOR_VK_EFFECT_FIREARM][tw][vk_class(tg) == OPFOR_VK_TRANSPORT], NULL);
    }
    if (effect > 0)
        vk_harm(ctx, st, g, effect, 0, st->units[fr->unit].side, ev);
    return effect;
}

/* The living people of the target unit not in combat contact (IX) as compact arrays (index
 * order): their places among the lane candidates (or -1), their base radii, and the offset
 * that puts stated targets first (1e6 added to the squared distance of the others; 0 adds
 * nothing). Brought up to date by
 * marks_update after every shot that harms, the only thing that changes them. Padded to whole
 * blocks of four for picks_start. */
#define VK_MARK_BLOCK 4
/* The offset of the figure the order names (IX: the player chooses each firer's target):
 * before every other, while it stands. */
#define VK_MARK_NAMED (-1e9f)
typedef struct vk_marks {
    int n;
    int idx[OPFOR_MAX_FIGURES], slot[OPFOR_MAX_FIGURES];
    float r[OPFOR_MAX_FIGURES];
    float x[OPFOR_MAX_FIGURES + VK_MARK_BLOCK - 1], y[OPFOR_MAX_FIGURES + VK_MARK_BLOCK - 1];
    float off[OPFOR_MAX_FIGURES + VK_MARK_BLOCK - 1];
} vk_marks_t;

/* The offset of figure g's key: 0 for a figure the fire goes at first (IX). Fire at the
 * wounded or at the leaders must be stated (aim); fire that states none goes at the unwounded
 * rank and file first, and at the wounded and the leaders only when no such figure is left to
 * shoot at (IX: "any available unwounded figures will be assumed to have been targeted";
 * docs/viktoria-model.md section 9, "Who is shot at"). */
static float mark_off(const opfor_figure_t *g, unsigned aim) {
    int wounded = (g->flags & OPFOR_FIG_WOUNDED) != 0;
    int leader = (g->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)) != 0;
    if (!aim)
        return wounded || leader ? 1e6f : 0.0f;
    int pref =
        ((aim & OPFOR_VK_AF_AIM_WOUNDED) && wounded) || ((aim & OPFOR_VK_AF_AIM_GENERAL) && leader);
    return pref ? 0.0f : 1e6f;
}

static void marks_build(const opfor_vk_state_t *st, int t, unsigned aim, int named,
                        const vk_lanes_t *L, vk_marks_t *M) {
    const opfor_unit_t *tu = &st->units[t];
    int n = 0, melee = vk_in_melee(st, t);
    for (int i = tu->first, e = tu->first + tu->count; i < e; i++) {
        const opfor_figure_t *g = &st->figures[i];
        if (!vk_alive(st, i) || !vk_is_person(g))
            continue;
        if (melee && vk_in_contact(st, i))
            continue; /* in combat contact: not a target (IX) */
        M->idx[n] = i;
        M->slot[n] = L->slot[i];
        M->r[n] = vk_radius(g);
        M->x[n] = g->pos.x;
        M->y[n] = g->pos.y;
        M->off[n] = i == named ? VK_MARK_NAMED : mark_off(g, aim);
        n++;
    }
    M->n = n;
    for (int k = n; k % VK_MARK_BLOCK; k++) {
        M->x[k] = 0.0f;
        M->y[k] = 0.0f;
        M->off[k] = 0.0f;
    }
}

/* The marks after a shot that harmed the figure at place m, as marks_build would make them
 * again: vk_harm changes no figure of the target unit but that one (a wound, or its life; the
 * colours it may pass on are no one's preference), so the figure either leaves the marks (the
 * others move down, keeping index order; the padding stays as it was) or may become a stated
 * target. */
static void marks_update(const opfor_vk_state_t *st, unsigned aim, int named, vk_marks_t *M,
                         int m) {
    int g = M->idx[m];
    if (vk_alive(st, g)) {
        M->off[m] = g == named ? VK_MARK_NAMED : mark_off(&st->figures[g], aim);
        return;
    }
    for (int k = m + 1; k < M->n; k++) {
        M->idx[k - 1] = M->idx[k];
        M->slot[k - 1] = M->slot[k];
        M->r[k - 1] = M->r[k];
        M->x[k - 1] = M->x[k];
        M->y[k - 1] = M->y[k];
        M->off[k - 1] = M->off[k];
    }
    M->n--;
}

/* A firer's candidate targets, nearest first, preferred ones first: a partial selection sort
 * (swapping in place, so ties go as the swaps leave them) advanced one target at a time, as a
 * firer that shoots at its first choice needs no second. The keys are worked out a block at a
 * time (padding included, never read), then the sort's first pass finds the first smallest. */
typedef struct vk_picks {
    int n, next;
    float d[OPFOR_MAX_FIGURES + VK_MARK_BLOCK - 1];
    int pos[OPFOR_MAX_FIGURES + VK_MARK_BLOCK - 1]; /* places in the marks */
} vk_picks_t;

static void picks_start(vk_picks_t *P, const vk_marks_t *M, opfor_pt_t p) {
    int nc = M->n, b = 0;
    for (int k0 = 0; k0 < nc; k0 += VK_MARK_BLOCK)
        for (int j = 0; j < VK_MARK_BLOCK; j++) {
            int k = k0 + j;
            float dx = p.x - M->x[k], dy = p.y - M->y[k];
            P->d[k] = (dx * dx + dy * dy) + M->off[k]; /* opfor_dist2, then the offset */
            P->pos[k] = k;
        }
    for (int k = 1; k < nc; k++)
        if (P->d[k] < P->d[b])
            b = k;
    P->n = nc;
    P->next = 0;
    if (nc > 0) {
        float td = P->d[0];
        P->d[0] = P->d[b];
        P->d[b] = td;
        P->pos[0] = b;
        P->pos[b] = 0;
    }
}

/* The next candidate (a place in the marks), or -1 after max of them; *key: its sort key. */
static int picks_next(vk_picks_t *P, int max, float *key) {
    int k = P->next;
    if (k >= max || k >= P->n)
        return -1;
    if (k > 0) {
        int b = k;
        for (int j = k + 1; j < P->n; j++)
            if (P->d[j] < P->d[b])
                b = j;
        float td = P->d[k];
        P->d[k] = P->d[b];
        P->d[b] = td;
        int ti = P->pos[k];
        P->pos[k] = P->pos[b];
        P->pos[b] = ti;
    }
    P->next = k + 1;
    *key = P->d[k];
    return P->pos[k];
}

/* The one walk over unit u's shooters at unit t (aim flags) that both vk_fire_unit and
 * vk_fire_count make, so an order's count of shooters is the engine's by construction: each
 * figure able to fire (alive, a person with a pistol, carbine or rifle, neither playing music
 * nor controlled) takes the first of its three nearest marks (stated targets first) that is in
 * range, in sight and not behind another figure. With wr (st itself, for writing) each such
 * figure shoots (moving: moving fire) and wk[0], wk[1] count wounds and kills; a harmed figure
 * updates the marks and the lanes, and the walk stops once unit t is out of action. With wr
 * NULL every shot is a miss and st is only read. Returns the shots. */
static int fire_walk(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_state_t *wr,
                     int u, int t, int moving, unsigned aim, int named, int wk[2]) {
    const opfor_unit_t *un = &st->units[u];
    int shots = 0;
    vk_lanes_t lanes;
    vk_marks_t marks;
    lanes_build(st, u, t, &lanes);
    marks_build(st, t, aim, named, &lanes, &marks);
    int t_active = vk_unit_active(st, t); /* changes only when a shot harms */
    int u_melee = vk_in_melee(st, u);
    int lv = vk_levels(st, u, t); /* altitude levels between them (XII.D) */
    for (int f = un->first, fe = un->first + un->count; f < fe; f++) {
        const opfor_figure_t *fr = &st->figures[f];
        if (!vk_alive(st, f) || !vk_is_person(fr) ||
            !(fr->weapons & (OPFOR_W_PISTOL | OPFOR_W_CARBINE | OPFOR_W_RIFLE)))
            continue;
        if ((st->figx[f] & OPFOR_VK_FX_PLAYING) || (st->figx[f] & OPFOR_VK_FX_CONTROLLED))
            continue; /* a playing musician does not shoot; controlled figures act later */
        if (u_melee && vk_in_contact(st, f))
            continue; /* engaged in melee: it may not fire (IX) */
        if (!t_active)
            break;
        float rf = vk_radius(fr);
        int kf = lanes.slot[f];
        float xf = lanes_hide(&lanes, kf);
        vk_picks_t picks;
        picks_start(&picks, &marks, fr->pos);
        float key;
        for (int m; (m = picks_next(&picks, 3, &key)) >= 0;) {
            int g = marks.idx[m];
            const opfor_figure_t *tg = &st->figures[g];
            /* the key is opfor_dist2(fr->pos, tg->pos) itself when nothing was added */
            float d2 = marks.off[m] == 0.0f ? key : opfor_dist2(fr->pos, tg->pos);
            float gap = sqrtf(d2) - rf - marks.r[m];
            if (gap < 0.0f)
                gap = 0.0f;
            int w = lv ? vk_firearm_lv(&ctx->model, fr, gap, lv) : vk_firearm(fr, gap);
            if (w < 0)
                continue;
            /* both tests are pure: the sight line first, as it fails more often */
            if (!vk_los(ctx, st, f, g))
                continue;
            int kg = marks.slot[m];
            float xg = lanes_hide(&lanes, kg);
            int blocked = lanes_blocked(&lanes, fr->pos, tg->pos);
            lanes_unhide(&lanes, kg, xg);
            if (blocked)
                continue;
            shots++;
            int e = wr ? vk_shoot(ctx, wr, f, g, w, gap, moving, NULL) : 0;
            if (e > 0) {
                wk[0] += e == 1;
                wk[1] += e == 2;
                marks_update(st, aim, named, &marks, m);
                if (!vk_alive(st, g)) {
                    lanes_hide(&lanes, kg); /* for good */
                    t_active = vk_unit_active(st, t);
                }
            }
            break;
        }
        /* the firer back in the lanes (it cannot fall to its own shot unless u is t) */
        if (vk_alive(st, f))
            lanes_unhide(&lanes, kf, xf);
    }
    return shots;
}

int vk_fire_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int moving,
                 unsigned aim, opfor_vk_events_t *ev) {
    return vk_fire_unit_at(ctx, st, u, t, moving, aim, -1, ev);
}

int vk_fire_unit_at(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int moving,
                    unsigned aim, int named, opfor_vk_events_t *ev) {
    int wk[2] = {0, 0}; /* wounds, kills */
    int shots = fire_walk(ctx, st, st, u, t, moving, aim, named, wk);
    VK_EV(ev, "  %s fires%s at %s: %d shot%s, %d wounded, %d killed", st->units[u].name,
          moving ? " on the move" : "", st->units[t].name, shots, shots == 1 ? "" : "s", wk[0],
          wk[1]);
    return shots;
}

int vk_fire_count(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                  unsigned aim) {
    return fire_walk(ctx, st, NULL, u, t, 0, aim, -1, NULL);
}

int vk_fire_count_at(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                     unsigned aim, int named) {
    return fire_walk(ctx, st, NULL, u, t, 0, aim, named, NULL);
}

int vk_fire_figure_ok(const opfor_vk_state_t *st, int t, int g) {
    if (g < 0 || g >= st->nfigures || st->figures[g].unit != t || !vk_alive(st, g) ||
        !vk_is_person(&st->figures[g]))
        return 0;
    return !vk_in_melee(st, t) || !vk_in_contact(st, g);
}

int vk_moving_fire(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t,
                   opfor_vk_events_t *ev) {
    if (t < 0 || t >= st->nunits || !vk_fire_target_ok(st, t))
        return 0;
    return vk_fire_unit(ctx, st, u, t, 1, 0, ev);
}
