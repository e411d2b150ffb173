/* tools/opfor/cmd_calc.h — printing calculator answers, shared by `opfor calc` and
 * `opfor demo` so both show a result exactly as the app would.
 */
#ifndef OPFOR_CMD_CALC_H
#define OPFOR_CMD_CALC_H

#include <stdio.h>

#include "opfor/viktoria/calc.h"

/* Prints a result as text. brief = 1 prints only the title, rolls, tables, distances and
 * outcomes (no field list, facts or notes). */
void opfor_calc_print_text(FILE *f, const opfor_viktoria_req_t *req,
                           const opfor_viktoria_result_t *res, int brief);
/* Prints a result as one JSON document. */
void opfor_calc_print_json(FILE *f, const opfor_viktoria_req_t *req,
                           const opfor_viktoria_result_t *res);
/* The text of `opfor calc viktoria --list`, in parts so that a daemon's calc.list answer
 * prints the same: the heading, one action, one of its fields. */
void opfor_calc_print_list_head(FILE *f);
void opfor_calc_print_list_action(FILE *f, const char *name, const char *title, const char *rules,
                                  const char *summary);
void opfor_calc_print_list_field(FILE *f, const char *name, const char *allowed, const char *def);
/* "12.3%" with one decimal (two below 1%). Returns buf. */
const char *opfor_calc_pct(double p, char *buf, size_t size);

#endif
