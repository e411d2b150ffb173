/* rulesets/viktoria/session_plan.c — planning the non-player side's activation from a table
 * session: the position from the table, the command test, the steps between the search's
 * decisions (opfor/viktoria/session_plan.h; Viktoria! V.A, VII).
 *
 * The daemon and the terminal game used to walk the activation each in its own loop; they
 * now share these steps and keep only what differs: the search's keys, whether a general
 * near the unit spares its command test, and what they do with the words.
 */
#include "opfor/viktoria/session_plan.h"

#include "opfor/error.h"

int opfor_table_plan_begin(const opfor_vk_rs_ctx_t *ctx, opfor_vk_rs_state_t *st,
                           const opfor_table_view_t *tb, int side, uint64_t seed) {
    if (!tb)
        return OPFOR_EINVAL;
    return opfor_vk_rs_state_from_table(ctx, st, tb->units, tb->nunits, tb->figures, tb->nfigures,
                                        tb->turn, tb->ps, tb->rng, side, seed);
}

/* Whether unit u of the table is in play: on the table with a living figure. */
static int in_play(const opfor_table_view_t *tb, int u) {
    const opfor_unit_t *un = &tb->units[u];
    if (un->flags & OPFOR_UNIT_OFF_TABLE)
        return 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (tb->figures[i].flags & OPFOR_FIG_ALIVE)
            return 1;
    return 0;
}

int opfor_table_plan_in_command(const opfor_table_view_t *tb, int u, float radius) {
    const opfor_unit_t *un = &tb->units[u];
    for (int v = 0; v < tb->nunits; v++) {
        const opfor_unit_t *gv = &tb->units[v];
        if (gv->side != un->side || !in_play(tb, v) ||
            !((gv->flags & OPFOR_UNIT_GENERAL) || gv->type == OPFOR_UT_HEADQUARTERS))
            continue;
        for (int k = gv->first; k < gv->first + gv->count; k++) {
            const opfor_figure_t *gf = &tb->figures[k];
            if (!(gf->flags & OPFOR_FIG_ALIVE))
                continue;
            for (int i = un->first; i < un->first + un->count; i++)
                if ((tb->figures[i].flags & OPFOR_FIG_ALIVE) &&
                    opfor_dist(gf->pos, tb->figures[i].pos) - 1.0f <= radius)
                    return 1;
        }
    }
    return 0;
}

int opfor_table_plan_command(const opfor_vk_ctx_t *vk, opfor_vk_state_t *st,
                             const opfor_table_view_t *tb, int u, float spare_radius,
                             opfor_vk_events_t *ev) {
    int command = OPFOR_TABLE_CMD_IN_COMMAND;
    for (int guard = 0; guard < 4 && st->phase == OPFOR_VK_PH_COMMAND; guard++) {
        if (spare_radius >= 0.0f && tb && u >= 0 && u < tb->nunits &&
            opfor_table_plan_in_command(tb, u, spare_radius)) {
            st->phase = OPFOR_VK_PH_ACTION;
            st->restricted = 0;
            break;
        }
        opfor_vk_action_t roll;
        if (opfor_vk_legal(vk, st, &roll, 1) < 1 || opfor_vk_apply(vk, st, &roll, ev))
            break;
        command = st->restricted ? OPFOR_TABLE_CMD_FAILED : OPFOR_TABLE_CMD_PASSED;
    }
    return command;
}

int opfor_table_plan_next(const opfor_vk_rs_ctx_t *ctx, const opfor_vk_rs_state_t *st, int side) {
    const opfor_vk_ctx_t *vk = opfor_vk_rs_engine(ctx);
    int cur = opfor_vk_current(vk, &st->vk);
    opfor_vk_action_t one;
    if (cur == OPFOR_VK_TERMINAL || opfor_vk_legal(vk, &st->vk, &one, 1) <= 0)
        return OPFOR_TABLE_PLAN_END;
    if (cur == OPFOR_VK_CHANCE)
        return st->vk.phase == OPFOR_VK_PH_COMMAND ? OPFOR_TABLE_PLAN_COMMAND
                                                   : OPFOR_TABLE_PLAN_CHANCE;
    return cur == side ? OPFOR_TABLE_PLAN_DECIDE : OPFOR_TABLE_PLAN_ANSWER;
}

int opfor_table_plan_over(const opfor_vk_rs_state_t *st) {
    int ph = st->vk.phase;
    return ph == OPFOR_VK_PH_INITIATIVE || ph == OPFOR_VK_PH_START_TURN || ph == OPFOR_VK_PH_OVER;
}

/* Applies engine action ea: 1 when the activation is over, 0 when it goes on, or the engine's
 * code. */
static int apply_engine(const opfor_vk_ctx_t *vk, opfor_vk_rs_state_t *st,
                        const opfor_vk_action_t *ea, opfor_vk_events_t *ev) {
    int rc = opfor_vk_apply(vk, &st->vk, ea, ev);
    if (rc != 0)
        return rc < 0 ? rc : OPFOR_EILLEGAL;
    return opfor_table_plan_over(st);
}

int opfor_table_plan_roll(const opfor_vk_rs_ctx_t *ctx, opfor_vk_rs_state_t *st) {
    const opfor_vk_ctx_t *vk = opfor_vk_rs_engine(ctx);
    opfor_vk_action_t roll;
    if (opfor_vk_legal(vk, &st->vk, &roll, 1) < 1)
        return OPFOR_EILLEGAL;
    return apply_engine(vk, st, &roll, NULL);
}

int opfor_table_plan_apply(const opfor_vk_rs_ctx_t *ctx, opfor_vk_rs_state_t *st,
                           const opfor_action_t *a, opfor_vk_events_t *ev) {
    opfor_vk_action_t ea;
    opfor_vk_rs_action_to_engine(a, &ea);
    return apply_engine(opfor_vk_rs_engine(ctx), st, &ea, ev);
}

const char *opfor_table_plan_command_text(int command) {
    return command == OPFOR_TABLE_CMD_IN_COMMAND ? "in command"
           : command == OPFOR_TABLE_CMD_PASSED   ? "passed"
                                                 : "failed (take cover, fire, stand or load only)";
}
