/* tests/rulesets/test_table_bot.c — the behaviour-table bot's rows (opfor/viktoria/table_bot.h)
 * from small positions: a Wavering unit rallies only when it likely succeeds (XI: a failed
 * rally removes it) and otherwise takes cover, and on an objective holds it without trying;
 * the ground that scores (XIV) — a unit on an objective stays on it, the nearest free unit
 * goes for an objective its side does not hold once it is time, riders are never sent into a
 * building; charges need odds; the general rides for ground in the last turns; the machinegun
 * aims where its arc catches the most enemies and not through its own men (IX).
 */
#include "rulesets/vk_fixture.h"

#include "opfor/viktoria/engine_query.h"
#include "opfor/viktoria/table_bot.h"

/* Blue's infantry at b, Red's at r on a 48 x 48 table, generals far behind. */
static opfor_scenario_t *duel(opfor_pt_t b, opfor_pt_t r, int nb, int nr) {
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_foot(sc, "Blue", 0, OPFOR_Q_SOLDIER, nb, b, OPFOR_W_RIFLE);
    fx_foot(sc, "Red", 1, OPFOR_Q_SOLDIER, nr, r, OPFOR_W_RIFLE);
    fx_generals(sc, opfor_pt(4, 2), opfor_pt(44, 46));
    return sc;
}

/* The kind the bot picks for st's acting unit. */
static int pick(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_action_t *chosen) {
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS);
    assert_true(n > 0);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 3, 1);
    int i = opfor_table_bot_choose(ctx, st, a, n, NULL, &rng);
    assert_true(i >= 0 && i < n);
    if (chosen)
        *chosen = a[i];
    return a[i].kind;
}

/* XI: a failed rally takes the unit off the table; the card rallies only at even odds or
 * better, else keeps the unit in play (takes cover, stands). */
static void table_rallies_only_when_likely(void **state) {
    (void)state;
    opfor_scenario_t *sc = duel(opfor_pt(24, 10), opfor_pt(24, 40), 8, 8);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    fx_start(ctx, st, 5, 0);
    st->units[0].status = OPFOR_WAVERING;
    double p = 0.0;
    assert_int_equal(opfor_vk_query_rally_chance(ctx, st, 0, &p), 0);
    assert_true(p >= 0.5); /* a full unit: rallies */
    assert_int_equal(pick(ctx, st, NULL), OPFOR_VK_RALLY);
    /* below half strength (XI): the chance drops under one half, and the unit does not try */
    for (int i = 1; i < 6; i++)
        st->figures[st->units[0].first + i].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    assert_int_equal(opfor_vk_query_rally_chance(ctx, st, 0, &p), 0);
    assert_true(p < 0.5);
    int k = pick(ctx, st, NULL);
    assert_true(k != OPFOR_VK_RALLY);
    /* out of command (VII: only taking cover moves it): it takes cover rather than rally */
    st->restricted = 1;
    assert_int_equal(pick(ctx, st, NULL), OPFOR_VK_CRAWL);
    free(st);
    fx_done(ctx, sc);
}

/* XIV scores a Wavering unit in play like any other, XI removes one whose rally fails: on an
 * objective the card neither rallies (even at good odds) nor falls back; it takes cover where
 * it stands, or stands. */
static void table_wavering_unit_keeps_its_ground(void **state) {
    (void)state;
    opfor_scenario_t *sc = duel(opfor_pt(24, 10), opfor_pt(24, 40), 8, 8);
    sc->nobjectives = 1;
    snprintf(sc->objectives[0].name, sizeof sc->objectives[0].name, "Mill");
    sc->objectives[0].pos = opfor_pt(24, 11);
    sc->objectives[0].radius = 4;
    sc->objectives[0].points = 3;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    fx_start(ctx, st, 5, 0);
    st->units[0].status = OPFOR_WAVERING;
    double p = 0.0;
    assert_int_equal(opfor_vk_query_rally_chance(ctx, st, 0, &p), 0);
    assert_true(p >= 0.5); /* off the objective this unit would rally (test above) */
    opfor_pt_t c;
    assert_true(opfor_unit_centre(&st->units[0], st->figures, &c) > 0);
    opfor_vk_action_t a;
    int k = pick(ctx, st, &a);
    assert_true(k == OPFOR_VK_STAND || (k == OPFOR_VK_CRAWL && opfor_dist(a.dest, c) < 0.5f));
    /* below half strength it would fall back; on the objective it stays */
    for (int i = 1; i < 6; i++)
        st->figures[st->units[0].first + i].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    assert_true(opfor_unit_centre(&st->units[0], st->figures, &c) > 0);
    k = pick(ctx, st, &a);
    assert_true(k == OPFOR_VK_STAND || (k == OPFOR_VK_CRAWL && opfor_dist(a.dest, c) < 0.5f));
    free(st);
    fx_done(ctx, sc);
}

/* XIV: a unit standing on an objective does not walk off it; the nearest free unit of a side
 * that does not hold an objective goes for it (before firing) once the turns left barely
 * cover the way; earlier it fires. */
static void table_plays_for_the_objectives(void **state) {
    (void)state;
    opfor_scenario_t *sc = duel(opfor_pt(24, 14), opfor_pt(10, 40), 6, 6);
    sc->nobjectives = 1;
    snprintf(sc->objectives[0].name, sizeof sc->objectives[0].name, "Mill");
    sc->objectives[0].pos = opfor_pt(24, 26);
    sc->objectives[0].radius = 4;
    sc->objectives[0].points = 3;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    fx_start(ctx, st, 7, 0);
    int on = -1, late = -1;
    assert_int_equal(opfor_table_bot_objective(ctx, st, 0, &on, &late), 0);
    assert_int_equal(on, 0);
    assert_int_equal(late, 0); /* turn 1 of 12, 12 in away: not yet */
    assert_int_equal(pick(ctx, st, NULL), OPFOR_VK_FIRE);
    st->turn = opfor_vk_ctx_turn_limit(ctx) - 1; /* two turns left: time to go */
    assert_int_equal(opfor_table_bot_objective(ctx, st, 0, &on, &late), 0);
    assert_int_equal(late, 1);
    opfor_vk_action_t a;
    int k = pick(ctx, st, &a);
    assert_true(k == OPFOR_VK_ADVANCE || k == OPFOR_VK_RUN);
    assert_true(opfor_dist(a.dest, sc->objectives[0].pos) < 12.0f);
    /* standing on it: it stays (fires, or stands) */
    opfor_vec_t step = opfor_pt(0, 12);
    for (int i = 0; i < st->units[0].count; i++) {
        opfor_figure_t *f = &st->figures[st->units[0].first + i];
        f->pos = opfor_vadd(f->pos, step);
    }
    assert_int_equal(opfor_table_bot_objective(ctx, st, 0, &on, &late), 0);
    assert_int_equal(on, 1);
    k = pick(ctx, st, &a);
    assert_true(k == OPFOR_VK_FIRE || k == OPFOR_VK_STAND ||
                ((k == OPFOR_VK_ADVANCE || k == OPFOR_VK_RUN) &&
                 opfor_dist(a.dest, sc->objectives[0].pos) <= sc->objectives[0].radius));
    free(st);
    fx_done(ctx, sc);
}

/* VIII: a building is closed to riders, so cavalry is never sent to an objective inside one;
 * X: cavalry charges a larger, steady unit only with the odds (here: no). */
static void table_cavalry_knows_its_ground_and_odds(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int cav = fx_unit(sc, "Hussars", 0, OPFOR_UT_CAVALRY, OPFOR_Q_SOLDIER, 4, opfor_pt(24, 12),
                      opfor_pt(0, 1), 0, OPFOR_W_SWORD | OPFOR_W_CARBINE, OPFOR_FIG_MOUNTED);
    fx_foot(sc, "Red", 1, OPFOR_Q_SOLDIER, 12, opfor_pt(24, 26), OPFOR_W_RIFLE | OPFOR_W_BAYONET);
    fx_generals(sc, opfor_pt(4, 2), opfor_pt(44, 46));
    fx_rect(sc, OPFOR_TK_BUILDING, 6, 20, 12, 26);
    sc->nobjectives = 1;
    snprintf(sc->objectives[0].name, sizeof sc->objectives[0].name, "Chapel");
    sc->objectives[0].pos = opfor_pt(9, 23);
    sc->objectives[0].radius = 3;
    sc->objectives[0].points = 3;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    fx_start(ctx, st, 11, cav);
    st->turn = opfor_vk_ctx_turn_limit(ctx) - 1;
    int on, late;
    assert_int_equal(opfor_table_bot_objective(ctx, st, cav, &on, &late), -1);
    opfor_vk_action_t a;
    int k = pick(ctx, st, &a);
    assert_true(k != OPFOR_VK_CHARGE); /* 4 riders at 12 steady foot: no */
    assert_true(!(k == OPFOR_VK_ADVANCE || k == OPFOR_VK_RUN) ||
                opfor_dist(a.dest, sc->objectives[0].pos) > 6.0f);
    /* a Wavering target: charge */
    st->units[1].status = OPFOR_WAVERING;
    if (opfor_vk_query_can_charge(ctx, st, cav, 1))
        assert_int_equal(pick(ctx, st, NULL), OPFOR_VK_CHARGE);
    free(st);
    fx_done(ctx, sc);
}

/* XIV: every figure in play holds ground, a general's too. In the last turns the general goes
 * for an objective his side does not hold; earlier (no enemy near) he stands. */
static void table_general_rides_for_ground_at_the_end(void **state) {
    (void)state;
    opfor_scenario_t *sc = duel(opfor_pt(24, 10), opfor_pt(24, 40), 6, 6);
    sc->nobjectives = 1;
    snprintf(sc->objectives[0].name, sizeof sc->objectives[0].name, "Knoll");
    sc->objectives[0].pos = opfor_pt(8, 14);
    sc->objectives[0].radius = 3;
    sc->objectives[0].points = 2;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    int gen = 2; /* fx_generals: Blue's general follows the two units */
    assert_true(st != NULL && (sc->units[gen].flags & OPFOR_UNIT_GENERAL) &&
                sc->units[gen].side == 0);
    fx_start(ctx, st, 9, gen);
    assert_int_equal(pick(ctx, st, NULL), OPFOR_VK_STAND);
    st->turn = opfor_vk_ctx_turn_limit(ctx) - 1;
    opfor_vk_action_t a;
    int k = pick(ctx, st, &a);
    assert_true(k == OPFOR_VK_ADVANCE || k == OPFOR_VK_RUN);
    opfor_pt_t c;
    assert_true(opfor_unit_centre(&st->units[gen], st->figures, &c) > 0);
    assert_true(opfor_dist(a.dest, sc->objectives[0].pos) <
                opfor_dist(c, sc->objectives[0].pos) - 2.0f);
    free(st);
    fx_done(ctx, sc);
}

/* Blue's machinegun (equipment and three crew) at (24, 6) facing up the table; Red's two scouts
 * at (22, 22); with `column`, Red's twelve men at (42, 34); with `line`, Blue's eight riflemen
 * at (22, 14), between the gun and the scouts. Returns the scenario; *mg gets the gun. */
static opfor_scenario_t *mg_field(int column, int line, int *mg) {
    opfor_scenario_t *sc = fx_new(48, 48);
    *mg = fx_unit(sc, "Maxim", 0, OPFOR_UT_MACHINEGUN, OPFOR_Q_SOLDIER, 4, opfor_pt(24, 6),
                  opfor_pt(0, 1), 0, OPFOR_W_PISTOL, 0);
    opfor_figure_t *g = fx_fig(sc, *mg, 0);
    g->flags |= OPFOR_FIG_EQUIPMENT;
    g->weapons = OPFOR_W_MG;
    g->skills = 0;
    for (int k = 1; k < 4; k++)
        fx_fig(sc, *mg, k)->skills |= OPFOR_S_CREW;
    fx_foot(sc, "Scouts", 1, OPFOR_Q_SOLDIER, 2, opfor_pt(22, 22), OPFOR_W_RIFLE);
    if (column)
        fx_foot(sc, "Column", 1, OPFOR_Q_SOLDIER, 12, opfor_pt(42, 34), OPFOR_W_RIFLE);
    if (line)
        fx_foot(sc, "Line", 0, OPFOR_Q_SOLDIER, 8, opfor_pt(22, 14), OPFOR_W_RIFLE);
    fx_generals(sc, opfor_pt(4, 2), opfor_pt(44, 46));
    return sc;
}

/* IX: a machinegun's burst tests every figure in its arc, friend or foe, at any range. The card
 * aims it where it catches the most enemy figures (not at the nearest unit), and never where
 * it would catch more than one of its own men for every two enemies. */
static void table_machinegun_aims_at_the_most_men_and_spares_its_own(void **state) {
    (void)state;
    int mg;
    opfor_scenario_t *sc = mg_field(1, 0, &mg);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    fx_start(ctx, st, 13, mg);
    st->units[mg].flags |= OPFOR_UNIT_LOADED;
    opfor_vk_action_t a;
    assert_int_equal(pick(ctx, st, &a), OPFOR_VK_FIRE_MG);
    /* the column, not the two scouts nearer */
    assert_true(opfor_vk_query_mg_tests_side(ctx, st, mg, a.arc, a.dest, 1) >= 12);
    assert_int_equal(opfor_vk_query_mg_tests_side(ctx, st, mg, a.arc, a.dest, 0), 0);
    fx_done(ctx, sc);
    /* Blue's own line stands between the gun and the scouts: the card does not fire through it
       (the old card fired at the nearest enemy whoever stood in the way) */
    sc = mg_field(0, 1, &mg);
    ctx = fx_ctx(sc, NULL);
    fx_start(ctx, st, 13, mg);
    st->units[mg].flags |= OPFOR_UNIT_LOADED;
    opfor_pt_t scouts = st->figures[st->units[1].first].pos;
    assert_true(opfor_vk_query_mg_tests_side(ctx, st, mg, OPFOR_ARC_45, scouts, 0) > 0);
    int k = pick(ctx, st, &a);
    if (k == OPFOR_VK_FIRE_MG) {
        int own = opfor_vk_query_mg_tests_side(ctx, st, mg, a.arc, a.dest, 0);
        int foe = opfor_vk_query_mg_tests_side(ctx, st, mg, a.arc, a.dest, 1);
        assert_true(own == 0 || foe >= 2 * own);
    }
    free(st);
    fx_done(ctx, sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_rallies_only_when_likely),
        cmocka_unit_test(table_plays_for_the_objectives),
        cmocka_unit_test(table_wavering_unit_keeps_its_ground),
        cmocka_unit_test(table_cavalry_knows_its_ground_and_odds),
        cmocka_unit_test(table_general_rides_for_ground_at_the_end),
        cmocka_unit_test(table_machinegun_aims_at_the_most_men_and_spares_its_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
