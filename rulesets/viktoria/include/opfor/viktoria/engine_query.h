/* opfor/viktoria/engine_query.h — read-only questions about a Viktoria! position that the AI
 * (heuristic planner, orders, candidate moves) asks and engine.h does not answer.
 *
 * Thin accessors over the engine's private helpers (rulesets/viktoria/engine_query.c is the
 * only file that includes engine_int.h for this), so ai/ never depends on the engine's
 * internal layout and the engine's authors may change it freely behind these functions.
 * Every function is pure, never allocates and may run on many threads at once (the move
 * query works on a copy of the state on its stack).
 */
#ifndef OPFOR_VIKTORIA_ENGINE_QUERY_H
#define OPFOR_VIKTORIA_ENGINE_QUERY_H

#include "opfor/chance.h"
#include "opfor/geom.h"
#include "opfor/terrain.h"
#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/model.h"

/* A unit's footprint: the mean of its living figures and how far they spread. */
typedef struct opfor_vk_ugeo {
    opfor_pt_t c; /* mean position of the living figures */
    float r;      /* largest distance from c to a living figure's base edge */
    int n;        /* living figures (people and equipment) */
} opfor_vk_ugeo_t;

/* The model the context was built with (ranges, chances, movement). */
const opfor_viktoria_model_t *opfor_vk_query_model(const opfor_vk_ctx_t *ctx);
/* The table (terrain) of the context's scenario. */
const opfor_table_t *opfor_vk_query_table(const opfor_vk_ctx_t *ctx);
/* Unit vector pointing toward side's own table edge (its line of retreat). */
opfor_vec_t opfor_vk_query_home(const opfor_vk_ctx_t *ctx, int side);

/* Living signallers a call for supporting fire by side needs (IX; the scenario's support team,
 * 1 unless set). 1 for a NULL ctx or a side other than 0 or 1. */
int opfor_vk_query_support_team(const opfor_vk_ctx_t *ctx, int side);

/* Footprint of unit u (n = 0 when nothing of it lives). */
void opfor_vk_query_geo(const opfor_vk_state_t *st, int u, opfor_vk_ugeo_t *g);
/* Base-to-base gap between the nearest living figures of units a and b (large when one has
 * none). */
float opfor_vk_query_gap(const opfor_vk_state_t *st, int a, int b);
/* Whether unit u's fire where it stands is moving fire all the same: it fires from a balloon
 * or dirigible in the air (XII.D). 1 or 0 (0 for a unit out of range). */
int opfor_vk_query_fire_aloft(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* Altitude levels between units u and t (XII.D: each adds a range bracket to fire between
 * them); 0 when neither flies or a unit is out of range. */
int opfor_vk_query_levels(const opfor_vk_state_t *st, int u, int t);
/* Altitude level of unit u: 0 on the ground, 1.. for a flying craft in the air (XII.D). */
int opfor_vk_query_altitude(const opfor_vk_state_t *st, int u);
/* Whether the occupants of unit t are running targets as those of a balloon or dirigible
 * drifting in a steady breeze or more (XII.D). 1 or 0. */
int opfor_vk_query_craft_running(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int t);
/* Damage of craft t's envelope: 0, 1 (damaged: fired on as Wounded) or 2 (destroyed) (XII.D);
 * 0 for a unit out of range. */
int opfor_vk_query_craft_damage(const opfor_vk_state_t *st, int t);
/* The class (a quality) craft t's envelope is fired on as: Civilian, or a dirigible's
 * hardened shell's (XII.D); -1 for a unit out of range. */
int opfor_vk_query_envelope_class(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int t);
/* How many figures of u fire at the envelope of craft t (OPFOR_VK_AF_AT_CRAFT), read without
 * rolling; 0 when u may not fire at it. */
int opfor_vk_query_craft_shooters(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                                  int t);
/* Whether some figure of u sees some figure of t (terrain only, any range). */
int opfor_vk_query_sees(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t);
/* Line of sight between two points for bases on foot (the engine's terrain index). */
int opfor_vk_query_los(const opfor_vk_ctx_t *ctx, opfor_pt_t a, opfor_pt_t b);
/* Cover a base of radius r at `at` would have against fire from `from` (terrain only). */
int opfor_vk_query_cover(const opfor_vk_ctx_t *ctx, opfor_pt_t from, opfor_pt_t at, float r);
/* Best cover the terrain gives at `at` against fire from any direction (areas, and lines
 * within reach of the base). */
int opfor_vk_query_cover_any(const opfor_vk_ctx_t *ctx, opfor_pt_t at, float r);
/* Whether a figure centred at p would stand in impassable terrain (mounted: also terrain
 * closed to riders and guns). */
int opfor_vk_query_impassable(const opfor_vk_ctx_t *ctx, opfor_pt_t p, int mounted);

/* Farthest reach of u's personal firearms in inches (0: none). */
float opfor_vk_query_reach(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* Farthest a charge by u could reach (best charge allowance plus a 3). */
float opfor_vk_query_charge_reach(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* Whether u may charge t now (target, reach, sight: the engine's own test). */
int opfor_vk_query_can_charge(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t);
/* Mean inches u moves with an advance (kind OPFOR_VK_ADVANCE), a run (OPFOR_VK_RUN) or a
 * crawl (OPFOR_VK_CRAWL) in the open: the slowest living figure's allowance plus a mean d3. */
float opfor_vk_query_move(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int kind);
/* Distance from u to its nearest commander (general or headquarters); large when none. */
float opfor_vk_query_command_distance(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* Whether u would have to test for command if it activated now (VII). */
int opfor_vk_query_needs_command_test(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u);
/* Command radius at the state's weather level (VII, XIII), inches. */
float opfor_vk_query_command_radius(const opfor_vk_state_t *st);
/* Whether the unit has a field gun (and whether it is limbered), an MG, bombs. */
int opfor_vk_query_gun_figure(const opfor_vk_state_t *st, int u);
int opfor_vk_query_mg_figure(const opfor_vk_state_t *st, int u);
/* Whether u is in melee. */
int opfor_vk_query_in_melee(const opfor_vk_state_t *st, int u);
/* Whether the living figure f is present (alive, not sent to the rear). */
int opfor_vk_query_fig_present(const opfor_vk_state_t *st, int f);
/* How many figures of unit u fire when it fires at unit t now (aim: OPFOR_VK_AF_AIM_* flags):
 * those with a firearm that reaches one of their three nearest marks in sight and not behind
 * another figure, as the engine chooses them, counted as if no shot harmed. 0 when none. */
int opfor_vk_query_shooters(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                            unsigned aim);
/* opfor_vk_query_shooters for fire that names figure fig of t (OPFOR_VK_NO_FIGURE: none), each
 * firer shooting at it first when it can (IX). */
int opfor_vk_query_shooters_at(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                               unsigned aim, int fig);
/* The morale check (XI) unit u would roll now: the roll in *out (kind, scores, chances:
 * "7+ on 2D6"), its check-boxes in *bits (OPFOR_VK_MORALE_* set: a general within 6 in, a
 * musician playing, colours near, half strength). Returns 0, or -1 when u never checks morale
 * (only equipment left) or is out of range (*out untouched). */
#define OPFOR_VK_MORALE_GENERAL 8
#define OPFOR_VK_MORALE_MUSICIAN 4
#define OPFOR_VK_MORALE_COLOURS 2
#define OPFOR_VK_MORALE_HALF 1
int opfor_vk_query_morale_roll(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                               opfor_roll_t *out, int *bits);
/* The chance that Wavering unit u rallies if it tries now (XI; its best person's quality and
 * the general, musician, colours and half-strength boxes, as the engine rolls it) into *p.
 * Returns 0, or -1 when u is out of range (*p untouched). */
int opfor_vk_query_rally_chance(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                                double *p);
/* How many tests unit u's MG fired in arc (opfor_arc_t) at aim makes the table roll: one per
 * figure (of either side) in the arc and not concealed, two for a figure in both arcs of a
 * double 45; 0 without an MG. */
int opfor_vk_query_mg_tests(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int arc,
                            opfor_pt_t aim);
/* opfor_vk_query_mg_tests counting only the figures of side (0 or 1): the burst's tests on
 * one side's men, the firer's own side for friendly fire (IX: the arc hits whoever is in it). */
int opfor_vk_query_mg_tests_side(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                                 int arc, opfor_pt_t aim, int side);
/* opfor_vk_query_mg_tests with each unit's share of the tests in per_unit[0..st->nunits)
 * (a balloon's envelope counted with its unit). Returns the total; 0 (per_unit untouched)
 * for a NULL pointer or a unit out of range. */
int opfor_vk_query_mg_tests_units(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                                  int arc, opfor_pt_t aim, int *per_unit);
/* How many figures of the charged unit fire at the chargers when it chooses defensive fire
 * (X) now, counted as if no shot harmed; 0 without a charge. */
int opfor_vk_query_defensive_shooters(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st);
/* The range, inches, at which the first of those figures fires (X: the shortest bracket for
 * officers, characters and elite, half its target's charge path for veterans, the starting
 * gap for the rest; 0 stands for the shortest bracket); -1 when none fires or no charge. */
float opfor_vk_query_defensive_range(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st);

/* Why a move stops where it does. */
enum {
    OPFOR_VK_STOP_ARRIVED = 0, /* it reached its destination */
    OPFOR_VK_STOP_ALLOWANCE,   /* its allowance ran out (rough ground included) */
    OPFOR_VK_STOP_GROUND,      /* ground it may not enter (feature) */
    OPFOR_VK_STOP_UNIT,        /* another unit's bases (unit) */
    OPFOR_VK_STOP_EDGE,        /* the table edge */
};

/* The engine's own resolution of a move (opfor_vk_query_move_result). */
typedef struct opfor_vk_move_result {
    opfor_pt_t from, to; /* the unit's centre (mean of its living figures) before and after */
    float moved;         /* inches the formation moved along its path (the engine's figure) */
    float allowance;     /* inches its slowest mover may go at this d3 (X + d3, open ground) */
    int why;             /* OPFOR_VK_STOP_* */
    int feature;         /* OPFOR_VK_STOP_GROUND: index of the table feature, else -1 */
    int unit;            /* OPFOR_VK_STOP_UNIT: index of the unit in the way, else -1 */
    int d3;              /* the move's d3 (the one given, or the one the engine rolled) */
} opfor_vk_move_result_t;

/* The movement of action a (OPFOR_VK_ADVANCE, RUN or CRAWL, with its waypoint and its mount
 * or dismount flags) as the engine's apply resolves it at the action phase, made on a copy
 * of st with the move's d3 given (1..3): where the unit's centre ends, how far it moved and
 * why it stopped. The same code path as opfor_vk_apply, so the answer is the engine's.
 * Returns 0 (*out filled), or OPFOR_EINVAL for a NULL pointer, a d3 outside 1..3, a unit out
 * of range or an action that is not a move (*out untouched). st is never written. */
int opfor_vk_query_move_result(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                               const opfor_vk_action_t *a, int d3, opfor_vk_move_result_t *out);

/* Whether action a, at the action phase of st, would do nothing the table could carry out: a
 * move (advance, run, crawl elsewhere) the engine moves less than a quarter inch even at the
 * best d3, a fire at a target no figure can shoot, or a machinegun's burst over an arc
 * that holds no figure to test. Mounting, dismounting, climbing,
 * descending and going prone where it stands always do something. 1 inert, 0 not (also for
 * every other action or phase). The AI's `inert` hook (ai_orders.c) and the daemon's own
 * look-ahead (vk_game_order.c) both ask here. */
int opfor_vk_query_inert(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                         const opfor_vk_action_t *a);

#endif
