/* display/epd_emu_ssd1680.c — the emulator's SSD1680 model: both RAMs (B/W 0x24, RED 0x26),
 * window and address counters moved by the data-entry mode, waveform loading and the two
 * display modes of 0x22 + 0x20.
 */
#include "epd_emu_int.h"

#include <string.h>

/* RAM is the chip's full 176 x 296 array; the panel shows sources 0..width-1 of gates
 * 0..height-1 (scan-direction bits of 0x01 are not modelled and are reported when set).
 * Display mode 1 shows B/W; display mode 2 drives the pixels whose RED and B/W bits differ,
 * which only yields the intended image when RED held what was shown. */

enum { LUT_NONE = 0, LUT_SENSOR = 1, LUT_FORCED = 2 };

static void regs_default(opfor_epd_emu_t *e) {
    emu_ssd1680_t *s = &e->s;
    memset(s, 0, sizeof *s);
    s->x0 = 0;
    s->x1 = (int)e->ram_stride - 1;
    s->y0 = 0;
    s->y1 = (int)e->ram_rows - 1;
    s->entry = 0x03;
    s->mux = (int)e->ram_rows;
    s->lut = LUT_NONE;
    s->opt = 0xFF;
    s->target = -1;
}

static void ssd_reset(opfor_epd_emu_t *e) {
    regs_default(e);
    opfor__emu_scramble(e);
}

static int ssd_param_len(uint8_t cmd) {
    switch (cmd) {
    case 0x12:
    case 0x20:
        return 0;
    case 0x10:
    case 0x11:
    case 0x18:
    case 0x22:
    case 0x3C:
    case 0x4E:
        return 1;
    case 0x1A:
    case 0x21:
    case 0x44:
    case 0x4F:
        return 2;
    case 0x01:
        return 3;
    case 0x45:
        return 4;
    default:
        return -1; /* RAM writes, LUTs and commands the model ignores */
    }
}

static int ram_bit(const opfor_epd_emu_t *e, int which, int x, int y) {
    return (e->ram[which][(size_t)y * e->ram_stride + (size_t)(x >> 3)] >> (7 - (x & 7))) & 1;
}

static void display(opfor_epd_emu_t *e, int mode2) {
    emu_ssd1680_t *s = &e->s;
    int w = e->panel->width, h = e->panel->height;
    opfor_epd_refresh_t kind = mode2                  ? OPFOR_EPD_REFRESH_PARTIAL
                               : s->lut == LUT_FORCED ? OPFOR_EPD_REFRESH_FAST
                                                      : OPFOR_EPD_REFRESH_FULL;
    if (s->mux != h)
        opfor__emu_error(e, OPFOR_EMU_ERR_SEQUENCE,
                         "driver output set for %d gates but the panel has %d", s->mux, h);
    long stale = 0;
    opfor_epd_rect_t changed = {0, 0, 0, 0};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int now = opfor_epd_frame_get(&e->shown, x, y);
            int bw = ram_bit(e, 0, x, y), next = bw;
            if (mode2) {
                int red = ram_bit(e, 1, x, y);
                stale += red != now;
                next = red != bw ? bw : now; /* only differing pixels are driven */
            }
            if (next != now) {
                opfor_epd_frame_set(&e->shown, x, y, next);
                opfor_epd_rect_t px = {x, y, 1, 1};
                changed = opfor_epd_rect_union(&changed, &px);
            }
        }
    if (stale)
        opfor__emu_error(e, OPFOR_EMU_ERR_STALE_OLD,
                         "%ld pixels of RED RAM differ from the image shown", stale);
    opfor_epd_rect_t area = mode2 ? changed : (opfor_epd_rect_t){0, 0, w, h};
    opfor__emu_count_refresh(e, kind, &area);
}

static void activate(opfor_epd_emu_t *e) {
    emu_ssd1680_t *s = &e->s;
    int opt = s->opt;
    unsigned ms = 1;
    if (opt & 0x10) { /* load waveform */
        if (opt & 0x20) {
            s->temp_forced = 0; /* sensor reading replaces the register */
            s->lut = LUT_SENSOR;
        } else {
            s->lut = s->temp_forced ? LUT_FORCED : LUT_SENSOR;
        }
        ms += 40;
    }
    int refresh = 0;
    if (opt & 0x04) {
        if (s->lut == LUT_NONE) {
            opfor__emu_error(e, OPFOR_EMU_ERR_SEQUENCE,
                             "display update (0x22 = 0x%02X) without a loaded waveform", opt);
        } else {
            int mode2 = (opt & 0x08) != 0;
            display(e, mode2);
            ms += opfor__emu_refresh_ms(e, e->st.last_kind);
            refresh = 1;
        }
    }
    opfor__emu_busy(e, ms, refresh);
}

static void advance(opfor_epd_emu_t *e) {
    emu_ssd1680_t *s = &e->s;
    int wrapped_x = 0, wrapped_y = 0;
    int first_y = (s->entry & 4) != 0;
    if (!first_y) {
        if (s->xc == s->x1) {
            s->xc = s->x0;
            wrapped_x = 1;
        } else {
            s->xc = (s->xc + ((s->entry & 1) ? 1 : -1)) & 0x3F;
        }
        if (!wrapped_x)
            return;
    }
    if (s->yc == s->y1) {
        s->yc = s->y0;
        wrapped_y = 1;
    } else {
        s->yc = (s->yc + ((s->entry & 2) ? 1 : -1)) & 0x1FF;
    }
    if (first_y && wrapped_y) {
        if (s->xc == s->x1)
            s->xc = s->x0;
        else
            s->xc = (s->xc + ((s->entry & 1) ? 1 : -1)) & 0x3F;
    }
}

static void ram_write(opfor_epd_emu_t *e, uint8_t b) {
    emu_ssd1680_t *s = &e->s;
    if (s->xc < (int)e->ram_stride && s->yc < (int)e->ram_rows) {
        e->ram[s->target][(size_t)s->yc * e->ram_stride + (size_t)s->xc] = b;
    } else if (!s->oob_reported) {
        opfor__emu_error(e, OPFOR_EMU_ERR_PARAM, "RAM write at X byte %d, Y %d is outside the RAM",
                         s->xc, s->yc);
        s->oob_reported = 1;
    }
    advance(e);
}

static void ssd_command(opfor_epd_emu_t *e, uint8_t cmd) {
    emu_ssd1680_t *s = &e->s;
    s->target = -1;
    s->oob_reported = 0;
    switch (cmd) {
    case 0x12: /* software reset: registers to defaults, RAM kept */
        regs_default(e);
        opfor__emu_busy(e, 5, 0);
        break;
    case 0x20:
        activate(e);
        break;
    case 0x24:
        s->target = 0;
        break;
    case 0x26:
        s->target = 1;
        break;
    default:
        break;
    }
}

static void ssd_data(opfor_epd_emu_t *e, uint8_t b) {
    emu_ssd1680_t *s = &e->s;
    const uint8_t *p = e->param;
    size_t n = e->nparam;
    switch (e->cmd) {
    case 0x01:
        if (n == 3) {
            s->mux = (p[0] | ((p[1] & 1) << 8)) + 1;
            if (p[2])
                opfor__emu_error(e, OPFOR_EMU_ERR_PARAM,
                                 "scan direction bits 0x%02X are not modelled", p[2]);
        }
        break;
    case 0x10:
        if (b & 0x03) {
            e->asleep = 1;
            if ((b & 0x03) == 0x03)
                opfor__emu_scramble(e); /* mode 2 does not keep RAM */
        }
        break;
    case 0x11:
        s->entry = b & 0x07;
        break;
    case 0x1A:
        if (n == 2)
            s->temp_forced = 1;
        break;
    case 0x22:
        s->opt = b;
        break;
    case 0x24:
    case 0x26:
        ram_write(e, b);
        break;
    case 0x44:
        if (n == 2) {
            s->x0 = p[0] & 0x3F;
            s->x1 = p[1] & 0x3F;
        }
        break;
    case 0x45:
        if (n == 4) {
            s->y0 = p[0] | ((p[1] & 1) << 8);
            s->y1 = p[2] | ((p[3] & 1) << 8);
        }
        break;
    case 0x4E:
        s->xc = b & 0x3F;
        break;
    case 0x4F:
        if (n == 2)
            s->yc = p[0] | ((p[1] & 1) << 8);
        break;
    default:
        break;
    }
}

const emu_model_t opfor__emu_ssd1680 = {
    "ssd1680", ssd_reset, ssd_param_len, ssd_command, ssd_data,
};
