/* rulesets/splendid/scenario_gen.c — a scenario's generated armies (docs/splendid.md 9.5): the
 * `splendid: generate:` map of a scenario file asks the army generator of §Appendix –
 * Generating an Army (army.c, the tables of model.yaml) for an army on each side, thrown from
 * the file's seed, and draws them up along the side's edge, so a built-in scenario gives a
 * player an opponent rolled up by the rules. Errors name the line and column of the map.
 */
#include <libfyaml.h>
#include <stdio.h>
#include <string.h>

#include "army.h"
#include "engine_int.h"
#include "opfor/yamlread.h"
#include "scenario_gen.h"

/* SV_U_* (the generator's unit types) as the engine's kinds. */
static const int KIND_OF[SV_U_COUNT] = {
    [SV_U_PIKE_MUSKET] = SV_PM,  [SV_U_FOOT] = SV_FOOT,          [SV_U_HEAVY_MOUNTED] = SV_HEAVY,
    [SV_U_MOUNTED] = SV_MOUNTED, [SV_U_DRAGOON] = SV_DRAGOON,    [SV_U_FRAME_GUN] = SV_FRAME,
    [SV_U_REGULAR_GUN] = SV_GUN, [SV_U_HEAVY_GUN] = SV_HEAVYGUN,
};

/* Short names of the generated units (a unit name holds 23 characters), numbered through the
 * game so that every name is unique. */
static const char *const SHORT[SV_KIND_COUNT] = {
    [SV_PM] = "Pike & Shot", [SV_FOOT] = "Foot",         [SV_HEAVY] = "Cuirassiers",
    [SV_MOUNTED] = "Horse",  [SV_DRAGOON] = "Dragoons",  [SV_FRAME] = "Frame Gun",
    [SV_GUN] = "Saker",      [SV_HEAVYGUN] = "Culverin", [SV_COMMANDER] = "General",
    [SV_SUB] = "Brigadier"};

int sv_gen_read(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt, sv_gen_t *g) {
    enum { SEED, THROWS, NF };
    opfor_yaml_field_t f[NF] = {{"seed", 0, 0}, {"throws", 0, 0}};
    memset(g, 0, sizeof *g);
    g->throws = SV_GEN_THROWS;
    g->node = n;
    if (opfor_yaml_read_fields(rd, n, alt, "generate", f, NF))
        return rd->err;
    if (!f[SEED].v)
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt,
                               "generate: needs a seed (the armies are thrown from it)");
    int seed;
    if (opfor_yaml_get_int(rd, f[SEED].v, f[SEED].k, "generate seed", 0, 2147483647, &seed) ||
        (f[THROWS].v && opfor_yaml_get_int(rd, f[THROWS].v, f[THROWS].k, "generate throws", 1,
                                           SV_GEN_MAX_THROWS, &g->throws)))
        return rd->err;
    g->seed = (uint64_t)seed;
    g->on = 1;
    return 0;
}

/* Places u (its kind, stands and formation set) with its front centre on row y of the side,
 * after *x; 0, or -1 when the row is full. */
static int place(const sv_ctx_t *c, sv_unit_t *u, float *x, float y, int top) {
    float w = sv_width(c, u);
    if (*x + w > c->width - 1.0f)
        return -1;
    u->x = *x + w / 2.0f;
    u->y = y;
    u->fx = 0.0f;
    u->fy = top ? -1.0f : 1.0f;
    *x += w + SV_GEN_GAP;
    return 0;
}

/* One generated unit of kind, n stands (a of its first type), for side. */
static sv_unit_t unit_of(const sv_ctx_t *c, int kind, int side, int n, int a, int quality,
                         int lance) {
    sv_unit_t u;
    memset(&u, 0, sizeof u);
    u.kind = (uint8_t)kind;
    u.side = (uint8_t)side;
    u.n = u.n0 = (uint8_t)n;
    u.a = (uint8_t)a;
    u.quality = (uint8_t)quality;
    u.target = 0xFF;
    if (lance)
        u.flags |= SV_F_LANCE;
    switch (kind) {
    case SV_PM:
    case SV_FOOT:
    case SV_HEAVY:
    case SV_MOUNTED:
        u.form = n >= 2 ? SV_BLOCK : SV_LINE;
        break;
    case SV_DRAGOON:
        u.form = SV_LINE;
        break;
    case SV_FRAME:
    case SV_GUN:
    case SV_HEAVYGUN:
        u.form = SV_UNLIMBERED;
        break;
    default:
        u.form = SV_OPEN;
        u.cmd10 = (uint8_t)(10 * c->model.command[kind == SV_SUB].basic);
        break;
    }
    u.files = (uint8_t)sv_default_files(&u, u.form);
    return u;
}

int sv_gen_armies(opfor_yaml_rd_t *rd, const sv_gen_t *g, sv_ctx_t *c) {
    sv_state_t *s = &c->start;
    static const char *const FULL = "generate: the armies need more than 32 units; throw fewer";
    int number[SV_KIND_COUNT] = {0};
    for (int side = 0; side < 2; side++) {
        opfor_rng_t rng;
        opfor_rng_seed(&rng, g->seed, 1803u + (unsigned)side); /* one stream a side */
        int totals[SV_GEN_MAX_THROWS];
        for (int t = 0; t < g->throws; t++)
            totals[t] = opfor_rng_d6(&rng) + opfor_rng_d6(&rng);
        sv_army_t army;
        sv_army_field(&opfor__sv_army_builtin, totals, g->throws, NULL, 0, SV_PICK_AUTO,
                      c->model.heavy_mounted_floor, &army);
        int top = g->top[side];
        float front = top ? c->depth - SV_GEN_FRONT : SV_GEN_FRONT;
        float back = top ? c->depth - SV_GEN_REAR : SV_GEN_REAR;
        float x = 1.0f;
        for (int pass = 0; pass < 2; pass++) /* the line: foot and guns, then the horse */
            for (int i = 0; i < army.nunits; i++) {
                const sv_fielded_t *f = &army.units[i];
                int kind = KIND_OF[f->type];
                int mounted = kind == SV_HEAVY || kind == SV_MOUNTED || kind == SV_DRAGOON;
                if (f->dropped || mounted != pass)
                    continue;
                if (s->nunits >= SV_MAX_UNITS)
                    return opfor_yaml_fail(rd, OPFOR_EINVAL, g->node, NULL, "%s", FULL);
                int n = sv_stands_of(f->stands);
                int a = kind == SV_PM     ? f->stands[SV_S_PIKE]
                        : kind == SV_FOOT ? f->stands[SV_S_HAND_TO_HAND]
                                          : n;
                sv_unit_t u = unit_of(c, kind, side, n, a, f->quality, f->lance);
                if (place(c, &u, &x, front, top) < 0)
                    return opfor_yaml_fail(rd, OPFOR_EINVAL, g->node, NULL,
                                           "generate: %s's army does not fit along its edge of "
                                           "a %.0f in table; throw fewer",
                                           c->side_names[side], (double)c->width);
                int k = s->nunits++;
                s->u[k] = u;
                snprintf(c->names[k], sizeof c->names[k], "%s %d", SHORT[kind], ++number[kind]);
                s->stands0[side] = (uint16_t)(s->stands0[side] + n);
            }
        x = c->width / 2.0f - 4.0f;
        for (int i = 0; i <= army.subs; i++) { /* the Commander and the Sub-Commanders */
            if (s->nunits >= SV_MAX_UNITS)
                return opfor_yaml_fail(rd, OPFOR_EINVAL, g->node, NULL, "%s", FULL);
            int kind = i == 0 ? SV_COMMANDER : SV_SUB;
            sv_unit_t u = unit_of(c, kind, side, 1, 1, 1, 0);
            if (place(c, &u, &x, back, top) < 0)
                return opfor_yaml_fail(rd, OPFOR_EINVAL, g->node, NULL,
                                       "generate: %s's command does not fit behind its line",
                                       c->side_names[side]);
            x += 2.0f;
            int k = s->nunits++;
            s->u[k] = u;
            if (kind == SV_COMMANDER)
                snprintf(c->names[k], sizeof c->names[k], "%.13s %s", c->side_names[side],
                         SHORT[kind]);
            else
                snprintf(c->names[k], sizeof c->names[k], "%s %d", SHORT[kind], ++number[kind]);
            s->stands0[side] = (uint16_t)(s->stands0[side] + 1);
        }
    }
    return 0;
}
