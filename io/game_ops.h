/* io/game_ops.h — one daemon game: the generic shell io keeps, and the table game behind it.
 *
 * A game in the daemon is a shell (the store's row, references, the registry, the commit of
 * log entries, replay, snapshots, the event ring, subscriptions, the workers' jobs and the
 * counters every game keeps: log_seq, ev_seq, status, result, decisions) and a *table game*,
 * the ruleset's side of it, reached only through the operations of opfor__table_game_ops_t
 * below. io/game_gen.c is the built-in table game, which plays any registered ruleset through
 * the ruleset interface (rulesets/include/opfor/ruleset.h); a ruleset may bring a table game
 * of its own as a daemon plug-in (rulesets/NAME/daemon/, compiled into this library and named
 * by RULESET_DAEMON_GAME in its ruleset.cmake), and the generated table behind
 * opfor__table_game_for() maps its name to it. Nothing in io lists rulesets.
 *
 * The commit protocol (io/methods_game.c): begin() makes the table game's work copies of its
 * committed position, apply() moves them (and a copy of the shell's counters) on by one log
 * entry, and keep() makes them the committed ones once the entry is durable; a refused or
 * unsaved entry is simply never kept. Replay runs the same begin/apply/keep for every entry of
 * the log. Loop thread only, except plan() and method_run(), which run on a worker thread on
 * the job's own copy of the position.
 */
#ifndef OPFOR_GAME_OPS_H
#define OPFOR_GAME_OPS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "opfor/rpc.h"
#include "opfor/store.h"

#define OPFOR__GAME_SNAPSHOT_EVERY 16 /* log entries between snapshots */
#define OPFOR__GAME_EVENTS_KEEP 64    /* recent events kept per game for reconnecting clients */
#define OPFOR__GAME_EV_MAX 24         /* most events one mutation may produce */

/* Game status (opfor__table_t.status). */
enum { OPFOR__GS_ACTIVE = 0, OPFOR__GS_FINISHED, OPFOR__GS_CLOSED };
/* How a finished game ended (opfor__table_t.result). */
enum { OPFOR__RES_NONE = 0, OPFOR__RES_WON, OPFOR__RES_LOST, OPFOR__RES_ENDED };

/* The counters every game keeps, whatever its ruleset: the shell's part of the position. A
 * mutation changes a copy; the commit keeps it. Plain data. */
typedef struct opfor__table {
    uint64_t log_seq;  /* log entries applied */
    uint64_t ev_seq;   /* events produced so far */
    int32_t status;    /* OPFOR__GS_* */
    int32_t result;    /* OPFOR__RES_* */
    int32_t decisions; /* AI orders given */
} opfor__table_t;

/* Events produced by one mutation: each a complete params map of an `event` notification. */
typedef struct opfor__evlist {
    int n;                                   /* events packed */
    msgpack_sbuffer buf[OPFOR__GAME_EV_MAX]; /* one per event */
    msgpack_sbuffer scratch;                 /* events past the limit (numbered, dropped) */
} opfor__evlist_t;

void opfor__evlist_init(opfor__evlist_t *e);
void opfor__evlist_free(opfor__evlist_t *e);
/* Starts the next event of game `game` in ev: counts it in *ev_seq (the mutation's copy of the
 * game's event counter), packs the params map's head {game, seq, kind, turn, log_seq} and
 * returns pk ready for the `data` value (pack exactly one object). Past OPFOR__GAME_EV_MAX
 * events it is numbered and packed into the scratch buffer, then dropped. */
msgpack_packer *opfor__ev_begin(opfor__evlist_t *ev, msgpack_packer *pk, const char *game,
                                uint64_t *ev_seq, int turn, uint64_t log_seq, const char *kind);

/* An error for the client: an OPFOR_RPC_E_* code and a message naming the field. */
typedef struct opfor__gerr {
    int code;              /* OPFOR_RPC_E_* */
    char msg[400];         /* "casualties[1].killed: 9 but Fusiliers has 6 figures alive" */
    opfor_rpc_hint_t hint; /* what to do next, for clients that word it (zeroed: none) */
} opfor__gerr_t;

/* Fills e (when not NULL) with an OPFOR_RPC_E_* code and a printf-style message; returns rc,
 * so a check can `return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL, ...)`. */
int opfor__gerr_set(opfor__gerr_t *e, int code, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The hint of e, or NULL when e is NULL (the opfor_rpc_hint_* calls then do nothing). */
static inline opfor_rpc_hint_t *opfor__gerr_hint(opfor__gerr_t *e) {
    return e ? &e->hint : NULL;
}

/* "won", "lost", "ended", "" */
const char *opfor__game_result_name(int result);
/* "active", "finished", "closed" */
const char *opfor__game_status_name(int status);

/* Polled by long work: non-zero means stop. */
typedef int (*opfor__cancel_fn)(void *ud);

struct opfor_ruleset;
struct opfor__table_game_ops;

/* One game in memory: the shell. */
typedef struct opfor__game {
    opfor_store_game_t row;                  /* id, ruleset, scenario name, mode, seed, level */
    const struct opfor__table_game_ops *ops; /* its table game */
    void *tg;                                /* the table game's own data (ops->open) */
    opfor__table_t t;                        /* the committed counters */
    void *jobs;               /* AI jobs searching this game (methods_game.c's list) */
    unsigned refs;            /* 1 for the registry plus one per worker job holding it */
    int unloaded;             /* 1 once dropped from the registry (freed at refs 0) */
    int searching;            /* worker jobs running for it */
    uint64_t used_ms;         /* the loop's clock when a call last named it (idle unloading) */
    struct opfor__game *next; /* registry list */
    /* recent events, packed `event` params maps, oldest first in ring order */
    msgpack_sbuffer ev[OPFOR__GAME_EVENTS_KEEP];
    uint64_t ev_seq_of[OPFOR__GAME_EVENTS_KEEP];
    unsigned ev_head, ev_count;
    uint64_t *subs; /* subscribed connection serials */
    unsigned nsubs, subs_cap;
    /* game.new's options, kept in the `begin` entry (read back from it when the game is
       loaded again; a log without them: none) */
    char player[64]; /* the player's name for the high-score table; "": the game's id */
    int cheat;       /* 1: the AI reads what the table hides (table games with ops->cheats) */
} opfor__game_t;

/* What a game is opened from. */
typedef struct opfor__game_src {
    const char *yaml;  /* the scenario's text given inline (game.new's scenario_yaml), or NULL */
    size_t yaml_len;   /* its length */
    const void *model; /* the daemon's calculator model (opfor__server_model()), may be NULL */
} opfor__game_src_t;

/* A request turned into a log entry: its kind and MessagePack payload. */
typedef struct opfor__entry {
    char kind[16];       /* "press", "act", ... */
    msgpack_sbuffer *sb; /* the payload (left empty: none) */
} opfor__entry_t;

/* The operations of a table game. Every op gets the shell g (its table game in g->tg). Ops
 * marked optional may be NULL. Errors come back as a negative OPFOR_E* code with err (may be
 * NULL) filled with the client's error code, message and hint. */
typedef struct opfor__table_game_ops {
    const char *name;     /* for logs: "generic" or the ruleset's name */
    int inline_scenarios; /* 1: open takes a scenario's text (game.new's scenario_yaml) */
    int cheats;           /* 1: its AI honours game.new's `cheat` (g->cheat); 0: refused */

    /* --- life --- */
    /* Builds the table game of rs for g (g->row as given: scenario name, mode, level; the
     * shell's fields zeroed) in its opening position: sets g->tg and the counters g->t, and
     * writes the row's normalized values back (ruleset name, scenario name, mode, level).
     * 0, or a negative code with err (g->tg then NULL; nothing to free). */
    int (*open)(opfor__game_t *g, const struct opfor_ruleset *rs, const opfor__game_src_t *src,
                opfor__gerr_t *err);
    /* Releases g->tg (NULL is fine). */
    void (*free)(void *tg);
    /* Puts g back in its opening position, counters too (a replay from the first entry). */
    void (*reset)(opfor__game_t *g);
    /* Optional: g->t was changed outside a log entry (a skipped entry's log_seq, a closed
     * row's status); the table game takes the counters into its own copy, if it keeps one. */
    void (*sync)(opfor__game_t *g);

    /* --- the log --- */
    /* Optional: the payload of a new game's first log entry, kind "begin" (the ruleset and
     * rules version it is played under); NULL: its logs have no begin entry. */
    void (*begin_payload)(const opfor__game_t *g, msgpack_packer *pk);
    /* Optional: checks a saved game's first log entry (kind NULL when the log is empty),
     * after open and before replay: 0 when this build replays it (the table game may note
     * what the entry says); otherwise a negative code with err. */
    int (*rules_check)(opfor__game_t *g, const char *kind, const void *payload, size_t len,
                       opfor__gerr_t *err);
    /* 1: a `begin` entry counts in the log_seq clients see (the built-in table game);
     * 0: it is bookkeeping, and the wire's log_seq (game.list's too) counts the entries after
     * it, as they were counted before logs began with one. */
    int begin_on_wire;
    /* A mutation begins: the work copies take the committed position. */
    void (*begin)(opfor__game_t *g);
    /* Applies one log entry (kind, payload bytes; len 0: none) numbered seq to the work
     * copies and to t (a copy of g->t), appending its events to ev. 0, or a negative code
     * with err (the work copies are then garbage). */
    int (*apply)(const opfor__game_t *g, opfor__table_t *t, uint64_t seq, const char *kind,
                 const void *payload, size_t len, opfor__evlist_t *ev, opfor__gerr_t *err);
    /* The mutation is durable: the work copies become the committed ones. */
    void (*keep)(opfor__game_t *g);
    /* A client's request into a log entry, reading the committed position: method is the
     * wire name ("game.act", "game.roll", "game.report", "game.action", "report", "game.undo":
     * take back the last report, where the table game keeps one to take back). 0 with e
     * filled; 1 with e->kind naming a verb of the game's own `method` (a table action that is
     * one of its methods, such as a button that may need a worker): the shell then runs that
     * method with params; or a negative code with err (OPFOR_ENOTSUP: not a method of this
     * game, the hint saying which are). */
    int (*prepare)(const opfor__game_t *g, const char *method, const msgpack_object *params,
                   opfor__entry_t *e, opfor__gerr_t *err);

    /* --- a ruleset's own methods (RULESET.VERB) --- */
    /* Optional (NULL: the game has none; the shell refuses them). The request into a log
     * entry (0 with e filled), or 1: a step must run on a worker first (*work set, a malloc'd
     * block the shell frees), then method_done gives the entry. A negative code with err. */
    int (*method)(const opfor__game_t *g, const char *name, const char *verb,
                  const msgpack_object *params, opfor__entry_t *e, void **work, opfor__gerr_t *err);
    /* Worker thread: runs the step on work (its own copy of the position). */
    void (*method_run)(const opfor__game_t *g, void *work);
    /* Loop thread, the step done: why (0 it ran and the game is unchanged; 1 cancelled; 2 the
     * game changed meanwhile; 3 the game was unloaded) into the log entry (0 with e; never
     * when why is 3), or a negative code with err. */
    int (*method_done)(const opfor__game_t *g, void *work, int why, opfor__entry_t *e,
                       opfor__gerr_t *err);

    /* --- the AI's orders --- */
    /* Whether the AI may be asked for an order now: 0, or a negative code with err (why not,
     * and what to do instead). */
    int (*plan_check)(const opfor__game_t *g, opfor__gerr_t *err);
    /* A worker's job for the position now (a malloc'd block the shell frees), or NULL when
     * out of memory. */
    void *(*plan_new)(const opfor__game_t *g);
    /* Worker thread: plans the AI's order on job (reads g's read-only parts only). cancelled
     * (may be NULL, with ud) is polled between steps and cancel (may be NULL) by the search.
     * share is the worker pool's (opfor_job_t.share): 1, or n > 1 on a busy daemon, when the
     * search spends opfor_ai_level_budget(level, n) and the order's reason says so
     * (opfor_ai_share_note). 0, OPFOR_ECANCELED, OPFOR_EILLEGAL (nobody of the AI's can act:
     * err says so) or another error. */
    int (*plan)(const opfor__game_t *g, void *job, opfor__cancel_fn cancelled, void *ud,
                const atomic_int *cancel, unsigned share, opfor__gerr_t *err);
    /* Packs the planned order of job as the log payload of an "order" entry numbered
     * log_seq (which is also its wire form). */
    void (*plan_pack)(const opfor__game_t *g, void *job, uint64_t log_seq, msgpack_packer *pk);
    /* 1 when the committed last order is still open and was given after log entry since. */
    int (*order_open)(const opfor__game_t *g, uint64_t since);
    /* Packs the committed last order (nil when none was given). */
    void (*pack_order)(const opfor__game_t *g, msgpack_packer *pk);

    /* --- reading --- */
    /* game.state's `viewer` param (params may be NULL: the default viewer, the table's), gm 1
     * when the game master's view is allowed. 0 with *viewer, or a negative code with err. */
    int (*viewer)(const opfor__game_t *g, const msgpack_object *params, int gm, int *viewer,
                  opfor__gerr_t *err);
    /* Packs the whole position as viewer sees it (game.state's result). */
    void (*pack_state)(const opfor__game_t *g, int viewer, msgpack_packer *pk);
    /* Packs nwhere key/value pairs (no map opened) saying where the game stands, for a
     * mutation's answer. */
    void (*pack_where)(const opfor__game_t *g, msgpack_packer *pk);
    int nwhere;
    /* The turn the game is in (for logs). */
    int (*turn)(const opfor__game_t *g);
    /* Optional (NULL: the ruleset's games are not scored): a finished game's score and turns
     * for the high-score table. */
    void (*score)(const opfor__game_t *g, int *score, int *turns);

    /* --- snapshots --- */
    /* The committed position (with g->t) into sb: 0, or OPFOR_ENOTSUP (no snapshots: the
     * game always replays in full) or another error. */
    int (*snapshot)(const opfor__game_t *g, msgpack_sbuffer *sb);
    /* Restores g (g->t too) from a snapshot taken at log entry seq; 0, or OPFOR_EPARSE
     * (g unchanged). */
    int (*restore)(opfor__game_t *g, uint64_t seq, const void *buf, size_t len);
} opfor__table_game_ops_t;

/* The built-in table game (io/game_gen.c): any ruleset through the ruleset interface. */
extern const opfor__table_game_ops_t opfor__gen_ops;

/* The table game that plays rs: its daemon plug-in's (the generated table of
 * RULESET_DAEMON_GAME), or the built-in one. */
const opfor__table_game_ops_t *opfor__table_game_for(const struct opfor_ruleset *rs);

/* Opens a game of rs from row (the ruleset chosen by the caller; row->ruleset is written with
 * its name): a shell with refs 1 around the table game that ops (NULL: the one
 * opfor__table_game_for(rs) names) opens from src (may be NULL: nothing inline). 0, or a
 * negative code with err. */
int opfor__game_open(opfor__game_t **out, const opfor_store_game_t *row,
                     const struct opfor_ruleset *rs, const opfor__table_game_ops_t *ops,
                     const opfor__game_src_t *src, opfor__gerr_t *err);
/* The payload of a `begin` log entry: {"ruleset": rs->name, "rules_version": ...}, with g's
 * game.new options when set ("player", "cheat"; g may be NULL: none). */
void opfor__game_begin_payload(const opfor__game_t *g, const struct opfor_ruleset *rs,
                               msgpack_packer *pk);
/* Reads g's game.new options (player, cheat) back from its `begin` entry's payload; a payload
 * without them (or unreadable: rules_check says so) leaves them unset. */
void opfor__game_options_read(opfor__game_t *g, const void *payload, size_t len);
/* 1 when a `begin` entry's payload says the game's AI cheats (game.new's `cheat`). */
int opfor__game_options_cheat(const void *payload, size_t len);
/* Checks a saved game's first log entry (kind and payload; kind NULL: an empty log) against
 * rs: 0 when it is a `begin` entry written under the same ruleset and rules_version;
 * otherwise UNSUPPORTED (naming both versions) or INTERNAL (no begin entry) in err, and a
 * negative code. */
int opfor__game_rules_check(const opfor_store_game_t *row, const struct opfor_ruleset *rs,
                            const char *kind, const void *payload, size_t len, opfor__gerr_t *err);
/* The first half of that check, for a table game that reads logs of several rules versions:
 * 0 with the version its begin entry names in version (n bytes), when the entry is a begin
 * entry of rs; otherwise INTERNAL (no begin entry) or UNSUPPORTED (another ruleset's) in err
 * and a negative code. */
int opfor__game_rules_read(const opfor_store_game_t *row, const struct opfor_ruleset *rs,
                           const char *kind, const void *payload, size_t len, char *version,
                           size_t n, opfor__gerr_t *err);
/* A method the table game of g does not take (game.act and the other generic methods are
 * for games of the built-in table game; `report` and a ruleset's own methods for the
 * plug-ins'): UNSUPPORTED with a hint naming the generic game methods, OPFOR_ENOTSUP. */
int opfor__game_not_here(const opfor__game_t *g, const char *method, opfor__gerr_t *err);
/* Releases a game: its table game, events and subscriptions (NULL is fine). */
void opfor__game_free(opfor__game_t *g);

#endif
