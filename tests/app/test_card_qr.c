/* tests/app/test_card_qr.c — the players' link as a QR code on the e-ink panel's waiting card
 * (tools/app/card_qr.c puts libqrencode's modules on the card, display/display_render.c draws
 * them): the card holds exactly libqrencode's matrix for a known link, and the frame drawn for
 * the large (7.5 inch) and the small (2.13 inch) panel shows every module as a square of whole
 * pixels, dark where the matrix is dark, inside a light quiet zone of four modules; a card
 * without a code draws none, and a text too long for one is refused. No decoder is needed: the
 * pixels are compared with qrencode's own matrix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <qrencode.h>
#include <stdlib.h>
#include <string.h>

#include "card_build.h"
#include "card_qr.h"
#include "opfor/display_card.h"
#include "opfor/epd_device.h"
#include "opfor/epd_frame.h"

#define LINK "http://192.168.1.20:8080/#t=0123456789abcdef0123456789abcdef"

static void waiting_card(opfor_card_t *c, int with_qr) {
    opfor_card_waiting(c, "Waiting for orders", "Players' page: " LINK);
    if (with_qr)
        assert_int_equal(opfor_card_set_qr(c, LINK), 0);
}

static void card_holds_qrencodes_matrix(void **state) {
    (void)state;
    opfor_card_t *c = calloc(1, sizeof *c);
    waiting_card(c, 1);
    QRcode *q = QRcode_encodeString(LINK, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    assert_non_null(q);
    assert_int_equal(c->qr_width, q->width);
    int dark = 0;
    for (int y = 0; y < q->width; y++)
        for (int x = 0; x < q->width; x++) {
            assert_int_equal(opfor_card_qr_dark(c, x, y), q->data[y * q->width + x] & 1);
            dark += opfor_card_qr_dark(c, x, y);
        }
    assert_true(dark > q->width); /* a real code, not an empty square */
    assert_int_equal(opfor_card_qr_dark(c, -1, 0), 0);
    assert_int_equal(opfor_card_qr_dark(c, q->width, 0), 0);
    QRcode_free(q);
    free(c);
}

/* Whether logical pixel (x, y) of the frame drawn at rotation rot is dark. */
static int px_dark(const opfor_epd_frame_t *f, int rot, int x, int y) {
    int nx, ny;
    opfor_epd_logical_to_native(f->width, f->height, rot, x, y, &nx, &ny);
    return !opfor_epd_frame_get(f, nx, ny);
}

/* Renders the waiting card with its code on panel and checks every pixel of the code and its
 * quiet zone against the card's (qrencode's) modules. */
static void drawn_module_for_module(const opfor_epd_panel_t *panel, int min_module) {
    opfor_card_t *c = calloc(1, sizeof *c);
    opfor_epd_frame_t *f = malloc(sizeof *f);
    opfor_card_layout_t L;
    waiting_card(c, 1);
    int rot = panel->default_rotation;
    assert_int_equal(opfor_card_render_panel(c, panel, rot, f, &L), 0);
    const int w = c->qr_width, mod = L.qr_module;
    assert_true(mod >= min_module);
    assert_int_equal(L.qr.w, w * mod);
    assert_int_equal(L.qr.h, w * mod);
    const int quiet = OPFOR_CARD_QR_QUIET * mod;
    assert_true(L.qr.x - quiet >= 0 && L.qr.y - quiet >= 0);
    assert_true(L.qr.x + L.qr.w + quiet <= L.width && L.qr.y + L.qr.h + quiet <= L.height);
    long dark_px = 0, dark_modules = 0;
    for (int y = -quiet; y < L.qr.h + quiet; y++)
        for (int x = -quiet; x < L.qr.w + quiet; x++) {
            int mx = x < 0 ? -1 : x / mod, my = y < 0 ? -1 : y / mod;
            int want = opfor_card_qr_dark(c, mx, my); /* the quiet zone reads light */
            int got = px_dark(f, rot, L.qr.x + x, L.qr.y + y);
            if (got != want)
                fail_msg("pixel (%d, %d) of the code (module %d, %d) is %s", x, y, mx, my,
                         got ? "dark" : "light");
            dark_px += got;
        }
    for (int y = 0; y < w; y++)
        for (int x = 0; x < w; x++)
            dark_modules += opfor_card_qr_dark(c, x, y);
    assert_int_equal(dark_px, dark_modules * mod * mod);
    /* the three finder squares' corners: dark at (0,0), (w-1,0), (0,w-1) */
    assert_true(px_dark(f, rot, L.qr.x, L.qr.y));
    assert_true(px_dark(f, rot, L.qr.x + L.qr.w - 1, L.qr.y));
    assert_true(px_dark(f, rot, L.qr.x, L.qr.y + L.qr.h - 1));
    free(f);
    free(c);
}

static void drawn_on_the_large_panel(void **state) {
    (void)state;
    drawn_module_for_module(&opfor_epd_panel_ws_7in5_v2, 4);
}

static void drawn_on_the_small_panel(void **state) {
    (void)state;
    drawn_module_for_module(&opfor_epd_panel_ws_2in13_v4, 2);
}

static void no_code_no_drawing(void **state) {
    (void)state;
    opfor_card_t *c = calloc(1, sizeof *c);
    opfor_epd_frame_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    opfor_card_layout_t L;
    waiting_card(c, 0);
    assert_int_equal(opfor_card_render_panel(c, &opfor_epd_panel_ws_7in5_v2, -1, a, &L), 0);
    assert_int_equal(L.qr_module, 0);
    assert_int_equal(L.qr.w, 0);
    waiting_card(c, 1);
    assert_int_equal(opfor_card_render_panel(c, &opfor_epd_panel_ws_7in5_v2, -1, b, &L), 0);
    opfor_epd_rect_t box;
    assert_true(opfor_epd_frame_diff(a, b, &box) > 0);
    free(a);
    free(b);
    free(c);
}

static void too_long_is_refused(void **state) {
    (void)state;
    opfor_card_t *c = calloc(1, sizeof *c);
    char text[600];
    memset(text, 'x', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    waiting_card(c, 1);
    assert_int_equal(opfor_card_set_qr(c, text), -1); /* more than version 10 holds */
    assert_int_equal(c->qr_width, 0);
    free(c);
}

/* Under LeakSanitizer: fontconfig leaks a few hundred bytes once, while parsing its XML config
 * (FcInitLoadConfigAndFonts); that is not ours to fix, so that library alone is suppressed. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
    return "leak:libfontconfig.so\n";
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(card_holds_qrencodes_matrix), cmocka_unit_test(drawn_on_the_large_panel),
        cmocka_unit_test(drawn_on_the_small_panel),    cmocka_unit_test(no_code_no_drawing),
        cmocka_unit_test(too_long_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
