/* tests/display/test_display_manager.c — the refresh policy with a fake clock over the emulated
 * 2.13 inch panel: full first, at most 5 partial refreshes then a full one, a full one when the
 * last is 10 minutes old, a minimum gap between refreshes (newest frame wins), deep sleep when
 * idle and at shutdown, recovery after a BUSY timeout. The emulator (limit 5 partials in a row)
 * must record no protocol error in any of it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "opfor/display_manager.h"
#include "opfor/epd_emu.h"

typedef struct env {
    uint64_t clock_ms; /* the fake clock */
    opfor_epd_emu_t *emu;
    opfor_epd_t dev;
    opfor_display_t mgr;
    opfor_epd_frame_t f[3]; /* scratch frames */
} env_t;

static uint64_t fake_clock(void *ctx) {
    return ((env_t *)ctx)->clock_ms;
}

static const opfor_epd_panel_t *panel(void) {
    return &opfor_epd_panel_ws_2in13_v4;
}

static int setup(void **state) {
    env_t *v = calloc(1, sizeof *v);
    assert_non_null(v);
    opfor_epd_emu_config_t cfg = {panel(), 0, 5, -1, 0};
    assert_int_equal(opfor_epd_emu_new(&cfg, &v->emu), 0);
    assert_int_equal(opfor_epd_open(&v->dev, panel(), opfor_epd_emu_transport(v->emu)), 0);
    assert_int_equal(opfor_display_init(&v->mgr, &v->dev, NULL, fake_clock, v), 0);
    for (int i = 0; i < 3; i++)
        opfor_epd_frame_init(&v->f[i], panel()->width, panel()->height, 1);
    v->clock_ms = 1000;
    *state = v;
    return 0;
}

static int teardown(void **state) {
    env_t *v = *state;
    opfor_epd_emu_free(v->emu);
    free(v);
    return 0;
}

static void assert_no_errors(const env_t *v) {
    unsigned n = opfor_epd_emu_error_count(v->emu, OPFOR_EMU_ERR_COUNT);
    if (n) {
        char buf[2048];
        fail_msg("%u emulator errors:\n%s", n,
                 opfor_epd_emu_format_errors(v->emu, buf, sizeof buf));
    }
}

/* Draws a small black block for step i (a different place each time) into f. */
static void mark(opfor_epd_frame_t *f, int i) {
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 6; x++)
            opfor_epd_frame_set(f, 8 + (i % 12) * 9 + x, 10 + (i / 12) * 9 + y, 0);
}

static opfor_display_outcome_t show(env_t *v, const opfor_epd_frame_t *f) {
    opfor_display_outcome_t o;
    assert_int_equal(opfor_display_show(&v->mgr, f, &o), 0);
    return o;
}

static void manager_first_frame_is_full(void **state) {
    env_t *v = *state;
    mark(&v->f[0], 0);
    opfor_display_outcome_t o = show(v, &v->f[0]);
    assert_int_equal(o.action, OPFOR_DISPLAY_SHOWN);
    assert_int_equal(o.kind, OPFOR_EPD_REFRESH_FULL);
    assert_int_equal(opfor_epd_frame_diff(opfor_epd_emu_shown(v->emu), &v->f[0], NULL), 0);
    assert_no_errors(v);
}

static void manager_five_partials_then_full(void **state) {
    env_t *v = *state;
    show(v, &v->f[0]);
    for (int round = 0; round < 2; round++) {
        for (int i = 1; i <= 5; i++) {
            v->clock_ms += 5000;
            mark(&v->f[0], round * 6 + i);
            opfor_display_outcome_t o = show(v, &v->f[0]);
            assert_int_equal(o.action, OPFOR_DISPLAY_SHOWN);
            assert_int_equal(o.kind, OPFOR_EPD_REFRESH_PARTIAL);
            assert_int_equal(v->mgr.partials_in_row, (unsigned)i);
        }
        v->clock_ms += 5000;
        mark(&v->f[0], round * 6 + 6);
        opfor_display_outcome_t o = show(v, &v->f[0]);
        assert_int_equal(o.kind, OPFOR_EPD_REFRESH_FULL);
        assert_int_equal(v->mgr.partials_in_row, 0);
    }
    assert_int_equal(v->mgr.counts[OPFOR_EPD_REFRESH_PARTIAL], 10);
    assert_int_equal(v->mgr.counts[OPFOR_EPD_REFRESH_FULL], 3);
    assert_int_equal(opfor_epd_frame_diff(opfor_epd_emu_shown(v->emu), &v->f[0], NULL), 0);
    assert_no_errors(v);
}

static void manager_partial_window_is_the_change(void **state) {
    env_t *v = *state;
    show(v, &v->f[0]);
    v->clock_ms += 5000;
    opfor_epd_frame_set(&v->f[0], 50, 100, 0);
    opfor_epd_frame_set(&v->f[0], 60, 120, 0);
    opfor_display_outcome_t o = show(v, &v->f[0]);
    assert_int_equal(o.kind, OPFOR_EPD_REFRESH_PARTIAL);
    assert_int_equal(o.window.x, 48); /* widened to whole bytes */
    assert_int_equal(o.window.w, 16);
    assert_int_equal(o.window.y, 100);
    assert_int_equal(o.window.h, 21);
    assert_no_errors(v);
}

static void manager_full_when_last_full_is_old(void **state) {
    env_t *v = *state;
    show(v, &v->f[0]);
    v->clock_ms += 5000;
    mark(&v->f[0], 1);
    assert_int_equal(show(v, &v->f[0]).kind, OPFOR_EPD_REFRESH_PARTIAL);
    v->clock_ms += 10 * 60 * 1000; /* ten minutes since the full one */
    mark(&v->f[0], 2);
    assert_int_equal(show(v, &v->f[0]).kind, OPFOR_EPD_REFRESH_FULL);
    v->clock_ms += 5000;
    mark(&v->f[0], 3);
    assert_int_equal(show(v, &v->f[0]).kind, OPFOR_EPD_REFRESH_PARTIAL);
    assert_no_errors(v);
}

static void manager_min_interval_defers_newest_wins(void **state) {
    env_t *v = *state;
    show(v, &v->f[0]); /* at 1000 */
    memcpy(&v->f[1], &v->f[0], sizeof v->f[0]);
    mark(&v->f[1], 1);
    memcpy(&v->f[2], &v->f[1], sizeof v->f[0]);
    mark(&v->f[2], 2);
    v->clock_ms = 1500;
    assert_int_equal(show(v, &v->f[1]).action, OPFOR_DISPLAY_DEFERRED);
    v->clock_ms = 1800;
    assert_int_equal(show(v, &v->f[2]).action, OPFOR_DISPLAY_DEFERRED);
    assert_int_equal(opfor_display_next_deadline(&v->mgr), 3000);
    opfor_display_outcome_t o;
    v->clock_ms = 2999;
    assert_int_equal(opfor_display_tick(&v->mgr, &o), 0);
    assert_int_equal(o.action, OPFOR_DISPLAY_IDLE);
    assert_int_equal(opfor_epd_emu_stats(v->emu)->refreshes[OPFOR_EPD_REFRESH_PARTIAL], 0);
    v->clock_ms = 3000;
    assert_int_equal(opfor_display_tick(&v->mgr, &o), 0);
    assert_int_equal(o.action, OPFOR_DISPLAY_SHOWN);
    assert_int_equal(o.kind, OPFOR_EPD_REFRESH_PARTIAL);
    assert_int_equal(opfor_epd_frame_diff(opfor_epd_emu_shown(v->emu), &v->f[2], NULL), 0);
    assert_int_equal(v->mgr.deferred, 2);
    assert_int_equal(opfor_epd_emu_stats(v->emu)->refreshes[OPFOR_EPD_REFRESH_PARTIAL], 1);
    assert_no_errors(v);
}

static void manager_unchanged_frame_is_not_refreshed(void **state) {
    env_t *v = *state;
    show(v, &v->f[0]);
    v->clock_ms += 5000;
    assert_int_equal(show(v, &v->f[0]).action, OPFOR_DISPLAY_UNCHANGED);
    /* a pending change that is taken back before its turn is dropped */
    memcpy(&v->f[1], &v->f[0], sizeof v->f[0]);
    mark(&v->f[1], 4);
    v->clock_ms += 5000;
    assert_int_equal(show(v, &v->f[1]).action, OPFOR_DISPLAY_SHOWN);
    v->clock_ms += 100;
    mark(&v->f[0], 7);
    assert_int_equal(show(v, &v->f[0]).action, OPFOR_DISPLAY_DEFERRED);
    assert_int_equal(show(v, &v->f[1]).action, OPFOR_DISPLAY_UNCHANGED);
    assert_false(v->mgr.have_pending);
    assert_int_equal(opfor_epd_emu_stats(v->emu)->refreshes[OPFOR_EPD_REFRESH_FULL] +
                         opfor_epd_emu_stats(v->emu)->refreshes[OPFOR_EPD_REFRESH_PARTIAL],
                     2);
    assert_no_errors(v);
}

static void manager_sleeps_when_idle_and_wakes(void **state) {
    env_t *v = *state;
    show(v, &v->f[0]);
    opfor_display_outcome_t o;
    v->clock_ms += 59999;
    assert_int_equal(opfor_display_tick(&v->mgr, &o), 0);
    assert_int_equal(o.action, OPFOR_DISPLAY_IDLE);
    assert_false(opfor_epd_emu_asleep(v->emu));
    v->clock_ms += 1;
    assert_int_equal(opfor_display_tick(&v->mgr, &o), 0);
    assert_int_equal(o.action, OPFOR_DISPLAY_SLEPT);
    assert_true(opfor_epd_emu_asleep(v->emu));
    assert_int_equal(opfor_display_next_deadline(&v->mgr), UINT64_MAX);
    assert_int_equal(opfor_display_tick(&v->mgr, &o), 0); /* no second sleep command */
    assert_int_equal(o.action, OPFOR_DISPLAY_IDLE);
    /* a new frame wakes the panel; a partial refresh is still fine after the reset */
    v->clock_ms += 1000;
    mark(&v->f[0], 3);
    o = show(v, &v->f[0]);
    assert_int_equal(o.kind, OPFOR_EPD_REFRESH_PARTIAL);
    assert_false(opfor_epd_emu_asleep(v->emu));
    assert_int_equal(opfor_epd_frame_diff(opfor_epd_emu_shown(v->emu), &v->f[0], NULL), 0);
    assert_no_errors(v);
}

static void manager_shutdown_flushes_and_sleeps(void **state) {
    env_t *v = *state;
    show(v, &v->f[0]);
    mark(&v->f[0], 5);
    assert_int_equal(show(v, &v->f[0]).action, OPFOR_DISPLAY_DEFERRED);
    assert_int_equal(opfor_display_shutdown(&v->mgr), 0);
    assert_int_equal(opfor_epd_frame_diff(opfor_epd_emu_shown(v->emu), &v->f[0], NULL), 0);
    assert_true(opfor_epd_emu_asleep(v->emu));
    assert_no_errors(v);
}

static void manager_big_change_gets_fast_refresh(void **state) {
    env_t *v = *state;
    show(v, &v->f[0]);
    opfor_epd_frame_init(&v->f[1], panel()->width, panel()->height, 0); /* all black */
    v->clock_ms += 5000;
    opfor_display_outcome_t o = show(v, &v->f[1]);
    assert_int_equal(o.kind, OPFOR_EPD_REFRESH_FAST);
    assert_int_equal(v->mgr.partials_in_row, 0);
    assert_int_equal(opfor_epd_emu_stats(v->emu)->last_kind, OPFOR_EPD_REFRESH_FAST);
    assert_no_errors(v);
}

static void manager_timeout_makes_next_refresh_full(void **state) {
    env_t *v = *state;
    show(v, &v->f[0]);
    v->clock_ms += 5000;
    mark(&v->f[0], 1);
    opfor_epd_emu_stick_busy(v->emu, 1);
    opfor_display_outcome_t o;
    assert_int_equal(opfor_display_show(&v->mgr, &v->f[0], &o), OPFOR_ETIMEDOUT);
    assert_int_equal(v->mgr.errors, 1);
    assert_false(v->mgr.have_shown);
    v->clock_ms += 5000;
    o = show(v, &v->f[0]);
    assert_int_equal(o.kind, OPFOR_EPD_REFRESH_FULL);
    assert_int_equal(opfor_epd_frame_diff(opfor_epd_emu_shown(v->emu), &v->f[0], NULL), 0);
    assert_no_errors(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(manager_first_frame_is_full, setup, teardown),
        cmocka_unit_test_setup_teardown(manager_five_partials_then_full, setup, teardown),
        cmocka_unit_test_setup_teardown(manager_partial_window_is_the_change, setup, teardown),
        cmocka_unit_test_setup_teardown(manager_full_when_last_full_is_old, setup, teardown),
        cmocka_unit_test_setup_teardown(manager_min_interval_defers_newest_wins, setup, teardown),
        cmocka_unit_test_setup_teardown(manager_unchanged_frame_is_not_refreshed, setup, teardown),
        cmocka_unit_test_setup_teardown(manager_sleeps_when_idle_and_wakes, setup, teardown),
        cmocka_unit_test_setup_teardown(manager_shutdown_flushes_and_sleeps, setup, teardown),
        cmocka_unit_test_setup_teardown(manager_big_change_gets_fast_refresh, setup, teardown),
        cmocka_unit_test_setup_teardown(manager_timeout_makes_next_refresh_full, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
