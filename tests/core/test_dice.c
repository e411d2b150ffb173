/* tests/core/test_dice.c — dice notation: parse table (valid and invalid with columns), exact
 * distributions, tail probabilities, canonical text and sampling against the distribution.
 *
 * Exact values are compared with == where the distribution is built from exact integer counts
 * (small expressions), otherwise within 1e-12. Sampling uses fixed seeds and the 0.1%
 * chi-square critical value for the number of outcomes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "opfor/dice.h"

typedef struct valid_case {
    const char *text;      /* input */
    const char *canonical; /* expected opfor_dice_format() output */
    int min, max;          /* expected bounds */
} valid_case_t;

static const valid_case_t VALID[] = {
    {"2d6", "2d6", 2, 12},
    {"D6", "1d6", 1, 6},
    {"d3", "1d3", 1, 3},
    {"1d3+4", "1d3+4", 5, 7},
    {"2d6-1", "2d6-1", 1, 11},
    {"3D6+6", "3d6+6", 9, 24},
    {"3 dice + 6 inches", "3d6+6 inches", 9, 24},
    {"a die + 2", "1d6+2", 3, 8},
    {"A Die", "1d6", 1, 6},
    {"one die", "1d6", 1, 6},
    {"2 die", "2d6", 2, 12},
    {"1 dice", "1d6", 1, 6},
    {"4 inches", "4 inches", 4, 4},
    {"1 inch", "1 inches", 1, 1},
    {"6\"", "6 inches", 6, 6},
    {"1d3+4 in", "1d3+4 inches", 5, 7},
    {"2d6+1d3+2", "2d6+1d3+2", 5, 17},
    {"  2d6  ", "2d6", 2, 12},
    {"2 d 6", "2d6", 2, 12},
    {"\t2D6\n", "2d6", 2, 12},
    {"-3", "-3", -3, -3},
    {"+3", "3", 3, 3},
    {"0", "0", 0, 0},
    {"2d6+3-5", "2d6-2", 0, 10},
    {"2d6+0", "2d6", 2, 12},
    {"1+2d6", "2d6+1", 3, 13},
    {"007d6", "7d6", 7, 42},
    {"60d6", "60d6", 60, 360},
    {"6d100", "6d100", 6, 600},
    {"60d11", "60d11", 60, 660},
    {"d6+d6+d6+d6", "1d6+1d6+1d6+1d6", 4, 24},
    {"10000", "10000", 10000, 10000},
    {"-10000", "-10000", -10000, -10000},
    {"1d2-10000", "1d2-10000", -9999, -9998},
};

typedef struct invalid_case {
    const char *text; /* input */
    int err;          /* OPFOR_EPARSE or OPFOR_ERANGE */
    int col;          /* expected 1-based column */
    const char *msg;  /* substring expected in the message */
} invalid_case_t;

static const invalid_case_t INVALID[] = {
    {"", OPFOR_EPARSE, 1, "expected a number or dice"},
    {"   ", OPFOR_EPARSE, 4, "end of input"},
    {"2d", OPFOR_EPARSE, 3, "number of sides"},
    {"2d6+", OPFOR_EPARSE, 5, "expected a number or dice"},
    {"2d6 - d3", OPFOR_EPARSE, 7, "cannot be subtracted"},
    {"2d6-1d3", OPFOR_EPARSE, 5, "cannot be subtracted"},
    {"2d6 - 1 die", OPFOR_EPARSE, 7, "cannot be subtracted"},
    {"-d6", OPFOR_EPARSE, 2, "cannot be subtracted"},
    {"2d6x", OPFOR_EPARSE, 4, "'x'"},
    {"2d6 * 2", OPFOR_EPARSE, 5, "'*'"},
    {"2 6", OPFOR_EPARSE, 3, "'+', '-', 'inches' or end of input"},
    {"a", OPFOR_EPARSE, 2, "'die'"},
    {"a cat", OPFOR_EPARSE, 3, "'cat'"},
    {"inches", OPFOR_EPARSE, 1, "expected a number or dice"},
    {"2d6 inches + 1", OPFOR_EPARSE, 12, "end of input after the distance unit"},
    {"2d6\x01", OPFOR_EPARSE, 4, "0x01"},
    {"2d6\xff", OPFOR_EPARSE, 4, "0xFF"},
    {"3 dice +", OPFOR_EPARSE, 9, "found end of input"},
    {"--1", OPFOR_EPARSE, 2, "expected a number or dice"},
    {"d", OPFOR_EPARSE, 2, "number of sides"},
    {"2d6.5", OPFOR_EPARSE, 4, "'.'"},
    {"0d6", OPFOR_ERANGE, 1, "1..60"},
    {"61d6", OPFOR_ERANGE, 1, "1..60"},
    {"2d1", OPFOR_ERANGE, 3, "2..100"},
    {"2d0", OPFOR_ERANGE, 3, "2..100"},
    {"2d101", OPFOR_ERANGE, 3, "2..100"},
    {"0 dice", OPFOR_ERANGE, 1, "1..60"},
    {"d6+d6+d6+d6+d6", OPFOR_ERANGE, 13, "at most 4"},
    {"10d100", OPFOR_ERANGE, 1, "at most 600"},
    {"60d6+4d100", OPFOR_ERANGE, 6, "at most 600"},
    {"10001", OPFOR_ERANGE, 1, "at most 10000"},
    {"9999+2", OPFOR_ERANGE, 6, "-10000..10000"},
    {"-9999-2", OPFOR_ERANGE, 7, "-10000..10000"},
    {"99999999999999999999d6", OPFOR_ERANGE, 1, "1..60"},
    {"d99999999999999999999", OPFOR_ERANGE, 2, "2..100"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void dice_parse_valid(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(VALID); i++) {
        opfor_dice_t d;
        opfor_diag_t diag;
        opfor_diag_clear(&diag);
        int rc = opfor_dice_parse(VALID[i].text, &d, &diag);
        if (rc != 0)
            fail_msg("'%s' failed: %s (col %d)", VALID[i].text, diag.msg, diag.col);
        char buf[64];
        int n = opfor_dice_format(&d, buf, sizeof buf);
        assert_int_equal(n, (int)strlen(buf));
        if (strcmp(buf, VALID[i].canonical) != 0)
            fail_msg("'%s' formats as '%s', want '%s'", VALID[i].text, buf, VALID[i].canonical);
        assert_int_equal(opfor_dice_min(&d), VALID[i].min);
        assert_int_equal(opfor_dice_max(&d), VALID[i].max);
        /* The canonical text parses back to the same expression. */
        opfor_dice_t again;
        assert_int_equal(opfor_dice_parse(buf, &again, NULL), 0);
        assert_int_equal(again.nterms, d.nterms);
        assert_int_equal(again.inches, d.inches);
        assert_int_equal(again.bonus, d.bonus);
        for (int t = 0; t < d.nterms; t++) {
            assert_int_equal(again.terms[t].count, d.terms[t].count);
            assert_int_equal(again.terms[t].sides, d.terms[t].sides);
        }
    }
}

static void dice_parse_fields(void **state) {
    (void)state;
    opfor_dice_t d;
    assert_int_equal(opfor_dice_parse("3 dice + 6 inches", &d, NULL), 0);
    assert_int_equal(d.nterms, 1);
    assert_int_equal(d.terms[0].count, 3);
    assert_int_equal(d.terms[0].sides, 6);
    assert_int_equal(d.bonus, 6);
    assert_int_equal(d.inches, 1);
    assert_int_equal(opfor_dice_parse("2d6+1d3-1", &d, NULL), 0);
    assert_int_equal(d.nterms, 2);
    assert_int_equal(d.terms[1].count, 1);
    assert_int_equal(d.terms[1].sides, 3);
    assert_int_equal(d.bonus, -1);
    assert_int_equal(d.inches, 0);
    assert_int_equal(opfor_dice_parse(NULL, &d, NULL), OPFOR_EINVAL);
}

static void dice_parse_invalid(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(INVALID); i++) {
        opfor_dice_t d, before;
        memset(&d, 0xAB, sizeof d);
        before = d;
        opfor_diag_t diag;
        opfor_diag_clear(&diag);
        int rc = opfor_dice_parse(INVALID[i].text, &d, &diag);
        if (rc != INVALID[i].err)
            fail_msg("'%s': rc %d (%s), want %d", INVALID[i].text, rc, diag.msg, INVALID[i].err);
        if (diag.line != 1 || diag.col != INVALID[i].col)
            fail_msg("'%s': at %d:%d, want 1:%d (%s)", INVALID[i].text, diag.line, diag.col,
                     INVALID[i].col, diag.msg);
        if (!strstr(diag.msg, INVALID[i].msg))
            fail_msg("'%s': message '%s' lacks '%s'", INVALID[i].text, diag.msg, INVALID[i].msg);
        assert_memory_equal(&d, &before, sizeof d); /* output untouched */
        /* A NULL diag is allowed. */
        assert_int_equal(opfor_dice_parse(INVALID[i].text, &d, NULL), INVALID[i].err);
    }
}

static void dist_of(const char *text, opfor_dist_t *dist) {
    opfor_dice_t d;
    assert_int_equal(opfor_dice_parse(text, &d, NULL), 0);
    assert_int_equal(opfor_dice_dist(&d, dist), 0);
    assert_int_equal(dist->min, opfor_dice_min(&d));
    assert_int_equal(dist->min + dist->n - 1, opfor_dice_max(&d));
}

static void dice_dist_sums_to_one(void **state) {
    (void)state;
    static opfor_dist_t dist;
    for (size_t i = 0; i < COUNT(VALID); i++) {
        dist_of(VALID[i].text, &dist);
        double sum = 0.0;
        for (int k = 0; k < dist.n; k++) {
            assert_true(dist.p[k] > 0.0);
            sum += dist.p[k];
        }
        if (fabs(sum - 1.0) > 1e-12)
            fail_msg("'%s': probabilities sum to %.17g", VALID[i].text, sum);
    }
}

static void dice_dist_exact_values(void **state) {
    (void)state;
    static opfor_dist_t dist;
    /* 2d6: P(=t) is exactly the rounded ways/36. */
    dist_of("2d6", &dist);
    assert_int_equal(dist.n, 11);
    for (int t = 2; t <= 12; t++)
        assert_true(dist.p[t - 2] == (double)(6 - abs(t - 7)) / 36.0);
    assert_true(fabs(opfor_dist_at_least(&dist, 8) - 15.0 / 36.0) < 1e-15);
    assert_true(fabs(opfor_dist_mean(&dist) - 7.0) < 1e-14);

    /* 3 dice + 6 inches: 9..24, mean 16.5, P(=9) = P(=24) = 1/216. */
    dist_of("3 dice + 6 inches", &dist);
    assert_int_equal(dist.min, 9);
    assert_int_equal(dist.n, 16);
    assert_true(fabs(opfor_dist_mean(&dist) - 16.5) < 1e-13);
    assert_true(dist.p[0] == 1.0 / 216.0 && dist.p[15] == 1.0 / 216.0);
    assert_true(dist.p[7] == 27.0 / 216.0); /* 16: 27 ways */

    /* d3 (a halved d6) is a fair d3. */
    dist_of("d3", &dist);
    assert_int_equal(dist.min, 1);
    assert_int_equal(dist.n, 3);
    for (int i = 0; i < 3; i++)
        assert_true(dist.p[i] == 1.0 / 3.0);
    dist_of("1d3+4", &dist);
    assert_int_equal(dist.min, 5);
    assert_true(fabs(opfor_dist_mean(&dist) - 6.0) < 1e-15);

    /* 2d6+1d3+2 against brute-force enumeration of the 108 outcomes. */
    int ways[20] = {0};
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            for (int c = 1; c <= 3; c++)
                ways[a + b + c + 2]++;
    dist_of("2d6+1d3+2", &dist);
    assert_int_equal(dist.min, 5);
    for (int t = 5; t <= 17; t++)
        assert_true(dist.p[t - 5] == (double)ways[t] / 108.0);

    /* 60d6: mean 210, symmetric (beyond 2^53 outcomes, so in probabilities). */
    dist_of("60d6", &dist);
    assert_true(fabs(opfor_dist_mean(&dist) - 210.0) < 1e-9);
    for (int i = 0; i < dist.n; i++)
        assert_true(fabs(dist.p[i] - dist.p[dist.n - 1 - i]) < 1e-15);
    /* P(60d6 = 60) = 6^-60. */
    assert_true(fabs(dist.p[0] / pow(6.0, -60.0) - 1.0) < 1e-12);

    /* A constant has one outcome. */
    dist_of("4 inches", &dist);
    assert_int_equal(dist.n, 1);
    assert_true(dist.p[0] == 1.0);
}

static void dice_at_least_at_most_edges(void **state) {
    (void)state;
    static opfor_dist_t dist;
    dist_of("2d6+1", &dist); /* 3..13 */
    assert_true(opfor_dist_at_least(&dist, 3) == 1.0);
    assert_true(opfor_dist_at_least(&dist, -100) == 1.0);
    assert_true(opfor_dist_at_least(&dist, INT_MIN) == 1.0);
    assert_true(opfor_dist_at_least(&dist, 14) == 0.0);
    assert_true(opfor_dist_at_least(&dist, INT_MAX) == 0.0);
    assert_true(opfor_dist_at_least(&dist, 13) == 1.0 / 36.0);
    assert_true(opfor_dist_at_most(&dist, 13) == 1.0);
    assert_true(opfor_dist_at_most(&dist, INT_MAX) == 1.0);
    assert_true(opfor_dist_at_most(&dist, 2) == 0.0);
    assert_true(opfor_dist_at_most(&dist, INT_MIN) == 0.0);
    assert_true(opfor_dist_at_most(&dist, 3) == 1.0 / 36.0);
    for (int k = -5; k < 20; k++) {
        double s = opfor_dist_at_least(&dist, k) + opfor_dist_at_most(&dist, k - 1);
        assert_true(fabs(s - 1.0) < 1e-12);
        assert_true(opfor_dist_at_least(&dist, k) >= opfor_dist_at_least(&dist, k + 1));
    }
    dist_of("7", &dist);
    assert_true(opfor_dist_at_least(&dist, 7) == 1.0);
    assert_true(opfor_dist_at_least(&dist, 8) == 0.0);
    assert_true(opfor_dist_at_most(&dist, 7) == 1.0);
    assert_true(opfor_dist_at_most(&dist, 6) == 0.0);

    /* Single-d6 and 2d6 shortcuts agree with the distributions. */
    assert_true(opfor_d6_at_least(1) == 1.0 && opfor_d6_at_least(-3) == 1.0);
    assert_true(opfor_d6_at_least(7) == 0.0 && opfor_d6_at_least(100) == 0.0);
    assert_true(opfor_d6_at_least(4) == 0.5);
    assert_true(opfor_2d6_at_least(2) == 1.0 && opfor_2d6_at_least(13) == 0.0);
    dist_of("2d6", &dist);
    for (int n = -2; n <= 15; n++)
        assert_true(fabs(opfor_2d6_at_least(n) - opfor_dist_at_least(&dist, n)) < 1e-15);
    dist_of("d6", &dist);
    for (int n = -2; n <= 9; n++)
        assert_true(fabs(opfor_d6_at_least(n) - opfor_dist_at_least(&dist, n)) < 1e-15);
}

static void dice_dist_rejects_bad_struct(void **state) {
    (void)state;
    static opfor_dist_t dist;
    opfor_dice_t d;
    memset(&d, 0, sizeof d);
    d.nterms = 1;
    d.terms[0].count = 0;
    d.terms[0].sides = 6;
    assert_true(opfor_dice_dist(&d, &dist) < 0);
    d.terms[0].count = 2;
    d.terms[0].sides = 1;
    assert_true(opfor_dice_dist(&d, &dist) < 0);
    d.terms[0].sides = 100;
    d.terms[0].count = 7; /* spread 693 */
    assert_true(opfor_dice_dist(&d, &dist) < 0);
    d.terms[0].count = 6;
    assert_int_equal(opfor_dice_dist(&d, &dist), 0);
    d.nterms = OPFOR_DICE_MAX_TERMS + 1;
    assert_true(opfor_dice_dist(&d, &dist) < 0);
}

static void dice_format_truncates(void **state) {
    (void)state;
    opfor_dice_t d;
    assert_int_equal(opfor_dice_parse("3 dice + 6 inches", &d, NULL), 0);
    char small[5];
    assert_int_equal(opfor_dice_format(&d, small, sizeof small), 12);
    assert_string_equal(small, "3d6+");
    assert_int_equal(opfor_dice_format(&d, NULL, 0), 12);
}

/* Rolls `text` n times and compares the counts with the exact distribution. */
static void sample_chi2(const char *text, uint64_t seed, int n, double crit) {
    static opfor_dist_t dist;
    static long obs[OPFOR_DIST_MAX];
    opfor_dice_t d;
    assert_int_equal(opfor_dice_parse(text, &d, NULL), 0);
    assert_int_equal(opfor_dice_dist(&d, &dist), 0);
    memset(obs, 0, sizeof obs);
    opfor_rng_t r;
    opfor_rng_seed(&r, seed, 0);
    for (int i = 0; i < n; i++) {
        int v = opfor_dice_roll(&d, &r);
        assert_true(v >= dist.min && v < dist.min + dist.n);
        obs[v - dist.min]++;
    }
    double x2 = 0.0;
    for (int i = 0; i < dist.n; i++) {
        double e = n * dist.p[i];
        x2 += (obs[i] - e) * (obs[i] - e) / e;
    }
    if (!(x2 < crit))
        fail_msg("'%s': chi-square %.3f >= %.3f", text, x2, crit);
}

static void dice_sampling_matches_dist(void **state) {
    (void)state;
    /* 0.1% critical values: df 10 -> 29.588, df 2 -> 13.816, df 15 -> 37.697, df 9 -> 27.877,
     * df 12 -> 32.909. */
    sample_chi2("2d6", 1, 200000, 29.588);
    sample_chi2("1d3+4", 2, 200000, 13.816);
    sample_chi2("3 dice + 6 inches", 3, 200000, 37.697);
    sample_chi2("1d10", 4, 200000, 27.877);
    sample_chi2("2d6+1d3+2", 5, 200000, 32.909);
}

static void dice_roll_in_bounds(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 77, 0);
    for (size_t i = 0; i < COUNT(VALID); i++) {
        opfor_dice_t d;
        assert_int_equal(opfor_dice_parse(VALID[i].text, &d, NULL), 0);
        int lo = INT_MAX, hi = INT_MIN;
        for (int k = 0; k < 2000; k++) {
            int v = opfor_dice_roll(&d, &r);
            assert_true(v >= VALID[i].min && v <= VALID[i].max);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        /* Narrow expressions reach both ends in 2000 rolls. */
        if (VALID[i].max - VALID[i].min <= 6) {
            assert_int_equal(lo, VALID[i].min);
            assert_int_equal(hi, VALID[i].max);
        }
    }
    /* Same seed, same rolls. */
    opfor_dice_t d;
    assert_int_equal(opfor_dice_parse("3d6+1d3", &d, NULL), 0);
    opfor_rng_t a, b;
    opfor_rng_seed(&a, 5, 5);
    opfor_rng_seed(&b, 5, 5);
    for (int k = 0; k < 100; k++)
        assert_int_equal(opfor_dice_roll(&d, &a), opfor_dice_roll(&d, &b));
}

/* Each die shown: the same draws and total as opfor_dice_roll, faces within their dice, the
 * bonus apart; a short faces array keeps the first dice and still counts them all. */
static void dice_roll_each_shows_every_die(void **state) {
    (void)state;
    opfor_dice_t d;
    assert_int_equal(opfor_dice_parse("3d6+1d3+2", &d, NULL), 0);
    opfor_rng_t a, b;
    opfor_rng_seed(&a, 9, 1);
    opfor_rng_seed(&b, 9, 1);
    for (int k = 0; k < 500; k++) {
        int faces[8] = {0}, n = 0;
        int t = opfor_dice_roll_each(&d, &a, faces, 8, &n);
        assert_int_equal(t, opfor_dice_roll(&d, &b));
        assert_int_equal(n, 4);
        int sum = 2;
        for (int i = 0; i < n; i++) {
            assert_true(faces[i] >= 1 && faces[i] <= (i < 3 ? 6 : 3));
            sum += faces[i];
        }
        assert_int_equal(sum, t);
    }
    int two[2], n = 0;
    assert_int_equal(opfor_dice_parse("5d6", &d, NULL), 0);
    opfor_dice_roll_each(&d, &a, two, 2, &n);
    assert_int_equal(n, 5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dice_parse_valid),
        cmocka_unit_test(dice_parse_fields),
        cmocka_unit_test(dice_parse_invalid),
        cmocka_unit_test(dice_dist_sums_to_one),
        cmocka_unit_test(dice_dist_exact_values),
        cmocka_unit_test(dice_at_least_at_most_edges),
        cmocka_unit_test(dice_dist_rejects_bad_struct),
        cmocka_unit_test(dice_format_truncates),
        cmocka_unit_test(dice_sampling_matches_dist),
        cmocka_unit_test(dice_roll_in_bounds),
        cmocka_unit_test(dice_roll_each_shows_every_die),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
