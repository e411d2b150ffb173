/* rulesets/viktoria/ai_kit.c — the Viktoria! AI table (opfor/viktoria/ai.h): what ai/ may
 * ask of this ruleset, as data. Every entry points into the kit's own files.
 */
#include "opfor/viktoria/ai.h"

#include "opfor/viktoria/director.h"
#include "opfor/viktoria/heuristic.h"
#include "opfor/viktoria/player_bots.h"

const opfor_ruleset_ai_t opfor_viktoria_ai = {
    .evaluator = &opfor_heur_default_evaluator,
    .uct_c = OPFOR_HEUR_UCT_C,
    .pw_c = OPFOR_HEUR_PW_C,
    .pw_alpha = OPFOR_HEUR_PW_ALPHA,
    .bots = OPFOR_PLAYER_BOT_SPECS,
    .bot_open = opfor_player_bot_open,
    .rollout_bot = "table", /* the director's enemy model (opfor_director_config_default) */
    .order = opfor_vk_ai_order,
    .director_open = opfor_director_referee_open,
    .inert = opfor_vk_ai_inert,
};
