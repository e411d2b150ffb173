/* opfor/ruleset_calc.h — a ruleset's calculator: its actions as typed forms and one answer
 * schema shared by every ruleset.
 *
 * The calculator answers "what do I need, and what are my chances" for one roll or test of
 * the rules, or, given the dice rolled at the table, "what happened". Every ruleset answers in
 * the same opfor_calc_answer_t (dice thrown, score needed, chance, expected value, the whole
 * distribution, named facts such as breakpoints, notes), so `opfor calc RULESET ACTION`, the
 * daemon's calc.* methods and the table page print any ruleset's answers the same way.
 */
#ifndef OPFOR_RULESET_CALC_H
#define OPFOR_RULESET_CALC_H

#include <stddef.h>

#include "opfor/error.h"
#include "opfor/form.h"

#define OPFOR_CALC_MAX_DIST 48  /* outcomes of a distribution */
#define OPFOR_CALC_MAX_FACTS 16 /* named facts */
#define OPFOR_CALC_MAX_NOTES 8  /* lines of working */

/* One outcome of a roll with several (hits 0..6, a move of 3..18 inches). */
typedef struct opfor_calc_outcome {
    char label[32]; /* "2 hits", "5 in" */
    double value;   /* the outcome as a number */
    double p;       /* its chance */
} opfor_calc_outcome_t;

/* One named number of an answer ("quarter": 3, "modifier": -1). */
typedef struct opfor_calc_fact {
    char name[24];  /* key on the wire: "quarter" */
    char label[48]; /* for people: "Quarter of the army" */
    double value;   /* the number */
    char text[64];  /* how it reads, when not just the number ("3 stands") */
} opfor_calc_fact_t;

/* The answer to one calculator question. Zero it before filling. */
typedef struct opfor_calc_answer {
    int allowed;      /* 0: the rules forbid this roll (reason says why) */
    char reason[200]; /* why not, when not allowed */
    char title[64];   /* what was asked: "Rifle fire, veteran at soldier, soft cover" */
    char dice[32];    /* dice thrown: "6D6", "2D6", "1" (a count as notation) */
    int ndice;        /* dice thrown as a number (0 when not fixed) */
    char needed[32];  /* score needed: "4+", "6 then 4+", "8+ on 2D6", "" none */
    double p;         /* chance of success (of the needed score; 0..1) */
    int has_expected; /* 1: expected is meaningful */
    double expected;  /* expected value (hits, inches, casualties) */
    int ndist;        /* outcomes listed (0: a single pass/fail roll) */
    opfor_calc_outcome_t dist[OPFOR_CALC_MAX_DIST];
    int nfacts; /* facts listed */
    opfor_calc_fact_t facts[OPFOR_CALC_MAX_FACTS];
    int nnotes; /* lines of working */
    char notes[OPFOR_CALC_MAX_NOTES][160];
    int rolled;        /* 1: dice rolled at the table were given; outcome says what happened */
    int success;       /* with rolled: 1 when the roll succeeded */
    char outcome[160]; /* with rolled: "2 hits: 5 and 6 beat 4+" */
} opfor_calc_answer_t;

typedef struct opfor_ruleset_calc {
    const opfor_form_t *actions; /* the calculator's actions, each a form */
    int nactions;
    /* Optional: loads the ruleset's model of chances from a file (NULL: the built-in one)
     * into *model, released with model_free. 0, OPFOR_ENOENT, OPFOR_EPARSE with diag. NULL:
     * the ruleset has no model file (run gets model NULL). */
    int (*model_load)(const char *path, void **model, opfor_diag_t *diag);
    void (*model_free)(void *model);
    /* Answers action `form` (one of actions) with vals[form->nfields] (checked by
     * opfor_form_check first) and, when `rolled` is not NULL or "", the dice rolled at the
     * table ("2,5,1"). 0 and *out (a forbidden roll is 0 with out->allowed 0), or
     * OPFOR_EINVAL with msg (n bytes) naming the field. */
    int (*run)(const void *model, const opfor_form_t *form, const opfor_value_t *vals,
               const char *rolled, opfor_calc_answer_t *out, char *msg, size_t n);
} opfor_ruleset_calc_t;

#endif
