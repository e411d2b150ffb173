/* tests/rulesets/vk_fixture.h — small Viktoria! positions built in code for the engine tests.
 *
 * Each test builds a scenario with a few units on an open (or lightly dressed) table (or loads
 * a built-in one), makes a context and a state, and then checks legal actions or outcome
 * distributions. Everything is static inline so each test program includes it alone.
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
    snprintf(sc->ruleset, sizeof sc->ruleset, "viktoria");
    sc->mode = OPFOR_MODE_COMPETITIVE;
    sc->turn_limit = 6;
    sc->weather.level = 2;
    sc->weather.wind = OPFOR_W;
    opfor_table_init(&sc->table, w, d, OPFOR_EDGE_TOP);
    sc->table.rules = opfor_viktoria_terrain_rules;
    snprintf(sc->sides[0].name, sizeof sc->sides[0].name, "Blue");
    snprintf(sc->sides[1].name, sizeof sc->sides[1].name, "Red");
    sc->sides[0].edge = OPFOR_EDGE_BOTTOM;
    sc->sides[1].edge = OPFOR_EDGE_TOP;
    return sc;
}

/* Frees a scenario (fx_builtin, fx_machines_demo, fx_new) with what it holds. */
static inline void fx_scenario_free(opfor_scenario_t *sc) {
    opfor_scenario_free(sc);
    free(sc);
}

/* A built-in scenario by name ("competitive_default", "patrol_default"); free with
 * fx_scenario_free. */
static inline opfor_scenario_t *fx_builtin(const char *name) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    assert_int_equal(opfor_viktoria_builtin_load(name, sc, &d), 0);
    return sc;
}

/* A scenario from YAML text read as file `name`; fails the test (saying why) when it does not
 * load. Free with fx_scenario_free. */
static inline opfor_scenario_t *fx_load(const char *yaml, const char *name) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    opfor_diag_t d;
    int rc = opfor_viktoria_scenario_load_string(yaml, strlen(yaml), name, sc, &d);
    if (rc)
        fprintf(stderr, "%s:%d:%d: %s\n", d.file, d.line, d.col, d.msg);
    assert_int_equal(rc, 0);
    return sc;
}

/* The machines demo (rulesets/viktoria/scenarios/machines_demo.yaml, compiled into the rulesets
 * library for the tests): every XII machine on one table. Free with fx_scenario_free. */
extern const unsigned char opfor_viktoria_scenario_machines_demo[];
extern const unsigned long opfor_viktoria_scenario_machines_demo_len;
static inline opfor_scenario_t *fx_machines_demo(void) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    assert_int_equal(opfor_viktoria_scenario_load_string(
                         (const char *)opfor_viktoria_scenario_machines_demo,
                         opfor_viktoria_scenario_machines_demo_len, "demo", sc, &d),
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
    opfor_unit_place(&opfor_viktoria_terrain_rules.radii, &sc->figures[sc->nfigures], n, c, facing,
                     (opfor_formation_t)formation);
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

/* Generals for both sides: Blue's at p0, Red's at p1. */
static inline void fx_generals(opfor_scenario_t *sc, opfor_pt_t p0, opfor_pt_t p1) {
    fx_general(sc, 0, p0);
    fx_general(sc, 1, p1);
}

/* An infantry unit of n figures in formation 0 facing the enemy (up the table for side 0,
 * down for side 1), with weapons w and no figure flags. Returns the unit index. */
static inline int fx_foot(opfor_scenario_t *sc, const char *name, int side, int q, int n,
                          opfor_pt_t c, unsigned w) {
    return fx_unit(sc, name, side, OPFOR_UT_INFANTRY, q, n, c, opfor_pt(0, side ? -1.0f : 1.0f), 0,
                   w, 0);
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

/* A context with the XII options (specials) and the weather events (XIII) on or off. */
static inline opfor_vk_ctx_t *fx_ctx_opt(const opfor_scenario_t *sc, int specials,
                                         int weather_events) {
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.specials = specials;
    opt.weather_events = weather_events;
    return fx_ctx(sc, &opt);
}

/* Frees a context and the fx_new scenario it was made from. */
static inline void fx_done(opfor_vk_ctx_t *ctx, opfor_scenario_t *sc) {
    opfor_vk_ctx_free(ctx);
    free(sc);
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

/* A fresh state from seed, at unit u's action (fx_activate). */
static inline void fx_start(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, uint64_t seed, int u) {
    opfor_vk_state_init(ctx, st, seed);
    fx_activate(ctx, st, u);
}

/* Gives unit u its action again, as in a later turn: not acted, ACTION phase, current unit. */
static inline void fx_again(opfor_vk_state_t *st, int u) {
    st->units[u].flags &= (uint16_t)~OPFOR_UNIT_ACTED;
    st->phase = OPFOR_VK_PH_ACTION;
    st->cur = (uint8_t)u;
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

/* An action of a kind by unit at target (OPFOR_VK_NONE for none). */
static inline opfor_vk_action_t fx_aim(int kind, int unit, int target) {
    opfor_vk_action_t a = fx_act(kind, unit);
    a.target = (uint8_t)target;
    return a;
}

/* fx_start at a's unit, then plays a, which must succeed. */
static inline void fx_play(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, uint64_t seed,
                           const opfor_vk_action_t *a) {
    fx_start(ctx, st, seed, a->unit);
    assert_int_equal(opfor_vk_apply(ctx, st, a, NULL), 0);
}

/* The index in st's legal list of the first action of a kind (and target, unless
 * OPFOR_VK_NONE), -1 if none; the action is copied to *out when found and out is not NULL. */
static inline int fx_offered(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int kind,
                             int target, opfor_vk_action_t *out) {
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int k = fx_find(a, opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS), kind, target);
    if (k >= 0 && out)
        *out = a[k];
    return k;
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
