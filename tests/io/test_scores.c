/* tests/io/test_scores.c — the SQLite high-score table: creation with parent directories,
 * WAL mode, ordering and filtering, round trips of awkward values, the default path, and
 * errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opfor/scores.h"

static char dir[256];

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/opfor_test_scores_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static opfor_score_row_t row(const char *scen, const char *player, int score, const char *date) {
    opfor_score_row_t r;
    memset(&r, 0, sizeof r);
    snprintf(r.scenario, sizeof r.scenario, "%s", scen);
    snprintf(r.player, sizeof r.player, "%s", player);
    r.score = score;
    snprintf(r.date, sizeof r.date, "%s", date);
    r.seed = 7;
    snprintf(r.result, sizeof r.result, "won");
    r.turns = 12;
    return r;
}

static void scores_create_add_list(void **state) {
    (void)state;
    char path[400], err[512];
    snprintf(path, sizeof path, "%s/a/b/opfor.db", dir);
    opfor_scores_t *db;
    assert_int_equal(opfor_scores_open(&db, path, err, sizeof err), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    char parent[400];
    snprintf(parent, sizeof parent, "%s/a/b", dir);
    assert_int_equal(stat(parent, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    int64_t id1, id2;
    opfor_score_row_t r = row("patrol_default", "Ada", 9, "2025-01-02T10:00:00Z");
    assert_int_equal(opfor_scores_add(db, &r, &id1), 0);
    r = row("patrol_default", "Bea", 14, "2025-01-03T10:00:00Z");
    assert_int_equal(opfor_scores_add(db, &r, &id2), 0);
    assert_true(id2 > id1);
    r = row("patrol_default", "Cy", 9, "2025-01-01T10:00:00Z");
    assert_int_equal(opfor_scores_add(db, &r, NULL), 0);
    r = row("river_crossing", "Ada", 20, "2025-01-04T10:00:00Z");
    assert_int_equal(opfor_scores_add(db, &r, NULL), 0);

    opfor_score_row_t rows[10];
    int n;
    assert_int_equal(opfor_scores_list(db, "PATROL_default", rows, 10, &n), 0);
    assert_int_equal(n, 3);
    /* Best first; equal scores by earlier date. */
    assert_string_equal(rows[0].player, "Bea");
    assert_int_equal(rows[0].score, 14);
    assert_string_equal(rows[1].player, "Cy");
    assert_string_equal(rows[2].player, "Ada");
    assert_int_equal(rows[2].id, id1);
    assert_string_equal(rows[2].date, "2025-01-02T10:00:00Z");
    assert_string_equal(rows[2].result, "won");
    assert_int_equal(rows[2].turns, 12);
    assert_int_equal(rows[2].seed, 7);
    assert_int_equal(opfor_scores_list(db, NULL, rows, 10, &n), 0);
    assert_int_equal(n, 4);
    assert_string_equal(rows[0].scenario, "river_crossing");
    assert_int_equal(opfor_scores_list(db, "", rows, 2, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(opfor_scores_list(db, "nonesuch", rows, 10, &n), 0);
    assert_int_equal(n, 0);
    opfor_scores_close(db);

    /* Reopened: the rows are still there, and the database is in WAL mode. */
    assert_int_equal(opfor_scores_open(&db, path, err, sizeof err), 0);
    assert_int_equal(opfor_scores_list(db, NULL, rows, 10, &n), 0);
    assert_int_equal(n, 4);
    opfor_scores_close(db);
    sqlite3 *raw;
    assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(q, 0), "wal");
    sqlite3_finalize(q);
    assert_int_equal(sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), OPFOR_SCORES_SCHEMA);
    sqlite3_finalize(q);
    sqlite3_close(raw);
}

static void scores_awkward_values(void **state) {
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/awkward.db", dir);
    opfor_scores_t *db;
    assert_int_equal(opfor_scores_open(&db, path, NULL, 0), 0);
    opfor_score_row_t r = row("x'); DROP TABLE scores; --", "O'Brien \"the Bold\"", -3, "");
    r.seed = UINT64_MAX - 5;
    assert_int_equal(opfor_scores_add(db, &r, NULL), 0);
    opfor_score_row_t rows[2];
    int n;
    assert_int_equal(opfor_scores_list(db, r.scenario, rows, 2, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].player, r.player);
    assert_int_equal(rows[0].score, -3);
    assert_true(rows[0].seed == UINT64_MAX - 5);
    /* An empty date became now: "YYYY-MM-DDTHH:MM:SSZ". */
    assert_int_equal(strlen(rows[0].date), 20);
    assert_int_equal(rows[0].date[10], 'T');
    assert_int_equal(rows[0].date[19], 'Z');
    r.player[0] = '\0';
    assert_int_equal(opfor_scores_add(db, &r, NULL), OPFOR_EINVAL);
    opfor_scores_close(db);
}

static void scores_open_errors(void **state) {
    (void)state;
    char path[400], err[512];
    opfor_scores_t *db = (opfor_scores_t *)1;
    /* A file where a directory should be. */
    snprintf(path, sizeof path, "%s/plain", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/plain/sub/opfor.db", dir);
    assert_int_equal(opfor_scores_open(&db, path, err, sizeof err), OPFOR_EIO);
    assert_null(db);
    assert_non_null(strstr(err, "cannot create directory"));
    assert_non_null(strstr(err, path));
    /* Not a database. */
    snprintf(path, sizeof path, "%s/garbage.db", dir);
    f = fopen(path, "w");
    fputs("this is not an SQLite database, not even close, just some text\n", f);
    fclose(f);
    assert_int_equal(opfor_scores_open(&db, path, err, sizeof err), OPFOR_EIO);
    assert_non_null(strstr(err, "garbage.db: "));
    assert_int_equal(opfor_scores_open(&db, "", err, sizeof err), OPFOR_EINVAL);
    assert_int_equal(opfor_scores_open(NULL, path, err, sizeof err), OPFOR_EINVAL);
    opfor_scores_close(NULL);
}

/* A statement that fails names the database, so the player knows which file to look at. */
static void scores_statement_errors(void **state) {
    (void)state;
    char path[400], err[512];
    snprintf(path, sizeof path, "%s/dropped.db", dir);
    opfor_scores_t *db;
    assert_int_equal(opfor_scores_open(&db, path, err, sizeof err), 0);
    opfor_score_row_t r = row("patrol_default", "", 3, "");
    assert_int_equal(opfor_scores_add(db, &r, NULL), OPFOR_EINVAL);
    assert_non_null(strstr(opfor_scores_errmsg(db), "needs a scenario and a player name"));
    assert_true(strncmp(opfor_scores_errmsg(db), path, strlen(path)) == 0);
    sqlite3 *other;
    assert_int_equal(sqlite3_open(path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "DROP TABLE scores;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
    r = row("patrol_default", "Ada", 3, "");
    assert_int_equal(opfor_scores_add(db, &r, NULL), OPFOR_EIO);
    assert_true(strncmp(opfor_scores_errmsg(db), path, strlen(path)) == 0);
    assert_non_null(strstr(opfor_scores_errmsg(db), "insert: no such table: scores"));
    opfor_score_row_t rows[2];
    int n = -1;
    assert_int_equal(opfor_scores_list(db, NULL, rows, 2, &n), OPFOR_EIO);
    assert_true(strncmp(opfor_scores_errmsg(db), path, strlen(path)) == 0);
    opfor_scores_close(db);
}

static void scores_default_path(void **state) {
    (void)state;
    char buf[512];
    setenv("XDG_DATA_HOME", "/data/x", 1);
    setenv("HOME", "/home/h", 1);
    assert_int_equal(opfor_scores_default_path(buf, sizeof buf), 0);
    assert_string_equal(buf, "/data/x/opfor/opfor.db");
    setenv("XDG_DATA_HOME", "relative/ignored", 1);
    assert_int_equal(opfor_scores_default_path(buf, sizeof buf), 0);
    assert_string_equal(buf, "/home/h/.local/share/opfor/opfor.db");
    unsetenv("XDG_DATA_HOME");
    assert_int_equal(opfor_scores_default_path(buf, sizeof buf), 0);
    assert_string_equal(buf, "/home/h/.local/share/opfor/opfor.db");
    assert_int_equal(opfor_scores_default_path(buf, 10), OPFOR_ERANGE);
    unsetenv("HOME");
    assert_int_equal(opfor_scores_default_path(buf, sizeof buf), OPFOR_ENOENT);
}

/* A game quit on turn 1 (every unit unscathed: 12 points) never outranks one played to its end
 * (8): it is listed apart, as abandoned, latest first. */
static void scores_abandoned_never_ranked(void **state) {
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/abandoned.db", dir);
    opfor_scores_t *db;
    assert_int_equal(opfor_scores_open(&db, path, NULL, 0), 0);
    opfor_score_row_t r = row("patrol_default", "Quitter", 12, "2025-02-01T10:00:00Z");
    snprintf(r.result, sizeof r.result, "%s", OPFOR_SCORES_ABANDONED);
    r.turns = 1;
    assert_int_equal(opfor_scores_add(db, &r, NULL), 0);
    r = row("patrol_default", "Finisher", 8, "2025-02-02T10:00:00Z");
    snprintf(r.result, sizeof r.result, "ended");
    assert_int_equal(opfor_scores_add(db, &r, NULL), 0);
    r = row("patrol_default", "Later", 11, "2025-02-03T10:00:00Z");
    snprintf(r.result, sizeof r.result, "%s", OPFOR_SCORES_ABANDONED);
    assert_int_equal(opfor_scores_add(db, &r, NULL), 0);
    opfor_score_row_t rows[4];
    int n;
    assert_int_equal(opfor_scores_list(db, NULL, rows, 4, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].player, "Finisher");
    assert_int_equal(rows[0].score, 8);
    assert_int_equal(opfor_scores_list_abandoned(db, "PATROL_DEFAULT", rows, 4, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(rows[0].player, "Later");
    assert_string_equal(rows[1].player, "Quitter");
    assert_string_equal(rows[1].result, OPFOR_SCORES_ABANDONED);
    assert_int_equal(rows[1].score, 12);
    assert_int_equal(opfor_scores_list_abandoned(db, "other", rows, 4, &n), 0);
    assert_int_equal(n, 0);
    opfor_scores_close(db);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scores_create_add_list), cmocka_unit_test(scores_awkward_values),
        cmocka_unit_test(scores_open_errors),     cmocka_unit_test(scores_statement_errors),
        cmocka_unit_test(scores_default_path),    cmocka_unit_test(scores_abandoned_never_ranked),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
