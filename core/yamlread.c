/* core/yamlread.c — the typed readers that walk a libfyaml document with a strict schema.
 *
 * Scenario files (core/scenario.c) and a ruleset's own settings blocks
 * are read with these, so an unknown key, a misspelt
 * name or a number out of range reads the same in both, at its file:line:column. The few
 * ways the two readers differ are kept by opfor_yaml_rd_t.strict (see opfor/yamlread.h).
 */
#include "opfor/yamlread.h"

#include <errno.h>
#include <libfyaml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longest value text a strict reader takes, with its NUL; a lax one takes LAX_TEXT. */
#define STRICT_TEXT 256
#define LAX_TEXT 64
/* Longest true/false text a lax reader takes, with its NUL. */
#define LAX_BOOL_TEXT 16

void opfor_yaml_mark(struct fy_node *n, int *line, int *col) {
    *line = *col = 0;
    for (int depth = 0; n && depth < 64; depth++) {
        if (fy_node_is_scalar(n) || fy_node_is_alias(n)) {
            struct fy_token *t = fy_node_get_scalar_token(n);
            const struct fy_mark *m = t ? fy_token_start_mark(t) : NULL;
            if (m) {
                *line = m->line + 1;
                *col = m->column + 1;
            }
            return;
        }
        if (fy_node_is_mapping(n)) {
            struct fy_node_pair *p = fy_node_mapping_get_by_index(n, 0);
            n = p ? fy_node_pair_key(p) : NULL;
        } else if (fy_node_is_sequence(n)) {
            n = fy_node_sequence_get_by_index(n, 0);
        } else {
            return;
        }
    }
}

void opfor_yaml_vreport(opfor_diag_t *d, int err, struct fy_node *n, struct fy_node *alt,
                        const char *fmt, va_list ap) {
    char msg[sizeof d->msg];
    int line, col;
    vsnprintf(msg, sizeof msg, fmt, ap);
    opfor_yaml_mark(n, &line, &col);
    if (line == 0)
        opfor_yaml_mark(alt, &line, &col);
    opfor_diag_set(d, err, line, col, "%s", msg);
}

int opfor_yaml_fail(opfor_yaml_rd_t *rd, int err, struct fy_node *n, struct fy_node *alt,
                    const char *fmt, ...) {
    if (rd->err)
        return rd->err;
    rd->err = err;
    va_list ap;
    va_start(ap, fmt);
    opfor_yaml_vreport(rd->diag, err, n, alt, fmt, ap);
    va_end(ap);
    return err;
}

const char *opfor_yaml_shown(struct fy_node *n, char *buf, size_t size) {
    size_t len = 0;
    const char *s = n && fy_node_is_scalar(n) ? fy_node_get_scalar(n, &len) : NULL;
    if (!s)
        return n && fy_node_is_sequence(n)  ? "a list"
               : n && fy_node_is_mapping(n) ? "a mapping"
                                            : "nothing";
    if (len > 40)
        len = 40;
    size_t k = 0;
    buf[k++] = '\'';
    for (size_t i = 0; i < len && k + 2 < size; i++)
        buf[k++] = (s[i] >= 32 && s[i] < 127) ? s[i] : '?';
    buf[k++] = '\'';
    buf[k] = '\0';
    return buf;
}

int opfor_yaml_not_alias(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                         const char *what) {
    if (!n)
        return opfor_yaml_fail(rd, OPFOR_EPARSE, alt, NULL, "missing value for %s", what);
    if (fy_node_is_alias(n))
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "YAML aliases are not supported (in %s)",
                               what);
    return 0;
}

/* n is a mapping (mapping = 1) or a sequence (0). */
static int want(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt, const char *what,
                int mapping) {
    if (opfor_yaml_not_alias(rd, n, alt, what))
        return rd->err;
    if (mapping ? !fy_node_is_mapping(n) : !fy_node_is_sequence(n))
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "expected %s for %s",
                               mapping ? "a mapping (key: value)" : "a list", what);
    return 0;
}

int opfor_yaml_want_map(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        const char *what) {
    return want(rd, n, alt, what, 1);
}

int opfor_yaml_want_seq(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        const char *what) {
    return want(rd, n, alt, what, 0);
}

int opfor_yaml_get_str(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                       const char *what, char *buf, size_t size) {
    if (rd->strict && opfor_yaml_not_alias(rd, n, alt, what))
        return rd->err;
    size_t len = 0;
    const char *s =
        n && !fy_node_is_alias(n) && fy_node_is_scalar(n) ? fy_node_get_scalar(n, &len) : NULL;
    if (!s)
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "expected a single value for %s", what);
    if (len >= size)
        return opfor_yaml_fail(rd, OPFOR_ERANGE, n, alt, "%s is too long: at most %zu bytes", what,
                               size - 1);
    if (memchr(s, '\0', len))
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "%s contains a NUL character", what);
    memcpy(buf, s, len);
    buf[len] = '\0';
    return 0;
}

/* The text of scalar n for a typed reader, in buf[size]: 0 with the text; 1 when n holds no
 * text the reader can take (it then says what it expected); or the error recorded. checked:
 * text too long or holding a NUL is an error rather than no text (always so when strict). */
static int value_text(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt, const char *what,
                      char *buf, size_t size, int checked) {
    if (rd->strict) {
        if (opfor_yaml_not_alias(rd, n, alt, what))
            return rd->err;
        checked = 1;
    }
    if (!n || fy_node_is_alias(n) || !fy_node_is_scalar(n))
        return 1;
    if (checked)
        return opfor_yaml_get_str(rd, n, alt, what, buf, size) ? rd->err : 0;
    size_t len = 0;
    const char *s = fy_node_get_scalar(n, &len);
    if (!s || len >= size)
        return 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return 0;
}

int opfor_yaml_get_num(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                       const char *what, double lo, double hi, double *out) {
    char buf[STRICT_TEXT], sh[48];
    if (value_text(rd, n, alt, what, buf, rd->strict ? STRICT_TEXT : LAX_TEXT, 1))
        return rd->err
                   ? rd->err
                   : opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "expected a number for %s, found %s",
                                     what, opfor_yaml_shown(n, sh, sizeof sh));
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || *end || !(v == v))
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "expected a number for %s, found %s", what,
                               opfor_yaml_shown(n, sh, sizeof sh));
    /* a number, but a huge one (1e300, inf): say what range is wanted */
    if (errno == ERANGE || (rd->strict && (v > 1e9 || v < -1e9)))
        return opfor_yaml_fail(rd, OPFOR_ERANGE, n, alt, "%s must be between %g and %g, found %s",
                               what, lo, hi, opfor_yaml_shown(n, sh, sizeof sh));
    if (v < lo || v > hi)
        return opfor_yaml_fail(rd, OPFOR_ERANGE, n, alt, "%s must be between %g and %g, found %g",
                               what, lo, hi, v);
    *out = v;
    return 0;
}

int opfor_yaml_get_int(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                       const char *what, long lo, long hi, int *out) {
    char buf[STRICT_TEXT], sh[48];
    if (value_text(rd, n, alt, what, buf, rd->strict ? STRICT_TEXT : LAX_TEXT, 1))
        return rd->err ? rd->err
                       : opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt,
                                         "expected a whole number for %s, found %s", what,
                                         opfor_yaml_shown(n, sh, sizeof sh));
    char *end;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (end == buf || *end || errno == ERANGE)
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "expected a whole number for %s, found %s",
                               what, opfor_yaml_shown(n, sh, sizeof sh));
    if (v < lo || v > hi)
        return opfor_yaml_fail(rd, OPFOR_ERANGE, n, alt,
                               "%s must be between %ld and %ld, found %ld", what, lo, hi, v);
    *out = (int)v;
    return 0;
}

int opfor_yaml_get_bool(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        const char *what, int *out) {
    static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no", "off"};
    char buf[STRICT_TEXT], sh[48];
    int t = value_text(rd, n, alt, what, buf, rd->strict ? STRICT_TEXT : LAX_BOOL_TEXT, 0);
    if (t < 0)
        return t;
    for (int i = 0; t == 0 && i < 3; i++) {
        if (strcasecmp(buf, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcasecmp(buf, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "expected true or false for %s, found %s",
                           what, opfor_yaml_shown(n, sh, sizeof sh));
}

int opfor_yaml_get_enum(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        const char *what, const opfor_name_t *table, int *out) {
    char buf[STRICT_TEXT], sh[48], list[400];
    int t = value_text(rd, n, alt, what, buf, rd->strict ? STRICT_TEXT : LAX_TEXT, 0);
    if (t < 0)
        return t;
    if (t == 0 && opfor_vocab_lookup(table, buf, out) == 0)
        return 0;
    return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "unknown %s %s; expected one of: %s", what,
                           opfor_yaml_shown(n, sh, sizeof sh),
                           opfor_vocab_list(table, list, sizeof list));
}

int opfor_yaml_get_bits(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        const char *what, const opfor_name_t *table, unsigned how, unsigned *out) {
    unsigned bits = 0;
    int v;
    if (rd->strict && opfor_yaml_not_alias(rd, n, alt, what))
        return rd->err;
    if (n && !fy_node_is_alias(n) && fy_node_is_scalar(n)) {
        if (how & OPFOR_YAML_BITS_NONE) {
            char buf[STRICT_TEXT];
            if (opfor_yaml_get_str(rd, n, alt, what, buf, sizeof buf))
                return rd->err;
            if (strcasecmp(buf, "none") == 0) {
                *out = 0;
                return 0;
            }
        }
        if (opfor_yaml_get_enum(rd, n, alt, what, table, &v))
            return rd->err;
        bits = how & OPFOR_YAML_BITS_SHIFT ? 1u << v : (unsigned)v;
    } else if (n && fy_node_is_sequence(n)) {
        void *it = NULL;
        struct fy_node *item;
        while ((item = fy_node_sequence_iterate(n, &it)) != NULL) {
            if (opfor_yaml_get_enum(rd, item, n, what, table, &v))
                return rd->err;
            bits |= how & OPFOR_YAML_BITS_SHIFT ? 1u << v : (unsigned)v;
        }
    } else {
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt,
                               "expected a name or a list of names for %s", what);
    }
    *out = bits;
    return 0;
}

int opfor_yaml_read_fields(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                           const char *what, opfor_yaml_field_t *f, int nf) {
    if (opfor_yaml_want_map(rd, n, alt, what))
        return rd->err;
    void *it = NULL;
    struct fy_node_pair *p;
    while ((p = fy_node_mapping_iterate(n, &it)) != NULL) {
        struct fy_node *k = fy_node_pair_key(p);
        size_t len = 0;
        const char *s =
            k && fy_node_is_scalar(k) && !fy_node_is_alias(k) ? fy_node_get_scalar(k, &len) : NULL;
        int found = -1;
        for (int i = 0; s && i < nf; i++)
            if (strlen(f[i].key) == len && memcmp(f[i].key, s, len) == 0)
                found = i;
        if (found < 0) {
            char allowed[600], sh[48];
            size_t used = 0;
            allowed[0] = '\0';
            for (int i = 0; i < nf; i++) {
                int w = snprintf(allowed + used, sizeof allowed - used, "%s%s", i ? ", " : "",
                                 f[i].key);
                if (w < 0 || (size_t)w >= sizeof allowed - used)
                    break;
                used += (size_t)w;
            }
            return opfor_yaml_fail(rd, OPFOR_EPARSE, k, n, "unknown key %s in %s; allowed keys: %s",
                                   s ? opfor_yaml_shown(k, sh, sizeof sh) : "(not a plain name)",
                                   what, allowed);
        }
        f[found].k = k;
        f[found].v = fy_node_pair_value(p);
        if (!f[found].v)
            return opfor_yaml_fail(rd, OPFOR_EPARSE, k, n, "missing value for '%s' in %s",
                                   f[found].key, what);
    }
    return 0;
}

static void quiet_output(struct fy_diag *diag, void *user, const char *buf, size_t len) {
    (void)diag;
    (void)user;
    (void)buf;
    (void)len;
}

int opfor_yaml_parse(const char *text, size_t len, struct fy_document **doc, opfor_diag_t *d) {
    *doc = NULL;
    struct fy_diag_cfg dcfg;
    fy_diag_cfg_default(&dcfg);
    dcfg.fp = NULL;
    dcfg.output_fn = quiet_output;
    dcfg.colorize = false;
    struct fy_diag *fd = fy_diag_create(&dcfg);
    if (!fd)
        return opfor_diag_set(d, OPFOR_ENOMEM, 0, 0, "out of memory");
    fy_diag_set_collect_errors(fd, true);
    struct fy_parse_cfg cfg = {NULL, FYPCF_QUIET | FYPCF_COLLECT_DIAG, NULL, fd};
    *doc = fy_document_build_from_string(&cfg, text, len);
    int rc = 0;
    if (!*doc) {
        /* No document and no error: the text is empty or only comments (the caller decides
         * whether that is allowed). libfyaml's positions are already 1-based. */
        void *it = NULL;
        struct fy_diag_error *e = fy_diag_errors_iterate(fd, &it);
        if (e)
            rc = opfor_diag_set(d, OPFOR_EPARSE, e->line > 0 ? e->line : 1,
                                e->column > 0 ? e->column : 1, "YAML syntax: %s",
                                e->msg ? e->msg : "cannot parse");
    }
    fy_diag_set_collect_errors(fd, false); /* frees the collected errors (0.7.12 leaks them) */
    fy_diag_destroy(fd);
    return rc;
}
