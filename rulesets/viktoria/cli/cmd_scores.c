/* rulesets/viktoria/cli/cmd_scores.c — `opfor scores`: the Patrol Mode high-score table.
 *
 *   opfor scores [--scenario NAME] [--limit N] [--db FILE] [--json]
 *
 * A thin shell over io/scores.c. Reading never creates a database: with no file yet, the
 * table is simply empty. Games save their scores through the same module (cmd_patrol).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/scores.h"

#define SCORES_MAX_LIMIT 1000

int opfor_vk_cmd_scores(int argc, char **argv);

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
         .help = "the database (default $XDG_DATA_HOME/opfor/opfor.db, else\n"
                 "~/.local/share/opfor/opfor.db)"},
        OPFOR_CLI_JSON_OPT(&json),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "scores",
        .about = "The Patrol Mode high scores (Viktoria! XV.B), best first: rank, score, player,\n"
                 "scenario, result, turns, date (UTC) and the game's seed.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    char path[4096], err[1024];
    if (!dbpath) {
        if (opfor_scores_default_path(path, sizeof path) != 0)
            return opfor_cli_fail("scores: no database path: set XDG_DATA_HOME or HOME, or "
                                  "give --db FILE");
        dbpath = path;
    }
    opfor_score_row_t *rows = calloc((size_t)limit, sizeof *rows);
    if (!rows)
        return opfor_cli_fail("scores: out of memory");
    int n = 0;
    struct stat st;
    if (stat(dbpath, &st) == 0) {
        opfor_scores_t *db;
        if (opfor_scores_open(&db, dbpath, err, sizeof err) != 0) {
            free(rows);
            return opfor_cli_fail("scores: %s", err);
        }
        if (opfor_scores_list(db, scen, rows, (int)limit, &n) != 0) {
            rc = opfor_cli_fail("scores: %s", opfor_scores_errmsg(db));
            opfor_scores_close(db);
            free(rows);
            return rc;
        }
        opfor_scores_close(db);
    }
    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "db", dbpath);
        opfor_json_key(&j, "scores");
        opfor_json_arr_begin(&j);
        for (int i = 0; i < n; i++) {
            opfor_json_obj_begin(&j);
            opfor_json_kv_int(&j, "rank", i + 1);
            opfor_json_kv_int(&j, "score", rows[i].score);
            opfor_json_kv_str(&j, "player", rows[i].player);
            opfor_json_kv_str(&j, "scenario", rows[i].scenario);
            opfor_json_kv_str(&j, "result", rows[i].result);
            opfor_json_kv_int(&j, "turns", rows[i].turns);
            opfor_json_kv_str(&j, "date", rows[i].date);
            char seed[24];
            snprintf(seed, sizeof seed, "%llu", (unsigned long long)rows[i].seed);
            opfor_json_kv_str(&j, "seed", seed);
            opfor_json_obj_end(&j);
        }
        opfor_json_arr_end(&j);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else if (n == 0) {
        printf("no high scores yet%s%s (%s)\n", scen ? " for " : "", scen ? scen : "", dbpath);
    } else {
        printf("%4s %5s  %-16s %-18s %-6s %5s  %-20s %s\n", "rank", "score", "player", "scenario",
               "result", "turns", "date", "seed");
        for (int i = 0; i < n; i++)
            printf("%4d %5d  %-16.16s %-18.18s %-6.6s %5d  %-20s %llu\n", i + 1, rows[i].score,
                   rows[i].player, rows[i].scenario, rows[i].result, rows[i].turns, rows[i].date,
                   (unsigned long long)rows[i].seed);
    }
    free(rows);
    return OPFOR_EXIT_OK;
}
