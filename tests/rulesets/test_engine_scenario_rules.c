/* tests/rulesets/test_engine_scenario_rules.c — the optional rules a scenario names
 * (rulesets/viktoria/scenario_rules.c): the sequence of play of V.A, including the order fixed
 * for the whole game; the starting weather rolled when the scenario says `random` (XIII); the
 * machine rules (XII) a scenario with machines gets unless it turns them off; and the errors a
 * bad `rules:` block gives at its line and column.
 *
 * Distributions use fixed seeds and a 4-sigma band.
 */
#include "rulesets/vk_fixture.h"

#include <math.h>

#include "engine_int.h"

/* A small competitive scenario with two units a side; top is YAML put before `units:`. */
static opfor_scenario_t *small(const char *top, const char *extra_unit) {
    static char yaml[4096];
    snprintf(yaml, sizeof yaml,
             "name: Rules test\n"
             "mode: competitive\n"
             "table: {width: 48, depth: 48}\n"
             "sides:\n"
             "  - {name: Blue, edge: bottom}\n"
             "  - {name: Red, edge: top}\n"
             "%s"
             "units:\n"
             "  - {name: B1, side: Blue, type: infantry, position: [12, 6], facing: N,\n"
             "     self_commanding: true, figures: [{count: 3, weapons: rifle, skills: leader}]}\n"
             "  - {name: B2, side: Blue, type: infantry, position: [36, 6], facing: N,\n"
             "     self_commanding: true, figures: [{count: 3, weapons: rifle, skills: leader}]}\n"
             "  - {name: R1, side: Red, type: infantry, position: [12, 42], facing: S,\n"
             "     self_commanding: true, figures: [{count: 3, weapons: rifle, skills: leader}]}\n"
             "  - {name: R2, side: Red, type: infantry, position: [36, 42], facing: S,\n"
             "     self_commanding: true, figures: [{count: 3, weapons: rifle, skills: leader}]}\n"
             "%s",
             top, extra_unit);
    return fx_load(yaml, "rules.yaml");
}

/* Plays whole turns of stands; fills first[t] with the side that acted first in turn t+1. */
static void first_sides(const opfor_vk_ctx_t *ctx, uint64_t seed, int turns, int *first) {
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    opfor_vk_state_init(ctx, st, seed);
    int seen = 0;
    for (int steps = 0; steps < 400 && st->turn <= turns; steps++) {
        int who = opfor_vk_current(ctx, st);
        if (who == OPFOR_VK_TERMINAL)
            break;
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        if (who == OPFOR_VK_CHANCE) {
            opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
            assert_int_equal(opfor_vk_apply(ctx, st, &roll, NULL), 0);
            continue;
        }
        if (st->phase == OPFOR_VK_PH_SELECT_UNIT && st->turn > seen) {
            first[st->turn - 1] = st->side;
            seen = st->turn;
        }
        int n = opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS);
        assert_true(n > 0);
        int pick = 0; /* select the first ready unit, then stand (or the first legal action) */
        for (int i = 0; i < n; i++)
            if (a[i].kind == OPFOR_VK_STAND) {
                pick = i;
                break;
            }
        assert_int_equal(opfor_vk_apply(ctx, st, &a[pick], NULL), 0);
    }
    assert_true(seen >= turns);
    free(st);
}

/* V.A: "the same sequence for the entire game" — one roll, kept every turn; the per-turn
 * variant rolls again (over 20 seeds some game changes its first side). */
static void rules_side_by_side_fixed_keeps_the_first_side(void **state) {
    (void)state;
    opfor_scenario_t *fixed = small("rules: {sequence: side_by_side_fixed}\n", "");
    opfor_scenario_t *each = small("rules: {sequence: side_by_side}\n", "");
    opfor_vk_ctx_t *cf = fx_ctx(fixed, NULL), *ce = fx_ctx(each, NULL);
    assert_int_equal(cf->opt.seq, OPFOR_VK_SEQ_SIDE_BY_SIDE_FIXED);
    assert_int_equal(ce->opt.seq, OPFOR_VK_SEQ_SIDE_BY_SIDE);
    int changed = 0, blue_first = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        int f[4], e[4];
        first_sides(cf, seed, 4, f);
        for (int t = 1; t < 4; t++)
            assert_int_equal(f[t], f[0]);
        blue_first += f[0] == 0;
        first_sides(ce, seed, 4, e);
        for (int t = 1; t < 4; t++)
            changed += e[t] != e[0];
    }
    assert_true(changed > 0);
    assert_true(blue_first > 0 && blue_first < 20); /* the one roll is still a roll */
    opfor_vk_ctx_free(cf);
    opfor_vk_ctx_free(ce);
    fx_scenario_free(fixed);
    fx_scenario_free(each);
}

/* XIII: a random starting level is one D6 less two, at least 1 (1: 1/2, 2..4: 1/6 each, never
 * 5); a random wind is one of the eight points, each 1/8. Same seed, same weather. */
static void rules_random_weather_is_a_die_less_two(void **state) {
    (void)state;
    opfor_scenario_t *sc = small("weather: {level: random, wind: random}\n", "");
    assert_int_equal(sc->weather.level, 0);
    assert_int_equal(sc->weather.wind_random, 1);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    const int N = 1200;
    int lv[6] = {0}, wind[8] = {0};
    opfor_vk_state_t *st = calloc(1, sizeof *st), *again = calloc(1, sizeof *again);
    for (int s = 1; s <= N; s++) {
        opfor_vk_state_init(ctx, st, (uint64_t)s);
        opfor_vk_state_init(ctx, again, (uint64_t)s);
        assert_int_equal(st->level, again->level);
        assert_int_equal(st->wind, again->wind);
        assert_true(st->level >= 1 && st->level <= 5);
        lv[st->level]++;
        wind[st->wind & 7]++;
    }
    double want[6] = {0, N / 2.0, N / 6.0, N / 6.0, N / 6.0, 0};
    for (int l = 1; l <= 5; l++) {
        double p = want[l] / N, sd = sqrt(N * p * (1 - p));
        assert_true(fabs(lv[l] - want[l]) <= 4 * sd + 0.5);
    }
    double sd8 = sqrt(N * (1 / 8.0) * (7 / 8.0));
    for (int w = 0; w < 8; w++)
        assert_true(fabs(wind[w] - N / 8.0) <= 4 * sd8);
    /* a set level is kept, and draws nothing from the game's dice */
    opfor_scenario_t *set = small("weather: {level: 4, wind: SW}\n", "");
    opfor_vk_ctx_t *cs = fx_ctx(set, NULL);
    opfor_vk_state_init(cs, st, 9);
    assert_int_equal(st->level, 4);
    assert_int_equal(st->wind, OPFOR_SW);
    /* a game at a rolled level plays (the chance tables cover every level) */
    uint64_t s3 = 1;
    for (; s3 <= 40; s3++) {
        opfor_vk_state_init(ctx, st, s3);
        if (st->level >= 3)
            break;
    }
    assert_true(st->level >= 3);
    opfor_vk_result_t r;
    assert_true(opfor_vk_play(ctx, s3, OPFOR_VK_POLICY_RANDOM, OPFOR_VK_POLICY_RANDOM, 1, &r, again,
                              NULL, 0, NULL) > 0);
    assert_true(r.turn >= 1);
    free(st);
    free(again);
    opfor_vk_ctx_free(cs);
    opfor_vk_ctx_free(ctx);
    fx_scenario_free(set);
    fx_scenario_free(sc);
}

/* XII: a scenario with a machine plays the machine rules unless `rules: {machines: no}`;
 * weather events (XIII) only when asked for; options passed in stay on. */
static void rules_machines_on_with_a_machine(void **state) {
    (void)state;
    const char *car = "  - {name: Car, side: Blue, type: vehicle, position: [24, 12], facing: N,\n"
                      "     self_commanding: true, figures: [{count: 1, equipment: true, "
                      "weapons: mg}, {count: 1, weapons: pistol, skills: [leader, crew],\n"
                      "     positions: [[24, 9]]}]}\n";
    opfor_scenario_t *plain = small("", ""), *with = small("", car),
                     *off = small("rules: {machines: no}\n", car),
                     *wx = small("rules: {weather_events: yes}\n", "");
    opfor_vk_ctx_t *c1 = fx_ctx(plain, NULL), *c2 = fx_ctx(with, NULL), *c3 = fx_ctx(off, NULL),
                   *c4 = fx_ctx(wx, NULL), *c5 = fx_ctx_opt(off, 1, 0);
    assert_int_equal(c1->opt.specials, 0);
    assert_int_equal(c2->opt.specials, 1);
    assert_int_equal(c3->opt.specials, 0);
    assert_int_equal(c5->opt.specials, 1); /* the caller's --specials stays on */
    assert_int_equal(c1->opt.weather_events, 0);
    assert_int_equal(c4->opt.weather_events, 1);
    opfor_vk_ctx_free(c1);
    opfor_vk_ctx_free(c2);
    opfor_vk_ctx_free(c3);
    opfor_vk_ctx_free(c4);
    opfor_vk_ctx_free(c5);
    fx_scenario_free(plain);
    fx_scenario_free(with);
    fx_scenario_free(off);
    fx_scenario_free(wx);
}

/* A bad rules block fails the load at the value, saying what is allowed. */
static void rules_block_errors_name_line_and_column(void **state) {
    (void)state;
    static const struct {
        const char *top;
        int line, col;
        const char *says;
    } cases[] = {
        {"rules: {sequence: alternate}\n", 7, 19, "side_by_side_fixed"},
        {"rules: {machine: yes}\n", 7, 9, "machine"},
        {"rules: {weather_events: often}\n", 7, 25, "weather_events"},
        {"rules: [machines]\n", 7, 9, "rules"},
        {"weather: {level: randomly}\n", 7, 18, "weather level"},
        {"weather: {level: 6}\n", 7, 18, "weather level"},
        {"weather: {wind: anywhere}\n", 7, 17, "wind"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char yaml[2048];
        snprintf(yaml, sizeof yaml,
                 "name: Rules test\nmode: competitive\ntable: {width: 48, depth: 48}\n"
                 "sides:\n  - {name: Blue, edge: bottom}\n  - {name: Red, edge: top}\n%s"
                 "units:\n  - {name: B1, side: Blue, type: infantry, position: [12, 6],\n"
                 "     figures: [{count: 2, weapons: rifle, skills: leader}]}\n"
                 "  - {name: R1, side: Red, type: infantry, position: [12, 42],\n"
                 "     figures: [{count: 2, weapons: rifle, skills: leader}]}\n",
                 cases[i].top);
        opfor_scenario_t *sc = calloc(1, sizeof *sc);
        opfor_diag_t d;
        int rc = opfor_viktoria_scenario_load_string(yaml, strlen(yaml), "r.yaml", sc, &d);
        if (rc == 0 || d.line != cases[i].line || d.col != cases[i].col ||
            !strstr(d.msg, cases[i].says))
            fprintf(stderr, "case %zu: rc %d at %d:%d '%s'\n", i, rc, d.line, d.col, d.msg);
        assert_true(rc < 0);
        assert_int_equal(d.line, cases[i].line);
        assert_int_equal(d.col, cases[i].col);
        assert_non_null(strstr(d.msg, cases[i].says));
        free(sc);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rules_side_by_side_fixed_keeps_the_first_side),
        cmocka_unit_test(rules_random_weather_is_a_die_less_two),
        cmocka_unit_test(rules_machines_on_with_a_machine),
        cmocka_unit_test(rules_block_errors_name_line_and_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
