/* tests/rulesets/test_splendid_engine_terrain.c — A Splendid Victory!'s terrain costs and
 * modifiers from small positions (docs/splendid.md 5, model.yaml `terrain:`): fire at a unit in
 * woods or behind a hedge loses a die (and the calculator's `--terrain` says the same), a game
 * master's model changes it; the bounce-through's only modifier is its target's terrain; a foot
 * stand fighting from a town gains a CV (mounted stands do not); woods cost two inches an inch
 * and the list offers the move the allowance buys; a road only speeds road columns.
 */
#include "test_splendid_engine_helper.h"
#include "test_splendid_helper.h"

/* An area feature of kind over the box x0..x1, y0..y1 (sight clear: fire passes over it). */
static void fx_area(sv_ctx_t *c, int kind, float x0, float y0, float x1, float y1) {
    opfor_pt_t p[4] = {opfor_pt(x0, y0), opfor_pt(x1, y0), opfor_pt(x1, y1), opfor_pt(x0, y1)};
    opfor_terrain_feature_t f;
    assert_int_equal(opfor_terrain_feature_init(&f, NULL, (opfor_terrain_kind_t)kind,
                                                OPFOR_SHAPE_AREA, "area", p, 4, 0.0f),
                     0);
    assert_true(opfor_table_add(&c->table, &f) >= 0);
}

/* A line feature of kind from (x0, y0) to (x1, y1), width w. */
static void fx_line(sv_ctx_t *c, int kind, float x0, float y0, float x1, float y1, float w) {
    opfor_pt_t p[2] = {opfor_pt(x0, y0), opfor_pt(x1, y1)};
    opfor_terrain_feature_t f;
    assert_int_equal(opfor_terrain_feature_init(&f, NULL, (opfor_terrain_kind_t)kind,
                                                OPFOR_SHAPE_LINE, "line", p, 2, w),
                     0);
    assert_true(opfor_table_add(&c->table, &f) >= 0);
}

static sv_ctx_t *table_ctx(void) {
    sv_ctx_t *c = fx_ctx();
    opfor_table_init(&c->table, c->width, c->depth, OPFOR_EDGE_TOP);
    return c;
}

/* Three musket stands in line 5" from a line of three: 3 dice in the open. */
static void fire_at_units_in_cover(void **st) {
    (void)st;
    sv_ctx_t *c = table_ctx();
    int f = fx_unit(c, SV_PM, 0, SV_LINE, 3, 0, 0, 24, 10, 0, 1);
    int t = fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 24, 15, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_FIRE, 0, 1);
    assert_int_equal(sv_fire_dice(c, &s, f, t), 3);
    /* the target in woods: -1 die */
    fx_area(c, OPFOR_TK_WOODS, 20, 14.5f, 28, 18);
    assert_int_equal(sv_fire_dice(c, &s, f, t), 2);
    /* a game master's woods: -3, no dice left, no fire */
    c->model.terrain[SV_T_WOODS].fire_dice = -3;
    assert_int_equal(sv_fire_dice(c, &s, f, t), 0);
    /* lining a hedge (enclosures): -1 */
    sv_ctx_t *c2 = table_ctx();
    f = fx_unit(c2, SV_PM, 0, SV_LINE, 3, 0, 0, 24, 10, 0, 1);
    t = fx_unit(c2, SV_PM, 1, SV_LINE, 3, 0, 0, 24, 15, 0, -1);
    fx_line(c2, OPFOR_TK_HEDGE, 18, 14.9f, 30, 14.9f, 0.5f);
    fx_state(c2, &s, SV_P_FIRE, 0, 1);
    assert_int_equal(sv_fire_dice(c2, &s, f, t), 2);
    /* the calculator agrees: 3 stands at a line in woods, at a line behind enclosures */
    opfor_calc_answer_t a;
    assert_int_equal(
        sv_ask(&a, "fire", NULL, "stands", "3", "target", "line", "terrain", "woods", NULL), 0);
    assert_int_equal(a.ndice, 2);
    assert_int_equal(
        sv_ask(&a, "fire", NULL, "stands", "3", "target", "line", "terrain", "enclosures", NULL),
        0);
    assert_int_equal(a.ndice, 2);
    assert_int_equal(sv_ask(&a, "fire", NULL, "stands", "3", "target", "line", NULL), 0);
    assert_int_equal(a.ndice, 3);
    /* a regular gun at 15" (1 die) at a line in a town: no dice, not allowed (R-12) */
    assert_int_equal(sv_ask(&a, "artillery", NULL, "gun", "regular", "range", "15", "target",
                            "line", "terrain", "town", NULL),
                     0);
    assert_false(a.allowed);
    free(c);
    free(c2);
}

/* A heavy gun at 15" throws 2 dice at a line; its misses bounce on to a line 30" off. With the
 * bounce target in woods a game master made worth -2, the misses (at most 2) leave no die. */
static int bounce_markers(sv_ctx_t *c, int g, int t, int b) {
    int total = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        sv_state_t s;
        fx_state(c, &s, SV_P_FIRE, 0, seed);
        s.u[g].target = (uint8_t)t;
        sv_resolve_fire(c, &s);
        total += s.u[b].markers;
    }
    return total;
}

static void bounce_through_terrain(void **st) {
    (void)st;
    sv_ctx_t *c = table_ctx();
    int g = fx_unit(c, SV_HEAVYGUN, 0, SV_UNLIMBERED, 1, 0, 0, 24, 4, 0, 1);
    int t = fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 24, 19, 0, -1);
    int b = fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 24, 34 - STAND, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_FIRE, 0, 1);
    assert_int_equal(sv_fire_dice(c, &s, g, t), 2);
    int open = bounce_markers(c, g, t, b);
    assert_true(open > 0);
    fx_area(c, OPFOR_TK_WOODS, 18, 34 - STAND - 0.5f, 30, 35.9f);
    c->model.terrain[SV_T_WOODS].fire_dice = -2;
    assert_int_equal(bounce_markers(c, g, t, b), 0);
    /* the calculator: 2 dice, the bounce target in such woods: never a bounce hit */
    void *model = NULL;
    assert_int_equal(
        opfor__sv_model_load_text("terrain: {woods: {fire_dice: -2}}\n", "edit", &model, NULL), 0);
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask_model(model, &a, "artillery", NULL, "gun", "heavy", "range", "15",
                                  "target", "line", "bounce", NULL, "bounce-terrain", "woods",
                                  NULL),
                     0);
    assert_true(a.allowed);
    assert_float_equal(sv_fact(&a, "bounce_expected"), 0.0, 1e-12);
    assert_int_equal(sv_ask_model(model, &a, "artillery", NULL, "gun", "heavy", "range", "15",
                                  "target", "line", "bounce", NULL, NULL),
                     0);
    /* in the open: 2 dice, each a miss (4/6) then a hit (2/6) */
    assert_float_equal(sv_fact(&a, "bounce_expected"), 2.0 * 4.0 / 6.0 * 2.0 / 6.0, 1e-9);
    opfor__sv_model_free(model);
    free(c);
}

/* A pike stand fights at 4; from a town 5. Mounted stands gain nothing from terrain. */
static void combat_value_from_terrain(void **st) {
    (void)st;
    sv_ctx_t *c = table_ctx();
    int p = fx_unit(c, SV_PM, 0, SV_BLOCK, 4, 2, 2, 24, 10, 0, 1);
    int e = fx_unit(c, SV_FOOT, 1, SV_LINE, 2, 2, 0, 24, 10.01f, 0, -1);
    int m = fx_unit(c, SV_MOUNTED, 0, SV_LINE, 2, 0, 0, 10, 20, 0, 1);
    assert_int_equal(sv_cv(c, &c->start.u[p], 1, &c->start.u[e]), 4);
    assert_int_equal(sv_cv(c, &c->start.u[m], 1, &c->start.u[e]), 4);
    fx_area(c, OPFOR_TK_BUILDING, 20, 5, 28, 9);
    fx_line(c, OPFOR_TK_HEDGE, 8, 19, 12, 19, 0.5f);
    assert_int_equal(sv_cv(c, &c->start.u[p], 1, &c->start.u[e]), 5);
    assert_int_equal(sv_cv(c, &c->start.u[p], 0, &c->start.u[e]), 3);
    assert_int_equal(sv_cv(c, &c->start.u[m], 1, &c->start.u[e]), 4);
    /* the calculator's pikes from a town, and mounted stands anywhere */
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "pikes", "terrain", "town", NULL), 0);
    assert_int_equal((int)sv_fact(&a, "cv"), 5);
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "mounted", "terrain", "town", NULL), 0);
    assert_int_equal((int)sv_fact(&a, "cv"), 4);
    free(c);
}

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

/* Pike and Musket moves 4"; a wood 1" ahead costs 2" an inch: 1 + 1.5 x 2 = 4 gets 2.5". */
static void woods_slow_a_move(void **st) {
    (void)st;
    sv_ctx_t *c = table_ctx();
    int p = fx_unit(c, SV_PM, 0, SV_LINE, 3, 0, 0, 24, 10, 0, 1);
    fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 24, 34, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t four = move_act(p, 24, 14, 0, 1, 0);
    assert_true(sv_move_check(c, &s, &four));
    fx_area(c, OPFOR_TK_WOODS, 10, 11, 38, 20);
    assert_false(sv_move_check(c, &s, &four));
    opfor_action_t most = move_act(p, 24, 12.5f, 0, 1, 0);
    assert_true(sv_move_check(c, &s, &most));
    opfor_action_t over = move_act(p, 24, 12.6f, 0, 1, 0);
    assert_false(sv_move_check(c, &s, &over));
    /* the list's full move ahead is the one the allowance buys */
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS), ahead = 0;
    for (int i = 0; i < n; i++)
        if (acts[i].kind == SV_A_MOVE && acts[i].unit == p && acts[i].sub == 0 &&
            fabsf(acts[i].x - 24.0f) < 1e-3f && acts[i].y > 12.4f)
            ahead = fabsf(acts[i].y - 12.5f) < 0.01f;
    assert_true(ahead);
    free(c);
}

/* A road halves the cost for road columns only: 6" of allowance goes 10" along it. */
static void roads_speed_road_columns(void **st) {
    (void)st;
    sv_ctx_t *c = table_ctx();
    int col = fx_unit(c, SV_PM, 0, SV_COLUMN, 3, 0, 1, 10, 10, 1, 0);
    int line = fx_unit(c, SV_PM, 0, SV_LINE, 3, 0, 0, 10, 20, 1, 0);
    fx_unit(c, SV_PM, 1, SV_LINE, 3, 0, 0, 46, 34, 0, -1);
    fx_line(c, OPFOR_TK_ROAD, 0, 10, 48, 10, 1.0f);
    fx_line(c, OPFOR_TK_ROAD, 0, 20, 48, 20, 1.0f);
    sv_state_t s;
    fx_state(c, &s, SV_P_MOVE, 0, 1);
    opfor_action_t a = move_act(col, 20, 10, 1, 0, 0);
    assert_true(sv_move_check(c, &s, &a));
    a = move_act(col, 23, 10, 1, 0, 0);
    assert_false(sv_move_check(c, &s, &a));
    a = move_act(line, 20, 20, 1, 0, 0);
    assert_false(sv_move_check(c, &s, &a));
    a = move_act(line, 14, 20, 1, 0, 0);
    assert_true(sv_move_check(c, &s, &a));
    free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fire_at_units_in_cover),    cmocka_unit_test(bounce_through_terrain),
        cmocka_unit_test(combat_value_from_terrain), cmocka_unit_test(woods_slow_a_move),
        cmocka_unit_test(roads_speed_road_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
