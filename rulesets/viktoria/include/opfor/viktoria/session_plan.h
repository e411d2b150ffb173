/* opfor/viktoria/session_plan.h — planning an activation of the non-player side from a table
 * session (Viktoria! V.A activation, VII command), once for the daemon
 * (rulesets/viktoria/daemon/vk_game_order.c) and the terminal `opfor patrol`.
 *
 * A table session keeps its units and figures as the players report them. To plan, the
 * position is rebuilt as the AI sees it (the adapter's state from the table), then walked
 * decision by decision: opfor_table_plan_next says what comes next, opfor_table_plan_command
 * settles the chosen unit's command test (a general or headquarters near it may spare it); the
 * caller runs the search (ai/ may not be called from a ruleset) and hands the chosen action
 * to opfor_table_plan_apply. The order's words come from the ruleset's order hook (through
 * ai/orders.c) and opfor_table_plan_command_text.
 */
#ifndef OPFOR_VIKTORIA_SESSION_PLAN_H
#define OPFOR_VIKTORIA_SESSION_PLAN_H

#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/engine.h"

/* The table as a session keeps it. */
typedef struct opfor_table_view {
    const opfor_unit_t *units;      /* unit slots in use: nunits */
    int nunits;                     /* 1..OPFOR_MAX_UNITS */
    const opfor_figure_t *figures;  /* figure slots in use: nfigures */
    int nfigures;                   /* 1..OPFOR_MAX_FIGURES */
    int turn;                       /* 1-based */
    const opfor_patrol_state_t *ps; /* the Patrol Mode state, NULL outside Patrol Mode */
    const opfor_rng_t *rng;         /* the table's patrol stream, NULL when none */
} opfor_table_view_t;

/* How the chosen unit's orders were given (VII). */
enum {
    OPFOR_TABLE_CMD_IN_COMMAND = 0, /* a general or headquarters near: no test */
    OPFOR_TABLE_CMD_PASSED,         /* the command test passed */
    OPFOR_TABLE_CMD_FAILED,         /* failed: restricted to a limited action */
};

/* What comes next in a plan (opfor_table_plan_next). */
typedef enum opfor_table_plan_step {
    /* the planning side decides: search, then opfor_table_plan_apply */
    OPFOR_TABLE_PLAN_DECIDE = 0,
    /* the chosen unit's command test: opfor_table_plan_command */
    OPFOR_TABLE_PLAN_COMMAND,
    /* another chance node: opfor_table_plan_roll, or stop */
    OPFOR_TABLE_PLAN_CHANCE,
    /* another side decides (the table answers) */
    OPFOR_TABLE_PLAN_ANSWER,
    /* the game is over or nothing is legal */
    OPFOR_TABLE_PLAN_END,
} opfor_table_plan_step_t;

/* Builds in *st the position for side's activation from the table (the adapter's state from
 * the table; seed keys its dice). Returns 0 or OPFOR_EINVAL as opfor_vk_rs_state_from_table. */
int opfor_table_plan_begin(const opfor_vk_rs_ctx_t *ctx, opfor_vk_rs_state_t *st,
                           const opfor_table_view_t *tb, int side, uint64_t seed);

/* Whether unit u of the table is in command: a living figure of a general or headquarters of
 * its side, in play, stands within radius inches (less one inch of base) of a living figure of
 * u. */
int opfor_table_plan_in_command(const opfor_table_view_t *tb, int u, float radius);

/* Settles the command test of unit u while st is at it (phase COMMAND): with spare_radius >= 0
 * a unit in command within it (opfor_table_plan_in_command) needs none; otherwise, and always
 * when spare_radius < 0, the engine rolls it (events into ev, may be NULL). Returns
 * OPFOR_TABLE_CMD_*. */
int opfor_table_plan_command(const opfor_vk_ctx_t *vk, opfor_vk_state_t *st,
                             const opfor_table_view_t *tb, int u, float spare_radius,
                             opfor_vk_events_t *ev);

/* What comes next in the plan for side on st (nothing changes): the command test
 * (OPFOR_TABLE_PLAN_COMMAND: settle it with opfor_table_plan_command), another chance node, the
 * side's decision, another side's, or the end. */
int opfor_table_plan_next(const opfor_vk_rs_ctx_t *ctx, const opfor_vk_rs_state_t *st, int side);

/* Rolls a chance node other than the command test (the engine's own dice). Returns as
 * opfor_table_plan_apply. */
int opfor_table_plan_roll(const opfor_vk_rs_ctx_t *ctx, opfor_vk_rs_state_t *st);

/* Applies action a (one of the ruleset's actions in st) to st, events into ev (may be NULL).
 * Returns 1 when the activation is over (initiative, a new turn, the game's end), 0 when it
 * goes on, or the engine's negative code (st unchanged). */
int opfor_table_plan_apply(const opfor_vk_rs_ctx_t *ctx, opfor_vk_rs_state_t *st,
                           const opfor_action_t *a, opfor_vk_events_t *ev);

/* Whether the activation is over in st: initiative, a new turn or the game's end. */
int opfor_table_plan_over(const opfor_vk_rs_state_t *st);

/* "in command", "passed", "failed (take cover, fire, stand or load only)" for OPFOR_TABLE_CMD_*. */
const char *opfor_table_plan_command_text(int command);

#endif
