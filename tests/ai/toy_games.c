/* tests/ai/toy_games.c — the toy rulesets of toy_games.h.
 *
 * Written against opfor/ruleset.h only (no ai/ code), so the rulesets conformance suite can
 * run over them too. Each game keeps its dice in its own state (open loop), lists a single
 * ROLL action at a chance node and, where it can, the explicit outcomes as forced actions.
 * Plain data with no padding holes: states compare with memcmp.
 */
#include <stdio.h>
#include <string.h>

#include "toy_games.h"

static opfor_action_t act(int kind, int unit, int target, int sub, int arg) {
    opfor_action_t a = opfor_action_make(kind);
    a.unit = (uint8_t)unit;
    a.target = (uint8_t)target;
    a.sub = (uint8_t)sub;
    a.arg = (uint16_t)arg;
    return a;
}

/* Serialization shared by the toys: a 4-byte tag, then the state's bytes. */
static int ser(const char *tag, const void *st, size_t n, void *buf, size_t size, size_t *len) {
    *len = 4 + n;
    if (size < 4 + n)
        return OPFOR_ERANGE;
    memcpy(buf, tag, 4);
    memcpy((unsigned char *)buf + 4, st, n);
    return 0;
}

static int deser(const char *tag, void *st, size_t n, const void *buf, size_t len) {
    if (len != 4 + n || memcmp(buf, tag, 4) != 0)
        return OPFOR_EPARSE;
    memcpy(st, (const unsigned char *)buf + 4, n);
    return 0;
}

/* ================================================================ tic-tac-toe */

static const uint8_t TTT_LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                        {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static void ttt_update(toy_ttt_state_t *s) {
    for (int i = 0; i < 8; i++) {
        uint8_t a = s->board[TTT_LINES[i][0]];
        if (a && a == s->board[TTT_LINES[i][1]] && a == s->board[TTT_LINES[i][2]]) {
            s->winner = (int8_t)(a - 1);
            return;
        }
    }
    s->winner = s->moves == 9 ? 2 : -1;
}

void toy_ttt_set(toy_ttt_state_t *s, const char *board, int to_move) {
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 9; i++) {
        s->board[i] = board[i] == 'x' ? 1 : board[i] == 'o' ? 2 : 0;
        s->moves += s->board[i] != 0;
    }
    s->to_move = (uint8_t)to_move;
    ttt_update(s);
}

opfor_action_t toy_ttt_action(int sq) {
    return act(0, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, 0, sq);
}

static int ttt_init(const void *ctx, void *state, uint64_t seed) {
    toy_ttt_set(state, ".........", 0);
    return 0;
}

static int ttt_current(const void *ctx, const void *state) {
    const toy_ttt_state_t *s = state;
    return s->winner >= 0 ? OPFOR_PLAYER_TERMINAL : s->to_move;
}

static int ttt_legal(const void *ctx, const void *state, opfor_action_t *out, int max) {
    const toy_ttt_state_t *s = state;
    int n = 0;
    if (s->winner >= 0)
        return 0;
    for (int i = 0; i < 9 && n < max; i++)
        if (!s->board[i])
            out[n++] = toy_ttt_action(i);
    return n;
}

static int ttt_apply(const void *ctx, void *state, const opfor_action_t *a) {
    toy_ttt_state_t *s = state;
    if (s->winner >= 0 || a->kind != 0 || a->arg > 8 || s->board[a->arg] ||
        !opfor_action_eq(a, &(opfor_action_t){0, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, 0, a->arg, 0,
                                              0, 0, 0, 0}))
        return OPFOR_EILLEGAL;
    s->board[a->arg] = (uint8_t)(s->to_move + 1);
    s->moves++;
    s->to_move ^= 1;
    ttt_update(s);
    return 0;
}

static int ttt_returns(const void *ctx, const void *state, double *out) {
    const toy_ttt_state_t *s = state;
    out[0] = out[1] = 0.0;
    if (s->winner == 0 || s->winner == 1) {
        out[s->winner] = 1.0;
        out[1 - s->winner] = -1.0;
    }
    return 0;
}

static const char *ttt_str(const void *ctx, const void *state, const opfor_action_t *a, char *buf,
                           size_t n) {
    snprintf(buf, n, "mark %c%d", "abc"[a->arg % 3], 1 + a->arg / 3);
    return buf;
}

const opfor_ruleset_t toy_ttt_ruleset = {
    .name = "toy-ttt",
    .title = "tic-tac-toe (test toy)",
    .max_players = 2,
    .state_size = sizeof(toy_ttt_state_t),
    .max_actions = 9,
    .flags = OPFOR_RS_ZERO_SUM,
    .init = ttt_init,
    .current = ttt_current,
    .legal = ttt_legal,
    .apply = ttt_apply,
    .returns = ttt_returns,
    .action_str = ttt_str,
};

/* ================================================================ dice race */

const int toy_race_gain[3] = {0, 2, 3};
const int toy_race_sixths[3] = {1, 3, 2};

static int race_init(const void *ctx, void *state, uint64_t seed) {
    toy_race_state_t *s = state;
    memset(s, 0, sizeof *s);
    opfor_rng_seed(&s->rng, seed, 0xACE);
    return 0;
}

static int race_over(const toy_race_state_t *s) {
    return s->score[0] >= TOY_RACE_TARGET || s->score[1] >= TOY_RACE_TARGET ||
           s->decisions >= 2 * TOY_RACE_TURN_LIMIT;
}

static int race_current(const void *ctx, const void *state) {
    const toy_race_state_t *s = state;
    if (race_over(s))
        return OPFOR_PLAYER_TERMINAL;
    return s->pending ? OPFOR_PLAYER_CHANCE : s->to_move;
}

static int race_legal(const void *ctx, const void *state, opfor_action_t *out, int max) {
    const toy_race_state_t *s = state;
    if (race_over(s) || max < 2)
        return 0;
    if (s->pending) {
        out[0] = act(TOY_RACE_ROLL, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, 0, 0);
        return 1;
    }
    out[0] = act(TOY_RACE_SAFE, s->to_move, OPFOR_ACTION_NONE, 0, 0);
    out[1] = act(TOY_RACE_RISKY, s->to_move, OPFOR_ACTION_NONE, 0, 0);
    return 2;
}

static void race_gain(toy_race_state_t *s, int gain) {
    s->score[s->to_move] = (uint8_t)(s->score[s->to_move] + gain);
    s->pending = 0;
    s->to_move ^= 1;
    s->decisions++;
}

static int race_apply(const void *ctx, void *state, const opfor_action_t *a) {
    toy_race_state_t *s = state;
    if (race_over(s))
        return OPFOR_EILLEGAL;
    if (s->pending) {
        if (opfor_action_eq(a, &(opfor_action_t){TOY_RACE_ROLL, OPFOR_ACTION_NONE,
                                                 OPFOR_ACTION_NONE, 0, 0, 0, 0, 0, 0, 0})) {
            int d = opfor_rng_d6(&s->rng);
            race_gain(s, d == 1 ? toy_race_gain[0] : d <= 4 ? toy_race_gain[1] : toy_race_gain[2]);
            return 0;
        }
        if (a->kind == TOY_RACE_OUTCOME && a->sub < 3 &&
            opfor_action_eq(a, &(opfor_action_t){TOY_RACE_OUTCOME, OPFOR_ACTION_NONE,
                                                 OPFOR_ACTION_NONE, a->sub, 0, 0, 0, 0, 0, 0})) {
            race_gain(s, toy_race_gain[a->sub]);
            return 0;
        }
        return OPFOR_EILLEGAL;
    }
    if (a->unit != s->to_move || a->target != OPFOR_ACTION_NONE || a->sub || a->arg || a->flags ||
        a->x != 0 || a->y != 0 || a->x2 != 0 || a->y2 != 0)
        return OPFOR_EILLEGAL;
    if (a->kind == TOY_RACE_SAFE) {
        race_gain(s, 1);
        return 0;
    }
    if (a->kind == TOY_RACE_RISKY) {
        s->pending = 1;
        return 0;
    }
    return OPFOR_EILLEGAL;
}

static int race_outcomes(const void *ctx, const void *state, opfor_chance_outcome_t *out, int max) {
    const toy_race_state_t *s = state;
    if (!s->pending || race_over(s))
        return 0;
    if (max < 3)
        return OPFOR_ERANGE;
    for (int j = 0; j < 3; j++) {
        out[j].action = act(TOY_RACE_OUTCOME, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, j, 0);
        out[j].p = toy_race_sixths[j] / 6.0;
    }
    return 3;
}

static int race_returns(const void *ctx, const void *state, double *out) {
    const toy_race_state_t *s = state;
    double d = s->score[0] > s->score[1] ? 1.0 : s->score[0] < s->score[1] ? -1.0 : 0.0;
    out[0] = d;
    out[1] = -d;
    return 0;
}

static int race_evaluate(const void *ctx, const void *state, double *out) {
    const toy_race_state_t *s = state;
    double d = ((double)s->score[0] - (double)s->score[1]) / TOY_RACE_TARGET;
    d = d > 1.0 ? 1.0 : d < -1.0 ? -1.0 : d;
    out[0] = d;
    out[1] = -d;
    return 0;
}

static int race_reseed(const void *ctx, void *state, uint64_t seed) {
    opfor_rng_seed(&((toy_race_state_t *)state)->rng, seed, 0xACE);
    return 0;
}

static int race_progress(const void *ctx, const void *state, opfor_progress_t *out) {
    const toy_race_state_t *s = state;
    out->turn = s->decisions / 2u;
    out->activation = s->decisions;
    return 0;
}

static int race_ser(const void *ctx, const void *st, void *buf, size_t size, size_t *len) {
    return ser("RACE", st, sizeof(toy_race_state_t), buf, size, len);
}

static int race_deser(const void *ctx, void *st, const void *buf, size_t len) {
    return deser("RACE", st, sizeof(toy_race_state_t), buf, len);
}

static const char *race_str(const void *ctx, const void *state, const opfor_action_t *a, char *buf,
                            size_t n) {
    static const char *const names[] = {"roll", "bank 1 point", "gamble on a d6", "outcome"};
    if (a->kind == TOY_RACE_OUTCOME)
        snprintf(buf, n, "the d6 gives %d", toy_race_gain[a->sub % 3]);
    else
        snprintf(buf, n, "%s", names[a->kind & 3]);
    return buf;
}

const opfor_ruleset_t toy_race_ruleset = {
    .name = "toy-race",
    .title = "dice race (test toy)",
    .max_players = 2,
    .state_size = sizeof(toy_race_state_t),
    .max_actions = 3,
    .flags = OPFOR_RS_CHANCE | OPFOR_RS_ZERO_SUM,
    .init = race_init,
    .current = race_current,
    .legal = race_legal,
    .apply = race_apply,
    .chance_outcomes = race_outcomes,
    .returns = race_returns,
    .evaluate = race_evaluate,
    .reseed = race_reseed,
    .progress = race_progress,
    .serialize = race_ser,
    .deserialize = race_deser,
    .action_str = race_str,
};

/* ================================================================ bandit */

/* Counts a read of the true hidden state by a hook while the test watches. */
static void bandit_touch(const void *ctx, const toy_bandit_state_t *s) {
    const toy_bandit_ctx_t *c = ctx;
    if (c && c->watch && s->real && c->leaks)
        atomic_fetch_add(c->leaks, 1);
}

static int bandit_init(const void *ctx, void *state, uint64_t seed) {
    toy_bandit_state_t *s = state;
    memset(s, 0, sizeof *s);
    opfor_rng_seed(&s->rng, seed, 0xBA);
    opfor_rng_t hidden;
    opfor_rng_derive(&hidden, seed, 0xBA2);
    s->pulled = 0xFF;
    s->jackpot = (uint8_t)opfor_rng_below(&hidden, TOY_BANDIT_ARMS);
    s->real = 1;
    return 0;
}

static int bandit_current(const void *ctx, const void *state) {
    const toy_bandit_state_t *s = state; /* who moves is public: not a leak */
    if (s->done)
        return OPFOR_PLAYER_TERMINAL;
    return s->pulled != 0xFF ? OPFOR_PLAYER_CHANCE : 0;
}

static int bandit_legal(const void *ctx, const void *state, opfor_action_t *out, int max) {
    const toy_bandit_state_t *s = state;
    bandit_touch(ctx, s);
    if (s->done)
        return 0;
    if (s->pulled != 0xFF) {
        out[0] = act(TOY_BANDIT_ROLL, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, 0, 0);
        return 1;
    }
    int n = 0;
    for (int a = 0; a < TOY_BANDIT_ARMS && n < max; a++)
        out[n++] = act(TOY_BANDIT_PULL, 0, OPFOR_ACTION_NONE, a, 0);
    return n;
}

static double bandit_p(const void *ctx, const toy_bandit_state_t *s) {
    const toy_bandit_ctx_t *c = ctx;
    return s->jackpot == s->pulled ? 1.0 : c->p[s->pulled];
}

static int bandit_apply(const void *ctx, void *state, const opfor_action_t *a) {
    toy_bandit_state_t *s = state;
    bandit_touch(ctx, s);
    if (s->done)
        return OPFOR_EILLEGAL;
    if (s->pulled == 0xFF) {
        if (a->kind != TOY_BANDIT_PULL || a->sub >= TOY_BANDIT_ARMS ||
            !opfor_action_eq(a, &(opfor_action_t){TOY_BANDIT_PULL, 0, OPFOR_ACTION_NONE, a->sub, 0,
                                                  0, 0, 0, 0, 0}))
            return OPFOR_EILLEGAL;
        s->pulled = a->sub;
        return 0;
    }
    if (opfor_action_eq(a, &(opfor_action_t){TOY_BANDIT_ROLL, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE,
                                             0, 0, 0, 0, 0, 0, 0})) {
        s->reward = (uint8_t)opfor_rng_chance(&s->rng, bandit_p(ctx, s));
    } else if (opfor_action_eq(a, &(opfor_action_t){TOY_BANDIT_OUTCOME, OPFOR_ACTION_NONE,
                                                    OPFOR_ACTION_NONE, a->sub & 1, 0, 0, 0, 0, 0,
                                                    0})) {
        s->reward = a->sub;
    } else {
        return OPFOR_EILLEGAL;
    }
    s->done = 1;
    return 0;
}

static int bandit_outcomes(const void *ctx, const void *state, opfor_chance_outcome_t *out,
                           int max) {
    const toy_bandit_state_t *s = state;
    bandit_touch(ctx, s);
    if (s->done || s->pulled == 0xFF)
        return 0;
    if (max < 2)
        return OPFOR_ERANGE;
    double p = bandit_p(ctx, s);
    int n = 0;
    if (p > 0.0) {
        out[n].action = act(TOY_BANDIT_OUTCOME, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, 1, 0);
        out[n++].p = p;
    }
    if (p < 1.0) {
        out[n].action = act(TOY_BANDIT_OUTCOME, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, 0, 0);
        out[n++].p = 1.0 - p;
    }
    return n;
}

static int bandit_returns(const void *ctx, const void *state, double *out) {
    const toy_bandit_state_t *s = state;
    bandit_touch(ctx, s);
    out[0] = s->reward ? 1.0 : 0.0;
    return 0;
}

static int bandit_resample(const void *ctx, void *state, int observer, opfor_rng_t *rng) {
    const toy_bandit_ctx_t *c = ctx;
    toy_bandit_state_t *s = state;
    s->jackpot = (uint8_t)opfor_rng_below(rng, TOY_BANDIT_ARMS);
    s->real = 0;
    if (c && c->resamples)
        atomic_fetch_add(c->resamples, 1);
    return 0;
}

static int bandit_reseed(const void *ctx, void *state, uint64_t seed) {
    opfor_rng_seed(&((toy_bandit_state_t *)state)->rng, seed, 0xBA);
    return 0;
}

static int bandit_ser(const void *ctx, const void *st, void *buf, size_t size, size_t *len) {
    return ser("BNDT", st, sizeof(toy_bandit_state_t), buf, size, len);
}

static int bandit_deser(const void *ctx, void *st, const void *buf, size_t len) {
    return deser("BNDT", st, sizeof(toy_bandit_state_t), buf, len);
}

static const char *bandit_str(const void *ctx, const void *state, const opfor_action_t *a,
                              char *buf, size_t n) {
    if (a->kind == TOY_BANDIT_PULL)
        snprintf(buf, n, "pull arm %u", a->sub);
    else if (a->kind == TOY_BANDIT_OUTCOME)
        snprintf(buf, n, "%s", a->sub ? "win" : "lose");
    else
        snprintf(buf, n, "roll");
    return buf;
}

const opfor_ruleset_t toy_bandit_ruleset = {
    .name = "toy-bandit",
    .title = "one-armed bandits with a hidden jackpot (test toy)",
    .max_players = 1,
    .state_size = sizeof(toy_bandit_state_t),
    .max_actions = TOY_BANDIT_ARMS,
    .flags = OPFOR_RS_CHANCE | OPFOR_RS_HIDDEN,
    .init = bandit_init,
    .current = bandit_current,
    .legal = bandit_legal,
    .apply = bandit_apply,
    .chance_outcomes = bandit_outcomes,
    .returns = bandit_returns,
    .resample = bandit_resample,
    .reseed = bandit_reseed,
    .serialize = bandit_ser,
    .deserialize = bandit_deser,
    .action_str = bandit_str,
};

/* ================================================================ skirmish */

enum { SK_PH_INIT = 0, SK_PH_ACT = 1, SK_PH_FIRE = 2, SK_PH_OVER = 3 };

static int sk_figures(const toy_sk_state_t *s, int side) {
    int n = 0;
    for (int u = 0; u < TOY_SK_UNITS; u++)
        n += s->str[side][u];
    return n;
}

static int sk_ready(const toy_sk_state_t *s, int side) {
    for (int u = 0; u < TOY_SK_UNITS; u++)
        if (s->str[side][u] && !s->done[side][u])
            return 1;
    return 0;
}

/* After an activation: a new turn when nobody is ready, the end, or who acts next. */
static void sk_settle(toy_sk_state_t *s) {
    if (!sk_figures(s, 0) || !sk_figures(s, 1)) {
        s->phase = SK_PH_OVER;
        return;
    }
    if (!sk_ready(s, 0) && !sk_ready(s, 1)) {
        s->turn++;
        memset(s->done, 0, sizeof s->done);
        if (s->turn > TOY_SK_TURNS) {
            s->phase = SK_PH_OVER;
            return;
        }
    }
    int r0 = sk_ready(s, 0), r1 = sk_ready(s, 1);
    if (r0 && r1) {
        s->phase = SK_PH_INIT;
    } else {
        s->phase = SK_PH_ACT;
        s->side = r0 ? 0 : 1;
    }
}

static int sk_init(const void *ctx, void *state, uint64_t seed) {
    toy_sk_state_t *s = state;
    memset(s, 0, sizeof *s);
    opfor_rng_seed(&s->rng, seed, 0x5E);
    for (int u = 0; u < TOY_SK_UNITS; u++) {
        s->pos[0][u] = (uint8_t)u;
        s->pos[1][u] = (uint8_t)(TOY_SK_LANE - 1 - u);
        s->str[0][u] = s->str[1][u] = 4;
    }
    s->turn = 1;
    s->phase = SK_PH_INIT;
    return 0;
}

static int sk_current(const void *ctx, const void *state) {
    const toy_sk_state_t *s = state;
    switch (s->phase) {
    case SK_PH_ACT:
        return s->side;
    case SK_PH_OVER:
        return OPFOR_PLAYER_TERMINAL;
    default:
        return OPFOR_PLAYER_CHANCE;
    }
}

static int sk_occupied(const toy_sk_state_t *s, int x) {
    for (int side = 0; side < 2; side++)
        for (int u = 0; u < TOY_SK_UNITS; u++)
            if (s->str[side][u] && s->pos[side][u] == x)
                return 1;
    return 0;
}

static int sk_dist(const toy_sk_state_t *s, int side, int u, int t) {
    int d = (int)s->pos[side][u] - (int)s->pos[1 - side][t];
    return d < 0 ? -d : d;
}

static int sk_legal(const void *ctx, const void *state, opfor_action_t *out, int max) {
    const toy_sk_state_t *s = state;
    int n = 0;
    if (s->phase == SK_PH_OVER)
        return 0;
    if (s->phase != SK_PH_ACT) {
        out[0] = act(TOY_SK_ROLL, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, 0, 0);
        return 1;
    }
    int side = s->side;
    for (int u = 0; u < TOY_SK_UNITS; u++) {
        if (!s->str[side][u] || s->done[side][u])
            continue;
        for (int t = 0; t < TOY_SK_UNITS && n < max; t++)
            if (s->str[1 - side][t] && sk_dist(s, side, u, t) <= 6)
                out[n++] = act(TOY_SK_FIRE, u, t, 0, 0);
        int x0 = s->pos[side][u];
        for (int x = x0 - 3; x <= x0 + 3 && n < max; x++)
            if (x >= 0 && x < TOY_SK_LANE && x != x0 && !sk_occupied(s, x))
                out[n++] = act(TOY_SK_MOVE, u, OPFOR_ACTION_NONE, 0, x);
        if (n < max)
            out[n++] = act(TOY_SK_HOLD, u, OPFOR_ACTION_NONE, 0, 0);
    }
    return n;
}

/* Chance a die hits for the pending fire: 4+ within 2 squares, else 5+. */
static double sk_hit_p(const toy_sk_state_t *s) {
    return sk_dist(s, s->side, s->firer, s->target) <= 2 ? 0.5 : 1.0 / 3.0;
}

static void sk_hits(toy_sk_state_t *s, int hits) {
    uint8_t *str = &s->str[1 - s->side][s->target];
    *str = (uint8_t)(hits >= *str ? 0 : *str - hits);
    s->done[s->side][s->firer] = 1;
    s->activations++;
    sk_settle(s);
}

static int sk_apply(const void *ctx, void *state, const opfor_action_t *a) {
    toy_sk_state_t *s = state;
    opfor_action_t roll = act(TOY_SK_ROLL, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, 0, 0);
    switch (s->phase) {
    case SK_PH_INIT:
        if (opfor_action_eq(a, &roll)) {
            s->side = (uint8_t)opfor_rng_below(&s->rng, 2);
        } else if (a->sub < 2 &&
                   opfor_action_eq(a, &(opfor_action_t){TOY_SK_INIT_OUTCOME, OPFOR_ACTION_NONE,
                                                        OPFOR_ACTION_NONE, a->sub, 0, 0, 0, 0, 0,
                                                        0})) {
            s->side = a->sub;
        } else {
            return OPFOR_EILLEGAL;
        }
        s->phase = SK_PH_ACT;
        return 0;
    case SK_PH_FIRE:
        if (opfor_action_eq(a, &roll)) {
            double p = sk_hit_p(s);
            int hits = 0;
            for (int d = 0; d < s->str[s->side][s->firer]; d++)
                hits += opfor_rng_chance(&s->rng, p);
            sk_hits(s, hits > 2 ? 2 : hits);
            return 0;
        }
        if (a->sub < 3 &&
            opfor_action_eq(a, &(opfor_action_t){TOY_SK_HIT_OUTCOME, OPFOR_ACTION_NONE,
                                                 OPFOR_ACTION_NONE, a->sub, 0, 0, 0, 0, 0, 0})) {
            sk_hits(s, a->sub);
            return 0;
        }
        return OPFOR_EILLEGAL;
    case SK_PH_ACT:
        break;
    default:
        return OPFOR_EILLEGAL;
    }
    int side = s->side, u = a->unit;
    if (u >= TOY_SK_UNITS || !s->str[side][u] || s->done[side][u] || a->flags || a->x != 0 ||
        a->y != 0 || a->x2 != 0 || a->y2 != 0 || a->sub)
        return OPFOR_EILLEGAL;
    if (a->kind == TOY_SK_FIRE) {
        int t = a->target;
        if (t >= TOY_SK_UNITS || !s->str[1 - side][t] || sk_dist(s, side, u, t) > 6 || a->arg)
            return OPFOR_EILLEGAL;
        s->firer = (uint8_t)u;
        s->target = (uint8_t)t;
        s->phase = SK_PH_FIRE;
        return 0;
    }
    if (a->target != OPFOR_ACTION_NONE)
        return OPFOR_EILLEGAL;
    if (a->kind == TOY_SK_MOVE) {
        int x = a->arg, d = x - (int)s->pos[side][u];
        if (x >= TOY_SK_LANE || d == 0 || d < -3 || d > 3 || sk_occupied(s, x))
            return OPFOR_EILLEGAL;
        s->pos[side][u] = (uint8_t)x;
    } else if (a->kind != TOY_SK_HOLD || a->arg) {
        return OPFOR_EILLEGAL;
    }
    s->done[side][u] = 1;
    s->activations++;
    sk_settle(s);
    return 0;
}

static int sk_outcomes(const void *ctx, const void *state, opfor_chance_outcome_t *out, int max) {
    const toy_sk_state_t *s = state;
    if (s->phase == SK_PH_INIT) {
        if (max < 2)
            return OPFOR_ERANGE;
        for (int j = 0; j < 2; j++) {
            out[j].action = act(TOY_SK_INIT_OUTCOME, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, j, 0);
            out[j].p = 0.5;
        }
        return 2;
    }
    if (s->phase != SK_PH_FIRE)
        return 0;
    if (max < 3)
        return OPFOR_ERANGE;
    /* Buckets of hits: none, one, two or more; binomial over the firer's dice. */
    int n = s->str[s->side][s->firer];
    double q = sk_hit_p(s), p0 = 1.0, p1;
    for (int i = 0; i < n; i++)
        p0 *= 1.0 - q;
    p1 = n * q * (p0 / (1.0 - q));
    double p[3] = {p0, p1, 1.0 - p0 - p1};
    int k = 0;
    for (int j = 0; j < 3; j++) {
        if (j == 2 && n < 2)
            break;
        out[k].action = act(TOY_SK_HIT_OUTCOME, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, j, 0);
        out[k++].p = p[j];
    }
    return k;
}

static int sk_returns(const void *ctx, const void *state, double *out) {
    const toy_sk_state_t *s = state;
    int a = sk_figures(s, 0), b = sk_figures(s, 1);
    out[0] = a > b ? 1.0 : a < b ? -1.0 : 0.0;
    out[1] = -out[0];
    return 0;
}

static int sk_evaluate(const void *ctx, const void *state, double *out) {
    const toy_sk_state_t *s = state;
    out[0] = (sk_figures(s, 0) - sk_figures(s, 1)) / (4.0 * TOY_SK_UNITS);
    out[1] = -out[0];
    return 0;
}

static int sk_reseed(const void *ctx, void *state, uint64_t seed) {
    opfor_rng_seed(&((toy_sk_state_t *)state)->rng, seed, 0x5E);
    return 0;
}

static int sk_progress(const void *ctx, const void *state, opfor_progress_t *out) {
    const toy_sk_state_t *s = state;
    out->turn = s->turn;
    out->activation = s->activations;
    return 0;
}

static int sk_ser(const void *ctx, const void *st, void *buf, size_t size, size_t *len) {
    return ser("SKRM", st, sizeof(toy_sk_state_t), buf, size, len);
}

static int sk_deser(const void *ctx, void *st, const void *buf, size_t len) {
    return deser("SKRM", st, sizeof(toy_sk_state_t), buf, len);
}

static const char *sk_str(const void *ctx, const void *state, const opfor_action_t *a, char *buf,
                          size_t n) {
    const toy_sk_state_t *s = state;
    char side = s->phase == SK_PH_ACT && s->side ? 'B' : 'A';
    char foe = side == 'A' ? 'B' : 'A';
    switch (a->kind) {
    case TOY_SK_MOVE:
        snprintf(buf, n, "%c%u moves to square %u", side, a->unit + 1u, a->arg);
        break;
    case TOY_SK_FIRE:
        snprintf(buf, n, "%c%u fires at %c%u", side, a->unit + 1u, foe, a->target + 1u);
        break;
    case TOY_SK_HOLD:
        snprintf(buf, n, "%c%u holds", side, a->unit + 1u);
        break;
    case TOY_SK_INIT_OUTCOME:
        snprintf(buf, n, "side %c has the initiative", a->sub ? 'B' : 'A');
        break;
    case TOY_SK_HIT_OUTCOME:
        snprintf(buf, n, "%s", a->sub == 0 ? "no hits" : a->sub == 1 ? "1 hit" : "2+ hits");
        break;
    default:
        snprintf(buf, n, "roll");
    }
    return buf;
}

const opfor_ruleset_t toy_sk_ruleset = {
    .name = "toy-skirmish",
    .title = "skirmish on a lane (test and benchmark toy)",
    .max_players = 2,
    .state_size = sizeof(toy_sk_state_t),
    .max_actions = 48,
    .flags = OPFOR_RS_CHANCE | OPFOR_RS_ZERO_SUM,
    .init = sk_init,
    .current = sk_current,
    .legal = sk_legal,
    .apply = sk_apply,
    .chance_outcomes = sk_outcomes,
    .returns = sk_returns,
    .evaluate = sk_evaluate,
    .reseed = sk_reseed,
    .progress = sk_progress,
    .serialize = sk_ser,
    .deserialize = sk_deser,
    .action_str = sk_str,
};

/* ================================================================ all of them */

/* ================================================================ count */

opfor_action_t toy_count_action(int k) {
    return act(0, OPFOR_ACTION_NONE, OPFOR_ACTION_NONE, 0, k);
}

static int count_init(const void *ctx, void *state, uint64_t seed) {
    memset(state, 0, sizeof(toy_count_state_t));
    ((toy_count_state_t *)state)->winner = -1;
    return 0;
}

static int count_current(const void *ctx, const void *state) {
    const toy_count_state_t *s = state;
    return s->winner >= 0 ? OPFOR_PLAYER_TERMINAL : s->to_move;
}

static int count_legal(const void *ctx, const void *state, opfor_action_t *out, int max) {
    const toy_count_state_t *s = state;
    int n = 0;
    for (int k = 1; k <= 2 && n < max && s->winner < 0; k++)
        if (s->total + k <= TOY_COUNT_TARGET)
            out[n++] = toy_count_action(k);
    return n;
}

static int count_apply(const void *ctx, void *state, const opfor_action_t *a) {
    toy_count_state_t *s = state;
    opfor_action_t one = toy_count_action(1), two = toy_count_action(2);
    int k = opfor_action_eq(a, &one) ? 1 : opfor_action_eq(a, &two) ? 2 : 0;
    if (s->winner >= 0 || k == 0 || s->total + k > TOY_COUNT_TARGET)
        return OPFOR_EILLEGAL;
    s->total = (uint8_t)(s->total + k);
    s->moves++;
    if (s->total == TOY_COUNT_TARGET)
        s->winner = (int8_t)s->to_move;
    else
        s->to_move = (uint8_t)((s->to_move + 1) % TOY_COUNT_PLAYERS);
    return 0;
}

static int count_returns(const void *ctx, const void *state, double *out) {
    const toy_count_state_t *s = state;
    for (int p = 0; p < TOY_COUNT_PLAYERS; p++)
        out[p] = s->winner < 0 ? 0.0 : p == s->winner ? 1.0 : -1.0 / (TOY_COUNT_PLAYERS - 1);
    return 0;
}

static int count_progress(const void *ctx, const void *state, opfor_progress_t *out) {
    const toy_count_state_t *s = state;
    out->turn = 1u + s->moves / TOY_COUNT_PLAYERS;
    out->activation = s->moves;
    return 0;
}

static int count_ser(const void *ctx, const void *state, void *buf, size_t size, size_t *len) {
    return ser("CNT1", state, sizeof(toy_count_state_t), buf, size, len);
}

static int count_deser(const void *ctx, void *state, const void *buf, size_t len) {
    toy_count_state_t s;
    int rc = deser("CNT1", &s, sizeof s, buf, len);
    if (rc == 0 && (s.total > TOY_COUNT_TARGET || s.to_move >= TOY_COUNT_PLAYERS || s.winner < -1 ||
                    s.winner >= TOY_COUNT_PLAYERS))
        return OPFOR_EPARSE;
    if (rc == 0)
        memcpy(state, &s, sizeof s);
    return rc;
}

static const char *count_str(const void *ctx, const void *state, const opfor_action_t *a, char *buf,
                             size_t n) {
    snprintf(buf, n, "add %u", a->arg);
    return buf;
}

const opfor_ruleset_t toy_count_ruleset = {
    .name = "toy-count",
    .title = "count to 21 (test toy)",
    .max_players = TOY_COUNT_PLAYERS,
    .state_size = sizeof(toy_count_state_t),
    .max_actions = 2,
    .flags = OPFOR_RS_ZERO_SUM,
    .init = count_init,
    .current = count_current,
    .legal = count_legal,
    .apply = count_apply,
    .returns = count_returns,
    .progress = count_progress,
    .serialize = count_ser,
    .deserialize = count_deser,
    .action_str = count_str,
};

const opfor_ruleset_t *const toy_rulesets[] = {&toy_ttt_ruleset,    &toy_race_ruleset,
                                               &toy_bandit_ruleset, &toy_sk_ruleset,
                                               &toy_count_ruleset,  NULL};

static const toy_bandit_ctx_t BANDIT_DEFAULT = {{0.3, 0.6, 0.5}, 0, NULL, NULL};

const void *toy_default_ctx(const opfor_ruleset_t *rs) {
    return rs == &toy_bandit_ruleset ? &BANDIT_DEFAULT : NULL;
}
