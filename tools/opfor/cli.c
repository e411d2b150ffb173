/* tools/opfor/cli.c — the command-line helpers every `opfor` subcommand shares (cli.h):
 * error lines with their exit codes, number parsing, and reading flag values, so each command
 * words its errors the same way without its own copy of the flag reader.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int opfor_cli_error(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("opfor: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

int opfor_cli_is_help(const char *s) {
    return s && (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0);
}

int opfor_cli_parse_long(const char *s, long *out) {
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int opfor_cli_parse_double(const char *s, double *out) {
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || v != v)
        return -1;
    *out = v;
    return 0;
}

int opfor_cli_is_flag(const char *a, const char *name) {
    size_t n = strlen(name);
    return strncmp(a, name, n) == 0 && (a[n] == '\0' || a[n] == '=');
}

/* "a whole number from LO to HI", or "... >= LO" when there is no upper bound; returns buf. */
static const char *describe_range(long lo, long hi, char *buf, size_t size) {
    if (hi == LONG_MAX)
        snprintf(buf, size, "a whole number >= %ld", lo);
    else
        snprintf(buf, size, "a whole number from %ld to %ld", lo, hi);
    return buf;
}

/* True when v is a whole number from lo to hi (read into *out). */
static int long_in(const char *v, long lo, long hi, long *out) {
    return opfor_cli_parse_long(v, out) == 0 && *out >= lo && *out <= hi;
}

const char *opfor_cli_value(opfor_cli_args_t *p, const char *what) {
    const char *a = p->argv[p->i], *eq = strchr(a, '=');
    if (eq)
        return eq + 1;
    if (p->i + 1 >= p->argc) {
        if (what)
            opfor_cli_usage_error("%s: %s needs a value: %s", p->who, a, what);
        else
            opfor_cli_usage_error("%s: %s needs a value", p->who, a);
        return NULL;
    }
    return p->argv[++p->i];
}

int opfor_cli_long(opfor_cli_args_t *p, long lo, long hi, long *out) {
    const char *a = p->argv[p->i];
    char range[96];
    describe_range(lo, hi, range, sizeof range);
    const char *v = opfor_cli_value(p, p->say_what ? range : NULL);
    if (!v)
        return OPFOR_EXIT_USAGE;
    if (long_in(v, lo, hi, out))
        return 0;
    /* the flag's name: a up to any '=' */
    return opfor_cli_usage_error("%s: %.*s must be %s, got '%s'", p->who, (int)strcspn(a, "="), a,
                                 range, v);
}

int opfor_cli_long_flag(opfor_cli_args_t *p, const opfor_cli_long_flag_t *flags, size_t n,
                        int *rc) {
    for (size_t k = 0; k < n; k++)
        if (opfor_cli_is_flag(p->argv[p->i], flags[k].name)) {
            *rc = opfor_cli_long(p, flags[k].lo, flags[k].hi, flags[k].out);
            return 1;
        }
    return 0;
}

const char *opfor_cli_next(opfor_cli_args_t *p, const char *what) {
    if (p->i + 1 >= p->argc) {
        opfor_cli_usage_error("%s: %s needs %s", p->who, p->argv[p->i], what);
        return NULL;
    }
    return p->argv[++p->i];
}

int opfor_cli_next_long(opfor_cli_args_t *p, long lo, long hi, long *out) {
    const char *a = p->argv[p->i];
    if (++p->i < p->argc && long_in(p->argv[p->i], lo, hi, out))
        return 0;
    char range[96];
    return opfor_cli_usage_error("%s: %s needs %s", p->who, a,
                                 describe_range(lo, hi, range, sizeof range));
}

int opfor_cli_next_double(opfor_cli_args_t *p, double lo, double hi, const char *what,
                          double *out) {
    const char *a = p->argv[p->i];
    if (++p->i >= p->argc || opfor_cli_parse_double(p->argv[p->i], out) != 0 || *out < lo ||
        *out > hi)
        return opfor_cli_usage_error("%s: %s needs %s", p->who, a, what);
    return 0;
}
