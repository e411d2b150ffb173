/* rulesets/viktoria/ai_director_table.c — the director for Patrol Mode games kept as a table of
 * units and figures (the daemon's games, the terminal `opfor patrol`) rather than as engine states.
 *
 * Those games press the initiative button themselves (rulesets/viktoria/patrol_press.c) and
 * ask the director only at a spotting: the position is rebuilt as the AI sees it (adapter's
 * state from the table, at the initiative chance node) and handed to opfor_director_steer.
 * Kept apart from ai_director.c, which works on engine states inside the arena's games.
 */
#include "opfor/viktoria/director.h"

#include <stdlib.h>
#include <string.h>

#include "opfor/error.h"
#include "opfor/viktoria/adapter.h"

int opfor_director_steer_table(opfor_director_t *d, const struct opfor_vk_rs_ctx *rs,
                               const opfor_director_table_t *tb, opfor_patrol_spot_t *spot) {
    if (!d || !rs || !tb || !tb->view.ps || !tb->view.rng || !spot || !opfor_vk_rs_patrol(rs))
        return OPFOR_EINVAL;
    opfor_game_t game;
    int rc = opfor_game_init(&game, &opfor_viktoria_ruleset, rs, 0);
    if (rc != 0)
        return rc;
    opfor_vk_rs_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return OPFOR_ENOMEM;
    const opfor_table_view_t *v = &tb->view;
    rc = opfor_vk_rs_state_from_table(rs, st, v->units, v->nunits, v->figures, v->nfigures, v->turn,
                                      v->ps, v->rng, tb->enemy, tb->key);
    if (rc == 0) {
        /* The press is an initiative chance node: who acts next is still open. */
        st->vk.phase = OPFOR_VK_PH_INITIATIVE;
        st->vk.cur = OPFOR_VK_NONE;
        opfor_director_begin(d, tb->key);
        rc = opfor_director_steer(d, &game, st, spot);
    }
    free(st);
    return rc;
}
