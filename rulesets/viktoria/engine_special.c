/* rulesets/viktoria/engine_special.c — wounds and the special rules: wounded sent to the rear
 * (IX) and coming back once their wounds are bound, medics binding wounds (VI), mesmerism and
 * breaking it (XII.B), the weather event (XIII) and, when the scenario option is on, flying craft
 * in the wind, walkers that hesitate, and the armour of automatons, vehicles and walkers (XII).
 *
 * Chances are the calculator's (heal, hypnotic attack, test versus mesmerism, weather
 * event). The wind damage to flying craft and the crash roll for passengers are fixed die
 * scores printed in XII.D itself, used as written.
 */
#include <math.h>
#include <string.h>

#include "engine_int.h"

/* ---------------------------------------------------------------- wounded (IX) */

int vk_wounded_count(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0;
    /* alive, not at the rear, a person and wounded: one mask test */
    const unsigned mask =
        OPFOR_FIG_ALIVE | OPFOR_FIG_REAR | OPFOR_FIG_EQUIPMENT | OPFOR_FIG_WOUNDED;
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        n += (st->figures[i].flags & mask) == (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED);
    return n;
}

/* Whether figure f may be ordered out of line: a living wounded person on the table who is
 * not a leader or general (leaders stay with their men, VII). */
static int may_go_to_rear(const opfor_vk_state_t *st, int f) {
    const opfor_figure_t *g = &st->figures[f];
    return vk_alive(st, f) && vk_is_person(g) && (g->flags & OPFOR_FIG_WOUNDED) &&
           !(g->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL));
}

int vk_rear_sendable(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0, present = 0;
    for (int i = un->first, e = un->first + un->count; i < e; i++) {
        present += vk_alive(st, i);
        n += may_go_to_rear(st, i);
    }
    if (present <= 1)
        return 0; /* the unit keeps at least one figure on the table */
    return n < present - 1 ? n : present - 1;
}

/* Wounded men ordered out of line go to the rear and stop counting as losses: the unit's
 * strength drops by one for each of them (IX, XI). Leaders stay. They go during their unit's
 * action (IX): the caller lets the unit act on. */
void vk_to_rear(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev) {
    (void)ctx;
    opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        opfor_figure_t *f = &st->figures[i];
        if (!may_go_to_rear(st, i))
            continue;
        if (opfor_vk_unit_present(st, u) <= 1)
            break;
        f->flags |= OPFOR_FIG_REAR;
        if (un->strength > 1)
            un->strength--;
        n++;
    }
    VK_EV(ev, "  %s sends %d wounded to the rear", un->name, n);
}

/* A figure at the rear (alive, sent out of line) whose wounds have been bound. */
static int bound_at_rear(const opfor_vk_state_t *st, int f) {
    return (st->figures[f].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_REAR | OPFOR_FIG_WOUNDED)) ==
           (OPFOR_FIG_ALIVE | OPFOR_FIG_REAR);
}

int vk_rear_bound(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        n += bound_at_rear(st, i);
    return n;
}

/* The eight directions a returning man is tried in, round each of his fellows. */
static const float RING[8][2] = {{0, -1}, {0.7071f, -0.7071f}, {1, 0},  {0.7071f, 0.7071f},
                                 {0, 1},  {-0.7071f, 0.7071f}, {-1, 0}, {-0.7071f, -0.7071f}};

/* Bound wounded at the rear rejoin unit u (IX: "reversing the process"): each takes the first
 * free spot beside a fellow (fellows in index order, directions from the unit's front round),
 * the unit's strength rises by one for each, and they act with the unit. A man with no free spot
 * beside the unit stays at the rear. Returns how many came back. */
int vk_rear_return(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev) {
    opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!bound_at_rear(st, i))
            continue;
        opfor_figure_t *f = &st->figures[i];
        f->flags &= (uint16_t) ~(OPFOR_FIG_PRONE | OPFOR_FIG_RUNNING | OPFOR_FIG_MOVED);
        float r = vk_radius(f);
        int placed = 0;
        for (int j = un->first; j < un->first + un->count && !placed; j++) {
            if (j == i || !vk_alive(st, j) || !vk_is_person(&st->figures[j]))
                continue;
            float d = r + vk_radius(&st->figures[j]) + 0.1f;
            for (int k = 0; k < 8 && !placed; k++) {
                opfor_pt_t p = opfor_pt(st->figures[j].pos.x + RING[k][0] * d,
                                        st->figures[j].pos.y + RING[k][1] * d);
                if (vk_spot_blocked(ctx, st, i, p, r, (f->flags & OPFOR_FIG_MOUNTED) != 0))
                    continue;
                f->pos = p;
                placed = 1;
            }
        }
        if (!placed)
            continue;
        f->flags &= (uint16_t)~OPFOR_FIG_REAR;
        if (un->strength < un->count)
            un->strength++;
        n++;
    }
    VK_EV(ev, "  %d bound wounded rejoin %s from the rear", n, un->name);
    return n;
}

/* ---------------------------------------------------------------- medics (VI) */

static int touches_enemy(const opfor_vk_state_t *st, int f) {
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

/* The wounded friend nearest medic m within reach, not touching an enemy; -1. */
static int patient_for(const opfor_vk_state_t *st, int m) {
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
        if (touches_enemy(st, j))
            continue;
        bd = gap;
        best = j;
    }
    return best;
}

/* Distance from p to side's own table edge, where the wounded sent out of line wait (IX). */
static float own_edge_dist(const opfor_vk_ctx_t *ctx, int side, opfor_pt_t p) {
    opfor_vec_t h = ctx->home[side];
    if (h.y < -0.5f)
        return p.y;
    if (h.y > 0.5f)
        return ctx->sc.table.depth - p.y;
    if (h.x < -0.5f)
        return p.x;
    return ctx->sc.table.width - p.x;
}

/* A wounded man at the rear that medic m may tend: the medic within VK_HEAL_REACH of its
 * side's own table edge (the rear is behind it), the man of a unit of the medic's side still
 * in play; the first by index; -1 when none. */
static int rear_patient_for(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int m) {
    const opfor_figure_t *mf = &st->figures[m];
    int side = st->units[mf->unit].side;
    if (own_edge_dist(ctx, side, mf->pos) - vk_radius(mf) > VK_HEAL_REACH)
        return -1;
    for (int j = 0; j < st->nfigures; j++) {
        const opfor_figure_t *f = &st->figures[j];
        if ((f->flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_REAR | OPFOR_FIG_WOUNDED)) ==
                (OPFOR_FIG_ALIVE | OPFOR_FIG_REAR | OPFOR_FIG_WOUNDED) &&
            st->units[f->unit].side == side && vk_unit_active(st, f->unit))
            return j;
    }
    return -1;
}

static int medic_ready(const opfor_vk_state_t *st, int i) {
    return (st->figures[i].skills & OPFOR_S_MEDIC) && vk_alive(st, i) &&
           !(st->figx[i] & OPFOR_VK_FX_CONTROLLED);
}

int vk_can_heal(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if (medic_ready(st, i) && patient_for(st, i) >= 0)
            return 1;
    return 0;
}

int vk_can_heal_rear(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        if (medic_ready(st, i) && rear_patient_for(ctx, st, i) >= 0)
            return 1;
    return 0;
}

/* Each medic of u tends one man (VI): the nearest wounded friend within 6 in, moving up to 6 in
 * (base movement, terrain counting) into contact with him; only a medic who reaches contact
 * rolls. With no one in reach on the table and rear_ok (not out of command: VII allows only the
 * wounded within 6 in), a medic at its own table edge tends a man sent to the rear (IX), who
 * may then rejoin his unit. Repeat attempts on the same man are allowed. */
void vk_heal(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int rear_ok,
             opfor_vk_events_t *ev) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!medic_ready(st, i))
            continue;
        int p = patient_for(st, i), rear = 0;
        if (p < 0 && rear_ok) {
            p = rear_patient_for(ctx, st, i);
            rear = 1;
        }
        if (p < 0)
            continue;
        if (!rear) {
            /* up to 6 in into contact with the patient; stopped short, no attempt (VI) */
            vk_move_figure(ctx, st, i, st->figures[p].pos, VK_HEAL_REACH, st->figures[p].unit);
            const opfor_figure_t *mf = &st->figures[i], *pf = &st->figures[p];
            float gap = opfor_dist(mf->pos, pf->pos) - vk_radius(mf) - vk_radius(pf);
            if (gap > VK_HEAL_TOUCH) {
                VK_EV(ev, "  a medic of %s cannot reach a wounded man of %s", un->name,
                      st->units[pf->unit].name);
                continue;
            }
        }
        int ok = vk_roll(st, &ctx->tab->heal[st->figures[i].quality], NULL);
        if (ok) {
            st->figures[p].flags &= (uint16_t)~OPFOR_FIG_WOUNDED;
            st->figures[p].flags |= OPFOR_FIG_BOUND;
        }
        VK_EV(ev, "  a medic of %s tends a wounded man of %s%s: %s", un->name,
              st->units[st->figures[p].unit].name, rear ? " at the rear" : "",
              ok ? "wound bound" : "no luck");
    }
}

/* ---------------------------------------------------------------- mesmerism (XII.B) */

int vk_mesmerists(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first, e = un->first + un->count; i < e; i++)
        n += (st->figures[i].skills & OPFOR_S_MESMERIST) && vk_alive(st, i) &&
             !(st->figx[i] & OPFOR_VK_FX_CONTROLLED);
    return n;
}

void vk_mesmerize(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int g,
                  opfor_vk_events_t *ev) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i) || !(st->figures[i].skills & OPFOR_S_MESMERIST) ||
            (st->figx[i] & OPFOR_VK_FX_CONTROLLED))
            continue;
        if (!vk_alive(st, g) || (st->figures[g].flags & OPFOR_FIG_MESMERIZED))
            break;
        const opfor_figure_t *m = &st->figures[i], *t = &st->figures[g];
        float gap = opfor_dist(m->pos, t->pos) - vk_radius(m) - vk_radius(t);
        if (gap < 0.0f)
            gap = 0.0f;
        int br = opfor_viktoria_bracket_of(&ctx->model, OPFOR_VK_R_MESMERISM, gap);
        if (br < 0 || !vk_los(ctx, st, i, g))
            continue;
        int ok = vk_roll(st, &ctx->tab->mesmerise[m->quality][t->quality][br], NULL);
        if (ok)
            st->figures[g].flags |= OPFOR_FIG_MESMERIZED;
        VK_EV(ev, "  %s's mesmerist fixes a figure of %s with a stare: %s", un->name,
              st->units[t->unit].name, ok ? "mesmerised" : "resisted");
    }
}

int vk_mesmer_tests(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev) {
    const opfor_unit_t *un = &st->units[u];
    int held = 0;
    /* the bounds are read once: the byte stores below could alias them for the compiler */
    for (int i = un->first, e = un->first + un->count; i < e; i++) {
        st->figx[i] &= (uint8_t)~OPFOR_VK_FX_CONTROLLED;
        if (!(st->figures[i].flags & OPFOR_FIG_MESMERIZED) || !vk_alive(st, i))
            continue;
        if (vk_roll(st, &ctx->tab->resist[st->figures[i].quality], NULL)) {
            st->figures[i].flags &= (uint16_t)~OPFOR_FIG_MESMERIZED;
            VK_EV(ev, "  a figure of %s breaks the spell", un->name);
        } else {
            st->figx[i] |= OPFOR_VK_FX_CONTROLLED;
            held++;
            VK_EV(ev, "  a figure of %s remains mesmerised", un->name);
        }
    }
    return held;
}

/* ---------------------------------------------------------------- weather (XIII) */

void vk_weather_event(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    int lv = st->level < 1 ? 1 : st->level > 5 ? 5 : st->level;
    int d = vk_d6(st);
    int nl = ctx->tab->weather_level[lv - 1][d];
    int w = vk_d6(st) + vk_d6(st);
    int nw = ctx->tab->weather_wind[st->wind & 7][w];
    VK_EV(ev, "  weather event: level %d -> %d (rolled %d), wind %s -> %s (rolled %d)", lv, nl, d,
          opfor_vocab_name(opfor_compass_names, st->wind & 7),
          opfor_vocab_name(opfor_compass_names, nw), w);
    st->level = (uint8_t)(nl < 1 ? 1 : nl > 5 ? 5 : nl);
    st->wind = (uint8_t)(nw & 7);
}

/* ---------------------------------------------------------------- machines (XII) */

int vk_armour(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    if (!ctx->opt.specials)
        return 0;
    int type = st->units[u].type;
    /* the scenario's `armour:` for this machine (XII.A: set per machine), else by its type */
    if (u < ctx->sc.nunits && ctx->sc.machine[u].armour &&
        (type == OPFOR_UT_AUTOMATON || type == OPFOR_UT_VEHICLE || type == OPFOR_UT_WALKER))
        return ctx->sc.machine[u].armour - 1;
    switch (type) {
    case OPFOR_UT_AUTOMATON:
        return OPFOR_COVER_SOFT;
    case OPFOR_UT_VEHICLE:
        return OPFOR_COVER_HARD;
    case OPFOR_UT_WALKER:
        return OPFOR_COVER_FORT; /* transport in fortifications (XII.E) */
    default: /* passengers are covered by their vehicle's armour (XII.C, engine_vehicle.c) */
        return st->ux[u].aboard ? vk_armour(ctx, st, st->ux[u].aboard - 1) : 0;
    }
}

static int flying(int type) {
    return type == OPFOR_UT_BALLOON || type == OPFOR_UT_DIRIGIBLE || type == OPFOR_UT_AEROPLANE;
}

/* A craft destroyed in the air: each passenger rolls, plus one per level of altitude
 * (XII.D): 1-2 unhurt, 3-5 wounded, 6 or more killed. */
static void crash(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev) {
    const opfor_unit_t *un = &st->units[u];
    int alt = st->ux[u].altitude;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        int r = vk_d6(st) + alt;
        if (st->figures[i].flags & OPFOR_FIG_EQUIPMENT)
            r = 6; /* the craft itself */
        vk_harm(ctx, st, i, r >= 6 ? 2 : r >= 3 ? 1 : 0, 0, -1, NULL);
    }
    st->ux[u].altitude = 0;
    VK_EV(ev, "  %s comes down!", un->name);
}

void vk_craft_damage(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int effect,
                     opfor_vk_events_t *ev) {
    opfor_vk_unitx_t *x = &st->ux[u];
    if (effect <= 0 || x->damage >= 2)
        return;
    /* two damages destroy a balloon (XII.D) */
    if (effect >= 2 || ++x->damage >= 2) {
        x->damage = 2;
        crash(ctx, st, u, ev);
        return;
    }
    /* a damaged balloon loses a level when damaged (and at the start of each later turn:
       vk_specials_turn) (XII.D); dirigibles as balloons, aeroplanes only keep the count */
    if (vk_craft(ctx, st, u) != VK_CRAFT_NONE && x->altitude > 0)
        x->altitude--;
    VK_EV(ev, "  %s is damaged%s", st->units[u].name,
          vk_craft(ctx, st, u) != VK_CRAFT_NONE ? " and sinks a level" : "");
}

/* ---------------------------------------------------------------- fire at a balloon (XII.D) */

/* The walk over u's firers at craft t that both vk_fire_craft and vk_fire_craft_count make:
 * each figure able to fire (as vk_fire_unit's: alive, a person with a firearm, neither playing
 * nor controlled) aims at the envelope over t's nearest living figure, with the firearm that
 * reaches it across the altitude levels; sight is needed only to a craft on the ground. With
 * wr (st itself) each shot is rolled; else nothing is. Returns the shots. */
static int craft_walk(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_state_t *wr,
                      int u, int t, int moving, int *harm) {
    const vk_tabs_t *T = ctx->tab;
    const opfor_unit_t *un = &st->units[u];
    int shots = 0;
    for (int f = un->first, fe = un->first + un->count; f < fe; f++) {
        const opfor_figure_t *fr = &st->figures[f];
        if (st->ux[t].damage >= 2 || !vk_unit_active(st, t))
            break;
        if (!vk_alive(st, f) || !vk_is_person(fr) ||
            !(fr->weapons & (OPFOR_W_PISTOL | OPFOR_W_CARBINE | OPFOR_W_RIFLE)) ||
            (st->figx[f] & (OPFOR_VK_FX_PLAYING | OPFOR_VK_FX_CONTROLLED)))
            continue;
        float d2;
        int g = vk_nearest_fig(st, t, fr->pos, &d2);
        if (g < 0)
            break;
        float gap = sqrtf(d2) - vk_radius(fr) - vk_radius(&st->figures[g]);
        if (gap < 0.0f)
            gap = 0.0f;
        int lv = vk_levels(st, u, t);
        int w = vk_firearm_lv(&ctx->model, fr, gap, lv);
        if (w < 0)
            continue;
        if (st->ux[t].altitude == 0 && !vk_los(ctx, st, f, g))
            continue;
        shots++;
        if (!wr)
            continue;
        int br = opfor_viktoria_bracket_aloft(&ctx->model, (opfor_viktoria_ranged_t)w, gap, lv);
        /* a Civilian target (a dirigible's hardened shell: the scenario's quality), Wounded
           once damaged, no cover: the envelope stands above everything (XII.D) */
        int aq = fr->quality, tc = vk_envelope_class(ctx, t), tw = wr->ux[t].damage > 0;
        int am = (fr->flags & OPFOR_FIG_MOUNTED) != 0,
            ss = (fr->skills & OPFOR_S_SHARPSHOOTER) != 0;
        int aw = (fr->flags & OPFOR_FIG_WOUNDED) != 0;
        const vk_roll_t *hit = &T->fire_hit[vk_fire_idx(w, aq, tc, OPFOR_COVER_NONE, br, am, ss, aw,
                                                        moving ? 1 : 0, tw, 0, VK_POST_NONE)];
        int crit, effect;
        if (!vk_roll_hit(wr, hit, &T->critical, &crit))
            continue;
        if (crit) {
            effect = 2;
        } else {
            /* balloons get their saving throw (XII.D) */
            if (vk_roll(wr, &T->fire_save[w][tc][OPFOR_COVER_NONE][br][tw][0], NULL))
                continue;
            effect = vk_effect_roll(wr, &T->effect[OPFOR_VK_EFFECT_FIREARM][tw][0], NULL);
        }
        if (effect > 0) {
            /* a wound is damage; a kill (a second wound on the Wounded envelope, or a
               critical) destroys it */
            *harm += effect;
            vk_craft_damage(ctx, wr, t, effect, NULL);
        }
    }
    return shots;
}

int vk_can_fire_craft(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t) {
    if (t < 0 || t >= st->nunits || vk_craft(ctx, st, t) == VK_CRAFT_NONE ||
        st->ux[t].damage >= 2 || !vk_fire_target_ok(st, t) ||
        st->units[t].side == st->units[u].side)
        return 0;
    return craft_walk(ctx, st, NULL, u, t, 0, NULL) > 0;
}

int vk_fire_craft(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int moving,
                  opfor_vk_events_t *ev) {
    int harm = 0;
    int shots = craft_walk(ctx, st, st, u, t, moving, &harm);
    VK_EV(ev, "  %s fires%s at the balloon of %s: %d shot%s, %s", st->units[u].name,
          moving ? " on the move" : "", st->units[t].name, shots, shots == 1 ? "" : "s",
          st->ux[t].damage >= 2 ? "it is destroyed"
          : harm                ? "it is damaged"
                                : "no damage");
    return shots;
}

int vk_fire_craft_count(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t) {
    return craft_walk(ctx, st, NULL, u, t, 0, NULL);
}

void vk_craft_drift(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev) {
    const opfor_unit_t *un = &st->units[u];
    int lv = st->level;
    /* calm: no drift; tethered balloons do not move at all (XII.D) */
    if (vk_craft(ctx, st, u) == VK_CRAFT_NONE || st->ux[u].altitude == 0 || lv <= 1 ||
        (u < ctx->sc.nunits && ctx->sc.machine[u].tethered))
        return;
    /* light airs: transport advance on foot; a steady breeze: mounted; high winds twice that,
       a gale three times (XII.D) */
    int base = lv == 2 ? ctx->tab->move_x[VK_MV_ADVANCE][OPFOR_VK_TRANSPORT][0][0][0]
                       : ctx->tab->move_x[VK_MV_ADVANCE][OPFOR_VK_TRANSPORT][1][0][0];
    int mult = lv >= 5 ? 3 : lv == 4 ? 2 : 1;
    float dist = (float)((base + vk_d3(st)) * mult);
    /* the wind blows from st->wind: the craft moves the opposite way */
    opfor_vec_t from = opfor_compass_vec((opfor_table_north_t)ctx->sc.table.north,
                                         (opfor_compass_t)(st->wind & 7));
    opfor_vec_t v = opfor_vscale(from, -dist);
    for (int i = un->first; i < un->first + un->count; i++) {
        opfor_figure_t *f = &st->figures[i];
        f->pos = opfor_vadd(f->pos, v);
        if (f->pos.x < 0.5f || f->pos.y < 0.5f || f->pos.x > ctx->sc.table.width - 0.5f ||
            f->pos.y > ctx->sc.table.depth - 0.5f) {
            vk_remove_unit(st, u, "is blown off the table", ev);
            return;
        }
    }
    VK_EV(ev, "  %s drifts %.0f in with the wind", un->name, (double)dist);
}

void vk_specials_turn(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    for (int u = 0; u < st->nunits; u++) {
        if (!vk_unit_active(st, u) || !flying(st->units[u].type))
            continue;
        opfor_vk_unitx_t *x = &st->ux[u];
        if (x->altitude == 0 && st->turn == 1 && st->units[u].type != OPFOR_UT_AEROPLANE)
            x->altitude = 1; /* flying craft start aloft (aeroplanes: engine_air.c) */
        if (x->altitude == 0)
            continue;
        /* a damaged balloon sinks a level each turn (XII.D) */
        if (x->damage > 0 && st->units[u].type != OPFOR_UT_AEROPLANE && x->altitude > 0)
            x->altitude--;
        int lv = st->level;
        /* high winds and gales damage or destroy craft aloft (XII.D) */
        if (lv >= 4) {
            int d = vk_d6(st);
            int destroyed = lv == 4 ? d == 6 : d >= 5;
            int damaged = lv == 4 ? (d == 4 || d == 5) : (d == 3 || d == 4);
            if (destroyed || damaged) {
                VK_EV(ev, "  the wind %s %s", destroyed ? "wrecks" : "damages", st->units[u].name);
                vk_craft_damage(ctx, st, u, destroyed ? 2 : 1, ev);
            }
        }
    }
}
