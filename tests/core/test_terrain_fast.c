/* tests/core/test_terrain_fast.c — the cheap rejects of the terrain queries give the same
 * answers as the plain tests they guard.
 *
 * Line of sight, "does this segment enter the feature" and movement paths skip features and
 * polygon edges with box tests (opfor_seg_box_apart, box-first point-in-polygon) for speed.
 * The rules engine relies on those answers being identical to the bit, so these tests compare
 * them with straightforward reference versions (no rejects) over thousands of random segments
 * on random tables, and check that the reject itself never fires near a box.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "test_rules.h"
#include "opfor/geom.h"
#include "opfor/rng.h"
#include "opfor/terrain.h"

static float rnd(opfor_rng_t *r, float lo, float hi) {
    return lo + (hi - lo) * (float)opfor_rng_unit(r);
}

/* A random table: buildings, hills (16-gons), woods, hedges, walls, a road and rough ground,
 * with lines of one to three segments, crowded into a 40 x 30 inch field. */
static void random_table(opfor_rng_t *r, opfor_table_t *t, int n) {
    test_table_init(t, 48.0f, 36.0f, OPFOR_EDGE_TOP);
    static const opfor_terrain_kind_t AREAS[] = {OPFOR_TK_BUILDING, OPFOR_TK_HILL, OPFOR_TK_WOODS,
                                                 OPFOR_TK_ROUGH, OPFOR_TK_IMPASSABLE};
    static const opfor_terrain_kind_t LINES[] = {OPFOR_TK_HEDGE, OPFOR_TK_WALL, OPFOR_TK_ROAD,
                                                 OPFOR_TK_FENCE};
    for (int i = 0; i < n; i++) {
        opfor_terrain_feature_t f;
        opfor_pt_t p[OPFOR_POLY_MAX_PTS];
        float cx = rnd(r, 4, 44), cy = rnd(r, 4, 32);
        if (opfor_rng_below(r, 3) != 0) {
            opfor_terrain_kind_t k = AREAS[opfor_rng_below(r, 5)];
            int np;
            if (k == OPFOR_TK_HILL) { /* a circle as the scenario loader draws it */
                static const float C[16] = {1.0f,  0.92387953f,  0.70710678f,  0.38268343f,
                                            0.0f,  -0.38268343f, -0.70710678f, -0.92387953f,
                                            -1.0f, -0.92387953f, -0.70710678f, -0.38268343f,
                                            0.0f,  0.38268343f,  0.70710678f,  0.92387953f};
                float rad = rnd(r, 1, 5);
                np = 16;
                for (int k2 = 0; k2 < 16; k2++)
                    p[k2] = opfor_pt(cx + rad * C[k2], cy + rad * C[(k2 + 12) % 16]);
            } else if (opfor_rng_below(r, 2)) { /* a rectangle */
                float w = rnd(r, 1, 6), h = rnd(r, 1, 6);
                np = 4;
                p[0] = opfor_pt(cx, cy);
                p[1] = opfor_pt(cx + w, cy);
                p[2] = opfor_pt(cx + w, cy + h);
                p[3] = opfor_pt(cx, cy + h);
            } else { /* a rough quadrilateral */
                np = 4;
                p[0] = opfor_pt(cx, cy);
                p[1] = opfor_pt(cx + rnd(r, 2, 6), cy + rnd(r, -1, 1));
                p[2] = opfor_pt(cx + rnd(r, 2, 6), cy + rnd(r, 2, 6));
                p[3] = opfor_pt(cx + rnd(r, -1, 1), cy + rnd(r, 2, 6));
            }
            assert_int_equal(opfor_terrain_feature_init(&f, k, OPFOR_SHAPE_AREA, "a", p, np, 0), 0);
        } else {
            opfor_terrain_kind_t k = LINES[opfor_rng_below(r, 4)];
            int np = 2 + (int)opfor_rng_below(r, 3);
            p[0] = opfor_pt(cx, cy);
            for (int k2 = 1; k2 < np; k2++)
                p[k2] = opfor_pt(p[k2 - 1].x + rnd(r, -8, 8), p[k2 - 1].y + rnd(r, -8, 8));
            float w = k == OPFOR_TK_ROAD ? rnd(r, 1, 3) : rnd(r, 0.2f, 0.6f);
            assert_int_equal(opfor_terrain_feature_init(&f, k, OPFOR_SHAPE_LINE, "l", p, np, w), 0);
        }
        assert_true(opfor_table_add(t, &f) >= 0);
    }
}

/* A random segment: mostly across the field, some short, some ending inside features. */
static void random_seg(opfor_rng_t *r, opfor_pt_t *a, opfor_pt_t *b) {
    *a = opfor_pt(rnd(r, 0, 48), rnd(r, 0, 36));
    if (opfor_rng_below(r, 4) == 0)
        *b = opfor_pt(a->x + rnd(r, -2, 2), a->y + rnd(r, -2, 2));
    else
        *b = opfor_pt(rnd(r, 0, 48), rnd(r, 0, 36));
}

/* Line of sight exactly as written before the rejects (areas for foliage only: the random
 * tables have no foliage lines). */
static int ref_los(const opfor_table_t *t, opfor_pt_t a, float ra, opfor_pt_t b, float rb,
                   opfor_los_t *out) {
    float foliage = 0.0f;
    int blocker = -1;
    for (int i = 0; i < t->nfeatures && blocker < 0; i++) {
        const opfor_terrain_feature_t *f = &t->features[i];
        int box = fminf(a.x, b.x) <= f->hi.x && fmaxf(a.x, b.x) >= f->lo.x &&
                  fminf(a.y, b.y) <= f->hi.y && fmaxf(a.y, b.y) >= f->lo.y;
        if (f->sight == OPFOR_SIGHT_CLEAR || !box)
            continue;
        if (f->sight == OPFOR_SIGHT_FOLIAGE) {
            assert_int_equal(f->shape, OPFOR_SHAPE_AREA);
            foliage += opfor_poly_seg_length_inside(f->pts, f->npts, a, b);
            continue;
        }
        if (f->shape == OPFOR_SHAPE_AREA) {
            if (opfor_poly_seg_intersects(f->pts, f->npts, a, b) &&
                !opfor_poly_contains(f->pts, f->npts, a) &&
                !opfor_poly_contains(f->pts, f->npts, b))
                blocker = i;
        } else {
            float h = 0.5f * f->width;
            if (opfor_polyline_seg_crossings(f->pts, f->npts, a, b) > 0 &&
                opfor_polyline_dist_pt(f->pts, f->npts, a) - ra - h > TEST_LINE_COVER + 1e-4f &&
                opfor_polyline_dist_pt(f->pts, f->npts, b) - rb - h > TEST_LINE_COVER + 1e-4f)
                blocker = i;
        }
    }
    out->visible = blocker < 0 && foliage <= TEST_FOLIAGE_SIGHT + 1e-4f;
    out->blocker = blocker;
    out->foliage = foliage;
    return out->visible;
}

static void terrain_fast_los_matches_reference(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 11, 1);
    static opfor_table_t t;
    int blocked = 0, seen = 0, through_foliage = 0;
    for (int tab = 0; tab < 60; tab++) {
        random_table(&r, &t, 6 + (int)opfor_rng_below(&r, 20));
        for (int k = 0; k < 400; k++) {
            opfor_pt_t a, b;
            random_seg(&r, &a, &b);
            opfor_los_t x, y;
            int vx = opfor_terrain_los_r(&t, a, 0.5f, b, 0.8f, &x);
            int vy = ref_los(&t, a, 0.5f, b, 0.8f, &y);
            assert_int_equal(vx, vy);
            assert_int_equal(x.blocker, y.blocker);
            assert_memory_equal(&x.foliage, &y.foliage, sizeof x.foliage); /* to the bit */
            blocked += x.blocker >= 0;
            seen += vx;
            through_foliage += x.foliage > 0.0f;
        }
    }
    /* the sample covers every outcome */
    assert_true(blocked > 1000 && seen > 1000 && through_foliage > 500);
}

static void terrain_fast_seg_enters_matches_reference(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 12, 1);
    static opfor_table_t t;
    int hits = 0, misses = 0;
    for (int tab = 0; tab < 60; tab++) {
        random_table(&r, &t, 12);
        for (int k = 0; k < 400; k++) {
            opfor_pt_t a, b;
            random_seg(&r, &a, &b);
            for (int i = 0; i < t.nfeatures; i++) {
                const opfor_terrain_feature_t *f = &t.features[i];
                int want = f->shape == OPFOR_SHAPE_AREA
                               ? opfor_poly_seg_intersects(f->pts, f->npts, a, b)
                               : opfor_polyline_seg_dist(f->pts, f->npts, a, b) <= 0.5f * f->width;
                int got = opfor_feature_seg_enters(f, a, b);
                assert_int_equal(got, want);
                hits += got;
                misses += !got;
                /* the edge half of the area test, for callers that test the ends themselves */
                if (f->shape == OPFOR_SHAPE_AREA && !opfor_poly_contains(f->pts, f->npts, a) &&
                    !opfor_poly_contains(f->pts, f->npts, b))
                    assert_int_equal(opfor_poly_seg_crosses(f->pts, f->npts, a, b), want);
            }
        }
    }
    assert_true(hits > 2000 && misses > 2000);
}

/* The reject is safe: when it says a segment keeps m away from a box, no point of the box
 * (corners, edges, inside, on a 9 x 9 grid) comes within m of the segment; and it does fire
 * often enough to be worth having. */
static void terrain_fast_seg_box_apart_is_conservative(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 13, 1);
    int apart = 0;
    for (int k = 0; k < 20000; k++) {
        opfor_pt_t a, b;
        random_seg(&r, &a, &b);
        opfor_pt_t lo = opfor_pt(rnd(&r, 0, 44), rnd(&r, 0, 32));
        opfor_pt_t hi = opfor_pt(lo.x + rnd(&r, 0, 6), lo.y + rnd(&r, 0, 6));
        float m = opfor_rng_below(&r, 2) ? 0.01f : rnd(&r, 0, 2);
        if (!opfor_seg_box_apart(a, b, lo, hi, m))
            continue;
        apart++;
        for (int i = 0; i <= 8; i++)
            for (int j = 0; j <= 8; j++) {
                opfor_pt_t q = opfor_pt(lo.x + (hi.x - lo.x) * (float)i / 8.0f,
                                        lo.y + (hi.y - lo.y) * (float)j / 8.0f);
                assert_true(opfor_seg_dist_pt(a, b, q) > m * 0.999f);
            }
    }
    assert_true(apart > 5000);
    /* a segment through the box, or touching a corner, is never apart */
    assert_false(opfor_seg_box_apart(opfor_pt(0, 0), opfor_pt(10, 10), opfor_pt(4, 4),
                                     opfor_pt(6, 6), 0.01f));
    assert_false(
        opfor_seg_box_apart(opfor_pt(0, 2), opfor_pt(2, 0), opfor_pt(1, 1), opfor_pt(3, 3), 0.01f));
    assert_true(opfor_seg_box_apart(opfor_pt(0, 2), opfor_pt(2, 0), opfor_pt(1.2f, 1.2f),
                                    opfor_pt(3, 3), 0.01f));
}

/* A path over a culled feature list gives the full query's answer, field by field. */
static void terrain_fast_path_in_matches_full(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 14, 1);
    static opfor_table_t t;
    int rough = 0, road = 0, obstacles = 0, closed = 0;
    for (int tab = 0; tab < 60; tab++) {
        random_table(&r, &t, 6 + (int)opfor_rng_below(&r, 20));
        for (int k = 0; k < 300; k++) {
            opfor_pt_t a, b;
            random_seg(&r, &a, &b);
            /* cull with a box a little larger than the segment's, as a mover does */
            float pad = rnd(&r, 0, 3);
            float lox = fminf(a.x, b.x) - pad, hix = fmaxf(a.x, b.x) + pad;
            float loy = fminf(a.y, b.y) - pad, hiy = fmaxf(a.y, b.y) + pad;
            uint8_t idx[OPFOR_MAX_FEATURES];
            int n = 0;
            for (int i = 0; i < t.nfeatures; i++) {
                const opfor_terrain_feature_t *f = &t.features[i];
                if (f->hi.x < lox || f->lo.x > hix || f->hi.y < loy || f->lo.y > hiy)
                    continue;
                idx[n++] = (uint8_t)i;
            }
            opfor_path_t x, y;
            memset(&x, 0x55, sizeof x);
            memset(&y, 0x55, sizeof y);
            assert_int_equal(opfor_terrain_path(&t, a, b, &x), 0);
            assert_int_equal(opfor_terrain_path_in(&t, idx, n, a, b, &y), 0);
            assert_memory_equal(&x, &y, sizeof x);
            rough += x.rough > 0.0f;
            road += x.road > 0.0f;
            obstacles += x.obstacles > 0;
            closed += x.impassable || x.no_mounted;
        }
    }
    assert_true(rough > 300 && road > 300 && obstacles > 300 && closed > 300);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(terrain_fast_los_matches_reference),
        cmocka_unit_test(terrain_fast_seg_enters_matches_reference),
        cmocka_unit_test(terrain_fast_seg_box_apart_is_conservative),
        cmocka_unit_test(terrain_fast_path_in_matches_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
