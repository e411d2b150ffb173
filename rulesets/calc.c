/* rulesets/calc.c — the calculator's shared machinery (opfor/ruleset_calc.h): reading a field
 * through a ruleset's parse hook or the generic parser, wording what a field allows, checking
 * and running an action, and building and walking the tree of a ruleset's own parts of an
 * answer. Every front end (the CLI, the daemon, the table page) goes through these, so a
 * ruleset's calculator is asked and answered the same way everywhere.
 */
#include "opfor/ruleset_calc.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "opfor/text.h"

/* ---------------------------------------------------------------- fields */

int opfor_calc_parse(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                     int field, const char *text, opfor_value_t *v, char *msg, size_t n) {
    if (!c || !form || !v || field < 0 || field >= form->nfields)
        return OPFOR_EINVAL;
    if (c->parse)
        return c->parse(model, form, field, text, v, msg, n);
    return opfor_field_parse(&form->fields[field], text ? text : "yes", v, msg, n);
}

const char *opfor_calc_allowed(const opfor_ruleset_calc_t *c, const void *model,
                               const opfor_form_t *form, int field, char *buf, size_t n) {
    if (!buf || n == 0)
        return buf;
    buf[0] = '\0';
    if (!c || !form || field < 0 || field >= form->nfields)
        return buf;
    if (c->allowed)
        return c->allowed(model, form, field, buf, n);
    const opfor_field_t *fd = &form->fields[field];
    size_t len = 0;
    char tmp[64];
    switch (fd->type) {
    case OPFOR_FIELD_BOOL:
        opfor_text_appendf(buf, n, &len, "%s", "yes, no");
        break;
    case OPFOR_FIELD_INT:
    case OPFOR_FIELD_NUM:
    case OPFOR_FIELD_DICE:
        if (fd->min != 0.0 || fd->max != 0.0)
            snprintf(tmp, sizeof tmp, "%g..%g", fd->min, fd->max);
        else
            snprintf(tmp, sizeof tmp, "%s",
                     fd->type == OPFOR_FIELD_INT   ? "a whole number"
                     : fd->type == OPFOR_FIELD_NUM ? "a number"
                                                   : "dice such as 2,5,1");
        opfor_text_appendf(buf, n, &len, "%s", tmp);
        if (fd->unit && fd->unit[0] && fd->type != OPFOR_FIELD_DICE) {
            opfor_text_appendf(buf, n, &len, "%s", " ");
            opfor_text_appendf(buf, n, &len, "%s", fd->unit);
        }
        if (fd->choices && fd->choices[0])
            opfor_text_appendf(buf, n, &len, "%s", ", or ");
        /* fall through */
    case OPFOR_FIELD_CHOICE: /* (and the names a number field also takes) */
        for (int i = 0; fd->choices && fd->choices[i]; i++) {
            if (i)
                opfor_text_appendf(buf, n, &len, "%s", ", ");
            opfor_text_appendf(buf, n, &len, "%s", fd->choices[i]);
        }
        break;
    case OPFOR_FIELD_POINT:
        opfor_text_appendf(buf, n, &len, "%s", "a point x,y in inches");
        break;
    default:
        opfor_text_appendf(buf, n, &len, "%s", "a name");
        break;
    }
    return buf;
}

void opfor_calc_answer_clear(opfor_calc_answer_t *a) {
    unsigned skip = a->skip;
    /* the scalars and short strings before the distribution, then each count and string */
    memset(a, 0, offsetof(opfor_calc_answer_t, dist));
    a->skip = skip;
    a->nfacts = a->nnotes = a->rolled = a->success = 0;
    a->outcome[0] = a->text[0] = '\0';
    a->nextra = a->depth = a->pool_used = a->overflow = a->nwritten = 0;
}

int opfor_calc_run(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                   const opfor_value_t *vals, const char *rolled, opfor_calc_answer_t *out,
                   char *msg, size_t n) {
    return opfor_calc_run_skip(c, model, form, vals, rolled, 0, out, msg, n);
}

int opfor_calc_run_skip(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                        const opfor_value_t *vals, const char *rolled, unsigned skip,
                        opfor_calc_answer_t *out, char *msg, size_t n) {
    return opfor_calc_run_to(c, model, form, vals, rolled, skip, NULL, out, msg, n);
}

int opfor_calc_run_to(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                      const opfor_value_t *vals, const char *rolled, unsigned skip,
                      const opfor_calc_writer_t *writer, opfor_calc_answer_t *out, char *msg,
                      size_t n) {
    if (msg && n)
        msg[0] = '\0';
    if (!c || !c->run || !form || !out) {
        if (msg && n)
            snprintf(msg, n, "no calculator or action");
        return OPFOR_EINVAL;
    }
    int rc = opfor_form_check(form, vals, msg, n);
    if (rc)
        return rc;
    out->skip = skip;
    out->writer = writer;
    opfor_calc_answer_clear(out);
    out->allowed = 1;
    return c->run(model, form, vals, rolled, out, msg, n);
}

/* ---------------------------------------------------------------- answers */

int opfor_calc_forbid(opfor_calc_answer_t *a, const char *fmt, ...) {
    if (!a)
        return 0;
    a->allowed = 0;
    a->reason[0] = '\0';
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(a->reason, sizeof a->reason, fmt, ap);
        va_end(ap);
    }
    if (!a->reason[0])
        snprintf(a->reason, sizeof a->reason, "the rules forbid this roll");
    return 0;
}

const char *opfor_calc_pct(double p, char *buf, size_t n) {
    double pc = p * 100.0;
    if (pc > 0.0 && pc < 1.0)
        snprintf(buf, n, "%.2f%%", pc);
    else
        snprintf(buf, n, "%.1f%%", pc);
    return buf;
}

const char *opfor_calc_action_list(const opfor_ruleset_calc_t *c, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->nactions; i++)
        opfor_text_appendf(buf, n, &len, "%s%s", i ? ", " : "", c->actions[i].name);
    return buf;
}

const char *opfor_calc_field_list(const opfor_form_t *form, const char *prefix, char *buf,
                                  size_t n) {
    size_t len = 0;
    snprintf(buf, n, "%s", form->nfields ? "" : "(none)");
    for (int i = 0; i < form->nfields; i++)
        opfor_text_appendf(buf, n, &len, "%s%s%s", i ? ", " : "", prefix, form->fields[i].name);
    return buf;
}

const opfor_field_t *opfor_calc_field_anywhere(const opfor_ruleset_calc_t *c, const char *name) {
    for (int a = 0; a < c->nactions; a++) {
        int k = opfor_form_field(&c->actions[a], name);
        if (k >= 0)
            return &c->actions[a].fields[k];
    }
    return NULL;
}

int opfor_calc_fact(opfor_calc_answer_t *a, const char *name, const char *label, double value,
                    const char *unit, const char *text) {
    if (a->nfacts >= OPFOR_CALC_MAX_FACTS) {
        a->overflow = 1;
        return OPFOR_ERANGE;
    }
    opfor_calc_fact_t *f = &a->facts[a->nfacts++];
    opfor_text_copy(f->name, sizeof f->name, name);
    opfor_text_copy(f->label, sizeof f->label, label ? label : f->name);
    f->value = value;
    opfor_text_copy(f->unit, sizeof f->unit, unit);
    opfor_text_copy(f->text, sizeof f->text, text);
    return 0;
}

int opfor_calc_note(opfor_calc_answer_t *a, const char *text) {
    if (a->nnotes >= OPFOR_CALC_MAX_NOTES) {
        a->overflow = 1;
        return OPFOR_ERANGE;
    }
    opfor_text_copy(a->notes[a->nnotes++], sizeof a->notes[0], text);
    return 0;
}

/* ---------------------------------------------------------------- the extra tree */

/* s copied into the pool: its offset (its length in *len), or -1 when it does not fit. */
static int pool_add(opfor_calc_answer_t *a, const char *s, int *len) {
    size_t n = strlen(s);
    if ((size_t)a->pool_used + n + 1 > sizeof a->pool)
        return -1;
    memcpy(a->pool + a->pool_used, s, n + 1);
    int at = a->pool_used;
    a->pool_used += (int)n + 1;
    *len = (int)n;
    return at;
}

/* Hands a node to a->writer, under the tree's limits (nodes, depth, pool bytes: node_add's
 * checks), so that a writer sees exactly the nodes the tree would hold. */
static inline int node_write(opfor_calc_answer_t *a, int type, const char *key, const char *s,
                             double num) {
    int container = type == OPFOR_CALC_NODE_MAP || type == OPFOR_CALC_NODE_ARRAY;
    size_t klen = key ? strlen(key) : 0, slen = s ? strlen(s) : 0;
    size_t need = (key ? klen + 1 : 0) + (s ? slen + 1 : 0);
    if (a->overflow || a->nwritten >= OPFOR_CALC_MAX_EXTRA ||
        (container && a->depth >= OPFOR_CALC_MAX_DEPTH) ||
        (type == OPFOR_CALC_NODE_END && a->depth == 0) ||
        (size_t)a->pool_used + need > sizeof a->pool ||
        a->writer->node(a->writer->ctx, type, key, klen, s, slen, num) != 0) {
        a->overflow = 1;
        return OPFOR_ERANGE;
    }
    a->pool_used += (int)need;
    if (type == OPFOR_CALC_NODE_END)
        a->depth--;
    else if (container)
        a->open[a->depth++] = a->nwritten;
    a->nwritten++;
    return 0;
}

/* Appends a node to the tree. Once something did not fit nothing more is added, so the tree
 * ends with whatever entries were complete (the walkers stop at an unclosed one). */
static __attribute__((noinline)) /* (out of the writer's path: see NODE) */ int
node_add(opfor_calc_answer_t *a, int type, const char *key, const char *s, double num) {
    int container = type == OPFOR_CALC_NODE_MAP || type == OPFOR_CALC_NODE_ARRAY;
    if (a->overflow || a->nextra >= OPFOR_CALC_MAX_EXTRA ||
        (container && a->depth >= OPFOR_CALC_MAX_DEPTH) ||
        (type == OPFOR_CALC_NODE_END && a->depth == 0)) {
        a->overflow = 1;
        return OPFOR_ERANGE;
    }
    opfor_calc_node_t *x = &a->extra[a->nextra];
    x->type = type;
    x->klen = x->slen = 0;
    x->key = key ? pool_add(a, key, &x->klen) : -1;
    x->str = s ? pool_add(a, s, &x->slen) : -1;
    x->end = x->count = 0;
    x->num = num;
    if ((key && x->key < 0) || (s && x->str < 0)) {
        a->overflow = 1;
        return OPFOR_ERANGE;
    }
    if (type == OPFOR_CALC_NODE_END) {
        a->extra[a->open[--a->depth]].end = a->nextra + 1;
    } else {
        if (a->depth > 0)
            a->extra[a->open[a->depth - 1]].count++;
        if (container)
            a->open[a->depth++] = a->nextra;
    }
    a->nextra++;
    return 0;
}

/* A node to the writer, or to the tree (each call here: the writer's path is the daemon's, per
 * request, so it goes there directly). */
#define NODE(a, type, key, s, num)                                                                 \
    ((a)->writer ? node_write((a), (type), (key), (s), (num))                                      \
                 : node_add((a), (type), (key), (s), (num)))

int opfor_calc_extra_map(opfor_calc_answer_t *a, const char *key) {
    return NODE(a, OPFOR_CALC_NODE_MAP, key, NULL, 0);
}

int opfor_calc_extra_array(opfor_calc_answer_t *a, const char *key) {
    return NODE(a, OPFOR_CALC_NODE_ARRAY, key, NULL, 0);
}

int opfor_calc_extra_end(opfor_calc_answer_t *a) {
    return NODE(a, OPFOR_CALC_NODE_END, NULL, NULL, 0);
}

int opfor_calc_extra_str(opfor_calc_answer_t *a, const char *key, const char *s) {
    return NODE(a, OPFOR_CALC_NODE_STR, key, s ? s : "", 0);
}

int opfor_calc_extra_int(opfor_calc_answer_t *a, const char *key, long long v) {
    return NODE(a, OPFOR_CALC_NODE_INT, key, NULL, (double)v);
}

int opfor_calc_extra_num(opfor_calc_answer_t *a, const char *key, double v) {
    return NODE(a, OPFOR_CALC_NODE_NUM, key, NULL, v);
}

int opfor_calc_extra_bool(opfor_calc_answer_t *a, const char *key, int v) {
    return NODE(a, OPFOR_CALC_NODE_BOOL, key, NULL, v ? 1 : 0);
}

int opfor_calc_extra_nil(opfor_calc_answer_t *a, const char *key) {
    return NODE(a, OPFOR_CALC_NODE_NIL, key, NULL, 0);
}

const char *opfor_calc_extra_key(const opfor_calc_answer_t *a, int i) {
    if (i < 0 || i >= a->nextra || a->extra[i].key < 0)
        return "";
    return a->pool + a->extra[i].key;
}

const char *opfor_calc_extra_text(const opfor_calc_answer_t *a, int i) {
    if (i < 0 || i >= a->nextra || a->extra[i].str < 0)
        return "";
    return a->pool + a->extra[i].str;
}

int opfor_calc_extra_next(const opfor_calc_answer_t *a, int i) {
    if (i < 0 || i >= a->nextra)
        return -1;
    const opfor_calc_node_t *x = &a->extra[i];
    if (x->type != OPFOR_CALC_NODE_MAP && x->type != OPFOR_CALC_NODE_ARRAY)
        return i + 1;
    return x->end > 0 ? x->end : -1; /* -1: unclosed (the tree overflowed) */
}

int opfor_calc_extra_count(const opfor_calc_answer_t *a, int i) {
    if (i < 0 || i >= a->nextra)
        return 0;
    const opfor_calc_node_t *x = &a->extra[i];
    if (x->type != OPFOR_CALC_NODE_MAP && x->type != OPFOR_CALC_NODE_ARRAY)
        return 0;
    return x->count;
}
