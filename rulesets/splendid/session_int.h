/* rulesets/splendid/session_int.h — A Splendid Victory!'s table session (session.c): its
 * descriptor for the ruleset, the unit lookup its reports use and the units each unit field
 * may name now (session_values.c).
 */
#ifndef OPFOR_SPLENDID_SESSION_INT_H
#define OPFOR_SPLENDID_SESSION_INT_H

#include "engine_int.h"
#include "opfor/session.h"

extern const opfor_ruleset_session_t opfor__sv_session;

/* The unit called name (case-insensitive) or given by its index, or -1. */
int opfor__sv_unit_find(const sv_ctx_t *c, const sv_state_t *s, const char *name);

/* The units a report's unit field may name now (opfor/session.h unit_values;
 * session_values.c). */
int opfor__sv_unit_values(const void *ctx, const void *state, int side, const opfor_form_t *form,
                          int field, const char **names, int max);

#endif
