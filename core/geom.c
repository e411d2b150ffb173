/* core/geom.c — table geometry: segments, bases, polygons, arcs, compass.
 *
 * Every function uses IEEE-754 + - * / and sqrtf only (exactly rounded, so the same bits on
 * every machine), works on caller storage and never allocates. Degenerate input (zero-length
 * segments, too few polygon points, zero facings) gives a defined answer instead of NaN.
 */
#include "opfor/geom.h"

#include <math.h>

const opfor_name_t opfor_edge_names[] = {
    {"top", OPFOR_EDGE_TOP},
    {"right", OPFOR_EDGE_RIGHT},
    {"bottom", OPFOR_EDGE_BOTTOM},
    {"left", OPFOR_EDGE_LEFT},
    {"far", OPFOR_EDGE_TOP},
    {"near", OPFOR_EDGE_BOTTOM},
    {NULL, 0},
};

const opfor_name_t opfor_arc_names[] = {
    {"45", OPFOR_ARC_45},
    {"90", OPFOR_ARC_90},
    {"double_45", OPFOR_ARC_DOUBLE_45},
    {"180", OPFOR_ARC_180},
    {"single_45", OPFOR_ARC_45},
    {"double45", OPFOR_ARC_DOUBLE_45},
    {NULL, 0},
};

static float minf(float a, float b) {
    return a < b ? a : b;
}
static float maxf(float a, float b) {
    return a > b ? a : b;
}
static float clamp01(float t) {
    return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
}
static int clamp_n(int n) {
    return n > OPFOR_POLY_MAX_PTS ? OPFOR_POLY_MAX_PTS : n;
}

/* (opfor_vnorm is inline in geom.h) */

opfor_vec_t opfor_vrot(opfor_vec_t v, float c, float s) {
    return opfor_pt(v.x * c - v.y * s, v.x * s + v.y * c);
}

float opfor_vangle(opfor_vec_t a, opfor_vec_t b) {
    double la = sqrt((double)a.x * a.x + (double)a.y * a.y);
    double lb = sqrt((double)b.x * b.x + (double)b.y * b.y);
    if (la <= 0.0 || lb <= 0.0)
        return 0.0f;
    double c = ((double)a.x * b.x + (double)a.y * b.y) / (la * lb);
    double s = ((double)a.x * b.y - (double)a.y * b.x) / (la * lb);
    if (s < 0.0)
        s = -s;
    /* Past a right angle, measure from the opposite direction: the halving below stays
       well-conditioned only while the cosine is not near -1. */
    double base = 0.0;
    if (c < 0.0) {
        base = 3.14159265358979323846;
        c = -c;
        /* the angle is now pi - x with x the angle whose cosine is -c_old = c */
    }
    /* Half-angle steps: cos(x/2) = sqrt((1 + cos x) / 2), sin(x/2) = sin x / (2 cos(x/2)). */
    int k = 0;
    for (; k < 8; k++) {
        double ch = sqrt((1.0 + c) * 0.5);
        s = s / (2.0 * ch);
        c = ch;
    }
    /* Small angle y: asin(s) = s + s^3/6 + 3 s^5/40 (|s| < 0.007: error below 1e-14). */
    double y = s + s * s * s / 6.0 + 3.0 * s * s * s * s * s / 40.0;
    double x = y * 256.0;
    return (float)(base > 0.0 ? base - x : x);
}

/* ---- segments ---- */

/* (opfor_seg_closest_t, opfor_seg_closest, opfor_seg_dist_pt are inline in geom.h) */

/* Collinear (or degenerate) segments: the first point of a-b that also lies on c-d. */
static int collinear_overlap(opfor_pt_t a, opfor_pt_t b, opfor_pt_t c, opfor_pt_t d, float *t,
                             float *u) {
    opfor_vec_t r = opfor_vsub(b, a), s = opfor_vsub(d, c);
    float rr = opfor_vlen2(r), ss = opfor_vlen2(s);
    if (!(rr > 0.0f)) {
        /* a-b is a point: is it on c-d? */
        if (!(ss > 0.0f)) {
            if (a.x != c.x || a.y != c.y)
                return 0;
            if (t)
                *t = 0.0f;
            if (u)
                *u = 0.0f;
            return 1;
        }
        if (opfor_vcross(opfor_vsub(a, c), s) != 0.0f)
            return 0;
        float uu = opfor_vdot(opfor_vsub(a, c), s) / ss;
        if (uu < 0.0f || uu > 1.0f)
            return 0;
        if (t)
            *t = 0.0f;
        if (u)
            *u = uu;
        return 1;
    }
    /* Project c and d onto a-b. */
    float tc = opfor_vdot(opfor_vsub(c, a), r) / rr;
    float td = opfor_vdot(opfor_vsub(d, a), r) / rr;
    float lo = minf(tc, td), hi = maxf(tc, td);
    if (hi < 0.0f || lo > 1.0f)
        return 0;
    float tt = maxf(lo, 0.0f);
    if (t)
        *t = tt;
    if (u) {
        opfor_pt_t q = opfor_vlerp(a, b, tt);
        *u = ss > 0.0f ? clamp01(opfor_vdot(opfor_vsub(q, c), s) / ss) : 0.0f;
    }
    return 1;
}

/* The general case of opfor_seg_intersect is inline in geom.h. */
int opfor__seg_intersect_parallel(opfor_pt_t a, opfor_pt_t b, opfor_pt_t c, opfor_pt_t d, float *t,
                                  float *u) {
    opfor_vec_t r = opfor_vsub(b, a), s = opfor_vsub(d, c), qp = opfor_vsub(c, a);
    /* Parallel: they meet only when collinear. */
    if (opfor_vcross(qp, r) != 0.0f || opfor_vcross(qp, s) != 0.0f) {
        /* Not on one line, unless one of them is a single point. */
        if (opfor_vlen2(r) > 0.0f && opfor_vlen2(s) > 0.0f)
            return 0;
    }
    return collinear_overlap(a, b, c, d, t, u);
}

float opfor_seg_seg_dist(opfor_pt_t a, opfor_pt_t b, opfor_pt_t c, opfor_pt_t d) {
    if (opfor_seg_intersect(a, b, c, d, NULL, NULL))
        return 0.0f;
    float m = opfor_seg_dist_pt(c, d, a);
    m = minf(m, opfor_seg_dist_pt(c, d, b));
    m = minf(m, opfor_seg_dist_pt(a, b, c));
    m = minf(m, opfor_seg_dist_pt(a, b, d));
    return m;
}

int opfor_seg_circle(opfor_pt_t a, opfor_pt_t b, opfor_pt_t c, float r, float *t0, float *t1) {
    if (!(r >= 0.0f))
        return 0;
    opfor_vec_t ab = opfor_vsub(b, a);
    float l2 = opfor_vlen2(ab);
    float r2 = r * r;
    if (!(l2 > 0.0f)) {
        if (opfor_dist2(a, c) > r2)
            return 0;
        if (t0)
            *t0 = 0.0f;
        if (t1)
            *t1 = 1.0f;
        return 1;
    }
    /* Closest point of the infinite line to c, then half the chord length. */
    float tc = opfor_vdot(opfor_vsub(c, a), ab) / l2;
    float d2 = opfor_dist2(opfor_vlerp(a, b, tc), c);
    if (d2 > r2)
        return 0;
    float half = sqrtf((r2 - d2) / l2);
    float lo = tc - half, hi = tc + half;
    if (hi < 0.0f || lo > 1.0f)
        return 0;
    if (t0)
        *t0 = clamp01(lo);
    if (t1)
        *t1 = clamp01(hi);
    return 1;
}

/* ---- bases ---- */

/* (opfor_base_dist and opfor_bases_overlap are inline in geom.h) */

/* ---- polygons ---- */

/* (opfor_poly_contains, opfor_poly_seg_crosses and opfor_poly_seg_params are inline in geom.h:
   core/terrain.c runs them in its loops over features) */

float opfor_poly_area2(const opfor_pt_t *pts, int n) {
    n = clamp_n(n);
    float a = 0.0f;
    for (int i = 0, j = n - 1; i < n; j = i++)
        a += opfor_vcross(pts[j], pts[i]);
    return n >= 3 ? a : 0.0f;
}

void opfor_poly_bbox(const opfor_pt_t *pts, int n, opfor_pt_t *lo, opfor_pt_t *hi) {
    n = clamp_n(n);
    opfor_pt_t l = n > 0 ? pts[0] : opfor_pt(0.0f, 0.0f), h = l;
    for (int i = 1; i < n; i++) {
        l.x = minf(l.x, pts[i].x);
        l.y = minf(l.y, pts[i].y);
        h.x = maxf(h.x, pts[i].x);
        h.y = maxf(h.y, pts[i].y);
    }
    if (lo)
        *lo = l;
    if (hi)
        *hi = h;
}

/* Distance from p to the edges of pts[0..n): the closing edge (last point to first) first when
 * closed, then each point to the next; to the one point when n == 1. */
static inline float edges_dist_pt(const opfor_pt_t *pts, int n, opfor_pt_t p, int closed) {
    n = clamp_n(n);
    if (n <= 0)
        return INFINITY;
    if (n == 1)
        return opfor_dist(pts[0], p);
    float m = INFINITY;
    for (int i = closed ? 0 : 1, j = closed ? n - 1 : 0; i < n; j = i++)
        m = minf(m, opfor_seg_dist_pt(pts[j], pts[i], p));
    return m;
}

float opfor_poly_dist_pt(const opfor_pt_t *pts, int n, opfor_pt_t p) {
    return edges_dist_pt(pts, n, p, 1);
}

int opfor_poly_seg_intersects(const opfor_pt_t *pts, int n, opfor_pt_t a, opfor_pt_t b) {
    n = clamp_n(n);
    if (n < 3)
        return 0;
    if (opfor_poly_contains(pts, n, a) || opfor_poly_contains(pts, n, b))
        return 1;
    for (int i = 0, j = n - 1; i < n; j = i++)
        if (opfor_seg_intersect(a, b, pts[j], pts[i], NULL, NULL))
            return 1;
    return 0;
}

/* Sorts a few floats in place (insertion sort: n is small). */
static void sort_floats(float *v, int n) {
    for (int i = 1; i < n; i++) {
        float x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

float opfor_poly_seg_length_inside(const opfor_pt_t *pts, int n, opfor_pt_t a, opfor_pt_t b) {
    n = clamp_n(n);
    if (n < 3)
        return 0.0f;
    float ts[OPFOR_POLY_MAX_PTS + 2];
    ts[0] = 0.0f;
    int k = 1 + opfor_poly_seg_params(pts, n, a, b, ts + 1, OPFOR_POLY_MAX_PTS);
    ts[k++] = 1.0f;
    sort_floats(ts, k);
    float len = opfor_dist(a, b), inside = 0.0f;
    for (int i = 0; i + 1 < k; i++) {
        float t0 = ts[i], t1 = ts[i + 1];
        if (!(t1 > t0))
            continue;
        if (opfor_poly_contains(pts, n, opfor_vlerp(a, b, 0.5f * (t0 + t1))))
            inside += (t1 - t0) * len;
    }
    return inside;
}

int opfor_poly_circle_overlap(const opfor_pt_t *pts, int n, opfor_pt_t c, float r) {
    n = clamp_n(n);
    if (n < 3)
        return 0;
    if (opfor_poly_contains(pts, n, c))
        return 1;
    return opfor_poly_dist_pt(pts, n, c) <= r;
}

/* ---- polylines ---- */

float opfor_polyline_dist_pt(const opfor_pt_t *pts, int n, opfor_pt_t p) {
    return edges_dist_pt(pts, n, p, 0);
}

float opfor_polyline_seg_dist(const opfor_pt_t *pts, int n, opfor_pt_t a, opfor_pt_t b) {
    n = clamp_n(n);
    if (n <= 0)
        return INFINITY;
    if (n == 1)
        return opfor_seg_dist_pt(a, b, pts[0]);
    float m = INFINITY;
    for (int i = 1; i < n; i++)
        m = minf(m, opfor_seg_seg_dist(a, b, pts[i - 1], pts[i]));
    return m;
}

int opfor_polyline_seg_crossings(const opfor_pt_t *pts, int n, opfor_pt_t a, opfor_pt_t b) {
    n = clamp_n(n);
    int k = 0;
    for (int i = 1; i < n; i++)
        if (opfor_seg_intersect(a, b, pts[i - 1], pts[i], NULL, NULL))
            k++;
    return k;
}

/* ---- arcs ---- */

static int arc_count(opfor_arc_t arc) {
    return arc == OPFOR_ARC_DOUBLE_45 ? 2 : 1;
}

int opfor_arc_contains(opfor_arc_t arc, opfor_pt_t origin, opfor_vec_t facing, opfor_pt_t p) {
    float f2 = opfor_vlen2(facing);
    if (!(f2 > 0.0f) || (unsigned)arc >= OPFOR_ARC_COUNT)
        return 0;
    opfor_vec_t d = opfor_vsub(p, origin);
    float d2 = opfor_vlen2(d);
    if (d2 == 0.0f)
        return arc_count(arc);
    float dt = opfor_vdot(facing, d);
    if (dt < 0.0f)
        return 0;
    float c2;
    switch (arc) {
    case OPFOR_ARC_45:
    case OPFOR_ARC_DOUBLE_45:
        c2 = OPFOR_COS2_22_5;
        break;
    case OPFOR_ARC_90:
        c2 = OPFOR_COS2_45;
        break;
    default:
        c2 = 0.0f;
        break;
    }
    /* cos(angle) >= cos(half) without square roots: dt² >= c² |f|² |d|². */
    return dt * dt >= c2 * f2 * d2 ? arc_count(arc) : 0;
}

/* Distance from p to the ray from o along dir. */
static float ray_dist(opfor_pt_t o, opfor_vec_t dir, opfor_pt_t p) {
    float l2 = opfor_vlen2(dir);
    opfor_vec_t op = opfor_vsub(p, o);
    float t = l2 > 0.0f ? opfor_vdot(op, dir) / l2 : 0.0f;
    if (t <= 0.0f)
        return opfor_vlen(op);
    return opfor_dist(opfor_vadd(o, opfor_vscale(dir, t)), p);
}

int opfor_arc_touches_circle(opfor_arc_t arc, opfor_pt_t origin, opfor_vec_t facing, opfor_pt_t c,
                             float r) {
    int k = opfor_arc_contains(arc, origin, facing, c);
    if (k || !(r > 0.0f) || !(opfor_vlen2(facing) > 0.0f) || (unsigned)arc >= OPFOR_ARC_COUNT)
        return k;
    if (opfor_dist2(origin, c) <= r * r)
        return arc_count(arc);
    float cs, sn;
    opfor_arc_half(arc, &cs, &sn);
    opfor_vec_t left = opfor_vrot(facing, cs, sn), right = opfor_vrot(facing, cs, -sn);
    if (ray_dist(origin, left, c) <= r || ray_dist(origin, right, c) <= r)
        return arc_count(arc);
    return 0;
}

/* ---- compass ---- */

/* North and east as table vectors for each choice of north edge. */
static const opfor_vec_t north_of[OPFOR_EDGE_COUNT] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
static const opfor_vec_t east_of[OPFOR_EDGE_COUNT] = {{1, 0}, {0, -1}, {-1, 0}, {0, 1}};
/* Each compass point as (east, north) components. */
static const float compass_en[OPFOR_COMPASS_COUNT][2] = {
    {0.0f, 1.0f},  {OPFOR_SQRT1_2, OPFOR_SQRT1_2},   {1.0f, 0.0f},  {OPFOR_SQRT1_2, -OPFOR_SQRT1_2},
    {0.0f, -1.0f}, {-OPFOR_SQRT1_2, -OPFOR_SQRT1_2}, {-1.0f, 0.0f}, {-OPFOR_SQRT1_2, OPFOR_SQRT1_2},
};

opfor_vec_t opfor_compass_vec(opfor_table_north_t north, opfor_compass_t dir) {
    if ((unsigned)north >= OPFOR_EDGE_COUNT || (unsigned)dir >= OPFOR_COMPASS_COUNT)
        return opfor_pt(0.0f, 0.0f);
    opfor_vec_t n = north_of[north], e = east_of[north];
    float ce = compass_en[dir][0], cn = compass_en[dir][1];
    /* n and e are axis-aligned, so exactly one term of each sum is non-zero. */
    float x = n.x != 0.0f ? cn * n.x : ce * e.x;
    float y = n.y != 0.0f ? cn * n.y : ce * e.y;
    return opfor_pt(x + 0.0f, y + 0.0f);
}

opfor_compass_t opfor_compass_nearest(opfor_table_north_t north, opfor_vec_t v) {
    if ((unsigned)north >= OPFOR_EDGE_COUNT)
        north = OPFOR_EDGE_TOP;
    float e = opfor_vdot(v, east_of[north]), n = opfor_vdot(v, north_of[north]);
    float ae = fabsf(e), an = fabsf(n);
    if (!(ae > 0.0f) && !(an > 0.0f))
        return OPFOR_N;
    if (ae <= an * OPFOR_TAN_22_5)
        return n > 0.0f ? OPFOR_N : OPFOR_S;
    if (an <= ae * OPFOR_TAN_22_5)
        return e > 0.0f ? OPFOR_E : OPFOR_W;
    if (n > 0.0f)
        return e > 0.0f ? OPFOR_NE : OPFOR_NW;
    return e > 0.0f ? OPFOR_SE : OPFOR_SW;
}

opfor_compass_t opfor_compass_turn(opfor_compass_t dir, int steps) {
    int d = ((int)dir % 8 + steps % 8 + 16) % 8;
    return (opfor_compass_t)d;
}

opfor_vec_t opfor_edge_inward(opfor_edge_t e) {
    switch (e) {
    case OPFOR_EDGE_TOP:
        return opfor_pt(0.0f, -1.0f);
    case OPFOR_EDGE_RIGHT:
        return opfor_pt(-1.0f, 0.0f);
    case OPFOR_EDGE_BOTTOM:
        return opfor_pt(0.0f, 1.0f);
    case OPFOR_EDGE_LEFT:
        return opfor_pt(1.0f, 0.0f);
    default:
        return opfor_pt(0.0f, 0.0f);
    }
}

/* ---- table rectangle ---- */

int opfor_rect_contains(float width, float depth, opfor_pt_t p) {
    return p.x >= 0.0f && p.x <= width && p.y >= 0.0f && p.y <= depth;
}

float opfor_ray_rect_exit(opfor_pt_t p, opfor_vec_t dir, float width, float depth,
                          opfor_pt_t *out) {
    float t = INFINITY;
    if (dir.x > 0.0f)
        t = minf(t, (width - p.x) / dir.x);
    else if (dir.x < 0.0f)
        t = minf(t, -p.x / dir.x);
    if (dir.y > 0.0f)
        t = minf(t, (depth - p.y) / dir.y);
    else if (dir.y < 0.0f)
        t = minf(t, -p.y / dir.y);
    if (!(t < INFINITY) || !(t > 0.0f))
        t = 0.0f;
    if (out) {
        opfor_pt_t q = opfor_vadd(p, opfor_vscale(dir, t));
        /* Rounding may put the point a hair outside: pull it back onto the edge. */
        q.x = minf(maxf(q.x, 0.0f), width);
        q.y = minf(maxf(q.y, 0.0f), depth);
        *out = q;
    }
    return t;
}
