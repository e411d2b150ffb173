/* tools/app/qr_term.h — a short text (the table page's links) as a QR code drawn in a terminal
 * with Unicode half blocks, two modules a character high, dark on light whatever the terminal's
 * colours (ANSI black on white). The code itself comes from libqrencode (Debian's
 * libqrencode-dev). */
#ifndef OPFOR_QR_TERM_H
#define OPFOR_QR_TERM_H

#include <stddef.h>

#define OPFOR_QR_QUIET 2 /* light modules around the code (scanners read it well with 2) */

/* Writes text's QR code (error correction level M) into out as lines ending in '\n'; returns
 * the bytes written (without the final NUL), or -1 when it does not fit in size or cannot be
 * encoded. ansi 1 adds the colour codes (for a terminal), 0 leaves them out (plain blocks:
 * '█' dark over dark, '▀' dark over light, '▄' light over dark, ' ' light over light). */
int opfor_qr_term(const char *text, int ansi, char *out, size_t size);

#endif
