/* opfor/scene.h — a drawable picture of the table: shapes, units, labels and arrows.
 *
 * A ruleset draws its state into a scene (rulesets' `scene` hook) and every surface draws the
 * scene without knowing the rules: the mini-map of the e-ink card, the table page's SVG, a
 * terminal sketch. Plain fixed-size data (copied with memcpy, no pointers), in inches with the
 * origin at the table's south-west corner, x east and y north; a hex ruleset places its hexes
 * as polygons. Styles are a small closed list, so a surface maps each to its own look.
 */
#ifndef OPFOR_SCENE_H
#define OPFOR_SCENE_H

#include <stdint.h>

#define OPFOR_SCENE_MAX_SHAPES 96 /* terrain pieces, hexes, zones */
#define OPFOR_SCENE_MAX_VERTS 16  /* vertices per shape */
#define OPFOR_SCENE_MAX_UNITS 64  /* units, stands, counters */
#define OPFOR_SCENE_MAX_ARROWS 16 /* moves, fire, placements */
#define OPFOR_SCENE_MAX_LABELS 32 /* free text on the table */
#define OPFOR_SCENE_NAME_LEN 32   /* bytes of a name or label, NUL included */

/* How a shape is drawn. */
typedef enum opfor_scene_style {
    OPFOR_SCENE_OPEN = 0,   /* plain ground, a hex outline */
    OPFOR_SCENE_WOODS,      /* trees, foliage, orchards */
    OPFOR_SCENE_BUILDING,   /* houses, ruins, forts */
    OPFOR_SCENE_HILL,       /* raised ground */
    OPFOR_SCENE_WATER,      /* rivers, lakes, sea */
    OPFOR_SCENE_ROAD,       /* roads, tracks, rails */
    OPFOR_SCENE_LINEAR,     /* walls, hedges, fences */
    OPFOR_SCENE_ROUGH,      /* broken ground, marsh, crops */
    OPFOR_SCENE_OBJECTIVE,  /* an objective or victory area */
    OPFOR_SCENE_ZONE,       /* a deployment zone, a command radius (dashed) */
    OPFOR_SCENE_HEDGE,      /* hedges, bocage: a heavy dashed line (LINEAR is a solid wall) */
    OPFOR_SCENE_FENCE,      /* fences, low obstacles: a light dashed line */
    OPFOR_SCENE_WORKS,      /* trenches, field works: a heavy long-dashed line */
    OPFOR_SCENE_IMPASSABLE, /* cliffs, deep water, no way through: cross-hatched */
    OPFOR_SCENE_STYLE_COUNT
} opfor_scene_style_t;

/* A point in inches from the south-west corner. */
typedef struct opfor_scene_pt {
    float x, y;
} opfor_scene_pt_t;

/* One shape: an area (closed) or a line. */
typedef struct opfor_scene_shape {
    uint8_t style;                   /* opfor_scene_style_t */
    uint8_t closed;                  /* 1: an area, 0: a line */
    uint8_t n;                       /* vertices used, 2..OPFOR_SCENE_MAX_VERTS */
    uint8_t pad;                     /* zero */
    char name[OPFOR_SCENE_NAME_LEN]; /* "Farmhouse", "" when unnamed */
    opfor_scene_pt_t v[OPFOR_SCENE_MAX_VERTS];
} opfor_scene_shape_t;

/* Unit flags. */
enum {
    OPFOR_SCENE_U_AI = 1u << 0,      /* the side the AI plays: drawn filled */
    OPFOR_SCENE_U_ACTING = 1u << 1,  /* the unit the current order is for: ringed */
    OPFOR_SCENE_U_TARGET = 1u << 2,  /* that order's target: cross-haired */
    OPFOR_SCENE_U_SPOTTED = 1u << 3, /* newly arrived: dashed */
    OPFOR_SCENE_U_SHAKEN = 1u << 4,  /* wavering, disordered, shaken: marked */
    OPFOR_SCENE_U_HIDDEN = 1u << 5   /* the viewer knows only that something is there */
};

/* One unit (or stand, or counter) as a rectangle turned to its facing. */
typedef struct opfor_scene_unit {
    opfor_scene_pt_t at;             /* centre */
    float w, d;                      /* frontage and depth, inches (0: a dot) */
    float facing;                    /* degrees clockwise from north */
    uint8_t side;                    /* 0..7 */
    uint8_t flags;                   /* OPFOR_SCENE_U_* */
    uint16_t id;                     /* the ruleset's unit index */
    char name[OPFOR_SCENE_NAME_LEN]; /* label */
} opfor_scene_unit_t;

/* Arrow kinds. */
typedef enum opfor_scene_arrow_kind {
    OPFOR_SCENE_MOVE = 0, /* a move: from the unit to where it should stop */
    OPFOR_SCENE_FIRE,     /* fire: from the firer to the target */
    OPFOR_SCENE_PLACE     /* a placement: from the table edge to where a unit appears */
} opfor_scene_arrow_kind_t;

typedef struct opfor_scene_arrow {
    uint8_t kind; /* opfor_scene_arrow_kind_t */
    opfor_scene_pt_t from, to;
} opfor_scene_arrow_t;

typedef struct opfor_scene_label {
    opfor_scene_pt_t at;
    char text[OPFOR_SCENE_NAME_LEN];
} opfor_scene_label_t;

/* The whole picture. Zero it before filling. */
typedef struct opfor_scene {
    float width, depth; /* the table, inches */
    uint16_t nshapes, nunits, narrows, nlabels;
    opfor_scene_shape_t shapes[OPFOR_SCENE_MAX_SHAPES]; /* drawn first, in order */
    opfor_scene_unit_t units[OPFOR_SCENE_MAX_UNITS];
    opfor_scene_arrow_t arrows[OPFOR_SCENE_MAX_ARROWS];
    opfor_scene_label_t labels[OPFOR_SCENE_MAX_LABELS];
} opfor_scene_t;

/* "open", "woods", "building", "hill", "water", "road", "linear", "rough", "objective",
 * "zone", "hedge", "fence", "works", "impassable"; "?" out of range. */
const char *opfor_scene_style_name(int style);
/* The style that draws a terrain kind of core's vocabulary (OPFOR_TK_*, vocab.h); open for a
 * kind out of range. */
uint8_t opfor_scene_terrain_style(int kind);
/* Appends a unit, a shape, an arrow or a label; OPFOR_EFULL when the scene has no room (the
 * scene is unchanged). */
int opfor_scene_add_unit(opfor_scene_t *s, const opfor_scene_unit_t *u);
int opfor_scene_add_shape(opfor_scene_t *s, const opfor_scene_shape_t *sh);
int opfor_scene_add_arrow(opfor_scene_t *s, int kind, opfor_scene_pt_t from, opfor_scene_pt_t to);
int opfor_scene_add_label(opfor_scene_t *s, opfor_scene_pt_t at, const char *text);

#endif
