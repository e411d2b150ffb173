/* opfor/display_card.h — the orders card as plain data, and the pure function that draws it.
 *
 * Who holds the initiative, the acting unit, its orders, the scores needed, and on a large panel
 * a mini-map: a scene of the table (core's opfor/scene.h: shapes drawn by style, units as
 * rectangles turned to their facing with their flags, arrows, labels), so a card shows a game
 * of any ruleset. Fixed-size so a card copies with memcpy and crosses the daemon's protocol
 * unchanged.
 *
 * How the mini-map draws a scene: shapes first, in order; then fire arrows (a dashed line,
 * pulled back from the rings of units at either end) and move arrows (a line with a head);
 * then the units: a unit of size 0 (w or d) as a square marker scaled to the map, any other as
 * its w x d rectangle turned to its facing; AI units filled, the others outlined; ACTING
 * ringed, TARGET ringed and cross-haired, SPOTTED in a dashed box, SHAKEN struck through,
 * HIDDEN dashed with a question mark; a unit's name under it where it fits without touching
 * another unit or label, else a short tag of its initials beside it ("JP"), explained in a
 * legend under the map ("JP Jager Picket"). A place arrow ending at a unit's
 * centre is drawn with that unit (from `from`, started further out when short, stopping short
 * of the unit); other place arrows after the units; labels last, left end at `at`.
 */
#ifndef OPFOR_DISPLAY_CARD_H
#define OPFOR_DISPLAY_CARD_H

#include <stdint.h>

#include "opfor/epd_device.h"
#include "opfor/epd_frame.h"
#include "opfor/scene.h"

#define OPFOR_CARD_LINES 4     /* order lines and score lines */
#define OPFOR_CARD_LINE_LEN 64 /* bytes per order line, UTF-8, NUL included */
#define OPFOR_CARD_NEED_LEN 48 /* bytes per score line */
#define OPFOR_CARD_QR_MAX 57   /* modules per side of a QR code on a card: up to version 10 */
#define OPFOR_CARD_QR_QUIET 4  /* light modules around it, as the QR standard asks */

/* The two sides at the table: the one this program plays and the players. */
typedef enum opfor_card_side {
    OPFOR_CARD_SIDE_OPFOR = 0, /* the non-player side this program plays */
    OPFOR_CARD_SIDE_PLAYER     /* the people at the table */
} opfor_card_side_t;

/* How a card's order lines read (opfor_card_t.choice). */
typedef enum opfor_card_list {
    OPFOR_CARD_ORDERS = 0, /* orders to carry out: numbered under "ORDERS" */
    OPFOR_CARD_CHOICE = 1, /* alternatives (units that may act): bullets under "ACTIVATE ONE" */
    OPFOR_CARD_NOTES = 2   /* a hint or facts (waiting, game over): plain lines, no heading */
} opfor_card_list_t;

/* Everything on one card. Strings are UTF-8 and NUL-terminated; invalid bytes show as '?'. */
typedef struct opfor_card {
    uint8_t initiative;                                 /* opfor_card_side_t acting now */
    char side_name[24];                                 /* name of that side, "" = "Enemy" or
                                                           "Player" */
    char unit[48];                                      /* the acting unit */
    char turn[16];                                      /* optional corner note, "Turn 3" */
    uint8_t n_orders;                                   /* order lines used */
    uint8_t choice;                                     /* how the lines read:
                                                           opfor_card_list_t */
    char orders[OPFOR_CARD_LINES][OPFOR_CARD_LINE_LEN]; /* short imperative lines */
    uint8_t cont;     /* bit i: order line i goes on with the line before (one order too long for
                         a line): drawn without a mark of its own */
    uint8_t n_needed; /* score lines used */
    char needed[OPFOR_CARD_LINES][OPFOR_CARD_NEED_LEN]; /* "Hit 4+", "Save 5+"... */
    opfor_scene_t map; /* optional mini-map (scene.h), drawn on panels large enough (at least
                          400 x 300 logical pixels); width 0 = none */
    uint8_t qr_width;  /* optional QR code (a link for a phone's camera) where the mini-map
                          would be, when there is none: modules per side, 0 = none */
    uint8_t qr[OPFOR_CARD_QR_MAX][(OPFOR_CARD_QR_MAX + 7) / 8]; /* its modules, row y, column x
                                                                   in bit x % 8 (LSB first) of
                                                                   byte x / 8; 1 = dark */
} opfor_card_t;

/* Where render put things, in logical pixels (the reading orientation); empty rectangles for
 * what is absent. Tests compare regions with it; callers may ignore it. */
typedef struct opfor_card_layout {
    int width, height;                         /* logical size */
    int rotation;                              /* rotation used */
    int compact;                               /* 1 for the small-panel layout */
    opfor_epd_rect_t header;                   /* initiative bar */
    opfor_epd_rect_t unit;                     /* unit name */
    opfor_epd_rect_t orders[OPFOR_CARD_LINES]; /* each order line as drawn */
    opfor_epd_rect_t needed[OPFOR_CARD_LINES]; /* each score line (compact: all in [0]) */
    opfor_epd_rect_t map;                      /* mini-map area */
    int named;                                 /* map units labelled with their name */
    int tagged;              /* map units labelled with a short tag, explained in the legend */
    opfor_epd_rect_t legend; /* the tags' legend under the map */
    opfor_epd_rect_t qr;     /* the QR code's modules (its quiet zone around them, light) */
    int qr_module;           /* pixels per module side (0: no code drawn; it did not fit) */
    int shortened;           /* text blocks drawn with words shortened to fit ("inches" -> "in") */
    int cut;       /* text blocks (or order lines left out) that still did not fit: cut at a
                      word with an ellipsis */
    int cut_terms; /* of those, the ones whose cut hid a number or a dice term (or the word after
                      one): 0 whenever the table can read every number it needs */
} opfor_card_layout_t;

/* Draws card into *out, a native_w x native_h frame, with the reading orientation rotated by
 * rotation (0, 90, 180, 270; see epd_frame.h). Panels under 400 x 300 logical pixels get the
 * compact card (no mini-map). layout may be NULL. Pure: the same card, size and rotation give
 * the same frame. OPFOR_EINVAL for a bad size or rotation, OPFOR_ENOTSUP without Pango. */
int opfor_card_render(const opfor_card_t *card, int native_w, int native_h, int rotation,
                      opfor_epd_frame_t *out, opfor_card_layout_t *layout);

/* The same for a panel; rotation -1 takes the panel's default (a landscape card). */
int opfor_card_render_panel(const opfor_card_t *card, const opfor_epd_panel_t *panel, int rotation,
                            opfor_epd_frame_t *out, opfor_card_layout_t *layout);

/* Sets module (x, y) of card's QR code dark (1) or light (0); 1 when (x, y) is dark in it
 * (qr_dark). Coordinates outside the code are light. */
void opfor_card_qr_set(opfor_card_t *card, int x, int y, int dark);
int opfor_card_qr_dark(const opfor_card_t *card, int x, int y);

/* A sample card (an enemy infantry section ordered to advance and fire, a mini-map with woods,
 * a building, a hill, a road, a wall and a river, and a newly spotted unit with its place
 * arrow): for tests, the benchmark and `opfor demo`. */
void opfor_card_sample(opfor_card_t *card);

#endif
