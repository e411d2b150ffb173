/* rulesets/viktoria/ai_orders.c — the Viktoria! wording of an order (the ruleset's `order`
 * hook, opfor/order.h).
 *
 * Turns an action of the Viktoria! ruleset into a short sentence: unit, verb, how far and
 * which way it goes with the nearest landmark, the target, and the scores needed, which come
 * from the calculator (the same source as the rules engine's chance tables) with the fields
 * read off the position: the shooters' quality and weapon, the range, the target's class and
 * cover. The heuristic's terms for the action go with it, for the reason; the search's part
 * (value, runner-up, alternatives) is ai/'s to add.
 */
#include "opfor/viktoria/ai.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "opfor/order.h"
#include "opfor/text.h"
#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/engine_query.h"
#include "opfor/viktoria/heuristic.h"

/* ---------------------------------------------------------------- small helpers */

static void copy(char *dst, size_t n, const char *src) {
    snprintf(dst, n, "%s", src ? src : "");
}

/* Writes buf (n bytes) from the start, cutting what does not fit. */
static void setf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void setf(char *buf, size_t n, const char *fmt, ...) {
    if (n == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

static float round_half(float x) {
    return (float)(int)(x * 2.0f + 0.5f) / 2.0f;
}

/* The most common quality among unit u's present people (weapon mask: only those carrying
 * one of these; 0: any). Ties go to the better quality. -1 when none. */
static int common_quality(const opfor_vk_state_t *st, int u, unsigned weapons, int *mounted) {
    int count[OPFOR_Q_COUNT] = {0}, riders = 0, n = 0;
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (!opfor_vk_query_fig_present(st, i) || (f->flags & OPFOR_FIG_EQUIPMENT))
            continue;
        if (weapons && !(f->weapons & weapons))
            continue;
        if (f->quality < OPFOR_Q_COUNT)
            count[f->quality]++;
        riders += (f->flags & OPFOR_FIG_MOUNTED) != 0;
        n++;
    }
    if (mounted)
        *mounted = n > 0 && 2 * riders > n;
    int best = -1;
    for (int q = 0; q < OPFOR_Q_COUNT; q++)
        if (count[q] > 0 && (best < 0 || count[q] >= count[best]))
            best = q;
    return best;
}

/* Target class and state of unit t: its common quality ("transport" when only equipment
 * is left), and whether most of it is mounted, running, prone. */
typedef struct tgt {
    const char *cls;
    int mounted, running, prone;
} tgt_t;

static void read_target(const opfor_vk_state_t *st, int t, tgt_t *out) {
    int m = 0;
    int q = common_quality(st, t, 0, &m);
    out->cls = q < 0 ? "transport" : opfor_vocab_name(opfor_quality_names, q);
    out->mounted = m;
    int run = 0, prone = 0, n = 0;
    const opfor_unit_t *un = &st->units[t];
    for (int i = un->first; i < un->first + un->count; i++) {
        if (!opfor_vk_query_fig_present(st, i))
            continue;
        n++;
        run += (st->figures[i].flags & OPFOR_FIG_RUNNING) != 0;
        prone += (st->figures[i].flags & OPFOR_FIG_PRONE) != 0;
    }
    out->running = n > 0 && 2 * run > n;
    out->prone = !out->running && n > 0 && 2 * prone > n;
}

static void add_roll(opfor_order_t *o, const char *label, const char *need, double p) {
    if (o->nrolls >= OPFOR_ORDER_MAX_ROLLS)
        return;
    opfor_order_roll_t *r = &o->rolls[o->nrolls++];
    copy(r->label, sizeof r->label, label);
    copy(r->need, sizeof r->need, need);
    r->p = p;
}

/* Adds the result's roll called name to the order under label. */
static void take_roll(opfor_order_t *o, const opfor_viktoria_result_t *res, const char *name,
                      const char *label) {
    const opfor_viktoria_named_roll_t *r = opfor_viktoria_result_roll(res, name);
    if (!r)
        return;
    char buf[32];
    opfor_roll_format(&r->roll, buf, sizeof buf);
    /* "6, then 2+" is two dice read one after the other: a 6 first, then the second die */
    if (r->roll.kind == OPFOR_ROLL_D6_THEN)
        snprintf(buf, sizeof buf, "%d, then %d+ with a second die", r->roll.need, r->roll.need2);
    add_roll(o, label, buf, r->roll.p_rendered);
}

typedef struct calc {
    opfor_viktoria_req_t req;
    int ok;
} calc_t;

static void calc_start(calc_t *c, int action) {
    c->ok = opfor_viktoria_req_init(&c->req, action) == 0;
}

static void calc_set(calc_t *c, const char *field, const char *value) {
    if (c->ok && opfor_viktoria_req_set(&c->req, field, value, NULL) != 0)
        c->ok = 0;
}

static void calc_flag(calc_t *c, const char *field, int on) {
    if (on)
        calc_set(c, field, "yes");
}

static void calc_inches(calc_t *c, const char *field, float in) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.1f", (double)(in < 0.0f ? 0.0f : in));
    calc_set(c, field, buf);
}

/* Altitude levels between firer and target (XII.D), when there are any. */
static void calc_altitude(calc_t *c, int levels) {
    char buf[16];
    snprintf(buf, sizeof buf, "%d", levels);
    if (levels > 0)
        calc_set(c, "altitude", buf);
}

static int calc_run(calc_t *c, const opfor_vk_ctx_t *vk, opfor_viktoria_result_t *res) {
    return c->ok && opfor_viktoria_calc(opfor_vk_query_model(vk), &c->req, res, NULL) == 0;
}

/* ---------------------------------------------------------------- rolls per action */

/* How many figures of u fire at t (aim flags): counted as the engine picks them when it fires
 * from where it stands; when it fires after moving, at most those that carry a firearm. */
static void count_shooters(const opfor_vk_ctx_t *vk, const opfor_vk_state_t *st, int u, int t,
                           int moving, unsigned aim, opfor_order_t *o) {
    if (!moving) {
        o->figures = opfor_vk_query_shooters(vk, st, u, t, aim);
        o->figures_how = OPFOR_ORDER_FIG_EXACT;
        return;
    }
    int n = 0;
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++) {
        const opfor_figure_t *f = &st->figures[i];
        if (opfor_vk_query_fig_present(st, i) && !(f->flags & OPFOR_FIG_EQUIPMENT) &&
            (f->weapons & (OPFOR_W_PISTOL | OPFOR_W_CARBINE | OPFOR_W_RIFLE)))
            n++;
    }
    o->figures = n;
    o->figures_how = OPFOR_ORDER_FIG_UPTO;
}

/* The dice of the fire rolls just added from index first: one to-hit roll per figure that
 * fires, one save per hit. */
/* The effect roll of each hit not saved (the result's D6 "effect" table, IX): "4+ wounds,
 * 6 kills", one die per hit the save did not stop. */
/* craft: the hit is on a balloon's envelope, where a wound is damage and a kill destroys it
 * (XII.D), and the words say so. */
static void take_effect(opfor_order_t *o, const opfor_viktoria_result_t *res, int craft) {
    const opfor_viktoria_table_t *t = opfor_viktoria_result_table(res, "effect");
    if (!t || o->nrolls >= OPFOR_ORDER_MAX_ROLLS)
        return;
    int wound = 0, kill = 0;
    double p = 0.0;
    for (int i = 0; i < t->n; i++) {
        const char *x = t->e[i].text ? t->e[i].text : "";
        if (!wound && (strcmp(x, "wounded") == 0 || strcmp(x, "damaged") == 0))
            wound = t->e[i].lo;
        if (!kill && (strcmp(x, "killed") == 0 || strcmp(x, "destroyed") == 0)) {
            kill = t->e[i].lo;
            p = t->e[i].p;
        }
    }
    if (!kill)
        return;
    char need[32];
    wound = wound < 0 ? 0 : wound > 9 ? 9 : wound;
    kill = kill > 9 ? 9 : kill;
    const char *hurt = craft ? "damages" : "wounds", *end = craft ? "destroys" : "kills";
    if (wound && wound < kill)
        snprintf(need, sizeof need, "%d+ %s / %d%s %s", wound, hurt, kill, kill < 6 ? "+" : "",
                 end);
    else
        snprintf(need, sizeof need, "%d%s %s", kill, kill < 6 ? "+" : "", end);
    add_roll(o, "effect", need, p);
    copy(o->rolls[o->nrolls - 1].per, sizeof o->rolls[o->nrolls - 1].per,
         opfor_viktoria_result_roll(res, "save") ? "unsaved hit" : "hit");
}

static void fire_dice(opfor_order_t *o, int first) {
    for (int i = first; i < o->nrolls; i++) {
        opfor_order_roll_t *r = &o->rolls[i];
        if (strcmp(r->label, "to hit") == 0)
            r->dice = o->figures;
        else if (strcmp(r->label, "save") == 0)
            copy(r->per, sizeof r->per, "hit");
    }
}

/* To hit and save for u's personal weapons at t (moving: moving fire) at a range of gap
 * inches; defensive: fire at chargers (X), who get no cover; craft: 1 for fire at the envelope
 * of balloon t (XII.D: a Civilian target without cover, Wounded once damaged, never running), 0
 * for fire at its figures. */
static void fire_rolls_at(const opfor_vk_ctx_t *vk, const opfor_vk_state_t *st, int u, int t,
                          int moving, float gap, int defensive, int craft, opfor_order_t *o) {
    const opfor_viktoria_model_t *m = opfor_vk_query_model(vk);
    int lv = opfor_vk_query_levels(st, u, t); /* a range bracket per altitude level (XII.D) */
    static const int ACTION[3] = {OPFOR_VK_A_FIRE_PISTOL, OPFOR_VK_A_FIRE_CARBINE,
                                  OPFOR_VK_A_FIRE_RIFLE};
    int w = -1;
    for (int k = 2; k >= 0 && w < 0; k--)
        if (common_quality(st, u, OPFOR_W_PISTOL << k, NULL) >= 0 &&
            opfor_viktoria_bracket_aloft(m, (opfor_viktoria_ranged_t)k, gap, lv) >= 0)
            w = k;
    if (w < 0)
        return;
    int mounted = 0;
    int q = common_quality(st, u, OPFOR_W_PISTOL << w, &mounted);
    tgt_t tg;
    read_target(st, t, &tg);
    if (craft) {
        tg.cls = opfor_vocab_name(opfor_quality_names, opfor_vk_query_envelope_class(vk, st, t));
        tg.mounted = tg.running = tg.prone = 0;
    } else if (opfor_vk_query_craft_running(vk, st, t)) {
        tg.running = 1;
        tg.prone = 0;
    }
    opfor_vk_ugeo_t a, b;
    opfor_vk_query_geo(st, u, &a);
    opfor_vk_query_geo(st, t, &b);
    /* X: chargers get no cover against defensive fire; nor does an envelope (XII.D) */
    int cov = defensive || craft ? OPFOR_COVER_NONE
                                 : opfor_vk_query_cover(vk, a.c, b.c, OPFOR_RADIUS_FOOT);
    calc_t c;
    calc_start(&c, ACTION[w]);
    calc_set(&c, "actor", opfor_vocab_name(opfor_quality_names, q));
    calc_set(&c, "target", tg.cls);
    calc_set(&c, "cover", opfor_vocab_name(opfor_cover_names, cov));
    calc_inches(&c, "range", gap);
    calc_altitude(&c, lv);
    calc_flag(&c, "target-wounded", craft && opfor_vk_query_craft_damage(st, t) > 0);
    calc_flag(&c, "actor-mounted", mounted);
    calc_flag(&c, "target-mounted", tg.mounted);
    calc_flag(&c, "moving", moving);
    calc_flag(&c, "target-running", tg.running);
    calc_flag(&c, "target-prone", tg.prone);
    opfor_viktoria_result_t res;
    if (calc_run(&c, vk, &res)) {
        int first = o->nrolls;
        take_roll(o, &res, "hit", "to hit");
        take_roll(o, &res, "save", "save");
        take_effect(o, &res, craft);
        fire_dice(o, first);
    }
}

/* To hit and save of u's fire at t (craft: at its envelope) at the gap between them. */
static void fire_rolls(const opfor_vk_ctx_t *vk, const opfor_vk_state_t *st, int u, int t,
                       int moving, int craft, opfor_order_t *o) {
    fire_rolls_at(vk, st, u, t, moving, opfor_vk_query_gap(st, u, t), 0, craft, o);
}

/* To hit and save in melee with u's main weapon against t (charging or not). */
static void melee_rolls(const opfor_vk_ctx_t *vk, const opfor_vk_state_t *st, int u, int t,
                        int charging, opfor_order_t *o) {
    int mounted = 0;
    int q = common_quality(st, u, 0, &mounted);
    if (q < 0)
        return;
    unsigned w = 0;
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (opfor_vk_query_fig_present(st, i))
            w |= st->figures[i].weapons;
    int action = (mounted && (w & OPFOR_W_LANCE)) ? OPFOR_VK_A_ATTACK_LANCE
                 : (w & OPFOR_W_SWORD)            ? OPFOR_VK_A_ATTACK_SWORD
                 : (w & OPFOR_W_BAYONET)          ? OPFOR_VK_A_ATTACK_BAYONET
                                                  : OPFOR_VK_A_ATTACK_DAGGER;
    tgt_t tg;
    read_target(st, t, &tg);
    if (strcmp(tg.cls, "transport") == 0)
        tg.cls = "conscript"; /* melee targets people: the crew of a piece */
    opfor_vk_ugeo_t a, b;
    opfor_vk_query_geo(st, u, &a);
    opfor_vk_query_geo(st, t, &b);
    int cov = opfor_vk_query_cover(vk, a.c, b.c, OPFOR_RADIUS_FOOT);
    calc_t c;
    calc_start(&c, action);
    calc_set(&c, "actor", opfor_vocab_name(opfor_quality_names, q));
    calc_set(&c, "target", tg.cls);
    calc_set(&c, "cover", opfor_vocab_name(opfor_cover_names, cov));
    calc_flag(&c, "actor-mounted", mounted);
    calc_flag(&c, "target-mounted", tg.mounted);
    calc_flag(&c, "charging", charging);
    opfor_viktoria_result_t res;
    if (calc_run(&c, vk, &res)) {
        take_roll(o, &res, "hit", "to hit");
        take_roll(o, &res, "save", "save");
    }
}

/* The move dice for u moving with kind (advance, run or gallop, crawl, charge). engine_x: the
 * X of the engine's own roll for this move (its slowest mover's), or -1 to ask the
 * calculator for the unit's common quality. */
static void move_roll(const opfor_vk_ctx_t *vk, const opfor_vk_state_t *st, int u, int kind,
                      int engine_x, opfor_order_t *o) {
    if (engine_x >= 0) {
        char dice[24];
        if (engine_x > 0)
            setf(dice, sizeof dice, "1d3+%d inches", engine_x);
        else
            setf(dice, sizeof dice, "1d3 inches");
        add_roll(o, "move", dice, 0.0);
        return;
    }
    int mounted = 0;
    int q = common_quality(st, u, 0, &mounted);
    if (q < 0)
        return;
    int action = kind == OPFOR_VK_RUN      ? OPFOR_VK_A_RUN_GALLOP
                 : kind == OPFOR_VK_CRAWL  ? OPFOR_VK_A_CRAWL
                 : kind == OPFOR_VK_CHARGE ? OPFOR_VK_A_CHARGE
                                           : OPFOR_VK_A_ADVANCE;
    calc_t c;
    calc_start(&c, action);
    calc_set(&c, "actor", opfor_vocab_name(opfor_quality_names, q));
    if (action != OPFOR_VK_A_CRAWL)
        calc_flag(&c, "actor-mounted", mounted);
    if (action == OPFOR_VK_A_ADVANCE || action == OPFOR_VK_A_RUN_GALLOP)
        calc_flag(&c, "limbered", (st->units[u].flags & OPFOR_UNIT_LIMBERED) != 0);
    opfor_viktoria_result_t res;
    if (!calc_run(&c, vk, &res))
        return;
    const opfor_viktoria_distance_t *d = opfor_viktoria_result_distance(&res, "move");
    if (!d)
        return;
    char buf[32];
    opfor_dice_format(&d->dice, buf, sizeof buf); /* "1d3+4 inches" */
    add_roll(o, kind == OPFOR_VK_CHARGE ? "charge" : "move", buf, 0.0);
}

static void rolls_for(const opfor_vk_ctx_t *vk, const opfor_vk_state_t *st,
                      const opfor_vk_action_t *a, int move_x, opfor_order_t *o) {
    int u = a->unit, t = a->target < st->nunits ? a->target : -1;
    calc_t c;
    opfor_viktoria_result_t res;
    switch (a->kind) {
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_RUN:
    case OPFOR_VK_CRAWL:
        if (o->has_move)
            move_roll(vk, st, u, a->kind, move_x, o);
        if (t >= 0 && (a->flags & OPFOR_VK_AF_FIRE)) {
            /* fire from where it stands (taking cover in place, or fire first): the engine's
               own count; from farther on, up to every firearm */
            opfor_vk_ugeo_t g;
            opfor_vk_query_geo(st, u, &g);
            opfor_pt_t from = (a->flags & OPFOR_VK_AF_FIRE_VIA) ? a->via : a->dest;
            int here = opfor_dist(from, g.c) < 0.25f;
            count_shooters(vk, st, u, t, !here, 0, o);
            fire_rolls(vk, st, u, t, 1, 0, o);
        }
        break;
    case OPFOR_VK_FIRE:
        if (t >= 0 && (a->flags & OPFOR_VK_AF_AT_CRAFT)) { /* at the balloon itself (XII.D) */
            o->figures = opfor_vk_query_craft_shooters(vk, st, u, t);
            o->figures_how = OPFOR_ORDER_FIG_EXACT;
            fire_rolls(vk, st, u, t, opfor_vk_query_fire_aloft(vk, st, u), 1, o);
        } else if (t >= 0 && a->figure != OPFOR_VK_NO_FIGURE) { /* a named figure first (IX) */
            o->figures = opfor_vk_query_shooters_at(
                vk, st, u, t, a->flags & (OPFOR_VK_AF_AIM_WOUNDED | OPFOR_VK_AF_AIM_GENERAL),
                a->figure);
            o->figures_how = OPFOR_ORDER_FIG_EXACT;
            fire_rolls(vk, st, u, t, opfor_vk_query_fire_aloft(vk, st, u), 0, o);
        } else if (t >= 0) {
            count_shooters(vk, st, u, t, 0,
                           a->flags & (OPFOR_VK_AF_AIM_WOUNDED | OPFOR_VK_AF_AIM_GENERAL), o);
            fire_rolls(vk, st, u, t, opfor_vk_query_fire_aloft(vk, st, u), 0, o);
        }
        break;
    case OPFOR_VK_REACT_FIRE:
        if (st->charge.charger < st->nunits) {
            o->figures = opfor_vk_query_defensive_shooters(vk, st);
            o->figures_how = OPFOR_ORDER_FIG_EXACT;
            /* at the range the first shooter's quality sets (X), the chargers in the open */
            float range = opfor_vk_query_defensive_range(vk, st);
            if (range >= 0.0f)
                fire_rolls_at(vk, st, u, st->charge.charger, 0, range, 1, 0, o);
        }
        break;
    case OPFOR_VK_CHARGE:
        if (t >= 0) {
            move_roll(vk, st, u, OPFOR_VK_CHARGE, -1, o);
            melee_rolls(vk, st, u, t, 1, o);
        }
        break;
    case OPFOR_VK_REACT_COUNTER:
        if (st->charge.charger < st->nunits)
            melee_rolls(vk, st, u, st->charge.charger, 1, o);
        break;
    case OPFOR_VK_REACT_FLEE:
        if (u < st->nunits)
            move_roll(vk, st, u, opfor_vk_flight_kind(a->arc), -1, o);
        break;
    case OPFOR_VK_FIRE_MG:
        if (t >= 0) {
            tgt_t tg;
            read_target(st, t, &tg);
            opfor_vk_ugeo_t ga, gb;
            opfor_vk_query_geo(st, u, &ga);
            opfor_vk_query_geo(st, t, &gb);
            calc_start(&c, OPFOR_VK_A_TEST_VS_MG);
            calc_set(&c, "actor", tg.cls);
            calc_set(&c, "cover",
                     opfor_vocab_name(opfor_cover_names,
                                      opfor_vk_query_cover(vk, ga.c, gb.c, OPFOR_RADIUS_FOOT)));
            calc_inches(&c, "range", opfor_vk_query_gap(st, u, t));
            calc_altitude(&c, opfor_vk_query_levels(st, u, t)); /* XII.D */
            calc_flag(&c, "actor-mounted", tg.mounted);
            calc_flag(&c, "moving", opfor_vk_query_fire_aloft(vk, st, u));
            if (calc_run(&c, vk, &res)) {
                take_roll(o, &res, "pass", "targets pass");
                /* one test per figure in the arc (its own roll each, this target's shown) */
                if (o->nrolls > 0 && strcmp(o->rolls[o->nrolls - 1].label, "targets pass") == 0)
                    o->rolls[o->nrolls - 1].dice =
                        opfor_vk_query_mg_tests(vk, st, u, a->arc, a->dest);
            }
        }
        break;
    case OPFOR_VK_FIRE_ARTILLERY: {
        int gun = opfor_vk_query_gun_figure(st, u);
        if (gun >= 0) {
            calc_start(&c, OPFOR_VK_A_FIRE_ARTILLERY);
            float dist = opfor_dist(st->figures[gun].pos, a->dest);
            calc_inches(&c, "range", dist);
            calc_altitude(&c, opfor_vk_query_altitude(st, u)); /* fired from the air (XII.D) */
            if (calc_run(&c, vk, &res))
                take_roll(o, &res, "on_target", "on target");
        }
        break;
    }
    case OPFOR_VK_CALL_SUPPORT:
        calc_start(&c, OPFOR_VK_A_CALL_SUPPORT_FIRE);
        if (calc_run(&c, vk, &res)) {
            take_roll(o, &res, "call", "call");
            take_roll(o, &res, "on_target", "on target");
        }
        break;
    case OPFOR_VK_THROW_BOMB:
        if (t >= 0) {
            int q = common_quality(st, u, OPFOR_W_BOMBS, NULL);
            calc_start(&c, OPFOR_VK_A_THROW_BOMB);
            if (q >= 0)
                calc_set(&c, "actor", opfor_vocab_name(opfor_quality_names, q));
            calc_inches(&c, "range", opfor_vk_query_gap(st, u, t));
            if (calc_run(&c, vk, &res))
                take_roll(o, &res, "on_target", "on target");
        }
        break;
    case OPFOR_VK_RALLY: {
        int q = common_quality(st, u, 0, NULL);
        calc_start(&c, OPFOR_VK_A_RALLY);
        if (q >= 0)
            calc_set(&c, "actor", opfor_vocab_name(opfor_quality_names, q));
        if (calc_run(&c, vk, &res))
            take_roll(o, &res, "pass", "rally");
        break;
    }
    case OPFOR_VK_HEAL: {
        int q = common_quality(st, u, 0, NULL);
        calc_start(&c, OPFOR_VK_A_HEAL);
        if (q >= 0)
            calc_set(&c, "actor", opfor_vocab_name(opfor_quality_names, q));
        if (calc_run(&c, vk, &res))
            take_roll(o, &res, "heal", "heal");
        break;
    }
    default:
        break;
    }
}

/* ---------------------------------------------------------------- words */

/* The verb of fire at a named figure (IX: the player chooses each firer's target), the figure
 * called by its most telling skill (the list names these; any other figure is "the figure"). */
static const char *named_verb(const opfor_figure_t *f) {
    static const struct {
        unsigned skill;
        const char *verb;
    } BY[] = {
        {OPFOR_S_MESMERIST, "fire at the mesmerist of"},
        {OPFOR_S_SIGNALLER, "fire at the signaller of"},
        {OPFOR_S_SHARPSHOOTER, "fire at the sharpshooter of"},
        {OPFOR_S_MEDIC, "fire at the medic of"},
        {OPFOR_S_COLOURS, "fire at the colour bearer of"},
        {OPFOR_S_MUSICIAN, "fire at the musician of"},
        {OPFOR_S_GENERAL, "fire at the general of"},
        {OPFOR_S_LEADER, "fire at the leader of"},
    };
    for (size_t k = 0; k < sizeof BY / sizeof BY[0]; k++)
        if (f->skills & BY[k].skill)
            return BY[k].verb;
    return "fire at the figure of";
}

static const char *verb_of(const opfor_vk_state_t *st, const opfor_vk_action_t *a, int prone_here) {
    int u = a->unit;
    int mounted = 0;
    if (u < st->nunits)
        common_quality(st, u, 0, &mounted);
    switch (a->kind) {
    case OPFOR_VK_SELECT_UNIT:
        return "activate";
    case OPFOR_VK_STAND:
        return "stand";
    case OPFOR_VK_RALLY:
        return "rally";
    case OPFOR_VK_LOAD:
        return "reload";
    case OPFOR_VK_ADVANCE:
        if (a->arc == OPFOR_VK_AT_START && (a->flags & OPFOR_VK_AF_MOUNT))
            return "mount and advance";
        if (a->arc == OPFOR_VK_AT_START && (a->flags & OPFOR_VK_AF_DISMOUNT))
            return "dismount and advance on foot";
        return (a->flags & OPFOR_VK_AF_FIRE) ? "advance firing" : "advance";
    case OPFOR_VK_CRAWL:
        if (a->flags & OPFOR_VK_AF_FIRE)
            return prone_here ? "take cover and fire" : "crawl firing";
        return prone_here ? "take cover where it stands" : "crawl";
    case OPFOR_VK_RUN:
        if (a->arc == OPFOR_VK_AT_START && (a->flags & OPFOR_VK_AF_MOUNT))
            return "mount and gallop";
        if (a->arc == OPFOR_VK_AT_START && (a->flags & OPFOR_VK_AF_DISMOUNT))
            return "dismount and run";
        return mounted ? "gallop" : "run";
    case OPFOR_VK_CHARGE:
        return "charge";
    case OPFOR_VK_FIRE:
        if (a->figure < st->nfigures) /* a named figure (IX): by what it does */
            return named_verb(&st->figures[a->figure]);
        return (a->flags & OPFOR_VK_AF_AIM_WOUNDED)   ? "fire at the wounded of"
               : (a->flags & OPFOR_VK_AF_AIM_GENERAL) ? "fire at the leaders of"
               : (a->flags & OPFOR_VK_AF_AT_CRAFT)    ? "fire at the balloon of"
                                                      : "fire at";
    case OPFOR_VK_FIRE_MG:
        return "fire the MG at"; /* the arc is worded after the target */
    case OPFOR_VK_FIRE_ARTILLERY:
        return (a->flags & OPFOR_VK_AF_VIA) ? "fire its three shells, the first at"
                                            : "fire the gun at";
    case OPFOR_VK_CALL_SUPPORT:
        return "call supporting fire on";
    case OPFOR_VK_THROW_BOMB:
        return "throw bombs at";
    case OPFOR_VK_HEAL:
        return "bind the wounded";
    case OPFOR_VK_MESMERIZE:
        return "mesmerise a figure of";
    case OPFOR_VK_LIMBER:
        return "limber the gun";
    case OPFOR_VK_UNLIMBER:
        return "unlimber the gun";
    case OPFOR_VK_MOUNT:
        return "mount";
    case OPFOR_VK_DISMOUNT:
        return "dismount";
    case OPFOR_VK_SPLIT:
        return a->figure == OPFOR_VK_NO_FIGURE ? "split into two units" : "split off";
    case OPFOR_VK_MERGE:
        return "join";
    case OPFOR_VK_TO_REAR:
        return (a->flags & OPFOR_VK_AF_RETURN) ? "call back the bound wounded"
                                               : "send the wounded to the rear";
    case OPFOR_VK_FIGHT:
        return "fight the melee";
    case OPFOR_VK_REACT_STAND:
        return "stand and receive the charge";
    case OPFOR_VK_REACT_FIRE:
        return "fire at the chargers";
    case OPFOR_VK_REACT_FLEE: /* X: a crawl, run/gallop or advance away */
        switch (opfor_vk_flight_kind(a->arc)) {
        case OPFOR_VK_CRAWL:
            return "crawl away from the charge (go prone)";
        case OPFOR_VK_ADVANCE:
            return "advance away from the charge";
        default:
            return mounted ? "gallop away from the charge" : "run away from the charge";
        }
    case OPFOR_VK_REACT_COUNTER:
        return "counter-charge";
    case OPFOR_VK_DRIVE:
        if (a->flags & OPFOR_VK_AF_BOMB)
            return "fly over and drop bombs on"; /* from the point beneath, 6 in (XII.D) */
        return opfor_vk_kind_name(a->kind);
    case OPFOR_VK_CONTROL:
        return (a->flags & OPFOR_VK_AF_MOVE)     ? "walk the mesmerised figure"
               : (a->flags & OPFOR_VK_AF_STRIKE) ? "make him strike a fellow of"
               : (a->flags & OPFOR_VK_AF_SELF)   ? "make him turn his weapon on himself"
               : a->target != OPFOR_VK_NONE      ? "make the mesmerised figure fire at"
                                                 : "hold the mesmerised figure";
    default:
        return opfor_vk_kind_name(a->kind);
    }
}

/* How the table carries out an order whose verb alone does not say it, or "", in buf. */
static const char *how_words(const opfor_vk_action_t *a, char *buf, size_t n) {
    switch (a->kind) {
    case OPFOR_VK_SPLIT: /* V.A */
        if (a->figure == OPFOR_VK_NO_FIGURE)
            return "";
        setf(buf, n,
             " the %d figures nearest x %.1f y %.1f as a new unit under the leader among them, "
             "to wait for its own initiative; the rest act on",
             a->figure, (double)a->dest.x, (double)a->dest.y);
        return buf;
    case OPFOR_VK_HEAL: /* VI; IX for the men at the rear */
        return " (medics go up to 6 in to the nearest wounded friend and roll only on reaching "
               "him; with none near, a medic at the own edge tends a man at the rear)";
    case OPFOR_VK_TO_REAR: /* IX: during the unit's action, which it then takes */
        return (a->flags & OPFOR_VK_AF_RETURN)
                   ? " (each takes his place beside a fellow and acts with the unit); the unit "
                     "then takes its action"
                   : " (all but the leaders, leaving at least one figure); the unit then takes "
                     "its action";
    default:
        return "";
    }
}

/* Distance from p to feature f (0 inside an area). */
static float feature_dist(const opfor_terrain_feature_t *f, opfor_pt_t p) {
    if (f->shape == OPFOR_SHAPE_AREA)
        return opfor_poly_contains(f->pts, f->npts, p) ? 0.0f
                                                       : opfor_poly_dist_pt(f->pts, f->npts, p);
    float d = opfor_polyline_dist_pt(f->pts, f->npts, p) - 0.5f * f->width;
    return d < 0.0f ? 0.0f : d;
}

/* The named landmark nearest to p: an objective (distance to its edge) or a terrain
 * feature. Returns the distance (large when none), name in *name. */
static float landmark(const opfor_scenario_t *sc, opfor_pt_t p, const char **name, int *inside) {
    float best = 1e30f;
    *name = NULL;
    *inside = 0;
    for (int o = 0; o < sc->nobjectives; o++) {
        const opfor_objective_t *ob = &sc->objectives[o];
        if (!ob->name[0])
            continue;
        float d = opfor_dist(p, ob->pos) - ob->radius;
        if (d < 0.0f)
            d = 0.0f;
        if (d < best) {
            best = d;
            *name = ob->name;
            *inside = d <= 0.0f;
        }
    }
    for (int i = 0; i < sc->table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &sc->table.features[i];
        if (!f->name[0])
            continue;
        float d = feature_dist(f, p);
        if (d < best - 0.5f) { /* objectives win ties: they are what the players watch */
            best = d;
            *name = f->name;
            *inside = d <= 0.0f && f->shape == OPFOR_SHAPE_AREA;
        }
    }
    return best;
}

/* 1 when p is inside the landmark called name: its area on the table (a building, a wood)
 * when it has one, since that is what the players see, else an objective's circle. */
static int inside_named(const opfor_scenario_t *sc, const char *name, opfor_pt_t p) {
    int area = 0;
    for (int i = 0; i < sc->table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &sc->table.features[i];
        if (f->shape != OPFOR_SHAPE_AREA || strcmp(f->name, name) != 0)
            continue;
        if (opfor_poly_contains(f->pts, f->npts, p))
            return 1;
        area = 1;
    }
    for (int o = 0; o < sc->nobjectives && !area; o++)
        if (strcmp(sc->objectives[o].name, name) == 0 &&
            opfor_dist(p, sc->objectives[o].pos) <= sc->objectives[o].radius)
            return 1;
    return 0;
}

/* ---------------------------------------------------------------- building */

/* What stops a move short (r from opfor_vk_query_move_result), in words for the table:
 * "Jager Picket is in the way", "the Farmhouse is closed to riders", "the Mill pond bars the
 * way", "the table edge". */
static void limit_text(const opfor_vk_ctx_t *vk, const opfor_vk_state_t *st, int u,
                       const opfor_vk_move_result_t *r, char *buf, size_t n) {
    const opfor_table_t *t = opfor_vk_query_table(vk);
    if (r->why == OPFOR_VK_STOP_UNIT && r->unit >= 0 && r->unit < st->nunits) {
        setf(buf, n, "%s is in the way", st->units[r->unit].name);
    } else if (r->why == OPFOR_VK_STOP_EDGE) {
        setf(buf, n, "the table edge");
    } else if (r->why == OPFOR_VK_STOP_GROUND && r->feature >= 0 && r->feature < t->nfeatures) {
        const opfor_terrain_feature_t *f = &t->features[r->feature];
        const char *nm = f->name[0] ? f->name : "ground";
        if (f->kind != OPFOR_TK_IMPASSABLE && (f->flags & OPFOR_TF_NO_MOUNTED)) {
            int riders = 0;
            const opfor_unit_t *un = &st->units[u];
            for (int i = un->first; i < un->first + un->count; i++)
                riders |= opfor_vk_query_fig_present(st, i) &&
                          (st->figures[i].flags & OPFOR_FIG_MOUNTED) != 0;
            setf(buf, n, "the %s is closed to %s", nm, riders ? "riders" : "guns and wagons");
        } else {
            setf(buf, n, "the %s bars the way", nm);
        }
    } else {
        setf(buf, n, "the ground bars the way");
    }
}

static void fill_action(const opfor_game_t *g, const void *state, const opfor_action_t *ga,
                        opfor_order_t *o) {
    const opfor_vk_rs_state_t *rs = state;
    const opfor_vk_state_t *st = &rs->vk;
    const opfor_vk_ctx_t *vk = opfor_vk_rs_engine(g->ctx);
    const opfor_scenario_t *sc = opfor_vk_ctx_scenario(vk);
    opfor_vk_action_t a;
    opfor_vk_rs_action_to_engine(ga, &a);
    int cur = opfor_vk_current(vk, st);
    o->side = cur;
    o->kind = a.kind;
    o->unit = a.unit < st->nunits ? a.unit : -1;
    if (a.kind >= OPFOR_VK_REACT_STAND && a.kind <= OPFOR_VK_REACT_COUNTER)
        o->unit = st->charge.target < st->nunits ? st->charge.target : o->unit;
    o->target = a.target < st->nunits ? a.target : -1;
    if ((a.kind == OPFOR_VK_REACT_FIRE || a.kind == OPFOR_VK_REACT_COUNTER) &&
        st->charge.charger < st->nunits)
        o->target = st->charge.charger;
    if (o->unit >= 0)
        copy(o->unit_name, sizeof o->unit_name, st->units[o->unit].name);
    if (o->target >= 0) {
        copy(o->target_name, sizeof o->target_name, st->units[o->target].name);
        if (o->unit >= 0)
            o->target_gap = opfor_vk_query_gap(st, o->unit, o->target);
    }
    opfor_heur_score_t score;
    memset(&score, 0, sizeof score);
    opfor_heur_score(NULL, g, state, ga, &score);
    o->total = score.total;
    o->nterms = OPFOR_HT_COUNT < OPFOR_ORDER_MAX_TERMS ? OPFOR_HT_COUNT : OPFOR_ORDER_MAX_TERMS;
    for (int i = 0; i < o->nterms; i++) {
        copy(o->terms[i].name, sizeof o->terms[i].name, opfor_heur_term_names[i].name);
        copy(o->terms[i].label, sizeof o->terms[i].label, opfor_heur_term_label(i));
        o->terms[i].value = score.term[i];
    }

    /* movement: where it stops, which way, near what; the end point is the engine's own at
       the mean roll (d3 = 2), and what stops it short even at the best roll (d3 = 3) is said */
    int prone_here = 0, barred = 0, move_x = -1;
    char where[200] = "";
    if (o->unit >= 0 &&
        (a.kind == OPFOR_VK_ADVANCE || a.kind == OPFOR_VK_RUN || a.kind == OPFOR_VK_CRAWL)) {
        opfor_vk_ugeo_t geo;
        opfor_vk_query_geo(st, o->unit, &geo);
        float d = opfor_dist(geo.c, a.dest);
        opfor_pt_t stop = geo.c;
        float go = 0.0f;
        opfor_vk_move_result_t mean, best;
        int known = opfor_vk_query_move_result(vk, st, &a, 2, &mean) == 0 &&
                    opfor_vk_query_move_result(vk, st, &a, 3, &best) == 0;
        if (known && best.allowance >= 3.0f)
            move_x = (int)(best.allowance - 3.0f + 0.5f);
        if (a.kind == OPFOR_VK_CRAWL && d < 0.5f) {
            prone_here = 1;
        } else if (d >= 0.25f && known) {
            go = mean.moved;
            stop = mean.to;
            if (best.why == OPFOR_VK_STOP_GROUND || best.why == OPFOR_VK_STOP_UNIT ||
                best.why == OPFOR_VK_STOP_EDGE) {
                o->has_limit = 1;
                o->limit_x = best.to.x;
                o->limit_y = best.to.y;
                limit_text(vk, st, o->unit, &best, o->limit_why, sizeof o->limit_why);
            }
            barred = best.moved < 0.25f;
        }
        if (barred) {
            opfor_compass_t bd = opfor_compass_nearest((opfor_table_north_t)sc->table.north,
                                                       opfor_vsub(a.dest, geo.c));
            /* no ": " in a move's words: the orders card reads the scores after the first */
            setf(where, sizeof where, " %s, but it stays where it is (%s)",
                 opfor_vocab_name(opfor_compass_names, bd),
                 o->limit_why[0] ? o->limit_why : "it cannot move that way");
        } else if (!prone_here && d >= 0.25f && known) {
            o->has_move = 1;
            o->move_in = round_half(go);
            opfor_vk_move_result_t low;
            if (opfor_vk_query_move_result(vk, st, &a, 1, &low) == 0) {
                const opfor_vk_move_result_t *by[3] = {&low, &mean, &best};
                o->nstops = 3;
                for (int k = 0; k < 3; k++) {
                    o->stops_x[k] = by[k]->to.x;
                    o->stops_y[k] = by[k]->to.y;
                }
            }
            o->x = stop.x;
            o->y = stop.y;
            opfor_compass_t dir = opfor_compass_nearest((opfor_table_north_t)sc->table.north,
                                                        opfor_vsub(a.dest, geo.c));
            copy(o->direction, sizeof o->direction, opfor_vocab_name(opfor_compass_names, dir));
            /* the landmark is the one nearest where it stops (within 15 in, else none), and
               its relation is true of that end point: "into" only when it ends inside */
            const char *lm = NULL;
            int inside = 0;
            float ld = landmark(sc, stop, &lm, &inside);
            if (lm && ld > 15.0f)
                lm = NULL;
            if (lm) {
                inside = inside_named(sc, lm, stop);
                int began_in = inside_named(sc, lm, geo.c);
                const char *rel = "near";
                if (inside && !began_in)
                    rel = "into";
                else if (inside)
                    rel = "within";
                else if (began_in)
                    rel = "out of";
                else {
                    /* closer to the landmark than where it started: toward */
                    float d0 = 1e30f, d1 = 1e30f;
                    for (int k = 0; k < sc->nobjectives; k++)
                        if (strcmp(sc->objectives[k].name, lm) == 0) {
                            d0 = opfor_dist(geo.c, sc->objectives[k].pos);
                            d1 = opfor_dist(stop, sc->objectives[k].pos);
                        }
                    for (int k = 0; k < sc->table.nfeatures && d0 >= 1e29f; k++)
                        if (strcmp(sc->table.features[k].name, lm) == 0) {
                            d0 = feature_dist(&sc->table.features[k], geo.c);
                            d1 = feature_dist(&sc->table.features[k], stop);
                        }
                    if (d1 < d0 - 0.5f)
                        rel = "toward";
                    else if (d1 > d0 + 0.5f)
                        rel = "away from";
                }
                copy(o->landmark, sizeof o->landmark, lm);
                copy(o->landmark_rel, sizeof o->landmark_rel, rel);
            }
            if (o->landmark[0])
                setf(where, sizeof where, " %g in %s %s %s, to x %.1f y %.1f", (double)o->move_in,
                     o->direction, o->landmark_rel, o->landmark, (double)o->x, (double)o->y);
            else
                setf(where, sizeof where, " %g in %s, to x %.1f y %.1f", (double)o->move_in,
                     o->direction, (double)o->x, (double)o->y);
            /* a way round closed ground: the turn, when the best roll reaches it */
            if ((a.flags & OPFOR_VK_AF_VIA) && !(a.flags & OPFOR_VK_AF_FIRE_VIA) &&
                best.moved >= opfor_dist(geo.c, a.via) - 0.25f) {
                size_t wl = strlen(where);
                o->has_via = 1;
                o->via_x = a.via.x;
                o->via_y = a.via.y;
                opfor_text_appendf(where, sizeof where, &wl, " by way of x %.1f y %.1f",
                                   (double)a.via.x, (double)a.via.y);
            }
            if (o->has_limit) {
                /* stopped there already at the mean roll: the end point is the limit */
                size_t wl = strlen(where);
                if (opfor_dist(stop, opfor_pt(o->limit_x, o->limit_y)) < 0.05f)
                    opfor_text_appendf(where, sizeof where, &wl, ", no further (%s)", o->limit_why);
                else
                    opfor_text_appendf(where, sizeof where, &wl,
                                       ", no further than x %.1f y %.1f (%s)", (double)o->limit_x,
                                       (double)o->limit_y, o->limit_why);
            }
        }
    }
    copy(o->verb, sizeof o->verb, verb_of(st, &a, prone_here));
    rolls_for(vk, st, &a, move_x, o);

    /* the sentence */
    char tgt[128] = "", rolls[160] = "", mv[48] = "", how[160] = "";
    if (o->target >= 0 && a.kind == OPFOR_VK_FIRE && a.figure < st->nfigures)
        setf(tgt, sizeof tgt, " %s (the figure at x %.1f y %.1f), %.0f in away", o->target_name,
             (double)st->figures[a.figure].pos.x, (double)st->figures[a.figure].pos.y,
             (double)o->target_gap);
    else if (o->target >= 0 && a.kind == OPFOR_VK_FIRE_ARTILLERY) /* the fall of shot (IX) */
        setf(tgt, sizeof tgt, " %s (aim at x %.1f y %.1f), %.0f in away", o->target_name,
             (double)a.dest.x, (double)a.dest.y, (double)o->target_gap);
    else if (o->target >= 0 && a.kind != OPFOR_VK_MERGE && a.kind != OPFOR_VK_CONTROL)
        setf(tgt, sizeof tgt, " %s, %.0f in away", o->target_name, (double)o->target_gap);
    else if (o->target >= 0)
        setf(tgt, sizeof tgt, " %s", o->target_name);
    int moving_fire =
        (a.kind == OPFOR_VK_ADVANCE || a.kind == OPFOR_VK_CRAWL) && (a.flags & OPFOR_VK_AF_FIRE);
    if (moving_fire && o->target >= 0)
        setf(tgt, sizeof tgt, " at %s", o->target_name);
    /* an MG sprays an arc centred on its barrel (IX, Machineguns): 45 or 90 degrees wide, or
       the 45 degrees fired twice, when every figure in it tests twice */
    const char *arc = a.kind != OPFOR_VK_FIRE_MG     ? ""
                      : a.arc == OPFOR_ARC_DOUBLE_45 ? ", over a 45-degree arc fired twice (each "
                                                       "figure in it tests twice)"
                      : a.arc == OPFOR_ARC_90        ? ", over a 90-degree arc"
                                                     : ", over a 45-degree arc";
    /* a walker's shots split between aim points, in any direction (XII.E) */
    char aims[96] = "";
    if (a.kind == OPFOR_VK_FIRE_ARTILLERY && (a.flags & OPFOR_VK_AF_VIA)) {
        if (a.figure != OPFOR_VK_NO_FIGURE && a.figure < st->nfigures)
            setf(aims, sizeof aims, ", the second at x %.0f y %.0f, the third at x %.0f y %.0f",
                 (double)a.via.x, (double)a.via.y, (double)st->figures[a.figure].pos.x,
                 (double)st->figures[a.figure].pos.y);
        else
            setf(aims, sizeof aims, ", the other two at x %.0f y %.0f", (double)a.via.x,
                 (double)a.via.y);
        arc = aims;
    }
    size_t rl = 0;
    if (o->figures_how == OPFOR_ORDER_FIG_EXACT && o->figures == 0)
        opfor_text_appendf(rolls, sizeof rolls, &rl, ": no figure can fire");
    else if (o->figures_how != OPFOR_ORDER_FIG_NONE)
        opfor_text_appendf(rolls, sizeof rolls, &rl, ": %s%d figure%s fire%s",
                           o->figures_how == OPFOR_ORDER_FIG_UPTO ? "up to " : "", o->figures,
                           o->figures == 1 ? "" : "s", o->figures == 1 ? "s" : "");
    for (int i = 0; i < o->nrolls; i++) {
        const opfor_order_roll_t *r = &o->rolls[i];
        if (strcmp(r->label, "move") == 0 || strcmp(r->label, "charge") == 0) {
            setf(mv, sizeof mv, " (%s %s)", r->label, r->need);
            continue;
        }
        opfor_text_appendf(rolls, sizeof rolls, &rl, "%s%s %s", rl ? ", " : ": ", r->label,
                           r->need);
        if (r->dice > 0)
            opfor_text_appendf(rolls, sizeof rolls, &rl, " on %s%d %s",
                               o->figures_how == OPFOR_ORDER_FIG_UPTO ? "up to " : "", r->dice,
                               r->dice == 1 ? "die" : "dice");
        else if (r->per[0])
            opfor_text_appendf(rolls, sizeof rolls, &rl, " per %s", r->per);
    }
    const char *mover = a.kind == OPFOR_VK_CRAWL ? "crawl" : "advance";
    /* moving fire at a point of the move (IX): first, where it stands; or at the waypoint */
    int fire_first = 0;
    if (moving_fire && (a.flags & OPFOR_VK_AF_FIRE_VIA) && o->unit >= 0) {
        opfor_vk_ugeo_t g0;
        opfor_vk_query_geo(st, o->unit, &g0);
        fire_first = opfor_dist(g0.c, a.via) < 0.25f ? 1 : 2;
    }
    /* a remount or dismount where the move ends (VIII), said after where it ends */
    const char *then = a.kind == OPFOR_VK_CRAWL || a.arc != OPFOR_VK_AT_END ? ""
                       : (a.flags & OPFOR_VK_AF_MOUNT)                      ? ", then mount"
                       : (a.flags & OPFOR_VK_AF_DISMOUNT)                   ? ", then dismount"
                                                                            : "";
    if (a.kind == OPFOR_VK_CALL_SUPPORT && o->unit >= 0 &&
        opfor_vk_query_support_team(vk, st->units[o->unit].side) > 1)
        setf(how, sizeof how, " (its team of %d signallers makes the call)",
             opfor_vk_query_support_team(vk, st->units[o->unit].side));
    if (moving_fire && prone_here)
        setf(o->sentence, sizeof o->sentence, "%s: take cover where it stands and fire%s%s.",
             o->unit_name[0] ? o->unit_name : "?", tgt, rolls);
    else if (fire_first == 1)
        setf(o->sentence, sizeof o->sentence, "%s: fire first%s, as moving fire%s; then %s%s%s%s.",
             o->unit_name[0] ? o->unit_name : "?", tgt, rolls, mover, where, mv, then);
    else if (fire_first == 2)
        setf(o->sentence, sizeof o->sentence, "%s: %s%s%s%s, firing%s on reaching x %.1f y %.1f%s.",
             o->unit_name[0] ? o->unit_name : "?", mover, where, mv, then, tgt, (double)a.via.x,
             (double)a.via.y, rolls);
    else if (moving_fire)
        setf(o->sentence, sizeof o->sentence, "%s: %s%s%s%s, firing%s%s.",
             o->unit_name[0] ? o->unit_name : "?", mover, where, mv, then, tgt, rolls);
    else if (o->has_move || barred)
        setf(o->sentence, sizeof o->sentence, "%s: %s%s%s%s%s.",
             o->unit_name[0] ? o->unit_name : "?", o->verb, where, mv, then, rolls);
    else if (a.kind == OPFOR_VK_SELECT_UNIT || o->unit < 0)
        setf(o->sentence, sizeof o->sentence, "%s%s%s.", o->unit_name[0] ? o->unit_name : "",
             o->unit_name[0] ? ": " : "", o->verb);
    else
        setf(o->sentence, sizeof o->sentence, "%s: %s%s%s%s%s%s%s.", o->unit_name, o->verb, tgt,
             arc, prone_here ? " (go prone)" : "", mv,
             how[0] ? how : how_words(&a, how, sizeof how), rolls);
    /* X steps 8-9: after the melee the unit's loose figures advance, unless it holds */
    if ((a.flags & OPFOR_VK_AF_HOLD) &&
        (a.kind == OPFOR_VK_CHARGE ||
         (a.kind >= OPFOR_VK_REACT_STAND && a.kind <= OPFOR_VK_REACT_COUNTER))) {
        size_t sl = strlen(o->sentence);
        opfor_text_appendf(o->sentence, sizeof o->sentence, &sl,
                           " After the melee, hold (no follow-up advance).");
    }
}

int opfor_vk_ai_inert(const void *ctx, const void *state, const opfor_action_t *ga) {
    if (!ctx || !state || !ga)
        return OPFOR_EINVAL;
    opfor_vk_action_t a;
    opfor_vk_rs_action_to_engine(ga, &a);
    return opfor_vk_query_inert(opfor_vk_rs_engine(ctx), &((const opfor_vk_rs_state_t *)state)->vk,
                                &a);
}

int opfor_vk_ai_order(const void *ctx, const void *state, const opfor_action_t *a,
                      opfor_order_t *out) {
    if (!ctx || !state || !a || !out)
        return OPFOR_EINVAL;
    opfor_game_t g;
    if (opfor_game_init(&g, &opfor_viktoria_ruleset, ctx, 0) != 0)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    out->unit = out->target = -1;
    if (opfor_game_current(&g, state) < 0)
        return OPFOR_EINVAL;
    fill_action(&g, state, a, out);
    return 0;
}
