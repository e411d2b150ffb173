/* tests/rulesets/test_splendid_scenario_gen.c — A Splendid Victory!'s built-in scenarios for
 * generic tools and the daemon (the `builtin:` names, hello's titles) and generated armies
 * (`splendid: generate:`, docs/splendid.md 9.5): the built-in `generated` scenario throws an
 * army on each side from its seed, the same armies every time, drawn up clear of each other on
 * the table, each with one Commander; a different seed throws different armies; a
 * `builtin:NAME` never opens a file; the map's mistakes are refused at their line and column.
 */
#include "test_splendid_engine_helper.h"

#include "opfor/ruleset.h"

static void builtins_listed(void **st) {
    (void)st;
    const opfor_ruleset_t *rs = opfor_ruleset_find("splendid");
    assert_non_null(rs);
    assert_string_equal(rs->builtin_name(0), "encounter");
    assert_string_equal(rs->builtin_name(1), "generated");
    assert_null(rs->builtin_name(2));
    size_t len = 0;
    const char *text = rs->builtin_text("builtin:generated", &len);
    assert_non_null(text);
    assert_true(len > 100 && strstr(text, "generate:") != NULL);
}

/* The army of each side: units, stands, commanders. */
static void count(const sv_ctx_t *c, int side, int *units, int *stands, int *commanders) {
    *units = *stands = *commanders = 0;
    for (int i = 0; i < c->start.nunits; i++) {
        const sv_unit_t *u = &c->start.u[i];
        if (u->side != side)
            continue;
        (*units)++;
        *stands += u->n;
        *commanders += u->kind == SV_COMMANDER;
    }
}

static void generated_armies(void **st) {
    (void)st;
    sv_ctx_t *c = NULL, *again = NULL;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = sv_ctx_load("builtin:generated", &c, &d);
    if (rc)
        fprintf(stderr, "%d:%d: %s\n", d.line, d.col, d.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(sv_ctx_load("generated", &again, &d), 0);
    assert_int_equal(memcmp(&c->start, &again->start, sizeof c->start), 0); /* same seed */
    assert_int_equal(memcmp(c->names, again->names, sizeof c->names), 0);
    sv_ctx_free(again);
    for (int side = 0; side < 2; side++) {
        int units, stands, commanders;
        count(c, side, &units, &stands, &commanders);
        assert_int_equal(commanders, 1);
        assert_true(units >= 4); /* 4 throws: at least one unit each, and command */
        assert_int_equal(stands, c->start.stands0[side]);
    }
    int foot = 0;
    for (int i = 0; i < c->start.nunits; i++) {
        const sv_unit_t *u = &c->start.u[i];
        assert_true(sv_form_ok(u, u->form));
        /* facing away from its own edge: Parliament (bottom) up, the Royalists down */
        assert_true(fabsf(u->fy - (u->side == 0 ? 1.0f : -1.0f)) < 1e-4f);
        assert_true(u->side == 0 ? u->y < 12.0f : u->y > c->depth - 12.0f);
        foot += u->kind == SV_PM || u->kind == SV_FOOT;
        for (int j = 0; j < i; j++)
            assert_string_not_equal(c->names[i], c->names[j]);
    }
    assert_true(foot >= 2);
    /* a game plays on it: the first movement phase lists manoeuvres of the fighting units */
    sv_state_t s;
    assert_int_equal(sv_engine_init(c, &s, 3), 0);
    opfor_action_t acts[SV_MAX_ACTIONS];
    for (int step = 0; step < 200 && s.phase != SV_P_MOVE; step++) {
        int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS);
        assert_true(n > 0);
        assert_int_equal(sv_engine_apply(c, &s, &acts[n - 1]), 0);
    }
    assert_int_equal(s.phase, SV_P_MOVE);
    int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS), fighting = 0;
    for (int k = 0; k < n; k++)
        if (acts[k].kind == SV_A_MOVE && acts[k].unit < s.nunits && !sv_is_cmd(&s.u[acts[k].unit]))
            fighting++;
    assert_true(fighting > 0);
    sv_ctx_free(c);
}

#define GEN_HEAD                                                                                   \
    "name: G\n"                                                                                    \
    "table: {width: 72, depth: 48}\n"                                                              \
    "sides:\n"                                                                                     \
    "  - {name: Red, edge: bottom}\n"                                                              \
    "  - {name: Blue, edge: top}\n"

static int load(const char *text, sv_ctx_t **c, opfor_diag_t *d) {
    opfor_diag_clear(d);
    return sv_ctx_load_text(text, strlen(text), "g.yaml", c, d);
}

static void another_seed(void **st) {
    (void)st;
    sv_ctx_t *a = NULL, *b = NULL;
    opfor_diag_t d;
    assert_int_equal(load(GEN_HEAD "splendid:\n  generate: {seed: 1, throws: 3}\n", &a, &d), 0);
    assert_int_equal(load(GEN_HEAD "splendid:\n  generate: {seed: 2, throws: 3}\n", &b, &d), 0);
    int differ = a->start.nunits != b->start.nunits;
    for (int i = 0; !differ && i < a->start.nunits; i++)
        differ = a->start.u[i].kind != b->start.u[i].kind || a->start.u[i].n != b->start.u[i].n;
    assert_true(differ);
    assert_string_equal(a->names[a->start.nunits - 1][0] ? "ok" : "", "ok");
    sv_ctx_free(a);
    sv_ctx_free(b);
}

static void refused(const char *text, int line, int col, const char *msg) {
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    int rc = load(text, &c, &d);
    if (rc == 0 || d.line != line || d.col != col || !strstr(d.msg, msg))
        fprintf(stderr, "rc %d at %d:%d: %s\n", rc, d.line, d.col, d.msg);
    assert_true(rc < 0);
    assert_null(c);
    assert_int_equal(d.line, line);
    assert_int_equal(d.col, col);
    assert_non_null(strstr(d.msg, msg));
}

static void generate_errors(void **st) {
    (void)st;
    refused(GEN_HEAD "splendid:\n  generate: {throws: 3}\n", 7, 14, "needs a seed");
    refused(GEN_HEAD "splendid:\n  generate: {seed: 1, throws: 9}\n", 7, 31,
            "throws must be between 1 and 6");
    refused(GEN_HEAD "splendid:\n  generate: {seed: -4}\n", 7, 20,
            "seed must be between 0 and 2147483647");
    refused(GEN_HEAD "splendid:\n  generate: {seed: 1, armies: 2}\n", 7, 23,
            "unknown key 'armies'");
    refused(GEN_HEAD "generals:\n  - {name: Old Noll, side: Red, position: [30, 2]}\n"
                     "splendid:\n  generate: {seed: 1}\n",
            9, 14, "Commander already");
    /* a table too narrow for the line */
    refused("name: G\ntable: {width: 12, depth: 48}\nsides:\n  - {name: Red, edge: bottom}\n"
            "  - {name: Blue, edge: top}\nsplendid:\n  generate: {seed: 1, throws: 6}\n",
            7, 14, "does not fit");
}

/* "builtin:NAME" names a built-in scenario only, never a file of that name. */
static void builtin_prefix_opens_no_file(void **st) {
    (void)st;
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    assert_int_equal(sv_ctx_load("builtin:/etc/passwd", &c, &d), OPFOR_ENOENT);
    assert_null(c);
    assert_non_null(strstr(d.msg, "no such built-in scenario"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtins_listed),
        cmocka_unit_test(generated_armies),
        cmocka_unit_test(another_seed),
        cmocka_unit_test(generate_errors),
        cmocka_unit_test(builtin_prefix_opens_no_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
