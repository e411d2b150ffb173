/* tests/rulesets/test_splendid_command.c — A Splendid Victory!'s `command` action: 1D6 for a
 * commander's or a sub-commander's quality and command range (§Variable Command Quality), the
 * range without it (§Command), and with the die rolled, the quality it gives.
 */
#include "test_splendid_helper.h"

static void commander(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "command", NULL, "rank", "commander", NULL), 0);
    assert_string_equal(a.dice, "1D6");
    assert_int_equal(a.ndist, 3);
    assert_float_equal(sv_dist(&a, 9), 1.0 / 6, SV_EPS); /* 1: charismatic */
    assert_float_equal(sv_dist(&a, 6), 4.0 / 6, SV_EPS); /* 2 to 5: inspiring */
    assert_float_equal(sv_dist(&a, 3), 1.0 / 6, SV_EPS); /* 6: impersonal */
    assert_float_equal(a.expected, 6.0, SV_EPS);
    assert_int_equal((int)sv_fact(&a, "basic_range"), 6);
}

static void sub_commander(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "command", NULL, "rank", "sub", NULL), 0);
    assert_float_equal(sv_dist(&a, 6), 1.0 / 6, SV_EPS);
    assert_float_equal(sv_dist(&a, 3), 2.0 / 6, SV_EPS);
    assert_float_equal(sv_dist(&a, 1), 3.0 / 6, SV_EPS);
    assert_float_equal(a.expected, 2.5, SV_EPS);
    assert_int_equal((int)sv_fact(&a, "basic_range"), 3);
}

static void rolled(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "command", "1", "rank", "commander", NULL), 0);
    assert_int_equal(a.rolled, 1);
    assert_non_null(strstr(a.outcome, "charismatic"));
    assert_non_null(strstr(a.outcome, "9 in"));
    assert_int_equal(sv_ask(&a, "command", "5", "rank", "commander", NULL), 0);
    assert_non_null(strstr(a.outcome, "inspiring"));
    assert_int_equal(sv_ask(&a, "command", "4", "rank", "sub", NULL), 0);
    assert_non_null(strstr(a.outcome, "impersonal"));
    assert_non_null(strstr(a.outcome, "1 in"));
    assert_int_equal(sv_ask(&a, "command", "7", "rank", "sub", NULL), OPFOR_EINVAL);
    assert_int_equal(sv_ask(&a, "command", "2,3", "rank", "sub", NULL), OPFOR_EINVAL);
    assert_int_not_equal(sv_ask(&a, "command", NULL, "rank", "general", NULL), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commander),
        cmocka_unit_test(sub_commander),
        cmocka_unit_test(rolled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
