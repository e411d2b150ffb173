/* opfor/viktoria/ai.h — the Viktoria! AI kit as the ruleset interface sees it: the table
 * behind opfor_viktoria_ruleset.ai and the hooks in it that live in several files.
 *
 * The kit: the heuristic planner (heuristic.h) as evaluator with its search settings, the
 * scripted bots (player_bots.h, table_bot.h), the order wording (ai_orders.c) and the Patrol
 * Mode director (director.h). ai/ reaches all of it through opfor_ruleset_ai_t only.
 */
#ifndef OPFOR_VIKTORIA_AI_H
#define OPFOR_VIKTORIA_AI_H

#include "opfor/ruleset.h"
#include "opfor/ruleset_ai.h"

struct opfor_order; /* opfor/order.h */

/* The AI table of the "viktoria" ruleset (rulesets/viktoria/ai_kit.c). */
extern const opfor_ruleset_ai_t opfor_viktoria_ai;

/* The ruleset's `order` hook: the order for action a of the side to decide in state (a
 * "viktoria" state of the adapter context ctx) as the table reads it: unit, verb, target,
 * where a move stops (direction, landmark), the rolls from the calculator, the sentence, and
 * the heuristic's terms for a with their total. *out is cleared first; the search's fields
 * stay 0. 0, or OPFOR_EINVAL (NULL argument, or no side decides in state). */
int opfor_vk_ai_order(const void *ctx, const void *state, const opfor_action_t *a,
                      struct opfor_order *out);

/* The ruleset's `inert` hook: 1 when action a in state (of the adapter context ctx) would do
 * nothing at the table: a move (advance, run, crawl; not a crawl in place, not one that
 * mounts, dismounts, climbs or descends) that the engine moves less than a quarter inch even at d3
 * = 3 (opfor_vk_query_move_result), or a fire order with no figure able to fire
 * (opfor_vk_query_shooters). 0 otherwise, OPFOR_EINVAL for a NULL argument. */
int opfor_vk_ai_inert(const void *ctx, const void *state, const opfor_action_t *a);

#endif
