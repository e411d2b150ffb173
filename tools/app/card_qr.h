/* tools/app/card_qr.h — a short text (the table page's players' link) as a QR code on an
 * orders card (opfor_card_t.qr, drawn by display/ where the mini-map would be), encoded by
 * libqrencode at error correction level M, as the terminal's codes (qr_term.h) are. display/
 * only draws the modules it is given, so it needs no QR library. */
#ifndef OPFOR_CARD_QR_H
#define OPFOR_CARD_QR_H

#include "opfor/display_card.h"

/* Puts text's QR code on card c (replacing any); 0, or -1 when it cannot be encoded or needs
 * more than OPFOR_CARD_QR_MAX modules a side (the card then has none). */
int opfor_card_set_qr(opfor_card_t *c, const char *text);

#endif
