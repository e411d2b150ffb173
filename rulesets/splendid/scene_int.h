/* rulesets/splendid/scene_int.h — A Splendid Victory!'s scene hook (scene.c). */
#ifndef OPFOR_SPLENDID_SCENE_INT_H
#define OPFOR_SPLENDID_SCENE_INT_H

#include "opfor/scene.h"

/* The game as a picture for viewer (every side sees everything) into *out (zeroed by the
 * caller). 0, OPFOR_EINVAL or OPFOR_EFULL. */
int opfor__sv_scene(const void *ctx, const void *state, int viewer, opfor_scene_t *out);

#endif
