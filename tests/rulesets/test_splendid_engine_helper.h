/* tests/rulesets/test_splendid_engine_helper.h — small positions for A Splendid Victory!'s
 * engine tests: a context with the default bases (40 mm stands, 40 x 80 mm guns), the
 * calculator's model and a 48 x 36 inch table, and units placed by the centre of their front
 * edge and their facing.
 */
#ifndef TEST_SPLENDID_ENGINE_HELPER_H
#define TEST_SPLENDID_ENGINE_HELPER_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../rulesets/splendid/engine_int.h"

#define STAND (40.0f / 25.4f) /* a 40 mm base, inches */

static inline sv_ctx_t *fx_ctx(void) {
    sv_ctx_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->width = 48.0f;
    c->depth = 36.0f;
    c->turn_limit = 8;
    c->model = opfor__sv_model_builtin;
    c->opt.contact_tolerance = 0.05f;
    c->opt.breakpoints = 1;
    for (int k = 0; k < 4; k++) {
        c->base_w[k] = STAND;
        c->base_d[k] = k == 2 ? 2.0f * STAND : STAND;
    }
    c->start.turn = 1;
    return c;
}

/* Adds a unit: kind, side, formation, stands n (a of the first type: pikes, hand-to-hand),
 * files (0: the formation's default), front centre (x, y) facing (fx, fy). Returns its index. */
static inline int fx_unit(sv_ctx_t *c, int kind, int side, int form, int n, int a, int files,
                          float x, float y, float fx, float fy) {
    sv_state_t *s = &c->start;
    int i = s->nunits++;
    sv_unit_t *u = &s->u[i];
    memset(u, 0, sizeof *u);
    u->kind = (uint8_t)kind;
    u->side = (uint8_t)side;
    u->form = (uint8_t)form;
    u->n = u->n0 = (uint8_t)n;
    u->a = (uint8_t)a;
    u->quality = 1;
    u->target = 0xFF;
    u->files = (uint8_t)(files ? files : sv_default_files(u, form));
    float l = sqrtf(fx * fx + fy * fy);
    u->x = x;
    u->y = y;
    u->fx = fx / l;
    u->fy = fy / l;
    if (kind == SV_COMMANDER)
        u->cmd10 = 60;
    if (kind == SV_SUB)
        u->cmd10 = 30;
    s->stands0[side] = (uint16_t)(s->stands0[side] + n);
    snprintf(c->names[i], sizeof c->names[i], "unit %d", i);
    return i;
}

/* A state of c's position at phase, with the initiative to init, dice from seed. */
static inline void fx_state(const sv_ctx_t *c, sv_state_t *s, int phase, int init, uint64_t seed) {
    assert_int_equal(sv_engine_init(c, s, seed), 0);
    s->phase = (uint8_t)phase;
    s->init = (uint8_t)init;
    s->side = (uint8_t)init;
}

/* Whether the legal list holds an action of kind for unit (and target, when >= 0). */
static inline int fx_listed(const sv_ctx_t *c, const sv_state_t *s, int kind, int unit,
                            int target) {
    opfor_action_t acts[SV_MAX_ACTIONS];
    int n = sv_engine_legal(c, s, acts, SV_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (acts[i].kind == kind && acts[i].unit == unit &&
            (target < 0 || acts[i].target == target))
            return 1;
    return 0;
}

#endif
