/* opfor/epd_emu.h — a panel emulator that plugs in as a transport.
 *
 * Decodes the byte stream into a model of the controller (RAMs, windows, counters, refreshes,
 * BUSY as simulated time, deep sleep, supply), keeps what the panel shows (PNG on request) and
 * records protocol mistakes that real hardware punishes silently, so tests can fail on them.
 */
#ifndef OPFOR_EPD_EMU_H
#define OPFOR_EPD_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/epd_device.h"

/* Mistakes the emulator records. */
typedef enum opfor_epd_emu_err {
    OPFOR_EMU_ERR_BUSY = 0,    /* a command or data sent while BUSY was active */
    OPFOR_EMU_ERR_OVERSIZE,    /* one data transfer longer than the spidev buffer */
    OPFOR_EMU_ERR_PARTIAL_RUN, /* more partial refreshes in a row than allowed */
    OPFOR_EMU_ERR_ASLEEP,      /* a command or data in deep sleep (only a reset wakes it) */
    OPFOR_EMU_ERR_WAIT_ASLEEP, /* waiting on BUSY while the panel sleeps */
    OPFOR_EMU_ERR_UNPOWERED,   /* traffic while the panel supply is off */
    OPFOR_EMU_ERR_SEQUENCE,    /* refresh without waveform or booster, wrong gate count... */
    OPFOR_EMU_ERR_PARAM,       /* wrong parameter count or value, RAM written out of range */
    OPFOR_EMU_ERR_STALE_OLD,   /* differential refresh whose old-data RAM does not hold what
                                  the panel shows: real panels ghost */
    OPFOR_EMU_ERR_COUNT
} opfor_epd_emu_err_t;

/* One recorded mistake. */
typedef struct opfor_epd_emu_error {
    opfor_epd_emu_err_t kind; /* what */
    uint64_t at_ms;           /* simulated time */
    int cmd;                  /* command being processed, -1 for none */
    char msg[112];            /* details */
} opfor_epd_emu_error_t;

/* Counters of what went over the wire and what the panel did. */
typedef struct opfor_epd_emu_stats {
    unsigned long commands;                           /* command bytes */
    unsigned long data_bytes;                         /* data bytes */
    unsigned long transfers;                          /* data transfers */
    unsigned long max_transfer;                       /* longest data transfer */
    unsigned long resets;                             /* hardware resets */
    unsigned long refreshes[OPFOR_EPD_REFRESH_COUNT]; /* refreshes by waveform */
    unsigned partial_run;                             /* partial refreshes since a full/fast */
    opfor_epd_refresh_t last_kind;                    /* last refresh's waveform */
    opfor_epd_rect_t last_window;                     /* last refresh's area (native) */
    uint64_t busy_ms;                                 /* simulated time spent busy */
} opfor_epd_emu_stats_t;

/* Emulator settings. */
typedef struct opfor_epd_emu_config {
    const opfor_epd_panel_t *panel; /* panel to emulate (its controller picks the model) */
    size_t bufsiz;                  /* spidev buffer: longer transfers are errors; 0 = 4096 */
    unsigned max_partials;          /* partial refreshes allowed in a row; 0 = 5 */
    int view_rotation;              /* rotation used for PNG output; -1 = panel default */
    uint32_t spi_hz;                /* simulated SPI clock for transfer time; 0 = 4 MHz */
} opfor_epd_emu_config_t;

typedef struct opfor_epd_emu opfor_epd_emu_t;

/* Creates an emulator; *out is freed with opfor_epd_emu_free. OPFOR_ENOTSUP for a panel whose
 * controller has no model. The panel starts powered, not reset, showing white. */
int opfor_epd_emu_new(const opfor_epd_emu_config_t *cfg, opfor_epd_emu_t **out);
void opfor_epd_emu_free(opfor_epd_emu_t *e);

/* The emulator as a transport (max_chunk preset to the configured bufsiz). The pointer stays
 * valid until opfor_epd_emu_free; closing it does nothing. */
opfor_epd_transport_t *opfor_epd_emu_transport(opfor_epd_emu_t *e);

/* What the panel shows now (native orientation). */
const opfor_epd_frame_t *opfor_epd_emu_shown(const opfor_epd_emu_t *e);
/* The raw content of a RAM as a native frame: which 0 = new data (SSD1680 B/W, UC8179 0x13),
 * 1 = old data (SSD1680 RED, UC8179 0x10). Bits are copied as stored. */
int opfor_epd_emu_ram(const opfor_epd_emu_t *e, int which, opfor_epd_frame_t *out);
/* Writes what the panel shows as a PNG in the configured view rotation. */
int opfor_epd_emu_write_png(const opfor_epd_emu_t *e, const char *path);

/* Counters. */
const opfor_epd_emu_stats_t *opfor_epd_emu_stats(const opfor_epd_emu_t *e);
/* Number of recorded errors of kind, or of all kinds with OPFOR_EMU_ERR_COUNT. */
unsigned opfor_epd_emu_error_count(const opfor_epd_emu_t *e, opfor_epd_emu_err_t kind);
/* The i-th recorded error (the first 64 are kept), or NULL. */
const opfor_epd_emu_error_t *opfor_epd_emu_error_at(const opfor_epd_emu_t *e, unsigned i);
/* Forgets recorded errors. */
void opfor_epd_emu_clear_errors(opfor_epd_emu_t *e);
/* Short name of an error kind ("busy", "oversize", ...). */
const char *opfor_epd_emu_err_name(opfor_epd_emu_err_t kind);
/* Writes the kept errors, one per line, into buf (for test messages); returns buf. */
const char *opfor_epd_emu_format_errors(const opfor_epd_emu_t *e, char *buf, size_t size);

/* The commands received since the last clear, in order (up to 1024 are kept): copies up to
 * max of them into cmds and returns how many were received. */
size_t opfor_epd_emu_trace(const opfor_epd_emu_t *e, uint8_t *cmds, size_t max);
void opfor_epd_emu_trace_clear(opfor_epd_emu_t *e);

/* Simulated time in ms, and a way to let time pass. */
uint64_t opfor_epd_emu_now_ms(const opfor_epd_emu_t *e);
void opfor_epd_emu_advance(opfor_epd_emu_t *e, unsigned ms);
/* True while the panel is in deep sleep. */
int opfor_epd_emu_asleep(const opfor_epd_emu_t *e);
/* Fault injection: the next n refresh busy periods never end (until a reset). */
void opfor_epd_emu_stick_busy(opfor_epd_emu_t *e, unsigned n);

#endif
