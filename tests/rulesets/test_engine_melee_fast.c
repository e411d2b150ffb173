/* tests/rulesets/test_engine_melee_fast.c — the fast charge reach as the plain version.
 *
 * rulesets/viktoria/engine_melee.c finds a unit's charge allowance (charge_x, behind
 * vk_charge_reach) by gathering the kinds of person present (quality, mounted, wounded) and
 * reading the move table once per kind, asking vk_move_x only for equipment and for the units
 * that move by the special rules. Games must not change, so this plays random games on three
 * tables (the built-in encounter with and without the special rules, the machines demo with
 * walkers, vehicles and automatons), and at every action asks the reach of every unit on the
 * position as played and shaken (figures killed, sent to the rear, wounded, mounted, given
 * another quality, turned into equipment), comparing it to the bit with the code as first
 * written (below, unchanged).
 */
#include "rulesets/vk_walk_fixture.h"

#include "engine_int.h"
#include "opfor/rng.h"
#include "opfor/scenario.h"
#include "opfor/viktoria/builtin.h"

/* ---------------------------------------------------------------- the plain version */

static int ref_charge_x(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int best = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        int x = vk_move_x(ctx, st, i, VK_MV_CHARGE);
        if (x > best)
            best = x;
    }
    return best;
}

static float ref_charge_reach(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return (float)(ref_charge_x(ctx, st, u) + 3);
}

/* ---------------------------------------------------------------- the comparison */

/* Every unit's reach by the engine and by the reference; returns the comparisons made. */
static int compare_all(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    for (int u = 0; u < st->nunits; u++) {
        float a = vk_charge_reach(ctx, st, u), b = ref_charge_reach(ctx, st, u);
        assert_memory_equal(&a, &b, sizeof a);
    }
    return st->nunits;
}

/* At one action: the position as played and a shaken copy (kills, rear, wounds, mounts,
 * qualities and equipment flipped at random). */
typedef struct {
    opfor_rng_t jr; /* first: fx_walk_scratch seeds it */
    opfor_vk_state_t tmp;
} shake_t;

static long visit(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, void *user) {
    shake_t *sh = user;
    long checked = compare_all(ctx, st);
    opfor_vk_state_t *tmp = &sh->tmp;
    memcpy(tmp, st, sizeof *tmp);
    for (int i = 0; i < tmp->nfigures; i++) {
        opfor_figure_t *f = &tmp->figures[i];
        uint32_t k = opfor_rng_below(&sh->jr, 12);
        if (fx_shake_figure(f, k))
            continue;
        if (k == 3)
            f->flags ^= OPFOR_FIG_MOUNTED;
        else if (k == 4)
            f->quality = (uint8_t)opfor_rng_below(&sh->jr, OPFOR_Q_COUNT);
        else if (k == 5 && opfor_rng_below(&sh->jr, 4) == 0)
            f->flags ^= OPFOR_FIG_EQUIPMENT;
    }
    return checked + compare_all(ctx, tmp);
}

/* Plays random games on sc and compares at every action, on the position as played and
 * shaken. Returns the comparisons made. */
static long compare_games(const opfor_scenario_t *sc, int specials, int games, uint64_t seed) {
    return fx_walk_scratch(sc, specials, 0, games, seed, 1, visit, sizeof(shake_t));
}

static void melee_fast_encounter(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_builtin("competitive_default");
    int games = (int)(10 * fx_scale()) + 2;
    assert_true(compare_games(sc, 0, games, 41) > 4000 * fx_scale());
    assert_true(compare_games(sc, 1, games, 42) > 4000 * fx_scale());
    fx_scenario_free(sc);
}

static void melee_fast_machines(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_machines_demo();
    int games = (int)(8 * fx_scale()) + 2;
    assert_true(compare_games(sc, 1, games, 51) > 2000 * fx_scale());
    assert_true(compare_games(sc, 0, games / 2 + 1, 52) > 1000 * fx_scale());
    fx_scenario_free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(melee_fast_encounter),
        cmocka_unit_test(melee_fast_machines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
