/* io/server_int.h — opford server internals shared by server.c and the method handlers.
 *
 * The uv handles are embedded in the structs that own them (a client holds its stream, timer
 * and shutdown request) and a struct is freed only in the close callback of its last handle.
 * Calls hold a pointer to their client that the client clears when it closes, so an answer
 * computed after a disconnect is dropped instead of touching freed memory.
 */
#ifndef OPFOR_SERVER_INT_H
#define OPFOR_SERVER_INT_H

#include "opfor/frame.h"
#include "opfor/rpc.h"
#include "opfor/server.h"

#include <stdatomic.h>

typedef struct opfor_peer opfor_peer_t;

struct opfor_call {
    opfor_server_t *srv;            /* the server; never NULL */
    opfor_peer_t *client;           /* NULL once the client has gone */
    struct opfor_call *prev, *next; /* the client's list of calls awaiting an answer */
    uint32_t id;                    /* request id */
    int method;                     /* opfor__method_id_t */
    const struct opfor_ruleset *rs; /* the ruleset a "RULESET.VERB" method named, else NULL */
    char name[72];                  /* the method's name as called (an alias, RULESET.VERB) */
    int notification;               /* 1: nobody waits for an answer */
    int in_handler;                 /* 1 while the handler runs (the dispatcher frees) */
    int answered;                   /* 1 once an answer was sent or dropped */
    int packing;                    /* 1 between result_begin and result_end */
    atomic_int cancelled;           /* set on the loop thread, read by workers */
    msgpack_sbuffer buf;            /* the response being packed */
    msgpack_packer pk;              /* packs into buf */
};

struct opfor_peer {
    union {
        uv_handle_t handle;
        uv_stream_t stream;
        uv_pipe_t pipe;
        uv_tcp_t tcp;
    } h;                        /* the connection */
    uv_timer_t timer;           /* hello deadline, then idle timeout */
    uv_shutdown_t shutdown_req; /* used by a graceful close */
    opfor_server_t *srv;        /* owner */
    opfor_peer_t *prev, *next;  /* the server's client list */
    uint64_t serial;            /* connection number, for logs */
    char peer[80];              /* "unix#3", "tcp 127.0.0.1:4242 #4" */
    int is_tcp;                 /* 1 for TCP connections */
    int is_web;                 /* 1 for a WebSocket session (io/web.c): h is unused */
    struct opfor_web_conn *web; /* its connection; NULL once that has gone */
    int players_link;           /* 1: a web session opened with the players' token */
    int refused;                /* 1: over max-clients, being told why (not in nclients) */
    int token_required;         /* 1 when hello must carry the token */
    int hello_done;             /* 1 after a successful hello */
    int authed;                 /* 1 when no token is needed or it was given */
    int draining;               /* 1: no more input, closing after pending writes */
    int closing;                /* 1 once uv_close was called */
    int open_handles;           /* handles not yet closed; freed at 0 */
    uint8_t *in;                /* received bytes not yet consumed */
    char *out;                  /* responses gathered while input is processed */
    size_t out_len, out_cap;    /* bytes gathered, bytes allocated */
    int batching;               /* 1 while process_input runs: sends gather in out */
    size_t in_len, in_cap;      /* bytes held, bytes allocated */
    unsigned inflight;          /* requests awaiting an answer */
    struct opfor_call *calls;   /* those requests */
};

/* Ends a client's session after the pending writes (and a final message) have gone out. */
void opfor__peer_drain(opfor_peer_t *c, const char *why);
/* Marks the client as past hello (authorised when auth is 1) and arms the idle timer. */
void opfor__peer_hello_ok(opfor_peer_t *c, int auth);
/* Compares a presented token with the configured one in constant time; 1 when equal. */
int opfor__server_token_ok(const opfor_server_t *s, const char *token);
/* For a web session's hello: OPFOR_WEB_GM or OPFOR_WEB_PLAYER when token is one of the page's
 * tokens, else 0. */
int opfor__server_web_role(const opfor_server_t *s, const char *token);
/* The current configuration's limits, for hello's answer. */
const opfor_config_t *opfor__server_cfg(const opfor_server_t *s);
/* The model in force of the default calculator (opfor__calc_default(): built in, or the
 * `model` file, loaded through its calc->model_load; swapped on SIGHUP, on the loop thread, so
 * handlers may use it freely during a call). NULL when no ruleset has a calculator. */
const void *opfor__server_model(const opfor_server_t *s);
/* The worker pool for long jobs (started by opfor_server_start). */
struct opfor_workers *opfor__server_workers(const opfor_server_t *s);
/* The game store, opened (and quick_checked) by opfor_server_start; loop thread only. */
struct opfor_store *opfor__server_store(const opfor_server_t *s);
/* The games in memory (io/methods_game.c), made by opfor_server_start; loop thread only. */
struct opfor__games *opfor__server_games(const opfor_server_t *s);
/* Runs opfor__games_sweep within ms (sooner when it is already due sooner); loop thread. */
void opfor__server_games_wake(opfor_server_t *s, uint64_t ms);
/* The loop's clock in milliseconds, brought up to date (uv_update_time, uv_now). */
uint64_t opfor__server_now(opfor_server_t *s);
/* The connected client with this connection number, or NULL when it has gone (or is
 * closing): subscriptions keep serials, not pointers, so they never dangle. */
opfor_peer_t *opfor__server_peer(opfor_server_t *s, uint64_t serial);
/* Sends len bytes (one or more whole MessagePack messages) to c, gathered with its other
 * answers while its input is being processed. */
void opfor__peer_send(opfor_peer_t *c, const char *data, size_t len);

/* For the code that publishes game events: whether a listener is set (then pack the state
 * once per change), and the call that hands it one packed event with that state. */
int opfor__server_has_event_listener(const opfor_server_t *s);
void opfor__server_event(opfor_server_t *s, const char *event, size_t event_len, const char *state,
                         size_t state_len);

#endif
