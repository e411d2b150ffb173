/* io/include/opfor/config.h — opford's settings: defaults, the YAML file, command-line flags.
 *
 * One option table serves both sources: each YAML key is also the long flag of the same name
 * (`listen: tcp://127.0.0.1:7373` in the file, `--listen tcp://127.0.0.1:7373` on the command
 * line), so the two can never disagree. Precedence is defaults < file < flags; opford re-applies
 * all three on SIGHUP. Everything here is plain data, so a config can be copied and compared.
 */
#ifndef OPFOR_CONFIG_H
#define OPFOR_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/error.h"

typedef enum opfor_log_level {
    OPFOR_LOG_ERROR = 0, /* something failed */
    OPFOR_LOG_WARN = 1,  /* something odd that opford survived (a bad client, a bad reload) */
    OPFOR_LOG_INFO = 2,  /* start, stop, connections */
    OPFOR_LOG_DEBUG = 3, /* every message */
} opfor_log_level_t;

#define OPFOR_CONFIG_PATH_MAX 1024

typedef struct opfor_config {
    char socket[108];                       /* Unix socket path (sun_path size); "" = none */
    char listen[128];                       /* "tcp://HOST:PORT", or "" for no TCP listener */
    char http[128];                         /* "http://HOST:PORT": the table page; "" = none */
    char token_file[OPFOR_CONFIG_PATH_MAX]; /* file holding the TCP token; "" = no token */
    char state_dir[OPFOR_CONFIG_PATH_MAX];  /* where saved games will live */
    int log_level;                          /* opfor_log_level_t */
    uint32_t hello_timeout_ms;              /* a client must say hello within this; 0 = never */
    uint32_t idle_timeout_ms;               /* silent clients are dropped after this; 0 = never */
    uint32_t game_idle_unload_ms;           /* a game unused this long leaves memory; 0 = never */
    uint32_t max_inflight;                  /* requests per client awaiting a response */
    uint32_t max_clients;                   /* connections at once; more are told why, closed */
    uint32_t write_queue_max;               /* bytes queued to one client before it is dropped */
    char model[OPFOR_CONFIG_PATH_MAX];      /* the default calculator's model file; "" = built-in */
    uint32_t workers;                       /* search worker threads; 0 = cores - 1 (at least 1) */
    uint32_t max_queued;                    /* searches waiting for a worker; more are BUSY */
    int debug_methods;                      /* 1 enables the debug.* methods (tests, diagnosis) */
    /* The high-score table's database; "" = the game store's (<state_dir>/opfor.db). Not a key
     * of the file or a flag: set by a program that embeds the server (a game command's --db). */
    char scores_db[OPFOR_CONFIG_PATH_MAX];
    /* The e-ink display of the binary that shows orders (opford --display, opfor display). io
     * only stores these; the binaries parse the spec and open the panel (display/ is not a
     * dependency of io). Changes take effect on restart. */
    char display[OPFOR_CONFIG_PATH_MAX]; /* "" none, "epd:PANEL" or "sim:PANEL:DIR" */
    int display_rotation;                /* 0, 90, 180, 270; -1 = the panel's default */
    char display_spidev[64];             /* SPI device; "" = the driver's default */
    char display_gpiochip[64];           /* GPIO chip label, name or path; "" = search */
    char display_gpio_line[32];          /* line name to find the chip by; "" = default */
    int display_pin_rst;                 /* line offsets; OPFOR_CONFIG_PIN_DEFAULT = the */
    int display_pin_dc;                  /* Waveshare HAT's (see docs/display.md) */
    int display_pin_busy;                /* ... */
    int display_pin_pwr;                 /* ...; -1 = the board has no supply switch */
} opfor_config_t;

#define OPFOR_CONFIG_PIN_DEFAULT (-2) /* display pin not set: the driver's default */

/* One row of the option table: key (YAML key and long flag), argument name, help text. */
typedef struct opfor_config_option {
    const char *key;  /* "log-level" */
    const char *arg;  /* "LEVEL" */
    const char *help; /* one line for --help */
} opfor_config_option_t;

/* The option table, terminated by a row whose key is NULL. */
const opfor_config_option_t *opfor_config_options(void);

/* The default socket path: $RUNTIME_DIRECTORY/opford.sock under systemd (/run/opfor), else
 * $XDG_RUNTIME_DIR/opfor/opford.sock, else /run/opfor/opford.sock for root and
 * /tmp/opfor-UID/opford.sock for others. Arguments may be NULL or "" (unset). Returns 0, or
 * OPFOR_ERANGE when the path would not fit in size (or in a socket address). */
int opfor_config_default_socket(char *buf, size_t size, const char *runtime_directory,
                                const char *xdg_runtime_dir, unsigned uid);
/* The default state directory: $STATE_DIRECTORY under systemd, else $XDG_STATE_HOME/opfor, else
 * $HOME/.local/state/opfor, else /var/lib/opfor. Returns 0 or OPFOR_ERANGE. */
int opfor_config_default_state_dir(char *buf, size_t size, const char *state_directory,
                                   const char *xdg_state_home, const char *home);

/* Fills c with the defaults, reading the environment variables named above. */
void opfor_config_defaults(opfor_config_t *c);

/* Sets one option by key from its text value (as a flag or a YAML scalar would give it).
 * Values: socket PATH|none; listen tcp://HOST:PORT|http://HOST:PORT|none; http
 * http://HOST:PORT|none; log-level error|warn|info|debug;
 * durations as NUMBER[ms|s|m|h] (plain numbers are seconds); sizes as NUMBER[K|M|KiB|MiB];
 * model FILE|none; workers N (0 = auto); debug-methods yes|no; display SPEC|none (stored as
 * given); display-rotation 0|90|180|270|default; display-spidev PATH; display-gpiochip NAME;
 * display-gpio-line NAME; display-pin-rst/dc/busy N (0..511|default); display-pin-pwr
 * N|none|default.
 * Returns 0, OPFOR_ENOENT for an unknown key, or OPFOR_EINVAL/OPFOR_ERANGE with d->msg
 * filled (d may be NULL; its line/col are left alone). */
int opfor_config_set(opfor_config_t *c, const char *key, const char *value, opfor_diag_t *d);

/* Applies a YAML mapping of options (text of len bytes; name is used in diagnostics). Unknown
 * keys, non-scalar values and bad values are errors reported as name:line:col. Returns 0 or a
 * negative OPFOR_E* code with d filled. */
int opfor_config_load_string(opfor_config_t *c, const char *text, size_t len, const char *name,
                             opfor_diag_t *d);
/* Largest config file read (1 MiB): a config is a few lines. */
#define OPFOR_CONFIG_MAX_BYTES (1 << 20)
/* Same, reading the file at path (at most OPFOR_CONFIG_MAX_BYTES; text that is not UTF-8 is
 * refused with its line and column before it is parsed). */
int opfor_config_load_file(opfor_config_t *c, const char *path, opfor_diag_t *d);

/* Checks the options together: listen must name a loopback address unless token_file is set.
 * Returns 0 or OPFOR_EINVAL with d filled. */
int opfor_config_check(const opfor_config_t *c, opfor_diag_t *d);

/* A parsed `listen` value. */
typedef struct opfor_listen_addr {
    char host[64]; /* numeric address without brackets: "127.0.0.1", "::1" */
    int port;      /* 0..65535; 0 lets the kernel choose */
    int ipv6;      /* 1 when host is an IPv6 address */
    int loopback;  /* 1 for 127.0.0.0/8 and ::1 */
    int http;      /* 1 for http://HOST:PORT, 0 for tcp://HOST:PORT */
} opfor_listen_addr_t;

/* Parses "tcp://HOST:PORT" or "http://HOST:PORT" where HOST is a numeric IPv4 address, [IPv6] or
 * "localhost" (127.0.0.1). Names are not resolved. Returns 0 or OPFOR_EINVAL with d->msg filled. */
int opfor_config_parse_listen(const char *s, opfor_listen_addr_t *out, opfor_diag_t *d);

/* Reads the token file: the token is its content without trailing whitespace, 8 to 255 bytes
 * of printable ASCII. The file must not be readable by group or others. Returns 0 or a
 * negative code with d filled. */
int opfor_config_read_token(const char *path, char *buf, size_t size, opfor_diag_t *d);

/* "error", "warn", "info", "debug"; "?" for others. */
const char *opfor_log_level_name(int level);
/* Case-insensitive lookup of a level name; returns the level or -1. */
int opfor_log_level_parse(const char *s);

#endif
