/* tests/rulesets/test_engine_invariants.c — properties that must hold in every game: over
 * thousands of random games on the built-in competitive scenario (and some with weather, the
 * XII options and the greedy policy) no figure comes back from the dead, no unit acts twice
 * in a turn, no figure ends inside impassable terrain or another base, the dead never move
 * or act, and every listed action applies; the lazy listing of one action group agrees with
 * the full list, and the random_kind policy is uniform over the groups open to a unit.
 *
 * 2000 games normally; OPFOR_TEST_SCALE (or a sanitizer build) scales the count down.
 */
#include "rulesets/vk_fixture.h"

#include "engine_int.h"
#include "opfor/viktoria/builtin.h"

static opfor_scenario_t *builtin(void) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    opfor_diag_t d;
    assert_non_null(sc);
    if (opfor_viktoria_builtin_load("competitive_default", sc, &d) != 0)
        fail_msg("competitive_default: %s", d.msg);
    return sc;
}

typedef struct checker {
    uint8_t dead[OPFOR_MAX_FIGURES];
    opfor_pt_t deadpos[OPFOR_MAX_FIGURES];
    int acted_turn[OPFOR_MAX_UNITS];
    long checks;
} checker_t;

static void check_state(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, checker_t *c,
                        int specials) {
    const opfor_scenario_t *sc = opfor_vk_ctx_scenario(ctx);
    int live[OPFOR_MAX_FIGURES], nl = 0;
    float rad[OPFOR_MAX_FIGURES];
    int inplay[OPFOR_MAX_UNITS];
    for (int u = 0; u < st->nunits; u++)
        inplay[u] = opfor_vk_unit_in_play(st, u);
    for (int i = 0; i < st->nfigures; i++) {
        const opfor_figure_t *f = &st->figures[i];
        int alive = (f->flags & OPFOR_FIG_ALIVE) != 0;
        if (c->dead[i]) {
            if (alive)
                fail_msg("figure %d came back to life", i);
            if (f->pos.x != c->deadpos[i].x || f->pos.y != c->deadpos[i].y)
                fail_msg("dead figure %d moved", i);
            continue;
        }
        if (!alive) {
            c->dead[i] = 1;
            c->deadpos[i] = f->pos;
            continue;
        }
        if (!inplay[f->unit] || (f->flags & OPFOR_FIG_REAR))
            continue;
        if (specials && st->ux[f->unit].altitude > 0)
            continue; /* flying craft pass over everything */
        int mounted = (f->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0;
        if (opfor_terrain_impassable_at(&sc->table, f->pos, mounted) >= 0)
            fail_msg("figure %d (%s) stands in impassable terrain at (%.2f, %.2f)", i,
                     st->units[f->unit].name, f->pos.x, f->pos.y);
        if (f->pos.x < 0 || f->pos.y < 0 || f->pos.x > sc->table.width ||
            f->pos.y > sc->table.depth)
            fail_msg("figure %d left the table", i);
        rad[nl] = opfor_figure_radius(&opfor_viktoria_terrain_rules.radii, f);
        live[nl++] = i;
    }
    /* no two bases overlap (touching is allowed; 0.02 in of slack for rounding) */
    for (int a = 0; a < nl; a++) {
        const opfor_figure_t *f = &st->figures[live[a]];
        for (int b = a + 1; b < nl; b++) {
            const opfor_figure_t *g = &st->figures[live[b]];
            float lim = rad[a] + rad[b] - 0.02f;
            float dx = f->pos.x - g->pos.x, dy = f->pos.y - g->pos.y;
            if (dx * dx + dy * dy < lim * lim)
                fail_msg("figures %d (%s) and %d (%s) overlap: (%.3f, %.3f) (%.3f, %.3f)", live[a],
                         st->units[f->unit].name, live[b], st->units[g->unit].name, f->pos.x,
                         f->pos.y, g->pos.x, g->pos.y);
        }
    }
    c->checks++;
}

static int alive_count(const opfor_vk_state_t *st) {
    int n = 0;
    for (int i = 0; i < st->nfigures; i++)
        n += (st->figures[i].flags & OPFOR_FIG_ALIVE) != 0;
    return n;
}

static void play_checked(const opfor_vk_ctx_t *ctx, uint64_t seed, opfor_vk_policy_t pa,
                         opfor_vk_policy_t pb, int specials, checker_t *c) {
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, seed);
    memset(c->dead, 0, sizeof c->dead);
    for (int u = 0; u < OPFOR_MAX_UNITS; u++)
        c->acted_turn[u] = -1;
    opfor_rng_t pr;
    opfor_rng_seed(&pr, seed ^ 0x55, 1);
    check_state(ctx, &st, c, specials);
    int alive = alive_count(&st);
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    for (int steps = 0; !opfor_vk_is_terminal(ctx, &st); steps++) {
        assert_true(steps < 100000);
        int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
        assert_true(n > 0 && n <= OPFOR_VK_MAX_ACTIONS);
        int cur = opfor_vk_current(ctx, &st);
        int i = cur == OPFOR_VK_CHANCE
                    ? 0
                    : opfor_vk_policy_choose(ctx, &st, cur == 0 ? pa : pb, a, n, &pr);
        if (a[i].kind == OPFOR_VK_SELECT_UNIT) {
            int u = a[i].unit;
            if (c->acted_turn[u] == st.turn)
                fail_msg("unit %d (%s) selected twice in turn %d", u, st.units[u].name, st.turn);
            c->acted_turn[u] = st.turn;
            assert_true(opfor_vk_unit_present(&st, u) > 0); /* the dead never act */
            assert_false(st.units[u].flags & OPFOR_UNIT_ACTED);
        }
        if (st.phase == OPFOR_VK_PH_ACTION)
            assert_true(opfor_vk_unit_present(&st, st.cur) > 0);
        int rc = opfor_vk_apply(ctx, &st, &a[i], NULL);
        if (rc != 0) {
            char buf[200];
            fail_msg("listed action refused: %s",
                     opfor_vk_action_str(ctx, &st, &a[i], buf, sizeof buf));
        }
        int now = alive_count(&st);
        assert_true(now <= alive); /* figure counts never grow */
        alive = now;
        check_state(ctx, &st, c, specials);
    }
}

static void invariants_hold_over_random_games(void **state) {
    (void)state;
    opfor_scenario_t *sc = builtin();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int games = (int)(2000 * fx_scale());
    if (games < 20)
        games = 20;
    checker_t c;
    memset(&c, 0, sizeof c);
    for (int g = 0; g < games; g++)
        play_checked(ctx, (uint64_t)g * 7919 + 1, OPFOR_VK_POLICY_RANDOM, OPFOR_VK_POLICY_RANDOM, 0,
                     &c);
    assert_true(c.checks > (long)games * 50);
    opfor_vk_ctx_free(ctx);
    opfor_scenario_free(sc);
    free(sc);
}

static void invariants_hold_with_weather_specials_and_greedy(void **state) {
    (void)state;
    opfor_scenario_t *sc = builtin();
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.weather_events = 1;
    opt.specials = 1;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, &opt);
    int games = (int)(200 * fx_scale());
    if (games < 10)
        games = 10;
    checker_t c;
    memset(&c, 0, sizeof c);
    for (int g = 0; g < games; g++)
        play_checked(ctx, (uint64_t)g + 99, OPFOR_VK_POLICY_RANDOM, OPFOR_VK_POLICY_RANDOM, 1, &c);
    int greedy = fx_scale() < 1.0 ? 1 : 4;
    for (int g = 0; g < greedy; g++)
        play_checked(ctx, (uint64_t)g + 5, OPFOR_VK_POLICY_GREEDY, OPFOR_VK_POLICY_RANDOM, 1, &c);
    opfor_vk_ctx_free(ctx);
    opfor_scenario_free(sc);
    free(sc);
}

static int group_of(const opfor_vk_action_t *a) {
    /* moving fire: an advance or a crawl that fires (VI) */
    return (a->kind == OPFOR_VK_ADVANCE || a->kind == OPFOR_VK_CRAWL) &&
                   (a->flags & OPFOR_VK_AF_FIRE)
               ? OPFOR_VK_GROUP_MOVING_FIRE
               : a->kind;
}

/* Lazy listing: at every decision of random games, each group's own listing is exactly that
 * group's part of the full list (same actions, same order), and the cheap group mask covers
 * every group the full list has. */
static void invariants_lazy_listing_matches_the_full_list(void **state) {
    (void)state;
    opfor_scenario_t *sc = builtin();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int games = (int)(200 * fx_scale());
    long checked = 0;
    opfor_rng_t prng;
    opfor_rng_seed(&prng, 5, 5);
    for (int g = 0; g < games; g++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)g + 1000);
        for (int step = 0; step < 5000 && opfor_vk_current(ctx, &st) != OPFOR_VK_TERMINAL; step++) {
            opfor_vk_action_t full[OPFOR_VK_MAX_ACTIONS], part[OPFOR_VK_MAX_ACTIONS];
            int n = opfor_vk_legal(ctx, &st, full, OPFOR_VK_MAX_ACTIONS);
            assert_true(n > 0);
            if (opfor_vk_current(ctx, &st) != OPFOR_VK_CHANCE && n < OPFOR_VK_MAX_ACTIONS) {
                uint32_t mask = opfor_vk_legal_groups(ctx, &st);
                for (int grp = 0; grp < OPFOR_VK_GROUP_COUNT; grp++) {
                    int m = opfor_vk_legal_group(ctx, &st, grp, part, OPFOR_VK_MAX_ACTIONS);
                    int k = 0;
                    for (int i = 0; i < n; i++) {
                        if (group_of(&full[i]) != grp)
                            continue;
                        assert_true(k < m);
                        assert_memory_equal(&full[i], &part[k], sizeof full[i]);
                        k++;
                    }
                    assert_int_equal(k, m);
                    if (m > 0 && !(mask >> grp & 1))
                        fail_msg("group %d has actions but is not in the mask", grp);
                    checked++;
                }
            }
            int i = opfor_vk_current(ctx, &st) == OPFOR_VK_CHANCE
                        ? 0
                        : (int)opfor_rng_below(&prng, (uint32_t)n);
            assert_int_equal(opfor_vk_apply(ctx, &st, &full[i], NULL), 0);
        }
    }
    assert_true(checked > 1000 * fx_scale());
    opfor_vk_ctx_free(ctx);
    free(sc);
}

/* random_kind: its lazy games replay from their logs, and at one decision it picks each open
 * group equally often (4-sigma). */
static void invariants_random_kind_is_uniform_over_groups(void **state) {
    (void)state;
    opfor_scenario_t *sc = builtin();
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    static opfor_vk_action_t log[20000];
    for (uint64_t seed = 1; seed <= 20; seed++) {
        opfor_vk_state_t fin, rep;
        int nlog = 0, done = 0;
        opfor_vk_play(ctx, seed, OPFOR_VK_POLICY_RANDOM_KIND, OPFOR_VK_POLICY_RANDOM_KIND, seed,
                      NULL, &fin, log, 20000, &nlog);
        assert_true(opfor_vk_is_terminal(ctx, &fin));
        assert_int_equal(opfor_vk_replay(ctx, seed, log, nlog, &rep, &done), 0);
        assert_true(opfor_vk_state_hash(&rep) == opfor_vk_state_hash(&fin));
    }
    /* the Fusiliers' first activation */
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 9);
    fx_activate(ctx, &st, 2);
    opfor_vk_action_t full[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, &st, full, OPFOR_VK_MAX_ACTIONS);
    int count[OPFOR_VK_GROUP_COUNT] = {0}, ngroups = 0;
    for (int i = 0; i < n; i++)
        if (count[group_of(&full[i])]++ == 0)
            ngroups++;
    assert_true(ngroups >= 3);
    int hits[OPFOR_VK_GROUP_COUNT] = {0};
    const int draws = 6000;
    opfor_rng_t r;
    opfor_rng_seed(&r, 77, 1);
    for (int k = 0; k < draws; k++)
        hits[group_of(
            &full[opfor_vk_policy_choose(ctx, &st, OPFOR_VK_POLICY_RANDOM_KIND, full, n, &r)])]++;
    for (int grp = 0; grp < OPFOR_VK_GROUP_COUNT; grp++)
        if (count[grp])
            fx_assert_rate(hits[grp], draws, 1.0 / ngroups, 4.0);
        else
            assert_int_equal(hits[grp], 0);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(invariants_hold_over_random_games),
        cmocka_unit_test(invariants_hold_with_weather_specials_and_greedy),
        cmocka_unit_test(invariants_lazy_listing_matches_the_full_list),
        cmocka_unit_test(invariants_random_kind_is_uniform_over_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
