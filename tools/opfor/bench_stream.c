/* tools/opfor/bench_stream.c — a benchmark client's writes and frame reading (bench_stream.h). */
#include "bench_stream.h"

#include <stdlib.h>
#include <string.h>

#include "opfor/frame.h"

typedef struct wcopy {
    uv_write_t req; /* libuv's request */
    char data[];    /* the bytes, owned until the callback */
} wcopy_t;

static void on_write_copy(uv_write_t *req, int status) {
    (void)status;
    free(req);
}

int opfor_bench_write(uv_stream_t *s, const char *msg, size_t len) {
    uv_buf_t buf = uv_buf_init((char *)msg, (unsigned)len);
    int n = uv_try_write(s, &buf, 1);
    if (n == (int)len)
        return 0;
    if (n < 0 && n != UV_EAGAIN)
        return n;
    size_t off = n > 0 ? (size_t)n : 0;
    wcopy_t *wc = malloc(sizeof *wc + len - off);
    if (!wc)
        return UV_ENOMEM;
    memcpy(wc->data, msg + off, len - off);
    buf = uv_buf_init(wc->data, (unsigned)(len - off));
    int rc = uv_write(&wc->req, s, &buf, 1, on_write_copy);
    if (rc < 0)
        free(wc);
    return rc < 0 ? rc : 0;
}

void opfor_bench_inbuf_alloc(opfor_bench_inbuf_t *ib, uv_buf_t *buf) {
    if (ib->cap - ib->len < 16384) {
        size_t cap = ib->cap ? ib->cap * 2 : 65536;
        uint8_t *p = realloc(ib->in, cap);
        if (!p) {
            *buf = uv_buf_init(NULL, 0);
            return;
        }
        ib->in = p;
        ib->cap = cap;
    }
    *buf = uv_buf_init((char *)ib->in + ib->len, (unsigned)(ib->cap - ib->len));
}

int opfor_bench_inbuf_frames(opfor_bench_inbuf_t *ib, size_t nread,
                             void (*frame)(void *arg, const uint8_t *p, size_t len), void *arg,
                             const char **reason) {
    ib->len += nread;
    size_t off = 0;
    opfor_frame_limits_t lim = {16u << 20, 64};
    int rc = 0;
    while (off < ib->len) {
        opfor_frame_result_t r;
        opfor_frame_status_t st = opfor_frame_scan(ib->in + off, ib->len - off, &lim, &r);
        if (st == OPFOR_FRAME_NEED_MORE)
            break;
        if (st == OPFOR_FRAME_INVALID) {
            *reason = r.reason;
            rc = -1;
            break;
        }
        frame(arg, ib->in + off, r.len);
        off += r.len;
    }
    if (off) {
        memmove(ib->in, ib->in + off, ib->len - off);
        ib->len -= off;
    }
    return rc;
}
