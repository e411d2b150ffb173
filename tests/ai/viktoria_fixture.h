/* tests/ai/viktoria_fixture.h — small Viktoria! positions built in code for the AI's tests.
 *
 * A test writes a scenario as YAML text (a table, two sides, a few units), gets the ruleset
 * context and the opening state, and puts one unit at its action (phase ACTION) so the
 * legal list and the planner's scores can be read at once. Header-only: each test program
 * includes it once.
 */
#ifndef TESTS_AI_VIKTORIA_FIXTURE_H
#define TESTS_AI_VIKTORIA_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ruleset.h"
#include "opfor/scenario.h"
#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/engine_query.h"

typedef struct vkfix {
    opfor_vk_rs_ctx_t *ctx;  /* the ruleset's context */
    opfor_game_t game;       /* bound to it */
    opfor_vk_rs_state_t *st; /* the position (heap: about 7 KiB) */
    opfor_action_t acts[OPFOR_VK_RS_MAX_ACTIONS];
    int n; /* legal actions in acts after vkfix_act */
} vkfix_t;

/* The table, sides and the first lines every fixture shares. */
#define VKFIX_HEAD                                                                                 \
    "name: Fixture\n"                                                                              \
    "ruleset: viktoria\n"                                                                          \
    "mode: competitive\n"                                                                          \
    "turn_limit: 6\n"                                                                              \
    "table: {width: 72, depth: 48, north: top}\n"                                                  \
    "sides:\n"                                                                                     \
    "  - {name: Red, edge: bottom}\n"                                                              \
    "  - {name: Blue, edge: top}\n"

/* A ruleset action of kind for unit at target (-1: none), aimed at (x, y). */
static inline opfor_action_t vkfix_action(int kind, int unit, int target, float x, float y) {
    opfor_action_t a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.unit = (uint8_t)unit;
    a.target = target < 0 ? OPFOR_ACTION_NONE : (uint8_t)target;
    a.arg = OPFOR_VK_NO_FIGURE;
    a.x = x;
    a.y = y;
    return a;
}

/* Builds the fixture from scenario text; 0 on success. */
static inline int vkfix_open(vkfix_t *f, const char *yaml, uint64_t seed) {
    memset(f, 0, sizeof *f);
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    if (!sc)
        return -1;
    int rc = opfor_viktoria_scenario_load_string(yaml, strlen(yaml), "fixture", sc, &d);
    if (rc == 0) {
        rc = opfor_vk_rs_ctx_new(&f->ctx, sc, "fixture", NULL, &d);
        opfor_scenario_free(sc);
    }
    free(sc);
    if (rc) {
        fprintf(stderr, "fixture: %s\n", d.msg);
        return rc;
    }
    f->st = calloc(1, sizeof *f->st);
    if (!f->st)
        return -1;
    opfor_game_init(&f->game, &opfor_viktoria_ruleset, f->ctx, 0);
    opfor_vk_rs_state_init(f->ctx, f->st, seed);
    f->st->vk.turn = 1;
    return 0;
}

static inline void vkfix_close(vkfix_t *f) {
    opfor_vk_rs_ctx_free(f->ctx);
    free(f->st);
}

/* Index of the unit called name, -1 when none. */
static inline int vkfix_unit(const vkfix_t *f, const char *name) {
    for (int u = 0; u < f->st->vk.nunits; u++)
        if (strcmp(f->st->vk.units[u].name, name) == 0)
            return u;
    return -1;
}

/* Puts unit `name` at its action (the engine's ACTION phase) and lists the legal actions. */
static inline int vkfix_act(vkfix_t *f, const char *name) {
    int u = vkfix_unit(f, name);
    if (u < 0)
        return -1;
    opfor_vk_state_t *v = &f->st->vk;
    v->phase = OPFOR_VK_PH_ACTION;
    v->cur = (uint8_t)u;
    v->side = v->units[u].side;
    v->restricted = 0;
    f->n = opfor_game_legal(&f->game, f->st, f->acts, OPFOR_VK_RS_MAX_ACTIONS);
    return u;
}

/* Where unit u's centre is now. */
static inline opfor_pt_t vkfix_centre(const vkfix_t *f, int u) {
    opfor_vk_ugeo_t g;
    opfor_vk_query_geo(&f->st->vk, u, &g);
    return g.c;
}

/* Whether a is a movement action (advance, run, crawl; not moving fire). */
static inline int vkfix_is_move(const opfor_action_t *a) {
    return (a->kind == OPFOR_VK_ADVANCE || a->kind == OPFOR_VK_RUN || a->kind == OPFOR_VK_CRAWL);
}

/* Where a move of unit u toward (x, y) would stop on average. */
static inline opfor_pt_t vkfix_stop(const vkfix_t *f, int u, const opfor_action_t *a) {
    opfor_pt_t c = vkfix_centre(f, u), d = opfor_pt(a->x, a->y);
    float allow = opfor_vk_query_move(opfor_vk_rs_engine(f->ctx), &f->st->vk, u, a->kind);
    float dist = opfor_dist(c, d);
    return dist <= allow || dist <= 0.0f ? d : opfor_vlerp(c, d, allow / dist);
}

#endif
