/* rulesets/viktoria/patrol_engine.c — Patrol Mode plugged into the rules engine as its
 * initiative hook (opfor/viktoria/patrol_engine.h; Viktoria! XV.A).
 *
 * The engine state's unit and figure arrays are the forces: the hook wraps them in an
 * opfor_patrol_forces_t, so spawning writes straight into the state, then copies the new
 * counts back and clears the engine's per-unit and per-figure data of the new slots.
 */
#include "opfor/viktoria/patrol_engine.h"

#include <string.h>

#include "opfor/viktoria/session_press.h"

void opfor_patrol_engine_mark_removed(struct opfor_vk_state *st, opfor_patrol_state_t *ps) {
    for (int u = 0; u < st->nunits; u++)
        if (st->ux[u].removed && !(st->units[u].flags & OPFOR_UNIT_OFF_TABLE)) {
            st->units[u].flags |= OPFOR_UNIT_OFF_TABLE;
            if (ps->fate[u] == OPFOR_PATROL_FATE_NONE && opfor_vk_unit_present(st, u) > 0)
                ps->fate[u] = OPFOR_PATROL_FATE_DRIVEN_OFF;
        }
}

void opfor_patrol_engine_take_spawned(struct opfor_vk_state *st, const opfor_patrol_forces_t *fo,
                                      int n0, int f0) {
    for (int u = n0; u < fo->nunits; u++)
        memset(&st->ux[u], 0, sizeof st->ux[u]);
    for (int i = f0; i < fo->nfigures; i++)
        st->figx[i] = 0;
    st->nunits = (uint8_t)fo->nunits;
    st->nfigures = (uint16_t)fo->nfigures;
}

/* The hook's sequence: the engine state to keep in step, its word on who can act. */
typedef struct hook_run {
    const struct opfor_vk_ctx *ctx;
    struct opfor_vk_state *st;
    int enemy;
    int ready[2];
} hook_run_t;

static void hook_spawned(void *user, const opfor_patrol_forces_t *fo, int n0, int f0) {
    hook_run_t *r = user;
    opfor_patrol_engine_take_spawned(r->st, fo, n0, f0);
    r->ready[1] = opfor_vk_side_ready(r->ctx, r->st, r->enemy);
}

int opfor_patrol_engine_initiative(const struct opfor_vk_ctx *ctx, struct opfor_vk_state *st,
                                   void *user) {
    opfor_patrol_hook_t *h = user;
    const opfor_patrol_config_t *cfg = h->cfg;
    opfor_rng_t *rng = h->rng ? h->rng : &st->rng;
    h->nspots = 0;
    hook_run_t run = {
        ctx,
        st,
        cfg->enemy,
        {opfor_vk_side_ready(ctx, st, cfg->player), opfor_vk_side_ready(ctx, st, cfg->enemy)}};
    if (!run.ready[0] && !run.ready[1])
        return -1;
    opfor_patrol_forces_t fo = {st->units, st->figures, st->nunits, st->nfigures};
    /* Units the engine has removed are off the table for Patrol Mode. */
    opfor_patrol_engine_mark_removed(st, h->ps);
    opfor_patrol_session_opts_t o;
    memset(&o, 0, sizeof o);
    o.mode = OPFOR_PATROL_SESSION_ENGINE;
    o.max_presses = 16;
    o.ready = run.ready; /* the engine's word on who can act wins over the flags */
    o.spawned = hook_spawned;
    o.user = &run;
    opfor_patrol_session_report_t rep;
    opfor_patrol_session_press(cfg, h->ps, &fo, rng, &o, &rep);
    h->nspots = rep.nspots;
    for (int k = 0; k < rep.nspots && k < 4; k++) {
        h->spot[k] = rep.spot[k].spot;
        h->place[k] = rep.spot[k].place;
        h->spawn[k] = rep.spot[k].spawn;
    }
    if (rep.side >= 0)
        return rep.side;
    if (rep.kind != OPFOR_PRESS_SPOTTING)
        return -1;
    return run.ready[0] ? cfg->player : cfg->enemy; /* the guard ran out */
}

int opfor_patrol_engine_may_reinforce(const opfor_patrol_config_t *cfg,
                                      const opfor_patrol_state_t *ps,
                                      const struct opfor_vk_state *st, int side) {
    if (side != cfg->enemy)
        return 0;
    if (cfg->spot_limit > 0 && ps->placed >= cfg->spot_limit)
        return 0;
    return st->nunits < OPFOR_MAX_UNITS;
}
