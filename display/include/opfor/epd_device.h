/* opfor/epd_device.h — e-ink panels: descriptors, controller modules and the device object.
 *
 * A panel descriptor names the controller module that drives it; the module holds the command
 * sequences and talks only to an opfor_epd_transport_t. The device object keeps what the RAM is
 * known to hold and recovers from a stuck BUSY line (reset, init again, report). Supported:
 * SSD1680 (Waveshare 2.13 inch V4) and UC8179 (Waveshare 7.5 inch V2).
 */
#ifndef OPFOR_EPD_DEVICE_H
#define OPFOR_EPD_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/epd_frame.h"
#include "opfor/epd_transport.h"

/* Kinds of refresh, from the most thorough to the least. */
typedef enum opfor_epd_refresh {
    OPFOR_EPD_REFRESH_NONE = 0, /* nothing was sent */
    OPFOR_EPD_REFRESH_FULL,     /* whole screen, flashing waveform: clears ghosting */
    OPFOR_EPD_REFRESH_FAST,     /* whole screen, shorter waveform (forced temperature) */
    OPFOR_EPD_REFRESH_PARTIAL,  /* differential refresh of a window: no flashing, ghosts build up */
    OPFOR_EPD_REFRESH_COUNT
} opfor_epd_refresh_t;

/* "none", "full", "fast" or "partial". */
const char *opfor_epd_refresh_name(opfor_epd_refresh_t kind);

typedef struct opfor_epd opfor_epd_t;

/* A controller module: the command sequences of one controller chip. Each function returns 0
 * or a negative OPFOR_E* code; OPFOR_ETIMEDOUT means BUSY never went idle. */
typedef struct opfor_epd_controller {
    const char *name; /* "ssd1680", "uc8179" */
    /* Configures the chip right after a hardware reset, for refreshes of kind mode. */
    int (*init)(opfor_epd_t *d, opfor_epd_refresh_t mode);
    /* Sends next (and the old-data RAM from shown) and refreshes. For PARTIAL, win is the
     * window to update (native pixels) and next must equal shown outside it. */
    int (*refresh)(opfor_epd_t *d, opfor_epd_refresh_t kind, const opfor_epd_frame_t *next,
                   const opfor_epd_frame_t *shown, const opfor_epd_rect_t *win);
    /* Puts the chip into deep sleep; only a hardware reset wakes it. Never waits on BUSY
     * after the sleep command. */
    int (*sleep)(opfor_epd_t *d);
} opfor_epd_controller_t;

/* Parameters of SSD1680 panels. */
typedef struct opfor_epd_ssd1680_params {
    uint8_t border_full;    /* 0x3C border waveform for full and fast refreshes */
    uint8_t border_partial; /* 0x3C border waveform for partial refreshes */
    uint8_t fast_temp;      /* temperature written with 0x1A to pick the fast waveform */
} opfor_epd_ssd1680_params_t;

/* Parameters of UC8179 panels. */
typedef struct opfor_epd_uc8179_params {
    uint8_t psr;            /* 0x00 panel setting */
    uint8_t pwr[4];         /* 0x01 power setting */
    uint8_t btst[4];        /* 0x06 booster soft start */
    uint8_t cdi_full[2];    /* 0x50 VCOM and data interval for full/fast (DDX = 01: 1 = white) */
    uint8_t cdi_partial[2]; /* 0x50 for partial refreshes (border floating) */
    uint8_t tcon;           /* 0x60 non-overlap period */
    uint8_t fast_temp;      /* 0xE5 forced temperature that selects the fast waveform */
    uint8_t partial_temp;   /* 0xE5 forced temperature that selects the partial waveform */
} opfor_epd_uc8179_params_t;

/* Everything that differs between panels. */
typedef struct opfor_epd_panel {
    const char *name;                  /* short id for the command line: "ws-2in13-v4" */
    const char *title;                 /* for people: "Waveshare 2.13 inch e-Paper V4" */
    const opfor_epd_controller_t *ctl; /* the controller module */
    uint16_t width;                    /* native pixels per row (sources) */
    uint16_t height;                   /* native rows (gates) */
    uint8_t busy_level;                /* BUSY level that means busy (1 SSD1680, 0 UC8179) */
    int default_rotation;              /* rotation giving a landscape card */
    unsigned reset_low_ms;             /* RST low time */
    unsigned reset_settle_ms;          /* wait after RST goes high */
    unsigned busy_settle_ms;           /* wait before sampling BUSY after a slow command */
    unsigned t_full_ms;                /* typical full refresh time */
    unsigned t_fast_ms;                /* typical fast refresh time */
    unsigned t_partial_ms;             /* typical partial refresh time */
    unsigned busy_timeout_ms;          /* longest accepted BUSY period */
    const void *params;                /* opfor_epd_ssd1680_params_t or ..._uc8179_... */
} opfor_epd_panel_t;

extern const opfor_epd_controller_t opfor_epd_ssd1680;
extern const opfor_epd_controller_t opfor_epd_uc8179;
extern const opfor_epd_panel_t opfor_epd_panel_ws_2in13_v4; /* 122 x 250, SSD1680 */
extern const opfor_epd_panel_t opfor_epd_panel_ws_7in5_v2;  /* 800 x 480, UC8179 */

/* The known panels, NULL-terminated. */
extern const opfor_epd_panel_t *const opfor_epd_panels[];
/* Finds a panel by name (case-insensitive); NULL when unknown. */
const opfor_epd_panel_t *opfor_epd_panel_find(const char *name);

/* Device states. */
typedef enum opfor_epd_state {
    OPFOR_EPD_OFF = 0, /* opened, not reset yet */
    OPFOR_EPD_READY,   /* initialised and idle */
    OPFOR_EPD_ASLEEP,  /* in deep sleep: only a reset wakes it, BUSY is meaningless */
    OPFOR_EPD_FAILED   /* recovery after a timeout failed too; the next call resets again */
} opfor_epd_state_t;

/* One panel behind one transport. Fields are read-only for callers. */
struct opfor_epd {
    const opfor_epd_panel_t *panel; /* what is attached */
    opfor_epd_transport_t *tx;      /* how to reach it (owned by the caller) */
    opfor_epd_state_t state;        /* see above */
    opfor_epd_refresh_t mode;       /* waveform the chip is currently set up for */
    opfor_epd_rect_t stale_new;     /* new-data RAM area not holding the shown image */
    opfor_epd_rect_t stale_old;     /* old-data RAM area not holding the shown image */
    unsigned long refreshes[OPFOR_EPD_REFRESH_COUNT]; /* refreshes done, by kind */
    unsigned long resets;                             /* hardware resets */
    unsigned long timeouts;                           /* BUSY timeouts seen */
    uint8_t scratch[OPFOR_EPD_FRAME_MAX_BYTES];       /* window bytes being sent */
};

/* Attaches panel to transport and switches the panel supply on. No reset yet. */
int opfor_epd_open(opfor_epd_t *d, const opfor_epd_panel_t *panel, opfor_epd_transport_t *tx);

/* Hardware reset and init for refreshes of kind mode. After a BUSY timeout it resets and
 * initialises once more and still returns OPFOR_ETIMEDOUT; the state tells whether the second
 * attempt worked (READY) or not (FAILED). */
int opfor_epd_wake(opfor_epd_t *d, opfor_epd_refresh_t mode);

/* Shows next. kind FULL and FAST redraw the whole screen; PARTIAL updates window win (clipped
 * and widened to bytes) and needs shown, the image on the panel now, with next equal to shown
 * outside win. shown may be NULL for FULL and FAST. Wakes the panel when it sleeps. On a BUSY
 * timeout: resets, initialises again and returns OPFOR_ETIMEDOUT (the panel content is then
 * unknown). */
int opfor_epd_refresh(opfor_epd_t *d, opfor_epd_refresh_t kind, const opfor_epd_frame_t *next,
                      const opfor_epd_frame_t *shown, const opfor_epd_rect_t *win);

/* Deep sleep. Does nothing when already asleep or never woken. */
int opfor_epd_sleep(opfor_epd_t *d);

/* Deep sleep, then the panel supply off. Does not close the transport. */
int opfor_epd_close(opfor_epd_t *d);

/* ---- for controller modules (internal) ---- */

/* Command plus parameter bytes. */
int opfor__epd_cmd(opfor_epd_t *d, uint8_t cmd, const uint8_t *data, size_t len);
/* Waits for BUSY to go idle with the panel's timeout, after its settle delay when settle is
 * set. Refuses (OPFOR_EPROTO, without touching the line) while the panel sleeps. */
int opfor__epd_wait(opfor_epd_t *d, int settle);
/* Copies the bytes of frame f inside the byte-aligned rectangle r into d->scratch, row by row;
 * returns the byte count. */
size_t opfor__epd_pack(opfor_epd_t *d, const opfor_epd_frame_t *f, const opfor_epd_rect_t *r);

#endif
