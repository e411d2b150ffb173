/* rulesets/viktoria/engine_machine_int.h — private to the engine: vehicle passengers and
 * trains (engine_vehicle.c) and aeroplanes (engine_air.c), Viktoria! XII.C and XII.D.
 *
 * engine.c calls these through a handful of one-line hooks (state init, listing, legality,
 * apply, end of activation, readiness and scoring), so that units without these features
 * never reach this code and their games stay exactly as before. State lives in the spare
 * bytes of opfor_vk_unitx_t (aboard, run) and in ux.altitude / OPFOR_UNIT_OFF_TABLE.
 */
#ifndef OPFOR_VIKTORIA_ENGINE_MACHINE_INT_H
#define OPFOR_VIKTORIA_ENGINE_MACHINE_INT_H

#include "engine_int.h"

#define vk_machines_init opfor__vk_machines_init
#define vk_machine_list opfor__vk_machine_list
#define vk_machine_list_more opfor__vk_machine_list_more
#define vk_machine_groups opfor__vk_machine_groups
#define vk_machine_check opfor__vk_machine_check
#define vk_machine_do opfor__vk_machine_do
#define vk_machines_settle opfor__vk_machines_settle
#define vk_machine_str opfor__vk_machine_str
#define vk_hull opfor__vk_hull
#define vk_free_spot opfor__vk_free_spot
#define vk_train_bound opfor__vk_train_bound
#define vk_train_top opfor__vk_train_top
#define vk_train_run opfor__vk_train_run
#define vk_air_list opfor__vk_air_list
#define vk_air_check opfor__vk_air_check
#define vk_air_do opfor__vk_air_do
#define vk_runway_ok opfor__vk_runway_ok

#define VK_BOARD_COST 1.0f   /* boarding or leaving a vehicle costs 1 in of movement (XII.C) */
#define VK_TRAIN_MIN 3.0f    /* a train's speed may always change by 3 in (XII.C) */
#define VK_PLANE_CLIMB 3     /* levels an aeroplane may climb (or drop) in one move (XII.D) */
#define VK_RUNWAY_REACH 1.5f /* an aeroplane within this of a runway stands on it */

/* The unit's carrier (XII.C) or -1. */
static inline int vk_aboard(const opfor_vk_state_t *st, int u) {
    return st->ux[u].aboard ? st->ux[u].aboard - 1 : -1;
}
/* Whether u is a train under the XII options: a vehicle confined to a track (XII.C). */
static inline int vk_is_train(const opfor_vk_ctx_t *ctx, int u) {
    return ctx->opt.specials && u < ctx->sc.nunits && ctx->sc.machine[u].track != 0;
}
/* Whether u is an aeroplane under the XII options (XII.D). */
static inline int vk_is_plane(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return ctx->opt.specials && st->units[u].type == OPFOR_UT_AEROPLANE;
}
/* An aeroplane flying off the table (XII.D): out of play for fire, but it may come back. Needs
 * no context: only the XII code lifts an aeroplane (altitude > 0). */
static inline int vk_air_away(const opfor_vk_state_t *st, int u) {
    return st->units[u].type == OPFOR_UT_AEROPLANE && !st->ux[u].removed &&
           (st->units[u].flags & OPFOR_UNIT_OFF_TABLE) && st->ux[u].altitude > 0 &&
           opfor_vk_unit_present(st, u) > 0;
}

/* ---- hooks called from engine.c ---- */

/* After opfor_vk_state_init: passengers aboard, aeroplanes aloft or on their runway. */
void vk_machines_init(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st);
/* ACTION phase: lists the whole action set of a train, an aeroplane or a unit aboard a vehicle
 * (groups in want) into out; returns 1 when it did (*n = count), 0 for any other unit. */
int vk_machine_list(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, uint32_t want,
                    opfor_vk_action_t *out, int max, int *n);
/* After the ordinary listing: drops charges at passengers and aeroplanes in flight, and
 * appends EMBARK actions toward friendly vehicles with room. *n is updated. */
void vk_machine_list_more(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, uint32_t want,
                          opfor_vk_action_t *out, int max, int *n);
/* ACTION phase groups: returns 1 and sets *m for machine or embarked units (exact superset),
 * else 0 and or-s the EMBARK group into *m when some vehicle could take the unit. */
int vk_machine_groups(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, uint32_t *m);
/* Legality of an ACTION-phase action: 1 or 0 when decided here, -1 to leave it to engine.c. */
int vk_machine_check(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                     const opfor_vk_action_t *a);
/* Applies EMBARK, DRIVE and fire out of a vehicle; returns 1 when it did. */
int vk_machine_do(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                  opfor_vk_events_t *ev);
/* End of activation (before morale): passengers ride with their vehicle and bail out (hurt
 * when it was destroyed) once it is gone; aeroplanes in flight count as running. */
void vk_machines_settle(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev);
/* Text for EMBARK and DRIVE actions; returns 1 when a was one of them. */
int vk_machine_str(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                   const opfor_vk_action_t *a, char *buf, size_t n);

/* ---- shared by engine_vehicle.c and engine_air.c ---- */

/* The figure passengers sit on: the unit's first equipment figure (the vehicle model; -1 once
 * it is destroyed), else its first living figure (-1 when none lives). */
int vk_hull(const opfor_vk_state_t *st, int v);
/* A free spot for a base of radius r near `at` (rings from d0 outward, up to d1), trying
 * directions nearest `toward` first; skip: a figure to ignore (the one being placed, or -1).
 * Returns 1 and *out, or 0. */
int vk_free_spot(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_pt_t at,
                 opfor_pt_t toward, float r, float d0, float d1, int skip, opfor_pt_t *out);
/* A train's speed change bound for last speed `last` (inches, signed): max(|last|/2, 3). */
float vk_train_bound(float last);
/* A train's top speed, inches: twice its transport advance (X + 3), on foot "very fast" or
 * mounted "extremely fast" in XII.C's speed classes; 0 once its engine is wrecked. */
float vk_train_top(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* Runs train u `s` inches along its track (negative: toward the track's start), stopping at
 * the track's end or short of another base. Returns the signed distance run. */
float vk_train_run(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, float s,
                   opfor_vk_events_t *ev);
/* Aeroplanes (engine_air.c). */
int vk_air_list(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, uint32_t want,
                opfor_vk_action_t *out, int max);
int vk_air_check(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, const opfor_vk_action_t *a);
void vk_air_do(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
               opfor_vk_events_t *ev);
/* Index of an open runway of at least OPFOR_RUNWAY_MIN under aeroplane u's figure
 * (take-off), or any open runway of that length (landing: land = 1); -1 when none. */
int vk_runway_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int land);

#endif
