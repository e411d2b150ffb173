/* rulesets/splendid/session_int.h — A Splendid Victory!'s table session (session.c): its
 * descriptor for the ruleset and the unit lookup its reports use.
 */
#ifndef OPFOR_SPLENDID_SESSION_INT_H
#define OPFOR_SPLENDID_SESSION_INT_H

#include "engine_int.h"
#include "opfor/session.h"

extern const opfor_ruleset_session_t opfor__sv_session;

/* The unit called name (case-insensitive) or given by its index, or -1. */
int opfor__sv_unit_find(const sv_ctx_t *c, const sv_state_t *s, const char *name);

#endif
