/* rulesets/viktoria/engine_blast.c — area weapons (Viktoria! IX): machinegun arcs and the
 * tests every figure inside them makes, field guns (two crew, firing over troops at 6 in or
 * more, deviation, 3 in blast), off-board support fire (a signaller, 2D6, registration,
 * communications failure, 6 in blast for heavy guns) and thrown bombs (2 in blast).
 *
 * Every figure an arc or blast touches tests, friend or foe, with the calculator's
 * test_vs_mg / test_vs_blast roll for its own class, cover, range and state; guns, MGs and
 * wagons test as transport. Deviation uses the calculator's dice and its D8 direction table.
 * An MG burst first drops, by two dot products, the figures that stand clearly outside its
 * wedge (wedge_misses), before the exact arc test; a figure whose centre is inside the arc is
 * counted by core's own arithmetic set up once a burst (arcin_contains), and only the others
 * go to opfor_arc_touches_circle.
 */
#include <string.h>

#include "engine_int.h"

/* The unit helpers below test the rare property (a weapon, a skill) before life: the same
 * answers, with less work per figure. */

int vk_mg_figure(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int best = -1;
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if ((st->figures[i].weapons & OPFOR_W_MG) && vk_alive(st, i)) {
            if (st->figures[i].flags & OPFOR_FIG_EQUIPMENT)
                return i;
            if (best < 0)
                best = i;
        }
    return best;
}

int vk_gun_figure(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if ((st->figures[i].weapons & OPFOR_W_FIELD_GUN) && vk_alive(st, i))
            return i;
    return -1;
}

/* Counts u's living crew into *n and the unwounded among them into *uw: the persons marked as
 * crew, or every person when no one is. With stop set it returns 1 as soon as two crew are
 * found, one of them unwounded unless need_uw is 0 (*n, *uw then unfinished); else 0. */
static inline int crew_scan(const opfor_vk_state_t *st, int u, int stop, int need_uw, int *n,
                            int *uw) {
    const opfor_unit_t *un = &st->units[u];
    int c = 0, cuw = 0, persons = 0, puw = 0;
    for (int i = un->first, e = un->first + un->count; i < e; i++) {
        if (!vk_alive(st, i) || !vk_is_person(&st->figures[i]))
            continue;
        int w = (st->figures[i].flags & OPFOR_FIG_WOUNDED) != 0;
        persons++;
        puw += !w;
        if (st->figures[i].skills & OPFOR_S_CREW) {
            c++;
            cuw += !w;
            if (stop && c >= 2 && (cuw > 0 || !need_uw))
                return 1;
        }
    }
    if (c == 0) { /* no one marked as crew: everyone serves the piece */
        c = persons;
        cuw = puw;
    }
    *n = c;
    *uw = cuw;
    return 0;
}

int vk_crew(const opfor_vk_state_t *st, int u, int *unwounded) {
    int n, uw;
    crew_scan(st, u, 0, 0, &n, &uw);
    if (unwounded)
        *unwounded = uw;
    return n;
}

int vk_can_fire_mg(const opfor_vk_state_t *st, int u, int arc) {
    if (arc != OPFOR_ARC_45 && arc != OPFOR_ARC_90 && arc != OPFOR_ARC_DOUBLE_45)
        return 0;
    if (vk_in_melee(st, u) || vk_mg_figure(st, u) < 0)
        return 0;
    /* two crew, one of them unwounded when the arc needs it, settle every test below */
    int need_uw = arc != OPFOR_ARC_45;
    int n, uw;
    if (crew_scan(st, u, 1, need_uw, &n, &uw))
        return 1;
    const opfor_unit_t *un = &st->units[u];
    if (n == 0)
        return 0;
    if (n == 1 && !(un->flags & OPFOR_UNIT_LOADED))
        return 0; /* a lone gunner reloads after a wide or double burst (IX) */
    if (uw == 0 && need_uw)
        return 0; /* all crew wounded: a single 45-degree arc only (IX) */
    return 1;
}

/* Whether hard terrain (a hill, a building, hard cover) hides figure g from point p: MG
 * bullets pass through foliage and hedges but not through earth and masonry (IX). */
static int concealed(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_pt_t p, int g) {
    opfor_los_t los;
    const opfor_figure_t *f = &st->figures[g];
    if (vk_terrain_los(ctx, p, 0.5f, f->pos, vk_radius(f), &los))
        return 0;
    if (los.blocker < 0)
        return 0; /* only foliage in the way */
    const opfor_terrain_feature_t *ft = &ctx->sc.table.features[los.blocker];
    return ft->kind == OPFOR_TK_HILL || ft->kind == OPFOR_TK_BUILDING ||
           ft->cover >= OPFOR_COVER_HARD;
}

/* A cheap, sure rejection before opfor_arc_touches_circle: every circle that function finds
 * touching lies within r of the arc's wedge (the wedge itself, its apex or its two edge rays),
 * and the wedge (half-angle 90 degrees at most) is the meet of the half-planes inside its two
 * edge lines. A circle whose centre stands more than r + 0.05 in outside either edge line
 * cannot touch: the margin is far above the rounding of the dot products on any table. */
typedef struct vk_wedge {
    int on;             /* 0: no rejection (a zero facing or an unknown arc) */
    opfor_vec_t nl, nr; /* outward normals of the left and right edges, |facing| long */
    float flen;         /* |facing| */
} vk_wedge_t;

static void wedge_init(vk_wedge_t *w, int arc, opfor_vec_t facing) {
    memset(w, 0, sizeof *w);
    float cs, sn;
    if (!opfor_arc_half(arc, &cs, &sn))
        return; /* off */
    w->flen = opfor_vlen(facing);
    w->on = w->flen > 0.0f;
    /* left edge: facing turned counter-clockwise, its outward normal a further quarter turn;
       right edge: the mirror image */
    opfor_vec_t l = opfor_vrot(facing, cs, sn), r = opfor_vrot(facing, cs, -sn);
    w->nl = opfor_vperp(l);
    w->nr = opfor_pt(r.y, -r.x);
}

/* opfor_arc_contains (core/geom.c) with its per-burst terms worked out once: the same float
 * operations in the same order, so the same answer. A centre inside the arc is all that
 * opfor_arc_touches_circle asks first (it returns that count at once), so the burst calls it
 * only for the figures whose centre is outside. */
typedef struct vk_arcin {
    int count;          /* 2 for a double arc, else 1; 0: an unknown arc or a zero facing */
    opfor_vec_t facing; /* as given */
    float c2f2;         /* the squared cosine of the half-angle times |facing|^2 */
} vk_arcin_t;

static void arcin_init(vk_arcin_t *a, int arc, opfor_vec_t facing) {
    float f2 = opfor_vlen2(facing);
    a->facing = facing;
    a->count = 0;
    a->c2f2 = 0.0f;
    if (!(f2 > 0.0f) || (unsigned)arc >= OPFOR_ARC_COUNT)
        return;
    float c2 = arc == OPFOR_ARC_45 || arc == OPFOR_ARC_DOUBLE_45 ? OPFOR_COS2_22_5
               : arc == OPFOR_ARC_90                             ? OPFOR_COS2_45
                                                                 : 0.0f;
    a->count = arc == OPFOR_ARC_DOUBLE_45 ? 2 : 1;
    a->c2f2 = c2 * f2;
}

static int arcin_contains(const vk_arcin_t *a, opfor_pt_t o, opfor_pt_t p) {
    if (!a->count)
        return 0;
    opfor_vec_t d = opfor_vsub(p, o);
    float d2 = opfor_vlen2(d);
    if (d2 == 0.0f)
        return a->count;
    float dt = opfor_vdot(a->facing, d);
    if (dt < 0.0f)
        return 0;
    return dt * dt >= a->c2f2 * d2 ? a->count : 0;
}

/* 1 when the circle (c, r) surely does not touch the arc from o. */
static int wedge_misses(const vk_wedge_t *w, opfor_pt_t o, opfor_pt_t c, float r) {
    if (!w->on)
        return 0;
    opfor_vec_t d = opfor_vsub(c, o);
    float lim = (r + 0.05f) * w->flen;
    return opfor_vdot(d, w->nl) > lim || opfor_vdot(d, w->nr) > lim;
}

/* Where unit u's machinegun fires an arc aimed at aim: vk_fire_mg and vk_mg_count aim through
 * it, so an order's count of tests is the engine's by construction. */
typedef struct vk_mg_aim {
    int u, arc;         /* the firing unit and its arc (opfor_arc_t) */
    opfor_pt_t o;       /* the machinegun figure's position */
    opfor_vec_t facing; /* towards aim (the unit's facing when aim is o), not normalised */
    vk_wedge_t wedge;   /* quick rejection */
    vk_arcin_t arcin;   /* quick acceptance */
} vk_mg_aim_t;

/* Aims unit u's machinegun: its figure, or -1 when the unit has none (a left unset). */
static int mg_aim(const opfor_vk_state_t *st, int u, int arc, opfor_pt_t aim, vk_mg_aim_t *a) {
    int mg = vk_mg_figure(st, u);
    if (mg < 0)
        return -1;
    a->u = u;
    a->arc = arc;
    a->o = st->figures[mg].pos;
    a->facing = opfor_vsub(aim, a->o);
    if (a->facing.x == 0.0f && a->facing.y == 0.0f)
        a->facing = st->units[u].facing;
    wedge_init(&a->wedge, arc, a->facing);
    arcin_init(&a->arcin, arc, a->facing);
    return mg;
}

/* How many times figure g tests against the aimed arc a: 0 unless it is alive, of a unit other
 * than the firer's still on the table, in the arc and not concealed; 2 for a figure in both
 * arcs of a double 45. */
static int mg_times(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, const vk_mg_aim_t *a,
                    int g) {
    if (!vk_alive(st, g) || st->figures[g].unit == a->u || st->ux[st->figures[g].unit].removed)
        return 0;
    const opfor_figure_t *f = &st->figures[g];
    if (wedge_misses(&a->wedge, a->o, f->pos, vk_radius(f)))
        return 0;
    int times = arcin_contains(&a->arcin, a->o, f->pos);
    if (!times)
        times =
            opfor_arc_touches_circle((opfor_arc_t)a->arc, a->o, a->facing, f->pos, vk_radius(f));
    if (times <= 0 || concealed(ctx, st, a->o, g))
        return 0;
    return times;
}

void vk_fire_mg(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int arc, opfor_pt_t aim,
                opfor_vk_events_t *ev) {
    vk_mg_aim_t a;
    int mg = mg_aim(st, u, arc, aim, &a);
    if (mg < 0)
        return;
    opfor_pt_t o = a.o;
    opfor_vec_t fn = opfor_vnorm(a.facing);
    if (fn.x != 0.0f || fn.y != 0.0f)
        st->units[u].facing = fn; /* field mounts turn freely as part of firing (IX) */
    int moving_platform =
        (st->figures[mg].flags & OPFOR_FIG_MOVED) != 0 || vk_fire_aloft(ctx, st, u);
    int tests = 0, wounded = 0, killed = 0;
    uint32_t craft = 0; /* balloons and dirigibles with a figure in the arc (XII.D) */
    float cgap[OPFOR_MAX_UNITS];
    for (int g = 0; g < st->nfigures; g++) {
        int times = mg_times(ctx, st, &a, g);
        if (!times)
            continue;
        const opfor_figure_t *f = &st->figures[g];
        float gap = opfor_dist(o, f->pos) - vk_radius(&st->figures[mg]) - vk_radius(f);
        /* one bracket more for each altitude level between them (XII.D) */
        int br = opfor_viktoria_bracket_aloft(&ctx->model, OPFOR_VK_R_MG, gap < 0 ? 0 : gap,
                                              vk_levels(st, u, f->unit));
        if (br < 0)
            br = OPFOR_VK_LONG;
        if (vk_craft(ctx, st, f->unit) != VK_CRAFT_NONE && st->ux[f->unit].damage < 2) {
            uint32_t bit = 1u << f->unit;
            if (!(craft & bit) || gap < cgap[f->unit])
                cgap[f->unit] = gap;
            craft |= bit;
        }
        int cl = vk_target_class(ctx, st, g), cov = vk_cover(ctx, st, g, o);
        for (int k = 0; k < times && (st->figures[g].flags & OPFOR_FIG_ALIVE); k++) {
            int am = (f->flags & OPFOR_FIG_MOUNTED) != 0, aw = (f->flags & OPFOR_FIG_WOUNDED) != 0;
            tests++;
            if (vk_roll(st, &ctx->tab->mg_pass[cl][cov][br][am][aw][moving_platform], NULL))
                continue;
            int e = vk_effect_roll(
                st, &ctx->tab->effect[OPFOR_VK_EFFECT_MG][aw][vk_class(f) == OPFOR_VK_TRANSPORT],
                NULL);
            if (e > 0)
                vk_harm(ctx, st, g, e, 0, st->units[u].side, NULL);
            wounded += e == 1;
            killed += e == 2;
        }
    }
    /* the envelope of each balloon in the arc tests once, as a Civilian (or its hardened
       shell's quality), Wounded once damaged, without cover: a wound is damage, a kill
       destroys it (XII.D) */
    for (int c = 0; c < st->nunits && craft; c++) {
        if (!(craft & (1u << c)) || st->ux[c].damage >= 2)
            continue;
        int br = opfor_viktoria_bracket_aloft(&ctx->model, OPFOR_VK_R_MG, cgap[c] < 0 ? 0 : cgap[c],
                                              vk_levels(st, u, c));
        int dw = st->ux[c].damage > 0;
        tests++;
        if (vk_roll(st,
                    &ctx->tab->mg_pass[vk_envelope_class(ctx, c)][OPFOR_COVER_NONE]
                                      [br < 0 ? OPFOR_VK_LONG : br][0][dw][moving_platform],
                    NULL))
            continue;
        int e = vk_effect_roll(st, &ctx->tab->effect[OPFOR_VK_EFFECT_MG][dw][0], NULL);
        vk_craft_damage(ctx, st, c, e, ev);
    }
    int uw;
    if (vk_crew(st, u, &uw) == 1 && arc != OPFOR_ARC_45)
        st->units[u].flags &= (uint16_t)~OPFOR_UNIT_LOADED;
    static const char *const ARC[] = {"45-degree", "90-degree", "double 45-degree", "180-degree"};
    VK_EV(ev, "  %s fires a %s arc: %d test%s, %d wounded, %d killed", st->units[u].name,
          ARC[arc & 3], tests, tests == 1 ? "" : "s", wounded, killed);
}

int vk_mg_count(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int arc,
                opfor_pt_t aim) {
    return vk_mg_count_units(ctx, st, u, arc, aim, -1, NULL);
}

int vk_mg_count_units(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int arc,
                      opfor_pt_t aim, int side, int *per_unit) {
    /* vk_fire_mg's tests, read without rolling (no figure falls) */
    if (per_unit)
        memset(per_unit, 0, sizeof(int) * (size_t)st->nunits);
    vk_mg_aim_t a;
    if (mg_aim(st, u, arc, aim, &a) < 0)
        return 0;
    int tests = 0;
    uint32_t craft = 0; /* and each balloon's envelope once (XII.D) */
    for (int g = 0; g < st->nfigures; g++) {
        int c = st->figures[g].unit;
        if (side >= 0 && st->units[c].side != side)
            continue;
        int times = mg_times(ctx, st, &a, g);
        if (!times)
            continue;
        tests += times;
        if (vk_craft(ctx, st, c) != VK_CRAFT_NONE && st->ux[c].damage < 2 && !(craft & (1u << c))) {
            craft |= 1u << c;
            times++;
            tests++;
        }
        if (per_unit)
            per_unit[c] += times;
    }
    return tests;
}

void vk_blast(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_pt_t p, float radius, int k,
              int by_side, opfor_vk_events_t *ev) {
    int tests = 0, wounded = 0, killed = 0;
    uint32_t craft = 0; /* balloons on the ground with a figure in the blast (XII.D) */
    for (int g = 0; g < st->nfigures; g++) {
        if (!vk_alive(st, g) || st->ux[st->figures[g].unit].removed)
            continue;
        /* a burst on the ground does not reach a craft in the air (XII.D) */
        if (st->ux[st->figures[g].unit].altitude > 0)
            continue;
        const opfor_figure_t *f = &st->figures[g];
        float lim = radius + vk_radius(f);
        if (opfor_dist2(p, f->pos) > lim * lim)
            continue;
        if (vk_craft(ctx, st, f->unit) != VK_CRAFT_NONE)
            craft |= 1u << f->unit;
        int cl = vk_target_class(ctx, st, g);
        /* armour with the terrain's cover added, as against fire (XII.A) */
        int cov = vk_cover(ctx, st, g, p);
        int am = (f->flags & OPFOR_FIG_MOUNTED) != 0, aw = (f->flags & OPFOR_FIG_WOUNDED) != 0;
        tests++;
        if (vk_roll(st, &ctx->tab->blast_pass[cl][cov][am][aw][k], NULL))
            continue;
        int e = vk_effect_roll(
            st, &ctx->tab->effect[OPFOR_VK_EFFECT_BLAST][aw][vk_class(f) == OPFOR_VK_TRANSPORT],
            NULL);
        if (e > 0)
            vk_harm(ctx, st, g, e, 0, by_side, NULL);
        wounded += e == 1;
        killed += e == 2;
    }
    /* the envelope of a balloon on the ground in the blast tests once, as when fired on: a
       Civilian (or its shell's quality), Wounded once damaged; a wound is damage (XII.D) */
    for (int c = 0; c < st->nunits && craft; c++) {
        if (!(craft & (1u << c)) || st->ux[c].damage >= 2)
            continue;
        int dw = st->ux[c].damage > 0;
        tests++;
        if (vk_roll(st,
                    &ctx->tab->blast_pass[vk_envelope_class(ctx, c)][OPFOR_COVER_NONE][0][dw][k],
                    NULL))
            continue;
        vk_craft_damage(ctx, st, c,
                        vk_effect_roll(st, &ctx->tab->effect[OPFOR_VK_EFFECT_BLAST][dw][0], NULL),
                        ev);
    }
    VK_EV(ev, "    blast of %.0f in at (%.1f, %.1f): %d test%s, %d wounded, %d killed", radius, p.x,
          p.y, tests, tests == 1 ? "" : "s", wounded, killed);
}

/* A walker whose guns its own crew serves (XII.E, under the XII options). */
static int walker_gun(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return ctx->opt.specials && st->units[u].type == OPFOR_UT_WALKER;
}

int vk_gun_shots(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return walker_gun(ctx, st, u) ? 3 : 1;
}

int vk_can_fire_gun(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    if (vk_in_melee(st, u) || vk_gun_figure(st, u) < 0)
        return 0;
    if (walker_gun(ctx, st, u))
        return 1; /* an integral crew, no loading: three shots every turn (XII.E) */
    if (st->units[u].flags & OPFOR_UNIT_LIMBERED)
        return 0; /* limbered guns neither load nor fire (VIII) */
    int crew = vk_crew(st, u, NULL);
    if (crew >= 2)
        return 1;
    return crew == 1 && (st->units[u].flags & OPFOR_UNIT_LOADED);
}

int vk_gun_sees(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, opfor_pt_t p) {
    /* IX: the intended fall of shot is in sight of the gun's crew: of a living person of the
       unit, or of the walker itself, whose crew is inside (XII.E) */
    int walker = walker_gun(ctx, st, u);
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first, e = un->first + un->count; i < e; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!vk_alive(st, i) || (!walker && !vk_is_person(f)))
            continue;
        if (vk_terrain_los(ctx, f->pos, vk_radius(f), p, 0.0f, NULL))
            return 1;
    }
    return 0;
}

void vk_fire_gun(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, const opfor_pt_t *aims,
                 int naims, opfor_vk_events_t *ev) {
    int gun = vk_gun_figure(st, u);
    if (gun < 0 || naims < 1)
        return;
    opfor_pt_t o = st->figures[gun].pos;
    /* One shell, or a walker's three, each resolved as artillery fire on its own at its own
       aim point, the last aim taking the shots left (XII.E: "in any direction"). */
    int shots = vk_gun_shots(ctx, st, u);
    for (int s = 0; s < shots && vk_gun_figure(st, u) >= 0; s++) {
        opfor_pt_t aim = aims[s < naims ? s : naims - 1];
        opfor_vec_t dir = opfor_vnorm(opfor_vsub(aim, o));
        if (dir.x != 0.0f || dir.y != 0.0f)
            st->units[u].facing = dir;
        float dist = opfor_dist(o, aim);
        /* Under 6 in the shell cannot clear troops in the way: it bursts on the first base. */
        if (dist < VK_OVERHEAD) {
            float best = dist;
            for (int g = 0; g < st->nfigures; g++) {
                if (!vk_alive(st, g) || st->figures[g].unit == u)
                    continue;
                float t0;
                if (opfor_seg_circle(o, aim, st->figures[g].pos, vk_radius(&st->figures[g]), &t0,
                                     NULL) &&
                    t0 * dist < best) {
                    best = t0 * dist;
                    aim = st->figures[g].pos;
                }
            }
            dist = opfor_dist(o, aim);
        }
        /* from a craft in the air, one bracket further for each level of its altitude (XII.D) */
        int br = opfor_viktoria_bracket_aloft(&ctx->model, OPFOR_VK_R_ARTILLERY, dist,
                                              st->ux[u].altitude);
        if (br < 0)
            br = OPFOR_VK_LONG;
        opfor_pt_t hit = aim;
        if (!vk_roll(st, &ctx->tab->art_on[br], NULL)) {
            float moved;
            hit = vk_deviate(st, o, aim, &ctx->tab->art_dev[br], &moved);
            VK_EV(ev, "  %s's shell deviates %.0f in", st->units[u].name, moved);
        } else {
            VK_EV(ev, "  %s's shell lands on target", st->units[u].name);
        }
        if (vk_crew(st, u, NULL) < 2)
            st->units[u].flags &= (uint16_t)~OPFOR_UNIT_LOADED;
        vk_blast(ctx, st, hit, ctx->tab->shell_radius, OPFOR_VK_BLAST_SHELL, st->units[u].side, ev);
    }
}

int vk_can_call_support(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    if (vk_in_melee(st, u))
        return 0;
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if ((st->figures[i].skills & OPFOR_S_SIGNALLER) && vk_alive(st, i))
            return 1;
    return 0;
}

/* The call is made by the team the scenario sets (IX: "a team of two figures (specify by
 * scenario)"; the `support:` block's team, 1 by default): so many living signallers. */
int vk_support_team_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    if (vk_in_melee(st, u))
        return 0;
    int need = ctx->support_team[un->side], n = 0;
    for (int i = un->first, e = un->first + un->count; i < e && n < need; i++)
        n += (st->figures[i].skills & OPFOR_S_SIGNALLER) && vk_alive(st, i);
    return n > 0 && n >= need;
}

void vk_call_support(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_pt_t aim,
                     opfor_vk_events_t *ev) {
    int s = st->units[u].side;
    opfor_vk_reg_t *rg = &st->reg[s];
    int heavy = ctx->opt.heavy_support[s] ? 1 : 0;
    uint8_t now = (uint8_t)st->turn, prev = (uint8_t)(st->turn - 1);
    int same = rg->turns > 0 && (rg->last == prev || rg->last == now) &&
               opfor_dist2(rg->point, aim) <= 9.0f;
    int reg = same ? rg->turns : 0;
    if (reg > 20)
        reg = 20;
    const vk_roll_t *call = &ctx->tab->support_call[reg][heavy];
    int d = vk_d6(st) + vk_d6(st);
    if (d <= ctx->tab->support_fail) {
        rg->turns = 0;
        rg->last = 0;
        rg->lost = (uint8_t)(st->turn + 1);
        VK_EV(ev, "  %s calls for fire: rolled %d, communications lost", st->units[u].name, d);
        return;
    }
    int arrives =
        call->kind == OPFOR_ROLL_ALWAYS || (call->kind == OPFOR_ROLL_2D6 && d >= call->need);
    if (!same || rg->last != now) {
        rg->point = same ? rg->point : aim;
        rg->turns = (uint8_t)(same ? rg->turns + 1 : 1);
        rg->last = now;
    }
    if (!arrives) {
        VK_EV(ev, "  %s calls for fire: rolled %d (+%d registered), nothing arrives",
              st->units[u].name, d, reg);
        return;
    }
    VK_EV(ev, "  %s calls for fire: rolled %d (+%d registered), %s guns fire", st->units[u].name, d,
          reg, heavy ? "heavy" : "field");
    opfor_pt_t hit = aim;
    if (!vk_roll(st, &ctx->tab->support_on, NULL)) {
        float moved;
        opfor_pt_t from = opfor_vadd(aim, opfor_vscale(ctx->home[s], 100.0f));
        hit = vk_deviate(st, from, aim, &ctx->tab->support_dev, &moved);
        VK_EV(ev, "    the fall of shot deviates %.0f in", moved);
    }
    vk_blast(ctx, st, hit, heavy ? ctx->tab->heavy_radius : ctx->tab->shell_radius,
             heavy ? OPFOR_VK_BLAST_HEAVY : OPFOR_VK_BLAST_SHELL, s, ev);
}

int vk_bombers(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        n += (st->figures[i].weapons & OPFOR_W_BOMBS) && vk_alive(st, i) &&
             vk_is_person(&st->figures[i]) && !(st->figx[i] & OPFOR_VK_FX_CONTROLLED);
    return n;
}

void vk_throw_bombs(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t,
                    opfor_vk_events_t *ev) {
    const opfor_unit_t *un = &st->units[u];
    int thrown = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!vk_alive(st, i) || !vk_is_person(f) || !(f->weapons & OPFOR_W_BOMBS) ||
            (st->figx[i] & OPFOR_VK_FX_CONTROLLED))
            continue;
        if (!vk_unit_active(st, t))
            break;
        float d2;
        int g = vk_nearest_fig(st, t, f->pos, &d2);
        if (g < 0)
            break;
        opfor_pt_t aim = st->figures[g].pos;
        float dist = sqrtf(d2);
        if (dist > VK_BOMB_RANGE) {
            /* thrown the full 6 in toward the target */
            aim = opfor_vadd(f->pos,
                             opfor_vscale(opfor_vnorm(opfor_vsub(aim, f->pos)), VK_BOMB_RANGE));
            dist = VK_BOMB_RANGE;
        }
        int br = opfor_viktoria_bracket_of(&ctx->model, OPFOR_VK_R_BOMB, dist);
        if (br < 0)
            br = OPFOR_VK_LONG;
        opfor_pt_t hit = aim;
        if (!vk_roll(st, &ctx->tab->bomb_on[f->quality][br], NULL))
            hit = vk_deviate(st, f->pos, aim, &ctx->tab->bomb_dev[br], NULL);
        thrown++;
        vk_blast(ctx, st, hit, ctx->tab->bomb_radius, OPFOR_VK_BLAST_BOMB, un->side, ev);
    }
    VK_EV(ev, "  %s throws %d bomb%s at %s", un->name, thrown, thrown == 1 ? "" : "s",
          st->units[t].name);
}
