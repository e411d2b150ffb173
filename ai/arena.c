/* ai/arena.c — the match runner: seeded games between two policies, sides swapped every
 * other game, on one or more worker threads, with a Wilson interval on the win rate.
 *
 * Workers take game numbers from an atomic counter and write each outcome into the log at
 * its number; the summary is computed from the log afterwards in game order, so the thread
 * count changes only the wall time. Every random draw of a game comes from streams derived
 * from the game's seed (the state's dice, one decision stream per seat), never from a
 * worker's history. The built-in catalogue of policies is at the end of the file: random
 * play and the search at a level for any ruleset, then whatever bots the ruleset brings.
 */
#include "opfor/arena.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opfor/ai.h"
#include "opfor/mcts.h"

/* Streams of the seats' decisions: distinct from the game's dice. */
#define SEAT_SALT UINT64_C(0x4152454E41000000) /* "ARENA" */

void opfor_arena_config_default(opfor_arena_config_t *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->nctx = 1;
    cfg->games = 1;
    cfg->threads = 1;
    cfg->swap = 1;
    cfg->max_steps = 1000000;
}

void opfor_arena_wilson(long k, long n, double z, double *lo, double *hi) {
    if (n <= 0 || k < 0 || k > n) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    double nn = (double)n, p = (double)k / nn, z2 = z * z;
    double denom = 1.0 + z2 / nn;
    double centre = (p + z2 / (2.0 * nn)) / denom;
    double half = z * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn)) / denom;
    *lo = centre - half < 0.0 ? 0.0 : centre - half;
    *hi = centre + half > 1.0 ? 1.0 : centre + half;
}

uint64_t opfor_arena_game_seed(uint64_t seed, long i) {
    return opfor_rng_mix64(opfor_rng_mix64(seed) ^ (UINT64_C(0x9E3779B97F4A7C15) * (uint64_t)i));
}

int opfor_arena_play(opfor_game_t *g, uint64_t seed, opfor_arena_policy_t *const pols[2],
                     opfor_arena_referee_t *ref, long max_steps, void *state, opfor_action_t *acts,
                     opfor_arena_game_t *out) {
    int a_side = out->a_side;
    out->seed = seed;
    out->steps = 0;
    out->outcome = -2;
    out->error = 0;
    out->ret_a = 0.0;
    int rc = opfor_game_new_state(g, state, seed);
    opfor_rng_t seat[2];
    for (int s = 0; s < 2 && rc == 0; s++) {
        opfor_rng_derive(&seat[s], seed, SEAT_SALT + (uint64_t)s);
        if (pols[s]->begin)
            rc = pols[s]->begin(pols[s]->self, g, seed, s);
    }
    if (rc == 0 && ref && ref->begin)
        rc = ref->begin(ref->self, g, seed);
    long steps = 0;
    while (rc == 0 && steps < max_steps) {
        int p = opfor_game_current(g, state);
        if (p == OPFOR_PLAYER_TERMINAL)
            break;
        if (p == OPFOR_PLAYER_CHANCE) {
            if (ref && ref->chance) {
                rc = ref->chance(ref->self, g, state);
                if (rc < 0)
                    break;
                if (rc == 1) {
                    rc = 0;
                    steps++;
                    continue;
                }
            }
            int n = opfor_game_legal(g, state, acts, g->rs->max_actions);
            if (n < 1) {
                rc = n < 0 ? n : OPFOR_EINVAL;
                break;
            }
            rc = opfor_game_apply(g, state, &acts[0]);
        } else if (p == 0 || p == 1) {
            opfor_action_t a;
            rc = pols[p]->choose(pols[p]->self, g, state, &seat[p], &a);
            if (rc == 0)
                rc = opfor_game_apply(g, state, &a);
        } else {
            rc = OPFOR_EINVAL;
        }
        steps++;
    }
    out->steps = steps;
    if (ref && ref->end)
        ref->end(ref->self, g, state, out->referee);
    if (rc < 0) {
        out->error = rc;
        return rc;
    }
    double ret[OPFOR_MAX_PLAYERS] = {0};
    rc = opfor_game_returns(g, state, ret);
    if (rc < 0) {
        out->error = rc;
        return rc;
    }
    if (opfor_game_current(g, state) != OPFOR_PLAYER_TERMINAL) {
        out->outcome = 0; /* out of steps: a draw */
        return 0;
    }
    out->ret_a = ret[a_side];
    double d = ret[a_side] - ret[1 - a_side];
    out->outcome = d > 1e-9 ? 1 : d < -1e-9 ? -1 : 0;
    return 0;
}

/* ---------------------------------------------------------------- the run */

typedef struct run {
    const opfor_arena_config_t *cfg;
    opfor_arena_game_t *log;
    atomic_long next;     /* next game number to take */
    long done;            /* games finished (under lock) */
    pthread_mutex_t lock; /* guards done, progress calls and open_rc */
    int open_rc;          /* first error opening a policy or referee */
} run_t;

static void *worker(void *arg) {
    run_t *r = arg;
    const opfor_arena_config_t *cfg = r->cfg;
    opfor_arena_open_fn open = cfg->open ? cfg->open : opfor_arena_policy_open;
    opfor_game_t g;
    opfor_arena_policy_t pa, pb;
    opfor_arena_referee_t ref;
    memset(&pa, 0, sizeof pa);
    memset(&pb, 0, sizeof pb);
    memset(&ref, 0, sizeof ref);
    int have_a = 0, have_b = 0, have_ref = 0;
    void *state = malloc(cfg->rs->state_size);
    opfor_action_t *acts = malloc(sizeof *acts * (size_t)cfg->rs->max_actions);
    int rc = state && acts ? 0 : OPFOR_ENOMEM;
    if (rc == 0)
        rc = opfor_game_init(&g, cfg->rs, cfg->ctxs[0], 0);
    if (rc == 0 && (rc = open(cfg->open_user, cfg->a, &g, &pa)) == 0)
        have_a = 1;
    if (rc == 0 && (rc = open(cfg->open_user, cfg->b, &g, &pb)) == 0)
        have_b = 1;
    if (rc == 0 && cfg->referee && (rc = cfg->referee(cfg->referee_user, &g, &ref)) == 0)
        have_ref = 1;
    if (rc != 0) {
        pthread_mutex_lock(&r->lock);
        if (r->open_rc == 0)
            r->open_rc = rc;
        pthread_mutex_unlock(&r->lock);
    }
    while (rc == 0) {
        pthread_mutex_lock(&r->lock);
        int stop = r->open_rc != 0;
        pthread_mutex_unlock(&r->lock);
        if (stop || (cfg->stop && atomic_load_explicit(cfg->stop, memory_order_relaxed)))
            break;
        /* Every number taken below games is played to its end, so the games played are
           0..next-1 whatever the threads: a prefix. */
        long i = atomic_fetch_add(&r->next, 1);
        if (i >= cfg->games)
            break;
        opfor_arena_game_t *out = &r->log[i];
        memset(out, 0, sizeof *out);
        out->ctx = (int)((i / 2) % cfg->nctx);
        out->a_side = cfg->swap ? (int)(i & 1) : cfg->a_side;
        g.ctx = cfg->ctxs[out->ctx];
        g.applies = g.rejected = 0;
        opfor_arena_policy_t *pols[2];
        pols[out->a_side] = &pa;
        pols[1 - out->a_side] = &pb;
        opfor_arena_play(&g, opfor_arena_game_seed(cfg->seed, i), pols, have_ref ? &ref : NULL,
                         cfg->max_steps, state, acts, out);
        pthread_mutex_lock(&r->lock);
        r->done++;
        if (cfg->progress)
            cfg->progress(cfg->progress_user, r->done, cfg->games);
        pthread_mutex_unlock(&r->lock);
    }
    if (have_a && pa.release)
        pa.release(pa.self);
    if (have_b && pb.release)
        pb.release(pb.self);
    if (have_ref && ref.release)
        ref.release(ref.self);
    free(state);
    free(acts);
    return NULL;
}

static void summarize(long played, opfor_arena_result_t *out) {
    long steps = 0;
    for (long i = 0; i < played; i++) {
        const opfor_arena_game_t *gm = &out->log[i];
        out->games++;
        steps += gm->steps;
        if (gm->outcome == -2) {
            out->errors++;
            continue;
        }
        out->a_games_side[gm->a_side]++;
        if (gm->outcome == 1) {
            out->wins_a++;
            out->a_wins_side[gm->a_side]++;
        } else if (gm->outcome == -1) {
            out->wins_b++;
        } else {
            out->draws++;
        }
    }
    long n = out->games - out->errors;
    out->win_rate_a = n > 0 ? (double)out->wins_a / (double)n : 0.0;
    out->score_a = n > 0 ? ((double)out->wins_a + 0.5 * (double)out->draws) / (double)n : 0.0;
    opfor_arena_wilson(out->wins_a, n, OPFOR_ARENA_Z95, &out->ci_lo, &out->ci_hi);
    out->mean_steps = out->games > 0 ? (double)steps / (double)out->games : 0.0;
}

int opfor_arena_run(const opfor_arena_config_t *cfg, opfor_arena_result_t *out) {
    if (!out)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    if (!cfg || !cfg->rs || !cfg->ctxs || cfg->nctx < 1 || !cfg->a || !cfg->b || cfg->games < 1 ||
        cfg->threads < 1 || cfg->threads > OPFOR_ARENA_MAX_THREADS || cfg->max_steps < 1 ||
        (!cfg->swap && (cfg->a_side < 0 || cfg->a_side > 1)))
        return OPFOR_EINVAL;
    if (cfg->rs->max_players != 2)
        return OPFOR_EINVAL;
    out->log = calloc((size_t)cfg->games, sizeof *out->log);
    if (!out->log)
        return OPFOR_ENOMEM;
    run_t r;
    memset(&r, 0, sizeof r);
    r.cfg = cfg;
    r.log = out->log;
    atomic_init(&r.next, 0);
    pthread_mutex_init(&r.lock, NULL);
    int nt = cfg->threads;
    if (nt > cfg->games)
        nt = (int)cfg->games;
    pthread_t tid[OPFOR_ARENA_MAX_THREADS];
    int started = 0;
    for (int t = 1; t < nt; t++) {
        if (pthread_create(&tid[t], NULL, worker, &r) != 0)
            break;
        started++;
    }
    worker(&r); /* the calling thread works too */
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&r.lock);
    if (r.open_rc != 0) {
        opfor_arena_result_free(out);
        return r.open_rc;
    }
    long played = atomic_load(&r.next);
    if (played > cfg->games)
        played = cfg->games;
    out->interrupted = played < cfg->games;
    summarize(played, out);
    return 0;
}

void opfor_arena_result_free(opfor_arena_result_t *out) {
    if (!out)
        return;
    free(out->log);
    out->log = NULL;
}

/* ---------------------------------------------------------------- the catalogue */

typedef struct random_pol {
    opfor_action_t acts[512]; /* room for the legal list */
} random_pol_t;

static int random_choose(void *self, const opfor_game_t *g, const void *state, opfor_rng_t *rng,
                         opfor_action_t *out) {
    random_pol_t *p = self;
    int cap = g->rs->max_actions < 512 ? g->rs->max_actions : 512;
    int n = opfor_game_legal(g, state, p->acts, cap);
    if (n < 1)
        return n < 0 ? n : OPFOR_EINVAL;
    *out = p->acts[opfor_rng_below(rng, (uint32_t)n)];
    return 0;
}

/* Node memory of one arena search: the levels' budgets (at most 20,000 iterations) fit. */
#define ARENA_MCTS_BYTES ((size_t)24 << 20)

typedef struct mcts_pol {
    opfor_mcts_t *m;             /* the search, allocated once */
    const opfor_evaluator_t *ev; /* the ruleset's evaluator (NULL: random playouts) */
    int level;                   /* opfor_ai_level_t */
    uint64_t seed;               /* the game's seed, keyed by seat */
    uint64_t decision;           /* decisions made in this game */
} mcts_pol_t;

static int mcts_begin(void *self, const opfor_game_t *g, uint64_t game_seed, int side) {
    (void)g;
    mcts_pol_t *p = self;
    p->seed = opfor_rng_mix64(game_seed ^ (UINT64_C(0x4D435453) + (uint64_t)side)); /* "MCTS" */
    p->decision = 0;
    return 0;
}

static int mcts_choose(void *self, const opfor_game_t *g, const void *state, opfor_rng_t *rng,
                       opfor_action_t *out) {
    (void)rng;
    mcts_pol_t *p = self;
    opfor_mcts_config_t cfg = *opfor_mcts_config(p->m);
    opfor_ai_level_apply(p->level, &cfg);
    cfg.wall_ms = 0; /* the budget alone ends a search: results do not depend on speed */
    cfg.seed = p->seed;
    int rc = opfor_mcts_configure(p->m, &cfg);
    opfor_mcts_result_t r;
    uint64_t decision = p->decision++;
    if (rc == 0)
        rc = opfor_mcts_search(p->m, g, state, p->ev, decision, NULL, &r);
    if (rc < 0)
        return rc;
    int k = opfor_ai_choose_in(g, state, p->level, &r, cfg.seed, decision);
    if (k < 0)
        return k;
    *out = r.top[k].action;
    return 0;
}

static void mcts_release(void *self) {
    mcts_pol_t *p = self;
    if (p)
        opfor_mcts_free(p->m);
    free(p);
}

/* The search at level with the ruleset's evaluator. The exploration and widening stay the
 * search's defaults (opfor_mcts_config_default): the arena's measured and pinned results
 * were all made so. */
static int open_mcts(int level, const opfor_game_t *g, opfor_arena_policy_t *out) {
    mcts_pol_t *p = calloc(1, sizeof *p);
    if (!p)
        return OPFOR_ENOMEM;
    p->level = level;
    p->ev = opfor_ai_evaluator(g->rs);
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    opfor_ai_level_apply(level, &cfg);
    cfg.wall_ms = 0;
    cfg.threads = 1;
    cfg.memory_bytes = ARENA_MCTS_BYTES;
    int rc = opfor_mcts_create(&p->m, g->rs, &cfg, p->ev ? p->ev->scratch_size : 0);
    if (rc != 0) {
        free(p);
        return rc;
    }
    snprintf(out->name, sizeof out->name, "mcts:%s", opfor_ai_level_info(level)->name);
    out->self = p;
    out->begin = mcts_begin;
    out->choose = mcts_choose;
    out->release = mcts_release;
    return 0;
}

int opfor_arena_policy_open(void *user, const char *spec, const opfor_game_t *g,
                            opfor_arena_policy_t *out) {
    (void)user;
    if (!spec || !g || !g->rs || !out)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    if (strcasecmp(spec, "random") == 0) {
        random_pol_t *p = calloc(1, sizeof *p);
        if (!p)
            return OPFOR_ENOMEM;
        strcpy(out->name, "random");
        out->self = p;
        out->choose = random_choose;
        out->release = free;
        return 0;
    }
    if (strncasecmp(spec, "mcts:", 5) == 0) {
        int level;
        if (opfor_ai_level_find(spec + 5, &level) != 0)
            return OPFOR_ENOENT;
        return open_mcts(level, g, out);
    }
    const opfor_ruleset_ai_t *ai = g->rs->ai;
    if (!ai || !ai->bot_open)
        return OPFOR_ENOENT;
    return ai->bot_open(spec, g, out);
}

const char *opfor_arena_policy_list(const opfor_ruleset_t *rs, char *buf, size_t n) {
    if (!buf || n == 0)
        return buf;
    const char *bots = rs && rs->ai && rs->ai->bots && rs->ai->bots[0] ? rs->ai->bots : NULL;
    char levels[128];
    snprintf(buf, n, "random, %s%smcts:LEVEL (%s)", bots ? bots : "", bots ? ", " : "",
             opfor_vocab_list(opfor_ai_level_names, levels, sizeof levels));
    return buf;
}

int opfor_arena_policy_known(const opfor_ruleset_t *rs, const char *spec) {
    if (!spec || !*spec)
        return 0;
    if (strcasecmp(spec, "random") == 0)
        return 1;
    if (strncasecmp(spec, "mcts:", 5) == 0) {
        int level;
        return opfor_ai_level_find(spec + 5, &level) == 0;
    }
    const char *w = rs && rs->ai && rs->ai->bot_open ? rs->ai->bots : NULL;
    size_t len = strlen(spec);
    while (w && *w) { /* the words of "table, weak, ..." */
        while (*w == ' ' || *w == ',')
            w++;
        size_t k = strcspn(w, ", ");
        if (k == len && strncasecmp(w, spec, len) == 0)
            return 1;
        w += k;
    }
    return 0;
}

int opfor_arena_director(void *user, const opfor_game_t *g, opfor_arena_referee_t *out) {
    if (!g || !g->rs || !out)
        return OPFOR_EINVAL;
    const opfor_ruleset_ai_t *ai = g->rs->ai;
    if (!ai || !ai->director_open)
        return OPFOR_ENOTSUP;
    memset(out, 0, sizeof *out);
    return ai->director_open(user, g, out);
}
