/* rulesets/splendid/ai_bots.c — A Splendid Victory!'s scripted bots (docs/splendid.md 10.3):
 * "table", the rule card of ai_table.c, and "heuristic", the planner: every legal action is
 * tried on a copy of the position whose dice are drawn afresh from the bot's own stream (it
 * never peeks at the game's dice), and the one with the best position value for its side
 * (ai_eval.c), with the action's own score as a small tie-breaker, is chosen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai_int.h"

#define HEUR_SCORE_WEIGHT 0.15 /* the action score beside the value after it */
#define HEUR_SAMPLES 2         /* fresh dice per action that throws any */
#define HEUR_REACT_SAMPLES 8   /* the same for a reaction (few, and they decide a fight) */

typedef struct bot {
    int heuristic;
    opfor_action_t acts[SV_MAX_ACTIONS];
    sv_state_t tmp;
} bot_t;

/* Whether applying a throws dice (a charge test, a hold back, a reaction, an attack). */
static int throws(const sv_state_t *s, const opfor_action_t *a) {
    return a->kind == SV_A_CHARGE || a->kind == SV_A_HOLDBACK || a->kind == SV_A_ATTACK ||
           a->kind == SV_A_RETHROW || s->phase == SV_P_REACT;
}

static int heuristic_pick(bot_t *b, const sv_ctx_t *c, const sv_state_t *s, int n,
                          opfor_rng_t *rng) {
    int side = s->side, best = 0;
    double bv = -1e30;
    for (int i = 0; i < n; i++) {
        const opfor_action_t *a = &b->acts[i];
        if (a->kind == SV_A_CONCEDE)
            continue;
        int k = s->phase == SV_P_REACT ? HEUR_REACT_SAMPLES : throws(s, a) ? HEUR_SAMPLES : 1;
        double v = 0.0;
        for (int j = 0; j < k; j++) {
            memcpy(&b->tmp, s, sizeof *s);
            opfor_rng_seed(&b->tmp.rng, opfor_rng_u32(rng) | (uint64_t)opfor_rng_u32(rng) << 32,
                           18);
            if (sv_engine_apply(c, &b->tmp, a) != 0) {
                v = -1e9;
                break;
            }
            double x;
            if (b->tmp.phase == SV_P_OVER) {
                double r[2];
                sv_engine_returns(&b->tmp, r);
                x = 2.0 * r[side];
            } else {
                x = sv_ai_value(c, &b->tmp, NULL);
                if (side == 1)
                    x = -x;
            }
            v += x / k;
        }
        v += HEUR_SCORE_WEIGHT * sv_ai_score(c, s, a, NULL);
        if (v > bv) {
            bv = v;
            best = i;
        }
    }
    return best;
}

static int bot_choose(void *self, const opfor_game_t *g, const void *state, opfor_rng_t *rng,
                      opfor_action_t *out) {
    bot_t *b = self;
    const sv_ctx_t *c = g->ctx;
    const sv_state_t *s = state;
    int n = sv_engine_legal(c, s, b->acts, SV_MAX_ACTIONS);
    if (n <= 0)
        return n < 0 ? n : OPFOR_EINVAL;
    int i =
        b->heuristic ? heuristic_pick(b, c, s, n, rng) : sv_ai_table_pick(c, s, b->acts, n, NULL);
    *out = b->acts[i < 0 || i >= n ? 0 : i];
    return 0;
}

static void bot_release(void *self) {
    free(self);
}

int sv_ai_bot_open(const char *spec, const opfor_game_t *g, opfor_policy_t *out) {
    (void)g;
    if (!spec || !out)
        return OPFOR_ENOENT;
    int heuristic;
    if (strcmp(spec, "table") == 0)
        heuristic = 0;
    else if (strcmp(spec, "heuristic") == 0)
        heuristic = 1;
    else
        return OPFOR_ENOENT;
    bot_t *b = calloc(1, sizeof *b);
    if (!b)
        return OPFOR_ENOMEM;
    b->heuristic = heuristic;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", spec);
    out->self = b;
    out->choose = bot_choose;
    out->release = bot_release;
    return 0;
}
