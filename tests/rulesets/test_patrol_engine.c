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

/* The engine's reinforce hook over the test's patrol hook. */
static int reinforce(const struct opfor_vk_ctx *ctx, const struct opfor_vk_state *st, int side,
                     void *user) {
    (void)ctx;
    const opfor_patrol_hook_t *h = user;
    return opfor_patrol_engine_may_reinforce(h->cfg, h->ps, st, side);
}

/* A game on the built-in patrol scenario with the Patrol Mode hook; with_reinforce also plugs
 * the reinforce hook in (the enemy is beaten only when none may appear). */
static void game_open_with(game_t *gm, double spot_base, int with_reinforce) {
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
    opt.reinforce = with_reinforce ? reinforce : NULL;
    opt.initiative_user = &gm->hook;
    opfor_viktoria_model_t *m = calloc(1, sizeof *m);
    opfor_diag_t d;
    assert_int_equal(opfor_viktoria_model_default(m, &d), 0);
    assert_int_equal(opfor_vk_ctx_init(&gm->ctx, &gm->x->sc, m, &opt, &d), 0);
    free(m);
}

static void game_open(game_t *gm, double spot_base) {
    game_open_with(gm, spot_base, 0);
}

static void game_open_reinforced(game_t *gm, double spot_base) {
    game_open_with(gm, spot_base, 1);
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
    /* no unit was placed: every unit is the scenario's (a split, V.A, may cut one in two) */
    assert_int_equal(gm.x->ps.placed, 0);
    for (int u = 0; u < st->nunits; u++)
        assert_int_equal(gm.x->ps.origin[u], OPFOR_PATROL_FROM_SCENARIO);
    /* nothing was spawned: no figure was added (a unit may have split, V.A, which adds a unit
       but no figure) */
    assert_int_equal(st->nfigures, gm.x->sc.nfigures);
    assert_true(st->nunits >= gm.x->sc.nunits);
    /* Nothing ready: the hook ends the turn. */
    for (int u = 0; u < st->nunits; u++)
        st->units[u].flags |= OPFOR_UNIT_ACTED;
    assert_int_equal(opfor_patrol_engine_initiative(gm.ctx, st, &gm.hook), -1);
    free(st);
    game_close(&gm);
}

/* Plays st on with greedy choices until the game is over or `steps` decisions were made;
 * returns the decisions made. */
static int play_on(game_t *gm, opfor_vk_state_t *st, int steps) {
    opfor_vk_action_t *acts = calloc(OPFOR_VK_MAX_ACTIONS, sizeof *acts);
    opfor_rng_t prng;
    opfor_rng_seed(&prng, 5, 2);
    int k = 0;
    for (; k < steps; k++) {
        opfor_vk_settle(gm->ctx, st, NULL);
        if (opfor_vk_is_terminal(gm->ctx, st))
            break;
        int n = opfor_vk_legal(gm->ctx, st, acts, OPFOR_VK_MAX_ACTIONS);
        assert_true(n > 0);
        int i = opfor_vk_policy_choose(gm->ctx, st, OPFOR_VK_POLICY_GREEDY, acts, n, &prng);
        assert_int_equal(opfor_vk_apply(gm->ctx, st, &acts[i], NULL), 0);
    }
    free(acts);
    return k;
}

static void kill_side(opfor_vk_state_t *st, int side) {
    for (int i = 0; i < st->nfigures; i++)
        if (st->units[st->figures[i].unit].side == side)
            st->figures[i].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
}

/* Destroying every enemy unit on the table ends a Patrol Mode game only when no more enemies
 * can appear (docs/patrol-mode.md): while spottings may still place units, play goes on and
 * the next spotting brings a new enemy; without the reinforce hook (or with the spotting
 * limit reached) the players have won at the next end check. */
static void patrol_engine_empty_enemy_waits_for_spottings(void **state) {
    (void)state;
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    /* With the hook and spottings to come: the game goes on until a unit is placed. */
    game_t gm;
    game_open_reinforced(&gm, 0.2);
    int enemy = gm.x->cfg.enemy;
    opfor_vk_state_init(gm.ctx, st, 11);
    kill_side(st, enemy);
    int n0 = st->nunits;
    int steps = play_on(&gm, st, 400);
    assert_true(gm.x->ps.placed > 0);
    assert_true(st->nunits > n0);
    assert_true(steps > 3);
    /* The game lasted beyond the first activation: it is over only by the turn limit, or
     * still running, or a side lost after the new enemies came. */
    if (opfor_vk_is_terminal(gm.ctx, st))
        assert_true(st->turn > 1 || st->nunits > n0);
    game_close(&gm);

    /* Spotting limit reached, or no reinforce hook (the plain engine): the enemy is beaten at
       the next end check, and nothing was spotted. */
    for (int variant = 0; variant < 2; variant++) {
        game_open_with(&gm, 0.2, variant == 0);
        if (variant == 0) {
            gm.x->cfg.spot_limit = 2;
            gm.x->ps.placed = 2;
        }
        opfor_vk_state_init(gm.ctx, st, 11);
        kill_side(st, enemy);
        steps = play_on(&gm, st, 400);
        assert_true(steps <= 1);
        assert_true(opfor_vk_is_terminal(gm.ctx, st));
        assert_int_equal(st->winner, gm.x->cfg.player);
        assert_int_equal(gm.x->ps.placed, variant == 0 ? 2 : 0);
        game_close(&gm);
    }

    /* The players' side never gains units: losing them all ends the game at once. */
    game_open_reinforced(&gm, 0.2);
    opfor_vk_state_init(gm.ctx, st, 11);
    kill_side(st, gm.x->cfg.player);
    opfor_vk_settle(gm.ctx, st, NULL);
    steps = play_on(&gm, st, 400);
    assert_true(opfor_vk_is_terminal(gm.ctx, st));
    assert_true(steps <= 1);
    free(st);
    game_close(&gm);
}

/* Units a spotting brings on may act at once (XV.B): when the enemy has nobody ready and a
 * press spots a unit, the next press may hand it the initiative. (The engine used to decide
 * who could act before its hook spawned anything, so the newcomer had to wait.) */
static void patrol_engine_spotted_units_may_act_at_once(void **state) {
    (void)state;
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    game_t gm;
    game_open_reinforced(&gm, 0.5);
    gm.x->cfg.spot_max = 0.6;
    const opfor_patrol_state_t ps0 = gm.x->ps;
    int enemy = gm.x->cfg.enemy, spotted = 0, enemy_first = 0;
    for (uint64_t seed = 1; seed <= 120; seed++) {
        gm.x->ps = ps0;
        opfor_vk_state_init(gm.ctx, st, seed);
        kill_side(st, enemy);
        int n0 = st->nunits;
        opfor_vk_settle(gm.ctx, st, NULL);
        assert_false(opfor_vk_is_terminal(gm.ctx, st));
        assert_int_equal(st->phase, OPFOR_VK_PH_SELECT_UNIT);
        assert_true(opfor_vk_side_ready(gm.ctx, st, st->side)); /* whoever got it can act */
        if (st->nunits > n0) {
            spotted++;
            enemy_first += st->side == enemy;
        }
    }
    /* with a 50% spotting chance and one new unit against five players, about one game in
       eleven: 120 games give a handful */
    assert_true(spotted >= 30);
    assert_true(enemy_first >= 2);
    free(st);
    game_close(&gm);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(patrol_engine_games_spawn_units),
        cmocka_unit_test(patrol_engine_no_spotting_without_odds),
        cmocka_unit_test(patrol_engine_empty_enemy_waits_for_spottings),
        cmocka_unit_test(patrol_engine_spotted_units_may_act_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
