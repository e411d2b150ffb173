/* tests/ai/test_levels.c — difficulty levels: the table, the choice among near-best
 * actions, and the explained decision.
 *
 * The choice is checked as a distribution: over many decision numbers with a fixed game
 * seed, the frequencies must match visits^(1/T) normalised over the actions above the
 * cutoff, within stated tolerances, and actions below the cutoff must never be drawn.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <string.h>

#include "ai/toy_games.c"
#include "opfor/ai.h"
#include "opfor/orders.h"

/* A made-up search result with the given root visits (most first). */
static void fake_result(opfor_mcts_result_t *r, const uint32_t *visits, int n) {
    memset(r, 0, sizeof *r);
    r->nchoices = r->nroot = n;
    for (int i = 0; i < n; i++) {
        r->top[i].action = opfor_action_make(1);
        r->top[i].action.arg = (uint16_t)i;
        r->top[i].visits = visits[i];
        r->top[i].value = 0.5 - 0.1 * i;
        r->iterations += visits[i];
    }
}

static void levels_table(void **st) {
    static const char *const names[] = {"novice", "standard", "veteran", "ruthless", "challenge"};
    for (int i = 0; i < OPFOR_AI_LEVEL_COUNT; i++) {
        const opfor_ai_level_info_t *lv = opfor_ai_level_info(i);
        assert_non_null(lv);
        assert_string_equal(lv->name, names[i]);
        int found = -1;
        assert_int_equal(opfor_ai_level_find(names[i], &found), 0);
        assert_int_equal(found, i);
        assert_true(lv->iterations > 0);
        assert_true(lv->cutoff >= 0.0 && lv->cutoff <= 1.0);
        if (i > 0 && i <= OPFOR_AI_RUTHLESS) /* novice .. ruthless grow */
            assert_true(lv->iterations >= opfor_ai_level_info(i - 1)->iterations);
        assert_int_equal(lv->cheat, 0); /* cheating is an explicit option, never a level */
    }
    int found;
    assert_int_equal(opfor_ai_level_find("RUTHLESS", &found), 0);
    assert_int_equal(found, OPFOR_AI_RUTHLESS);
    assert_int_equal(opfor_ai_level_find("godlike", &found), OPFOR_ENOENT);
    assert_null(opfor_ai_level_info(-1));
    assert_null(opfor_ai_level_info(OPFOR_AI_LEVEL_COUNT));
    /* The strongest levels are deterministic; standard fits its 150 ms target. */
    assert_true(opfor_ai_level_info(OPFOR_AI_RUTHLESS)->temperature == 0.0);
    /* Challenge searches like veteran (the director, not the search, makes it a challenge). */
    assert_int_equal(opfor_ai_level_info(OPFOR_AI_CHALLENGE)->iterations,
                     opfor_ai_level_info(OPFOR_AI_VETERAN)->iterations);
    assert_true(opfor_ai_level_info(OPFOR_AI_CHALLENGE)->temperature ==
                opfor_ai_level_info(OPFOR_AI_VETERAN)->temperature);
    assert_true(opfor_ai_level_info(OPFOR_AI_STANDARD)->wall_ms <= 150);

    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    cfg.threads = 3;
    assert_int_equal(opfor_ai_level_apply(OPFOR_AI_CHALLENGE, &cfg), 0);
    assert_int_equal(cfg.iterations, opfor_ai_level_info(OPFOR_AI_CHALLENGE)->iterations);
    assert_int_equal(cfg.cheat, 0); /* no level turns cheating on ... */
    assert_int_equal(cfg.threads, 3);
    cfg.cheat = 1;
    assert_int_equal(opfor_ai_level_apply(OPFOR_AI_RUTHLESS, &cfg), 0);
    assert_int_equal(cfg.cheat, 1); /* ... nor off: it is the caller's explicit choice */
    assert_int_equal(opfor_ai_level_apply(99, &cfg), OPFOR_EINVAL);
}

static void levels_ruthless_is_argmax(void **st) {
    const uint32_t v[] = {100, 99, 98, 50};
    opfor_mcts_result_t r;
    fake_result(&r, v, 4);
    for (uint64_t d = 0; d < 500; d++) {
        assert_int_equal(opfor_ai_choose(OPFOR_AI_RUTHLESS, &r, 7, d), 0);
    }
}

/* Frequencies of each index over N decision numbers. */
static void histogram(int level, const opfor_mcts_result_t *r, int N, double *freq) {
    int count[OPFOR_MCTS_TOP_K] = {0};
    for (int d = 0; d < N; d++) {
        int k = opfor_ai_choose(level, r, 0xC0FFEE, (uint64_t)d);
        assert_true(k >= 0 && k < r->nchoices);
        count[k]++;
    }
    for (int i = 0; i < OPFOR_MCTS_TOP_K; i++)
        freq[i] = (double)count[i] / N;
}

static void levels_softmax_distribution(void **st) {
    const uint32_t v[] = {400, 300, 100, 50};
    opfor_mcts_result_t r;
    fake_result(&r, v, 4);
    double f[OPFOR_MCTS_TOP_K];
    const int N = 40000; /* standard error of a frequency below 0.0025 */

    /* standard: T = 0.5, cutoff 0.5 (>= 200 visits): weights 1 and 0.75^2 = 0.5625. */
    histogram(OPFOR_AI_STANDARD, &r, N, f);
    assert_float_equal(f[0], 1.0 / 1.5625, 0.01);
    assert_float_equal(f[1], 0.5625 / 1.5625, 0.01);
    assert_true(f[2] == 0.0 && f[3] == 0.0);

    /* novice: T = 1, cutoff 0.2 (>= 80): proportional to visits 400 : 300 : 100. */
    histogram(OPFOR_AI_NOVICE, &r, N, f);
    assert_float_equal(f[0], 0.5, 0.01);
    assert_float_equal(f[1], 0.375, 0.01);
    assert_float_equal(f[2], 0.125, 0.01);
    assert_true(f[3] == 0.0);

    /* veteran: T = 0.25, cutoff 0.75 (>= 300): weights 1 and 0.75^4 = 0.31640625. */
    histogram(OPFOR_AI_VETERAN, &r, N, f);
    assert_float_equal(f[0], 1.0 / 1.31640625, 0.01);
    assert_float_equal(f[1], 0.31640625 / 1.31640625, 0.01);
    assert_true(f[2] == 0.0 && f[3] == 0.0);
}

static void levels_choice_is_keyed(void **st) {
    const uint32_t v[] = {400, 380, 360, 340};
    opfor_mcts_result_t r;
    fake_result(&r, v, 4);
    int differs = 0;
    for (uint64_t d = 0; d < 64; d++) {
        int a = opfor_ai_choose(OPFOR_AI_NOVICE, &r, 99, d);
        assert_int_equal(opfor_ai_choose(OPFOR_AI_NOVICE, &r, 99, d), a); /* same key */
        differs |= opfor_ai_choose(OPFOR_AI_NOVICE, &r, 100, d) != a;     /* other seed */
    }
    assert_true(differs);
    opfor_mcts_result_t empty;
    memset(&empty, 0, sizeof empty);
    assert_int_equal(opfor_ai_choose(OPFOR_AI_NOVICE, &empty, 1, 1), OPFOR_EINVAL);
    assert_int_equal(opfor_ai_choose(-1, &r, 1, 1), OPFOR_EINVAL);
}

static opfor_mcts_t *make_search(const opfor_ruleset_t *rs, uint64_t seed) {
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    cfg.seed = seed;
    cfg.memory_bytes = (size_t)16 << 20;
    opfor_mcts_t *m = NULL;
    assert_int_equal(opfor_mcts_create(&m, rs, &cfg, 0), 0);
    return m;
}

static void levels_decide_explains(void **st) {
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, &toy_race_ruleset, NULL, 0), 0);
    toy_race_state_t s;
    race_init(NULL, &s, 5);
    s.score[0] = s.score[1] = TOY_RACE_TARGET - 1;
    opfor_mcts_t *m = make_search(&toy_race_ruleset, 17);
    opfor_ai_decision_t d;
    assert_int_equal(opfor_ai_decide(m, &g, &s, NULL, OPFOR_AI_VETERAN, 0, NULL, &d), 0);
    assert_int_equal(d.action.kind, TOY_RACE_SAFE);
    assert_int_equal(d.chosen, 0);
    assert_int_equal(d.search.iterations, opfor_ai_level_info(OPFOR_AI_VETERAN)->iterations);
    assert_int_equal(d.has_runner_up, 1);
    assert_int_equal(d.runner_up.action.kind, TOY_RACE_RISKY);
    /* One line: the choice with its value, and the runner-up with its value. */
    assert_null(strchr(d.reason, '\n'));
    assert_non_null(strstr(d.reason, "bank 1 point: value +1.00"));
    assert_non_null(strstr(d.reason, "runner-up gamble on a d6: +0."));
    char buf[2048];
    opfor_ai_explain(&g, &s, &d, buf, sizeof buf);
    assert_non_null(strstr(buf, "* 1. bank 1 point"));
    assert_non_null(strstr(buf, "  2. gamble on a d6"));
    assert_non_null(strstr(buf, "level veteran: 4000 iterations"));
    opfor_mcts_free(m);
}

static void levels_decide_is_repeatable(void **st) {
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, &toy_sk_ruleset, NULL, 0), 0);
    toy_sk_state_t s;
    assert_int_equal(opfor_game_new_state(&g, &s, 31), 0);
    opfor_action_t roll;
    assert_int_equal(opfor_game_legal(&g, &s, &roll, 1), 1);
    assert_int_equal(opfor_game_apply(&g, &s, &roll), 0);
    /* novice draws among near-best actions from a stream keyed by (seed, decision): two
     * search objects with the same key make the same choice and give the same reason. */
    opfor_mcts_t *m1 = make_search(&toy_sk_ruleset, 5), *m2 = make_search(&toy_sk_ruleset, 5);
    opfor_ai_decision_t a, b;
    assert_int_equal(opfor_ai_decide(m1, &g, &s, NULL, OPFOR_AI_NOVICE, 3, NULL, &a), 0);
    assert_int_equal(opfor_ai_decide(m2, &g, &s, NULL, OPFOR_AI_NOVICE, 3, NULL, &b), 0);
    if (a.search.stop == OPFOR_MCTS_STOP_BUDGET && b.search.stop == OPFOR_MCTS_STOP_BUDGET) {
        assert_true(opfor_action_eq(&a.action, &b.action));
        assert_int_equal(a.chosen, b.chosen);
        assert_string_equal(a.reason, b.reason);
    }
    opfor_mcts_free(m1);
    opfor_mcts_free(m2);

    /* ruthless on the race: the full budget, twice, the same answer and statistics. */
    opfor_game_t gr;
    assert_int_equal(opfor_game_init(&gr, &toy_race_ruleset, NULL, 0), 0);
    toy_race_state_t rs;
    race_init(NULL, &rs, 8);
    m1 = make_search(&toy_race_ruleset, 5);
    assert_int_equal(opfor_ai_decide(m1, &gr, &rs, NULL, OPFOR_AI_RUTHLESS, 0, NULL, &a), 0);
    assert_int_equal(opfor_ai_decide(m1, &gr, &rs, NULL, OPFOR_AI_RUTHLESS, 0, NULL, &b), 0);
    assert_int_equal(a.search.stop, OPFOR_MCTS_STOP_BUDGET);
    assert_int_equal(a.search.iterations, opfor_ai_level_info(OPFOR_AI_RUTHLESS)->iterations);
    assert_int_equal(a.action.kind, TOY_RACE_RISKY);
    assert_true(opfor_action_eq(&a.action, &b.action));
    assert_int_equal(a.search.top[0].visits, b.search.top[0].visits);
    assert_string_equal(a.reason, b.reason);
    opfor_mcts_free(m1);
}

/* A busy daemon's share: budget / share, never below a quarter of the level's budget, which is
 * never below the next level down's; the search spends exactly that. */
static void levels_share_budget_has_a_floor(void **st) {
    (void)st;
    for (int lv = 0; lv < OPFOR_AI_LEVEL_COUNT; lv++) {
        uint32_t full = opfor_ai_level_info(lv)->iterations;
        assert_int_equal(opfor_ai_level_budget(lv, 0), full);
        assert_int_equal(opfor_ai_level_budget(lv, 1), full);
        assert_int_equal(opfor_ai_level_budget(lv, 2), full / 2);
        assert_int_equal(opfor_ai_level_budget(lv, 200), opfor_ai_level_floor(lv));
        assert_int_equal(opfor_ai_level_floor(lv), full / 4);
        if (lv > OPFOR_AI_NOVICE && lv <= OPFOR_AI_RUTHLESS)
            assert_true(opfor_ai_level_floor(lv) >= opfor_ai_level_info(lv - 1)->iterations);
    }
    assert_int_equal(opfor_ai_level_floor(OPFOR_AI_STANDARD), 250);
    assert_int_equal(opfor_ai_level_budget(99, 2), 0);
    char note[80];
    assert_string_equal(opfor_ai_share_note(OPFOR_AI_STANDARD, 1, note, sizeof note), "");
    assert_string_equal(opfor_ai_share_note(OPFOR_AI_STANDARD, 4, note, sizeof note),
                        "busy daemon: 250 of standard's 1000 playouts");

    opfor_game_t gr;
    assert_int_equal(opfor_game_init(&gr, &toy_race_ruleset, NULL, 0), 0);
    toy_race_state_t rs;
    race_init(NULL, &rs, 8);
    opfor_mcts_t *m = make_search(&toy_race_ruleset, 5);
    opfor_ai_decision_t a, b;
    assert_int_equal(opfor_ai_decide_opts(m, &gr, &rs, NULL, OPFOR_AI_VETERAN, 0, NULL,
                                          OPFOR_AI_EXACT | OPFOR_AI_SHARE(3), &a),
                     0);
    assert_int_equal(a.search.iterations, 4000 / 3);
    assert_int_equal(opfor_ai_decide_opts(m, &gr, &rs, NULL, OPFOR_AI_VETERAN, 0, NULL,
                                          OPFOR_AI_EXACT | OPFOR_AI_SHARE(9), &a),
                     0);
    assert_int_equal(a.search.iterations, 1000);
    /* share 1 is the plain decision */
    assert_int_equal(opfor_ai_decide_opts(m, &gr, &rs, NULL, OPFOR_AI_VETERAN, 0, NULL,
                                          OPFOR_AI_EXACT | OPFOR_AI_SHARE(1), &a),
                     0);
    assert_int_equal(
        opfor_ai_decide_opts(m, &gr, &rs, NULL, OPFOR_AI_VETERAN, 0, NULL, OPFOR_AI_EXACT, &b), 0);
    assert_int_equal(a.search.iterations, 4000);
    assert_string_equal(a.reason, b.reason);
    opfor_mcts_free(m);
}

static void levels_forced_reason(void **st) {
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, &toy_ttt_ruleset, NULL, 0), 0);
    toy_ttt_state_t s;
    toy_ttt_set(&s, "xoxxoo.xo", 0);
    opfor_mcts_t *m = make_search(&toy_ttt_ruleset, 1);
    opfor_ai_decision_t d;
    assert_int_equal(opfor_ai_decide(m, &g, &s, NULL, OPFOR_AI_STANDARD, 0, NULL, &d), 0);
    assert_string_equal(d.reason, "mark a3: the only legal action");
    assert_int_equal(d.has_runner_up, 0);
    opfor_mcts_free(m);
}

/* A ruleset's AI table tunes the search: only exploration and widening, and only the
 * settings it gives (0 keeps the search's default); no table, nothing changes. */
static void levels_search_tuning_from_the_ruleset(void **st) {
    (void)st;
    static const opfor_ruleset_ai_t tab = {.uct_c = 0.3, .pw_c = 0.0, .pw_alpha = 0.25};
    opfor_ruleset_t rs = toy_sk_ruleset;
    rs.ai = &tab;
    opfor_mcts_config_t cfg, before;
    opfor_mcts_config_default(&cfg);
    cfg.iterations = 777;
    cfg.cheat = 1;
    before = cfg;
    opfor_ai_search_tuning(&toy_sk_ruleset, &cfg); /* no table */
    assert_memory_equal(&cfg, &before, sizeof cfg);
    opfor_ai_search_tuning(&rs, &cfg);
    assert_true(cfg.uct_c == 0.3 && cfg.uct_c < before.uct_c);
    assert_true(cfg.pw_c == before.pw_c);
    assert_true(cfg.pw_alpha == 0.25);
    assert_int_equal(cfg.iterations, before.iterations);
    assert_int_equal(cfg.cheat, before.cheat);
    cfg.uct_c = before.uct_c;
    cfg.pw_alpha = before.pw_alpha;
    assert_memory_equal(&cfg, &before, sizeof cfg);
    assert_null(opfor_ai_evaluator(&toy_sk_ruleset));
    assert_null(opfor_ai_evaluator(&rs)); /* a table without an evaluator */
    assert_null(opfor_ai_evaluator(NULL));
}

/* A toy order hook: a fixed sentence and three terms, two of them tied. */
static int toy_order(const void *ctx, const void *state, const opfor_action_t *a,
                     opfor_order_t *out) {
    (void)ctx;
    (void)state;
    memset(out, 0, sizeof *out);
    out->unit = out->target = -1;
    out->kind = a->kind;
    snprintf(out->sentence, sizeof out->sentence, "do %d.", a->kind);
    static const char *const names[4] = {"alpha", "beta", "gamma", "delta"};
    static const double values[4] = {0.5, -0.5, 0.01, 0.25};
    for (int i = 0; i < 4; i++) {
        snprintf(out->terms[i].name, sizeof out->terms[i].name, "%s", names[i]);
        out->terms[i].value = values[i];
        out->total += values[i];
    }
    out->nterms = 4;
    return 0;
}

/* The order's search part is the same for every ruleset: the wording comes from the
 * ruleset's hook (or the action's phrase without one), the reason joins the deciding terms
 * (largest first, ties to the later term, tiny ones left out) with the search's value. */
static void levels_order_from_any_ruleset(void **st) {
    (void)st;
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, &toy_race_ruleset, NULL, 0), 0);
    toy_race_state_t s;
    race_init(NULL, &s, 5);
    s.score[0] = s.score[1] = TOY_RACE_TARGET - 1;
    opfor_mcts_t *m = make_search(&toy_race_ruleset, 17);
    opfor_ai_decision_t d;
    assert_int_equal(opfor_ai_decide(m, &g, &s, NULL, OPFOR_AI_VETERAN, 0, NULL, &d), 0);
    opfor_order_t o;
    /* no order hook: the action's phrase, no terms */
    assert_int_equal(opfor_order_from_decision(&g, &s, &d, &o), 0);
    assert_string_equal(o.sentence, "bank 1 point");
    assert_non_null(strstr(o.reason, "no strong reason; value +1.00 over "));
    assert_int_equal(o.has_runner_up, 1);
    assert_string_equal(o.runner_up, "gamble on a d6");
    assert_int_equal(o.nalts, d.search.nchoices);
    assert_int_equal(o.alts[0].chosen, 1);
    assert_int_equal(o.iterations, d.search.iterations);
    /* with the hook: its sentence, and the terms in the reason */
    static const opfor_ruleset_ai_t tab = {.order = toy_order};
    opfor_ruleset_t rs = toy_race_ruleset;
    rs.ai = &tab;
    opfor_game_t g2 = g;
    g2.rs = &rs;
    assert_int_equal(opfor_order_from_action(&g2, &s, &d.action, &o), 0);
    assert_string_equal(o.reason, "beta -0.50, alpha +0.50, delta +0.25");
    assert_int_equal(o.value, 0.0);
    assert_int_equal(opfor_order_from_decision(&g2, &s, &d, &o), 0);
    assert_non_null(strstr(o.sentence, "do "));
    assert_non_null(strstr(o.reason, "beta -0.50, alpha +0.50, delta +0.25; value +1.00"));
    char buf[1024];
    opfor_order_format(&o, 1, buf, sizeof buf);
    assert_non_null(strstr(buf, "  why: beta -0.50"));
    assert_non_null(strstr(buf, "  runner-up: gamble on a d6 (value "));
    assert_non_null(strstr(buf, "  * 1. bank 1 point"));
    opfor_mcts_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(levels_table),
        cmocka_unit_test(levels_ruthless_is_argmax),
        cmocka_unit_test(levels_softmax_distribution),
        cmocka_unit_test(levels_choice_is_keyed),
        cmocka_unit_test(levels_decide_explains),
        cmocka_unit_test(levels_decide_is_repeatable),
        cmocka_unit_test(levels_forced_reason),
        cmocka_unit_test(levels_share_budget_has_a_floor),
        cmocka_unit_test(levels_search_tuning_from_the_ruleset),
        cmocka_unit_test(levels_order_from_any_ruleset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
