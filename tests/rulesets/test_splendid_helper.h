/* tests/rulesets/test_splendid_helper.h — asking A Splendid Victory!'s calculator from the
 * tests through the shared interface only (the registry, opfor_calc_parse, opfor_calc_run),
 * as `opfor calc splendid ACTION --FIELD VALUE` would.
 */
#ifndef TEST_SPLENDID_HELPER_H
#define TEST_SPLENDID_HELPER_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "opfor/ruleset.h"
#include "opfor/ruleset_calc.h"

#define SV_EPS 1e-9

static inline const opfor_ruleset_calc_t *sv_calc(void) {
    const opfor_ruleset_t *rs = opfor_ruleset_find("splendid");
    assert_non_null(rs);
    assert_non_null(rs->calc);
    return rs->calc;
}

static inline const opfor_form_t *sv_form(const char *action) {
    const opfor_ruleset_calc_t *c = sv_calc();
    const opfor_form_t *f = opfor_form_find(c->actions, c->nactions, action);
    assert_non_null(f);
    return f;
}

/* Runs action with the fields given as name, value pairs ending in NULL (value NULL: a bare
 * flag) against model (NULL: built in) and rolled (NULL: none). Returns the run's result. */
static inline int sv_ask_model(const void *model, opfor_calc_answer_t *a, const char *action,
                               const char *rolled, ...) {
    const opfor_ruleset_calc_t *c = sv_calc();
    const opfor_form_t *f = sv_form(action);
    opfor_value_t vals[16];
    char msg[256];
    memset(vals, 0, sizeof vals);
    va_list ap;
    va_start(ap, rolled);
    const char *name;
    while ((name = va_arg(ap, const char *)) != NULL) {
        const char *text = va_arg(ap, const char *);
        int i = 0;
        while (i < f->nfields && strcmp(f->fields[i].name, name) != 0)
            i++;
        assert_true(i < f->nfields);
        int rc = opfor_calc_parse(c, model, f, i, text, &vals[i], msg, sizeof msg);
        if (rc) {
            va_end(ap);
            return rc;
        }
    }
    va_end(ap);
    memset(a, 0, sizeof *a);
    return opfor_calc_run(c, model, f, vals, rolled, a, msg, sizeof msg);
}

#define sv_ask(a, action, rolled, ...) sv_ask_model(NULL, a, action, rolled, __VA_ARGS__)

/* The value of fact name (fails when missing). */
static inline double sv_fact(const opfor_calc_answer_t *a, const char *name) {
    for (int i = 0; i < a->nfacts; i++)
        if (strcmp(a->facts[i].name, name) == 0)
            return a->facts[i].value;
    fail_msg("no fact %s", name);
    return 0;
}

/* The chance of the outcome of the given value (fails when missing). */
static inline double sv_dist(const opfor_calc_answer_t *a, double value) {
    for (int i = 0; i < a->ndist; i++)
        if (a->dist[i].value == value)
            return a->dist[i].p;
    fail_msg("no outcome %g", value);
    return 0;
}

#endif
