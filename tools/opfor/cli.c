/* tools/opfor/cli.c — the command-line helpers every `opfor` subcommand shares (cli.h):
 * error lines with their exit codes, number parsing, and reading flag values, so each command
 * words its errors the same way without its own copy of the flag reader.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

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

int opfor_cli_parse_xy(const char *s, double *x, double *y) {
    char buf[128];
    if (!s || strlen(s) >= sizeof buf)
        return -1;
    snprintf(buf, sizeof buf, "%s", s);
    char *sep = strchr(buf, ',');
    if (!sep) { /* "X Y": the first run of blanks between two words */
        char *p = buf;
        while (*p == ' ' || *p == '\t')
            p++;
        sep = strpbrk(p, " \t");
        if (!sep)
            return -1;
    }
    *sep = '\0';
    char *a = buf, *b = sep + 1, *e;
    while (*a == ' ' || *a == '\t')
        a++;
    while (*b == ' ' || *b == '\t')
        b++;
    for (e = a + strlen(a); e > a && (e[-1] == ' ' || e[-1] == '\t');)
        *--e = '\0';
    for (e = b + strlen(b); e > b && (e[-1] == ' ' || e[-1] == '\t');)
        *--e = '\0';
    double vx, vy;
    if (opfor_cli_parse_double(a, &vx) || opfor_cli_parse_double(b, &vy))
        return -1;
    *x = vx;
    *y = vy;
    return 0;
}

unsigned long opfor_cli_fresh_seed(void) {
    uint32_t v;
    if (getrandom(&v, sizeof v, GRND_NONBLOCK) == (ssize_t)sizeof v)
        return v;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x =
        ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
    x ^= x >> 33; /* one splitmix64 finalizer */
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (unsigned long)(uint32_t)x;
}

/* True when argument a is flag name, alone or as "name=value". */
static int is_flag(const char *a, const char *name) {
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

/* ------------------------------------------------------------------ option tables */

const char *opfor_cli_wants(const opfor_cli_opt_t *o, char *buf, size_t size) {
    if (o->wants) {
        snprintf(buf, size, "%s", o->wants);
        return buf;
    }
    switch (o->type) {
    case OPFOR_CLI_WHOLE:
        return describe_range(o->lo, o->hi, buf, size);
    case OPFOR_CLI_NUMBER:
        if (o->max == HUGE_VAL)
            snprintf(buf, size, "a number %s %g", o->above ? ">" : ">=", o->min);
        else if (o->above)
            snprintf(buf, size, "a number above %g and at most %g", o->min, o->max);
        else
            snprintf(buf, size, "a number from %g to %g", o->min, o->max);
        return buf;
    case OPFOR_CLI_CHOICE: {
        /* "a, b or c": the canonical names (the first entry for each value) */
        size_t n = 0, count = 0, len = 0;
        for (size_t k = 0; o->names[k].name; k++)
            if (strcmp(opfor_vocab_name(o->names, o->names[k].value), o->names[k].name) == 0)
                count++;
        buf[0] = '\0';
        for (size_t k = 0; o->names[k].name && len < size; k++) {
            if (strcmp(opfor_vocab_name(o->names, o->names[k].value), o->names[k].name) != 0)
                continue;
            const char *sep = n == 0 ? "" : n + 1 == count ? " or " : ", ";
            int w = snprintf(buf + len, size - len, "%s%s", sep, o->names[k].name);
            len += w > 0 ? (size_t)w : 0;
            n++;
        }
        return buf;
    }
    case OPFOR_CLI_FLAG:
    case OPFOR_CLI_NOFLAG:
        snprintf(buf, size, "no value");
        return buf;
    default:
        snprintf(buf, size, "a value");
        return buf;
    }
}

/* Whether opt takes a value after it. */
static int takes_value(const opfor_cli_opt_t *o) {
    return o->type != OPFOR_CLI_FLAG && o->type != OPFOR_CLI_NOFLAG;
}

/* The option a names (a is "--name" or "--name=value"), or NULL. */
static const opfor_cli_opt_t *find_opt(const opfor_cli_opt_t *opts, const char *a) {
    for (const opfor_cli_opt_t *o = opts; o->name; o++)
        if (is_flag(a, o->name) || (o->alias && is_flag(a, o->alias)))
            return o;
    return NULL;
}

/* "CMD: unknown flag 'A' (flags: --a, --b, --help)". */
static int unknown_flag(const opfor_cli_spec_t *s, const char *a) {
    char names[1024];
    size_t len = 0;
    names[0] = '\0';
    for (const opfor_cli_opt_t *o = s->opts; o->name && len < sizeof names; o++) {
        int w = snprintf(names + len, sizeof names - len, "%s, ", o->name);
        len += w > 0 ? (size_t)w : 0;
    }
    return opfor_cli_usage_error("%s: unknown flag '%s' (flags: %s--help)", s->cmd, a, names);
}

/* Stores value v of option o (its name as written: flag); returns 0 or OPFOR_EXIT_USAGE. */
static int store(const opfor_cli_spec_t *s, const opfor_cli_opt_t *o, const char *v) {
    char wants[512];
    switch (o->type) {
    case OPFOR_CLI_WHOLE:
        if (!long_in(v, o->lo, o->hi, o->whole))
            goto bad;
        return 0;
    case OPFOR_CLI_NUMBER: {
        double d;
        if (opfor_cli_parse_double(v, &d) != 0 || d < o->min || (o->above && d == o->min) ||
            d > o->max)
            goto bad;
        *o->number = d;
        return 0;
    }
    case OPFOR_CLI_STRING:
        if (o->valid && !o->valid(v))
            goto bad;
        if (o->once && *o->string)
            return opfor_cli_usage_error("%s: %s given twice ('%s', then '%s')", s->cmd, o->name,
                                         *o->string, v);
        *o->string = v;
        return 0;
    case OPFOR_CLI_CHOICE: {
        int val;
        if (opfor_vocab_lookup(o->names, v, &val) != 0)
            goto bad;
        if (o->choice)
            *o->choice = val;
        if (o->string)
            *o->string = opfor_vocab_name(o->names, val);
        return 0;
    }
    case OPFOR_CLI_LIST:
        if (o->valid && !o->valid(v))
            goto bad;
        if (o->list->n >= o->list->cap)
            return opfor_cli_usage_error("%s: %s may be given at most %zu times", s->cmd, o->name,
                                         o->list->cap);
        if (o->list->flags)
            o->list->flags[o->list->n] = o->name;
        o->list->items[o->list->n++] = v;
        return 0;
    default:
        return 0;
    }
bad:
    return opfor_cli_usage_error("%s: %s must be %s, got '%s'", s->cmd, o->name,
                                 opfor_cli_wants(o, wants, sizeof wants), v);
}

/* Whether a is a positional argument rather than a flag: "-", "-5", "-.5" and plain words. */
static int is_positional(const char *a) {
    return a[0] != '-' || a[1] == '\0' || (a[1] >= '0' && a[1] <= '9') || a[1] == '.';
}

/* Hands a to the command's positional callback, or refuses it. */
static int positional(const opfor_cli_spec_t *s, const char *a) {
    if (!s->positional)
        return opfor_cli_usage_error("%s: unexpected argument '%s' (%s takes no arguments; see "
                                     "opfor %s --help)",
                                     s->cmd, a, s->cmd, s->cmd);
    return s->positional(s->ud, a);
}

int opfor_cli_parse(const opfor_cli_spec_t *s, int argc, char **argv, int first, int *exit_code) {
    int rc = 0;
    for (int i = first; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc && rc == 0; i++)
                rc = positional(s, argv[i]);
            break;
        }
        if (opfor_cli_is_help(a)) {
            opfor_cli_usage(stdout, s);
            *exit_code = OPFOR_EXIT_OK;
            return 1;
        }
        if (is_positional(a)) {
            rc = positional(s, a);
            continue;
        }
        const opfor_cli_opt_t *o = find_opt(s->opts, a);
        if (!o) {
            rc = unknown_flag(s, a);
            continue;
        }
        const char *eq = strchr(a, '=');
        if (!takes_value(o)) {
            if (eq)
                rc = opfor_cli_usage_error("%s: %s takes no value, got '%s'", s->cmd, o->name,
                                           eq + 1);
            else
                *o->flag = o->type == OPFOR_CLI_FLAG;
            continue;
        }
        const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!v || !*v) {
            char wants[512];
            rc = opfor_cli_usage_error("%s: %s needs a value: %s", s->cmd, o->name,
                                       opfor_cli_wants(o, wants, sizeof wants));
            continue;
        }
        rc = store(s, o, v);
    }
    *exit_code = rc;
    return rc != 0;
}

/* Writes text with every line after the first indented by indent spaces. */
static void put_indented(FILE *f, const char *text, int indent) {
    for (const char *p = text; *p; p++) {
        fputc(*p, f);
        if (*p == '\n' && p[1])
            fprintf(f, "%*s", indent, "");
    }
}

/* The width of an option's left column: "  --name ARG, --alias". */
static int opt_left(const opfor_cli_opt_t *o, char *buf, size_t size) {
    int n;
    if (takes_value(o))
        n = snprintf(buf, size, "  %s %s", o->name, o->arg ? o->arg : "VALUE");
    else
        n = snprintf(buf, size, "  %s", o->name);
    return n;
}

#define USAGE_WIDTH 80  /* wrap the generated synopsis before this column */
#define HELP_COL_MAX 26 /* option help starts at most at this column */

void opfor_cli_usage(FILE *f, const opfor_cli_spec_t *s) {
    if (s->usage) {
        fprintf(f, "usage: opfor %s %s\n", s->cmd, s->usage);
    } else {
        /* usage: opfor CMD ARGS [--a N] [--b] ..., wrapped under the first option */
        int col = fprintf(f, "usage: opfor %s", s->cmd);
        if (s->args)
            col += fprintf(f, " %s", s->args);
        int indent = (int)strlen("usage: opfor ") + (int)strlen(s->cmd) + 1;
        for (const opfor_cli_opt_t *o = s->opts; o->name; o++) {
            char item[160];
            int w = takes_value(o)
                        ? snprintf(item, sizeof item, "[%s %s]", o->name, o->arg ? o->arg : "VALUE")
                        : snprintf(item, sizeof item, "[%s]", o->name);
            if (col + 1 + w > USAGE_WIDTH) {
                col = fprintf(f, "\n%*s", indent - 1, "") - 1;
            }
            col += fprintf(f, " %s", item);
        }
        fputc('\n', f);
    }
    if (s->about) {
        fputc('\n', f);
        fputs(s->about, f);
        if (s->about[strlen(s->about) - 1] != '\n')
            fputc('\n', f);
    }
    int helpcol = (int)strlen("  -h, --help") + 2;
    for (const opfor_cli_opt_t *o = s->opts; o->name; o++) {
        char left[160];
        int w = opt_left(o, left, sizeof left) + 2;
        if (w > helpcol && w <= HELP_COL_MAX)
            helpcol = w;
    }
    fputs("\noptions:\n", f);
    for (const opfor_cli_opt_t *o = s->opts; o->name; o++) {
        char left[160];
        int w = opt_left(o, left, sizeof left);
        fputs(left, f);
        if (w + 2 > helpcol)
            fprintf(f, "\n%*s", helpcol, "");
        else
            fprintf(f, "%*s", helpcol - w, "");
        put_indented(f, o->help ? o->help : "", helpcol);
        if (o->alias && o->alias[1] == '-') /* a long alias is an old name kept */
            fprintf(f, "\n%*s(%s is the old name, still accepted)", helpcol, "", o->alias);
        else if (o->alias) /* a short one is just shorter */
            fprintf(f, "\n%*s(short: %s)", helpcol, "", o->alias);
        fputc('\n', f);
    }
    fprintf(f, "  -h, --help%*sthis text\n", helpcol - (int)strlen("  -h, --help"), "");
    if (s->epilog) {
        fputc('\n', f);
        fputs(s->epilog, f);
        if (s->epilog[0] && s->epilog[strlen(s->epilog) - 1] != '\n')
            fputc('\n', f);
    }
}
