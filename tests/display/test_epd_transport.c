/* tests/display/test_epd_transport.c — the generic transport helpers: data split into chunks no
 * larger than the spidev buffer, the BUSY wait (level first, then edges, timeout), the sysfs
 * buffer size, and the hardware backend failing cleanly on a machine without SPI.
 *
 * A scripted fake backend records every call so the tests can assert exact chunk sizes and
 * exactly when the helpers waited.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opfor/epd_emu.h"
#include "opfor/epd_transport.h"

typedef struct fake {
    size_t chunks[64]; /* lengths of data transfers */
    int nchunks;
    int commands;
    uint64_t now;        /* ms */
    uint64_t busy_until; /* BUSY is 1 until then */
    int stuck;           /* BUSY never drops */
    int wait_calls;
} fake_t;

static int f_reset(void *c, unsigned ms) {
    ((fake_t *)c)->now += ms;
    return 0;
}
static int f_command(void *c, uint8_t b) {
    ((fake_t *)c)->commands++;
    return 0;
}
static int f_data(void *c, const uint8_t *buf, size_t len) {
    fake_t *f = c;
    if (f->nchunks < 64)
        f->chunks[f->nchunks] = len;
    f->nchunks++;
    return 0;
}
static int f_read_busy(void *c) {
    fake_t *f = c;
    return f->stuck || f->now < f->busy_until;
}
static int f_wait_edge(void *c, unsigned timeout) {
    fake_t *f = c;
    f->wait_calls++;
    if (!f->stuck && f->now < f->busy_until && f->busy_until <= f->now + timeout) {
        f->now = f->busy_until;
        return 1;
    }
    f->now += timeout;
    return 0;
}
static int f_power(void *c, int on) {
    return 0;
}
static void f_delay(void *c, unsigned ms) {
    ((fake_t *)c)->now += ms;
}
static uint64_t f_now(void *c) {
    return ((fake_t *)c)->now;
}
static void f_close(void *c) {}

static const opfor_epd_transport_ops_t fake_ops = {
    "fake", f_reset, f_command, f_data, f_read_busy, f_wait_edge, f_power, f_delay, f_now, f_close};

static opfor_epd_transport_t make(fake_t *f, size_t max_chunk) {
    memset(f, 0, sizeof *f);
    opfor_epd_transport_t t = {&fake_ops, f, max_chunk, 0, 0, 0};
    return t;
}

static void transport_chunks_data_by_max_chunk(void **state) {
    fake_t f;
    opfor_epd_transport_t t = make(&f, 100);
    uint8_t buf[250] = {0};
    assert_int_equal(opfor_epd_tx_cmd_data(&t, 0x24, buf, sizeof buf), 0);
    assert_int_equal(f.commands, 1);
    assert_int_equal(f.nchunks, 3);
    assert_int_equal(f.chunks[0], 100);
    assert_int_equal(f.chunks[1], 100);
    assert_int_equal(f.chunks[2], 50);
    assert_int_equal(t.bytes_data, 250);
    assert_int_equal(t.bytes_cmd, 1);
    assert_int_equal(t.transfers, 4);
}

static void transport_defaults_to_4096_byte_chunks(void **state) {
    fake_t f;
    opfor_epd_transport_t t = make(&f, 0);
    static uint8_t buf[5000];
    assert_int_equal(opfor_epd_tx_data(&t, buf, sizeof buf), 0);
    assert_int_equal(f.nchunks, 2);
    assert_int_equal(f.chunks[0], 4096);
    assert_int_equal(f.chunks[1], 904);
}

static void transport_wait_reads_level_before_waiting(void **state) {
    fake_t f;
    opfor_epd_transport_t t = make(&f, 64);
    f.busy_until = 0; /* idle */
    assert_int_equal(opfor_epd_tx_wait_idle(&t, 1, 1000), 0);
    assert_int_equal(f.wait_calls, 0);
    assert_int_equal(f.now, 0);
    /* the same line read as active-low: level 0 now means busy, so it must wait and time out */
    assert_int_equal(opfor_epd_tx_wait_idle(&t, 0, 200), OPFOR_ETIMEDOUT);
    assert_true(f.wait_calls >= 1);
}

static void transport_wait_follows_edge(void **state) {
    fake_t f;
    opfor_epd_transport_t t = make(&f, 64);
    f.now = 10;
    f.busy_until = 310;
    assert_int_equal(opfor_epd_tx_wait_idle(&t, 1, 1000), 0);
    assert_int_equal(f.now, 310);
    assert_true(f.wait_calls >= 1);
}

static void transport_wait_times_out(void **state) {
    fake_t f;
    opfor_epd_transport_t t = make(&f, 64);
    f.stuck = 1;
    assert_int_equal(opfor_epd_tx_wait_idle(&t, 1, 750), OPFOR_ETIMEDOUT);
    assert_int_equal(f.now, 750);
    /* a busy period longer than the timeout also times out */
    f.stuck = 0;
    f.now = 0;
    f.busy_until = 5000;
    assert_int_equal(opfor_epd_tx_wait_idle(&t, 1, 750), OPFOR_ETIMEDOUT);
}

static void transport_reads_spidev_bufsiz(void **state) {
    char path[] = "/tmp/opfor_bufsiz_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "65536\n", 6), 6);
    close(fd);
    assert_int_equal(opfor_epd_read_bufsiz(path), 65536);
    FILE *fp = fopen(path, "w");
    fputs("lots\n", fp);
    fclose(fp);
    assert_int_equal(opfor_epd_read_bufsiz(path), OPFOR_EPD_DEFAULT_BUFSIZ);
    unlink(path);
    assert_int_equal(opfor_epd_read_bufsiz(path), OPFOR_EPD_DEFAULT_BUFSIZ);
}

static void transport_emulator_enforces_buffer_size(void **state) {
    opfor_epd_emu_config_t cfg = {&opfor_epd_panel_ws_2in13_v4, 64, 0, -1, 0};
    opfor_epd_emu_t *e;
    assert_int_equal(opfor_epd_emu_new(&cfg, &e), 0);
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    assert_int_equal(t->max_chunk, 64);
    uint8_t buf[1000];
    memset(buf, 0xFF, sizeof buf);
    assert_int_equal(opfor_epd_tx_cmd_data(t, 0x24, buf, sizeof buf), 0);
    const opfor_epd_emu_stats_t *st = opfor_epd_emu_stats(e);
    assert_int_equal(st->max_transfer, 64);
    assert_int_equal(st->transfers, 16);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_OVERSIZE), 0);
    t->max_chunk = 128; /* a helper that ignored bufsiz */
    assert_int_equal(opfor_epd_tx_cmd_data(t, 0x24, buf, sizeof buf), 0);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_OVERSIZE), 8);
    opfor_epd_emu_free(e);
}

static void transport_hw_defaults_are_waveshare_hat(void **state) {
    opfor_epd_hw_config_t c;
    opfor_epd_hw_config_default(&c);
    assert_string_equal(c.spidev, "/dev/spidev0.0");
    assert_int_equal(c.pin_rst, 17);
    assert_int_equal(c.pin_dc, 25);
    assert_int_equal(c.pin_busy, 24);
    assert_int_equal(c.pin_pwr, 18);
    assert_string_equal(c.chip, "");
    assert_string_equal(opfor_epd_gpiochip_labels[0], "pinctrl-rp1");
}

static void transport_hw_open_fails_without_device(void **state) {
    opfor_epd_hw_config_t c;
    opfor_epd_hw_config_default(&c);
    snprintf(c.spidev, sizeof c.spidev, "%s", "/nonexistent/spidev9.9");
    opfor_epd_transport_t t;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = opfor_epd_hw_open(&c, &t, &d);
#ifdef OPFOR_TEST_NO_GPIOD
    assert_int_equal(rc, OPFOR_ENOTSUP);
#else
    assert_true(rc == OPFOR_ENOENT || rc == OPFOR_ENOTSUP);
    if (rc == OPFOR_ENOENT) {
        assert_string_equal(d.file, "/nonexistent/spidev9.9");
        assert_non_null(strstr(d.msg, "SPI"));
    }
#endif
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transport_chunks_data_by_max_chunk),
        cmocka_unit_test(transport_defaults_to_4096_byte_chunks),
        cmocka_unit_test(transport_wait_reads_level_before_waiting),
        cmocka_unit_test(transport_wait_follows_edge),
        cmocka_unit_test(transport_wait_times_out),
        cmocka_unit_test(transport_reads_spidev_bufsiz),
        cmocka_unit_test(transport_emulator_enforces_buffer_size),
        cmocka_unit_test(transport_hw_defaults_are_waveshare_hat),
        cmocka_unit_test(transport_hw_open_fails_without_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
