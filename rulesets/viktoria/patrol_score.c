/* rulesets/viktoria/patrol_score.c — Patrol Mode scoring over a position (Viktoria! XV.B).
 *
 * A pure function of the config, the patrol state (origins and fates) and the unit and
 * figure arrays, so the terminal game shows it live after every report and the AI can
 * use it as a terminal value. Generals are not counted as player units (they are figures
 * of the command, not units in the line); enemy generals score as units driven off.
 * Wounded figures ordered to the rear still count toward strength, as the rules say, against
 * the strength the unit had before they went (the engine lowers it for morale).
 */
#include "opfor/viktoria/patrol.h"

#include <string.h>

/* Living figures of unit u; *wounded gets the living wounded, *people the living figures
 * that are not equipment, *rear the figures sent to the rear (alive: they still count). */
static int alive_of(const opfor_patrol_forces_t *fo, int u, int *wounded, int *people, int *rear) {
    const opfor_unit_t *un = &fo->units[u];
    int a = 0, w = 0, p = 0, r = 0;
    for (int i = un->first; i < un->first + un->count && i < fo->nfigures; i++) {
        const opfor_figure_t *g = &fo->figures[i];
        r += (g->flags & OPFOR_FIG_REAR) != 0;
        if (!(g->flags & OPFOR_FIG_ALIVE))
            continue;
        a++;
        w += (g->flags & OPFOR_FIG_WOUNDED) != 0;
        p += !(g->flags & OPFOR_FIG_EQUIPMENT);
    }
    if (wounded)
        *wounded = w;
    if (people)
        *people = p;
    if (rear)
        *rear = r;
    return a;
}

/* Whether an objective is held: a living player figure within its radius and no enemy. */
static int held(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo,
                const opfor_objective_t *o) {
    int mine = 0, theirs = 0;
    for (int i = 0; i < fo->nfigures; i++) {
        const opfor_figure_t *g = &fo->figures[i];
        if (!(g->flags & OPFOR_FIG_ALIVE) || g->unit >= fo->nunits)
            continue;
        const opfor_unit_t *u = &fo->units[g->unit];
        if (u->flags & OPFOR_UNIT_OFF_TABLE)
            continue;
        if (opfor_dist(g->pos, o->pos) > o->radius + 1e-4f)
            continue;
        if (u->side == cfg->player)
            mine = 1;
        else
            theirs = 1;
    }
    return mine && !theirs;
}

void opfor_patrol_score(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                        const opfor_patrol_forces_t *fo, opfor_patrol_score_t *out) {
    memset(out, 0, sizeof *out);
    int player_units = 0, enemy_in_play = 0;
    for (int u = 0; u < fo->nunits && u < OPFOR_MAX_UNITS; u++) {
        const opfor_unit_t *un = &fo->units[u];
        int wounded, people, rear, alive = alive_of(fo, u, &wounded, &people, &rear);
        /* the strength the unit began with: sending wounded to the rear lowers the unit's
           strength (vk_to_rear, for its morale), but here they still count among the living,
           so the base they are counted against is the strength before (XV.B, audit row 119) */
        int fate = ps->fate[u], strength = (un->strength ? un->strength : un->count) + rear;
        if (un->side == cfg->player) {
            if (un->flags & OPFOR_UNIT_GENERAL)
                continue;
            player_units++;
            if (alive == 0 || fate != OPFOR_PATROL_FATE_NONE)
                continue;
            out->survived++;
            if (2 * alive >= strength)
                out->half_strength++;
            if (4 * ((strength - alive) + wounded) <= strength)
                out->unscathed++;
            continue;
        }
        if (opfor_patrol_in_play(fo, u))
            enemy_in_play++;
        if (un->type == OPFOR_UT_SUPPLY && !(un->flags & OPFOR_UNIT_GENERAL)) {
            int wagon_lost = 0;
            for (int i = un->first; i < un->first + un->count && i < fo->nfigures; i++)
                if ((fo->figures[i].flags & OPFOR_FIG_EQUIPMENT) &&
                    !(fo->figures[i].flags & OPFOR_FIG_ALIVE))
                    wagon_lost = 1;
            if (fate == OPFOR_PATROL_FATE_CAPTURED || alive == 0 || people == 0 || wagon_lost)
                out->supply++;
            continue;
        }
        if (un->type == OPFOR_UT_HEADQUARTERS && !(un->flags & OPFOR_UNIT_GENERAL)) {
            for (int i = un->first; i < un->first + un->count && i < fo->nfigures; i++) {
                const opfor_figure_t *g = &fo->figures[i];
                if (g->flags & OPFOR_FIG_EQUIPMENT)
                    continue;
                if (!(g->flags & OPFOR_FIG_ALIVE) || fate == OPFOR_PATROL_FATE_CAPTURED)
                    out->hq_members++;
            }
            continue;
        }
        if (fate == OPFOR_PATROL_FATE_DRIVEN_OFF || fate == OPFOR_PATROL_FATE_CAPTURED ||
            alive == 0)
            out->driven_off++;
    }
    for (int k = 0; k < cfg->nobjectives; k++)
        if (held(cfg, fo, &cfg->objectives[k]))
            out->objectives += cfg->objectives[k].points;
    out->total = out->survived + out->half_strength + out->unscathed + 2 * out->supply +
                 2 * out->hq_members + out->driven_off + out->objectives;
    out->lost = player_units > 0 && out->survived == 0;
    out->enemy_wiped = enemy_in_play == 0 && cfg->spot_limit > 0 && ps->placed >= cfg->spot_limit;
}

int opfor_patrol_verdict(const opfor_patrol_score_t *s) {
    if (s->lost)
        return OPFOR_PATROL_LOST;
    if (s->enemy_wiped || s->objectives > 0)
        return OPFOR_PATROL_WON;
    return OPFOR_PATROL_DRAWN;
}

const char *opfor_patrol_verdict_name(int verdict) {
    return verdict == OPFOR_PATROL_WON ? "won" : verdict == OPFOR_PATROL_LOST ? "lost" : "drawn";
}

const char *opfor_patrol_verdict_why(const opfor_patrol_score_t *s) {
    if (s->lost)
        return "every player unit is lost";
    if (s->enemy_wiped)
        return "every enemy is gone and none may still come";
    if (s->objectives > 0)
        return "the players hold an objective";
    return "neither side was beaten";
}
