/* tests/ai/toy_games.h — tiny rulesets with known answers, for testing the search.
 *
 * tic-tac-toe (a forced win), a dice race (explicit chance outcomes), a bandit (1 player, a
 * hidden jackpot for the IS-MCTS resampler; it reports hooks that read the unresampled state),
 * a skirmish (turns, activations, buckets of hits) and a count to a target for up to
 * OPFOR_MAX_PLAYERS players (the interface's most). Compiled into the test programs
 * (#include "ai/toy_games.c"). Never registered as rulesets.
 */
#ifndef OPFOR_TOY_GAMES_H
#define OPFOR_TOY_GAMES_H

#include <stdatomic.h>
#include <stdint.h>

#include "opfor/ruleset.h"

/* ---- tic-tac-toe: squares 0..8 row by row; X (player 0) moves first ---- */
typedef struct toy_ttt_state {
    uint8_t board[9]; /* 0 empty, 1 X, 2 O */
    uint8_t to_move;  /* 0 X, 1 O */
    int8_t winner;    /* -1 none yet, 0 X, 1 O, 2 draw */
    uint8_t moves;    /* marks on the board */
} toy_ttt_state_t;
_Static_assert(sizeof(toy_ttt_state_t) == 12, "no padding holes");
extern const opfor_ruleset_t toy_ttt_ruleset;
/* Sets a position from a 9-character string of 'x', 'o' and '.', with `to_move` to play. */
void toy_ttt_set(toy_ttt_state_t *s, const char *board, int to_move);
/* The action that marks square sq. */
opfor_action_t toy_ttt_action(int sq);

/* ---- dice race: first to `TOY_RACE_TARGET` points wins ----
 * On its turn a player banks 1 point (SAFE) or gambles (RISKY): a d6 then gives 0 points on
 * a 1 (p 1/6), 2 on a 2-4 (p 1/2), 3 on a 5-6 (p 1/3). The chance node lists these three
 * outcomes explicitly. A turn is one decision of each player. */
#define TOY_RACE_TARGET 10
#define TOY_RACE_TURN_LIMIT 40
enum { TOY_RACE_ROLL = 0, TOY_RACE_SAFE = 1, TOY_RACE_RISKY = 2, TOY_RACE_OUTCOME = 3 };
typedef struct toy_race_state {
    opfor_rng_t rng;    /* the dice */
    uint8_t score[2];   /* points */
    uint8_t to_move;    /* 0 or 1 */
    uint8_t pending;    /* 1 while a RISKY roll waits */
    uint16_t decisions; /* decisions made (activations) */
    uint16_t pad;       /* zero */
} toy_race_state_t;
_Static_assert(sizeof(toy_race_state_t) == 24, "no padding holes");
extern const opfor_ruleset_t toy_race_ruleset;
/* Gains of the RISKY outcomes 0, 1, 2 and their probabilities (in sixths). */
extern const int toy_race_gain[3];
extern const int toy_race_sixths[3];

/* ---- bandit: one pull of one of TOY_BANDIT_ARMS arms, return 1 on a win, else 0 ----
 * Arm a wins with public chance p[a], except the hidden jackpot arm, which always wins.
 * The jackpot is drawn at init from the seed; the resampler redraws it uniformly. */
#define TOY_BANDIT_ARMS 3
enum { TOY_BANDIT_ROLL = 0, TOY_BANDIT_PULL = 1, TOY_BANDIT_OUTCOME = 2 };
typedef struct toy_bandit_ctx {
    double p[TOY_BANDIT_ARMS]; /* public win chances */
    int watch;                 /* 1: count hooks reading an unresampled state in *leaks */
    atomic_int *leaks;         /* reads of the true hidden state while watching (may be NULL) */
    atomic_int *resamples;     /* resample calls (may be NULL) */
} toy_bandit_ctx_t;
typedef struct toy_bandit_state {
    opfor_rng_t rng; /* the dice */
    uint8_t pulled;  /* arm pulled, 0xFF before */
    uint8_t done;    /* 1 once the pull is resolved */
    uint8_t reward;  /* 1 won */
    uint8_t jackpot; /* hidden: the arm that always wins */
    uint8_t real;    /* 1: this is the true state (not redrawn by resample) */
    uint8_t pad[3];  /* zero */
} toy_bandit_state_t;
_Static_assert(sizeof(toy_bandit_state_t) == 24, "no padding holes");
extern const opfor_ruleset_t toy_bandit_ruleset;

/* ---- skirmish: two sides of 4 units on a 12-square lane, 6 turns ----
 * Each turn every unit activates once; the side to activate next is rolled for (a chance
 * node with two outcomes) while both have units ready. An activation is one action: move
 * the unit up to 3 squares, fire at an enemy within 6 squares (a chance node: 0, 1 or 2+
 * hits, each hit removes a figure), or hold. Most figures left after 6 turns wins. */
#define TOY_SK_UNITS 4
#define TOY_SK_LANE 12
#define TOY_SK_TURNS 6
enum {
    TOY_SK_ROLL = 0,
    TOY_SK_MOVE = 1,
    TOY_SK_FIRE = 2,
    TOY_SK_HOLD = 3,
    TOY_SK_INIT_OUTCOME = 4,
    TOY_SK_HIT_OUTCOME = 5
};
typedef struct toy_sk_state {
    opfor_rng_t rng;               /* the dice */
    uint8_t pos[2][TOY_SK_UNITS];  /* square 0..11 */
    uint8_t str[2][TOY_SK_UNITS];  /* figures left 0..4 */
    uint8_t done[2][TOY_SK_UNITS]; /* activated this turn */
    uint8_t turn;                  /* 1.. ; TOY_SK_TURNS + 1 ends */
    uint8_t side;                  /* side to act, when phase is ACT */
    uint8_t phase;                 /* 0 initiative roll, 1 act, 2 fire roll, 3 over */
    uint8_t firer;                 /* firing unit (phase 2) */
    uint8_t target;                /* target unit (phase 2) */
    uint8_t pad[3];                /* zero */
    uint32_t activations;          /* activations completed */
    uint32_t pad2;                 /* zero: no padding holes */
} toy_sk_state_t;
_Static_assert(sizeof(toy_sk_state_t) == 56, "no padding holes");
extern const opfor_ruleset_t toy_sk_ruleset;

/* ---- count: TOY_COUNT_PLAYERS players in turn add 1 or 2 to a shared total; the player
 * who brings it to exactly TOY_COUNT_TARGET wins (+1, the others -1/(n-1)); a player at
 * TOY_COUNT_TARGET - 1 may only add 1. Tests the search with the most players a ruleset may
 * declare. */
#define TOY_COUNT_PLAYERS OPFOR_MAX_PLAYERS
#define TOY_COUNT_TARGET 21
typedef struct toy_count_state {
    uint8_t total;   /* the shared total, 0..TOY_COUNT_TARGET */
    uint8_t to_move; /* 0..TOY_COUNT_PLAYERS-1 */
    int8_t winner;   /* -1 none yet */
    uint8_t moves;   /* moves made */
} toy_count_state_t;
_Static_assert(sizeof(toy_count_state_t) == 4, "no padding holes");
extern const opfor_ruleset_t toy_count_ruleset;
/* The action that adds k (1 or 2). */
opfor_action_t toy_count_action(int k);

/* All of them, NULL-terminated, for the conformance suite. */
extern const opfor_ruleset_t *const toy_rulesets[];
/* A context fit for each toy ruleset (the bandit's with p = 0.3, 0.6, 0.5, not watching). */
const void *toy_default_ctx(const opfor_ruleset_t *rs);

#endif
