/* rulesets/splendid/calc_army.h — the calculator's `army` action (calc_army.c): its fields,
 * its answer and its export (a scenario's `units:` list), for calc.c's table of actions.
 */
#ifndef OPFOR_SPLENDID_CALC_ARMY_H
#define OPFOR_SPLENDID_CALC_ARMY_H

#include "splendid_int.h"

#define SV_ARMY_NFIELDS 7
extern const opfor_field_t opfor__sv_army_fields[SV_ARMY_NFIELDS];

/* The army action (model NULL: the built-in tables). 0 with *a, or an error with msg. */
int opfor__sv_run_army(const opfor_sv_model_t *model, const opfor_form_t *f, const opfor_value_t *v,
                       const char *rolled, opfor_calc_answer_t *a, char *msg, size_t mn);
/* The army as a scenario's `units:` list into buf (n bytes): its length, or an error with msg. */
int opfor__sv_export_army(const opfor_sv_model_t *model, const opfor_form_t *f,
                          const opfor_value_t *v, const char *rolled, char *buf, size_t n,
                          char *msg, size_t mn);

#endif
