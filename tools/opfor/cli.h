/* tools/opfor/cli.h — what every `opfor` subcommand shares: the command table entry,
 * exit codes, and small helpers for flags and errors.
 *
 * Exit codes: 0 success, 1 the command ran and failed (a file could not be read, a
 * check found problems), 2 the command line itself was wrong (unknown flag or value).
 */
#ifndef OPFOR_CLI_H
#define OPFOR_CLI_H

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

/* Prints "opfor: <message>" to stderr and returns OPFOR_EXIT_USAGE. */
int opfor_cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "opfor: <message>" to stderr and returns OPFOR_EXIT_FAIL. */
int opfor_cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* True when s is "-h" or "--help". */
int opfor_cli_is_help(const char *s);
/* Parses a whole decimal integer or number; 0 on success, -1 if s is not one. */
int opfor_cli_parse_long(const char *s, long *out);
int opfor_cli_parse_double(const char *s, double *out);

#endif
