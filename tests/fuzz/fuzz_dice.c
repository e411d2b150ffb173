/* tests/fuzz/fuzz_dice.c — libFuzzer target for the dice notation parser.
 *
 * Any byte string goes in (copied into a NUL-terminated buffer, since the parser takes C
 * strings). When it parses, the canonical text must parse back to the same expression, the
 * distribution must sum to 1 and match min/max, and a roll must land inside [min, max].
 * When it does not, the diagnostic must point inside the input (or just past its end).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/dice.h"

static opfor_dist_t dist; /* 4.8 kB: kept off the fuzzer's stack */

static int same(const opfor_dice_t *a, const opfor_dice_t *b) {
    if (a->nterms != b->nterms || a->inches != b->inches || a->bonus != b->bonus)
        return 0;
    for (int i = 0; i < a->nterms; i++)
        if (a->terms[i].count != b->terms[i].count || a->terms[i].sides != b->terms[i].sides)
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    size_t len = strlen(text); /* an embedded NUL ends the string */

    opfor_dice_t d;
    opfor_diag_t diag;
    opfor_diag_clear(&diag);
    int rc = opfor_dice_parse(text, &d, &diag);
    if (rc != 0) {
        if (rc != OPFOR_EPARSE && rc != OPFOR_ERANGE)
            abort();
        if (diag.line != 1 || diag.col < 1 || (size_t)diag.col > len + 1 || !diag.msg[0])
            abort();
        free(text);
        return 0;
    }

    char canon[128];
    int n = opfor_dice_format(&d, canon, sizeof canon);
    if (n <= 0 || (size_t)n >= sizeof canon)
        abort();
    opfor_dice_t again;
    if (opfor_dice_parse(canon, &again, NULL) != 0 || !same(&d, &again))
        abort();

    if (opfor_dice_dist(&d, &dist) != 0)
        abort();
    double sum = 0.0;
    for (int i = 0; i < dist.n; i++)
        sum += dist.p[i];
    if (sum < 1.0 - 1e-9 || sum > 1.0 + 1e-9)
        abort();
    int lo = opfor_dice_min(&d), hi = opfor_dice_max(&d);
    if (dist.min != lo || dist.min + dist.n - 1 != hi)
        abort();

    opfor_rng_t r;
    opfor_rng_seed(&r, size, 1);
    int v = opfor_dice_roll(&d, &r);
    if (v < lo || v > hi)
        abort();
    free(text);
    return 0;
}
