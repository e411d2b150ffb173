/* core/terrain.c — terrain features and the queries the rules ask of them: line of sight,
 * cover, movement along a path, impassable ground, hiding places, the gap rule for fire.
 *
 * Every query walks the (at most 64) features with a bounding-box reject first and works
 * on stack buffers of fixed size, so a rules engine can call them millions of times
 * without allocating. Line features are capsules (polyline widened by width / 2).
 *
 * The rules engine calls these in its hottest loops, so they are tuned without changing a
 * bit of any answer (tests/core/test_terrain_ref.c keeps the plain code to compare with): the
 * segment's terms of the rejects are computed once per query, not once per feature; the
 * polygon tests of area features are geom.h's inline ones; a
 * building on a path has its outline crossed once for both "does the path enter it" and
 * "how many crossings"; a segment meeting an area is tested against the outline before its
 * ends (the usual answer comes first); and a point is tested against a line piece by piece,
 * far pieces skipped.
 */
#include "opfor/terrain.h"

#include <math.h>
#include <string.h>

#include "opfor/error.h"
#include "terrain_int.h"

const opfor_name_t opfor_sight_names[] = {
    {"clear", OPFOR_SIGHT_CLEAR},
    {"foliage", OPFOR_SIGHT_FOLIAGE},
    {"blocks", OPFOR_SIGHT_BLOCKS},
    {"open", OPFOR_SIGHT_CLEAR},
    {"block", OPFOR_SIGHT_BLOCKS},
    {"blocking", OPFOR_SIGHT_BLOCKS},
    {NULL, 0},
};

const opfor_name_t opfor_move_class_names[] = {
    {"open", OPFOR_MOVE_OPEN},
    {"rough", OPFOR_MOVE_ROUGH},
    {"obstacle", OPFOR_MOVE_OBSTACLE},
    {"impassable", OPFOR_MOVE_IMPASSABLE},
    {"road", OPFOR_MOVE_ROAD},
    {"clear", OPFOR_MOVE_OPEN},
    {"linear_obstacle", OPFOR_MOVE_OBSTACLE},
    {NULL, 0},
};

#define TOL OPFOR__TERRAIN_TOL /* the slack on rule distances (terrain_int.h) */
/* Clearance for the cheap segment-versus-box reject (opfor_seg_box_apart): far above float
 * rounding, so a feature it skips is one the exact tests would not have met either. */
#define APART 0.01f
/* Room for the breakpoints of one path query. */
#define PATH_MAX_BREAKS 1024

void opfor_table_init(opfor_table_t *t, float width, float depth, opfor_table_north_t north) {
    memset(t, 0, sizeof *t);
    t->width = width;
    t->depth = depth;
    t->north = (uint8_t)((unsigned)north < OPFOR_EDGE_COUNT ? north : OPFOR_EDGE_TOP);
}

int opfor_terrain_feature_init(opfor_terrain_feature_t *f, const opfor_terrain_rules_t *rules,
                               opfor_terrain_kind_t kind, opfor_shape_t shape, const char *name,
                               const opfor_pt_t *pts, int n, float width) {
    if (!f || !pts || (unsigned)kind >= OPFOR_TK_COUNT || (unsigned)shape >= OPFOR_SHAPE_COUNT)
        return OPFOR_EINVAL;
    if (n > OPFOR_POLY_MAX_PTS || n < (shape == OPFOR_SHAPE_AREA ? 3 : 2))
        return OPFOR_EINVAL;
    if (shape == OPFOR_SHAPE_AREA)
        width = 0.0f;
    if (!isfinite(width) || width < 0.0f)
        return OPFOR_EINVAL;
    for (int i = 0; i < n; i++)
        if (!isfinite(pts[i].x) || !isfinite(pts[i].y))
            return OPFOR_EINVAL;
    memset(f, 0, sizeof *f);
    static const opfor_terrain_props_t none; /* no rules: no cover, clear, open, no flags */
    const opfor_terrain_props_t *d = rules ? &rules->kinds[kind] : &none;
    f->kind = (uint8_t)kind;
    f->shape = (uint8_t)shape;
    f->npts = (uint8_t)n;
    f->cover = d->cover;
    f->sight = d->sight;
    f->move = d->move;
    f->flags = d->flags;
    f->width = width;
    if (name) {
        size_t len = strlen(name);
        if (len >= sizeof f->name)
            len = sizeof f->name - 1;
        memcpy(f->name, name, len);
    }
    memcpy(f->pts, pts, (size_t)n * sizeof *pts);
    opfor_poly_bbox(pts, n, &f->lo, &f->hi);
    float h = 0.5f * width;
    f->lo.x -= h;
    f->lo.y -= h;
    f->hi.x += h;
    f->hi.y += h;
    return 0;
}

int opfor_table_add(opfor_table_t *t, const opfor_terrain_feature_t *f) {
    if (t->nfeatures >= OPFOR_MAX_FEATURES)
        return OPFOR_EFULL;
    t->features[t->nfeatures] = *f;
    return t->nfeatures++;
}

/* Segment a-b prepared for the loops over features: its box and the terms of the corner test of
 * opfor_seg_box_apart, computed once per query instead of once per feature. */
typedef struct seg_box {
    opfor_pt_t a;
    float lx, hx, ly, hy; /* the segment's box: bbox_hit's minf / maxf of the ends */
    float rx, ry, lim;    /* b - a, and opfor_seg_box_apart's clearance for m = APART */
} seg_box_t;

static inline void seg_box_init(seg_box_t *s, opfor_pt_t a, opfor_pt_t b) {
    s->a = a;
    s->lx = minf(a.x, b.x);
    s->hx = maxf(a.x, b.x);
    s->ly = minf(a.y, b.y);
    s->hy = maxf(a.y, b.y);
    s->rx = b.x - a.x;
    s->ry = b.y - a.y;
    /* (fabsf for opfor_seg_box_apart's x < 0 ? -x : x: they differ only in the sign of a zero,
       which no comparison below can tell) */
    s->lim = APART * (fabsf(s->rx) + fabsf(s->ry));
}

/* !bbox_hit(f, a, b, 0) || opfor_seg_box_apart(a, b, f->lo, f->hi, APART), term for term (the
 * box half of opfor_seg_box_apart cannot fire once the boxes meet, so only its corner test is
 * left): whether feature f's box certainly keeps clear of the segment. */
static inline int seg_box_misses_box(const seg_box_t *s, opfor_pt_t lo, opfor_pt_t hi) {
    if (!(s->lx <= hi.x && s->hx >= lo.x && s->ly <= hi.y && s->hy >= lo.y))
        return 1;
    float rx = s->rx, ry = s->ry, lim = s->lim;
    float x0 = lo.x - s->a.x, x1 = hi.x - s->a.x, y0 = lo.y - s->a.y, y1 = hi.y - s->a.y;
    float c0 = rx * y0 - ry * x0, c1 = rx * y0 - ry * x1, c2 = rx * y1 - ry * x0,
          c3 = rx * y1 - ry * x1;
    return (c0 > lim && c1 > lim && c2 > lim && c3 > lim) ||
           (c0 < -lim && c1 < -lim && c2 < -lim && c3 < -lim);
}
static inline int seg_box_misses(const seg_box_t *s, const opfor_terrain_feature_t *f) {
    return seg_box_misses_box(s, f->lo, f->hi);
}
/* opfor_seg_box_apart(a, b, lo, hi, APART), term for term, with the segment's terms hoisted. */
static inline int seg_box_apart(const seg_box_t *s, opfor_pt_t lo, opfor_pt_t hi) {
    if (s->lx > hi.x + APART || s->hx < lo.x - APART || s->ly > hi.y + APART ||
        s->hy < lo.y - APART)
        return 1;
    return seg_box_misses_box(s, lo, hi);
}

static int seg_enters(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b);

/* opfor_poly_contains for an area feature, with its box first: a point clearly outside the
 * box is outside the polygon (no edge straddles it, or an even number do). */
static inline int area_contains(const opfor_terrain_feature_t *f, opfor_pt_t p) {
    if (p.x < f->lo.x - APART || p.x > f->hi.x + APART || p.y < f->lo.y - APART ||
        p.y > f->hi.y + APART)
        return 0;
    return opfor_poly_contains(f->pts, f->npts, p);
}

/* Whether p lies within width / 2 of line feature f: opfor_polyline_dist_pt(...) <= width / 2,
 * asked piece by piece. The minimum is within the limit exactly when one piece's distance is,
 * and a piece whose box, widened by width / 2 + APART, leaves p out is farther than that. On a
 * table of sane size (the box within +-LINE_NEAR inches, so that rounding stays far below
 * APART and no distance overflows) those pieces are skipped and the first near one decides;
 * elsewhere the plain minimum is taken. */
#define LINE_NEAR 1e4f
static int line_contains(const opfor_terrain_feature_t *f, opfor_pt_t p) {
    float h = 0.5f * f->width;
    int n = f->npts > OPFOR_POLY_MAX_PTS ? OPFOR_POLY_MAX_PTS : f->npts;
    if (n < 2 || !(f->lo.x >= -LINE_NEAR && f->lo.y >= -LINE_NEAR && f->hi.x <= LINE_NEAR &&
                   f->hi.y <= LINE_NEAR))
        return opfor_polyline_dist_pt(f->pts, f->npts, p) <= h;
    float reach = h + APART;
    for (int i = 1; i < n; i++) {
        opfor_pt_t u = f->pts[i - 1], v = f->pts[i];
        if (p.x < minf(u.x, v.x) - reach || p.x > maxf(u.x, v.x) + reach ||
            p.y < minf(u.y, v.y) - reach || p.y > maxf(u.y, v.y) + reach)
            continue;
        if (opfor_seg_dist_pt(u, v, p) <= h)
            return 1;
    }
    return 0;
}

/* opfor_feature_contains once p is known to lie in f's box. */
static int feature_contains_boxed(const opfor_terrain_feature_t *f, opfor_pt_t p) {
    if (f->shape == OPFOR_SHAPE_AREA)
        return opfor_poly_contains(f->pts, f->npts, p);
    return line_contains(f, p);
}

/* opfor_feature_contains with its box test inline, for the loops over features. */
static inline int feature_contains(const opfor_terrain_feature_t *f, opfor_pt_t p) {
    if (p.x < f->lo.x || p.x > f->hi.x || p.y < f->lo.y || p.y > f->hi.y)
        return 0;
    return feature_contains_boxed(f, p);
}

int opfor_feature_contains(const opfor_terrain_feature_t *f, opfor_pt_t p) {
    return feature_contains(f, p);
}

int opfor_feature_circle_overlap(const opfor_terrain_feature_t *f, opfor_pt_t c, float r) {
    if (!bbox_hit(f, c, c, r))
        return 0;
    if (f->shape == OPFOR_SHAPE_AREA)
        return opfor_poly_circle_overlap(f->pts, f->npts, c, r);
    return opfor_polyline_dist_pt(f->pts, f->npts, c) <= r + 0.5f * f->width;
}

/* The parameter interval of segment a-b inside the capsule around p-q of half-width h.
 * The capsule is convex, so the part inside is one interval: the union of the parts in
 * the two end discs and in the rectangle. Returns 1 when it is not empty. */
static int capsule_interval(opfor_pt_t a, opfor_pt_t b, opfor_pt_t p, opfor_pt_t q, float h,
                            float *t0, float *t1) {
    float lo = 2.0f, hi = -1.0f, c0, c1;
    if (opfor_seg_circle(a, b, p, h, &c0, &c1)) {
        lo = minf(lo, c0);
        hi = maxf(hi, c1);
    }
    if (opfor_seg_circle(a, b, q, h, &c0, &c1)) {
        lo = minf(lo, c0);
        hi = maxf(hi, c1);
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
            r0 = maxf(r0, u0);
            r1 = minf(r1, u1);
            ok = r0 <= r1;
        }
        if (ok) {
            lo = minf(lo, r0);
            hi = maxf(hi, r1);
        }
    }
    if (!(lo <= hi))
        return 0;
    *t0 = lo;
    *t1 = hi;
    return 1;
}

/* Intervals (pairs in iv) of segment a-b inside line feature f; returns how many. */
static int line_intervals(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b,
                          float iv[][2]) {
    int k = 0;
    float h = 0.5f * f->width;
    if (!(h > 0.0f))
        return 0;
    seg_box_t sb;
    seg_box_init(&sb, a, b);
    for (int i = 1; i < f->npts; i++) {
        opfor_pt_t p = f->pts[i - 1], q = f->pts[i];
        opfor_pt_t lo = opfor_pt(minf(p.x, q.x) - h, minf(p.y, q.y) - h);
        opfor_pt_t hi = opfor_pt(maxf(p.x, q.x) + h, maxf(p.y, q.y) + h);
        if (seg_box_apart(&sb, lo, hi))
            continue; /* far from this piece's capsule: no interval */
        if (capsule_interval(a, b, p, q, h, &iv[k][0], &iv[k][1]))
            k++;
    }
    return k;
}

/* Total length of the union of n intervals (sorted here) times len. */
static float union_length(float iv[][2], int n, float len) {
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
static float length_inside(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b) {
    if (f->shape == OPFOR_SHAPE_AREA)
        return opfor_poly_seg_length_inside(f->pts, f->npts, a, b);
    float iv[OPFOR_POLY_MAX_PTS][2];
    int n = line_intervals(f, a, b, iv);
    return union_length(iv, n, opfor_dist(a, b));
}

float opfor_feature_length_inside(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b) {
    if (opfor_seg_box_apart(a, b, f->lo, f->hi, APART))
        return 0.0f;
    return length_inside(f, a, b);
}

int opfor_feature_seg_enters(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b) {
    if (opfor_seg_box_apart(a, b, f->lo, f->hi, APART))
        return 0;
    return seg_enters(f, a, b);
}

/* Whether segment a-b enters feature f at all. */
static int seg_enters(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b) {
    /* opfor_poly_seg_intersects, boxes first; the outline first, as a move line that meets a
       building almost always crosses it (the three tests are pure, so any order gives the same
       answer) */
    if (f->shape == OPFOR_SHAPE_AREA)
        return f->npts >= 3 && (opfor_poly_seg_crosses(f->pts, f->npts, a, b) ||
                                area_contains(f, a) || area_contains(f, b));
    return opfor_polyline_seg_dist(f->pts, f->npts, a, b) <= 0.5f * f->width;
}

/* Whether the sight line a-b is blocked by area feature f, which blocks sight: entering the
 * area blocks unless either end stands inside it (the same as opfor_poly_seg_intersects with
 * both ends outside). */
static inline int area_blocks(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b) {
    return !area_contains(f, a) && !area_contains(f, b) &&
           opfor_poly_seg_crosses(f->pts, f->npts, a, b);
}

/* Feature f's part in the sight line a-b, for the loops of opfor_terrain_los_r and
 * opfor_terrain_los_in once f affects sight and its box is near: adds the inches the line
 * runs in foliage to *foliage, and returns 1 when f blocks the line (a base within the
 * table's rules.line_cover of a line lines it). */
static int los_feature(const opfor_terrain_feature_t *f, opfor_pt_t a, float ra, opfor_pt_t b,
                       float rb, const opfor_table_t *t, float *foliage) {
    if (f->sight == OPFOR_SIGHT_FOLIAGE) {
        *foliage += length_inside(f, a, b);
        return 0;
    }
    if (f->shape == OPFOR_SHAPE_AREA)
        return area_blocks(f, a, b);
    if (opfor_polyline_seg_crossings(f->pts, f->npts, a, b) <= 0)
        return 0;
    float h = 0.5f * f->width, lim = t->rules.line_cover + TOL;
    return opfor_polyline_dist_pt(f->pts, f->npts, a) - ra - h > lim &&
           opfor_polyline_dist_pt(f->pts, f->npts, b) - rb - h > lim;
}

static int los_result(const opfor_table_t *t, int blocker, float foliage, opfor_los_t *out) {
    int visible = blocker < 0 && foliage <= t->rules.foliage_sight + TOL;
    if (out) {
        out->visible = visible;
        out->blocker = blocker;
        out->foliage = foliage;
    }
    return visible;
}

int opfor_terrain_los_r(const opfor_table_t *t, opfor_pt_t a, float ra, opfor_pt_t b, float rb,
                        opfor_los_t *out) {
    float foliage = 0.0f;
    int blocker = -1;
    seg_box_t sb;
    seg_box_init(&sb, a, b);
    for (int i = 0; i < t->nfeatures && blocker < 0; i++) {
        const opfor_terrain_feature_t *f = &t->features[i];
        if (f->sight != OPFOR_SIGHT_CLEAR && !seg_box_misses(&sb, f) &&
            los_feature(f, a, ra, b, rb, t, &foliage))
            blocker = i;
    }
    return los_result(t, blocker, foliage, out);
}

int opfor_terrain_los_in(const opfor_table_t *t, uint64_t mask, opfor_pt_t a, float ra,
                         opfor_pt_t b, float rb, opfor_los_t *out) {
    float foliage = 0.0f;
    int blocker = -1;
    seg_box_t sb;
    seg_box_init(&sb, a, b);
    if (t->nfeatures < 64)
        mask &= (1ULL << t->nfeatures) - 1;
    /* the features of the mask in index order, as the full loop meets them */
    while (mask && blocker < 0) {
        int i = __builtin_ctzll(mask);
        mask &= mask - 1;
        const opfor_terrain_feature_t *f = &t->features[i];
        if (f->sight != OPFOR_SIGHT_CLEAR && !seg_box_misses(&sb, f) &&
            los_feature(f, a, ra, b, rb, t, &foliage))
            blocker = i;
    }
    return los_result(t, blocker, foliage, out);
}

int opfor_terrain_los(const opfor_table_t *t, opfor_pt_t a, opfor_pt_t b, opfor_los_t *out) {
    return opfor_terrain_los_r(t, a, t->rules.radii.foot, b, t->rules.radii.foot, out);
}

opfor_cover_t opfor_terrain_cover(const opfor_table_t *t, opfor_pt_t firer, opfor_pt_t target,
                                  float r, int *feature) {
    int best = OPFOR_COVER_NONE, bf = -1;
    for (int i = 0; i < t->nfeatures; i++) {
        const opfor_terrain_feature_t *f = &t->features[i];
        if (f->cover <= best)
            continue;
        if (opfor__feature_covers(f, firer, target, r, &t->rules)) {
            best = f->cover;
            bf = i;
        }
    }
    if (feature)
        *feature = bf;
    return (opfor_cover_t)best;
}

/* Number of distinct crossing parameters in ts[0..n) (a crossing exactly at a vertex is
 * found on two edges but is one crossing). Sorts ts. */
static int count_distinct_sort(float *ts, int n);
static inline int count_distinct(float *ts, int n) {
    return n < 2 ? n : count_distinct_sort(ts, n); /* none or one: nothing to sort */
}
static int count_distinct_sort(float *ts, int n) {
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
static int crossings(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b) {
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
    return count_distinct(ts, n);
}

/* opfor_terrain_path over the features idx[0..n) (every feature when idx is NULL). */
static int path_impl(const opfor_table_t *t, const uint8_t *idx, int n_idx, opfor_pt_t a,
                     opfor_pt_t b, opfor_path_t *out);

int opfor_terrain_path(const opfor_table_t *t, opfor_pt_t a, opfor_pt_t b, opfor_path_t *out) {
    return path_impl(t, NULL, t->nfeatures, a, b, out);
}

int opfor_terrain_path_in(const opfor_table_t *t, const uint8_t *idx, int n, opfor_pt_t a,
                          opfor_pt_t b, opfor_path_t *out) {
    return path_impl(t, idx, n, a, b, out);
}

static int path_impl(const opfor_table_t *t, const uint8_t *idx, int n_idx, opfor_pt_t a,
                     opfor_pt_t b, opfor_path_t *out) {
    float br[PATH_MAX_BREAKS];
    uint8_t cls[OPFOR_MAX_FEATURES]; /* indices of rough and road features met */
    int nb = 0, ncls = 0, err = 0;
    opfor_path_t p = {0};
    p.blocker = -1;
    p.length = opfor_dist(a, b);
    br[nb++] = 0.0f;
    br[nb++] = 1.0f;
    seg_box_t sb;
    seg_box_init(&sb, a, b);
    for (int ii = 0; ii < n_idx; ii++) {
        int i = idx ? idx[ii] : ii;
        const opfor_terrain_feature_t *f = &t->features[i];
        if (f->move == OPFOR_MOVE_OPEN && !(f->flags & OPFOR_TF_NO_MOUNTED))
            continue; /* adds nothing to a path */
        if (seg_box_misses(&sb, f))
            continue;
        int closed = f->move == OPFOR_MOVE_IMPASSABLE, closed_m = (f->flags & OPFOR_TF_NO_MOUNTED);
        if (f->move == OPFOR_MOVE_OBSTACLE && f->shape == OPFOR_SHAPE_AREA) {
            /* A building: one pass over its outline answers both questions. The crossing
               parameters count the obstacle crossings, and any crossing is seg_enters' edge
               half, so the ends are tested only when there is none. */
            float ts[OPFOR_POLY_MAX_PTS];
            int n = opfor_poly_seg_params(f->pts, f->npts, a, b, ts, OPFOR_POLY_MAX_PTS);
            if ((closed || closed_m) && (n > 0 || area_contains(f, a) || area_contains(f, b))) {
                if (closed)
                    p.impassable = 1;
                p.no_mounted = 1;
                if (p.blocker < 0)
                    p.blocker = i;
            }
            p.obstacles += count_distinct(ts, n);
            continue;
        }
        if ((closed || closed_m) && seg_enters(f, a, b)) {
            if (closed)
                p.impassable = 1;
            p.no_mounted = 1;
            if (p.blocker < 0)
                p.blocker = i;
        }
        if (f->move == OPFOR_MOVE_OBSTACLE) {
            p.obstacles += crossings(f, a, b);
        } else if (f->move == OPFOR_MOVE_ROUGH || f->move == OPFOR_MOVE_ROAD) {
            int used;
            if (f->shape == OPFOR_SHAPE_AREA) {
                if (nb + OPFOR_POLY_MAX_PTS > PATH_MAX_BREAKS) {
                    err = OPFOR_EFULL;
                    continue;
                }
                int n = opfor_poly_seg_params(f->pts, f->npts, a, b, br + nb, OPFOR_POLY_MAX_PTS);
                nb += n;
                /* A path wholly inside the area crosses no edge but is still in it. */
                used = n > 0 || area_contains(f, a);
            } else {
                float iv[OPFOR_POLY_MAX_PTS][2];
                int n = line_intervals(f, a, b, iv);
                if (nb + 2 * n > PATH_MAX_BREAKS) {
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
            float t0 = maxf(br[i], 0.0f), t1 = minf(br[i + 1], 1.0f);
            if (!(t1 > t0))
                continue;
            opfor_pt_t m = opfor_vlerp(a, b, 0.5f * (t0 + t1));
            int rough = 0, road = 0;
            for (int k = 0; k < ncls && !road; k++) {
                const opfor_terrain_feature_t *f = &t->features[cls[k]];
                if (feature_contains(f, m)) {
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

int opfor_terrain_impassable_at(const opfor_table_t *t, opfor_pt_t c, int mounted) {
    for (int i = 0; i < t->nfeatures; i++) {
        const opfor_terrain_feature_t *f = &t->features[i];
        int closed =
            f->move == OPFOR_MOVE_IMPASSABLE || (mounted && (f->flags & OPFOR_TF_NO_MOUNTED));
        if (closed && feature_contains(f, c))
            return i;
    }
    return -1;
}

int opfor_terrain_hiding_at(const opfor_table_t *t, opfor_pt_t p) {
    for (int i = 0; i < t->nfeatures; i++) {
        const opfor_terrain_feature_t *f = &t->features[i];
        if ((f->flags & OPFOR_TF_HIDES) && feature_contains(f, p))
            return i;
    }
    return -1;
}

int opfor_fire_lane_blocked(opfor_pt_t a, opfor_pt_t b, const opfor_circle_t *circles, int n,
                            float gap) {
    if (n > OPFOR_GAP_MAX_CIRCLES)
        return OPFOR_ERANGE;
    uint16_t near[OPFOR_GAP_MAX_CIRCLES];
    int nn = 0;
    /* opfor_seg_dist_pt(a, b, c) below, with the segment's terms computed once */
    opfor_vec_t ab = opfor_vsub(b, a);
    float l2 = opfor_vlen2(ab);
    for (int i = 0; i < n; i++) {
        opfor_pt_t c = circles[i].c;
        float r = circles[i].r;
        if (!(r > 0.0f))
            continue;
        if (opfor_dist2(a, c) <= r * r || opfor_dist2(b, c) <= r * r)
            continue; /* the firer's or the target's own base */
        float t = 0.0f;
        if (l2 > 0.0f) {
            t = opfor_vdot(opfor_vsub(c, a), ab) / l2;
            t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
        }
        float d = opfor_dist(opfor_vlerp(a, b, t), c);
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
