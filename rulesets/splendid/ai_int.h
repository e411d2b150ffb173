/* rulesets/splendid/ai_int.h — A Splendid Victory!'s AI side shared by its files (ai_*.c):
 * the expected dice of fire and hand-to-hand worked out from the engine's own rules
 * (engine_int.h), the position value, the cheap score of one action (prior, playouts, the
 * rule card), the behaviour-table bot and the planner, and the AI table itself
 * (docs/splendid.md 10).
 */
#ifndef OPFOR_SPLENDID_AI_INT_H
#define OPFOR_SPLENDID_AI_INT_H

#include "engine_int.h"
#include "opfor/order.h"
#include "opfor/ruleset_ai.h"

extern const opfor_ruleset_ai_t opfor__sv_ai;
extern const opfor_evaluator_t opfor__sv_evaluator;

/* ---- queries over the engine's state (ai_query.c) */
/* The quality index the rules use for u (regular when variable quality is off). */
int sv_ai_quality(const sv_ctx_t *c, const sv_unit_t *u);
/* Chance that one die of u's fire hits (§How do you resolve firing?). */
double sv_ai_p_fire(const sv_ctx_t *c, const sv_unit_t *u);
/* Chance that u passes a charge test (none in command, §How does a unit charge?). */
double sv_ai_p_charge(const sv_ctx_t *c, const sv_state_t *s, int u);
/* Expected hits of u's attack on t in hand-to-hand (every stand; 2D6 a stand outflanking). */
double sv_ai_melee_hits(const sv_ctx_t *c, const sv_unit_t *u, const sv_unit_t *t, int outflank);
/* Worth of one stand of u to its side (the planner's weights, docs/splendid.md 10.2). */
double sv_ai_stand_worth(const sv_unit_t *u);
/* The nearest alive enemy of unit u and its distance (-1 when none). */
int sv_ai_nearest_enemy(const sv_ctx_t *c, const sv_state_t *s, const sv_unit_t *u, float *d);
/* The nearest alive enemy mounted unit able to charge, and its distance (-1 when none). */
int sv_ai_nearest_horse(const sv_ctx_t *c, const sv_state_t *s, const sv_unit_t *u, float *d);
/* 1 when enemy horse could charge foot unit u next phase and win the fight against it as it
 * stands (§Defensive Block Formation: the formation that answers horse). */
int sv_ai_horse_threat(const sv_ctx_t *c, const sv_state_t *s, int u);
/* 1 when unit ch stands behind t's front edge (a charge into its flank or rear). */
int sv_ai_from_behind(const sv_unit_t *t, const sv_unit_t *ch);

/* ---- the position value and the action score (ai_eval.c) */
/* 1 when s's result is settled, with side 0's return into *v: the game is over, or one side's
 * tally is past its half breakpoint (the victory phase of this turn ends the game, §The
 * Determine Victory Phase); else 0. */
int sv_ai_decided(const sv_ctx_t *c, const sv_state_t *s, double *v);
/* Value of s for side 0 in [-1, 1] (side 1: its negative), with the terms into the optional
 * terms[4]: breakpoints, material, threat, pending losses; a decided position (sv_ai_decided)
 * is worth its result, 0.5 or 1. */
double sv_ai_value(const sv_ctx_t *c, const sv_state_t *s, double *terms);
/* The cheap score of action a for the side deciding s (higher: better), with its main
 * reason's name into *why when why is not NULL. */
double sv_ai_score(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a,
                   const char **why);

/* ---- bots (ai_table.c, ai_bots.c) */
/* The rule card's choice among acts[n] of s (docs/splendid.md 10.3). */
int sv_ai_table_pick(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *acts, int n,
                     const char **rule);
int sv_ai_bot_open(const char *spec, const opfor_game_t *g, opfor_policy_t *out);

/* ---- orders (ai_orders.c) */
int sv_ai_order(const void *ctx, const void *state, const opfor_action_t *a, opfor_order_t *out);
int sv_ai_inert(const void *ctx, const void *state, const opfor_action_t *a);

#endif
