/* tests/rulesets/test_patrol_engine.c — Patrol Mode as the rules engine's initiative hook:
 * whole games on the built-in scenario where spottings bring units into the engine state,
 * generals arrive with them, the games are reproducible, and the score reads the result.
 */
#include "opfor/viktoria/patrol_engine.h"
#include "test_patrol_fixture.h"

typedef struct game {
    pfx_t *x;
    opfor_vk_ctx_t *ctx;
    opfor_patrol_hook_t hook;
    opfor_rng_t rng;
} game_t;

static void game_open(game_t *gm, double spot_base) {
    memset(gm, 0, sizeof *gm);
    gm->x = pfx_builtin();
    gm->x->cfg.spot_base = spot_base;
    gm->hook.cfg = &gm->x->cfg;
    gm->hook.ps = &gm->x->ps;
    gm->hook.rng = &gm->rng;
    opfor_rng_seed(&gm->rng, 99, 1);
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.initiative = opfor_patrol_engine_initiative;
    opt.initiative_user = &gm->hook;
    opfor_viktoria_model_t *m = calloc(1, sizeof *m);
    opfor_diag_t d;
    assert_int_equal(opfor_viktoria_model_default(m, &d), 0);
    assert_int_equal(opfor_vk_ctx_init(&gm->ctx, &gm->x->sc, m, &opt, &d), 0);
    free(m);
}

static void game_close(game_t *gm) {
    opfor_vk_ctx_free(gm->ctx);
    pfx_free(gm->x);
}

static void patrol_engine_games_spawn_units(void **state) {
    (void)state;
    opfor_vk_state_t *final = calloc(2, sizeof *final);
    uint64_t hash[2];
    for (int run = 0; run < 2; run++) {
        game_t gm;
        game_open(&gm, 0.25);
        opfor_vk_result_t r;
        long acts = opfor_vk_play(gm.ctx, 7, OPFOR_VK_POLICY_GREEDY, OPFOR_VK_POLICY_GREEDY, 3, &r,
                                  &final[run], NULL, 0, NULL);
        assert_true(acts > 10);
        assert_true(r.over);
        hash[run] = opfor_vk_state_hash(&final[run]);
        const opfor_vk_state_t *st = &final[run];
        /* Spottings brought units in, each on the enemy side, with generals. */
        assert_true(gm.x->ps.spottings > 0);
        assert_true(gm.x->ps.placed > 0);
        assert_true(st->nunits > gm.x->sc.nunits);
        int generals = 0;
        for (int u = gm.x->sc.nunits; u < st->nunits; u++) {
            assert_int_equal(st->units[u].side, gm.x->cfg.enemy);
            assert_true(gm.x->ps.origin[u] != OPFOR_PATROL_FROM_SCENARIO);
            generals += (st->units[u].flags & OPFOR_UNIT_GENERAL) != 0;
            for (int i = st->units[u].first; i < st->units[u].first + st->units[u].count; i++)
                assert_int_equal(st->figures[i].unit, u);
        }
        assert_true(generals >= 1);
        assert_int_equal(generals, gm.x->ps.generals);
        /* The Patrol Mode score of the final position. */
        opfor_patrol_forces_t fo = {(opfor_unit_t *)st->units, (opfor_figure_t *)st->figures,
                                    st->nunits, st->nfigures};
        opfor_patrol_score_t sc;
        opfor_patrol_score(&gm.x->cfg, &gm.x->ps, &fo, &sc);
        assert_true(sc.total >= 0);
        assert_true(sc.survived <= 4);
        game_close(&gm);
    }
    /* Same seeds, same game. */
    assert_true(hash[0] == hash[1]);
    free(final);
}

static void patrol_engine_no_spotting_without_odds(void **state) {
    (void)state;
    game_t gm;
    game_open(&gm, 0.0);
    gm.x->cfg.spot_per_sqft = 0.0;
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    opfor_vk_result_t r;
    opfor_vk_play(gm.ctx, 5, OPFOR_VK_POLICY_RANDOM, OPFOR_VK_POLICY_GREEDY, 1, &r, st, NULL, 0,
                  NULL);
    assert_int_equal(gm.x->ps.spottings, 0);
    assert_int_equal(st->nunits, gm.x->sc.nunits);
    /* Nothing ready: the hook ends the turn. */
    for (int u = 0; u < st->nunits; u++)
        st->units[u].flags |= OPFOR_UNIT_ACTED;
    assert_int_equal(opfor_patrol_engine_initiative(gm.ctx, st, &gm.hook), -1);
    free(st);
    game_close(&gm);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(patrol_engine_games_spawn_units),
        cmocka_unit_test(patrol_engine_no_spotting_without_odds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
