/* rulesets/splendid/ai_kit.c — A Splendid Victory!'s AI table (opfor/ruleset_ai.h): the
 * evaluator (ai_eval.c), the bots "table" and "heuristic" (ai_table.c, ai_bots.c), the order
 * wording and the inert test (ai_orders.c). No director.
 */
#include "ai_int.h"

const opfor_ruleset_ai_t opfor__sv_ai = {
    .evaluator = &opfor__sv_evaluator,
    .uct_c = 1.0,
    .pw_c = 2.0,
    .pw_alpha = 0.5,
    .bots = "table, heuristic",
    .bot_open = sv_ai_bot_open,
    .rollout_bot = "table",
    .order = sv_ai_order,
    .director_open = NULL,
    .inert = sv_ai_inert,
};
