/* opfor/display_bench.h — numbers for `opfor bench display`: how long drawing the orders card
 * takes and what one refresh costs on the wire, per panel and refresh kind.
 *
 * Measured against the emulator, so it runs anywhere: render time and driver CPU time are real
 * wall-clock means, bytes and transfers are exact, panel time is the emulator's simulated time
 * (SPI at 4 MHz plus the panel's typical BUSY period).
 */
#ifndef OPFOR_DISPLAY_BENCH_H
#define OPFOR_DISPLAY_BENCH_H

#include <stddef.h>

#include "opfor/epd_device.h"

/* One measurement. */
typedef struct opfor_display_bench_row {
    const char *panel;        /* panel name, e.g. "ws-7in5-v2" */
    opfor_epd_refresh_t kind; /* refresh measured */
    double render_ms;         /* mean wall time to draw the sample card for this panel */
    double send_ms;           /* mean wall time in the driver and emulator for one refresh */
    unsigned long bytes;      /* command + data bytes sent for one refresh */
    unsigned long transfers;  /* SPI transfers for one refresh */
    double panel_ms;          /* simulated time on the panel for one refresh */
} opfor_display_bench_row_t;

/* Rows produced: every known panel times FULL, FAST, PARTIAL. */
#define OPFOR_DISPLAY_BENCH_ROWS 6

/* Runs reps repetitions (at least 1) of each measurement and fills up to max_rows rows;
 * *n_rows gets the number filled. The partial refresh changes one order line of the sample
 * card. OPFOR_ENOTSUP without Pango. */
int opfor_display_bench(unsigned reps, opfor_display_bench_row_t *rows, size_t max_rows,
                        size_t *n_rows);

#endif
