/* rulesets/viktoria/table_report.c — a table report's changes to the figures
 * (opfor/viktoria/table_report.h): a unit moved to a new centre, and casualties taken, the
 * wounded dying first and leaders last. One copy, so the daemon and the terminal game take
 * the same figures off for the same report.
 */
#include "opfor/viktoria/table_report.h"

void opfor_vk_table_move(const opfor_unit_t *un, opfor_figure_t *figures,
                         const opfor_table_t *table, opfor_pt_t p) {
    opfor_pt_t c;
    if (!opfor_unit_centre(un, figures, &c))
        return;
    float dx = p.x - c.x, dy = p.y - c.y;
    for (int i = un->first; i < un->first + un->count; i++) {
        opfor_figure_t *f = &figures[i];
        f->pos.x += dx;
        f->pos.y += dy;
        f->pos.x = f->pos.x < 0 ? 0 : f->pos.x > table->width ? table->width : f->pos.x;
        f->pos.y = f->pos.y < 0 ? 0 : f->pos.y > table->depth ? table->depth : f->pos.y;
    }
}

int opfor_vk_table_forbidden(const opfor_unit_t *un, const opfor_figure_t *figures,
                             const opfor_table_t *table) {
    for (int i = un->first; i < un->first + un->count; i++) {
        const opfor_figure_t *f = &figures[i];
        if (!(f->flags & OPFOR_FIG_ALIVE))
            continue;
        int mounted = (f->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0 ||
                      (un->flags & OPFOR_UNIT_LIMBERED) != 0;
        int k = opfor_terrain_impassable_at(table, f->pos, mounted);
        if (k >= 0)
            return k;
    }
    return -1;
}

static int is_leader(const opfor_figure_t *f) {
    return (f->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)) != 0;
}

void opfor_vk_table_casualties(const opfor_unit_t *un, opfor_figure_t *figures, int killed,
                               int wounded) {
    /* kills: the wounded rank and file, then the rank and file, then anyone */
    for (int pass = 0; pass < 3 && killed > 0; pass++)
        for (int i = un->first + un->count - 1; i >= un->first && killed > 0; i--) {
            opfor_figure_t *f = &figures[i];
            int hurt = (f->flags & OPFOR_FIG_WOUNDED) != 0;
            int fit = pass == 0 ? hurt && !is_leader(f) : pass == 1 ? !is_leader(f) : 1;
            if ((f->flags & OPFOR_FIG_ALIVE) && fit) {
                f->flags &= (uint16_t)~OPFOR_FIG_ALIVE;
                killed--;
            }
        }
    /* wounds: the unwounded rank and file, then the unwounded leaders */
    for (int pass = 0; pass < 2 && wounded > 0; pass++)
        for (int i = un->first + un->count - 1; i >= un->first && wounded > 0; i--) {
            opfor_figure_t *f = &figures[i];
            if ((f->flags & OPFOR_FIG_ALIVE) && !(f->flags & OPFOR_FIG_WOUNDED) &&
                (pass == 1 || !is_leader(f))) {
                f->flags |= OPFOR_FIG_WOUNDED;
                wounded--;
            }
        }
}
