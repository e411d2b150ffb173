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
 * people into compact arrays; each shot then tests the gap rule in one pass over them, with a
 * sure rejection by the distance to the line of fire first, and the sight line only when the
 * lane is clear (both tests are pure). The answers are those of the plain code (lane_blocked_in
 * and core/terrain.c's opfor_fire_lane_blocked, a full selection of the three nearest targets):
 * tests/rulesets/test_engine_fire_fast.c compares whole volleys to the byte.
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

int vk_fire_target_ok(const opfor_vk_state_t *st, int t) {
    /* figures in combat contact are not targets (IX). A unit in play on the table with a
       living person is active (vk_unit_active), so one scan answers both. */
    if (t < 0 || t >= st->nunits || st->ux[t].removed ||
        (st->units[t].flags & OPFOR_UNIT_OFF_TABLE) || vk_in_melee(st, t))
        return 0;
    const opfor_unit_t *un = &st->units[t];
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if ((st->figures[i].flags & VK_PERSON_MASK) == OPFOR_FIG_ALIVE)
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

/* Figures that could stand in the way of fire between units u and t: those inside the box
 * around both units. */
static int lane_candidates(const opfor_vk_state_t *st, int u, int t, int *out) {
    float lox = 1e30f, loy = 1e30f, hix = -1e30f, hiy = -1e30f;
    int us[2] = {u, t};
    for (int k = 0; k < 2; k++) {
        const opfor_unit_t *un = &st->units[us[k]];
        for (int i = un->first; i < un->first + un->count; i++) {
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
    for (int i = 0; i < st->nfigures; i++) {
        opfor_pt_t p = st->figures[i].pos;
        if (p.x < lox || p.x > hix || p.y < loy || p.y > hiy)
            continue;
        if (!vk_alive(st, i) || st->ux[st->figures[i].unit].removed)
            continue;
        out[n++] = i;
    }
    return n;
}

int vk_lane_blocked(const opfor_vk_state_t *st, int f, int g) {
    int cand[OPFOR_MAX_FIGURES];
    int n = lane_candidates(st, st->figures[f].unit, st->figures[g].unit, cand);
    return lane_blocked_in(st, f, g, cand, n);
}

/* A volley's lane candidates as compact arrays (index order), for the gap rule of each shot.
 * Positions and base sizes do not change during a volley; whether a candidate still lives is
 * read at each shot. lim2: the square of the base's radius plus the gap and a margin (below). */
#define VK_LANE_BLOCK 4 /* candidates the first tests of lanes_blocked take at a time */
typedef struct vk_lanes {
    int n;
    int idx[OPFOR_MAX_FIGURES];
    float r[OPFOR_MAX_FIGURES];
    /* padded to whole blocks of VK_LANE_BLOCK with points at infinity, which no box takes */
    float x[OPFOR_MAX_FIGURES + VK_LANE_BLOCK - 1], y[OPFOR_MAX_FIGURES + VK_LANE_BLOCK - 1];
    float lim2[OPFOR_MAX_FIGURES + VK_LANE_BLOCK - 1];
} vk_lanes_t;

#define VK_LANE_MARGIN 0.05f

static void lanes_build(const opfor_vk_state_t *st, int u, int t, vk_lanes_t *L) {
    L->n = lane_candidates(st, u, t, L->idx);
    for (int k = 0; k < L->n; k++) {
        const opfor_figure_t *o = &st->figures[L->idx[k]];
        float r = vk_radius(o), lim = r + OPFOR_FIRE_GAP + VK_LANE_MARGIN;
        L->x[k] = o->pos.x;
        L->y[k] = o->pos.y;
        L->r[k] = r;
        L->lim2[k] = lim * lim;
    }
    for (int k = L->n; k % VK_LANE_BLOCK; k++) {
        L->x[k] = INFINITY;
        L->y[k] = INFINITY;
        L->lim2[k] = 0.0f;
    }
}

/* lane_blocked_in and opfor_fire_lane_blocked in one pass over the compact candidates, the
 * same answer: the same box, then the same circle tests in the same order (a base the line
 * passes through blocks; bases within r + gap are paired in index order for the narrow-gap
 * test). lane_blocked_in's reject beyond r + 1.2 in only dropped circles that the gap rule
 * ignores (beyond r + gap), so it is not repeated. After the box, the distance to the line of
 * fire (never more than to the segment) rejects bases clearly beyond r + gap: its rounding
 * (the cross product with the firer's terms taken out) is under 1e-6 times the coordinates,
 * far below the margin of VK_LANE_MARGIN on any table. Below 0.5 in between firer and target
 * it is not used. */
static int lanes_blocked(const opfor_vk_state_t *st, const vk_lanes_t *L, int f, int g) {
    opfor_pt_t a = st->figures[f].pos, b = st->figures[g].pos;
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
            float px = L->x[k], py = L->y[k];
            int i = L->idx[k];
            if (i == f || i == g || !vk_alive(st, i))
                continue;
            float r = L->r[k];
            opfor_pt_t c = opfor_pt(px, py);
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
    int br = opfor_viktoria_bracket_of(&ctx->model, (opfor_viktoria_ranged_t)w, gap);
    if (br < 0)
        return 0;
    int aq = fr->quality, tc = vk_class(tg);
    int cov = vk_cover(ctx, st, g, fr->pos);
    int am = (fr->flags & OPFOR_FIG_MOUNTED) != 0, ss = (fr->skills & OPFOR_S_SHARPSHOOTER) != 0;
    int aw = (fr->flags & OPFOR_FIG_WOUNDED) != 0, tw = (tg->flags & OPFOR_FIG_WOUNDED) != 0;
    int tm = (tg->flags & OPFOR_FIG_MOUNTED) != 0;
    int post = (tg->flags & OPFOR_FIG_RUNNING) ? VK_POST_RUNNING
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
            st, &T->effect[OPFOR_VK_EFFECT_FIREARM][tw][tc == OPFOR_VK_TRANSPORT], NULL);
    }
    if (effect > 0)
        vk_harm(ctx, st, g, effect, 0, st->units[fr->unit].side, ev);
    return effect;
}

/* The living people of the target unit as compact arrays (index order), with the offset that
 * puts stated targets first (1e6 added to the squared distance of the others; 0 adds nothing).
 * Rebuilt after every shot that harms, the only thing that changes them. */
typedef struct vk_marks {
    int n;
    int idx[OPFOR_MAX_FIGURES];
    float x[OPFOR_MAX_FIGURES], y[OPFOR_MAX_FIGURES], off[OPFOR_MAX_FIGURES];
} vk_marks_t;

static void marks_build(const opfor_vk_state_t *st, int t, unsigned aim, vk_marks_t *M) {
    const opfor_unit_t *tu = &st->units[t];
    int n = 0;
    for (int i = tu->first; i < tu->first + tu->count; i++) {
        const opfor_figure_t *g = &st->figures[i];
        if (!vk_alive(st, i) || !vk_is_person(g))
            continue;
        int pref = 0;
        if ((aim & OPFOR_VK_AF_AIM_WOUNDED) && (g->flags & OPFOR_FIG_WOUNDED))
            pref = 1;
        if ((aim & OPFOR_VK_AF_AIM_GENERAL) && (g->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)))
            pref = 1;
        M->idx[n] = i;
        M->x[n] = g->pos.x;
        M->y[n] = g->pos.y;
        M->off[n] = aim && !pref ? 1e6f : 0.0f; /* stated targets first (IX) */
        n++;
    }
    M->n = n;
}

/* A firer's candidate targets, nearest first, preferred ones first: a partial selection sort
 * (swapping in place, so ties go as the swaps leave them) advanced one target at a time, as a
 * firer that shoots at its first choice needs no second; its first pass is made while the
 * distances are computed. */
typedef struct vk_picks {
    int n, next;
    float d[OPFOR_MAX_FIGURES];
    int pos[OPFOR_MAX_FIGURES]; /* indices into the marks */
} vk_picks_t;

static void picks_start(vk_picks_t *P, const vk_marks_t *M, opfor_pt_t p) {
    int nc = M->n, b = 0;
    for (int k = 0; k < nc; k++) {
        float dx = p.x - M->x[k], dy = p.y - M->y[k];
        P->d[k] = (dx * dx + dy * dy) + M->off[k]; /* opfor_dist2, then the offset */
        P->pos[k] = k;
        if (P->d[k] < P->d[b]) /* the sort's first pass, on the way */
            b = k;
    }
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

/* The next candidate (a figure index), or -1 after max of them. */
static int picks_next(vk_picks_t *P, const vk_marks_t *M, int max) {
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
    return M->idx[P->pos[k]];
}

int vk_fire_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int moving,
                 unsigned aim, opfor_vk_events_t *ev) {
    const opfor_unit_t *un = &st->units[u];
    int shots = 0, wounds = 0, kills = 0;
    vk_lanes_t lanes;
    vk_marks_t marks;
    lanes_build(st, u, t, &lanes);
    marks_build(st, t, aim, &marks);
    int t_active = vk_unit_active(st, t); /* changes only when a shot harms */
    for (int f = un->first; f < un->first + un->count; f++) {
        const opfor_figure_t *fr = &st->figures[f];
        if (!vk_alive(st, f) || !vk_is_person(fr) ||
            !(fr->weapons & (OPFOR_W_PISTOL | OPFOR_W_CARBINE | OPFOR_W_RIFLE)))
            continue;
        if ((st->figx[f] & OPFOR_VK_FX_PLAYING) || (st->figx[f] & OPFOR_VK_FX_CONTROLLED))
            continue; /* a playing musician does not shoot; controlled figures act later */
        if (!t_active)
            break;
        vk_picks_t picks;
        picks_start(&picks, &marks, fr->pos);
        for (int g; (g = picks_next(&picks, &marks, 3)) >= 0;) {
            const opfor_figure_t *tg = &st->figures[g];
            float gap = opfor_dist(fr->pos, tg->pos) - vk_radius(fr) - vk_radius(tg);
            if (gap < 0.0f)
                gap = 0.0f;
            int w = vk_firearm(fr, gap);
            if (w < 0)
                continue;
            /* both tests are pure: the cheaper gap rule first */
            if (lanes_blocked(st, &lanes, f, g) || !vk_los(ctx, st, f, g))
                continue;
            shots++;
            int e = vk_shoot(ctx, st, f, g, w, gap, moving, NULL);
            wounds += e == 1;
            kills += e == 2;
            if (e > 0) {
                marks_build(st, t, aim, &marks);
                t_active = vk_unit_active(st, t);
            }
            break;
        }
    }
    VK_EV(ev, "  %s fires%s at %s: %d shots, %d wounded, %d killed", un->name,
          moving ? " on the move" : "", st->units[t].name, shots, wounds, kills);
    return shots;
}
