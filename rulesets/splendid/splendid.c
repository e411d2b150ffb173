/* rulesets/splendid/splendid.c — A Splendid Victory!'s descriptor. The engine lands in later
 * parts of its issue; until then a game is the first turn's initiative (§The Determine the
 * Initiative Phase: each side throws 2D6, the lower total wins, a tie is thrown again) and
 * the winner's one decision: to take it, which ends the game undecided (returns 0), or to
 * concede (§The Determine Victory Phase: the other side's Splendid Victory). The
 * calculator (calc.c) already answers every roll it serves.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "opfor/rng.h"
#include "splendid_int.h"

enum { SV_ROLLING = 0, SV_DECIDING, SV_OVER };
enum { SV_ROLL = 1, SV_TAKE, SV_CONCEDE };

typedef struct sv_state {
    opfor_rng_t rng;   /* the game's own dice */
    uint8_t phase;     /* SV_* */
    uint8_t winner;    /* the side with the initiative */
    uint8_t conceded;  /* 1: the winner conceded (the other side's Splendid Victory) */
    uint8_t throws[2]; /* each side's last 2D6 total */
    uint8_t pad[3];
} sv_state_t;

#define S(st) ((sv_state_t *)(st))
#define CS(st) ((const sv_state_t *)(st))

static int sv_init(const void *ctx, void *state, uint64_t seed) {
    (void)ctx;
    memset(state, 0, sizeof(sv_state_t));
    opfor_rng_seed(&S(state)->rng, seed, 18);
    return 0;
}

static int sv_current(const void *ctx, const void *state) {
    (void)ctx;
    const sv_state_t *s = CS(state);
    if (s->phase == SV_OVER)
        return OPFOR_PLAYER_TERMINAL;
    return s->phase == SV_ROLLING ? OPFOR_PLAYER_CHANCE : s->winner;
}

static int sv_legal(const void *ctx, const void *state, opfor_action_t *out, int max) {
    (void)ctx;
    const sv_state_t *s = CS(state);
    if (s->phase == SV_OVER || max < 1)
        return 0;
    if (s->phase == SV_ROLLING) {
        out[0] = opfor_action_make(SV_ROLL);
        return 1;
    }
    out[0] = opfor_action_make(SV_TAKE);
    if (max < 2)
        return 1;
    out[1] = opfor_action_make(SV_CONCEDE); /* §The Determine Victory Phase: at any time */
    return 2;
}

static int sv_apply(const void *ctx, void *state, const opfor_action_t *a) {
    (void)ctx;
    sv_state_t *s = S(state);
    if (s->phase == SV_ROLLING && a->kind == SV_ROLL) {
        int t0, t1;
        do { /* ties are thrown again */
            t0 = opfor_rng_d6(&s->rng) + opfor_rng_d6(&s->rng);
            t1 = opfor_rng_d6(&s->rng) + opfor_rng_d6(&s->rng);
        } while (t0 == t1);
        s->throws[0] = (uint8_t)t0;
        s->throws[1] = (uint8_t)t1;
        s->winner = t0 < t1 ? 0 : 1; /* the lower total wins */
        s->phase = SV_DECIDING;
        return 0;
    }
    if (s->phase == SV_DECIDING && (a->kind == SV_TAKE || a->kind == SV_CONCEDE)) {
        s->conceded = a->kind == SV_CONCEDE;
        s->phase = SV_OVER;
        return 0;
    }
    return OPFOR_EILLEGAL; /* not the action legal lists: the state is left as it was */
}

static int sv_returns(const void *ctx, const void *state, double *out) {
    (void)ctx;
    const sv_state_t *s = CS(state);
    out[0] = out[1] = 0.0;
    if (s->phase == SV_OVER && s->conceded) { /* the other side's Splendid Victory */
        out[s->winner] = -1.0;
        out[1 - s->winner] = 1.0;
    }
    return 0;
}

static const char *sv_action_str(const void *ctx, const void *state, const opfor_action_t *a,
                                 char *buf, size_t n) {
    (void)ctx;
    (void)state;
    snprintf(buf, n, "%s",
             a->kind == SV_ROLL   ? "throw for the initiative"
             : a->kind == SV_TAKE ? "take the initiative"
                                  : "concede");
    return buf;
}

const opfor_ruleset_t opfor_splendid_ruleset = {
    .name = "splendid",
    .title = "A Splendid Victory!",
    .max_players = 2,
    .state_size = sizeof(sv_state_t),
    .max_actions = 2,
    .flags = OPFOR_RS_CHANCE | OPFOR_RS_ZERO_SUM,
    .init = sv_init,
    .current = sv_current,
    .legal = sv_legal,
    .apply = sv_apply,
    .returns = sv_returns,
    .action_str = sv_action_str,
    .rules_version = "0",
    .calc = &opfor__sv_calc,
};
