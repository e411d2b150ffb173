/* display/epd_emu.c — the emulator core: the transport functions, simulated time and BUSY,
 * reset, supply, deep sleep checks, error records and the inspection API.
 *
 * Every byte goes through the same checks before the controller model sees it: supply on,
 * not asleep, not busy, parameter counts. Errors are recorded, never printed, and the byte is
 * still handed on (except in sleep or without supply, where a real chip would ignore it) so a
 * single mistake does not cascade into confusing follow-up errors.
 */
#include "epd_emu_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const err_names[OPFOR_EMU_ERR_COUNT] = {
    "busy",      "oversize", "partial-run", "asleep",    "wait-asleep",
    "unpowered", "sequence", "param",       "stale-old",
};

const char *opfor_epd_emu_err_name(opfor_epd_emu_err_t kind) {
    return (unsigned)kind < OPFOR_EMU_ERR_COUNT ? err_names[kind] : "?";
}

void opfor__emu_error(opfor_epd_emu_t *e, opfor_epd_emu_err_t kind, const char *fmt, ...) {
    if ((unsigned)kind >= OPFOR_EMU_ERR_COUNT)
        return;
    e->nerr_kind[kind]++;
    if (e->nerrors < EMU_MAX_ERRORS) {
        opfor_epd_emu_error_t *r = &e->errors[e->nerrors];
        r->kind = kind;
        r->at_ms = e->now_us / 1000;
        r->cmd = e->cmd;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->msg, sizeof r->msg, fmt, ap);
        va_end(ap);
    }
    e->nerrors++;
}

static int is_busy(const opfor_epd_emu_t *e) {
    return e->asleep || e->stuck || e->now_us < e->busy_until_us;
}

void opfor__emu_busy(opfor_epd_emu_t *e, unsigned ms, int is_refresh) {
    e->busy_until_us = e->now_us + (uint64_t)ms * 1000u;
    e->st.busy_ms += ms;
    if (is_refresh && e->stuck_pending > 0) {
        e->stuck_pending--;
        e->stuck = 1;
    }
}

unsigned opfor__emu_refresh_ms(const opfor_epd_emu_t *e, opfor_epd_refresh_t kind) {
    switch (kind) {
    case OPFOR_EPD_REFRESH_FAST:
        return e->panel->t_fast_ms;
    case OPFOR_EPD_REFRESH_PARTIAL:
        return e->panel->t_partial_ms;
    default:
        return e->panel->t_full_ms;
    }
}

void opfor__emu_count_refresh(opfor_epd_emu_t *e, opfor_epd_refresh_t kind,
                              const opfor_epd_rect_t *area) {
    e->st.refreshes[kind]++;
    e->st.last_kind = kind;
    e->st.last_window = *area;
    if (kind == OPFOR_EPD_REFRESH_PARTIAL) {
        e->st.partial_run++;
        if (e->st.partial_run > e->cfg.max_partials)
            opfor__emu_error(e, OPFOR_EMU_ERR_PARTIAL_RUN,
                             "partial refresh %u in a row (at most %u before a full one)",
                             e->st.partial_run, e->cfg.max_partials);
    } else {
        e->st.partial_run = 0;
    }
}

void opfor__emu_scramble(opfor_epd_emu_t *e) {
    for (int i = 0; i < 2; i++)
        memset(e->ram[i], EMU_GARBAGE, e->ram_stride * e->ram_rows);
}

/* ---- wire checks ---- */

/* 0 when a byte may be processed; records why not otherwise. */
static int gate(opfor_epd_emu_t *e, const char *what, int *reported) {
    if (!e->powered) {
        if (!*reported)
            opfor__emu_error(e, OPFOR_EMU_ERR_UNPOWERED, "%s while the supply is off", what);
        *reported = 1;
        return -1;
    }
    if (e->asleep) {
        if (!*reported)
            opfor__emu_error(e, OPFOR_EMU_ERR_ASLEEP, "%s in deep sleep (only a reset wakes)",
                             what);
        *reported = 1;
        return -1;
    }
    if (is_busy(e) && !*reported) {
        opfor__emu_error(e, OPFOR_EMU_ERR_BUSY, "%s while BUSY (%llu ms left)", what,
                         e->stuck ? 0ull
                                  : (unsigned long long)((e->busy_until_us - e->now_us) / 1000));
        *reported = 1;
    }
    return 0;
}

static void spi_time(opfor_epd_emu_t *e, size_t bytes) {
    e->now_us += (uint64_t)bytes * 8u * 1000000u / e->cfg.spi_hz;
}

static int emu_command(void *ctx, uint8_t cmd) {
    opfor_epd_emu_t *e = ctx;
    int reported = 0;
    char what[32];
    snprintf(what, sizeof what, "command 0x%02X", cmd);
    spi_time(e, 1);
    if (gate(e, what, &reported)) {
        e->cmd = -1;
        e->drop_data = 1; /* one report per refused command, not one per data byte */
        return 0;
    }
    e->drop_data = 0;
    e->cmd_flagged = reported;
    if (e->cmd >= 0) {
        int want = e->model->param_len((uint8_t)e->cmd);
        if (want >= 0 && e->nparam < (size_t)want)
            opfor__emu_error(e, OPFOR_EMU_ERR_PARAM,
                             "command 0x%02X got %zu of its %d parameter bytes", e->cmd, e->nparam,
                             want);
    }
    e->st.commands++;
    if (e->ntrace < EMU_MAX_TRACE)
        e->trace[e->ntrace] = cmd;
    e->ntrace++;
    e->cmd = cmd;
    e->nparam = 0;
    e->param_reported = 0;
    e->model->command(e, cmd);
    return 0;
}

static int emu_data(void *ctx, const uint8_t *buf, size_t len) {
    opfor_epd_emu_t *e = ctx;
    spi_time(e, len);
    e->st.transfers++;
    e->st.data_bytes += len;
    if (len > e->st.max_transfer)
        e->st.max_transfer = len;
    if (len > e->cfg.bufsiz)
        opfor__emu_error(e, OPFOR_EMU_ERR_OVERSIZE,
                         "transfer of %zu bytes exceeds the %zu-byte spidev buffer", len,
                         e->cfg.bufsiz);
    if (e->drop_data)
        return 0;
    int reported = e->cmd_flagged;
    if (gate(e, "data", &reported))
        return 0;
    if (e->cmd < 0) {
        opfor__emu_error(e, OPFOR_EMU_ERR_PARAM, "%zu data bytes before any command", len);
        return 0;
    }
    int want = e->model->param_len((uint8_t)e->cmd);
    for (size_t i = 0; i < len; i++) {
        if (e->nparam < EMU_PARAM_MAX)
            e->param[e->nparam] = buf[i];
        e->nparam++;
        if (want >= 0 && e->nparam > (size_t)want) {
            if (!e->param_reported)
                opfor__emu_error(e, OPFOR_EMU_ERR_PARAM,
                                 "command 0x%02X takes %d parameter bytes, got more", e->cmd, want);
            e->param_reported = 1;
            continue;
        }
        e->model->data(e, buf[i]);
    }
    return 0;
}

static int emu_reset(void *ctx, unsigned low_ms) {
    opfor_epd_emu_t *e = ctx;
    if (!e->powered) {
        opfor__emu_error(e, OPFOR_EMU_ERR_UNPOWERED, "reset while the supply is off");
        return 0;
    }
    e->now_us += (uint64_t)low_ms * 1000u;
    e->asleep = 0;
    e->stuck = 0;
    e->cmd = -1;
    e->nparam = 0;
    e->drop_data = 0;
    e->st.resets++;
    e->model->reset(e);
    opfor__emu_busy(e, 1, 0);
    return 0;
}

static int emu_read_busy(void *ctx) {
    opfor_epd_emu_t *e = ctx;
    int busy = e->powered && is_busy(e);
    return busy ? e->panel->busy_level : !e->panel->busy_level;
}

static int emu_wait_edge(void *ctx, unsigned timeout_ms) {
    opfor_epd_emu_t *e = ctx;
    uint64_t limit = e->now_us + (uint64_t)timeout_ms * 1000u;
    if (e->asleep) {
        opfor__emu_error(e, OPFOR_EMU_ERR_WAIT_ASLEEP,
                         "waiting on BUSY in deep sleep: it never changes");
        e->now_us = limit;
        return 0;
    }
    if (e->powered && !e->stuck && e->now_us < e->busy_until_us && e->busy_until_us <= limit) {
        e->now_us = e->busy_until_us;
        return 1;
    }
    e->now_us = limit;
    return 0;
}

static int emu_power(void *ctx, int on) {
    opfor_epd_emu_t *e = ctx;
    if (on && !e->powered) {
        e->powered = 1;
        e->asleep = 0;
        e->stuck = 0;
        e->cmd = -1;
        e->model->reset(e); /* power-on reset */
    } else if (!on && e->powered) {
        e->powered = 0; /* the image stays: e-ink needs no power to keep it */
        opfor__emu_scramble(e);
    }
    return 0;
}

static void emu_delay(void *ctx, unsigned ms) {
    opfor_epd_emu_t *e = ctx;
    e->now_us += (uint64_t)ms * 1000u;
}

static uint64_t emu_now(void *ctx) {
    const opfor_epd_emu_t *e = ctx;
    return e->now_us / 1000u;
}

static void emu_close(void *ctx) {}

static const opfor_epd_transport_ops_t emu_ops = {
    "emulator",    emu_reset, emu_command, emu_data, emu_read_busy,
    emu_wait_edge, emu_power, emu_delay,   emu_now,  emu_close,
};

/* ---- lifetime and inspection ---- */

int opfor_epd_emu_new(const opfor_epd_emu_config_t *cfg, opfor_epd_emu_t **out) {
    if (!cfg || !cfg->panel || !out)
        return OPFOR_EINVAL;
    *out = NULL;
    const emu_model_t *model = NULL;
    if (cfg->panel->ctl == &opfor_epd_ssd1680)
        model = &opfor__emu_ssd1680;
    else if (cfg->panel->ctl == &opfor_epd_uc8179)
        model = &opfor__emu_uc8179;
    if (!model)
        return OPFOR_ENOTSUP;
    opfor_epd_emu_t *e = calloc(1, sizeof *e);
    if (!e)
        return OPFOR_ENOMEM;
    e->cfg = *cfg;
    if (!e->cfg.bufsiz)
        e->cfg.bufsiz = OPFOR_EPD_DEFAULT_BUFSIZ;
    if (!e->cfg.max_partials)
        e->cfg.max_partials = 5;
    if (!opfor_epd_rotation_valid(e->cfg.view_rotation))
        e->cfg.view_rotation = cfg->panel->default_rotation;
    if (!e->cfg.spi_hz)
        e->cfg.spi_hz = 4000000;
    e->panel = cfg->panel;
    e->model = model;
    if (model == &opfor__emu_ssd1680) {
        e->ram_stride = 22; /* 176 sources */
        e->ram_rows = 296;  /* gates */
    } else {
        e->ram_stride = (size_t)(cfg->panel->width + 7) / 8;
        e->ram_rows = cfg->panel->height;
    }
    e->ram[0] = malloc(e->ram_stride * e->ram_rows);
    e->ram[1] = malloc(e->ram_stride * e->ram_rows);
    int rc = opfor_epd_frame_init(&e->shown, cfg->panel->width, cfg->panel->height, 1);
    if (!e->ram[0] || !e->ram[1] || rc) {
        opfor_epd_emu_free(e);
        return rc ? rc : OPFOR_ENOMEM;
    }
    e->tx.ops = &emu_ops;
    e->tx.ctx = e;
    e->tx.max_chunk = e->cfg.bufsiz;
    e->cmd = -1;
    e->powered = 1;
    model->reset(e);
    *out = e;
    return 0;
}

void opfor_epd_emu_free(opfor_epd_emu_t *e) {
    if (!e)
        return;
    free(e->ram[0]);
    free(e->ram[1]);
    free(e);
}

opfor_epd_transport_t *opfor_epd_emu_transport(opfor_epd_emu_t *e) {
    return &e->tx;
}

const opfor_epd_frame_t *opfor_epd_emu_shown(const opfor_epd_emu_t *e) {
    return &e->shown;
}

int opfor_epd_emu_ram(const opfor_epd_emu_t *e, int which, opfor_epd_frame_t *out) {
    if (which < 0 || which > 1)
        return OPFOR_EINVAL;
    int rc = opfor_epd_frame_init(out, e->panel->width, e->panel->height, 1);
    if (rc)
        return rc;
    /* Both models keep RAM row = native row and RAM bit = native column, MSB first. */
    for (int y = 0; y < e->panel->height; y++)
        for (int x = 0; x < e->panel->width; x++) {
            uint8_t b = e->ram[which][(size_t)y * e->ram_stride + (size_t)(x >> 3)];
            opfor_epd_frame_set(out, x, y, (b >> (7 - (x & 7))) & 1);
        }
    return 0;
}

int opfor_epd_emu_write_png(const opfor_epd_emu_t *e, const char *path) {
    return opfor_epd_frame_write_png(&e->shown, e->cfg.view_rotation, path);
}

const opfor_epd_emu_stats_t *opfor_epd_emu_stats(const opfor_epd_emu_t *e) {
    return &e->st;
}

unsigned opfor_epd_emu_error_count(const opfor_epd_emu_t *e, opfor_epd_emu_err_t kind) {
    if (kind == OPFOR_EMU_ERR_COUNT)
        return e->nerrors;
    return (unsigned)kind < OPFOR_EMU_ERR_COUNT ? e->nerr_kind[kind] : 0;
}

const opfor_epd_emu_error_t *opfor_epd_emu_error_at(const opfor_epd_emu_t *e, unsigned i) {
    return i < e->nerrors && i < EMU_MAX_ERRORS ? &e->errors[i] : NULL;
}

void opfor_epd_emu_clear_errors(opfor_epd_emu_t *e) {
    e->nerrors = 0;
    memset(e->nerr_kind, 0, sizeof e->nerr_kind);
}

const char *opfor_epd_emu_format_errors(const opfor_epd_emu_t *e, char *buf, size_t size) {
    size_t n = 0;
    if (!size)
        return buf;
    buf[0] = '\0';
    for (unsigned i = 0; i < e->nerrors && i < EMU_MAX_ERRORS && n + 1 < size; i++) {
        const opfor_epd_emu_error_t *r = &e->errors[i];
        int w = snprintf(buf + n, size - n, "%llu ms [%s] cmd 0x%02X: %s\n",
                         (unsigned long long)r->at_ms, err_names[r->kind], r->cmd & 0xFF, r->msg);
        if (w < 0)
            break;
        n += (size_t)w;
    }
    return buf;
}

size_t opfor_epd_emu_trace(const opfor_epd_emu_t *e, uint8_t *cmds, size_t max) {
    size_t kept = e->ntrace < EMU_MAX_TRACE ? e->ntrace : EMU_MAX_TRACE;
    if (cmds)
        memcpy(cmds, e->trace, kept < max ? kept : max);
    return e->ntrace;
}

void opfor_epd_emu_trace_clear(opfor_epd_emu_t *e) {
    e->ntrace = 0;
}

uint64_t opfor_epd_emu_now_ms(const opfor_epd_emu_t *e) {
    return e->now_us / 1000u;
}

void opfor_epd_emu_advance(opfor_epd_emu_t *e, unsigned ms) {
    e->now_us += (uint64_t)ms * 1000u;
}

int opfor_epd_emu_asleep(const opfor_epd_emu_t *e) {
    return e->asleep;
}

void opfor_epd_emu_stick_busy(opfor_epd_emu_t *e, unsigned n) {
    e->stuck_pending = n;
}
