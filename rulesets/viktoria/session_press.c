/* rulesets/viktoria/session_press.c — the Patrol Mode press sequence, once for the daemon's
 * and the terminal's table sessions, the engine's initiative hook and the director
 * (opfor/viktoria/session_press.h; Viktoria! XV.A, XV.B).
 *
 * Every caller used to write this loop itself; their small differences (whether the engine
 * has the last word on who can act, whether the ground is observed before every press, whether
 * a turn may end inside the sequence, whether a non-spotting press is only looked at) are the
 * options, so each keeps drawing exactly what it drew before.
 */
#include "opfor/viktoria/session_press.h"

#include <string.h>

#include "opfor/viktoria/director.h"

int opfor_patrol_session_spot(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                              opfor_patrol_forces_t *fo, const opfor_patrol_spot_t *spot,
                              opfor_rng_t *rng, int place_generals, float radius,
                              opfor_patrol_session_spotting_t *out) {
    memset(out, 0, sizeof *out);
    out->spot = *spot;
    out->spawn.unit = -1;
    out->rc = opfor_patrol_resolve_spot(cfg, ps, fo, spot, rng, &out->place, &out->spawn);
    int placed = 0;
    for (int k = 0; k < 4; k++)
        out->joined[k] = -1;
    for (int k = 0; k < out->spawn.ngenerals && k < 4; k++) {
        if (!place_generals || !out->place.placed)
            continue;
        out->joined[k] = opfor_director_place_general(cfg, fo, out->spawn.generals[k], radius);
        placed += out->joined[k] >= 0;
    }
    return placed;
}

void opfor_patrol_session_opts_table(opfor_patrol_session_opts_t *o) {
    memset(o, 0, sizeof *o);
    o->mode = OPFOR_PATROL_SESSION_TABLE;
    o->max_presses = 4;
    o->place_generals = 1;
    o->command_radius = OPFOR_DIRECTOR_COMMAND_RADIUS;
    o->idle_stop = 1;
}

/* The summary of the next press, with the engine's word on who can act when given. */
static void summary(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                    const opfor_patrol_forces_t *fo, const int *ready, opfor_patrol_summary_t *s) {
    opfor_patrol_summarize(cfg, ps, fo, s);
    if (!ready)
        return;
    for (int k = 0; k < 2; k++) {
        if (!ready[k])
            s->ready[k] = 0;
        else if (s->ready[k] == 0)
            s->ready[k] = 1;
    }
}

/* Whether no unit of either side is in play, so none can act in any turn to come: a table's
 * button would only end turn after turn. */
static int nobody_can_act(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo) {
    for (int u = 0; u < fo->nunits; u++)
        if ((fo->units[u].side == cfg->player || fo->units[u].side == cfg->enemy) &&
            opfor_patrol_in_play(fo, u))
            return 0;
    return 1;
}

/* A new turn at a table: 1 when the turn limit ends the game. */
static int table_turn(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                      opfor_patrol_forces_t *fo, const opfor_patrol_session_opts_t *o,
                      opfor_patrol_session_report_t *out) {
    opfor_patrol_new_turn(ps, fo);
    out->turns++;
    int ended = cfg->turn_limit > 0 && ps->turn > cfg->turn_limit;
    if (ended) {
        ps->turn = (uint16_t)cfg->turn_limit;
        out->ended = 1;
    }
    if (o->turn)
        o->turn(o->user, ended);
    return ended;
}

int opfor_patrol_session_press(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                               opfor_patrol_forces_t *fo, opfor_rng_t *rng,
                               const opfor_patrol_session_opts_t *opts,
                               opfor_patrol_session_report_t *out) {
    if (!out)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    out->kind = out->side = -1;
    if (!cfg || !ps || !fo || !rng || !opts)
        return OPFOR_EINVAL;
    const opfor_patrol_session_opts_t *o = opts;
    int guard = o->max_presses > 0 ? o->max_presses : 1;
    if (!o->observe_each)
        opfor_patrol_observe(cfg, ps, fo);
    for (int n = 0; n < guard; n++) {
        if (o->observe_each)
            opfor_patrol_observe(cfg, ps, fo);
        opfor_patrol_summary_t s;
        opfor_patrol_press_t pr;
        summary(cfg, ps, fo, o->ready, &s);
        opfor_rng_t r = *rng;
        opfor_patrol_press(cfg, &s, &r, &pr);
        out->kind = pr.kind;
        if (o->mode == OPFOR_PATROL_SESSION_PEEK && pr.kind != OPFOR_PRESS_SPOTTING)
            return 0; /* looked at only: the engine's hook draws this same press */
        *rng = r;
        ps->presses++;
        out->presses++;
        if (pr.kind == OPFOR_PRESS_PLAYER || pr.kind == OPFOR_PRESS_ENEMY) {
            out->side = pr.kind == OPFOR_PRESS_PLAYER ? cfg->player : cfg->enemy;
            return 0;
        }
        if (pr.kind == OPFOR_PRESS_END_TURN) {
            if (o->mode != OPFOR_PATROL_SESSION_TABLE)
                return 0;
            if (o->idle_stop && !o->ready &&
                nobody_can_act(cfg, fo)) { /* told before opts.turn is called */
                out->idle = 1;
                out->spots_left = cfg->spot_limit > 0 ? cfg->spot_limit - ps->placed : -1;
                if (out->spots_left < -1)
                    out->spots_left = 0;
            }
            if (table_turn(cfg, ps, fo, o, out) || out->idle)
                return 0; /* idle: one turn ends at once, not turn after turn of nothing */
            continue;     /* the button answers again in the new turn */
        }
        opfor_patrol_spot_t spot = pr.spot;
        int steered = 0;
        if (o->steer) {
            steered = o->steer(o->user, &spot);
            if (steered < 0)
                return steered;
        }
        int k = out->nspots < OPFOR_PATROL_SESSION_MAX_SPOTS ? out->nspots
                                                             : OPFOR_PATROL_SESSION_MAX_SPOTS - 1;
        opfor_patrol_session_spotting_t *sp = &out->spot[k];
        int n0 = fo->nunits, f0 = fo->nfigures;
        out->generals += opfor_patrol_session_spot(cfg, ps, fo, &spot, rng, o->place_generals,
                                                   o->command_radius, sp);
        sp->steered = steered == 1;
        out->steered += sp->steered;
        out->nspots++;
        if (o->spawned)
            o->spawned(o->user, fo, n0, f0);
        if (o->mode == OPFOR_PATROL_SESSION_TABLE)
            return 0;
    }
    return 0;
}
