/* display/epd_transport.c — the backend-independent half of the transport: chunked data
 * transfers, the BUSY wait and the spidev buffer size.
 *
 * Keeping these here means the emulator exercises exactly the code that runs on the Pi; only
 * the raw byte and pin operations differ between backends.
 */
#include "opfor/epd_transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t opfor_epd_read_bufsiz(const char *path) {
    FILE *fp = fopen(path ? path : "/sys/module/spidev/parameters/bufsiz", "r");
    if (!fp)
        return OPFOR_EPD_DEFAULT_BUFSIZ;
    char line[32] = "";
    size_t v = 0;
    if (fgets(line, sizeof line, fp)) {
        char *end = NULL;
        unsigned long n = strtoul(line, &end, 10);
        if (end != line && n > 0 && n <= (1ul << 24))
            v = (size_t)n;
    }
    fclose(fp);
    return v ? v : OPFOR_EPD_DEFAULT_BUFSIZ;
}

int opfor_epd_tx_reset(opfor_epd_transport_t *t, unsigned low_ms, unsigned settle_ms) {
    int rc = t->ops->reset(t->ctx, low_ms);
    if (rc)
        return rc;
    if (settle_ms)
        t->ops->delay_ms(t->ctx, settle_ms);
    return 0;
}

int opfor_epd_tx_command(opfor_epd_transport_t *t, uint8_t cmd) {
    int rc = t->ops->command(t->ctx, cmd);
    if (!rc) {
        t->bytes_cmd++;
        t->transfers++;
    }
    return rc;
}

int opfor_epd_tx_data(opfor_epd_transport_t *t, const uint8_t *buf, size_t len) {
    size_t chunk = t->max_chunk ? t->max_chunk : OPFOR_EPD_DEFAULT_BUFSIZ;
    while (len > 0) {
        size_t n = len < chunk ? len : chunk;
        int rc = t->ops->data(t->ctx, buf, n);
        if (rc)
            return rc;
        t->bytes_data += n;
        t->transfers++;
        buf += n;
        len -= n;
    }
    return 0;
}

int opfor_epd_tx_cmd_data(opfor_epd_transport_t *t, uint8_t cmd, const uint8_t *buf, size_t len) {
    int rc = opfor_epd_tx_command(t, cmd);
    if (!rc && len)
        rc = opfor_epd_tx_data(t, buf, len);
    return rc;
}

int opfor_epd_tx_wait_idle(opfor_epd_transport_t *t, int busy_level, unsigned timeout_ms) {
    uint64_t start = t->ops->now_ms(t->ctx);
    for (;;) {
        int level = t->ops->read_busy(t->ctx);
        if (level < 0)
            return level;
        if (level != busy_level)
            return 0;
        uint64_t elapsed = t->ops->now_ms(t->ctx) - start;
        if (elapsed >= timeout_ms)
            return OPFOR_ETIMEDOUT;
        int rc = t->ops->wait_edge(t->ctx, (unsigned)(timeout_ms - elapsed));
        if (rc < 0)
            return rc;
        /* On an edge, or on a timeout, loop: the level decides, and a stale queued edge only
         * costs one more read. */
    }
}

int opfor_epd_tx_power(opfor_epd_transport_t *t, int on) {
    return t->ops->power(t->ctx, on);
}

void opfor_epd_tx_delay(opfor_epd_transport_t *t, unsigned ms) {
    t->ops->delay_ms(t->ctx, ms);
}

void opfor_epd_tx_close(opfor_epd_transport_t *t) {
    if (t && t->ops && t->ops->close)
        t->ops->close(t->ctx);
    if (t)
        memset(t, 0, sizeof *t);
}
