/* io/methods_int.h — the RPC method table: one X-macro row per method.
 *
 * A row gives the enum suffix, the wire name, the handler (an opfor_method_fn defined in some
 * io/<module>.c) and flags. The enum, the handler declarations and the lookup table are all
 * generated from this list, so adding a method is one row here plus its handler. Keep rows sorted
 * by wire name within a group and document each method in docs/protocol.md.
 *
 * A row flagged OPFOR_METHOD_RULESET is a ruleset's own method: its name is a verb, called as
 * "RULESET.VERB" (verb "initiative" of ruleset r: "r.initiative") when the ruleset's descriptor
 * lists the verb in `methods` (opfor/ruleset.h). opfor__method_find looks the prefix up in the
 * registry, so no ruleset is named here. Old names of a ruleset's methods live on for a few
 * api_levels in its descriptor's `method_aliases`, which hello lists as `deprecated`.
 */
#ifndef OPFOR_METHODS_INT_H
#define OPFOR_METHODS_INT_H

#include <stddef.h>

#include "opfor/server.h"

#define OPFOR_METHOD_PREAUTH 1u /* allowed before hello even when a token is required */
#define OPFOR_METHOD_DEBUG 2u   /* exists only with the debug-methods setting */
#define OPFOR_METHOD_RULESET 4u /* a ruleset's verb: called as "RULESET.VERB" (see above) */
#define OPFOR_METHOD_PLAYERS 8u /* open to the players' link (docs/web.md): no game.new/close */

#define OPFOR__METHODS(XX)                                                                         \
    XX(HELLO, "hello", opfor__method_hello, OPFOR_METHOD_PREAUTH | OPFOR_METHOD_PLAYERS)           \
    XX(PING, "ping", opfor__method_ping, OPFOR_METHOD_PLAYERS)                                     \
    XX(CALC, "calc", opfor__method_calc, OPFOR_METHOD_PLAYERS)                                     \
    XX(CALC_LIST, "calc.list", opfor__method_calc_list, OPFOR_METHOD_PLAYERS)                      \
    XX(AI_ORDERS, "ai.orders", opfor__method_ai_orders, OPFOR_METHOD_PLAYERS)                      \
    XX(GAME_ACT, "game.act", opfor__method_game_act, OPFOR_METHOD_PLAYERS)                         \
    XX(GAME_ACTION, "game.action", opfor__method_game_action, OPFOR_METHOD_PLAYERS)                \
    XX(GAME_CLOSE, "game.close", opfor__method_game_close, 0)                                      \
    XX(GAME_LIST, "game.list", opfor__method_game_list, OPFOR_METHOD_PLAYERS)                      \
    XX(GAME_NEW, "game.new", opfor__method_game_new, 0)                                            \
    XX(GAME_REPORT, "game.report", opfor__method_game_report, OPFOR_METHOD_PLAYERS)                \
    XX(GAME_ROLL, "game.roll", opfor__method_game_roll, OPFOR_METHOD_PLAYERS)                      \
    XX(GAME_STATE, "game.state", opfor__method_game_state, OPFOR_METHOD_PLAYERS)                   \
    XX(GAME_UNDO, "game.undo", opfor__method_game_undo, OPFOR_METHOD_PLAYERS)                      \
    XX(RS_INITIATIVE, "initiative", opfor__method_rs_method,                                       \
       OPFOR_METHOD_RULESET | OPFOR_METHOD_PLAYERS)                                                \
    XX(REPORT, "report", opfor__method_report, OPFOR_METHOD_PLAYERS)                               \
    XX(SUBSCRIBE, "subscribe", opfor__method_subscribe, OPFOR_METHOD_PLAYERS)                      \
    XX(UNSUBSCRIBE, "unsubscribe", opfor__method_unsubscribe, OPFOR_METHOD_PLAYERS)                \
    XX(DEBUG_GAME_CHANGED, "debug.game_changed", opfor__method_debug_game_changed,                 \
       OPFOR_METHOD_DEBUG)                                                                         \
    XX(DEBUG_SLEEP, "debug.sleep", opfor__method_debug_sleep, OPFOR_METHOD_DEBUG)

typedef enum opfor__method_id {
#define OPFOR__XX(id, name, fn, flags) OPFOR__METHOD_##id,
    OPFOR__METHODS(OPFOR__XX)
#undef OPFOR__XX
        OPFOR__METHOD_COUNT
} opfor__method_id_t;

#define OPFOR__XX(id, name, fn, flags) int fn(opfor_call_t *call, const msgpack_object *params);
OPFOR__METHODS(OPFOR__XX)
#undef OPFOR__XX

typedef struct opfor__method {
    const char *name;   /* wire name */
    opfor_method_fn fn; /* handler */
    unsigned flags;     /* OPFOR_METHOD_* */
} opfor__method_t;

/* The table, indexed by opfor__method_id_t. */
extern const opfor__method_t opfor__methods[OPFOR__METHOD_COUNT];

struct opfor_ruleset;
/* The method named by the len bytes at name, or -1: a plain method's name, a deprecated
 * alias (a table game's old name of a ruleset method; *rs is then NULL), or "RULESET.VERB"
 * for a registered ruleset that lists VERB (then *rs, when rs is not NULL, is that ruleset;
 * NULL otherwise). */
int opfor__method_find(const char *name, size_t len, const struct opfor_ruleset **rs);

#endif
