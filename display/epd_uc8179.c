/* display/epd_uc8179.c — the UC8179 controller module and the Waveshare 7.5 inch V2 panel.
 *
 * BUSY is low while busy. DDX = 01 makes a 1 bit white in both RAMs and N2OCP is off, so this
 * driver writes the old data itself; in partial mode data fills only the window and 0x12
 * refreshes only the window, so a partial refresh sends old = shown and new = next there.
 */
#include "opfor/epd_device.h"

/* Commands: 0x01 power setting, 0x06 booster, 0x04 power on, 0x00 panel setting (LUT from
 * OTP, black/white), 0x61 resolution, 0x50 VCOM and data interval, 0x60 TCON, 0x10 old data,
 * 0x13 new data, 0x12 display refresh, 0x91/0x90/0x92 partial in/window/out, 0xE0 + 0xE5
 * forced temperature (selects the OTP's fast or partial waveform), 0x02 power off, 0x07 deep
 * sleep with check code 0xA5. */

enum {
    C_PSR = 0x00,
    C_PWR = 0x01,
    C_POF = 0x02,
    C_PON = 0x04,
    C_BTST = 0x06,
    C_DSLP = 0x07,
    C_OLD = 0x10,
    C_DRF = 0x12,
    C_NEW = 0x13,
    C_DUSPI = 0x15,
    C_CDI = 0x50,
    C_TCON = 0x60,
    C_TRES = 0x61,
    C_PTL = 0x90,
    C_PTIN = 0x91,
    C_PTOUT = 0x92,
    C_CCSET = 0xE0,
    C_TSSET = 0xE5,
};

static const opfor_epd_uc8179_params_t *params(const opfor_epd_t *d) {
    return d->panel->params;
}

static int cmd1(opfor_epd_t *d, uint8_t c, uint8_t v) {
    return opfor__epd_cmd(d, c, &v, 1);
}

/* Selects the waveform: sensor temperature for full, a forced one for fast and partial. */
static int set_waveform(opfor_epd_t *d, opfor_epd_refresh_t mode) {
    const opfor_epd_uc8179_params_t *p = params(d);
    if (mode == OPFOR_EPD_REFRESH_FULL)
        return cmd1(d, C_CCSET, 0x00);
    int rc = cmd1(d, C_CCSET, 0x02); /* TSFIX: use the temperature set with 0xE5 */
    if (!rc)
        rc = cmd1(d, C_TSSET, mode == OPFOR_EPD_REFRESH_FAST ? p->fast_temp : p->partial_temp);
    return rc;
}

static int uc8179_init(opfor_epd_t *d, opfor_epd_refresh_t mode) {
    const opfor_epd_uc8179_params_t *p = params(d);
    int w = d->panel->width, h = d->panel->height;
    uint8_t tres[4] = {(uint8_t)(w >> 8), (uint8_t)(w & 0xFF), (uint8_t)(h >> 8),
                       (uint8_t)(h & 0xFF)};
    int rc = opfor__epd_cmd(d, C_PWR, p->pwr, 4);
    if (!rc)
        rc = opfor__epd_cmd(d, C_BTST, p->btst, 4);
    if (!rc)
        rc = opfor__epd_cmd(d, C_PON, NULL, 0);
    if (!rc)
        rc = opfor__epd_wait(d, 1);
    if (!rc)
        rc = cmd1(d, C_PSR, p->psr);
    if (!rc)
        rc = opfor__epd_cmd(d, C_TRES, tres, 4);
    if (!rc)
        rc = cmd1(d, C_DUSPI, 0x00);
    if (!rc)
        rc = opfor__epd_cmd(d, C_CDI, p->cdi_full, 2);
    if (!rc)
        rc = cmd1(d, C_TCON, p->tcon);
    if (!rc)
        rc = set_waveform(d, mode);
    return rc;
}

static int send_window(opfor_epd_t *d, uint8_t ram, const opfor_epd_frame_t *f,
                       const opfor_epd_rect_t *r) {
    size_t n = opfor__epd_pack(d, f, r);
    return opfor__epd_cmd(d, ram, d->scratch, n);
}

static int uc8179_refresh(opfor_epd_t *d, opfor_epd_refresh_t kind, const opfor_epd_frame_t *next,
                          const opfor_epd_frame_t *shown, const opfor_epd_rect_t *win) {
    const opfor_epd_uc8179_params_t *p = params(d);
    int rc = 0;
    if (d->mode != kind) {
        rc = set_waveform(d, kind);
        if (rc)
            return rc;
        d->mode = kind;
    }
    if (kind == OPFOR_EPD_REFRESH_PARTIAL) {
        int x0 = win->x, x1 = win->x + win->w - 1, y0 = win->y, y1 = win->y + win->h - 1;
        uint8_t ptl[9] = {(uint8_t)(x0 >> 8),
                          (uint8_t)(x0 & 0xF8),
                          (uint8_t)(x1 >> 8),
                          (uint8_t)((x1 & 0xFF) | 0x07),
                          (uint8_t)(y0 >> 8),
                          (uint8_t)(y0 & 0xFF),
                          (uint8_t)(y1 >> 8),
                          (uint8_t)(y1 & 0xFF),
                          0x01};
        rc = opfor__epd_cmd(d, C_CDI, p->cdi_partial, 2);
        if (!rc)
            rc = opfor__epd_cmd(d, C_PTIN, NULL, 0);
        if (!rc)
            rc = opfor__epd_cmd(d, C_PTL, ptl, 9);
        if (!rc)
            rc = send_window(d, C_OLD, shown, win);
        if (!rc)
            rc = send_window(d, C_NEW, next, win);
        if (!rc)
            rc = opfor__epd_cmd(d, C_DRF, NULL, 0);
        if (!rc)
            rc = opfor__epd_wait(d, 1);
        if (!rc)
            rc = opfor__epd_cmd(d, C_PTOUT, NULL, 0);
        return rc;
    }
    opfor_epd_rect_t all = {0, 0, d->panel->width, d->panel->height};
    rc = opfor__epd_cmd(d, C_PTOUT, NULL, 0);
    if (!rc)
        rc = opfor__epd_cmd(d, C_CDI, p->cdi_full, 2);
    if (!rc)
        rc = send_window(d, C_OLD, shown ? shown : next, &all);
    if (!rc)
        rc = send_window(d, C_NEW, next, &all);
    if (!rc)
        rc = opfor__epd_cmd(d, C_DRF, NULL, 0);
    if (!rc)
        rc = opfor__epd_wait(d, 1);
    return rc;
}

static int uc8179_sleep(opfor_epd_t *d) {
    int rc = opfor__epd_cmd(d, C_POF, NULL, 0);
    if (!rc)
        rc = opfor__epd_wait(d, 1);
    if (!rc)
        rc = cmd1(d, C_DSLP, 0xA5); /* check code; BUSY is meaningless afterwards */
    return rc;
}

const opfor_epd_controller_t opfor_epd_uc8179 = {
    "uc8179",
    uc8179_init,
    uc8179_refresh,
    uc8179_sleep,
};

static const opfor_epd_uc8179_params_t ws_7in5_v2_params = {
    0x1F,                     /* PSR: KW mode, LUT from OTP */
    {0x07, 0x07, 0x3F, 0x3F}, /* PWR: VGH/VGL 20 V, VDH/VDL 15 V */
    {0x17, 0x17, 0x28, 0x17}, /* BTST */
    {0x11, 0x07},             /* CDI full: border white, DDX 01 */
    {0xA1, 0x07},             /* CDI partial: border floating, DDX 01 */
    0x22,                     /* TCON */
    0x5A,                     /* fast waveform temperature */
    0x6E,                     /* partial waveform temperature */
};

const opfor_epd_panel_t opfor_epd_panel_ws_7in5_v2 = {
    "ws-7in5-v2",
    "Waveshare 7.5 inch e-Paper V2 (UC8179, 800 x 480)",
    &opfor_epd_uc8179,
    800,   /* sources */
    480,   /* gates */
    0,     /* BUSY low while busy */
    0,     /* already landscape */
    2,     /* reset low */
    20,    /* reset settle */
    1,     /* busy settle */
    4000,  /* full */
    1600,  /* fast */
    700,   /* partial */
    20000, /* timeout */
    &ws_7in5_v2_params,
};
