/* core/terrain_grid.c — the coarse spatial index over terrain features (opfor/terrain_grid.h).
 *
 * Binning is by distance from a cell's centre (half the cell's diagonal plus the layer's
 * margin plus half a line's width), so a feature that comes within the margin of any point
 * of a cell is in that cell's mask. Segment queries walk the columns the segment crosses and
 * OR the rows it spans in each, widened by a small epsilon. The cover query runs the full
 * query's per-feature test (core/terrain_int.h) on the features in the mask only, in index
 * order, and line of sight hands its mask to opfor_terrain_los_in, so their answers are bit
 * for bit the same as the full queries'.
 */
#include "opfor/terrain_grid.h"

#include <math.h>
#include <string.h>

#include "terrain_int.h"

#define MARGIN 0.05f /* extra distance a feature is binned at, for rounding */
#define EPS 1e-3f    /* cells a segment touches are widened by this much */

/* Distance from p to feature f's area or line (0 inside an area); half a line's width is
 * not included. */
static float feature_dist(const opfor_terrain_feature_t *f, opfor_pt_t p) {
    if (f->shape == OPFOR_SHAPE_AREA)
        return opfor_poly_contains(f->pts, f->npts, p) ? 0.0f
                                                       : opfor_poly_dist_pt(f->pts, f->npts, p);
    return opfor_polyline_dist_pt(f->pts, f->npts, p);
}

int opfor_tgrid_build(opfor_tgrid_t *g, const opfor_table_t *t) {
    memset(g, 0, sizeof *g);
    float side = maxf(t->width, t->depth);
    float cell = 2.0f;
    if (side / cell > (float)OPFOR_TGRID_MAX)
        cell = side / (float)OPFOR_TGRID_MAX * 1.0001f;
    g->cell = cell;
    g->inv = 1.0f / cell;
    g->nx = (int)ceilf(t->width / cell);
    g->ny = (int)ceilf(t->depth / cell);
    if (g->nx < 1)
        g->nx = 1;
    if (g->ny < 1)
        g->ny = 1;
    if (g->nx > OPFOR_TGRID_MAX)
        g->nx = OPFOR_TGRID_MAX;
    if (g->ny > OPFOR_TGRID_MAX)
        g->ny = OPFOR_TGRID_MAX;
    float half_diag = 0.70711f * cell + MARGIN;
    for (int i = 0; i < t->nfeatures && i < 64; i++) {
        const opfor_terrain_feature_t *f = &t->features[i];
        uint64_t bit = 1ULL << i;
        float lw = f->shape == OPFOR_SHAPE_LINE ? 0.5f * f->width : 0.0f;
        float reach[OPFOR_TGRID_LAYERS] = {-1.0f, -1.0f, -1.0f};
        if (f->sight != OPFOR_SIGHT_CLEAR)
            reach[OPFOR_TGRID_SIGHT] = half_diag + lw;
        if (f->move != OPFOR_MOVE_OPEN || (f->flags & OPFOR_TF_NO_MOUNTED))
            reach[OPFOR_TGRID_MOVE] = half_diag + lw;
        if (f->cover != OPFOR_COVER_NONE)
            reach[OPFOR_TGRID_COVER] = half_diag + lw + t->rules.line_cover + OPFOR_TGRID_COVER_R;
        float rmax = -1.0f;
        for (int l = 0; l < OPFOR_TGRID_LAYERS; l++) {
            if (reach[l] >= 0.0f)
                g->layer_all[l] |= bit;
            rmax = maxf(rmax, reach[l]);
        }
        if (rmax < 0.0f)
            continue;
        for (int cy = 0; cy < g->ny; cy++) {
            float y = ((float)cy + 0.5f) * cell;
            if (y + rmax < f->lo.y || y - rmax > f->hi.y)
                continue;
            for (int cx = 0; cx < g->nx; cx++) {
                float x = ((float)cx + 0.5f) * cell;
                if (x + rmax < f->lo.x || x - rmax > f->hi.x)
                    continue;
                float d = feature_dist(f, opfor_pt(x, y));
                for (int l = 0; l < OPFOR_TGRID_LAYERS; l++)
                    if (reach[l] >= 0.0f && d <= reach[l])
                        g->mask[l][cy * OPFOR_TGRID_MAX + cx] |= bit;
            }
        }
    }
    return 0;
}

/* Cell index of a coordinate already known to be above -1 cell (truncation, no libm). */
static int cell_of(float v, float inv) {
    float c = v * inv;
    return c < 0.0f ? -1 : (int)c;
}

uint64_t opfor_tgrid_at(const opfor_tgrid_t *g, int layer, opfor_pt_t p) {
    int cx = cell_of(p.x, g->inv), cy = cell_of(p.y, g->inv);
    if (cx < 0 || cy < 0 || cx >= g->nx || cy >= g->ny || !(p.x == p.x) || !(p.y == p.y))
        return g->layer_all[layer];
    return g->mask[layer][cy * OPFOR_TGRID_MAX + cx];
}

uint64_t opfor_tgrid_seg(const opfor_tgrid_t *g, int layer, opfor_pt_t a, opfor_pt_t b) {
    float x0 = minf(a.x, b.x), x1 = maxf(a.x, b.x);
    float y0 = minf(a.y, b.y), y1 = maxf(a.y, b.y);
    float W = (float)g->nx * g->cell, D = (float)g->ny * g->cell;
    if (!(x0 >= 0.0f && y0 >= 0.0f && x1 < W && y1 < D))
        return g->layer_all[layer]; /* off the grid (or not a number): everything */
    const uint64_t *m = g->mask[layer];
    uint64_t out = 0;
    int cx0 = cell_of(x0 - EPS, g->inv), cx1 = cell_of(x1 + EPS, g->inv);
    cx0 = cx0 < 0 ? 0 : cx0;
    cx1 = cx1 >= g->nx ? g->nx - 1 : cx1;
    int cy0 = cell_of(y0 - EPS, g->inv), cy1 = cell_of(y1 + EPS, g->inv);
    cy0 = cy0 < 0 ? 0 : cy0;
    cy1 = cy1 >= g->ny ? g->ny - 1 : cy1;
    if (cx0 == cx1 || cy0 == cy1 || x1 - x0 < 1e-3f || (cx1 - cx0 + 1) * (cy1 - cy0 + 1) <= 6) {
        /* a short or axis-aligned segment: its whole box of cells */
        for (int cy = cy0; cy <= cy1; cy++)
            for (int cx = cx0; cx <= cx1; cx++)
                out |= m[cy * OPFOR_TGRID_MAX + cx];
        return out;
    }
    /* the segment's y over each column's x span (within the segment) */
    float slope = (b.y - a.y) / (b.x - a.x);
    for (int cx = cx0; cx <= cx1; cx++) {
        float xa = maxf((float)cx * g->cell, x0), xb = minf((float)(cx + 1) * g->cell, x1);
        float ya = a.y + (xa - a.x) * slope, yb = a.y + (xb - a.x) * slope;
        float lo = maxf(minf(ya, yb), y0), hi = minf(maxf(ya, yb), y1);
        int r0 = cell_of(lo - EPS, g->inv), r1 = cell_of(hi + EPS, g->inv);
        r0 = r0 < cy0 ? cy0 : r0;
        r1 = r1 > cy1 ? cy1 : r1;
        for (int cy = r0; cy <= r1; cy++)
            out |= m[cy * OPFOR_TGRID_MAX + cx];
    }
    return out;
}

static int lowest_bit(uint64_t m) {
    return __builtin_ctzll(m);
}

int opfor_tgrid_los_r(const opfor_tgrid_t *g, const opfor_table_t *t, opfor_pt_t a, float ra,
                      opfor_pt_t b, float rb, opfor_los_t *out) {
    /* the features that can touch the line; the others would add nothing (no length inside,
       no crossing) */
    return opfor_terrain_los_in(t, opfor_tgrid_seg(g, OPFOR_TGRID_SIGHT, a, b), a, ra, b, rb, out);
}

opfor_cover_t opfor_tgrid_cover(const opfor_tgrid_t *g, const opfor_table_t *t, opfor_pt_t firer,
                                opfor_pt_t target, float r, int *feature) {
    if (r > OPFOR_TGRID_COVER_R)
        return opfor_terrain_cover(t, firer, target, r, feature);
    uint64_t m = opfor_tgrid_at(g, OPFOR_TGRID_COVER, target);
    int best = OPFOR_COVER_NONE, bf = -1;
    while (m) {
        int i = lowest_bit(m);
        m &= m - 1;
        const opfor_terrain_feature_t *f = &t->features[i];
        if (f->cover <= best)
            continue;
        if (opfor__feature_covers(f, firer, target, r, t->rules.line_cover)) {
            best = f->cover;
            bf = i;
        }
    }
    if (feature)
        *feature = bf;
    return (opfor_cover_t)best;
}

int opfor_tgrid_path_open(const opfor_tgrid_t *g, opfor_pt_t a, opfor_pt_t b) {
    return opfor_tgrid_seg(g, OPFOR_TGRID_MOVE, a, b) == 0;
}
