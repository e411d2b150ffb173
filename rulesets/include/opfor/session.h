/* opfor/session.h — the table session: what the players at a real table may report, the
 * ruleset's own table actions (a button pressed, a card drawn), and the events they cause.
 *
 * The daemon keeps a game as a ruleset state plus a log; every report and table action is
 * logged with its values and replayed in order, so a game is rebuilt exactly. A ruleset
 * describes its reports and actions as typed forms (opfor/form.h), so every client (the CLI,
 * the table page) can ask for them without knowing the game, and applies them here. Without a
 * session table a game still plays at the table through the generic reports every ruleset
 * has (the daemon's "act": the action a side took, named by its phrase; "roll": the dice the
 * table rolled at a chance node, as one of its explicit outcomes).
 */
#ifndef OPFOR_SESSION_H
#define OPFOR_SESSION_H

#include <stddef.h>

#include "opfor/form.h"
#include "opfor/ruleset.h"

#define OPFOR_SESSION_MAX_EVENTS 8

/* One thing that happened, for every client of the game. */
typedef struct opfor_session_event {
    char kind[24];  /* "drew", "rolled", "spotted" */
    char text[200]; /* for people: "Red draws a card" */
} opfor_session_event_t;

/* What a report or table action did, or why it was refused. */
typedef struct opfor_session_result {
    int nevents;
    opfor_session_event_t events[OPFOR_SESSION_MAX_EVENTS];
    char error[256]; /* when refused: what and why ("card: Red holds no 7") */
} opfor_session_result_t;

typedef struct opfor_ruleset_session {
    const opfor_form_t *reports; /* what the table may report (casualties, a card played) */
    int nreports;
    const opfor_form_t *actions; /* the ruleset's own table actions (initiative, draw) */
    int nactions;
    /* Applies report `form` (one of reports) with vals[form->nfields] from side `side` to
     * state. 0 with out's events, or OPFOR_EILLEGAL / OPFOR_EINVAL with out->error (state is
     * then garbage: the caller works on a copy). */
    int (*report)(const void *ctx, void *state, int side, const opfor_form_t *form,
                  const opfor_value_t *vals, opfor_session_result_t *out);
    /* The same for a table action (one of actions). */
    int (*action)(const void *ctx, void *state, const opfor_form_t *form, const opfor_value_t *vals,
                  opfor_session_result_t *out);
    /* Optional (NULL: a UNIT field takes any unit of the game). The units that field `field`
     * (a UNIT field) of `form` (one of reports or actions) may name now when side `side`
     * reports (-1 for a table action), so that a client offers only what the rules allow
     * (game.state's `values`): up to max names into names (the context's strings, valid while
     * it lives); their count, 0 when none may now, or -1 for "any unit" (no list for that
     * field). Reads state only. */
    int (*unit_values)(const void *ctx, const void *state, int side, const opfor_form_t *form,
                       int field, const char **names, int max);
} opfor_ruleset_session_t;

#endif
