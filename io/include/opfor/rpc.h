/* io/include/opfor/rpc.h — MessagePack-RPC messages: decoding checked frames, encoding replies.
 *
 * The wire format is standard MessagePack-RPC: request [0, id, method, params], response
 * [1, id, error, result], notification [2, method, params]. opfor adds two conventions: params
 * is an array holding one map (an empty array counts as an empty map), and an error is
 * [code, message] or [code, message, {"hint": CODE, "args": {...}}]. The error codes and the hint
 * codes come from X-macro tables, so the enums, the names and the mapping from OPFOR_E* codes
 * cannot drift apart. docs/protocol.md is the reference.
 * Decoding runs only on frames opfor_frame_scan() accepted (see opfor/frame.h).
 */
#ifndef OPFOR_RPC_H
#define OPFOR_RPC_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

/* code, number on the wire, default message. Negative codes follow JSON-RPC's numbering for
 * protocol faults; positive codes are opfor's own. Add new codes at the end of their group. */
#define OPFOR_RPC_ERRORS(XX)                                                                       \
    XX(PARSE, -32700, "invalid frame")                                                             \
    XX(INVALID_REQUEST, -32600, "invalid request")                                                 \
    XX(METHOD_NOT_FOUND, -32601, "method not found")                                               \
    XX(INVALID_PARAMS, -32602, "invalid params")                                                   \
    XX(INTERNAL, -32603, "internal error")                                                         \
    XX(UNAUTHORIZED, 1, "not authorised: send hello with a valid token first")                     \
    XX(BUSY, 2, "too many requests in flight")                                                     \
    XX(NOT_FOUND, 3, "not found")                                                                  \
    XX(ILLEGAL, 4, "action not allowed by the rules")                                              \
    XX(TIMEOUT, 5, "timed out")                                                                    \
    XX(CANCELLED, 6, "cancelled")                                                                  \
    XX(UNSUPPORTED, 7, "not supported")                                                            \
    XX(SHUTTING_DOWN, 8, "the server is shutting down")

typedef enum opfor_rpc_code {
#define OPFOR__XX(name, num, msg) OPFOR_RPC_E_##name = num,
    OPFOR_RPC_ERRORS(OPFOR__XX)
#undef OPFOR__XX
} opfor_rpc_code_t;

/* The name of a code without prefix ("INVALID_PARAMS"); "UNKNOWN" for others. */
const char *opfor_rpc_err_name(int code);
/* The default message of a code; "unknown error" for others. */
const char *opfor_rpc_err_message(int code);
/* Maps a negative OPFOR_E* library code to the wire code a client should see
 * (EINVAL -> INVALID_PARAMS, ENOENT -> NOT_FOUND, EILLEGAL -> ILLEGAL, ...; others INTERNAL). */
int opfor_rpc_err_from_opfor(int opfor_err);

/* Hints: what the client may do next, as a stable code and named args, which each client words
 * for its own people (the CLI names its commands, a page its buttons); the error's message stays
 * the daemon's English for clients that read only [code, message]. One row per code: the enum
 * suffix, the wire code, and the args it carries (documented in docs/protocol.md, Errors). Add
 * codes at the end; never change what a code or an arg means. */
#define OPFOR_RPC_HINTS(XX)                                                                        \
    XX(NO_GAME, "no_game", "game")                                                                 \
    XX(REPORT_ACTED, "report_acted", "side")                                                       \
    XX(ASK_ORDERS, "ask_orders", "side")                                                           \
    XX(PRESS_FIRST, "press_first", "side")                                                         \
    XX(RESOLVE_NEEDS_ORDER, "resolve_needs_order", "side")                                         \
    XX(AT_NEEDS_ACTED, "at_needs_acted", "")                                                       \
    XX(PRESS_AGAIN, "press_again", "why")                                                          \
    XX(ASK_AGAIN, "ask_again", "")                                                                 \
    XX(USE_GAME_METHODS, "use_game_methods", "method, ruleset")                                    \
    XX(USE_RULESET_METHODS, "use_ruleset_methods", "ruleset, methods")                             \
    XX(ROLL_FIRST, "roll_first", "")                                                               \
    XX(AI_TO_MOVE, "ai_to_move", "side")                                                           \
    XX(TABLE_TO_MOVE, "table_to_move", "side")                                                     \
    XX(HELLO_TOKEN, "hello_token", "method")                                                       \
    XX(NO_AI_INITIATIVE, "no_ai_initiative", "side, holder")                                       \
    XX(ALREADY_ANSWERED, "already_answered", "order, report, turn")                                \
    XX(STALE_STATE, "stale_state", "seen, log_seq")                                                \
    XX(NOTHING_TO_UNDO, "nothing_to_undo", "why")

typedef enum opfor_rpc_hint_id {
    OPFOR_RPC_HINT_NONE = 0,
#define OPFOR__XX(id, code, args) OPFOR_RPC_HINT_##id,
    OPFOR_RPC_HINTS(OPFOR__XX)
#undef OPFOR__XX
        OPFOR_RPC_HINT_COUNT
} opfor_rpc_hint_id_t;

#define OPFOR_RPC_HINT_MAX_ARGS 4

/* A hint being built for an error: fixed size, no allocation, zeroed = no hint. */
typedef struct opfor_rpc_hint {
    int id;    /* OPFOR_RPC_HINT_*; 0 = none */
    int nargs; /* args set */
    struct {
        const char *key; /* a static string, as the hint's row names it */
        int is_int;      /* 1: the value is i, else s */
        int64_t i;
        char s[96];
    } args[OPFOR_RPC_HINT_MAX_ARGS];
} opfor_rpc_hint_t;

/* The wire code of a hint ("ask_orders"); NULL for none or an unknown id. */
const char *opfor_rpc_hint_code(int id);
/* The hint id of a wire code (len bytes at code), or OPFOR_RPC_HINT_NONE. */
int opfor_rpc_hint_find(const char *code, size_t len);
/* Starts hint id in h (its args cleared). h may be NULL (then nothing happens). */
void opfor_rpc_hint_set(opfor_rpc_hint_t *h, int id);
/* Adds a string or an integer arg (key: a static string); past OPFOR_RPC_HINT_MAX_ARGS args,
 * or with h NULL, nothing happens. Strings longer than the arg's room are cut. */
void opfor_rpc_hint_str(opfor_rpc_hint_t *h, const char *key, const char *val);
void opfor_rpc_hint_int(opfor_rpc_hint_t *h, const char *key, int64_t val);

typedef enum opfor_rpc_kind {
    OPFOR_RPC_REQUEST = 0,  /* [0, id, method, params] */
    OPFOR_RPC_RESPONSE = 1, /* [1, id, error, result] */
    OPFOR_RPC_NOTIFY = 2,   /* [2, method, params] */
} opfor_rpc_kind_t;

/* Why a message could not be used. has_id tells whether an error response can be addressed. */
typedef struct opfor_rpc_fault {
    int code;          /* OPFOR_RPC_E_* */
    int has_id;        /* 1 when id is the request's id: answer with an error response */
    uint32_t id;       /* the request id, when has_id */
    char message[160]; /* what was wrong, for the client and the log */
} opfor_rpc_fault_t;

/* A decoded message. method and params point into `unpacked`, so they live until
 * opfor_rpc_msg_free(). */
typedef struct opfor_rpc_msg {
    opfor_rpc_kind_t kind;        /* request, response or notification */
    uint32_t id;                  /* requests and responses */
    const char *method;           /* requests and notifications; NOT NUL-terminated */
    uint32_t method_len;          /* bytes in method */
    const msgpack_object *params; /* the params map; NULL when params was [] */
    const msgpack_object *error;  /* responses: the error object (nil when none) */
    const msgpack_object *result; /* responses: the result object */
    msgpack_unpacked unpacked;    /* owns the decoded objects */
} opfor_rpc_msg_t;

/* Decodes one frame of exactly len bytes (already accepted by opfor_frame_scan()) into m.
 * Returns 0, or a negative OPFOR_E* code with *fault filled (EPROTO: the envelope is unusable;
 * EINVAL: a request whose id is known but whose method or params are malformed, fault->has_id
 * set). m must be freed with opfor_rpc_msg_free() in every case. */
int opfor_rpc_decode(opfor_rpc_msg_t *m, const void *frame, size_t len, opfor_rpc_fault_t *fault);
/* Releases what opfor_rpc_decode() allocated; safe on a zeroed or already freed m. */
void opfor_rpc_msg_free(opfor_rpc_msg_t *m);
/* True when m's method equals the NUL-terminated name. */
int opfor_rpc_method_is(const opfor_rpc_msg_t *m, const char *name);

/* --- Params helpers: params may be NULL (no fields). Keys are strings. --- */

/* Checks that every key of params is a string listed in allowed (NULL-terminated) and that no
 * key repeats. Returns 0, or OPFOR_EINVAL with why filled. */
int opfor_rpc_params_check(const msgpack_object *params, const char *const *allowed, char *why,
                           size_t why_size);
/* The value under key, or NULL. */
const msgpack_object *opfor_rpc_params_get(const msgpack_object *params, const char *key);
/* Copies the string under key into buf (NUL-terminated). Returns 0, OPFOR_ENOENT when the key is
 * absent, OPFOR_EINVAL (with why) when it is not a string, holds a NUL byte, or does not fit. */
int opfor_rpc_params_str(const msgpack_object *params, const char *key, char *buf, size_t size,
                         char *why, size_t why_size);
/* Reads an integer under key within [lo, hi]. Returns 0, OPFOR_ENOENT, or OPFOR_EINVAL. */
int opfor_rpc_params_int(const msgpack_object *params, const char *key, int64_t lo, int64_t hi,
                         int64_t *out, char *why, size_t why_size);
/* Reads a boolean under key. Returns 0, OPFOR_ENOENT, or OPFOR_EINVAL. */
int opfor_rpc_params_bool(const msgpack_object *params, const char *key, int *out, char *why,
                          size_t why_size);

/* Lenient readers, for maps opford wrote itself (a log entry's payload, a saved order, an
 * answer read by a client): a value that is absent or not as expected reads as the default,
 * never as an error. A client's params are checked with the readers above instead. */

/* The string under key copied into buf (NUL-terminated), or "" when it is absent, not a string,
 * holds a NUL byte or does not fit. size must be at least 1. */
void opfor_rpc_params_str_or(const msgpack_object *params, const char *key, char *buf, size_t size);
/* The integer under key when it lies within [lo, hi], else def. */
int64_t opfor_rpc_params_int_or(const msgpack_object *params, const char *key, int64_t lo,
                                int64_t hi, int64_t def);
/* The number under key, an integer or a float, else def. */
double opfor_rpc_params_num_or(const msgpack_object *params, const char *key, double def);

/* --- Encoding. Each "begin" packs an envelope's head; the caller packs exactly one more
 * object (the result, or the single params map) to finish the message. --- */

/* Packs [1, id, nil, — the caller then packs the result. */
void opfor_rpc_pack_response_begin(msgpack_packer *pk, uint32_t id);
/* Packs a whole error response [1, id, [code, message], nil]; message NULL = default text. */
void opfor_rpc_pack_error(msgpack_packer *pk, uint32_t id, int code, const char *message);
/* The same with the hint as a third element [code, message, {"hint", "args"}] when hint is
 * set (hint NULL or without an id: as opfor_rpc_pack_error). */
void opfor_rpc_pack_error_hint(msgpack_packer *pk, uint32_t id, int code, const char *message,
                               const opfor_rpc_hint_t *hint);
/* Packs [2, method, [ — the caller then packs one map (the params). */
void opfor_rpc_pack_notify_begin(msgpack_packer *pk, const char *method);
/* Packs [0, id, method, [ — the caller then packs one map (for clients and tests). */
void opfor_rpc_pack_request_begin(msgpack_packer *pk, uint32_t id, const char *method);
/* Packs a NUL-terminated string as a MessagePack str. */
void opfor_rpc_pack_cstr(msgpack_packer *pk, const char *s);

#endif
