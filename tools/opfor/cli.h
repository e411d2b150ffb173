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

#define OPFOR_EXIT_OK 0
#define OPFOR_EXIT_FAIL 1
#define OPFOR_EXIT_USAGE 2

typedef int (*opfor_cli_fn)(int argc, char **argv);

typedef struct opfor_cli_cmd {
    const char *name;    /* first word after `opfor` */
    opfor_cli_fn fn;     /* gets argv with argv[0] == name */
    const char *summary; /* one line for `opfor --help` */
} opfor_cli_cmd_t;

/* Subcommands (one file each: cmd_<name>.c). */
int opfor_cmd_calc(int argc, char **argv);
int opfor_cmd_dice(int argc, char **argv);
int opfor_cmd_scenario(int argc, char **argv);
int opfor_cmd_bench(int argc, char **argv);
int opfor_cmd_demo(int argc, char **argv);
int opfor_cmd_patrol(int argc, char **argv);
int opfor_cmd_scores(int argc, char **argv);
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
int opfor_cmd_orders(int argc, char **argv);
int opfor_cmd_watch(int argc, char **argv);
int opfor_cmd_close(int argc, char **argv);
/* `opfor bench engine` (bench_engine.c): rules engine speed. */
int opfor_bench_engine(int argc, char **argv);
/* `opfor bench rpc` (bench_rpc.c): opford calc requests per second and latency. */
int opfor_bench_rpc(int argc, char **argv);
/* `opfor bench display` (tools/opfor/bench_display.c). */
int opfor_bench_display(int argc, char **argv);
/* `opfor bench mcts` (tools/opfor/bench_mcts.c): search speed, latency and memory by level. */
int opfor_bench_mcts(int argc, char **argv);

/* The helpers below live in cli.c. */

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

/* A command's arguments while its flags are read: argv[i] is the flag at hand. Error lines
 * start with "opfor: WHO: FLAG". */
typedef struct opfor_cli_args {
    int argc;
    char **argv;
    int i;           /* the argument being read */
    const char *who; /* the command as errors name it: "arena", "patrol place" */
    int say_what;    /* opfor_cli_long: a missing value's error also says what is wanted */
} opfor_cli_args_t;

/* Flags written "--name value" or "--name=value". */

/* True when argument a is flag name, alone or as "name=value". */
int opfor_cli_is_flag(const char *a, const char *name);
/* The flag's value: the text after '=', else the next argument (i moves onto it). When there
 * is none, prints "WHO: FLAG needs a value" (then ": WHAT" unless what is NULL) and returns
 * NULL: the command line was wrong. */
const char *opfor_cli_value(opfor_cli_args_t *p, const char *what);
/* Reads the flag's value as a whole number from lo to hi (hi LONG_MAX: no upper bound) into
 * *out. Returns 0, or OPFOR_EXIT_USAGE after "WHO: FLAG must be a whole number from LO to HI
 * (or >= LO), got 'V'" or the missing-value error above. */
int opfor_cli_long(opfor_cli_args_t *p, long lo, long hi, long *out);

/* A flag that takes a whole number from lo to hi (as opfor_cli_long) into *out. */
typedef struct opfor_cli_long_flag {
    const char *name;
    long lo, hi;
    long *out;
} opfor_cli_long_flag_t;
/* When argv[i] is one of the n flags, reads it with opfor_cli_long, sets *rc to 0 or
 * OPFOR_EXIT_USAGE and returns 1; returns 0 for any other argument. */
int opfor_cli_long_flag(opfor_cli_args_t *p, const opfor_cli_long_flag_t *flags, size_t n, int *rc);

/* Flags written "--name value" only, with one error for a missing or a wrong value. */

/* The argument after the flag (i moves onto it), or NULL after "WHO: FLAG needs WHAT". */
const char *opfor_cli_next(opfor_cli_args_t *p, const char *what);
/* Reads the argument after the flag as a whole number from lo to hi (hi LONG_MAX: no upper
 * bound) into *out. Returns 0, or OPFOR_EXIT_USAGE after "WHO: FLAG needs a whole number
 * from LO to HI" (or ">= LO"). */
int opfor_cli_next_long(opfor_cli_args_t *p, long lo, long hi, long *out);
/* The same for a number from lo to hi; the error says "WHO: FLAG needs WHAT". */
int opfor_cli_next_double(opfor_cli_args_t *p, double lo, double hi, const char *what, double *out);

#endif
