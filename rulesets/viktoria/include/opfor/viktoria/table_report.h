/* opfor/viktoria/table_report.h — applying what the players report from the table to a game's
 * own unit and figure arrays: a unit now standing elsewhere, and the figures it lost; and the
 * morale test (XI) such a loss leaves the table to roll, in one wording for both.
 *
 * The daemon's `game.report` (rulesets/viktoria/daemon/vk_game_report.c) changes the figures
 * through these functions (`opfor patrol` plays the daemon's game too, in its own process).
 * Pure, no allocation.
 */
#ifndef OPFOR_VIKTORIA_TABLE_REPORT_H
#define OPFOR_VIKTORIA_TABLE_REPORT_H

#include "opfor/geom.h"
#include "opfor/terrain.h"
#include "opfor/unit.h"
#include "opfor/viktoria/engine.h"

/* Moves un's figures together so its living figures' centre is at p; each figure is then
 * kept on table. Does nothing when un has no living figure. */
void opfor_vk_table_move(const opfor_unit_t *un, opfor_figure_t *figures,
                         const opfor_table_t *table, opfor_pt_t p);

/* Whether un's living figures stand where they may: the index of the first terrain feature of
 * table that one of them stands in and may not (an impassable feature such as a pond; for a
 * mounted figure, equipment or a limbered gun also a building or other ground closed to
 * horses, guns and wagons), or -1 when none does. A report that would put a unit there is
 * refused, naming the feature (both the terminal game and the daemon should). */
int opfor_vk_table_forbidden(const opfor_unit_t *un, const opfor_figure_t *figures,
                             const opfor_table_t *table);

/* The rules engine's own test of where a moved unit's figures may stand (VIII), for a table's
 * report of a move: as opfor_vk_table_forbidden, except that a figure whose centre lies within
 * tol inches of the feature's edge counts as outside it (a report is measured and rounded; the
 * engine stops a figure a hair short of the ground that stops it), and that a limbered gun's
 * crew walk where men on foot may (only the gun itself is kept out of ground closed to guns).
 * Placing a spotted unit keeps the stricter opfor_vk_table_forbidden. */
#define OPFOR_VK_TABLE_EDGE_TOL 0.05f /* inches: the tolerance reports are checked with */
int opfor_vk_table_forbidden_within(const opfor_unit_t *un, const opfor_figure_t *figures,
                                    const opfor_table_t *table, float tol);

/* Kills `killed` living figures of un (the wounded first, leaders and generals last), then
 * wounds `wounded` of its unwounded living figures (leaders and generals last). Counts larger
 * than the figures available stop when none is left. */
void opfor_vk_table_casualties(const opfor_unit_t *un, opfor_figure_t *figures, int killed,
                               int wounded);

/* A morale test (XI) the table owes: a unit that lost figures checks morale. */
typedef struct opfor_vk_morale_owed {
    char need[32];  /* the score to stay Solid: "7+ on 2D6" */
    int bits;       /* OPFOR_VK_MORALE_* check-boxes that count for it */
    int melee;      /* 1: in melee, where a failure is flight */
    char text[240]; /* "Jager Picket must test morale (XI): roll 5+ on 2D6 to stay Solid, else
                       Wavering; report the result (morale)" (no end stop) */
} opfor_vk_morale_owed_t;

/* The morale test unit u of st owes after the players reported killing its figures: the roll
 * as the rules engine's own check would make it now (st: the position after the report) and
 * the line to print, ending "; " and how (how to report the result, the caller's words:
 * "report the result (morale)"; NULL or "": nothing). Returns 0, or -1 when u owes none (off
 * the table, no figure alive, only equipment left: transport never checks). */
int opfor_vk_table_morale_owed(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                               const char *how, opfor_vk_morale_owed_t *out);

#endif
