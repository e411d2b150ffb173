/* tools/opfor/cmd_calc.h — printing any ruleset's calculator answers (opfor/ruleset_calc.h),
 * shared by `opfor calc` and `opfor calc --connect`, so an answer computed here and one read
 * back from a daemon print the same.
 */
#ifndef OPFOR_CMD_CALC_H
#define OPFOR_CMD_CALC_H

#include <stdio.h>

#include "opfor/ruleset.h"
#include "opfor/ruleset_calc.h"

/* Prints the answer a to form (an action of rs's calculator) asked with vals[form->nfields]
 * as text: the question with its fields, the ruleset's own lines (or the generic dice,
 * score, chance, expected value and distribution), the facts, the notes and what the dice
 * rolled at the table did. */
void opfor_calc_print_text(FILE *f, const opfor_ruleset_t *rs, const opfor_form_t *form,
                           const opfor_value_t *vals, const opfor_calc_answer_t *a);
/* The same as one JSON document, shaped as the daemon's `calc` answer. */
void opfor_calc_print_json(FILE *f, const opfor_ruleset_t *rs, const opfor_form_t *form,
                           const opfor_value_t *vals, const opfor_calc_answer_t *a);
/* The text of `opfor calc RULESET --list`, in parts so that a daemon's calc.list answer
 * prints the same: the heading, one action, one of its fields. */
void opfor_calc_print_list_head(FILE *f, const opfor_ruleset_t *rs);
void opfor_calc_print_list_action(FILE *f, const char *name, const char *title, const char *rules,
                                  const char *summary);
void opfor_calc_print_list_field(FILE *f, const char *name, const char *allowed, const char *def);
/* The registered rulesets that have a calculator, comma-separated, into buf. Returns buf. */
const char *opfor_calc_rulesets(char *buf, size_t n);

#endif
