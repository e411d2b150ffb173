/* tests/rulesets/vk_fixture.h — small Viktoria! positions built in code for the engine tests.
 *
 * Each test builds a scenario with a few units on an open (or lightly dressed) table, makes a
 * context and a state, and then checks legal actions or outcome distributions. Everything is
 * static inline so each test program includes it alone; no YAML is needed.
 */
#ifndef OPFOR_TEST_VK_FIXTURE_H
#define OPFOR_TEST_VK_FIXTURE_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "opfor/scenario.h"
#include "opfor/terrain.h"
#include "opfor/unit.h"
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/model.h"

/* Games per invariant run: fewer under sanitizers (OPFOR_TEST_SCALE=0.1, or ASan). */
static inline double fx_scale(void) {
    const char *s = getenv("OPFOR_TEST_SCALE");
    if (s && *s)
        return atof(s);
#if defined(__SANITIZE_ADDRESS__)
    return 0.1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 0.1;
#endif
#endif
    return 1.0;
}

static inline opfor_scenario_t *fx_new(float w, float d) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    snprintf(sc->name, sizeof sc->name, "fixture");
    sc->ruleset = OPFOR_RULESET_VIKTORIA;
    sc->mode = OPFOR_MODE_COMPETITIVE;
    sc->turn_limit = 6;
    sc->weather.level = 2;
    sc->weather.wind = OPFOR_W;
    opfor_table_init(&sc->table, w, d, OPFOR_EDGE_TOP);
    snprintf(sc->sides[0].name, sizeof sc->sides[0].name, "Blue");
    snprintf(sc->sides[1].name, sizeof sc->sides[1].name, "Red");
    sc->sides[0].edge = OPFOR_EDGE_BOTTOM;
    sc->sides[1].edge = OPFOR_EDGE_TOP;
    return sc;
}

/* A built-in scenario by name ("competitive_default", "patrol_default"); free with
 * opfor_scenario_free and free. */
static inline opfor_scenario_t *fx_builtin(const char *name) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    assert_int_equal(opfor_viktoria_builtin_load(name, sc, &d), 0);
    return sc;
}

/* The machines demo (rulesets/viktoria/scenarios/machines_demo.yaml, compiled into the rulesets
 * library for the tests): every XII machine on one table. Free with opfor_scenario_free and
 * free. */
extern const unsigned char opfor_viktoria_scenario_machines_demo[];
extern const unsigned long opfor_viktoria_scenario_machines_demo_len;
static inline opfor_scenario_t *fx_machines_demo(void) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    assert_int_equal(opfor_scenario_load_string((const char *)opfor_viktoria_scenario_machines_demo,
                                                opfor_viktoria_scenario_machines_demo_len, "demo",
                                                sc, &d),
                     0);
    return sc;
}

/* Adds a unit of n figures drawn up in formation around c facing `facing`; figure 0 is a
 * leader. Returns the unit index. All figures get quality q, weapons w and figure flags ff. */
static inline int fx_unit(opfor_scenario_t *sc, const char *name, int side, int type, int q, int n,
                          opfor_pt_t c, opfor_vec_t facing, int formation, unsigned w,
                          unsigned ff) {
    int u = sc->nunits++;
    opfor_unit_t *un = &sc->units[u];
    memset(un, 0, sizeof *un);
    snprintf(un->name, sizeof un->name, "%s", name);
    un->facing = opfor_vnorm(facing);
    un->first = (uint16_t)sc->nfigures;
    un->count = (uint16_t)n;
    un->strength = (uint16_t)n;
    un->side = (uint8_t)side;
    un->type = (uint8_t)type;
    un->quality = (uint8_t)q;
    un->formation = (uint8_t)formation;
    for (int i = 0; i < n; i++) {
        opfor_figure_t *f = &sc->figures[sc->nfigures + i];
        memset(f, 0, sizeof *f);
        f->unit = (uint8_t)u;
        f->quality = (uint8_t)q;
        f->weapons = (uint16_t)w;
        f->flags = (uint16_t)(OPFOR_FIG_ALIVE | ff);
        if (i == 0)
            f->skills = OPFOR_S_LEADER;
    }
    opfor_unit_place(&sc->figures[sc->nfigures], n, c, facing, (opfor_formation_t)formation);
    sc->nfigures += n;
    return u;
}

/* A general (a unit of one figure) for side at p. */
static inline int fx_general(opfor_scenario_t *sc, int side, opfor_pt_t p) {
    int u = fx_unit(sc, side ? "Red general" : "Blue general", side, OPFOR_UT_HEADQUARTERS,
                    OPFOR_Q_ELITE, 1, p, opfor_pt(0, side ? -1.0f : 1.0f), 0, OPFOR_W_PISTOL, 0);
    sc->units[u].flags |= OPFOR_UNIT_GENERAL;
    sc->figures[sc->units[u].first].skills |= OPFOR_S_GENERAL;
    return u;
}

static inline opfor_figure_t *fx_fig(opfor_scenario_t *sc, int u, int k) {
    return &sc->figures[sc->units[u].first + k];
}

static inline int fx_feature(opfor_scenario_t *sc, int kind, int shape, const opfor_pt_t *pts,
                             int n, float width) {
    opfor_terrain_feature_t f;
    memset(&f, 0, sizeof f);
    assert_int_equal(opfor_terrain_feature_init(&f, (opfor_terrain_kind_t)kind,
                                                (opfor_shape_t)shape, "feature", pts, n, width),
                     0);
    return opfor_table_add(&sc->table, &f);
}

static inline int fx_rect(opfor_scenario_t *sc, int kind, float x0, float y0, float x1, float y1) {
    opfor_pt_t p[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    return fx_feature(sc, kind, OPFOR_SHAPE_AREA, p, 4, 0.0f);
}

static inline opfor_vk_ctx_t *fx_ctx(const opfor_scenario_t *sc, const opfor_vk_options_t *opt) {
    static opfor_viktoria_model_t m; /* read-only after the first fill; tests are one thread */
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    assert_int_equal(opfor_viktoria_model_default(&m, &d), 0);
    opfor_vk_ctx_t *ctx = NULL;
    int rc = opfor_vk_ctx_init(&ctx, sc, &m, opt, &d);
    if (rc)
        fprintf(stderr, "ctx: %s\n", d.msg);
    assert_int_equal(rc, 0);
    return ctx;
}

/* A visitor of fx_walk_games: called at every unit's action (ACTION phase) with the position
 * as played; returns the comparisons it made. */
typedef long (*fx_visit_t)(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, void *user);

/* Plays `games` random games on ctx (game g from seed * 1000 + g + first, choices from the
 * stream (seed, 1)) and calls visit at every unit's action. Returns the sum of its returns. */
static inline long fx_walk_games(const opfor_vk_ctx_t *ctx, int games, uint64_t seed,
                                 uint64_t first, fx_visit_t visit, void *user) {
    opfor_rng_t pr;
    opfor_rng_seed(&pr, seed, 1);
    opfor_vk_state_t *st = malloc(sizeof *st);
    assert_non_null(st);
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    long total = 0;
    for (int g = 0; g < games; g++) {
        opfor_vk_state_init(ctx, st, seed * 1000 + (uint64_t)g + first);
        for (int step = 0; step < 4000 && opfor_vk_current(ctx, st) != OPFOR_VK_TERMINAL; step++) {
            int n = opfor_vk_legal(ctx, st, acts, OPFOR_VK_MAX_ACTIONS);
            assert_true(n > 0);
            if (st->phase == OPFOR_VK_PH_ACTION)
                total += visit(ctx, st, user);
            int i = opfor_vk_current(ctx, st) == OPFOR_VK_CHANCE
                        ? 0
                        : (int)opfor_rng_below(&pr, (uint32_t)n);
            assert_int_equal(opfor_vk_apply(ctx, st, &acts[i], NULL), 0);
        }
    }
    free(st);
    return total;
}

/* Puts st at unit u's ACTION phase in turn 1 (as if its side won the initiative and the unit
 * passed any command test). */
static inline void fx_activate(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u) {
    opfor_vk_action_t roll;
    memset(&roll, 0, sizeof roll);
    roll.kind = OPFOR_VK_ROLL;
    roll.unit = roll.target = OPFOR_VK_NONE;
    assert_int_equal(opfor_vk_apply(ctx, st, &roll, NULL), 0); /* start of turn */
    st->phase = OPFOR_VK_PH_SELECT_UNIT;
    st->side = st->units[u].side;
    opfor_vk_action_t sel = roll;
    sel.kind = OPFOR_VK_SELECT_UNIT;
    sel.unit = (uint8_t)u;
    assert_int_equal(opfor_vk_apply(ctx, st, &sel, NULL), 0);
    if (st->phase == OPFOR_VK_PH_COMMAND) {
        st->phase = OPFOR_VK_PH_ACTION;
        st->restricted = 0;
    }
    assert_int_equal(st->phase, OPFOR_VK_PH_ACTION);
}

/* Finds the first legal action of a kind (and target, unless OPFOR_VK_NONE); -1 if none. */
static inline int fx_find(const opfor_vk_action_t *a, int n, int kind, int target) {
    for (int i = 0; i < n; i++)
        if (a[i].kind == kind && (target == OPFOR_VK_NONE || a[i].target == target))
            return i;
    return -1;
}

static inline opfor_vk_action_t fx_act(int kind, int unit) {
    opfor_vk_action_t a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.unit = (uint8_t)unit;
    a.target = OPFOR_VK_NONE;
    a.figure = OPFOR_VK_NO_FIGURE;
    return a;
}

static inline int fx_alive(const opfor_vk_state_t *st, int u) {
    return opfor_vk_unit_present(st, u);
}

static inline int fx_wounded(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        n += (st->figures[i].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED)) ==
             (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED);
    return n;
}

/* Binomial tolerance: |observed - expected| within k standard deviations (plus slack). */
static inline void fx_assert_rate(double hits, double n, double p, double k) {
    double sd = sqrt(n * p * (1.0 - p));
    double diff = hits - n * p;
    if (diff < 0)
        diff = -diff;
    if (diff > k * sd + 1.0)
        fprintf(stderr, "rate: %g of %g, expected %g (p = %g, sd = %g)\n", hits, n, n * p, p, sd);
    assert_true(diff <= k * sd + 1.0);
}

#endif
