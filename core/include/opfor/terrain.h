/* opfor/terrain.h — the table and its terrain: features, line of sight, cover, movement
 * costs along a path, and the gap rule for fire.
 *
 * A table is built once from a scenario and then shared read-only by every simulated game,
 * so it is a plain fixed-size struct (no pointers) that threads may read at once. Each
 * feature carries its effective properties (cover, sight, movement class, flags), filled
 * from its kind's defaults and overridable by the scenario (the scenario says what is hard
 * cover, what is fordable, what is impassable). The distances the rules set (how much
 * foliage sight passes, how near a base must be to line a wall, the base sizes) are the
 * ruleset's, held in the table's opfor_terrain_rules_t. Queries are deterministic and never
 * allocate. Those limits are compared with 1e-4 inch of slack, so a distance exactly on a
 * limit counts as within it.
 */
#ifndef OPFOR_TERRAIN_H
#define OPFOR_TERRAIN_H

#include <stdint.h>

#include "opfor/geom.h"
#include "opfor/vocab.h"

/* Most terrain features on one table. */
#define OPFOR_MAX_FEATURES 64

/* Default properties of a terrain kind (a scenario may override each per feature). */
typedef struct opfor_terrain_props {
    uint8_t cover; /* opfor_cover_t */
    uint8_t sight; /* opfor_sight_t */
    uint8_t move;  /* opfor_move_class_t */
    uint8_t flags; /* OPFOR_TF_* */
} opfor_terrain_props_t;

/* What a ruleset gives the terrain: its distances, in inches, and what each kind of terrain
 * does unless the scenario says otherwise. opfor_table_init zeroes them; whoever builds the
 * table fills them (a scenario load copies its opfor_scenario_rules_t's). */
typedef struct opfor_terrain_rules {
    float foliage_sight;      /* sight passes through at most this much foliage in total */
    float line_cover;         /* a base within this of a line feature (a wall, a hedge) lines
                                 it: sees and fires across it, and is covered by it against
                                 fire crossing it */
    opfor_base_radii_t radii; /* the ruleset's bases (opfor_terrain_los, opfor_figure_radius) */
    opfor_terrain_props_t kinds[OPFOR_TK_COUNT]; /* each kind's properties (index: kind) */
    float line_width[OPFOR_TK_COUNT];            /* a line feature's width when the scenario
                                                    gives none, inches (index: kind) */
} opfor_terrain_rules_t;
/* Most circles opfor_fire_lane_blocked accepts. */
#define OPFOR_GAP_MAX_CIRCLES 256

/* How a feature is drawn. */
typedef enum opfor_shape {
    OPFOR_SHAPE_AREA = 0, /* closed polygon: woods, building, hill, rough, ... */
    OPFOR_SHAPE_LINE,     /* open polyline with a width: wall, hedge, fence, road, river */
    OPFOR_SHAPE_COUNT
} opfor_shape_t;

/* What a feature does to sight. */
typedef enum opfor_sight {
    OPFOR_SIGHT_CLEAR = 0, /* see over or through it (walls, fences, rough ground) */
    OPFOR_SIGHT_FOLIAGE,   /* see up to rules.foliage_sight inches into or through it */
    OPFOR_SIGHT_BLOCKS,    /* blocks sight: areas unless an end is inside, lines unless an
                              end lines it (buildings, hills, hedges) */
    OPFOR_SIGHT_COUNT
} opfor_sight_t;
/* "clear", "foliage", "blocks". */
extern const opfor_name_t opfor_sight_names[];

/* How a feature affects movement. */
typedef enum opfor_move_class {
    OPFOR_MOVE_OPEN = 0,   /* no effect */
    OPFOR_MOVE_ROUGH,      /* half speed on foot, quarter mounted or transport */
    OPFOR_MOVE_OBSTACLE,   /* each crossing costs 1 inch of base movement (for areas: each
                              crossing of the boundary, e.g. through a building's window) */
    OPFOR_MOVE_IMPASSABLE, /* no figure may enter */
    OPFOR_MOVE_ROAD,       /* cancels rough ground; transport and limbered guns go double */
    OPFOR_MOVE_COUNT
} opfor_move_class_t;
/* "open", "rough", "obstacle", "impassable", "road". */
extern const opfor_name_t opfor_move_class_names[];

/* Feature flags. */
enum {
    OPFOR_TF_NO_MOUNTED = 1u << 0, /* impassable to mounted figures, transport and limbered
                                      guns (buildings, by default) */
    OPFOR_TF_HIDES = 1u << 1,      /* enemy units may hide in it (woods, buildings) */
};

/* One terrain feature. 252 bytes. */
typedef struct opfor_terrain_feature {
    uint8_t kind;                       /* opfor_terrain_kind_t */
    uint8_t shape;                      /* opfor_shape_t */
    uint8_t npts;                       /* points used in pts */
    uint8_t cover;                      /* opfor_cover_t given to figures in or behind it */
    uint8_t sight;                      /* opfor_sight_t */
    uint8_t move;                       /* opfor_move_class_t */
    uint16_t flags;                     /* OPFOR_TF_* */
    float width;                        /* full width of a line feature in inches; 0 for areas */
    opfor_pt_t lo, hi;                  /* bounding box, widened by width / 2 for lines */
    char name[32];                      /* scenario name, NUL-terminated, may be "" */
    opfor_pt_t pts[OPFOR_POLY_MAX_PTS]; /* polygon (closed implicitly) or polyline */
} opfor_terrain_feature_t;

_Static_assert(sizeof(opfor_terrain_feature_t) == 252, "opfor_terrain_feature_t is 252 bytes");

/* The table: its size, which edge is north, its terrain, and the ruleset's terrain rules.
 * 16256 bytes. */
typedef struct opfor_table {
    float width;       /* inches along x */
    float depth;       /* inches along y */
    uint8_t north;     /* opfor_table_north_t: which edge is north (default top) */
    uint8_t nfeatures; /* features used */
    uint8_t pad[2];    /* zero */
    opfor_terrain_feature_t features[OPFOR_MAX_FEATURES];
    opfor_terrain_rules_t rules; /* the ruleset's distances (zero until filled) */
} opfor_table_t;
_Static_assert(sizeof(opfor_table_t) == 16256, "opfor_table_t is 16256 bytes");

/* Result of opfor_terrain_los. */
typedef struct opfor_los {
    int visible;   /* 1 when the line is clear */
    int blocker;   /* index of the feature that blocks it; -1 when clear or blocked only by
                      too much foliage in total */
    float foliage; /* inches of the line inside foliage */
} opfor_los_t;

/* Result of opfor_terrain_path. */
typedef struct opfor_path {
    float length;   /* length of the path in inches */
    float rough;    /* inches through rough ground not on a road */
    float road;     /* inches on a road */
    int obstacles;  /* linear obstacles crossed (each crossing counts) */
    int impassable; /* 1 when the path enters terrain no figure may enter */
    int no_mounted; /* 1 when it enters terrain closed to mounted figures, transport and
                       limbered guns */
    int blocker;    /* lowest index of a feature making the path impassable (for anyone,
                       or for mounted figures), -1 when none */
} opfor_path_t;

/* Sets up an empty table of width x depth inches with the given north edge; its rules are
 * zero (no foliage seen through, no line lined, point bases) until the caller fills them. */
void opfor_table_init(opfor_table_t *t, float width, float depth, opfor_table_north_t north);

/* Fills f for a feature of the given kind and shape from n points (at most
 * OPFOR_POLY_MAX_PTS; at least 3 for areas, 2 for lines), with the kind's properties from
 * rules->kinds (NULL rules: none, clear, open, no flags) and its bounding box. name may be
 * NULL; it is cut to 31 bytes. width is the full width of a line (ignored for areas). Returns
 * 0, or OPFOR_EINVAL for a bad kind, shape, point count, or non-finite coordinate or width. */
int opfor_terrain_feature_init(opfor_terrain_feature_t *f, const opfor_terrain_rules_t *rules,
                               opfor_terrain_kind_t kind, opfor_shape_t shape, const char *name,
                               const opfor_pt_t *pts, int n, float width);

/* Copies f onto the table. Returns its index, or OPFOR_EFULL when the table is full. */
int opfor_table_add(opfor_table_t *t, const opfor_terrain_feature_t *f);

/* Whether point p lies in feature f: inside an area, or within width / 2 of a line. */
int opfor_feature_contains(const opfor_terrain_feature_t *f, opfor_pt_t p);
/* Whether the disc (c, r) overlaps feature f. */
int opfor_feature_circle_overlap(const opfor_terrain_feature_t *f, opfor_pt_t c, float r);
/* Whether segment a-b enters feature f: touches the area (crosses its outline or lies inside)
 * or comes within width / 2 of the line. Same answer as opfor_poly_seg_intersects /
 * opfor_polyline_seg_dist, with cheap box rejects first. */
int opfor_feature_seg_enters(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b);
/* Inches of segment a-b inside feature f (an area's inside, a line's band of width / 2). */
float opfor_feature_length_inside(const opfor_terrain_feature_t *f, opfor_pt_t a, opfor_pt_t b);

/* Line of sight between figure centres a and b whose bases have radii ra and rb:
 *  - a BLOCKS area (building, hill) blocks the line when it passes through it, unless a
 *    or b is inside that same area (a figure on the hill or in the building sees out);
 *  - a BLOCKS line (hedge) blocks a line crossing it unless the base at a or at b is
 *    within t->rules.line_cover of it (that figure lines the hedge);
 *  - FOLIAGE features (woods) together may hold at most t->rules.foliage_sight inches of the
 *    line.
 * Returns 1 when visible, 0 when blocked; fills *out when not NULL. */
int opfor_terrain_los_r(const opfor_table_t *t, opfor_pt_t a, float ra, opfor_pt_t b, float rb,
                        opfor_los_t *out);
/* opfor_terrain_los_r looking only at the features whose bits are set in mask (bit i: feature i):
 * the same answer whenever every feature left out does not affect sight or stays more than
 * 0.01 inch from segment a-b (a line feature: from its band of width / 2 around the centre line).
 * For callers that have culled the table already (core/terrain_grid.c). */
int opfor_terrain_los_in(const opfor_table_t *t, uint64_t mask, opfor_pt_t a, float ra,
                         opfor_pt_t b, float rb, opfor_los_t *out);
/* opfor_terrain_los_r for two figures on foot (radius t->rules.radii.foot). */
int opfor_terrain_los(const opfor_table_t *t, opfor_pt_t a, opfor_pt_t b, opfor_los_t *out);

/* Best cover the terrain gives a target base (centre target, radius r) against fire from
 * firer (any part of the base behind cover counts):
 *  - an area feature with cover that the base overlaps (woods soft, building hard, field
 *    works fortification) gives its cover whatever the direction;
 *  - a line feature with cover (wall hard, hedge or fence soft, field works) gives its
 *    cover when the base is within t->rules.line_cover of it and the line from firer to
 *    target crosses it.
 * Stores the index of the feature giving it in *feature (-1 for none) when not NULL. */
opfor_cover_t opfor_terrain_cover(const opfor_table_t *t, opfor_pt_t firer, opfor_pt_t target,
                                  float r, int *feature);

/* Movement along segment a-b: inches in rough ground (roads cancel it),
 * inches on roads, obstacles crossed, and whether it enters impassable terrain. The
 * caller applies the speeds. Returns 0, or OPFOR_EFULL if the path crosses more feature
 * edges than the internal buffer holds (over 1000: not a real table). */
int opfor_terrain_path(const opfor_table_t *t, opfor_pt_t a, opfor_pt_t b, opfor_path_t *out);
/* opfor_terrain_path looking only at the features listed in idx (n indices, ascending): the
 * same answer whenever every feature left out is open ground or lies wholly outside the box of
 * segment a-b (a caller that has already culled the table for a larger box). */
int opfor_terrain_path_in(const opfor_table_t *t, const uint8_t *idx, int n, opfor_pt_t a,
                          opfor_pt_t b, opfor_path_t *out);

/* Whether a figure centred at c would stand in impassable terrain: c inside an IMPASSABLE
 * feature, or, when mounted is non-zero (mounted figures, transport, limbered guns),
 * inside a NO_MOUNTED one. Returns the lowest such feature index, or -1. */
int opfor_terrain_impassable_at(const opfor_table_t *t, opfor_pt_t c, int mounted);

/* Index of a feature where enemy units could hide (OPFOR_TF_HIDES) containing p, or -1. */
int opfor_terrain_hiding_at(const opfor_table_t *t, opfor_pt_t p);

/* The gap rule for fire: whether fire from a to b is blocked by the figures in
 * circles[0..n): it may not pass through any base, nor between two bases less than gap
 * inches apart (the ruleset's narrowest gap). Bases containing a or b (the firer's and
 * the target's own) are ignored. Returns 1 blocked, 0 clear, OPFOR_ERANGE when n exceeds
 * OPFOR_GAP_MAX_CIRCLES. */
int opfor_fire_lane_blocked(opfor_pt_t a, opfor_pt_t b, const opfor_circle_t *circles, int n,
                            float gap);

#endif
