/* opfor/order.h — the AI's chosen action as an order a player carries out at the table.
 *
 * An order names the unit, the action, where it goes (inches from the south-west corner, a
 * compass direction of travel and the nearest landmark), the target, and the scores needed on
 * the dice (and, for fire, how many figures fire and how many dice each score is rolled on),
 * with a one-line reason (the terms that decided it and the search's value) and the
 * runner-up; a verbose form adds the top alternatives with their visits and values. The
 * ruleset fills what it knows (opfor_ruleset_ai_t.order: unit, verb, target, move, rolls,
 * sentence, terms); ai/ adds the search's part (value, runner-up, alternatives). Plain data
 * with fixed-size strings, so the daemon can send it and the orders card can draw it
 * without touching the game.
 */
#ifndef OPFOR_ORDER_H
#define OPFOR_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* Most dice rolls an order quotes, terms a reason names, alternatives a verbose order lists. */
#define OPFOR_ORDER_MAX_ROLLS 4
#define OPFOR_ORDER_MAX_TERMS 8
#define OPFOR_ORDER_MAX_ALTS 8

/* How an order's figures were counted. */
#define OPFOR_ORDER_FIG_NONE 0  /* not counted: the order is not one that fires */
#define OPFOR_ORDER_FIG_EXACT 1 /* exactly that many fire, as the position stands */
#define OPFOR_ORDER_FIG_UPTO 2  /* at most that many (they fire after moving) */

/* One roll the player makes for the order. */
typedef struct opfor_order_roll {
    char label[24]; /* "to hit", "save", "on target", "move", "targets pass" */
    char need[32];  /* "4+", "6, then 4+", "8+ on 2D6", or dice "1d3+4" for a move */
    double p;       /* chance of success as rendered (0 for a move) */
    int dice;       /* how many rolls of this score the table makes: one per figure that
                       fires for "to hit"; 0 when not counted or when it follows the roll
                       before (then per says which) */
    char per[16];   /* "hit" when it is one roll per success of the roll before ("save 5+ per
                       hit"), else "" */
} opfor_order_roll_t;

/* One named term of the score that decided an order ("cover", +0.70). */
typedef struct opfor_order_term {
    char name[24];  /* short name: "threat_to" */
    char label[32]; /* for people: "threat to the enemy" */
    double value;   /* weighted contribution */
} opfor_order_term_t;

/* One alternative the search weighed (verbose orders). */
typedef struct opfor_order_alt {
    char text[112];  /* the action as a phrase */
    uint32_t visits; /* search iterations through it */
    double value;    /* its mean value for the deciding side, [-1, 1] */
    float prior;     /* the heuristic's score of it */
    int chosen;      /* 1 for the order given */
} opfor_order_alt_t;

/* An order. Strings are NUL-terminated ("" when absent). */
typedef struct opfor_order {
    int side;              /* the deciding side */
    int unit;              /* acting unit index, -1 for none */
    char unit_name[24];    /* "Jager Company" */
    int kind;              /* the ruleset's action kind */
    char verb[40];         /* "advance", "fire at", "charge", "take cover" */
    int target;            /* target unit index, -1 for none */
    char target_name[24];  /* "1st Section" */
    float target_gap;      /* inches between the nearest figures, when there is a target */
    int has_move;          /* 1 when the unit moves */
    float move_in;         /* inches it is expected to move (mean roll, cut at the point) */
    float x, y;            /* where it is expected to stop, inches from the SW corner */
    char direction[4];     /* compass direction of travel: "N", "NE", ... */
    char landmark[40];     /* nearest named feature or objective to that point */
    char landmark_rel[12]; /* "toward", "into", "near", "away from" */
    int figures;           /* figures that act (those that fire: in range, in sight, not
                              blocked), as figures_how says */
    int figures_how;       /* OPFOR_ORDER_FIG_*: whether figures was counted, and how */
    int nrolls;            /* rolls used */
    opfor_order_roll_t rolls[OPFOR_ORDER_MAX_ROLLS];
    char sentence[256]; /* the order as read at the table */
    char reason[200];   /* one line: the deciding terms and the search's value */
    double total;       /* the heuristic's score of the chosen action (sum of terms) */
    int nterms;         /* terms used */
    opfor_order_term_t terms[OPFOR_ORDER_MAX_TERMS];
    int has_runner_up;      /* 1 when another action was searched */
    char runner_up[112];    /* the runner-up as a phrase */
    double value;           /* the chosen action's search value (0 without a search) */
    double runner_up_value; /* the runner-up's */
    int nalts;              /* alternatives listed */
    opfor_order_alt_t alts[OPFOR_ORDER_MAX_ALTS];
    uint64_t iterations; /* the search's iterations, 0 without a search */
    double elapsed_ms;   /* the search's time */
    /* a move the table cannot make in full: where it stops however well the die rolls */
    int has_limit; /* 1 when something stops the move short even at the best roll */
    float limit_x; /* the farthest it gets (best roll), inches from the SW corner */
    float limit_y;
    char limit_why[48]; /* what stops it: "Jager Picket is in the way", "the Farmhouse is
                           closed to riders", "the table edge" */
    /* a move's end for each face of its D3, so the table goes exactly where the engine would
       (rough ground and other bases make the roll's inches uneven) */
    int nstops;       /* 3 when has_move, else 0 */
    float stops_x[3]; /* [k]: where the unit's centre stops when the D3 shows k + 1 */
    float stops_y[3];
    /* a move that turns at a waypoint (a way round closed ground) within its reach */
    int has_via; /* 1: the unit goes straight to via_x, via_y first, then on */
    float via_x, via_y;
} opfor_order_t;

/* The terms that decided a score, largest first by size, as one phrase:
 * "threat to the enemy +1.20, cover +0.70, threat from the enemy -0.45" (at most max terms,
 * those under 0.05 left out; "no strong reason" when none), each named by its label (its name
 * when it has none). Returns buf. */
const char *opfor_order_terms_text(const opfor_order_term_t *terms, int nterms, int max, char *buf,
                                   size_t n);

#endif
