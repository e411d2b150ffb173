/* opfor/viktoria/move_stop.h — where a straight move stops short of ground the unit may not enter.
 *
 * The engine moves figures along their path and stops them at impassable terrain, and riders,
 * guns and transport also at buildings and other ground closed to them (Viktoria! VIII). The
 * planner (ai_heuristic.c) scores a move by where it ends, so it asks here (terrain only,
 * cheap) instead of assuming the whole line is open: a gallop into a farmhouse is a move that
 * goes nowhere. Orders (ai_orders.c) take the engine's own movement instead
 * (opfor_vk_query_move_result: other bases, the edge and turning too).
 */
#ifndef OPFOR_VIKTORIA_MOVE_STOP_H
#define OPFOR_VIKTORIA_MOVE_STOP_H

#include "opfor/geom.h"
#include "opfor/viktoria/engine.h"

/* Whether unit u has a living rider, gun or transport (closed ground stops it). */
int opfor_move_rides(const opfor_vk_state_t *st, int u);

/* Where a unit's centre going straight from `from` to `to` stops: just short of the first
 * feature it may not enter (rides: opfor_move_rides), as the engine tests figure centres, or
 * `to` when the way is open.
 * A feature that already holds `from` does not stop it (the engine lets a unit leave).
 * *blocker (may be NULL) gets the stopping feature's index, or -1. */
opfor_pt_t opfor_move_stop(const opfor_vk_ctx_t *vk, int rides, opfor_pt_t from, opfor_pt_t to,
                           int *blocker);

#endif
