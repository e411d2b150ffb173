/* opfor/viktoria/calc_list.h — how a calculator field is described in an action list.
 *
 * `opfor calc viktoria --list --json` and the daemon's `calc.list` method both give, for each
 * field of each action, its kind and the names it accepts. The kind names and the choice of
 * name table live here once, so the two lists cannot drift apart.
 */
#ifndef OPFOR_VIKTORIA_CALC_LIST_H
#define OPFOR_VIKTORIA_CALC_LIST_H

#include <stddef.h>

#include "opfor/viktoria/calc.h"
#include "opfor/vocab.h"

/* The kind's key as calc.list gives it: "quality", "class", "choice", "flag", "number",
 * "range" or "inches"; "?" for a value outside the enum. */
const char *opfor_viktoria_kind_name(opfor_viktoria_field_kind_t kind);

/* The names an action's field takes: the qualities, the field's own table (class, choice) or
 * the range brackets; NULL for flags, numbers and inches. */
const opfor_name_t *opfor_viktoria_field_names(const opfor_viktoria_action_field_t *af);

/* The first canonical entry of names at or after from (an alias, whose value an earlier entry
 * already has, is skipped); NULL at the table's end. Walk a table with
 * `for (n = opfor_viktoria_name_next(t, t); n; n = opfor_viktoria_name_next(t, n + 1))`. */
const opfor_name_t *opfor_viktoria_name_next(const opfor_name_t *names, const opfor_name_t *from);

/* How many canonical names names holds. */
size_t opfor_viktoria_name_count(const opfor_name_t *names);

#endif
