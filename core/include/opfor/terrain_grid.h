/* opfor/terrain_grid.h — a coarse spatial index over a table's terrain features, built once
 * and read by any number of threads. Each square cell (at most OPFOR_TGRID_MAX a side) holds
 * per layer a 64-bit mask of the features that come near it (conservative: binned by the
 * distance from the cell's centre). A query ORs the masks of the cells it touches and, when
 * no feature is near, answers at once; otherwise it examines only the masked features, with
 * core/terrain.c's tests in the same order, so every answer is bit for bit the full query's.
 */
#ifndef OPFOR_TERRAIN_GRID_H
#define OPFOR_TERRAIN_GRID_H

#include <stdint.h>

#include "opfor/geom.h"
#include "opfor/terrain.h"

/* Most cells along a side of the table. */
#define OPFOR_TGRID_MAX 64

/* What a layer holds. */
typedef enum opfor_tgrid_layer {
    OPFOR_TGRID_SIGHT = 0, /* features that affect sight (foliage or blocking) */
    OPFOR_TGRID_MOVE,      /* features that affect movement (not open, or closed to riders) */
    OPFOR_TGRID_COVER,     /* features giving cover to bases up to OPFOR_TGRID_COVER_R */
    OPFOR_TGRID_LAYERS
} opfor_tgrid_layer_t;

/* Largest base radius the cover layer answers for (larger ones use the full query). */
#define OPFOR_TGRID_COVER_R 1.0f

/* The index. About 96 KiB: keep it beside other read-only data (a context), not on the
 * stack. */
typedef struct opfor_tgrid {
    float cell;                             /* cell side, inches */
    float inv;                              /* 1 / cell */
    int nx, ny;                             /* cells across and up the table */
    uint64_t layer_all[OPFOR_TGRID_LAYERS]; /* every feature of each layer */
    uint64_t mask[OPFOR_TGRID_LAYERS][OPFOR_TGRID_MAX * OPFOR_TGRID_MAX]; /* per cell */
} opfor_tgrid_t;

/* Builds the index of table t (whose features must not change afterwards). Returns 0. */
int opfor_tgrid_build(opfor_tgrid_t *g, const opfor_table_t *t);

/* Features of layer that may come within the layer's margin of segment a-b (all of the
 * layer's features when the segment leaves the table). */
uint64_t opfor_tgrid_seg(const opfor_tgrid_t *g, int layer, opfor_pt_t a, opfor_pt_t b);
/* Features of layer that may come near point p. */
uint64_t opfor_tgrid_at(const opfor_tgrid_t *g, int layer, opfor_pt_t p);

/* opfor_terrain_los_r on table t (the index's table), same result. */
int opfor_tgrid_los_r(const opfor_tgrid_t *g, const opfor_table_t *t, opfor_pt_t a, float ra,
                      opfor_pt_t b, float rb, opfor_los_t *out);
/* opfor_terrain_cover on table t, same result. */
opfor_cover_t opfor_tgrid_cover(const opfor_tgrid_t *g, const opfor_table_t *t, opfor_pt_t firer,
                                opfor_pt_t target, float r, int *feature);
/* Whether segment a-b meets no movement feature: then opfor_terrain_path would report its
 * length and nothing else. 1 when open for certain, 0 when the full query is needed. */
int opfor_tgrid_path_open(const opfor_tgrid_t *g, opfor_pt_t a, opfor_pt_t b);

#endif
