/* tests/core/test_scene.c — opfor/scene.h: bounded appends and style names.
 *
 * A ruleset fills a scene in a loop over its units and terrain; these check that every append
 * stops at the fixed capacity with OPFOR_EFULL and leaves the scene as it was, that shapes
 * outside 2..OPFOR_SCENE_MAX_VERTS vertices are refused, and that labels are cut, never
 * overrun.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "opfor/error.h"
#include "opfor/scene.h"
#include "opfor/vocab.h"

static opfor_scene_t scene;

static void scene_units_fill_to_capacity(void **state) {
    (void)state;
    memset(&scene, 0, sizeof scene);
    opfor_scene_unit_t u;
    memset(&u, 0, sizeof u);
    for (int i = 0; i < OPFOR_SCENE_MAX_UNITS; i++) {
        u.id = (uint16_t)i;
        u.at.x = (float)i;
        assert_int_equal(opfor_scene_add_unit(&scene, &u), 0);
    }
    assert_int_equal(scene.nunits, OPFOR_SCENE_MAX_UNITS);
    u.id = 999;
    assert_int_equal(opfor_scene_add_unit(&scene, &u), OPFOR_EFULL);
    assert_int_equal(scene.nunits, OPFOR_SCENE_MAX_UNITS);
    assert_int_equal(scene.units[OPFOR_SCENE_MAX_UNITS - 1].id, OPFOR_SCENE_MAX_UNITS - 1);
}

static void scene_shapes_check_vertices(void **state) {
    (void)state;
    memset(&scene, 0, sizeof scene);
    opfor_scene_shape_t sh;
    memset(&sh, 0, sizeof sh);
    sh.n = 1;
    assert_int_equal(opfor_scene_add_shape(&scene, &sh), OPFOR_EINVAL);
    sh.n = OPFOR_SCENE_MAX_VERTS + 1;
    assert_int_equal(opfor_scene_add_shape(&scene, &sh), OPFOR_EINVAL);
    assert_int_equal(scene.nshapes, 0);
    sh.n = 4;
    sh.style = OPFOR_SCENE_WOODS;
    for (int i = 0; i < OPFOR_SCENE_MAX_SHAPES; i++)
        assert_int_equal(opfor_scene_add_shape(&scene, &sh), 0);
    assert_int_equal(opfor_scene_add_shape(&scene, &sh), OPFOR_EFULL);
    assert_int_equal(scene.nshapes, OPFOR_SCENE_MAX_SHAPES);
}

static void scene_arrows_and_labels(void **state) {
    (void)state;
    memset(&scene, 0, sizeof scene);
    opfor_scene_pt_t a = {1, 2}, b = {3, 4};
    for (int i = 0; i < OPFOR_SCENE_MAX_ARROWS; i++)
        assert_int_equal(opfor_scene_add_arrow(&scene, OPFOR_SCENE_FIRE, a, b), 0);
    assert_int_equal(opfor_scene_add_arrow(&scene, OPFOR_SCENE_MOVE, a, b), OPFOR_EFULL);
    assert_int_equal(scene.arrows[0].kind, OPFOR_SCENE_FIRE);
    assert_true(scene.arrows[0].to.x == 3.0f && scene.arrows[0].to.y == 4.0f);
    char longtext[200];
    memset(longtext, 'x', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    assert_int_equal(opfor_scene_add_label(&scene, a, longtext), 0);
    assert_int_equal(strlen(scene.labels[0].text), OPFOR_SCENE_NAME_LEN - 1);
    assert_int_equal(opfor_scene_add_label(&scene, b, NULL), 0);
    assert_string_equal(scene.labels[1].text, "");
}

static void scene_style_names(void **state) {
    (void)state;
    assert_string_equal(opfor_scene_style_name(OPFOR_SCENE_OPEN), "open");
    assert_string_equal(opfor_scene_style_name(OPFOR_SCENE_ZONE), "zone");
    assert_string_equal(opfor_scene_style_name(OPFOR_SCENE_STYLE_COUNT), "?");
    assert_string_equal(opfor_scene_style_name(-1), "?");
    for (int s = 0; s < OPFOR_SCENE_STYLE_COUNT; s++)
        assert_string_not_equal(opfor_scene_style_name(s), "?");
}

/* Every terrain kind of the vocabulary has a style of its own kind; out of range is open. */
static void scene_terrain_styles(void **state) {
    (void)state;
    assert_int_equal(opfor_scene_terrain_style(OPFOR_TK_WOODS), OPFOR_SCENE_WOODS);
    assert_int_equal(opfor_scene_terrain_style(OPFOR_TK_WALL), OPFOR_SCENE_LINEAR);
    assert_int_equal(opfor_scene_terrain_style(OPFOR_TK_RIVER), OPFOR_SCENE_WATER);
    assert_int_equal(opfor_scene_terrain_style(OPFOR_TK_IMPASSABLE), OPFOR_SCENE_IMPASSABLE);
    assert_int_equal(opfor_scene_terrain_style(-1), OPFOR_SCENE_OPEN);
    assert_int_equal(opfor_scene_terrain_style(OPFOR_TK_COUNT), OPFOR_SCENE_OPEN);
    for (int k = 1; k < OPFOR_TK_COUNT; k++) /* only open land draws as open */
        assert_int_not_equal(opfor_scene_terrain_style(k), OPFOR_SCENE_OPEN);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scene_units_fill_to_capacity),
        cmocka_unit_test(scene_shapes_check_vertices),
        cmocka_unit_test(scene_arrows_and_labels),
        cmocka_unit_test(scene_style_names),
        cmocka_unit_test(scene_terrain_styles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
