/* tools/opfor/cmd_display.c — `opfor display`: a display-only client of a daemon elsewhere.
 *
 *   opfor display [--connect ADDR] [--token-file F] [--game ID] [--panel P] [--sim DIR]
 *                 [--rotate N] [--config FILE] [--once] [--json] [--verbose]
 *
 * Runs on the Pi at the table: follows one game's `event` notifications over io/client.h and
 * draws each order, spotting and initiative change as a card (card_build.h) on the panel or
 * the emulator (display_out.h). The connection is supervised: when it drops, the client waits
 * 1 s, 2 s, 4 s ... up to 30 s between attempts (tools/app/redial.h), and after reconnecting it
 * reads game.state again, so whatever it missed is on the panel at once. SIGINT/SIGTERM are taken
 * with sigtimedwait (no handler, no global flag): the panel goes to deep sleep before the exit.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <msgpack.h>

#include "card_build.h"
#include "cli.h"
#include "display_out.h"
#include "json_out.h"
#include "opfor/client.h"
#include "opfor/config.h"
#include "opfor/rpc.h"
#include "redial.h"

#define DISPLAY_QUEUE 64        /* events held between two polls */
#define DISPLAY_PING_MS 60000   /* keep-alive, well inside the daemon's idle timeout */
#define DISPLAY_PICK_MS 5000    /* how often to look for a game when there is none */
#define DISPLAY_CONNECT_MS 5000 /* connect timeout */
#define DISPLAY_CALL_MS 15000   /* per-call timeout */

/* A MessagePack object copied out of a client's buffer (results die at the next call). */
typedef struct held {
    msgpack_sbuffer sb;  /* packed copy */
    msgpack_unpacked up; /* unpacked from sb */
    int have;            /* up.data is valid */
} held_t;

static void held_init(held_t *h) {
    msgpack_sbuffer_init(&h->sb);
    msgpack_unpacked_init(&h->up);
    h->have = 0;
}

/* Frees and re-initialises h, so freeing twice is harmless. */
static void held_free(held_t *h) {
    msgpack_unpacked_destroy(&h->up);
    msgpack_sbuffer_destroy(&h->sb);
    held_init(h);
}

static int held_set(held_t *h, const msgpack_object *o) {
    held_free(h);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &h->sb, msgpack_sbuffer_write);
    if (msgpack_pack_object(&pk, *o) != 0)
        return -1;
    size_t off = 0;
    if (msgpack_unpack_next(&h->up, h->sb.data, h->sb.size, &off) != MSGPACK_UNPACK_SUCCESS)
        return -1;
    h->have = 1;
    return 0;
}

typedef struct display_opts {
    const char *addr;       /* --connect, NULL = the local default */
    const char *token_file; /* --token-file */
    const char *game;       /* --game, NULL = the most recent active game */
    const char *config;     /* --config: display-* settings */
    const char *panel;      /* --panel */
    const char *sim;        /* --sim DIR */
    long rotate;            /* --rotate, -1 = default */
    int once;               /* --once */
    int json;               /* --json */
    int verbose;            /* --verbose: debug lines */
} display_opts_t;

typedef struct display_run {
    const display_opts_t *o;     /* options */
    char addr[256];              /* resolved address */
    char token[256];             /* token, "" none */
    opfor_dout_t *out;           /* the panel */
    sigset_t sigs;               /* SIGINT, SIGTERM: blocked, taken by sigtimedwait */
    int stop;                    /* a signal came */
    char game[64];               /* game followed, "" none */
    opfor_card_memo_t memo;      /* spotting across events */
    opfor_card_t card;           /* scratch */
    held_t state;                /* last game.state */
    held_t queue[DISPLAY_QUEUE]; /* events received, not yet drawn */
    int nqueue;                  /* used entries */
    int overflow;                /* events were dropped: redraw from the state */
    int closed;                  /* the followed game was closed or is over */
    unsigned long sessions;      /* successful connections */
    unsigned long events;        /* events drawn */
} display_run_t;

static void dlog(void *ud, int level, const char *line) {
    const display_run_t *r = ud;
    if (level >= OPFOR_LOG_DEBUG && !r->o->verbose)
        return;
    if (level >= OPFOR_LOG_INFO && r->o->json && !r->o->verbose)
        return;
    if (strncmp(line, "display: ", 9) == 0) /* display_out's lines carry their own prefix */
        line += 9;
    fprintf(stderr, "opfor display: %s\n", line);
}

static void logf_(display_run_t *r, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void logf_(display_run_t *r, int level, const char *fmt, ...) {
    char line[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    dlog(r, level, line);
}

/* Waits up to ms for SIGINT/SIGTERM; sets r->stop when one came. */
static void wait_signal(display_run_t *r, long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    if (sigtimedwait(&r->sigs, NULL, &ts) > 0)
        r->stop = 1;
}

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void on_notify(void *ud, const char *method, size_t len, const msgpack_object *params) {
    display_run_t *r = ud;
    if (len == 5 && memcmp(method, "error", 5) == 0) {
        char msg[200] = "";
        opfor_mp_str(opfor_mp_get(params, "message"), msg, sizeof msg);
        logf_(r, OPFOR_LOG_WARN, "the daemon is closing the connection: %s", msg);
        return;
    }
    if (len != 5 || memcmp(method, "event", 5) != 0 || !params)
        return;
    char game[64] = "";
    opfor_mp_str(opfor_mp_get(params, "game"), game, sizeof game);
    if (strcmp(game, r->game) != 0)
        return;
    if (r->nqueue >= DISPLAY_QUEUE) {
        r->overflow = 1;
        return;
    }
    if (held_set(&r->queue[r->nqueue], params) == 0)
        r->nqueue++;
}

/* Packs {"game": r->game}. */
static void pack_game(msgpack_packer *pk, void *ud) {
    const display_run_t *r = ud;
    msgpack_pack_map(pk, 1);
    opfor_rpc_pack_cstr(pk, "game");
    opfor_rpc_pack_cstr(pk, r->game);
}

/* A failed call: remote errors are logged and returned as OPFOR_EPROTO, local ones as they are. */
static int call_failed(display_run_t *r, opfor_client_t *c, const char *method, int rc) {
    if (rc == OPFOR_CLIENT_REMOTE) {
        logf_(r, OPFOR_LOG_WARN, "%s: %s", method, opfor_client_error_message(c));
        return opfor_client_error_code(c) == OPFOR_RPC_E_NOT_FOUND ? OPFOR_ENOENT : OPFOR_EPROTO;
    }
    logf_(r, OPFOR_LOG_WARN, "%s: %s", method, opfor_client_error_message(c));
    return rc;
}

/* Chooses the game to follow: --game, else the first active game of game.list (most recently
 * changed first). Returns 1 when one was found, 0 when there is none, or a negative code. */
static int pick_game(display_run_t *r, opfor_client_t *c) {
    if (r->o->game) {
        snprintf(r->game, sizeof r->game, "%s", r->o->game);
        return 1;
    }
    const msgpack_object *res;
    int rc = opfor_client_call(c, "game.list", NULL, NULL, &res);
    if (rc != 0)
        return call_failed(r, c, "game.list", rc);
    const msgpack_object *list = res;
    if (list->type == MSGPACK_OBJECT_MAP)
        list = opfor_mp_get(res, "games");
    if (!list || list->type != MSGPACK_OBJECT_ARRAY)
        return 0;
    for (uint32_t i = 0; i < list->via.array.size; i++) {
        const msgpack_object *g = &list->via.array.ptr[i];
        char status[24] = "active", id[64] = "";
        opfor_mp_str(opfor_mp_get(g, "status"), status, sizeof status);
        if (opfor_mp_str(opfor_mp_get(g, "game"), id, sizeof id) < 0)
            opfor_mp_str(opfor_mp_get(g, "id"), id, sizeof id);
        if (id[0] && strcmp(status, "active") == 0) {
            snprintf(r->game, sizeof r->game, "%s", id);
            return 1;
        }
    }
    return 0;
}

/* Reads game.state into r->state. */
static int fetch_state(display_run_t *r, opfor_client_t *c) {
    const msgpack_object *res;
    int rc = opfor_client_call(c, "game.state", pack_game, r, &res);
    if (rc != 0)
        return call_failed(r, c, "game.state", rc);
    if (held_set(&r->state, res) < 0)
        return OPFOR_ENOMEM;
    return 0;
}

/* Draws the queued events (with one fresh game.state for the batch). */
static int drain_queue(display_run_t *r, opfor_client_t *c) {
    if (r->nqueue == 0 && !r->overflow)
        return 0;
    int rc = fetch_state(r, c);
    if (rc < 0 && rc != OPFOR_EPROTO && rc != OPFOR_ENOENT)
        return rc;
    const msgpack_object *st = r->state.have ? &r->state.up.data : NULL;
    int shown = 0;
    for (int i = 0; i < r->nqueue; i++) {
        const msgpack_object *ev = &r->queue[i].up.data;
        char kind[24] = "";
        opfor_mp_str(opfor_mp_get(ev, "kind"), kind, sizeof kind);
        if (strcmp(kind, "closed") == 0 || strcmp(kind, "game_over") == 0)
            r->closed = 1;
        if (opfor_card_from_event(ev, st, &r->memo, &r->card) == 1) {
            opfor_dout_show(r->out, &r->card);
            shown = 1;
            r->events++;
            logf_(r, OPFOR_LOG_INFO, "%s: %s", kind, r->card.unit);
        }
        held_free(&r->queue[i]);
    }
    r->nqueue = 0;
    if (r->overflow && !shown && st && opfor_card_from_state(st, &r->memo, &r->card) == 1)
        opfor_dout_show(r->out, &r->card);
    r->overflow = 0;
    return 0;
}

/* Subscribes to r->game and draws its current state. */
static int follow(display_run_t *r, opfor_client_t *c) {
    const msgpack_object *res;
    r->closed = 0;
    int rc = opfor_client_call(c, "subscribe", pack_game, r, &res);
    if (rc != 0)
        return call_failed(r, c, "subscribe", rc);
    rc = fetch_state(r, c);
    if (rc < 0)
        return rc;
    if (opfor_card_from_state(&r->state.up.data, &r->memo, &r->card) == 1)
        opfor_dout_show(r->out, &r->card);
    logf_(r, OPFOR_LOG_INFO, "following game %s", r->game);
    return 0;
}

/* One connection: returns 0 (stop or --once done), OPFOR_EAUTH (give up), or another negative
 * code (retry). *connected tells whether hello succeeded. */
static int session(display_run_t *r, int *connected) {
    opfor_client_t *c;
    char why[600];
    *connected = 0;
    int rc = opfor_redial_connect(&c, r->addr, DISPLAY_CONNECT_MS, "opfor-display", r->token, why,
                                  sizeof why);
    if (rc < 0) {
        logf_(r, OPFOR_LOG_WARN, "%s", why); /* names the address */
        return rc;
    }
    opfor_client_set_timeout(c, DISPLAY_CALL_MS);
    opfor_client_on_notify(c, on_notify, r);
    *connected = 1;
    r->sessions++;
    logf_(r, OPFOR_LOG_INFO, "%s %s (opford %s)",
          r->sessions > 1 ? "reconnected to" : "connected to", r->addr,
          opfor_client_server_version(c));
    r->game[0] = '\0';
    uint64_t last_pick = 0, last_ping = now_ms();
    int waiting_shown = 0;
    rc = 0;
    while (!r->stop) {
        if (!r->game[0] && (last_pick == 0 || now_ms() - last_pick >= DISPLAY_PICK_MS)) {
            last_pick = now_ms();
            rc = pick_game(r, c);
            if (rc < 0)
                break;
            if (rc == 1) {
                rc = follow(r, c);
                if (rc == OPFOR_ENOENT && !r->o->game) {
                    r->game[0] = '\0'; /* it went away meanwhile: look again */
                    rc = 0;
                } else if (rc < 0) {
                    break;
                }
            } else if (!waiting_shown) {
                opfor_card_waiting(&r->card, "Waiting for a game",
                                   "Start one on the daemon; it appears here");
                opfor_dout_show(r->out, &r->card);
                waiting_shown = 1;
                logf_(r, OPFOR_LOG_INFO, "no active game yet; looking again every %d s",
                      DISPLAY_PICK_MS / 1000);
            }
            rc = 0;
            if (r->o->once && (r->game[0] || waiting_shown))
                break;
        }
        int n = opfor_client_poll(c, 250);
        if (n < 0) {
            rc = n;
            logf_(r, OPFOR_LOG_WARN, "connection to %s lost: %s", r->addr,
                  opfor_client_error_message(c));
            break;
        }
        rc = drain_queue(r, c);
        if (rc < 0)
            break;
        if (r->closed && !r->o->game) {
            logf_(r, OPFOR_LOG_INFO, "game %s is over; looking for the next one", r->game);
            r->game[0] = '\0';
            last_pick = now_ms();
        }
        if (now_ms() - last_ping >= DISPLAY_PING_MS) {
            last_ping = now_ms();
            int prc = opfor_client_call(c, "ping", NULL, NULL, NULL);
            if (prc < 0) {
                rc = prc;
                break;
            }
        }
        wait_signal(r, 0);
    }
    opfor_client_close(c);
    return rc;
}

/* The angles --rotate takes. */
static const opfor_name_t ROTATIONS[] = {
    {"0", 0}, {"90", 90}, {"180", 180}, {"270", 270}, {NULL, 0},
};

/* Whether name is a panel opfor_dout_panel knows (--panel). */
static int panel_known(const char *name) {
    return opfor_dout_panel(name) != NULL;
}

/* Builds the output config from --config, --panel, --sim and --rotate. */
static int make_out_config(const display_opts_t *o, opfor_dout_config_t *dc) {
    opfor_config_t cfg;
    opfor_config_defaults(&cfg);
    opfor_diag_t d;
    opfor_diag_clear(&d);
    char err[600], where[1024];
    if (o->config && opfor_config_load_file(&cfg, o->config, &d) < 0)
        return opfor_cli_fail("display: %s", opfor_diag_format(&d, where, sizeof where));
    const char *panel = o->panel;
    opfor_dout_spec_t from_cfg;
    memset(&from_cfg, 0, sizeof from_cfg);
    if (cfg.display[0] && opfor_dout_parse_spec(cfg.display, &from_cfg, err, sizeof err) < 0)
        return opfor_cli_fail("display: %s: %s", o->config ? o->config : "config", err);
    const char *pname = panel ? panel : from_cfg.panel ? from_cfg.panel->name : "7in5v2";
    int n = 0;
    if (o->sim)
        n = snprintf(cfg.display, sizeof cfg.display, "sim:%s:%s", pname, o->sim);
    else if (panel || from_cfg.kind != OPFOR_DOUT_SIM) /* else keep the config's sim spec */
        n = snprintf(cfg.display, sizeof cfg.display, "epd:%s", pname);
    if (n < 0 || (size_t)n >= sizeof cfg.display)
        return opfor_cli_usage_error("display: --sim: the directory name is too long");
    if (o->rotate >= 0)
        cfg.display_rotation = (int)o->rotate;
    if (opfor_dout_config_from(&cfg, dc, err, sizeof err) < 0) {
        /* the wiring's message names the display already; say where the wiring came from */
        const char *msg = strncmp(err, "display: ", 9) == 0 ? err + 9 : err;
        return opfor_cli_fail("display: %s: %s", o->config ? o->config : "command line", msg);
    }
    return 0;
}

int opfor_cmd_display(int argc, char **argv) {
    display_opts_t o = {.rotate = -1};
    int rotate = -1, usage_rc;
    char panels[160];
    snprintf(panels, sizeof panels, "one of %s", opfor_dout_panel_names());
    const opfor_cli_opt_t opts[] = {
        OPFOR_CLI_CONNECT_OPTS(&o.addr, &o.token_file),
        {.name = "--game",
         .type = OPFOR_CLI_STRING,
         .string = &o.game,
         .arg = "ID",
         .help = "follow this game (default: the most recent active one)"},
        {.name = "--panel",
         .type = OPFOR_CLI_STRING,
         .string = &o.panel,
         .valid = panel_known,
         .wants = panels,
         .arg = "P",
         .help = "2in13v4 (Waveshare 2.13\" V4) or 7in5v2 (7.5\" V2); default:\n"
                 "the panel of the config's display key, else 7in5v2"},
        {.name = "--sim",
         .type = OPFOR_CLI_STRING,
         .string = &o.sim,
         .arg = "DIR",
         .help = "drive the emulator instead of the panel and write each\n"
                 "refresh as DIR/frame-NNNNNN.png"},
        {.name = "--rotate",
         .type = OPFOR_CLI_CHOICE,
         .choice = &rotate,
         .names = ROTATIONS,
         .arg = "N",
         .help = "0, 90, 180 or 270 degrees (default: landscape)"},
        {.name = "--config",
         .type = OPFOR_CLI_STRING,
         .string = &o.config,
         .arg = "FILE",
         .help = "opford-style YAML; its display-* keys set the wiring (pins,\n"
                 "GPIO chip, spidev, rotation); other keys are ignored"},
        {.name = "--once",
         .type = OPFOR_CLI_FLAG,
         .flag = &o.once,
         .help = "draw the game's current card, put the panel to sleep, exit"},
        {.name = "--json",
         .type = OPFOR_CLI_FLAG,
         .flag = &o.json,
         .help = "with --once: print {connected, game, panel, events, refreshes}"},
        {.name = "--verbose",
         .alias = "-v",
         .type = OPFOR_CLI_FLAG,
         .flag = &o.verbose,
         .help = "log every refresh"},
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "display",
        .usage =
            "[--connect ADDR] [--token-file FILE] [--game ID]\n"
            "                     [--panel 2in13v4|7in5v2] [--sim DIR] [--rotate 0|90|180|270]\n"
            "                     [--config FILE] [--once] [--json] [--verbose]",
        .about =
            "Shows a daemon's orders on an e-ink panel, as a display-only client: each order,\n"
            "spotting and change of initiative of the game becomes a card (who acts, the unit,\n"
            "its orders, the scores needed, and on the 7.5 inch panel a map of the table).\n"
            "When the connection drops it retries after 1, 2, 4 ... up to 30 s and reads the\n"
            "game's state again. SIGINT/SIGTERM put the panel to sleep and exit.",
        .epilog =
            "Exit status: 0 after a signal or --once, 1 when the panel cannot be opened, the\n"
            "token is refused, or --once cannot reach the daemon; 2 for a bad command line.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &usage_rc))
        return usage_rc;
    o.rotate = rotate;
    if (o.json && !o.once)
        return opfor_cli_usage_error("display: --json goes with --once");

    display_run_t *r = calloc(1, sizeof *r);
    if (!r)
        return opfor_cli_fail("display: out of memory");
    r->o = &o;
    held_init(&r->state);
    for (int i = 0; i < DISPLAY_QUEUE; i++)
        held_init(&r->queue[i]);
    int exit_code = OPFOR_EXIT_OK;
    opfor_dout_config_t dc;
    if (opfor_client_default_addr(o.addr, r->addr, sizeof r->addr) < 0) {
        exit_code = opfor_cli_usage_error("display: --connect: the address is too long");
        goto done;
    }
    if (o.token_file) {
        opfor_diag_t d;
        char where[1024];
        if (opfor_config_read_token(o.token_file, r->token, sizeof r->token, &d) < 0) {
            exit_code = opfor_cli_fail("display: %s", opfor_diag_format(&d, where, sizeof where));
            goto done;
        }
    }
    exit_code = make_out_config(&o, &dc);
    if (exit_code != 0)
        goto done;
    /* Block the stop signals before the display thread starts, so it inherits the mask and
     * only sigtimedwait() here ever takes them. */
    sigemptyset(&r->sigs);
    sigaddset(&r->sigs, SIGINT);
    sigaddset(&r->sigs, SIGTERM);
    sigprocmask(SIG_BLOCK, &r->sigs, NULL);
    char err[600];
    if (opfor_dout_open(&r->out, &dc, dlog, r, err, sizeof err) < 0) {
        exit_code = opfor_cli_fail("%s", err);
        goto done;
    }
    char line[320];
    snprintf(line, sizeof line, "Connecting to %s", r->addr);
    if (!o.once) {
        opfor_card_waiting(&r->card, "Waiting for the daemon", line);
        opfor_dout_show(r->out, &r->card);
    }
    opfor_redial_t backoff;
    opfor_redial_init(&backoff, OPFOR_REDIAL_MIN_MS, OPFOR_REDIAL_MAX_MS);
    int connected_once = 0;
    while (!r->stop) {
        int connected;
        int rc = session(r, &connected);
        connected_once |= connected;
        if (connected)
            opfor_redial_reset(&backoff);
        if (rc == OPFOR_EAUTH) {
            exit_code = opfor_cli_fail("display: the daemon refused the token (--token-file)");
            break;
        }
        if (o.once) {
            if (!connected || rc < 0)
                exit_code = opfor_cli_fail("display: could not read the game from %s", r->addr);
            break;
        }
        if (r->stop)
            break;
        long wait = opfor_redial_next(&backoff);
        logf_(r, OPFOR_LOG_INFO, "retrying in %ld s", wait / 1000);
        wait_signal(r, wait);
    }
    opfor_dout_flush(r->out, 10000);
    const opfor_epd_panel_t *panel = opfor_dout_panel_of(r->out);
    unsigned long refreshes = opfor_dout_close(r->out); /* the panel sleeps */
    if (o.json && o.once) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_bool(&j, "connected", connected_once);
        opfor_json_kv_str(&j, "game", r->game);
        opfor_json_kv_str(&j, "panel", panel->name);
        opfor_json_kv_int(&j, "events", (int64_t)r->events);
        opfor_json_kv_int(&j, "refreshes", (int64_t)refreshes);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    }
done:
    held_free(&r->state);
    for (int i = 0; i < DISPLAY_QUEUE; i++)
        held_free(&r->queue[i]);
    free(r);
    return exit_code;
}
