/* tests/rulesets/test_session_plan.c — the planner from a table session
 * (rulesets/viktoria/session_plan.c): the position from the table, what comes next, the
 * command test a general spares (VII) or the engine rolls, the command words.
 */
#include "opfor/viktoria/session_plan.h"
#include "test_patrol_fixture.h"

typedef struct plan_fx {
    pfx_t *x;
    opfor_vk_rs_ctx_t *ctx;
    opfor_vk_rs_state_t *st;
    opfor_table_view_t tb;
} plan_fx_t;

static void fx_open(plan_fx_t *f) {
    memset(f, 0, sizeof *f);
    f->x = pfx_builtin();
    opfor_diag_t d;
    assert_int_equal(opfor_vk_rs_ctx_load(&f->ctx, "patrol_default", &d), 0);
    f->st = calloc(2, sizeof *f->st);
    assert_non_null(f->st);
    opfor_table_view_t tb = {f->x->units,   f->x->fo.nunits, f->x->figures, f->x->fo.nfigures,
                             f->x->ps.turn, &f->x->ps,       NULL};
    f->tb = tb;
}

static void fx_close(plan_fx_t *f) {
    opfor_vk_rs_ctx_free(f->ctx);
    free(f->st);
    pfx_free(f->x);
}

static int find(const pfx_t *x, const char *name) {
    for (int u = 0; u < x->fo.nunits; u++)
        if (strcmp(x->units[u].name, name) == 0)
            return u;
    fail_msg("no unit %s", name);
    return -1;
}

/* The opening position: each side with a ready unit decides first; the table's arrays are
 * the position's. */
static void session_plan_begin_gives_the_side_its_decision(void **state) {
    (void)state;
    plan_fx_t f;
    fx_open(&f);
    for (int side = 0; side < 2; side++) {
        assert_int_equal(opfor_table_plan_begin(f.ctx, f.st, &f.tb, side, 42), 0);
        assert_int_equal(f.st->vk.nunits, f.x->fo.nunits);
        assert_memory_equal(f.st->vk.units, f.x->units, sizeof *f.x->units * f.x->fo.nunits);
        assert_int_equal(f.st->vk.phase, OPFOR_VK_PH_SELECT_UNIT);
        assert_int_equal(opfor_table_plan_next(f.ctx, f.st, side), OPFOR_TABLE_PLAN_DECIDE);
        assert_int_equal(opfor_table_plan_next(f.ctx, f.st, 1 - side), OPFOR_TABLE_PLAN_ANSWER);
    }
    assert_int_equal(opfor_table_plan_begin(f.ctx, f.st, NULL, 0, 42), OPFOR_EINVAL);
    fx_close(&f);
}

/* A general or headquarters within the radius (less an inch of base) commands a unit; the
 * headquarters commands itself. */
static void session_plan_in_command_by_distance(void **state) {
    (void)state;
    plan_fx_t f;
    fx_open(&f);
    int hq = find(f.x, "Major Harcourt"), sec = find(f.x, "1st Section");
    float d =
        opfor_dist(f.x->figures[f.x->units[hq].first].pos, f.x->figures[f.x->units[sec].first].pos);
    assert_true(d > 3.0f);
    assert_true(opfor_table_plan_in_command(&f.tb, hq, 0.0f));
    assert_false(opfor_table_plan_in_command(&f.tb, sec, 1.0f));
    /* some figure of the section stands nearer than its first one: within d, in command */
    assert_true(opfor_table_plan_in_command(&f.tb, sec, d));
    /* a headquarters off the table commands no one */
    f.x->units[hq].flags |= OPFOR_UNIT_OFF_TABLE;
    assert_false(opfor_table_plan_in_command(&f.tb, sec, 1000.0f));
    fx_close(&f);
}

/* At the command test: a general near spares it (no dice drawn, full orders); with no spare
 * the engine rolls. Both leave the unit at its action. */
static void session_plan_command_spared_or_rolled(void **state) {
    (void)state;
    plan_fx_t f;
    fx_open(&f);
    const opfor_vk_ctx_t *vk = opfor_vk_rs_engine(f.ctx);
    int tested = 0;
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    for (int k = 0; k < 2 * OPFOR_VK_MAX_ACTIONS; k++) {
        int player = k / OPFOR_VK_MAX_ACTIONS, i = k % OPFOR_VK_MAX_ACTIONS;
        assert_int_equal(opfor_table_plan_begin(f.ctx, f.st, &f.tb, player, 42), 0);
        int n = opfor_vk_legal(vk, &f.st->vk, acts, OPFOR_VK_MAX_ACTIONS);
        if (i >= n)
            continue;
        if (acts[i].kind != OPFOR_VK_SELECT_UNIT)
            continue;
        int u = acts[i].unit;
        opfor_vk_rs_state_t *s = &f.st[1];
        memcpy(s, &f.st[0], sizeof *s);
        opfor_action_t a = opfor_vk_rs_action_from_engine(&acts[i]);
        assert_int_equal(opfor_table_plan_apply(f.ctx, s, &a, NULL), 0);
        if (opfor_table_plan_next(f.ctx, s, player) != OPFOR_TABLE_PLAN_COMMAND)
            continue;
        tested++;
        /* the headquarters on the unit's side: it is in command within 1000 inches */
        static opfor_unit_t units[OPFOR_MAX_UNITS];
        memcpy(units, f.x->units, sizeof units);
        units[find(f.x, "Major Harcourt")].side = units[u].side;
        opfor_table_view_t tb = f.tb;
        tb.units = units;
        opfor_vk_rs_state_t spared = *s;
        assert_int_equal(opfor_table_plan_command(vk, &spared.vk, &f.tb, u, 1.0f, NULL) !=
                             OPFOR_TABLE_CMD_IN_COMMAND,
                         1); /* too far at 1 inch: rolled */
        spared = *s;
        assert_int_equal(opfor_table_plan_command(vk, &spared.vk, &tb, u, 1000.0f, NULL),
                         OPFOR_TABLE_CMD_IN_COMMAND);
        assert_int_equal(spared.vk.phase, OPFOR_VK_PH_ACTION);
        assert_int_equal(spared.vk.restricted, 0);
        assert_memory_equal(&spared.vk.rng, &s->vk.rng, sizeof s->vk.rng);
        int c = opfor_table_plan_command(vk, &s->vk, NULL, u, -1.0f, NULL);
        assert_true(c == OPFOR_TABLE_CMD_PASSED || c == OPFOR_TABLE_CMD_FAILED);
        assert_int_equal(c == OPFOR_TABLE_CMD_FAILED, s->vk.restricted != 0);
        assert_int_not_equal(s->vk.phase, OPFOR_VK_PH_COMMAND);
    }
    assert_true(tested > 0); /* some unit had a command test to take */
    fx_close(&f);
}

static void session_plan_command_words(void **state) {
    (void)state;
    assert_string_equal(opfor_table_plan_command_text(OPFOR_TABLE_CMD_IN_COMMAND), "in command");
    assert_string_equal(opfor_table_plan_command_text(OPFOR_TABLE_CMD_PASSED), "passed");
    /* a failed test says what the unit may still do (VII), as the local game words it */
    assert_string_equal(opfor_table_plan_command_text(OPFOR_TABLE_CMD_FAILED),
                        "failed (take cover, fire, stand or load only)");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(session_plan_begin_gives_the_side_its_decision),
        cmocka_unit_test(session_plan_in_command_by_distance),
        cmocka_unit_test(session_plan_command_spared_or_rolled),
        cmocka_unit_test(session_plan_command_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
