/* rulesets/viktoria/ai_director.c — the Patrol Mode director: steered spottings and general
 * placement (design and wiring in opfor/viktoria/director.h; rules: Viktoria! XV.A, XV.B, VII).
 *
 * Estimates are Monte Carlo rollouts on the engine inside the adapter's state, both sides
 * played by the cheap scripted bots; one spotting's candidates share their rollout seeds
 * (common random numbers), so their estimates differ by the outcome more than by luck. All
 * scratch states are allocated at creation; the director keeps no pointer into a game.
 */
#include "opfor/viktoria/director.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/heuristic.h"
#include "opfor/viktoria/patrol_engine.h"
#include "opfor/viktoria/player_bots.h"
#include "opfor/viktoria/session_press.h"
#include "opfor/viktoria/table_bot.h"

/* Streams of the director's draws and of its rollouts. */
#define DIR_SALT UINT64_C(0x4449524543544F52)    /* "DIRECTOR" */
#define ROLL_DICE UINT64_C(0x524F4C4C44494345)   /* "ROLLDICE" */
#define ROLL_PATROL UINT64_C(0x524F4C4C50415452) /* "ROLLPATR" */
#define ROLL_POLICY UINT64_C(0x524F4C4C504F4C49) /* "ROLLPOLI" */

struct opfor_director {
    opfor_director_config_t cfg;
    opfor_director_stats_t stats;
    uint64_t game_seed;                                    /* the current game's seed */
    uint64_t keys;                                         /* keys handed out in this game */
    opfor_vk_rs_state_t *work;                             /* a rollout's state */
    opfor_vk_rs_state_t *base;                             /* a candidate's state after spawning */
    opfor_heur_t heur;                                     /* the heuristic rollout model */
    opfor_action_t gacts[OPFOR_VK_RS_MAX_ACTIONS];         /* a rollout's legal list */
    opfor_vk_action_t acts[OPFOR_VK_RS_MAX_ACTIONS];       /* the same as engine actions */
    opfor_patrol_spot_t outs[OPFOR_DIRECTOR_MAX_OUTCOMES]; /* allowed outcomes */
};

void opfor_director_config_default(opfor_director_config_t *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->band_lo = 0.40;
    cfg->band_hi = 0.60;
    cfg->steer = 1;
    cfg->place_generals = 1;
    cfg->rollouts = 12;
    cfg->candidates = 8;
    cfg->player_model = OPFOR_PLAYER_BOT_MEDIUM;
    cfg->enemy_model = OPFOR_DIRECTOR_ENEMY_TABLE;
    cfg->rollout_steps = 20000;
    cfg->command_radius = OPFOR_DIRECTOR_COMMAND_RADIUS;
}

int opfor_director_create(opfor_director_t **out, const opfor_director_config_t *cfg) {
    if (!out)
        return OPFOR_EINVAL;
    *out = NULL;
    opfor_director_config_t c;
    if (cfg)
        c = *cfg;
    else
        opfor_director_config_default(&c);
    if (!(c.band_lo >= 0.0 && c.band_lo <= c.band_hi && c.band_hi <= 1.0) || c.rollouts < 1 ||
        c.candidates < 1 || c.player_model < 0 || c.player_model >= OPFOR_PLAYER_BOT_COUNT ||
        c.enemy_model < 0 || c.enemy_model >= OPFOR_DIRECTOR_ENEMY_COUNT || c.rollout_steps < 1 ||
        !(c.command_radius > 0.0f))
        return OPFOR_EINVAL;
    opfor_director_t *d = calloc(1, sizeof *d);
    if (!d)
        return OPFOR_ENOMEM;
    d->work = malloc(sizeof *d->work);
    d->base = malloc(sizeof *d->base);
    if (!d->work || !d->base) {
        opfor_director_free(d);
        return OPFOR_ENOMEM;
    }
    d->cfg = c;
    opfor_heur_init(&d->heur);
    d->heur.epsilon = 0.0;
    *out = d;
    return 0;
}

void opfor_director_free(opfor_director_t *d) {
    if (!d)
        return;
    free(d->work);
    free(d->base);
    free(d);
}

const opfor_director_config_t *opfor_director_config(const opfor_director_t *d) {
    return &d->cfg;
}

const opfor_director_stats_t *opfor_director_stats(const opfor_director_t *d) {
    return &d->stats;
}

void opfor_director_begin(opfor_director_t *d, uint64_t game_seed) {
    memset(&d->stats, 0, sizeof d->stats);
    d->game_seed = game_seed;
    d->keys = 0;
}

/* The Patrol Mode settings and engine of g, or NULL when g is not a Patrol Mode "viktoria"
 * game. */
static const opfor_patrol_config_t *patrol_of(const opfor_game_t *g, const opfor_vk_ctx_t **vk) {
    if (!g || g->rs != &opfor_viktoria_ruleset || !g->ctx)
        return NULL;
    const opfor_vk_rs_ctx_t *c = g->ctx;
    if (vk)
        *vk = opfor_vk_rs_engine(c);
    return opfor_vk_rs_patrol(c);
}

/* ---------------------------------------------------------------- estimates */

/* The index a rollout model picks among the n legal actions d->gacts of d->work. model:
 * an opfor_player_bot_t for the player, OPFOR_DIRECTOR_ENEMY_* + 16 for the enemy. */
static int model_pick(opfor_director_t *d, const opfor_game_t *g, const opfor_vk_ctx_t *vk,
                      int model, int n, opfor_rng_t *prng) {
    if (model == OPFOR_PLAYER_BOT_STRONG || model == 16 + OPFOR_DIRECTOR_ENEMY_HEURISTIC) {
        int k = opfor_heur_best(&d->heur, g, d->work, d->gacts, n, NULL);
        return k >= 0 && k < n ? k : 0;
    }
    for (int i = 0; i < n; i++)
        opfor_vk_rs_action_to_engine(&d->gacts[i], &d->acts[i]);
    int k = model == 16 + OPFOR_DIRECTOR_ENEMY_TABLE
                ? opfor_table_bot_choose(vk, &d->work->vk, d->acts, n, NULL, prng)
                : opfor_player_bot_choose_vk(model, vk, &d->work->vk, d->acts, n, prng);
    return k >= 0 && k < n ? k : 0;
}

/* One rollout from d->work (already a copy of the position), re-seeded from seed: the
 * player's result, 1 win, 1/2 draw, 0 loss. */
static double rollout(opfor_director_t *d, const opfor_game_t *g0, const opfor_vk_ctx_t *vk,
                      const opfor_patrol_config_t *pcfg, uint64_t seed) {
    opfor_vk_rs_state_t *w = d->work;
    opfor_game_t g = *g0;
    opfor_rng_seed(&w->vk.rng, seed, ROLL_DICE);
    opfor_rng_seed(&w->patrol_rng, seed, ROLL_PATROL);
    opfor_rng_t prng;
    opfor_rng_seed(&prng, seed, ROLL_POLICY);
    for (long steps = 0; steps < d->cfg.rollout_steps; steps++) {
        int cur = opfor_game_current(&g, w);
        if (cur == OPFOR_PLAYER_TERMINAL)
            break;
        int n = opfor_game_legal(&g, w, d->gacts, OPFOR_VK_RS_MAX_ACTIONS);
        if (n <= 0)
            break;
        int i = 0;
        if (cur == pcfg->player)
            i = model_pick(d, &g, vk, d->cfg.player_model, n, &prng);
        else if (cur >= 0)
            i = model_pick(d, &g, vk, 16 + d->cfg.enemy_model, n, &prng);
        if (opfor_game_apply(&g, w, &d->gacts[i]) != 0)
            break;
    }
    opfor_vk_result_t r;
    opfor_vk_result(vk, &w->vk, &r);
    if (r.over)
        return r.winner == pcfg->player ? 1.0 : r.winner == pcfg->enemy ? 0.0 : 0.5;
    int diff = r.score[pcfg->player] - r.score[pcfg->enemy];
    return diff > 0 ? 1.0 : diff < 0 ? 0.0 : 0.5;
}

/* Mean of cfg.rollouts rollouts from `from`, seeds keyed by (game seed, key). */
static double estimate(opfor_director_t *d, const opfor_game_t *g, const opfor_vk_ctx_t *vk,
                       const opfor_patrol_config_t *pcfg, const opfor_vk_rs_state_t *from,
                       uint64_t key) {
    double sum = 0.0;
    for (int r = 0; r < d->cfg.rollouts; r++) {
        memcpy(d->work, from, sizeof *d->work);
        uint64_t seed =
            opfor_rng_mix64(d->game_seed ^ opfor_rng_mix64(key * 1000003u + (uint64_t)r));
        sum += rollout(d, g, vk, pcfg, seed);
    }
    d->stats.estimates++;
    return sum / (double)d->cfg.rollouts;
}

int opfor_director_estimate(opfor_director_t *d, const opfor_game_t *g, const void *state,
                            uint64_t key, double *p) {
    const opfor_vk_ctx_t *vk = NULL;
    const opfor_patrol_config_t *pcfg = patrol_of(g, &vk);
    if (!d || !pcfg || !state || !p)
        return OPFOR_EINVAL;
    *p = estimate(d, g, vk, pcfg, state, key);
    return 0;
}

/* ---------------------------------------------------------------- allowed outcomes */

static int dice_equal(const opfor_dice_t *a, const opfor_dice_t *b) {
    if (a->nterms != b->nterms || a->bonus != b->bonus)
        return 0;
    for (int i = 0; i < a->nterms; i++)
        if (a->terms[i].count != b->terms[i].count || a->terms[i].sides != b->terms[i].sides)
            return 0;
    return 1;
}

int opfor_director_allowed(const opfor_patrol_config_t *cfg, const opfor_patrol_spot_t *sp) {
    if (!cfg || !sp || sp->type < 0 || sp->type >= OPFOR_PT_COUNT || sp->quality < 0 ||
        sp->quality >= OPFOR_Q_COUNT || sp->direction < 0 || sp->direction >= OPFOR_COMPASS_COUNT)
        return 0;
    int t = sp->type;
    if (cfg->type_weight[t] == 0 || cfg->quality_weight[t][sp->quality] == 0 ||
        cfg->dir_weight[sp->direction] == 0)
        return 0;
    if (sp->dist_opt < 0 || sp->dist_opt >= cfg->ndist[t])
        return 0;
    const opfor_patrol_dist_opt_t *o = &cfg->dist[t][sp->dist_opt];
    return o->weight > 0 && dice_equal(&o->dice, &sp->dice) &&
           sp->rolled >= opfor_dice_min(&o->dice) && sp->rolled <= opfor_dice_max(&o->dice);
}

/* Sets sp's distance to `inches` under a distance option of its type that can roll it (the
 * first with weight). 0, or -1 when none can. */
static int set_distance(const opfor_patrol_config_t *cfg, opfor_patrol_spot_t *sp, int inches) {
    int t = sp->type;
    for (int i = 0; i < cfg->ndist[t]; i++) {
        const opfor_patrol_dist_opt_t *o = &cfg->dist[t][i];
        if (o->weight == 0 || inches < opfor_dice_min(&o->dice) ||
            inches > opfor_dice_max(&o->dice))
            continue;
        sp->dist_opt = i;
        sp->dice = o->dice;
        sp->rolled = inches;
        return 0;
    }
    return -1;
}

int opfor_director_outcomes(const opfor_patrol_config_t *cfg, const opfor_patrol_spot_t *drawn,
                            opfor_patrol_spot_t *out, int max) {
    if (!cfg || !drawn || !out || max < 1)
        return 0;
    int n = 0;
    out[n++] = *drawn;
    for (int t = 0; t < OPFOR_PT_COUNT; t++) {
        if (cfg->type_weight[t] == 0)
            continue;
        int q = drawn->quality;
        if (cfg->quality_weight[t][q] == 0) {
            q = 0;
            for (int k = 1; k < OPFOR_Q_COUNT; k++)
                if (cfg->quality_weight[t][k] > cfg->quality_weight[t][q])
                    q = k;
        }
        int lo = 1 << 30, hi = -1;
        for (int i = 0; i < cfg->ndist[t]; i++) {
            if (cfg->dist[t][i].weight == 0)
                continue;
            int a = opfor_dice_min(&cfg->dist[t][i].dice),
                b = opfor_dice_max(&cfg->dist[t][i].dice);
            lo = a < lo ? a : lo;
            hi = b > hi ? b : hi;
        }
        if (hi < 0)
            continue;
        int dists[3] = {lo, hi, drawn->type == t ? drawn->rolled : -1};
        for (int k = 0; k < 3; k++) {
            if (dists[k] < 0 || (k > 0 && dists[k] == dists[0]) || (k > 1 && dists[k] == dists[1]))
                continue;
            for (int dir = 0; dir < OPFOR_COMPASS_COUNT; dir++) {
                if (cfg->dir_weight[dir] == 0 || n >= max)
                    continue;
                opfor_patrol_spot_t s = *drawn;
                s.type = t;
                s.quality = q;
                s.direction = dir;
                if (set_distance(cfg, &s, dists[k]) != 0)
                    continue;
                if (s.type == drawn->type && s.quality == drawn->quality &&
                    s.direction == drawn->direction && s.rolled == drawn->rolled)
                    continue; /* the draw itself, already first */
                out[n++] = s;
            }
        }
    }
    return n;
}

/* ---------------------------------------------------------------- generals */

/* Whether unit u of fo is a non-player unit in play that needs command (not a general, not
 * self-commanding). */
static int needs_command(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo, int u) {
    const opfor_unit_t *un = &fo->units[u];
    return un->side == cfg->enemy && opfor_patrol_in_play(fo, u) &&
           !(un->flags & (OPFOR_UNIT_GENERAL | OPFOR_UNIT_SELF_COMMANDING));
}

/* Whether a living figure of unit u stands within radius of point p. */
static int unit_within(const opfor_patrol_forces_t *fo, int u, opfor_pt_t p, float radius) {
    const opfor_unit_t *un = &fo->units[u];
    float r2 = radius * radius;
    for (int i = un->first; i < un->first + un->count; i++)
        if (opfor_figure_alive(&fo->figures[i]) && opfor_dist2(fo->figures[i].pos, p) <= r2)
            return 1;
    return 0;
}

/* Where a general joining unit j stands: 3 inches beyond its centre, away from the
 * players, on the table. */
static opfor_pt_t beside(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo, int j) {
    opfor_pt_t c = opfor_pt(0.0f, 0.0f);
    opfor_unit_centre(&fo->units[j], fo->figures, &c);
    opfor_pt_t p = opfor_vadd(c, opfor_vscale(cfg->forward, 3.0f));
    float w = cfg->table.width, h = cfg->table.depth;
    p.x = p.x < 1.0f ? 1.0f : p.x > w - 1.0f ? w - 1.0f : p.x;
    p.y = p.y < 1.0f ? 1.0f : p.y > h - 1.0f ? h - 1.0f : p.y;
    return p;
}

/* Whether unit u is already commanded by a general or headquarters other than `general`. */
static int commanded_by_others(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo,
                               int u, int general, float radius) {
    for (int k = 0; k < fo->nunits; k++) {
        const opfor_unit_t *gk = &fo->units[k];
        if (k == general || k == u || gk->side != cfg->enemy || !opfor_patrol_in_play(fo, k))
            continue;
        if (!(gk->flags & OPFOR_UNIT_GENERAL) && gk->type != OPFOR_UT_HEADQUARTERS)
            continue;
        for (int i = gk->first; i < gk->first + gk->count; i++)
            if (opfor_figure_alive(&fo->figures[i]) &&
                unit_within(fo, u, fo->figures[i].pos, radius))
                return 1;
    }
    return 0;
}

int opfor_director_general_unit(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo,
                                int general, float radius, int *in_command) {
    int best = -1, best_new = -1, best_all = -1;
    for (int j = 0; j < fo->nunits; j++) {
        if (j == general || fo->units[j].side != cfg->enemy || !opfor_patrol_in_play(fo, j) ||
            (fo->units[j].flags & OPFOR_UNIT_GENERAL))
            continue;
        opfor_pt_t p = beside(cfg, fo, j);
        int fresh = 0, all = 0;
        for (int u = 0; u < fo->nunits; u++) {
            if (u == general || !needs_command(cfg, fo, u) || !unit_within(fo, u, p, radius))
                continue;
            all++;
            fresh += !commanded_by_others(cfg, fo, u, general, radius);
        }
        if (fresh > best_new || (fresh == best_new && all > best_all)) {
            best = j;
            best_new = fresh;
            best_all = all;
        }
    }
    if (in_command)
        *in_command = best >= 0 ? best_all : 0;
    return best;
}

int opfor_director_place_general(const opfor_patrol_config_t *cfg, opfor_patrol_forces_t *fo,
                                 int general, float radius) {
    if (!cfg || !fo || general < 0 || general >= fo->nunits)
        return -1;
    int j = opfor_director_general_unit(cfg, fo, general, radius, NULL);
    if (j < 0)
        return -1;
    const opfor_unit_t *gu = &fo->units[general];
    opfor_pt_t p = beside(cfg, fo, j);
    for (int i = gu->first; i < gu->first + gu->count; i++)
        fo->figures[i].pos = p;
    if (cfg->clear_ground) /* never inside a building closed to his horse, nor a pond */
        opfor_patrol_clear_ground(&cfg->table, &fo->figures[gu->first], gu->count, gu->flags,
                                  gu->facing);
    return j;
}

/* ---------------------------------------------------------------- spottings */

/* Resolves spot into s as the engine's hook would (forces in s->vk, the patrol stream for the
 * draws), places new generals when enabled and clears the engine's data of new slots. */
static void resolve(opfor_director_t *d, const opfor_patrol_config_t *pcfg, opfor_vk_rs_state_t *s,
                    const opfor_patrol_spot_t *spot) {
    opfor_patrol_forces_t fo = {s->vk.units, s->vk.figures, s->vk.nunits, s->vk.nfigures};
    int n0 = fo.nunits, f0 = fo.nfigures;
    opfor_patrol_session_spotting_t sp;
    opfor_patrol_session_spot(pcfg, &s->ps, &fo, spot, &s->patrol_rng, d->cfg.place_generals,
                              d->cfg.command_radius, &sp);
    opfor_patrol_engine_take_spawned(&s->vk, &fo, n0, f0);
}

/* The estimate of the position after spot is resolved in a copy of s. */
static double candidate(opfor_director_t *d, const opfor_game_t *g, const opfor_vk_ctx_t *vk,
                        const opfor_patrol_config_t *pcfg, const opfor_vk_rs_state_t *s,
                        const opfor_patrol_spot_t *spot, uint64_t key) {
    memcpy(d->base, s, sizeof *d->base);
    resolve(d, pcfg, d->base, spot);
    return estimate(d, g, vk, pcfg, d->base, key);
}

/* A quick guess at how much an outcome threatens the players, from where it would appear
 * (no rollout): 0 when it would not appear (refused), else its fighting weight by type and
 * quality, less for units that give the players points (headquarters, supply), fading with
 * distance from the nearest player figure. Orders the candidates the rollouts compare. */
static double threat(const opfor_patrol_config_t *cfg, const opfor_vk_rs_state_t *s,
                     const opfor_patrol_spot_t *sp) {
    static const double TYPE[OPFOR_PT_COUNT] = {12.0, 8.0, 6.0, -2.0, -3.0};
    static const double QUAL[OPFOR_Q_COUNT] = {0.5, 0.75, 1.0, 1.25, 1.5};
    opfor_patrol_forces_t fo = {(opfor_unit_t *)s->vk.units, (opfor_figure_t *)s->vk.figures,
                                s->vk.nunits, s->vk.nfigures};
    opfor_patrol_placement_t pl;
    if (opfor_patrol_place(cfg, &s->ps, &fo, sp->direction, (float)sp->rolled,
                           sp->type != OPFOR_PT_INFANTRY, &pl) != 0 ||
        !pl.placed)
        return 0.0;
    return TYPE[sp->type] * QUAL[sp->quality] * 24.0 / (24.0 + (double)pl.distance);
}

/* Swaps candidates i and j with their threat guesses. */
static void swap_out(opfor_patrol_spot_t *outs, double *thr, int i, int j) {
    opfor_patrol_spot_t t = outs[i];
    double tt = thr[i];
    outs[i] = outs[j];
    thr[i] = thr[j];
    outs[j] = t;
    thr[j] = tt;
}

int opfor_director_steer(opfor_director_t *d, const opfor_game_t *g, const void *state,
                         opfor_patrol_spot_t *spot) {
    const opfor_vk_ctx_t *vk = NULL;
    const opfor_patrol_config_t *pcfg = patrol_of(g, &vk);
    if (!d || !pcfg || !state || !spot)
        return OPFOR_EINVAL;
    const opfor_vk_rs_state_t *s = state;
    if (!d->cfg.steer)
        return 0;
    uint64_t key = ++d->keys;
    double p = candidate(d, g, vk, pcfg, s, spot, key);
    d->stats.last = p;
    d->stats.sum += p;
    if (p >= d->cfg.band_lo && p <= d->cfg.band_hi)
        return 0;
    /* Outside the band: the outcomes that push back the most by the quick guess are compared
       by rollouts with the draw. Re-estimated at every spotting, the game is nudged back
       into the band and no further. */
    int harder = p > d->cfg.band_hi;
    int n = opfor_director_outcomes(pcfg, spot, d->outs, OPFOR_DIRECTOR_MAX_OUTCOMES);
    double thr[OPFOR_DIRECTOR_MAX_OUTCOMES];
    for (int i = 0; i < n; i++)
        thr[i] = threat(pcfg, s, &d->outs[i]);
    /* Ties in the guess are broken by the director's stream for this spotting. */
    opfor_rng_t rng;
    opfor_rng_derive(&rng, d->game_seed, DIR_SALT ^ key);
    for (int i = n - 1; i > 1; i--) {
        int j = 1 + (int)opfor_rng_below(&rng, (uint32_t)i);
        swap_out(d->outs, thr, i, j);
    }
    int k = d->cfg.candidates - 1 < n - 1 ? d->cfg.candidates - 1 : n - 1;
    for (int i = 1; i <= k; i++) { /* partial selection sort: the k most extreme first */
        int m = i;
        for (int j = i + 1; j < n; j++)
            if (harder ? thr[j] > thr[m] : thr[j] < thr[m])
                m = j;
        swap_out(d->outs, thr, i, m);
    }
    /* Of the draw and the candidates, the estimate nearest the band's middle. (Patrol Mode
       games no longer end when the last known enemy falls while more may appear, so no
       share of games is out of the director's reach and it need not lean either way.) A
       candidate that overshoots further than the draw misses is not taken. */
    double mid = 0.5 * (d->cfg.band_lo + d->cfg.band_hi);
    int best = 0;
    double best_gap = p > mid ? p - mid : mid - p;
    for (int i = 1; i <= k; i++) {
        double pc = candidate(d, g, vk, pcfg, s, &d->outs[i], key);
        double gap = pc > mid ? pc - mid : mid - pc;
        if (gap < best_gap - 1e-12) {
            best = i;
            best_gap = gap;
        }
    }
    if (best == 0)
        return 0;
    *spot = d->outs[best];
    return 1;
}

/* The director's press sequence: the game, its state, the engine and its word on who acts. */
typedef struct chance_run {
    opfor_director_t *d;
    opfor_game_t *g;
    opfor_vk_rs_state_t *s;
    const opfor_vk_ctx_t *vk;
    int enemy;
    int ready[2];
} chance_run_t;

static int chance_steer(void *user, opfor_patrol_spot_t *spot) {
    chance_run_t *r = user;
    r->d->stats.spottings++;
    int rc = opfor_director_steer(r->d, r->g, r->s, spot);
    if (rc > 0)
        r->d->stats.steered += rc;
    return rc;
}

static void chance_spawned(void *user, const opfor_patrol_forces_t *fo, int n0, int f0) {
    chance_run_t *r = user;
    opfor_patrol_engine_take_spawned(&r->s->vk, fo, n0, f0);
    r->ready[1] = opfor_vk_side_ready(r->vk, &r->s->vk, r->enemy);
}

int opfor_director_chance(opfor_director_t *d, opfor_game_t *g, void *state) {
    const opfor_vk_ctx_t *vk = NULL;
    const opfor_patrol_config_t *pcfg = patrol_of(g, &vk);
    if (!d || !state)
        return OPFOR_EINVAL;
    opfor_vk_rs_state_t *s = state;
    if (!pcfg || s->vk.phase != OPFOR_VK_PH_INITIATIVE)
        return 0;
    /* As opfor_patrol_engine_initiative does, press by press, up to its guard; the press that
       is no spotting is left for the engine's hook to draw. */
    chance_run_t run = {d,
                        g,
                        s,
                        vk,
                        pcfg->enemy,
                        {opfor_vk_side_ready(vk, &s->vk, pcfg->player),
                         opfor_vk_side_ready(vk, &s->vk, pcfg->enemy)}};
    if (!run.ready[0] && !run.ready[1])
        return 0;
    s->ps.turn = s->vk.turn;
    opfor_patrol_engine_mark_removed(&s->vk, &s->ps);
    opfor_patrol_forces_t fo = {s->vk.units, s->vk.figures, s->vk.nunits, s->vk.nfigures};
    opfor_patrol_session_opts_t o;
    memset(&o, 0, sizeof o);
    o.mode = OPFOR_PATROL_SESSION_PEEK;
    o.max_presses = 15;
    o.ready = run.ready;
    o.observe_each = 1;
    o.place_generals = d->cfg.place_generals;
    o.command_radius = d->cfg.command_radius;
    o.steer = chance_steer;
    o.spawned = chance_spawned;
    o.user = &run;
    opfor_patrol_session_report_t rep;
    int rc = opfor_patrol_session_press(pcfg, &s->ps, &fo, &s->patrol_rng, &o, &rep);
    d->stats.generals += rep.generals;
    return rc < 0 ? rc : 0;
}

/* ---------------------------------------------------------------- the referee */

static int ref_begin(void *self, const opfor_game_t *g, uint64_t game_seed) {
    (void)g;
    opfor_director_begin(self, game_seed);
    return 0;
}

static int ref_chance(void *self, opfor_game_t *g, void *state) {
    int rc = opfor_director_chance(self, g, state);
    return rc < 0 ? rc : 0;
}

static void ref_end(void *self, const opfor_game_t *g, const void *state, long *counts) {
    (void)g;
    (void)state;
    const opfor_director_stats_t *st = opfor_director_stats(self);
    counts[0] = st->spottings;
    counts[1] = st->steered;
    counts[2] = st->generals;
    counts[3] = st->estimates;
}

static void ref_release(void *self) {
    opfor_director_free(self);
}

int opfor_director_referee_open(const void *cfg, const opfor_game_t *g, opfor_referee_t *out) {
    (void)g;
    opfor_director_t *d = NULL;
    int rc = opfor_director_create(&d, cfg);
    if (rc != 0)
        return rc;
    memset(out, 0, sizeof *out);
    out->self = d;
    out->begin = ref_begin;
    out->chance = ref_chance;
    out->end = ref_end;
    out->release = ref_release;
    return 0;
}
