/* rulesets/viktoria/engine_move.c — movement (Viktoria! VIII): group moves, terrain costs,
 * collisions, coherency, flight, mounting and limbering. A unit moves as a rigid formation
 * (one d3, each figure's allowance X + d3 with X from the calculator) as far along its leg as
 * every figure can afford without entering impassable terrain, leaving the table or passing
 * through another base. Collisions are solved exactly; terrain is consulted only when the
 * swept box meets a feature that affects movement, then by bisection over terrain paths.
 */
#include <string.h>

#include "engine_int.h"

/* How terrain treats a figure: foot, mounted (or transport), walker (ignores rough), tracked
 * vehicle (rough as on foot, roads as transport). */
enum { TC_FOOT = 0, TC_MOUNTED, TC_TRANSPORT, TC_WALKER, TC_TRACKED };

/* The scenario's machine settings of unit u (zero for units a mode brought on). */
static const opfor_unit_machine_t *machine_of(const opfor_vk_ctx_t *ctx, int u) {
    return &ctx->sc.machine[u];
}

static int terrain_class(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f) {
    const opfor_figure_t *fg = &st->figures[f];
    int ut = st->units[fg->unit].type;
    if (ctx->opt.specials && ut == OPFOR_UT_WALKER)
        return TC_WALKER;
    /* XII.C: wheels pay twice the foot cost in rough ground (as transport), tracks the same */
    if (ctx->opt.specials && ut == OPFOR_UT_VEHICLE && (fg->flags & OPFOR_FIG_EQUIPMENT) &&
        machine_of(ctx, fg->unit)->drive == OPFOR_DRIVE_TRACKED)
        return TC_TRACKED;
    if (fg->flags & OPFOR_FIG_EQUIPMENT)
        return TC_TRANSPORT;
    if (fg->flags & OPFOR_FIG_MOUNTED)
        return TC_MOUNTED;
    return TC_FOOT;
}

/* Whether the figure counts as mounted for terrain closed to riders and guns. */
static int rides(const opfor_figure_t *f) {
    return (f->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0;
}

static int x_of(const opfor_vk_ctx_t *ctx, int mv, int cl, int mounted, int wounded, int limbered) {
    return ctx->tab->move_x[mv][cl][mounted ? 1 : 0][wounded ? 1 : 0][limbered ? 1 : 0];
}

int vk_move_x(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, int mv) {
    const opfor_figure_t *fg = &st->figures[f];
    const opfor_unit_t *un = &st->units[fg->unit];
    int wounded = (fg->flags & OPFOR_FIG_WOUNDED) != 0;
    if (ctx->opt.specials) {
        /* Walkers and automatons move as transport (XII.A, XII.E); vehicles by speed class. */
        if (un->type == OPFOR_UT_WALKER)
            return x_of(ctx, mv == VK_MV_RUN ? VK_MV_RUN : VK_MV_ADVANCE, OPFOR_VK_TRANSPORT, 1, 0,
                        0);
        if (un->type == OPFOR_UT_VEHICLE) {
            /* XII.C speed classes: slow / fast as transport on foot / mounted, very and
               extremely fast twice those; unset, by the model's mount */
            int sp = machine_of(ctx, fg->unit)->speed;
            int mounted = sp == OPFOR_SPEED_UNSET
                              ? (fg->flags & OPFOR_FIG_MOUNTED) != 0
                              : sp == OPFOR_SPEED_FAST || sp == OPFOR_SPEED_EXTREMELY_FAST;
            int x = x_of(ctx, mv == VK_MV_RUN ? VK_MV_RUN : VK_MV_ADVANCE, OPFOR_VK_TRANSPORT,
                         mounted, 0, 0);
            return sp >= OPFOR_SPEED_VERY_FAST ? 2 * x : x;
        }
        if (un->type == OPFOR_UT_AUTOMATON)
            return x_of(ctx, mv == VK_MV_RUN ? VK_MV_RUN : VK_MV_ADVANCE, OPFOR_VK_TRANSPORT,
                        (fg->flags & OPFOR_FIG_MOUNTED) != 0, 0, 0);
    }
    if (fg->flags & OPFOR_FIG_EQUIPMENT) {
        if (un->type == OPFOR_UT_ARTILLERY || un->type == OPFOR_UT_MACHINEGUN) {
            /* A gun or MG goes with its crew: limbered horse artillery as mounted, foot
               artillery on foot (VIII). */
            int best = -1;
            for (int i = un->first; i < un->first + un->count; i++) {
                if (i == f || !vk_alive(st, i) || !vk_is_person(&st->figures[i]))
                    continue;
                const opfor_figure_t *c = &st->figures[i];
                int m = (c->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE)) != 0;
                int x = x_of(ctx, mv, c->quality, m && mv != VK_MV_CRAWL, 0,
                             (un->flags & OPFOR_UNIT_LIMBERED) != 0);
                if (x > best)
                    best = x;
            }
            return best < 0 ? 0 : best;
        }
        return x_of(ctx, mv == VK_MV_RUN ? VK_MV_RUN : VK_MV_ADVANCE, OPFOR_VK_TRANSPORT,
                    (fg->flags & OPFOR_FIG_MOUNTED) != 0, 0,
                    (un->flags & OPFOR_UNIT_LIMBERED) != 0);
    }
    int mounted = (fg->flags & OPFOR_FIG_MOUNTED) != 0 && mv != VK_MV_CRAWL;
    return x_of(ctx, mv, fg->quality, mounted, wounded, 0);
}

/* ---------------------------------------------------------------- the moving set */

typedef struct mover {
    int n;
    int idx[OPFOR_MAX_FIGURES];     /* figure indices */
    float allow[OPFOR_MAX_FIGURES]; /* inches of allowance left */
    uint8_t tclass[OPFOR_MAX_FIGURES];
    uint8_t ride[OPFOR_MAX_FIGURES];
    uint8_t limbered[OPFOR_MAX_FIGURES];
    uint32_t mask[OPFOR_MAX_FIGURES / 32]; /* moving figures, excluded from collisions */
    int nfeat;                             /* movement features the swept box meets */
    uint8_t feat[OPFOR_MAX_FEATURES];
    int npfeat;                        /* features a path query in the swept box must see: */
    uint8_t pfeat[OPFOR_MAX_FEATURES]; /* feat, plus roads that do not matter to this set */
} mover_t;

static void mover_add(mover_t *m, const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f,
                      float allow) {
    int k = m->n++;
    m->idx[k] = f;
    m->allow[k] = allow;
    m->tclass[k] = (uint8_t)terrain_class(ctx, st, f);
    m->ride[k] = (uint8_t)rides(&st->figures[f]);
    m->limbered[k] = (uint8_t)((st->figures[f].flags & OPFOR_FIG_EQUIPMENT) &&
                               (st->units[st->figures[f].unit].flags & OPFOR_UNIT_LIMBERED));
    m->mask[f >> 5] |= 1u << (f & 31);
}

static int moving(const mover_t *m, int f) {
    return (m->mask[f >> 5] >> (f & 31)) & 1;
}

/* Cost in inches of allowance for a path result, and the obstacle penalty (VIII). */
static float path_cost(const opfor_path_t *p, int tclass, int limbered) {
    float rough = p->rough, road = p->road;
    float open = p->length - rough - road;
    if (open < 0.0f)
        open = 0.0f;
    float rf = tclass == TC_FOOT || tclass == TC_TRACKED ? 2.0f : tclass == TC_WALKER ? 1.0f : 4.0f;
    float roadf = (tclass == TC_TRANSPORT || tclass == TC_TRACKED || limbered) ? 0.5f : 1.0f;
    return open + rough * rf + road * roadf + (float)p->obstacles;
}

/* Largest t in [0, tmax] such that moving every figure by t*v keeps it on the table. */
static float edge_limit(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, const mover_t *m,
                        opfor_vec_t v, float tmax) {
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

/* First contact of moving circles with every other base (VIII: no moving through figures). */
static float collide_limit(const opfor_vk_state_t *st, const mover_t *m, opfor_vec_t v, float tmax,
                           int contact_unit, int side) {
    if (tmax <= 0.0f)
        return 0.0f;
    /* swept box of the moving set */
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
        if (out || moving(m, o) || !vk_alive(st, o) || st->ux[of->unit].removed)
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
                continue; /* moving apart (or sideways): never closer than now */
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
static int swept_hits_terrain(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, mover_t *m,
                              opfor_vec_t v, float t) {
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
static int seg_near_feature(const opfor_vk_ctx_t *ctx, const mover_t *m, opfor_pt_t a,
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
static int one_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, const mover_t *m, int k,
                  opfor_vec_t v, float t, float *spent) {
    const opfor_figure_t *f = &st->figures[m->idx[k]];
    opfor_pt_t b = opfor_pt(f->pos.x + t * v.x, f->pos.y + t * v.y);
    float cost;
    if (!seg_near_feature(ctx, m, f->pos, b)) {
        cost = t * opfor_vlen(v); /* open ground all the way */
    } else if (ctx->grid_move && opfor_tgrid_path_open(&ctx->grid, f->pos, b)) {
        cost = opfor_dist(f->pos, b); /* what the path query would say: length only */
    } else {
        opfor_path_t p;
        if (opfor_terrain_path_in(&ctx->sc.table, m->pfeat, m->npfeat, f->pos, b, &p) != 0)
            return 0;
        if (p.impassable || (m->ride[k] && p.no_mounted))
            return 0;
        cost = path_cost(&p, m->tclass[k], m->limbered[k]);
    }
    if (cost > m->allow[k] + 1e-4f)
        return 0;
    if (spent)
        *spent = cost;
    return 1;
}

/* Moves the set by the largest fraction of v allowed; returns that fraction. */
static float move_set(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, mover_t *m, opfor_vec_t v,
                      int contact_unit, int side) {
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
    t = edge_limit(ctx, st, m, v, t);
    t = collide_limit(st, m, v, t, contact_unit, side);
    /* back off a hair from a contact so bases touch rather than overlap */
    float eps = VK_EPS / len;
    int limited_by_contact = t < 1.0f;
    if (limited_by_contact)
        t = t > eps ? t - eps : 0.0f;
    float spent[OPFOR_MAX_FIGURES];
    if (t * len > minallow) /* nobody goes further than open ground allows */
        t = minallow / len;
    if (!swept_hits_terrain(ctx, st, m, v, t)) {
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
            if (one_ok(ctx, st, m, k, v, t, &spent[k])) {
                tk[k] = t;
                continue;
            }
            float lo = 0.0f, hi = t;
            for (int it = 0; it < 8; it++) {
                float mid = 0.5f * (lo + hi);
                float sp;
                if (one_ok(ctx, st, m, k, v, mid, &sp)) {
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
            if (tk[k] != t && !one_ok(ctx, st, m, k, v, t, &spent[k]))
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

/* ---------------------------------------------------------------- group moves */

float vk_turn_cost(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, opfor_vec_t dir) {
    const opfor_unit_t *un = &st->units[u];
    if (!ctx->opt.specials || un->type != OPFOR_UT_VEHICLE || machine_of(ctx, u)->track)
        return 0.0f;
    /* XII.C: the vehicle wheels about a front corner; the other front corner travels an arc
       whose radius is the frontage (the model's base, 2 * OPFOR_RADIUS_EQUIPMENT). */
    return 2.0f * OPFOR_RADIUS_EQUIPMENT * opfor_vangle(un->facing, dir);
}

float vk_move_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int mv, opfor_pt_t dest,
                   int has_via, opfor_pt_t via, int d3, int contact_unit, opfor_vk_events_t *ev) {
    opfor_unit_t *un = &st->units[u];
    int persons_only = (mv & VK_MV_PERSONS) != 0;
    mv &= 3;
    if (d3 <= 0)
        d3 = vk_d3(st);
    mover_t m;
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
        mover_add(&m, ctx, st, i, a < 0.0f ? 0.0f : a);
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
        float t = move_set(ctx, st, &m, v, contact_unit, un->side);
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
        vk_cohere(ctx, st, u, (float)(vk_move_x(ctx, st, un->first, VK_MV_ADVANCE) + d3));
    static const char *const MV[] = {"advances", "runs", "charges", "crawls"};
    VK_EV(ev, "  %s %s %.1f in (d3 = %d)", un->name, MV[mv & 3], total, d3);
    return total;
}

float vk_move_figure(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int f, opfor_pt_t p,
                     float allow, int contact_unit) {
    mover_t m;
    m.n = 0;
    memset(m.mask, 0, sizeof m.mask);
    mover_add(&m, ctx, st, f, allow);
    opfor_vec_t v = opfor_vsub(p, st->figures[f].pos);
    float len = opfor_vlen(v);
    if (len < 1e-3f)
        return 0.0f;
    if (len > allow && allow > 0.0f) /* never aim past the allowance: keeps bisection tight */
        v = opfor_vscale(v, allow / len), len = allow;
    float t = move_set(ctx, st, &m, v, contact_unit, st->units[st->figures[f].unit].side);
    if (t > 0.0f)
        st->figures[f].flags |= OPFOR_FIG_MOVED;
    return t * len;
}

int vk_fly_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int dz) {
    int craft = vk_craft(ctx, st, u), alt = st->ux[u].altitude;
    if (craft == VK_CRAFT_NONE)
        return dz == 0;
    int most = craft == VK_CRAFT_DIRIGIBLE ? 2 : 1;
    if (dz > most || dz < -most || alt + dz < 0 || alt + dz > VK_MAX_ALTITUDE)
        return 0;
    if (dz > 0 && craft == VK_CRAFT_BALLOON && st->ux[u].damage > 0)
        return 0; /* a damaged balloon may no longer ascend */
    return 1;
}

float vk_fly(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_pt_t dest, int dz,
             opfor_vk_events_t *ev) {
    opfor_unit_t *un = &st->units[u];
    float flown = 0.0f;
    if (vk_craft(ctx, st, u) == VK_CRAFT_DIRIGIBLE && st->ux[u].altitude > 0) {
        /* steering: twice transport advance mounted, in any direction (XII.D) */
        int x = ctx->tab->move_x[VK_MV_ADVANCE][OPFOR_VK_TRANSPORT][1][0][0];
        float allow = 2.0f * (float)(x + vk_d3(st));
        vk_ugeo_t g;
        vk_unit_geo(st, u, &g);
        opfor_vec_t v = opfor_vsub(dest, g.c);
        float len = opfor_vlen(v);
        if (len > allow)
            v = opfor_vscale(v, allow / len), len = allow;
        /* over terrain and figures, but not off the table */
        float t = 1.0f, W = ctx->sc.table.width, D = ctx->sc.table.depth;
        for (int i = un->first; i < un->first + un->count; i++) {
            if (!vk_alive(st, i))
                continue;
            const opfor_figure_t *f = &st->figures[i];
            float r = vk_radius(f);
            if (v.x > 0.0f && f->pos.x + t * v.x > W - r)
                t = (W - r - f->pos.x) / v.x;
            if (v.x < 0.0f && f->pos.x + t * v.x < r)
                t = (r - f->pos.x) / v.x;
            if (v.y > 0.0f && f->pos.y + t * v.y > D - r)
                t = (D - r - f->pos.y) / v.y;
            if (v.y < 0.0f && f->pos.y + t * v.y < r)
                t = (r - f->pos.y) / v.y;
            if (t < 0.0f)
                t = 0.0f;
        }
        for (int i = un->first; i < un->first + un->count; i++) {
            if (!vk_alive(st, i))
                continue;
            st->figures[i].pos.x += t * v.x;
            st->figures[i].pos.y += t * v.y;
            if (t > 0.0f)
                st->figures[i].flags |= OPFOR_FIG_MOVED;
        }
        flown = t * len;
        opfor_vec_t fdir = opfor_vnorm(v);
        if (flown > 0.0f && (fdir.x != 0.0f || fdir.y != 0.0f))
            un->facing = fdir;
    }
    if (vk_fly_ok(ctx, st, u, dz))
        st->ux[u].altitude = (uint8_t)(st->ux[u].altitude + dz);
    VK_EV(ev, "  %s flies %.1f in%s, now at altitude %d", un->name, flown,
          dz > 0   ? " climbing"
          : dz < 0 ? " descending"
                   : "",
          st->ux[u].altitude);
    return flown;
}

float vk_flee(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_pt_t from,
              opfor_vk_events_t *ev) {
    vk_ugeo_t g;
    vk_unit_geo(st, u, &g);
    opfor_vec_t away = opfor_vnorm(opfor_vsub(g.c, from));
    if (away.x == 0.0f && away.y == 0.0f)
        away = ctx->home[st->units[u].side];
    /* lean toward the own edge so that flight is to the rear (X) */
    away = opfor_vnorm(opfor_vadd(away, opfor_vscale(ctx->home[st->units[u].side], 0.5f)));
    opfor_pt_t dest = opfor_vadd(g.c, opfor_vscale(away, 40.0f));
    st->ux[u].flags |= OPFOR_VK_UX_FLED;
    VK_EV(ev, "  %s flees", st->units[u].name);
    return vk_move_unit(ctx, st, u, VK_MV_RUN | VK_MV_PERSONS, dest, 0, dest, 0, -1, ev);
}

void vk_cohere(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, float allow) {
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
        vk_move_figure(ctx, st, i, opfor_vadd(f->pos, opfor_vscale(d, need)), need, -1);
        px[k] = st->figures[i].pos.x;
        py[k] = st->figures[i].pos.y;
    }
}

/* ---------------------------------------------------------------- spots, mounting */

int vk_spot_blocked(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int f, opfor_pt_t p,
                    float r, int mounted) {
    if (p.x < r || p.y < r || p.x > ctx->sc.table.width - r || p.y > ctx->sc.table.depth - r)
        return 1;
    if (opfor_terrain_impassable_at(&ctx->sc.table, p, mounted) >= 0)
        return 1;
    for (int o = 0; o < st->nfigures; o++) {
        if (o == f || !vk_alive(st, o) || st->ux[st->figures[o].unit].removed)
            continue;
        if (opfor_bases_overlap(p, r, st->figures[o].pos, vk_radius(&st->figures[o]), 0.01f))
            return 1;
    }
    return 0;
}

int vk_can_dismount(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_MOUNTED))
            return 1;
    return 0;
}

/* Mounting (VIII): riders with horses mount in place; when the bigger bases would overlap,
 * the unit re-forms around its centre (opfor_unit_place) and every spot must be free. */
int vk_mount(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int mount, int dry_run) {
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
        opfor_unit_place(tmp, n, g.c, un->facing, OPFOR_FORMATION_LINE);
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

int vk_can_mount(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int any = 0;
    for (int i = un->first; i < un->first + un->count && !any; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE) &&
            !(st->figures[i].flags & OPFOR_FIG_MOUNTED))
            any = 1;
    if (!any)
        return 0;
    return vk_mount(ctx, (opfor_vk_state_t *)st, u, 1, 1);
}
