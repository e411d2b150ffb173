/* rulesets/viktoria/policy.c — simple built-in policies for the Viktoria! engine and the loop
 * that plays a whole game with them (selfplay, benchmarks, invariant tests).
 *
 * random picks uniformly among the legal actions. greedy looks one ply ahead: it applies each
 * legal action to a copy of the state whose dice are re-seeded from the policy's own stream
 * (so it never peeks at the game's future dice), averages a simple evaluation over two
 * samples and keeps the best. Choosing a unit looks through to that unit's best action.
 * random_kind draws an action group first, then one of its actions; in opfor_vk_play it
 * lists only the group drawn (opfor_vk_legal_group), the cheap rollout policy.
 */
#include <string.h>

#include "engine_int.h"

const opfor_name_t opfor_vk_policy_names[] = {
    {"random", OPFOR_VK_POLICY_RANDOM},
    {"greedy", OPFOR_VK_POLICY_GREEDY},
    {"random_kind", OPFOR_VK_POLICY_RANDOM_KIND},
    {NULL, 0},
};

double opfor_vk_evaluate(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int side) {
    if (st->phase == OPFOR_VK_PH_OVER) {
        if (st->winner == side)
            return 1000.0;
        if (st->winner == 1 - side)
            return -1000.0;
        return 0.0;
    }
    double v = 0.0;
    for (int i = 0; i < st->nfigures; i++) {
        const opfor_figure_t *f = &st->figures[i];
        int u = f->unit;
        double w = 0.0;
        if (vk_alive(st, i) && vk_unit_active(st, u) && vk_is_person(f))
            w = (f->flags & OPFOR_FIG_WOUNDED) ? 0.6 : 1.0;
        v += st->units[u].side == side ? w : -w;
    }
    for (int u = 0; u < st->nunits; u++) {
        if (!vk_unit_active(st, u))
            continue;
        double w = st->units[u].status == OPFOR_WAVERING ? 2.0 : 0.0;
        v += st->units[u].side == side ? -w : w;
    }
    /* objectives: held ones count fully, otherwise closeness of the nearest unit */
    for (int o = 0; o < ctx->sc.nobjectives; o++) {
        const opfor_objective_t *ob = &ctx->sc.objectives[o];
        double best[2] = {1e9, 1e9};
        for (int u = 0; u < st->nunits; u++) {
            if (!vk_unit_active(st, u) || (st->units[u].flags & OPFOR_UNIT_GENERAL))
                continue;
            vk_ugeo_t g;
            vk_unit_geo(st, u, &g);
            double d = opfor_dist(g.c, ob->pos);
            int s = st->units[u].side;
            if (d < best[s])
                best[s] = d;
        }
        double p = ob->points;
        double mine = best[side] < ob->radius ? 1.0 : 1.0 - best[side] / 72.0;
        double theirs = best[1 - side] < ob->radius ? 1.0 : 1.0 - best[1 - side] / 72.0;
        if (mine < 0)
            mine = 0;
        if (theirs < 0)
            theirs = 0;
        v += 2.0 * p * (mine - theirs);
    }
    return v;
}

/* Value of action a for side in st: mean evaluation over samples with re-seeded dice. */
static double try_action(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                         const opfor_vk_action_t *a, int side, opfor_rng_t *rng, int samples) {
    opfor_vk_state_t tmp;
    double sum = 0.0;
    for (int s = 0; s < samples; s++) {
        memcpy(&tmp, st, sizeof tmp);
        opfor_rng_seed(&tmp.rng, ((uint64_t)opfor_rng_u32(rng) << 32) | opfor_rng_u32(rng), 7);
        if (opfor_vk_apply(ctx, &tmp, a, NULL) != 0)
            return -1e18;
        sum += opfor_vk_evaluate(ctx, &tmp, side);
    }
    return sum / samples;
}

static int greedy(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                  const opfor_vk_action_t *acts, int n, opfor_rng_t *rng) {
    int side = opfor_vk_current(ctx, st);
    int best = 0;
    double bv = -1e300;
    for (int i = 0; i < n; i++) {
        double v;
        if (acts[i].kind == OPFOR_VK_SELECT_UNIT) {
            /* look through to the unit's best action */
            opfor_vk_state_t tmp;
            memcpy(&tmp, st, sizeof tmp);
            opfor_rng_seed(&tmp.rng, ((uint64_t)opfor_rng_u32(rng) << 32) | opfor_rng_u32(rng), 9);
            opfor_vk_apply(ctx, &tmp, &acts[i], NULL);
            opfor_vk_settle(ctx, &tmp, NULL);
            v = opfor_vk_evaluate(ctx, &tmp, side);
            if (tmp.phase == OPFOR_VK_PH_ACTION) {
                opfor_vk_action_t sub[OPFOR_VK_MAX_ACTIONS];
                int m = opfor_vk_legal(ctx, &tmp, sub, OPFOR_VK_MAX_ACTIONS);
                double sb = -1e300;
                for (int k = 0; k < m; k++) {
                    double x = try_action(ctx, &tmp, &sub[k], side, rng, 1);
                    if (x > sb)
                        sb = x;
                }
                if (m > 0)
                    v = sb;
            }
        } else {
            v = try_action(ctx, st, &acts[i], side, rng, 2);
        }
        if (v > bv + 1e-9) {
            bv = v;
            best = i;
        }
    }
    return best;
}

static int group_of(const opfor_vk_action_t *a) {
    return (a->kind == OPFOR_VK_ADVANCE || a->kind == OPFOR_VK_CRAWL) &&
                   (a->flags & OPFOR_VK_AF_FIRE)
               ? OPFOR_VK_GROUP_MOVING_FIRE
               : a->kind;
}

/* The n-th set bit of m (0-based). */
static int nth_bit(uint32_t m, uint32_t n) {
    for (;; n--) {
        int b = __builtin_ctz(m);
        if (n == 0)
            return b;
        m &= m - 1;
    }
}

/* random_kind over a full list: a group uniformly among those present, then an action of it
 * uniformly. */
static int random_kind_of(const opfor_vk_action_t *acts, int n, opfor_rng_t *rng) {
    uint32_t m = 0;
    for (int i = 0; i < n; i++)
        m |= 1u << group_of(&acts[i]);
    int g = nth_bit(m, opfor_rng_below(rng, (uint32_t)__builtin_popcount(m)));
    int c = 0;
    for (int i = 0; i < n; i++)
        c += group_of(&acts[i]) == g;
    uint32_t k = opfor_rng_below(rng, (uint32_t)c);
    for (int i = 0; i < n; i++)
        if (group_of(&acts[i]) == g && k-- == 0)
            return i;
    return 0;
}

/* random_kind listing lazily (ACTION phase): draws a group from the cheap superset, lists
 * only that group, and draws again without it when it turns out empty; the result is uniform
 * over the groups that really have actions (a uniformly shuffled superset's first member that
 * is in the true set). Returns 1 with *out filled, 0 when nothing is legal. */
static int random_kind_lazy(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_rng_t *rng,
                            opfor_vk_action_t *out) {
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    uint32_t m = opfor_vk_legal_groups(ctx, st);
    while (m) {
        int g = nth_bit(m, opfor_rng_below(rng, (uint32_t)__builtin_popcount(m)));
        int n = opfor_vk_legal_group(ctx, st, g, acts, OPFOR_VK_MAX_ACTIONS);
        if (n > 0) {
            *out = acts[n > 1 ? opfor_rng_below(rng, (uint32_t)n) : 0];
            return 1;
        }
        m &= ~(1u << g);
    }
    return 0;
}

int opfor_vk_policy_choose(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                           opfor_vk_policy_t policy, const opfor_vk_action_t *acts, int n,
                           opfor_rng_t *rng) {
    if (n <= 1)
        return 0;
    if (policy == OPFOR_VK_POLICY_GREEDY)
        return greedy(ctx, st, acts, n, rng);
    if (policy == OPFOR_VK_POLICY_RANDOM_KIND)
        return random_kind_of(acts, n, rng);
    return (int)opfor_rng_below(rng, (uint32_t)n);
}

long opfor_vk_play(const opfor_vk_ctx_t *ctx, uint64_t seed, opfor_vk_policy_t pa,
                   opfor_vk_policy_t pb, uint64_t policy_seed, opfor_vk_result_t *r,
                   opfor_vk_state_t *final, opfor_vk_action_t *log, int logmax, int *nlog) {
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, seed);
    opfor_rng_t prng;
    opfor_rng_seed(&prng, policy_seed, 0x706f6c6963790000ULL);
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    int nl = 0;
    for (long steps = 0; steps < 1000000; steps++) {
        int cur = opfor_vk_current(ctx, &st);
        if (cur == OPFOR_VK_TERMINAL)
            break;
        opfor_vk_policy_t pol = cur == 0 ? pa : pb;
        if (cur != OPFOR_VK_CHANCE && pol == OPFOR_VK_POLICY_RANDOM_KIND &&
            st.phase == OPFOR_VK_PH_ACTION) {
            if (!random_kind_lazy(ctx, &st, &prng, &acts[0]))
                break;
            if (log && nl < logmax)
                log[nl] = acts[0];
            nl++;
            if (opfor_vk_apply_listed(ctx, &st, &acts[0], NULL) != 0)
                break;
            continue;
        }
        int n = opfor_vk_legal(ctx, &st, acts, OPFOR_VK_MAX_ACTIONS);
        if (n <= 0)
            break; /* cannot happen: every live phase lists something */
        int i = 0;
        if (cur != OPFOR_VK_CHANCE)
            i = opfor_vk_policy_choose(ctx, &st, pol, acts, n, &prng);
        if (log && nl < logmax)
            log[nl] = acts[i];
        nl++;
        if (opfor_vk_apply_listed(ctx, &st, &acts[i], NULL) != 0)
            break;
    }
    if (nlog)
        *nlog = nl < logmax ? nl : logmax;
    if (r)
        opfor_vk_result(ctx, &st, r);
    if (final)
        memcpy(final, &st, sizeof st);
    return st.activations;
}
