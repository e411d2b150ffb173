/* display/epd_emu_uc8179.c — the emulator's UC8179 model: old (0x10) and new (0x13) data RAMs,
 * the partial window (0x91/0x90/0x92), booster on/off, waveform choice by forced temperature
 * and deep sleep.
 */
#include "epd_emu_int.h"

#include <string.h>

/* Each data command starts at the top-left of the active area (the partial window in partial
 * mode, else the whole resolution) and fills it row by row; 0x12 refreshes that area. The
 * waveform is chosen by comparing the forced temperature (0xE0/0xE5) with the panel's fast and
 * partial values; the partial waveform drives only pixels whose old and new bits differ. DDX
 * bit 0 of 0x50 sets the polarity (1: a set bit is white). */

static void uc_reset(opfor_epd_emu_t *e) {
    emu_uc8179_t *u = &e->u;
    memset(u, 0, sizeof *u);
    u->psr = 0x1F;
    u->tres_w = e->panel->width;
    u->tres_h = e->panel->height;
    u->cdi0 = 0x11; /* DDX = 01 */
    u->wx1 = u->tres_w - 1;
    u->wy1 = u->tres_h - 1;
    u->target = -1;
    opfor__emu_scramble(e);
}

static int uc_param_len(uint8_t cmd) {
    switch (cmd) {
    case 0x02:
    case 0x04:
    case 0x12:
    case 0x91:
    case 0x92:
        return 0;
    case 0x00:
    case 0x07:
    case 0x15:
    case 0x60:
    case 0x82:
    case 0xE0:
    case 0xE5:
        return 1;
    case 0x50:
        return 2;
    case 0x06:
    case 0x61:
    case 0x65:
        return 4;
    case 0x90:
        return 9;
    default:
        return -1; /* 0x01 takes 4 or 5, RAM writes stream, others are ignored */
    }
}

/* The area data commands and refreshes use now. */
static opfor_epd_rect_t area(const opfor_epd_emu_t *e) {
    const emu_uc8179_t *u = &e->u;
    if (u->partial)
        return (opfor_epd_rect_t){u->wx0, u->wy0, u->wx1 - u->wx0 + 1, u->wy1 - u->wy0 + 1};
    return (opfor_epd_rect_t){0, 0, u->tres_w, u->tres_h};
}

static int ram_white(const opfor_epd_emu_t *e, int which, int x, int y) {
    int bit = (e->ram[which][(size_t)y * e->ram_stride + (size_t)(x >> 3)] >> (7 - (x & 7))) & 1;
    return (e->u.cdi0 & 0x01) ? bit : !bit;
}

static void refresh(opfor_epd_emu_t *e) {
    emu_uc8179_t *u = &e->u;
    const opfor_epd_uc8179_params_t *p = e->panel->params;
    if (!u->pon) {
        opfor__emu_error(e, OPFOR_EMU_ERR_SEQUENCE, "display refresh with the booster off");
        opfor__emu_busy(e, 1, 0);
        return;
    }
    opfor_epd_refresh_t kind = OPFOR_EPD_REFRESH_FULL;
    if (u->tsfix && u->temp == p->partial_temp)
        kind = OPFOR_EPD_REFRESH_PARTIAL;
    else if (u->tsfix && u->temp == p->fast_temp)
        kind = OPFOR_EPD_REFRESH_FAST;
    opfor_epd_rect_t r = area(e);
    long stale = 0;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) {
            int now = opfor_epd_frame_get(&e->shown, x, y);
            int nw = ram_white(e, 0, x, y), next = nw;
            if (kind == OPFOR_EPD_REFRESH_PARTIAL) {
                int ow = ram_white(e, 1, x, y);
                stale += ow != now;
                next = ow != nw ? nw : now;
            }
            opfor_epd_frame_set(&e->shown, x, y, next);
        }
    if (stale)
        opfor__emu_error(e, OPFOR_EMU_ERR_STALE_OLD,
                         "%ld pixels of old-data RAM differ from the image shown", stale);
    if (u->cdi0 & 0x08) /* N2OCP: new data is copied to old after the refresh */
        for (int y = r.y; y < r.y + r.h; y++)
            memcpy(&e->ram[1][(size_t)y * e->ram_stride + (size_t)(r.x / 8)],
                   &e->ram[0][(size_t)y * e->ram_stride + (size_t)(r.x / 8)], (size_t)r.w / 8);
    opfor__emu_count_refresh(e, kind, &r);
    opfor__emu_busy(e, opfor__emu_refresh_ms(e, kind), 1);
}

static void uc_command(opfor_epd_emu_t *e, uint8_t cmd) {
    emu_uc8179_t *u = &e->u;
    u->target = -1;
    switch (cmd) {
    case 0x02:
        u->pon = 0;
        opfor__emu_busy(e, 30, 0);
        break;
    case 0x04:
        u->pon = 1;
        opfor__emu_busy(e, 100, 0);
        break;
    case 0x10:
    case 0x13: {
        opfor_epd_rect_t r = area(e);
        u->target = cmd == 0x13 ? 0 : 1;
        u->xc = r.x / 8;
        u->yc = r.y;
        u->overflow_reported = 0;
        break;
    }
    case 0x12:
        refresh(e);
        break;
    case 0x91:
        u->partial = 1;
        break;
    case 0x92:
        u->partial = 0;
        break;
    default:
        break;
    }
}

static void ram_write(opfor_epd_emu_t *e, uint8_t b) {
    emu_uc8179_t *u = &e->u;
    opfor_epd_rect_t r = area(e);
    if (u->yc >= r.y + r.h) {
        if (!u->overflow_reported)
            opfor__emu_error(e, OPFOR_EMU_ERR_PARAM, "more data than the %dx%d area holds", r.w,
                             r.h);
        u->overflow_reported = 1;
        return;
    }
    e->ram[u->target][(size_t)u->yc * e->ram_stride + (size_t)u->xc] = b;
    if (++u->xc > (r.x + r.w - 1) / 8) {
        u->xc = r.x / 8;
        u->yc++;
    }
}

static void set_window(opfor_epd_emu_t *e) {
    emu_uc8179_t *u = &e->u;
    const uint8_t *p = e->param;
    int x0 = (((p[0] & 3) << 8) | p[1]) & ~7, x1 = ((p[2] & 3) << 8) | p[3] | 7;
    int y0 = ((p[4] & 3) << 8) | p[5], y1 = ((p[6] & 3) << 8) | p[7];
    if (x0 > x1 || y0 > y1 || x1 >= u->tres_w || y1 >= u->tres_h) {
        opfor__emu_error(e, OPFOR_EMU_ERR_PARAM,
                         "partial window %d..%d x %d..%d outside the %dx%d resolution", x0, x1, y0,
                         y1, u->tres_w, u->tres_h);
        return;
    }
    u->wx0 = x0;
    u->wx1 = x1;
    u->wy0 = y0;
    u->wy1 = y1;
}

static void uc_data(opfor_epd_emu_t *e, uint8_t b) {
    emu_uc8179_t *u = &e->u;
    const uint8_t *p = e->param;
    size_t n = e->nparam;
    switch (e->cmd) {
    case 0x00:
        u->psr = b;
        break;
    case 0x07:
        if (b != 0xA5) {
            opfor__emu_error(e, OPFOR_EMU_ERR_PARAM, "deep sleep check code 0x%02X, not 0xA5", b);
            break;
        }
        if (u->pon)
            opfor__emu_error(e, OPFOR_EMU_ERR_SEQUENCE, "deep sleep with the booster still on");
        e->asleep = 1;
        break;
    case 0x10:
    case 0x13:
        ram_write(e, b);
        break;
    case 0x50:
        if (n == 1)
            u->cdi0 = b;
        break;
    case 0x61:
        if (n == 4) {
            u->tres_w = (((p[0] & 3) << 8) | p[1]) & ~7;
            u->tres_h = ((p[2] & 3) << 8) | p[3];
            if (u->tres_w != e->panel->width || u->tres_h != e->panel->height)
                opfor__emu_error(e, OPFOR_EMU_ERR_PARAM,
                                 "resolution %dx%d does not match the %dx%d panel", u->tres_w,
                                 u->tres_h, e->panel->width, e->panel->height);
            u->wx1 = u->tres_w - 1;
            u->wy1 = u->tres_h - 1;
        }
        break;
    case 0x90:
        if (n == 9)
            set_window(e);
        break;
    case 0xE0:
        u->tsfix = (b >> 1) & 1;
        break;
    case 0xE5:
        u->temp = b;
        break;
    default:
        break;
    }
}

const emu_model_t opfor__emu_uc8179 = {
    "uc8179", uc_reset, uc_param_len, uc_command, uc_data,
};
