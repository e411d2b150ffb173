/* tests/core/test_rng.c — PCG32 streams: known answers, determinism, uniformity, derivation.
 *
 * Statistical checks use fixed seeds, so they are deterministic: each compares a chi-square
 * statistic with the 0.1% critical value of its degrees of freedom (a fair generator would
 * exceed it for one seed in a thousand; these seeds do not), or a mean with a 4-sigma band.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <cmocka.h>

#include "opfor/rng.h"

/* 0.1% upper critical values of chi-square with 1, 2, 5, 6 and 9 degrees of freedom. */
#define CHI2_999_DF1 10.828
#define CHI2_999_DF2 13.816
#define CHI2_999_DF5 20.515
#define CHI2_999_DF6 22.458
#define CHI2_999_DF9 27.877

static double chi_square(const long *observed, const double *expected, int k) {
    double x2 = 0.0;
    for (int i = 0; i < k; i++) {
        double d = (double)observed[i] - expected[i];
        x2 += d * d / expected[i];
    }
    return x2;
}

static void rng_known_answer(void **state) {
    (void)state;
    /* pcg32-demo (pcg32_srandom_r(42, 54)) prints these first six outputs. */
    static const uint32_t want[6] = {0xa15c02b7, 0x7b47f409, 0xba1d3330,
                                     0x83d2f293, 0xbfa4784b, 0xcbed606e};
    opfor_rng_t r;
    opfor_rng_seed(&r, 42, 54);
    for (int i = 0; i < 6; i++)
        assert_int_equal(opfor_rng_u32(&r), want[i]);
    /* SplitMix64 seeded with 0 starts 0xe220a8397b1dcdaf. */
    assert_true(opfor_rng_mix64(0) == 0xe220a8397b1dcdafULL);
}

static void rng_determinism(void **state) {
    (void)state;
    opfor_rng_t a, b, c;
    opfor_rng_seed(&a, 12345, 7);
    opfor_rng_seed(&b, 12345, 7);
    opfor_rng_seed(&c, 12345, 8);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint32_t x = opfor_rng_u32(&a);
        assert_int_equal(x, opfor_rng_u32(&b));
        differ += x != opfor_rng_u32(&c);
    }
    assert_true(differ > 990);
    /* Copying the plain struct copies the stream. */
    opfor_rng_t d = a;
    for (int i = 0; i < 10; i++)
        assert_int_equal(opfor_rng_u32(&a), opfor_rng_u32(&d));
}

static void below_chi2(uint32_t n, int bins, double crit, uint64_t seed) {
    enum { DRAWS = 600000 };
    long obs[16] = {0};
    double exp_[16];
    opfor_rng_t r;
    opfor_rng_seed(&r, seed, 1);
    for (int i = 0; i < DRAWS; i++) {
        uint32_t v = opfor_rng_below(&r, n);
        assert_true(v < n);
        obs[(uint64_t)v * (uint64_t)bins / n]++;
    }
    /* Exact share of [0, n) falling in each bin. */
    for (int b = 0; b < bins; b++) {
        uint64_t lo = ((uint64_t)b * n + (uint64_t)bins - 1) / (uint64_t)bins;
        uint64_t hi = ((uint64_t)(b + 1) * n + (uint64_t)bins - 1) / (uint64_t)bins;
        exp_[b] = (double)DRAWS * (double)(hi - lo) / (double)n;
    }
    double x2 = chi_square(obs, exp_, bins);
    if (!(x2 < crit))
        fail_msg("below(%u): chi-square %.3f >= %.3f", n, x2, crit);
}

static void rng_below_uniform(void **state) {
    (void)state;
    below_chi2(6, 6, CHI2_999_DF5, 2024);
    below_chi2(10, 10, CHI2_999_DF9, 2025);
    below_chi2(7, 7, CHI2_999_DF6, 2026);
    /* 3 * 2^30: a quarter of raw draws are rejected; three equal bins. */
    below_chi2(3u << 30, 3, CHI2_999_DF2, 2027);
    /* 2^31 + 1: almost half the draws are rejected; two near-equal bins. */
    below_chi2(0x80000001u, 2, CHI2_999_DF1, 2028);

    opfor_rng_t r;
    opfor_rng_seed(&r, 1, 1);
    for (int i = 0; i < 100; i++) {
        assert_int_equal(opfor_rng_below(&r, 1), 0);
        assert_int_equal(opfor_rng_below(&r, 0), 0);
    }
}

static void rng_d6_frequencies(void **state) {
    (void)state;
    long obs[6] = {0};
    double want[6];
    opfor_rng_t r;
    opfor_rng_seed(&r, 6, 6);
    for (int i = 0; i < 600000; i++) {
        int v = opfor_rng_d6(&r);
        assert_true(v >= 1 && v <= 6);
        obs[v - 1]++;
    }
    for (int i = 0; i < 6; i++)
        want[i] = 100000.0;
    double x2 = chi_square(obs, want, 6);
    if (!(x2 < CHI2_999_DF5))
        fail_msg("d6 chi-square %.3f >= %.3f", x2, CHI2_999_DF5);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void rng_derive_independent(void **state) {
    (void)state;
    opfor_rng_t a, b;
    /* Same inputs, same stream. */
    opfor_rng_derive(&a, 99, 5);
    opfor_rng_derive(&b, 99, 5);
    for (int i = 0; i < 100; i++)
        assert_int_equal(opfor_rng_u32(&a), opfor_rng_u32(&b));

    /* 1000 keys: the first 64 bits of every child differ. */
    enum { KEYS = 1000 };
    uint64_t *first = malloc(KEYS * sizeof *first);
    assert_non_null(first);
    for (int k = 0; k < KEYS; k++) {
        opfor_rng_derive(&a, 99, (uint64_t)k);
        uint64_t hi = opfor_rng_u32(&a);
        first[k] = (hi << 32) | opfor_rng_u32(&a);
    }
    qsort(first, KEYS, sizeof *first, cmp_u64);
    for (int k = 1; k < KEYS; k++)
        assert_true(first[k] != first[k - 1]);
    free(first);

    /* Neighbouring keys and neighbouring seeds: corresponding outputs agree on half their bits
     * on average (16 of 32, sd 2.83 per draw; 4 sigma over 100000 draws is 0.036). */
    const uint64_t pairs[3][4] = {{7, 0, 7, 1}, {7, 1000, 7, 1001}, {7, 3, 8, 3}};
    for (int pi = 0; pi < 3; pi++) {
        opfor_rng_derive(&a, pairs[pi][0], pairs[pi][1]);
        opfor_rng_derive(&b, pairs[pi][2], pairs[pi][3]);
        double bits = 0.0;
        enum { N = 100000 };
        for (int i = 0; i < N; i++) {
            uint32_t x = opfor_rng_u32(&a) ^ opfor_rng_u32(&b);
            int c = 0;
            while (x) {
                x &= x - 1;
                c++;
            }
            bits += c;
        }
        double mean = bits / N;
        if (fabs(mean - 16.0) > 4.0 * sqrt(8.0 / N))
            fail_msg("derive pair %d: mean differing bits %.4f", pi, mean);
    }
}

static void rng_range_bounds(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 3, 3);
    int seen[7] = {0};
    for (int i = 0; i < 70000; i++) {
        int v = opfor_rng_range(&r, -3, 3);
        assert_true(v >= -3 && v <= 3);
        seen[v + 3]++;
    }
    for (int i = 0; i < 7; i++)
        assert_true(seen[i] > 9000 && seen[i] < 11000);
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(opfor_rng_range(&r, 5, 5), 5);
        assert_int_equal(opfor_rng_range(&r, 9, 2), 9); /* hi < lo: lo */
        int v = opfor_rng_range(&r, INT_MIN, INT_MIN + 1);
        assert_true(v == INT_MIN || v == INT_MIN + 1);
        v = opfor_rng_range(&r, INT_MAX - 1, INT_MAX);
        assert_true(v == INT_MAX - 1 || v == INT_MAX);
    }
    /* The full int range: both signs appear. */
    int neg = 0;
    for (int i = 0; i < 1000; i++)
        neg += opfor_rng_range(&r, INT_MIN, INT_MAX) < 0;
    assert_true(neg > 400 && neg < 600);
}

static void rng_unit_range(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 11, 0);
    enum { N = 1000000 };
    double sum = 0.0;
    for (int i = 0; i < N; i++) {
        double u = opfor_rng_unit(&r);
        assert_true(u >= 0.0 && u < 1.0);
        double scaled = u * 9007199254740992.0; /* a whole number: 53-bit grid */
        assert_true(scaled == floor(scaled));
        sum += u;
    }
    double mean = sum / N;
    assert_true(fabs(mean - 0.5) < 4.0 * sqrt(1.0 / 12.0 / N));
}

static void rng_chance_edges(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 17, 0);
    for (int i = 0; i < 10000; i++) {
        assert_false(opfor_rng_chance(&r, 0.0));
        assert_false(opfor_rng_chance(&r, -1.0));
        assert_false(opfor_rng_chance(&r, NAN));
        assert_true(opfor_rng_chance(&r, 1.0));
        assert_true(opfor_rng_chance(&r, 2.0));
    }
    enum { N = 200000 };
    long hits = 0;
    for (int i = 0; i < N; i++)
        hits += opfor_rng_chance(&r, 0.3);
    double sd = sqrt(N * 0.3 * 0.7);
    assert_true(fabs((double)hits - N * 0.3) < 4.0 * sd);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rng_known_answer),       cmocka_unit_test(rng_determinism),
        cmocka_unit_test(rng_below_uniform),      cmocka_unit_test(rng_d6_frequencies),
        cmocka_unit_test(rng_derive_independent), cmocka_unit_test(rng_range_bounds),
        cmocka_unit_test(rng_unit_range),         cmocka_unit_test(rng_chance_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
