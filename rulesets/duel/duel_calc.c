/* rulesets/duel/duel_calc.c — the duel's calculator: one action, `attack` (a card against a
 * defence), answered in the shared schema (opfor/ruleset_calc.h): the score needed on 1D6,
 * the chance to hit, the damage distribution and its mean; with the die rolled at the table,
 * what happened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duel_int.h"

static const opfor_field_t ATTACK_FIELDS[] = {
    {.name = "card",
     .label = "Card played",
     .help = "the value of the card attacked with (1..6)",
     .type = OPFOR_FIELD_INT,
     .min = 1,
     .max = OPFOR_DUEL_VALUES,
     .def = 3},
    {.name = "defence",
     .label = "Defence",
     .help = "what die + card must beat (the scenario's, 5 by default)",
     .type = OPFOR_FIELD_INT,
     .min = 0,
     .max = OPFOR_DUEL_MAX_DEFENCE,
     .def = 5},
};

static const opfor_form_t ACTIONS[] = {
    {.name = "attack",
     .title = "Attack",
     .help = "a card plus 1D6 against the defence: chance to hit and damage",
     .section = "attack",
     .fields = ATTACK_FIELDS,
     .nfields = 2},
};

static int value(const opfor_form_t *f, const opfor_value_t *vals, int i) {
    return (int)(vals && vals[i].set ? vals[i].num : f->fields[i].def);
}

/* Reads the one die rolled ("4"); 0 and *face, or OPFOR_EINVAL with msg. */
static int read_die(const char *rolled, int *face, char *msg, size_t n) {
    char *end = NULL;
    long v = strtol(rolled, &end, 10);
    if (end == rolled || *end || v < 1 || v > OPFOR_DUEL_FACES) {
        snprintf(msg, n, "rolled: '%s' is not one die from 1 to 6", rolled);
        return OPFOR_EINVAL;
    }
    *face = (int)v;
    return 0;
}

static int run(const void *model, const opfor_form_t *form, const opfor_value_t *vals,
               const char *rolled, opfor_calc_answer_t *out, char *msg, size_t n) {
    char scratch[8];
    if (!msg || n == 0) {
        msg = scratch;
        n = sizeof scratch;
    }
    msg[0] = 0;
    if (!form || !out || form != &ACTIONS[0]) {
        snprintf(msg, n, "action: not one of the duel's (attack)");
        return OPFOR_EINVAL;
    }
    int rc = opfor_form_check(form, vals, msg, n);
    if (vals && rc < 0)
        return rc;
    int card = value(form, vals, 0), defence = value(form, vals, 1);
    memset(out, 0, sizeof *out);
    out->allowed = 1;
    snprintf(out->title, sizeof out->title, "Attack with the %d against defence %d", card, defence);
    snprintf(out->dice, sizeof out->dice, "1D6");
    out->ndice = 1;
    int need = opfor_duel_need(card, defence);
    if (need > OPFOR_DUEL_FACES)
        snprintf(out->needed, sizeof out->needed, "cannot hit");
    else
        snprintf(out->needed, sizeof out->needed, "%d+", need);
    out->p = need > OPFOR_DUEL_FACES ? 0.0 : (OPFOR_DUEL_FACES + 1 - need) / 6.0;
    /* damage 0 .. card + 6 - defence, each face 1/6 */
    int maxd = opfor_duel_damage(card, OPFOR_DUEL_FACES, defence);
    out->has_expected = 1;
    for (int d = 0; d <= maxd && out->ndist < OPFOR_CALC_MAX_DIST; d++) {
        double p = 0.0;
        for (int f = 1; f <= OPFOR_DUEL_FACES; f++)
            p += opfor_duel_damage(card, f, defence) == d ? 1.0 / 6.0 : 0.0;
        if (p <= 0.0)
            continue;
        opfor_calc_outcome_t *o = &out->dist[out->ndist++];
        snprintf(o->label, sizeof o->label, "%d damage", d);
        o->value = d;
        o->p = p;
        out->expected += d * p;
    }
    opfor_calc_fact_t *fct = &out->facts[out->nfacts++];
    snprintf(fct->name, sizeof fct->name, "need");
    snprintf(fct->label, sizeof fct->label, "Score needed on the die");
    fct->value = need;
    fct = &out->facts[out->nfacts++];
    snprintf(fct->name, sizeof fct->name, "max_damage");
    snprintf(fct->label, sizeof fct->label, "Most damage");
    fct->value = maxd;
    snprintf(out->notes[out->nnotes++], sizeof out->notes[0],
             "damage = die + card - defence = die + %d - %d, when above 0", card, defence);
    if (rolled && rolled[0]) {
        int face;
        if ((rc = read_die(rolled, &face, msg, n)) < 0)
            return rc;
        int dmg = opfor_duel_damage(card, face, defence);
        out->rolled = 1;
        out->success = dmg > 0;
        snprintf(out->outcome, sizeof out->outcome, "%d + %d = %d %s %d: %d damage", face, card,
                 face + card, dmg > 0 ? "beats" : "does not beat", defence, dmg);
    }
    return 0;
}

const opfor_ruleset_calc_t opfor__duel_calc = {
    .actions = ACTIONS,
    .nactions = 1,
    .model_load = NULL,
    .model_free = NULL,
    .run = run,
};
