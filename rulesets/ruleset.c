/* rulesets/ruleset.c — the ruleset registry and the opfor_game_* wrappers.
 *
 * The registry table is generated at configure time from the ruleset folders
 * (rulesets/NAME/ruleset.cmake, see rulesets/CMakeLists.txt and registry_int.h).
 * The wrappers check arguments, keep the per-game counters and, for apply, run the debug
 * legality check before calling the ruleset's own hook (OpenSpiel's ApplyAction calling
 * DoApplyAction). Missing optional hooks become OPFOR_ENOTSUP here, so callers need not
 * test the function pointers themselves.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "opfor/hash.h"
#include "opfor/ruleset.h"
#include "registry_int.h"

/* ---------------------------------------------------------------- the registry */

#define REGISTRY opfor__ruleset_registry

const opfor_ruleset_entry_t *opfor_ruleset_list(size_t *n) {
    if (n) {
        size_t k = 0;
        while (REGISTRY[k].name)
            k++;
        *n = k;
    }
    return REGISTRY;
}

const opfor_ruleset_t *opfor_ruleset_find(const char *name) {
    if (!name)
        return NULL;
    for (const opfor_ruleset_entry_t *e = REGISTRY; e->name; e++)
        if (strcasecmp(e->name, name) == 0)
            return e->rs;
    return NULL;
}

int opfor_ruleset_ctx_new(const opfor_ruleset_t *rs, const char *scenario, void **ctx,
                          opfor_diag_t *diag) {
    if (!rs || !ctx)
        return OPFOR_EINVAL;
    *ctx = NULL;
    if (!rs->ctx_new)
        return OPFOR_ENOTSUP;
    return rs->ctx_new(scenario, ctx, diag);
}

void opfor_ruleset_ctx_free(const opfor_ruleset_t *rs, void *ctx) {
    if (rs && rs->ctx_free && ctx)
        rs->ctx_free(ctx);
}

/* ---------------------------------------------------------------- the wrapper */

int opfor_game_init(opfor_game_t *g, const opfor_ruleset_t *rs, const void *ctx, unsigned options) {
    if (!g || !rs)
        return OPFOR_EINVAL;
    memset(g, 0, sizeof *g);
    if (!rs->init || !rs->current || !rs->legal || !rs->apply || !rs->returns)
        return OPFOR_EINVAL;
    if (rs->max_players < 1 || rs->max_players > OPFOR_MAX_PLAYERS || rs->state_size == 0 ||
        rs->max_actions < 1)
        return OPFOR_EINVAL;
    g->rs = rs;
    g->ctx = ctx;
    g->options = options;
    return 0;
}

int opfor_game_new_state(const opfor_game_t *g, void *state, uint64_t seed) {
    return g->rs->init(g->ctx, state, seed);
}

void opfor_game_clone(const opfor_game_t *g, void *dst, const void *src) {
    memcpy(dst, src, g->rs->state_size);
}

int opfor_game_current(const opfor_game_t *g, const void *state) {
    return g->rs->current(g->ctx, state);
}

int opfor_game_legal(const opfor_game_t *g, const void *state, opfor_action_t *out, int max) {
    if (max < 0 || (max > 0 && !out))
        return OPFOR_EINVAL;
    return g->rs->legal(g->ctx, state, out, max);
}

/* Debug check: is a among the legal actions (or the explicit outcomes at a chance node)?
 * Uses a stack buffer bounded by the ruleset's max_actions (checked by the caller). */
static int listed(const opfor_game_t *g, const void *state, const opfor_action_t *a) {
    enum { CAP = 512 };
    int cap = g->rs->max_actions < CAP ? g->rs->max_actions : CAP;
    opfor_action_t acts[CAP];
    int n = g->rs->legal(g->ctx, state, acts, cap);
    for (int i = 0; i < n; i++)
        if (opfor_action_eq(&acts[i], a))
            return 1;
    if (g->rs->chance_outcomes && g->rs->current(g->ctx, state) == OPFOR_PLAYER_CHANCE) {
        opfor_chance_outcome_t outs[64];
        int k = g->rs->chance_outcomes(g->ctx, state, outs, 64);
        for (int i = 0; i < k; i++)
            if (opfor_action_eq(&outs[i].action, a))
                return 1;
    }
    return 0;
}

int opfor_game_apply(opfor_game_t *g, void *state, const opfor_action_t *a) {
    if (!a)
        return OPFOR_EINVAL;
    g->applies++;
    if ((g->options & OPFOR_GAME_CHECK_LEGAL) && !listed(g, state, a)) {
        g->rejected++;
        return OPFOR_EILLEGAL;
    }
    int rc = g->rs->apply(g->ctx, state, a);
    if (rc < 0)
        g->rejected++;
    return rc;
}

int opfor_game_chance_outcomes(const opfor_game_t *g, const void *state,
                               opfor_chance_outcome_t *out, int max) {
    if (!g->rs->chance_outcomes)
        return OPFOR_ENOTSUP;
    return g->rs->chance_outcomes(g->ctx, state, out, max);
}

int opfor_game_returns(const opfor_game_t *g, const void *state, double *out) {
    return g->rs->returns(g->ctx, state, out);
}

int opfor_game_evaluate(const opfor_game_t *g, const void *state, double *out) {
    if (!g->rs->evaluate)
        return OPFOR_ENOTSUP;
    return g->rs->evaluate(g->ctx, state, out);
}

int opfor_game_resample(const opfor_game_t *g, void *state, int observer, opfor_rng_t *rng) {
    if (!g->rs->resample)
        return (g->rs->flags & OPFOR_RS_HIDDEN) ? OPFOR_ENOTSUP : 0;
    return g->rs->resample(g->ctx, state, observer, rng);
}

int opfor_game_reseed(const opfor_game_t *g, void *state, uint64_t seed) {
    if (!g->rs->reseed)
        return OPFOR_ENOTSUP;
    return g->rs->reseed(g->ctx, state, seed);
}

int opfor_game_view(const opfor_game_t *g, const void *state, int viewer, void *out) {
    if (!out || viewer < OPFOR_VIEW_ALL || viewer >= g->rs->max_players)
        return OPFOR_EINVAL;
    if (!g->rs->view) {
        memcpy(out, state, g->rs->state_size);
        return 0;
    }
    return g->rs->view(g->ctx, state, viewer, out);
}

int opfor_game_scene(const opfor_game_t *g, const void *state, int viewer, opfor_scene_t *out) {
    if (!out || viewer < OPFOR_VIEW_ALL || viewer >= g->rs->max_players)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    if (!g->rs->scene)
        return OPFOR_ENOTSUP;
    return g->rs->scene(g->ctx, state, viewer, out);
}

int opfor_game_progress(const opfor_game_t *g, const void *state, opfor_progress_t *out) {
    if (!g->rs->progress)
        return OPFOR_ENOTSUP;
    return g->rs->progress(g->ctx, state, out);
}

int opfor_game_serialize(const opfor_game_t *g, const void *state, void *buf, size_t size,
                         size_t *len) {
    if (!g->rs->serialize)
        return OPFOR_ENOTSUP;
    return g->rs->serialize(g->ctx, state, buf, size, len);
}

int opfor_game_deserialize(const opfor_game_t *g, void *state, const void *buf, size_t len) {
    if (!g->rs->deserialize)
        return OPFOR_ENOTSUP;
    return g->rs->deserialize(g->ctx, state, buf, len);
}

uint64_t opfor_game_hash(const opfor_game_t *g, const void *state) {
    if (g->rs->hash)
        return g->rs->hash(g->ctx, state);
    return opfor_fnv1a(OPFOR_FNV1A_BASIS_SHORT, state, g->rs->state_size);
}

const char *opfor_game_action_str(const opfor_game_t *g, const void *state, const opfor_action_t *a,
                                  char *buf, size_t n) {
    if (!buf || n == 0)
        return buf;
    if (g->rs->action_str)
        return g->rs->action_str(g->ctx, state, a, buf, n);
    snprintf(buf, n, "kind %u unit %u target %u sub %u arg %u flags %u at (%g, %g)", a->kind,
             a->unit, a->target, a->sub, a->arg, a->flags, (double)a->x, (double)a->y);
    return buf;
}

int opfor_action_eq(const opfor_action_t *a, const opfor_action_t *b) {
    return memcmp(a, b, sizeof *a) == 0;
}

opfor_action_t opfor_action_make(int kind) {
    opfor_action_t a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.unit = OPFOR_ACTION_NONE;
    a.target = OPFOR_ACTION_NONE;
    return a;
}
