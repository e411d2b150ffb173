/* tests/core/test_rules.h — the measures core's tests hand the mechanisms, as a ruleset would
 * (opfor_terrain_rules_t): bases of radius 0.5 on foot, 0.8 mounted and 1 for equipment, sight
 * 2 inches into foliage, 1 inch to line a wall, a half-inch gap for fire; and a table set up
 * with them. The numbers are the tests' own choice; core holds none.
 */
#ifndef OPFOR_TEST_RULES_H
#define OPFOR_TEST_RULES_H

#include "opfor/terrain.h"

#define TEST_RADIUS_FOOT 0.5f
#define TEST_RADIUS_MOUNTED 0.8f
#define TEST_RADIUS_EQUIPMENT 1.0f
#define TEST_FOLIAGE_SIGHT 2.0f
#define TEST_LINE_COVER 1.0f
#define TEST_FIRE_GAP 0.5f

static const opfor_terrain_rules_t test_rules = {
    .foliage_sight = TEST_FOLIAGE_SIGHT,
    .line_cover = TEST_LINE_COVER,
    .radii = {TEST_RADIUS_FOOT, TEST_RADIUS_MOUNTED, TEST_RADIUS_EQUIPMENT},
};

/* opfor_table_init, then the tests' measures. */
static inline void test_table_init(opfor_table_t *t, float width, float depth,
                                   opfor_table_north_t north) {
    opfor_table_init(t, width, depth, north);
    t->rules = test_rules;
}

#endif
