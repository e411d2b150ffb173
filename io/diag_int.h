/* io/diag_int.h — filling an opfor_diag_t's message for io's checks (config, sockets).
 *
 * These checks have no file position to give, unlike opfor_diag_set(): they write the message
 * only and leave the rest of the diagnostic as the caller set it.
 */
#ifndef OPFOR_IO_DIAG_INT_H
#define OPFOR_IO_DIAG_INT_H

#include "opfor/error.h"

/* Writes the printf-style message into d->msg when d is not NULL; returns err unchanged, so
 * callers can write `return opfor__diag_msg(d, OPFOR_EINVAL, "...")`. */
int opfor__diag_msg(opfor_diag_t *d, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
