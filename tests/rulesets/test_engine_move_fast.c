/* tests/rulesets/test_engine_move_fast.c — the fast movement code as the plain version.
 *
 * Movement (rulesets/viktoria/engine_move.c) answers from compact copies, culls and plans: the
 * collision scan skips pairs that never meet or meet only past the allowance (single figures
 * are also sent at others with an allowance near the distance to contact, so the two tie), a
 * bisection's terrain path queries are answered by the plan of its segment when it knows them,
 * stragglers are judged by their neighbours first, and mounting checks only the bases near. Games
 * must not change, so this runs every entry point (a unit's move, one figure's move, coherency,
 * mounting) on copies of thousands of positions from random games, shaken as well, against the code
 * as first written (below, unchanged), and asserts the same answers and the same states to the bit.
 * Three tables: the built-in encounter, the machines demo with the special rules, and a busy table
 * (every kind of feature, enough for the terrain grid).
 */
#include "rulesets/vk_walk_fixture.h"

#include "engine_int.h"
#include "opfor/rng.h"
#include "opfor/scenario.h"
#include "opfor/viktoria/builtin.h"

/* ---------------------------------------------------------------- the plain version
 * rulesets/viktoria/engine_move.c before the fast paths, renamed ref_; its events left out. */

enum { TC_FOOT = 0, TC_MOUNTED, TC_TRANSPORT, TC_WALKER, TC_TRACKED };

static void ref_cohere(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, float allow);

static int ref_terrain_class(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f) {
    const opfor_figure_t *fg = &st->figures[f];
    int ut = st->units[fg->unit].type;
    if (ctx->opt.specials && ut == OPFOR_UT_WALKER)
        return TC_WALKER;
    /* XII.C: wheels pay twice the foot cost in rough ground (as transport), tracks the same */
    if (ctx->opt.specials && ut == OPFOR_UT_VEHICLE && (fg->flags & OPFOR_FIG_EQUIPMENT) &&
        (&ctx->sc.machine[fg->unit])->drive == OPFOR_DRIVE_TRACKED)
        return TC_TRACKED;
    if (fg->flags & OPFOR_FIG_EQUIPMENT)
        return TC_TRANSPORT;
    if (fg->flags & OPFOR_FIG_MOUNTED)
        return TC_MOUNTED;
    return TC_FOOT;
}

static int ref_rides(const opfor_figure_t *f) {
    return (f->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0;
}

typedef struct ref_mover {
    int n;
    int idx[OPFOR_MAX_FIGURES];     /* figure indices */
    float allow[OPFOR_MAX_FIGURES]; /* inches of allowance left */
    uint8_t tclass[OPFOR_MAX_FIGURES];
    uint8_t ride[OPFOR_MAX_FIGURES];
    uint8_t limbered[OPFOR_MAX_FIGURES];
    uint32_t mask[OPFOR_MAX_FIGURES / 32]; /* ref_moving figures, excluded from collisions */
    int nfeat;                             /* movement features the swept box meets */
    uint8_t feat[OPFOR_MAX_FEATURES];
    int npfeat;                        /* features a path query in the swept box must see: */
    uint8_t pfeat[OPFOR_MAX_FEATURES]; /* feat, plus roads that do not matter to this set */
} ref_mover_t;

static void ref_mover_add(ref_mover_t *m, const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                          int f, float allow) {
    int k = m->n++;
    m->idx[k] = f;
    m->allow[k] = allow;
    m->tclass[k] = (uint8_t)ref_terrain_class(ctx, st, f);
    m->ride[k] = (uint8_t)ref_rides(&st->figures[f]);
    m->limbered[k] = (uint8_t)((st->figures[f].flags & OPFOR_FIG_EQUIPMENT) &&
                               (st->units[st->figures[f].unit].flags & OPFOR_UNIT_LIMBERED));
    m->mask[f >> 5] |= 1u << (f & 31);
}

static int ref_moving(const ref_mover_t *m, int f) {
    return (m->mask[f >> 5] >> (f & 31)) & 1;
}

/* Cost in inches of allowance for a path result, and the obstacle penalty (VIII). */
static float ref_path_cost(const opfor_path_t *p, int tclass, int limbered) {
    float rough = p->rough, road = p->road;
    float open = p->length - rough - road;
    if (open < 0.0f)
        open = 0.0f;
    float rf = tclass == TC_FOOT || tclass == TC_TRACKED ? 2.0f : tclass == TC_WALKER ? 1.0f : 4.0f;
    float roadf = (tclass == TC_TRANSPORT || tclass == TC_TRACKED || limbered) ? 0.5f : 1.0f;
    return open + rough * rf + road * roadf + (float)p->obstacles;
}

/* Largest t in [0, tmax] such that ref_moving every figure by t*v keeps it on the table. */
static float ref_edge_limit(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                            const ref_mover_t *m, opfor_vec_t v, float tmax) {
    float W = ctx->sc.table.width, D = ctx->sc.table.depth;
    for (int k = 0; k < m->n; k++) {
        const opfor_figure_t *f = &st->figures[m->idx[k]];
        float r = vk_radius(f);
        float x = f->pos.x, y = f->pos.y;
        if (v.x > 0.0f && x + tmax * v.x > W - r)
            tmax = (W - r - x) / v.x;
        if (v.x < 0.0f && x + tmax * v.x < r)
            tmax = (r - x) / v.x;
        if (v.y > 0.0f && y + tmax * v.y > D - r)
            tmax = (D - r - y) / v.y;
        if (v.y < 0.0f && y + tmax * v.y < r)
            tmax = (r - y) / v.y;
        if (tmax < 0.0f)
            tmax = 0.0f;
    }
    return tmax;
}

/* First contact of ref_moving circles with every other base (VIII: no ref_moving through figures).
 */
static float ref_collide_limit(const opfor_vk_state_t *st, const ref_mover_t *m, opfor_vec_t v,
                               float tmax, int contact_unit, int side) {
    if (tmax <= 0.0f)
        return 0.0f;
    /* swept box of the ref_moving set */
    float lox = 1e30f, loy = 1e30f, hix = -1e30f, hiy = -1e30f;
    for (int k = 0; k < m->n; k++) {
        const opfor_figure_t *f = &st->figures[m->idx[k]];
        float r = vk_radius(f) + VK_ENEMY_GAP + 1.0f;
        float x0 = f->pos.x, y0 = f->pos.y, x1 = x0 + tmax * v.x, y1 = y0 + tmax * v.y;
        if ((x0 < x1 ? x0 : x1) - r < lox)
            lox = (x0 < x1 ? x0 : x1) - r;
        if ((y0 < y1 ? y0 : y1) - r < loy)
            loy = (y0 < y1 ? y0 : y1) - r;
        if ((x0 > x1 ? x0 : x1) + r > hix)
            hix = (x0 > x1 ? x0 : x1) + r;
        if ((y0 > y1 ? y0 : y1) + r > hiy)
            hiy = (y0 > y1 ? y0 : y1) + r;
    }
    float a = opfor_vdot(v, v);
    if (a <= 0.0f)
        return 0.0f;
    /* the movers' bounding circle, swept along the move: others farther from that capsule
       than its radius plus their own cannot be touched */
    float cx = 0.0f, cy = 0.0f;
    for (int k = 0; k < m->n; k++) {
        cx += st->figures[m->idx[k]].pos.x;
        cy += st->figures[m->idx[k]].pos.y;
    }
    opfor_pt_t c0 = opfor_pt(cx / (float)m->n, cy / (float)m->n);
    float rc = 0.0f;
    for (int k = 0; k < m->n; k++) {
        const opfor_figure_t *f = &st->figures[m->idx[k]];
        float d = opfor_dist(c0, f->pos) + vk_radius(f);
        if (d > rc)
            rc = d;
    }
    opfor_pt_t c1 = opfor_pt(c0.x + tmax * v.x, c0.y + tmax * v.y);
    for (int o = 0; o < st->nfigures; o++) {
        const opfor_figure_t *of = &st->figures[o];
        /* the swept box first, without branches: it rejects nearly every figure */
        int out = (of->pos.x < lox) | (of->pos.x > hix) | (of->pos.y < loy) | (of->pos.y > hiy);
        if (out || ref_moving(m, o) || !vk_alive(st, o) || st->ux[of->unit].removed)
            continue;
        int enemy = st->units[of->unit].side != side;
        float gap = (enemy && of->unit != contact_unit) ? VK_ENEMY_GAP : 0.0f;
        float ro = vk_radius(of);
        float reach = rc + ro + gap + 0.01f;
        opfor_pt_t q = opfor_seg_closest(c0, c1, of->pos);
        if (opfor_dist2(q, of->pos) > reach * reach)
            continue;
        for (int k = 0; k < m->n; k++) {
            const opfor_figure_t *f = &st->figures[m->idx[k]];
            float R = vk_radius(f) + ro + gap;
            opfor_vec_t w = opfor_vsub(f->pos, of->pos);
            float b = 2.0f * opfor_vdot(w, v);
            float c = opfor_vdot(w, w) - R * R;
            if (b >= 0.0f)
                continue; /* ref_moving apart (or sideways): never closer than now */
            float th;
            if (c <= 0.0f) {
                th = 0.0f; /* already touching and closing in: cannot move this way */
            } else {
                float disc = b * b - 4.0f * a * c;
                if (disc < 0.0f)
                    continue;
                th = (-b - sqrtf(disc)) / (2.0f * a);
            }
            if (th < tmax)
                tmax = th < 0.0f ? 0.0f : th;
        }
    }
    return tmax;
}

/* Collects into m->feat the movement features the swept box of the move t*v meets;
 * returns how many. */
static int ref_swept_hits_terrain(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                                  ref_mover_t *m, opfor_vec_t v, float t) {
    m->nfeat = 0;
    if (ctx->nmove_feat == 0)
        return 0;
    float lox = 1e30f, loy = 1e30f, hix = -1e30f, hiy = -1e30f;
    int roads_matter = 0;
    for (int k = 0; k < m->n; k++) {
        const opfor_figure_t *f = &st->figures[m->idx[k]];
        float x0 = f->pos.x, y0 = f->pos.y, x1 = x0 + t * v.x, y1 = y0 + t * v.y;
        lox = x0 < lox ? x0 : lox;
        lox = x1 < lox ? x1 : lox;
        hix = x0 > hix ? x0 : hix;
        hix = x1 > hix ? x1 : hix;
        loy = y0 < loy ? y0 : loy;
        loy = y1 < loy ? y1 : loy;
        hiy = y0 > hiy ? y0 : hiy;
        hiy = y1 > hiy ? y1 : hiy;
        roads_matter |= m->tclass[k] == TC_TRANSPORT || m->limbered[k];
    }
    m->npfeat = 0;
    for (int i = 0; i < ctx->sc.table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[i];
        if (f->move == OPFOR_MOVE_OPEN && !(f->flags & OPFOR_TF_NO_MOUNTED))
            continue; /* nothing to a path */
        float pad = 0.5f * f->width + 0.01f;
        if (f->hi.x + pad < lox || f->lo.x - pad > hix || f->hi.y + pad < loy ||
            f->lo.y - pad > hiy)
            continue;
        /* every path query of this move lies in the swept box: features outside it are
           never met, so the path looks at these only (opfor_terrain_path_in) */
        m->pfeat[m->npfeat++] = (uint8_t)i;
        /* A road alone changes nothing for men and riders: it only cancels rough ground,
           which is a feature of its own (VIII). */
        if (f->move == OPFOR_MOVE_OPEN || (f->move == OPFOR_MOVE_ROAD && !roads_matter))
            continue;
        m->feat[m->nfeat++] = (uint8_t)i;
    }
    return m->nfeat;
}

/* Whether segment a-b's box meets any of the mover's features. */
static int ref_seg_near_feature(const opfor_vk_ctx_t *ctx, const ref_mover_t *m, opfor_pt_t a,
                                opfor_pt_t b) {
    float lox = a.x < b.x ? a.x : b.x, hix = a.x > b.x ? a.x : b.x;
    float loy = a.y < b.y ? a.y : b.y, hiy = a.y > b.y ? a.y : b.y;
    for (int i = 0; i < m->nfeat; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[m->feat[i]];
        float pad = 0.5f * f->width + 0.01f;
        if (f->hi.x + pad < lox || f->lo.x - pad > hix || f->hi.y + pad < loy ||
            f->lo.y - pad > hiy)
            continue;
        return 1;
    }
    return 0;
}

/* Whether mover k can afford and make the move t*v; *spent gets the cost. */
static int ref_one_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, const ref_mover_t *m,
                      int k, opfor_vec_t v, float t, float *spent) {
    const opfor_figure_t *f = &st->figures[m->idx[k]];
    opfor_pt_t b = opfor_pt(f->pos.x + t * v.x, f->pos.y + t * v.y);
    float cost;
    if (!ref_seg_near_feature(ctx, m, f->pos, b)) {
        cost = t * opfor_vlen(v); /* open ground all the way */
    } else if (ctx->grid_move && opfor_tgrid_path_open(&ctx->grid, f->pos, b)) {
        cost = opfor_dist(f->pos, b); /* what the path query would say: length only */
    } else {
        opfor_path_t p;
        if (opfor_terrain_path_in(&ctx->sc.table, m->pfeat, m->npfeat, f->pos, b, &p) != 0)
            return 0;
        if (p.impassable || (m->ride[k] && p.no_mounted))
            return 0;
        cost = ref_path_cost(&p, m->tclass[k], m->limbered[k]);
    }
    if (cost > m->allow[k] + 1e-4f)
        return 0;
    if (spent)
        *spent = cost;
    return 1;
}

/* Moves the set by the largest fraction of v allowed; returns that fraction. */
static float ref_move_set(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, ref_mover_t *m,
                          opfor_vec_t v, int contact_unit, int side) {
    float len = opfor_vlen(v);
    if (len < 1e-4f || m->n == 0)
        return 0.0f;
    float minallow = 1e30f;
    for (int k = 0; k < m->n; k++)
        if (m->allow[k] < minallow)
            minallow = m->allow[k];
    if (minallow <= 0.0f)
        return 0.0f;
    float t = 1.0f;
    t = ref_edge_limit(ctx, st, m, v, t);
    t = ref_collide_limit(st, m, v, t, contact_unit, side);
    /* back off a hair from a contact so bases touch rather than overlap */
    float eps = VK_EPS / len;
    int limited_by_contact = t < 1.0f;
    if (limited_by_contact)
        t = t > eps ? t - eps : 0.0f;
    float spent[OPFOR_MAX_FIGURES];
    if (t * len > minallow) /* nobody goes further than open ground allows */
        t = minallow / len;
    if (!ref_swept_hits_terrain(ctx, st, m, v, t)) {
        for (int k = 0; k < m->n; k++)
            spent[k] = t * len;
    } else {
        /* Each figure's own limit, by bisection only for the figures the terrain stops;
           feasibility is monotone in t, so the smallest limit is the formation's. Each
           figure's last successful test (fraction tk, cost spent) is kept: nothing moves
           before the final pass, so a figure tested at the final fraction needs no second
           path query. */
        float tk[OPFOR_MAX_FIGURES];
        for (int k = 0; k < m->n && t > 0.0f; k++) {
            tk[k] = -1.0f;
            if (ref_one_ok(ctx, st, m, k, v, t, &spent[k])) {
                tk[k] = t;
                continue;
            }
            float lo = 0.0f, hi = t;
            for (int it = 0; it < 8; it++) {
                float mid = 0.5f * (lo + hi);
                float sp;
                if (ref_one_ok(ctx, st, m, k, v, mid, &sp)) {
                    lo = mid;
                    tk[k] = mid;
                    spent[k] = sp;
                } else {
                    hi = mid;
                }
            }
            t = lo;
        }
        for (int k = 0; k < m->n && t > 0.0f; k++)
            if (tk[k] != t && !ref_one_ok(ctx, st, m, k, v, t, &spent[k]))
                t = 0.0f;
    }
    if (t <= 0.0f)
        return 0.0f;
    for (int k = 0; k < m->n; k++) {
        opfor_figure_t *f = &st->figures[m->idx[k]];
        f->pos.x += t * v.x;
        f->pos.y += t * v.y;
        m->allow[k] -= spent[k];
    }
    return t;
}

static float ref_move_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int mv,
                           opfor_pt_t dest, int has_via, opfor_pt_t via, int d3, int contact_unit,
                           opfor_vk_events_t *ev) {
    opfor_unit_t *un = &st->units[u];
    int persons_only = (mv & VK_MV_PERSONS) != 0;
    mv &= 3;
    if (d3 <= 0)
        d3 = vk_d3(st);
    ref_mover_t m;
    m.n = 0;
    memset(m.mask, 0, sizeof m.mask);
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i) || (st->figx[i] & OPFOR_VK_FX_CONTROLLED))
            continue;
        opfor_figure_t *f = &st->figures[i];
        if (persons_only && !vk_is_person(f))
            continue;
        if (mv == VK_MV_CRAWL) {
            f->flags &= (uint16_t)~OPFOR_FIG_MOUNTED; /* riders dismount to crawl (VI) */
            f->flags |= OPFOR_FIG_PRONE;
        } else {
            f->flags &= (uint16_t)~OPFOR_FIG_PRONE;
        }
        int x = vk_move_x(ctx, st, i, mv);
        float a = (float)(x + d3);
        ref_mover_add(&m, ctx, st, i, a < 0.0f ? 0.0f : a);
    }
    vk_ugeo_t g;
    vk_unit_geo(st, u, &g);
    opfor_pt_t start = g.c, cur = g.c;
    float total = 0.0f;
    opfor_pt_t legs[2];
    int nlegs = 0;
    if (has_via)
        legs[nlegs++] = via;
    legs[nlegs++] = dest;
    float turn = vk_turn_cost(ctx, st, u, opfor_vsub(legs[0], start));
    for (int k = 0; turn > 0.0f && k < m.n; k++)
        m.allow[k] = m.allow[k] > turn ? m.allow[k] - turn : 0.0f;
    for (int l = 0; l < nlegs; l++) {
        opfor_vec_t v = opfor_vsub(legs[l], cur);
        float len = opfor_vlen(v);
        if (len < 0.05f)
            continue;
        float t = ref_move_set(ctx, st, &m, v, contact_unit, un->side);
        cur = opfor_vadd(cur, opfor_vscale(v, t));
        total += t * len;
        if (t < 0.999f)
            break;
    }
    opfor_vec_t moved = opfor_vsub(cur, start);
    if (total > 0.0f) {
        opfor_vec_t fdir = opfor_vnorm(moved);
        if (fdir.x != 0.0f || fdir.y != 0.0f)
            un->facing = fdir;
        for (int k = 0; k < m.n; k++) {
            opfor_figure_t *f = &st->figures[m.idx[k]];
            f->flags |= OPFOR_FIG_MOVED;
            if (mv == VK_MV_RUN || mv == VK_MV_CHARGE)
                f->flags |= OPFOR_FIG_RUNNING;
        }
    }
    if (mv != VK_MV_CHARGE)
        ref_cohere(ctx, st, u, (float)(vk_move_x(ctx, st, un->first, VK_MV_ADVANCE) + d3));
    (void)ev;
    return total;
}

static float ref_move_figure(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int f, opfor_pt_t p,
                             float allow, int contact_unit) {
    ref_mover_t m;
    m.n = 0;
    memset(m.mask, 0, sizeof m.mask);
    ref_mover_add(&m, ctx, st, f, allow);
    opfor_vec_t v = opfor_vsub(p, st->figures[f].pos);
    float len = opfor_vlen(v);
    if (len < 1e-3f)
        return 0.0f;
    if (len > allow && allow > 0.0f) /* never aim past the allowance: keeps bisection tight */
        v = opfor_vscale(v, allow / len), len = allow;
    float t = ref_move_set(ctx, st, &m, v, contact_unit, st->units[st->figures[f].unit].side);
    if (t > 0.0f)
        st->figures[f].flags |= OPFOR_FIG_MOVED;
    return t * len;
}

static void ref_cohere(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, float allow) {
    const opfor_unit_t *un = &st->units[u];
    /* the living figures' positions, compact (kept up to date as stragglers walk) */
    float px[OPFOR_MAX_FIGURES], py[OPFOR_MAX_FIGURES];
    int idx[OPFOR_MAX_FIGURES], n = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i)) {
            px[n] = st->figures[i].pos.x;
            py[n] = st->figures[i].pos.y;
            idx[n++] = i;
        }
    if (n < 2)
        return;
    for (int k = 0; k < n; k++) {
        int i = idx[k];
        if (!vk_is_person(&st->figures[i]))
            continue; /* guns and wagons do not walk back on their own */
        const opfor_figure_t *f = &st->figures[i];
        float best = 1e30f;
        int bj = -1;
        for (int q = 0; q < n; q++) {
            if (q == k)
                continue;
            float dx = f->pos.x - px[q], dy = f->pos.y - py[q];
            float d = dx * dx + dy * dy;
            if (d < best) {
                best = d;
                bj = idx[q];
            }
        }
        if (bj < 0)
            continue;
        float gap = sqrtf(best) - vk_radius(f) - vk_radius(&st->figures[bj]);
        if (gap <= VK_COHERENCY)
            continue;
        /* walk toward the unit's centre until back within reach of a fellow */
        vk_ugeo_t g;
        vk_unit_geo(st, u, &g);
        opfor_vec_t d = opfor_vnorm(opfor_vsub(g.c, f->pos));
        float need = gap - VK_COHERENCY + 0.5f;
        if (need > allow)
            need = allow;
        ref_move_figure(ctx, st, i, opfor_vadd(f->pos, opfor_vscale(d, need)), need, -1);
        px[k] = st->figures[i].pos.x;
        py[k] = st->figures[i].pos.y;
    }
}

static int ref_mount(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int mount,
                     int dry_run) {
    opfor_unit_t *un = &st->units[u];
    if (!mount) {
        if (dry_run)
            return vk_can_dismount(st, u);
        for (int i = un->first; i < un->first + un->count; i++)
            if (vk_alive(st, i))
                st->figures[i].flags &= (uint16_t)~OPFOR_FIG_MOUNTED;
        return 1;
    }
    int any = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE) &&
            !(st->figures[i].flags & OPFOR_FIG_MOUNTED))
            any = 1;
    if (!any)
        return 0;
    /* In place first. */
    int ok = 1;
    for (int i = un->first; i < un->first + un->count && ok; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!vk_alive(st, i))
            continue;
        int m = (f->flags & (OPFOR_FIG_HORSE | OPFOR_FIG_MOUNTED)) != 0;
        float r = m ? OPFOR_RADIUS_MOUNTED : vk_radius(f);
        if (vk_spot_blocked(ctx, st, i, f->pos, r, m || (f->flags & OPFOR_FIG_EQUIPMENT)))
            ok = 0;
        /* bases of this unit that would overlap each other once mounted */
        for (int j = un->first; j < i && ok; j++) {
            if (!vk_alive(st, j))
                continue;
            const opfor_figure_t *g = &st->figures[j];
            int mj = (g->flags & (OPFOR_FIG_HORSE | OPFOR_FIG_MOUNTED)) != 0;
            float rj = mj ? OPFOR_RADIUS_MOUNTED : vk_radius(g);
            if (opfor_bases_overlap(f->pos, r, g->pos, rj, 0.01f))
                ok = 0;
        }
    }
    opfor_figure_t tmp[OPFOR_MAX_FIGURES];
    int idx[OPFOR_MAX_FIGURES], n = 0;
    if (!ok) {
        /* re-form around the centre with the wider spacing */
        vk_ugeo_t g;
        vk_unit_geo(st, u, &g);
        for (int i = un->first; i < un->first + un->count; i++) {
            if (!vk_alive(st, i))
                continue;
            tmp[n] = st->figures[i];
            if (tmp[n].flags & OPFOR_FIG_HORSE)
                tmp[n].flags |= OPFOR_FIG_MOUNTED;
            idx[n++] = i;
        }
        opfor_unit_place(&opfor_viktoria_terrain_rules.radii, tmp, n, g.c, un->facing,
                         OPFOR_FORMATION_LINE);
        /* spacing for riders: stretch the line so 1.6 in bases fit (place uses foot spacing) */
        for (int k = 0; k < n; k++) {
            opfor_vec_t d = opfor_vsub(tmp[k].pos, g.c);
            tmp[k].pos = opfor_vadd(g.c, opfor_vscale(d, 1.25f));
        }
        ok = 1;
        for (int k = 0; k < n && ok; k++) {
            /* check against everyone but this unit's own figures */
            float r = vk_radius(&tmp[k]);
            opfor_pt_t p = tmp[k].pos;
            if (p.x < r || p.y < r || p.x > ctx->sc.table.width - r ||
                p.y > ctx->sc.table.depth - r ||
                opfor_terrain_impassable_at(&ctx->sc.table, p, 1) >= 0)
                ok = 0;
            for (int o = 0; o < st->nfigures && ok; o++) {
                if (st->figures[o].unit == u || !vk_alive(st, o) ||
                    st->ux[st->figures[o].unit].removed)
                    continue;
                if (opfor_bases_overlap(p, r, st->figures[o].pos, vk_radius(&st->figures[o]),
                                        0.01f))
                    ok = 0;
            }
        }
        if (!ok)
            return 0;
    }
    if (dry_run)
        return 1;
    if (n > 0) {
        for (int k = 0; k < n; k++)
            st->figures[idx[k]].pos = tmp[k].pos;
    }
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE)) {
            st->figures[i].flags |= OPFOR_FIG_MOUNTED;
            st->figures[i].flags &= (uint16_t)~OPFOR_FIG_PRONE;
        }
    return 1;
}

static int ref_can_mount(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int any = 0;
    for (int i = un->first; i < un->first + un->count && !any; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE) &&
            !(st->figures[i].flags & OPFOR_FIG_MOUNTED))
            any = 1;
    if (!any)
        return 0;
    return ref_mount(ctx, (opfor_vk_state_t *)st, u, 1, 1);
}

/* ---------------------------------------------------------------- the comparison */

/* A point within r of c, or anywhere about the table (a little beyond its edges too). */
static opfor_pt_t rand_pt(const opfor_vk_ctx_t *ctx, opfor_rng_t *r, opfor_pt_t c, float rad) {
    if (opfor_rng_below(r, 3) == 0) {
        float w = ctx->sc.table.width, d = ctx->sc.table.depth;
        return opfor_pt((float)opfor_rng_unit(r) * (w + 8.0f) - 4.0f,
                        (float)opfor_rng_unit(r) * (d + 8.0f) - 4.0f);
    }
    return opfor_pt(c.x + ((float)opfor_rng_unit(r) * 2.0f - 1.0f) * rad,
                    c.y + ((float)opfor_rng_unit(r) * 2.0f - 1.0f) * rad);
}

/* A living figure of unit u, or -1. */
static int rand_fig(const opfor_vk_state_t *st, opfor_rng_t *r, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0, pick = -1;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && opfor_rng_below(r, (uint32_t)++n) == 0)
            pick = i;
    return pick;
}

/* Runs one random entry point on a and b (copies of st) by the engine and by the reference;
 * asserts the same answer and the same state. Returns 1 when it ran. */
static int compare_one(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_rng_t *r,
                       opfor_vk_state_t *a, opfor_vk_state_t *b) {
    int u = (int)opfor_rng_below(r, (uint32_t)st->nunits);
    if (!opfor_vk_unit_present(st, u))
        return 0;
    memcpy(a, st, sizeof *a);
    memcpy(b, st, sizeof *b);
    vk_ugeo_t g;
    vk_unit_geo(st, u, &g);
    int contact = opfor_rng_below(r, 3) == 0 ? (int)opfor_rng_below(r, (uint32_t)st->nunits) : -1;
    float x = 0.0f, y = 0.0f;
    switch (opfor_rng_below(r, 6)) {
    case 0:
    case 1: {
        int mv = (int)opfor_rng_below(r, 4) | (opfor_rng_below(r, 4) == 0 ? VK_MV_PERSONS : 0);
        opfor_pt_t dest = rand_pt(ctx, r, g.c, 16.0f), via = rand_pt(ctx, r, g.c, 10.0f);
        int has_via = opfor_rng_below(r, 3) == 0, d3 = (int)opfor_rng_below(r, 4);
        x = vk_move_unit(ctx, a, u, mv, dest, has_via, via, d3, contact, NULL);
        y = ref_move_unit(ctx, b, u, mv, dest, has_via, via, d3, contact, NULL);
        break;
    }
    case 2: {
        int f = rand_fig(st, r, u), o = (int)opfor_rng_below(r, (uint32_t)st->nfigures);
        if (f < 0)
            return 0;
        int aim = (int)opfor_rng_below(r, 2);
        opfor_pt_t p = aim ? st->figures[o].pos : rand_pt(ctx, r, st->figures[f].pos, 10.0f);
        float allow = (float)opfor_rng_unit(r) * 14.0f;
        if (aim && o != f && opfor_rng_below(r, 2)) {
            /* an allowance near the distance to contact: the contact and the allowance tie */
            allow = opfor_dist(st->figures[f].pos, p) - vk_radius(&st->figures[f]) -
                    vk_radius(&st->figures[o]) + ((float)opfor_rng_unit(r) - 0.5f) * 0.6f;
            allow = allow < 0.0f ? 0.0f : allow;
        }
        x = vk_move_figure(ctx, a, f, p, allow, contact);
        y = ref_move_figure(ctx, b, f, p, allow, contact);
        break;
    }
    case 3: {
        float allow = (float)opfor_rng_unit(r) * 12.0f;
        vk_cohere(ctx, a, u, allow);
        ref_cohere(ctx, b, u, allow);
        break;
    }
    case 4: {
        int mount = (int)opfor_rng_below(r, 4) != 0, dry = (int)opfor_rng_below(r, 2);
        x = (float)vk_mount(ctx, a, u, mount, dry);
        y = (float)ref_mount(ctx, b, u, mount, dry);
        break;
    }
    default:
        x = (float)vk_can_mount(ctx, a, u);
        y = (float)ref_can_mount(ctx, b, u);
        break;
    }
    assert_memory_equal(&x, &y, sizeof x);
    assert_memory_equal(a, b, sizeof *a);
    return 1;
}

/* Scratch of the visitor: the shaking stream and three state buffers. */
typedef struct {
    opfor_rng_t jr; /* first: fx_walk_scratch seeds it */
    opfor_vk_state_t tmp, a, b;
} shake_t;

/* At one action: six comparisons on the position as played, then six on a shaken copy
 * (figures nudged into near contact, laid low, sent to the rear, onto a grid of exact ties). */
static long visit(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, void *user) {
    shake_t *sh = user;
    long checked = 0;
    for (int k = 0; k < 6; k++)
        checked += compare_one(ctx, st, &sh->jr, &sh->a, &sh->b);
    opfor_vk_state_t *tmp = &sh->tmp;
    memcpy(tmp, st, sizeof *tmp);
    for (int i = 0; i < tmp->nfigures; i++) {
        opfor_figure_t *f = &tmp->figures[i];
        uint32_t k = opfor_rng_below(&sh->jr, 10);
        if (k == 0)
            f->flags &= (uint16_t)~OPFOR_FIG_ALIVE;
        else if (k == 1)
            f->flags |= OPFOR_FIG_REAR;
        else if (k == 2)
            f->pos = opfor_pt(floorf(f->pos.x), floorf(f->pos.y));
        else if (k <= 5)
            f->pos = opfor_pt(f->pos.x + ((float)opfor_rng_unit(&sh->jr) - 0.5f) * 2.0f,
                              f->pos.y + ((float)opfor_rng_unit(&sh->jr) - 0.5f) * 2.0f);
    }
    for (int k = 0; k < 6; k++)
        checked += compare_one(ctx, tmp, &sh->jr, &sh->a, &sh->b);
    return checked;
}

/* Plays random games on sc and compares at every unit's action, on the position as played
 * and shaken. Returns the comparisons made. */
static long compare_games(const opfor_scenario_t *sc, int specials, int games, uint64_t seed) {
    return fx_walk_scratch(sc, specials, 0, games, seed, 1, visit, sizeof(shake_t));
}

static void move_fast_encounter(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_builtin("competitive_default");
    int games = (int)(16 * fx_scale()) + 2;
    assert_true(compare_games(sc, 0, games, 11) > 4000 * fx_scale());
    assert_true(compare_games(sc, 1, games / 2 + 1, 12) > 2000 * fx_scale());
    fx_scenario_free(sc);
}

static void move_fast_machines(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_machines_demo();
    int games = (int)(12 * fx_scale()) + 2;
    assert_true(compare_games(sc, 1, games, 21) > 2000 * fx_scale());
    assert_true(compare_games(sc, 0, games / 2 + 1, 22) > 1000 * fx_scale());
    fx_scenario_free(sc);
}

/* A busy table: buildings square and not, walls, hedges, a fence, field works, woods, rough
 * ground, roads, a river and a rock; riders with and without horses, limbered guns. */
static opfor_scenario_t *busy_table(void) {
    opfor_scenario_t *sc = fx_new(72.0f, 48.0f);
    fx_rect(sc, OPFOR_TK_BUILDING, 30, 20, 35, 27);
    fx_rect(sc, OPFOR_TK_BUILDING, 40, 30, 44, 34);
    opfor_pt_t hut[5] = {{14, 20}, {19, 19}, {21, 23}, {17, 26}, {13, 24}};
    fx_feature(sc, OPFOR_TK_BUILDING, OPFOR_SHAPE_AREA, hut, 5, 0.0f);
    opfor_pt_t wall[3] = {{24, 12}, {24, 18}, {31, 18}};
    fx_feature(sc, OPFOR_TK_WALL, OPFOR_SHAPE_LINE, wall, 3, 0.5f);
    opfor_pt_t hedge[2] = {{44, 14}, {60, 16}};
    fx_feature(sc, OPFOR_TK_HEDGE, OPFOR_SHAPE_LINE, hedge, 2, 1.0f);
    opfor_pt_t fence[3] = {{8, 30}, {16, 34}, {22, 30}};
    fx_feature(sc, OPFOR_TK_FENCE, OPFOR_SHAPE_LINE, fence, 3, 0.2f);
    opfor_pt_t works[2] = {{48, 36}, {58, 36}};
    fx_feature(sc, OPFOR_TK_FIELD_WORKS, OPFOR_SHAPE_LINE, works, 2, 1.0f);
    opfor_pt_t wood[4] = {{50, 20}, {60, 19}, {62, 28}, {52, 29}};
    fx_feature(sc, OPFOR_TK_WOODS, OPFOR_SHAPE_AREA, wood, 4, 0.0f);
    fx_rect(sc, OPFOR_TK_ROUGH, 4, 10, 12, 16);
    opfor_pt_t road[4] = {{0, 24}, {20, 28}, {40, 28}, {72, 22}};
    fx_feature(sc, OPFOR_TK_ROAD, OPFOR_SHAPE_LINE, road, 4, 2.0f);
    opfor_pt_t lane[2] = {{36, 0}, {36, 48}};
    fx_feature(sc, OPFOR_TK_ROAD, OPFOR_SHAPE_LINE, lane, 2, 1.5f);
    opfor_pt_t river[3] = {{0, 38}, {30, 40}, {72, 37}};
    fx_feature(sc, OPFOR_TK_RIVER, OPFOR_SHAPE_LINE, river, 3, 1.5f);
    opfor_pt_t rock[3] = {{62, 8}, {66, 8}, {64, 12}};
    fx_feature(sc, OPFOR_TK_IMPASSABLE, OPFOR_SHAPE_AREA, rock, 3, 0.0f);
    fx_rect(sc, OPFOR_TK_HILL, 10, 2, 18, 8);
    assert_true(sc->table.nfeatures >= VK_GRID_MOVE_MIN);
    opfor_vec_t up = opfor_pt(0, 1), down = opfor_pt(0, -1);
    fx_unit(sc, "Blue foot", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 12, opfor_pt(24, 6), up,
            OPFOR_FORMATION_LINE, OPFOR_W_RIFLE, 0);
    fx_unit(sc, "Blue horse", 0, OPFOR_UT_CAVALRY, OPFOR_Q_VETERAN, 6, opfor_pt(48, 6), up,
            OPFOR_FORMATION_LINE, OPFOR_W_SWORD, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    int gun = fx_unit(sc, "Blue gun", 0, OPFOR_UT_ARTILLERY, OPFOR_Q_SOLDIER, 4, opfor_pt(36, 4),
                      up, OPFOR_FORMATION_LINE, OPFOR_W_PISTOL, 0);
    fx_fig(sc, gun, 0)->flags |= OPFOR_FIG_EQUIPMENT;
    fx_fig(sc, gun, 0)->weapons = OPFOR_W_FIELD_GUN;
    sc->units[gun].flags |= OPFOR_UNIT_LIMBERED;
    fx_unit(sc, "Red foot", 1, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 10, opfor_pt(30, 44), down,
            OPFOR_FORMATION_COLUMN, OPFOR_W_RIFLE, 0);
    fx_unit(sc, "Red dragoons", 1, OPFOR_UT_CAVALRY, OPFOR_Q_SOLDIER, 6, opfor_pt(56, 44), down,
            OPFOR_FORMATION_LINE, OPFOR_W_RIFLE, OPFOR_FIG_HORSE);
    fx_unit(sc, "Red riders", 1, OPFOR_UT_CAVALRY, OPFOR_Q_ELITE, 5, opfor_pt(12, 44), down,
            OPFOR_FORMATION_LINE, OPFOR_W_SWORD, OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE);
    fx_general(sc, 0, opfor_pt(40, 2));
    fx_general(sc, 1, opfor_pt(40, 46));
    return sc;
}

static void move_fast_busy_table(void **state) {
    (void)state;
    opfor_scenario_t *sc = busy_table();
    int games = (int)(16 * fx_scale()) + 2;
    assert_true(compare_games(sc, 0, games, 31) > 4000 * fx_scale());
    fx_scenario_free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(move_fast_encounter),
        cmocka_unit_test(move_fast_machines),
        cmocka_unit_test(move_fast_busy_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
