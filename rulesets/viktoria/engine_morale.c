/* rulesets/viktoria/engine_morale.c — morale, rally, command and the unit's organisation
 * (Viktoria! V.A splitting and merging, VII command, XI morale): generals, musicians,
 * colours, half strength, NCO promotion, removal from play.
 *
 * Morale and rally rolls are the calculator's 2D6 checks, looked up by the unit's best
 * quality and its four check-boxes (general within 6 in, a playing musician within 3 in,
 * colours within 3 in, half strength). A split sends the men its owner names (the n nearest a
 * point) to the end of the unit's figure block and cuts it there; a merge
 * rotates the figure array so that the joining block sits beside the unit it joins.
 * Commanders are looked for in the general's and headquarters units first, and in an ordinary
 * unit only when one of its figures has the general skill; the command test of every
 * activation stops at the first commander within the radius.
 */
#include <stdio.h>
#include <string.h>

#include "engine_int.h"

int vk_half_strength(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int present = opfor_vk_unit_present(st, u);
    int gone = (int)un->strength - present;
    return gone * 2 >= (int)un->strength;
}

/* Best quality among the unit's present people; -1 when only equipment is left (transport
 * never checks morale, XI). */
static int best_person_quality(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int best = -1;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && vk_is_person(&st->figures[i]) && st->figures[i].quality > best)
            best = st->figures[i].quality;
    return best;
}

/* Within d inches, base to base, of any present figure of u (excluding figure skip). */
static int near_unit(const opfor_vk_state_t *st, int u, opfor_pt_t p, float r, float d, int skip) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++) {
        if (i == skip || !vk_alive(st, i))
            continue;
        float lim = d + r + vk_radius(&st->figures[i]);
        if (opfor_dist2(p, st->figures[i].pos) <= lim * lim)
            return 1;
    }
    return 0;
}

/* The four morale check-boxes as bits: general 8, musician 4, colours 2, half strength 1. */
static int morale_bits(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int bits = 0;
    for (int i = 0; i < st->nfigures && !(bits & 8); i++) {
        const opfor_figure_t *g = &st->figures[i];
        if (!(g->skills & OPFOR_S_GENERAL) || g->unit == u || !vk_alive(st, i) ||
            st->units[g->unit].side != un->side || st->ux[g->unit].removed)
            continue;
        if (near_unit(st, u, g->pos, vk_radius(g), VK_GENERAL_MORALE, -1))
            bits |= 8;
    }
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        const opfor_figure_t *f = &st->figures[i];
        if ((f->skills & OPFOR_S_MUSICIAN) && (st->figx[i] & OPFOR_VK_FX_PLAYING) &&
            near_unit(st, u, f->pos, vk_radius(f), VK_NEAR_3, i))
            bits |= 4;
        if ((f->skills & OPFOR_S_COLOURS) && near_unit(st, u, f->pos, vk_radius(f), VK_NEAR_3, i))
            bits |= 2;
    }
    if (vk_half_strength(st, u))
        bits |= 1;
    return bits;
}

int vk_morale_need(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int *bits,
                   vk_roll_t *out) {
    /* vk_morale_check's roll, read without rolling */
    int q = best_person_quality(st, u);
    if (ctx->opt.specials && st->units[u].type == OPFOR_UT_WALKER)
        q = OPFOR_Q_ELITE;
    if (q < 0)
        return -1;
    *bits = morale_bits(st, u);
    *out = ctx->tab->morale[q][*bits];
    return q;
}

int vk_morale_check(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev) {
    int q = best_person_quality(st, u);
    if (ctx->opt.specials && st->units[u].type == OPFOR_UT_WALKER)
        q = OPFOR_Q_ELITE; /* walkers check as elite (XII.E) */
    if (q < 0)
        return 1;
    int bits = morale_bits(st, u);
    int total;
    int ok = vk_roll(st, &ctx->tab->morale[q][bits], &total);
    VK_EV(ev, "  %s checks morale: rolled %d, %s", st->units[u].name, total,
          ok ? "stays Solid" : "Wavering");
    if (!ok)
        st->units[u].status = OPFOR_WAVERING;
    return ok;
}

/* vk_morale_after once some unit has casualties. Out of line: the common case (none) stays a
 * small leaf without the saving of registers this loop needs. */
__attribute__((noinline)) static void
morale_after_checks(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    for (int u = 0; u < st->nunits; u++) {
        if (!st->ux[u].casualties)
            continue;
        st->ux[u].casualties = 0;
        if (!vk_unit_active(st, u))
            continue;
        if (ctx->opt.specials && st->units[u].type == OPFOR_UT_WALKER) {
            /* a walker that fails has decided to leave the area (XII.E) */
            if (!vk_morale_check(ctx, st, u, ev))
                vk_remove_unit(st, u, "leaves the area", ev);
            continue;
        }
        /* A unit already Wavering that fails again outside melee stays Wavering. */
        vk_morale_check(ctx, st, u, ev);
    }
}

void vk_morale_after(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    unsigned any = 0; /* most activations kill no one: nothing to check */
    for (int u = 0; u < st->nunits; u++)
        any |= st->ux[u].casualties;
    if (any)
        morale_after_checks(ctx, st, ev);
}

const vk_roll_t *vk_rally_need(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    int q = best_person_quality(st, u);
    if (q < 0)
        q = OPFOR_Q_CIVILIAN;
    return &ctx->tab->rally[q][morale_bits(st, u)];
}

int vk_rally(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev) {
    int total;
    int ok = vk_roll(st, vk_rally_need(ctx, st, u), &total);
    VK_EV(ev, "  %s rallies: rolled %d, %s", st->units[u].name, total,
          ok ? "Solid again" : "fails and leaves the field");
    if (ok)
        st->units[u].status = OPFOR_SOLID;
    else
        vk_remove_unit(st, u, "routs", ev);
    return ok;
}

/* ---------------------------------------------------------------- command (VII) */

/* vk_command_distance's answer from the least squared centre distance. */
static float command_value(float best) {
    if (best >= 1e29f)
        return 1e9f;
    float d = sqrtf(best) - 1.0f; /* about base to base */
    return d < 0.0f ? 0.0f : d;
}

/* Whether the block of unit v holds a figure with the general skill, the only figures of an
 * ordinary unit that may command: the skills of the block or-ed, without a branch per figure
 * (a figure is always in the block of its own unit: the scenario loader, splits, merges and
 * spawns keep figure.unit so). */
static int command_skilled(const opfor_vk_state_t *st, int v) {
    const opfor_unit_t *gu = &st->units[v];
    unsigned acc = 0;
    for (int g = gu->first, e = gu->first + gu->count; g < e; g++)
        acc |= st->figures[g].skills;
    return (acc & OPFOR_S_GENERAL) != 0;
}

/* Lowers *best to the least squared centre distance from commander figure g to a living
 * figure of u; returns 1 as soon as *best is within radius (radius >= 0; command_value). */
static int command_pairs(const opfor_vk_state_t *st, int g, int u, float radius, float *best) {
    const opfor_unit_t *un = &st->units[u];
    opfor_pt_t gp = st->figures[g].pos;
    for (int i = un->first, e = un->first + un->count; i < e; i++) {
        if (!vk_alive(st, i))
            continue;
        float d2 = opfor_dist2(gp, st->figures[i].pos);
        if (d2 < *best) {
            *best = d2;
            if (radius >= 0.0f && command_value(d2) <= radius)
                return 1;
        }
    }
    return 0;
}

/* Walks the commanders g of side (vk_commander) and returns 1 at the first that hits: with pairs,
 * command_pairs(g, u, radius, best) (the least squared centre distance from a commander to a
 * living figure of u, stopping within radius >= 0); without, g standing within lim of point p,
 * centre to centre. A general's or headquarters unit (every living person in it commands) is
 * looked at as it comes, the other units of the side (only a figure with the general skill may
 * command there) after them: the least distance does not depend on the order. Inline, so each
 * caller gets its own test compiled in. */
__attribute__((always_inline)) static inline int commander_scan(const opfor_vk_state_t *st,
                                                                int side, int pairs, int u,
                                                                float radius, float *best,
                                                                opfor_pt_t p, float lim) {
    uint8_t oth[OPFOR_MAX_UNITS];
    int noth = 0;
    for (int v = 0; v < st->nunits; v++) {
        const opfor_unit_t *gu = &st->units[v];
        if (gu->side != side || st->ux[v].removed || (gu->flags & OPFOR_UNIT_OFF_TABLE))
            continue;
        if (!(gu->flags & OPFOR_UNIT_GENERAL) && gu->type != OPFOR_UT_HEADQUARTERS) {
            oth[noth++] = (uint8_t)v;
            continue;
        }
        for (int g = gu->first, e = gu->first + gu->count; g < e; g++)
            if (vk_commander(st, g, side) &&
                (pairs ? command_pairs(st, g, u, radius, best)
                       : opfor_dist2(st->figures[g].pos, p) <= lim * lim))
                return 1;
    }
    for (int k = 0; k < noth; k++) {
        int v = oth[k];
        if (!command_skilled(st, v))
            continue;
        const opfor_unit_t *gu = &st->units[v];
        for (int g = gu->first, e = gu->first + gu->count; g < e; g++)
            if (vk_commander(st, g, side) &&
                (pairs ? command_pairs(st, g, u, radius, best)
                       : opfor_dist2(st->figures[g].pos, p) <= lim * lim))
                return 1;
    }
    return 0;
}

/* The least squared centre distance from a commander of u's side to a living figure of u, 1e30
 * when none. With radius >= 0 it stops as soon as the distance so far is within radius
 * (command_value), which the least one then is too (command_value never decreases below 1e29). */
static float command_nearest2(const opfor_vk_state_t *st, int u, float radius) {
    float best = 1e30f;
    commander_scan(st, st->units[u].side, 1, u, radius, &best, opfor_pt(0.0f, 0.0f), 0.0f);
    return best;
}

float vk_command_distance(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    (void)ctx;
    /* Whoever is on the table now commands: generals a mode brings on mid-game count as soon
       as they appear, dead or departed ones stop counting (VII, XV.B). */
    return command_value(command_nearest2(st, u, -1.0f));
}

_Static_assert(sizeof(((opfor_vk_state_t *)0)->figx) % 8 == 0, "figx is read 8 bytes at a time");

int vk_needs_command_test(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    (void)ctx;
    const opfor_unit_t *un = &st->units[u];
    if (un->flags & (OPFOR_UNIT_SELF_COMMANDING | OPFOR_UNIT_GENERAL))
        return 0;
    if (un->type == OPFOR_UT_SUPPLY)
        return 0; /* supply transport is always in command (XV.B) */
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if ((st->figures[i].skills & OPFOR_S_GENERAL) && vk_alive(st, i))
            return 0;
    float radius = (float)opfor_viktoria_command_radius(st->level);
    /* vk_command_distance(u) <= radius, stopping at the first commander close enough */
    if (command_value(command_nearest2(st, u, radius)) <= radius)
        return 0;
    /* A musician who played within command relays it (VII). Relays are rare: the flags are
       read eight at a time (the mask has the flag in every byte, so the byte order does not
       matter; figx is OPFOR_MAX_FIGURES long, a multiple of 8). */
    float mr = (float)opfor_viktoria_musician_radius(st->level);
    const uint64_t relay8 = 0x0101010101010101ull * OPFOR_VK_FX_RELAY;
    for (int m8 = 0; m8 < st->nfigures; m8 += 8) {
        uint64_t w;
        memcpy(&w, &st->figx[m8], sizeof w);
        if (!(w & relay8))
            continue;
        for (int m = m8; m < m8 + 8 && m < st->nfigures; m++) {
            if (!(st->figx[m] & OPFOR_VK_FX_RELAY) || !vk_alive(st, m) ||
                st->units[st->figures[m].unit].side != un->side)
                continue;
            if (near_unit(st, u, st->figures[m].pos, vk_radius(&st->figures[m]), mr, -1))
                return 0;
        }
    }
    return 1;
}

int vk_command_test(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev) {
    vk_promote(st, u, ev);
    int l = opfor_unit_leader(&st->units[u], st->figures);
    int q = l >= 0 ? st->figures[l].quality : best_person_quality(st, u);
    if (q < 0)
        q = OPFOR_Q_CIVILIAN;
    float d = vk_command_distance(ctx, st, u);
    int di = d >= (float)VK_CMD_MAX_INCH ? VK_CMD_MAX_INCH : (int)(d + 0.5f);
    int lv = st->level < 1 ? 1 : st->level > 5 ? 5 : st->level;
    const vk_roll_t *r = &ctx->tab->command[q][lv - 1][di];
    int ok = r->ok ? vk_roll(st, r, NULL) : 1;
    const char *res = ok ? "passed" : "failed (take cover, fire, stand or load only)";
    if (d > 1e8f) /* no general or headquarters of its side on the table */
        VK_EV(ev, "  %s has no general on the table: command test %s", st->units[u].name, res);
    else
        VK_EV(ev, "  %s is %.0f in from its general: command test %s", st->units[u].name, d, res);
    return ok;
}

/* Whether a commander of side (vk_commander) stands within lim of point p, centre to centre. */
static int commander_within(const opfor_vk_state_t *st, int side, opfor_pt_t p, float lim) {
    return commander_scan(st, side, 0, -1, -1.0f, NULL, p, lim);
}

void vk_musician_play(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    float radius = (float)opfor_viktoria_command_radius(st->level);
    for (int i = un->first, e = un->first + un->count; i < e; i++) {
        if (!(st->figures[i].skills & OPFOR_S_MUSICIAN) || !vk_alive(st, i))
            continue;
        if (st->figures[i].flags & (OPFOR_FIG_PRONE | OPFOR_FIG_RUNNING))
            continue; /* no playing while running or crawling (VI) */
        if (st->figx[i] & (OPFOR_VK_FX_ATTACKED | OPFOR_VK_FX_CONTROLLED))
            continue; /* he attacked in a melee, or a mesmerist directs him: another action */
        st->figx[i] |= OPFOR_VK_FX_PLAYING;
        /* within command of a general: relays command for the rest of the turn (VII) */
        if (commander_within(st, un->side, st->figures[i].pos, radius + 1.0f))
            st->figx[i] |= OPFOR_VK_FX_RELAY;
    }
    (void)ctx;
}

/* vk_promote once no living leader is left: the best soldier, unwounded first (VII). Out of
 * line: the common case (a leader is there) stays a small leaf. */
__attribute__((noinline)) static void promote_nco(opfor_vk_state_t *st, int u,
                                                  opfor_vk_events_t *ev) {
    const opfor_unit_t *un = &st->units[u];
    int best = -1, score = -1;
    for (int i = un->first, e = un->first + un->count; i < e; i++) {
        if (!vk_alive(st, i) || !vk_is_person(&st->figures[i]))
            continue;
        int s = st->figures[i].quality * 2 + !(st->figures[i].flags & OPFOR_FIG_WOUNDED);
        if (s > score) {
            score = s;
            best = i;
        }
    }
    if (best < 0)
        return;
    st->figures[best].skills |= OPFOR_S_LEADER;
    st->figx[best] |= OPFOR_VK_FX_PROMOTED;
    VK_EV(ev, "  an NCO of %s is promoted from the ranks", un->name);
}

void vk_promote(opfor_vk_state_t *st, int u, opfor_vk_events_t *ev) {
    /* nothing to do while a living leader is left: looked for first (it usually heads the
       unit), the skill before the rest */
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if ((st->figures[i].skills & OPFOR_S_LEADER) && vk_alive(st, i) &&
            vk_is_person(&st->figures[i]))
            return;
    promote_nco(st, u, ev);
}

void vk_remove_unit(opfor_vk_state_t *st, int u, const char *why, opfor_vk_events_t *ev) {
    st->ux[u].removed = 1;
    st->units[u].flags |= OPFOR_UNIT_OFF_TABLE;
    for (int v = 0; v < st->nunits; v++)
        st->melee[v] &= ~(1u << u);
    st->melee[u] = 0;
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        st->figx[i] &= (uint8_t)~OPFOR_VK_FX_CONTROLLED;
    if (why)
        VK_EV(ev, "  %s %s and is removed from play", un->name, why);
}

/* ---------------------------------------------------------------- split and merge (V.A) */

int vk_split_leaders(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    if (un->flags & OPFOR_UNIT_GENERAL)
        return 0;
    int n = 0;
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        n += (st->figures[i].skills & OPFOR_S_LEADER) && vk_alive(st, i) &&
             vk_is_person(&st->figures[i]) && !(st->figx[i] & OPFOR_VK_FX_PROMOTED);
    return n;
}

/* A leader who may head a part of a split: living, a person, not promoted from the ranks. */
static int split_leader(const opfor_vk_state_t *st, int i) {
    return vk_alive(st, i) && vk_is_person(&st->figures[i]) &&
           (st->figures[i].skills & OPFOR_S_LEADER) && !(st->figx[i] & OPFOR_VK_FX_PROMOTED);
}

/* The figures a split (n, p) of u sends off: the n living persons of u nearest p (by centre
 * distance, then index), marked in go[i - first]. Returns 1 when the split is valid: 1 <= n,
 * some living person stays, and both parts have a leader who may head them (V.A, VII). */
static int split_pick(const opfor_vk_state_t *st, int u, int n, opfor_pt_t p, uint8_t *go) {
    const opfor_unit_t *un = &st->units[u];
    if (un->flags & OPFOR_UNIT_GENERAL)
        return 0;
    memset(go, 0, un->count);
    int people = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        people += vk_alive(st, i) && vk_is_person(&st->figures[i]);
    if (n < 1 || n >= people)
        return 0;
    for (int k = 0; k < n; k++) {
        int best = -1;
        float bd = 0.0f;
        for (int i = un->first; i < un->first + un->count; i++) {
            if (go[i - un->first] || !vk_alive(st, i) || !vk_is_person(&st->figures[i]))
                continue;
            float d = opfor_dist2(st->figures[i].pos, p);
            if (best < 0 || d < bd) {
                best = i;
                bd = d;
            }
        }
        go[best - un->first] = 1;
    }
    int led_go = 0, led_stay = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (split_leader(st, i)) {
            led_go |= go[i - un->first];
            led_stay |= !go[i - un->first];
        }
    return led_go && led_stay;
}

int vk_split_ok(const opfor_vk_state_t *st, int u, int n, opfor_pt_t p) {
    uint8_t go[OPFOR_MAX_FIGURES];
    if (st->nunits >= OPFOR_MAX_UNITS || p.x != p.x || p.y != p.y)
        return 0;
    return split_pick(st, u, n, p, go);
}

/* Cuts u's figure block at k: [first, k) stays u, [k, end) becomes a new unit, which waits for
 * its own initiative (V.A); each part's strength is its size (XI). */
static void split_at(opfor_vk_state_t *st, int u, int k, opfor_vk_events_t *ev) {
    opfor_unit_t *un = &st->units[u];
    int v = st->nunits++;
    opfor_unit_t *nu = &st->units[v];
    *nu = *un;
    nu->first = (uint16_t)k;
    nu->count = (uint16_t)(un->first + un->count - k);
    un->count = (uint16_t)(k - un->first);
    nu->flags &= (uint16_t)~OPFOR_UNIT_ACTED; /* the other part waits for its own initiative */
    memset(&st->ux[v], 0, sizeof st->ux[v]);
    st->melee[v] = 0;
    /* name: "<name> II" within the fixed size */
    char name[OPFOR_UNIT_NAME_MAX];
    snprintf(name, sizeof name, "%.*s II", OPFOR_UNIT_NAME_MAX - 4, un->name);
    memset(nu->name, 0, sizeof nu->name);
    memcpy(nu->name, name, strlen(name));
    for (int i = nu->first; i < nu->first + nu->count; i++)
        st->figures[i].unit = (uint8_t)v;
    /* strength after a split is the sub-unit's size (XI) */
    un->strength = (uint16_t)opfor_vk_unit_present(st, u);
    nu->strength = (uint16_t)opfor_vk_unit_present(st, v);
    VK_EV(ev, "  %s splits: %d and %d figures", un->name, un->strength, nu->strength);
}

int vk_split(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int n, opfor_pt_t p,
             opfor_vk_events_t *ev) {
    (void)ctx;
    opfor_unit_t *un = &st->units[u];
    if (n >= 0) {
        /* the owner's split (V.A): the n men nearest p go, in their order, to the end of the
           unit's block (the figures stay contiguous, as a merge keeps them) */
        uint8_t go[OPFOR_MAX_FIGURES];
        if (st->nunits >= OPFOR_MAX_UNITS || !split_pick(st, u, n, p, go))
            return 0;
        opfor_figure_t tmp[OPFOR_MAX_FIGURES];
        uint8_t tx[OPFOR_MAX_FIGURES];
        int m = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int i = un->first; i < un->first + un->count; i++)
                if (go[i - un->first] == pass) {
                    tmp[m] = st->figures[i];
                    tx[m++] = st->figx[i];
                }
        memcpy(&st->figures[un->first], tmp, (size_t)m * sizeof tmp[0]);
        memcpy(&st->figx[un->first], tx, (size_t)m);
        split_at(st, u, un->first + un->count - n, ev);
        return 1;
    }
    /* no composition given (older action logs): cut at the middle of the block, kept between
       the first two leaders */
    int lead[2], nl = 0;
    for (int i = un->first; i < un->first + un->count && nl < 2; i++)
        if (split_leader(st, i))
            lead[nl++] = i;
    if (nl < 2 || st->nunits >= OPFOR_MAX_UNITS)
        return 0;
    int k = un->first + un->count / 2;
    if (k <= lead[0])
        k = lead[0] + 1;
    if (k > lead[1])
        k = lead[1];
    split_at(st, u, k, ev);
    return 1;
}

static void reverse(opfor_vk_state_t *st, int lo, int hi) {
    for (hi--; lo < hi; lo++, hi--) {
        opfor_figure_t t = st->figures[lo];
        st->figures[lo] = st->figures[hi];
        st->figures[hi] = t;
        uint8_t x = st->figx[lo];
        st->figx[lo] = st->figx[hi];
        st->figx[hi] = x;
    }
}

/* Rotates figures [lo, hi) left by k. */
static void rotate(opfor_vk_state_t *st, int lo, int hi, int k) {
    if (k <= 0 || k >= hi - lo)
        return;
    reverse(st, lo, lo + k);
    reverse(st, lo + k, hi);
    reverse(st, lo, hi);
}

int vk_merge(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int into,
             opfor_vk_events_t *ev) {
    (void)ctx;
    opfor_unit_t *a = &st->units[u], *b = &st->units[into];
    int na = a->count;
    int alive_total = opfor_vk_unit_present(st, u) + opfor_vk_unit_present(st, into);
    int strength = alive_total;
    if (a->strength > strength)
        strength = a->strength;
    if (b->strength > strength)
        strength = b->strength;
    if (b->first < a->first) {
        int bend = b->first + b->count, aend = a->first + a->count;
        int gap = a->first - bend;
        if (gap > 0) {
            rotate(st, bend, aend, gap);
            for (int v = 0; v < st->nunits; v++)
                if (v != u && st->units[v].count > 0 && st->units[v].first >= bend &&
                    st->units[v].first < a->first)
                    st->units[v].first = (uint16_t)(st->units[v].first + na);
            a->first = (uint16_t)bend;
        }
    } else {
        int aend = a->first + a->count;
        int gap = b->first - aend;
        if (gap > 0) {
            rotate(st, a->first, b->first, na);
            for (int v = 0; v < st->nunits; v++)
                if (v != u && st->units[v].count > 0 && st->units[v].first >= aend &&
                    st->units[v].first < b->first)
                    st->units[v].first = (uint16_t)(st->units[v].first - na);
            a->first = (uint16_t)(b->first - na);
        }
        b->first = a->first;
    }
    b->count = (uint16_t)(b->count + na);
    for (int i = b->first; i < b->first + b->count; i++)
        st->figures[i].unit = (uint8_t)into;
    b->strength = (uint16_t)strength;
    a->count = 0;
    a->first = b->first;
    st->ux[u].removed = 1;
    a->flags |= OPFOR_UNIT_OFF_TABLE;
    VK_EV(ev, "  %s joins %s (%d figure%s)", a->name, b->name, alive_total,
          alive_total == 1 ? "" : "s");
    return 1;
}
