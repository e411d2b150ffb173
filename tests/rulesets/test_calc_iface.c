/* tests/rulesets/test_calc_iface.c — the Viktoria! calculator through the shared interface
 * (rulesets/viktoria/calc_iface.c): the forms mirror calc.c's action table (names, titles,
 * sections, fields, choices, defaults, kinds), every form's defaults run and give a chance in
 * [0, 1], values read through the parse hook keep the app's spellings and messages, the
 * answer carries the same numbers as the native result, and dice rolled at the table are
 * judged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "opfor/ruleset.h"
#include "opfor/ruleset_calc.h"
#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/calc_list.h"

typedef struct fixture {
    const opfor_ruleset_calc_t *c;
    void *model;
    opfor_calc_answer_t ans;
} fixture_t;

static int setup(void **state) {
    fixture_t *f = test_calloc(1, sizeof *f);
    const opfor_ruleset_t *rs = opfor_ruleset_find("viktoria");
    if (!f || !rs || !rs->calc)
        return -1;
    f->c = rs->calc;
    opfor_diag_t d;
    if (f->c->model_load(NULL, &f->model, &d) != 0)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture_t *f = *state;
    f->c->model_free(f->model);
    test_free(f);
    return 0;
}

/* Reads "field", "value" pairs into vals through the calculator's parser; fails on error. */
static const opfor_form_t *ask(fixture_t *f, const char *action, const char *const *kv,
                               opfor_value_t *vals) {
    const opfor_form_t *form = opfor_form_find(f->c->actions, f->c->nactions, action);
    char msg[512];
    assert_non_null(form);
    memset(vals, 0, sizeof(opfor_value_t) * (size_t)form->nfields);
    for (int i = 0; kv && kv[i]; i += 2) {
        int fid = opfor_form_field(form, kv[i]);
        assert_true(fid >= 0);
        if (opfor_calc_parse(f->c, f->model, form, fid, kv[i + 1], &vals[fid], msg, sizeof msg))
            fail_msg("%s --%s %s: %s", action, kv[i], kv[i + 1] ? kv[i + 1] : "", msg);
    }
    return form;
}

/* The lists an error names: every action, a form's fields with a prefix, cut but terminated
 * in a small buffer; a field found in another action. */
static void calc_iface_lists_for_errors(void **state) {
    (void)state;
    const opfor_ruleset_calc_t *c = opfor_ruleset_find("viktoria")->calc;
    char buf[2048], small[12];
    opfor_calc_action_list(c, buf, sizeof buf);
    assert_true(strncmp(buf, c->actions[0].name, strlen(c->actions[0].name)) == 0);
    assert_non_null(strstr(buf, ", fire_rifle"));
    opfor_calc_action_list(c, small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
    const opfor_form_t *fire = opfor_form_find(c->actions, c->nactions, "fire_rifle");
    assert_non_null(fire);
    opfor_calc_field_list(fire, "--", buf, sizeof buf);
    assert_true(strncmp(buf, "--", 2) == 0);
    assert_non_null(strstr(buf, ", --range"));
    opfor_calc_field_list(fire, "", buf, sizeof buf);
    assert_null(strstr(buf, "--"));
    const opfor_form_t none = {"none", "none", "", "", NULL, 0};
    assert_string_equal(opfor_calc_field_list(&none, "--", buf, sizeof buf), "(none)");
    const opfor_field_t *f = opfor_calc_field_anywhere(c, "range");
    assert_non_null(f);
    assert_string_equal(f->name, "range");
    assert_null(opfor_calc_field_anywhere(c, "no_such_field"));
}

static void calc_iface_forms_mirror_the_action_table(void **state) {
    fixture_t *f = *state;
    assert_int_equal(f->c->nactions, OPFOR_VK_A_COUNT);
    for (int id = 0; id < OPFOR_VK_A_COUNT; id++) {
        const opfor_viktoria_action_t *a = opfor_viktoria_action_get(id);
        const opfor_form_t *form = &f->c->actions[id];
        opfor_viktoria_req_t req;
        opfor_viktoria_req_init(&req, id);
        assert_string_equal(form->name, a->name);
        assert_string_equal(form->title, a->title);
        assert_string_equal(form->help, a->summary);
        assert_string_equal(form->section, a->rules);
        assert_int_equal(form->nfields, a->nfields);
        for (int i = 0; i < a->nfields; i++) {
            const opfor_viktoria_action_field_t *af = &a->fields[i];
            const opfor_viktoria_field_t *vf = opfor_viktoria_field_get(af->id);
            const opfor_field_t *fd = &form->fields[i];
            char want[64], got[64];
            assert_string_equal(fd->name, vf->name);
            assert_string_equal(fd->label, vf->label);
            assert_string_equal(fd->kind, opfor_viktoria_kind_name(af->kind));
            assert_int_equal(fd->type == OPFOR_FIELD_BOOL, af->kind == OPFOR_VK_FK_BOOL);
            /* the same default, as people read it */
            opfor_value_t v;
            opfor_field_resolve(fd, NULL, &v);
            opfor_viktoria_req_value(&req, af->id, want, sizeof want);
            assert_string_equal(opfor_field_text(fd, &v, got, sizeof got), want);
            /* the same names, in value order (the choice index is the engine's value) */
            const opfor_name_t *names = opfor_viktoria_field_names(af);
            int k = 0;
            for (const opfor_name_t *n = names ? opfor_viktoria_name_next(names, names) : NULL; n;
                 n = opfor_viktoria_name_next(names, n + 1), k++) {
                assert_non_null(fd->choices);
                assert_non_null(fd->choices[k]);
                assert_string_equal(fd->choices[k], n->name);
                assert_int_equal(n->value, k);
            }
            assert_true(fd->choices == NULL || fd->choices[k] == NULL);
            if (af->kind == OPFOR_VK_FK_INT) {
                assert_true(fd->type == OPFOR_FIELD_INT);
                assert_true(fd->min == vf->min && fd->max == vf->max);
            }
        }
    }
}

static void calc_iface_every_default_runs_with_p_in_0_1(void **state) {
    fixture_t *f = *state;
    for (int id = 0; id < f->c->nactions; id++) {
        const opfor_form_t *form = &f->c->actions[id];
        opfor_value_t vals[16];
        char msg[512] = "";
        memset(vals, 0, sizeof vals);
        int rc = opfor_calc_run(f->c, f->model, form, vals, NULL, &f->ans, msg, sizeof msg);
        if (rc != 0)
            fail_msg("%s: %s", form->name, msg);
        const opfor_calc_answer_t *a = &f->ans;
        assert_true(a->allowed);
        assert_false(a->overflow);
        if (!(a->p >= 0.0 && a->p <= 1.0))
            fail_msg("%s: p %g", form->name, a->p);
        assert_true(a->text[0] != '\0');
        assert_string_equal(a->title, form->title);
        double sum = 0;
        for (int i = 0; i < a->ndist; i++) {
            assert_true(a->dist[i].p >= 0.0 && a->dist[i].p <= 1.0);
            sum += a->dist[i].p;
        }
        assert_true(a->ndist == 0 || sum <= 1.0 + 1e-9);
        if (a->has_expected)
            assert_true(isfinite(a->expected));
        /* the extra tree is complete: rolls, tables, distances, outcomes */
        int top = 0;
        for (int i = 0; i >= 0 && i < a->nextra; i = opfor_calc_extra_next(a, i))
            top++;
        assert_int_equal(top, 4);
        assert_string_equal(opfor_calc_extra_key(a, 0), "rolls");
    }
}

/* What the daemon leaves out unless asked (the lines of text, the distribution) is left out,
 * and the next full answer has them again: a cleared answer keeps nothing of the last one. */
static void calc_iface_skip_leaves_parts_out(void **state) {
    fixture_t *f = *state;
    opfor_value_t vals[16];
    const char *kv[] = {"actor", "veteran", "target", "soldier", "cover",
                        "soft",  "range",   "20",     NULL};
    const opfor_form_t *form = ask(f, "fire_rifle", kv, vals);
    char msg[256];
    opfor_calc_answer_t *a = &f->ans;
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, NULL, a, msg, sizeof msg), 0);
    assert_true(a->text[0] != '\0');
    assert_int_equal(a->ndist, 3);
    int nextra = a->nextra;
    assert_int_equal(opfor_calc_run_skip(f->c, f->model, form, vals, NULL,
                                         OPFOR_CALC_SKIP_TEXT | OPFOR_CALC_SKIP_DIST, a, msg,
                                         sizeof msg),
                     0);
    assert_string_equal(a->text, "");
    assert_int_equal(a->ndist, 0);
    assert_int_equal(a->nextra, nextra); /* the wire's own parts stay */
    assert_string_equal(a->needed, "4+");
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, NULL, a, msg, sizeof msg), 0);
    assert_true(a->text[0] != '\0');
    assert_int_equal(a->ndist, 3);
    /* every map and array of the tree is closed, its count its entries */
    for (int i = 0; i >= 0 && i < a->nextra; i = opfor_calc_extra_next(a, i)) {
        int t = a->extra[i].type;
        if (t == OPFOR_CALC_NODE_MAP || t == OPFOR_CALC_NODE_ARRAY) {
            int n = 0;
            for (int k = i + 1; k < a->nextra && a->extra[k].type != OPFOR_CALC_NODE_END;
                 k = opfor_calc_extra_next(a, k))
                n++;
            assert_int_equal(opfor_calc_extra_count(a, i), n);
        }
    }
}

static void calc_iface_answer_matches_the_native_result(void **state) {
    fixture_t *f = *state;
    opfor_value_t vals[16];
    const char *kv[] = {"actor", "veteran", "target", "soldier", "cover",
                        "soft",  "range",   "20",     NULL};
    const opfor_form_t *form = ask(f, "fire_rifle", kv, vals);
    char msg[256];
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, NULL, &f->ans, msg, sizeof msg), 0);
    const opfor_calc_answer_t *a = &f->ans;
    assert_string_equal(a->dice, "D6");
    assert_int_equal(a->ndice, 1);
    assert_string_equal(a->needed, "4+");
    assert_true(fabs(a->p - 0.5) < 1e-12);
    assert_int_equal(a->ndist, 3); /* killed, wounded, unharmed */
    double sum = a->dist[0].p + a->dist[1].p + a->dist[2].p;
    assert_true(fabs(sum - 1.0) < 1e-9);
    assert_non_null(strstr(a->text, "To hit: 4+ (exact 46.3%, as rolled 50.0%)\n"));
    assert_non_null(strstr(a->text, "Critical: 6, then 6 kills (2.8%)\n"));
    int bracket = -1;
    for (int i = 0; i < a->nfacts; i++)
        if (strcmp(a->facts[i].name, "bracket") == 0)
            bracket = i;
    assert_true(bracket >= 0);
    assert_string_equal(a->facts[bracket].text, "medium");

    /* a move: the expected distance and its distribution */
    const char *mv[] = {"actor", "soldier", "terrain", "rough", "obstacles", "1", NULL};
    form = ask(f, "advance", mv, vals);
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, NULL, &f->ans, msg, sizeof msg), 0);
    assert_true(a->has_expected && fabs(a->expected - 2.5) < 1e-9);
    assert_true(a->p == 1.0);
    sum = 0;
    for (int i = 0; i < a->ndist; i++)
        sum += a->dist[i].p;
    assert_true(a->ndist >= 2 && fabs(sum - 1.0) < 1e-9);
}

static void calc_iface_parse_keeps_the_apps_spellings(void **state) {
    fixture_t *f = *state;
    const opfor_form_t *form = opfor_form_find(f->c->actions, f->c->nactions, "fire-rifle");
    opfor_value_t v;
    char msg[512];
    assert_non_null(form);
    int range = opfor_form_field(form, "range"), actor = opfor_form_field(form, "actor");
    assert_int_equal(opfor_calc_parse(f->c, f->model, form, range, "20in", &v, msg, sizeof msg), 0);
    assert_true(v.set && !v.named && v.num == 20);
    assert_int_equal(opfor_calc_parse(f->c, f->model, form, range, "medium", &v, msg, sizeof msg),
                     0);
    assert_true(v.named && v.num == 2);
    assert_int_equal(opfor_calc_parse(f->c, f->model, form, actor, "officer", &v, msg, sizeof msg),
                     0);
    assert_true(v.num == 4); /* counts as elite */
    assert_int_equal(opfor_calc_parse(f->c, f->model, form, actor, "sergeant", &v, msg, sizeof msg),
                     OPFOR_EINVAL);
    assert_string_equal(msg, "bad value 'sergeant' for --actor (fire_rifle); allowed: civilian, "
                             "conscript, soldier, veteran, elite (officer and character count as "
                             "elite)");
    assert_int_equal(opfor_calc_parse(f->c, f->model, form, range, "20000", &v, msg, sizeof msg),
                     OPFOR_ERANGE);
    assert_non_null(strstr(msg, "inches must be from 0 to 10000"));
    const opfor_form_t *morale = opfor_form_find(f->c->actions, f->c->nactions, "check_morale");
    assert_int_equal(opfor_form_field(morale, "colors"), opfor_form_field(morale, "colours"));
    /* what a field allows depends on the model's range edges */
    char allowed[512];
    const opfor_form_t *pistol = opfor_form_find(f->c->actions, f->c->nactions, "fire_pistol");
    assert_string_equal(opfor_calc_allowed(f->c, f->model, pistol,
                                           opfor_form_field(pistol, "range"), allowed,
                                           sizeof allowed),
                        "inches 0-9, or point_blank (to 2 in), short (to 4 in), medium (to 6 in), "
                        "long (to 9 in)");
}

static void calc_iface_forbidden_and_out_of_range(void **state) {
    fixture_t *f = *state;
    opfor_value_t vals[16];
    char msg[512];
    const char *lance[] = {"actor-mounted", "no", NULL};
    const opfor_form_t *form = ask(f, "attack_lance", lance, vals);
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, NULL, &f->ans, msg, sizeof msg), 0);
    assert_false(f->ans.allowed);
    assert_non_null(strstr(f->ans.reason, "horseback"));
    const char *far[] = {"range", "12", NULL};
    form = ask(f, "fire_pistol", far, vals);
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, NULL, &f->ans, msg, sizeof msg),
                     OPFOR_ERANGE);
    assert_string_equal(msg, "out of range: a pistol reaches 9 in at most");
    /* values filled by hand are checked against the form first */
    memset(vals, 0, sizeof vals);
    vals[opfor_form_field(form, "actor")] = (opfor_value_t){.set = 1, .num = 9};
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, NULL, &f->ans, msg, sizeof msg),
                     OPFOR_EINVAL);
    assert_non_null(strstr(msg, "actor"));
}

static void calc_iface_rolled_dice_are_judged(void **state) {
    fixture_t *f = *state;
    opfor_value_t vals[16];
    char msg[512];
    const char *kv[] = {"actor", "veteran", "general", NULL, NULL};
    const opfor_form_t *form = ask(f, "check_morale", kv, vals); /* 5+ on 2D6 */
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, "3,4", &f->ans, msg, sizeof msg),
                     0);
    assert_true(f->ans.rolled && f->ans.success);
    assert_non_null(strstr(f->ans.outcome, "7 against 5+ on 2D6"));
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, "1,2", &f->ans, msg, sizeof msg),
                     0);
    assert_true(f->ans.rolled && !f->ans.success);
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, "3", &f->ans, msg, sizeof msg),
                     OPFOR_EINVAL);
    assert_non_null(strstr(msg, "2 dice"));
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, "7,1", &f->ans, msg, sizeof msg),
                     OPFOR_EINVAL);
    form = ask(f, "advance", NULL, vals);
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, "3", &f->ans, msg, sizeof msg),
                     OPFOR_EINVAL);
    assert_non_null(strstr(msg, "no roll"));
    const char *hit[] = {"actor", "veteran", "range", "20", NULL}; /* to hit 3+ */
    form = ask(f, "fire_rifle", hit, vals);
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, "4", &f->ans, msg, sizeof msg), 0);
    assert_true(f->ans.success);
    assert_int_equal(opfor_calc_run(f->c, f->model, form, vals, "2", &f->ans, msg, sizeof msg), 0);
    assert_false(f->ans.success);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(calc_iface_lists_for_errors),
        cmocka_unit_test(calc_iface_forms_mirror_the_action_table),
        cmocka_unit_test(calc_iface_every_default_runs_with_p_in_0_1),
        cmocka_unit_test(calc_iface_skip_leaves_parts_out),
        cmocka_unit_test(calc_iface_answer_matches_the_native_result),
        cmocka_unit_test(calc_iface_parse_keeps_the_apps_spellings),
        cmocka_unit_test(calc_iface_forbidden_and_out_of_range),
        cmocka_unit_test(calc_iface_rolled_dice_are_judged),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
