/* tests/rulesets/test_splendid_engine_games.c — invariants of A Splendid Victory!'s engine over
 * 200 random games of the built-in encounter (fixed seeds): stands never grow, every
 * unit left stands in a formation it may take with files that fit, each side's tally equals
 * the stands it has lost, markers are gone after each removal of losses, every game ends with
 * zero-sum returns; and the games do reach fire, hand-to-hand, charges, reactions,
 * intercepts and losses. The same seed gives the same game.
 */
#include "test_splendid_engine_helper.h"

#define GAMES 200
#define STEP_CAP 20000

typedef struct seen {
    long fired, contacts, charges, reactions, intercepts, decisions, ended_by_breakpoint;
} seen_t;

static void check_units(const sv_ctx_t *c, const sv_state_t *prev, const sv_state_t *s) {
    int lost[2] = {0, 0};
    for (int i = 0; i < s->nunits; i++) {
        const sv_unit_t *u = &s->u[i];
        assert_true(u->n <= prev->u[i].n); /* stands never grow */
        assert_true(u->n <= u->n0);
        assert_true(u->a <= u->n);
        lost[u->side] += u->n0 - u->n;
        if (!sv_alive(u)) {
            assert_int_equal(u->n, 0);
            continue;
        }
        assert_true(sv_form_ok(u, u->form));
        assert_true(u->files >= 1 && u->files <= u->n);
        if (u->form == SV_LINE || u->form == SV_OPEN)
            assert_int_equal(u->files, u->n);
        opfor_pt_t r[4];
        sv_rect(c, u, r);
        assert_true(sv_on_table(c, r));
        for (int j = 0; j < i; j++) /* no two units overlap */
            if (sv_alive(&s->u[j])) {
                opfor_pt_t q[4];
                sv_rect(c, &s->u[j], q);
                assert_false(sv_rect_overlap(r, q, 0.02f));
            }
    }
    assert_int_equal(lost[0], s->tally[0]);
    assert_int_equal(lost[1], s->tally[1]);
}

static uint64_t play(const sv_ctx_t *c, uint64_t seed, seen_t *seen) {
    sv_state_t s, prev;
    opfor_action_t *acts = malloc(SV_MAX_ACTIONS * sizeof *acts);
    assert_non_null(acts);
    opfor_rng_t pick;
    opfor_rng_seed(&pick, seed, 99);
    assert_int_equal(sv_engine_init(c, &s, seed), 0);
    int steps = 0;
    while (sv_engine_current(&s) != OPFOR_PLAYER_TERMINAL) {
        assert_true(steps++ < STEP_CAP);
        int n = sv_engine_legal(c, &s, acts, SV_MAX_ACTIONS);
        assert_true(n >= 1);
        int k = sv_engine_current(&s) == OPFOR_PLAYER_CHANCE
                    ? 0
                    : (int)opfor_rng_below(&pick, (uint32_t)n);
        const opfor_action_t *a = &acts[k];
        if (sv_engine_current(&s) >= 0) {
            seen->decisions++;
            seen->charges += a->kind == SV_A_CHARGE;
            seen->reactions += s.phase == SV_P_REACT;
            seen->intercepts += s.phase == SV_P_INTERCEPT;
            seen->contacts += s.phase == SV_P_MELEE;
        }
        int phase = s.phase;
        memcpy(&prev, &s, sizeof s);
        assert_int_equal(sv_engine_apply(c, &s, a), 0);
        check_units(c, &prev, &s);
        if (phase == SV_P_FIRE_ROLL)
            seen->fired++;
        if (s.phase == SV_P_MOVE && prev.phase < SV_P_MOVE)
            for (int i = 0; i < s.nunits; i++) /* losses removed: no marker left over */
                if (s.mphase == 0)
                    assert_int_equal(s.u[i].markers, 0);
    }
    double r[2];
    sv_engine_returns(&s, r);
    assert_true(r[0] + r[1] == 0.0 && r[0] >= -1.0 && r[0] <= 1.0);
    if (s.result != SV_R_DRAW)
        seen->ended_by_breakpoint++;
    assert_true(s.turn <= c->turn_limit);
    free(acts);
    uint64_t h = 1469598103934665603ull;
    const unsigned char *p = (const unsigned char *)&s;
    for (size_t i = 0; i < sizeof s; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static void random_games(void **st) {
    (void)st;
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    assert_int_equal(sv_ctx_load(NULL, &c, &d), 0);
    seen_t seen;
    memset(&seen, 0, sizeof seen);
    for (uint64_t g = 1; g <= GAMES; g++)
        play(c, 1000 + g, &seen);
    print_message("decisions %ld, volleys %ld, melee decisions %ld, charges %ld, reactions %ld, "
                  "intercept decisions %ld, decided games %ld\n",
                  seen.decisions, seen.fired, seen.contacts, seen.charges, seen.reactions,
                  seen.intercepts, seen.ended_by_breakpoint);
    assert_true(seen.fired > GAMES);
    assert_true(seen.charges > 0);
    assert_true(seen.reactions > 0);
    assert_true(seen.intercepts > 0);
    assert_true(seen.contacts > 0);
    assert_true(seen.ended_by_breakpoint > 0);
    /* the same seed, the same game */
    seen_t again;
    memset(&again, 0, sizeof again);
    assert_true(play(c, 77, &again) == play(c, 77, &again));
    sv_ctx_free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
