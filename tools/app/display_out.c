/* tools/app/display_out.c — the e-ink output of opford and `opfor display` (display_out.h).
 *
 * One thread per output owns the device, the refresh manager and the render frame; the only
 * shared state is a one-card mailbox under a mutex. The thread sleeps on a condition variable
 * (CLOCK_MONOTONIC) until a card arrives, the manager's next deadline passes, or close is asked,
 * so the callers (the daemon's event loop, the client's poll loop) never wait on BUSY.
 */
#define _POSIX_C_SOURCE 200809L

#include "display_out.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "opfor/epd_emu.h"

/* Short names for the command line, and the panels they stand for. */
static const struct {
    const char *name;               /* "7in5v2" */
    const opfor_epd_panel_t *panel; /* the descriptor */
} aliases[] = {
    {"2in13v4", &opfor_epd_panel_ws_2in13_v4},
    {"7in5v2", &opfor_epd_panel_ws_7in5_v2},
};

const opfor_epd_panel_t *opfor_dout_panel(const char *name) {
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcasecmp(name, aliases[i].name) == 0)
            return aliases[i].panel;
    return opfor_epd_panel_find(name);
}

const char *opfor_dout_panel_names(void) {
    return "2in13v4, 7in5v2";
}

static int dout_fail(char *err, size_t size, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int dout_fail(char *err, size_t size, int code, const char *fmt, ...) {
    if (err && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
    }
    return code;
}

int opfor_dout_parse_spec(const char *s, opfor_dout_spec_t *out, char *err, size_t errsize) {
    memset(out, 0, sizeof *out);
    const char *colon = s ? strchr(s, ':') : NULL;
    if (!colon)
        return dout_fail(err, errsize, OPFOR_EINVAL,
                         "display '%s' is not epd:PANEL or sim:PANEL:DIR (panels: %s)", s ? s : "",
                         opfor_dout_panel_names());
    size_t blen = (size_t)(colon - s);
    if (blen == 3 && strncasecmp(s, "epd", 3) == 0)
        out->kind = OPFOR_DOUT_EPD;
    else if (blen == 3 && strncasecmp(s, "sim", 3) == 0)
        out->kind = OPFOR_DOUT_SIM;
    else
        return dout_fail(err, errsize, OPFOR_EINVAL,
                         "display '%s': unknown backend '%.*s' (epd:PANEL or sim:PANEL:DIR)", s,
                         (int)blen, s);
    const char *p = colon + 1, *end = strchr(p, ':');
    size_t plen = end ? (size_t)(end - p) : strlen(p);
    char panel[32];
    if (plen == 0 || plen >= sizeof panel)
        return dout_fail(err, errsize, OPFOR_EINVAL, "display '%s': name a panel (%s)", s,
                         opfor_dout_panel_names());
    memcpy(panel, p, plen);
    panel[plen] = '\0';
    out->panel = opfor_dout_panel(panel);
    if (!out->panel)
        return dout_fail(err, errsize, OPFOR_EINVAL,
                         "display '%s': unknown panel '%s' (panels: %s)", s, panel,
                         opfor_dout_panel_names());
    if (out->kind == OPFOR_DOUT_EPD) {
        if (end)
            return dout_fail(err, errsize, OPFOR_EINVAL,
                             "display '%s': epd takes only a panel (epd:%s); wiring comes from the "
                             "display-* settings",
                             s, panel);
        return 0;
    }
    if (!end || !end[1])
        return dout_fail(err, errsize, OPFOR_EINVAL,
                         "display '%s': sim needs a directory for the frames: sim:%s:DIR", s,
                         panel);
    if (strlen(end + 1) >= sizeof out->dir)
        return dout_fail(err, errsize, OPFOR_EINVAL, "display '%s': the directory name is too long",
                         s);
    snprintf(out->dir, sizeof out->dir, "%s", end + 1);
    return 0;
}

int opfor_dout_config_from(const opfor_config_t *c, opfor_dout_config_t *out, char *err,
                           size_t errsize) {
    memset(out, 0, sizeof *out);
    opfor_epd_hw_config_default(&out->hw);
    opfor_display_policy_default(&out->pol);
    out->rotation = c->display_rotation;
    if (!c->display[0])
        return dout_fail(err, errsize, OPFOR_ENOENT, "no display configured");
    int rc = opfor_dout_parse_spec(c->display, &out->spec, err, errsize);
    if (rc < 0)
        return rc;
    if (c->display_spidev[0])
        snprintf(out->hw.spidev, sizeof out->hw.spidev, "%s", c->display_spidev);
    if (c->display_gpiochip[0])
        snprintf(out->hw.chip, sizeof out->hw.chip, "%s", c->display_gpiochip);
    if (c->display_gpio_line[0])
        snprintf(out->hw.find_line, sizeof out->hw.find_line, "%s", c->display_gpio_line);
    if (c->display_pin_rst != OPFOR_CONFIG_PIN_DEFAULT)
        out->hw.pin_rst = c->display_pin_rst;
    if (c->display_pin_dc != OPFOR_CONFIG_PIN_DEFAULT)
        out->hw.pin_dc = c->display_pin_dc;
    if (c->display_pin_busy != OPFOR_CONFIG_PIN_DEFAULT)
        out->hw.pin_busy = c->display_pin_busy;
    if (c->display_pin_pwr != OPFOR_CONFIG_PIN_DEFAULT)
        out->hw.pin_pwr = c->display_pin_pwr;
    if (out->hw.pin_rst < 0 || out->hw.pin_dc < 0 || out->hw.pin_busy < 0)
        return dout_fail(err, errsize, OPFOR_EINVAL,
                         "display: the rst, dc and busy pins are needed");
    if (out->hw.pin_rst == out->hw.pin_dc || out->hw.pin_rst == out->hw.pin_busy ||
        out->hw.pin_dc == out->hw.pin_busy ||
        (out->hw.pin_pwr >= 0 &&
         (out->hw.pin_pwr == out->hw.pin_rst || out->hw.pin_pwr == out->hw.pin_dc ||
          out->hw.pin_pwr == out->hw.pin_busy)))
        return dout_fail(err, errsize, OPFOR_EINVAL,
                         "display: two of the pins share a line (rst %d, dc %d, busy %d, pwr %d)",
                         out->hw.pin_rst, out->hw.pin_dc, out->hw.pin_busy, out->hw.pin_pwr);
    return 0;
}

struct opfor_dout {
    opfor_dout_config_t cfg;     /* settings */
    opfor_dout_log_fn log;       /* log hook */
    void *log_ud;                /* its argument */
    int rotation;                /* rotation in force (resolved) */
    opfor_epd_emu_t *emu;        /* SIM: the emulator */
    opfor_epd_transport_t hw_tx; /* EPD: the spidev + GPIO transport */
    opfor_epd_transport_t *tx;   /* the transport in use */
    int dev_open;                /* dev needs opfor_epd_close */
    opfor_epd_t dev;             /* the panel driver */
    opfor_display_t mgr;         /* refresh policy; owned by the thread */
    opfor_epd_frame_t frame;     /* render target; owned by the thread */
    unsigned emu_errors;         /* emulator errors already logged */
    unsigned long png_seq;       /* SIM: number of the last PNG written */

    pthread_t thread;     /* the output thread */
    int started;          /* thread is running */
    pthread_mutex_t lock; /* guards the fields below */
    pthread_cond_t wake;  /* signalled on a new card and on close */
    pthread_cond_t done;  /* broadcast when the thread has drawn what it took */
    int have_card;        /* card waits to be drawn */
    opfor_card_t card;    /* the newest card handed over */
    unsigned long posted; /* cards handed over */
    unsigned long drawn;  /* cards drawn (or dropped after a render error) */
    unsigned long shown;  /* refreshes done */
    int stop;             /* close was asked */
};

static void logf_(opfor_dout_t *o, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void logf_(opfor_dout_t *o, int level, const char *fmt, ...) {
    if (!o->log)
        return;
    char line[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    o->log(o->log_ud, level, line);
}

static uint64_t mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static uint64_t clock_cb(void *ctx) {
    (void)ctx;
    return mono_ms();
}

static unsigned long total_refreshes(const opfor_display_t *m) {
    unsigned long n = 0;
    for (int k = 1; k < OPFOR_EPD_REFRESH_COUNT; k++)
        n += m->counts[k];
    return n;
}

/* SIM: writes what the emulated panel shows, atomically (tmp file, then rename). */
static void write_png(opfor_dout_t *o) {
    char path[OPFOR_DOUT_DIR_MAX + 32], tmp[OPFOR_DOUT_DIR_MAX + 40];
    o->png_seq++;
    snprintf(path, sizeof path, "%s/frame-%06lu.png", o->cfg.spec.dir, o->png_seq);
    snprintf(tmp, sizeof tmp, "%s/.frame-%06lu.tmp", o->cfg.spec.dir, o->png_seq);
    int rc = opfor_epd_emu_write_png(o->emu, tmp);
    if (rc == 0 && rename(tmp, path) != 0)
        rc = OPFOR_EIO;
    if (rc < 0) {
        unlink(tmp);
        logf_(o, OPFOR_LOG_ERROR, "display: cannot write %s: %s", path, opfor_strerror(rc));
    } else {
        logf_(o, OPFOR_LOG_DEBUG, "display: wrote %s", path);
    }
}

/* After each manager call: new refreshes become PNG files (SIM), emulator complaints log lines. */
static void after_call(opfor_dout_t *o, unsigned long before, int rc, const char *what) {
    unsigned long now = total_refreshes(&o->mgr);
    if (rc < 0)
        logf_(o, OPFOR_LOG_ERROR, "display: %s failed: %s", what, opfor_strerror(rc));
    if (now != before && o->emu)
        write_png(o);
    if (o->emu) {
        unsigned n = opfor_epd_emu_error_count(o->emu, OPFOR_EMU_ERR_COUNT);
        if (n > o->emu_errors) {
            char buf[1024];
            logf_(o, OPFOR_LOG_WARN, "display: emulator recorded %u protocol error(s): %s",
                  n - o->emu_errors, opfor_epd_emu_format_errors(o->emu, buf, sizeof buf));
            o->emu_errors = n;
        }
    }
    if (now != before) {
        pthread_mutex_lock(&o->lock);
        o->shown = now;
        pthread_mutex_unlock(&o->lock);
    }
}

static void draw(opfor_dout_t *o, const opfor_card_t *card) {
    int rc = opfor_card_render_panel(card, o->cfg.spec.panel, o->rotation, &o->frame, NULL);
    if (rc < 0) {
        logf_(o, OPFOR_LOG_ERROR, "display: cannot draw the card: %s", opfor_strerror(rc));
        return;
    }
    unsigned long before = total_refreshes(&o->mgr);
    opfor_display_outcome_t out;
    rc = opfor_display_show(&o->mgr, &o->frame, &out);
    if (rc == 0 && out.action == OPFOR_DISPLAY_SHOWN)
        logf_(o, OPFOR_LOG_DEBUG, "display: %s refresh of %dx%d at %d,%d",
              opfor_epd_refresh_name(out.kind), out.window.w, out.window.h, out.window.x,
              out.window.y);
    after_call(o, before, rc, "refresh");
}

static void *thread_main(void *arg) {
    opfor_dout_t *o = arg;
    opfor_card_t *card = malloc(sizeof *card); /* ~21 KB: keep it off the thread's stack */
    pthread_mutex_lock(&o->lock);
    for (;;) {
        if (o->have_card && card) {
            *card = o->card;
            o->have_card = 0;
            unsigned long taken = o->posted;
            pthread_mutex_unlock(&o->lock);
            draw(o, card);
            pthread_mutex_lock(&o->lock);
            o->drawn = taken;
            pthread_cond_broadcast(&o->done);
            continue;
        }
        if (o->stop)
            break;
        uint64_t deadline = opfor_display_next_deadline(&o->mgr);
        uint64_t now = mono_ms();
        if (deadline <= now) {
            pthread_mutex_unlock(&o->lock);
            unsigned long before = total_refreshes(&o->mgr);
            int was_asleep = o->mgr.asleep;
            opfor_display_outcome_t out;
            int rc = opfor_display_tick(&o->mgr, &out);
            if (!was_asleep && o->mgr.asleep)
                logf_(o, OPFOR_LOG_DEBUG, "display: idle, panel asleep");
            after_call(o, before, rc, "tick");
            pthread_mutex_lock(&o->lock);
            pthread_cond_broadcast(&o->done);
            continue;
        }
        if (deadline == UINT64_MAX) {
            pthread_cond_wait(&o->wake, &o->lock);
        } else {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            uint64_t wait = deadline - now;
            ts.tv_sec += (time_t)(wait / 1000u);
            ts.tv_nsec += (long)(wait % 1000u) * 1000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&o->wake, &o->lock, &ts);
        }
    }
    pthread_mutex_unlock(&o->lock);
    free(card);
    unsigned long before = total_refreshes(&o->mgr);
    int rc = opfor_display_shutdown(&o->mgr);
    after_call(o, before, rc, "shutdown");
    pthread_mutex_lock(&o->lock);
    pthread_cond_broadcast(&o->done);
    pthread_mutex_unlock(&o->lock);
    return NULL;
}

/* mkdir -p for the SIM directory. */
static int make_dirs(const char *dir) {
    char buf[OPFOR_DOUT_DIR_MAX];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* The highest NNNNNN of the DIR/frame-NNNNNN.png files already there, so that a restarted
 * daemon or client adds frames after them instead of overwriting them. */
static unsigned long last_frame_number(const char *dir) {
    unsigned long max = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        unsigned long n;
        char tail[8];
        if (sscanf(e->d_name, "frame-%lu.%7s", &n, tail) == 2 && strcmp(tail, "png") == 0 &&
            n > max)
            max = n;
    }
    closedir(d);
    return max;
}

static void free_parts(opfor_dout_t *o) {
    if (o->dev_open)
        opfor_epd_close(&o->dev);
    if (o->emu)
        opfor_epd_emu_free(o->emu);
    else if (o->tx)
        opfor_epd_tx_close(o->tx);
    free(o);
}

int opfor_dout_open(opfor_dout_t **out, const opfor_dout_config_t *cfg, opfor_dout_log_fn log,
                    void *log_ud, char *err, size_t errsize) {
    *out = NULL;
    const opfor_epd_panel_t *panel = cfg->spec.panel;
    if (!panel)
        return dout_fail(err, errsize, OPFOR_EINVAL, "display: no panel");
    if (cfg->rotation != -1 && !opfor_epd_rotation_valid(cfg->rotation))
        return dout_fail(err, errsize, OPFOR_EINVAL,
                         "display: rotation %d is not 0, 90, 180 or 270", cfg->rotation);
    opfor_dout_t *o = calloc(1, sizeof *o);
    if (!o)
        return dout_fail(err, errsize, OPFOR_ENOMEM, "display: out of memory");
    o->cfg = *cfg;
    o->log = log;
    o->log_ud = log_ud;
    o->rotation = cfg->rotation < 0 ? panel->default_rotation : cfg->rotation;
    int rc;
    if (cfg->spec.kind == OPFOR_DOUT_SIM) {
        if (make_dirs(cfg->spec.dir) != 0 || access(cfg->spec.dir, W_OK) != 0) {
            int e = errno;
            free(o);
            return dout_fail(err, errsize, OPFOR_EIO, "display: cannot use directory %s: %s",
                             cfg->spec.dir, strerror(e));
        }
        opfor_epd_emu_config_t ec = {.panel = panel,
                                     .bufsiz = 0, /* spidev's default 4096 */
                                     .max_partials = cfg->pol.max_partials,
                                     .view_rotation = o->rotation};
        rc = opfor_epd_emu_new(&ec, &o->emu);
        if (rc < 0) {
            free(o);
            return dout_fail(err, errsize, rc, "display: no emulator for %s: %s", panel->title,
                             opfor_strerror(rc));
        }
        o->tx = opfor_epd_emu_transport(o->emu);
        o->png_seq = last_frame_number(cfg->spec.dir);
    } else {
        opfor_diag_t d;
        opfor_diag_clear(&d);
        rc = opfor_epd_hw_open(&cfg->hw, &o->hw_tx, &d);
        if (rc < 0) {
            free(o);
            return dout_fail(err, errsize, rc, "display: cannot open %s on %s: %s", panel->title,
                             cfg->hw.spidev, d.msg[0] ? d.msg : opfor_strerror(rc));
        }
        o->tx = &o->hw_tx;
    }
    rc = opfor_epd_open(&o->dev, panel, o->tx);
    if (rc < 0) {
        free_parts(o);
        return dout_fail(err, errsize, rc, "display: cannot switch %s on: %s", panel->title,
                         opfor_strerror(rc));
    }
    o->dev_open = 1;
    rc = opfor_display_init(&o->mgr, &o->dev, &cfg->pol, clock_cb, NULL);
    if (rc < 0) {
        free_parts(o);
        return dout_fail(err, errsize, rc, "display: bad refresh policy: %s", opfor_strerror(rc));
    }
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&o->lock, NULL);
    pthread_cond_init(&o->wake, &ca);
    pthread_cond_init(&o->done, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&o->thread, NULL, thread_main, o) != 0) {
        pthread_cond_destroy(&o->wake);
        pthread_cond_destroy(&o->done);
        pthread_mutex_destroy(&o->lock);
        free_parts(o);
        return dout_fail(err, errsize, OPFOR_ENOMEM, "display: cannot start the display thread");
    }
    o->started = 1;
    logf_(o, OPFOR_LOG_INFO, "display: %s (%s) %s%s, rotation %d", panel->title, panel->ctl->name,
          cfg->spec.kind == OPFOR_DOUT_SIM ? "emulated, frames in " : "on ",
          cfg->spec.kind == OPFOR_DOUT_SIM ? cfg->spec.dir : cfg->hw.spidev, o->rotation);
    *out = o;
    return 0;
}

void opfor_dout_show(opfor_dout_t *o, const opfor_card_t *card) {
    pthread_mutex_lock(&o->lock);
    o->card = *card;
    o->have_card = 1;
    o->posted++;
    pthread_cond_signal(&o->wake);
    pthread_mutex_unlock(&o->lock);
}

int opfor_dout_flush(opfor_dout_t *o, int timeout_ms) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += timeout_ms / 1000;
    ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    int rc = 0;
    pthread_mutex_lock(&o->lock);
    while (o->drawn != o->posted) {
        if (pthread_cond_timedwait(&o->done, &o->lock, &ts) == ETIMEDOUT) {
            rc = o->drawn == o->posted ? 0 : OPFOR_ETIMEDOUT;
            break;
        }
    }
    pthread_mutex_unlock(&o->lock);
    return rc;
}

unsigned long opfor_dout_refreshes(opfor_dout_t *o) {
    pthread_mutex_lock(&o->lock);
    unsigned long n = o->shown;
    pthread_mutex_unlock(&o->lock);
    return n;
}

const opfor_epd_panel_t *opfor_dout_panel_of(const opfor_dout_t *o) {
    return o->cfg.spec.panel;
}

unsigned long opfor_dout_close(opfor_dout_t *o) {
    if (!o)
        return 0;
    if (o->started) {
        pthread_mutex_lock(&o->lock);
        o->stop = 1;
        pthread_cond_signal(&o->wake);
        pthread_mutex_unlock(&o->lock);
        pthread_join(o->thread, NULL);
        pthread_cond_destroy(&o->wake);
        pthread_cond_destroy(&o->done);
        pthread_mutex_destroy(&o->lock);
    }
    logf_(o, OPFOR_LOG_INFO,
          "display: panel asleep; %lu refresh(es) (full %lu, fast %lu, "
          "partial %lu)",
          total_refreshes(&o->mgr), o->mgr.counts[OPFOR_EPD_REFRESH_FULL],
          o->mgr.counts[OPFOR_EPD_REFRESH_FAST], o->mgr.counts[OPFOR_EPD_REFRESH_PARTIAL]);
    unsigned long n = total_refreshes(&o->mgr);
    free_parts(o);
    return n;
}
