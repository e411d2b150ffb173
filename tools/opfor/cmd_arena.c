/* tools/opfor/cmd_arena.c — `opfor arena --a POLICY --b POLICY --games N --seed S
 * [--ruleset NAME] [--scenario FILE] [--threads T] [--quiet] [--json]`: seeded matches
 * between policies (ai/arena.c) on a registered ruleset (by default the registry's first):
 * random, mcts:LEVEL and the ruleset's own bots, on its default scenario (or --scenario),
 * the sides swapped every other game.
 *
 * A ruleset that brings its own arena (RULESET_COMMANDS "arena": its own modes, referee and
 * options) gets it: the command is handed on whole. Both share the run and the report
 * (arena_cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "arena_cli.h"
#include "opfor/error.h"

int opfor_cmd_arena(int argc, char **argv) {
    opfor_cli_arena_t ar;
    opfor_cli_arena_init(&ar);
    int rc = 0;
    int help = argc > 1 && opfor_cli_is_help(argv[1]);
    if (!help && (rc = opfor_cli_arena_ruleset(argc, argv, &ar.rs)) != 0)
        return rc;
    if (help) {
        size_t n = 0;
        ar.rs = opfor_ruleset_list(&n)[0].rs;
    }
    const opfor_cli_cmd_t *own = opfor_cli_ruleset_command(ar.rs->name, "arena");
    if (own)
        return own->fn(argc, argv);
    char specs[256], about[1024];
    snprintf(about, sizeof about,
             "Plays N seeded games of the ruleset between two policies and reports wins,\n"
             "draws, win_rate_a with its Wilson 95%% interval; a plays side 0 in even games\n"
             "and side 1 in odd ones, on the ruleset's default scenario (or --scenario).\n"
             "%s\n\npolicies: %s",
             OPFOR_CLI_ARENA_ABOUT_END, opfor_cli_arena_policies(ar.rs, specs, sizeof specs));
    const opfor_cli_opt_t opts[] = {OPFOR_CLI_ARENA_OPTS(&ar), {0}};
    const opfor_cli_spec_t spec = {
        .cmd = "arena",
        .usage = OPFOR_CLI_ARENA_USAGE
        "\n"
        "                   [--scenario FILE] [--threads T] [--quiet] [--json]",
        .about = about,
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    if ((rc = opfor_cli_arena_check(&ar)) != 0)
        return rc;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int err = opfor_ruleset_ctx_new(ar.rs, ar.scenario, &ar.ctxs[0], &d);
    if (err == OPFOR_ENOTSUP && !ar.scenario) {
        ar.ctxs[0] = NULL; /* a ruleset without scenarios plays from its opening state */
    } else if (err != 0) {
        char where[1024];
        opfor_diag_format(&d, where, sizeof where);
        return opfor_cli_fail("arena: %s: %s", ar.rs->name, d.msg[0] ? where : opfor_strerror(err));
    }
    snprintf(ar.names[0], sizeof ar.names[0], "%s", ar.scenario ? ar.scenario : "default");
    ar.nctx = 1;
    opfor_arena_config_t cfg;
    opfor_arena_config_default(&cfg);
    return opfor_cli_arena_run(&ar, &cfg);
}
