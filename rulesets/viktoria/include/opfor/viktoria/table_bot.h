/* opfor/viktoria/table_bot.h — a behaviour-table bot for Viktoria!, in the style of printed solo
 * rules.
 *
 * Printed solo wargames run their non-player side from a card of "if ... then ..." rows read
 * top to bottom: the first row whose condition holds says what the unit does. This bot does
 * the same over the rules engine's legal actions, with no lookahead and no dice peeking, so it
 * is fast (a rollout model for the director) and easy to predict (a yardstick in the arena).
 * Rules cited: Viktoria! V.A (activation), VI (actions), VIII (movement), IX (fire), X
 * (charges, reactions), XI (morale), XV.B (headquarters and supply try to escape).
 *
 * THE TABLE (first matching row wins; "nearest" is by centre distance; a row whose action
 * the engine does not list is skipped):
 *
 *   Which unit acts (V.A): a unit in melee; else a Wavering unit; else the unit nearest to
 *   any enemy; generals, headquarters and supply last; ties by unit number.
 *
 *   Every unit:   1. in melee: fight (X).
 *                 2. Wavering: rally when it succeeds at least half the time (XI: a failed
 *                    rally removes the unit); else fall back away from the nearest enemy;
 *                    else take cover or stand.
 *   Ground (XIV): 3.5 the nearest free unit (not in melee or Wavering, allowed onto the
 *                    ground: riders never into a building) to an objective its side does not
 *                    hold goes for it, once the turns left at about 6 inches a turn barely
 *                    cover the way (opfor_table_bot_objective); a unit on an objective never
 *                    moves off it.
 *   Infantry:     3. charge the nearest chargeable enemy when the unit is veteran or better,
 *                    or the target is Wavering, and the odds are there: a Wavering target, a
 *                    gun's crew, a headquarters or supply, or no more figures than the
 *                    chargers (X);
 *                 4. an enemy in range and visible: fire at the nearest, men standing on an
 *                    objective first (IX);
 *                 5. advance toward the goal, through cover when a covered spot also gains
 *                    ground; run instead when the nearest enemy is over 20 inches away (VIII);
 *                 6. stand.
 *   Cavalry:      3. charge the nearest chargeable enemy with the odds (as infantry);
 *                 4. fire at the nearest; 5. gallop (run) toward the goal while the nearest
 *                    enemy is within its charge reach plus 4 inches, else wait; 6. stand.
 *   Artillery/MG: 3. limbered with an enemy on the table: unlimber facing it (VIII);
 *                 4. unloaded: load (IX);  5. fire the gun or the MG (narrowest arc) at the
 *                    nearest; 6. personal fire at the nearest; 7. limbered: advance toward
 *                    the goal; 8. stand.
 *   HQ, supply:   3. an enemy within 18 inches: run away from it (XV.B: they try to escape);
 *                 4. fire at the nearest when it is in range; 5. stand.
 *   Generals:     3. an enemy within 12 inches: advance away from it; 4. stand.
 *   Other types:  as infantry.
 *   Charged (X):  counter-charge when offered; else defensive fire; else run away when
 *                 Wavering (a full run, never a crawl or an advance); else stand and fight.
 *                 Charging or charged, the table always follows up after the melee (X steps
 *                 8-9: never OPFOR_VK_AF_HOLD).
 *   Mesmerised figures (XII.B) and anything else: the first legal action.
 *
 * The goal is the nearest enemy unit; with objective focus it is the nearest objective the
 * side does not hold yet, then the nearest enemy. The rng only breaks exact ties, so the bot
 * is deterministic for a given state and rng.
 */
#ifndef OPFOR_VIKTORIA_TABLE_BOT_H
#define OPFOR_VIKTORIA_TABLE_BOT_H

#include "opfor/rng.h"
#include "opfor/viktoria/engine.h"

/* How the bot leans. Zero-initialised options are the plain table. */
typedef struct opfor_table_bot_opts {
    int objective_focus; /* 1: head for objectives not yet held before hunting enemies */
    float run_beyond;    /* infantry run instead of advancing beyond this gap (0: 20 in) */
} opfor_table_bot_opts_t;

/* Picks one of the n legal actions acts of st (listed by opfor_vk_legal) for the side to
 * decide, following the table above; o may be NULL (the plain table). Returns an index into
 * acts (0 when n <= 1). Draws from rng only to break exact ties; never allocates. */
int opfor_table_bot_choose(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                           const opfor_vk_action_t *acts, int n, const opfor_table_bot_opts_t *o,
                           opfor_rng_t *rng);

/* The objective the table sends unit u to (XIV): the first, by points then nearness, that
 * u's side does not hold and u is the nearest free unit that may enter it; or the one u
 * stands on (*on = 1). *late = 1 once the turns left barely cover the way there (about 6 in a
 * turn, 12 in to spare): from then on the table moves u there before it fires. Returns the
 * objective's index, or -1 (none, or u is not a unit that takes ground). */
int opfor_table_bot_objective(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int *on,
                              int *late);

#endif
