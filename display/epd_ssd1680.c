/* display/epd_ssd1680.c — the SSD1680 controller module and the Waveshare 2.13 inch V4 panel.
 *
 * BUSY is high while busy. The differential (partial) waveform drives every pixel whose RED and
 * B/W bits differ over the whole panel, so RED must hold what is shown and B/W the new image
 * everywhere: the device's stale rectangles say which areas must be rewritten first.
 */
#include "opfor/epd_device.h"

/* Commands: 0x12 software reset, 0x01 driver output (gates), 0x11 data entry mode, 0x44/0x45
 * RAM window, 0x4E/0x4F address counters, 0x24 B/W RAM (new image), 0x26 RED RAM (old image),
 * 0x3C border, 0x18 temperature sensor, 0x1A forced temperature, 0x22 + 0x20 display update,
 * 0x10 deep sleep. Option bytes of 0x22: 0xF7 loads temperature + LUT and runs display mode 1
 * (full); 0xFF the same with display mode 2 (differential); 0xB1 loads temperature + LUT only;
 * 0x91 loads the LUT from the forced temperature (fast); 0xC7 runs mode 1 with the loaded LUT. */

enum {
    C_DRIVER_OUTPUT = 0x01,
    C_DEEP_SLEEP = 0x10,
    C_DATA_ENTRY = 0x11,
    C_SW_RESET = 0x12,
    C_TEMP_SENSOR = 0x18,
    C_TEMP_WRITE = 0x1A,
    C_ACTIVATE = 0x20,
    C_UPDATE_CTRL1 = 0x21,
    C_UPDATE_CTRL2 = 0x22,
    C_WRITE_BW = 0x24,
    C_WRITE_RED = 0x26,
    C_BORDER = 0x3C,
    C_RAM_X = 0x44,
    C_RAM_Y = 0x45,
    C_RAM_X_COUNT = 0x4E,
    C_RAM_Y_COUNT = 0x4F,
};

enum {
    OPT_FULL = 0xF7,      /* clock, analog, load temp, load LUT, display mode 1, off */
    OPT_PARTIAL = 0xFF,   /* the same with display mode 2 */
    OPT_LOAD_TEMP = 0xB1, /* clock, load temp, load LUT, clock off */
    OPT_LOAD_LUT = 0x91,  /* clock, load LUT (from the temperature register), clock off */
    OPT_SHOW = 0xC7,      /* clock, analog, display mode 1 with the loaded LUT, off */
};

static const opfor_epd_ssd1680_params_t *params(const opfor_epd_t *d) {
    return d->panel->params;
}

static int cmd1(opfor_epd_t *d, uint8_t c, uint8_t v) {
    return opfor__epd_cmd(d, c, &v, 1);
}

/* RAM window and counters for the byte-aligned rectangle r, X then Y increasing. */
static int set_window(opfor_epd_t *d, const opfor_epd_rect_t *r) {
    int x0 = r->x / 8, x1 = (r->x + r->w - 1) / 8, y0 = r->y, y1 = r->y + r->h - 1;
    uint8_t xw[2] = {(uint8_t)x0, (uint8_t)x1};
    uint8_t yw[4] = {(uint8_t)(y0 & 0xFF), (uint8_t)(y0 >> 8), (uint8_t)(y1 & 0xFF),
                     (uint8_t)(y1 >> 8)};
    uint8_t yc[2] = {(uint8_t)(y0 & 0xFF), (uint8_t)(y0 >> 8)};
    int rc = cmd1(d, C_DATA_ENTRY, 0x03);
    if (!rc)
        rc = opfor__epd_cmd(d, C_RAM_X, xw, 2);
    if (!rc)
        rc = opfor__epd_cmd(d, C_RAM_Y, yw, 4);
    if (!rc)
        rc = cmd1(d, C_RAM_X_COUNT, (uint8_t)x0);
    if (!rc)
        rc = opfor__epd_cmd(d, C_RAM_Y_COUNT, yc, 2);
    return rc;
}

static int write_ram(opfor_epd_t *d, uint8_t ram, const opfor_epd_frame_t *f,
                     const opfor_epd_rect_t *r) {
    int rc = set_window(d, r);
    if (rc)
        return rc;
    size_t n = opfor__epd_pack(d, f, r);
    return opfor__epd_cmd(d, ram, d->scratch, n);
}

static int activate(opfor_epd_t *d, uint8_t opt) {
    int rc = cmd1(d, C_UPDATE_CTRL2, opt);
    if (!rc)
        rc = opfor__epd_cmd(d, C_ACTIVATE, NULL, 0);
    if (!rc)
        rc = opfor__epd_wait(d, 1);
    return rc;
}

/* Loads the waveform of the forced temperature: the fast refresh. */
static int load_fast_lut(opfor_epd_t *d) {
    uint8_t t[2] = {params(d)->fast_temp, 0x00};
    int rc = activate(d, OPT_LOAD_TEMP);
    if (!rc)
        rc = opfor__epd_cmd(d, C_TEMP_WRITE, t, 2);
    if (!rc)
        rc = activate(d, OPT_LOAD_LUT);
    return rc;
}

static int ssd1680_init(opfor_epd_t *d, opfor_epd_refresh_t mode) {
    int h = d->panel->height;
    uint8_t drv[3] = {(uint8_t)((h - 1) & 0xFF), (uint8_t)((h - 1) >> 8), 0x00};
    uint8_t upd[2] = {0x00, 0x80};
    opfor_epd_rect_t all = {0, 0, d->panel->width, d->panel->height};
    int rc = opfor__epd_cmd(d, C_SW_RESET, NULL, 0);
    if (!rc)
        rc = opfor__epd_wait(d, 1);
    if (!rc)
        rc = opfor__epd_cmd(d, C_DRIVER_OUTPUT, drv, 3);
    if (!rc)
        rc = set_window(d, &all);
    if (!rc)
        rc = cmd1(d, C_BORDER, params(d)->border_full);
    if (!rc)
        rc = opfor__epd_cmd(d, C_UPDATE_CTRL1, upd, 2);
    if (!rc)
        rc = cmd1(d, C_TEMP_SENSOR, 0x80); /* internal sensor */
    if (!rc)
        rc = opfor__epd_wait(d, 0);
    if (!rc && mode == OPFOR_EPD_REFRESH_FAST)
        rc = load_fast_lut(d);
    return rc;
}

static int ssd1680_refresh(opfor_epd_t *d, opfor_epd_refresh_t kind, const opfor_epd_frame_t *next,
                           const opfor_epd_frame_t *shown, const opfor_epd_rect_t *win) {
    const opfor_epd_ssd1680_params_t *p = params(d);
    int rc;
    if (kind == OPFOR_EPD_REFRESH_PARTIAL) {
        opfor_epd_rect_t ro = opfor_epd_rect_union(win, &d->stale_old);
        opfor_epd_rect_t rn = opfor_epd_rect_union(win, &d->stale_new);
        ro = opfor_epd_rect_align8(&ro, d->panel->width);
        rn = opfor_epd_rect_align8(&rn, d->panel->width);
        rc = cmd1(d, C_BORDER, p->border_partial);
        if (!rc)
            rc = write_ram(d, C_WRITE_RED, shown, &ro);
        if (!rc)
            rc = write_ram(d, C_WRITE_BW, next, &rn);
        if (!rc)
            rc = activate(d, OPT_PARTIAL);
        if (rc)
            return rc;
        d->mode = OPFOR_EPD_REFRESH_PARTIAL;
        d->stale_old = *win; /* RED still holds the previous image there */
        d->stale_new = (opfor_epd_rect_t){0, 0, 0, 0};
        return 0;
    }
    opfor_epd_rect_t all = {0, 0, d->panel->width, d->panel->height};
    rc = cmd1(d, C_BORDER, p->border_full);
    if (!rc)
        rc = write_ram(d, C_WRITE_BW, next, &all);
    if (!rc)
        rc = write_ram(d, C_WRITE_RED, next, &all);
    if (!rc && kind == OPFOR_EPD_REFRESH_FAST && d->mode != OPFOR_EPD_REFRESH_FAST)
        rc = load_fast_lut(d);
    if (!rc)
        rc = activate(d, kind == OPFOR_EPD_REFRESH_FAST ? OPT_SHOW : OPT_FULL);
    if (rc)
        return rc;
    d->mode = kind;
    d->stale_old = d->stale_new = (opfor_epd_rect_t){0, 0, 0, 0};
    return 0;
}

static int ssd1680_sleep(opfor_epd_t *d) {
    /* Deep sleep mode 1 keeps the RAM; BUSY then stays high, so nothing may wait on it. */
    return cmd1(d, C_DEEP_SLEEP, 0x01);
}

const opfor_epd_controller_t opfor_epd_ssd1680 = {
    "ssd1680",
    ssd1680_init,
    ssd1680_refresh,
    ssd1680_sleep,
};

static const opfor_epd_ssd1680_params_t ws_2in13_v4_params = {
    0x05, /* border follows the LUT (white) on full refreshes */
    0x80, /* border held on partial refreshes */
    0x64, /* forced temperature for the fast waveform */
};

const opfor_epd_panel_t opfor_epd_panel_ws_2in13_v4 = {
    "ws-2in13-v4",
    "Waveshare 2.13 inch e-Paper V4 (SSD1680, 250 x 122)",
    &opfor_epd_ssd1680,
    122,   /* sources */
    250,   /* gates */
    1,     /* BUSY high while busy */
    90,    /* landscape card */
    2,     /* reset low */
    10,    /* reset settle */
    1,     /* busy settle */
    2000,  /* full */
    1500,  /* fast */
    400,   /* partial */
    10000, /* timeout */
    &ws_2in13_v4_params,
};
