/* rulesets/registry_int.h — the registry table generated from the ruleset folders.
 *
 * rulesets/CMakeLists.txt reads every rulesets/NAME/ruleset.cmake and writes registry.c
 * (from registry.c.in) into the build folder; ruleset.c's opfor_ruleset_list and
 * opfor_ruleset_find read the table through this declaration.
 */
#ifndef OPFOR_REGISTRY_INT_H
#define OPFOR_REGISTRY_INT_H

#include "opfor/ruleset.h"

/* The registered rulesets, ended by {NULL, NULL}. */
extern const opfor_ruleset_entry_t opfor__ruleset_registry[];

#endif
