/* tests/rulesets/test_splendid_engine_scenario.c — A Splendid Victory!'s scenarios and state:
 * the state copies with one memcpy in at most 16 KiB; the built-in encounter loads (every unit
 * placed by the centre of its front edge, its kind, formation, files and pikes, generals as
 * a Commander); a scenario's mistakes are refused at their line and column (an unknown kind,
 * a unit's size, a unit without its entry, a formation it cannot take, a bent formation,
 * overlapping units, the army restrictions).
 */
#include "test_splendid_engine_helper.h"

#include "opfor/ruleset.h"

static void state_size(void **st) {
    (void)st;
    const opfor_ruleset_t *rs = opfor_ruleset_find("splendid");
    assert_non_null(rs);
    assert_true(rs->state_size <= 16384);
    assert_int_equal(rs->state_size, sizeof(sv_state_t));
}

static void builtin_encounter(void **st) {
    (void)st;
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    assert_int_equal(sv_ctx_load(NULL, &c, &d), 0);
    const sv_state_t *s = &c->start;
    assert_int_equal(s->nunits, 10);
    assert_int_equal(s->stands0[0], 16);
    assert_int_equal(s->stands0[1], 16);
    assert_int_equal(c->turn_limit, 8);
    int found = 0;
    for (int i = 0; i < s->nunits; i++) {
        const sv_unit_t *u = &s->u[i];
        if (strcmp(c->names[i], "Hammond's Foot") == 0) {
            found |= 1;
            assert_int_equal(u->kind, SV_PM);
            assert_int_equal(u->form, SV_BLOCK);
            assert_int_equal(u->files, 3);
            assert_int_equal(u->n, 6);
            assert_int_equal(u->a, 2);
            assert_true(fabsf(u->x - 20.0f) < 1e-3f && fabsf(u->y - 12.0f) < 1e-3f);
            assert_true(fabsf(u->fy - 1.0f) < 1e-3f); /* facing away from its edge */
        }
        if (strcmp(c->names[i], "Prince Rupert") == 0) {
            found |= 2;
            assert_int_equal(u->kind, SV_COMMANDER);
            assert_int_equal(u->side, 1);
            assert_int_equal(u->cmd10, 60);
        }
        if (strcmp(c->names[i], "Okey's Dragoons") == 0) {
            found |= 4;
            assert_true(u->flags & SV_F_DISMOUNTED);
            assert_int_equal(u->form, SV_OPEN);
        }
        if (strcmp(c->names[i], "Saker") == 0) {
            found |= 8;
            assert_int_equal(u->form, SV_UNLIMBERED);
        }
    }
    assert_int_equal(found, 15);
    /* one memcpy makes an equal game */
    sv_state_t a, b;
    assert_int_equal(sv_engine_init(c, &a, 7), 0);
    memcpy(&b, &a, sizeof a);
    assert_int_equal(memcmp(&a, &b, sizeof a), 0);
    sv_ctx_free(c);
}

#define HEAD                                                                                       \
    "name: T\n"                                                                                    \
    "sides:\n"                                                                                     \
    "  - {name: Red, edge: bottom}\n"                                                              \
    "  - {name: Blue, edge: top}\n"                                                                \
    "units:\n"                                                                                     \
    "  - {name: A, side: Red, type: infantry, position: [20, 10], figures: [{count: 6}]}\n"        \
    "  - {name: B, side: Blue, type: cavalry, position: [20, 30], figures: [{count: 4}]}\n"

/* Loads text and expects failure at line:column with msg in the message. */
static void refused(const char *text, int line, int col, const char *msg) {
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = sv_ctx_load_text(text, strlen(text), "t.yaml", &c, &d);
    if (rc == 0 || d.line != line || d.col != col || !strstr(d.msg, msg))
        fprintf(stderr, "rc %d at %d:%d: %s\n", rc, d.line, d.col, d.msg);
    assert_true(rc < 0);
    assert_null(c);
    assert_int_equal(d.line, line);
    assert_int_equal(d.col, col);
    assert_non_null(strstr(d.msg, msg));
}

static void errors_with_line_and_column(void **st) {
    (void)st;
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    const char *good =
        HEAD "splendid:\n  units:\n    A: {kind: pike_and_musket, pikes: 2, formation: "
             "block}\n    B: {kind: mounted}\n";
    assert_int_equal(sv_ctx_load_text(good, strlen(good), "t.yaml", &c, &d), 0);
    assert_int_equal(c->start.u[0].files, 3); /* two ranks by default */
    assert_int_equal(c->turn_limit, SV_DEFAULT_TURNS);
    sv_ctx_free(c);
    refused(HEAD "splendid:\n  units:\n    A: {kind: pikemen}\n    B: {kind: mounted}\n", 10, 15,
            "kind");
    refused(HEAD "splendid:\n  units:\n    A: {kind: heavy_mounted}\n    B: {kind: mounted}\n", 10,
            9, "2 to 4 stands");
    refused(HEAD "splendid:\n  units:\n    A: {kind: pike_and_musket}\n", 7, 6, "needs an entry");
    refused(HEAD "splendid:\n  units:\n    A: {kind: pike_and_musket, formation: open_order}\n"
                 "    B: {kind: mounted}\n",
            10, 9, "cannot be in open_order");
    refused(HEAD "splendid:\n  units:\n    A: {kind: pike_and_musket, formation: bent_line}\n"
                 "    B: {kind: mounted}\n",
            10, 43, "bent formations");
    refused(HEAD
            "  - {name: C, side: Red, type: infantry, position: [23.5, 9], figures: [{count: 2}]}\n"
            "splendid:\n  units:\n    A: {kind: pike_and_musket}\n    B: {kind: mounted}\n"
            "    C: {kind: foot}\n",
            8, 53, "overlap");
    refused(HEAD
            "  - {name: C, side: Red, type: infantry, position: [40, 10], figures: [{count: 2}]}\n"
            "splendid:\n  units:\n    A: {kind: foot}\n    B: {kind: mounted}\n"
            "    C: {kind: foot}\n",
            10, 3, "outnumber");
    refused(HEAD "splendid:\n  units:\n    A: {kind: pike_and_musket}\n    Z: {kind: mounted}\n",
            11, 5, "no unit or general called 'Z'");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(state_size),
        cmocka_unit_test(builtin_encounter),
        cmocka_unit_test(errors_with_line_and_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
