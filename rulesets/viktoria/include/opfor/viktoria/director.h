/* opfor/viktoria/director.h — the Patrol Mode director: a game master that keeps the game hard but
 * winnable (Viktoria! XV.A: the non-player side is there to challenge, not to crush).
 *
 * When the initiative button spots new enemies, the rules fix what may appear (a type with
 * weight, a quality, a distance within the dice of one of the type's distance choices, one of
 * the compass points with weight: XV.B, docs/patrol-mode.md) and leave the pick to chance.
 * The director may pick instead, among those allowed outcomes only: it estimates the player's
 * chance to win by fast rollouts (the player bot model against the non-player model of
 * opfor/viktoria/player_bots.h and opfor/viktoria/heuristic.h), and when that estimate leaves the
 * challenge band (default 40 to 60 percent) it compares by rollouts the allowed outcomes that push
 * back hardest by a quick threat guess, and takes the one (the draw included) whose estimate lies
 * nearest the band's middle;
 * inside the band the dice decide. It also places each general a spotting brings on with the
 * unit where he keeps the most units in command (VII: 18 inches).
 *
 * How it is wired: the director settles the spotting presses of an initiative chance node
 * itself, before the game applies its roll. It replays the press sequence of
 * opfor_patrol_engine_initiative (rulesets/viktoria/patrol_engine.c) on the state's own patrol
 * stream with the public Patrol Mode functions: while the next press would be a spotting it
 * presses, chooses, places and spawns; the first press that names a side is left to the
 * engine's hook, which then draws exactly what the director saw. So no file of the rules changes,
 * searches (which copy states and never call the director) see the plain odds, and the patrol
 * stream stays the only source of the presses. A game loop calls opfor_director_chance at each
 * chance node (the arena does it through its referee: the ruleset's director_open).
 */
#ifndef OPFOR_VIKTORIA_DIRECTOR_H
#define OPFOR_VIKTORIA_DIRECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/ruleset.h"
#include "opfor/ruleset_ai.h"
#include "opfor/viktoria/patrol.h"
#include "opfor/viktoria/session_plan.h"

/* Most outcomes opfor_director_outcomes lists. */
#define OPFOR_DIRECTOR_MAX_OUTCOMES (OPFOR_PT_COUNT * 3 * OPFOR_COMPASS_COUNT)
/* Command radius of a general, inches (Viktoria! VII). */
#define OPFOR_DIRECTOR_COMMAND_RADIUS 18.0f

/* How the non-player side plays in the director's rollouts. */
typedef enum opfor_director_enemy {
    OPFOR_DIRECTOR_ENEMY_TABLE = 0, /* the behaviour table (opfor/viktoria/table_bot.h): fastest */
    OPFOR_DIRECTOR_ENEMY_HEURISTIC, /* the heuristic planner's best action
                                       (opfor/viktoria/heuristic.h) */
    OPFOR_DIRECTOR_ENEMY_COUNT
} opfor_director_enemy_t;

/* Everything that tunes the director. Start from opfor_director_config_default(). */
typedef struct opfor_director_config {
    double band_lo;       /* the player's win chance the director aims above (0.40) */
    double band_hi;       /* ... and below (0.60) */
    int steer;            /* 1: choose spotting outcomes (default); 0: the dice decide */
    int place_generals;   /* 1: new generals join the unit keeping most in command (default) */
    int rollouts;         /* rollouts per estimate (12) */
    int candidates;       /* most outcomes compared at one spotting, natural draw included (8) */
    int player_model;     /* opfor_player_bot_t playing the player in rollouts (medium): how
                             strong the game master takes the players to be */
    int enemy_model;      /* opfor_director_enemy_t playing the non-player side (table) */
    long rollout_steps;   /* actions before a rollout is scored as it stands (20000) */
    float command_radius; /* inches (OPFOR_DIRECTOR_COMMAND_RADIUS) */
} opfor_director_config_t;

/* What the director did in the current game (reset by opfor_director_begin). */
typedef struct opfor_director_stats {
    int spottings; /* spotting presses it settled */
    int steered;   /* of which it chose another outcome than the dice */
    int estimates; /* estimates made (each of cfg.rollouts rollouts) */
    int generals;  /* generals it placed */
    double last;   /* the last estimate of the player's win chance before a spotting */
    double sum;    /* sum of those estimates (mean = sum / spottings) */
} opfor_director_stats_t;

typedef struct opfor_director opfor_director_t;

/* Defaults: band 0.40-0.60, steering and general placement on, 12 rollouts, 8 candidates,
 * the medium player model, the table as enemy model, 20000 steps, 18 inches. */
void opfor_director_config_default(opfor_director_config_t *cfg);

/* Creates a director with its scratch states (allocated now; nothing is allocated later).
 * 0, OPFOR_EINVAL (band not 0 <= lo <= hi <= 1, rollouts < 1, candidates < 1, unknown player
 * model) or OPFOR_ENOMEM. Release with opfor_director_free. */
int opfor_director_create(opfor_director_t **out, const opfor_director_config_t *cfg);
/* Releases a director; NULL is fine. */
void opfor_director_free(opfor_director_t *d);
/* The configuration in force, and the current game's statistics. */
const opfor_director_config_t *opfor_director_config(const opfor_director_t *d);
const opfor_director_stats_t *opfor_director_stats(const opfor_director_t *d);
/* A new game seeded with game_seed: clears the statistics and keys the director's draws
 * (candidate samples, rollout seeds) to the game, so a game replays identically. */
void opfor_director_begin(opfor_director_t *d, uint64_t game_seed);

/* The player's chance to win from state (a "viktoria" game in Patrol Mode), by
 * cfg.rollouts rollouts keyed by key: each re-seeds the dice and the patrol stream and plays
 * to the end with the player model against the behaviour table; a win counts 1, a draw 1/2.
 * 0 and *p, or OPFOR_EINVAL (not a Patrol Mode "viktoria" game). */
int opfor_director_estimate(opfor_director_t *d, const opfor_game_t *g, const void *state,
                            uint64_t key, double *p);

/* Whether sp is an allowed outcome of a spotting under cfg: a type with weight, a quality
 * with weight for it, a distance option of the type with weight whose dice can roll
 * sp->rolled (with sp->dice equal to its dice), a direction with weight. */
int opfor_director_allowed(const opfor_patrol_config_t *cfg, const opfor_patrol_spot_t *sp);
/* Lists allowed outcomes into out (room for max): drawn first (the dice's own outcome),
 * then for each type with weight, each of the shortest and longest distance its options can
 * roll (and drawn's distance for drawn's type), each direction with weight; the quality is
 * drawn's when the type allows it, else the type's most likely one. Returns the count. */
int opfor_director_outcomes(const opfor_patrol_config_t *cfg, const opfor_patrol_spot_t *drawn,
                            opfor_patrol_spot_t *out, int max);

/* Chooses the outcome of a spotting about to be resolved in state (an initiative chance node
 * of a Patrol Mode "viktoria" game), replacing *spot (the dice's draw) by an allowed outcome
 * as described above. Returns 1 when it chose another outcome, 0 when it kept the draw, or
 * a negative error. */
int opfor_director_steer(opfor_director_t *d, const opfor_game_t *g, const void *state,
                         opfor_patrol_spot_t *spot);

/* At a chance node of state: when it is an initiative node of a Patrol Mode "viktoria" game,
 * settles the spotting presses that come before the next side's initiative (see the header
 * comment): steered outcomes, generals placed. Returns 0 (the caller then applies the
 * listed roll as usual) or a negative error; does nothing elsewhere. */
int opfor_director_chance(opfor_director_t *d, opfor_game_t *g, void *state);

/* Which unit a general of the non-player side should join: among the non-player units in
 * play that are not generals, the one beside which he brings the most units into command
 * that no other general or headquarters already commands (within radius), then the most
 * units within his radius at all, then the lowest slot. *in_command (may be NULL) gets the
 * units within his radius there. Returns the unit, or -1 when there is none. */
int opfor_director_general_unit(const opfor_patrol_config_t *cfg, const opfor_patrol_forces_t *fo,
                                int general, float radius, int *in_command);
/* Moves general `general` (a one-figure unit) beside the unit opfor_director_general_unit
 * picks: 3 inches beyond its centre on the side away from the players, kept on the table.
 * Returns that unit, or -1 (nothing moved). */
int opfor_director_place_general(const opfor_patrol_config_t *cfg, opfor_patrol_forces_t *fo,
                                 int general, float radius);

/* A Patrol Mode game kept as a table rather than as an engine state: the daemon's games and
 * the terminal `opfor patrol` (ai_director_table.c). The table as it stands at the spotting
 * press (the session's view, with its patrol state and stream: both needed here). */
typedef struct opfor_director_table {
    opfor_table_view_t view; /* units, figures, turn, patrol state and stream */
    int enemy;               /* the non-player side */
    uint64_t key;            /* keys the director's draws (opfor_director_table_key) */
} opfor_director_table_t;

/* The key of the director's draws at press number `presses` of a game seeded `seed`. */
static inline uint64_t opfor_director_table_key(uint64_t seed, int presses) {
    return opfor_rng_mix64(seed ^ ((uint64_t)presses << 24));
}

/* opfor_director_steer for a game kept as a table: builds the engine position at the
 * initiative press (a "viktoria" Patrol Mode ruleset context rs, the AI's view of the game),
 * keys the director to tb->key (opfor_director_begin) and steers *spot. Allocates the
 * position (one state) for the call. Returns as opfor_director_steer, or OPFOR_ENOMEM. */
struct opfor_vk_rs_ctx;
int opfor_director_steer_table(opfor_director_t *d, const struct opfor_vk_rs_ctx *rs,
                               const opfor_director_table_t *tb, opfor_patrol_spot_t *spot);

/* The ruleset's director_open: a referee (opfor/ruleset_ai.h) running a director with cfg, an
 * opfor_director_config_t (NULL: defaults), on the calling thread. Its end hook writes
 * spottings, steered, generals placed and estimates into counts[0..3]. 0, OPFOR_EINVAL (bad
 * config), OPFOR_ENOMEM. */
int opfor_director_referee_open(const void *cfg, const opfor_game_t *g, opfor_referee_t *out);

#endif
