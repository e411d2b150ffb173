/* opfor/evaluator.h — what the search asks of a heuristic: evaluate, prior, playout policy.
 *
 * As in OpenSpiel's algorithms/mcts.h, leaf evaluation sits behind an evaluator, so the
 * heuristic planner can serve as prior (widening order), playout policy and horizon value
 * without the search knowing any game. Any hook may be NULL (uniform prior, uniform random
 * playouts, the ruleset's evaluate hook or 0). Hooks run on several threads at once: `user`
 * is read-only; what a hook writes goes in its per-thread `scratch` (allocated once).
 */
#ifndef OPFOR_EVALUATOR_H
#define OPFOR_EVALUATOR_H

#include <stddef.h>

#include "opfor/rng.h"
#include "opfor/ruleset.h"

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

#endif
