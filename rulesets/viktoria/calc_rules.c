/* rulesets/viktoria/calc_rules.c — the arithmetic of each Viktoria! calculator action.
 *
 * Every chance is built the same way (docs/viktoria-model.md): sum the log-odds terms the
 * fields select from the model, p = opfor_sigmoid(sum), then opfor_roll_render() finds the
 * dice roll nearest to p (one D6, with two-step rolls near 0 and 1, or 2D6 for morale and
 * rally). Where the rules themselves fix a number (the 6-then-6 critical, the +1 per
 * registered turn, blast radii, the command radius, movement's 1d3) it is used as written.
 * Requests arrive checked by calc.c; nothing here allocates.
 */
#include "calc_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "opfor/mathx.h"

/* ------------------------------------------------------------------ result builders */

static opfor_viktoria_named_roll_t *add_roll(opfor_viktoria_result_t *res, const char *name,
                                             const char *label, const char *success, int favours,
                                             opfor_render_mode_t mode, double p) {
    if (res->nrolls >= OPFOR_VK_MAX_ROLLS)
        return NULL;
    opfor_viktoria_named_roll_t *r = &res->rolls[res->nrolls++];
    r->name = name;
    r->label = label;
    r->dice = mode == OPFOR_RENDER_2D6 ? "2D6" : "D6";
    r->success = success;
    r->favours = favours;
    opfor_roll_render(p, mode, &r->roll);
    return r;
}

/* A roll whose scores the rules fix: exact and rendered chances agree. */
static opfor_viktoria_named_roll_t *add_fixed(opfor_viktoria_result_t *res, const char *name,
                                              const char *label, const char *success, int favours,
                                              opfor_roll_kind_t kind, int need, int need2) {
    if (res->nrolls >= OPFOR_VK_MAX_ROLLS)
        return NULL;
    opfor_viktoria_named_roll_t *r = &res->rolls[res->nrolls++];
    r->name = name;
    r->label = label;
    r->dice = kind == OPFOR_ROLL_2D6 ? "2D6" : "D6";
    r->success = success;
    r->favours = favours;
    r->roll.kind = kind;
    r->roll.need = need;
    r->roll.need2 = need2;
    r->roll.p_exact = opfor_roll_chance(kind, need, need2);
    r->roll.p_rendered = r->roll.p_exact;
    r->roll.error = 0.0;
    return r;
}

static void add_outcome(opfor_viktoria_result_t *res, const char *name, const char *label,
                        int favours, double pe, double pr) {
    if (res->noutcomes >= OPFOR_VK_MAX_OUTCOMES)
        return;
    opfor_viktoria_outcome_t *o = &res->outcomes[res->noutcomes++];
    o->name = name;
    o->label = label;
    o->favours = favours;
    o->p_exact = pe < 0.0 ? 0.0 : pe > 1.0 ? 1.0 : pe;
    o->p_rendered = pr < 0.0 ? 0.0 : pr > 1.0 ? 1.0 : pr;
}

static void add_fact(opfor_viktoria_result_t *res, const char *name, const char *label,
                     double value, const char *unit, const char *text) {
    if (res->nfacts >= OPFOR_VK_MAX_FACTS)
        return;
    opfor_viktoria_fact_t *f = &res->facts[res->nfacts++];
    f->name = name;
    f->label = label;
    f->value = value;
    f->unit = unit;
    f->text = text;
}

static void add_note(opfor_viktoria_result_t *res, const char *text) {
    if (res->nnotes < OPFOR_VK_MAX_NOTES)
        res->notes[res->nnotes++] = text;
}

static opfor_viktoria_table_t *add_table(opfor_viktoria_result_t *res, const char *name,
                                         const char *label, const char *dice) {
    if (res->ntables >= OPFOR_VK_MAX_TABLES)
        return NULL;
    opfor_viktoria_table_t *t = &res->tables[res->ntables++];
    t->name = name;
    t->label = label;
    t->dice = dice;
    t->n = 0;
    return t;
}

static void table_add(opfor_viktoria_table_t *t, int lo, int hi, const char *text, int value,
                      double p) {
    if (!t || lo > hi || t->n >= OPFOR_VK_MAX_ENTRIES)
        return;
    opfor_viktoria_entry_t *e = &t->e[t->n++];
    e->lo = lo;
    e->hi = hi;
    e->text = text;
    e->value = value;
    e->p = p;
}

/* Chance that 2D6 totals lo..hi. */
static double p2d6(int lo, int hi) {
    return lo > hi ? 0.0 : opfor_2d6_at_least(lo) - opfor_2d6_at_least(hi + 1);
}

/* Distance max(0, dice) * num / den with exact min, max and mean. */
static opfor_viktoria_distance_t *add_dist(opfor_viktoria_result_t *res, const char *name,
                                           const char *label, const opfor_dice_t *dice, int num,
                                           int den) {
    if (res->ndists >= OPFOR_VK_MAX_DISTS)
        return NULL;
    opfor_viktoria_distance_t *d = &res->dists[res->ndists++];
    d->name = name;
    d->label = label;
    d->dice = *dice;
    d->num = num;
    d->den = den;
    double s = (double)num / (double)den;
    int lo = opfor_dice_min(dice), hi = opfor_dice_max(dice);
    d->min = (lo > 0 ? lo : 0) * s;
    d->max = (hi > 0 ? hi : 0) * s;
    /* Mean of the sum: each term contributes count * (sides + 1) / 2 (a d3 is 1..3). */
    double mean = dice->bonus;
    for (int i = 0; i < dice->nterms; i++)
        mean += dice->terms[i].count * (dice->terms[i].sides + 1) / 2.0;
    if (lo < 0) {
        /* Clamping at zero only happens for movement (one d3 plus a small X). */
        mean = 0.0;
        for (int k = 1; k <= 3; k++)
            mean += (dice->bonus + k > 0 ? dice->bonus + k : 0) / 3.0;
    }
    d->mean = mean * s;
    return d;
}

/* ------------------------------------------------------------------ shared pieces */

static const char *const RANGE_LIMIT[OPFOR_VK_R_COUNT] = {
    [OPFOR_VK_R_PISTOL] = "a pistol reaches",       [OPFOR_VK_R_CARBINE] = "a carbine reaches",
    [OPFOR_VK_R_RIFLE] = "a rifle reaches",         [OPFOR_VK_R_MG] = "an MG reaches",
    [OPFOR_VK_R_ARTILLERY] = "a field gun reaches", [OPFOR_VK_R_BOMB] = "a bomb can be thrown",
    [OPFOR_VK_R_MESMERISM] = "mesmerism works to",
};

/* The bracket of the request's Range for ranged thing r; adds range facts. */
static int bracket_of(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req, int r,
                      opfor_viktoria_result_t *res, opfor_diag_t *diag, int *out) {
    int v = req->v[OPFOR_VK_F_RANGE];
    *out = 0; /* set on every path: -O3 cannot see that callers stop on an error */
    if (v == OPFOR_VK_INCHES) {
        int b = opfor_viktoria_bracket_of(m, (opfor_viktoria_ranged_t)r, req->inches);
        if (b == OPFOR_ERANGE)
            return opfor_diag_set(diag, OPFOR_ERANGE, 0, 0, "out of range: %s %g in at most",
                                  RANGE_LIMIT[r], m->range_edge[r][OPFOR_VK_BRACKET_COUNT - 1]);
        if (b < 0)
            return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "bad range %g in", req->inches);
        v = b;
        add_fact(res, "range", "Range", req->inches, "in", NULL);
    }
    /* each altitude level between firer and target is one more bracket (XII.D) */
    int lv = req->v[OPFOR_VK_F_ALTITUDE];
    if (lv > 0 && lv != OPFOR_VK_UNSET) {
        add_fact(res, "altitude", "Altitude levels", lv, "", NULL);
        v += lv;
        if (v >= OPFOR_VK_BRACKET_COUNT) {
            int past = v - (OPFOR_VK_BRACKET_COUNT - 1);
            if (!isinf(m->range_edge[r][OPFOR_VK_BRACKET_COUNT - 1]))
                return opfor_diag_set(diag, OPFOR_ERANGE, 0, 0,
                                      "out of range: with %d altitude level%s the shot is %d "
                                      "bracket%s past the last (%s %g in)",
                                      lv, lv == 1 ? "" : "s", past, past == 1 ? "" : "s",
                                      RANGE_LIMIT[r], m->range_edge[r][OPFOR_VK_BRACKET_COUNT - 1]);
            v = OPFOR_VK_BRACKET_COUNT - 1; /* no limit: the last bracket */
        }
    }
    add_fact(res, "bracket", "Range bracket", v, "",
             opfor_vocab_name(opfor_viktoria_bracket_names, v));
    *out = v;
    return 0;
}

static const char *const EFFECT_TEXT[2][4] = {
    {"scratch", "wounded", "killed", "scratch (already wounded)"},
    {"no damage", "damaged", "destroyed", "no further damage"},
};

/* The D6 effect table after a failed save or test; chances of a wound and a kill. */
static void effect_table(opfor_viktoria_result_t *res, const opfor_viktoria_effect_t *e,
                         int wounded, int transport, double *p_wound, double *p_kill) {
    const char *const *txt = EFFECT_TEXT[transport ? 1 : 0];
    int kill_from = wounded ? e->wounded_kill : e->kill;
    int wound_from = wounded ? kill_from : e->wound;
    opfor_viktoria_table_t *t = add_table(res, "effect", "Effect", "D6");
    table_add(t, 1, (wound_from < 7 ? wound_from : 7) - 1, txt[wounded ? 3 : 0], OPFOR_VK_UNSET,
              (wound_from - 1) / 6.0);
    table_add(t, wound_from, (kill_from < 7 ? kill_from : 7) - 1, txt[1], OPFOR_VK_UNSET,
              (kill_from - wound_from) / 6.0);
    table_add(t, kill_from, 6, txt[2], OPFOR_VK_UNSET, (7 - kill_from) / 6.0);
    *p_wound = (kill_from - wound_from) / 6.0;
    *p_kill = (7 - kill_from) / 6.0;
}

/* Killed / wounded / unharmed from chances to be harmed (exact and rendered). */
static void harm_outcomes(opfor_viktoria_result_t *res, double harm_e, double harm_r, double crit_e,
                          double crit_r, double pw, double pk, int favours) {
    double ke = crit_e + harm_e * pk, kr = crit_r + harm_r * pk;
    double we = harm_e * pw, wr = harm_r * pw;
    add_outcome(res, "killed", "Killed", favours, ke, kr);
    /* A wound is not ordered: a figure already wounded cannot be wounded again. */
    add_outcome(res, "wounded", "Wounded", 0, we, wr);
    add_outcome(res, "unharmed", "Unharmed", -favours, 1.0 - ke - we, 1.0 - kr - wr);
}

static double logistic(double x) {
    return opfor_sigmoid(x);
}

/* ------------------------------------------------------------------ fire (IX) */

static int act_fire(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                    opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    const int *v = req->v;
    int w = req->action - OPFOR_VK_A_FIRE_PISTOL; /* pistol, carbine, rifle */
    int a = v[OPFOR_VK_F_ACTOR], t = v[OPFOR_VK_F_TARGET], c = v[OPFOR_VK_F_COVER], b;
    if (v[OPFOR_VK_F_TARGET_RUNNING] && v[OPFOR_VK_F_TARGET_PRONE])
        return opfor_diag_set(diag, OPFOR_EILLEGAL, 0, 0,
                              "a target cannot be both running and prone (VI)");
    int rc = bracket_of(m, req, w, res, diag, &b);
    if (rc)
        return rc;
    int tw = v[OPFOR_VK_F_TARGET_WOUNDED], tm = v[OPFOR_VK_F_TARGET_MOUNTED];
    double hit = m->fire_hit.actor[a] + m->fire_hit.target[t] + m->fire_hit.cover[c] +
                 m->fire_hit.range[w][b];
    if (v[OPFOR_VK_F_TARGET_RUNNING])
        hit += m->fire_hit.target_running;
    if (v[OPFOR_VK_F_TARGET_PRONE])
        hit += m->fire_hit.target_prone;
    if (v[OPFOR_VK_F_MOVING])
        hit += m->fire_hit.moving;
    if (v[OPFOR_VK_F_ACTOR_WOUNDED])
        hit += m->fire_hit.actor_wounded;
    if (tw)
        hit += m->fire_hit.target_wounded;
    if (v[OPFOR_VK_F_ACTOR_MOUNTED])
        hit += m->fire_hit.actor_mounted;
    if (tm)
        hit += m->fire_hit.target_mounted;
    if (v[OPFOR_VK_F_SHARPSHOOTER])
        hit += m->fire_hit.sharpshooter;
    double save = m->fire_save.target[t] + m->fire_save.cover[c] + m->fire_save.weapon[w] +
                  m->fire_save.range[b];
    if (tw)
        save += m->fire_save.target_wounded;
    if (tm)
        save += m->fire_save.target_mounted;

    /* Transport in fortifications (a Martian walker) shrugs off small arms (XII.E). */
    int proof = t == OPFOR_VK_TRANSPORT && c == OPFOR_COVER_FORT;
    const opfor_viktoria_named_roll_t *h =
        add_roll(res, "hit", "To hit", "hit", 1, OPFOR_RENDER_D6_FINE, proof ? 0.0 : logistic(hit));
    /* A 6 on the hit roll, then a 6, kills outright (IX): 1 in 36 whenever a hit is possible. */
    const opfor_viktoria_named_roll_t *cr =
        h->roll.kind == OPFOR_ROLL_NEVER
            ? add_fixed(res, "critical", "Critical", "kills", 1, OPFOR_ROLL_NEVER, 0, 0)
            : add_fixed(res, "critical", "Critical", "kills", 1, OPFOR_ROLL_D6_THEN, 6, 6);
    const opfor_viktoria_named_roll_t *s =
        add_roll(res, "save", "Save", "saved", -1, OPFOR_RENDER_D6_FINE, logistic(save));
    double pw, pk;
    effect_table(res, &m->effect[OPFOR_VK_EFFECT_FIREARM], tw, t == OPFOR_VK_TRANSPORT, &pw, &pk);
    double crit_e = h->roll.p_exact < 1.0 / 36.0 ? h->roll.p_exact : 1.0 / 36.0;
    double crit_r = cr->roll.p_rendered;
    harm_outcomes(res, (h->roll.p_exact - crit_e) * (1.0 - s->roll.p_exact),
                  (h->roll.p_rendered - crit_r) * (1.0 - s->roll.p_rendered), crit_e, crit_r, pw,
                  pk, 1);
    add_fact(res, "max_range", "Maximum range", m->range_edge[w][OPFOR_VK_BRACKET_COUNT - 1], "in",
             NULL);
    if (proof)
        add_note(res, "Transport in fortifications is proof against small arms (XII.E).");
    if (t == OPFOR_VK_TRANSPORT)
        add_note(res, "Only walkers and the like are fired on as Transport; shoot at the crew "
                      "of guns and wagons as figures (IX, XII.E).");
    add_note(res, "Each figure rolls separately; a 6 then a 6 kills outright, otherwise the "
                  "target saves (IX).");
    return 0;
}

static int act_test_vs_mg(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                          opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    const int *v = req->v;
    int a = v[OPFOR_VK_F_ACTOR], c = v[OPFOR_VK_F_COVER], b;
    int rc = bracket_of(m, req, OPFOR_VK_R_MG, res, diag, &b);
    if (rc)
        return rc;
    double pass = m->mg.actor[a] + m->mg.cover[c] + m->mg.range[b];
    if (v[OPFOR_VK_F_ACTOR_MOUNTED])
        pass += m->mg.actor_mounted;
    if (v[OPFOR_VK_F_MOVING])
        pass += m->mg.moving;
    int proof = a == OPFOR_VK_TRANSPORT && c == OPFOR_COVER_FORT;
    const opfor_viktoria_named_roll_t *p =
        add_roll(res, "pass", "Test to avoid a hit", "not hit", 1, OPFOR_RENDER_D6_FINE,
                 proof ? 1.0 : logistic(pass));
    double pw, pk;
    effect_table(res, &m->effect[OPFOR_VK_EFFECT_MG], v[OPFOR_VK_F_ACTOR_WOUNDED],
                 a == OPFOR_VK_TRANSPORT, &pw, &pk);
    harm_outcomes(res, 1.0 - p->roll.p_exact, 1.0 - p->roll.p_rendered, 0.0, 0.0, pw, pk, -1);
    if (proof)
        add_note(res, "Transport in fortifications is proof against MG fire (XII.E).");
    add_note(res, "Every figure in the arc tests, friend or foe; twice inside a double arc (IX).");
    return 0;
}

/* ------------------------------------------------------------------ artillery, bombs (IX) */

static const char *const DIRECTION[8] = {
    "over (beyond the aim point)", "over and right", "right", "short and right",
    "short (towards the firer)",   "short and left", "left",  "over and left",
};

static void direction_table(opfor_viktoria_result_t *res) {
    opfor_viktoria_table_t *t = add_table(res, "direction", "Direction if it misses", "D8");
    for (int i = 0; i < 8; i++)
        table_add(t, i + 1, i + 1, DIRECTION[i], OPFOR_VK_UNSET, 1.0 / 8.0);
}

static int act_fire_artillery(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                              opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    int b;
    int rc = bracket_of(m, req, OPFOR_VK_R_ARTILLERY, res, diag, &b);
    if (rc)
        return rc;
    add_roll(res, "on_target", "On target", "lands on the aim point", 1, OPFOR_RENDER_D6_FINE,
             logistic(m->artillery.range[b]));
    direction_table(res);
    add_dist(res, "deviation", "Deviation if it misses", &m->artillery.deviation[b], 1, 1);
    add_fact(res, "blast_radius", "Blast radius", 3, "in", NULL);
    add_note(res, "A miss moves the point of impact by the direction and distance rolled; count "
                  "directions clockwise from the line of fire (IX).");
    add_note(res, "Every figure within 3 in tests versus blast; guns, MGs and vehicles test as "
                  "Transport (IX).");
    add_note(res, "Two crew needed to fire; over friendly heads only at targets 6 in or more "
                  "away (IX).");
    return 0;
}

static int act_support(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                       opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    (void)diag;
    int reg = req->v[OPFOR_VK_F_REGISTERED], heavy = req->v[OPFOR_VK_F_GUNS] == 1;
    int fail = m->support.comms_fail;
    /* +1 per earlier turn on the same point (IX), but a natural comms failure always fails. */
    int need = m->support.need - reg;
    if (need < fail + 1)
        need = fail + 1;
    if (need > 12)
        add_fixed(res, "call", "Call for fire", "fire arrives", 1, OPFOR_ROLL_NEVER, 0, 0);
    else
        add_fixed(res, "call", "Call for fire", "fire arrives", 1, OPFOR_ROLL_2D6, need, 0);
    opfor_viktoria_table_t *t = add_table(res, "natural", "Natural total", "2D6");
    table_add(t, 2, fail, "communications fail: no fire, registration lost", OPFOR_VK_UNSET,
              p2d6(2, fail));
    table_add(t, fail + 1, need - 1, "no fire this turn; +1 more next turn on this point",
              OPFOR_VK_UNSET, p2d6(fail + 1, need - 1));
    table_add(t, need, 12, "fire arrives", OPFOR_VK_UNSET, p2d6(need, 12));
    const opfor_viktoria_named_roll_t *on =
        add_roll(res, "on_target", "On target (longest bracket)", "lands on the aim point", 1,
                 OPFOR_RENDER_D6_FINE, logistic(m->artillery.range[OPFOR_VK_LONG]));
    direction_table(res);
    add_dist(res, "deviation", "Deviation if it misses", &m->artillery.deviation[OPFOR_VK_LONG], 1,
             1);
    double pc = p2d6(need, 12);
    add_outcome(res, "on_target", "Fire lands on the aim point this turn", 1, pc * on->roll.p_exact,
                pc * on->roll.p_rendered);
    add_outcome(res, "comms_lost", "Communications lost", -1, p2d6(2, fail), p2d6(2, fail));
    add_fact(res, "blast_radius", "Blast radius", heavy ? 6 : 3, "in", NULL);
    add_fact(res, "registered", "Registered turns", reg, "", NULL);
    add_note(res, "Fire that arrives is shot like on-board artillery at the longest range "
                  "bracket (IX).");
    add_note(res, "Calling uses the signaller's action; no other field matters (VI).");
    return 0;
}

static int act_throw_bomb(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                          opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    int b;
    int rc = bracket_of(m, req, OPFOR_VK_R_BOMB, res, diag, &b);
    if (rc)
        return rc;
    add_roll(res, "on_target", "On target", "lands on the aim point", 1, OPFOR_RENDER_D6_FINE,
             logistic(m->bomb.actor[req->v[OPFOR_VK_F_ACTOR]] + m->bomb.range[b]));
    direction_table(res);
    add_dist(res, "deviation", "Deviation if it misses", &m->bomb.deviation[b], 1, 1);
    add_fact(res, "blast_radius", "Blast radius", 2, "in", NULL);
    add_note(res, "A miss moves it by the direction and distance rolled; every figure within "
                  "2 in of where it lands tests versus blast (IX).");
    add_note(res, "Bombs may be thrown over walls and the like without line of sight (IX).");
    return 0;
}

static int act_test_vs_blast(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                             opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    (void)diag;
    const int *v = req->v;
    static const double RADIUS[OPFOR_VK_BLAST_COUNT] = {2, 3, 6};
    int a = v[OPFOR_VK_F_ACTOR], k = v[OPFOR_VK_F_BLAST];
    double pass = m->blast.actor[a] + m->blast.cover[v[OPFOR_VK_F_COVER]] + m->blast.blast[k];
    if (v[OPFOR_VK_F_ACTOR_MOUNTED])
        pass += m->blast.actor_mounted;
    const opfor_viktoria_named_roll_t *p = add_roll(res, "pass", "Test to escape harm", "unharmed",
                                                    1, OPFOR_RENDER_D6_FINE, logistic(pass));
    double pw, pk;
    effect_table(res, &m->effect[OPFOR_VK_EFFECT_BLAST], v[OPFOR_VK_F_ACTOR_WOUNDED],
                 a == OPFOR_VK_TRANSPORT, &pw, &pk);
    harm_outcomes(res, 1.0 - p->roll.p_exact, 1.0 - p->roll.p_rendered, 0.0, 0.0, pw, pk, -1);
    add_fact(res, "blast_radius", "Blast radius", RADIUS[k], "in", NULL);
    add_note(res, "Friend or foe, everything inside the radius tests; guns, MGs and wagons as "
                  "Transport (IX).");
    return 0;
}

/* ------------------------------------------------------------------ melee (X) */

static int act_attack(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                      opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    const int *v = req->v;
    int w = req->action - OPFOR_VK_A_ATTACK_SWORD; /* sword, lance, bayonet, dagger */
    int a = v[OPFOR_VK_F_ACTOR], t = v[OPFOR_VK_F_TARGET], c = v[OPFOR_VK_F_COVER];
    int tw = v[OPFOR_VK_F_TARGET_WOUNDED], tm = v[OPFOR_VK_F_TARGET_MOUNTED];
    if (w == OPFOR_VK_LANCE && !v[OPFOR_VK_F_ACTOR_MOUNTED])
        return opfor_diag_set(diag, OPFOR_EILLEGAL, 0, 0,
                              "a lance attack is made from horseback (VI): the actor must be "
                              "mounted");
    double hit = m->melee_hit.actor[a] + m->melee_hit.target[t] + m->melee_hit.cover[c] +
                 m->melee_hit.weapon[w];
    if (v[OPFOR_VK_F_CHARGING])
        hit += m->melee_hit.charging + m->melee_hit.weapon_charging[w];
    if (v[OPFOR_VK_F_ACTOR_MOUNTED])
        hit += m->melee_hit.actor_mounted;
    if (tm)
        hit += m->melee_hit.target_mounted;
    if (v[OPFOR_VK_F_ACTOR_WOUNDED])
        hit += m->melee_hit.actor_wounded;
    if (tw)
        hit += m->melee_hit.target_wounded;
    double save = m->melee_save.target[t] + m->melee_save.cover[c] + m->melee_save.weapon[w];
    if (tw)
        save += m->melee_save.target_wounded;
    if (tm)
        save += m->melee_save.target_mounted;
    const opfor_viktoria_named_roll_t *h =
        add_roll(res, "hit", "To hit", "hit", 1, OPFOR_RENDER_D6_FINE, logistic(hit));
    const opfor_viktoria_named_roll_t *s =
        add_roll(res, "save", "Save", "saved", -1, OPFOR_RENDER_D6_FINE, logistic(save));
    double pw, pk;
    effect_table(res, &m->effect[OPFOR_VK_EFFECT_SWORD + w], tw, 0, &pw, &pk);
    harm_outcomes(res, h->roll.p_exact * (1.0 - s->roll.p_exact),
                  h->roll.p_rendered * (1.0 - s->roll.p_rendered), 0.0, 0.0, pw, pk, 1);
    add_note(res, "Defenders keep their cover; charging and counter-charging figures get none "
                  "(X).");
    if (v[OPFOR_VK_F_CHARGING])
        add_note(res, "Counter-charging cavalry also counts as charging (X).");
    return 0;
}

/* ------------------------------------------------------------------ mesmerism, healing */

static int act_hypnotic(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                        opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    int b;
    int rc = bracket_of(m, req, OPFOR_VK_R_MESMERISM, res, diag, &b);
    if (rc)
        return rc;
    add_roll(res, "mesmerise", "Mesmerise", "mesmerised", 1, OPFOR_RENDER_D6_FINE,
             logistic(m->mesmerise.actor[req->v[OPFOR_VK_F_ACTOR]] +
                      m->mesmerise.target[req->v[OPFOR_VK_F_TARGET]] + m->mesmerise.range[b]));
    add_note(res, "Needs a clear line of sight. The subject acts for the mesmerist, after the "
                  "rest of its unit, until it breaks the spell (XII.B).");
    return 0;
}

static int act_resist(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                      opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    (void)diag;
    add_roll(res, "break", "Break the spell", "free of the spell", 1, OPFOR_RENDER_D6_FINE,
             logistic(m->resist.actor[req->v[OPFOR_VK_F_ACTOR]]));
    add_note(res, "Test before the figure acts; it does not use the figure's action (XII.B).");
    return 0;
}

static int act_heal(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                    opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    (void)diag;
    add_roll(res, "heal", "Heal", "no longer wounded", 1, OPFOR_RENDER_D6_FINE,
             logistic(m->heal.actor[req->v[OPFOR_VK_F_ACTOR]]));
    add_note(res, "The medic moves up to 6 in into contact first; the wounded figure must not "
                  "touch an enemy. Tries may repeat, even in one turn (VI).");
    return 0;
}

/* ------------------------------------------------------------------ morale, command (VII, XI) */

static double morale_sum(const double *actor, double general, double musician, double colours,
                         double half, const opfor_viktoria_req_t *req) {
    const int *v = req->v;
    double x = actor[v[OPFOR_VK_F_ACTOR]];
    if (v[OPFOR_VK_F_GENERAL])
        x += general;
    if (v[OPFOR_VK_F_MUSICIAN])
        x += musician;
    if (v[OPFOR_VK_F_COLOURS])
        x += colours;
    if (v[OPFOR_VK_F_HALF_STRENGTH])
        x += half;
    return x;
}

static int act_morale(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                      opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    (void)diag;
    double x = morale_sum(m->morale.actor, m->morale.general, m->morale.musician, m->morale.colours,
                          m->morale.half_strength, req);
    add_roll(res, "pass", "Morale check", "stays Solid", 1, OPFOR_RENDER_2D6, logistic(x));
    add_note(res, "Actor is the best quality in the unit; Transport's attendants check for it "
                  "(XI).");
    add_note(res, "Fail: the unit is Wavering; a charged unit also runs from its attackers, and "
                  "one already Wavering after melee is removed (X, XI).");
    return 0;
}

static int act_rally(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                     opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    (void)diag;
    double x = morale_sum(m->rally.actor, m->rally.general, m->rally.musician, m->rally.colours,
                          m->rally.half_strength, req);
    add_roll(res, "pass", "Rally", "Solid again", 1, OPFOR_RENDER_2D6, logistic(x));
    add_note(res, "Rallying is the unit's action for the turn. Fail: the unit is removed from "
                  "play (XI).");
    return 0;
}

static int act_command(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                       opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    (void)diag;
    int level = req->v[OPFOR_VK_F_WEATHER];
    int radius = opfor_viktoria_command_radius(level);
    double beyond = req->inches - radius;
    if (beyond <= 0.0) {
        add_fixed(res, "pass", "Command test", "acts freely", 1, OPFOR_ROLL_ALWAYS, 0, 0);
        add_note(res, "Within the general's command radius: no test (VII).");
    } else {
        add_roll(
            res, "pass", "Command test", "acts freely", 1, OPFOR_RENDER_D6_FINE,
            logistic(m->command.actor[req->v[OPFOR_VK_F_ACTOR]] + m->command.per_inch * beyond));
        add_note(res, "Fail: the unit may only take cover, fire or throw bombs, defend itself, "
                      "or recover/stand/rally/load; medics may still bind wounds within 6 in "
                      "(VII).");
    }
    add_fact(res, "range", "Distance to general", req->inches, "in", NULL);
    add_fact(res, "command_radius", "Command radius", radius, "in", NULL);
    add_fact(res, "beyond", "Beyond the radius", beyond > 0 ? beyond : 0, "in", NULL);
    add_fact(res, "musician_radius", "Playing musician's reach",
             opfor_viktoria_musician_radius(level), "in", NULL);
    add_note(res, "Self-commanding units (by scenario) never test (VII).");
    return 0;
}

/* ------------------------------------------------------------------ movement (VIII) */

static int act_move(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                    opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    (void)diag;
    const int *v = req->v;
    int mv = req->action - OPFOR_VK_A_ADVANCE; /* advance, run_gallop, charge, crawl */
    int a = v[OPFOR_VK_F_ACTOR];
    int transport = a == OPFOR_VK_TRANSPORT;
    int crawl = mv == OPFOR_VK_MOVE_CRAWL;
    /* Crawl has no mounted field: riders dismount first (VI). */
    int mounted = !crawl && v[OPFOR_VK_F_ACTOR_MOUNTED] == 1;
    int wounded = v[OPFOR_VK_F_ACTOR_WOUNDED] == 1;
    int limbered =
        (mv == OPFOR_VK_MOVE_ADVANCE || mv == OPFOR_VK_MOVE_RUN) && v[OPFOR_VK_F_LIMBERED] == 1;
    int terrain = v[OPFOR_VK_F_TERRAIN];
    int obstacles = v[OPFOR_VK_F_OBSTACLES];
    int x;
    if (transport)
        x = mounted ? m->move.transport_mounted[mv == OPFOR_VK_MOVE_RUN]
                    : m->move.transport_foot[mv == OPFOR_VK_MOVE_RUN];
    else if (crawl)
        x = m->move.foot[OPFOR_VK_MOVE_CRAWL][a] + (wounded ? m->move.crawl_wounded : 0);
    else
        x = (mounted ? m->move.mounted[mv][a] : m->move.foot[mv][a]) +
            (wounded ? m->move.wounded : 0);
    if (x < 0)
        x = 0;
    opfor_dice_t d;
    memset(&d, 0, sizeof d);
    d.nterms = 1;
    d.inches = 1;
    d.terms[0].count = 1;
    d.terms[0].sides = 3; /* a D6 halved, rounded up (VIII) */
    d.bonus = x;
    add_dist(res, "move", "Move (open ground)", &d, 1, 1);
    add_fact(res, "x", "Base X", x, "in", NULL);
    int num = 1, den = 1;
    if (terrain == 1) /* rough: half on foot, a quarter mounted or as transport (VIII) */
        den = (mounted || transport) ? 4 : 2;
    else if (terrain == 2 && (transport || limbered)) /* roads: transport and limbers double */
        num = 2;
    if (terrain != 0 || obstacles > 0) {
        opfor_dice_t adj = d;
        adj.bonus = x - obstacles; /* each linear obstacle costs 1 in of base movement */
        add_dist(res, "adjusted", "Adjusted for terrain", &adj, num, den);
        add_fact(res, "terrain_factor", "Terrain factor", (double)num / den, "", NULL);
    }
    if (terrain == 1)
        add_note(res, "Part-way in the rough: each inch there costs 2 on foot, 4 mounted or as "
                      "Transport (VIII).");
    if (terrain == 2 && !(transport || limbered))
        add_note(res, "Roads cancel rough ground but give figures no extra speed (VIII).");
    switch (mv) {
    case OPFOR_VK_MOVE_ADVANCE:
        add_note(res, "May fire during the move as moving fire (VI).");
        break;
    case OPFOR_VK_MOVE_RUN:
        add_note(res, "No fire while running or galloping (VI).");
        break;
    case OPFOR_VK_MOVE_CHARGE:
        add_note(res, "No mounting, dismounting or firing during a charge; the target checks "
                      "morale first (X).");
        break;
    default:
        add_note(res, "Riders dismount first; the figure counts as prone (VI, IX).");
        break;
    }
    if (limbered)
        add_note(res, "Limbered horse artillery moves as mounted, foot artillery on foot (VIII).");
    return 0;
}

/* ------------------------------------------------------------------ weather (XIII) */

static const char *const LEVEL_NAME[6] = {
    "?", "Calm", "Light Airs", "Steady Breeze", "High Winds/Inclement", "Gale-Force Winds/Storm",
};

const char *opfor_viktoria_level_title(int level) {
    return level >= 1 && level <= 5 ? LEVEL_NAME[level] : "?";
}

static int act_weather(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                       opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    (void)diag;
    int L = req->v[OPFOR_VK_F_LEVEL], W = req->v[OPFOR_VK_F_WIND];
    int known = L != OPFOR_VK_UNSET, wk = W != OPFOR_VK_UNSET;
    int down = m->weather.level_down, up = m->weather.level_up;
    opfor_viktoria_table_t *t = add_table(res, "level", "Level", "D6");
    int lo_val = known ? (L > 1 ? L - 1 : 1) : OPFOR_VK_UNSET;
    int hi_val = known ? (L < 5 ? L + 1 : 5) : OPFOR_VK_UNSET;
    table_add(t, 1, down,
              known && L == 1 ? "would fall: stays at the lowest level" : "falls one level", lo_val,
              down / 6.0);
    table_add(t, down + 1, up - 1, "no change", known ? L : OPFOR_VK_UNSET, (up - 1 - down) / 6.0);
    table_add(t, up, 6,
              known && L == 5 ? "would rise: stays at the highest level" : "rises one level",
              hi_val, (7 - up) / 6.0);
    const opfor_viktoria_model_t *mm = m;
    int b2 = mm->weather.back2, b1 = mm->weather.back1, v1 = mm->weather.veer1,
        v2 = mm->weather.veer2;
    opfor_viktoria_table_t *w = add_table(res, "wind", "Wind", "2D6");
#define DIR(k) (wk ? (W + (k) + 8) % 8 : OPFOR_VK_UNSET)
    table_add(w, 2, b2, "backs two points", DIR(-2), p2d6(2, b2));
    table_add(w, b2 + 1, b1, "backs one point", DIR(-1), p2d6(b2 + 1, b1));
    table_add(w, b1 + 1, v1 - 1, "holds steady", DIR(0), p2d6(b1 + 1, v1 - 1));
    table_add(w, v1, v2 - 1, "veers one point", DIR(1), p2d6(v1, v2 - 1));
    table_add(w, v2, 12, "veers two points", DIR(2), p2d6(v2, 12));
#undef DIR
    double p_level =
        (known && L == 1 ? 0.0 : down / 6.0) + (known && L == 5 ? 0.0 : (7 - up) / 6.0);
    add_outcome(res, "level_changes", "Level changes", 0, p_level, p_level);
    double p_wind = 1.0 - p2d6(b1 + 1, v1 - 1);
    add_outcome(res, "wind_shifts", "Wind shifts", 0, p_wind, p_wind);
    if (known) {
        add_fact(res, "level", "Current level", L, "", LEVEL_NAME[L]);
        add_fact(res, "command_radius", "Command radius", opfor_viktoria_command_radius(L), "in",
                 NULL);
        add_fact(res, "musician_radius", "Playing musician's reach",
                 opfor_viktoria_musician_radius(L), "in", NULL);
    }
    if (wk)
        add_fact(res, "wind", "Current wind", W, "", opfor_vocab_name(opfor_compass_names, W));
    /* the starting level when the scenario leaves it to the dice: one D6 less two, at least 1
       (XIII); the engine rolls the same (opfor_vk_weather_start) */
    opfor_viktoria_table_t *s0 = add_table(res, "start_level", "Starting level (random)", "D6");
    static const char *const START[5] = {"", "level 1, Calm", "level 2, Light Airs",
                                         "level 3, Steady Breeze", "level 4, High Winds"};
    table_add(s0, 1, 3, START[1], 1, 3 / 6.0);
    for (int f = 4; f <= 6; f++)
        table_add(s0, f, f, START[f - 2], f - 2, 1 / 6.0);
    add_note(res, "Roll at the start of every turn when weather is in play; the level stays "
                  "within 1..5 (V.A, XIII).");
    add_note(res, "Starting level: one D6 minus 2, at least 1; starting wind: a direction die "
                  "(XIII).");
    return 0;
}

/* ------------------------------------------------------------------ dispatch */

static const opfor__vk_action_fn FNS[OPFOR_VK_A_COUNT] = {
    [OPFOR_VK_A_FIRE_PISTOL] = act_fire,
    [OPFOR_VK_A_FIRE_CARBINE] = act_fire,
    [OPFOR_VK_A_FIRE_RIFLE] = act_fire,
    [OPFOR_VK_A_TEST_VS_MG] = act_test_vs_mg,
    [OPFOR_VK_A_FIRE_ARTILLERY] = act_fire_artillery,
    [OPFOR_VK_A_CALL_SUPPORT_FIRE] = act_support,
    [OPFOR_VK_A_THROW_BOMB] = act_throw_bomb,
    [OPFOR_VK_A_TEST_VS_BLAST] = act_test_vs_blast,
    [OPFOR_VK_A_ATTACK_SWORD] = act_attack,
    [OPFOR_VK_A_ATTACK_LANCE] = act_attack,
    [OPFOR_VK_A_ATTACK_BAYONET] = act_attack,
    [OPFOR_VK_A_ATTACK_DAGGER] = act_attack,
    [OPFOR_VK_A_HYPNOTIC_ATTACK] = act_hypnotic,
    [OPFOR_VK_A_TEST_VS_MESMERISM] = act_resist,
    [OPFOR_VK_A_HEAL] = act_heal,
    [OPFOR_VK_A_CHECK_MORALE] = act_morale,
    [OPFOR_VK_A_RALLY] = act_rally,
    [OPFOR_VK_A_TEST_OUT_OF_COMMAND] = act_command,
    [OPFOR_VK_A_ADVANCE] = act_move,
    [OPFOR_VK_A_RUN_GALLOP] = act_move,
    [OPFOR_VK_A_CHARGE] = act_move,
    [OPFOR_VK_A_CRAWL] = act_move,
    [OPFOR_VK_A_WEATHER_EVENT] = act_weather,
};

opfor__vk_action_fn opfor__viktoria_action_fn(int action) {
    return FNS[action];
}
