/* rulesets/viktoria/patrol_place.c — the players' front line and where spotted enemies
 * appear (Viktoria! XV.B, "Placement of Enemy Units").
 *
 * Geometry works in a frame turned so that depth d runs from the players' edge toward
 * enemy territory and s runs across the table. The ground the players hold is a depth
 * profile over OPFOR_PATROL_COLS columns: everything in a column up to its depth lies
 * behind the line, except woods and buildings nobody has entered. A profile is small and
 * copies with the state, keeps the "ground passed through stays held" rule as a running
 * maximum, and answers "behind the line?" in O(1). Placement then follows the compass ray
 * from the line's furthest-forward point, or traces the table edge; see
 * docs/patrol-mode.md for the exact rules and their names.
 */
#include "opfor/viktoria/patrol.h"
#include "opfor/viktoria/scenario.h"

#include <math.h>
#include <string.h>

const opfor_name_t opfor_patrol_rule_names[] = {
    {"front", OPFOR_PLACE_FRONT},
    {"flank", OPFOR_PLACE_FLANK},
    {"off_table", OPFOR_PLACE_OFF_TABLE},
    {"behind", OPFOR_PLACE_BEHIND},
    {"refused_behind", OPFOR_PLACE_REFUSED_BEHIND},
    {"refused_no_room", OPFOR_PLACE_REFUSED_ROOM},
    {"refused_no_players", OPFOR_PLACE_REFUSED_NONE},
    {NULL, 0},
};

const char *opfor_patrol_rule_text(int rule) {
    switch (rule) {
    case OPFOR_PLACE_FRONT:
        return "in front of the line, along the compass ray from the furthest-forward point";
    case OPFOR_PLACE_FLANK:
        return "on the flank: from the table edge in that direction, traced back along the "
               "edge toward the enemy";
    case OPFOR_PLACE_OFF_TABLE:
        return "would fall off the table: traced back along the edge toward the enemy";
    case OPFOR_PLACE_BEHIND:
        return "behind the line, as the scenario allows";
    case OPFOR_PLACE_REFUSED_BEHIND:
        return "refused: it would appear behind the players' line";
    case OPFOR_PLACE_REFUSED_ROOM:
        return "refused: no point on the table is outside the line at that distance";
    case OPFOR_PLACE_REFUSED_NONE:
        return "refused: the players have no unit on the table";
    default:
        return "?";
    }
}

int opfor_patrol_rule_refused(int rule, const char **why) {
    int refused = rule == OPFOR_PLACE_REFUSED_BEHIND || rule == OPFOR_PLACE_REFUSED_ROOM ||
                  rule == OPFOR_PLACE_REFUSED_NONE;
    if (why) {
        const char *t = opfor_patrol_rule_text(rule), *colon = strchr(t, ':');
        *why = refused && colon ? colon + 2 : "";
    }
    return refused;
}

/* ---- the frame ---- */

typedef struct frame {
    float W, D;   /* table size */
    float ls, ld; /* extent across (s) and in depth (d) */
    int axis;     /* 0: forward is +y, 1: -y, 2: +x, 3: -x */
    float cw;     /* column width */
} frame_t;

static void frame_of(const opfor_patrol_config_t *cfg, frame_t *f) {
    f->W = cfg->table.width;
    f->D = cfg->table.depth;
    opfor_vec_t v = cfg->forward;
    if (fabsf(v.y) >= fabsf(v.x))
        f->axis = v.y >= 0.0f ? 0 : 1;
    else
        f->axis = v.x >= 0.0f ? 2 : 3;
    f->ls = f->axis < 2 ? f->W : f->D;
    f->ld = f->axis < 2 ? f->D : f->W;
    f->cw = f->ls / (float)OPFOR_PATROL_COLS;
}

/* A direction in the frame: (across, forward) components. */
static void vec_sd(const frame_t *f, opfor_vec_t v, float *vs, float *vd) {
    switch (f->axis) {
    case 0:
        *vs = v.x, *vd = v.y;
        break;
    case 1:
        *vs = v.x, *vd = -v.y;
        break;
    case 2:
        *vs = v.y, *vd = v.x;
        break;
    default:
        *vs = v.y, *vd = -v.x;
        break;
    }
}

/* A point in the frame: its components as a direction, shifted by the table's size where
 * depth runs against the table's axis. */
static void to_sd(const frame_t *f, opfor_pt_t p, float *s, float *d) {
    vec_sd(f, p, s, d);
    if (f->axis == 1)
        *d += f->D;
    else if (f->axis == 3)
        *d += f->W;
}

static opfor_pt_t from_sd(const frame_t *f, float s, float d) {
    switch (f->axis) {
    case 0:
        return opfor_pt(s, d);
    case 1:
        return opfor_pt(s, f->D - d);
    case 2:
        return opfor_pt(d, s);
    default:
        return opfor_pt(f->W - d, s);
    }
}

static int col_of(const frame_t *f, float s) {
    int c = (int)floorf(s / f->cw);
    return c < 0 ? 0 : c >= OPFOR_PATROL_COLS ? OPFOR_PATROL_COLS - 1 : c;
}

/* ---- forces ---- */

int opfor_patrol_in_play(const opfor_patrol_forces_t *fo, int u) {
    if (u < 0 || u >= fo->nunits)
        return 0;
    const opfor_unit_t *un = &fo->units[u];
    if (un->flags & OPFOR_UNIT_OFF_TABLE)
        return 0;
    for (int i = un->first; i < un->first + un->count && i < fo->nfigures; i++)
        if (fo->figures[i].flags & OPFOR_FIG_ALIVE)
            return 1;
    return 0;
}

/* Whether figure i is a living player figure on the table. */
static int player_fig(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo, int i) {
    const opfor_figure_t *g = &fo->figures[i];
    if (!(g->flags & OPFOR_FIG_ALIVE) || g->unit >= fo->nunits)
        return 0;
    const opfor_unit_t *u = &fo->units[g->unit];
    return u->side == cfg->player && !(u->flags & OPFOR_UNIT_OFF_TABLE);
}

/* Base-edge distance from p to the nearest living player figure; large when none. */
static float clearance(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo,
                       opfor_pt_t p) {
    float best = 1e9f;
    for (int i = 0; i < fo->nfigures; i++) {
        if (!player_fig(cfg, fo, i))
            continue;
        float dd = opfor_dist(p, fo->figures[i].pos) -
                   opfor_figure_radius(&opfor_viktoria_terrain_rules.radii, &fo->figures[i]);
        if (dd < best)
            best = dd;
    }
    return best < 0.0f ? 0.0f : best;
}

/* ---- the line ---- */

/* Depth of the current line per column (< 0: none), from the player units in play. */
static void current_line(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo,
                         const frame_t *f, float *line) {
    for (int c = 0; c < OPFOR_PATROL_COLS; c++)
        line[c] = -1.0f;
    for (int u = 0; u < fo->nunits; u++) {
        const opfor_unit_t *un = &fo->units[u];
        if (un->side != cfg->player || !opfor_patrol_in_play(fo, u))
            continue;
        float smin = 1e9f, smax = -1e9f, front = -1e9f;
        for (int i = un->first; i < un->first + un->count && i < fo->nfigures; i++) {
            const opfor_figure_t *g = &fo->figures[i];
            if (!(g->flags & OPFOR_FIG_ALIVE))
                continue;
            float s, d, r = opfor_figure_radius(&opfor_viktoria_terrain_rules.radii, g);
            to_sd(f, g->pos, &s, &d);
            smin = fminf(smin, s - r);
            smax = fmaxf(smax, s + r);
            front = fmaxf(front, d + r);
        }
        if (front < 0.0f)
            front = 0.0f;
        if (front > f->ld)
            front = f->ld;
        for (int c = col_of(f, smin); c <= col_of(f, smax); c++)
            if (front > line[c])
                line[c] = front;
    }
    /* Join neighbouring stretches whose facing ends are within the gap (XV.B). */
    int last = -1;
    for (int c = 0; c < OPFOR_PATROL_COLS; c++) {
        if (line[c] < 0.0f)
            continue;
        if (last >= 0 && c > last + 1) {
            float sa = (float)(last + 1) * f->cw, da = line[last];
            float sb = (float)c * f->cw, db = line[c];
            float gap = sqrtf((sb - sa) * (sb - sa) + (db - da) * (db - da));
            if (gap <= cfg->front_line_gap + 1e-4f)
                for (int k = last + 1; k < c; k++) {
                    float t = ((float)k + 0.5f - (float)(last + 1)) / (float)(c - last - 1);
                    line[k] = da + (db - da) * t;
                }
        }
        last = c;
    }
}

static void mark_entered(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                         const opfor_patrol_forces_t *fo) {
    const opfor_table_t *t = &cfg->table;
    for (int k = 0; k < t->nfeatures && k < 64; k++) {
        if (!(t->features[k].flags & OPFOR_TF_HIDES) || (ps->entered >> k & 1u))
            continue;
        for (int i = 0; i < fo->nfigures; i++)
            if (player_fig(cfg, fo, i) &&
                opfor_feature_contains(&t->features[k], fo->figures[i].pos)) {
                ps->entered |= (uint64_t)1 << k;
                break;
            }
    }
}

void opfor_patrol_observe(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                          const opfor_patrol_forces_t *fo) {
    frame_t f;
    float line[OPFOR_PATROL_COLS];
    frame_of(cfg, &f);
    current_line(cfg, fo, &f, line);
    for (int c = 0; c < OPFOR_PATROL_COLS; c++) {
        if (cfg->keep_passed_ground)
            ps->ctrl[c] = fmaxf(ps->ctrl[c], line[c]);
        else
            ps->ctrl[c] = line[c];
    }
    mark_entered(cfg, ps, fo);
}

void opfor_patrol_init(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                       const opfor_patrol_forces_t *fo) {
    frame_t f;
    memset(ps, 0, sizeof *ps);
    ps->turn = 1;
    frame_of(cfg, &f);
    for (int c = 0; c < OPFOR_PATROL_COLS; c++)
        ps->ctrl[c] = -1.0f;
    memset(ps->tmpl, OPFOR_PATROL_NONE, sizeof ps->tmpl);
    /* The player side's territory is held from the start: in each column, the furthest
     * depth at which the column's centre line lies inside it. */
    if (cfg->nterritory >= 3)
        for (int c = 0; c < OPFOR_PATROL_COLS; c++) {
            float s = ((float)c + 0.5f) * f.cw;
            for (int k = (int)(f.ld / OPFOR_PATROL_STEP); k >= 0; k--) {
                float d = (float)k * OPFOR_PATROL_STEP;
                if (opfor_poly_contains(cfg->territory, cfg->nterritory, from_sd(&f, s, d))) {
                    ps->ctrl[c] = d;
                    break;
                }
            }
        }
    opfor_patrol_observe(cfg, ps, fo);
    ps->area_at_spot = opfor_patrol_area(cfg, ps);
}

float opfor_patrol_area(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps) {
    frame_t f;
    frame_of(cfg, &f);
    float a = 0.0f;
    for (int c = 0; c < OPFOR_PATROL_COLS; c++)
        if (ps->ctrl[c] > 0.0f)
            a += ps->ctrl[c] * f.cw;
    return a;
}

/* Whether p lies in a hiding feature the players have not entered. */
static int hidden_ground(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                         opfor_pt_t p) {
    const opfor_table_t *t = &cfg->table;
    for (int k = 0; k < t->nfeatures; k++)
        if ((t->features[k].flags & OPFOR_TF_HIDES) && !(k < 64 && (ps->entered >> k & 1u)) &&
            opfor_feature_contains(&t->features[k], p))
            return 1;
    return 0;
}

static int controlled_f(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                        const frame_t *f, opfor_pt_t p) {
    float s, d;
    to_sd(f, p, &s, &d);
    float c = ps->ctrl[col_of(f, s)];
    if (c < 0.0f || d > c + 1e-4f)
        return 0;
    return !(cfg->hiding_terrain && hidden_ground(cfg, ps, p));
}

int opfor_patrol_controlled(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                            opfor_pt_t p) {
    frame_t f;
    frame_of(cfg, &f);
    return controlled_f(cfg, ps, &f, p);
}

int opfor_patrol_dot(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                     const opfor_patrol_forces_t *fo, opfor_pt_t *dot) {
    frame_t f;
    frame_of(cfg, &f);
    float best = -1.0f;
    for (int c = 0; c < OPFOR_PATROL_COLS; c++)
        best = fmaxf(best, ps->ctrl[c]);
    if (best < 0.0f)
        return OPFOR_ENOENT;
    /* Lateral centre of the player figures, to break ties between plateaus. */
    float sum = 0.0f;
    int n = 0;
    for (int i = 0; i < fo->nfigures; i++) {
        if (!player_fig(cfg, fo, i))
            continue;
        float s, d;
        to_sd(&f, fo->figures[i].pos, &s, &d);
        sum += s;
        n++;
    }
    if (n == 0)
        return OPFOR_ENOENT;
    float centre = sum / (float)n, bs = 0.0f, bdist = 1e9f;
    for (int c = 0; c < OPFOR_PATROL_COLS;) {
        if (ps->ctrl[c] < best - 0.01f) {
            c++;
            continue;
        }
        int a = c;
        while (c < OPFOR_PATROL_COLS && ps->ctrl[c] >= best - 0.01f)
            c++;
        float mid = 0.5f * ((float)a + (float)c) * f.cw;
        if (fabsf(mid - centre) < bdist) {
            bdist = fabsf(mid - centre);
            bs = mid;
        }
    }
    *dot = from_sd(&f, bs, best);
    return 0;
}

/* ---- placement ---- */

typedef struct placer {
    const opfor_patrol_config_t *cfg;
    const opfor_patrol_state_t *ps;
    const opfor_patrol_forces_t *fo;
    frame_t f;
    float m;            /* minimum distance */
    int mounted;        /* closed terrain counts as impassable */
    int use_ctrl;       /* 1: the point must be outside the line */
    float lo, his, hid; /* inset box in the frame: s in [lo, his], d in [lo, hid] */
} placer_t;

static int accept(const placer_t *p, float s, float d, opfor_pt_t *out) {
    opfor_pt_t q = from_sd(&p->f, s, d);
    if (p->use_ctrl && controlled_f(p->cfg, p->ps, &p->f, q))
        return 0;
    if (opfor_terrain_impassable_at(&p->cfg->table, q, p->mounted) >= 0)
        return 0;
    if (clearance(p->cfg, p->fo, q) < p->m - 1e-3f)
        return 0;
    *out = q;
    return 1;
}

/* Parameter t >= 0 where the ray from (s, d) along (vs, vd) leaves the inset box; 0 when
 * it starts outside. */
static float ray_exit(const placer_t *p, float s, float d, float vs, float vd) {
    if (s < p->lo - 1e-4f || s > p->his + 1e-4f || d < p->lo - 1e-4f || d > p->hid + 1e-4f)
        return 0.0f;
    float t = 1e9f;
    if (vs > 1e-6f)
        t = fminf(t, (p->his - s) / vs);
    if (vs < -1e-6f)
        t = fminf(t, (p->lo - s) / vs);
    if (vd > 1e-6f)
        t = fminf(t, (p->hid - d) / vd);
    if (vd < -1e-6f)
        t = fminf(t, (p->lo - d) / vd);
    return t < 0.0f ? 0.0f : t;
}

/* Walks the polyline pts[0..n) (frame coordinates) in steps, returning the walked length
 * of the first acceptable point in *len, or -1 when none is. */
static int walk(const placer_t *p, const float (*pts)[2], int n, opfor_pt_t *out, float *len) {
    float done = 0.0f;
    for (int k = 0; k + 1 < n; k++) {
        float ds = pts[k + 1][0] - pts[k][0], dd = pts[k + 1][1] - pts[k][1];
        float seg = sqrtf(ds * ds + dd * dd);
        int steps = (int)ceilf(seg / OPFOR_PATROL_STEP);
        for (int i = (k == 0 ? 0 : 1); i <= steps; i++) {
            float t = steps ? (float)i / (float)steps : 0.0f;
            if (accept(p, pts[k][0] + ds * t, pts[k][1] + dd * t, out)) {
                *len = done + seg * t;
                return 0;
            }
        }
        done += seg;
    }
    return -1;
}

/* Traces the table edge from (s, d) toward enemy territory (XV.B): up a flank edge and
 * then along the enemy's edge; from the players' own edge first toward the corner on the
 * side sgn (0: whichever succeeds sooner); along the enemy's edge toward sgn only. */
static int trace(const placer_t *p, float s, float d, float sgn, opfor_pt_t *out, float *len) {
    const float eps = 1e-3f;
    float lo = p->lo, his = p->his, hid = p->hid;
    float pts[5][2];
    int n = 0;
    int on_left = fabsf(s - lo) < eps, on_right = fabsf(s - his) < eps;
    int on_top = fabsf(d - hid) < eps;
    if (sgn == 0.0f && !on_left && !on_right) {
        opfor_pt_t a, b;
        float la, lb;
        int ra = trace(p, s, d, 1.0f, &a, &la), rb = trace(p, s, d, -1.0f, &b, &lb);
        if (ra == 0 && (rb != 0 || la <= lb)) {
            *out = a, *len = la;
            return 0;
        }
        if (rb == 0) {
            *out = b, *len = lb;
            return 0;
        }
        return -1;
    }
    pts[n][0] = s, pts[n][1] = d, n++;
    if (on_top && !on_left && !on_right) {
        pts[n][0] = sgn > 0.0f ? his : lo, pts[n][1] = hid, n++;
        return walk(p, (const float(*)[2])pts, n, out, len);
    }
    float side = on_left ? lo : on_right ? his : (sgn > 0.0f ? his : lo);
    if (!on_left && !on_right) { /* along the players' edge (or a line inside) to the corner */
        pts[n][0] = side, pts[n][1] = d, n++;
    }
    pts[n][0] = side, pts[n][1] = hid, n++;
    pts[n][0] = side == lo ? his : lo, pts[n][1] = hid, n++;
    return walk(p, (const float(*)[2])pts, n, out, len);
}

int opfor_patrol_place(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                       const opfor_patrol_forces_t *fo, int dir, float min_distance, int mounted,
                       opfor_patrol_placement_t *out) {
    if (!cfg || !ps || !fo || !out || (unsigned)dir >= OPFOR_COMPASS_COUNT ||
        !(min_distance >= 0.0f) || min_distance > 1000.0f)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    out->direction = dir;
    out->min_distance = min_distance;
    placer_t p;
    p.cfg = cfg, p.ps = ps, p.fo = fo, p.m = min_distance, p.mounted = mounted, p.use_ctrl = 1;
    frame_of(cfg, &p.f);
    float inset = cfg->edge_inset;
    if (inset * 2.0f > fminf(p.f.ls, p.f.ld))
        inset = 0.0f;
    p.lo = inset, p.his = p.f.ls - inset, p.hid = p.f.ld - inset;
    if (opfor_patrol_dot(cfg, ps, fo, &out->dot) != 0) {
        out->rule = OPFOR_PLACE_REFUSED_NONE;
        return 0;
    }
    float s0, d0, vs, vd;
    to_sd(&p.f, out->dot, &s0, &d0);
    /* Start the ray inside the inset box: a dot at the very edge would exit at once. */
    s0 = fminf(fmaxf(s0, p.lo), p.his);
    d0 = fminf(fmaxf(d0, p.lo), p.hid);
    vec_sd(&p.f, opfor_compass_vec((opfor_table_north_t)cfg->table.north, (opfor_compass_t)dir),
           &vs, &vd);
    float texit = ray_exit(&p, s0, d0, vs, vd);
    float es = s0 + vs * texit, ed = d0 + vd * texit;
    out->edge = from_sd(&p.f, es, ed);
    float sgn = vs > 0.1f ? 1.0f : vs < -0.1f ? -1.0f : 0.0f;
    int forward = vd > 0.1f, lateral = fabsf(vd) <= 0.1f;
    opfor_pt_t q;
    float len;
    int direct = forward;
    if (!forward && !lateral) {
        /* Backward: the players' own edge and the ground behind the line are friendly; a ray
         * leaving through a flank edge outside the line is a flank appearance. */
        int own_edge = ed <= p.lo + 1e-3f;
        if (own_edge || controlled_f(cfg, ps, &p.f, out->edge)) {
            if (!cfg->allow_behind) {
                out->rule = OPFOR_PLACE_REFUSED_BEHIND;
                return 0;
            }
            direct = 1;
            p.use_ctrl = 0;
        }
    }
    if (direct) {
        for (int k = 0;; k++) {
            float t = min_distance + (float)k * OPFOR_PATROL_STEP;
            if (t > texit + 1e-4f)
                break;
            if (accept(&p, s0 + vs * t, d0 + vd * t, &q)) {
                out->placed = 1;
                out->rule = p.use_ctrl ? OPFOR_PLACE_FRONT : OPFOR_PLACE_BEHIND;
                out->point = q;
                out->edge = q;
                out->distance = clearance(cfg, fo, q);
                return 0;
            }
        }
        out->rule = OPFOR_PLACE_OFF_TABLE;
    } else {
        out->rule = OPFOR_PLACE_FLANK;
    }
    if (trace(&p, es, ed, sgn, &q, &len) != 0) {
        out->rule = OPFOR_PLACE_REFUSED_ROOM;
        return 0;
    }
    out->placed = 1;
    out->point = q;
    out->traced = len;
    out->distance = clearance(cfg, fo, q);
    return 0;
}
