/* io/game_gen_int.h — a daemon game of any registered ruleset, played through the ruleset
 * interface alone (rulesets/include/opfor/ruleset.h, ruleset_ai.h, session.h).
 *
 * A generic game is (ruleset, context, seed, state bytes, log). The context comes from the
 * ruleset's ctx_new with its default scenario (ctx_new reads scenario files, and the daemon
 * opens no file a client names; the scenario is recorded as "default"), the opening
 * state from init with the game's seed, and every log entry, applied in order, moves the state
 * on; the state's own dice stream lives in the state, so a replay rebuilds the same bytes.
 * The log's entries (kind, then the MessagePack payload):
 *   begin   {"ruleset", "rules_version"}     always entry 1: the rules the log was written
 *                                            under; a build whose rules_version differs
 *                                            refuses to replay it (never misreads it)
 *   act     {"index": i, "action": phrase}   the side to move took its legal action i; replay
 *                                            checks the phrase still names that action
 *   roll    {"auto": true} | {"outcome": i}  at a chance node: the state's own dice (the roll
 *                                            legal lists), or explicit outcome i of
 *                                            chance_outcomes (the table rolled it)
 *   report  {"form", "side", "fields"}       a session report (opfor/session.h) with the
 *   action  {"form", "fields"}               values as text by field name; a session action
 *   order   the order as the wire shows it   the AI's action (its "index" among the legal
 *                                            actions, phrase checked on replay) applied
 *   undo    {"report": entry} or {}          game.undo (issue 19): the last table entry
 *                                            (act, roll, report, action) is taken back, until
 *                                            the next order; one level
 *   close   no payload
 * Undo: each table entry keeps the state and order from before it (gen->undo_state,
 * gen->undo), so an undo puts back exactly what replaying the log without that entry gives
 * (the state carries its own dice); the undo entry is in the log, so a restart replays it.
 * Every mutation works on copies (gen->work, gen->work_order, and the shell's table t for the
 * counters): opfor__gen_begin() makes them, the apply functions change them, and the commit
 * (methods_game.c) keeps them with opfor__gen_keep() only once the log entry is durable, so a
 * refused entry changes nothing. The shell's opfor__table_t holds the counters log_seq,
 * ev_seq, status, result and decisions. These functions are the built-in table game
 * (opfor__gen_ops, io/game_ops.h), which io/methods_game.c reaches through its operations.
 *
 * Who sees what: the AI plays the last side (max_players - 1); the others are the table's.
 * A viewer is a table side (the default: the first) and sees that side's view
 * (opfor_game_view: never the AI's hidden hand), its scene and, when it is a table side's
 * turn, the legal actions; "all" (OPFOR_VIEW_ALL, the game master) sees everything and is
 * allowed only by a daemon run with debug-methods (the operator's switch). The state's hash
 * in game.state is the hash of the viewer's view, so it leaks nothing either. Events carry
 * what the whole table may know: the phrases of actions taken, explicit roll outcomes, the
 * session's own event texts; a roll the daemon made in a ruleset with hidden information is
 * announced without its outcome.
 *
 * Snapshots (rulesets with serialize and deserialize): a map {"v": 1, "log_seq", "ev_seq",
 * "status", "result", "decisions", "state": bin, "order": map or nil}; one that does not read
 * back is ignored and the game replays from its first entry. Loop thread only, except
 * opfor__gen_plan(), which runs on a worker on its own copy of the state.
 */
#ifndef OPFOR_GAME_GEN_INT_H
#define OPFOR_GAME_GEN_INT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "game_ops.h"
#include "opfor/ruleset.h"

#define OPFOR__GEN_NEEDS 4 /* rolls an order lists */

/* The AI's last order in a generic game. Plain data. */
typedef struct opfor__gen_order {
    int32_t active;      /* 1 once an order was given */
    int32_t open;        /* 1 until the next log entry */
    uint64_t log_seq;    /* the entry that recorded it */
    int32_t turn;        /* progress turn when given (0: no progress hook) */
    int32_t side;        /* the AI's side */
    int32_t index;       /* the action's index among the legal actions */
    int32_t decision;    /* the AI's decision number (keys the search) */
    int32_t has_runner;  /* 1 when runner is set */
    int32_t has_dest;    /* 1 when x, y mean something */
    double value;        /* the search's value of the choice */
    double runner_value; /* the runner-up's */
    uint64_t iterations; /* search iterations */
    float x, y;          /* where it goes, inches */
    char action[112];    /* the action's phrase (action_str) */
    char sentence[256];  /* the order as read at the table */
    char reason[400];    /* why: the ruleset's terms and the search's value */
    char runner[112];    /* the runner-up's phrase */
    char level[16];      /* the AI level */
    char unit[24];       /* acting unit, "" none */
    char verb[40];       /* "fire at", ... "" none */
    char target[24];     /* target, "" none */
    int32_t nneeds;      /* rolls used */
    struct {
        char label[24]; /* "to hit" */
        char need[32];  /* "4+" */
        double p;       /* chance */
    } needs[OPFOR__GEN_NEEDS];
} opfor__gen_order_t;

/* What game.undo takes back (issue 19): the last table entry, until the next order. Plain. */
typedef struct opfor__gen_undo {
    uint64_t entry;           /* the table entry an undo takes back (log entry); 0: none */
    uint64_t last;            /* the last table entry applied, undone or not */
    uint64_t last_undo;       /* the last undo (log entry) */
    uint64_t barrier;         /* the order after the last table entry (log entry); 0: none */
    char kind[8];             /* the entry's kind: "act", "roll", "report", "action" */
    char what[112];           /* what it was: the phrase, the outcome, the form */
    opfor__gen_order_t order; /* the last order before the entry */
} opfor__gen_undo_t;

/* The ruleset side of a generic game. */
typedef struct opfor__gen {
    const opfor_ruleset_t *rs;      /* the ruleset */
    void *ctx;                      /* from ctx_new (read-only; workers share it) */
    opfor_game_t game;              /* rs bound to ctx, for the loop thread */
    int ai_side;                    /* the side the AI plays */
    int level;                      /* opfor_ai_level_t */
    unsigned char *state;           /* committed state (rs->state_size bytes) */
    unsigned char *work;            /* the state a mutation changes */
    opfor__gen_order_t order;       /* committed last order */
    opfor__gen_order_t work_order;  /* the mutation's */
    opfor__gen_undo_t undo;         /* committed undo bookkeeping */
    opfor__gen_undo_t work_undo;    /* the mutation's */
    unsigned char *undo_state;      /* the state before undo.entry (rs->state_size bytes) */
    unsigned char *work_undo_state; /* the mutation's */
    opfor_action_t *acts;           /* scratch: rs->max_actions legal actions */
    opfor_chance_outcome_t *outs;   /* scratch: rs->max_actions outcomes */
} opfor__gen_t;

/* The table game of a generic game (g->tg; g->ops is opfor__gen_ops). */
static inline opfor__gen_t *opfor__gen_of(const opfor__game_t *g) {
    return (opfor__gen_t *)g->tg;
}

/* Opens a generic game of rs from its row (scenario_name "" or "default": the ruleset's
 * default, the only one; difficulty: the AI level) in its opening position. 0, or a negative code
 * with err (NOT_FOUND for an unknown scenario, INVALID_PARAMS, UNSUPPORTED, INTERNAL). */
int opfor__gen_open(opfor__game_t **out, const opfor_store_game_t *row, const opfor_ruleset_t *rs,
                    opfor__gerr_t *err);
/* Releases the ruleset side of a game (NULL is fine); opfor__game_free calls it (ops->free). */
void opfor__gen_free(opfor__gen_t *gen);
/* Puts g back in its opening position (counters too). */
void opfor__gen_reset(opfor__game_t *g);

/* A mutation begins: the work copies take the committed state and order. */
void opfor__gen_begin(opfor__gen_t *gen);
/* The mutation is durable: the work copies become the committed ones. */
void opfor__gen_keep(opfor__gen_t *gen);

/* The payload of a generic game's first log entry, "begin": the ruleset's name and
 * rules_version. */
void opfor__gen_begin_payload(const opfor_ruleset_t *rs, msgpack_packer *pk);
/* Checks a saved game's first log entry (kind and payload) against rs: 0 when it was written
 * under the same ruleset and rules_version; otherwise UNSUPPORTED (naming both versions) or
 * INTERNAL (no begin entry) in err, and a negative code. */
int opfor__gen_rules_check(const opfor_store_game_t *row, const opfor_ruleset_t *rs,
                           const char *kind, const void *payload, size_t len, opfor__gerr_t *err);

/* Turns a request's params into the log payload of kind ("act", "roll", "report",
 * "action") packed into pk, reading the committed state (an act's phrase becomes its index).
 * 0, or a negative code with err (the legal phrases listed when an act names none of them). */
int opfor__gen_prepare(const opfor__game_t *g, const char *kind, const msgpack_object *params,
                       msgpack_packer *pk, opfor__gerr_t *err);
/* Applies one log entry (payload may be NULL for close) to the work copies and t, appending
 * its events to ev. 0, or a negative code with err (the work copies are then garbage). */
int opfor__gen_apply(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const char *kind,
                     const msgpack_object *payload, opfor__evlist_t *ev, opfor__gerr_t *err);

/* Worker thread: the AI's order for state (its side to move) with opfor_ai_decide, the
 * ruleset's evaluator and search tuning (rs->ai), budget by g's level, keyed by (game seed,
 * decision) and budget only, so a replayed position gives the same order. cancel may be NULL.
 * 0 with *o, OPFOR_ECANCELED, OPFOR_EILLEGAL (not the AI's turn), or another error. */
int opfor__gen_plan(const opfor__game_t *g, const void *state, int decision,
                    const atomic_int *cancel, opfor__gen_order_t *o);
/* opfor__gen_plan on a busy daemon: the search spends opfor_ai_level_budget(level, share)
 * and the reason ends with opfor_ai_share_note (share 1: exactly opfor__gen_plan). */
int opfor__gen_plan_share(const opfor__game_t *g, const void *state, int decision,
                          const atomic_int *cancel, unsigned share, opfor__gen_order_t *o);
/* Packs an order (the wire form and the log payload). */
void opfor__gen_order_pack(const opfor__game_t *g, const opfor__gen_order_t *o, msgpack_packer *pk);

/* Reads game.state's `viewer` param (absent: the first table side; a side; "all" only when
 * gm is 1). 0 with *viewer, or a negative code with err. */
int opfor__gen_viewer(const opfor__game_t *g, const msgpack_object *params, int gm, int *viewer,
                      opfor__gerr_t *err);
/* Packs game.state's result for viewer. */
void opfor__gen_pack_state(const opfor__game_t *g, int viewer, msgpack_packer *pk);
/* Packs the `where the game stands` keys of a mutation's answer (without opening a map) and
 * returns how many key/value pairs it packed. */
int opfor__gen_pack_where(const opfor__game_t *g, msgpack_packer *pk);
/* The first table side (the default viewer). */
int opfor__gen_table_side(const opfor__game_t *g);

/* The snapshot of g's committed position into sb; 0, or OPFOR_ENOTSUP (the ruleset cannot
 * serialize: no snapshots) or another error. */
int opfor__gen_snapshot(const opfor__game_t *g, msgpack_sbuffer *sb);
/* Restores g from a snapshot taken at log entry seq; 0, or OPFOR_EPARSE (g unchanged). */
int opfor__gen_restore(opfor__game_t *g, uint64_t seq, const void *buf, size_t len);

#endif
