/* io/diag.c — opfor__diag_msg(): the one message-only diagnostic setter io's checks share. */
#include "diag_int.h"

#include <stdarg.h>
#include <stdio.h>

int opfor__diag_msg(opfor_diag_t *d, int err, const char *fmt, ...) {
    if (d) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->msg, sizeof d->msg, fmt, ap);
        va_end(ap);
    }
    return err;
}
