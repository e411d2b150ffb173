/* display/epd.c — the device object: wake (reset + init), refresh dispatch, sleep, and the
 * recovery rule for a stuck BUSY line (reset, init again, report OPFOR_ETIMEDOUT).
 *
 * The controller modules only know command sequences; the state kept here (asleep or not,
 * which RAM areas no longer match the panel) is shared by both so a controller cannot wait on
 * BUSY while the panel sleeps or forget that a reset scrambled its RAM.
 */
#include "opfor/epd_device.h"

#include <string.h>
#include <strings.h>

const opfor_epd_panel_t *const opfor_epd_panels[] = {&opfor_epd_panel_ws_2in13_v4,
                                                     &opfor_epd_panel_ws_7in5_v2, NULL};

const char *opfor_epd_refresh_name(opfor_epd_refresh_t kind) {
    switch (kind) {
    case OPFOR_EPD_REFRESH_FULL:
        return "full";
    case OPFOR_EPD_REFRESH_FAST:
        return "fast";
    case OPFOR_EPD_REFRESH_PARTIAL:
        return "partial";
    default:
        return "none";
    }
}

const opfor_epd_panel_t *opfor_epd_panel_find(const char *name) {
    for (int i = 0; name && opfor_epd_panels[i]; i++)
        if (!strcasecmp(opfor_epd_panels[i]->name, name))
            return opfor_epd_panels[i];
    return NULL;
}

static opfor_epd_rect_t whole(const opfor_epd_t *d) {
    return (opfor_epd_rect_t){0, 0, d->panel->width, d->panel->height};
}

int opfor_epd_open(opfor_epd_t *d, const opfor_epd_panel_t *panel, opfor_epd_transport_t *tx) {
    if (!d || !panel || !tx || !tx->ops || !panel->ctl)
        return OPFOR_EINVAL;
    memset(d, 0, sizeof *d);
    d->panel = panel;
    d->tx = tx;
    d->state = OPFOR_EPD_OFF;
    d->stale_new = d->stale_old = whole(d);
    return opfor_epd_tx_power(tx, 1);
}

int opfor__epd_cmd(opfor_epd_t *d, uint8_t cmd, const uint8_t *data, size_t len) {
    return opfor_epd_tx_cmd_data(d->tx, cmd, data, len);
}

int opfor__epd_wait(opfor_epd_t *d, int settle) {
    if (d->state == OPFOR_EPD_ASLEEP)
        return OPFOR_EPROTO;
    if (settle && d->panel->busy_settle_ms)
        opfor_epd_tx_delay(d->tx, d->panel->busy_settle_ms);
    int rc = opfor_epd_tx_wait_idle(d->tx, d->panel->busy_level, d->panel->busy_timeout_ms);
    if (rc == OPFOR_ETIMEDOUT)
        d->timeouts++;
    return rc;
}

size_t opfor__epd_pack(opfor_epd_t *d, const opfor_epd_frame_t *f, const opfor_epd_rect_t *r) {
    int b0 = r->x / 8, b1 = (r->x + r->w - 1) / 8;
    size_t n = 0;
    for (int y = r->y; y < r->y + r->h; y++) {
        size_t len = (size_t)(b1 - b0 + 1);
        memcpy(d->scratch + n, &f->bits[(size_t)y * f->stride + (size_t)b0], len);
        n += len;
    }
    return n;
}

/* One reset + init; the RAM content is unknown afterwards. */
static int reset_init(opfor_epd_t *d, opfor_epd_refresh_t mode) {
    d->resets++;
    d->stale_new = d->stale_old = whole(d);
    d->state = OPFOR_EPD_OFF;
    int rc = opfor_epd_tx_power(d->tx, 1); /* no-op unless opfor_epd_close switched it off */
    if (!rc)
        rc = opfor_epd_tx_reset(d->tx, d->panel->reset_low_ms, d->panel->reset_settle_ms);
    if (rc)
        return rc;
    rc = opfor__epd_wait(d, 0);
    if (!rc)
        rc = d->panel->ctl->init(d, mode);
    if (!rc) {
        d->state = OPFOR_EPD_READY;
        d->mode = mode;
    }
    return rc;
}

/* After a timeout: reset and init again, keep reporting the timeout. */
static int recover(opfor_epd_t *d, opfor_epd_refresh_t mode) {
    int rc = reset_init(d, mode);
    if (rc)
        d->state = OPFOR_EPD_FAILED;
    return OPFOR_ETIMEDOUT;
}

int opfor_epd_wake(opfor_epd_t *d, opfor_epd_refresh_t mode) {
    if (!d || !d->panel)
        return OPFOR_EINVAL;
    if (mode == OPFOR_EPD_REFRESH_NONE)
        mode = OPFOR_EPD_REFRESH_FULL;
    int rc = reset_init(d, mode);
    if (rc == OPFOR_ETIMEDOUT)
        return recover(d, mode);
    if (rc)
        d->state = OPFOR_EPD_FAILED;
    return rc;
}

int opfor_epd_refresh(opfor_epd_t *d, opfor_epd_refresh_t kind, const opfor_epd_frame_t *next,
                      const opfor_epd_frame_t *shown, const opfor_epd_rect_t *win) {
    if (!d || !next || kind <= OPFOR_EPD_REFRESH_NONE || kind >= OPFOR_EPD_REFRESH_COUNT)
        return OPFOR_EINVAL;
    if (next->width != d->panel->width || next->height != d->panel->height)
        return OPFOR_EINVAL;
    if (shown && (shown->width != next->width || shown->height != next->height))
        return OPFOR_EINVAL;
    opfor_epd_rect_t w = whole(d);
    if (kind == OPFOR_EPD_REFRESH_PARTIAL) {
        if (!shown)
            return OPFOR_EINVAL;
        if (win) {
            w = opfor_epd_rect_clip(win, d->panel->width, d->panel->height);
            w = opfor_epd_rect_align8(&w, d->panel->width);
        }
        if (opfor_epd_rect_empty(&w))
            return 0;
    }
    if (d->state != OPFOR_EPD_READY) {
        int rc = opfor_epd_wake(d, kind);
        if (rc)
            return rc;
    }
    int rc = d->panel->ctl->refresh(d, kind, next, shown, &w);
    if (rc == OPFOR_ETIMEDOUT)
        return recover(d, d->mode);
    if (!rc)
        d->refreshes[kind]++;
    return rc;
}

int opfor_epd_sleep(opfor_epd_t *d) {
    if (!d || !d->panel)
        return OPFOR_EINVAL;
    if (d->state != OPFOR_EPD_READY)
        return 0;
    int rc = d->panel->ctl->sleep(d);
    if (rc == OPFOR_ETIMEDOUT)
        return recover(d, d->mode);
    if (!rc)
        d->state = OPFOR_EPD_ASLEEP;
    return rc;
}

int opfor_epd_close(opfor_epd_t *d) {
    if (!d || !d->panel)
        return OPFOR_EINVAL;
    int rc = opfor_epd_sleep(d);
    int rc2 = opfor_epd_tx_power(d->tx, 0);
    d->state = OPFOR_EPD_OFF;
    return rc ? rc : rc2;
}
