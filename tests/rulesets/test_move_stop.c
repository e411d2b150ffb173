/* tests/rulesets/test_move_stop.c — where a straight move stops short of closed ground
 * (rulesets/viktoria/ai_move_stop.c), and the order that says so (ai_orders.c).
 *
 * A rider is stopped at the wall of a building it may not enter, a man on foot walks
 * in; a pond stops both; a unit already inside is let out; an order whose way is barred at
 * once says the unit stays where it is instead of promising a move the engine will not make.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <string.h>

#include "ai/viktoria_fixture.h"
#include "ai/vkfix_units.h"
#include "opfor/viktoria/move_stop.h"
#include "opfor/order.h"
#include "opfor/viktoria/ai.h"

/* clang-format off */
static const char FIELD[] =
    VKFIX_HEAD
    "terrain:\n"
    "  - {name: Farmhouse, kind: building, rect: [46, 30, 6, 4]}\n"
    "  - {name: Mill pond, kind: impassable, rect: [20, 10, 6, 6]}\n"
    "units:\n"
    VKFIX_UNIT("Courier", "Red", "cavalry", "[52.1, 32]")
    "      - {count: 1, mounted: true, weapons: [sword]}\n"
    VKFIX_UNIT("Jager", "Blue", "infantry", "[36, 40]") VKFIX_RIFLES(4);
/* clang-format on */

static void move_stop_riders_and_foot(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, FIELD, 1), 0);
    const opfor_vk_ctx_t *vk = opfor_vk_rs_engine(f.ctx);
    assert_int_equal(opfor_move_rides(&f.st->vk, vkfix_unit(&f, "Courier")), 1);
    assert_int_equal(opfor_move_rides(&f.st->vk, vkfix_unit(&f, "Jager")), 0);
    int blk = 7;
    /* a rider going west from x 60 stops at the wall at x 52 (the engine tests centres) */
    opfor_pt_t p = opfor_move_stop(vk, 1, opfor_pt(60, 32), opfor_pt(40, 32), &blk);
    assert_int_equal(blk, 0);
    assert_float_equal(p.x, 52.0f, 0.05f);
    assert_float_equal(p.y, 32.0f, 1e-4f);
    /* on foot the building is open ground for this purpose */
    p = opfor_move_stop(vk, 0, opfor_pt(60, 32), opfor_pt(40, 32), &blk);
    assert_int_equal(blk, -1);
    assert_float_equal(p.x, 40.0f, 1e-4f);
    /* the pond stops everyone: north from y 4 toward y 20 meets it at y 10 */
    p = opfor_move_stop(vk, 0, opfor_pt(23, 4), opfor_pt(23, 20), &blk);
    assert_int_equal(blk, 1);
    assert_float_equal(p.y, 10.0f, 0.05f);
    /* already inside: let out; nothing in the way: the whole line */
    p = opfor_move_stop(vk, 1, opfor_pt(49, 32), opfor_pt(60, 32), &blk);
    assert_int_equal(blk, -1);
    assert_float_equal(p.x, 60.0f, 1e-4f);
    p = opfor_move_stop(vk, 1, opfor_pt(60, 40), opfor_pt(40, 40), &blk);
    assert_int_equal(blk, -1);
    assert_float_equal(p.x, 40.0f, 1e-4f);
    /* a line that only passes the building's corner beyond its end is open */
    p = opfor_move_stop(vk, 1, opfor_pt(60, 35), opfor_pt(53, 35), &blk);
    assert_int_equal(blk, -1);
    vkfix_close(&f);
}

static void move_stop_barred_order_says_so(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, FIELD, 1), 0);
    int u = vkfix_act(&f, "Courier");
    /* the courier stands 0.1 in from the farmhouse wall: a gallop west goes nowhere */
    int found = 0;
    for (int i = 0; i < f.n; i++) {
        opfor_action_t a = f.acts[i];
        if (a.kind != OPFOR_VK_ADVANCE && a.kind != OPFOR_VK_RUN)
            continue;
        a.x = 40.0f;
        a.y = 32.0f;
        opfor_order_t o;
        assert_int_equal(opfor_vk_ai_order(f.ctx, f.st, &a, &o), 0);
        assert_int_equal(o.unit, u);
        assert_int_equal(o.has_move, 0);
        if (!strstr(o.sentence, "W, but it stays where it is (the Farmhouse is closed to riders)"))
            fail_msg("%s", o.sentence);
        assert_int_equal(o.has_limit, 1);
        assert_null(strstr(o.sentence, "into Farmhouse"));
        /* and the engine indeed keeps it there */
        opfor_vk_rs_state_t *copy = malloc(sizeof *copy);
        assert_non_null(copy);
        memcpy(copy, f.st, sizeof *copy);
        opfor_pt_t before = vkfix_centre(&f, u);
        assert_int_equal(opfor_game_apply(&f.game, copy, &a), 0);
        opfor_vk_ugeo_t g;
        opfor_vk_query_geo(&copy->vk, u, &g);
        assert_true(opfor_dist(before, g.c) < 0.25f);
        free(copy);
        found = 1;
        /* eastward the way is open: a move with its end point */
        a.x = 70.0f;
        assert_int_equal(opfor_vk_ai_order(f.ctx, f.st, &a, &o), 0);
        assert_int_equal(o.has_move, 1);
        assert_null(strstr(o.sentence, "bars the way"));
        break;
    }
    assert_true(found);
    vkfix_close(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(move_stop_riders_and_foot),
        cmocka_unit_test(move_stop_barred_order_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
