/* tools/opfor/local_daemon.h — opford's own server run inside an `opfor` command, so a game
 * played "locally" is the daemon's game: the same rules path, the same events, the same client.
 *
 * The server listens on a private Unix socket in a new 0700 directory (under $XDG_RUNTIME_DIR
 * when set, else /tmp) and runs its libuv loop on a thread of its own; the command then talks
 * to it as any client does. Its games and high scores live in a state directory: the user's
 * (as `make run` keeps them) or, for a game not to be kept, the private directory itself,
 * removed when the server stops. Nothing here names a ruleset.
 */
#ifndef OPFOR_LOCAL_DAEMON_H
#define OPFOR_LOCAL_DAEMON_H

#include <stddef.h>

typedef struct opfor__local_daemon opfor__local_daemon_t;

/* Starts the server. state_dir: where games and scores are kept; NULL keeps them in the private
 * directory, removed by opfor__local_daemon_stop. scores_db: the high-score database instead
 * of the state directory's (NULL: that one). Call with SIGINT and SIGTERM blocked in the
 * calling thread (the server's thread inherits the mask, so its signal handles never take the
 * command's signals). The server logs errors (a score not saved) on stderr as "opfor: ...".
 * Returns 0 with *out set, or a negative OPFOR_E* code with err saying what failed (nothing is
 * left running or on disk). */
int opfor__local_daemon_start(opfor__local_daemon_t **out, const char *state_dir,
                              const char *scores_db, char *err, size_t errsize);
/* The socket's path, for opfor__rpc_open_dest. */
const char *opfor__local_daemon_socket(const opfor__local_daemon_t *d);
/* The state directory in use. */
const char *opfor__local_daemon_state_dir(const opfor__local_daemon_t *d);
/* The private directory (the socket's), removed at stop; for a process ending at once (a
 * signal) that can only remove it with opfor__local_daemon_remove_dir. */
const char *opfor__local_daemon_dir(const opfor__local_daemon_t *d);
/* Removes the files directly in dir and dir itself (best effort). Async-signal-unsafe only in
 * that it uses opendir. */
void opfor__local_daemon_remove_dir(const char *dir);
/* Stops the server gracefully (clients closed, searches cancelled), joins its thread, frees it
 * and removes the private directory. d may be NULL. */
void opfor__local_daemon_stop(opfor__local_daemon_t *d);

#endif
