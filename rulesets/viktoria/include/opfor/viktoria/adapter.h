/* opfor/viktoria/adapter.h — Viktoria! as an opfor_ruleset_t, so the generic AI (ai/) can
 * search it: competitive games (V.A) and Patrol Mode games (XV) alike.
 *
 * A state of the ruleset is the engine's state followed by the Patrol Mode data (the patrol
 * state and its own random stream, which decides future presses and spottings): one plain
 * struct copied with memcpy. The patrol stream is the hidden part: the resample hook redraws
 * it, so a search that does not cheat cannot know what will be spotted next. Actions map
 * field by field between the engine's opfor_vk_action_t and the generic opfor_action_t. The
 * legal list is the engine's, plus a few role-driven destinations the engine does not
 * propose (firing positions, retreats): any destination is legal for a movement action.
 */
#ifndef OPFOR_VIKTORIA_ADAPTER_H
#define OPFOR_VIKTORIA_ADAPTER_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/ruleset.h"
#include "opfor/scenario.h"
#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/patrol.h"

/* The registered descriptor ("viktoria"). */
extern const opfor_ruleset_t opfor_viktoria_ruleset;
extern const struct opfor_ruleset_calc opfor_viktoria_calc_iface; /* its calculator, calc_iface.c */

/* Extra candidate actions the adapter adds to the engine's list, at most. */
#define OPFOR_VK_RS_EXTRA 8
/* Most legal actions of one state (the descriptor's max_actions). */
#define OPFOR_VK_RS_MAX_ACTIONS (OPFOR_VK_MAX_ACTIONS + OPFOR_VK_RS_EXTRA)
/* Flag set in opfor_action_t.flags (above the engine's own flags) on the adapter's extra
 * candidates, so explanations can say where they came from; stripped before the engine
 * sees the action. */
#define OPFOR_VK_RS_AF_EXTRA 0x8000u
/* The default scenario of ctx_new (a built-in stem). */
#define OPFOR_VK_RS_DEFAULT_SCENARIO "competitive_default"

/* Which extra candidate a flagged action is (opfor_action_t.sub carries it for moves; the
 * engine's arc field is only read by FIRE_MG). */
typedef enum opfor_vk_rs_extra {
    OPFOR_VK_RS_X_FIRE_POS = 1, /* a firing position within reach of an enemy, in sight */
    OPFOR_VK_RS_X_RETREAT,      /* away from the nearest threat, toward the own edge */
    OPFOR_VK_RS_X_KEEP_RANGE,   /* back out to the unit's best firing distance */
    OPFOR_VK_RS_X_COVER_NEAR,   /* cover near the unit facing the threat */
} opfor_vk_rs_extra_t;

/* One state: the engine state first (the Patrol Mode hook finds the rest from it). */
typedef struct opfor_vk_rs_state {
    opfor_vk_state_t vk;     /* the rules engine's state */
    opfor_rng_t patrol_rng;  /* Patrol Mode: the presses and spottings to come (hidden) */
    opfor_patrol_state_t ps; /* Patrol Mode: ground held, spottings, fates */
    uint32_t magic;          /* OPFOR_VK_RS_MAGIC once initialised */
    uint32_t decisions;      /* decisions made in the game so far (informational) */
} opfor_vk_rs_state_t;
#define OPFOR_VK_RS_MAGIC 0x564B5253u /* "VKRS" */

/* The read-only game context (opaque). */
typedef struct opfor_vk_rs_ctx opfor_vk_rs_ctx_t;

/* Builds a context for scenario sc (copied). The mode is the scenario's (competitive or
 * patrol); a Patrol Mode scenario's `patrol:` block is read with label naming the file in
 * diagnostics. options (may be NULL) are handed to the engine; in Patrol Mode the
 * initiative hook is the adapter's own. Returns 0, OPFOR_EPARSE / OPFOR_ERANGE / OPFOR_EINVAL
 * with diag, or OPFOR_ENOMEM. Release with opfor_vk_rs_ctx_free. */
int opfor_vk_rs_ctx_new(opfor_vk_rs_ctx_t **out, const opfor_scenario_t *sc, const char *label,
                        const opfor_vk_options_t *options, opfor_diag_t *diag);
/* As opfor_vk_rs_ctx_new, with the rules numbers of model (copied; NULL: the built-in
 * model), so that a search weighs chances with the numbers its game resolves with: opford
 * passes the model a game master loaded with --model. */
int opfor_vk_rs_ctx_new_model(opfor_vk_rs_ctx_t **out, const opfor_scenario_t *sc,
                              const char *label, const opfor_vk_options_t *options,
                              const opfor_viktoria_model_t *model, opfor_diag_t *diag);
/* Loads a scenario by file name or built-in stem (NULL: OPFOR_VK_RS_DEFAULT_SCENARIO) and
 * builds its context, as the descriptor's ctx_new hook does. */
int opfor_vk_rs_ctx_load(opfor_vk_rs_ctx_t **out, const char *scenario, opfor_diag_t *diag);
/* Releases a context; NULL is fine. */
void opfor_vk_rs_ctx_free(opfor_vk_rs_ctx_t *ctx);
/* The engine context inside (read-only; never run opfor_vk_play or the engine's greedy
 * policy on it in Patrol Mode: they copy bare engine states, which the hook cannot extend). */
const opfor_vk_ctx_t *opfor_vk_rs_engine(const opfor_vk_rs_ctx_t *ctx);
/* OPFOR_MODE_COMPETITIVE or OPFOR_MODE_COOP. */
int opfor_vk_rs_mode(const opfor_vk_rs_ctx_t *ctx);
/* The Patrol Mode settings, or NULL in a competitive game. */
const opfor_patrol_config_t *opfor_vk_rs_patrol(const opfor_vk_rs_ctx_t *ctx);

/* Opening state for seed (the init hook). */
void opfor_vk_rs_state_init(const opfor_vk_rs_ctx_t *ctx, opfor_vk_rs_state_t *st, uint64_t seed);
/* A state taken from a game at the table (the terminal game of Patrol Mode): the given
 * units and figures (copied; units with OPFOR_UNIT_OFF_TABLE or no living figure are out
 * of play), turn, patrol state (may be NULL: fresh) and patrol stream (may be NULL: drawn
 * from seed), with `side` about to select a unit to act. The dice stream comes from seed.
 * Returns 0, or OPFOR_EINVAL (counts out of range, side not 0 or 1). */
int opfor_vk_rs_state_from_table(const opfor_vk_rs_ctx_t *ctx, opfor_vk_rs_state_t *st,
                                 const opfor_unit_t *units, int nunits,
                                 const opfor_figure_t *figures, int nfigures, int turn,
                                 const opfor_patrol_state_t *ps, const opfor_rng_t *patrol_rng,
                                 int side, uint64_t seed);

/* The generic action for an engine action, and back (flags above the engine's are
 * dropped). Field by field: kind, unit, target, arc -> sub, figure -> arg, flags, dest ->
 * (x, y), via -> (x2, y2). */
opfor_action_t opfor_vk_rs_action_from_engine(const opfor_vk_action_t *a);
void opfor_vk_rs_action_to_engine(const opfor_action_t *a, opfor_vk_action_t *out);

#endif
