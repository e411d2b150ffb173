/* opfor/viktoria/patrol_engine.h — Patrol Mode as the rules engine's "who activates next"
 * hook (Viktoria! XV.A on top of engine.h's opfor_vk_initiative_fn).
 *
 * The engine asks the hook at every initiative chance node; the hook presses the button
 * until a side gets the initiative, resolving each spotting on the way into the engine
 * state's own unit and figure arrays (new units are ready to act at once). The patrol
 * state lives in the hook's struct, beside the engine state: a search that copies engine
 * states must copy it too. Kept apart from patrol.h so the Patrol Mode core does not
 * depend on the engine.
 */
#ifndef OPFOR_VIKTORIA_PATROL_ENGINE_H
#define OPFOR_VIKTORIA_PATROL_ENGINE_H

#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/patrol.h"

/* What the hook needs and what it last did. Fill cfg and ps (opfor_patrol_init on the
 * opening arrays) and rng; pass the struct as options.initiative_user. */
typedef struct opfor_patrol_hook {
    const opfor_patrol_config_t *cfg; /* read-only settings */
    opfor_patrol_state_t *ps;         /* the game's patrol state */
    opfor_rng_t *rng;                 /* presses and spottings; NULL: the engine state's */
    int nspots;                       /* spottings resolved by the last call */
    opfor_patrol_spot_t spot[4];      /* the first of them */
    opfor_patrol_placement_t place[4];
    opfor_patrol_spawn_t spawn[4];
} opfor_patrol_hook_t;

/* An opfor_vk_initiative_fn: user is an opfor_patrol_hook_t. Observes the players'
 * ground, presses until a side gets the initiative (at most 16 spottings in a row), and
 * returns it; -1 when no unit is ready on either side. Spawned units are appended to
 * st->units / st->figures with their engine data cleared. */
int opfor_patrol_engine_initiative(const struct opfor_vk_ctx *ctx, struct opfor_vk_state *st,
                                   void *user);

/* Marks the units the engine has removed (routed, fled) off the table for Patrol Mode, and
 * their fate driven off when they still had figures. */
void opfor_patrol_engine_mark_removed(struct opfor_vk_state *st, opfor_patrol_state_t *ps);
/* Takes units [n0, fo->nunits) and figures [f0, fo->nfigures) just spawned into st's arrays
 * (fo wraps them) into the engine: clears their engine data and copies the counts. */
void opfor_patrol_engine_take_spawned(struct opfor_vk_state *st, const opfor_patrol_forces_t *fo,
                                      int n0, int f0);

/* Whether `side` may still gain units in Patrol Mode: only the enemy does, through
 * spottings, until the spotting limit is reached or no unit slot is free. For the engine's
 * opfor_vk_options_t.reinforce, through a wrapper that finds cfg and ps. */
int opfor_patrol_engine_may_reinforce(const opfor_patrol_config_t *cfg,
                                      const opfor_patrol_state_t *ps,
                                      const struct opfor_vk_state *st, int side);

#endif
