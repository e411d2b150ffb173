/* rulesets/viktoria/engine.c — the Viktoria! rules engine: context, state, the turn's phases,
 * the legal action lists and the dispatch of apply.
 *
 * The sequence of play (V.A) is a small state machine over opfor_vk_state_t.phase; the only
 * place that decides who activates next is vk_next_side (the mode hook). Legal lists are
 * generated from the situation in a fixed order and never allocate (each unit a listing needs
 * is measured once, its living figures copied to compact arrays, and passed down); apply checks
 * the action against the phase and the unit, then hands it to the rules files (engine_move.c,
 * _fire.c, _morale.c, _melee.c, _blast.c, _special.c). See engine_int.h for the design.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "opfor/yamlread.h"
#include "engine_machine_int.h"
#include "opfor/hash.h"

/* ---------------------------------------------------------------- events */

void vk_ev(opfor_vk_events_t *ev, const char *fmt, ...) {
    if (!ev || !ev->buf || ev->size == 0)
        return;
    if (ev->len >= ev->size - 1) {
        ev->truncated = 1;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(ev->buf + ev->len, ev->size - ev->len, fmt, ap);
    va_end(ap);
    if (w < 0)
        return;
    if ((size_t)w >= ev->size - ev->len - 1) {
        ev->len = ev->size - 1;
        ev->buf[ev->len] = 0;
        ev->truncated = 1;
        return;
    }
    ev->len += (size_t)w;
    ev->buf[ev->len++] = '\n';
    ev->buf[ev->len] = 0;
}

/* ---------------------------------------------------------------- geometry helpers */

void vk_unit_geo(const opfor_vk_state_t *st, int u, vk_ugeo_t *g) {
    const opfor_unit_t *un = &st->units[u];
    float sx = 0.0f, sy = 0.0f;
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        sx += st->figures[i].pos.x;
        sy += st->figures[i].pos.y;
        n++;
    }
    g->n = n;
    g->r = 0.0f;
    g->rc = 0.0f;
    if (n == 0) {
        g->c = opfor_pt(0.0f, 0.0f);
        return;
    }
    g->c = opfor_pt(sx / (float)n, sy / (float)n);
    float r2 = 0.0f;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        float d = opfor_dist(g->c, st->figures[i].pos) + vk_radius(&st->figures[i]);
        if (d > r2)
            r2 = d;
    }
    g->r = r2;
}

/* Living figures of the units a caller measures, copied in index order to compact arrays
 * (a pool shared by the units of one listing: each unit's run starts at at[u]). Every scan
 * over them visits the same figures in the same order as a pass over st->figures, so sums,
 * minima and ties come out to the bit as they did. Each run is padded to a multiple of
 * VK_LANES with far-away sentinels (VK_FAR: a squared distance near 1e36, above any best a
 * search starts from), so the nearest-pair scan runs in whole groups the compiler can
 * vectorise. */
#define VK_LANES 4
#define VK_FAR 1e18f
_Static_assert(VK_LANES == 4, "nearest_pair_in's lane minimum is written out for four lanes");
typedef struct vk_lfigs {
    float x[OPFOR_MAX_FIGURES + VK_LANES * OPFOR_MAX_UNITS];
    float y[OPFOR_MAX_FIGURES + VK_LANES * OPFOR_MAX_UNITS];
    float r[OPFOR_MAX_FIGURES + VK_LANES * OPFOR_MAX_UNITS];
    int16_t i[OPFOR_MAX_FIGURES + VK_LANES * OPFOR_MAX_UNITS];
    int n;
    int at[OPFOR_MAX_UNITS];
} vk_lfigs_t;

/* Copies unit u's living figures to the pool and measures it: g as vk_unit_geo gives it (the
 * same centre: the sums run in index order), plus rc, the largest distance from the centre to
 * a living figure's centre. With prof, also u's profile. Inline into the two wrappers below,
 * so the profile's work is compiled only where it is asked for. */
__attribute__((always_inline)) static inline void
measure_impl(const opfor_vk_state_t *st, int u, vk_lfigs_t *lf, vk_ugeo_t *g, vk_uprof_t *prof) {
    const opfor_unit_t *un = &st->units[u];
    int at = lf->n, m = at;
    float sx = 0.0f, sy = 0.0f;
    unsigned fl = 0, wp = 0, sk = 0;
    int wounded = 0, leaders = 0, horse_free = 0, gun = -1;
    for (int i = un->first, e = un->first + un->count; i < e; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!vk_alive(st, i))
            continue;
        lf->x[m] = f->pos.x;
        lf->y[m] = f->pos.y;
        lf->r[m] = vk_radius(f);
        lf->i[m] = (int16_t)i;
        m++;
        sx += f->pos.x;
        sy += f->pos.y;
        if (prof) {
            fl |= f->flags;
            wp |= f->weapons;
            sk |= f->skills;
            wounded += (f->flags & (OPFOR_FIG_EQUIPMENT | OPFOR_FIG_WOUNDED)) == OPFOR_FIG_WOUNDED;
            leaders += (f->skills & OPFOR_S_LEADER) != 0;
            horse_free |= (f->flags & (OPFOR_FIG_HORSE | OPFOR_FIG_MOUNTED)) == OPFOR_FIG_HORSE;
            if (gun < 0 && (f->weapons & OPFOR_W_FIELD_GUN))
                gun = i;
        }
    }
    int n = m - at;
    /* the padding: a whole group of sentinels from m on (those past the padded run are
       overwritten by the next unit's figures, or never read; the pool has room for them, as
       each unit is measured once per pool and runs are padded by less than VK_LANES) */
    for (int k = 0; k < VK_LANES; k++) {
        lf->x[m + k] = VK_FAR;
        lf->y[m + k] = VK_FAR;
    }
    lf->at[u] = at;
    lf->n = at + ((n + VK_LANES - 1) & -VK_LANES);
    if (prof) {
        prof->alive = n;
        prof->flags = fl;
        prof->weapons = wp;
        prof->skills = sk;
        prof->wounded = wounded;
        prof->leaders = leaders;
        prof->horse_free = horse_free;
        prof->gun = gun;
    }
    g->n = n;
    g->c = n ? opfor_pt(sx / (float)n, sy / (float)n) : opfor_pt(0.0f, 0.0f);
    float rc2 = 0.0f, R = 0.0f;
    for (int k = at; k < m; k++) {
        float d2 = opfor_dist2(g->c, opfor_pt(lf->x[k], lf->y[k]));
        float r = lf->r[k];
        if (d2 > rc2)
            rc2 = d2;
        /* radius bound: sqrt only when it may grow */
        float cur = R - r;
        if (cur < 0.0f || d2 > cur * cur) {
            float d = sqrtf(d2) + r;
            if (d > R)
                R = d;
        }
    }
    g->r = R;
    g->rc = sqrtf(rc2);
}
static void measure_unit(const opfor_vk_state_t *st, int u, vk_lfigs_t *lf, vk_ugeo_t *g) {
    measure_impl(st, u, lf, g, NULL);
}
static void measure_self(const opfor_vk_state_t *st, int u, vk_lfigs_t *lf, vk_ugeo_t *g,
                         vk_uprof_t *prof) {
    measure_impl(st, u, lf, g, prof);
}

void vk_unit_profile(const opfor_vk_state_t *st, int u, vk_uprof_t *prof) {
    vk_lfigs_t lf;
    vk_ugeo_t g;
    lf.n = 0;
    measure_self(st, u, &lf, &g, prof);
}

/* The nearest pair between measured units a and b (gb: b's geometry): b's centre and centre
 * radius bound the search, a figure of a farther from b's centre than the best so far plus
 * b's radius cannot improve it. The same pairs in the same order as a loop over the figures
 * (b's sentinels never win): the same answer to the bit (tests/rulesets/test_engine_fast.c). */
static float nearest_pair_in(const vk_lfigs_t *lf, int a, int na, int b, const vk_ugeo_t *gb,
                             int *fa, int *fb) {
    const float *ax = lf->x + lf->at[a], *ay = lf->y + lf->at[a];
    const float *bx = lf->x + lf->at[b], *by = lf->y + lf->at[b];
    int nb = gb->n, nbp = (nb + VK_LANES - 1) & -VK_LANES;
    opfor_pt_t cb = gb->c;
    float rb = gb->rc, best = 1e30f;
    int ka = -1, kb = -1;
    float row[OPFOR_MAX_FIGURES + VK_LANES];
    if (nb > 0)
        for (int i = 0; i < na; i++) {
            opfor_pt_t p = opfor_pt(ax[i], ay[i]);
            if (ka >= 0) {
                float dc = opfor_dist(p, cb);
                if (dc > rb) {
                    float lb = dc - rb;
                    if (lb * lb > best)
                        continue;
                }
            }
            /* the row's squared distances in whole groups and their least, lane by lane
               (exact: a minimum rounds nothing; a NaN never enters it, as it never passes the
               strict comparison of a scan), then the first figure at it: the one a scan in
               order with a strict comparison keeps */
            float mv[VK_LANES] = {3e38f, 3e38f, 3e38f, 3e38f};
            for (int j = 0; j < nbp; j += VK_LANES)
                for (int q = 0; q < VK_LANES; q++) {
                    float dx = p.x - bx[j + q], dy = p.y - by[j + q];
                    float d2 = dx * dx + dy * dy;
                    row[j + q] = d2;
                    mv[q] = d2 < mv[q] ? d2 : mv[q];
                }
            float m0 = mv[1] < mv[0] ? mv[1] : mv[0], m1 = mv[3] < mv[2] ? mv[3] : mv[2];
            float m = m1 < m0 ? m1 : m0;
            int k = -1;
            if (m < best) {
                best = m;
                for (k = 0; row[k] != m; k++)
                    ;
            }
            if (k >= 0) {
                ka = i;
                kb = k;
            }
        }
    if (ka < 0) {
        if (fa)
            *fa = -1;
        if (fb)
            *fb = -1;
        return 1e30f;
    }
    ka += lf->at[a];
    kb += lf->at[b];
    if (fa)
        *fa = lf->i[ka];
    if (fb)
        *fb = lf->i[kb];
    float gap = sqrtf(best) - lf->r[ka] - lf->r[kb];
    return gap < 0.0f ? 0.0f : gap;
}

/* Measures a, then b, into lf (emptied first) and returns their nearest pair (nearest_pair_in);
 * gb gets b's geometry. */
static inline float measure_pair(const opfor_vk_state_t *st, int a, int b, vk_lfigs_t *lf,
                                 vk_ugeo_t *gb, int *fa, int *fb) {
    vk_ugeo_t ga;
    lf->n = 0;
    measure_unit(st, a, lf, &ga);
    measure_unit(st, b, lf, gb);
    return nearest_pair_in(lf, a, ga.n, b, gb, fa, fb);
}

float vk_nearest_pair(const opfor_vk_state_t *st, int a, int b, int *fa, int *fb) {
    vk_lfigs_t lf;
    vk_ugeo_t gb;
    return measure_pair(st, a, b, &lf, &gb, fa, fb);
}

int vk_nearest_fig(const opfor_vk_state_t *st, int u, opfor_pt_t p, float *d2out) {
    const opfor_unit_t *un = &st->units[u];
    float best = 1e30f;
    int bi = -1;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        float d2 = opfor_dist2(st->figures[i].pos, p);
        if (d2 < best) {
            best = d2;
            bi = i;
        }
    }
    if (d2out)
        *d2out = best;
    return bi;
}

/* vk_los, inline for the listing's sight tests. */
static inline int los_figs(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, int g) {
    const opfor_figure_t *a = &st->figures[f], *b = &st->figures[g];
    return vk_terrain_los(ctx, a->pos, vk_radius(a), b->pos, vk_radius(b), NULL);
}

int vk_los(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, int g) {
    return los_figs(ctx, st, f, g);
}

/* vk_unit_sees with the nearest pair (fa, fb) and its gap already known, t measured into lf
 * (nt living figures). */
static int unit_sees_from(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                          const vk_lfigs_t *lf, int nt, int fa, int fb, float gap,
                          float max_range) {
    if (fa < 0 || gap > max_range)
        return 0;
    if (los_figs(ctx, st, fa, fb))
        return 1;
    /* Try the other ends of both units: each figure of u against its nearest of t, for a
       few figures spread through the unit (vk_nearest_fig over t's compact copy). */
    const opfor_unit_t *un = &st->units[u];
    const float *tx = lf->x + lf->at[t], *ty = lf->y + lf->at[t];
    int tries = 0;
    int step = un->count > 4 ? un->count / 4 : 1;
    for (int i = un->first; i < un->first + un->count && tries < 4; i += step) {
        if (!vk_alive(st, i) || i == fa)
            continue;
        opfor_pt_t p = st->figures[i].pos;
        float d2 = 1e30f;
        int k = -1;
        for (int j = 0; j < nt; j++) {
            float e = opfor_dist2(opfor_pt(tx[j], ty[j]), p);
            if (e < d2) {
                d2 = e;
                k = j;
            }
        }
        if (k < 0)
            continue;
        tries++;
        k += lf->at[t];
        float g = sqrtf(d2) - vk_radius(&st->figures[i]) - lf->r[k];
        if (g > max_range)
            continue;
        if (los_figs(ctx, st, i, lf->i[k]))
            return 1;
    }
    return 0;
}

int vk_unit_sees(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                 float max_range) {
    vk_lfigs_t lf;
    vk_ugeo_t gt;
    int fa, fb;
    float gap = measure_pair(st, u, t, &lf, &gt, &fa, &fb);
    return unit_sees_from(ctx, st, u, t, &lf, gt.n, fa, fb, gap, max_range);
}

int opfor_vk_unit_in_play(const opfor_vk_state_t *st, int u) {
    return vk_unit_active(st, u);
}

int opfor_vk_unit_present(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        n += vk_alive(st, i);
    return n;
}

/* A unit that may still take an activation this turn (the cheap flag first). */
static int unit_ready(const opfor_vk_state_t *st, int u) {
    return !(st->units[u].flags & OPFOR_UNIT_ACTED) &&
           (vk_unit_active(st, u) || vk_air_away(st, u)); /* XII.D: may come back */
}

int opfor_vk_side_ready(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int side) {
    (void)ctx;
    for (int u = 0; u < st->nunits; u++)
        if (st->units[u].side == side && unit_ready(st, u))
            return 1;
    return 0;
}

/* opfor_vk_side_ready for both sides in one pass, stopping once both are known. */
static void sides_ready(const opfor_vk_state_t *st, int r[2]) {
    r[0] = r[1] = 0;
    for (int u = 0; u < st->nunits && !(r[0] && r[1]); u++) {
        int s = st->units[u].side;
        if (s < 2 && !r[s] && unit_ready(st, u))
            r[s] = 1;
    }
}

/* ---------------------------------------------------------------- harm */

void vk_harm(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int f, int effect, int melee,
             int by_side, opfor_vk_events_t *ev) {
    (void)ctx;
    opfor_figure_t *fg = &st->figures[f];
    int u = fg->unit;
    if (effect <= 0 || !(fg->flags & OPFOR_FIG_ALIVE))
        return;
    if (effect == 1 && !(fg->flags & OPFOR_FIG_WOUNDED)) {
        fg->flags |= OPFOR_FIG_WOUNDED;
        fg->flags &= (uint16_t)~OPFOR_FIG_BOUND;
        /* Walkers: wounds do nothing singly (a second counts as a kill), but a walker
           checks morale even when only wounded (XII.E). */
        if (st->units[u].type == OPFOR_UT_WALKER && (fg->flags & OPFOR_FIG_EQUIPMENT))
            st->ux[u].casualties++;
        return;
    }
    if (st->units[u].type == OPFOR_UT_WALKER && (fg->flags & OPFOR_FIG_EQUIPMENT)) {
        /* A kill makes the walker hesitate for a turn instead (XII.E): its next activation is
           spent recovering, this turn's when it has not acted yet, else the next turn's. */
        int later = (st->units[u].flags & OPFOR_UNIT_ACTED) || st->cur == u;
        fg->flags &= (uint16_t)~OPFOR_FIG_WOUNDED;
        st->ux[u].hesitate = (uint8_t)(st->turn + later);
        st->ux[u].casualties++;
        VK_EV(ev, "  %s is staggered and must recover %s", st->units[u].name,
              later ? "next turn" : "this turn");
        return;
    }
    fg->flags &= (uint16_t) ~(OPFOR_FIG_ALIVE | OPFOR_FIG_MESMERIZED);
    st->figx[f] &= (uint8_t)~OPFOR_VK_FX_CONTROLLED;
    st->ux[u].casualties++;
    /* Colours (XI): picked up by a nearby friend after fire, captured in melee. */
    if (fg->skills & OPFOR_S_COLOURS) {
        fg->skills &= (uint16_t)~OPFOR_S_COLOURS;
        if (melee) {
            if (by_side >= 0 && by_side < 2)
                st->colours_taken[by_side]++;
            VK_EV(ev, "  the colours of %s are captured!", st->units[u].name);
        } else {
            int best = -1;
            float bd = 1e30f;
            for (int i = 0; i < st->nfigures; i++) {
                if (!vk_alive(st, i) || st->units[st->figures[i].unit].side != st->units[u].side ||
                    !vk_is_person(&st->figures[i]) || st->ux[st->figures[i].unit].removed)
                    continue;
                float d = opfor_dist2(st->figures[i].pos, fg->pos);
                /* own unit first */
                if (st->figures[i].unit == u)
                    d *= 0.25f;
                if (d < bd) {
                    bd = d;
                    best = i;
                }
            }
            if (best >= 0 && bd <= 36.0f) {
                st->figures[best].skills |= OPFOR_S_COLOURS;
                VK_EV(ev, "  the colours of %s are picked up", st->units[u].name);
            }
        }
    }
}

/* ---------------------------------------------------------------- context */

int opfor_vk_ctx_init(opfor_vk_ctx_t **out, const opfor_scenario_t *sc,
                      const opfor_viktoria_model_t *m, const opfor_vk_options_t *options,
                      opfor_diag_t *diag) {
    if (!out || !sc || !m)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no context, scenario or model");
    *out = NULL;
    if (sc->nunits <= 0 || sc->nunits > OPFOR_MAX_UNITS || sc->nfigures <= 0 ||
        sc->nfigures > OPFOR_MAX_FIGURES)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "scenario has %d units and %d figures",
                              sc->nunits, sc->nfigures);
    for (int u = 0; u < sc->nunits; u++) {
        const opfor_unit_t *un = &sc->units[u];
        if (un->side > 1 || un->first + un->count > sc->nfigures || un->count == 0)
            return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "unit %d (%s) has bad figures or side",
                                  u, un->name);
        for (int i = un->first; i < un->first + un->count; i++)
            if (sc->figures[i].unit != u || sc->figures[i].quality >= OPFOR_Q_COUNT)
                return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0,
                                      "figure %d does not belong to unit %d (%s)", i, u, un->name);
    }
    int team[2]; /* the support team (IX), from the scenario's support block */
    int trc = opfor_viktoria_support_team(sc, team, diag);
    if (trc)
        return trc;
    opfor_vk_ctx_t *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "no memory for the context");
    memcpy(&ctx->sc, sc, sizeof *sc);
    ctx->support_team[0] = (uint8_t)team[0];
    ctx->support_team[1] = (uint8_t)team[1];
    memset(ctx->sc.blocks, 0, sizeof ctx->sc.blocks);
    ctx->sc.doc = NULL;
    memcpy(&ctx->model, m, sizeof *m);
    if (options)
        ctx->opt = *options;
    if (sc->rules == &opfor_viktoria_scenario_rules) {
        /* a scenario read as Viktoria!'s: the optional rules its `rules:` block names (checked
           when it loaded; read here so that every road into the engine plays them) */
        opfor_yaml_rd_t rd = {diag, 0, 1};
        if (opfor_vk_scenario_options(&rd, sc, &ctx->opt)) {
            free(ctx);
            return rd.err;
        }
    }
    ctx->turn_limit = ctx->opt.turn_limit > 0 ? ctx->opt.turn_limit
                      : sc->turn_limit > 0    ? sc->turn_limit
                                              : 12;
    for (int s = 0; s < 2; s++) {
        /* Home direction: toward the side's edge, else away from the enemy's. */
        int e = sc->sides[s].edge;
        if (e < 0 || e >= OPFOR_EDGE_COUNT) {
            int oe = sc->sides[1 - s].edge;
            if (oe >= 0 && oe < OPFOR_EDGE_COUNT)
                ctx->home[s] = opfor_edge_inward((opfor_edge_t)oe);
            else
                ctx->home[s] = opfor_pt(0.0f, s == 0 ? -1.0f : 1.0f);
        } else {
            ctx->home[s] = opfor_vscale(opfor_edge_inward((opfor_edge_t)e), -1.0f);
        }
    }
    for (int i = 0; i < sc->table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &sc->table.features[i];
        if (f->move != OPFOR_MOVE_OPEN)
            ctx->move_feat[ctx->nmove_feat++] = (uint8_t)i;
        if (f->move == OPFOR_MOVE_IMPASSABLE || (f->flags & OPFOR_TF_NO_MOUNTED))
            ctx->block_feat[ctx->nblock_feat++] = (uint8_t)i;
    }
    /* Without the XII options the machine code can only matter through a scenario unit's
       machine keys (passengers aboard, payload): otherwise every hook is a no-op. */
    static const opfor_unit_machine_t no_machine;
    ctx->machines = ctx->opt.specials != 0;
    for (int u = 0; u < sc->nunits && !ctx->machines; u++)
        ctx->machines = memcmp(&sc->machine[u], &no_machine, sizeof no_machine) != 0;
    opfor_tgrid_build(&ctx->grid, &ctx->sc.table);
    /* With few features the bounding-box loops of core/terrain.c beat walking the grid's
       cells; measured (docs/BENCHMARKS.md): the short move and cover tests pay from about a
       dozen features, long sight lines only on very busy tables. */
    ctx->grid_move = sc->table.nfeatures >= VK_GRID_MOVE_MIN;
    ctx->grid_los = sc->table.nfeatures >= VK_GRID_LOS_MIN;
    int rc = vk_tabs_build(ctx, diag);
    if (rc) {
        free(ctx);
        return rc;
    }
    *out = ctx;
    return 0;
}

void opfor_vk_ctx_free(opfor_vk_ctx_t *ctx) {
    if (!ctx)
        return;
    free(ctx->tab);
    free(ctx);
}

const opfor_scenario_t *opfor_vk_ctx_scenario(const opfor_vk_ctx_t *ctx) {
    return &ctx->sc;
}

int opfor_vk_ctx_turn_limit(const opfor_vk_ctx_t *ctx) {
    return ctx->turn_limit;
}

/* ---------------------------------------------------------------- state */

void opfor_vk_weather_start(const opfor_scenario_t *sc, opfor_rng_t *rng, int *level, int *wind) {
    int lv = sc->weather.level;
    if (lv == 0) /* XIII: a die less two, never below 1 */
        lv = (int)opfor_rng_below(rng, 6) + 1 - 2;
    *level = lv < 1 ? 1 : lv > 5 ? 5 : lv;
    *wind = sc->weather.wind_random ? (int)opfor_rng_below(rng, 8) : (int)(sc->weather.wind & 7);
}

void opfor_vk_state_init(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, uint64_t seed) {
    memset(st, 0, sizeof *st);
    opfor_rng_seed(&st->rng, seed, 0x566b5f656e67696eULL); /* "Vk_engin" stream */
    st->phase = OPFOR_VK_PH_START_TURN;
    st->cur = OPFOR_VK_NONE;
    st->winner = -2;
    st->nunits = (uint8_t)ctx->sc.nunits;
    st->nfigures = (uint16_t)ctx->sc.nfigures;
    int lv, wind;
    opfor_vk_weather_start(&ctx->sc, &st->rng, &lv, &wind);
    st->level = (uint8_t)lv;
    st->wind = (uint8_t)wind;
    /* Copy units and figures field by field into the zeroed arrays (no padding bytes from the
       scenario reach the state, so hashes depend on values only). */
    for (int u = 0; u < ctx->sc.nunits; u++) {
        const opfor_unit_t *s = &ctx->sc.units[u];
        opfor_unit_t *d = &st->units[u];
        memcpy(d->name, s->name, sizeof d->name);
        d->name[OPFOR_UNIT_NAME_MAX - 1] = 0;
        d->facing = s->facing;
        d->first = s->first;
        d->count = s->count;
        d->strength = s->strength ? s->strength : s->count;
        d->flags = (uint16_t)(s->flags & ~OPFOR_UNIT_ACTED);
        d->side = s->side;
        d->type = s->type;
        d->status = s->status;
        d->quality = s->quality;
        d->formation = s->formation;
        /* Guns start loaded; MGs ready (IX). */
        d->flags |= OPFOR_UNIT_LOADED;
    }
    for (int i = 0; i < ctx->sc.nfigures; i++) {
        const opfor_figure_t *s = &ctx->sc.figures[i];
        opfor_figure_t *d = &st->figures[i];
        d->pos = s->pos;
        d->unit = s->unit;
        d->quality = s->quality;
        d->weapons = s->weapons;
        d->skills = s->skills;
        d->flags = (uint16_t)(s->flags & ~(OPFOR_FIG_ACTED | OPFOR_FIG_MOVED | OPFOR_FIG_RUNNING));
    }
    for (int s = 0; s < 2; s++)
        st->reg[s].point = opfor_pt(-1.0f, -1.0f);
    vk_machines_init(ctx, st); /* XII.C-D: passengers aboard, aeroplanes aloft */
}

/* ---------------------------------------------------------------- ending */

/* Units of each side still in the fight (generals apart), in one pass; with any_only, stops
 * once both sides have one (only whether each count is zero is then right). */
static void side_units(const opfor_vk_state_t *st, int n[2], int any_only) {
    n[0] = n[1] = 0;
    for (int u = 0; u < st->nunits && !(any_only && n[0] && n[1]); u++)
        if (!(st->units[u].flags & OPFOR_UNIT_GENERAL) &&
            !(any_only && n[st->units[u].side & 1]) && /* that side is known to have one */
            (vk_unit_active(st, u) || vk_air_away(st, u)))
            n[st->units[u].side & 1]++;
}

/* Score (XIV, XV.B guidance): objectives held, enemy units destroyed, colours taken. */
static void scores(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int out[2]) {
    out[0] = out[1] = 0;
    for (int o = 0; o < ctx->sc.nobjectives; o++) {
        const opfor_objective_t *ob = &ctx->sc.objectives[o];
        int held[2] = {0, 0};
        float r2 = ob->radius * ob->radius;
        for (int i = 0; i < st->nfigures; i++) {
            if (!vk_alive(st, i) || !vk_is_person(&st->figures[i]) ||
                !vk_unit_active(st, st->figures[i].unit))
                continue;
            if (opfor_dist2(st->figures[i].pos, ob->pos) <= r2)
                held[st->units[st->figures[i].unit].side] = 1;
        }
        if (held[0] && !held[1])
            out[0] += ob->points;
        else if (held[1] && !held[0])
            out[1] += ob->points;
    }
    for (int u = 0; u < st->nunits; u++) {
        if (st->units[u].flags & OPFOR_UNIT_GENERAL)
            continue;
        int merged_away = st->units[u].count == 0;
        if (!vk_unit_active(st, u) && !merged_away && !vk_air_away(st, u))
            out[1 - st->units[u].side] += 1;
    }
    out[0] += st->colours_taken[0];
    out[1] += st->colours_taken[1];
}

/* Ends the game when a side has no units left or the turn limit has passed. Returns 1 when
 * over. */
static int check_end(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int turn_over,
                     opfor_vk_events_t *ev) {
    int n[2]; /* only whether each is zero matters */
    side_units(st, n, 1);
    int n0 = n[0], n1 = n[1];
    int over = 0, winner = -2;
    /* A side that may still gain units (a mode's reinforcements) has not lost yet. */
    if (ctx->opt.reinforce) {
        if (n0 == 0 && ctx->opt.reinforce(ctx, st, 0, ctx->opt.initiative_user))
            n0 = -1;
        if (n1 == 0 && ctx->opt.reinforce(ctx, st, 1, ctx->opt.initiative_user))
            n1 = -1;
    }
    if (n0 == 0 || n1 == 0) {
        over = 1;
        winner = n0 == 0 && n1 == 0 ? -1 : n0 == 0 ? 1 : 0;
    } else if (turn_over && st->turn >= ctx->turn_limit) {
        over = 1;
    }
    if (!over)
        return 0;
    int sc[2];
    scores(ctx, st, sc);
    st->score[0] = (int16_t)sc[0];
    st->score[1] = (int16_t)sc[1];
    if (winner == -2) {
        if (sc[0] != sc[1])
            winner = sc[0] > sc[1] ? 0 : 1;
        else {
            int k0 = 0, k1 = 0;
            for (int i = 0; i < st->nfigures; i++)
                if (!(st->figures[i].flags & OPFOR_FIG_ALIVE)) {
                    if (st->units[st->figures[i].unit].side == 0)
                        k1++;
                    else
                        k0++;
                }
            winner = k0 > k1 ? 0 : k1 > k0 ? 1 : -1;
        }
    }
    st->winner = (int8_t)winner;
    st->phase = OPFOR_VK_PH_OVER;
    st->cur = OPFOR_VK_NONE;
    VK_EV(ev, "Game over after turn %d: %s (score %d-%d)", st->turn,
          winner == -1  ? "a draw"
          : winner == 0 ? ctx->sc.sides[0].name
                        : ctx->sc.sides[1].name,
          sc[0], sc[1]);
    return 1;
}

int opfor_vk_is_terminal(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    (void)ctx;
    return st->phase == OPFOR_VK_PH_OVER;
}

void opfor_vk_result(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_result_t *r) {
    memset(r, 0, sizeof *r);
    r->over = st->phase == OPFOR_VK_PH_OVER;
    r->winner = r->over ? st->winner : -2;
    if (r->over) {
        r->score[0] = st->score[0];
        r->score[1] = st->score[1];
    } else {
        scores(ctx, st, r->score);
    }
    for (int i = 0; i < st->nfigures; i++) {
        int s = st->units[st->figures[i].unit].side;
        if (!(st->figures[i].flags & OPFOR_FIG_ALIVE))
            r->killed[s]++;
        else if (vk_alive(st, i) && vk_unit_active(st, st->figures[i].unit))
            r->alive[s]++;
    }
    side_units(st, r->units, 0);
    r->turn = st->turn;
}

/* ---------------------------------------------------------------- sequencing */

/* The mode hook (V.A, XV): who selects the next unit. -1 ends the turn. */
static int vk_next_side(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    int r[2];
    sides_ready(st, r);
    int r0 = r[0], r1 = r[1];
    if (!r0 && !r1)
        return -1;
    if (ctx->opt.initiative) {
        int s = ctx->opt.initiative(ctx, st, ctx->opt.initiative_user);
        /* The hook may have brought units on (Patrol Mode's spottings act at once, XV.B): ask
           again who can act. A mode may only hand the initiative to a side that can use it. */
        r0 = opfor_vk_side_ready(ctx, st, 0);
        r1 = opfor_vk_side_ready(ctx, st, 1);
        if (s == 0 && !r0)
            s = r1 ? 1 : -1;
        else if (s == 1 && !r1)
            s = r0 ? 0 : -1;
        return s;
    }
    if (ctx->opt.seq == OPFOR_VK_SEQ_SIDE_BY_SIDE ||
        ctx->opt.seq == OPFOR_VK_SEQ_SIDE_BY_SIDE_FIXED) {
        int first = st->seq_side;
        return (first == 0 ? r0 : r1) ? first : 1 - first;
    }
    if (!r0 || !r1)
        return r0 ? 0 : 1; /* only one side has units left to move: no roll needed */
    for (;;) {
        int a = vk_d6(st), b = vk_d6(st);
        st->init_die[0] = (uint8_t)a;
        st->init_die[1] = (uint8_t)b;
        if (a != b) {
            VK_EV(ev, "Initiative: %s %d, %s %d", ctx->sc.sides[0].name, a, ctx->sc.sides[1].name,
                  b);
            return a > b ? 0 : 1;
        }
    }
}

static void start_turn(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    st->turn++;
    VK_EV(ev, "Turn %d", st->turn);
    for (int u = 0; u < st->nunits; u++) {
        st->units[u].flags &= (uint16_t)~OPFOR_UNIT_ACTED;
        st->ux[u].flags &= (uint8_t) ~(OPFOR_VK_UX_FOUGHT | OPFOR_VK_UX_FLED);
    }
    for (int i = 0; i < st->nfigures; i++) {
        st->figures[i].flags &= (uint16_t)~OPFOR_FIG_ACTED;
        st->figx[i] &= (uint8_t) ~(OPFOR_VK_FX_PLAYING | OPFOR_VK_FX_RELAY | OPFOR_VK_FX_ATTACKED);
    }
    if (ctx->opt.weather_events)
        vk_weather_event(ctx, st, ev);
    if (ctx->opt.specials)
        vk_specials_turn(ctx, st, ev);
    /* side by side (V.A): a roll every turn, or one for the whole game (fixed) */
    if ((ctx->opt.seq == OPFOR_VK_SEQ_SIDE_BY_SIDE ||
         (ctx->opt.seq == OPFOR_VK_SEQ_SIDE_BY_SIDE_FIXED && st->turn == 1)) &&
        !ctx->opt.initiative) {
        int a, b;
        do {
            a = vk_d6(st);
            b = vk_d6(st);
        } while (a == b);
        st->seq_side = (uint8_t)(a > b ? 0 : 1);
        VK_EV(ev, "Initiative for the turn: %s", ctx->sc.sides[st->seq_side].name);
    }
    st->phase = OPFOR_VK_PH_INITIATIVE;
}

/* Ends the current activation: morale, promotions, melee links, game end, next phase. */
static void end_activation(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    if (ctx->machines)
        vk_machines_settle(ctx, st, ev); /* XII.C-D: passengers ride along, aeroplanes fly */
    vk_morale_after(ctx, st, ev);
    for (int u = 0; u < st->nunits; u++) {
        st->ux[u].flags &= (uint8_t)~OPFOR_VK_UX_CHARGED;
        /* vk_unit_active apart from its living-person scan: vk_promote looks for a living
           leader first and promotes only a living person, so it does nothing without one */
        if (st->ux[u].removed || (st->units[u].flags & OPFOR_UNIT_OFF_TABLE))
            continue;
        /* vk_promote returns at once when a living leader is left; the first figure usually
           is one */
        int f0 = st->units[u].first;
        if (st->units[u].count && (st->figures[f0].skills & OPFOR_S_LEADER) && vk_alive(st, f0) &&
            vk_is_person(&st->figures[f0]))
            continue;
        vk_promote(st, u, ev);
    }
    vk_melee_refresh(st);
    st->cur = OPFOR_VK_NONE;
    st->restricted = 0;
    st->charge.active = 0;
    if (check_end(ctx, st, 0, ev))
        return;
    st->phase = OPFOR_VK_PH_INITIATIVE;
}

/* After an action: go on to control of mesmerised figures, or end the activation. */
static void after_action(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    int u = st->cur;
    if (u != OPFOR_VK_NONE && vk_unit_active(st, u)) {
        const opfor_unit_t *un = &st->units[u];
        for (int i = un->first; i < un->first + un->count; i++)
            if (vk_alive(st, i) && (st->figx[i] & OPFOR_VK_FX_CONTROLLED)) {
                vk_morale_after(ctx, st, ev);
                if (!vk_unit_active(st, u))
                    break;
                st->phase = OPFOR_VK_PH_CONTROL;
                st->side = (uint8_t)(1 - un->side);
                st->charge.control = (uint8_t)(i - un->first);
                return;
            }
    }
    end_activation(ctx, st, ev);
}

/* ---------------------------------------------------------------- what a unit may do */

enum {
    K_MOVE = 1u << 0,  /* advance, run */
    K_CRAWL = 1u << 1, /* crawl / take cover */
    K_FIRE = 1u << 2,  /* fire, MG, artillery, support, bombs */
    K_CHARGE = 1u << 3,
    K_STAND = 1u << 4, /* stand, load */
    K_RALLY = 1u << 5,
    K_FIGHT = 1u << 6,
    K_OTHER = 1u << 7, /* heal (any), mesmerise, limber, mount, split, merge, rear */
    K_HEAL = 1u << 8,  /* heal within 6 in */
    K_TOREAR = 1u << 9,
};

static unsigned allowed_kinds(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    /* Locked in melee: fight it out; a Wavering unit may instead Move (off, advancing or
       running: XI allows it Move or Rally whatever it is doing) or Rally. */
    if (vk_in_melee(st, u))
        return K_FIGHT | (un->status == OPFOR_WAVERING ? K_RALLY | K_MOVE : 0u);
    if (st->ux[u].hesitate && st->ux[u].hesitate == (uint8_t)st->turn)
        return K_STAND; /* a staggered walker recovers, this one activation (XII.E) */
    if (un->status == OPFOR_WAVERING)
        return K_RALLY | (st->restricted ? K_CRAWL : K_MOVE | K_CRAWL); /* XI */
    if (st->restricted) /* VII: take cover, fire, bombs, stand/load, medics within 6 in */
        return K_CRAWL | K_FIRE | K_STAND | K_HEAL;
    return K_MOVE | K_CRAWL | K_FIRE | K_CHARGE | K_STAND | K_OTHER | K_HEAL | K_TOREAR;
}

static unsigned kind_class(int kind) {
    switch (kind) {
    case OPFOR_VK_STAND:
    case OPFOR_VK_LOAD:
        return K_STAND;
    case OPFOR_VK_RALLY:
        return K_RALLY;
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_RUN:
        return K_MOVE;
    case OPFOR_VK_CRAWL:
        return K_CRAWL;
    case OPFOR_VK_CHARGE:
        return K_CHARGE;
    case OPFOR_VK_FIRE:
    case OPFOR_VK_FIRE_MG:
    case OPFOR_VK_FIRE_ARTILLERY:
    case OPFOR_VK_CALL_SUPPORT:
    case OPFOR_VK_THROW_BOMB:
        return K_FIRE;
    case OPFOR_VK_FIGHT:
        return K_FIGHT;
    case OPFOR_VK_HEAL:
        return K_HEAL;
    case OPFOR_VK_TO_REAR:
        return K_TOREAR;
    default:
        return K_OTHER;
    }
}

/* A unit that limbers its field gun to move (VIII); a walker under the XII options carries
 * its guns and walks (XII.E). */
static int gun_unit_f(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int gunf) {
    if (ctx->opt.specials && st->units[u].type == OPFOR_UT_WALKER)
        return 0;
    return gunf >= 0;
}
/* gun_unit_f with u's gun figure looked up (gunf: vk_gun_figure, when already known). */
static int gun_unit(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return gun_unit_f(ctx, st, u, vk_gun_figure(st, u));
}

static int can_move(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    if (gun_unit(ctx, st, u) && !(st->units[u].flags & OPFOR_UNIT_LIMBERED))
        return 0;
    return 1;
}

/* Whether unit u may Load (VI): it has a machinegun (has_mg) or a gun figure (gunf >= 0, as
 * vk_gun_figure) that is not limbered (VIII: limbered guns can neither fire nor load), is not
 * loaded already, and has crew to do it. */
static int can_load(const opfor_vk_state_t *st, int u, int has_mg, int gunf) {
    const opfor_unit_t *un = &st->units[u];
    return (has_mg || (gunf >= 0 && !(un->flags & OPFOR_UNIT_LIMBERED))) &&
           !(un->flags & OPFOR_UNIT_LOADED) && vk_crew(st, u, NULL) > 0;
}

/* ---------------------------------------------------------------- legal lists */

typedef struct lister {
    opfor_vk_action_t *out;
    int n, max;
    uint32_t want; /* groups to list (bit per opfor_vk_group); all bits: the full list */
} lister_t;

#define G(g) (1u << (g))
#define G_ALL 0xFFFFFFFFu
_Static_assert(OPFOR_VK_GROUP_COUNT <= 32, "groups fit a 32-bit mask");

/* Appends an action of group g (a kind, or OPFOR_VK_GROUP_MOVING_FIRE) when the lister
 * wants that group and has room; NULL otherwise. */
static opfor_vk_action_t *push_g(lister_t *l, int g, int kind, int unit) {
    if (!(l->want & G(g)) || l->n >= l->max)
        return NULL;
    opfor_vk_action_t *a = &l->out[l->n++];
    *a = (opfor_vk_action_t){.kind = (uint8_t)kind,
                             .unit = (uint8_t)unit,
                             .target = OPFOR_VK_NONE,
                             .figure = OPFOR_VK_NO_FIGURE};
    return a;
}

static opfor_vk_action_t *push(lister_t *l, int kind, int unit) {
    return push_g(l, kind, kind, unit);
}

/* push (kind, unit) once per destination dests[i], i < nd, each with flags and via (the same
 * actions as a loop of push, setting dest, flags and via of each that fits): one test of the
 * lister, then whole actions copied from a template. */
static void push_dests(lister_t *l, int kind, int unit, const opfor_pt_t *dests, int nd,
                       unsigned flags, const opfor_pt_t *via) {
    if (!(l->want & G(kind)))
        return;
    int room = l->max - l->n, n = nd < room ? nd : room;
    opfor_vk_action_t t = {.kind = (uint8_t)kind,
                           .unit = (uint8_t)unit,
                           .target = OPFOR_VK_NONE,
                           .figure = OPFOR_VK_NO_FIGURE,
                           .flags = (uint16_t)flags};
    /* the first eight bytes (kind .. flags) as one word, stored whole */
    _Static_assert(offsetof(opfor_vk_action_t, dest) == 8, "dest follows eight bytes of fields");
    uint64_t head;
    memcpy(&head, &t, sizeof head);
    opfor_vk_action_t *a = &l->out[l->n];
    for (int i = 0; i < n; i++) {
        memcpy(&a[i], &head, sizeof head);
        a[i].dest = dests[i];
        a[i].via = via ? via[i] : opfor_pt(0.0f, 0.0f);
    }
    if (n > 0)
        l->n += n;
}

/* Enemy units by distance (nearest first), at most max; returns count. Each carries its
 * geometry, the exact base-to-base gap of the nearest pair and (lazily) visibility. */
typedef struct enemy {
    int u;
    int fa, fb;    /* the nearest pair: our figure, theirs */
    float gap;     /* nearest pair, base to base */
    int vis;       /* -1 not yet known, 0 hidden, 1 some figure sees some figure */
    vk_ugeo_t geo; /* its centre and radius */
} enemy_t;

/* push (kind, unit) aimed at enemy e: its centre and its unit. */
static inline opfor_vk_action_t *push_at(lister_t *l, int kind, int unit, const enemy_t *e) {
    opfor_vk_action_t *x = push(l, kind, unit);
    if (x) {
        x->dest = e->geo.c;
        x->target = (uint8_t)e->u;
    }
    return x;
}

/* Enemy units of u by distance (nearest first), at most max; returns the count. u must be
 * measured into lf and geo[u]; every enemy t on the table is measured here (units are measured
 * only when needed). */
static int enemies_by_distance(const opfor_vk_state_t *st, int u, vk_lfigs_t *lf, vk_ugeo_t *geo,
                               enemy_t *out, int max) {
    int side = st->units[u].side;
    /* order by a lower bound of the gap (centre distance less both radii), keep 2 * max */
    int cand[OPFOR_MAX_UNITS];
    float lb[OPFOR_MAX_UNITS];
    int nc = 0;
    for (int t = 0; t < st->nunits; t++) {
        if (st->units[t].side == side || st->ux[t].removed ||
            (st->units[t].flags & OPFOR_UNIT_OFF_TABLE))
            continue;
        measure_unit(st, t, lf, &geo[t]); /* enemies only: friends are not needed here */
        if (geo[t].n == 0)
            continue;
        float d = opfor_dist(geo[u].c, geo[t].c) - geo[u].r - geo[t].r;
        int k = nc++;
        while (k > 0 && lb[k - 1] > d) {
            lb[k] = lb[k - 1];
            cand[k] = cand[k - 1];
            k--;
        }
        lb[k] = d;
        cand[k] = t;
    }
    int keep = nc < 2 * max ? nc : 2 * max;
    int n = 0;
    for (int i = 0; i < keep; i++) {
        int t = cand[i];
        int fa, fb;
        float gap = nearest_pair_in(lf, u, geo[u].n, t, &geo[t], &fa, &fb);
        int k = n < max ? n++ : max;
        if (k == max && (max == 0 || gap >= out[max - 1].gap))
            continue;
        if (k == max)
            k = max - 1;
        while (k > 0 && out[k - 1].gap > gap) {
            out[k] = out[k - 1];
            k--;
        }
        out[k].u = t;
        out[k].fa = fa;
        out[k].fb = fb;
        out[k].gap = gap;
        out[k].vis = -1;
        out[k].geo = geo[t];
    }
    return n;
}

static int enemy_visible(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                         const vk_lfigs_t *lf, enemy_t *e) {
    if (e->vis < 0)
        e->vis = unit_sees_from(ctx, st, u, e->u, lf, e->geo.n, e->fa, e->fb, e->gap, 1e9f);
    return e->vis;
}

static opfor_pt_t clamp_table(const opfor_vk_ctx_t *ctx, opfor_pt_t p) {
    float w = ctx->sc.table.width, d = ctx->sc.table.depth;
    if (p.x < 1.0f)
        p.x = 1.0f;
    if (p.y < 1.0f)
        p.y = 1.0f;
    if (p.x > w - 1.0f)
        p.x = w - 1.0f;
    if (p.y > d - 1.0f)
        p.y = d - 1.0f;
    return p;
}

/* Cover near p (the centre of an area feature giving cover, or a spot just behind a wall or
 * hedge): the nearest within 14 in that a unit (riders when mounted) may enter, in *out14
 * (*found14), and the nearest within 6 in for anyone, in *out6 (*found6). One pass over the
 * features for both. */
static void nearest_cover2(const opfor_vk_ctx_t *ctx, opfor_pt_t p, int mounted, int *found14,
                           opfor_pt_t *out14, int *found6, opfor_pt_t *out6) {
    float best14 = 14.0f * 14.0f, best6 = 6.0f * 6.0f;
    *found14 = *found6 = 0;
    for (int i = 0; i < ctx->sc.table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[i];
        if (f->cover == OPFOR_COVER_NONE || f->move == OPFOR_MOVE_IMPASSABLE)
            continue;
        opfor_pt_t c;
        if (f->shape == OPFOR_SHAPE_AREA)
            c = opfor_pt(0.5f * (f->lo.x + f->hi.x), 0.5f * (f->lo.y + f->hi.y));
        else {
            /* A line whose box (which holds its points) is more than its spot's offset and 15
               in from p on an axis offers a spot more than 14 in away (an inch to spare for
               rounding): neither best can take it. */
            float off = 0.5f * f->width + 0.7f + 15.0f;
            if (f->lo.x - p.x > off || p.x - f->hi.x > off || f->lo.y - p.y > off ||
                p.y - f->hi.y > off)
                continue;
            /* just behind the line (wall, hedge), on the side of p */
            float bestd = 1e30f;
            c = p;
            for (int k = 0; k + 1 < f->npts; k++) {
                opfor_pt_t q = opfor_seg_closest(f->pts[k], f->pts[k + 1], p);
                float d = opfor_dist2(q, p);
                if (d < bestd) {
                    bestd = d;
                    c = q;
                }
            }
            opfor_vec_t back = opfor_vnorm(opfor_vsub(p, c));
            c = opfor_vadd(c, opfor_vscale(back, 0.5f * f->width + 0.7f));
        }
        float d = opfor_dist2(c, p);
        if (d < best14 && !(mounted && (f->flags & OPFOR_TF_NO_MOUNTED))) {
            best14 = d;
            *out14 = c;
            *found14 = 1;
        }
        if (d < best6) {
            best6 = d;
            *out6 = c;
            *found6 = 1;
        }
    }
}

/* Whether unit t has some living persons wounded and some not (*wounded), some leaders or
 * generals and some not (*leader): the targets of aimed fire (IX), in one pass over its living
 * figures as measured into lf (nt of them). */
static void aim_targets(const opfor_vk_state_t *st, const vk_lfigs_t *lf, int t, int nt,
                        int *wounded, int *leader) {
    int w = 0, l = 0, n = 0;
    for (int k = lf->at[t], e = k + nt; k < e; k++) {
        const opfor_figure_t *f = &st->figures[lf->i[k]];
        if (vk_is_person(f)) {
            n++;
            w += (f->flags & OPFOR_FIG_WOUNDED) != 0;
            l += (f->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)) != 0;
        }
    }
    *wounded = w > 0 && w < n;
    *leader = l > 0 && l < n;
}

/* The skills that make a figure worth naming as the target of fire (IX: players choose each
 * firer's target), most wanted first: the mesmerist, the signaller, the sharpshooter, the
 * medic, the colours, the musician. Leaders have their own aim (OPFOR_VK_AF_AIM_GENERAL). */
static const uint16_t KEY_SKILLS[] = {OPFOR_S_MESMERIST, OPFOR_S_SIGNALLER, OPFOR_S_SHARPSHOOTER,
                                      OPFOR_S_MEDIC,     OPFOR_S_COLOURS,   OPFOR_S_MUSICIAN};
#define KEY_SKILL_MASK                                                                             \
    (OPFOR_S_MESMERIST | OPFOR_S_SIGNALLER | OPFOR_S_SHARPSHOOTER | OPFOR_S_MEDIC |                \
     OPFOR_S_COLOURS | OPFOR_S_MUSICIAN)

/* The figure of unit t (its nt living figures in lf) the list offers to fire at by name: of
 * the first skill of KEY_SKILLS that some but not all of t's people hold, the first holder in
 * index order that is no leader and may be named (vk_fire_figure_ok). -1: none. */
static int key_figure(const opfor_vk_state_t *st, const vk_lfigs_t *lf, int t, int nt) {
    unsigned any = 0, all = ~0u;
    for (int k = lf->at[t], e = k + nt; k < e; k++) {
        const opfor_figure_t *f = &st->figures[lf->i[k]];
        if (vk_is_person(f)) {
            any |= f->skills;
            all &= f->skills;
        }
    }
    if (!(any & KEY_SKILL_MASK & ~all))
        return -1;
    for (size_t s = 0; s < sizeof KEY_SKILLS / sizeof KEY_SKILLS[0]; s++) {
        if (!(any & KEY_SKILLS[s]) || (all & KEY_SKILLS[s]))
            continue;
        for (int k = lf->at[t], e = k + nt; k < e; k++) {
            int g = lf->i[k];
            const opfor_figure_t *f = &st->figures[g];
            if ((f->skills & KEY_SKILLS[s]) && !(f->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)) &&
                vk_fire_figure_ok(st, t, g))
                return g;
        }
    }
    return -1;
}

/* The first of the features bf[0..nbf) (in that order) that stops a move along the line a-b;
 * -1 if none. */
static inline int line_blocker(const opfor_vk_ctx_t *ctx, const uint8_t *bf, int nbf, opfor_pt_t a,
                               opfor_pt_t b) {
    float lox = a.x < b.x ? a.x : b.x, hix = a.x > b.x ? a.x : b.x;
    float loy = a.y < b.y ? a.y : b.y, hiy = a.y > b.y ? a.y : b.y;
    for (int i = 0; i < nbf; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[bf[i]];
        if (f->hi.x < lox || f->lo.x > hix || f->hi.y < loy || f->lo.y > hiy)
            continue;
        /* (a line ending inside an area crosses its outline) */
        if (opfor_feature_seg_enters(f, a, b))
            return bf[i];
    }
    return -1;
}

/* The features of ctx->block_feat (in that order) that can stop a move: impassable terrain,
 * and ground closed to riders and guns when `riders` (VIII). Returns how many, in bf. A listing
 * sorts them out once for all its blocker searches. */
static int block_features(const opfor_vk_ctx_t *ctx, int riders, uint8_t *bf) {
    int n = 0;
    for (int i = 0; i < ctx->nblock_feat; i++)
        if (riders || ctx->sc.table.features[ctx->block_feat[i]].move == OPFOR_MOVE_IMPASSABLE)
            bf[n++] = ctx->block_feat[i];
    return n;
}

/* The first of the blocking features bf[0..nbf) (block_features) that stops a formation of
 * radius r moving along a-b, met by its centre line, else by its left flank, else by its right;
 * -1 if none, and -1 whenever no feature's box meets the box of the swept capsule (the
 * segment's box grown by r). */
static int move_blocker_in(const opfor_vk_ctx_t *ctx, const uint8_t *bf, int nbf, opfor_pt_t a,
                           opfor_pt_t b, float r) {
    float lox = (a.x < b.x ? a.x : b.x) - r, hix = (a.x > b.x ? a.x : b.x) + r;
    float loy = (a.y < b.y ? a.y : b.y) - r, hiy = (a.y > b.y ? a.y : b.y) + r;
    int near = 0;
    for (int i = 0; i < nbf && !near; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[bf[i]];
        near = f->hi.x >= lox && f->lo.x <= hix && f->hi.y >= loy && f->lo.y <= hiy;
    }
    if (!near)
        return -1;
    int fi = line_blocker(ctx, bf, nbf, a, b);
    if (fi >= 0 || r <= 0.0f)
        return fi;
    opfor_vec_t side = opfor_vscale(opfor_vperp(opfor_vnorm(opfor_vsub(b, a))), r);
    if (side.x == 0.0f && side.y == 0.0f)
        return -1;
    fi = line_blocker(ctx, bf, nbf, opfor_vadd(a, side), opfor_vadd(b, side));
    if (fi >= 0)
        return fi;
    return line_blocker(ctx, bf, nbf, opfor_vsub(a, side), opfor_vsub(b, side));
}

int vk_move_blocker_wide(const opfor_vk_ctx_t *ctx, opfor_pt_t a, opfor_pt_t b, float r,
                         int riders) {
    uint8_t bf[OPFOR_MAX_FEATURES];
    int nbf = block_features(ctx, riders, bf);
    return move_blocker_in(ctx, bf, nbf, a, b, r);
}

/* A waypoint around feature fi for a unit (centre c, radius r) heading for dest: a corner of
 * the feature pushed outward by the unit's radius and an inch, reachable from c without
 * meeting a blocker and shortest in total (corners with a clear way on first); 0 when there
 * is none. reach[k] remembers whether corner k of fi is reachable from c (0 not yet known,
 * 1 yes, 2 no): the corners and that answer depend on fi, c and r only, so searches around
 * the same feature for other destinations of the same unit share it. */
static int waypoint_around(const opfor_vk_ctx_t *ctx, const uint8_t *bf, int nbf, int fi,
                           opfor_pt_t c, float r, opfor_pt_t dest, uint8_t *reach,
                           opfor_pt_t *via) {
    const opfor_terrain_feature_t *f = &ctx->sc.table.features[fi];
    opfor_pt_t mid = opfor_pt(0.5f * (f->lo.x + f->hi.x), 0.5f * (f->lo.y + f->hi.y));
    float off = r + 1.0f + (f->shape == OPFOR_SHAPE_LINE ? 0.5f * f->width : 0.0f);
    opfor_pt_t cand[OPFOR_POLY_MAX_PTS];
    float len[OPFOR_POLY_MAX_PTS];
    int ck[OPFOR_POLY_MAX_PTS]; /* each candidate's corner */
    int n = 0;
    for (int k = 0; k < f->npts; k++) {
        opfor_pt_t p = f->pts[k];
        opfor_vec_t out = opfor_vnorm(opfor_vsub(p, mid));
        if (f->shape == OPFOR_SHAPE_LINE && f->npts >= 2 && (k == 0 || k == f->npts - 1)) {
            /* past the end of a line, along it */
            opfor_pt_t q = f->pts[k == 0 ? 1 : f->npts - 2];
            out = opfor_vnorm(opfor_vsub(p, q));
        } else if (f->shape == OPFOR_SHAPE_LINE) {
            continue; /* only a line's ends lead around it */
        }
        if (out.x == 0.0f && out.y == 0.0f)
            continue;
        opfor_pt_t v = clamp_table(ctx, opfor_vadd(p, opfor_vscale(out, off)));
        float d = opfor_dist(c, v) + opfor_dist(v, dest);
        int j = n++; /* stable insertion by total length */
        while (j > 0 && len[j - 1] > d) {
            len[j] = len[j - 1];
            cand[j] = cand[j - 1];
            ck[j] = ck[j - 1];
            j--;
        }
        len[j] = d;
        cand[j] = v;
        ck[j] = k;
    }
    /* The shortest corner reachable in a straight line from which the way on is clear, else
       the shortest reachable one. */
    int fallback = -1;
    for (int j = 0; j < n; j++) {
        uint8_t *rk = &reach[ck[j]];
        if (!*rk)
            *rk = move_blocker_in(ctx, bf, nbf, c, cand[j], r) >= 0 ? 2 : 1;
        if (*rk == 2)
            continue;
        if (move_blocker_in(ctx, bf, nbf, cand[j], dest, r) < 0) {
            *via = cand[j];
            return 1;
        }
        if (fallback < 0)
            fallback = j;
    }
    if (fallback < 0)
        return 0;
    *via = cand[fallback];
    return 1;
}

/* Moves of a balloon or dirigible (XII.D): a dirigible aloft steers toward the usual
 * destinations; either may climb or descend in place (one level, or one or two). */
static void list_flight(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                        const opfor_pt_t *dests, int nd, opfor_pt_t here, lister_t *l) {
    if (vk_craft(ctx, st, u) == VK_CRAFT_DIRIGIBLE && st->ux[u].altitude > 0)
        for (int i = 0; i < nd; i++) {
            opfor_vk_action_t *a = push(l, OPFOR_VK_ADVANCE, u);
            if (a)
                a->dest = dests[i];
        }
    static const int DZ[4] = {1, 2, -1, -2};
    for (int i = 0; i < 4; i++) {
        if (!vk_fly_ok(ctx, st, u, DZ[i]))
            continue;
        opfor_vk_action_t *a = push(l, OPFOR_VK_ADVANCE, u);
        if (!a)
            break;
        a->dest = here;
        a->flags = DZ[i] > 0 ? OPFOR_VK_AF_CLIMB : OPFOR_VK_AF_DESCEND;
        a->arc = (uint8_t)(DZ[i] > 0 ? DZ[i] : -DZ[i]);
    }
}

/* The rank of figure x among u's living persons by distance from p (nearer first, then by
 * index): how many come before it in vk_split's choice of the men nearest p. */
static int split_rank(const opfor_vk_state_t *st, int u, opfor_pt_t p, int x) {
    const opfor_unit_t *un = &st->units[u];
    float dx = opfor_dist2(st->figures[x].pos, p);
    int r = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (i == x || !vk_alive(st, i) || !vk_is_person(&st->figures[i]))
            continue;
        float d = opfor_dist2(st->figures[i].pos, p);
        r += d < dx || (d == dx && i < x);
    }
    return r;
}

/* A cheap sufficient test of vk_split_ok for the split of the n men nearest leader lead (both
 * leaders who may head a part; first the unit's first such): lead goes with them and first
 * stays. The listing asks this; check_action asks vk_split_ok. */
static int split_listable(const opfor_vk_state_t *st, int u, int first, int lead, int n) {
    opfor_pt_t p = st->figures[lead].pos;
    return n >= 1 && split_rank(st, u, p, lead) < n && split_rank(st, u, p, first) >= n;
}

/* Splits the owner may order (V.A): the middle cut, and for each of the next two leaders after
 * the first who may head a part, half of the unit or a quarter of it (at least two) nearest
 * him going off with him, when both parts keep such a leader. Repeated splits make three or
 * more parts. */
static void list_splits(const opfor_vk_state_t *st, int u, int alive, lister_t *l) {
    push(l, OPFOR_VK_SPLIT, u);
    if (!(l->want & G(OPFOR_VK_SPLIT)))
        return;
    const opfor_unit_t *un = &st->units[u];
    int first = -1, nl = 0;
    int sizes[2] = {alive / 2, alive / 4 < 2 ? 2 : alive / 4};
    if (st->nunits >= OPFOR_MAX_UNITS)
        return;
    for (int i = un->first; i < un->first + un->count && nl < 2; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!vk_alive(st, i) || !vk_is_person(f) || !(f->skills & OPFOR_S_LEADER) ||
            (st->figx[i] & OPFOR_VK_FX_PROMOTED))
            continue;
        if (first < 0) {
            first = i;
            continue;
        }
        nl++;
        for (int k = 0; k < 2; k++) {
            if (k == 1 && sizes[1] >= sizes[0])
                break;
            if (!split_listable(st, u, first, i, sizes[k]))
                continue;
            opfor_vk_action_t *a = push(l, OPFOR_VK_SPLIT, u);
            if (!a)
                return;
            a->figure = (uint16_t)sizes[k];
            a->dest = f->pos;
        }
    }
}

/* vk_can_mount of u, asked once per listing: *known is -1 until asked, then the answer. */
static int can_mount_once(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                          int *known) {
    if (*known < 0)
        *known = vk_can_mount(ctx, st, u);
    return *known;
}

/* Moves with a remount or dismount as part of them (VIII), for the planner: riders ride to the
 * first two destinations and dismount where they stop, or dismount first and walk into the
 * nearest cover (cov, NULL when none); riders on foot with their horses mount and then advance
 * to the first two destinations or gallop to the first. */
static void list_mount_moves(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                             const vk_uprof_t *prof, const opfor_pt_t *dests, int nd,
                             const opfor_pt_t *cov, int *mountable, lister_t *l) {
    int n2 = nd < 2 ? nd : 2;
    if (prof->flags & OPFOR_FIG_MOUNTED) { /* vk_can_dismount */
        for (int i = 0; i < n2; i++) {
            opfor_vk_action_t *a = push(l, OPFOR_VK_ADVANCE, u);
            if (!a)
                return;
            a->dest = dests[i];
            a->flags = OPFOR_VK_AF_DISMOUNT;
            a->arc = OPFOR_VK_AT_END;
        }
        opfor_vk_action_t *a = cov ? push(l, OPFOR_VK_ADVANCE, u) : NULL;
        if (a) {
            a->dest = *cov;
            a->flags = OPFOR_VK_AF_DISMOUNT;
            a->arc = OPFOR_VK_AT_START;
        }
    }
    if (prof->horse_free && n2 > 0 && (l->want & (G(OPFOR_VK_ADVANCE) | G(OPFOR_VK_RUN))) &&
        can_mount_once(ctx, st, u, mountable)) {
        for (int i = 0; i <= n2; i++) {
            int run = i == n2; /* the last: gallop to the first destination */
            opfor_vk_action_t *a = push(l, run ? OPFOR_VK_RUN : OPFOR_VK_ADVANCE, u);
            if (!a)
                continue;
            a->dest = dests[run ? 0 : i];
            a->flags = OPFOR_VK_AF_MOUNT;
            a->arc = OPFOR_VK_AT_START;
        }
    }
}

static void list_moves(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                       const vk_ugeo_t *ug, const vk_uprof_t *prof, enemy_t *en, int nen,
                       unsigned k, int *mountable, lister_t *l) {
    vk_ugeo_t g = *ug;
    int side = st->units[u].side;
    opfor_pt_t dests[16];
    int nd = 0;
    int wavering = st->units[u].status == OPFOR_WAVERING;
    if (!wavering) {
        for (int i = 0; i < nen && i < 3; i++)
            dests[nd++] = en[i].geo.c;
        for (int o = 0; o < ctx->sc.nobjectives && nd < 9; o++)
            dests[nd++] = ctx->sc.objectives[o].pos;
        if (nen > 0) {
            vk_ugeo_t eg = en[0].geo;
            opfor_vec_t d = opfor_vnorm(opfor_vsub(eg.c, g.c));
            opfor_vec_t p = opfor_vperp(d);
            float off = eg.r + g.r + 6.0f;
            dests[nd++] = clamp_table(ctx, opfor_vadd(eg.c, opfor_vscale(p, off)));
            dests[nd++] = clamp_table(ctx, opfor_vsub(eg.c, opfor_vscale(p, off)));
        }
    }
    opfor_pt_t cov, cov6 = g.c;
    int has_cov, has_cov6;
    nearest_cover2(ctx, g.c, (prof->flags & OPFOR_FIG_MOUNTED) != 0, &has_cov, &cov, &has_cov6,
                   &cov6);
    if (has_cov)
        dests[nd++] = cov;
    /* back toward the own edge */
    dests[nd++] = clamp_table(ctx, opfor_vadd(g.c, opfor_vscale(ctx->home[side], 12.0f)));
    if (vk_craft(ctx, st, u) != VK_CRAFT_NONE) { /* flying craft neither run nor crawl */
        if (k & K_MOVE)
            list_flight(ctx, st, u, dests, nd, g.c, l);
        return;
    }
    /* Waypoints (VIII moves are straight legs): for the first few destinations whose straight
       line runs into impassable ground (or a building, for riders and guns), a way round. */
    opfor_pt_t wdest[VK_MAX_WAYPOINTS], wvia[VK_MAX_WAYPOINTS];
    int nw = 0;
    if ((k & K_MOVE) && ctx->nblock_feat > 0) {
        /* terrain closed to riders stops riders, guns and wagons (VIII); with no feature that
           can stop this unit, no line is blocked */
        int riders = (prof->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0;
        uint8_t bf[OPFOR_MAX_FEATURES];
        int nbf = block_features(ctx, riders, bf);
        /* at most a few searches: each costs several sight-line tests */
        uint8_t reach[OPFOR_POLY_MAX_PTS]; /* waypoint_around's memo for feature reach_fi */
        int reach_fi = -1;
        for (int i = 0, tries = 0;
             nbf > 0 && i < nd && nw < VK_MAX_WAYPOINTS && tries < VK_MAX_WAYPOINTS; i++) {
            int fi = move_blocker_in(ctx, bf, nbf, g.c, dests[i], g.r);
            if (fi >= 0 && fi != reach_fi) {
                memset(reach, 0, sizeof reach);
                reach_fi = fi;
            }
            if (fi >= 0 && ++tries &&
                waypoint_around(ctx, bf, nbf, fi, g.c, g.r, dests[i], reach, &wvia[nw])) {
                wdest[nw] = dests[i];
                nw++;
            }
        }
    }
    if (k & K_MOVE) {
        push_dests(l, OPFOR_VK_ADVANCE, u, dests, nd, 0, NULL);
        push_dests(l, OPFOR_VK_ADVANCE, u, wdest, nw, OPFOR_VK_AF_VIA, wvia);
        push_dests(l, OPFOR_VK_RUN, u, dests, nd, 0, NULL);
        push_dests(l, OPFOR_VK_RUN, u, wdest, nw, OPFOR_VK_AF_VIA, wvia);
        list_mount_moves(ctx, st, u, prof, dests, nd, has_cov ? &cov : NULL, mountable, l);
    }
    if (k & K_CRAWL) {
        opfor_vk_action_t *a = push(l, OPFOR_VK_CRAWL, u);
        if (a)
            a->dest = g.c; /* take cover where it stands */
        if ((k & K_MOVE) && (l->want & G(OPFOR_VK_CRAWL)) && has_cov6) {
            a = push(l, OPFOR_VK_CRAWL, u);
            if (a)
                a->dest = cov6;
        }
    }
}

static int fire_targets(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                        const vk_lfigs_t *lf, enemy_t *en, int nen, int *out, int max) {
    float reach = vk_unit_reach(st, u);
    int n = 0;
    if (reach <= 0.0f)
        return 0;
    for (int i = 0; i < nen && n < max; i++) {
        int t = en[i].u;
        /* altitude levels between them add range brackets (XII.D) */
        int lv = vk_levels(st, u, t);
        if (en[i].gap > (lv ? vk_unit_reach_lv(&ctx->model, st, u, lv) : reach) ||
            !vk_fire_target_ok(st, t))
            continue;
        if (enemy_visible(ctx, st, u, lf, &en[i]))
            out[n++] = i;
    }
    return n;
}

/* The charges at targets[0..n) again, each with the chargers holding after the melee (X step
 * 8: the follow-up advance is theirs to make or not). */
static void push_holds(lister_t *l, int u, const uint8_t *targets, int n) {
    for (int i = 0; i < n; i++) {
        opfor_vk_action_t *a = push(l, OPFOR_VK_CHARGE, u);
        if (!a)
            break;
        a->target = targets[i];
        a->flags = OPFOR_VK_AF_HOLD;
    }
}

/* The acting unit's actions. Everything is measured once and passed down: the unit (its living
 * figures, geometry and profile, in one pass), each enemy unit, the nearest pairs, sight on
 * demand. The profile's or-ed skills and weapons skip the helpers whose answer must be no (a
 * unit without a signaller cannot call support, ...); its counts replace the recounts. */
static void list_actions(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, lister_t *l) {
    int u = st->cur;
    const opfor_unit_t *un = &st->units[u];
    unsigned k = allowed_kinds(st, u);
    vk_lfigs_t lf;
    vk_ugeo_t geo[OPFOR_MAX_UNITS]; /* filled as needed: u now, enemies, merge partners */
    vk_uprof_t prof;
    lf.n = 0;
    measure_self(st, u, &lf, &geo[u], &prof);
    int gunf = prof.gun; /* vk_gun_figure, looked up once: listing changes nothing */
    int has_mg = (prof.weapons & OPFOR_W_MG) != 0; /* vk_mg_figure(st, u) >= 0 */
    int mountable = -1; /* vk_can_mount, asked at most once (can_mount_once) */
    if (k & K_FIGHT)
        push(l, OPFOR_VK_FIGHT, u);
    if (k & K_RALLY)
        push(l, OPFOR_VK_RALLY, u);
    if (k & K_STAND) {
        push(l, OPFOR_VK_STAND, u);
        if (can_load(st, u, has_mg, gunf))
            push(l, OPFOR_VK_LOAD, u);
    }
    if (k == K_FIGHT || k == (K_FIGHT | K_RALLY) || k == K_STAND)
        return;
    uint32_t want = l->want;
    if (!(want & ~(G(OPFOR_VK_FIGHT) | G(OPFOR_VK_RALLY) | G(OPFOR_VK_STAND) | G(OPFOR_VK_LOAD))))
        return;
    enemy_t en[VK_MAX_ENEMY_CAND];
    /* Groups that need no enemy: skip the search (lazy listing of one group). */
    const uint32_t no_enemy = G(OPFOR_VK_HEAL) | G(OPFOR_VK_LIMBER) | G(OPFOR_VK_MOUNT) |
                              G(OPFOR_VK_DISMOUNT) | G(OPFOR_VK_SPLIT) | G(OPFOR_VK_MERGE) |
                              G(OPFOR_VK_TO_REAR);
    int nen = (want & ~no_enemy) ? enemies_by_distance(st, u, &lf, geo, en, VK_MAX_ENEMY_CAND) : 0;
    int mobile =
        !(gun_unit_f(ctx, st, u, gunf) && !(un->flags & OPFOR_UNIT_LIMBERED)); /* can_move */
    if ((k & (K_MOVE | K_CRAWL)) && mobile &&
        (want & (G(OPFOR_VK_ADVANCE) | G(OPFOR_VK_RUN) | G(OPFOR_VK_CRAWL))))
        list_moves(ctx, st, u, &geo[u], &prof, en, nen, k, &mountable, l);
    int tg[4];
    int ntg = (k & K_FIRE) && (want & (G(OPFOR_VK_FIRE) | G(OPFOR_VK_GROUP_MOVING_FIRE)))
                  ? fire_targets(ctx, st, u, &lf, en, nen, tg, 4)
                  : 0;
    if ((k & K_MOVE) && mobile && vk_craft(ctx, st, u) == VK_CRAFT_NONE) {
        for (int i = 0; i < ntg && i < 3; i++) { /* advance with moving fire (VI) */
            opfor_vk_action_t *a = push_g(l, OPFOR_VK_GROUP_MOVING_FIRE, OPFOR_VK_ADVANCE, u);
            if (!a)
                break;
            a->dest = en[tg[i]].geo.c;
            a->target = (uint8_t)en[tg[i]].u;
            a->flags = OPFOR_VK_AF_FIRE;
        }
        /* moving fire at any point of the move (IX), here its first: fire from where the
           unit stands, then fall back toward the own edge (the waypoint is the fire point) */
        opfor_pt_t back =
            clamp_table(ctx, opfor_vadd(geo[u].c, opfor_vscale(ctx->home[un->side], 12.0f)));
        for (int i = 0; i < ntg && i < 2; i++) {
            opfor_vk_action_t *a = push_g(l, OPFOR_VK_GROUP_MOVING_FIRE, OPFOR_VK_ADVANCE, u);
            if (!a)
                break;
            a->dest = back;
            a->via = geo[u].c;
            a->target = (uint8_t)en[tg[i]].u;
            a->flags = OPFOR_VK_AF_FIRE | OPFOR_VK_AF_VIA | OPFOR_VK_AF_FIRE_VIA;
        }
    }
    if ((k & K_CRAWL) && mobile && vk_craft(ctx, st, u) == VK_CRAFT_NONE) {
        /* crawl with moving fire (VI: a crawl may be combined with fire, made as moving
           fire): toward the target, or where it lies when it may only take cover (VII) */
        for (int i = 0; i < ntg && i < 2; i++) {
            opfor_vk_action_t *a = push_g(l, OPFOR_VK_GROUP_MOVING_FIRE, OPFOR_VK_CRAWL, u);
            if (!a)
                break;
            a->dest = (k & K_MOVE) ? en[tg[i]].geo.c : geo[u].c;
            a->target = (uint8_t)en[tg[i]].u;
            a->flags = OPFOR_VK_AF_FIRE;
        }
    }
    /* charges; the same with the chargers holding after the melee (X step 8) come last in
       the list, so that they never crowd out another kind of action */
    uint8_t charged[VK_MAX_ENEMY_CAND];
    int ncharged = 0;
    if ((k & K_CHARGE) && (want & G(OPFOR_VK_CHARGE)) && gunf < 0) {
        float reach = vk_charge_reach(ctx, st, u);
        for (int i = 0; i < nen; i++)
            if (en[i].gap <= reach && vk_charge_target_ok(st, u, en[i].u) &&
                enemy_visible(ctx, st, u, &lf, &en[i])) {
                opfor_vk_action_t *a = push(l, OPFOR_VK_CHARGE, u);
                if (a)
                    a->target = charged[ncharged++] = (uint8_t)en[i].u;
            }
    }
    for (int i = 0; i < ntg; i++) {
        int t = en[tg[i]].u;
        opfor_vk_action_t *a = push(l, OPFOR_VK_FIRE, u);
        if (a)
            a->target = (uint8_t)t;
        if (i >= 2)
            continue;
        int aim_wounded, aim_leader;
        aim_targets(st, &lf, t, en[tg[i]].geo.n, &aim_wounded, &aim_leader);
        if (aim_wounded && (a = push(l, OPFOR_VK_FIRE, u))) {
            a->target = (uint8_t)t;
            a->flags = OPFOR_VK_AF_AIM_WOUNDED;
        }
        if (aim_leader && (a = push(l, OPFOR_VK_FIRE, u))) {
            a->target = (uint8_t)t;
            a->flags = OPFOR_VK_AF_AIM_GENERAL;
        }
        /* a figure named as the target (IX: the player chooses each firer's target) */
        int key = key_figure(st, &lf, t, en[tg[i]].geo.n);
        if (key >= 0 && (a = push(l, OPFOR_VK_FIRE, u))) {
            a->target = (uint8_t)t;
            a->figure = (uint16_t)key;
        }
        /* at the balloon itself rather than its occupants (XII.D) */
        if (vk_craft(ctx, st, t) != VK_CRAFT_NONE && vk_can_fire_craft(ctx, st, u, t) &&
            (a = push(l, OPFOR_VK_FIRE, u))) {
            a->target = (uint8_t)t;
            a->flags = OPFOR_VK_AF_AT_CRAFT;
        }
    }
    if (k & K_FIRE) {
        /* MG arcs (IX) toward each visible enemy */
        if ((want & G(OPFOR_VK_FIRE_MG)) && has_mg) {
            int mgt[3], nm = 0;
            for (int i = 0; i < nen && nm < 3; i++)
                if (enemy_visible(ctx, st, u, &lf, &en[i]))
                    mgt[nm++] = i;
            static const int ARCS[3] = {OPFOR_ARC_45, OPFOR_ARC_DOUBLE_45, OPFOR_ARC_90};
            int arc_ok[3] = {0, 0, 0}; /* the same for every target: asked once */
            for (int a = 0; a < 3 && nm > 0; a++)
                arc_ok[a] = vk_can_fire_mg(st, u, ARCS[a]);
            for (int i = 0; i < nm; i++)
                for (int a = 0; a < 3; a++)
                    if (arc_ok[a]) {
                        opfor_vk_action_t *x = push(l, OPFOR_VK_FIRE_MG, u);
                        if (!x)
                            break;
                        x->dest = en[mgt[i]].geo.c;
                        x->arc = (uint8_t)ARCS[a];
                        x->target = (uint8_t)en[mgt[i]].u;
                    }
        }
        if ((want & G(OPFOR_VK_FIRE_ARTILLERY)) && gunf >= 0 && vk_can_fire_gun(ctx, st, u)) {
            /* aim points in the crew's sight (IX), for the three nearest enemies seen: the
               unit's centre, and its figure nearest the gun when that is more than half a
               blast from the centre (or the centre is out of sight) */
            int gun = gunf;
            float half = 0.5f * ctx->tab->shell_radius;
            int seen[3], near[3], m = 0;
            for (int i = 0; i < nen && m < 3; i++) {
                int j = vk_nearest_fig(st, en[i].u, st->figures[gun].pos, NULL);
                if (j < 0)
                    continue;
                opfor_pt_t p = st->figures[j].pos;
                int sees_c = vk_gun_sees(ctx, st, u, en[i].geo.c);
                int sees_j = opfor_dist(p, en[i].geo.c) > half && vk_gun_sees(ctx, st, u, p);
                if (!sees_c && !sees_j)
                    continue;
                opfor_vk_action_t *x = NULL;
                if (sees_c && !(x = push_at(l, OPFOR_VK_FIRE_ARTILLERY, u, &en[i])))
                    break;
                if (sees_j && (x = push_at(l, OPFOR_VK_FIRE_ARTILLERY, u, &en[i])))
                    x->dest = p;
                if (!x)
                    break;
                seen[m] = i;
                near[m++] = j;
            }
            /* a walker may split its three shots between the units it sees: one at each of
               the first two (or three), in any direction (XII.E) */
            opfor_vk_action_t *x;
            if (m >= 2 && vk_gun_shots(ctx, st, u) == 3 &&
                (x = push_at(l, OPFOR_VK_FIRE_ARTILLERY, u, &en[seen[0]]))) {
                x->flags = OPFOR_VK_AF_VIA;
                x->via = en[seen[1]].geo.c;
                if (m >= 3)
                    x->figure = (uint16_t)near[2];
            }
        }
        if ((want & G(OPFOR_VK_CALL_SUPPORT)) && (prof.skills & OPFOR_S_SIGNALLER) &&
            vk_support_team_ok(ctx, st, u) && st->reg[un->side].lost < st->turn) {
            for (int i = 0, m = 0; i < nen && m < 3; i++) {
                if (!enemy_visible(ctx, st, u, &lf, &en[i]))
                    continue;
                if (!push_at(l, OPFOR_VK_CALL_SUPPORT, u, &en[i]))
                    break;
                m++;
            }
            const opfor_vk_reg_t *rg = &st->reg[un->side];
            if (rg->turns > 0) { /* keep calling on the registered point (IX) */
                opfor_vk_action_t *x = push(l, OPFOR_VK_CALL_SUPPORT, u);
                if (x)
                    x->dest = rg->point;
            }
        }
        if ((want & G(OPFOR_VK_THROW_BOMB)) && (prof.weapons & OPFOR_W_BOMBS) &&
            vk_bombers(st, u) > 0) {
            for (int i = 0, m = 0; i < nen && m < 3; i++) {
                /* measured on the table (from beneath a craft); a bomb bursting on the ground
                   does not reach a craft in the air (XII.D) */
                if (en[i].gap > VK_BOMB_RANGE || st->ux[en[i].u].altitude > 0)
                    continue;
                opfor_vk_action_t *x = push(l, OPFOR_VK_THROW_BOMB, u);
                if (!x)
                    break;
                x->target = (uint8_t)en[i].u;
                m++;
            }
        }
    }
    if ((k & K_HEAL) && (prof.skills & OPFOR_S_MEDIC) &&
        (vk_can_heal(st, u) || ((k & K_OTHER) && vk_can_heal_rear(ctx, st, u))))
        push(l, OPFOR_VK_HEAL, u);
    if (!(k & K_OTHER)) {
        push_holds(l, u, charged, ncharged);
        return;
    }
    if ((want & G(OPFOR_VK_MESMERIZE)) && (prof.skills & OPFOR_S_MESMERIST) &&
        vk_mesmerists(st, u) > 0) {
        const opfor_unit_t *mu = &st->units[u];
        for (int i = 0, m = 0; i < nen && m < 3; i++) {
            if (en[i].gap > VK_MESMER_RANGE)
                continue;
            /* the nearest visible person of that unit to a mesmerist */
            int best = -1;
            float bd = 1e30f;
            for (int f = mu->first; f < mu->first + mu->count; f++) {
                if (!vk_alive(st, f) || !(st->figures[f].skills & OPFOR_S_MESMERIST))
                    continue;
                const opfor_unit_t *tu = &st->units[en[i].u];
                for (int g2 = tu->first; g2 < tu->first + tu->count; g2++) {
                    if (!vk_alive(st, g2) || !vk_is_person(&st->figures[g2]) ||
                        (st->figures[g2].flags & OPFOR_FIG_MESMERIZED))
                        continue;
                    float d = opfor_dist2(st->figures[f].pos, st->figures[g2].pos);
                    if (d < bd && sqrtf(d) - 1.0f <= VK_MESMER_RANGE && vk_los(ctx, st, f, g2)) {
                        bd = d;
                        best = g2;
                    }
                }
            }
            if (best < 0)
                continue;
            opfor_vk_action_t *x = push(l, OPFOR_VK_MESMERIZE, u);
            if (!x)
                break;
            x->target = (uint8_t)en[i].u;
            x->figure = (uint16_t)best;
            m++;
        }
    }
    if (gun_unit_f(ctx, st, u, gunf)) {
        if (un->flags & OPFOR_UNIT_LIMBERED) {
            opfor_vk_action_t *x = push(l, OPFOR_VK_UNLIMBER, u);
            if (x) /* toward the nearest enemy's centre (vk_unit_geo's, as measured) */
                x->dest = nen > 0 ? en[0].geo.c : opfor_vadd(geo[u].c, un->facing);
        } else {
            push(l, OPFOR_VK_LIMBER, u);
        }
    }
    if ((want & G(OPFOR_VK_MOUNT)) && prof.horse_free && can_mount_once(ctx, st, u, &mountable))
        push(l, OPFOR_VK_MOUNT, u);
    if (prof.flags & OPFOR_FIG_MOUNTED) /* vk_can_dismount */
        push(l, OPFOR_VK_DISMOUNT, u);
    if (prof.leaders >= 2 && vk_split_leaders(st, u) >= 2 && st->nunits < OPFOR_MAX_UNITS)
        list_splits(st, u, prof.alive, l);
    /* (a general unit merges with no one: the loop is skipped; the cheap tests come before
       vk_unit_active's figure scan) */
    for (int f = 0;
         f < st->nunits && (want & G(OPFOR_VK_MERGE)) && !(un->flags & OPFOR_UNIT_GENERAL); f++) {
        if (f == u || st->units[f].side != un->side || st->units[f].type != un->type ||
            (st->units[f].flags & OPFOR_UNIT_GENERAL) || vk_in_melee(st, f) ||
            !vk_unit_active(st, f))
            continue;
        measure_unit(st, f, &lf, &geo[f]);
        float lb = opfor_dist(geo[u].c, geo[f].c) - geo[u].r - geo[f].r;
        if (lb <= VK_MERGE_DIST &&
            nearest_pair_in(&lf, u, geo[u].n, f, &geo[f], NULL, NULL) <= VK_MERGE_DIST) {
            opfor_vk_action_t *x = push(l, OPFOR_VK_MERGE, u);
            if (x)
                x->target = (uint8_t)f;
        }
    }
    /* wounded out of line, or bound men back from the rear, during the unit's action (IX) */
    if ((k & K_TOREAR) && prof.wounded > 0 && vk_rear_sendable(st, u) > 0)
        push(l, OPFOR_VK_TO_REAR, u);
    if ((k & K_TOREAR) && (want & G(OPFOR_VK_TO_REAR)) && vk_rear_bound(st, u) > 0) {
        opfor_vk_action_t *x = push(l, OPFOR_VK_TO_REAR, u);
        if (x)
            x->flags = OPFOR_VK_AF_RETURN;
    }
    push_holds(l, u, charged, ncharged);
}

static void list_reactions(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, lister_t *l) {
    int t = st->charge.target, c = st->charge.charger;
    push(l, OPFOR_VK_REACT_STAND, t);
    if (vk_can_defensive_fire(st, t))
        push(l, OPFOR_VK_REACT_FIRE, t);
    vk_ugeo_t tg, cg;
    vk_unit_geo(st, t, &tg);
    vk_unit_geo(st, c, &cg);
    opfor_vec_t away = opfor_vnorm(opfor_vsub(tg.c, cg.c));
    if (away.x == 0.0f && away.y == 0.0f)
        away = ctx->home[st->units[t].side];
    opfor_pt_t dest = clamp_table(ctx, opfor_vadd(tg.c, opfor_vscale(away, 24.0f)));
    /* the move away may be a run/gallop, an advance or a crawl (X): the run first */
    static const uint8_t HOW[3] = {OPFOR_VK_RUN, OPFOR_VK_ADVANCE, OPFOR_VK_CRAWL};
    for (int i = 0; i < 3; i++) {
        opfor_vk_action_t *a = push(l, OPFOR_VK_REACT_FLEE, t);
        if (a) {
            a->dest = dest;
            a->arc = HOW[i];
        }
    }
    int counter = vk_can_counter(ctx, st, t), fire = vk_can_defensive_fire(st, t);
    if (counter)
        push(l, OPFOR_VK_REACT_COUNTER, t);
    /* the same, the unit then holding: no follow-up advance after the melee (X step 9) */
    opfor_vk_action_t *h = push(l, OPFOR_VK_REACT_STAND, t);
    if (h)
        h->flags = OPFOR_VK_AF_HOLD;
    if (fire && (h = push(l, OPFOR_VK_REACT_FIRE, t)))
        h->flags = OPFOR_VK_AF_HOLD;
    if (counter && (h = push(l, OPFOR_VK_REACT_COUNTER, t)))
        h->flags = OPFOR_VK_AF_HOLD;
}

/* The living person of figure g's side in base contact with g nearest him, of unit t (any of
 * g's side's units when t < 0); -1 when none: whom a mesmerised figure may strike (XII.B). */
static int fellow_in_contact(const opfor_vk_state_t *st, int g, int t) {
    const opfor_figure_t *fg = &st->figures[g];
    int side = st->units[fg->unit].side, best = -1;
    float bd = 1e30f;
    for (int j = 0; j < st->nfigures; j++) {
        const opfor_figure_t *f = &st->figures[j];
        if (j == g || !vk_alive(st, j) || !vk_is_person(f) || st->units[f->unit].side != side ||
            (t >= 0 && f->unit != t) || st->ux[f->unit].removed)
            continue;
        float gap = opfor_dist(fg->pos, f->pos) - vk_radius(fg) - vk_radius(f);
        if (gap <= VK_CONTACT && gap < bd) {
            bd = gap;
            best = j;
        }
    }
    return best;
}

static void list_control(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, lister_t *l) {
    int u = st->cur;
    int g = st->units[u].first + st->charge.control;
    opfor_vk_action_t *a = push(l, OPFOR_VK_CONTROL, u);
    if (a)
        a->figure = (uint16_t)g;
    int side = st->units[u].side; /* the figure's own side: its fellows are the targets */
    float reach = 0.0f;
    for (int w = 2; w >= 0; w--)
        if (st->figures[g].weapons & (OPFOR_W_PISTOL << w)) {
            reach = (float)ctx->model.range_edge[w][OPFOR_VK_BRACKET_COUNT - 1];
            break;
        }
    int m = 0;
    for (int t = 0; t < st->nunits && m < 3 && reach > 0.0f; t++) {
        if (st->units[t].side != side || !vk_unit_active(st, t))
            continue;
        float d2;
        int j = vk_nearest_fig(st, t, st->figures[g].pos, &d2);
        if (t == u) { /* its own unit: nearest other figure */
            j = -1;
            float bd = 1e30f;
            const opfor_unit_t *un = &st->units[u];
            for (int i = un->first; i < un->first + un->count; i++)
                if (i != g && vk_alive(st, i) && vk_is_person(&st->figures[i])) {
                    float d = opfor_dist2(st->figures[i].pos, st->figures[g].pos);
                    if (d < bd) {
                        bd = d;
                        j = i;
                    }
                }
            d2 = bd;
        }
        if (j < 0 || sqrtf(d2) - 1.0f > reach)
            continue;
        a = push(l, OPFOR_VK_CONTROL, u);
        if (!a)
            break;
        a->figure = (uint16_t)g;
        a->target = (uint8_t)t;
        m++;
    }
    /* strike the nearest fellow in base contact; turn his weapon on himself (XII.B) */
    int j = fellow_in_contact(st, g, -1);
    if (j >= 0 && (a = push(l, OPFOR_VK_CONTROL, u))) {
        a->figure = (uint16_t)g;
        a->target = st->figures[j].unit;
        a->flags = OPFOR_VK_AF_STRIKE;
    }
    if ((a = push(l, OPFOR_VK_CONTROL, u))) {
        a->figure = (uint16_t)g;
        a->flags = OPFOR_VK_AF_SELF;
    }
    /* walk toward the mesmerist's side */
    enemy_t en[1];
    vk_lfigs_t lf;
    vk_ugeo_t geo[OPFOR_MAX_UNITS];
    lf.n = 0;
    measure_unit(st, u, &lf, &geo[u]);
    if (enemies_by_distance(st, u, &lf, geo, en, 1) > 0) {
        a = push(l, OPFOR_VK_CONTROL, u);
        if (a) {
            a->figure = (uint16_t)g;
            a->flags = OPFOR_VK_AF_MOVE;
            a->dest = en[0].geo.c; /* vk_unit_geo's centre */
        }
    }
}

int opfor_vk_current(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    (void)ctx;
    switch (st->phase) {
    case OPFOR_VK_PH_START_TURN:
    case OPFOR_VK_PH_INITIATIVE:
    case OPFOR_VK_PH_COMMAND:
        return OPFOR_VK_CHANCE;
    case OPFOR_VK_PH_SELECT_UNIT:
    case OPFOR_VK_PH_ACTION:
    case OPFOR_VK_PH_REACTION:
    case OPFOR_VK_PH_CONTROL:
        return st->side;
    default:
        return OPFOR_VK_TERMINAL;
    }
}

int opfor_vk_legal(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_action_t *out,
                   int max) {
    lister_t l = {out, 0, max, G_ALL};
    switch (st->phase) {
    case OPFOR_VK_PH_START_TURN:
    case OPFOR_VK_PH_INITIATIVE:
    case OPFOR_VK_PH_COMMAND:
        push(&l, OPFOR_VK_ROLL, OPFOR_VK_NONE);
        break;
    case OPFOR_VK_PH_SELECT_UNIT:
        for (int u = 0; u < st->nunits; u++)
            if (st->units[u].side == st->side && unit_ready(st, u))
                push(&l, OPFOR_VK_SELECT_UNIT, u);
        break;
    case OPFOR_VK_PH_ACTION:
        if (ctx->machines &&
            vk_machine_list(ctx, st, l.want, out, max, &l.n)) /* XII.C-D machines, riders */
            break;
        list_actions(ctx, st, &l);
        if (ctx->machines)
            vk_machine_list_more(ctx, st, l.want, out, max, &l.n);
        break;
    case OPFOR_VK_PH_REACTION:
        list_reactions(ctx, st, &l);
        break;
    case OPFOR_VK_PH_CONTROL:
        list_control(ctx, st, &l);
        break;
    default:
        break;
    }
    return l.n;
}

/* Whether some enemy of u is in play on the table (a cheap test: no geometry). */
static int any_enemy(const opfor_vk_state_t *st, int u) {
    int side = st->units[u].side;
    for (int t = 0; t < st->nunits; t++)
        if (st->units[t].side != side && !st->ux[t].removed &&
            !(st->units[t].flags & OPFOR_UNIT_OFF_TABLE) && opfor_vk_unit_present(st, t) > 0)
            return 1;
    return 0;
}

uint32_t opfor_vk_legal_groups(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    if (st->phase != OPFOR_VK_PH_ACTION) {
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS);
        uint32_t m = 0;
        for (int i = 0; i < n; i++)
            m |= G(a[i].kind);
        return m;
    }
    /* A superset, from cheap tests only; groups whose listing turns out empty are dropped by
       the caller (opfor_vk_legal_group returns 0 for them). */
    int u = st->cur;
    const opfor_unit_t *un = &st->units[u];
    unsigned k = allowed_kinds(st, u);
    uint32_t m = 0;
    if (ctx->machines &&
        vk_machine_groups(ctx, st, &m)) /* XII.C-D machines, riders; or-s EMBARK for others */
        return m;
    if (k & K_FIGHT)
        m |= G(OPFOR_VK_FIGHT);
    if (k & K_RALLY)
        m |= G(OPFOR_VK_RALLY);
    if (k & K_STAND) {
        m |= G(OPFOR_VK_STAND);
        if (can_load(st, u, vk_mg_figure(st, u) >= 0, vk_gun_figure(st, u)))
            m |= G(OPFOR_VK_LOAD);
    }
    if (k == K_FIGHT || k == (K_FIGHT | K_RALLY) || k == K_STAND)
        return m;
    int mobile = can_move(ctx, st, u), enemy = any_enemy(st, u);
    if ((k & K_MOVE) && mobile)
        m |= G(OPFOR_VK_ADVANCE) | G(OPFOR_VK_RUN);
    if ((k & K_CRAWL) && mobile)
        m |= G(OPFOR_VK_CRAWL);
    if (enemy && (k & K_FIRE)) {
        if (vk_unit_reach(st, u) > 0.0f) {
            m |= G(OPFOR_VK_FIRE);
            if ((k & (K_MOVE | K_CRAWL)) && mobile) /* advancing or crawling (VI) */
                m |= G(OPFOR_VK_GROUP_MOVING_FIRE);
        }
        if (vk_mg_figure(st, u) >= 0)
            m |= G(OPFOR_VK_FIRE_MG);
        if (vk_can_fire_gun(ctx, st, u))
            m |= G(OPFOR_VK_FIRE_ARTILLERY);
        if (vk_bombers(st, u) > 0)
            m |= G(OPFOR_VK_THROW_BOMB);
    }
    if ((k & K_FIRE) && vk_support_team_ok(ctx, st, u) && st->reg[un->side].lost < st->turn &&
        (enemy || st->reg[un->side].turns > 0))
        m |= G(OPFOR_VK_CALL_SUPPORT);
    if (enemy && (k & K_CHARGE) && vk_gun_figure(st, u) < 0)
        m |= G(OPFOR_VK_CHARGE);
    if ((k & K_HEAL) && (vk_can_heal(st, u) || ((k & K_OTHER) && vk_can_heal_rear(ctx, st, u))))
        m |= G(OPFOR_VK_HEAL);
    if (!(k & K_OTHER))
        return m;
    if (enemy && vk_mesmerists(st, u) > 0)
        m |= G(OPFOR_VK_MESMERIZE);
    if (gun_unit(ctx, st, u))
        m |= (un->flags & OPFOR_UNIT_LIMBERED) ? G(OPFOR_VK_UNLIMBER) : G(OPFOR_VK_LIMBER);
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE) &&
            !(st->figures[i].flags & OPFOR_FIG_MOUNTED)) {
            m |= G(OPFOR_VK_MOUNT);
            break;
        }
    if (vk_can_dismount(st, u))
        m |= G(OPFOR_VK_DISMOUNT);
    if (vk_split_leaders(st, u) >= 2 && st->nunits < OPFOR_MAX_UNITS)
        m |= G(OPFOR_VK_SPLIT);
    if (!(un->flags & OPFOR_UNIT_GENERAL))
        for (int f = 0; f < st->nunits; f++)
            if (f != u && st->units[f].side == un->side && st->units[f].type == un->type &&
                !(st->units[f].flags & OPFOR_UNIT_GENERAL) && !vk_in_melee(st, f) &&
                vk_unit_active(st, f)) {
                m |= G(OPFOR_VK_MERGE);
                break;
            }
    if ((k & K_TOREAR) && (vk_rear_sendable(st, u) > 0 || vk_rear_bound(st, u) > 0))
        m |= G(OPFOR_VK_TO_REAR);
    return m;
}

int opfor_vk_legal_group(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int group,
                         opfor_vk_action_t *out, int max) {
    if (group < 0 || group >= OPFOR_VK_GROUP_COUNT)
        return 0;
    if (st->phase != OPFOR_VK_PH_ACTION) {
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS), k = 0;
        for (int i = 0; i < n && k < max; i++)
            if (a[i].kind == group)
                out[k++] = a[i];
        return k;
    }
    lister_t l = {out, 0, max, G(group)};
    if (ctx->machines &&
        vk_machine_list(ctx, st, l.want, out, max, &l.n)) /* XII.C-D machines, riders */
        return l.n;
    list_actions(ctx, st, &l);
    if (ctx->machines)
        vk_machine_list_more(ctx, st, l.want, out, max, &l.n);
    return l.n;
}

/* ---------------------------------------------------------------- apply */

/* A move with a remount or dismount as part of it (VIII): an advance or run (a crawl
 * dismounts anyway), one of the two at a point OPFOR_VK_AT_START or _AT_END; riders to
 * dismount, or horses to mount (where the unit stands, when before the move; where it stops
 * the riders mount if there is room, else stay on foot). */
static int mount_move_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                         const opfor_vk_action_t *a) {
    unsigned fl = a->flags & (OPFOR_VK_AF_MOUNT | OPFOR_VK_AF_DISMOUNT);
    int u = a->unit;
    if (a->kind == OPFOR_VK_CRAWL || fl == (OPFOR_VK_AF_MOUNT | OPFOR_VK_AF_DISMOUNT) ||
        a->arc > OPFOR_VK_AT_END)
        return 0;
    if (fl == OPFOR_VK_AF_DISMOUNT)
        return vk_can_dismount(st, u);
    if (a->arc == OPFOR_VK_AT_START)
        return vk_can_mount(ctx, st, u);
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE) &&
            !(st->figures[i].flags & OPFOR_FIG_MOUNTED))
            return 1;
    return 0;
}

static int check_action(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                        const opfor_vk_action_t *a) {
    int u = st->cur;
    if (a->kind >= OPFOR_VK_KIND_COUNT)
        return 0;
    switch (st->phase) {
    case OPFOR_VK_PH_START_TURN:
    case OPFOR_VK_PH_INITIATIVE:
    case OPFOR_VK_PH_COMMAND:
        return a->kind == OPFOR_VK_ROLL;
    case OPFOR_VK_PH_SELECT_UNIT:
        return a->kind == OPFOR_VK_SELECT_UNIT && a->unit < st->nunits &&
               st->units[a->unit].side == st->side && unit_ready(st, a->unit);
    case OPFOR_VK_PH_REACTION:
        if (a->kind == OPFOR_VK_REACT_STAND)
            return 1;
        if (a->kind == OPFOR_VK_REACT_FLEE)
            return vk_flight_move(a->arc) >= 0 && a->dest.x == a->dest.x && a->dest.y == a->dest.y;
        if (a->kind == OPFOR_VK_REACT_FIRE)
            return vk_can_defensive_fire(st, st->charge.target);
        if (a->kind == OPFOR_VK_REACT_COUNTER)
            return vk_can_counter(ctx, st, st->charge.target);
        return 0;
    case OPFOR_VK_PH_CONTROL:
        if (a->kind != OPFOR_VK_CONTROL || a->figure != st->units[u].first + st->charge.control)
            return 0;
        if (a->target != OPFOR_VK_NONE &&
            (a->target >= st->nunits || st->units[a->target].side != st->units[u].side ||
             !vk_unit_active(st, a->target)))
            return 0;
        if (a->flags & ~(OPFOR_VK_AF_MOVE | OPFOR_VK_AF_STRIKE | OPFOR_VK_AF_SELF))
            return 0;
        if (a->flags == OPFOR_VK_AF_STRIKE) /* a fellow of that unit in contact */
            return a->target != OPFOR_VK_NONE && fellow_in_contact(st, a->figure, a->target) >= 0;
        if (a->flags == OPFOR_VK_AF_SELF)
            return a->target == OPFOR_VK_NONE;
        return a->flags == 0 || a->flags == OPFOR_VK_AF_MOVE;
    case OPFOR_VK_PH_ACTION:
        break;
    default:
        return 0;
    }
    if (a->unit != u || u == OPFOR_VK_NONE)
        return 0;
    int mr = vk_machine_check(ctx, st, a); /* XII.C-D: decided there, or -1 */
    if (mr >= 0)
        return mr;
    unsigned k = allowed_kinds(st, u);
    if (!(kind_class(a->kind) & k))
        return 0;
    if (a->kind == OPFOR_VK_SELECT_UNIT || a->kind == OPFOR_VK_ROLL ||
        (a->kind >= OPFOR_VK_REACT_STAND && a->kind <= OPFOR_VK_CONTROL))
        return 0;
    const opfor_unit_t *un = &st->units[u];
    int side = un->side;
    int t = a->target;
    int needs_enemy = a->kind == OPFOR_VK_CHARGE || a->kind == OPFOR_VK_FIRE ||
                      a->kind == OPFOR_VK_THROW_BOMB || a->kind == OPFOR_VK_MESMERIZE ||
                      ((a->kind == OPFOR_VK_ADVANCE || a->kind == OPFOR_VK_CRAWL) &&
                       (a->flags & OPFOR_VK_AF_FIRE));
    if (needs_enemy && (t >= st->nunits || st->units[t].side == side || !vk_unit_active(st, t)))
        return 0;
    switch (a->kind) {
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_RUN:
    case OPFOR_VK_CRAWL:
        if (!can_move(ctx, st, u))
            return 0;
        if (a->dest.x != a->dest.x || a->dest.y != a->dest.y)
            return 0;
        if (vk_craft(ctx, st, u) != VK_CRAFT_NONE) { /* XII.D: flights and climbs only */
            int dz = (a->flags & OPFOR_VK_AF_CLIMB)     ? a->arc
                     : (a->flags & OPFOR_VK_AF_DESCEND) ? -(int)a->arc
                                                        : 0;
            if (a->kind != OPFOR_VK_ADVANCE ||
                (a->flags & ~(OPFOR_VK_AF_CLIMB | OPFOR_VK_AF_DESCEND)) ||
                ((a->flags & OPFOR_VK_AF_CLIMB) && (a->flags & OPFOR_VK_AF_DESCEND)) ||
                (dz == 0 && (a->flags & (OPFOR_VK_AF_CLIMB | OPFOR_VK_AF_DESCEND))))
                return 0;
            return vk_fly_ok(ctx, st, u, dz);
        }
        if (a->flags & (OPFOR_VK_AF_CLIMB | OPFOR_VK_AF_DESCEND))
            return 0;
        if ((a->flags & OPFOR_VK_AF_FIRE) &&
            (!(k & K_FIRE) || !vk_fire_target_ok(st, t) || a->kind == OPFOR_VK_RUN))
            return 0; /* no moving fire when the unit may not fire (XI Wavering, IX melee) */
        /* fire at the waypoint (IX: at any point of the move): a moving fire with a waypoint */
        if ((a->flags & OPFOR_VK_AF_FIRE_VIA) &&
            (!(a->flags & OPFOR_VK_AF_FIRE) || !(a->flags & OPFOR_VK_AF_VIA) ||
             a->via.x != a->via.x || a->via.y != a->via.y))
            return 0;
        if (a->flags & (OPFOR_VK_AF_MOUNT | OPFOR_VK_AF_DISMOUNT))
            return mount_move_ok(ctx, st, a);
        return 1;
    case OPFOR_VK_LOAD:
        return can_load(st, u, vk_mg_figure(st, u) >= 0, vk_gun_figure(st, u));
    case OPFOR_VK_FIRE: {
        if (a->flags & OPFOR_VK_AF_AT_CRAFT) /* at a balloon's envelope (XII.D) */
            return a->flags == OPFOR_VK_AF_AT_CRAFT && vk_can_fire_craft(ctx, st, u, t);
        if (!vk_fire_target_ok(st, t))
            return 0;
        /* a named figure (IX): a person of the target that may be shot at */
        if (a->figure != OPFOR_VK_NO_FIGURE && !vk_fire_figure_ok(st, t, a->figure))
            return 0;
        /* one nearest-pair search for the reach and the sight test */
        vk_lfigs_t lf;
        vk_ugeo_t gt;
        int fa, fb;
        float gap = measure_pair(st, u, t, &lf, &gt, &fa, &fb);
        int lv = vk_levels(st, u, t); /* altitude levels add brackets (XII.D) */
        return gap <= (lv ? vk_unit_reach_lv(&ctx->model, st, u, lv) : vk_unit_reach(st, u)) &&
               unit_sees_from(ctx, st, u, t, &lf, gt.n, fa, fb, gap, 1e9f);
    }
    case OPFOR_VK_CHARGE: /* riders neither mount nor dismount during a charge (VIII) */
        return !(a->flags & (OPFOR_VK_AF_MOUNT | OPFOR_VK_AF_DISMOUNT)) &&
               vk_can_charge(ctx, st, u, t);
    case OPFOR_VK_FIRE_MG:
        return a->arc < OPFOR_ARC_180 && vk_can_fire_mg(st, u, a->arc);
    case OPFOR_VK_FIRE_ARTILLERY:
        /* the fall of shot in the crew's sight (IX) */
        if (!vk_can_fire_gun(ctx, st, u) || a->dest.x != a->dest.x || a->dest.y != a->dest.y ||
            !opfor_rect_contains(ctx->sc.table.width, ctx->sc.table.depth, a->dest) ||
            !vk_gun_sees(ctx, st, u, a->dest))
            return 0;
        if (a->flags == 0 && a->figure == OPFOR_VK_NO_FIGURE)
            return 1;
        /* more aim points (via; a figure's place) only for a walker's three shots (XII.E) */
        return vk_gun_shots(ctx, st, u) == 3 && !(a->flags & ~OPFOR_VK_AF_VIA) &&
               (!(a->flags & OPFOR_VK_AF_VIA) ||
                opfor_rect_contains(ctx->sc.table.width, ctx->sc.table.depth, a->via)) &&
               (a->figure == OPFOR_VK_NO_FIGURE ||
                (a->figure < st->nfigures && vk_alive(st, a->figure) &&
                 st->units[st->figures[a->figure].unit].side != side));
    case OPFOR_VK_CALL_SUPPORT:
        return vk_support_team_ok(ctx, st, u) && st->reg[side].lost < st->turn &&
               opfor_rect_contains(ctx->sc.table.width, ctx->sc.table.depth, a->dest);
    case OPFOR_VK_THROW_BOMB:
        return vk_bombers(st, u) > 0 && st->ux[t].altitude == 0 &&
               vk_nearest_pair(st, u, t, NULL, NULL) <= VK_BOMB_RANGE;
    case OPFOR_VK_HEAL:
        return vk_can_heal(st, u) || ((k & K_OTHER) && vk_can_heal_rear(ctx, st, u));
    case OPFOR_VK_MESMERIZE:
        return vk_mesmerists(st, u) > 0 && a->figure < st->nfigures &&
               st->figures[a->figure].unit == t && vk_alive(st, a->figure);
    case OPFOR_VK_LIMBER:
        return gun_unit(ctx, st, u) && !(un->flags & OPFOR_UNIT_LIMBERED);
    case OPFOR_VK_UNLIMBER:
        return gun_unit(ctx, st, u) && (un->flags & OPFOR_UNIT_LIMBERED);
    case OPFOR_VK_MOUNT:
        return vk_can_mount(ctx, st, u);
    case OPFOR_VK_DISMOUNT:
        return vk_can_dismount(st, u);
    case OPFOR_VK_SPLIT:
        if (a->figure != OPFOR_VK_NO_FIGURE)
            return vk_split_ok(st, u, a->figure, a->dest);
        return vk_split_leaders(st, u) >= 2 && st->nunits < OPFOR_MAX_UNITS;
    case OPFOR_VK_MERGE:
        return t < st->nunits && t != u && st->units[t].side == side && vk_unit_active(st, t) &&
               !(st->units[t].flags & OPFOR_UNIT_GENERAL) && !(un->flags & OPFOR_UNIT_GENERAL) &&
               !vk_in_melee(st, t) && vk_nearest_pair(st, u, t, NULL, NULL) <= VK_MERGE_DIST;
    case OPFOR_VK_TO_REAR:
        if (a->flags & ~OPFOR_VK_AF_RETURN)
            return 0;
        return (a->flags & OPFOR_VK_AF_RETURN) ? vk_rear_bound(st, u) > 0
                                               : vk_rear_sendable(st, u) > 0;
    default:
        return 1;
    }
}

static void select_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u,
                        opfor_vk_events_t *ev) {
    st->cur = (uint8_t)u;
    st->restricted = 0;
    st->activations++;
    for (int v = 0; v < st->nunits; v++)
        st->ux[v].casualties = 0;
    opfor_unit_t *un = &st->units[u];
    VK_EV(ev, "%s: %s activates", ctx->sc.sides[un->side].name, un->name);
    /* Running and moving marks last until the unit acts again. */
    unsigned spell = 0; /* a mesmerised or controlled figure: else vk_mesmer_tests does nothing */
    for (int i = un->first; i < un->first + un->count; i++) {
        st->figures[i].flags &= (uint16_t) ~(OPFOR_FIG_RUNNING | OPFOR_FIG_MOVED);
        spell |=
            (st->figures[i].flags & OPFOR_FIG_MESMERIZED) | (st->figx[i] & OPFOR_VK_FX_CONTROLLED);
    }
    if (spell)
        vk_mesmer_tests(ctx, st, u, ev);
    /* a balloon moves with the wind as its move, each time it activates (XII.D) */
    if (ctx->opt.specials && vk_craft(ctx, st, u) != VK_CRAFT_NONE) {
        vk_craft_drift(ctx, st, u, ev);
        if (!vk_unit_active(st, u)) { /* blown off the table */
            vk_mark_acted(st, u);
            end_activation(ctx, st, ev);
            return;
        }
    }
    if (!vk_in_melee(st, u) && vk_needs_command_test(ctx, st, u))
        st->phase = OPFOR_VK_PH_COMMAND;
    else
        st->phase = OPFOR_VK_PH_ACTION;
}

/* The actions with which a unit's musician plays (VII, XI: playing is his Stand, or his Advance
 * when he moves while playing; never while running or crawling, and not in a charge): when
 * the unit stands, loads or rallies, and when the others fire, he plays instead of firing
 * (engine_fire.c skips playing musicians); when it advances, and in a melee unless he made
 * an attack (his action then), he plays as the action ends (do_action). */
static int musician_plays_with(int kind) {
    switch (kind) {
    case OPFOR_VK_STAND:
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_FIRE:
    case OPFOR_VK_FIRE_MG:
    case OPFOR_VK_FIRE_ARTILLERY:
    case OPFOR_VK_LOAD:
    case OPFOR_VK_FIGHT:
    case OPFOR_VK_RALLY:
        return 1;
    default:
        return 0;
    }
}

static void do_control(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                       opfor_vk_events_t *ev) {
    int g = a->figure;
    int u = st->cur;
    st->figx[g] &= (uint8_t)~OPFOR_VK_FX_CONTROLLED;
    if (a->flags & (OPFOR_VK_AF_STRIKE | OPFOR_VK_AF_SELF)) {
        /* XII.B "self-injury, attacks on one's fellows": a blow with his best melee weapon,
           rolled as a melee attack (X), at a fellow in contact or at himself; no cover */
        int j = (a->flags & OPFOR_VK_AF_SELF) ? g : fellow_in_contact(st, g, a->target);
        if (j >= 0) {
            int e = vk_melee_attack(ctx, st, g, j, 0, 0);
            VK_EV(ev, "  a mesmerised figure of %s %s: %s", st->units[u].name,
                  j == g ? "turns his weapon on himself" : "strikes a fellow",
                  e == 2   ? "killed"
                  : e == 1 ? "wounded"
                           : "no harm");
            if (e > 0)
                vk_harm(ctx, st, j, e, 0, 1 - st->units[u].side, ev);
        }
    } else if (a->flags & OPFOR_VK_AF_MOVE) {
        float allow = (float)(vk_move_x(ctx, st, g, VK_MV_ADVANCE) + vk_d3(st));
        float d = vk_move_figure(ctx, st, g, a->dest, allow, -1);
        VK_EV(ev, "  a mesmerised figure of %s walks %.1f in", st->units[u].name, d);
    } else if (a->target != OPFOR_VK_NONE) {
        int t = a->target;
        float d2;
        int j = -1;
        const opfor_unit_t *tu = &st->units[t];
        float bd = 1e30f;
        for (int i = tu->first; i < tu->first + tu->count; i++)
            if (i != g && vk_alive(st, i) && vk_is_person(&st->figures[i])) {
                d2 = opfor_dist2(st->figures[i].pos, st->figures[g].pos);
                if (d2 < bd) {
                    bd = d2;
                    j = i;
                }
            }
        if (j >= 0) {
            float gap = sqrtf(bd) - vk_radius(&st->figures[g]) - vk_radius(&st->figures[j]);
            int w = vk_firearm(&st->figures[g], gap < 0 ? 0 : gap);
            VK_EV(ev, "  a mesmerised figure of %s turns its weapon on %s", st->units[u].name,
                  st->units[t].name);
            if (w >= 0)
                vk_shoot(ctx, st, g, j, w, gap < 0 ? 0 : gap, 0, ev);
        }
    } else {
        VK_EV(ev, "  a mesmerised figure of %s stands idle", st->units[u].name);
    }
    /* next controlled figure, or done */
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figx[i] & OPFOR_VK_FX_CONTROLLED)) {
            st->charge.control = (uint8_t)(i - un->first);
            return;
        }
    end_activation(ctx, st, ev);
}

/* The action phase: a done by its unit. move_d3: the d3 of a move (1..3), 0 to roll it. */
static void do_action(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                      int move_d3, opfor_vk_events_t *ev, vk_move_stop_t *stop) {
    int u = a->unit;
    opfor_unit_t *un = &st->units[u];
    /* SPLIT, MERGE and TO_REAR do not use the action (V.A, IX): the unit goes on to act. */
    if (a->kind == OPFOR_VK_SPLIT) {
        vk_split(ctx, st, u, a->figure == OPFOR_VK_NO_FIGURE ? -1 : (int)a->figure, a->dest, ev);
        return;
    }
    if (a->kind == OPFOR_VK_TO_REAR) {
        /* the wounded go out of line (or the bound come back) during their unit's action, and
           the unit then acts (IX): the activation goes on */
        if (a->flags & OPFOR_VK_AF_RETURN)
            vk_rear_return(ctx, st, u, ev);
        else
            vk_to_rear(ctx, st, u, ev);
        return;
    }
    if (a->kind == OPFOR_VK_MERGE) {
        int into = a->target;
        int joined_acted = (st->units[into].flags & OPFOR_UNIT_ACTED) != 0;
        vk_merge(ctx, st, u, into, ev);
        if (joined_acted) {
            vk_mark_acted(st, into);
            after_action(ctx, st, ev);
        } else {
            st->cur = (uint8_t)into; /* the whole new unit acts now */
        }
        return;
    }
    vk_mark_acted(st, u);
    if (musician_plays_with(a->kind) && a->kind != OPFOR_VK_ADVANCE && a->kind != OPFOR_VK_FIGHT)
        vk_musician_play(ctx, st, u);
    if (vk_machine_do(ctx, st, a, ev)) { /* XII.C-D: boarding, trains, aeroplanes, firing out */
        after_action(ctx, st, ev);
        return;
    }
    switch (a->kind) {
    case OPFOR_VK_STAND:
        VK_EV(ev, "  %s stands", un->name);
        break;
    case OPFOR_VK_RALLY:
        vk_rally(ctx, st, u, ev);
        break;
    case OPFOR_VK_LOAD:
        un->flags |= OPFOR_UNIT_LOADED;
        VK_EV(ev, "  %s loads", un->name);
        break;
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_RUN:
    case OPFOR_VK_CRAWL: {
        int flies = vk_craft(ctx, st, u) != VK_CRAFT_NONE;
        float moved = vk_do_move(ctx, st, a, move_d3, ev, stop);
        if (stop)
            stop->moved = moved;
        if (a->kind == OPFOR_VK_ADVANCE) /* upright now, even if prone before (VI) */
            vk_musician_play(ctx, st, u);
        if (flies)
            break; /* a craft flies: it does not fire on the move */
        /* moving fire (VI, IX) from where the move ended; vk_do_move made it at the
           waypoint when the action says so (OPFOR_VK_AF_FIRE_VIA) */
        if ((a->flags & OPFOR_VK_AF_FIRE) && !(a->flags & OPFOR_VK_AF_FIRE_VIA) &&
            a->kind != OPFOR_VK_RUN && vk_unit_active(st, a->target))
            vk_moving_fire(ctx, st, u, a->target, ev);
        break;
    }
    case OPFOR_VK_CHARGE:
        if (vk_charge(ctx, st, u, a->target, (a->flags & OPFOR_VK_AF_HOLD) != 0, ev)) {
            st->phase = OPFOR_VK_PH_REACTION;
            st->side = st->units[a->target].side;
            return;
        }
        break;
    case OPFOR_VK_FIRE:
        if (a->flags & OPFOR_VK_AF_AT_CRAFT)
            vk_fire_craft(ctx, st, u, a->target, vk_fire_aloft(ctx, st, u), ev);
        else
            vk_fire_unit_at(ctx, st, u, a->target, vk_fire_aloft(ctx, st, u),
                            a->flags & (OPFOR_VK_AF_AIM_WOUNDED | OPFOR_VK_AF_AIM_GENERAL),
                            a->figure == OPFOR_VK_NO_FIGURE ? -1 : a->figure, ev);
        break;
    case OPFOR_VK_FIRE_MG:
        vk_fire_mg(ctx, st, u, a->arc, a->dest, ev);
        break;
    case OPFOR_VK_FIRE_ARTILLERY: {
        /* a walker's three shots: at dest, at via, at the figure's place (XII.E) */
        opfor_pt_t aims[3] = {a->dest, a->dest, a->dest};
        int naims = 1;
        if (a->flags & OPFOR_VK_AF_VIA)
            aims[naims++] = a->via;
        if (a->figure != OPFOR_VK_NO_FIGURE && a->figure < st->nfigures)
            aims[naims++] = st->figures[a->figure].pos;
        vk_fire_gun(ctx, st, u, aims, naims, ev);
        break;
    }
    case OPFOR_VK_CALL_SUPPORT:
        vk_call_support(ctx, st, u, a->dest, ev);
        break;
    case OPFOR_VK_THROW_BOMB:
        vk_throw_bombs(ctx, st, u, a->target, ev);
        break;
    case OPFOR_VK_HEAL:
        vk_heal(ctx, st, u, !st->restricted, ev);
        break;
    case OPFOR_VK_MESMERIZE:
        vk_mesmerize(ctx, st, u, a->figure, ev);
        break;
    case OPFOR_VK_LIMBER:
        un->flags |= OPFOR_UNIT_LIMBERED;
        VK_EV(ev, "  %s limbers up", un->name);
        break;
    case OPFOR_VK_UNLIMBER: {
        un->flags &= (uint16_t)~OPFOR_UNIT_LIMBERED;
        vk_ugeo_t g;
        vk_unit_geo(st, u, &g);
        opfor_vec_t f = opfor_vnorm(opfor_vsub(a->dest, g.c));
        if (f.x != 0.0f || f.y != 0.0f)
            un->facing = f;
        VK_EV(ev, "  %s unlimbers", un->name);
        break;
    }
    case OPFOR_VK_MOUNT:
        vk_mount(ctx, st, u, 1, 0);
        VK_EV(ev, "  %s mounts", un->name);
        break;
    case OPFOR_VK_DISMOUNT:
        vk_mount(ctx, st, u, 0, 0);
        VK_EV(ev, "  %s dismounts", un->name);
        break;
    case OPFOR_VK_FIGHT:
        vk_fight(ctx, st, u, ev);
        vk_musician_play(ctx, st, u); /* unless he attacked (vk_musician_play) */
        break;
    default:
        break;
    }
    after_action(ctx, st, ev);
}

int opfor_vk_apply(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                   opfor_vk_events_t *ev) {
    if (!ctx || !st || !a || !check_action(ctx, st, a))
        return OPFOR_EILLEGAL;
    return opfor_vk_apply_listed(ctx, st, a, ev);
}

int opfor_vk_apply_listed(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st,
                          const opfor_vk_action_t *a, opfor_vk_events_t *ev) {
    switch (st->phase) {
    case OPFOR_VK_PH_START_TURN:
        if (check_end(ctx, st, 1, ev))
            return 0;
        start_turn(ctx, st, ev);
        return 0;
    case OPFOR_VK_PH_INITIATIVE: {
        int s = vk_next_side(ctx, st, ev);
        if (s < 0 || s > 1) {
            st->phase = OPFOR_VK_PH_START_TURN;
            check_end(ctx, st, 1, ev);
            return 0;
        }
        st->side = (uint8_t)s;
        st->phase = OPFOR_VK_PH_SELECT_UNIT;
        return 0;
    }
    case OPFOR_VK_PH_COMMAND:
        if (!vk_command_test(ctx, st, st->cur, ev))
            st->restricted = 1;
        st->phase = OPFOR_VK_PH_ACTION;
        st->side = st->units[st->cur].side;
        return 0;
    case OPFOR_VK_PH_SELECT_UNIT:
        select_unit(ctx, st, a->unit, ev);
        return 0;
    case OPFOR_VK_PH_ACTION:
        do_action(ctx, st, a, 0, ev, NULL);
        return 0;
    case OPFOR_VK_PH_REACTION:
        vk_charge_react(ctx, st, a, ev);
        st->side = st->units[st->cur].side;
        after_action(ctx, st, ev);
        return 0;
    case OPFOR_VK_PH_CONTROL:
        do_control(ctx, st, a, ev);
        return 0;
    default:
        return OPFOR_EILLEGAL;
    }
}

int opfor_vk_apply_move(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                        int d3, opfor_vk_events_t *ev, opfor_vk_move_result_t *out) {
    if (!ctx || !st || !a || d3 < 0 || d3 > 3 || a->unit >= st->nunits ||
        (a->kind != OPFOR_VK_ADVANCE && a->kind != OPFOR_VK_RUN && a->kind != OPFOR_VK_CRAWL))
        return OPFOR_EINVAL;
    if (st->phase != OPFOR_VK_PH_ACTION || !check_action(ctx, st, a))
        return OPFOR_EILLEGAL;
    vk_ugeo_t g0;
    vk_unit_geo(st, a->unit, &g0);
    vk_move_stop_t stop;
    memset(&stop, 0, sizeof stop);
    do_action(ctx, st, a, d3, ev, &stop);
    if (out)
        vk_move_result_fill(ctx, st, a, g0.c, stop.moved, &stop, out);
    return 0;
}

int opfor_vk_apply_move_roll(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st,
                             const opfor_vk_action_t *a, int d3, opfor_vk_events_t *ev) {
    if (d3 < 1 || d3 > 3)
        return OPFOR_EINVAL;
    return opfor_vk_apply_move(ctx, st, a, d3, ev, NULL);
}

void opfor_vk_settle(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    opfor_vk_action_t roll;
    memset(&roll, 0, sizeof roll);
    roll.kind = OPFOR_VK_ROLL;
    roll.unit = OPFOR_VK_NONE;
    roll.target = OPFOR_VK_NONE;
    roll.figure = OPFOR_VK_NO_FIGURE;
    while (opfor_vk_current(ctx, st) == OPFOR_VK_CHANCE)
        opfor_vk_apply(ctx, st, &roll, ev);
}

/* ---------------------------------------------------------------- text, hash, replay */

static const char *const KIND_NAMES[OPFOR_VK_KIND_COUNT] = {
    "roll",         "select_unit", "stand",      "rally",         "load",    "advance",
    "run",          "crawl",       "charge",     "fire",          "fire_mg", "fire_artillery",
    "call_support", "throw_bomb",  "heal",       "mesmerize",     "limber",  "unlimber",
    "mount",        "dismount",    "split",      "merge",         "to_rear", "fight",
    "react_stand",  "react_fire",  "react_flee", "react_counter", "control", "embark",
    "drive",
};

const char *opfor_vk_kind_name(int kind) {
    return kind >= 0 && kind < OPFOR_VK_KIND_COUNT ? KIND_NAMES[kind] : "?";
}

/* The kinds whose text is the unit's name and a set phrase, the target's name after it for
 * those marked. */
static const struct {
    const char *text;
    int target;
} KIND_TEXT[OPFOR_VK_KIND_COUNT] = {
    [OPFOR_VK_STAND] = {" stands", 0},
    [OPFOR_VK_RALLY] = {" tries to rally", 0},
    [OPFOR_VK_LOAD] = {" loads", 0},
    [OPFOR_VK_CHARGE] = {" charges ", 1},
    [OPFOR_VK_THROW_BOMB] = {" throws bombs at ", 1},
    [OPFOR_VK_HEAL] = {"'s medics bind wounds", 0},
    [OPFOR_VK_MESMERIZE] = {" tries to mesmerise a figure of ", 1},
    [OPFOR_VK_LIMBER] = {" limbers", 0},
    [OPFOR_VK_UNLIMBER] = {" unlimbers", 0},
    [OPFOR_VK_MOUNT] = {" mounts", 0},
    [OPFOR_VK_DISMOUNT] = {" dismounts", 0},
    [OPFOR_VK_MERGE] = {" joins ", 1},
    [OPFOR_VK_FIGHT] = {" fights on in the melee", 0},
    [OPFOR_VK_REACT_STAND] = {" stands to receive the charge", 0},
    [OPFOR_VK_REACT_FIRE] = {" fires at the chargers", 0},
    [OPFOR_VK_REACT_COUNTER] = {" counter-charges", 0},
};

/* The remount or dismount of a move (VIII), as a clause after it, or "". */
static const char *mount_words(const opfor_vk_action_t *a) {
    int end = a->arc == OPFOR_VK_AT_END;
    if (a->flags & OPFOR_VK_AF_MOUNT)
        return end ? ", remounting where it stops" : ", remounting first";
    if (a->flags & OPFOR_VK_AF_DISMOUNT)
        return end ? ", dismounting where it stops" : ", dismounting first";
    return "";
}

const char *opfor_vk_action_str(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                                const opfor_vk_action_t *a, char *buf, size_t n) {
    if (!buf || n == 0)
        return buf;
    const char *un = a->unit < st->nunits ? st->units[a->unit].name : "?";
    const char *tn = a->target < st->nunits ? st->units[a->target].name : "?";
    float dist = 0.0f, via_dist = 1e30f;
    if (a->unit < st->nunits) {
        vk_ugeo_t g;
        vk_unit_geo(st, a->unit, &g);
        dist = opfor_dist(g.c, a->dest);
        via_dist = opfor_dist(g.c, a->via);
    }
    if (a->kind < OPFOR_VK_KIND_COUNT && KIND_TEXT[a->kind].text) {
        int hold = (a->flags & OPFOR_VK_AF_HOLD) &&
                   (a->kind == OPFOR_VK_CHARGE ||
                    (a->kind >= OPFOR_VK_REACT_STAND && a->kind <= OPFOR_VK_REACT_COUNTER));
        snprintf(buf, n, "%s%s%s%s", un, KIND_TEXT[a->kind].text,
                 KIND_TEXT[a->kind].target ? tn : "",
                 hold ? ", then holds: no follow-up advance" : "");
        return buf;
    }
    static const char *const ARC[] = {"45-degree", "90-degree", "double 45-degree", "180-degree"};
    switch (a->kind) {
    case OPFOR_VK_ROLL:
        snprintf(buf, n, "Roll the dice (%s)",
                 st->phase == OPFOR_VK_PH_START_TURN   ? "start of turn"
                 : st->phase == OPFOR_VK_PH_INITIATIVE ? "initiative"
                                                       : "command test");
        break;
    case OPFOR_VK_SELECT_UNIT:
        snprintf(buf, n, "%s takes the initiative with %s", ctx->sc.sides[st->side].name, un);
        break;
    case OPFOR_VK_ADVANCE:
        if ((a->flags & OPFOR_VK_AF_FIRE) && (a->flags & OPFOR_VK_AF_FIRE_VIA) && via_dist < 0.25f)
            snprintf(buf, n, "%s fires at %s, then advances toward (%.0f, %.0f)%s", un, tn,
                     a->dest.x, a->dest.y, mount_words(a));
        else if ((a->flags & OPFOR_VK_AF_FIRE) && (a->flags & OPFOR_VK_AF_FIRE_VIA))
            snprintf(buf, n, "%s advances toward (%.0f, %.0f), firing at %s at (%.0f, %.0f)%s", un,
                     a->dest.x, a->dest.y, tn, a->via.x, a->via.y, mount_words(a));
        else if (a->flags & OPFOR_VK_AF_FIRE)
            snprintf(buf, n, "%s advances toward (%.0f, %.0f), firing at %s%s", un, a->dest.x,
                     a->dest.y, tn, mount_words(a));
        else
            snprintf(buf, n, "%s advances toward (%.0f, %.0f), %.0f in away%s", un, a->dest.x,
                     a->dest.y, dist, mount_words(a));
        break;
    case OPFOR_VK_RUN:
        snprintf(buf, n, "%s runs toward (%.0f, %.0f), %.0f in away%s", un, a->dest.x, a->dest.y,
                 dist, mount_words(a));
        break;
    case OPFOR_VK_SPLIT:
        if (a->figure == OPFOR_VK_NO_FIGURE)
            snprintf(buf, n, "%s splits in two", un);
        else
            snprintf(buf, n, "%s splits off the %d figures nearest (%.0f, %.0f)", un, a->figure,
                     a->dest.x, a->dest.y);
        break;
    case OPFOR_VK_TO_REAR:
        snprintf(buf, n, "%s %s", un,
                 (a->flags & OPFOR_VK_AF_RETURN) ? "calls its bound wounded back from the rear"
                                                 : "sends its wounded to the rear");
        break;
    case OPFOR_VK_CRAWL:
        if (dist < 0.5f)
            snprintf(buf, n, "%s takes cover where it stands%s%s", un,
                     (a->flags & OPFOR_VK_AF_FIRE) ? ", firing at " : "",
                     (a->flags & OPFOR_VK_AF_FIRE) ? tn : "");
        else
            snprintf(buf, n, "%s crawls toward (%.0f, %.0f)%s%s", un, a->dest.x, a->dest.y,
                     (a->flags & OPFOR_VK_AF_FIRE) ? ", firing at " : "",
                     (a->flags & OPFOR_VK_AF_FIRE) ? tn : "");
        break;
    case OPFOR_VK_FIRE:
        snprintf(buf, n, "%s fires at %s%s%s", un,
                 (a->flags & OPFOR_VK_AF_AT_CRAFT) ? "the balloon of " : "", tn,
                 (a->flags & OPFOR_VK_AF_AIM_WOUNDED)   ? ", aiming at the wounded"
                 : (a->flags & OPFOR_VK_AF_AIM_GENERAL) ? ", aiming at its leaders"
                                                        : "");
        break;
    case OPFOR_VK_FIRE_MG:
        snprintf(buf, n, "%s fires a %s arc toward %s", un, ARC[a->arc & 3],
                 a->target < st->nunits ? tn : "the aim point");
        break;
    case OPFOR_VK_FIRE_ARTILLERY:
        if (a->flags & OPFOR_VK_AF_VIA) { /* a walker's shots split (XII.E) */
            if (a->figure != OPFOR_VK_NO_FIGURE && a->figure < st->nfigures)
                snprintf(buf, n,
                         "%s fires a shell at (%.0f, %.0f), one at (%.0f, %.0f) and one at "
                         "(%.0f, %.0f)",
                         un, a->dest.x, a->dest.y, a->via.x, a->via.y, st->figures[a->figure].pos.x,
                         st->figures[a->figure].pos.y);
            else
                snprintf(buf, n, "%s fires a shell at (%.0f, %.0f) and two at (%.0f, %.0f)", un,
                         a->dest.x, a->dest.y, a->via.x, a->via.y);
            break;
        }
        snprintf(buf, n, "%s fires at (%.0f, %.0f)%s%s", un, a->dest.x, a->dest.y,
                 a->target < st->nunits ? ", on " : "", a->target < st->nunits ? tn : "");
        break;
    case OPFOR_VK_CALL_SUPPORT:
        snprintf(buf, n, "%s calls for supporting fire on (%.0f, %.0f)", un, a->dest.x, a->dest.y);
        break;
    case OPFOR_VK_REACT_FLEE: {
        int mv = vk_flight_move(a->arc);
        snprintf(buf, n, "%s %s away from the charge", un,
                 mv == VK_MV_CRAWL     ? "crawls"
                 : mv == VK_MV_ADVANCE ? "advances"
                                       : "runs");
        break;
    }
    case OPFOR_VK_CONTROL:
        if (a->flags & OPFOR_VK_AF_MOVE)
            snprintf(buf, n, "The mesmerised figure of %s walks toward (%.0f, %.0f)", un, a->dest.x,
                     a->dest.y);
        else if (a->flags & OPFOR_VK_AF_STRIKE)
            snprintf(buf, n, "The mesmerised figure of %s strikes a fellow of %s", un, tn);
        else if (a->flags & OPFOR_VK_AF_SELF)
            snprintf(buf, n, "The mesmerised figure of %s turns his weapon on himself", un);
        else if (a->target < st->nunits)
            snprintf(buf, n, "The mesmerised figure of %s fires on %s", un, tn);
        else
            snprintf(buf, n, "The mesmerised figure of %s stands idle", un);
        break;
    default:
        if (!vk_machine_str(ctx, st, a, buf, n)) /* XII.C-D: EMBARK, DRIVE */
            snprintf(buf, n, "?");
        break;
    }
    return buf;
}

uint64_t opfor_vk_state_hash(const opfor_vk_state_t *st) {
    return opfor_fnv1a(OPFOR_FNV1A_BASIS, st, sizeof *st);
}

int opfor_vk_replay(const opfor_vk_ctx_t *ctx, uint64_t seed, const opfor_vk_action_t *log, int n,
                    opfor_vk_state_t *st, int *done) {
    opfor_vk_state_init(ctx, st, seed);
    for (int i = 0; i < n; i++) {
        if (opfor_vk_apply(ctx, st, &log[i], NULL) != 0) {
            if (done)
                *done = i;
            return OPFOR_EILLEGAL;
        }
    }
    if (done)
        *done = n;
    return 0;
}
