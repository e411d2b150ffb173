/* rulesets/viktoria/engine_vehicle.c — vehicle passengers and trains (Viktoria! XII.C), and the
 * hooks engine.c calls for every XII.C-D machine (aeroplanes are in engine_air.c).
 *
 * A passenger unit boards as a whole: its figures sit on the vehicle's hull figure (same
 * centre, so they never block its moves or anyone's fire lanes) and follow it at the end of
 * every activation. They may fire out (at most fire_out figures), get out beside the vehicle,
 * stand or rally; enemy fire at them meets the vehicle's armour (vk_armour). When the vehicle
 * is destroyed they bail out and each rolls a die for harm. A train keeps to its track and its
 * speed changes by at most half its last move or 3 in (XII.C); ux.run remembers the last move.
 * Design choices the rules leave open: docs/viktoria-model.md, "Machines".
 */
#include <stdio.h>
#include <string.h>

#include "engine_machine_int.h"

/* ---------------------------------------------------------------- shared helpers */

int vk_hull(const opfor_vk_state_t *st, int v) {
    const opfor_unit_t *un = &st->units[v];
    int first = -1;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (st->figures[i].flags & OPFOR_FIG_EQUIPMENT)
            return vk_alive(st, i) ? i : -1; /* the vehicle model itself: gone, all is gone */
        if (first < 0 && vk_alive(st, i))
            first = i;
    }
    return first;
}

/* Directions k * 22.5 degrees from a heading, tried 0, +1, -1, +2, -2, ... */
static const float COS16[9] = {1.0f, OPFOR_COS_22_5,  OPFOR_SQRT1_2,  OPFOR_SIN_22_5,
                               0.0f, -OPFOR_SIN_22_5, -OPFOR_SQRT1_2, -OPFOR_COS_22_5,
                               -1.0f};
static const float SIN16[9] = {0.0f,           OPFOR_SIN_22_5, OPFOR_SQRT1_2,
                               OPFOR_COS_22_5, 1.0f,           OPFOR_COS_22_5,
                               OPFOR_SQRT1_2,  OPFOR_SIN_22_5, 0.0f};

int vk_free_spot(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_pt_t at,
                 opfor_pt_t toward, float r, float d0, float d1, int skip, opfor_pt_t *out) {
    opfor_vec_t h = opfor_vsub(toward, at);
    if (!(opfor_vlen2(h) > 1e-6f))
        h = opfor_pt(0.0f, 1.0f);
    h = opfor_vnorm(h);
    for (float d = d0; d <= d1 + 1e-4f; d += 0.75f) {
        for (int j = 0; j < 16; j++) {
            int k = (j + 1) / 2;
            float s = (j & 1) ? SIN16[k] : -SIN16[k];
            opfor_vec_t v = k == 0 ? h : opfor_vrot(h, COS16[k], s);
            opfor_pt_t p = opfor_vadd(at, opfor_vscale(v, d));
            if (!vk_spot_blocked(ctx, st, skip, p, r, 0)) {
                *out = p;
                return 1;
            }
        }
    }
    return 0;
}

/* Living figures of the units riding in v. */
static int load_of(const opfor_vk_state_t *st, int v) {
    int n = 0;
    for (int p = 0; p < st->nunits; p++)
        if (vk_aboard(st, p) == v && !st->ux[p].removed)
            n += opfor_vk_unit_present(st, p);
    return n;
}

static int payload_of(const opfor_vk_ctx_t *ctx, int v) {
    return v < ctx->sc.nunits ? ctx->sc.machine[v].payload : 0;
}

/* Whether unit p may board at all now: people on foot, free to move (XII.C). */
static int may_board(const opfor_vk_state_t *st, int p) {
    const opfor_unit_t *un = &st->units[p];
    if (un->type >= OPFOR_UT_VEHICLE || (un->flags & (OPFOR_UNIT_GENERAL | OPFOR_UNIT_OFF_TABLE)) ||
        vk_aboard(st, p) >= 0 || vk_in_melee(st, p) || un->status == OPFOR_WAVERING ||
        st->restricted || !vk_unit_active(st, p))
        return 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & (OPFOR_FIG_EQUIPMENT | OPFOR_FIG_MOUNTED)))
            return 0;
    return 1;
}

/* Whether vehicle v could take unit p aboard now: a friendly vehicle in play with room, and
 * every figure of p within its advance (X, no d3) less the 1 in boarding cost of the hull. */
static int can_board(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int p, int v) {
    if (v == p || v >= st->nunits || st->units[v].side != st->units[p].side ||
        payload_of(ctx, v) == 0 || !vk_unit_active(st, v) || vk_in_melee(st, v) ||
        vk_aboard(st, v) >= 0 || st->ux[v].altitude > 0)
        return 0;
    int hull = vk_hull(st, v);
    if (hull < 0 || load_of(st, v) + opfor_vk_unit_present(st, p) > payload_of(ctx, v))
        return 0;
    const opfor_figure_t *h = &st->figures[hull];
    const opfor_unit_t *un = &st->units[p];
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        const opfor_figure_t *f = &st->figures[i];
        float gap = opfor_dist(f->pos, h->pos) - vk_radius(f) - vk_radius(h);
        if (gap > (float)vk_move_x(ctx, st, i, VK_MV_ADVANCE) - VK_BOARD_COST)
            return 0;
    }
    return 1;
}

/* Puts unit p's living figures on the hull of v. */
static void seat(opfor_vk_state_t *st, int p, int v) {
    int hull = vk_hull(st, v);
    if (hull < 0)
        return;
    const opfor_unit_t *un = &st->units[p];
    for (int i = un->first; i < un->first + un->count; i++)
        if (st->figures[i].flags & OPFOR_FIG_ALIVE) {
            st->figures[i].pos = st->figures[hull].pos;
            st->figures[i].flags &= (uint16_t) ~(OPFOR_FIG_PRONE | OPFOR_FIG_RUNNING);
        }
}

/* Gets unit p's living figures out round the hull at `at`, toward `toward`, within 3 in of the
 * vehicle. Returns 1 when every one found room (st is changed either way). */
static int get_out(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int p, opfor_pt_t at,
                   float hull_r, opfor_pt_t toward) {
    const opfor_unit_t *un = &st->units[p];
    int ok = 1;
    st->ux[p].aboard = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        float r = vk_radius(&st->figures[i]);
        opfor_pt_t spot;
        /* park the figure away while its spot is searched: it must not block itself */
        if (vk_free_spot(ctx, st, at, toward, r, hull_r + r + 0.1f, hull_r + r + 3.0f, i, &spot))
            st->figures[i].pos = spot;
        else
            ok = 0;
    }
    return ok;
}

/* Whether p can get out of its vehicle toward dest (every figure finds room). */
static int can_get_out(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int p,
                       opfor_pt_t dest) {
    int v = vk_aboard(st, p), hull = v >= 0 ? vk_hull(st, v) : -1;
    if (hull < 0)
        return 0;
    opfor_vk_state_t tmp;
    memcpy(&tmp, st, sizeof tmp);
    return get_out(ctx, &tmp, p, st->figures[hull].pos, vk_radius(&st->figures[hull]), dest);
}

/* Enemy units p might shoot at from where it is: in play, a fair target, within reach and
 * seen. Nearest first, at most max. */
static int shoot_targets(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int p, int *out,
                         int max) {
    float reach = vk_unit_reach(st, p);
    if (reach <= 0.0f)
        return 0;
    float gap[OPFOR_MAX_UNITS];
    int n = 0, cand[OPFOR_MAX_UNITS];
    for (int t = 0; t < st->nunits; t++) {
        if (st->units[t].side == st->units[p].side || !vk_fire_target_ok(st, t))
            continue;
        float g = vk_nearest_pair(st, p, t, NULL, NULL);
        if (g > reach)
            continue;
        cand[n] = t;
        gap[n++] = g;
    }
    int k = 0;
    for (int j = 0; j < n && k < max; j++) {
        vk_select_least(gap, cand, j, n);
        if (vk_unit_sees(ctx, st, p, cand[j], 1e9f))
            out[k++] = cand[j];
    }
    return k;
}

/* The nearest enemy unit's centre, or the unit's own edge when none: a default heading. */
static opfor_pt_t toward_enemy(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                               opfor_pt_t from) {
    float bd = 1e30f;
    opfor_pt_t best = opfor_vadd(from, opfor_vscale(ctx->home[st->units[u].side], -12.0f));
    for (int t = 0; t < st->nunits; t++) {
        if (st->units[t].side == st->units[u].side || !vk_unit_active(st, t))
            continue;
        vk_ugeo_t g;
        vk_unit_geo(st, t, &g);
        float d = opfor_dist2(g.c, from);
        if (d < bd) {
            bd = d;
            best = g.c;
        }
    }
    return best;
}

/* ---------------------------------------------------------------- trains (XII.C) */

float vk_train_bound(float last) {
    float h = (last < 0.0f ? -last : last) * 0.5f;
    return h > VK_TRAIN_MIN ? h : VK_TRAIN_MIN;
}

float vk_train_top(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    int hull = vk_hull(st, u);
    if (hull < 0)
        return 0.0f;
    /* very fast (on foot) or extremely fast (mounted): twice transport advance, best d3 */
    int x = vk_move_x(ctx, st, hull, VK_MV_ADVANCE);
    return x > 0 ? 2.0f * (float)(x + 3) : 0.0f;
}

/* The train's last move, inches, signed (negative: backward). */
static float train_last(const opfor_vk_state_t *st, int u) {
    int r = st->ux[u].run;
    float s = (float)(r & 0x7F) * 0.5f;
    return (r & 0x80) ? -s : s;
}

/* Whether figure i's base at p would touch a base that is neither the train's own nor one of
 * its passengers'. */
static int train_blocked(const opfor_vk_state_t *st, int u, int i, opfor_pt_t p) {
    float r = vk_radius(&st->figures[i]);
    for (int o = 0; o < st->nfigures; o++) {
        int ou = st->figures[o].unit;
        if (ou == u || vk_aboard(st, ou) == u || !vk_alive(st, o) || st->ux[ou].removed ||
            (st->units[ou].flags & OPFOR_UNIT_OFF_TABLE))
            continue;
        if (opfor_bases_overlap(p, r, st->figures[o].pos, vk_radius(&st->figures[o]), 0.01f))
            return 1;
    }
    return 0;
}

float vk_train_run(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, float s,
                   opfor_vk_events_t *ev) {
    const opfor_route_t *r = &ctx->sc.routes[ctx->sc.machine[u].track - 1];
    const opfor_unit_t *un = &st->units[u];
    float at[OPFOR_MAX_FIGURES];
    int idx[OPFOR_MAX_FIGURES], n = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i)) {
            idx[n] = i;
            at[n++] = opfor_route_project(r, st->figures[i].pos, NULL);
        }
    float dir = s < 0.0f ? -1.0f : 1.0f, want = s < 0.0f ? -s : s, done = 0.0f;
    while (done < want - 1e-4f) {
        float step = want - done < 0.25f ? want - done : 0.25f;
        float next = done + step;
        int stop = 0;
        for (int k = 0; k < n && !stop; k++) {
            float q = at[k] + dir * next;
            if (q < -1e-4f || q > r->length + 1e-4f)
                stop = 1; /* the end of the line */
            else if (train_blocked(st, u, idx[k], opfor_route_point(r, q)))
                stop = 1;
        }
        if (stop)
            break;
        done = next;
    }
    for (int k = 0; k < n; k++) {
        opfor_figure_t *f = &st->figures[idx[k]];
        f->pos = opfor_route_point(r, at[k] + dir * done);
        if (done > 0.0f)
            f->flags |= OPFOR_FIG_MOVED;
    }
    if (n > 0 && done > 0.0f) {
        opfor_pt_t a = opfor_route_point(r, at[0]), b = opfor_route_point(r, at[0] + dir * done);
        opfor_vec_t v = opfor_vsub(b, a);
        if (opfor_vlen2(v) > 1e-6f)
            st->units[u].facing = opfor_vnorm(v);
    }
    int half = (int)(done * 2.0f + 0.5f);
    if (half > 127)
        half = 127;
    st->ux[u].run = (uint8_t)(half | (dir < 0.0f && half > 0 ? 0x80 : 0));
    VK_EV(ev, "  %s runs %.1f in %s along %s", un->name, done, dir < 0.0f ? "back" : "forward",
          r->name);
    return dir * done;
}

/* The band of speeds (half-inches, signed) a train may pick this move: its last speed give or
 * take max(half of it, 3 in), within its top speed either way. A train that cannot keep in
 * the band (its engine wrecked: no top speed) stands. */
static void train_band(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int *hlo,
                       int *hhi) {
    float last = train_last(st, u), b = vk_train_bound(last), top = vk_train_top(ctx, st, u);
    float lo = last - b, hi = last + b;
    if (lo < -top)
        lo = -top;
    if (hi > top)
        hi = top;
    int l = (int)(lo * 2.0f + (lo < 0.0f ? 0.0f : 0.999f)); /* round into the band */
    int h = (int)(hi * 2.0f - (hi < 0.0f ? 0.999f : 0.0f));
    l = l < -127 ? -127 : l;
    h = h > 127 ? 127 : h;
    if (l > h)
        l = h = 0;
    *hlo = l;
    *hhi = h;
}

/* Speeds a train may pick, deduplicated: the band's ends and middles, its last speed, and
 * stopping when the band allows it. Returns how many (at least 1). */
static int train_speeds(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int *out) {
    int lo, hi, last = (int)(train_last(st, u) * 2.0f);
    train_band(ctx, st, u, &lo, &hi);
    int keep = last < lo ? lo : last > hi ? hi : last;
    int c[6] = {lo, (lo + keep) / 2, keep, (hi + keep) / 2, hi, 0};
    int n = 0;
    for (int k = 0; k < 6; k++) {
        if (c[k] < lo || c[k] > hi)
            continue;
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= out[j] == c[k];
        if (!dup)
            out[n++] = c[k];
    }
    return n;
}

static int train_list(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, uint32_t want,
                      opfor_vk_action_t *out, int max) {
    int n = 0, sp[6], ns = train_speeds(ctx, st, u, sp);
    for (int k = 0; k < ns; k++) {
        opfor_vk_action_t *a = vk_put(out, max, &n, want, OPFOR_VK_DRIVE, u);
        if (!a)
            break;
        a->arc = (uint8_t)(sp[k] < 0 ? -sp[k] : sp[k]);
        a->flags = sp[k] < 0 ? OPFOR_VK_AF_REVERSE : 0;
    }
    /* keep the speed (as near as the band allows) and fire on the move */
    int tg[2], nt = (want & (1u << OPFOR_VK_DRIVE)) ? shoot_targets(ctx, st, u, tg, 2) : 0;
    int keep = sp[ns > 2 ? 2 : 0];
    for (int k = 0; k < ns; k++)
        if (sp[k] == (int)(train_last(st, u) * 2.0f))
            keep = sp[k];
    for (int k = 0; k < nt; k++) {
        opfor_vk_action_t *a = vk_put(out, max, &n, want, OPFOR_VK_DRIVE, u);
        if (!a)
            break;
        a->arc = (uint8_t)(keep < 0 ? -keep : keep);
        a->flags = (uint16_t)((keep < 0 ? OPFOR_VK_AF_REVERSE : 0) | OPFOR_VK_AF_FIRE);
        a->target = (uint8_t)tg[k];
    }
    return n;
}

static int train_check(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                       const opfor_vk_action_t *a) {
    int u = a->unit, lo, hi;
    if (a->kind != OPFOR_VK_DRIVE || (a->flags & ~(OPFOR_VK_AF_REVERSE | OPFOR_VK_AF_FIRE)) ||
        a->arc > 127)
        return 0;
    int v = (a->flags & OPFOR_VK_AF_REVERSE) ? -(int)a->arc : (int)a->arc;
    train_band(ctx, st, u, &lo, &hi);
    if (v < lo || v > hi)
        return 0;
    if (a->flags & OPFOR_VK_AF_FIRE) {
        int t = a->target;
        if (t >= st->nunits || st->units[t].side == st->units[u].side || !vk_fire_target_ok(st, t))
            return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- passengers (XII.C) */

/* Actions of a unit riding in a vehicle: rally, stand, fire out, get out. */
static int rider_list(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int p, uint32_t want,
                      opfor_vk_action_t *out, int max) {
    int n = 0, v = vk_aboard(st, p);
    int wavering = st->units[p].status == OPFOR_WAVERING;
    if (wavering)
        vk_put(out, max, &n, want, OPFOR_VK_RALLY, p);
    vk_put(out, max, &n, want, OPFOR_VK_STAND, p);
    if (!wavering && ctx->sc.machine[v].fire_out > 0 && (want & (1u << OPFOR_VK_FIRE))) {
        int tg[4], nt = shoot_targets(ctx, st, p, tg, 4);
        for (int k = 0; k < nt; k++) {
            opfor_vk_action_t *a = vk_put(out, max, &n, want, OPFOR_VK_FIRE, p);
            if (a)
                a->target = (uint8_t)tg[k];
        }
    }
    int hull = vk_hull(st, v);
    if (!st->restricted && hull >= 0 && (want & (1u << OPFOR_VK_EMBARK))) {
        opfor_pt_t at = st->figures[hull].pos;
        opfor_pt_t d[2] = {toward_enemy(ctx, st, p, at),
                           opfor_vadd(at, opfor_vscale(ctx->home[st->units[p].side], 6.0f))};
        for (int k = 0; k < 2; k++) {
            if (!can_get_out(ctx, st, p, d[k]))
                continue;
            opfor_vk_action_t *a = vk_put(out, max, &n, want, OPFOR_VK_EMBARK, p);
            if (a) {
                a->dest = d[k];
                a->flags = OPFOR_VK_AF_DISEMBARK;
            }
        }
    }
    return n;
}

static int rider_check(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                       const opfor_vk_action_t *a) {
    int p = a->unit, v = vk_aboard(st, p), t = a->target;
    int wavering = st->units[p].status == OPFOR_WAVERING;
    switch (a->kind) {
    case OPFOR_VK_STAND:
        return 1;
    case OPFOR_VK_RALLY:
        return wavering;
    case OPFOR_VK_FIRE:
        return !wavering && !(a->flags & OPFOR_VK_AF_AT_CRAFT) && ctx->sc.machine[v].fire_out > 0 &&
               t < st->nunits && st->units[t].side != st->units[p].side &&
               vk_fire_target_ok(st, t) &&
               vk_nearest_pair(st, p, t, NULL, NULL) <= vk_unit_reach(st, p) &&
               vk_unit_sees(ctx, st, p, t, 1e9f);
    case OPFOR_VK_EMBARK:
        return (a->flags == OPFOR_VK_AF_DISEMBARK) && !st->restricted && a->dest.x == a->dest.x &&
               a->dest.y == a->dest.y && can_get_out(ctx, st, p, a->dest);
    default:
        return 0;
    }
}

/* Fire out of a vehicle: the first fire_out living passengers shoot (moving fire when the
 * vehicle moved this turn); the others are kept out of it for the one call. */
static void fire_out(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                     opfor_vk_events_t *ev) {
    int p = a->unit, v = vk_aboard(st, p), hull = vk_hull(st, v);
    const opfor_unit_t *un = &st->units[p];
    int room = ctx->sc.machine[v].fire_out;
    uint16_t hidden[OPFOR_MAX_FIGURES];
    int nh = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        if (room > 0) {
            room--;
            continue;
        }
        hidden[nh++] = (uint16_t)i;
        st->figures[i].flags |= OPFOR_FIG_REAR; /* not counted as alive for this call */
    }
    int moving = hull >= 0 && (st->figures[hull].flags & OPFOR_FIG_MOVED) != 0;
    vk_fire_unit(ctx, st, p, a->target, moving, 0, ev);
    for (int k = 0; k < nh; k++)
        st->figures[hidden[k]].flags &= (uint16_t)~OPFOR_FIG_REAR;
}

/* ---------------------------------------------------------------- hooks */

void vk_machines_init(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st) {
    for (int u = 0; u < ctx->sc.nunits; u++) {
        st->ux[u].aboard = ctx->sc.machine[u].embarked_in;
        if (vk_is_plane(ctx, st, u) && !ctx->sc.machine[u].grounded &&
            !(st->units[u].flags & OPFOR_UNIT_OFF_TABLE))
            st->ux[u].altitude = 1; /* aloft from the start, as other flying craft */
    }
}

int vk_machine_list(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, uint32_t want,
                    opfor_vk_action_t *out, int max, int *n) {
    int u = st->cur;
    if (u == OPFOR_VK_NONE || vk_in_melee(st, u))
        return 0;
    if (vk_aboard(st, u) >= 0)
        *n += rider_list(ctx, st, u, want, out + *n, max - *n);
    else if (vk_is_train(ctx, u))
        *n += train_list(ctx, st, u, want, out + *n, max - *n);
    else if (vk_is_plane(ctx, st, u))
        *n += vk_air_list(ctx, st, u, want, out + *n, max - *n);
    else
        return 0;
    return 1;
}

/* Whether t may not be charged: riding in a vehicle, or a flying craft in the air. */
static int out_of_reach(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int t) {
    (void)ctx;
    return t < st->nunits && (vk_aboard(st, t) >= 0 || st->ux[t].altitude > 0);
}

void vk_machine_list_more(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, uint32_t want,
                          opfor_vk_action_t *out, int max, int *n) {
    int u = st->cur, k = 0;
    for (int i = 0; i < *n; i++)
        if (!(out[i].kind == OPFOR_VK_CHARGE && out[i].unit == u &&
              out_of_reach(ctx, st, out[i].target)))
            out[k++] = out[i];
    *n = k;
    if (!(want & (1u << OPFOR_VK_EMBARK)) || u == OPFOR_VK_NONE || !may_board(st, u))
        return;
    for (int v = 0; v < st->nunits; v++)
        if (can_board(ctx, st, u, v)) {
            opfor_vk_action_t *a = vk_put(out, max, n, want, OPFOR_VK_EMBARK, u);
            if (a) {
                a->target = (uint8_t)v;
                a->dest = st->figures[vk_hull(st, v)].pos;
            }
        }
}

int vk_machine_groups(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, uint32_t *m) {
    int u = st->cur;
    if (u == OPFOR_VK_NONE || vk_in_melee(st, u))
        return 0;
    if (vk_aboard(st, u) >= 0 || vk_is_train(ctx, u) || vk_is_plane(ctx, st, u)) {
        opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
        int n = 0;
        vk_machine_list(ctx, st, 0xFFFFFFFFu, a, OPFOR_VK_MAX_ACTIONS, &n);
        uint32_t g = 0;
        for (int i = 0; i < n; i++)
            g |= 1u << a[i].kind;
        *m = g;
        return 1;
    }
    if (may_board(st, u))
        for (int v = 0; v < st->nunits; v++)
            if (v != u && st->units[v].side == st->units[u].side && payload_of(ctx, v) > 0 &&
                vk_unit_active(st, v)) {
                *m |= 1u << OPFOR_VK_EMBARK;
                break;
            }
    return 0;
}

int vk_machine_check(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                     const opfor_vk_action_t *a) {
    int u = a->unit;
    if (vk_in_melee(st, u))
        return a->kind == OPFOR_VK_EMBARK || a->kind == OPFOR_VK_DRIVE ? 0 : -1;
    if (vk_aboard(st, u) >= 0)
        return rider_check(ctx, st, a);
    if (vk_is_train(ctx, u))
        return train_check(ctx, st, a);
    if (vk_is_plane(ctx, st, u))
        return vk_air_check(ctx, st, a);
    if (a->kind == OPFOR_VK_CHARGE && out_of_reach(ctx, st, a->target))
        return 0;
    if (a->kind == OPFOR_VK_EMBARK)
        return a->flags == 0 && may_board(st, u) && can_board(ctx, st, u, a->target);
    if (a->kind == OPFOR_VK_DRIVE)
        return 0;
    return -1;
}

int vk_machine_do(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                  opfor_vk_events_t *ev) {
    int u = a->unit;
    if (a->kind == OPFOR_VK_EMBARK && !(a->flags & OPFOR_VK_AF_DISEMBARK)) {
        st->ux[u].aboard = (uint8_t)(a->target + 1);
        seat(st, u, a->target);
        VK_EV(ev, "  %s boards %s", st->units[u].name, st->units[a->target].name);
        return 1;
    }
    if (a->kind == OPFOR_VK_EMBARK) {
        int v = vk_aboard(st, u), hull = v >= 0 ? vk_hull(st, v) : -1;
        if (hull >= 0)
            get_out(ctx, st, u, st->figures[hull].pos, vk_radius(&st->figures[hull]), a->dest);
        st->ux[u].aboard = 0;
        VK_EV(ev, "  %s gets out of %s", st->units[u].name, v >= 0 ? st->units[v].name : "?");
        return 1;
    }
    if (a->kind == OPFOR_VK_FIRE && vk_aboard(st, u) >= 0) {
        fire_out(ctx, st, a, ev);
        return 1;
    }
    if (a->kind != OPFOR_VK_DRIVE)
        return 0;
    if (vk_is_train(ctx, u)) {
        float v = (float)a->arc * 0.5f * ((a->flags & OPFOR_VK_AF_REVERSE) ? -1.0f : 1.0f);
        vk_train_run(ctx, st, u, v, ev);
        if ((a->flags & OPFOR_VK_AF_FIRE) && vk_fire_target_ok(st, a->target))
            vk_fire_unit(ctx, st, u, a->target, 1, 0, ev);
    } else if (vk_is_plane(ctx, st, u)) {
        vk_air_do(ctx, st, a, ev);
    }
    return 1;
}

void vk_machines_settle(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    for (int p = 0; p < st->nunits; p++) {
        int v = vk_aboard(st, p);
        if (v < 0)
            continue;
        if (st->ux[p].removed || opfor_vk_unit_present(st, p) == 0) {
            st->ux[p].aboard = 0;
            continue;
        }
        int hull = vk_hull(st, v);
        if (vk_unit_active(st, v) && hull >= 0) {
            seat(st, p, v);
            continue;
        }
        /* The vehicle is gone: destroyed (no living hull) or out of play. Passengers of a
           destroyed vehicle each roll a die: 1-3 unhurt, 4-5 wounded, 6 killed. */
        const opfor_unit_t *vu = &st->units[v];
        int wreck = vk_hull(st, v) < 0;
        int at_fig = vu->first;
        for (int i = vu->first; i < vu->first + vu->count; i++)
            if (st->figures[i].flags & OPFOR_FIG_EQUIPMENT) {
                at_fig = i;
                break;
            }
        opfor_pt_t at = st->figures[at_fig].pos;
        const opfor_unit_t *pu = &st->units[p];
        int hurt = 0;
        for (int i = pu->first; i < pu->first + pu->count && wreck; i++) {
            if (!vk_alive(st, i))
                continue;
            int d = vk_d6(st);
            int e = d >= 6 ? 2 : d >= 4 ? 1 : 0;
            hurt += e > 0;
            vk_harm(ctx, st, i, e, 0, -1, NULL);
        }
        if (opfor_vk_unit_present(st, p) > 0)
            get_out(ctx, st, p, at, vk_radius(&st->figures[at_fig]), toward_enemy(ctx, st, p, at));
        st->ux[p].aboard = 0;
        VK_EV(ev, "  %s %s %s (%d hurt)", pu->name,
              wreck ? "scramble out of the wreck of" : "get out of", vu->name, hurt);
    }
    /* Nothing moves a train off its rails: whatever pushed it (a flight move, a melee) leaves it
       at the nearest point of its track. */
    for (int u = 0; u < st->nunits; u++) {
        if (!vk_is_train(ctx, u) || !vk_unit_active(st, u))
            continue;
        const opfor_route_t *r = &ctx->sc.routes[ctx->sc.machine[u].track - 1];
        const opfor_unit_t *un = &st->units[u];
        for (int i = un->first; i < un->first + un->count; i++) {
            float off, s = opfor_route_project(r, st->figures[i].pos, &off);
            if (off > 1e-3f)
                st->figures[i].pos = opfor_route_point(r, s);
        }
    }
    for (int u = 0; u < st->nunits; u++) {
        if (!vk_is_plane(ctx, st, u))
            continue;
        const opfor_unit_t *un = &st->units[u];
        int flying = st->ux[u].altitude > 0 && !(un->flags & OPFOR_UNIT_OFF_TABLE);
        for (int i = un->first; i < un->first + un->count; i++) {
            if (flying)
                st->figures[i].flags |= OPFOR_FIG_RUNNING; /* a running target in flight */
            else if (st->ux[u].altitude == 0)
                st->figures[i].flags &= (uint16_t)~OPFOR_FIG_RUNNING;
        }
    }
}

int vk_machine_str(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                   const opfor_vk_action_t *a, char *buf, size_t n) {
    const char *un = a->unit < st->nunits ? st->units[a->unit].name : "?";
    const char *tn = a->target < st->nunits ? st->units[a->target].name : "?";
    if (a->kind == OPFOR_VK_EMBARK) {
        if (a->flags & OPFOR_VK_AF_DISEMBARK)
            snprintf(buf, n, "%s gets out of its vehicle", un);
        else
            snprintf(buf, n, "%s boards %s", un, tn);
        return 1;
    }
    if (a->kind != OPFOR_VK_DRIVE)
        return 0;
    if (a->unit < st->nunits && vk_is_train(ctx, a->unit)) {
        snprintf(buf, n, "%s runs %.1f in %s%s%s", un, (double)a->arc * 0.5,
                 (a->flags & OPFOR_VK_AF_REVERSE) ? "backward" : "forward",
                 (a->flags & OPFOR_VK_AF_FIRE) ? ", firing at " : "",
                 (a->flags & OPFOR_VK_AF_FIRE) ? tn : "");
        return 1;
    }
    const char *what = (a->flags & OPFOR_VK_AF_TAKE_OFF)    ? "takes off"
                       : (a->flags & OPFOR_VK_AF_LAND)      ? "lands"
                       : (a->flags & OPFOR_VK_AF_OFF_TABLE) ? "flies off the table"
                                                            : "flies";
    snprintf(buf, n, "%s %s%s%s%s", un, what,
             (a->flags & OPFOR_VK_AF_CLIMB) || (a->flags & OPFOR_VK_AF_TAKE_OFF) ? ", climbing"
             : (a->flags & OPFOR_VK_AF_DESCEND)                                  ? ", diving"
                                                                                 : "",
             (a->flags & OPFOR_VK_AF_FIRE)   ? ", attacking "
             : (a->flags & OPFOR_VK_AF_BOMB) ? ", dropping bombs on "
                                             : "",
             (a->flags & (OPFOR_VK_AF_FIRE | OPFOR_VK_AF_BOMB)) ? tn : "");
    return 1;
}
