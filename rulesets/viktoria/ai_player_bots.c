/* rulesets/viktoria/ai_player_bots.c — the Viktoria! bots (the ruleset's bot_open): the
 * behaviour table, the three scripted player strengths and the heuristic planner. The
 * search at a level is ai/'s own policy, with this ruleset's evaluator.
 *
 * Each policy reads the engine state inside the adapter's state (opfor/viktoria/adapter.h)
 * and answers with an index into the adapter's legal list, so whatever the adapter adds to
 * the engine's candidates is open to every policy alike. The engine-level chooser at the
 * top is what the director's rollouts call: no allocation, no lookahead.
 */
#include "opfor/viktoria/player_bots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/heuristic.h"

const opfor_name_t opfor_player_bot_names[] = {
    {"weak", OPFOR_PLAYER_BOT_WEAK},
    {"medium", OPFOR_PLAYER_BOT_MEDIUM},
    {"strong", OPFOR_PLAYER_BOT_STRONG},
    {NULL, 0},
};

int opfor_player_bot_choose_vk(int bot, const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                               const opfor_vk_action_t *acts, int n, opfor_rng_t *rng) {
    if (n <= 1)
        return 0;
    opfor_table_bot_opts_t o;
    memset(&o, 0, sizeof o);
    if (bot == OPFOR_PLAYER_BOT_WEAK) {
        if (opfor_rng_unit(rng) < OPFOR_PLAYER_BOT_WEAK_NOISE)
            return (int)opfor_rng_below(rng, (uint32_t)n);
    } else {
        o.objective_focus = 1;
    }
    return opfor_table_bot_choose(ctx, st, acts, n, &o, rng);
}

/* ---------------------------------------------------------------- the bots */

/* Kinds of scripted policy behind one choose function. */
enum { POL_TABLE = 100, POL_HEURISTIC }; /* besides opfor_player_bot_t */

typedef struct vk_pol {
    int bot;
    opfor_heur_t heur;
    /* the planner's settings (heuristic, strong) */  /* opfor_player_bot_t or POL_TABLE */
    opfor_action_t acts[OPFOR_VK_RS_MAX_ACTIONS];     /* the adapter's legal list */
    opfor_vk_action_t vacts[OPFOR_VK_RS_MAX_ACTIONS]; /* the same as engine actions */
} vk_pol_t;

/* The engine context and state inside a "viktoria" game. */
static const opfor_vk_ctx_t *engine_of(const opfor_game_t *g) {
    return opfor_vk_rs_engine((const opfor_vk_rs_ctx_t *)g->ctx);
}

static int vk_pol_choose(void *self, const opfor_game_t *g, const void *state, opfor_rng_t *rng,
                         opfor_action_t *out) {
    vk_pol_t *p = self;
    int n = opfor_game_legal(g, state, p->acts, OPFOR_VK_RS_MAX_ACTIONS);
    if (n < 1)
        return n < 0 ? n : OPFOR_EINVAL;
    if (p->bot == POL_HEURISTIC || p->bot == OPFOR_PLAYER_BOT_STRONG) {
        int k = opfor_heur_best(&p->heur, g, state, p->acts, n, NULL);
        if (k < 0)
            return k;
        *out = p->acts[k < n ? k : 0];
        return 0;
    }
    for (int i = 0; i < n; i++)
        opfor_vk_rs_action_to_engine(&p->acts[i], &p->vacts[i]);
    const opfor_vk_state_t *st = &((const opfor_vk_rs_state_t *)state)->vk;
    int k;
    if (p->bot == POL_TABLE)
        k = opfor_table_bot_choose(engine_of(g), st, p->vacts, n, NULL, rng);
    else
        k = opfor_player_bot_choose_vk(p->bot, engine_of(g), st, p->vacts, n, rng);
    if (k < 0 || k >= n)
        k = 0;
    *out = p->acts[k];
    return 0;
}

static int open_scripted(int bot, const char *name, opfor_policy_t *out) {
    vk_pol_t *p = calloc(1, sizeof *p);
    if (!p)
        return OPFOR_ENOMEM;
    p->bot = bot;
    opfor_heur_init(&p->heur);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->self = p;
    out->choose = vk_pol_choose;
    out->release = free;
    return 0;
}

int opfor_player_bot_open(const char *spec, const opfor_game_t *g, opfor_policy_t *out) {
    if (!spec || !g || !out)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    int known = strcasecmp(spec, "table") == 0 || strcasecmp(spec, "heuristic") == 0;
    int bot = -1;
    if (opfor_vocab_lookup(opfor_player_bot_names, spec, &bot) == 0)
        known = 1;
    if (!known)
        return OPFOR_ENOENT;
    if (g->rs != &opfor_viktoria_ruleset)
        return OPFOR_ENOTSUP;
    if (strcasecmp(spec, "table") == 0)
        return open_scripted(POL_TABLE, "table", out);
    if (bot >= 0)
        return open_scripted(bot, opfor_player_bot_names[bot].name, out);
    return open_scripted(POL_HEURISTIC, "heuristic", out);
}
