/* opfor/text.h — building text in fixed-size buffers.
 *
 * Orders, reasons and error messages are written into fixed-size fields piece by piece; a
 * piece that does not fit is cut, and the buffer always stays terminated. One appender for
 * all of them, instead of a copy in every file that builds a sentence.
 */
#ifndef OPFOR_TEXT_H
#define OPFOR_TEXT_H

#include <stddef.h>

/* Appends printf-style text to buf (n bytes) at *len, which it advances; what does not fit
 * is cut (the cut is deliberate: the fields are fixed-size). Does nothing once buf is full. */
void opfor_text_appendf(char *buf, size_t n, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Copies src (NULL: "") into dst (n bytes), cut to fit and terminated: snprintf's "%s"
 * without the formatting machinery, for the hot copies of names and labels. */
void opfor_text_copy(char *dst, size_t n, const char *src);

#endif
