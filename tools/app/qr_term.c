/* tools/app/qr_term.c — QR codes for a terminal (see qr_term.h). */
#include "qr_term.h"

#include <qrencode.h>
#include <stdio.h>
#include <string.h>

/* Whether module (x, y) of a code of width w is dark; the quiet zone and below are light. */
static int dark(const QRcode *q, int x, int y) {
    if (x < 0 || y < 0 || x >= q->width || y >= q->width)
        return 0;
    return q->data[y * q->width + x] & 1;
}

int opfor_qr_term(const char *text, int ansi, char *out, size_t size) {
    QRcode *q = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (!q)
        return -1;
    static const char *const cell[4] = {" ", "\xe2\x96\x84", "\xe2\x96\x80", "\xe2\x96\x88"};
    size_t n = 0;
    int ok = 1;
    const int lo = -OPFOR_QR_QUIET, hi = q->width + OPFOR_QR_QUIET;
    for (int y = lo; y < hi && ok; y += 2) {
        char line[1024];
        size_t k = 0;
        if (ansi)
            k += (size_t)snprintf(line + k, sizeof line - k, "\x1b[30;47m");
        for (int x = lo; x < hi && k + 8 < sizeof line; x++) {
            const char *c = cell[dark(q, x, y) * 2 + dark(q, x, y + 1)];
            size_t cl = strlen(c);
            memcpy(line + k, c, cl);
            k += cl;
        }
        if (ansi)
            k += (size_t)snprintf(line + k, sizeof line - k, "\x1b[0m");
        line[k++] = '\n';
        if (n + k + 1 > size || k >= sizeof line - 8) {
            ok = 0;
            break;
        }
        memcpy(out + n, line, k);
        n += k;
    }
    QRcode_free(q);
    if (!ok)
        return -1;
    out[n] = '\0';
    return (int)n;
}
