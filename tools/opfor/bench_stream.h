/* tools/opfor/bench_stream.h — the byte side of a benchmark's socket client (`opfor bench rpc`,
 * `opfor bench web`): one request written at once or copied until libuv has sent it, and the
 * daemon's answers cut into whole MessagePack-RPC frames as they arrive.
 */
#ifndef OPFOR_TOOLS_BENCH_STREAM_H
#define OPFOR_TOOLS_BENCH_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include <uv.h>

/* Bytes received and not yet framed. Zero it to start; free(in) when done. */
typedef struct opfor_bench_inbuf {
    uint8_t *in;
    size_t len, cap;
} opfor_bench_inbuf_t;

/* Writes len bytes of msg on s: at once when the socket takes them, else the rest is copied and
 * sent by libuv. 0, or a libuv error (UV_ENOMEM when the copy cannot be made). */
int opfor_bench_write(uv_stream_t *s, const char *msg, size_t len);

/* For a uv_alloc_cb: room for at least 16 KiB more in ib (a zero-length buffer when out of
 * memory, which libuv reports as UV_ENOBUFS). */
void opfor_bench_inbuf_alloc(opfor_bench_inbuf_t *ib, uv_buf_t *buf);

/* Takes nread (> 0) more bytes into ib and calls frame(arg, bytes, len) for each whole frame,
 * keeping the part of one that is still to come. 0, or -1 with *reason when the daemon sent
 * bytes that are not a frame. */
int opfor_bench_inbuf_frames(opfor_bench_inbuf_t *ib, size_t nread,
                             void (*frame)(void *arg, const uint8_t *p, size_t len), void *arg,
                             const char **reason);

#endif
