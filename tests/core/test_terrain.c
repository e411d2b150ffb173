/* tests/core/test_terrain.c — terrain queries: line of sight through buildings, hills and
 * hedges, the 2-inch foliage rule, cover from woods, buildings, walls and field works,
 * movement costs along a path, impassable ground, hiding places and the half-inch gap rule.
 * Each test builds a small table whose geometry makes the expected numbers easy to check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "test_rules.h"
#include "opfor/error.h"
#include "opfor/terrain.h"

#define EPS 1e-4

/* Adds an axis-aligned rectangle area feature; returns its index. */
static int add_rect(opfor_table_t *t, opfor_terrain_kind_t kind, float x0, float y0, float x1,
                    float y1) {
    opfor_pt_t p[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    opfor_terrain_feature_t f;
    assert_int_equal(opfor_terrain_feature_init(&f, kind, OPFOR_SHAPE_AREA, "r", p, 4, 0), 0);
    return opfor_table_add(t, &f);
}

/* Adds a straight line feature of the given width; returns its index. */
static int add_line(opfor_table_t *t, opfor_terrain_kind_t kind, float x0, float y0, float x1,
                    float y1, float w) {
    opfor_pt_t p[2] = {{x0, y0}, {x1, y1}};
    opfor_terrain_feature_t f;
    assert_int_equal(opfor_terrain_feature_init(&f, kind, OPFOR_SHAPE_LINE, "l", p, 2, w), 0);
    return opfor_table_add(t, &f);
}

static void terrain_feature_defaults_and_errors(void **state) {
    (void)state;
    opfor_terrain_feature_t f;
    opfor_pt_t p[3] = {{0, 0}, {1, 0}, {1, 1}};
    assert_int_equal(
        opfor_terrain_feature_init(&f, OPFOR_TK_WOODS, OPFOR_SHAPE_AREA, "Big wood", p, 3, 5), 0);
    assert_int_equal(f.cover, OPFOR_COVER_SOFT);
    assert_int_equal(f.sight, OPFOR_SIGHT_FOLIAGE);
    assert_int_equal(f.move, OPFOR_MOVE_ROUGH);
    assert_true(f.flags & OPFOR_TF_HIDES);
    assert_float_equal(f.width, 0.0, 0.0); /* areas have no width */
    assert_string_equal(f.name, "Big wood");
    assert_int_equal(opfor_terrain_defaults[OPFOR_TK_BUILDING].cover, OPFOR_COVER_HARD);
    assert_true(opfor_terrain_defaults[OPFOR_TK_BUILDING].flags & OPFOR_TF_NO_MOUNTED);
    assert_int_equal(opfor_terrain_defaults[OPFOR_TK_FIELD_WORKS].cover, OPFOR_COVER_FORT);
    assert_int_equal(opfor_terrain_defaults[OPFOR_TK_HEDGE].sight, OPFOR_SIGHT_BLOCKS);
    assert_int_equal(opfor_terrain_defaults[OPFOR_TK_WALL].move, OPFOR_MOVE_OBSTACLE);
    /* Too few points, bad kind, NaN. */
    assert_int_equal(
        opfor_terrain_feature_init(&f, OPFOR_TK_WOODS, OPFOR_SHAPE_AREA, NULL, p, 2, 0),
        OPFOR_EINVAL);
    assert_int_equal(
        opfor_terrain_feature_init(&f, OPFOR_TK_COUNT, OPFOR_SHAPE_AREA, NULL, p, 3, 0),
        OPFOR_EINVAL);
    p[1].x = NAN;
    assert_int_equal(
        opfor_terrain_feature_init(&f, OPFOR_TK_WALL, OPFOR_SHAPE_LINE, NULL, p, 2, 0.5f),
        OPFOR_EINVAL);
    /* A long name is cut, not overflowed. */
    p[1].x = 1;
    assert_int_equal(opfor_terrain_feature_init(&f, OPFOR_TK_WALL, OPFOR_SHAPE_LINE,
                                                "0123456789012345678901234567890123456789", p, 2,
                                                0.5f),
                     0);
    assert_int_equal(strlen(f.name), 31);
    /* Bounding box of a line is widened by half its width. */
    assert_float_equal(f.lo.x, -0.25, EPS);
    assert_float_equal(f.hi.y, 0.25, EPS);
    /* The table holds OPFOR_MAX_FEATURES features. */
    static opfor_table_t t;
    test_table_init(&t, 72, 48, OPFOR_EDGE_TOP);
    for (int i = 0; i < OPFOR_MAX_FEATURES; i++)
        assert_int_equal(opfor_table_add(&t, &f), i);
    assert_int_equal(opfor_table_add(&t, &f), OPFOR_EFULL);
}

static void terrain_los_buildings_block(void **state) {
    (void)state;
    static opfor_table_t t;
    opfor_los_t los;
    test_table_init(&t, 72, 48, OPFOR_EDGE_TOP);
    add_rect(&t, OPFOR_TK_OPEN, 0, 0, 72, 48); /* clear terrain never blocks */
    int b = add_rect(&t, OPFOR_TK_BUILDING, 10, 10, 14, 14);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(5, 12), opfor_pt(20, 12), &los), 0);
    assert_int_equal(los.visible, 0);
    assert_int_equal(los.blocker, b);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(5, 5), opfor_pt(20, 5), &los), 1);
    assert_int_equal(los.blocker, -1);
    /* A figure inside the building sees out, and is seen. */
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(12, 12), opfor_pt(20, 12), NULL), 1);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(20, 12), opfor_pt(12, 12), NULL), 1);
    /* ... but not through a second building. */
    add_rect(&t, OPFOR_TK_BUILDING, 16, 10, 18, 14);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(12, 12), opfor_pt(20, 12), NULL), 0);
}

static void terrain_los_foliage_two_inches(void **state) {
    (void)state;
    static opfor_table_t t;
    opfor_los_t los;
    test_table_init(&t, 72, 48, OPFOR_EDGE_TOP);
    add_rect(&t, OPFOR_TK_WOODS, 30, 10, 40, 20);
    /* 1.5, 2.0 and 2.5 inches into the wood. */
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(20, 15), opfor_pt(31.5f, 15), &los), 1);
    assert_float_equal(los.foliage, 1.5, EPS);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(20, 15), opfor_pt(32, 15), &los), 1);
    assert_float_equal(los.foliage, 2.0, EPS);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(20, 15), opfor_pt(32.5f, 15), &los), 0);
    assert_float_equal(los.foliage, 2.5, EPS);
    assert_int_equal(los.blocker, -1);
    /* Right through the wood: 10 inches. */
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(20, 15), opfor_pt(50, 15), &los), 0);
    assert_float_equal(los.foliage, 10.0, EPS);
    /* Clipping a corner: from (30, 10.5) to (30.5, 10), sqrt(0.5) inches. */
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(29, 11.5f), opfor_pt(31.5f, 9), &los), 1);
    assert_float_equal(los.foliage, 0.70710678, EPS);
    /* Foliage adds up over two woods: 1.5 + 1.5 inches. */
    static opfor_table_t t2;
    test_table_init(&t2, 72, 48, OPFOR_EDGE_TOP);
    add_rect(&t2, OPFOR_TK_WOODS, 10, 0, 11.5f, 48);
    add_rect(&t2, OPFOR_TK_WOODS, 20, 0, 21.5f, 48);
    assert_int_equal(opfor_terrain_los(&t2, opfor_pt(0, 5), opfor_pt(15, 5), &los), 1);
    assert_int_equal(opfor_terrain_los(&t2, opfor_pt(0, 5), opfor_pt(30, 5), &los), 0);
    assert_float_equal(los.foliage, 3.0, EPS);
}

static void terrain_los_hills_and_hedges(void **state) {
    (void)state;
    static opfor_table_t t;
    opfor_los_t los;
    test_table_init(&t, 72, 48, OPFOR_EDGE_TOP);
    int hill = add_rect(&t, OPFOR_TK_HILL, 50, 30, 60, 40);
    int hedge = add_line(&t, OPFOR_TK_HEDGE, 0, 30, 20, 30, 0.5f);
    /* Hill: blocks when neither end is on it. */
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(45, 35), opfor_pt(65, 35), &los), 0);
    assert_int_equal(los.blocker, hill);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(55, 35), opfor_pt(65, 35), NULL), 1);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(45, 35), opfor_pt(55, 35), NULL), 1);
    /* Hedge: blocks unless an end lines it (base within 1 inch: centre within
     * 1 + 0.5 + 0.25 = 1.75 inches of its centre line). */
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(10, 20), opfor_pt(10, 40), &los), 0);
    assert_int_equal(los.blocker, hedge);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(10, 29), opfor_pt(10, 40), NULL), 1);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(10, 20), opfor_pt(10, 31.7f), NULL), 1);
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(10, 28), opfor_pt(10, 40), NULL), 0);
    /* A mounted base reaches 0.3 inch further. */
    assert_int_equal(opfor_terrain_los_r(&t, opfor_pt(10, 28), TEST_RADIUS_MOUNTED,
                                         opfor_pt(10, 40), TEST_RADIUS_FOOT, NULL),
                     1);
    /* Past the hedge's end. */
    assert_int_equal(opfor_terrain_los(&t, opfor_pt(25, 20), opfor_pt(25, 40), NULL), 1);
}

static void terrain_cover_walls_woods_buildings(void **state) {
    (void)state;
    static opfor_table_t t;
    int fi = -2;
    test_table_init(&t, 72, 48, OPFOR_EDGE_TOP);
    int wall = add_line(&t, OPFOR_TK_WALL, 20, 0, 20, 48, 0.5f);
    int wood = add_rect(&t, OPFOR_TK_WOODS, 30, 10, 40, 20);
    int house = add_rect(&t, OPFOR_TK_BUILDING, 50, 10, 54, 14);
    int works = add_line(&t, OPFOR_TK_FIELD_WORKS, 60, 30, 70, 30, 1.0f);
    const float r = TEST_RADIUS_FOOT;
    /* Behind the wall, base 0.15 inch from it, fire crossing it: hard. */
    assert_int_equal(opfor_terrain_cover(&t, opfor_pt(10, 24), opfor_pt(20.9f, 24), r, &fi),
                     OPFOR_COVER_HARD);
    assert_int_equal(fi, wall);
    /* Base exactly 1 inch back still counts; 1.75 inches back does not. */
    assert_int_equal(opfor_terrain_cover(&t, opfor_pt(10, 24), opfor_pt(21.75f, 24), r, NULL),
                     OPFOR_COVER_HARD);
    assert_int_equal(opfor_terrain_cover(&t, opfor_pt(10, 24), opfor_pt(22.5f, 24), r, &fi),
                     OPFOR_COVER_NONE);
    assert_int_equal(fi, -1);
    /* Fire from the same side of the wall: no cover. */
    assert_int_equal(opfor_terrain_cover(&t, opfor_pt(28, 24), opfor_pt(20.9f, 24), r, NULL),
                     OPFOR_COVER_NONE);
    /* Any part of the base in the wood: soft, whatever the direction. */
    assert_int_equal(opfor_terrain_cover(&t, opfor_pt(35, 40), opfor_pt(29.7f, 15), r, &fi),
                     OPFOR_COVER_SOFT);
    assert_int_equal(fi, wood);
    assert_int_equal(opfor_terrain_cover(&t, opfor_pt(35, 40), opfor_pt(29.4f, 15), r, NULL),
                     OPFOR_COVER_NONE);
    /* In the building: hard. */
    assert_int_equal(opfor_terrain_cover(&t, opfor_pt(52, 40), opfor_pt(52, 12), r, &fi),
                     OPFOR_COVER_HARD);
    assert_int_equal(fi, house);
    /* Behind field works: fortification. */
    assert_int_equal(opfor_terrain_cover(&t, opfor_pt(65, 10), opfor_pt(65, 31), r, &fi),
                     OPFOR_COVER_FORT);
    assert_int_equal(fi, works);
    /* Best cover wins: in the wood and behind the wall (wall along the wood's edge). */
    add_line(&t, OPFOR_TK_WALL, 30, 5, 30, 25, 0.5f);
    assert_int_equal(opfor_terrain_cover(&t, opfor_pt(25, 15), opfor_pt(30.9f, 15), r, NULL),
                     OPFOR_COVER_HARD);
    assert_int_equal(opfor_terrain_cover(&t, opfor_pt(45, 15), opfor_pt(30.9f, 15), r, NULL),
                     OPFOR_COVER_SOFT);
}

static void terrain_path_costs(void **state) {
    (void)state;
    static opfor_table_t t;
    opfor_path_t p;
    test_table_init(&t, 72, 48, OPFOR_EDGE_TOP);
    add_rect(&t, OPFOR_TK_ROUGH, 10, 0, 20, 48);
    add_line(&t, OPFOR_TK_ROAD, 15, 0, 15, 48, 2.0f); /* x 14..16 */
    add_line(&t, OPFOR_TK_WALL, 25, 0, 25, 48, 0.5f);
    int house = add_rect(&t, OPFOR_TK_BUILDING, 40, 20, 44, 28);
    int lake = add_rect(&t, OPFOR_TK_IMPASSABLE, 60, 0, 70, 10);
    /* 30 inches: 10 in rough, of which 2 on the road; one wall. */
    assert_int_equal(opfor_terrain_path(&t, opfor_pt(0, 24), opfor_pt(30, 24), &p), 0);
    assert_float_equal(p.length, 30.0, EPS);
    assert_float_equal(p.rough, 8.0, EPS);
    assert_float_equal(p.road, 2.0, EPS);
    assert_int_equal(p.obstacles, 1);
    assert_int_equal(p.impassable, 0);
    assert_int_equal(p.no_mounted, 0);
    assert_int_equal(p.blocker, -1);
    /* Along the road through rough ground: no rough at all. */
    assert_int_equal(opfor_terrain_path(&t, opfor_pt(15, 5), opfor_pt(15, 40), &p), 0);
    assert_float_equal(p.road, 35.0, EPS);
    assert_float_equal(p.rough, 0.0, EPS);
    /* Wholly inside the rough. */
    assert_int_equal(opfor_terrain_path(&t, opfor_pt(12, 5), opfor_pt(12, 10), &p), 0);
    assert_float_equal(p.rough, 5.0, EPS);
    /* Through the house: in by a window and out by another, closed to horses. */
    assert_int_equal(opfor_terrain_path(&t, opfor_pt(35, 24), opfor_pt(50, 24), &p), 0);
    assert_int_equal(p.obstacles, 2);
    assert_int_equal(p.no_mounted, 1);
    assert_int_equal(p.impassable, 0);
    assert_int_equal(p.blocker, house);
    /* Into the lake. */
    assert_int_equal(opfor_terrain_path(&t, opfor_pt(55, 5), opfor_pt(65, 5), &p), 0);
    assert_int_equal(p.impassable, 1);
    assert_int_equal(p.blocker, lake);
    /* Crossing the wall twice by going over and back counts two obstacles; a path
     * ending on a vertex of a polyline counts one crossing, not two. */
    static opfor_table_t t2;
    test_table_init(&t2, 72, 48, OPFOR_EDGE_TOP);
    opfor_pt_t zig[3] = {{10, 0}, {10, 10}, {20, 10}};
    opfor_terrain_feature_t f;
    assert_int_equal(
        opfor_terrain_feature_init(&f, OPFOR_TK_HEDGE, OPFOR_SHAPE_LINE, "h", zig, 3, 0.5f), 0);
    opfor_table_add(&t2, &f);
    assert_int_equal(opfor_terrain_path(&t2, opfor_pt(5, 5), opfor_pt(15, 15), &p), 0);
    assert_int_equal(p.obstacles, 1); /* through the corner at (10, 10) */
    assert_int_equal(opfor_terrain_path(&t2, opfor_pt(5, 5), opfor_pt(15, 12), &p), 0);
    assert_int_equal(p.obstacles, 2);
    /* Zero-length path. */
    assert_int_equal(opfor_terrain_path(&t, opfor_pt(12, 5), opfor_pt(12, 5), &p), 0);
    assert_float_equal(p.length, 0.0, 0.0);
    assert_float_equal(p.rough, 0.0, 0.0);
}

static void terrain_impassable_and_hiding(void **state) {
    (void)state;
    static opfor_table_t t;
    test_table_init(&t, 72, 48, OPFOR_EDGE_TOP);
    int wood = add_rect(&t, OPFOR_TK_WOODS, 0, 0, 10, 10);
    int house = add_rect(&t, OPFOR_TK_BUILDING, 20, 0, 24, 4);
    int lake = add_rect(&t, OPFOR_TK_IMPASSABLE, 30, 0, 40, 10);
    int river = add_line(&t, OPFOR_TK_RIVER, 50, 0, 50, 48, 2.0f);
    assert_int_equal(opfor_terrain_impassable_at(&t, opfor_pt(35, 5), 0), lake);
    assert_int_equal(opfor_terrain_impassable_at(&t, opfor_pt(5, 5), 1), -1);
    assert_int_equal(opfor_terrain_impassable_at(&t, opfor_pt(22, 2), 0), -1);
    assert_int_equal(opfor_terrain_impassable_at(&t, opfor_pt(22, 2), 1), house);
    assert_int_equal(opfor_terrain_impassable_at(&t, opfor_pt(50.9f, 20), 0), river);
    assert_int_equal(opfor_terrain_impassable_at(&t, opfor_pt(51.1f, 20), 0), -1);
    assert_int_equal(opfor_terrain_hiding_at(&t, opfor_pt(5, 5)), wood);
    assert_int_equal(opfor_terrain_hiding_at(&t, opfor_pt(22, 2)), house);
    assert_int_equal(opfor_terrain_hiding_at(&t, opfor_pt(35, 5)), -1);
    assert_int_equal(opfor_terrain_hiding_at(&t, opfor_pt(15, 5)), -1);
    /* A scenario may override a kind's defaults: a fordable river. */
    t.features[river].move = OPFOR_MOVE_ROUGH;
    assert_int_equal(opfor_terrain_impassable_at(&t, opfor_pt(50.9f, 20), 0), -1);
    opfor_path_t p;
    assert_int_equal(opfor_terrain_path(&t, opfor_pt(45, 20), opfor_pt(55, 20), &p), 0);
    assert_float_equal(p.rough, 2.0, EPS);
    assert_int_equal(p.impassable, 0);
}

static void terrain_fire_gap_rule(void **state) {
    (void)state;
    opfor_circle_t c[4];
    const float r = TEST_RADIUS_FOOT;
    opfor_pt_t a = opfor_pt(0, 10), b = opfor_pt(20, 10);
    /* Two bases 0.2 inch apart, one each side of the line: blocked. */
    c[0] = (opfor_circle_t){{10, 9.4f}, r};
    c[1] = (opfor_circle_t){{10, 10.6f}, r};
    assert_int_equal(opfor_fire_lane_blocked(a, b, c, 2, TEST_FIRE_GAP), 1);
    /* 1 inch apart: clear. */
    c[0].c.y = 9.0f;
    c[1].c.y = 11.0f;
    assert_int_equal(opfor_fire_lane_blocked(a, b, c, 2, TEST_FIRE_GAP), 0);
    /* 0.5 inch apart exactly: the gap is not narrower than half an inch. */
    c[0].c.y = 9.25f;
    c[1].c.y = 10.75f;
    assert_int_equal(opfor_fire_lane_blocked(a, b, c, 2, TEST_FIRE_GAP), 0);
    /* Narrow gap beside the line, not across it: clear. */
    c[0].c.y = 10.8f;
    c[1].c.y = 12.0f;
    assert_int_equal(opfor_fire_lane_blocked(a, b, c, 2, TEST_FIRE_GAP), 0);
    /* Through a base: blocked. */
    c[0].c = opfor_pt(10, 10.3f);
    assert_int_equal(opfor_fire_lane_blocked(a, b, c, 1, TEST_FIRE_GAP), 1);
    /* The firer's and target's own bases do not count. */
    c[0].c = a;
    c[1].c = b;
    assert_int_equal(opfor_fire_lane_blocked(a, b, c, 2, TEST_FIRE_GAP), 0);
    /* Too many circles. */
    assert_int_equal(opfor_fire_lane_blocked(a, b, c, OPFOR_GAP_MAX_CIRCLES + 1, TEST_FIRE_GAP),
                     OPFOR_ERANGE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(terrain_feature_defaults_and_errors),
        cmocka_unit_test(terrain_los_buildings_block),
        cmocka_unit_test(terrain_los_foliage_two_inches),
        cmocka_unit_test(terrain_los_hills_and_hedges),
        cmocka_unit_test(terrain_cover_walls_woods_buildings),
        cmocka_unit_test(terrain_path_costs),
        cmocka_unit_test(terrain_impassable_and_hiding),
        cmocka_unit_test(terrain_fire_gap_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
