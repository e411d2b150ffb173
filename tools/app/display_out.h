/* tools/app/display_out.h — one e-ink output for the binaries: panel spec, settings, a thread.
 *
 * Shared by opford (--display, tools/opford/display_sink.c) and `opfor display` (cmd_display.c)
 * through the application library both link (tools/app/, opfor_app). A spec names the backend:
 * "epd:PANEL" drives a real panel through spidev + libgpiod, "sim:PANEL:DIR" drives the same
 * controller code over the emulator and writes every refresh as DIR/frame-NNNNNN.png. Refreshes
 * block for seconds while BUSY is active, so they run on the output's own thread: callers hand over
 * a card (newest wins) and return at once; the thread renders it, applies the refresh policy
 * (display_manager.h) and keeps the manager's timers (deferred frames, idle sleep) with timed
 * waits.
 */
#ifndef OPFOR_TOOLS_DISPLAY_OUT_H
#define OPFOR_TOOLS_DISPLAY_OUT_H

#include <stddef.h>

#include "opfor/config.h"
#include "opfor/display_card.h"
#include "opfor/display_manager.h"
#include "opfor/epd_device.h"
#include "opfor/epd_transport.h"

#define OPFOR_DOUT_DIR_MAX 512 /* longest sim directory */

/* Which backend a spec names. */
typedef enum opfor_dout_kind {
    OPFOR_DOUT_EPD = 1, /* a real panel on SPI + GPIO */
    OPFOR_DOUT_SIM      /* the emulator, frames written as PNG files */
} opfor_dout_kind_t;

/* A parsed --display spec. */
typedef struct opfor_dout_spec {
    opfor_dout_kind_t kind;         /* backend */
    const opfor_epd_panel_t *panel; /* which panel */
    char dir[OPFOR_DOUT_DIR_MAX];   /* SIM: where frames go */
} opfor_dout_spec_t;

/* Everything needed to open an output. */
typedef struct opfor_dout_config {
    opfor_dout_spec_t spec;     /* backend and panel */
    int rotation;               /* 0, 90, 180, 270; -1 = the panel's landscape default */
    opfor_epd_hw_config_t hw;   /* EPD: wiring (defaults: the Waveshare HAT) */
    opfor_display_policy_t pol; /* refresh policy (defaults of display_manager.h) */
} opfor_dout_config_t;

/* The panel for a short name ("2in13v4", "7in5v2") or a full one ("ws-7in5-v2"), any case;
 * NULL when unknown. */
const opfor_epd_panel_t *opfor_dout_panel(const char *name);

/* The short panel names, comma-separated, for messages: "2in13v4, 7in5v2". */
const char *opfor_dout_panel_names(void);

/* Parses "epd:PANEL" or "sim:PANEL:DIR" (DIR may hold ':'). Returns 0, or OPFOR_EINVAL with a
 * one-line message in err (which names the spec and lists what is allowed). */
int opfor_dout_parse_spec(const char *s, opfor_dout_spec_t *out, char *err, size_t errsize);

/* Builds an output config from the display-* settings of an opford config (spec, rotation,
 * spidev, GPIO chip and line, pins). The policy gets its defaults. Returns 0, OPFOR_ENOENT when
 * c->display is empty, or OPFOR_EINVAL with err filled. */
int opfor_dout_config_from(const opfor_config_t *c, opfor_dout_config_t *out, char *err,
                           size_t errsize);

/* Receives log lines (level is opfor_log_level_t); may be called from the output's thread. */
typedef void (*opfor_dout_log_fn)(void *ud, int level, const char *line);

typedef struct opfor_dout opfor_dout_t;

/* Opens the panel (or the emulator; a SIM directory is created when missing) and starts the
 * output thread. Nothing is shown until the first card. Returns 0, or a negative OPFOR_E* code
 * with err saying what failed (no SPI device, GPIO line busy, directory not writable...). */
int opfor_dout_open(opfor_dout_t **out, const opfor_dout_config_t *cfg, opfor_dout_log_fn log,
                    void *log_ud, char *err, size_t errsize);

/* Thread-safe and quick: hands card to the output thread. A card not yet drawn is replaced. */
void opfor_dout_show(opfor_dout_t *o, const opfor_card_t *card);

/* Waits up to timeout_ms until every card handed over has been drawn and is on the panel (or
 * kept as the manager's pending frame when the minimum interval has not passed). Returns 0 or
 * OPFOR_ETIMEDOUT. */
int opfor_dout_flush(opfor_dout_t *o, int timeout_ms);

/* Refreshes done so far (SIM: also the PNG files written). Thread-safe. */
unsigned long opfor_dout_refreshes(opfor_dout_t *o);

/* The panel in use. */
const opfor_epd_panel_t *opfor_dout_panel_of(const opfor_dout_t *o);

/* Draws the last card handed over (if not drawn yet), shows any pending frame at once, puts
 * the panel into deep sleep, stops the thread and frees everything. Returns the number of
 * refreshes done over the output's life. NULL is fine (returns 0). */
unsigned long opfor_dout_close(opfor_dout_t *o);

#endif
