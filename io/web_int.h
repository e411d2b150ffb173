/* io/web_int.h — the table page's transport (io/web.c): HTTP for the page's files and a
 * WebSocket whose binary messages are MessagePack-RPC frames, served by libwebsockets on the
 * server's own libuv loop (no thread of its own). server.c owns the sessions (opfor_peer_t);
 * web.c owns the connections and their queued messages. docs/web.md.
 */
#ifndef OPFOR_WEB_INT_H
#define OPFOR_WEB_INT_H

#include "opfor/config.h"
#include "opfor/error.h"
#include "server_int.h"

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

typedef struct opfor_web opfor_web_t;
typedef struct opfor_web_conn opfor_web_conn_t;

/* Starts serving cfg->http ("http://HOST:PORT") on loop for s. Returns 0 or a negative code
 * with d filled. */
int opfor__web_start(opfor_web_t **out, opfor_server_t *s, uv_loop_t *loop, const char *http,
                     int verbose, opfor_diag_t *d);
/* The port bound (useful with port 0). */
int opfor__web_port(const opfor_web_t *w);
/* Stops listening and closes every connection; lws's handles close as the loop runs on. */
void opfor__web_stop(opfor_web_t *w);
/* Stops (when not yet stopped), runs the loop until lws has let go of it, and frees w. */
void opfor__web_free(opfor_web_t *w);

/* Queues one whole MessagePack message as one binary WebSocket message. */
void opfor__web_send(opfor_web_conn_t *wc, const char *data, size_t len);
/* Bytes queued on the connection and not yet written. */
size_t opfor__web_queued(const opfor_web_conn_t *wc);
/* The session let go of the connection: it closes once its queued messages are written. */
void opfor__web_close(opfor_web_conn_t *wc);

/* From web.c to server.c (io/server.c): a WebSocket connection opened; returns its session
 * (NULL when the server is stopping). peer names it for the log ("web 127.0.0.1#7"). */
opfor_peer_t *opfor__server_web_open(opfor_server_t *s, opfor_web_conn_t *wc, const char *peer);
/* Part of a message arrived: first/final mark its first and last part, binary its kind. */
void opfor__server_web_input(opfor_peer_t *c, const uint8_t *data, size_t len, int first, int final,
                             int binary);
/* The connection closed under the session. */
void opfor__server_web_gone(opfor_peer_t *c);

/* The page's two tokens (io/web_tokens.c): a game master's link shows everything; a players'
 * link (for now) opens the calculator only, until the player's view of a game exists. */
#define OPFOR_WEB_TOKEN_MAX 64
enum { OPFOR_WEB_GM = 1, OPFOR_WEB_PLAYER = 2 };
typedef struct opfor_web_tokens {
    char gm[OPFOR_WEB_TOKEN_MAX];     /* the game master's token */
    char player[OPFOR_WEB_TOKEN_MAX]; /* the players' token */
    int created;                      /* 1 when this start made them */
} opfor_web_tokens_t;

/* Reads <state_dir>/web-tokens, or makes it (mode 0600) with two new random tokens. Returns 0
 * or a negative code with d filled (a file readable by others, or not two good tokens). */
int opfor__web_tokens_load(const char *state_dir, opfor_web_tokens_t *t, opfor_diag_t *d);
/* OPFOR_WEB_GM or OPFOR_WEB_PLAYER for a token that is one of them, else 0. */
int opfor__web_token_role(const opfor_web_tokens_t *t, const char *token);

/* The page's files, built into the binary (io/web_files.c). */
typedef struct opfor_web_file {
    const char *path;          /* "/index.html" */
    const char *mime;          /* "text/html; charset=utf-8" */
    const unsigned char *data; /* the bytes */
    const unsigned long *len;  /* their count */
} opfor_web_file_t;

/* The file served at path ("/" is "/index.html"), or NULL. */
const opfor_web_file_t *opfor__web_file(const char *path);

#endif
