/* opfor/viktoria/patrol.h — Viktoria! Patrol Mode (XV): the initiative button, spotting of
 * new enemy forces, their placement from the players' front line, the non-player generals
 * rule, substitution from the game master's own collection, and scoring.
 *
 * Three layers, all deterministic, none allocating after the config is loaded:
 *   config  read-only: the odds and options a scenario sets in its `patrol:` block
 *           (docs/patrol-mode.md), the table, the collection of miniatures;
 *   state   fixed-size and memcpy-able (a simulated game copies it with its units): the
 *           ground the players control, features entered, spotting counters, fates;
 *   forces  the caller's own unit and figure arrays (core/unit.h), passed as pointers and
 *           counts, so the same functions serve the terminal game, the rules engine's
 *           initiative hook and the AI's simulations. Spawned units take free slots.
 * Rules: Viktoria! XV.A (initiative), XV.B (types, placement, generals, substitution,
 * scoring), VII (command), IV (unit types and qualities).
 */
#ifndef OPFOR_VIKTORIA_PATROL_H
#define OPFOR_VIKTORIA_PATROL_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/dice.h"
#include "opfor/error.h"
#include "opfor/geom.h"
#include "opfor/rng.h"
#include "opfor/scenario.h"
#include "opfor/terrain.h"
#include "opfor/unit.h"
#include "opfor/vocab.h"

/* Columns of the controlled-ground profile across the table. */
#define OPFOR_PATROL_COLS 128
/* Most miniature units in a collection, and their figures in total. */
#define OPFOR_PATROL_MAX_TEMPLATES 24
#define OPFOR_PATROL_MAX_TEMPLATE_FIGS 320
/* Most distance choices per spotted type. */
#define OPFOR_PATROL_MAX_DIST 6
/* Step, in inches, of every search along a ray or the table edge. */
#define OPFOR_PATROL_STEP 0.25f
/* "No unit" in patrol state tables. */
#define OPFOR_PATROL_NONE 0xFF

/* The five kinds of enemy force a spotting names (XV.B). ARTILLERY stands for "artillery
 * or machinegun": a gun or MG and its crew, or an observer team. */
typedef enum opfor_patrol_type {
    OPFOR_PT_INFANTRY = 0,
    OPFOR_PT_CAVALRY,
    OPFOR_PT_ARTILLERY,
    OPFOR_PT_HEADQUARTERS,
    OPFOR_PT_SUPPLY,
    OPFOR_PT_COUNT
} opfor_patrol_type_t;
/* "infantry", "cavalry", "artillery" (aliases "machinegun", "artillery_mg", "mg"),
 * "headquarters" ("hq"), "supply" ("supply_transport", "transport"). */
extern const opfor_name_t opfor_patrol_type_names[];
/* Words a player reads: "infantry", "cavalry", "artillery/MG", "headquarters",
 * "supply transport". Out of range: "?". */
const char *opfor_patrol_type_label(int type);
/* The patrol type a unit type stands for by default, or -1 (vehicles, walkers, ...). */
int opfor_patrol_type_of_unit(int unit_type);

/* One way to state a spotting's minimum distance, with its weight. */
typedef struct opfor_patrol_dist_opt {
    opfor_dice_t dice; /* e.g. 3d6+6 inches */
    uint32_t weight;   /* relative weight among the type's choices */
} opfor_patrol_dist_opt_t;

/* One unit of the game master's collection (XV.B substitution). */
typedef struct opfor_patrol_template {
    opfor_unit_t unit;  /* name, type, quality, formation, flags; first indexes cfg->figs,
                           count figures; side is set when spawned */
    uint8_t stands_for; /* bit (1 << opfor_patrol_type_t) for each spotted type it fills */
    uint8_t qualities;  /* bit (1 << opfor_quality_t) for each quality it portrays; 0: any */
    uint8_t copies;     /* how many of it may be on the table at once (1..8) */
    uint8_t pad;
} opfor_patrol_template_t;

/* Everything a scenario sets for Patrol Mode, with defaults filled. Read-only once loaded;
 * large (tens of KiB): allocate it. */
typedef struct opfor_patrol_config {
    /* sides and directions */
    int player;          /* index of the player side */
    int enemy;           /* index of the non-player side */
    opfor_vec_t forward; /* unit vector from the players toward enemy territory (axis) */
    opfor_table_t table; /* copy of the scenario's table */
    int nobjectives;
    opfor_objective_t objectives[OPFOR_MAX_OBJECTIVES];
    int turn_limit; /* the scenario's, 0 for none */
    int nterritory; /* points of the player side's starting territory, 0 for none */
    opfor_pt_t territory[OPFOR_POLY_MAX_PTS]; /* held from the start (XV.B) */
    /* front line (XV.B) */
    float front_line_gap;   /* widest gap joined between first-line units, inches (12) */
    int keep_passed_ground; /* 1: ground once behind the line stays controlled (default) */
    int hiding_terrain;     /* 1: un-entered woods and buildings stay outside the line */
    int allow_behind;       /* 1: the scenario lets enemies appear behind the lines */
    float edge_inset;       /* appearances at a table edge stand this far inside it (1) */
    int clear_ground;       /* 1 (default): a spotted unit and its generals are moved off ground
                               they may not stand on (Viktoria! rules version 2); 0: they stand
                               where they are drawn up, as rules version 1 placed them */
    /* initiative and spotting odds (docs/patrol-mode.md) */
    double side_weight[2]; /* weight per ready unit: [0] player side, [1] enemy side */
    double spot_base;      /* spotting chance of a press with no fresh ground */
    double spot_per_sqft;  /* added per square foot of fresh ground */
    double spot_max;       /* ceiling of the spotting chance */
    int spot_limit;        /* most units placed from spottings; 0 for no limit */
    uint32_t type_weight[OPFOR_PT_COUNT];
    uint32_t quality_weight[OPFOR_PT_COUNT][OPFOR_Q_COUNT];
    int ndist[OPFOR_PT_COUNT];
    opfor_patrol_dist_opt_t dist[OPFOR_PT_COUNT][OPFOR_PATROL_MAX_DIST];
    uint32_t dir_weight[OPFOR_COMPASS_COUNT];
    /* generals (XV.B) */
    int units_per_general;    /* 3: one general per three units or part of three */
    uint8_t general_quality;  /* opfor_quality_t */
    uint8_t general_mounted;  /* 1: generals ride */
    uint16_t general_weapons; /* opfor_weapon_t bits */
    char general_name[16];    /* names are "<general_name> <n>" */
    /* collection (XV.B substitution); ntemplates == 0: generic units, never short */
    int ntemplates;
    int nfigs;
    opfor_patrol_template_t templates[OPFOR_PATROL_MAX_TEMPLATES];
    opfor_figure_t figs[OPFOR_PATROL_MAX_TEMPLATE_FIGS];
} opfor_patrol_config_t;

/* Origin of a unit slot (opfor_patrol_state_t.origin). */
enum {
    OPFOR_PATROL_FROM_SCENARIO = 0, /* on the table or listed at the start */
    OPFOR_PATROL_FROM_SPOTTING,     /* placed after a spotting */
    OPFOR_PATROL_FROM_GENERALS,     /* a general brought on by the generals rule */
};
/* What became of a unit, for scoring (opfor_patrol_state_t.fate). */
enum {
    OPFOR_PATROL_FATE_NONE = 0,   /* still in the game, or destroyed in place */
    OPFOR_PATROL_FATE_DRIVEN_OFF, /* routed, fled or pushed off the table */
    OPFOR_PATROL_FATE_CAPTURED,   /* captured by the other side (supply, HQ) */
};

/* The mutable Patrol Mode state of one game. Pointer-free: copy it with memcpy. */
typedef struct opfor_patrol_state {
    uint16_t turn;      /* 1-based turn number */
    uint16_t presses;   /* presses of the initiative button so far */
    uint16_t spottings; /* spotting presses */
    uint16_t placed;    /* units placed from spottings */
    uint16_t refused;   /* spottings not placed: behind the line or no room */
    uint16_t unfilled;  /* spottings placed but with no miniatures free or no slot */
    uint8_t generals;   /* generals brought on by the generals rule */
    uint8_t pad[3];
    float area_at_spot;              /* controlled area (square inches) at the last spotting */
    uint64_t entered;                /* bit i: the players have entered hiding feature i */
    float ctrl[OPFOR_PATROL_COLS];   /* controlled depth per column; < 0: none */
    uint8_t origin[OPFOR_MAX_UNITS]; /* OPFOR_PATROL_FROM_* per unit slot */
    uint8_t tmpl[OPFOR_MAX_UNITS];   /* collection entry a unit came from, or NONE */
    uint8_t fate[OPFOR_MAX_UNITS];   /* OPFOR_PATROL_FATE_* per unit slot */
} opfor_patrol_state_t;

/* The caller's units and figures. A unit is in play when it is not OPFOR_UNIT_OFF_TABLE
 * and has a living figure; a caller whose engine removes units otherwise (rout) sets
 * OPFOR_UNIT_OFF_TABLE and the unit's fate. Spawning appends at nunits / nfigures. */
typedef struct opfor_patrol_forces {
    opfor_unit_t *units;     /* room for OPFOR_MAX_UNITS */
    opfor_figure_t *figures; /* room for OPFOR_MAX_FIGURES */
    int nunits;              /* unit slots in use */
    int nfigures;            /* figure slots in use */
} opfor_patrol_forces_t;

/* ---- config (patrol_config.c) ---- */

/* Fills cfg with the defaults of docs/patrol-mode.md for scenario sc (sides, table,
 * objectives and forward direction taken from it). */
void opfor_patrol_config_default(opfor_patrol_config_t *cfg, const opfor_scenario_t *sc);
/* Defaults, then the scenario's `patrol:` block (opfor_scenario_block(sc, "patrol"), may be
 * absent). file names the scenario in diagnostics. Returns 0, or OPFOR_EPARSE / OPFOR_ERANGE /
 * OPFOR_EFULL with diag (may be NULL) holding file:line:col and what was expected; OPFOR_EINVAL
 * when sc has no player side. */
int opfor_patrol_config_load(opfor_patrol_config_t *cfg, const opfor_scenario_t *sc,
                             const char *file, opfor_diag_t *diag);

/* ---- state and ground (patrol_place.c) ---- */

/* Starts the state for the opening position: turn 1, control from the player units'
 * positions and the player side's territory; records every existing unit as scenario. */
void opfor_patrol_init(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                       const opfor_patrol_forces_t *fo);
/* Updates the controlled ground and entered features from the player units' positions
 * now. Call after the players move (the terminal game calls it before every press). */
void opfor_patrol_observe(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                          const opfor_patrol_forces_t *fo);
/* Controlled area in square inches (columns times depth). */
float opfor_patrol_area(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps);
/* Whether point p is behind the players' line (controlled ground). */
int opfor_patrol_controlled(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                            opfor_pt_t p);
/* The furthest-forward point of the line (XV.B). Ties go to the plateau whose middle is
 * nearest the players' lateral centre. Returns 0, or OPFOR_ENOENT when nothing is
 * controlled (no player unit in play). */
int opfor_patrol_dot(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                     const opfor_patrol_forces_t *fo, opfor_pt_t *dot);

/* How a placement was decided. */
typedef enum opfor_patrol_rule {
    OPFOR_PLACE_FRONT = 0,      /* along the compass ray from the dot, outside the line */
    OPFOR_PLACE_FLANK,          /* flank: edge point traced back toward the enemy */
    OPFOR_PLACE_OFF_TABLE,      /* ray left the table: edge point traced back */
    OPFOR_PLACE_BEHIND,         /* behind the line, allowed by the scenario */
    OPFOR_PLACE_REFUSED_BEHIND, /* not placed: it would appear behind the line */
    OPFOR_PLACE_REFUSED_ROOM,   /* not placed: no point on the table qualifies */
    OPFOR_PLACE_REFUSED_NONE,   /* not placed: the players have no unit in play */
    OPFOR_PLACE_RULE_COUNT
} opfor_patrol_rule_t;
/* "front", "flank", "off_table", "behind", "refused_behind", "refused_no_room",
 * "refused_no_players". */
extern const opfor_name_t opfor_patrol_rule_names[];
/* One sentence for a rule ("in front of the line, along the compass ray"). */
const char *opfor_patrol_rule_text(int rule);
/* 1 when rule is a refusal (the spotted unit is not placed), and then *why (may be NULL)
 * gets the reason without the "refused: " of the rule text; 0 otherwise (*why ""). */
int opfor_patrol_rule_refused(int rule, const char **why);

/* Where a spotted unit appears. */
typedef struct opfor_patrol_placement {
    int placed;         /* 1 when point is valid */
    int rule;           /* opfor_patrol_rule_t */
    int direction;      /* opfor_compass_t asked for */
    float min_distance; /* inches asked for */
    float distance;     /* base-edge distance from point to the nearest player figure */
    opfor_pt_t dot;     /* the furthest-forward point used as centre */
    opfor_pt_t point;   /* where the enemy's nearest figure stands (table inches) */
    opfor_pt_t edge;    /* flank / off-table: where the ray met the table edge */
    float traced;       /* inches traced along the edge (0 for FRONT / BEHIND) */
} opfor_patrol_placement_t;

/* Where a unit spotted in compass direction dir at min_distance inches would appear
 * (XV.B placement). mounted: the unit may not stand in terrain closed to mounted figures.
 * Fills *out and returns 0 (placed or refused: see out->rule); OPFOR_EINVAL for a bad
 * direction or distance. */
int opfor_patrol_place(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                       const opfor_patrol_forces_t *fo, int dir, float min_distance, int mounted,
                       opfor_patrol_placement_t *out);

/* ---- presses (patrol_press.c) ---- */

/* What the generator needs to know about a position. */
typedef struct opfor_patrol_summary {
    int ready[2];      /* units able to act this turn: [0] players, [1] enemy */
    double fresh_sqft; /* ground newly controlled since the last spotting, square feet */
    int placed;        /* units placed from spottings so far */
} opfor_patrol_summary_t;

/* Builds the summary from the state and forces (ready: in play and not OPFOR_UNIT_ACTED). */
void opfor_patrol_summarize(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                            const opfor_patrol_forces_t *fo, opfor_patrol_summary_t *out);

/* What one press answers (XV.A). */
typedef enum opfor_patrol_press_kind {
    OPFOR_PRESS_PLAYER = 0, /* a player unit may act */
    OPFOR_PRESS_ENEMY,      /* a non-player unit acts */
    OPFOR_PRESS_SPOTTING,   /* new enemy forces are spotted */
    OPFOR_PRESS_END_TURN,   /* every unit has acted: the turn is over */
    OPFOR_PRESS_KIND_COUNT
} opfor_patrol_press_kind_t;
/* "player", "enemy", "spotting", "end_turn". */
extern const opfor_name_t opfor_patrol_press_names[];

/* A spotting: type, quality, minimum distance and direction (XV.B). */
typedef struct opfor_patrol_spot {
    int type;          /* opfor_patrol_type_t */
    int quality;       /* opfor_quality_t */
    int dist_opt;      /* index into cfg->dist[type] */
    opfor_dice_t dice; /* the distance as dice plus inches */
    int rolled;        /* the distance rolled, inches */
    int direction;     /* opfor_compass_t */
} opfor_patrol_spot_t;

typedef struct opfor_patrol_press {
    int kind;                 /* opfor_patrol_press_kind_t */
    opfor_patrol_spot_t spot; /* when kind == OPFOR_PRESS_SPOTTING */
} opfor_patrol_press_t;

/* Exact probabilities of one press from summary s (docs/patrol-mode.md). */
typedef struct opfor_patrol_probs {
    double kind[OPFOR_PRESS_KIND_COUNT];           /* sums to 1 */
    double spot;                                   /* chance of a spotting, before the side split */
    double type[OPFOR_PT_COUNT];                   /* given a spotting */
    double quality[OPFOR_PT_COUNT][OPFOR_Q_COUNT]; /* given the type */
    double dist[OPFOR_PT_COUNT][OPFOR_PATROL_MAX_DIST]; /* given the type */
    double direction[OPFOR_COMPASS_COUNT];              /* given a spotting */
} opfor_patrol_probs_t;

/* Fills *p for summary s. */
void opfor_patrol_probs(const opfor_patrol_config_t *cfg, const opfor_patrol_summary_t *s,
                        opfor_patrol_probs_t *p);
/* One press of the initiative button: a pure function of cfg, s and rng. With no unit ready
 * on either side the answer is END_TURN and nothing is drawn. Otherwise draws, in order: the
 * spotting test; then either the side (by weighted ready units) or, for a spotting, type,
 * quality, distance choice, direction, and the distance dice. */
void opfor_patrol_press(const opfor_patrol_config_t *cfg, const opfor_patrol_summary_t *s,
                        opfor_rng_t *rng, opfor_patrol_press_t *out);
/* "2 cavalry (veteran), 3d6+6 inches (rolled 14), NE". Returns buf. */
const char *opfor_patrol_spot_str(const opfor_patrol_spot_t *sp, char *buf, size_t n);

/* ---- spawning, substitution, generals (patrol_spawn.c) ---- */

/* What a spotting brought onto the table. */
typedef struct opfor_patrol_spawn {
    int unit;        /* slot of the new unit, -1 when none (refused or unfilled) */
    int tmpl;        /* collection entry used, -1 for a generic unit or none */
    int candidates;  /* entries that could have filled it (diced among) */
    int generals[4]; /* slots of generals that came with it */
    int ngenerals;
    int short_of; /* 1: no miniatures free (or no slot) for the spotted type */
} opfor_patrol_spawn_t;

/* Number of generals the non-player side should have for n counted units (XV.B): one per
 * cfg->units_per_general units or part of them; 0 for n <= 0. */
int opfor_patrol_generals_needed(const opfor_patrol_config_t *cfg, int n);
/* Counts, among the enemy units in play: units that count toward generals (not supply
 * transport, not generals) in *counted, and generals in *generals. */
void opfor_patrol_enemy_counts(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo,
                               int *counted, int *generals);
/* Brings on the unit for spotting sp at placement pl (which must be placed): picks the
 * collection entry (diced among the free entries standing for sp->type, those portraying
 * sp->quality first), copies it into free slots with the spotted quality, draws it up with
 * its front at pl->point facing the players, sets it ready to act, then applies the
 * generals rule (generals appear beside it). Fills *out. Returns 0, or OPFOR_EFULL (no
 * slot: out->short_of set, nothing changed) / OPFOR_ENOENT (no free miniatures). */
int opfor_patrol_spawn_unit(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                            opfor_patrol_forces_t *fo, const opfor_patrol_spot_t *sp,
                            const opfor_patrol_placement_t *pl, opfor_rng_t *rng,
                            opfor_patrol_spawn_t *out);
/* Moves figs (n of them, of a unit with flags uflags, drawn up facing facing) off ground they
 * may not stand on (opfor_vk_table_forbidden: a building closed to horses, guns and wagons, a
 * pond), keeping the formation: the nearest whole shift in half-inch steps up to a foot, away
 * from the way it faces first, each on the table. Figures on open ground are left as they are;
 * when no shift clears them they stay as they were. */
void opfor_patrol_clear_ground(const opfor_table_t *t, opfor_figure_t *figs, int n, unsigned uflags,
                               opfor_vec_t facing);
/* The whole answer to a spotting press: places it, spawns it when placed, counts it, and
 * restarts the fresh-ground count. *pl and *sw may be NULL. Returns as spawn_unit (0 when
 * refused). */
int opfor_patrol_resolve_spot(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                              opfor_patrol_forces_t *fo, const opfor_patrol_spot_t *sp,
                              opfor_rng_t *rng, opfor_patrol_placement_t *pl,
                              opfor_patrol_spawn_t *sw);
/* A new turn: every unit may act again (clears OPFOR_UNIT_ACTED and OPFOR_FIG_ACTED). */
void opfor_patrol_new_turn(opfor_patrol_state_t *ps, opfor_patrol_forces_t *fo);
/* Whether unit u is in play (on the table with a living figure). */
int opfor_patrol_in_play(const opfor_patrol_forces_t *fo, int u);

/* ---- scoring (patrol_score.c) ---- */

/* The points of XV.B for one position. */
typedef struct opfor_patrol_score {
    int survived;      /* player units surviving: 1 point each */
    int half_strength; /* of those, at half strength or more: +1 each */
    int unscathed;     /* of those, no more than a quarter hit: +1 each */
    int supply;        /* enemy supply transports captured or destroyed: 2 each */
    int hq_members;    /* enemy headquarters figures captured or killed: 2 each */
    int driven_off;    /* enemy units driven off or destroyed, generals included: 1 each */
    int objectives;    /* objective points held */
    int total;         /* the score */
    int lost;          /* 1: every player unit destroyed (the players lose) */
    int enemy_wiped;   /* 1: every enemy unit gone and none may still come */
} opfor_patrol_score_t;

/* Scores the position (XV.B). An objective is held when a living player figure stands
 * within its radius and no living enemy figure does. */
void opfor_patrol_score(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                        const opfor_patrol_forces_t *fo, opfor_patrol_score_t *out);

/* The verdict on a Patrol Mode game, from its score (docs/patrol-mode.md, "The verdict"):
 * lost when every player unit is lost; won when every enemy that may come has come and is
 * gone, or when the players hold an objective; drawn otherwise (the patrol lived to the end
 * without a decision). */
typedef enum opfor_patrol_verdict {
    OPFOR_PATROL_WON = 0,
    OPFOR_PATROL_LOST,
    OPFOR_PATROL_DRAWN,
} opfor_patrol_verdict_t;

/* The verdict on score s (opfor_patrol_verdict_t). */
int opfor_patrol_verdict(const opfor_patrol_score_t *s);
/* "won", "lost" or "drawn". */
const char *opfor_patrol_verdict_name(int verdict);
/* Why, in a few words: "every player unit is lost", "every enemy is gone and none may still
 * come", "the players hold an objective" or "neither side was beaten". */
const char *opfor_patrol_verdict_why(const opfor_patrol_score_t *s);

#endif
