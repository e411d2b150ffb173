/* rulesets/duel/duel_ai.c — what the duel tells the AI: an evaluator (the hit point gap as
 * the leaf value, high cards first as the prior, a mostly greedy playout), the "greedy" bot
 * and the wording of an order ("Red attacks Blue with the 5: 1D6, 2+ to hit").
 *
 * Greedy: attack with the highest card in hand that can hit; guard when none can (or the hand
 * is empty). The playout policy plays greedy three times in four, uniform otherwise, so the
 * search's playouts see both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duel_int.h"
#include "opfor/order.h"

#define C(g) ((const opfor_duel_ctx_t *)(g)->ctx)

/* Index of the greedy choice among acts[n] (legal order: cards ascending, then pass). */
static int greedy_index(const opfor_duel_ctx_t *c, const opfor_action_t *acts, int n) {
    int best = -1, pass = -1;
    for (int i = 0; i < n; i++) {
        if (acts[i].kind == OPFOR_DUEL_PASS)
            pass = i;
        else if (acts[i].kind == OPFOR_DUEL_PLAY &&
                 opfor_duel_need(acts[i].arg, c->defence) <= OPFOR_DUEL_FACES &&
                 (best < 0 || acts[i].arg > acts[best].arg))
            best = i;
    }
    if (best >= 0)
        return best;
    return pass >= 0 ? pass : 0;
}

/* ---------------------------------------------------------------- the evaluator */

static int ev_evaluate(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                       double *values) {
    values[0] = opfor__duel_standing(C(g), state);
    values[1] = -values[0];
    return 0;
}

static int ev_prior(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                    const opfor_action_t *acts, int n, float *prior) {
    const opfor_duel_ctx_t *c = C(g);
    for (int i = 0; i < n; i++) {
        if (acts[i].kind == OPFOR_DUEL_PLAY) {
            int need = opfor_duel_need(acts[i].arg, c->defence);
            double p = need > OPFOR_DUEL_FACES ? 0.0 : (OPFOR_DUEL_FACES + 1 - need) / 6.0;
            prior[i] = (float)(p * (1.0 + acts[i].arg / 6.0));
        } else {
            prior[i] = 0.25f; /* a guard */
        }
    }
    return 0;
}

static int ev_policy(const void *user, void *scratch, const opfor_game_t *g, const void *state,
                     const opfor_action_t *acts, int n, opfor_rng_t *rng) {
    if (opfor_rng_below(rng, 4) == 0)
        return (int)opfor_rng_below(rng, (uint32_t)n);
    return greedy_index(C(g), acts, n);
}

static const opfor_evaluator_t DUEL_EVALUATOR = {
    .name = "duel",
    .user = NULL,
    .scratch_size = 0,
    .evaluate = ev_evaluate,
    .prior = ev_prior,
    .policy = ev_policy,
};

/* ---------------------------------------------------------------- the greedy bot */

static int greedy_choose(void *self, const opfor_game_t *g, const void *state, opfor_rng_t *rng,
                         opfor_action_t *out) {
    opfor_action_t acts[OPFOR_DUEL_MAX_ACTIONS];
    int n = opfor_game_legal(g, state, acts, OPFOR_DUEL_MAX_ACTIONS);
    if (n <= 0)
        return n < 0 ? n : OPFOR_EINVAL;
    *out = acts[greedy_index(C(g), acts, n)];
    return 0;
}

static int bot_open(const char *spec, const opfor_game_t *g, opfor_policy_t *out) {
    if (!spec || !out || strcmp(spec, "greedy") != 0)
        return OPFOR_ENOENT;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "greedy");
    out->choose = greedy_choose;
    return 0;
}

/* ---------------------------------------------------------------- the order */

static void term(opfor_order_t *o, const char *name, const char *label, double value) {
    if (o->nterms >= OPFOR_ORDER_MAX_TERMS)
        return;
    opfor_order_term_t *t = &o->terms[o->nterms++];
    snprintf(t->name, sizeof t->name, "%s", name);
    snprintf(t->label, sizeof t->label, "%s", label);
    t->value = value;
    o->total += value;
}

static int order(const void *ctx, const void *state, const opfor_action_t *a, opfor_order_t *out) {
    const opfor_duel_ctx_t *c = ctx;
    const opfor_duel_state_t *s = state;
    if (!c || !s || !a || !out || s->phase != OPFOR_DUEL_DECIDE)
        return OPFOR_EINVAL;
    int side = s->turn, other = 1 - side;
    memset(out, 0, sizeof *out);
    out->side = side;
    out->unit = side;
    snprintf(out->unit_name, sizeof out->unit_name, "%s", opfor_duel_side_name(side));
    out->kind = a->kind;
    out->target = -1;
    if (a->kind == OPFOR_DUEL_PASS) {
        snprintf(out->verb, sizeof out->verb, "guard");
        snprintf(out->sentence, sizeof out->sentence, "%s guards and heals 1 (now %u of %d hp).",
                 out->unit_name, s->hp[side], c->hp);
        term(out, "heal", "hit points healed", s->hp[side] < c->hp ? 1.0 : 0.0);
        return 0;
    }
    if (a->kind != OPFOR_DUEL_PLAY || !opfor__duel_holds(s, side, a->arg))
        return OPFOR_EINVAL;
    int need = opfor_duel_need(a->arg, c->defence);
    double p = need > OPFOR_DUEL_FACES ? 0.0 : (OPFOR_DUEL_FACES + 1 - need) / 6.0;
    snprintf(out->verb, sizeof out->verb, "attack with the %u", a->arg);
    out->target = other;
    snprintf(out->target_name, sizeof out->target_name, "%s", opfor_duel_side_name(other));
    out->nrolls = 1;
    snprintf(out->rolls[0].label, sizeof out->rolls[0].label, "to hit");
    if (need > OPFOR_DUEL_FACES)
        snprintf(out->rolls[0].need, sizeof out->rolls[0].need, "cannot hit");
    else
        snprintf(out->rolls[0].need, sizeof out->rolls[0].need, "%d+ on 1D6", need);
    out->rolls[0].p = p;
    double mean = 0.0;
    for (int f = 1; f <= OPFOR_DUEL_FACES; f++)
        mean += opfor_duel_damage(a->arg, f, c->defence) / 6.0;
    snprintf(out->sentence, sizeof out->sentence,
             "%s attacks %s with the %u: roll 1D6, %d+ to hit (%.0f%%), %.1f damage expected.",
             out->unit_name, out->target_name, a->arg, need > 6 ? 7 : need, 100.0 * p, mean);
    term(out, "p_hit", "chance to hit", p);
    term(out, "damage", "expected damage", mean / c->hp);
    return 0;
}

/* ---------------------------------------------------------------- the table */

const opfor_ruleset_ai_t opfor__duel_ai = {
    .evaluator = &DUEL_EVALUATOR,
    .uct_c = 1.4,
    .pw_c = 0.0,
    .pw_alpha = 0.0,
    .bots = "greedy",
    .bot_open = bot_open,
    .rollout_bot = "greedy",
    .order = order,
    .director_open = NULL,
};
