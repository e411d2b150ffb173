/* tools/opfor/cli.h — what every `opfor` subcommand shares: the command table entry,
 * exit codes, and small helpers for flags and errors.
 *
 * Exit codes: 0 success, 1 the command ran and failed (a file could not be read, a
 * check found problems), 2 the command line itself was wrong (unknown flag or value).
 */
#ifndef OPFOR_CLI_H
#define OPFOR_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "opfor/vocab.h"

#define OPFOR_EXIT_OK 0
#define OPFOR_EXIT_FAIL 1
#define OPFOR_EXIT_USAGE 2

typedef int (*opfor_cli_fn)(int argc, char **argv);

typedef struct opfor_cli_cmd {
    const char *name;    /* first word after `opfor` */
    opfor_cli_fn fn;     /* gets argv with argv[0] == name */
    const char *summary; /* one line for `opfor --help` */
} opfor_cli_cmd_t;

/* A command a ruleset brings itself (rulesets/NAME/ruleset.cmake: RULESET_COMMANDS). One whose
 * name is one of main.c's generic commands ("selfplay") or a benchmark of `opfor bench`
 * ("bench engine") is that ruleset's own version of it, run by the generic command; the others
 * are commands of their own, listed by `opfor --help`. */
typedef struct opfor_cli_ruleset_cmd {
    const char *ruleset; /* the registry name of the ruleset bringing it */
    opfor_cli_cmd_t cmd; /* its name, function and summary */
} opfor_cli_ruleset_cmd_t;
/* The generated table (ruleset_commands.c in the build folder), ended by a row whose ruleset
 * is NULL. */
extern const opfor_cli_ruleset_cmd_t opfor_cli_ruleset_commands[];
/* The command name that ruleset brings (ruleset NULL: any ruleset's), or NULL when it brings
 * none. */
const opfor_cli_cmd_t *opfor_cli_ruleset_command(const char *ruleset, const char *name);

/* Subcommands (one file each: cmd_<name>.c). */
int opfor_cmd_calc(int argc, char **argv);
int opfor_cmd_dice(int argc, char **argv);
int opfor_cmd_scenario(int argc, char **argv);
int opfor_cmd_bench(int argc, char **argv);
int opfor_cmd_selfplay(int argc, char **argv);
/* `opfor display` (cmd_display.c): a display-only client of a daemon, on an e-ink panel. */
int opfor_cmd_display(int argc, char **argv);
int opfor_cmd_arena(int argc, char **argv);
/* `opfor play RULESET` (cmd_play.c): a terminal game of any registered ruleset. */
int opfor_cmd_play(int argc, char **argv);
/* Games kept by the daemon (cmd_game.c). */
int opfor_cmd_new(int argc, char **argv);
int opfor_cmd_games(int argc, char **argv);
int opfor_cmd_state(int argc, char **argv);
int opfor_cmd_initiative(int argc, char **argv);
int opfor_cmd_report(int argc, char **argv);
/* `opfor undo`: takes back a daemon game's last report (game.undo). */
int opfor_cmd_undo(int argc, char **argv);
int opfor_cmd_orders(int argc, char **argv);
int opfor_cmd_watch(int argc, char **argv);
/* `opfor act`, `opfor roll` (cmd_table.c): the table side's legal action, the dice at a
 * chance node, for a daemon game of any ruleset (game.act, game.roll). */
int opfor_cmd_act(int argc, char **argv);
int opfor_cmd_roll(int argc, char **argv);
/* `opfor report --form NAME FIELD=VALUE ...` and `--action NAME` (cmd_table.c): one of a
 * game's typed reports or table actions (game.report, game.action); opfor_cmd_report hands
 * its argv over when it holds --form or --action. */
int opfor__cmd_report_form(int argc, char **argv);
int opfor_cmd_close(int argc, char **argv);
/* `opfor bench engine` (bench_engine.c): rules engine speed. */
int opfor_bench_engine(int argc, char **argv);
/* `opfor bench rpc` (bench_rpc.c): opford calc requests per second and latency. */
int opfor_bench_rpc(int argc, char **argv);
/* `opfor bench web` (bench_web.c): the table page's WebSocket beside the Unix socket. */
int opfor_bench_web(int argc, char **argv);
/* `opfor bench club` (bench_club.c): AI decision times solo, at a club's pace, in a burst. */
int opfor_bench_club(int argc, char **argv);
/* `opfor bench display` (tools/opfor/bench_display.c). */
int opfor_bench_display(int argc, char **argv);
/* `opfor bench mcts` (tools/opfor/bench_mcts.c): search speed, latency and memory by level. */
int opfor_bench_mcts(int argc, char **argv);

/* The helpers below live in cli.c. Commands read their options with opfor_cli_parse (the
 * option tables further down). */

/* Prints "opfor: <message>" to stderr and returns code. */
int opfor_cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with OPFOR_EXIT_USAGE (the command line was wrong) and OPFOR_EXIT_FAIL. */
#define opfor_cli_usage_error(...) opfor_cli_error(OPFOR_EXIT_USAGE, __VA_ARGS__)
#define opfor_cli_fail(...) opfor_cli_error(OPFOR_EXIT_FAIL, __VA_ARGS__)
/* True when s is "-h" or "--help". */
int opfor_cli_is_help(const char *s);
/* Parses a whole decimal integer or number; 0 on success, -1 if s is not one. */
int opfor_cli_parse_long(const char *s, long *out);
int opfor_cli_parse_double(const char *s, double *out);
/* Parses a point on the table, "X,Y" (the form opfor prints), also "X, Y" and "X Y": two
 * numbers of inches apart by a comma or blanks. 0 on success, -1 if s is not one. */
int opfor_cli_parse_xy(const char *s, double *x, double *y);
/* A fresh seed for a new game, from the operating system's random source (getrandom, else
 * the clock and the process id): a whole number from 0 to 4294967295, short enough to type
 * back with --seed. The game itself draws only from streams seeded with it. */
unsigned long opfor_cli_fresh_seed(void);

/* ------------------------------------------------------------------ option tables
 *
 * Each command describes its options in one const table and hands argv to opfor_cli_parse,
 * which reads "--name value" and "--name=value", answers -h/--help with a usage generated
 * from the table, and refuses unknown flags and bad values with one message shape:
 *
 *   opfor: CMD: unknown flag '--x' (flags: --a, --b, --help)
 *   opfor: CMD: --seed needs a value: a whole number >= 0
 *   opfor: CMD: --seed must be a whole number >= 0, got 'x'
 *   opfor: CMD: --acted given twice ('A', then 'B')
 *
 * (exit 2). Values point into argv; nothing is allocated.
 */

typedef enum opfor_cli_type {
    OPFOR_CLI_FLAG,   /* --x: *flag = 1 */
    OPFOR_CLI_NOFLAG, /* --no-x (the name as written): *flag = 0 */
    OPFOR_CLI_WHOLE,  /* --x N: *whole = N, a whole number from lo to hi */
    OPFOR_CLI_NUMBER, /* --x V: *number = V, a number from min (above it with .above) to max */
    OPFOR_CLI_STRING, /* --x TEXT: *string = TEXT (never empty) */
    OPFOR_CLI_CHOICE, /* --x NAME, one of names: *choice = its value and/or *string = the
                       * canonical name (opfor_vocab_lookup: case and '-' for '_' ignored) */
    OPFOR_CLI_LIST,   /* --x TEXT, repeatable: appended to *list */
} opfor_cli_type_t;

/* Where a repeatable option's values go: the caller's arrays of cap entries. */
typedef struct opfor_cli_list {
    const char **items; /* the values, in the order given */
    const char **flags; /* when not NULL: the canonical name of the option that gave each one
                         * (several options may share one list) */
    size_t cap;         /* room in items (and flags) */
    size_t n;           /* values read */
} opfor_cli_list_t;

/* One option. Set the destination that goes with the type; the others stay NULL. */
typedef struct opfor_cli_opt {
    const char *name;                /* "--seed" */
    const char *alias;               /* an old name still accepted ("--difficulty"), or NULL */
    opfor_cli_type_t type;           /* what it takes */
    int *flag;                       /* FLAG, NOFLAG */
    long *whole;                     /* WHOLE */
    double *number;                  /* NUMBER */
    const char **string;             /* STRING; CHOICE (the canonical name) */
    int *choice;                     /* CHOICE (the value) */
    opfor_cli_list_t *list;          /* LIST */
    long lo, hi;                     /* WHOLE: bounds; hi LONG_MAX: none */
    double min, max;                 /* NUMBER: bounds; max HUGE_VAL: none */
    int above;                       /* NUMBER: the value must be above min, not equal to it */
    const opfor_name_t *names;       /* CHOICE: the allowed names, {NULL, 0}-terminated */
    int once;                        /* STRING: a second one is an error, not a replacement */
    int (*valid)(const char *value); /* STRING, LIST: when set, values it refuses (returns 0)
                                      * are errors: "FLAG must be WANTS, got 'V'" */
    const char *arg;                 /* the value in the usage: "N", "FILE" (default "VALUE") */
    const char *wants;               /* what it wants, for errors ("a file name"); NULL: said from
                                      * the type and bounds ("a whole number from 1 to 60") */
    const char *help;                /* the usage text; '\n' starts a continuation line */
} opfor_cli_opt_t;

/* A command's options and how its usage reads. */
typedef struct opfor_cli_spec {
    const char *cmd;             /* the command as errors name it: "dice", "bench rpc" */
    const char *args;            /* positional part of the generated synopsis ("EXPR"), or NULL */
    const char *usage;           /* a whole synopsis instead of the generated one (lines after
                                  * the first start with spaces), or NULL */
    const char *about;           /* what the command does, printed after the usage line */
    const char *epilog;          /* printed after the options, or NULL */
    const opfor_cli_opt_t *opts; /* the table, ended by an entry whose name is NULL */
    /* Each positional argument in turn (and every one after "--"): returns 0, or an exit code
     * after printing the error. NULL: the command takes none. */
    int (*positional)(void *ud, const char *arg);
    void *ud; /* for positional */
} opfor_cli_spec_t;

/* The options of every command that talks to a daemon, one name for one idea: --connect ADDR
 * and --token-file FILE, into two const char * (NULL when not given). */
/* `--level LEVEL` (old name `--difficulty`) for commands that pass the AI's level on to the
 * daemon as text (the daemon checks it): one flag for one idea in every command. */
#define OPFOR_CLI_LEVEL_TEXT_OPT(level, what)                                                      \
    {                                                                                              \
        .name = "--level", .alias = "--difficulty", .type = OPFOR_CLI_STRING, .string = (level),   \
        .arg = "LEVEL", .wants = "a level: novice, standard, veteran, ruthless or challenge",      \
        .help = (what)                                                                             \
    }

/* --seed S: a whole number from 0 into *(seed) (a long), with the command's own help. */
#define OPFOR_CLI_SEED_OPT(seed, what)                                                             \
    {                                                                                              \
        .name = "--seed", .type = OPFOR_CLI_WHOLE, .whole = (seed), .lo = 0, .hi = LONG_MAX,       \
        .arg = "S", .help = (what)                                                                 \
    }

/* --json: *(dest) = 1, "print one JSON document instead of text". */
#define OPFOR_CLI_JSON_OPT(dest)                                                                   \
    {                                                                                              \
        .name = "--json", .type = OPFOR_CLI_FLAG, .flag = (dest),                                  \
        .help = "print one JSON document instead of text"                                          \
    }

#define OPFOR_CLI_CONNECT_OPTS(addr, token_file)                                                   \
    {.name = "--connect",                                                                          \
     .type = OPFOR_CLI_STRING,                                                                     \
     .string = (addr),                                                                             \
     .arg = "ADDR",                                                                                \
     .wants = "an address (unix:PATH, PATH or tcp://HOST:PORT)",                                   \
     .help = "the daemon: unix:PATH, PATH or tcp://HOST:PORT\n"                                    \
             "(default: $OPFOR_SOCKET, else the local opford socket)"},                            \
    {                                                                                              \
        .name = "--token-file", .type = OPFOR_CLI_STRING, .string = (token_file), .arg = "FILE",   \
        .wants = "a file (the daemon's token, mode 0600)",                                         \
        .help = "the daemon's token (a file of mode 0600), needed over TCP\n"                      \
                "when opford runs with --token-file (default: $OPFOR_TOKEN)"                       \
    }

/* Reads argv[first..argc-1] against spec. Returns 0 when the command goes on; returns 1 when
 * it must stop now with *exit_code: OPFOR_EXIT_OK after printing the usage (-h, --help) to
 * stdout, OPFOR_EXIT_USAGE (or the positional callback's code) after an error on stderr.
 * Destinations of options not given are left as they were (the caller's defaults). */
int opfor_cli_parse(const opfor_cli_spec_t *spec, int argc, char **argv, int first, int *exit_code);
/* Prints spec's usage: synopsis, about, the options with their help, epilog. */
void opfor_cli_usage(FILE *f, const opfor_cli_spec_t *spec);
/* Writes what opt wants ("a whole number from 1 to 60", "d6, fine or 2d6") into buf; returns
 * buf. */
const char *opfor_cli_wants(const opfor_cli_opt_t *opt, char *buf, size_t size);

#endif
