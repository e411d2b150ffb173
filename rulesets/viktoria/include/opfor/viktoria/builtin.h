/* opfor/viktoria/builtin.h — the Viktoria! scenarios compiled into the binaries.
 *
 * rulesets/CMakeLists.txt embeds every rulesets/viktoria/scenarios/<stem>.yaml as the
 * NUL-terminated byte array opfor_viktoria_scenario_<stem> (length in
 * opfor_viktoria_scenario_<stem>_len), so `opfor` and `opford` need no data files. This
 * module lists them by stem and hands out their text; opfor_viktoria_scenario_load_string
 * parses it.
 */
#ifndef OPFOR_VIKTORIA_BUILTIN_H
#define OPFOR_VIKTORIA_BUILTIN_H

#include <stddef.h>

#include "opfor/scenario.h"
#include "opfor/viktoria/scenario.h"

/* Number of built-in scenarios. */
size_t opfor_viktoria_builtin_count(void);
/* Stem of the i-th built-in scenario ("patrol_default"), or NULL when i is out of range. */
const char *opfor_viktoria_builtin_name(size_t i);
/* YAML text of the built-in scenario called name (exact stem; a "builtin:" prefix is
 * accepted), NUL-terminated, with its length in *len when len is not NULL. NULL when
 * there is no such scenario. */
const char *opfor_viktoria_builtin_text(const char *name, size_t *len);
/* Loads the built-in scenario called name into *sc, diagnostics naming
 * "builtin:<name>". OPFOR_ENOENT (with a message listing the names) when there is none;
 * otherwise as opfor_viktoria_scenario_load_string. */
int opfor_viktoria_builtin_load(const char *name, opfor_scenario_t *sc, opfor_diag_t *diag);

#endif
