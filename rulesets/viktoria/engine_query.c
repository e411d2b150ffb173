/* rulesets/viktoria/engine_query.c — read-only questions about a position for the AI
 * (opfor/viktoria/engine_query.h).
 *
 * The one file outside the engine proper that includes engine_int.h: each function forwards
 * to an engine helper or reads a context field, so the AI sees a stable, narrow surface
 * while the engine's internals keep changing. Nothing here writes to a state or context.
 */
#include "opfor/viktoria/engine_query.h"

#include <math.h>
#include <string.h>

#include "engine_int.h"
#include "opfor/viktoria/calc.h"

const opfor_viktoria_model_t *opfor_vk_query_model(const opfor_vk_ctx_t *ctx) {
    return &ctx->model;
}

const opfor_table_t *opfor_vk_query_table(const opfor_vk_ctx_t *ctx) {
    return &ctx->sc.table;
}

opfor_vec_t opfor_vk_query_home(const opfor_vk_ctx_t *ctx, int side) {
    return ctx->home[side & 1];
}

void opfor_vk_query_geo(const opfor_vk_state_t *st, int u, opfor_vk_ugeo_t *g) {
    vk_ugeo_t v;
    vk_unit_geo(st, u, &v);
    g->c = v.c;
    g->r = v.r;
    g->n = v.n;
}

float opfor_vk_query_gap(const opfor_vk_state_t *st, int a, int b) {
    return vk_nearest_pair(st, a, b, NULL, NULL);
}

int opfor_vk_query_sees(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t) {
    return vk_unit_sees(ctx, st, u, t, 1e9f);
}

int opfor_vk_query_los(const opfor_vk_ctx_t *ctx, opfor_pt_t a, opfor_pt_t b) {
    return opfor_tgrid_los_r(&ctx->grid, &ctx->sc.table, a, OPFOR_RADIUS_FOOT, b, OPFOR_RADIUS_FOOT,
                             NULL);
}

int opfor_vk_query_cover(const opfor_vk_ctx_t *ctx, opfor_pt_t from, opfor_pt_t at, float r) {
    if (r > OPFOR_TGRID_COVER_R)
        return (int)opfor_terrain_cover(&ctx->sc.table, from, at, r, NULL);
    return (int)opfor_tgrid_cover(&ctx->grid, &ctx->sc.table, from, at, r, NULL);
}

int opfor_vk_query_cover_any(const opfor_vk_ctx_t *ctx, opfor_pt_t at, float r) {
    const opfor_table_t *t = &ctx->sc.table;
    uint64_t mask = r <= OPFOR_TGRID_COVER_R ? opfor_tgrid_at(&ctx->grid, OPFOR_TGRID_COVER, at)
                                             : ctx->grid.layer_all[OPFOR_TGRID_COVER];
    int best = OPFOR_COVER_NONE;
    for (int i = 0; i < t->nfeatures && mask; i++) {
        if (!(mask & (UINT64_C(1) << i)))
            continue;
        mask &= ~(UINT64_C(1) << i);
        const opfor_terrain_feature_t *f = &t->features[i];
        if (f->cover <= best)
            continue;
        float m = r + OPFOR_LINE_COVER_DIST + 0.5f * f->width;
        if (at.x < f->lo.x - m || at.x > f->hi.x + m || at.y < f->lo.y - m || at.y > f->hi.y + m)
            continue;
        int in;
        if (f->shape == OPFOR_SHAPE_AREA)
            in = opfor_feature_circle_overlap(f, at, r);
        else
            in = opfor_polyline_dist_pt(f->pts, f->npts, at) <=
                 0.5f * f->width + r + OPFOR_LINE_COVER_DIST;
        if (in)
            best = f->cover;
    }
    return best;
}

int opfor_vk_query_impassable(const opfor_vk_ctx_t *ctx, opfor_pt_t p, int mounted) {
    return opfor_terrain_impassable_at(&ctx->sc.table, p, mounted) >= 0;
}

float opfor_vk_query_reach(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return vk_unit_reach(st, u);
}

float opfor_vk_query_charge_reach(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return vk_charge_reach(ctx, st, u);
}

int opfor_vk_query_can_charge(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t) {
    return vk_can_charge(ctx, st, u, t);
}

float opfor_vk_query_move(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int kind) {
    int mv = kind == OPFOR_VK_RUN      ? VK_MV_RUN
             : kind == OPFOR_VK_CRAWL  ? VK_MV_CRAWL
             : kind == OPFOR_VK_CHARGE ? VK_MV_CHARGE
                                       : VK_MV_ADVANCE;
    const opfor_unit_t *un = &st->units[u];
    int slow = -1;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        int x = vk_move_x(ctx, st, i, mv);
        if (slow < 0 || x < slow)
            slow = x;
    }
    return slow < 0 ? 0.0f : (float)slow + 2.0f;
}

float opfor_vk_query_command_distance(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                                      int u) {
    return vk_command_distance(ctx, st, u);
}

int opfor_vk_query_needs_command_test(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                                      int u) {
    return vk_needs_command_test(ctx, st, u);
}

float opfor_vk_query_command_radius(const opfor_vk_state_t *st) {
    return (float)opfor_viktoria_command_radius(st->level ? st->level : 1);
}

int opfor_vk_query_gun_figure(const opfor_vk_state_t *st, int u) {
    return vk_gun_figure(st, u);
}

int opfor_vk_query_mg_figure(const opfor_vk_state_t *st, int u) {
    return vk_mg_figure(st, u);
}

int opfor_vk_query_in_melee(const opfor_vk_state_t *st, int u) {
    return vk_in_melee(st, u);
}

int opfor_vk_query_fig_present(const opfor_vk_state_t *st, int f) {
    return vk_alive(st, f);
}

int opfor_vk_query_shooters(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                            unsigned aim) {
    if (u < 0 || t < 0 || u >= st->nunits || t >= st->nunits)
        return 0;
    return vk_fire_count(ctx, st, u, t, aim);
}

int opfor_vk_query_shooters_at(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                               unsigned aim, int fig) {
    if (u < 0 || t < 0 || u >= st->nunits || t >= st->nunits)
        return 0;
    return vk_fire_count_at(ctx, st, u, t, aim, fig == OPFOR_VK_NO_FIGURE ? -1 : fig);
}

int opfor_vk_query_defensive_shooters(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    return vk_defensive_count(ctx, st, NULL);
}

float opfor_vk_query_defensive_range(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    float r;
    vk_defensive_count(ctx, st, &r);
    return r;
}

int opfor_vk_query_morale_roll(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                               opfor_roll_t *out, int *bits) {
    if (!ctx || !st || !out || u < 0 || u >= st->nunits)
        return -1;
    int b = 0;
    vk_roll_t r;
    if (vk_morale_need(ctx, st, u, &b, &r) < 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->kind = (opfor_roll_kind_t)r.kind;
    out->need = r.need;
    out->need2 = r.need2;
    out->p_rendered = opfor_roll_chance(out->kind, out->need, out->need2);
    out->p_exact = out->p_rendered;
    if (bits)
        *bits = b;
    return 0;
}

int opfor_vk_query_rally_chance(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                                double *p) {
    if (!ctx || !st || !p || u < 0 || u >= st->nunits)
        return -1;
    const vk_roll_t *rr = vk_rally_need(ctx, st, u);
    *p = opfor_roll_chance((opfor_roll_kind_t)rr->kind, rr->need, rr->need2);
    return 0;
}

int opfor_vk_query_mg_tests(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int arc,
                            opfor_pt_t aim) {
    if (!ctx || !st || u < 0 || u >= st->nunits)
        return 0;
    return vk_mg_count(ctx, st, u, arc, aim);
}

int opfor_vk_query_mg_tests_side(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                                 int arc, opfor_pt_t aim, int side) {
    if (!ctx || !st || u < 0 || u >= st->nunits)
        return 0;
    return vk_mg_count_units(ctx, st, u, arc, aim, side, NULL);
}

int opfor_vk_query_mg_tests_units(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                                  int arc, opfor_pt_t aim, int *per_unit) {
    if (!ctx || !st || !per_unit || u < 0 || u >= st->nunits)
        return 0;
    return vk_mg_count_units(ctx, st, u, arc, aim, -1, per_unit);
}

_Static_assert((int)OPFOR_VK_STOP_ARRIVED == (int)VK_STOP_ARRIVED &&
                   (int)OPFOR_VK_STOP_ALLOWANCE == (int)VK_STOP_ALLOWANCE &&
                   (int)OPFOR_VK_STOP_GROUND == (int)VK_STOP_GROUND &&
                   (int)OPFOR_VK_STOP_UNIT == (int)VK_STOP_UNIT &&
                   (int)OPFOR_VK_STOP_EDGE == (int)VK_STOP_EDGE,
               "the public stop reasons are the engine's");

/* The feature closed to unit u's figures just beyond where they stand, along dir: the ground
 * that stopped them (-1 when none is found). */
static int ground_ahead(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                        opfor_vec_t dir) {
    const opfor_unit_t *un = &st->units[u];
    int best = -1;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        const opfor_figure_t *f = &st->figures[i];
        opfor_pt_t a = f->pos, b = opfor_vadd(f->pos, opfor_vscale(dir, 0.5f));
        opfor_path_t p;
        if (opfor_terrain_path(&ctx->sc.table, a, b, &p) != 0)
            continue;
        int closed = p.impassable ||
                     (p.no_mounted && (f->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)));
        if (closed && p.blocker >= 0 && (best < 0 || p.blocker < best))
            best = p.blocker;
    }
    return best;
}

void vk_move_result_fill(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *after,
                         const opfor_vk_action_t *a, opfor_pt_t from, float moved,
                         const vk_move_stop_t *stop, opfor_vk_move_result_t *out) {
    vk_ugeo_t g1;
    vk_unit_geo(after, a->unit, &g1);
    memset(out, 0, sizeof *out);
    out->from = from;
    /* where the block of figures ends, as the table moves it; the engine then closes up its
       stragglers (cohesion), which may shift the centre by a fraction of an inch */
    out->to = stop->has_block ? stop->block : g1.n > 0 ? g1.c : from;
    out->moved = moved;
    out->allowance = stop->allowance;
    out->why = stop->why;
    out->d3 = stop->d3;
    out->feature = -1;
    out->unit = -1;
    if (stop->why == VK_STOP_UNIT && stop->fig >= 0 && stop->fig < after->nfigures)
        out->unit = after->figures[stop->fig].unit;
    if (stop->why == VK_STOP_GROUND) {
        opfor_pt_t aim = (a->flags & OPFOR_VK_AF_VIA) && opfor_dist(out->to, a->via) > 0.05f &&
                                 opfor_dist(from, a->via) > opfor_dist(out->to, a->via)
                             ? a->via
                             : a->dest;
        out->feature = ground_ahead(ctx, after, a->unit, opfor_vnorm(opfor_vsub(aim, out->to)));
    }
}

int opfor_vk_query_move_result(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                               const opfor_vk_action_t *a, int d3, opfor_vk_move_result_t *out) {
    if (!ctx || !st || !a || !out || d3 < 1 || d3 > 3 || a->unit >= st->nunits ||
        (a->kind != OPFOR_VK_ADVANCE && a->kind != OPFOR_VK_RUN && a->kind != OPFOR_VK_CRAWL))
        return OPFOR_EINVAL;
    opfor_vk_state_t cp;
    memcpy(&cp, st, sizeof cp);
    vk_ugeo_t g0;
    vk_unit_geo(&cp, a->unit, &g0);
    vk_move_stop_t stop;
    float moved = vk_do_move(ctx, &cp, a, d3, NULL, &stop);
    vk_move_result_fill(ctx, &cp, a, g0.c, moved, &stop, out);
    return 0;
}

int opfor_vk_query_inert(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                         const opfor_vk_action_t *a) {
    if (!ctx || !st || !a)
        return 0;
    if (st->phase != OPFOR_VK_PH_ACTION || a->unit >= st->nunits)
        return 0;
    if (a->kind == OPFOR_VK_FIRE && (a->flags & OPFOR_VK_AF_AT_CRAFT))
        return opfor_vk_query_craft_shooters(ctx, st, a->unit, a->target) == 0;
    if (a->kind == OPFOR_VK_FIRE)
        return a->target < st->nunits &&
               opfor_vk_query_shooters(
                   ctx, st, a->unit, a->target,
                   a->flags & (OPFOR_VK_AF_AIM_WOUNDED | OPFOR_VK_AF_AIM_GENERAL)) == 0;
    if (a->kind == OPFOR_VK_FIRE_MG)
        return opfor_vk_query_mg_tests(ctx, st, a->unit, a->arc, a->dest) == 0;
    if (a->kind != OPFOR_VK_ADVANCE && a->kind != OPFOR_VK_RUN && a->kind != OPFOR_VK_CRAWL)
        return 0;
    if (a->flags &
        (OPFOR_VK_AF_MOUNT | OPFOR_VK_AF_DISMOUNT | OPFOR_VK_AF_CLIMB | OPFOR_VK_AF_DESCEND))
        return 0; /* it changes the unit even where it stands */
    if ((a->flags & OPFOR_VK_AF_FIRE) && a->target < st->nunits &&
        opfor_vk_query_shooters(ctx, st, a->unit, a->target, 0) > 0)
        return 0; /* moving fire (VI, IX): it shoots even if it cannot move */
    opfor_vk_ugeo_t geo;
    opfor_vk_query_geo(st, a->unit, &geo);
    if (a->kind == OPFOR_VK_CRAWL && opfor_dist(geo.c, a->dest) < 0.5f)
        return 0; /* going prone where it stands: taking cover */
    opfor_vk_move_result_t best;
    if (opfor_vk_query_move_result(ctx, st, a, 3, &best) != 0)
        return 0;
    return best.moved < 0.25f;
}

int opfor_vk_query_fire_aloft(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return ctx && st && u >= 0 && u < st->nunits && vk_fire_aloft(ctx, st, u);
}

int opfor_vk_query_levels(const opfor_vk_state_t *st, int u, int t) {
    if (!st || u < 0 || t < 0 || u >= st->nunits || t >= st->nunits)
        return 0;
    return vk_levels(st, u, t);
}

int opfor_vk_query_craft_running(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int t) {
    return ctx && st && t >= 0 && t < st->nunits && vk_craft_running(ctx, st, t);
}

int opfor_vk_query_craft_damage(const opfor_vk_state_t *st, int t) {
    return st && t >= 0 && t < st->nunits ? st->ux[t].damage : 0;
}

int opfor_vk_query_craft_shooters(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                                  int t) {
    if (!ctx || !st || u < 0 || t < 0 || u >= st->nunits || t >= st->nunits ||
        !vk_can_fire_craft(ctx, st, u, t))
        return 0;
    return vk_fire_craft_count(ctx, st, u, t);
}

int opfor_vk_query_altitude(const opfor_vk_state_t *st, int u) {
    return st && u >= 0 && u < st->nunits ? st->ux[u].altitude : 0;
}

int opfor_vk_query_envelope_class(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int t) {
    return ctx && st && t >= 0 && t < st->nunits ? vk_envelope_class(ctx, t) : -1;
}

int opfor_vk_query_support_team(const opfor_vk_ctx_t *ctx, int side) {
    return ctx && (side == 0 || side == 1) ? ctx->support_team[side] : 1;
}
