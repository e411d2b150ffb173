/* opfor/rng.h — seedable random streams (PCG32, XSH-RR 64/32).
 *
 * There is no global random state anywhere in opfor: every function that draws takes an
 * opfor_rng_t * seeded by its caller. PCG32 uses only 64-bit integer arithmetic, so a
 * (seed, stream) pair gives the same sequence on x86-64 and arm64. Streams with different
 * stream numbers are independent; opfor_rng_derive() makes a child stream from a parent
 * seed and a key (e.g. game seed and decision number) without touching the parent.
 * The struct is 16 bytes and plain data: it is copied with the game state.
 */
#ifndef OPFOR_RNG_H
#define OPFOR_RNG_H

#include <stdint.h>

typedef struct opfor_rng {
    uint64_t state; /* current LCG state */
    uint64_t inc;   /* stream selector, always odd */
} opfor_rng_t;

/* Seeds r with a seed and a stream number; any values are valid. */
void opfor_rng_seed(opfor_rng_t *r, uint64_t seed, uint64_t stream);
/* A child stream keyed by (seed, key): same inputs, same stream, on every machine. */
void opfor_rng_derive(opfor_rng_t *child, uint64_t seed, uint64_t key);
/* SplitMix64 finaliser: a well-mixed 64-bit hash of x; used to derive seeds. */
uint64_t opfor_rng_mix64(uint64_t x);
/* Next 32 random bits. */
uint32_t opfor_rng_u32(opfor_rng_t *r);
/* Uniform integer in [0, n) without modulo bias; n must be > 0 (returns 0 for n == 0). */
uint32_t opfor_rng_below(opfor_rng_t *r, uint32_t n);
/* Uniform integer in [lo, hi] inclusive; lo <= hi. */
int opfor_rng_range(opfor_rng_t *r, int lo, int hi);
/* Uniform double in [0, 1) with 53 random bits. */
double opfor_rng_unit(opfor_rng_t *r);
/* True with probability p (p <= 0 never, p >= 1 always). */
int opfor_rng_chance(opfor_rng_t *r, double p);
/* One six-sided die, 1..6. */
int opfor_rng_d6(opfor_rng_t *r);

#endif
