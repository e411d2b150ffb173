/* tests/display/test_epd_controllers.c — both controller modules (SSD1680 on the 2.13 inch V4,
 * UC8179 on the 7.5 inch V2) driven through the emulator: init, full, fast and partial refresh,
 * deep sleep and wake, BUSY timeout recovery. Each test runs once per panel (cmocka prestate)
 * and checks the decoded RAM contents, what the panel shows, and that the emulator recorded no
 * protocol error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/epd_device.h"
#include "opfor/epd_emu.h"

typedef struct env {
    const opfor_epd_panel_t *panel;
    opfor_epd_emu_t *emu;
    opfor_epd_t dev;
    opfor_epd_frame_t a, b, c, ram;
} env_t;

/* A deterministic pattern: stripes plus a diagonal, different for each seed. */
static void pattern(opfor_epd_frame_t *f, const opfor_epd_panel_t *p, int seed) {
    assert_int_equal(opfor_epd_frame_init(f, p->width, p->height, 1), 0);
    for (int y = 0; y < p->height; y++)
        for (int x = 0; x < p->width; x++)
            if ((x / 5 + y / 7 + seed) % 3 == 0 || x == (y + seed) % p->width)
                opfor_epd_frame_set(f, x, y, 0);
}

/* Copy of base with the rectangle r inverted. */
static void change(opfor_epd_frame_t *out, const opfor_epd_frame_t *base, opfor_epd_rect_t r) {
    memcpy(out, base, sizeof *out);
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++)
            opfor_epd_frame_set(out, x, y, !opfor_epd_frame_get(base, x, y));
}

static void assert_frames_equal(const opfor_epd_frame_t *x, const opfor_epd_frame_t *y) {
    opfor_epd_rect_t box;
    long n = opfor_epd_frame_diff(x, y, &box);
    if (n != 0)
        fail_msg("%ld pixels differ in %d,%d %dx%d", n, box.x, box.y, box.w, box.h);
}

static void assert_no_errors(const env_t *v) {
    unsigned n = opfor_epd_emu_error_count(v->emu, OPFOR_EMU_ERR_COUNT);
    if (n) {
        char buf[2048];
        fail_msg("%u emulator errors:\n%s", n,
                 opfor_epd_emu_format_errors(v->emu, buf, sizeof buf));
    }
}

static int setup(void **state) {
    env_t *v = calloc(1, sizeof *v);
    assert_non_null(v);
    v->panel = *state;
    opfor_epd_emu_config_t cfg = {v->panel, 0, 0, -1, 0};
    assert_int_equal(opfor_epd_emu_new(&cfg, &v->emu), 0);
    assert_int_equal(opfor_epd_open(&v->dev, v->panel, opfor_epd_emu_transport(v->emu)), 0);
    pattern(&v->a, v->panel, 0);
    *state = v;
    return 0;
}

static int teardown(void **state) {
    env_t *v = *state;
    opfor_epd_emu_free(v->emu);
    free(v);
    return 0;
}

static void epd_init_sends_reset_then_configuration(void **state) {
    env_t *v = *state;
    assert_int_equal(opfor_epd_wake(&v->dev, OPFOR_EPD_REFRESH_FULL), 0);
    assert_int_equal(v->dev.state, OPFOR_EPD_READY);
    assert_int_equal(opfor_epd_emu_stats(v->emu)->resets, 1);
    uint8_t cmds[64];
    size_t n = opfor_epd_emu_trace(v->emu, cmds, sizeof cmds);
    assert_true(n >= 5);
    if (v->panel->ctl == &opfor_epd_ssd1680) {
        assert_int_equal(cmds[0], 0x12); /* software reset first */
        assert_int_equal(cmds[1], 0x01); /* then the gate count */
    } else {
        assert_int_equal(cmds[0], 0x01);        /* power setting */
        assert_non_null(memchr(cmds, 0x04, n)); /* booster on */
        assert_non_null(memchr(cmds, 0x61, n)); /* resolution */
    }
    assert_no_errors(v);
}

static void epd_full_refresh_fills_both_rams(void **state) {
    env_t *v = *state;
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->a, NULL, NULL), 0);
    assert_frames_equal(opfor_epd_emu_shown(v->emu), &v->a);
    assert_int_equal(opfor_epd_emu_ram(v->emu, 0, &v->ram), 0);
    assert_frames_equal(&v->ram, &v->a);
    assert_int_equal(opfor_epd_emu_ram(v->emu, 1, &v->ram), 0);
    assert_frames_equal(&v->ram, &v->a); /* no shown frame given: old data = new */
    const opfor_epd_emu_stats_t *st = opfor_epd_emu_stats(v->emu);
    assert_int_equal(st->last_kind, OPFOR_EPD_REFRESH_FULL);
    assert_int_equal(st->refreshes[OPFOR_EPD_REFRESH_FULL], 1);
    assert_int_equal(v->dev.refreshes[OPFOR_EPD_REFRESH_FULL], 1);
    assert_no_errors(v);
}

static void epd_fast_refresh_uses_fast_waveform(void **state) {
    env_t *v = *state;
    pattern(&v->b, v->panel, 1);
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->a, NULL, NULL), 0);
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FAST, &v->b, &v->a, NULL), 0);
    assert_frames_equal(opfor_epd_emu_shown(v->emu), &v->b);
    assert_int_equal(opfor_epd_emu_stats(v->emu)->last_kind, OPFOR_EPD_REFRESH_FAST);
    /* and back to a full one: the sensor waveform again */
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->a, &v->b, NULL), 0);
    assert_int_equal(opfor_epd_emu_stats(v->emu)->last_kind, OPFOR_EPD_REFRESH_FULL);
    assert_frames_equal(opfor_epd_emu_shown(v->emu), &v->a);
    assert_no_errors(v);
}

static void epd_partial_refresh_writes_old_and_new_window(void **state) {
    env_t *v = *state;
    const opfor_epd_panel_t *p = v->panel;
    opfor_epd_rect_t r1 = {17, 30, 40, 25};
    opfor_epd_rect_t r2 = {p->width - 50, p->height - 60, 33, 20};
    change(&v->b, &v->a, r1);
    change(&v->c, &v->b, r2);
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->a, NULL, NULL), 0);
    unsigned long before = opfor_epd_emu_stats(v->emu)->data_bytes;
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_PARTIAL, &v->b, &v->a, &r1), 0);
    const opfor_epd_emu_stats_t *st = opfor_epd_emu_stats(v->emu);
    assert_int_equal(st->last_kind, OPFOR_EPD_REFRESH_PARTIAL);
    assert_frames_equal(opfor_epd_emu_shown(v->emu), &v->b);
    /* window widened to bytes (x 16..63, 25 rows) sent once as old and once as new data, plus
     * fewer than 32 bytes of command parameters */
    unsigned long sent = st->data_bytes - before;
    assert_true(sent >= 2 * 6 * 25 && sent < 2 * 6 * 25 + 32);
    /* new-data RAM holds b inside the window, old-data RAM holds a there */
    assert_int_equal(opfor_epd_emu_ram(v->emu, 0, &v->ram), 0);
    for (int y = r1.y; y < r1.y + r1.h; y++)
        for (int x = 16; x < 64; x++)
            assert_int_equal(opfor_epd_frame_get(&v->ram, x, y), opfor_epd_frame_get(&v->b, x, y));
    assert_int_equal(opfor_epd_emu_ram(v->emu, 1, &v->ram), 0);
    for (int y = r1.y; y < r1.y + r1.h; y++)
        for (int x = 16; x < 64; x++)
            assert_int_equal(opfor_epd_frame_get(&v->ram, x, y), opfor_epd_frame_get(&v->a, x, y));
    /* a second partial elsewhere: the old data of the first window must have been brought up
     * to date, or the emulator reports stale old RAM */
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_PARTIAL, &v->c, &v->b, &r2), 0);
    assert_frames_equal(opfor_epd_emu_shown(v->emu), &v->c);
    assert_int_equal(opfor_epd_emu_stats(v->emu)->partial_run, 2);
    assert_no_errors(v);
}

static void epd_sleep_then_partial_wakes_and_rewrites(void **state) {
    env_t *v = *state;
    opfor_epd_rect_t r = {40, 40, 24, 24};
    change(&v->b, &v->a, r);
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->a, NULL, NULL), 0);
    assert_int_equal(opfor_epd_sleep(&v->dev), 0);
    assert_int_equal(v->dev.state, OPFOR_EPD_ASLEEP);
    assert_true(opfor_epd_emu_asleep(v->emu));
    /* the last command is the deep sleep one, and nothing waited on BUSY after it */
    uint8_t cmds[1024];
    size_t n = opfor_epd_emu_trace(v->emu, cmds, sizeof cmds);
    assert_true(n > 0 && n <= sizeof cmds);
    assert_int_equal(cmds[n - 1], v->panel->ctl == &opfor_epd_ssd1680 ? 0x10 : 0x07);
    assert_int_equal(opfor_epd_sleep(&v->dev), 0); /* already asleep: no traffic */
    assert_int_equal(opfor_epd_emu_trace(v->emu, NULL, 0), n);
    /* after the reset the RAM is garbage: a partial must still show exactly b */
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_PARTIAL, &v->b, &v->a, &r), 0);
    assert_false(opfor_epd_emu_asleep(v->emu));
    assert_frames_equal(opfor_epd_emu_shown(v->emu), &v->b);
    assert_int_equal(opfor_epd_emu_stats(v->emu)->resets, 2);
    assert_no_errors(v);
}

static void epd_busy_timeout_resets_and_reports(void **state) {
    env_t *v = *state;
    pattern(&v->b, v->panel, 2);
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->a, NULL, NULL), 0);
    opfor_epd_emu_stick_busy(v->emu, 1);
    uint64_t t0 = opfor_epd_emu_now_ms(v->emu);
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->b, &v->a, NULL),
                     OPFOR_ETIMEDOUT);
    assert_true(opfor_epd_emu_now_ms(v->emu) - t0 >= v->panel->busy_timeout_ms);
    assert_int_equal(v->dev.timeouts, 1);
    assert_int_equal(v->dev.state, OPFOR_EPD_READY); /* reset and init worked */
    assert_int_equal(opfor_epd_emu_stats(v->emu)->resets, 2);
    assert_no_errors(v); /* nothing was sent while BUSY was stuck */
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->b, NULL, NULL), 0);
    assert_frames_equal(opfor_epd_emu_shown(v->emu), &v->b);
    assert_no_errors(v);
}

static void epd_small_spidev_buffer_is_respected(void **state) {
    env_t *v = *state;
    opfor_epd_emu_free(v->emu);
    opfor_epd_emu_config_t cfg = {v->panel, 96, 0, -1, 0};
    assert_int_equal(opfor_epd_emu_new(&cfg, &v->emu), 0);
    assert_int_equal(opfor_epd_open(&v->dev, v->panel, opfor_epd_emu_transport(v->emu)), 0);
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->a, NULL, NULL), 0);
    assert_true(opfor_epd_emu_stats(v->emu)->max_transfer <= 96);
    assert_frames_equal(opfor_epd_emu_shown(v->emu), &v->a);
    assert_no_errors(v);
}

static void epd_close_sleeps_and_cuts_power(void **state) {
    env_t *v = *state;
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->a, NULL, NULL), 0);
    assert_int_equal(opfor_epd_close(&v->dev), 0);
    assert_int_equal(v->dev.state, OPFOR_EPD_OFF);
    /* the image stays on e-ink without power */
    assert_frames_equal(opfor_epd_emu_shown(v->emu), &v->a);
    /* reopening powers up and a full refresh works again */
    pattern(&v->b, v->panel, 1);
    assert_int_equal(opfor_epd_refresh(&v->dev, OPFOR_EPD_REFRESH_FULL, &v->b, NULL, NULL), 0);
    assert_frames_equal(opfor_epd_emu_shown(v->emu), &v->b);
    assert_no_errors(v);
}

#define BOTH(fn)                                                                                   \
    {#fn "/2in13", fn, setup, teardown, (void *)&opfor_epd_panel_ws_2in13_v4}, {                   \
#fn "/7in5", fn, setup, teardown, (void *)&opfor_epd_panel_ws_7in5_v2                      \
    }

int main(void) {
    const struct CMUnitTest tests[] = {
        BOTH(epd_init_sends_reset_then_configuration),
        BOTH(epd_full_refresh_fills_both_rams),
        BOTH(epd_fast_refresh_uses_fast_waveform),
        BOTH(epd_partial_refresh_writes_old_and_new_window),
        BOTH(epd_sleep_then_partial_wakes_and_rewrites),
        BOTH(epd_busy_timeout_resets_and_reports),
        BOTH(epd_small_spidev_buffer_is_respected),
        BOTH(epd_close_sleeps_and_cuts_power),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
