/* opfor/ai.h — difficulty levels and the AI's explained decision.
 *
 * A level is a search budget plus how far the AI may stray from the most visited action:
 * actions under cutoff * (best visits) are dropped, one of the rest is drawn with weight
 * visits^(1/T) from a stream keyed by (game seed, decision number); T = 0 takes the best, so
 * ruthless is deterministic. Challenge searches like veteran; what makes it the challenge
 * setting is the director (another module), which steers the spawns so the players' chance
 * of winning stays in a band. No level cheats: reading the hidden state is a separate,
 * explicit option (opfor_mcts_config_t.cheat, `--cheat`), off by default. Every decision has
 * a one-line reason naming the runner-up; a verbose form lists the top choices.
 */
#ifndef OPFOR_AI_H
#define OPFOR_AI_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "opfor/mcts.h"
#include "opfor/ruleset_ai.h"
#include "opfor/vocab.h"

typedef enum opfor_ai_level {
    OPFOR_AI_NOVICE = 0, /* small budget, loose choice among good actions */
    OPFOR_AI_STANDARD,   /* the default: p95 decision within 150 ms on one core */
    OPFOR_AI_VETERAN,    /* larger budget, rarely strays from the best */
    OPFOR_AI_RUTHLESS,   /* largest budget, always the best found (deterministic) */
    OPFOR_AI_CHALLENGE,  /* the director's setting: searches like veteran, the director
                            adjusts the spawns to keep the game close */
    OPFOR_AI_LEVEL_COUNT
} opfor_ai_level_t;

/* One row of the level table. */
typedef struct opfor_ai_level_info {
    const char *name;    /* "novice", ... */
    uint32_t iterations; /* search budget */
    uint32_t wall_ms;    /* wall-clock cap (a safety net for the deterministic levels) */
    double temperature;  /* softmax temperature over visits; 0: argmax */
    double cutoff;       /* candidates need visits >= cutoff * best visits */
    int cheat;           /* always 0: cheating is the caller's explicit option, not a level */
    const char *summary; /* one line for --help and the GM's menu */
} opfor_ai_level_info_t;

/* Level names for opfor_vocab_lookup: "novice", "standard", "veteran", "ruthless",
 * "challenge". */
extern const opfor_name_t opfor_ai_level_names[];

/* The table row for level, or NULL when out of range. */
const opfor_ai_level_info_t *opfor_ai_level_info(int level);
/* Finds a level by name (case-insensitive). 0 and *level, or OPFOR_ENOENT. */
int opfor_ai_level_find(const char *name, int *level);
/* Applies a level to a search configuration: iterations and wall cap; the rest of cfg
 * (memory, threads, seed, widening, and cheat, which only the caller sets) is kept.
 * OPFOR_EINVAL for a bad level. */
int opfor_ai_level_apply(int level, opfor_mcts_config_t *cfg);

/* A busy daemon's budgets. When many searches wait, a search may be given a share of its
 * level's budget (1/share of the iterations), but never less than the level's floor: a
 * quarter of its budget, which is never below the next level down's (standard 1000 -> 250,
 * above novice's 200; veteran 4000 -> 1000, standard's; ruthless 20000 -> 5000). */
#define OPFOR_AI_FLOOR_DIVISOR 4
/* The floor of level's budget in iterations (0 for a bad level). */
uint32_t opfor_ai_level_floor(int level);
/* The iterations of level given 1/share of its budget: budget / share, never below the floor
 * (share 0 or 1: the whole budget; 0 for a bad level). */
uint32_t opfor_ai_level_budget(int level, unsigned share);
/* The words a busy daemon adds to an order's reason: "busy daemon: 250 of standard's 1000
 * playouts" into buf (empty when share <= 1 or level is bad). Returns buf. */
const char *opfor_ai_share_note(int level, unsigned share, char *buf, size_t n);

/* The ruleset's evaluator (opfor_ruleset_t.ai->evaluator), or NULL when it has none (the
 * search then plays random playouts). */
const opfor_evaluator_t *opfor_ai_evaluator(const opfor_ruleset_t *rs);
/* The search settings that suit rs's evaluator: sets cfg's uct_c, pw_c and pw_alpha to the
 * ruleset's nonzero ones (opfor_ruleset_ai_t; a negative pw_c turns widening off), keeps the
 * rest. Nothing without a table. */
void opfor_ai_search_tuning(const opfor_ruleset_t *rs, opfor_mcts_config_t *cfg);

/* Chooses among the search's top actions as level says (see the header comment), drawing
 * from a stream keyed by (game_seed, decision). Returns the index into r->top, or
 * OPFOR_EINVAL when r has no choices or the level is bad. Same inputs, same index. */
int opfor_ai_choose(int level, const opfor_mcts_result_t *r, uint64_t game_seed, uint64_t decision);

/* opfor_ai_choose among the top actions that the ruleset does not call inert
 * (opfor_ruleset_ai_t.inert: an order the table could not carry out) for the game g in state,
 * the decision r was searched from. When every top action is inert, the last entry of r->top
 * is replaced by the first legal action that is not (its visits and value 0) and chosen; when
 * none is, the choice is opfor_ai_choose's. Without the hook, exactly opfor_ai_choose.
 * Returns the index into r->top, OPFOR_EINVAL as opfor_ai_choose, OPFOR_ENOMEM. */
int opfor_ai_choose_in(const opfor_game_t *g, const void *state, int level, opfor_mcts_result_t *r,
                       uint64_t game_seed, uint64_t decision);

/* A decision of the AI, explained. */
typedef struct opfor_ai_decision {
    opfor_action_t action;         /* what to do */
    int chosen;                    /* its index in search.top */
    int level;                     /* the level that chose */
    int has_runner_up;             /* 1 when another action was searched */
    opfor_mcts_choice_t runner_up; /* the best of the others (most visits) */
    char reason[256];              /* one line: the choice, its value, the runner-up's */
    opfor_mcts_result_t search;    /* the search's statistics */
} opfor_ai_decision_t;

/* Searches state with m at level (m's configured seed is the game seed; memory, threads,
 * widening and cheat stay as configured), chooses, and explains. decision numbers the AI's
 * decisions in the game (0, 1, ...): with the game seed it keys the search and the choice,
 * so a replayed game repeats its decisions. cancel as in opfor_mcts_search. Returns 0;
 * OPFOR_ECANCELED (nothing chosen); or an error of opfor_mcts_configure/search. */
int opfor_ai_decide(opfor_mcts_t *m, const opfor_game_t *g, const void *state,
                    const opfor_evaluator_t *ev, int level, uint64_t decision,
                    const atomic_int *cancel, opfor_ai_decision_t *out);

/* Options of opfor_ai_decide_opts. */
enum {
    OPFOR_AI_EXACT = 1u << 0 /* budget only: no wall cap, so the decision depends on nothing but
                                (game seed, decision number) and the position, however busy
                                the machine (replayable games) */
};
/* An option of opfor_ai_decide_opts: a busy daemon's share (2..255): the search spends
 * opfor_ai_level_budget(level, n) iterations instead of the level's whole budget. */
#define OPFOR_AI_SHARE(n) (((unsigned)(n)&0xffu) << 8)
/* opfor_ai_decide with options (OPFOR_AI_*). */
int opfor_ai_decide_opts(opfor_mcts_t *m, const opfor_game_t *g, const void *state,
                         const opfor_evaluator_t *ev, int level, uint64_t decision,
                         const atomic_int *cancel, unsigned opts, opfor_ai_decision_t *out);

/* The verbose explanation: one line per top alternative ("2. A1 fires at B2  visits 412
 * (27.5%)  value +0.21  prior 0.40"), the chosen one marked, then the search's totals.
 * state is the decision's state (for the action phrases). Returns buf. */
const char *opfor_ai_explain(const opfor_game_t *g, const void *state, const opfor_ai_decision_t *d,
                             char *buf, size_t n);

#endif
