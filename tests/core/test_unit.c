/* tests/core/test_unit.c — the unit and figure model: sizes, base radii, counts of living
 * and wounded figures, best quality, centre, leader choice, and formation placement.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "test_rules.h"
#include "opfor/unit.h"

#define EPS 1e-5

static opfor_figure_t fig(float x, float y, int q, unsigned skills, unsigned flags) {
    opfor_figure_t f;
    memset(&f, 0, sizeof f);
    f.pos = opfor_pt(x, y);
    f.quality = (uint8_t)q;
    f.skills = (uint16_t)skills;
    f.flags = (uint16_t)(flags);
    return f;
}

/* Figure f stands at (x, y). */
static void at(const opfor_figure_t *f, double x, double y) {
    assert_float_equal(f->pos.x, x, EPS);
    assert_float_equal(f->pos.y, y, EPS);
}

static void unit_sizes_and_copy(void **state) {
    (void)state;
    assert_int_equal(sizeof(opfor_figure_t), 16);
    assert_int_equal(sizeof(opfor_unit_t), 48);
    /* A whole game's figures and units copy as plain bytes. */
    static opfor_figure_t a[OPFOR_MAX_FIGURES], b[OPFOR_MAX_FIGURES];
    for (int i = 0; i < OPFOR_MAX_FIGURES; i++)
        a[i] = fig((float)i, 1, i % 5, 0, OPFOR_FIG_ALIVE);
    memcpy(b, a, sizeof a);
    assert_memory_equal(a, b, sizeof a);
    assert_float_equal(b[200].pos.x, 200.0, 0.0);
}

static void unit_base_radii(void **state) {
    (void)state;
    opfor_figure_t f = fig(0, 0, 0, 0, OPFOR_FIG_ALIVE);
    assert_float_equal(opfor_figure_radius(&test_rules.radii, &f), 0.5, 0.0);
    f.flags |= OPFOR_FIG_MOUNTED;
    assert_float_equal(opfor_figure_radius(&test_rules.radii, &f), 0.8, EPS);
    f.flags |= OPFOR_FIG_EQUIPMENT;
    assert_float_equal(opfor_figure_radius(&test_rules.radii, &f), 1.0, 0.0);
    opfor_circle_t c = opfor_figure_circle(&test_rules.radii, &f);
    assert_float_equal(c.r, 1.0, 0.0);
}

static void unit_counts_quality_centre_leader(void **state) {
    (void)state;
    opfor_figure_t figs[8];
    const unsigned A = OPFOR_FIG_ALIVE, W = OPFOR_FIG_WOUNDED;
    figs[0] = fig(99, 99, OPFOR_Q_ELITE, OPFOR_S_LEADER, A); /* another unit's figure */
    figs[1] = fig(0, 0, OPFOR_Q_SOLDIER, 0, A);
    figs[2] = fig(2, 0, OPFOR_Q_VETERAN, OPFOR_S_LEADER, A | W);
    figs[3] = fig(4, 6, OPFOR_Q_SOLDIER, OPFOR_S_LEADER, A);
    figs[4] = fig(6, 6, OPFOR_Q_ELITE, OPFOR_S_LEADER, W); /* dead (and wounded before) */
    figs[5] = fig(10, 0, OPFOR_Q_CONSCRIPT, OPFOR_S_MEDIC, A | W);
    opfor_unit_t u;
    memset(&u, 0, sizeof u);
    u.first = 1;
    u.count = 5;
    assert_int_equal(opfor_unit_alive(&u, figs), 4);
    assert_int_equal(opfor_unit_wounded(&u, figs), 2);
    assert_int_equal(opfor_unit_best_quality(&u, figs), OPFOR_Q_VETERAN);
    opfor_pt_t c;
    assert_int_equal(opfor_unit_centre(&u, figs, &c), 4);
    assert_float_equal(c.x, 4.0, EPS); /* (0 + 2 + 4 + 10) / 4 */
    assert_float_equal(c.y, 1.5, EPS); /* (0 + 0 + 6 + 0) / 4 */
    /* The wounded veteran outranks the unwounded soldier; the dead elite does not count. */
    assert_int_equal(opfor_unit_leader(&u, figs), 2);
    assert_true(opfor_unit_has_skill(&u, figs, OPFOR_S_MEDIC));
    assert_false(opfor_unit_has_skill(&u, figs, OPFOR_S_MEDIC | OPFOR_S_LEADER));
    /* Same quality: the unwounded one leads. */
    figs[2].quality = OPFOR_Q_SOLDIER;
    assert_int_equal(opfor_unit_leader(&u, figs), 3);
    /* No leaders alive. */
    figs[2].flags = 0;
    figs[3].flags = 0;
    assert_int_equal(opfor_unit_leader(&u, figs), -1);
    /* Everyone dead. */
    for (int i = 1; i <= 5; i++)
        figs[i].flags = 0;
    c = opfor_pt(-1, -1);
    assert_int_equal(opfor_unit_centre(&u, figs, &c), 0);
    assert_true(c.x == -1 && c.y == -1);
    assert_int_equal(opfor_unit_best_quality(&u, figs), -1);
}

static void unit_place_formations(void **state) {
    (void)state;
    opfor_figure_t f[6];
    for (int i = 0; i < 6; i++)
        f[i] = fig(0, 0, 0, 0, OPFOR_FIG_ALIVE);
    /* Line of 3 facing up the table: 1.5 inches apart across it. */
    opfor_unit_place(&test_rules.radii, f, 3, opfor_pt(10, 10), opfor_pt(0, 1),
                     OPFOR_FORMATION_LINE);
    assert_float_equal(f[0].pos.x, 8.5, EPS);
    assert_float_equal(f[1].pos.x, 10.0, EPS);
    at(&f[2], 11.5, 10.0);
    /* Facing right (east on a top-north table): the line runs down the table. */
    opfor_unit_place(&test_rules.radii, f, 3, opfor_pt(10, 10), opfor_pt(5, 0),
                     OPFOR_FORMATION_LINE);
    at(&f[0], 10.0, 11.5);
    assert_float_equal(f[2].pos.y, 8.5, EPS);
    /* Column of 5, two abreast: rows at y 11.5, 10, 8.5; the odd one last and central. */
    opfor_unit_place(&test_rules.radii, f, 5, opfor_pt(10, 10), opfor_pt(0, 1),
                     OPFOR_FORMATION_COLUMN);
    at(&f[0], 9.25, 11.5);
    assert_float_equal(f[1].pos.x, 10.75, EPS);
    assert_float_equal(f[3].pos.y, 10.0, EPS);
    at(&f[4], 10.0, 8.5);
    /* Skirmishers 3 inches apart. */
    opfor_unit_place(&test_rules.radii, f, 2, opfor_pt(10, 10), opfor_pt(0, 1),
                     OPFOR_FORMATION_SKIRMISH);
    assert_float_equal(f[0].pos.x, 8.5, EPS);
    assert_float_equal(f[1].pos.x, 11.5, EPS);
    /* Mounted: bases of radius 0.8 keep half an inch apart: 2.1 between centres. */
    f[0].flags |= OPFOR_FIG_MOUNTED;
    f[1].flags |= OPFOR_FIG_MOUNTED;
    opfor_unit_place(&test_rules.radii, f, 2, opfor_pt(10, 10), opfor_pt(0, 1),
                     OPFOR_FORMATION_LINE);
    assert_float_equal(f[1].pos.x - f[0].pos.x, 2.1, EPS);
    /* A gun and 3 crew: gun at the point, crew in line 2 inches behind (1 + 0.5 + 0.5). */
    for (int i = 0; i < 4; i++)
        f[i] = fig(0, 0, 0, 0, OPFOR_FIG_ALIVE);
    f[0].flags |= OPFOR_FIG_EQUIPMENT;
    opfor_unit_place(&test_rules.radii, f, 4, opfor_pt(10, 10), opfor_pt(0, 1),
                     OPFOR_FORMATION_LINE);
    at(&f[0], 10.0, 10.0);
    at(&f[1], 8.5, 8.0);
    assert_float_equal(f[3].pos.x, 11.5, EPS);
    /* Facing south: the crew stand north of the gun. */
    opfor_unit_place(&test_rules.radii, f, 4, opfor_pt(10, 10), opfor_pt(0, -1),
                     OPFOR_FORMATION_LINE);
    assert_float_equal(f[2].pos.y, 12.0, EPS);
    /* A zero facing means up the table. */
    opfor_unit_place(&test_rules.radii, f + 1, 2, opfor_pt(10, 10), opfor_pt(0, 0),
                     OPFOR_FORMATION_LINE);
    at(&f[1], 9.25, 10.0);
    int v = -1;
    assert_int_equal(opfor_vocab_lookup(opfor_formation_names, "Skirmish", &v), 0);
    assert_int_equal(v, OPFOR_FORMATION_SKIRMISH);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unit_sizes_and_copy),
        cmocka_unit_test(unit_base_radii),
        cmocka_unit_test(unit_counts_quality_centre_leader),
        cmocka_unit_test(unit_place_formations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
