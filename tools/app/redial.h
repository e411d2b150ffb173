/* tools/app/redial.h — connecting again after a lost connection to opford: the bounded backoff
 * between attempts and one attempt (connect, then hello with the token).
 *
 * Shared by every long-lived client of the daemon (`opfor display`, `opfor watch`, the terminal
 * game of a ruleset's `--connect` command), so they all wait 1 s, 2 s, 4 s ... up to 30 s
 * between attempts and treat a refused token the same way. The waiting itself stays with the
 * caller (a display waits on its signals, a terminal on nothing), as does what it does once
 * connected again (subscribe from the last event seen, read the state).
 */
#ifndef OPFOR_TOOLS_REDIAL_H
#define OPFOR_TOOLS_REDIAL_H

#include <stddef.h>

#include "opfor/client.h"

#define OPFOR_REDIAL_MIN_MS 1000  /* the first wait after a lost connection */
#define OPFOR_REDIAL_MAX_MS 30000 /* the longest wait between two attempts */

/* The waits between attempts: min_ms, then doubled each time up to max_ms. */
typedef struct opfor_redial {
    long min_ms;  /* the first wait */
    long max_ms;  /* the bound */
    long next_ms; /* the wait before the next attempt */
    int tries;    /* attempts since the last success */
} opfor_redial_t;

/* Starts the schedule at min_ms (bounded by max_ms; both at least 1). */
void opfor_redial_init(opfor_redial_t *b, long min_ms, long max_ms);
/* The wait before the next attempt; the one after it doubles (up to max_ms) and tries counts
 * it. */
long opfor_redial_next(opfor_redial_t *b);
/* A connection succeeded: the next loss waits min_ms again. */
void opfor_redial_reset(opfor_redial_t *b);

/* One attempt: connects to addr (as opfor_client_connect; connect_ms bounds it), then says
 * hello as client_name with token (NULL or "" for none). Returns 0 with *out set, or a negative
 * code with why (n bytes) saying what failed and *out NULL: OPFOR_EAUTH when the daemon refused
 * the token (trying again will not help), another code for what may pass (no daemon yet,
 * refused, timed out). */
int opfor_redial_connect(opfor_client_t **out, const char *addr, int connect_ms,
                         const char *client_name, const char *token, char *why, size_t n);

#endif
