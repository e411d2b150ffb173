/* rulesets/viktoria/daemon/vk_game_scene.c — the table of a Viktoria! game as a drawable scene
 * (opfor/scene.h) for game.state's `scene`: terrain, objectives, the generals' command radii,
 * every unit in play as a rectangle turned to its facing, and the last order's path, target
 * and newly spotted units. The table page (io/web/map.js) draws it without knowing the rules.
 * Built into a caller's scene (large: the caller allocates it); nothing here allocates. */
#include "vk_game_int.h"

#include <math.h>
#include <string.h>

#include "opfor/scene.h"
#include "opfor/viktoria/calc.h"
#include "opfor/vocab.h"

#define VK_SCENE_PI 3.14159265358979323846

static void set_name(char *dst, const char *src) {
    size_t n = strnlen(src, OPFOR_SCENE_NAME_LEN - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* A terrain feature, thinned evenly to the scene's vertices (first and last kept). */
static void add_feature(opfor_scene_t *s, const opfor_terrain_feature_t *f) {
    if (f->npts < 2)
        return;
    opfor_scene_shape_t sh;
    memset(&sh, 0, sizeof sh);
    sh.style = opfor_scene_terrain_style(f->kind);
    sh.closed = (uint8_t)(f->shape == OPFOR_SHAPE_AREA && f->npts >= 3);
    int n = f->npts, k = n <= OPFOR_SCENE_MAX_VERTS ? n : OPFOR_SCENE_MAX_VERTS;
    for (int i = 0; i < k; i++) {
        int j = k == n ? i : (int)((long)i * (n - 1) / (k - 1));
        sh.v[i] = (opfor_scene_pt_t){f->pts[j].x, f->pts[j].y};
    }
    sh.n = (uint8_t)k;
    set_name(sh.name, f->name);
    opfor_scene_add_shape(s, &sh);
}

/* A circle as a 16-gon of the given style. */
static void add_circle(opfor_scene_t *s, int style, opfor_pt_t c, float r, const char *name) {
    opfor_scene_shape_t sh;
    memset(&sh, 0, sizeof sh);
    sh.style = (uint8_t)style;
    sh.closed = 1;
    sh.n = OPFOR_SCENE_MAX_VERTS;
    for (int i = 0; i < OPFOR_SCENE_MAX_VERTS; i++) {
        double a = 2.0 * VK_SCENE_PI * i / OPFOR_SCENE_MAX_VERTS;
        sh.v[i] = (opfor_scene_pt_t){(float)(c.x + r * cos(a)), (float)(c.y + r * sin(a))};
    }
    set_name(sh.name, name);
    opfor_scene_add_shape(s, &sh);
}

/* Unit u's rectangle: its living figures measured across and along its facing, each widened
 * by a base (1 in); 0, or -1 when it has no living figure. */
static int unit_rect(const opfor__vkg_table_t *t, int u, opfor_scene_unit_t *out) {
    const opfor_unit_t *un = &t->units[u];
    float fx = un->facing.x, fy = un->facing.y, len = sqrtf(fx * fx + fy * fy);
    if (len < 1e-6f) {
        fx = 0;
        fy = 1;
    } else {
        fx /= len;
        fy /= len;
    }
    float lo_r = 0, hi_r = 0, lo_f = 0, hi_f = 0;
    int seen = 0;
    for (int i = un->first; i < un->first + un->count && i < t->nfigures; i++) {
        const opfor_figure_t *f = &t->figures[i];
        if (!opfor_figure_alive(f))
            continue;
        float r = f->pos.x * fy - f->pos.y * fx; /* across: the facing turned right */
        float a = f->pos.x * fx + f->pos.y * fy; /* along the facing */
        if (!seen++) {
            lo_r = hi_r = r;
            lo_f = hi_f = a;
        }
        lo_r = fminf(lo_r, r);
        hi_r = fmaxf(hi_r, r);
        lo_f = fminf(lo_f, a);
        hi_f = fmaxf(hi_f, a);
    }
    if (!seen)
        return -1;
    float mr = (lo_r + hi_r) / 2, mf = (lo_f + hi_f) / 2;
    out->at = (opfor_scene_pt_t){mr * fy + mf * fx, -mr * fx + mf * fy};
    out->w = hi_r - lo_r + 1.0f;
    out->d = hi_f - lo_f + 1.0f;
    double deg =
        atan2((double)fx, (double)fy) * 180.0 / VK_SCENE_PI; /* clockwise from north (+y) */
    out->facing = (float)(deg < 0 ? deg + 360.0 : deg);
    return 0;
}

/* Where an arrow to p from the nearest table edge starts. */
static opfor_scene_pt_t nearest_edge(const opfor_scene_t *s, opfor_scene_pt_t p) {
    float d[4] = {p.x, s->width - p.x, p.y, s->depth - p.y};
    int k = 0;
    for (int i = 1; i < 4; i++)
        if (d[i] < d[k])
            k = i;
    opfor_scene_pt_t e = p;
    if (k == 0)
        e.x = 0;
    else if (k == 1)
        e.x = s->width;
    else if (k == 2)
        e.y = 0;
    else
        e.y = s->depth;
    return e;
}

void opfor__vkg_scene(const opfor__vkg_t *g, const opfor__vkg_table_t *t, opfor_scene_t *s) {
    memset(s, 0, sizeof *s);
    s->width = g->cfg->table.width;
    s->depth = g->cfg->table.depth;
    const opfor_table_t *tb = &g->cfg->table;
    for (int i = 0; i < tb->nfeatures && i < OPFOR_MAX_FEATURES; i++)
        add_feature(s, &tb->features[i]);
    for (int i = 0; i < g->sc->nobjectives; i++) {
        const opfor_objective_t *o = &g->sc->objectives[i];
        add_circle(s, OPFOR_SCENE_OBJECTIVE, o->pos, o->radius > 0 ? o->radius : 1.0f, o->name);
    }
    /* The generals' command radius at the weather now (XIII), dashed zones around them. */
    float cr = (float)opfor_viktoria_command_radius(t->weather[0]);
    const opfor__vkg_order_t *o = &t->order;
    int acting = o->active && o->open ? o->unit : -1;
    int target = acting >= 0 ? o->target : -1;
    opfor_scene_unit_t rect[OPFOR_MAX_UNITS];
    int have[OPFOR_MAX_UNITS];
    for (int u = 0; u < t->nunits && u < OPFOR_MAX_UNITS; u++) {
        const opfor_unit_t *un = &t->units[u];
        memset(&rect[u], 0, sizeof rect[u]);
        have[u] = !(un->flags & OPFOR_UNIT_OFF_TABLE) && unit_rect(t, u, &rect[u]) == 0;
        if (have[u] && (un->flags & OPFOR_UNIT_GENERAL) && cr > 0)
            add_circle(s, OPFOR_SCENE_ZONE, (opfor_pt_t){rect[u].at.x, rect[u].at.y}, cr,
                       "command radius");
    }
    for (int u = 0; u < t->nunits && u < OPFOR_MAX_UNITS; u++) {
        if (!have[u])
            continue;
        const opfor_unit_t *un = &t->units[u];
        opfor_scene_unit_t *r = &rect[u];
        r->side = un->side;
        r->id = (uint16_t)u;
        set_name(r->name, un->name);
        if (un->side != g->player)
            r->flags |= OPFOR_SCENE_U_AI;
        if (u == acting)
            r->flags |= OPFOR_SCENE_U_ACTING;
        if (u == target)
            r->flags |= OPFOR_SCENE_U_TARGET;
        if (un->status == OPFOR_WAVERING)
            r->flags |= OPFOR_SCENE_U_SHAKEN;
        /* Newly arrived: placed after a spotting (Patrol Mode) and not yet acted. */
        if (g->mode == OPFOR_MODE_COOP && t->ps.origin[u] == OPFOR_PATROL_FROM_SPOTTING &&
            !(un->flags & OPFOR_UNIT_ACTED)) {
            r->flags |= OPFOR_SCENE_U_SPOTTED;
            opfor_scene_add_arrow(s, OPFOR_SCENE_PLACE, nearest_edge(s, r->at), r->at);
        }
        opfor_scene_add_unit(s, r);
    }
    if (acting >= 0 && acting < OPFOR_MAX_UNITS && have[acting]) {
        opfor_scene_pt_t from = rect[acting].at;
        if (o->has_stop) {
            if (o->has_via) {
                opfor_scene_pt_t via = {o->via.x, o->via.y};
                opfor_scene_add_arrow(s, OPFOR_SCENE_MOVE, from, via);
                from = via;
            }
            opfor_scene_add_arrow(s, OPFOR_SCENE_MOVE, from,
                                  (opfor_scene_pt_t){o->stop.x, o->stop.y});
        }
        if (target >= 0 && target < OPFOR_MAX_UNITS && have[target])
            opfor_scene_add_arrow(s, OPFOR_SCENE_FIRE, rect[acting].at, rect[target].at);
    }
}
