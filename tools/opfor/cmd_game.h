/* tools/opfor/cmd_game.h — what the daemon game commands share (cmd_game.c: new, games,
 * state, initiative, report, undo, orders, watch, close; cmd_table.c: act, roll and the
 * typed reports of any ruleset): their common options, the GAME argument and its default.
 */
#ifndef OPFOR_TOOLS_CMD_GAME_H
#define OPFOR_TOOLS_CMD_GAME_H

#include <msgpack.h>

#include "cli.h"
#include "opfor/client.h"

/* Options every game command shares. */
typedef struct gopts {
    const char *cmd;        /* the command, for errors */
    const char *connect;    /* --connect ADDR */
    const char *token_file; /* --token-file FILE */
    const char *game;       /* GAME, or NULL */
    int json;               /* --json */
} gopts_t;

/* --connect, --token-file and --json, the end of every game command's option table. */
#define GAME_OPTS(o, json_help)                                                                    \
    OPFOR_CLI_CONNECT_OPTS(&(o)->connect, &(o)->token_file),                                       \
        {.name = "--json", .type = OPFOR_CLI_FLAG, .flag = &(o)->json, .help = (json_help)}, {     \
        0                                                                                          \
    }

/* What the commands taking GAME say about it, after their own description. */
#define GAME_DEFAULT "GAME defaults to the most recently changed active game."

/* GAME: the one positional argument of the commands that take one (ud: a gopts_t). */
int opfor__game_arg(void *ud, const char *a);
/* A params map {"game": id} into sb. */
void opfor__game_params(msgpack_sbuffer *sb, const char *id);
/* GAME, or the most recently changed active game. Writes it into buf; prints and returns
 * OPFOR_EXIT_FAIL when there is none. */
int opfor__game_resolve(opfor_client_t *c, const char *cmd, const char *given, char *buf, size_t n);
/* Prints the events of a method's answer (its "events"), one a line. */
void opfor__game_print_events(const msgpack_object *res);

#endif
