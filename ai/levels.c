/* ai/levels.c — the difficulty levels and the explained decision.
 *
 * Near-best actions (visits >= cutoff * best) are drawn by a softmax over log-visits at the
 * level's temperature from a stream keyed by (game seed, decision number), so a replay repeats
 * every choice; powers use opfor_exp/opfor_log, the same on every machine. The standard
 * level's wall cap keeps it within 150 ms on one core; the strongest levels' caps are only
 * safety nets, so their budgets (and answers) are fixed. No level cheats: challenge searches
 * as veteran does and leaves the game's balance to the director; reading hidden state is
 * the caller's explicit cfg.cheat (`--cheat`), which opfor_ai_level_apply never touches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ai.h"
#include "opfor/mathx.h"

/* The level table. Budgets in iterations; the wall cap stops a slow machine early. Measured
 * with `opfor bench mcts` on the default ruleset (docs/BENCHMARKS.md): standard's 1000 iterations
 * take about 35 ms (median) of one core, and most of its searches end on the budget. */
static const opfor_ai_level_info_t LEVELS[OPFOR_AI_LEVEL_COUNT] = {
    {"novice", 200, 40, 1.0, 0.2, 0, "a quick look; often picks a good move that is not the best"},
    {"standard", 1000, 120, 0.5, 0.5, 0, "a solid opponent; now and then takes the second best"},
    {"veteran", 4000, 400, 0.25, 0.75, 0, "a long look; rarely strays from the best move"},
    {"ruthless", 20000, 30000, 0.0, 1.0, 0, "the longest look; always the best move found"},
    {"challenge", 4000, 400, 0.25, 0.75, 0,
     "veteran play; the director keeps the game close by steering the spawns"},
};

const opfor_name_t opfor_ai_level_names[] = {
    {"novice", OPFOR_AI_NOVICE},       {"standard", OPFOR_AI_STANDARD},
    {"veteran", OPFOR_AI_VETERAN},     {"ruthless", OPFOR_AI_RUTHLESS},
    {"challenge", OPFOR_AI_CHALLENGE}, {NULL, 0},
};

const opfor_ai_level_info_t *opfor_ai_level_info(int level) {
    if (level < 0 || level >= OPFOR_AI_LEVEL_COUNT)
        return NULL;
    return &LEVELS[level];
}

const opfor_evaluator_t *opfor_ai_evaluator(const opfor_ruleset_t *rs) {
    return rs && rs->ai ? rs->ai->evaluator : NULL;
}

void opfor_ai_search_tuning(const opfor_ruleset_t *rs, opfor_mcts_config_t *cfg) {
    const opfor_ruleset_ai_t *ai = rs ? rs->ai : NULL;
    if (!ai || !cfg)
        return;
    if (ai->uct_c > 0.0)
        cfg->uct_c = ai->uct_c;
    if (ai->pw_c != 0.0) /* negative: widening off, as in opfor_mcts_config_t */
        cfg->pw_c = ai->pw_c;
    if (ai->pw_alpha > 0.0)
        cfg->pw_alpha = ai->pw_alpha;
}

int opfor_ai_level_find(const char *name, int *level) {
    if (!name || !level)
        return OPFOR_EINVAL;
    return opfor_vocab_lookup(opfor_ai_level_names, name, level);
}

int opfor_ai_level_apply(int level, opfor_mcts_config_t *cfg) {
    const opfor_ai_level_info_t *lv = opfor_ai_level_info(level);
    if (!lv || !cfg)
        return OPFOR_EINVAL;
    cfg->iterations = lv->iterations;
    cfg->wall_ms = lv->wall_ms;
    return 0;
}

uint32_t opfor_ai_level_floor(int level) {
    const opfor_ai_level_info_t *lv = opfor_ai_level_info(level);
    return lv ? lv->iterations / OPFOR_AI_FLOOR_DIVISOR : 0;
}

uint32_t opfor_ai_level_budget(int level, unsigned share) {
    const opfor_ai_level_info_t *lv = opfor_ai_level_info(level);
    if (!lv)
        return 0;
    if (share <= 1)
        return lv->iterations;
    uint32_t it = lv->iterations / share, floor = opfor_ai_level_floor(level);
    return it > floor ? it : floor;
}

const char *opfor_ai_share_note(int level, unsigned share, char *buf, size_t n) {
    const opfor_ai_level_info_t *lv = opfor_ai_level_info(level);
    if (!buf || n == 0)
        return buf;
    buf[0] = '\0';
    if (lv && share > 1)
        snprintf(buf, n, "busy daemon: %u of %s's %u playouts",
                 (unsigned)opfor_ai_level_budget(level, share), lv->name, (unsigned)lv->iterations);
    return buf;
}

/* The choice stream's key: distinct from the search's, which uses (seed, decision) too. */
#define CHOICE_SALT UINT64_C(0x4C4556454C53) /* "LEVELS" */

int opfor_ai_choose(int level, const opfor_mcts_result_t *r, uint64_t game_seed,
                    uint64_t decision) {
    const opfor_ai_level_info_t *lv = opfor_ai_level_info(level);
    if (!lv || !r || r->nchoices < 1)
        return OPFOR_EINVAL;
    double best = (double)r->top[0].visits;
    if (lv->temperature <= 0.0 || best <= 0.0 || r->nchoices == 1)
        return 0;
    double w[OPFOR_MCTS_TOP_K], sum = 0.0;
    for (int i = 0; i < r->nchoices; i++) {
        double v = (double)r->top[i].visits;
        w[i] = 0.0;
        if (v > 0.0 && v >= lv->cutoff * best)
            w[i] = opfor_exp(opfor_log(v / best) / lv->temperature);
        sum += w[i];
    }
    opfor_rng_t rng;
    opfor_rng_derive(&rng, game_seed, opfor_rng_mix64(decision) ^ CHOICE_SALT);
    double u = opfor_rng_unit(&rng) * sum, acc = 0.0;
    int last = 0;
    for (int i = 0; i < r->nchoices; i++) {
        if (w[i] <= 0.0)
            continue;
        last = i;
        acc += w[i];
        if (u < acc)
            return i;
    }
    return last;
}

/* Whether a is inert in state (the ruleset's hook; never without it). */
static int inert(const opfor_game_t *g, const void *state, const opfor_action_t *a) {
    const opfor_ruleset_ai_t *ai = g->rs->ai;
    return ai && ai->inert && ai->inert(g->ctx, state, a) > 0;
}

int opfor_ai_choose_in(const opfor_game_t *g, const void *state, int level, opfor_mcts_result_t *r,
                       uint64_t game_seed, uint64_t decision) {
    if (!g || !g->rs || !state || !r || r->nchoices < 1)
        return OPFOR_EINVAL;
    if (!g->rs->ai || !g->rs->ai->inert || r->stop == OPFOR_MCTS_STOP_FORCED)
        return opfor_ai_choose(level, r, game_seed, decision);
    opfor_mcts_result_t live = *r;
    int map[OPFOR_MCTS_TOP_K];
    live.nchoices = 0;
    for (int i = 0; i < r->nchoices; i++)
        if (!inert(g, state, &r->top[i].action)) {
            live.top[live.nchoices] = r->top[i];
            map[live.nchoices++] = i;
        }
    if (live.nchoices == r->nchoices)
        return opfor_ai_choose(level, r, game_seed, decision);
    if (live.nchoices > 0) {
        int k = opfor_ai_choose(level, &live, game_seed, decision);
        return k < 0 ? k : map[k];
    }
    /* every action searched is inert: the first legal one that is not */
    opfor_action_t *acts = malloc((size_t)g->rs->max_actions * sizeof *acts);
    if (!acts)
        return OPFOR_ENOMEM;
    int n = opfor_game_legal(g, state, acts, g->rs->max_actions), k = -1;
    for (int i = 0; i < n && k < 0; i++)
        if (!inert(g, state, &acts[i]))
            k = i;
    if (k >= 0) {
        opfor_mcts_choice_t *c = &r->top[r->nchoices - 1];
        memset(c, 0, sizeof *c);
        c->action = acts[k];
    }
    free(acts);
    return k >= 0 ? r->nchoices - 1 : opfor_ai_choose(level, r, game_seed, decision);
}

/* "+0.34" style value, in [-1, 1]. */
static void fmt_value(char *buf, size_t n, double v) {
    snprintf(buf, n, "%+.2f", v);
}

int opfor_ai_decide(opfor_mcts_t *m, const opfor_game_t *g, const void *state,
                    const opfor_evaluator_t *ev, int level, uint64_t decision,
                    const atomic_int *cancel, opfor_ai_decision_t *out) {
    return opfor_ai_decide_opts(m, g, state, ev, level, decision, cancel, 0, out);
}

int opfor_ai_decide_opts(opfor_mcts_t *m, const opfor_game_t *g, const void *state,
                         const opfor_evaluator_t *ev, int level, uint64_t decision,
                         const atomic_int *cancel, unsigned opts, opfor_ai_decision_t *out) {
    if (!m || !g || !state || !out)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    out->level = level;
    opfor_mcts_config_t cfg = *opfor_mcts_config(m);
    int rc = opfor_ai_level_apply(level, &cfg);
    if (opts & OPFOR_AI_EXACT)
        cfg.wall_ms = 0;
    unsigned share = (opts >> 8) & 0xffu;
    if (rc == 0 && share > 1)
        cfg.iterations = opfor_ai_level_budget(level, share);
    if (rc == 0)
        rc = opfor_mcts_configure(m, &cfg);
    if (rc == 0)
        rc = opfor_mcts_search(m, g, state, ev, decision, cancel, &out->search);
    if (rc < 0)
        return rc;
    const opfor_mcts_result_t *r = &out->search;
    int k = opfor_ai_choose_in(g, state, level, &out->search, cfg.seed, decision);
    if (k < 0)
        return k;
    out->chosen = k;
    out->action = r->top[k].action;
    /* the runner-up: the most visited other action the table could carry out */
    for (int i = 0; i < r->nchoices && !out->has_runner_up; i++)
        if (i != k && !inert(g, state, &r->top[i].action)) {
            out->has_runner_up = 1;
            out->runner_up = r->top[i];
        }

    char what[96], alt[96], v1[16], v2[16];
    opfor_game_action_str(g, state, &out->action, what, sizeof what);
    if (r->stop == OPFOR_MCTS_STOP_FORCED) {
        snprintf(out->reason, sizeof out->reason, "%s: the only legal action", what);
        return 0;
    }
    fmt_value(v1, sizeof v1, r->top[k].value);
    int n = snprintf(out->reason, sizeof out->reason, "%s: value %s over %u of %llu playouts", what,
                     v1, r->top[k].visits, (unsigned long long)r->iterations);
    if (k > 0 && n > 0 && (size_t)n < sizeof out->reason)
        n += snprintf(out->reason + n, sizeof out->reason - (size_t)n, " (%s picks #%d)",
                      opfor_ai_level_info(level)->name, k + 1);
    if (out->has_runner_up && n > 0 && (size_t)n < sizeof out->reason) {
        opfor_game_action_str(g, state, &out->runner_up.action, alt, sizeof alt);
        fmt_value(v2, sizeof v2, out->runner_up.value);
        snprintf(out->reason + n, sizeof out->reason - (size_t)n, "; runner-up %s: %s", alt, v2);
    }
    return 0;
}

const char *opfor_ai_explain(const opfor_game_t *g, const void *state, const opfor_ai_decision_t *d,
                             char *buf, size_t n) {
    if (!buf || n == 0)
        return buf;
    buf[0] = 0;
    const opfor_mcts_result_t *r = &d->search;
    size_t len = 0;
    uint64_t total = r->iterations ? r->iterations : 1;
    for (int i = 0; i < r->nchoices && len < n; i++) {
        char what[96], v[16];
        opfor_game_action_str(g, state, &r->top[i].action, what, sizeof what);
        fmt_value(v, sizeof v, r->top[i].value);
        int w = snprintf(buf + len, n - len,
                         "%c %d. %-40s visits %6u (%5.1f%%)  value %s  prior %.2f\n",
                         i == d->chosen ? '*' : ' ', i + 1, what, r->top[i].visits,
                         100.0 * r->top[i].visits / (double)total, v, (double)r->top[i].prior);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    if (len < n) {
        const opfor_ai_level_info_t *lv = opfor_ai_level_info(d->level);
        snprintf(buf + len, n - len,
                 "  level %s: %llu iterations in %.1f ms, %d actions tried, %llu nodes%s\n",
                 lv ? lv->name : "?", (unsigned long long)r->iterations, r->elapsed_ms, r->nroot,
                 (unsigned long long)r->nodes, r->pool_full ? " (pool full)" : "");
    }
    return buf;
}
