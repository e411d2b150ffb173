/* core/chance.c — turning an exact chance into the nearest roll players can make with d6s.
 *
 * Every roll this module can render succeeds with probability c/36 for an integer c, so each
 * mode is a short constant table of candidates and rendering picks the nearest one. The
 * comparison is exact, not approximate: "p is nearer to a/36 than to b/36" is "72p < a + b",
 * and 72p = 64p + 8p is evaluated as an exact two-double sum. Ties (72p == a + b exactly) go
 * to the simpler roll and, between equally simple rolls, to the lower chance. This keeps the
 * rendering monotone in p and identical on every machine (the nearest renderable chance after
 * all modifiers are combined; max error 1/12 with one d6).
 */
#include "opfor/chance.h"

#include <stdio.h>
#include <string.h>

#include "opfor/dice.h"
#include "opfor/text.h"

typedef struct candidate {
    opfor_roll_kind_t kind; /* roll kind */
    int need;               /* first score */
    int need2;              /* second score for two-step rolls */
    int c36;                /* chance of success times 36 (an integer) */
    int rank;               /* simplicity: 0 no roll, 1 one roll, 2 two-step roll */
} candidate_t;

static const candidate_t CAND_D6[] = {
    {OPFOR_ROLL_NEVER, 0, 0, 0, 0},   {OPFOR_ROLL_D6, 6, 0, 6, 1},  {OPFOR_ROLL_D6, 5, 0, 12, 1},
    {OPFOR_ROLL_D6, 4, 0, 18, 1},     {OPFOR_ROLL_D6, 3, 0, 24, 1}, {OPFOR_ROLL_D6, 2, 0, 30, 1},
    {OPFOR_ROLL_ALWAYS, 0, 0, 36, 0},
};

/* D6 plus "6, then N+" ((7-N)/36) and "2+, re-roll a 1 needing N+" (30/36 + (7-N)/36),
 * N = 2..6 (N = 1 would repeat a plain roll). */
static const candidate_t CAND_FINE[] = {
    {OPFOR_ROLL_NEVER, 0, 0, 0, 0},      {OPFOR_ROLL_D6_THEN, 6, 6, 1, 2},
    {OPFOR_ROLL_D6_THEN, 6, 5, 2, 2},    {OPFOR_ROLL_D6_THEN, 6, 4, 3, 2},
    {OPFOR_ROLL_D6_THEN, 6, 3, 4, 2},    {OPFOR_ROLL_D6_THEN, 6, 2, 5, 2},
    {OPFOR_ROLL_D6, 6, 0, 6, 1},         {OPFOR_ROLL_D6, 5, 0, 12, 1},
    {OPFOR_ROLL_D6, 4, 0, 18, 1},        {OPFOR_ROLL_D6, 3, 0, 24, 1},
    {OPFOR_ROLL_D6, 2, 0, 30, 1},        {OPFOR_ROLL_D6_REROLL, 2, 6, 31, 2},
    {OPFOR_ROLL_D6_REROLL, 2, 5, 32, 2}, {OPFOR_ROLL_D6_REROLL, 2, 4, 33, 2},
    {OPFOR_ROLL_D6_REROLL, 2, 3, 34, 2}, {OPFOR_ROLL_D6_REROLL, 2, 2, 35, 2},
    {OPFOR_ROLL_ALWAYS, 0, 0, 36, 0},
};

/* Ways out of 36 to total n or more on 2d6, n = 12..3. */
static const candidate_t CAND_2D6[] = {
    {OPFOR_ROLL_NEVER, 0, 0, 0, 0}, {OPFOR_ROLL_2D6, 12, 0, 1, 1}, {OPFOR_ROLL_2D6, 11, 0, 3, 1},
    {OPFOR_ROLL_2D6, 10, 0, 6, 1},  {OPFOR_ROLL_2D6, 9, 0, 10, 1}, {OPFOR_ROLL_2D6, 8, 0, 15, 1},
    {OPFOR_ROLL_2D6, 7, 0, 21, 1},  {OPFOR_ROLL_2D6, 6, 0, 26, 1}, {OPFOR_ROLL_2D6, 5, 0, 30, 1},
    {OPFOR_ROLL_2D6, 4, 0, 33, 1},  {OPFOR_ROLL_2D6, 3, 0, 35, 1}, {OPFOR_ROLL_ALWAYS, 0, 0, 36, 0},
};

/* Sign of 72p - m for p in [0, 1] and a small integer m, exactly: 64p and 8p are exact, and
 * the two-sum gives 72p = s + e with s = fl(72p) and e the exact rounding error. */
static int cmp72(double p, int m) {
    double a = 64.0 * p, b = 8.0 * p;
    double s = a + b;
    double bv = s - a;
    double e = (a - (s - bv)) + (b - bv);
    double md = (double)m;
    if (s != md)
        return s < md ? -1 : 1;
    return e < 0.0 ? -1 : e > 0.0 ? 1 : 0;
}

/* 1 when candidate x should replace the current best y for chance p. */
static int better(double p, const candidate_t *x, const candidate_t *y) {
    int lower = x->c36 < y->c36; /* x is the lower chance */
    int c = cmp72(p, x->c36 + y->c36);
    if (c != 0)
        return lower ? c < 0 : c > 0;
    if (x->rank != y->rank)
        return x->rank < y->rank;
    return lower;
}

double opfor_roll_chance(opfor_roll_kind_t kind, int need, int need2) {
    int a = need < 1 ? 6 : need > 7 ? 0 : 7 - need; /* faces scoring need or more */
    int b = need2 < 1 ? 6 : need2 > 7 ? 0 : 7 - need2;
    switch (kind) {
    case OPFOR_ROLL_NEVER:
        return 0.0;
    case OPFOR_ROLL_ALWAYS:
        return 1.0;
    case OPFOR_ROLL_D6:
        return opfor_d6_at_least(need);
    case OPFOR_ROLL_D6_THEN:
        return (double)(a * b) / 36.0;
    case OPFOR_ROLL_D6_REROLL: {
        /* Success first time, or a 1 (a failure only when need >= 2) then need2 or more. */
        int first_one_fails = need >= 2;
        return (double)(6 * a + (first_one_fails ? b : 0)) / 36.0;
    }
    case OPFOR_ROLL_2D6:
        return opfor_2d6_at_least(need);
    }
    return 0.0;
}

void opfor_roll_render(double p, opfor_render_mode_t mode, opfor_roll_t *out) {
    if (p != p || p < 0.0)
        p = 0.0;
    if (p > 1.0)
        p = 1.0;
    const candidate_t *cand;
    size_t ncand;
    switch (mode) {
    case OPFOR_RENDER_D6_FINE:
        cand = CAND_FINE;
        ncand = sizeof CAND_FINE / sizeof CAND_FINE[0];
        break;
    case OPFOR_RENDER_2D6:
        cand = CAND_2D6;
        ncand = sizeof CAND_2D6 / sizeof CAND_2D6[0];
        break;
    case OPFOR_RENDER_D6:
    default:
        cand = CAND_D6;
        ncand = sizeof CAND_D6 / sizeof CAND_D6[0];
        break;
    }
    const candidate_t *best = &cand[0];
    for (size_t i = 1; i < ncand; i++)
        if (better(p, &cand[i], best))
            best = &cand[i];
    out->kind = best->kind;
    out->need = best->need;
    out->need2 = best->need2;
    out->p_exact = p;
    out->p_rendered = opfor_roll_chance(best->kind, best->need, best->need2);
    out->error = out->p_rendered - p;
}

/* n in decimal at w, as "%d" writes it; returns the byte after it. */
static char *put_int(char *w, int n) {
    char t[12];
    unsigned u = n < 0 ? 0u - (unsigned)n : (unsigned)n;
    int k = 0;
    do {
        t[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (n < 0)
        *w++ = '-';
    while (k)
        *w++ = t[--k];
    return w;
}

/* s (a literal of n bytes) at w; returns the byte after it. */
static char *put_lit(char *w, const char *s, size_t n) {
    memcpy(w, s, n);
    return w + n;
}
#define PUT(w, lit) put_lit((w), (lit), sizeof(lit) - 1)

const char *opfor_roll_format(const opfor_roll_t *r, char *buf, size_t size) {
    if (!buf || size == 0)
        return buf;
    /* written out rather than printed (the daemon words every roll of every answer); the
     * same text and truncation as snprintf(buf, size, ...) */
    char t[64], *w = t;
    switch (r->kind) {
    case OPFOR_ROLL_NEVER:
        w = PUT(w, "no chance");
        break;
    case OPFOR_ROLL_ALWAYS:
        w = PUT(w, "automatic");
        break;
    case OPFOR_ROLL_D6: /* "%d+" */
        w = PUT(put_int(w, r->need), "+");
        break;
    case OPFOR_ROLL_D6_THEN: /* "%d, then %d+" */
        w = PUT(put_int(PUT(put_int(w, r->need), ", then "), r->need2), "+");
        break;
    case OPFOR_ROLL_D6_REROLL: /* "%d+, re-roll a 1 needing %d+" */
        w = PUT(put_int(PUT(put_int(w, r->need), "+, re-roll a 1 needing "), r->need2), "+");
        break;
    case OPFOR_ROLL_2D6: /* "%d+ on 2D6" */
        w = PUT(put_int(w, r->need), "+ on 2D6");
        break;
    default:
        w = PUT(w, "?");
        break;
    }
    *w = '\0';
    opfor_text_copy(buf, size, t);
    return buf;
}

int opfor_roll_sample(const opfor_roll_t *r, opfor_rng_t *rng) {
    return opfor_roll_dice(r->kind, r->need, r->need2, rng, NULL);
}
