/* tests/rulesets/test_splendid_artillery.c — A Splendid Victory!'s `artillery` action
 * (§The Firing Procedure): basic dice by gun and range band, the target's modifiers, the
 * guns' greatest ranges (forbidden beyond), bounce-through at medium range only, and the
 * text's example of a heavy gun at a block 19 in away.
 */
#include "test_splendid_helper.h"

/* The heavy gun at a block 19 in away: 2D6 + 1D6 = 3D6; a 2, 2 and 5 are two hits. */
static void the_texts_example(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(
        sv_ask(&a, "artillery", NULL, "gun", "heavy", "range", "19", "target", "block", NULL), 0);
    assert_int_equal(a.allowed, 1);
    assert_string_equal(a.dice, "3D6");
    assert_int_equal((int)sv_fact(&a, "basic"), 2);
    assert_int_equal((int)sv_fact(&a, "modifier"), 1);
    /* the text's own example bounces from this 19 in shot */
    assert_int_equal((int)sv_fact(&a, "bounce_through"), 1);
    assert_float_equal(sv_dist(&a, 2), 3.0 * 2 / 27, SV_EPS);
    assert_float_equal(a.expected, 1.0, SV_EPS);
    assert_int_equal(
        sv_ask(&a, "artillery", "2,2,5", "gun", "heavy", "range", "19", "target", "block", NULL),
        0);
    assert_non_null(strstr(a.outcome, "2 hits"));
    assert_non_null(strstr(a.outcome, "bounce-through: 1D6"));
    /* --bounce: each die a miss then a hit, (2/3)(1/3) = 2/9; expected 3 x 2/9 = 2/3 */
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "heavy", "range", "19", "target", "block",
                            "bounce", NULL, NULL),
                     0);
    assert_float_equal(sv_fact(&a, "bounce_expected"), 2.0 / 3, SV_EPS);
}

static void bands(void **st) {
    (void)st;
    static const struct {
        const char *gun, *range;
        int dice;
    } rows[] = {{"frame", "10", 1},   {"frame", "10.5", 0}, {"frame", "20", 0}, {"regular", "5", 2},
                {"regular", "15", 1}, {"regular", "40", 0}, {"heavy", "0", 4},  {"heavy", "20", 2},
                {"heavy", "20.5", 1}, {"heavy", "40", 1},   {"heavy", "41", 0}, {"heavy", "60", 0}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        opfor_calc_answer_t a;
        assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", rows[i].gun, "range", rows[i].range,
                                "target", "line", NULL),
                         0);
        if (rows[i].dice == 0) { /* no dice: the gun does not fire */
            assert_int_equal(a.allowed, 0);
            assert_non_null(strstr(a.reason, "R-12"));
            continue;
        }
        assert_int_equal(a.allowed, 1);
        assert_int_equal(a.ndice, rows[i].dice);
        assert_int_equal((int)sv_fact(&a, "basic"), rows[i].dice);
    }
}

static void beyond_range(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "frame", "range", "20.5", NULL), 0);
    assert_int_equal(a.allowed, 0);
    assert_non_null(strstr(a.reason, "20"));
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "regular", "range", "45", NULL), 0);
    assert_int_equal(a.allowed, 0);
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "heavy", "range", "61", NULL), 0);
    assert_int_equal(a.allowed, 0);
    assert_int_not_equal(sv_ask(&a, "artillery", NULL, "gun", "heavy", NULL), 0); /* range */
}

static void modifiers_and_quality(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    /* a frame gun at close range throws no basic dice, but a mounted block adds two */
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "frame", "range", "15", "target", "block",
                            "mounted", NULL, NULL),
                     0);
    assert_string_equal(a.dice, "2D6");
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "regular", "range", "8", "target",
                            "defensive-block", NULL),
                     0);
    assert_string_equal(a.dice, "4D6");
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "regular", "range", "15", "target",
                            "open-order", NULL),
                     0);
    assert_int_equal(a.allowed, 0); /* 1 - 1 = 0 dice */
    /* a charged gun (§Reactions 7): regular at 5 in at a mounted line, 3D6: flinch 7/27,
     * overrun 20/27 */
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "regular", "range", "5", "target", "line",
                            "mounted", NULL, "defensive", NULL, NULL),
                     0);
    assert_float_equal(sv_fact(&a, "flinch"), 7.0 / 27, SV_EPS);
    assert_float_equal(sv_fact(&a, "overrun"), 20.0 / 27, SV_EPS);
    assert_int_equal(
        sv_ask(&a, "artillery", NULL, "gun", "heavy", "range", "5", "quality", "veteran", NULL), 0);
    assert_float_equal(a.p, 1.0 - 1.0 / 16, SV_EPS);
}

static void bounce_through(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "heavy", "range", "30", NULL), 0);
    assert_int_equal((int)sv_fact(&a, "bounce_through"), 1);
    assert_int_equal(
        sv_ask(&a, "artillery", "5,1", "gun", "heavy", "range", "30", "target", "block", NULL), 0);
    assert_non_null(strstr(a.outcome, "1 hit"));
    assert_non_null(strstr(a.outcome, "bounce-through: 1D6"));
    assert_int_equal(
        sv_ask(&a, "artillery", NULL, "gun", "regular", "range", "25", "target", "block", NULL), 0);
    assert_int_equal((int)sv_fact(&a, "bounce_through"), 1);
    /* long range digs in; frame guns never bounce */
    assert_int_equal(
        sv_ask(&a, "artillery", NULL, "gun", "heavy", "range", "50", "target", "block", NULL), 0);
    assert_int_equal((int)sv_fact(&a, "bounce_through"), 0);
    assert_int_equal(
        sv_ask(&a, "artillery", NULL, "gun", "frame", "range", "5", "bounce", NULL, NULL), 0);
    assert_int_equal(a.allowed, 0);
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "frame", "range", "5", NULL), 0);
    assert_int_equal((int)sv_fact(&a, "bounce_through"), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_texts_example), cmocka_unit_test(bands),
        cmocka_unit_test(beyond_range),      cmocka_unit_test(modifiers_and_quality),
        cmocka_unit_test(bounce_through),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
