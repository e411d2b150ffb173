/* rulesets/viktoria/engine_air.c — aeroplanes (Viktoria! XII.D) under the XII options.
 *
 * An aeroplane on the ground takes off from an open runway of at least 24 in, climbing at most
 * 3 levels, and may end its move anywhere on the table or off it. Once airborne it goes where it
 * likes: anywhere on the table, off it, or back on; it lands on an open runway while on the
 * table. Off the table it neither fires nor is fired at (the unit is flagged OFF_TABLE, its
 * figures parked outside the table); in flight it is a running target, and all its fire is
 * moving fire, at the pilot's quality (the figures' own); its bomb carriers drop bombs from the
 * point on the table beneath it, 6 in at most (VI's throw measured from there). Wind damage is
 * engine_special.c's, as for the other flying craft. One DRIVE action kind carries all of it (flags
 * pick the manoeuvre).
 */
#include <string.h>

#include "engine_machine_int.h"

/* Whether nothing but u's own figures stands on runway r (within a base of its line). */
static int runway_open(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int ri) {
    const opfor_route_t *r = &ctx->sc.routes[ri];
    for (int o = 0; o < st->nfigures; o++) {
        int ou = st->figures[o].unit;
        if (ou == u || !vk_alive(st, o) || st->ux[ou].removed ||
            (st->units[ou].flags & OPFOR_UNIT_OFF_TABLE) ||
            (vk_is_plane(ctx, st, ou) && st->ux[ou].altitude > 0))
            continue;
        if (opfor_seg_dist_pt(r->pts[0], r->pts[1], st->figures[o].pos) <
            vk_radius(&st->figures[o]) + 0.5f)
            return 0;
    }
    return 1;
}

int vk_runway_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int land) {
    int f = -1;
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count && f < 0; i++)
        if (vk_alive(st, i))
            f = i;
    if (f < 0)
        return -1;
    for (int ri = 0; ri < ctx->sc.nroutes; ri++) {
        const opfor_route_t *r = &ctx->sc.routes[ri];
        if (r->kind != OPFOR_ROUTE_RUNWAY || r->length < OPFOR_RUNWAY_MIN - 1e-4f)
            continue;
        if (!land && opfor_seg_dist_pt(r->pts[0], r->pts[1], st->figures[f].pos) > VK_RUNWAY_REACH)
            continue;
        if (runway_open(ctx, st, u, ri))
            return ri;
    }
    return -1;
}

/* Places u's living figures round p (the first as near p as room allows). */
static void place_at(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_pt_t p) {
    const opfor_unit_t *un = &st->units[u];
    /* park the unit outside the table first, so that its own bases do not get in the way */
    for (int i = un->first; i < un->first + un->count; i++)
        st->figures[i].pos = opfor_pt(-10.0f - (float)(i - un->first) * 3.0f, -10.0f);
    opfor_pt_t anchor = p;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        float r = vk_radius(&st->figures[i]);
        opfor_pt_t spot;
        if (vk_free_spot(ctx, st, anchor, anchor, r, 0.0f, 12.0f, i, &spot))
            st->figures[i].pos = spot;
        else
            st->figures[i].pos = anchor; /* a crowded table: hover over it */
    }
}

static void park_off_table(opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        st->figures[i].pos = opfor_pt(-10.0f - (float)u * 4.0f - (float)(i - un->first), -10.0f);
    st->units[u].flags |= OPFOR_UNIT_OFF_TABLE;
}

/* Where an aeroplane might go: over the nearest enemies, the objectives, its own spot. For a
 * pass at an enemy unit, bd gets a point 3 in short of it, over which to drop bombs. */
static int plane_dests(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, opfor_pt_t *d,
                       int *tgt, opfor_pt_t *bd) {
    int n = 0;
    float gd[OPFOR_MAX_UNITS];
    int gu[OPFOR_MAX_UNITS], ng = 0;
    vk_ugeo_t me;
    vk_unit_geo(st, u, &me);
    int away = (st->units[u].flags & OPFOR_UNIT_OFF_TABLE) != 0;
    opfor_pt_t from =
        away ? opfor_pt(ctx->sc.table.width * 0.5f, ctx->sc.table.depth * 0.5f) : me.c;
    for (int t = 0; t < st->nunits; t++) {
        if (st->units[t].side == st->units[u].side || !vk_unit_active(st, t))
            continue;
        vk_ugeo_t g;
        vk_unit_geo(st, t, &g);
        gu[ng] = t;
        gd[ng++] = opfor_dist2(g.c, from);
    }
    for (int k = 0; k < ng && n < 3; k++) {
        vk_select_least(gd, gu, k, ng);
        int tu = gu[k];
        vk_ugeo_t g;
        vk_unit_geo(st, tu, &g);
        /* a pass 8 in short of the target, on the side it is seen from */
        opfor_vec_t v = opfor_vsub(from, g.c);
        v = opfor_vlen2(v) > 1e-6f ? opfor_vnorm(v) : opfor_pt(0.0f, 1.0f);
        for (int k2 = 0; k2 < 2; k2++) {
            opfor_pt_t p = opfor_vadd(g.c, opfor_vscale(v, k2 ? 3.0f : 8.0f));
            p.x = p.x < 1.0f                         ? 1.0f
                  : p.x > ctx->sc.table.width - 1.0f ? ctx->sc.table.width - 1.0f
                                                     : p.x;
            p.y = p.y < 1.0f                         ? 1.0f
                  : p.y > ctx->sc.table.depth - 1.0f ? ctx->sc.table.depth - 1.0f
                                                     : p.y;
            if (k2)
                bd[n] = p;
            else
                d[n] = p;
        }
        tgt[n++] = tu;
    }
    for (int o = 0; o < ctx->sc.nobjectives && n < 5; o++) {
        tgt[n] = OPFOR_VK_NONE;
        d[n++] = ctx->sc.objectives[o].pos;
    }
    if (!away) {
        tgt[n] = OPFOR_VK_NONE;
        d[n++] = me.c;
    }
    return n;
}

int vk_air_list(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, uint32_t want,
                opfor_vk_action_t *out, int max) {
    int n = 0;
    const uint32_t GD = 1u << OPFOR_VK_DRIVE;
    if (st->units[u].status == OPFOR_WAVERING)
        vk_put(out, max, &n, want, OPFOR_VK_RALLY, u);
    vk_put(out, max, &n, want, OPFOR_VK_STAND, u);
    if (!(want & GD))
        return n;
    opfor_pt_t d[8], bd[8];
    int tgt[8];
    int nd = plane_dests(ctx, st, u, d, tgt, bd);
    int alt = st->ux[u].altitude;
    int away = (st->units[u].flags & OPFOR_UNIT_OFF_TABLE) != 0;
    int armed = vk_unit_reach(st, u) > 0.0f, bombs = vk_bombers(st, u) > 0;
    opfor_vk_action_t cand[32];
    int nc = 0;
#define CAND(dst, fl, ar, tg)                                                                      \
    do {                                                                                           \
        opfor_vk_action_t *c_ = &cand[nc++];                                                       \
        memset(c_, 0, sizeof *c_);                                                                 \
        c_->kind = OPFOR_VK_DRIVE;                                                                 \
        c_->unit = (uint8_t)u;                                                                     \
        c_->target = (uint8_t)(tg);                                                                \
        c_->figure = OPFOR_VK_NO_FIGURE;                                                           \
        c_->dest = (dst);                                                                          \
        c_->flags = (uint16_t)(fl);                                                                \
        c_->arc = (uint8_t)(ar);                                                                   \
    } while (0)
    if (alt == 0) {
        if (!away && vk_runway_ok(ctx, st, u, 0) >= 0) {
            for (int i = 0; i < nd; i++)
                CAND(d[i], OPFOR_VK_AF_TAKE_OFF, 1 + i % VK_PLANE_CLIMB, OPFOR_VK_NONE);
            CAND(d[0], OPFOR_VK_AF_TAKE_OFF | OPFOR_VK_AF_OFF_TABLE, VK_PLANE_CLIMB, OPFOR_VK_NONE);
        }
    } else {
        for (int i = 0; i < nd; i++) {
            CAND(d[i], 0, 0, OPFOR_VK_NONE);
            if (armed && tgt[i] != OPFOR_VK_NONE && vk_fire_target_ok(st, tgt[i]))
                CAND(d[i], OPFOR_VK_AF_FIRE, 0, tgt[i]);
            /* bombs dropped from the point beneath, within 6 in of it (XII.D) */
            if (bombs && tgt[i] != OPFOR_VK_NONE && st->ux[tgt[i]].altitude == 0)
                CAND(bd[i], OPFOR_VK_AF_BOMB, 0, tgt[i]);
        }
        if (!away) {
            if (alt < VK_MAX_ALTITUDE)
                CAND(d[nd - 1], OPFOR_VK_AF_CLIMB, 1, OPFOR_VK_NONE);
            if (alt > 1)
                CAND(d[nd - 1], OPFOR_VK_AF_DESCEND, 1, OPFOR_VK_NONE);
            if (alt <= VK_PLANE_CLIMB && vk_runway_ok(ctx, st, u, 1) >= 0)
                CAND(d[nd - 1], OPFOR_VK_AF_LAND, 0, OPFOR_VK_NONE);
            CAND(d[nd - 1], OPFOR_VK_AF_OFF_TABLE, 0, OPFOR_VK_NONE);
        }
    }
#undef CAND
    for (int i = 0; i < nc && n < max; i++)
        out[n++] = cand[i];
    return n;
}

int vk_air_check(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                 const opfor_vk_action_t *a) {
    int u = a->unit;
    if (a->kind == OPFOR_VK_STAND)
        return 1;
    if (a->kind == OPFOR_VK_RALLY)
        return st->units[u].status == OPFOR_WAVERING;
    if (a->kind != OPFOR_VK_DRIVE)
        return 0;
    unsigned fl = a->flags;
    int alt = st->ux[u].altitude;
    int away = (st->units[u].flags & OPFOR_UNIT_OFF_TABLE) != 0;
    int on_table = opfor_rect_contains(ctx->sc.table.width, ctx->sc.table.depth, a->dest);
    if (!(fl & OPFOR_VK_AF_OFF_TABLE) && !on_table)
        return 0;
    if (fl & OPFOR_VK_AF_FIRE) {
        int t = a->target;
        if ((fl & (OPFOR_VK_AF_OFF_TABLE | OPFOR_VK_AF_LAND | OPFOR_VK_AF_TAKE_OFF)) ||
            t >= st->nunits || st->units[t].side == st->units[u].side ||
            !vk_fire_target_ok(st, t) || vk_unit_reach(st, u) <= 0.0f)
            return 0;
    }
    if (fl & OPFOR_VK_AF_BOMB) { /* a bombing pass: at a unit on the ground (XII.D) */
        int t = a->target;
        if ((fl & (OPFOR_VK_AF_FIRE | OPFOR_VK_AF_OFF_TABLE | OPFOR_VK_AF_LAND |
                   OPFOR_VK_AF_TAKE_OFF)) ||
            t >= st->nunits || st->units[t].side == st->units[u].side || !vk_unit_active(st, t) ||
            st->ux[t].altitude > 0 || vk_bombers(st, u) <= 0)
            return 0;
    }
    if ((fl & OPFOR_VK_AF_CLIMB) && (fl & OPFOR_VK_AF_DESCEND))
        return 0;
    if (alt == 0) { /* on the ground: only a take-off (XII.D) */
        if (away || !(fl & OPFOR_VK_AF_TAKE_OFF) ||
            (fl & ~(OPFOR_VK_AF_TAKE_OFF | OPFOR_VK_AF_OFF_TABLE)) || a->arc < 1 ||
            a->arc > VK_PLANE_CLIMB)
            return 0;
        return vk_runway_ok(ctx, st, u, 0) >= 0;
    }
    if (fl & OPFOR_VK_AF_TAKE_OFF)
        return 0;
    int dz = (fl & OPFOR_VK_AF_CLIMB) ? a->arc : (fl & OPFOR_VK_AF_DESCEND) ? -(int)a->arc : 0;
    if (((fl & (OPFOR_VK_AF_CLIMB | OPFOR_VK_AF_DESCEND)) &&
         (a->arc < 1 || a->arc > VK_PLANE_CLIMB)) ||
        alt + dz < 1 || alt + dz > VK_MAX_ALTITUDE)
        return 0;
    if (away) /* back onto the table, perhaps attacking at once */
        return !(fl & (OPFOR_VK_AF_LAND | OPFOR_VK_AF_OFF_TABLE));
    if (fl & OPFOR_VK_AF_LAND)
        return !(fl & (OPFOR_VK_AF_OFF_TABLE | OPFOR_VK_AF_CLIMB | OPFOR_VK_AF_DESCEND)) &&
               alt <= VK_PLANE_CLIMB && vk_runway_ok(ctx, st, u, 1) >= 0;
    return 1;
}

void vk_air_do(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
               opfor_vk_events_t *ev) {
    int u = a->unit;
    opfor_unit_t *un = &st->units[u];
    unsigned fl = a->flags;
    if (fl & OPFOR_VK_AF_TAKE_OFF) {
        st->ux[u].altitude = a->arc;
        if (fl & OPFOR_VK_AF_OFF_TABLE)
            park_off_table(st, u);
        else
            place_at(ctx, st, u, a->dest);
        VK_EV(ev, "  %s takes off, climbing to level %d%s", un->name, a->arc,
              (fl & OPFOR_VK_AF_OFF_TABLE) ? ", and flies off the table" : "");
        return;
    }
    if (fl & OPFOR_VK_AF_LAND) {
        const opfor_route_t *r = &ctx->sc.routes[vk_runway_ok(ctx, st, u, 1)];
        st->ux[u].altitude = 0;
        place_at(ctx, st, u, r->pts[1]);
        for (int i = un->first; i < un->first + un->count; i++)
            st->figures[i].flags &= (uint16_t)~OPFOR_FIG_RUNNING;
        VK_EV(ev, "  %s lands on %s", un->name, r->name);
        return;
    }
    int dz = (fl & OPFOR_VK_AF_CLIMB) ? a->arc : (fl & OPFOR_VK_AF_DESCEND) ? -(int)a->arc : 0;
    st->ux[u].altitude = (uint8_t)(st->ux[u].altitude + dz);
    if (fl & OPFOR_VK_AF_OFF_TABLE) {
        park_off_table(st, u);
        VK_EV(ev, "  %s flies off the table", un->name);
        return;
    }
    un->flags &= (uint16_t)~OPFOR_UNIT_OFF_TABLE;
    place_at(ctx, st, u, a->dest);
    for (int i = un->first; i < un->first + un->count; i++)
        st->figures[i].flags |= OPFOR_FIG_MOVED | OPFOR_FIG_RUNNING;
    VK_EV(ev, "  %s flies to [%.0f, %.0f] at level %d", un->name, (double)a->dest.x,
          (double)a->dest.y, st->ux[u].altitude);
    int t = a->target;
    if ((fl & OPFOR_VK_AF_FIRE) && vk_fire_target_ok(st, t) &&
        vk_nearest_pair(st, u, t, NULL, NULL) <= vk_unit_reach(st, u) &&
        vk_unit_sees(ctx, st, u, t, 1e9f))
        vk_fire_unit(ctx, st, u, t, 1, 0, ev); /* fire from an aeroplane is moving fire */
    /* bombs from the point on the table beneath it, measuring 6 in from there (XII.D) */
    if ((fl & OPFOR_VK_AF_BOMB) && vk_unit_active(st, t))
        vk_throw_bombs(ctx, st, u, t, ev);
}
