/* opfor/viktoria/heuristic.h — the Viktoria! heuristic planner: readable scores for candidate
 * actions, a value for positions, and the evaluator the search uses (prior, playout
 * policy, leaf value).
 *
 * Every candidate action of the side to move gets a score that is a weighted sum of named
 * terms (threat to the enemy, threat from the enemy, cover, objective progress, command
 * range, morale, the unit's role as Viktoria! XV.B describes it), with every weight in one
 * table (opfor_heur_default_weights), so an order can say which terms decided it. Movement
 * is scored where the unit would actually stop (its mean move toward the destination). The
 * best-scoring action is the heuristic policy: the playouts' default and, on its own, the
 * "heuristic" opponent of `opfor arena`. Works on states of opfor_viktoria_ruleset
 * (rulesets/viktoria/adapter.h); other rulesets get OPFOR_EINVAL. Allocation-free and
 * thread-safe: everything a call needs lives on its stack.
 */
#ifndef OPFOR_VIKTORIA_HEURISTIC_H
#define OPFOR_VIKTORIA_HEURISTIC_H

#include <stddef.h>

#include "opfor/rng.h"
#include "opfor/ruleset.h"
#include "opfor/ruleset_ai.h"
#include "opfor/vocab.h"

/* The named terms of an action's score. */
typedef enum opfor_heur_term {
    OPFOR_HT_THREAT_TO = 0, /* harm the action does, or sets up, against the enemy */
    OPFOR_HT_THREAT_FROM,   /* harm the enemy can do to the unit where it ends (<= 0) */
    OPFOR_HT_COVER,         /* cover (or going prone) where the unit ends */
    OPFOR_HT_OBJECTIVE,     /* progress toward (or holding) the scenario's objectives */
    OPFOR_HT_COMMAND,       /* ending within a commander's radius, or bringing units into it */
    OPFOR_HT_MORALE,        /* rallying, and keeping a shaken unit out of harm */
    OPFOR_HT_ROLE,          /* what the unit type is for (XV.B): infantry holds cover and
                               fires, cavalry flanks and charges exposed targets, guns and
                               MGs keep their range, headquarters and supply escape */
    OPFOR_HT_COUNT
} opfor_heur_term_t;
/* Short names: "threat_to", "threat_from", "cover", "objective", "command", "morale",
 * "role". */
extern const opfor_name_t opfor_heur_term_names[];
/* Words for reasons: "threat to the enemy", "threat from the enemy", "cover",
 * "objective", "command", "morale", "role". "?" out of range. */
const char *opfor_heur_term_label(int term);

/* Every weight of the planner. */
typedef struct opfor_heur_weights {
    double term[OPFOR_HT_COUNT]; /* multiplies each term of an action's score */
    /* position value (leaf evaluation), per side, then the difference */
    double figure;       /* a living person figure (times its quality factor) */
    double wounded;      /* factor for a wounded figure (0..1) */
    double equipment;    /* a crewed gun or MG */
    double unit;         /* a unit still in play (the engine scores destroyed units) */
    double wavering;     /* a Wavering unit (subtracted) */
    double objective;    /* per objective point held */
    double approach;     /* per objective point, times closeness of the nearest unit */
    double value_scale;  /* difference d of the sides' values gives d / (|d| + value_scale) */
    double general_last; /* selection: generals wait for their units (subtracted) */
} opfor_heur_weights_t;
/* The one table of default weights. */
extern const opfor_heur_weights_t opfor_heur_default_weights;

/* An action's score, term by term (each already weighted). */
typedef struct opfor_heur_score {
    double total;                /* sum of the terms */
    double term[OPFOR_HT_COUNT]; /* weighted contribution of each term */
} opfor_heur_score_t;

/* How the planner runs. Start from opfor_heur_init. */
typedef struct opfor_heur {
    const opfor_heur_weights_t *w; /* weights; NULL: opfor_heur_default_weights */
    double epsilon;                /* playouts: chance of a uniform pick instead of the best */
    int fast_playouts;             /* 1: the search's hooks (prior, playouts) skip sight
                                      tests and take cover from any direction: about twice
                                      the iterations; direct calls always test sight */
} opfor_heur_t;

/* Defaults: default weights, epsilon 0.1, fast playouts. */
void opfor_heur_init(opfor_heur_t *h);
/* Fills ev with the planner's hooks (prior: action scores; policy: epsilon-greedy on the
 * scores; evaluate: opfor_heur_value) over h, which must outlive ev. With fast_playouts the
 * prior and the policy use the fast scores (see opfor_heur_t). */
void opfor_heur_evaluator(opfor_evaluator_t *ev, const opfor_heur_t *h);

/* Search settings that suit the planner as the search's prior and playout policy (lower
 * exploration, narrower progressive widening, so the iterations go to the planner's best
 * candidates): the exploration constant, and widening to pw_c * visits^pw_alpha children.
 * The ruleset's AI table (opfor_viktoria_ai) hands them to the search. */
#define OPFOR_HEUR_UCT_C 0.3
#define OPFOR_HEUR_PW_C 1.5
#define OPFOR_HEUR_PW_ALPHA 0.3

/* The planner with its defaults (opfor_heur_init) as the search's evaluator: fast playouts,
 * static, shared by every search thread (the ruleset's AI table points at it). */
extern const opfor_evaluator_t opfor_heur_default_evaluator;

/* Scores action a of the side to decide in state (a state of g's ruleset, which must be
 * Viktoria!). 0, or OPFOR_EINVAL (another ruleset, or no side decides in state). */
int opfor_heur_score(const opfor_heur_t *h, const opfor_game_t *g, const void *state,
                     const opfor_action_t *a, opfor_heur_score_t *out);
/* Scores n actions at once (sharing the work of reading the position). 0 or OPFOR_EINVAL. */
int opfor_heur_score_all(const opfor_heur_t *h, const opfor_game_t *g, const void *state,
                         const opfor_action_t *acts, int n, opfor_heur_score_t *out);
/* The heuristic policy: index of the best-scoring of the n actions (ties: the first), its
 * score in *best when not NULL. OPFOR_EINVAL as above (or n < 1). Deterministic. */
int opfor_heur_best(const opfor_heur_t *h, const opfor_game_t *g, const void *state,
                    const opfor_action_t *acts, int n, opfor_heur_score_t *best);
/* Value of a position for each player, in [-1, 1] (zero-sum), into values[2]: material,
 * morale and objectives. 0 or OPFOR_EINVAL. */
int opfor_heur_value(const opfor_heur_t *h, const opfor_game_t *g, const void *state,
                     double *values);
/* The terms that decided a score, largest first, as one phrase:
 * "threat to the enemy +1.20, cover +0.70, threat from the enemy -0.45" (at most `max`
 * terms, those under 0.05 left out; "no strong reason" when none). Returns buf. */
const char *opfor_heur_reason(const opfor_heur_score_t *s, int max, char *buf, size_t n);

#endif
