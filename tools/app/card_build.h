/* tools/app/card_build.h — builds the orders card (display_card.h) from a game event.
 *
 * Pure functions over MessagePack objects exactly as they travel on the wire (an `event`
 * notification's params map and a `game.state` result, docs/protocol.md), so opford's display
 * sink and the remote `opfor display` client build identical cards from identical data. Part of
 * the application library both binaries link (tools/app/, opfor_app); display/ stays free of
 * MessagePack and io/ stays free of display/.
 */
#ifndef OPFOR_TOOLS_CARD_BUILD_H
#define OPFOR_TOOLS_CARD_BUILD_H

#include <msgpack.h>

#include "opfor/display_card.h"

/* How much of a state that carries no scene (a table, `terrain` and `units` lists) the card's
 * mini-map keeps: pieces, units, vertices a piece (more are thinned evenly). */
#define OPFOR_CARD_MAX_TERRAIN 32
#define OPFOR_CARD_MAX_UNITS 32
#define OPFOR_CARD_MAX_VERTS 12

/* What the builder remembers of one game between events: the last spotting (drawn with its
 * arrow on later cards until the next turn begins) and the last card. */
typedef struct opfor_card_memo {
    char game[64];        /* game id these notes belong to; "" = none yet */
    long long last_seq;   /* seq of the last event seen, 0 = none */
    int turn;             /* current turn, 0 = unknown */
    int have_spot;        /* a spotting is remembered */
    char spot_unit[48];   /* the spotted unit's name ("" when unnamed) */
    float spot_x, spot_y; /* where it was placed (table inches, south-west origin) */
    int spot_placed;      /* 1 when spot_x/spot_y are meaningful */
    char spot_dir[4];     /* compass point it came from ("NE"), "" unknown */
    /* Terrain of a built-in scenario, for states that carry no `terrain` list: loaded once
     * per scenario name, as scene shapes (south-west origin). */
    char terrain_of[64];                                 /* scenario looked up; "" none */
    uint8_t n_terrain;                                   /* pieces found (0: none or unknown) */
    opfor_scene_shape_t terrain[OPFOR_CARD_MAX_TERRAIN]; /* the pieces */
} opfor_card_memo_t;

/* Clears memo (at start, or when following another game). */
void opfor_card_memo_reset(opfor_card_memo_t *memo);

/* Builds *card for one `event` params map. state is the game's latest `game.state` result (or
 * NULL: the card then has no mini-map); memo (may be NULL) carries the last spotting across
 * events and is updated. Returns 1 when the event deserves a card (order, spotted, initiative,
 * game_over), 0 when it does not (other kinds, other games' housekeeping), OPFOR_EINVAL when
 * the event is malformed. */
int opfor_card_from_event(const msgpack_object *event, const msgpack_object *state,
                          opfor_card_memo_t *memo, opfor_card_t *card);

/* A card for a game that has no order yet: its initiative holder and the map, from a
 * `game.state` result alone (used after connecting or reconnecting). Returns 1 or
 * OPFOR_EINVAL. */
int opfor_card_from_state(const msgpack_object *state, opfor_card_memo_t *memo, opfor_card_t *card);

/* A card saying what the display waits for ("Waiting for a game", "Connecting to ..."). */
void opfor_card_waiting(opfor_card_t *card, const char *title, const char *line);

/* Fills the mini-map of card (a scene) from a `game.state` result. A state with a `scene` (a
 * game of any ruleset but the table engine's, docs/protocol.md) gives it as it is, its
 * `ai_side`'s units marked as the AI's (filled) and the units named acting and target marked
 * too. Otherwise from the table size, terrain and units: terrain from the state's `terrain`
 * list, or without one from the built-in scenario the state names (cached in memo; none when
 * memo is NULL); the unit named acting ringed, the one named target cross-haired with a fire
 * line between them, and the remembered spotting dashed with a place arrow. Returns the
 * number of units drawn, or 0 when state has no table. */
int opfor_card_map_from_state(const msgpack_object *state, const char *acting, const char *target,
                              opfor_card_memo_t *memo, opfor_scene_t *map);

/* Helpers over msgpack objects, also used by cmd_display.c (the first and the last are
 * io's opfor_rpc_params_get and opfor_rpc_num under the display's names). */
/* The value under key in map m, or NULL (m may be NULL or not a map). */
const msgpack_object *opfor_mp_get(const msgpack_object *m, const char *key);
/* Copies a str object into buf (truncated at a UTF-8 boundary); 0, or -1 when o is not a str. */
int opfor_mp_str(const msgpack_object *o, char *buf, size_t size);
/* A number (int or float) as double; 0, or -1 when o is not a number. */
int opfor_mp_num(const msgpack_object *o, double *out);

#endif
