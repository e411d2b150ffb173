/* opfor/viktoria/engine.h — the Viktoria! rules engine: a fast, deterministic forward model.
 *
 * A read-only context (scenario, model, chance tables from the calculator) is shared by any
 * number of simulations; a state is one pointer-free struct under 8 KiB, copied with memcpy,
 * carrying its own random stream. The engine says who decides (a side, chance, nobody), lists
 * legal actions, applies one, and scores the end; same seed and actions, same game anywhere.
 * Rules: Viktoria! V.A-XIII. Design notes: rulesets/viktoria/engine_int.h.
 */
#ifndef OPFOR_VIKTORIA_ENGINE_H
#define OPFOR_VIKTORIA_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/error.h"
#include "opfor/geom.h"
#include "opfor/rng.h"
#include "opfor/scenario.h"
#include "opfor/unit.h"
#include "opfor/viktoria/model.h"
#include "opfor/viktoria/scenario.h"

/* Most actions opfor_vk_legal ever lists for one decision. */
#define OPFOR_VK_MAX_ACTIONS 64
/* "No unit" / "no figure" in actions and state fields. */
#define OPFOR_VK_NONE 0xFF
#define OPFOR_VK_NO_FIGURE 0xFFFF

/* What opfor_vk_current returns besides a side (0 or 1). */
#define OPFOR_VK_CHANCE 2      /* a chance node: apply the single OPFOR_VK_ROLL action */
#define OPFOR_VK_TERMINAL (-1) /* the game is over */

/* Action kinds. The order is part of the action log format: append, never reorder. */
typedef enum opfor_vk_kind {
    OPFOR_VK_ROLL = 0,       /* chance node: roll the dice the phase needs (initiative, ...) */
    OPFOR_VK_SELECT_UNIT,    /* the side holding the initiative picks `unit` to act (V.A) */
    OPFOR_VK_STAND,          /* recover / stand; a musician plays (VI) */
    OPFOR_VK_RALLY,          /* a Wavering unit tries to rally (XI) */
    OPFOR_VK_LOAD,           /* reload an MG or a gun short of crew (VI, IX) */
    OPFOR_VK_ADVANCE,        /* move to dest (via waypoint); with OPFOR_VK_AF_FIRE, moving fire */
    OPFOR_VK_RUN,            /* run / gallop to dest (VIII) */
    OPFOR_VK_CRAWL,          /* crawl to dest or take cover in place; riders dismount (VI);
                                with OPFOR_VK_AF_FIRE, moving fire while crawling */
    OPFOR_VK_CHARGE,         /* charge enemy unit `target` (X) */
    OPFOR_VK_FIRE,           /* personal weapons at unit `target` (IX); `figure` (when not
                                OPFOR_VK_NO_FIGURE): the figure of it each firer shoots at
                                first while it stands, when it can */
    OPFOR_VK_FIRE_MG,        /* MG arc `arc` centred on dest (IX) */
    OPFOR_VK_FIRE_ARTILLERY, /* field gun aimed at dest (IX) */
    OPFOR_VK_CALL_SUPPORT,   /* signaller calls off-board fire on dest (IX) */
    OPFOR_VK_THROW_BOMB,     /* bomb carriers throw at unit `target` (IX) */
    OPFOR_VK_HEAL,           /* medics bind the wounded within reach (VI) */
    OPFOR_VK_MESMERIZE,      /* mesmerists attack figure `figure` (XII.B) */
    OPFOR_VK_LIMBER,         /* limber the gun (VIII) */
    OPFOR_VK_UNLIMBER,       /* unlimber the gun, facing dest (VIII) */
    OPFOR_VK_MOUNT,          /* riders remount in place (VIII) */
    OPFOR_VK_DISMOUNT,       /* riders dismount in place (VIII) */
    OPFOR_VK_SPLIT,          /* split off the `figure` living persons nearest dest as a new
                                unit, each part with a leader (V.A, VII); OPFOR_VK_NO_FIGURE:
                                cut the figure block in the middle, between the first two
                                leaders */
    OPFOR_VK_MERGE,          /* join friendly unit `target` within 3 in (V.A, XI) */
    OPFOR_VK_TO_REAR,        /* order the wounded out of line (IX), or with OPFOR_VK_AF_RETURN
                                call the bound ones back; the unit then acts on */
    OPFOR_VK_FIGHT,          /* resolve the ongoing melee the unit is in (X) */
    OPFOR_VK_REACT_STAND,    /* charged unit: no reaction, fight where it stands (X) */
    OPFOR_VK_REACT_FIRE,     /* charged unit: defensive fire (X) */
    OPFOR_VK_REACT_FLEE,     /* charged unit: a move away toward dest (X), `arc` the move:
                                OPFOR_VK_RUN (0 reads as a run), OPFOR_VK_ADVANCE or
                                OPFOR_VK_CRAWL */
    OPFOR_VK_REACT_COUNTER,  /* charged cavalry in the open: counter-charge (X) */
    OPFOR_VK_CONTROL,        /* mesmerist decides what figure `figure` does (XII.B): stand, fire
                                at unit `target`, (flag OPFOR_VK_AF_MOVE) walk to dest,
                                (OPFOR_VK_AF_STRIKE) strike a fellow of unit `target` in base
                                contact, or (OPFOR_VK_AF_SELF) turn his weapon on himself */
    OPFOR_VK_EMBARK,         /* board vehicle `target` (XII.C); with OPFOR_VK_AF_DISEMBARK, leave
                                the vehicle the unit rides in, getting out toward dest */
    OPFOR_VK_DRIVE,          /* XII.C-D: a train runs `arc` half-inches along its track (flag
                                OPFOR_VK_AF_REVERSE: backward); an aeroplane takes off, flies to
                                dest, lands or leaves the table (OPFOR_VK_AF_TAKE_OFF, _LAND,
                                _OFF_TABLE; climb / descend `arc` levels); OPFOR_VK_AF_FIRE:
                                moving fire at `target` afterwards, or OPFOR_VK_AF_BOMB: bombs
                                dropped on `target` */
    OPFOR_VK_KIND_COUNT
} opfor_vk_kind_t;

/* The move a REACT_FLEE action makes (its `arc`, X: a crawl, run/gallop or advance away):
 * OPFOR_VK_RUN (also for 0, as in actions logged before the choice), OPFOR_VK_ADVANCE or
 * OPFOR_VK_CRAWL; -1 for any other value (not a legal flight). */
static inline int opfor_vk_flight_kind(int arc) {
    return arc == 0 || arc == OPFOR_VK_RUN ? OPFOR_VK_RUN
           : arc == OPFOR_VK_ADVANCE       ? OPFOR_VK_ADVANCE
           : arc == OPFOR_VK_CRAWL         ? OPFOR_VK_CRAWL
                                           : -1;
}

/* Action flags. */
enum {
    OPFOR_VK_AF_FIRE = 1u << 0,        /* ADVANCE/CRAWL with moving fire at `target` (VI, IX):
                                          from the end of the move, or see _FIRE_VIA */
    OPFOR_VK_AF_AIM_WOUNDED = 1u << 1, /* FIRE: shoot at wounded figures first (IX) */
    OPFOR_VK_AF_AIM_GENERAL = 1u << 2, /* FIRE: shoot at the general / leaders first (IX) */
    OPFOR_VK_AF_VIA = 1u << 3,         /* `via` is a waypoint before dest */
    OPFOR_VK_AF_MOVE = 1u << 4,        /* CONTROL: walk the figure to dest */
    OPFOR_VK_AF_RETURN = 1u << 4,      /* TO_REAR: the bound wounded rejoin from the rear (IX;
                                          the bit of AF_MOVE, which only CONTROL takes) */
    OPFOR_VK_AF_STRIKE = 1u << 5,      /* CONTROL: strike a fellow in contact (XII.B; the bit
                                          of AF_MOUNT, which CONTROL does not take) */
    OPFOR_VK_AF_SELF = 1u << 6,        /* CONTROL: self-injury (XII.B; the bit of AF_DISMOUNT) */
    OPFOR_VK_AF_MOUNT = 1u << 5,       /* ADVANCE/RUN: remount as part of the move (VIII) */
    OPFOR_VK_AF_DISMOUNT = 1u << 6,    /* ADVANCE/RUN: dismount as part of the move (VIII);
                                          for both, `arc` says where: OPFOR_VK_AT_START before
                                          the figures move, OPFOR_VK_AT_END where they stop */
    OPFOR_VK_AF_CLIMB = 1u << 7,       /* ADVANCE of a balloon or dirigible (XII options):
                                          climb `arc` levels (1, or 2 for a dirigible) */
    OPFOR_VK_AF_DESCEND = 1u << 8,     /* ... or descend `arc` levels (XII.D) */
    OPFOR_VK_AF_DISEMBARK = 1u << 9,   /* EMBARK: get out of the vehicle (XII.C) */
    OPFOR_VK_AF_REVERSE = 1u << 10,    /* DRIVE of a train: toward the track's first point */
    OPFOR_VK_AF_TAKE_OFF = 1u << 11,   /* DRIVE of an aeroplane: take off from its runway */
    OPFOR_VK_AF_LAND = 1u << 12,       /* DRIVE of an aeroplane: land on a runway */
    OPFOR_VK_AF_OFF_TABLE = 1u << 13,  /* DRIVE of an aeroplane: fly off the table */
    /* Bit 14 means one thing per kind (no kind takes two of these): */
    OPFOR_VK_AF_HOLD = 1u << 14,     /* CHARGE: the chargers make no follow-up advance after
                                        the melee (X step 8); REACT_*: the charged unit makes
                                        none (step 9). Without it, loose figures advance */
    OPFOR_VK_AF_FIRE_VIA = 1u << 14, /* ADVANCE/CRAWL with OPFOR_VK_AF_FIRE and _VIA: the
                                        moving fire is made when the unit reaches `via` (or
                                        where the move stops short of it), not at the end
                                        (IX: moving fire at any point of the move); `via`
                                        at the unit's centre: fire first, then move */
    OPFOR_VK_AF_AT_CRAFT = 1u << 14, /* FIRE (XII options): at the envelope of balloon or
                                        dirigible `target`, not at its occupants (XII.D) */
    /* DRIVE of an aeroplane: its bomb carriers drop bombs on `target` from the point beneath it
       (XII.D). It shares DISEMBARK's bit, which only EMBARK reads. Bit 15 is the adapter's
       (OPFOR_VK_RS_AF_EXTRA): no engine flag may take it. */
    OPFOR_VK_AF_BOMB = OPFOR_VK_AF_DISEMBARK,
};

/* Where along a move riders remount or dismount (`arc` of an ADVANCE/RUN with
 * OPFOR_VK_AF_MOUNT or _DISMOUNT; VIII: "at any point ... as part of their movement"). */
enum { OPFOR_VK_AT_START = 0, OPFOR_VK_AT_END = 1 };

/* One action with its parameters. 24 bytes, plain data: logs store it as is. */
typedef struct opfor_vk_action {
    uint8_t kind;    /* opfor_vk_kind_t */
    uint8_t unit;    /* acting (or selected) unit, OPFOR_VK_NONE for ROLL */
    uint8_t target;  /* target unit, OPFOR_VK_NONE when none */
    uint8_t arc;     /* opfor_arc_t for FIRE_MG; REACT_FLEE: the move (a kind) */
    uint16_t figure; /* target figure, OPFOR_VK_NO_FIGURE when none */
    uint16_t flags;  /* OPFOR_VK_AF_* */
    opfor_pt_t dest; /* destination, aim point or arc centre line point */
    opfor_pt_t via;  /* waypoint when OPFOR_VK_AF_VIA */
} opfor_vk_action_t;
_Static_assert(sizeof(opfor_vk_action_t) == 24, "actions are 24 bytes");

/* Phases of the turn (Viktoria! V.A). */
typedef enum opfor_vk_phase {
    OPFOR_VK_PH_START_TURN = 0, /* chance: new turn, weather event (XIII) */
    OPFOR_VK_PH_INITIATIVE,     /* chance: who picks the next unit */
    OPFOR_VK_PH_SELECT_UNIT,    /* decision: which unit acts */
    OPFOR_VK_PH_COMMAND,        /* chance: out-of-command test (VII) */
    OPFOR_VK_PH_ACTION,         /* decision: what the unit does */
    OPFOR_VK_PH_REACTION,       /* decision: the charged unit's reaction (X) */
    OPFOR_VK_PH_CONTROL,        /* decision: the mesmerist moves a controlled figure (XII.B) */
    OPFOR_VK_PH_OVER,           /* terminal */
    OPFOR_VK_PH_COUNT
} opfor_vk_phase_t;

/* Who activates next: the hook for game modes (Viktoria! V.A competitive, XV patrol).
 * Called at each INITIATIVE chance node with the state (its rng may be drawn from). Returns
 * the side (0 or 1) that selects the next unit; it must return a side that still has a
 * unit ready (opfor_vk_side_ready), or -1 to end the turn. */
struct opfor_vk_ctx;
struct opfor_vk_state;
typedef int (*opfor_vk_initiative_fn)(const struct opfor_vk_ctx *ctx, struct opfor_vk_state *st,
                                      void *user);

/* Whether a side that has no unit left may still gain units later (a mode's reinforcements,
 * e.g. Patrol Mode's spottings): returns 1 to keep the game going. user is
 * options.initiative_user. NULL: no side ever gains units, so an empty side has lost. */
typedef int (*opfor_vk_reinforce_fn)(const struct opfor_vk_ctx *ctx,
                                     const struct opfor_vk_state *st, int side, void *user);

/* Built-in sequencing (used when options.initiative is NULL). */
typedef enum opfor_vk_seq {
    OPFOR_VK_SEQ_COMPETITIVE = 0,    /* a D6 per side for every activation, ties re-rolled */
    OPFOR_VK_SEQ_SIDE_BY_SIDE,       /* one roll a turn; the winner moves all its units first */
    OPFOR_VK_SEQ_SIDE_BY_SIDE_FIXED, /* as side by side, one roll for the whole game (V.A) */
    OPFOR_VK_SEQ_COUNT
} opfor_vk_seq_t;
/* The scenario's words for them (`rules: {sequence: ...}`): "competitive", "side_by_side",
 * "side_by_side_fixed". */
extern const opfor_name_t opfor_vk_seq_names[];

/* Scenario options (XII, XIII) and limits. Zero-initialised options are the defaults. */
typedef struct opfor_vk_options {
    int turn_limit;       /* 0: the scenario's, else 12 */
    int weather_events;   /* 1: roll a weather event each turn (XIII) */
    int specials;         /* 1: vehicles, automatons, walkers, flying craft by unit type (XII) */
    int heavy_support[2]; /* per side: off-board guns are heavy (6 in blast) instead of field */
    opfor_vk_seq_t seq;   /* built-in sequencing */
    opfor_vk_initiative_fn initiative; /* a mode's own sequencing (Patrol Mode), or NULL */
    void *initiative_user;             /* passed to initiative and reinforce */
    opfor_vk_reinforce_fn reinforce;   /* may an empty side still gain units? or NULL */
} opfor_vk_options_t;

/* Adds the optional rules sc asks for in its `rules:` block (docs/scenario-format.md) to
 * *opt: machines (XII; without the key, on when a unit is a machine), weather_events (XIII),
 * sequence (V.A; taken when *opt's is competitive). A yes already in *opt stays yes. Returns 0,
 * or rd's first error (a bad key or value, placed at its file:line:column). */
struct opfor_yaml_rd;
int opfor_vk_scenario_options(struct opfor_yaml_rd *rd, const opfor_scenario_t *sc,
                              opfor_vk_options_t *opt);

/* Per-side off-board fire registration (IX). 16 bytes. */
typedef struct opfor_vk_reg {
    opfor_pt_t point; /* where fire was last called */
    uint8_t turns;    /* earlier turns in a row on that point: +1 each to the 2D6 */
    uint8_t last;     /* turn number of the last call (low byte), 0 none */
    uint8_t lost;     /* turn number (low byte) until which communications are down, 0 none */
    uint8_t pad;
    uint32_t pad2;
} opfor_vk_reg_t;

/* A charge waiting for the charged unit's reaction (X). 24 bytes. */
typedef struct opfor_vk_charge {
    uint8_t active;  /* 1 while pending */
    uint8_t charger; /* charging unit */
    uint8_t target;  /* charged unit */
    uint8_t ongoing; /* 1 when charging into an ongoing melee */
    float allowance; /* charge movement rolled, inches */
    float start_gap; /* base-to-base gap between the nearest figures at the start */
    float reach;     /* movement the chargers need to make contact */
    uint8_t control; /* CONTROL phase: next figure index into the unit (internal) */
    uint8_t d3;      /* the charge's d3 (VIII) */
    uint8_t hold;    /* no follow-up advance (X steps 8-9): bit 0 the chargers, bit 1 the target */
    uint8_t pad[5];
} opfor_vk_charge_t;

/* Per-unit engine data beside opfor_unit_t. 8 bytes. */
typedef struct opfor_vk_unitx {
    uint8_t altitude;   /* flying craft: 0 ground .. (XII.D) */
    uint8_t damage;     /* flying craft: damage taken, 2 destroyed (XII.D) */
    uint8_t hesitate;   /* walkers: turn (low byte) in which the walker recovers (XII.E) */
    uint8_t removed;    /* 1 removed from play (rout, surrender, merged away, left the table) */
    uint8_t casualties; /* figures killed in the current activation (morale trigger, XI) */
    uint8_t flags;      /* OPFOR_VK_UX_* */
    uint8_t aboard;     /* 1 + index of the vehicle the unit rides in, 0 none (XII.C) */
    uint8_t run;        /* trains: last move in half-inches (bits 0-6), bit 7 backward (XII.C) */
} opfor_vk_unitx_t;

/* Per-unit engine flags. */
enum {
    OPFOR_VK_UX_FOUGHT = 1u << 0,  /* its melee was resolved this turn */
    OPFOR_VK_UX_CHARGED = 1u << 1, /* charged or counter-charged this activation */
    OPFOR_VK_UX_FLED = 1u << 2,    /* made a flight move this turn */
};

/* Per-figure engine flags (figx). */
enum {
    OPFOR_VK_FX_PROMOTED = 1u << 0, /* an NCO promoted from the ranks: cannot head a split (VII) */
    OPFOR_VK_FX_PLAYING = 1u << 1,  /* musician playing this turn (VII, XI) */
    OPFOR_VK_FX_RELAY = 1u << 2,    /* playing within command: relays command this turn (VII) */
    OPFOR_VK_FX_ATTACKED = 1u << 3, /* made its melee attack this turn (X) */
    OPFOR_VK_FX_CONTROLLED = 1u << 4, /* mesmerised and still under control this activation */
};

/* The whole mutable state of a game. Pointer-free; copy it with memcpy. */
typedef struct opfor_vk_state {
    opfor_rng_t rng;     /* the game's random stream: every die is drawn from it */
    uint16_t turn;       /* 1-based turn number; 0 before the first turn starts */
    uint8_t phase;       /* opfor_vk_phase_t */
    uint8_t side;        /* side holding the initiative / deciding now */
    uint8_t cur;         /* unit activating, OPFOR_VK_NONE between activations */
    uint8_t restricted;  /* 1: the current unit failed its command test (VII) */
    uint8_t nunits;      /* unit slots in use (splits add units) */
    uint8_t level;       /* wind/weather level 1..5 (XIII) */
    uint8_t wind;        /* opfor_compass_t the wind blows from */
    int8_t winner;       /* -2 undecided, -1 draw, 0 or 1 */
    uint8_t init_die[2]; /* last initiative dice, for events */
    uint8_t seq_side;    /* SIDE_BY_SIDE: side moving first this turn */
    uint8_t pad0;
    uint16_t nfigures;         /* figure slots in use */
    uint16_t colours_taken[2]; /* colours captured by each side (XI) */
    uint16_t activations;      /* activations so far (statistics, replay checks) */
    int16_t score[2];          /* final score per side (set when the game ends) */
    uint16_t pad1;
    opfor_vk_reg_t reg[2];           /* off-board registration per side (IX) */
    opfor_vk_charge_t charge;        /* pending charge (X) */
    uint32_t melee[OPFOR_MAX_UNITS]; /* bit j of melee[i]: unit i in melee with unit j (X) */
    opfor_vk_unitx_t ux[OPFOR_MAX_UNITS];
    uint8_t figx[OPFOR_MAX_FIGURES]; /* OPFOR_VK_FX_* per figure */
    opfor_unit_t units[OPFOR_MAX_UNITS];
    opfor_figure_t figures[OPFOR_MAX_FIGURES];
} opfor_vk_state_t;

/* The read-only context: everything a game shares. Opaque-ish: fields are private
 * (engine_int.h); build with opfor_vk_ctx_init, release with opfor_vk_ctx_free. */
typedef struct opfor_vk_ctx opfor_vk_ctx_t;

/* A result: winner and per-side scores. */
typedef struct opfor_vk_result {
    int over;      /* 1 when the game has ended */
    int winner;    /* 0 or 1, -1 draw, -2 not over */
    int score[2];  /* objectives held + enemy units destroyed + colours taken */
    int alive[2];  /* figures still on the table per side */
    int killed[2]; /* figures of each side killed */
    int units[2];  /* units (not generals) still in play per side */
    int turn;      /* turn reached */
} opfor_vk_result_t;

/* Where apply writes readable events, one line each ("Fusiliers fire at Jager Company:
 * 12 shots, 3 hits, 1 killed"). Pass NULL to apply in hot paths. When full, output is cut
 * and truncated is set. */
typedef struct opfor_vk_events {
    char *buf;     /* caller's buffer */
    size_t size;   /* its size */
    size_t len;    /* bytes used (NUL-terminated) */
    int truncated; /* 1 when something did not fit */
} opfor_vk_events_t;

/* Builds a context for scenario sc with model m (copied: neither needs to outlive ctx) and
 * options (NULL: defaults). Precomputes every chance table from the calculator. *ctx must be
 * released with opfor_vk_ctx_free. Returns 0, or OPFOR_EINVAL (bad scenario: no units,
 * bad indices; diag says why), OPFOR_ENOMEM. */
int opfor_vk_ctx_init(opfor_vk_ctx_t **ctx, const opfor_scenario_t *sc,
                      const opfor_viktoria_model_t *m, const opfor_vk_options_t *options,
                      opfor_diag_t *diag);
/* Releases a context; NULL is fine. */
void opfor_vk_ctx_free(opfor_vk_ctx_t *ctx);
/* The scenario a context was built from. */
const opfor_scenario_t *opfor_vk_ctx_scenario(const opfor_vk_ctx_t *ctx);
/* Turn limit in force. */
int opfor_vk_ctx_turn_limit(const opfor_vk_ctx_t *ctx);
/* The options in force (the caller's, or the scenario's `rules:`). */
const opfor_vk_options_t *opfor_vk_ctx_options(const opfor_vk_ctx_t *ctx);

/* Sets up the opening state of a game with the given seed: the scenario's units, turn 0,
 * phase START_TURN. */
void opfor_vk_state_init(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, uint64_t seed);
/* The weather at the start of play (XIII): the scenario's level and wind, or, where it says
 * `random`, a level of one D6 less two (at least 1) and a wind from a direction die (one of
 * the eight compass points), drawn from rng. level gets 1..5, wind an opfor_compass_t. */
void opfor_vk_weather_start(const opfor_scenario_t *sc, opfor_rng_t *rng, int *level, int *wind);

/* Who decides in st: 0 or 1 (a side), OPFOR_VK_CHANCE, or OPFOR_VK_TERMINAL. */
int opfor_vk_current(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st);
/* Lists the legal actions in st into out (room for max; OPFOR_VK_MAX_ACTIONS is always
 * enough) in a deterministic order; returns how many (0 when terminal). At a chance node
 * the list is the single ROLL action. Never allocates. */
int opfor_vk_legal(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_action_t *out,
                   int max);
/* Action groups for lazy listing: an action kind (opfor_vk_kind_t), or
 * OPFOR_VK_GROUP_MOVING_FIRE for ADVANCE or CRAWL with OPFOR_VK_AF_FIRE (a group of its own because
 * listing it needs sight of the enemy, which plain moves do not). */
#define OPFOR_VK_GROUP_MOVING_FIRE OPFOR_VK_KIND_COUNT
#define OPFOR_VK_GROUP_COUNT (OPFOR_VK_KIND_COUNT + 1)
/* Bit g set for each group that may have legal actions in st: at the ACTION phase a cheap
 * superset (no sight or distance tests; a group may turn out empty), elsewhere exact. */
uint32_t opfor_vk_legal_groups(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st);
/* The legal actions of st in group g, in the order opfor_vk_legal lists them, computing only
 * what that group needs; returns how many (0 when the group has none). Never allocates. */
int opfor_vk_legal_group(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int group,
                         opfor_vk_action_t *out, int max);
/* Applies action a to st, drawing dice from st->rng, and appends events to ev (may be
 * NULL). Returns 0, or OPFOR_EILLEGAL (st unchanged) when the action does not fit the
 * phase, unit or target. Any destination on the table is legal for a movement action: the
 * unit moves toward it as far as its roll, the terrain and other figures allow. */
int opfor_vk_apply(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                   opfor_vk_events_t *ev);
/* opfor_vk_apply for an action that opfor_vk_legal or opfor_vk_legal_group has just listed
 * for this very state (the play loops and rollouts): skips the legality checks, which would
 * repeat the listing's sight and distance tests. Anything else must go through
 * opfor_vk_apply. */
int opfor_vk_apply_listed(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st,
                          const opfor_vk_action_t *a, opfor_vk_events_t *ev);
/* The movement of action a (OPFOR_VK_ADVANCE, RUN or CRAWL) applied as opfor_vk_apply does,
 * with the table's d3 (1..3) or, with d3 0, one drawn from st->rng as opfor_vk_apply would;
 * *out (may be NULL) then tells what the move did, as opfor_vk_query_move_result does for a
 * copy: where the unit's block of figures ended before stragglers closed up, the d3 used and
 * why it stopped. Returns 0; OPFOR_EINVAL for a NULL pointer, a d3 out of 0..3 or an action
 * that is not a move (st unchanged); OPFOR_EILLEGAL as opfor_vk_apply_move_roll. */
struct opfor_vk_move_result; /* engine_query.h */
int opfor_vk_apply_move(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                        int d3, opfor_vk_events_t *ev, struct opfor_vk_move_result *out);
/* opfor_vk_apply for a move (OPFOR_VK_ADVANCE, RUN or CRAWL) whose d3 the table has already
 * rolled: the move is resolved with that d3 (1..3) instead of one drawn from st->rng, all
 * else as opfor_vk_apply. Returns 0; OPFOR_EINVAL when d3 is out of 1..3 or a is not a move
 * (st unchanged); OPFOR_EILLEGAL as opfor_vk_apply, or when st is not at the action phase. */
int opfor_vk_apply_move_roll(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st,
                             const opfor_vk_action_t *a, int d3, opfor_vk_events_t *ev);
/* Resolves chance nodes until a side must decide or the game ends. */
void opfor_vk_settle(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev);

int opfor_vk_is_terminal(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st);
/* Fills *r; scores are final only when over (otherwise what they would be now). */
void opfor_vk_result(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_result_t *r);

/* A readable sentence for action a in st ("Fusiliers advance 6 in toward Church").
 * Returns buf. */
const char *opfor_vk_action_str(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                                const opfor_vk_action_t *a, char *buf, size_t n);
/* Name of an action kind ("advance"). */
const char *opfor_vk_kind_name(int kind);
/* 64-bit hash of the whole state (FNV-1a over its bytes). */
uint64_t opfor_vk_state_hash(const opfor_vk_state_t *st);

/* Whether side has a unit that may still act this turn. */
int opfor_vk_side_ready(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int side);
/* Whether unit u is still in play (not removed, some figure alive on the table). */
int opfor_vk_unit_in_play(const opfor_vk_state_t *st, int u);
/* Figures of unit u alive and present (not ordered to the rear). */
int opfor_vk_unit_present(const opfor_vk_state_t *st, int u);

/* Replays an action log from the opening state for seed; stops at the first illegal action
 * (returns OPFOR_EILLEGAL with *done = its index) and otherwise returns 0 with *done = n.
 * The final state is left in *st. */
int opfor_vk_replay(const opfor_vk_ctx_t *ctx, uint64_t seed, const opfor_vk_action_t *log, int n,
                    opfor_vk_state_t *st, int *done);

/* ---- policies (rulesets/viktoria/policy.c) ---- */

typedef enum opfor_vk_policy {
    OPFOR_VK_POLICY_RANDOM = 0,  /* uniform over the legal actions */
    OPFOR_VK_POLICY_GREEDY,      /* one ply: best immediate expected value */
    OPFOR_VK_POLICY_RANDOM_KIND, /* uniform over the action groups open to the unit, then over
                                    that group's actions: lists lazily (cheap rollouts) */
    OPFOR_VK_POLICY_COUNT
} opfor_vk_policy_t;
/* "random", "greedy", "random_kind". */
extern const opfor_name_t opfor_vk_policy_names[];

/* Picks one of the n legal actions of st for the side to decide, drawing from rng (not
 * st->rng). Returns the index into acts. */
int opfor_vk_policy_choose(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                           opfor_vk_policy_t policy, const opfor_vk_action_t *acts, int n,
                           opfor_rng_t *rng);
/* Simple evaluation of st for side: material, morale and objective progress; higher is
 * better. Used by the greedy policy. */
double opfor_vk_evaluate(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int side);

/* Plays one whole game from the opening state for seed with policies pa (side 0) and pb
 * (side 1); decision rng from policy_seed. Optionally logs actions (log may be NULL; room
 * for logmax; *nlog gets the count, capped). Fills *r and *final when not NULL. Returns
 * the number of activations. */
long opfor_vk_play(const opfor_vk_ctx_t *ctx, uint64_t seed, opfor_vk_policy_t pa,
                   opfor_vk_policy_t pb, uint64_t policy_seed, opfor_vk_result_t *r,
                   opfor_vk_state_t *final, opfor_vk_action_t *log, int logmax, int *nlog);

#endif
