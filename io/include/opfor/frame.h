/* io/include/opfor/frame.h — checks one MessagePack frame before msgpack-c sees it.
 *
 * msgpack-c believes the sizes a message announces: a map header claiming 2^32 entries makes
 * it allocate for them, and a truncated frame makes a streaming reader wait forever. Every
 * byte that reaches opford from a socket therefore goes through opfor_frame_scan() first. The
 * scanner walks the headers without allocating, keeps a fixed stack on the C stack, and
 * answers: a complete frame of N bytes, need more bytes, or invalid (with a reason).
 */
#ifndef OPFOR_FRAME_H
#define OPFOR_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define OPFOR_FRAME_MAX_SIZE_DEFAULT (1u << 20) /* 1 MiB: the largest frame opford accepts */
#define OPFOR_FRAME_MAX_DEPTH_DEFAULT 16        /* containers nested at most this deep */
#define OPFOR_FRAME_MAX_DEPTH_HARD 64           /* scanner stack size; larger limits are clamped */

typedef enum opfor_frame_status {
    OPFOR_FRAME_INVALID = -1,  /* the bytes can never become an acceptable frame */
    OPFOR_FRAME_NEED_MORE = 0, /* a valid prefix of a frame that still fits the limits */
    OPFOR_FRAME_COMPLETE = 1,  /* a whole frame of res->len bytes starts at the buffer */
} opfor_frame_status_t;

typedef struct opfor_frame_limits {
    uint32_t max_size;  /* largest frame in bytes (>= 1) */
    uint32_t max_depth; /* deepest container nesting; a top-level array is depth 1 */
} opfor_frame_limits_t;

typedef struct opfor_frame_result {
    opfor_frame_status_t status; /* what the scan found */
    size_t len;                  /* COMPLETE: frame length; otherwise bytes checked so far */
    size_t offset;               /* INVALID: offset of the offending header byte */
    const char *reason;          /* INVALID: static text naming the problem; else "" */
} opfor_frame_result_t;

/* The default limits: 1 MiB frames, nesting 16. */
opfor_frame_limits_t opfor_frame_limits_default(void);

/* Scans the frame starting at buf[0] (n bytes present, possibly holding several frames or
 * part of one). lim may be NULL for the defaults. Never allocates, never reads past buf[n-1],
 * runs in time linear in the bytes examined. The rules:
 *  - the frame must be at most lim->max_size bytes; every element needs at least one byte, so
 *    a container count or a str/bin/ext length that could not fit in max_size together with
 *    what is already committed is INVALID at once, not NEED_MORE;
 *  - NEED_MORE is returned only when the frame could still complete within max_size;
 *  - containers (empty ones included) nested deeper than lim->max_depth are INVALID;
 *  - the never-used byte 0xc1 is INVALID.
 * Returns res->status; res is always filled. */
opfor_frame_status_t opfor_frame_scan(const uint8_t *buf, size_t n, const opfor_frame_limits_t *lim,
                                      opfor_frame_result_t *res);

#endif
