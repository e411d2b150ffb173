/* rulesets/viktoria/adapter.c — Viktoria! as an opfor_ruleset_t (opfor/viktoria/adapter.h).
 *
 * The hooks translate between the generic interface and engine.h: players (the engine's
 * sides, chance and terminal), actions (field by field), returns (the engine's winner), the
 * clock (turn and activation counters for the search horizon), fresh dice (reseed) and the
 * hidden Patrol Mode stream (resample). In Patrol Mode the engine's initiative hook is the
 * adapter's: it finds the patrol state right after the engine state inside the adapter's
 * state, so copying one state copies the whole game. The extra candidate moves (firing
 * positions, retreats, keeping range, cover facing the threat) complete the engine's list
 * with the points the roles of XV.B need; the heuristic (ai_heuristic.c) ranks them all.
 */
#include "opfor/viktoria/adapter.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "opfor/hash.h"
#include "opfor/viktoria/ai.h"
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/engine_query.h"
#include "opfor/viktoria/model.h"
#include "opfor/viktoria/patrol_engine.h"

struct opfor_vk_rs_ctx {
    opfor_vk_ctx_t *vk;          /* the engine's context */
    int mode;                    /* OPFOR_MODE_* */
    opfor_patrol_config_t *pcfg; /* Patrol Mode settings (heap), NULL in competitive games */
    float width, depth;          /* table size, inches */
};

/* Streams of the two random sources a state carries. */
#define DICE_STREAM UINT64_C(0x566b5f646963650a)   /* "Vk_dice" */
#define PATROL_STREAM UINT64_C(0x566b5f7061747231) /* "Vk_patr1" */
/* Serialized form: magic, version, payload bytes, payload, FNV-1a of the payload. */
#define SER_MAGIC 0x5352564Bu /* "KVRS" little-endian */
#define SER_VERSION 1u

/* ---------------------------------------------------------------- actions */

opfor_action_t opfor_vk_rs_action_from_engine(const opfor_vk_action_t *a) {
    opfor_action_t g;
    memset(&g, 0, sizeof g);
    g.kind = a->kind;
    g.unit = a->unit;
    g.target = a->target;
    g.sub = a->arc;
    g.arg = a->figure;
    g.flags = a->flags;
    g.x = a->dest.x;
    g.y = a->dest.y;
    g.x2 = a->via.x;
    g.y2 = a->via.y;
    return g;
}

void opfor_vk_rs_action_to_engine(const opfor_action_t *a, opfor_vk_action_t *out) {
    memset(out, 0, sizeof *out);
    out->kind = a->kind;
    out->unit = a->unit;
    out->target = a->target;
    out->arc = (a->flags & OPFOR_VK_RS_AF_EXTRA) ? 0 : a->sub;
    out->figure = a->arg;
    out->flags = (uint16_t)(a->flags & ~OPFOR_VK_RS_AF_EXTRA);
    out->dest = opfor_pt(a->x, a->y);
    out->via = opfor_pt(a->x2, a->y2);
}

/* ---------------------------------------------------------------- Patrol Mode hook */

/* The engine's initiative hook in Patrol Mode: st is the first member of an adapter state,
 * whose patrol state and stream follow it. */
static int patrol_initiative(const struct opfor_vk_ctx *vctx, struct opfor_vk_state *vst,
                             void *user) {
    const opfor_vk_rs_ctx_t *ctx = user;
    opfor_vk_rs_state_t *s = (opfor_vk_rs_state_t *)(void *)vst;
    opfor_patrol_hook_t h;
    memset(&h, 0, sizeof h);
    h.cfg = ctx->pcfg;
    h.ps = &s->ps;
    h.rng = &s->patrol_rng;
    s->ps.turn = vst->turn;
    return opfor_patrol_engine_initiative(vctx, vst, &h);
}

/* The engine's reinforce hook in Patrol Mode: the enemy may still appear while spottings
 * can place units, so killing the last known enemy does not end the game. */
static int patrol_reinforce(const struct opfor_vk_ctx *vctx, const struct opfor_vk_state *vst,
                            int side, void *user) {
    (void)vctx;
    const opfor_vk_rs_ctx_t *ctx = user;
    const opfor_vk_rs_state_t *s = (const opfor_vk_rs_state_t *)(const void *)vst;
    return opfor_patrol_engine_may_reinforce(ctx->pcfg, &s->ps, vst, side);
}

/* ---------------------------------------------------------------- context */

int opfor_vk_rs_ctx_new(opfor_vk_rs_ctx_t **out, const opfor_scenario_t *sc, const char *label,
                        const opfor_vk_options_t *options, opfor_diag_t *diag) {
    return opfor_vk_rs_ctx_new_model(out, sc, label, options, NULL, diag);
}

int opfor_vk_rs_ctx_new_model(opfor_vk_rs_ctx_t **out, const opfor_scenario_t *sc,
                              const char *label, const opfor_vk_options_t *options,
                              const opfor_viktoria_model_t *model, opfor_diag_t *diag) {
    if (!out || !sc)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no context or scenario");
    *out = NULL;
    opfor_vk_rs_ctx_t *ctx = calloc(1, sizeof *ctx);
    opfor_viktoria_model_t *m = calloc(1, sizeof *m);
    if (!ctx || !m) {
        free(ctx);
        free(m);
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "no memory for the context");
    }
    int rc = 0;
    if (model)
        *m = *model;
    else
        rc = opfor_viktoria_model_default(m, diag);
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    if (options)
        opt = *options;
    ctx->mode = sc->mode == OPFOR_MODE_COOP ? OPFOR_MODE_COOP : OPFOR_MODE_COMPETITIVE;
    ctx->width = sc->table.width;
    ctx->depth = sc->table.depth;
    if (rc == 0 && ctx->mode == OPFOR_MODE_COOP) {
        ctx->pcfg = calloc(1, sizeof *ctx->pcfg);
        if (!ctx->pcfg)
            rc = opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "no memory for the patrol settings");
        else
            rc = opfor_patrol_config_load(ctx->pcfg, sc, label ? label : "", diag);
        opt.initiative = patrol_initiative;
        opt.reinforce = patrol_reinforce;
        opt.initiative_user = ctx;
    }
    if (rc == 0)
        rc = opfor_vk_ctx_init(&ctx->vk, sc, m, &opt, diag);
    free(m);
    if (rc) {
        free(ctx->pcfg);
        free(ctx);
        return rc;
    }
    *out = ctx;
    return 0;
}

int opfor_vk_rs_ctx_load(opfor_vk_rs_ctx_t **out, const char *scenario, opfor_diag_t *diag) {
    if (!out)
        return OPFOR_EINVAL;
    *out = NULL;
    if (!scenario)
        scenario = OPFOR_VK_RS_DEFAULT_SCENARIO;
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    if (!sc)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "no memory for the scenario");
    struct stat fs;
    int rc;
    char label[300];
    if (stat(scenario, &fs) != 0 && opfor_viktoria_builtin_text(scenario, NULL)) {
        rc = opfor_viktoria_builtin_load(scenario, sc, diag);
        snprintf(label, sizeof label, "builtin:%s",
                 strncmp(scenario, "builtin:", 8) == 0 ? scenario + 8 : scenario);
    } else {
        rc = opfor_viktoria_scenario_load_file(scenario, sc, diag);
        snprintf(label, sizeof label, "%s", scenario);
    }
    if (rc == 0) {
        rc = opfor_vk_rs_ctx_new(out, sc, label, NULL, diag);
        opfor_scenario_free(sc);
    }
    free(sc);
    return rc;
}

void opfor_vk_rs_ctx_free(opfor_vk_rs_ctx_t *ctx) {
    if (!ctx)
        return;
    opfor_vk_ctx_free(ctx->vk);
    free(ctx->pcfg);
    free(ctx);
}

const opfor_vk_ctx_t *opfor_vk_rs_engine(const opfor_vk_rs_ctx_t *ctx) {
    return ctx->vk;
}

int opfor_vk_rs_mode(const opfor_vk_rs_ctx_t *ctx) {
    return ctx->mode;
}

const opfor_patrol_config_t *opfor_vk_rs_patrol(const opfor_vk_rs_ctx_t *ctx) {
    return ctx->pcfg;
}

/* ---------------------------------------------------------------- states */

void opfor_vk_rs_state_init(const opfor_vk_rs_ctx_t *ctx, opfor_vk_rs_state_t *st, uint64_t seed) {
    memset(st, 0, sizeof *st);
    opfor_vk_state_init(ctx->vk, &st->vk, seed);
    opfor_rng_seed(&st->patrol_rng, seed, PATROL_STREAM);
    if (ctx->pcfg) {
        opfor_patrol_forces_t fo = {st->vk.units, st->vk.figures, st->vk.nunits, st->vk.nfigures};
        opfor_patrol_init(ctx->pcfg, &st->ps, &fo);
    }
    st->magic = OPFOR_VK_RS_MAGIC;
}

int opfor_vk_rs_state_from_table(const opfor_vk_rs_ctx_t *ctx, opfor_vk_rs_state_t *st,
                                 const opfor_unit_t *units, int nunits,
                                 const opfor_figure_t *figures, int nfigures, int turn,
                                 const opfor_patrol_state_t *ps, const opfor_rng_t *patrol_rng,
                                 int side, uint64_t seed) {
    if (!ctx || !st || !units || !figures || nunits < 1 || nunits > OPFOR_MAX_UNITS ||
        nfigures < 1 || nfigures > OPFOR_MAX_FIGURES || (side != 0 && side != 1))
        return OPFOR_EINVAL;
    for (int u = 0; u < nunits; u++)
        if (units[u].side > 1 || units[u].first + units[u].count > nfigures)
            return OPFOR_EINVAL;
    opfor_vk_rs_state_init(ctx, st, seed);
    opfor_vk_state_t *v = &st->vk;
    memset(v->units, 0, sizeof v->units);
    memset(v->figures, 0, sizeof v->figures);
    memcpy(v->units, units, (size_t)nunits * sizeof *units);
    memcpy(v->figures, figures, (size_t)nfigures * sizeof *figures);
    v->nunits = (uint8_t)nunits;
    v->nfigures = (uint16_t)nfigures;
    for (int u = 0; u < nunits; u++) {
        int alive = 0;
        for (int i = units[u].first; i < units[u].first + units[u].count; i++)
            alive += (figures[i].flags & OPFOR_FIG_ALIVE) != 0;
        v->ux[u].removed = (units[u].flags & OPFOR_UNIT_OFF_TABLE) || alive == 0;
    }
    v->turn = (uint16_t)(turn < 1 ? 1 : turn);
    v->phase = OPFOR_VK_PH_SELECT_UNIT;
    v->side = (uint8_t)side;
    v->cur = OPFOR_VK_NONE;
    if (ps)
        st->ps = *ps;
    else if (ctx->pcfg) {
        opfor_patrol_forces_t fo = {v->units, v->figures, v->nunits, v->nfigures};
        opfor_patrol_init(ctx->pcfg, &st->ps, &fo);
    }
    st->ps.turn = v->turn;
    if (patrol_rng)
        st->patrol_rng = *patrol_rng;
    /* Nobody of that side ready: let the engine sequence from the initiative instead. */
    if (!opfor_vk_side_ready(ctx->vk, v, side))
        v->phase = OPFOR_VK_PH_INITIATIVE;
    return 0;
}

/* ---------------------------------------------------------------- extra candidates */

static opfor_pt_t clamp_pt(const opfor_vk_rs_ctx_t *ctx, opfor_pt_t p) {
    if (p.x < 1.0f)
        p.x = 1.0f;
    if (p.y < 1.0f)
        p.y = 1.0f;
    if (p.x > ctx->width - 1.0f)
        p.x = ctx->width - 1.0f;
    if (p.y > ctx->depth - 1.0f)
        p.y = ctx->depth - 1.0f;
    return p;
}

/* The distance at which u's best firearm is still effective: the upper edge of the medium
 * bracket of the longest-reaching weapon it carries (0 when it has none). */
static float good_range(const opfor_vk_ctx_t *vk, const opfor_vk_state_t *st, int u) {
    const opfor_viktoria_model_t *m = opfor_vk_query_model(vk);
    const opfor_unit_t *un = &st->units[u];
    unsigned w = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (st->figures[i].flags & OPFOR_FIG_ALIVE)
            w |= st->figures[i].weapons;
    int k = (w & OPFOR_W_FIELD_GUN) ? OPFOR_VK_R_ARTILLERY
            : (w & OPFOR_W_MG)      ? OPFOR_VK_R_MG
            : (w & OPFOR_W_RIFLE)   ? OPFOR_VK_R_RIFLE
            : (w & OPFOR_W_CARBINE) ? OPFOR_VK_R_CARBINE
            : (w & OPFOR_W_PISTOL)  ? OPFOR_VK_R_PISTOL
                                    : -1;
    if (k < 0)
        return 0.0f;
    double e = m->range_edge[k][OPFOR_VK_MEDIUM];
    if (!(e < 1e6))
        e = m->range_edge[k][OPFOR_VK_SHORT];
    return (float)(e < 1e6 ? e : 24.0);
}

typedef struct extra_ctx {
    const opfor_vk_rs_ctx_t *ctx;
    opfor_action_t *out;
    int n, max;
} extra_ctx_t;

static void push_extra(extra_ctx_t *x, int kind, int unit, int which, opfor_pt_t dest) {
    if (x->n >= x->max)
        return;
    opfor_action_t a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.unit = (uint8_t)unit;
    a.target = OPFOR_ACTION_NONE;
    a.sub = (uint8_t)which;
    a.arg = OPFOR_VK_NO_FIGURE;
    a.flags = OPFOR_VK_RS_AF_EXTRA;
    dest = clamp_pt(x->ctx, dest);
    a.x = dest.x;
    a.y = dest.y;
    x->out[x->n++] = a;
}

/* Adds the role-driven destinations for the acting unit (see the file comment); moves is a
 * bit set of the movement kinds the engine listed for it (1 << kind). */
static void list_extras(const opfor_vk_rs_ctx_t *ctx, const opfor_vk_state_t *st, unsigned moves,
                        extra_ctx_t *x) {
    int u = st->cur;
    if (u == OPFOR_VK_NONE || !(moves & (1u << OPFOR_VK_ADVANCE)))
        return;
    const opfor_vk_ctx_t *vk = ctx->vk;
    int side = st->units[u].side;
    opfor_vk_ugeo_t me;
    opfor_vk_query_geo(st, u, &me);
    if (me.n == 0)
        return;
    /* the nearest enemy units by centre distance */
    int en[3], nen = 0;
    float ed[3];
    opfor_vk_ugeo_t eg[3];
    for (int t = 0; t < st->nunits; t++) {
        if (st->units[t].side == side || !opfor_vk_unit_in_play(st, t))
            continue;
        opfor_vk_ugeo_t g;
        opfor_vk_query_geo(st, t, &g);
        float d = opfor_dist(me.c, g.c);
        int k = nen < 3 ? nen++ : 3;
        if (k == 3) {
            if (d >= ed[2])
                continue;
            k = 2;
        }
        while (k > 0 && ed[k - 1] > d) {
            en[k] = en[k - 1];
            ed[k] = ed[k - 1];
            eg[k] = eg[k - 1];
            k--;
        }
        en[k] = t;
        ed[k] = d;
        eg[k] = g;
    }
    if (nen == 0)
        return;
    opfor_vec_t home = opfor_vk_query_home(vk, side);
    opfor_vec_t away = opfor_vnorm(opfor_vsub(me.c, eg[0].c));
    if (away.x == 0.0f && away.y == 0.0f)
        away = home;
    float range = good_range(vk, st, u);
    int mounted = 0;
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if ((st->figures[i].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_MOUNTED)) ==
                (OPFOR_FIG_ALIVE | OPFOR_FIG_MOUNTED) ||
            ((st->figures[i].flags & OPFOR_FIG_EQUIPMENT) &&
             (st->figures[i].flags & OPFOR_FIG_ALIVE)))
            mounted = 1;

    /* firing position: in sight of the nearest enemy at a good range, cover preferred */
    if (range > 0.0f) {
        opfor_pt_t best = me.c;
        int found = 0, best_cov = -1;
        static const float ROT[3][2] = {{1.0f, 0.0f}, {0.8660254f, 0.5f}, {0.8660254f, -0.5f}};
        for (int r = 0; r < 3; r++) {
            opfor_vec_t d = opfor_vrot(away, ROT[r][0], ROT[r][1]);
            float dist = range - 1.0f + eg[0].r;
            if (dist > ed[0])
                dist = ed[0]; /* never step back just to fire */
            opfor_pt_t p = clamp_pt(ctx, opfor_vadd(eg[0].c, opfor_vscale(d, dist)));
            if (opfor_vk_query_impassable(vk, p, mounted) || !opfor_vk_query_los(vk, p, eg[0].c))
                continue;
            int cov = opfor_vk_query_cover(vk, eg[0].c, p, OPFOR_RADIUS_FOOT);
            if (cov > best_cov) {
                best_cov = cov;
                best = p;
                found = 1;
            }
        }
        if (found && opfor_dist(best, me.c) > 1.0f)
            push_extra(x, OPFOR_VK_ADVANCE, u, OPFOR_VK_RS_X_FIRE_POS, best);
    }
    /* retreat: away from the nearest threat, bending toward the own edge */
    {
        opfor_vec_t d = opfor_vnorm(opfor_vadd(away, home));
        if (d.x == 0.0f && d.y == 0.0f)
            d = home;
        int kind = (moves & (1u << OPFOR_VK_RUN)) ? OPFOR_VK_RUN : OPFOR_VK_ADVANCE;
        push_extra(x, kind, u, OPFOR_VK_RS_X_RETREAT, opfor_vadd(me.c, opfor_vscale(d, 14.0f)));
    }
    /* keep range: back out when the enemy is well inside the good range */
    if (range > 8.0f && ed[0] - eg[0].r - me.r < range - 6.0f) {
        opfor_pt_t p = opfor_vadd(eg[0].c, opfor_vscale(away, range - 1.0f));
        push_extra(x, OPFOR_VK_ADVANCE, u, OPFOR_VK_RS_X_KEEP_RANGE, p);
    }
    /* cover facing the threat: the nearest covering feature within a move, on the far side
       from the enemy */
    {
        const opfor_table_t *t = opfor_vk_query_table(vk);
        float reach = opfor_vk_query_move(vk, st, u, OPFOR_VK_ADVANCE) + 2.0f;
        float bestd = reach * reach;
        opfor_pt_t best = me.c;
        int found = 0;
        for (int i = 0; i < t->nfeatures; i++) {
            const opfor_terrain_feature_t *f = &t->features[i];
            if (f->cover == OPFOR_COVER_NONE || f->move == OPFOR_MOVE_IMPASSABLE ||
                (mounted && (f->flags & OPFOR_TF_NO_MOUNTED)))
                continue;
            opfor_pt_t p;
            if (f->shape == OPFOR_SHAPE_LINE) {
                float bd = 1e30f;
                p = me.c;
                for (int k = 0; k + 1 < f->npts; k++) {
                    opfor_pt_t q = opfor_seg_closest(f->pts[k], f->pts[k + 1], me.c);
                    float d = opfor_dist2(q, me.c);
                    if (d < bd) {
                        bd = d;
                        p = q;
                    }
                }
                p = opfor_vadd(p, opfor_vscale(away, 0.5f * f->width + 0.7f));
            } else {
                /* the edge of the area nearest to the unit, stepped 1 in inside */
                opfor_pt_t c = opfor_pt(0.5f * (f->lo.x + f->hi.x), 0.5f * (f->lo.y + f->hi.y));
                p = c;
                float bd = 1e30f;
                for (int k = 0; k < f->npts; k++) {
                    opfor_pt_t q = opfor_seg_closest(f->pts[k], f->pts[(k + 1) % f->npts], me.c);
                    float d = opfor_dist2(q, me.c);
                    if (d < bd) {
                        bd = d;
                        p = q;
                    }
                }
                opfor_vec_t in = opfor_vnorm(opfor_vsub(c, p));
                p = opfor_vadd(p, opfor_vscale(in, 1.0f));
            }
            float d = opfor_dist2(p, me.c);
            if (d < bestd && d > 1.0f && !opfor_vk_query_impassable(vk, p, mounted)) {
                bestd = d;
                best = p;
                found = 1;
            }
        }
        if (found)
            push_extra(x, OPFOR_VK_ADVANCE, u, OPFOR_VK_RS_X_COVER_NEAR, best);
    }
}

/* ---------------------------------------------------------------- hooks */

static int rs_ctx_new(const char *scenario, void **ctx, opfor_diag_t *diag) {
    opfor_vk_rs_ctx_t *c = NULL;
    int rc = opfor_vk_rs_ctx_load(&c, scenario, diag);
    *ctx = c;
    return rc;
}

static void rs_ctx_free(void *ctx) {
    opfor_vk_rs_ctx_free(ctx);
}

static int rs_init(const void *ctx, void *state, uint64_t seed) {
    if (!ctx)
        return OPFOR_EINVAL;
    opfor_vk_rs_state_init(ctx, state, seed);
    return 0;
}

static int rs_current(const void *ctx, const void *state) {
    const opfor_vk_rs_ctx_t *c = ctx;
    const opfor_vk_rs_state_t *s = state;
    int p = opfor_vk_current(c->vk, &s->vk);
    if (p == OPFOR_VK_CHANCE)
        return OPFOR_PLAYER_CHANCE;
    if (p == OPFOR_VK_TERMINAL)
        return OPFOR_PLAYER_TERMINAL;
    return p;
}

static int rs_legal(const void *ctx, const void *state, opfor_action_t *out, int max) {
    const opfor_vk_rs_ctx_t *c = ctx;
    const opfor_vk_rs_state_t *s = state;
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(c->vk, &s->vk, acts, OPFOR_VK_MAX_ACTIONS);
    int k = 0;
    unsigned moves = 0;
    uint64_t keys[OPFOR_VK_MAX_ACTIONS];
    for (int i = 0; i < n && k < max; i++) {
        /* The engine may list one destination twice (an objective that is also the nearest
           cover): keep the first, so no action is listed twice. */
        uint64_t w[3];
        memcpy(w, &acts[i], sizeof w);
        uint64_t key = w[0] * UINT64_C(0x9E3779B97F4A7C15) ^ w[1] * UINT64_C(0xC2B2AE3D27D4EB4F) ^
                       w[2] * UINT64_C(0x165667B19E3779F9);
        int dup = 0;
        for (int j = 0; j < k && !dup; j++)
            dup = keys[j] == key && memcmp(&acts[i], &acts[j], sizeof acts[i]) == 0;
        if (dup)
            continue;
        acts[k] = acts[i];
        keys[k] = key;
        out[k++] = opfor_vk_rs_action_from_engine(&acts[i]);
        if (acts[i].kind <= OPFOR_VK_CRAWL && !(acts[i].flags & OPFOR_VK_AF_FIRE))
            moves |= 1u << acts[i].kind;
    }
    if (s->vk.phase == OPFOR_VK_PH_ACTION && moves && k < max) {
        extra_ctx_t x = {c, out, k, max};
        list_extras(c, &s->vk, moves, &x);
        k = x.n;
    }
    return k;
}

static int rs_apply(const void *ctx, void *state, const opfor_action_t *a) {
    const opfor_vk_rs_ctx_t *c = ctx;
    opfor_vk_rs_state_t *s = state;
    if (!a)
        return OPFOR_EINVAL;
    if ((a->flags & OPFOR_VK_RS_AF_EXTRA) &&
        (a->kind < OPFOR_VK_ADVANCE || a->kind > OPFOR_VK_CRAWL ||
         a->sub < OPFOR_VK_RS_X_FIRE_POS || a->sub > OPFOR_VK_RS_X_COVER_NEAR))
        return OPFOR_EILLEGAL;
    opfor_vk_action_t ea;
    opfor_vk_rs_action_to_engine(a, &ea);
    int decides = opfor_vk_current(c->vk, &s->vk) != OPFOR_VK_CHANCE;
    int rc = opfor_vk_apply(c->vk, &s->vk, &ea, NULL);
    if (rc == 0 && decides)
        s->decisions++;
    return rc;
}

/* A standing in [-1, 1] from a score difference d: d / (|d| + k). */
static double soft(double d, double k) {
    return d / ((d < 0 ? -d : d) + k);
}

static int rs_returns(const void *ctx, const void *state, double *out) {
    const opfor_vk_rs_ctx_t *c = ctx;
    const opfor_vk_rs_state_t *s = state;
    opfor_vk_result_t r;
    opfor_vk_result(c->vk, &s->vk, &r);
    double v;
    if (r.over)
        v = r.winner == 0 ? 1.0 : r.winner == 1 ? -1.0 : 0.0;
    else
        v = soft((double)(r.score[0] - r.score[1]), 3.0);
    out[0] = v;
    out[1] = -v;
    return 0;
}

static int rs_evaluate(const void *ctx, const void *state, double *out) {
    const opfor_vk_rs_ctx_t *c = ctx;
    const opfor_vk_rs_state_t *s = state;
    if (s->vk.phase == OPFOR_VK_PH_OVER)
        return rs_returns(ctx, state, out);
    double v = soft(opfor_vk_evaluate(c->vk, &s->vk, 0), 10.0);
    out[0] = v;
    out[1] = -v;
    return 0;
}

static int rs_resample(const void *ctx, void *state, int observer, opfor_rng_t *rng) {
    const opfor_vk_rs_ctx_t *c = ctx;
    opfor_vk_rs_state_t *s = state;
    (void)observer; /* neither side knows what will be spotted next */
    if (c->mode != OPFOR_MODE_COOP)
        return 0;
    uint64_t seed = ((uint64_t)opfor_rng_u32(rng) << 32) | opfor_rng_u32(rng);
    opfor_rng_seed(&s->patrol_rng, seed, PATROL_STREAM);
    return 0;
}

/* What a side may know: everything on the table, but not what the initiative button will
 * spot next (Patrol Mode, XV.B): the patrol stream is what rs_resample redraws, so a side's
 * view holds a fixed stream in its place. The game master (OPFOR_VIEW_ALL) sees it all. */
static int rs_view(const void *ctx, const void *state, int viewer, void *out) {
    const opfor_vk_rs_ctx_t *c = ctx;
    memcpy(out, state, sizeof(opfor_vk_rs_state_t));
    if (viewer != OPFOR_VIEW_ALL && c->mode == OPFOR_MODE_COOP)
        opfor_rng_seed(&((opfor_vk_rs_state_t *)out)->patrol_rng, 0, PATROL_STREAM);
    return 0;
}

static int rs_reseed(const void *ctx, void *state, uint64_t seed) {
    (void)ctx;
    opfor_vk_rs_state_t *s = state;
    opfor_rng_seed(&s->vk.rng, seed, DICE_STREAM);
    return 0;
}

static int rs_progress(const void *ctx, const void *state, opfor_progress_t *out) {
    (void)ctx;
    const opfor_vk_rs_state_t *s = state;
    out->turn = s->vk.turn;
    out->activation = s->vk.activations;
    return 0;
}

static uint64_t fnv(const void *p, size_t n) {
    return opfor_fnv1a(OPFOR_FNV1A_BASIS_SHORT, p, n);
}

static void put32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Bytes: magic, version, payload size (little-endian u32 each), the state's bytes (the
 * engine's layout is little-endian IEEE on every supported machine), FNV-1a of them (u64). */
static int rs_serialize(const void *ctx, const void *state, void *buf, size_t size, size_t *len) {
    (void)ctx;
    size_t need = 12 + sizeof(opfor_vk_rs_state_t) + 8;
    if (len)
        *len = need;
    if (!buf || size < need)
        return OPFOR_ERANGE;
    unsigned char *p = buf;
    put32(p, SER_MAGIC);
    put32(p + 4, SER_VERSION);
    put32(p + 8, (uint32_t)sizeof(opfor_vk_rs_state_t));
    memcpy(p + 12, state, sizeof(opfor_vk_rs_state_t));
    uint64_t h = fnv(state, sizeof(opfor_vk_rs_state_t));
    put32(p + 12 + sizeof(opfor_vk_rs_state_t), (uint32_t)h);
    put32(p + 16 + sizeof(opfor_vk_rs_state_t), (uint32_t)(h >> 32));
    return 0;
}

static int rs_deserialize(const void *ctx, void *state, const void *buf, size_t len) {
    (void)ctx;
    const unsigned char *p = buf;
    size_t need = 12 + sizeof(opfor_vk_rs_state_t) + 8;
    if (!buf || len != need || get32(p) != SER_MAGIC || get32(p + 4) != SER_VERSION ||
        get32(p + 8) != sizeof(opfor_vk_rs_state_t))
        return OPFOR_EPARSE;
    const unsigned char *body = p + 12;
    uint64_t h = fnv(body, sizeof(opfor_vk_rs_state_t));
    uint64_t got = (uint64_t)get32(body + sizeof(opfor_vk_rs_state_t)) |
                   (uint64_t)get32(body + sizeof(opfor_vk_rs_state_t) + 4) << 32;
    if (h != got)
        return OPFOR_EPARSE;
    opfor_vk_rs_state_t tmp;
    memcpy(&tmp, body, sizeof tmp);
    if (tmp.magic != OPFOR_VK_RS_MAGIC || tmp.vk.nunits > OPFOR_MAX_UNITS ||
        tmp.vk.nfigures > OPFOR_MAX_FIGURES || tmp.vk.phase >= OPFOR_VK_PH_COUNT)
        return OPFOR_EPARSE;
    memcpy(state, &tmp, sizeof tmp);
    return 0;
}

static uint64_t rs_hash(const void *ctx, const void *state) {
    (void)ctx;
    return fnv(state, sizeof(opfor_vk_rs_state_t));
}

static const char *rs_action_str(const void *ctx, const void *state, const opfor_action_t *a,
                                 char *buf, size_t n) {
    const opfor_vk_rs_ctx_t *c = ctx;
    const opfor_vk_rs_state_t *s = state;
    opfor_vk_action_t ea;
    opfor_vk_rs_action_to_engine(a, &ea);
    opfor_vk_action_str(c->vk, &s->vk, &ea, buf, n);
    if (!buf[0])
        snprintf(buf, n, "%s", opfor_vk_kind_name(a->kind));
    return buf;
}

/* Viktoria!'s own daemon methods (opfor_ruleset_t.methods): the initiative button (XV.A). */
static const char *const rs_methods[] = {"initiative", NULL};
static const char *const rs_method_help[] = {
    "presses the initiative button (Viktoria! XV.A; competitive games roll a D6\n"
    "each, V.A): who may act, what was spotted.",
    NULL};
/* Before api_level 5 the press was Patrol Mode's own method. */
static const opfor_method_alias_t rs_method_aliases[] = {{"initiative", "patrol.initiative", 6},
                                                         {NULL, NULL, 0}};

/* The modes of a game (docs/patrol-mode.md): two-sided competitive play and Patrol Mode. */
static const char *const rs_modes[] = {"competitive", "patrol", NULL};

const opfor_ruleset_t opfor_viktoria_ruleset = {
    .name = "viktoria",
    .title = "Viktoria!",
    .max_players = 2,
    .state_size = sizeof(opfor_vk_rs_state_t),
    .max_actions = OPFOR_VK_RS_MAX_ACTIONS,
    .flags = OPFOR_RS_CHANCE | OPFOR_RS_HIDDEN | OPFOR_RS_ZERO_SUM,
    .ctx_new = rs_ctx_new,
    .ctx_free = rs_ctx_free,
    .init = rs_init,
    .current = rs_current,
    .legal = rs_legal,
    .apply = rs_apply,
    .chance_outcomes = NULL,
    .returns = rs_returns,
    .evaluate = rs_evaluate,
    .resample = rs_resample,
    .reseed = rs_reseed,
    .progress = rs_progress,
    .serialize = rs_serialize,
    .deserialize = rs_deserialize,
    .hash = rs_hash,
    .action_str = rs_action_str,
    /* 1: the first saved games; 2: a table's press stops after a turn in which no unit can
     * act (issue 15). The daemon's table game reads logs of both (daemon/vk_game_ops.c). */
    .rules_version = "2",
    .view = rs_view,
    .ai = &opfor_viktoria_ai,
    .calc = &opfor_viktoria_calc_iface,
    .scenario = &opfor_viktoria_scenario_rules,
    .builtin_name = opfor_viktoria_builtin_name,
    .builtin_text = opfor_viktoria_builtin_text,
    .methods = rs_methods,
    .method_help = rs_method_help,
    .method_aliases = rs_method_aliases,
    .modes = rs_modes,
};
