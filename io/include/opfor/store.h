/* io/include/opfor/store.h — opford's game store: SQLite, an append-only log plus snapshots.
 *
 * Every game is a row in `games` and a log of entries (actions, reports, rolls) numbered
 * 1, 2, 3, ... per game; replaying the log from the latest snapshot rebuilds the game, so the
 * log is the truth and snapshots only save time. The database is <state-dir>/opfor.db (the
 * high-score table of opfor/scores.h may live in the same file), opened in WAL mode with
 * synchronous=FULL: opfor_store_append() returns only after its COMMIT is durable, and that is
 * the moment a report counts as acknowledged. A kill -9 at any instant loses nothing that was
 * acknowledged. The schema's version is kept in its own table, store_schema, and migrated at
 * open. The store is single-threaded: use one handle from one thread (the loop thread).
 */
#ifndef OPFOR_STORE_H
#define OPFOR_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/error.h"

#define OPFOR_STORE_FILE "opfor.db" /* the database's name inside the state directory */
#define OPFOR_STORE_SCHEMA 1        /* schema version this build creates and understands */

typedef struct opfor_store opfor_store_t;

/* A game's row. Text fields are NUL-terminated; longer values are refused by create. */
typedef struct opfor_store_game {
    char id[64];             /* game id: printable ASCII, no spaces */
    char ruleset[32];        /* the registry name of its ruleset */
    char scenario_name[128]; /* scenario name, "" for inline YAML without a name */
    char mode[32];           /* the ruleset's mode of play, as the scenario names it */
    uint64_t seed;           /* the game's seed: replay is deterministic from it */
    char difficulty[32];     /* "normal", ... */
    int64_t created;         /* Unix time in milliseconds; create fills it when 0 */
    int64_t updated;         /* time of the last append or status change, ms */
    char status[16];         /* "active" (create's default), "closed", "finished" */
    uint64_t last_seq;       /* highest log seq (0: empty log); filled by get and list */
} opfor_store_game_t;

/* One log entry, as read back. Pointers are valid only during the callback. */
typedef struct opfor_store_entry {
    uint64_t seq;        /* 1, 2, 3, ... within the game */
    const char *kind;    /* "action", "report", "roll", ... (caller's vocabulary) */
    const void *payload; /* MessagePack bytes (may be NULL when len is 0) */
    size_t len;          /* payload bytes */
    int64_t created;     /* Unix time in ms */
} opfor_store_entry_t;

/* Callbacks return 0 to go on, non-zero to stop early (the reading function then returns it). */
typedef int (*opfor_store_entry_fn)(void *ud, const opfor_store_entry_t *e);
typedef int (*opfor_store_game_fn)(void *ud, const opfor_store_game_t *g);
typedef int (*opfor_store_snapshot_fn)(void *ud, uint64_t seq, const void *state, size_t len);

/* Writes "<state_dir>/opfor.db" into buf. Returns 0 or OPFOR_ERANGE. */
int opfor_store_path(char *buf, size_t size, const char *state_dir);

/* Opens (creating when missing; the parent directory must exist) the database at path: WAL,
 * synchronous=FULL, foreign keys on, a busy timeout; runs PRAGMA quick_check and refuses a
 * damaged file (OPFOR_EIO, d->msg quoting SQLite's first complaint and saying to move the file
 * aside); creates or migrates the schema (OPFOR_ENOTSUP for a file written by a newer schema).
 * Returns 0 with *out set, or a negative code with d->msg filled (d may be NULL). */
int opfor_store_open(opfor_store_t **out, const char *path, opfor_diag_t *d);
/* Closes the handle (NULL is fine). */
void opfor_store_close(opfor_store_t *s);
/* The schema version of the open database. */
int opfor_store_schema_version(const opfor_store_t *s);
/* Runs PRAGMA quick_check again: 0 when "ok", OPFOR_EIO with the first problem in msg. */
int opfor_store_check(opfor_store_t *s, char *msg, size_t size);

/* Creates a game from g (created/updated set to now when 0; status "active" when "") and its
 * scenario YAML (yaml may be NULL for none). Returns 0, OPFOR_EBUSY when the id exists,
 * OPFOR_EINVAL for an empty or unprintable id, or OPFOR_EIO. */
int opfor_store_game_create(opfor_store_t *s, const opfor_store_game_t *g, const char *yaml,
                            size_t yaml_len);
/* Reads a game's row (with last_seq). Returns 0, OPFOR_ENOENT, or OPFOR_EIO. */
int opfor_store_game_get(opfor_store_t *s, const char *id, opfor_store_game_t *out);
/* Copies the game's scenario YAML into a malloc'd NUL-terminated buffer (*yaml, free() it;
 * NULL with *len 0 when the game has none). Returns 0, OPFOR_ENOENT, OPFOR_ENOMEM, OPFOR_EIO. */
int opfor_store_game_yaml(opfor_store_t *s, const char *id, char **yaml, size_t *len);
/* Calls fn for every game, most recently updated first. Returns 0, fn's non-zero value, or
 * OPFOR_EIO. */
int opfor_store_game_list(opfor_store_t *s, opfor_store_game_fn fn, void *ud);
/* Sets a game's status ("closed", "finished", "active"). Returns 0, OPFOR_ENOENT, OPFOR_EIO. */
int opfor_store_game_set_status(opfor_store_t *s, const char *id, const char *status);
/* Deletes a game with its log and snapshots. Returns 0, OPFOR_ENOENT, OPFOR_EIO. */
int opfor_store_game_delete(opfor_store_t *s, const char *id);

/* Appends one entry to the game's log with the next seq and returns after the transaction has
 * committed (durably: synchronous=FULL): the acknowledged point. *seq (may be NULL) gets the
 * new entry's number. Entries are never changed or removed afterwards (triggers refuse it),
 * except by deleting the whole game. Returns 0, OPFOR_ENOENT (no such game), OPFOR_EINVAL
 * (empty kind), OPFOR_EIO. */
int opfor_store_append(opfor_store_t *s, const char *game_id, const char *kind, const void *payload,
                       size_t len, uint64_t *seq);

/* Stores a snapshot of the game's state as of log entry seq (1 <= seq <= last seq; replaces an
 * older snapshot at the same seq). Returns 0, OPFOR_ENOENT, OPFOR_ERANGE, OPFOR_EIO. */
int opfor_store_snapshot_put(opfor_store_t *s, const char *game_id, uint64_t seq, const void *state,
                             size_t len);

/* Reads what rebuilds a game, in one consistent read: the latest snapshot (snap called once, if
 * there is one and snap is not NULL) and then every entry after it in order (every entry when
 * there is no snapshot or snap is NULL). Returns 0, a callback's non-zero value, OPFOR_ENOENT
 * (no such game), or OPFOR_EIO. */
int opfor_store_load(opfor_store_t *s, const char *game_id, opfor_store_snapshot_fn snap,
                     opfor_store_entry_fn entry, void *ud);
/* Calls fn for the entries with seq > after, in order (a reconnecting client's catch-up).
 * Returns as opfor_store_load. */
int opfor_store_entries(opfor_store_t *s, const char *game_id, uint64_t after,
                        opfor_store_entry_fn fn, void *ud);

/* The message of the last failure ("" when none). */
const char *opfor_store_errmsg(const opfor_store_t *s);

#endif
