/* rulesets/viktoria/patrol_spawn.c — bringing spotted enemies onto the table: which of the
 * game master's units appears, its generals, and the turn bookkeeping (Viktoria! XV.B).
 *
 * Everything writes into the caller's unit and figure arrays through opfor_patrol_forces_t,
 * appending at the first free slot, so the same code serves the terminal game, the rules
 * engine's initiative hook and simulated games. Slots are never reused: a destroyed or
 * departed unit keeps its slot, because scoring reads its figures at the end. A collection
 * entry is a physical set of miniatures: at most `copies` of it stand on the table at once,
 * and it becomes free again when its unit leaves play.
 */
#include "opfor/viktoria/patrol.h"
#include "opfor/viktoria/scenario.h"
#include "opfor/viktoria/table_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int opfor_patrol_generals_needed(const opfor_patrol_config_t *cfg, int n) {
    int per = cfg->units_per_general;
    if (per <= 0 || n <= 0)
        return 0;
    return (n + per - 1) / per;
}

void opfor_patrol_enemy_counts(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo,
                               int *counted, int *generals) {
    int n = 0, g = 0;
    for (int u = 0; u < fo->nunits; u++) {
        const opfor_unit_t *un = &fo->units[u];
        if (un->side != cfg->enemy || !opfor_patrol_in_play(fo, u))
            continue;
        if (un->flags & OPFOR_UNIT_GENERAL)
            g++;
        else if (un->type != OPFOR_UT_SUPPLY)
            n++;
    }
    if (counted)
        *counted = n;
    if (generals)
        *generals = g;
}

void opfor_patrol_new_turn(opfor_patrol_state_t *ps, opfor_patrol_forces_t *fo) {
    ps->turn++;
    for (int u = 0; u < fo->nunits; u++)
        fo->units[u].flags &= (uint16_t)~OPFOR_UNIT_ACTED;
    for (int i = 0; i < fo->nfigures; i++)
        fo->figures[i].flags &= (uint16_t) ~(OPFOR_FIG_ACTED | OPFOR_FIG_RUNNING | OPFOR_FIG_MOVED);
}

/* ---- generic units (no collection given) ---- */

static int qclamp(int q) {
    return q < OPFOR_Q_CIVILIAN ? OPFOR_Q_CIVILIAN : q > OPFOR_Q_ELITE ? OPFOR_Q_ELITE : q;
}

static void fig_set(opfor_figure_t *g, int q, unsigned weapons, unsigned skills, unsigned flags) {
    memset(g, 0, sizeof *g);
    g->quality = (uint8_t)qclamp(q);
    g->weapons = (uint16_t)weapons;
    g->skills = (uint16_t)skills;
    g->flags = (uint16_t)(OPFOR_FIG_ALIVE | flags);
}

/* Builds the generic unit of XV.B's typical sizes for type and quality q into *u and
 * figs (room for 16). Artillery is a field gun or, on a 4-6, a machinegun. */
static void generic_unit(int type, int q, opfor_rng_t *rng, opfor_unit_t *u, opfor_figure_t *figs,
                         const char **base) {
    memset(u, 0, sizeof *u);
    int n = 0;
    const unsigned W_INF = OPFOR_W_RIFLE | OPFOR_W_BAYONET,
                   HORSE = OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE;
    switch (type) {
    case OPFOR_PT_CAVALRY:
        *base = "Cavalry";
        u->type = OPFOR_UT_CAVALRY;
        fig_set(&figs[n++], q + 1, OPFOR_W_SWORD | OPFOR_W_PISTOL | OPFOR_W_CARBINE, OPFOR_S_LEADER,
                HORSE);
        while (n < 6)
            fig_set(&figs[n++], q, OPFOR_W_SWORD | OPFOR_W_CARBINE, 0, HORSE);
        break;
    case OPFOR_PT_ARTILLERY:
        if (opfor_rng_d6(rng) <= 3) {
            *base = "Gun";
            u->type = OPFOR_UT_ARTILLERY;
            fig_set(&figs[n++], q, OPFOR_W_FIELD_GUN, 0, OPFOR_FIG_EQUIPMENT);
            fig_set(&figs[n++], q + 1, OPFOR_W_PISTOL, OPFOR_S_LEADER | OPFOR_S_CREW, 0);
            while (n < 5)
                fig_set(&figs[n++], q, OPFOR_W_PISTOL, OPFOR_S_CREW, 0);
        } else {
            *base = "MG";
            u->type = OPFOR_UT_MACHINEGUN;
            fig_set(&figs[n++], q, OPFOR_W_MG, 0, OPFOR_FIG_EQUIPMENT);
            fig_set(&figs[n++], q + 1, OPFOR_W_PISTOL, OPFOR_S_LEADER | OPFOR_S_CREW, 0);
            while (n < 4)
                fig_set(&figs[n++], q, OPFOR_W_RIFLE, OPFOR_S_CREW, 0);
        }
        break;
    case OPFOR_PT_HEADQUARTERS:
        *base = "HQ";
        u->type = OPFOR_UT_HEADQUARTERS;
        fig_set(&figs[n++], q, OPFOR_W_SWORD | OPFOR_W_PISTOL, OPFOR_S_LEADER, HORSE);
        fig_set(&figs[n++], q, OPFOR_W_SWORD | OPFOR_W_PISTOL, OPFOR_S_LEADER, HORSE);
        fig_set(&figs[n++], q, OPFOR_W_PISTOL, OPFOR_S_LEADER | OPFOR_S_SIGNALLER, HORSE);
        break;
    case OPFOR_PT_SUPPLY:
        *base = "Supply";
        u->type = OPFOR_UT_SUPPLY;
        fig_set(&figs[n++], q, 0, OPFOR_S_DRIVER, OPFOR_FIG_EQUIPMENT);
        fig_set(&figs[n++], q + 1, OPFOR_W_RIFLE, OPFOR_S_LEADER, 0);
        while (n < 5)
            fig_set(&figs[n++], q, OPFOR_W_RIFLE, 0, 0);
        u->flags |= OPFOR_UNIT_SELF_COMMANDING; /* supply is always in command (XV.B) */
        break;
    default:
        *base = "Infantry";
        u->type = OPFOR_UT_INFANTRY;
        fig_set(&figs[n++], q + 1, W_INF, OPFOR_S_LEADER, 0);
        while (n < 12)
            fig_set(&figs[n++], q, W_INF, 0, 0);
        break;
    }
    u->count = u->strength = (uint16_t)n;
    u->quality = (uint8_t)q;
}

/* ---- substitution ---- */

/* Units of entry t in play now. */
static int busy(const opfor_patrol_state_t *ps, const opfor_patrol_forces_t *fo, int t) {
    int n = 0;
    for (int u = 0; u < fo->nunits && u < OPFOR_MAX_UNITS; u++)
        n += ps->tmpl[u] == t && opfor_patrol_in_play(fo, u);
    return n;
}

/* Dices among the free entries standing for type: those portraying quality q first, then
 * those with no stated qualities, then any. Returns the entry or -1; *ncand gets the size
 * of the set diced among. */
static int choose_entry(const opfor_patrol_config_t *cfg, const opfor_patrol_state_t *ps,
                        const opfor_patrol_forces_t *fo, int type, int q, opfor_rng_t *rng,
                        int *ncand) {
    int set[3][OPFOR_PATROL_MAX_TEMPLATES], n[3] = {0, 0, 0};
    for (int t = 0; t < cfg->ntemplates; t++) {
        const opfor_patrol_template_t *e = &cfg->templates[t];
        if (!(e->stands_for & (1u << type)) || busy(ps, fo, t) >= e->copies)
            continue;
        int tier = (e->qualities >> q & 1u) ? 0 : e->qualities == 0 ? 1 : 2;
        set[tier][n[tier]++] = t;
    }
    *ncand = 0;
    for (int k = 0; k < 3; k++)
        if (n[k] > 0) {
            *ncand = n[k];
            return set[k][opfor_rng_below(rng, (uint32_t)n[k])];
        }
    return -1;
}

/* Writes into dst (room OPFOR_UNIT_NAME_MAX) a name not used by any unit: base, or base
 * followed by " 2", " 3", ... (cut to fit). numbered: always add a number from 1. */
static void unique_name(const opfor_patrol_forces_t *fo, const char *base, int numbered,
                        char *dst) {
    for (int k = numbered ? 1 : 0; k < 1000; k++) {
        char num[8] = "", cand[OPFOR_UNIT_NAME_MAX];
        if (k == 1 && !numbered)
            continue; /* "Name", then "Name 2" */
        if (k > 0)
            snprintf(num, sizeof num, " %d", k);
        size_t nl = strlen(num), bl = strlen(base);
        if (bl + nl > OPFOR_UNIT_NAME_MAX - 1)
            bl = OPFOR_UNIT_NAME_MAX - 1 - nl;
        memcpy(cand, base, bl);
        memcpy(cand + bl, num, nl + 1);
        int used = 0;
        for (int u = 0; u < fo->nunits && !used; u++)
            used = strcasecmp(fo->units[u].name, cand) == 0;
        if (!used) {
            memcpy(dst, cand, strlen(cand) + 1);
            return;
        }
    }
    snprintf(dst, OPFOR_UNIT_NAME_MAX, "%s", base);
}

/* Moves the figures so every base lies on the table, keeping the formation. */
static void keep_on_table(const opfor_table_t *t, opfor_figure_t *figs, int n) {
    float lox = 0.0f, hix = 0.0f, loy = 0.0f, hiy = 0.0f;
    for (int i = 0; i < n; i++) {
        float r = opfor_figure_radius(&opfor_viktoria_terrain_rules.radii, &figs[i]);
        lox = fmaxf(lox, r - figs[i].pos.x);
        hix = fmaxf(hix, figs[i].pos.x + r - t->width);
        loy = fmaxf(loy, r - figs[i].pos.y);
        hiy = fmaxf(hiy, figs[i].pos.y + r - t->depth);
    }
    float dx = lox > 0.0f ? lox : -hix, dy = loy > 0.0f ? loy : -hiy;
    for (int i = 0; i < n; i++) {
        figs[i].pos.x = fminf(fmaxf(figs[i].pos.x + dx, 0.0f), t->width);
        figs[i].pos.y = fminf(fmaxf(figs[i].pos.y + dy, 0.0f), t->depth);
    }
}

/* Draws figs up in formation with the front edge of the nearest base on point, facing f. */
static void draw_up(const opfor_table_t *t, opfor_figure_t *figs, int n, opfor_pt_t point,
                    opfor_vec_t f, int formation) {
    opfor_unit_place(&opfor_viktoria_terrain_rules.radii, figs, n, point, f,
                     (opfor_formation_t)formation);
    float front = -1e9f;
    for (int i = 0; i < n; i++)
        front =
            fmaxf(front, opfor_vdot(opfor_vsub(figs[i].pos, point), f) +
                             opfor_figure_radius(&opfor_viktoria_terrain_rules.radii, &figs[i]));
    for (int i = 0; i < n; i++)
        figs[i].pos = opfor_vsub(figs[i].pos, opfor_vscale(f, front));
    keep_on_table(t, figs, n);
}

/* The first ground closed to one of figs (n of them, unit flags uflags: a limbered gun counts
 * as mounted) as opfor_vk_table_forbidden finds it, or -1. */
static int forbidden(const opfor_table_t *t, const opfor_figure_t *figs, int n, unsigned uflags) {
    opfor_unit_t un;
    memset(&un, 0, sizeof un);
    un.count = (uint16_t)n;
    un.flags = (uint16_t)uflags;
    return opfor_vk_table_forbidden(&un, figs, t);
}

void opfor_patrol_clear_ground(const opfor_table_t *t, opfor_figure_t *figs, int n, unsigned uflags,
                               opfor_vec_t f) {
    if (n <= 0 || forbidden(t, figs, n, uflags) < 0)
        return;
    opfor_figure_t orig[64];
    if (n > (int)(sizeof orig / sizeof orig[0]))
        return;
    memcpy(orig, figs, sizeof figs[0] * (size_t)n);
    opfor_vec_t back = opfor_vscale(f, -1.0f), side = {-f.y, f.x};
    const opfor_vec_t dirs[7] = {
        back,
        opfor_vnorm(opfor_vadd(back, side)),
        opfor_vnorm(opfor_vsub(back, side)),
        side,
        opfor_vscale(side, -1.0f),
        opfor_vnorm(opfor_vadd(f, side)),
        opfor_vnorm(opfor_vsub(f, side)),
    };
    for (int k = 1; k <= 24; k++)
        for (int d = 0; d < 7; d++) {
            opfor_vec_t sh = opfor_vscale(dirs[d], 0.5f * (float)k);
            for (int i = 0; i < n; i++)
                figs[i].pos = opfor_vadd(orig[i].pos, sh);
            keep_on_table(t, figs, n);
            if (forbidden(t, figs, n, uflags) < 0)
                return;
        }
    memcpy(figs, orig, sizeof figs[0] * (size_t)n);
}

static int add_general(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                       opfor_patrol_forces_t *fo, opfor_pt_t pos, opfor_vec_t facing) {
    int u = fo->nunits;
    opfor_unit_t *un = &fo->units[u];
    opfor_figure_t *g = &fo->figures[fo->nfigures];
    char base[24];
    memset(un, 0, sizeof *un);
    ps->generals++;
    snprintf(base, sizeof base, "%s %d", cfg->general_name, ps->generals);
    unique_name(fo, base, 0, un->name);
    un->facing = facing;
    un->first = (uint16_t)fo->nfigures;
    un->count = un->strength = 1;
    un->flags = OPFOR_UNIT_GENERAL;
    un->side = (uint8_t)cfg->enemy;
    un->type = OPFOR_UT_HEADQUARTERS;
    un->quality = cfg->general_quality;
    fig_set(g, cfg->general_quality, cfg->general_weapons, OPFOR_S_LEADER | OPFOR_S_GENERAL,
            cfg->general_mounted ? OPFOR_FIG_MOUNTED | OPFOR_FIG_HORSE : 0);
    g->unit = (uint8_t)u;
    g->pos = pos;
    keep_on_table(&cfg->table, g, 1);
    if (cfg->clear_ground)
        opfor_patrol_clear_ground(&cfg->table, g, 1, un->flags, facing);
    fo->nunits++;
    fo->nfigures++;
    ps->origin[u] = OPFOR_PATROL_FROM_GENERALS;
    ps->tmpl[u] = OPFOR_PATROL_NONE;
    ps->fate[u] = OPFOR_PATROL_FATE_NONE;
    return u;
}

int opfor_patrol_spawn_unit(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                            opfor_patrol_forces_t *fo, const opfor_patrol_spot_t *sp,
                            const opfor_patrol_placement_t *pl, opfor_rng_t *rng,
                            opfor_patrol_spawn_t *out) {
    opfor_patrol_spawn_t local;
    if (!out)
        out = &local;
    memset(out, 0, sizeof *out);
    out->unit = out->tmpl = -1;
    if (!cfg || !ps || !fo || !sp || !pl || !rng || !pl->placed ||
        (unsigned)sp->type >= OPFOR_PT_COUNT || (unsigned)sp->quality >= OPFOR_Q_COUNT)
        return OPFOR_EINVAL;
    opfor_unit_t u;
    opfor_figure_t figs[64];
    const char *base;
    int q = sp->quality;
    if (cfg->ntemplates == 0) {
        generic_unit(sp->type, q, rng, &u, figs, &base);
    } else {
        int t = choose_entry(cfg, ps, fo, sp->type, q, rng, &out->candidates);
        if (t < 0) {
            out->short_of = 1;
            return OPFOR_ENOENT;
        }
        const opfor_patrol_template_t *e = &cfg->templates[t];
        u = e->unit;
        int delta = q - (int)e->unit.quality;
        for (int i = 0; i < u.count; i++) {
            figs[i] = cfg->figs[e->unit.first + i];
            figs[i].quality = (uint8_t)qclamp((int)figs[i].quality + delta);
        }
        base = e->unit.name;
        out->tmpl = t;
    }
    /* Generals this unit brings (XV.B): supply transport does not count. */
    int counted, have, ngen = 0;
    opfor_patrol_enemy_counts(cfg, fo, &counted, &have);
    if (sp->type != OPFOR_PT_SUPPLY && u.type != OPFOR_UT_SUPPLY) {
        ngen = opfor_patrol_generals_needed(cfg, counted + 1) - have;
        if (ngen < 0)
            ngen = 0;
        if (ngen > 4)
            ngen = 4;
    }
    if (fo->nunits + 1 + ngen > OPFOR_MAX_UNITS ||
        fo->nfigures + u.count + ngen > OPFOR_MAX_FIGURES) {
        out->short_of = 1;
        return OPFOR_EFULL;
    }
    int ui = fo->nunits;
    opfor_vec_t f = opfor_vnorm(opfor_vsub(pl->dot, pl->point));
    if (f.x == 0.0f && f.y == 0.0f)
        f = opfor_vscale(cfg->forward, -1.0f);
    draw_up(&cfg->table, figs, u.count, pl->point, f, u.formation);
    if (cfg->clear_ground)
        opfor_patrol_clear_ground(&cfg->table, figs, u.count, u.flags, f);
    unique_name(fo, base, cfg->ntemplates == 0, u.name);
    u.first = (uint16_t)fo->nfigures;
    u.strength = u.count;
    u.side = (uint8_t)cfg->enemy;
    u.quality = (uint8_t)q;
    u.status = OPFOR_SOLID;
    u.facing = f;
    u.flags &= (uint16_t) ~(OPFOR_UNIT_ACTED | OPFOR_UNIT_OFF_TABLE | OPFOR_UNIT_IN_MELEE);
    fo->units[ui] = u;
    for (int i = 0; i < u.count; i++) {
        figs[i].unit = (uint8_t)ui;
        figs[i].flags &= (uint16_t)~OPFOR_FIG_ACTED;
        fo->figures[fo->nfigures + i] = figs[i];
    }
    fo->nfigures += u.count;
    fo->nunits++;
    ps->origin[ui] = OPFOR_PATROL_FROM_SPOTTING;
    ps->tmpl[ui] = out->tmpl < 0 ? OPFOR_PATROL_NONE : (uint8_t)out->tmpl;
    ps->fate[ui] = OPFOR_PATROL_FATE_NONE;
    out->unit = ui;
    /* Generals ride in just behind the unit they came with. */
    opfor_pt_t centre = pl->point;
    opfor_unit_centre(&fo->units[ui], fo->figures, &centre);
    for (int k = 0; k < ngen; k++) {
        opfor_pt_t at = opfor_vadd(centre, opfor_vscale(f, -(4.0f + 2.0f * (float)k)));
        out->generals[out->ngenerals++] = add_general(cfg, ps, fo, at, f);
    }
    return 0;
}

int opfor_patrol_resolve_spot(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                              opfor_patrol_forces_t *fo, const opfor_patrol_spot_t *sp,
                              opfor_rng_t *rng, opfor_patrol_placement_t *pl,
                              opfor_patrol_spawn_t *sw) {
    opfor_patrol_placement_t lpl;
    opfor_patrol_spawn_t lsw;
    if (!pl)
        pl = &lpl;
    if (!sw)
        sw = &lsw;
    memset(sw, 0, sizeof *sw);
    sw->unit = sw->tmpl = -1;
    if (!cfg || !ps || !fo || !sp || !rng)
        return OPFOR_EINVAL;
    ps->spottings++;
    ps->area_at_spot = opfor_patrol_area(cfg, ps);
    /* Mounted units, guns and wagons cannot stand in buildings. */
    int mounted = sp->type != OPFOR_PT_INFANTRY;
    int rc = opfor_patrol_place(cfg, ps, fo, sp->direction, (float)sp->rolled, mounted, pl);
    if (rc != 0)
        return rc;
    if (!pl->placed) {
        ps->refused++;
        return 0;
    }
    rc = opfor_patrol_spawn_unit(cfg, ps, fo, sp, pl, rng, sw);
    if (rc != 0) {
        ps->unfilled++;
        return rc;
    }
    ps->placed++;
    return 0;
}
