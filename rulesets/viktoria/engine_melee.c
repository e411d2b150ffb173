/* rulesets/viktoria/engine_melee.c — charges and melee (Viktoria! X): the nine steps, the
 * charged unit's reactions (counter-charge, a move away of its choosing, defensive fire at a
 * range set by quality), simultaneous attacks, morale with flight or surrender, follow-up moves
 * (each side may hold), ongoing melee and pursuit. CHARGE rolls the d3 and the target's morale
 * (steps 1-2); when the target may react the state waits in phase REACTION, then vk_charge_react
 * runs steps 3-9. Attacks in one step are rolled first and the harm applied after, so a figure
 * struck down still strikes back. The figures a striker may reach are copied once per loop into a
 * compact list (vk_foes_t): nothing they are made of changes until the loop is over. The charge
 * allowance reads the move table once per kind of person present
 * (tests/rulesets/test_engine_melee_fast.c holds the plain version).
 */
#include <string.h>

#include "engine_int.h"

/* ---------------------------------------------------------------- helpers */

/* vk_move_x(VK_MV_CHARGE) of a person depends only on its quality, mounted and wounded, read
 * from the table (move_x[charge][quality][mounted][wounded][unlimbered]) unless the unit moves by
 * the special rules (walkers, vehicles, automatons: vk_move_x). The kinds of person present are
 * gathered as bits (bit 4 * quality + 2 * mounted + wounded), then each kind is looked up once;
 * equipment and special units ask vk_move_x figure by figure. The largest and least are the
 * same whatever the order. (A figure is always in its own unit's block.) */
_Static_assert(OPFOR_FIG_WOUNDED == 1u << 1 && OPFOR_FIG_MOUNTED == 1u << 2,
               "charge_x: the kind bits are flags bits 1-2");
_Static_assert(VK_NC * 4 <= 32, "charge_x: every class of the move table has its bits");

static int charge_x(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int *minx) {
    const opfor_unit_t *un = &st->units[u];
    int best = 0, worst = 1000;
    int special =
        ctx->opt.specials && (un->type == OPFOR_UT_WALKER || un->type == OPFOR_UT_VEHICLE ||
                              un->type == OPFOR_UT_AUTOMATON);
    uint32_t kinds = 0;
    for (int i = un->first, e = un->first + un->count; i < e; i++) {
        const opfor_figure_t *fg = &st->figures[i];
        unsigned fl = fg->flags;
        if ((fl & (OPFOR_FIG_ALIVE | OPFOR_FIG_REAR)) != OPFOR_FIG_ALIVE) /* vk_alive */
            continue;
        if (!special && !(fl & OPFOR_FIG_EQUIPMENT)) {
            kinds |= 1u << (fg->quality * 4u + (fl >> 1 & 3u));
            continue;
        }
        int x = vk_move_x(ctx, st, i, VK_MV_CHARGE);
        best = x > best ? x : best;
        worst = x < worst ? x : worst;
    }
    const int8_t(*mx)[2][2][2] = ctx->tab->move_x[VK_MV_CHARGE];
    while (kinds) {
        int k = __builtin_ctz(kinds);
        kinds &= kinds - 1;
        int x = mx[k >> 2][k >> 1 & 1][k & 1][0];
        best = x > best ? x : best;
        worst = x < worst ? x : worst;
    }
    if (minx)
        *minx = worst == 1000 ? 0 : worst;
    return best;
}

float vk_charge_reach(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u) {
    return (float)(charge_x(ctx, st, u, NULL) + 3);
}

int vk_charge_target_ok(const opfor_vk_state_t *st, int u, int t) {
    /* A unit in play on the table with a living person is active (vk_unit_active), so one
       scan answers both. */
    if (t < 0 || t >= st->nunits || st->ux[t].removed ||
        (st->units[t].flags & OPFOR_UNIT_OFF_TABLE) || st->units[t].side == st->units[u].side ||
        vk_in_melee(st, u))
        return 0;
    const opfor_unit_t *tu = &st->units[t];
    for (int i = tu->first, e = tu->first + tu->count; i < e; i++)
        if ((st->figures[i].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_REAR | OPFOR_FIG_EQUIPMENT)) ==
            OPFOR_FIG_ALIVE)
            return 1;
    return 0;
}

int vk_can_charge(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t) {
    if (!vk_charge_target_ok(st, u, t) || vk_gun_figure(st, u) >= 0)
        return 0;
    /* as the legal list: the nearest pair within reach, some pair in sight */
    return vk_nearest_pair(st, u, t, NULL, NULL) <= vk_charge_reach(ctx, st, u) &&
           vk_unit_sees(ctx, st, u, t, 1e9f);
}

int vk_can_defensive_fire(const opfor_vk_state_t *st, int t) {
    const opfor_unit_t *un = &st->units[t];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && vk_is_person(&st->figures[i]) &&
            (st->figures[i].weapons & (OPFOR_W_PISTOL | OPFOR_W_CARBINE | OPFOR_W_RIFLE)))
            return 1;
    return 0;
}

/* Cavalry, not Wavering, every figure mounted and out of rough ground and cover (X). */
int vk_can_counter(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int t) {
    const opfor_unit_t *un = &st->units[t];
    if (un->status == OPFOR_WAVERING || vk_in_melee(st, t))
        return 0;
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!vk_alive(st, i))
            continue;
        const opfor_figure_t *f = &st->figures[i];
        if (!(f->flags & OPFOR_FIG_MOUNTED))
            return 0;
        n++;
        for (int k = 0; k < ctx->sc.table.nfeatures; k++) {
            const opfor_terrain_feature_t *ft = &ctx->sc.table.features[k];
            if (ft->shape != OPFOR_SHAPE_AREA)
                continue;
            if ((ft->move == OPFOR_MOVE_ROUGH || ft->cover > OPFOR_COVER_NONE) &&
                opfor_feature_contains(ft, f->pos))
                return 0;
        }
    }
    return n > 0;
}

/* Whether figures a and b touch. */
static inline int touching(const opfor_vk_state_t *st, int a, int b) {
    const opfor_figure_t *fa = &st->figures[a], *fb = &st->figures[b];
    float lim = vk_radius(fa) + vk_radius(fb) + VK_CONTACT;
    return opfor_dist2(fa->pos, fb->pos) <= lim * lim;
}

/* The living people of the units in a mask (units in index order, then figures), compact: the
 * bases a figure may strike (foes_contact). Built once for a loop in which they do not change
 * (harm is applied after the loop; a figure that moves is never one of them). */
typedef struct vk_foes {
    int n;
    float lox, loy, hix, hiy, rmax; /* box of the centres, largest base radius */
    int idx[OPFOR_MAX_FIGURES];
    float x[OPFOR_MAX_FIGURES], y[OPFOR_MAX_FIGURES], r[OPFOR_MAX_FIGURES];
} vk_foes_t;

static void foes_build(const opfor_vk_state_t *st, uint32_t enemies, vk_foes_t *F) {
    int n = 0;
    F->lox = F->loy = 1e30f;
    F->hix = F->hiy = -1e30f;
    F->rmax = 0.0f;
    for (int t = 0; t < st->nunits; t++) {
        if (!(enemies >> t & 1))
            continue;
        const opfor_unit_t *tu = &st->units[t];
        for (int j = tu->first, e = tu->first + tu->count; j < e; j++) {
            const opfor_figure_t *g = &st->figures[j];
            if (!vk_alive(st, j) || !vk_is_person(g))
                continue;
            F->idx[n] = j;
            F->x[n] = g->pos.x;
            F->y[n] = g->pos.y;
            F->r[n] = vk_radius(g);
            F->lox = g->pos.x < F->lox ? g->pos.x : F->lox;
            F->hix = g->pos.x > F->hix ? g->pos.x : F->hix;
            F->loy = g->pos.y < F->loy ? g->pos.y : F->loy;
            F->hiy = g->pos.y > F->hiy ? g->pos.y : F->hiy;
            F->rmax = F->r[n] > F->rmax ? F->r[n] : F->rmax;
            n++;
        }
    }
    F->n = n;
}

/* Nearest of the foes touching figure a (the first in their order on ties); -1. The same
 * tests as touching() and the same squared distance. A figure farther from the foes' box than
 * any contact reaches (with a hundredth of an inch to spare, far above the rounding) touches
 * none of them. */
static int foes_contact(const opfor_vk_state_t *st, const vk_foes_t *F, int a) {
    const opfor_figure_t *fa = &st->figures[a];
    float ax = fa->pos.x, ay = fa->pos.y, ra = vk_radius(fa);
    float reach = ra + F->rmax + VK_CONTACT + 0.01f;
    if (ax < F->lox - reach || ax > F->hix + reach || ay < F->loy - reach || ay > F->hiy + reach)
        return -1;
    int best = -1;
    float bd = 1e30f;
    for (int k = 0; k < F->n; k++) {
        float lim = ra + F->r[k] + VK_CONTACT;
        float dx = ax - F->x[k], dy = ay - F->y[k];
        float d = dx * dx + dy * dy; /* opfor_dist2(a, j) */
        if (d <= lim * lim && d < bd) {
            bd = d;
            best = F->idx[k];
        }
    }
    return best;
}

static int melee_weapon(const opfor_figure_t *f, int charging) {
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

/* A pending blow: attacker, target, effect. */
typedef struct blow {
    uint16_t a, t;
    uint8_t effect;
} blow_t;

/* Rolls figure a's attack on d (X); returns the effect. cover: the defender's cover. */
static int attack(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int a, int d, int charging,
                  int cover) {
    const opfor_figure_t *fa = &st->figures[a], *fd = &st->figures[d];
    int w = melee_weapon(fa, charging);
    int am = (fa->flags & OPFOR_FIG_MOUNTED) != 0, tm = (fd->flags & OPFOR_FIG_MOUNTED) != 0;
    int aw = (fa->flags & OPFOR_FIG_WOUNDED) != 0, tw = (fd->flags & OPFOR_FIG_WOUNDED) != 0;
    int i = vk_melee_idx(w, fa->quality, fd->quality, cover, am, tm, charging ? 1 : 0, aw, tw);
    if (!vk_roll(st, &ctx->tab->melee_hit[i], NULL))
        return 0;
    if (vk_roll(st, &ctx->tab->melee_save[i], NULL))
        return 0;
    return vk_effect_roll(st, &ctx->tab->effect[OPFOR_VK_EFFECT_SWORD + w][tw][0], NULL);
}

int vk_melee_attack(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int a, int d, int charging,
                    int cover) {
    return attack(ctx, st, a, d, charging, cover);
}

/* Every figure of the units in `attackers` (mask) touching a figure of `defenders` and not
 * yet attacking this turn strikes; harm is applied after all rolls (simultaneous, X).
 * charging: mask of units counting as charging. covered: mask of units whose figures keep
 * their cover as targets. */
static int strike(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, uint32_t attackers,
                  uint32_t charging, uint32_t covered, blow_t *blows, int nb) {
    for (int u = 0; u < st->nunits; u++) {
        if (!(attackers >> u & 1) || !vk_unit_active(st, u))
            continue;
        uint32_t enemies = st->melee[u];
        /* chargers also strike the unit they charged (link made below) */
        for (int t = 0; t < st->nunits; t++)
            if ((attackers >> t & 1) == 0 && st->units[t].side != st->units[u].side &&
                vk_unit_active(st, t))
                enemies |= 1u << t;
        const opfor_unit_t *un = &st->units[u];
        vk_foes_t foes; /* built at the first striker: no harm lands during the rolls */
        foes.n = -1;
        for (int f = un->first; f < un->first + un->count; f++) {
            if (!vk_alive(st, f) || !vk_is_person(&st->figures[f]) ||
                (st->figx[f] & (OPFOR_VK_FX_ATTACKED | OPFOR_VK_FX_CONTROLLED)))
                continue;
            if (foes.n < 0)
                foes_build(st, enemies, &foes);
            int d = foes_contact(st, &foes, f);
            if (d < 0)
                continue;
            int cov = 0;
            if (covered >> st->figures[d].unit & 1)
                cov = vk_cover(ctx, st, d, st->figures[f].pos);
            st->figx[f] |= OPFOR_VK_FX_ATTACKED;
            int e = attack(ctx, st, f, d, (charging >> u & 1) != 0, cov);
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

static void land(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const blow_t *blows, int nb,
                 int *wounds, int *kills) {
    for (int i = 0; i < nb; i++) {
        if (!blows[i].effect)
            continue;
        int t = blows[i].t;
        int was = (st->figures[t].flags & OPFOR_FIG_ALIVE) != 0;
        vk_harm(ctx, st, t, blows[i].effect, 1, st->units[st->figures[blows[i].a].unit].side, NULL);
        if (was && !(st->figures[t].flags & OPFOR_FIG_ALIVE))
            (*kills)++;
        else if (blows[i].effect == 1)
            (*wounds)++;
    }
}

/* Links units whose figures touch. */
static void link_contacts(opfor_vk_state_t *st, int a, int b) {
    const opfor_unit_t *ua = &st->units[a], *ub = &st->units[b];
    for (int i = ua->first; i < ua->first + ua->count; i++) {
        if (!vk_alive(st, i))
            continue;
        for (int j = ub->first; j < ub->first + ub->count; j++)
            if (vk_alive(st, j) && touching(st, i, j)) {
                st->melee[a] |= 1u << b;
                st->melee[b] |= 1u << a;
                return;
            }
    }
}

/* vk_melee_refresh once some melee link exists. Out of line: the common case (none) stays a
 * small leaf without the saving of registers these loops need. */
__attribute__((noinline)) static void melee_refresh_links(opfor_vk_state_t *st) {
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
                        if (vk_alive(st, j) && touching(st, i, j)) {
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

void vk_melee_refresh(opfor_vk_state_t *st) {
    uint32_t any = 0; /* most activations end with no melee on the table: nothing to drop */
    for (int a = 0; a < st->nunits; a++)
        any |= st->melee[a];
    if (any)
        melee_refresh_links(st);
}

/* Step 7: morale after melee casualties; failure means flight (or removal when already
 * Wavering). */
static void melee_morale(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, uint32_t units,
                         opfor_vk_events_t *ev) {
    for (int u = 0; u < st->nunits; u++) {
        if (!(units >> u & 1) || !st->ux[u].casualties)
            continue;
        st->ux[u].casualties = 0;
        if (!vk_unit_active(st, u))
            continue;
        int was_wavering = st->units[u].status == OPFOR_WAVERING;
        if (vk_morale_check(ctx, st, u, ev))
            continue;
        if (was_wavering) {
            vk_remove_unit(st, u, "surrenders or routs", ev);
            continue;
        }
        /* full flight to the rear, away from the enemies it fought */
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
        vk_flee(ctx, st, u, from, ev);
    }
}

/* Steps 8-9: figures not in contact move up to join the fight (an advance). */
static void follow_up(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, uint32_t enemies,
                      int mv) {
    if (!vk_unit_active(st, u) || st->units[u].status == OPFOR_WAVERING)
        return;
    int d3 = vk_d3(st);
    const opfor_unit_t *un = &st->units[u];
    vk_foes_t foes; /* only figures of u move below */
    foes_build(st, enemies, &foes);
    for (int f = un->first; f < un->first + un->count; f++) {
        if (!vk_alive(st, f) || !vk_is_person(&st->figures[f]))
            continue;
        if (foes_contact(st, &foes, f) >= 0)
            continue;
        /* nearest enemy figure */
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

/* ---------------------------------------------------------------- charge */

/* Moves the chargers into contact: the formation first, then each figure on its own with
 * what is left of its allowance. path (may be NULL; indexed by figure): the length of each
 * charger's path, its share of the formation's move plus its own leg. */
static void charge_move(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int d3,
                        opfor_vk_events_t *ev, float *path) {
    int fa, fb;
    vk_nearest_pair(st, u, t, &fa, &fb);
    if (fa < 0)
        return;
    vk_ugeo_t g;
    vk_unit_geo(st, u, &g);
    opfor_vec_t d = opfor_vsub(st->figures[fb].pos, st->figures[fa].pos);
    opfor_pt_t dest = opfor_vadd(g.c, d);
    const opfor_unit_t *un = &st->units[u];
    opfor_pt_t start[OPFOR_MAX_FIGURES]; /* with path: where each figure began */
    if (path)
        for (int f = un->first; f < un->first + un->count; f++)
            start[f - un->first] = st->figures[f].pos;
    float moved = vk_move_unit(ctx, st, u, VK_MV_CHARGE, dest, 0, dest, d3, t, ev);
    if (path) /* the formation's leg: one straight line per figure */
        for (int f = un->first; f < un->first + un->count; f++)
            path[f] = opfor_dist(start[f - un->first], st->figures[f].pos);
    vk_foes_t foes; /* only figures of u move below */
    foes_build(st, 1u << t, &foes);
    for (int f = un->first; f < un->first + un->count; f++) {
        if (!vk_alive(st, f) || !vk_is_person(&st->figures[f]))
            continue;
        if (foes_contact(st, &foes, f) >= 0)
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

static int any_contact(const opfor_vk_state_t *st, int u, int t) {
    const opfor_unit_t *un = &st->units[u];
    vk_foes_t foes;
    foes_build(st, 1u << t, &foes);
    for (int f = un->first; f < un->first + un->count; f++)
        if (vk_alive(st, f) && foes_contact(st, &foes, f) >= 0)
            return 1;
    return 0;
}

/* The melee unit u is in: u and every unit linked to it, directly or through others (a bit
 * per unit). */
static uint32_t melee_of(const opfor_vk_state_t *st, int u) {
    uint32_t comp = 1u << u, grow = 1;
    while (grow) {
        grow = 0;
        for (int v = 0; v < st->nunits; v++)
            if ((comp >> v & 1) && (st->melee[v] & ~comp)) {
                comp |= st->melee[v];
                grow = 1;
            }
    }
    return comp;
}

/* Steps 5-9 once the chargers are in contact. counter: the target counter-charged. */
static void resolve_contact(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t,
                            int counter, int ongoing, opfor_vk_events_t *ev) {
    blow_t blows[OPFOR_MAX_FIGURES];
    int wounds = 0, kills = 0;
    for (int v = 0; v < st->nunits; v++)
        st->ux[v].casualties = 0;
    st->melee[u] |= 1u << t;
    st->melee[t] |= 1u << u;
    uint32_t um = 1u << u, tm = 1u << t;
    /* 5: chargers (and counter-chargers) strike at once; defenders keep their cover */
    int nb = strike(ctx, st, um, um, tm, blows, 0);
    if (counter)
        nb = strike(ctx, st, tm, tm, 0, blows, nb);
    land(ctx, st, blows, nb, &wounds, &kills);
    VK_EV(ev, "  %s strike%s: %d wounded, %d killed", st->units[u].name,
          counter ? " and the counter-chargers meet them" : "", wounds, kills);
    /* 6: surviving defenders strike back */
    wounds = kills = 0;
    if (!counter) {
        nb = strike(ctx, st, tm, 0, 0, blows, 0);
        land(ctx, st, blows, nb, &wounds, &kills);
        VK_EV(ev, "  %s strikes back: %d wounded, %d killed", st->units[t].name, wounds, kills);
    }
    if (ongoing) {
        /* everyone else in that melee (the units linked to the target, directly or through
           others; not other melees on the table) strikes now, keeping cover (X) */
        uint32_t comp = melee_of(st, t), rest = 0;
        for (int v = 0; v < st->nunits; v++)
            if ((comp >> v & 1) && v != u && v != t && vk_unit_active(st, v))
                rest |= 1u << v;
        nb = strike(ctx, st, rest, 0, comp, blows, 0);
        wounds = kills = 0;
        land(ctx, st, blows, nb, &wounds, &kills);
        VK_EV(ev, "  the rest of the melee: %d wounded, %d killed", wounds, kills);
    }
    /* 7: morale */
    uint32_t involved = um | tm;
    for (int v = 0; v < st->nunits; v++)
        if (st->melee[v] & (um | tm))
            involved |= 1u << v;
    melee_morale(ctx, st, involved, ev);
    /* 8-9: follow-up moves, each side's choice (the action's OPFOR_VK_AF_HOLD) */
    if (!(st->charge.hold & 1))
        follow_up(ctx, st, u, st->melee[u], VK_MV_ADVANCE);
    if (!(st->charge.hold & 2))
        follow_up(ctx, st, t, st->melee[t], VK_MV_ADVANCE);
    link_contacts(st, u, t);
    vk_melee_refresh(st);
    st->ux[u].flags |= OPFOR_VK_UX_FOUGHT;
    st->ux[t].flags |= OPFOR_VK_UX_FOUGHT;
}

int vk_charge(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int t, int hold,
              opfor_vk_events_t *ev) {
    int d3 = vk_d3(st);
    int minx;
    int maxx = charge_x(ctx, st, u, &minx);
    float gap = vk_nearest_pair(st, u, t, NULL, NULL);
    memset(&st->charge, 0, sizeof st->charge);
    st->charge.charger = (uint8_t)u;
    st->charge.target = (uint8_t)t;
    st->charge.allowance = (float)(maxx + d3);
    st->charge.start_gap = gap;
    st->charge.reach = gap;
    st->charge.d3 = (uint8_t)d3;
    st->charge.hold = hold ? 1 : 0;
    st->charge.ongoing = vk_in_melee(st, t) ? 1 : 0;
    st->ux[u].flags |= OPFOR_VK_UX_CHARGED;
    VK_EV(ev, "  %s charges %s (%.1f in away, allowance %d + %d)", st->units[u].name,
          st->units[t].name, gap, maxx, d3);
    if ((float)(maxx + d3) < gap) {
        /* falls short: the chargers use their move, the target is untouched (X) */
        charge_move(ctx, st, u, t, d3, ev, NULL);
        VK_EV(ev, "  the charge falls short");
        return 0;
    }
    /* 2: the charged unit checks morale */
    for (int v = 0; v < st->nunits; v++)
        st->ux[v].casualties = 0;
    if (!vk_morale_check(ctx, st, t, ev)) {
        vk_ugeo_t g;
        vk_unit_geo(st, u, &g);
        vk_flee(ctx, st, t, g.c, ev);
        /* pursuit with the whole charge allowance (X) */
        charge_move(ctx, st, u, t, d3, ev, NULL);
        if (any_contact(st, u, t)) {
            vk_mark_acted(st, t); /* caught, it has spent its action too (X) */
            resolve_contact(ctx, st, u, t, 0, 0, ev);
        } else
            VK_EV(ev, "  %s escapes the charge", st->units[t].name);
        return 0;
    }
    /* 3: a reaction, when the charged unit has not acted and is not tied up in melee */
    if (!(st->units[t].flags & OPFOR_UNIT_ACTED) && !st->charge.ongoing) {
        st->charge.active = 1;
        return 1;
    }
    opfor_vk_action_t stand = {.kind = OPFOR_VK_REACT_STAND,
                               .unit = (uint8_t)t,
                               .target = OPFOR_VK_NONE,
                               .figure = OPFOR_VK_NO_FIGURE};
    vk_charge_react(ctx, st, &stand, ev);
    return 0;
}

/* Whether figure fr fires defensively at a range of its own (X): officers, characters and
 * elite figures at the shortest bracket (leaders stand for officers and characters:
 * OPFOR_S_LEADER, which NCOs share); veterans at half the distance their charging target
 * moves; all others at the gap the charge began at. */
static int shortest_bracket(const opfor_figure_t *fr) {
    return fr->quality >= OPFOR_Q_ELITE || (fr->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL));
}

/* The one walk over target t's defensive fire at charger u (X) that both the reaction and its
 * count make: each living person with a firearm for its range shoots at the nearest charging
 * figure it can see, which gets no cover (VK_SHOOT_NO_COVER). A veteran's range is half the
 * length of the path its target takes in the charge (step 1, the path the chargers follow:
 * charge_move on a copy of the state, before any shot). With wr (st itself) the shots are
 * rolled and *kills counts the dead; with wr NULL every shot misses and st is only read.
 * *range0 (may be NULL) gets the range of the first shot, -1 when none. Returns the shots. */
static int defensive_walk(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                          opfor_vk_state_t *wr, int t, int u, int *kills, float *range0) {
    const opfor_unit_t *tu = &st->units[t];
    float start = st->charge.start_gap;
    int shots = 0;
    if (range0)
        *range0 = -1.0f;
    /* the chargers' paths, only when a veteran may fire: no shot has been rolled yet */
    float path[OPFOR_MAX_FIGURES];
    int veterans = 0;
    for (int f = tu->first; f < tu->first + tu->count && !veterans; f++)
        veterans = vk_alive(st, f) && vk_is_person(&st->figures[f]) &&
                   st->figures[f].quality == OPFOR_Q_VETERAN &&
                   !shortest_bracket(&st->figures[f]) && vk_firearm(&st->figures[f], 0.0f) >= 0;
    if (veterans) {
        opfor_vk_state_t scratch;
        memcpy(&scratch, st, sizeof scratch);
        const opfor_unit_t *un = &st->units[u];
        for (int f = un->first; f < un->first + un->count; f++)
            path[f] = 0.0f;
        charge_move(ctx, &scratch, u, t, st->charge.d3, NULL, path);
    }
    for (int f = tu->first; f < tu->first + tu->count; f++) {
        const opfor_figure_t *fr = &st->figures[f];
        if (!vk_alive(st, f) || !vk_is_person(fr))
            continue;
        float d2;
        int g = vk_nearest_fig(st, u, fr->pos, &d2);
        if (g < 0)
            break;
        float range = shortest_bracket(fr)             ? 0.0f
                      : fr->quality == OPFOR_Q_VETERAN ? 0.5f * path[g]
                                                       : start;
        int w = vk_firearm(fr, range);
        if (w < 0)
            continue;
        if (!vk_is_person(&st->figures[g]) || !vk_los(ctx, st, f, g))
            continue;
        if (range0 && shots == 0)
            *range0 = range;
        shots++;
        if (wr && vk_shoot(ctx, wr, f, g, w, range, VK_SHOOT_NO_COVER, NULL) == 2)
            (*kills)++;
    }
    return shots;
}

static void defensive_fire(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int t, int u,
                           opfor_vk_events_t *ev) {
    int kills = 0;
    int shots = defensive_walk(ctx, st, st, t, u, &kills, NULL);
    VK_EV(ev, "  %s fires at the chargers: %d shot%s, %d killed", st->units[t].name, shots,
          shots == 1 ? "" : "s", kills);
}

int vk_defensive_count(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, float *range0) {
    int t = st->charge.target, u = st->charge.charger;
    if (range0)
        *range0 = -1.0f;
    if (t >= st->nunits || u >= st->nunits)
        return 0;
    return defensive_walk(ctx, st, NULL, t, u, NULL, range0);
}

void vk_charge_react(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *r,
                     opfor_vk_events_t *ev) {
    int kind = r->kind;
    int u = st->charge.charger, t = st->charge.target, d3 = st->charge.d3;
    if (r->flags & OPFOR_VK_AF_HOLD)
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
        defensive_fire(ctx, st, t, u, ev);
        if (st->ux[u].casualties) {
            /* 4: chargers hit by defensive fire check morale; failing, they stop 1 in
               short and waver */
            st->ux[u].casualties = 0;
            if (vk_unit_active(st, u) && !vk_morale_check(ctx, st, u, ev)) {
                int fa, fb;
                float gap = vk_nearest_pair(st, u, t, &fa, &fb);
                if (fa >= 0 && gap > 1.0f) {
                    vk_ugeo_t g;
                    vk_unit_geo(st, u, &g);
                    opfor_vec_t dir =
                        opfor_vnorm(opfor_vsub(st->figures[fb].pos, st->figures[fa].pos));
                    opfor_pt_t to = opfor_vadd(g.c, opfor_vscale(dir, gap - 1.0f));
                    vk_move_unit(ctx, st, u, VK_MV_CHARGE, to, 0, to, d3, -1, ev);
                }
                VK_EV(ev, "  the charge falters 1 in short");
                return;
            }
        }
        break;
    case OPFOR_VK_REACT_FLEE: {
        /* a movement away of the reacting side's choosing: crawl, run/gallop or advance (X);
           crews leave their guns and wagons (X) */
        int mv = vk_flight_move(r->arc);
        VK_EV(ev, "  %s %s away from the charge", st->units[t].name,
              mv == VK_MV_CRAWL     ? "crawls"
              : mv == VK_MV_ADVANCE ? "falls back"
                                    : "flees");
        vk_move_unit(ctx, st, t, (mv < 0 ? VK_MV_RUN : mv) | VK_MV_PERSONS, r->dest, 0, r->dest, 0,
                     -1, ev);
        st->ux[t].flags |= OPFOR_VK_UX_FLED;
        break;
    }
    case OPFOR_VK_REACT_COUNTER: {
        /* X: the chargers go half the way, then both sides meet at the halfway point of
           what remains: the counter-chargers cover a quarter of the gap, the chargers (their
           charge_move below) the other three quarters */
        int fa, fb;
        float gap = vk_nearest_pair(st, u, t, &fa, &fb);
        if (fb >= 0 && gap > 0.1f) {
            vk_ugeo_t g;
            vk_unit_geo(st, t, &g);
            opfor_vec_t dir = opfor_vnorm(opfor_vsub(st->figures[fa].pos, st->figures[fb].pos));
            opfor_pt_t to = opfor_vadd(g.c, opfor_vscale(dir, 0.25f * gap));
            vk_move_unit(ctx, st, t, VK_MV_CHARGE, to, 0, to, 0, u, ev);
        }
        counter = 1;
        st->ux[t].flags |= OPFOR_VK_UX_CHARGED;
        VK_EV(ev, "  %s counter-charges", st->units[t].name);
        break;
    }
    default:
        break;
    }
    if (!vk_unit_active(st, u) || !vk_unit_active(st, t))
        return;
    charge_move(ctx, st, u, t, d3, ev, NULL);
    if (!any_contact(st, u, t)) {
        VK_EV(ev, "  the charge does not reach %s", st->units[t].name);
        return;
    }
    vk_mark_acted(st, t); /* a charge that lands uses the target's action too (X) */
    resolve_contact(ctx, st, u, t, counter, ongoing, ev);
}

/* ---------------------------------------------------------------- ongoing melee */

void vk_fight(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, opfor_vk_events_t *ev) {
    uint32_t comp = melee_of(st, u);
    /* figures not yet in contact close in, up to a run (X) */
    for (int v = 0; v < st->nunits; v++)
        if (comp >> v & 1)
            follow_up(ctx, st, v, st->melee[v], VK_MV_RUN);
    for (int v = 0; v < st->nunits; v++)
        st->ux[v].casualties = 0;
    blow_t blows[OPFOR_MAX_FIGURES];
    int nb = strike(ctx, st, comp, 0, comp, blows, 0);
    int wounds = 0, kills = 0;
    land(ctx, st, blows, nb, &wounds, &kills);
    VK_EV(ev, "  the melee around %s: %d blow%s, %d wounded, %d killed", st->units[u].name, nb,
          nb == 1 ? "" : "s", wounds, kills);
    for (int v = 0; v < st->nunits; v++)
        if (comp >> v & 1) {
            vk_mark_acted(st, v);
            st->ux[v].flags |= OPFOR_VK_UX_FOUGHT;
        }
    melee_morale(ctx, st, comp, ev);
    vk_melee_refresh(st);
}
