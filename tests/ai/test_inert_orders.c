/* tests/ai/test_inert_orders.c — orders that do not happen are not given.
 *
 * A move that the engine moves less than a quarter inch even at the best roll (a man behind
 * his own picket's bases, a rider against a farmhouse wall) and a fire order no figure can
 * fire are inert (the ruleset's `inert` hook); the AI's choice (opfor_ai_choose_in, used by
 * opfor_ai_decide and the arena) skips them while the search offers anything else, and over
 * seeded games no decision of the AI is inert.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ai/viktoria_fixture.h"
#include "ai/vkfix_units.h"
#include "opfor/ai.h"
#include "opfor/mcts.h"
#include "opfor/viktoria/ai.h"
#include "opfor/viktoria/engine_query.h"

/* clang-format off */
static const char BLOCKED[] =
    VKFIX_HEAD
    "terrain:\n"
    "  - {name: Farmhouse, kind: building, rect: [46, 30, 6, 4]}\n"
    "units:\n"
    VKFIX_UNIT("Hussars", "Red", "cavalry", "[45.9, 32]")
    "      - {count: 1, mounted: true, weapons: [sword, pistol]}\n"
    VKFIX_UNIT("Oberst", "Red", "infantry", "[19.25, 22]")
    "      - {count: 1, quality: veteran, weapons: [rifle]}\n"
    VKFIX_UNIT("Picket", "Red", "infantry", "[20, 20.9]")
    "      - {count: 8, weapons: [rifle]}\n"
    VKFIX_UNIT("Jager", "Blue", "infantry", "[66, 44]") VKFIX_RIFLES(8)
    "objectives:\n"
    "  - {name: The Farm, position: [49, 32], radius: 4, points: 5}\n";
/* clang-format on */

static int inert(const vkfix_t *f, const opfor_action_t *a) {
    return opfor_viktoria_ruleset.ai->inert(f->ctx, f->st, a);
}

/* The hook: what does not happen is inert, what does is not. */
static void inert_moves_and_fire(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, BLOCKED, 1), 0);
    int u = vkfix_act(&f, "Oberst"), jager = vkfix_unit(&f, "Jager");
    opfor_pt_t c = vkfix_centre(&f, u);
    opfor_action_t a = vkfix_action(OPFOR_VK_ADVANCE, u, -1, c.x, c.y - 10.0f);
    assert_int_equal(inert(&f, &a), 1); /* through its own picket's bases */
    a = vkfix_action(OPFOR_VK_RUN, u, -1, c.x, c.y - 10.0f);
    assert_int_equal(inert(&f, &a), 1);
    a = vkfix_action(OPFOR_VK_ADVANCE, u, -1, c.x, c.y + 10.0f);
    assert_int_equal(inert(&f, &a), 0); /* away from it: a move */
    a = vkfix_action(OPFOR_VK_CRAWL, u, -1, c.x, c.y);
    assert_int_equal(inert(&f, &a), 0); /* going prone where it stands: taking cover */
    a = vkfix_action(OPFOR_VK_STAND, u, -1, 0, 0);
    assert_int_equal(inert(&f, &a), 0);
    /* the Jager are 50 in away: a rifle may reach them */
    a = vkfix_action(OPFOR_VK_FIRE, u, jager, 0, 0);
    assert_true(opfor_vk_query_shooters(opfor_vk_rs_engine(f.ctx), &f.st->vk, u, jager, 0) > 0);
    assert_int_equal(inert(&f, &a), 0);
    vkfix_close(&f);

    /* a rider against the farmhouse wall, told to gallop into it */
    assert_int_equal(vkfix_open(&f, BLOCKED, 1), 0);
    u = vkfix_act(&f, "Hussars");
    c = vkfix_centre(&f, u);
    a = vkfix_action(OPFOR_VK_RUN, u, -1, 49.0f, 32.0f);
    assert_int_equal(inert(&f, &a), 1);
    a = vkfix_action(OPFOR_VK_RUN, u, -1, c.x - 10.0f, 32.0f);
    assert_int_equal(inert(&f, &a), 0);
    /* its pistols do not reach the Jager, 23 in away: a fire order nobody can fire */
    jager = vkfix_unit(&f, "Jager");
    a = vkfix_action(OPFOR_VK_FIRE, u, jager, 0, 0);
    assert_int_equal(opfor_vk_query_shooters(opfor_vk_rs_engine(f.ctx), &f.st->vk, u, jager, 0), 0);
    assert_int_equal(inert(&f, &a), 1);
    vkfix_close(&f);
}

/* The choice skips inert actions at the top of the search, keeps the level's choice when
 * none is inert, and finds a legal action that is not when all are. */
static void inert_never_chosen(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, BLOCKED, 1), 0);
    int u = vkfix_act(&f, "Oberst");
    opfor_pt_t c = vkfix_centre(&f, u);
    opfor_mcts_result_t r;
    memset(&r, 0, sizeof r);
    r.nchoices = 3;
    r.top[0].action = vkfix_action(OPFOR_VK_ADVANCE, u, -1, c.x, c.y - 10.0f); /* inert */
    r.top[0].visits = 900;
    r.top[1].action = vkfix_action(OPFOR_VK_RUN, u, -1, c.x, c.y - 12.0f); /* inert */
    r.top[1].visits = 50;
    r.top[2].action = vkfix_action(OPFOR_VK_ADVANCE, u, -1, c.x + 6.0f, c.y + 10.0f);
    r.top[2].visits = 40;
    for (uint64_t d = 0; d < 20; d++)
        assert_int_equal(opfor_ai_choose_in(&f.game, f.st, OPFOR_AI_NOVICE, &r, 1, d), 2);
    /* nothing inert: the level's own choice */
    opfor_mcts_result_t live = r;
    live.top[0] = r.top[2];
    live.top[1] = r.top[2];
    live.top[1].action.y -= 1.0f;
    for (uint64_t d = 0; d < 20; d++)
        assert_int_equal(opfor_ai_choose_in(&f.game, f.st, OPFOR_AI_NOVICE, &live, 1, d),
                         opfor_ai_choose(OPFOR_AI_NOVICE, &live, 1, d));
    /* all inert: the last entry becomes a legal action that is not */
    r.nchoices = 2;
    int k = opfor_ai_choose_in(&f.game, f.st, OPFOR_AI_RUTHLESS, &r, 1, 0);
    assert_int_equal(k, 1);
    assert_int_equal(inert(&f, &r.top[1].action), 0);
    assert_int_equal(r.top[1].visits, 0);
    vkfix_close(&f);
}

/* Seeded games, the AI at the lowest level against random play: no decision it makes at the
 * action phase is inert. */
static void inert_never_decided_in_games(void **state) {
    (void)state;
    void *ctx = NULL;
    opfor_diag_t dg;
    assert_int_equal(opfor_ruleset_ctx_new(&opfor_viktoria_ruleset, NULL, &ctx, &dg), 0);
    opfor_game_t game;
    assert_int_equal(opfor_game_init(&game, &opfor_viktoria_ruleset, ctx, 0), 0);
    const opfor_evaluator_t *ev = opfor_ai_evaluator(&opfor_viktoria_ruleset);
    opfor_vk_rs_state_t *s = malloc(sizeof *s);
    opfor_action_t *acts = malloc(OPFOR_VK_RS_MAX_ACTIONS * sizeof *acts);
    opfor_ai_decision_t *d = malloc(sizeof *d);
    assert_non_null(s);
    assert_non_null(acts);
    assert_non_null(d);
    int decided = 0, moves = 0;
    for (int g = 0; g < 3; g++) {
        opfor_mcts_config_t cfg;
        opfor_mcts_config_default(&cfg);
        opfor_ai_search_tuning(&opfor_viktoria_ruleset, &cfg);
        cfg.seed = 40 + (uint64_t)g;
        cfg.memory_bytes = (size_t)8 << 20;
        opfor_mcts_t *m = NULL;
        assert_int_equal(opfor_mcts_create(&m, &opfor_viktoria_ruleset, &cfg, 0), 0);
        opfor_rng_t rng;
        opfor_rng_seed(&rng, (uint64_t)g, 15);
        assert_int_equal(opfor_game_new_state(&game, s, 700 + (uint64_t)g), 0);
        int ai = g % 2;
        uint64_t decision = 0;
        for (int step = 0; step < 20000; step++) {
            int p = opfor_game_current(&game, s);
            if (p == OPFOR_PLAYER_TERMINAL)
                break;
            int n = opfor_game_legal(&game, s, acts, OPFOR_VK_RS_MAX_ACTIONS);
            assert_true(n > 0);
            opfor_action_t act = acts[0];
            if (p == ai) {
                int phase = s->vk.phase;
                assert_int_equal(opfor_ai_decide_opts(m, &game, s, ev, OPFOR_AI_NOVICE, decision++,
                                                      NULL, OPFOR_AI_EXACT, d),
                                 0);
                act = d->action;
                if (phase == OPFOR_VK_PH_ACTION) {
                    decided++;
                    moves += act.kind == OPFOR_VK_ADVANCE || act.kind == OPFOR_VK_RUN;
                    if (opfor_viktoria_ruleset.ai->inert(ctx, s, &act) != 0) {
                        char what[96];
                        opfor_game_action_str(&game, s, &act, what, sizeof what);
                        fail_msg("game %d, decision %llu: inert %s", g,
                                 (unsigned long long)decision, what);
                    }
                }
            } else if (p >= 0) {
                act = acts[opfor_rng_below(&rng, (uint32_t)n)];
            }
            assert_int_equal(opfor_game_apply(&game, s, &act), 0);
        }
        opfor_mcts_free(m);
    }
    assert_true(decided > 20 && moves > 5);
    free(d);
    free(acts);
    free(s);
    opfor_ruleset_ctx_free(&opfor_viktoria_ruleset, ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inert_moves_and_fire),
        cmocka_unit_test(inert_never_chosen),
        cmocka_unit_test(inert_never_decided_in_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
