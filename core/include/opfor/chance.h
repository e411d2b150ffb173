/* opfor/chance.h — rendering an exact chance as a roll players make with real dice.
 *
 * A calculator should combine every modifier exactly and only then show the nearest chance a
 * D6 can render, so the total error is at most 1/12. opfor_roll_render() does that and goes
 * further: OPFOR_RENDER_D6      one die, "N+" (N = 1..6), or "no chance"; error <= 1/12.
 *   OPFOR_RENDER_D6_FINE as D6, but chances near 0 or 1 may become a two-step roll:
 *                        "6, then N+" (k/36) or "2+, re-roll a 1 needing N+" (1 - k/36);
 *                        error <= 1/72 below 1/12 and above 11/12.
 *   OPFOR_RENDER_2D6     two dice summed, "N+ on 2D6" (N = 3..12), "no chance", "automatic".
 * The nearest candidate wins; ties go to the simpler roll (fewer dice steps), and between
 * equally simple rolls to the lower chance. p_exact = 0 is
 * always "no chance" and p_exact = 1 always "automatic". Every rendered roll carries the
 * exact chance, the chance of the roll as rendered and their difference.
 */
#ifndef OPFOR_CHANCE_H
#define OPFOR_CHANCE_H

#include <stddef.h>

#include "opfor/rng.h"

typedef enum opfor_render_mode {
    OPFOR_RENDER_D6 = 0,
    OPFOR_RENDER_D6_FINE,
    OPFOR_RENDER_2D6,
} opfor_render_mode_t;

typedef enum opfor_roll_kind {
    OPFOR_ROLL_NEVER = 0, /* cannot succeed */
    OPFOR_ROLL_ALWAYS,    /* succeeds without a roll */
    OPFOR_ROLL_D6,        /* one d6 scoring need or more */
    OPFOR_ROLL_D6_THEN,   /* a 6, then a second d6 scoring need2 or more */
    OPFOR_ROLL_D6_REROLL, /* need (2) or more; on a 1, re-roll needing need2 or more */
    OPFOR_ROLL_2D6,       /* two d6 summed, need or more */
} opfor_roll_kind_t;

typedef struct opfor_roll {
    opfor_roll_kind_t kind;
    int need;          /* score on the first (or only) roll; 0 for NEVER/ALWAYS */
    int need2;         /* score on the second step of a two-step roll, else 0 */
    double p_exact;    /* the model's chance, clamped to [0, 1] */
    double p_rendered; /* chance of success of the roll as rendered */
    double error;      /* p_rendered - p_exact */
} opfor_roll_t;

/* Renders chance p (clamped to [0,1]; NaN is treated as 0) in the given mode. */
void opfor_roll_render(double p, opfor_render_mode_t mode, opfor_roll_t *out);
/* Exact chance of success of a roll of this kind and scores (used by render and tests). */
double opfor_roll_chance(opfor_roll_kind_t kind, int need, int need2);
/* Short text a player reads: "4+", "6, then 4+", "2+, re-roll a 1 needing 3+",
 * "8+ on 2D6", "no chance", "automatic". Returns buf. */
const char *opfor_roll_format(const opfor_roll_t *r, char *buf, size_t size);
/* Rolls it as a player would, with dice from rng: 1 on success, 0 on failure. */
int opfor_roll_sample(const opfor_roll_t *r, opfor_rng_t *rng);

/* One d6 from rng: opfor_rng_d6's value and draw, inline for the roller below. */
static inline int opfor__roll_d6(opfor_rng_t *rng) {
    return 1 + (int)opfor_rng_below(rng, 6);
}

/* Rolls a roll of this kind and scores as a player would, with dice from rng: 1 on success,
 * 0 on failure. *first (when not NULL) gets the first die, the total of a 2D6 roll, or 0 when
 * no die is rolled. Inline because rules engines roll this in their hottest paths; the dice
 * are drawn in the order a player throws them, and no more than the roll needs. */
static inline int opfor_roll_dice(int kind, int need, int need2, opfor_rng_t *rng, int *first) {
    int d;
    if (first)
        *first = 0;
    switch (kind) {
    case OPFOR_ROLL_NEVER:
        return 0;
    case OPFOR_ROLL_ALWAYS:
        return 1;
    case OPFOR_ROLL_D6:
        d = opfor__roll_d6(rng);
        if (first)
            *first = d;
        return d >= need;
    case OPFOR_ROLL_D6_THEN:
        d = opfor__roll_d6(rng);
        if (first)
            *first = d;
        return d >= need && opfor__roll_d6(rng) >= need2;
    case OPFOR_ROLL_D6_REROLL:
        d = opfor__roll_d6(rng);
        if (first)
            *first = d;
        if (d >= need)
            return 1;
        return d == 1 && opfor__roll_d6(rng) >= need2;
    case OPFOR_ROLL_2D6:
        d = opfor__roll_d6(rng);
        d += opfor__roll_d6(rng);
        if (first)
            *first = d;
        return d >= need;
    }
    return 0;
}

#endif
