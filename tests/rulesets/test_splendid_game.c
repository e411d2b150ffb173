/* tests/rulesets/test_splendid_game.c — A Splendid Victory!'s place in the registry (after
 * Viktoria!, which stays the default) and its game through the generic wrapper: the built-in
 * encounter, the initiative thrown with 2D6 a side, then either side may concede (the other
 * side's Splendid Victory); each answer's `working` part.
 */
#include "test_splendid_helper.h"

#include <stdlib.h>

#include "../../rulesets/splendid/engine_int.h"

static void registry_order(void **st) {
    (void)st;
    size_t n = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    int vk = -1, sv = -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(list[i].name, "viktoria") == 0)
            vk = (int)i;
        if (strcmp(list[i].name, "splendid") == 0)
            sv = (int)i;
    }
    assert_true(sv >= 0);
    if (vk >= 0) /* the first registered is the default: it stays Viktoria! */
        assert_int_equal(vk, 0);
    assert_true(vk < sv);
}

static void initiative_then_concede(void **st) {
    (void)st;
    const opfor_ruleset_t *rs = opfor_ruleset_find("splendid");
    void *ctx = NULL;
    opfor_diag_t d;
    assert_int_equal(opfor_ruleset_ctx_new(rs, NULL, &ctx, &d), 0); /* the built-in encounter */
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, rs, ctx, OPFOR_GAME_CHECK_LEGAL), 0);
    void *s = malloc(rs->state_size), *t = malloc(rs->state_size);
    opfor_action_t *acts = malloc((size_t)rs->max_actions * sizeof *acts);
    assert_non_null(s);
    assert_non_null(t);
    assert_non_null(acts);
    int firsts[2] = {0, 0};
    for (uint64_t seed = 1; seed <= 40; seed++) {
        assert_int_equal(opfor_game_new_state(&g, s, seed), 0);
        assert_int_equal(opfor_game_current(&g, s), OPFOR_PLAYER_CHANCE);
        assert_int_equal(opfor_game_legal(&g, s, acts, rs->max_actions), 1);
        assert_int_equal(opfor_game_apply(&g, s, &acts[0]), 0);
        int side = opfor_game_current(&g, s);
        assert_true(side == 0 || side == 1);
        firsts[((const sv_state_t *)s)->init]++;
        assert_true(opfor_game_legal(&g, s, acts, rs->max_actions) >= 1);
        /* a side may concede at any time: the other side's Splendid Victory */
        opfor_action_t concede = opfor_action_make(SV_A_CONCEDE);
        assert_int_equal(rs->apply(ctx, s, &concede), 0);
        assert_int_equal(opfor_game_current(&g, s), OPFOR_PLAYER_TERMINAL);
        double r[2];
        assert_int_equal(rs->returns(ctx, s, r), 0);
        assert_float_equal(r[side], -1.0, SV_EPS);
        assert_float_equal(r[1 - side], 1.0, SV_EPS);
    }
    assert_true(firsts[0] > 0 && firsts[1] > 0); /* either side may win the initiative */
    free(s);
    free(t);
    free(acts);
    opfor_ruleset_ctx_free(rs, ctx);
}

static void working_parts(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "mounted", "defender", "block", "pikes",
                            NULL, "outflank", NULL, NULL),
                     0);
    assert_true(a.nextra > 0);
    assert_string_equal(opfor_calc_extra_key(&a, 0), "working");
    int found = 0;
    for (int i = 1; i < a.nextra; i++)
        if (strcmp(opfor_calc_extra_key(&a, i), "dice_per_stand") == 0) {
            assert_float_equal(a.extra[i].num, 2, SV_EPS);
            found = 1;
        }
    assert_true(found);
    assert_int_equal(sv_ask(&a, "breakpoints", NULL, "stands", "69", NULL), 0);
    for (int i = 1; i < a.nextra; i++)
        if (strcmp(opfor_calc_extra_key(&a, i), "quarter_exact") == 0)
            assert_float_equal(a.extra[i].num, 17.25, SV_EPS);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry_order),
        cmocka_unit_test(initiative_then_concede),
        cmocka_unit_test(working_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
