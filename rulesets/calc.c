/* rulesets/calc.c — the calculator's shared machinery (opfor/ruleset_calc.h): reading a field
 * through a ruleset's parse hook or the generic parser, wording what a field allows, checking
 * and running an action, and building and walking the tree of a ruleset's own parts of an
 * answer. Every front end (the CLI, the daemon, the table page) goes through these, so a
 * ruleset's calculator is asked and answered the same way everywhere.
 */
#include "opfor/ruleset_calc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- fields */

int opfor_calc_parse(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                     int field, const char *text, opfor_value_t *v, char *msg, size_t n) {
    if (!c || !form || !v || field < 0 || field >= form->nfields)
        return OPFOR_EINVAL;
    if (c->parse)
        return c->parse(model, form, field, text, v, msg, n);
    return opfor_field_parse(&form->fields[field], text ? text : "yes", v, msg, n);
}

/* Appends s to buf (n bytes) at *len, keeping it terminated. */
static void put(char *buf, size_t n, size_t *len, const char *s) {
    if (*len + 1 >= n)
        return;
    int w = snprintf(buf + *len, n - *len, "%s", s);
    if (w > 0)
        *len += (size_t)w < n - *len ? (size_t)w : n - *len - 1;
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
        put(buf, n, &len, "yes, no");
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
        put(buf, n, &len, tmp);
        if (fd->unit && fd->unit[0] && fd->type != OPFOR_FIELD_DICE) {
            put(buf, n, &len, " ");
            put(buf, n, &len, fd->unit);
        }
        if (fd->choices && fd->choices[0])
            put(buf, n, &len, ", or ");
        /* fall through */
    case OPFOR_FIELD_CHOICE: /* (and the names a number field also takes) */
        for (int i = 0; fd->choices && fd->choices[i]; i++) {
            if (i)
                put(buf, n, &len, ", ");
            put(buf, n, &len, fd->choices[i]);
        }
        break;
    case OPFOR_FIELD_POINT:
        put(buf, n, &len, "a point x,y in inches");
        break;
    default:
        put(buf, n, &len, "a name");
        break;
    }
    return buf;
}

int opfor_calc_run(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                   const opfor_value_t *vals, const char *rolled, opfor_calc_answer_t *out,
                   char *msg, size_t n) {
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
    memset(out, 0, sizeof *out);
    out->allowed = 1;
    return c->run(model, form, vals, rolled, out, msg, n);
}

/* ---------------------------------------------------------------- answers */

const char *opfor_calc_pct(double p, char *buf, size_t n) {
    double pc = p * 100.0;
    if (pc > 0.0 && pc < 1.0)
        snprintf(buf, n, "%.2f%%", pc);
    else
        snprintf(buf, n, "%.1f%%", pc);
    return buf;
}

/* Appends "sep name" to buf, keeping the string terminated when it is cut. */
static void list_add(char *buf, size_t n, size_t *len, const char *sep, const char *prefix,
                     const char *name) {
    if (*len + 1 >= n)
        return;
    int w = snprintf(buf + *len, n - *len, "%s%s%s", sep, prefix, name);
    if (w > 0)
        *len += (size_t)w < n - *len ? (size_t)w : n - *len - 1;
}

const char *opfor_calc_action_list(const opfor_ruleset_calc_t *c, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->nactions; i++)
        list_add(buf, n, &len, i ? ", " : "", "", c->actions[i].name);
    return buf;
}

const char *opfor_calc_field_list(const opfor_form_t *form, const char *prefix, char *buf,
                                  size_t n) {
    size_t len = 0;
    snprintf(buf, n, "%s", form->nfields ? "" : "(none)");
    for (int i = 0; i < form->nfields; i++)
        list_add(buf, n, &len, i ? ", " : "", prefix, form->fields[i].name);
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
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name ? name : "");
    snprintf(f->label, sizeof f->label, "%s", label ? label : f->name);
    f->value = value;
    snprintf(f->unit, sizeof f->unit, "%s", unit ? unit : "");
    snprintf(f->text, sizeof f->text, "%s", text ? text : "");
    return 0;
}

int opfor_calc_note(opfor_calc_answer_t *a, const char *text) {
    if (a->nnotes >= OPFOR_CALC_MAX_NOTES) {
        a->overflow = 1;
        return OPFOR_ERANGE;
    }
    snprintf(a->notes[a->nnotes++], sizeof a->notes[0], "%s", text ? text : "");
    return 0;
}

/* ---------------------------------------------------------------- the extra tree */

/* s copied into the pool: its offset, or -1 when it does not fit. */
static int pool_add(opfor_calc_answer_t *a, const char *s) {
    size_t len = strlen(s) + 1;
    if ((size_t)a->pool_used + len > sizeof a->pool)
        return -1;
    memcpy(a->pool + a->pool_used, s, len);
    int at = a->pool_used;
    a->pool_used += (int)len;
    return at;
}

/* Appends a node. Once something did not fit nothing more is added, so the tree ends with
 * whatever entries were complete (the walkers stop at an unclosed one). */
static int node_add(opfor_calc_answer_t *a, int type, const char *key, const char *s, double num) {
    if (a->overflow || a->nextra >= OPFOR_CALC_MAX_EXTRA) {
        a->overflow = 1;
        return OPFOR_ERANGE;
    }
    opfor_calc_node_t *x = &a->extra[a->nextra];
    x->type = type;
    x->key = key ? pool_add(a, key) : -1;
    x->str = s ? pool_add(a, s) : -1;
    x->num = num;
    if ((key && x->key < 0) || (s && x->str < 0)) {
        a->overflow = 1;
        return OPFOR_ERANGE;
    }
    a->nextra++;
    return 0;
}

int opfor_calc_extra_map(opfor_calc_answer_t *a, const char *key) {
    return node_add(a, OPFOR_CALC_NODE_MAP, key, NULL, 0);
}

int opfor_calc_extra_array(opfor_calc_answer_t *a, const char *key) {
    return node_add(a, OPFOR_CALC_NODE_ARRAY, key, NULL, 0);
}

int opfor_calc_extra_end(opfor_calc_answer_t *a) {
    return node_add(a, OPFOR_CALC_NODE_END, NULL, NULL, 0);
}

int opfor_calc_extra_str(opfor_calc_answer_t *a, const char *key, const char *s) {
    return node_add(a, OPFOR_CALC_NODE_STR, key, s ? s : "", 0);
}

int opfor_calc_extra_int(opfor_calc_answer_t *a, const char *key, long long v) {
    return node_add(a, OPFOR_CALC_NODE_INT, key, NULL, (double)v);
}

int opfor_calc_extra_num(opfor_calc_answer_t *a, const char *key, double v) {
    return node_add(a, OPFOR_CALC_NODE_NUM, key, NULL, v);
}

int opfor_calc_extra_bool(opfor_calc_answer_t *a, const char *key, int v) {
    return node_add(a, OPFOR_CALC_NODE_BOOL, key, NULL, v ? 1 : 0);
}

int opfor_calc_extra_nil(opfor_calc_answer_t *a, const char *key) {
    return node_add(a, OPFOR_CALC_NODE_NIL, key, NULL, 0);
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
    int t = a->extra[i].type;
    if (t != OPFOR_CALC_NODE_MAP && t != OPFOR_CALC_NODE_ARRAY)
        return i + 1;
    int depth = 0;
    for (int k = i; k < a->nextra; k++) {
        t = a->extra[k].type;
        if (t == OPFOR_CALC_NODE_MAP || t == OPFOR_CALC_NODE_ARRAY)
            depth++;
        else if (t == OPFOR_CALC_NODE_END && --depth == 0)
            return k + 1;
    }
    return -1; /* unclosed (the tree overflowed) */
}

int opfor_calc_extra_count(const opfor_calc_answer_t *a, int i) {
    if (i < 0 || i >= a->nextra)
        return 0;
    int t = a->extra[i].type;
    if (t != OPFOR_CALC_NODE_MAP && t != OPFOR_CALC_NODE_ARRAY)
        return 0;
    int count = 0;
    for (int k = i + 1; k < a->nextra && a->extra[k].type != OPFOR_CALC_NODE_END;) {
        int next = opfor_calc_extra_next(a, k);
        if (next < 0)
            break;
        count++;
        k = next;
    }
    return count;
}
