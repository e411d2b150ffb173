/* rulesets/splendid/engine_geom.c — where a unit's stands stand: its formation's rectangle from
 * the centre of its front edge, its facing, its files and ranks (§Stands and Units: bases are
 * scenario data), distances between units (shortest base to base, §Command), contact within
 * the tolerance and the outflank test of §Can a unit be outflanked?.
 */
#include <math.h>

#include "engine_int.h"

/* Projection of r onto axis: min and max. */
static void project(const opfor_pt_t r[4], opfor_vec_t ax, float *lo, float *hi) {
    *lo = *hi = opfor_vdot(r[0], ax);
    for (int i = 1; i < 4; i++) {
        float v = opfor_vdot(r[i], ax);
        if (v < *lo)
            *lo = v;
        if (v > *hi)
            *hi = v;
    }
}

/* The gap between the boxes around two rectangles along x or y: a lower bound of their
 * distance, without a square root. */
static float bound(const opfor_pt_t a[4], const opfor_pt_t b[4]) {
    float ba[4], bb[4];
    sv_box(a, ba);
    sv_box(b, bb);
    return sv_box_gap(ba, bb);
}

int sv_rect_sat(const opfor_pt_t a[4], const opfor_pt_t b[4], float tol) {
    const opfor_pt_t *rs[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (int e = 0; e < 2; e++) {
            opfor_vec_t ax = opfor_vnorm(opfor_vsub(rs[k][e + 1], rs[k][e]));
            float alo, ahi, blo, bhi;
            project(a, ax, &alo, &ahi);
            project(b, ax, &blo, &bhi);
            if (ahi - tol <= blo || bhi - tol <= alo)
                return 0; /* a separating axis */
        }
    return 1;
}

int sv_rect_overlap(const opfor_pt_t a[4], const opfor_pt_t b[4], float tol) {
    if (bound(a, b) > 0.0f)
        return 0; /* their boxes are apart */
    return sv_rect_sat(a, b, tol);
}

/* Squared distance from p to the segment from a along edge e (its vector and squared
 * length). */
static inline float seg2(opfor_pt_t p, opfor_pt_t a, const float e[3]) {
    float ex = e[0], ey = e[1], px = p.x - a.x, py = p.y - a.y;
    float l2 = e[2], t = l2 > 0.0f ? (px * ex + py * ey) / l2 : 0.0f;
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    float dx = px - ex * t, dy = py - ey * t;
    return dx * dx + dy * dy;
}

/* Squared distance from p to box b (least x, most x, least y, most y). */
static inline float box_d2(opfor_pt_t p, const float b[4]) {
    float dx = p.x < b[0] ? b[0] - p.x : p.x > b[1] ? p.x - b[1] : 0.0f;
    float dy = p.y < b[2] ? b[2] - p.y : p.y > b[3] ? p.y - b[3] : 0.0f;
    return dx * dx + dy * dy;
}

float sv_rect_dist_gap(const opfor_pt_t a[4], const opfor_pt_t b[4], float gap) {
    if (gap <= 0.0f && sv_rect_sat(a, b, 0.0f))
        return 0.0f;
    /* apart convex shapes: the nearest points include a corner of one of them; every corner
     * against every edge of the other (the edges worked out once) */
    float ea[4][3], eb[4][3];
    for (int j = 0; j < 4; j++) {
        ea[j][0] = a[(j + 1) & 3].x - a[j].x;
        ea[j][1] = a[(j + 1) & 3].y - a[j].y;
        ea[j][2] = ea[j][0] * ea[j][0] + ea[j][1] * ea[j][1];
        eb[j][0] = b[(j + 1) & 3].x - b[j].x;
        eb[j][1] = b[(j + 1) & 3].y - b[j].y;
        eb[j][2] = eb[j][0] * eb[j][0] + eb[j][1] * eb[j][1];
    }
    /* a corner further from the other's box than the best so far (with a margin for
     * rounding) is nearer none of its edges: its four are skipped, the least kept the same */
    float ba[4], bb[4], lba[4], lbb[4];
    sv_box(a, ba);
    sv_box(b, bb);
    for (int i = 0; i < 4; i++) {
        lba[i] = box_d2(a[i], bb) * 0.999f - 1e-6f;
        lbb[i] = box_d2(b[i], ba) * 0.999f - 1e-6f;
    }
    float best = 1e30f;
    for (int i = 0; i < 4; i++) {
        if (lba[i] <= best)
            for (int j = 0; j < 4; j++) {
                float d = seg2(a[i], b[j], eb[j]);
                if (d < best)
                    best = d;
            }
        if (lbb[i] <= best)
            for (int j = 0; j < 4; j++) {
                float d = seg2(b[i], a[j], ea[j]);
                if (d < best)
                    best = d;
            }
    }
    return sqrtf(best);
}

float sv_rect_dist(const opfor_pt_t a[4], const opfor_pt_t b[4]) {
    return sv_rect_dist_gap(a, b, bound(a, b));
}

int sv_rect_near(const opfor_pt_t a[4], const opfor_pt_t b[4], float limit) {
    float gap = bound(a, b);
    if (gap > limit)
        return 0;
    return sv_rect_dist_gap(a, b, gap) <= limit;
}

int sv_rect_near_gap(const opfor_pt_t a[4], const opfor_pt_t b[4], float gap, float limit) {
    return gap <= limit && sv_rect_dist_gap(a, b, gap) <= limit;
}

void sv_geo_unit(const sv_ctx_t *c, const sv_state_t *s, sv_geo_t *g, int ui) {
    sv_rect(c, &s->u[ui], g->r[ui]);
    sv_box(g->r[ui], g->box[ui]);
    g->contact[ui] = 0;
    int alive = sv_alive(&s->u[ui]);
    float tol = c->opt.contact_tolerance;
    for (int j = 0; j < s->nunits; j++) {
        if (j == ui)
            continue;
        g->contact[j] &= ~(1u << ui);
        if (!alive || !(g->alive >> j & 1u) || s->u[j].side == s->u[ui].side)
            continue;
        if (sv_rect_near_gap(g->r[ui], g->r[j], sv_box_gap(g->box[ui], g->box[j]), tol)) {
            g->contact[ui] |= 1u << j;
            g->contact[j] |= 1u << ui;
        }
    }
    g->alive = alive ? g->alive | 1u << ui : g->alive & ~(1u << ui);
}

void sv_geo_build(const sv_ctx_t *c, const sv_state_t *s, sv_geo_t *g) {
    float tol = c->opt.contact_tolerance;
    g->alive = 0;
    for (int i = 0; i < s->nunits; i++) {
        sv_rect(c, &s->u[i], g->r[i]);
        sv_box(g->r[i], g->box[i]);
        g->contact[i] = 0;
        if (sv_alive(&s->u[i]))
            g->alive |= 1u << i;
    }
    for (int i = 0; i < s->nunits; i++)
        for (int j = i + 1; j < s->nunits; j++)
            if ((g->alive >> i & 1u) && (g->alive >> j & 1u) && s->u[i].side != s->u[j].side &&
                sv_rect_near_gap(g->r[i], g->r[j], sv_box_gap(g->box[i], g->box[j]), tol)) {
                g->contact[i] |= 1u << j;
                g->contact[j] |= 1u << i;
            }
}

int sv_seg_hits_rect(opfor_pt_t p, opfor_pt_t q, const opfor_pt_t r[4], float tol) {
    /* the rectangle shrunk by tol on every side, then a segment-rectangle overlap by SAT */
    opfor_pt_t c = opfor_pt((r[0].x + r[2].x) * 0.5f, (r[0].y + r[2].y) * 0.5f);
    opfor_vec_t ax[2] = {opfor_vsub(r[1], r[0]), opfor_vsub(r[3], r[0])};
    for (int k = 0; k < 2; k++) {
        float len = opfor_vlen(ax[k]);
        if (len <= 2.0f * tol)
            return 0;
        opfor_vec_t n = opfor_vscale(ax[k], 1.0f / len);
        float half = len * 0.5f - tol;
        float a = opfor_vdot(opfor_vsub(p, c), n), b = opfor_vdot(opfor_vsub(q, c), n);
        if ((a > half && b > half) || (a < -half && b < -half))
            return 0;
    }
    /* the segment's own normal */
    opfor_vec_t d = opfor_vsub(q, p);
    if (opfor_vlen2(d) < 1e-12f)
        return 1;
    opfor_vec_t n = opfor_vnorm(opfor_vperp(d));
    float s = opfor_vdot(p, n), lo, hi;
    project(r, n, &lo, &hi);
    return s > lo + tol && s < hi - tol;
}

float sv_unit_dist(const sv_ctx_t *c, const sv_unit_t *a, const sv_unit_t *b) {
    opfor_pt_t ra[4], rb[4];
    sv_rect(c, a, ra);
    sv_rect(c, b, rb);
    return sv_rect_dist(ra, rb);
}

int sv_in_contact(const sv_ctx_t *c, const sv_unit_t *a, const sv_unit_t *b) {
    return sv_unit_near(c, a, b, c->opt.contact_tolerance);
}

int sv_unit_near(const sv_ctx_t *c, const sv_unit_t *a, const sv_unit_t *b, float limit) {
    opfor_pt_t ra[4], rb[4];
    sv_rect(c, a, ra);
    sv_rect(c, b, rb);
    return sv_rect_near(ra, rb, limit);
}

int sv_outflanks(const sv_ctx_t *c, const sv_unit_t *a, const sv_unit_t *d) {
    if (d->form == SV_DEFBLOCK) /* §Defensive Block Formation: never outflanked */
        return 0;
    opfor_pt_t ra[4], rd[4];
    sv_rect(c, a, ra);
    sv_rect(c, d, rd);
    float tol = c->opt.contact_tolerance;
    /* the attacker must face into the defender: its front centre near the defender */
    if (sv_rect_dist(ra, rd) > tol)
        return 0;
    /* a front corner of the attacker pressed onto the enemy's front edge is a frontal
     * contact, whatever else it touches */
    for (int k = 2; k < 4; k++) /* rear corners rd[2], rd[3] on a's front edge */
        if (opfor_seg_dist_pt(ra[0], ra[1], rd[k]) <= tol)
            return 1;
    for (int k = 0; k < 2; k++) /* a's front corners on d's rear edge */
        if (opfor_seg_dist_pt(rd[2], rd[3], ra[k]) <= tol)
            return 1;
    return 0;
}

int sv_on_table(const sv_ctx_t *c, const opfor_pt_t r[4]) {
    for (int i = 0; i < 4; i++)
        if (r[i].x < -1e-3f || r[i].y < -1e-3f || r[i].x > c->width + 1e-3f ||
            r[i].y > c->depth + 1e-3f)
            return 0;
    return 1;
}

/* Whether feature f prohibits u (docs/splendid.md 5): impassable ground to all; closed to
 * mounted ground (buildings, marsh) to mounted, command and artillery units; woods to
 * artillery; hedges, walls and fences to unlimbered artillery. */
static int prohibits(const opfor_terrain_feature_t *f, const sv_unit_t *u) {
    int cls = sv_class(u);
    if (f->move == OPFOR_MOVE_IMPASSABLE)
        return 1;
    if ((f->flags & OPFOR_TF_NO_MOUNTED) && cls != 0)
        return 1;
    if (cls == 2 && f->kind == OPFOR_TK_WOODS)
        return 1;
    if (cls == 2 && u->form == SV_UNLIMBERED &&
        (f->kind == OPFOR_TK_HEDGE || f->kind == OPFOR_TK_WALL || f->kind == OPFOR_TK_FENCE))
        return 1;
    return 0;
}

/* Whether box b (least x, most x, least y, most y) stays clear of f's bounding box by more
 * than a rounding margin: then nothing of f can be inside it or cross it. */
static int apart(const opfor_terrain_feature_t *f, const float b[4]) {
    return b[1] < f->lo.x - 0.01f || b[0] > f->hi.x + 0.01f || b[3] < f->lo.y - 0.01f ||
           b[2] > f->hi.y + 0.01f;
}

/* Whether rectangle r (its box b) overlaps feature f at all. */
static int rect_in(const opfor_terrain_feature_t *f, const opfor_pt_t r[4], const float b[4]) {
    if (apart(f, b))
        return 0;
    opfor_pt_t ctr = opfor_pt((r[0].x + r[2].x) * 0.5f, (r[0].y + r[2].y) * 0.5f);
    if (opfor_feature_contains(f, ctr) || opfor_poly_contains(r, 4, f->pts[0]))
        return 1;
    for (int e = 0; e < 4; e++)
        if (opfor_feature_seg_enters(f, r[e], r[(e + 1) & 3]))
            return 1;
    return 0;
}

int sv_terrain_ok(const sv_ctx_t *c, const sv_unit_t *u, const opfor_pt_t r[4]) {
    float b[4];
    sv_box(r, b);
    for (int i = 0; i < c->table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &c->table.features[i];
        if (prohibits(f, u) && rect_in(f, r, b))
            return 0;
    }
    return 1;
}

int sv_terrain_type(const opfor_terrain_feature_t *f) {
    switch (f->kind) {
    case OPFOR_TK_WOODS:
        return SV_T_WOODS;
    case OPFOR_TK_BUILDING:
        return SV_T_TOWN;
    case OPFOR_TK_WALL:
    case OPFOR_TK_HEDGE:
    case OPFOR_TK_FENCE:
    case OPFOR_TK_FIELD_WORKS:
        return SV_T_ENCLOSURES;
    case OPFOR_TK_ROUGH:
        return SV_T_MARSH;
    case OPFOR_TK_RIVER:
        return SV_T_RIVER;
    case OPFOR_TK_HILL:
        return SV_T_HILL;
    case OPFOR_TK_ROAD:
        return SV_T_ROAD;
    default:
        return SV_T_OPEN;
    }
}

int sv_terrain_fire_dice(const sv_ctx_t *c, const opfor_pt_t r[4]) {
    const opfor_sv_terrain_t *t = c->model.terrain;
    int best = 0, any = 0;
    float b[4];
    sv_box(r, b);
    for (int i = 0; i < c->table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &c->table.features[i];
        int d = t[sv_terrain_type(f)].fire_dice;
        if ((!any || d < best) && rect_in(f, r, b)) {
            best = d;
            any = 1;
        }
    }
    return any ? best : t[SV_T_OPEN].fire_dice;
}

int sv_terrain_cv(const sv_ctx_t *c, const opfor_pt_t r[4]) {
    const opfor_sv_terrain_t *t = c->model.terrain;
    int best = 0, any = 0;
    float b[4];
    sv_box(r, b);
    for (int i = 0; i < c->table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &c->table.features[i];
        int d = t[sv_terrain_type(f)].cv;
        if ((!any || d > best) && rect_in(f, r, b)) {
            best = d;
            any = 1;
        }
    }
    return any ? best : t[SV_T_OPEN].cv;
}

void sv_terrain_bounds(const sv_ctx_t *c, const sv_unit_t *u, float *least, float *most) {
    const opfor_sv_terrain_t *t = c->model.terrain;
    float open = t[SV_T_OPEN].move_factor, lo = open, hi = open;
    int column = u->form == SV_COLUMN;
    for (int i = 0; i < c->table.nfeatures; i++) {
        const opfor_sv_terrain_t *d = &t[sv_terrain_type(&c->table.features[i])];
        if (d->column_only && !column)
            continue;
        if (d->move_factor > open)
            hi += d->move_factor - open;
        else
            lo += d->move_factor - open;
    }
    *least = lo > 0.0f ? lo : 0.0f;
    *most = hi;
}

float sv_terrain_cost(const sv_ctx_t *c, const sv_unit_t *u, opfor_pt_t a, opfor_pt_t b) {
    const opfor_sv_terrain_t *t = c->model.terrain;
    float len = opfor_dist(a, b), open = t[SV_T_OPEN].move_factor, cost = len * open;
    int column = u->form == SV_COLUMN;
    for (int i = 0; i < c->table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &c->table.features[i];
        const opfor_sv_terrain_t *d = &t[sv_terrain_type(f)];
        if (d->move_factor == open || (d->column_only && !column))
            continue;
        float in = opfor_feature_length_inside(f, a, b);
        cost += in * (d->move_factor - open);
    }
    return cost > 0.0f ? cost : 0.0f;
}

int sv_terrain_path_ok(const sv_ctx_t *c, const sv_unit_t *u, opfor_pt_t a, opfor_pt_t b) {
    float bx[4] = {a.x < b.x ? a.x : b.x, a.x < b.x ? b.x : a.x, a.y < b.y ? a.y : b.y,
                   a.y < b.y ? b.y : a.y};
    for (int i = 0; i < c->table.nfeatures; i++)
        if (prohibits(&c->table.features[i], u) && !apart(&c->table.features[i], bx) &&
            opfor_feature_seg_enters(&c->table.features[i], a, b))
            return 0;
    return 1;
}

int sv_terrain_blocks_fire(const sv_ctx_t *c, opfor_pt_t a, opfor_pt_t b) {
    for (int i = 0; i < c->table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &c->table.features[i];
        if (f->sight == OPFOR_SIGHT_CLEAR || opfor_feature_contains(f, a) ||
            opfor_feature_contains(f, b))
            continue;
        if (opfor_feature_seg_enters(f, a, b))
            return 1;
    }
    return 0;
}
