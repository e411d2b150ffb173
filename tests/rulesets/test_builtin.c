/* tests/rulesets/test_builtin.c — the built-in Viktoria! scenarios: they are listed, they
 * load without errors or warnings, and they hold the forces and terrain they promise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/scenario.h"
#include "opfor/viktoria/builtin.h"

static void builtin_list_and_text(void **state) {
    (void)state;
    assert_int_equal(opfor_viktoria_builtin_count(), 2);
    assert_string_equal(opfor_viktoria_builtin_name(0), "patrol_default");
    assert_string_equal(opfor_viktoria_builtin_name(1), "competitive_default");
    assert_null(opfor_viktoria_builtin_name(2));
    for (size_t i = 0; i < opfor_viktoria_builtin_count(); i++) {
        size_t len = 0;
        const char *text = opfor_viktoria_builtin_text(opfor_viktoria_builtin_name(i), &len);
        assert_non_null(text);
        assert_true(len > 100);
        assert_int_equal(text[len], '\0');
        assert_int_equal(strlen(text), len);
    }
    assert_non_null(opfor_viktoria_builtin_text("builtin:patrol_default", NULL));
    assert_null(opfor_viktoria_builtin_text("nonesuch", NULL));
    assert_null(opfor_viktoria_builtin_text(NULL, NULL));
}

static void builtin_all_load_cleanly(void **state) {
    (void)state;
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    for (size_t i = 0; i < opfor_viktoria_builtin_count(); i++) {
        opfor_diag_t d;
        const char *name = opfor_viktoria_builtin_name(i);
        int rc = opfor_viktoria_builtin_load(name, sc, &d);
        if (rc)
            print_error("%s:%d:%d: %s\n", d.file, d.line, d.col, d.msg);
        assert_int_equal(rc, 0);
        assert_int_equal(sc->nwarnings_total, 0);
        assert_float_equal(sc->table.width, 72, 0);
        assert_float_equal(sc->table.depth, 48, 0);
        opfor_scenario_free(sc);
    }
    opfor_diag_t d;
    assert_int_equal(opfor_viktoria_builtin_load("nonesuch", sc, &d), OPFOR_ENOENT);
    assert_non_null(strstr(d.msg, "patrol_default, competitive_default"));
    free(sc);
}

/* Counts terrain features of a kind. */
static int nkind(const opfor_scenario_t *sc, int kind) {
    int n = 0;
    for (int i = 0; i < sc->table.nfeatures; i++)
        n += sc->table.features[i].kind == kind;
    return n;
}

static void builtin_patrol_default_forces(void **state) {
    (void)state;
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    opfor_diag_t d;
    assert_int_equal(opfor_viktoria_builtin_load("patrol_default", sc, &d), 0);
    assert_string_equal(d.file, "builtin:patrol_default");
    assert_int_equal(sc->mode, OPFOR_MODE_COOP);
    assert_non_null(opfor_scenario_block(sc, "patrol"));
    int ps = sc->sides[0].player ? 0 : 1;
    assert_int_equal(sc->sides[ps].player, 1);
    assert_int_equal(sc->sides[1 - ps].player, 0);
    int general = 0, sharpshooter = 0, gun = 0, infantry = 0, cavalry = 0, enemy = 0;
    for (int i = 0; i < sc->nunits; i++) {
        const opfor_unit_t *u = &sc->units[i];
        const opfor_figure_t *f = &sc->figures[u->first];
        if (u->side != ps) {
            enemy++;
            continue;
        }
        if ((u->flags & OPFOR_UNIT_GENERAL) && (f->flags & OPFOR_FIG_MOUNTED) &&
            (f->skills & OPFOR_S_GENERAL))
            general++;
        if (u->count == 1 && (f->skills & OPFOR_S_SHARPSHOOTER))
            sharpshooter++;
        if (u->type == OPFOR_UT_ARTILLERY && (f->flags & OPFOR_FIG_EQUIPMENT) &&
            (f->weapons & OPFOR_W_FIELD_GUN) && u->count >= 4)
            gun++;
        if (u->type == OPFOR_UT_INFANTRY && u->count >= 10)
            infantry++;
        if (u->type == OPFOR_UT_CAVALRY && u->count >= 5 && (f->flags & OPFOR_FIG_MOUNTED))
            cavalry++;
        /* Every unit is led. */
        assert_true(opfor_unit_leader(u, sc->figures) >= 0);
    }
    assert_int_equal(general, 1);
    assert_int_equal(sharpshooter, 1);
    assert_int_equal(gun, 1);
    assert_int_equal(infantry, 1);
    assert_int_equal(cavalry, 1);
    assert_int_equal(enemy, 1);
    assert_true(nkind(sc, OPFOR_TK_BUILDING) >= 1);
    assert_true(nkind(sc, OPFOR_TK_WOODS) >= 1);
    assert_true(nkind(sc, OPFOR_TK_WALL) >= 1);
    assert_true(nkind(sc, OPFOR_TK_ROAD) >= 1);
    /* The objective lies on the far half of the table, away from the player's edge. */
    assert_true(sc->nobjectives >= 1);
    assert_true(sc->objectives[0].pos.y > sc->table.depth / 2);
    assert_int_equal(sc->sides[ps].edge, OPFOR_EDGE_BOTTOM);
    /* The known enemy picket lines the farmyard wall: hard cover against fire from the
     * south, and it can see the road. */
    int picket = opfor_scenario_unit(sc, "Jager Picket");
    assert_true(picket >= 0);
    const opfor_figure_t *pf = &sc->figures[sc->units[picket].first];
    assert_int_equal(
        opfor_terrain_cover(&sc->table, opfor_pt(60, 10), pf->pos,
                            opfor_figure_radius(&opfor_viktoria_terrain_rules.radii, pf), NULL),
        OPFOR_COVER_HARD);
    opfor_scenario_free(sc);
    free(sc);
}

static void builtin_competitive_default_forces(void **state) {
    (void)state;
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    opfor_diag_t d;
    assert_int_equal(opfor_viktoria_builtin_load("builtin:competitive_default", sc, &d), 0);
    assert_int_equal(sc->mode, OPFOR_MODE_COMPETITIVE);
    assert_null(opfor_scenario_block(sc, "patrol"));
    int types[2] = {0, 0}, generals[2] = {0, 0};
    for (int i = 0; i < sc->nunits; i++) {
        const opfor_unit_t *u = &sc->units[i];
        if (u->flags & OPFOR_UNIT_GENERAL)
            generals[u->side]++;
        else
            types[u->side] |= 1 << u->type;
        assert_true(opfor_unit_leader(u, sc->figures) >= 0);
    }
    for (int s = 0; s < 2; s++) {
        assert_int_equal(generals[s], 1);
        /* Mixed arms: infantry, cavalry and a gun or MG on each side. */
        assert_true(types[s] & (1 << OPFOR_UT_INFANTRY));
        assert_true(types[s] & (1 << OPFOR_UT_CAVALRY));
        assert_true(types[s] & ((1 << OPFOR_UT_ARTILLERY) | (1 << OPFOR_UT_MACHINEGUN)));
    }
    assert_true(nkind(sc, OPFOR_TK_WOODS) >= 1);
    assert_true(nkind(sc, OPFOR_TK_BUILDING) >= 1);
    assert_true(nkind(sc, OPFOR_TK_WALL) >= 1);
    assert_true(nkind(sc, OPFOR_TK_HILL) >= 1);
    assert_true(nkind(sc, OPFOR_TK_ROAD) >= 1);
    opfor_scenario_free(sc);
    free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_list_and_text),
        cmocka_unit_test(builtin_all_load_cleanly),
        cmocka_unit_test(builtin_patrol_default_forces),
        cmocka_unit_test(builtin_competitive_default_forces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
