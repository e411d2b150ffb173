/* tests/rulesets/test_engine_blast.c — area weapons (Viktoria! IX): MG arcs where every figure
 * inside tests, friend or foe (twice in a double arc), the lone gunner who reloads, wounded
 * crews limited to one 45-degree arc, hard terrain hiding figures; field guns needing two crew
 * and bursting in a 3 in blast; off-board support fire with registration and lost
 * communications; bombs thrown 6 in with a 2 in blast.
 *
 * Rates use fixed seeds and a 4-sigma band around the calculator's rendered chances.
 */
#include "rulesets/vk_fixture.h"

#include "rulesets/vk_calc_fixture.h"

#include "engine_int.h"

/* A crewed weapon of side 0 facing up the table: the equipment figure (weapon `gun`) at
 * (24, 6) and `crew` crew behind it, the first of them the leader. */
static int add_crewed(opfor_scenario_t *sc, const char *name, int type, unsigned gun, int crew) {
    int u = fx_unit(sc, name, 0, type, OPFOR_Q_SOLDIER, crew + 1, opfor_pt(24, 6), opfor_pt(0, 1),
                    0, OPFOR_W_PISTOL, 0);
    opfor_figure_t *g = fx_fig(sc, u, 0);
    g->flags |= OPFOR_FIG_EQUIPMENT;
    g->weapons = (uint16_t)gun;
    g->skills = 0;
    g->pos = opfor_pt(24, 6);
    for (int k = 1; k <= crew; k++) {
        fx_fig(sc, u, k)->skills |= OPFOR_S_CREW | (k == 1 ? OPFOR_S_LEADER : 0);
        fx_fig(sc, u, k)->pos = opfor_pt(22.0f + 1.5f * (float)k, 4);
    }
    return u;
}

/* An MG (equipment + crew) of side 0 at (24, 6) facing up the table. */
static int add_mg(opfor_scenario_t *sc, int crew) {
    return add_crewed(sc, "MG", OPFOR_UT_MACHINEGUN, OPFOR_W_MG, crew);
}

static double mg_harm_p(int cls, int cover, float range) {
    opfor_viktoria_req_t req = fx_req_at(OPFOR_VK_A_TEST_VS_MG, cls, range);
    req.v[OPFOR_VK_F_COVER] = cover;
    opfor_viktoria_result_t res;
    fx_calc(&req, &res);
    return fx_outcome_p(&res, "killed") + fx_outcome_p(&res, "wounded");
}

static void mg_every_figure_in_the_arc_tests(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int mg = add_mg(sc, 2);
    int foe = fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(24, 27.5f), OPFOR_W_RIFLE);
    int friend = fx_foot(sc, "Friend", 0, OPFOR_Q_SOLDIER, 1, opfor_pt(25, 16), OPFOR_W_RIFLE);
    int aside = fx_foot(sc, "Aside", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(4, 26), OPFOR_W_RIFLE);
    fx_generals(sc, opfor_pt(40, 2), opfor_pt(44, 46));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    double p = mg_harm_p(OPFOR_Q_SOLDIER, OPFOR_COVER_NONE, 20.0f);
    int hit_foe = 0, hit_friend = 0, hit_aside = 0, hit_foe2 = 0;
    const int n = 3000;
    for (int s = 0; s < n; s++) {
        for (int dbl = 0; dbl < 2; dbl++) {
            opfor_vk_state_t st;
            opfor_vk_action_t a = fx_act(OPFOR_VK_FIRE_MG, mg);
            a.arc = dbl ? OPFOR_ARC_DOUBLE_45 : OPFOR_ARC_45;
            a.dest = opfor_pt(24, 30);
            fx_play(ctx, &st, (uint64_t)s * 2 + (uint64_t)dbl, &a);
            int f = st.units[foe].first;
            int harmed =
                (st.figures[f].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED)) != OPFOR_FIG_ALIVE;
            if (dbl) {
                hit_foe2 += harmed;
                continue;
            }
            hit_foe += harmed;
            int g = st.units[friend].first;
            hit_friend +=
                (st.figures[g].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED)) != OPFOR_FIG_ALIVE;
            int h = st.units[aside].first;
            hit_aside += st.figures[h].flags != (OPFOR_FIG_ALIVE);
        }
    }
    fx_assert_rate(hit_foe, n, p, 4.0);
    assert_true(hit_friend > 0);                          /* friend or foe (IX) */
    assert_int_equal(hit_aside, 0);                       /* outside the arc */
    assert_true(hit_foe2 > hit_foe + (int)(0.3 * p * n)); /* a double arc tests twice */
    fx_done(ctx, sc);
}

/* The tests an MG order says the targets take (vk_mg_count, read without rolling) are the tests
 * the engine makes whenever no figure falls: seeded aims and arcs over a foe, a friend and, every
 * other case, a building that hides some of them. */
static void mg_count_is_the_engines_tests(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 2026, 16);
    int checked = 0, some = 0, none = 0, twice = 0;
    for (int k = 0; k < 240; k++) {
        opfor_scenario_t *sc = fx_new(48, 48);
        int mg = add_mg(sc, 2);
        float fx = 4.0f + 40.0f * (float)opfor_rng_unit(&r),
              fy = 14.0f + 30.0f * (float)opfor_rng_unit(&r);
        fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 1 + (int)opfor_rng_below(&r, 8), opfor_pt(fx, fy),
                OPFOR_W_RIFLE);
        fx_foot(sc, "Friend", 0, OPFOR_Q_SOLDIER, 1 + (int)opfor_rng_below(&r, 4),
                opfor_pt(8.0f + 32.0f * (float)opfor_rng_unit(&r), 12.0f), OPFOR_W_RIFLE);
        if (k % 2)
            fx_rect(sc, OPFOR_TK_BUILDING, 0.5f * (24.0f + fx) - 2.0f, 0.5f * (6.0f + fy),
                    0.5f * (24.0f + fx) + 2.0f, 0.5f * (6.0f + fy) + 3.0f);
        fx_generals(sc, opfor_pt(40, 2), opfor_pt(44, 46));
        opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
        opfor_vk_state_t *st = malloc(sizeof *st);
        assert_non_null(st);
        fx_start(ctx, st, (uint64_t)k + 1, mg);
        int arc = k % OPFOR_ARC_COUNT;
        opfor_pt_t aim = opfor_pt(fx + 6.0f * (float)opfor_rng_unit(&r) - 3.0f, fy);
        int n = vk_mg_count(ctx, st, mg, arc, aim);
        char buf[512] = "";
        opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
        vk_fire_mg(ctx, st, mg, arc, aim, &ev);
        const char *a = strstr(buf, " arc: "), *kl = strstr(buf, " killed");
        assert_non_null(a);
        assert_non_null(kl);
        int tests = atoi(a + 6), killed = -1;
        const char *p = kl;
        while (p > buf && p[-1] != ' ')
            p--;
        killed = atoi(p);
        if (killed == 0) {
            if (tests != n)
                fail_msg("case %d: counted %d, the engine made %d (%s)", k, n, tests, buf);
            checked++;
            some += n > 0;
            none += n == 0;
            twice += arc == OPFOR_ARC_DOUBLE_45 && n > 0;
        }
        free(st);
        fx_done(ctx, sc);
    }
    assert_true(checked > 80 && some > 30 && none > 5 && twice > 3);
}

static int mg_listed(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u, int arc) {
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (a[i].kind == OPFOR_VK_FIRE_MG && a[i].unit == u && (arc < 0 || a[i].arc == arc))
            return 1;
    return 0;
}

static void mg_lone_gunner_reloads_and_wounded_crews_narrow(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int mg = add_mg(sc, 1);
    fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 3, opfor_pt(24, 30), OPFOR_W_RIFLE);
    fx_general(sc, 0, opfor_pt(40, 2));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, mg);
    assert_true(mg_listed(ctx, &st, mg, OPFOR_ARC_90));
    opfor_vk_action_t a = fx_act(OPFOR_VK_FIRE_MG, mg);
    a.arc = OPFOR_ARC_45;
    a.dest = opfor_pt(24, 30);
    opfor_vk_state_t keep = st;
    assert_int_equal(opfor_vk_apply(ctx, &st, &a, NULL), 0);
    assert_true(st.units[mg].flags & OPFOR_UNIT_LOADED); /* a single 45: no reload */
    st = keep;
    a.arc = OPFOR_ARC_90;
    assert_int_equal(opfor_vk_apply(ctx, &st, &a, NULL), 0);
    assert_false(st.units[mg].flags & OPFOR_UNIT_LOADED);
    fx_again(&st, mg);
    assert_false(mg_listed(ctx, &st, mg, -1));
    opfor_vk_action_t load = fx_act(OPFOR_VK_LOAD, mg);
    assert_int_equal(opfor_vk_apply(ctx, &st, &load, NULL), 0);
    assert_true(st.units[mg].flags & OPFOR_UNIT_LOADED);
    /* the only gunner wounded: one 45-degree arc, nothing wider or doubled */
    fx_again(&st, mg);
    st.figures[st.units[mg].first + 1].flags |= OPFOR_FIG_WOUNDED;
    assert_true(mg_listed(ctx, &st, mg, OPFOR_ARC_45));
    assert_false(mg_listed(ctx, &st, mg, OPFOR_ARC_90));
    assert_false(mg_listed(ctx, &st, mg, OPFOR_ARC_DOUBLE_45));
    fx_done(ctx, sc);
}

static void mg_hard_terrain_hides_foliage_does_not(void **state) {
    (void)state;
    for (int kind = 0; kind < 2; kind++) {
        opfor_scenario_t *sc = fx_new(48, 48);
        int mg = add_mg(sc, 2);
        int foe = fx_foot(sc, "Foe", 1, OPFOR_Q_CIVILIAN, 1, opfor_pt(24, 30), OPFOR_W_RIFLE);
        fx_rect(sc, kind ? OPFOR_TK_WOODS : OPFOR_TK_BUILDING, 20, 24, 28, 28.5f);
        fx_generals(sc, opfor_pt(40, 2), opfor_pt(44, 46));
        opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
        int harmed = 0;
        opfor_vk_action_t a = fx_act(OPFOR_VK_FIRE_MG, mg);
        a.arc = OPFOR_ARC_45;
        a.dest = opfor_pt(24, 30);
        for (int s = 0; s < 300; s++) {
            opfor_vk_state_t st;
            fx_play(ctx, &st, (uint64_t)s, &a);
            harmed += st.figures[st.units[foe].first].flags != OPFOR_FIG_ALIVE;
        }
        if (kind)
            assert_true(harmed > 0);
        else
            assert_int_equal(harmed, 0);
        fx_done(ctx, sc);
    }
}

/* A field gun with `crew` crew at (24, 6). */
static int add_gun(opfor_scenario_t *sc, int crew) {
    return add_crewed(sc, "Gun", OPFOR_UT_ARTILLERY, OPFOR_W_FIELD_GUN, crew);
}

static void artillery_needs_two_crew_and_lands_as_the_calculator_says(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int gun = add_gun(sc, 2);
    fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 6, opfor_pt(24, 36), OPFOR_W_RIFLE);
    fx_generals(sc, opfor_pt(40, 2), opfor_pt(44, 46));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_viktoria_req_t req;
    opfor_viktoria_req_init(&req, OPFOR_VK_A_FIRE_ARTILLERY);
    req.v[OPFOR_VK_F_RANGE] = OPFOR_VK_INCHES;
    req.inches = 30.0;
    double p = fx_calc_roll(&req, "on_target");
    char buf[4096];
    int on = 0;
    const int n = 2000;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, (uint64_t)s, gun);
        opfor_vk_action_t a = fx_act(OPFOR_VK_FIRE_ARTILLERY, gun);
        a.dest = opfor_pt(24, 36);
        opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
        assert_int_equal(opfor_vk_apply(ctx, &st, &a, &ev), 0);
        on += strstr(buf, "lands on target") != NULL;
        if (s == 0)
            assert_non_null(strstr(buf, "blast of 3 in")); /* 3 in blast (IX) */
    }
    fx_assert_rate(on, n, p, 4.0);
    /* one crewman: load, then fire (VI, IX) */
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, gun);
    st.figures[st.units[gun].first + 2].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    st.units[gun].flags &= (uint16_t)~OPFOR_UNIT_LOADED;
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    int na = opfor_vk_legal(ctx, &st, acts, OPFOR_VK_MAX_ACTIONS);
    assert_int_equal(fx_find(acts, na, OPFOR_VK_FIRE_ARTILLERY, OPFOR_VK_NONE), -1);
    assert_true(fx_find(acts, na, OPFOR_VK_LOAD, OPFOR_VK_NONE) >= 0);
    st.units[gun].flags |= OPFOR_UNIT_LOADED;
    na = opfor_vk_legal(ctx, &st, acts, OPFOR_VK_MAX_ACTIONS);
    int k = fx_find(acts, na, OPFOR_VK_FIRE_ARTILLERY, OPFOR_VK_NONE);
    assert_true(k >= 0);
    assert_int_equal(opfor_vk_apply(ctx, &st, &acts[k], NULL), 0);
    assert_false(st.units[gun].flags & OPFOR_UNIT_LOADED);
    fx_done(ctx, sc);
}

/* IX: the intended fall of shot must be in the crew's sight. A building hides the middle of
 * a line of foes from the crew but not its end nearest the gun: the list aims at that end,
 * not at the hidden centre, and an aim at the centre is refused. */
static void artillery_aims_at_points_in_the_crews_sight(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int gun = add_gun(sc, 2);
    int foe = fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 6, opfor_pt(7, 30), OPFOR_W_RIFLE);
    for (int k = 0; k < 6; k++)
        fx_fig(sc, foe, k)->pos = opfor_pt(2.0f + 2.0f * (float)k, 30);
    fx_rect(sc, OPFOR_TK_BUILDING, 12, 16, 16, 20);
    fx_generals(sc, opfor_pt(40, 2), opfor_pt(44, 46));
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, gun);
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    int na = opfor_vk_legal(ctx, &st, acts, OPFOR_VK_MAX_ACTIONS), aims = 0;
    opfor_pt_t centre = opfor_pt(7, 30), end = opfor_pt(12, 30);
    for (int i = 0; i < na; i++) {
        if (acts[i].kind != OPFOR_VK_FIRE_ARTILLERY || acts[i].target != foe)
            continue; /* (Red's general stands in the open) */
        assert_true(opfor_dist(acts[i].dest, centre) > 1.0f);
        aims += opfor_dist(acts[i].dest, end) < 1e-3f;
    }
    assert_int_equal(aims, 1);
    opfor_vk_action_t a = fx_aim(OPFOR_VK_FIRE_ARTILLERY, gun, foe);
    a.dest = centre;
    assert_int_equal(opfor_vk_apply(ctx, &st, &a, NULL), OPFOR_EILLEGAL);
    a.dest = end;
    assert_int_equal(opfor_vk_apply(ctx, &st, &a, NULL), 0);
    fx_done(ctx, sc);
}

static void blast_tests_only_inside_the_radius(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int in = fx_foot(sc, "In", 1, OPFOR_Q_CIVILIAN, 1, opfor_pt(20, 22.3f), OPFOR_W_RIFLE);
    int out = fx_foot(sc, "Out", 1, OPFOR_Q_CIVILIAN, 1, opfor_pt(20, 16.4f), OPFOR_W_RIFLE);
    fx_foot(sc, "Us", 0, OPFOR_Q_SOLDIER, 1, opfor_pt(4, 4), OPFOR_W_RIFLE);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int hin = 0, hout = 0;
    for (int s = 0; s < 300; s++) {
        opfor_vk_state_t st;
        opfor_vk_state_init(ctx, &st, (uint64_t)s);
        /* a 2 in bomb blast at (20, 20): "In" touches it (2.3 - 0.5 < 2), "Out" does not */
        vk_blast(ctx, &st, opfor_pt(20, 20), 2.0f, OPFOR_VK_BLAST_BOMB, 0, NULL);
        hin += st.figures[st.units[in].first].flags != OPFOR_FIG_ALIVE;
        hout += st.figures[st.units[out].first].flags != OPFOR_FIG_ALIVE;
    }
    assert_true(hin > 0);
    assert_int_equal(hout, 0);
    fx_done(ctx, sc);
}

/* XII.A: against a blast, as against fire, armour has the terrain's cover added (soft cover
 * one level, hard two), not the better of the two (audit row 85). An automaton (soft armour)
 * in a wood is as if in hard cover: hurt less often than the same automaton in the open, which
 * under the old rule (max of soft and soft) it was not, roll for roll. */
static void blast_armour_adds_the_terrains_cover(void **state) {
    (void)state;
    int hurt[2] = {0, 0};
    for (int wood = 0; wood < 2; wood++) {
        opfor_scenario_t *sc = fx_new(48, 48);
        if (wood)
            fx_rect(sc, OPFOR_TK_WOODS, 16, 20, 24, 28);
        int a = fx_unit(sc, "Automaton", 1, OPFOR_UT_AUTOMATON, OPFOR_Q_SOLDIER, 1,
                        opfor_pt(20, 22.5f), opfor_pt(0, -1), 0, OPFOR_W_RIFLE, 0);
        fx_foot(sc, "Us", 0, OPFOR_Q_SOLDIER, 1, opfor_pt(4, 4), OPFOR_W_RIFLE);
        fx_general(sc, 0, opfor_pt(6, 4));
        opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
        for (int s = 0; s < 400; s++) {
            opfor_vk_state_t st;
            opfor_vk_state_init(ctx, &st, (uint64_t)s);
            if (s == 0)
                assert_int_equal(vk_cover(ctx, &st, st.units[a].first, opfor_pt(20, 19)),
                                 wood ? OPFOR_COVER_HARD : OPFOR_COVER_SOFT);
            /* a shell's blast (4 in here) just outside the wood */
            vk_blast(ctx, &st, opfor_pt(20, 19), 4.0f, OPFOR_VK_BLAST_SHELL, 0, NULL);
            hurt[wood] += st.figures[st.units[a].first].flags != OPFOR_FIG_ALIVE;
        }
        fx_done(ctx, sc);
    }
    assert_true(hurt[0] > 0);
    assert_true(hurt[1] < hurt[0]);
}

/* A signals unit (Blue: a leader and two signallers) and a Red picket; `support` is the
 * scenario's support block (may be ""). Loads with the Viktoria! checks; returns the load's
 * result, the scenario in *sc and the message in *d. */
static int support_scenario(const char *support, opfor_scenario_t *sc, opfor_diag_t *d) {
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "name: Support test\n"
             "mode: competitive\n"
             "table: {width: 48, depth: 48}\n"
             "sides:\n"
             "  - {name: Blue, edge: bottom}\n"
             "  - {name: Red, edge: top}\n"
             "%s"
             "units:\n"
             "  - name: Signals\n"
             "    side: Blue\n"
             "    type: infantry\n"
             "    self_commanding: true\n"
             "    position: [24, 6]\n"
             "    figures:\n"
             "      - {count: 1, weapons: pistol, skills: leader}\n"
             "      - {count: 2, weapons: pistol, skills: signaller}\n"
             "  - name: Picket\n"
             "    side: Red\n"
             "    type: infantry\n"
             "    self_commanding: true\n"
             "    position: [24, 36]\n"
             "    figures:\n"
             "      - {count: 3, weapons: rifle, skills: leader}\n",
             support);
    memset(d, 0, sizeof *d);
    return opfor_viktoria_scenario_load_string(yaml, strlen(yaml), "support.yaml", sc, d);
}

/* IX: supporting fire is called by the team the scenario sets (`support: {team: ...}`): with a
 * team of two, the call needs two living signallers in the unit; one left cannot call. Bad
 * values fail the load with a clear message. */
static void support_fire_needs_the_scenarios_team(void **state) {
    (void)state;
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    opfor_diag_t d;
    int rc = support_scenario("support: {team: {Blue: 2}}\n", sc, &d);
    if (rc)
        fprintf(stderr, "%s:%d:%d: %s\n", d.file, d.line, d.col, d.msg);
    assert_int_equal(rc, 0);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, 0);
    opfor_vk_action_t call;
    assert_true(fx_offered(ctx, &st, OPFOR_VK_CALL_SUPPORT, OPFOR_VK_NONE, &call) >= 0);
    /* one signaller falls: the team is short */
    st.figures[st.units[0].first + 2].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_CALL_SUPPORT, OPFOR_VK_NONE, NULL), -1);
    assert_int_equal(opfor_vk_apply(ctx, &st, &call, NULL), OPFOR_EILLEGAL);
    opfor_vk_ctx_free(ctx);
    opfor_scenario_free(sc);
    /* a team set for Red only does not bind Blue; then one number for both sides */
    assert_int_equal(support_scenario("support: {team: {Red: 3}}\n", sc, &d), 0);
    ctx = fx_ctx(sc, NULL);
    fx_start(ctx, &st, 1, 0);
    st.figures[st.units[0].first + 2].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    assert_true(fx_offered(ctx, &st, OPFOR_VK_CALL_SUPPORT, OPFOR_VK_NONE, NULL) >= 0);
    opfor_vk_ctx_free(ctx);
    opfor_scenario_free(sc);
    assert_int_equal(support_scenario("support: {team: 3}\n", sc, &d), 0);
    ctx = fx_ctx(sc, NULL);
    fx_start(ctx, &st, 1, 0);
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_CALL_SUPPORT, OPFOR_VK_NONE, NULL), -1);
    opfor_vk_ctx_free(ctx);
    opfor_scenario_free(sc);
    /* refused: no team of none, an unknown side, an unknown key */
    assert_int_not_equal(support_scenario("support: {team: 0}\n", sc, &d), 0);
    assert_non_null(strstr(d.msg, "support team"));
    /* placed at the value itself, as every other scenario error (not told in the message) */
    assert_true(d.line > 0 && d.col == 17);
    assert_null(strstr(d.msg, "(line"));
    assert_int_not_equal(support_scenario("support: {team: {Green: 2}}\n", sc, &d), 0);
    assert_non_null(strstr(d.msg, "no side is called 'Green'"));
    assert_int_not_equal(support_scenario("support: {tam: 2}\n", sc, &d), 0);
    assert_non_null(strstr(d.msg, "team"));
    free(sc);
}

static void support_fire_registers_and_loses_communications(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_new(48, 48);
    int sig = fx_unit(sc, "Signals", 0, OPFOR_UT_ARTILLERY, OPFOR_Q_SOLDIER, 2, opfor_pt(24, 6),
                      opfor_pt(0, 1), 0, OPFOR_W_PISTOL, 0);
    fx_fig(sc, sig, 1)->skills |= OPFOR_S_SIGNALLER;
    fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 6, opfor_pt(24, 36), OPFOR_W_RIFLE);
    fx_generals(sc, opfor_pt(40, 2), opfor_pt(44, 46));
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.heavy_support[0] = 1;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, &opt);
    char buf[4096];
    int arrived = 0, lost = 0, heavy_blast = 0;
    const int n = 3000;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, (uint64_t)s, sig);
        opfor_vk_action_t call;
        assert_true(fx_offered(ctx, &st, OPFOR_VK_CALL_SUPPORT, OPFOR_VK_NONE, &call) >= 0);
        opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
        assert_int_equal(opfor_vk_apply(ctx, &st, &call, &ev), 0);
        if (strstr(buf, "communications lost")) {
            lost++;
            assert_int_equal(st.reg[0].turns, 0);
            assert_true(st.reg[0].lost > st.turn); /* no calls for a turn */
            continue;
        }
        assert_int_equal(st.reg[0].turns, 1); /* one turn registered on that point */
        if (strstr(buf, "guns fire")) {
            arrived++;
            heavy_blast += strstr(buf, "blast of 6 in") != NULL;
        }
    }
    /* the calculator: 10+ on 2D6 with nothing registered, a natural 2 or 3 loses comms */
    fx_assert_rate(arrived, n, 6.0 / 36.0, 4.0);
    fx_assert_rate(lost, n, 3.0 / 36.0, 4.0);
    assert_int_equal(heavy_blast, arrived);
    /* successive turns on the same point add +1 each (IX) */
    opfor_vk_state_t st;
    fx_start(ctx, &st, 5, sig);
    st.reg[0].point = opfor_pt(24, 36);
    st.reg[0].turns = 3;
    st.reg[0].last = (uint8_t)(st.turn - 1);
    opfor_vk_action_t call = fx_act(OPFOR_VK_CALL_SUPPORT, sig);
    call.dest = opfor_pt(24.5f, 36);
    int d = 0;
    for (int s = 0; s < 1; s++) {
        assert_int_equal(opfor_vk_apply(ctx, &st, &call, NULL), 0);
        d = st.reg[0].turns;
    }
    assert_true(d == 4 || d == 0); /* registered again, or communications lost */
    fx_done(ctx, sc);
}

static void bombs_reach_six_inches(void **state) {
    (void)state;
    for (int k = 0; k < 2; k++) {
        opfor_scenario_t *sc = fx_new(48, 48);
        int b = fx_unit(sc, "Bombers", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 2, opfor_pt(24, 6),
                        opfor_pt(0, 1), 0, OPFOR_W_BOMBS | OPFOR_W_PISTOL, 0);
        fx_foot(sc, "Foe", 1, OPFOR_Q_SOLDIER, 1, opfor_pt(24, 7 + (k ? 7.5f : 5.0f)),
                OPFOR_W_RIFLE);
        fx_general(sc, 0, opfor_pt(40, 2));
        opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
        opfor_vk_state_t st;
        fx_start(ctx, &st, 1, b);
        opfor_vk_action_t bomb;
        assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_THROW_BOMB, 1, &bomb) >= 0, k == 0);
        if (k == 0) {
            char buf[2048];
            opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
            assert_int_equal(opfor_vk_apply(ctx, &st, &bomb, &ev), 0);
            assert_non_null(strstr(buf, "blast of 2 in"));
        }
        fx_done(ctx, sc);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mg_every_figure_in_the_arc_tests),
        cmocka_unit_test(mg_count_is_the_engines_tests),
        cmocka_unit_test(mg_lone_gunner_reloads_and_wounded_crews_narrow),
        cmocka_unit_test(mg_hard_terrain_hides_foliage_does_not),
        cmocka_unit_test(artillery_needs_two_crew_and_lands_as_the_calculator_says),
        cmocka_unit_test(artillery_aims_at_points_in_the_crews_sight),
        cmocka_unit_test(blast_tests_only_inside_the_radius),
        cmocka_unit_test(blast_armour_adds_the_terrains_cover),
        cmocka_unit_test(support_fire_registers_and_loses_communications),
        cmocka_unit_test(support_fire_needs_the_scenarios_team),
        cmocka_unit_test(bombs_reach_six_inches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
