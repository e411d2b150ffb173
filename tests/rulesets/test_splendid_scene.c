/* tests/rulesets/test_splendid_scene.c — A Splendid Victory!'s scene hook (scene.c) on the
 * built-in encounter: the table's size and terrain by style, every unit with stands as its
 * formation's rectangle (centre half a depth behind its front edge, facing in degrees from
 * north), the AI's side (the scenario's non-player side) flagged, a unit with no stands left
 * not drawn, the unit deciding ringed, and the turn and phase as a label.
 */
#include "test_splendid_engine_helper.h"

#include "opfor/ruleset.h"
#include "opfor/scene.h"

/* The index of the unit called name, or -1. */
static int unit_index(const sv_ctx_t *c, const char *name) {
    for (int i = 0; i < c->start.nunits; i++)
        if (strcmp(c->names[i], name) == 0)
            return i;
    return -1;
}

static const opfor_scene_unit_t *unit_named(const opfor_scene_t *sc, const char *name) {
    for (int i = 0; i < sc->nunits; i++)
        if (strcmp(sc->units[i].name, name) == 0)
            return &sc->units[i];
    return NULL;
}

static void encounter_scene(void **st) {
    (void)st;
    const opfor_ruleset_t *rs = opfor_ruleset_find("splendid");
    assert_non_null(rs);
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    assert_int_equal(sv_ctx_load("builtin:encounter", &c, &d), 0);
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, rs, c, 0), 0);
    sv_state_t s;
    assert_int_equal(sv_engine_init(c, &s, 3), 0);
    opfor_scene_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    assert_int_equal(opfor_game_scene(&g, &s, 0, sc), 0);
    assert_true(sc->width == 48.0f && sc->depth == 36.0f);
    assert_int_equal(sc->nshapes, 2);
    assert_int_equal(sc->shapes[0].style, OPFOR_SCENE_WOODS);
    assert_int_equal(sc->shapes[1].style, OPFOR_SCENE_BUILDING);
    assert_int_equal(sc->nunits, 10);
    const opfor_scene_unit_t *h = unit_named(sc, "Hammond's Foot (6)");
    assert_non_null(h);
    /* a block of 3 files, 2 ranks of 40 mm stands, front centre (20, 12) facing north */
    assert_true(fabsf(h->w - 3.0f * STAND) < 1e-3f && fabsf(h->d - 2.0f * STAND) < 1e-3f);
    assert_true(fabsf(h->at.x - 20.0f) < 1e-3f && fabsf(h->at.y - (12.0f - STAND)) < 1e-3f);
    assert_true(fabsf(h->facing) < 1e-3f);
    assert_false(h->flags & OPFOR_SCENE_U_AI);
    const opfor_scene_unit_t *r = unit_named(sc, "Rupert's Horse (5)");
    assert_non_null(r);
    assert_true(fabsf(r->facing - 180.0f) < 1e-3f);
    assert_true(r->flags & OPFOR_SCENE_U_AI);
    assert_non_null(unit_named(sc, "Prince Rupert"));
    assert_int_equal(sc->nlabels, 1);
    assert_string_equal(sc->labels[0].text, "turn 1, initiative");
    /* the fire phase: the unit to declare is ringed; a unit with no stands is not drawn */
    int rupert = unit_index(c, "Rupert's Horse");
    assert_true(rupert >= 0);
    s.phase = SV_P_FIRE;
    s.cur = (uint8_t)rupert;
    s.u[0].n = 0;
    s.u[0].flags |= SV_F_GONE;
    memset(sc, 0, sizeof *sc);
    assert_int_equal(opfor_game_scene(&g, &s, 1, sc), 0);
    assert_int_equal(sc->nunits, 9);
    r = unit_named(sc, "Rupert's Horse (5)");
    assert_non_null(r);
    assert_true(r->flags & OPFOR_SCENE_U_ACTING);
    assert_int_equal(opfor_game_scene(&g, &s, 2, sc), OPFOR_EINVAL);
    free(sc);
    sv_ctx_free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(encounter_scene)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
