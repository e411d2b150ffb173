/* io/frame.c — the allocation-free MessagePack frame checker (see opfor/frame.h).
 *
 * One pass over the headers. A fixed stack holds, per open container, how many elements it
 * still owes; "owed" is their sum. Since every element takes at least one byte, pos + owed is
 * a lower bound on the frame's length, and every header is checked against max_size with that
 * bound before the scanner decides between NEED_MORE and INVALID. All sums are done in 64 bits:
 * pos, lengths (< 2^32) and owed (<= max_size, doubled map counts < 2^33) cannot overflow.
 */
#include "opfor/frame.h"

opfor_frame_limits_t opfor_frame_limits_default(void) {
    opfor_frame_limits_t l = {OPFOR_FRAME_MAX_SIZE_DEFAULT, OPFOR_FRAME_MAX_DEPTH_DEFAULT};
    return l;
}

static uint64_t be(const uint8_t *p, unsigned nbytes) {
    uint64_t v = 0;
    for (unsigned i = 0; i < nbytes; i++)
        v = (v << 8) | p[i];
    return v;
}

static opfor_frame_status_t done(opfor_frame_result_t *res, opfor_frame_status_t st, size_t len,
                                 size_t offset, const char *reason) {
    res->status = st;
    res->len = len;
    res->offset = offset;
    res->reason = reason;
    return st;
}

/* How a header byte is laid out: hdr = header bytes including the type byte; lenbytes = how
 * many of them hold a big-endian length/count (at offset 1); fixed = payload bytes that follow
 * the header regardless of length (numbers, fixext payload+type); kind says what the length
 * counts. */
enum { K_SCALAR, K_BYTES, K_ARRAY, K_MAP, K_BAD };

typedef struct {
    uint8_t kind;
    uint8_t hdr;
    uint8_t lenbytes;
    uint8_t fixed;
} hdr_info_t;

static hdr_info_t classify(uint8_t b, uint64_t *inline_len) {
    hdr_info_t h = {K_SCALAR, 1, 0, 0};
    *inline_len = 0;
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3)
        return h; /* fixints, nil, bools */
    if (b >= 0x80 && b <= 0x8f) {
        h.kind = K_MAP;
        *inline_len = b & 0x0f;
        return h;
    }
    if (b >= 0x90 && b <= 0x9f) {
        h.kind = K_ARRAY;
        *inline_len = b & 0x0f;
        return h;
    }
    if (b >= 0xa0 && b <= 0xbf) {
        h.kind = K_BYTES;
        *inline_len = b & 0x1f;
        return h;
    }
    switch (b) {
    case 0xc4: /* bin 8/16/32 */
    case 0xd9: /* str 8/16/32 */
        h = (hdr_info_t){K_BYTES, 2, 1, 0};
        break;
    case 0xc5:
    case 0xda:
        h = (hdr_info_t){K_BYTES, 3, 2, 0};
        break;
    case 0xc6:
    case 0xdb:
        h = (hdr_info_t){K_BYTES, 5, 4, 0};
        break;
    case 0xc7: /* ext 8/16/32: length, then a type byte, then the data */
        h = (hdr_info_t){K_BYTES, 3, 1, 0};
        break;
    case 0xc8:
        h = (hdr_info_t){K_BYTES, 4, 2, 0};
        break;
    case 0xc9:
        h = (hdr_info_t){K_BYTES, 6, 4, 0};
        break;
    case 0xca: /* float 32/64 */
        h.fixed = 4;
        break;
    case 0xcb:
        h.fixed = 8;
        break;
    case 0xcc: /* uint 8..64, int 8..64 */
    case 0xd0:
        h.fixed = 1;
        break;
    case 0xcd:
    case 0xd1:
        h.fixed = 2;
        break;
    case 0xce:
    case 0xd2:
        h.fixed = 4;
        break;
    case 0xcf:
    case 0xd3:
        h.fixed = 8;
        break;
    case 0xd4: /* fixext 1/2/4/8/16: type byte plus data */
        h.fixed = 2;
        break;
    case 0xd5:
        h.fixed = 3;
        break;
    case 0xd6:
        h.fixed = 5;
        break;
    case 0xd7:
        h.fixed = 9;
        break;
    case 0xd8:
        h.fixed = 17;
        break;
    case 0xdc: /* array 16/32, map 16/32 */
        h = (hdr_info_t){K_ARRAY, 3, 2, 0};
        break;
    case 0xdd:
        h = (hdr_info_t){K_ARRAY, 5, 4, 0};
        break;
    case 0xde:
        h = (hdr_info_t){K_MAP, 3, 2, 0};
        break;
    case 0xdf:
        h = (hdr_info_t){K_MAP, 5, 4, 0};
        break;
    default: /* 0xc1 */
        h.kind = K_BAD;
        break;
    }
    return h;
}

opfor_frame_status_t opfor_frame_scan(const uint8_t *buf, size_t n, const opfor_frame_limits_t *lim,
                                      opfor_frame_result_t *res) {
    opfor_frame_limits_t l = lim ? *lim : opfor_frame_limits_default();
    if (l.max_size == 0)
        l.max_size = 1;
    if (l.max_depth > OPFOR_FRAME_MAX_DEPTH_HARD)
        l.max_depth = OPFOR_FRAME_MAX_DEPTH_HARD;
    const uint64_t max = l.max_size;

    /* rem[0] is a virtual level owing the one top-level element; rem[1..] are containers. */
    uint64_t rem[OPFOR_FRAME_MAX_DEPTH_HARD + 1];
    unsigned sp = 1;
    rem[0] = 1;
    uint64_t owed = 1; /* elements announced but not yet started, each >= 1 byte */
    uint64_t pos = 0;

    for (;;) {
        /* Start the next element: the innermost open level owes one fewer. */
        rem[sp - 1]--;
        owed--;
        if (pos >= n)
            return done(res, OPFOR_FRAME_NEED_MORE, (size_t)pos, 0, "");
        const uint8_t b = buf[pos];
        uint64_t len;
        const hdr_info_t h = classify(b, &len);
        if (h.kind == K_BAD)
            return done(res, OPFOR_FRAME_INVALID, (size_t)pos, (size_t)pos,
                        "byte 0xc1 is never used in MessagePack");
        if (pos + h.hdr + h.fixed + owed > max)
            return done(res, OPFOR_FRAME_INVALID, (size_t)pos, (size_t)pos,
                        "frame exceeds the size limit");
        /* The length is judged as soon as its bytes are here (ext's type byte may lag). */
        if (pos + 1 + h.lenbytes > n)
            return done(res, OPFOR_FRAME_NEED_MORE, (size_t)pos, 0, "");
        if (h.lenbytes)
            len = be(buf + pos + 1, h.lenbytes);

        if (h.kind == K_ARRAY || h.kind == K_MAP) {
            if (sp > l.max_depth)
                return done(res, OPFOR_FRAME_INVALID, (size_t)pos, (size_t)pos,
                            "containers nested too deeply");
            const uint64_t elems = h.kind == K_MAP ? 2 * len : len;
            if (pos + h.hdr + owed + elems > max)
                return done(res, OPFOR_FRAME_INVALID, (size_t)pos, (size_t)pos,
                            h.kind == K_MAP ? "map count exceeds the size limit"
                                            : "array count exceeds the size limit");
            if (pos + h.hdr > n)
                return done(res, OPFOR_FRAME_NEED_MORE, (size_t)pos, 0, "");
            pos += h.hdr;
            if (elems > 0) {
                rem[sp++] = elems;
                owed += elems;
            }
        } else {
            const uint64_t body = h.kind == K_BYTES ? len : h.fixed;
            if (pos + h.hdr + body + owed > max)
                return done(res, OPFOR_FRAME_INVALID, (size_t)pos, (size_t)pos,
                            "string, bin or ext length exceeds the size limit");
            if (pos + h.hdr + body > n)
                return done(res, OPFOR_FRAME_NEED_MORE, (size_t)pos, 0, "");
            pos += h.hdr + body;
        }
        while (sp > 0 && rem[sp - 1] == 0)
            sp--;
        if (sp == 0)
            return done(res, OPFOR_FRAME_COMPLETE, (size_t)pos, 0, "");
    }
}
