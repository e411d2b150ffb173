/* core/error.c — error names and messages from OPFOR_ERRNO_MAP, and parse diagnostics. */
#include "opfor/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *opfor_strerror(int err) {
    switch (err) {
    case OPFOR_OK:
        return "success";
#define OPFOR__XX(code, msg)                                                                       \
    case OPFOR_##code:                                                                             \
        return msg;
        OPFOR_ERRNO_MAP(OPFOR__XX)
#undef OPFOR__XX
    default:
        return "unknown error";
    }
}

const char *opfor_err_name(int err) {
    switch (err) {
    case OPFOR_OK:
        return "OK";
#define OPFOR__XX(code, msg)                                                                       \
    case OPFOR_##code:                                                                             \
        return #code;
        OPFOR_ERRNO_MAP(OPFOR__XX)
#undef OPFOR__XX
    default:
        return "UNKNOWN";
    }
}

void opfor_diag_clear(opfor_diag_t *d) {
    if (!d)
        return; /* (the strings emptied, not zeroed: the daemon clears several per request) */
    d->file[0] = d->msg[0] = '\0';
    d->line = d->col = 0;
}

int opfor_diag_set(opfor_diag_t *d, int err, int line, int col, const char *fmt, ...) {
    if (!d)
        return err;
    d->line = line;
    d->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    return err;
}

const char *opfor_diag_format(const opfor_diag_t *d, char *buf, unsigned long size) {
    if (!d || size == 0)
        return "";
    const char *file = d->file[0] ? d->file : "<input>";
    if (d->line > 0 && d->col > 0)
        snprintf(buf, size, "%s:%d:%d: %s", file, d->line, d->col, d->msg);
    else if (d->line > 0)
        snprintf(buf, size, "%s:%d: %s", file, d->line, d->msg);
    else
        snprintf(buf, size, "%s: %s", file, d->msg);
    return buf;
}
