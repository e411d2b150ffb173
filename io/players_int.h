/* io/players_int.h — the players' view of a game (docs/web.md "The players' view"): what a
 * session opened with the table page's players' link is not shown. The table games pack their
 * states whole; io takes out, for such a session, what would let a player foresee the hidden
 * draws. No ruleset is named: the hidden keys are the shell's (every game has a seed).
 */
#ifndef OPFOR_PLAYERS_INT_H
#define OPFOR_PLAYERS_INT_H

#include <stddef.h>

#include <msgpack.h>

/* 1 when a game's state or list row key (n bytes at k) is kept from the players: "seed" (every
 * random draw of the game, the dice the daemon rolls and the hidden draws still to come, follows
 * from it). */
int opfor__players_hidden_key(const char *k, size_t n);

/* Packs into pk the MessagePack object in data (len bytes), a map whose keys
 * opfor__players_hidden_key keeps back left out (anything else is packed as it is). 0, or
 * OPFOR_EPARSE when data is not one object (nil is packed then). */
int opfor__players_pack(msgpack_packer *pk, const char *data, size_t len);

#endif
