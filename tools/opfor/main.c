/* tools/opfor/main.c — `opfor`, the command-line client and tool box.
 *
 * A thin main(): the first word picks a subcommand from the table below, or from the commands
 * the rulesets bring themselves (the generated opfor_cli_ruleset_commands, cli.h); each lives
 * in its own cmd_<name>.c and reports its own errors (with the helpers of cli.c). A ruleset's
 * command named like one below is its own version of that command, run by it, not listed here.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const opfor_cli_cmd_t commands[] = {
    {"calc", opfor_cmd_calc, "a ruleset's calculator: scores needed for any action"},
    {"dice", opfor_cmd_dice, "parse, roll and tabulate dice notation (\"3 dice + 6 inches\")"},
    {"scenario", opfor_cmd_scenario, "check, list and show scenario files"},
    {"bench", opfor_cmd_bench, "benchmarks: calc, engine, mcts, rpc, display"},
    {"selfplay", opfor_cmd_selfplay, "whole games between built-in policies on the rules engine"},
    {"display", opfor_cmd_display, "show a daemon's orders on an e-ink panel (or PNG frames)"},
    {"play", opfor_cmd_play, "play any registered ruleset in the terminal against the AI"},
    {"arena", opfor_cmd_arena, "seeded matches between AI policies, with win rates and intervals"},
    {"new", opfor_cmd_new, "start a game in the daemon (opford)"},
    {"games", opfor_cmd_games, "the daemon's saved games"},
    {"state", opfor_cmd_state, "a daemon game's position"},
    {"initiative", opfor_cmd_initiative, "press a daemon game's initiative button"},
    {"report", opfor_cmd_report, "tell the daemon what happened at the table"},
    {"act", opfor_cmd_act, "the table side's legal action in a daemon game (any ruleset)"},
    {"roll", opfor_cmd_roll, "the dice at a daemon game's chance node (any ruleset)"},
    {"undo", opfor_cmd_undo, "take back a daemon game's last report"},
    {"orders", opfor_cmd_orders, "the AI's orders for the non-player unit holding the initiative"},
    {"watch", opfor_cmd_watch, "stream a daemon game's events"},
    {"close", opfor_cmd_close, "close a daemon game"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The table's command called name, or NULL. */
static const opfor_cli_cmd_t *generic(const char *name) {
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

/* A command of a ruleset's own that is not a version of a generic one, or NULL. */
static const opfor_cli_cmd_t *own(const opfor_cli_ruleset_cmd_t *c) {
    if (strchr(c->cmd.name, ' ') || generic(c->cmd.name))
        return NULL;
    /* Two rulesets bringing one name: the first one's. */
    for (const opfor_cli_ruleset_cmd_t *p = opfor_cli_ruleset_commands; p < c; p++)
        if (strcmp(p->cmd.name, c->cmd.name) == 0)
            return NULL;
    return &c->cmd;
}

static void usage(FILE *f) {
    fprintf(f, "usage: opfor COMMAND [ARGS...]\n\n"
               "opfor plays the non-player side of tabletop miniatures wargames.\n\n"
               "commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    for (const opfor_cli_ruleset_cmd_t *c = opfor_cli_ruleset_commands; c->ruleset; c++)
        if (own(c))
            fprintf(f, "  %-10s %s\n", c->cmd.name, c->cmd.summary);
    fprintf(f, "\n`opfor COMMAND --help` describes each command.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return OPFOR_EXIT_USAGE;
    }
    if (opfor_cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return OPFOR_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("opfor 0.1.0\n");
        return OPFOR_EXIT_OK;
    }
    const opfor_cli_cmd_t *cmd = generic(argv[1]);
    if (cmd)
        return cmd->fn(argc - 1, argv + 1);
    for (const opfor_cli_ruleset_cmd_t *c = opfor_cli_ruleset_commands; c->ruleset; c++)
        if (own(c) && strcmp(argv[1], c->cmd.name) == 0)
            return c->cmd.fn(argc - 1, argv + 1);
    fprintf(stderr, "opfor: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return OPFOR_EXIT_USAGE;
}
