/* opfor/epd_frame.h — 1-bit frame buffers for e-ink panels, rectangles, rotation and PNG files.
 *
 * A frame is stored in the panel's native orientation (sources across, gates down), one bit per
 * pixel, most significant bit first, 1 = white paper and 0 = black ink: the same layout both
 * supported controllers expect in their RAM, so a full refresh streams the bytes unchanged.
 * Frames are fixed-size plain structs (no allocation, copyable with memcpy); the largest panel
 * (800 x 480) sets the capacity.
 */
#ifndef OPFOR_EPD_FRAME_H
#define OPFOR_EPD_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* Capacity of one frame: 800 x 480 pixels at 1 bit each. */
#define OPFOR_EPD_FRAME_MAX_BYTES 48000

/* A rectangle in pixels; w or h of 0 means empty. */
typedef struct opfor_epd_rect {
    int x; /* left column */
    int y; /* top row */
    int w; /* width in pixels */
    int h; /* height in pixels */
} opfor_epd_rect_t;

/* One 1-bit image in native panel orientation. */
typedef struct opfor_epd_frame {
    uint16_t width;                          /* pixels per row (native sources) */
    uint16_t height;                         /* rows (native gates) */
    uint16_t stride;                         /* bytes per row: (width + 7) / 8 */
    uint8_t bits[OPFOR_EPD_FRAME_MAX_BYTES]; /* rows top to bottom, MSB = leftmost, 1 = white */
} opfor_epd_frame_t;

/* Sets f to a width x height frame filled with white (white != 0) or black; padding bits at
 * the end of each row are always white. OPFOR_ERANGE when the frame would not fit. */
int opfor_epd_frame_init(opfor_epd_frame_t *f, int width, int height, int white);

/* 1 when pixel (x, y) is white, 0 when black; pixels outside the frame read as white. */
int opfor_epd_frame_get(const opfor_epd_frame_t *f, int x, int y);

/* Sets pixel (x, y) to white (white != 0) or black; ignores pixels outside the frame. */
void opfor_epd_frame_set(opfor_epd_frame_t *f, int x, int y, int white);

/* Counts the pixels that differ between a and b (same size) and stores their bounding box in
 * *box (empty when none). Returns the count, or OPFOR_EINVAL when the sizes differ. */
long opfor_epd_frame_diff(const opfor_epd_frame_t *a, const opfor_epd_frame_t *b,
                          opfor_epd_rect_t *box);

/* Counts black pixels inside r (clipped to the frame). */
long opfor_epd_frame_count_black(const opfor_epd_frame_t *f, const opfor_epd_rect_t *r);

/* Copies the pixels of src inside r into dst (same size). */
void opfor_epd_frame_copy_rect(opfor_epd_frame_t *dst, const opfor_epd_frame_t *src,
                               const opfor_epd_rect_t *r);

/* True when r has no pixels. */
int opfor_epd_rect_empty(const opfor_epd_rect_t *r);
/* The smallest rectangle holding a and b (either may be empty). */
opfor_epd_rect_t opfor_epd_rect_union(const opfor_epd_rect_t *a, const opfor_epd_rect_t *b);
/* r clipped to a width x height area. */
opfor_epd_rect_t opfor_epd_rect_clip(const opfor_epd_rect_t *r, int width, int height);
/* r widened so that x and x + w fall on byte (8-pixel) boundaries, then clipped to width. */
opfor_epd_rect_t opfor_epd_rect_align8(const opfor_epd_rect_t *r, int width);

/* Rotation of the logical (reading) image on the native panel, in degrees clockwise: 0, 90,
 * 180 or 270. With 90, the logical top edge runs down the native right edge. */
int opfor_epd_rotation_valid(int rotation);
/* Size of the logical image for a native width x height panel under rotation. */
void opfor_epd_logical_size(int native_w, int native_h, int rotation, int *lw, int *lh);
/* Maps logical pixel (lx, ly) to native (nx, ny). */
void opfor_epd_logical_to_native(int native_w, int native_h, int rotation, int lx, int ly, int *nx,
                                 int *ny);

/* Writes f as a grayscale PNG seen in logical orientation (rotation as above): white paper,
 * black ink. OPFOR_EIO when the file cannot be written, OPFOR_ENOTSUP without cairo. */
int opfor_epd_frame_write_png(const opfor_epd_frame_t *f, int rotation, const char *path);

/* Reads a PNG into f as a native frame of native_w x native_h, undoing rotation (the inverse
 * of opfor_epd_frame_write_png). A pixel is white when its luminance is at least half.
 * OPFOR_ENOENT when the file is missing or unreadable, OPFOR_ERANGE when its size does not
 * match, OPFOR_ENOTSUP without cairo. */
int opfor_epd_frame_read_png(opfor_epd_frame_t *f, int native_w, int native_h, int rotation,
                             const char *path);

#endif
