/* core/dice.c — dice notation: parser, canonical text, exact distributions and rolls.
 *
 * The parser is a small hand-written lexer (numbers, ASCII words, '+', '-', '"') feeding a
 * recursive-descent loop over terms; every read checks for the NUL and numbers saturate, so
 * no input can overrun or overflow. Distributions are exact convolutions: integer outcome
 * counts while they fit in a double's 53 bits, probabilities after that. Limits come from
 * dice.h and keep every distribution inside the fixed opfor_dist_t array.
 */
#include "opfor/dice.h"

#include <stdio.h>
#include <string.h>

#define DICE_MAX_SIDES 100
#define DICE_MAX_BONUS 10000
#define DICE_MAX_SPREAD (OPFOR_DIST_MAX - 1)
#define NUM_SATURATE 1000000000L /* numbers stop growing here; all limits are far below */

typedef enum tok_kind {
    TOK_END = 0, /* the terminating NUL */
    TOK_NUM,     /* run of decimal digits */
    TOK_WORD,    /* run of ASCII letters */
    TOK_PLUS,    /* '+' */
    TOK_MINUS,   /* '-' */
    TOK_QUOTE,   /* '"' (inches) */
    TOK_BAD,     /* any other character */
} tok_kind_t;

typedef struct tok {
    tok_kind_t kind; /* what was read */
    size_t start;    /* byte offset of its first character */
    size_t len;      /* length in bytes */
    long value;      /* TOK_NUM: its value, saturated at NUM_SATURATE */
} tok_t;

typedef struct lexer {
    const char *s; /* the NUL-terminated input */
    size_t pos;    /* next unread byte */
    tok_t tok;     /* current token */
} lexer_t;

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

static int is_alpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void lex_next(lexer_t *lx) {
    const char *s = lx->s;
    size_t p = lx->pos;
    while (is_space(s[p]))
        p++;
    tok_t t = {TOK_END, p, 0, 0};
    char c = s[p];
    if (c == '\0') {
        t.kind = TOK_END;
    } else if (is_digit(c)) {
        t.kind = TOK_NUM;
        while (is_digit(s[p])) {
            if (t.value < NUM_SATURATE)
                t.value = t.value * 10 + (s[p] - '0');
            p++;
        }
        if (t.value > NUM_SATURATE)
            t.value = NUM_SATURATE;
    } else if (is_alpha(c)) {
        t.kind = TOK_WORD;
        while (is_alpha(s[p]))
            p++;
    } else {
        t.kind = c == '+' ? TOK_PLUS : c == '-' ? TOK_MINUS : c == '"' ? TOK_QUOTE : TOK_BAD;
        p++;
    }
    t.len = p - t.start;
    lx->tok = t;
    lx->pos = p;
}

/* Case-insensitive comparison of the current word with a lower-case literal. */
static int word_is(const lexer_t *lx, const char *w) {
    if (lx->tok.kind != TOK_WORD || strlen(w) != lx->tok.len)
        return 0;
    for (size_t i = 0; i < lx->tok.len; i++) {
        char c = lx->s[lx->tok.start + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != w[i])
            return 0;
    }
    return 1;
}

/* Describes the current token for a message: 'text', end of input, or a byte. */
static const char *tok_describe(const lexer_t *lx, char *buf, size_t size) {
    const tok_t *t = &lx->tok;
    if (t->kind == TOK_END) {
        snprintf(buf, size, "end of input");
    } else {
        unsigned char c = (unsigned char)lx->s[t->start];
        if (t->kind == TOK_BAD && (c < 0x20 || c >= 0x7F))
            snprintf(buf, size, "byte 0x%02X", c);
        else
            snprintf(buf, size, "'%.*s'", t->len > 24 ? 24 : (int)t->len, lx->s + t->start);
    }
    return buf;
}

static int col_of(const tok_t *t) {
    return t->start >= 0x7FFFFFFF ? 0x7FFFFFFF : (int)t->start + 1;
}

static int expected(const lexer_t *lx, opfor_diag_t *diag, const char *what) {
    char found[48];
    return opfor_diag_set(diag, OPFOR_EPARSE, 1, col_of(&lx->tok), "expected %s, found %s", what,
                          tok_describe(lx, found, sizeof found));
}

static int num_text_len(const tok_t *t) {
    return t->len > 24 ? 24 : (int)t->len;
}

/* Reads the number after a 'd' (the current word) into *sides, its token into *at, and moves
 * past it. OPFOR_OK, or the parse error when no number follows the 'd'. */
static int read_sides(lexer_t *lx, opfor_diag_t *diag, tok_t *at, long *sides) {
    lex_next(lx);
    if (lx->tok.kind != TOK_NUM)
        return expected(lx, diag, "the number of sides after 'd'");
    *at = lx->tok;
    *sides = lx->tok.value;
    lex_next(lx);
    return OPFOR_OK;
}

int opfor_dice_parse(const char *text, opfor_dice_t *out, opfor_diag_t *diag) {
    if (!text || !out)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no dice expression given");
    opfor_dice_t d;
    memset(&d, 0, sizeof d);
    long spread = 0;
    lexer_t lx = {text, 0, {TOK_END, 0, 0, 0}};
    lex_next(&lx);

    int sign = 1;
    if (lx.tok.kind == TOK_PLUS || lx.tok.kind == TOK_MINUS) {
        sign = lx.tok.kind == TOK_MINUS ? -1 : 1;
        lex_next(&lx);
    }
    for (;;) {
        tok_t term = lx.tok; /* where this term starts */
        tok_t count_tok = lx.tok, sides_tok = lx.tok;
        long count = 1, sides = 0, constant = 0;
        int is_dice = 0;
        if (lx.tok.kind == TOK_NUM) {
            count = lx.tok.value;
            lex_next(&lx);
            if (word_is(&lx, "d")) {
                int rc = read_sides(&lx, diag, &sides_tok, &sides);
                if (rc != OPFOR_OK)
                    return rc;
                is_dice = 1;
            } else if (word_is(&lx, "dice") || word_is(&lx, "die")) {
                sides = 6;
                is_dice = 1;
                lex_next(&lx);
            } else {
                constant = count;
            }
        } else if (word_is(&lx, "d")) {
            int rc = read_sides(&lx, diag, &sides_tok, &sides);
            if (rc != OPFOR_OK)
                return rc;
            is_dice = 1;
        } else if (word_is(&lx, "a") || word_is(&lx, "one")) {
            lex_next(&lx);
            if (!word_is(&lx, "die") && !word_is(&lx, "dice"))
                return expected(&lx, diag, "'die' after 'a' or 'one'");
            sides = 6;
            is_dice = 1;
            lex_next(&lx);
        } else {
            return expected(&lx, diag, "a number or dice (2d6, d3, 3 dice, a die)");
        }

        if (is_dice) {
            if (sign < 0)
                return opfor_diag_set(diag, OPFOR_EPARSE, 1, col_of(&term),
                                      "dice cannot be subtracted: expected a number after '-'");
            if (count < 1 || count > OPFOR_DICE_MAX_COUNT)
                return opfor_diag_set(diag, OPFOR_ERANGE, 1, col_of(&count_tok),
                                      "dice count %.*s is out of range: must be 1..%d",
                                      num_text_len(&count_tok), text + count_tok.start,
                                      OPFOR_DICE_MAX_COUNT);
            if (sides < 2 || sides > DICE_MAX_SIDES)
                return opfor_diag_set(diag, OPFOR_ERANGE, 1, col_of(&sides_tok),
                                      "%.*s-sided dice are out of range: sides must be 2..%d",
                                      num_text_len(&sides_tok), text + sides_tok.start,
                                      DICE_MAX_SIDES);
            if (d.nterms >= OPFOR_DICE_MAX_TERMS)
                return opfor_diag_set(diag, OPFOR_ERANGE, 1, col_of(&term),
                                      "too many dice terms: at most %d", OPFOR_DICE_MAX_TERMS);
            spread += count * (sides - 1);
            if (spread > DICE_MAX_SPREAD)
                return opfor_diag_set(diag, OPFOR_ERANGE, 1, col_of(&term),
                                      "too many outcomes: max - min would be %ld, at most %d",
                                      spread, DICE_MAX_SPREAD);
            d.terms[d.nterms].count = (uint8_t)count;
            d.terms[d.nterms].sides = (uint8_t)sides;
            d.nterms++;
        } else {
            if (constant > DICE_MAX_BONUS)
                return opfor_diag_set(diag, OPFOR_ERANGE, 1, col_of(&term),
                                      "number %.*s is out of range: at most %d",
                                      num_text_len(&term), text + term.start, DICE_MAX_BONUS);
            long bonus = (long)d.bonus + sign * constant;
            if (bonus > DICE_MAX_BONUS || bonus < -DICE_MAX_BONUS)
                return opfor_diag_set(diag, OPFOR_ERANGE, 1, col_of(&term),
                                      "constant total %ld is out of range: must be within "
                                      "-%d..%d",
                                      bonus, DICE_MAX_BONUS, DICE_MAX_BONUS);
            d.bonus = (int32_t)bonus;
        }

        if (lx.tok.kind == TOK_PLUS || lx.tok.kind == TOK_MINUS) {
            sign = lx.tok.kind == TOK_MINUS ? -1 : 1;
            lex_next(&lx);
            continue;
        }
        break;
    }
    if (lx.tok.kind == TOK_QUOTE || word_is(&lx, "inches") || word_is(&lx, "inch") ||
        word_is(&lx, "in")) {
        d.inches = 1;
        lex_next(&lx);
        if (lx.tok.kind != TOK_END)
            return expected(&lx, diag, "end of input after the distance unit");
    } else if (lx.tok.kind != TOK_END) {
        return expected(&lx, diag, "'+', '-', 'inches' or end of input");
    }
    *out = d;
    return OPFOR_OK;
}

static int nterms_of(const opfor_dice_t *d) {
    return d->nterms > OPFOR_DICE_MAX_TERMS ? OPFOR_DICE_MAX_TERMS : d->nterms;
}

int opfor_dice_format(const opfor_dice_t *d, char *buf, size_t size) {
    char tmp[128];
    int n = 0;
    int nt = nterms_of(d);
    for (int i = 0; i < nt; i++)
        n += snprintf(tmp + n, sizeof tmp - (size_t)n, "%s%ud%u", i ? "+" : "",
                      (unsigned)d->terms[i].count, (unsigned)d->terms[i].sides);
    if (nt == 0)
        n += snprintf(tmp + n, sizeof tmp - (size_t)n, "%ld", (long)d->bonus);
    else if (d->bonus != 0)
        n += snprintf(tmp + n, sizeof tmp - (size_t)n, "%+ld", (long)d->bonus);
    if (d->inches)
        snprintf(tmp + n, sizeof tmp - (size_t)n, " inches");
    return snprintf(buf, size, "%s", tmp);
}

int opfor_dice_min(const opfor_dice_t *d) {
    long v = d->bonus;
    for (int i = 0; i < nterms_of(d); i++)
        v += d->terms[i].count;
    return (int)v;
}

int opfor_dice_max(const opfor_dice_t *d) {
    long v = d->bonus;
    for (int i = 0; i < nterms_of(d); i++)
        v += (long)d->terms[i].count * d->terms[i].sides;
    return (int)v;
}

/* One die of this many sides; a d3 is a d6 halved, rounding up, as players roll it. */
static int roll_die(int sides, opfor_rng_t *r) {
    if (sides == 6)
        return opfor_rng_d6(r);
    if (sides == 3)
        return (opfor_rng_d6(r) + 1) / 2;
    return 1 + (int)opfor_rng_below(r, (uint32_t)sides);
}

int opfor_dice_roll(const opfor_dice_t *d, opfor_rng_t *r) {
    long total = d->bonus;
    for (int i = 0; i < nterms_of(d); i++)
        for (int c = 0; c < d->terms[i].count; c++)
            total += roll_die(d->terms[i].sides, r);
    return (int)total;
}

int opfor_dice_roll_each(const opfor_dice_t *d, opfor_rng_t *r, int *faces, int max, int *n) {
    long total = d->bonus;
    int k = 0;
    for (int i = 0; i < nterms_of(d); i++)
        for (int c = 0; c < d->terms[i].count; c++, k++) {
            int face = roll_die(d->terms[i].sides, r);
            if (faces && k < max)
                faces[k] = face;
            total += face;
        }
    if (n)
        *n = k;
    return (int)total;
}

int opfor_dice_dist(const opfor_dice_t *d, opfor_dist_t *out) {
    if (!d || !out || d->nterms > OPFOR_DICE_MAX_TERMS || d->bonus > DICE_MAX_BONUS ||
        d->bonus < -DICE_MAX_BONUS)
        return OPFOR_EINVAL;
    long spread = 0;
    for (int i = 0; i < d->nterms; i++) {
        const opfor_dice_term_t *t = &d->terms[i];
        if (t->count < 1 || t->count > OPFOR_DICE_MAX_COUNT || t->sides < 2 ||
            t->sides > DICE_MAX_SIDES)
            return OPFOR_EINVAL;
        spread += (long)t->count * (t->sides - 1);
    }
    if (spread > DICE_MAX_SPREAD)
        return OPFOR_ERANGE;

    /* w[i] counts the ways to score min + i while the total number of outcomes fits in 2^53
     * (every sum is then an exact integer); past that, w holds probabilities. */
    double *w = out->p;
    double tmp[OPFOR_DIST_MAX];
    const double exact_limit = 9007199254740992.0; /* 2^53 */
    double total = 1.0;
    int exact = 1;
    int n = 1;
    w[0] = 1.0;
    for (int i = 0; i < d->nterms; i++) {
        int s = d->terms[i].sides;
        for (int c = 0; c < d->terms[i].count; c++) {
            if (exact && total * s > exact_limit) {
                for (int j = 0; j < n; j++)
                    w[j] /= total;
                exact = 0;
            }
            int nn = n + s - 1;
            for (int k = 0; k < nn; k++) {
                int lo = k - s + 1 > 0 ? k - s + 1 : 0;
                int hi = k < n - 1 ? k : n - 1;
                double sum = 0.0;
                for (int j = lo; j <= hi; j++)
                    sum += w[j];
                tmp[k] = exact ? sum : sum / s;
            }
            memcpy(w, tmp, (size_t)nn * sizeof *w);
            n = nn;
            if (exact)
                total *= s;
        }
    }
    if (exact && total != 1.0)
        for (int j = 0; j < n; j++)
            w[j] /= total;
    out->min = opfor_dice_min(d);
    out->n = n;
    return OPFOR_OK;
}

double opfor_dist_at_least(const opfor_dist_t *d, int k) {
    long i0 = (long)k - d->min;
    if (i0 <= 0)
        return 1.0;
    if (i0 >= d->n)
        return 0.0;
    double sum = 0.0;
    for (long i = d->n - 1; i >= i0; i--)
        sum += d->p[i];
    return sum > 1.0 ? 1.0 : sum;
}

double opfor_dist_at_most(const opfor_dist_t *d, int k) {
    long i1 = (long)k - d->min;
    if (i1 < 0)
        return 0.0;
    if (i1 >= d->n - 1)
        return 1.0;
    double sum = 0.0;
    for (long i = 0; i <= i1; i++)
        sum += d->p[i];
    return sum > 1.0 ? 1.0 : sum;
}

double opfor_dist_mean(const opfor_dist_t *d) {
    double sum = 0.0;
    for (int i = 0; i < d->n; i++)
        sum += (double)i * d->p[i];
    return (double)d->min + sum;
}

double opfor_d6_at_least(int n) {
    if (n <= 1)
        return 1.0;
    if (n >= 7)
        return 0.0;
    return (double)(7 - n) / 6.0;
}

double opfor_2d6_at_least(int n) {
    if (n <= 2)
        return 1.0;
    if (n >= 13)
        return 0.0;
    int ways = 0;
    for (int t = n; t <= 12; t++)
        ways += 6 - (t > 7 ? t - 7 : 7 - t);
    return (double)ways / 36.0;
}
