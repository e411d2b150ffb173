/* core/yamltext.c — the text check every YAML loader runs before libfyaml sees the bytes.
 *
 * Scenario files, the calculator model and the daemon's configuration are all YAML written
 * by people. libfyaml 0.7 can loop forever on some invalid UTF-8 (found by fuzzing the
 * scenario loader), so each loader first checks that the text is printable UTF-8.
 */
#include "opfor/yamltext.h"

int opfor_yaml_text_check(const char *text, size_t len, opfor_diag_t *d) {
    const unsigned char *s = (const unsigned char *)text;
    int line = 1, col = 1;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t n = 1;
        unsigned cp = c;
        if (c >= 0x80) {
            unsigned min;
            if (c >= 0xC2 && c <= 0xDF) {
                n = 2;
                cp = c & 0x1F;
                min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                n = 3;
                cp = c & 0x0F;
                min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                n = 4;
                cp = c & 0x07;
                min = 0x10000;
            } else {
                return opfor_diag_set(d, OPFOR_EPARSE, line, col,
                                      "not UTF-8 text (byte 0x%02x): YAML files are UTF-8", c);
            }
            if (i + n > len)
                return opfor_diag_set(d, OPFOR_EPARSE, line, col,
                                      "not UTF-8 text (sequence cut short at the end)");
            for (size_t k = 1; k < n; k++) {
                if ((s[i + k] & 0xC0) != 0x80)
                    return opfor_diag_set(d, OPFOR_EPARSE, line, col,
                                          "not UTF-8 text (byte 0x%02x after 0x%02x)", s[i + k], c);
                cp = (cp << 6) | (s[i + k] & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                return opfor_diag_set(d, OPFOR_EPARSE, line, col,
                                      "not UTF-8 text (invalid sequence at byte 0x%02x)", c);
        }
        int control = (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0x7F ||
                      (cp >= 0x80 && cp <= 0x9F && cp != 0x85) || cp == 0xFFFE || cp == 0xFFFF;
        if (control)
            return opfor_diag_set(d, OPFOR_EPARSE, line, col,
                                  "control character U+%04X is not allowed in a YAML file", cp);
        if (cp == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
        i += n;
    }
    return 0;
}
