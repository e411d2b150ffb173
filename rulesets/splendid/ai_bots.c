/* rulesets/splendid/ai_bots.c — A Splendid Victory!'s scripted bots (docs/splendid.md 10.3):
 * "table", the rule card of ai_table.c, and "heuristic", the planner: every legal action is
 * tried on a copy of the position whose dice are drawn afresh from the bot's own stream (it
 * never peeks at the game's dice), and the one with the best position value for its side
 * (ai_eval.c), with the action's own score as a small tie-breaker, is chosen. In its own
 * manoeuvre phase the planner judges a unit's action as a player does, by what it leads to:
 * the rest of the phase (its other units, the enemy's reactions and intercepts) and the next
 * turn's fire and hand-to-hand are played on with the rule card, both sides, on the same dice
 * for every candidate, before the position is valued (docs/splendid.md 10.3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai_int.h"

#define HEUR_SCORE_WEIGHT 0.15 /* the action score beside the value after it */
#define HEUR_SAMPLES 2         /* fresh dice per action that throws any */
#define HEUR_REACT_SAMPLES 8   /* the same for a reaction (few, and they decide a fight) */
#define HEUR_MOVE_SAMPLES                                                                          \
    4 /* the same for a manoeuvre, whose phase is played on (2: one lucky stream decided) */
#define HEUR_TURNS_AHEAD 1  /* the play-on's horizon: through this many turns' fire and fight */
#define HEUR_ROLL_STEPS 400 /* at most these decisions played on to the horizon */

typedef struct bot {
    int heuristic;
    opfor_action_t acts[SV_MAX_ACTIONS];
    opfor_action_t ract[SV_MAX_ACTIONS]; /* the play-on's legal actions */
    sv_state_t tmp;
} bot_t;

/* Whether applying a throws dice (a charge test, a hold back, a reaction, an attack). */
static int throws(const sv_state_t *s, const opfor_action_t *a) {
    return a->kind == SV_A_CHARGE || a->kind == SV_A_HOLDBACK || a->kind == SV_A_ATTACK ||
           a->kind == SV_A_RETHROW || s->phase == SV_P_REACT;
}

/* Whether a decision in s belongs to the manoeuvre phase (turn, mphase): the moving side's
 * actions and the other side's reactions, intercepts and the break-throughs in it. */
static int in_manoeuvre(const sv_state_t *s, int turn, int mphase) {
    return s->turn == turn && s->mphase == mphase &&
           (s->phase == SV_P_MOVE || s->phase == SV_P_REACT || s->phase == SV_P_INTERCEPT ||
            s->phase == SV_P_BREAK);
}

/* Whether the play-on from a manoeuvre phase of `turn` goes on in t: with deep 0 to the end of
 * that phase, else on through the fire and hand-to-hand of the next `deep` turns, to the first
 * manoeuvre of the last of them. */
static int in_horizon(const sv_state_t *t, int turn, int mphase, int deep) {
    if (!deep)
        return in_manoeuvre(t, turn, mphase);
    if (t->phase == SV_P_OVER)
        return 0;
    return t->turn < turn + deep || !(t->phase == SV_P_MOVE || t->phase == SV_P_REACT ||
                                      t->phase == SV_P_INTERCEPT || t->phase == SV_P_BREAK);
}

/* Plays t on with the rule card, both sides, to the horizon. */
static void play_on(bot_t *b, const sv_ctx_t *c, sv_state_t *t, int turn, int mphase) {
    for (int k = 0; k < HEUR_ROLL_STEPS && in_horizon(t, turn, mphase, HEUR_TURNS_AHEAD); k++) {
        int n = sv_engine_legal(c, t, b->ract, SV_MAX_ACTIONS);
        if (n <= 0)
            return;
        int i = sv_ai_table_pick(c, t, b->ract, n, NULL);
        if (sv_engine_apply(c, t, &b->ract[i < 0 || i >= n ? 0 : i]) != 0)
            return;
    }
}

static int heuristic_pick(bot_t *b, const sv_ctx_t *c, const sv_state_t *s, int n,
                          opfor_rng_t *rng) {
    int side = s->side, best = 0, move = s->phase == SV_P_MOVE;
    double bv = -1e30;
    /* the same dice for every candidate (common random numbers): the actions are compared on
     * what they do, not on whose sample rolled better */
    uint64_t seeds[HEUR_REACT_SAMPLES];
    for (int j = 0; j < HEUR_REACT_SAMPLES; j++)
        seeds[j] = opfor_rng_u32(rng) | (uint64_t)opfor_rng_u32(rng) << 32;
    for (int i = 0; i < n; i++) {
        const opfor_action_t *a = &b->acts[i];
        if (a->kind == SV_A_CONCEDE)
            continue;
        int k = s->phase == SV_P_REACT ? HEUR_REACT_SAMPLES
                : move                 ? HEUR_MOVE_SAMPLES
                : throws(s, a)         ? HEUR_SAMPLES
                                       : 1;
        double v = 0.0;
        for (int j = 0; j < k; j++) {
            memcpy(&b->tmp, s, sizeof *s);
            opfor_rng_seed(&b->tmp.rng, seeds[j], 18);
            if (sv_engine_apply(c, &b->tmp, a) != 0) {
                v = -1e9;
                break;
            }
            if (move)
                play_on(b, c, &b->tmp, s->turn, s->mphase);
            /* a settled result (the game over, or a side past its half breakpoint) counts
             * double: any victory above any position still open */
            double x, r0;
            if (sv_ai_decided(c, &b->tmp, &r0))
                x = 2.0 * r0;
            else
                x = sv_ai_value(c, &b->tmp, NULL);
            if (side == 1)
                x = -x;
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
