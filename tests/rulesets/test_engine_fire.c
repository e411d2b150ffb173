/* tests/rulesets/test_engine_fire.c — personal weapons (Viktoria! IX): pistol 9 in, carbine
 * 36 in, rifle without limit; line of sight; the half-inch gap rule; cover, prone targets and
 * moving fire; aiming at the wounded; no fire at units locked in melee; and the outcome of a
 * shot (killed, wounded) matching the calculator's outcomes, criticals included.
 *
 * Outcome rates use fixed seeds and a 4-sigma band around the calculator's rendered chances.
 */
#include "rulesets/vk_fixture.h"

#include "rulesets/vk_calc_fixture.h"

#include "engine_int.h"

/* One shooter (side 0) at (10, 10) and a target unit of n figures whose first figure stands
 * `gap` inches (base to base) up the table. */
static opfor_scenario_t *range_pair(unsigned weapon, float gap, int n, int tq) {
    opfor_scenario_t *sc = fx_new(48, 96);
    fx_unit(sc, "Shooter", 0, OPFOR_UT_INFANTRY, OPFOR_Q_SOLDIER, 1, opfor_pt(10, 10),
            opfor_pt(0, 1), 0, weapon, 0);
    fx_foot(sc, "Target", 1, tq, n, opfor_pt(10, 10 + gap + 1.0f), OPFOR_W_RIFLE);
    fx_generals(sc, opfor_pt(4, 6), opfor_pt(46, 94));
    return sc;
}

static int fire_listed(opfor_scenario_t *sc) {
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, 0);
    int k = fx_offered(ctx, &st, OPFOR_VK_FIRE, 1, NULL);
    opfor_vk_ctx_free(ctx);
    return k >= 0;
}

static void fire_ranges_by_weapon(void **state) {
    (void)state;
    static const struct {
        unsigned w;
        float gap;
        int ok;
    } cases[] = {
        {OPFOR_W_PISTOL, 8.5f, 1},   {OPFOR_W_PISTOL, 9.5f, 0}, {OPFOR_W_CARBINE, 35.0f, 1},
        {OPFOR_W_CARBINE, 37.0f, 0}, {OPFOR_W_RIFLE, 80.0f, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        opfor_scenario_t *sc = range_pair(cases[k].w, cases[k].gap, 1, OPFOR_Q_SOLDIER);
        if (fire_listed(sc) != cases[k].ok)
            fail_msg("weapon %u at %g in: expected %d", cases[k].w, cases[k].gap, cases[k].ok);
        free(sc);
    }
}

static void fire_needs_line_of_sight(void **state) {
    (void)state;
    opfor_scenario_t *sc = range_pair(OPFOR_W_RIFLE, 20.0f, 1, OPFOR_Q_SOLDIER);
    fx_rect(sc, OPFOR_TK_BUILDING, 5, 18, 15, 24); /* squarely in the way */
    assert_false(fire_listed(sc));
    free(sc);
    sc = range_pair(OPFOR_W_RIFLE, 20.0f, 1, OPFOR_Q_SOLDIER);
    fx_rect(sc, OPFOR_TK_BUILDING, 12, 18, 22, 24); /* off to the side */
    assert_true(fire_listed(sc));
    free(sc);
}

/* Shots fired by a lone rifleman at a target behind a friendly screen with gaps `spacing`
 * inches apart, centre to centre. */
static int shots_through(float spacing) {
    opfor_scenario_t *sc = range_pair(OPFOR_W_RIFLE, 20.0f, 1, OPFOR_Q_SOLDIER);
    int screen = fx_foot(sc, "Screen", 0, OPFOR_Q_SOLDIER, 4, opfor_pt(10, 14), OPFOR_W_RIFLE);
    for (int k = 0; k < 4; k++) /* centred on the line of fire: 10 - 1.5 s .. 10 + 1.5 s */
        fx_fig(sc, screen, k)->pos = opfor_pt(10.0f + ((float)k - 1.5f) * spacing, 14);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, 0);
    int shots = vk_fire_unit(ctx, &st, 0, 1, 0, 0, NULL);
    fx_done(ctx, sc);
    return shots;
}

static void fire_half_inch_gap_rule(void **state) {
    (void)state;
    assert_int_equal(shots_through(1.3f), 0); /* gaps of 0.3 in: blocked (IX) */
    assert_int_equal(shots_through(1.8f), 1); /* gaps of 0.8 in: clear */
}

/* The calculator's killed / wounded chances for one shot. */
static void calc_outcome(int action, int aq, int tq, int cover, float range, int moving, int prone,
                         double *pk, double *pw) {
    opfor_viktoria_req_t req = fx_req_at(action, aq, range);
    req.v[OPFOR_VK_F_TARGET] = tq;
    req.v[OPFOR_VK_F_COVER] = cover;
    req.v[OPFOR_VK_F_MOVING] = moving;
    req.v[OPFOR_VK_F_TARGET_PRONE] = prone;
    opfor_viktoria_result_t res;
    fx_calc(&req, &res);
    *pk = fx_outcome_p(&res, "killed");
    *pw = fx_outcome_p(&res, "wounded");
}

/* Shoots n times (fresh state each) and counts kills and wounds of the target figure; moving
 * 1: advancing fire, 2: fire while taking cover (a crawl in place). */
static void shoot_many(opfor_scenario_t *sc, int n, int moving, int prone, int *kills,
                       int *wounds) {
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    *kills = *wounds = 0;
    for (int s = 0; s < n; s++) {
        opfor_vk_state_t st;
        fx_start(ctx, &st, (uint64_t)s * 7 + 1, 0);
        int t = st.units[1].first;
        if (prone)
            st.figures[t].flags |= OPFOR_FIG_PRONE;
        opfor_vk_action_t a = fx_act(moving == 2 ? OPFOR_VK_CRAWL
                                     : moving    ? OPFOR_VK_ADVANCE
                                                 : OPFOR_VK_FIRE,
                                     0);
        a.target = 1;
        if (moving) {
            a.flags = OPFOR_VK_AF_FIRE;
            a.dest = st.figures[0].pos; /* moving fire without closing the range */
            a.dest.x += 0.0f;
        }
        assert_int_equal(opfor_vk_apply(ctx, &st, &a, NULL), 0);
        if (!(st.figures[t].flags & OPFOR_FIG_ALIVE))
            (*kills)++;
        else if (st.figures[t].flags & OPFOR_FIG_WOUNDED)
            (*wounds)++;
    }
    opfor_vk_ctx_free(ctx);
}

/* Shoots n times at sc's target (moving, prone as given) and checks the kills and wounds
 * against the calculator's chances for a soldier firing at a conscript (4-sigma). */
static void outcomes_match(opfor_scenario_t *sc, int n, int action, int cover, float range,
                           int moving, int prone) {
    double pk, pw;
    int kills, wounds;
    calc_outcome(action, OPFOR_Q_SOLDIER, OPFOR_Q_CONSCRIPT, cover, range, moving != 0, prone, &pk,
                 &pw);
    shoot_many(sc, n, moving, prone, &kills, &wounds);
    fx_assert_rate(kills, n, pk, 4.0);
    fx_assert_rate(wounds, n, pw, 4.0);
}

static void fire_outcomes_match_the_calculator(void **state) {
    (void)state;
    const int n = 6000;
    /* open ground, medium range */
    opfor_scenario_t *sc = range_pair(OPFOR_W_RIFLE, 20.0f, 1, OPFOR_Q_CONSCRIPT);
    outcomes_match(sc, n, OPFOR_VK_A_FIRE_RIFLE, OPFOR_COVER_NONE, 20.0f, 0, 0);
    /* a prone target */
    outcomes_match(sc, n, OPFOR_VK_A_FIRE_RIFLE, OPFOR_COVER_NONE, 20.0f, 0, 1);
    free(sc);
    /* in woods (soft cover) */
    sc = range_pair(OPFOR_W_RIFLE, 20.0f, 1, OPFOR_Q_CONSCRIPT);
    fx_rect(sc, OPFOR_TK_WOODS, 8, 30, 12, 33);
    outcomes_match(sc, n, OPFOR_VK_A_FIRE_RIFLE, OPFOR_COVER_SOFT, 20.0f, 0, 0);
    free(sc);
    /* moving fire with a pistol at short range */
    sc = range_pair(OPFOR_W_PISTOL, 3.0f, 1, OPFOR_Q_CONSCRIPT);
    outcomes_match(sc, n, OPFOR_VK_A_FIRE_PISTOL, OPFOR_COVER_NONE, 3.0f, 1, 0);
    free(sc);
}

/* The legal list's moving fire of unit 0 at unit 1 of the given kind with exactly flags; 1 and
 * *out when listed. */
static int moving_fire_listed(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int kind,
                              unsigned flags, opfor_vk_action_t *out) {
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (a[i].kind == kind && a[i].target == 1 && a[i].flags == flags) {
            if (out)
                *out = a[i];
            return 1;
        }
    return 0;
}

/* VI: a crawl may be combined with fire, made as moving fire. The list offers it (toward the
 * target, and in place when out of command, VII); the firers end prone and shoot with the
 * moving-fire chances. */
static void fire_while_crawling(void **state) {
    (void)state;
    opfor_scenario_t *sc = range_pair(OPFOR_W_RIFLE, 20.0f, 1, OPFOR_Q_CONSCRIPT);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 3, 0);
    opfor_vk_action_t a;
    assert_true(moving_fire_listed(ctx, &st, OPFOR_VK_CRAWL, OPFOR_VK_AF_FIRE, &a));
    opfor_vk_ugeo_t g;
    opfor_vk_query_geo(&st, 1, &g);
    assert_true(opfor_dist(a.dest, g.c) < 1e-3f); /* crawling toward the target */
    char buf[512];
    opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
    buf[0] = 0;
    assert_int_equal(opfor_vk_apply(ctx, &st, &a, &ev), 0);
    assert_non_null(strstr(buf, "Shooter fires on the move at Target: 1 shot"));
    assert_true(st.figures[0].flags & OPFOR_FIG_PRONE);
    /* out of command: take cover where it stands, and fire */
    fx_start(ctx, &st, 3, 0);
    st.restricted = 1;
    assert_true(moving_fire_listed(ctx, &st, OPFOR_VK_CRAWL, OPFOR_VK_AF_FIRE, &a));
    assert_true(opfor_dist(a.dest, st.figures[0].pos) < 1e-3f);
    /* no target, no fire; a Wavering unit may crawl but not fire (XI) */
    opfor_vk_action_t bad = a;
    bad.target = OPFOR_VK_NONE;
    assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
    fx_start(ctx, &st, 3, 0);
    st.units[0].status = OPFOR_WAVERING;
    assert_false(moving_fire_listed(ctx, &st, OPFOR_VK_CRAWL, OPFOR_VK_AF_FIRE, NULL));
    assert_int_equal(opfor_vk_apply(ctx, &st, &a, NULL), OPFOR_EILLEGAL);
    opfor_vk_ctx_free(ctx);
    /* the shot's outcome is the calculator's moving fire */
    outcomes_match(sc, 6000, OPFOR_VK_A_FIRE_RIFLE, OPFOR_COVER_NONE, 20.0f, 2, 0);
    free(sc);
}

/* Shots of a pistolman 10.5 in from the target (beyond the pistol's 9 in) who advances 2 in
 * toward it and then back where he began, firing at the waypoint (fire_via) or at the end;
 * or (via_at_start) 8 in from it, who fires first or last and falls back 6 in. */
static int shots_on_the_way(int fire_via, int via_at_start) {
    opfor_scenario_t *sc =
        range_pair(OPFOR_W_PISTOL, via_at_start ? 8.0f : 10.5f, 1, OPFOR_Q_CONSCRIPT);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 5, 0);
    opfor_vk_action_t a = fx_aim(OPFOR_VK_ADVANCE, 0, 1);
    a.flags = OPFOR_VK_AF_FIRE | OPFOR_VK_AF_VIA | (fire_via ? OPFOR_VK_AF_FIRE_VIA : 0);
    a.via = via_at_start ? opfor_pt(10, 10) : opfor_pt(10, 12);
    a.dest = via_at_start ? opfor_pt(10, 4) : opfor_pt(10, 10);
    char buf[512];
    opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
    buf[0] = 0;
    assert_int_equal(opfor_vk_apply(ctx, &st, &a, &ev), 0);
    const char *p = strstr(buf, "fires on the move at Target: ");
    assert_non_null(p);
    int shots = atoi(p + strlen("fires on the move at Target: "));
    /* it went on after firing: back where it began, or 4 in further back */
    assert_true(st.figures[0].pos.y < 10.5f);
    fx_done(ctx, sc);
    return shots;
}

/* IX: moving fire at any point of the move. The waypoint is the fire point: firing there hits
 * what is in range there, though the move ends out of range; firing first (the waypoint where
 * the unit stands), then falling back, is listed. */
static void fire_at_any_point_of_the_move(void **state) {
    (void)state;
    assert_int_equal(shots_on_the_way(1, 0), 1);
    assert_int_equal(shots_on_the_way(0, 0), 0);
    assert_int_equal(shots_on_the_way(1, 1), 1);
    assert_int_equal(shots_on_the_way(0, 1), 0);
    opfor_scenario_t *sc = range_pair(OPFOR_W_RIFLE, 20.0f, 1, OPFOR_Q_CONSCRIPT);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 3, 0);
    opfor_vk_action_t a;
    assert_true(moving_fire_listed(ctx, &st, OPFOR_VK_ADVANCE,
                                   OPFOR_VK_AF_FIRE | OPFOR_VK_AF_VIA | OPFOR_VK_AF_FIRE_VIA, &a));
    assert_true(opfor_dist(a.via, st.figures[0].pos) < 1e-3f); /* fire first */
    assert_true(a.dest.y < a.via.y);                           /* then back toward its edge */
    /* the fire point needs a waypoint */
    a.flags = OPFOR_VK_AF_FIRE | OPFOR_VK_AF_FIRE_VIA;
    assert_int_equal(opfor_vk_apply(ctx, &st, &a, NULL), OPFOR_EILLEGAL);
    fx_done(ctx, sc);
}

static void fire_aimed_at_the_wounded(void **state) {
    (void)state;
    opfor_scenario_t *sc = range_pair(OPFOR_W_RIFLE, 10.0f, 4, OPFOR_Q_CONSCRIPT);
    fx_fig(sc, 1, 3)->flags |= OPFOR_FIG_WOUNDED;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    int others = 0, wounded_hit = 0;
    opfor_vk_action_t a = fx_aim(OPFOR_VK_FIRE, 0, 1);
    a.flags = OPFOR_VK_AF_AIM_WOUNDED;
    for (int s = 0; s < 600; s++) {
        opfor_vk_state_t st;
        fx_play(ctx, &st, (uint64_t)s, &a);
        int base = st.units[1].first;
        for (int k = 0; k < 3; k++)
            others += st.figures[base + k].flags != sc->figures[base + k].flags;
        wounded_hit += !(st.figures[base + 3].flags & OPFOR_FIG_ALIVE);
    }
    assert_int_equal(others, 0); /* every shot went at the wounded man */
    assert_true(wounded_hit > 0);
    fx_done(ctx, sc);
}

/* IX: fire that states no aim goes at the unwounded rank and file (audit row 42): one shot at a
 * unit whose nearest figure is wounded (then, in a second case, its leader) never harms that
 * figure while an unwounded man of the ranks is there to shoot at. */
static void fire_undeclared_goes_at_the_unwounded(void **state) {
    (void)state;
    for (int near = 0; near < 2; near++) { /* 0: the wounded man nearest; 1: the leader */
        opfor_scenario_t *sc = range_pair(OPFOR_W_RIFLE, 10.0f, 4, OPFOR_Q_CONSCRIPT);
        int k = near ? 0 : 3;
        if (!near)
            fx_fig(sc, 1, 3)->flags |= OPFOR_FIG_WOUNDED;
        fx_fig(sc, 1, k)->pos.y -= 1.2f; /* a step toward the shooter: the nearest */
        opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
        int it = 0, others = 0;
        opfor_vk_action_t a = fx_aim(OPFOR_VK_FIRE, 0, 1);
        for (int s = 0; s < 400; s++) {
            opfor_vk_state_t st;
            fx_play(ctx, &st, (uint64_t)s, &a);
            int base = st.units[1].first;
            for (int i = 0; i < 4; i++)
                if (st.figures[base + i].flags != sc->figures[base + i].flags)
                    *(i == k ? &it : &others) += 1;
        }
        assert_int_equal(it, 0);
        assert_true(others > 0);
        fx_done(ctx, sc);
    }
}

/* Puts figure g of the state in contact with figure h (bases touching, g just above h) and
 * links their units in melee, as a charge that reached would. */
static void touch(opfor_vk_state_t *st, int g, int h) {
    float d = vk_radius(&st->figures[g]) + vk_radius(&st->figures[h]);
    st->figures[g].pos = opfor_pt(st->figures[h].pos.x, st->figures[h].pos.y + d);
    int a = st->figures[g].unit, b = st->figures[h].unit;
    st->melee[a] |= 1u << b;
    st->melee[b] |= 1u << a;
}

/* IX: figures in combat contact are no targets and do not fire, figure by figure: a unit in
 * melee is still shot at through its figures that touch no foe, and its free figures are the
 * only ones of a volley that fire. */
static void fire_not_at_units_in_melee(void **state) {
    (void)state;
    /* the target's first figure locked with Blue's general (unit 2), its second free */
    opfor_scenario_t *sc = range_pair(OPFOR_W_RIFLE, 20.0f, 2, OPFOR_Q_CONSCRIPT);
    fx_fig(sc, 1, 1)->pos = opfor_pt(14, 31);
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    int t0 = 0, t1 = 0;
    for (int s = 0; s < 300; s++) {
        fx_start(ctx, &st, (uint64_t)s + 1, 0);
        int a = st.units[1].first;
        touch(&st, st.units[2].first, a);
        opfor_vk_action_t f;
        assert_true(fx_offered(ctx, &st, OPFOR_VK_FIRE, 1, &f) >= 0);
        assert_int_equal(opfor_vk_apply(ctx, &st, &f, NULL), 0);
        t0 += (st.figures[a].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED)) != OPFOR_FIG_ALIVE;
        t1 += (st.figures[a + 1].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED)) != OPFOR_FIG_ALIVE;
    }
    assert_int_equal(t0, 0); /* never shot: in contact */
    assert_true(t1 > 0);
    /* both locked: no target */
    fx_start(ctx, &st, 1, 0);
    touch(&st, st.units[2].first, st.units[1].first);
    st.figures[st.units[1].first + 1].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    assert_int_equal(fx_offered(ctx, &st, OPFOR_VK_FIRE, 1, NULL), -1);
    opfor_vk_action_t f = fx_aim(OPFOR_VK_FIRE, 0, 1);
    assert_int_equal(opfor_vk_apply(ctx, &st, &f, NULL), OPFOR_EILLEGAL);
    /* a melee link alone, no base touching: a target like any */
    fx_start(ctx, &st, 1, 0);
    st.melee[1] = 1u << 2;
    st.melee[2] = 1u << 1;
    assert_true(fx_offered(ctx, &st, OPFOR_VK_FIRE, 1, NULL) >= 0);
    fx_done(ctx, sc);
    /* a firer in contact does not fire; its free fellow does */
    sc = range_pair(OPFOR_W_RIFLE, 20.0f, 1, OPFOR_Q_CONSCRIPT);
    int two = fx_foot(sc, "Pair", 0, OPFOR_Q_SOLDIER, 2, opfor_pt(30, 10), OPFOR_W_RIFLE);
    fx_fig(sc, two, 0)->pos = opfor_pt(28, 10);
    fx_fig(sc, two, 1)->pos = opfor_pt(32, 10);
    ctx = fx_ctx(sc, NULL);
    fx_start(ctx, &st, 1, two);
    assert_int_equal(vk_fire_count(ctx, &st, two, 1, 0), 2);
    touch(&st, st.units[3].first, st.units[two].first); /* Red's general on the first */
    assert_int_equal(vk_fire_count(ctx, &st, two, 1, 0), 1);
    assert_int_equal(vk_fire_unit(ctx, &st, two, 1, 0, 0, NULL), 1);
    fx_done(ctx, sc);
}

/* IX: the player chooses each firer's target. Fire may name a figure of the target unit: the
 * firers shoot at it first while it stands (each that can), the others as before. The list
 * names the target's specialist (here its signaller), and the name must be a person of that
 * unit who may be shot at. */
static void fire_at_a_named_figure(void **state) {
    (void)state;
    opfor_scenario_t *sc = range_pair(OPFOR_W_RIFLE, 20.0f, 3, OPFOR_Q_CONSCRIPT);
    for (int k = 0; k < 3; k++) /* a line across the line of fire; the signaller farthest */
        fx_fig(sc, 1, k)->pos = opfor_pt(10.0f + 4.0f * (float)k, 31);
    fx_fig(sc, 1, 2)->skills |= OPFOR_S_SIGNALLER;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_vk_state_t st;
    fx_start(ctx, &st, 1, 0);
    int sig = st.units[1].first + 2;
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, &st, a, OPFOR_VK_MAX_ACTIONS), named = -1;
    for (int i = 0; i < n; i++)
        if (a[i].kind == OPFOR_VK_FIRE && a[i].figure != OPFOR_VK_NO_FIGURE)
            named = i;
    assert_true(named >= 0);
    assert_int_equal(a[named].figure, sig);
    assert_int_equal(a[named].target, 1);
    opfor_vk_action_t f = a[named];
    int hit_named[2] = {0, 0}, hit_other[2] = {0, 0};
    for (int by_name = 0; by_name < 2; by_name++)
        for (int s = 0; s < 400; s++) {
            fx_start(ctx, &st, (uint64_t)s + 1, 0);
            opfor_vk_action_t x = f;
            if (!by_name)
                x.figure = OPFOR_VK_NO_FIGURE;
            assert_int_equal(opfor_vk_apply(ctx, &st, &x, NULL), 0);
            for (int g = st.units[1].first; g < st.units[1].first + 3; g++) {
                int harmed = (st.figures[g].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED)) !=
                             OPFOR_FIG_ALIVE;
                (g == sig ? hit_named : hit_other)[by_name] += harmed;
            }
        }
    assert_int_equal(hit_named[0], 0); /* unnamed: the nearest rank and file */
    assert_true(hit_other[0] > 0);
    assert_true(hit_named[1] > 0); /* named: the signaller, and no one else */
    assert_int_equal(hit_other[1], 0);
    /* the name must be a living person of the target unit */
    fx_start(ctx, &st, 1, 0);
    opfor_vk_action_t bad = f;
    bad.figure = 0; /* the shooter itself */
    assert_int_equal(opfor_vk_apply(ctx, &st, &bad, NULL), OPFOR_EILLEGAL);
    st.figures[sig].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    assert_int_equal(opfor_vk_apply(ctx, &st, &f, NULL), OPFOR_EILLEGAL);
    /* the count the order gives is the engine's */
    fx_start(ctx, &st, 1, 0);
    assert_int_equal(opfor_vk_query_shooters_at(ctx, &st, 0, 1, 0, sig), 1);
    fx_done(ctx, sc);
}

static void fire_tables_agree_with_the_calculator(void **state) {
    (void)state;
    opfor_scenario_t *sc =
        range_pair(OPFOR_W_RIFLE | OPFOR_W_PISTOL | OPFOR_W_CARBINE, 20.0f, 2, OPFOR_Q_VETERAN);
    fx_fig(sc, 0, 0)->flags |= OPFOR_FIG_HORSE;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_rng_t r;
    opfor_rng_seed(&r, 99, 1);
    int checked = 0;
    for (int k = 0; k < 400; k++) {
        int w = (int)opfor_rng_below(&r, 3),
            tc = (int)opfor_rng_below(&r, 2) ? OPFOR_Q_VETERAN : OPFOR_Q_SOLDIER;
        int cov = (int)opfor_rng_below(&r, 4), br = (int)opfor_rng_below(&r, 4);
        int bits = (int)opfor_rng_below(&r, 64) & ~(1 << 4); /* no sharpshooter here */
        int post = (int)opfor_rng_below(&r, 3);
        const vk_roll_t *e = &ctx->tab->fire_hit[vk_fire_idx(
            w, OPFOR_Q_SOLDIER, tc, cov, br, bits >> 5 & 1, 0, bits >> 3 & 1, bits >> 2 & 1,
            bits >> 1 & 1, bits & 1, post)];
        assert_int_equal(e->ok, 1);
        opfor_viktoria_req_t req;
        opfor_viktoria_req_init(&req, OPFOR_VK_A_FIRE_PISTOL + w);
        req.v[OPFOR_VK_F_ACTOR] = OPFOR_Q_SOLDIER;
        req.v[OPFOR_VK_F_TARGET] = tc;
        req.v[OPFOR_VK_F_COVER] = cov;
        req.v[OPFOR_VK_F_RANGE] = br;
        req.v[OPFOR_VK_F_ACTOR_MOUNTED] = bits >> 5 & 1;
        req.v[OPFOR_VK_F_ACTOR_WOUNDED] = bits >> 3 & 1;
        req.v[OPFOR_VK_F_MOVING] = bits >> 2 & 1;
        req.v[OPFOR_VK_F_TARGET_WOUNDED] = bits >> 1 & 1;
        req.v[OPFOR_VK_F_TARGET_MOUNTED] = bits & 1;
        req.v[OPFOR_VK_F_TARGET_RUNNING] = post == VK_POST_RUNNING;
        req.v[OPFOR_VK_F_TARGET_PRONE] = post == VK_POST_PRONE;
        opfor_viktoria_result_t res;
        fx_calc(&req, &res);
        const opfor_viktoria_named_roll_t *h = opfor_viktoria_result_roll(&res, "hit");
        assert_int_equal(e->kind, h->roll.kind);
        assert_int_equal(e->need, h->roll.need);
        assert_int_equal(e->need2, h->roll.need2);
        checked++;
    }
    assert_int_equal(checked, 400);
    fx_done(ctx, sc);
}

/* Criticals (IX) come out at the calculator's rendered "critical" chance, also when the hit
 * itself is rendered as "6, then N+" (the critical is then that roll's 6-6, not one more die
 * after it), and kills in all at its "killed" chance. */
static void fire_critical_is_the_calculators(void **state) {
    (void)state;
    static const struct {
        int aq, kind; /* shooter quality, the hit roll's expected rendering */
    } cases[] = {
        {OPFOR_Q_SOLDIER, OPFOR_ROLL_D6_THEN}, /* 6, then 3+ */
        {OPFOR_Q_VETERAN, OPFOR_ROLL_D6},      /* 6+ */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        opfor_scenario_t *sc = range_pair(OPFOR_W_RIFLE, 60.0f, 1, OPFOR_Q_SOLDIER);
        fx_fig(sc, 0, 0)->quality = (uint8_t)cases[c].aq;
        fx_rect(sc, OPFOR_TK_WOODS, 7, 68, 13, 74); /* soft cover around the target */
        opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
        opfor_vk_state_t st0;
        opfor_vk_state_init(ctx, &st0, 1);
        int f = 0, g = st0.units[1].first;
        st0.figures[g].flags |= OPFOR_FIG_PRONE;
        float gap = opfor_dist(st0.figures[f].pos, st0.figures[g].pos) - 2.0f * OPFOR_RADIUS_FOOT;
        int br = opfor_viktoria_bracket_of(&ctx->model, OPFOR_VK_R_RIFLE, gap);
        int cov = vk_cover(ctx, &st0, g, st0.figures[f].pos);
        assert_int_equal(cov, OPFOR_COVER_SOFT);
        const vk_roll_t *hit =
            &ctx->tab->fire_hit[vk_fire_idx(OPFOR_VK_R_RIFLE, cases[c].aq, OPFOR_Q_SOLDIER, cov, br,
                                            0, 0, 0, 0, 0, 0, VK_POST_PRONE)];
        assert_int_equal(hit->kind, cases[c].kind);
        /* the calculator on the same request */
        opfor_viktoria_req_t req;
        opfor_viktoria_req_init(&req, OPFOR_VK_A_FIRE_RIFLE);
        req.v[OPFOR_VK_F_ACTOR] = cases[c].aq;
        req.v[OPFOR_VK_F_TARGET] = OPFOR_Q_SOLDIER;
        req.v[OPFOR_VK_F_COVER] = cov;
        req.v[OPFOR_VK_F_RANGE] = br;
        req.v[OPFOR_VK_F_TARGET_PRONE] = 1;
        opfor_viktoria_result_t res;
        fx_calc(&req, &res);
        const opfor_viktoria_named_roll_t *h = opfor_viktoria_result_roll(&res, "hit");
        assert_int_equal(h->roll.kind, hit->kind);
        double pc = fx_roll_p(&res, "critical");
        double pk = fx_outcome_p(&res, "killed");
        assert_true(fabs(pc - 1.0 / 36.0) < 1e-9);
        const int n = 30000;
        int crits = 0, kills = 0;
        char buf[256];
        for (int s = 0; s < n; s++) {
            opfor_vk_state_t st = st0;
            opfor_rng_seed(&st.rng, (uint64_t)s, 11);
            opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
            buf[0] = 0;
            int e = vk_shoot(ctx, &st, f, g, OPFOR_VK_R_RIFLE, gap, 0, &ev);
            crits += strstr(buf, "critical") != NULL;
            kills += e == 2;
        }
        fx_assert_rate(crits, n, pc, 4.0);
        fx_assert_rate(kills, n, pk, 4.0);
        fx_done(ctx, sc);
    }
}

/* The figures an order says will fire (vk_fire_count, read without rolling) are the shots the
 * engine fires whenever no shot harms (wounds or kills) a figure of the target: seeded positions
 * with a third unit in between, a building and the target at every angle and range. */
static void fire_count_is_the_engines_shots(void **state) {
    (void)state;
    opfor_rng_t r;
    opfor_rng_seed(&r, 2026, 15);
    int checked = 0, some = 0, none = 0;
    for (int k = 0; k < 300; k++) {
        opfor_scenario_t *sc = fx_new(72, 72);
        float sx = 10.0f + 50.0f * (float)opfor_rng_unit(&r);
        float sy = 6.0f + 10.0f * (float)opfor_rng_unit(&r);
        float tx = 6.0f + 60.0f * (float)opfor_rng_unit(&r);
        float ty = 30.0f + 36.0f * (float)opfor_rng_unit(&r);
        unsigned w = (k % 3 == 0) ? OPFOR_W_PISTOL : (k % 3 == 1) ? OPFOR_W_CARBINE : OPFOR_W_RIFLE;
        int su = fx_foot(sc, "Shooters", 0, OPFOR_Q_SOLDIER, 3 + (int)opfor_rng_below(&r, 10),
                         opfor_pt(sx, sy), w);
        int tu = fx_foot(sc, "Target", 1, OPFOR_Q_SOLDIER, 1 + (int)opfor_rng_below(&r, 8),
                         opfor_pt(tx, ty), OPFOR_W_RIFLE);
        fx_foot(
            sc, "Between", 0, OPFOR_Q_SOLDIER, 1 + (int)opfor_rng_below(&r, 6),
            opfor_pt(0.5f * (sx + tx) + 4.0f * (float)opfor_rng_unit(&r) - 2.0f, 0.5f * (sy + ty)),
            OPFOR_W_RIFLE);
        if (k % 2) {
            float bx = 0.5f * (sx + tx) + 12.0f * (float)opfor_rng_unit(&r) - 6.0f;
            float by = 0.5f * (sy + ty) + 6.0f;
            fx_rect(sc, OPFOR_TK_BUILDING, bx, by, bx + 4.0f, by + 3.0f);
        }
        fx_generals(sc, opfor_pt(2, 2), opfor_pt(70, 70));
        opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
        opfor_vk_state_t *st = malloc(sizeof *st);
        assert_non_null(st);
        fx_start(ctx, st, (uint64_t)k + 1, su);
        int n = vk_fire_count(ctx, st, su, tu, 0);
        char buf[512] = "";
        opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
        int shots = vk_fire_unit(ctx, st, su, tu, 0, 0, &ev);
        /* the engine's line: "N shots, W wounded, K killed" */
        int killed = -1, wounded = -1;
        const char *sh = strstr(buf, " shots, ");
        if (!sh)
            sh = strstr(buf, " shot, ");
        assert_non_null(sh);
        assert_int_equal(sscanf(strchr(sh, ',') + 1, " %d wounded, %d killed", &wounded, &killed),
                         2);
        /* a wound, as a kill, turns the next firers from that figure (undeclared fire goes at
           the unwounded, IX): the count holds while no shot harms */
        if (killed == 0 && wounded == 0) {
            if (shots != n)
                fail_msg("case %d: counted %d, the engine fired %d (%s)", k, n, shots, buf);
            checked++;
            some += n > 0;
            none += n == 0;
        }
        free(st);
        opfor_vk_ctx_free(ctx);
        free(sc);
    }
    assert_true(checked > 100 && some > 30 && none > 5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fire_ranges_by_weapon),
        cmocka_unit_test(fire_needs_line_of_sight),
        cmocka_unit_test(fire_half_inch_gap_rule),
        cmocka_unit_test(fire_outcomes_match_the_calculator),
        cmocka_unit_test(fire_aimed_at_the_wounded),
        cmocka_unit_test(fire_undeclared_goes_at_the_unwounded),
        cmocka_unit_test(fire_not_at_units_in_melee),
        cmocka_unit_test(fire_tables_agree_with_the_calculator),
        cmocka_unit_test(fire_critical_is_the_calculators),
        cmocka_unit_test(fire_count_is_the_engines_shots),
        cmocka_unit_test(fire_while_crawling),
        cmocka_unit_test(fire_at_any_point_of_the_move),
        cmocka_unit_test(fire_at_a_named_figure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
