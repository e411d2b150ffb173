/* tests/rulesets/test_adapter_model.c — the AI's context weighs chances with the model its
 * game resolves with: opfor_vk_rs_ctx_new_model copies the model it is given (opford passes
 * the one a game master loaded with --model), and a NULL model is the built-in one, as
 * opfor_vk_rs_ctx_new has it. Checked on a number every search reads: an advance's reach.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ai/viktoria_fixture.h"
#include "ai/vkfix_units.h"
#include "opfor/viktoria/engine_query.h"

/* clang-format off */
static const char ONE_UNIT[] =
    VKFIX_HEAD
    "units:\n"
    VKFIX_UNIT("Rifles", "Red", "infantry", "[36, 10]") VKFIX_RIFLES(6)
    VKFIX_UNIT("Jager", "Blue", "infantry", "[36, 40]") VKFIX_RIFLES(6);
/* clang-format on */

/* The advance reach of unit 0 in a context built from model (NULL: built-in). */
static float advance_reach(const opfor_viktoria_model_t *model, int with_model) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    opfor_diag_t d;
    opfor_diag_clear(&d);
    assert_int_equal(
        opfor_viktoria_scenario_load_string(ONE_UNIT, strlen(ONE_UNIT), "fixture", sc, &d), 0);
    opfor_vk_rs_ctx_t *ctx = NULL;
    int rc = with_model ? opfor_vk_rs_ctx_new_model(&ctx, sc, "fixture", NULL, model, &d)
                        : opfor_vk_rs_ctx_new(&ctx, sc, "fixture", NULL, &d);
    assert_int_equal(rc, 0);
    opfor_scenario_free(sc);
    free(sc);
    opfor_vk_rs_state_t *st = calloc(1, sizeof *st);
    assert_non_null(st);
    opfor_vk_rs_state_init(ctx, st, 1);
    float r = opfor_vk_query_move(opfor_vk_rs_engine(ctx), &st->vk, 0, OPFOR_VK_ADVANCE);
    free(st);
    opfor_vk_rs_ctx_free(ctx);
    return r;
}

static void adapter_searches_with_the_games_model(void **state) {
    (void)state;
    opfor_viktoria_model_t *m = calloc(1, sizeof *m);
    assert_non_null(m);
    opfor_diag_t d;
    opfor_diag_clear(&d);
    /* a game master's model: every foot soldier advances 3 in further */
    assert_int_equal(opfor_viktoria_model_load_string(
                         "move:\n  foot:\n    advance: {civilian: 6, conscript: 6, soldier: 7, "
                         "veteran: 7, elite: 7}\n",
                         "gm.yaml", m, &d),
                     0);
    float built_in = advance_reach(NULL, 0);
    float by_null = advance_reach(NULL, 1);
    float by_gm = advance_reach(m, 1);
    assert_true(built_in > 0.0f);
    assert_true(by_null == built_in);
    assert_true(by_gm == built_in + 3.0f);
    free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(adapter_searches_with_the_games_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
