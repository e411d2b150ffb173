/* tests/rulesets/test_form.c — typed forms (rulesets/form.c): reading a field's text (whole
 * numbers, numbers and their limits, flags, choices, names a number field also takes, dice,
 * points, text), checking a whole form (required fields, limits, choices), defaults, and how a
 * value reads; plus the calculator's shared helpers (rulesets/calc.c): the generic wording of
 * what a field allows and the extra tree's builders and walkers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "opfor/error.h"
#include "opfor/form.h"
#include "opfor/ruleset_calc.h"

static const char *const COLOURS[] = {"red", "dark_blue", "green", NULL};
static const char *const BRACKETS[] = {"short", "long", NULL};

static const opfor_field_t FIELDS[] = {
    {.name = "count", .label = "Count", .type = OPFOR_FIELD_INT, .min = 1, .max = 6, .def = 2},
    {.name = "range",
     .label = "Range",
     .type = OPFOR_FIELD_NUM,
     .min = 0,
     .max = 48,
     .def_text = "short",
     .choices = BRACKETS,
     .unit = "in"},
    {.name = "charging", .label = "Charging", .type = OPFOR_FIELD_BOOL, .alias = "charge"},
    {.name = "colour",
     .label = "Colour",
     .type = OPFOR_FIELD_CHOICE,
     .def_text = "green",
     .choices = COLOURS},
    {.name = "dice", .label = "Dice", .type = OPFOR_FIELD_DICE, .min = 1, .max = 6},
    {.name = "at", .label = "Point", .type = OPFOR_FIELD_POINT},
    {.name = "who", .label = "Unit", .type = OPFOR_FIELD_TEXT, .flags = OPFOR_FIELD_REQUIRED},
    {.name = "level",
     .label = "Level",
     .type = OPFOR_FIELD_INT,
     .min = 1,
     .max = 5,
     .flags = OPFOR_FIELD_OPTIONAL},
};
#define NF (int)(sizeof FIELDS / sizeof FIELDS[0])
static const opfor_form_t FORMS[] = {
    {"shoot", "Shoot", "one shot", "IX", FIELDS, NF},
    {"wait", "Wait", "nothing", "I", NULL, 0},
};

enum { F_COUNT, F_RANGE, F_CHARGING, F_COLOUR, F_DICE, F_AT, F_WHO, F_LEVEL };

static int parse(int f, const char *text, opfor_value_t *v, char *msg, size_t n) {
    return opfor_field_parse(&FIELDS[f], text, v, msg, n);
}

static void form_find_and_field_names(void **state) {
    (void)state;
    assert_ptr_equal(opfor_form_find(FORMS, 2, "SHOOT"), &FORMS[0]);
    assert_ptr_equal(opfor_form_find(FORMS, 2, "wait"), &FORMS[1]);
    assert_null(opfor_form_find(FORMS, 2, "run"));
    assert_int_equal(opfor_form_field(&FORMS[0], "Colour"), F_COLOUR);
    assert_int_equal(opfor_form_field(&FORMS[0], "charge"), F_CHARGING); /* the alias */
    assert_int_equal(opfor_form_field(&FORMS[0], "nothing"), -1);
    assert_string_equal(opfor_field_type_name(OPFOR_FIELD_DICE), "dice");
    assert_string_equal(opfor_field_type_name(99), "?");
}

static void form_parse_numbers_and_limits(void **state) {
    (void)state;
    opfor_value_t v;
    char msg[200];
    assert_int_equal(parse(F_COUNT, "4", &v, msg, sizeof msg), 0);
    assert_true(v.set && v.num == 4 && !v.named);
    assert_int_equal(parse(F_COUNT, "2.5", &v, msg, sizeof msg), OPFOR_EINVAL);
    assert_non_null(strstr(msg, "count"));
    assert_non_null(strstr(msg, "whole number"));
    assert_int_equal(parse(F_COUNT, "7", &v, msg, sizeof msg), OPFOR_ERANGE);
    assert_non_null(strstr(msg, "within 1 to 6"));
    assert_int_equal(parse(F_COUNT, "x", &v, msg, sizeof msg), OPFOR_EINVAL);
    assert_false(v.set);
    assert_int_equal(parse(F_RANGE, "12.5", &v, msg, sizeof msg), 0);
    assert_true(v.num == 12.5 && !v.named);
    assert_int_equal(parse(F_RANGE, "-1", &v, msg, sizeof msg), OPFOR_ERANGE);
    assert_int_equal(parse(F_RANGE, "1e999", &v, msg, sizeof msg), OPFOR_EINVAL);
}

static void form_parse_names_a_number_field_takes(void **state) {
    (void)state;
    opfor_value_t v;
    char msg[200];
    assert_int_equal(parse(F_RANGE, "LONG", &v, msg, sizeof msg), 0);
    assert_true(v.set && v.named && v.num == 1);
    assert_int_equal(parse(F_RANGE, "medium", &v, msg, sizeof msg), OPFOR_EINVAL);
}

static void form_parse_flags_and_choices(void **state) {
    (void)state;
    opfor_value_t v;
    char msg[200];
    const char *yes[] = {"yes", "TRUE", "1", "on"}, *no[] = {"no", "false", "0", "Off"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(parse(F_CHARGING, yes[i], &v, msg, sizeof msg), 0);
        assert_true(v.num == 1);
        assert_int_equal(parse(F_CHARGING, no[i], &v, msg, sizeof msg), 0);
        assert_true(v.num == 0);
    }
    assert_int_equal(parse(F_CHARGING, "perhaps", &v, msg, sizeof msg), OPFOR_EINVAL);
    assert_non_null(strstr(msg, "yes or no"));
    assert_int_equal(parse(F_COLOUR, "Dark-Blue", &v, msg, sizeof msg), 0);
    assert_true(v.num == 1);
    assert_int_equal(parse(F_COLOUR, "mauve", &v, msg, sizeof msg), OPFOR_EINVAL);
    assert_non_null(strstr(msg, "one of red, dark_blue, green"));
}

static void form_parse_dice_points_text(void **state) {
    (void)state;
    opfor_value_t v;
    char msg[200];
    assert_int_equal(parse(F_DICE, "2,5,1", &v, msg, sizeof msg), 0);
    assert_true(v.num == 3 && strcmp(v.text, "2,5,1") == 0);
    assert_int_equal(parse(F_DICE, "2,7", &v, msg, sizeof msg), OPFOR_ERANGE);
    assert_non_null(strstr(msg, "within 1 to 6"));
    assert_int_equal(parse(F_DICE, "2,x", &v, msg, sizeof msg), OPFOR_EINVAL);
    assert_int_equal(parse(F_DICE, "", &v, msg, sizeof msg), OPFOR_EINVAL);
    assert_int_equal(parse(F_DICE, "3.5", &v, msg, sizeof msg), OPFOR_EINVAL);
    assert_int_equal(parse(F_AT, "10,12.5", &v, msg, sizeof msg), 0);
    assert_int_equal(parse(F_AT, "10", &v, msg, sizeof msg), OPFOR_EINVAL);
    assert_int_equal(parse(F_AT, "a,b", &v, msg, sizeof msg), OPFOR_EINVAL);
    assert_int_equal(parse(F_WHO, "Fusiliers", &v, msg, sizeof msg), 0);
    assert_int_equal(parse(F_WHO, "", &v, msg, sizeof msg), OPFOR_EINVAL);
}

static void form_check_required_limits_choices(void **state) {
    (void)state;
    opfor_value_t vals[NF];
    char msg[200];
    memset(vals, 0, sizeof vals);
    assert_int_equal(opfor_form_check(&FORMS[0], vals, msg, sizeof msg), OPFOR_EINVAL);
    assert_non_null(strstr(msg, "who: required"));
    vals[F_WHO] = (opfor_value_t){.set = 1, .text = "Fusiliers"};
    assert_int_equal(opfor_form_check(&FORMS[0], vals, msg, sizeof msg), 0);
    vals[F_COUNT] = (opfor_value_t){.set = 1, .num = 9}; /* a client filling values by hand */
    assert_int_equal(opfor_form_check(&FORMS[0], vals, msg, sizeof msg), OPFOR_EINVAL);
    assert_non_null(strstr(msg, "count"));
    vals[F_COUNT].num = 3;
    vals[F_COLOUR] = (opfor_value_t){.set = 1, .num = 3};
    assert_int_equal(opfor_form_check(&FORMS[0], vals, msg, sizeof msg), OPFOR_EINVAL);
    assert_non_null(strstr(msg, "colour"));
    vals[F_COLOUR].num = 2;
    vals[F_RANGE] = (opfor_value_t){.set = 1, .num = 2, .named = 1}; /* no third name */
    assert_int_equal(opfor_form_check(&FORMS[0], vals, msg, sizeof msg), OPFOR_EINVAL);
    vals[F_RANGE].num = 1;
    assert_int_equal(opfor_form_check(&FORMS[0], vals, msg, sizeof msg), 0);
    vals[F_RANGE] = (opfor_value_t){.set = 1, .num = 60}; /* inches beyond the limit */
    assert_int_equal(opfor_form_check(&FORMS[0], vals, msg, sizeof msg), OPFOR_EINVAL);
    assert_int_equal(opfor_form_check(&FORMS[1], NULL, msg, sizeof msg), 0);
}

static void form_defaults_and_value_text(void **state) {
    (void)state;
    opfor_value_t v;
    char buf[64];
    assert_int_equal(opfor_field_resolve(&FIELDS[F_COUNT], NULL, &v), 1);
    assert_string_equal(opfor_field_text(&FIELDS[F_COUNT], &v, buf, sizeof buf), "2");
    assert_int_equal(opfor_field_resolve(&FIELDS[F_RANGE], NULL, &v), 1);
    assert_true(v.named && v.num == 0);
    assert_string_equal(opfor_field_text(&FIELDS[F_RANGE], &v, buf, sizeof buf), "short");
    opfor_value_t inches = {.set = 1, .num = 20};
    assert_int_equal(opfor_field_resolve(&FIELDS[F_RANGE], &inches, &v), 1);
    assert_string_equal(opfor_field_text(&FIELDS[F_RANGE], &v, buf, sizeof buf), "20 in");
    assert_int_equal(opfor_field_resolve(&FIELDS[F_CHARGING], NULL, &v), 1);
    assert_string_equal(opfor_field_text(&FIELDS[F_CHARGING], &v, buf, sizeof buf), "no");
    assert_int_equal(opfor_field_resolve(&FIELDS[F_COLOUR], NULL, &v), 1);
    assert_string_equal(opfor_field_text(&FIELDS[F_COLOUR], &v, buf, sizeof buf), "green");
    assert_int_equal(opfor_field_resolve(&FIELDS[F_LEVEL], NULL, &v), 0); /* optional */
    assert_string_equal(opfor_field_text(&FIELDS[F_LEVEL], &v, buf, sizeof buf), "unset");
    assert_int_equal(opfor_field_resolve(&FIELDS[F_WHO], NULL, &v), 0); /* required */
}

static void form_calc_allowed_generic_wording(void **state) {
    (void)state;
    const opfor_ruleset_calc_t c = {.actions = FORMS, .nactions = 2};
    char buf[128];
    assert_string_equal(opfor_calc_allowed(&c, NULL, &FORMS[0], F_COLOUR, buf, sizeof buf),
                        "red, dark_blue, green");
    assert_string_equal(opfor_calc_allowed(&c, NULL, &FORMS[0], F_RANGE, buf, sizeof buf),
                        "0..48 in, or short, long");
    assert_string_equal(opfor_calc_allowed(&c, NULL, &FORMS[0], F_CHARGING, buf, sizeof buf),
                        "yes, no");
    opfor_value_t v;
    char msg[100];
    assert_int_equal(opfor_calc_parse(&c, NULL, &FORMS[0], F_CHARGING, NULL, &v, msg, sizeof msg),
                     0); /* a bare flag */
    assert_true(v.num == 1);
    assert_int_equal(opfor_calc_parse(&c, NULL, &FORMS[0], NF, "x", &v, msg, sizeof msg),
                     OPFOR_EINVAL);
}

static void form_calc_extra_tree(void **state) {
    (void)state;
    opfor_calc_answer_t *ap = test_calloc(1, sizeof *ap); /* large for the stack */
    assert_non_null(ap);
#define a (*ap)
    assert_int_equal(opfor_calc_extra_array(&a, "rolls"), 0);
    for (int i = 0; i < 3; i++) {
        opfor_calc_extra_map(&a, NULL);
        opfor_calc_extra_str(&a, "name", "hit");
        opfor_calc_extra_num(&a, "p", 0.5);
        opfor_calc_extra_end(&a);
    }
    opfor_calc_extra_end(&a);
    opfor_calc_extra_bool(&a, "flag", 1);
    opfor_calc_extra_nil(&a, "none");
    assert_int_equal(a.overflow, 0);
    assert_string_equal(opfor_calc_extra_key(&a, 0), "rolls");
    assert_int_equal(opfor_calc_extra_count(&a, 0), 3);
    assert_int_equal(opfor_calc_extra_count(&a, 1), 2);
    int next = opfor_calc_extra_next(&a, 0);
    assert_string_equal(opfor_calc_extra_key(&a, next), "flag");
    assert_int_equal(opfor_calc_extra_next(&a, next), next + 1);
    assert_string_equal(opfor_calc_extra_text(&a, 2), "hit");
    int top = 0;
    for (int i = 0; i >= 0 && i < a.nextra; i = opfor_calc_extra_next(&a, i))
        top++;
    assert_int_equal(top, 3);

    /* Overflow: nothing more is added, and the unclosed entry is not walked. */
    opfor_calc_extra_array(&a, "big");
    int rc = 0;
    for (int i = 0; i < OPFOR_CALC_MAX_EXTRA && rc == 0; i++)
        rc = opfor_calc_extra_int(&a, NULL, i);
    assert_int_equal(rc, OPFOR_ERANGE);
    assert_int_equal(a.overflow, 1);
    assert_int_equal(opfor_calc_extra_end(&a), OPFOR_ERANGE);
    top = 0;
    for (int i = 0; i < a.nextra; i = opfor_calc_extra_next(&a, i)) {
        if (opfor_calc_extra_next(&a, i) < 0)
            break;
        top++;
    }
    assert_int_equal(top, 3);
    /* facts and notes refuse past their room */
    for (int i = 0; i < OPFOR_CALC_MAX_FACTS; i++)
        assert_int_equal(opfor_calc_fact(&a, "f", "F", i, "in", NULL), 0);
    assert_int_equal(opfor_calc_fact(&a, "f", "F", 0, NULL, NULL), OPFOR_ERANGE);
    char pc[16];
    assert_string_equal(opfor_calc_pct(0.5, pc, sizeof pc), "50.0%");
    assert_string_equal(opfor_calc_pct(0.0042, pc, sizeof pc), "0.42%");
#undef a
    test_free(ap);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(form_find_and_field_names),
        cmocka_unit_test(form_parse_numbers_and_limits),
        cmocka_unit_test(form_parse_names_a_number_field_takes),
        cmocka_unit_test(form_parse_flags_and_choices),
        cmocka_unit_test(form_parse_dice_points_text),
        cmocka_unit_test(form_check_required_limits_choices),
        cmocka_unit_test(form_defaults_and_value_text),
        cmocka_unit_test(form_calc_allowed_generic_wording),
        cmocka_unit_test(form_calc_extra_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
