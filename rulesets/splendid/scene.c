/* rulesets/splendid/scene.c — a game of A Splendid Victory! as a drawable scene
 * (opfor/scene.h) for the e-ink card's mini-map, the table page and game.state: the terrain
 * by style, every unit with stands left as its formation's rectangle turned to its facing
 * (named with its stands, the AI's side filled, the unit deciding now ringed, the unit it
 * charges or fires at cross-haired, a unit carrying hit markers marked), and the turn and
 * phase as a label. Nothing hidden: the game has no hidden information.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_int.h"
#include "scene_int.h"

#define SV_SCENE_PI 3.14159265358979323846

/* A terrain feature, thinned evenly to the scene's vertices (first and last kept). */
static int add_feature(opfor_scene_t *s, const opfor_terrain_feature_t *f) {
    if (f->npts < 2)
        return 0;
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
    snprintf(sh.name, sizeof sh.name, "%s", f->name);
    return opfor_scene_add_shape(s, &sh);
}

/* The unit deciding now and the unit it acts on (-1: none). */
static void acting(const sv_state_t *s, int *actor, int *target) {
    *actor = *target = -1;
    switch (s->phase) {
    case SV_P_PIVOT:
    case SV_P_FIRE:
    case SV_P_JOIN:
    case SV_P_MELEE:
    case SV_P_RETHROW:
        *actor = s->cur;
        if (s->u[s->cur].target != 0xFF)
            *target = s->u[s->cur].target;
        break;
    case SV_P_REACT:
        *actor = s->charged;
        *target = s->charger;
        break;
    case SV_P_INTERCEPT:
        *target = s->pend.unit;
        break;
    case SV_P_BREAK:
        *actor = s->charger;
        break;
    default:
        break;
    }
}

static const char *const PHASE[SV_P_OVER + 1] = {
    "initiative",   "fire",     "fire",     "fire",      "hand-to-hand",  "hand-to-hand",
    "hand-to-hand", "movement", "reaction", "intercept", "break-through", "game over"};

int opfor__sv_scene(const void *ctx, const void *state, int viewer, opfor_scene_t *out) {
    const sv_ctx_t *c = ctx;
    const sv_state_t *s = state;
    if (!c || !s || !out || viewer < OPFOR_VIEW_ALL || viewer > 1)
        return OPFOR_EINVAL;
    out->width = c->width;
    out->depth = c->depth;
    for (int i = 0; i < c->table.nfeatures; i++) {
        int rc = add_feature(out, &c->table.features[i]);
        if (rc < 0)
            return rc;
    }
    int actor, target;
    acting(s, &actor, &target);
    for (int i = 0; i < s->nunits; i++) {
        const sv_unit_t *u = &s->u[i];
        if (!sv_alive(u))
            continue;
        opfor_scene_unit_t su;
        memset(&su, 0, sizeof su);
        float w = sv_width(c, u), d = sv_depth(c, u);
        su.at = (opfor_scene_pt_t){u->x - u->fx * d / 2.0f, u->y - u->fy * d / 2.0f};
        su.w = w;
        su.d = d;
        float deg = (float)(atan2((double)u->fx, (double)u->fy) * 180.0 / SV_SCENE_PI);
        su.facing = deg < 0.0f ? deg + 360.0f : deg;
        su.side = u->side;
        su.id = (uint16_t)i;
        if (!c->side_player[u->side])
            su.flags |= OPFOR_SCENE_U_AI;
        if (i == actor)
            su.flags |= OPFOR_SCENE_U_ACTING;
        if (i == target)
            su.flags |= OPFOR_SCENE_U_TARGET;
        if (u->markers)
            su.flags |= OPFOR_SCENE_U_SHAKEN;
        if (sv_is_cmd(u) || sv_is_art(u))
            snprintf(su.name, sizeof su.name, "%s", c->names[i]);
        else
            snprintf(su.name, sizeof su.name, "%.23s (%u)", c->names[i], (unsigned)u->n);
        int rc = opfor_scene_add_unit(out, &su);
        if (rc < 0)
            return rc;
    }
    char text[OPFOR_SCENE_NAME_LEN];
    snprintf(text, sizeof text, "turn %d, %s", s->turn, PHASE[s->phase]);
    return opfor_scene_add_label(out, (opfor_scene_pt_t){1.0f, 1.0f}, text);
}
