/* tests/core/test_roll_dice.c — opfor_roll_dice (opfor/chance.h) against the two rollers it
 * replaced: core's opfor_roll_sample and the Viktoria engine's vk_roll.
 *
 * Games must keep their dice: for every roll kind and scores, on streams from fixed seeds, the
 * shared roller (and opfor_roll_sample, now a call of it) must give the same success, the
 * same first die and leave the stream where the plain copies below leave it (the same number
 * of draws).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "opfor/chance.h"

/* core/chance.c's former opfor_roll_sample. */
static int ref_sample(int kind, int need, int need2, opfor_rng_t *rng) {
    switch (kind) {
    case OPFOR_ROLL_NEVER:
        return 0;
    case OPFOR_ROLL_ALWAYS:
        return 1;
    case OPFOR_ROLL_D6:
        return opfor_rng_d6(rng) >= need;
    case OPFOR_ROLL_D6_THEN:
        return opfor_rng_d6(rng) >= need && opfor_rng_d6(rng) >= need2;
    case OPFOR_ROLL_D6_REROLL: {
        int first = opfor_rng_d6(rng);
        if (first >= need)
            return 1;
        return first == 1 && opfor_rng_d6(rng) >= need2;
    }
    case OPFOR_ROLL_2D6: {
        int a = opfor_rng_d6(rng);
        int b = opfor_rng_d6(rng);
        return a + b >= need;
    }
    }
    return 0;
}

/* rulesets/viktoria/engine_tab.c's former vk_roll, on a bare stream. */
static int ref_vk_roll(int kind, int need, int need2, opfor_rng_t *rng, int *first) {
    int d;
    *first = 0;
    switch (kind) {
    case OPFOR_ROLL_NEVER:
        return 0;
    case OPFOR_ROLL_ALWAYS:
        return 1;
    case OPFOR_ROLL_D6:
        d = (int)opfor_rng_below(rng, 6) + 1;
        *first = d;
        return d >= need;
    case OPFOR_ROLL_D6_THEN:
        d = (int)opfor_rng_below(rng, 6) + 1;
        *first = d;
        return d >= need && (int)opfor_rng_below(rng, 6) + 1 >= need2;
    case OPFOR_ROLL_D6_REROLL:
        d = (int)opfor_rng_below(rng, 6) + 1;
        *first = d;
        if (d >= need)
            return 1;
        return d == 1 && (int)opfor_rng_below(rng, 6) + 1 >= need2;
    case OPFOR_ROLL_2D6:
        d = (int)opfor_rng_below(rng, 6) + 1;
        d += (int)opfor_rng_below(rng, 6) + 1;
        *first = d;
        return d >= need;
    }
    return 0;
}

static void roll_dice_matches_former_rollers(void **state) {
    (void)state;
    for (int kind = OPFOR_ROLL_NEVER; kind <= OPFOR_ROLL_2D6 + 1; kind++)
        for (int need = 0; need <= 13; need++)
            for (int need2 = 0; need2 <= 7; need2++) {
                uint64_t seed = (uint64_t)(kind * 1000 + need * 10 + need2);
                opfor_roll_t roll = {(opfor_roll_kind_t)kind, need, need2, 0.0, 0.0, 0.0};
                opfor_rng_t a, b, c, d;
                opfor_rng_seed(&a, seed, 1);
                b = c = d = a;
                for (int t = 0; t < 200; t++) {
                    int fa = -1, fc = -1;
                    int ra = opfor_roll_dice(kind, need, need2, &a, &fa);
                    assert_int_equal(ra, ref_vk_roll(kind, need, need2, &c, &fc));
                    assert_int_equal(fa, fc);
                    assert_int_equal(opfor_roll_sample(&roll, &b),
                                     ref_sample(kind, need, need2, &d));
                    assert_true(a.state == c.state && b.state == d.state);
                }
            }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roll_dice_matches_former_rollers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
