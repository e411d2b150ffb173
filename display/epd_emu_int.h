/* display/epd_emu_int.h — the emulator's insides, shared by the core (epd_emu.c) and the
 * controller models (epd_emu_ssd1680.c, epd_emu_uc8179.c).
 *
 * The core handles the wire (commands, data, chunk sizes, BUSY, reset, power, sleep checks,
 * errors); a model only interprets command bytes and parameter bytes for one controller.
 */
#ifndef OPFOR_EPD_EMU_INT_H
#define OPFOR_EPD_EMU_INT_H

#include "opfor/epd_emu.h"

#define EMU_MAX_ERRORS 64
#define EMU_MAX_TRACE 1024
#define EMU_PARAM_MAX 16
#define EMU_GARBAGE 0xA5 /* what RAM holds after a reset: neither white nor black */

/* A controller model. */
typedef struct emu_model {
    const char *ctl_name;                             /* controller it emulates */
    void (*reset)(opfor_epd_emu_t *e);                /* registers to defaults, RAM garbage */
    int (*param_len)(uint8_t cmd);                    /* fixed parameter count, -1 = any */
    void (*command)(opfor_epd_emu_t *e, uint8_t cmd); /* a command byte arrived */
    void (*data)(opfor_epd_emu_t *e, uint8_t byte);   /* a parameter byte (already stored) */
} emu_model_t;

/* SSD1680 registers. */
typedef struct emu_ssd1680 {
    int x0, x1, y0, y1; /* RAM window: X in bytes, Y in gates */
    int xc, yc;         /* address counters */
    int entry;          /* data entry mode bits: 1 X up, 2 Y up, 4 Y first */
    int mux;            /* gates from 0x01 */
    int lut;            /* 0 none loaded, 1 from sensor temperature, 2 from forced temperature */
    int temp_forced;    /* 0x1A wrote the temperature register */
    int opt;            /* 0x22 option byte */
    int target;         /* RAM being written: 0 B/W, 1 RED, -1 none */
    int oob_reported;   /* out-of-range write reported for this command */
} emu_ssd1680_t;

/* UC8179 registers. */
typedef struct emu_uc8179 {
    int psr;                /* panel setting */
    int tres_w, tres_h;     /* resolution */
    int cdi0;               /* first CDI byte: DDX bit 0, N2OCP bit 3 */
    int partial;            /* partial mode (0x91) */
    int wx0, wx1, wy0, wy1; /* partial window, inclusive */
    int tsfix;              /* forced temperature in use (0xE0 bit 1) */
    int temp;               /* forced temperature (0xE5) */
    int pon;                /* booster on (0x04) */
    int target;             /* RAM being written: 0 new (0x13), 1 old (0x10), -1 none */
    int xc, yc;             /* write position: byte column, row */
    int overflow_reported;  /* overflow reported for this command */
} emu_uc8179_t;

struct opfor_epd_emu {
    opfor_epd_emu_config_t cfg;     /* settings, defaults filled in */
    const opfor_epd_panel_t *panel; /* emulated panel */
    const emu_model_t *model;       /* controller model */
    opfor_epd_transport_t tx;       /* the transport handed out */
    uint64_t now_us;                /* simulated clock */
    uint64_t busy_until_us;         /* end of the current busy period */
    unsigned stuck_pending;         /* refresh busy periods still to hang */
    int stuck;                      /* the current busy period never ends */
    int powered;                    /* supply on */
    int asleep;                     /* deep sleep */
    int cmd;                        /* current command, -1 before the first */
    uint8_t param[EMU_PARAM_MAX];   /* its first parameter bytes */
    size_t nparam;                  /* parameter bytes received so far */
    int param_reported;             /* excess parameters reported for this command */
    int cmd_flagged;                /* the current command was already reported (busy) */
    int drop_data;                  /* the current command was refused: ignore its data */
    size_t ram_stride, ram_rows;    /* RAM geometry in bytes and rows */
    uint8_t *ram[2];                /* [0] new data, [1] old data */
    opfor_epd_frame_t shown;        /* what the panel shows */
    emu_ssd1680_t s;                /* SSD1680 registers */
    emu_uc8179_t u;                 /* UC8179 registers */
    opfor_epd_emu_stats_t st;       /* counters */
    opfor_epd_emu_error_t errors[EMU_MAX_ERRORS]; /* first errors kept */
    unsigned nerrors;                             /* errors recorded (may exceed EMU_MAX_ERRORS) */
    unsigned nerr_kind[OPFOR_EMU_ERR_COUNT];      /* errors by kind */
    uint8_t trace[EMU_MAX_TRACE];                 /* command bytes received */
    size_t ntrace;                                /* commands received since the last clear */
};

extern const emu_model_t opfor__emu_ssd1680;
extern const emu_model_t opfor__emu_uc8179;

/* Records an error. */
void opfor__emu_error(opfor_epd_emu_t *e, opfor_epd_emu_err_t kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Starts a busy period of ms; a refresh period may be made to hang by opfor_epd_emu_stick_busy. */
void opfor__emu_busy(opfor_epd_emu_t *e, unsigned ms, int is_refresh);
/* Counts a refresh and enforces the limit on partial refreshes in a row. */
void opfor__emu_count_refresh(opfor_epd_emu_t *e, opfor_epd_refresh_t kind,
                              const opfor_epd_rect_t *area);
/* Fills both RAMs with garbage. */
void opfor__emu_scramble(opfor_epd_emu_t *e);
/* Busy duration of a refresh kind for the emulated panel. */
unsigned opfor__emu_refresh_ms(const opfor_epd_emu_t *e, opfor_epd_refresh_t kind);

#endif
