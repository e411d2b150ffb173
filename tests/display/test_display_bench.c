/* tests/display/test_display_bench.c — the numbers opfor_display_bench() returns for
 * `opfor bench display`: one row per panel and refresh kind, byte counts that follow from the
 * panel sizes (both RAMs written on whole-screen refreshes, only a window on partial ones), and
 * simulated panel times no shorter than the panels' typical refresh times.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "opfor/display_bench.h"

static void bench_rows_cover_panels_and_kinds(void **state) {
    opfor_display_bench_row_t rows[OPFOR_DISPLAY_BENCH_ROWS + 2];
    size_t n = 0;
    assert_int_equal(opfor_display_bench(2, rows, sizeof rows / sizeof rows[0], &n), 0);
    assert_int_equal(n, OPFOR_DISPLAY_BENCH_ROWS);
    for (size_t i = 0; i < n; i++) {
        const opfor_display_bench_row_t *r = &rows[i];
        const opfor_epd_panel_t *p = opfor_epd_panel_find(r->panel);
        assert_non_null(p);
        unsigned long frame = (unsigned long)((p->width + 7) / 8) * p->height;
        assert_true(r->render_ms > 0);
        assert_true(r->send_ms >= 0);
        assert_true(r->transfers > 0);
        switch (r->kind) {
        case OPFOR_EPD_REFRESH_FULL:
        case OPFOR_EPD_REFRESH_FAST:
            /* old and new image, plus under 64 bytes of commands and parameters */
            assert_true(r->bytes >= 2 * frame && r->bytes < 2 * frame + 64);
            break;
        case OPFOR_EPD_REFRESH_PARTIAL:
            assert_true(r->bytes > 100 && r->bytes < frame / 2);
            break;
        default:
            fail_msg("unexpected kind %d", r->kind);
        }
        unsigned typical = r->kind == OPFOR_EPD_REFRESH_FULL   ? p->t_full_ms
                           : r->kind == OPFOR_EPD_REFRESH_FAST ? p->t_fast_ms
                                                               : p->t_partial_ms;
        assert_true(r->panel_ms >= typical);
        assert_true(r->panel_ms < typical + 1000);
    }
    assert_string_equal(rows[0].panel, "ws-2in13-v4");
    assert_int_equal(rows[0].kind, OPFOR_EPD_REFRESH_FULL);
    assert_int_equal(rows[2].kind, OPFOR_EPD_REFRESH_PARTIAL);
    assert_string_equal(rows[3].panel, "ws-7in5-v2");
}

static void bench_respects_row_limit(void **state) {
    opfor_display_bench_row_t rows[2];
    size_t n = 99;
    assert_int_equal(opfor_display_bench(1, rows, 2, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(opfor_display_bench(1, NULL, 2, &n), OPFOR_EINVAL);
}

/* Under LeakSanitizer: fontconfig leaks a few hundred bytes once, while parsing its XML config
 * (FcInitLoadConfigAndFonts); that is not ours to fix, so that library alone is suppressed. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
    return "leak:libfontconfig.so\n";
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bench_rows_cover_panels_and_kinds),
        cmocka_unit_test(bench_respects_row_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
