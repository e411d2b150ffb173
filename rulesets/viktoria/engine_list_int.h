/* rulesets/viktoria/engine_list_int.h — what engine.c (checking and applying an action) and
 * engine_list.c (listing the legal ones) share: the classes of action a unit's state allows,
 * the compact pool of living figures a listing measures units into, and the few measures
 * check_action asks of it. Private to the engine's files.
 */
#ifndef OPFOR_VIKTORIA_ENGINE_LIST_INT_H
#define OPFOR_VIKTORIA_ENGINE_LIST_INT_H

#include "engine_int.h"
#include "engine_machine_int.h"

#define vk_measure_pair opfor__vk_measure_pair
#define vk_unit_sees_from opfor__vk_unit_sees_from
#define vk_fellow_in_contact opfor__vk_fellow_in_contact

/* Living figures of the units a caller measures, copied in index order to compact arrays
 * (a pool shared by the units of one listing: each unit's run starts at at[u]). Every scan
 * over them visits the same figures in the same order as a pass over st->figures, so sums,
 * minima and ties come out to the bit as they did. Each run is padded to a multiple of
 * VK_LANES with far-away sentinels (VK_FAR: a squared distance near 1e36, above any best a
 * search starts from), so the nearest-pair scan runs in whole groups the compiler can
 * vectorise. */
#define VK_LANES 4
#define VK_FAR 1e18f
_Static_assert(VK_LANES == 4, "nearest_pair_in's lane minimum is written out for four lanes");
typedef struct vk_lfigs {
    float x[OPFOR_MAX_FIGURES + VK_LANES * OPFOR_MAX_UNITS];
    float y[OPFOR_MAX_FIGURES + VK_LANES * OPFOR_MAX_UNITS];
    float r[OPFOR_MAX_FIGURES + VK_LANES * OPFOR_MAX_UNITS];
    int16_t i[OPFOR_MAX_FIGURES + VK_LANES * OPFOR_MAX_UNITS];
    int n;
    int at[OPFOR_MAX_UNITS];
} vk_lfigs_t;

/* Measures a, then b, into lf (emptied first) and returns the base-to-base gap of their
 * nearest pair, its figures in *fa and *fb (may be NULL); gb gets b's geometry. */
float vk_measure_pair(const opfor_vk_state_t *st, int a, int b, vk_lfigs_t *lf, vk_ugeo_t *gb,
                      int *fa, int *fb);
/* vk_unit_sees with the nearest pair (fa, fb) and its gap already known, t measured into lf
 * (nt living figures). */
int vk_unit_sees_from(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                      const vk_lfigs_t *lf, int nt, int fa, int fb, float gap, float max_range);
/* The living person of figure g's side in base contact with g nearest him, of unit t (any of
 * g's side's units when t < 0); -1 when none: whom a mesmerised figure may strike (XII.B). */
int vk_fellow_in_contact(const opfor_vk_state_t *st, int g, int t);

/* A unit that may still take an activation this turn (the cheap flag first). */
static inline int vk_unit_ready(const opfor_vk_state_t *st, int u) {
    return !(st->units[u].flags & OPFOR_UNIT_ACTED) &&
           (vk_unit_active(st, u) || vk_air_away(st, u)); /* XII.D: may come back */
}

/* What a unit may do: the classes of action its state allows (VI, VII, XI, XII.E). */
enum {
    VK_K_MOVE = 1u << 0,  /* advance, run */
    VK_K_CRAWL = 1u << 1, /* crawl / take cover */
    VK_K_FIRE = 1u << 2,  /* fire, MG, artillery, support, bombs */
    VK_K_CHARGE = 1u << 3,
    VK_K_STAND = 1u << 4, /* stand, load */
    VK_K_RALLY = 1u << 5,
    VK_K_FIGHT = 1u << 6,
    VK_K_OTHER = 1u << 7, /* heal (any), mesmerise, limber, mount, split, merge, rear */
    VK_K_HEAL = 1u << 8,  /* heal within 6 in */
    VK_K_TOREAR = 1u << 9,
};

static inline unsigned vk_allowed_kinds(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    /* Locked in melee: fight it out; a Wavering unit may instead Move (off, advancing or
       running: XI allows it Move or Rally whatever it is doing) or Rally. */
    if (vk_in_melee(st, u))
        return VK_K_FIGHT | (un->status == OPFOR_WAVERING ? VK_K_RALLY | VK_K_MOVE : 0u);
    if (st->ux[u].hesitate && st->ux[u].hesitate == (uint8_t)st->turn)
        return VK_K_STAND; /* a staggered walker recovers, this one activation (XII.E) */
    if (un->status == OPFOR_WAVERING)
        return VK_K_RALLY | (st->restricted ? VK_K_CRAWL : VK_K_MOVE | VK_K_CRAWL); /* XI */
    if (st->restricted) /* VII: take cover, fire, bombs, stand/load, medics within 6 in */
        return VK_K_CRAWL | VK_K_FIRE | VK_K_STAND | VK_K_HEAL;
    return VK_K_MOVE | VK_K_CRAWL | VK_K_FIRE | VK_K_CHARGE | VK_K_STAND | VK_K_OTHER | VK_K_HEAL |
           VK_K_TOREAR;
}

static inline unsigned vk_kind_class(int kind) {
    switch (kind) {
    case OPFOR_VK_STAND:
    case OPFOR_VK_LOAD:
        return VK_K_STAND;
    case OPFOR_VK_RALLY:
        return VK_K_RALLY;
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_RUN:
        return VK_K_MOVE;
    case OPFOR_VK_CRAWL:
        return VK_K_CRAWL;
    case OPFOR_VK_CHARGE:
        return VK_K_CHARGE;
    case OPFOR_VK_FIRE:
    case OPFOR_VK_FIRE_MG:
    case OPFOR_VK_FIRE_ARTILLERY:
    case OPFOR_VK_CALL_SUPPORT:
    case OPFOR_VK_THROW_BOMB:
        return VK_K_FIRE;
    case OPFOR_VK_FIGHT:
        return VK_K_FIGHT;
    case OPFOR_VK_HEAL:
        return VK_K_HEAL;
    case OPFOR_VK_TO_REAR:
        return VK_K_TOREAR;
    default:
        return VK_K_OTHER;
    }
}

/* A unit that limbers its field gun to move (VIII); a walker under the XII options carries
 * its guns and walks (XII.E). */
static inline int vk_gun_unit_f(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                                int gunf) {
    if (ctx->opt.specials && st->units[u].type == OPFOR_UT_WALKER)
        return 0;
    return gunf >= 0;
}
/* vk_gun_unit_f with u's gun figure looked up (gunf: vk_gun_figure, when already known). */
static inline int vk_gun_unit(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return vk_gun_unit_f(ctx, st, u, vk_gun_figure(st, u));
}

static inline int vk_can_move(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    if (vk_gun_unit(ctx, st, u) && !(st->units[u].flags & OPFOR_UNIT_LIMBERED))
        return 0;
    return 1;
}

/* Whether unit u may Load (VI): it has a machinegun (has_mg) or a gun figure (gunf >= 0, as
 * vk_gun_figure) that is not limbered (VIII: limbered guns can neither fire nor load), is not
 * loaded already, and has crew to do it. */
static inline int vk_can_load(const opfor_vk_state_t *st, int u, int has_mg, int gunf) {
    const opfor_unit_t *un = &st->units[u];
    return (has_mg || (gunf >= 0 && !(un->flags & OPFOR_UNIT_LIMBERED))) &&
           !(un->flags & OPFOR_UNIT_LOADED) && vk_crew(st, u, NULL) > 0;
}

#endif
