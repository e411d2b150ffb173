/* rulesets/viktoria/patrol_engine.c — Patrol Mode plugged into the rules engine as its
 * initiative hook (opfor/viktoria/patrol_engine.h; Viktoria! XV.A).
 *
 * The engine state's unit and figure arrays are the forces: the hook wraps them in an
 * opfor_patrol_forces_t, so spawning writes straight into the state, then copies the new
 * counts back and clears the engine's per-unit and per-figure data of the new slots.
 */
#include "opfor/viktoria/patrol_engine.h"

#include <string.h>

int opfor_patrol_engine_initiative(const struct opfor_vk_ctx *ctx, struct opfor_vk_state *st,
                                   void *user) {
    opfor_patrol_hook_t *h = user;
    const opfor_patrol_config_t *cfg = h->cfg;
    opfor_rng_t *rng = h->rng ? h->rng : &st->rng;
    h->nspots = 0;
    int ready[2] = {opfor_vk_side_ready(ctx, st, cfg->player),
                    opfor_vk_side_ready(ctx, st, cfg->enemy)};
    if (!ready[0] && !ready[1])
        return -1;
    opfor_patrol_forces_t fo = {st->units, st->figures, st->nunits, st->nfigures};
    /* Units the engine has removed are off the table for Patrol Mode. */
    for (int u = 0; u < fo.nunits; u++)
        if (st->ux[u].removed && !(st->units[u].flags & OPFOR_UNIT_OFF_TABLE)) {
            st->units[u].flags |= OPFOR_UNIT_OFF_TABLE;
            if (h->ps->fate[u] == OPFOR_PATROL_FATE_NONE && opfor_vk_unit_present(st, u) > 0)
                h->ps->fate[u] = OPFOR_PATROL_FATE_DRIVEN_OFF;
        }
    opfor_patrol_observe(cfg, h->ps, &fo);
    for (int guard = 0; guard < 16; guard++) {
        opfor_patrol_summary_t s;
        opfor_patrol_press_t pr;
        opfor_patrol_summarize(cfg, h->ps, &fo, &s);
        /* The engine's word on who can act wins over the flags. */
        if (!ready[0])
            s.ready[0] = 0;
        if (!ready[1])
            s.ready[1] = 0;
        if (ready[0] && s.ready[0] == 0)
            s.ready[0] = 1;
        if (ready[1] && s.ready[1] == 0)
            s.ready[1] = 1;
        opfor_patrol_press(cfg, &s, rng, &pr);
        h->ps->presses++;
        if (pr.kind == OPFOR_PRESS_PLAYER)
            return cfg->player;
        if (pr.kind == OPFOR_PRESS_ENEMY)
            return cfg->enemy;
        if (pr.kind != OPFOR_PRESS_SPOTTING)
            return -1;
        int n0 = fo.nunits, f0 = fo.nfigures, k = h->nspots < 4 ? h->nspots : 3;
        opfor_patrol_resolve_spot(cfg, h->ps, &fo, &pr.spot, rng, &h->place[k], &h->spawn[k]);
        h->spot[k] = pr.spot;
        h->nspots++;
        for (int u = n0; u < fo.nunits; u++)
            memset(&st->ux[u], 0, sizeof st->ux[u]);
        for (int i = f0; i < fo.nfigures; i++)
            st->figx[i] = 0;
        st->nunits = (uint8_t)fo.nunits;
        st->nfigures = (uint16_t)fo.nfigures;
        ready[1] = opfor_vk_side_ready(ctx, st, cfg->enemy);
    }
    return ready[0] ? cfg->player : cfg->enemy;
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
