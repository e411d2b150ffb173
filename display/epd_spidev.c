/* display/epd_spidev.c — the hardware transport: Linux spidev for bytes, libgpiod for RST, DC,
 * BUSY and PWR.
 *
 * libgpiod changed its API completely in 2.0; the build picks the variant from pkg-config's
 * version (OPFOR_GPIOD_V2). Both variants sit behind five small gpio_* functions so the rest
 * of the backend is shared. Only the v1 path (Debian 12, Raspberry Pi OS bookworm) is compiled
 * in CI; the v2 path is kept short on purpose. Chip select is left to spidev.
 */
#include "opfor/epd_transport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const opfor_epd_gpiochip_labels[] = {"pinctrl-rp1", "pinctrl-bcm2712",
                                                 "pinctrl-bcm2711", "pinctrl-bcm2835", NULL};

void opfor_epd_hw_config_default(opfor_epd_hw_config_t *c) {
    memset(c, 0, sizeof *c);
    snprintf(c->spidev, sizeof c->spidev, "%s", "/dev/spidev0.0");
    c->speed_hz = 4000000;
    snprintf(c->find_line, sizeof c->find_line, "%s", "GPIO17");
    c->pin_rst = 17;
    c->pin_dc = 25;
    c->pin_busy = 24;
    c->pin_pwr = 18;
    c->bufsiz = 0;
}

#ifdef OPFOR_HAVE_GPIOD

#include <gpiod.h>
#include <linux/spi/spidev.h>
#include <sys/ioctl.h>

#define CONSUMER "opfor-epd"

/* ---- GPIO: five operations, two libgpiod generations ---------------------------------- */

#if defined(OPFOR_GPIOD_V2) && OPFOR_GPIOD_V2

typedef struct gpio {
    struct gpiod_chip *chip;                /* the opened chip */
    struct gpiod_line_request *req;         /* RST, DC, PWR (outputs) and BUSY (edges) */
    struct gpiod_edge_event_buffer *events; /* where BUSY edges are read into */
} gpio_t;

static struct gpiod_chip *open_chip_matching(const char *want, const char *line_name) {
    for (int i = 0; i < 64; i++) {
        char path[32];
        snprintf(path, sizeof path, "/dev/gpiochip%d", i);
        struct gpiod_chip *chip = gpiod_chip_open(path);
        if (!chip)
            continue;
        int ok = 0;
        struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
        if (info && want &&
            (!strcmp(gpiod_chip_info_get_label(info), want) ||
             !strcmp(gpiod_chip_info_get_name(info), want)))
            ok = 1;
        if (info)
            gpiod_chip_info_free(info);
        if (!ok && line_name && gpiod_chip_get_line_offset_from_name(chip, line_name) >= 0)
            ok = 1;
        if (ok)
            return chip;
        gpiod_chip_close(chip);
    }
    return NULL;
}

static int gpio_open_chip(gpio_t *g, const opfor_epd_hw_config_t *c) {
    if (c->chip[0] == '/')
        g->chip = gpiod_chip_open(c->chip);
    else if (c->chip[0])
        g->chip = open_chip_matching(c->chip, NULL);
    for (int i = 0; !c->chip[0] && !g->chip && opfor_epd_gpiochip_labels[i]; i++)
        g->chip = open_chip_matching(opfor_epd_gpiochip_labels[i], NULL);
    if (!c->chip[0] && !g->chip && c->find_line[0])
        g->chip = open_chip_matching(NULL, c->find_line);
    return g->chip ? 0 : OPFOR_ENOENT;
}

static int add_line(struct gpiod_line_config *lc, int pin, int output, int value) {
    if (pin < 0)
        return 0;
    struct gpiod_line_settings *s = gpiod_line_settings_new();
    if (!s)
        return OPFOR_ENOMEM;
    unsigned int off = (unsigned int)pin;
    if (output) {
        gpiod_line_settings_set_direction(s, GPIOD_LINE_DIRECTION_OUTPUT);
        gpiod_line_settings_set_output_value(s, value ? GPIOD_LINE_VALUE_ACTIVE
                                                      : GPIOD_LINE_VALUE_INACTIVE);
    } else {
        gpiod_line_settings_set_direction(s, GPIOD_LINE_DIRECTION_INPUT);
        gpiod_line_settings_set_edge_detection(s, GPIOD_LINE_EDGE_BOTH);
    }
    int rc = gpiod_line_config_add_line_settings(lc, &off, 1, s) ? OPFOR_EIO : 0;
    gpiod_line_settings_free(s);
    return rc;
}

static int gpio_request(gpio_t *g, const opfor_epd_hw_config_t *c) {
    struct gpiod_line_config *lc = gpiod_line_config_new();
    struct gpiod_request_config *rc_cfg = gpiod_request_config_new();
    int rc = (lc && rc_cfg) ? 0 : OPFOR_ENOMEM;
    if (!rc)
        rc = add_line(lc, c->pin_rst, 1, 1);
    if (!rc)
        rc = add_line(lc, c->pin_dc, 1, 0);
    if (!rc)
        rc = add_line(lc, c->pin_pwr, 1, 1);
    if (!rc)
        rc = add_line(lc, c->pin_busy, 0, 0);
    if (!rc) {
        gpiod_request_config_set_consumer(rc_cfg, CONSUMER);
        g->req = gpiod_chip_request_lines(g->chip, rc_cfg, lc);
        g->events = gpiod_edge_event_buffer_new(16);
        rc = (g->req && g->events) ? 0 : OPFOR_EIO;
    }
    if (lc)
        gpiod_line_config_free(lc);
    if (rc_cfg)
        gpiod_request_config_free(rc_cfg);
    return rc;
}

static int gpio_set(gpio_t *g, int pin, int v) {
    if (pin < 0)
        return 0;
    return gpiod_line_request_set_value(g->req, (unsigned int)pin,
                                        v ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE)
               ? OPFOR_EIO
               : 0;
}

static int gpio_get(gpio_t *g, int pin) {
    int v = (int)gpiod_line_request_get_value(g->req, (unsigned int)pin);
    return v < 0 ? OPFOR_EIO : (v == GPIOD_LINE_VALUE_ACTIVE);
}

static int gpio_wait(gpio_t *g, int pin, unsigned timeout_ms) {
    int rc = gpiod_line_request_wait_edge_events(g->req, (int64_t)timeout_ms * 1000000);
    if (rc < 0)
        return OPFOR_EIO;
    if (rc > 0 && gpiod_line_request_read_edge_events(g->req, g->events, 16) < 0)
        return OPFOR_EIO;
    return rc > 0;
}

static void gpio_close(gpio_t *g) {
    if (g->events)
        gpiod_edge_event_buffer_free(g->events);
    if (g->req)
        gpiod_line_request_release(g->req);
    if (g->chip)
        gpiod_chip_close(g->chip);
    memset(g, 0, sizeof *g);
}

#else /* libgpiod 1.x */

typedef struct gpio {
    struct gpiod_chip *chip;                  /* the opened chip */
    struct gpiod_line *rst, *dc, *busy, *pwr; /* requested lines; NULL when not requested */
} gpio_t;

static struct gpiod_chip *chip_with_line(const char *name) {
    struct gpiod_chip_iter *it = gpiod_chip_iter_new();
    struct gpiod_chip *chip = NULL;
    if (!it)
        return NULL;
    gpiod_foreach_chip(it, chip) {
        if (gpiod_chip_find_line(chip, name))
            break;
    }
    if (chip)
        gpiod_chip_iter_free_noclose(it); /* keep the chip we stopped on */
    else
        gpiod_chip_iter_free(it);
    return chip;
}

static int gpio_open_chip(gpio_t *g, const opfor_epd_hw_config_t *c) {
    if (c->chip[0]) {
        g->chip = gpiod_chip_open_lookup(c->chip); /* name, path, label or number */
    } else {
        for (int i = 0; !g->chip && opfor_epd_gpiochip_labels[i]; i++)
            g->chip = gpiod_chip_open_by_label(opfor_epd_gpiochip_labels[i]);
        if (!g->chip && c->find_line[0])
            g->chip = chip_with_line(c->find_line);
    }
    return g->chip ? 0 : OPFOR_ENOENT;
}

static int req_out(gpio_t *g, struct gpiod_line **l, int pin, int value) {
    if (pin < 0)
        return 0;
    struct gpiod_line *line = gpiod_chip_get_line(g->chip, (unsigned int)pin);
    if (!line)
        return OPFOR_ENOENT;
    if (gpiod_line_request_output(line, CONSUMER, value))
        return OPFOR_EIO;
    *l = line; /* only requested lines are kept, so gpio_close releases exactly those */
    return 0;
}

static int gpio_request(gpio_t *g, const opfor_epd_hw_config_t *c) {
    int rc = req_out(g, &g->rst, c->pin_rst, 1);
    if (!rc)
        rc = req_out(g, &g->dc, c->pin_dc, 0);
    if (!rc)
        rc = req_out(g, &g->pwr, c->pin_pwr, 1);
    if (!rc) {
        struct gpiod_line *busy = gpiod_chip_get_line(g->chip, (unsigned int)c->pin_busy);
        if (!busy)
            rc = OPFOR_ENOENT;
        else if (gpiod_line_request_both_edges_events(busy, CONSUMER))
            rc = OPFOR_EIO;
        else
            g->busy = busy;
    }
    return rc;
}

static struct gpiod_line *line_for(gpio_t *g, const opfor_epd_hw_config_t *c, int pin) {
    if (pin < 0)
        return NULL;
    if (pin == c->pin_rst)
        return g->rst;
    if (pin == c->pin_dc)
        return g->dc;
    if (pin == c->pin_pwr)
        return g->pwr;
    return g->busy;
}

static void gpio_close(gpio_t *g) {
    struct gpiod_line *lines[] = {g->rst, g->dc, g->busy, g->pwr};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if (lines[i])
            gpiod_line_release(lines[i]);
    if (g->chip)
        gpiod_chip_close(g->chip);
    memset(g, 0, sizeof *g);
}

#endif

/* ---- the backend ---------------------------------------------------------------------- */

typedef struct hw {
    int fd;                    /* spidev file */
    uint32_t speed_hz;         /* SPI clock */
    opfor_epd_hw_config_t cfg; /* pins as opened */
    gpio_t gpio;               /* the requested lines */
} hw_t;

#if !(defined(OPFOR_GPIOD_V2) && OPFOR_GPIOD_V2)
static int gpio_set(gpio_t *g, struct gpiod_line *l, int v) {
    (void)g;
    if (!l)
        return 0;
    return gpiod_line_set_value(l, v) ? OPFOR_EIO : 0;
}
#define SET(h, pin, v) gpio_set(&(h)->gpio, line_for(&(h)->gpio, &(h)->cfg, (pin)), (v))
static int get_busy(hw_t *h) {
    int v = gpiod_line_get_value(h->gpio.busy);
    return v < 0 ? OPFOR_EIO : v;
}
#define GET_BUSY(h) get_busy(h)
static int wait_busy_edge(hw_t *h, unsigned timeout_ms) {
    struct timespec ts = {(time_t)(timeout_ms / 1000), (long)(timeout_ms % 1000) * 1000000L};
    int rc = gpiod_line_event_wait(h->gpio.busy, &ts);
    if (rc < 0)
        return OPFOR_EIO;
    if (rc > 0) {
        struct gpiod_line_event ev;
        if (gpiod_line_event_read(h->gpio.busy, &ev))
            return OPFOR_EIO;
    }
    return rc > 0;
}
#else
#define SET(h, pin, v) gpio_set(&(h)->gpio, (pin), (v))
#define GET_BUSY(h) gpio_get(&(h)->gpio, (h)->cfg.pin_busy)
static int wait_busy_edge(hw_t *h, unsigned timeout_ms) {
    return gpio_wait(&h->gpio, h->cfg.pin_busy, timeout_ms);
}
#endif

static void sleep_ms(unsigned ms) {
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) && errno == EINTR) {
    }
}

static int spi_write(hw_t *h, const uint8_t *buf, size_t len) {
    struct spi_ioc_transfer tr;
    memset(&tr, 0, sizeof tr);
    tr.tx_buf = (unsigned long)buf;
    tr.len = (uint32_t)len;
    tr.speed_hz = h->speed_hz;
    tr.bits_per_word = 8;
    return ioctl(h->fd, SPI_IOC_MESSAGE(1), &tr) < 0 ? OPFOR_EIO : 0;
}

static int hw_reset(void *ctx, unsigned low_ms) {
    hw_t *h = ctx;
    int rc = SET(h, h->cfg.pin_rst, 0);
    if (rc)
        return rc;
    sleep_ms(low_ms);
    return SET(h, h->cfg.pin_rst, 1);
}

static int hw_command(void *ctx, uint8_t cmd) {
    hw_t *h = ctx;
    int rc = SET(h, h->cfg.pin_dc, 0);
    return rc ? rc : spi_write(h, &cmd, 1);
}

static int hw_data(void *ctx, const uint8_t *buf, size_t len) {
    hw_t *h = ctx;
    int rc = SET(h, h->cfg.pin_dc, 1);
    return rc ? rc : spi_write(h, buf, len);
}

static int hw_read_busy(void *ctx) {
    hw_t *h = ctx;
    return GET_BUSY(h);
}

static int hw_wait_edge(void *ctx, unsigned timeout_ms) {
    return wait_busy_edge(ctx, timeout_ms);
}

static int hw_power(void *ctx, int on) {
    hw_t *h = ctx;
    return SET(h, h->cfg.pin_pwr, on ? 1 : 0);
}

static void hw_delay(void *ctx, unsigned ms) {
    sleep_ms(ms);
}

static uint64_t hw_now(void *ctx) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void hw_close(void *ctx) {
    hw_t *h = ctx;
    if (!h)
        return;
    gpio_close(&h->gpio);
    if (h->fd >= 0)
        close(h->fd);
    free(h);
}

static const opfor_epd_transport_ops_t hw_ops = {
    "spidev",     hw_reset, hw_command, hw_data, hw_read_busy,
    hw_wait_edge, hw_power, hw_delay,   hw_now,  hw_close,
};

int opfor_epd_hw_open(const opfor_epd_hw_config_t *c, opfor_epd_transport_t *t,
                      opfor_diag_t *diag) {
    if (!c || !t || c->pin_rst < 0 || c->pin_dc < 0 || c->pin_busy < 0)
        return OPFOR_EINVAL;
    memset(t, 0, sizeof *t);
    hw_t *h = calloc(1, sizeof *h);
    if (!h)
        return OPFOR_ENOMEM;
    h->cfg = *c;
    h->speed_hz = c->speed_hz ? c->speed_hz : 4000000;
    h->fd = open(c->spidev, O_RDWR | O_CLOEXEC);
    if (h->fd < 0) {
        int e = errno;
        if (diag)
            snprintf(diag->file, sizeof diag->file, "%s", c->spidev);
        free(h);
        return opfor_diag_set(diag, e == ENOENT ? OPFOR_ENOENT : OPFOR_EIO, 0, 0,
                              "cannot open SPI device: %s (enable SPI with dtparam=spi=on and "
                              "join the spi group)",
                              strerror(e));
    }
    uint8_t mode = SPI_MODE_0, bits = 8;
    if (ioctl(h->fd, SPI_IOC_WR_MODE, &mode) < 0 ||
        ioctl(h->fd, SPI_IOC_WR_BITS_PER_WORD, &bits) < 0 ||
        ioctl(h->fd, SPI_IOC_WR_MAX_SPEED_HZ, &h->speed_hz) < 0) {
        int e = errno;
        hw_close(h);
        if (diag)
            snprintf(diag->file, sizeof diag->file, "%s", c->spidev);
        return opfor_diag_set(diag, OPFOR_EIO, 0, 0, "SPI setup refused: %s", strerror(e));
    }
    int rc = gpio_open_chip(&h->gpio, c);
    if (rc) {
        hw_close(h);
        return opfor_diag_set(diag, rc, 0, 0,
                              "no GPIO chip found (chip \"%s\", line \"%s\"; tried the Raspberry "
                              "Pi labels pinctrl-rp1, pinctrl-bcm2712, pinctrl-bcm2711, "
                              "pinctrl-bcm2835)",
                              c->chip, c->find_line);
    }
    rc = gpio_request(&h->gpio, c);
    if (rc) {
        hw_close(h);
        return opfor_diag_set(diag, rc, 0, 0,
                              "cannot request GPIO lines RST %d, DC %d, BUSY %d, PWR %d (busy "
                              "elsewhere, or not in the gpio group?)",
                              c->pin_rst, c->pin_dc, c->pin_busy, c->pin_pwr);
    }
    t->ops = &hw_ops;
    t->ctx = h;
    t->max_chunk = c->bufsiz ? c->bufsiz : opfor_epd_read_bufsiz(NULL);
    return 0;
}

#else /* no libgpiod at build time */

int opfor_epd_hw_open(const opfor_epd_hw_config_t *c, opfor_epd_transport_t *t,
                      opfor_diag_t *diag) {
    return opfor_diag_set(diag, OPFOR_ENOTSUP, 0, 0, "built without libgpiod");
}

#endif
