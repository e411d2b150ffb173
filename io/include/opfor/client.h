/* io/include/opfor/client.h — a small blocking MessagePack-RPC client for opford.
 *
 * The `opfor` CLI uses it for every daemon command, and tests use it against a real server.
 * One call at a time: opfor_client_call() sends a request and waits (with a timeout) for the
 * response carrying its id; notifications that arrive meanwhile go to a callback. Replies are
 * checked by opfor_frame_scan() before msgpack-c decodes them, as the server does. A result
 * stays valid until the next call on the same client, so nothing needs freeing by the caller.
 */
#ifndef OPFOR_CLIENT_H
#define OPFOR_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "opfor/error.h"

typedef struct opfor_client opfor_client_t;

/* opfor_client_call() and opfor_client_hello() return this when the server answered with an
 * error; opfor_client_error_code() and opfor_client_error_message() then say which. */
#define OPFOR_CLIENT_REMOTE 1

#define OPFOR_CLIENT_TIMEOUT_DEFAULT_MS 30000 /* per call, unless changed */

/* Packs the params of a request: exactly one map (for example msgpack_pack_map(pk, 0)). */
typedef void (*opfor_client_pack_fn)(msgpack_packer *pk, void *ud);
/* Receives a server notification: method (not NUL-terminated, method_len bytes) and its params
 * map (or NULL when params was []). Both are valid only during the call. */
typedef void (*opfor_client_notify_fn)(void *ud, const char *method, size_t method_len,
                                       const msgpack_object *params);

/* Resolves the daemon address: addr when given, else $OPFOR_SOCKET, else the default socket of
 * opford (see opfor_config_default_socket()). Writes "unix:PATH" or "tcp://HOST:PORT" into buf.
 * Returns 0 or OPFOR_ERANGE. */
int opfor_client_default_addr(const char *addr, char *buf, size_t size);

/* Connects to addr: "unix:PATH", a plain path (holding a '/'), or "tcp://HOST:PORT" with a
 * numeric host or localhost; NULL or "" means opfor_client_default_addr(). timeout_ms bounds the
 * connect (0 = the default). Returns 0, or a negative code with d->msg saying what failed:
 * OPFOR_EINVAL (bad address), OPFOR_ENOENT (no socket file: is opford running?), OPFOR_EIO
 * (refused or unreachable), OPFOR_ETIMEDOUT, OPFOR_ENOMEM. d may be NULL. */
int opfor_client_connect(opfor_client_t **out, const char *addr, int timeout_ms, opfor_diag_t *d);

/* Closes the connection and frees the client (NULL is fine). */
void opfor_client_close(opfor_client_t *c);

/* The timeout of each later call in milliseconds; 0 waits forever. */
void opfor_client_set_timeout(opfor_client_t *c, int timeout_ms);

/* Sets the notification callback (NULL: notifications are dropped). */
void opfor_client_on_notify(opfor_client_t *c, opfor_client_notify_fn fn, void *ud);

/* Says hello: client_name (may be NULL) and token (NULL or "" for none). On success the server's
 * api_level and version are kept (opfor_client_api_level/version). Returns as opfor_client_call. */
int opfor_client_hello(opfor_client_t *c, const char *client_name, const char *token);
/* The api_level and version string the server gave in hello (0 and "" before). */
int opfor_client_api_level(const opfor_client_t *c);
const char *opfor_client_server_version(const opfor_client_t *c);

/* Calls method with the params map packed by pack(pk, ud) (pack NULL = an empty map) and waits
 * for its response. Returns 0 with *result set to the result object (valid until the next call
 * on c or opfor_client_close), OPFOR_CLIENT_REMOTE when the server answered with an error, or a
 * negative code: OPFOR_ETIMEDOUT (no answer in time; the connection stays usable and a late
 * answer is discarded), OPFOR_EIO (connection lost), OPFOR_EPROTO (the server sent something
 * that is not MessagePack-RPC; the connection is then closed). result may be NULL. */
int opfor_client_call(opfor_client_t *c, const char *method, opfor_client_pack_fn pack, void *ud,
                      const msgpack_object **result);

/* Waits up to timeout_ms (0 = do not wait, -1 = forever) for incoming messages and hands each
 * notification to the callback. Returns the number of notifications handled (0 when the time ran
 * out first), or a negative code (OPFOR_EIO: the connection closed; OPFOR_EPROTO). Stale
 * responses (to calls that timed out) are discarded. */
int opfor_client_poll(opfor_client_t *c, int timeout_ms);

/* After OPFOR_CLIENT_REMOTE: the server's error code (OPFOR_RPC_E_*). After a local failure: 0.
 * The message describes the last failure of either kind. */
int opfor_client_error_code(const opfor_client_t *c);
const char *opfor_client_error_message(const opfor_client_t *c);
/* After OPFOR_CLIENT_REMOTE: the error's hint code ("ask_orders", docs/protocol.md, Errors)
 * when the server sent the optional third element, else "" (always "" after success or a
 * local failure, and from servers before api_level 5). */
const char *opfor_client_error_hint(const opfor_client_t *c);
/* The hint's args map, or NULL (no hint, or a hint without args); valid until the next call. */
const msgpack_object *opfor_client_error_args(const opfor_client_t *c);
/* The hint arg under key as text into buf (n bytes; integers in decimal, booleans as
 * true/false), or NULL when there is no such arg (or it is a list or a map). */
const char *opfor_client_error_arg(const opfor_client_t *c, const char *key, char *buf, size_t n);

/* The connected socket's file descriptor (for poll loops); -1 when closed. */
int opfor_client_fd(const opfor_client_t *c);

#endif
