/* opfor/orders.h — building an order (opfor/order.h) from the AI's decision.
 *
 * The ruleset words the action (opfor_ruleset_ai_t.order: unit, verb, target, move, rolls,
 * sentence, the terms of its score); this module adds what the search found: the reason (the
 * deciding terms, then the search's value and visits), the runner-up with its value, and the
 * alternatives with their visits and values for a verbose order. A ruleset without the hook
 * gets the action's phrase as the sentence.
 */
#ifndef OPFOR_ORDERS_H
#define OPFOR_ORDERS_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/ai.h"
#include "opfor/order.h"
#include "opfor/ruleset.h"

_Static_assert(OPFOR_ORDER_MAX_ALTS >= OPFOR_MCTS_TOP_K, "an order lists every top choice");

/* Builds the order for decision d taken in state (a state of g's ruleset): the ruleset's
 * wording, then the reason, runner-up and alternatives from d's search. Returns 0, or
 * OPFOR_EINVAL (NULL argument, no side decides in state, or the ruleset's hook refused). */
int opfor_order_from_decision(const opfor_game_t *g, const void *state,
                              const opfor_ai_decision_t *d, opfor_order_t *out);
/* The order for action a alone (no search: value 0, no runner-up, reason from the terms). */
int opfor_order_from_action(const opfor_game_t *g, const void *state, const opfor_action_t *a,
                            opfor_order_t *out);
/* The terms that decided an order, largest first, as one phrase:
 * "threat to the enemy +1.20, cover +0.70, threat from the enemy -0.45" (at most `max`
 * terms, those under 0.05 left out; ties go to the later term; "no strong reason" when
 * none). Returns buf. */
const char *opfor_order_terms(const opfor_order_t *o, int max, char *buf, size_t n);
/* Text of an order: the sentence, then "  why: <reason>" and "  runner-up: <phrase>
 * (<value>)"; verbose adds one line per alternative with visits and values. Returns buf. */
const char *opfor_order_format(const opfor_order_t *o, int verbose, char *buf, size_t n);

#endif
