/* opfor/viktoria/scenario.h — Viktoria!'s measures and its scenario checks.
 *
 * core/ holds the mechanisms (line of sight through foliage, cover behind a wall, the gap rule
 * for fire, round bases, the scenario format); this header holds the numbers Viktoria! gives
 * them, and the loader that runs Viktoria!'s own checks on a scenario (which unit types may
 * limber, carry passengers, run on a track or fly; every unit is led; what Patrol Mode needs). Load
 * Viktoria! scenarios through opfor_viktoria_scenario_load_string / _file (or hand
 * opfor_viktoria_scenario_rules to opfor_scenario_load_string): the user then sees the
 * Viktoria! errors at their file:line:column. Rules: rulesets/viktoria/scenario_check.c.
 */
#ifndef OPFOR_VIKTORIA_SCENARIO_H
#define OPFOR_VIKTORIA_SCENARIO_H

#include <stddef.h>

#include "opfor/error.h"
#include "opfor/scenario.h"
#include "opfor/terrain.h"
#include "opfor/unit.h"

/* Base radii (Viktoria! IV: bases 25-30 mm, about an inch; cavalry bases twice as deep). A
 * figure on foot is a circle of radius 0.5 inch; a mounted figure's 1 x 2 inch base a circle
 * of the same area (radius 0.8); a gun, wagon or other equipment model a circle of radius 1. */
#define OPFOR_VK_RADIUS_FOOT 0.5f
#define OPFOR_VK_RADIUS_MOUNTED 0.8f
#define OPFOR_VK_RADIUS_EQUIPMENT 1.0f
/* Foliage lets sight through up to this many inches in total (Viktoria! IX). */
#define OPFOR_VK_FOLIAGE_SIGHT 2.0f
/* A figure whose base is within this distance of a wall or hedge lines it: it may see and
 * fire across it and is covered by it against fire crossing it (Viktoria! IX). */
#define OPFOR_VK_LINE_COVER_DIST 1.0f
/* The narrowest gap between two bases that fire may pass through (Viktoria! IX, the
 * half-inch gap rule; opfor_fire_lane_blocked's gap). */
#define OPFOR_VK_FIRE_GAP 0.5f
/* Shortest runway an aeroplane may take off from or land on, inches (Viktoria! XII.D). */
#define OPFOR_VK_RUNWAY_MIN 24.0f

/* The names the engine, the AI and the tests have always used for these. */
#define OPFOR_RADIUS_FOOT OPFOR_VK_RADIUS_FOOT
#define OPFOR_RADIUS_MOUNTED OPFOR_VK_RADIUS_MOUNTED
#define OPFOR_RADIUS_EQUIPMENT OPFOR_VK_RADIUS_EQUIPMENT
#define OPFOR_FOLIAGE_SIGHT OPFOR_VK_FOLIAGE_SIGHT
#define OPFOR_LINE_COVER_DIST OPFOR_VK_LINE_COVER_DIST
#define OPFOR_FIRE_GAP OPFOR_VK_FIRE_GAP
#define OPFOR_RUNWAY_MIN OPFOR_VK_RUNWAY_MIN

/* Figure flag: under mesmerism (Viktoria! XII.B); core's ruleset-owned bit. */
#define OPFOR_FIG_MESMERIZED OPFOR_FIG_RULESET_0

/* Viktoria!'s part in loading a scenario: the name "viktoria", the measures above, its mode
 * words, the `patrol:` block, and the checks of scenario_check.c. */
extern const opfor_scenario_rules_t opfor_viktoria_scenario_rules;
/* Viktoria!'s words for the modes (`mode:`): "competitive" and "patrol" (OPFOR_MODE_COOP: Patrol
 * Mode, XV), with the aliases "competitive_play", "coop" and "solo". */
extern const opfor_name_t opfor_viktoria_mode_names[];
/* Viktoria!'s measures for a table (opfor_table_t.rules), for tables built by hand. */
extern const opfor_terrain_rules_t opfor_viktoria_terrain_rules;

/* Most figures a support team may be set to (the `support:` block's `team`). */
#define OPFOR_VK_SUPPORT_TEAM_MAX 8
/* The team a call for supporting fire needs, per side (Viktoria! IX: "often ... a team of two
 * figures (specify by scenario)"): the living signallers of the calling unit must number at
 * least team[side]. Read from the scenario's `support:` block, key `team`: one number for both
 * sides, or a mapping of side names to numbers, each 1..OPFOR_VK_SUPPORT_TEAM_MAX; 1 when
 * unset. Returns 0, or a negative OPFOR_E* with *diag (may be NULL) saying what is wrong
 * (line and column when the scenario was read from YAML). The loader runs it, so a loaded
 * scenario always reads. */
int opfor_viktoria_support_team(const opfor_scenario_t *sc, int team[2], opfor_diag_t *diag);

/* opfor_scenario_load_string with opfor_viktoria_scenario_rules: the scenario format's
 * checks, then Viktoria!'s, reported the same way (same contract). */
int opfor_viktoria_scenario_load_string(const char *text, size_t len, const char *name,
                                        opfor_scenario_t *sc, opfor_diag_t *diag);
/* opfor_scenario_load_file with opfor_viktoria_scenario_rules (same contract). */
int opfor_viktoria_scenario_load_file(const char *path, opfor_scenario_t *sc, opfor_diag_t *diag);

#endif
