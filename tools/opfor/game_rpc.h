/* tools/opfor/game_rpc.h — what the `opfor` commands that talk to opford share: connecting
 * with a clear message when no daemon runs, calling with a prebuilt params map, reading
 * result maps, printing any result as JSON, and one readable line per game event.
 *
 * Used by cmd_game.c (new, games, state, initiative, report, orders, watch, close) and by the
 * daemon games of a ruleset's own commands. Nothing here keeps global state.
 */
#ifndef OPFOR_GAME_RPC_H
#define OPFOR_GAME_RPC_H

#include <stdint.h>
#include <stdio.h>

#include <msgpack.h>

#include "json_out.h"
#include "opfor/client.h"

/* Connects to addr (NULL: $OPFOR_SOCKET or the default socket) and says hello. On failure
 * prints "opfor: no daemon at ADDR: start it with `opford`, or play without one ..." (or the
 * server's refusal) and returns NULL. */
opfor_client_t *opfor__rpc_open(const char *addr);
/* The same with the daemon's token read from token_file (a file of mode 0600; NULL: the
 * token in $OPFOR_TOKEN, if set), which a TCP daemon started with --token-file asks for. */
opfor_client_t *opfor__rpc_open_token(const char *addr, const char *token_file);

/* Where a client of the daemon connected and with which token, kept for connecting again. */
typedef struct opfor__rpc_dest {
    char addr[256];  /* the resolved address ("unix:PATH" or "tcp://HOST:PORT") */
    char token[256]; /* the token given in hello, "" for none */
} opfor__rpc_dest_t;
/* opfor__rpc_open_token that also fills dest, for opfor__rpc_redial. */
opfor_client_t *opfor__rpc_open_dest(const char *addr, const char *token_file,
                                     opfor__rpc_dest_t *dest);
/* After a lost connection: tries dest again, waiting 1 s, 2 s, 4 s ... up to 30 s between
 * attempts (tools/app/redial.h), with a line on stderr ("opfor: WHAT: connection to ADDR lost
 * (why); trying again in N s") before each wait and one when connected again. Stops after
 * max_tries attempts or max_ms milliseconds (0: no bound), or when the daemon refuses the token,
 * saying so. Returns the new client (hello said), or NULL. */
opfor_client_t *opfor__rpc_redial(const opfor__rpc_dest_t *dest, const char *what,
                                  const char *why_lost, int max_tries, long max_ms);

/* How a client words a daemon error's hint (docs/protocol.md, Hints) for its people: the hint
 * code; `when`, NULL or "KEY=VALUE" that the hint's args must hold for this row; the words, in
 * which {KEY} stands for the arg under KEY. A table ends with a row whose hint is NULL. */
typedef struct opfor__rpc_wording {
    const char *hint;  /* the hint code */
    const char *when;  /* NULL, or "KEY=VALUE" the args must hold */
    const char *words; /* the text, {KEY} for args */
} opfor__rpc_wording_t;
/* The words of c's last error under table into buf (n bytes), or NULL when its hint is in no
 * row (or a row's arg is missing): the caller then shows the daemon's message. */
const char *opfor__rpc_words(const opfor_client_t *c, const opfor__rpc_wording_t *table, char *buf,
                             size_t n);

/* Calls method with params (a packed map, or NULL for {}); on success *res is the result
 * (valid until the next call). On failure prints "opfor: WHAT: message" (WHAT names the
 * command) and returns OPFOR_EXIT_FAIL (or OPFOR_EXIT_USAGE for INVALID_PARAMS). */
int opfor__rpc_call(opfor_client_t *c, const char *what, const char *method,
                    const msgpack_sbuffer *params, const msgpack_object **res);
/* opfor__rpc_call for the game commands (cmd_game.c): an error whose hint (docs/protocol.md,
 * Errors) these commands word is printed with the command to type ("ask for its orders first
 * (`opfor orders`)") instead of the daemon's protocol words. */
int opfor__rpc_call_cmd(opfor_client_t *c, const char *what, const char *method,
                        const msgpack_sbuffer *params, const msgpack_object **res);

/* opfor__rpc_call_cmd for a ruleset's own method (docs/protocol.md, Ruleset methods): calls
 * "RULESET.VERB" with RULESET the ruleset of game (read with game.state) on a daemon of
 * api_level 5 or more, the verb's name before api_level 5 (the registry's method_aliases) on
 * an older daemon; a game whose ruleset has no such method is refused with a clear message. */
int opfor__rpc_call_ruleset(opfor_client_t *c, const char *what, const char *game, const char *verb,
                            const msgpack_sbuffer *params, const msgpack_object **res);

/* Readers of a result map: the value under key or NULL; a string copied into buf ("" when
 * absent); an integer (def when absent); a double (def when absent). */
const msgpack_object *opfor__rpc_get(const msgpack_object *m, const char *key);
const char *opfor__rpc_str(const msgpack_object *m, const char *key, char *buf, size_t n);
int64_t opfor__rpc_int(const msgpack_object *m, const char *key, int64_t def);
double opfor__rpc_num(const msgpack_object *m, const char *key, double def);

/* Writes any MessagePack object as JSON through j. */
void opfor__rpc_json(opfor_json_t *j, const msgpack_object *o);
/* Prints o as one JSON document (and a newline) on f. */
void opfor__rpc_print_json(FILE *f, const msgpack_object *o);

/* Prints one event (an `event` params map) as readable lines on f. */
void opfor__rpc_print_event(FILE *f, const msgpack_object *ev);
/* Prints an order (docs/protocol.md, Orders) as readable lines on f. */
void opfor__rpc_print_order(FILE *f, const msgpack_object *o);
/* A score's parts from its breakdown map bd (the `score` answer, a game_over's `breakdown`) as
 * one phrase: "survivors 4, at half strength 0, ..., objectives 1". Returns buf (n bytes). */
const char *opfor__rpc_score_parts(const msgpack_object *bd, char *buf, size_t n);
/* The alternatives an order's search weighed (its `alternatives`, docs/protocol.md), one line
 * each with visits and values, the chosen one starred; nothing when the order has none. */
void opfor__rpc_print_alternatives(FILE *f, const msgpack_object *order);
/* Prints a game.state result: title, turn, initiative, units, score. */
void opfor__rpc_print_state(FILE *f, const msgpack_object *st);

/* `opfor calc RULESET ... --connect ADDR` (cmd_calc_remote.c): the calculator asked of the
 * daemon. argv is the calc command's. */
int opfor__calc_remote(int argc, char **argv);

#endif
