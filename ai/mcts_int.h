/* ai/mcts_int.h — private structures of ai/mcts.c, and the design of the search.
 *
 * The public header (opfor/mcts.h) says what the search does; this file says how and why,
 * in the manner of sqlite's btreeInt.h. Read the essay below before changing mcts.c.
 */
#ifndef OPFOR_MCTS_INT_H
#define OPFOR_MCTS_INT_H

/*
** SCOPE
**
** One search answers one decision: the root is a state where a side must choose (in
** a skirmish that is one activation: which unit, then what it does). The tree covers the
** decisions of every player up to a horizon (by default the end of the root's turn, read
** from the ruleset's progress hook); past a leaf, a playout continues to the same horizon
** with the evaluator's policy and the evaluator scores the state reached. Terminal states
** score with the ruleset's returns. All values lie in [-1, 1] from each player's view, so
** one search handles 1 player (the bandit test game), 2 players (zero-sum or not) and more.
**
** SELECTION: UCT WITH AVAILABILITY COUNTS
**
** At a decision node for player p, among the children whose action is legal in the state
** this iteration reached, pick the one maximising
**
**     Q(c) + C * sqrt( ln A(c) / N(c) )
**
** where Q(c) is the mean return for p of the iterations through c, N(c) their number, A(c)
** the number of times c was legal when its parent was reached (its availability), and C is
** cfg.uct_c (1.4 by default, about sqrt 2 for returns spanning 2). This is UCB1 (Auer et al.
** 2002) applied to trees, UCT (Kocsis and Szepesvari, "Bandit based Monte-Carlo Planning",
** ECML 2006), with A(c) in place of the parent's visit count as in single-observer
** information-set MCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
** Search", IEEE TCIAIG 2012): with open-loop dice and resampled hidden state, the same
** node sees different legal actions on different iterations, and A(c) keeps the bonus
** honest for children that are often unavailable. ln is opfor_log (mathx.h), identical on
** every machine; so the search reproduces across x86-64 and arm64.
**
** Children are keyed by (player to move, action): in an open-loop tree the same action
** sequence may lead to a state where another side decides (the initiative roll), and each
** side's children keep their own values.
**
** PROGRESSIVE WIDENING (Coulom 2007; Chaslot et al. 2008)
**
** A node visited n times may have at most max(1, floor(pw_c * (n + 1)^pw_alpha)) children
** available. When fewer are available and a legal action is not yet a child, the search adds
** the one the evaluator's prior ranks highest (ties in legal order) and plays out from it:
** one expansion per iteration. Wargame decisions have dozens of candidate moves; widening
** spends the first iterations on the planner's favourites and lets the rest in slowly.
** The power uses opfor_exp/opfor_log (sqrt when alpha is 1/2).
**
** CHANCE: OPEN LOOP, AND EXPLICIT WHERE IT MATTERS
**
** Each iteration copies the root state once into a scratch buffer (nodes never hold
** states) and re-seeds the copy's own dice stream from the search's stream, so the engine
** draws fresh dice inside apply and the search never reads the real game's future dice
** (open-loop MCTS: Perez Liebana et al., "Open Loop Search for General Video Game Playing",
** GECCO 2015). Where the ruleset lists a few outcomes of a chance node (a morale test,
** buckets of hits; at most cfg.max_outcomes of them), the node's children are those
** outcomes, and the search picks the one furthest below its share: argmax of S(o) - N(o),
** where S(o) sums p(o) over the iterations that listed o (p may change between iterations
** when it depends on redrawn hidden state, so a plain p(o) * count would be biased). Visits
** then follow the probabilities almost exactly without sampling noise, and values after a
** failed morale test are not averaged with those after a pass.
**
** HIDDEN INFORMATION
**
** When the ruleset hides information (OPFOR_RS_HIDDEN), each iteration calls its resample
** hook on the scratch copy before anything else reads it: what the deciding side cannot
** know (what a ruleset will draw next, the cards in other hands) is redrawn from what it
** can. One tree then collects statistics over many determinizations (SO-ISMCTS). Only
** cfg.cheat skips the redraw and lets the search read the true hidden state.
**
** MEMORY: ONE POOL, INDICES, O(1) RESET
**
** Nodes are 64 bytes (one cache line) in a pool allocated once per thread; links are
** uint32_t indices (child, sibling), so a reset is `used = 0` and nothing is freed. The
** memory cap divided by the node size gives the node count (OpenSpiel turns its max_memory
** into a node budget the same way). When a pool is full the tree stops growing and the
** iterations go on with playouts from its leaves. Nothing is allocated after creation.
**
** DETERMINISM
**
** A search's stream is derived from (game seed, decision number); each thread t draws from
** its own child stream derived from that and t. All tie-breaks are by position (legal
** order, insertion order). With a budget in iterations, the same key gives the same tree,
** and the same answer, on every run and machine. The wall-clock cap and cancellation are
** the only sources of variation, and only when they, not the budget, stop the search.
**
** ROOT PARALLELISM, LOCK-FREE
**
** With T threads each runs an independent search (Chaslot, Winands and van den Herik,
** "Parallel Monte-Carlo Tree Search", CG 2008: root parallelisation) with its own pool,
** scratch state, evaluator scratch, game counters and stream, on budget/T iterations (the
** first budget%T threads one more). The threads share only read-only data (the root state,
** the ruleset context, the evaluator's user data) and the caller's cancel flag, read with
** relaxed atomic loads: no locks, no shared writes, no false sharing of hot data (each
** worker's block is allocated separately). The results are merged after every thread has
** joined, thread 0 first: root children are matched by action and their visits and values
** summed, then sorted by visits (ties: higher mean, then first seen). The
** merge order is fixed, so threads add no nondeterminism.
*/

#include <stdint.h>

#include "opfor/mcts.h"

/* "No node" in child / sibling links. */
#define OPFOR__MCTS_NIL UINT32_MAX
/* The mover of the root node (nobody chose an action to reach it). */
#define OPFOR__MCTS_ROOT_MOVER (-3)

/* One tree node: the action that led to it from its parent and its statistics. 64 bytes. */
typedef struct opfor__mcts_node {
    opfor_action_t action; /* the action (or chance outcome) taken at the parent */
    uint32_t child;        /* first child, OPFOR__MCTS_NIL when none */
    uint32_t sibling;      /* next sibling, OPFOR__MCTS_NIL when last */
    uint32_t visits;       /* N: iterations through this node */
    float prior;           /* the evaluator's prior, or the outcome's probability */
    double value;          /* sum of the returns of `mover` over those iterations */
    union {
        uint32_t avail; /* decision child: A, times it was legal when its parent was reached */
        double share;   /* chance child: sum of its probability over the times it was listed */
    } u;
    int8_t mover;       /* who chose it: a side, OPFOR_PLAYER_CHANCE, or the root marker */
    uint8_t pad8;       /* unused */
    uint16_t nchildren; /* children linked below it */
    uint32_t key;       /* 32-bit hash of action: compared before the full action */
} opfor__mcts_node_t;
_Static_assert(sizeof(opfor__mcts_node_t) == OPFOR_MCTS_NODE_BYTES, "a node is one cache line");

/* One search thread's private world. Allocated as one block per thread. */
typedef struct opfor__mcts_worker {
    struct opfor_mcts *m;         /* the owning search */
    int index;                    /* thread number, 0 = the caller's thread */
    opfor_game_t game;            /* own copy of the game binding (counters) */
    opfor_rng_t rng;              /* this thread's stream */
    opfor__mcts_node_t *pool;     /* the node pool */
    uint32_t cap;                 /* nodes in the pool */
    uint32_t used;                /* nodes handed out; reset to 0 per search */
    int full;                     /* 1 once an expansion found the pool full */
    unsigned char *scratch;       /* the iteration's state copy (state_size bytes) */
    opfor_action_t *acts;         /* legal actions buffer (max_actions) */
    float *prior;                 /* priors for acts (max_actions) */
    uint8_t *taken;               /* acts[j] is already an available child (max_actions) */
    uint32_t *keys;               /* action_key of each of acts (max_actions) */
    opfor_chance_outcome_t *outs; /* chance outcomes buffer (max_outcomes) */
    uint32_t *path;               /* node indices from the root down (max_depth + 2) */
    void *ev_scratch;             /* the evaluator's per-thread scratch */
    double *values;               /* per-player values of the iteration */
    uint32_t budget;              /* iterations to run this search */
    uint64_t iterations;          /* iterations run */
    uint64_t resamples;           /* hidden-state redraws */
    opfor_mcts_stop_t stop;       /* why this thread stopped */
    int err;                      /* first hook error that aborted the thread, else 0 */
} opfor__mcts_worker_t;

/* One root action summed over the threads by the merge. */
typedef struct opfor__mcts_agg {
    opfor_action_t action; /* the action */
    uint64_t visits;       /* visits, all threads */
    double value;          /* sum of returns for the root player, all threads */
    float prior;           /* prior from the first thread that tried it */
    uint32_t order;        /* first seen: thread 0's children first, in insertion order */
} opfor__mcts_agg_t;

/* The search object: configuration, sizes and the workers. */
struct opfor_mcts {
    opfor_mcts_config_t cfg;                               /* settings in force */
    size_t state_size;                                     /* largest state the buffers hold */
    int max_actions;                                       /* largest legal list */
    int max_players;                                       /* values per iteration */
    size_t ev_scratch;                                     /* evaluator scratch per thread */
    size_t bytes;                                          /* everything allocated */
    atomic_int busy;                                       /* 1 while a search runs */
    opfor__mcts_worker_t *workers[OPFOR_MCTS_MAX_THREADS]; /* one per thread */
    opfor__mcts_agg_t *agg; /* the merge's table, allocated at creation */
    size_t agg_cap;         /* its entries: 2 * threads * max_actions */
    /* the current search's shared, read-only inputs */
    const opfor_game_t *game;       /* the caller's binding (copied into each worker) */
    const void *root;               /* the root state */
    const opfor_evaluator_t *ev;    /* the evaluator, never NULL while searching */
    const atomic_int *cancel;       /* the caller's flag, or NULL */
    int root_player;                /* who decides at the root */
    opfor_progress_t root_progress; /* the root's clock */
    int have_progress;              /* the ruleset has the progress hook */
    double deadline;                /* monotonic seconds, 0 when no wall cap */
    uint64_t search_seed;           /* derived from (seed, decision) */
};

/* Runs one worker's share of the current search (thread entry; also called inline). */
void opfor__mcts_run(opfor__mcts_worker_t *w);

#endif
