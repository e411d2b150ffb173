/* tests/rulesets/test_table_report.c — a table report's changes to the figures
 * (opfor/viktoria/table_report.h): a unit moved to a new centre and kept on the table, and
 * casualties taken in order (the wounded rank and file die first, leaders last; wounds go to
 * the rank and file before the leaders), and ground a unit may not stand on found.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "opfor/viktoria/scenario.h"
#include "opfor/viktoria/table_report.h"

/* Unit 0 of five figures in a row at y 10 (x 10 to 14), figure 0 its leader; figure 5 belongs
 * to another unit. */
typedef struct fx {
    opfor_unit_t un;
    opfor_figure_t figs[6];
    opfor_table_t table;
} fx_t;

static void fx_init(fx_t *x) {
    memset(x, 0, sizeof *x);
    x->un.first = 0;
    x->un.count = 5;
    x->un.strength = 5;
    for (int i = 0; i < 6; i++) {
        x->figs[i].pos.x = 10.0f + (float)i;
        x->figs[i].pos.y = 10.0f;
        x->figs[i].flags = OPFOR_FIG_ALIVE;
        x->figs[i].unit = i < 5 ? 0 : 1;
    }
    x->figs[0].skills = OPFOR_S_LEADER;
    x->table.width = 48.0f;
    x->table.depth = 24.0f;
}

/* A fresh unit with figure hurt already wounded (-1: none) takes killed and wounded. */
static void fx_hit(fx_t *x, int hurt, int killed, int wounded) {
    fx_init(x);
    if (hurt >= 0)
        x->figs[hurt].flags |= OPFOR_FIG_WOUNDED;
    opfor_vk_table_casualties(&x->un, x->figs, killed, wounded);
}

static int alive(const fx_t *x, int i) {
    return (x->figs[i].flags & OPFOR_FIG_ALIVE) != 0;
}

static int wounded(const fx_t *x, int i) {
    return (x->figs[i].flags & OPFOR_FIG_WOUNDED) != 0;
}

static void move_keeps_the_formation(void **state) {
    (void)state;
    fx_t x;
    fx_init(&x);
    opfor_vk_table_move(&x.un, x.figs, &x.table, (opfor_pt_t){30.0f, 5.0f});
    for (int i = 0; i < 5; i++) {
        assert_float_equal(x.figs[i].pos.x, 28.0f + (float)i, 1e-5);
        assert_float_equal(x.figs[i].pos.y, 5.0f, 1e-5);
    }
    assert_float_equal(x.figs[5].pos.x, 15.0f, 1e-5); /* the other unit stays */
}

static void move_counts_only_the_living(void **state) {
    (void)state;
    fx_t x;
    fx_init(&x);
    x.figs[3].flags = 0;
    x.figs[4].flags = 0; /* living centre: x 11 */
    opfor_vk_table_move(&x.un, x.figs, &x.table, (opfor_pt_t){21.0f, 10.0f});
    assert_float_equal(x.figs[0].pos.x, 20.0f, 1e-5);
    assert_float_equal(x.figs[4].pos.x, 24.0f, 1e-5); /* the dead move with the unit */
}

static void move_clamps_to_the_table(void **state) {
    (void)state;
    fx_t x;
    fx_init(&x);
    opfor_vk_table_move(&x.un, x.figs, &x.table, (opfor_pt_t){47.0f, 30.0f});
    assert_float_equal(x.figs[0].pos.x, 45.0f, 1e-5);
    assert_float_equal(x.figs[1].pos.x, 46.0f, 1e-5);
    assert_float_equal(x.figs[2].pos.x, 47.0f, 1e-5);
    assert_float_equal(x.figs[3].pos.x, 48.0f, 1e-5);
    assert_float_equal(x.figs[4].pos.x, 48.0f, 1e-5);
    for (int i = 0; i < 5; i++)
        assert_float_equal(x.figs[i].pos.y, 24.0f, 1e-5);
    opfor_vk_table_move(&x.un, x.figs, &x.table, (opfor_pt_t){-5.0f, -5.0f});
    for (int i = 0; i < 5; i++) {
        assert_true(x.figs[i].pos.x >= 0.0f);
        assert_float_equal(x.figs[i].pos.y, 0.0f, 1e-5);
    }
}

static void move_of_a_dead_unit_does_nothing(void **state) {
    (void)state;
    fx_t x;
    fx_init(&x);
    for (int i = 0; i < 5; i++)
        x.figs[i].flags = 0;
    opfor_vk_table_move(&x.un, x.figs, &x.table, (opfor_pt_t){30.0f, 5.0f});
    assert_float_equal(x.figs[0].pos.x, 10.0f, 1e-5);
    assert_float_equal(x.figs[0].pos.y, 10.0f, 1e-5);
}

static void kills_take_the_wounded_first_and_the_leader_last(void **state) {
    (void)state;
    fx_t x;
    fx_hit(&x, 1, 2, 0);
    /* the wounded figure 1, then the last of the rank and file */
    assert_false(alive(&x, 1));
    assert_false(alive(&x, 4));
    assert_true(alive(&x, 0) && alive(&x, 2) && alive(&x, 3));
    opfor_vk_table_casualties(&x.un, x.figs, 2, 0);
    assert_false(alive(&x, 3));
    assert_false(alive(&x, 2));
    assert_true(alive(&x, 0)); /* the leader falls last */
    opfor_vk_table_casualties(&x.un, x.figs, 3, 0);
    assert_false(alive(&x, 0));
    assert_true(alive(&x, 5)); /* more kills than figures stop at the unit */
}

static void wounds_go_to_the_unwounded_rank_and_file_first(void **state) {
    (void)state;
    fx_t x;
    fx_hit(&x, 4, 0, 3);
    assert_true(wounded(&x, 3) && wounded(&x, 2) && wounded(&x, 1));
    assert_false(wounded(&x, 0));
    opfor_vk_table_casualties(&x.un, x.figs, 0, 5);
    assert_true(wounded(&x, 0)); /* then the leader */
    for (int i = 0; i < 5; i++)
        assert_true(alive(&x, i));
    assert_false(wounded(&x, 5));
}

static void kills_come_before_wounds(void **state) {
    (void)state;
    fx_t x;
    fx_hit(&x, -1, 1, 1);
    assert_false(alive(&x, 4));
    assert_true(wounded(&x, 3));
    assert_false(wounded(&x, 2));
}

/* Adds an axis-aligned rectangle of kind to the fixture's table; returns its index. */
static int add_rect(fx_t *x, opfor_terrain_kind_t kind, const char *name, float x0, float y0,
                    float x1, float y1) {
    opfor_pt_t p[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    opfor_terrain_feature_t f;
    assert_int_equal(opfor_terrain_feature_init(&f, &opfor_viktoria_terrain_rules, kind,
                                                OPFOR_SHAPE_AREA, name, p, 4, 0),
                     0);
    return opfor_table_add(&x->table, &f);
}

/* The fixture on a 48 x 24 in table with a Mill pond (x 20-30, y 0-6) and a Farmhouse
 * (x 0-8, y 0-6); their feature indices in *pond and *house. */
static void fx_ground(fx_t *x, int *pond, int *house) {
    fx_init(x);
    opfor_table_init(&x->table, 48.0f, 24.0f, OPFOR_EDGE_TOP);
    *pond = add_rect(x, OPFOR_TK_IMPASSABLE, "Mill pond", 20, 0, 30, 6);
    *house = add_rect(x, OPFOR_TK_BUILDING, "Farmhouse", 0, 0, 8, 6);
    assert_true(*pond >= 0 && *house >= 0);
}

static void forbidden_ground_is_named(void **state) {
    (void)state;
    fx_t x;
    int pond, house;
    fx_ground(&x, &pond, &house);
    assert_int_equal(opfor_vk_table_forbidden(&x.un, x.figs, &x.table), -1); /* at y 10 */
    opfor_vk_table_move(&x.un, x.figs, &x.table, (opfor_pt_t){25.0f, 3.0f});
    assert_int_equal(opfor_vk_table_forbidden(&x.un, x.figs, &x.table), pond);
    opfor_vk_table_move(&x.un, x.figs, &x.table, (opfor_pt_t){4.0f, 3.0f});
    assert_int_equal(opfor_vk_table_forbidden(&x.un, x.figs, &x.table), -1); /* on foot */
    x.figs[2].flags |= OPFOR_FIG_MOUNTED;
    assert_int_equal(opfor_vk_table_forbidden(&x.un, x.figs, &x.table), house);
    x.figs[2].flags &= (uint16_t)~OPFOR_FIG_ALIVE; /* the dead stand anywhere */
    assert_int_equal(opfor_vk_table_forbidden(&x.un, x.figs, &x.table), -1);
}

/* A report is checked as the engine moves: a figure a hair inside the edge (a measured,
 * rounded report of where the engine stopped it) is outside, and a limbered gun's crew walk
 * where men on foot may; placing a spotted unit keeps the strict test. */
static void report_check_is_the_engines(void **state) {
    (void)state;
    fx_t x;
    int pond, house;
    fx_ground(&x, &pond, &house);
    /* the figures' line (x 10..14) moved so its east end is 0.02 in inside the pond */
    opfor_vk_table_move(&x.un, x.figs, &x.table, (opfor_pt_t){18.02f, 5.0f});
    assert_int_equal(opfor_vk_table_forbidden(&x.un, x.figs, &x.table), pond);
    assert_int_equal(
        opfor_vk_table_forbidden_within(&x.un, x.figs, &x.table, OPFOR_VK_TABLE_EDGE_TOL), -1);
    /* 0.2 in inside: in the pond either way */
    opfor_vk_table_move(&x.un, x.figs, &x.table, (opfor_pt_t){18.2f, 5.0f});
    assert_int_equal(
        opfor_vk_table_forbidden_within(&x.un, x.figs, &x.table, OPFOR_VK_TABLE_EDGE_TOL), pond);
    /* a limbered gun: its crew (figures 0..3) in the farmhouse, the gun (4) outside */
    opfor_vk_table_move(&x.un, x.figs, &x.table, (opfor_pt_t){6.0f, 3.0f});
    x.figs[4].pos = (opfor_pt_t){9.0f, 3.0f};
    x.figs[4].flags |= OPFOR_FIG_EQUIPMENT;
    x.un.flags |= OPFOR_UNIT_LIMBERED;
    assert_int_equal(opfor_vk_table_forbidden(&x.un, x.figs, &x.table), house);
    assert_int_equal(
        opfor_vk_table_forbidden_within(&x.un, x.figs, &x.table, OPFOR_VK_TABLE_EDGE_TOL), -1);
    x.figs[4].pos = (opfor_pt_t){7.0f, 3.0f}; /* the gun itself may not go in */
    assert_int_equal(
        opfor_vk_table_forbidden_within(&x.un, x.figs, &x.table, OPFOR_VK_TABLE_EDGE_TOL), house);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(move_keeps_the_formation),
        cmocka_unit_test(report_check_is_the_engines),
        cmocka_unit_test(move_counts_only_the_living),
        cmocka_unit_test(move_clamps_to_the_table),
        cmocka_unit_test(move_of_a_dead_unit_does_nothing),
        cmocka_unit_test(kills_take_the_wounded_first_and_the_leader_last),
        cmocka_unit_test(wounds_go_to_the_unwounded_rank_and_file_first),
        cmocka_unit_test(kills_come_before_wounds),
        cmocka_unit_test(forbidden_ground_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
