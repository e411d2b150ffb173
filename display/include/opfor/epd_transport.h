/* opfor/epd_transport.h — how bytes and pin levels reach an e-ink panel.
 *
 * A transport is a table of function pointers plus a context (like the event-loop backends
 * of Redis' ae.c): one backend drives a real panel through Linux spidev and libgpiod, another
 * is the emulator (epd_emu.h). Controllers only ever talk to this interface. The generic
 * helpers below split data into transfers no longer than the spidev buffer and wait for BUSY
 * (level first, then edges, with a timeout), so every backend gets the same behaviour.
 */
#ifndef OPFOR_EPD_TRANSPORT_H
#define OPFOR_EPD_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/error.h"

/* spidev's default transfer buffer when /sys/module/spidev/parameters/bufsiz cannot be read. */
#define OPFOR_EPD_DEFAULT_BUFSIZ 4096

/* What a backend implements. Every int function returns 0 or a negative OPFOR_E* code unless
 * said otherwise. */
typedef struct opfor_epd_transport_ops {
    const char *name; /* "spidev" or "emulator" */
    /* Drives RST low for low_ms, then high again; does not wait afterwards. */
    int (*reset)(void *ctx, unsigned low_ms);
    /* Sends one command byte with DC low. */
    int (*command)(void *ctx, uint8_t cmd);
    /* Sends len bytes with DC high as one SPI transfer; the helpers keep len <= max_chunk. */
    int (*data)(void *ctx, const uint8_t *buf, size_t len);
    /* Current BUSY level (0 or 1), or a negative error. */
    int (*read_busy)(void *ctx);
    /* Waits up to timeout_ms for an edge on BUSY: 1 when one came, 0 on timeout, <0 on error. */
    int (*wait_edge)(void *ctx, unsigned timeout_ms);
    /* Switches the panel supply line (PWR) on or off; 0 when the backend has none. */
    int (*power)(void *ctx, int on);
    /* Sleeps ms milliseconds (the emulator advances its simulated clock instead). */
    void (*delay_ms)(void *ctx, unsigned ms);
    /* Monotonic time in milliseconds (simulated time in the emulator). */
    uint64_t (*now_ms)(void *ctx);
    /* Releases the backend's resources; the transport must not be used afterwards. */
    void (*close)(void *ctx);
} opfor_epd_transport_ops_t;

/* A backend instance plus the limits and counters the helpers keep. */
typedef struct opfor_epd_transport {
    const opfor_epd_transport_ops_t *ops; /* backend functions */
    void *ctx;                            /* backend state */
    size_t max_chunk;                     /* longest single data transfer (spidev bufsiz) */
    unsigned long bytes_cmd;              /* command bytes sent */
    unsigned long bytes_data;             /* data bytes sent */
    unsigned long transfers;              /* SPI transfers issued (commands + data chunks) */
} opfor_epd_transport_t;

/* Reads spidev's buffer size from path (NULL: /sys/module/spidev/parameters/bufsiz).
 * Returns OPFOR_EPD_DEFAULT_BUFSIZ when the file is missing or holds no positive number. */
size_t opfor_epd_read_bufsiz(const char *path);

/* Pulses RST low for low_ms, then waits settle_ms. */
int opfor_epd_tx_reset(opfor_epd_transport_t *t, unsigned low_ms, unsigned settle_ms);
/* Sends a command byte (DC low). */
int opfor_epd_tx_command(opfor_epd_transport_t *t, uint8_t cmd);
/* Sends len data bytes (DC high) in transfers of at most t->max_chunk bytes. */
int opfor_epd_tx_data(opfor_epd_transport_t *t, const uint8_t *buf, size_t len);
/* A command followed by its parameter bytes (len may be 0). */
int opfor_epd_tx_cmd_data(opfor_epd_transport_t *t, uint8_t cmd, const uint8_t *buf, size_t len);
/* Waits until BUSY leaves busy_level. Reads the level first and returns at once when idle;
 * otherwise waits for edges until the level changes. OPFOR_ETIMEDOUT after timeout_ms. */
int opfor_epd_tx_wait_idle(opfor_epd_transport_t *t, int busy_level, unsigned timeout_ms);
/* Switches the panel supply. */
int opfor_epd_tx_power(opfor_epd_transport_t *t, int on);
/* Sleeps (or advances simulated time). */
void opfor_epd_tx_delay(opfor_epd_transport_t *t, unsigned ms);
/* Closes the backend and clears t. */
void opfor_epd_tx_close(opfor_epd_transport_t *t);

/* Wiring of the hardware backend. Pins are line offsets on the GPIO chip (BCM numbers on a
 * Raspberry Pi); the defaults are the Waveshare e-Paper HAT. Chip select stays with spidev. */
typedef struct opfor_epd_hw_config {
    char spidev[64];    /* SPI device, default "/dev/spidev0.0" */
    uint32_t speed_hz;  /* SPI clock, default 4 MHz */
    char chip[64];      /* GPIO chip label, name or path; "" = search the known Pi labels */
    char find_line[32]; /* when chip is "" and no known label exists: a line name to search
                           every chip for, default "GPIO17" */
    int pin_rst;        /* reset line, default 17 */
    int pin_dc;         /* data/command line, default 25 */
    int pin_busy;       /* busy input line, default 24 */
    int pin_pwr;        /* panel supply line, default 18; -1 when the board has none */
    size_t bufsiz;      /* largest transfer; 0 = read /sys/module/spidev/parameters/bufsiz */
} opfor_epd_hw_config_t;

/* Fills c with the Waveshare HAT defaults described above. */
void opfor_epd_hw_config_default(opfor_epd_hw_config_t *c);

/* The GPIO chip labels tried in order when c->chip is empty (NULL-terminated). */
extern const char *const opfor_epd_gpiochip_labels[];

/* Opens the spidev + libgpiod backend into *t. Errors: OPFOR_ENOENT (no such SPI device, GPIO
 * chip or line), OPFOR_EIO (the kernel refused a setting or a line request), OPFOR_ENOTSUP
 * (built without libgpiod). diag (may be NULL) names the device and the reason. */
int opfor_epd_hw_open(const opfor_epd_hw_config_t *c, opfor_epd_transport_t *t, opfor_diag_t *diag);

#endif
