/* opfor/error.h — error codes shared by every opfor library.
 *
 * Functions return int: 0 on success or a negative OPFOR_E* code. The enum,
 * opfor_strerror() and opfor_err_name() all come from OPFOR_ERRNO_MAP, so the
 * three can never drift apart. Parsers additionally fill an opfor_diag_t that
 * names where (file:line:column) and what went wrong.
 */
#ifndef OPFOR_ERROR_H
#define OPFOR_ERROR_H

#define OPFOR_ERRNO_MAP(XX)                                                                        \
    XX(EINVAL, "invalid argument")                                                                 \
    XX(ENOMEM, "out of memory")                                                                    \
    XX(ERANGE, "value out of range")                                                               \
    XX(EPARSE, "parse error")                                                                      \
    XX(ENOENT, "not found")                                                                        \
    XX(EIO, "input/output error")                                                                  \
    XX(ENOTSUP, "not supported")                                                                   \
    XX(EILLEGAL, "action not allowed by the rules")                                                \
    XX(EFULL, "capacity exhausted")                                                                \
    XX(EBUSY, "resource busy")                                                                     \
    XX(ETIMEDOUT, "timed out")                                                                     \
    XX(ECANCELED, "cancelled")                                                                     \
    XX(EPROTO, "protocol error")                                                                   \
    XX(EAUTH, "not authorised")

/* Internal: position of each code in the map, starting at 1. */
enum {
    OPFOR__ERRIDX_BASE = 0,
#define OPFOR__XX(code, msg) OPFOR__ERRIDX_##code,
    OPFOR_ERRNO_MAP(OPFOR__XX)
#undef OPFOR__XX
        OPFOR__ERRIDX_END
};

typedef enum {
    OPFOR_OK = 0,
#define OPFOR__XX(code, msg) OPFOR_##code = -OPFOR__ERRIDX_##code,
    OPFOR_ERRNO_MAP(OPFOR__XX)
#undef OPFOR__XX
} opfor_err_t;

/* A human-readable message for an error code; never NULL. */
const char *opfor_strerror(int err);
/* The code's name without prefix ("EINVAL"); "UNKNOWN" for codes outside the map. */
const char *opfor_err_name(int err);

/* Where and why a parse or validation failed. line and col are 1-based; 0 when unknown. */
typedef struct opfor_diag {
    char file[256]; /* source name, "" when parsing a string */
    int line;       /* 1-based line, 0 if unknown */
    int col;        /* 1-based column, 0 if unknown */
    char msg[512];  /* what was found and what was expected */
} opfor_diag_t;

/* Clears a diagnostic: file and msg "", line and col 0. */
void opfor_diag_clear(opfor_diag_t *d);
/* Fills d (when not NULL) with a location and a printf-style message; returns err unchanged,
 * so callers can write `return opfor_diag_set(d, OPFOR_EPARSE, line, col, "...")`. */
int opfor_diag_set(opfor_diag_t *d, int err, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Formats "file:line:col: msg" (omitting the unknown parts) into buf. */
const char *opfor_diag_format(const opfor_diag_t *d, char *buf, unsigned long size);

#endif
