/* core/rng.c — PCG32 (XSH-RR 64/32) random streams, SplitMix64 mixing, and the draws built on
 * them (bounded integers, unit doubles, chances, d6).
 *
 * Everything is 64-bit integer arithmetic so a (seed, stream) pair yields the same numbers on
 * every machine. opfor_rng_seed() follows the PCG reference pcg32_srandom_r() step for step, so
 * the published known-answer outputs hold. Bounded draws use Lemire's multiply-and-reject
 * method: no modulo bias and, almost always, no division.
 */
#include "opfor/rng.h"

#define OPFOR__PCG_MULT 6364136223846793005ULL
#define OPFOR__GOLDEN_GAMMA 0x9E3779B97F4A7C15ULL
/* Key whitening for derive(): keeps the child's stream number unrelated to its seed. */
#define OPFOR__STREAM_SALT 0xD1B54A32D192ED03ULL

uint32_t opfor_rng_u32(opfor_rng_t *r) {
    uint64_t old = r->state;
    r->state = old * OPFOR__PCG_MULT + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((0u - rot) & 31u));
}

void opfor_rng_seed(opfor_rng_t *r, uint64_t seed, uint64_t stream) {
    r->state = 0;
    r->inc = (stream << 1u) | 1u;
    (void)opfor_rng_u32(r);
    r->state += seed;
    (void)opfor_rng_u32(r);
}

/* The SplitMix64 output for state x: add the golden gamma, then the variant-13 finaliser.
 * Adding the gamma first means mix64(0) != 0. */
uint64_t opfor_rng_mix64(uint64_t x) {
    uint64_t z = x + OPFOR__GOLDEN_GAMMA;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void opfor_rng_derive(opfor_rng_t *child, uint64_t seed, uint64_t key) {
    uint64_t child_seed = opfor_rng_mix64(seed ^ opfor_rng_mix64(key));
    uint64_t child_stream = opfor_rng_mix64(key ^ OPFOR__STREAM_SALT);
    opfor_rng_seed(child, child_seed, child_stream);
}

/* Lemire, "Fast Random Integer Generation in an Interval" (2019): the high word of x * n is
 * uniform once products whose low word falls below 2^32 mod n are rejected. */
uint32_t opfor_rng_below(opfor_rng_t *r, uint32_t n) {
    if (n == 0)
        return 0;
    uint64_t m = (uint64_t)opfor_rng_u32(r) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (0u - n) % n; /* 2^32 mod n */
        while (low < threshold) {
            m = (uint64_t)opfor_rng_u32(r) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

int opfor_rng_range(opfor_rng_t *r, int lo, int hi) {
    if (hi <= lo)
        return lo;
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1u; /* 2..2^32 */
    uint32_t off = span > 0xFFFFFFFFULL ? opfor_rng_u32(r) : opfor_rng_below(r, (uint32_t)span);
    return (int)((int64_t)lo + (int64_t)off);
}

/* 27 high bits of one draw and 26 of the next make a 53-bit integer; scaling by 2^-53 is exact. */
double opfor_rng_unit(opfor_rng_t *r) {
    uint64_t a = opfor_rng_u32(r) >> 5;
    uint64_t b = opfor_rng_u32(r) >> 6;
    return (double)((a << 26) | b) * (1.0 / 9007199254740992.0);
}

/* Always consumes exactly one unit() draw, so the stream position never depends on p.
 * NaN compares false and so never succeeds. */
int opfor_rng_chance(opfor_rng_t *r, double p) {
    return opfor_rng_unit(r) < p;
}

int opfor_rng_d6(opfor_rng_t *r) {
    return 1 + (int)opfor_rng_below(r, 6);
}
