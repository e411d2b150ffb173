/* tests/core/test_terrain_grid.c — the terrain grid (opfor/terrain_grid.h) answers exactly as
 * the full core/terrain.c queries: on busy random tables (woods, buildings, hills, hedges,
 * walls, rivers, roads, rough ground as areas and lines) and tens of thousands of random
 * sight lines, targets and moves, the grid's line of sight (visible, blocker, foliage inches)
 * and cover are bit for bit the full ones, and a move the grid calls open is one the path
 * query finds free of any terrain. Also: segments off the table fall back to every feature.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "test_rules.h"
#include "opfor/rng.h"
#include "opfor/terrain.h"
#include "opfor/terrain_grid.h"

static float uni(opfor_rng_t *r, float lo, float hi) {
    return lo + (hi - lo) * (float)opfor_rng_below(r, 1u << 20) / (float)(1u << 20);
}

/* A table of n random features. */
static void busy_table(opfor_table_t *t, opfor_rng_t *r, int n) {
    static const opfor_terrain_kind_t AREAS[] = {OPFOR_TK_WOODS,      OPFOR_TK_BUILDING,
                                                 OPFOR_TK_HILL,       OPFOR_TK_ROUGH,
                                                 OPFOR_TK_IMPASSABLE, OPFOR_TK_FIELD_WORKS};
    static const opfor_terrain_kind_t LINES[] = {OPFOR_TK_HEDGE, OPFOR_TK_WALL, OPFOR_TK_FENCE,
                                                 OPFOR_TK_RIVER, OPFOR_TK_ROAD};
    test_table_init(t, 72, 48, OPFOR_EDGE_TOP);
    for (int i = 0; i < n; i++) {
        opfor_terrain_feature_t f;
        opfor_pt_t p[6];
        opfor_pt_t c = opfor_pt(uni(r, 4, 68), uni(r, 4, 44));
        if (opfor_rng_below(r, 3) > 0) {
            /* a convex-ish area: points round a centre */
            int np = 3 + (int)opfor_rng_below(r, 4);
            float rad = uni(r, 1.5f, 6.0f);
            static const float CS[6][2] = {{1, 0},  {0.5f, 0.87f},   {-0.5f, 0.87f},
                                           {-1, 0}, {-0.5f, -0.87f}, {0.5f, -0.87f}};
            for (int k = 0; k < np; k++) {
                int j = k * 6 / np;
                float rr = rad * uni(r, 0.6f, 1.0f);
                p[k] = opfor_pt(c.x + rr * CS[j][0], c.y + rr * CS[j][1]);
            }
            assert_int_equal(opfor_terrain_feature_init(&f, AREAS[opfor_rng_below(r, 6)],
                                                        OPFOR_SHAPE_AREA, "a", p, np, 0),
                             0);
        } else {
            int np = 2 + (int)opfor_rng_below(r, 3);
            p[0] = c;
            for (int k = 1; k < np; k++)
                p[k] = opfor_pt(p[k - 1].x + uni(r, -8, 8), p[k - 1].y + uni(r, -8, 8));
            assert_int_equal(opfor_terrain_feature_init(&f, LINES[opfor_rng_below(r, 5)],
                                                        OPFOR_SHAPE_LINE, "l", p, np,
                                                        uni(r, 0.2f, 2.0f)),
                             0);
        }
        assert_true(opfor_table_add(t, &f) >= 0);
    }
}

static void terrain_grid_answers_as_the_full_queries(void **state) {
    (void)state;
    opfor_table_t *t = malloc(sizeof *t);
    opfor_tgrid_t *g = malloc(sizeof *g);
    assert_non_null(t);
    assert_non_null(g);
    opfor_rng_t r;
    opfor_rng_seed(&r, 2026, 11);
    long blocked = 0, seen = 0, covered = 0, open = 0, busy = 0;
    for (int table = 0; table < 8; table++) {
        busy_table(t, &r, 20 + table * 5);
        assert_int_equal(opfor_tgrid_build(g, t), 0);
        for (int k = 0; k < 6000; k++) {
            opfor_pt_t a = opfor_pt(uni(&r, 0.5f, 71.5f), uni(&r, 0.5f, 47.5f));
            float len = k % 3 == 0 ? uni(&r, 0.0f, 60.0f) : uni(&r, 0.0f, 12.0f);
            float ang = uni(&r, -1.0f, 1.0f);
            opfor_pt_t b = opfor_pt(a.x + len * ang, a.y + len * (1.0f - ang * ang));
            if (b.x < 0.5f || b.x > 71.5f || b.y < 0.5f || b.y > 47.5f)
                b = opfor_pt(uni(&r, 0.5f, 71.5f), uni(&r, 0.5f, 47.5f));
            float ra = k & 1 ? 0.5f : 0.8f, rb = k & 2 ? 0.5f : 1.0f;
            opfor_los_t full, fast;
            int v1 = opfor_terrain_los_r(t, a, ra, b, rb, &full);
            int v2 = opfor_tgrid_los_r(g, t, a, ra, b, rb, &fast);
            assert_int_equal(v1, v2);
            assert_int_equal(full.visible, fast.visible);
            assert_int_equal(full.blocker, fast.blocker);
            assert_memory_equal(&full.foliage, &fast.foliage, sizeof full.foliage);
            blocked += !v1;
            seen += v1;
            int f1, f2;
            opfor_cover_t c1 = opfor_terrain_cover(t, a, b, rb, &f1);
            opfor_cover_t c2 = opfor_tgrid_cover(g, t, a, b, rb, &f2);
            assert_int_equal(c1, c2);
            assert_int_equal(f1, f2);
            covered += c1 != OPFOR_COVER_NONE;
            opfor_path_t p;
            assert_int_equal(opfor_terrain_path(t, a, b, &p), 0);
            if (opfor_tgrid_path_open(g, a, b)) {
                open++;
                assert_true(p.rough == 0.0f && p.road == 0.0f && p.obstacles == 0 &&
                            !p.impassable && !p.no_mounted && p.blocker < 0);
            } else {
                busy++;
            }
        }
    }
    /* the tables were busy enough to test both answers of each query */
    assert_true(blocked > 1000 && seen > 1000 && covered > 1000 && open > 1000 && busy > 1000);
    free(t);
    free(g);
}

static void terrain_grid_off_the_table_means_everything(void **state) {
    (void)state;
    opfor_table_t *t = malloc(sizeof *t);
    opfor_tgrid_t *g = malloc(sizeof *g);
    assert_non_null(t);
    assert_non_null(g);
    test_table_init(t, 48, 48, OPFOR_EDGE_TOP);
    opfor_pt_t p[4] = {{10, 10}, {14, 10}, {14, 14}, {10, 14}};
    opfor_terrain_feature_t f;
    assert_int_equal(
        opfor_terrain_feature_init(&f, OPFOR_TK_BUILDING, OPFOR_SHAPE_AREA, "b", p, 4, 0), 0);
    assert_int_equal(opfor_table_add(t, &f), 0);
    assert_int_equal(opfor_tgrid_build(g, t), 0);
    assert_true(opfor_tgrid_seg(g, OPFOR_TGRID_SIGHT, opfor_pt(30, 30), opfor_pt(40, 40)) == 0);
    assert_true(opfor_tgrid_seg(g, OPFOR_TGRID_SIGHT, opfor_pt(5, 12), opfor_pt(20, 12)) == 1);
    assert_true(opfor_tgrid_seg(g, OPFOR_TGRID_SIGHT, opfor_pt(-5, 40), opfor_pt(2, 40)) == 1);
    assert_true(opfor_tgrid_at(g, OPFOR_TGRID_COVER, opfor_pt(12, 15.5f)) == 1);
    assert_true(opfor_tgrid_at(g, OPFOR_TGRID_COVER, opfor_pt(40, 40)) == 0);
    free(t);
    free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(terrain_grid_answers_as_the_full_queries),
        cmocka_unit_test(terrain_grid_off_the_table_means_everything),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
