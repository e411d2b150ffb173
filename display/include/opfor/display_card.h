/* opfor/display_card.h — the orders card as plain data, and the pure function that draws it.
 *
 * Who holds the initiative, the acting unit, its orders, the scores needed, and on a large panel
 * a mini-map (terrain, units, the acting unit and its target, a newly spotted unit with an
 * arrow: Viktoria! Patrol Mode, XV). Fixed-size so a card copies with memcpy and crosses the
 * daemon's protocol unchanged.
 */
#ifndef OPFOR_DISPLAY_CARD_H
#define OPFOR_DISPLAY_CARD_H

#include <stdint.h>

#include "opfor/epd_device.h"
#include "opfor/epd_frame.h"

#define OPFOR_CARD_LINES 4        /* order lines and score lines */
#define OPFOR_CARD_LINE_LEN 64    /* bytes per order line, UTF-8, NUL included */
#define OPFOR_CARD_NEED_LEN 48    /* bytes per score line */
#define OPFOR_CARD_MAX_TERRAIN 32 /* terrain pieces on the mini-map */
#define OPFOR_CARD_MAX_UNITS 32   /* units on the mini-map */
#define OPFOR_CARD_MAX_VERTS 12   /* vertices per terrain piece */

/* The two sides of a Patrol Mode game. */
typedef enum opfor_card_side {
    OPFOR_CARD_SIDE_OPFOR = 0, /* the non-player side this program plays */
    OPFOR_CARD_SIDE_PLAYER     /* the people at the table */
} opfor_card_side_t;

/* A point on the table in inches: origin at the top-left corner as drawn, x right, y down. */
typedef struct opfor_card_pt {
    float x; /* inches from the left edge */
    float y; /* inches from the top edge */
} opfor_card_pt_t;

/* One piece of terrain: an area outline or a line. */
typedef struct opfor_card_terrain {
    uint8_t kind;   /* opfor_terrain_kind_t (vocab.h): picks the drawing style */
    uint8_t closed; /* 1: an area (woods, building, hill...), 0: a line (road, wall, river...) */
    uint8_t n;      /* vertices used, 2..OPFOR_CARD_MAX_VERTS */
    opfor_card_pt_t v[OPFOR_CARD_MAX_VERTS]; /* outline or line, in order */
} opfor_card_terrain_t;

/* How a card's order lines read (opfor_card_t.choice). */
typedef enum opfor_card_list {
    OPFOR_CARD_ORDERS = 0, /* orders to carry out: numbered under "ORDERS" */
    OPFOR_CARD_CHOICE = 1, /* alternatives (units that may act): bullets under "ACTIVATE ONE" */
    OPFOR_CARD_NOTES = 2   /* a hint or facts (waiting, game over): plain lines, no heading */
} opfor_card_list_t;

/* Unit flags. */
enum {
    OPFOR_CARD_U_OPFOR = 1 << 0,   /* belongs to the non-player side: drawn filled */
    OPFOR_CARD_U_ACTING = 1 << 1,  /* the unit these orders are for: ringed */
    OPFOR_CARD_U_TARGET = 1 << 2,  /* the acting unit's target: cross-haired */
    OPFOR_CARD_U_SPOTTED = 1 << 3, /* newly spotted: dashed box and an arrow from `from` */
};

/* One unit on the mini-map. */
typedef struct opfor_card_unit {
    opfor_card_pt_t at;   /* centre of the unit */
    opfor_card_pt_t from; /* SPOTTED only: where the arrow starts (equal to `at`: from the
                             nearest table edge) */
    uint8_t flags;        /* OPFOR_CARD_U_* */
} opfor_card_unit_t;

/* The mini-map; drawn only on panels large enough (at least 400 x 300 logical pixels). */
typedef struct opfor_card_map {
    float table_w;     /* table width in inches; 0 = no mini-map */
    float table_h;     /* table depth in inches */
    uint8_t n_terrain; /* terrain pieces used */
    uint8_t n_units;   /* units used */
    opfor_card_terrain_t terrain[OPFOR_CARD_MAX_TERRAIN]; /* drawn first */
    opfor_card_unit_t units[OPFOR_CARD_MAX_UNITS];        /* drawn over the terrain */
} opfor_card_map_t;

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
    opfor_card_map_t map;                               /* optional mini-map */
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

/* A sample card (an enemy infantry section ordered to advance and fire, a mini-map with woods,
 * a building, a hill, a road, a wall and a river, and a newly spotted unit): for tests, the
 * benchmark and `opfor demo`. */
void opfor_card_sample(opfor_card_t *card);

#endif
