/* rulesets/viktoria/engine_list.c — the Viktoria! engine's legal action lists: what each unit
 * may do in the phase at hand (actions, reactions to a charge, control of a mesmerised
 * figure), and the unit geometry they measure.
 *
 * Lists are generated from the situation in a fixed order and never allocate: each unit a
 * listing needs is measured once, its living figures copied to compact arrays (vk_lfigs_t)
 * and passed down; check_action (engine.c) asks the same measures through
 * engine_list_int.h. See engine_int.h for the design.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_list_int.h"

/* ---------------------------------------------------------------- geometry helpers */

void vk_unit_geo(const opfor_vk_state_t *st, int u, vk_ugeo_t *g) {
    const opfor_unit_t *un = &st->units[u];
    float sx = 0.0f, sy = 0.0f;
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        sx += st->figures[i].pos.x;
        sy += st->figures[i].pos.y;
        n++;
    }
    g->n = n;
    g->r = 0.0f;
    g->rc = 0.0f;
    if (n == 0) {
        g->c = opfor_pt(0.0f, 0.0f);
        return;
    }
    g->c = opfor_pt(sx / (float)n, sy / (float)n);
    float r2 = 0.0f;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        float d = opfor_dist(g->c, st->figures[i].pos) + vk_radius(&st->figures[i]);
        if (d > r2)
            r2 = d;
    }
    g->r = r2;
}

/* Copies unit u's living figures to the pool and measures it: g as vk_unit_geo gives it (the
 * same centre: the sums run in index order), plus rc, the largest distance from the centre to
 * a living figure's centre. With prof, also u's profile. Inline into the two wrappers below,
 * so the profile's work is compiled only where it is asked for. */
__attribute__((always_inline)) static inline void
measure_impl(const opfor_vk_state_t *st, int u, vk_lfigs_t *lf, vk_ugeo_t *g, vk_uprof_t *prof) {
    const opfor_unit_t *un = &st->units[u];
    int at = lf->n, m = at;
    float sx = 0.0f, sy = 0.0f;
    unsigned fl = 0, wp = 0, sk = 0;
    int wounded = 0, leaders = 0, horse_free = 0, gun = -1;
    for (int i = un->first, e = un->first + un->count; i < e; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!vk_alive(st, i))
            continue;
        lf->x[m] = f->pos.x;
        lf->y[m] = f->pos.y;
        lf->r[m] = vk_radius(f);
        lf->i[m] = (int16_t)i;
        m++;
        sx += f->pos.x;
        sy += f->pos.y;
        if (prof) {
            fl |= f->flags;
            wp |= f->weapons;
            sk |= f->skills;
            wounded += (f->flags & (OPFOR_FIG_EQUIPMENT | OPFOR_FIG_WOUNDED)) == OPFOR_FIG_WOUNDED;
            leaders += (f->skills & OPFOR_S_LEADER) != 0;
            horse_free |= (f->flags & (OPFOR_FIG_HORSE | OPFOR_FIG_MOUNTED)) == OPFOR_FIG_HORSE;
            if (gun < 0 && (f->weapons & OPFOR_W_FIELD_GUN))
                gun = i;
        }
    }
    int n = m - at;
    /* the padding: a whole group of sentinels from m on (those past the padded run are
       overwritten by the next unit's figures, or never read; the pool has room for them, as
       each unit is measured once per pool and runs are padded by less than VK_LANES) */
    for (int k = 0; k < VK_LANES; k++) {
        lf->x[m + k] = VK_FAR;
        lf->y[m + k] = VK_FAR;
    }
    lf->at[u] = at;
    lf->n = at + ((n + VK_LANES - 1) & -VK_LANES);
    if (prof) {
        prof->alive = n;
        prof->flags = fl;
        prof->weapons = wp;
        prof->skills = sk;
        prof->wounded = wounded;
        prof->leaders = leaders;
        prof->horse_free = horse_free;
        prof->gun = gun;
    }
    g->n = n;
    g->c = n ? opfor_pt(sx / (float)n, sy / (float)n) : opfor_pt(0.0f, 0.0f);
    float rc2 = 0.0f, R = 0.0f;
    for (int k = at; k < m; k++) {
        float d2 = opfor_dist2(g->c, opfor_pt(lf->x[k], lf->y[k]));
        float r = lf->r[k];
        if (d2 > rc2)
            rc2 = d2;
        /* radius bound: sqrt only when it may grow */
        float cur = R - r;
        if (cur < 0.0f || d2 > cur * cur) {
            float d = sqrtf(d2) + r;
            if (d > R)
                R = d;
        }
    }
    g->r = R;
    g->rc = sqrtf(rc2);
}
static void measure_unit(const opfor_vk_state_t *st, int u, vk_lfigs_t *lf, vk_ugeo_t *g) {
    measure_impl(st, u, lf, g, NULL);
}
static void measure_self(const opfor_vk_state_t *st, int u, vk_lfigs_t *lf, vk_ugeo_t *g,
                         vk_uprof_t *prof) {
    measure_impl(st, u, lf, g, prof);
}

void vk_unit_profile(const opfor_vk_state_t *st, int u, vk_uprof_t *prof) {
    vk_lfigs_t lf;
    vk_ugeo_t g;
    lf.n = 0;
    measure_self(st, u, &lf, &g, prof);
}

/* The nearest pair between measured units a and b (gb: b's geometry): b's centre and centre
 * radius bound the search, a figure of a farther from b's centre than the best so far plus
 * b's radius cannot improve it. The same pairs in the same order as a loop over the figures
 * (b's sentinels never win): the same answer to the bit (tests/rulesets/test_engine_fast.c). */
static float nearest_pair_in(const vk_lfigs_t *lf, int a, int na, int b, const vk_ugeo_t *gb,
                             int *fa, int *fb) {
    const float *ax = lf->x + lf->at[a], *ay = lf->y + lf->at[a];
    const float *bx = lf->x + lf->at[b], *by = lf->y + lf->at[b];
    int nb = gb->n, nbp = (nb + VK_LANES - 1) & -VK_LANES;
    opfor_pt_t cb = gb->c;
    float rb = gb->rc, best = 1e30f;
    int ka = -1, kb = -1;
    float row[OPFOR_MAX_FIGURES + VK_LANES];
    if (nb > 0)
        for (int i = 0; i < na; i++) {
            opfor_pt_t p = opfor_pt(ax[i], ay[i]);
            if (ka >= 0) {
                float dc = opfor_dist(p, cb);
                if (dc > rb) {
                    float lb = dc - rb;
                    if (lb * lb > best)
                        continue;
                }
            }
            /* the row's squared distances in whole groups and their least, lane by lane
               (exact: a minimum rounds nothing; a NaN never enters it, as it never passes the
               strict comparison of a scan), then the first figure at it: the one a scan in
               order with a strict comparison keeps */
            float mv[VK_LANES] = {3e38f, 3e38f, 3e38f, 3e38f};
            for (int j = 0; j < nbp; j += VK_LANES)
                for (int q = 0; q < VK_LANES; q++) {
                    float dx = p.x - bx[j + q], dy = p.y - by[j + q];
                    float d2 = dx * dx + dy * dy;
                    row[j + q] = d2;
                    mv[q] = d2 < mv[q] ? d2 : mv[q];
                }
            float m0 = mv[1] < mv[0] ? mv[1] : mv[0], m1 = mv[3] < mv[2] ? mv[3] : mv[2];
            float m = m1 < m0 ? m1 : m0;
            int k = -1;
            if (m < best) {
                best = m;
                for (k = 0; row[k] != m; k++)
                    ;
            }
            if (k >= 0) {
                ka = i;
                kb = k;
            }
        }
    if (ka < 0) {
        if (fa)
            *fa = -1;
        if (fb)
            *fb = -1;
        return 1e30f;
    }
    ka += lf->at[a];
    kb += lf->at[b];
    if (fa)
        *fa = lf->i[ka];
    if (fb)
        *fb = lf->i[kb];
    float gap = sqrtf(best) - lf->r[ka] - lf->r[kb];
    return gap < 0.0f ? 0.0f : gap;
}

/* Measures a, then b, into lf (emptied first) and returns their nearest pair (nearest_pair_in);
 * gb gets b's geometry. */
float vk_measure_pair(const opfor_vk_state_t *st, int a, int b, vk_lfigs_t *lf, vk_ugeo_t *gb,
                      int *fa, int *fb) {
    vk_ugeo_t ga;
    lf->n = 0;
    measure_unit(st, a, lf, &ga);
    measure_unit(st, b, lf, gb);
    return nearest_pair_in(lf, a, ga.n, b, gb, fa, fb);
}

float vk_nearest_pair(const opfor_vk_state_t *st, int a, int b, int *fa, int *fb) {
    vk_lfigs_t lf;
    vk_ugeo_t gb;
    return vk_measure_pair(st, a, b, &lf, &gb, fa, fb);
}

int vk_nearest_fig(const opfor_vk_state_t *st, int u, opfor_pt_t p, float *d2out) {
    const opfor_unit_t *un = &st->units[u];
    float best = 1e30f;
    int bi = -1;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        float d2 = opfor_dist2(st->figures[i].pos, p);
        if (d2 < best) {
            best = d2;
            bi = i;
        }
    }
    if (d2out)
        *d2out = best;
    return bi;
}

/* vk_los, inline for the listing's sight tests. */
static inline int los_figs(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, int g) {
    const opfor_figure_t *a = &st->figures[f], *b = &st->figures[g];
    return vk_terrain_los(ctx, a->pos, vk_radius(a), b->pos, vk_radius(b), NULL);
}

int vk_los(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, int g) {
    return los_figs(ctx, st, f, g);
}

/* vk_unit_sees with the nearest pair (fa, fb) and its gap already known, t measured into lf
 * (nt living figures). */
int vk_unit_sees_from(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                      const vk_lfigs_t *lf, int nt, int fa, int fb, float gap, float max_range) {
    if (fa < 0 || gap > max_range)
        return 0;
    if (los_figs(ctx, st, fa, fb))
        return 1;
    /* Try the other ends of both units: each figure of u against its nearest of t, for a
       few figures spread through the unit (vk_nearest_fig over t's compact copy). */
    const opfor_unit_t *un = &st->units[u];
    const float *tx = lf->x + lf->at[t], *ty = lf->y + lf->at[t];
    int tries = 0;
    int step = un->count > 4 ? un->count / 4 : 1;
    for (int i = un->first; i < un->first + un->count && tries < 4; i += step) {
        if (!vk_alive(st, i) || i == fa)
            continue;
        opfor_pt_t p = st->figures[i].pos;
        float d2 = 1e30f;
        int k = -1;
        for (int j = 0; j < nt; j++) {
            float e = opfor_dist2(opfor_pt(tx[j], ty[j]), p);
            if (e < d2) {
                d2 = e;
                k = j;
            }
        }
        if (k < 0)
            continue;
        tries++;
        k += lf->at[t];
        float g = sqrtf(d2) - vk_radius(&st->figures[i]) - lf->r[k];
        if (g > max_range)
            continue;
        if (los_figs(ctx, st, i, lf->i[k]))
            return 1;
    }
    return 0;
}

int vk_unit_sees(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                 float max_range) {
    vk_lfigs_t lf;
    vk_ugeo_t gt;
    int fa, fb;
    float gap = vk_measure_pair(st, u, t, &lf, &gt, &fa, &fb);
    return vk_unit_sees_from(ctx, st, u, t, &lf, gt.n, fa, fb, gap, max_range);
}

/* ---------------------------------------------------------------- legal lists */

typedef struct lister {
    opfor_vk_action_t *out;
    int n, max;
    uint32_t want; /* groups to list (bit per opfor_vk_group); all bits: the full list */
} lister_t;

#define G(g) (1u << (g))
#define G_ALL 0xFFFFFFFFu
_Static_assert(OPFOR_VK_GROUP_COUNT <= 32, "groups fit a 32-bit mask");

/* Appends an action of group g (a kind, or OPFOR_VK_GROUP_MOVING_FIRE) when the lister
 * wants that group and has room; NULL otherwise. */
static opfor_vk_action_t *push_g(lister_t *l, int g, int kind, int unit) {
    if (!(l->want & G(g)) || l->n >= l->max)
        return NULL;
    opfor_vk_action_t *a = &l->out[l->n++];
    *a = (opfor_vk_action_t){.kind = (uint8_t)kind,
                             .unit = (uint8_t)unit,
                             .target = OPFOR_VK_NONE,
                             .figure = OPFOR_VK_NO_FIGURE};
    return a;
}

static opfor_vk_action_t *push(lister_t *l, int kind, int unit) {
    return push_g(l, kind, kind, unit);
}

/* push (kind, unit) once per destination dests[i], i < nd, each with flags and via (the same
 * actions as a loop of push, setting dest, flags and via of each that fits): one test of the
 * lister, then whole actions copied from a template. */
static void push_dests(lister_t *l, int kind, int unit, const opfor_pt_t *dests, int nd,
                       unsigned flags, const opfor_pt_t *via) {
    if (!(l->want & G(kind)))
        return;
    int room = l->max - l->n, n = nd < room ? nd : room;
    opfor_vk_action_t t = {.kind = (uint8_t)kind,
                           .unit = (uint8_t)unit,
                           .target = OPFOR_VK_NONE,
                           .figure = OPFOR_VK_NO_FIGURE,
                           .flags = (uint16_t)flags};
    /* the first eight bytes (kind .. flags) as one word, stored whole */
    _Static_assert(offsetof(opfor_vk_action_t, dest) == 8, "dest follows eight bytes of fields");
    uint64_t head;
    memcpy(&head, &t, sizeof head);
    opfor_vk_action_t *a = &l->out[l->n];
    for (int i = 0; i < n; i++) {
        memcpy(&a[i], &head, sizeof head);
        a[i].dest = dests[i];
        a[i].via = via ? via[i] : opfor_pt(0.0f, 0.0f);
    }
    if (n > 0)
        l->n += n;
}

/* Enemy units by distance (nearest first), at most max; returns count. Each carries its
 * geometry, the exact base-to-base gap of the nearest pair and (lazily) visibility. */
typedef struct enemy {
    int u;
    int fa, fb;    /* the nearest pair: our figure, theirs */
    float gap;     /* nearest pair, base to base */
    int vis;       /* -1 not yet known, 0 hidden, 1 some figure sees some figure */
    vk_ugeo_t geo; /* its centre and radius */
} enemy_t;

/* push (kind, unit) aimed at enemy e: its centre and its unit. */
static inline opfor_vk_action_t *push_at(lister_t *l, int kind, int unit, const enemy_t *e) {
    opfor_vk_action_t *x = push(l, kind, unit);
    if (x) {
        x->dest = e->geo.c;
        x->target = (uint8_t)e->u;
    }
    return x;
}

/* Enemy units of u by distance (nearest first), at most max; returns the count. u must be
 * measured into lf and geo[u]; every enemy t on the table is measured here (units are measured
 * only when needed). */
static int enemies_by_distance(const opfor_vk_state_t *st, int u, vk_lfigs_t *lf, vk_ugeo_t *geo,
                               enemy_t *out, int max) {
    int side = st->units[u].side;
    /* order by a lower bound of the gap (centre distance less both radii), keep 2 * max */
    int cand[OPFOR_MAX_UNITS];
    float lb[OPFOR_MAX_UNITS];
    int nc = 0;
    for (int t = 0; t < st->nunits; t++) {
        if (st->units[t].side == side || st->ux[t].removed ||
            (st->units[t].flags & OPFOR_UNIT_OFF_TABLE))
            continue;
        measure_unit(st, t, lf, &geo[t]); /* enemies only: friends are not needed here */
        if (geo[t].n == 0)
            continue;
        float d = opfor_dist(geo[u].c, geo[t].c) - geo[u].r - geo[t].r;
        int k = nc++;
        while (k > 0 && lb[k - 1] > d) {
            lb[k] = lb[k - 1];
            cand[k] = cand[k - 1];
            k--;
        }
        lb[k] = d;
        cand[k] = t;
    }
    int keep = nc < 2 * max ? nc : 2 * max;
    int n = 0;
    for (int i = 0; i < keep; i++) {
        int t = cand[i];
        int fa, fb;
        float gap = nearest_pair_in(lf, u, geo[u].n, t, &geo[t], &fa, &fb);
        int k = n < max ? n++ : max;
        if (k == max && (max == 0 || gap >= out[max - 1].gap))
            continue;
        if (k == max)
            k = max - 1;
        while (k > 0 && out[k - 1].gap > gap) {
            out[k] = out[k - 1];
            k--;
        }
        out[k].u = t;
        out[k].fa = fa;
        out[k].fb = fb;
        out[k].gap = gap;
        out[k].vis = -1;
        out[k].geo = geo[t];
    }
    return n;
}

static int enemy_visible(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                         const vk_lfigs_t *lf, enemy_t *e) {
    if (e->vis < 0)
        e->vis = vk_unit_sees_from(ctx, st, u, e->u, lf, e->geo.n, e->fa, e->fb, e->gap, 1e9f);
    return e->vis;
}

static opfor_pt_t clamp_table(const opfor_vk_ctx_t *ctx, opfor_pt_t p) {
    float w = ctx->sc.table.width, d = ctx->sc.table.depth;
    if (p.x < 1.0f)
        p.x = 1.0f;
    if (p.y < 1.0f)
        p.y = 1.0f;
    if (p.x > w - 1.0f)
        p.x = w - 1.0f;
    if (p.y > d - 1.0f)
        p.y = d - 1.0f;
    return p;
}

/* Cover near p (the centre of an area feature giving cover, or a spot just behind a wall or
 * hedge): the nearest within 14 in that a unit (riders when mounted) may enter, in *out14
 * (*found14), and the nearest within 6 in for anyone, in *out6 (*found6). One pass over the
 * features for both. */
static void nearest_cover2(const opfor_vk_ctx_t *ctx, opfor_pt_t p, int mounted, int *found14,
                           opfor_pt_t *out14, int *found6, opfor_pt_t *out6) {
    float best14 = 14.0f * 14.0f, best6 = 6.0f * 6.0f;
    *found14 = *found6 = 0;
    for (int i = 0; i < ctx->sc.table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[i];
        if (f->cover == OPFOR_COVER_NONE || f->move == OPFOR_MOVE_IMPASSABLE)
            continue;
        opfor_pt_t c;
        if (f->shape == OPFOR_SHAPE_AREA)
            c = opfor_pt(0.5f * (f->lo.x + f->hi.x), 0.5f * (f->lo.y + f->hi.y));
        else {
            /* A line whose box (which holds its points) is more than its spot's offset and 15
               in from p on an axis offers a spot more than 14 in away (an inch to spare for
               rounding): neither best can take it. */
            float off = 0.5f * f->width + 0.7f + 15.0f;
            if (f->lo.x - p.x > off || p.x - f->hi.x > off || f->lo.y - p.y > off ||
                p.y - f->hi.y > off)
                continue;
            /* just behind the line (wall, hedge), on the side of p */
            float bestd = 1e30f;
            c = p;
            for (int k = 0; k + 1 < f->npts; k++) {
                opfor_pt_t q = opfor_seg_closest(f->pts[k], f->pts[k + 1], p);
                float d = opfor_dist2(q, p);
                if (d < bestd) {
                    bestd = d;
                    c = q;
                }
            }
            opfor_vec_t back = opfor_vnorm(opfor_vsub(p, c));
            c = opfor_vadd(c, opfor_vscale(back, 0.5f * f->width + 0.7f));
        }
        float d = opfor_dist2(c, p);
        if (d < best14 && !(mounted && (f->flags & OPFOR_TF_NO_MOUNTED))) {
            best14 = d;
            *out14 = c;
            *found14 = 1;
        }
        if (d < best6) {
            best6 = d;
            *out6 = c;
            *found6 = 1;
        }
    }
}

/* Whether unit t has some living persons wounded and some not (*wounded), some leaders or
 * generals and some not (*leader): the targets of aimed fire (IX), in one pass over its living
 * figures as measured into lf (nt of them). */
static void aim_targets(const opfor_vk_state_t *st, const vk_lfigs_t *lf, int t, int nt,
                        int *wounded, int *leader) {
    int w = 0, l = 0, n = 0;
    for (int k = lf->at[t], e = k + nt; k < e; k++) {
        const opfor_figure_t *f = &st->figures[lf->i[k]];
        if (vk_is_person(f)) {
            n++;
            w += (f->flags & OPFOR_FIG_WOUNDED) != 0;
            l += (f->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)) != 0;
        }
    }
    *wounded = w > 0 && w < n;
    *leader = l > 0 && l < n;
}

/* The skills that make a figure worth naming as the target of fire (IX: players choose each
 * firer's target), most wanted first: the mesmerist, the signaller, the sharpshooter, the
 * medic, the colours, the musician. Leaders have their own aim (OPFOR_VK_AF_AIM_GENERAL). */
static const uint16_t KEY_SKILLS[] = {OPFOR_S_MESMERIST, OPFOR_S_SIGNALLER, OPFOR_S_SHARPSHOOTER,
                                      OPFOR_S_MEDIC,     OPFOR_S_COLOURS,   OPFOR_S_MUSICIAN};
#define KEY_SKILL_MASK                                                                             \
    (OPFOR_S_MESMERIST | OPFOR_S_SIGNALLER | OPFOR_S_SHARPSHOOTER | OPFOR_S_MEDIC |                \
     OPFOR_S_COLOURS | OPFOR_S_MUSICIAN)

/* The figure of unit t (its nt living figures in lf) the list offers to fire at by name: of
 * the first skill of KEY_SKILLS that some but not all of t's people hold, the first holder in
 * index order that is no leader and may be named (vk_fire_figure_ok). -1: none. */
static int key_figure(const opfor_vk_state_t *st, const vk_lfigs_t *lf, int t, int nt) {
    unsigned any = 0, all = ~0u;
    for (int k = lf->at[t], e = k + nt; k < e; k++) {
        const opfor_figure_t *f = &st->figures[lf->i[k]];
        if (vk_is_person(f)) {
            any |= f->skills;
            all &= f->skills;
        }
    }
    if (!(any & KEY_SKILL_MASK & ~all))
        return -1;
    for (size_t s = 0; s < sizeof KEY_SKILLS / sizeof KEY_SKILLS[0]; s++) {
        if (!(any & KEY_SKILLS[s]) || (all & KEY_SKILLS[s]))
            continue;
        for (int k = lf->at[t], e = k + nt; k < e; k++) {
            int g = lf->i[k];
            const opfor_figure_t *f = &st->figures[g];
            if ((f->skills & KEY_SKILLS[s]) && !(f->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)) &&
                vk_fire_figure_ok(st, t, g))
                return g;
        }
    }
    return -1;
}

/* The first of the features bf[0..nbf) (in that order) that stops a move along the line a-b;
 * -1 if none. */
static inline int line_blocker(const opfor_vk_ctx_t *ctx, const uint8_t *bf, int nbf, opfor_pt_t a,
                               opfor_pt_t b) {
    float lox = a.x < b.x ? a.x : b.x, hix = a.x > b.x ? a.x : b.x;
    float loy = a.y < b.y ? a.y : b.y, hiy = a.y > b.y ? a.y : b.y;
    for (int i = 0; i < nbf; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[bf[i]];
        if (f->hi.x < lox || f->lo.x > hix || f->hi.y < loy || f->lo.y > hiy)
            continue;
        /* (a line ending inside an area crosses its outline) */
        if (opfor_feature_seg_enters(f, a, b))
            return bf[i];
    }
    return -1;
}

/* The features of ctx->block_feat (in that order) that can stop a move: impassable terrain,
 * and ground closed to riders and guns when `riders` (VIII). Returns how many, in bf. A listing
 * sorts them out once for all its blocker searches. */
static int block_features(const opfor_vk_ctx_t *ctx, int riders, uint8_t *bf) {
    int n = 0;
    for (int i = 0; i < ctx->nblock_feat; i++)
        if (riders || ctx->sc.table.features[ctx->block_feat[i]].move == OPFOR_MOVE_IMPASSABLE)
            bf[n++] = ctx->block_feat[i];
    return n;
}

/* The first of the blocking features bf[0..nbf) (block_features) that stops a formation of
 * radius r moving along a-b, met by its centre line, else by its left flank, else by its right;
 * -1 if none, and -1 whenever no feature's box meets the box of the swept capsule (the
 * segment's box grown by r). */
static int move_blocker_in(const opfor_vk_ctx_t *ctx, const uint8_t *bf, int nbf, opfor_pt_t a,
                           opfor_pt_t b, float r) {
    float lox = (a.x < b.x ? a.x : b.x) - r, hix = (a.x > b.x ? a.x : b.x) + r;
    float loy = (a.y < b.y ? a.y : b.y) - r, hiy = (a.y > b.y ? a.y : b.y) + r;
    int near = 0;
    for (int i = 0; i < nbf && !near; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[bf[i]];
        near = f->hi.x >= lox && f->lo.x <= hix && f->hi.y >= loy && f->lo.y <= hiy;
    }
    if (!near)
        return -1;
    int fi = line_blocker(ctx, bf, nbf, a, b);
    if (fi >= 0 || r <= 0.0f)
        return fi;
    opfor_vec_t side = opfor_vscale(opfor_vperp(opfor_vnorm(opfor_vsub(b, a))), r);
    if (side.x == 0.0f && side.y == 0.0f)
        return -1;
    fi = line_blocker(ctx, bf, nbf, opfor_vadd(a, side), opfor_vadd(b, side));
    if (fi >= 0)
        return fi;
    return line_blocker(ctx, bf, nbf, opfor_vsub(a, side), opfor_vsub(b, side));
}

int vk_move_blocker_wide(const opfor_vk_ctx_t *ctx, opfor_pt_t a, opfor_pt_t b, float r,
                         int riders) {
    uint8_t bf[OPFOR_MAX_FEATURES];
    int nbf = block_features(ctx, riders, bf);
    return move_blocker_in(ctx, bf, nbf, a, b, r);
}

/* A waypoint around feature fi for a unit (centre c, radius r) heading for dest: a corner of
 * the feature pushed outward by the unit's radius and an inch, reachable from c without
 * meeting a blocker and shortest in total (corners with a clear way on first); 0 when there
 * is none. reach[k] remembers whether corner k of fi is reachable from c (0 not yet known,
 * 1 yes, 2 no): the corners and that answer depend on fi, c and r only, so searches around
 * the same feature for other destinations of the same unit share it. */
static int waypoint_around(const opfor_vk_ctx_t *ctx, const uint8_t *bf, int nbf, int fi,
                           opfor_pt_t c, float r, opfor_pt_t dest, uint8_t *reach,
                           opfor_pt_t *via) {
    const opfor_terrain_feature_t *f = &ctx->sc.table.features[fi];
    opfor_pt_t mid = opfor_pt(0.5f * (f->lo.x + f->hi.x), 0.5f * (f->lo.y + f->hi.y));
    float off = r + 1.0f + (f->shape == OPFOR_SHAPE_LINE ? 0.5f * f->width : 0.0f);
    opfor_pt_t cand[OPFOR_POLY_MAX_PTS];
    float len[OPFOR_POLY_MAX_PTS];
    int ck[OPFOR_POLY_MAX_PTS]; /* each candidate's corner */
    int n = 0;
    for (int k = 0; k < f->npts; k++) {
        opfor_pt_t p = f->pts[k];
        opfor_vec_t out = opfor_vnorm(opfor_vsub(p, mid));
        if (f->shape == OPFOR_SHAPE_LINE && f->npts >= 2 && (k == 0 || k == f->npts - 1)) {
            /* past the end of a line, along it */
            opfor_pt_t q = f->pts[k == 0 ? 1 : f->npts - 2];
            out = opfor_vnorm(opfor_vsub(p, q));
        } else if (f->shape == OPFOR_SHAPE_LINE) {
            continue; /* only a line's ends lead around it */
        }
        if (out.x == 0.0f && out.y == 0.0f)
            continue;
        opfor_pt_t v = clamp_table(ctx, opfor_vadd(p, opfor_vscale(out, off)));
        float d = opfor_dist(c, v) + opfor_dist(v, dest);
        int j = n++; /* stable insertion by total length */
        while (j > 0 && len[j - 1] > d) {
            len[j] = len[j - 1];
            cand[j] = cand[j - 1];
            ck[j] = ck[j - 1];
            j--;
        }
        len[j] = d;
        cand[j] = v;
        ck[j] = k;
    }
    /* The shortest corner reachable in a straight line from which the way on is clear, else
       the shortest reachable one. */
    int fallback = -1;
    for (int j = 0; j < n; j++) {
        uint8_t *rk = &reach[ck[j]];
        if (!*rk)
            *rk = move_blocker_in(ctx, bf, nbf, c, cand[j], r) >= 0 ? 2 : 1;
        if (*rk == 2)
            continue;
        if (move_blocker_in(ctx, bf, nbf, cand[j], dest, r) < 0) {
            *via = cand[j];
            return 1;
        }
        if (fallback < 0)
            fallback = j;
    }
    if (fallback < 0)
        return 0;
    *via = cand[fallback];
    return 1;
}

/* Moves of a balloon or dirigible (XII.D): a dirigible aloft steers toward the usual
 * destinations; either may climb or descend in place (one level, or one or two). */
static void list_flight(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                        const opfor_pt_t *dests, int nd, opfor_pt_t here, lister_t *l) {
    if (vk_craft(ctx, st, u) == VK_CRAFT_DIRIGIBLE && st->ux[u].altitude > 0)
        for (int i = 0; i < nd; i++) {
            opfor_vk_action_t *a = push(l, OPFOR_VK_ADVANCE, u);
            if (a)
                a->dest = dests[i];
        }
    static const int DZ[4] = {1, 2, -1, -2};
    for (int i = 0; i < 4; i++) {
        if (!vk_fly_ok(ctx, st, u, DZ[i]))
            continue;
        opfor_vk_action_t *a = push(l, OPFOR_VK_ADVANCE, u);
        if (!a)
            break;
        a->dest = here;
        a->flags = DZ[i] > 0 ? OPFOR_VK_AF_CLIMB : OPFOR_VK_AF_DESCEND;
        a->arc = (uint8_t)(DZ[i] > 0 ? DZ[i] : -DZ[i]);
    }
}

/* The rank of figure x among u's living persons by distance from p (nearer first, then by
 * index): how many come before it in vk_split's choice of the men nearest p. */
static int split_rank(const opfor_vk_state_t *st, int u, opfor_pt_t p, int x) {
    const opfor_unit_t *un = &st->units[u];
    float dx = opfor_dist2(st->figures[x].pos, p);
    int r = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (i == x || !vk_alive(st, i) || !vk_is_person(&st->figures[i]))
            continue;
        float d = opfor_dist2(st->figures[i].pos, p);
        r += d < dx || (d == dx && i < x);
    }
    return r;
}

/* A cheap sufficient test of vk_split_ok for the split of the n men nearest leader lead (both
 * leaders who may head a part; first the unit's first such): lead goes with them and first
 * stays. The listing asks this; check_action asks vk_split_ok. */
static int split_listable(const opfor_vk_state_t *st, int u, int first, int lead, int n) {
    opfor_pt_t p = st->figures[lead].pos;
    return n >= 1 && split_rank(st, u, p, lead) < n && split_rank(st, u, p, first) >= n;
}

/* Splits the owner may order (V.A): the middle cut, and for each of the next two leaders after
 * the first who may head a part, half of the unit or a quarter of it (at least two) nearest
 * him going off with him, when both parts keep such a leader. Repeated splits make three or
 * more parts. */
static void list_splits(const opfor_vk_state_t *st, int u, int alive, lister_t *l) {
    push(l, OPFOR_VK_SPLIT, u);
    if (!(l->want & G(OPFOR_VK_SPLIT)))
        return;
    const opfor_unit_t *un = &st->units[u];
    int first = -1, nl = 0;
    int sizes[2] = {alive / 2, alive / 4 < 2 ? 2 : alive / 4};
    if (st->nunits >= OPFOR_MAX_UNITS)
        return;
    for (int i = un->first; i < un->first + un->count && nl < 2; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!vk_alive(st, i) || !vk_is_person(f) || !(f->skills & OPFOR_S_LEADER) ||
            (st->figx[i] & OPFOR_VK_FX_PROMOTED))
            continue;
        if (first < 0) {
            first = i;
            continue;
        }
        nl++;
        for (int k = 0; k < 2; k++) {
            if (k == 1 && sizes[1] >= sizes[0])
                break;
            if (!split_listable(st, u, first, i, sizes[k]))
                continue;
            opfor_vk_action_t *a = push(l, OPFOR_VK_SPLIT, u);
            if (!a)
                return;
            a->figure = (uint16_t)sizes[k];
            a->dest = f->pos;
        }
    }
}

/* vk_can_mount of u, asked once per listing: *known is -1 until asked, then the answer. */
static int can_mount_once(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                          int *known) {
    if (*known < 0)
        *known = vk_can_mount(ctx, st, u);
    return *known;
}

/* Moves with a remount or dismount as part of them (VIII), for the planner: riders ride to the
 * first two destinations and dismount where they stop, or dismount first and walk into the
 * nearest cover (cov, NULL when none); riders on foot with their horses mount and then advance
 * to the first two destinations or gallop to the first. */
static void list_mount_moves(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                             const vk_uprof_t *prof, const opfor_pt_t *dests, int nd,
                             const opfor_pt_t *cov, int *mountable, lister_t *l) {
    int n2 = nd < 2 ? nd : 2;
    if (prof->flags & OPFOR_FIG_MOUNTED) { /* vk_can_dismount */
        for (int i = 0; i < n2; i++) {
            opfor_vk_action_t *a = push(l, OPFOR_VK_ADVANCE, u);
            if (!a)
                return;
            a->dest = dests[i];
            a->flags = OPFOR_VK_AF_DISMOUNT;
            a->arc = OPFOR_VK_AT_END;
        }
        opfor_vk_action_t *a = cov ? push(l, OPFOR_VK_ADVANCE, u) : NULL;
        if (a) {
            a->dest = *cov;
            a->flags = OPFOR_VK_AF_DISMOUNT;
            a->arc = OPFOR_VK_AT_START;
        }
    }
    if (prof->horse_free && n2 > 0 && (l->want & (G(OPFOR_VK_ADVANCE) | G(OPFOR_VK_RUN))) &&
        can_mount_once(ctx, st, u, mountable)) {
        for (int i = 0; i <= n2; i++) {
            int run = i == n2; /* the last: gallop to the first destination */
            opfor_vk_action_t *a = push(l, run ? OPFOR_VK_RUN : OPFOR_VK_ADVANCE, u);
            if (!a)
                continue;
            a->dest = dests[run ? 0 : i];
            a->flags = OPFOR_VK_AF_MOUNT;
            a->arc = OPFOR_VK_AT_START;
        }
    }
}

static void list_moves(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                       const vk_ugeo_t *ug, const vk_uprof_t *prof, enemy_t *en, int nen,
                       unsigned k, int *mountable, lister_t *l) {
    vk_ugeo_t g = *ug;
    int side = st->units[u].side;
    opfor_pt_t dests[16];
    int nd = 0;
    int wavering = st->units[u].status == OPFOR_WAVERING;
    if (!wavering) {
        for (int i = 0; i < nen && i < 3; i++)
            dests[nd++] = en[i].geo.c;
        for (int o = 0; o < ctx->sc.nobjectives && nd < 9; o++)
            dests[nd++] = ctx->sc.objectives[o].pos;
        if (nen > 0) {
            vk_ugeo_t eg = en[0].geo;
            opfor_vec_t d = opfor_vnorm(opfor_vsub(eg.c, g.c));
            opfor_vec_t p = opfor_vperp(d);
            float off = eg.r + g.r + 6.0f;
            dests[nd++] = clamp_table(ctx, opfor_vadd(eg.c, opfor_vscale(p, off)));
            dests[nd++] = clamp_table(ctx, opfor_vsub(eg.c, opfor_vscale(p, off)));
        }
    }
    opfor_pt_t cov, cov6 = g.c;
    int has_cov, has_cov6;
    nearest_cover2(ctx, g.c, (prof->flags & OPFOR_FIG_MOUNTED) != 0, &has_cov, &cov, &has_cov6,
                   &cov6);
    if (has_cov)
        dests[nd++] = cov;
    /* back toward the own edge */
    dests[nd++] = clamp_table(ctx, opfor_vadd(g.c, opfor_vscale(ctx->home[side], 12.0f)));
    if (vk_craft(ctx, st, u) != VK_CRAFT_NONE) { /* flying craft neither run nor crawl */
        if (k & VK_K_MOVE)
            list_flight(ctx, st, u, dests, nd, g.c, l);
        return;
    }
    /* Waypoints (VIII moves are straight legs): for the first few destinations whose straight
       line runs into impassable ground (or a building, for riders and guns), a way round. */
    opfor_pt_t wdest[VK_MAX_WAYPOINTS], wvia[VK_MAX_WAYPOINTS];
    int nw = 0;
    if ((k & VK_K_MOVE) && ctx->nblock_feat > 0) {
        /* terrain closed to riders stops riders, guns and wagons (VIII); with no feature that
           can stop this unit, no line is blocked */
        int riders = (prof->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0;
        uint8_t bf[OPFOR_MAX_FEATURES];
        int nbf = block_features(ctx, riders, bf);
        /* at most a few searches: each costs several sight-line tests */
        uint8_t reach[OPFOR_POLY_MAX_PTS]; /* waypoint_around's memo for feature reach_fi */
        int reach_fi = -1;
        for (int i = 0, tries = 0;
             nbf > 0 && i < nd && nw < VK_MAX_WAYPOINTS && tries < VK_MAX_WAYPOINTS; i++) {
            int fi = move_blocker_in(ctx, bf, nbf, g.c, dests[i], g.r);
            if (fi >= 0 && fi != reach_fi) {
                memset(reach, 0, sizeof reach);
                reach_fi = fi;
            }
            if (fi >= 0 && ++tries &&
                waypoint_around(ctx, bf, nbf, fi, g.c, g.r, dests[i], reach, &wvia[nw])) {
                wdest[nw] = dests[i];
                nw++;
            }
        }
    }
    if (k & VK_K_MOVE) {
        push_dests(l, OPFOR_VK_ADVANCE, u, dests, nd, 0, NULL);
        push_dests(l, OPFOR_VK_ADVANCE, u, wdest, nw, OPFOR_VK_AF_VIA, wvia);
        push_dests(l, OPFOR_VK_RUN, u, dests, nd, 0, NULL);
        push_dests(l, OPFOR_VK_RUN, u, wdest, nw, OPFOR_VK_AF_VIA, wvia);
        list_mount_moves(ctx, st, u, prof, dests, nd, has_cov ? &cov : NULL, mountable, l);
    }
    if (k & VK_K_CRAWL) {
        opfor_vk_action_t *a = push(l, OPFOR_VK_CRAWL, u);
        if (a)
            a->dest = g.c; /* take cover where it stands */
        if ((k & VK_K_MOVE) && (l->want & G(OPFOR_VK_CRAWL)) && has_cov6) {
            a = push(l, OPFOR_VK_CRAWL, u);
            if (a)
                a->dest = cov6;
        }
    }
}

static int fire_targets(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                        const vk_lfigs_t *lf, enemy_t *en, int nen, int *out, int max) {
    float reach = vk_unit_reach(st, u);
    int n = 0;
    if (reach <= 0.0f)
        return 0;
    for (int i = 0; i < nen && n < max; i++) {
        int t = en[i].u;
        /* altitude levels between them add range brackets (XII.D) */
        int lv = vk_levels(st, u, t);
        if (en[i].gap > (lv ? vk_unit_reach_lv(&ctx->model, st, u, lv) : reach) ||
            !vk_fire_target_ok(st, t))
            continue;
        if (enemy_visible(ctx, st, u, lf, &en[i]))
            out[n++] = i;
    }
    return n;
}

/* The charges at targets[0..n) again, each with the chargers holding after the melee (X step
 * 8: the follow-up advance is theirs to make or not). */
static void push_holds(lister_t *l, int u, const uint8_t *targets, int n) {
    for (int i = 0; i < n; i++) {
        opfor_vk_action_t *a = push(l, OPFOR_VK_CHARGE, u);
        if (!a)
            break;
        a->target = targets[i];
        a->flags = OPFOR_VK_AF_HOLD;
    }
}

/* The acting unit's actions. Everything is measured once and passed down: the unit (its living
 * figures, geometry and profile, in one pass), each enemy unit, the nearest pairs, sight on
 * demand. The profile's or-ed skills and weapons skip the helpers whose answer must be no (a
 * unit without a signaller cannot call support, ...); its counts replace the recounts. */
static void list_actions(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, lister_t *l) {
    int u = st->cur;
    const opfor_unit_t *un = &st->units[u];
    unsigned k = vk_allowed_kinds(st, u);
    vk_lfigs_t lf;
    vk_ugeo_t geo[OPFOR_MAX_UNITS]; /* filled as needed: u now, enemies, merge partners */
    vk_uprof_t prof;
    lf.n = 0;
    measure_self(st, u, &lf, &geo[u], &prof);
    int gunf = prof.gun; /* vk_gun_figure, looked up once: listing changes nothing */
    int has_mg = (prof.weapons & OPFOR_W_MG) != 0; /* vk_mg_figure(st, u) >= 0 */
    int mountable = -1; /* vk_can_mount, asked at most once (can_mount_once) */
    if (k & VK_K_FIGHT)
        push(l, OPFOR_VK_FIGHT, u);
    if (k & VK_K_RALLY)
        push(l, OPFOR_VK_RALLY, u);
    if (k & VK_K_STAND) {
        push(l, OPFOR_VK_STAND, u);
        if (vk_can_load(st, u, has_mg, gunf))
            push(l, OPFOR_VK_LOAD, u);
    }
    if (k == VK_K_FIGHT || k == (VK_K_FIGHT | VK_K_RALLY) || k == VK_K_STAND)
        return;
    uint32_t want = l->want;
    if (!(want & ~(G(OPFOR_VK_FIGHT) | G(OPFOR_VK_RALLY) | G(OPFOR_VK_STAND) | G(OPFOR_VK_LOAD))))
        return;
    enemy_t en[VK_MAX_ENEMY_CAND];
    /* Groups that need no enemy: skip the search (lazy listing of one group). */
    const uint32_t no_enemy = G(OPFOR_VK_HEAL) | G(OPFOR_VK_LIMBER) | G(OPFOR_VK_MOUNT) |
                              G(OPFOR_VK_DISMOUNT) | G(OPFOR_VK_SPLIT) | G(OPFOR_VK_MERGE) |
                              G(OPFOR_VK_TO_REAR);
    int nen = (want & ~no_enemy) ? enemies_by_distance(st, u, &lf, geo, en, VK_MAX_ENEMY_CAND) : 0;
    int mobile =
        !(vk_gun_unit_f(ctx, st, u, gunf) && !(un->flags & OPFOR_UNIT_LIMBERED)); /* vk_can_move */
    if ((k & (VK_K_MOVE | VK_K_CRAWL)) && mobile &&
        (want & (G(OPFOR_VK_ADVANCE) | G(OPFOR_VK_RUN) | G(OPFOR_VK_CRAWL))))
        list_moves(ctx, st, u, &geo[u], &prof, en, nen, k, &mountable, l);
    int tg[4];
    int ntg = (k & VK_K_FIRE) && (want & (G(OPFOR_VK_FIRE) | G(OPFOR_VK_GROUP_MOVING_FIRE)))
                  ? fire_targets(ctx, st, u, &lf, en, nen, tg, 4)
                  : 0;
    if ((k & VK_K_MOVE) && mobile && vk_craft(ctx, st, u) == VK_CRAFT_NONE) {
        for (int i = 0; i < ntg && i < 3; i++) { /* advance with moving fire (VI) */
            opfor_vk_action_t *a = push_g(l, OPFOR_VK_GROUP_MOVING_FIRE, OPFOR_VK_ADVANCE, u);
            if (!a)
                break;
            a->dest = en[tg[i]].geo.c;
            a->target = (uint8_t)en[tg[i]].u;
            a->flags = OPFOR_VK_AF_FIRE;
        }
        /* moving fire at any point of the move (IX), here its first: fire from where the
           unit stands, then fall back toward the own edge (the waypoint is the fire point) */
        opfor_pt_t back =
            clamp_table(ctx, opfor_vadd(geo[u].c, opfor_vscale(ctx->home[un->side], 12.0f)));
        for (int i = 0; i < ntg && i < 2; i++) {
            opfor_vk_action_t *a = push_g(l, OPFOR_VK_GROUP_MOVING_FIRE, OPFOR_VK_ADVANCE, u);
            if (!a)
                break;
            a->dest = back;
            a->via = geo[u].c;
            a->target = (uint8_t)en[tg[i]].u;
            a->flags = OPFOR_VK_AF_FIRE | OPFOR_VK_AF_VIA | OPFOR_VK_AF_FIRE_VIA;
        }
    }
    if ((k & VK_K_CRAWL) && mobile && vk_craft(ctx, st, u) == VK_CRAFT_NONE) {
        /* crawl with moving fire (VI: a crawl may be combined with fire, made as moving
           fire): toward the target, or where it lies when it may only take cover (VII) */
        for (int i = 0; i < ntg && i < 2; i++) {
            opfor_vk_action_t *a = push_g(l, OPFOR_VK_GROUP_MOVING_FIRE, OPFOR_VK_CRAWL, u);
            if (!a)
                break;
            a->dest = (k & VK_K_MOVE) ? en[tg[i]].geo.c : geo[u].c;
            a->target = (uint8_t)en[tg[i]].u;
            a->flags = OPFOR_VK_AF_FIRE;
        }
    }
    /* charges; the same with the chargers holding after the melee (X step 8) come last in
       the list, so that they never crowd out another kind of action */
    uint8_t charged[VK_MAX_ENEMY_CAND];
    int ncharged = 0;
    if ((k & VK_K_CHARGE) && (want & G(OPFOR_VK_CHARGE)) && gunf < 0) {
        float reach = vk_charge_reach(ctx, st, u);
        for (int i = 0; i < nen; i++)
            if (en[i].gap <= reach && vk_charge_target_ok(st, u, en[i].u) &&
                enemy_visible(ctx, st, u, &lf, &en[i])) {
                opfor_vk_action_t *a = push(l, OPFOR_VK_CHARGE, u);
                if (a)
                    a->target = charged[ncharged++] = (uint8_t)en[i].u;
            }
    }
    for (int i = 0; i < ntg; i++) {
        int t = en[tg[i]].u;
        opfor_vk_action_t *a = push(l, OPFOR_VK_FIRE, u);
        if (a)
            a->target = (uint8_t)t;
        if (i >= 2)
            continue;
        int aim_wounded, aim_leader;
        aim_targets(st, &lf, t, en[tg[i]].geo.n, &aim_wounded, &aim_leader);
        if (aim_wounded && (a = push(l, OPFOR_VK_FIRE, u))) {
            a->target = (uint8_t)t;
            a->flags = OPFOR_VK_AF_AIM_WOUNDED;
        }
        if (aim_leader && (a = push(l, OPFOR_VK_FIRE, u))) {
            a->target = (uint8_t)t;
            a->flags = OPFOR_VK_AF_AIM_GENERAL;
        }
        /* a figure named as the target (IX: the player chooses each firer's target) */
        int key = key_figure(st, &lf, t, en[tg[i]].geo.n);
        if (key >= 0 && (a = push(l, OPFOR_VK_FIRE, u))) {
            a->target = (uint8_t)t;
            a->figure = (uint16_t)key;
        }
        /* at the balloon itself rather than its occupants (XII.D) */
        if (vk_craft(ctx, st, t) != VK_CRAFT_NONE && vk_can_fire_craft(ctx, st, u, t) &&
            (a = push(l, OPFOR_VK_FIRE, u))) {
            a->target = (uint8_t)t;
            a->flags = OPFOR_VK_AF_AT_CRAFT;
        }
    }
    if (k & VK_K_FIRE) {
        /* MG arcs (IX) toward each visible enemy */
        if ((want & G(OPFOR_VK_FIRE_MG)) && has_mg) {
            int mgt[3], nm = 0;
            for (int i = 0; i < nen && nm < 3; i++)
                if (enemy_visible(ctx, st, u, &lf, &en[i]))
                    mgt[nm++] = i;
            static const int ARCS[3] = {OPFOR_ARC_45, OPFOR_ARC_DOUBLE_45, OPFOR_ARC_90};
            int arc_ok[3] = {0, 0, 0}; /* the same for every target: asked once */
            for (int a = 0; a < 3 && nm > 0; a++)
                arc_ok[a] = vk_can_fire_mg(st, u, ARCS[a]);
            for (int i = 0; i < nm; i++)
                for (int a = 0; a < 3; a++)
                    if (arc_ok[a]) {
                        opfor_vk_action_t *x = push(l, OPFOR_VK_FIRE_MG, u);
                        if (!x)
                            break;
                        x->dest = en[mgt[i]].geo.c;
                        x->arc = (uint8_t)ARCS[a];
                        x->target = (uint8_t)en[mgt[i]].u;
                    }
        }
        if ((want & G(OPFOR_VK_FIRE_ARTILLERY)) && gunf >= 0 && vk_can_fire_gun(ctx, st, u)) {
            /* aim points in the crew's sight (IX), for the three nearest enemies seen: the
               unit's centre, and its figure nearest the gun when that is more than half a
               blast from the centre (or the centre is out of sight) */
            int gun = gunf;
            float half = 0.5f * ctx->tab->shell_radius;
            int seen[3], near[3], m = 0;
            for (int i = 0; i < nen && m < 3; i++) {
                int j = vk_nearest_fig(st, en[i].u, st->figures[gun].pos, NULL);
                if (j < 0)
                    continue;
                opfor_pt_t p = st->figures[j].pos;
                int sees_c = vk_gun_sees(ctx, st, u, en[i].geo.c);
                int sees_j = opfor_dist(p, en[i].geo.c) > half && vk_gun_sees(ctx, st, u, p);
                if (!sees_c && !sees_j)
                    continue;
                opfor_vk_action_t *x = NULL;
                if (sees_c && !(x = push_at(l, OPFOR_VK_FIRE_ARTILLERY, u, &en[i])))
                    break;
                if (sees_j && (x = push_at(l, OPFOR_VK_FIRE_ARTILLERY, u, &en[i])))
                    x->dest = p;
                if (!x)
                    break;
                seen[m] = i;
                near[m++] = j;
            }
            /* a walker may split its three shots between the units it sees: one at each of
               the first two (or three), in any direction (XII.E) */
            opfor_vk_action_t *x;
            if (m >= 2 && vk_gun_shots(ctx, st, u) == 3 &&
                (x = push_at(l, OPFOR_VK_FIRE_ARTILLERY, u, &en[seen[0]]))) {
                x->flags = OPFOR_VK_AF_VIA;
                x->via = en[seen[1]].geo.c;
                if (m >= 3)
                    x->figure = (uint16_t)near[2];
            }
        }
        if ((want & G(OPFOR_VK_CALL_SUPPORT)) && (prof.skills & OPFOR_S_SIGNALLER) &&
            vk_support_team_ok(ctx, st, u) && st->reg[un->side].lost < st->turn) {
            for (int i = 0, m = 0; i < nen && m < 3; i++) {
                if (!enemy_visible(ctx, st, u, &lf, &en[i]))
                    continue;
                if (!push_at(l, OPFOR_VK_CALL_SUPPORT, u, &en[i]))
                    break;
                m++;
            }
            const opfor_vk_reg_t *rg = &st->reg[un->side];
            if (rg->turns > 0) { /* keep calling on the registered point (IX) */
                opfor_vk_action_t *x = push(l, OPFOR_VK_CALL_SUPPORT, u);
                if (x)
                    x->dest = rg->point;
            }
        }
        if ((want & G(OPFOR_VK_THROW_BOMB)) && (prof.weapons & OPFOR_W_BOMBS) &&
            vk_bombers(st, u) > 0) {
            for (int i = 0, m = 0; i < nen && m < 3; i++) {
                /* measured on the table (from beneath a craft); a bomb bursting on the ground
                   does not reach a craft in the air (XII.D) */
                if (en[i].gap > VK_BOMB_RANGE || st->ux[en[i].u].altitude > 0)
                    continue;
                opfor_vk_action_t *x = push(l, OPFOR_VK_THROW_BOMB, u);
                if (!x)
                    break;
                x->target = (uint8_t)en[i].u;
                m++;
            }
        }
    }
    if ((k & VK_K_HEAL) && (prof.skills & OPFOR_S_MEDIC) &&
        (vk_can_heal(st, u) || ((k & VK_K_OTHER) && vk_can_heal_rear(ctx, st, u))))
        push(l, OPFOR_VK_HEAL, u);
    if (!(k & VK_K_OTHER)) {
        push_holds(l, u, charged, ncharged);
        return;
    }
    if ((want & G(OPFOR_VK_MESMERIZE)) && (prof.skills & OPFOR_S_MESMERIST) &&
        vk_mesmerists(st, u) > 0) {
        const opfor_unit_t *mu = &st->units[u];
        for (int i = 0, m = 0; i < nen && m < 3; i++) {
            if (en[i].gap > VK_MESMER_RANGE)
                continue;
            /* the nearest visible person of that unit to a mesmerist */
            int best = -1;
            float bd = 1e30f;
            for (int f = mu->first; f < mu->first + mu->count; f++) {
                if (!vk_alive(st, f) || !(st->figures[f].skills & OPFOR_S_MESMERIST))
                    continue;
                const opfor_unit_t *tu = &st->units[en[i].u];
                for (int g2 = tu->first; g2 < tu->first + tu->count; g2++) {
                    if (!vk_alive(st, g2) || !vk_is_person(&st->figures[g2]) ||
                        (st->figures[g2].flags & OPFOR_FIG_MESMERIZED))
                        continue;
                    float d = opfor_dist2(st->figures[f].pos, st->figures[g2].pos);
                    if (d < bd && sqrtf(d) - 1.0f <= VK_MESMER_RANGE && vk_los(ctx, st, f, g2)) {
                        bd = d;
                        best = g2;
                    }
                }
            }
            if (best < 0)
                continue;
            opfor_vk_action_t *x = push(l, OPFOR_VK_MESMERIZE, u);
            if (!x)
                break;
            x->target = (uint8_t)en[i].u;
            x->figure = (uint16_t)best;
            m++;
        }
    }
    if (vk_gun_unit_f(ctx, st, u, gunf)) {
        if (un->flags & OPFOR_UNIT_LIMBERED) {
            opfor_vk_action_t *x = push(l, OPFOR_VK_UNLIMBER, u);
            if (x) /* toward the nearest enemy's centre (vk_unit_geo's, as measured) */
                x->dest = nen > 0 ? en[0].geo.c : opfor_vadd(geo[u].c, un->facing);
        } else {
            push(l, OPFOR_VK_LIMBER, u);
        }
    }
    if ((want & G(OPFOR_VK_MOUNT)) && prof.horse_free && can_mount_once(ctx, st, u, &mountable))
        push(l, OPFOR_VK_MOUNT, u);
    if (prof.flags & OPFOR_FIG_MOUNTED) /* vk_can_dismount */
        push(l, OPFOR_VK_DISMOUNT, u);
    if (prof.leaders >= 2 && vk_split_leaders(st, u) >= 2 && st->nunits < OPFOR_MAX_UNITS)
        list_splits(st, u, prof.alive, l);
    /* (a general unit merges with no one: the loop is skipped; the cheap tests come before
       vk_unit_active's figure scan) */
    for (int f = 0;
         f < st->nunits && (want & G(OPFOR_VK_MERGE)) && !(un->flags & OPFOR_UNIT_GENERAL); f++) {
        if (f == u || st->units[f].side != un->side || st->units[f].type != un->type ||
            (st->units[f].flags & OPFOR_UNIT_GENERAL) || vk_in_melee(st, f) ||
            !vk_unit_active(st, f))
            continue;
        measure_unit(st, f, &lf, &geo[f]);
        float lb = opfor_dist(geo[u].c, geo[f].c) - geo[u].r - geo[f].r;
        if (lb <= VK_MERGE_DIST &&
            nearest_pair_in(&lf, u, geo[u].n, f, &geo[f], NULL, NULL) <= VK_MERGE_DIST) {
            opfor_vk_action_t *x = push(l, OPFOR_VK_MERGE, u);
            if (x)
                x->target = (uint8_t)f;
        }
    }
    /* wounded out of line, or bound men back from the rear, during the unit's action (IX) */
    if ((k & VK_K_TOREAR) && prof.wounded > 0 && vk_rear_sendable(st, u) > 0)
        push(l, OPFOR_VK_TO_REAR, u);
    if ((k & VK_K_TOREAR) && (want & G(OPFOR_VK_TO_REAR)) && vk_rear_bound(st, u) > 0) {
        opfor_vk_action_t *x = push(l, OPFOR_VK_TO_REAR, u);
        if (x)
            x->flags = OPFOR_VK_AF_RETURN;
    }
    push_holds(l, u, charged, ncharged);
}

static void list_reactions(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, lister_t *l) {
    int t = st->charge.target, c = st->charge.charger;
    push(l, OPFOR_VK_REACT_STAND, t);
    if (vk_can_defensive_fire(st, t))
        push(l, OPFOR_VK_REACT_FIRE, t);
    vk_ugeo_t tg, cg;
    vk_unit_geo(st, t, &tg);
    vk_unit_geo(st, c, &cg);
    opfor_vec_t away = opfor_vnorm(opfor_vsub(tg.c, cg.c));
    if (away.x == 0.0f && away.y == 0.0f)
        away = ctx->home[st->units[t].side];
    opfor_pt_t dest = clamp_table(ctx, opfor_vadd(tg.c, opfor_vscale(away, 24.0f)));
    /* the move away may be a run/gallop, an advance or a crawl (X): the run first */
    static const uint8_t HOW[3] = {OPFOR_VK_RUN, OPFOR_VK_ADVANCE, OPFOR_VK_CRAWL};
    for (int i = 0; i < 3; i++) {
        opfor_vk_action_t *a = push(l, OPFOR_VK_REACT_FLEE, t);
        if (a) {
            a->dest = dest;
            a->arc = HOW[i];
        }
    }
    int counter = vk_can_counter(ctx, st, t), fire = vk_can_defensive_fire(st, t);
    if (counter)
        push(l, OPFOR_VK_REACT_COUNTER, t);
    /* the same, the unit then holding: no follow-up advance after the melee (X step 9) */
    opfor_vk_action_t *h = push(l, OPFOR_VK_REACT_STAND, t);
    if (h)
        h->flags = OPFOR_VK_AF_HOLD;
    if (fire && (h = push(l, OPFOR_VK_REACT_FIRE, t)))
        h->flags = OPFOR_VK_AF_HOLD;
    if (counter && (h = push(l, OPFOR_VK_REACT_COUNTER, t)))
        h->flags = OPFOR_VK_AF_HOLD;
}

/* The living person of figure g's side in base contact with g nearest him, of unit t (any of
 * g's side's units when t < 0); -1 when none: whom a mesmerised figure may strike (XII.B). */
int vk_fellow_in_contact(const opfor_vk_state_t *st, int g, int t) {
    const opfor_figure_t *fg = &st->figures[g];
    int side = st->units[fg->unit].side, best = -1;
    float bd = 1e30f;
    for (int j = 0; j < st->nfigures; j++) {
        const opfor_figure_t *f = &st->figures[j];
        if (j == g || !vk_alive(st, j) || !vk_is_person(f) || st->units[f->unit].side != side ||
            (t >= 0 && f->unit != t) || st->ux[f->unit].removed)
            continue;
        float gap = opfor_dist(fg->pos, f->pos) - vk_radius(fg) - vk_radius(f);
        if (gap <= VK_CONTACT && gap < bd) {
            bd = gap;
            best = j;
        }
    }
    return best;
}

static void list_control(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, lister_t *l) {
    int u = st->cur;
    int g = st->units[u].first + st->charge.control;
    opfor_vk_action_t *a = push(l, OPFOR_VK_CONTROL, u);
    if (a)
        a->figure = (uint16_t)g;
    int side = st->units[u].side; /* the figure's own side: its fellows are the targets */
    float reach = 0.0f;
    for (int w = 2; w >= 0; w--)
        if (st->figures[g].weapons & (OPFOR_W_PISTOL << w)) {
            reach = (float)ctx->model.range_edge[w][OPFOR_VK_BRACKET_COUNT - 1];
            break;
        }
    int m = 0;
    for (int t = 0; t < st->nunits && m < 3 && reach > 0.0f; t++) {
        if (st->units[t].side != side || !vk_unit_active(st, t))
            continue;
        float d2;
        int j = vk_nearest_fig(st, t, st->figures[g].pos, &d2);
        if (t == u) { /* its own unit: nearest other figure */
            j = -1;
            float bd = 1e30f;
            const opfor_unit_t *un = &st->units[u];
            for (int i = un->first; i < un->first + un->count; i++)
                if (i != g && vk_alive(st, i) && vk_is_person(&st->figures[i])) {
                    float d = opfor_dist2(st->figures[i].pos, st->figures[g].pos);
                    if (d < bd) {
                        bd = d;
                        j = i;
                    }
                }
            d2 = bd;
        }
        if (j < 0 || sqrtf(d2) - 1.0f > reach)
            continue;
        a = push(l, OPFOR_VK_CONTROL, u);
        if (!a)
            break;
        a->figure = (uint16_t)g;
        a->target = (uint8_t)t;
        m++;
    }
    /* strike the nearest fellow in base contact; turn his weapon on himself (XII.B) */
    int j = vk_fellow_in_contact(st, g, -1);
    if (j >= 0 && (a = push(l, OPFOR_VK_CONTROL, u))) {
        a->figure = (uint16_t)g;
        a->target = st->figures[j].unit;
        a->flags = OPFOR_VK_AF_STRIKE;
    }
    if ((a = push(l, OPFOR_VK_CONTROL, u))) {
        a->figure = (uint16_t)g;
        a->flags = OPFOR_VK_AF_SELF;
    }
    /* walk toward the mesmerist's side */
    enemy_t en[1];
    vk_lfigs_t lf;
    vk_ugeo_t geo[OPFOR_MAX_UNITS];
    lf.n = 0;
    measure_unit(st, u, &lf, &geo[u]);
    if (enemies_by_distance(st, u, &lf, geo, en, 1) > 0) {
        a = push(l, OPFOR_VK_CONTROL, u);
        if (a) {
            a->figure = (uint16_t)g;
            a->flags = OPFOR_VK_AF_MOVE;
            a->dest = en[0].geo.c; /* vk_unit_geo's centre */
        }
    }
}

int opfor_vk_legal(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_action_t *out,
                   int max) {
    lister_t l = {out, 0, max, G_ALL};
    switch (st->phase) {
    case OPFOR_VK_PH_START_TURN:
    case OPFOR_VK_PH_INITIATIVE:
    case OPFOR_VK_PH_COMMAND:
        push(&l, OPFOR_VK_ROLL, OPFOR_VK_NONE);
        break;
    case OPFOR_VK_PH_SELECT_UNIT:
        for (int u = 0; u < st->nunits; u++)
            if (st->units[u].side == st->side && vk_unit_ready(st, u))
                push(&l, OPFOR_VK_SELECT_UNIT, u);
        break;
    case OPFOR_VK_PH_ACTION:
        if (ctx->machines &&
            vk_machine_list(ctx, st, l.want, out, max, &l.n)) /* XII.C-D machines, riders */
            break;
        list_actions(ctx, st, &l);
        if (ctx->machines)
            vk_machine_list_more(ctx, st, l.want, out, max, &l.n);
        break;
    case OPFOR_VK_PH_REACTION:
        list_reactions(ctx, st, &l);
        break;
    case OPFOR_VK_PH_CONTROL:
        list_control(ctx, st, &l);
        break;
    default:
        break;
    }
    return l.n;
}

/* Whether some enemy of u is in play on the table (a cheap test: no geometry). */
static int any_enemy(const opfor_vk_state_t *st, int u) {
    int side = st->units[u].side;
    for (int t = 0; t < st->nunits; t++)
        if (st->units[t].side != side && !st->ux[t].removed &&
            !(st->units[t].flags & OPFOR_UNIT_OFF_TABLE) && opfor_vk_unit_present(st, t) > 0)
            return 1;
    return 0;
}

uint32_t opfor_vk_legal_groups(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    if (st->phase != OPFOR_VK_PH_ACTION) {
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS);
        uint32_t m = 0;
        for (int i = 0; i < n; i++)
            m |= G(a[i].kind);
        return m;
    }
    /* A superset, from cheap tests only; groups whose listing turns out empty are dropped by
       the caller (opfor_vk_legal_group returns 0 for them). */
    int u = st->cur;
    const opfor_unit_t *un = &st->units[u];
    unsigned k = vk_allowed_kinds(st, u);
    uint32_t m = 0;
    if (ctx->machines &&
        vk_machine_groups(ctx, st, &m)) /* XII.C-D machines, riders; or-s EMBARK for others */
        return m;
    if (k & VK_K_FIGHT)
        m |= G(OPFOR_VK_FIGHT);
    if (k & VK_K_RALLY)
        m |= G(OPFOR_VK_RALLY);
    if (k & VK_K_STAND) {
        m |= G(OPFOR_VK_STAND);
        if (vk_can_load(st, u, vk_mg_figure(st, u) >= 0, vk_gun_figure(st, u)))
            m |= G(OPFOR_VK_LOAD);
    }
    if (k == VK_K_FIGHT || k == (VK_K_FIGHT | VK_K_RALLY) || k == VK_K_STAND)
        return m;
    int mobile = vk_can_move(ctx, st, u), enemy = any_enemy(st, u);
    if ((k & VK_K_MOVE) && mobile)
        m |= G(OPFOR_VK_ADVANCE) | G(OPFOR_VK_RUN);
    if ((k & VK_K_CRAWL) && mobile)
        m |= G(OPFOR_VK_CRAWL);
    if (enemy && (k & VK_K_FIRE)) {
        if (vk_unit_reach(st, u) > 0.0f) {
            m |= G(OPFOR_VK_FIRE);
            if ((k & (VK_K_MOVE | VK_K_CRAWL)) && mobile) /* advancing or crawling (VI) */
                m |= G(OPFOR_VK_GROUP_MOVING_FIRE);
        }
        if (vk_mg_figure(st, u) >= 0)
            m |= G(OPFOR_VK_FIRE_MG);
        if (vk_can_fire_gun(ctx, st, u))
            m |= G(OPFOR_VK_FIRE_ARTILLERY);
        if (vk_bombers(st, u) > 0)
            m |= G(OPFOR_VK_THROW_BOMB);
    }
    if ((k & VK_K_FIRE) && vk_support_team_ok(ctx, st, u) && st->reg[un->side].lost < st->turn &&
        (enemy || st->reg[un->side].turns > 0))
        m |= G(OPFOR_VK_CALL_SUPPORT);
    if (enemy && (k & VK_K_CHARGE) && vk_gun_figure(st, u) < 0)
        m |= G(OPFOR_VK_CHARGE);
    if ((k & VK_K_HEAL) &&
        (vk_can_heal(st, u) || ((k & VK_K_OTHER) && vk_can_heal_rear(ctx, st, u))))
        m |= G(OPFOR_VK_HEAL);
    if (!(k & VK_K_OTHER))
        return m;
    if (enemy && vk_mesmerists(st, u) > 0)
        m |= G(OPFOR_VK_MESMERIZE);
    if (vk_gun_unit(ctx, st, u))
        m |= (un->flags & OPFOR_UNIT_LIMBERED) ? G(OPFOR_VK_UNLIMBER) : G(OPFOR_VK_LIMBER);
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE) &&
            !(st->figures[i].flags & OPFOR_FIG_MOUNTED)) {
            m |= G(OPFOR_VK_MOUNT);
            break;
        }
    if (vk_can_dismount(st, u))
        m |= G(OPFOR_VK_DISMOUNT);
    if (vk_split_leaders(st, u) >= 2 && st->nunits < OPFOR_MAX_UNITS)
        m |= G(OPFOR_VK_SPLIT);
    if (!(un->flags & OPFOR_UNIT_GENERAL))
        for (int f = 0; f < st->nunits; f++)
            if (f != u && st->units[f].side == un->side && st->units[f].type == un->type &&
                !(st->units[f].flags & OPFOR_UNIT_GENERAL) && !vk_in_melee(st, f) &&
                vk_unit_active(st, f)) {
                m |= G(OPFOR_VK_MERGE);
                break;
            }
    if ((k & VK_K_TOREAR) && (vk_rear_sendable(st, u) > 0 || vk_rear_bound(st, u) > 0))
        m |= G(OPFOR_VK_TO_REAR);
    return m;
}

int opfor_vk_legal_group(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int group,
                         opfor_vk_action_t *out, int max) {
    if (group < 0 || group >= OPFOR_VK_GROUP_COUNT)
        return 0;
    if (st->phase != OPFOR_VK_PH_ACTION) {
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS), k = 0;
        for (int i = 0; i < n && k < max; i++)
            if (a[i].kind == group)
                out[k++] = a[i];
        return k;
    }
    lister_t l = {out, 0, max, G(group)};
    if (ctx->machines &&
        vk_machine_list(ctx, st, l.want, out, max, &l.n)) /* XII.C-D machines, riders */
        return l.n;
    list_actions(ctx, st, &l);
    if (ctx->machines)
        vk_machine_list_more(ctx, st, l.want, out, max, &l.n);
    return l.n;
}
