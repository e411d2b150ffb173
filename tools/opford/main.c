/* tools/opford/main.c — opford, the opfor daemon: flags, config file, logging, the loop.
 *
 * Thin on purpose: the server lives in io/ (opfor/server.h). This file turns flags and the
 * YAML config into an opfor_config_t (defaults < file < flags, rebuilt the same way on SIGHUP),
 * prints log lines to stderr with a level prefix, tells systemd when it is ready, and runs the
 * libuv loop until a signal stops it. Exit codes: 0 clean stop, 1 failure, 2 bad command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "opfor/config.h"
#include "opfor/notify.h"
#include "opfor/server.h"

#include "display_sink.h"
#include "qr_term.h"

#include <unistd.h>

typedef struct opford_args {
    const char *config;    /* --config FILE, or NULL */
    int nflags;            /* entries used in key/value */
    char key[32][48];      /* option keys given as flags, in order */
    const char *value[32]; /* their values */
} opford_args_t;

/* A link as a QR code on standard output (a terminal), under a line saying which it is. */
static void print_qr(const char *what, const char *url) {
    static char qr[64 * 1024];
    if (opfor_qr_term(url, 1, qr, sizeof qr) > 0)
        printf("opford: %s, to scan:\n%s", what, qr);
}

static void usage(FILE *f) {
    opfor_config_t def;
    opfor_config_defaults(&def);
    fprintf(f, "usage: opford [OPTIONS]\n\n"
               "opford serves opfor games over MessagePack-RPC (see docs/protocol.md).\n\n"
               "options (each also works as a key in the --config file):\n");
    for (const opfor_config_option_t *o = opfor_config_options(); o->key; o++) {
        char left[64];
        snprintf(left, sizeof left, "--%s %s", o->key, o->arg);
        fprintf(f, "  %-32s %s\n", left, o->help);
    }
    fprintf(f, "  %-32s %s\n", "--config FILE", "read options from a YAML file (flags win)");
    fprintf(f, "  %-32s %s\n", "--help", "show this help");
    fprintf(f, "  %-32s %s\n", "--version", "print the version");
    fprintf(f,
            "\ndefaults here: socket %s, state-dir %s\n"
            "signals: SIGTERM/SIGINT stop (a second one exits at once), SIGHUP reloads --config\n"
            "and the --model file\n",
            def.socket[0] ? def.socket : "none", def.state_dir);
}

static int usage_error(const char *fmt, const char *a, const char *b) {
    fputs("opford: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputs("\n(try opford --help)\n", stderr);
    return 2;
}

static int known_key(const char *key) {
    for (const opfor_config_option_t *o = opfor_config_options(); o->key; o++)
        if (strcmp(o->key, key) == 0)
            return 1;
    return 0;
}

/* Splits argv into --config and option flags; returns -1 (exit 0: help/version shown), 0, or 2. */
static int parse_args(int argc, char **argv, opford_args_t *a) {
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return -1;
        }
        if (strcmp(arg, "--version") == 0) {
            printf("opford %s (api_level %d)\n", opfor_server_version(), OPFOR_API_LEVEL);
            return -1;
        }
        if (strncmp(arg, "--", 2) != 0)
            return usage_error("unexpected argument '%s'%s", arg, "");
        const char *name = arg + 2, *eq = strchr(name, '='), *val;
        size_t klen = eq ? (size_t)(eq - name) : strlen(name);
        if (klen >= sizeof a->key[0] || a->nflags >= 32)
            return usage_error("unknown option '%s'%s", arg, "");
        char *key = a->key[a->nflags];
        memcpy(key, name, klen);
        key[klen] = '\0';
        if (strcmp(key, "config") != 0 && !known_key(key))
            return usage_error("unknown option '--%s'%s", key, "");
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return usage_error("--%s needs a value%s", key, "");
        if (strcmp(key, "config") == 0) {
            a->config = val;
            continue;
        }
        a->value[a->nflags] = val;
        a->nflags++;
    }
    return 0;
}

/* defaults < file < flags. bad_flag is set when a flag (not the file) was at fault. */
static int build_config(const opford_args_t *a, opfor_config_t *c, opfor_diag_t *d, int *bad_flag) {
    opfor_config_defaults(c);
    opfor_diag_clear(d);
    *bad_flag = 0;
    if (a->config) {
        int rc = opfor_config_load_file(c, a->config, d);
        if (rc < 0)
            return rc;
    }
    for (int i = 0; i < a->nflags; i++) {
        opfor_diag_clear(d);
        int rc = opfor_config_set(c, a->key[i], a->value[i], d);
        if (rc < 0) {
            /* name the flag: "--log-level: 'x' is not one of ..." */
            memmove(d->msg + 2, d->msg, sizeof d->msg - 3);
            d->msg[sizeof d->msg - 1] = '\0';
            d->msg[0] = d->msg[1] = '-';
            *bad_flag = 1;
            return rc;
        }
    }
    opfor_diag_clear(d);
    int rc = opfor_config_check(c, d);
    if (rc < 0) {
        *bad_flag = 1;
        return rc;
    }
    /* The display-* settings are parsed here, not in io (io does not know display/). */
    rc = opford_display_check(c, d->msg, sizeof d->msg);
    if (rc < 0) {
        for (int i = 0; i < a->nflags; i++)
            if (strncmp(a->key[i], "display", 7) == 0)
                *bad_flag = 1;
        if (!*bad_flag && a->config)
            snprintf(d->file, sizeof d->file, "%s", a->config);
    }
    return rc;
}

/* "file:line:col: msg" when the problem is in a file, else just the message. */
static const char *diag_text(const opfor_diag_t *d, char *buf, size_t size) {
    if (!d->file[0])
        return d->msg;
    return opfor_diag_format(d, buf, size);
}

static int reload_config(void *ud, opfor_config_t *out, opfor_diag_t *d) {
    int bad_flag;
    return build_config(ud, out, d, &bad_flag);
}

static void log_line(void *ud, int level, const char *line) {
    static const int prio[] = {3, 4, 6, 7}; /* syslog priorities for journald */
    if (ud)
        fprintf(stderr, "<%d>%s: %s\n", prio[level], opfor_log_level_name(level), line);
    else
        fprintf(stderr, "opford: %s: %s\n", opfor_log_level_name(level), line);
}

int main(int argc, char **argv) {
    opford_args_t args;
    int rc = parse_args(argc, argv, &args);
    if (rc)
        return rc < 0 ? 0 : rc;

    opfor_config_t cfg;
    opfor_diag_t d;
    int bad_flag;
    char where[1024];
    if (build_config(&args, &cfg, &d, &bad_flag) < 0) {
        fprintf(stderr, "opford: error: %s\n", diag_text(&d, where, sizeof where));
        return bad_flag ? 2 : 1;
    }

    /* Under systemd, stderr goes to the journal, which reads "<N>" as the line's priority. */
    int journal = 1;
    opfor_server_hooks_t hooks = {
        .log = log_line,
        .log_ud = getenv("JOURNAL_STREAM") ? &journal : NULL,
        .reload = reload_config, /* also re-reads a --model file without --config */
        .reload_ud = &args,
    };
    uv_loop_t loop;
    if (uv_loop_init(&loop) != 0) {
        fprintf(stderr, "opford: error: cannot start the event loop\n");
        return 1;
    }
    opfor_server_t *srv;
    if (opfor_server_new(&srv, &loop, &cfg, &hooks) < 0) {
        fprintf(stderr, "opford: error: out of memory\n");
        return 1;
    }
    opford_display_t *display = NULL; /* --display: the e-ink panel (display_sink.c) */
    if (opford_display_start(&display, srv, &cfg, hooks.log_ud != NULL, where, sizeof where) < 0) {
        log_line(hooks.log_ud, OPFOR_LOG_ERROR, where);
        opfor_server_free(srv);
        uv_loop_close(&loop);
        return 1;
    }
    opfor_diag_clear(&d);
    rc = opfor_server_start(srv, &d);
    if (rc < 0) {
        const char *text = diag_text(&d, where, sizeof where);
        opfor_state_holder_t holder; /* another daemon has the directory: say what to do */
        if (opfor_server_state_dir_holder(srv, &holder)) {
            snprintf(where, sizeof where,
                     "%s; one daemon per state directory: stop that one, or give this one "
                     "another --state-dir",
                     d.msg);
            text = where;
        }
        log_line(hooks.log_ud, OPFOR_LOG_ERROR, text);
        opford_display_stop(display, srv);
        opfor_server_free(srv);
        uv_loop_close(&loop);
        return 1;
    }
    opford_display_resume(display, srv); /* the current game's card, or "Waiting for orders" */
    opfor_server_log(srv, OPFOR_LOG_INFO, "opford %s ready (pid %ld)", opfor_server_version(),
                     (long)uv_os_getpid());
    char url[200]; /* printed whatever the log level: port 0 picks one, and a person opens it */
    if (opfor_server_http_url(srv, url, sizeof url) == 0) {
        printf("opford: table page at %s\n", url);
        opfor_server_http_link(srv, 1, url, sizeof url);
        printf("opford: game master's link: %s\n", url);
        if (isatty(STDOUT_FILENO)) /* a phone scans it off the screen */
            print_qr("the game master's link", url);
        opfor_server_http_link(srv, 2, url, sizeof url);
        printf("opford: players' link: %s\n", url);
        if (isatty(STDOUT_FILENO))
            print_qr("the players' link", url);
        fflush(stdout);
    }
    opfor_sd_notify(NULL, "READY=1\nSTATUS=accepting connections");
    uv_run(&loop, UV_RUN_DEFAULT);
    opford_display_stop(display, srv); /* the panel sleeps */
    opfor_server_free(srv);
    uv_loop_close(&loop);
    return 0;
}
