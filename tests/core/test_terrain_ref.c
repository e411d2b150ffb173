/* tests/core/test_terrain_ref.c — core/terrain.c's tuned queries answer bit for bit as the
 * plain code they replaced.
 *
 * Below is that plain code, as first written (every edge through the public geom.c tests, the
 * segment's terms recomputed for each feature, no pass shared between two questions). The
 * library's line of sight (also opfor_terrain_los_in and the grid's), movement paths, "does a
 * segment enter a feature", "is a point in a feature" (and impassable ground and hiding places,
 * which ask it) and the half-inch gap rule are compared with it on random tables built to hit
 * the awkward cases: coordinates on a quarter-inch grid (segments through vertices and along
 * edges), zero-length segments, ends inside areas, repeated and collinear points, concave
 * outlines, rectangles in the loader's point order and in others, foliage lines, lines of zero
 * width, scenario overrides (rough ground closed to riders, impassable lines) and features far
 * off any table, where the guarded fast paths fall back to the plain ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_rules.h"
#include "opfor/error.h"
#include "opfor/geom.h"
#include "opfor/rng.h"
#include "opfor/terrain.h"
#include "opfor/terrain_grid.h"

/* ---- the plain code (core/terrain.c before tuning; names prefixed ref_) ---- */

#define REF_TOL 1e-4f
#define REF_APART 0.01f
#define REF_PATH_MAX_BREAKS 1024

static inline float ref_minf(float a, float b) {
    return a < b ? a : b;
}
static inline float ref_maxf(float a, float b) {
    return a > b ? a : b;
}

/* Whether the bounding box of segment a-b, widened by m, meets the feature's box. */
static inline int ref_bbox_hit(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b,
                               float m) {
    return ref_minf(a.x, b.x) - m <= f->hi.x && ref_maxf(a.x, b.x) + m >= f->lo.x &&
           ref_minf(a.y, b.y) - m <= f->hi.y && ref_maxf(a.y, b.y) + m >= f->lo.y;
}

static int ref_seg_enters(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b);

/* opfor_poly_contains for an area feature, with its box first: a point clearly outside the
 * box is outside the polygon (no edge straddles it, or an even number do). */
static int ref_area_contains(const opfor_terrain_feature_t *f, opfor_pt_t p) {
    if (p.x < f->lo.x - REF_APART || p.x > f->hi.x + REF_APART || p.y < f->lo.y - REF_APART ||
        p.y > f->hi.y + REF_APART)
        return 0;
    return opfor_poly_contains(f->pts, f->npts, p);
}

static int ref_feature_contains(const opfor_terrain_feature_t *f, opfor_pt_t p) {
    if (p.x < f->lo.x || p.x > f->hi.x || p.y < f->lo.y || p.y > f->hi.y)
        return 0;
    if (f->shape == OPFOR_SHAPE_AREA)
        return opfor_poly_contains(f->pts, f->npts, p);
    return opfor_polyline_dist_pt(f->pts, f->npts, p) <= 0.5f * f->width;
}

/* The parameter interval of segment a-b inside the capsule around p-q of half-width h.
 * The capsule is convex, so the part inside is one interval: the union of the parts in
 * the two end discs and in the rectangle. Returns 1 when it is not empty. */
static int ref_capsule_interval(opfor_pt_t a, opfor_pt_t b, opfor_pt_t p, opfor_pt_t q, float h,
                                float *t0, float *t1) {
    float lo = 2.0f, hi = -1.0f, c0, c1;
    if (opfor_seg_circle(a, b, p, h, &c0, &c1)) {
        lo = ref_minf(lo, c0);
        hi = ref_maxf(hi, c1);
    }
    if (opfor_seg_circle(a, b, q, h, &c0, &c1)) {
        lo = ref_minf(lo, c0);
        hi = ref_maxf(hi, c1);
    }
    opfor_vec_t pq = opfor_vsub(q, p);
    float len = opfor_vlen(pq);
    if (len > 0.0f) {
        /* Liang-Barsky clip against 0 <= along <= len and -h <= across <= h. */
        opfor_vec_t e = opfor_vscale(pq, 1.0f / len), nv = opfor_vperp(e);
        opfor_vec_t r = opfor_vsub(b, a), ap = opfor_vsub(a, p);
        float al[2] = {opfor_vdot(ap, e), opfor_vdot(ap, nv)};
        float be[2] = {opfor_vdot(r, e), opfor_vdot(r, nv)};
        float mn[2] = {0.0f, -h}, mx[2] = {len, h};
        float r0 = 0.0f, r1 = 1.0f;
        int ok = 1;
        for (int k = 0; k < 2 && ok; k++) {
            if (be[k] == 0.0f) {
                ok = al[k] >= mn[k] && al[k] <= mx[k];
                continue;
            }
            float u0 = (mn[k] - al[k]) / be[k], u1 = (mx[k] - al[k]) / be[k];
            if (u0 > u1) {
                float s = u0;
                u0 = u1;
                u1 = s;
            }
            r0 = ref_maxf(r0, u0);
            r1 = ref_minf(r1, u1);
            ok = r0 <= r1;
        }
        if (ok) {
            lo = ref_minf(lo, r0);
            hi = ref_maxf(hi, r1);
        }
    }
    if (!(lo <= hi))
        return 0;
    *t0 = lo;
    *t1 = hi;
    return 1;
}

/* Intervals (pairs in iv) of segment a-b inside line feature f; returns how many. */
static int ref_line_intervals(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b,
                              float iv[][2]) {
    int k = 0;
    float h = 0.5f * f->width;
    if (!(h > 0.0f))
        return 0;
    for (int i = 1; i < f->npts; i++) {
        opfor_pt_t p = f->pts[i - 1], q = f->pts[i];
        opfor_pt_t lo = opfor_pt(ref_minf(p.x, q.x) - h, ref_minf(p.y, q.y) - h);
        opfor_pt_t hi = opfor_pt(ref_maxf(p.x, q.x) + h, ref_maxf(p.y, q.y) + h);
        if (opfor_seg_box_apart(a, b, lo, hi, REF_APART))
            continue; /* far from this piece's capsule: no interval */
        if (ref_capsule_interval(a, b, p, q, h, &iv[k][0], &iv[k][1]))
            k++;
    }
    return k;
}

/* Total length of the union of n intervals (sorted here) times len. */
static float ref_union_length(float iv[][2], int n, float len) {
    for (int i = 1; i < n; i++) {
        float s0 = iv[i][0], s1 = iv[i][1];
        int j = i - 1;
        while (j >= 0 && iv[j][0] > s0) {
            iv[j + 1][0] = iv[j][0];
            iv[j + 1][1] = iv[j][1];
            j--;
        }
        iv[j + 1][0] = s0;
        iv[j + 1][1] = s1;
    }
    float total = 0.0f, cs = 0.0f, ce = -1.0f;
    for (int i = 0; i < n; i++) {
        if (iv[i][0] > ce) {
            if (ce > cs)
                total += ce - cs;
            cs = iv[i][0];
            ce = iv[i][1];
        } else if (iv[i][1] > ce) {
            ce = iv[i][1];
        }
    }
    if (ce > cs)
        total += ce - cs;
    return total * len;
}

/* Inches of segment a-b inside feature f. */
static float ref_length_inside(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b) {
    if (f->shape == OPFOR_SHAPE_AREA)
        return opfor_poly_seg_length_inside(f->pts, f->npts, a, b);
    float iv[OPFOR_POLY_MAX_PTS][2];
    int n = ref_line_intervals(f, a, b, iv);
    return ref_union_length(iv, n, opfor_dist(a, b));
}

static int ref_feature_seg_enters(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b) {
    if (opfor_seg_box_apart(a, b, f->lo, f->hi, REF_APART))
        return 0;
    return ref_seg_enters(f, a, b);
}

/* Whether segment a-b enters feature f at all. */
static int ref_seg_enters(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b) {
    if (f->shape == OPFOR_SHAPE_AREA) /* opfor_poly_seg_intersects, boxes first */
        return f->npts >= 3 && (ref_area_contains(f, a) || ref_area_contains(f, b) ||
                                opfor_poly_seg_crosses(f->pts, f->npts, a, b));
    return opfor_polyline_seg_dist(f->pts, f->npts, a, b) <= 0.5f * f->width;
}

static int ref_los_r(const opfor_table_t *t, opfor_pt_t a, float ra, opfor_pt_t b, float rb,
                     opfor_los_t *out) {
    float foliage = 0.0f;
    int blocker = -1;
    for (int i = 0; i < t->nfeatures && blocker < 0; i++) {
        const opfor_terrain_feature_t *f = &t->features[i];
        if (f->sight == OPFOR_SIGHT_CLEAR || !ref_bbox_hit(f, a, b, 0.0f) ||
            opfor_seg_box_apart(a, b, f->lo, f->hi, REF_APART))
            continue;
        if (f->sight == OPFOR_SIGHT_FOLIAGE) {
            foliage += ref_length_inside(f, a, b);
            continue;
        }
        if (f->shape == OPFOR_SHAPE_AREA) {
            /* entering the area blocks unless either end stands inside it (the same as
               opfor_poly_seg_intersects with both ends outside) */
            if (!ref_area_contains(f, a) && !ref_area_contains(f, b) &&
                opfor_poly_seg_crosses(f->pts, f->npts, a, b))
                blocker = i;
        } else {
            float h = 0.5f * f->width;
            if (opfor_polyline_seg_crossings(f->pts, f->npts, a, b) > 0 &&
                opfor_polyline_dist_pt(f->pts, f->npts, a) - ra - h > TEST_LINE_COVER + REF_TOL &&
                opfor_polyline_dist_pt(f->pts, f->npts, b) - rb - h > TEST_LINE_COVER + REF_TOL)
                blocker = i;
        }
    }
    int visible = blocker < 0 && foliage <= TEST_FOLIAGE_SIGHT + REF_TOL;
    if (out) {
        out->visible = visible;
        out->blocker = blocker;
        out->foliage = foliage;
    }
    return visible;
}

/* Number of distinct crossing parameters in ts[0..n) (a crossing exactly at a vertex is
 * found on two edges but is one crossing). Sorts ts. */
static int ref_count_distinct(float *ts, int n) {
    for (int i = 1; i < n; i++) {
        float x = ts[i];
        int j = i - 1;
        while (j >= 0 && ts[j] > x) {
            ts[j + 1] = ts[j];
            j--;
        }
        ts[j + 1] = x;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || ts[i] - ts[i - 1] > 1e-6f)
            k++;
    return k;
}

/* Crossings of segment a-b with feature f's outline (areas) or centre line (lines). */
static int ref_crossings(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b) {
    float ts[OPFOR_POLY_MAX_PTS];
    int n = 0;
    if (f->shape == OPFOR_SHAPE_AREA) {
        n = opfor_poly_seg_params(f->pts, f->npts, a, b, ts, OPFOR_POLY_MAX_PTS);
    } else {
        for (int i = 1; i < f->npts; i++) {
            float t;
            if (opfor_seg_intersect(a, b, f->pts[i - 1], f->pts[i], &t, NULL))
                ts[n++] = t;
        }
    }
    return ref_count_distinct(ts, n);
}

static int ref_path_impl(const opfor_table_t *t, const uint8_t *idx, int n_idx, opfor_pt_t a,
                         opfor_pt_t b, opfor_path_t *out) {
    float br[REF_PATH_MAX_BREAKS];
    uint8_t cls[OPFOR_MAX_FEATURES]; /* indices of rough and road features met */
    int nb = 0, ncls = 0, err = 0;
    opfor_path_t p = {0};
    p.blocker = -1;
    p.length = opfor_dist(a, b);
    br[nb++] = 0.0f;
    br[nb++] = 1.0f;
    for (int ii = 0; ii < n_idx; ii++) {
        int i = idx ? idx[ii] : ii;
        const opfor_terrain_feature_t *f = &t->features[i];
        if (f->move == OPFOR_MOVE_OPEN && !(f->flags & OPFOR_TF_NO_MOUNTED))
            continue; /* adds nothing to a path */
        if (!ref_bbox_hit(f, a, b, 0.0f) || opfor_seg_box_apart(a, b, f->lo, f->hi, REF_APART))
            continue;
        int closed = f->move == OPFOR_MOVE_IMPASSABLE, closed_m = (f->flags & OPFOR_TF_NO_MOUNTED);
        if ((closed || closed_m) && ref_seg_enters(f, a, b)) {
            if (closed)
                p.impassable = 1;
            p.no_mounted = 1;
            if (p.blocker < 0)
                p.blocker = i;
        }
        if (f->move == OPFOR_MOVE_OBSTACLE) {
            p.obstacles += ref_crossings(f, a, b);
        } else if (f->move == OPFOR_MOVE_ROUGH || f->move == OPFOR_MOVE_ROAD) {
            int used;
            if (f->shape == OPFOR_SHAPE_AREA) {
                if (nb + OPFOR_POLY_MAX_PTS > REF_PATH_MAX_BREAKS) {
                    err = OPFOR_EFULL;
                    continue;
                }
                int n = opfor_poly_seg_params(f->pts, f->npts, a, b, br + nb, OPFOR_POLY_MAX_PTS);
                nb += n;
                /* A path wholly inside the area crosses no edge but is still in it. */
                used = n > 0 || opfor_poly_contains(f->pts, f->npts, a);
            } else {
                float iv[OPFOR_POLY_MAX_PTS][2];
                int n = ref_line_intervals(f, a, b, iv);
                if (nb + 2 * n > REF_PATH_MAX_BREAKS) {
                    err = OPFOR_EFULL;
                    continue;
                }
                for (int k = 0; k < n; k++) {
                    br[nb++] = iv[k][0];
                    br[nb++] = iv[k][1];
                }
                used = n > 0;
            }
            if (used)
                cls[ncls++] = (uint8_t)i;
        }
    }
    if (ncls > 0 && p.length > 0.0f) {
        /* Classify each piece between breakpoints by its midpoint. */
        for (int i = 1; i < nb; i++) {
            float x = br[i];
            int j = i - 1;
            while (j >= 0 && br[j] > x) {
                br[j + 1] = br[j];
                j--;
            }
            br[j + 1] = x;
        }
        for (int i = 0; i + 1 < nb; i++) {
            float t0 = ref_maxf(br[i], 0.0f), t1 = ref_minf(br[i + 1], 1.0f);
            if (!(t1 > t0))
                continue;
            opfor_pt_t m = opfor_vlerp(a, b, 0.5f * (t0 + t1));
            int rough = 0, road = 0;
            for (int k = 0; k < ncls && !road; k++) {
                const opfor_terrain_feature_t *f = &t->features[cls[k]];
                if (ref_feature_contains(f, m)) {
                    if (f->move == OPFOR_MOVE_ROAD)
                        road = 1;
                    else
                        rough = 1;
                }
            }
            float len = (t1 - t0) * p.length;
            if (road)
                p.road += len;
            else if (rough)
                p.rough += len;
        }
    }
    if (out)
        *out = p;
    return err;
}

static int ref_fire_lane_blocked(opfor_pt_t a, opfor_pt_t b, const opfor_circle_t *circles, int n,
                                 float gap) {
    if (n > OPFOR_GAP_MAX_CIRCLES)
        return OPFOR_ERANGE;
    uint16_t near[OPFOR_GAP_MAX_CIRCLES];
    int nn = 0;
    for (int i = 0; i < n; i++) {
        opfor_pt_t c = circles[i].c;
        float r = circles[i].r;
        if (!(r > 0.0f))
            continue;
        if (opfor_dist2(a, c) <= r * r || opfor_dist2(b, c) <= r * r)
            continue; /* the firer's or the target's own base */
        float d = opfor_seg_dist_pt(a, b, c);
        if (d < r)
            return 1; /* through a base */
        if (d <= r + gap)
            near[nn++] = (uint16_t)i;
    }
    /* Only bases within r + gap of the line can flank a narrow gap that it crosses. */
    for (int i = 0; i < nn; i++) {
        const opfor_circle_t *ci = &circles[near[i]];
        for (int j = i + 1; j < nn; j++) {
            const opfor_circle_t *cj = &circles[near[j]];
            if (opfor_base_dist(ci->c, ci->r, cj->c, cj->r) < gap &&
                opfor_seg_intersect(a, b, ci->c, cj->c, NULL, NULL))
                return 1;
        }
    }
    return 0;
}

/* ---- random tables ---- */

static float rnd(opfor_rng_t *r, float lo, float hi) {
    return lo + (hi - lo) * (float)opfor_rng_unit(r);
}

/* A coordinate, on a quarter-inch grid half of the time (exact touches and collinear points). */
static float coord(opfor_rng_t *r, float lo, float hi, int snap) {
    float v = rnd(r, lo, hi);
    return snap ? floorf(v * 4.0f) / 4.0f : v;
}

/* A random area outline into p (returns its point count) around c of size s. */
static int random_outline(opfor_rng_t *r, opfor_pt_t *p, opfor_pt_t c, float s, int snap) {
    switch (opfor_rng_below(r, 7)) {
    case 0: /* a rectangle in the loader's order */
    case 1: {
        float w = coord(r, 0.25f, s, snap), h = coord(r, 0.25f, s, snap);
        p[0] = c;
        p[1] = opfor_pt(c.x + w, c.y);
        p[2] = opfor_pt(c.x + w, c.y + h);
        p[3] = opfor_pt(c.x, c.y + h);
        return 4;
    }
    case 2: { /* a rectangle clockwise, starting elsewhere */
        float w = coord(r, 0.25f, s, snap), h = coord(r, 0.25f, s, snap);
        p[0] = opfor_pt(c.x + w, c.y + h);
        p[1] = opfor_pt(c.x + w, c.y);
        p[2] = c;
        p[3] = opfor_pt(c.x, c.y + h);
        return 4;
    }
    case 3: { /* a 16-gon circle as the loader draws it */
        static const float C[16] = {1.0f,  0.92387953f,  0.70710678f,  0.38268343f,
                                    0.0f,  -0.38268343f, -0.70710678f, -0.92387953f,
                                    -1.0f, -0.92387953f, -0.70710678f, -0.38268343f,
                                    0.0f,  0.38268343f,  0.70710678f,  0.92387953f};
        float rad = rnd(r, 0.5f, s);
        for (int k = 0; k < 16; k++)
            p[k] = opfor_pt(c.x + rad * C[k], c.y + rad * C[(k + 12) % 16]);
        return 16;
    }
    case 4: { /* a concave star */
        int n = 6 + 2 * (int)opfor_rng_below(r, 4);
        for (int k = 0; k < n; k++) {
            float ang = 6.2831853f * (float)k / (float)n;
            float rad = (k & 1 ? 0.4f : 1.0f) * s;
            p[k] = opfor_pt(c.x + rad * cosf(ang), c.y + rad * sinf(ang));
            if (snap)
                p[k] = opfor_pt(floorf(p[k].x * 4.0f) / 4.0f, floorf(p[k].y * 4.0f) / 4.0f);
        }
        return n;
    }
    case 5: { /* a quadrilateral with a repeated point, or a collinear one */
        p[0] = c;
        p[1] = opfor_pt(c.x + coord(r, 0.5f, s, snap), c.y);
        p[2] = opfor_pt(p[1].x, c.y + coord(r, 0.5f, s, snap));
        if (opfor_rng_below(r, 2)) {
            p[3] = p[2]; /* repeated */
        } else {
            p[3] = opfor_pt(0.5f * (p[2].x + c.x), 0.5f * (p[2].y + c.y)); /* on the diagonal */
        }
        p[4] = opfor_pt(c.x, p[2].y);
        return 5;
    }
    default: { /* a random quadrilateral */
        p[0] = c;
        p[1] = opfor_pt(c.x + coord(r, 1, s, snap), c.y + coord(r, -1, 1, snap));
        p[2] = opfor_pt(c.x + coord(r, 1, s, snap), c.y + coord(r, 1, s, snap));
        p[3] = opfor_pt(c.x + coord(r, -1, 1, snap), c.y + coord(r, 1, s, snap));
        return 4;
    }
    }
}

/* A random table of n features, every coordinate shifted by off. */
static void random_table(opfor_rng_t *r, opfor_table_t *t, int n, float off) {
    static const opfor_terrain_kind_t AREAS[] = {OPFOR_TK_BUILDING,   OPFOR_TK_HILL,
                                                 OPFOR_TK_WOODS,      OPFOR_TK_ROUGH,
                                                 OPFOR_TK_IMPASSABLE, OPFOR_TK_FIELD_WORKS};
    static const opfor_terrain_kind_t LINES[] = {OPFOR_TK_HEDGE, OPFOR_TK_WALL,  OPFOR_TK_ROAD,
                                                 OPFOR_TK_FENCE, OPFOR_TK_RIVER, OPFOR_TK_WOODS};
    test_table_init(t, 72.0f, 48.0f, OPFOR_EDGE_TOP);
    for (int i = 0; i < n; i++) {
        opfor_terrain_feature_t f;
        opfor_pt_t p[OPFOR_POLY_MAX_PTS];
        int snap = (int)opfor_rng_below(r, 2);
        opfor_pt_t c = opfor_pt(off + coord(r, 2, 66, snap), off + coord(r, 2, 42, snap));
        if (opfor_rng_below(r, 3) != 0) {
            int np = random_outline(r, p, c, rnd(r, 1.0f, 7.0f), snap);
            opfor_terrain_kind_t k = AREAS[opfor_rng_below(r, 6)];
            assert_int_equal(opfor_terrain_feature_init(&f, k, OPFOR_SHAPE_AREA, "a", p, np, 0), 0);
        } else {
            int np = 2 + (int)opfor_rng_below(r, 4);
            p[0] = c;
            for (int k = 1; k < np; k++)
                p[k] = opfor_rng_below(r, 6) == 0 ? p[k - 1] /* a repeated point */
                                                  : opfor_pt(p[k - 1].x + coord(r, -9, 9, snap),
                                                             p[k - 1].y + coord(r, -9, 9, snap));
            opfor_terrain_kind_t k = LINES[opfor_rng_below(r, 6)];
            float w = opfor_rng_below(r, 8) == 0 ? 0.0f
                      : k == OPFOR_TK_ROAD       ? rnd(r, 1, 3)
                                                 : rnd(r, 0.2f, 1.2f);
            assert_int_equal(opfor_terrain_feature_init(&f, k, OPFOR_SHAPE_LINE, "l", p, np, w), 0);
        }
        /* scenario overrides now and then */
        switch (opfor_rng_below(r, 10)) {
        case 0:
            f.flags |= OPFOR_TF_NO_MOUNTED;
            break;
        case 1:
            f.move = OPFOR_MOVE_IMPASSABLE;
            break;
        case 2:
            f.move = OPFOR_MOVE_ROUGH;
            break;
        case 3:
            f.sight = OPFOR_SIGHT_BLOCKS;
            break;
        case 4:
            f.sight = OPFOR_SIGHT_FOLIAGE;
            break;
        default:
            break;
        }
        assert_true(opfor_table_add(t, &f) >= 0);
    }
}

/* A random segment: across the field, short, zero-length, from or along a feature's points. */
static void random_seg(opfor_rng_t *r, const opfor_table_t *t, float off, opfor_pt_t *a,
                       opfor_pt_t *b) {
    int snap = (int)opfor_rng_below(r, 2);
    *a = opfor_pt(off + coord(r, 0, 72, snap), off + coord(r, 0, 48, snap));
    *b = opfor_pt(off + coord(r, 0, 72, snap), off + coord(r, 0, 48, snap));
    const opfor_terrain_feature_t *f = &t->features[opfor_rng_below(r, (uint32_t)t->nfeatures)];
    int k = (int)opfor_rng_below(r, f->npts);
    switch (opfor_rng_below(r, 8)) {
    case 0:
        *b = opfor_pt(a->x + coord(r, -2, 2, snap), a->y + coord(r, -2, 2, snap));
        break;
    case 1:
        *b = *a;
        break;
    case 2: /* from a point of the feature */
        *a = f->pts[k];
        break;
    case 3: /* along an edge, or beyond it */
        *a = f->pts[k];
        *b = f->pts[(k + 1) % f->npts];
        if (opfor_rng_below(r, 2))
            *b = opfor_pt(2.0f * b->x - a->x, 2.0f * b->y - a->y);
        break;
    case 4: /* through a point of the feature */
        *b = opfor_pt(2.0f * f->pts[k].x - a->x, 2.0f * f->pts[k].y - a->y);
        break;
    default:
        break;
    }
}

static void assert_los_equal(const opfor_los_t *x, int vx, const opfor_los_t *y, int vy) {
    assert_int_equal(vx, vy);
    assert_int_equal(x->visible, y->visible);
    assert_int_equal(x->blocker, y->blocker);
    assert_memory_equal(&x->foliage, &y->foliage, sizeof x->foliage); /* to the bit */
}

static void assert_path_equal(const opfor_path_t *x, const opfor_path_t *y) {
    assert_memory_equal(&x->length, &y->length, sizeof x->length);
    assert_memory_equal(&x->rough, &y->rough, sizeof x->rough);
    assert_memory_equal(&x->road, &y->road, sizeof x->road);
    assert_int_equal(x->obstacles, y->obstacles);
    assert_int_equal(x->impassable, y->impassable);
    assert_int_equal(x->no_mounted, y->no_mounted);
    assert_int_equal(x->blocker, y->blocker);
}

/* Line of sight (full, masked, through the grid) and the per-feature questions. */
static void terrain_ref_sight_and_features(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 2027, 5);
    opfor_table_t *t = malloc(sizeof *t);
    opfor_tgrid_t *g = malloc(sizeof *g);
    assert_non_null(t);
    assert_non_null(g);
    long blocked = 0, foliage = 0, seen = 0, enters = 0, inside = 0;
    for (int tab = 0; tab < 120; tab++) {
        /* now and then far out: beyond the guards of the fast paths (20000 in) */
        float off = tab % 10 == 9 ? 20000.0f : tab % 10 == 8 ? 3000.0f : 0.0f;
        random_table(&r, t, 4 + (int)opfor_rng_below(&r, 30), off);
        assert_int_equal(opfor_tgrid_build(g, t), 0);
        /* A feature with a repeated point has a zero-length edge, which opfor_seg_intersect
           meets wherever its point projects onto the segment, however far from it: the exact
           queries keep that quirk (their box rejects come first), but the grid, culling by
           distance, does not, so it is compared only on tables without one. */
        int repeats = 0;
        for (int i = 0; i < t->nfeatures; i++) {
            const opfor_terrain_feature_t *f = &t->features[i];
            for (int q = 0; q < f->npts; q++) {
                opfor_pt_t u = f->pts[q], v = f->pts[(q + 1) % f->npts];
                repeats |= u.x == v.x && u.y == v.y;
            }
        }
        for (int k = 0; k < 300; k++) {
            opfor_pt_t a, b;
            random_seg(&r, t, off, &a, &b);
            static const float RAD[3] = {0.5f, 0.8f, 1.0f};
            float ra = RAD[opfor_rng_below(&r, 3)], rb = RAD[opfor_rng_below(&r, 3)];
            opfor_los_t x, y, z;
            int vx = opfor_terrain_los_r(t, a, ra, b, rb, &x);
            int vy = ref_los_r(t, a, ra, b, rb, &y);
            assert_los_equal(&x, vx, &y, vy);
            blocked += y.blocker >= 0;
            foliage += y.foliage > 0.0f;
            seen += vy;
            /* every feature; the grid's mask; the near features and some others */
            int vz = opfor_terrain_los_in(t, ~0ULL, a, ra, b, rb, &z);
            assert_los_equal(&z, vz, &y, vy);
            if (!repeats) {
                vz = opfor_tgrid_los_r(g, t, a, ra, b, rb, &z);
                assert_los_equal(&z, vz, &y, vy);
            }
            uint64_t mask = 0;
            for (int i = 0; i < t->nfeatures; i++) {
                const opfor_terrain_feature_t *f = &t->features[i];
                if (f->sight != OPFOR_SIGHT_CLEAR &&
                    !opfor_seg_box_apart(a, b, f->lo, f->hi, 0.05f))
                    mask |= 1ULL << i;
            }
            mask |= (uint64_t)opfor_rng_below(&r, 1u << 16) << opfor_rng_below(&r, 48);
            vz = opfor_terrain_los_in(t, mask, a, ra, b, rb, &z);
            assert_los_equal(&z, vz, &y, vy);
            for (int i = 0; i < t->nfeatures; i++) {
                const opfor_terrain_feature_t *f = &t->features[i];
                int e = opfor_feature_seg_enters(f, a, b);
                assert_int_equal(e, ref_feature_seg_enters(f, a, b));
                enters += e;
                opfor_pt_t m = opfor_vlerp(a, b, 0.5f);
                int in = opfor_feature_contains(f, a);
                assert_int_equal(in, ref_feature_contains(f, a));
                assert_int_equal(opfor_feature_contains(f, m), ref_feature_contains(f, m));
                inside += in;
            }
            for (int mounted = 0; mounted < 2; mounted++) {
                int want = -1;
                for (int i = 0; i < t->nfeatures && want < 0; i++) {
                    const opfor_terrain_feature_t *f = &t->features[i];
                    if ((f->move == OPFOR_MOVE_IMPASSABLE ||
                         (mounted && (f->flags & OPFOR_TF_NO_MOUNTED))) &&
                        ref_feature_contains(f, b))
                        want = i;
                }
                assert_int_equal(opfor_terrain_impassable_at(t, b, mounted), want);
            }
            int hide = -1;
            for (int i = 0; i < t->nfeatures && hide < 0; i++)
                if ((t->features[i].flags & OPFOR_TF_HIDES) &&
                    ref_feature_contains(&t->features[i], b))
                    hide = i;
            assert_int_equal(opfor_terrain_hiding_at(t, b), hide);
        }
    }
    assert_true(blocked > 3000 && foliage > 1000 && seen > 3000 && enters > 10000 && inside > 1000);
    free(t);
    free(g);
}

/* Movement along a path, over the whole table and over a culled list. */
static void terrain_ref_paths(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 2027, 6);
    opfor_table_t *t = malloc(sizeof *t);
    assert_non_null(t);
    long rough = 0, road = 0, obstacles = 0, closed = 0;
    for (int tab = 0; tab < 120; tab++) {
        float off = tab % 10 == 9 ? 20000.0f : tab % 10 == 8 ? 3000.0f : 0.0f;
        random_table(&r, t, 4 + (int)opfor_rng_below(&r, 30), off);
        for (int k = 0; k < 300; k++) {
            opfor_pt_t a, b;
            random_seg(&r, t, off, &a, &b);
            opfor_path_t x, y;
            memset(&x, 0x55, sizeof x);
            memset(&y, 0x55, sizeof y);
            int ex = opfor_terrain_path(t, a, b, &x);
            int ey = ref_path_impl(t, NULL, t->nfeatures, a, b, &y);
            assert_int_equal(ex, ey);
            assert_path_equal(&x, &y);
            rough += y.rough > 0.0f;
            road += y.road > 0.0f;
            obstacles += y.obstacles > 0;
            closed += y.impassable || y.no_mounted;
            /* a culled list, as a mover builds it */
            float pad = rnd(&r, 0, 3);
            uint8_t idx[OPFOR_MAX_FEATURES];
            int n = 0;
            for (int i = 0; i < t->nfeatures; i++) {
                const opfor_terrain_feature_t *f = &t->features[i];
                if (f->hi.x < fminf(a.x, b.x) - pad || f->lo.x > fmaxf(a.x, b.x) + pad ||
                    f->hi.y < fminf(a.y, b.y) - pad || f->lo.y > fmaxf(a.y, b.y) + pad)
                    continue;
                idx[n++] = (uint8_t)i;
            }
            memset(&x, 0x55, sizeof x);
            memset(&y, 0x55, sizeof y);
            ex = opfor_terrain_path_in(t, idx, n, a, b, &x);
            ey = ref_path_impl(t, idx, n, a, b, &y);
            assert_int_equal(ex, ey);
            assert_path_equal(&x, &y);
        }
    }
    assert_true(rough > 1000 && road > 1000 && obstacles > 1000 && closed > 1000);
    free(t);
}

/* The half-inch gap rule, with bases on, beside, tangent to and around the line. */
static void terrain_ref_fire_lane(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 2027, 7);
    long blocked = 0, clear = 0;
    for (int k = 0; k < 20000; k++) {
        int snap = (int)opfor_rng_below(&r, 2);
        opfor_pt_t a = opfor_pt(coord(&r, 0, 30, snap), coord(&r, 0, 30, snap));
        opfor_pt_t b = opfor_pt(coord(&r, 0, 30, snap), coord(&r, 0, 30, snap));
        if (k % 50 == 0)
            b = a;
        else if (k % 4 == 0) /* along an axis: bases on the grid touch the line exactly */
            b = k % 8 ? opfor_pt(a.x, b.y) : opfor_pt(b.x, a.y);
        opfor_circle_t c[12];
        int n = (int)opfor_rng_below(&r, 12);
        for (int i = 0; i < n; i++) {
            float s = rnd(&r, -0.2f, 1.2f);
            opfor_pt_t on = opfor_vlerp(a, b, s);
            c[i].r = opfor_rng_below(&r, 10) == 0 ? 0.0f : coord(&r, 0.25f, 1.0f, snap);
            c[i].c =
                opfor_pt(on.x + coord(&r, -2.5f, 2.5f, snap), on.y + coord(&r, -2.5f, 2.5f, snap));
        }
        int x = opfor_fire_lane_blocked(a, b, c, n, TEST_FIRE_GAP);
        assert_int_equal(x, ref_fire_lane_blocked(a, b, c, n, TEST_FIRE_GAP));
        blocked += x == 1;
        clear += x == 0;
    }
    assert_true(blocked > 2000 && clear > 2000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(terrain_ref_sight_and_features),
        cmocka_unit_test(terrain_ref_paths),
        cmocka_unit_test(terrain_ref_fire_lane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
