/* tests/rulesets/test_splendid_fire.c — A Splendid Victory!'s `fire` action (muskets,
 * §The Firing Procedure): 1D6 a stand, the target's modifiers, 2 or less a hit (1 raw, 3 or
 * less veteran, §Variable Unit Quality), the exact binomial chances and the text's example
 * of four stands at a mounted block.
 */
#include "test_splendid_helper.h"

/* §The Firing Procedure's example: 4 stands at six mounted stands in block: 6D6, 2 or less;
 * a 1, 2, 2, 4, 5 and 6 are three hits. */
static void the_texts_example(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(
        sv_ask(&a, "fire", NULL, "stands", "4", "target", "block", "mounted", NULL, NULL), 0);
    assert_int_equal(a.allowed, 1);
    assert_string_equal(a.dice, "6D6");
    assert_int_equal(a.ndice, 6);
    assert_string_equal(a.needed, "2 or less");
    assert_int_equal((int)sv_fact(&a, "modifier"), 2);
    assert_int_equal(a.ndist, 7);
    assert_float_equal(sv_dist(&a, 0), 64.0 / 729, SV_EPS);
    assert_float_equal(sv_dist(&a, 3), 160.0 / 729, SV_EPS);
    assert_float_equal(sv_dist(&a, 6), 1.0 / 729, SV_EPS);
    assert_float_equal(a.p, 1.0 - 64.0 / 729, SV_EPS);
    assert_float_equal(a.expected, 2.0, SV_EPS);
    double sum = 0;
    for (int i = 0; i < a.ndist; i++)
        sum += a.dist[i].p;
    assert_float_equal(sum, 1.0, SV_EPS);
    assert_int_equal(
        sv_ask(&a, "fire", "1,2,2,4,5,6", "stands", "4", "target", "block", "mounted", NULL, NULL),
        0);
    assert_int_equal(a.rolled, 1);
    assert_int_equal(a.success, 1);
    assert_non_null(strstr(a.outcome, "3 hits"));
    assert_non_null(strstr(a.outcome, "3 misses"));
}

static void modifiers(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "3", "target", "line", NULL), 0);
    assert_string_equal(a.dice, "3D6");
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "3", "target", "defensive-block", NULL), 0);
    assert_string_equal(a.dice, "5D6");
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "3", "target", "open-order", NULL), 0);
    assert_string_equal(a.dice, "2D6");
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "3", "target", "bent-open-order", NULL), 0);
    assert_string_equal(a.dice, "2D6");
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "3", "target", "road-column", NULL), 0);
    assert_string_equal(a.dice, "3D6");
    /* one stand at open order has no dice: it does not fire (R-12, docs/splendid.md 8.1) */
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "1", "target", "open-order", NULL), 0);
    assert_int_equal(a.allowed, 0);
    assert_non_null(strstr(a.reason, "R-12"));
    /* artillery is in open order at all times (§Open Order Formation): one die less */
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "3", "target", "unlimbered", NULL), 0);
    assert_string_equal(a.dice, "2D6");
    /* defensive fire at a charger (§Reactions 6): 4D6 flinch 11/27, light impact 16/81 */
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "4", "defensive", NULL, NULL), 0);
    assert_float_equal(sv_fact(&a, "flinch"), 11.0 / 27, SV_EPS);
    assert_float_equal(sv_fact(&a, "light_impact"), 16.0 / 81, SV_EPS);
    assert_float_equal(sv_fact(&a, "melee"), 32.0 / 81, SV_EPS);
}

static void quality(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "2", "quality", "raw", NULL), 0);
    assert_string_equal(a.needed, "1");
    assert_float_equal(a.p, 1.0 - 25.0 / 36, SV_EPS);
    assert_float_equal(a.expected, 2.0 / 6, SV_EPS);
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "2", "quality", "veteran", NULL), 0);
    assert_string_equal(a.needed, "3 or less");
    assert_float_equal(a.p, 0.75, SV_EPS);
    assert_float_equal(sv_dist(&a, 1), 0.5, SV_EPS);
    assert_int_equal(sv_ask(&a, "fire", "2,2", "stands", "2", "quality", "raw", NULL), 0);
    assert_int_equal(a.success, 0);
    assert_non_null(strstr(a.outcome, "0 hits"));
}

static void rolled_refusals(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "fire", "1,2", "stands", "3", NULL), OPFOR_EINVAL);
    assert_int_equal(sv_ask(&a, "fire", "1,2,7", "stands", "3", NULL), OPFOR_EINVAL);
    assert_int_equal(sv_ask(&a, "fire", "1,,2", "stands", "3", NULL), OPFOR_EINVAL);
    assert_int_not_equal(sv_ask(&a, "fire", NULL, "stands", "0", NULL), 0);
    assert_int_not_equal(sv_ask(&a, "fire", NULL, "target", "square", NULL), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_texts_example),
        cmocka_unit_test(modifiers),
        cmocka_unit_test(quality),
        cmocka_unit_test(rolled_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
