/* core/scene.c — filling a drawable scene of the table (opfor/scene.h): names of the styles
 * and bounded appends, so a ruleset never writes past the scene's fixed arrays.
 */
#include "opfor/scene.h"

#include <stdio.h>
#include <string.h>

#include "opfor/error.h"
#include "opfor/vocab.h"

static const char *const STYLE_NAMES[OPFOR_SCENE_STYLE_COUNT] = {
    "open",  "woods",     "building", "hill",  "water", "road",  "linear",
    "rough", "objective", "zone",     "hedge", "fence", "works", "impassable",
};

const char *opfor_scene_style_name(int style) {
    if (style < 0 || style >= OPFOR_SCENE_STYLE_COUNT)
        return "?";
    return STYLE_NAMES[style];
}

uint8_t opfor_scene_terrain_style(int kind) {
    static const uint8_t style[OPFOR_TK_COUNT] = {
        [OPFOR_TK_OPEN] = OPFOR_SCENE_OPEN,         [OPFOR_TK_WOODS] = OPFOR_SCENE_WOODS,
        [OPFOR_TK_BUILDING] = OPFOR_SCENE_BUILDING, [OPFOR_TK_WALL] = OPFOR_SCENE_LINEAR,
        [OPFOR_TK_HEDGE] = OPFOR_SCENE_HEDGE,       [OPFOR_TK_FENCE] = OPFOR_SCENE_FENCE,
        [OPFOR_TK_HILL] = OPFOR_SCENE_HILL,         [OPFOR_TK_ROAD] = OPFOR_SCENE_ROAD,
        [OPFOR_TK_RIVER] = OPFOR_SCENE_WATER,       [OPFOR_TK_FIELD_WORKS] = OPFOR_SCENE_WORKS,
        [OPFOR_TK_ROUGH] = OPFOR_SCENE_ROUGH,       [OPFOR_TK_IMPASSABLE] = OPFOR_SCENE_IMPASSABLE,
    };
    return kind >= 0 && kind < OPFOR_TK_COUNT ? style[kind] : OPFOR_SCENE_OPEN;
}

int opfor_scene_add_unit(opfor_scene_t *s, const opfor_scene_unit_t *u) {
    if (s->nunits >= OPFOR_SCENE_MAX_UNITS)
        return OPFOR_EFULL;
    s->units[s->nunits++] = *u;
    return 0;
}

int opfor_scene_add_shape(opfor_scene_t *s, const opfor_scene_shape_t *sh) {
    if (s->nshapes >= OPFOR_SCENE_MAX_SHAPES)
        return OPFOR_EFULL;
    if (sh->n < 2 || sh->n > OPFOR_SCENE_MAX_VERTS)
        return OPFOR_EINVAL;
    s->shapes[s->nshapes++] = *sh;
    return 0;
}

int opfor_scene_add_arrow(opfor_scene_t *s, int kind, opfor_scene_pt_t from, opfor_scene_pt_t to) {
    if (s->narrows >= OPFOR_SCENE_MAX_ARROWS)
        return OPFOR_EFULL;
    opfor_scene_arrow_t *a = &s->arrows[s->narrows++];
    memset(a, 0, sizeof *a);
    a->kind = (uint8_t)kind;
    a->from = from;
    a->to = to;
    return 0;
}

int opfor_scene_add_label(opfor_scene_t *s, opfor_scene_pt_t at, const char *text) {
    if (s->nlabels >= OPFOR_SCENE_MAX_LABELS)
        return OPFOR_EFULL;
    opfor_scene_label_t *l = &s->labels[s->nlabels++];
    memset(l, 0, sizeof *l);
    l->at = at;
    snprintf(l->text, sizeof l->text, "%s", text ? text : "");
    return 0;
}
