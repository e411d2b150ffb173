/* opfor/mcts.h — Monte Carlo tree search over the ruleset interface, one decision at a time.
 *
 * UCT with progressive widening in the evaluator's prior order; open-loop dice plus explicit
 * chance nodes where the ruleset lists a few outcomes; information-set resampling of hidden
 * state; playouts to the horizon (end of the turn), then the evaluator. One node pool
 * allocated up front, O(1) reset, optional root parallelism, deterministic per (seed,
 * decision). Formula, scope, references and the threading design: ai/mcts_int.h.
 */
#ifndef OPFOR_MCTS_H
#define OPFOR_MCTS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "opfor/evaluator.h"
#include "opfor/ruleset.h"

/* Entries of opfor_mcts_result_t.top: the root's most visited actions. */
#define OPFOR_MCTS_TOP_K 8
/* Bytes of one tree node: pools hold memory_bytes / threads / OPFOR_MCTS_NODE_BYTES nodes. */
#define OPFOR_MCTS_NODE_BYTES 64
/* Most search threads. */
#define OPFOR_MCTS_MAX_THREADS 64

/* Where iterations stop descending and playing out, and evaluate instead. */
typedef enum opfor_mcts_horizon {
    OPFOR_MCTS_HORIZON_TURN = 0,   /* the end of the root's turn (default) */
    OPFOR_MCTS_HORIZON_ACTIVATION, /* the end of the root's activation */
    OPFOR_MCTS_HORIZON_END,        /* the end of the game (or max_playout_steps) */
} opfor_mcts_horizon_t;

/* Why a search stopped. */
typedef enum opfor_mcts_stop {
    OPFOR_MCTS_STOP_BUDGET = 0, /* every iteration of the budget ran */
    OPFOR_MCTS_STOP_WALL,       /* the wall-clock cap came first */
    OPFOR_MCTS_STOP_CANCEL,     /* the cancel flag was raised */
    OPFOR_MCTS_STOP_FORCED,     /* only one legal action: no search needed */
} opfor_mcts_stop_t;

/* Everything that tunes a search. Start from opfor_mcts_config_default(). */
typedef struct opfor_mcts_config {
    double uct_c;                 /* exploration constant c of UCT (returns lie in [-1, 1]) */
    uint32_t iterations;          /* iteration budget, all threads together (>= 1) */
    uint32_t wall_ms;             /* wall-clock cap in ms; 0: none */
    size_t memory_bytes;          /* cap on the node pools, all threads together */
    double pw_c;                  /* progressive widening: a node visited n times may have */
    double pw_alpha;              /*   max(1, floor(pw_c * (n + 1)^pw_alpha)) children; */
                                  /*   pw_c <= 0 turns widening off (all candidates) */
    uint64_t seed;                /* the game's seed; a search is keyed by (seed, decision) */
    int threads;                  /* root-parallel threads, 1..OPFOR_MCTS_MAX_THREADS */
    int chance_nodes;             /* 1: explicit chance nodes where the ruleset lists outcomes */
    int max_outcomes;             /* ... and at most this many of them (else open loop) */
    int cheat;                    /* 1: no resampling, the search reads the true hidden state */
    opfor_mcts_horizon_t horizon; /* where to stop and evaluate (needs the progress hook) */
    int max_depth;                /* deepest tree node below the root */
    int max_playout_steps;        /* most actions (chance included) from the root per iteration */
} opfor_mcts_config_t;

/* One root action with its statistics. */
typedef struct opfor_mcts_choice {
    opfor_action_t action; /* the action */
    uint32_t visits;       /* iterations that chose it (summed over threads) */
    double value;          /* mean return for the deciding player, in [-1, 1] */
    float prior;           /* the evaluator's prior weight */
} opfor_mcts_choice_t;

/* What a search found. top[0] is the best action (most visits, then best value, then
 * first found); top[1], when nchoices > 1, is the runner-up. */
typedef struct opfor_mcts_result {
    int player;                                /* who decides at the root */
    int nchoices;                              /* entries in top */
    opfor_mcts_choice_t top[OPFOR_MCTS_TOP_K]; /* by visits, most first */
    int nroot;                                 /* distinct root actions tried */
    uint64_t iterations;                       /* iterations run, all threads */
    uint64_t nodes;                            /* pool nodes used, all threads */
    uint64_t node_capacity;                    /* pool nodes available, all threads */
    int pool_full;                             /* 1 when some pool ran out (no more growth) */
    opfor_mcts_stop_t stop;                    /* why it stopped */
    double elapsed_ms;                         /* wall-clock time of the search */
    uint64_t resamples;                        /* hidden-state redraws made */
} opfor_mcts_result_t;

typedef struct opfor_mcts opfor_mcts_t;

/* Defaults: c 1.4, 1000 iterations, no wall cap, 64 MiB, widening 1.5 * (n+1)^0.5, seed 0,
 * 1 thread, explicit chance nodes for up to 16 outcomes, no cheating, horizon TURN, depth
 * 64, 400 playout steps. */
void opfor_mcts_config_default(opfor_mcts_config_t *cfg);

/* Creates a search for states of ruleset rs with cfg, allocating every buffer now (node
 * pools of memory_bytes / threads each, scratch states, action lists, the evaluator's
 * scratch of up to ev_scratch bytes per thread): nothing is allocated while searching.
 * Returns 0 and *out, OPFOR_EINVAL (bad config: no iterations, threads out of range, a pool
 * smaller than 16 nodes), or OPFOR_ENOMEM. Release with opfor_mcts_free. */
int opfor_mcts_create(opfor_mcts_t **out, const opfor_ruleset_t *rs, const opfor_mcts_config_t *cfg,
                      size_t ev_scratch);
/* Releases a search; NULL is fine. Not while opfor_mcts_search runs. */
void opfor_mcts_free(opfor_mcts_t *m);
/* Changes the budget, seed, exploration and the other per-search settings. The pool size,
 * thread count and sizes fixed at creation do not change: OPFOR_EINVAL if cfg asks for a
 * different memory_bytes or threads. */
int opfor_mcts_configure(opfor_mcts_t *m, const opfor_mcts_config_t *cfg);
/* The configuration in force. */
const opfor_mcts_config_t *opfor_mcts_config(const opfor_mcts_t *m);
/* Bytes allocated by the search (pools, scratch, lists). */
size_t opfor_mcts_memory(const opfor_mcts_t *m);

/* Searches the decision at root (a state of g's ruleset, left untouched) and fills *out.
 * The search is keyed by (cfg.seed, decision): the same key, configuration and iteration
 * budget give the same result every time, with any thread count fixed at creation, as long
 * as the budget (not the wall cap or a cancel) ends the search. ev may be NULL (random
 * playouts). cancel, when not NULL, is polled every iteration; raising it stops the search
 * within one iteration. A search reads the root's hidden state only with cfg.cheat (the
 * player to move, from current(), is taken as public).
 * Returns 0; OPFOR_ECANCELED when cancelled (*out still holds what was found so far);
 * OPFOR_EINVAL when the root is terminal, a chance node, has no legal action, or the
 * ruleset's sizes exceed the ones given at creation; OPFOR_EBUSY if another search is
 * running on m. */
int opfor_mcts_search(opfor_mcts_t *m, const opfor_game_t *g, const void *root,
                      const opfor_evaluator_t *ev, uint64_t decision, const atomic_int *cancel,
                      opfor_mcts_result_t *out);

#endif
