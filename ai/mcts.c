/* ai/mcts.c — UCT over the ruleset interface: open-loop dice, explicit chance nodes,
 * progressive widening, information-set resampling, root parallelism.
 *
 * The design (formula, scope, references, memory, determinism and the lock-free threading)
 * is written up in ai/mcts_int.h; read it first. This file is laid out as: configuration and
 * creation, one iteration (selection, expansion, playout, backpropagation), the thread
 * driver, and the merge of the threads' root statistics into a result.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcts_int.h"
#include "opfor/mathx.h"

/* Fixed buffer sizes: the configurable limits may not exceed these. */
#define MAX_OUTCOMES 64
#define MAX_DEPTH 1024
#define NIL OPFOR__MCTS_NIL

/* The evaluator used when the caller passes none: every hook NULL. */
static const opfor_evaluator_t RANDOM_EVALUATOR = {"random", NULL, 0, NULL, NULL, NULL};

static double mono_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ================================================================ configuration */

void opfor_mcts_config_default(opfor_mcts_config_t *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->uct_c = 1.4;
    cfg->iterations = 1000;
    cfg->wall_ms = 0;
    cfg->memory_bytes = (size_t)64 << 20;
    cfg->pw_c = 1.5;
    cfg->pw_alpha = 0.5;
    cfg->seed = 0;
    cfg->threads = 1;
    cfg->chance_nodes = 1;
    cfg->max_outcomes = 16;
    cfg->cheat = 0;
    cfg->horizon = OPFOR_MCTS_HORIZON_TURN;
    cfg->max_depth = 64;
    cfg->max_playout_steps = 400;
}

/* Nodes each thread's pool gets under cfg, capped to what a uint32_t index can name. */
static uint64_t nodes_per_thread(const opfor_mcts_config_t *cfg) {
    uint64_t n = cfg->memory_bytes / (uint64_t)cfg->threads / sizeof(opfor__mcts_node_t);
    return n > (uint64_t)NIL - 1 ? (uint64_t)NIL - 1 : n;
}

static int check_config(const opfor_mcts_config_t *cfg) {
    if (!cfg || cfg->iterations < 1 || cfg->threads < 1 || cfg->threads > OPFOR_MCTS_MAX_THREADS)
        return OPFOR_EINVAL;
    if (!(cfg->uct_c >= 0.0) || !(cfg->uct_c < 1e6) || !(cfg->pw_c < 1e6) ||
        !(cfg->pw_alpha >= 0.0 && cfg->pw_alpha <= 1.0))
        return OPFOR_EINVAL;
    if (cfg->max_outcomes < 0 || cfg->max_outcomes > MAX_OUTCOMES || cfg->max_depth < 1 ||
        cfg->max_depth > MAX_DEPTH || cfg->max_playout_steps < 1)
        return OPFOR_EINVAL;
    if ((unsigned)cfg->horizon > OPFOR_MCTS_HORIZON_END || nodes_per_thread(cfg) < 16)
        return OPFOR_EINVAL;
    return 0;
}

/* ================================================================ creation */

static size_t round_up(size_t n) {
    return (n + 63) & ~(size_t)63;
}

static void worker_free(opfor__mcts_worker_t *w) {
    if (!w)
        return;
    free(w->pool);
    free(w);
}

/* One block per worker: the struct, then its buffers, each on its own cache lines so two
 * threads never write the same line. The pool is a separate aligned allocation. */
static opfor__mcts_worker_t *worker_new(opfor_mcts_t *m, int index, uint64_t cap) {
    size_t o_scratch = round_up(sizeof(opfor__mcts_worker_t));
    size_t o_acts = o_scratch + round_up(m->state_size);
    size_t o_prior = o_acts + round_up((size_t)m->max_actions * sizeof(opfor_action_t));
    size_t o_taken = o_prior + round_up((size_t)m->max_actions * sizeof(float));
    size_t o_keys = o_taken + round_up((size_t)m->max_actions);
    size_t o_outs = o_keys + round_up((size_t)m->max_actions * sizeof(uint32_t));
    size_t o_path = o_outs + round_up(MAX_OUTCOMES * sizeof(opfor_chance_outcome_t));
    size_t o_values = o_path + round_up((MAX_DEPTH + 2) * sizeof(uint32_t));
    size_t o_ev = o_values + round_up(OPFOR_MAX_PLAYERS * sizeof(double));
    size_t total = o_ev + round_up(m->ev_scratch);
    unsigned char *block = NULL;
    if (posix_memalign((void **)&block, 64, total) != 0)
        return NULL;
    memset(block, 0, total);
    opfor__mcts_worker_t *w = (opfor__mcts_worker_t *)block;
    w->m = m;
    w->index = index;
    w->scratch = block + o_scratch;
    w->acts = (opfor_action_t *)(block + o_acts);
    w->prior = (float *)(block + o_prior);
    w->taken = block + o_taken;
    w->keys = (uint32_t *)(block + o_keys);
    w->outs = (opfor_chance_outcome_t *)(block + o_outs);
    w->path = (uint32_t *)(block + o_path);
    w->values = (double *)(block + o_values);
    w->ev_scratch = m->ev_scratch ? block + o_ev : NULL;
    w->cap = (uint32_t)cap;
    void *pool = NULL;
    if (posix_memalign(&pool, 64, (size_t)cap * sizeof(opfor__mcts_node_t)) != 0) {
        free(block);
        return NULL;
    }
    w->pool = pool;
    m->bytes += total + (size_t)cap * sizeof(opfor__mcts_node_t);
    return w;
}

int opfor_mcts_create(opfor_mcts_t **out, const opfor_ruleset_t *rs, const opfor_mcts_config_t *cfg,
                      size_t ev_scratch) {
    if (!out)
        return OPFOR_EINVAL;
    *out = NULL;
    if (!rs || rs->state_size == 0 || rs->max_actions < 1 || rs->max_players < 1 ||
        rs->max_players > OPFOR_MAX_PLAYERS)
        return OPFOR_EINVAL;
    int rc = check_config(cfg);
    if (rc)
        return rc;
    opfor_mcts_t *m = calloc(1, sizeof *m);
    if (!m)
        return OPFOR_ENOMEM;
    m->cfg = *cfg;
    m->state_size = rs->state_size;
    m->max_actions = rs->max_actions;
    m->max_players = rs->max_players;
    m->ev_scratch = ev_scratch;
    m->bytes = sizeof *m;
    atomic_init(&m->busy, 0);
    m->agg_cap = 2 * (size_t)cfg->threads * (size_t)rs->max_actions;
    m->agg = calloc(m->agg_cap, sizeof *m->agg);
    if (!m->agg) {
        free(m);
        return OPFOR_ENOMEM;
    }
    m->bytes += m->agg_cap * sizeof *m->agg;
    uint64_t cap = nodes_per_thread(cfg);
    for (int t = 0; t < cfg->threads; t++) {
        m->workers[t] = worker_new(m, t, cap);
        if (!m->workers[t]) {
            opfor_mcts_free(m);
            return OPFOR_ENOMEM;
        }
    }
    *out = m;
    return 0;
}

void opfor_mcts_free(opfor_mcts_t *m) {
    if (!m)
        return;
    for (int t = 0; t < OPFOR_MCTS_MAX_THREADS; t++)
        worker_free(m->workers[t]);
    free(m->agg);
    free(m);
}

int opfor_mcts_configure(opfor_mcts_t *m, const opfor_mcts_config_t *cfg) {
    if (!m)
        return OPFOR_EINVAL;
    int rc = check_config(cfg);
    if (rc)
        return rc;
    if (cfg->threads != m->cfg.threads || cfg->memory_bytes != m->cfg.memory_bytes)
        return OPFOR_EINVAL;
    if (atomic_load(&m->busy))
        return OPFOR_EBUSY;
    m->cfg = *cfg;
    return 0;
}

const opfor_mcts_config_t *opfor_mcts_config(const opfor_mcts_t *m) {
    return &m->cfg;
}

size_t opfor_mcts_memory(const opfor_mcts_t *m) {
    return m ? m->bytes : 0;
}

/* ================================================================ one iteration */

/* Clamps values from a hook into [-1, 1]; NaN becomes 0. */
static void clamp_values(double *v, int n) {
    for (int i = 0; i < n; i++) {
        if (!(v[i] >= -1.0))
            v[i] = v[i] < -1.0 ? -1.0 : 0.0;
        else if (v[i] > 1.0)
            v[i] = 1.0;
    }
}

/* The evaluator's estimate of a non-terminal state, else the ruleset's, else 0. */
static void leaf_value(opfor__mcts_worker_t *w, const void *s, double *v) {
    opfor_mcts_t *m = w->m;
    int np = w->game.rs->max_players;
    for (int i = 0; i < np; i++)
        v[i] = 0.0;
    int rc = -1;
    if (m->ev->evaluate)
        rc = m->ev->evaluate(m->ev->user, w->ev_scratch, &w->game, s, v);
    if (rc < 0)
        rc = opfor_game_evaluate(&w->game, s, v);
    if (rc < 0)
        for (int i = 0; i < np; i++)
            v[i] = 0.0;
    clamp_values(v, np);
}

static void terminal_value(opfor__mcts_worker_t *w, const void *s, double *v) {
    int np = w->game.rs->max_players;
    for (int i = 0; i < np; i++)
        v[i] = 0.0;
    if (opfor_game_returns(&w->game, s, v) < 0)
        for (int i = 0; i < np; i++)
            v[i] = 0.0;
    clamp_values(v, np);
}

/* Has s gone past the search horizon (the root's turn or activation is over)? */
static int past_horizon(opfor__mcts_worker_t *w, const void *s) {
    opfor_mcts_t *m = w->m;
    if (!m->have_progress || m->cfg.horizon == OPFOR_MCTS_HORIZON_END)
        return 0;
    opfor_progress_t p;
    if (opfor_game_progress(&w->game, s, &p) < 0)
        return 0;
    if (m->cfg.horizon == OPFOR_MCTS_HORIZON_TURN)
        return p.turn != m->root_progress.turn;
    return p.activation != m->root_progress.activation || p.turn != m->root_progress.turn;
}

/* Open-loop chance: apply the single roll action, whose dice come from s's own stream. */
static int roll(opfor__mcts_worker_t *w, void *s) {
    int n = opfor_game_legal(&w->game, s, w->acts, w->m->max_actions);
    if (n <= 0)
        return n < 0 ? n : OPFOR_EILLEGAL;
    return opfor_game_apply(&w->game, s, &w->acts[0]);
}

/* Children allowed at a node visited `visits` times (progressive widening). */
static int widening_limit(const opfor_mcts_config_t *cfg, uint32_t visits) {
    if (cfg->pw_c <= 0.0)
        return INT32_MAX;
    double x = (double)visits + 1.0, k;
    if (cfg->pw_alpha == 0.5)
        k = cfg->pw_c * sqrt(x);
    else
        k = cfg->pw_c * opfor_exp(cfg->pw_alpha * opfor_log(x));
    if (!(k >= 1.0))
        return 1;
    return k >= (double)INT32_MAX ? INT32_MAX : (int)k;
}

/* A 32-bit hash of an action's 24 bytes: children are matched to the legal list by key
 * first, so a node visit costs integer compares, not a memcmp per (child, action) pair. */
static uint32_t action_key(const opfor_action_t *a) {
    uint64_t w[3];
    memcpy(w, a, sizeof w);
    uint64_t h = w[0] * UINT64_C(0x9E3779B97F4A7C15) ^ w[1] * UINT64_C(0xC2B2AE3D27D4EB4F) ^
                 w[2] * UINT64_C(0x165667B19E3779F9);
    return (uint32_t)(h >> 32) ^ (uint32_t)h;
}
_Static_assert(sizeof(opfor_action_t) == 3 * sizeof(uint64_t), "action_key reads 24 bytes");

/* Takes a fresh node from the pool (NIL when full) and links it as the last child of
 * parent (after `last`, the current last child or NIL). */
static uint32_t new_child(opfor__mcts_worker_t *w, uint32_t parent, uint32_t last,
                          const opfor_action_t *a, int mover, float prior) {
    if (w->used >= w->cap) {
        w->full = 1;
        return NIL;
    }
    uint32_t c = w->used++;
    opfor__mcts_node_t *n = &w->pool[c];
    memset(n, 0, sizeof *n);
    n->action = *a;
    n->child = NIL;
    n->sibling = NIL;
    n->mover = (int8_t)mover;
    n->prior = prior;
    n->key = action_key(a);
    if (last == NIL)
        w->pool[parent].child = c;
    else
        w->pool[last].sibling = c;
    w->pool[parent].nchildren++;
    return c;
}

/* Index of the child's action in the legal list of this visit (keys filled), or -1. */
static int find_child(const opfor__mcts_worker_t *w, int n, const opfor__mcts_node_t *ch) {
    for (int j = 0; j < n; j++)
        if (w->keys[j] == ch->key && memcmp(&w->acts[j], &ch->action, sizeof ch->action) == 0)
            return j;
    return -1;
}

/* The legal action to widen into: the highest prior among those not yet available as
 * children (ties: legal order). Fills *prior with its weight. */
static int widen_pick(opfor__mcts_worker_t *w, const void *s, int n, float *prior) {
    const opfor_evaluator_t *ev = w->m->ev;
    int have = 0;
    if (ev->prior)
        have = ev->prior(ev->user, w->ev_scratch, &w->game, s, w->acts, n, w->prior) >= 0;
    int best = -1;
    for (int j = 0; j < n; j++) {
        if (w->taken[j])
            continue;
        if (!have) {
            best = j;
            break;
        }
        if (best < 0 || w->prior[j] > w->prior[best])
            best = j;
    }
    *prior = have && best >= 0 ? w->prior[best] : 0.0f;
    return best;
}

/* Decision node: marks the available children, widens when allowed (returning the new
 * child with *fresh = 1), else returns the UCT choice; NIL when nothing can be chosen (the
 * pool is full and no child is available). */
static uint32_t select_decision(opfor__mcts_worker_t *w, uint32_t node, int player, const void *s,
                                int n, int *fresh) {
    const opfor_mcts_config_t *cfg = &w->m->cfg;
    opfor__mcts_node_t *pool = w->pool;
    memset(w->taken, 0, (size_t)n);
    for (int j = 0; j < n; j++)
        w->keys[j] = action_key(&w->acts[j]);
    uint32_t best = NIL, last = NIL;
    double best_score = -HUGE_VAL;
    int navail = 0;
    *fresh = 0;
    for (uint32_t c = pool[node].child; c != NIL; c = pool[c].sibling) {
        last = c;
        opfor__mcts_node_t *ch = &pool[c];
        if (ch->mover != player)
            continue;
        int j = find_child(w, n, ch);
        if (j < 0 || w->taken[j])
            continue;
        w->taken[j] = 1;
        ch->u.avail++;
        navail++;
        double score;
        if (ch->visits == 0)
            score = HUGE_VAL;
        else
            score = ch->value / ch->visits +
                    cfg->uct_c * sqrt(opfor_log((double)ch->u.avail) / (double)ch->visits);
        if (score > best_score) {
            best_score = score;
            best = c;
        }
    }
    if (navail < n && navail < widening_limit(cfg, pool[node].visits)) {
        float prior;
        int j = widen_pick(w, s, n, &prior);
        if (j >= 0) {
            uint32_t c = new_child(w, node, last, &w->acts[j], player, prior);
            if (c != NIL) {
                pool[c].u.avail = 1;
                *fresh = 1;
                return c;
            }
        }
    }
    return best;
}

/* Explicit chance node with k outcomes in w->outs: returns the outcome index to play and
 * its child in *child (NIL when the pool cannot hold the outcome children: then the
 * outcome is sampled from the search's stream). */
static int select_chance(opfor__mcts_worker_t *w, uint32_t node, int k, uint32_t *child) {
    opfor__mcts_node_t *pool = w->pool;
    uint32_t map[MAX_OUTCOMES], last = NIL;
    for (int j = 0; j < k; j++)
        map[j] = NIL;
    for (uint32_t c = pool[node].child; c != NIL; c = pool[c].sibling) {
        last = c;
        if (pool[c].mover != OPFOR_PLAYER_CHANCE)
            continue;
        for (int j = 0; j < k; j++)
            if (map[j] == NIL &&
                memcmp(&w->outs[j].action, &pool[c].action, sizeof(opfor_action_t)) == 0) {
                map[j] = c;
                break;
            }
    }
    int missing = 0;
    for (int j = 0; j < k; j++) {
        if (map[j] != NIL)
            continue;
        map[j] =
            new_child(w, node, last, &w->outs[j].action, OPFOR_PLAYER_CHANCE, (float)w->outs[j].p);
        if (map[j] == NIL)
            missing = 1;
        else
            last = map[j];
    }
    if (missing) {
        double u = opfor_rng_unit(&w->rng), acc = 0.0;
        int j = 0;
        for (; j < k - 1; j++) {
            acc += w->outs[j].p;
            if (u < acc)
                break;
        }
        *child = NIL;
        return j;
    }
    int best = 0;
    double best_score = -HUGE_VAL;
    for (int j = 0; j < k; j++) {
        opfor__mcts_node_t *ch = &pool[map[j]];
        ch->u.share += w->outs[j].p;
        double score = ch->u.share - (double)ch->visits;
        if (score > best_score) {
            best_score = score;
            best = j;
        }
    }
    *child = map[best];
    return best;
}

/* From s, plays the evaluator's policy (uniform without one) to the horizon, then scores. */
static void playout(opfor__mcts_worker_t *w, void *s, int steps, double *v) {
    opfor_mcts_t *m = w->m;
    const opfor_evaluator_t *ev = m->ev;
    for (;;) {
        int p = opfor_game_current(&w->game, s);
        if (p == OPFOR_PLAYER_TERMINAL) {
            terminal_value(w, s, v);
            return;
        }
        if (steps >= m->cfg.max_playout_steps || past_horizon(w, s))
            break;
        int rc;
        if (p == OPFOR_PLAYER_CHANCE) {
            rc = roll(w, s);
        } else {
            int n = opfor_game_legal(&w->game, s, w->acts, m->max_actions);
            if (n <= 0)
                break;
            int k = -1;
            if (ev->policy)
                k = ev->policy(ev->user, w->ev_scratch, &w->game, s, w->acts, n, &w->rng);
            if (k < 0 || k >= n)
                k = (int)opfor_rng_below(&w->rng, (uint32_t)n);
            rc = opfor_game_apply(&w->game, s, &w->acts[k]);
        }
        if (rc < 0) {
            if (!w->err)
                w->err = rc;
            break;
        }
        steps++;
    }
    leaf_value(w, s, v);
}

static void backprop(opfor__mcts_worker_t *w, int plen, const double *v) {
    int np = w->game.rs->max_players;
    for (int i = 0; i < plen; i++) {
        opfor__mcts_node_t *n = &w->pool[w->path[i]];
        n->visits++;
        int mv = n->mover;
        n->value += (mv >= 0 && mv < np) ? v[mv] : v[0];
    }
}

/* Copies the root into the scratch state, gives it fresh dice and, unless cheating,
 * redraws its hidden part. */
static void prepare_state(opfor__mcts_worker_t *w, void *s, opfor_rng_t *rng) {
    opfor_mcts_t *m = w->m;
    memcpy(s, m->root, w->game.rs->state_size);
    uint64_t seed = ((uint64_t)opfor_rng_u32(rng) << 32) | opfor_rng_u32(rng);
    (void)opfor_game_reseed(&w->game, s, seed);
    if ((w->game.rs->flags & OPFOR_RS_HIDDEN) && !m->cfg.cheat &&
        opfor_game_resample(&w->game, s, m->root_player, rng) == 0)
        w->resamples++;
}

/* One iteration: select and expand down the tree, play out, back up. */
static void iterate(opfor__mcts_worker_t *w) {
    opfor_mcts_t *m = w->m;
    const opfor_mcts_config_t *cfg = &m->cfg;
    opfor_game_t *g = &w->game;
    void *s = w->scratch;
    double *v = w->values;
    prepare_state(w, s, &w->rng);

    uint32_t node = 0;
    int plen = 0, depth = 0, steps = 0, scored = 0;
    w->path[plen++] = 0;
    for (;;) {
        int p = opfor_game_current(g, s);
        if (p == OPFOR_PLAYER_TERMINAL) {
            terminal_value(w, s, v);
            scored = 1;
            break;
        }
        if (steps >= cfg->max_playout_steps || past_horizon(w, s)) {
            leaf_value(w, s, v);
            scored = 1;
            break;
        }
        int rc;
        if (p == OPFOR_PLAYER_CHANCE) {
            int k = 0;
            if (cfg->chance_nodes && cfg->max_outcomes > 0 && depth < cfg->max_depth)
                k = opfor_game_chance_outcomes(g, s, w->outs, cfg->max_outcomes);
            if (k <= 0) { /* open loop: the engine rolls */
                rc = roll(w, s);
                if (rc < 0)
                    break;
                steps++;
                continue;
            }
            uint32_t c;
            int j = select_chance(w, node, k, &c);
            rc = opfor_game_apply(g, s, &w->outs[j].action);
            if (rc < 0)
                break;
            steps++;
            if (c == NIL)
                break;
            w->path[plen++] = c;
            depth++;
            node = c;
            if (w->pool[c].visits == 0)
                break;
            continue;
        }
        if (p < 0 || p >= g->rs->max_players || depth >= cfg->max_depth)
            break;
        int n = opfor_game_legal(g, s, w->acts, m->max_actions);
        if (n <= 0)
            break;
        int fresh;
        uint32_t c = select_decision(w, node, p, s, n, &fresh);
        if (c == NIL)
            break;
        rc = opfor_game_apply(g, s, &w->pool[c].action);
        if (rc < 0) {
            if (!w->err)
                w->err = rc;
            break;
        }
        steps++;
        w->path[plen++] = c;
        depth++;
        node = c;
        if (fresh)
            break;
    }
    if (!scored)
        playout(w, s, steps, v);
    backprop(w, plen, v);
}

/* ================================================================ the threads */

void opfor__mcts_run(opfor__mcts_worker_t *w) {
    opfor_mcts_t *m = w->m;
    while (w->iterations < w->budget) {
        if (m->cancel && atomic_load_explicit(m->cancel, memory_order_relaxed)) {
            w->stop = OPFOR_MCTS_STOP_CANCEL;
            return;
        }
        if (m->deadline > 0.0 && mono_now() >= m->deadline) {
            w->stop = OPFOR_MCTS_STOP_WALL;
            return;
        }
        iterate(w);
        w->iterations++;
    }
    w->stop = OPFOR_MCTS_STOP_BUDGET;
}

static void *thread_main(void *arg) {
    opfor__mcts_run(arg);
    return NULL;
}

/* ================================================================ merging and results */

typedef opfor__mcts_agg_t agg_t;

static int agg_cmp(const void *pa, const void *pb) {
    const agg_t *a = pa, *b = pb;
    if (a->visits != b->visits)
        return a->visits > b->visits ? -1 : 1;
    double qa = a->visits ? a->value / (double)a->visits : 0.0;
    double qb = b->visits ? b->value / (double)b->visits : 0.0;
    if (qa != qb)
        return qa > qb ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Sums the threads' root children into out->top (thread order fixed: deterministic).
 * Root actions beyond the table (only possible when hidden information changes the root's
 * legal list a great deal) are left out of the result. */
static void merge(opfor_mcts_t *m, opfor_mcts_result_t *out) {
    int T = m->cfg.threads, player = m->root_player;
    agg_t *a = m->agg;
    size_t na = 0;
    for (int t = 0; t < T; t++) {
        const opfor__mcts_worker_t *w = m->workers[t];
        for (uint32_t c = w->pool[0].child; c != NIL; c = w->pool[c].sibling) {
            const opfor__mcts_node_t *n = &w->pool[c];
            if (n->mover != player)
                continue;
            size_t i = 0;
            while (i < na && memcmp(&a[i].action, &n->action, sizeof n->action) != 0)
                i++;
            if (i == na) {
                if (na == m->agg_cap)
                    continue;
                memset(&a[na], 0, sizeof a[na]);
                a[na].action = n->action;
                a[na].prior = n->prior;
                a[na].order = (uint32_t)na;
                na++;
            }
            a[i].visits += n->visits;
            a[i].value += n->value;
        }
    }
    qsort(a, na, sizeof *a, agg_cmp);
    out->nroot = (int)na;
    out->nchoices = na < OPFOR_MCTS_TOP_K ? (int)na : OPFOR_MCTS_TOP_K;
    for (int i = 0; i < out->nchoices; i++) {
        out->top[i].action = a[i].action;
        out->top[i].visits = a[i].visits > UINT32_MAX ? UINT32_MAX : (uint32_t)a[i].visits;
        out->top[i].value = a[i].visits ? a[i].value / (double)a[i].visits : 0.0;
        out->top[i].prior = a[i].prior;
    }
}

/* ================================================================ the search */

int opfor_mcts_search(opfor_mcts_t *m, const opfor_game_t *g, const void *root,
                      const opfor_evaluator_t *ev, uint64_t decision, const atomic_int *cancel,
                      opfor_mcts_result_t *out) {
    if (!m || !g || !g->rs || !root || !out)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    if (!ev)
        ev = &RANDOM_EVALUATOR;
    if (g->rs->state_size > m->state_size || g->rs->max_actions > m->max_actions ||
        g->rs->max_players > m->max_players || ev->scratch_size > m->ev_scratch)
        return OPFOR_EINVAL;
    int idle = 0;
    if (!atomic_compare_exchange_strong(&m->busy, &idle, 1))
        return OPFOR_EBUSY;
    double t0 = mono_now();
    const opfor_mcts_config_t *cfg = &m->cfg;
    int player = opfor_game_current(g, root);
    out->player = player;
    int rc = 0;
    if (player < 0 || player >= g->rs->max_players) {
        rc = OPFOR_EINVAL;
        goto done;
    }
    m->game = g;
    m->root = root;
    m->ev = ev;
    m->cancel = cancel;
    m->root_player = player;
    m->have_progress = opfor_game_progress(g, root, &m->root_progress) == 0;
    m->deadline = cfg->wall_ms ? t0 + cfg->wall_ms / 1000.0 : 0.0;
    m->search_seed = opfor_rng_mix64(cfg->seed ^ opfor_rng_mix64(decision + 1));

    int T = cfg->threads;
    for (int t = 0; t < T; t++) {
        opfor__mcts_worker_t *w = m->workers[t];
        w->game = *g;
        w->game.applies = w->game.rejected = 0;
        opfor_rng_derive(&w->rng, m->search_seed, (uint64_t)t);
        w->used = 0; /* the O(1) reset */
        w->full = 0;
        w->iterations = 0;
        w->resamples = 0;
        w->err = 0;
        w->stop = OPFOR_MCTS_STOP_BUDGET;
        w->budget = cfg->iterations / (uint32_t)T + ((uint32_t)t < cfg->iterations % (uint32_t)T);
        opfor__mcts_node_t *r = &w->pool[w->used++];
        memset(r, 0, sizeof *r);
        r->child = r->sibling = NIL;
        r->mover = OPFOR__MCTS_ROOT_MOVER;
    }

    /* A single legal action needs no search. Its legality is read from a redrawn copy, so
     * even this check never looks at the hidden state. */
    {
        opfor__mcts_worker_t *w = m->workers[0];
        opfor_rng_t r;
        opfor_rng_derive(&r, m->search_seed, UINT64_C(0xF02CED));
        prepare_state(w, w->scratch, &r);
        w->resamples = 0;
        int n = opfor_game_legal(&w->game, w->scratch, w->acts, m->max_actions);
        if (n <= 0) {
            rc = n < 0 ? n : OPFOR_EINVAL;
            goto done;
        }
        if (n == 1) {
            out->nchoices = out->nroot = 1;
            out->top[0].action = w->acts[0];
            out->stop = OPFOR_MCTS_STOP_FORCED;
            goto done;
        }
    }

    pthread_t tid[OPFOR_MCTS_MAX_THREADS];
    int started[OPFOR_MCTS_MAX_THREADS] = {0};
    for (int t = 1; t < T; t++)
        started[t] = pthread_create(&tid[t], NULL, thread_main, m->workers[t]) == 0;
    opfor__mcts_run(m->workers[0]);
    for (int t = 1; t < T; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            opfor__mcts_run(m->workers[t]); /* no thread to spare: same work, same result */
    }

    out->stop = OPFOR_MCTS_STOP_BUDGET;
    for (int t = 0; t < T; t++) {
        const opfor__mcts_worker_t *w = m->workers[t];
        out->iterations += w->iterations;
        out->nodes += w->used;
        out->node_capacity += w->cap;
        out->pool_full |= w->full;
        out->resamples += w->resamples;
        if (w->stop == OPFOR_MCTS_STOP_CANCEL)
            out->stop = OPFOR_MCTS_STOP_CANCEL;
        else if (w->stop == OPFOR_MCTS_STOP_WALL && out->stop != OPFOR_MCTS_STOP_CANCEL)
            out->stop = OPFOR_MCTS_STOP_WALL;
    }
    merge(m, out);
    if (out->stop == OPFOR_MCTS_STOP_CANCEL)
        rc = OPFOR_ECANCELED;
done:
    out->elapsed_ms = (mono_now() - t0) * 1000.0;
    m->game = NULL;
    m->root = NULL;
    m->cancel = NULL;
    atomic_store(&m->busy, 0);
    return rc;
}
