/* ai/player_bots.c — the Viktoria! policies of the arena: the behaviour table, the three
 * scripted player strengths, the heuristic planner and MCTS at a level.
 *
 * Each policy reads the engine state inside the adapter's state (opfor/viktoria/adapter.h)
 * and answers with an index into the adapter's legal list, so whatever the adapter adds to
 * the engine's candidates is open to every policy alike. The engine-level chooser at the
 * top is what the director's rollouts call: no allocation, no lookahead.
 */
#include "opfor/player_bots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opfor/ai.h"
#include "opfor/heuristic.h"
#include "opfor/mcts.h"
#include "opfor/viktoria/adapter.h"

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

/* ---------------------------------------------------------------- arena policies */

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

static int open_scripted(int bot, const char *name, opfor_arena_policy_t *out) {
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

/* ---------------------------------------------------------------- MCTS at a level */

/* Node memory of one arena search: the levels' budgets (at most 20,000 iterations) fit. */
#define ARENA_MCTS_BYTES ((size_t)24 << 20)

typedef struct mcts_pol {
    opfor_mcts_t *m;      /* the search, allocated once */
    opfor_heur_t heur;    /* the evaluator's settings */
    opfor_evaluator_t ev; /* the heuristic as prior, playout policy and leaf value */
    int level;            /* opfor_ai_level_t */
    uint64_t seed;        /* the game's seed, keyed by seat */
    uint64_t decision;    /* decisions made in this game */
} mcts_pol_t;

static int mcts_begin(void *self, const opfor_game_t *g, uint64_t game_seed, int side) {
    (void)g;
    mcts_pol_t *p = self;
    p->seed = opfor_rng_mix64(game_seed ^ (UINT64_C(0x4D435453) + (uint64_t)side)); /* "MCTS" */
    p->decision = 0;
    return 0;
}

static int mcts_choose(void *self, const opfor_game_t *g, const void *state, opfor_rng_t *rng,
                       opfor_action_t *out) {
    (void)rng;
    mcts_pol_t *p = self;
    opfor_mcts_config_t cfg = *opfor_mcts_config(p->m);
    opfor_ai_level_apply(p->level, &cfg);
    cfg.wall_ms = 0; /* the budget alone ends a search: results do not depend on speed */
    cfg.seed = p->seed;
    int rc = opfor_mcts_configure(p->m, &cfg);
    opfor_mcts_result_t r;
    uint64_t decision = p->decision++;
    if (rc == 0)
        rc = opfor_mcts_search(p->m, g, state, &p->ev, decision, NULL, &r);
    if (rc < 0)
        return rc;
    int k = opfor_ai_choose(p->level, &r, cfg.seed, decision);
    if (k < 0)
        return k;
    *out = r.top[k].action;
    return 0;
}

static void mcts_release(void *self) {
    mcts_pol_t *p = self;
    if (p)
        opfor_mcts_free(p->m);
    free(p);
}

static int open_mcts(int level, const opfor_game_t *g, opfor_arena_policy_t *out) {
    mcts_pol_t *p = calloc(1, sizeof *p);
    if (!p)
        return OPFOR_ENOMEM;
    p->level = level;
    opfor_heur_init(&p->heur);
    opfor_heur_evaluator(&p->ev, &p->heur);
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    opfor_ai_level_apply(level, &cfg);
    cfg.wall_ms = 0;
    cfg.threads = 1;
    cfg.memory_bytes = ARENA_MCTS_BYTES;
    int rc = opfor_mcts_create(&p->m, g->rs, &cfg, p->ev.scratch_size);
    if (rc != 0) {
        free(p);
        return rc;
    }
    snprintf(out->name, sizeof out->name, "mcts:%s", opfor_ai_level_info(level)->name);
    out->self = p;
    out->begin = mcts_begin;
    out->choose = mcts_choose;
    out->release = mcts_release;
    return 0;
}

int opfor_player_bot_open(const char *spec, const opfor_game_t *g, opfor_arena_policy_t *out) {
    if (!spec || !g || !out)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    int known = strcasecmp(spec, "table") == 0 || strcasecmp(spec, "heuristic") == 0 ||
                strncasecmp(spec, "mcts:", 5) == 0;
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
    if (strcasecmp(spec, "heuristic") == 0)
        return open_scripted(POL_HEURISTIC, "heuristic", out);
    int level;
    if (opfor_ai_level_find(spec + 5, &level) != 0)
        return OPFOR_ENOENT;
    return open_mcts(level, g, out);
}
