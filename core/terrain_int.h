/* core/terrain_int.h — what core/terrain.c and core/terrain_grid.c share inside core: float
 * minimum and maximum, the slack on rule distances, the feature box test, and the test of
 * whether one feature gives a target cover.
 *
 * All static inline: the full cover query (in the rules engine's hot loops) and the grid's
 * query over a feature mask compile the very same arithmetic, so their answers are bit for bit
 * the same, and the full query pays no call per feature.
 */
#ifndef OPFOR_TERRAIN_INT_H
#define OPFOR_TERRAIN_INT_H

#include "opfor/terrain.h"

/* Rule distances (foliage sight, lining a wall: opfor_terrain_rules_t) are compared with this
 * slack, so that a measurement landing exactly on the limit is not lost to float rounding. */
#define OPFOR__TERRAIN_TOL 1e-4f

static inline float minf(float a, float b) {
    return a < b ? a : b;
}
static inline float maxf(float a, float b) {
    return a > b ? a : b;
}

/* Whether the bounding box of segment a-b, widened by m, meets the feature's box. */
static inline int bbox_hit(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b, float m) {
    return minf(a.x, b.x) - m <= f->hi.x && maxf(a.x, b.x) + m >= f->lo.x &&
           minf(a.y, b.y) - m <= f->hi.y && maxf(a.y, b.y) + m >= f->lo.y;
}

/* Whether feature f covers a target of base radius r at target from a firer at firer
 * (opfor_terrain_cover): an area overlapping the base, or a line within line_cover (the
 * table's rules.line_cover) of the base's edge that the line of fire crosses. */
static inline int opfor__feature_covers(const opfor_terrain_feature_t *f, opfor_pt_t firer,
                                        opfor_pt_t target, float r, float line_cover) {
    int covered;
    if (f->shape == OPFOR_SHAPE_AREA) {
        covered = opfor_feature_circle_overlap(f, target, r);
    } else {
        float h = 0.5f * f->width;
        covered = bbox_hit(f, target, target, r + line_cover) &&
                  opfor_polyline_dist_pt(f->pts, f->npts, target) - r - h <=
                      line_cover + OPFOR__TERRAIN_TOL &&
                  opfor_polyline_seg_crossings(f->pts, f->npts, firer, target) > 0;
    }
    return covered;
}

#endif
