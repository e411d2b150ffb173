/* rulesets/viktoria/table_report.c — a table report's changes to the figures
 * (opfor/viktoria/table_report.h): a unit moved to a new centre, and casualties taken, the
 * wounded dying first and leaders last. One copy, so the daemon and the terminal game take
 * the same figures off for the same report.
 */
#include "opfor/viktoria/table_report.h"

#include <stdio.h>
#include <string.h>

#include "opfor/text.h"
#include "opfor/viktoria/engine_query.h"

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

/* The first feature one of un's living figures stands in and may not, or -1: within tol of
 * its edge counts as outside; crew_rides: a limbered gun's crew counts as riding too. */
static int forbidden(const opfor_unit_t *un, const opfor_figure_t *figures,
                     const opfor_table_t *table, float tol, int crew_rides) {
    static const float off[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int i = un->first; i < un->first + un->count; i++) {
        const opfor_figure_t *f = &figures[i];
        if (!(f->flags & OPFOR_FIG_ALIVE))
            continue;
        int mounted = (f->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0 ||
                      (crew_rides && (un->flags & OPFOR_UNIT_LIMBERED) != 0);
        int k = opfor_terrain_impassable_at(table, f->pos, mounted);
        /* within tol of the edge counts as outside: the point tol away each way is in too */
        for (int j = 0; k >= 0 && tol > 0.0f && j < 4; j++) {
            opfor_pt_t q = opfor_pt(f->pos.x + off[j][0] * tol, f->pos.y + off[j][1] * tol);
            if (opfor_terrain_impassable_at(table, q, mounted) < 0)
                k = -1;
        }
        if (k >= 0)
            return k;
    }
    return -1;
}

int opfor_vk_table_forbidden(const opfor_unit_t *un, const opfor_figure_t *figures,
                             const opfor_table_t *table) {
    return forbidden(un, figures, table, 0.0f, 1);
}

int opfor_vk_table_forbidden_within(const opfor_unit_t *un, const opfor_figure_t *figures,
                                    const opfor_table_t *table, float tol) {
    return forbidden(un, figures, table, tol, 0);
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

int opfor_vk_table_morale_owed(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u,
                               const char *how, opfor_vk_morale_owed_t *out) {
    if (!ctx || !st || !out || u < 0 || u >= st->nunits)
        return -1;
    const opfor_unit_t *un = &st->units[u];
    int alive = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        alive += (st->figures[i].flags & OPFOR_FIG_ALIVE) != 0;
    if (!alive || (un->flags & OPFOR_UNIT_OFF_TABLE))
        return -1;
    opfor_roll_t roll;
    int bits = 0;
    if (opfor_vk_query_morale_roll(ctx, st, u, &roll, &bits) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->bits = bits;
    out->melee = (un->flags & OPFOR_UNIT_IN_MELEE) != 0;
    opfor_roll_format(&roll, out->need, sizeof out->need);
    char why[96] = "";
    size_t wl = 0;
    if (bits & OPFOR_VK_MORALE_GENERAL)
        opfor_text_appendf(why, sizeof why, &wl, "%sa general within 6 in", wl ? ", " : "");
    if (bits & OPFOR_VK_MORALE_MUSICIAN)
        opfor_text_appendf(why, sizeof why, &wl, "%sa musician playing", wl ? ", " : "");
    if (bits & OPFOR_VK_MORALE_COLOURS)
        opfor_text_appendf(why, sizeof why, &wl, "%sits colours", wl ? ", " : "");
    if (bits & OPFOR_VK_MORALE_HALF)
        opfor_text_appendf(why, sizeof why, &wl, "%shalf strength", wl ? ", " : "");
    snprintf(out->text, sizeof out->text,
             "%s must test morale (XI): roll %s to stay %s%s%s%s, else %s%s%s", un->name, out->need,
             un->status == OPFOR_WAVERING ? "as it is" : "Solid", why[0] ? " (" : "", why,
             why[0] ? ")" : "", out->melee ? "it flees the melee" : "Wavering",
             how && how[0] ? "; " : "", how ? how : "");
    return 0;
}
