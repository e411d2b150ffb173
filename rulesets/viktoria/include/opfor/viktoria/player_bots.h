/* opfor/viktoria/player_bots.h — scripted players for Viktoria!: the ruleset's bots (the
 * arena's Viktoria! policies) and the three player strengths the Patrol Mode director is
 * measured against.
 *
 *   weak    the behaviour table (opfor/viktoria/table_bot.h), but 40% of its decisions are
 *           a uniform draw among the legal actions: a careless player;
 *   medium  the behaviour table with objective focus: heads for the objectives first;
 *   strong  the heuristic planner (opfor/viktoria/heuristic.h).
 *
 * All of them work over the "viktoria" ruleset (opfor/viktoria/adapter.h), in competitive
 * and Patrol Mode games, reading the engine state inside the adapter's state. The engine-
 * level chooser serves the director's rollouts, which must be fast and allocation-free.
 */
#ifndef OPFOR_VIKTORIA_PLAYER_BOTS_H
#define OPFOR_VIKTORIA_PLAYER_BOTS_H

#include "opfor/ruleset_ai.h"
#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/table_bot.h"
#include "opfor/vocab.h"

typedef enum opfor_player_bot {
    OPFOR_PLAYER_BOT_WEAK = 0,
    OPFOR_PLAYER_BOT_MEDIUM,
    OPFOR_PLAYER_BOT_STRONG,
    OPFOR_PLAYER_BOT_COUNT
} opfor_player_bot_t;
/* "weak", "medium", "strong". */
extern const opfor_name_t opfor_player_bot_names[];

/* Share of the weak bot's decisions drawn uniformly instead of from the table. */
#define OPFOR_PLAYER_BOT_WEAK_NOISE 0.4

/* Picks one of the n engine actions acts of st for bot strength `bot` without the heuristic
 * (strong falls back to the medium table here): the cheap model the director's rollouts
 * use. Returns an index into acts; draws from rng only. */
int opfor_player_bot_choose_vk(int bot, const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                               const opfor_vk_action_t *acts, int n, opfor_rng_t *rng);

/* The bots opfor_player_bot_open knows, for help texts. */
#define OPFOR_PLAYER_BOT_SPECS "table, weak, medium, strong, heuristic"

/* Opens a Viktoria! policy (the ruleset's bot_open hook): "table" (opfor/viktoria/table_bot.h),
 * "weak", "medium", "strong" (above) or "heuristic" (the planner's best action). OPFOR_ENOENT
 * for another spec, OPFOR_ENOTSUP when g is not the "viktoria" ruleset, OPFOR_ENOMEM. */
int opfor_player_bot_open(const char *spec, const opfor_game_t *g, opfor_policy_t *out);

#endif
