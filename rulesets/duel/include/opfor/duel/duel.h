/* opfor/duel/duel.h — the dice duel: a small test ruleset with chance and a hidden hand.
 *
 * Two sides, Red (0) and Blue (1), each with hit points and a hidden hand of up to three
 * cards (values 1..6) dealt from one shared deck of 18 (three of each value), shuffled from
 * the game's seed. On its turn a side plays a card or passes (a guard: it heals 1 hit point,
 * never above the start). A played card is attacked with: one die (1D6, an explicit chance
 * node of six outcomes) is added to the card's value and the target loses what the total
 * beats the defence by (damage = die + card - defence, when above 0). After its turn a side
 * draws back up to three cards while the deck lasts (the draw is hidden from the other side;
 * the deck's order from both). The game ends when a side reaches 0 hit points (the other
 * wins) or after `rounds` rounds (both sides moved once): more hit points wins, equal is a
 * draw. Returns: +1 win, -1 loss, 0 draw.
 *
 * It exists so the ruleset interface, the conformance suite, the search and the clients
 * are exercised by a second game with both chance and hidden information; it is built only
 * with OPFOR_TEST_RULESETS (rulesets/duel/ruleset.cmake).
 */
#ifndef OPFOR_DUEL_H
#define OPFOR_DUEL_H

#include <stdint.h>

#include "opfor/rng.h"
#include "opfor/ruleset.h"

#define OPFOR_DUEL_SIDES 2
#define OPFOR_DUEL_HAND 3    /* cards a hand holds at most */
#define OPFOR_DUEL_DECK 18   /* cards in the deck: three of each value */
#define OPFOR_DUEL_VALUES 6  /* card values 1..6 */
#define OPFOR_DUEL_UNKNOWN 7 /* a card the viewer cannot see (in a view only) */
#define OPFOR_DUEL_FACES 6   /* the attack die, 1D6 */
#define OPFOR_DUEL_MAX_HP 40 /* limits of a scenario */
#define OPFOR_DUEL_MAX_ROUNDS 60
#define OPFOR_DUEL_MAX_DEFENCE 12
#define OPFOR_DUEL_MAX_ACTIONS 6 /* legal: 3 cards + pass; outcomes: 6 faces */

/* Action kinds (opfor_action_t.kind); unit and target are OPFOR_ACTION_NONE. */
enum {
    OPFOR_DUEL_PASS = 1, /* guard: heal 1 */
    OPFOR_DUEL_PLAY = 2, /* attack with the card of value arg */
    OPFOR_DUEL_ROLL = 3, /* the chance node's roll, from the state's stream */
    OPFOR_DUEL_FORCE = 4 /* the chance outcome: the die shows sub (1..6) */
};

/* Phases. */
enum {
    OPFOR_DUEL_DECIDE = 0, /* side `turn` plays or passes */
    OPFOR_DUEL_ROLLING,    /* the die for side `turn`'s card `pending` */
    OPFOR_DUEL_OVER        /* the game has ended: `winner` */
};

/* Results (winner). */
enum { OPFOR_DUEL_RED = 0, OPFOR_DUEL_BLUE = 1, OPFOR_DUEL_DRAW = 2, OPFOR_DUEL_NONE = 3 };

/* The game context: a scenario. ctx_new reads it from a file of `key: value` lines (hp,
 * rounds, defence; `#` starts a comment), or gives the built-in one (10, 8, 5). */
typedef struct opfor_duel_ctx {
    int hp;      /* hit points at the start, 1..OPFOR_DUEL_MAX_HP */
    int rounds;  /* rounds before the game ends on points, 1..OPFOR_DUEL_MAX_ROUNDS */
    int defence; /* what an attack must beat, 0..OPFOR_DUEL_MAX_DEFENCE */
} opfor_duel_ctx_t;

/* The state: 64 bytes of plain memory without padding (memcmp-comparable). */
typedef struct opfor_duel_state {
    opfor_rng_t rng;                                 /* the dice stream */
    uint8_t hand[OPFOR_DUEL_SIDES][OPFOR_DUEL_HAND]; /* ascending, 0 = empty slot (at the end) */
    uint8_t deck[OPFOR_DUEL_DECK];                   /* deck[0..ndeck), drawn from the end */
    uint8_t used[OPFOR_DUEL_VALUES];                 /* cards of each value played (public) */
    uint8_t hp[OPFOR_DUEL_SIDES];                    /* hit points, 0 = beaten */
    uint8_t ndeck;                                   /* cards left in the deck */
    uint8_t turn;                                    /* the side deciding or rolling */
    uint8_t phase;                                   /* OPFOR_DUEL_DECIDE, _ROLLING, _OVER */
    uint8_t pending;                                 /* the card played, awaiting the roll */
    uint8_t moves;                                   /* turns completed (both sides) */
    uint8_t winner;      /* OPFOR_DUEL_RED/BLUE/DRAW once over, else NONE */
    uint8_t last_kind;   /* the last turn, for the table: PASS or PLAY (0: none yet) */
    uint8_t last_side;   /* who took it */
    uint8_t last_card;   /* the card played */
    uint8_t last_roll;   /* the die */
    uint8_t last_damage; /* the damage done */
    uint8_t pad[5];      /* zero */
} opfor_duel_state_t;
_Static_assert(sizeof(opfor_duel_state_t) == 64, "the duel state has no padding");

/* The descriptor, registered as "duel" (rulesets/duel/ruleset.cmake). */
extern const opfor_ruleset_t opfor_duel_ruleset;

/* The built-in scenario (hp 10, rounds 8, defence 5). */
extern const opfor_duel_ctx_t opfor_duel_default_ctx;

/* Actions, built the way `legal` lists them (so opfor_action_eq matches). */
opfor_action_t opfor_duel_pass(void);
opfor_action_t opfor_duel_play(int card);
opfor_action_t opfor_duel_roll(void);
opfor_action_t opfor_duel_force(int face);

/* The lowest die face (1..6) with which card beats defence; 7 when none does. */
int opfor_duel_need(int card, int defence);
/* Damage of a card and a die face against defence (0 when the attack does not beat it). */
int opfor_duel_damage(int card, int face, int defence);
/* "Red", "Blue" ("?" otherwise). */
const char *opfor_duel_side_name(int side);

#endif
