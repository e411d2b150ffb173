/* rulesets/viktoria/calc_int.h — private to the Viktoria! calculator (calc.c, calc_rules.c).
 *
 * calc.c owns the tables (actions, fields) and requests; calc_rules.c owns the arithmetic
 * of each action. Each action is one function filling a result from a request whose values
 * calc.c has already checked, so the rules code never re-validates input.
 */
#ifndef OPFOR_VIKTORIA_CALC_INT_H
#define OPFOR_VIKTORIA_CALC_INT_H

#include "opfor/viktoria/calc.h"

/* Signature shared by every action. req has been validated; res has zero counts. */
typedef int (*opfor__vk_action_fn)(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                                   opfor_viktoria_result_t *res, opfor_diag_t *diag);

/* The function answering each action id (calc_rules.c). */
opfor__vk_action_fn opfor__viktoria_action_fn(int action);

#endif
