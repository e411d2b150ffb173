/* opfor/mathx.h — exp, log, sigmoid and logit that give the same bits on every machine.
 *
 * libm's transcendental functions may differ in the last bit between C libraries and CPUs
 * (glibc picks FMA code paths at run time), and the calculator's chances must be identical on
 * x86-64 and arm64. These use only IEEE-754 +, -, *, / (built with -ffp-contract=off, so no
 * fused multiply-add) and exact bit manipulation, hence one result everywhere. Accuracy is
 * about one unit in the last place: well within 1e-12 relative of a correctly rounded result.
 */
#ifndef OPFOR_MATHX_H
#define OPFOR_MATHX_H

/* e^x. NaN gives NaN, x > 709.78 gives +inf, x < -745.13 gives 0; exp(0) == 1 exactly. */
double opfor_exp(double x);
/* Natural logarithm. log(0) == -inf, log(x < 0) and log(NaN) are NaN, log(+inf) == +inf,
 * log(1) == 0 exactly; subnormal inputs are handled. */
double opfor_log(double x);
/* 1 / (1 + e^-x), computed without overflow for any x; NaN gives NaN; sigmoid(0) == 0.5. */
double opfor_sigmoid(double x);
/* log(p / (1 - p)), the inverse of sigmoid. p <= 0 gives -inf, p >= 1 gives +inf, NaN gives
 * NaN; logit(0.5) == 0 exactly and the result keeps full relative accuracy near p = 0.5. */
double opfor_logit(double p);

#endif
