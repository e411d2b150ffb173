/* tests/display/test_display_render.c — the orders card rendered, shown through the display
 * manager on the emulated panel, written as PNG and compared with tests/display/golden/; also
 * layout by panel size and rotation, purity, and odd input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/display_card.h"
#include "opfor/display_manager.h"
#include "opfor/epd_emu.h"

/* Golden comparison: the mini-map is drawn by Cairo alone and must match pixel for pixel. Text
 * goes through Pango, HarfBuzz and FreeType, whose versions may shift a glyph by a pixel on
 * another machine, so each text block (header, unit, every order and score line) only has to
 * match the golden's black-pixel count within 3% (at least 12 pixels: a missing or extra
 * letter in a one-line block fails, a swap of similar glyphs may not), and the whole frame
 * within 2%. Regenerate with OPFOR_UPDATE_GOLDEN=1 (writes the goldens and passes). */

static uint64_t zero_clock(void *ctx) {
    return 0;
}

/* Where the goldens live: $OPFOR_SOURCE_DIR/tests/display/golden, else next to this file. */
static void golden_path(char *buf, size_t size, const char *name) {
    const char *src = getenv("OPFOR_SOURCE_DIR");
    if (src && *src) {
        snprintf(buf, size, "%s/tests/display/golden/%s", src, name);
        return;
    }
    const char *here = __FILE__;
    const char *slash = strrchr(here, '/');
    int dir = slash ? (int)(slash - here) : 1;
    snprintf(buf, size, "%.*s/golden/%s", dir, slash ? here : ".", name);
}

/* The logical rectangle r as a native rectangle. */
static opfor_epd_rect_t to_native(const opfor_epd_panel_t *p, int rot, opfor_epd_rect_t r) {
    int x0, y0, x1, y1;
    opfor_epd_logical_to_native(p->width, p->height, rot, r.x, r.y, &x0, &y0);
    opfor_epd_logical_to_native(p->width, p->height, rot, r.x + r.w - 1, r.y + r.h - 1, &x1, &y1);
    opfor_epd_rect_t n = {x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1, abs(x1 - x0) + 1, abs(y1 - y0) + 1};
    return n;
}

static void near_count(const char *what, long got, long want, int pct, long floor_px) {
    long tol = want * pct / 100;
    if (tol < floor_px)
        tol = floor_px;
    if (labs(got - want) > tol)
        fail_msg("%s: %ld black pixels, golden has %ld (tolerance %ld)", what, got, want, tol);
}

/* Renders card for panel p at rotation rot, shows it through the manager on the emulator,
 * writes the emulator's PNG and compares it with golden `name`. */
static void check_golden(const opfor_card_t *card, const opfor_epd_panel_t *p, int rot,
                         const char *name) {
    static opfor_epd_frame_t frame, gold;
    static opfor_epd_t dev;
    static opfor_display_t mgr;
    opfor_card_layout_t L;
    assert_int_equal(opfor_card_render(card, p->width, p->height, rot, &frame, &L), 0);
    opfor_epd_emu_config_t cfg = {p, 0, 0, rot, 0};
    opfor_epd_emu_t *e;
    assert_int_equal(opfor_epd_emu_new(&cfg, &e), 0);
    assert_int_equal(opfor_epd_open(&dev, p, opfor_epd_emu_transport(e)), 0);
    assert_int_equal(opfor_display_init(&mgr, &dev, NULL, zero_clock, NULL), 0);
    opfor_display_outcome_t o;
    assert_int_equal(opfor_display_show(&mgr, &frame, &o), 0);
    assert_int_equal(o.kind, OPFOR_EPD_REFRESH_FULL);
    assert_int_equal(opfor_epd_emu_error_count(e, OPFOR_EMU_ERR_COUNT), 0);
    const opfor_epd_frame_t *shown = opfor_epd_emu_shown(e);
    assert_int_equal(opfor_epd_frame_diff(shown, &frame, NULL), 0);

    char out[256], gpath[512];
    /* The emulator's PNG goes to the temporary directory, never into the tree. */
    const char *tmp = getenv("TMPDIR");
    snprintf(out, sizeof out, "%s/opfor_render_%s", tmp && *tmp ? tmp : "/tmp", name);
    assert_int_equal(opfor_epd_emu_write_png(e, out), 0);
    golden_path(gpath, sizeof gpath, name);
    const char *upd = getenv("OPFOR_UPDATE_GOLDEN");
    if (upd && !strcmp(upd, "1")) {
        assert_int_equal(opfor_epd_emu_write_png(e, gpath), 0);
        print_message("updated golden %s\n", gpath);
    }
    int rc = opfor_epd_frame_read_png(&gold, p->width, p->height, rot, gpath);
    if (rc)
        fail_msg("cannot read golden %s (%s); run with OPFOR_UPDATE_GOLDEN=1 to create it", gpath,
                 opfor_strerror(rc));
    /* the PNG we wrote reads back to exactly what the panel shows */
    static opfor_epd_frame_t back;
    assert_int_equal(opfor_epd_frame_read_png(&back, p->width, p->height, rot, out), 0);
    assert_int_equal(opfor_epd_frame_diff(&back, shown, NULL), 0);

    if (!opfor_epd_rect_empty(&L.map)) {
        opfor_epd_rect_t m = to_native(p, rot, L.map);
        long diff = 0;
        for (int y = m.y; y < m.y + m.h; y++)
            for (int x = m.x; x < m.x + m.w; x++)
                diff += opfor_epd_frame_get(shown, x, y) != opfor_epd_frame_get(&gold, x, y);
        if (diff)
            fail_msg("%s: mini-map differs from the golden in %ld pixels (see %s)", name, diff,
                     out);
    }
    opfor_epd_rect_t blocks[2 + 2 * OPFOR_CARD_LINES];
    const char *names[2 + 2 * OPFOR_CARD_LINES] = {"header",  "unit",    "order 1", "order 2",
                                                   "order 3", "order 4", "score 1", "score 2",
                                                   "score 3", "score 4"};
    blocks[0] = L.header;
    blocks[1] = L.unit;
    for (int i = 0; i < OPFOR_CARD_LINES; i++) {
        blocks[2 + i] = L.orders[i];
        blocks[6 + i] = L.needed[i];
    }
    for (int i = 0; i < 2 + 2 * OPFOR_CARD_LINES; i++) {
        if (opfor_epd_rect_empty(&blocks[i]))
            continue;
        opfor_epd_rect_t r = to_native(p, rot, blocks[i]);
        long got = opfor_epd_frame_count_black(shown, &r);
        assert_true(got > 0); /* every block drawn has ink */
        near_count(names[i], got, opfor_epd_frame_count_black(&gold, &r), 3, 12);
    }
    opfor_epd_rect_t all = {0, 0, p->width, p->height};
    near_count("whole frame", opfor_epd_frame_count_black(shown, &all),
               opfor_epd_frame_count_black(&gold, &all), 2, 24);
    opfor_epd_emu_free(e);
}

static void render_card_7in5_matches_golden(void **state) {
    static opfor_card_t c;
    opfor_card_sample(&c);
    check_golden(&c, &opfor_epd_panel_ws_7in5_v2, 0, "card_7in5.png");
}

static void render_card_7in5_portrait_matches_golden(void **state) {
    static opfor_card_t c;
    opfor_card_sample(&c);
    c.initiative = OPFOR_CARD_SIDE_PLAYER;
    check_golden(&c, &opfor_epd_panel_ws_7in5_v2, 270, "card_7in5_portrait.png");
}

static void render_card_2in13_matches_golden(void **state) {
    static opfor_card_t c;
    opfor_card_sample(&c);
    check_golden(&c, &opfor_epd_panel_ws_2in13_v4, 90, "card_2in13.png");
}

/* Units on the 7.5 inch map carry a label: their name where it fits, else a short tag beside
 * them explained in a legend under the map (issue 15: they were unlabelled 1.6 mm squares). */
static void render_map_labels_every_unit(void **state) {
    (void)state;
    static opfor_card_t c;
    static opfor_epd_frame_t f;
    opfor_card_layout_t L;
    opfor_card_sample(&c);
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, 0, &f, &L), 0);
    assert_int_equal(L.named + L.tagged, c.map.nunits);
    /* a crowd: twelve named units within a few inches of each other on a 72 x 48 table */
    opfor_scene_t *m = &c.map;
    memset(m, 0, sizeof *m);
    m->width = 72;
    m->depth = 48;
    static const char *const names[] = {"Jager Picket",   "Jager Company", "Line Infantry",
                                        "Line Infantry",  "Oberst 1",      "Uhlans",
                                        "Major Harcourt", "1st Section",   "Hussar Troop",
                                        "9-pounder",      "Sharpshooter",  "Supply Wagon"};
    for (int i = 0; i < 12; i++) {
        opfor_scene_unit_t u;
        memset(&u, 0, sizeof u);
        u.at = (opfor_scene_pt_t){30.0f + (float)(i % 4) * 2.5f, 20.0f + (float)(i / 4) * 2.5f};
        u.flags = i < 6 ? OPFOR_SCENE_U_AI : 0;
        snprintf(u.name, sizeof u.name, "%s", names[i]);
        assert_int_equal(opfor_scene_add_unit(m, &u), 0);
    }
    for (int rot = 0; rot < 360; rot += 90) {
        assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, rot, &f, &L), 0);
        assert_int_equal(L.named + L.tagged, 12);
        assert_true(L.tagged > 0);
        assert_false(opfor_epd_rect_empty(&L.legend));
        /* the legend sits under the table, inside the map's box, and has ink */
        assert_true(L.legend.y >= L.map.y && L.legend.y + L.legend.h <= L.map.y + L.map.h);
        opfor_epd_rect_t r = to_native(&opfor_epd_panel_ws_7in5_v2, rot, L.legend);
        assert_true(opfor_epd_frame_count_black(&f, &r) > 100);
    }
    /* unnamed units: no labels, no legend, as before */
    for (int i = 0; i < m->nunits; i++)
        m->units[i].name[0] = '\0';
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, 0, &f, &L), 0);
    assert_int_equal(L.named + L.tagged, 0);
    assert_true(opfor_epd_rect_empty(&L.legend));
}

static void render_is_pure(void **state) {
    static opfor_card_t c;
    static opfor_epd_frame_t a, b;
    opfor_card_sample(&c);
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, -1, &a, NULL), 0);
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, -1, &b, NULL), 0);
    assert_int_equal(opfor_epd_frame_diff(&a, &b, NULL), 0);
    assert_true(opfor_epd_frame_count_black(&a, &(opfor_epd_rect_t){0, 0, 800, 480}) > 5000);
}

/* Rotating by 180 degrees draws the same logical image. */
static void render_rotations_agree(void **state) {
    static opfor_card_t c;
    static opfor_epd_frame_t a, b;
    const opfor_epd_panel_t *p = &opfor_epd_panel_ws_2in13_v4;
    opfor_card_sample(&c);
    int pairs[2][2] = {{90, 270}, {0, 180}};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(opfor_card_render_panel(&c, p, pairs[k][0], &a, NULL), 0);
        assert_int_equal(opfor_card_render_panel(&c, p, pairs[k][1], &b, NULL), 0);
        int lw, lh;
        opfor_epd_logical_size(p->width, p->height, pairs[k][0], &lw, &lh);
        long diff = 0;
        for (int y = 0; y < lh; y++)
            for (int x = 0; x < lw; x++) {
                int ax, ay, bx, by;
                opfor_epd_logical_to_native(p->width, p->height, pairs[k][0], x, y, &ax, &ay);
                opfor_epd_logical_to_native(p->width, p->height, pairs[k][1], x, y, &bx, &by);
                diff += opfor_epd_frame_get(&a, ax, ay) != opfor_epd_frame_get(&b, bx, by);
            }
        assert_int_equal(diff, 0);
        assert_true(opfor_epd_frame_diff(&a, &b, NULL) > 0); /* but not the same native bits */
    }
}

static void render_layout_follows_panel_and_rotation(void **state) {
    static opfor_card_t c;
    static opfor_epd_frame_t f;
    opfor_card_layout_t L;
    opfor_card_sample(&c);
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, 0, &f, &L), 0);
    assert_false(L.compact);
    assert_int_equal(L.width, 800);
    assert_true(L.map.x > L.unit.x + L.unit.w / 2); /* map right of the text */
    assert_true(L.map.w > 300 && L.map.h > 300);
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, 90, &f, &L), 0);
    assert_int_equal(L.width, 480);
    assert_int_equal(L.height, 800);
    assert_true(L.map.y > L.needed[2].y); /* map below the text */
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_2in13_v4, -1, &f, &L), 0);
    assert_true(L.compact);
    assert_int_equal(L.width, 250);
    assert_true(opfor_epd_rect_empty(&L.map)); /* no room for a map */
    assert_false(opfor_epd_rect_empty(&L.orders[2]));
    /* every text block lies inside the card */
    for (int i = 0; i < 3; i++)
        assert_true(L.orders[i].y + L.orders[i].h <= L.height);
    assert_true(L.needed[0].y + L.needed[0].h <= L.height);
}

static void render_header_shows_who_acts(void **state) {
    static opfor_card_t c;
    static opfor_epd_frame_t f;
    opfor_card_layout_t L;
    opfor_card_sample(&c);
    const opfor_epd_panel_t *p = &opfor_epd_panel_ws_7in5_v2;
    assert_int_equal(opfor_card_render_panel(&c, p, 0, &f, &L), 0);
    long area = (long)L.header.w * L.header.h;
    assert_true(opfor_epd_frame_count_black(&f, &L.header) * 10 > area * 7); /* inverted bar */
    c.initiative = OPFOR_CARD_SIDE_PLAYER;
    assert_int_equal(opfor_card_render_panel(&c, p, 0, &f, &L), 0);
    assert_true(opfor_epd_frame_count_black(&f, &L.header) * 10 < area * 3); /* outlined */
}

static void render_map_marks_units_and_spotted_arrow(void **state) {
    static opfor_card_t c, d;
    static opfor_epd_frame_t a, b;
    opfor_card_layout_t L;
    const opfor_epd_panel_t *p = &opfor_epd_panel_ws_7in5_v2;
    opfor_card_sample(&c);
    memcpy(&d, &c, sizeof c);
    d.map.nunits = 5;  /* drop the spotted unit (the last one) */
    d.map.narrows = 1; /* and its place arrow (the last one) */
    assert_int_equal(opfor_card_render_panel(&c, p, 0, &a, &L), 0);
    assert_int_equal(opfor_card_render_panel(&d, p, 0, &b, NULL), 0);
    opfor_epd_rect_t box;
    long n = opfor_epd_frame_diff(&a, &b, &box);
    assert_true(n > 100); /* box, dashed frame and arrow */
    assert_true(box.x >= L.map.x && box.x + box.w <= L.map.x + L.map.w);
    assert_true(box.y >= L.map.y && box.y + box.h <= L.map.y + L.map.h);
    assert_true(box.w > 20); /* the arrow reaches in from the right edge */
    /* no map at all: the text column gets the whole width, nothing drawn at the bottom right
     * (below the rule of the scores) */
    d.map.width = 0;
    assert_int_equal(opfor_card_render_panel(&d, p, 0, &b, &L), 0);
    assert_true(opfor_epd_rect_empty(&L.map));
    assert_int_equal(opfor_epd_frame_count_black(&b, &(opfor_epd_rect_t){600, 395, 200, 85}), 0);
}

/* A card with an empty 24 x 12 inch scene, for the scene tests. */
static void scene_card(opfor_card_t *c) {
    opfor_card_sample(c);
    memset(&c->map, 0, sizeof c->map);
    c->map.width = 24;
    c->map.depth = 12;
}

/* What adding to the scene changed: the box of the differing pixels (logical = native at
 * rotation 0). */
static opfor_epd_rect_t scene_diff(const opfor_card_t *a, const opfor_card_t *b, long *n) {
    static opfor_epd_frame_t fa, fb;
    const opfor_epd_panel_t *p = &opfor_epd_panel_ws_7in5_v2;
    assert_int_equal(opfor_card_render_panel(a, p, 0, &fa, NULL), 0);
    assert_int_equal(opfor_card_render_panel(b, p, 0, &fb, NULL), 0);
    opfor_epd_rect_t box;
    *n = opfor_epd_frame_diff(&fa, &fb, &box);
    return box;
}

static void render_scene_units_turn_and_carry_labels(void **state) {
    static opfor_card_t empty, c;
    opfor_card_layout_t L;
    static opfor_epd_frame_t f;
    scene_card(&empty);
    assert_int_equal(opfor_card_render_panel(&empty, &opfor_epd_panel_ws_7in5_v2, 0, &f, &L), 0);
    long n;
    /* a 4 x 1 inch unit facing north is wide, facing east tall; the map's middle */
    opfor_scene_unit_t u;
    memset(&u, 0, sizeof u);
    u.at = (opfor_scene_pt_t){12, 6};
    u.w = 4;
    u.d = 1;
    memcpy(&c, &empty, sizeof c);
    assert_int_equal(opfor_scene_add_unit(&c.map, &u), 0);
    opfor_epd_rect_t box = scene_diff(&empty, &c, &n);
    assert_true(n > 100);
    assert_true(box.w > 2 * box.h);
    int cx = L.map.x + L.map.w / 2, cy = L.map.y + L.map.h / 2;
    assert_true(box.x < cx && box.x + box.w > cx && box.y < cy && box.y + box.h > cy);
    c.map.units[0].facing = 90;
    box = scene_diff(&empty, &c, &n);
    assert_true(box.h > 2 * box.w);
    /* filled for the AI's side: more ink */
    long outlined = n;
    c.map.units[0].flags = OPFOR_SCENE_U_AI;
    scene_diff(&empty, &c, &n);
    assert_true(n > outlined + 100);
    /* its name goes under it */
    static opfor_card_t named;
    memcpy(&named, &c, sizeof c);
    snprintf(named.map.units[0].name, sizeof named.map.units[0].name, "Blue 10hp");
    box = scene_diff(&c, &named, &n);
    assert_true(n > 50);
    assert_true(box.y > cy);
    /* every flag changes the picture, and none draws outside the map */
    static const uint8_t flags[] = {OPFOR_SCENE_U_ACTING, OPFOR_SCENE_U_TARGET,
                                    OPFOR_SCENE_U_SPOTTED, OPFOR_SCENE_U_SHAKEN,
                                    OPFOR_SCENE_U_HIDDEN};
    for (size_t i = 0; i < sizeof flags; i++) {
        memcpy(&named, &c, sizeof c);
        named.map.units[0].flags |= flags[i];
        box = scene_diff(&c, &named, &n);
        assert_true(n > 20);
        assert_true(box.x >= L.map.x && box.x + box.w <= L.map.x + L.map.w);
        assert_true(box.y >= L.map.y && box.y + box.h <= L.map.y + L.map.h);
    }
    /* a free label: its left end at its point (the map's north-west quarter) */
    memcpy(&named, &c, sizeof c);
    assert_int_equal(opfor_scene_add_label(&named.map, (opfor_scene_pt_t){2, 10}, "round 1"), 0);
    box = scene_diff(&c, &named, &n);
    assert_true(n > 50);
    assert_true(box.x + box.w < cx && box.y + box.h < cy);
    /* arrows: a move with a head, a fire line, a placement from the edge */
    static const int kinds[] = {OPFOR_SCENE_MOVE, OPFOR_SCENE_FIRE, OPFOR_SCENE_PLACE};
    for (int i = 0; i < 3; i++) {
        memcpy(&named, &c, sizeof c);
        assert_int_equal(opfor_scene_add_arrow(&named.map, kinds[i], (opfor_scene_pt_t){2, 2},
                                               (opfor_scene_pt_t){8, 2}),
                         0);
        box = scene_diff(&c, &named, &n);
        assert_true(n > 30);
        assert_true(box.w > 60 && box.y > cy);
    }
}

static void render_survives_bad_text(void **state) {
    static opfor_card_t c, d;
    static opfor_epd_frame_t a, b;
    opfor_card_sample(&c);
    memcpy(&d, &c, sizeof c);
    snprintf(c.unit, sizeof c.unit, "%s", "Bad \xff\xfe name");
    snprintf(d.unit, sizeof d.unit, "%s", "Bad ?? name");
    memset(c.orders[0], 'W', sizeof c.orders[0] - 1); /* far too long: ellipsized */
    c.orders[0][sizeof c.orders[0] - 1] = '\0';
    memcpy(d.orders[0], c.orders[0], sizeof c.orders[0]);
    const opfor_epd_panel_t *p = &opfor_epd_panel_ws_2in13_v4;
    assert_int_equal(opfor_card_render_panel(&c, p, -1, &a, NULL), 0);
    assert_int_equal(opfor_card_render_panel(&d, p, -1, &b, NULL), 0);
    assert_int_equal(opfor_epd_frame_diff(&a, &b, NULL), 0);
    assert_int_equal(opfor_card_render(&c, 122, 250, 45, &a, NULL), OPFOR_EINVAL);
    assert_int_equal(opfor_card_render(&c, 1000, 1000, 0, &a, NULL), OPFOR_ERANGE);
}

/* Under LeakSanitizer: fontconfig leaks a few hundred bytes once, while parsing its XML config
 * (FcInitLoadConfigAndFonts); that is not ours to fix, so that library alone is suppressed. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
    return "leak:libfontconfig.so\n";
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(render_card_7in5_matches_golden),
        cmocka_unit_test(render_card_7in5_portrait_matches_golden),
        cmocka_unit_test(render_card_2in13_matches_golden),
        cmocka_unit_test(render_map_labels_every_unit),
        cmocka_unit_test(render_is_pure),
        cmocka_unit_test(render_rotations_agree),
        cmocka_unit_test(render_layout_follows_panel_and_rotation),
        cmocka_unit_test(render_header_shows_who_acts),
        cmocka_unit_test(render_map_marks_units_and_spotted_arrow),
        cmocka_unit_test(render_scene_units_turn_and_carry_labels),
        cmocka_unit_test(render_survives_bad_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
