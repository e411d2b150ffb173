/* rulesets/viktoria/engine_fire.c — personal weapons (Viktoria! IX): pistol 9 in, carbine
 * 36 in, rifle without limit; line of sight, the half-inch gap rule, cover, moving fire,
 * aiming at the wounded or at leaders, criticals, saves and effects.
 *
 * Each firing figure picks its own target figure (the nearest it can see and reach, or the
 * nearest wounded figure / leader when the action says so) and rolls the calculator's hit,
 * critical, save and effect in that order. Targets are tried nearest first and at most three
 * per firer, so the cost stays linear in the figures involved.
 */
#include <string.h>

#include "engine_int.h"

int vk_firearm_m(const opfor_viktoria_model_t *m, const opfor_figure_t *f, float gap) {
    if (f->flags & OPFOR_FIG_EQUIPMENT)
        return -1;
    /* rifle, then carbine, then pistol: the longer arm shoots better at any range */
    for (int w = 2; w >= 0; w--) {
        if (!(f->weapons & (OPFOR_W_PISTOL << w)))
            continue;
        if (gap <= (float)m->range_edge[w][OPFOR_VK_BRACKET_COUNT - 1])
            return w;
    }
    return -1;
}

float vk_unit_reach_m(const opfor_viktoria_model_t *m, const opfor_vk_state_t *st, int u) {
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

int vk_fire_target_ok(const opfor_vk_state_t *st, int t) {
    if (!vk_unit_active(st, t) || vk_in_melee(st, t))
        return 0; /* figures in combat contact are not targets (IX) */
    const opfor_unit_t *un = &st->units[t];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && vk_is_person(&st->figures[i]))
            return 1;
    return 0;
}

int vk_cover(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int g, opfor_pt_t from) {
    const opfor_figure_t *f = &st->figures[g];
    int c = vk_terrain_cover(ctx, from, f->pos, vk_radius(f));
    int arm = vk_armour(ctx, st, f->unit);
    if (arm > 0) {
        /* soft cover raises armour one level, hard cover two (XII.A) */
        int add = c == OPFOR_COVER_SOFT ? 1 : c >= OPFOR_COVER_HARD ? 2 : 0;
        c = arm + add;
        if (c > OPFOR_COVER_FORT)
            c = OPFOR_COVER_FORT;
    }
    return c;
}

/* The gap rule against a list of candidate figures (indices). */
static int lane_blocked_in(const opfor_vk_state_t *st, int f, int g, const int *cand, int nc) {
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
        /* cheap reject: farther from the line than a base and a gap */
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

/* Figures that could stand in the way of fire between units u and t: those inside the box
 * around both units. */
static int lane_candidates(const opfor_vk_state_t *st, int u, int t, int *out) {
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

int vk_lane_blocked(const opfor_vk_state_t *st, int f, int g) {
    int cand[OPFOR_MAX_FIGURES];
    int n = lane_candidates(st, st->figures[f].unit, st->figures[g].unit, cand);
    return lane_blocked_in(st, f, g, cand, n);
}

int vk_shoot(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int f, int g, int w, float gap,
             int moving, opfor_vk_events_t *ev) {
    const vk_tabs_t *T = ctx->tab;
    const opfor_figure_t *fr = &st->figures[f], *tg = &st->figures[g];
    int br = opfor_viktoria_bracket_of(&ctx->model, (opfor_viktoria_ranged_t)w, gap);
    if (br < 0)
        return 0;
    int aq = fr->quality, tc = vk_class(tg);
    int cov = vk_cover(ctx, st, g, fr->pos);
    int am = (fr->flags & OPFOR_FIG_MOUNTED) != 0, ss = (fr->skills & OPFOR_S_SHARPSHOOTER) != 0;
    int aw = (fr->flags & OPFOR_FIG_WOUNDED) != 0, tw = (tg->flags & OPFOR_FIG_WOUNDED) != 0;
    int tm = (tg->flags & OPFOR_FIG_MOUNTED) != 0;
    int post = (tg->flags & OPFOR_FIG_RUNNING) ? VK_POST_RUNNING
               : (tg->flags & OPFOR_FIG_PRONE) ? VK_POST_PRONE
                                               : VK_POST_NONE;
    const vk_roll_t *hit =
        &T->fire_hit[vk_fire_idx(w, aq, tc, cov, br, am, ss, aw, moving ? 1 : 0, tw, tm, post)];
    int crit;
    if (!vk_roll_hit(st, hit, &T->critical, &crit))
        return 0;
    int effect;
    if (crit) {
        effect = 2; /* a 6 then a 6: dead, no save (IX) */
        VK_EV(ev, "    a critical hit on a figure of %s", st->units[tg->unit].name);
    } else {
        if (vk_roll(st, &T->fire_save[w][tc][cov][br][tw][tm], NULL))
            return 0;
        effect = vk_effect_roll(
            st, &T->effect[OPFOR_VK_EFFECT_FIREARM][tw][tc == OPFOR_VK_TRANSPORT], NULL);
    }
    if (effect > 0)
        vk_harm(ctx, st, g, effect, 0, st->units[fr->unit].side, ev);
    return effect;
}

/* Candidate target figures for firer f in unit t: nearest first, preferred ones first. */
static int pick_targets(const opfor_vk_state_t *st, int f, int t, unsigned aim, int *out, int max) {
    const opfor_unit_t *tu = &st->units[t];
    float d[OPFOR_MAX_FIGURES];
    int n = 0;
    opfor_pt_t p = st->figures[f].pos;
    int cand[OPFOR_MAX_FIGURES];
    int nc = 0;
    for (int i = tu->first; i < tu->first + tu->count; i++) {
        if (!vk_alive(st, i) || !vk_is_person(&st->figures[i]))
            continue;
        float dd = opfor_dist2(p, st->figures[i].pos);
        int pref = 0;
        if ((aim & OPFOR_VK_AF_AIM_WOUNDED) && (st->figures[i].flags & OPFOR_FIG_WOUNDED))
            pref = 1;
        if ((aim & OPFOR_VK_AF_AIM_GENERAL) &&
            (st->figures[i].skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)))
            pref = 1;
        if (aim && !pref)
            dd += 1e6f; /* stated targets first (IX) */
        cand[nc] = i;
        d[nc] = dd;
        nc++;
    }
    /* partial selection sort of the max nearest */
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

int vk_fire_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int moving,
                 unsigned aim, opfor_vk_events_t *ev) {
    const opfor_unit_t *un = &st->units[u];
    int shots = 0, wounds = 0, kills = 0;
    int lanes[OPFOR_MAX_FIGURES];
    int nlanes = lane_candidates(st, u, t, lanes);
    for (int f = un->first; f < un->first + un->count; f++) {
        const opfor_figure_t *fr = &st->figures[f];
        if (!vk_alive(st, f) || !vk_is_person(fr) ||
            !(fr->weapons & (OPFOR_W_PISTOL | OPFOR_W_CARBINE | OPFOR_W_RIFLE)))
            continue;
        if ((st->figx[f] & OPFOR_VK_FX_PLAYING) || (st->figx[f] & OPFOR_VK_FX_CONTROLLED))
            continue; /* a playing musician does not shoot; controlled figures act later */
        if (!vk_unit_active(st, t))
            break;
        int cand[3];
        int nc = pick_targets(st, f, t, aim, cand, 3);
        for (int k = 0; k < nc; k++) {
            int g = cand[k];
            const opfor_figure_t *tg = &st->figures[g];
            float gap = opfor_dist(fr->pos, tg->pos) - vk_radius(fr) - vk_radius(tg);
            if (gap < 0.0f)
                gap = 0.0f;
            int w = vk_firearm(fr, gap);
            if (w < 0)
                continue;
            if (!vk_los(ctx, st, f, g) || lane_blocked_in(st, f, g, lanes, nlanes))
                continue;
            shots++;
            int e = vk_shoot(ctx, st, f, g, w, gap, moving, NULL);
            wounds += e == 1;
            kills += e == 2;
            break;
        }
    }
    VK_EV(ev, "  %s fires%s at %s: %d shots, %d wounded, %d killed", un->name,
          moving ? " on the move" : "", st->units[t].name, shots, wounds, kills);
    return shots;
}
