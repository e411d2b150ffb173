/* rulesets/viktoria/calc_text.c — a calculator result worded as the game app shows it: each
 * roll with the score needed and its chance ("To hit: 4+ (exact 46.3%, as rolled 50.0%)"),
 * the effect and event tables, the distances and the outcome chances, wrapped at 96 columns.
 *
 * These lines are Viktoria!'s own parts of an answer (opfor_calc_answer_t.text); the generic
 * printers add the question above them and the facts and notes below, so `opfor calc`, the
 * daemon's answer read back by `--connect` and `opfor demo` show the same words.
 */
#include "opfor/viktoria/calc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "opfor/ruleset_calc.h"

/* Text written into a buffer, with the column of the current line for wrapping. */
typedef struct out {
    char *buf;
    size_t size, len;
    int col; /* column of the current line */
    int n;   /* items on this logical line (wrapping) */
} out_t;

static void put(out_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(out_t *o, const char *fmt, ...) {
    if (o->len + 1 >= o->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
    va_end(ap);
    if (w < 0)
        return;
    size_t wrote = (size_t)w < o->size - o->len ? (size_t)w : o->size - o->len - 1;
    const char *nl = NULL;
    for (const char *p = o->buf + o->len; p < o->buf + o->len + wrote; p++)
        if (*p == '\n')
            nl = p;
    o->col = nl ? (int)(o->buf + o->len + wrote - nl - 1) : o->col + (int)wrote;
    o->len += wrote;
}

/* Items "a; b; c" wrapped at about 96 columns with a 4-space continuation. */
static void item(out_t *o, const char *s) {
    int len = (int)strlen(s);
    if (o->n > 0) {
        if (o->col + 2 + len > 96)
            put(o, ";\n    ");
        else
            put(o, "; ");
    }
    put(o, "%s", s);
    o->n++;
}

/* Dice text without the " inches" suffix: "2d6", "4 plus 1d3". */
static const char *dice_text(const opfor_viktoria_distance_t *d, char *buf, size_t size) {
    opfor_dice_t x = d->dice;
    x.inches = 0;
    if (x.nterms == 1 && x.terms[0].count == 1 && x.terms[0].sides == 3 && x.bonus > 0)
        snprintf(buf, size, "%d plus 1d3", (int)x.bonus);
    else
        opfor_dice_format(&x, buf, size);
    return buf;
}

const char *opfor_viktoria_roll_text(const opfor_viktoria_named_roll_t *r, char *buf, size_t size) {
    opfor_roll_format(&r->roll, buf, size);
    /* The critical reads as the rule does: "6, then 6 kills". */
    if (r->roll.kind == OPFOR_ROLL_D6_THEN && strcmp(r->name, "critical") == 0)
        snprintf(buf, size, "%d, then %d %s", r->roll.need, r->roll.need2, r->success);
    return buf;
}

static void rolls(out_t *o, const opfor_viktoria_result_t *res) {
    char buf[160], pe[32], pr[32];
    for (int i = 0; i < res->nrolls; i++) {
        const opfor_viktoria_named_roll_t *r = &res->rolls[i];
        opfor_viktoria_roll_text(r, buf, sizeof buf);
        if (r->roll.error == 0.0)
            put(o, "%s: %s (%s)\n", r->label, buf,
                opfor_calc_pct(r->roll.p_rendered, pr, sizeof pr));
        else
            put(o, "%s: %s (exact %s, as rolled %s)\n", r->label, buf,
                opfor_calc_pct(r->roll.p_exact, pe, sizeof pe),
                opfor_calc_pct(r->roll.p_rendered, pr, sizeof pr));
    }
}

static void tables(out_t *o, const opfor_viktoria_result_t *res) {
    for (int i = 0; i < res->ntables; i++) {
        const opfor_viktoria_table_t *t = &res->tables[i];
        put(o, "%s (%s): ", t->label, t->dice);
        o->n = 0;
        for (int k = 0; k < t->n; k++) {
            const opfor_viktoria_entry_t *e = &t->e[k];
            char it[160], range[16], then[64] = "";
            if (e->lo == e->hi)
                snprintf(range, sizeof range, "%d", e->lo);
            else
                snprintf(range, sizeof range, "%d-%d", e->lo, e->hi);
            if (e->value != OPFOR_VK_UNSET && strcmp(t->name, "level") == 0)
                snprintf(then, sizeof then, " -> %d (%s)", e->value,
                         opfor_viktoria_level_title(e->value));
            else if (e->value != OPFOR_VK_UNSET && strcmp(t->name, "wind") == 0)
                snprintf(then, sizeof then, " -> %s",
                         opfor_vocab_name(opfor_compass_names, e->value));
            snprintf(it, sizeof it, "%s %s%s", range, e->text, then);
            item(o, it);
        }
        put(o, "\n");
    }
}

static void distances(out_t *o, const opfor_viktoria_result_t *res) {
    for (int i = 0; i < res->ndists; i++) {
        const opfor_viktoria_distance_t *d = &res->dists[i];
        char dt[64];
        dice_text(d, dt, sizeof dt);
        if (d->num == d->den)
            put(o, "%s: %s inches", d->label, dt);
        else
            put(o, "%s: (%s) x %d/%d inches", d->label, dt, d->num, d->den);
        if (d->min == d->max)
            put(o, " (%g in)\n", d->min);
        else
            put(o, " (%g-%g in, mean %.3g)\n", d->min, d->max, d->mean);
    }
}

static void outcomes(out_t *o, const opfor_viktoria_result_t *res) {
    if (res->noutcomes == 0)
        return;
    char pe[32], pr[32];
    int differ = 0;
    for (int i = 0; i < res->noutcomes; i++)
        if (fabs(res->outcomes[i].p_exact - res->outcomes[i].p_rendered) > 5e-4)
            differ = 1;
    put(o, "%s: ", differ ? "Outcome (exact / as rolled)" : "Outcome");
    o->n = 0;
    for (int i = 0; i < res->noutcomes; i++) {
        const opfor_viktoria_outcome_t *x = &res->outcomes[i];
        char it[160];
        if (differ)
            snprintf(it, sizeof it, "%s %s / %s", x->label,
                     opfor_calc_pct(x->p_exact, pe, sizeof pe),
                     opfor_calc_pct(x->p_rendered, pr, sizeof pr));
        else
            snprintf(it, sizeof it, "%s %s", x->label,
                     opfor_calc_pct(x->p_rendered, pr, sizeof pr));
        item(o, it);
    }
    put(o, "\n");
}

const char *opfor_viktoria_result_text(const opfor_viktoria_result_t *res, char *buf, size_t size) {
    if (!buf || size == 0)
        return buf;
    out_t o = {buf, size, 0, 0, 0};
    buf[0] = '\0';
    if (!res)
        return buf;
    rolls(&o, res);
    tables(&o, res);
    distances(&o, res);
    outcomes(&o, res);
    return buf;
}
