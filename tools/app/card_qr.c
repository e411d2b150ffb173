/* tools/app/card_qr.c — a QR code on an orders card (see card_qr.h). */
#include "card_qr.h"

#include <qrencode.h>
#include <string.h>

int opfor_card_set_qr(opfor_card_t *c, const char *text) {
    c->qr_width = 0;
    memset(c->qr, 0, sizeof c->qr);
    QRcode *q = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (!q)
        return -1;
    int ok = q->width > 0 && q->width <= OPFOR_CARD_QR_MAX;
    if (ok) {
        for (int y = 0; y < q->width; y++)
            for (int x = 0; x < q->width; x++)
                opfor_card_qr_set(c, x, y, q->data[y * q->width + x] & 1);
        c->qr_width = (uint8_t)q->width;
    }
    QRcode_free(q);
    return ok ? 0 : -1;
}
