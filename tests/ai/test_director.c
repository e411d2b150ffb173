/* tests/ai/test_director.c — the Patrol Mode director: its outcomes are the rules' allowed
 * outcomes, its choices stay among them, steering moves the estimated win chance the way the
 * band asks, the general placement rule picks the unit keeping most units in command, and a
 * directed game replays identically.
 *
 * Positions come from the built-in patrol scenario (patrol_default) played forward with the
 * behaviour table on fixed seeds; the estimates use common rollout seeds, so comparisons
 * between outcomes are not at the mercy of luck.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ai/arena_match.h"
#include "opfor/viktoria/director.h"
#include "opfor/viktoria/player_bots.h"
#include "opfor/viktoria/table_bot.h"
#include "opfor/viktoria/adapter.h"

typedef struct fix {
    opfor_vk_rs_ctx_t *ctx;
    const opfor_patrol_config_t *pcfg;
    opfor_game_t g;
    opfor_vk_rs_state_t *st;
} fix_t;

static void fix_open(fix_t *f) {
    memset(f, 0, sizeof *f);
    opfor_diag_t d;
    assert_int_equal(opfor_vk_rs_ctx_load(&f->ctx, "patrol_default", &d), 0);
    f->pcfg = opfor_vk_rs_patrol(f->ctx);
    assert_non_null(f->pcfg);
    assert_int_equal(opfor_game_init(&f->g, &opfor_viktoria_ruleset, f->ctx, 0), 0);
    f->st = calloc(1, sizeof *f->st);
    assert_non_null(f->st);
}

static void fix_close(fix_t *f) {
    free(f->st);
    opfor_vk_rs_ctx_free(f->ctx);
}

/* Plays the game of seed forward with the table bot on both sides until an initiative
 * chance node of turn >= turn. Returns 1 when one was reached. */
static int play_to_initiative(fix_t *f, uint64_t seed, int turn) {
    opfor_game_new_state(&f->g, f->st, seed);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, seed, 5);
    opfor_action_t acts[OPFOR_VK_RS_MAX_ACTIONS];
    opfor_vk_action_t vacts[OPFOR_VK_RS_MAX_ACTIONS];
    for (int steps = 0; steps < 100000; steps++) {
        int p = opfor_game_current(&f->g, f->st);
        if (p == OPFOR_PLAYER_TERMINAL)
            return 0;
        if (p == OPFOR_PLAYER_CHANCE && f->st->vk.phase == OPFOR_VK_PH_INITIATIVE &&
            f->st->vk.turn >= turn)
            return 1;
        int n = opfor_game_legal(&f->g, f->st, acts, OPFOR_VK_RS_MAX_ACTIONS);
        assert_true(n > 0);
        int i = 0;
        if (p >= 0) {
            for (int k = 0; k < n; k++)
                opfor_vk_rs_action_to_engine(&acts[k], &vacts[k]);
            i = opfor_table_bot_choose(opfor_vk_rs_engine(f->ctx), &f->st->vk, vacts, n, NULL,
                                       &rng);
        }
        assert_int_equal(opfor_game_apply(&f->g, f->st, &acts[i]), 0);
    }
    return 0;
}

/* A spotting drawn by the rules' own generator for the position in f->st. */
static opfor_patrol_spot_t draw_spot(const fix_t *f, uint64_t seed) {
    opfor_patrol_summary_t s;
    memset(&s, 0, sizeof s);
    s.ready[0] = s.ready[1] = 1;
    s.fresh_sqft = 100.0; /* the chance is at its ceiling */
    opfor_rng_t rng;
    opfor_rng_seed(&rng, seed, 11);
    opfor_patrol_press_t pr;
    do
        opfor_patrol_press(f->pcfg, &s, &rng, &pr);
    while (pr.kind != OPFOR_PRESS_SPOTTING);
    return pr.spot;
}

/* Resolves sp into a copy of f->st (as the director does) and estimates it with key. */
static double estimate_after(fix_t *f, opfor_director_t *d, const opfor_patrol_spot_t *sp,
                             uint64_t key) {
    opfor_vk_rs_state_t *c = malloc(sizeof *c);
    assert_non_null(c);
    memcpy(c, f->st, sizeof *c);
    opfor_patrol_forces_t fo = {c->vk.units, c->vk.figures, c->vk.nunits, c->vk.nfigures};
    int n0 = fo.nunits, f0 = fo.nfigures;
    opfor_patrol_resolve_spot(f->pcfg, &c->ps, &fo, sp, &c->patrol_rng, NULL, NULL);
    for (int u = n0; u < fo.nunits; u++)
        memset(&c->vk.ux[u], 0, sizeof c->vk.ux[u]);
    for (int i = f0; i < fo.nfigures; i++)
        c->vk.figx[i] = 0;
    c->vk.nunits = (uint8_t)fo.nunits;
    c->vk.nfigures = (uint16_t)fo.nfigures;
    double p = -1.0;
    assert_int_equal(opfor_director_estimate(d, &f->g, c, key, &p), 0);
    free(c);
    assert_true(p >= 0.0 && p <= 1.0);
    return p;
}

/* The default director settings with a small budget: rollouts per estimate, candidates. */
static opfor_director_config_t small_director(int rollouts, int candidates) {
    opfor_director_config_t dc;
    opfor_director_config_default(&dc);
    dc.rollouts = rollouts;
    dc.candidates = candidates;
    return dc;
}

/* A director with dc, begun for the game of seed. */
static opfor_director_t *director_for(const opfor_director_config_t *dc, uint64_t seed) {
    opfor_director_t *d = NULL;
    assert_int_equal(opfor_director_create(&d, dc), 0);
    opfor_director_begin(d, seed);
    return d;
}

/* ---------------------------------------------------------------- tests */

static void director_outcomes_are_allowed(void **state) {
    (void)state;
    fix_t f;
    fix_open(&f);
    opfor_patrol_spot_t outs[OPFOR_DIRECTOR_MAX_OUTCOMES];
    for (uint64_t seed = 1; seed <= 20; seed++) {
        opfor_patrol_spot_t sp = draw_spot(&f, seed);
        assert_true(opfor_director_allowed(f.pcfg, &sp)); /* the dice's own draws are allowed */
        int n = opfor_director_outcomes(f.pcfg, &sp, outs, OPFOR_DIRECTOR_MAX_OUTCOMES);
        assert_memory_equal(&outs[0], &sp, sizeof sp);
        /* every type with weight appears, each at its shortest and longest distance in all 8
           directions (the defaults weigh every direction) */
        assert_true(n >= OPFOR_PT_COUNT * 2 * 8 - 1);
        int types[OPFOR_PT_COUNT] = {0}, dirs[OPFOR_COMPASS_COUNT] = {0};
        for (int i = 0; i < n; i++) {
            assert_true(opfor_director_allowed(f.pcfg, &outs[i]));
            types[outs[i].type]++;
            dirs[outs[i].direction]++;
            for (int j = 0; j < i; j++)
                assert_false(outs[i].type == outs[j].type && outs[i].rolled == outs[j].rolled &&
                             outs[i].direction == outs[j].direction &&
                             outs[i].quality == outs[j].quality);
        }
        for (int t = 0; t < OPFOR_PT_COUNT; t++)
            assert_true(types[t] >= 16);
        for (int k = 0; k < OPFOR_COMPASS_COUNT; k++)
            assert_true(dirs[k] >= OPFOR_PT_COUNT * 2);
    }
    /* outside the weights or the dice: not allowed */
    opfor_patrol_spot_t sp = draw_spot(&f, 99);
    opfor_patrol_spot_t bad = sp;
    bad.rolled = opfor_dice_max(&sp.dice) + 1;
    assert_false(opfor_director_allowed(f.pcfg, &bad));
    bad = sp;
    bad.rolled = opfor_dice_min(&sp.dice) - 1;
    assert_false(opfor_director_allowed(f.pcfg, &bad));
    bad = sp;
    bad.direction = OPFOR_COMPASS_COUNT;
    assert_false(opfor_director_allowed(f.pcfg, &bad));
    /* a scenario that weighs only three directions and two types keeps to them */
    opfor_patrol_config_t *cfg = malloc(sizeof *cfg);
    assert_non_null(cfg);
    memcpy(cfg, f.pcfg, sizeof *cfg);
    memset(cfg->dir_weight, 0, sizeof cfg->dir_weight);
    cfg->dir_weight[OPFOR_N] = cfg->dir_weight[OPFOR_NE] = cfg->dir_weight[OPFOR_NW] = 1;
    cfg->type_weight[OPFOR_PT_HEADQUARTERS] = cfg->type_weight[OPFOR_PT_SUPPLY] = 0;
    cfg->type_weight[OPFOR_PT_ARTILLERY] = 0;
    sp.type = OPFOR_PT_INFANTRY;
    sp.direction = OPFOR_N;
    sp.quality = OPFOR_Q_SOLDIER;
    sp.dist_opt = 0;
    sp.dice = cfg->dist[OPFOR_PT_INFANTRY][0].dice;
    sp.rolled = opfor_dice_min(&sp.dice);
    assert_true(opfor_director_allowed(cfg, &sp));
    int n = opfor_director_outcomes(cfg, &sp, outs, OPFOR_DIRECTOR_MAX_OUTCOMES);
    assert_true(n >= 2 * 2 * 3 - 1 && n <= 2 * 3 * 3);
    for (int i = 0; i < n; i++) {
        assert_true(opfor_director_allowed(cfg, &outs[i]));
        assert_true(outs[i].type == OPFOR_PT_INFANTRY || outs[i].type == OPFOR_PT_CAVALRY);
        assert_true(outs[i].direction == OPFOR_N || outs[i].direction == OPFOR_NE ||
                    outs[i].direction == OPFOR_NW);
    }
    free(cfg);
    fix_close(&f);
}

static void director_choices_stay_allowed(void **state) {
    (void)state;
    fix_t f;
    fix_open(&f);
    opfor_director_config_t dc = small_director(4, 6);
    opfor_director_t *d = NULL;
    int steered = 0, kept = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        if (!play_to_initiative(&f, seed, 2))
            continue;
        opfor_patrol_spot_t natural = draw_spot(&f, seed);
        /* a band the estimate cannot be in: the director must look for another outcome */
        dc.band_lo = dc.band_hi = (seed & 1) ? 1.0 : 0.0;
        d = director_for(&dc, seed);
        opfor_patrol_spot_t sp = natural;
        int rc = opfor_director_steer(d, &f.g, f.st, &sp);
        assert_true(rc == 0 || rc == 1);
        assert_true(opfor_director_allowed(f.pcfg, &sp));
        steered += rc;
        /* the band [0, 1] always holds the estimate: the dice decide */
        opfor_director_free(d);
        dc.band_lo = 0.0;
        dc.band_hi = 1.0;
        d = director_for(&dc, seed);
        sp = natural;
        assert_int_equal(opfor_director_steer(d, &f.g, f.st, &sp), 0);
        assert_memory_equal(&sp, &natural, sizeof sp);
        kept++;
        /* steering off: the draw stands, and nothing is estimated */
        opfor_director_free(d);
        dc.steer = 0;
        dc.band_lo = dc.band_hi = 1.0;
        assert_int_equal(opfor_director_create(&d, &dc), 0);
        assert_int_equal(opfor_director_steer(d, &f.g, f.st, &sp), 0);
        assert_int_equal(opfor_director_stats(d)->estimates, 0);
        opfor_director_free(d);
        dc.steer = 1;
    }
    assert_true(kept >= 4);
    assert_true(steered >= 2);
    /* bad settings are refused */
    dc.band_lo = 0.7;
    dc.band_hi = 0.3;
    assert_int_equal(opfor_director_create(&d, &dc), OPFOR_EINVAL);
    dc.band_lo = 0.4;
    dc.band_hi = 0.6;
    dc.rollouts = 0;
    assert_int_equal(opfor_director_create(&d, &dc), OPFOR_EINVAL);
    fix_close(&f);
}

static void director_steers_toward_the_band(void **state) {
    (void)state;
    fix_t f;
    fix_open(&f);
    opfor_director_config_t dc = small_director(8, 6);
    opfor_director_t *d = NULL, *judge = NULL;
    opfor_director_config_t jc = dc;
    jc.rollouts = 32;
    assert_int_equal(opfor_director_create(&judge, &jc), 0);
    double up = 0.0, down = 0.0, nat = 0.0;
    int n = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        if (!play_to_initiative(&f, seed, 2))
            continue;
        opfor_patrol_spot_t natural = draw_spot(&f, seed + 100), hi = natural, lo = natural;
        /* a band above any estimate: make the game easier for the players */
        dc.band_lo = dc.band_hi = 1.0;
        d = director_for(&dc, seed);
        assert_true(opfor_director_steer(d, &f.g, f.st, &hi) >= 0);
        opfor_director_free(d);
        /* a band below any estimate: harder */
        dc.band_lo = dc.band_hi = 0.0;
        d = director_for(&dc, seed);
        assert_true(opfor_director_steer(d, &f.g, f.st, &lo) >= 0);
        opfor_director_free(d);
        /* judged by an independent, larger estimate on common seeds */
        opfor_director_begin(judge, seed * 7919);
        up += estimate_after(&f, judge, &hi, 1);
        down += estimate_after(&f, judge, &lo, 1);
        nat += estimate_after(&f, judge, &natural, 1);
        n++;
    }
    assert_true(n >= 5);
    up /= n;
    down /= n;
    nat /= n;
    print_message("director: mean estimate natural %.3f, steered up %.3f, down %.3f over %d\n", nat,
                  up, down, n);
    assert_true(up >= nat);
    assert_true(down <= nat);
    assert_true(up - down >= 0.15);
    opfor_director_free(judge);
    fix_close(&f);
}

/* ---- general placement ---- */

/* An enemy unit of k figures centred at (x, y) into fo. */
static int add_unit(const opfor_patrol_config_t *cfg, opfor_patrol_forces_t *fo, float x, float y,
                    int k, unsigned flags) {
    int u = fo->nunits++;
    opfor_unit_t *un = &fo->units[u];
    memset(un, 0, sizeof *un);
    un->side = (uint8_t)cfg->enemy;
    un->type = (flags & OPFOR_UNIT_GENERAL) ? OPFOR_UT_HEADQUARTERS : OPFOR_UT_INFANTRY;
    un->first = (uint16_t)fo->nfigures;
    un->count = un->strength = (uint16_t)k;
    un->flags = (uint16_t)flags;
    for (int i = 0; i < k; i++) {
        opfor_figure_t *g = &fo->figures[fo->nfigures++];
        memset(g, 0, sizeof *g);
        g->unit = (uint8_t)u;
        g->flags = OPFOR_FIG_ALIVE;
        g->quality = OPFOR_Q_SOLDIER;
        g->pos = opfor_pt(x + (float)(i - k / 2), y);
    }
    return u;
}

static void director_general_joins_unit_keeping_most_in_command(void **state) {
    (void)state;
    fix_t f;
    fix_open(&f);
    const opfor_patrol_config_t *cfg = f.pcfg;
    opfor_unit_t *units = calloc(OPFOR_MAX_UNITS, sizeof *units);
    opfor_figure_t *figs = calloc(OPFOR_MAX_FIGURES, sizeof *figs);
    opfor_patrol_forces_t fo = {units, figs, 0, 0};
    /* one lone unit, and a line of three 15 inches apart: only the middle one of the line
       has both others within 18 inches */
    int lone = add_unit(cfg, &fo, 8.0f, 40.0f, 4, 0);
    int b = add_unit(cfg, &fo, 30.0f, 40.0f, 4, 0);
    int c = add_unit(cfg, &fo, 45.0f, 40.0f, 4, 0);
    int dd = add_unit(cfg, &fo, 60.0f, 40.0f, 4, 0);
    int gen = add_unit(cfg, &fo, 5.0f, 20.0f, 1, OPFOR_UNIT_GENERAL);
    int in_cmd = -1;
    assert_int_equal(opfor_director_general_unit(cfg, &fo, gen, 18.0f, &in_cmd), c);
    assert_int_equal(in_cmd, 3);
    assert_int_equal(opfor_director_place_general(cfg, &fo, gen, 18.0f), c);
    /* he now stands beside c, within 18 inches of a figure of each of b, c and d */
    opfor_pt_t at = figs[units[gen].first].pos;
    assert_true(opfor_dist(at, figs[units[c].first + 2].pos) < 5.0f);
    (void)lone;
    (void)b;
    (void)dd;
    /* a second general: the line is commanded already, so he goes to the lone unit */
    int gen2 = add_unit(cfg, &fo, 70.0f, 10.0f, 1, OPFOR_UNIT_GENERAL);
    assert_int_equal(opfor_director_general_unit(cfg, &fo, gen2, 18.0f, &in_cmd), lone);
    assert_int_equal(in_cmd, 1);
    /* with nobody to command he stays where he is */
    opfor_patrol_forces_t empty = {units, figs, 0, 0};
    int g3 = add_unit(cfg, &empty, 10.0f, 10.0f, 1, OPFOR_UNIT_GENERAL);
    opfor_pt_t before = figs[units[g3].first].pos;
    assert_int_equal(opfor_director_place_general(cfg, &empty, g3, 18.0f), -1);
    assert_true(figs[units[g3].first].pos.x == before.x && figs[units[g3].first].pos.y == before.y);
    free(units);
    free(figs);
    fix_close(&f);
}

/* ---- whole directed games ---- */

static void director_games_replay_identically(void **state) {
    (void)state;
    fix_t f;
    fix_open(&f);
    const void *ctxs[1] = {f.ctx};
    opfor_director_config_t dc = small_director(3, 4);
    opfor_arena_config_t cfg;
    arena_match(&cfg, &opfor_viktoria_ruleset, ctxs, "table", "medium");
    cfg.games = 6;
    cfg.seed = 77;
    cfg.swap = 0;
    cfg.a_side = f.pcfg->enemy;
    cfg.referee = opfor_arena_director;
    cfg.referee_user = &dc;
    opfor_arena_result_t r1, r2;
    cfg.threads = 1;
    assert_int_equal(opfor_arena_run(&cfg, &r1), 0);
    cfg.threads = 2;
    assert_int_equal(opfor_arena_run(&cfg, &r2), 0);
    assert_memory_equal(r1.log, r2.log, sizeof *r1.log * 6);
    long spottings = 0, generals = 0;
    for (int i = 0; i < 6; i++) {
        spottings += r1.log[i].referee[0];
        generals += r1.log[i].referee[2];
        assert_true(r1.log[i].referee[1] <= r1.log[i].referee[0]);
    }
    assert_int_equal(r1.errors, 0);
    assert_true(spottings > 0);
    assert_true(generals > 0);
    opfor_arena_result_free(&r1);
    opfor_arena_result_free(&r2);
    fix_close(&f);
}

static void director_off_replays_the_plain_game(void **state) {
    (void)state;
    fix_t f;
    fix_open(&f);
    opfor_director_config_t dc;
    opfor_director_config_default(&dc);
    dc.steer = 0;
    dc.place_generals = 0;
    opfor_director_t *d = NULL;
    assert_int_equal(opfor_director_create(&d, &dc), 0);
    opfor_vk_rs_state_t *b = malloc(sizeof *b);
    assert_non_null(b);
    opfor_action_t acts[OPFOR_VK_RS_MAX_ACTIONS];
    const opfor_vk_ctx_t *vk = opfor_vk_rs_engine(f.ctx);
    int spotted = 0, whole = 0;
    long directed = 0; /* spottings that went through the director, over all the games */
    for (uint64_t seed = 1; seed <= 30; seed++) {
        /* the same actions on two copies: f.st left to the engine's hook, b settled by the
           director first */
        opfor_game_new_state(&f.g, f.st, seed);
        opfor_game_new_state(&f.g, b, seed);
        opfor_director_begin(d, seed);
        opfor_rng_t rng;
        opfor_rng_seed(&rng, seed, 3);
        int same = 1;
        for (int step = 0; step < 20000 && same; step++) {
            int p = opfor_game_current(&f.g, f.st);
            if (p == OPFOR_PLAYER_TERMINAL)
                break;
            int enemy_ready = opfor_vk_side_ready(vk, &f.st->vk, f.pcfg->enemy);
            if (p == OPFOR_PLAYER_CHANCE)
                assert_int_equal(opfor_director_chance(d, &f.g, b), 0);
            int n = opfor_game_legal(&f.g, f.st, acts, OPFOR_VK_RS_MAX_ACTIONS);
            assert_true(n > 0);
            int i = p >= 0 ? (int)opfor_rng_below(&rng, (uint32_t)n) : 0;
            assert_int_equal(opfor_game_apply(&f.g, f.st, &acts[i]), 0);
            assert_int_equal(opfor_game_apply(&f.g, b, &acts[i]), 0);
            if (memcmp(f.st, b, sizeof *b) == 0)
                continue;
            /* The one way they may part: the engine decides whether a side can take the
               initiative before its hook runs, so a unit spotted while its side had none
               ready cannot use the press that follows; settled first, it can (XV.B lets
               spotted units act at once). Everything else must be equal. */
            assert_int_equal(f.st->vk.phase, OPFOR_VK_PH_SELECT_UNIT);
            assert_false(enemy_ready);
            assert_int_equal(f.st->vk.side, f.pcfg->player);
            assert_int_equal(b->vk.side, f.pcfg->enemy);
            b->vk.side = f.st->vk.side;
            assert_memory_equal(f.st, b, sizeof *b);
            same = 0;
        }
        spotted += f.st->ps.spottings > 0 || b->ps.spottings > 0;
        whole += same;
        directed += (long)opfor_director_stats(d)->spottings;
    }
    assert_true(spotted >= 15);
    assert_true(whole >= 5);
    assert_true(directed > 0);
    free(b);
    opfor_director_free(d);
    fix_close(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(director_outcomes_are_allowed),
        cmocka_unit_test(director_choices_stay_allowed),
        cmocka_unit_test(director_steers_toward_the_band),
        cmocka_unit_test(director_general_joins_unit_keeping_most_in_command),
        cmocka_unit_test(director_games_replay_identically),
        cmocka_unit_test(director_off_replays_the_plain_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
