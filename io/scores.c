/* io/scores.c — the high-score table in SQLite (opfor/scores.h).
 *
 * Every statement is prepared with bound parameters (names and scenario keys are user
 * text). The database runs in WAL mode with a 5 s busy timeout, and the schema version
 * lives in PRAGMA user_version so a later version can migrate it. Parent directories are
 * created as needed, private to the user, because the default path is under ~/.local.
 */
#include "opfor/scores.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

struct opfor_scores {
    sqlite3 *db;    /* the connection */
    char *path;     /* the database file, named in every error */
    char err[1024]; /* last error message */
};

static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS scores ("
    " id INTEGER PRIMARY KEY,"
    " scenario TEXT NOT NULL,"
    " player TEXT NOT NULL,"
    " score INTEGER NOT NULL,"
    " date TEXT NOT NULL,"
    " seed INTEGER NOT NULL,"
    " result TEXT NOT NULL DEFAULT '',"
    " turns INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX IF NOT EXISTS scores_by_scenario ON scores (scenario COLLATE NOCASE, score DESC);"
    "PRAGMA user_version = 1;";

int opfor_scores_default_path(char *buf, size_t size) {
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, size, "%s/opfor/opfor.db", xdg);
    else if (home && home[0])
        n = snprintf(buf, size, "%s/.local/share/opfor/opfor.db", home);
    else
        return OPFOR_ENOENT;
    return n < 0 || (size_t)n >= size ? OPFOR_ERANGE : 0;
}

/* mkdir -p of the directory part of path, mode 0700. */
static int make_parents(const char *path, char *err, size_t errsize) {
    char dir[4096];
    size_t len = strlen(path);
    if (len >= sizeof dir) {
        snprintf(err, errsize, "%s: path too long", path);
        return OPFOR_EINVAL;
    }
    memcpy(dir, path, len + 1);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            snprintf(err, errsize, "%s: cannot create directory %s: %s", path, dir,
                     strerror(errno));
            return OPFOR_EIO;
        }
        *p = '/';
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, errsize, "%s: cannot create directory %s: %s", path, dir, strerror(errno));
        return OPFOR_EIO;
    }
    return 0;
}

int opfor_scores_open(opfor_scores_t **out, const char *path, char *err, size_t errsize) {
    char local[8];
    if (!err) {
        err = local;
        errsize = sizeof local;
    }
    if (errsize)
        err[0] = '\0';
    if (!out)
        return OPFOR_EINVAL;
    *out = NULL;
    if (!path || !path[0]) {
        snprintf(err, errsize, "no database path");
        return OPFOR_EINVAL;
    }
    int rc = make_parents(path, err, errsize);
    if (rc)
        return rc;
    opfor_scores_t *s = calloc(1, sizeof *s);
    if (s && !(s->path = strdup(path))) {
        free(s);
        s = NULL;
    }
    if (!s) {
        snprintf(err, errsize, "%s: out of memory", path);
        return OPFOR_ENOMEM;
    }
    int src = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    char *emsg = NULL;
    if (src == SQLITE_OK) {
        sqlite3_busy_timeout(s->db, 5000);
        src = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL;", NULL, NULL, &emsg);
    }
    if (src == SQLITE_OK)
        src = sqlite3_exec(s->db, SCHEMA, NULL, NULL, &emsg);
    if (src != SQLITE_OK) {
        snprintf(err, errsize, "%s: %s", path,
                 emsg    ? emsg
                 : s->db ? sqlite3_errmsg(s->db)
                         : sqlite3_errstr(src));
        sqlite3_free(emsg);
        sqlite3_close(s->db);
        free(s->path);
        free(s);
        return OPFOR_EIO;
    }
    *out = s;
    return 0;
}

void opfor_scores_close(opfor_scores_t *db) {
    if (!db)
        return;
    sqlite3_close(db->db);
    free(db->path);
    free(db);
}

const char *opfor_scores_errmsg(const opfor_scores_t *db) {
    return db ? db->err : "";
}

static int fail(opfor_scores_t *db, const char *what) {
    snprintf(db->err, sizeof db->err, "%s: %s: %s", db->path, what, sqlite3_errmsg(db->db));
    return OPFOR_EIO;
}

int opfor_scores_add(opfor_scores_t *db, const opfor_score_row_t *row, int64_t *id) {
    if (!db || !row)
        return OPFOR_EINVAL;
    if (!row->scenario[0] || !row->player[0]) {
        snprintf(db->err, sizeof db->err, "%s: a score needs a scenario and a player name",
                 db->path);
        return OPFOR_EINVAL;
    }
    char date[32];
    if (row->date[0]) {
        snprintf(date, sizeof date, "%s", row->date);
    } else {
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->db,
                           "INSERT INTO scores (scenario, player, score, date, seed, result, turns)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(db, "prepare insert");
    sqlite3_bind_text(st, 1, row->scenario, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, row->player, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, row->score);
    sqlite3_bind_text(st, 4, date, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)row->seed);
    sqlite3_bind_text(st, 6, row->result, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 7, row->turns);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fail(db, "insert");
    if (id)
        *id = (int64_t)sqlite3_last_insert_rowid(db->db);
    db->err[0] = '\0';
    return 0;
}

static void copy_col(sqlite3_stmt *st, int col, char *dst, size_t size) {
    const unsigned char *s = sqlite3_column_text(st, col);
    snprintf(dst, size, "%s", s ? (const char *)s : "");
}

/* The rows of one scenario that sql selects (its ?1 the scenario, ?2 the limit). */
static int list_rows(opfor_scores_t *db, const char *sql, const char *scenario,
                     opfor_score_row_t *rows, int max, int *n) {
    if (n)
        *n = 0;
    if (!db || (max > 0 && !rows) || !n)
        return OPFOR_EINVAL;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->db, sql, -1, &st, NULL) != SQLITE_OK)
        return fail(db, "prepare select");
    sqlite3_bind_text(st, 1, scenario ? scenario : "", -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, max > 0 ? max : 0);
    sqlite3_bind_text(st, 3, OPFOR_SCORES_ABANDONED, -1, SQLITE_STATIC);
    int rc, k = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && k < max) {
        opfor_score_row_t *r = &rows[k++];
        memset(r, 0, sizeof *r);
        r->id = (int64_t)sqlite3_column_int64(st, 0);
        copy_col(st, 1, r->scenario, sizeof r->scenario);
        copy_col(st, 2, r->player, sizeof r->player);
        r->score = sqlite3_column_int(st, 3);
        copy_col(st, 4, r->date, sizeof r->date);
        r->seed = (uint64_t)sqlite3_column_int64(st, 5);
        copy_col(st, 6, r->result, sizeof r->result);
        r->turns = sqlite3_column_int(st, 7);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return fail(db, "select");
    *n = k;
    db->err[0] = '\0';
    return 0;
}

int opfor_scores_list(opfor_scores_t *db, const char *scenario, opfor_score_row_t *rows, int max,
                      int *n) {
    return list_rows(db,
                     "SELECT id, scenario, player, score, date, seed, result, turns"
                     " FROM scores WHERE (?1 = '' OR scenario = ?1 COLLATE NOCASE)"
                     " AND result <> ?3"
                     " ORDER BY score DESC, date ASC, id ASC LIMIT ?2",
                     scenario, rows, max, n);
}

int opfor_scores_list_abandoned(opfor_scores_t *db, const char *scenario, opfor_score_row_t *rows,
                                int max, int *n) {
    return list_rows(db,
                     "SELECT id, scenario, player, score, date, seed, result, turns"
                     " FROM scores WHERE (?1 = '' OR scenario = ?1 COLLATE NOCASE)"
                     " AND result = ?3"
                     " ORDER BY date DESC, id DESC LIMIT ?2",
                     scenario, rows, max, n);
}
