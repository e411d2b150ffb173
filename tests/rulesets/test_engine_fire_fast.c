/* tests/rulesets/test_engine_fire_fast.c — fire, melee, morale and the unit helpers made
 * cheaper (engine_fire.c, engine_blast.c, engine_melee.c, engine_morale.c, engine_special.c)
 * against the plain versions they replaced.
 *
 * Games must not change: a volley's compact lane and target lists (kept up to date through
 * the volley, the firer and target hidden from the gap rule) and its one-pass gap rule, the MG
 * arc's wedge rejection and inside count, the melee's compact foe lists, the commander scans with
 * their early stop, and the reordered unit helpers must give the same answers, draw the same dice
 * and leave the same bytes. The plain versions are copied here as first written; each fast
 * function runs on one copy of a position and its plain version on another, and the two
 * copies must be equal to the byte. Positions come from random games on the default scenario
 * and on the machines demo (specials on), each also shaken: figures killed, wounded, sent to
 * the rear, put on a coarse grid (ties between targets) or nudged.
 */
#include "rulesets/vk_walk_fixture.h"

#include "engine_int.h"
#include "opfor/rng.h"
#include "opfor/viktoria/builtin.h"

/* ======================================================================== fire (plain) */

static int ref_lane_blocked_in(const opfor_vk_state_t *st, int f, int g, const int *cand, int nc) {
    opfor_pt_t a = st->figures[f].pos, b = st->figures[g].pos;
    float lox = (a.x < b.x ? a.x : b.x) - 1.5f, hix = (a.x > b.x ? a.x : b.x) + 1.5f;
    float loy = (a.y < b.y ? a.y : b.y) - 1.5f, hiy = (a.y > b.y ? a.y : b.y) + 1.5f;
    opfor_circle_t c[OPFOR_GAP_MAX_CIRCLES];
    int n = 0;
    for (int k = 0; k < nc && n < OPFOR_GAP_MAX_CIRCLES; k++) {
        int i = cand[k];
        if (i == f || i == g || !vk_alive(st, i))
            continue;
        const opfor_figure_t *o = &st->figures[i];
        if (o->pos.x < lox || o->pos.x > hix || o->pos.y < loy || o->pos.y > hiy)
            continue;
        float d = opfor_seg_dist_pt(a, b, o->pos);
        if (d > vk_radius(o) + 1.2f)
            continue;
        c[n].c = o->pos;
        c[n].r = vk_radius(o);
        n++;
    }
    if (n == 0)
        return 0;
    return opfor_fire_lane_blocked(a, b, c, n, OPFOR_FIRE_GAP) == 1;
}

static int ref_lane_candidates(const opfor_vk_state_t *st, int u, int t, int *out) {
    float lox = 1e30f, loy = 1e30f, hix = -1e30f, hiy = -1e30f;
    int us[2] = {u, t};
    for (int k = 0; k < 2; k++) {
        const opfor_unit_t *un = &st->units[us[k]];
        for (int i = un->first; i < un->first + un->count; i++) {
            if (!vk_alive(st, i))
                continue;
            opfor_pt_t p = st->figures[i].pos;
            lox = p.x < lox ? p.x : lox;
            hix = p.x > hix ? p.x : hix;
            loy = p.y < loy ? p.y : loy;
            hiy = p.y > hiy ? p.y : hiy;
        }
    }
    lox -= 1.5f;
    loy -= 1.5f;
    hix += 1.5f;
    hiy += 1.5f;
    int n = 0;
    for (int i = 0; i < st->nfigures; i++) {
        if (!vk_alive(st, i) || st->ux[st->figures[i].unit].removed)
            continue;
        opfor_pt_t p = st->figures[i].pos;
        if (p.x < lox || p.x > hix || p.y < loy || p.y > hiy)
            continue;
        out[n++] = i;
    }
    return n;
}

/* Combat contact (X), plainly: figure g's base touches a living figure of a unit g's unit is
 * in melee with. Such figures are no targets and do not fire (IX). */
static int ref_in_contact(const opfor_vk_state_t *st, int g) {
    const opfor_figure_t *f = &st->figures[g];
    for (int j = 0; j < st->nfigures; j++) {
        const opfor_figure_t *o = &st->figures[j];
        if (!vk_alive(st, j) || !(st->melee[f->unit] >> o->unit & 1u))
            continue;
        float lim = vk_radius(f) + vk_radius(o) + VK_CONTACT;
        if (opfor_dist2(f->pos, o->pos) <= lim * lim)
            return 1;
    }
    return 0;
}

static int ref_pick_targets(const opfor_vk_state_t *st, int f, int t, unsigned aim, int *out,
                            int max) {
    const opfor_unit_t *tu = &st->units[t];
    float d[OPFOR_MAX_FIGURES];
    int n = 0;
    opfor_pt_t p = st->figures[f].pos;
    int cand[OPFOR_MAX_FIGURES];
    int nc = 0;
    for (int i = tu->first; i < tu->first + tu->count; i++) {
        if (!vk_alive(st, i) || !vk_is_person(&st->figures[i]) || ref_in_contact(st, i))
            continue;
        float dd = opfor_dist2(p, st->figures[i].pos);
        int wounded = (st->figures[i].flags & OPFOR_FIG_WOUNDED) != 0;
        int leader = (st->figures[i].skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)) != 0;
        /* stated aim first; unstated: the unwounded rank and file first (IX) */
        int pref = aim ? ((aim & OPFOR_VK_AF_AIM_WOUNDED) && wounded) ||
                             ((aim & OPFOR_VK_AF_AIM_GENERAL) && leader)
                       : !wounded && !leader;
        if (!pref)
            dd += 1e6f;
        cand[nc] = i;
        d[nc] = dd;
        nc++;
    }
    for (int k = 0; k < max && k < nc; k++) {
        int b = k;
        for (int j = k + 1; j < nc; j++)
            if (d[j] < d[b])
                b = j;
        float td = d[k];
        d[k] = d[b];
        d[b] = td;
        int ti = cand[k];
        cand[k] = cand[b];
        cand[b] = ti;
        out[n++] = cand[k];
    }
    return n;
}

static int ref_fire_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int moving,
                         unsigned aim) {
    const opfor_unit_t *un = &st->units[u];
    int shots = 0;
    int lanes[OPFOR_MAX_FIGURES];
    int nlanes = ref_lane_candidates(st, u, t, lanes);
    for (int f = un->first; f < un->first + un->count; f++) {
        const opfor_figure_t *fr = &st->figures[f];
        if (!vk_alive(st, f) || !vk_is_person(fr) ||
            !(fr->weapons & (OPFOR_W_PISTOL | OPFOR_W_CARBINE | OPFOR_W_RIFLE)))
            continue;
        if ((st->figx[f] & OPFOR_VK_FX_PLAYING) || (st->figx[f] & OPFOR_VK_FX_CONTROLLED) ||
            ref_in_contact(st, f))
            continue;
        if (!vk_unit_active(st, t))
            break;
        int cand[3];
        int nc = ref_pick_targets(st, f, t, aim, cand, 3);
        for (int k = 0; k < nc; k++) {
            int g = cand[k];
            const opfor_figure_t *tg = &st->figures[g];
            float gap = opfor_dist(fr->pos, tg->pos) - vk_radius(fr) - vk_radius(tg);
            if (gap < 0.0f)
                gap = 0.0f;
            /* across altitude levels, one bracket further each (XII.D, issue 17) */
            int w = vk_firearm_lv(&ctx->model, fr, gap, vk_levels(st, u, t));
            if (w < 0)
                continue;
            if (!vk_los(ctx, st, f, g) || ref_lane_blocked_in(st, f, g, lanes, nlanes))
                continue;
            shots++;
            vk_shoot(ctx, st, f, g, w, gap, moving, NULL);
            break;
        }
    }
    return shots;
}

static float ref_unit_reach(const opfor_viktoria_model_t *m, const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    float best = 0.0f;
    unsigned w = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && vk_is_person(&st->figures[i]))
            w |= st->figures[i].weapons;
    for (int k = 0; k < 3; k++)
        if (w & (OPFOR_W_PISTOL << k)) {
            double e = m->range_edge[k][OPFOR_VK_BRACKET_COUNT - 1];
            float r = e > 1e9 ? 1e9f : (float)e;
            if (r > best)
                best = r;
        }
    return best;
}

static int ref_fire_target_ok(const opfor_vk_state_t *st, int t) {
    if (!vk_unit_active(st, t))
        return 0;
    const opfor_unit_t *un = &st->units[t];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && vk_is_person(&st->figures[i]) && !ref_in_contact(st, i))
            return 1;
    return 0;
}

/* ======================================================================== blast (plain) */

static int ref_mg_figure(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int best = -1;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].weapons & OPFOR_W_MG)) {
            if (st->figures[i].flags & OPFOR_FIG_EQUIPMENT)
                return i;
            if (best < 0)
                best = i;
        }
    return best;
}

static int ref_gun_figure(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].weapons & OPFOR_W_FIELD_GUN))
            return i;
    return -1;
}

static int ref_can_fire_mg(const opfor_vk_state_t *st, int u, int arc) {
    if (ref_mg_figure(st, u) < 0 || vk_in_melee(st, u))
        return 0;
    int uw;
    int crew = vk_crew(st, u, &uw);
    if (crew == 0)
        return 0;
    if (crew == 1 && !(st->units[u].flags & OPFOR_UNIT_LOADED))
        return 0;
    if (uw == 0 && arc != OPFOR_ARC_45)
        return 0;
    return arc == OPFOR_ARC_45 || arc == OPFOR_ARC_90 || arc == OPFOR_ARC_DOUBLE_45;
}

static int ref_can_fire_gun(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    if (ref_gun_figure(st, u) < 0 || vk_in_melee(st, u))
        return 0;
    if (ctx->opt.specials && st->units[u].type == OPFOR_UT_WALKER)
        return 1;
    if (st->units[u].flags & OPFOR_UNIT_LIMBERED)
        return 0;
    int crew = vk_crew(st, u, NULL);
    if (crew >= 2)
        return 1;
    return crew == 1 && (st->units[u].flags & OPFOR_UNIT_LOADED);
}

static int ref_can_call_support(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    if (vk_in_melee(st, u))
        return 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].skills & OPFOR_S_SIGNALLER))
            return 1;
    return 0;
}

static int ref_bombers(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        n += vk_alive(st, i) && vk_is_person(&st->figures[i]) &&
             (st->figures[i].weapons & OPFOR_W_BOMBS) && !(st->figx[i] & OPFOR_VK_FX_CONTROLLED);
    return n;
}

static int ref_concealed(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_pt_t p,
                         int g) {
    opfor_los_t los;
    const opfor_figure_t *f = &st->figures[g];
    if (vk_terrain_los(ctx, p, 0.5f, f->pos, vk_radius(f), &los))
        return 0;
    if (los.blocker < 0)
        return 0;
    const opfor_terrain_feature_t *ft = &ctx->sc.table.features[los.blocker];
    return ft->kind == OPFOR_TK_HILL || ft->kind == OPFOR_TK_BUILDING ||
           ft->cover >= OPFOR_COVER_HARD;
}

static void ref_fire_mg(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int arc,
                        opfor_pt_t aim) {
    int mg = ref_mg_figure(st, u);
    if (mg < 0)
        return;
    opfor_pt_t o = st->figures[mg].pos;
    opfor_vec_t facing = opfor_vsub(aim, o);
    if (facing.x == 0.0f && facing.y == 0.0f)
        facing = st->units[u].facing;
    opfor_vec_t fn = opfor_vnorm(facing);
    if (fn.x != 0.0f || fn.y != 0.0f)
        st->units[u].facing = fn;
    int moving_platform = (st->figures[mg].flags & OPFOR_FIG_MOVED) != 0;
    for (int g = 0; g < st->nfigures; g++) {
        if (!vk_alive(st, g) || st->figures[g].unit == u || st->ux[st->figures[g].unit].removed)
            continue;
        const opfor_figure_t *f = &st->figures[g];
        int times = opfor_arc_touches_circle((opfor_arc_t)arc, o, facing, f->pos, vk_radius(f));
        if (times <= 0 || ref_concealed(ctx, st, o, g))
            continue;
        float gap = opfor_dist(o, f->pos) - vk_radius(&st->figures[mg]) - vk_radius(f);
        int br = opfor_viktoria_bracket_aloft(&ctx->model, OPFOR_VK_R_MG, gap < 0 ? 0 : gap,
                                              vk_levels(st, u, f->unit));
        if (br < 0)
            br = OPFOR_VK_LONG;
        int cl = vk_target_class(ctx, st, g), cov = vk_cover(ctx, st, g, o);
        for (int k = 0; k < times && (st->figures[g].flags & OPFOR_FIG_ALIVE); k++) {
            int am = (f->flags & OPFOR_FIG_MOUNTED) != 0, aw = (f->flags & OPFOR_FIG_WOUNDED) != 0;
            if (vk_roll(st, &ctx->tab->mg_pass[cl][cov][br][am][aw][moving_platform], NULL))
                continue;
            int e = vk_effect_roll(
                st, &ctx->tab->effect[OPFOR_VK_EFFECT_MG][aw][vk_class(f) == OPFOR_VK_TRANSPORT],
                NULL);
            if (e > 0)
                vk_harm(ctx, st, g, e, 0, st->units[u].side, NULL);
        }
    }
    int uw;
    if (vk_crew(st, u, &uw) == 1 && arc != OPFOR_ARC_45)
        st->units[u].flags &= (uint16_t)~OPFOR_UNIT_LOADED;
}

/* ======================================================================== melee (plain) */

static int ref_charge_x(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int *minx) {
    const opfor_unit_t *un = &st->units[u];
    int best = 0, worst = 1000;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        int x = vk_move_x(ctx, st, i, VK_MV_CHARGE);
        if (x > best)
            best = x;
        if (x < worst)
            worst = x;
    }
    if (minx)
        *minx = worst == 1000 ? 0 : worst;
    return best;
}

static float ref_charge_reach(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return (float)(ref_charge_x(ctx, st, u, NULL) + 3);
}

static int ref_charge_target_ok(const opfor_vk_state_t *st, int u, int t) {
    if (!vk_unit_active(st, t) || st->units[t].side == st->units[u].side)
        return 0;
    if (vk_in_melee(st, u))
        return 0;
    const opfor_unit_t *tu = &st->units[t];
    for (int i = tu->first; i < tu->first + tu->count; i++)
        if (vk_alive(st, i) && vk_is_person(&st->figures[i]))
            return 1;
    return 0;
}

static int ref_touching(const opfor_vk_state_t *st, int a, int b) {
    const opfor_figure_t *fa = &st->figures[a], *fb = &st->figures[b];
    float lim = vk_radius(fa) + vk_radius(fb) + VK_CONTACT;
    return opfor_dist2(fa->pos, fb->pos) <= lim * lim;
}

static int ref_contact_target(const opfor_vk_state_t *st, int a, uint32_t enemies) {
    int best = -1;
    float bd = 1e30f;
    for (int t = 0; t < st->nunits; t++) {
        if (!(enemies >> t & 1))
            continue;
        const opfor_unit_t *tu = &st->units[t];
        for (int j = tu->first; j < tu->first + tu->count; j++) {
            if (!vk_alive(st, j) || !vk_is_person(&st->figures[j]) || !ref_touching(st, a, j))
                continue;
            float d = opfor_dist2(st->figures[a].pos, st->figures[j].pos);
            if (d < bd) {
                bd = d;
                best = j;
            }
        }
    }
    return best;
}

static int ref_melee_weapon(const opfor_figure_t *f, int charging) {
    int mounted = (f->flags & OPFOR_FIG_MOUNTED) != 0;
    if (mounted && (f->weapons & OPFOR_W_LANCE) && charging)
        return OPFOR_VK_LANCE;
    if (!mounted && (f->weapons & OPFOR_W_BAYONET))
        return OPFOR_VK_BAYONET;
    if (f->weapons & OPFOR_W_SWORD)
        return OPFOR_VK_SWORD;
    if (mounted && (f->weapons & OPFOR_W_LANCE))
        return OPFOR_VK_LANCE;
    if (f->weapons & OPFOR_W_BAYONET)
        return OPFOR_VK_BAYONET;
    return OPFOR_VK_DAGGER;
}

typedef struct ref_blow {
    uint16_t a, t;
    uint8_t effect;
} ref_blow_t;

static int ref_attack(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int a, int d, int charging,
                      int cover) {
    const opfor_figure_t *fa = &st->figures[a], *fd = &st->figures[d];
    int w = ref_melee_weapon(fa, charging);
    int am = (fa->flags & OPFOR_FIG_MOUNTED) != 0, tm = (fd->flags & OPFOR_FIG_MOUNTED) != 0;
    int aw = (fa->flags & OPFOR_FIG_WOUNDED) != 0, tw = (fd->flags & OPFOR_FIG_WOUNDED) != 0;
    int i = vk_melee_idx(w, fa->quality, fd->quality, cover, am, tm, charging ? 1 : 0, aw, tw);
    if (!vk_roll(st, &ctx->tab->melee_hit[i], NULL))
        return 0;
    if (vk_roll(st, &ctx->tab->melee_save[i], NULL))
        return 0;
    return vk_effect_roll(st, &ctx->tab->effect[OPFOR_VK_EFFECT_SWORD + w][tw][0], NULL);
}

static int ref_strike(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, uint32_t attackers,
                      uint32_t charging, uint32_t covered, ref_blow_t *blows, int nb) {
    for (int u = 0; u < st->nunits; u++) {
        if (!(attackers >> u & 1) || !vk_unit_active(st, u))
            continue;
        uint32_t enemies = st->melee[u];
        for (int t = 0; t < st->nunits; t++)
            if ((attackers >> t & 1) == 0 && st->units[t].side != st->units[u].side &&
                vk_unit_active(st, t))
                enemies |= 1u << t;
        const opfor_unit_t *un = &st->units[u];
        for (int f = un->first; f < un->first + un->count; f++) {
            if (!vk_alive(st, f) || !vk_is_person(&st->figures[f]) ||
                (st->figx[f] & (OPFOR_VK_FX_ATTACKED | OPFOR_VK_FX_CONTROLLED)))
                continue;
            int d = ref_contact_target(st, f, enemies);
            if (d < 0)
                continue;
            int cov = 0;
            if (covered >> st->figures[d].unit & 1)
                cov = vk_cover(ctx, st, d, st->figures[f].pos);
            st->figx[f] |= OPFOR_VK_FX_ATTACKED;
            int e = ref_attack(ctx, st, f, d, (charging >> u & 1) != 0, cov);
            if (nb < OPFOR_MAX_FIGURES) {
                blows[nb].a = (uint16_t)f;
                blows[nb].t = (uint16_t)d;
                blows[nb].effect = (uint8_t)e;
                nb++;
            }
        }
    }
    return nb;
}

static void ref_land(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const ref_blow_t *blows,
                     int nb) {
    for (int i = 0; i < nb; i++) {
        if (!blows[i].effect)
            continue;
        int t = blows[i].t;
        vk_harm(ctx, st, t, blows[i].effect, 1, st->units[st->figures[blows[i].a].unit].side, NULL);
    }
}

static void ref_link_contacts(opfor_vk_state_t *st, int a, int b) {
    const opfor_unit_t *ua = &st->units[a], *ub = &st->units[b];
    for (int i = ua->first; i < ua->first + ua->count; i++) {
        if (!vk_alive(st, i))
            continue;
        for (int j = ub->first; j < ub->first + ub->count; j++)
            if (vk_alive(st, j) && ref_touching(st, i, j)) {
                st->melee[a] |= 1u << b;
                st->melee[b] |= 1u << a;
                return;
            }
    }
}

static void ref_melee_refresh(opfor_vk_state_t *st) {
    for (int a = 0; a < st->nunits; a++) {
        if (!st->melee[a])
            continue;
        for (int b = a + 1; b < st->nunits; b++) {
            if (!(st->melee[a] >> b & 1))
                continue;
            int keep = vk_unit_active(st, a) && vk_unit_active(st, b);
            if (keep) {
                keep = 0;
                const opfor_unit_t *ua = &st->units[a], *ub = &st->units[b];
                for (int i = ua->first; i < ua->first + ua->count && !keep; i++) {
                    if (!vk_alive(st, i))
                        continue;
                    for (int j = ub->first; j < ub->first + ub->count; j++)
                        if (vk_alive(st, j) && ref_touching(st, i, j)) {
                            keep = 1;
                            break;
                        }
                }
            }
            if (!keep) {
                st->melee[a] &= ~(1u << b);
                st->melee[b] &= ~(1u << a);
            }
        }
        if (!vk_unit_active(st, a)) {
            for (int b = 0; b < st->nunits; b++)
                st->melee[b] &= ~(1u << a);
            st->melee[a] = 0;
        }
    }
}

static void ref_melee_morale(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, uint32_t units) {
    for (int u = 0; u < st->nunits; u++) {
        if (!(units >> u & 1) || !st->ux[u].casualties)
            continue;
        st->ux[u].casualties = 0;
        if (!vk_unit_active(st, u))
            continue;
        int was_wavering = st->units[u].status == OPFOR_WAVERING;
        if (vk_morale_check(ctx, st, u, NULL))
            continue;
        if (was_wavering) {
            vk_remove_unit(st, u, "surrenders or routs", NULL);
            continue;
        }
        vk_ugeo_t g;
        vk_unit_geo(st, u, &g);
        opfor_pt_t from = g.c;
        float sx = 0, sy = 0;
        int n = 0;
        for (int t = 0; t < st->nunits; t++)
            if ((st->melee[u] >> t & 1) && vk_unit_active(st, t)) {
                vk_ugeo_t eg;
                vk_unit_geo(st, t, &eg);
                sx += eg.c.x;
                sy += eg.c.y;
                n++;
            }
        if (n)
            from = opfor_pt(sx / (float)n, sy / (float)n);
        for (int t = 0; t < st->nunits; t++)
            st->melee[t] &= ~(1u << u);
        st->melee[u] = 0;
        vk_flee(ctx, st, u, from, NULL);
    }
}

static void ref_follow_up(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, uint32_t enemies,
                          int mv) {
    if (!vk_unit_active(st, u) || st->units[u].status == OPFOR_WAVERING)
        return;
    int d3 = vk_d3(st);
    const opfor_unit_t *un = &st->units[u];
    for (int f = un->first; f < un->first + un->count; f++) {
        if (!vk_alive(st, f) || !vk_is_person(&st->figures[f]))
            continue;
        if (ref_contact_target(st, f, enemies) >= 0)
            continue;
        int best = -1;
        float bd = 1e30f;
        for (int t = 0; t < st->nunits; t++) {
            if (!(enemies >> t & 1) || !vk_unit_active(st, t))
                continue;
            float d2;
            int j = vk_nearest_fig(st, t, st->figures[f].pos, &d2);
            if (j >= 0 && d2 < bd) {
                bd = d2;
                best = j;
            }
        }
        if (best < 0)
            continue;
        float allow = (float)(vk_move_x(ctx, st, f, mv) + d3);
        vk_move_figure(ctx, st, f, st->figures[best].pos, allow, st->figures[best].unit);
    }
}

/* path (may be NULL, by figure): each charger's path, the formation's leg and its own */
static void ref_charge_move(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int d3,
                            float *path) {
    int fa, fb;
    vk_nearest_pair(st, u, t, &fa, &fb);
    if (fa < 0)
        return;
    vk_ugeo_t g;
    vk_unit_geo(st, u, &g);
    opfor_vec_t d = opfor_vsub(st->figures[fb].pos, st->figures[fa].pos);
    opfor_pt_t dest = opfor_vadd(g.c, d);
    static opfor_vk_state_t before;
    memcpy(&before, st, sizeof before);
    float moved = vk_move_unit(ctx, st, u, VK_MV_CHARGE, dest, 0, dest, d3, t, NULL);
    const opfor_unit_t *un = &st->units[u];
    for (int f = un->first; path && f < un->first + un->count; f++)
        path[f] = opfor_dist(before.figures[f].pos, st->figures[f].pos);
    for (int f = un->first; f < un->first + un->count; f++) {
        if (!vk_alive(st, f) || !vk_is_person(&st->figures[f]))
            continue;
        if (ref_contact_target(st, f, 1u << t) >= 0)
            continue;
        float left = (float)(vk_move_x(ctx, st, f, VK_MV_CHARGE) + d3) - moved;
        if (left <= 0.0f)
            continue;
        float d2;
        int j = vk_nearest_fig(st, t, st->figures[f].pos, &d2);
        if (j < 0)
            continue;
        float leg = vk_move_figure(ctx, st, f, st->figures[j].pos, left, t);
        if (path)
            path[f] += leg;
    }
}

static int ref_any_contact(const opfor_vk_state_t *st, int u, int t) {
    const opfor_unit_t *un = &st->units[u];
    for (int f = un->first; f < un->first + un->count; f++)
        if (vk_alive(st, f) && ref_contact_target(st, f, 1u << t) >= 0)
            return 1;
    return 0;
}

static void ref_resolve_contact(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t,
                                int counter, int ongoing) {
    ref_blow_t blows[OPFOR_MAX_FIGURES];
    for (int v = 0; v < st->nunits; v++)
        st->ux[v].casualties = 0;
    st->melee[u] |= 1u << t;
    st->melee[t] |= 1u << u;
    uint32_t um = 1u << u, tm = 1u << t;
    int nb = ref_strike(ctx, st, um, um, tm, blows, 0);
    if (counter)
        nb = ref_strike(ctx, st, tm, tm, 0, blows, nb);
    ref_land(ctx, st, blows, nb);
    if (!counter) {
        nb = ref_strike(ctx, st, tm, 0, 0, blows, 0);
        ref_land(ctx, st, blows, nb);
    }
    if (ongoing) { /* the rest of the melee charged into, not other melees (X) */
        uint32_t comp = 1u << t, grow = 1, rest = 0;
        while (grow) {
            grow = 0;
            for (int v = 0; v < st->nunits; v++)
                if ((comp >> v & 1) && (st->melee[v] & ~comp)) {
                    comp |= st->melee[v];
                    grow = 1;
                }
        }
        for (int v = 0; v < st->nunits; v++)
            if ((comp >> v & 1) && v != u && v != t && vk_unit_active(st, v))
                rest |= 1u << v;
        nb = ref_strike(ctx, st, rest, 0, comp, blows, 0);
        ref_land(ctx, st, blows, nb);
    }
    uint32_t involved = um | tm;
    for (int v = 0; v < st->nunits; v++)
        if (st->melee[v] & (um | tm))
            involved |= 1u << v;
    ref_melee_morale(ctx, st, involved);
    if (!(st->charge.hold & 1)) /* X steps 8-9: each side may hold */
        ref_follow_up(ctx, st, u, st->melee[u], VK_MV_ADVANCE);
    if (!(st->charge.hold & 2))
        ref_follow_up(ctx, st, t, st->melee[t], VK_MV_ADVANCE);
    ref_link_contacts(st, u, t);
    ref_melee_refresh(st);
    st->ux[u].flags |= OPFOR_VK_UX_FOUGHT;
    st->ux[t].flags |= OPFOR_VK_UX_FOUGHT;
}

static void ref_defensive_fire(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int t, int u) {
    const opfor_unit_t *tu = &st->units[t];
    float start = st->charge.start_gap;
    /* X: a veteran fires at half its target's charge path: the chargers' move, made on a copy
       before any shot, always (the engine makes it only when a veteran may fire) */
    static opfor_vk_state_t scratch;
    float path[OPFOR_MAX_FIGURES] = {0};
    memcpy(&scratch, st, sizeof scratch);
    ref_charge_move(ctx, &scratch, u, t, st->charge.d3, path);
    for (int f = tu->first; f < tu->first + tu->count; f++) {
        const opfor_figure_t *fr = &st->figures[f];
        if (!vk_alive(st, f) || !vk_is_person(fr))
            continue;
        float d2;
        int g = vk_nearest_fig(st, u, fr->pos, &d2);
        if (g < 0)
            break;
        float range =
            fr->quality >= OPFOR_Q_ELITE || (fr->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)) ? 0.0f
            : fr->quality == OPFOR_Q_VETERAN ? 0.5f * path[g]
                                             : start;
        int w = vk_firearm(fr, range);
        if (w < 0)
            continue;
        if (!vk_is_person(&st->figures[g]) || !vk_los(ctx, st, f, g))
            continue;
        vk_shoot(ctx, st, f, g, w, range, VK_SHOOT_NO_COVER, NULL);
    }
}

static void ref_charge_react(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int kind,
                             opfor_pt_t dest, int how, int hold) {
    int u = st->charge.charger, t = st->charge.target, d3 = st->charge.d3;
    if (hold)
        st->charge.hold |= 2;
    int ongoing = st->charge.ongoing;
    st->charge.active = 0;
    int counter = 0;
    if (kind != OPFOR_VK_REACT_STAND)
        vk_mark_acted(st, t);
    switch (kind) {
    case OPFOR_VK_REACT_FIRE:
        for (int v = 0; v < st->nunits; v++)
            st->ux[v].casualties = 0;
        ref_defensive_fire(ctx, st, t, u);
        if (st->ux[u].casualties) {
            st->ux[u].casualties = 0;
            if (vk_unit_active(st, u) && !vk_morale_check(ctx, st, u, NULL)) {
                int fa, fb;
                float gap = vk_nearest_pair(st, u, t, &fa, &fb);
                if (fa >= 0 && gap > 1.0f) {
                    vk_ugeo_t g;
                    vk_unit_geo(st, u, &g);
                    opfor_vec_t dir =
                        opfor_vnorm(opfor_vsub(st->figures[fb].pos, st->figures[fa].pos));
                    opfor_pt_t to = opfor_vadd(g.c, opfor_vscale(dir, gap - 1.0f));
                    vk_move_unit(ctx, st, u, VK_MV_CHARGE, to, 0, to, d3, -1, NULL);
                }
                return;
            }
        }
        break;
    case OPFOR_VK_REACT_FLEE:
        vk_move_unit(ctx, st, t,
                     (how == OPFOR_VK_CRAWL     ? VK_MV_CRAWL
                      : how == OPFOR_VK_ADVANCE ? VK_MV_ADVANCE
                                                : VK_MV_RUN) |
                         VK_MV_PERSONS,
                     dest, 0, dest, 0, -1, NULL);
        st->ux[t].flags |= OPFOR_VK_UX_FLED;
        break;
    case OPFOR_VK_REACT_COUNTER: {
        int fa, fb;
        float gap = vk_nearest_pair(st, u, t, &fa, &fb);
        if (fb >= 0 && gap > 0.1f) {
            vk_ugeo_t g;
            vk_unit_geo(st, t, &g);
            opfor_vec_t dir = opfor_vnorm(opfor_vsub(st->figures[fa].pos, st->figures[fb].pos));
            opfor_pt_t to = opfor_vadd(g.c, opfor_vscale(dir, 0.25f * gap)); /* X */
            vk_move_unit(ctx, st, t, VK_MV_CHARGE, to, 0, to, 0, u, NULL);
        }
        counter = 1;
        st->ux[t].flags |= OPFOR_VK_UX_CHARGED;
        break;
    }
    default:
        break;
    }
    if (!vk_unit_active(st, u) || !vk_unit_active(st, t))
        return;
    ref_charge_move(ctx, st, u, t, d3, NULL);
    if (!ref_any_contact(st, u, t))
        return;
    vk_mark_acted(st, t);
    ref_resolve_contact(ctx, st, u, t, counter, ongoing);
}

static int ref_charge(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t) {
    int d3 = vk_d3(st);
    int minx;
    int maxx = ref_charge_x(ctx, st, u, &minx);
    float gap = vk_nearest_pair(st, u, t, NULL, NULL);
    memset(&st->charge, 0, sizeof st->charge);
    st->charge.charger = (uint8_t)u;
    st->charge.target = (uint8_t)t;
    st->charge.allowance = (float)(maxx + d3);
    st->charge.start_gap = gap;
    st->charge.reach = gap;
    st->charge.d3 = (uint8_t)d3;
    st->charge.ongoing = vk_in_melee(st, t) ? 1 : 0;
    st->ux[u].flags |= OPFOR_VK_UX_CHARGED;
    if ((float)(maxx + d3) < gap) {
        ref_charge_move(ctx, st, u, t, d3, NULL);
        return 0;
    }
    for (int v = 0; v < st->nunits; v++)
        st->ux[v].casualties = 0;
    if (!vk_morale_check(ctx, st, t, NULL)) {
        vk_ugeo_t g;
        vk_unit_geo(st, u, &g);
        vk_flee(ctx, st, t, g.c, NULL);
        ref_charge_move(ctx, st, u, t, d3, NULL);
        if (ref_any_contact(st, u, t)) {
            vk_mark_acted(st, t);
            ref_resolve_contact(ctx, st, u, t, 0, 0);
        }
        return 0;
    }
    if (!(st->units[t].flags & OPFOR_UNIT_ACTED) && !st->charge.ongoing) {
        st->charge.active = 1;
        return 1;
    }
    ref_charge_react(ctx, st, OPFOR_VK_REACT_STAND, opfor_pt(0, 0), 0, 0);
    return 0;
}

static void ref_fight(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u) {
    uint32_t comp = 1u << u, grow = 1;
    while (grow) {
        grow = 0;
        for (int v = 0; v < st->nunits; v++)
            if ((comp >> v & 1) && (st->melee[v] & ~comp)) {
                comp |= st->melee[v];
                grow = 1;
            }
    }
    for (int v = 0; v < st->nunits; v++)
        if (comp >> v & 1)
            ref_follow_up(ctx, st, v, st->melee[v], VK_MV_RUN);
    for (int v = 0; v < st->nunits; v++)
        st->ux[v].casualties = 0;
    ref_blow_t blows[OPFOR_MAX_FIGURES];
    int nb = ref_strike(ctx, st, comp, 0, comp, blows, 0);
    ref_land(ctx, st, blows, nb);
    for (int v = 0; v < st->nunits; v++)
        if (comp >> v & 1) {
            vk_mark_acted(st, v);
            st->ux[v].flags |= OPFOR_VK_UX_FOUGHT;
        }
    ref_melee_morale(ctx, st, comp);
    ref_melee_refresh(st);
}

/* ======================================================================== morale (plain) */

static int ref_near_unit(const opfor_vk_state_t *st, int u, opfor_pt_t p, float r, float d) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        float lim = d + r + vk_radius(&st->figures[i]);
        if (opfor_dist2(p, st->figures[i].pos) <= lim * lim)
            return 1;
    }
    return 0;
}

static float ref_command_distance(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    float best = 1e30f;
    int side = un->side;
    for (int v = 0; v < st->nunits; v++) {
        const opfor_unit_t *gu = &st->units[v];
        if (gu->side != side || st->ux[v].removed || (gu->flags & OPFOR_UNIT_OFF_TABLE))
            continue;
        for (int g = gu->first; g < gu->first + gu->count; g++) {
            if (!vk_commander(st, g, side))
                continue;
            opfor_pt_t gp = st->figures[g].pos;
            for (int i = un->first; i < un->first + un->count; i++) {
                if (!vk_alive(st, i))
                    continue;
                float d2 = opfor_dist2(gp, st->figures[i].pos);
                if (d2 < best)
                    best = d2;
            }
        }
    }
    if (best >= 1e29f)
        return 1e9f;
    float d = sqrtf(best) - 1.0f;
    return d < 0.0f ? 0.0f : d;
}

static int ref_needs_command_test(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    if (un->flags & (OPFOR_UNIT_SELF_COMMANDING | OPFOR_UNIT_GENERAL))
        return 0;
    if (un->type == OPFOR_UT_SUPPLY)
        return 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].skills & OPFOR_S_GENERAL))
            return 0;
    float radius = (float)opfor_viktoria_command_radius(st->level);
    if (ref_command_distance(st, u) <= radius)
        return 0;
    float mr = (float)opfor_viktoria_musician_radius(st->level);
    for (int m = 0; m < st->nfigures; m++) {
        if (!(st->figx[m] & OPFOR_VK_FX_RELAY) || !vk_alive(st, m) ||
            st->units[st->figures[m].unit].side != un->side)
            continue;
        if (ref_near_unit(st, u, st->figures[m].pos, vk_radius(&st->figures[m]), mr))
            return 0;
    }
    return 1;
}

static void ref_musician_play(opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    float radius = (float)opfor_viktoria_command_radius(st->level);
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i) || !(st->figures[i].skills & OPFOR_S_MUSICIAN))
            continue;
        if (st->figures[i].flags & (OPFOR_FIG_PRONE | OPFOR_FIG_RUNNING))
            continue;
        st->figx[i] |= OPFOR_VK_FX_PLAYING;
        for (int g = 0; g < st->nfigures; g++) {
            const opfor_figure_t *gf = &st->figures[g];
            if (!vk_commander(st, g, un->side))
                continue;
            float lim = radius + 1.0f;
            if (opfor_dist2(gf->pos, st->figures[i].pos) <= lim * lim) {
                st->figx[i] |= OPFOR_VK_FX_RELAY;
                break;
            }
        }
    }
}

static void ref_promote(opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int best = -1, score = -1;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i) || !vk_is_person(&st->figures[i]))
            continue;
        if (st->figures[i].skills & OPFOR_S_LEADER)
            return;
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
}

static int ref_split_leaders(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    if (un->flags & OPFOR_UNIT_GENERAL)
        return 0;
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && vk_is_person(&st->figures[i]) &&
            (st->figures[i].skills & OPFOR_S_LEADER) && !(st->figx[i] & OPFOR_VK_FX_PROMOTED))
            n++;
    return n;
}

static void ref_morale_after(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st) {
    for (int u = 0; u < st->nunits; u++) {
        if (!st->ux[u].casualties)
            continue;
        st->ux[u].casualties = 0;
        if (!vk_unit_active(st, u))
            continue;
        if (ctx->opt.specials && st->units[u].type == OPFOR_UT_WALKER) {
            if (!vk_morale_check(ctx, st, u, NULL))
                vk_remove_unit(st, u, "leaves the area", NULL);
            continue;
        }
        vk_morale_check(ctx, st, u, NULL);
    }
}

/* ======================================================================== specials (plain) */

static int ref_wounded_count(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        n += vk_alive(st, i) && vk_is_person(&st->figures[i]) &&
             (st->figures[i].flags & OPFOR_FIG_WOUNDED);
    return n;
}

static int ref_touches_enemy(const opfor_vk_state_t *st, int f) {
    const opfor_figure_t *a = &st->figures[f];
    int side = st->units[a->unit].side;
    for (int j = 0; j < st->nfigures; j++) {
        if (!vk_alive(st, j) || st->units[st->figures[j].unit].side == side)
            continue;
        float lim = vk_radius(a) + vk_radius(&st->figures[j]) + VK_CONTACT;
        if (opfor_dist2(a->pos, st->figures[j].pos) <= lim * lim)
            return 1;
    }
    return 0;
}

static int ref_patient_for(const opfor_vk_state_t *st, int m) {
    const opfor_figure_t *mf = &st->figures[m];
    int side = st->units[mf->unit].side;
    int best = -1;
    float bd = 1e30f;
    for (int j = 0; j < st->nfigures; j++) {
        const opfor_figure_t *f = &st->figures[j];
        if (j == m || !vk_alive(st, j) || !vk_is_person(f) || !(f->flags & OPFOR_FIG_WOUNDED) ||
            st->units[f->unit].side != side || st->ux[f->unit].removed)
            continue;
        float gap = opfor_dist(mf->pos, f->pos) - vk_radius(mf) - vk_radius(f);
        if (gap > VK_HEAL_REACH || gap >= bd)
            continue;
        if (ref_touches_enemy(st, j))
            continue;
        bd = gap;
        best = j;
    }
    return best;
}

static int ref_can_heal(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].skills & OPFOR_S_MEDIC) &&
            !(st->figx[i] & OPFOR_VK_FX_CONTROLLED) && ref_patient_for(st, i) >= 0)
            return 1;
    return 0;
}

static int ref_mesmerists(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        n += vk_alive(st, i) && (st->figures[i].skills & OPFOR_S_MESMERIST) &&
             !(st->figx[i] & OPFOR_VK_FX_CONTROLLED);
    return n;
}

static int ref_mesmer_tests(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int held = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        st->figx[i] &= (uint8_t)~OPFOR_VK_FX_CONTROLLED;
        if (!vk_alive(st, i) || !(st->figures[i].flags & OPFOR_FIG_MESMERIZED))
            continue;
        if (vk_roll(st, &ctx->tab->resist[st->figures[i].quality], NULL)) {
            st->figures[i].flags &= (uint16_t)~OPFOR_FIG_MESMERIZED;
        } else {
            st->figx[i] |= OPFOR_VK_FX_CONTROLLED;
            held++;
        }
    }
    return held;
}

/* ======================================================================== comparisons */

typedef struct cmp {
    opfor_vk_state_t a, b; /* fast, plain */
    long checks;
} cmp_t;

static void same_bytes(const cmp_t *c, const char *what, int u, int t) {
    if (memcmp(&c->a, &c->b, sizeof c->a) != 0)
        fail_msg("%s (unit %d, target %d): the states differ", what, u, t);
}

/* Every answer and every state change of the fast functions for unit u (and targets t) in
 * position st, against the plain versions. */
static void check_unit(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, cmp_t *c,
                       opfor_rng_t *r) {
    /* answers */
    assert_int_equal(vk_mg_figure(st, u), ref_mg_figure(st, u));
    assert_int_equal(vk_gun_figure(st, u), ref_gun_figure(st, u));
    for (int arc = 0; arc <= OPFOR_ARC_COUNT; arc++)
        assert_int_equal(vk_can_fire_mg(st, u, arc), ref_can_fire_mg(st, u, arc));
    assert_int_equal(vk_can_fire_gun(ctx, st, u), ref_can_fire_gun(ctx, st, u));
    assert_int_equal(vk_can_call_support(st, u), ref_can_call_support(st, u));
    assert_int_equal(vk_bombers(st, u), ref_bombers(st, u));
    assert_int_equal(vk_wounded_count(st, u), ref_wounded_count(st, u));
    assert_int_equal(vk_can_heal(st, u), ref_can_heal(st, u));
    assert_int_equal(vk_mesmerists(st, u), ref_mesmerists(st, u));
    assert_int_equal(vk_split_leaders(st, u), ref_split_leaders(st, u));
    float fr = vk_unit_reach(st, u), rr = ref_unit_reach(&ctx->model, st, u);
    assert_memory_equal(&fr, &rr, sizeof fr);
    float fc = vk_charge_reach(ctx, st, u), rc = ref_charge_reach(ctx, st, u);
    assert_memory_equal(&fc, &rc, sizeof fc);
    float fd = vk_command_distance(ctx, st, u), rd = ref_command_distance(st, u);
    assert_memory_equal(&fd, &rd, sizeof fd);
    assert_int_equal(vk_needs_command_test(ctx, st, u), ref_needs_command_test(st, u));
    for (int t = -1; t <= st->nunits; t++) {
        assert_int_equal(vk_fire_target_ok(st, t), ref_fire_target_ok(st, t));
        if (t >= 0 && t < st->nunits)
            assert_int_equal(vk_charge_target_ok(st, u, t), ref_charge_target_ok(st, u, t));
    }
    c->checks += 20;
    /* state changes */
#define BOTH(what, t, fast, plain)                                                                 \
    do {                                                                                           \
        memcpy(&c->a, st, sizeof *st);                                                             \
        memcpy(&c->b, st, sizeof *st);                                                             \
        fast;                                                                                      \
        plain;                                                                                     \
        same_bytes(c, what, u, t);                                                                 \
        c->checks++;                                                                               \
    } while (0)
    BOTH("promote", -1, vk_promote(&c->a, u, NULL), ref_promote(&c->b, u));
    BOTH("musician", -1, vk_musician_play(ctx, &c->a, u), ref_musician_play(&c->b, u));
    BOTH("mesmer tests", -1, vk_mesmer_tests(ctx, &c->a, u, NULL), ref_mesmer_tests(ctx, &c->b, u));
    BOTH("morale after", -1, vk_morale_after(ctx, &c->a, NULL), ref_morale_after(ctx, &c->b));
    BOTH("melee refresh", -1, vk_melee_refresh(&c->a), ref_melee_refresh(&c->b));
    if (vk_in_melee(st, u))
        BOTH("fight", -1, vk_fight(ctx, &c->a, u, NULL), ref_fight(ctx, &c->b, u));
    if (vk_mg_figure(st, u) >= 0) {
        /* every arc, each at a figure, anywhere on the table, or at the gun itself (no
           direction: the unit's facing) */
        static const int arcs[] = {OPFOR_ARC_45, OPFOR_ARC_90, OPFOR_ARC_DOUBLE_45, OPFOR_ARC_180};
        for (int a = 0; a < 4; a++) {
            int arc = arcs[a], how = (int)opfor_rng_below(r, 8);
            opfor_pt_t aim = opfor_pt((float)opfor_rng_unit(r) * ctx->sc.table.width,
                                      (float)opfor_rng_unit(r) * ctx->sc.table.depth);
            if (how < 4)
                aim = st->figures[opfor_rng_below(r, (uint32_t)st->nfigures)].pos;
            else if (how == 7)
                aim = st->figures[vk_mg_figure(st, u)].pos;
            BOTH("machinegun", arc, vk_fire_mg(ctx, &c->a, u, arc, aim, NULL),
                 ref_fire_mg(ctx, &c->b, u, arc, aim));
        }
    }
    static const unsigned aims[] = {0, OPFOR_VK_AF_AIM_WOUNDED, OPFOR_VK_AF_AIM_GENERAL,
                                    OPFOR_VK_AF_AIM_WOUNDED | OPFOR_VK_AF_AIM_GENERAL};
    /* a unit firing on itself: never asked in play, but the volley's bookkeeping (the firer's
       and the target's places hidden from the gap rule) must still give the plain answer */
    if (vk_fire_target_ok(st, u) && opfor_rng_below(r, 4) == 0) {
        unsigned aim = aims[opfor_rng_below(r, 4)];
        int sa = 0, sb = 0;
        BOTH("fire at itself", u, sa = vk_fire_unit(ctx, &c->a, u, u, 0, aim, NULL),
             sb = ref_fire_unit(ctx, &c->b, u, u, 0, aim));
        assert_int_equal(sa, sb);
    }
    int charged = 0;
    for (int t = 0; t < st->nunits; t++) {
        if (t == u || st->units[t].side == st->units[u].side || !vk_fire_target_ok(st, t))
            continue;
        unsigned aim = aims[opfor_rng_below(r, 4)];
        int moving = (int)opfor_rng_below(r, 2), sa = 0, sb = 0;
        BOTH("fire", t, sa = vk_fire_unit(ctx, &c->a, u, t, moving, aim, NULL),
             sb = ref_fire_unit(ctx, &c->b, u, t, moving, aim));
        assert_int_equal(sa, sb);
        /* one charge a position (they are slow): the whole of X, reactions included */
        if (charged || !vk_charge_target_ok(st, u, t) || vk_gun_figure(st, u) >= 0 ||
            opfor_rng_below(r, 3) != 0)
            continue;
        charged = 1;
        int ra = 0, rb = 0;
        BOTH("charge", t, ra = vk_charge(ctx, &c->a, u, t, 0, NULL),
             rb = ref_charge(ctx, &c->b, u, t));
        assert_int_equal(ra, rb);
        if (ra != 1)
            continue;
        static opfor_vk_state_t pa, pb; /* the pending charge, for each reaction */
        memcpy(&pa, &c->a, sizeof pa);
        memcpy(&pb, &c->b, sizeof pb);
        /* each reaction; a flight as a run, an advance and a crawl (X); standing and
           holding after the melee (no follow-up advance, X step 9) */
        static const int kinds[] = {
            OPFOR_VK_REACT_STAND, OPFOR_VK_REACT_FIRE,    OPFOR_VK_REACT_FLEE, OPFOR_VK_REACT_FLEE,
            OPFOR_VK_REACT_FLEE,  OPFOR_VK_REACT_COUNTER, OPFOR_VK_REACT_STAND};
        static const int hows[] = {0, 0, OPFOR_VK_RUN, OPFOR_VK_ADVANCE, OPFOR_VK_CRAWL, 0, 0};
        for (int k = 0; k < 7; k++) {
            int hold = k == 6;
            opfor_pt_t dest = opfor_vadd(st->figures[st->units[t].first].pos,
                                         opfor_vscale(ctx->home[st->units[t].side], 12.0f));
            memcpy(&c->a, &pa, sizeof pa);
            memcpy(&c->b, &pb, sizeof pb);
            opfor_vk_action_t react = {.kind = (uint8_t)kinds[k],
                                       .unit = (uint8_t)t,
                                       .target = OPFOR_VK_NONE,
                                       .arc = (uint8_t)hows[k],
                                       .figure = OPFOR_VK_NO_FIGURE,
                                       .flags = hold ? OPFOR_VK_AF_HOLD : 0,
                                       .dest = dest};
            vk_charge_react(ctx, &c->a, &react, NULL);
            ref_charge_react(ctx, &c->b, kinds[k], dest, hows[k], hold);
            same_bytes(c, "charge reaction", u, t);
            c->checks++;
        }
    }
#undef BOTH
}

/* The position shaken: figures killed, sent to the rear, wounded or healed, mesmerised, put on
 * a coarse grid (exact ties between targets and bases in line) or nudged; casualties to check
 * morale for, musicians relaying; and, near an enemy, a melee link to fight over. */
static void shake(const opfor_vk_state_t *st, opfor_vk_state_t *out, opfor_rng_t *r) {
    memcpy(out, st, sizeof *out);
    for (int i = 0; i < out->nfigures; i++) {
        opfor_figure_t *f = &out->figures[i];
        uint32_t k = opfor_rng_below(r, 12);
        if (fx_shake_figure(f, k))
            continue;
        switch (k) {
        case 3:
            f->pos = opfor_pt(floorf(f->pos.x), floorf(f->pos.y));
            break;
        case 4:
            f->pos.x += (float)opfor_rng_unit(r) * 2.0f - 1.0f;
            f->pos.y += (float)opfor_rng_unit(r) * 2.0f - 1.0f;
            break;
        case 5:
            f->flags |= OPFOR_FIG_MESMERIZED;
            break;
        case 6:
            out->figx[i] |= OPFOR_VK_FX_RELAY | OPFOR_VK_FX_PLAYING;
            break;
        default:
            break;
        }
    }
    for (int u = 0; u < out->nunits; u++)
        if (opfor_rng_below(r, 4) == 0)
            out->ux[u].casualties = 1;
    int u = out->cur;
    if (u >= 0 && u < out->nunits)
        for (int t = 0; t < out->nunits; t++)
            if (out->units[t].side != out->units[u].side && vk_unit_active(out, t) &&
                vk_unit_active(out, u) && vk_nearest_pair(out, u, t, NULL, NULL) < 3.0f) {
                out->melee[u] |= 1u << t;
                out->melee[t] |= 1u << u;
            }
}

/* Scratch of the visitor: the shaking stream, the results and a state buffer. */
typedef struct {
    opfor_rng_t jr; /* first: fx_walk_scratch seeds it */
    cmp_t c;
    opfor_vk_state_t tmp;
} walk_t;

/* At every other action: the acting unit on the position as played, then on a shaken copy
 * the acting unit and one at random. Returns the checks made. */
static long visit(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, void *user) {
    walk_t *w = user;
    long before = w->c.checks;
    if (opfor_rng_below(&w->jr, 2) != 0)
        return 0;
    check_unit(ctx, st, st->cur, &w->c, &w->jr);
    shake(st, &w->tmp, &w->jr);
    check_unit(ctx, &w->tmp, w->tmp.cur, &w->c, &w->jr);
    check_unit(ctx, &w->tmp, (int)opfor_rng_below(&w->jr, (uint32_t)w->tmp.nunits), &w->c, &w->jr);
    return w->c.checks - before;
}

/* Random games on sc (the XII options and weather events on or off) with every other position
 * of an action checked, plain and shaken. Returns the checks made. */
static long run_games(opfor_scenario_t *sc, int machines, int games, uint64_t seed) {
    return fx_walk_scratch(sc, machines, machines, games, seed, 0, visit, sizeof(walk_t));
}

static void engine_fire_fast_default_matches_plain(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_builtin("competitive_default");
    int games = (int)(24 * fx_scale()) + 2;
    long checks = run_games(sc, 0, games, 11);
    assert_true(checks > 20000 * fx_scale());
    fx_scenario_free(sc);
}

static void engine_fire_fast_machines_matches_plain(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_machines_demo();
    int games = (int)(24 * fx_scale()) + 2;
    long checks = run_games(sc, 1, games, 12);
    assert_true(checks > 5000 * fx_scale());
    fx_scenario_free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(engine_fire_fast_default_matches_plain),
        cmocka_unit_test(engine_fire_fast_machines_matches_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
