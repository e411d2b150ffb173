/* opfor/unit.h — the one model of units and figures that every ruleset shares.
 *
 * A game's mutable state is mostly these two arrays, and the rules engine copies whole
 * games thousands of times a second, so both structs are small, fixed-size, pointer-free
 * and memcpy-able: a figure is 16 bytes, a unit 48. A unit's figures are contiguous in the
 * figure array (first .. first + count - 1). Vocabulary (qualities, types, weapons,
 * skills, status) comes from opfor/vocab.h. Base sizes are the ruleset's
 * (opfor_base_radii_t); flags a ruleset alone gives meaning to use OPFOR_FIG_RULESET_*.
 */
#ifndef OPFOR_UNIT_H
#define OPFOR_UNIT_H

#include <stdint.h>

#include "opfor/geom.h"
#include "opfor/vocab.h"

/* Limits of one scenario or game. */
#define OPFOR_MAX_UNITS 32
#define OPFOR_MAX_FIGURES 256
/* Bytes in a unit's name, NUL included. */
#define OPFOR_UNIT_NAME_MAX 24

/* Figure flags. */
enum {
    OPFOR_FIG_ALIVE = 1u << 0,     /* still on the table (killed figures are kept, cleared) */
    OPFOR_FIG_WOUNDED = 1u << 1,   /* wounded */
    OPFOR_FIG_MOUNTED = 1u << 2,   /* on horseback now */
    OPFOR_FIG_PRONE = 1u << 3,     /* prone or crawling ("down") */
    OPFOR_FIG_RUNNING = 1u << 4,   /* running or galloping this turn */
    OPFOR_FIG_RULESET_0 = 1u << 5, /* the ruleset's own: core neither sets nor reads it */
    OPFOR_FIG_ACTED = 1u << 6,     /* has acted this turn */
    OPFOR_FIG_EQUIPMENT = 1u << 7, /* a gun, MG, wagon or vehicle model, not a person: not a
                                      target for personal weapons, tests as transport */
    OPFOR_FIG_HORSE = 1u << 8,     /* has a mount: may mount or dismount */
    OPFOR_FIG_BOUND = 1u << 9,     /* wounds bound by a medic */
    OPFOR_FIG_REAR = 1u << 10,     /* wounded and ordered to the rear */
    OPFOR_FIG_MOVED = 1u << 11,    /* moved this turn (moving fire, MG crews) */
};

/* Unit flags. */
enum {
    OPFOR_UNIT_LIMBERED = 1u << 0,        /* gun limbered: may move, may not fire */
    OPFOR_UNIT_SELF_COMMANDING = 1u << 1, /* never tests for command */
    OPFOR_UNIT_ACTED = 1u << 2,           /* has acted this turn */
    OPFOR_UNIT_IN_MELEE = 1u << 3,        /* in combat contact */
    OPFOR_UNIT_OFF_TABLE = 1u << 4,       /* not (yet, or any more) on the table */
    OPFOR_UNIT_GENERAL = 1u << 5,         /* a general's own unit (its command radius) */
    OPFOR_UNIT_LOADED = 1u << 6,          /* gun loaded / MG ready to fire again */
};

/* How a unit is drawn up when a scenario places it around one point. */
typedef enum opfor_formation {
    OPFOR_FORMATION_LINE = 0, /* one rank across the facing */
    OPFOR_FORMATION_COLUMN,   /* two abreast, ranks going back along the facing */
    OPFOR_FORMATION_SKIRMISH, /* one loose rank, 1.5 inches more between bases */
    OPFOR_FORMATION_COUNT
} opfor_formation_t;
/* "line", "column", "skirmish". */
extern const opfor_name_t opfor_formation_names[];

/* One figure. 16 bytes. */
typedef struct opfor_figure {
    opfor_pt_t pos;   /* centre of the base, table inches */
    uint8_t unit;     /* index of its unit */
    uint8_t quality;  /* opfor_quality_t */
    uint16_t weapons; /* opfor_weapon_t bits */
    uint16_t skills;  /* opfor_skill_t bits */
    uint16_t flags;   /* OPFOR_FIG_* */
} opfor_figure_t;

/* One unit. 48 bytes. */
typedef struct opfor_unit {
    char name[OPFOR_UNIT_NAME_MAX]; /* short name, NUL-terminated */
    opfor_vec_t facing;             /* unit vector the unit faces, table frame */
    uint16_t first;                 /* index of its first figure */
    uint16_t count;                 /* figures in the unit, alive or not */
    uint16_t strength;              /* figures at the start (for morale) */
    uint16_t flags;                 /* OPFOR_UNIT_* */
    uint8_t side;                   /* 0 or 1: index into the scenario's sides */
    uint8_t type;                   /* opfor_unit_type_t */
    uint8_t status;                 /* opfor_status_t */
    uint8_t quality;     /* the unit's stated quality (best of its figures if unstated) */
    uint8_t formation;   /* opfor_formation_t it was placed in */
    uint8_t reserved[3]; /* zero */
} opfor_unit_t;

_Static_assert(sizeof(opfor_figure_t) == 16, "opfor_figure_t must stay 16 bytes");
_Static_assert(sizeof(opfor_unit_t) == 48, "opfor_unit_t must stay 48 bytes");
_Static_assert(OPFOR_MAX_UNITS <= 256, "figure.unit is a uint8_t");

/* Radius of a figure's base from the ruleset's radii r: r->equipment for equipment,
 * r->mounted when mounted, otherwise r->foot. */
float opfor_figure_radius(const opfor_base_radii_t *r, const opfor_figure_t *f);
/* The figure's base as a circle (radii r as opfor_figure_radius). */
opfor_circle_t opfor_figure_circle(const opfor_base_radii_t *r, const opfor_figure_t *f);
static inline int opfor_figure_alive(const opfor_figure_t *f) {
    return (f->flags & OPFOR_FIG_ALIVE) != 0;
}

/* Living figures of unit u (figs is the whole figure array). */
int opfor_unit_alive(const opfor_unit_t *u, const opfor_figure_t *figs);
/* Living wounded figures of unit u. */
int opfor_unit_wounded(const opfor_unit_t *u, const opfor_figure_t *figs);
/* Best quality among u's living figures, or -1 when none lives. */
int opfor_unit_best_quality(const opfor_unit_t *u, const opfor_figure_t *figs);
/* Mean position of u's living figures in *out; returns how many were counted (0 leaves
 * *out untouched). */
int opfor_unit_centre(const opfor_unit_t *u, const opfor_figure_t *figs, opfor_pt_t *out);
/* Index (in figs) of u's living leader (OPFOR_S_LEADER) of best quality, an unwounded
 * one first, lowest index on ties; -1 when the unit has none. */
int opfor_unit_leader(const opfor_unit_t *u, const opfor_figure_t *figs);
/* Whether any living figure of u has all the skill bits in mask. */
int opfor_unit_has_skill(const opfor_unit_t *u, const opfor_figure_t *figs, unsigned mask);

/* Draws up figs[0..n) around centre, facing `facing` (need not be unit length; zero
 * means up the table), in formation, with bases of radii r (opfor_figure_radius): bases keep
 * a 0.5 inch gap (1.5 inches more for skirmishers), so figures on foot of radius 0.5 stand 1.5
 * inches apart centre to centre (skirmishers 3 inches). Equipment figures (a gun, a wagon)
 * stand at centre and the rest form up behind them. Only pos is written. */
void opfor_unit_place(const opfor_base_radii_t *r, opfor_figure_t *figs, int n, opfor_pt_t centre,
                      opfor_vec_t facing, opfor_formation_t formation);

#endif
