/* rulesets/splendid/splendid.c — A Splendid Victory!'s descriptor: the game hooks over the
 * rules engine (engine*.c, docs/splendid.md), its scenarios (engine_scenario.c: files in the
 * format of docs/scenario-format.md and the built-in ones), the calculator (calc.c), the
 * table session (session.c) and the table as a picture (scene.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ai_int.h"
#include "engine_int.h"
#include "scene_int.h"
#include "session_int.h"
#include "splendid_int.h"

#define C(ctx) ((const sv_ctx_t *)(ctx))
#define S(st) ((sv_state_t *)(st))
#define CS(st) ((const sv_state_t *)(st))

static int sv_ctx_new(const char *scenario, void **ctx, opfor_diag_t *diag) {
    sv_ctx_t *c = NULL;
    int rc = sv_ctx_load(scenario, &c, diag);
    *ctx = c;
    return rc;
}

static void sv_ctx_release(void *ctx) {
    sv_ctx_free(ctx);
}

static int sv_init(const void *ctx, void *state, uint64_t seed) {
    if (!ctx)
        return OPFOR_EINVAL; /* a game needs a scenario: ctx_new gives the built-in one */
    return sv_engine_init(C(ctx), S(state), seed);
}

static int sv_current(const void *ctx, const void *state) {
    (void)ctx;
    return sv_engine_current(CS(state));
}

static int sv_legal(const void *ctx, const void *state, opfor_action_t *out, int max) {
    return sv_engine_legal(C(ctx), CS(state), out, max);
}

static int sv_apply(const void *ctx, void *state, const opfor_action_t *a) {
    return sv_engine_apply(C(ctx), S(state), a);
}

static int sv_returns(const void *ctx, const void *state, double *out) {
    (void)ctx;
    sv_engine_returns(CS(state), out);
    return 0;
}

static int sv_progress(const void *ctx, const void *state, opfor_progress_t *out) {
    (void)ctx;
    out->turn = CS(state)->turn;
    out->activation = CS(state)->activations;
    return 0;
}

static int sv_reseed(const void *ctx, void *state, uint64_t seed) {
    (void)ctx;
    opfor_rng_seed(&S(state)->rng, seed, 18);
    return 0;
}

static const char *unit_name(const sv_ctx_t *c, int u) {
    return u >= 0 && u < SV_MAX_UNITS && c ? c->names[u] : "?";
}

static const char *sv_action_str(const void *ctx, const void *state, const opfor_action_t *a,
                                 char *buf, size_t n) {
    (void)state;
    const sv_ctx_t *c = C(ctx);
    const char *u = unit_name(c, a->unit), *t = unit_name(c, a->target);
    switch (a->kind) {
    case SV_A_ROLL:
        snprintf(buf, n, "throw the dice");
        break;
    case SV_A_FIRE:
        snprintf(buf, n, "%s fires at %s", u, t);
        break;
    case SV_A_HOLD:
        snprintf(buf, n, "%s holds", u);
        break;
    case SV_A_JOIN:
        snprintf(buf, n, "%s joins in", u);
        break;
    case SV_A_HOLDBACK:
        snprintf(buf, n, "%s tries to hold back", u);
        break;
    case SV_A_ATTACK:
        if (a->sub == 1)
            snprintf(buf, n, "%s splits its attack between the enemy units it touches", u);
        else
            snprintf(buf, n, "%s attacks %s", u, t);
        break;
    case SV_A_KEEP:
        snprintf(buf, n, "%s keeps its dice", u);
        break;
    case SV_A_RETHROW:
        snprintf(buf, n, "%s re-throws its attack", u);
        break;
    case SV_A_MOVE:
        snprintf(buf, n, "%s %s to (%.1f, %.1f) facing (%.2f, %.2f)", u,
                 a->sub == 1   ? "marches at double time"
                 : a->sub == 2 ? "about-faces"
                 : a->sub == 3 ? "steps"
                 : a->sub == 4 ? "pivots"
                               : "manoeuvres",
                 (double)a->x, (double)a->y, (double)a->x2, (double)a->y2);
        break;
    case SV_A_FORM:
        snprintf(buf, n, "%s forms %s", u, a->sub < SV_FORM_COUNT ? sv_form_names[a->sub] : "?");
        break;
    case SV_A_CHARGE:
        snprintf(buf, n, "%s %s %s", u, a->sub ? "makes an extended charge at" : "charges", t);
        break;
    case SV_A_DISENGAGE:
        snprintf(buf, n, "%s disengages", u);
        break;
    case SV_A_LIMBER:
        snprintf(buf, n, "%s %s", u, a->sub ? "limbers up" : "unlimbers");
        break;
    case SV_A_PROLONG:
        snprintf(buf, n, "%s prolongs", u);
        break;
    case SV_A_MOUNT:
        snprintf(buf, n, "%s %s", u, a->sub ? "mounts" : "dismounts");
        break;
    case SV_A_RETREAT:
        snprintf(buf, n, "%s retreats from the field", u);
        break;
    case SV_A_DONE:
        snprintf(buf, n, "end the movement phase");
        break;
    case SV_A_DEFFIRE:
        snprintf(buf, n, "%s gives defensive fire at %s", u, t);
        break;
    case SV_A_CONCEDE:
        snprintf(buf, n, "concede");
        break;
    case SV_A_RECOIL:
        snprintf(buf, n, "%s recoils from %s", u, t);
        break;
    case SV_A_EVADE:
        snprintf(buf, n, "%s evades %s", u, t);
        break;
    case SV_A_HASTY:
        snprintf(buf, n, "%s forms a hasty defensive block against %s", u, t);
        break;
    case SV_A_INTERCEPT:
        snprintf(buf, n, "%s intercepts %s", u, t);
        break;
    case SV_A_ABOUTFACE:
        snprintf(buf, n, "%s about-faces to meet %s", u, t);
        break;
    default:
        snprintf(buf, n, "action %d", a->kind);
        break;
    }
    return buf;
}

const opfor_ruleset_t opfor_splendid_ruleset = {
    .name = "splendid",
    .title = "A Splendid Victory!",
    .max_players = 2,
    .state_size = sizeof(sv_state_t),
    .max_actions = SV_MAX_ACTIONS,
    .flags = OPFOR_RS_CHANCE | OPFOR_RS_ZERO_SUM,
    .ctx_new = sv_ctx_new,
    .ctx_free = sv_ctx_release,
    .init = sv_init,
    .current = sv_current,
    .legal = sv_legal,
    .apply = sv_apply,
    .returns = sv_returns,
    .reseed = sv_reseed,
    .progress = sv_progress,
    .action_str = sv_action_str,
    .rules_version = "1",
    .calc = &opfor__sv_calc,
    .scenario = &opfor__sv_scenario_rules,
    .builtin_name = sv_builtin_name,
    .builtin_text = sv_builtin_text,
    .ai = &opfor__sv_ai,
    .session = &opfor__sv_session,
    .scene = opfor__sv_scene,
};
