/* rulesets/viktoria/engine_tab.c — the engine's chance tables, filled from the calculator.
 *
 * Every chance the engine rolls comes from opfor_viktoria_calc: at context creation this file
 * asks the calculator once for each combination of discrete fields the scenario can reach
 * (qualities present, mounted only when some figure has a horse, ...) and keeps the rendered
 * rolls in flat arrays, so apply() is index arithmetic plus dice. Combinations the scenario
 * cannot reach are left as "never" and flagged not filled (ok == 0), which tests check.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"

/* What the scenario can reach. */
typedef struct reach {
    unsigned fire_q[3]; /* per firearm: qualities of figures carrying it (bits) */
    unsigned person_q;  /* qualities of person figures */
    unsigned target_c;  /* classes that may be fired at (qualities + transport) */
    unsigned test_c;    /* classes that may test versus MG / blast */
    int horse;          /* some figure has a horse */
    int sharpshooter;   /* some figure is a sharpshooter */
    unsigned levels;    /* weather levels reachable (bits 1..5) */
} reach_t;

static void scan(const opfor_vk_ctx_t *ctx, reach_t *r) {
    const opfor_scenario_t *sc = &ctx->sc;
    memset(r, 0, sizeof *r);
    for (int i = 0; i < sc->nfigures; i++) {
        const opfor_figure_t *f = &sc->figures[i];
        unsigned q = 1u << f->quality;
        if (f->flags & OPFOR_FIG_EQUIPMENT) {
            r->test_c |= 1u << OPFOR_VK_TRANSPORT;
            continue;
        }
        r->person_q |= q;
        r->target_c |= q;
        r->test_c |= q;
        if (f->weapons & OPFOR_W_PISTOL)
            r->fire_q[0] |= q;
        if (f->weapons & OPFOR_W_CARBINE)
            r->fire_q[1] |= q;
        if (f->weapons & OPFOR_W_RIFLE)
            r->fire_q[2] |= q;
        if (f->flags & (OPFOR_FIG_HORSE | OPFOR_FIG_MOUNTED))
            r->horse = 1;
        if (f->skills & OPFOR_S_SHARPSHOOTER)
            r->sharpshooter = 1;
    }
    /* Walkers and automatons are fired on as transport (XII.A, XII.E). */
    for (int u = 0; u < sc->nunits; u++) {
        int t = sc->units[u].type;
        /* a vehicle is targeted at its crew's quality (XII.C, vk_target_class): every
           quality, as vehicles a mode brings on may have any */
        if (ctx->opt.specials && t == OPFOR_UT_VEHICLE) {
            r->target_c |= (1u << OPFOR_Q_COUNT) - 1u;
            r->test_c |= (1u << OPFOR_Q_COUNT) - 1u;
        }
        /* a balloon's or dirigible's envelope is fired on as a Civilian, a dirigible's hardened
           shell at the scenario's quality (XII.D) */
        if (ctx->opt.specials && (t == OPFOR_UT_BALLOON || t == OPFOR_UT_DIRIGIBLE)) {
            r->target_c |= 1u << vk_envelope_class(ctx, u);
            r->test_c |= 1u << vk_envelope_class(ctx, u);
        }
        if (t == OPFOR_UT_WALKER || t == OPFOR_UT_AUTOMATON || t == OPFOR_UT_VEHICLE ||
            t == OPFOR_UT_BALLOON || t == OPFOR_UT_DIRIGIBLE || t == OPFOR_UT_AEROPLANE) {
            r->target_c |= 1u << OPFOR_VK_TRANSPORT;
            r->test_c |= 1u << OPFOR_VK_TRANSPORT;
        }
    }
    int lv = sc->weather.level < 1 ? 1 : sc->weather.level > 5 ? 5 : sc->weather.level;
    /* every level when it may change (events) or is rolled at the start (`random`, XIII) */
    r->levels = ctx->opt.weather_events || sc->weather.level == 0 ? 0x3Eu : 1u << lv;
}

static void to_roll(const opfor_viktoria_named_roll_t *n, vk_roll_t *out) {
    if (!n) {
        memset(out, 0, sizeof *out);
        out->ok = 1; /* the calculator gave no such roll: it cannot succeed */
        return;
    }
    out->kind = (uint8_t)n->roll.kind;
    out->need = (uint8_t)(n->roll.need < 0 ? 0 : n->roll.need);
    out->need2 = (uint8_t)(n->roll.need2 < 0 ? 0 : n->roll.need2);
    out->ok = 1;
}

/* Reads the effect table of a result: the first face that wounds and the first that kills
 * (7 = never). */
static void to_effect(const opfor_viktoria_result_t *res, vk_effect_t *e) {
    const opfor_viktoria_table_t *t = opfor_viktoria_result_table(res, "effect");
    int wound = 7, kill = 7;
    for (int i = 0; t && i < t->n; i++) {
        const char *x = t->e[i].text;
        if (!x)
            continue;
        if (strcmp(x, "killed") == 0 || strcmp(x, "destroyed") == 0)
            kill = t->e[i].lo;
        else if (strcmp(x, "wounded") == 0 || strcmp(x, "damaged") == 0)
            wound = t->e[i].lo;
    }
    if (wound > kill)
        wound = kill;
    e->wound_from = (uint8_t)wound;
    e->kill_from = (uint8_t)kill;
}

typedef struct caller {
    const opfor_viktoria_model_t *m;
    opfor_viktoria_result_t res;
    opfor_viktoria_req_t req;
    int calls;
} caller_t;

static void begin(caller_t *c, int action) {
    opfor_viktoria_req_init(&c->req, action);
}
static int run(caller_t *c) {
    c->calls++;
    return opfor_viktoria_calc(c->m, &c->req, &c->res, NULL);
}
static const opfor_viktoria_named_roll_t *roll_of(caller_t *c, const char *name) {
    return opfor_viktoria_result_roll(&c->res, name);
}

#define V(f) c->req.v[OPFOR_VK_F_##f]

/* Reads the "on_target" roll of the last result into on and its deviation dice, when it has
 * them, into dev. */
static void to_aim(caller_t *c, vk_roll_t *on, opfor_dice_t *dev) {
    to_roll(roll_of(c, "on_target"), on);
    const opfor_viktoria_distance_t *d = opfor_viktoria_result_distance(&c->res, "deviation");
    if (d)
        *dev = d->dice;
}

/* Runs the request and reads its "pass" roll into p; returns 1, or 0 when the calculator
 * refuses it (no test to take: p always passes). */
static int run_pass(caller_t *c, vk_roll_t *p) {
    if (run(c) != 0) {
        memset(p, 0, sizeof *p);
        p->kind = OPFOR_ROLL_ALWAYS;
        p->ok = 1;
        return 0;
    }
    to_roll(roll_of(c, "pass"), p);
    return 1;
}

static void fill_fire(caller_t *c, vk_tabs_t *t, const reach_t *r) {
    for (int w = 0; w < 3; w++) {
        if (!r->fire_q[w])
            continue;
        begin(c, OPFOR_VK_A_FIRE_PISTOL + w);
        for (int aq = 0; aq < VK_NQ; aq++) {
            if (!(r->fire_q[w] >> aq & 1))
                continue;
            for (int tc = 0; tc < VK_NC; tc++) {
                if (!(r->target_c >> tc & 1))
                    continue;
                for (int cov = 0; cov < VK_NCOV; cov++)
                    for (int br = 0; br < VK_NB; br++)
                        for (int bits = 0; bits < 64; bits++) {
                            int am = bits >> 5 & 1, ss = bits >> 4 & 1, aw = bits >> 3 & 1,
                                mv = bits >> 2 & 1, tw = bits >> 1 & 1, tm = bits & 1;
                            if ((am || tm) && !r->horse)
                                continue;
                            if (ss && !r->sharpshooter)
                                continue;
                            for (int post = 0; post < VK_POST_COUNT; post++) {
                                V(ACTOR) = aq;
                                V(TARGET) = tc;
                                V(COVER) = cov;
                                V(RANGE) = br;
                                V(ACTOR_MOUNTED) = am;
                                V(SHARPSHOOTER) = ss;
                                V(ACTOR_WOUNDED) = aw;
                                V(MOVING) = mv;
                                V(TARGET_WOUNDED) = tw;
                                V(TARGET_MOUNTED) = tm;
                                V(TARGET_RUNNING) = post == VK_POST_RUNNING;
                                V(TARGET_PRONE) = post == VK_POST_PRONE;
                                vk_roll_t *hit = &t->fire_hit[vk_fire_idx(
                                    w, aq, tc, cov, br, am, ss, aw, mv, tw, tm, post)];
                                if (run(c) != 0) {
                                    memset(hit, 0, sizeof *hit);
                                    hit->ok = 1;
                                    continue;
                                }
                                to_roll(roll_of(c, "hit"), hit);
                                if ((bits & 0x3C) == 0 && post == 0) {
                                    to_roll(roll_of(c, "save"),
                                            &t->fire_save[w][tc][cov][br][tw][tm]);
                                    to_effect(&c->res, &t->effect[OPFOR_VK_EFFECT_FIREARM][tw]
                                                                 [tc == OPFOR_VK_TRANSPORT]);
                                    const opfor_viktoria_named_roll_t *cr = roll_of(c, "critical");
                                    if (cr && cr->roll.kind != OPFOR_ROLL_NEVER)
                                        to_roll(cr, &t->critical);
                                }
                            }
                        }
            }
        }
    }
}

static void fill_melee(caller_t *c, vk_tabs_t *t, const reach_t *r) {
    for (int w = 0; w < OPFOR_VK_MELEE_COUNT; w++) {
        begin(c, OPFOR_VK_A_ATTACK_SWORD + w);
        for (int aq = 0; aq < VK_NQ; aq++) {
            if (!(r->person_q >> aq & 1))
                continue;
            for (int tq = 0; tq < VK_NQ; tq++) {
                if (!(r->person_q >> tq & 1))
                    continue;
                for (int cov = 0; cov < VK_NCOV; cov++)
                    for (int bits = 0; bits < 32; bits++) {
                        int am = bits >> 4 & 1, tm = bits >> 3 & 1, ch = bits >> 2 & 1,
                            aw = bits >> 1 & 1, tw = bits & 1;
                        if ((am || tm) && !r->horse)
                            continue;
                        int i = vk_melee_idx(w, aq, tq, cov, am, tm, ch, aw, tw);
                        V(ACTOR) = aq;
                        V(TARGET) = tq;
                        V(COVER) = cov;
                        V(ACTOR_MOUNTED) = am;
                        V(TARGET_MOUNTED) = tm;
                        V(CHARGING) = ch;
                        V(ACTOR_WOUNDED) = aw;
                        V(TARGET_WOUNDED) = tw;
                        if (run(c) != 0) { /* a lance on foot: no attack */
                            memset(&t->melee_hit[i], 0, sizeof t->melee_hit[i]);
                            t->melee_hit[i].ok = 1;
                            t->melee_save[i] = t->melee_hit[i];
                            continue;
                        }
                        to_roll(roll_of(c, "hit"), &t->melee_hit[i]);
                        to_roll(roll_of(c, "save"), &t->melee_save[i]);
                        if (!am && !tm && !ch && !aw && cov == 0)
                            to_effect(&c->res, &t->effect[OPFOR_VK_EFFECT_SWORD + w][tw][0]);
                    }
            }
        }
    }
}

static void fill_tests(caller_t *c, vk_tabs_t *t, const reach_t *r) {
    begin(c, OPFOR_VK_A_TEST_VS_MG);
    for (int cl = 0; cl < VK_NC; cl++) {
        if (!(r->test_c >> cl & 1))
            continue;
        for (int cov = 0; cov < VK_NCOV; cov++)
            for (int br = 0; br < VK_NB; br++)
                for (int bits = 0; bits < 8; bits++) {
                    int am = bits >> 2 & 1, aw = bits >> 1 & 1, mv = bits & 1;
                    V(ACTOR) = cl;
                    V(COVER) = cov;
                    V(RANGE) = br;
                    V(ACTOR_MOUNTED) = am;
                    V(ACTOR_WOUNDED) = aw;
                    V(MOVING) = mv;
                    if (run_pass(c, &t->mg_pass[cl][cov][br][am][aw][mv]) && !am && !mv &&
                        cov == 0 && br == 0)
                        to_effect(&c->res,
                                  &t->effect[OPFOR_VK_EFFECT_MG][aw][cl == OPFOR_VK_TRANSPORT]);
                }
    }
    begin(c, OPFOR_VK_A_TEST_VS_BLAST);
    for (int cl = 0; cl < VK_NC; cl++) {
        if (!(r->test_c >> cl & 1))
            continue;
        for (int cov = 0; cov < VK_NCOV; cov++)
            for (int am = 0; am < 2; am++)
                for (int aw = 0; aw < 2; aw++)
                    for (int k = 0; k < OPFOR_VK_BLAST_COUNT; k++) {
                        V(ACTOR) = cl;
                        V(COVER) = cov;
                        V(ACTOR_MOUNTED) = am;
                        V(ACTOR_WOUNDED) = aw;
                        V(BLAST) = k;
                        if (run_pass(c, &t->blast_pass[cl][cov][am][aw][k]) && !am && cov == 0 &&
                            k == 0)
                            to_effect(
                                &c->res,
                                &t->effect[OPFOR_VK_EFFECT_BLAST][aw][cl == OPFOR_VK_TRANSPORT]);
                    }
    }
}

static float fact_of(const opfor_viktoria_result_t *res, const char *name, float def) {
    for (int i = 0; i < res->nfacts; i++)
        if (strcmp(res->facts[i].name, name) == 0)
            return (float)res->facts[i].value;
    return def;
}

static void fill_blast_weapons(caller_t *c, vk_tabs_t *t, const reach_t *r) {
    begin(c, OPFOR_VK_A_FIRE_ARTILLERY);
    for (int br = 0; br < VK_NB; br++) {
        V(RANGE) = br;
        if (run(c) == 0) {
            to_aim(c, &t->art_on[br], &t->art_dev[br]);
            t->shell_radius = fact_of(&c->res, "blast_radius", 3.0f);
        }
    }
    begin(c, OPFOR_VK_A_THROW_BOMB);
    for (int aq = 0; aq < VK_NQ; aq++)
        for (int br = 0; br < VK_NB; br++) {
            V(ACTOR) = aq;
            V(RANGE) = br;
            if (run(c) == 0) {
                to_aim(c, &t->bomb_on[aq][br], &t->bomb_dev[br]);
                t->bomb_radius = fact_of(&c->res, "blast_radius", 2.0f);
            }
        }
    begin(c, OPFOR_VK_A_CALL_SUPPORT_FIRE);
    t->heavy_radius = 6.0f;
    for (int reg = 0; reg <= 20; reg++)
        for (int g = 0; g < 2; g++) {
            V(REGISTERED) = reg;
            V(GUNS) = g;
            if (run(c) != 0)
                continue;
            to_roll(roll_of(c, "call"), &t->support_call[reg][g]);
            if (reg == 0 && g == 0) {
                to_aim(c, &t->support_on, &t->support_dev);
                const opfor_viktoria_table_t *nat = opfor_viktoria_result_table(&c->res, "natural");
                t->support_fail = (uint8_t)(nat && nat->n > 0 ? nat->e[0].hi : 0);
            }
            if (reg == 0 && g == 1)
                t->heavy_radius = fact_of(&c->res, "blast_radius", 6.0f);
        }
    (void)r;
}

static void fill_people(caller_t *c, vk_tabs_t *t, const reach_t *r) {
    begin(c, OPFOR_VK_A_HYPNOTIC_ATTACK);
    for (int aq = 0; aq < VK_NQ; aq++)
        for (int tq = 0; tq < VK_NQ; tq++)
            for (int br = 0; br < VK_NB; br++) {
                V(ACTOR) = aq;
                V(TARGET) = tq;
                V(RANGE) = br;
                if (run(c) == 0)
                    to_roll(roll_of(c, "mesmerise"), &t->mesmerise[aq][tq][br]);
            }
    begin(c, OPFOR_VK_A_TEST_VS_MESMERISM);
    for (int q = 0; q < VK_NQ; q++) {
        V(ACTOR) = q;
        if (run(c) == 0)
            to_roll(roll_of(c, "break"), &t->resist[q]);
    }
    begin(c, OPFOR_VK_A_HEAL);
    for (int q = 0; q < VK_NQ; q++) {
        V(ACTOR) = q;
        if (run(c) == 0)
            to_roll(roll_of(c, "heal"), &t->heal[q]);
    }
    for (int which = 0; which < 2; which++) {
        begin(c, which ? OPFOR_VK_A_RALLY : OPFOR_VK_A_CHECK_MORALE);
        for (int q = 0; q < VK_NQ; q++)
            for (int bits = 0; bits < 16; bits++) {
                V(ACTOR) = q;
                V(GENERAL) = bits >> 3 & 1;
                V(MUSICIAN) = bits >> 2 & 1;
                V(COLOURS) = bits >> 1 & 1;
                V(HALF_STRENGTH) = bits & 1;
                if (run(c) == 0)
                    to_roll(roll_of(c, "pass"), which ? &t->rally[q][bits] : &t->morale[q][bits]);
            }
    }
    begin(c, OPFOR_VK_A_TEST_OUT_OF_COMMAND);
    for (int q = 0; q < VK_NQ; q++) {
        if (!(r->person_q >> q & 1))
            continue;
        for (int lv = 1; lv <= 5; lv++) {
            if (!(r->levels >> lv & 1))
                continue;
            for (int d = 0; d <= VK_CMD_MAX_INCH; d++) {
                V(ACTOR) = q;
                V(WEATHER) = lv;
                V(RANGE) = OPFOR_VK_INCHES;
                c->req.inches = d;
                if (run(c) == 0)
                    to_roll(roll_of(c, "pass"), &t->command[q][lv - 1][d]);
            }
        }
    }
}

static void fill_move(caller_t *c, vk_tabs_t *t) {
    static const int ACT[OPFOR_VK_MOVE_COUNT] = {OPFOR_VK_A_ADVANCE, OPFOR_VK_A_RUN_GALLOP,
                                                 OPFOR_VK_A_CHARGE, OPFOR_VK_A_CRAWL};
    for (int mv = 0; mv < OPFOR_VK_MOVE_COUNT; mv++) {
        begin(c, ACT[mv]);
        const opfor_viktoria_action_t *a = opfor_viktoria_action_get(ACT[mv]);
        int has_limber = 0, has_mount = 0, actor_class = 0;
        for (int i = 0; i < a->nfields; i++) {
            if (a->fields[i].id == OPFOR_VK_F_LIMBERED)
                has_limber = 1;
            if (a->fields[i].id == OPFOR_VK_F_ACTOR_MOUNTED)
                has_mount = 1;
            if (a->fields[i].id == OPFOR_VK_F_ACTOR && a->fields[i].kind == OPFOR_VK_FK_CLASS)
                actor_class = 1;
        }
        for (int cl = 0; cl < VK_NC; cl++)
            for (int mo = 0; mo < 2; mo++)
                for (int wd = 0; wd < 2; wd++)
                    for (int lb = 0; lb < 2; lb++) {
                        int cc = cl;
                        if (cl == OPFOR_VK_TRANSPORT && !actor_class)
                            cc = OPFOR_Q_SOLDIER;
                        V(ACTOR) = cc;
                        if (has_mount)
                            V(ACTOR_MOUNTED) = mo;
                        V(ACTOR_WOUNDED) = wd;
                        if (has_limber)
                            V(LIMBERED) = lb;
                        int x = 0;
                        if (run(c) == 0)
                            x = (int)fact_of(&c->res, "x", 0.0f);
                        t->move_x[mv][cl][mo][wd][lb] = (int8_t)x;
                    }
    }
}

static void fill_weather(caller_t *c, vk_tabs_t *t) {
    begin(c, OPFOR_VK_A_WEATHER_EVENT);
    for (int lv = 1; lv <= 5; lv++)
        for (int w = 0; w < 8; w++) {
            V(LEVEL) = lv;
            V(WIND) = w;
            for (int f = 0; f <= 6; f++)
                t->weather_level[lv - 1][f] = (uint8_t)lv;
            if (run(c) != 0)
                continue;
            const opfor_viktoria_table_t *tl = opfor_viktoria_result_table(&c->res, "level");
            const opfor_viktoria_table_t *tw = opfor_viktoria_result_table(&c->res, "wind");
            for (int i = 0; tl && i < tl->n; i++)
                for (int f = tl->e[i].lo; f <= tl->e[i].hi && f <= 6; f++)
                    if (f >= 1 && tl->e[i].value >= 1)
                        t->weather_level[lv - 1][f] = (uint8_t)tl->e[i].value;
            if (lv == 1) {
                for (int s = 0; s <= 12; s++)
                    t->weather_wind[w][s] = (uint8_t)w;
                for (int i = 0; tw && i < tw->n; i++)
                    for (int s = tw->e[i].lo; s <= tw->e[i].hi && s <= 12; s++)
                        if (s >= 2 && tw->e[i].value >= 0)
                            t->weather_wind[w][s] = (uint8_t)tw->e[i].value;
            }
        }
}

/* Asks action for the effect rows e[wounded][transport] of a soldier and of transport, wounded
 * or not: class_f and wounded_f are the request fields that carry the class and the wound. */
static void fill_effect_rows(caller_t *c, int action, int class_f, int wounded_f,
                             vk_effect_t e[2][2]) {
    begin(c, action);
    for (int w = 0; w < 2; w++)
        for (int tr = 0; tr < 2; tr++) {
            c->req.v[class_f] = tr ? OPFOR_VK_TRANSPORT : OPFOR_Q_SOLDIER;
            c->req.v[wounded_f] = w;
            if (run(c) == 0)
                to_effect(&c->res, &e[w][tr]);
        }
}

int vk_tabs_build(opfor_vk_ctx_t *ctx, opfor_diag_t *diag) {
    vk_tabs_t *t = calloc(1, sizeof *t);
    if (!t)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "no memory for the chance tables");
    reach_t r;
    scan(ctx, &r);
    caller_t *c = calloc(1, sizeof *c);
    if (!c) {
        free(t);
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "no memory for the chance tables");
    }
    c->m = &ctx->model;
    /* Defaults that make sense before any table says otherwise. */
    t->critical.kind = OPFOR_ROLL_D6_THEN;
    t->critical.need = 6;
    t->critical.need2 = 6;
    t->critical.ok = 1;
    for (int k = 0; k < OPFOR_VK_EFFECT_COUNT; k++)
        for (int w = 0; w < 2; w++)
            for (int tr = 0; tr < 2; tr++) {
                t->effect[k][w][tr].wound_from = 7;
                t->effect[k][w][tr].kill_from = 7;
            }
    fill_fire(c, t, &r);
    fill_melee(c, t, &r);
    fill_tests(c, t, &r);
    fill_blast_weapons(c, t, &r);
    fill_people(c, t, &r);
    fill_move(c, t);
    fill_weather(c, t);
    /* The effect tables by kind do not depend on the actor: fill the transport rows that no
       reachable class asked for from a direct request, so every lookup is defined. */
    fill_effect_rows(c, OPFOR_VK_A_TEST_VS_BLAST, OPFOR_VK_F_ACTOR, OPFOR_VK_F_ACTOR_WOUNDED,
                     t->effect[OPFOR_VK_EFFECT_BLAST]);
    fill_effect_rows(c, OPFOR_VK_A_TEST_VS_MG, OPFOR_VK_F_ACTOR, OPFOR_VK_F_ACTOR_WOUNDED,
                     t->effect[OPFOR_VK_EFFECT_MG]);
    fill_effect_rows(c, OPFOR_VK_A_FIRE_RIFLE, OPFOR_VK_F_TARGET, OPFOR_VK_F_TARGET_WOUNDED,
                     t->effect[OPFOR_VK_EFFECT_FIREARM]);
    for (int w = 0; w < OPFOR_VK_MELEE_COUNT; w++) {
        begin(c, OPFOR_VK_A_ATTACK_SWORD + w);
        V(ACTOR_MOUNTED) = 1;
        for (int tw = 0; tw < 2; tw++) {
            V(TARGET_WOUNDED) = tw;
            if (run(c) == 0)
                to_effect(&c->res, &t->effect[OPFOR_VK_EFFECT_SWORD + w][tw][0]);
        }
    }
    t->nfilled = c->calls;
    free(c);
    ctx->tab = t;
    return 0;
}

/* ---------------------------------------------------------------- rolling */

int vk_roll(opfor_vk_state_t *st, const vk_roll_t *r, int *first) {
    return opfor_roll_dice(r->kind, r->need, r->need2, &st->rng, first);
}

int vk_roll_hit(opfor_vk_state_t *st, const vk_roll_t *hit, const vk_roll_t *crit, int *critical) {
    /* The critical is the calculator's "critical" roll: a first die of crit->need (6) and a
       second of crit->need2 (6), 1 in 36 whenever a hit is possible (IX). The second die is
       the hit's own where the hit already needs one (6-then-N: the critical is its 6-6),
       both dice of a 2D6 hit, or one more die after a single-die hit. */
    int on = crit && crit->kind == OPFOR_ROLL_D6_THEN;
    int c1 = on ? crit->need : 7, c2 = on ? crit->need2 : 7;
    int d, e;
    *critical = 0;
    switch (hit->kind) {
    case OPFOR_ROLL_NEVER:
        return 0;
    case OPFOR_ROLL_ALWAYS:
        if (on && vk_d6(st) >= c1)
            *critical = vk_d6(st) >= c2;
        return 1;
    case OPFOR_ROLL_D6:
        d = vk_d6(st);
        if (d < hit->need)
            return 0;
        if (d >= c1)
            *critical = vk_d6(st) >= c2;
        return 1;
    case OPFOR_ROLL_D6_THEN:
        d = vk_d6(st);
        if (d < hit->need)
            return 0;
        e = vk_d6(st);
        if (e < hit->need2)
            return 0;
        *critical = d >= c1 && e >= c2;
        return 1;
    case OPFOR_ROLL_D6_REROLL:
        d = vk_d6(st);
        if (d >= hit->need) {
            if (d >= c1)
                *critical = vk_d6(st) >= c2;
            return 1;
        }
        return d == 1 && vk_d6(st) >= hit->need2; /* a re-rolled die never starts a critical */
    case OPFOR_ROLL_2D6:
        d = vk_d6(st);
        e = vk_d6(st);
        if (d + e < hit->need)
            return 0;
        *critical = d >= c1 && e >= c2;
        return 1;
    }
    return 0;
}

int vk_effect_roll(opfor_vk_state_t *st, const vk_effect_t *e, int *face) {
    int d = vk_d6(st);
    if (face)
        *face = d;
    if (d >= e->kill_from)
        return 2;
    if (d >= e->wound_from)
        return 1;
    return 0;
}

/* The D8 direction table of the calculator counts clockwise from "over" (beyond the aim
 * point, along the line of fire) in eighths of a turn. */
opfor_pt_t vk_deviate(opfor_vk_state_t *st, opfor_pt_t from, opfor_pt_t aim,
                      const opfor_dice_t *dist, float *moved) {
    int dir = (int)opfor_rng_below(&st->rng, 8); /* 0 over, 1 over-right, ... clockwise */
    int inches = opfor_dice_roll(dist, &st->rng);
    if (inches < 0)
        inches = 0;
    opfor_vec_t v = opfor_vnorm(opfor_vsub(aim, from));
    if (v.x == 0.0f && v.y == 0.0f)
        v = opfor_pt(0.0f, 1.0f);
    /* Turn clockwise by dir eighths: cos/sin of 45 degrees, no trigonometry. */
    for (int i = 0; i < dir; i++)
        v = opfor_vrot(v, OPFOR_SQRT1_2, -OPFOR_SQRT1_2);
    if (moved)
        *moved = (float)inches;
    return opfor_vadd(aim, opfor_vscale(v, (float)inches));
}
