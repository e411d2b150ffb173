/* rulesets/splendid/engine_move.c — the manoeuvre phases (§The Movement Phase and the sections
 * after it; docs/splendid.md 4.5-4.7): each unit of the moving side takes its one action
 * (change of formation, manoeuvre with free turns, about-face, side-step and step-back,
 * double time, charge with its test, disengage, limber, unlimber, prolong, mount, dismount,
 * voluntary retreat), offered as a short list of candidate destinations; and the charged
 * side's decision on contact (stand, defensive fire) with artillery's compulsory fire or
 * overrun. The other reactions (intercept, counter-charge, recoil, evade, hasty defensive
 * block, emergency about-face) and break-throughs hang on the same decision point
 * (SV_P_REACT) in a later part.
 */
#include <math.h>
#include <string.h>

#include "engine_int.h"

#define COS45 0.70710678f

static opfor_action_t act(int kind, int unit) {
    opfor_action_t a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.unit = (uint8_t)unit;
    a.target = OPFOR_ACTION_NONE;
    return a;
}

/* The distance from m (moved, of side `side`) to the nearest enemy; *who gets that enemy's
 * index (the first of equals), -1 when there is none. */
static float enemy_dist_g(const sv_state_t *s, const sv_geo_t *g, const opfor_pt_t rm[4], int side,
                          int *who) {
    float best = 1e30f, bm[4], gaps[SV_MAX_UNITS];
    int bi = -1, order[SV_MAX_UNITS], n = 0;
    sv_box(rm, bm);
    for (int i = 0; i < s->nunits; i++) /* the enemies by their boxes' gap, nearest first */
        if (s->u[i].side != side && sv_alive(&s->u[i])) {
            float gap = sv_box_gap(bm, g->box[i]);
            int k = n++;
            for (; k > 0 && gaps[k - 1] > gap; k--) {
                gaps[k] = gaps[k - 1];
                order[k] = order[k - 1];
            }
            gaps[k] = gap;
            order[k] = i;
        }
    /* a gap is a lower bound of the distance: once past the best, no enemy is nearer; equals
     * go to the first in the list, as a scan in order gives */
    for (int k = 0; k < n && gaps[k] <= best; k++) {
        int i = order[k];
        float d = sv_rect_dist_gap(rm, g->r[i], gaps[k]);
        if (d < best || (d == best && i < bi)) {
            best = d;
            bi = i;
        }
    }
    if (who)
        *who = bi;
    return best;
}

/* m (unit ui moved) stands on the table, overlaps nobody, and touches no enemy except
 * `ignore` (which it may touch but not overlap). */
static int placement_g(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int ui,
                       const sv_unit_t *m, int ignore) {
    opfor_pt_t rm[4];
    float bm[4];
    sv_rect(c, m, rm);
    if (!sv_on_table(c, rm) || !sv_terrain_ok(c, m, rm))
        return 0;
    sv_box(rm, bm);
    float tol = c->opt.contact_tolerance;
    for (int k = 0; k < s->nunits; k++) {
        const sv_unit_t *o = &s->u[k];
        if (k == ui || !sv_alive(o))
            continue;
        float gap = sv_box_gap(bm, g->box[k]);
        if (gap <= 0.0f && sv_rect_sat(rm, g->r[k], 0.01f))
            return 0;
        if (k != ignore && o->side != m->side && sv_rect_near_gap(rm, g->r[k], gap, tol))
            return 0; /* only a charge brings a unit into contact */
    }
    return 1;
}

/* §The Movement Phase: a stand that leaves the table, even partly, is removed at once (deemed
 * routed, so it counts in the tally) and the rest of its unit carries on. m is the unit placed
 * where its manoeuvre ends. Its stands stand in ranks of `files` from the front, the rear rank
 * centred; those with a corner off the table are lost, the more numerous stand type first (as
 * sv_remove). The survivors keep formation and facing, re-formed about the same front centre
 * and moved straight back inside the edges they crossed. Returns the stands lost; m then
 * holds the survivors (n 0 when none is left). */
static int off_table(const sv_ctx_t *c, sv_unit_t *m) {
    /* no corner lies further from the anchor along x or y than these */
    float hw = 0.5f * sv_width(c, m), d = sv_depth(c, m);
    float ex = fabsf(m->fy) * hw + fabsf(m->fx) * d, ey = fabsf(m->fx) * hw + fabsf(m->fy) * d;
    if (m->x > ex && m->y > ey && m->x < c->width - ex && m->y < c->depth - ey)
        return 0;
    opfor_pt_t r[4];
    sv_rect(c, m, r);
    if (sv_on_table(c, r))
        return 0;
    int cls = sv_class(m), files = m->files ? m->files : 1, ranks = sv_ranks(m), lost = 0;
    float bw = c->base_w[cls], bd = c->base_d[cls];
    opfor_vec_t f = opfor_pt(m->fx, m->fy), rv = opfor_pt(m->fy, -m->fx);
    for (int k = 0; k < ranks; k++) {
        int in_rank = k < ranks - 1 ? files : m->n - files * (ranks - 1);
        float off = 0.5f * (float)(files - in_rank);
        for (int j = 0; j < in_rank; j++) {
            opfor_pt_t q[4];
            q[0] = opfor_vadd(r[0], opfor_vsub(opfor_vscale(rv, (off + (float)j) * bw),
                                               opfor_vscale(f, (float)k * bd)));
            q[1] = opfor_vadd(q[0], opfor_vscale(rv, bw));
            q[2] = opfor_vsub(q[1], opfor_vscale(f, bd));
            q[3] = opfor_vsub(q[0], opfor_vscale(f, bd));
            lost += !sv_on_table(c, q);
        }
    }
    for (int i = 0; i < lost; i++) { /* the owner's choice, fixed: as sv_remove */
        if (m->a > m->n - m->a)
            m->a--;
        m->n--;
    }
    if (m->a > m->n)
        m->a = m->n;
    if (m->n == 0)
        return lost;
    sv_refit(m);
    sv_rect(c, m, r);
    float lo_x = 0.0f, hi_x = 0.0f, lo_y = 0.0f, hi_y = 0.0f;
    for (int i = 0; i < 4; i++) {
        lo_x = -r[i].x > lo_x ? -r[i].x : lo_x;
        hi_x = r[i].x - c->width > hi_x ? r[i].x - c->width : hi_x;
        lo_y = -r[i].y > lo_y ? -r[i].y : lo_y;
        hi_y = r[i].y - c->depth > hi_y ? r[i].y - c->depth : hi_y;
    }
    m->x += lo_x - hi_x;
    m->y += lo_y - hi_y;
    return lost;
}

/* Every unit's rectangle and box only (no contacts): enough for placements and paths. */
static void geo_rects(const sv_ctx_t *c, const sv_state_t *s, sv_geo_t *g) {
    for (int i = 0; i < s->nunits; i++) {
        sv_rect(c, &s->u[i], g->r[i]);
        sv_box(g->r[i], g->box[i]);
    }
}

static int placement_ok(const sv_ctx_t *c, const sv_state_t *s, int ui, const sv_unit_t *m,
                        int ignore) {
    sv_geo_t g;
    geo_rects(c, s, &g);
    return placement_g(c, s, &g, ui, m, ignore);
}

/* The unit's front centre goes straight from its place to p, facing its way; every inch of the
 * path is free of other units (no flowing around in this part). */
static int path_g(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int ui, opfor_pt_t p,
                  int ignore, float min_enemy, int flow) {
    const sv_unit_t *u = &s->u[ui];
    opfor_vec_t d = opfor_vsub(p, opfor_pt(u->x, u->y));
    float len = opfor_vlen(d);
    if (len < 1e-4f)
        return 1;
    opfor_vec_t f = opfor_vscale(d, 1.0f / len);
    if (!sv_terrain_path_ok(c, u, opfor_pt(u->x, u->y), p))
        return 0;
    int steps = (int)ceilf(len);
    if (steps < 2)
        return 1;
    /* the box swept from the first inch to the last (with a margin for rounding): a unit
     * outside it by more than the nearest an enemy may come is never met on the way */
    sv_unit_t m = *u;
    m.fx = f.x;
    m.fy = f.y;
    opfor_pt_t rm[4];
    float sweep[4], b2[4], bm[4];
    m.x = u->x + f.x;
    m.y = u->y + f.y;
    sv_rect(c, &m, rm);
    sv_box(rm, sweep);
    m.x = u->x + f.x * (float)(steps - 1);
    m.y = u->y + f.y * (float)(steps - 1);
    sv_rect(c, &m, rm);
    sv_box(rm, b2);
    sweep[0] = (sweep[0] < b2[0] ? sweep[0] : b2[0]) - 0.01f;
    sweep[1] = (sweep[1] > b2[1] ? sweep[1] : b2[1]) + 0.01f;
    sweep[2] = (sweep[2] < b2[2] ? sweep[2] : b2[2]) - 0.01f;
    sweep[3] = (sweep[3] > b2[3] ? sweep[3] : b2[3]) + 0.01f;
    float reach = min_enemy > 0.0f ? min_enemy : 0.0f;
    int idx[SV_MAX_UNITS], no = 0;
    for (int k = 0; k < s->nunits; k++)
        if (k != ui && k != ignore && sv_alive(&s->u[k])) {
            const sv_unit_t *o = &s->u[k];
            if ((flow == 1 && o->side == u->side) || /* §Flow Around: friends, manoeuvring */
                (flow == 2 && o->n == 1 && !sv_is_mounted(c, o))) /* charging mounted */
                continue;
            if (sv_box_gap(sweep, g->box[k]) > reach)
                continue;
            idx[no++] = k;
        }
    if (no == 0)
        return 1;
    for (int i = 1; i < steps; i++) {
        m.x = u->x + f.x * (float)i;
        m.y = u->y + f.y * (float)i;
        sv_rect(c, &m, rm);
        sv_box(rm, bm);
        for (int j = 0; j < no; j++) {
            int k = idx[j];
            float gap = sv_box_gap(bm, g->box[k]);
            if (gap <= 0.0f && sv_rect_sat(rm, g->r[k], 0.01f))
                return 0;
            if (min_enemy > 0.0f && s->u[k].side != u->side &&
                sv_rect_near_gap(rm, g->r[k], gap, min_enemy - 1e-4f))
                return 0;
        }
    }
    return 1;
}

static int path_ok(const sv_ctx_t *c, const sv_state_t *s, int ui, opfor_pt_t p, int ignore,
                   float min_enemy, int flow) {
    sv_geo_t g;
    geo_rects(c, s, &g);
    return path_g(c, s, &g, ui, p, ignore, min_enemy, flow);
}

static int mounted_combo(const sv_unit_t *u) {
    return u->kind == SV_HEAVY || u->kind == SV_MOUNTED || u->kind == SV_DRAGOON;
}

/* Whether u may start an action of this sort now. */
static int may_form(const sv_unit_t *u) {
    return !(u->flags & (SV_F_ACTED | SV_F_FORMED));
}
static int may_move(const sv_unit_t *u) {
    return !(u->flags & (SV_F_ACTED | SV_F_MOVED));
}
static int may_charge(const sv_unit_t *u) {
    return !(u->flags & (SV_F_ACTED | SV_F_MOVED | SV_F_FORMED | SV_F_CHARGE_FAILED));
}

/* A road column within 24" of an enemy must change formation (§The Movement Phase). */
/* What every check of one unit's actions needs, worked out once per unit. */
typedef struct facts {
    int engaged; /* in contact with an enemy */
    float near;  /* distance to the nearest enemy */
    int nearest; /* that enemy, -1 none */
    int brk;     /* a break-through (§Break-Through): 9" mounted, 3" foot, after its action */
    const sv_geo_t *g; /* the state's geometry */
    float least, most; /* terrain's cheapest and dearest inch for the unit (sv_terrain_bounds) */
    int nmemo;         /* the list's candidates already costed: end x, end y, cost (affordable) */
    float memo[3][3];
} facts_t;

static facts_t get_facts(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int ui) {
    facts_t f;
    f.engaged = sv_alive(&s->u[ui]) ? g->contact[ui] != 0 : sv_engaged(c, s, ui);
    f.near = enemy_dist_g(s, g, g->r[ui], s->u[ui].side, &f.nearest);
    f.brk = s->phase == SV_P_BREAK;
    f.g = g;
    f.least = f.most = 1.0f;
    f.nmemo = 0;
    if (c->table.nfeatures)
        sv_terrain_bounds(c, &s->u[ui], &f.least, &f.most);
    return f;
}

static int column_must_change(const sv_state_t *s, int ui, const facts_t *f) {
    const sv_unit_t *u = &s->u[ui];
    return u->form == SV_COLUMN && !(u->flags & SV_F_ACTED) && f->near <= 24.0f;
}

static void form_unit(sv_unit_t *m, int form, int files) {
    m->form = (uint8_t)form;
    m->files = (uint8_t)(files > 0 ? files : 1);
    if (m->files > m->n)
        m->files = m->n;
}

/* ---------------------------------------------------------------- checks */

/* §Flow Around: who may pass through friendly units while manoeuvring (R-19 for road
 * columns); never after changing formation this phase. */
static int flows(const sv_ctx_t *c, const sv_unit_t *u) {
    if (u->flags & SV_F_FORMED)
        return 0;
    if (u->form == SV_COLUMN || sv_is_cmd(u) || u->form == SV_LIMBERED)
        return 1;
    if (sv_is_foot(u))
        return u->form == SV_OPEN;
    return sv_is_mounted(c, u) && (u->form == SV_BLOCK || u->form == SV_LINE || u->form == SV_OPEN);
}

static int check_form(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a,
                      const facts_t *fa) {
    const sv_unit_t *u = &s->u[a->unit];
    if (!may_form(u) || (u->flags & SV_F_FLOWED) || sv_is_art(u) || sv_is_cmd(u) ||
        a->sub == u->form || a->sub >= SV_FORM_COUNT || !sv_form_ok(u, a->sub))
        return 0;
    if (a->sub == SV_COLUMN && fa->near <= 24.0f)
        return 0;
    if (a->sub == SV_OPEN && u->kind == SV_MOUNTED && u->n >= 4)
        return 0;
    sv_unit_t m = *u;
    int files = a->arg ? a->arg : sv_default_files(u, a->sub);
    if (files < 1 || files > u->n)
        return 0;
    if ((a->sub == SV_LINE || a->sub == SV_OPEN) && files != u->n)
        return 0;
    if (a->sub == SV_COLUMN && files != 1)
        return 0;
    form_unit(&m, a->sub, files);
    return placement_g(c, s, fa->g, a->unit, &m, -1);
}

/* The allowance u spends going straight from a to b (len inches) over terrain's move factors
 * (docs/splendid.md 5), as its caller compares it with the limits l1 and l2 (cost > limit):
 * when the factors' bounds already put it on one side of both, a value on that side without
 * working out the path. */
static float spend(const sv_ctx_t *c, const facts_t *fa, const sv_unit_t *u, opfor_pt_t a,
                   opfor_pt_t b, float len, float l1, float l2) {
    float lo = len * fa->least, hi = len * fa->most;
    if ((hi <= l1 || lo > l1) && (hi <= l2 || lo > l2))
        return lo;
    for (int i = 0; i < fa->nmemo; i++) /* the same path, costed when it was listed */
        if (fa->memo[i][0] == b.x && fa->memo[i][1] == b.y)
            return fa->memo[i][2];
    return sv_terrain_cost(c, u, a, b);
}

/* sub: 0 manoeuvre, 1 double time, 2 about-face, 3 side-step or step back. */
static int check_move(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a,
                      const facts_t *fa) {
    const sv_unit_t *u = &s->u[a->unit];
    float allow = sv_move_allow(u);
    if (fa->brk) { /* a break-through manoeuvre: up to 9" (mounted) or 3" (foot), then stop */
        if (a->sub != 0)
            return 0;
        allow = sv_is_foot(u) ? 3.0f : 9.0f;
    } else if (!may_move(u)) {
        return 0;
    }
    opfor_vec_t f = opfor_pt(a->x2, a->y2);
    if (fabsf(opfor_vlen(f) - 1.0f) > 1e-3f)
        return 0;
    if (a->sub == 4 && !fa->brk) { /* a pivot: about the front centre, the front corners
                                      moving at most 1/2" (R-18); a defensive block and
                                      unlimbered guns may, so may every formation that moves */
        float w = sv_width(c, u), cosmax = 1.0f - 2.0f * (0.5f / w) * (0.5f / w);
        if (w <= 0.5f)
            cosmax = -1.0f;
        if (fabsf(a->x - u->x) > 1e-4f || fabsf(a->y - u->y) > 1e-4f ||
            f.x * u->fx + f.y * u->fy < cosmax - 1e-5f)
            return 0;
        sv_unit_t m = *u;
        m.fx = f.x;
        m.fy = f.y;
        return placement_g(c, s, fa->g, a->unit, &m, -1);
    }
    if (allow <= 0.0f || u->form == SV_UNLIMBERED)
        return 0;
    opfor_pt_t p = opfor_pt(a->x, a->y);
    float len = opfor_dist(p, opfor_pt(u->x, u->y));
    float min_enemy = 0.0f, limit = allow;
    switch (a->sub) {
    case 0:
        break;
    case 1: /* double time: no enemy within 18" at the start or on the way */
        if (sv_is_art(u) || fa->near <= 18.0f)
            return 0;
        min_enemy = 18.0f;
        limit = 2.0f * allow;
        break;
    case 2: { /* about-face: every stand turns in place */
        float d = sv_depth(c, u);
        if (fabsf(f.x + u->fx) > 1e-3f || fabsf(f.y + u->fy) > 1e-3f ||
            opfor_dist(p, opfor_pt(u->x - u->fx * d, u->y - u->fy * d)) > 1e-3f)
            return 0;
        len = 0.0f;
        break;
    }
    case 3: /* foot only, 2" sideways or back, facing kept */
        if (!sv_is_foot(u) || u->form == SV_OPEN || fabsf(f.x - u->fx) > 1e-3f ||
            fabsf(f.y - u->fy) > 1e-3f)
            return 0;
        if ((p.x - u->x) * u->fx + (p.y - u->y) * u->fy > 1e-3f)
            return 0;
        limit = 2.0f;
        break;
    default:
        return 0;
    }
    if (a->sub != 2) { /* the allowance spent: terrain's move factors along the path (docs 5) */
        if (c->table.nfeatures)
            len = spend(c, fa, u, opfor_pt(u->x, u->y), p, len, limit + 1e-3f, limit + 1e-3f);
        if (len > limit + 1e-3f)
            return 0;
    }
    sv_unit_t m = *u;
    m.x = p.x;
    m.y = p.y;
    m.fx = f.x;
    m.fy = f.y;
    if (a->sub != 2) /* stands off the table are lost; the rest stand inside */
        off_table(c, &m);
    if (m.n > 0 && !placement_g(c, s, fa->g, a->unit, &m, -1))
        return 0;
    if (min_enemy > 0.0f && m.n > 0) {
        opfor_pt_t rm[4];
        sv_rect(c, &m, rm);
        if (enemy_dist_g(s, fa->g, rm, u->side, NULL) <= min_enemy)
            return 0;
    }
    return a->sub == 2 ||
           path_g(c, s, fa->g, a->unit, p, -1, min_enemy, a->sub <= 1 && flows(c, u) ? 1 : 0);
}

/* Where u ends when it charges t: flush and centred on t's face that looks at it, reached by
 * one straight move within 45 degrees of its front (the pivot and the straight move of
 * §How does a unit charge?, design). Returns the distance, or a negative value. */
static float charge_place_r(const sv_state_t *s, int ui, int ti, const opfor_pt_t rt[4],
                            sv_unit_t *m) {
    const sv_unit_t *u = &s->u[ui], *t = &s->u[ti];
    opfor_vec_t tf = opfor_pt(t->fx, t->fy), tr = opfor_pt(t->fy, -t->fx);
    opfor_vec_t normal[4] = {tf, tr, opfor_vscale(tf, -1.0f), opfor_vscale(tr, -1.0f)};
    opfor_pt_t a = opfor_pt(u->x, u->y);
    int best = -1;
    float bv = -1e30f;
    for (int e = 0; e < 4; e++) {
        opfor_pt_t mid = opfor_vlerp(rt[e], rt[(e + 1) & 3], 0.5f);
        float v = opfor_vdot(opfor_vsub(a, mid), normal[e]);
        if (v > bv) {
            bv = v;
            best = e;
        }
    }
    opfor_pt_t mid = opfor_vlerp(rt[best], rt[(best + 1) & 3], 0.5f);
    *m = *u;
    m->x = mid.x + normal[best].x * 0.01f;
    m->y = mid.y + normal[best].y * 0.01f;
    m->fx = -normal[best].x;
    m->fy = -normal[best].y;
    opfor_vec_t d = opfor_vsub(opfor_pt(m->x, m->y), a);
    float len = opfor_vlen(d);
    if (len > 0.1f && opfor_vdot(d, opfor_pt(u->fx, u->fy)) < COS45 * len)
        return -1.0f;
    return len;
}

static float charge_place(const sv_ctx_t *c, const sv_state_t *s, int ui, int ti, sv_unit_t *m) {
    opfor_pt_t rt[4];
    sv_rect(c, &s->u[ti], rt);
    return charge_place_r(s, ui, ti, rt, m);
}

static int check_charge(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a,
                        const facts_t *fa) {
    const sv_unit_t *u = &s->u[a->unit];
    if (a->target >= s->nunits)
        return 0;
    const sv_unit_t *t = &s->u[a->target];
    float allow = sv_charge_allow(u);
    if (fa->brk && allow > 0.0f) /* a break-through charge: up to 9" or 3", may extend */
        allow = sv_is_foot(u) ? 3.0f : 9.0f;
    else if (!may_charge(u))
        return 0;
    if (allow <= 0.0f || !sv_alive(t) || t->side == u->side)
        return 0;
    if (u->form == SV_OPEN && c->model.open_order_may_charge != SV_OO_ALL &&
        (sv_is_foot(u) || c->model.open_order_may_charge == SV_OO_NONE))
        return 0; /* §How does a unit charge?; the model's reading of open order */
    /* the charger's front centre lies in its box and it ends 0.01" off the target: a target
     * whose box is further off than any charge reaches is never reached */
    float beyond0 = sv_is_foot(u) ? 2.0f : 6.0f;
    if (sv_box_gap(fa->g->box[a->unit], fa->g->box[a->target]) > allow + beyond0 + 0.1f)
        return 0;
    sv_unit_t m;
    float len = charge_place_r(s, a->unit, a->target, fa->g->r[a->target], &m);
    /* §What if a potential target …: an extended charge reaches up to 6" (mounted) or 2"
     * (foot) beyond the allowance; sub says which the action is */
    float beyond = sv_is_foot(u) ? 2.0f : 6.0f;
    if (len >= 0.0f && c->table.nfeatures) { /* terrain's move factors (docs/splendid.md 5) */
        opfor_pt_t from = opfor_pt(u->x, u->y), to = opfor_pt(m.x, m.y);
        float straight = opfor_dist(from, to), extra = len - straight;
        len = spend(c, fa, u, from, to, straight, allow + 1e-3f - extra,
                    allow + beyond + 1e-3f - extra) +
              extra;
    }
    if (len < 0.0f || (a->sub == 0 && len > allow + 1e-3f) ||
        (a->sub == 1 && (len <= allow + 1e-3f || len > allow + beyond + 1e-3f)) || a->sub > 1)
        return 0;
    if (!placement_g(c, s, fa->g, a->unit, &m, a->target))
        return 0;
    opfor_pt_t rm[4];
    sv_rect(c, &m, rm);
    if (!sv_rect_near(rm, fa->g->r[a->target], c->opt.contact_tolerance))
        return 0;
    /* §Can foot units charge mounted units?: without pikes only to outflank */
    if (sv_is_foot(u) && sv_pikes(u) == 0 && sv_is_mounted(c, t) && !sv_outflanks(c, &m, t))
        return 0;
    return path_g(c, s, fa->g, a->unit, opfor_pt(m.x, m.y), a->target, 0.0f,
                  sv_is_mounted(c, u) ? 2 : 0);
}

/* Disengaging (§Disengaging): about-face, then straight away up to the full allowance. */
static int disengage_place(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int ui,
                           sv_unit_t *m) {
    const sv_unit_t *u = &s->u[ui];
    if (!sv_is_mounted(c, u) && !sv_is_cmd(u))
        return 0;
    int n = 0;
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].side != u->side && sv_alive(&s->u[i]) && sv_in_contact(c, u, &s->u[i])) {
            if (sv_is_mounted(c, &s->u[i]))
                return 0; /* only from non-mounted enemies */
            n++;
        }
    if (n == 0)
        return 0;
    float d = sv_depth(c, u), allow = sv_move_allow(u);
    for (float go = allow; go >= 1.0f; go -= 1.0f) {
        *m = *u;
        m->fx = -u->fx;
        m->fy = -u->fy;
        m->x = u->x - u->fx * (d + go);
        m->y = u->y - u->fy * (d + go);
        if (placement_g(c, s, g, ui, m, -1))
            return n;
    }
    return 0;
}

static int is_retreat_able(const sv_ctx_t *c, const sv_state_t *s, int ui) {
    const sv_unit_t *u = &s->u[ui];
    return sv_alive(u) && (u->n == 1 || sv_in_command(c, s, ui));
}

static int check_with(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a,
                      const facts_t *fa) {
    if (a->kind == SV_A_DONE)
        return 1;
    if (a->unit >= s->nunits)
        return 0;
    const sv_unit_t *u = &s->u[a->unit];
    if (u->side != s->side || !sv_alive(u))
        return 0;
    if (a->kind == SV_A_RETREAT)
        return is_retreat_able(c, s, a->unit);
    if (s->retreating || ((u->flags & SV_F_ACTED) && !fa->brk))
        return 0;
    int engaged = fa->engaged;
    if (a->kind == SV_A_DISENGAGE) {
        sv_unit_t m;
        return engaged && !(u->flags & (SV_F_MOVED | SV_F_FORMED)) &&
               disengage_place(c, s, fa->g, a->unit, &m) && fabsf(m.x - a->x) < 1e-3f &&
               fabsf(m.y - a->y) < 1e-3f;
    }
    if (engaged)
        return 0;
    if (column_must_change(s, a->unit, fa) && a->kind != SV_A_FORM)
        return 0;
    switch (a->kind) {
    case SV_A_FORM:
        return check_form(c, s, a, fa);
    case SV_A_MOVE:
        return check_move(c, s, a, fa);
    case SV_A_CHARGE:
        return check_charge(c, s, a, fa);
    case SV_A_LIMBER: {
        if (!sv_is_art(u) || !may_form(u) || (a->sub == 1) != (u->form == SV_UNLIMBERED))
            return 0;
        opfor_vec_t f = opfor_pt(a->x2, a->y2);
        if (fabsf(opfor_vlen(f) - 1.0f) > 1e-3f)
            return 0;
        sv_unit_t m = *u;
        m.form = a->sub ? SV_LIMBERED : SV_UNLIMBERED;
        m.fx = f.x;
        m.fy = f.y;
        return placement_g(c, s, fa->g, a->unit, &m, -1);
    }
    case SV_A_PROLONG: { /* §Can an artillery unit be prolonged backwards? */
        if (!sv_is_art(u) || u->form != SV_UNLIMBERED || !may_move(u))
            return 0;
        float reach = u->kind == SV_FRAME ? 4.0f : u->kind == SV_GUN ? 2.0f : 1.0f;
        opfor_vec_t d = opfor_vsub(opfor_pt(a->x, a->y), opfor_pt(u->x, u->y));
        float along = opfor_vdot(d, opfor_pt(u->fx, u->fy));
        if (fabsf(opfor_vcross(opfor_pt(u->fx, u->fy), d)) > 1e-3f || fabsf(along) > reach + 1e-3f)
            return 0;
        sv_unit_t m = *u;
        m.x = a->x;
        m.y = a->y;
        return placement_g(c, s, fa->g, a->unit, &m, -1);
    }
    case SV_A_MOUNT: {
        if (u->kind != SV_DRAGOON || !may_form(u) || !may_move(u) ||
            (a->sub == 1) != ((u->flags & SV_F_DISMOUNTED) != 0))
            return 0;
        sv_unit_t m = *u;
        m.flags ^= SV_F_DISMOUNTED;
        return sv_form_ok(&m, m.form) && placement_g(c, s, fa->g, a->unit, &m, -1);
    }
    default:
        return 0;
    }
}

int sv_move_check(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a) {
    if (a->kind == SV_A_DONE || a->unit >= s->nunits) {
        facts_t f = {0, 0.0f, -1, 0, NULL, 1.0f, 1.0f, 0, {{0}}};
        return check_with(c, s, a, &f);
    }
    sv_geo_t g;
    sv_geo_build(c, s, &g);
    facts_t f = get_facts(c, s, &g, a->unit);
    return check_with(c, s, a, &f);
}

/* ---------------------------------------------------------------- the list */

static int push(opfor_action_t *out, int n, int max, const opfor_action_t *a, const sv_ctx_t *c,
                const sv_state_t *s, const facts_t *fa) {
    if (n >= max)
        return n;
    for (int k = n - 1; k >= 0 && out[k].unit == a->unit; k--)
        if (out[k].kind == a->kind && memcmp(&out[k], a, sizeof *a) == 0)
            return n; /* two candidates that came out the same */
    if (!check_with(c, s, a, fa))
        return n;
    out[n] = *a;
    return n + 1;
}

static opfor_action_t move_to(int ui, opfor_pt_t p, opfor_vec_t f, int sub) {
    opfor_action_t a = act(SV_A_MOVE, ui);
    a.sub = (uint8_t)sub;
    a.x = p.x;
    a.y = p.y;
    opfor_vec_t g = opfor_vnorm(f);
    a.x2 = g.x;
    a.y2 = g.y;
    return a;
}

/* How far ahead along f (at most want) unit u gets for `allow` inches of allowance over
 * terrain's move factors (docs/splendid.md 5): want itself in the open, else a shorter
 * distance whose cost fits; 0 when none is found. */
static void remember(facts_t *fa, opfor_pt_t b, float cost) {
    if (fa->nmemo < 3) {
        fa->memo[fa->nmemo][0] = b.x;
        fa->memo[fa->nmemo][1] = b.y;
        fa->memo[fa->nmemo++][2] = cost;
    }
}

static float affordable(const sv_ctx_t *c, facts_t *fa, const sv_unit_t *u, opfor_vec_t f,
                        float want, float allow) {
    if (!c->table.nfeatures)
        return want;
    opfor_pt_t p = opfor_pt(u->x, u->y);
    if (want * fa->most <= allow)
        return want;
    opfor_pt_t b = opfor_vadd(p, opfor_vscale(f, want));
    float cost = sv_terrain_cost(c, u, p, b), lo_cost = 0.0f;
    if (cost <= allow + 1e-4f) {
        remember(fa, b, cost);
        return want;
    }
    float lo = 0.0f, hi = want; /* the cost grows with the distance: halve the interval */
    for (int k = 0; k < 16; k++) {
        float mid = 0.5f * (lo + hi);
        cost = sv_terrain_cost(c, u, p, opfor_vadd(p, opfor_vscale(f, mid)));
        if (cost <= allow) {
            lo = mid;
            lo_cost = cost;
        } else {
            hi = mid;
        }
    }
    if (lo <= 0.25f)
        return 0.0f;
    remember(fa, opfor_vadd(p, opfor_vscale(f, lo)), lo_cost);
    return lo;
}

static int unit_moves(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *geo, int ui,
                      opfor_action_t *out, int n, int max) {
    const sv_unit_t *u = &s->u[ui];
    opfor_pt_t p = opfor_pt(u->x, u->y);
    opfor_vec_t f = opfor_pt(u->fx, u->fy), r = opfor_pt(u->fy, -u->fx);
    float allow = sv_move_allow(u);
    opfor_action_t a;
    facts_t fa = get_facts(c, s, geo, ui);
    if (fa.engaged) {
        sv_unit_t m;
        if (!(u->flags & (SV_F_MOVED | SV_F_FORMED)) && disengage_place(c, s, geo, ui, &m)) {
            a = act(SV_A_DISENGAGE, ui);
            a.x = m.x;
            a.y = m.y;
            a.x2 = m.fx;
            a.y2 = m.fy;
            n = push(out, n, max, &a, c, s, &fa);
        }
        return n;
    }
    /* changes of formation */
    for (int form = 0; form < SV_LIMBERED; form++) {
        a = act(SV_A_FORM, ui);
        a.sub = (uint8_t)form;
        a.arg = (uint16_t)sv_default_files(u, form);
        n = push(out, n, max, &a, c, s, &fa);
    }
    if (column_must_change(s, ui, &fa))
        return n;
    if (sv_is_art(u)) {
        a = act(SV_A_LIMBER, ui);
        a.sub = u->form == SV_UNLIMBERED;
        a.x2 = u->fx;
        a.y2 = u->fy;
        n = push(out, n, max, &a, c, s, &fa);
        int e = fa.nearest;
        if (e >= 0 && u->form == SV_LIMBERED) { /* unlimber facing the nearest enemy */
            opfor_vec_t g = opfor_vnorm(opfor_vsub(opfor_pt(s->u[e].x, s->u[e].y), p));
            a.x2 = g.x;
            a.y2 = g.y;
            n = push(out, n, max, &a, c, s, &fa);
        }
        float reach = u->kind == SV_FRAME ? 4.0f : u->kind == SV_GUN ? 2.0f : 1.0f;
        for (int k = -1; k <= 1; k += 2) {
            a = act(SV_A_PROLONG, ui);
            a.x = u->x + f.x * reach * (float)k;
            a.y = u->y + f.y * reach * (float)k;
            n = push(out, n, max, &a, c, s, &fa);
        }
    }
    if (u->kind == SV_DRAGOON) {
        a = act(SV_A_MOUNT, ui);
        a.sub = (u->flags & SV_F_DISMOUNTED) != 0;
        n = push(out, n, max, &a, c, s, &fa);
    }
    if (!sv_is_art(u) || u->form == SV_UNLIMBERED) { /* pivot left or right, fully */
        float w = sv_width(c, u), half = w > 0.5f ? asinf(0.5f / w) : 1.5707963f;
        float cs = cosf(2.0f * half), sn = sinf(2.0f * half);
        for (int k = -1; k <= 1; k += 2) {
            a = move_to(ui, p, opfor_vrot(f, cs, sn * (float)k), 4);
            n = push(out, n, max, &a, c, s, &fa);
        }
    }
    if (allow > 0.0f) {
        float full = affordable(c, &fa, u, f, allow, allow);
        if (full > 0.0f) {
            a = move_to(ui, opfor_vadd(p, opfor_vscale(f, full)), f, 0);
            n = push(out, n, max, &a, c, s, &fa);
        }
        a = move_to(ui, opfor_vadd(p, opfor_vscale(f, allow * 0.5f)), f, 0);
        n = push(out, n, max, &a, c, s, &fa);
        /* double time only far from every enemy (check_move's first refusal) */
        full = sv_is_art(u) || fa.near <= 18.0f
                   ? 0.0f
                   : affordable(c, &fa, u, f, 2.0f * allow, 2.0f * allow);
        if (full > 0.0f) {
            a = move_to(ui, opfor_vadd(p, opfor_vscale(f, full)), f, 1);
            n = push(out, n, max, &a, c, s, &fa);
        }
        static const float turns[2][2] = {{0.70710678f, 0.70710678f}, {0.70710678f, -0.70710678f}};
        for (int k = 0; k < 2; k++) { /* wheel 45 degrees left or right in place */
            opfor_vec_t g = opfor_vrot(f, turns[k][0], turns[k][1]);
            a = move_to(ui, p, g, 0);
            n = push(out, n, max, &a, c, s, &fa);
        }
        float d = sv_depth(c, u);
        a = move_to(ui, opfor_vsub(p, opfor_vscale(f, d)), opfor_vscale(f, -1.0f), 2);
        n = push(out, n, max, &a, c, s, &fa);
        int e = fa.nearest;
        if (e >= 0) { /* towards the nearest enemy, stopping 2" short */
            const opfor_pt_t *rt = geo->r[e];
            opfor_pt_t ec = opfor_pt((rt[0].x + rt[2].x) * 0.5f, (rt[0].y + rt[2].y) * 0.5f);
            opfor_vec_t to = opfor_vsub(ec, p);
            float go = fa.near - 2.0f;
            if (go > allow)
                go = allow;
            if (go > 0.5f && opfor_vlen(to) > 1e-3f) {
                to = opfor_vnorm(to);
                go = affordable(c, &fa, u, to, go, allow);
                a = move_to(ui, opfor_vadd(p, opfor_vscale(to, go)), to, 0);
                if (go > 0.5f)
                    n = push(out, n, max, &a, c, s, &fa);
            }
        }
        if (sv_is_foot(u)) { /* step back, side-step */
            opfor_vec_t dirs[3] = {opfor_vscale(f, -1.0f), r, opfor_vscale(r, -1.0f)};
            for (int k = 0; k < 3; k++) {
                a = move_to(ui, opfor_vadd(p, opfor_vscale(dirs[k], 2.0f)), f, 3);
                n = push(out, n, max, &a, c, s, &fa);
            }
        }
    }
    float callow = sv_charge_allow(u);
    if (callow > 0.0f) {
        if (fa.brk) /* check_charge's allowance of a break-through charge */
            callow = sv_is_foot(u) ? 3.0f : 9.0f;
        float far = callow + (sv_is_foot(u) ? 2.0f : 6.0f) + 0.1f;
        for (int t = 0; t < s->nunits; t++) {
            if (s->u[t].side == u->side || !sv_alive(&s->u[t]))
                continue;
            if (sv_box_gap(geo->box[ui], geo->box[t]) > far)
                continue; /* beyond any charge: check_charge refuses both (its box test) */
            a = act(SV_A_CHARGE, ui);
            a.target = (uint8_t)t;
            n = push(out, n, max, &a, c, s, &fa);
            a.sub = 1; /* the same target as an extended charge */
            n = push(out, n, max, &a, c, s, &fa);
        }
    }
    return n;
}

int sv_move_legal(const sv_ctx_t *c, const sv_state_t *s, opfor_action_t *out, int max) {
    int n = 0, pending = 0;
    sv_geo_t g;
    sv_geo_build(c, s, &g);
    for (int i = 0; i < s->nunits && n < max; i++) {
        const sv_unit_t *u = &s->u[i];
        if (u->side != s->side || !sv_alive(u))
            continue;
        if (!s->retreating && !(u->flags & SV_F_ACTED)) {
            int before = n;
            n = unit_moves(c, s, &g, i, out, n, max);
            if (n > before && u->form == SV_COLUMN) {
                facts_t f = get_facts(c, s, &g, i);
                pending |= column_must_change(s, i, &f);
            }
        }
    }
    for (int i = 0; i < s->nunits && n < max; i++)
        if (s->u[i].side == s->side && s->u[i].n == 1 && is_retreat_able(c, s, i) &&
            !sv_is_cmd(&s->u[i])) {
            opfor_action_t a = act(SV_A_RETREAT, i);
            out[n++] = a;
        }
    if (!pending && n < max)
        out[n++] = act(SV_A_DONE, OPFOR_ACTION_NONE);
    return n;
}

/* ---------------------------------------------------------------- applying */

static void finish(const sv_unit_t *before, sv_unit_t *u, int what) {
    (void)before;
    if (mounted_combo(u)) {
        u->flags |= (uint16_t)what;
        if ((u->flags & SV_F_FORMED) && (u->flags & SV_F_MOVED))
            u->flags |= SV_F_ACTED;
    } else {
        u->flags |= SV_F_ACTED;
    }
}

/* The charger goes straight back along its path up to `most` inches, still facing its target
 * (a flinch, 3", §Reactions 6 and 7; pulling up short, 9", §Reactions 4). */
static void back_off(const sv_ctx_t *c, sv_state_t *s, int ui, float most) {
    sv_unit_t *u = &s->u[ui];
    for (float go = most; go > 0.0f; go -= 0.5f) {
        sv_unit_t m = *u;
        m.x = u->x - u->fx * go;
        m.y = u->y - u->fy * go;
        if (placement_ok(c, s, ui, &m, -1)) {
            *u = m;
            return;
        }
    }
}

static int dice_at(const sv_ctx_t *c, const sv_unit_t *t, int base) {
    if (t->form == SV_BLOCK)
        base += 1;
    else if (t->form == SV_DEFBLOCK)
        base += 2;
    if (sv_is_mounted(c, t))
        base += 1;
    if (sv_open(t))
        base -= 1;
    return base > 0 ? base : 0;
}

/* §Reactions 7: a charged gun fires or is overrun, no choice. */
static void artillery_reacts(const sv_ctx_t *c, sv_state_t *s, int gi, int ci) {
    sv_unit_t *g = &s->u[gi], *ch = &s->u[ci];
    int overrun = 1;
    if (g->form == SV_UNLIMBERED && !(g->flags & SV_F_RED)) { /* */
        static const int point_blank[3] = {1, 2, 4};
        int dice = dice_at(c, ch, point_blank[g->kind - SV_FRAME]);
        int q = c->opt.unit_quality ? g->quality : 1;
        int hits = sv_roll(s, dice, c->model.fire_need[q]);
        g->flags |= SV_F_RED;
        int m = ch->markers + hits;
        ch->markers = (uint8_t)(m > 255 ? 255 : m);
        if (hits >= 2) {
            overrun = 0;
            back_off(c, s, ci, 3.0f);
        }
    }
    g->flags |= SV_F_REACTED;
    if (overrun) { /* removed, routed; the charger breaks through */
        sv_remove(s, gi, g->n);
        s->phase = SV_P_BREAK;
        s->cur = (uint8_t)ci;
        s->side = ch->side;
    }
}

/* The moving unit's action completed (no interception stopped it). */
static void effect(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a) {
    sv_unit_t *u = &s->u[a->unit];
    sv_unit_t before = *u;
    switch (a->kind) {
    case SV_A_MOVE:
        if (a->sub <= 1 && flows(c, u) &&
            !path_ok(c, s, a->unit, opfor_pt(a->x, a->y), -1, 0.0f, 0))
            u->flags |= SV_F_FLOWED; /* it may not change formation after */
        u->x = a->x;
        u->y = a->y;
        u->fx = a->x2;
        u->fy = a->y2;
        if (a->sub != 2) { /* §The Movement Phase: stands leaving the table are lost */
            sv_unit_t m = *u;
            int lost = off_table(c, &m);
            if (lost > 0) {
                *u = m;
                s->tally[u->side] = (uint16_t)(s->tally[u->side] + lost);
                if (u->n == 0) {
                    u->flags |= SV_F_GONE;
                    u->markers = 0;
                }
            }
        }
        finish(&before, u, SV_F_MOVED);
        return;
    case SV_A_DISENGAGE: {
        int n = 0;
        for (int i = 0; i < s->nunits; i++)
            n += s->u[i].side != u->side && sv_alive(&s->u[i]) && sv_in_contact(c, u, &s->u[i]);
        u->x = a->x;
        u->y = a->y;
        u->fx = a->x2;
        u->fy = a->y2;
        u->markers = (uint8_t)(u->markers + (n >= 2 ? 2 : 1));
        u->flags |= SV_F_ACTED;
        return;
    }
    case SV_A_PROLONG:
        u->x = a->x;
        u->y = a->y;
        u->flags |= SV_F_ACTED;
        return;
    case SV_A_CHARGE: { /* its test already passed */
        int ti = a->target;
        sv_unit_t *t = &s->u[ti];
        int free_to_react = !(t->flags & SV_F_REACTED) && !sv_engaged(c, s, ti);
        s->charge_far = sv_unit_dist(c, u, t) > 9.0f;
        sv_unit_t m;
        float len = charge_place(c, s, a->unit, ti, &m);
        if (a->sub == 1) { /* extended: one marker, then 1D6" more (mounted) or 2" (foot) */
            u->markers = (uint8_t)(u->markers < 255 ? u->markers + 1 : 255);
            m.markers = u->markers;
            float allow = s->breaking ? (sv_is_foot(u) ? 3.0f : 9.0f) : sv_charge_allow(u);
            float reach = allow + (sv_is_foot(u) ? 2.0f : (float)opfor_rng_d6(&s->rng));
            if (reach + 1e-3f < len) { /* short: it stops on its path and does no more */
                opfor_vec_t d = opfor_vnorm(opfor_vsub(opfor_pt(m.x, m.y), opfor_pt(u->x, u->y)));
                sv_unit_t stop = *u;
                for (float go = reach; go >= 0.0f; go -= 0.5f) {
                    stop.x = u->x + d.x * go;
                    stop.y = u->y + d.y * go;
                    stop.fx = d.x;
                    stop.fy = d.y;
                    if (go < 0.5f) {
                        stop = *u;
                        break;
                    }
                    if (placement_ok(c, s, a->unit, &stop, -1))
                        break;
                }
                *u = stop;
                u->flags |= SV_F_ACTED;
                return;
            }
        }
        *u = m;
        u->flags |= SV_F_ACTED;
        if (sv_is_art(t)) {
            artillery_reacts(c, s, ti, a->unit);
        } else if (free_to_react) {
            s->phase = SV_P_REACT;
            s->charger = a->unit;
            s->charged = (uint8_t)ti;
            s->side = t->side;
        }
        return;
    }
    default:
        return;
    }
}

/* ---------------------------------------------------------------- intercepts (§Reactions 1) */

/* Where the suspended mover is at fraction t of its path: its front centre on the straight
 * line to its end, facing its way (its own facing when stepping back, side-stepping or
 * prolonging), and as it ends at t = 1. */
static void pend_place(const sv_ctx_t *c, const sv_state_t *s, float t, sv_unit_t *m) {
    const opfor_action_t *a = &s->pend;
    sv_unit_t u = s->u[a->unit];
    sv_unit_t end = u;
    if (a->kind == SV_A_CHARGE) {
        charge_place(c, s, a->unit, a->target, &end);
    } else {
        end.x = a->x;
        end.y = a->y;
        if (a->kind != SV_A_PROLONG) {
            end.fx = a->x2;
            end.fy = a->y2;
        }
    }
    if (t >= 1.0f) {
        *m = end;
        return;
    }
    if (a->kind == SV_A_DISENGAGE) { /* it about-faces first, then goes away */
        float d = sv_depth(c, &u);
        u.x -= u.fx * d;
        u.y -= u.fy * d;
        u.fx = -u.fx;
        u.fy = -u.fy;
    }
    *m = u;
    m->x = u.x + (end.x - u.x) * t;
    m->y = u.y + (end.y - u.y) * t;
    int keep = a->kind == SV_A_PROLONG || (a->kind == SV_A_MOVE && a->sub == 3);
    opfor_vec_t d = opfor_vsub(opfor_pt(end.x, end.y), opfor_pt(u.x, u.y));
    if (!keep && opfor_vlen2(d) > 1e-8f) {
        d = opfor_vnorm(d);
        m->fx = d.x;
        m->fy = d.y;
    }
}

/* Whether mounted unit ii may intercept the mover placed as m: m lies (partly) in its 9"
 * intercept zone, and the interceptor reaches it by going straight forward, touching nothing
 * else and no terrain closed to it; *dist gets how far. */
static int can_intercept_g(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *geo, int ii,
                           const sv_unit_t *m, float *dist) {
    const sv_unit_t *I = &s->u[ii];
    opfor_pt_t ri[4], rm[4];
    sv_rect(c, I, ri);
    sv_rect(c, m, rm);
    float tol = c->opt.contact_tolerance;
    if (!sv_rect_near(ri, rm, 9.0f + tol))
        return 0;
    opfor_vec_t f = opfor_pt(I->fx, I->fy);
    opfor_pt_t z[4] = {opfor_pt(ri[0].x + f.x * 9.0f, ri[0].y + f.y * 9.0f),
                       opfor_pt(ri[1].x + f.x * 9.0f, ri[1].y + f.y * 9.0f), ri[1], ri[0]};
    if (!sv_rect_overlap(z, rm, 1e-3f))
        return 0;
    sv_unit_t g = *I;
    float prev = 0.0f;
    for (int step = 1; step <= 36; step++) {
        float d = 0.25f * (float)step;
        g.x = I->x + f.x * d;
        g.y = I->y + f.y * d;
        opfor_pt_t rg[4];
        sv_rect(c, &g, rg);
        if (!sv_on_table(c, rg) || !sv_terrain_ok(c, &g, rg))
            return 0;
        int hit = 0;
        for (int k = 0; k < s->nunits && !hit; k++) {
            if (k == ii || k == s->pend.unit || !sv_alive(&s->u[k]))
                continue;
            hit = sv_rect_near(rg, geo->r[k], tol);
        }
        if (hit)
            return 0;
        if (sv_rect_near(rg, rm, tol)) {
            /* the step may have gone too far: back to where the two just touch */
            float lo = prev, hi = d, at = d;
            int found = !sv_rect_overlap(rg, rm, 0.01f);
            for (int it = 0; it < 30 && !found; it++) {
                at = 0.5f * (lo + hi);
                g.x = I->x + f.x * at;
                g.y = I->y + f.y * at;
                sv_rect(c, &g, rg);
                if (sv_rect_overlap(rg, rm, 0.01f))
                    hi = at;
                else if (sv_rect_near(rg, rm, tol))
                    found = 1;
                else
                    lo = at;
            }
            if (!found)
                return 0;
            *dist = at;
            return 1;
        }
        prev = d;
    }
    return 0;
}

static int can_intercept(const sv_ctx_t *c, const sv_state_t *s, int ii, const sv_unit_t *m,
                         float *dist) {
    sv_geo_t g;
    geo_rects(c, s, &g);
    return can_intercept_g(c, s, &g, ii, m, dist);
}

static int interceptor(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int ii) {
    const sv_unit_t *I = &s->u[ii];
    return sv_alive(I) && I->side != s->u[s->pend.unit].side && sv_is_mounted(c, I) &&
           !sv_is_cmd(I) && I->n >= 2 && I->form != SV_COLUMN && !(I->flags & SV_F_REACTED) &&
           !(s->declined >> ii & 1u) && !g->contact[ii];
}

/* From where the mover is suspended on, the first point (every inch, and the end) where an
 * enemy mounted unit may intercept it: a decision for that unit's side. 0 when there is none. */
static int intercept_scan_g(const sv_ctx_t *c, sv_state_t *s, const sv_geo_t *g) {
    uint32_t any = 0; /* nobody moves while the path is scanned: g stays true */
    for (int i = 0; i < s->nunits; i++)
        if (interceptor(c, s, g, i))
            any |= 1u << i;
    if (!any)
        return 0;
    sv_unit_t end;
    pend_place(c, s, 1.0f, &end);
    const sv_unit_t *u = &s->u[s->pend.unit];
    float len = opfor_dist(opfor_pt(u->x, u->y), opfor_pt(end.x, end.y));
    if (len < 1e-3f)
        return 0; /* it does not change position */
    float step = 1.0f / (len < 1.0f ? 1.0f : len);
    /* from its first inch on: before it has moved it is not yet moving */
    for (float t = s->pend_t > 0.0f ? s->pend_t : step; t <= 1.0f + 1e-6f; t += step) {
        float tt = t > 1.0f - 1e-4f ? 1.0f : t;
        if (s->pend.kind == SV_A_CHARGE && tt >= 1.0f)
            break; /* at the end it has contacted its target */
        sv_unit_t m;
        pend_place(c, s, tt, &m);
        if (!placement_g(c, s, g, s->pend.unit, &m, -1))
            continue; /* not clear of other units here (still in contact, say) */
        for (int i = 0; i < s->nunits; i++) {
            float d;
            if ((any >> i & 1u) && can_intercept_g(c, s, g, i, &m, &d)) {
                s->pend_t = tt;
                s->phase = SV_P_INTERCEPT;
                s->cur = (uint8_t)i;
                s->side = s->u[i].side;
                return 1;
            }
        }
        if (tt >= 1.0f)
            break;
    }
    return 0;
}

static int intercept_scan(const sv_ctx_t *c, sv_state_t *s) {
    sv_geo_t g;
    sv_geo_build(c, s, &g);
    return intercept_scan_g(c, s, &g);
}

/* Suspended moves go on: the next interceptor, or the move completed. */
static void resume(const sv_ctx_t *c, sv_state_t *s) {
    int mover = s->pend.unit;
    s->phase = SV_P_MOVE;
    s->side = s->u[mover].side;
    if (!intercept_scan(c, s))
        effect(c, s, &s->pend);
}

int sv_intercept_legal(const sv_ctx_t *c, const sv_state_t *s, opfor_action_t *out, int max) {
    (void)c;
    if (max < 1)
        return 0;
    int n = 0;
    out[n++] = act(SV_A_HOLD, s->cur); /* let it pass */
    if (n < max) {
        opfor_action_t a = act(SV_A_INTERCEPT, s->cur);
        a.target = s->pend.unit;
        out[n++] = a;
    }
    return n;
}

int sv_intercept_apply(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a) {
    int ii = s->cur;
    if (a->unit != ii || (a->kind != SV_A_HOLD && a->kind != SV_A_INTERCEPT) ||
        (a->kind == SV_A_INTERCEPT && a->target != s->pend.unit))
        return OPFOR_EILLEGAL;
    s->declined |= 1u << ii;
    if (a->kind == SV_A_HOLD) {
        resume(c, s);
        return 0;
    }
    sv_unit_t *I = &s->u[ii], *mv = &s->u[s->pend.unit];
    I->flags |= SV_F_REACTED;
    /* a counter-charge (the mover charges it) and a unit in command need no test */
    int counter = s->pend.kind == SV_A_CHARGE && s->pend.target == ii;
    int pass = counter || sv_in_command(c, s, ii) || opfor_rng_d6(&s->rng) <= 3;
    sv_unit_t m;
    pend_place(c, s, s->pend_t, &m);
    float d;
    if (!pass || !can_intercept(c, s, ii, &m, &d)) {
        resume(c, s); /* it stays and does nothing more; the mover goes on */
        return 0;
    }
    /* the mover stops where it was; the interceptor goes straight into contact */
    uint16_t flags = mv->flags;
    *mv = m;
    mv->flags = flags | SV_F_ACTED;
    I->x += I->fx * d;
    I->y += I->fy * d;
    I->flags |= SV_F_ACTED;
    mv->markers = (uint8_t)(mv->markers < 255 ? mv->markers + 1 : 255);
    I->markers = (uint8_t)(I->markers < 255 ? I->markers + 1 : 255);
    s->phase = SV_P_MOVE;
    s->side = mv->side;
    return 0;
}

int sv_move_apply(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a) {
    if (a->kind == SV_A_DONE) {
        if (s->mphase == 0)
            sv_start_move(c, s, 1);
        else
            sv_victory(c, s);
        return 0;
    }
    if (a->unit >= s->nunits)
        return OPFOR_EILLEGAL;
    sv_geo_t g; /* sv_move_check's geometry, kept for the interception scan: nobody moves */
    sv_geo_build(c, s, &g);
    facts_t fa = get_facts(c, s, &g, a->unit);
    if (!check_with(c, s, a, &fa))
        return OPFOR_EILLEGAL;
    sv_unit_t *u = &s->u[a->unit];
    sv_unit_t before = *u;
    switch (a->kind) {
    case SV_A_RETREAT: /* §Can a unit be voluntarily retreated?: removed, routed */
        sv_remove(s, a->unit, u->n);
        u->flags |= SV_F_ACTED;
        s->retreating = 1;
        return 0;
    case SV_A_FORM:
        form_unit(u, a->sub, a->arg ? a->arg : sv_default_files(u, a->sub));
        finish(&before, u, SV_F_FORMED);
        return 0;
    case SV_A_LIMBER:
        u->form = a->sub ? SV_LIMBERED : SV_UNLIMBERED;
        u->fx = a->x2;
        u->fy = a->y2;
        u->flags |= SV_F_ACTED;
        return 0;
    case SV_A_MOUNT:
        u->flags ^= SV_F_DISMOUNTED;
        u->flags |= SV_F_ACTED;
        return 0;
    case SV_A_CHARGE: {
        int q = c->opt.unit_quality ? u->quality : 1;
        /* §How does a unit charge?: no test in command, else 1D6 */
        if (!sv_in_command(c, s, a->unit) && opfor_rng_d6(&s->rng) > c->model.charge_need[q]) {
            u->flags |= SV_F_CHARGE_FAILED; /* it may still manoeuvre */
            return 0;
        }
        break;
    }
    case SV_A_MOVE:
        if (a->sub == 2) { /* an about-face changes no position: nobody intercepts it */
            effect(c, s, a);
            return 0;
        }
        break;
    case SV_A_DISENGAGE:
    case SV_A_PROLONG:
        break;
    default:
        return OPFOR_EILLEGAL;
    }
    /* the unit changes position: enemy mounted units may intercept it on the way */
    s->breaking = 0;
    s->pend = *a;
    s->pend_t = 0.0f;
    s->declined = 0;
    if (!intercept_scan_g(c, s, &g))
        effect(c, s, a);
    return 0;
}

/* ---------------------------------------------------------------- pivots before firing */

int sv_fire_pivots(const sv_ctx_t *c, const sv_state_t *s, int ui, opfor_vec_t f[2]) {
    sv_geo_t g;
    sv_geo_build(c, s, &g);
    return sv_fire_pivots_g(c, s, &g, ui, f);
}

int sv_fire_pivots_g(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int ui,
                     opfor_vec_t f[2]) {
    const sv_unit_t *u = &s->u[ui];
    if (!sv_alive(u) || (sv_muskets(u) == 0 && !(sv_is_art(u) && u->form == SV_UNLIMBERED)) ||
        u->form == SV_COLUMN || (u->flags & SV_F_DECIDED) || g->contact[ui])
        return 0;
    /* a pivot about the front centre keeps every corner within the rectangle's diagonal of
     * it: an enemy whose box lies beyond that reach and the range (sv_fire_dice_g's first
     * test) is never a target after it; only the others can be gained, and only those the
     * unit cannot fire at now */
    float wu = sv_width(c, u), du = sv_depth(c, u);
    float reach = sqrtf(wu * wu * 0.25f + du * du) + 0.01f;
    float range = sv_is_art(u) ? (u->kind == SV_FRAME ? 20.0f
                                  : u->kind == SV_GUN ? 40.0f
                                                      : 60.0f)
                               : 7.0f;
    float around[4] = {u->x - reach, u->x + reach, u->y - reach, u->y + reach};
    uint32_t gain = 0;
    for (int t = 0; t < s->nunits; t++)
        if (s->u[t].side != u->side && sv_alive(&s->u[t]) &&
            sv_box_gap(around, g->box[t]) <= range + 1e-3f && sv_fire_dice_g(c, s, g, ui, t) == 0)
            gain |= 1u << t;
    if (!gain)
        return 0;
    float w = sv_width(c, u), half = w > 0.5f ? asinf(0.5f / w) : 1.5707963f;
    float cs = cosf(2.0f * half), sn = sinf(2.0f * half);
    int n = 0;
    sv_state_t ms; /* the unit pivoted, in a copy: the state itself is only read */
    sv_geo_t mg;
    int copied = 0;
    for (int k = -1; k <= 1; k += 2) {
        sv_unit_t m = *u;
        opfor_vec_t to = opfor_vrot(opfor_pt(u->fx, u->fy), cs, sn * (float)k);
        m.fx = to.x;
        m.fy = to.y;
        if (!placement_g(c, s, g, ui, &m, -1))
            continue;
        if (!copied) {
            memcpy(&ms, s, sizeof ms);
            memcpy(&mg, g, sizeof mg);
            copied = 1;
        }
        ms.u[ui] = m;
        sv_geo_unit(c, &ms, &mg, ui);
        int then = 0;
        for (int t = 0; t < s->nunits && !then; t++)
            then = (gain >> t & 1u) && sv_fire_dice_g(c, &ms, &mg, ui, t) > 0;
        if (then)
            f[n++] = to;
    }
    return n;
}

/* ---------------------------------------------------------------- reactions */

static int may_defensive_fire(const sv_state_t *s) {
    const sv_unit_t *t = &s->u[s->charged];
    return sv_is_foot(t) && sv_muskets(t) > 0 && !(t->flags & SV_F_RED);
}

/* Where the charged unit ends when it moves away from the charger (recoil, evade): turned
 * to the charger's own facing, straight away up to `most` inches, same formation; the
 * furthest whole inch that is clear. 0 when it cannot get away. */
static int away_place(const sv_ctx_t *c, const sv_state_t *s, float most, sv_unit_t *m) {
    const sv_unit_t *t = &s->u[s->charged], *ch = &s->u[s->charger];
    opfor_pt_t r[4];
    sv_rect(c, t, r);
    opfor_pt_t ctr = opfor_pt((r[0].x + r[2].x) * 0.5f, (r[0].y + r[2].y) * 0.5f);
    opfor_vec_t g = opfor_pt(ch->fx, ch->fy);
    float d = sv_depth(c, t);
    for (float go = most; go >= 1.0f; go -= 1.0f) {
        *m = *t;
        m->fx = g.x;
        m->fy = g.y;
        m->x = ctr.x + g.x * (go + d * 0.5f);
        m->y = ctr.y + g.y * (go + d * 0.5f);
        if (placement_ok(c, s, s->charged, m, -1))
            return 1;
    }
    return 0;
}

static int may_recoil(const sv_ctx_t *c, const sv_state_t *s, sv_unit_t *m) {
    const sv_unit_t *t = &s->u[s->charged];
    return (sv_is_mounted(c, t) || sv_is_cmd(t)) && t->form != SV_COLUMN &&
           away_place(c, s, 12.0f, m);
}

static int may_evade(const sv_ctx_t *c, const sv_state_t *s, sv_unit_t *m) {
    const sv_unit_t *t = &s->u[s->charged];
    return sv_is_foot(t) && t->form == SV_OPEN && sv_is_foot(&s->u[s->charger]) &&
           away_place(c, s, 6.0f, m);
}

/* The hasty defensive block re-formed about its front centre; 0 when it cannot be formed
 * there (then the unit stays as it was and keeps the markers). */
static int hasty_place(const sv_ctx_t *c, const sv_state_t *s, sv_unit_t *m) {
    const sv_unit_t *t = &s->u[s->charged];
    *m = *t;
    form_unit(m, SV_DEFBLOCK, sv_default_files(t, SV_DEFBLOCK));
    return placement_ok(c, s, s->charged, m, s->charger) && sv_in_contact(c, m, &s->u[s->charger]);
}

static int may_hasty(const sv_state_t *s) {
    const sv_unit_t *t = &s->u[s->charged];
    return sv_is_foot(t) && t->n >= 2 && t->form != SV_DEFBLOCK;
}

static int may_about_face(const sv_state_t *s) {
    const sv_unit_t *t = &s->u[s->charged];
    return sv_is_foot(t) && t->form != SV_DEFBLOCK;
}

int sv_react_legal(const sv_ctx_t *c, const sv_state_t *s, opfor_action_t *out, int max) {
    int n = 0;
    sv_unit_t m;
    if (max < 1)
        return 0;
    opfor_action_t a = act(SV_A_HOLD, s->charged); /* stand and fight */
    out[n++] = a;
    a.target = s->charger;
    if (n < max && may_recoil(c, s, &m)) {
        a.kind = SV_A_RECOIL;
        out[n++] = a;
    }
    if (n < max && may_evade(c, s, &m)) {
        a.kind = SV_A_EVADE;
        out[n++] = a;
    }
    if (n < max && may_hasty(s)) {
        a.kind = SV_A_HASTY;
        out[n++] = a;
    }
    if (n < max && may_about_face(s)) {
        a.kind = SV_A_ABOUTFACE;
        out[n++] = a;
    }
    if (n < max && may_defensive_fire(s)) {
        a.kind = SV_A_DEFFIRE;
        out[n++] = a;
    }
    /* intercepts and counter-charges are decided during the move (SV_P_INTERCEPT); the
     * break-throughs after a recoil, evade or overrun come in a later part */
    return n;
}

static void add(sv_unit_t *u, int k) {
    int m = u->markers + k;
    u->markers = (uint8_t)(m > 255 ? 255 : m);
}

/* §Reactions 4: the charger's weight (2 with Heavy Mounted or lances) on an impact. */
static int heavy_charger(const sv_unit_t *ch) {
    return ch->kind == SV_HEAVY || (ch->flags & SV_F_LANCE);
}

int sv_react_apply(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a) {
    if (a->unit != s->charged)
        return OPFOR_EILLEGAL;
    sv_unit_t *t = &s->u[s->charged], *ch = &s->u[s->charger];
    sv_unit_t m;
    int ok;
    switch (a->kind) {
    case SV_A_HOLD:
        ok = 1;
        break;
    case SV_A_RECOIL:
        ok = a->target == s->charger && may_recoil(c, s, &m);
        break;
    case SV_A_EVADE:
        ok = a->target == s->charger && may_evade(c, s, &m);
        break;
    case SV_A_HASTY:
        ok = a->target == s->charger && may_hasty(s);
        break;
    case SV_A_ABOUTFACE:
        ok = a->target == s->charger && may_about_face(s);
        break;
    case SV_A_DEFFIRE:
        ok = a->target == s->charger && may_defensive_fire(s);
        break;
    default:
        ok = 0;
    }
    if (!ok)
        return OPFOR_EILLEGAL;
    t->flags |= SV_F_REACTED;
    int q = c->opt.unit_quality ? t->quality : 1;
    switch (a->kind) {
    case SV_A_RECOIL: /* §Reactions 2: one marker, away 12"; the break-through comes later */
        *t = m;
        add(t, 1);
        break;
    case SV_A_EVADE: /* §Reactions 3: away 6", no marker */
        *t = m;
        break;
    case SV_A_HASTY: { /* §Reactions 4 */
        int was_block = t->form == SV_BLOCK;
        if (hasty_place(c, s, &m)) {
            uint16_t flags = t->flags;
            *t = m;
            t->flags = flags;
        }
        add(t, was_block ? 1 : 2);
        if (sv_is_mounted(c, ch)) {
            int light = 1;
            if (s->charge_far) { /* the mounted player tests to pull up short */
                int need = sv_pikes(t) > 0 ? 5 : 3;
                if (opfor_rng_d6(&s->rng) <= need) {
                    back_off(c, s, s->charger, 9.0f);
                    if (t->markers > 0)
                        t->markers--;
                    light = -1; /* no impact */
                }
            } else { /* the foot player tests: charge home */
                light = opfor_rng_d6(&s->rng) <= 3;
            }
            if (light >= 0)
                add(t, (light ? 1 : 2) + heavy_charger(ch));
        }
        break;
    }
    case SV_A_ABOUTFACE: { /* §Reactions 5: about-face in place; 1 marker, 2 with pikes */
        float d = sv_depth(c, t);
        t->x -= t->fx * d;
        t->y -= t->fy * d;
        t->fx = -t->fx;
        t->fy = -t->fy;
        add(t, sv_pikes(t) > 0 ? 2 : 1);
        break;
    }
    case SV_A_DEFFIRE: { /* §Reactions 6 */
        int all_round = t->form == SV_OPEN || t->form == SV_DEFBLOCK;
        int mk = sv_muskets(t);
        int stands = all_round ? mk : (mk < t->files ? mk : t->files);
        int hits = sv_roll(s, dice_at(c, ch, stands), c->model.fire_need[q]);
        t->flags |= SV_F_RED;
        add(ch, hits);
        if (hits >= 2)
            back_off(c, s, s->charger, 3.0f);
        else if (hits == 0) /* a light impact on the firer */
            add(t, 1 + heavy_charger(ch));
        break;
    }
    default:
        break;
    }
    s->phase = SV_P_MOVE;
    s->side = (uint8_t)(1 - t->side);
    if (a->kind == SV_A_RECOIL || a->kind == SV_A_EVADE) { /* the charger breaks through */
        s->phase = SV_P_BREAK;
        s->cur = s->charger;
    }
    return 0;
}

/* ---------------------------------------------------------------- break-throughs */

int sv_break_legal(const sv_ctx_t *c, const sv_state_t *s, opfor_action_t *out, int max) {
    int ui = s->cur, n = 0;
    const sv_unit_t *u = &s->u[ui];
    sv_geo_t g;
    sv_geo_build(c, s, &g);
    facts_t fa = get_facts(c, s, &g, ui);
    if (max < 1)
        return 0;
    out[n++] = act(SV_A_HOLD, ui); /* stop where it is */
    if (fa.engaged)
        return n;
    float go = sv_is_foot(u) ? 3.0f : 9.0f;
    opfor_pt_t p = opfor_pt(u->x, u->y);
    opfor_vec_t f = opfor_pt(u->fx, u->fy);
    opfor_action_t a = move_to(ui, opfor_vadd(p, opfor_vscale(f, go)), f, 0);
    n = push(out, n, max, &a, c, s, &fa);
    a = move_to(ui, opfor_vadd(p, opfor_vscale(f, go * 0.5f)), f, 0);
    n = push(out, n, max, &a, c, s, &fa);
    for (int t = 0; t < s->nunits; t++) {
        if (s->u[t].side == u->side || !sv_alive(&s->u[t]))
            continue;
        a = act(SV_A_CHARGE, ui);
        a.target = (uint8_t)t;
        n = push(out, n, max, &a, c, s, &fa);
        a.sub = 1;
        n = push(out, n, max, &a, c, s, &fa);
    }
    return n;
}

int sv_break_apply(const sv_ctx_t *c, sv_state_t *s, const opfor_action_t *a) {
    if (a->unit != s->cur)
        return OPFOR_EILLEGAL;
    if (a->kind == SV_A_HOLD) {
        s->phase = SV_P_MOVE;
        return 0;
    }
    sv_geo_t g;
    sv_geo_build(c, s, &g);
    facts_t fa = get_facts(c, s, &g, a->unit);
    if ((a->kind != SV_A_MOVE && a->kind != SV_A_CHARGE) || !check_with(c, s, a, &fa))
        return OPFOR_EILLEGAL;
    s->phase = SV_P_MOVE; /* the charge passes its test by itself */
    s->breaking = 1;
    s->pend = *a;
    s->pend_t = 0.0f;
    s->declined = 0;
    if (!intercept_scan(c, s))
        effect(c, s, a);
    return 0;
}
