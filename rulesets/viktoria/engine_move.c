/* rulesets/viktoria/engine_move.c — movement (Viktoria! VIII): group moves, terrain costs,
 * collisions, coherency, flight, mounting and limbering. A unit moves as a rigid formation
 * (one d3, each figure's allowance X + d3 with X from the calculator) as far along its leg as
 * every figure can afford without entering impassable terrain, leaving the table or passing
 * through another base. Collisions are solved exactly; terrain is consulted only when the
 * swept box meets a feature that affects movement, then by bisection over terrain paths.
 *
 * Speed without changing a result (tests/rulesets/test_engine_move_fast.c holds the plain
 * version): the movers are kept compact, with their extreme coordinates, from which the swept
 * boxes and the table edge are judged without a pass over them; the collision scan culls
 * pairs that never meet, or meet only past the figures' allowance;
 * a bisection's path queries are skipped when the plan of its segment already knows their
 * answers; stragglers are judged by their neighbours first; mounting checks the bases near
 * the unit only.
 */
#include <string.h>

#include "engine_int.h"

/* How terrain treats a figure: foot, mounted (or transport), walker (ignores rough), tracked
 * vehicle (rough as on foot, roads as transport). */
enum { TC_FOOT = 0, TC_MOUNTED, TC_TRANSPORT, TC_WALKER, TC_TRACKED };

/* The scenario's machine settings of unit u (zero for units a mode brought on). */
static const opfor_unit_machine_t *machine_of(const opfor_vk_ctx_t *ctx, int u) {
    return &ctx->sc.machine[u];
}

static int terrain_class(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f) {
    const opfor_figure_t *fg = &st->figures[f];
    int ut = st->units[fg->unit].type;
    if (ctx->opt.specials && ut == OPFOR_UT_WALKER)
        return TC_WALKER;
    /* XII.C: wheels pay twice the foot cost in rough ground (as transport), tracks the same */
    if (ctx->opt.specials && ut == OPFOR_UT_VEHICLE && (fg->flags & OPFOR_FIG_EQUIPMENT) &&
        machine_of(ctx, fg->unit)->drive == OPFOR_DRIVE_TRACKED)
        return TC_TRACKED;
    if (fg->flags & OPFOR_FIG_EQUIPMENT)
        return TC_TRANSPORT;
    if (fg->flags & OPFOR_FIG_MOUNTED)
        return TC_MOUNTED;
    return TC_FOOT;
}

/* Whether the figure counts as mounted for terrain closed to riders and guns. */
static int rides(const opfor_figure_t *f) {
    return (f->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0;
}

static int x_of(const opfor_vk_ctx_t *ctx, int mv, int cl, int mounted, int wounded, int limbered) {
    return ctx->tab->move_x[mv][cl][mounted ? 1 : 0][wounded ? 1 : 0][limbered ? 1 : 0];
}

int vk_move_x(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, int mv) {
    const opfor_figure_t *fg = &st->figures[f];
    const opfor_unit_t *un = &st->units[fg->unit];
    int wounded = (fg->flags & OPFOR_FIG_WOUNDED) != 0;
    if (ctx->opt.specials) {
        /* Walkers and automatons move as transport (XII.A, XII.E); vehicles by speed class.
           A walker moves at transport advance mounted whatever its move, a run included
           (XII.E), and a vehicle's speed class caps every move, runs too (XII.C). */
        if (un->type == OPFOR_UT_WALKER)
            return x_of(ctx, VK_MV_ADVANCE, OPFOR_VK_TRANSPORT, 1, 0, 0);
        if (un->type == OPFOR_UT_VEHICLE) {
            /* XII.C speed classes: slow / fast as transport on foot / mounted, very and
               extremely fast twice those; unset, by the model's mount */
            int sp = machine_of(ctx, fg->unit)->speed;
            int mounted = sp == OPFOR_SPEED_UNSET
                              ? (fg->flags & OPFOR_FIG_MOUNTED) != 0
                              : sp == OPFOR_SPEED_FAST || sp == OPFOR_SPEED_EXTREMELY_FAST;
            int x = x_of(ctx, VK_MV_ADVANCE, OPFOR_VK_TRANSPORT, mounted, 0, 0);
            return sp >= OPFOR_SPEED_VERY_FAST ? 2 * x : x;
        }
        if (un->type == OPFOR_UT_AUTOMATON)
            return x_of(ctx, mv == VK_MV_RUN ? VK_MV_RUN : VK_MV_ADVANCE, OPFOR_VK_TRANSPORT,
                        (fg->flags & OPFOR_FIG_MOUNTED) != 0, 0, 0);
    }
    if (fg->flags & OPFOR_FIG_EQUIPMENT) {
        if (un->type == OPFOR_UT_ARTILLERY || un->type == OPFOR_UT_MACHINEGUN) {
            /* A gun or MG goes with its crew: limbered horse artillery as mounted, foot
               artillery on foot (VIII). */
            int best = -1;
            for (int i = un->first; i < un->first + un->count; i++) {
                if (i == f || !vk_alive(st, i) || !vk_is_person(&st->figures[i]))
                    continue;
                const opfor_figure_t *c = &st->figures[i];
                int m = (c->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE)) != 0;
                int x = x_of(ctx, mv, c->quality, m && mv != VK_MV_CRAWL, 0,
                             (un->flags & OPFOR_UNIT_LIMBERED) != 0);
                if (x > best)
                    best = x;
            }
            return best < 0 ? 0 : best;
        }
        return x_of(ctx, mv == VK_MV_RUN ? VK_MV_RUN : VK_MV_ADVANCE, OPFOR_VK_TRANSPORT,
                    (fg->flags & OPFOR_FIG_MOUNTED) != 0, 0,
                    (un->flags & OPFOR_UNIT_LIMBERED) != 0);
    }
    int mounted = (fg->flags & OPFOR_FIG_MOUNTED) != 0 && mv != VK_MV_CRAWL;
    return x_of(ctx, mv, fg->quality, mounted, wounded, 0);
}

/* ---------------------------------------------------------------- the moving set */

typedef struct mover {
    int n;
    int idx[OPFOR_MAX_FIGURES]; /* figure indices */
    /* positions (always equal to the figures' own) and base radii, compact for the scans */
    float x[OPFOR_MAX_FIGURES], y[OPFOR_MAX_FIGURES], r[OPFOR_MAX_FIGURES];
    float allow[OPFOR_MAX_FIGURES]; /* inches of allowance left */
    uint8_t tclass[OPFOR_MAX_FIGURES];
    uint8_t ride[OPFOR_MAX_FIGURES];
    uint8_t limbered[OPFOR_MAX_FIGURES];
    uint32_t mask[OPFOR_MAX_FIGURES / 32]; /* moving figures, excluded from collisions */
    int skip0, skip1; /* figures [skip0, skip1) are all moving or not alive (may be empty) */
    /* the least and greatest x and y of the movers (kept exact as they move: adding the same
       float to every coordinate keeps their order), the largest radius, and whether roads
       change a path's cost for one of them */
    float bx0, by0, bx1, by1, rmax;
    int roads;
    int nfeat; /* movement features the swept box meets */
    uint8_t feat[OPFOR_MAX_FEATURES];
    float fbox[OPFOR_MAX_FEATURES][4]; /* their boxes padded (seg_near_feature): lo x y, hi x y */
    int npfeat;                        /* features a path query in the swept box must see: */
    uint8_t pfeat[OPFOR_MAX_FEATURES]; /* feat, plus roads that do not matter to this set */
    /* why the last move_set stopped short (bookkeeping only: never read by the move) */
    int why;    /* VK_STOP_* */
    int hit;    /* the figure whose base stopped it (VK_STOP_UNIT), else -1 */
    int ground; /* set by terrain_cost when ground closed to the mover refused a path */
} mover_t;

/* An empty moving set; figures [skip0, skip1) its own run (mover_t). */
static void mover_init(mover_t *m, int skip0, int skip1) {
    m->n = 0;
    memset(m->mask, 0, sizeof m->mask);
    m->skip0 = skip0;
    m->skip1 = skip1;
    m->bx0 = m->by0 = 1e30f;
    m->bx1 = m->by1 = -1e30f;
    m->rmax = 0.0f;
    m->roads = 0;
}

/* Adds figure f with its terrain class tclass (terrain_class). */
static inline void mover_add(mover_t *m, const opfor_vk_state_t *st, int f, float allow,
                             int tclass) {
    const opfor_figure_t *fg = &st->figures[f];
    int k = m->n++;
    m->idx[k] = f;
    m->x[k] = fg->pos.x;
    m->y[k] = fg->pos.y;
    m->r[k] = vk_radius(fg);
    m->allow[k] = allow;
    m->tclass[k] = (uint8_t)tclass;
    m->ride[k] = (uint8_t)rides(fg);
    m->limbered[k] = (uint8_t)((fg->flags & OPFOR_FIG_EQUIPMENT) &&
                               (st->units[fg->unit].flags & OPFOR_UNIT_LIMBERED));
    m->mask[f >> 5] |= 1u << (f & 31);
    m->bx0 = fg->pos.x < m->bx0 ? fg->pos.x : m->bx0;
    m->bx1 = fg->pos.x > m->bx1 ? fg->pos.x : m->bx1;
    m->by0 = fg->pos.y < m->by0 ? fg->pos.y : m->by0;
    m->by1 = fg->pos.y > m->by1 ? fg->pos.y : m->by1;
    m->rmax = m->r[k] > m->rmax ? m->r[k] : m->rmax;
    m->roads |= tclass == TC_TRANSPORT || m->limbered[k];
}

static int moving(const mover_t *m, int f) {
    return (m->mask[f >> 5] >> (f & 31)) & 1;
}

/* Cost in inches of allowance for a path result, and the obstacle penalty (VIII). */
static float path_cost(const opfor_path_t *p, int tclass, int limbered) {
    float rough = p->rough, road = p->road;
    float open = p->length - rough - road;
    if (open < 0.0f)
        open = 0.0f;
    float rf = tclass == TC_FOOT || tclass == TC_TRACKED ? 2.0f : tclass == TC_WALKER ? 1.0f : 4.0f;
    float roadf = (tclass == TC_TRANSPORT || tclass == TC_TRACKED || limbered) ? 0.5f : 1.0f;
    return open + rough * rf + road * roadf + (float)p->obstacles;
}

/* Largest t in [0, tmax] such that moving every figure by t*v keeps it on the table. */
static float edge_limit(const opfor_vk_ctx_t *ctx, const mover_t *m, opfor_vec_t v, float tmax) {
    float W = ctx->sc.table.width, D = ctx->sc.table.depth;
    /* The loop changes nothing when the extreme movers stay clear at tmax: x + tmax * v.x is
       no more than for the greatest x, and W - r no less than for the largest radius. */
    float cx = tmax * v.x, cy = tmax * v.y, rm = m->rmax;
    if (!(v.x > 0.0f && m->bx1 + cx > W - rm) && !(v.x < 0.0f && m->bx0 + cx < rm) &&
        !(v.y > 0.0f && m->by1 + cy > D - rm) && !(v.y < 0.0f && m->by0 + cy < rm) && tmax >= 0.0f)
        return tmax;
    for (int k = 0; k < m->n; k++) {
        float r = m->r[k];
        float x = m->x[k], y = m->y[k];
        if (v.x > 0.0f && x + tmax * v.x > W - r)
            tmax = (W - r - x) / v.x;
        if (v.x < 0.0f && x + tmax * v.x < r)
            tmax = (r - x) / v.x;
        if (v.y > 0.0f && y + tmax * v.y > D - r)
            tmax = (D - r - y) / v.y;
        if (v.y < 0.0f && y + tmax * v.y < r)
            tmax = (r - y) / v.y;
        if (tmax < 0.0f)
            tmax = 0.0f;
    }
    return tmax;
}

/* Slack of the pair cull in collide_limit, in inches: far above float rounding. */
#define VK_CULL_SLACK 0.06f

/* First contact of moving circles with every other base (VIII: no moving through figures).
 * The answer is the least contact time over the (figure, mover) pairs, so the pairs may be
 * taken in any order, and the scan stops once a mover already touches and closes in (0). A
 * figure is tested when inside the movers' swept box and within the capsule their centroid
 * sweeps (its radius: their reach about it, plus the figure's own and the gap), as ever. A
 * pair is then skipped when the two centres pass further apart across the move than their
 * radii, the gap and VK_CULL_SLACK: its discriminant is then below zero by about
 * 8 * slack * |v|^2, far beyond its rounding (some 3e-6 |w|^2 |v|^2), so solving it would have
 * found no contact either.
 * Contacts after tneed do not matter to the caller: a figure, or a pair, that is ahead by
 * more than its reach, VK_CULL_SLACK and the move up to the lesser of tmax and tneed cannot
 * meet before then (its exact contact time is later by slack / |v|, far beyond the rounding
 * of the solved one), nor touch now; so is a figure outside the box swept up to tneed padded
 * by the reach of the largest base (1 in), the gap and the slack. The answer is thus the
 * same below tneed, and at least tneed when it would have been. */
static float collide_limit(const opfor_vk_state_t *st, const mover_t *m, opfor_vec_t v, float tmax,
                           float tneed, int contact_unit, int side, int *hit) {
    if (tmax <= 0.0f)
        return 0.0f;
    /* The swept box of the moving set, from the movers' extremes (mover_t): the least
       min(x0, x1) over the movers is that of the least x0, as x1 = x0 + tmax * v.x adds the
       same float to each, and the largest radius pads it no less than each mover's own. */
    float cx = tmax * v.x, cy = tmax * v.y, pad = m->rmax + VK_ENEMY_GAP + 1.0f;
    float lox = (cx < 0.0f ? m->bx0 + cx : m->bx0) - pad;
    float hix = (cx > 0.0f ? m->bx1 + cx : m->bx1) + pad;
    float loy = (cy < 0.0f ? m->by0 + cy : m->by0) - pad;
    float hiy = (cy > 0.0f ? m->by1 + cy : m->by1) + pad;
    if (tneed < tmax) {
        /* and within the box swept up to tneed, padded by the slack: a figure outside it is
           further than its reach all the way to tneed, so it could only be met after */
        float nx = tneed * v.x, ny = tneed * v.y,
              np = m->rmax + VK_ENEMY_GAP + 1.0f + VK_CULL_SLACK;
        float lx = (nx < 0.0f ? m->bx0 + nx : m->bx0) - np;
        float hx = (nx > 0.0f ? m->bx1 + nx : m->bx1) + np;
        float ly = (ny < 0.0f ? m->by0 + ny : m->by0) - np;
        float hy = (ny > 0.0f ? m->by1 + ny : m->by1) + np;
        lox = lx > lox ? lx : lox;
        loy = ly > loy ? ly : loy;
        hix = hx < hix ? hx : hix;
        hiy = hy < hiy ? hy : hiy;
    }
    float a = opfor_vdot(v, v);
    if (a <= 0.0f)
        return 0.0f;
    /* the movers' bounding circle, swept along the move: others farther from that capsule
       than its radius plus their own cannot be touched. lat: each mover's offset across the
       move, times |v|; lim: its radius and the slack, times |v|. Made for the first figure
       in the box (most moves have none). */
    opfor_pt_t c0 = opfor_pt(0.0f, 0.0f), c1 = c0;
    float rc = 0.0f, lv = 0.0f;
    float lat[OPFOR_MAX_FIGURES], lim[OPFOR_MAX_FIGURES];
    int circle = 0;
    /* every figure but the movers' own run */
    int run[2][2] = {{0, st->nfigures}, {0, 0}};
    if (m->skip0 >= 0) {
        run[0][1] = m->skip0;
        run[1][0] = m->skip1;
        run[1][1] = st->nfigures;
    }
    for (int ri = 0; ri < 2; ri++)
        for (int o = run[ri][0]; o < run[ri][1]; o++) {
            const opfor_figure_t *of = &st->figures[o];
            /* the swept box first, one axis at a time: it rejects nearly every figure */
            if (of->pos.x < lox || of->pos.x > hix)
                continue;
            if (of->pos.y < loy || of->pos.y > hiy || moving(m, o) || !vk_alive(st, o) ||
                st->ux[of->unit].removed)
                continue;
            if (!circle) {
                circle = 1;
                float sx = 0.0f, sy = 0.0f;
                for (int k = 0; k < m->n; k++) {
                    sx += m->x[k];
                    sy += m->y[k];
                }
                c0 = opfor_pt(sx / (float)m->n, sy / (float)m->n);
                lv = sqrtf(a);
                for (int k = 0; k < m->n; k++) {
                    opfor_pt_t p = opfor_pt(m->x[k], m->y[k]);
                    float d = opfor_dist(c0, p) + m->r[k];
                    if (d > rc)
                        rc = d;
                    lat[k] = (p.x - c0.x) * v.y - (p.y - c0.y) * v.x;
                    lim[k] = (m->r[k] + VK_CULL_SLACK) * lv;
                }
                c1 = opfor_pt(c0.x + tmax * v.x, c0.y + tmax * v.y);
            }
            int enemy = st->units[of->unit].side != side;
            float gap = (enemy && of->unit != contact_unit) ? VK_ENEMY_GAP : 0.0f;
            float ro = vk_radius(of);
            float ox = of->pos.x, oy = of->pos.y;
            /* ahead of every mover by more than the move left (tmax, as contacts cut it) */
            float al = (ox - c0.x) * v.x + (oy - c0.y) * v.y, tc = tmax < tneed ? tmax : tneed;
            if (al - (rc + ro + gap + VK_CULL_SLACK) * lv > tc * a)
                continue;
            float reach = rc + ro + gap + 0.01f;
            opfor_pt_t q = opfor_seg_closest(c0, c1, of->pos);
            if (opfor_dist2(q, of->pos) > reach * reach)
                continue;
            float cr = (ox - c0.x) * v.y - (oy - c0.y) * v.x, og = (ro + gap) * lv;
            for (int k = 0; k < m->n; k++) {
                float e = cr - lat[k], el = lim[k] + og;
                if (e > el || e < -el)
                    continue; /* apart across the move: never in contact */
                float R = m->r[k] + ro + gap;
                opfor_vec_t w = opfor_pt(m->x[k] - ox, m->y[k] - oy);
                float b = 2.0f * opfor_vdot(w, v);
                if (b >= 0.0f)
                    continue; /* moving apart (or sideways): never closer than now */
                if (-0.5f * b - (R + VK_CULL_SLACK) * lv > (tmax < tneed ? tmax : tneed) * a)
                    continue; /* ahead by more than the move left */
                float c = opfor_vdot(w, w) - R * R;
                if (c <= 0.0f) {
                    *hit = o;
                    return 0.0f; /* already touching and closing in: cannot move this way */
                }
                float disc = b * b - 4.0f * a * c;
                if (disc < 0.0f)
                    continue;
                float th = (-b - sqrtf(disc)) / (2.0f * a);
                if (th < tmax) {
                    tmax = th < 0.0f ? 0.0f : th;
                    *hit = o;
                }
            }
        }
    return tmax;
}

/* Collects into m->feat the movement features the swept box of the move t*v meets;
 * returns how many. */
static int swept_hits_terrain(const opfor_vk_ctx_t *ctx, mover_t *m, opfor_vec_t v, float t) {
    m->nfeat = 0;
    if (ctx->nmove_feat == 0)
        return 0;
    /* the movers' box swept by t * v, exactly, from their extremes (as in collide_limit) */
    float cx = t * v.x, cy = t * v.y;
    float lox = cx < 0.0f ? m->bx0 + cx : m->bx0, hix = cx > 0.0f ? m->bx1 + cx : m->bx1;
    float loy = cy < 0.0f ? m->by0 + cy : m->by0, hiy = cy > 0.0f ? m->by1 + cy : m->by1;
    int roads_matter = m->roads;
    m->npfeat = 0;
    for (int i = 0; i < ctx->sc.table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[i];
        if (f->move == OPFOR_MOVE_OPEN && !(f->flags & OPFOR_TF_NO_MOUNTED))
            continue; /* nothing to a path */
        float pad = 0.5f * f->width + 0.01f;
        if (f->hi.x + pad < lox || f->lo.x - pad > hix || f->hi.y + pad < loy ||
            f->lo.y - pad > hiy)
            continue;
        /* every path query of this move lies in the swept box: features outside it are
           never met, so the path looks at these only (opfor_terrain_path_in) */
        m->pfeat[m->npfeat++] = (uint8_t)i;
        /* A road alone changes nothing for men and riders: it only cancels rough ground,
           which is a feature of its own (VIII). */
        if (f->move == OPFOR_MOVE_OPEN || (f->move == OPFOR_MOVE_ROAD && !roads_matter))
            continue;
        m->fbox[m->nfeat][0] = f->lo.x - pad;
        m->fbox[m->nfeat][1] = f->lo.y - pad;
        m->fbox[m->nfeat][2] = f->hi.x + pad;
        m->fbox[m->nfeat][3] = f->hi.y + pad;
        m->feat[m->nfeat++] = (uint8_t)i;
    }
    return m->nfeat;
}

/* Whether segment a-b's box meets any of the mover's features. */
static int seg_near_feature(const mover_t *m, opfor_pt_t a, opfor_pt_t b) {
    float lox = a.x < b.x ? a.x : b.x, hix = a.x > b.x ? a.x : b.x;
    float loy = a.y < b.y ? a.y : b.y, hiy = a.y > b.y ? a.y : b.y;
    for (int i = 0; i < m->nfeat; i++) {
        const float *fb = m->fbox[i];
        if (fb[2] < lox || fb[0] > hix || fb[3] < loy || fb[1] > hiy)
            continue;
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- bisection plans
 *
 * A bisection asks the path of eight prefixes of one segment, a-b0. Its plan, made once,
 * lists where a-b0 crosses an outline or a centre line cleanly (each end of either piece
 * further than VK_PATH_CLEAR from the other's line) and the fraction, danger, from which a-b0
 * comes within VK_PATH_CLEAR of anything else that matters (an edge met otherwise, a road,
 * rough ground entered, a line closed to movers). A prefix ending short of danger, its end
 * further than VK_PATH_CLEAR from every crossed edge, is then what its query says: the
 * crossings before its end counted (each feature's lie well apart, so the query merges none),
 * entered into a closed area if it starts inside or has crossed into it, rough all along if
 * it starts inside rough ground; its length opfor_dist. The clearances measured across a
 * crossing keep the float crossing tests of the query some hundred times their rounding from
 * flipping (VK_PATH_CLEAR is also the clearance the query itself trusts to skip a feature:
 * core/terrain.c, APART); other prefixes go to the query. */
#define VK_PATH_CLEAR 0.01
#define VK_PLAN_MAX 16

typedef struct path_plan {
    int state;                                /* -1 not made, 0 of no use, 1 ready */
    float t0;                                 /* the fraction a-b0 stands for */
    double len, danger;                       /* |a-b0|, and danger as a fraction of it */
    int imp, closed, rough;                   /* a inside an impassable / closed / rough area */
    int nev;                                  /* crossings: */
    double s[VK_PLAN_MAX], sine[VK_PLAN_MAX]; /* where along a-b0, at what angle */
    uint8_t ev[VK_PLAN_MAX];                  /* PE_* */
} path_plan_t;

enum { PE_OBSTACLE = 1, PE_IMPASSABLE = 2, PE_CLOSED = 4 };

/* First s >= 0 at which a + s*d comes within rho of segment p-q (HUGE_VAL: never): the least
 * first time over the capsule's convex parts, its two end discs and its band. */
static double ray_capsule(double ax, double ay, double dx, double dy, opfor_pt_t p, opfor_pt_t q,
                          double rho) {
    double best = HUGE_VAL, A = dx * dx + dy * dy;
    for (int e = 0; e < 2; e++) {
        opfor_pt_t c = e ? q : p;
        double wx = ax - c.x, wy = ay - c.y;
        double C = wx * wx + wy * wy - rho * rho;
        if (C <= 0.0)
            return 0.0;
        double B = wx * dx + wy * dy, disc = B * B - A * C;
        if (B < 0.0 && disc >= 0.0) {
            double s = (-B - sqrt(disc)) / A;
            best = s < best ? s : best;
        }
    }
    double ex = (double)q.x - p.x, ey = (double)q.y - p.y, L = sqrt(ex * ex + ey * ey);
    if (L > 0.0) {
        /* along the piece within [0, L] and across it within [-rho, rho] */
        double ux = ex / L, uy = ey / L, wx = ax - p.x, wy = ay - p.y;
        double x0[2] = {wx * ux + wy * uy, wy * ux - wx * uy};
        double dd[2] = {dx * ux + dy * uy, dy * ux - dx * uy};
        double lo[2] = {0.0, -rho}, hi[2] = {L, rho};
        double s0 = 0.0, s1 = HUGE_VAL;
        int in = 1;
        for (int i = 0; i < 2 && in; i++) {
            if (dd[i] == 0.0) {
                in = x0[i] >= lo[i] && x0[i] <= hi[i];
                continue;
            }
            double u0 = (lo[i] - x0[i]) / dd[i], u1 = (hi[i] - x0[i]) / dd[i];
            if (u0 > u1) {
                double w = u0;
                u0 = u1;
                u1 = w;
            }
            s0 = u0 > s0 ? u0 : s0;
            s1 = u1 < s1 ? u1 : s1;
            in = s0 <= s1;
        }
        if (in)
            best = s0 < best ? s0 : best;
    }
    return best;
}

/* Squared distance from point (x, y) to segment p-q. */
static double pt_seg_d2(double x, double y, double px, double py, double qx, double qy) {
    double ex = qx - px, ey = qy - py, wx = x - px, wy = y - py;
    double l2 = ex * ex + ey * ey, u = l2 > 0.0 ? (wx * ex + wy * ey) / l2 : 0.0;
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    double dx = wx - u * ex, dy = wy - u * ey;
    return dx * dx + dy * dy;
}

/* Whether (x, y) is inside area f by the crossing rule (sure only away from its edges). */
static int area_inside(const opfor_terrain_feature_t *f, double x, double y) {
    int in = 0;
    for (int i = 0, j = f->npts - 1; i < f->npts; j = i++) {
        opfor_pt_t pi = f->pts[i], pj = f->pts[j];
        if ((pi.y > y) != (pj.y > y) &&
            x < ((double)pj.x - pi.x) * (y - pi.y) / ((double)pj.y - pi.y) + pi.x)
            in = !in;
    }
    return in;
}

/* Whether a-b crosses edge p-q cleanly (*s: where along a-b, *sine: the angle's sine); if
 * not, whether the two are more than VK_PATH_CLEAR apart (*near = 0) or not (*near = 1). */
static int plan_cross(opfor_pt_t a, opfor_pt_t b, opfor_pt_t p, opfor_pt_t q, double *s,
                      double *sine, int *near) {
    const double c = VK_PATH_CLEAR;
    *near = 0;
    if ((a.x < b.x ? a.x : b.x) - c > (p.x > q.x ? p.x : q.x) ||
        (a.x > b.x ? a.x : b.x) + c < (p.x < q.x ? p.x : q.x) ||
        (a.y < b.y ? a.y : b.y) - c > (p.y > q.y ? p.y : q.y) ||
        (a.y > b.y ? a.y : b.y) + c < (p.y < q.y ? p.y : q.y))
        return 0;
    double rx = (double)b.x - a.x, ry = (double)b.y - a.y, sx = (double)q.x - p.x,
           sy = (double)q.y - p.y, wx = (double)p.x - a.x, wy = (double)p.y - a.y;
    double den = rx * sy - ry * sx, lr2 = rx * rx + ry * ry, ls2 = sx * sx + sy * sy;
    if (den != 0.0) {
        double tt = (wx * sy - wy * sx) / den, uu = (wx * ry - wy * rx) / den;
        if (tt >= 0.0 && tt <= 1.0 && uu >= 0.0 && uu <= 1.0) {
            /* a, p and q further than c from the other's line */
            double sn = fabs(den) / sqrt(lr2 * ls2), ls = sqrt(ls2) * sn;
            if (uu * ls > c && (1.0 - uu) * ls > c && tt * sqrt(lr2) * sn > c) {
                *s = tt;
                *sine = sn;
                return 1;
            }
            *near = 1;
            return 0;
        }
    }
    /* apart: the nearest points include an end of one of them */
    double d = pt_seg_d2(a.x, a.y, p.x, p.y, q.x, q.y);
    double e = pt_seg_d2(b.x, b.y, p.x, p.y, q.x, q.y);
    d = e < d ? e : d;
    e = pt_seg_d2(p.x, p.y, a.x, a.y, b.x, b.y);
    d = e < d ? e : d;
    e = pt_seg_d2(q.x, q.y, a.x, a.y, b.x, b.y);
    d = e < d ? e : d;
    *near = !(d > c * c);
    return 0;
}

/* Makes the plan of mover k's move t0*v over the features of pfeat. */
static void plan_make(const opfor_vk_ctx_t *ctx, const mover_t *m, int k, opfor_vec_t v, float t0,
                      path_plan_t *pl) {
    opfor_pt_t a = opfor_pt(m->x[k], m->y[k]);
    opfor_pt_t b = opfor_pt(a.x + t0 * v.x, a.y + t0 * v.y);
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y;
    pl->state = 0;
    pl->t0 = t0;
    pl->len = sqrt(dx * dx + dy * dy);
    pl->danger = HUGE_VAL;
    pl->imp = pl->closed = pl->rough = 0;
    pl->nev = 0;
    if (!(pl->len > 0.0))
        return;
    for (int i = 0; i < m->npfeat; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[m->pfeat[i]];
        /* the query's own cull (core/terrain.c): nothing of it is within 0.01 of a-b0 */
        if ((a.x < b.x ? a.x : b.x) > f->hi.x || (a.x > b.x ? a.x : b.x) < f->lo.x ||
            (a.y < b.y ? a.y : b.y) > f->hi.y || (a.y > b.y ? a.y : b.y) < f->lo.y ||
            opfor_seg_box_apart(a, b, f->lo, f->hi, 0.01f))
            continue;
        int imp = f->move == OPFOR_MOVE_IMPASSABLE;
        int closed = imp || (f->flags & OPFOR_TF_NO_MOUNTED);
        int rough = f->move == OPFOR_MOVE_ROUGH, road = f->move == OPFOR_MOVE_ROAD;
        int ev = (f->move == OPFOR_MOVE_OBSTACLE ? PE_OBSTACLE : 0);
        if (f->npts > OPFOR_POLY_MAX_PTS)
            return;
        int first = pl->nev;
        if (f->shape == OPFOR_SHAPE_AREA) {
            if (f->npts < 3)
                return;
            ev |= (imp ? PE_IMPASSABLE : 0) | (closed ? PE_CLOSED : 0);
            for (int e = 0, j = f->npts - 1; e < f->npts; j = e++) {
                double sc, sn;
                int near;
                if (plan_cross(a, b, f->pts[j], f->pts[e], &sc, &sn, &near)) {
                    if (pl->nev == VK_PLAN_MAX)
                        return;
                    pl->s[pl->nev] = sc;
                    pl->sine[pl->nev] = sn;
                    pl->ev[pl->nev++] = (uint8_t)ev;
                    if (rough || road)
                        pl->danger = sc < pl->danger ? sc : pl->danger;
                } else if (near) {
                    double sd = ray_capsule(a.x, a.y, dx, dy, f->pts[j], f->pts[e], VK_PATH_CLEAR);
                    pl->danger = sd < pl->danger ? sd : pl->danger;
                }
            }
            if (!(pl->danger > 0.0))
                return;
            /* a is clear of every edge here: inside or out for sure */
            if (area_inside(f, a.x, a.y)) {
                pl->imp |= imp;
                pl->closed |= closed;
                pl->rough |= rough;
                if (road)
                    return;
            }
        } else {
            if (f->npts < 2 || !(f->width >= 0.0f))
                return;
            double h = 0.5 * f->width;
            for (int e = 1; e < f->npts; e++) {
                /* within the width: closed, or rough or road ground (when it has a width) */
                if (closed || ((rough || road) && h > 0.0)) {
                    double sd =
                        ray_capsule(a.x, a.y, dx, dy, f->pts[e - 1], f->pts[e], h + VK_PATH_CLEAR);
                    pl->danger = sd < pl->danger ? sd : pl->danger;
                }
                if (!ev)
                    continue;
                double sc, sn;
                int near;
                if (plan_cross(a, b, f->pts[e - 1], f->pts[e], &sc, &sn, &near)) {
                    if (pl->nev == VK_PLAN_MAX)
                        return;
                    pl->s[pl->nev] = sc;
                    pl->sine[pl->nev] = sn;
                    pl->ev[pl->nev++] = (uint8_t)ev;
                } else if (near) {
                    double sd =
                        ray_capsule(a.x, a.y, dx, dy, f->pts[e - 1], f->pts[e], VK_PATH_CLEAR);
                    pl->danger = sd < pl->danger ? sd : pl->danger;
                }
            }
        }
        if (!(pl->danger > 0.0))
            return;
        /* one feature's crossings well apart: the query counts each (it merges within 1e-6) */
        for (int e = first; e < pl->nev; e++)
            for (int j = first; j < e; j++)
                if (fabs(pl->s[e] - pl->s[j]) * pl->len <= VK_PATH_CLEAR)
                    return;
    }
    pl->state = 1;
}

/* The path query's answer for a-b, b = a + t*v with t below the plan's t0, when the plan
 * knows it: fills *out and returns 1. */
static int plan_path(const path_plan_t *pl, opfor_pt_t a, opfor_pt_t b, float t,
                     opfor_path_t *out) {
    double sg = (double)t / (double)pl->t0;
    if (!(sg < pl->danger))
        return 0;
    opfor_path_t p = {0};
    p.blocker = -1;
    int imp = pl->imp, closed = pl->closed;
    for (int e = 0; e < pl->nev; e++) {
        if (fabs(sg - pl->s[e]) * pl->len * pl->sine[e] <= VK_PATH_CLEAR)
            return 0; /* ends at the crossed edge */
        if (pl->s[e] < sg) {
            p.obstacles += (pl->ev[e] & PE_OBSTACLE) != 0;
            imp |= (pl->ev[e] & PE_IMPASSABLE) != 0;
            closed |= (pl->ev[e] & PE_CLOSED) != 0;
        }
    }
    p.length = opfor_dist(a, b);
    p.impassable = imp;
    p.no_mounted = closed;
    if (pl->rough && p.length > 0.0f)
        p.rough = 1.0f * p.length; /* one piece, 0 to 1, all rough */
    *out = p;
    return 1;
}

/* The cost of mover k's move a-b (b = a + t*v) near terrain into *cost; 0 when it may not
 * make it. pl: the plan of the bisection under way, or NULL. */
static int terrain_cost(const opfor_vk_ctx_t *ctx, mover_t *m, int k, opfor_vec_t v, float t,
                        opfor_pt_t a, opfor_pt_t b, path_plan_t *pl, float *cost) {
    if (ctx->grid_move && opfor_tgrid_path_open(&ctx->grid, a, b)) {
        *cost = opfor_dist(a, b); /* what the path query would say: length only */
        return 1;
    }
    opfor_path_t p;
    if (pl && pl->state < 0)
        plan_make(ctx, m, k, v, pl->t0, pl);
    int known = pl && pl->state > 0 && plan_path(pl, a, b, t, &p);
    if (!known && opfor_terrain_path_in(&ctx->sc.table, m->pfeat, m->npfeat, a, b, &p) != 0)
        return 0;
    if (p.impassable || (m->ride[k] && p.no_mounted)) {
        m->ground = 1;
        return 0;
    }
    *cost = path_cost(&p, m->tclass[k], m->limbered[k]);
    return 1;
}

/* Whether mover k can afford and make the move t*v; *spent gets the cost. pl: the plan of
 * the bisection under way, or NULL. Open ground (most moves) is answered here, inline. */
static inline int one_ok(const opfor_vk_ctx_t *ctx, mover_t *m, int k, opfor_vec_t v, float t,
                         float *spent, path_plan_t *pl) {
    opfor_pt_t a = opfor_pt(m->x[k], m->y[k]);
    opfor_pt_t b = opfor_pt(a.x + t * v.x, a.y + t * v.y);
    float cost;
    if (!seg_near_feature(m, a, b))
        cost = t * opfor_vlen(v); /* open ground all the way */
    else if (!terrain_cost(ctx, m, k, v, t, a, b, pl, &cost))
        return 0;
    if (cost > m->allow[k] + 1e-4f)
        return 0;
    if (spent)
        *spent = cost;
    return 1;
}

/* Moves the set by the largest fraction of v allowed; returns that fraction. */
static float move_set(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, mover_t *m, opfor_vec_t v,
                      int contact_unit, int side) {
    float len = opfor_vlen(v);
    m->why = VK_STOP_ALLOWANCE;
    m->hit = -1;
    if (len < 1e-4f || m->n == 0)
        return 0.0f;
    float minallow = 1e30f;
    for (int k = 0; k < m->n; k++)
        if (m->allow[k] < minallow)
            minallow = m->allow[k];
    if (minallow <= 0.0f)
        return 0.0f;
    float t = 1.0f;
    t = edge_limit(ctx, m, v, t);
    int why = t < 1.0f ? VK_STOP_EDGE : VK_STOP_ARRIVED, hit = -1;
    /* back off a hair from a contact so bases touch rather than overlap */
    float eps = VK_EPS / len;
    /* A contact at or beyond tneed leaves the move to the allowance (below): backed off by
       eps it is still a quarter inch past minallow, so the exact time does not matter. */
    float tc = collide_limit(st, m, v, t, (minallow + 0.25f) / len + eps, contact_unit, side, &hit);
    if (tc < t)
        why = VK_STOP_UNIT;
    t = tc;
    int limited_by_contact = t < 1.0f;
    if (limited_by_contact)
        t = t > eps ? t - eps : 0.0f;
    float spent[OPFOR_MAX_FIGURES];
    if (t * len > minallow) { /* nobody goes further than open ground allows */
        t = minallow / len;
        why = VK_STOP_ALLOWANCE;
    }
    m->why = why;
    m->hit = why == VK_STOP_UNIT ? hit : -1;
    if (t <= 0.0f)
        return 0.0f; /* stopped by a contact or the edge: no terrain to ask about */
    if (!swept_hits_terrain(ctx, m, v, t)) {
        for (int k = 0; k < m->n; k++)
            spent[k] = t * len;
    } else {
        /* Each figure's own limit, by bisection only for the figures the terrain stops;
           feasibility is monotone in t, so the smallest limit is the formation's. Each
           figure's last successful test (fraction tk, cost spent) is kept: nothing moves
           before the final pass, so a figure tested at the final fraction needs no second
           path query. */
        float tk[OPFOR_MAX_FIGURES];
        float t_open = t;
        int ground = 0;
        for (int k = 0; k < m->n && t > 0.0f; k++) {
            tk[k] = -1.0f;
            m->ground = 0;
            if (one_ok(ctx, m, k, v, t, &spent[k], NULL)) {
                tk[k] = t;
                continue;
            }
            /* the eight tests look at prefixes of the move just refused: one plan serves */
            path_plan_t plan;
            plan.state = -1;
            plan.t0 = t;
            float lo = 0.0f, hi = t;
            ground = m->ground;
            for (int it = 0; it < 8; it++) {
                float mid = 0.5f * (lo + hi);
                float sp;
                m->ground = 0;
                if (one_ok(ctx, m, k, v, mid, &sp, &plan)) {
                    lo = mid;
                    tk[k] = mid;
                    spent[k] = sp;
                } else {
                    hi = mid;
                    ground = m->ground;
                }
            }
            t = lo;
        }
        for (int k = 0; k < m->n && t > 0.0f; k++) {
            m->ground = 0;
            if (tk[k] != t && !one_ok(ctx, m, k, v, t, &spent[k], NULL)) {
                t = 0.0f;
                ground = m->ground;
            }
        }
        if (t < t_open) { /* the terrain cut it: closed ground, or rough ground's cost */
            m->why = ground ? VK_STOP_GROUND : VK_STOP_ALLOWANCE;
            m->hit = -1;
        }
    }
    if (t <= 0.0f)
        return 0.0f;
    for (int k = 0; k < m->n; k++) {
        opfor_figure_t *f = &st->figures[m->idx[k]];
        f->pos.x += t * v.x;
        f->pos.y += t * v.y;
        m->x[k] = f->pos.x;
        m->y[k] = f->pos.y;
        m->allow[k] -= spent[k];
    }
    m->bx0 += t * v.x;
    m->bx1 += t * v.x;
    m->by0 += t * v.y;
    m->by1 += t * v.y;
    return t;
}

/* ---------------------------------------------------------------- group moves */

float vk_turn_cost(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, opfor_vec_t dir) {
    const opfor_unit_t *un = &st->units[u];
    if (!ctx->opt.specials || un->type != OPFOR_UT_VEHICLE || machine_of(ctx, u)->track)
        return 0.0f;
    /* XII.C: the vehicle wheels about a front corner; the other front corner travels an arc
       whose radius is the frontage (the model's base, 2 * OPFOR_RADIUS_EQUIPMENT). */
    return 2.0f * OPFOR_RADIUS_EQUIPMENT * opfor_vangle(un->facing, dir);
}

float vk_move_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int mv, opfor_pt_t dest,
                   int has_via, opfor_pt_t via, int d3, int contact_unit, opfor_vk_events_t *ev) {
    return vk_move_unit_stop(ctx, st, u, mv, dest, has_via, via, d3, contact_unit, -1, ev, NULL);
}

float vk_move_unit_stop(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int mv,
                        opfor_pt_t dest, int has_via, opfor_pt_t via, int d3, int contact_unit,
                        int fire_t, opfor_vk_events_t *ev, vk_move_stop_t *stop) {
    opfor_unit_t *un = &st->units[u];
    int persons_only = (mv & VK_MV_PERSONS) != 0;
    mv &= 3;
    if (d3 <= 0)
        d3 = vk_d3(st);
    mover_t m;
    mover_init(&m, un->first, un->first + un->count);
    int last_key = -1, last_x = 0, last_tc = 0;
    /* the unit's centre as vk_unit_geo has it: the living figures' mean, summed in order */
    float sx = 0.0f, sy = 0.0f;
    int alive = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        opfor_figure_t *f = &st->figures[i];
        sx += f->pos.x;
        sy += f->pos.y;
        alive++;
        if ((st->figx[i] & OPFOR_VK_FX_CONTROLLED) || (persons_only && !vk_is_person(f))) {
            m.skip0 = m.skip1 = -1; /* a living figure stays: the unit's figures are scanned */
            continue;
        }
        if (mv == VK_MV_CRAWL) {
            f->flags &= (uint16_t)~OPFOR_FIG_MOUNTED; /* riders dismount to crawl (VI) */
            f->flags |= OPFOR_FIG_PRONE;
        } else {
            f->flags &= (uint16_t)~OPFOR_FIG_PRONE;
        }
        /* a person's allowance and terrain class follow from its unit, mount, wounds and
           quality alone: figures alike (most of a unit) share one look-up. A gun's allowance
           follows its crew, whose flags this loop may change: looked up each time. */
        int x, tc;
        if (f->flags & OPFOR_FIG_EQUIPMENT) {
            x = vk_move_x(ctx, st, i, mv);
            tc = terrain_class(ctx, st, i);
        } else {
            int key = (f->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_WOUNDED)) | f->quality << 16;
            if (key != last_key) {
                last_key = key;
                last_x = vk_move_x(ctx, st, i, mv);
                last_tc = terrain_class(ctx, st, i);
            }
            x = last_x;
            tc = last_tc;
        }
        float a = (float)(x + d3);
        mover_add(&m, st, i, a < 0.0f ? 0.0f : a, tc);
    }
    if (stop) {
        stop->why = m.n > 0 ? VK_STOP_ARRIVED : VK_STOP_ALLOWANCE;
        stop->has_block = 0;
        stop->fig = -1;
        stop->d3 = d3;
        stop->allowance = 0.0f;
        for (int k = 0; k < m.n; k++)
            if (k == 0 || m.allow[k] < stop->allowance)
                stop->allowance = m.allow[k];
    }
    opfor_pt_t start =
        alive > 0 ? opfor_pt(sx / (float)alive, sy / (float)alive) : opfor_pt(0.0f, 0.0f);
    opfor_pt_t cur = start;
    float total = 0.0f;
    opfor_pt_t legs[2];
    int nlegs = 0;
    if (has_via)
        legs[nlegs++] = via;
    legs[nlegs++] = dest;
    /* the unit turns toward its first leg; a waypoint where it stands (fire first, then
       move) leaves the turn to the leg after it */
    int l0 = nlegs > 1 && opfor_vlen(opfor_vsub(legs[0], start)) < 0.05f ? 1 : 0;
    float turn = vk_turn_cost(ctx, st, u, opfor_vsub(legs[l0], start));
    for (int k = 0; turn > 0.0f && k < m.n; k++)
        m.allow[k] = m.allow[k] > turn ? m.allow[k] - turn : 0.0f;
    int fire_leg = fire_t >= 0 && has_via ? 0 : -1;
    for (int l = 0; l < nlegs; l++) {
        opfor_vec_t v = opfor_vsub(legs[l], cur);
        float len = opfor_vlen(v);
        int short_leg = 0;
        if (len >= 0.05f) {
            float t = move_set(ctx, st, &m, v, contact_unit, un->side);
            cur = opfor_vadd(cur, opfor_vscale(v, t));
            total += t * len;
            if (t < 0.999f) {
                short_leg = 1;
                if (stop) {
                    stop->why = m.why;
                    stop->fig = m.hit;
                }
            }
        }
        /* moving fire from the waypoint, or from where the first leg ended (IX) */
        if (l == fire_leg)
            vk_moving_fire(ctx, st, u, fire_t, ev);
        if (short_leg)
            break;
    }
    if (stop) {
        stop->has_block = alive > 0;
        stop->block = cur;
    }
    opfor_vec_t moved = opfor_vsub(cur, start);
    if (total > 0.0f) {
        opfor_vec_t fdir = opfor_vnorm(moved);
        if (fdir.x != 0.0f || fdir.y != 0.0f)
            un->facing = fdir;
        for (int k = 0; k < m.n; k++) {
            opfor_figure_t *f = &st->figures[m.idx[k]];
            f->flags |= OPFOR_FIG_MOVED;
            if (mv == VK_MV_RUN || mv == VK_MV_CHARGE)
                f->flags |= OPFOR_FIG_RUNNING;
        }
    }
    if (mv != VK_MV_CHARGE)
        vk_cohere(ctx, st, u, (float)(vk_move_x(ctx, st, un->first, VK_MV_ADVANCE) + d3));
    static const char *const MV[] = {"advances", "runs", "charges", "crawls"};
    VK_EV(ev, "  %s %s %.1f in (d3 = %d)", un->name, MV[mv & 3], total, d3);
    return total;
}

float vk_move_figure(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int f, opfor_pt_t p,
                     float allow, int contact_unit) {
    mover_t m;
    mover_init(&m, f, f + 1);
    mover_add(&m, st, f, allow, terrain_class(ctx, st, f));
    opfor_vec_t v = opfor_vsub(p, st->figures[f].pos);
    float len = opfor_vlen(v);
    if (len < 1e-3f)
        return 0.0f;
    if (len > allow && allow > 0.0f) /* never aim past the allowance: keeps bisection tight */
        v = opfor_vscale(v, allow / len), len = allow;
    float t = move_set(ctx, st, &m, v, contact_unit, st->units[st->figures[f].unit].side);
    if (t > 0.0f)
        st->figures[f].flags |= OPFOR_FIG_MOVED;
    return t * len;
}

int vk_fly_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int dz) {
    int craft = vk_craft(ctx, st, u), alt = st->ux[u].altitude;
    if (craft == VK_CRAFT_NONE)
        return dz == 0;
    int most = craft == VK_CRAFT_DIRIGIBLE ? 2 : 1;
    if (dz > most || dz < -most || alt + dz < 0 || alt + dz > VK_MAX_ALTITUDE)
        return 0;
    if (dz > 0 && craft == VK_CRAFT_BALLOON && st->ux[u].damage > 0)
        return 0; /* a damaged balloon may no longer ascend */
    return 1;
}

float vk_fly(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_pt_t dest, int dz,
             int d3, opfor_vk_events_t *ev) {
    opfor_unit_t *un = &st->units[u];
    float flown = 0.0f;
    if (vk_craft(ctx, st, u) == VK_CRAFT_DIRIGIBLE && st->ux[u].altitude > 0) {
        /* steering: twice transport advance mounted, in any direction (XII.D) */
        int x = ctx->tab->move_x[VK_MV_ADVANCE][OPFOR_VK_TRANSPORT][1][0][0];
        float allow = 2.0f * (float)(x + (d3 > 0 ? d3 : vk_d3(st)));
        vk_ugeo_t g;
        vk_unit_geo(st, u, &g);
        opfor_vec_t v = opfor_vsub(dest, g.c);
        float len = opfor_vlen(v);
        if (len > allow)
            v = opfor_vscale(v, allow / len), len = allow;
        /* over terrain and figures, but not off the table */
        float t = 1.0f, W = ctx->sc.table.width, D = ctx->sc.table.depth;
        for (int i = un->first; i < un->first + un->count; i++) {
            if (!vk_alive(st, i))
                continue;
            const opfor_figure_t *f = &st->figures[i];
            float r = vk_radius(f);
            if (v.x > 0.0f && f->pos.x + t * v.x > W - r)
                t = (W - r - f->pos.x) / v.x;
            if (v.x < 0.0f && f->pos.x + t * v.x < r)
                t = (r - f->pos.x) / v.x;
            if (v.y > 0.0f && f->pos.y + t * v.y > D - r)
                t = (D - r - f->pos.y) / v.y;
            if (v.y < 0.0f && f->pos.y + t * v.y < r)
                t = (r - f->pos.y) / v.y;
            if (t < 0.0f)
                t = 0.0f;
        }
        for (int i = un->first; i < un->first + un->count; i++) {
            if (!vk_alive(st, i))
                continue;
            st->figures[i].pos.x += t * v.x;
            st->figures[i].pos.y += t * v.y;
            if (t > 0.0f)
                st->figures[i].flags |= OPFOR_FIG_MOVED;
        }
        flown = t * len;
        opfor_vec_t fdir = opfor_vnorm(v);
        if (flown > 0.0f && (fdir.x != 0.0f || fdir.y != 0.0f))
            un->facing = fdir;
    }
    if (vk_fly_ok(ctx, st, u, dz))
        st->ux[u].altitude = (uint8_t)(st->ux[u].altitude + dz);
    VK_EV(ev, "  %s flies %.1f in%s, now at altitude %d", un->name, flown,
          dz > 0   ? " climbing"
          : dz < 0 ? " descending"
                   : "",
          st->ux[u].altitude);
    return flown;
}

/* A move's remount (OPFOR_VK_AF_MOUNT) or dismount (_DISMOUNT) in fl, when the riders can. */
static void mount_as_part(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, unsigned fl,
                          opfor_vk_events_t *ev) {
    if ((fl & OPFOR_VK_AF_MOUNT) && vk_can_mount(ctx, st, u)) {
        vk_mount(ctx, st, u, 1, 0);
        VK_EV(ev, "  %s mounts", st->units[u].name);
    }
    if ((fl & OPFOR_VK_AF_DISMOUNT) && vk_can_dismount(st, u)) {
        vk_mount(ctx, st, u, 0, 0);
        VK_EV(ev, "  %s dismounts", st->units[u].name);
    }
}

float vk_do_move(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                 int d3, opfor_vk_events_t *ev, vk_move_stop_t *stop) {
    int u = a->unit;
    int mv = a->kind == OPFOR_VK_ADVANCE ? VK_MV_ADVANCE
             : a->kind == OPFOR_VK_RUN   ? VK_MV_RUN
                                         : VK_MV_CRAWL;
    if (vk_craft(ctx, st, u) != VK_CRAFT_NONE) {
        int dz = (a->flags & OPFOR_VK_AF_CLIMB)     ? a->arc
                 : (a->flags & OPFOR_VK_AF_DESCEND) ? -(int)a->arc
                                                    : 0;
        if (stop) {
            stop->why = VK_STOP_ARRIVED;
            stop->fig = -1;
            stop->d3 = d3;
            stop->allowance = 0.0f;
            stop->has_block = 0;
        }
        return vk_fly(ctx, st, u, a->dest, dz, d3, ev);
    }
    /* Riders remount or dismount as part of the move (VIII), before the figures move or where
       they stop (`arc`: OPFOR_VK_AT_START / _AT_END); one path per unit (the figures' own paths
       are a later issue), so these are the two points of it a unit may choose. */
    unsigned fl = a->flags & (OPFOR_VK_AF_MOUNT | OPFOR_VK_AF_DISMOUNT);
    int at_end = fl && a->arc == OPFOR_VK_AT_END;
    if (fl && !at_end)
        mount_as_part(ctx, st, u, fl, ev);
    /* moving fire at a point of the path (IX): at the waypoint; else do_action fires after */
    int fire_t = -1;
    if ((a->flags & (OPFOR_VK_AF_FIRE | OPFOR_VK_AF_VIA | OPFOR_VK_AF_FIRE_VIA)) ==
            (OPFOR_VK_AF_FIRE | OPFOR_VK_AF_VIA | OPFOR_VK_AF_FIRE_VIA) &&
        a->kind != OPFOR_VK_RUN)
        fire_t = a->target;
    float moved = vk_move_unit_stop(ctx, st, u, mv, a->dest, (a->flags & OPFOR_VK_AF_VIA) != 0,
                                    a->via, d3, -1, fire_t, ev, stop);
    if (at_end)
        mount_as_part(ctx, st, u, fl, ev);
    return moved;
}

float vk_flee(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_pt_t from,
              opfor_vk_events_t *ev) {
    vk_ugeo_t g;
    vk_unit_geo(st, u, &g);
    opfor_vec_t away = opfor_vnorm(opfor_vsub(g.c, from));
    if (away.x == 0.0f && away.y == 0.0f)
        away = ctx->home[st->units[u].side];
    /* lean toward the own edge so that flight is to the rear (X) */
    away = opfor_vnorm(opfor_vadd(away, opfor_vscale(ctx->home[st->units[u].side], 0.5f)));
    opfor_pt_t dest = opfor_vadd(g.c, opfor_vscale(away, 40.0f));
    st->ux[u].flags |= OPFOR_VK_UX_FLED;
    VK_EV(ev, "  %s flees", st->units[u].name);
    return vk_move_unit(ctx, st, u, VK_MV_RUN | VK_MV_PERSONS, dest, 0, dest, 0, -1, ev);
}

void vk_cohere(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, float allow) {
    const opfor_unit_t *un = &st->units[u];
    /* the living figures' positions, compact (kept up to date as stragglers walk) */
    float px[OPFOR_MAX_FIGURES], py[OPFOR_MAX_FIGURES];
    int idx[OPFOR_MAX_FIGURES], n = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i)) {
            px[n] = st->figures[i].pos.x;
            py[n] = st->figures[i].pos.y;
            idx[n++] = i;
        }
    if (n < 2)
        return;
    for (int k = 0; k < n; k++) {
        int i = idx[k];
        if (!vk_is_person(&st->figures[i]))
            continue; /* guns and wagons do not walk back on their own */
        const opfor_figure_t *f = &st->figures[i];
        /* A fellow next in the unit's order within reach settles it (formations keep them
           side by side): the nearest is no farther and no smaller than a foot base, so its
           gap is no more than this one's, here a thousandth under VK_COHERENCY at most. */
        float near = VK_COHERENCY + vk_radius(f) + OPFOR_RADIUS_FOOT - 0.001f;
        if (k > 0) {
            float dx = px[k] - px[k - 1], dy = py[k] - py[k - 1];
            if (dx * dx + dy * dy <= near * near)
                continue;
        }
        if (k + 1 < n) {
            float dx = px[k] - px[k + 1], dy = py[k] - py[k + 1];
            if (dx * dx + dy * dy <= near * near)
                continue;
        }
        float best = 1e30f;
        int bj = -1;
        for (int q = 0; q < n; q++) {
            if (q == k)
                continue;
            float dx = f->pos.x - px[q], dy = f->pos.y - py[q];
            float d = dx * dx + dy * dy;
            if (d < best) {
                best = d;
                bj = idx[q];
            }
        }
        if (bj < 0)
            continue;
        float gap = sqrtf(best) - vk_radius(f) - vk_radius(&st->figures[bj]);
        if (gap <= VK_COHERENCY)
            continue;
        /* walk toward the unit's centre (vk_unit_geo's: the mean of the living figures, summed
           in order) until back within reach of a fellow */
        float sx = 0.0f, sy = 0.0f;
        for (int q = 0; q < n; q++) {
            sx += px[q];
            sy += py[q];
        }
        opfor_pt_t c = opfor_pt(sx / (float)n, sy / (float)n);
        opfor_vec_t d = opfor_vnorm(opfor_vsub(c, f->pos));
        float need = gap - VK_COHERENCY + 0.5f;
        if (need > allow)
            need = allow;
        vk_move_figure(ctx, st, i, opfor_vadd(f->pos, opfor_vscale(d, need)), need, -1);
        px[k] = st->figures[i].pos.x;
        py[k] = st->figures[i].pos.y;
    }
}

/* ---------------------------------------------------------------- spots, mounting */

int vk_spot_blocked(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, opfor_pt_t p,
                    float r, int mounted) {
    if (p.x < r || p.y < r || p.x > ctx->sc.table.width - r || p.y > ctx->sc.table.depth - r)
        return 1;
    if (opfor_terrain_impassable_at(&ctx->sc.table, p, mounted) >= 0)
        return 1;
    for (int o = 0; o < st->nfigures; o++) {
        if (o == f || !vk_alive(st, o) || st->ux[st->figures[o].unit].removed)
            continue;
        if (opfor_bases_overlap(p, r, st->figures[o].pos, vk_radius(&st->figures[o]), 0.01f))
            return 1;
    }
    return 0;
}

int vk_can_dismount(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_MOUNTED))
            return 1;
    return 0;
}

/* Bases that could overlap a spot lie within the largest base radius (1 in) twice of it: the
 * box of the spots is padded by that and a slack far above rounding. */
#define VK_NEAR_PAD (2.0f * OPFOR_RADIUS_EQUIPMENT + 0.1f)

/* The living figures on the table whose centres lie in the box lo-hi (padded by pad), other
 * than unit skip's (-1: none): indices, positions and radii, compact. Returns how many. */
static int near_figs(const opfor_vk_state_t *st, opfor_pt_t lo, opfor_pt_t hi, float pad, int skip,
                     int *idx, float *x, float *y, float *r) {
    float lox = lo.x - pad, loy = lo.y - pad, hix = hi.x + pad, hiy = hi.y + pad;
    int n = 0;
    for (int o = 0; o < st->nfigures; o++) {
        const opfor_figure_t *of = &st->figures[o];
        if (of->pos.x < lox || of->pos.x > hix)
            continue;
        if (of->pos.y < loy || of->pos.y > hiy || of->unit == skip || !vk_alive(st, o) ||
            st->ux[of->unit].removed)
            continue;
        idx[n] = o;
        x[n] = of->pos.x;
        y[n] = of->pos.y;
        r[n] = vk_radius(of);
        n++;
    }
    return n;
}

/* Whether spot p of radius r (figure self, -1: none) overlaps any of the n bases near. */
static int near_overlap(int n, const int *idx, const float *x, const float *y, const float *r,
                        int self, opfor_pt_t p, float rp) {
    for (int o = 0; o < n; o++)
        if (idx[o] != self && opfor_bases_overlap(p, rp, opfor_pt(x[o], y[o]), r[o], 0.01f))
            return 1;
    return 0;
}

/* Mounting (VIII): riders with horses mount in place; when the bigger bases would overlap,
 * the unit re-forms around its centre (opfor_unit_place) and every spot must be free. Both
 * checks are yes-or-no over every figure: they test the cheap conditions (table edge, the
 * bases near, compact) before the terrain. */
int vk_mount(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int mount, int dry_run) {
    opfor_unit_t *un = &st->units[u];
    if (!mount) {
        if (dry_run)
            return vk_can_dismount(st, u);
        for (int i = un->first; i < un->first + un->count; i++)
            if (vk_alive(st, i))
                st->figures[i].flags &= (uint16_t)~OPFOR_FIG_MOUNTED;
        return 1;
    }
    int any = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE) &&
            !(st->figures[i].flags & OPFOR_FIG_MOUNTED))
            any = 1;
    if (!any)
        return 0;
    int nidx[OPFOR_MAX_FIGURES];
    float nx[OPFOR_MAX_FIGURES], ny[OPFOR_MAX_FIGURES], nr[OPFOR_MAX_FIGURES];
    /* In place first: every spot on the table, clear of every other base (vk_spot_blocked),
       of this unit's other mounted bases and of closed terrain. */
    int ui[OPFOR_MAX_FIGURES], um[OPFOR_MAX_FIGURES], nu = 0;
    float ur[OPFOR_MAX_FIGURES];
    opfor_pt_t lo = opfor_pt(1e30f, 1e30f), hi = opfor_pt(-1e30f, -1e30f);
    int ok = 1;
    for (int i = un->first; i < un->first + un->count; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!vk_alive(st, i))
            continue;
        int m = (f->flags & (OPFOR_FIG_HORSE | OPFOR_FIG_MOUNTED)) != 0;
        float r = m ? OPFOR_RADIUS_MOUNTED : vk_radius(f);
        opfor_pt_t p = f->pos;
        if (p.x < r || p.y < r || p.x > ctx->sc.table.width - r || p.y > ctx->sc.table.depth - r)
            ok = 0;
        ui[nu] = i;
        um[nu] = m || (f->flags & OPFOR_FIG_EQUIPMENT);
        ur[nu++] = r;
        lo = opfor_pt(p.x < lo.x ? p.x : lo.x, p.y < lo.y ? p.y : lo.y);
        hi = opfor_pt(p.x > hi.x ? p.x : hi.x, p.y > hi.y ? p.y : hi.y);
    }
    /* the unit's own bases first: riders in a foot formation often overlap */
    for (int k = 0; k < nu && ok; k++)
        for (int j = 0; j < k && ok; j++)
            if (opfor_bases_overlap(st->figures[ui[k]].pos, ur[k], st->figures[ui[j]].pos, ur[j],
                                    0.01f))
                ok = 0;
    if (ok) {
        int nn = near_figs(st, lo, hi, VK_NEAR_PAD, -1, nidx, nx, ny, nr);
        for (int k = 0; k < nu && ok; k++)
            if (near_overlap(nn, nidx, nx, ny, nr, ui[k], st->figures[ui[k]].pos, ur[k]))
                ok = 0;
        for (int k = 0; k < nu && ok; k++)
            if (opfor_terrain_impassable_at(&ctx->sc.table, st->figures[ui[k]].pos, um[k]) >= 0)
                ok = 0;
    }
    opfor_figure_t tmp[OPFOR_MAX_FIGURES];
    int idx[OPFOR_MAX_FIGURES], n = 0;
    if (!ok) {
        /* re-form around the centre with the wider spacing */
        vk_ugeo_t g;
        vk_unit_geo(st, u, &g);
        for (int i = un->first; i < un->first + un->count; i++) {
            if (!vk_alive(st, i))
                continue;
            tmp[n] = st->figures[i];
            if (tmp[n].flags & OPFOR_FIG_HORSE)
                tmp[n].flags |= OPFOR_FIG_MOUNTED;
            idx[n++] = i;
        }
        opfor_unit_place(&opfor_viktoria_terrain_rules.radii, tmp, n, g.c, un->facing,
                         OPFOR_FORMATION_LINE);
        /* spacing for riders: stretch the line so 1.6 in bases fit (place uses foot spacing) */
        lo = opfor_pt(1e30f, 1e30f), hi = opfor_pt(-1e30f, -1e30f);
        ok = 1;
        for (int k = 0; k < n; k++) {
            opfor_vec_t d = opfor_vsub(tmp[k].pos, g.c);
            tmp[k].pos = opfor_vadd(g.c, opfor_vscale(d, 1.25f));
            float r = vk_radius(&tmp[k]);
            opfor_pt_t p = tmp[k].pos;
            if (p.x < r || p.y < r || p.x > ctx->sc.table.width - r ||
                p.y > ctx->sc.table.depth - r)
                ok = 0;
            lo = opfor_pt(p.x < lo.x ? p.x : lo.x, p.y < lo.y ? p.y : lo.y);
            hi = opfor_pt(p.x > hi.x ? p.x : hi.x, p.y > hi.y ? p.y : hi.y);
        }
        /* every spot clear of everyone but this unit's own figures */
        if (ok && n > 0) {
            int nn = near_figs(st, lo, hi, VK_NEAR_PAD, u, nidx, nx, ny, nr);
            for (int k = 0; k < n && ok; k++)
                if (near_overlap(nn, nidx, nx, ny, nr, -1, tmp[k].pos, vk_radius(&tmp[k])))
                    ok = 0;
        }
        for (int k = 0; k < n && ok; k++)
            if (opfor_terrain_impassable_at(&ctx->sc.table, tmp[k].pos, 1) >= 0)
                ok = 0;
        if (!ok)
            return 0;
    }
    if (dry_run)
        return 1;
    if (n > 0) {
        for (int k = 0; k < n; k++)
            st->figures[idx[k]].pos = tmp[k].pos;
    }
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE)) {
            st->figures[i].flags |= OPFOR_FIG_MOUNTED;
            st->figures[i].flags &= (uint16_t)~OPFOR_FIG_PRONE;
        }
    return 1;
}

int vk_can_mount(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int any = 0;
    for (int i = un->first; i < un->first + un->count && !any; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE) &&
            !(st->figures[i].flags & OPFOR_FIG_MOUNTED))
            any = 1;
    if (!any)
        return 0;
    return vk_mount(ctx, (opfor_vk_state_t *)st, u, 1, 1);
}
