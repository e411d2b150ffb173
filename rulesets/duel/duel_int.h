/* rulesets/duel/duel_int.h — what the duel's files share beyond the public header: the AI,
 * calculator and session tables (duel_ai.c, duel_calc.c, duel_session.c) that the descriptor
 * in duel.c points to, and the small rule helpers they use.
 */
#ifndef OPFOR_DUEL_INT_H
#define OPFOR_DUEL_INT_H

#include "opfor/duel/duel.h"
#include "opfor/ruleset_ai.h"
#include "opfor/ruleset_calc.h"
#include "opfor/session.h"

extern const opfor_ruleset_ai_t opfor__duel_ai;
extern const opfor_ruleset_calc_t opfor__duel_calc;
extern const opfor_ruleset_session_t opfor__duel_session;

/* Cards in side's hand (known or unknown). */
int opfor__duel_hand_count(const opfor_duel_state_t *s, int side);
/* 1 when side holds a card of value card (1..6). */
int opfor__duel_holds(const opfor_duel_state_t *s, int side, int card);
/* The standing for Red in [-0.9, 0.9] (Blue's is its negation): the hit point gap as a
 * share of the start, with a little for the cards in hand. */
double opfor__duel_standing(const opfor_duel_ctx_t *c, const opfor_duel_state_t *s);

#endif
