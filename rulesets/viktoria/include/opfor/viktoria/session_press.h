/* opfor/viktoria/session_press.h — the Patrol Mode press sequence (Viktoria! XV.A, XV.B),
 * written once for every place that presses the initiative button: the table session of the
 * daemon (rulesets/viktoria/daemon/vk_game.c) and of the terminal (`opfor patrol`), the rules
 * engine's initiative hook (patrol_engine.c) and the director's look at the spottings ahead
 * (ai_director.c).
 *
 * A sequence observes the players' ground, then presses: each press summarizes the position,
 * draws (patrol_press.c) and is counted; a spotting may be steered by the caller (the
 * director's choice among the allowed outcomes), is placed and brought on (patrol_place.c,
 * patrol_spawn.c), and its new generals may take post beside the unit they keep most in
 * command. The mode says when the sequence stops. What happened comes back as plain data; the
 * caller words it (events, printed lines). The draws, and their order, are those each caller
 * made before the sequence was shared, so every game replays bit for bit.
 */
#ifndef OPFOR_VIKTORIA_SESSION_PRESS_H
#define OPFOR_VIKTORIA_SESSION_PRESS_H

#include "opfor/viktoria/patrol.h"

/* Spottings a report keeps: the first ones, the latest in the last slot. */
#define OPFOR_PATROL_SESSION_MAX_SPOTS 4

/* When a sequence stops. */
typedef enum opfor_patrol_session_mode {
    /* A table's button: a spotting or a side given the initiative ends it; when every unit
     * has acted a new turn begins (opts.turn is told) and the button is pressed again, unless
     * no unit of either side can act at all (report.idle): then that one turn ends it. */
    OPFOR_PATROL_SESSION_TABLE = 0,
    /* The engine's initiative hook: presses through spottings until a side gets the
     * initiative; a press that ends the turn ends the sequence. */
    OPFOR_PATROL_SESSION_ENGINE,
    /* The director's look ahead: resolves the spottings that come next; the first press that
     * is not a spotting is taken back (stream and counts untouched) and ends the sequence, so
     * the engine's hook draws it again. */
    OPFOR_PATROL_SESSION_PEEK,
} opfor_patrol_session_mode_t;

/* How to run a sequence. Zero it, then set what is needed. */
typedef struct opfor_patrol_session_opts {
    int mode;        /* opfor_patrol_session_mode_t */
    int max_presses; /* presses at most (the guard); < 1: 1 */
    /* NULL, or the engine's word on who can act, [0] players, [1] enemy: 0 overrides the
     * summary's ready count to none, nonzero to at least one. opts.spawned may update it. */
    int *ready;
    int observe_each;     /* 1: observe the ground before every press, not only the first */
    int place_generals;   /* 1: new generals take post (opfor_director_place_general) */
    float command_radius; /* for place_generals, inches */
    /* NULL, or called with each spotting drawn, before it is resolved: may replace *spot by
     * an allowed outcome (opfor_director_allowed). Returns 1 replaced, 0 kept, or a negative
     * code, which stops the sequence (the press stays counted, nothing is resolved). */
    int (*steer)(void *user, opfor_patrol_spot_t *spot);
    /* NULL, or called after each spotting is resolved (generals placed): units [n0,
     * fo->nunits) and figures [f0, fo->nfigures) are new. */
    void (*spawned)(void *user, const opfor_patrol_forces_t *fo, int n0, int f0);
    /* NULL, or called when a table sequence began a new turn (ps->turn is the new one);
     * ended: 1 when the scenario's turn limit ended the game (ps->turn is set back to the
     * limit and the sequence stops). */
    void (*turn)(void *user, int ended);
    /* 1 (opfor_patrol_session_opts_table's default; Viktoria! rules version 2 on): a table
     * sequence stops after a turn in which no unit of either side can act (report.idle); 0:
     * it presses on to its max_presses guard, as rules version 1 did (games saved under it
     * replay so). */
    int idle_stop;
    void *user; /* passed to the callbacks */
} opfor_patrol_session_opts_t;

/* One spotting resolved. */
typedef struct opfor_patrol_session_spotting {
    opfor_patrol_spot_t spot;       /* the outcome resolved (after steering) */
    int steered;                    /* 1: steer replaced the dice's draw */
    opfor_patrol_placement_t place; /* where it appears, or why not */
    opfor_patrol_spawn_t spawn;     /* what came on */
    int rc;                         /* opfor_patrol_resolve_spot's answer */
    int joined[4];                  /* per new general: the unit he took post beside, or -1 */
} opfor_patrol_session_spotting_t;

/* What a sequence did. */
typedef struct opfor_patrol_session_report {
    int kind;    /* the last press drawn (opfor_patrol_press_kind_t), -1 when none */
    int side;    /* the side given the initiative, -1 when none */
    int presses; /* presses counted (ps->presses grew by as many) */
    int turns;   /* new turns begun (table) */
    int ended;   /* 1: the turn limit ended the game (table) */
    /* 1: the turn ended because no unit of either side is in play, so none can act (table,
     * without opts.ready): set before opts.turn is told, and the sequence stops after that one
     * turn instead of ending turn after turn. */
    int idle;
    int spots_left; /* with idle: spottings the scenario's limit still allows; -1: no limit */
    int nspots;     /* spottings resolved */
    int steered;    /* of them, those steer replaced */
    int generals;   /* new generals that took post beside a unit */
    opfor_patrol_session_spotting_t spot[OPFOR_PATROL_SESSION_MAX_SPOTS];
} opfor_patrol_session_report_t;

/* Zeroes *o and sets it for a table's button: OPFOR_PATROL_SESSION_TABLE, 4 presses at most, new
 * generals take post within OPFOR_DIRECTOR_COMMAND_RADIUS. The caller adds steer, turn, user. */
void opfor_patrol_session_opts_table(opfor_patrol_session_opts_t *o);

/* Runs a press sequence on the game (cfg, ps, forces fo, the patrol stream rng) as opts says,
 * filling *out. fo's counts grow with the units spawned. Returns 0; the negative code of
 * opts->steer (out tells what happened before); OPFOR_EINVAL for a NULL argument. */
int opfor_patrol_session_press(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                               opfor_patrol_forces_t *fo, opfor_rng_t *rng,
                               const opfor_patrol_session_opts_t *opts,
                               opfor_patrol_session_report_t *out);

/* One spotting's answer: opfor_patrol_resolve_spot, then (place_generals, and placed) each new
 * general takes post beside the unit he keeps most in command within radius. Fills *out
 * (spot, place, spawn, rc, joined; steered is left 0) and returns how many generals took
 * post. The draws are resolve_spot's. */
int opfor_patrol_session_spot(const opfor_patrol_config_t *cfg, opfor_patrol_state_t *ps,
                              opfor_patrol_forces_t *fo, const opfor_patrol_spot_t *spot,
                              opfor_rng_t *rng, int place_generals, float radius,
                              opfor_patrol_session_spotting_t *out);

#endif
