/* tests/rulesets/test_engine_fast.c — the engine's fast geometry answers as the plain version.
 *
 * The nearest pair of figures between two units (the gap behind every reach, charge and sight
 * test) is searched over compact copies of the positions for speed, a row's distances in
 * whole groups of lanes; unit sight looks for its fallback pairs in the same copies. Games must
 * not change, so this compares both, to the bit, with the straightforward scans they replaced
 * over thousands of positions taken from random games, with figures shot, moved and jittered
 * on top. The play loops apply listed actions without re-checking them
 * (opfor_vk_apply_listed): every step of those games is applied both ways and the states must
 * be equal to the byte.
 */
#include "rulesets/vk_walk_fixture.h"

#include "engine_int.h"
#include "opfor/rng.h"
#include "opfor/viktoria/builtin.h"

/* The nearest pair as first written: b's centre and centre radius bound a scan in index
 * order. */
static float ref_nearest_pair(const opfor_vk_state_t *st, int a, int b, int *fa, int *fb) {
    const opfor_unit_t *ua = &st->units[a], *ub = &st->units[b];
    float sx = 0.0f, sy = 0.0f;
    int nb = 0;
    for (int j = ub->first; j < ub->first + ub->count; j++)
        if (vk_alive(st, j)) {
            sx += st->figures[j].pos.x;
            sy += st->figures[j].pos.y;
            nb++;
        }
    opfor_pt_t cb = opfor_pt(0.0f, 0.0f);
    float rb2 = 0.0f;
    if (nb > 0) {
        cb = opfor_pt(sx / (float)nb, sy / (float)nb);
        for (int j = ub->first; j < ub->first + ub->count; j++)
            if (vk_alive(st, j)) {
                float d2 = opfor_dist2(cb, st->figures[j].pos);
                if (d2 > rb2)
                    rb2 = d2;
            }
    }
    float rb = sqrtf(rb2), best = 1e30f;
    int ba = -1, bb = -1;
    if (nb > 0) {
        for (int i = ua->first; i < ua->first + ua->count; i++) {
            if (!vk_alive(st, i))
                continue;
            opfor_pt_t p = st->figures[i].pos;
            float dc = opfor_dist(p, cb);
            if (ba >= 0 && dc > rb) {
                float lb = dc - rb;
                if (lb * lb > best)
                    continue;
            }
            for (int j = ub->first; j < ub->first + ub->count; j++) {
                if (!vk_alive(st, j))
                    continue;
                float d2 = opfor_dist2(p, st->figures[j].pos);
                if (d2 < best) {
                    best = d2;
                    ba = i;
                    bb = j;
                }
            }
        }
    }
    *fa = ba;
    *fb = bb;
    if (ba < 0)
        return 1e30f;
    float gap = sqrtf(best) - vk_radius(&st->figures[ba]) - vk_radius(&st->figures[bb]);
    return gap < 0.0f ? 0.0f : gap;
}

/* Unit sight as first written: the nearest pair, else a few figures of u spread through it,
 * each against its nearest of t. */
static int ref_unit_sees(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int u, int t,
                         float max_range) {
    int fa, fb;
    float gap = ref_nearest_pair(st, u, t, &fa, &fb);
    if (fa < 0 || gap > max_range)
        return 0;
    if (vk_los(ctx, st, fa, fb))
        return 1;
    const opfor_unit_t *un = &st->units[u];
    int tries = 0;
    int step = un->count > 4 ? un->count / 4 : 1;
    for (int i = un->first; i < un->first + un->count && tries < 4; i += step) {
        if (!vk_alive(st, i) || i == fa)
            continue;
        float d2;
        int j = vk_nearest_fig(st, t, st->figures[i].pos, &d2);
        if (j < 0)
            continue;
        tries++;
        float g = sqrtf(d2) - vk_radius(&st->figures[i]) - vk_radius(&st->figures[j]);
        if (g > max_range)
            continue;
        if (vk_los(ctx, st, i, j))
            return 1;
    }
    return 0;
}

/* Compares every ordered pair of units in st, the nearest pair and sight (at a few ranges);
 * returns the pairs checked. */
static int check_all_pairs(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    int n = 0;
    for (int a = 0; a < st->nunits; a++)
        for (int b = 0; b < st->nunits; b++) {
            if (a == b)
                continue;
            int fa, fb, ra, rb;
            float g = vk_nearest_pair(st, a, b, &fa, &fb);
            float r = ref_nearest_pair(st, a, b, &ra, &rb);
            assert_memory_equal(&g, &r, sizeof g);
            assert_int_equal(fa, ra);
            assert_int_equal(fb, rb);
            static const float RANGES[3] = {1e9f, 12.0f, 3.0f};
            float range = RANGES[(a + b) % 3];
            assert_int_equal(vk_unit_sees(ctx, st, a, b, range),
                             ref_unit_sees(ctx, st, a, b, range));
            n++;
        }
    return n;
}

/* Scratch of the walk: the shaking stream, a state buffer and the actions applied. */
typedef struct {
    opfor_rng_t jr;
    opfor_vk_state_t tmp;
    int applied;
} walk_t;

/* At every action: all pairs on the position as played, then on the same position shaken:
 * figures nudged (ties and near-ties between pairs), some laid low or sent to the rear. */
static long visit(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, void *user) {
    walk_t *w = user;
    opfor_vk_state_t *tmp = &w->tmp;
    long checked = check_all_pairs(ctx, st);
    memcpy(tmp, st, sizeof *tmp);
    for (int i = 0; i < tmp->nfigures; i++) {
        uint32_t k = opfor_rng_below(&w->jr, 8);
        if (k == 0)
            tmp->figures[i].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
        else if (k == 1)
            tmp->figures[i].flags |= OPFOR_FIG_REAR;
        else if (k == 2) /* onto a coarse grid: many exact ties */
            tmp->figures[i].pos =
                opfor_pt(floorf(tmp->figures[i].pos.x), floorf(tmp->figures[i].pos.y));
        else if (k == 3)
            tmp->figures[i].pos.x += (float)opfor_rng_unit(&w->jr) - 0.5f;
    }
    return checked + check_all_pairs(ctx, tmp);
}

/* Plays every choice both as listed (opfor_vk_apply_listed) and checked (opfor_vk_apply):
 * the two must leave the same bytes. */
static void apply_both(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                       void *user) {
    walk_t *w = user;
    memcpy(&w->tmp, st, sizeof w->tmp);
    assert_int_equal(opfor_vk_apply_listed(ctx, &w->tmp, a, NULL), 0);
    assert_int_equal(opfor_vk_apply(ctx, st, a, NULL), 0);
    assert_memory_equal(&w->tmp, st, sizeof *st);
    w->applied++;
}

static void engine_fast_nearest_pair_matches_reference(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_builtin("competitive_default");
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_rng_t pr;
    opfor_rng_seed(&pr, 5, 1);
    walk_t *w = malloc(sizeof *w);
    assert_non_null(w);
    opfor_rng_seed(&w->jr, 6, 1);
    w->applied = 0;
    int games = (int)(40 * fx_scale()) + 2;
    fx_walk_t walk = {&pr, 1, 4000, visit, apply_both, w};
    long checked = fx_walk(ctx, games, &walk);
    assert_true(checked > 5000 * fx_scale());
    assert_true(w->applied > 1000 * fx_scale());
    free(w);
    opfor_vk_ctx_free(ctx);
    fx_scenario_free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(engine_fast_nearest_pair_matches_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
