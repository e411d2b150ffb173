/* rulesets/form.c — reading and checking the typed forms of opfor/form.h: one parser for a
 * field's text (a flag on the command line, a value from the table page), one check of a
 * whole form, so every client refuses bad input with the same words.
 */
#include "opfor/form.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opfor/error.h"
#include "opfor/text.h"
#include "opfor/vocab.h"

static const char *const TYPE_NAMES[OPFOR_FIELD_TYPE_COUNT] = {
    "int", "number", "bool", "choice", "text", "unit", "point", "dice",
};

const char *opfor_field_type_name(int type) {
    if (type < 0 || type >= OPFOR_FIELD_TYPE_COUNT)
        return "?";
    return TYPE_NAMES[type];
}

const opfor_form_t *opfor_form_find(const opfor_form_t *forms, int n, const char *name) {
    if (!forms || !name)
        return NULL;
    for (int i = 0; i < n; i++)
        if (opfor_vocab_name_eq(forms[i].name, name))
            return &forms[i];
    return NULL;
}

int opfor_form_field(const opfor_form_t *f, const char *name) {
    if (!f || !name)
        return -1;
    for (int i = 0; i < f->nfields; i++)
        if (opfor_vocab_name_eq(f->fields[i].name, name) ||
            (f->fields[i].alias && opfor_vocab_name_eq(f->fields[i].alias, name)))
            return i;
    return -1;
}

static int limited(const opfor_field_t *fd) {
    return fd->min != 0.0 || fd->max != 0.0;
}

/* Writes "name: what is allowed" into msg; returns err. */
static int bad(int err, char *msg, size_t n, const opfor_field_t *fd, const char *text,
               const char *what) {
    if (msg && n)
        snprintf(msg, n, "%s: '%s' is not %s", fd->name, text, what);
    return err;
}

static int parse_number(const char *text, double *out) {
    char *end = NULL;
    errno = 0;
    double d = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(d))
        return -1;
    *out = d;
    return 0;
}

/* The index of text among fd's choices, or -1. */
static int choice_index(const opfor_field_t *fd, const char *text) {
    for (int i = 0; fd->choices && fd->choices[i]; i++)
        if (opfor_vocab_name_eq(fd->choices[i], text))
            return i;
    return -1;
}

static int choice_count(const opfor_field_t *fd) {
    int k = 0;
    while (fd->choices && fd->choices[k])
        k++;
    return k;
}

int opfor_field_parse(const opfor_field_t *fd, const char *text, opfor_value_t *v, char *msg,
                      size_t n) {
    if (!fd || !text || !v)
        return OPFOR_EINVAL;
    memset(v, 0, sizeof *v);
    v->text = text;
    char what[160];
    switch (fd->type) {
    case OPFOR_FIELD_INT:
    case OPFOR_FIELD_NUM: {
        double d;
        int k = choice_index(fd, text);
        if (k >= 0) { /* one of the names it also takes */
            v->num = k;
            v->named = 1;
            break;
        }
        if (parse_number(text, &d) != 0 || (fd->type == OPFOR_FIELD_INT && d != floor(d)))
            return bad(OPFOR_EINVAL, msg, n, fd, text,
                       fd->type == OPFOR_FIELD_INT ? "a whole number" : "a number");
        if (limited(fd) && (d < fd->min || d > fd->max)) {
            snprintf(what, sizeof what, "within %g to %g", fd->min, fd->max);
            return bad(OPFOR_ERANGE, msg, n, fd, text, what);
        }
        v->num = d;
        break;
    }
    case OPFOR_FIELD_BOOL:
        if (!strcasecmp(text, "yes") || !strcasecmp(text, "true") || !strcmp(text, "1") ||
            !strcasecmp(text, "on"))
            v->num = 1;
        else if (!strcasecmp(text, "no") || !strcasecmp(text, "false") || !strcmp(text, "0") ||
                 !strcasecmp(text, "off"))
            v->num = 0;
        else
            return bad(OPFOR_EINVAL, msg, n, fd, text, "yes or no");
        break;
    case OPFOR_FIELD_CHOICE: {
        int i = choice_index(fd, text);
        if (i < 0) {
            size_t k = (size_t)snprintf(what, sizeof what, "one of");
            for (int j = 0; fd->choices && fd->choices[j] && k < sizeof what; j++)
                k += (size_t)snprintf(what + k, sizeof what - k, "%s %s", j ? "," : "",
                                      fd->choices[j]);
            return bad(OPFOR_EINVAL, msg, n, fd, text, what);
        }
        v->num = i;
        break;
    }
    case OPFOR_FIELD_POINT: {
        double x, y;
        char buf[64];
        snprintf(buf, sizeof buf, "%s", text);
        char *comma = strchr(buf, ',');
        if (!comma)
            return bad(OPFOR_EINVAL, msg, n, fd, text, "a point x,y in inches");
        *comma = '\0';
        if (parse_number(buf, &x) != 0 || parse_number(comma + 1, &y) != 0)
            return bad(OPFOR_EINVAL, msg, n, fd, text, "a point x,y in inches");
        break;
    }
    case OPFOR_FIELD_DICE: {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", text);
        int count = 0;
        for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save), count++) {
            double d;
            if (parse_number(tok, &d) != 0 || d != floor(d))
                return bad(OPFOR_EINVAL, msg, n, fd, text, "dice such as 2,5,1");
            if (limited(fd) && (d < fd->min || d > fd->max)) {
                snprintf(what, sizeof what, "dice each within %g to %g", fd->min, fd->max);
                return bad(OPFOR_ERANGE, msg, n, fd, text, what);
            }
        }
        if (count == 0)
            return bad(OPFOR_EINVAL, msg, n, fd, text, "dice such as 2,5,1");
        v->num = count;
        break;
    }
    case OPFOR_FIELD_TEXT:
    case OPFOR_FIELD_UNIT:
        if (!text[0])
            return bad(OPFOR_EINVAL, msg, n, fd, text, "a name");
        break;
    default:
        return OPFOR_EINVAL;
    }
    v->set = 1;
    return 0;
}

int opfor_form_check(const opfor_form_t *f, const opfor_value_t *vals, char *msg, size_t n) {
    if (!f || (f->nfields > 0 && !vals))
        return OPFOR_EINVAL;
    for (int i = 0; i < f->nfields; i++) {
        const opfor_field_t *fd = &f->fields[i];
        const opfor_value_t *v = &vals[i];
        if (!v->set) {
            if (fd->flags & OPFOR_FIELD_REQUIRED) {
                if (msg && n)
                    snprintf(msg, n, "%s: required (%s)", fd->name, fd->label ? fd->label : "");
                return OPFOR_EINVAL;
            }
            continue;
        }
        if ((fd->type == OPFOR_FIELD_INT || fd->type == OPFOR_FIELD_NUM) && v->named) {
            if (v->num < 0 || v->num >= choice_count(fd) || v->num != floor(v->num)) {
                if (msg && n)
                    snprintf(msg, n, "%s: name %g is out of range", fd->name, v->num);
                return OPFOR_EINVAL;
            }
            continue;
        }
        if ((fd->type == OPFOR_FIELD_INT || fd->type == OPFOR_FIELD_NUM) && limited(fd) &&
            (v->num < fd->min || v->num > fd->max)) {
            if (msg && n)
                snprintf(msg, n, "%s: %g is not within %g to %g", fd->name, v->num, fd->min,
                         fd->max);
            return OPFOR_EINVAL;
        }
        if (fd->type == OPFOR_FIELD_CHOICE) {
            int k = choice_count(fd);
            if (v->num < 0 || v->num >= k || v->num != floor(v->num)) {
                if (msg && n)
                    snprintf(msg, n, "%s: choice %g is out of range", fd->name, v->num);
                return OPFOR_EINVAL;
            }
        }
    }
    return 0;
}

int opfor_field_resolve(const opfor_field_t *fd, const opfor_value_t *v, opfor_value_t *out) {
    memset(out, 0, sizeof *out);
    if (v && v->set) {
        *out = *v;
        return 1;
    }
    if (fd->flags & (OPFOR_FIELD_OPTIONAL | OPFOR_FIELD_REQUIRED))
        return 0;
    int has_text = fd->def_text && fd->def_text[0];
    switch (fd->type) {
    case OPFOR_FIELD_CHOICE:
        out->num = has_text ? choice_index(fd, fd->def_text) : -1;
        out->set = out->num >= 0;
        return out->set;
    case OPFOR_FIELD_INT:
    case OPFOR_FIELD_NUM:
        if (has_text && choice_index(fd, fd->def_text) >= 0) { /* a name as the default */
            out->num = choice_index(fd, fd->def_text);
            out->named = 1;
        } else {
            out->num = fd->def;
        }
        out->set = 1;
        return 1;
    case OPFOR_FIELD_BOOL:
        out->num = fd->def != 0.0;
        out->set = 1;
        return 1;
    default:
        out->text = has_text ? fd->def_text : NULL;
        out->set = has_text;
        return out->set;
    }
}

const char *opfor_field_text(const opfor_field_t *fd, const opfor_value_t *v, char *buf, size_t n) {
    if (!buf || n == 0)
        return buf;
    /* (names are copied, not printed: the daemon words every field of every answer) */
    int k = choice_count(fd);
    if (!v || !v->set)
        opfor_text_copy(buf, n, "unset");
    else if (fd->type == OPFOR_FIELD_BOOL)
        opfor_text_copy(buf, n, v->num != 0.0 ? "yes" : "no");
    else if (fd->type == OPFOR_FIELD_CHOICE ||
             ((fd->type == OPFOR_FIELD_INT || fd->type == OPFOR_FIELD_NUM) && v->named))
        opfor_text_copy(buf, n, v->num >= 0 && v->num < k ? fd->choices[(int)v->num] : "?");
    else if (fd->type == OPFOR_FIELD_INT || fd->type == OPFOR_FIELD_NUM)
        snprintf(buf, n, "%g%s%s", v->num, fd->unit && fd->unit[0] ? " " : "",
                 fd->unit ? fd->unit : "");
    else
        opfor_text_copy(buf, n, v->text ? v->text : "");
    return buf;
}
