/* tests/core/test_rules.h — the measures core's tests hand the mechanisms, as a ruleset would
 * (opfor_terrain_rules_t): bases of radius 0.5 on foot, 0.8 mounted and 1 for equipment, sight
 * 2 inches into foliage, 1 inch to line a wall, a half-inch gap for fire, and what each kind
 * of terrain does (woods soft cover and foliage, buildings hard cover and closed to riders,
 * ...); and a table set up with them. The numbers are the tests' own choice; core holds none.
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
    .kinds =
        {
            [OPFOR_TK_OPEN] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OPEN, 0},
            [OPFOR_TK_WOODS] = {OPFOR_COVER_SOFT, OPFOR_SIGHT_FOLIAGE, OPFOR_MOVE_ROUGH,
                                OPFOR_TF_HIDES},
            [OPFOR_TK_BUILDING] = {OPFOR_COVER_HARD, OPFOR_SIGHT_BLOCKS, OPFOR_MOVE_OBSTACLE,
                                   OPFOR_TF_NO_MOUNTED | OPFOR_TF_HIDES},
            [OPFOR_TK_WALL] = {OPFOR_COVER_HARD, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OBSTACLE, 0},
            [OPFOR_TK_HEDGE] = {OPFOR_COVER_SOFT, OPFOR_SIGHT_BLOCKS, OPFOR_MOVE_OBSTACLE, 0},
            [OPFOR_TK_FENCE] = {OPFOR_COVER_SOFT, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OBSTACLE, 0},
            [OPFOR_TK_HILL] = {OPFOR_COVER_NONE, OPFOR_SIGHT_BLOCKS, OPFOR_MOVE_OPEN, 0},
            [OPFOR_TK_ROAD] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_ROAD, 0},
            [OPFOR_TK_RIVER] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_IMPASSABLE, 0},
            [OPFOR_TK_FIELD_WORKS] = {OPFOR_COVER_FORT, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_OBSTACLE, 0},
            [OPFOR_TK_ROUGH] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_ROUGH, 0},
            [OPFOR_TK_IMPASSABLE] = {OPFOR_COVER_NONE, OPFOR_SIGHT_CLEAR, OPFOR_MOVE_IMPASSABLE, 0},
        },
    .line_width = {[OPFOR_TK_WALL] = 0.5f,
                   [OPFOR_TK_HEDGE] = 0.5f,
                   [OPFOR_TK_FENCE] = 0.25f,
                   [OPFOR_TK_ROAD] = 2.0f,
                   [OPFOR_TK_RIVER] = 2.0f,
                   [OPFOR_TK_FIELD_WORKS] = 1.0f,
                   [OPFOR_TK_OPEN] = 1.0f,
                   [OPFOR_TK_WOODS] = 1.0f,
                   [OPFOR_TK_BUILDING] = 1.0f,
                   [OPFOR_TK_HILL] = 1.0f,
                   [OPFOR_TK_ROUGH] = 1.0f,
                   [OPFOR_TK_IMPASSABLE] = 1.0f},
};

/* opfor_table_init, then the tests' measures. */
static inline void test_table_init(opfor_table_t *t, float width, float depth,
                                   opfor_table_north_t north) {
    opfor_table_init(t, width, depth, north);
    t->rules = test_rules;
}

#endif
