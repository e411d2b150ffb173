/* tests/rulesets/vk_walk_fixture.h — random games for the fast-path tests.
 *
 * The fast-path tests compare the engine's cheaper code with the plain version it replaced on
 * positions taken from random games (and on shaken copies of them). These helpers play the
 * games with fixed seeds and call the test's visitor at every unit's action, so that each test
 * only writes its comparison. Static inline, like vk_fixture.h.
 */
#ifndef OPFOR_TEST_VK_WALK_FIXTURE_H
#define OPFOR_TEST_VK_WALK_FIXTURE_H

#include "rulesets/vk_fixture.h"

/* A visitor of fx_walk: called at every unit's action (ACTION phase) with the position as
 * played; returns the comparisons it made. */
typedef long (*fx_visit_t)(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, void *user);

/* Plays the chosen action a on st for fx_walk (checking whatever it likes). */
typedef void (*fx_apply_t)(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st,
                           const opfor_vk_action_t *a, void *user);

/* How fx_walk plays its random games. */
typedef struct {
    opfor_rng_t *pick;  /* the players' choices (a chance node takes its first action) */
    uint64_t game_seed; /* game g starts from the seed game_seed + g */
    int steps;          /* the most actions played in one game */
    fx_visit_t visit;   /* called at every unit's action, or NULL */
    fx_apply_t apply;   /* plays the choice; NULL: opfor_vk_apply, which must succeed */
    void *user;         /* passed to visit and apply */
} fx_walk_t;

/* Plays `games` random games on ctx as w says. Returns the sum of the visitor's returns. */
static inline long fx_walk(const opfor_vk_ctx_t *ctx, int games, const fx_walk_t *w) {
    opfor_vk_state_t *st = malloc(sizeof *st);
    assert_non_null(st);
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    long total = 0;
    for (int g = 0; g < games; g++) {
        opfor_vk_state_init(ctx, st, w->game_seed + (uint64_t)g);
        for (int step = 0; step < w->steps && opfor_vk_current(ctx, st) != OPFOR_VK_TERMINAL;
             step++) {
            int n = opfor_vk_legal(ctx, st, acts, OPFOR_VK_MAX_ACTIONS);
            assert_true(n > 0);
            if (st->phase == OPFOR_VK_PH_ACTION && w->visit)
                total += w->visit(ctx, st, w->user);
            int i = opfor_vk_current(ctx, st) == OPFOR_VK_CHANCE
                        ? 0
                        : (int)opfor_rng_below(w->pick, (uint32_t)n);
            if (w->apply)
                w->apply(ctx, st, &acts[i], w->user);
            else
                assert_int_equal(opfor_vk_apply(ctx, st, &acts[i], NULL), 0);
        }
    }
    free(st);
    return total;
}

/* Plays `games` random games on ctx (game g from seed * 1000 + g + first, choices from the
 * stream (seed, 1), at most 4000 actions each) and calls visit at every unit's action. Returns
 * the sum of its returns. */
static inline long fx_walk_games(const opfor_vk_ctx_t *ctx, int games, uint64_t seed,
                                 uint64_t first, fx_visit_t visit, void *user) {
    opfor_rng_t pr;
    opfor_rng_seed(&pr, seed, 1);
    fx_walk_t w = {&pr, seed * 1000 + first, 4000, visit, NULL, user};
    return fx_walk(ctx, games, &w);
}

/* fx_walk_games on sc with the XII options and the weather events on or off, handing visit a
 * zeroed scratch of `size` bytes whose first member is an opfor_rng_t seeded (seed, 2). */
static inline long fx_walk_scratch(const opfor_scenario_t *sc, int specials, int weather_events,
                                   int games, uint64_t seed, uint64_t first, fx_visit_t visit,
                                   size_t size) {
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, specials, weather_events);
    void *user = calloc(1, size);
    assert_non_null(user);
    opfor_rng_seed((opfor_rng_t *)user, seed, 2);
    long checked = fx_walk_games(ctx, games, seed, first, visit, user);
    free(user);
    opfor_vk_ctx_free(ctx);
    return checked;
}

/* Shakes figure f by the draw k (as the fast-path tests do): 0 kills it, 1 sends it to the
 * rear, 2 wounds or heals it. Returns 0, leaving f alone, for any other draw. */
static inline int fx_shake_figure(opfor_figure_t *f, uint32_t k) {
    if (k == 0)
        f->flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    else if (k == 1)
        f->flags |= OPFOR_FIG_REAR;
    else if (k == 2)
        f->flags ^= OPFOR_FIG_WOUNDED;
    else
        return 0;
    return 1;
}

#endif
