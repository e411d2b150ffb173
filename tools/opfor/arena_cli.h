/* tools/opfor/arena_cli.h — what `opfor arena` shares with a ruleset's own version of it
 * (RULESET_COMMANDS "arena", e.g. one with a referee and options of its own): the generic
 * options, the checks after them, and the run with progress, Ctrl-C and the report.
 *
 * tools/opfor/cmd_arena.c plays any registered ruleset on its default scenario (or
 * --scenario); a ruleset bringing its own arena parses its options (OPFOR_CLI_ARENA_OPTS plus
 * its own), builds its contexts and the arena config, and calls opfor_cli_arena_run, which
 * prints the same report with the ruleset's own lines and JSON members added.
 */
#ifndef OPFOR_ARENA_CLI_H
#define OPFOR_ARENA_CLI_H

#include <limits.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/arena.h"

#define OPFOR_CLI_ARENA_MAX_GAMES 1000000L
#define OPFOR_CLI_ARENA_MAX_SCENARIOS 8

/* One `opfor arena` run: the generic options, then what the ruleset part sets up. */
typedef struct opfor_cli_arena {
    const opfor_ruleset_t *rs;                 /* the ruleset played */
    const char *ruleset;                       /* --ruleset as given (NULL: the default) */
    const char *a, *b;                         /* --a, --b: policy specs (NULL until given) */
    const char *scenario;                      /* --scenario FILE, or NULL */
    long games, seed, threads;                 /* --games, --seed (-1 until given), --threads */
    int json, quiet;                           /* --json, --quiet */
    const char *mode;                          /* the report's mode word ("competitive") */
    void *ctxs[OPFOR_CLI_ARENA_MAX_SCENARIOS]; /* contexts, released by rs after the run */
    char names[OPFOR_CLI_ARENA_MAX_SCENARIOS][256]; /* their names for the report */
    int nctx;                                       /* contexts set up */
    /* Optional: the ruleset's own lines after the win rate, instead of the line of a's wins
     * by side; and its own members at the end of the JSON document. */
    void (*report_text)(void *user, const opfor_arena_result_t *res);
    void (*report_json)(void *user, opfor_json_t *j, const opfor_arena_result_t *res);
    void *user; /* for the two reports */
} opfor_cli_arena_t;

/* The generic options of `opfor arena`, for an option table, into ar (an opfor_cli_arena_t *). */
#define OPFOR_CLI_ARENA_OPTS(ar)                                                                   \
    {.name = "--a",                                                                                \
     .type = OPFOR_CLI_STRING,                                                                     \
     .string = &(ar)->a,                                                                           \
     .arg = "POLICY",                                                                              \
     .help = "the policy a (required)"},                                                           \
        {.name = "--b",                                                                            \
         .type = OPFOR_CLI_STRING,                                                                 \
         .string = &(ar)->b,                                                                       \
         .arg = "POLICY",                                                                          \
         .help = "the policy b (required)"},                                                       \
        {.name = "--games",                                                                        \
         .type = OPFOR_CLI_WHOLE,                                                                  \
         .whole = &(ar)->games,                                                                    \
         .lo = 1,                                                                                  \
         .hi = OPFOR_CLI_ARENA_MAX_GAMES,                                                          \
         .arg = "N",                                                                               \
         .help = "games to play, 1..1000000 (required; 400+ for a real measure)"},                 \
        {.name = "--seed",                                                                         \
         .type = OPFOR_CLI_WHOLE,                                                                  \
         .whole = &(ar)->seed,                                                                     \
         .lo = 0,                                                                                  \
         .hi = LONG_MAX,                                                                           \
         .arg = "S",                                                                               \
         .help = "seed, a whole number >= 0 (required)"},                                          \
        {.name = "--ruleset",                                                                      \
         .type = OPFOR_CLI_STRING,                                                                 \
         .string = &(ar)->ruleset,                                                                 \
         .arg = "NAME",                                                                            \
         .wants = "a ruleset",                                                                     \
         .help = "the rules to play (default: the first registered)"},                             \
        {.name = "--scenario",                                                                     \
         .type = OPFOR_CLI_STRING,                                                                 \
         .string = &(ar)->scenario,                                                                \
         .arg = "FILE",                                                                            \
         .wants = "a file name",                                                                   \
         .help = "play this scenario file instead of the default"},                                \
        {.name = "--threads",                                                                      \
         .type = OPFOR_CLI_WHOLE,                                                                  \
         .whole = &(ar)->threads,                                                                  \
         .lo = 1,                                                                                  \
         .hi = OPFOR_ARENA_MAX_THREADS,                                                            \
         .arg = "T",                                                                               \
         .help = "worker threads, 1..16 (default 1)"},                                             \
        {.name = "--quiet",                                                                        \
         .type = OPFOR_CLI_FLAG,                                                                   \
         .flag = &(ar)->quiet,                                                                     \
         .help = "no progress on standard error"},                                                 \
    {                                                                                              \
        .name = "--json", .type = OPFOR_CLI_FLAG, .flag = &(ar)->json,                             \
        .help = "print one JSON document instead of text"                                          \
    }

/* The usage lines the generic options add, and the text every arena help ends its about with. */
#define OPFOR_CLI_ARENA_USAGE "--a POLICY --b POLICY --games N --seed S [--ruleset NAME]"
#define OPFOR_CLI_ARENA_ABOUT_END                                                                  \
    "The same command prints the same result whatever --threads is.\n"                             \
    "Ctrl-C (SIGINT) or SIGTERM starts no new game, lets the games in progress end\n"              \
    "and prints the summary of games 1..N, marked \"interrupted after N of M games\"\n"            \
    "(JSON: \"interrupted\": true, \"games_played\": N), exit 130 (SIGTERM: 143);\n"               \
    "a second one quits at once."

/* Sets ar's defaults: no ruleset, policies or scenario, games and seed -1, one thread, mode
 * "competitive", nothing set up. */
void opfor_cli_arena_init(opfor_cli_arena_t *ar);
/* The ruleset --ruleset names in argv[1..] (the registry's first without one) into *rs.
 * Returns 0, or OPFOR_EXIT_USAGE after "arena: --ruleset must be one of NAMES; got 'X'" (or
 * a missing value's error). */
int opfor_cli_arena_ruleset(int argc, char **argv, const opfor_ruleset_t **rs);
/* The checks after the options: both policies given and known to ar->rs, --games and --seed
 * given. Returns 0 or OPFOR_EXIT_USAGE after the error. */
int opfor_cli_arena_check(const opfor_cli_arena_t *ar);
/* The policies ar->rs knows, for help texts, into buf. Returns buf. */
const char *opfor_cli_arena_policies(const opfor_ruleset_t *rs, char *buf, size_t n);
/* Plays cfg (its rs, ctxs, nctx, a, b, games, seed, threads are set here from ar; the rest,
 * a referee or sides, as the caller left them) with progress on standard error unless quiet
 * and Ctrl-C handling, prints the report, and releases ar's contexts. Returns the exit code
 * (128 + the signal when one stopped the run). */
int opfor_cli_arena_run(opfor_cli_arena_t *ar, opfor_arena_config_t *cfg);
/* Releases ar's contexts (after an error before the run). */
void opfor_cli_arena_free(opfor_cli_arena_t *ar);

#endif
