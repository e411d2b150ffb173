/* tests/core/test_chance.c — rendering exact chances as d6 rolls: error bounds per mode,
 * nearest-candidate choice against brute force, exact tie handling, monotonicity, texts, and
 * sampled frequencies against the rendered chance.
 *
 * Grids are dense (100001 points) plus the neighbours of every midpoint between candidates,
 * where rounding decisions flip. Sampling uses fixed seeds and a 4-sigma band.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "opfor/chance.h"
#include "opfor/dice.h"

#define GRID 100000
#define MODES 3

static const opfor_render_mode_t ALL_MODES[MODES] = {OPFOR_RENDER_D6, OPFOR_RENDER_D6_FINE,
                                                     OPFOR_RENDER_2D6};

/* Calls fn(p) for a dense grid plus nextafter neighbours of every k/72. */
static void for_each_p(void (*fn)(double p, void *ctx), void *ctx) {
    for (int i = 0; i <= GRID; i++)
        fn((double)i / GRID, ctx);
    for (int k = 0; k <= 72; k++) {
        double m = (double)k / 72.0;
        fn(m, ctx);
        fn(nextafter(m, 0.0), ctx);
        fn(nextafter(m, 2.0) > 1.0 ? 1.0 : nextafter(m, 2.0), ctx);
    }
}

typedef struct bound_ctx {
    opfor_render_mode_t mode; /* mode under test */
    double worst;             /* largest |error| seen */
    double worst_edge;        /* largest |error| for p < 1/12 or p > 11/12 */
} bound_ctx_t;

static void bound_fn(double p, void *vctx) {
    bound_ctx_t *c = vctx;
    opfor_roll_t r;
    opfor_roll_render(p, c->mode, &r);
    /* error is exactly p_rendered - p_exact, and p_rendered is the roll's exact chance. */
    assert_true(r.error == r.p_rendered - r.p_exact);
    assert_true(r.p_exact == p);
    assert_true(r.p_rendered == opfor_roll_chance(r.kind, r.need, r.need2));
    double e = fabs(r.error);
    if (e > c->worst)
        c->worst = e;
    if ((p < 1.0 / 12.0 || p > 11.0 / 12.0) && e > c->worst_edge)
        c->worst_edge = e;
}

static void chance_d6_error_bound(void **state) {
    (void)state;
    bound_ctx_t c = {OPFOR_RENDER_D6, 0.0, 0.0};
    for_each_p(bound_fn, &c);
    if (c.worst > 1.0 / 12.0 + 1e-16)
        fail_msg("D6 max error %.17g > 1/12", c.worst);
    assert_true(c.worst > 1.0 / 12.0 - 1e-4); /* the bound is tight */
}

static void chance_fine_error_bound(void **state) {
    (void)state;
    bound_ctx_t c = {OPFOR_RENDER_D6_FINE, 0.0, 0.0};
    for_each_p(bound_fn, &c);
    if (c.worst > 1.0 / 12.0 + 1e-16)
        fail_msg("FINE max error %.17g > 1/12", c.worst);
    if (c.worst_edge > 1.0 / 72.0 + 1e-16)
        fail_msg("FINE max error near 0 or 1: %.17g > 1/72", c.worst_edge);
}

static void nearest_fn(double p, void *vctx) {
    (void)vctx;
    /* Brute force over every 2D6 candidate: 0, P(2d6 >= n) for n = 3..12, 1. */
    double best = fabs(p);
    for (int n = 3; n <= 12; n++) {
        double d = fabs(p - opfor_2d6_at_least(n));
        best = d < best ? d : best;
    }
    best = fabs(1.0 - p) < best ? fabs(1.0 - p) : best;
    opfor_roll_t r;
    opfor_roll_render(p, OPFOR_RENDER_2D6, &r);
    if (fabs(r.error) > best + 1e-15)
        fail_msg("2D6 p=%.17g: error %.17g but a candidate is %.17g away", p, r.error, best);
    if (r.kind == OPFOR_ROLL_2D6) {
        assert_true(r.need >= 3 && r.need <= 12);
        assert_true(r.p_rendered == opfor_2d6_at_least(r.need));
    } else {
        assert_true(r.kind == OPFOR_ROLL_NEVER || r.kind == OPFOR_ROLL_ALWAYS);
    }
    /* The bound for 2D6 is half the widest gap (5/36 and 6/36 apart between 15 and 21). */
    assert_true(fabs(r.error) <= 3.0 / 36.0 + 1e-16);
}

static void chance_2d6_nearest(void **state) {
    (void)state;
    for_each_p(nearest_fn, NULL);
}

static void chance_exact_ends(void **state) {
    (void)state;
    for (int m = 0; m < MODES; m++) {
        opfor_roll_t r;
        opfor_roll_render(0.0, ALL_MODES[m], &r);
        assert_int_equal(r.kind, OPFOR_ROLL_NEVER);
        assert_true(r.p_rendered == 0.0 && r.error == 0.0);
        opfor_roll_render(1.0, ALL_MODES[m], &r);
        assert_int_equal(r.kind, OPFOR_ROLL_ALWAYS);
        assert_true(r.p_rendered == 1.0 && r.error == 0.0);
        opfor_roll_render(NAN, ALL_MODES[m], &r);
        assert_int_equal(r.kind, OPFOR_ROLL_NEVER);
        assert_true(r.p_exact == 0.0);
        opfor_roll_render(-0.5, ALL_MODES[m], &r);
        assert_int_equal(r.kind, OPFOR_ROLL_NEVER);
        assert_true(r.p_exact == 0.0);
        opfor_roll_render(1.5, ALL_MODES[m], &r);
        assert_int_equal(r.kind, OPFOR_ROLL_ALWAYS);
        assert_true(r.p_exact == 1.0);
        opfor_roll_render(1e-300, ALL_MODES[m], &r);
        assert_int_equal(r.kind, OPFOR_ROLL_NEVER);
        opfor_roll_render(INFINITY, ALL_MODES[m], &r);
        assert_int_equal(r.kind, OPFOR_ROLL_ALWAYS);
    }
}

static const char *render_text(double p, opfor_render_mode_t mode, char *buf, size_t size) {
    opfor_roll_t r;
    opfor_roll_render(p, mode, &r);
    return opfor_roll_format(&r, buf, size);
}

static void chance_known_renders(void **state) {
    (void)state;
    char b[64];
    assert_string_equal(render_text(0.5, OPFOR_RENDER_D6, b, sizeof b), "4+");
    assert_string_equal(render_text(0.37, OPFOR_RENDER_D6, b, sizeof b), "5+");
    assert_string_equal(render_text(0.05, OPFOR_RENDER_D6, b, sizeof b), "no chance");
    assert_string_equal(render_text(0.95, OPFOR_RENDER_D6, b, sizeof b), "automatic");
    assert_string_equal(render_text(0.02, OPFOR_RENDER_D6_FINE, b, sizeof b), "6, then 6+");
    assert_string_equal(render_text(0.09, OPFOR_RENDER_D6_FINE, b, sizeof b), "6, then 4+");
    assert_string_equal(render_text(0.01, OPFOR_RENDER_D6_FINE, b, sizeof b), "no chance");
    assert_string_equal(render_text(0.95, OPFOR_RENDER_D6_FINE, b, sizeof b),
                        "2+, re-roll a 1 needing 3+");
    assert_string_equal(render_text(0.97, OPFOR_RENDER_D6_FINE, b, sizeof b),
                        "2+, re-roll a 1 needing 2+");
    assert_string_equal(render_text(0.995, OPFOR_RENDER_D6_FINE, b, sizeof b), "automatic");
    assert_string_equal(render_text(0.5, OPFOR_RENDER_D6_FINE, b, sizeof b), "4+");
    assert_string_equal(render_text(15.0 / 36.0, OPFOR_RENDER_2D6, b, sizeof b), "8+ on 2D6");
    assert_string_equal(render_text(0.58, OPFOR_RENDER_2D6, b, sizeof b), "7+ on 2D6");
    assert_string_equal(render_text(0.01, OPFOR_RENDER_2D6, b, sizeof b), "no chance");
    assert_string_equal(render_text(0.02, OPFOR_RENDER_2D6, b, sizeof b), "12+ on 2D6");

    /* Exact ties (72p == a + b) go to the lower chance; one ulp either side decides. */
    assert_string_equal(render_text(0.25, OPFOR_RENDER_D6, b, sizeof b), "6+");
    assert_string_equal(render_text(nextafter(0.25, 1.0), OPFOR_RENDER_D6, b, sizeof b), "5+");
    assert_string_equal(render_text(0.75, OPFOR_RENDER_D6, b, sizeof b), "3+");
    assert_string_equal(render_text(nextafter(0.75, 1.0), OPFOR_RENDER_D6, b, sizeof b), "2+");
    assert_string_equal(render_text(0.125, OPFOR_RENDER_D6_FINE, b, sizeof b), "6, then 3+");
    assert_string_equal(render_text(nextafter(0.125, 1.0), OPFOR_RENDER_D6_FINE, b, sizeof b),
                        "6, then 2+");
    assert_string_equal(render_text(0.125, OPFOR_RENDER_2D6, b, sizeof b), "11+ on 2D6");
    assert_string_equal(render_text(nextafter(0.125, 1.0), OPFOR_RENDER_2D6, b, sizeof b),
                        "10+ on 2D6");
    assert_string_equal(render_text(0.875, OPFOR_RENDER_2D6, b, sizeof b), "5+ on 2D6");
    assert_string_equal(render_text(nextafter(0.875, 1.0), OPFOR_RENDER_2D6, b, sizeof b),
                        "4+ on 2D6");
}

static void chance_format_texts(void **state) {
    (void)state;
    char b[64];
    opfor_roll_t r = {OPFOR_ROLL_D6, 4, 0, 0.5, 0.5, 0.0};
    assert_string_equal(opfor_roll_format(&r, b, sizeof b), "4+");
    r.kind = OPFOR_ROLL_D6_THEN;
    r.need = 6;
    r.need2 = 4;
    assert_string_equal(opfor_roll_format(&r, b, sizeof b), "6, then 4+");
    r.kind = OPFOR_ROLL_D6_REROLL;
    r.need = 2;
    r.need2 = 3;
    assert_string_equal(opfor_roll_format(&r, b, sizeof b), "2+, re-roll a 1 needing 3+");
    r.kind = OPFOR_ROLL_2D6;
    r.need = 8;
    assert_string_equal(opfor_roll_format(&r, b, sizeof b), "8+ on 2D6");
    r.kind = OPFOR_ROLL_NEVER;
    assert_string_equal(opfor_roll_format(&r, b, sizeof b), "no chance");
    r.kind = OPFOR_ROLL_ALWAYS;
    assert_string_equal(opfor_roll_format(&r, b, sizeof b), "automatic");
    char small[5];
    assert_string_equal(opfor_roll_format(&r, small, sizeof small), "auto");
    assert_ptr_equal(opfor_roll_format(&r, small, 0), small);

    /* Exact chances of each kind. */
    assert_true(opfor_roll_chance(OPFOR_ROLL_D6_THEN, 6, 4) == 3.0 / 36.0);
    assert_true(opfor_roll_chance(OPFOR_ROLL_D6_REROLL, 2, 3) == 34.0 / 36.0);
    assert_true(opfor_roll_chance(OPFOR_ROLL_D6, 3, 0) == 4.0 / 6.0);
    assert_true(opfor_roll_chance(OPFOR_ROLL_2D6, 7, 0) == 21.0 / 36.0);
    assert_true(opfor_roll_chance(OPFOR_ROLL_NEVER, 0, 0) == 0.0);
    assert_true(opfor_roll_chance(OPFOR_ROLL_ALWAYS, 0, 0) == 1.0);
}

/* The plain wording opfor_roll_format replaced (snprintf), kept to compare with. */
static void ref_roll_format(const opfor_roll_t *r, char *buf, size_t size) {
    switch (r->kind) {
    case OPFOR_ROLL_NEVER:
        snprintf(buf, size, "no chance");
        break;
    case OPFOR_ROLL_ALWAYS:
        snprintf(buf, size, "automatic");
        break;
    case OPFOR_ROLL_D6:
        snprintf(buf, size, "%d+", r->need);
        break;
    case OPFOR_ROLL_D6_THEN:
        snprintf(buf, size, "%d, then %d+", r->need, r->need2);
        break;
    case OPFOR_ROLL_D6_REROLL:
        snprintf(buf, size, "%d+, re-roll a 1 needing %d+", r->need, r->need2);
        break;
    case OPFOR_ROLL_2D6:
        snprintf(buf, size, "%d+ on 2D6", r->need);
        break;
    default:
        snprintf(buf, size, "?");
        break;
    }
}

/* Every kind, scores from negative to large, every buffer size: the text and its truncation
 * are snprintf's. */
static void chance_format_as_printed(void **state) {
    (void)state;
    static const int NEEDS[] = {-2147483647 - 1, -12, -1, 0, 1, 2, 4, 6, 9, 10, 12, 99, 100,
                                2147483647};
    for (int kind = OPFOR_ROLL_NEVER; kind <= OPFOR_ROLL_2D6 + 1; kind++)
        for (size_t i = 0; i < sizeof NEEDS / sizeof NEEDS[0]; i++)
            for (size_t j = 0; j < sizeof NEEDS / sizeof NEEDS[0]; j += 3)
                for (size_t size = 1; size <= 64; size++) {
                    opfor_roll_t r;
                    memset(&r, 0, sizeof r);
                    r.kind = (opfor_roll_kind_t)kind;
                    r.need = NEEDS[i];
                    r.need2 = NEEDS[j];
                    char want[64], got[64];
                    memset(want, 'x', sizeof want);
                    memset(got, 'x', sizeof got);
                    ref_roll_format(&r, want, size);
                    assert_ptr_equal(opfor_roll_format(&r, got, size), got);
                    assert_string_equal(got, want);
                }
}

static void chance_monotone(void **state) {
    (void)state;
    for (int m = 0; m < MODES; m++) {
        /* Increasing sequence: the grid interleaved with the midpoint neighbours. */
        double last = -1.0;
        int changes = 0;
        for (int i = 0; i <= 72 * 2000; i++) {
            double base = (double)i / (72.0 * 2000.0);
            double ps[3] = {nextafter(base, 0.0), base, nextafter(base, 2.0)};
            for (int k = 0; k < 3; k++) {
                double p = ps[k] > 1.0 ? 1.0 : ps[k];
                opfor_roll_t r;
                opfor_roll_render(p, ALL_MODES[m], &r);
                if (r.p_rendered < last)
                    fail_msg("mode %d: p=%.17g renders %.17g, below %.17g", m, p, r.p_rendered,
                             last);
                changes += r.p_rendered != last;
                last = r.p_rendered;
            }
        }
        /* Every candidate appears: 7 (D6), 17 (FINE), 12 (2D6). */
        static const int want[MODES] = {7, 17, 12};
        assert_int_equal(changes, want[m]);
    }
}

static void chance_sample_frequency(void **state) {
    (void)state;
    enum { N = 200000 };
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 2024, 12);
    for (int m = 0; m < MODES; m++) {
        /* p = c/36 for every c reaches every candidate of every mode. */
        for (int c = 0; c <= 36; c++) {
            opfor_roll_t r;
            opfor_roll_render(c / 36.0, ALL_MODES[m], &r);
            long hits = 0;
            for (int i = 0; i < N; i++)
                hits += opfor_roll_sample(&r, &rng);
            double p = r.p_rendered;
            if (p == 0.0 || p == 1.0) {
                assert_int_equal(hits, (long)(p * N));
                continue;
            }
            double sd = sqrt(N * p * (1.0 - p));
            if (fabs((double)hits - N * p) > 4.0 * sd) {
                char b[64];
                fail_msg("mode %d, %s: %ld hits of %d, want %.1f +- %.1f", m,
                         opfor_roll_format(&r, b, sizeof b), hits, N, N * p, 4.0 * sd);
            }
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chance_d6_error_bound),    cmocka_unit_test(chance_fine_error_bound),
        cmocka_unit_test(chance_2d6_nearest),       cmocka_unit_test(chance_exact_ends),
        cmocka_unit_test(chance_known_renders),     cmocka_unit_test(chance_format_texts),
        cmocka_unit_test(chance_monotone),          cmocka_unit_test(chance_sample_frequency),
        cmocka_unit_test(chance_format_as_printed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
