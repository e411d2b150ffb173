/* tests/rulesets/test_splendid_breakpoints.c — A Splendid Victory! is a registered ruleset
 * with a calculator, and its `breakpoints` action: the quarter, third and half of an army,
 * rounded up (§The Determine Victory Phase, with the text's 69-stand example), and with the
 * running tally given as --rolled, which of them it exceeds.
 */
#include "test_splendid_helper.h"

static void registered_not_test_only(void **st) {
    (void)st;
    size_t n = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    int found = 0;
    for (size_t i = 0; i < n; i++)
        found += strcmp(list[i].name, "splendid") == 0;
    assert_int_equal(found, 1);
    const opfor_ruleset_t *rs = opfor_ruleset_find("Splendid");
    assert_non_null(rs);
    assert_string_equal(rs->title, "A Splendid Victory!");
    const opfor_ruleset_calc_t *c = sv_calc();
    const char *want[] = {"breakpoints", "command", "test", "fire", "artillery", "melee"};
    assert_true(c->nactions >= 6);
    for (int i = 0; i < 6; i++)
        assert_string_equal(c->actions[i].name, want[i]);
}

static void the_texts_example(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "breakpoints", NULL, "stands", "69", NULL), 0);
    assert_int_equal(a.allowed, 1);
    assert_int_equal((int)sv_fact(&a, "quarter"), 18); /* 17.25 rounded up */
    assert_int_equal((int)sv_fact(&a, "third"), 23);
    assert_int_equal((int)sv_fact(&a, "half"), 35); /* 34.5 rounded up: the breakpoint */
    assert_int_equal(a.rolled, 0);
}

static void rounding(void **st) {
    (void)st;
    static const int rows[][4] = {{1, 1, 1, 1},  {4, 1, 2, 2},  {10, 3, 4, 5},
                                  {12, 3, 4, 6}, {13, 4, 5, 7}, {100, 25, 34, 50}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char s[16];
        snprintf(s, sizeof s, "%d", rows[i][0]);
        opfor_calc_answer_t a;
        assert_int_equal(sv_ask(&a, "breakpoints", NULL, "stands", s, NULL), 0);
        assert_int_equal((int)sv_fact(&a, "quarter"), rows[i][1]);
        assert_int_equal((int)sv_fact(&a, "third"), rows[i][2]);
        assert_int_equal((int)sv_fact(&a, "half"), rows[i][3]);
    }
}

/* A tally takes effect when it exceeds a value, not when it equals it. */
static void tally(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "breakpoints", "18", "stands", "69", NULL), 0);
    assert_int_equal(a.rolled, 1);
    assert_int_equal(a.success, 1);
    assert_non_null(strstr(a.outcome, "no breakpoint"));
    assert_int_equal(sv_ask(&a, "breakpoints", "19", "stands", "69", NULL), 0);
    assert_non_null(strstr(a.outcome, "every sub-commander goes"));
    assert_int_equal(sv_ask(&a, "breakpoints", "24", "stands", "69", NULL), 0);
    assert_non_null(strstr(a.outcome, "the commander"));
    assert_int_equal(a.success, 1);
    assert_int_equal(sv_ask(&a, "breakpoints", "35", "stands", "69", NULL), 0);
    assert_int_equal(a.success, 1);
    assert_int_equal(sv_ask(&a, "breakpoints", "36", "stands", "69", NULL), 0);
    assert_int_equal(a.success, 0);
    assert_non_null(strstr(a.outcome, "game is over"));
    /* the tallies at which each takes effect, and --tally as --rolled */
    assert_int_equal((int)sv_fact(&a, "quarter_at"), 19);
    assert_int_equal((int)sv_fact(&a, "third_at"), 24);
    assert_int_equal((int)sv_fact(&a, "half_at"), 36);
    assert_string_equal(a.dice, "0D6");
    assert_int_equal(sv_ask(&a, "breakpoints", NULL, "stands", "69", "tally", "19", NULL), 0);
    assert_non_null(strstr(a.outcome, "every sub-commander goes"));
    assert_int_equal(sv_ask(&a, "breakpoints", NULL, "stands", "69", "tally", "70", NULL),
                     OPFOR_EINVAL);
}

/* §The Determine Victory Phase's result: the opponent's tally (an army of 50: third 17, half
 * 25) when this side (69 stands) passes its half. */
static void result(void **st) {
    (void)st;
    static const struct {
        const char *tally, *otally, *want;
    } rows[] = {{"36", "26", "a draw"},
                {"36", "18", "A Minor Victory"},
                {"36", "17", "A Splendid Victory!"},
                {"20", "26", "this side wins"},
                {"20", "10", "the game goes on"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        opfor_calc_answer_t a;
        assert_int_equal(sv_ask(&a, "breakpoints", NULL, "stands", "69", "tally", rows[i].tally,
                                "opponent-stands", "50", "opponent-tally", rows[i].otally, NULL),
                         0);
        assert_non_null(strstr(a.outcome, rows[i].want));
    }
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "breakpoints", NULL, "stands", "69", "tally", "3",
                            "opponent-stands", "50", NULL),
                     OPFOR_EINVAL);
}

static void refusals(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "breakpoints", NULL, NULL), OPFOR_EINVAL); /* stands required */
    assert_int_equal(sv_ask(&a, "breakpoints", "70", "stands", "69", NULL), OPFOR_EINVAL);
    assert_int_equal(sv_ask(&a, "breakpoints", "x", "stands", "69", NULL), OPFOR_EINVAL);
    assert_int_not_equal(sv_ask(&a, "breakpoints", NULL, "stands", "0", NULL), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registered_not_test_only),
        cmocka_unit_test(the_texts_example),
        cmocka_unit_test(rounding),
        cmocka_unit_test(tally),
        cmocka_unit_test(result),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
