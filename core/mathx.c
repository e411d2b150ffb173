/* core/mathx.c — deterministic exp, log, sigmoid and logit (basic arithmetic only).
 *
 * The reductions follow the classic fdlibm scheme: exp reduces x by a multiple of ln 2 split
 * into a short head (so k * head is exact) and a tail, then evaluates a polynomial on
 * |r| <= ln2 / 2; log splits x into 2^k * m with m in [sqrt(2)/2, sqrt(2)) by reading the
 * exponent bits, then sums the atanh series of s = (m - 1) / (m + 1). No libm call is made,
 * so the bits do not depend on which C library or CPU runs the code.
 */
#include "opfor/mathx.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ln 2 split: the head has 21 trailing zero bits, so k * LN2_HI is exact for |k| < 2^21. */
static const double LN2_HI = 6.93147180369123816490e-01; /* 0x3FE62E42FEE00000 */
static const double LN2_LO = 1.90821492927058770002e-10; /* 0x3DEA39EF35793C76 */
static const double INV_LN2 = 1.44269504088896338700e+00;
static const double EXP_OVERFLOW = 7.09782712893383973096e+02;   /* above: +inf */
static const double EXP_UNDERFLOW = -7.45133219101941108420e+02; /* below: 0 */

/* Minimax coefficients of R(r^2) ~ r * (e^r + 1) / (e^r - 1) on |r| <= ln2/2 (fdlibm e_exp). */
static const double EXP_P1 = 1.66666666666666019037e-01;
static const double EXP_P2 = -2.77777777770155933842e-03;
static const double EXP_P3 = 6.61375632143793436117e-05;
static const double EXP_P4 = -1.65339022054652515390e-06;
static const double EXP_P5 = 4.13813679705723846039e-08;

static double from_bits(uint64_t b) {
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static uint64_t to_bits(double d) {
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* 2^k for -1022 <= k <= 1023, built from its bits. */
static double pow2i(int k) {
    return from_bits((uint64_t)(k + 1023) << 52);
}

double opfor_exp(double x) {
    if (x != x)
        return x;
    if (x > EXP_OVERFLOW)
        return HUGE_VAL;
    if (x < EXP_UNDERFLOW)
        return 0.0;
    if (x == 0.0)
        return 1.0;

    /* k = nearest integer to x / ln2; r = x - k ln2 in two pieces (hi exact, lo tiny). */
    double t = x * INV_LN2;
    int k = (int)(t + (t < 0.0 ? -0.5 : 0.5));
    double kd = (double)k;
    double hi = x - kd * LN2_HI;
    double lo = kd * LN2_LO;
    double r = hi - lo;

    double r2 = r * r;
    double c = r - r2 * (EXP_P1 + r2 * (EXP_P2 + r2 * (EXP_P3 + r2 * (EXP_P4 + r2 * EXP_P5))));
    double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);

    /* Scale by 2^k; split the power when it would leave the normal range. */
    if (k > 1023)
        return y * 2.0 * pow2i(k - 1);
    if (k < -1021)
        return y * pow2i(k + 1000) * pow2i(-1000);
    return y * pow2i(k);
}

/* 2 / (2i + 1), i = 1..10: the atanh series coefficients (exactly rounded by the compiler). */
static const double LOG_C[10] = {
    2.0 / 3.0,  2.0 / 5.0,  2.0 / 7.0,  2.0 / 9.0,  2.0 / 11.0,
    2.0 / 13.0, 2.0 / 15.0, 2.0 / 17.0, 2.0 / 19.0, 2.0 / 21.0,
};

double opfor_log(double x) {
    if (x != x)
        return x;
    if (x < 0.0)
        return NAN;
    if (x == 0.0)
        return -HUGE_VAL;
    if (x == HUGE_VAL)
        return x;

    int k = 0;
    uint64_t bits = to_bits(x);
    if ((bits >> 52) == 0) {      /* subnormal: scale into the normal range (exact) */
        x *= 18014398509481984.0; /* 2^54 */
        k = -54;
        bits = to_bits(x);
    }
    k += (int)((bits >> 52) & 0x7FF) - 1023;
    /* m in [1, 2): same mantissa, exponent of 1. */
    double m = from_bits((bits & 0x000FFFFFFFFFFFFFULL) | 0x3FF0000000000000ULL);
    if (m > 1.4142135623730951) { /* fold to [sqrt(2)/2, sqrt(2)) */
        m *= 0.5;
        k += 1;
    }
    double f = m - 1.0; /* exact (Sterbenz) */
    if (f == 0.0 && k == 0)
        return 0.0;

    /* log(1 + f) = 2 atanh(s) = f - f^2/2 + s (f^2/2 + R), R = sum 2/(2i+1) s^(2i). */
    double s = f / (2.0 + f);
    double z = s * s;
    double R = LOG_C[9];
    for (int i = 8; i >= 0; i--)
        R = LOG_C[i] + z * R;
    R *= z;
    double hfsq = 0.5 * f * f;
    double kd = (double)k;
    return kd * LN2_HI - ((hfsq - (s * (hfsq + R) + kd * LN2_LO)) - f);
}

double opfor_sigmoid(double x) {
    if (x != x)
        return x;
    if (x >= 0.0)
        return 1.0 / (1.0 + opfor_exp(-x));
    double e = opfor_exp(x);
    return e / (1.0 + e);
}

double opfor_logit(double p) {
    if (p != p)
        return p;
    if (p <= 0.0)
        return -HUGE_VAL;
    if (p >= 1.0)
        return HUGE_VAL;
    if (p >= 1.0 / 3.0 && p <= 2.0 / 3.0) {
        /* logit(p) = 2 atanh(u), u = 2p - 1 (exact here), |u| <= 1/3: the series keeps
         * full relative accuracy where p / (1 - p) would round near 1. */
        double u = 2.0 * p - 1.0;
        double z = u * u;
        double sum = 1.0 / 41.0;
        for (int n = 19; n >= 0; n--)
            sum = 1.0 / (double)(2 * n + 1) + z * sum;
        return 2.0 * u * sum;
    }
    return opfor_log(p / (1.0 - p));
}
