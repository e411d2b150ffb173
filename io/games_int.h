/* io/games_int.h — the daemon's registry of games in memory (io/methods_game.c).
 *
 * Games are loaded from the store on first use by replaying their logs and leave memory when
 * closed, finished or idle (`game-idle-unload`), to come back the same way when a call names
 * them; subscriptions (kept by connection serial while their game is out), the AI jobs and the
 * high-score table hang off this registry. The server creates it after opening the store and frees
 * it after the worker threads have been joined (their completions hold references to games). Loop
 * thread only.
 */
#ifndef OPFOR_GAMES_INT_H
#define OPFOR_GAMES_INT_H

#include "opfor/server.h"

struct opfor__games;

/* Makes the registry for server s whose store is the database at dbpath (the high-score
 * table goes into the same file). Returns 0 or OPFOR_ENOMEM. */
int opfor__games_new(struct opfor__games **out, opfor_server_t *s, const char *dbpath);
/* Hands the server's event listener the current state of the most recently changed active game
 * (loaded from the store when need be) with no event: see opfor_server_show_current. */
int opfor__games_show_current(struct opfor__games *gs);
/* The server's games timer: unloads the games that are closed, finished or idle past the
 * `game-idle-unload` setting (now: the loop's clock in ms) and returns the delay in ms until
 * the next one falls due (0: none; a later use arms the timer again). A game with a search
 * still running stays until the search's answer. */
uint64_t opfor__games_sweep(struct opfor__games *gs, uint64_t now);
/* Frees every game and the registry (NULL is fine). */
void opfor__games_free(struct opfor__games *gs);

#endif
