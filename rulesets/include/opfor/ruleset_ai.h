/* opfor/ruleset_ai.h — what a ruleset tells the AI about its game: how good a position is,
 * which moves look promising, how to play a quick game out, which scripted bots it has, how
 * an order reads at the table, and what a director may steer.
 *
 * ai/ (search, levels, arena, the director's machinery) knows no game; it reaches a ruleset's
 * knowledge only through opfor_ruleset_t.ai, a const table of the hooks below. Every hook is
 * optional: without an evaluator the search uses uniform priors and random playouts, without
 * bots the arena offers "random" and "mcts:LEVEL" only, without `order` an order is the
 * action's phrase. As in OpenSpiel's algorithms/mcts.h, the evaluator's hooks run on several
 * search threads at once: `user` is read-only, what a hook writes goes in its per-thread
 * `scratch`.
 */
#ifndef OPFOR_RULESET_AI_H
#define OPFOR_RULESET_AI_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/rng.h"
#include "opfor/ruleset.h"

struct opfor_order; /* opfor/order.h */

/* ---------------------------------------------------------------- the evaluator */

/* What the search asks of a heuristic: leaf value, prior, playout policy. */
typedef struct opfor_evaluator {
    const char *name;    /* for logs and bench output ("random", "planner") */
    const void *user;    /* the evaluator's read-only data, shared by all threads */
    size_t scratch_size; /* bytes of per-thread scratch the hooks need (0: none) */

    /* Value of a non-terminal state for every player, each in [-1, 1] (win = 1), into
     * values[g->rs->max_players]. 0, or a negative error (the search then uses 0). */
    int (*evaluate)(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                    double *values);
    /* Prior weight (higher: widen into it earlier) for each of the n legal actions acts of
     * state into prior[n]. Only the order matters to the search; ties keep legal order.
     * 0, or a negative error (the search then uses legal order). */
    int (*prior)(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                 const opfor_action_t *acts, int n, float *prior);
    /* Playout policy: the index (0..n-1) of the action to play among the n legal actions,
     * drawing any randomness from rng only. Out-of-range answers fall back to uniform. */
    int (*policy)(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                  const opfor_action_t *acts, int n, opfor_rng_t *rng);
} opfor_evaluator_t;

/* ---------------------------------------------------------------- policies and referees */

/* A player: one instance per thread, reused game after game (the arena's seats, the
 * director's rollout models). */
typedef struct opfor_policy {
    char name[48]; /* "random", "table", "heuristic", "mcts:standard", ... */
    void *self;    /* the instance's own data */
    /* Optional: a new game starts; side is the seat this policy takes, seed the game's.
     * 0 or a negative error. */
    int (*begin)(void *self, const opfor_game_t *g, uint64_t game_seed, int side);
    /* The action for the side to move in state (a decision node), drawing any randomness
     * from rng only. 0 and *out, or a negative error. */
    int (*choose)(void *self, const opfor_game_t *g, const void *state, opfor_rng_t *rng,
                  opfor_action_t *out);
    /* Optional: frees self. */
    void (*release)(void *self);
} opfor_policy_t;

/* Most counts a referee reports per game. */
#define OPFOR_REFEREE_COUNTS 4

/* A referee sits beside a game and may settle chance nodes itself (a director that picks
 * among the outcomes the rules allow). Opened per thread like a policy. */
typedef struct opfor_referee {
    void *self;
    /* Optional: a new game starts. */
    int (*begin)(void *self, const opfor_game_t *g, uint64_t game_seed);
    /* At a chance node: 1 when it applied the chance itself (state moved on), 0 to leave it
     * to the caller (which applies the listed roll), or a negative error. */
    int (*chance)(void *self, opfor_game_t *g, void *state);
    /* Optional: the game is over; may write its own counts (the director: spottings,
     * steered, generals, estimates) into counts[OPFOR_REFEREE_COUNTS]. */
    void (*end)(void *self, const opfor_game_t *g, const void *state, long *counts);
    void (*release)(void *self);
} opfor_referee_t;

/* ---------------------------------------------------------------- the ruleset's table */

typedef struct opfor_ruleset_ai {
    /* The heuristic as the search's evaluator (NULL: uniform prior, random playouts, the
     * ruleset's evaluate hook). Static data: shared by every search. */
    const opfor_evaluator_t *evaluator;
    /* Search settings that suit that evaluator (0: the search's defaults): exploration
     * constant and progressive widening (children = pw_c * visits^pw_alpha). */
    double uct_c, pw_c, pw_alpha;

    /* The ruleset's scripted bots, for help texts ("table, weak, medium, strong, heuristic";
     * NULL: none). */
    const char *bots;
    /* Opens bot `spec` for games of g. 0, OPFOR_ENOENT (not one of this ruleset's bots),
     * OPFOR_ENOMEM. NULL: no bots. */
    int (*bot_open)(const char *spec, const opfor_game_t *g, opfor_policy_t *out);
    /* The bot that plays the AI side at the lowest level and in the director's rollouts
     * (a name bot_open knows; NULL: "random"). */
    const char *rollout_bot;

    /* The order for action a of the side to decide in state, as the table reads it: the
     * ruleset's fields of opfor_order_t (unit, verb, target, move, rolls, sentence, the
     * terms of the reason); ai/ adds the search's fields. 0, OPFOR_EINVAL. NULL: the
     * order is the action's phrase. */
    int (*order)(const void *ctx, const void *state, const opfor_action_t *a,
                 struct opfor_order *out);

    /* The director (a game master keeping the players' chance near the middle of a band):
     * opens a referee for games of g with the ruleset's own settings `cfg` (NULL: its
     * defaults). NULL: the ruleset has no director. */
    int (*director_open)(const void *cfg, const opfor_game_t *g, opfor_referee_t *out);
    /* Whether action a of the side to decide in state is an order the table could not carry
     * out at all: a move that goes nowhere however well its die rolls, a fire order no
     * figure can fire. 1 inert, 0 not, a negative error. ai/ never orders an inert action
     * while the search offers another (opfor_ai_choose_in). NULL: no action is inert. */
    int (*inert)(const void *ctx, const void *state, const opfor_action_t *a);
} opfor_ruleset_ai_t;

#endif
