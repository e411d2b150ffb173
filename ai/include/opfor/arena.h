/* opfor/arena.h — seeded matches between policies over the ruleset interface.
 *
 * A policy is one small interface (name, choose(game, state, rng) -> action) with a begin
 * hook per game and a release; each worker thread opens its own instances, so a policy may
 * keep scratch memory (an MCTS node pool) without locks. Game i is seeded from (seed, i),
 * policy a takes side 0 in even games and side 1 in odd ones, and every result is stored by
 * game number, so a run gives the same numbers with any thread count. The summary counts
 * wins, draws and losses of a and gives win_rate_a with its Wilson 95% interval.
 */
#ifndef OPFOR_ARENA_H
#define OPFOR_ARENA_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "opfor/ruleset.h"
#include "opfor/ruleset_ai.h"

/* Most worker threads. */
#define OPFOR_ARENA_MAX_THREADS 16
/* z of a two-sided 95% interval. */
#define OPFOR_ARENA_Z95 1.959963984540054

/* A player in the arena: the interface's policy (opfor/ruleset_ai.h), one instance per
 * worker thread, reused game after game. */
typedef opfor_policy_t opfor_arena_policy_t;

/* Opens a policy instance from a spec for games of g (user as given in the config). 0, or
 * OPFOR_ENOENT (unknown spec), OPFOR_ENOTSUP (not for this ruleset), OPFOR_ENOMEM. */
typedef int (*opfor_arena_open_fn)(void *user, const char *spec, const opfor_game_t *g,
                                   opfor_arena_policy_t *out);

/* A referee sits beside the game on each worker and may settle chance nodes itself (a
 * ruleset's director): the interface's referee (opfor/ruleset_ai.h), opened per worker like
 * a policy; its end hook writes the game's out->referee counts. */
typedef opfor_referee_t opfor_arena_referee_t;
typedef int (*opfor_arena_referee_fn)(void *user, const opfor_game_t *g,
                                      opfor_arena_referee_t *out);

/* Progress of a long run: games finished so far out of total (called from workers, one
 * call at a time). */
typedef void (*opfor_arena_progress_fn)(void *user, long done, long total);

/* What to play. Start from opfor_arena_config_default(). */
typedef struct opfor_arena_config {
    const opfor_ruleset_t *rs;        /* the ruleset (two players) */
    const void *const *ctxs;          /* game contexts (scenarios), cycled every two games */
    int nctx;                         /* entries of ctxs, >= 1 */
    const char *a, *b;                /* policy specs */
    long games;                       /* games to play, >= 1 */
    uint64_t seed;                    /* run seed: game i is seeded from (seed, i) */
    int threads;                      /* worker threads, 1..OPFOR_ARENA_MAX_THREADS */
    int swap;                         /* 1 (default): a plays side 0 in even games, 1 in odd ones */
    int a_side;                       /* without swap: the side a always plays */
    long max_steps;                   /* actions (chance included) before a game is a draw */
    opfor_arena_open_fn open;         /* NULL: opfor_arena_policy_open (the built-in catalogue) */
    void *open_user;                  /* passed to open */
    opfor_arena_referee_fn referee;   /* NULL: none */
    void *referee_user;               /* passed to referee */
    opfor_arena_progress_fn progress; /* NULL: silent */
    void *progress_user;              /* passed to progress */
    /* NULL: run every game. Otherwise, once *stop is nonzero (e.g. set by a signal handler:
     * a lock-free atomic_int may be, and the worker threads read it without a race) no new
     * game starts; games in progress play to their end, so the run covers games 0..N-1 for
     * some N and result.interrupted is 1 when N < games. */
    const atomic_int *stop;
} opfor_arena_config_t;

/* One game's outcome, by game number. */
typedef struct opfor_arena_game {
    uint64_t seed;                      /* the game's seed */
    int ctx;                            /* index into ctxs */
    int a_side;                         /* the side a played */
    int outcome;                        /* 1 a won, 0 draw, -1 a lost, -2 error (counted apart) */
    int error;                          /* the error code when outcome is -2 */
    long steps;                         /* actions applied, chance included */
    double ret_a;                       /* a's return at the end, [-1, 1] */
    long referee[OPFOR_REFEREE_COUNTS]; /* the referee's own counts (a director: spottings,
                                           steered, generals, estimates) */
} opfor_arena_game_t;

/* The summary of a run. */
typedef struct opfor_arena_result {
    long games;              /* games played (errors included): cfg->games, or fewer when
                                stopped */
    int interrupted;         /* 1: cfg->stop ended the run before cfg->games games */
    long wins_a;             /* a won */
    long wins_b;             /* b won */
    long draws;              /* neither */
    long errors;             /* games stopped by an error (neither win nor draw) */
    long a_games_side[2];    /* games a played as side 0 / side 1 */
    long a_wins_side[2];     /* of which a won */
    double win_rate_a;       /* wins_a / (games - errors) */
    double ci_lo, ci_hi;     /* Wilson 95% interval of win_rate_a */
    double score_a;          /* (wins_a + draws / 2) / (games - errors) */
    double mean_steps;       /* actions per game */
    opfor_arena_game_t *log; /* games entries by game number (opfor_arena_result_free) */
} opfor_arena_result_t;

/* Defaults: no ruleset, 1 game, seed 0, 1 thread, swap on, a_side 0, 1,000,000 steps, the
 * built-in catalogue, no referee, no progress, no stop flag. */
void opfor_arena_config_default(opfor_arena_config_t *cfg);

/* The Wilson score interval of k successes in n trials at z (OPFOR_ARENA_Z95): *lo, *hi in
 * [0, 1]; n <= 0 gives [0, 1]. Uses sqrt only (exactly rounded everywhere). */
void opfor_arena_wilson(long k, long n, double z, double *lo, double *hi);

/* Seed of game i of a run seeded with seed. */
uint64_t opfor_arena_game_seed(uint64_t seed, long i);

/* Plays cfg->games games (or, once *cfg->stop is set, the games 0..N-1 already started)
 * and fills *out (release with opfor_arena_result_free). Each
 * worker opens its own policy instances (and referee) once. Returns 0 (games that fail
 * count as errors in *out), OPFOR_EINVAL (bad config, a ruleset that is not for two
 * players), OPFOR_ENOMEM, or the error of opening a policy (OPFOR_ENOENT for an unknown
 * spec). The same config gives the same *out whatever cfg->threads is. */
int opfor_arena_run(const opfor_arena_config_t *cfg, opfor_arena_result_t *out);
/* Frees out->log; NULL is fine. */
void opfor_arena_result_free(opfor_arena_result_t *out);

/* The built-in catalogue, for any ruleset: "random" (uniform over the legal actions) and
 * "mcts:LEVEL" (a level of opfor/ai.h with the ruleset's evaluator, or random playouts
 * without one, and the search's own default exploration and widening; the arena drops the
 * level's wall-clock cap so results do not depend on the machine's speed); any other spec
 * goes to the ruleset's bots (opfor_ruleset_ai_t.bot_open). user is ignored. OPFOR_ENOENT
 * for a spec nobody knows. */
int opfor_arena_policy_open(void *user, const char *spec, const opfor_game_t *g,
                            opfor_arena_policy_t *out);
/* The specs opfor_arena_policy_open knows for rs, for help texts, into buf (n bytes):
 * "random, <the ruleset's bots>, mcts:LEVEL (novice, standard, ...)". Returns buf. */
const char *opfor_arena_policy_list(const opfor_ruleset_t *rs, char *buf, size_t n);
/* Whether spec names a policy opfor_arena_policy_open knows for rs (a word of the ruleset's
 * bots list counts), so a typo can be refused before a run. */
int opfor_arena_policy_known(const opfor_ruleset_t *rs, const char *spec);

/* A referee function for opfor_arena_config_t.referee: the director of g's ruleset
 * (opfor_ruleset_ai_t.director_open) with user as its settings (the ruleset's own config
 * type; NULL: its defaults). OPFOR_ENOTSUP when the ruleset has no director. */
int opfor_arena_director(void *user, const opfor_game_t *g, opfor_arena_referee_t *out);

/* Plays one game of g from seed with policies for side 0 and side 1 (and an optional
 * referee), at most max_steps actions. Fills *out (a_side 0: "a" is pols[0]). Returns 0 or
 * the first error (also in out->error). state needs g->rs->state_size bytes; acts room for
 * g->rs->max_actions. */
int opfor_arena_play(opfor_game_t *g, uint64_t seed, opfor_arena_policy_t *const pols[2],
                     opfor_arena_referee_t *ref, long max_steps, void *state, opfor_action_t *acts,
                     opfor_arena_game_t *out);

#endif
