/* rulesets/viktoria/cli/cmd_patrol.c — `opfor patrol`: Viktoria! Patrol Mode at the table (XV).
 *
 *   opfor patrol [--scenario FILE] [--seed S] [--level L] [--name PLAYER] [--db FILE]
 *                [--cheat] [--verbose] [--game ID] [--no-save]
 *   opfor patrol place [--scenario FILE] --direction D --distance INCHES [--mounted] [--json]
 *   opfor patrol spawns [--scenario FILE] --presses N --seed S [--fresh SQFT] [--json]
 *
 * A shell over rulesets/viktoria/patrol*.c (the rules and odds). This file parses the
 * command lines and answers place and spawns. The game itself is the daemon's, whichever side
 * runs it: `opfor patrol` starts opford's server in this process (tools/opfor/local_daemon.h)
 * and plays it through the one terminal client, cmd_patrol_remote.c, that `--connect` uses, so
 * the two have one command set and one wording (issue 15; tests/cli/patrol_same.sh).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/ai.h"
#include "opfor/scenario.h"
#include "opfor/scores.h"
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/patrol.h"

#include "cmd_patrol_int.h"
#include "game_rpc.h"
#include "opfor/config.h"

#define PATROL_DEFAULT "patrol_default"
#define SPAWNS_MAX_PRESSES 100000000L

/* ---- shared: loading ---- */

int opfor__patrol_load(const char *arg, opfor_scenario_t *sc, opfor_patrol_config_t *cfg,
                       char *label, size_t label_size) {
    opfor_diag_t d;
    char buf[1024];
    struct stat st;
    int rc;
    if (!arg)
        arg = PATROL_DEFAULT;
    if (stat(arg, &st) != 0 && opfor_viktoria_builtin_text(arg, NULL)) {
        rc = opfor_viktoria_builtin_load(arg, sc, &d);
        snprintf(label, label_size, "builtin:%s", strncmp(arg, "builtin:", 8) == 0 ? arg + 8 : arg);
    } else {
        rc = opfor_viktoria_scenario_load_file(arg, sc, &d);
        snprintf(label, label_size, "%s", arg);
    }
    if (rc)
        return opfor_cli_fail("%s", opfor_diag_format(&d, buf, sizeof buf));
    if (sc->mode != OPFOR_MODE_COOP) {
        opfor_scenario_free(sc);
        return opfor_cli_fail("%s: not a Patrol Mode scenario (mode: %s); patrol needs "
                              "mode: patrol",
                              label, opfor_scenario_mode_name(sc, sc->mode));
    }
    rc = opfor_patrol_config_load(cfg, sc, label, &d);
    if (rc) {
        opfor_scenario_free(sc);
        return opfor_cli_fail("%s", opfor_diag_format(&d, buf, sizeof buf));
    }
    return 0;
}

/* Scenario, config, forces and patrol state of a game at its opening position. */
int opfor__patrol_open(opfor__patrol_game_t *g, const char *arg) {
    int rc = opfor__patrol_load(arg, &g->sc, &g->cfg, g->label, sizeof g->label);
    if (rc)
        return rc;
    memcpy(g->units, g->sc.units, sizeof g->units);
    memcpy(g->figures, g->sc.figures, sizeof g->figures);
    g->fo.units = g->units;
    g->fo.figures = g->figures;
    g->fo.nunits = g->sc.nunits;
    g->fo.nfigures = g->sc.nfigures;
    opfor_patrol_init(&g->cfg, &g->ps, &g->fo);
    return 0;
}

static void json_pt(opfor_json_t *j, const char *key, opfor_pt_t p) {
    opfor_json_key(j, key);
    opfor_json_obj_begin(j);
    opfor_json_kv_num(j, "x", round((double)p.x * 100.0) / 100.0);
    opfor_json_kv_num(j, "y", round((double)p.y * 100.0) / 100.0);
    opfor_json_obj_end(j);
}

void opfor__patrol_json_placement(opfor_json_t *j, const opfor_patrol_placement_t *pl) {
    opfor_json_kv_str(j, "direction", opfor_vocab_name(opfor_compass_names, pl->direction));
    opfor_json_kv_num(j, "min_distance", (double)pl->min_distance);
    opfor_json_kv_bool(j, "placed", pl->placed);
    opfor_json_kv_str(j, "rule", opfor_vocab_name(opfor_patrol_rule_names, pl->rule));
    opfor_json_kv_str(j, "rule_text", opfor_patrol_rule_text(pl->rule));
    json_pt(j, "dot", pl->dot);
    if (pl->placed) {
        json_pt(j, "point", pl->point);
        opfor_json_kv_num(j, "distance", round((double)pl->distance * 100.0) / 100.0);
        if (pl->rule == OPFOR_PLACE_FLANK || pl->rule == OPFOR_PLACE_OFF_TABLE) {
            json_pt(j, "edge", pl->edge);
            opfor_json_kv_num(j, "traced", round((double)pl->traced * 100.0) / 100.0);
        }
    }
}

const char *opfor__patrol_placement_str(const opfor_patrol_placement_t *pl, char *buf, size_t n) {
    if (!pl->placed)
        snprintf(buf, n, "not placed (%s) - %s",
                 opfor_vocab_name(opfor_patrol_rule_names, pl->rule),
                 opfor_patrol_rule_text(pl->rule));
    else
        snprintf(buf, n,
                 "at x %.1f, y %.1f inches from the south-west corner; %.1f in from the nearest "
                 "player figure (%s: %s)",
                 (double)pl->point.x, (double)pl->point.y, (double)pl->distance,
                 opfor_vocab_name(opfor_patrol_rule_names, pl->rule),
                 opfor_patrol_rule_text(pl->rule));
    return buf;
}

/* ---- opfor patrol place ---- */

/* The --scenario option of every patrol command, into a const char *. */
#define PATROL_SCENARIO_OPT(dest)                                                                  \
    {                                                                                              \
        .name = "--scenario", .type = OPFOR_CLI_STRING, .string = (dest), .arg = "FILE",           \
        .wants = "a file or name",                                                                 \
        .help = "a scenario file or built-in name (default " PATROL_DEFAULT ")"                    \
    }

/* A new game on the scenario scen (NULL: the default) for place and spawns; NULL after the
 * error, whose exit code is then in *rc. */
static opfor__patrol_game_t *open_game(const char *scen, int *rc) {
    opfor__patrol_game_t *g = calloc(1, sizeof *g);
    if (!g) {
        *rc = opfor_cli_fail("patrol: out of memory");
        return NULL;
    }
    if ((*rc = opfor__patrol_open(g, scen)) != 0) {
        free(g);
        return NULL;
    }
    return g;
}

/* Frees a game from open_game; returns OPFOR_EXIT_OK for the command to end with. */
static int close_game(opfor__patrol_game_t *g) {
    opfor_scenario_free(&g->sc);
    free(g);
    return OPFOR_EXIT_OK;
}

static int cmd_place(int argc, char **argv) {
    const char *scen = NULL;
    int dir = -1, mounted = 0, json = 0, rc = 0;
    double dist = -1.0;
    const opfor_cli_opt_t opts[] = {
        PATROL_SCENARIO_OPT(&scen),
        {.name = "--direction",
         .type = OPFOR_CLI_CHOICE,
         .choice = &dir,
         .names = opfor_compass_names,
         .arg = "D",
         .help = "N, NE, E, SE, S, SW, W or NW"},
        {.name = "--distance",
         .type = OPFOR_CLI_NUMBER,
         .number = &dist,
         .min = 0,
         .max = 1000,
         .arg = "INCHES",
         .wants = "a number of inches from 0 to 1000",
         .help = "minimum distance, 0..1000 (a rolled \"3 dice + 6 inches\")"},
        {.name = "--mounted",
         .type = OPFOR_CLI_FLAG,
         .flag = &mounted,
         .help = "the unit is mounted, a gun or a wagon: not in buildings"},
        OPFOR_CLI_JSON_OPT(&json),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "patrol place",
        .usage = "[--scenario FILE] --direction D --distance INCHES\n"
                 "                          [--mounted] [--json]",
        .about = "Where would an enemy spotted in compass direction D at a minimum distance of\n"
                 "INCHES appear, in the scenario's opening position (Viktoria! XV.B)? Prints the\n"
                 "furthest-forward point of the players' line, the point of appearance in inches\n"
                 "from the south-west corner (x across, y away from the player's edge), the rule\n"
                 "applied and the distance achieved; or why the appearance is refused.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    if (dir < 0)
        return opfor_cli_usage_error(
            "patrol place: --direction is required (N, NE, E, SE, S, SW, W or NW)");
    if (dist < 0)
        return opfor_cli_usage_error("patrol place: --distance is required (inches, 0 to 1000)");
    opfor__patrol_game_t *g = open_game(scen, &rc);
    if (!g)
        return rc;
    opfor_patrol_placement_t pl;
    opfor_patrol_place(&g->cfg, &g->ps, &g->fo, dir, (float)dist, mounted, &pl);
    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "scenario", g->label);
        opfor__patrol_json_placement(&j, &pl);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else {
        char buf[512];
        printf("scenario  %s (%s)\n", g->sc.name, g->label);
        printf("line      furthest-forward point at x %.1f, y %.1f\n", (double)pl.dot.x,
               (double)pl.dot.y);
        printf("spotted   %s, at least %g inches\n", opfor_vocab_name(opfor_compass_names, dir),
               dist);
        printf("appears   %s\n", opfor__patrol_placement_str(&pl, buf, sizeof buf));
        if (pl.placed && (pl.rule == OPFOR_PLACE_FLANK || pl.rule == OPFOR_PLACE_OFF_TABLE))
            printf("traced    %.1f inches along the edge from x %.1f, y %.1f\n", (double)pl.traced,
                   (double)pl.edge.x, (double)pl.edge.y);
    }
    return close_game(g);
}

/* ---- opfor patrol spawns ---- */

static void json_tally(opfor_json_t *j, const char *key, const opfor_name_t *names, int n,
                       const long *count, const double *expect, long total) {
    opfor_json_key(j, key);
    opfor_json_obj_begin(j);
    for (int i = 0; i < n; i++) {
        opfor_json_key(j, opfor_vocab_name(names, i));
        opfor_json_obj_begin(j);
        opfor_json_kv_int(j, "count", count[i]);
        opfor_json_kv_num(j, "expected", expect[i] * (double)total);
        opfor_json_obj_end(j);
    }
    opfor_json_obj_end(j);
}

static void print_tally(const char *title, const opfor_name_t *names, int n, const long *count,
                        const double *expect, long total) {
    printf("%s (of %ld)\n", title, total);
    for (int i = 0; i < n; i++)
        printf("  %-14s %9ld  %6.2f%%   expected %6.2f%%\n", opfor_vocab_name(names, i), count[i],
               total ? 100.0 * (double)count[i] / (double)total : 0.0, 100.0 * expect[i]);
}

static int cmd_spawns(int argc, char **argv) {
    const char *scen = NULL;
    long presses = -1, seed = -1, rp = -1, re = -1;
    double fresh = -1.0;
    int json = 0, rc = 0;
    const opfor_cli_opt_t opts[] = {
        PATROL_SCENARIO_OPT(&scen),
        {.name = "--presses",
         .type = OPFOR_CLI_WHOLE,
         .whole = &presses,
         .lo = 1,
         .hi = SPAWNS_MAX_PRESSES,
         .arg = "N",
         .help = "presses, 1..100000000"},
        OPFOR_CLI_SEED_OPT(&seed, "seed, a whole number >= 0; same seed, same tally"),
        {.name = "--fresh",
         .type = OPFOR_CLI_NUMBER,
         .number = &fresh,
         .min = 0,
         .max = 10000,
         .arg = "SQFT",
         .wants = "square feet from 0 to 10000",
         .help = "square feet of ground taken since the last spotting (0..10000)"},
        {.name = "--ready-player",
         .type = OPFOR_CLI_WHOLE,
         .whole = &rp,
         .lo = 0,
         .hi = 32,
         .arg = "K",
         .help = "player units still to act this turn (0..32)"},
        {.name = "--ready-enemy",
         .type = OPFOR_CLI_WHOLE,
         .whole = &re,
         .lo = 0,
         .hi = 32,
         .arg = "K",
         .help = "enemy units still to act this turn (0..32)"},
        OPFOR_CLI_JSON_OPT(&json),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "patrol spawns",
        .usage = "[--scenario FILE] --presses N --seed S\n"
                 "                           [--fresh SQFT] [--ready-player K] [--ready-enemy K]\n"
                 "                           [--json]",
        .about = "Presses the initiative button N times on one position (Viktoria! XV.A) and\n"
                 "tallies the answers: player and enemy initiatives, spottings by type, quality,\n"
                 "direction and distance, each beside its exact expected share\n"
                 "(docs/patrol-mode.md). The position is the scenario's opening one, unless\n"
                 "changed with the options below; presses do not change it.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    if (presses < 0)
        return opfor_cli_usage_error("patrol spawns: --presses is required (1 to %ld)",
                                     SPAWNS_MAX_PRESSES);
    if (seed < 0)
        return opfor_cli_usage_error("patrol spawns: --seed is required (a whole number >= 0)");
    opfor__patrol_game_t *g = open_game(scen, &rc);
    if (!g)
        return rc;
    const opfor_patrol_config_t *cfg = &g->cfg;
    opfor_patrol_summary_t s;
    opfor_patrol_summarize(cfg, &g->ps, &g->fo, &s);
    if (fresh >= 0)
        s.fresh_sqft = fresh;
    if (rp >= 0)
        s.ready[0] = (int)rp;
    if (re >= 0)
        s.ready[1] = (int)re;
    opfor_patrol_probs_t pr;
    opfor_patrol_probs(cfg, &s, &pr);
    long kind[OPFOR_PRESS_KIND_COUNT] = {0}, type[OPFOR_PT_COUNT] = {0};
    long qual[OPFOR_Q_COUNT] = {0}, dir[OPFOR_COMPASS_COUNT] = {0};
    long dopt[OPFOR_PT_COUNT][OPFOR_PATROL_MAX_DIST];
    double rolled_sum = 0.0;
    memset(dopt, 0, sizeof dopt);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, (uint64_t)seed, 0x7061u);
    for (long k = 0; k < presses; k++) {
        opfor_patrol_press_t p;
        opfor_patrol_press(cfg, &s, &rng, &p);
        kind[p.kind]++;
        if (p.kind != OPFOR_PRESS_SPOTTING)
            continue;
        type[p.spot.type]++;
        qual[p.spot.quality]++;
        dir[p.spot.direction]++;
        dopt[p.spot.type][p.spot.dist_opt]++;
        rolled_sum += p.spot.rolled;
    }
    long spots = kind[OPFOR_PRESS_SPOTTING];
    /* Expected quality over all spottings: mix the per-type tables by type odds. */
    double eq[OPFOR_Q_COUNT] = {0};
    for (int t = 0; t < OPFOR_PT_COUNT; t++)
        for (int q = 0; q < OPFOR_Q_COUNT; q++)
            eq[q] += pr.type[t] * pr.quality[t][q];
    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "scenario", g->label);
        opfor_json_kv_int(&j, "presses", presses);
        opfor_json_kv_int(&j, "seed", seed);
        opfor_json_key(&j, "position");
        opfor_json_obj_begin(&j);
        opfor_json_kv_int(&j, "ready_player", s.ready[0]);
        opfor_json_kv_int(&j, "ready_enemy", s.ready[1]);
        opfor_json_kv_num(&j, "fresh_sqft", s.fresh_sqft);
        opfor_json_kv_num(&j, "spot_chance", pr.spot);
        opfor_json_obj_end(&j);
        json_tally(&j, "kinds", opfor_patrol_press_names, OPFOR_PRESS_KIND_COUNT, kind, pr.kind,
                   presses);
        json_tally(&j, "types", opfor_patrol_type_names, OPFOR_PT_COUNT, type, pr.type, spots);
        json_tally(&j, "qualities", opfor_quality_names, OPFOR_Q_COUNT, qual, eq, spots);
        json_tally(&j, "directions", opfor_compass_names, OPFOR_COMPASS_COUNT, dir, pr.direction,
                   spots);
        opfor_json_key(&j, "distances");
        opfor_json_arr_begin(&j);
        for (int t = 0; t < OPFOR_PT_COUNT; t++)
            for (int i = 0; i < cfg->ndist[t]; i++) {
                char buf[48];
                opfor_dice_format(&cfg->dist[t][i].dice, buf, sizeof buf);
                opfor_json_obj_begin(&j);
                opfor_json_kv_str(&j, "type", opfor_vocab_name(opfor_patrol_type_names, t));
                opfor_json_kv_str(&j, "dice", buf);
                opfor_json_kv_int(&j, "count", dopt[t][i]);
                opfor_json_kv_num(&j, "expected", (double)type[t] * pr.dist[t][i]);
                opfor_json_obj_end(&j);
            }
        opfor_json_arr_end(&j);
        opfor_json_kv_num(&j, "mean_distance", spots ? rolled_sum / (double)spots : 0.0);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else {
        printf("scenario  %s (%s)\n", g->sc.name, g->label);
        printf("position  %d player and %d enemy units ready, %.2f sq ft fresh ground: "
               "spotting chance %.2f%% a press\n\n",
               s.ready[0], s.ready[1], s.fresh_sqft, 100.0 * pr.spot);
        print_tally("presses", opfor_patrol_press_names, OPFOR_PRESS_KIND_COUNT, kind, pr.kind,
                    presses);
        print_tally("spotted types", opfor_patrol_type_names, OPFOR_PT_COUNT, type, pr.type, spots);
        print_tally("qualities", opfor_quality_names, OPFOR_Q_COUNT, qual, eq, spots);
        print_tally("directions", opfor_compass_names, OPFOR_COMPASS_COUNT, dir, pr.direction,
                    spots);
        printf("distances (given the type)\n");
        for (int t = 0; t < OPFOR_PT_COUNT; t++)
            for (int i = 0; i < cfg->ndist[t]; i++) {
                char buf[48];
                opfor_dice_format(&cfg->dist[t][i].dice, buf, sizeof buf);
                printf("  %-12s %-14s %9ld  %6.2f%%   expected %6.2f%%\n",
                       opfor_vocab_name(opfor_patrol_type_names, t), buf, dopt[t][i],
                       type[t] ? 100.0 * (double)dopt[t][i] / (double)type[t] : 0.0,
                       100.0 * pr.dist[t][i]);
            }
        printf("mean distance rolled: %.2f inches\n", spots ? rolled_sum / (double)spots : 0.0);
    }
    return close_game(g);
}

/* ---- opfor patrol ---- */

/* The state directory of the local game: where `make run` (tools/run.sh) and an installed
 * opford keep games and scores, $XDG_STATE_HOME/opfor, else ~/.local/state/opfor. 0, or -1. */
static int state_dir(char *buf, size_t n) {
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if ((!xdg || !*xdg) && (!home || !*home))
        return -1;
    return opfor_config_default_state_dir(buf, n, NULL, xdg, home) == 0 ? 0 : -1;
}

/* Whether s is a player's name of 1 to 63 bytes (--name). */
int opfor__patrol_name_ok(const char *s) {
    return s[0] && strlen(s) <= 63;
}

int opfor_vk_cmd_patrol(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "place") == 0)
        return cmd_place(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "spawns") == 0)
        return cmd_spawns(argc - 1, argv + 1);
    for (int i = 1; i < argc; i++) /* against the daemon: cmd_patrol_remote.c */
        if (strcmp(argv[i], "--connect") == 0)
            return opfor__patrol_remote(argc, argv);
    const char *scenario = NULL, *game = NULL, *name = NULL, *db = NULL;
    int level = OPFOR_AI_STANDARD, no_save = 0, cheat = 0, verbose = 0, rc = 0;
    long seed = -1;
    const opfor_cli_opt_t opts[] = {
        PATROL_SCENARIO_OPT(&scenario),
        OPFOR_CLI_SEED_OPT(&seed, "seed, a whole number >= 0 (default: a fresh one, printed\n"
                                  "at the start); same seed and same reports, same game"),
        {.name = "--level",
         .type = OPFOR_CLI_CHOICE,
         .choice = &level,
         .names = opfor_ai_level_names,
         .arg = "L",
         .help = "how well the AI plays the enemy: novice, standard (default),\n"
                 "veteran, ruthless or challenge (veteran play; the director\n"
                 "keeps the game close)"},
        PATROL_NAME_OPT(&name, "name for the high-score table (default $USER)"),
        {.name = "--db",
         .type = OPFOR_CLI_STRING,
         .string = &db,
         .arg = "FILE",
         .wants = "a file name",
         .help = "high-score database (default: the state directory's opfor.db);\n"
                 "`opfor scores --db FILE` reads it"},
        PATROL_CHEAT_OPT(&cheat),
        PATROL_VERBOSE_OPT(&verbose),
        {.name = "--game",
         .type = OPFOR_CLI_STRING,
         .string = &game,
         .arg = "ID",
         .wants = "a game id",
         .help = "take up this saved game again instead of starting one"},
        {.name = "--no-save",
         .type = OPFOR_CLI_FLAG,
         .flag = &no_save,
         .help = "keep neither the game nor its score"},
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "patrol",
        .usage = "[--scenario FILE] [--seed S] [--level L] [--name PLAYER] [--db FILE]\n"
                 "                    [--cheat] [--verbose] [--game ID] [--no-save]\n"
                 "       opfor patrol --connect ADDR ...   (a running daemon keeps the game)\n"
                 "       opfor patrol place [--scenario FILE] --direction D --distance INCHES\n"
                 "                          [--mounted] [--json]\n"
                 "       opfor patrol spawns [--scenario FILE] --presses N --seed S [--json]",
        .about = "Viktoria! Patrol Mode (XV) for solo and cooperative play: opfor presses the\n"
                 "initiative button, says which side acts, spots and places new enemy forces,\n"
                 "orders the enemy, and keeps the score. Commands are read line by line\n"
                 "(type `help` in the game). docs/patrol-mode.md describes the odds and rules.",
        .epilog =
            "The game is the daemon's own (opford's server runs inside this command), with\n"
            "the same commands and the same words as `opfor patrol --connect`. It is kept,\n"
            "with its high score, in the state directory ($XDG_STATE_HOME/opfor, else\n"
            "~/.local/state/opfor), where `make run` and `opfor scores` find it; `q` leaves\n"
            "it there for --game ID.\n"
            "\n"
            "Each enemy order is one sentence (unit, action, inches and compass direction\n"
            "with the nearest landmark, target, the scores needed), then why (the terms that\n"
            "decided it and the search's value).\n"
            "\n"
            "`opfor patrol place --help`, `opfor patrol spawns --help` and\n"
            "`opfor patrol --connect ADDR --help` describe the others.\n",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    char dir[OPFOR_CONFIG_PATH_MAX];
    if (!no_save && state_dir(dir, sizeof dir) != 0)
        return opfor_cli_fail("patrol: no state directory for the game: set XDG_STATE_HOME or "
                              "HOME, or play with --no-save");
    if (game && (name || cheat))
        return opfor_cli_usage_error("patrol: --name and --cheat set up a new game; a game taken "
                                     "up with --game keeps its own");
    if (no_save && db)
        return opfor_cli_usage_error(
            "patrol: --db and --no-save: a game not kept records no score");
    if (db &&
        !no_save) { /* a database that cannot keep the score stops the game before it starts */
        opfor_scores_t *hs = NULL;
        char why[600];
        if (opfor_scores_open(&hs, db, why, sizeof why) != 0)
            return opfor_cli_fail("patrol: --db: %s", why);
        opfor_scores_close(hs);
    }
    if (!name && !game) { /* the high-score table's name: yours, as before issue 15 */
        const char *user = getenv("USER");
        name = user && opfor__patrol_name_ok(user) ? user : NULL;
    }
    opfor__patrol_client_t o = {
        .player = game ? NULL : name,
        .cheat = cheat,
        .verbose = verbose,
        .scores_db = no_save ? NULL : db,
        .scenario = scenario,
        .level = opfor_vocab_name(opfor_ai_level_names, level),
        .game = game,
        .seed = seed,
        .local = 1,
        .state_dir = no_save ? NULL : dir,
    };
    if (!game && seed < 0) {
        o.fresh_seed = 1;
        o.seed = (long)(opfor_cli_fresh_seed() & 0x7fffffffffffUL);
    }
    return opfor__patrol_client(&o);
}
