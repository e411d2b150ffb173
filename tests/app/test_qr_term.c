/* tests/app/test_qr_term.c — the table page's links as terminal QR codes (tools/app/qr_term.c):
 * the blocks drawn read back, module for module, as libqrencode's code with its quiet zone
 * (so a phone's camera sees the same code), the three finder squares stand in their corners,
 * the colours are added only when asked, and a buffer too small is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <qrencode.h>
#include <string.h>

#include "qr_term.h"

#define LINK "http://192.168.1.20:8080/#t=0123456789abcdef0123456789abcdef"
#define MAXW 200

/* Reads the drawing back into modules: m[y][x], 1 dark; returns the width, sets *rows. */
static int read_back(const char *s, unsigned char m[MAXW][MAXW], int *rows) {
    int y = 0, w = -1;
    while (*s) {
        int x = 0;
        while (*s && *s != '\n') {
            int top = 0, bot = 0;
            if (strncmp(s, "\xe2\x96\x88", 3) == 0)
                top = bot = 1, s += 3;
            else if (strncmp(s, "\xe2\x96\x80", 3) == 0)
                top = 1, s += 3;
            else if (strncmp(s, "\xe2\x96\x84", 3) == 0)
                bot = 1, s += 3;
            else if (*s == ' ')
                s++;
            else
                fail_msg("unexpected byte 0x%02x", (unsigned char)*s);
            m[y][x] = (unsigned char)top;
            m[y + 1][x] = (unsigned char)bot;
            x++;
        }
        if (w < 0)
            w = x;
        assert_int_equal(x, w); /* every line as wide */
        if (*s)
            s++;
        y += 2;
    }
    *rows = y;
    return w;
}

static void qr_reads_back_as_the_code(void **state) {
    (void)state;
    static char out[1 << 16];
    static unsigned char m[MAXW][MAXW];
    int n = opfor_qr_term(LINK, 0, out, sizeof out);
    assert_true(n > 0);
    assert_null(strchr(out, '\x1b'));
    int rows = 0, w = read_back(out, m, &rows);
    QRcode *q = QRcode_encodeString(LINK, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    assert_non_null(q);
    const int z = OPFOR_QR_QUIET;
    assert_int_equal(w, q->width + 2 * z);
    assert_true(rows >= w); /* the last line may carry a light half row */
    for (int y = 0; y < w; y++)
        for (int x = 0; x < w; x++) {
            int inside = x >= z && y >= z && x < z + q->width && y < z + q->width;
            int want = inside ? q->data[(y - z) * q->width + (x - z)] & 1 : 0;
            assert_int_equal(m[y][x], want);
        }
    /* the finder squares: a dark 7x7 ring, a light ring, a dark 3x3 core, in three corners */
    const int corners[3][2] = {{z, z}, {z + q->width - 7, z}, {z, z + q->width - 7}};
    for (int c = 0; c < 3; c++)
        for (int dy = 0; dy < 7; dy++)
            for (int dx = 0; dx < 7; dx++) {
                int ring = dx == 0 || dy == 0 || dx == 6 || dy == 6;
                int core = dx >= 2 && dx <= 4 && dy >= 2 && dy <= 4;
                assert_int_equal(m[corners[c][1] + dy][corners[c][0] + dx], ring || core);
            }
    QRcode_free(q);
}

static void qr_colours_only_when_asked_and_size_checked(void **state) {
    (void)state;
    static char out[1 << 16];
    int n = opfor_qr_term(LINK, 1, out, sizeof out);
    assert_true(n > 0);
    assert_non_null(strstr(out, "\x1b[30;47m"));
    assert_non_null(strstr(out, "\x1b[0m\n"));
    char small[64];
    assert_int_equal(opfor_qr_term(LINK, 0, small, sizeof small), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(qr_reads_back_as_the_code),
        cmocka_unit_test(qr_colours_only_when_asked_and_size_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
