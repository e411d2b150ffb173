/* tests/cli/test_display_cards.c — the pieces opford --display and `opfor display` share:
 * panel specs, the display-* settings, cards built from wire events and game states, and the
 * emulated output writing what the panel shows as PNG.
 *
 * card_build.c and display_out.c live in tools/opfor and are compiled into both binaries, so
 * this program includes them directly. Events and states are packed here with msgpack-c in the
 * shapes docs/protocol.md gives, as the daemon sends them.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "card_build.c"
#include "display_out.c"
#include "io/pack_kv.h"
#include "opfor/viktoria/builtin.h"

/* ---- packing helpers ---- */

typedef struct mp {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked up;
} mp_t;

static void mp_begin(mp_t *m) {
    pack_open(&m->sb, &m->pk);
    msgpack_unpacked_init(&m->up);
}

static const msgpack_object *mp_end(mp_t *m) {
    size_t off = 0;
    assert_int_equal(msgpack_unpack_next(&m->up, m->sb.data, m->sb.size, &off),
                     MSGPACK_UNPACK_SUCCESS);
    return &m->up.data;
}

static void mp_free(mp_t *m) {
    msgpack_unpacked_destroy(&m->up);
    msgpack_sbuffer_destroy(&m->sb);
}

static void s(msgpack_packer *pk, const char *str) {
    msgpack_pack_str(pk, strlen(str));
    msgpack_pack_str_body(pk, str, strlen(str));
}

/* An array of the n strings of v. */
static void names(msgpack_packer *pk, const char *const *v, int n) {
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++)
        s(pk, v[i]);
}

static const char *const ready_two[] = {"1st Section", "Hussar Troop"};

static void pt(msgpack_packer *pk, double x, double y) {
    msgpack_pack_map(pk, 2);
    s(pk, "x");
    msgpack_pack_double(pk, x);
    s(pk, "y");
    msgpack_pack_double(pk, y);
}

static void unit(msgpack_packer *pk, const char *name, int player, double x, double y,
                 const char *state) {
    msgpack_pack_map(pk, 4);
    kstr(pk, "name", name);
    kint(pk, "player", player);
    kstr(pk, "state", state);
    s(pk, "at");
    pt(pk, x, y);
}

/* A game.state like opford's: a 72 x 48 table, three terrain pieces, five units (one gone). */
/* with_order: 0 none, 1 an order (no `open` key, as older daemons send), 2 one no longer open. */
static const msgpack_object *pack_state(mp_t *m, const char *pending, int with_order) {
    mp_begin(m);
    msgpack_packer *pk = &m->pk;
    msgpack_pack_map(pk, 10);
    kstr(pk, "game", "g-1");
    kint(pk, "turn", 2);
    kstr(pk, "status", "active");
    kstr(pk, "pending", pending);
    s(pk, "ready");
    names(pk, ready_two, 2);
    s(pk, "sides");
    msgpack_pack_array(pk, 2);
    msgpack_pack_map(pk, 2);
    kstr(pk, "name", "British");
    kint(pk, "player", 1);
    msgpack_pack_map(pk, 2);
    kstr(pk, "name", "Germans");
    kint(pk, "player", 0);
    s(pk, "table");
    msgpack_pack_map(pk, 2);
    s(pk, "width");
    msgpack_pack_double(pk, 72);
    s(pk, "depth");
    msgpack_pack_double(pk, 48);
    s(pk, "terrain");
    msgpack_pack_array(pk, 3);
    /* a wood with 20 points: thinned to 12 */
    msgpack_pack_map(pk, 3);
    kstr(pk, "kind", "woods");
    s(pk, "area");
    msgpack_pack_true(pk);
    s(pk, "points");
    msgpack_pack_array(pk, 20);
    for (int i = 0; i < 20; i++)
        pt(pk, 10 + i * 0.5, i % 2 ? 20 : 30);
    /* a road as a line */
    msgpack_pack_map(pk, 2);
    kstr(pk, "kind", "road");
    s(pk, "line");
    msgpack_pack_array(pk, 2);
    msgpack_pack_array(pk, 2);
    msgpack_pack_double(pk, 36);
    msgpack_pack_double(pk, 0);
    msgpack_pack_array(pk, 2);
    msgpack_pack_double(pk, 36);
    msgpack_pack_double(pk, 48);
    /* a building as a rect */
    msgpack_pack_map(pk, 2);
    kstr(pk, "kind", "building");
    s(pk, "rect");
    msgpack_pack_array(pk, 4);
    msgpack_pack_double(pk, 46);
    msgpack_pack_double(pk, 30);
    msgpack_pack_double(pk, 6);
    msgpack_pack_double(pk, 4);
    s(pk, "units");
    msgpack_pack_array(pk, 5);
    unit(pk, "1st Section", 1, 24, 9, "ready");
    unit(pk, "Hussar Troop", 1, 40, 5, "ready");
    unit(pk, "Jager Picket", 0, 59, 29.6, "ready");
    unit(pk, "Uhlans", 0, 10, 44, "ready");
    unit(pk, "Lost Patrol", 0, 30, 30, "destroyed");
    s(pk, "order");
    if (with_order) {
        msgpack_pack_map(pk, with_order == 2 ? 6 : 5);
        kstr(pk, "unit", "Jager Picket");
        kstr(pk, "sentence", "Jager Picket fires at 1st Section");
        kstr(pk, "target", "1st Section");
        kstr(pk, "command", "in command");
        kint(pk, "resolved", 0);
        if (with_order == 2)
            kint(pk, "open", 0); /* the game moved on: no longer to be carried out */
    } else {
        msgpack_pack_nil(pk);
    }
    return mp_end(m);
}

/* Begins m with the head of an `event` params map; the caller packs data with the packer
 * returned. */
static msgpack_packer *ev_begin(mp_t *m, const char *kind, int seq, int turn) {
    mp_begin(m);
    msgpack_packer *pk = &m->pk;
    msgpack_pack_map(pk, 5);
    kstr(pk, "game", "g-1");
    kint(pk, "seq", seq);
    kstr(pk, "kind", kind);
    kint(pk, "turn", turn);
    s(pk, "data");
    return pk;
}

static const msgpack_object *pack_order(mp_t *m, int turn) {
    msgpack_packer *pk = ev_begin(m, "order", 7, turn);
    msgpack_pack_map(pk, 6);
    kstr(pk, "side", "Germans");
    kstr(pk, "unit", "Jager Picket");
    kstr(pk, "sentence", "Jager Picket fires at 1st Section");
    kstr(pk, "target", "1st Section");
    kstr(pk, "command", "failed (take cover, fire, stand or load only)");
    s(pk, "needs");
    msgpack_pack_array(pk, 2);
    msgpack_pack_map(pk, 3);
    kstr(pk, "label", "To hit");
    kstr(pk, "dice", "D6");
    kstr(pk, "need", "4+");
    msgpack_pack_map(pk, 2);
    kstr(pk, "name", "save");
    kstr(pk, "need", "8+ on 2D6");
    return mp_end(m);
}

static const msgpack_object *pack_spotted(mp_t *m, int turn, const char *unit_name) {
    msgpack_packer *pk = ev_begin(m, "spotted", 5, turn);
    msgpack_pack_map(pk, 9);
    kstr(pk, "type", "infantry");
    kstr(pk, "quality", "veteran");
    kstr(pk, "distance", "3D6+6");
    kint(pk, "rolled", 17);
    kstr(pk, "direction", "NE");
    s(pk, "placed");
    msgpack_pack_true(pk);
    s(pk, "point");
    pt(pk, 10, 44);
    s(pk, "unit");
    if (unit_name)
        s(pk, unit_name);
    else
        msgpack_pack_nil(pk);
    kstr(pk, "text", "A veteran infantry section appears on the edge of the wood");
    return mp_end(m);
}

/* The player's initiative (the British) in turn 1 with the n units of ready to choose from. */
static const msgpack_object *pack_initiative(mp_t *m, const char *const *ready, int n) {
    msgpack_packer *pk = ev_begin(m, "initiative", 3, 1);
    msgpack_pack_map(pk, 3);
    kstr(pk, "holder", "player");
    kstr(pk, "side", "British");
    s(pk, "ready");
    names(pk, ready, n);
    return mp_end(m);
}

static const opfor_scene_unit_t *find_unit(const opfor_scene_t *m, float x, float y) {
    for (int i = 0; i < m->nunits; i++)
        if (m->units[i].at.x == x && m->units[i].at.y == y)
            return &m->units[i];
    return NULL;
}

/* ---- specs and settings ---- */

static void spec_parse(void **st) {
    (void)st;
    opfor_dout_spec_t sp;
    char err[256];
    assert_int_equal(opfor_dout_parse_spec("epd:2in13v4", &sp, err, sizeof err), 0);
    assert_int_equal(sp.kind, OPFOR_DOUT_EPD);
    assert_ptr_equal(sp.panel, &opfor_epd_panel_ws_2in13_v4);
    assert_int_equal(opfor_dout_parse_spec("EPD:7IN5V2", &sp, err, sizeof err), 0);
    assert_ptr_equal(sp.panel, &opfor_epd_panel_ws_7in5_v2);
    assert_int_equal(opfor_dout_parse_spec("epd:ws-7in5-v2", &sp, err, sizeof err), 0);
    assert_ptr_equal(sp.panel, &opfor_epd_panel_ws_7in5_v2);
    assert_int_equal(opfor_dout_parse_spec("sim:7in5v2:/tmp/a:b", &sp, err, sizeof err), 0);
    assert_int_equal(sp.kind, OPFOR_DOUT_SIM);
    assert_string_equal(sp.dir, "/tmp/a:b");

    static const struct {
        const char *spec, *says;
    } bad[] = {
        {"", "epd:PANEL or sim:PANEL:DIR"},
        {"7in5v2", "epd:PANEL or sim:PANEL:DIR"},
        {"usb:7in5v2", "unknown backend 'usb'"},
        {"epd:", "name a panel (2in13v4, 7in5v2)"},
        {"epd:9in7", "unknown panel '9in7' (panels: 2in13v4, 7in5v2)"},
        {"epd:7in5v2:/x", "epd takes only a panel"},
        {"sim:7in5v2", "sim:7in5v2:DIR"},
        {"sim:7in5v2:", "sim:7in5v2:DIR"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(opfor_dout_parse_spec(bad[i].spec, &sp, err, sizeof err), OPFOR_EINVAL);
        if (!strstr(err, bad[i].says))
            fail_msg("spec '%s': message '%s' lacks '%s'", bad[i].spec, err, bad[i].says);
    }
}

static void spec_settings_from_config(void **st) {
    (void)st;
    opfor_config_t c;
    opfor_diag_t d;
    opfor_dout_config_t dc;
    char err[256];
    opfor_config_defaults(&c);
    assert_int_equal(opfor_dout_config_from(&c, &dc, err, sizeof err), OPFOR_ENOENT);
    static const char yaml[] = "display: epd:2in13v4\n"
                               "display-rotation: 270\n"
                               "display-spidev: /dev/spidev1.0\n"
                               "display-gpiochip: gpiochip4\n"
                               "display-gpio-line: GPIO5\n"
                               "display-pin-rst: 5\n"
                               "display-pin-dc: 6\n"
                               "display-pin-busy: 13\n"
                               "display-pin-pwr: none\n";
    assert_int_equal(opfor_config_load_string(&c, yaml, sizeof yaml - 1, "d.yaml", &d), 0);
    assert_int_equal(opfor_dout_config_from(&c, &dc, err, sizeof err), 0);
    assert_ptr_equal(dc.spec.panel, &opfor_epd_panel_ws_2in13_v4);
    assert_int_equal(dc.rotation, 270);
    assert_string_equal(dc.hw.spidev, "/dev/spidev1.0");
    assert_string_equal(dc.hw.chip, "gpiochip4");
    assert_string_equal(dc.hw.find_line, "GPIO5");
    assert_int_equal(dc.hw.pin_rst, 5);
    assert_int_equal(dc.hw.pin_dc, 6);
    assert_int_equal(dc.hw.pin_busy, 13);
    assert_int_equal(dc.hw.pin_pwr, -1);
    /* unset keys keep the HAT's wiring */
    opfor_config_defaults(&c);
    assert_int_equal(opfor_config_set(&c, "display", "epd:7in5v2", &d), 0);
    assert_int_equal(opfor_dout_config_from(&c, &dc, err, sizeof err), 0);
    assert_int_equal(dc.rotation, -1);
    assert_int_equal(dc.hw.pin_rst, 17);
    assert_int_equal(dc.hw.pin_dc, 25);
    assert_int_equal(dc.hw.pin_busy, 24);
    assert_int_equal(dc.hw.pin_pwr, 18);
    assert_string_equal(dc.hw.spidev, "/dev/spidev0.0");
    /* two signals on one line */
    assert_int_equal(opfor_config_set(&c, "display-pin-pwr", "25", &d), 0);
    assert_int_equal(opfor_dout_config_from(&c, &dc, err, sizeof err), OPFOR_EINVAL);
    assert_non_null(strstr(err, "share a line"));
    /* values io itself refuses */
    assert_int_equal(opfor_config_set(&c, "display-rotation", "45", &d), OPFOR_EINVAL);
    assert_non_null(strstr(d.msg, "0, 90, 180, 270"));
    assert_int_equal(opfor_config_set(&c, "display-pin-rst", "600", &d), OPFOR_ERANGE);
    assert_int_equal(opfor_config_set(&c, "display-pin-dc", "none", &d), OPFOR_EINVAL);
    assert_int_equal(opfor_config_set(&c, "display-pin-dc", "default", &d), 0);
    assert_int_equal(c.display_pin_dc, OPFOR_CONFIG_PIN_DEFAULT);
    assert_int_equal(opfor_config_set(&c, "display", "none", &d), 0);
    assert_string_equal(c.display, "");
    static const char bad[] = "display-rotation: 91\n";
    opfor_diag_clear(&d);
    assert_true(opfor_config_load_string(&c, bad, sizeof bad - 1, "bad.yaml", &d) < 0);
    assert_int_equal(d.line, 1);
}

/* ---- cards ---- */

static void card_order_event(void **st) {
    (void)st;
    mp_t ms, me;
    const msgpack_object *state = pack_state(&ms, "enemy", 0);
    const msgpack_object *ev = pack_order(&me, 2);
    opfor_card_memo_t memo;
    opfor_card_memo_reset(&memo);
    opfor_card_t c;
    assert_int_equal(opfor_card_from_event(ev, state, &memo, &c), 1);
    assert_int_equal(c.initiative, OPFOR_CARD_SIDE_OPFOR);
    assert_string_equal(c.side_name, "Germans");
    assert_string_equal(c.unit, "Jager Picket");
    assert_string_equal(c.turn, "Turn 2");
    assert_int_equal(c.n_orders, 2);
    assert_string_equal(c.orders[0], "Fires at 1st Section");
    assert_string_equal(c.orders[1], "Command test failed (take cover, fire, stand or load only)");
    assert_int_equal(c.n_needed, 2);
    assert_string_equal(c.needed[0], "To hit 4+");
    assert_string_equal(c.needed[1], "Save 8+ on 2D6");
    assert_string_equal(memo.game, "g-1");
    assert_int_equal(memo.last_seq, 7);
    /* the map: a scene in table coordinates (south-west origin), the gone unit left out */
    const opfor_scene_t *m = &c.map;
    assert_true(m->width == 72.0f && m->depth == 48.0f);
    assert_int_equal(m->nunits, 4);
    const opfor_scene_unit_t *act = find_unit(m, 59.0f, 29.6f);
    const opfor_scene_unit_t *tgt = find_unit(m, 24.0f, 9.0f);
    const opfor_scene_unit_t *hus = find_unit(m, 40.0f, 5.0f);
    assert_non_null(act);
    assert_non_null(tgt);
    assert_non_null(hus);
    assert_int_equal(act->flags, OPFOR_SCENE_U_AI | OPFOR_SCENE_U_ACTING);
    /* each unit carries its name, for its label on the map */
    assert_string_equal(act->name, "Jager Picket");
    assert_string_equal(tgt->name, "1st Section");
    assert_int_equal(tgt->flags, OPFOR_SCENE_U_TARGET);
    assert_int_equal(hus->flags, 0);
    assert_null(find_unit(m, 30.0f, 30.0f)); /* destroyed */
    /* a fire line from the acting unit to its target, and no other arrow */
    assert_int_equal(m->narrows, 1);
    assert_int_equal(m->arrows[0].kind, OPFOR_SCENE_FIRE);
    assert_true(m->arrows[0].from.x == act->at.x && m->arrows[0].from.y == act->at.y);
    assert_true(m->arrows[0].to.x == tgt->at.x && m->arrows[0].to.y == tgt->at.y);
    /* the acting unit and its target come first, so they survive a full map */
    assert_true((m->units[0].flags | m->units[1].flags) ==
                (OPFOR_SCENE_U_AI | OPFOR_SCENE_U_ACTING | OPFOR_SCENE_U_TARGET));
    assert_int_equal(m->nshapes, 3);
    assert_int_equal(m->shapes[0].n, OPFOR_CARD_MAX_VERTS); /* 20 points thinned */
    assert_int_equal(m->shapes[0].closed, 1);
    assert_true(m->shapes[0].v[0].x == 10.0f && m->shapes[0].v[0].y == 30.0f);
    assert_true(m->shapes[0].v[11].x == 19.5f); /* the last point is kept */
    assert_int_equal(m->shapes[1].style, OPFOR_SCENE_ROAD);
    assert_int_equal(m->shapes[1].closed, 0);
    assert_int_equal(m->shapes[1].n, 2);
    assert_true(m->shapes[1].v[0].y == 0.0f && m->shapes[1].v[1].y == 48.0f);
    assert_int_equal(m->shapes[2].style, OPFOR_SCENE_BUILDING);
    assert_int_equal(m->shapes[2].n, 4);
    assert_true(m->shapes[2].v[2].x == 52.0f && m->shapes[2].v[2].y == 34.0f);
    /* without a state: the same text, no map */
    assert_int_equal(opfor_card_from_event(ev, NULL, NULL, &c), 1);
    assert_string_equal(c.orders[0], "Fires at 1st Section");
    assert_true(c.map.width == 0.0f);
    /* the card draws on both panels */
    static opfor_epd_frame_t f;
    opfor_card_layout_t lay;
    assert_int_equal(opfor_card_from_event(ev, state, &memo, &c), 1);
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, -1, &f, &lay), 0);
    assert_false(opfor_epd_rect_empty(&lay.map));
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_2in13_v4, -1, &f, &lay), 0);
    assert_int_equal(lay.compact, 1);
    mp_free(&ms);
    mp_free(&me);
}

/* A spotting's card says how the unit stands (formation, facing) and who comes with it. */
static void card_spotting_formation_and_general(void **st) {
    (void)st;
    mp_t m;
    msgpack_packer *pk = ev_begin(&m, "spotted", 5, 2);
    msgpack_pack_map(pk, 10);
    kstr(pk, "type", "cavalry");
    kstr(pk, "quality", "veteran");
    kstr(pk, "distance", "3D6+6");
    kint(pk, "rolled", 17);
    kstr(pk, "direction", "NE");
    s(pk, "placed");
    msgpack_pack_true(pk);
    s(pk, "point");
    pt(pk, 10, 44);
    kstr(pk, "formation", "skirmish");
    kstr(pk, "facing", "SW");
    s(pk, "generals");
    msgpack_pack_array(pk, 1);
    s(pk, "Oberst 1");
    opfor_card_t c;
    assert_int_equal(opfor_card_from_event(mp_end(&m), NULL, NULL, &c), 1);
    int found = 0;
    for (int i = 0; i < c.n_orders; i++)
        found += strcmp(c.orders[i], "In skirmish order, facing SW") == 0;
    assert_int_equal(found, 1);
    found = 0;
    for (int i = 0; i < c.n_needed; i++)
        found += strcmp(c.needed[i], "With Oberst 1") == 0;
    assert_int_equal(found, 1);
    mp_free(&m);
}

static void card_spotting_lasts_its_turn(void **st) {
    (void)st;
    mp_t ms, m1, m2, m3;
    const msgpack_object *state = pack_state(&ms, "enemy", 0);
    opfor_card_memo_t memo;
    opfor_card_memo_reset(&memo);
    opfor_card_t c;
    /* a spotting whose unit is in the state: that unit gets the flag, the arrow from NE */
    assert_int_equal(opfor_card_from_event(pack_spotted(&m1, 2, "Uhlans"), state, &memo, &c), 1);
    assert_string_equal(c.unit, "Spotted: Uhlans");
    assert_string_equal(c.orders[0], "A veteran infantry section appears on the edge of the wood");
    /* table coordinates as `opfor state` writes them, not "from the NE" (a compass point is a
       direction from the front line, not a corner to measure from) */
    assert_string_equal(c.orders[1], "Place at x 10.0, y 44.0");
    assert_string_equal(c.side_name, "Germans"); /* the side's name, as on its orders */
    assert_string_equal(c.needed[0], "Distance 17 in");
    const opfor_scene_unit_t *u = find_unit(&c.map, 10.0f, 44.0f);
    assert_non_null(u);
    assert_int_equal(u->flags, OPFOR_SCENE_U_AI | OPFOR_SCENE_U_SPOTTED);
    /* its place arrow comes in from the north-east corner */
    assert_int_equal(c.map.narrows, 1);
    assert_int_equal(c.map.arrows[0].kind, OPFOR_SCENE_PLACE);
    assert_true(c.map.arrows[0].from.x == 72.0f && c.map.arrows[0].from.y == 48.0f);
    assert_true(c.map.arrows[0].to.x == 10.0f && c.map.arrows[0].to.y == 44.0f);
    /* the order of the same turn still shows it */
    assert_int_equal(opfor_card_from_event(pack_order(&m2, 2), state, &memo, &c), 1);
    u = find_unit(&c.map, 10.0f, 44.0f);
    assert_non_null(u);
    assert_true(u->flags & OPFOR_SCENE_U_SPOTTED);
    /* the next turn does not */
    assert_int_equal(opfor_card_from_event(pack_order(&m3, 3), state, &memo, &c), 1);
    u = find_unit(&c.map, 10.0f, 44.0f);
    assert_non_null(u);
    assert_false(u->flags & OPFOR_SCENE_U_SPOTTED);
    mp_free(&m1);
    mp_free(&m2);
    mp_free(&m3);
    /* a spotting the daemon refused to place: no instruction to place it, the reason */
    {
        msgpack_packer *pk = ev_begin(&m1, "spotted", 6, 2);
        msgpack_pack_map(pk, 10);
        kstr(pk, "type", "artillery");
        kstr(pk, "quality", "soldier");
        kint(pk, "rolled", 18);
        kstr(pk, "direction", "SW");
        kint(pk, "placed", 0);
        /* the card reads the structured refusal, not the wording of rule_text */
        kstr(pk, "rule_text", "(worded by the daemon, not read by the card)");
        kint(pk, "refused", 1);
        kstr(pk, "why", "it would appear behind the players' line");
        s(pk, "point");
        msgpack_pack_nil(pk);
        kstr(pk, "text", "artillery/MG (soldier), 3d6+12 inches (rolled 18), SW");
        assert_int_equal(opfor_card_from_event(mp_end(&m1), state, &memo, &c), 1);
        assert_int_equal(c.n_orders, 2);
        assert_string_equal(c.orders[1], "Not placed: it would appear behind the players' line");
        assert_int_equal(c.n_needed, 0); /* no distance to measure */
        mp_free(&m1);
    }
    /* an unnamed spotting: a marker where it is placed */
    opfor_card_memo_reset(&memo);
    assert_int_equal(opfor_card_from_event(pack_spotted(&m1, 2, NULL), state, &memo, &c), 1);
    assert_string_equal(c.unit, "Spotted: veteran infantry");
    assert_int_equal(c.map.nunits, 5);
    assert_int_equal(c.map.units[4].flags, OPFOR_SCENE_U_AI | OPFOR_SCENE_U_SPOTTED);
    mp_free(&m1);
    mp_free(&ms);
}

static void card_initiative_and_others(void **st) {
    (void)st;
    mp_t m;
    opfor_card_t c;
    assert_int_equal(opfor_card_from_event(pack_initiative(&m, ready_two, 2), NULL, NULL, &c), 1);
    assert_int_equal(c.initiative, OPFOR_CARD_SIDE_PLAYER);
    assert_string_equal(c.side_name, "British");
    assert_int_equal(c.choice, 1); /* a choice of units, one a line, not numbered orders */
    assert_int_equal(c.n_orders, 2);
    assert_string_equal(c.orders[0], "1st Section");
    assert_string_equal(c.orders[1], "Hussar Troop");
    assert_string_equal(c.turn, "Turn 1");
    mp_free(&m);

    /* more units may act than there are lines: the last line names the rest together */
    static const char *const six[] = {"A1", "B2", "C3", "D4", "E5", "F6"};
    assert_int_equal(opfor_card_from_event(pack_initiative(&m, six, 6), NULL, NULL, &c), 1);
    assert_int_equal(c.choice, 1);
    assert_int_equal(c.n_orders, OPFOR_CARD_LINES);
    assert_string_equal(c.orders[0], "A1");
    assert_string_equal(c.orders[2], "C3");
    assert_string_equal(c.orders[3], "D4, E5, F6");
    mp_free(&m);

    ev_begin(&m, "game_over", 30, 9);
    msgpack_pack_map(&m.pk, 3);
    kstr(&m.pk, "result", "won");
    kint(&m.pk, "score", 42);
    kint(&m.pk, "turns", 9);
    assert_int_equal(opfor_card_from_event(mp_end(&m), NULL, NULL, &c), 1);
    assert_string_equal(c.unit, "Game over: victory");
    assert_string_equal(c.orders[0], "Score 42");
    assert_string_equal(c.orders[1], "After 9 turns");
    assert_int_equal(c.choice, OPFOR_CARD_NOTES); /* facts, not numbered orders */
    mp_free(&m);

    /* kinds without a card, and malformed events */
    ev_begin(&m, "score", 4, 1);
    msgpack_pack_map(&m.pk, 0);
    assert_int_equal(opfor_card_from_event(mp_end(&m), NULL, NULL, &c), 0);
    mp_free(&m);
    ev_begin(&m, "order", 4, 1);
    msgpack_pack_nil(&m.pk);
    assert_int_equal(opfor_card_from_event(mp_end(&m), NULL, NULL, &c), OPFOR_EINVAL);
    mp_free(&m);
    mp_begin(&m);
    msgpack_pack_array(&m.pk, 0);
    assert_int_equal(opfor_card_from_event(mp_end(&m), NULL, NULL, &c), OPFOR_EINVAL);
    mp_free(&m);
}

static void card_long_text_is_cut_cleanly(void **st) {
    (void)st;
    opfor_card_t c;
    memset(&c, 0, sizeof c);
    /* 3 lines of room: breaks at spaces, ends with an ellipsis, never splits a UTF-8 char */
    char text[400] = "";
    for (int i = 0; i < 30; i++)
        strcat(text, "Gr\xC3\xBC\xC3\x9F"
                     "e ");
    add_wrapped(&c, text, 3);
    assert_int_equal(c.n_orders, 3);
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(c.orders[i]);
        assert_true(n < OPFOR_CARD_LINE_LEN);
        assert_true(c.orders[i][0] != ' ');
        /* ends on a whole character */
        assert_true(((unsigned char)c.orders[i][n - 1] & 0xC0) != 0xC0);
    }
    assert_non_null(strstr(c.orders[2], "\xE2\x80\xA6"));
    /* unit prefix removed, first letter raised */
    char out[64];
    strip_unit(out, sizeof out, "jager company advance 6 in", "Jager Company");
    assert_string_equal(out, "Advance 6 in");
    strip_unit(out, sizeof out, "Hold the line", "Jager Company");
    assert_string_equal(out, "Hold the line");
    /* the AI's form (rulesets/viktoria/ai_orders.c): "UNIT: phrase: rolls." */
    strip_unit(out, sizeof out, "Jager Picket: fire at 9-pounder, 27 in away: to hit 5+.",
               "Jager Picket");
    assert_string_equal(out, "Fire at 9-pounder, 27 in away: to hit 5+");
    /* a long phrase is split after its last ", " that fits */
    memset(&c, 0, sizeof c);
    add_phrase(&c, "Advance 11 in NE, to x 30.0 y 12.0, toward the walls of the farmhouse "
                   "(move 1d3+4)");
    assert_int_equal(c.n_orders, 2);
    assert_string_equal(c.orders[0], "Advance 11 in NE, to x 30.0 y 12.0");
    /* the rest of the same order: not numbered as a second order */
    assert_string_equal(c.orders[1], "toward the walls of the farmhouse (move 1d3+4)");
    assert_int_equal(c.cont, 1 << 1);
    static opfor_epd_frame_t f;
    opfor_card_layout_t lay;
    snprintf(c.unit, sizeof c.unit, "Oberst 1");
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, -1, &f, &lay), 0);
    /* nothing in the mark's place in front of the second line (7.5 inch: rotation 0, so the
       frame's pixels are the card's) */
    opfor_epd_rect_t mark = {lay.unit.x, lay.orders[1].y, lay.orders[1].x - lay.unit.x,
                             lay.orders[1].h};
    assert_int_equal(opfor_epd_frame_count_black(&f, &mark), 0);
    mark.y = lay.orders[0].y; /* the first line has its number */
    assert_true(opfor_epd_frame_count_black(&f, &mark) > 0);
    /* an order needing three lines of the column gets them when there is room, instead of
       being cut after two (the charge's dice were lost that way) */
    memset(&c, 0, sizeof c);
    snprintf(c.unit, sizeof c.unit, "Oberst 1");
    c.n_orders = 1;
    snprintf(c.orders[0], sizeof c.orders[0],
             "Charge Major Harcourt, 12 in away (charge 1d3+16 inches)");
    c.map.width = 72; /* the map takes the right part: a narrow column */
    c.map.depth = 48;
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, -1, &f, &lay), 0);
    int three = lay.orders[0].h;
    snprintf(c.orders[0], sizeof c.orders[0], "Charge");
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, -1, &f, &lay), 0);
    assert_true(three >= 3 * lay.orders[0].h);
}

static void card_from_state_picks_what_matters(void **st) {
    (void)st;
    mp_t m;
    opfor_card_t c;
    opfor_card_memo_t memo;
    opfor_card_memo_reset(&memo);
    /* an open order (ai.orders leaves nobody holding the initiative): shown again (after a
       reconnect) */
    assert_int_equal(opfor_card_from_state(pack_state(&m, "none", 1), &memo, &c), 1);
    assert_string_equal(c.unit, "Jager Picket");
    assert_string_equal(c.orders[0], "Fires at 1st Section");
    assert_int_equal(c.n_orders, 1);
    assert_true(c.map.nunits == 4);
    mp_free(&m);
    /* the daemon says the order is no longer open (a press came after it): not shown */
    assert_int_equal(opfor_card_from_state(pack_state(&m, "none", 2), &memo, &c), 1);
    assert_string_equal(c.unit, "Press for the initiative");
    mp_free(&m);
    /* the enemy holds the initiative again: that order belongs to an earlier activation, even
       unresolved (the table rolled its own dice) */
    assert_int_equal(opfor_card_from_state(pack_state(&m, "enemy", 1), &memo, &c), 1);
    assert_string_equal(c.unit, "Enemy initiative");
    assert_string_equal(c.side_name, "Germans");
    assert_int_equal(c.map.nunits, 4);
    for (int i = 0; i < c.map.nunits; i++)
        assert_false(c.map.units[i].flags & (OPFOR_SCENE_U_ACTING | OPFOR_SCENE_U_TARGET));
    mp_free(&m);
    /* the players hold the initiative */
    assert_int_equal(opfor_card_from_state(pack_state(&m, "player", 1), &memo, &c), 1);
    assert_int_equal(c.initiative, OPFOR_CARD_SIDE_PLAYER);
    assert_string_equal(c.side_name, "British");
    assert_int_equal(c.choice, 1);
    assert_string_equal(c.orders[0], "1st Section");
    assert_string_equal(c.orders[1], "Hussar Troop");
    mp_free(&m);
    /* nobody: press the button */
    assert_int_equal(opfor_card_from_state(pack_state(&m, "none", 0), &memo, &c), 1);
    assert_string_equal(c.unit, "Press for the initiative");
    assert_int_equal(c.choice, OPFOR_CARD_NOTES); /* a hint: no number, no "ORDERS" */
    assert_string_equal(c.turn, "Turn 2");
    mp_free(&m);
}

/* A `report` event of the given kind ("acted", "resolve", "report"). */
static const msgpack_object *pack_report(mp_t *m, const char *kind) {
    msgpack_packer *pk = ev_begin(m, "report", 9, 2);
    msgpack_pack_map(pk, 1);
    kstr(pk, "kind", kind);
    return mp_end(m);
}

static void card_after_an_activation(void **st) {
    (void)st;
    mp_t ms, me;
    opfor_card_t c;
    opfor_card_memo_t memo;
    opfor_card_memo_reset(&memo);
    /* the order was resolved (or a player unit acted) and nobody holds the initiative: the
       order card is done with, the panel says to press the button */
    static const char *const done[] = {"resolve", "acted"};
    for (int i = 0; i < 2; i++) {
        const msgpack_object *state = pack_state(&ms, "none", 0);
        assert_int_equal(opfor_card_from_event(pack_report(&me, done[i]), state, &memo, &c), 1);
        assert_string_equal(c.unit, "Press for the initiative");
        assert_string_equal(c.side_name, "No initiative");
        assert_int_equal(c.choice, OPFOR_CARD_NOTES);
        assert_string_equal(c.turn, "Turn 2");
        assert_int_equal(c.map.nunits, 4); /* where the table left the units */
        mp_free(&me);
        mp_free(&ms);
    }
    /* other reports (moves, casualties while an order is carried out), or someone still holds
       the initiative, or no state: the card stays */
    const msgpack_object *state = pack_state(&ms, "none", 0);
    assert_int_equal(opfor_card_from_event(pack_report(&me, "report"), state, &memo, &c), 0);
    mp_free(&me);
    assert_int_equal(opfor_card_from_event(pack_report(&me, "acted"), NULL, &memo, &c), 0);
    mp_free(&me);
    mp_free(&ms);
    state = pack_state(&ms, "player", 0);
    assert_int_equal(opfor_card_from_event(pack_report(&me, "acted"), state, &memo, &c), 0);
    mp_free(&me);
    mp_free(&ms);
}

static void card_notes_are_not_numbered(void **st) {
    (void)st;
    static opfor_epd_frame_t f;
    opfor_card_layout_t lay;
    opfor_card_t c;
    /* a hint: the line starts at the column's edge, with no number and no "ORDERS" above */
    opfor_card_waiting(&c, "Waiting for orders", "Start or resume a game");
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, -1, &f, &lay), 0);
    assert_int_equal(lay.orders[0].x, lay.unit.x);
    int notes_y = lay.orders[0].y;
    /* orders: numbered, so indented, under their heading */
    snprintf(c.orders[0], sizeof c.orders[0], "Start or resume a game");
    c.choice = OPFOR_CARD_ORDERS;
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, -1, &f, &lay), 0);
    assert_true(lay.orders[0].x > lay.unit.x);
    assert_true(lay.orders[0].y > notes_y);
}

/* ---- a game of another ruleset: the order and game.state's scene ---- */

static void pack_xy(msgpack_packer *pk, double x, double y) {
    msgpack_pack_array(pk, 2);
    msgpack_pack_double(pk, x);
    msgpack_pack_double(pk, y);
}

static void kdouble(msgpack_packer *pk, const char *k, double v) {
    s(pk, k);
    msgpack_pack_double(pk, v);
}

/* One scene unit as game.state packs it. */
static void scene_unit(msgpack_packer *pk, double x, int side, int flags, const char *name) {
    msgpack_pack_map(pk, 8);
    s(pk, "at");
    pack_xy(pk, x, 6);
    kdouble(pk, "w", 2);
    kdouble(pk, "d", 1);
    kdouble(pk, "facing", side ? 270 : 90);
    kint(pk, "side", side);
    kint(pk, "flags", flags);
    kint(pk, "id", side);
    kstr(pk, "name", name);
}

/* The AI's order in a game of another ruleset, as ai.orders and the order event give it. */
static void gen_order(msgpack_packer *pk, int open) {
    msgpack_pack_map(pk, 12);
    kstr(pk, "game", "d1");
    kint(pk, "order_id", 5);
    kint(pk, "turn", 1);
    kint(pk, "side", 1);
    kint(pk, "index", 2);
    kstr(pk, "action", "Blue attacks with the 3 (needs 3+ on 1D6)");
    kstr(pk, "sentence",
         "Blue attacks Red with the 3: roll 1D6, 3+ to hit (67%), 1.7 damage expected.");
    kstr(pk, "unit", "Blue");
    kstr(pk, "target", "Red");
    s(pk, "needs");
    msgpack_pack_array(pk, 1);
    msgpack_pack_map(pk, 3);
    kstr(pk, "label", "to hit");
    kstr(pk, "need", "3+ on 1D6");
    kdouble(pk, "p", 4.0 / 6);
    s(pk, "open");
    msgpack_pack_int(pk, open); /* a flag: 1 or 0 */
    s(pk, "resolved");
    msgpack_pack_false(pk);
}

/* game.state of such a game (the table's view): a 24 x 12 table, two units, the AI (side 1)
 * attacking. to_move: a side, or -1 for the dice; order: 0 none, 1 open, 2 no longer open. */
static const msgpack_object *pack_gen_state(mp_t *m, int to_move, int order, int finished) {
    mp_begin(m);
    msgpack_packer *pk = &m->pk;
    msgpack_pack_map(pk, 10);
    kstr(pk, "game", "d1");
    kstr(pk, "ruleset", "duel");
    kstr(pk, "status", finished ? "finished" : "active");
    kstr(pk, "result", finished ? "won" : "");
    kint(pk, "ai_side", 1);
    s(pk, "to_move");
    if (to_move >= 0)
        msgpack_pack_int(pk, to_move);
    else
        s(pk, "chance");
    s(pk, "progress");
    msgpack_pack_map(pk, 2);
    kint(pk, "turn", 3);
    kint(pk, "activation", 1);
    s(pk, "legal");
    names(pk, (const char *const[]){"Red attacks with the 2", "Red guards"}, 2);
    s(pk, "scene");
    msgpack_pack_map(pk, 6);
    kdouble(pk, "width", 24);
    kdouble(pk, "depth", 12);
    s(pk, "shapes");
    msgpack_pack_array(pk, 2);
    msgpack_pack_map(pk, 4);
    kstr(pk, "style", "zone");
    s(pk, "closed");
    msgpack_pack_true(pk);
    kstr(pk, "name", "Red's half");
    s(pk, "points");
    msgpack_pack_array(pk, 4);
    pack_xy(pk, 0, 0);
    pack_xy(pk, 12, 0);
    pack_xy(pk, 12, 12);
    pack_xy(pk, 0, 12);
    msgpack_pack_map(pk, 3); /* a style this build does not know: drawn as open ground */
    kstr(pk, "style", "lava");
    s(pk, "closed");
    msgpack_pack_false(pk);
    s(pk, "points");
    msgpack_pack_array(pk, 2);
    pack_xy(pk, 1, 1);
    pack_xy(pk, 5, 1);
    s(pk, "units");
    msgpack_pack_array(pk, 2);
    scene_unit(pk, 6, 0, OPFOR_SCENE_U_TARGET, "Red 10hp");
    scene_unit(pk, 18, 1, OPFOR_SCENE_U_ACTING | OPFOR_SCENE_U_SHAKEN, "Blue 3hp");
    s(pk, "arrows");
    msgpack_pack_array(pk, 1);
    msgpack_pack_map(pk, 3);
    kstr(pk, "kind", "fire");
    s(pk, "from");
    pack_xy(pk, 17, 6);
    s(pk, "to");
    pack_xy(pk, 7, 6);
    s(pk, "labels");
    msgpack_pack_array(pk, 2);
    msgpack_pack_map(pk, 2);
    s(pk, "at");
    pack_xy(pk, 3, 3);
    kstr(pk, "text", "Red hand: 2 4");
    msgpack_pack_map(pk, 1); /* no position: left out */
    kstr(pk, "text", "nowhere");
    s(pk, "order");
    if (order)
        gen_order(pk, order == 1);
    else
        msgpack_pack_nil(pk);
    return mp_end(m);
}

static void card_of_another_ruleset(void **st) {
    (void)st;
    mp_t ms, me;
    static opfor_card_t c, d;
    opfor_card_memo_t memo;
    opfor_card_memo_reset(&memo);
    const msgpack_object *state = pack_gen_state(&ms, -1, 1, 0);
    msgpack_packer *pk = ev_begin(&me, "order", 9, 1);
    gen_order(pk, 1);
    const msgpack_object *ev = mp_end(&me);
    assert_int_equal(opfor_card_from_event(ev, state, &memo, &c), 1);
    /* the order: its sentence without the unit, the roll needed below */
    assert_int_equal(c.initiative, OPFOR_CARD_SIDE_OPFOR);
    assert_string_equal(c.unit, "Blue");
    assert_int_equal(c.n_orders, 1);
    assert_string_equal(c.orders[0], "Attacks Red with the 3");
    assert_int_equal(c.n_needed, 1);
    assert_string_equal(c.needed[0], "To hit 3+ on 1D6");
    /* the mini-map: the scene as the ruleset drew it, the AI's units filled */
    const opfor_scene_t *m = &c.map;
    assert_true(m->width == 24.0f && m->depth == 12.0f);
    assert_int_equal(m->nshapes, 2);
    assert_int_equal(m->shapes[0].style, OPFOR_SCENE_ZONE);
    assert_int_equal(m->shapes[0].closed, 1);
    assert_int_equal(m->shapes[0].n, 4);
    assert_string_equal(m->shapes[0].name, "Red's half");
    assert_true(m->shapes[0].v[2].x == 12.0f && m->shapes[0].v[2].y == 12.0f);
    assert_int_equal(m->shapes[1].style, OPFOR_SCENE_OPEN);
    assert_int_equal(m->nunits, 2);
    assert_string_equal(m->units[0].name, "Red 10hp");
    assert_int_equal(m->units[0].flags, OPFOR_SCENE_U_TARGET);
    assert_string_equal(m->units[1].name, "Blue 3hp");
    assert_int_equal(m->units[1].flags,
                     OPFOR_SCENE_U_AI | OPFOR_SCENE_U_ACTING | OPFOR_SCENE_U_SHAKEN);
    assert_true(m->units[1].w == 2.0f && m->units[1].d == 1.0f && m->units[1].facing == 270.0f);
    assert_true(m->units[1].at.x == 18.0f && m->units[1].at.y == 6.0f);
    assert_int_equal(m->narrows, 1);
    assert_int_equal(m->arrows[0].kind, OPFOR_SCENE_FIRE);
    assert_true(m->arrows[0].from.x == 17.0f && m->arrows[0].to.x == 7.0f);
    assert_int_equal(m->nlabels, 1);
    assert_string_equal(m->labels[0].text, "Red hand: 2 4");
    /* drawn with the map on the large panel, without it on the small one */
    static opfor_epd_frame_t f;
    opfor_card_layout_t lay;
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_7in5_v2, -1, &f, &lay), 0);
    assert_false(opfor_epd_rect_empty(&lay.map));
    assert_true(opfor_epd_frame_count_black(&f, &lay.map) > 500);
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_2in13_v4, -1, &f, &lay), 0);
    assert_int_equal(lay.compact, 1);
    /* from game.state alone (after a reconnect): the open order, the same card */
    assert_int_equal(opfor_card_from_state(state, &memo, &d), 1);
    assert_string_equal(d.turn, "Turn 3");
    snprintf(c.turn, sizeof c.turn, "Turn 3"); /* the event said turn 1 */
    assert_memory_equal(&c, &d, sizeof c);
    mp_free(&me);
    mp_free(&ms);
}

static void card_of_another_ruleset_from_state(void **st) {
    (void)st;
    mp_t m;
    static opfor_card_t c;
    /* the order is no longer open and a table side is to move: its legal actions */
    assert_int_equal(opfor_card_from_state(pack_gen_state(&m, 0, 2, 0), NULL, &c), 1);
    assert_int_equal(c.initiative, OPFOR_CARD_SIDE_PLAYER);
    assert_string_equal(c.unit, "Your move");
    assert_int_equal(c.choice, OPFOR_CARD_CHOICE);
    assert_int_equal(c.n_orders, 2);
    assert_string_equal(c.orders[0], "Red attacks with the 2");
    assert_string_equal(c.orders[1], "Red guards");
    assert_int_equal(c.map.nunits, 2);
    mp_free(&m);
    /* the dice */
    assert_int_equal(opfor_card_from_state(pack_gen_state(&m, -1, 0, 0), NULL, &c), 1);
    assert_string_equal(c.unit, "Roll the dice");
    assert_int_equal(c.choice, OPFOR_CARD_NOTES);
    mp_free(&m);
    /* the AI to move, no order yet */
    assert_int_equal(opfor_card_from_state(pack_gen_state(&m, 1, 0, 0), NULL, &c), 1);
    assert_int_equal(c.initiative, OPFOR_CARD_SIDE_OPFOR);
    assert_string_equal(c.unit, "Enemy to move");
    mp_free(&m);
    /* over: the result, and no score (such a game keeps none) */
    assert_int_equal(opfor_card_from_state(pack_gen_state(&m, -1, 2, 1), NULL, &c), 1);
    assert_string_equal(c.unit, "Game over: victory");
    assert_int_equal(c.n_orders, 0);
    mp_free(&m);
    /* to_move events: a table side to move shows its choices; the dice and the AI do not
       replace the order card */
    static const struct { int side, ai, card; } moves[] = {{0, 0, 1}, {-1, 0, 0}, {1, 1, 0}};
    for (int i = 0; i < 3; i++) {
        mp_t ms;
        const msgpack_object *state = pack_gen_state(&ms, moves[i].side, 2, 0);
        msgpack_packer *pk = ev_begin(&m, "to_move", 10 + i, 3);
        msgpack_pack_map(pk, 3);
        s(pk, "side");
        if (moves[i].side >= 0)
            msgpack_pack_int(pk, moves[i].side);
        else
            msgpack_pack_nil(pk);
        s(pk, "chance");
        msgpack_pack_int(pk, moves[i].side < 0);
        s(pk, "ai");
        msgpack_pack_int(pk, moves[i].ai);
        assert_int_equal(opfor_card_from_event(mp_end(&m), state, NULL, &c), moves[i].card);
        if (moves[i].card) {
            assert_string_equal(c.unit, "Your move");
            assert_int_equal(c.n_orders, 2);
            assert_int_equal(c.map.nunits, 2);
        }
        mp_free(&m);
        mp_free(&ms);
    }
    /* its game_over event: {result, returns}, no score line either */
    msgpack_packer *pk = ev_begin(&m, "game_over", 12, 3);
    msgpack_pack_map(pk, 2);
    kstr(pk, "result", "lost");
    s(pk, "returns");
    msgpack_pack_array(pk, 2);
    msgpack_pack_double(pk, -1);
    msgpack_pack_double(pk, 1);
    assert_int_equal(opfor_card_from_event(mp_end(&m), NULL, NULL, &c), 1);
    assert_string_equal(c.unit, "Game over: defeat");
    assert_int_equal(c.n_orders, 0);
    mp_free(&m);
}

static void card_terrain_from_builtin_scenario(void **st) {
    (void)st;
    /* a state without a terrain list names a built-in scenario: its terrain is drawn */
    opfor_scenario_t *sc = malloc(sizeof *sc);
    assert_non_null(sc);
    assert_int_equal(opfor_viktoria_builtin_load("patrol_default", sc, NULL), 0);
    assert_true(sc->table.nfeatures > 0);
    mp_t m;
    mp_begin(&m);
    msgpack_pack_map(&m.pk, 3);
    kstr(&m.pk, "scenario", "patrol_default");
    s(&m.pk, "table");
    msgpack_pack_map(&m.pk, 2);
    s(&m.pk, "width");
    msgpack_pack_double(&m.pk, sc->table.width);
    s(&m.pk, "depth");
    msgpack_pack_double(&m.pk, sc->table.depth);
    s(&m.pk, "units");
    msgpack_pack_array(&m.pk, 0);
    const msgpack_object *state = mp_end(&m);
    opfor_card_memo_t *memo = calloc(1, sizeof *memo);
    assert_non_null(memo);
    static opfor_scene_t map;
    /* terrain kinds and the scene styles that draw them */
    static const int style_of_kind[OPFOR_TK_COUNT] = {
        [OPFOR_TK_OPEN] = OPFOR_SCENE_OPEN,         [OPFOR_TK_WOODS] = OPFOR_SCENE_WOODS,
        [OPFOR_TK_BUILDING] = OPFOR_SCENE_BUILDING, [OPFOR_TK_WALL] = OPFOR_SCENE_LINEAR,
        [OPFOR_TK_HEDGE] = OPFOR_SCENE_HEDGE,       [OPFOR_TK_FENCE] = OPFOR_SCENE_FENCE,
        [OPFOR_TK_HILL] = OPFOR_SCENE_HILL,         [OPFOR_TK_ROAD] = OPFOR_SCENE_ROAD,
        [OPFOR_TK_RIVER] = OPFOR_SCENE_WATER,       [OPFOR_TK_FIELD_WORKS] = OPFOR_SCENE_WORKS,
        [OPFOR_TK_ROUGH] = OPFOR_SCENE_ROUGH,       [OPFOR_TK_IMPASSABLE] = OPFOR_SCENE_IMPASSABLE,
    };
    for (int round = 0; round < 2; round++) { /* the second from the cache */
        assert_int_equal(opfor_card_map_from_state(state, NULL, NULL, memo, &map), 0);
        int want = sc->table.nfeatures < OPFOR_CARD_MAX_TERRAIN ? sc->table.nfeatures
                                                                : OPFOR_CARD_MAX_TERRAIN;
        assert_int_equal(map.nshapes, want);
        for (int i = 0; i < want; i++) {
            const opfor_terrain_feature_t *f = &sc->table.features[i];
            assert_int_equal(map.shapes[i].style, style_of_kind[f->kind]);
            assert_int_equal(map.shapes[i].closed, f->shape == OPFOR_SHAPE_AREA);
            assert_true(map.shapes[i].v[0].x == f->pts[0].x);
            assert_true(map.shapes[i].v[0].y == f->pts[0].y);
        }
        assert_string_equal(memo->terrain_of, "patrol_default");
    }
    /* without a memo there is no cache, and no terrain */
    assert_int_equal(opfor_card_map_from_state(state, NULL, NULL, NULL, &map), 0);
    assert_int_equal(map.nshapes, 0);
    assert_true(map.width == sc->table.width);
    mp_free(&m);
    free(memo);
    opfor_scenario_free(sc);
    free(sc);
}

static void card_order_sentence_forms(void **st) {
    (void)st;
    static const struct {
        const char *sentence;
        int with_needs;
        const char *lines[3];
    } cases[] = {
        {"Jager Picket: fire at the leaders of 9-pounder, 27 in away: to hit 5+, save 5+.",
         1,
         {"Fire at the leaders of 9-pounder, 27 in away", NULL, NULL}},
        {"Jager Picket: fire at the leaders of 9-pounder, 27 in away: to hit 5+, save 5+.",
         0,
         {"Fire at the leaders of 9-pounder, 27 in away", "To hit 5+, save 5+", NULL}},
        {"Jager Picket: take cover.", 0, {"Take cover", NULL, NULL}},
        {"Jager Picket fires at 1st Section", 0, {"Fires at 1st Section", NULL, NULL}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mp_t m;
        msgpack_packer *pk = ev_begin(&m, "order", 1, 1);
        msgpack_pack_map(pk, 3);
        kstr(pk, "unit", "Jager Picket");
        kstr(pk, "sentence", cases[k].sentence);
        s(pk, "needs");
        msgpack_pack_array(pk, cases[k].with_needs ? 1 : 0);
        if (cases[k].with_needs) {
            msgpack_pack_map(pk, 2);
            kstr(pk, "label", "to hit");
            kstr(pk, "need", "5+");
        }
        opfor_card_t c;
        assert_int_equal(opfor_card_from_event(mp_end(&m), NULL, NULL, &c), 1);
        int n = 0;
        while (n < 3 && cases[k].lines[n])
            n++;
        assert_int_equal(c.n_orders, n);
        for (int i = 0; i < n; i++)
            assert_string_equal(c.orders[i], cases[k].lines[i]);
        assert_int_equal(c.n_needed, cases[k].with_needs);
        if (cases[k].with_needs)
            assert_string_equal(c.needed[0], "To hit 5+");
        mp_free(&m);
    }
}

/* An order to fire says how many figures fire and on how many dice each score is rolled; the
 * card shows both, and the small panel cuts none of those numbers. */
static void card_order_counts_figures_and_dice(void **st) {
    (void)st;
    static opfor_epd_frame_t f;
    for (int at_most = 0; at_most < 2; at_most++) {
        mp_t m;
        msgpack_packer *pk = ev_begin(&m, "order", 1, 1);
        msgpack_pack_map(pk, 5);
        kstr(pk, "unit", "Jager Company");
        kstr(pk, "sentence",
             "Jager Company: fire at 1st Section, 12 in away: 10 figures fire, to hit 4+ on 10 "
             "dice, save 6+ per hit.");
        s(pk, "figures");
        msgpack_pack_int(pk, 10);
        s(pk, "figures_at_most");
        if (at_most)
            msgpack_pack_true(pk);
        else
            msgpack_pack_false(pk);
        s(pk, "needs");
        msgpack_pack_array(pk, 2);
        msgpack_pack_map(pk, 4);
        kstr(pk, "label", "to hit");
        kstr(pk, "need", "4+");
        s(pk, "count");
        msgpack_pack_int(pk, 10);
        kstr(pk, "per", "");
        msgpack_pack_map(pk, 4);
        kstr(pk, "label", "save");
        kstr(pk, "need", "6+");
        s(pk, "count");
        msgpack_pack_int(pk, 0);
        kstr(pk, "per", "hit");
        opfor_card_t c;
        assert_int_equal(opfor_card_from_event(mp_end(&m), NULL, NULL, &c), 1);
        assert_int_equal(c.n_needed, 3);
        assert_string_equal(c.needed[0],
                            at_most ? "To hit 4+, up to 10 dice" : "To hit 4+, 10 dice");
        assert_string_equal(c.needed[1], "Save 6+ per hit");
        assert_string_equal(c.needed[2], at_most ? "Up to 10 figures fire" : "10 figures fire");
        for (int rot = 0; rot < 360; rot += 90) {
            opfor_card_layout_t lay;
            assert_int_equal(
                opfor_card_render_panel(&c, &opfor_epd_panel_ws_2in13_v4, rot, &f, &lay), 0);
            assert_int_equal(lay.cut_terms, 0);
        }
        mp_free(&m);
    }
}

/* Every word of text holding a digit ("3d6+6", "5+", "52.2") appears whole in one of the
 * card's lines: the builder never cut a number. */
static void all_numbers_kept(const char *text, const opfor_card_t *c) {
    char words[256];
    snprintf(words, sizeof words, "%s", text);
    for (char *save = NULL, *w = strtok_r(words, " ,:()", &save); w;
         w = strtok_r(NULL, " ,:()", &save)) {
        size_t n = strlen(w);
        while (n && (w[n - 1] == '.' || w[n - 1] == ';'))
            w[--n] = '\0';
        if (!strpbrk(w, "0123456789"))
            continue;
        int found = 0;
        for (int i = 0; i < c->n_orders && !found; i++)
            found = strstr(c->orders[i], w) != NULL;
        for (int i = 0; i < c->n_needed && !found; i++)
            found = strstr(c->needed[i], w) != NULL;
        if (!found)
            fail_msg("\"%s\" lost from the card of \"%s\"", w, text);
    }
}

/* The worst orders the table sees (the longest sentences of seeded Patrol games, the issue's
 * "3d6+6 in" and "To hit 5+ · S…" cuts, four scores, a failed command test, long unit names)
 * drawn on every panel at every rotation, with and without a map: no line is cut in a way that
 * hides a number or a dice term. */
static void card_never_cuts_a_number(void **st) {
    (void)st;
    static const struct {
        const char *unit, *sentence, *command;
        int nneeds;
        const char *needs[4][2];
    } cases[] = {
        {"Line Infantry",
         "Line Infantry: charge Hussar Troop, 11 in away (charge 1d3+7 inches): to hit 3+, save "
         "6+.",
         "",
         2,
         {{"to hit", "3+"}, {"save", "6+"}}},
        {"Oberst 1",
         "Oberst 1: charge Major Harcourt, 19 in away (charge 1d3+16 inches): to hit 2+, save 5+.",
         "",
         0,
         {{NULL, NULL}}},
        {"Jager Picket",
         "Jager Picket: crawl 2.5 in S away from Farmhouse, to x 52.2 y 29.0 (move 1d3+2 inches).",
         "failed (take cover, fire, stand or load only)",
         2,
         {{"to hit", "5+"}, {"save", "8+ on 2D6"}}},
        {"Uhlans",
         "Uhlans: advance 9.5 in W into Farmhouse, to x 52.0 y 32.1 (move 3d6+6 inches).",
         "",
         4,
         {{"to hit", "5+"}, {"save", "5+"}, {"morale", "7+ on 2D6"}, {"command", "4+ on 1D6"}}},
        {"Jager Company",
         "Jager Company: fire at the leaders of 1st Section, 12 in away: to hit 4+, save 6+.",
         "failed: take cover, fire, stand or load only",
         3,
         {{"to hit", "4+"}, {"save", "6+"}, {"morale", "8+ on 2D6"}}},
        {"2nd Battalion Leib-Grenadier-Regiment",
         "2nd Battalion Leib-Grenadier-Regiment: run 10 in W toward Long hedge, to x 50.2 y 31.7 "
         "(move 1d3+8 inches).",
         "",
         2,
         {{"to hit", "5+"}, {"save", "5+"}}},
    };
    static const opfor_epd_panel_t *const panels[] = {&opfor_epd_panel_ws_2in13_v4,
                                                      &opfor_epd_panel_ws_7in5_v2};
    static opfor_epd_frame_t f;
    mp_t ms;
    const msgpack_object *state = pack_state(&ms, "enemy", 0);
    int shortened = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mp_t m;
        msgpack_packer *pk = ev_begin(&m, "order", 9, 2);
        msgpack_pack_map(pk, 5);
        kstr(pk, "side", "Germans");
        kstr(pk, "unit", cases[k].unit);
        kstr(pk, "sentence", cases[k].sentence);
        kstr(pk, "command", cases[k].command);
        s(pk, "needs");
        msgpack_pack_array(pk, (size_t)cases[k].nneeds);
        for (int i = 0; i < cases[k].nneeds; i++) {
            msgpack_pack_map(pk, 2);
            kstr(pk, "label", cases[k].needs[i][0]);
            kstr(pk, "need", cases[k].needs[i][1]);
        }
        const msgpack_object *ev = mp_end(&m);
        for (int with_map = 0; with_map < 2; with_map++) {
            opfor_card_t c;
            assert_int_equal(opfor_card_from_event(ev, with_map ? state : NULL, NULL, &c), 1);
            const char *body = strchr(cases[k].sentence, ':');
            all_numbers_kept(body ? body + 1 : cases[k].sentence, &c);
            for (size_t pi = 0; pi < 2; pi++)
                for (int rot = 0; rot < 360; rot += 90) {
                    opfor_card_layout_t lay;
                    assert_int_equal(opfor_card_render_panel(&c, panels[pi], rot, &f, &lay), 0);
                    shortened += lay.shortened;
                    if (lay.cut_terms)
                        fail_msg("\"%s\" on %s at %d degrees%s: %d line(s) cut through a "
                                 "number (%d cut, %d shortened)",
                                 cases[k].sentence, panels[pi]->name, rot,
                                 with_map ? " with a map" : "", lay.cut_terms, lay.cut,
                                 lay.shortened);
                }
        }
        mp_free(&m);
    }
    assert_true(shortened > 0); /* the small panel needed its short forms */
    /* the check sees a cut: a line no panel can hold whole */
    opfor_card_t c;
    opfor_card_waiting(&c, "Orders", "x");
    c.choice = OPFOR_CARD_ORDERS;
    c.n_orders = 4;
    for (int i = 0; i < 4; i++)
        snprintf(c.orders[i], sizeof c.orders[i],
                 "Roll 3d6+6 then 2d6+1 then 4d6+2 then 5d6+%d "
                 "and 6d6+%d",
                 i, i);
    opfor_card_layout_t lay;
    assert_int_equal(opfor_card_render_panel(&c, &opfor_epd_panel_ws_2in13_v4, 90, &f, &lay), 0);
    assert_true(lay.cut_terms > 0);
    mp_free(&ms);
}

/* ---- the emulated output ---- */

/* Counts warnings and errors into *(int *)ud. */
static void count_log(void *ud, int level, const char *line) {
    (void)line;
    if (level <= OPFOR_LOG_WARN)
        ++*(int *)ud;
}

static void dout_sim_writes_what_the_panel_shows(void **st) {
    (void)st;
    char dir[] = "/tmp/opfor-dout-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[64], err[256];
    snprintf(sub, sizeof sub, "%s/a/b", dir); /* created on open */
    opfor_config_t c;
    opfor_config_defaults(&c);
    snprintf(c.display, sizeof c.display, "sim:7in5v2:%s", sub);
    opfor_dout_config_t dc;
    assert_int_equal(opfor_dout_config_from(&c, &dc, err, sizeof err), 0);
    dc.pol.min_interval_ms = 0; /* two cards, two refreshes */
    opfor_dout_t *o;
    int n_logged = 0;
    assert_int_equal(opfor_dout_open(&o, &dc, count_log, &n_logged, err, sizeof err), 0);
    opfor_card_t a, b;
    opfor_card_sample(&a);
    opfor_card_waiting(&b, "Waiting for orders", "line");
    opfor_dout_show(o, &b);
    assert_int_equal(opfor_dout_flush(o, 10000), 0);
    opfor_dout_show(o, &a);
    assert_int_equal(opfor_dout_flush(o, 10000), 0);
    assert_int_equal(opfor_dout_refreshes(o), 2);
    assert_int_equal(opfor_dout_close(o), 2);
    assert_int_equal(n_logged, 0); /* no emulator protocol errors, no failures */
    /* the second PNG is exactly the rendered sample card */
    static opfor_epd_frame_t want, got;
    assert_int_equal(opfor_card_render_panel(&a, &opfor_epd_panel_ws_7in5_v2, -1, &want, NULL), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/frame-000002.png", sub);
    assert_int_equal(opfor_epd_frame_read_png(&got, 800, 480, 0, path), 0);
    opfor_epd_rect_t box;
    assert_int_equal(opfor_epd_frame_diff(&want, &got, &box), 0);
    snprintf(path, sizeof path, "%s/frame-000001.png", sub);
    assert_int_equal(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/frame-000003.png", sub);
    assert_int_not_equal(access(path, R_OK), 0);
    /* opened again (a restart): numbering goes on after the files there; the same card
     * twice makes one refresh (the second replaces the first or is unchanged) */
    assert_int_equal(opfor_dout_open(&o, &dc, count_log, &n_logged, err, sizeof err), 0);
    opfor_dout_show(o, &a);
    opfor_dout_show(o, &a);
    assert_int_equal(opfor_dout_flush(o, 10000), 0);
    assert_int_equal(opfor_dout_close(o), 1);
    assert_int_equal(n_logged, 0);
    snprintf(path, sizeof path, "%s/frame-000003.png", sub);
    assert_int_equal(access(path, R_OK), 0);
    assert_int_equal(opfor_epd_frame_read_png(&got, 800, 480, 0, path), 0);
    assert_int_equal(opfor_epd_frame_diff(&want, &got, &box), 0);
    snprintf(path, sizeof path, "%s/frame-000004.png", sub);
    assert_int_not_equal(access(path, R_OK), 0);
    /* a directory that cannot be made */
    snprintf(c.display, sizeof c.display, "sim:2in13v4:/proc/no/such");
    assert_int_equal(opfor_dout_config_from(&c, &dc, err, sizeof err), 0);
    assert_int_equal(opfor_dout_open(&o, &dc, NULL, NULL, err, sizeof err), OPFOR_EIO);
    assert_non_null(strstr(err, "/proc/no/such"));
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Under LeakSanitizer: fontconfig leaks a few hundred bytes once, while parsing its XML config
 * (as tests/display/test_display_render.c notes); that library alone is suppressed. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
    return "leak:libfontconfig.so\n";
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_parse),
        cmocka_unit_test(spec_settings_from_config),
        cmocka_unit_test(card_order_event),
        cmocka_unit_test(card_order_sentence_forms),
        cmocka_unit_test(card_order_counts_figures_and_dice),
        cmocka_unit_test(card_spotting_formation_and_general),
        cmocka_unit_test(card_never_cuts_a_number),
        cmocka_unit_test(card_spotting_lasts_its_turn),
        cmocka_unit_test(card_initiative_and_others),
        cmocka_unit_test(card_long_text_is_cut_cleanly),
        cmocka_unit_test(card_from_state_picks_what_matters),
        cmocka_unit_test(card_after_an_activation),
        cmocka_unit_test(card_notes_are_not_numbered),
        cmocka_unit_test(card_terrain_from_builtin_scenario),
        cmocka_unit_test(card_of_another_ruleset),
        cmocka_unit_test(card_of_another_ruleset_from_state),
        cmocka_unit_test(dout_sim_writes_what_the_panel_shows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
