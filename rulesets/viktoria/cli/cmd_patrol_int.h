/* rulesets/viktoria/cli/cmd_patrol_int.h — what the parts of `opfor patrol` share: cmd_patrol.c
 * (command line, place, spawns), cmd_patrol_remote.c (the one terminal game, whichever side runs
 * the daemon) and patrol_words.c (reading its command lines).
 *
 * A game is the scenario, its Patrol Mode config, the patrol state and the game's own unit
 * and figure arrays, all in one heap block (about 100 KiB).
 */
#ifndef OPFOR_CMD_PATROL_INT_H
#define OPFOR_CMD_PATROL_INT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "json_out.h"
#include "opfor/scenario.h"
#include "opfor/viktoria/patrol.h"

/* One game's data. */
typedef struct opfor__patrol_game {
    opfor_scenario_t sc;                 /* the scenario as loaded */
    opfor_patrol_config_t cfg;           /* its Patrol Mode settings */
    opfor_patrol_state_t ps;             /* patrol state */
    opfor_unit_t units[OPFOR_MAX_UNITS]; /* the game's units (scenario's, then spawned) */
    opfor_figure_t figures[OPFOR_MAX_FIGURES];
    opfor_patrol_forces_t fo; /* points at units and figures */
    char label[280];          /* "builtin:patrol_default" or the file name */
} opfor__patrol_game_t;

/* Loads scenario arg (file, or built-in name; NULL: patrol_default) and its patrol config.
 * Prints "opfor: file:line:col: ..." and returns OPFOR_EXIT_FAIL on error, else 0. The
 * label names the scenario. On success the caller frees sc with opfor_scenario_free. */
int opfor__patrol_load(const char *arg, opfor_scenario_t *sc, opfor_patrol_config_t *cfg,
                       char *label, size_t label_size);
/* opfor__patrol_load, then the opening forces and patrol state into g. */
int opfor__patrol_open(opfor__patrol_game_t *g, const char *arg);
/* Members describing a placement, inside an open JSON object. */
void opfor__patrol_json_placement(opfor_json_t *j, const opfor_patrol_placement_t *pl);
/* One line describing a placement. Returns buf. */
const char *opfor__patrol_placement_str(const opfor_patrol_placement_t *pl, char *buf, size_t n);
/* Splits a typed command line into at most max words, in place: blanks separate words, and
 * "..." or '...' makes one word of what it encloses ("Jager Picket"), without the quotes (an
 * unclosed quote runs to the end of the line). Returns the number of words. */
int opfor__patrol_words(char *line, char **w, int max);
/* Reads the next command from in into line (size bytes) and splits it into w: blank lines and
 * lines starting with # are skipped, and the command word is lower-cased; a line that does not
 * fit in line is skipped whole, with a message, rather than read as several commands. Prints
 * "> " before each read when prompt is set. Returns the number of words, or -1 at the end of
 * input. */
int opfor__patrol_read_command(FILE *in, char *line, size_t size, int prompt, char **w, int max);
/* `opfor patrol` (cmd_patrol.c), registered in rulesets/viktoria/ruleset.cmake. */
int opfor_vk_cmd_patrol(int argc, char **argv);
/* `opfor patrol --connect ADDR ...` (cmd_patrol_remote.c): the terminal game against the
 * daemon. argv is the patrol command's. */
int opfor__patrol_remote(int argc, char **argv);

/* Whether s is a player's name of 1 to 63 bytes (--name). */
int opfor__patrol_name_ok(const char *s);

/* The options of a new game that `opfor patrol` and `opfor patrol --connect` share. */
#define PATROL_NAME_OPT(dest, helptext)                                                            \
    {                                                                                              \
        .name = "--name", .type = OPFOR_CLI_STRING, .string = (dest),                              \
        .valid = opfor__patrol_name_ok, .arg = "PLAYER", .wants = "a name of 1 to 63 bytes",       \
        .help = (helptext)                                                                         \
    }
#define PATROL_CHEAT_OPT(dest)                                                                     \
    {                                                                                              \
        .name = "--cheat", .type = OPFOR_CLI_FLAG, .flag = (dest),                                 \
        .help = "let the AI know what will be spotted next (off by default at\n"                   \
                "every level)"                                                                     \
    }
#define PATROL_VERBOSE_OPT(dest)                                                                   \
    {                                                                                              \
        .name = "--verbose", .alias = "-v", .type = OPFOR_CLI_FLAG, .flag = (dest),                \
        .help = "print the alternatives the AI weighed, with visits and values,\n"                 \
                "and the spottings the director chose (level challenge)"                           \
    }

/* What the one terminal game (cmd_patrol_remote.c) is started with, by `opfor patrol` (the
 * daemon's game in this process) and by `opfor patrol --connect ADDR` alike. */
typedef struct opfor__patrol_client {
    const char *addr;       /* the daemon (--connect); ignored when local */
    const char *token_file; /* --token-file, or NULL */
    const char *scenario;   /* built-in name or file; NULL: the daemon's default */
    const char *level;      /* the AI's level by name; NULL: standard */
    const char *game;       /* resume this game instead of starting one, or NULL */
    const char *resume;     /* the closing line's command, the game's id appended; or NULL */
    long seed;              /* the game's seed; -1: the daemon draws one */
    int fresh_seed;         /* 1: seed was drawn for this game: say how to replay it */
    int local;             /* 1: run opford's server in this process (tools/opfor/local_daemon.h) */
    const char *state_dir; /* local: where the game and its score are kept; NULL: not kept */
    const char *scores_db; /* local: the high-score database instead of state_dir's, or NULL */
    const char *player;    /* a new game's player name for the high-score table, or NULL */
    int cheat;             /* 1: a new game's AI reads the true future spawns */
    int verbose;           /* 1: print the alternatives the AI weighed, the director's steering */
} opfor__patrol_client_t;
/* Plays the terminal game (start or resume, then the command loop); returns the exit code. */
int opfor__patrol_client(const opfor__patrol_client_t *o);

#endif
