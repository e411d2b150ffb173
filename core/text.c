/* core/text.c — the appender of opfor/text.h. Output is cut on purpose (fixed-size fields),
 * so it goes through vsnprintf rather than snprintf, whose truncation gcc warns about. */
#include "opfor/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void opfor_text_appendf(char *buf, size_t n, size_t *len, const char *fmt, ...) {
    if (!buf || *len + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    if (w > 0)
        *len += (size_t)w < n - *len ? (size_t)w : n - *len - 1;
}

void opfor_text_copy(char *dst, size_t n, const char *src) {
    if (!dst || n == 0)
        return;
    size_t len = src ? strnlen(src, n - 1) : 0;
    if (len)
        memcpy(dst, src, len);
    dst[len] = '\0';
}
