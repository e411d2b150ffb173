/* tests/rulesets/test_splendid_test.c — A Splendid Victory!'s `test` action: the 1D6 tests to
 * charge (§Charging, with quality from §Variable Unit Quality), intercept and counter-charge
 * (§Reactions 1), hold back (§Joining in), pull up short and charge home (§Reactions 4): the
 * chance to pass, who needs no test, the formations that may not, and the die rolled.
 */
#include "test_splendid_helper.h"

static void charge(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge", NULL), 0);
    assert_int_equal(a.allowed, 1);
    assert_string_equal(a.dice, "1D6");
    assert_string_equal(a.needed, "3 or less");
    assert_float_equal(a.p, 3.0 / 6, SV_EPS);
    assert_float_equal(sv_dist(&a, 1), 0.5, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge", "quality", "raw", NULL), 0);
    assert_float_equal(a.p, 2.0 / 6, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge", "quality", "veteran", NULL), 0);
    assert_float_equal(a.p, 4.0 / 6, SV_EPS);
    /* in command: no test */
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge", "in-command", NULL, NULL), 0);
    assert_float_equal(a.p, 1.0, SV_EPS);
    assert_string_equal(a.dice, "0D6"); /* docs/splendid.md 8: "0D6" when no roll is needed */
    assert_int_equal(sv_ask(&a, "test", "6", "kind", "charge", "in-command", NULL, NULL), 0);
    assert_int_equal(a.success, 1);
    /* the die rolled */
    assert_int_equal(sv_ask(&a, "test", "3", "kind", "charge", NULL), 0);
    assert_int_equal(a.rolled, 1);
    assert_int_equal(a.success, 1);
    assert_int_equal(sv_ask(&a, "test", "4", "kind", "charge", NULL), 0);
    assert_int_equal(a.success, 0);
    assert_int_equal(sv_ask(&a, "test", "4", "kind", "charge", "quality", "veteran", NULL), 0);
    assert_int_equal(a.success, 1);
    assert_int_equal(sv_ask(&a, "test", "3,4", "kind", "charge", NULL), OPFOR_EINVAL);
}

static void charge_forbidden(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    const char *no[] = {"defensive-block", "bent-line",        "bent-open-order",
                        "road-column",     "bent-road-column", "open-order"};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge", "formation", no[i], NULL), 0);
        assert_int_equal(a.allowed, 0);
        assert_true(a.reason[0] != 0);
    }
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge", "open-order", NULL, NULL), 0);
    assert_int_equal(a.allowed, 0);
    assert_non_null(strstr(a.reason, "open order"));
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge", "formation", "line", NULL), 0);
    assert_int_equal(a.allowed, 1);
    /* R-16 (default open_order_may_charge: mounted): a mounted unit in open order may charge,
     * artillery never */
    assert_int_equal(
        sv_ask(&a, "test", NULL, "kind", "charge", "open-order", NULL, "mounted", NULL, NULL), 0);
    assert_int_equal(a.allowed, 1);
    assert_float_equal(a.p, 0.5, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge", "formation", "unlimbered", NULL),
                     0);
    assert_int_equal(a.allowed, 0);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge", "formation", "block", NULL), 0);
    assert_int_equal(a.allowed, 1);
}

static void intercept(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "intercept", NULL), 0);
    assert_float_equal(a.p, 0.5, SV_EPS);
    /* quality changes the charge test only */
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "intercept", "quality", "veteran", NULL), 0);
    assert_float_equal(a.p, 0.5, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "intercept", "in-command", NULL, NULL), 0);
    assert_float_equal(a.p, 1.0, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "intercept", "counter", NULL, NULL), 0);
    assert_float_equal(a.p, 1.0, SV_EPS);
    assert_string_equal(a.needed, "no test");
    assert_int_equal(
        sv_ask(&a, "test", NULL, "kind", "intercept", "formation", "road-column", NULL), 0);
    assert_int_equal(a.allowed, 0);
    /* open order may intercept (only bent open order may not) */
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "intercept", "formation", "open-order", NULL),
                     0);
    assert_int_equal(a.allowed, 1);
}

static void hold_back(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "hold-back", NULL), 0);
    assert_float_equal(a.p, 3.0 / 6, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "hold-back", "open-order", NULL, NULL), 0);
    assert_float_equal(a.p, 5.0 / 6, SV_EPS);
    assert_string_equal(a.needed, "5 or less");
    assert_int_equal(
        sv_ask(&a, "test", NULL, "kind", "hold-back", "formation", "bent-open-order", NULL), 0);
    assert_float_equal(a.p, 5.0 / 6, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "hold-back", "in-command", NULL, NULL), 0);
    assert_float_equal(a.p, 1.0, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", "5", "kind", "hold-back", "open-order", NULL, NULL), 0);
    assert_int_equal(a.success, 1);
    assert_int_equal(sv_ask(&a, "test", "6", "kind", "hold-back", "open-order", NULL, NULL), 0);
    assert_int_equal(a.success, 0);
    assert_non_null(strstr(a.outcome, "joins in"));
}

static void pull_up_and_charge_home(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "pull-up-short", "pikes", NULL, NULL), 0);
    assert_float_equal(a.p, 5.0 / 6, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "pull-up-short", NULL), 0);
    assert_float_equal(a.p, 3.0 / 6, SV_EPS);
    /* command does not spare these tests */
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "pull-up-short", "in-command", NULL, NULL),
                     0);
    assert_float_equal(a.p, 3.0 / 6, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge-home", NULL), 0);
    assert_float_equal(a.p, 0.5, SV_EPS);
    assert_int_equal(a.ndist, 2);
    assert_string_equal(a.dist[1].label, "heavy impact (2 markers)");
    assert_float_equal(a.dist[0].value, 1, SV_EPS); /* green markers: light 1, heavy 2 */
    assert_float_equal(a.dist[1].value, 2, SV_EPS);
    assert_float_equal(a.expected, 1.5, SV_EPS);
    /* a Heavy Mounted or lance-armed charger: one marker more (§Reactions 4) */
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "charge-home", "heavy", NULL, NULL), 0);
    assert_float_equal(a.expected, 2.5, SV_EPS);
    assert_float_equal(sv_dist(&a, 3), 0.5, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", "4", "kind", "charge-home", NULL), 0);
    assert_int_equal(a.success, 0);
    assert_non_null(strstr(a.outcome, "heavy impact"));
    assert_int_not_equal(sv_ask(&a, "test", NULL, NULL), 0); /* kind required */
}

/* §What if a potential target ... just outside of the normal charge move distance?: the
 * text's example (3 in beyond, 1D6 needing 3 or more, a 2 stops short with 1 marker), the
 * limits (6 in mounted, 2 in foot), and the initiative (2D6 each, ties 73/648). */
static void extend_and_initiative(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "extend", "mounted", NULL, "gap", "3", NULL),
                     0);
    assert_int_equal(a.allowed, 1);
    assert_string_equal(a.needed, "3 or more");
    assert_float_equal(a.p, 4.0 / 6, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", "2", "kind", "extend", "mounted", NULL, "gap", "3", NULL),
                     0);
    assert_int_equal(a.success, 0);
    assert_non_null(strstr(a.outcome, "short"));
    assert_non_null(strstr(a.outcome, "1 marker"));
    assert_int_equal(
        sv_ask(&a, "test", NULL, "kind", "extend", "mounted", NULL, "gap", "6.5", NULL), 0);
    assert_int_equal(a.allowed, 0);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "extend", "gap", "2", NULL), 0);
    assert_float_equal(a.p, 1.0, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "extend", "gap", "2.5", NULL), 0);
    assert_int_equal(a.allowed, 0);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "extend", NULL), OPFOR_EINVAL);
    assert_int_equal(sv_ask(&a, "test", NULL, "kind", "initiative", NULL), 0);
    assert_float_equal(sv_fact(&a, "tie"), 73.0 / 648, SV_EPS);
    assert_int_equal(sv_ask(&a, "test", "5,8", "kind", "initiative", NULL), 0);
    assert_int_equal(a.success, 1);
    assert_non_null(strstr(a.outcome, "the side with 5"));
    assert_int_equal(sv_ask(&a, "test", "5", "kind", "initiative", NULL), OPFOR_EINVAL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(charge),
        cmocka_unit_test(charge_forbidden),
        cmocka_unit_test(intercept),
        cmocka_unit_test(hold_back),
        cmocka_unit_test(pull_up_and_charge_home),
        cmocka_unit_test(extend_and_initiative),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
