/* opfor/geom.h — table geometry in inches: points, vectors, segments, figure bases,
 * polygons, fire arcs and the compass.
 *
 * Frame: the origin is the south-west corner of the table as seen from the player's
 * edge; x runs right along the width, y away from the player along the depth. Floats,
 * because the rules engine copies thousands of positions per second. Only + - * / and
 * sqrtf are used (all exactly rounded by IEEE-754, built with -ffp-contract=off), never
 * sin/cos/atan2, so every result is bit-identical on x86-64 and arm64. Angles are
 * handled with precomputed cosines and dot/cross products. Nothing here allocates.
 */
#ifndef OPFOR_GEOM_H
#define OPFOR_GEOM_H

#include <math.h>

#include "opfor/vocab.h"

/* Most points a terrain polygon or polyline may have. */
#define OPFOR_POLY_MAX_PTS 24

/* cos 45° = sin 45° = 1/sqrt(2): diagonal compass points. */
#define OPFOR_SQRT1_2 0.70710678f
/* cos and sin of 22.5°: half of a 45° fire arc. */
#define OPFOR_COS_22_5 0.92387953f
#define OPFOR_SIN_22_5 0.38268343f
/* tan 22.5°: the border between a compass point and its neighbour. */
#define OPFOR_TAN_22_5 0.41421356f
/* cos² of the half-angles of 45° and 90° arcs, for tests without a square root. */
#define OPFOR_COS2_22_5 0.85355339f
#define OPFOR_COS2_45 0.5f

/* A ruleset's base sizes, in inches. Every base is modelled as a circle: a figure on foot,
 * a mounted figure (a deeper base, as a circle of the same area) and an equipment model (a
 * gun, a wagon, a vehicle). The ruleset fills them (opfor_terrain_rules_t). */
typedef struct opfor_base_radii {
    float foot;      /* a figure on foot */
    float mounted;   /* a mounted figure */
    float equipment; /* an equipment model */
} opfor_base_radii_t;

/* A point on the table, or a vector between two points, in inches. */
typedef struct opfor_pt {
    float x; /* across the table, from the left (west when north is the far edge) */
    float y; /* away from the player's edge */
} opfor_pt_t;
typedef opfor_pt_t opfor_vec_t;

/* A figure's base, or any other circle. */
typedef struct opfor_circle {
    opfor_pt_t c; /* centre */
    float r;      /* radius in inches */
} opfor_circle_t;

/* The four table edges as seen from the player's side. Also used to say which edge is
 * north (the players pick a north before play) and where a side enters. */
typedef enum opfor_edge {
    OPFOR_EDGE_TOP = 0, /* the far edge, y == depth (the default north) */
    OPFOR_EDGE_RIGHT,   /* x == width */
    OPFOR_EDGE_BOTTOM,  /* the player's edge, y == 0 */
    OPFOR_EDGE_LEFT,    /* x == 0 */
    OPFOR_EDGE_COUNT
} opfor_edge_t;
/* Which edge is north; same values as opfor_edge_t. */
typedef opfor_edge_t opfor_table_north_t;
/* "top", "right", "bottom", "left" (aliases "far", "near"). */
extern const opfor_name_t opfor_edge_names[];

/* Fire arcs (for weapons that sweep an arc): a single 45° arc, a 90° arc, a double 45° arc
 * (the same wedge as a single 45° arc, but every figure in it tests twice), and a 180°
 * half-plane (front/rear). */
typedef enum opfor_arc {
    OPFOR_ARC_45 = 0,
    OPFOR_ARC_90,
    OPFOR_ARC_DOUBLE_45,
    OPFOR_ARC_180,
    OPFOR_ARC_COUNT
} opfor_arc_t;
/* "45", "90", "double_45", "180". */
extern const opfor_name_t opfor_arc_names[];

/* ---- vectors (inline: they sit in every hot loop) ---- */

static inline opfor_pt_t opfor_pt(float x, float y) {
    opfor_pt_t p = {x, y};
    return p;
}
static inline opfor_vec_t opfor_vadd(opfor_vec_t a, opfor_vec_t b) {
    return opfor_pt(a.x + b.x, a.y + b.y);
}
static inline opfor_vec_t opfor_vsub(opfor_vec_t a, opfor_vec_t b) {
    return opfor_pt(a.x - b.x, a.y - b.y);
}
static inline opfor_vec_t opfor_vscale(opfor_vec_t a, float s) {
    return opfor_pt(a.x * s, a.y * s);
}
static inline float opfor_vdot(opfor_vec_t a, opfor_vec_t b) {
    return a.x * b.x + a.y * b.y;
}
/* z of the 3-D cross product: > 0 when b is counter-clockwise (to the left) of a. */
static inline float opfor_vcross(opfor_vec_t a, opfor_vec_t b) {
    return a.x * b.y - a.y * b.x;
}
static inline float opfor_vlen2(opfor_vec_t a) {
    return a.x * a.x + a.y * a.y;
}
static inline float opfor_vlen(opfor_vec_t a) {
    return sqrtf(opfor_vlen2(a));
}
static inline float opfor_dist2(opfor_pt_t a, opfor_pt_t b) {
    return opfor_vlen2(opfor_vsub(a, b));
}
static inline float opfor_dist(opfor_pt_t a, opfor_pt_t b) {
    return sqrtf(opfor_dist2(a, b));
}
/* a turned 90° counter-clockwise (to its left). */
static inline opfor_vec_t opfor_vperp(opfor_vec_t a) {
    return opfor_pt(-a.y, a.x);
}
/* a + (b - a) * t. */
static inline opfor_pt_t opfor_vlerp(opfor_pt_t a, opfor_pt_t b, float t) {
    return opfor_pt(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
}

/* v scaled to length 1; the zero vector (or a non-finite one) gives (0, 0). Inline: the
 * rules engine normalises in its inner loops. */
static inline opfor_vec_t opfor_vnorm(opfor_vec_t v) {
    float l2 = opfor_vlen2(v);
    if (!(l2 > 0.0f) || !isfinite(l2))
        return opfor_pt(0.0f, 0.0f);
    float l = sqrtf(l2);
    return opfor_pt(v.x / l, v.y / l);
}
/* v turned counter-clockwise by the angle whose cosine is c and sine is s (pass the
 * OPFOR_COS_ / OPFOR_SIN_ constants; negate s to turn clockwise). */
opfor_vec_t opfor_vrot(opfor_vec_t v, float c, float s);
/* The angle between vectors a and b in radians, 0..pi (0 when either is zero). No trig: the
 * angle is halved by square roots until small and then summed up, so it is the same bit for
 * bit on every machine (within 1e-6 of the true angle). */
float opfor_vangle(opfor_vec_t a, opfor_vec_t b);

/* ---- segments ---- */

/* Parameter t in [0, 1] of the point of segment a-b closest to p (0 when a == b). Inline
 * (with the two below): the rules engine calls them in its innermost loops. */
static inline float opfor_seg_closest_t(opfor_pt_t a, opfor_pt_t b, opfor_pt_t p) {
    opfor_vec_t ab = opfor_vsub(b, a);
    float l2 = opfor_vlen2(ab);
    if (!(l2 > 0.0f))
        return 0.0f;
    float t = opfor_vdot(opfor_vsub(p, a), ab) / l2;
    return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
}
/* The point of segment a-b closest to p. */
static inline opfor_pt_t opfor_seg_closest(opfor_pt_t a, opfor_pt_t b, opfor_pt_t p) {
    return opfor_vlerp(a, b, opfor_seg_closest_t(a, b, p));
}
/* Distance from p to segment a-b. */
static inline float opfor_seg_dist_pt(opfor_pt_t a, opfor_pt_t b, opfor_pt_t p) {
    return opfor_dist(opfor_seg_closest(a, b, p), p);
}
/* opfor_seg_intersect for parallel segments (den == 0): out of line, it is rare. */
int opfor__seg_intersect_parallel(opfor_pt_t a, opfor_pt_t b, opfor_pt_t c, opfor_pt_t d, float *t,
                                  float *u);
/* Whether closed segments a-b and c-d share a point (touching ends count). Returns 1 and,
 * when the pointers are not NULL, the parameters along a-b (*t) and c-d (*u) of the first
 * common point; 0 otherwise. Collinear overlaps report their first point along a-b. Inline:
 * every terrain query tests polygon edges with it. */
static inline int opfor_seg_intersect(opfor_pt_t a, opfor_pt_t b, opfor_pt_t c, opfor_pt_t d,
                                      float *t, float *u) {
    opfor_vec_t r = opfor_vsub(b, a), s = opfor_vsub(d, c), qp = opfor_vsub(c, a);
    float den = opfor_vcross(r, s);
    if (den == 0.0f)
        return opfor__seg_intersect_parallel(a, b, c, d, t, u);
    float tt = opfor_vcross(qp, s) / den;
    float uu = opfor_vcross(qp, r) / den;
    if (!(tt >= 0.0f && tt <= 1.0f && uu >= 0.0f && uu <= 1.0f))
        return 0;
    if (t)
        *t = tt;
    if (u)
        *u = uu;
    return 1;
}
/* Shortest distance between segments a-b and c-d (0 when they intersect). */
float opfor_seg_seg_dist(opfor_pt_t a, opfor_pt_t b, opfor_pt_t c, opfor_pt_t d);
/* Whether segment a-b meets the closed disc (c, r). Returns 1 with [*t0, *t1] the
 * parameters (clipped to [0, 1]) of the part of the segment inside the disc; 0 otherwise.
 * t0 and t1 may be NULL. */
int opfor_seg_circle(opfor_pt_t a, opfor_pt_t b, opfor_pt_t c, float r, float *t0, float *t1);

/* Whether segment a-b certainly stays more than m inches from the box [lo, hi]: the boxes
 * are apart, or all four corners lie on one side of the line through a and b by more than m.
 * A cheap, conservative reject for the exact tests below (m well above float rounding, e.g.
 * 0.01 in): when it returns 1, no point of the box is within m of the segment. Inline: it
 * guards every terrain query in the rules engine's hot loops. */
static inline int opfor_seg_box_apart(opfor_pt_t a, opfor_pt_t b, opfor_pt_t lo, opfor_pt_t hi,
                                      float m) {
    if ((a.x < b.x ? a.x : b.x) > hi.x + m || (a.x > b.x ? a.x : b.x) < lo.x - m ||
        (a.y < b.y ? a.y : b.y) > hi.y + m || (a.y > b.y ? a.y : b.y) < lo.y - m)
        return 1;
    float rx = b.x - a.x, ry = b.y - a.y;
    /* |rx| + |ry| >= |r|: the bound asks for at least m of clearance, without a root */
    float lim = m * (fabsf(rx) + fabsf(ry));
    float x0 = lo.x - a.x, x1 = hi.x - a.x, y0 = lo.y - a.y, y1 = hi.y - a.y;
    float c0 = rx * y0 - ry * x0, c1 = rx * y0 - ry * x1, c2 = rx * y1 - ry * x0,
          c3 = rx * y1 - ry * x1;
    return (c0 > lim && c1 > lim && c2 > lim && c3 > lim) ||
           (c0 < -lim && c1 < -lim && c2 < -lim && c3 < -lim);
}

/* ---- figure bases ---- */

/* Base-to-base distance (for ranges measured base to base): centre
 * distance minus both radii, never below 0. */
static inline float opfor_base_dist(opfor_pt_t c1, float r1, opfor_pt_t c2, float r2) {
    float d = opfor_dist(c1, c2) - r1 - r2;
    return d > 0.0f ? d : 0.0f;
}
/* Whether two bases overlap by more than tol inches (touching is not overlapping). */
static inline int opfor_bases_overlap(opfor_pt_t c1, float r1, opfor_pt_t c2, float r2, float tol) {
    float rs = r1 + r2 - tol;
    if (!(rs > 0.0f))
        return 0;
    return opfor_dist2(c1, c2) < rs * rs;
}

/* ---- polygons (closed: the last point joins the first) and polylines ----
 * n is the number of points, at most OPFOR_POLY_MAX_PTS; fewer than 3 (polygon) or 2
 * (polyline) points make the shape empty. */

/* Whether p is inside the polygon (even-odd rule; points exactly on an edge may go either
 * way, but always the same way). */
static inline int opfor_poly_contains(const opfor_pt_t *pts, int n, opfor_pt_t p) {
    n = n > OPFOR_POLY_MAX_PTS ? OPFOR_POLY_MAX_PTS : n;
    if (n < 3)
        return 0;
    int inside = 0;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        opfor_pt_t pi = pts[i], pj = pts[j];
        if ((pi.y > p.y) != (pj.y > p.y)) {
            float x = (pj.x - pi.x) * (p.y - pi.y) / (pj.y - pi.y) + pi.x;
            if (p.x < x)
                inside = !inside;
        }
    }
    return inside;
}
/* Twice the signed area (positive when counter-clockwise). */
float opfor_poly_area2(const opfor_pt_t *pts, int n);
/* Bounding box of the points. */
void opfor_poly_bbox(const opfor_pt_t *pts, int n, opfor_pt_t *lo, opfor_pt_t *hi);
/* Distance from p to the polygon's boundary (0 on it; the same inside and outside). */
float opfor_poly_dist_pt(const opfor_pt_t *pts, int n, opfor_pt_t p);
/* Whether segment a-b touches the polygon's area: crosses an edge or lies inside. */
int opfor_poly_seg_intersects(const opfor_pt_t *pts, int n, opfor_pt_t a, opfor_pt_t b);
/* Whether segment a-b crosses or touches an edge of the polygon (the edge half of
 * opfor_poly_seg_intersects, for callers that test the end points themselves). */
static inline int opfor_poly_seg_crosses(const opfor_pt_t *pts, int n, opfor_pt_t a, opfor_pt_t b) {
    n = n > OPFOR_POLY_MAX_PTS ? OPFOR_POLY_MAX_PTS : n;
    if (n < 3)
        return 0;
    for (int i = 0, j = n - 1; i < n; j = i++)
        if (opfor_seg_intersect(a, b, pts[j], pts[i], NULL, NULL))
            return 1;
    return 0;
}
/* Writes into ts (room for max) the parameters along a-b where it crosses the polygon's
 * edges, unsorted; returns how many (at most max, and at most n). */
static inline int opfor_poly_seg_params(const opfor_pt_t *pts, int n, opfor_pt_t a, opfor_pt_t b,
                                        float *ts, int max) {
    n = n > OPFOR_POLY_MAX_PTS ? OPFOR_POLY_MAX_PTS : n;
    int k = 0;
    if (n < 3)
        return 0;
    for (int i = 0, j = n - 1; i < n && k < max; j = i++) {
        float t;
        if (opfor_seg_intersect(a, b, pts[j], pts[i], &t, NULL))
            ts[k++] = t;
    }
    return k;
}
/* Length in inches of the part of segment a-b inside the polygon. */
float opfor_poly_seg_length_inside(const opfor_pt_t *pts, int n, opfor_pt_t a, opfor_pt_t b);
/* Whether the disc (c, r) overlaps the polygon at all (centre inside, or an edge within r). */
int opfor_poly_circle_overlap(const opfor_pt_t *pts, int n, opfor_pt_t c, float r);

/* Distance from p to the polyline. */
float opfor_polyline_dist_pt(const opfor_pt_t *pts, int n, opfor_pt_t p);
/* Shortest distance between segment a-b and the polyline. */
float opfor_polyline_seg_dist(const opfor_pt_t *pts, int n, opfor_pt_t a, opfor_pt_t b);
/* How many of the polyline's segments segment a-b crosses or touches. */
int opfor_polyline_seg_crossings(const opfor_pt_t *pts, int n, opfor_pt_t a, opfor_pt_t b);

/* ---- fire arcs ---- */

/* How many times p falls in the arc centred on facing from origin: 0 outside, 1 inside,
 * 2 inside a double 45° arc. The arc's edges count as inside, and so does origin itself.
 * facing need not be unit length; a zero facing gives 0. */
int opfor_arc_contains(opfor_arc_t arc, opfor_pt_t origin, opfor_vec_t facing, opfor_pt_t p);
/* The cosine and sine of the arc's half-angle into cs and sn (22.5° for single and double 45°
 * arcs, 45° for 90°, 90° for 180°): its edges are the facing turned by it (opfor_vrot) either
 * way. Returns 1, or 0 for an unknown arc (cs, sn then as for 180°). */
static inline int opfor_arc_half(opfor_arc_t arc, float *cs, float *sn) {
    switch (arc) {
    case OPFOR_ARC_45:
    case OPFOR_ARC_DOUBLE_45:
        *cs = OPFOR_COS_22_5;
        *sn = OPFOR_SIN_22_5;
        return 1;
    case OPFOR_ARC_90:
        *cs = OPFOR_SQRT1_2;
        *sn = OPFOR_SQRT1_2;
        return 1;
    case OPFOR_ARC_180:
        *cs = 0.0f;
        *sn = 1.0f;
        return 1;
    default:
        *cs = 0.0f;
        *sn = 1.0f;
        return 0;
    }
}
/* Like opfor_arc_contains, but for a base: counts when any part of disc (c, r) is in the
 * arc (a figure partly in an area of effect counts as in it). */
int opfor_arc_touches_circle(opfor_arc_t arc, opfor_pt_t origin, opfor_vec_t facing, opfor_pt_t c,
                             float r);

/* ---- compass ---- */

/* Unit vector, in table coordinates, of compass point dir when edge `north` is north.
 * Diagonals use OPFOR_SQRT1_2. An out-of-range dir or north gives (0, 0). */
opfor_vec_t opfor_compass_vec(opfor_table_north_t north, opfor_compass_t dir);
/* The compass point nearest to direction v (borders at 22.5° from each point, found with
 * tan 22.5°, no trigonometry). The zero vector gives OPFOR_N. */
opfor_compass_t opfor_compass_nearest(opfor_table_north_t north, opfor_vec_t v);
/* dir turned by steps eighths of a turn (positive clockwise). */
opfor_compass_t opfor_compass_turn(opfor_compass_t dir, int steps);
/* Unit vector pointing from edge e into the table (bottom gives (0, 1)). */
opfor_vec_t opfor_edge_inward(opfor_edge_t e);

/* ---- the table rectangle [0, width] x [0, depth] ---- */

/* Whether p lies on the table (edges included). */
int opfor_rect_contains(float width, float depth, opfor_pt_t p);
/* Where a ray from p (on the table) in direction dir leaves the table: returns the
 * distance in units of |dir| (so inches when dir is a unit vector) and stores the point
 * in *out (may be NULL). A zero dir returns 0 with *out = p. */
float opfor_ray_rect_exit(opfor_pt_t p, opfor_vec_t dir, float width, float depth, opfor_pt_t *out);

#endif
