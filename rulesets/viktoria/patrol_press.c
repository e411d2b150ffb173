/* rulesets/viktoria/patrol_press.c — one press of the initiative button (Viktoria! XV.A):
 * a player unit acts, a non-player unit acts, or new enemy forces are spotted.
 *
 * The rules leave the odds open; the design (docs/patrol-mode.md) is a spotting chance
 * that grows with the ground the players have newly taken since the last spotting, and a
 * side split in proportion to the units each side still has to act, weighted by the
 * scenario. The generator is a pure function of a small summary and an rng, and
 * opfor_patrol_probs states its exact distribution, so tests can check one against the
 * other and a planner can expand a press as a chance node.
 */
#include "opfor/viktoria/patrol.h"

#include <stdio.h>
#include <string.h>

const opfor_name_t opfor_patrol_press_names[] = {
    {"player", OPFOR_PRESS_PLAYER},
    {"enemy", OPFOR_PRESS_ENEMY},
    {"spotting", OPFOR_PRESS_SPOTTING},
    {"end_turn", OPFOR_PRESS_END_TURN},
    {NULL, 0},
};

void opfor_patrol_summarize(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                            const opfor_patrol_forces_t *fo, opfor_patrol_summary_t *out) {
    memset(out, 0, sizeof *out);
    for (int u = 0; u < fo->nunits; u++) {
        if (!opfor_patrol_in_play(fo, u) || (fo->units[u].flags & OPFOR_UNIT_ACTED))
            continue;
        if (fo->units[u].side == cfg->player)
            out->ready[0]++;
        else if (fo->units[u].side == cfg->enemy)
            out->ready[1]++;
    }
    double fresh = (double)(opfor_patrol_area(cfg, ps) - ps->area_at_spot) / 144.0;
    out->fresh_sqft = fresh > 0.0 ? fresh : 0.0;
    out->placed = ps->placed;
}

/* Chance that a press with units still to act is a spotting. */
static double spot_chance(const opfor_patrol_config_t *cfg, const opfor_patrol_summary_t *s) {
    if (cfg->spot_limit > 0 && s->placed >= cfg->spot_limit)
        return 0.0;
    double p = cfg->spot_base + cfg->spot_per_sqft * (s->fresh_sqft > 0.0 ? s->fresh_sqft : 0.0);
    if (p > cfg->spot_max)
        p = cfg->spot_max;
    return p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
}

/* Weights of the two sides for the next activation. */
static void side_weights(const opfor_patrol_config_t *cfg, const opfor_patrol_summary_t *s,
                         double *wp, double *we) {
    int rp = s->ready[0] > 0 ? s->ready[0] : 0, re = s->ready[1] > 0 ? s->ready[1] : 0;
    *wp = cfg->side_weight[0] * rp;
    *we = cfg->side_weight[1] * re;
    if (!(*wp + *we > 0.0)) { /* weights of 0 on the only side left: plain unit counts */
        *wp = rp;
        *we = re;
    }
}

static uint64_t wsum(const uint32_t *w, int n) {
    uint64_t t = 0;
    for (int i = 0; i < n; i++)
        t += w[i];
    return t;
}

void opfor_patrol_probs(const opfor_patrol_config_t *cfg, const opfor_patrol_summary_t *s,
                        opfor_patrol_probs_t *p) {
    memset(p, 0, sizeof *p);
    double wp, we;
    side_weights(cfg, s, &wp, &we);
    if (!(wp + we > 0.0)) {
        p->kind[OPFOR_PRESS_END_TURN] = 1.0;
    } else {
        p->spot = spot_chance(cfg, s);
        p->kind[OPFOR_PRESS_SPOTTING] = p->spot;
        p->kind[OPFOR_PRESS_PLAYER] = (1.0 - p->spot) * wp / (wp + we);
        p->kind[OPFOR_PRESS_ENEMY] = (1.0 - p->spot) * we / (wp + we);
    }
    uint64_t tt = wsum(cfg->type_weight, OPFOR_PT_COUNT);
    for (int t = 0; t < OPFOR_PT_COUNT; t++) {
        p->type[t] = tt ? (double)cfg->type_weight[t] / (double)tt : 0.0;
        uint64_t tq = wsum(cfg->quality_weight[t], OPFOR_Q_COUNT);
        for (int q = 0; q < OPFOR_Q_COUNT; q++)
            p->quality[t][q] = tq ? (double)cfg->quality_weight[t][q] / (double)tq : 0.0;
        uint64_t td = 0;
        for (int i = 0; i < cfg->ndist[t]; i++)
            td += cfg->dist[t][i].weight;
        for (int i = 0; i < cfg->ndist[t]; i++)
            p->dist[t][i] = td ? (double)cfg->dist[t][i].weight / (double)td : 0.0;
    }
    uint64_t tdir = wsum(cfg->dir_weight, OPFOR_COMPASS_COUNT);
    for (int d = 0; d < OPFOR_COMPASS_COUNT; d++)
        p->direction[d] = tdir ? (double)cfg->dir_weight[d] / (double)tdir : 0.0;
}

/* Index drawn from integer weights w[0..n) (total > 0). */
static int pick(const uint32_t *w, int n, opfor_rng_t *rng) {
    uint64_t total = wsum(w, n);
    if (total == 0 || total > 0xFFFFFFFFu)
        return 0;
    uint32_t x = opfor_rng_below(rng, (uint32_t)total);
    for (int i = 0; i < n; i++) {
        if (x < w[i])
            return i;
        x -= w[i];
    }
    return n - 1;
}

void opfor_patrol_press(const opfor_patrol_config_t *cfg, const opfor_patrol_summary_t *s,
                        opfor_rng_t *rng, opfor_patrol_press_t *out) {
    memset(out, 0, sizeof *out);
    double wp, we;
    side_weights(cfg, s, &wp, &we);
    if (!(wp + we > 0.0)) {
        out->kind = OPFOR_PRESS_END_TURN;
        return;
    }
    double ps = spot_chance(cfg, s);
    if (opfor_rng_unit(rng) < ps) {
        opfor_patrol_spot_t *sp = &out->spot;
        out->kind = OPFOR_PRESS_SPOTTING;
        sp->type = pick(cfg->type_weight, OPFOR_PT_COUNT, rng);
        sp->quality = pick(cfg->quality_weight[sp->type], OPFOR_Q_COUNT, rng);
        uint32_t dw[OPFOR_PATROL_MAX_DIST] = {0};
        for (int i = 0; i < cfg->ndist[sp->type]; i++)
            dw[i] = cfg->dist[sp->type][i].weight;
        sp->dist_opt = pick(dw, cfg->ndist[sp->type] > 0 ? cfg->ndist[sp->type] : 1, rng);
        sp->direction = pick(cfg->dir_weight, OPFOR_COMPASS_COUNT, rng);
        sp->dice = cfg->dist[sp->type][sp->dist_opt].dice;
        sp->rolled = opfor_dice_roll(&sp->dice, rng);
        return;
    }
    out->kind = opfor_rng_unit(rng) * (wp + we) < wp ? OPFOR_PRESS_PLAYER : OPFOR_PRESS_ENEMY;
}

const char *opfor_patrol_spot_str(const opfor_patrol_spot_t *sp, char *buf, size_t n) {
    char dice[48];
    opfor_dice_t d = sp->dice;
    d.inches = 0;
    opfor_dice_format(&d, dice, sizeof dice);
    snprintf(buf, n, "%s (%s), %s inches (rolled %d), %s", opfor_patrol_type_label(sp->type),
             opfor_vocab_name(opfor_quality_names, sp->quality), dice, sp->rolled,
             opfor_vocab_name(opfor_compass_names, sp->direction));
    return buf;
}
