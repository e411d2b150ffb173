/* tests/rulesets/test_engine_command.c — command and control (Viktoria! VII, V.A): the
 * 18 in radius (12 and 6 in high winds and gales), the out-of-command test and what a unit
 * that fails it may still do, musicians relaying command, self-commanding units, NCO
 * promotion, and units splitting and merging; generals and headquarters that arrive during
 * the game (XV.B) give command from the moment they are on the table.
 *
 * Pass rates are compared with the calculator's test_out_of_command over fixed seeds (4-sigma).
 */
#include "rulesets/vk_fixture.h"

#include "rulesets/vk_calc_fixture.h"

#include "engine_int.h"

/* A general at (10, 4) and one unit at distance `far` up the table from him. */
static opfor_scenario_t *general_and_unit(float far) {
    opfor_scenario_t *sc = fx_new(48, 96);
    fx_general(sc, 0, opfor_pt(10, 4));
    fx_foot(sc, "Away", 0, OPFOR_Q_SOLDIER, 3, opfor_pt(10, 4 + far), OPFOR_W_RIFLE);
    fx_foot(sc, "Enemy", 1, OPFOR_Q_SOLDIER, 3, opfor_pt(40, 90), OPFOR_W_RIFLE);
    return sc;
}

static int phase_after_select(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u) {
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    opfor_vk_apply(ctx, st, &roll, NULL);
    st->phase = OPFOR_VK_PH_SELECT_UNIT;
    st->side = st->units[u].side;
    opfor_vk_action_t sel = fx_act(OPFOR_VK_SELECT_UNIT, u);
    assert_int_equal(opfor_vk_apply(ctx, st, &sel, NULL), 0);
    return st->phase;
}

/* The phase unit 1 reaches when selected in a fresh game (seed 1) on sc. */
static int fresh_phase(const opfor_scenario_t *sc) {
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    int phase = phase_after_select(ctx, &st, 1);
    opfor_vk_ctx_free(ctx);
    return phase;
}

static void command_within_radius_needs_no_test(void **state) {
    (void)state;
    opfor_scenario_t *sc = general_and_unit(14);
    assert_int_equal(fresh_phase(sc), OPFOR_VK_PH_ACTION);
    free(sc);
    sc = general_and_unit(26);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    assert_int_equal(phase_after_select(ctx, &st, 1), OPFOR_VK_PH_COMMAND);
    assert_int_equal(opfor_vk_current(ctx, &st), OPFOR_VK_CHANCE);
    fx_done(ctx, sc);
}

static void command_pass_rate_is_the_calculators(void **state) {
    (void)state;
    opfor_scenario_t *sc = general_and_unit(30);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st0;
    opfor_vk_state_init(ctx, &st0, 1);
    float d = vk_command_distance(ctx, &st0, 1);
    /* the same request through the calculator */
    opfor_viktoria_req_t req =
        fx_req_at(OPFOR_VK_A_TEST_OUT_OF_COMMAND, OPFOR_Q_SOLDIER, (int)(d + 0.5f));
    req.v[OPFOR_VK_F_WEATHER] = 2;
    double p = fx_calc_roll(&req, "pass");
    assert_true(p > 0.05 && p < 0.95);
    int pass = 0;
    const int n = 3000;
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        assert_int_equal(phase_after_select(ctx, &st, 1), OPFOR_VK_PH_COMMAND);
        assert_int_equal(opfor_vk_apply(ctx, &st, &roll, NULL), 0);
        assert_int_equal(st.phase, OPFOR_VK_PH_ACTION);
        pass += !st.restricted;
    }
    fx_assert_rate(pass, n, p, 4.0);
    fx_done(ctx, sc);
}

static void command_failure_limits_the_actions(void **state) {
    (void)state;
    opfor_scenario_t *sc = general_and_unit(30);
    fx_fig(sc, 1, 1)->skills |= OPFOR_S_MEDIC;
    fx_fig(sc, 1, 2)->flags |= OPFOR_FIG_WOUNDED;
    /* an enemy in rifle range so that fire is possible */
    sc->figures[sc->units[2].first].pos = opfor_pt(10, 60);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, 1);
    assert_true(fx_offered(ctx, &st, OPFOR_VK_ADVANCE, OPFOR_VK_NONE, NULL) >= 0);
    st.restricted = 1;
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS);
    int fire = 0, fire_targets = 0, heal = 0, crawl = 0, crawl_fire = 0, stand = 0;
    opfor_vk_ugeo_t g;
    opfor_vk_query_geo(&st, 1, &g);
    for (int i = 0; i < n; i++) {
        switch (a[i].kind) {
        case OPFOR_VK_FIRE:
            fire++;
            fire_targets += a[i].flags == 0; /* once per target unit, without an aim */
            break;
        case OPFOR_VK_HEAL:
            heal++;
            break;
        case OPFOR_VK_CRAWL: /* taking cover where it stands: no movement */
            assert_true(opfor_dist(a[i].dest, g.c) < 1e-3f);
            /* VI, VII: taking cover and firing are both allowed, and a crawl may fire as
               moving fire */
            if (a[i].flags & OPFOR_VK_AF_FIRE)
                crawl_fire++;
            else
                crawl++;
            break;
        case OPFOR_VK_STAND:
        case OPFOR_VK_LOAD:
            stand++;
            break;
        default:
            fail_msg("an out-of-command unit was offered %s", opfor_vk_kind_name(a[i].kind));
        }
    }
    assert_true(fire > 0 && heal == 1 && crawl == 1 && stand == 1);
    /* one per target, two at most */
    assert_int_equal(crawl_fire, fire_targets < 2 ? fire_targets : 2);
    opfor_vk_action_t adv = fx_act(OPFOR_VK_ADVANCE, 1);
    adv.dest = opfor_pt(10, 60);
    assert_int_equal(opfor_vk_apply(ctx, &st, &adv, NULL), OPFOR_EILLEGAL);
    fx_done(ctx, sc);
}

static void command_radius_shrinks_in_high_winds(void **state) {
    (void)state;
    static const struct {
        int level;
        float far;
        int tests;
    } cases[] = {{2, 16, 0}, {4, 16, 1}, {4, 10, 0}, {5, 10, 1}, {5, 4, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        opfor_scenario_t *sc = general_and_unit(cases[k].far);
        sc->weather.level = cases[k].level;
        assert_int_equal(fresh_phase(sc),
                         cases[k].tests ? OPFOR_VK_PH_COMMAND : OPFOR_VK_PH_ACTION);
        free(sc);
    }
}

static void command_relayed_by_a_playing_musician(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 96);
    fx_general(sc, 0, opfor_pt(10, 4));
    int band = fx_foot(sc, "Band", 0, OPFOR_Q_SOLDIER, 2, opfor_pt(10, 18), OPFOR_W_RIFLE);
    fx_fig(sc, band, 1)->skills |= OPFOR_S_MUSICIAN;
    int far = fx_foot(sc, "Far", 0, OPFOR_Q_SOLDIER, 3, opfor_pt(10, 38), OPFOR_W_RIFLE);
    fx_foot(sc, "Enemy", 1, OPFOR_Q_SOLDIER, 3, opfor_pt(40, 90), OPFOR_W_RIFLE);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    opfor_vk_state_init(ctx, &st, 1);
    assert_true(vk_needs_command_test(ctx, &st, far));
    fx_activate(ctx, &st, band);
    opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, band); /* the musician plays */
    assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);
    assert_true(st.figx[st.units[band].first + 1] & OPFOR_VK_FX_PLAYING);
    assert_false(vk_needs_command_test(ctx, &st, far)); /* within 24 in of the musician */
    /* a new turn: the relay is over */
    opfor_vk_state_t st2 = st;
    st2.phase = OPFOR_VK_PH_START_TURN;
    opfor_vk_action_t roll = fx_act(OPFOR_VK_ROLL, OPFOR_VK_NONE);
    assert_int_equal(opfor_vk_apply(ctx, &st2, &roll, NULL), 0);
    assert_true(vk_needs_command_test(ctx, &st2, far));
    fx_done(ctx, sc);
}

/* Appends a one-figure unit to a running game, as a game mode does (Patrol Mode's generals
 * and headquarters, XV.B), at p for side. Returns the unit index. */
static int add_to_state(opfor_vk_state_t *st, int side, int type, unsigned uflags, unsigned skills,
                        opfor_pt_t p) {
    int u = st->nunits++, f = st->nfigures++;
    opfor_unit_t *un = &st->units[u];
    memset(un, 0, sizeof *un);
    snprintf(un->name, sizeof un->name, "Arrival %d", u);
    un->first = (uint16_t)f;
    un->count = un->strength = 1;
    un->side = (uint8_t)side;
    un->type = (uint8_t)type;
    un->quality = OPFOR_Q_ELITE;
    un->flags = (uint16_t)uflags;
    un->facing = opfor_pt(0, 1);
    opfor_figure_t *g = &st->figures[f];
    memset(g, 0, sizeof *g);
    g->pos = p;
    g->unit = (uint8_t)u;
    g->quality = OPFOR_Q_ELITE;
    g->weapons = OPFOR_W_PISTOL;
    g->skills = (uint16_t)(OPFOR_S_LEADER | skills);
    g->flags = OPFOR_FIG_ALIVE;
    memset(&st->ux[u], 0, sizeof st->ux[u]);
    st->figx[f] = 0;
    return u;
}

static void command_generals_arriving_mid_game_give_command(void **state) {
    (void)state;
    opfor_scenario_t *sc = general_and_unit(40); /* the scenario's general is far away */
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st0, st;
    opfor_vk_state_init(ctx, &st0, 1);
    st = st0;
    assert_true(vk_needs_command_test(ctx, &st, 1));
    assert_int_equal(phase_after_select(ctx, &st, 1), OPFOR_VK_PH_COMMAND);
    /* a general unit arrives 8 in from the unit: it no longer tests */
    st = st0;
    int g = add_to_state(&st, 0, OPFOR_UT_INFANTRY, OPFOR_UNIT_GENERAL, OPFOR_S_GENERAL,
                         opfor_pt(18, 44));
    assert_true(vk_command_distance(ctx, &st, 1) < 9.0f);
    assert_false(vk_needs_command_test(ctx, &st, 1));
    opfor_vk_state_t with_general = st;
    assert_int_equal(phase_after_select(ctx, &st, 1), OPFOR_VK_PH_ACTION);
    /* the general figure alone (its unit not flagged) commands as well */
    st = st0;
    add_to_state(&st, 0, OPFOR_UT_CAVALRY, 0, OPFOR_S_GENERAL, opfor_pt(18, 44));
    assert_int_equal(phase_after_select(ctx, &st, 1), OPFOR_VK_PH_ACTION);
    /* once the new general falls, or leaves play, the unit tests again */
    st = with_general;
    st.figures[st.units[g].first].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    assert_int_equal(phase_after_select(ctx, &st, 1), OPFOR_VK_PH_COMMAND);
    st = with_general;
    st.ux[g].removed = 1;
    st.units[g].flags |= OPFOR_UNIT_OFF_TABLE;
    assert_true(vk_needs_command_test(ctx, &st, 1));
    /* an enemy general gives no command */
    st = st0;
    add_to_state(&st, 1, OPFOR_UT_INFANTRY, OPFOR_UNIT_GENERAL, OPFOR_S_GENERAL, opfor_pt(18, 44));
    assert_true(vk_needs_command_test(ctx, &st, 1));
    /* a headquarters unit may give command (XV.B) */
    st = st0;
    add_to_state(&st, 0, OPFOR_UT_HEADQUARTERS, 0, 0, opfor_pt(18, 44));
    assert_int_equal(phase_after_select(ctx, &st, 1), OPFOR_VK_PH_ACTION);
    /* ... but not beyond the radius */
    st = st0;
    add_to_state(&st, 0, OPFOR_UT_HEADQUARTERS, 0, 0, opfor_pt(40, 80));
    assert_true(vk_needs_command_test(ctx, &st, 1));
    /* the test's event gives the distance, or says that no general is on the table */
    char buf[512];
    opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
    buf[0] = '\0';
    st = st0;
    vk_command_test(ctx, &st, 1, &ev);
    assert_non_null(strstr(buf, " in from its general: command test "));
    st = st0;
    for (int i = st.units[0].first; i < st.units[0].first + st.units[0].count; i++)
        st.figures[i].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    ev.len = 0;
    buf[0] = '\0';
    vk_command_test(ctx, &st, 1, &ev);
    assert_non_null(strstr(buf, " has no general on the table: command test "));
    assert_null(strstr(buf, "999"));
    fx_done(ctx, sc);
}

static void command_self_commanding_units_never_test(void **state) {
    (void)state;
    opfor_scenario_t *sc = general_and_unit(40);
    sc->units[1].flags |= OPFOR_UNIT_SELF_COMMANDING;
    assert_int_equal(fresh_phase(sc), OPFOR_VK_PH_ACTION);
    free(sc);
}

static void command_nco_promoted_when_leaders_fall(void **state) {
    (void)state;
    opfor_scenario_t *sc = general_and_unit(10);
    fx_fig(sc, 1, 2)->quality = OPFOR_Q_VETERAN; /* the best man left */
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, 1);
    int lead = st.units[1].first;
    vk_harm(ctx, &st, lead, 2, 0, 1, NULL); /* the officer is killed */
    opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, 1);
    assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);
    int nco = lead + 2;
    assert_true(st.figures[nco].skills & OPFOR_S_LEADER);
    assert_true(st.figx[nco] & OPFOR_VK_FX_PROMOTED);
    assert_int_equal(opfor_unit_leader(&st.units[1], st.figures), nco);
    /* a promoted NCO does not let the unit split (VII) */
    assert_int_equal(vk_split_leaders(&st, 1), 0);
    fx_done(ctx, sc);
}

/* Whether the living figures of unit u are exactly those whose original positions are marked
 * in want (want[k] for figure k of the unit as the scenario placed it, orig its positions). */
static void assert_members(const opfor_vk_state_t *st, int u, const opfor_pt_t *orig,
                           const int *want, int n) {
    int count = 0;
    for (int i = st->units[u].first; i < st->units[u].first + st->units[u].count; i++) {
        int k = -1;
        for (int j = 0; j < n; j++)
            if (opfor_dist(orig[j], st->figures[i].pos) < 1e-4f)
                k = j;
        assert_true(k >= 0);
        assert_true(want[k]);
        count++;
    }
    int expect = 0;
    for (int j = 0; j < n; j++)
        expect += want[j] != 0;
    assert_int_equal(count, expect);
}

/* V.A: the owner says how a unit splits: here the 3 men nearest the third officer go off with
 * him (not a cut in the middle between the first two leaders); the rest split again (three
 * parts); a part without a leader, or a split that leaves nobody, is refused. */
static void command_split_where_the_owner_says(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_general(sc, 0, opfor_pt(24, 4));
    int co = fx_foot(sc, "Company", 0, OPFOR_Q_SOLDIER, 10, opfor_pt(20, 10), OPFOR_W_RIFLE);
    fx_fig(sc, co, 2)->skills |= OPFOR_S_LEADER;
    fx_fig(sc, co, 8)->skills |= OPFOR_S_LEADER;
    fx_foot(sc, "Enemy", 1, OPFOR_Q_SOLDIER, 3, opfor_pt(40, 44), OPFOR_W_RIFLE);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_pt_t orig[10];
    for (int k = 0; k < 10; k++)
        orig[k] = fx_fig(sc, co, k)->pos;
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, co);
    /* offered: a part led off by each of the other officers */
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS), led_off = 0;
    for (int i = 0; i < n; i++)
        led_off += a[i].kind == OPFOR_VK_SPLIT && a[i].figure != OPFOR_VK_NO_FIGURE;
    assert_true(led_off >= 2);
    /* the 3 nearest the third officer */
    int want[10] = {0};
    for (int c = 0; c < 3; c++) {
        int best = -1;
        for (int k = 0; k < 10; k++)
            if (!want[k] &&
                (best < 0 || opfor_dist2(orig[k], orig[8]) < opfor_dist2(orig[best], orig[8])))
                best = k;
        want[best] = 1;
    }
    assert_true(want[8]);
    opfor_vk_action_t split = fx_act(OPFOR_VK_SPLIT, co);
    split.figure = 3;
    split.dest = orig[8];
    int nunits = st.nunits;
    assert_int_equal(opfor_vk_apply(ctx, &st, &split, NULL), 0);
    int off = nunits;
    assert_int_equal(st.nunits, nunits + 1);
    assert_members(&st, off, orig, want, 10);
    int stay[10];
    for (int k = 0; k < 10; k++)
        stay[k] = !want[k];
    assert_members(&st, co, orig, stay, 10);
    assert_int_equal(st.units[off].strength, 3);
    assert_int_equal(st.units[co].strength, 7);
    assert_true(opfor_unit_leader(&st.units[off], st.figures) >= 0);
    assert_int_equal(st.phase, OPFOR_VK_PH_ACTION); /* the rest act on */
    assert_int_equal(st.cur, co);
    /* refused: one man with no leader, everybody, a figure count of none */
    opfor_vk_action_t bad = fx_act(OPFOR_VK_SPLIT, co);
    bad.figure = 1;
    bad.dest = orig[5];
    assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
    bad.figure = 7;
    bad.dest = orig[2];
    assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
    bad.figure = 0;
    assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
    /* a third part: the second officer and the man nearest him */
    split.figure = 2;
    split.dest = orig[2];
    assert_int_equal(opfor_vk_apply(ctx, &st, &split, NULL), 0);
    assert_int_equal(st.nunits, nunits + 2);
    for (int u = 0; u < st.nunits; u++) {
        if (!opfor_vk_unit_in_play(&st, u))
            continue;
        assert_true(opfor_unit_leader(&st.units[u], st.figures) >= 0);
        for (int i = st.units[u].first; i < st.units[u].first + st.units[u].count; i++)
            assert_int_equal(st.figures[i].unit, u);
    }
    assert_int_equal(st.units[co].count, 5);
    fx_done(ctx, sc);
}

static void command_units_split_and_merge(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    fx_general(sc, 0, opfor_pt(24, 4));
    int big = fx_foot(sc, "Big", 0, OPFOR_Q_SOLDIER, 8, opfor_pt(20, 10), OPFOR_W_RIFLE);
    fx_fig(sc, big, 5)->skills |= OPFOR_S_LEADER; /* a second officer */
    int small = fx_foot(sc, "Small", 0, OPFOR_Q_SOLDIER, 3, opfor_pt(34, 10), OPFOR_W_RIFLE);
    int other = fx_foot(sc, "Other", 0, OPFOR_Q_SOLDIER, 3, opfor_pt(40, 20), OPFOR_W_RIFLE);
    fx_foot(sc, "Enemy", 1, OPFOR_Q_SOLDIER, 3, opfor_pt(40, 44), OPFOR_W_RIFLE);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, big);
    assert_true(fx_offered(ctx, &st, OPFOR_VK_SPLIT, OPFOR_VK_NONE, NULL) >= 0);
    int nunits = st.nunits;
    opfor_vk_action_t split = fx_act(OPFOR_VK_SPLIT, big);
    assert_int_equal(opfor_vk_apply(ctx, &st, &split, NULL), 0);
    int part = nunits;
    assert_int_equal(st.nunits, nunits + 1);
    assert_int_equal(st.units[big].count + st.units[part].count, 8);
    assert_true(opfor_unit_leader(&st.units[big], st.figures) >= 0);
    assert_true(opfor_unit_leader(&st.units[part], st.figures) >= 0);
    /* strength is the size just after the split (XI) */
    assert_int_equal(st.units[big].strength, st.units[big].count);
    assert_int_equal(st.units[part].strength, st.units[part].count);
    /* the first part goes on acting; the other waits for its own initiative */
    assert_int_equal(st.phase, OPFOR_VK_PH_ACTION);
    assert_int_equal(st.cur, big);
    assert_false(st.units[part].flags & OPFOR_UNIT_ACTED);
    for (int i = st.units[part].first; i < st.units[part].first + st.units[part].count; i++)
        assert_int_equal(st.figures[i].unit, part);
    opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, big);
    assert_int_equal(opfor_vk_apply(ctx, &st, &stand, NULL), 0);

    /* merging: Small walks up to within 3 in of Other and joins it */
    st.phase = OPFOR_VK_PH_ACTION;
    st.cur = (uint8_t)small;
    for (int i = st.units[small].first; i < st.units[small].first + 3; i++)
        st.figures[i].pos.y += 8.0f;                                       /* now beside Other */
    st.figures[st.units[small].first].flags &= (uint16_t)~OPFOR_FIG_ALIVE; /* one lost */
    st.units[other].strength = 6; /* Other was once larger */
    opfor_vk_action_t merge;
    assert_true(fx_offered(ctx, &st, OPFOR_VK_MERGE, other, &merge) >= 0);
    assert_int_equal(opfor_vk_apply(ctx, &st, &merge, NULL), 0);
    assert_int_equal(st.units[other].count, 6);
    assert_int_equal(opfor_vk_unit_present(&st, other), 5);
    assert_int_equal(st.units[other].strength, 6); /* the larger of 5 and the old strengths */
    assert_false(opfor_vk_unit_in_play(&st, small));
    /* the block is contiguous and every unit still owns exactly its figures */
    for (int u = 0; u < st.nunits; u++)
        for (int i = st.units[u].first; i < st.units[u].first + st.units[u].count; i++)
            assert_int_equal(st.figures[i].unit, u);
    /* Other had not acted: the whole new unit acts now */
    assert_int_equal(st.cur, other);
    assert_int_equal(st.phase, OPFOR_VK_PH_ACTION);
    fx_done(ctx, sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(command_within_radius_needs_no_test),
        cmocka_unit_test(command_pass_rate_is_the_calculators),
        cmocka_unit_test(command_failure_limits_the_actions),
        cmocka_unit_test(command_radius_shrinks_in_high_winds),
        cmocka_unit_test(command_relayed_by_a_playing_musician),
        cmocka_unit_test(command_generals_arriving_mid_game_give_command),
        cmocka_unit_test(command_self_commanding_units_never_test),
        cmocka_unit_test(command_nco_promoted_when_leaders_fall),
        cmocka_unit_test(command_units_split_and_merge),
        cmocka_unit_test(command_split_where_the_owner_says),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
