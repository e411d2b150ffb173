/* tests/rulesets/test_splendid_model.c — A Splendid Victory!'s model.yaml: the compiled-in
 * model answers as the built-in numbers, an edited copy changes only what it names, and a
 * broken one is refused with its line and column.
 */
#include "test_splendid_helper.h"

#include <stdlib.h>

static void *load(const char *text, int want) {
    const opfor_ruleset_calc_t *c = sv_calc();
    assert_non_null(c->model_load);
    assert_non_null(c->model_load_text);
    void *m = NULL;
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    int rc = text ? c->model_load_text(text, "edited.yaml", &m, &d) : c->model_load(NULL, &m, &d);
    assert_int_equal(rc, want);
    if (want) {
        assert_null(m);
        assert_true(d.line > 0);
        assert_string_equal(d.file, "edited.yaml");
    }
    return m;
}

static void builtin_matches_defaults(void **st) {
    (void)st;
    void *m = load(NULL, 0);
    opfor_calc_answer_t a, b;
    assert_int_equal(sv_ask_model(m, &a, "fire", NULL, "quality", "veteran", NULL), 0);
    assert_int_equal(sv_ask(&b, "fire", NULL, "quality", "veteran", NULL), 0);
    assert_float_equal(a.p, b.p, SV_EPS);
    assert_int_equal(sv_ask_model(m, &a, "command", NULL, "rank", "sub", NULL), 0);
    assert_float_equal(a.expected, 2.5, SV_EPS);
    sv_calc()->model_free(m);
}

static void partial_edit(void **st) {
    (void)st;
    void *m = load("quality:\n  veteran: {fire: 4}\nreadings:\n  open_order_may_charge: all\n"
                   "  command_stand_mounted: no\n  always_open_cv_penalty: off\n"
                   "  bounce_first_shot: round_shot\n",
                   0);
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask_model(m, &a, "fire", NULL, "quality", "veteran", NULL), 0);
    assert_string_equal(a.needed, "4 or less");
    /* the rest stays */
    assert_int_equal(
        sv_ask_model(m, &a, "test", NULL, "kind", "charge", "quality", "veteran", NULL), 0);
    assert_float_equal(a.p, 4.0 / 6, SV_EPS);
    assert_int_equal(sv_ask_model(m, &a, "test", NULL, "kind", "charge", "open-order", NULL, NULL),
                     0);
    assert_int_equal(a.allowed, 1);
    /* a command stand not mounted and not penalised: its basic 3 against anything */
    assert_int_equal(sv_ask_model(m, &a, "melee", NULL, "stand", "command", "defender",
                                  "defensive-block", "pikes", NULL, NULL),
                     0);
    assert_int_equal((int)sv_fact(&a, "cv"), 3);
    /* bounce only from round shot: the 19 in example does not bounce */
    assert_int_equal(sv_ask_model(m, &a, "artillery", NULL, "gun", "heavy", "range", "19", "target",
                                  "block", NULL),
                     0);
    assert_int_equal((int)sv_fact(&a, "bounce_through"), 0);
    sv_calc()->model_free(m);

    /* none: even a mounted unit in open order may not charge */
    m = load("readings: {open_order_may_charge: none}\n", 0);
    assert_int_equal(sv_ask_model(m, &a, "test", NULL, "kind", "charge", "open-order", NULL,
                                  "mounted", NULL, NULL),
                     0);
    assert_int_equal(a.allowed, 0);
    sv_calc()->model_free(m);

    m = load("command:\n  commander:\n    inspiring: {top: 4}\n", 0);
    assert_int_equal(sv_ask_model(m, &a, "command", NULL, "rank", "commander", NULL), 0);
    assert_float_equal(sv_dist(&a, 6), 3.0 / 6, SV_EPS);
    assert_float_equal(sv_dist(&a, 3), 2.0 / 6, SV_EPS);
    sv_calc()->model_free(m);
}

static void refused(void **st) {
    (void)st;
    load("quality:\n  elite: {fire: 4}\n", OPFOR_EPARSE);
    load("quality:\n  raw: {fire: 9}\n", OPFOR_ERANGE);
    load("command:\n  sub:\n    impersonal: {top: 5}\n", OPFOR_ERANGE);
    load("quality: [1, 2\n", OPFOR_EPARSE);
    load("readings:\n  open_order_may_charge: sometimes\n", OPFOR_EPARSE);
    load("army:\n  table:\n    13: [foot]\n", OPFOR_EPARSE);
    load("army:\n  table:\n    7: [militia]\n", OPFOR_EPARSE);
    load("army:\n  sizes:\n    mounted: {pike: 2}\n", OPFOR_EPARSE);
    load("army:\n  limits:\n    foot: [5, 3]\n", OPFOR_ERANGE);
    opfor_diag_t d;
    void *m = NULL;
    assert_int_equal(sv_calc()->model_load("/nonexistent/model.yaml", &m, &d), OPFOR_ENOENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_matches_defaults),
        cmocka_unit_test(partial_edit),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
