/* opfor/scores.h — the high-score table: the finished games of the rulesets that score
 * them (a table game's `score`, io/game_ops.h, gives the points), stored in SQLite.
 *
 * One table, `scores`, in a database file that defaults to
 * $XDG_DATA_HOME/opfor/opfor.db (or ~/.local/share/opfor/opfor.db). The file is opened in
 * WAL mode with a busy timeout, so a game saving its score while `opfor scores` reads the
 * table never fails on a lock. Rows are plain fixed-size structs; nothing returned needs
 * freeing except the handle. The library never prints: errors come back as OPFOR_E* codes
 * with a message in the caller's buffer.
 */
#ifndef OPFOR_SCORES_H
#define OPFOR_SCORES_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/error.h"

/* Schema version kept in PRAGMA user_version. */
#define OPFOR_SCORES_SCHEMA 1

typedef struct opfor_scores opfor_scores_t;

/* One high score. */
typedef struct opfor_score_row {
    int64_t id;        /* row id, set by the database */
    char scenario[64]; /* scenario key: built-in name or file stem */
    char player[64];   /* player's name */
    int score;         /* the points, as the game's ruleset counts them */
    char date[32];     /* UTC, ISO 8601 "2025-01-31T18:04:05Z"; "" on add: now */
    uint64_t seed;     /* game seed, so the game can be replayed */
    char result[16];   /* "won", "lost", "draw", "ended" (the turn limit) or
                        * OPFOR_SCORES_ABANDONED (left before its end: never ranked) */
    int turns;         /* turns played */
} opfor_score_row_t;

/* The result of a game closed or quit before its end. Its row keeps the points it stood at,
 * for the record, but opfor_scores_list never ranks it: a game left on turn 1, with every unit
 * still unscathed, would otherwise outscore every game played to its end. */
#define OPFOR_SCORES_ABANDONED "abandoned"

/* Writes the default database path into buf: $XDG_DATA_HOME/opfor/opfor.db when
 * XDG_DATA_HOME is set and absolute, else $HOME/.local/share/opfor/opfor.db. Returns 0,
 * OPFOR_ENOENT when neither variable helps, OPFOR_ERANGE when buf is too small. */
int opfor_scores_default_path(char *buf, size_t size);

/* Opens (creating when missing, with its parent directories, mode 0700) the database at
 * path and its table. On success *out must be closed with opfor_scores_close. On failure
 * returns OPFOR_EIO (or OPFOR_EINVAL, OPFOR_ENOMEM), *out is NULL and err (may be NULL)
 * holds "path: reason". */
int opfor_scores_open(opfor_scores_t **out, const char *path, char *err, size_t errsize);
/* Closes the handle; NULL is fine. */
void opfor_scores_close(opfor_scores_t *db);

/* Appends a row (id ignored; an empty date means now). *id (may be NULL) gets its row id.
 * Returns 0, OPFOR_EINVAL for an empty scenario or player, or OPFOR_EIO. */
int opfor_scores_add(opfor_scores_t *db, const opfor_score_row_t *row, int64_t *id);

/* Reads up to max rows of finished games (every result but OPFOR_SCORES_ABANDONED), best
 * first (score descending, then earlier date, then lower id), of one scenario
 * (case-insensitive; NULL or "" for all) into rows; *n gets how many. Returns 0 or OPFOR_EIO. */
int opfor_scores_list(opfor_scores_t *db, const char *scenario, opfor_score_row_t *rows, int max,
                      int *n);

/* Reads up to max rows of abandoned games (result OPFOR_SCORES_ABANDONED), latest first
 * (date descending, then higher id), of one scenario as opfor_scores_list. Returns 0 or
 * OPFOR_EIO. */
int opfor_scores_list_abandoned(opfor_scores_t *db, const char *scenario, opfor_score_row_t *rows,
                                int max, int *n);

/* The message of the last failure on db ("" when none), starting with the database's path. */
const char *opfor_scores_errmsg(const opfor_scores_t *db);

#endif
