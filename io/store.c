/* io/store.c — the SQLite game store (see opfor/store.h).
 *
 * Durability comes from SQLite itself: WAL with synchronous=FULL syncs the WAL at every
 * COMMIT, so once opfor_store_append() returns its entry survives a kill -9 or a power cut.
 * The log is append-only by construction (seq = last + 1 inside BEGIN IMMEDIATE) and by
 * triggers that refuse updates and deletes while the game exists; deleting a game cascades.
 * Hot statements are prepared once at open. Schema versions live in store_schema (not in
 * PRAGMA user_version, which the high-score table in the same file uses for itself).
 */
#include "opfor/store.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { ST_BEGIN, ST_COMMIT, ST_ROLLBACK, ST_LAST_SEQ, ST_INSERT_LOG, ST_TOUCH, ST_COUNT };

static const char *const STMT_SQL[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_LAST_SEQ] = "SELECT (SELECT coalesce(max(seq), 0) FROM log WHERE game_id = ?1) "
                    "FROM games WHERE id = ?1",
    [ST_INSERT_LOG] = "INSERT INTO log (game_id, seq, kind, payload, created) "
                      "VALUES (?1, ?2, ?3, ?4, ?5)",
    [ST_TOUCH] = "UPDATE games SET updated = ?2 WHERE id = ?1",
};

/* Migration N brings the schema from version N-1 to N. Append; never edit a shipped one. */
static const char *const MIGRATIONS[OPFOR_STORE_SCHEMA + 1] = {
    NULL,
    /* 1: games, their append-only logs, snapshots */
    "CREATE TABLE games ("
    "  id TEXT PRIMARY KEY,"
    "  ruleset TEXT NOT NULL,"
    "  scenario_name TEXT NOT NULL DEFAULT '',"
    "  scenario_yaml TEXT,"
    "  mode TEXT NOT NULL DEFAULT '',"
    "  seed INTEGER NOT NULL,"
    "  difficulty TEXT NOT NULL DEFAULT '',"
    "  created INTEGER NOT NULL,"
    "  updated INTEGER NOT NULL,"
    "  status TEXT NOT NULL DEFAULT 'active');"
    "CREATE INDEX games_by_updated ON games (updated DESC);"
    "CREATE TABLE log ("
    "  game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL CHECK (seq >= 1),"
    "  kind TEXT NOT NULL,"
    "  payload BLOB,"
    "  created INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, seq)) WITHOUT ROWID;"
    "CREATE TABLE snapshots ("
    "  game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL,"
    "  state BLOB NOT NULL,"
    "  PRIMARY KEY (game_id, seq)) WITHOUT ROWID;"
    "CREATE TRIGGER log_no_update BEFORE UPDATE ON log BEGIN"
    "  SELECT RAISE(ABORT, 'the log is append-only'); END;"
    "CREATE TRIGGER log_no_delete BEFORE DELETE ON log"
    "  WHEN EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id) BEGIN"
    "  SELECT RAISE(ABORT, 'the log is append-only: delete the game instead'); END;",
};

struct opfor_store {
    sqlite3 *db;                /* the connection */
    sqlite3_stmt *st[ST_COUNT]; /* prepared hot statements */
    int schema;                 /* schema version after migration */
    char err[512];              /* last failure */
};

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int fail(opfor_store_t *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(opfor_store_t *s, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return code;
}

/* An SQLite failure: message with context. */
static int dbfail(opfor_store_t *s, const char *what) {
    return fail(s, OPFOR_EIO, "%s: %s", what, sqlite3_errmsg(s->db));
}

const char *opfor_store_errmsg(const opfor_store_t *s) {
    return s->err;
}

int opfor_store_schema_version(const opfor_store_t *s) {
    return s->schema;
}

int opfor_store_path(char *buf, size_t size, const char *state_dir) {
    int n = snprintf(buf, size, "%s/%s", state_dir, OPFOR_STORE_FILE);
    return n >= 0 && (size_t)n < size ? 0 : OPFOR_ERANGE;
}

static int exec(opfor_store_t *s, const char *sql, const char *what) {
    char *e = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &e) != SQLITE_OK) {
        fail(s, OPFOR_EIO, "%s: %s", what, e ? e : sqlite3_errmsg(s->db));
        sqlite3_free(e);
        return OPFOR_EIO;
    }
    return 0;
}

/* Runs a statement on the cached handle and resets it; 0 or OPFOR_EIO. */
static int step_done(opfor_store_t *s, int which, const char *what) {
    sqlite3_stmt *q = s->st[which];
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return rc == SQLITE_DONE ? 0 : dbfail(s, what);
}

int opfor_store_check(opfor_store_t *s, char *msg, size_t size) {
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &q, NULL) != SQLITE_OK) {
        snprintf(msg, size, "%s", sqlite3_errmsg(s->db));
        return OPFOR_EIO;
    }
    int rc = sqlite3_step(q);
    int ok = rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(q, 0), "ok") == 0;
    if (!ok)
        snprintf(msg, size, "%s",
                 rc == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0)
                                  : sqlite3_errmsg(s->db));
    else if (size)
        snprintf(msg, size, "ok");
    sqlite3_finalize(q);
    return ok ? 0 : OPFOR_EIO;
}

static int migrate(opfor_store_t *s, const char *path) {
    if (exec(s, "BEGIN IMMEDIATE", "begin migration") < 0)
        return OPFOR_EIO;
    int rc = exec(s, "CREATE TABLE IF NOT EXISTS store_schema (version INTEGER NOT NULL)",
                  "schema table");
    sqlite3_stmt *q = NULL;
    int version = 0, rows = 0;
    if (rc == 0 &&
        sqlite3_prepare_v2(s->db, "SELECT version FROM store_schema", -1, &q, NULL) == SQLITE_OK) {
        while (sqlite3_step(q) == SQLITE_ROW) {
            version = sqlite3_column_int(q, 0);
            rows++;
        }
        sqlite3_finalize(q);
    } else if (rc == 0) {
        rc = dbfail(s, "schema version");
    }
    if (rc == 0 && version > OPFOR_STORE_SCHEMA)
        rc = fail(s, OPFOR_ENOTSUP,
                  "%s was written by a newer opford (store schema %d; this build knows %d)", path,
                  version, OPFOR_STORE_SCHEMA);
    for (int v = version + 1; rc == 0 && v <= OPFOR_STORE_SCHEMA; v++) {
        char what[64];
        snprintf(what, sizeof what, "store schema migration %d", v);
        rc = exec(s, MIGRATIONS[v], what);
    }
    if (rc == 0 && version < OPFOR_STORE_SCHEMA) {
        char sql[96];
        if (rows)
            snprintf(sql, sizeof sql, "UPDATE store_schema SET version = %d", OPFOR_STORE_SCHEMA);
        else
            snprintf(sql, sizeof sql, "INSERT INTO store_schema (version) VALUES (%d)",
                     OPFOR_STORE_SCHEMA);
        rc = exec(s, sql, "schema version");
    }
    if (rc == 0)
        rc = exec(s, "COMMIT", "commit migration");
    if (rc < 0) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    s->schema = OPFOR_STORE_SCHEMA;
    return 0;
}

int opfor_store_open(opfor_store_t **out, const char *path, opfor_diag_t *d) {
    *out = NULL;
    opfor_store_t *s = calloc(1, sizeof *s);
    if (!s)
        return opfor_diag_set(d, OPFOR_ENOMEM, 0, 0, "out of memory");
    int rc = 0;
    char msg[400];
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        rc = fail(s, OPFOR_EIO, "cannot open %s: %s", path,
                  s->db ? sqlite3_errmsg(s->db) : "out of memory");
        goto out;
    }
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, 5000);
    if (opfor_store_check(s, msg, sizeof msg) < 0) {
        rc = fail(s, OPFOR_EIO,
                  "%s is damaged (quick_check: %s); stop opford, move the file aside (with its "
                  "-wal and -shm files) and start again, or restore a backup",
                  path, msg);
        goto out;
    }
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &q, NULL) != SQLITE_OK) {
        rc = dbfail(s, "journal_mode");
        goto out;
    }
    int wal = sqlite3_step(q) == SQLITE_ROW &&
              strcmp((const char *)sqlite3_column_text(q, 0), "wal") == 0;
    sqlite3_finalize(q);
    if (!wal) {
        rc = fail(s, OPFOR_EIO, "%s: cannot switch to WAL journaling", path);
        goto out;
    }
    if ((rc = exec(s, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;", "pragmas")) < 0)
        goto out;
    if ((rc = migrate(s, path)) < 0)
        goto out;
    for (int i = 0; i < ST_COUNT; i++)
        if (sqlite3_prepare_v3(s->db, STMT_SQL[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
                               NULL) != SQLITE_OK) {
            rc = dbfail(s, "prepare");
            goto out;
        }
out:
    if (rc < 0) {
        if (d)
            snprintf(d->msg, sizeof d->msg, "%s", s->err);
        opfor_store_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

void opfor_store_close(opfor_store_t *s) {
    if (!s)
        return;
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->st[i]);
    sqlite3_close(s->db);
    free(s);
}

static int id_ok(const char *id) {
    size_t n = strlen(id);
    if (n == 0 || n >= sizeof((opfor_store_game_t *)0)->id)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (id[i] <= ' ' || id[i] > '~')
            return 0;
    return 1;
}

static void bind_text(sqlite3_stmt *q, int i, const char *t) {
    sqlite3_bind_text(q, i, t, -1, SQLITE_TRANSIENT);
}

int opfor_store_game_create(opfor_store_t *s, const opfor_store_game_t *g, const char *yaml,
                            size_t yaml_len) {
    if (!id_ok(g->id))
        return fail(s, OPFOR_EINVAL, "game id must be 1 to 63 printable characters without spaces");
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO games (id, ruleset, scenario_name, scenario_yaml, mode, "
                           "seed, difficulty, created, updated, status) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                           -1, &q, NULL) != SQLITE_OK)
        return dbfail(s, "create game");
    int64_t now = now_ms();
    int64_t created = g->created ? g->created : now;
    bind_text(q, 1, g->id);
    bind_text(q, 2, g->ruleset);
    bind_text(q, 3, g->scenario_name);
    if (yaml)
        sqlite3_bind_text(q, 4, yaml, (int)yaml_len, SQLITE_TRANSIENT);
    bind_text(q, 5, g->mode);
    sqlite3_bind_int64(q, 6, (int64_t)g->seed);
    bind_text(q, 7, g->difficulty);
    sqlite3_bind_int64(q, 8, created);
    sqlite3_bind_int64(q, 9, g->updated ? g->updated : created);
    bind_text(q, 10, g->status[0] ? g->status : "active");
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        return fail(s, OPFOR_EBUSY, "a game with id '%s' already exists", g->id);
    return rc == SQLITE_DONE ? 0 : dbfail(s, "create game");
}

#define GAME_COLUMNS                                                                               \
    "g.id, g.ruleset, g.scenario_name, g.mode, g.seed, g.difficulty, g.created, g.updated, "       \
    "g.status, (SELECT coalesce(max(seq), 0) FROM log WHERE game_id = g.id)"

static void copy_col(sqlite3_stmt *q, int col, char *dst, size_t size) {
    const unsigned char *t = sqlite3_column_text(q, col);
    snprintf(dst, size, "%s", t ? (const char *)t : "");
}

static void read_game(sqlite3_stmt *q, opfor_store_game_t *g) {
    memset(g, 0, sizeof *g);
    copy_col(q, 0, g->id, sizeof g->id);
    copy_col(q, 1, g->ruleset, sizeof g->ruleset);
    copy_col(q, 2, g->scenario_name, sizeof g->scenario_name);
    copy_col(q, 3, g->mode, sizeof g->mode);
    g->seed = (uint64_t)sqlite3_column_int64(q, 4);
    copy_col(q, 5, g->difficulty, sizeof g->difficulty);
    g->created = sqlite3_column_int64(q, 6);
    g->updated = sqlite3_column_int64(q, 7);
    copy_col(q, 8, g->status, sizeof g->status);
    g->last_seq = (uint64_t)sqlite3_column_int64(q, 9);
}

int opfor_store_game_get(opfor_store_t *s, const char *id, opfor_store_game_t *out) {
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT " GAME_COLUMNS " FROM games g WHERE g.id = ?1", -1, &q,
                           NULL) != SQLITE_OK)
        return dbfail(s, "get game");
    bind_text(q, 1, id);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        read_game(q, out);
    sqlite3_finalize(q);
    if (rc == SQLITE_DONE)
        return fail(s, OPFOR_ENOENT, "no game '%s'", id);
    return rc == SQLITE_ROW ? 0 : dbfail(s, "get game");
}

int opfor_store_game_yaml(opfor_store_t *s, const char *id, char **yaml, size_t *len) {
    *yaml = NULL;
    *len = 0;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT scenario_yaml FROM games WHERE id = ?1", -1, &q, NULL) !=
        SQLITE_OK)
        return dbfail(s, "get scenario");
    bind_text(q, 1, id);
    int rc = sqlite3_step(q), ret = 0;
    if (rc == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL) {
        const unsigned char *t = sqlite3_column_text(q, 0);
        size_t n = (size_t)sqlite3_column_bytes(q, 0);
        char *p = malloc(n + 1);
        if (!p) {
            ret = fail(s, OPFOR_ENOMEM, "out of memory");
        } else {
            memcpy(p, t, n);
            p[n] = '\0';
            *yaml = p;
            *len = n;
        }
    } else if (rc == SQLITE_DONE) {
        ret = fail(s, OPFOR_ENOENT, "no game '%s'", id);
    } else if (rc != SQLITE_ROW) {
        ret = dbfail(s, "get scenario");
    }
    sqlite3_finalize(q);
    return ret;
}

int opfor_store_game_list(opfor_store_t *s, opfor_store_game_fn fn, void *ud) {
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT " GAME_COLUMNS " FROM games g ORDER BY g.updated DESC, g.id", -1,
                           &q, NULL) != SQLITE_OK)
        return dbfail(s, "list games");
    int rc, ret = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        opfor_store_game_t g;
        read_game(q, &g);
        if ((ret = fn(ud, &g)) != 0)
            break;
    }
    if (ret == 0 && rc != SQLITE_DONE)
        ret = dbfail(s, "list games");
    sqlite3_finalize(q);
    return ret;
}

/* Runs a one-row-changing statement on a game; ENOENT when no row changed. */
static int game_write(opfor_store_t *s, const char *sql, const char *id, const char *arg,
                      const char *what) {
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return dbfail(s, what);
    bind_text(q, 1, id);
    if (arg)
        bind_text(q, 2, arg);
    if (sqlite3_bind_parameter_count(q) >= 3)
        sqlite3_bind_int64(q, 3, now_ms());
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return dbfail(s, what);
    return sqlite3_changes(s->db) ? 0 : fail(s, OPFOR_ENOENT, "no game '%s'", id);
}

int opfor_store_game_set_status(opfor_store_t *s, const char *id, const char *status) {
    if (!status || !*status || strlen(status) >= sizeof((opfor_store_game_t *)0)->status)
        return fail(s, OPFOR_EINVAL, "status must be 1 to 15 characters");
    return game_write(s, "UPDATE games SET status = ?2, updated = ?3 WHERE id = ?1", id, status,
                      "set status");
}

int opfor_store_game_delete(opfor_store_t *s, const char *id) {
    return game_write(s, "DELETE FROM games WHERE id = ?1", id, NULL, "delete game");
}

int opfor_store_append(opfor_store_t *s, const char *game_id, const char *kind, const void *payload,
                       size_t len, uint64_t *seq) {
    if (!kind || !*kind)
        return fail(s, OPFOR_EINVAL, "an entry needs a kind");
    if (step_done(s, ST_BEGIN, "begin append") < 0)
        return OPFOR_EIO;
    int ret = 0;
    sqlite3_stmt *q = s->st[ST_LAST_SEQ];
    bind_text(q, 1, game_id);
    int rc = sqlite3_step(q);
    int64_t last = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (rc == SQLITE_DONE)
        ret = fail(s, OPFOR_ENOENT, "no game '%s'", game_id);
    else if (rc != SQLITE_ROW)
        ret = dbfail(s, "append");
    int64_t now = now_ms();
    if (ret == 0) {
        q = s->st[ST_INSERT_LOG];
        bind_text(q, 1, game_id);
        sqlite3_bind_int64(q, 2, last + 1);
        bind_text(q, 3, kind);
        if (len)
            sqlite3_bind_blob(q, 4, payload, (int)len, SQLITE_TRANSIENT);
        else
            sqlite3_bind_zeroblob(q, 4, 0);
        sqlite3_bind_int64(q, 5, now);
        ret = step_done(s, ST_INSERT_LOG, "append");
    }
    if (ret == 0) {
        q = s->st[ST_TOUCH];
        bind_text(q, 1, game_id);
        sqlite3_bind_int64(q, 2, now);
        ret = step_done(s, ST_TOUCH, "append");
    }
    if (ret == 0)
        ret = step_done(s, ST_COMMIT, "commit append");
    if (ret < 0) {
        char keep[sizeof s->err];
        memcpy(keep, s->err, sizeof keep);
        step_done(s, ST_ROLLBACK, "rollback");
        memcpy(s->err, keep, sizeof keep);
        return ret;
    }
    if (seq)
        *seq = (uint64_t)(last + 1);
    return 0;
}

int opfor_store_snapshot_put(opfor_store_t *s, const char *game_id, uint64_t seq, const void *state,
                             size_t len) {
    opfor_store_game_t g;
    int rc = opfor_store_game_get(s, game_id, &g);
    if (rc < 0)
        return rc;
    if (seq < 1 || seq > g.last_seq)
        return fail(s, OPFOR_ERANGE, "snapshot seq %llu is outside the log (1..%llu)",
                    (unsigned long long)seq, (unsigned long long)g.last_seq);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT OR REPLACE INTO snapshots (game_id, seq, state) "
                           "VALUES (?1, ?2, ?3)",
                           -1, &q, NULL) != SQLITE_OK)
        return dbfail(s, "snapshot");
    bind_text(q, 1, game_id);
    sqlite3_bind_int64(q, 2, (int64_t)seq);
    if (len)
        sqlite3_bind_blob(q, 3, state, (int)len, SQLITE_TRANSIENT);
    else
        sqlite3_bind_zeroblob(q, 3, 0);
    rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : dbfail(s, "snapshot");
}

/* Entries of game_id after `after`, in order, to fn. */
static int read_entries(opfor_store_t *s, const char *game_id, uint64_t after,
                        opfor_store_entry_fn fn, void *ud) {
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT seq, kind, payload, created FROM log "
                           "WHERE game_id = ?1 AND seq > ?2 ORDER BY seq",
                           -1, &q, NULL) != SQLITE_OK)
        return dbfail(s, "read log");
    bind_text(q, 1, game_id);
    sqlite3_bind_int64(q, 2, (int64_t)after);
    int rc, ret = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        opfor_store_entry_t e;
        e.seq = (uint64_t)sqlite3_column_int64(q, 0);
        e.kind = (const char *)sqlite3_column_text(q, 1);
        e.payload = sqlite3_column_blob(q, 2);
        e.len = (size_t)sqlite3_column_bytes(q, 2);
        e.created = sqlite3_column_int64(q, 3);
        if ((ret = fn(ud, &e)) != 0)
            break;
    }
    if (ret == 0 && rc != SQLITE_DONE)
        ret = dbfail(s, "read log");
    sqlite3_finalize(q);
    return ret;
}

static int game_exists(opfor_store_t *s, const char *id) {
    opfor_store_game_t g;
    return opfor_store_game_get(s, id, &g);
}

int opfor_store_entries(opfor_store_t *s, const char *game_id, uint64_t after,
                        opfor_store_entry_fn fn, void *ud) {
    if (exec(s, "BEGIN", "begin read") < 0)
        return OPFOR_EIO;
    int rc = game_exists(s, game_id);
    if (rc == 0)
        rc = read_entries(s, game_id, after, fn, ud);
    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    return rc;
}

int opfor_store_load(opfor_store_t *s, const char *game_id, opfor_store_snapshot_fn snap,
                     opfor_store_entry_fn entry, void *ud) {
    if (exec(s, "BEGIN", "begin read") < 0)
        return OPFOR_EIO;
    int rc = game_exists(s, game_id);
    uint64_t after = 0;
    if (rc == 0 && snap) {
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(s->db,
                               "SELECT seq, state FROM snapshots WHERE game_id = ?1 "
                               "ORDER BY seq DESC LIMIT 1",
                               -1, &q, NULL) != SQLITE_OK) {
            rc = dbfail(s, "read snapshot");
        } else {
            bind_text(q, 1, game_id);
            int st = sqlite3_step(q);
            if (st == SQLITE_ROW) {
                after = (uint64_t)sqlite3_column_int64(q, 0);
                rc = snap(ud, after, sqlite3_column_blob(q, 1), (size_t)sqlite3_column_bytes(q, 1));
            } else if (st != SQLITE_DONE) {
                rc = dbfail(s, "read snapshot");
            }
            sqlite3_finalize(q);
        }
    }
    if (rc == 0 && entry)
        rc = read_entries(s, game_id, after, entry, ud);
    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    return rc;
}
