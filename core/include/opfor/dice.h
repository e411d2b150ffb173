/* opfor/dice.h — dice notation, exact distributions and sampling.
 *
 * Notation accepted (case-insensitive, spaces ignored between tokens):
 *   "2d6", "D6", "d3" (a d6 halved, rounded up: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3), "1d3+4",
 *   "2d6-1", "3D6+6", "3 dice + 6 inches", "a die + 2", "4 inches", "2d6+1d3+2".
 * "dice"/"die" mean d6; a trailing "inch"/"inches"/"in"/"\"" marks a distance. At most
 * OPFOR_DICE_MAX_TERMS dice terms, each of 1..OPFOR_DICE_MAX_COUNT dice of 2..100 sides,
 * constant within +-10000, and a total spread (max - min) of at most OPFOR_DIST_MAX - 1.
 * Every distribution is exact (convolution of the terms), so a planner can enumerate
 * (outcome, probability) pairs as chance nodes as well as sample.
 */
#ifndef OPFOR_DICE_H
#define OPFOR_DICE_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/error.h"
#include "opfor/rng.h"

#define OPFOR_DICE_MAX_TERMS 4
#define OPFOR_DICE_MAX_COUNT 60
#define OPFOR_DIST_MAX 601

typedef struct opfor_dice_term {
    uint8_t count; /* number of dice, 1..OPFOR_DICE_MAX_COUNT */
    uint8_t sides; /* 2..100; 3 means a halved d6 (same distribution as a true d3) */
} opfor_dice_term_t;

typedef struct opfor_dice {
    uint8_t nterms;                                /* 0..OPFOR_DICE_MAX_TERMS */
    uint8_t inches;                                /* 1 when written as a distance */
    opfor_dice_term_t terms[OPFOR_DICE_MAX_TERMS]; /* dice terms, summed */
    int32_t bonus;                                 /* constant added to the sum */
} opfor_dice_t;

/* Exact distribution of an integer result: p[i] = P(result == min + i), i < n. */
typedef struct opfor_dist {
    int32_t min; /* smallest possible result */
    int32_t n;   /* number of entries, 1..OPFOR_DIST_MAX */
    double p[OPFOR_DIST_MAX];
} opfor_dist_t;

/* Parses text into *out. On error returns OPFOR_EPARSE (or OPFOR_ERANGE) with diag->col
 * pointing at the offending character (line 1) and *out untouched. */
int opfor_dice_parse(const char *text, opfor_dice_t *out, opfor_diag_t *diag);
/* Canonical text ("3d6+6", "1d3+4 inches"); returns the length written (snprintf rules). */
int opfor_dice_format(const opfor_dice_t *d, char *buf, size_t size);
/* Smallest and largest possible results. */
int opfor_dice_min(const opfor_dice_t *d);
int opfor_dice_max(const opfor_dice_t *d);
/* Rolls the expression as a player would, each die from r. */
int opfor_dice_roll(const opfor_dice_t *d, opfor_rng_t *r);
/* opfor_dice_roll with each die shown: the same draws from r in the same order (so the same
 * total, returned), each die's face (a d3's halved value) written to faces in term order, at
 * most max of them; *n: how many dice were rolled (more than max when faces was too small). */
int opfor_dice_roll_each(const opfor_dice_t *d, opfor_rng_t *r, int *faces, int max, int *n);
/* Exact distribution of the expression. */
int opfor_dice_dist(const opfor_dice_t *d, opfor_dist_t *out);

/* P(result >= k), P(result <= k) and the mean of a distribution. */
double opfor_dist_at_least(const opfor_dist_t *d, int k);
double opfor_dist_at_most(const opfor_dist_t *d, int k);
double opfor_dist_mean(const opfor_dist_t *d);

/* Exact chance of scoring n or more on one d6 (n <= 1: 1; n >= 7: 0). */
double opfor_d6_at_least(int n);
/* Exact chance of a total of n or more on two d6 (n <= 2: 1; n >= 13: 0). */
double opfor_2d6_at_least(int n);

#endif
