/* tests/display/test_epd_emu.c — the emulator itself: its decoding of RAM addressing (every
 * SSD1680 data-entry mode, the UC8179 partial window) and each protocol error it must catch,
 * provoked with raw bytes so the drivers' own care does not hide a blind spot. Also the PNG
 * round trip of what the panel shows.
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

#include "opfor/epd_device.h"
#include "opfor/epd_emu.h"

static opfor_epd_emu_t *emu(const opfor_epd_panel_t *p, size_t bufsiz) {
    opfor_epd_emu_config_t cfg = {p, bufsiz, 0, -1, 0};
    opfor_epd_emu_t *e = NULL;
    assert_int_equal(opfor_epd_emu_new(&cfg, &e), 0);
    return e;
}

static void send(opfor_epd_transport_t *t, uint8_t cmd, const uint8_t *d, size_t n) {
    assert_int_equal(opfor_epd_tx_cmd_data(t, cmd, d, n), 0);
}

/* Hardware reset and wait, as a driver would. */
static void hw_reset(opfor_epd_emu_t *e) {
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    assert_int_equal(opfor_epd_tx_reset(t, 2, 10), 0);
}

static int ram_byte(opfor_epd_emu_t *e, int which, int xb, int y) {
    static opfor_epd_frame_t f;
    assert_int_equal(opfor_epd_emu_ram(e, which, &f), 0);
    return f.bits[(size_t)y * f.stride + (size_t)xb];
}

static void emu_ssd1680_data_entry_modes(void **state) {
    opfor_epd_emu_t *e = emu(&opfor_epd_panel_ws_2in13_v4, 0);
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    hw_reset(e);
    const uint8_t data[6] = {1, 2, 3, 4, 5, 6};
    /* X then Y, both increasing, window X bytes 2..4, Y 10..11 */
    send(t, 0x11, (const uint8_t[]){0x03}, 1);
    send(t, 0x44, (const uint8_t[]){2, 4}, 2);
    send(t, 0x45, (const uint8_t[]){10, 0, 11, 0}, 4);
    send(t, 0x4E, (const uint8_t[]){2}, 1);
    send(t, 0x4F, (const uint8_t[]){10, 0}, 2);
    send(t, 0x24, data, 6);
    assert_int_equal(ram_byte(e, 0, 2, 10), 1);
    assert_int_equal(ram_byte(e, 0, 4, 10), 3);
    assert_int_equal(ram_byte(e, 0, 2, 11), 4);
    assert_int_equal(ram_byte(e, 0, 4, 11), 6);
    /* X and Y decreasing (mode 0): start at the high corner, window given high to low */
    send(t, 0x11, (const uint8_t[]){0x00}, 1);
    send(t, 0x44, (const uint8_t[]){9, 8}, 2);
    send(t, 0x45, (const uint8_t[]){41, 0, 40, 0}, 4);
    send(t, 0x4E, (const uint8_t[]){9}, 1);
    send(t, 0x4F, (const uint8_t[]){41, 0}, 2);
    send(t, 0x26, data, 4);
    assert_int_equal(ram_byte(e, 1, 9, 41), 1);
    assert_int_equal(ram_byte(e, 1, 8, 41), 2);
    assert_int_equal(ram_byte(e, 1, 9, 40), 3);
    assert_int_equal(ram_byte(e, 1, 8, 40), 4);
    /* Y first (AM = 1), both increasing: columns fill top to bottom */
    send(t, 0x11, (const uint8_t[]){0x07}, 1);
    send(t, 0x44, (const uint8_t[]){0, 1}, 2);
    send(t, 0x45, (const uint8_t[]){100, 0, 102, 0}, 4);
    send(t, 0x4E, (const uint8_t[]){0}, 1);
    send(t, 0x4F, (const uint8_t[]){100, 0}, 2);
    send(t, 0x24, data, 6);
    assert_int_equal(ram_byte(e, 0, 0, 100), 1);
    assert_int_equal(ram_byte(e, 0, 0, 101), 2);
    assert_int_equal(ram_byte(e, 0, 0, 102), 3);
    assert_int_equal(ram_byte(e, 0, 1, 100), 4);
    assert_int_equal(ram_byte(e, 0, 1, 102), 6);
    /* Y above 255 uses the 9th bit */
    send(t, 0x11, (const uint8_t[]){0x03}, 1);
    send(t, 0x44, (const uint8_t[]){0, 15}, 2);
    send(t, 0x45, (const uint8_t[]){0, 0, 249, 0}, 4);
    send(t, 0x4E, (const uint8_t[]){14}, 1);
    send(t, 0x4F, (const uint8_t[]){249, 0}, 2);
    send(t, 0x24, (const uint8_t[]){0x5A}, 1);
    assert_int_equal(ram_byte(e, 0, 14, 249), 0x5A);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_COUNT), 0);
    opfor_epd_emu_free(e);
}

static void emu_uc8179_partial_window_addressing(void **state) {
    opfor_epd_emu_t *e = emu(&opfor_epd_panel_ws_7in5_v2, 0);
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    hw_reset(e);
    /* window x 16..39 (3 bytes), y 300..301 */
    send(t, 0x91, NULL, 0);
    send(t, 0x90, (const uint8_t[]){0, 16, 0, 39, 1, 44, 1, 45, 1}, 9);
    send(t, 0x13, (const uint8_t[]){1, 2, 3, 4, 5, 6}, 6);
    assert_int_equal(ram_byte(e, 0, 2, 300), 1);
    assert_int_equal(ram_byte(e, 0, 4, 300), 3);
    assert_int_equal(ram_byte(e, 0, 2, 301), 4);
    assert_int_equal(ram_byte(e, 0, 4, 301), 6);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_COUNT), 0);
    /* one byte too many for the window */
    send(t, 0x10, (const uint8_t[]){1, 2, 3, 4, 5, 6, 7}, 7);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_PARAM), 1);
    /* a window past the resolution */
    send(t, 0x90, (const uint8_t[]){3, 0x20, 3, 0x27, 0, 0, 0, 1, 1}, 9);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_PARAM), 2);
    opfor_epd_emu_free(e);
}

static void emu_catches_command_while_busy(void **state) {
    opfor_epd_emu_t *e = emu(&opfor_epd_panel_ws_7in5_v2, 0);
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    hw_reset(e);
    send(t, 0x04, NULL, 0);                         /* booster on: busy for a while */
    assert_int_equal(t->ops->read_busy(t->ctx), 0); /* active low */
    send(t, 0x00, (const uint8_t[]){0x1F}, 1);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_BUSY), 1);
    /* waiting first is fine */
    assert_int_equal(opfor_epd_tx_wait_idle(t, 0, 1000), 0);
    send(t, 0x00, (const uint8_t[]){0x1F}, 1);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_BUSY), 1);
    opfor_epd_emu_free(e);
}

static void emu_catches_oversized_transfer(void **state) {
    opfor_epd_emu_t *e = emu(&opfor_epd_panel_ws_2in13_v4, 32);
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    hw_reset(e);
    uint8_t buf[33] = {0};
    assert_int_equal(opfor_epd_tx_command(t, 0x24), 0);
    assert_int_equal(t->ops->data(t->ctx, buf, 33), 0); /* around the chunking helper */
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_OVERSIZE), 1);
    opfor_epd_emu_free(e);
}

static void emu_catches_too_many_partials(void **state) {
    const opfor_epd_panel_t *p = &opfor_epd_panel_ws_2in13_v4;
    opfor_epd_emu_t *e = emu(p, 0);
    static opfor_epd_t d;
    static opfor_epd_frame_t f[2];
    assert_int_equal(opfor_epd_open(&d, p, opfor_epd_emu_transport(e)), 0);
    opfor_epd_frame_init(&f[0], p->width, p->height, 1);
    assert_int_equal(opfor_epd_refresh(&d, OPFOR_EPD_REFRESH_FULL, &f[0], NULL, NULL), 0);
    opfor_epd_rect_t r = {8, 8, 8, 8};
    for (int i = 1; i <= 6; i++) {
        memcpy(&f[i & 1], &f[(i - 1) & 1], sizeof f[0]);
        opfor_epd_frame_set(&f[i & 1], 9, 9, i & 1 ? 0 : 1);
        assert_int_equal(
            opfor_epd_refresh(&d, OPFOR_EPD_REFRESH_PARTIAL, &f[i & 1], &f[(i - 1) & 1], &r), 0);
        assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_PARTIAL_RUN), i > 5);
    }
    /* a full refresh ends the run */
    assert_int_equal(opfor_epd_refresh(&d, OPFOR_EPD_REFRESH_FULL, &f[0], NULL, NULL), 0);
    assert_int_equal(opfor_epd_emu_stats(e)->partial_run, 0);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_COUNT), 1);
    opfor_epd_emu_free(e);
}

static void emu_catches_commands_in_deep_sleep(void **state) {
    opfor_epd_emu_t *e = emu(&opfor_epd_panel_ws_2in13_v4, 0);
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    hw_reset(e);
    send(t, 0x10, (const uint8_t[]){0x01}, 1);
    assert_true(opfor_epd_emu_asleep(e));
    send(t, 0x24, (const uint8_t[]){0xFF}, 1);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_ASLEEP), 1);
    /* BUSY stays active in sleep, and waiting on it is an error of its own */
    assert_int_equal(t->ops->read_busy(t->ctx), 1);
    assert_int_equal(opfor_epd_tx_wait_idle(t, 1, 500), OPFOR_ETIMEDOUT);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_WAIT_ASLEEP), 1);
    /* a reset wakes it and commands are fine again */
    hw_reset(e);
    assert_false(opfor_epd_emu_asleep(e));
    assert_int_equal(opfor_epd_tx_wait_idle(t, 1, 500), 0);
    send(t, 0x12, NULL, 0);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_COUNT), 2);
    opfor_epd_emu_free(e);
}

static void emu_device_never_waits_while_asleep(void **state) {
    const opfor_epd_panel_t *p = &opfor_epd_panel_ws_7in5_v2;
    opfor_epd_emu_t *e = emu(p, 0);
    static opfor_epd_t d;
    assert_int_equal(opfor_epd_open(&d, p, opfor_epd_emu_transport(e)), 0);
    assert_int_equal(opfor_epd_wake(&d, OPFOR_EPD_REFRESH_FULL), 0);
    assert_int_equal(opfor_epd_sleep(&d), 0);
    assert_int_equal(opfor__epd_wait(&d, 1), OPFOR_EPROTO);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_COUNT), 0);
    opfor_epd_emu_free(e);
}

static void emu_catches_stale_old_ram(void **state) {
    const opfor_epd_panel_t *p = &opfor_epd_panel_ws_2in13_v4;
    opfor_epd_emu_t *e = emu(p, 0);
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    static opfor_epd_t d;
    static opfor_epd_frame_t white;
    assert_int_equal(opfor_epd_open(&d, p, t), 0);
    opfor_epd_frame_init(&white, p->width, p->height, 1);
    assert_int_equal(opfor_epd_refresh(&d, OPFOR_EPD_REFRESH_FULL, &white, NULL, NULL), 0);
    /* black into RED RAM at the top-left byte only, then a differential refresh */
    send(t, 0x11, (const uint8_t[]){0x03}, 1);
    send(t, 0x44, (const uint8_t[]){0, 0}, 2);
    send(t, 0x45, (const uint8_t[]){0, 0, 0, 0}, 4);
    send(t, 0x4E, (const uint8_t[]){0}, 1);
    send(t, 0x4F, (const uint8_t[]){0, 0}, 2);
    send(t, 0x26, (const uint8_t[]){0x00}, 1);
    send(t, 0x22, (const uint8_t[]){0xFF}, 1);
    send(t, 0x20, NULL, 0);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_STALE_OLD), 1);
    /* the model ghosts: RED black vs B/W white drives those 8 pixels although nothing changed */
    assert_int_equal(opfor_epd_frame_get(opfor_epd_emu_shown(e), 0, 0), 1);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_COUNT), 1);
    opfor_epd_emu_free(e);
}

static void emu_catches_traffic_without_power(void **state) {
    opfor_epd_emu_t *e = emu(&opfor_epd_panel_ws_2in13_v4, 0);
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    assert_int_equal(opfor_epd_tx_power(t, 0), 0);
    send(t, 0x12, NULL, 0);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_UNPOWERED), 1);
    opfor_epd_emu_free(e);
}

static void emu_catches_sequence_and_parameter_errors(void **state) {
    opfor_epd_emu_t *e = emu(&opfor_epd_panel_ws_7in5_v2, 0);
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    hw_reset(e);
    send(t, 0x12, NULL, 0); /* refresh with the booster off */
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_SEQUENCE), 1);
    opfor_epd_tx_delay(t, 10);
    send(t, 0x07, (const uint8_t[]){0x00}, 1); /* wrong check code: no sleep */
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_PARAM), 1);
    assert_false(opfor_epd_emu_asleep(e));
    send(t, 0x50, (const uint8_t[]){0x11, 0x07, 0x00}, 3); /* one byte too many */
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_PARAM), 2);
    send(t, 0x61, (const uint8_t[]){0x03, 0x20}, 2); /* two bytes short... */
    send(t, 0x04, NULL, 0);                          /* ...noticed at the next command */
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_PARAM), 3);
    opfor_epd_emu_free(e);

    e = emu(&opfor_epd_panel_ws_2in13_v4, 0);
    t = opfor_epd_emu_transport(e);
    hw_reset(e);
    send(t, 0x22, (const uint8_t[]){0xC7}, 1); /* display without a loaded waveform */
    send(t, 0x20, NULL, 0);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_SEQUENCE), 1);
    char buf[512];
    assert_non_null(strstr(opfor_epd_emu_format_errors(e, buf, sizeof buf), "[sequence]"));
    opfor_epd_emu_free(e);
}

static void emu_png_round_trip(void **state) {
    const opfor_epd_panel_t *p = &opfor_epd_panel_ws_2in13_v4;
    opfor_epd_emu_t *e = emu(p, 0);
    static opfor_epd_t d;
    static opfor_epd_frame_t f, back;
    assert_int_equal(opfor_epd_open(&d, p, opfor_epd_emu_transport(e)), 0);
    opfor_epd_frame_init(&f, p->width, p->height, 1);
    for (int i = 0; i < 100; i++)
        opfor_epd_frame_set(&f, i % p->width, i, 0); /* a diagonal, asymmetric on purpose */
    opfor_epd_frame_set(&f, 0, 0, 0);
    assert_int_equal(opfor_epd_refresh(&d, OPFOR_EPD_REFRESH_FULL, &f, NULL, NULL), 0);
    char path[] = "/tmp/opfor_emu_png_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(opfor_epd_emu_write_png(e, path), 0);
    /* the PNG is in view orientation (90 degrees: 250 wide); reading it back undoes that */
    assert_int_equal(opfor_epd_frame_read_png(&back, p->width, p->height, 0, path), OPFOR_ERANGE);
    assert_int_equal(opfor_epd_frame_read_png(&back, p->width, p->height, 90, path), 0);
    assert_int_equal(opfor_epd_frame_diff(&back, &f, NULL), 0);
    unlink(path);
    assert_int_equal(opfor_epd_frame_read_png(&back, p->width, p->height, 90, path), OPFOR_ENOENT);
    opfor_epd_emu_free(e);
}

static void emu_frame_helpers(void **state) {
    static opfor_epd_frame_t a, b;
    assert_int_equal(opfor_epd_frame_init(&a, 801, 480, 1), OPFOR_ERANGE);
    assert_int_equal(opfor_epd_frame_init(&a, 122, 250, 0), 0);
    assert_int_equal(a.stride, 16);
    assert_int_equal(a.bits[15], 0x3F); /* padding stays white */
    memcpy(&b, &a, sizeof a);
    opfor_epd_frame_set(&b, 3, 7, 1);
    opfor_epd_frame_set(&b, 121, 200, 1);
    opfor_epd_rect_t box;
    assert_int_equal(opfor_epd_frame_diff(&a, &b, &box), 2);
    assert_int_equal(box.x, 3);
    assert_int_equal(box.y, 7);
    assert_int_equal(box.w, 119);
    assert_int_equal(box.h, 194);
    opfor_epd_rect_t al = opfor_epd_rect_align8(&box, 122);
    assert_int_equal(al.x, 0);
    assert_int_equal(al.w, 122);
    int nx, ny;
    opfor_epd_logical_to_native(122, 250, 90, 0, 0, &nx, &ny);
    assert_int_equal(nx, 121);
    assert_int_equal(ny, 0);
    opfor_epd_logical_to_native(122, 250, 270, 0, 0, &nx, &ny);
    assert_int_equal(nx, 0);
    assert_int_equal(ny, 249);
    opfor_epd_logical_to_native(122, 250, 180, 0, 0, &nx, &ny);
    assert_int_equal(nx, 121);
    assert_int_equal(ny, 249);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(emu_ssd1680_data_entry_modes),
        cmocka_unit_test(emu_uc8179_partial_window_addressing),
        cmocka_unit_test(emu_catches_command_while_busy),
        cmocka_unit_test(emu_catches_oversized_transfer),
        cmocka_unit_test(emu_catches_too_many_partials),
        cmocka_unit_test(emu_catches_commands_in_deep_sleep),
        cmocka_unit_test(emu_device_never_waits_while_asleep),
        cmocka_unit_test(emu_catches_stale_old_ram),
        cmocka_unit_test(emu_catches_traffic_without_power),
        cmocka_unit_test(emu_catches_sequence_and_parameter_errors),
        cmocka_unit_test(emu_png_round_trip),
        cmocka_unit_test(emu_frame_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
