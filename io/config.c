/* io/config.c — opford's option table, defaults, YAML loading (libfyaml) and checks.
 *
 * Flags and YAML keys share opfor_config_set(), so a value means the same thing in either
 * place. libfyaml is told to collect its diagnostics instead of printing them (libraries never
 * print); the first collected error becomes the opfor_diag_t with file:line:col.
 */
#include "opfor/config.h"

#include "diag_int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libfyaml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "opfor/yamlread.h"
#include "opfor/yamltext.h"

static const opfor_config_option_t options[] = {
    {"socket", "PATH", "Unix socket to listen on, or \"none\" (default: see below)"},
    {"listen", "tcp://HOST:PORT", "also listen on TCP; loopback only unless --token-file is set"},
    {"http", "http://HOST:PORT",
     "serve the table page and its WebSocket (docs/web.md); beyond loopback it needs the links' "
     "tokens; port 0 picks one; --listen http://HOST:PORT is the same"},
    {"token-file", "FILE", "file holding the token TCP clients must give in hello (mode 0600)"},
    {"state-dir", "DIR", "directory for saved games (created 0700)"},
    {"log-level", "LEVEL", "error, warn, info (default) or debug"},
    {"hello-timeout", "DURATION", "drop clients that do not say hello in time (default 10s)"},
    {"idle-timeout", "DURATION", "drop clients silent this long; 0 = never (default 10m)"},
    {"game-idle-unload", "DURATION",
     "a game nobody used this long leaves memory (back from the store on demand); 0 = never "
     "(default 10m)"},
    {"max-inflight", "N", "requests one client may have awaiting responses (default 8)"},
    {"max-clients", "N", "connections at once; more are refused, told why (default 1024)"},
    {"write-queue-max", "SIZE",
     "bytes queued to a client that is not reading before it is "
     "dropped (default 4MiB)"},
    {"model", "FILE",
     "the calculator's model (YAML) for calc, read by the first registered ruleset with a "
     "calculator; default: its built-in one"},
    {"workers", "N", "threads for AI searches; 0 = one fewer than the cores, at least 1 (default)"},
    {"max-queued", "N", "AI searches waiting for a worker; more are refused BUSY (default 1024)"},
    {"debug-methods", "yes|no", "enable debug.* methods such as debug.sleep (default no)"},
    {"display", "SPEC", "e-ink panel for the orders: epd:2in13v4, epd:7in5v2, sim:PANEL:DIR"},
    {"display-rotation", "DEG", "display: 0, 90, 180 or 270; default: landscape"},
    {"display-spidev", "PATH", "display: SPI device (default /dev/spidev0.0)"},
    {"display-gpiochip", "CHIP", "display: GPIO chip label, name or path (default: search)"},
    {"display-gpio-line", "NAME", "display: line name to find the GPIO chip by (default GPIO17)"},
    {"display-pin-rst", "N", "display: reset line (default 17)"},
    {"display-pin-dc", "N", "display: data/command line (default 25)"},
    {"display-pin-busy", "N", "display: busy line (default 24)"},
    {"display-pin-pwr", "N|none", "display: panel supply line (default 18)"},
    {NULL, NULL, NULL},
};

const opfor_config_option_t *opfor_config_options(void) {
    return options;
}

static const char *const level_names[] = {"error", "warn", "info", "debug"};

const char *opfor_log_level_name(int level) {
    return level >= 0 && level <= OPFOR_LOG_DEBUG ? level_names[level] : "?";
}

int opfor_log_level_parse(const char *s) {
    for (int i = 0; i <= OPFOR_LOG_DEBUG; i++)
        if (strcasecmp(s, level_names[i]) == 0)
            return i;
    if (strcasecmp(s, "warning") == 0)
        return OPFOR_LOG_WARN;
    return -1;
}

static int fits(char *buf, size_t size, int n) {
    return n >= 0 && (size_t)n < size ? 0 : OPFOR_ERANGE;
}

/* The length of the first directory in a systemd list: it may name several, separated by ':';
 * ours is the first. */
static int first_dir_len(const char *list) {
    const char *colon = strchr(list, ':');
    return colon ? (int)(colon - list) : (int)strlen(list);
}

int opfor_config_default_socket(char *buf, size_t size, const char *runtime_directory,
                                const char *xdg_runtime_dir, unsigned uid) {
    int n;
    if (runtime_directory && *runtime_directory) {
        n = snprintf(buf, size, "%.*s/opford.sock", first_dir_len(runtime_directory),
                     runtime_directory);
    } else if (xdg_runtime_dir && *xdg_runtime_dir) {
        n = snprintf(buf, size, "%s/opfor/opford.sock", xdg_runtime_dir);
    } else if (uid == 0) {
        n = snprintf(buf, size, "/run/opfor/opford.sock");
    } else {
        n = snprintf(buf, size, "/tmp/opfor-%u/opford.sock", uid);
    }
    if (fits(buf, size, n) || (size_t)n >= sizeof(((struct sockaddr_un *)0)->sun_path))
        return OPFOR_ERANGE;
    return 0;
}

int opfor_config_default_state_dir(char *buf, size_t size, const char *state_directory,
                                   const char *xdg_state_home, const char *home) {
    int n;
    if (state_directory && *state_directory) {
        n = snprintf(buf, size, "%.*s", first_dir_len(state_directory), state_directory);
    } else if (xdg_state_home && *xdg_state_home) {
        n = snprintf(buf, size, "%s/opfor", xdg_state_home);
    } else if (home && *home) {
        n = snprintf(buf, size, "%s/.local/state/opfor", home);
    } else {
        n = snprintf(buf, size, "/var/lib/opfor");
    }
    return fits(buf, size, n);
}

void opfor_config_defaults(opfor_config_t *c) {
    memset(c, 0, sizeof *c);
    if (opfor_config_default_socket(c->socket, sizeof c->socket, getenv("RUNTIME_DIRECTORY"),
                                    getenv("XDG_RUNTIME_DIR"), (unsigned)getuid()) < 0)
        snprintf(c->socket, sizeof c->socket, "/tmp/opfor-%u/opford.sock", (unsigned)getuid());
    if (opfor_config_default_state_dir(c->state_dir, sizeof c->state_dir, getenv("STATE_DIRECTORY"),
                                       getenv("XDG_STATE_HOME"), getenv("HOME")) < 0)
        snprintf(c->state_dir, sizeof c->state_dir, "/var/lib/opfor");
    c->log_level = OPFOR_LOG_INFO;
    c->hello_timeout_ms = 10 * 1000;
    c->idle_timeout_ms = 10 * 60 * 1000;
    c->game_idle_unload_ms = 10 * 60 * 1000;
    c->max_inflight = 8;
    c->max_clients = 1024;
    c->write_queue_max = 4u << 20;
    c->max_queued = 1024; /* OPFOR_WORKERS_MAX_QUEUED_DEFAULT */
    c->display_rotation = -1;
    c->display_pin_rst = c->display_pin_dc = OPFOR_CONFIG_PIN_DEFAULT;
    c->display_pin_busy = c->display_pin_pwr = OPFOR_CONFIG_PIN_DEFAULT;
}

/* Splits "NUMBER[unit]"; the number is a whole decimal. Returns 0 or -1. */
static int number_unit(const char *s, unsigned long long *num, const char **unit) {
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *end;
    *num = strtoull(s, &end, 10);
    if (errno)
        return -1;
    while (*end == ' ')
        end++;
    *unit = end;
    return 0;
}

/* A number with a unit suffix: the units it accepts, what a bad value and an out-of-range one
 * are told, and the smallest total allowed. */
typedef struct unit {
    const char *name;        /* suffix; "" for none */
    unsigned long long mult; /* what one of it is worth */
} unit_t;

typedef struct scaled {
    const char *not_one;   /* after "KEY: 'VALUE' " when the value is not one */
    const char *range;     /* after "KEY: 'VALUE' " when it is out of range */
    unsigned long long lo; /* smallest total */
    unit_t units[8];       /* ends with {NULL, 0} */
} scaled_t;

static const scaled_t as_duration = {"is not a duration (NUMBER[ms|s|m|h], e.g. 10s)",
                                     "is too long (at most 49 days)",
                                     0,
                                     {{"", 1000},
                                      {"s", 1000},
                                      {"ms", 1},
                                      {"m", 60 * 1000},
                                      {"min", 60 * 1000},
                                      {"h", 3600 * 1000},
                                      {NULL, 0}}};

static const scaled_t as_size = {"is not a size (NUMBER[K|M|KiB|MiB], e.g. 4MiB)",
                                 "must be between 1KiB and 4095MiB",
                                 1024,
                                 {{"", 1},
                                  {"B", 1},
                                  {"K", 1024},
                                  {"k", 1024},
                                  {"KiB", 1024},
                                  {"M", 1024 * 1024},
                                  {"MiB", 1024 * 1024},
                                  {NULL, 0}}};

/* Parses v as a number of sc's units into *out (the total in the smallest unit). */
static int parse_scaled(const char *key, const char *v, const scaled_t *sc, uint32_t *out,
                        opfor_diag_t *d) {
    unsigned long long n;
    const char *u;
    unsigned long long mult = 0;
    if (number_unit(v, &n, &u) == 0)
        for (const unit_t *x = sc->units; x->name && !mult; x++)
            if (strcmp(u, x->name) == 0)
                mult = x->mult;
    if (!mult)
        return opfor__diag_msg(d, OPFOR_EINVAL, "%s: '%s' %s", key, v, sc->not_one);
    if (n > UINT32_MAX / mult || n * mult < sc->lo)
        return opfor__diag_msg(d, OPFOR_ERANGE, "%s: '%s' %s", key, v, sc->range);
    *out = (uint32_t)(n * mult);
    return 0;
}

static int parse_count(const char *key, const char *v, uint32_t lo, uint32_t hi, uint32_t *out,
                       opfor_diag_t *d) {
    unsigned long long n;
    const char *u;
    if (number_unit(v, &n, &u) < 0 || *u)
        return opfor__diag_msg(d, OPFOR_EINVAL, "%s: '%s' is not a whole number", key, v);
    if (n < lo || n > hi)
        return opfor__diag_msg(d, OPFOR_ERANGE, "%s: %s is out of range (%u..%u)", key, v, lo, hi);
    *out = (uint32_t)n;
    return 0;
}

static int copy_path(const char *key, const char *v, char *dst, size_t size, opfor_diag_t *d) {
    size_t n = strlen(v);
    if (n >= size)
        return opfor__diag_msg(d, OPFOR_ERANGE, "%s: path is longer than %zu bytes", key, size - 1);
    memcpy(dst, v, n + 1);
    return 0;
}

static int is_none(const char *v) {
    return !*v || strcasecmp(v, "none") == 0 || strcasecmp(v, "off") == 0;
}

/* display-* settings: io stores them; the binaries that drive a panel interpret them. */
static int set_display(opfor_config_t *c, const char *key, const char *v, opfor_diag_t *d) {
    static const char *const pins[] = {"display-pin-rst", "display-pin-dc", "display-pin-busy",
                                       "display-pin-pwr"};
    int *const pin_fields[] = {&c->display_pin_rst, &c->display_pin_dc, &c->display_pin_busy,
                               &c->display_pin_pwr};
    if (strcmp(key, "display") == 0) {
        if (is_none(v)) {
            c->display[0] = '\0';
            return 0;
        }
        return copy_path(key, v, c->display, sizeof c->display, d);
    }
    if (strcmp(key, "display-rotation") == 0) {
        if (!*v || strcasecmp(v, "default") == 0) {
            c->display_rotation = -1;
            return 0;
        }
        if (strcmp(v, "0") && strcmp(v, "90") && strcmp(v, "180") && strcmp(v, "270"))
            return opfor__diag_msg(d, OPFOR_EINVAL,
                                   "display-rotation: '%s' is not one of 0, 90, 180, 270", v);
        c->display_rotation = atoi(v);
        return 0;
    }
    if (strcmp(key, "display-spidev") == 0)
        return copy_path(key, v, c->display_spidev, sizeof c->display_spidev, d);
    if (strcmp(key, "display-gpiochip") == 0)
        return copy_path(key, v, c->display_gpiochip, sizeof c->display_gpiochip, d);
    if (strcmp(key, "display-gpio-line") == 0)
        return copy_path(key, v, c->display_gpio_line, sizeof c->display_gpio_line, d);
    for (int i = 0; i < 4; i++) {
        if (strcmp(key, pins[i]) != 0)
            continue;
        if (!*v || strcasecmp(v, "default") == 0) {
            *pin_fields[i] = OPFOR_CONFIG_PIN_DEFAULT;
            return 0;
        }
        if (i == 3 && is_none(v)) {
            *pin_fields[i] = -1;
            return 0;
        }
        uint32_t n;
        int rc = parse_count(key, v, 0, 511, &n, d);
        if (rc < 0)
            return rc;
        *pin_fields[i] = (int)n;
        return 0;
    }
    return opfor__diag_msg(d, OPFOR_ENOENT, "unknown option '%s'", key);
}

int opfor_config_set(opfor_config_t *c, const char *key, const char *v, opfor_diag_t *d) {
    if (strcmp(key, "socket") == 0) {
        if (is_none(v)) {
            c->socket[0] = '\0';
            return 0;
        }
        if (strlen(v) >= sizeof c->socket)
            return opfor__diag_msg(d, OPFOR_ERANGE,
                                   "socket: path is longer than %zu bytes (a limit of Unix "
                                   "sockets)",
                                   sizeof c->socket - 1);
        return copy_path(key, v, c->socket, sizeof c->socket, d);
    }
    if (strcmp(key, "listen") == 0 || strcmp(key, "http") == 0) {
        int http = strcmp(key, "http") == 0 || strncmp(v, "http://", 7) == 0;
        if (is_none(v)) {
            (http ? c->http : c->listen)[0] = '\0';
            return 0;
        }
        opfor_listen_addr_t a;
        int rc = opfor_config_parse_listen(v, &a, d);
        if (rc < 0)
            return rc;
        if (a.http != http)
            return opfor__diag_msg(d, OPFOR_EINVAL, "%s: '%s' must look like %s://HOST:PORT", key,
                                   v, http ? "http" : "tcp");
        return http ? copy_path("http", v, c->http, sizeof c->http, d)
                    : copy_path(key, v, c->listen, sizeof c->listen, d);
    }
    if (strcmp(key, "token-file") == 0) {
        if (is_none(v)) {
            c->token_file[0] = '\0';
            return 0;
        }
        return copy_path(key, v, c->token_file, sizeof c->token_file, d);
    }
    if (strcmp(key, "state-dir") == 0) {
        if (!*v)
            return opfor__diag_msg(d, OPFOR_EINVAL, "state-dir: must not be empty");
        return copy_path(key, v, c->state_dir, sizeof c->state_dir, d);
    }
    if (strcmp(key, "log-level") == 0) {
        int l = opfor_log_level_parse(v);
        if (l < 0)
            return opfor__diag_msg(d, OPFOR_EINVAL,
                                   "log-level: '%s' is not one of error, warn, info, debug", v);
        c->log_level = l;
        return 0;
    }
    if (strcmp(key, "hello-timeout") == 0)
        return parse_scaled(key, v, &as_duration, &c->hello_timeout_ms, d);
    if (strcmp(key, "idle-timeout") == 0)
        return parse_scaled(key, v, &as_duration, &c->idle_timeout_ms, d);
    if (strcmp(key, "game-idle-unload") == 0)
        return parse_scaled(key, v, &as_duration, &c->game_idle_unload_ms, d);
    if (strcmp(key, "max-inflight") == 0)
        return parse_count(key, v, 1, 1024, &c->max_inflight, d);
    if (strcmp(key, "max-clients") == 0)
        return parse_count(key, v, 1, 4096, &c->max_clients, d);
    if (strcmp(key, "write-queue-max") == 0)
        return parse_scaled(key, v, &as_size, &c->write_queue_max, d);
    if (strcmp(key, "model") == 0) {
        if (is_none(v) || strcasecmp(v, "builtin") == 0 || strcasecmp(v, "built-in") == 0) {
            c->model[0] = '\0';
            return 0;
        }
        return copy_path(key, v, c->model, sizeof c->model, d);
    }
    if (strcmp(key, "workers") == 0)
        return parse_count(key, v, 0, 256, &c->workers, d);
    if (strcmp(key, "max-queued") == 0)
        return parse_count(key, v, 1, 100000, &c->max_queued, d);
    if (strcmp(key, "debug-methods") == 0) {
        static const char *const yes[] = {"yes", "true", "on", "1"};
        static const char *const no[] = {"no", "false", "off", "0"};
        for (int i = 0; i < 4; i++) {
            if (strcasecmp(v, yes[i]) == 0) {
                c->debug_methods = 1;
                return 0;
            }
            if (strcasecmp(v, no[i]) == 0) {
                c->debug_methods = 0;
                return 0;
            }
        }
        return opfor__diag_msg(d, OPFOR_EINVAL, "debug-methods: '%s' is not one of yes, no", v);
    }
    if (strncmp(key, "display", 7) == 0)
        return set_display(c, key, v, d);
    return opfor__diag_msg(d, OPFOR_ENOENT, "unknown option '%s'", key);
}

/* --- YAML --- */

static void mark_of(struct fy_node *n, int *line, int *col) {
    *line = 0;
    *col = 0;
    struct fy_token *t = n ? fy_node_get_scalar_token(n) : NULL;
    const struct fy_mark *m = t ? fy_token_start_mark(t) : NULL;
    if (m) {
        *line = m->line + 1;
        *col = m->column + 1;
    }
}

static int load_doc(opfor_config_t *c, struct fy_document *doc, opfor_diag_t *d) {
    struct fy_node *root = fy_document_root(doc);
    if (!root)
        return 0; /* an empty file sets nothing */
    if (fy_node_get_type(root) != FYNT_MAPPING) {
        if (fy_node_get_type(root) == FYNT_SCALAR && fy_node_is_null(root))
            return 0;
        int line, col;
        mark_of(root, &line, &col);
        d->line = line ? line : 1;
        d->col = col ? col : 1;
        return opfor__diag_msg(d, OPFOR_EPARSE, "the config must be a mapping of option: value");
    }
    void *it = NULL;
    struct fy_node_pair *p;
    while ((p = fy_node_mapping_iterate(root, &it)) != NULL) {
        struct fy_node *k = fy_node_pair_key(p), *v = fy_node_pair_value(p);
        int line, col;
        mark_of(k, &line, &col);
        d->line = line;
        d->col = col;
        if (!k || fy_node_get_type(k) != FYNT_SCALAR)
            return opfor__diag_msg(d, OPFOR_EPARSE, "option names must be plain words");
        size_t klen;
        const char *ktext = fy_node_get_scalar(k, &klen);
        char key[64];
        if (!ktext || klen >= sizeof key)
            return opfor__diag_msg(d, OPFOR_EPARSE, "unknown option");
        memcpy(key, ktext, klen);
        key[klen] = '\0';
        const opfor_config_option_t *o = options;
        while (o->key && strcmp(o->key, key) != 0)
            o++;
        if (!o->key)
            return opfor__diag_msg(d, OPFOR_EPARSE, "unknown option '%s' (see opford --help)", key);
        char val[OPFOR_CONFIG_PATH_MAX];
        val[0] = '\0';
        if (v && !fy_node_is_null(v)) {
            if (fy_node_get_type(v) != FYNT_SCALAR)
                return opfor__diag_msg(d, OPFOR_EPARSE, "%s: expected a single value", key);
            mark_of(v, &line, &col);
            d->line = line;
            d->col = col;
            size_t vlen;
            const char *vtext = fy_node_get_scalar(v, &vlen);
            if (!vtext || vlen >= sizeof val || memchr(vtext, 0, vlen))
                return opfor__diag_msg(d, OPFOR_EPARSE, "%s: value is too long", key);
            memcpy(val, vtext, vlen);
            val[vlen] = '\0';
        }
        int rc = opfor_config_set(c, key, val, d);
        if (rc < 0)
            return rc == OPFOR_ENOENT ? OPFOR_EPARSE : rc;
    }
    d->line = 0;
    d->col = 0;
    return 0;
}

static int load(opfor_config_t *c, const char *text, size_t len, const char *name,
                opfor_diag_t *d) {
    opfor_diag_t local;
    if (!d)
        d = &local;
    opfor_diag_clear(d);
    snprintf(d->file, sizeof d->file, "%s", name ? name : "");

    /* Text is checked before libfyaml sees it (its 0.7 scanner can loop on bad bytes). */
    int trc = opfor_yaml_text_check(text, len, d);
    if (trc < 0)
        return trc;
    struct fy_document *doc = NULL;
    int rc = opfor_yaml_parse(text, len, &doc, d);
    if (rc == 0 && doc) /* no document at all (empty, or only comments): nothing to set */
        rc = load_doc(c, doc, d);
    if (doc)
        fy_document_destroy(doc);
    return rc;
}

int opfor_config_load_string(opfor_config_t *c, const char *text, size_t len, const char *name,
                             opfor_diag_t *d) {
    return load(c, text, len, name, d);
}

int opfor_config_load_file(opfor_config_t *c, const char *path, opfor_diag_t *d) {
    struct stat st;
    if (stat(path, &st) != 0) {
        int e = errno;
        if (d) {
            opfor_diag_clear(d);
            snprintf(d->file, sizeof d->file, "%s", path);
        }
        return opfor__diag_msg(d, e == ENOENT ? OPFOR_ENOENT : OPFOR_EIO, "cannot read: %s",
                               strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        if (d) {
            opfor_diag_clear(d);
            snprintf(d->file, sizeof d->file, "%s", path);
        }
        return opfor__diag_msg(d, OPFOR_EIO, "not a regular file");
    }
    if (st.st_size > OPFOR_CONFIG_MAX_BYTES) {
        if (d) {
            opfor_diag_clear(d);
            snprintf(d->file, sizeof d->file, "%s", path);
        }
        return opfor__diag_msg(d, OPFOR_EINVAL, "larger than %d bytes: not a config file",
                               OPFOR_CONFIG_MAX_BYTES);
    }
    FILE *fp = fopen(path, "rb");
    char *buf = fp ? malloc(OPFOR_CONFIG_MAX_BYTES + 1) : NULL;
    size_t n = buf ? fread(buf, 1, OPFOR_CONFIG_MAX_BYTES + 1, fp) : 0;
    int e = errno;
    int bad = !fp || !buf || ferror(fp) || n > OPFOR_CONFIG_MAX_BYTES;
    if (fp)
        fclose(fp);
    if (bad) {
        free(buf);
        if (d) {
            opfor_diag_clear(d);
            snprintf(d->file, sizeof d->file, "%s", path);
        }
        return opfor__diag_msg(d, !buf && fp ? OPFOR_ENOMEM : OPFOR_EIO, "cannot read: %s",
                               !buf && fp ? "out of memory" : strerror(e));
    }
    int rc = load(c, buf, n, path, d);
    free(buf);
    return rc;
}

/* --- listen address --- */

int opfor_config_parse_listen(const char *s, opfor_listen_addr_t *out, opfor_diag_t *d) {
    memset(out, 0, sizeof *out);
    out->http = strncmp(s, "http://", 7) == 0;
    if (!out->http && strncmp(s, "tcp://", 6) != 0)
        return opfor__diag_msg(
            d, OPFOR_EINVAL, "listen: '%s' must look like tcp://HOST:PORT or http://HOST:PORT", s);
    const char *h = s + (out->http ? 7 : 6), *colon;
    size_t hlen;
    if (*h == '[') {
        const char *close = strchr(h, ']');
        if (!close || close[1] != ':')
            return opfor__diag_msg(d, OPFOR_EINVAL,
                                   "listen: '%s': an IPv6 address goes in brackets, "
                                   "then :PORT",
                                   s);
        hlen = (size_t)(close - h - 1);
        h++;
        colon = close + 1;
        out->ipv6 = 1;
    } else {
        colon = strrchr(h, ':');
        if (!colon)
            return opfor__diag_msg(d, OPFOR_EINVAL, "listen: '%s' lacks :PORT", s);
        hlen = (size_t)(colon - h);
    }
    if (hlen == 0 || hlen >= sizeof out->host)
        return opfor__diag_msg(d, OPFOR_EINVAL, "listen: '%s' lacks a host", s);
    memcpy(out->host, h, hlen);
    out->host[hlen] = '\0';
    const char *p = colon + 1;
    if (!*p || strlen(p) > 5)
        return opfor__diag_msg(d, OPFOR_EINVAL, "listen: '%s': the port must be 0..65535", s);
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return opfor__diag_msg(d, OPFOR_EINVAL, "listen: '%s': the port must be 0..65535", s);
    long port = strtol(p, NULL, 10);
    if (port > 65535)
        return opfor__diag_msg(d, OPFOR_EINVAL, "listen: '%s': the port must be 0..65535", s);
    out->port = (int)port;
    if (!out->ipv6 && strcasecmp(out->host, "localhost") == 0)
        snprintf(out->host, sizeof out->host, "127.0.0.1");
    if (out->ipv6) {
        struct in6_addr a6;
        if (inet_pton(AF_INET6, out->host, &a6) != 1)
            return opfor__diag_msg(d, OPFOR_EINVAL, "listen: '%s' is not an IPv6 address",
                                   out->host);
        out->loopback = IN6_IS_ADDR_LOOPBACK(&a6);
    } else {
        struct in_addr a4;
        if (inet_pton(AF_INET, out->host, &a4) != 1)
            return opfor__diag_msg(
                d, OPFOR_EINVAL,
                "listen: '%s' is not a numeric IPv4 address (names are not resolved; "
                "use localhost, 127.0.0.1 or [::1])",
                out->host);
        out->loopback = (ntohl(a4.s_addr) >> 24) == 127;
    }
    return 0;
}

int opfor_config_check(const opfor_config_t *c, opfor_diag_t *d) {
    if (c->listen[0]) {
        opfor_listen_addr_t a;
        int rc = opfor_config_parse_listen(c->listen, &a, d);
        if (rc < 0)
            return rc;
        if (!a.loopback && !c->token_file[0])
            return opfor__diag_msg(
                d, OPFOR_EINVAL,
                "listen: %s is not a loopback address; set token-file so that remote "
                "clients must authenticate",
                c->listen);
    }
    if (!c->socket[0] && !c->listen[0])
        return opfor__diag_msg(d, OPFOR_EINVAL,
                               "nothing to listen on: socket is none and listen is unset");
    return 0;
}

int opfor_config_read_token(const char *path, char *buf, size_t size, opfor_diag_t *d) {
    if (d) {
        opfor_diag_clear(d);
        snprintf(d->file, sizeof d->file, "%s", path);
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return opfor__diag_msg(d, errno == ENOENT ? OPFOR_ENOENT : OPFOR_EIO,
                               "cannot read token file: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return opfor__diag_msg(d, OPFOR_EIO, "token file is not a regular file");
    }
    if (st.st_mode & (S_IRWXG | S_IRWXO)) {
        close(fd);
        return opfor__diag_msg(d, OPFOR_EAUTH,
                               "token file is readable by others (mode %03o); chmod 600 it",
                               (unsigned)(st.st_mode & 0777));
    }
    char tmp[512];
    ssize_t n = read(fd, tmp, sizeof tmp - 1);
    close(fd);
    if (n < 0)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot read token file: %s", strerror(errno));
    while (n > 0 && isspace((unsigned char)tmp[n - 1]))
        n--;
    tmp[n] = '\0';
    if (n < 8 || n > 255 || (size_t)n >= size)
        return opfor__diag_msg(d, OPFOR_EINVAL, "the token must be 8 to 255 characters (found %zd)",
                               n);
    for (ssize_t i = 0; i < n; i++)
        if (!isgraph((unsigned char)tmp[i]))
            return opfor__diag_msg(d, OPFOR_EINVAL,
                                   "the token must be printable ASCII without spaces");
    memcpy(buf, tmp, (size_t)n + 1);
    return 0;
}
