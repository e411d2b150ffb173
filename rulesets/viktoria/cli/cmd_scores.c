/* rulesets/viktoria/cli/cmd_scores.c — `opfor scores`: the Patrol Mode high-score table.
 *
 *   opfor scores [--scenario NAME] [--limit N] [--db FILE] [--json]
 *
 * A thin shell over io/scores.c. Reading never creates a database: with no file yet, the
 * table is simply empty. Games save their scores through the same module: the terminal game
 * (cmd_patrol) in the data directory's database, the daemon (opford, `make run`) in its state
 * directory's; without --db both are read and their rows merged. Only finished games are
 * ranked, best first; games abandoned before their end are listed after them, apart and
 * unranked, latest first (JSON: "abandoned").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/config.h"
#include "opfor/scores.h"

#define SCORES_MAX_LIMIT 1000

int opfor_vk_cmd_scores(int argc, char **argv);

/* One row as a JSON object; rank 0 (an abandoned game) has no rank. */
static void json_row(opfor_json_t *j, const opfor_score_row_t *r, int rank) {
    opfor_json_obj_begin(j);
    if (rank > 0)
        opfor_json_kv_int(j, "rank", rank);
    opfor_json_kv_int(j, "score", r->score);
    opfor_json_kv_str(j, "player", r->player);
    opfor_json_kv_str(j, "scenario", r->scenario);
    opfor_json_kv_str(j, "result", r->result);
    opfor_json_kv_int(j, "turns", r->turns);
    opfor_json_kv_str(j, "date", r->date);
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
    opfor_json_kv_str(j, "seed", seed);
    opfor_json_obj_end(j);
}

/* Whether row a goes before row b: the ranked best first (a higher score; on a tie, the earlier
 * date), the abandoned latest first. */
static int before(const opfor_score_row_t *a, const opfor_score_row_t *b, int abandoned) {
    if (abandoned)
        return strcmp(a->date, b->date) > 0;
    return a->score > b->score || (a->score == b->score && strcmp(a->date, b->date) < 0);
}

/* Inserts more[0..m) into the sorted rows[0..*n), keeping the first limit. */
static void merge_rows(opfor_score_row_t *rows, int limit, int *n, const opfor_score_row_t *more,
                       int m, int abandoned) {
    for (int i = 0; i < m; i++) {
        int at = *n;
        while (at > 0 && before(&more[i], &rows[at - 1], abandoned))
            at--;
        if (at >= limit)
            continue;
        int last = *n < limit ? *n : limit - 1;
        memmove(&rows[at + 1], &rows[at], (size_t)(last - at) * sizeof *rows);
        rows[at] = more[i];
        if (*n < limit)
            (*n)++;
    }
}

/* Adds the rows of the database at path (if it exists) for scen: its ranked games to
 * rows[0..*n) and its abandoned ones to left[0..*nleft), each kept to limit in its order. 0, or
 * the exit code of the error it printed. */
static int read_db(const char *path, const char *scen, opfor_score_row_t *rows, int *n,
                   opfor_score_row_t *left, int *nleft, int limit) {
    struct stat st;
    char err[1024];
    if (stat(path, &st) != 0)
        return 0;
    opfor_scores_t *db;
    if (opfor_scores_open(&db, path, err, sizeof err) != 0)
        return opfor_cli_fail("scores: %s", err);
    opfor_score_row_t *more = calloc((size_t)limit, sizeof *more);
    int m = 0, rc = 0;
    if (!more)
        rc = opfor_cli_fail("scores: out of memory");
    else if (opfor_scores_list(db, scen, more, limit, &m) != 0)
        rc = opfor_cli_fail("scores: %s", opfor_scores_errmsg(db));
    if (rc == 0) {
        merge_rows(rows, limit, n, more, m, 0);
        if (opfor_scores_list_abandoned(db, scen, more, limit, &m) != 0)
            rc = opfor_cli_fail("scores: %s", opfor_scores_errmsg(db));
        else
            merge_rows(left, limit, nleft, more, m, 1);
    }
    opfor_scores_close(db);
    free(more);
    return rc;
}

int opfor_vk_cmd_scores(int argc, char **argv) {
    const char *scen = NULL, *dbpath = NULL;
    long limit = 20;
    int json = 0, rc;
    const opfor_cli_opt_t opts[] = {
        {.name = "--scenario",
         .type = OPFOR_CLI_STRING,
         .string = &scen,
         .arg = "NAME",
         .wants = "a scenario name",
         .help = "only this scenario (the built-in name or the file's stem,\n"
                 "e.g. patrol_default; case-insensitive)"},
        {.name = "--limit",
         .type = OPFOR_CLI_WHOLE,
         .whole = &limit,
         .lo = 1,
         .hi = SCORES_MAX_LIMIT,
         .arg = "N",
         .help = "at most N rows, 1..1000 (default 20)"},
        {.name = "--db",
         .type = OPFOR_CLI_STRING,
         .string = &dbpath,
         .arg = "FILE",
         .wants = "a file name",
         .help = "the database (default: $XDG_DATA_HOME/opfor/opfor.db, else\n"
                 "~/.local/share/opfor/opfor.db, and the daemon's in its state\n"
                 "directory, $XDG_STATE_HOME/opfor, else ~/.local/state/opfor)"},
        OPFOR_CLI_JSON_OPT(&json),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "scores",
        .about = "The Patrol Mode high scores (Viktoria! XV.B), best first: rank, score, player,\n"
                 "scenario, result, turns, date (UTC) and the game's seed. Only finished\n"
                 "games are ranked; games abandoned before their end follow, apart.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    char path[4096], daemon_db[4096] = "";
    if (!dbpath) {
        if (opfor_scores_default_path(path, sizeof path) != 0)
            return opfor_cli_fail("scores: no database path: set XDG_DATA_HOME or HOME, or "
                                  "give --db FILE");
        dbpath = path;
        char dir[sizeof daemon_db - sizeof "/opfor.db"]; /* room for the file's name after it */
        if (opfor_config_default_state_dir(dir, sizeof dir, NULL, getenv("XDG_STATE_HOME"),
                                           getenv("HOME")) == 0)
            snprintf(daemon_db, sizeof daemon_db, "%s/opfor.db", dir);
        if (strcmp(daemon_db, dbpath) == 0)
            daemon_db[0] = '\0';
    }
    opfor_score_row_t *rows = calloc((size_t)limit, sizeof *rows);
    opfor_score_row_t *left = calloc((size_t)limit, sizeof *left);
    if (!rows || !left) {
        free(rows);
        free(left);
        return opfor_cli_fail("scores: out of memory");
    }
    int n = 0, nleft = 0;
    rc = read_db(dbpath, scen, rows, &n, left, &nleft, (int)limit);
    if (rc == 0 && daemon_db[0])
        rc = read_db(daemon_db, scen, rows, &n, left, &nleft, (int)limit);
    if (rc) {
        free(rows);
        free(left);
        return rc;
    }
    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "db", dbpath);
        if (daemon_db[0])
            opfor_json_kv_str(&j, "daemon_db", daemon_db);
        opfor_json_key(&j, "scores");
        opfor_json_arr_begin(&j);
        for (int i = 0; i < n; i++)
            json_row(&j, &rows[i], i + 1);
        opfor_json_arr_end(&j);
        opfor_json_key(&j, "abandoned");
        opfor_json_arr_begin(&j);
        for (int i = 0; i < nleft; i++)
            json_row(&j, &left[i], 0);
        opfor_json_arr_end(&j);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else {
        if (n == 0)
            printf("no high scores yet%s%s (%s%s%s)\n", scen ? " for " : "", scen ? scen : "",
                   dbpath, daemon_db[0] ? ", the daemon's " : "", daemon_db);
        else
            printf("%4s %5s  %-16s %-18s %-6s %5s  %-20s %s\n", "rank", "score", "player",
                   "scenario", "result", "turns", "date", "seed");
        for (int i = 0; i < n; i++)
            printf("%4d %5d  %-16.16s %-18.18s %-6.6s %5d  %-20s %llu\n", i + 1, rows[i].score,
                   rows[i].player, rows[i].scenario, rows[i].result, rows[i].turns, rows[i].date,
                   (unsigned long long)rows[i].seed);
        if (nleft > 0) {
            printf("\nabandoned before their end (not ranked), latest first:\n");
            printf("%4s %5s  %-16s %-18s %-9s %5s  %-20s %s\n", "", "stood", "player", "scenario",
                   "result", "turn", "date", "seed");
            for (int i = 0; i < nleft; i++)
                printf("%4s %5d  %-16.16s %-18.18s %-9.9s %5d  %-20s %llu\n", "-", left[i].score,
                       left[i].player, left[i].scenario, left[i].result, left[i].turns,
                       left[i].date, (unsigned long long)left[i].seed);
        }
    }
    free(rows);
    free(left);
    return OPFOR_EXIT_OK;
}
