/* rulesets/splendid/scenario_gen.h — generated armies in a scenario (scenario_gen.c): the
 * `splendid: generate:` map as read, and the armies it draws up in a game context.
 */
#ifndef OPFOR_SPLENDID_SCENARIO_GEN_H
#define OPFOR_SPLENDID_SCENARIO_GEN_H

#include <stdint.h>

#include "engine_int.h"
#include "opfor/yamlread.h"

#define SV_GEN_THROWS 4     /* design: throws a side when the map gives none */
#define SV_GEN_MAX_THROWS 6 /* design: at most (two armies within 32 units) */
#define SV_GEN_FRONT 10.0f  /* design: the line's front, inches from the side's edge */
#define SV_GEN_REAR 3.0f    /* design: the command's row, inches from the edge */
#define SV_GEN_GAP 1.0f     /* design: inches between two units of the line */

typedef struct sv_gen {
    int on;               /* the scenario asks for generated armies */
    uint64_t seed;        /* the armies' throws come from it */
    int throws;           /* 2D6 throws a side */
    int top[2];           /* per side: 1 when its edge is the top one */
    struct fy_node *node; /* the map, for errors */
} sv_gen_t;

/* Reads the `generate:` map n (alt: its key, for errors) into *g. 0 or rd's error. */
int sv_gen_read(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt, sv_gen_t *g);
/* Throws an army for each side from g's seed (§Appendix – Generating an Army) and adds its
 * units after c's scenario units in c->start, drawn up along the side's edge, named, counted in
 * stands0. 0, or rd's error at g's map (the armies do not fit). */
int sv_gen_armies(opfor_yaml_rd_t *rd, const sv_gen_t *g, sv_ctx_t *c);

#endif
