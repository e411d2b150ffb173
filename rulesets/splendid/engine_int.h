/* rulesets/splendid/engine_int.h — A Splendid Victory!'s rules engine: the game context read
 * from a scenario (options, base sizes, the opening position) and the fixed-size state every
 * search copies with one memcpy (docs/splendid.md, sections 1-4), with the functions the
 * engine's files share. A unit is kept as its formation's rectangle: the centre of its front
 * edge, its facing, its width in stands (files) and its stands by type; the stands' places
 * follow from the formation (docs/splendid.md 9, "The engine's model").
 */
#ifndef OPFOR_SPLENDID_ENGINE_INT_H
#define OPFOR_SPLENDID_ENGINE_INT_H

#include <stdint.h>

#include "opfor/geom.h"
#include "opfor/rng.h"
#include "opfor/ruleset.h"
#include "opfor/scenario.h"
#include "splendid_int.h"

#define SV_MAX_UNITS 32
#define SV_MAX_ACTIONS 640
#define SV_DEFAULT_TURNS 30 /* design: a game without a scenario turn limit ends after these */

/* Unit types (§How do stands form a unit?). */
enum {
    SV_PM = 0,   /* Pike and Musket: a pikes, n - a muskets */
    SV_FOOT,     /* Foot: a hand-to-hand weapons, n - a light weapons */
    SV_HEAVY,    /* Heavy Mounted */
    SV_MOUNTED,  /* Mounted (SV_F_LANCE for lancers) */
    SV_DRAGOON,  /* Dragoons: mounted unless SV_F_DISMOUNTED */
    SV_FRAME,    /* a frame gun */
    SV_GUN,      /* regular artillery */
    SV_HEAVYGUN, /* heavy artillery */
    SV_COMMANDER,
    SV_SUB, /* a Sub-Commander */
    SV_KIND_COUNT
};

/* Formations (§Defensive Block Formation … §Bent Formations). */
enum {
    SV_BLOCK = 0,
    SV_DEFBLOCK,
    SV_LINE,
    SV_OPEN,
    SV_COLUMN,
    SV_LIMBERED,
    SV_UNLIMBERED,
    SV_FORM_COUNT
};

/* Unit flags. */
enum {
    SV_F_GONE = 1u << 0,           /* no stand left (lost, routed, retreated, removed) */
    SV_F_RED = 1u << 1,            /* fired this game turn (red marker) */
    SV_F_ACTED = 1u << 2,          /* done in this movement phase */
    SV_F_REACTED = 1u << 3,        /* reacted in this enemy movement phase */
    SV_F_RETHROWN = 1u << 4,       /* used its re-throw this hand-to-hand phase */
    SV_F_LANCE = 1u << 5,          /* lance-armed Mounted */
    SV_F_DISMOUNTED = 1u << 6,     /* dragoons on foot */
    SV_F_DECIDED = 1u << 7,        /* asked in the current step (fire, join-in, attack) */
    SV_F_FORMED = 1u << 8,         /* changed formation in this movement phase */
    SV_F_MOVED = 1u << 9,          /* manoeuvred in this movement phase */
    SV_F_CHARGE_FAILED = 1u << 10, /* failed a charge test this phase */
    SV_F_FLOWED = 1u << 11 /* flowed around friends this phase: no change of formation after */
};

/* One unit. */
typedef struct sv_unit {
    float x, y;      /* centre of the front edge, inches */
    float fx, fy;    /* facing, a unit vector */
    uint8_t kind;    /* SV_PM .. */
    uint8_t side;    /* 0 or 1 */
    uint8_t form;    /* SV_BLOCK .. */
    uint8_t files;   /* stands in the front rank */
    uint8_t n;       /* stands now */
    uint8_t n0;      /* stands at the start */
    uint8_t a;       /* stands of the unit's first stand type (pikes; hand-to-hand) */
    uint8_t quality; /* 0 raw, 1 regular, 2 veteran */
    uint8_t markers; /* green hit markers */
    uint8_t target;  /* declared fire target or attack target, 0xFF none */
    uint8_t size4;   /* its size at the start of phase 4 */
    uint8_t cmd10;   /* command units: command range in tenths of an inch */
    uint16_t flags;  /* SV_F_* */
    uint16_t pad;
} sv_unit_t;

/* Phases and steps (docs/splendid.md 3.1). */
enum {
    SV_P_INITIATIVE = 0, /* chance: both throw 2D6 */
    SV_P_PIVOT,          /* decision: a unit that could fire pivots first, or not */
    SV_P_FIRE,           /* decision: each firing unit names a target or holds */
    SV_P_FIRE_ROLL,      /* chance: all fire dice */
    SV_P_JOIN,           /* decision: join in or try to hold back */
    SV_P_MELEE,          /* decision: each unit in contact names the enemy it attacks */
    SV_P_RETHROW,        /* decision: keep the attack's dice or re-throw them */
    SV_P_MOVE,           /* decision: the moving side's next action */
    SV_P_REACT,          /* decision: the charged side's reaction */
    SV_P_INTERCEPT,      /* decision: a mounted unit intercepts the moving unit, or not */
    SV_P_BREAK,          /* decision: the charger's break-through (stop, move or charge) */
    SV_P_OVER
};

/* Results. */
enum { SV_R_NONE = 0, SV_R_DRAW, SV_R_MINOR, SV_R_SPLENDID };

/* The game state: plain memory, one memcpy. */
typedef struct sv_state {
    opfor_rng_t rng;      /* the game's dice */
    uint8_t phase;        /* SV_P_* */
    uint8_t side;         /* the side deciding now */
    uint8_t init;         /* the side with the initiative */
    uint8_t nunits;       /* units in u */
    uint8_t turn;         /* game turn, from 1 */
    uint8_t result;       /* SV_R_* */
    uint8_t winner;       /* side gaining the victory (SV_R_MINOR, SV_R_SPLENDID) */
    uint8_t conceded;     /* 1 + the side that conceded, 0 none */
    uint8_t mphase;       /* 0: initiative manoeuvre, 1: non-initiative manoeuvre */
    uint8_t cur;          /* the unit being asked (fire, join, melee, re-throw) */
    uint8_t charger;      /* SV_P_REACT: the charging unit */
    uint8_t charged;      /* SV_P_REACT: the charged unit */
    uint8_t hits;         /* SV_P_RETHROW: the attack's hits */
    uint8_t retreating;   /* a side that has voluntarily retreated a unit this phase */
    uint8_t cut[2];       /* per side: sub-commanders (bit 0) and commander (bit 1) removed */
    uint8_t charge_far;   /* SV_P_REACT: the charger came from more than 9" */
    uint8_t breaking;     /* the pending charge is a break-through charge */
    uint8_t split_k;      /* SV_P_MELEE, SV_P_RETHROW: attacks the unit splits its stands into */
    uint8_t split_i;      /* the attack being thrown, 0 .. split_k - 1 */
    opfor_action_t pend;  /* SV_P_INTERCEPT: the moving unit's action, suspended */
    float pend_t;         /* how far along its path it has come, 0..1 */
    uint32_t declined;    /* units that let this move pass (bit per unit) */
    uint32_t split_left;  /* enemy units the attacking unit has still to attack */
    uint16_t tally[2];    /* stands removed for any reason, per side */
    uint16_t stands0[2];  /* stands at the start, per side */
    uint32_t activations; /* decisions taken */
    sv_unit_t u[SV_MAX_UNITS];
    uint8_t table; /* 1: a table reports its dice: every attack waits to be asked (in the
                      struct's tail padding: the layout before it stays) */
} sv_state_t;

_Static_assert(sizeof(sv_state_t) <= 16384, "a state copies with one memcpy in at most 16 KiB");

/* Options a scenario sets (docs/splendid.md 7). */
typedef struct sv_options {
    int unit_quality;        /* §Variable Unit Quality on */
    int one_stand_rout;      /* R-5 option one_stand_survivor: rout */
    float contact_tolerance; /* R-24, inches */
    int breakpoints;         /* 0: the scenario's victory conditions replace them */
    int variable_command;    /* §Variable Command Quality: 1D6 a command stand at the start */
} sv_options_t;

/* The game context: everything a game reads and never changes. */
typedef struct sv_ctx {
    char name[64];
    float width, depth;         /* table, inches */
    float base_w[4], base_d[4]; /* per class (foot, mounted, artillery, command), inches */
    int turn_limit;             /* the game ends after this turn (a draw) */
    sv_options_t opt;
    opfor_sv_model_t model; /* the calculator's numbers (model.yaml) */
    char names[SV_MAX_UNITS][OPFOR_UNIT_NAME_MAX];
    char side_names[2][32]; /* the scenario's sides, for people */
    uint8_t side_player[2]; /* 1: people play the side (the scenario's `player`) */
    sv_state_t start;       /* the opening position (phase SV_P_INITIATIVE) */
    opfor_table_t table;    /* the terrain (docs/splendid.md 5) */
} sv_ctx_t;

/* Action kinds. */
enum {
    SV_A_ROLL = 1,  /* chance: throw what the node throws */
    SV_A_FIRE,      /* unit fires at target */
    SV_A_HOLD,      /* unit holds its fire / does nothing / no reaction */
    SV_A_JOIN,      /* unit joins in */
    SV_A_HOLDBACK,  /* unit tries to hold back */
    SV_A_ATTACK,    /* unit attacks target */
    SV_A_KEEP,      /* keep the attack's dice */
    SV_A_RETHROW,   /* re-throw them */
    SV_A_MOVE,      /* unit manoeuvres to (x, y) facing (x2, y2); sub: 1 double time,
                       2 about-face, 3 side-step or step back, 4 pivot */
    SV_A_FORM,      /* unit changes formation to sub with arg files */
    SV_A_CHARGE,    /* unit charges target */
    SV_A_DISENGAGE, /* unit disengages to (x, y) facing (x2, y2) */
    SV_A_LIMBER,    /* artillery limbers up (sub 1) or unlimbers (sub 0) facing (x2, y2) */
    SV_A_PROLONG,   /* artillery prolongs to (x, y) */
    SV_A_MOUNT,     /* dragoons mount (sub 1) or dismount (sub 0) */
    SV_A_RETREAT,   /* unit retreats voluntarily */
    SV_A_DONE,      /* the side's movement phase ends */
    SV_A_DEFFIRE,   /* reaction 6: defensive fire at the charger */
    SV_A_CONCEDE,   /* the deciding side concedes */
    SV_A_RECOIL,    /* reaction 2: a charged mounted unit recoils 12" */
    SV_A_EVADE,     /* reaction 3: a charged foot unit in open order evades 6" */
    SV_A_HASTY,     /* reaction 4: a hasty defensive block */
    SV_A_ABOUTFACE, /* reaction 5: an emergency about-face */
    SV_A_INTERCEPT  /* reaction 1: unit intercepts (or counter-charges) target */
};

/* ---- geometry (engine_geom.c) */
/* The unit's rectangle: front-left, front-right, rear-right, rear-left (sv_rect); the same
 * for the unit placed at anchor p facing f (sv_rect_at); its class (0 foot, 1 mounted, 2
 * artillery, 3 command), ranks, width and depth. Inline: every check places units. */
static inline int sv_class(const sv_unit_t *u) {
    if (u->kind == SV_COMMANDER || u->kind == SV_SUB)
        return 3;
    if (u->kind == SV_FRAME || u->kind == SV_GUN || u->kind == SV_HEAVYGUN)
        return 2;
    if (u->kind == SV_HEAVY || u->kind == SV_MOUNTED ||
        (u->kind == SV_DRAGOON && !(u->flags & SV_F_DISMOUNTED)))
        return 1;
    return 0;
}

static inline int sv_ranks(const sv_unit_t *u) {
    int f = u->files ? u->files : 1;
    return (u->n + f - 1) / f;
}

static inline float sv_width(const sv_ctx_t *c, const sv_unit_t *u) {
    int f = u->files ? u->files : 1;
    return (float)f * c->base_w[sv_class(u)];
}

static inline float sv_depth(const sv_ctx_t *c, const sv_unit_t *u) {
    return (float)sv_ranks(u) * c->base_d[sv_class(u)];
}

static inline void sv_rect_at(const sv_ctx_t *c, const sv_unit_t *u, opfor_pt_t p, opfor_vec_t f,
                              opfor_pt_t out[4]) {
    float hw = sv_width(c, u) * 0.5f, d = sv_depth(c, u);
    opfor_vec_t r = opfor_pt(f.y, -f.x); /* to the unit's right */
    out[0] = opfor_pt(p.x - r.x * hw, p.y - r.y * hw);
    out[1] = opfor_pt(p.x + r.x * hw, p.y + r.y * hw);
    out[2] = opfor_pt(out[1].x - f.x * d, out[1].y - f.y * d);
    out[3] = opfor_pt(out[0].x - f.x * d, out[0].y - f.y * d);
}

static inline void sv_rect(const sv_ctx_t *c, const sv_unit_t *u, opfor_pt_t out[4]) {
    sv_rect_at(c, u, opfor_pt(u->x, u->y), opfor_pt(u->fx, u->fy), out);
}

/* Shortest distance between two rectangles (0 when they overlap). */
float sv_rect_dist(const opfor_pt_t a[4], const opfor_pt_t b[4]);
/* Whether two rectangles overlap by more than tol. */
int sv_rect_overlap(const opfor_pt_t a[4], const opfor_pt_t b[4], float tol);
/* Whether the segment p-q passes through the inside of rectangle r (shrunk by tol). */
int sv_seg_hits_rect(opfor_pt_t p, opfor_pt_t q, const opfor_pt_t r[4], float tol);
float sv_unit_dist(const sv_ctx_t *c, const sv_unit_t *a, const sv_unit_t *b);
/* Whether the distance is at most limit (a cheap bound first). */
int sv_rect_near(const opfor_pt_t a[4], const opfor_pt_t b[4], float limit);
int sv_unit_near(const sv_ctx_t *c, const sv_unit_t *a, const sv_unit_t *b, float limit);
int sv_in_contact(const sv_ctx_t *c, const sv_unit_t *a, const sv_unit_t *b);
/* §Can a unit be outflanked?: a's front edge touches a rear corner of d, or a front corner
 * of a touches d's rear edge; never a defensive block. */
int sv_outflanks(const sv_ctx_t *c, const sv_unit_t *a, const sv_unit_t *d);
/* The rectangle lies on the table. */
int sv_on_table(const sv_ctx_t *c, const opfor_pt_t r[4]);
/* Whether unit u (its class and state) may stand with rectangle r: no terrain it is
 * prohibited from overlaps r (docs/splendid.md 5). */
int sv_terrain_ok(const sv_ctx_t *c, const sv_unit_t *u, const opfor_pt_t r[4]);
/* The terrain type (SV_T_*) of a feature, by its kind (docs/splendid.md 5). */
int sv_terrain_type(const opfor_terrain_feature_t *f);
/* The model's terrain numbers for a unit with rectangle r: the fire dice added against it (the
 * fewest of the features it overlaps, open's when none) and the CV added to its foot stands
 * (the most). */
int sv_terrain_fire_dice(const sv_ctx_t *c, const opfor_pt_t r[4]);
int sv_terrain_cv(const sv_ctx_t *c, const opfor_pt_t r[4]);
/* Inches of allowance unit u spends moving its front centre from a to b: each inch inside a
 * feature at its type's move_factor (road types only for road columns), open's elsewhere. */
float sv_terrain_cost(const sv_ctx_t *c, const sv_unit_t *u, opfor_pt_t a, opfor_pt_t b);
/* The least and the most sv_terrain_cost can charge u an inch: open's factor plus every
 * cheaper (costlier) feature's difference (bounds that spare working out the paths whose
 * outcome they already decide). */
void sv_terrain_bounds(const sv_ctx_t *c, const sv_unit_t *u, float *least, float *most);
/* Whether the segment a-b crosses terrain prohibited to u. */
int sv_terrain_path_ok(const sv_ctx_t *c, const sv_unit_t *u, opfor_pt_t a, opfor_pt_t b);
/* Whether terrain that prohibits fire lies on the line a-b (a feature holding either end
 * does not count, R-17). */
int sv_terrain_blocks_fire(const sv_ctx_t *c, opfor_pt_t a, opfor_pt_t b);

/* The box around a rectangle (least x, most x, least y, most y), and the gap between two
 * boxes along x or y: a lower bound of the rectangles' distance. */
static inline void sv_box(const opfor_pt_t r[4], float b[4]) {
    float xl = r[0].x, xh = r[0].x, yl = r[0].y, yh = r[0].y;
    for (int i = 1; i < 4; i++) {
        xl = r[i].x < xl ? r[i].x : xl;
        xh = r[i].x > xh ? r[i].x : xh;
        yl = r[i].y < yl ? r[i].y : yl;
        yh = r[i].y > yh ? r[i].y : yh;
    }
    b[0] = xl;
    b[1] = xh;
    b[2] = yl;
    b[3] = yh;
}
static inline float sv_box_gap(const float a[4], const float b[4]) {
    float g = a[0] - b[1];
    g = b[0] - a[1] > g ? b[0] - a[1] : g;
    g = a[2] - b[3] > g ? a[2] - b[3] : g;
    return b[2] - a[3] > g ? b[2] - a[3] : g;
}
/* The separating-axis test of sv_rect_overlap without the boxes' quick refusal. */
int sv_rect_sat(const opfor_pt_t a[4], const opfor_pt_t b[4], float tol);
/* sv_rect_dist and sv_rect_near with the boxes' gap already known (the same results). */
float sv_rect_dist_gap(const opfor_pt_t a[4], const opfor_pt_t b[4], float gap);
int sv_rect_near_gap(const opfor_pt_t a[4], const opfor_pt_t b[4], float gap, float limit);

/* Every unit's rectangle, its box and the enemy units it touches, worked out once for a
 * state that does not move while a list or a step reads it (the same numbers sv_rect and
 * sv_in_contact give: only the repetition goes). */
typedef struct sv_geo {
    opfor_pt_t r[SV_MAX_UNITS][4];
    float box[SV_MAX_UNITS][4];
    uint32_t contact[SV_MAX_UNITS]; /* alive enemy units in contact; 0 for the gone */
    uint32_t alive;                 /* units with stands */
} sv_geo_t;
void sv_geo_build(const sv_ctx_t *c, const sv_state_t *s, sv_geo_t *g);
/* Unit ui changed in s (a copy being tried): its rectangle and contacts again. */
void sv_geo_unit(const sv_ctx_t *c, const sv_state_t *s, sv_geo_t *g, int ui);

/* ---- rules shared by the files (engine_rules.c) */
int sv_is_foot(const sv_unit_t *u);                       /* foot class now */
int sv_is_mounted(const sv_ctx_t *c, const sv_unit_t *u); /* mounted now (command: model) */
int sv_is_art(const sv_unit_t *u);
int sv_is_cmd(const sv_unit_t *u);
static inline int sv_alive(const sv_unit_t *u) {
    return !(u->flags & SV_F_GONE) && u->n > 0;
}
int sv_muskets(const sv_unit_t *u); /* musket stands */
int sv_pikes(const sv_unit_t *u);
int sv_open(const sv_unit_t *u); /* open order (artillery, command always) */
int sv_in_command(const sv_ctx_t *c, const sv_state_t *s, int u);
int sv_engaged(const sv_ctx_t *c, const sv_state_t *s, int u); /* in contact with an enemy */
int sv_form_ok(const sv_unit_t *u, int form);                  /* u may be in form at its size */
int sv_default_files(const sv_unit_t *u, int form);
/* Fire dice of u at t (muskets or guns, target modifiers), 0 when it may not fire at it. */
int sv_fire_dice(const sv_ctx_t *c, const sv_state_t *s, int u, int t);
/* The same with the state's geometry already worked out. */
int sv_fire_dice_g(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int u, int t);
/* Modified combat value of one stand of u of stand type `first` (1) or second (0) against t. */
int sv_cv(const sv_ctx_t *c, const sv_unit_t *u, int first, const sv_unit_t *t);
/* Allowances, inches: move, charge (0: cannot). */
float sv_move_allow(const sv_unit_t *u);
float sv_charge_allow(const sv_unit_t *u);
/* Throws n dice needing `need` or less; returns the successes. */
int sv_roll(sv_state_t *s, int n, int need);
/* Removes k stands of u (never below 0); adds them to the tally; marks it gone at 0. */
void sv_remove(sv_state_t *s, int u, int k);
/* The unit's stands after a formation's rectangle shrinks (files kept at most n). */
void sv_refit(sv_unit_t *u);

/* ---- phases (engine_phase.c) */
void sv_start_fire(const sv_ctx_t *c, sv_state_t *s);
void sv_resolve_fire(const sv_ctx_t *c, sv_state_t *s);
void sv_start_join(const sv_ctx_t *c, sv_state_t *s);
int sv_join_dist(const sv_ctx_t *c, const sv_state_t *s, int u, int *enemy, float *d);
void sv_after_join(const sv_ctx_t *c, sv_state_t *s);
void sv_next_melee(const sv_ctx_t *c, sv_state_t *s);
/* u attacks t with all its stands, or (t < 0) splits them between every enemy it touches;
 * 1 when a re-throw decision waits. */
int sv_attack(const sv_ctx_t *c, sv_state_t *s, int u, int t);
/* After an attack's dice: keep them (again 0) or re-throw them all (§Re-throws). */
void sv_rethrow(const sv_ctx_t *c, sv_state_t *s, int again);
void sv_remove_losses(const sv_ctx_t *c, sv_state_t *s);
void sv_victory(const sv_ctx_t *c, sv_state_t *s);
void sv_start_move(const sv_ctx_t *c, sv_state_t *s, int mphase);
/* Advances past automatic steps until a decision, a chance node or the end. */
void sv_settle(const sv_ctx_t *c, sv_state_t *s);
/* The same, when the firing step's units of the deciding side before `from` are known not to
 * want asking (the state reached by the engine, one unit's declaration later: nobody moved). */
void sv_settle_from(const sv_ctx_t *c, sv_state_t *s, int from);

/* ---- movement (engine_move.c) */
int sv_move_legal(const sv_ctx_t *c, const sv_state_t *s, opfor_action_t *out, int max);
int sv_move_check(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a);
int sv_move_apply(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a);
/* §The Firing Procedure: the pivots before firing (left, right, the full angle, R-18) that
 * stand clear and give unit u a target it has not now, into f (facings); their count. */
int sv_fire_pivots(const sv_ctx_t *c, const sv_state_t *s, int u, opfor_vec_t f[2]);
int sv_fire_pivots_g(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int u,
                     opfor_vec_t f[2]);
int sv_react_legal(const sv_ctx_t *c, const sv_state_t *s, opfor_action_t *out, int max);
int sv_react_apply(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a);
int sv_intercept_legal(const sv_ctx_t *c, const sv_state_t *s, opfor_action_t *out, int max);
int sv_intercept_apply(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a);
int sv_break_legal(const sv_ctx_t *c, const sv_state_t *s, opfor_action_t *out, int max);
int sv_break_apply(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a);

/* §Bounce-Through: the unit gun g's misses at `first` bounce on to, or -1. */
int sv_bounce_target(const sv_ctx_t *c, const sv_state_t *s, int g, int first);

/* ---- the table's own dice (engine_table.c) */
/* Puts dice[n] (n <= 4, each 1..6) in the engine's hand: the next n dice the game's stream
 * throws are these (a child stream of the game's own); OPFOR_ERANGE when none is found. */
int sv_table_load(sv_state_t *s, const int *dice, int n);
/* The die the game's stream throws next (nothing changes). */
int sv_table_peek(const sv_state_t *s);
/* The score a unit's fire needs (its quality). */
int sv_table_fire_need(const sv_ctx_t *c, const sv_unit_t *u);
/* At the fire phase's dice node: unit ui's declared fire thrown with d[n] (a gun's bounce-through
 * with b[nb], or the game's dice when nb is 0); the hits on its target and on the bounce target
 * (*bt, -1 none) into hits; the node passed when no declared fire is left. */
int sv_table_fire(const sv_ctx_t *c, sv_state_t *s, int ui, const int *d, int n, const int *b,
                  int nb, int hits[2], int *bt);
/* The dice unit ui's attack on ti throws (its first stand type's, then the other's) and the
 * scores they need. */
void sv_table_melee_dice(const sv_ctx_t *c, const sv_state_t *s, int ui, int ti, int *first,
                         int *second, int need[2]);
/* The attack of the unit asked (or its re-throw) thrown with d[n]; its hits into *hits. */
int sv_table_melee(const sv_ctx_t *c, sv_state_t *s, int ui, int ti, const int *d, int n,
                   int *hits);
/* The dice the charged unit's defensive fire throws now (SV_P_REACT), -1 when it may not. */
int sv_table_deffire_dice(const sv_ctx_t *c, const sv_state_t *s);
/* The charged unit's defensive fire thrown with the table's dice d[n]; its hits into *hits. */
int sv_table_deffire(const sv_ctx_t *c, sv_state_t *s, const int *d, int n, int *hits);

/* ---- the engine's entry points (engine.c) */
int sv_engine_init(const sv_ctx_t *c, sv_state_t *s, uint64_t seed);
int sv_engine_current(const sv_state_t *s);
int sv_engine_legal(const sv_ctx_t *c, const sv_state_t *s, opfor_action_t *out, int max);
int sv_engine_apply(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a);
void sv_engine_returns(const sv_state_t *s, double out[2]);

/* ---- scenarios (engine_scenario.c) */
extern const opfor_scenario_rules_t opfor__sv_scenario_rules;
/* A context from a scenario file or built-in name (NULL: the built-in encounter). */
int sv_ctx_load(const char *scenario, sv_ctx_t **out, opfor_diag_t *diag);
/* A context from YAML text (name labels the diagnostics). */
int sv_ctx_load_text(const char *text, size_t len, const char *name, sv_ctx_t **out,
                     opfor_diag_t *diag);
void sv_ctx_free(sv_ctx_t *c);
const char *sv_builtin_name(size_t i);
const char *sv_builtin_text(const char *name, size_t *len);

extern const char *const sv_kind_names[SV_KIND_COUNT];
extern const char *const sv_form_names[SV_FORM_COUNT];

#endif
