/* opfor/viktoria/table_report.h — applying what the players report from the table to a game's
 * own unit and figure arrays: a unit now standing elsewhere, and the figures it lost.
 *
 * The daemon's `game.report` (rulesets/viktoria/daemon/vk_game_report.c) and the terminal game of
 * `opfor patrol` (rulesets/viktoria/cli/cmd_patrol_game.c) read their reports differently
 * (MessagePack fields, typed words) and check them differently, but change the figures the same way
 * through these functions. Pure, no allocation.
 */
#ifndef OPFOR_VIKTORIA_TABLE_REPORT_H
#define OPFOR_VIKTORIA_TABLE_REPORT_H

#include "opfor/geom.h"
#include "opfor/terrain.h"
#include "opfor/unit.h"

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

/* Kills `killed` living figures of un (the wounded first, leaders and generals last), then
 * wounds `wounded` of its unwounded living figures (leaders and generals last). Counts larger
 * than the figures available stop when none is left. */
void opfor_vk_table_casualties(const opfor_unit_t *un, opfor_figure_t *figures, int killed,
                               int wounded);

#endif
