/* rulesets/viktoria/ai_move_stop.c — where a straight move stops short of closed ground (see
 * opfor/viktoria/move_stop.h). Sampled along the line every quarter inch, then refined by halving:
 * exact enough for orders and scores, and cheap, since only features whose box the line touches are
 * looked at. */
#include "opfor/viktoria/move_stop.h"

#include "opfor/terrain.h"
#include "opfor/unit.h"
#include "opfor/viktoria/engine_query.h"

#define STEP 0.25f /* inches between samples along the line */
#define HALVINGS 6 /* refinement of the entry point: STEP / 64 */

int opfor_move_rides(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (opfor_vk_query_fig_present(st, i) &&
            (st->figures[i].flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)))
            return 1;
    return 0;
}

/* Distance along from-to (length len) at which f is first entered, or -1. */
static float entry(const opfor_terrain_feature_t *f, opfor_pt_t from, opfor_pt_t to, float len,
                   float limit) {
    float prev = 0.0f, hit = -1.0f;
    for (float d = STEP;; d += STEP) {
        float dd = d < len ? d : len;
        if (opfor_feature_contains(f, opfor_vlerp(from, to, dd / len))) {
            hit = dd;
            break;
        }
        prev = dd;
        if (dd >= len || dd >= limit)
            return -1.0f;
    }
    for (int k = 0; k < HALVINGS; k++) {
        float mid = 0.5f * (prev + hit);
        if (opfor_feature_contains(f, opfor_vlerp(from, to, mid / len)))
            hit = mid;
        else
            prev = mid;
    }
    return prev;
}

opfor_pt_t opfor_move_stop(const opfor_vk_ctx_t *vk, int rides, opfor_pt_t from, opfor_pt_t to,
                           int *blocker) {
    const opfor_table_t *t = opfor_vk_query_table(vk);
    float len = opfor_dist(from, to), best = len;
    int bi = -1;
    if (blocker)
        *blocker = -1;
    if (len < 1e-3f)
        return to;
    for (int i = 0; i < t->nfeatures; i++) {
        const opfor_terrain_feature_t *f = &t->features[i];
        int closed =
            f->move == OPFOR_MOVE_IMPASSABLE || (rides && (f->flags & OPFOR_TF_NO_MOUNTED));
        if (!closed || !opfor_feature_seg_enters(f, from, to) || opfor_feature_contains(f, from))
            continue;
        float e = entry(f, from, to, len, best);
        if (e >= 0.0f && e < best) {
            best = e;
            bi = i;
        }
    }
    if (bi < 0)
        return to;
    if (blocker)
        *blocker = bi;
    return opfor_vlerp(from, to, best / len);
}
