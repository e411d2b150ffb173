/* rulesets/viktoria/daemon/vk_game_int.h — Viktoria!'s table game in the daemon (its plug-in,
 * behind io's table game operations, io/game_ops.h): scenario, rules engine, Patrol Mode, the
 * table's state.
 *
 * A game is rebuilt from (scenario, seed, log) by deterministic replay; the log holds presses
 * of the initiative button, the players' reports and the AI orders that were given. Every
 * mutation works on a copy of the game's table state (opfor__vkg_table_t, pointer-free, copied
 * with memcpy), so a request that fails validation changes nothing, and the daemon's commit
 * (io/methods_game.c, through vk_game_ops.c) keeps the copy only after the log entry has been
 * committed. The table keeps its own copy of the shell's counters (log_seq, ev_seq, status,
 * result, decisions: they are part of its hash and snapshot), brought in step with the shell's
 * at every entry. Events a
 * mutation produces are packed into an opfor__evlist_t as complete `event` params maps.
 * Loop thread only, except opfor__vkg_plan(), which the AI job runs on a worker thread on
 * its own copy of the table. Rules: Viktoria! V.A (initiative), VII (command), IX-XI (fire,
 * melee, morale), XV (Patrol Mode).
 */
#ifndef OPFOR_VK_GAME_INT_H
#define OPFOR_VK_GAME_INT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "game_ops.h" /* io's game shell and the table game operations */
#include "opfor/rpc.h"
#include "opfor/scenario.h"
#include "opfor/store.h"
#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/model.h"
#include "opfor/viktoria/session_press.h" /* Patrol Mode and its press sequence */

#define OPFOR__ORDER_NEEDS 4           /* scores needed listed per order */
#define OPFOR__TABLE_MAGIC 0x4F475431u /* "OGT1": snapshot format */

/* Who holds the initiative (opfor__vkg_table_t.pending). */
enum { OPFOR__PEND_NONE = 0, OPFOR__PEND_PLAYER, OPFOR__PEND_ENEMY };
/* The command test of an order (VII). */
enum { OPFOR__CMD_IN_COMMAND = 0, OPFOR__CMD_PASSED, OPFOR__CMD_FAILED };

/* One score the table must roll for an order ("To hit: 4+ on a D6"). */
typedef struct opfor__vkg_need {
    char name[16];  /* key: "hit" */
    char label[32]; /* as shown: "To hit" */
    char dice[8];   /* "D6", "2D6" */
    char need[32];  /* "4+", "no chance" */
    int32_t count;  /* how many times the table rolls it (one per figure that fires), 0 when
                       not counted or when per says */
    char per[12];   /* "hit": one roll per success of the roll before; "" otherwise */
    double p;       /* (issue 19) the chance one roll succeeds, as the dice render it (the
                       calculator's); 0: not given (a move's dice, orders logged before) */
} opfor__vkg_need_t;

/* The last AI order of a game. Plain data: it lives inside the table state. */
#define OPFOR__ORDER_ALTS 8 /* alternatives an order lists (OPFOR_ORDER_MAX_ALTS) */

/* One alternative the search weighed for an order (opfor_order_alt_t's wire part). */
typedef struct opfor__vkg_alt {
    char text[112];  /* the action as a phrase */
    uint32_t visits; /* search iterations through it */
    int32_t chosen;  /* 1 for the order given */
    double value;    /* its mean value for the AI's side, [-1, 1] */
} opfor__vkg_alt_t;

typedef struct opfor__vkg_order {
    int32_t active;        /* 1 once an order was given this game */
    int32_t open;          /* 1 until the next press: its outcome may still be resolved */
    int32_t resolved;      /* 1 once resolved by the daemon's dice */
    int32_t unit;          /* acting unit */
    int32_t target;        /* target unit, -1 none */
    int32_t has_dest;      /* 1 when dest means something */
    int32_t command;       /* OPFOR__CMD_* */
    int32_t has_runner;    /* 1 when runner is valid */
    int32_t nneeds;        /* entries of needs */
    int32_t turn;          /* turn it was given in */
    int32_t decision;      /* the game's AI decision number (keys its dice) */
    uint64_t log_seq;      /* the log entry that recorded it */
    uint64_t answered_by;  /* the first report that answered it (its log entry); 0: none */
    int32_t answered_turn; /* the turn of that report */
    int32_t answered_move; /* 1 once a report moved its unit (or resolve settled it) */
    int32_t figures;       /* figures that fire (opfor_order_t.figures) */
    int32_t figures_how;   /* OPFOR_ORDER_FIG_*: 0 when not counted */
    int32_t has_stop;      /* 1: stop is where a move ends at its mean roll */
    opfor_pt_t stop;       /* the order's one end point (its sentence's "to x, y") */
    int32_t has_limit;     /* 1: the move stops at limit however well its die rolls */
    opfor_pt_t limit;      /* the farthest it gets (opfor_order_t.limit_x, limit_y) */
    char limit_why[48];    /* what stops it there (opfor_order_t.limit_why) */
    int32_t nstops;        /* 3: stops[k] is where the move ends when its D3 shows k + 1 */
    opfor_pt_t stops[3];   /* (opfor_order_t.stops_x, stops_y) */
    int32_t has_via;       /* 1: the move turns at via first (opfor_order_t.has_via) */
    opfor_pt_t via;
    opfor_vk_action_t select; /* the engine's SELECT_UNIT action */
    opfor_vk_action_t action; /* the chosen action */
    opfor_vk_action_t runner; /* the runner-up */
    char sentence[256];       /* readable order */
    char runner_sentence[192];
    char reason[256]; /* why it was chosen */
    char engine[16];  /* "greedy", "heuristic", "mcts" */
    char level[16];   /* AI level name */
    char command_text[64];
    opfor__vkg_need_t needs[OPFOR__ORDER_NEEDS];
    int32_t nalts;                            /* entries of alts (0: no search, or an old log) */
    opfor__vkg_alt_t alts[OPFOR__ORDER_ALTS]; /* what the search weighed (verbose clients) */
} opfor__vkg_order_t;

#define OPFOR__HIST 8 /* recent log entries kept to say what changed since a stale report */

/* One recent log entry, for "what changed" messages. */
typedef struct opfor__vkg_hist {
    uint64_t seq;  /* its log entry (0: unused slot) */
    char kind[8];  /* "press", "report", "order", "undo", "close" */
    char what[80]; /* one line: "Fusiliers: 2 killed, 0 wounded; 4 of 6 left" */
} opfor__vkg_hist_t;

/* The table as it was before the last report, kept until the next press or order so that one
 * undo can take the report back (the parts of the table a report may change; the counters go
 * on), and the entries that say why there is nothing to undo. Plain data. */
typedef struct opfor__vkg_undo {
    uint64_t report;          /* the report it takes back (log entry); 0: nothing to undo */
    uint64_t last_report;     /* the last report applied (log entry), undone or not */
    uint64_t last_undo;       /* the last undo (log entry) */
    uint64_t last_press;      /* the last press (log entry) */
    uint64_t barrier;         /* the press or order after the last report (log entry); 0: none */
    char barrier_kind[8];     /* "press", "order" */
    int32_t pending;          /* OPFOR__PEND_* before the report */
    int32_t pad;              /* zero */
    int32_t weather[2];       /* the weather before it (a weather event reported) */
    opfor_rng_t rng;          /* the game's dice before it (a `roll` draws from them) */
    opfor_patrol_state_t ps;  /* Patrol Mode's state (fates, observations) */
    opfor__vkg_order_t order; /* the last order (its answer) */
    opfor_unit_t units[OPFOR_MAX_UNITS];       /* the units (flags, status, facing) */
    opfor_figure_t figures[OPFOR_MAX_FIGURES]; /* the figures (places, wounds, deaths) */
} opfor__vkg_undo_t;

/* The mutable state of a game: everything replay rebuilds. Pointer-free; copy with memcpy. */
typedef struct opfor__vkg_table {
    uint32_t magic;     /* OPFOR__TABLE_MAGIC */
    uint32_t size;      /* sizeof(opfor__vkg_table_t): snapshots from other builds are ignored */
    opfor_rng_t rng;    /* presses, spottings, substitution and the daemon's dice */
    uint64_t log_seq;   /* log entries applied */
    uint64_t ev_seq;    /* events produced so far */
    int32_t nunits;     /* unit slots in use */
    int32_t nfigures;   /* figure slots in use */
    int32_t turn;       /* 1-based */
    int32_t presses;    /* presses of the initiative button */
    int32_t pending;    /* OPFOR__PEND_* */
    int32_t status;     /* OPFOR__GS_* */
    int32_t result;     /* OPFOR__RES_* */
    int32_t decisions;  /* AI orders given */
    int32_t dice[2];    /* competitive: the last initiative dice */
    int32_t weather[2]; /* the weather now (XIII): level 1..5 and wind (opfor_compass_names);
                           the start's until the table reports a weather event */
    opfor_patrol_state_t ps;  /* Patrol Mode state (zero in competitive games) */
    opfor__vkg_order_t order; /* the last order */
    opfor_unit_t units[OPFOR_MAX_UNITS];
    opfor_figure_t figures[OPFOR_MAX_FIGURES];
    opfor__vkg_hist_t hist[OPFOR__HIST]; /* the last entries, hist[seq % OPFOR__HIST] */
    opfor__vkg_undo_t undo;              /* what one undo restores */
} opfor__vkg_table_t;

/* Viktoria!'s table game: the ruleset's side of one daemon game (the shell's g->tg). */
typedef struct opfor__vkg {
    const opfor_store_game_t *row; /* the shell's row (rowbuf when opened alone): id, seed, ... */
    opfor_store_game_t rowbuf;     /* the row of a game opened with opfor__vkg_open */
    opfor_scenario_t *sc;          /* the scenario (heap: large) */
    opfor_patrol_config_t *cfg;    /* Patrol Mode settings (also the table and sides otherwise) */
    opfor_vk_ctx_t *ctx;           /* rules engine context; NULL when it could not be built */
    struct opfor_vk_rs_ctx *rs;    /* the AI's view of the ruleset; NULL: orders come from the
                                      engine's one-ply look-ahead alone */
    int mode;                      /* OPFOR_MODE_* */
    int player, enemy;             /* side indices */
    int level;                     /* opfor_ai_level_t from difficulty */
    int weather[2];                /* the weather level (1..5) and wind at the start (XIII):
                                    * the scenario's, or rolled from the game's seed (the
                                    * weather now is the table's, t.weather) */
    opfor__vkg_table_t t;          /* the committed state */
    opfor__vkg_table_t *work;      /* the state a mutation changes (vk_game_ops.c) */
    int base;                      /* 1 when the log begins with a `begin` entry, which the
                                      table's log_seq (and so the wire's) does not count */
    int rules;                     /* the rules version its log was written under (1, 2): a
                                      game replays under the rules it was played with */
    const int *cheat;              /* the shell's game.new `cheat` (NULL opened alone): 1, the
                                      search reads the true future spawns */
} opfor__vkg_t;

/* The rules versions this table game replays, as numbers: 1 for "1" (the logs written before
 * logs named their rules, and the first begin entries), 2 for "2" (this build's
 * opfor_viktoria_ruleset.rules_version: a table's press stops after a turn in which no unit can
 * act); 0 for a version it cannot read. */
int opfor__vkg_rules_number(const char *version);

/* Builds a game from *row and scenario text (yaml NULL: the built-in scenario named in
 * row->scenario_name) with the calculator model m (opfor__server_model(); this game path reads
 * it as its ruleset's model); the table is the opening position. row->mode "" takes the
 * scenario's mode. The row is copied (g->row points at the copy, which holds the normalized
 * ruleset, scenario, mode and difficulty). Returns 0, or a negative OPFOR_E* code with err. */
int opfor__vkg_open(opfor__vkg_t **out, const opfor_store_game_t *row, const char *yaml,
                    size_t yaml_len, const void *m, opfor__gerr_t *err);
/* Releases a game (NULL is fine). */
void opfor__vkg_free(opfor__vkg_t *g);
/* Puts t in the opening position of g. */
void opfor__vkg_opening(const opfor__vkg_t *g, opfor__vkg_table_t *t);
/* The table game operations of Viktoria! (vk_game_ops.c), named in ruleset.cmake's
 * RULESET_DAEMON_GAME. */
extern const opfor__table_game_ops_t opfor_vk_table_game;

/* --- mutations: each works on t (a copy of g->t), appends events, and returns 0 or a
 * negative code with err filled (t is then garbage: discard it). log_seq is the number the
 * log entry gets. --- */

/* How a press treats a spotting (Patrol Mode at level challenge, where the director picks
 * among the allowed outcomes). The director runs on a worker (steer set, on a copy of the
 * table); the outcome it picked is then logged with the press and given back as `spot`, so
 * the committed press and every replay use it without running the director again. */
typedef struct opfor__vkg_press_opt {
    /* On a worker: called with the spotting the dice drew, may replace it; the table is as
     * it stands at that press. Returns 0 or a negative code (the press then fails). */
    int (*steer)(void *ud, const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                 opfor_patrol_spot_t *spot);
    void *ud;                 /* passed to steer */
    int has_spot;             /* 1: a spotting of this press takes `spot` instead of the dice */
    opfor_patrol_spot_t spot; /* an allowed outcome (opfor_director_allowed) */
    int spotted;              /* out: 1 when the press made a spotting */
    opfor_patrol_spot_t used; /* out: the outcome it resolved */
    int steered;              /* the director chose the spotting over the dice's draw: out of
                                 steer (which returns 1 then), in with has_spot (logged) */
} opfor__vkg_press_opt_t;

/* A press of the initiative button (XV.A; competitive: a D6 each, ties re-rolled). opt may
 * be NULL (the dice decide every spotting). A new general joins the unit where he keeps the
 * most units in command (the director's rule, in the ruleset's ai_director.c). */
int opfor__vkg_press(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                     opfor__vkg_press_opt_t *opt, opfor__evlist_t *ev, opfor__gerr_t *err);
/* The log payload of a steered press (a map {"spot": {...}}) into sb, and back: 0, or
 * OPFOR_EPROTO with err when the payload is not a valid allowed outcome for g. */
void opfor__vkg_press_payload_pack(const opfor_patrol_spot_t *spot, int steered,
                                   msgpack_packer *pk);
int opfor__vkg_press_payload_read(const opfor__vkg_t *g, const msgpack_object *o,
                                  opfor_patrol_spot_t *spot, opfor__gerr_t *err);
/* A report from the table: params as the `report` method takes them (the `game` key is
 * ignored). With `roll` the rolled dice go to *roll_total (may be NULL). */
int opfor__vkg_report(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                      const msgpack_object *params, opfor__evlist_t *ev, opfor__gerr_t *err);
/* Whether a report (params as the `report` method takes them) may be logged now, against the
 * committed table t: the sequence number it names (`order`: the open order it answers;
 * `seen`: the log_seq of the state its client saw) must still be current, and a report that
 * answers the open order (moves, casualties, morale, off_table or resolve while an order is
 * open) is refused once another report answered it, naming that report, unless it names the
 * state after it (`seen`). Only new requests are checked: logged reports replay as they were.
 * 0, or a negative code with err (ILLEGAL with hint already_answered or stale_state;
 * INVALID_PARAMS for a number that is not one). */
int opfor__vkg_report_check(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                            const msgpack_object *params, opfor__gerr_t *err);
/* Takes back the last report (log entry kind "undo"; params may be NULL, or a map whose
 * optional `report` names the entry to take back, which must be the last one): the table as
 * before it, its counters going on, with an `undo` event. Refused with the reason when there
 * is no report to undo, a press came since, it was undone already, or the game is over. */
int opfor__vkg_undo(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                    const msgpack_object *params, opfor__evlist_t *ev, opfor__gerr_t *err);
/* Whether t's last order is the current one (given since the last press): reports then
 * answer it. */
int opfor__vkg_order_current(const opfor__vkg_table_t *t);
/* A press or an order at log entry seq ends the undo of the last report (kind says which). */
void opfor__vkg_undo_barrier(opfor__vkg_table_t *t, uint64_t seq, const char *kind);
/* Notes log entry seq of kind in t's recent entries with a one-line summary. */
void opfor__vkg_hist_note(opfor__vkg_table_t *t, uint64_t seq, const char *kind, const char *what);
/* An order's `alternatives` (a key and its array) into pk, and back from an order's payload
 * (absent: none) into o (vk_game.c). */
void opfor__vkg_alts_pack(const opfor__vkg_order_t *o, msgpack_packer *pk);
void opfor__vkg_alts_read(const msgpack_object *payload, opfor__vkg_order_t *o);
/* Records an AI order (payload as opfor__vkg_order_pack writes it). */
int opfor__vkg_order(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                     const msgpack_object *payload, opfor__evlist_t *ev, opfor__gerr_t *err);
/* Closes the game. */
int opfor__vkg_close(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                     opfor__evlist_t *ev, opfor__gerr_t *err);
/* Applies one log entry by kind ("press", "report", "undo", "order", "close"), for replay. */
int opfor__vkg_apply_entry(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t seq,
                           const char *kind, const void *payload, size_t len, opfor__evlist_t *ev,
                           opfor__gerr_t *err);

/* --- the table session as typed forms (vk_game_forms.c) --- */

/* Packs game.state's `reports`, `actions` (the forms, a UNIT field's `values` the units the
 * rules allow in t now), `ai_to_order`, `can_undo` and `undo_report`: five keys, no map. */
void opfor__vkg_pack_session(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                             msgpack_packer *pk);
/* game.report and game.action (method) against the committed table: a report form into the
 * `report` entry a `report` call with the same meaning would log (0 with e filled, checked by
 * opfor__vkg_report_check), the initiative action into 1 with e->kind "initiative" (the shell
 * runs the press method), or a negative code with err naming the field. */
int opfor__vkg_form_prepare(const opfor__vkg_t *g, const char *method, const msgpack_object *params,
                            opfor__entry_t *e, opfor__gerr_t *err);

/* --- the AI's orders --- */

/* Plans the order of the non-player unit holding the initiative in t (worker thread: reads
 * g's read-only parts only) with the AI of ai/ (Monte Carlo search guided by the heuristic
 * planner, budget by g->level; the engine's one-ply look-ahead when the AI is unavailable).
 * cancelled (may be NULL) is polled between steps and cancel (may be NULL) by the search
 * itself, every iteration; returns 0
 * with *o filled, OPFOR_ECANCELED, or OPFOR_EILLEGAL (no enemy initiative / no unit can act). */
int opfor__vkg_plan(const opfor__vkg_t *g, const opfor__vkg_table_t *t, opfor__cancel_fn cancelled,
                    void *ud, const atomic_int *cancel, opfor__vkg_order_t *o);
/* opfor__vkg_plan on a busy daemon: the search spends opfor_ai_level_budget(level, share)
 * and the reason ends with opfor_ai_share_note (share 1: exactly opfor__vkg_plan). */
int opfor__vkg_plan_share(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                          opfor__cancel_fn cancelled, void *ud, const atomic_int *cancel,
                          unsigned share, opfor__vkg_order_t *o);
/* Packs an order as the log payload (and the wire `order`, see docs/protocol.md). */
void opfor__vkg_order_pack(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                           const opfor__vkg_order_t *o, msgpack_packer *pk);

/* --- reading --- */

/* 64-bit FNV-1a hash of the table state: equal states, equal hashes. */
uint64_t opfor__vkg_hash(const opfor__vkg_table_t *t);
/* Packs the whole position (game.state's result). */
void opfor__vkg_pack_state(const opfor__vkg_t *g, msgpack_packer *pk);
/* Packs the Patrol Mode score map (or the competitive totals). */
void opfor__vkg_pack_score(const opfor__vkg_t *g, const opfor__vkg_table_t *t, msgpack_packer *pk);
/* The score to record in the high-score table for a finished game. */
int opfor__vkg_score_total(const opfor__vkg_t *g, const opfor__vkg_table_t *t);
/* The verdict on a finished game: "won", "lost" or "drawn" (Patrol Mode: from the score,
 * opfor_patrol_verdict; competitive: won, lost, and drawn for a game the turn limit ended);
 * "" while it is active or after a close. *why, when given, gets the reason in a few words. */
const char *opfor__vkg_verdict(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                               const char **why);
/* "none", "player", "enemy" */
const char *opfor__vkg_pending_name(int pending);
/* Finds a unit by name: exact (case-insensitive) first, else a unique prefix. Returns the
 * index, -1 when none, -2 when ambiguous. */
int opfor__vkg_find_unit(const opfor__vkg_table_t *t, const char *name, size_t len);

/* --- shared by vk_game*.c --- */

/* Starts the next event of t in ev: numbers it, packs the map's head and returns pk ready for
 * the `data` value (pack exactly one object). */
msgpack_packer *opfor__vkg_ev_begin(opfor__evlist_t *ev, msgpack_packer *pk, const opfor__vkg_t *g,
                                    opfor__vkg_table_t *t, uint64_t log_seq, const char *kind);
/* A `score` event. */
void opfor__vkg_ev_score(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                         opfor__evlist_t *ev);
/* Ends the game when a side has nothing left (XV.B: every player unit lost, every enemy
 * gone for good), with a game_over event. */
void opfor__vkg_check_end(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                          opfor__evlist_t *ev);
/* The Patrol Mode view of t's units and figures (points into t). */
opfor_patrol_forces_t opfor__vkg_forces(opfor__vkg_table_t *t);
/* Living figures of unit u (and how many of them are wounded). */
int opfor__vkg_alive(const opfor__vkg_table_t *t, int u, int *wounded);
/* Whether unit u is on the table with a living figure. */
int opfor__vkg_in_play(const opfor__vkg_table_t *t, int u);
/* An engine state for the position in t with `side` about to select a unit, dice from seed
 * (units off the table or without living figures are removed from play). */
void opfor__vkg_engine_state(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                             opfor_vk_state_t *st, uint64_t seed, int side);
/* The seed of the engine dice of AI decision number `decision`. */
uint64_t opfor__vkg_decision_seed(const opfor__vkg_t *g, int decision);
/* Whether unit u of t has a general or headquarters of its side within command radius
 * (VII), Patrol Mode's generals included. */
int opfor__vkg_in_command(const opfor__vkg_t *g, const opfor__vkg_table_t *t, int u);
/* Brings st, just after the SELECT_UNIT of unit u, to its ACTION phase: no test near a
 * general (Patrol Mode's included), otherwise the engine rolls the command test (VII).
 * Returns OPFOR__CMD_*. */
int opfor__vkg_to_action(const opfor__vkg_t *g, const opfor__vkg_table_t *t, opfor_vk_state_t *st,
                         int u);
/* Puts st (just after SELECT_UNIT) in its ACTION phase with the command result an order
 * recorded (OPFOR__CMD_*), so resolving an order never re-rolls its command test. */
void opfor__vkg_force_command(opfor_vk_state_t *st, int command);
/* Takes the engine's result into the table: positions, figure flags, unit status and flags,
 * units removed from play (driven off). */
void opfor__vkg_take_engine(const opfor__vkg_t *g, opfor__vkg_table_t *t,
                            const opfor_vk_state_t *st);
/* Packs {x, y} rounded to hundredths of an inch. */
void opfor__vkg_pack_pt(msgpack_packer *pk, opfor_pt_t p);
/* The table t of g as a drawable scene into *s (vk_game_scene.c; zeroed here): terrain,
 * objectives, the generals' command radii (zones), the units in play, the last open order's
 * move and fire arrows, and units newly placed from a spotting with their placement arrow. */
struct opfor_scene;
void opfor__vkg_scene(const opfor__vkg_t *g, const opfor__vkg_table_t *t, struct opfor_scene *s);

#endif
