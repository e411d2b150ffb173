/* display/epd_frame.c — 1-bit frames: pixels, differences, rectangles, rotation, PNG files.
 *
 * Pixel loops here are simple bit arithmetic; frames are at most 48 000 bytes, so a whole-frame
 * scan costs well under a millisecond. PNG input/output goes through cairo image surfaces so
 * the emulator, the tests and the CLI share one reader and one writer.
 */
#include "opfor/epd_frame.h"

#include "opfor/error.h"

#include <string.h>

#ifdef OPFOR_HAVE_PANGOCAIRO
#include <cairo.h>
#endif

int opfor_epd_frame_init(opfor_epd_frame_t *f, int width, int height, int white) {
    if (!f || width <= 0 || height <= 0)
        return OPFOR_EINVAL;
    int stride = (width + 7) / 8;
    if ((long)stride * height > OPFOR_EPD_FRAME_MAX_BYTES)
        return OPFOR_ERANGE;
    f->width = (uint16_t)width;
    f->height = (uint16_t)height;
    f->stride = (uint16_t)stride;
    memset(f->bits, white ? 0xFF : 0x00, (size_t)stride * (size_t)height);
    if (!white && (width & 7)) {
        uint8_t pad = (uint8_t)(0xFFu >> (width & 7));
        for (int y = 0; y < height; y++)
            f->bits[(size_t)y * stride + stride - 1] = pad;
    }
    return 0;
}

int opfor_epd_frame_get(const opfor_epd_frame_t *f, int x, int y) {
    if (x < 0 || y < 0 || x >= f->width || y >= f->height)
        return 1;
    return (f->bits[(size_t)y * f->stride + (size_t)(x >> 3)] >> (7 - (x & 7))) & 1;
}

void opfor_epd_frame_set(opfor_epd_frame_t *f, int x, int y, int white) {
    if (x < 0 || y < 0 || x >= f->width || y >= f->height)
        return;
    uint8_t *b = &f->bits[(size_t)y * f->stride + (size_t)(x >> 3)];
    uint8_t m = (uint8_t)(0x80u >> (x & 7));
    if (white)
        *b |= m;
    else
        *b &= (uint8_t)~m;
}

/* Mask of the real pixels in the last byte of a row. */
static uint8_t last_mask(int width) {
    return (width & 7) ? (uint8_t)(0xFFu << (8 - (width & 7))) : 0xFF;
}

static int popcount8(unsigned v) {
    int n = 0;
    while (v) {
        v &= v - 1;
        n++;
    }
    return n;
}

long opfor_epd_frame_diff(const opfor_epd_frame_t *a, const opfor_epd_frame_t *b,
                          opfor_epd_rect_t *box) {
    if (box)
        *box = (opfor_epd_rect_t){0, 0, 0, 0};
    if (a->width != b->width || a->height != b->height)
        return OPFOR_EINVAL;
    long n = 0;
    int x0 = a->width, y0 = a->height, x1 = -1, y1 = -1;
    uint8_t lm = last_mask(a->width);
    for (int y = 0; y < a->height; y++) {
        const uint8_t *ra = &a->bits[(size_t)y * a->stride];
        const uint8_t *rb = &b->bits[(size_t)y * b->stride];
        for (int i = 0; i < a->stride; i++) {
            unsigned d = (unsigned)(ra[i] ^ rb[i]);
            if (i == a->stride - 1)
                d &= lm;
            if (!d)
                continue;
            n += popcount8(d);
            int first = i * 8, last = i * 8 + 7;
            while (!(d & 0x80u)) {
                d = (d << 1) & 0xFFu;
                first++;
            }
            d = (unsigned)(ra[i] ^ rb[i]) & (i == a->stride - 1 ? lm : 0xFFu);
            while (!(d & 1u)) {
                d >>= 1;
                last--;
            }
            if (first < x0)
                x0 = first;
            if (last > x1)
                x1 = last;
            if (y < y0)
                y0 = y;
            if (y > y1)
                y1 = y;
        }
    }
    if (box && n > 0)
        *box = (opfor_epd_rect_t){x0, y0, x1 - x0 + 1, y1 - y0 + 1};
    return n;
}

long opfor_epd_frame_count_black(const opfor_epd_frame_t *f, const opfor_epd_rect_t *r) {
    opfor_epd_rect_t c = opfor_epd_rect_clip(r, f->width, f->height);
    long n = 0;
    for (int y = c.y; y < c.y + c.h; y++)
        for (int x = c.x; x < c.x + c.w; x++)
            n += !opfor_epd_frame_get(f, x, y);
    return n;
}

void opfor_epd_frame_copy_rect(opfor_epd_frame_t *dst, const opfor_epd_frame_t *src,
                               const opfor_epd_rect_t *r) {
    if (dst->width != src->width || dst->height != src->height)
        return;
    opfor_epd_rect_t c = opfor_epd_rect_clip(r, src->width, src->height);
    for (int y = c.y; y < c.y + c.h; y++)
        for (int x = c.x; x < c.x + c.w; x++)
            opfor_epd_frame_set(dst, x, y, opfor_epd_frame_get(src, x, y));
}

int opfor_epd_rect_empty(const opfor_epd_rect_t *r) {
    return !r || r->w <= 0 || r->h <= 0;
}

opfor_epd_rect_t opfor_epd_rect_union(const opfor_epd_rect_t *a, const opfor_epd_rect_t *b) {
    if (opfor_epd_rect_empty(a))
        return opfor_epd_rect_empty(b) ? (opfor_epd_rect_t){0, 0, 0, 0} : *b;
    if (opfor_epd_rect_empty(b))
        return *a;
    int x0 = a->x < b->x ? a->x : b->x;
    int y0 = a->y < b->y ? a->y : b->y;
    int x1 = a->x + a->w > b->x + b->w ? a->x + a->w : b->x + b->w;
    int y1 = a->y + a->h > b->y + b->h ? a->y + a->h : b->y + b->h;
    return (opfor_epd_rect_t){x0, y0, x1 - x0, y1 - y0};
}

opfor_epd_rect_t opfor_epd_rect_clip(const opfor_epd_rect_t *r, int width, int height) {
    if (opfor_epd_rect_empty(r))
        return (opfor_epd_rect_t){0, 0, 0, 0};
    int x0 = r->x < 0 ? 0 : r->x, y0 = r->y < 0 ? 0 : r->y;
    int x1 = r->x + r->w > width ? width : r->x + r->w;
    int y1 = r->y + r->h > height ? height : r->y + r->h;
    if (x1 <= x0 || y1 <= y0)
        return (opfor_epd_rect_t){0, 0, 0, 0};
    return (opfor_epd_rect_t){x0, y0, x1 - x0, y1 - y0};
}

opfor_epd_rect_t opfor_epd_rect_align8(const opfor_epd_rect_t *r, int width) {
    if (opfor_epd_rect_empty(r))
        return (opfor_epd_rect_t){0, 0, 0, 0};
    int x0 = r->x & ~7;
    int x1 = (r->x + r->w + 7) & ~7;
    if (x1 > width)
        x1 = width;
    return (opfor_epd_rect_t){x0, r->y, x1 - x0, r->h};
}

int opfor_epd_rotation_valid(int rotation) {
    return rotation == 0 || rotation == 90 || rotation == 180 || rotation == 270;
}

void opfor_epd_logical_size(int native_w, int native_h, int rotation, int *lw, int *lh) {
    if (rotation == 90 || rotation == 270) {
        *lw = native_h;
        *lh = native_w;
    } else {
        *lw = native_w;
        *lh = native_h;
    }
}

void opfor_epd_logical_to_native(int native_w, int native_h, int rotation, int lx, int ly, int *nx,
                                 int *ny) {
    switch (rotation) {
    case 90:
        *nx = native_w - 1 - ly;
        *ny = lx;
        break;
    case 180:
        *nx = native_w - 1 - lx;
        *ny = native_h - 1 - ly;
        break;
    case 270:
        *nx = ly;
        *ny = native_h - 1 - lx;
        break;
    default:
        *nx = lx;
        *ny = ly;
        break;
    }
}

#ifdef OPFOR_HAVE_PANGOCAIRO

/* Cairo keeps A1 pixels in native-endian 32-bit words, lowest bit first on little-endian. */
static uint32_t a1_bit(int x) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return 1u << (31 - (x & 31));
#else
    return 1u << (x & 31);
#endif
}

int opfor_epd_frame_write_png(const opfor_epd_frame_t *f, int rotation, const char *path) {
    if (!f || !path || !opfor_epd_rotation_valid(rotation))
        return OPFOR_EINVAL;
    int lw, lh;
    opfor_epd_logical_size(f->width, f->height, rotation, &lw, &lh);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A1, lw, lh);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return OPFOR_ENOMEM;
    }
    cairo_surface_flush(s);
    uint8_t *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    for (int ly = 0; ly < lh; ly++) {
        uint32_t *row = (uint32_t *)(void *)(data + (size_t)ly * (size_t)stride);
        for (int lx = 0; lx < lw; lx++) {
            int nx, ny;
            opfor_epd_logical_to_native(f->width, f->height, rotation, lx, ly, &nx, &ny);
            if (opfor_epd_frame_get(f, nx, ny))
                row[lx >> 5] |= a1_bit(lx);
            else
                row[lx >> 5] &= ~a1_bit(lx);
        }
    }
    cairo_surface_mark_dirty(s);
    cairo_status_t st = cairo_surface_write_to_png(s, path);
    cairo_surface_destroy(s);
    return st == CAIRO_STATUS_SUCCESS ? 0 : OPFOR_EIO;
}

int opfor_epd_frame_read_png(opfor_epd_frame_t *f, int native_w, int native_h, int rotation,
                             const char *path) {
    if (!f || !path || !opfor_epd_rotation_valid(rotation))
        return OPFOR_EINVAL;
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return OPFOR_ENOENT;
    }
    int lw, lh;
    opfor_epd_logical_size(native_w, native_h, rotation, &lw, &lh);
    int rc = 0;
    if (cairo_image_surface_get_width(s) != lw || cairo_image_surface_get_height(s) != lh)
        rc = OPFOR_ERANGE;
    if (!rc)
        rc = opfor_epd_frame_init(f, native_w, native_h, 1);
    if (!rc) {
        cairo_surface_flush(s);
        cairo_format_t fmt = cairo_image_surface_get_format(s);
        const uint8_t *data = cairo_image_surface_get_data(s);
        int stride = cairo_image_surface_get_stride(s);
        for (int ly = 0; ly < lh && !rc; ly++) {
            const uint8_t *row = data + (size_t)ly * (size_t)stride;
            for (int lx = 0; lx < lw; lx++) {
                int white;
                if (fmt == CAIRO_FORMAT_RGB24 || fmt == CAIRO_FORMAT_ARGB32) {
                    uint32_t p = ((const uint32_t *)(const void *)row)[lx];
                    unsigned r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
                    unsigned a = fmt == CAIRO_FORMAT_ARGB32 ? (p >> 24) & 0xFF : 255;
                    /* premultiplied: a transparent pixel counts as white paper */
                    unsigned lum = (r * 30 + g * 59 + b * 11) / 100 + (255 - a);
                    white = lum >= 128;
                } else if (fmt == CAIRO_FORMAT_A8) {
                    white = row[lx] >= 128;
                } else if (fmt == CAIRO_FORMAT_A1) {
                    white = (((const uint32_t *)(const void *)row)[lx >> 5] & a1_bit(lx)) != 0;
                } else {
                    rc = OPFOR_ENOTSUP;
                    break;
                }
                int nx, ny;
                opfor_epd_logical_to_native(native_w, native_h, rotation, lx, ly, &nx, &ny);
                opfor_epd_frame_set(f, nx, ny, white);
            }
        }
    }
    cairo_surface_destroy(s);
    return rc;
}

#else

int opfor_epd_frame_write_png(const opfor_epd_frame_t *f, int rotation, const char *path) {
    return OPFOR_ENOTSUP;
}

int opfor_epd_frame_read_png(opfor_epd_frame_t *f, int native_w, int native_h, int rotation,
                             const char *path) {
    return OPFOR_ENOTSUP;
}

#endif
