/* opfor/ruleset.h — the interface every ruleset implements and the AI works through.
 *
 * Modelled on OpenSpiel's State (open_spiel/spiel.h): a const descriptor with hooks over a
 * read-only game context and a plain-memory state copied with memcpy, so the Viktoria!
 * adapter and later card-driven rulesets plug into ai/ without changing it. The opfor_game_*
 * wrappers do the bookkeeping (a debug legality check, counters) and then call the hook, as
 * ApplyAction calls DoApplyAction. A missing optional hook gives OPFOR_ENOTSUP.
 */
#ifndef OPFOR_RULESET_H
#define OPFOR_RULESET_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/error.h"
#include "opfor/rng.h"
#include "opfor/scene.h"

struct opfor_ruleset_ai;      /* opfor/ruleset_ai.h: the AI's knowledge of the game */
struct opfor_ruleset_calc;    /* opfor/ruleset_calc.h: the calculator */
struct opfor_ruleset_session; /* opfor/session.h: the table session */
struct opfor_scenario_rules;  /* opfor/scenario.h: the ruleset's part in loading a scenario */

/* Who decides in a state, besides a side (0 .. max_players-1). */
#define OPFOR_PLAYER_CHANCE (-1)   /* dice decide: apply the roll action (or an outcome) */
#define OPFOR_PLAYER_TERMINAL (-2) /* the game is over: read the returns */
/* The most players any ruleset may declare (VIKTORY II is played by 2 to 8). */
#define OPFOR_MAX_PLAYERS 8
/* The viewer that sees everything (a game master), for the view and scene hooks. */
#define OPFOR_VIEW_ALL (-1)
/* "No unit" / "no target" in opfor_action_t. */
#define OPFOR_ACTION_NONE 0xFF

/* One action, generic and fixed-size: each ruleset says what the fields mean (its adapter
 * maps its own action to and from this). Plain data with no padding, so two actions are
 * equal exactly when memcmp says so; always build actions from a zeroed struct. */
typedef struct opfor_action {
    uint8_t kind;   /* the ruleset's action kind */
    uint8_t unit;   /* acting unit, OPFOR_ACTION_NONE when none */
    uint8_t target; /* target unit (or player, card pile), OPFOR_ACTION_NONE when none */
    uint8_t sub;    /* small extra argument (arc, option, chance outcome) */
    uint16_t arg;   /* wider argument (figure, card, count) */
    uint16_t flags; /* the ruleset's flags */
    float x, y;     /* a point on the table, inches (destination, aim point) */
    float x2, y2;   /* a second point (waypoint), inches */
} opfor_action_t;
_Static_assert(sizeof(opfor_action_t) == 24, "opfor_action_t is 24 bytes without padding");

/* One explicit chance outcome: applying `action` forces that result. */
typedef struct opfor_chance_outcome {
    opfor_action_t action; /* the forced-outcome action */
    double p;              /* its probability; the list sums to 1 */
} opfor_chance_outcome_t;

/* Where a state stands in the game's clock, so a search can stop its playouts at the end
 * of an activation or of a turn. Both counters only grow along a game. */
typedef struct opfor_progress {
    uint32_t turn;       /* turn number */
    uint32_t activation; /* activations (or decisions) completed so far in the game */
} opfor_progress_t;

/* Descriptor flags. */
enum {
    OPFOR_RS_CHANCE = 1u << 0,  /* the game has chance nodes */
    OPFOR_RS_HIDDEN = 1u << 1,  /* some of the state is hidden from some player */
    OPFOR_RS_ZERO_SUM = 1u << 2 /* returns of the players sum to 0 */
};

/* A ruleset: a const descriptor plus hooks. ctx is the ruleset's read-only game context
 * (scenario, tables), shared by every thread; state is state_size bytes of plain memory.
 * Required hooks: init, current, legal, apply, returns. The rest may be NULL, which the
 * wrappers report as OPFOR_ENOTSUP. No state hook may allocate, print or keep a pointer to the
 * state; all randomness comes from the state's own stream (or the rng passed in).
 * At a chance node `legal` lists exactly one action: the roll, which draws its dice from
 * the state's stream when applied (open loop). Rulesets that can also enumerate the results
 * give them through chance_outcomes as forced-outcome actions (explicit chance nodes). */
typedef struct opfor_ruleset {
    const char *name;  /* registry key, lower case ("viktoria") */
    const char *title; /* for people ("Viktoria!") */
    int max_players;   /* sides that ever decide, 1..OPFOR_MAX_PLAYERS */
    size_t state_size; /* bytes of a state; copied with memcpy */
    int max_actions;   /* most legal actions (and chance outcomes) a state ever has */
    unsigned flags;    /* OPFOR_RS_* */

    /* Optional: builds a game context from a scenario file (NULL: the ruleset's built-in
     * default scenario; a ruleset with built-in scenarios takes "builtin:NAME" as the built-in
     * scenario NAME of builtin_name, never a file, OPFOR_ENOENT when it has none) into *ctx, to be
     * released with ctx_free. 0, OPFOR_ENOENT, OPFOR_EPARSE or OPFOR_EINVAL with diag filled,
     * OPFOR_ENOMEM. Lets generic code (the conformance suite, the daemon, benchmarks) start a game
     * of any registered ruleset. */
    int (*ctx_new)(const char *scenario, void **ctx, opfor_diag_t *diag);
    /* Optional: releases a context from ctx_new; NULL is fine. */
    void (*ctx_free)(void *ctx);

    /* Opening state of a game seeded with seed (the dice stream and hidden draws). 0 or
     * OPFOR_EINVAL. */
    int (*init)(const void *ctx, void *state, uint64_t seed);
    /* A side (>= 0), OPFOR_PLAYER_CHANCE or OPFOR_PLAYER_TERMINAL. */
    int (*current)(const void *ctx, const void *state);
    /* Legal actions in a fixed order into out (room for max); returns the count, 0 only
     * at the end of the game. */
    int (*legal)(const void *ctx, const void *state, opfor_action_t *out, int max);
    /* Applies a, drawing dice from the state's stream. 0, or OPFOR_EILLEGAL (state as
     * before). */
    int (*apply)(const void *ctx, void *state, const opfor_action_t *a);
    /* Optional: at a chance node, the outcomes with probabilities (room for max); returns
     * the count, 0 when this chance node has no explicit outcomes, OPFOR_ERANGE when it has
     * more than max (the search then stays open loop there). */
    int (*chance_outcomes)(const void *ctx, const void *state, opfor_chance_outcome_t *out,
                           int max);
    /* Returns per player in [-1, 1] into out[max_players]; meaningful when terminal (the
     * ruleset may report the current standing otherwise). 0. */
    int (*returns)(const void *ctx, const void *state, double *out);
    /* Optional: a quick estimate per player in [-1, 1] of a non-terminal state. */
    int (*evaluate)(const void *ctx, const void *state, double *out);
    /* Optional: redraws what `observer` cannot know (future spawns, the other hands) from
     * what it can, with rng, for information-set search. */
    int (*resample)(const void *ctx, void *state, int observer, opfor_rng_t *rng);
    /* Optional: re-seeds the state's own dice stream, so a search does not read the real
     * game's future dice. */
    int (*reseed)(const void *ctx, void *state, uint64_t seed);
    /* Optional: turn and activation counters of the state. */
    int (*progress)(const void *ctx, const void *state, opfor_progress_t *out);
    /* Optional: portable bytes of the state into buf (size bytes); *len gets the length.
     * OPFOR_ERANGE when buf is too small (*len then says how much is needed). */
    int (*serialize)(const void *ctx, const void *state, void *buf, size_t size, size_t *len);
    /* Optional: the state back from serialize's bytes. OPFOR_EPARSE on bad input. */
    int (*deserialize)(const void *ctx, void *state, const void *buf, size_t len);
    /* Optional: 64-bit hash of the state (equal states, equal hashes). */
    uint64_t (*hash)(const void *ctx, const void *state);
    /* Optional: a short readable phrase for a in state ("Fusiliers fire at Jager Company"),
     * into buf (n bytes). Returns buf. */
    const char *(*action_str)(const void *ctx, const void *state, const opfor_action_t *a,
                              char *buf, size_t n);

    /* ---- beyond the game: every field below is optional (NULL or 0: none) ---- */

    /* The version of the rules as this build reads them ("1"); a saved game records it, and
     * a log written under another version is replayed only by rules that can read it. */
    const char *rules_version;
    /* A copy of state as `viewer` may know it (a side, or OPFOR_VIEW_ALL for everything)
     * into out (state_size bytes): what the viewer cannot see (the other hands, the AI's
     * hidden draws) replaced by neutral values. 0, or OPFOR_EINVAL (bad viewer). Without the
     * hook a ruleset has no hidden information and the view is the state itself. */
    int (*view)(const void *ctx, const void *state, int viewer, void *out);
    /* The table as a picture for `viewer` (opfor/scene.h) into *out (zeroed by the caller).
     * 0, or a negative error. */
    int (*scene)(const void *ctx, const void *state, int viewer, opfor_scene_t *out);
    /* The AI's knowledge of the game: evaluator, bots, order wording, director. */
    const struct opfor_ruleset_ai *ai;
    /* The calculator: typed actions and the shared answer schema. */
    const struct opfor_ruleset_calc *calc;
    /* The table session: reports, table actions, events. */
    const struct opfor_ruleset_session *session;
    /* The ruleset's part in loading a scenario file (opfor/scenario.h): its name, measures
     * and checks. Generic code loads a scenario for this ruleset, with the ruleset's errors,
     * through opfor_scenario_load_string / _file(..., rs->scenario, ...). */
    const struct opfor_scenario_rules *scenario;
    /* The scenarios compiled into the ruleset, for generic tools (`opfor scenario list`):
     * the name of the i-th ("patrol_default"), or NULL past the last. */
    const char *(*builtin_name)(size_t i);
    /* The YAML text of the built-in scenario called name (a "builtin:" prefix accepted),
     * NUL-terminated, its length in *len when len is not NULL; NULL when there is none. Load
     * it with opfor_scenario_load_string(..., rs->scenario, ...). */
    const char *(*builtin_text)(const char *name, size_t *len);
    /* The daemon's methods for this ruleset's games under the ruleset's own name, as verbs,
     * NULL-terminated: {"initiative", NULL} gives "viktoria.initiative". The daemon serves the
     * verbs it has a handler for (io/methods_int.h); hello lists them in ruleset_info. */
    const char *const *methods;
    /* For each verb of methods (same index; NULL: none), one line for people: what it does
     * at the table, with the rule it follows (`opfor VERB --help` prints it). */
    const char *const *method_help;
    /* The names verbs of methods had before api_level 5 (ended by a NULL verb): the daemon
     * serves each old name as a deprecated alias until its `until` api_level (hello lists them
     * as `deprecated`), and clients call it on older daemons. */
    const struct opfor_method_alias *method_aliases;
    /* The modes a game of this ruleset may be started in (game.new's `mode`), NULL-terminated;
     * NULL: none (hello lists them in ruleset_info as `modes`). */
    const char *const *modes;
} opfor_ruleset_t;

/* An old wire name of a ruleset's own method (opfor_ruleset_t.method_aliases). */
typedef struct opfor_method_alias {
    const char *verb; /* the verb it is now ("initiative": "RULESET.initiative") */
    const char *old;  /* its name before api_level 5 ("patrol.initiative") */
    int until;        /* the first api_level that no longer accepts it */
} opfor_method_alias_t;

/* ---------------------------------------------------------------- the registry */

/* One row of the registry. */
typedef struct opfor_ruleset_entry {
    const char *name;          /* as on the command line */
    const opfor_ruleset_t *rs; /* the descriptor */
} opfor_ruleset_entry_t;

/* The registered rulesets in registration order ("viktoria": rulesets/viktoria/adapter.c);
 * *n gets the count. Never NULL. */
const opfor_ruleset_entry_t *opfor_ruleset_list(size_t *n);
/* The ruleset registered under name (case-insensitive), or NULL. */
const opfor_ruleset_t *opfor_ruleset_find(const char *name);

/* A context for rs from a scenario file (NULL: its default) through its ctx_new hook;
 * OPFOR_ENOTSUP without one. Release with opfor_ruleset_ctx_free. */
int opfor_ruleset_ctx_new(const opfor_ruleset_t *rs, const char *scenario, void **ctx,
                          opfor_diag_t *diag);
/* Releases a context from opfor_ruleset_ctx_new; NULL is fine. */
void opfor_ruleset_ctx_free(const opfor_ruleset_t *rs, void *ctx);

/* ---------------------------------------------------------------- the public wrapper */

/* Game options. */
enum {
    OPFOR_GAME_CHECK_LEGAL = 1u << 0 /* apply first checks the action against legal (or,
                                        at a chance node, the explicit outcomes): debug */
};

/* A ruleset bound to its context: a small value each search thread copies for itself, so
 * the counters are never shared. */
typedef struct opfor_game {
    const opfor_ruleset_t *rs; /* the ruleset */
    const void *ctx;           /* its read-only game context */
    unsigned options;          /* OPFOR_GAME_* */
    uint64_t applies;          /* actions applied through opfor_game_apply */
    uint64_t rejected;         /* of which refused as illegal */
} opfor_game_t;

/* Binds rs to ctx. OPFOR_EINVAL when rs lacks a required hook or has a bad descriptor
 * (no players, state_size 0, max_actions < 1). */
int opfor_game_init(opfor_game_t *g, const opfor_ruleset_t *rs, const void *ctx, unsigned options);
/* Opening state of a game seeded with seed into state (rs->state_size bytes). */
int opfor_game_new_state(const opfor_game_t *g, void *state, uint64_t seed);
/* memcpy of a state: states are plain memory. */
void opfor_game_clone(const opfor_game_t *g, void *dst, const void *src);
/* A side, OPFOR_PLAYER_CHANCE or OPFOR_PLAYER_TERMINAL. */
int opfor_game_current(const opfor_game_t *g, const void *state);
/* Legal actions (see the hook); returns the count or a negative error. */
int opfor_game_legal(const opfor_game_t *g, const void *state, opfor_action_t *out, int max);
/* Applies a: counts it, checks it when OPFOR_GAME_CHECK_LEGAL is set (OPFOR_EILLEGAL and the
 * state untouched when it is not listed), then calls the ruleset's apply. */
int opfor_game_apply(opfor_game_t *g, void *state, const opfor_action_t *a);
/* Explicit chance outcomes; OPFOR_ENOTSUP without the hook. */
int opfor_game_chance_outcomes(const opfor_game_t *g, const void *state,
                               opfor_chance_outcome_t *out, int max);
/* Returns per player into out[rs->max_players]. */
int opfor_game_returns(const opfor_game_t *g, const void *state, double *out);
/* The ruleset's own estimate per player; OPFOR_ENOTSUP without the hook. */
int opfor_game_evaluate(const opfor_game_t *g, const void *state, double *out);
/* Redraws what observer cannot know; OPFOR_ENOTSUP without the hook (and 0 doing nothing
 * when the ruleset has no hidden information and no hook). */
int opfor_game_resample(const opfor_game_t *g, void *state, int observer, opfor_rng_t *rng);
/* Re-seeds the state's dice stream; OPFOR_ENOTSUP without the hook. */
int opfor_game_reseed(const opfor_game_t *g, void *state, uint64_t seed);
/* The state as viewer may know it into out; a plain copy without the hook (a ruleset with
 * no hidden information), OPFOR_EINVAL for a viewer that is neither a side nor
 * OPFOR_VIEW_ALL. */
int opfor_game_view(const opfor_game_t *g, const void *state, int viewer, void *out);
/* The ruleset's picture of state for viewer into *out (zeroed here first); OPFOR_ENOTSUP
 * without the hook. */
int opfor_game_scene(const opfor_game_t *g, const void *state, int viewer, opfor_scene_t *out);
/* Turn and activation counters; OPFOR_ENOTSUP without the hook. */
int opfor_game_progress(const opfor_game_t *g, const void *state, opfor_progress_t *out);
/* Serialize / deserialize; OPFOR_ENOTSUP without the hooks. */
int opfor_game_serialize(const opfor_game_t *g, const void *state, void *buf, size_t size,
                         size_t *len);
int opfor_game_deserialize(const opfor_game_t *g, void *state, const void *buf, size_t len);
/* The ruleset's hash, or FNV-1a over the state's bytes without the hook. */
uint64_t opfor_game_hash(const opfor_game_t *g, const void *state);
/* The ruleset's phrase for a, or a generic "kind 3 unit 2 target 5 ..." without the hook.
 * Returns buf. */
const char *opfor_game_action_str(const opfor_game_t *g, const void *state, const opfor_action_t *a,
                                  char *buf, size_t n);

/* 1 when a and b are the same action (bytewise). */
int opfor_action_eq(const opfor_action_t *a, const opfor_action_t *b);
/* A zeroed action of the given kind with unit and target OPFOR_ACTION_NONE. */
opfor_action_t opfor_action_make(int kind);

#endif
