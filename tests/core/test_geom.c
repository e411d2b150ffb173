/* tests/core/test_geom.c — table geometry: vectors, distances, intersections, polygons,
 * fire arcs, compass mapping under each choice of north, and the table rectangle.
 * Expected values are worked out by hand in the comments; float tolerances are 1e-5
 * unless the result is exact by construction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "test_rules.h"
#include "opfor/geom.h"

#define EPS 1e-5

static void geom_vector_basics(void **state) {
    (void)state;
    opfor_vec_t a = opfor_pt(3, 4), b = opfor_pt(-4, 3);
    assert_float_equal(opfor_vdot(a, b), 0.0, 0.0);
    assert_float_equal(opfor_vcross(a, b), 25.0, 0.0); /* b is to the left of a */
    assert_float_equal(opfor_vlen(a), 5.0, 0.0);
    opfor_vec_t n = opfor_vnorm(a);
    assert_float_equal(n.x, 0.6, EPS);
    assert_float_equal(n.y, 0.8, EPS);
    n = opfor_vnorm(opfor_pt(0, 0));
    assert_true(n.x == 0.0f && n.y == 0.0f);
    n = opfor_vnorm(opfor_pt(NAN, 1));
    assert_true(n.x == 0.0f && n.y == 0.0f);
    opfor_vec_t p = opfor_vperp(opfor_pt(1, 0));
    assert_true(p.x == 0.0f && p.y == 1.0f);
    /* Turning (1, 0) by 45 degrees counter-clockwise, then clockwise back. */
    opfor_vec_t r = opfor_vrot(opfor_pt(1, 0), OPFOR_SQRT1_2, OPFOR_SQRT1_2);
    assert_float_equal(r.x, 0.70710678, EPS);
    assert_float_equal(r.y, 0.70710678, EPS);
    r = opfor_vrot(r, OPFOR_SQRT1_2, -OPFOR_SQRT1_2);
    assert_float_equal(r.x, 1.0, EPS);
    assert_float_equal(r.y, 0.0, EPS);
}

static void geom_distances_and_bases(void **state) {
    (void)state;
    opfor_pt_t a = opfor_pt(0, 0), b = opfor_pt(10, 0);
    assert_float_equal(opfor_dist(opfor_pt(1, 1), opfor_pt(4, 5)), 5.0, 0.0);
    assert_float_equal(opfor_seg_closest_t(a, b, opfor_pt(3, 7)), 0.3, EPS);
    assert_float_equal(opfor_seg_dist_pt(a, b, opfor_pt(3, 7)), 7.0, EPS);
    assert_float_equal(opfor_seg_dist_pt(a, b, opfor_pt(-3, 4)), 5.0, EPS); /* past the end */
    assert_float_equal(opfor_seg_dist_pt(a, a, opfor_pt(3, 4)), 5.0, EPS);  /* a point */
    /* Ranges are base to base: centres 3 apart, two foot bases -> 2 inches. */
    assert_float_equal(
        opfor_base_dist(opfor_pt(0, 0), TEST_RADIUS_FOOT, opfor_pt(3, 0), TEST_RADIUS_FOOT), 2.0,
        EPS);
    assert_float_equal(opfor_base_dist(opfor_pt(0, 0), 0.5f, opfor_pt(0.6f, 0), 0.5f), 0.0, 0.0);
    assert_true(opfor_bases_overlap(opfor_pt(0, 0), 0.5f, opfor_pt(0.9f, 0), 0.5f, 0.01f));
    assert_false(opfor_bases_overlap(opfor_pt(0, 0), 0.5f, opfor_pt(1.0f, 0), 0.5f, 0.01f));
    assert_float_equal(opfor_seg_seg_dist(a, b, opfor_pt(5, 2), opfor_pt(5, 9)), 2.0, EPS);
    assert_float_equal(opfor_seg_seg_dist(a, b, opfor_pt(5, -2), opfor_pt(5, 9)), 0.0, 0.0);
}

static void geom_segment_intersection(void **state) {
    (void)state;
    float t = -1, u = -1;
    assert_true(opfor_seg_intersect(opfor_pt(0, 0), opfor_pt(2, 2), opfor_pt(0, 2), opfor_pt(2, 0),
                                    &t, &u));
    assert_float_equal(t, 0.5, EPS);
    assert_float_equal(u, 0.5, EPS);
    /* Touching at an end counts. */
    assert_true(opfor_seg_intersect(opfor_pt(0, 0), opfor_pt(2, 0), opfor_pt(2, 0), opfor_pt(2, 5),
                                    &t, NULL));
    assert_float_equal(t, 1.0, EPS);
    /* Would cross if extended, but does not. */
    assert_false(opfor_seg_intersect(opfor_pt(0, 0), opfor_pt(1, 1), opfor_pt(0, 4), opfor_pt(4, 0),
                                     NULL, NULL));
    /* Parallel, apart. */
    assert_false(opfor_seg_intersect(opfor_pt(0, 0), opfor_pt(4, 0), opfor_pt(0, 1), opfor_pt(4, 1),
                                     NULL, NULL));
    /* Collinear overlap: first common point along a-b is x = 2 (t = 0.5). */
    assert_true(opfor_seg_intersect(opfor_pt(0, 0), opfor_pt(4, 0), opfor_pt(2, 0), opfor_pt(8, 0),
                                    &t, &u));
    assert_float_equal(t, 0.5, EPS);
    assert_float_equal(u, 0.0, EPS);
    /* Collinear, disjoint. */
    assert_false(opfor_seg_intersect(opfor_pt(0, 0), opfor_pt(1, 0), opfor_pt(2, 0), opfor_pt(3, 0),
                                     NULL, NULL));
    /* A zero-length segment lying on the other. */
    assert_true(opfor_seg_intersect(opfor_pt(1, 0), opfor_pt(1, 0), opfor_pt(0, 0), opfor_pt(4, 0),
                                    &t, &u));
    assert_float_equal(u, 0.25, EPS);
}

static void geom_segment_circle(void **state) {
    (void)state;
    float t0 = -1, t1 = -1;
    assert_true(opfor_seg_circle(opfor_pt(0, 0), opfor_pt(10, 0), opfor_pt(5, 0), 1, &t0, &t1));
    assert_float_equal(t0, 0.4, EPS);
    assert_float_equal(t1, 0.6, EPS);
    assert_false(opfor_seg_circle(opfor_pt(0, 0), opfor_pt(10, 0), opfor_pt(5, 2), 1, NULL, NULL));
    /* Tangent: a single point. */
    assert_true(opfor_seg_circle(opfor_pt(0, 0), opfor_pt(10, 0), opfor_pt(5, 1), 1, &t0, &t1));
    assert_float_equal(t0, 0.5, EPS);
    assert_float_equal(t1, 0.5, EPS);
    /* Starting inside: clipped to 0. */
    assert_true(opfor_seg_circle(opfor_pt(5, 0), opfor_pt(10, 0), opfor_pt(5, 0), 2, &t0, &t1));
    assert_float_equal(t0, 0.0, EPS);
    assert_float_equal(t1, 0.4, EPS);
    /* Circle beyond the end. */
    assert_false(opfor_seg_circle(opfor_pt(0, 0), opfor_pt(1, 0), opfor_pt(5, 0), 1, NULL, NULL));
}

static const opfor_pt_t square[] = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
/* A U shape open to the top: the notch is x 2..4, y 1..4. */
static const opfor_pt_t ushape[] = {{0, 0}, {6, 0}, {6, 4}, {4, 4}, {4, 1}, {2, 1}, {2, 4}, {0, 4}};

static void geom_polygons(void **state) {
    (void)state;
    assert_true(opfor_poly_contains(square, 4, opfor_pt(2, 2)));
    assert_false(opfor_poly_contains(square, 4, opfor_pt(5, 2)));
    assert_false(opfor_poly_contains(square, 2, opfor_pt(2, 2))); /* too few points */
    assert_float_equal(opfor_poly_area2(square, 4), 32.0, 0.0);
    assert_float_equal(opfor_poly_seg_length_inside(square, 4, opfor_pt(-2, 2), opfor_pt(6, 2)),
                       4.0, EPS);
    assert_float_equal(opfor_poly_seg_length_inside(square, 4, opfor_pt(1, 1), opfor_pt(3, 1)), 2.0,
                       EPS);
    assert_float_equal(opfor_poly_seg_length_inside(square, 4, opfor_pt(5, 0), opfor_pt(9, 9)), 0.0,
                       0.0);
    /* Through both arms of the U, not the notch: 2 + 2 inches. */
    assert_true(opfor_poly_contains(ushape, 8, opfor_pt(1, 2)));
    assert_false(opfor_poly_contains(ushape, 8, opfor_pt(3, 2)));
    assert_float_equal(opfor_poly_seg_length_inside(ushape, 8, opfor_pt(-1, 2), opfor_pt(7, 2)),
                       4.0, EPS);
    assert_true(opfor_poly_seg_intersects(square, 4, opfor_pt(-1, 2), opfor_pt(1, 2)));
    assert_true(opfor_poly_seg_intersects(square, 4, opfor_pt(1, 1), opfor_pt(2, 2)));
    assert_false(opfor_poly_seg_intersects(square, 4, opfor_pt(5, 0), opfor_pt(5, 4)));
    assert_float_equal(opfor_poly_dist_pt(square, 4, opfor_pt(6, 2)), 2.0, EPS);
    assert_float_equal(opfor_poly_dist_pt(square, 4, opfor_pt(1, 2)), 1.0, EPS);
    assert_true(opfor_poly_circle_overlap(square, 4, opfor_pt(4.4f, 2), 0.5f));
    assert_false(opfor_poly_circle_overlap(square, 4, opfor_pt(4.6f, 2), 0.5f));
    opfor_pt_t lo, hi;
    opfor_poly_bbox(ushape, 8, &lo, &hi);
    assert_true(lo.x == 0 && lo.y == 0 && hi.x == 6 && hi.y == 4);
}

static void geom_polylines(void **state) {
    (void)state;
    static const opfor_pt_t zig[] = {{0, 0}, {10, 0}, {10, 10}};
    assert_float_equal(opfor_polyline_dist_pt(zig, 3, opfor_pt(5, 3)), 3.0, EPS);
    assert_float_equal(opfor_polyline_dist_pt(zig, 3, opfor_pt(12, 5)), 2.0, EPS);
    assert_int_equal(opfor_polyline_seg_crossings(zig, 3, opfor_pt(5, -1), opfor_pt(5, 1)), 1);
    assert_int_equal(opfor_polyline_seg_crossings(zig, 3, opfor_pt(5, -1), opfor_pt(12, 6)), 2);
    assert_int_equal(opfor_polyline_seg_crossings(zig, 3, opfor_pt(5, 1), opfor_pt(6, 2)), 0);
    assert_float_equal(opfor_polyline_seg_dist(zig, 3, opfor_pt(5, 1), opfor_pt(6, 2)), 1.0, EPS);
}

static void geom_arcs(void **state) {
    (void)state;
    opfor_pt_t o = opfor_pt(10, 10);
    opfor_vec_t north = opfor_pt(0, 1);
    /* Straight ahead; 11.3 degrees off; 31 degrees off; exactly 45 degrees off. */
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_45, o, north, opfor_pt(10, 15)), 1);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_45, o, north, opfor_pt(11, 15)), 1);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_45, o, north, opfor_pt(13, 15)), 0);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_90, o, north, opfor_pt(13, 15)), 1);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_90, o, north, opfor_pt(15, 15)), 1);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_90, o, north, opfor_pt(15, 14.9f)), 0);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_90, o, north, opfor_pt(5, 15)), 1);
    /* 22 degrees in, 23 degrees out of the 45-degree arc (tan 22 = 0.404, tan 23 = 0.424). */
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_45, o, north, opfor_pt(10.404f, 11)), 1);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_45, o, north, opfor_pt(10.424f, 11)), 0);
    /* The double arc counts each figure twice. */
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_DOUBLE_45, o, north, opfor_pt(10, 20)), 2);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_DOUBLE_45, o, north, opfor_pt(20, 20)), 0);
    /* Half-plane: beside counts, behind does not. */
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_180, o, north, opfor_pt(20, 10)), 1);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_180, o, north, opfor_pt(10, 9)), 0);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_90, o, north, opfor_pt(10, 5)), 0);
    /* Facing need not be a unit vector; a zero facing sees nothing. */
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_45, o, opfor_pt(0, 7), opfor_pt(11, 15)), 1);
    assert_int_equal(opfor_arc_contains(OPFOR_ARC_45, o, opfor_pt(0, 0), opfor_pt(10, 15)), 0);
    /* A base whose centre is 31 degrees off, 5.8 inches away, reaches into the 45-degree
     * arc when its radius exceeds its distance to the arc's edge (about 0.85 inch). */
    assert_int_equal(opfor_arc_touches_circle(OPFOR_ARC_45, o, north, opfor_pt(13, 15), 0.5f), 0);
    assert_int_equal(opfor_arc_touches_circle(OPFOR_ARC_45, o, north, opfor_pt(13, 15), 1.0f), 1);
    assert_int_equal(
        opfor_arc_touches_circle(OPFOR_ARC_DOUBLE_45, o, north, opfor_pt(13, 15), 1.0f), 2);
    /* Behind the firer but overlapping its position. */
    assert_int_equal(opfor_arc_touches_circle(OPFOR_ARC_45, o, north, opfor_pt(10, 9.5f), 0.6f), 1);
}

static void geom_compass_each_north(void **state) {
    (void)state;
    const float s = OPFOR_SQRT1_2;
    /* Expected N and E for north = top, right, bottom, left. */
    const float nx[4] = {0, 1, 0, -1}, ny[4] = {1, 0, -1, 0};
    const float ex[4] = {1, 0, -1, 0}, ey[4] = {0, -1, 0, 1};
    for (int north = 0; north < OPFOR_EDGE_COUNT; north++) {
        opfor_vec_t n = opfor_compass_vec((opfor_table_north_t)north, OPFOR_N);
        opfor_vec_t e = opfor_compass_vec((opfor_table_north_t)north, OPFOR_E);
        opfor_vec_t ne = opfor_compass_vec((opfor_table_north_t)north, OPFOR_NE);
        opfor_vec_t sw = opfor_compass_vec((opfor_table_north_t)north, OPFOR_SW);
        assert_true(n.x == nx[north] && n.y == ny[north]);
        assert_true(e.x == ex[north] && e.y == ey[north]);
        assert_true(ne.x == s * (nx[north] + ex[north]) && ne.y == s * (ny[north] + ey[north]));
        assert_true(sw.x == -ne.x && sw.y == -ne.y);
        /* Every point maps back to itself, also when scaled or nudged 20 degrees. */
        for (int d = 0; d < OPFOR_COMPASS_COUNT; d++) {
            opfor_vec_t v = opfor_compass_vec((opfor_table_north_t)north, (opfor_compass_t)d);
            assert_float_equal(opfor_vlen(v), 1.0, EPS);
            assert_int_equal(opfor_compass_nearest((opfor_table_north_t)north, v), d);
            assert_int_equal(opfor_compass_nearest((opfor_table_north_t)north, opfor_vscale(v, 7)),
                             d);
            opfor_vec_t cw = opfor_vrot(v, 0.93969262f, -0.34202014f); /* 20 degrees */
            opfor_vec_t ccw = opfor_vrot(v, 0.93969262f, 0.34202014f);
            assert_int_equal(opfor_compass_nearest((opfor_table_north_t)north, cw), d);
            assert_int_equal(opfor_compass_nearest((opfor_table_north_t)north, ccw), d);
            /* 25 degrees clockwise is the next point. */
            opfor_vec_t far = opfor_vrot(v, 0.90630779f, -0.42261826f);
            assert_int_equal(opfor_compass_nearest((opfor_table_north_t)north, far), (d + 1) % 8);
        }
    }
    /* North on the right edge: up the table (away from the player) is west. */
    assert_int_equal(opfor_compass_nearest(OPFOR_EDGE_RIGHT, opfor_pt(0, 1)), OPFOR_W);
    assert_int_equal(opfor_compass_nearest(OPFOR_EDGE_LEFT, opfor_pt(0, 1)), OPFOR_E);
    assert_int_equal(opfor_compass_nearest(OPFOR_EDGE_BOTTOM, opfor_pt(1, 1)), OPFOR_SW);
    assert_int_equal(opfor_compass_nearest(OPFOR_EDGE_TOP, opfor_pt(0, 0)), OPFOR_N);
    opfor_vec_t bad = opfor_compass_vec(OPFOR_EDGE_TOP, (opfor_compass_t)9);
    assert_true(bad.x == 0 && bad.y == 0);
}

static void geom_compass_turn_and_edges(void **state) {
    (void)state;
    assert_int_equal(opfor_compass_turn(OPFOR_N, 1), OPFOR_NE);
    assert_int_equal(opfor_compass_turn(OPFOR_N, -1), OPFOR_NW);
    assert_int_equal(opfor_compass_turn(OPFOR_S, 4), OPFOR_N);
    assert_int_equal(opfor_compass_turn(OPFOR_E, -9), OPFOR_NE);
    assert_int_equal(opfor_compass_turn(OPFOR_W, 17), OPFOR_NW);
    opfor_vec_t in = opfor_edge_inward(OPFOR_EDGE_BOTTOM);
    assert_true(in.x == 0 && in.y == 1);
    in = opfor_edge_inward(OPFOR_EDGE_RIGHT);
    assert_true(in.x == -1 && in.y == 0);
    int v = -1;
    assert_int_equal(opfor_vocab_lookup(opfor_edge_names, "Near", &v), 0);
    assert_int_equal(v, OPFOR_EDGE_BOTTOM);
    assert_int_equal(opfor_vocab_lookup(opfor_arc_names, "double-45", &v), 0);
    assert_int_equal(v, OPFOR_ARC_DOUBLE_45);
}

static void geom_table_rect(void **state) {
    (void)state;
    assert_true(opfor_rect_contains(72, 48, opfor_pt(0, 0)));
    assert_true(opfor_rect_contains(72, 48, opfor_pt(72, 48)));
    assert_false(opfor_rect_contains(72, 48, opfor_pt(72.01f, 10)));
    assert_false(opfor_rect_contains(72, 48, opfor_pt(10, -0.01f)));
    opfor_pt_t out;
    float t = opfor_ray_rect_exit(opfor_pt(36, 24), opfor_pt(0, 1), 72, 48, &out);
    assert_float_equal(t, 24.0, EPS);
    assert_true(out.x == 36 && out.y == 48);
    t = opfor_ray_rect_exit(opfor_pt(36, 24), opfor_pt(1, 1), 72, 48, &out);
    assert_float_equal(t, 24.0, EPS);
    assert_true(out.x == 60 && out.y == 48);
    opfor_vec_t sw = opfor_compass_vec(OPFOR_EDGE_TOP, OPFOR_SW);
    opfor_ray_rect_exit(opfor_pt(10, 30), sw, 72, 48, &out);
    assert_float_equal(out.x, 0.0, EPS);
    assert_float_equal(out.y, 20.0, 1e-4);
    t = opfor_ray_rect_exit(opfor_pt(10, 30), opfor_pt(0, 0), 72, 48, &out);
    assert_float_equal(t, 0.0, 0.0);
    assert_true(out.x == 10 && out.y == 30);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(geom_vector_basics),
        cmocka_unit_test(geom_distances_and_bases),
        cmocka_unit_test(geom_segment_intersection),
        cmocka_unit_test(geom_segment_circle),
        cmocka_unit_test(geom_polygons),
        cmocka_unit_test(geom_polylines),
        cmocka_unit_test(geom_arcs),
        cmocka_unit_test(geom_compass_each_north),
        cmocka_unit_test(geom_compass_turn_and_edges),
        cmocka_unit_test(geom_table_rect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
