/* tests/rulesets/test_splendid_engine_edge.c — A Splendid Victory!'s table edge (§The Movement
 * Phase; R-31): a manoeuvre may take stands off the table; every stand off it, even partly, is
 * removed, counted in the tally as routed, and the rest of the unit carries on just inside the
 * edge; a unit wholly off is gone. The list offers such moves and a move reported at the table
 * is accepted the same way.
 */
#include "test_splendid_engine_helper.h"

#include "opfor/form.h"
#include "opfor/ruleset.h"
#include "opfor/session.h"

static opfor_action_t move_act(int unit, float x, float y, float fx, float fy, int sub) {
    opfor_action_t a;
    memset(&a, 0, sizeof a);
    a.kind = SV_A_MOVE;
    a.unit = (uint8_t)unit;
    a.target = OPFOR_ACTION_NONE;
    a.sub = (uint8_t)sub;
    a.x = x;
    a.y = y;
    a.x2 = fx;
    a.y2 = fy;
    return a;
}

/* A line of four 2" from the far edge marches 3" on: every stand is off, the unit is gone. */
static void a_unit_marching_off(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int p = fx_unit(c, SV_PM, 0, SV_LINE, 4, 0, 0, 24, 34, 0, 1);
    fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 10, 4, 0, 1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t a = move_act(p, 24, 37, 0, 1, 0);
    assert_true(sv_move_check(c, &s, &a));
    assert_int_equal(sv_engine_apply(c, &s, &a), 0);
    assert_false(sv_alive(&s.u[p]));
    assert_int_equal(s.u[p].n, 0);
    assert_int_equal(s.tally[0], 4);
    assert_int_equal(s.tally[1], 0);
    free(c);
}

/* A block of two ranks of two: 3" on, the front rank is off (2 lost), the rear rank stays, its
 * front on the edge. */
static void a_front_rank_off(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int p = fx_unit(c, SV_FOOT, 0, SV_BLOCK, 4, 2, 2, 24, 34, 0, 1);
    fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 10, 4, 0, 1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t a = move_act(p, 24, 37, 0, 1, 0);
    assert_int_equal(sv_engine_apply(c, &s, &a), 0);
    assert_true(sv_alive(&s.u[p]));
    assert_int_equal(s.u[p].n, 2);
    assert_int_equal(s.tally[0], 2);
    assert_true(fabsf(s.u[p].y - 36.0f) < 1e-3f);
    opfor_pt_t r[4];
    sv_rect(c, &s.u[p], r);
    assert_true(sv_on_table(c, r));
    free(c);
}

/* A line of four side-steps 2" right over the right edge: its end stand is lost; the three
 * left stand inside the edge, facing as before. */
static void an_end_stand_off(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int p = fx_unit(c, SV_PM, 0, SV_LINE, 4, 0, 0, 44, 20, 0, 1);
    fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 10, 4, 0, 1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t a = move_act(p, 46, 20, 0, 1, 3);
    assert_true(sv_move_check(c, &s, &a));
    assert_int_equal(sv_engine_apply(c, &s, &a), 0);
    assert_int_equal(s.u[p].n, 3);
    assert_int_equal(s.u[p].files, 3);
    assert_int_equal(s.tally[0], 1);
    assert_true(fabsf(s.u[p].fy - 1.0f) < 1e-4f);
    opfor_pt_t r[4];
    sv_rect(c, &s.u[p], r);
    assert_true(sv_on_table(c, r));
    assert_true(fabsf(s.u[p].x + 1.5f * STAND - 48.0f) < 1e-3f);
    free(c);
}

/* The list offers the full move ahead though it leaves the table. */
static void offered(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    int p = fx_unit(c, SV_PM, 0, SV_LINE, 4, 0, 0, 24, 34, 0, 1);
    fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 10, 4, 0, 1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS), off = 0;
    for (int i = 0; i < n; i++)
        off |= acts[i].kind == SV_A_MOVE && acts[i].unit == p && acts[i].y > 37.9f;
    assert_true(off);
    free(c);
}

/* At the table: a move reported off the edge is accepted and the stands go to the tally. */
static void reported_at_the_table(void **st) {
    (void)st;
    sv_ctx_t *c = fx_ctx();
    fx_unit(c, SV_PM, 0, SV_LINE, 4, 0, 0, 24, 34, 0, 1);
    fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 10, 4, 0, 1);
    snprintf(c->names[0], sizeof c->names[0], "Hammond");
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    const opfor_ruleset_t *rs = opfor_ruleset_find("splendid");
    assert_non_null(rs);
    assert_non_null(rs->session);
    const opfor_form_t *f = opfor_form_find(rs->session->reports, rs->session->nreports, "move");
    assert_non_null(f);
    opfor_value_t vals[8];
    memset(vals, 0, sizeof vals);
    char msg[200];
    int ku = opfor_form_field(f, "unit"), kt = opfor_form_field(f, "to");
    assert_true(ku >= 0 && kt >= 0);
    assert_int_equal(opfor_field_parse(&f->fields[ku], "Hammond", &vals[ku], msg, sizeof msg), 0);
    assert_int_equal(opfor_field_parse(&f->fields[kt], "24,37", &vals[kt], msg, sizeof msg), 0);
    opfor_session_result_t out;
    memset(&out, 0, sizeof out);
    assert_int_equal(rs->session->report(c, &s, 0, f, vals, &out), 0);
    assert_int_equal(s.tally[0], 4);
    assert_false(sv_alive(&s.u[0]));
    free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_unit_marching_off),   cmocka_unit_test(a_front_rank_off),
        cmocka_unit_test(an_end_stand_off),      cmocka_unit_test(offered),
        cmocka_unit_test(reported_at_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
