/* tests/rulesets/test_engine_machines.c — the machines of Viktoria! XII.C and XII.D: vehicle
 * passengers (boarding, capacity, riding along, firing out, harm when the vehicle is
 * destroyed), trains (kept on their track, speed changes bounded by max(half, 3 in)) and
 * aeroplanes (24 in runway, climb limit, off the table out of the fight, running targets in
 * flight); the scenario keys that describe them; invariants over random games of the demo.
 *
 * Positions are written as YAML (the scenario loader is part of what is tested).
 */
#include "vk_fixture.h"

#include "engine_int.h"
#include "opfor/viktoria/adapter.h"

/* A scenario from YAML text; fails the test when it does not load. */
static opfor_scenario_t *load(const char *yaml) {
    return fx_load(yaml, "test");
}

/* The error a bad scenario gives: its code, and line and message checked by the caller. */
static int load_err(const char *yaml, opfor_diag_t *d) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    int rc = opfor_viktoria_scenario_load_string(yaml, strlen(yaml), "bad.yaml", sc, d);
    opfor_scenario_free(sc);
    free(sc);
    return rc;
}

static opfor_vk_ctx_t *ctx_of(const opfor_scenario_t *sc) {
    return fx_ctx_opt(sc, 1, 0);
}

static int list(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_action_t *a) {
    return opfor_vk_legal(ctx, st, a, OPFOR_VK_MAX_ACTIONS);
}

/* Whether action x is in the legal list. */
static int listed(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                  const opfor_vk_action_t *x) {
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = list(ctx, st, a);
    for (int i = 0; i < n; i++)
        if (memcmp(&a[i], x, sizeof *x) == 0)
            return 1;
    return 0;
}

/* Whether apply accepts x (on a copy of st). */
static int legal(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_action_t x) {
    opfor_vk_state_t *tmp = malloc(sizeof *tmp);
    assert_non_null(tmp);
    memcpy(tmp, st, sizeof *tmp);
    int rc = opfor_vk_apply(ctx, tmp, &x, NULL);
    free(tmp);
    return rc == 0;
}

/* The vehicle's hull as the engine sees it: its equipment figure while that lives. */
static int hull_of(const opfor_vk_state_t *st, int v) {
    const opfor_unit_t *un = &st->units[v];
    int first = -1;
    for (int i = un->first; i < un->first + un->count; i++) {
        if (st->figures[i].flags & OPFOR_FIG_EQUIPMENT)
            return (st->figures[i].flags & OPFOR_FIG_ALIVE) ? i : -1;
        if (first < 0 && (st->figures[i].flags & OPFOR_FIG_ALIVE))
            first = i;
    }
    return first;
}

#define HEAD                                                                                       \
    "name: t\n"                                                                                    \
    "table: {width: 72, depth: 48}\n"                                                              \
    "sides: [{name: Blue, edge: bottom}, {name: Red, edge: top}]\n"

/* A car (payload 6, fire_out 2) with a section of n riflemen beside it, and a Red squad. */
static char *car_yaml(int n, float section_y, int fire_out, int aboard) {
    static char buf[4096];
    snprintf(buf, sizeof buf,
             HEAD "units:\n"
                  "  - {name: Car, side: Blue, type: vehicle, self_commanding: true, payload: 6,\n"
                  "     fire_out: %d, position: [30, 10],\n"
                  "     figures: [{count: 1, equipment: true, weapons: mg}]}\n"
                  "  - {name: Section, side: Blue, type: infantry, self_commanding: true,%s\n"
                  "     position: [30, %g], formation: line,\n"
                  "     figures: [{count: %d, weapons: rifle}]}\n"
                  "  - {name: Big, side: Blue, type: infantry, self_commanding: true,\n"
                  "     position: [14, 10], figures: [{count: 8, weapons: rifle}]}\n"
                  "  - {name: Reds, side: Red, type: infantry, self_commanding: true,\n"
                  "     position: [30, 30], figures: [{count: 8, weapons: rifle}]}\n",
             fire_out, aboard ? " embarked_in: Car," : "", (double)section_y, n);
    return buf;
}

/* ---------------------------------------------------------------- scenario keys */

static void machines_scenario_keys_and_errors(void **state) {
    (void)state;
    opfor_diag_t d;
    /* the demo: all three machines */
    opfor_scenario_t *sc = fx_machines_demo();
    assert_int_equal(sc->nroutes, 2);
    assert_int_equal(sc->routes[0].kind, OPFOR_ROUTE_RUNWAY);
    assert_true(fabsf(sc->routes[0].length - 30.0f) < 1e-4f);
    int car = opfor_scenario_unit(sc, "Armoured Car"),
        rs = opfor_scenario_unit(sc, "Rifle Section");
    int train = opfor_scenario_unit(sc, "Armoured Train"),
        plane = opfor_scenario_unit(sc, "Scout Plane");
    assert_int_equal(sc->machine[car].payload, 6);
    assert_int_equal(sc->machine[car].fire_out, 3);
    assert_int_equal(sc->machine[rs].embarked_in, car + 1);
    assert_int_equal(sc->machine[train].track, 2);
    assert_int_equal(sc->machine[plane].grounded, 1);
    /* passengers sit on the car's hull */
    opfor_pt_t h = sc->figures[sc->units[car].first].pos;
    for (int i = 0; i < sc->units[rs].count; i++) {
        opfor_pt_t p = sc->figures[sc->units[rs].first + i].pos;
        assert_true(p.x == h.x && p.y == h.y);
    }
    free(sc);

    /* errors point at the offending value */
    static const struct {
        const char *yaml;
        int line;
        const char *msg;
    } bad[] = {
        {HEAD "units:\n  - {name: A, side: Blue, type: infantry, payload: 2, position: [5, 5], "
              "figures: [{count: 1}]}\n",
         5, "only vehicles carry passengers"},
        {HEAD "units:\n  - {name: A, side: Blue, type: vehicle, payload: 2, fire_out: 3,\n"
              "     position: [5, 5], figures: [{count: 1, equipment: true}]}\n",
         5, "fire_out (3) may not exceed"},
        {HEAD "units:\n  - {name: A, side: Blue, type: infantry, embarked_in: Nobody,\n"
              "     figures: [{count: 1}]}\n",
         5, "no unit named 'Nobody'"},
        {HEAD "units:\n  - {name: C, side: Blue, type: vehicle, payload: 2, position: [5, 5],\n"
              "     figures: [{count: 1, equipment: true}]}\n"
              "  - {name: A, side: Blue, type: infantry, embarked_in: C,\n"
              "     figures: [{count: 3}]}\n",
         7, "carries at most 2 passengers"},
        {HEAD "units:\n  - {name: T, side: Blue, type: vehicle, track: Nowhere, position: [5, 5],\n"
              "     figures: [{count: 1, equipment: true}]}\n",
         5, "no track named 'Nowhere'"},
        {HEAD "terrain:\n  - {name: Line, kind: track, line: [[0, 20], [72, 20]]}\n"
              "units:\n  - {name: T, side: Blue, type: vehicle, track: Line, position: [5, 25],\n"
              "     figures: [{count: 1, equipment: true}]}\n",
         7, "from its track 'Line'"},
        {HEAD "terrain:\n  - {name: Strip, kind: runway, line: [[0, 20], [20, 20], [40, 20]]}\n", 5,
         "one straight strip"},
        {HEAD "units:\n  - {name: A, side: Blue, type: balloon, airborne: false, position: [5, 5],"
              " figures: [{count: 1}]}\n",
         5, "airborne applies to aeroplanes"},
        {HEAD "terrain:\n  - {name: X, kind: tarmac, line: [[0, 20], [20, 20]]}\n", 5,
         "track, runway"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int rc = load_err(bad[k].yaml, &d);
        if (rc == 0 || d.line != bad[k].line || !strstr(d.msg, bad[k].msg))
            fprintf(stderr, "case %zu: rc %d, %d:%d: %s\n", k, rc, d.line, d.col, d.msg);
        assert_true(rc < 0);
        assert_int_equal(d.line, bad[k].line);
        assert_true(d.col > 0);
        assert_non_null(strstr(d.msg, bad[k].msg));
    }
    /* a short runway is accepted with a warning */
    sc = load(HEAD "terrain:\n  - {name: Strip, kind: runway, line: [[0, 20], [20, 20]]}\n");
    assert_int_equal(sc->nwarnings, 1);
    assert_non_null(strstr(sc->warnings[0].msg, "need 24 in"));
    free(sc);
}

/* ---------------------------------------------------------------- passengers */

static void machines_embark_legality_and_capacity(void **state) {
    (void)state;
    opfor_scenario_t *sc = load(car_yaml(5, 13.0f, 2, 0));
    opfor_vk_ctx_t *ctx = ctx_of(sc);
    opfor_vk_state_t *st = malloc(sizeof *st);
    opfor_vk_state_init(ctx, st, 1);
    fx_activate(ctx, st, 1);
    opfor_vk_action_t em = fx_act(OPFOR_VK_EMBARK, 1);
    em.target = 0;
    em.dest = st->figures[st->units[0].first].pos;
    assert_true(listed(ctx, st, &em));
    assert_true(legal(ctx, st, em));
    /* a unit of 8 does not fit a payload of 6, whatever the distance */
    opfor_vk_state_t *s2 = malloc(sizeof *s2);
    opfor_vk_state_init(ctx, s2, 1);
    for (int i = 0; i < 8; i++) /* stand Big right beside the car */
        s2->figures[s2->units[2].first + i].pos = opfor_pt(22.0f + 1.5f * (float)i, 13.0f);
    for (int i = 0; i < 5; i++)
        s2->figures[s2->units[1].first + i].pos = opfor_pt(10.0f + 1.5f * (float)i, 20.0f);
    fx_activate(ctx, s2, 2);
    opfor_vk_action_t big = em;
    big.unit = 2;
    assert_false(legal(ctx, s2, big));
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = list(ctx, s2, a);
    assert_int_equal(fx_find(a, n, OPFOR_VK_EMBARK, OPFOR_VK_NONE), -1);
    /* the section out of reach (far from the car) may not board */
    opfor_vk_state_init(ctx, s2, 1);
    for (int i = 0; i < 5; i++)
        s2->figures[s2->units[1].first + i].pos = opfor_pt(10.0f + 1.5f * (float)i, 40.0f);
    fx_activate(ctx, s2, 1);
    assert_false(legal(ctx, s2, em));
    /* boarding: the section rides; a second unit finds no room (5 + 8 > 6) */
    assert_int_equal(opfor_vk_apply(ctx, st, &em, NULL), 0);
    assert_int_equal(st->ux[1].aboard, 1);
    int hull = hull_of(st, 0);
    for (int i = 0; i < 5; i++) {
        opfor_pt_t p = st->figures[st->units[1].first + i].pos;
        assert_true(p.x == st->figures[hull].pos.x && p.y == st->figures[hull].pos.y);
    }
    /* the riders: rally/stand, fire, get out — nothing else */
    st->phase = OPFOR_VK_PH_ACTION;
    st->cur = 1;
    st->side = 0;
    n = list(ctx, st, a);
    int out = 0;
    for (int i = 0; i < n; i++) {
        assert_true(a[i].kind == OPFOR_VK_STAND || a[i].kind == OPFOR_VK_FIRE ||
                    a[i].kind == OPFOR_VK_EMBARK);
        out += a[i].kind == OPFOR_VK_EMBARK;
        assert_true(legal(ctx, st, a[i]));
    }
    assert_true(out >= 1);
    assert_false(legal(ctx, st, fx_act(OPFOR_VK_ADVANCE, 1)));
    /* getting out puts every figure within 3 in of the car, off its base */
    int k = fx_find(a, n, OPFOR_VK_EMBARK, OPFOR_VK_NONE);
    assert_int_equal(opfor_vk_apply(ctx, st, &a[k], NULL), 0);
    assert_int_equal(st->ux[1].aboard, 0);
    for (int i = 0; i < 5; i++) {
        opfor_pt_t p = st->figures[st->units[1].first + i].pos;
        float dd = opfor_dist(p, st->figures[hull].pos);
        assert_true(dd >= OPFOR_RADIUS_EQUIPMENT + OPFOR_RADIUS_FOOT);
        assert_true(dd <= OPFOR_RADIUS_EQUIPMENT + OPFOR_RADIUS_FOOT + 3.01f);
    }
    free(s2);
    free(st);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void machines_passengers_ride_and_fire_out(void **state) {
    (void)state;
    opfor_scenario_t *sc = load(car_yaml(6, 13.0f, 2, 1));
    opfor_vk_ctx_t *ctx = ctx_of(sc);
    opfor_vk_state_t *st = malloc(sizeof *st), *s2 = malloc(sizeof *s2);
    opfor_vk_state_init(ctx, st, 5);
    assert_int_equal(st->ux[1].aboard, 1);
    /* the car drives 6+ in north; at the end of its activation the riders are on it */
    fx_activate(ctx, st, 0);
    opfor_vk_action_t adv = fx_act(OPFOR_VK_ADVANCE, 0);
    adv.dest = opfor_pt(30.0f, 22.0f); /* straight ahead: no turning cost (XII.C) */
    opfor_pt_t before = st->figures[hull_of(st, 0)].pos;
    assert_int_equal(opfor_vk_apply(ctx, st, &adv, NULL), 0);
    opfor_pt_t after = st->figures[hull_of(st, 0)].pos;
    assert_true(opfor_dist(before, after) > 2.0f);
    for (int i = 0; i < 6; i++) {
        opfor_pt_t p = st->figures[st->units[1].first + i].pos;
        assert_true(p.x == after.x && p.y == after.y);
    }
    /* fire out: at most fire_out (2) shots per action, over many seeds; some hit */
    opfor_vk_state_init(ctx, st, 9);
    fx_activate(ctx, st, 1);
    opfor_vk_action_t fire = fx_act(OPFOR_VK_FIRE, 1);
    fire.target = 3;
    assert_true(listed(ctx, st, &fire));
    int most = 0, total = 0;
    for (int s = 0; s < 200; s++) {
        memcpy(s2, st, sizeof *s2);
        opfor_rng_seed(&s2->rng, (uint64_t)s, 3);
        char buf[2048];
        opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
        buf[0] = 0;
        assert_int_equal(opfor_vk_apply(ctx, s2, &fire, &ev), 0);
        const char *p = strstr(buf, "fires");
        assert_non_null(p);
        int shots = -1;
        p = strstr(p, ": ");
        assert_non_null(p);
        assert_int_equal(sscanf(p, ": %d shots", &shots), 1);
        most = shots > most ? shots : most;
        total += shots;
        /* the riders are all still aboard and alive after firing */
        assert_int_equal(opfor_vk_unit_present(s2, 1), 6);
        assert_int_equal(s2->ux[1].aboard, 1);
    }
    assert_int_equal(most, 2);
    assert_true(total > 200);
    /* with fire_out 0 the riders may not fire */
    free(sc);
    opfor_vk_ctx_free(ctx);
    sc = load(car_yaml(6, 13.0f, 0, 1));
    ctx = ctx_of(sc);
    opfor_vk_state_init(ctx, st, 9);
    fx_activate(ctx, st, 1);
    assert_false(legal(ctx, st, fire));
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = list(ctx, st, a);
    assert_int_equal(fx_find(a, n, OPFOR_VK_FIRE, OPFOR_VK_NONE), -1);
    /* enemy fire at the riders meets the car's hard armour: fewer hurt than in the open */
    int hurt[2] = {0, 0};
    for (int aboard = 0; aboard < 2; aboard++) {
        opfor_vk_state_init(ctx, st, 9);
        if (!aboard) {
            st->ux[1].aboard = 0;
            for (int i = 0; i < 6; i++)
                st->figures[st->units[1].first + i].pos = opfor_pt(24.0f + 1.5f * (float)i, 13.0f);
        }
        fx_activate(ctx, st, 3);
        opfor_vk_action_t rf = fx_act(OPFOR_VK_FIRE, 3);
        rf.target = 1;
        for (int s = 0; s < 300; s++) {
            memcpy(s2, st, sizeof *s2);
            opfor_rng_seed(&s2->rng, (uint64_t)s, 4);
            assert_int_equal(opfor_vk_apply(ctx, s2, &rf, NULL), 0);
            hurt[aboard] += 6 - opfor_vk_unit_present(s2, 1) + fx_wounded(s2, 1);
        }
    }
    assert_true(hurt[1] * 2 < hurt[0]);
    free(st);
    free(s2);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

/* Passengers of a destroyed vehicle each roll: 1-3 unhurt, 4-5 wounded, 6 killed. */
static void machines_passengers_harmed_when_destroyed(void **state) {
    (void)state;
    opfor_scenario_t *sc = load(car_yaml(6, 13.0f, 2, 1));
    opfor_vk_ctx_t *ctx = ctx_of(sc);
    opfor_vk_state_t *st = malloc(sizeof *st), *s2 = malloc(sizeof *s2);
    opfor_vk_state_init(ctx, st, 2);
    fx_activate(ctx, st, 3); /* Red acts; the car is wrecked meanwhile */
    int hull = hull_of(st, 0);
    st->figures[hull].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
    opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, 3);
    long n = 0, killed = 0, wounded = 0;
    for (int s = 0; s < 1000; s++) {
        memcpy(s2, st, sizeof *s2);
        opfor_rng_seed(&s2->rng, (uint64_t)s, 7);
        assert_int_equal(opfor_vk_apply(ctx, s2, &stand, NULL), 0);
        assert_int_equal(s2->ux[1].aboard, 0);
        const opfor_unit_t *un = &s2->units[1];
        for (int i = un->first; i < un->first + un->count; i++) {
            const opfor_figure_t *f = &s2->figures[i];
            n++;
            if (!(f->flags & OPFOR_FIG_ALIVE)) {
                killed++;
                continue;
            }
            wounded += (f->flags & OPFOR_FIG_WOUNDED) != 0;
            /* survivors got out beside the wreck, off its base */
            float dd = opfor_dist(f->pos, s2->figures[hull].pos);
            assert_true(dd >= OPFOR_RADIUS_EQUIPMENT + OPFOR_RADIUS_FOOT - 1e-3f);
        }
    }
    fx_assert_rate((double)killed, (double)n, 1.0 / 6.0, 4.0);
    fx_assert_rate((double)wounded, (double)n, 2.0 / 6.0, 4.0);
    free(st);
    free(s2);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

/* ---------------------------------------------------------------- trains */

static const char *TRAIN_YAML =
    HEAD "terrain:\n"
         "  - {name: Line, kind: track, line: [[2, 20], [30, 20], [60, 40]]}\n"
         "units:\n"
         "  - {name: Train, side: Blue, type: vehicle, self_commanding: true, track: Line,\n"
         "     position: [10, 20], figures: [{count: 1, equipment: true, mounted: true,\n"
         "     weapons: mg, positions: [[10, 20]]}, {count: 1, weapons: rifle, skills: crew,\n"
         "     positions: [[12.5, 20]]}]}\n"
         "  - {name: Reds, side: Red, type: infantry, position: [40, 10],\n"
         "     figures: [{count: 4, weapons: rifle}]}\n";

static opfor_vk_action_t run_of(float inches) {
    opfor_vk_action_t a = fx_act(OPFOR_VK_DRIVE, 0);
    float m = inches < 0 ? -inches : inches;
    a.arc = (uint8_t)(m * 2.0f + 0.5f);
    a.flags = inches < 0 ? OPFOR_VK_AF_REVERSE : 0;
    return a;
}

static void machines_train_track_and_speed(void **state) {
    (void)state;
    opfor_scenario_t *sc = load(TRAIN_YAML);
    opfor_vk_ctx_t *ctx = ctx_of(sc);
    opfor_vk_state_t *st = malloc(sizeof *st);
    opfor_vk_state_init(ctx, st, 3);
    fx_activate(ctx, st, 0);
    /* only runs along the track */
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = list(ctx, st, a);
    assert_true(n > 0);
    for (int i = 0; i < n; i++)
        assert_int_equal(a[i].kind, OPFOR_VK_DRIVE);
    assert_false(legal(ctx, st, fx_act(OPFOR_VK_ADVANCE, 0)));
    assert_false(legal(ctx, st, fx_act(OPFOR_VK_STAND, 0)));
    /* at rest: up to 3 in either way (half of nothing is less than 3) */
    assert_true(legal(ctx, st, run_of(3.0f)));
    assert_true(legal(ctx, st, run_of(-3.0f)));
    assert_false(legal(ctx, st, run_of(3.5f)));
    /* last move 10 in: half of it (5) is the bound: 5..15 */
    st->ux[0].run = 20;
    assert_true(legal(ctx, st, run_of(15.0f)));
    assert_true(legal(ctx, st, run_of(5.0f)));
    assert_false(legal(ctx, st, run_of(4.5f)));
    assert_false(legal(ctx, st, run_of(15.5f)));
    assert_false(legal(ctx, st, run_of(0.0f)));
    /* last move 2 in: 3 in is the bound: -1..5 */
    st->ux[0].run = 4;
    assert_true(legal(ctx, st, run_of(5.0f)));
    assert_false(legal(ctx, st, run_of(5.5f)));
    assert_true(legal(ctx, st, run_of(-1.0f)));
    assert_false(legal(ctx, st, run_of(-1.5f)));
    assert_true(legal(ctx, st, run_of(0.0f)));
    /* last move 6 in backward: bound 3: backward 3..9 */
    st->ux[0].run = 12 | 0x80;
    assert_true(legal(ctx, st, run_of(-9.0f)));
    assert_true(legal(ctx, st, run_of(-3.0f)));
    assert_false(legal(ctx, st, run_of(-2.5f)));
    assert_false(legal(ctx, st, run_of(1.0f)));
    /* top speed: twice (transport advance mounted 6 + 3) = 18, whatever the band says */
    st->ux[0].run = 32;
    assert_true(legal(ctx, st, run_of(18.0f)));
    assert_false(legal(ctx, st, run_of(18.5f)));
    assert_true(legal(ctx, st, run_of(8.0f)));
    assert_false(legal(ctx, st, run_of(7.5f)));
    /* a run keeps every car on the track and records its speed; the corner is followed */
    st->ux[0].run = 20;
    opfor_vk_state_t *s2 = malloc(sizeof *s2);
    memcpy(s2, st, sizeof *s2);
    opfor_vk_action_t go = run_of(12.0f);
    if (!legal(ctx, s2, go))
        go = run_of(5.0f);
    assert_int_equal(opfor_vk_apply(ctx, s2, &go, NULL), 0);
    float sp = (float)go.arc * 0.5f;
    assert_int_equal(s2->ux[0].run, go.arc);
    for (int k = 0; k < 2; k++) {
        float off;
        float s0 = opfor_route_project(&sc->routes[0], st->figures[k].pos, NULL);
        float s1 = opfor_route_project(&sc->routes[0], s2->figures[k].pos, &off);
        assert_true(off < 0.01f);
        assert_true(fabsf(s1 - s0 - sp) < 0.01f);
    }
    /* the end of the line stops it: backward 9 from 10 in along the track ends at 2 in */
    memcpy(s2, st, sizeof *s2);
    s2->ux[0].run = 12 | 0x80;
    go = run_of(-9.0f);
    assert_int_equal(opfor_vk_apply(ctx, s2, &go, NULL), 0);
    assert_true(fabsf(s2->figures[0].pos.x - 2.0f) < 0.01f);
    assert_int_equal(s2->ux[0].run, 16 | 0x80);
    free(s2);
    free(st);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

/* ---------------------------------------------------------------- aeroplanes */

static char *plane_yaml(float runway, int airborne) {
    static char buf[2048];
    snprintf(buf, sizeof buf,
             HEAD "terrain:\n"
                  "  - {name: Strip, kind: runway, line: [[4, 4], [%g, 4]]}\n"
                  "units:\n"
                  "  - {name: Plane, side: Blue, type: aeroplane, self_commanding: true,\n"
                  "     airborne: %s, position: [6, 4],\n"
                  "     figures: [{count: 1, quality: veteran, weapons: carbine}]}\n"
                  "  - {name: Reds, side: Red, type: infantry, self_commanding: true,\n"
                  "     position: [36, 30], figures: [{count: 2, weapons: rifle}]}\n",
             (double)(4.0f + runway), airborne ? "true" : "false");
    return buf;
}

static opfor_vk_action_t takeoff(int arc, opfor_pt_t dest) {
    opfor_vk_action_t a = fx_act(OPFOR_VK_DRIVE, 0);
    a.flags = OPFOR_VK_AF_TAKE_OFF;
    a.arc = (uint8_t)arc;
    a.dest = dest;
    return a;
}

static void machines_plane_runway_and_climb(void **state) {
    (void)state;
    opfor_vk_state_t *st = malloc(sizeof *st);
    /* a 20 in strip is too short */
    opfor_scenario_t *sc = load(plane_yaml(20.0f, 0));
    opfor_vk_ctx_t *ctx = ctx_of(sc);
    opfor_vk_state_init(ctx, st, 1);
    fx_activate(ctx, st, 0);
    assert_int_equal(st->ux[0].altitude, 0);
    assert_false(legal(ctx, st, takeoff(2, opfor_pt(30, 20))));
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = list(ctx, st, a);
    assert_int_equal(fx_find(a, n, OPFOR_VK_DRIVE, OPFOR_VK_NONE), -1);
    opfor_vk_ctx_free(ctx);
    free(sc);
    /* 24 in will do; at most 3 levels of climb; then anywhere on the table */
    sc = load(plane_yaml(24.0f, 0));
    ctx = ctx_of(sc);
    opfor_vk_state_init(ctx, st, 1);
    fx_activate(ctx, st, 0);
    assert_true(legal(ctx, st, takeoff(1, opfor_pt(30, 20))));
    assert_true(legal(ctx, st, takeoff(3, opfor_pt(60, 40))));
    assert_false(legal(ctx, st, takeoff(4, opfor_pt(30, 20))));
    assert_false(legal(ctx, st, takeoff(0, opfor_pt(30, 20))));
    n = list(ctx, st, a);
    assert_true(fx_find(a, n, OPFOR_VK_DRIVE, OPFOR_VK_NONE) >= 0);
    for (int i = 0; i < n; i++)
        assert_true(legal(ctx, st, a[i]));
    /* a figure on the strip closes it */
    opfor_vk_state_t *s2 = malloc(sizeof *s2);
    memcpy(s2, st, sizeof *s2);
    s2->figures[1].pos = opfor_pt(20.0f, 4.2f);
    assert_false(legal(ctx, s2, takeoff(2, opfor_pt(30, 20))));
    opfor_vk_action_t t = takeoff(3, opfor_pt(60, 40));
    assert_int_equal(opfor_vk_apply(ctx, st, &t, NULL), 0);
    assert_int_equal(st->ux[0].altitude, 3);
    assert_true(opfor_dist(st->figures[0].pos, opfor_pt(60, 40)) < 0.01f);
    assert_true(st->figures[0].flags & OPFOR_FIG_RUNNING);
    /* in the air: it may land (on-table, open runway), climb no more than 3 a move */
    st->phase = OPFOR_VK_PH_ACTION;
    st->cur = 0;
    st->side = 0;
    opfor_vk_action_t land = fx_act(OPFOR_VK_DRIVE, 0);
    land.flags = OPFOR_VK_AF_LAND;
    land.dest = st->figures[0].pos;
    assert_true(legal(ctx, st, land));
    opfor_vk_action_t climb = land;
    climb.flags = OPFOR_VK_AF_CLIMB;
    climb.arc = 3;
    assert_true(legal(ctx, st, climb));
    climb.arc = 4;
    assert_false(legal(ctx, st, climb));
    assert_int_equal(opfor_vk_apply(ctx, st, &land, NULL), 0);
    assert_int_equal(st->ux[0].altitude, 0);
    assert_true(opfor_dist(st->figures[0].pos, opfor_pt(28, 4)) < 1.5f);
    free(s2);
    free(st);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

static void machines_plane_off_table_and_running_target(void **state) {
    (void)state;
    opfor_scenario_t *sc = load(plane_yaml(30.0f, 1));
    opfor_vk_ctx_t *ctx = ctx_of(sc);
    opfor_vk_state_t *st = malloc(sizeof *st), *s2 = malloc(sizeof *s2);
    opfor_vk_state_init(ctx, st, 4);
    assert_int_equal(st->ux[0].altitude, 1); /* airborne from the start */
    fx_activate(ctx, st, 0);
    /* fly off the table */
    opfor_vk_action_t off = fx_act(OPFOR_VK_DRIVE, 0);
    off.flags = OPFOR_VK_AF_OFF_TABLE;
    off.dest = st->figures[0].pos;
    assert_true(listed(ctx, st, &off));
    assert_int_equal(opfor_vk_apply(ctx, st, &off, NULL), 0);
    assert_true(st->units[0].flags & OPFOR_UNIT_OFF_TABLE);
    /* the enemy can neither list nor make fire at it */
    st->phase = OPFOR_VK_PH_ACTION;
    st->cur = 1;
    st->side = 1;
    opfor_vk_action_t rf = fx_act(OPFOR_VK_FIRE, 1);
    rf.target = 0;
    assert_false(legal(ctx, st, rf));
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = list(ctx, st, a);
    for (int i = 0; i < n; i++)
        assert_true(a[i].target != 0);
    /* off the table it has not left the game: still a unit of its side, not a loss */
    opfor_vk_result_t r;
    opfor_vk_result(ctx, st, &r);
    assert_int_equal(r.units[0], 1);
    assert_int_equal(r.score[1], 0);
    /* it may act again (come back), but not fire from off the table */
    st->phase = OPFOR_VK_PH_ACTION;
    st->cur = 0;
    st->side = 0;
    st->units[0].flags &= (uint16_t)~OPFOR_UNIT_ACTED;
    n = list(ctx, st, a);
    for (int i = 0; i < n; i++) {
        assert_true(a[i].kind == OPFOR_VK_STAND || a[i].kind == OPFOR_VK_DRIVE);
        assert_false(a[i].kind == OPFOR_VK_DRIVE && (a[i].flags & OPFOR_VK_AF_OFF_TABLE));
    }
    opfor_vk_action_t bad = off;
    bad.flags = OPFOR_VK_AF_OFF_TABLE | OPFOR_VK_AF_FIRE;
    bad.target = 1;
    assert_false(legal(ctx, st, bad));
    opfor_vk_action_t back = fx_act(OPFOR_VK_DRIVE, 0);
    back.dest = opfor_pt(36, 18);
    assert_int_equal(opfor_vk_apply(ctx, st, &back, NULL), 0);
    assert_false(st->units[0].flags & OPFOR_UNIT_OFF_TABLE);
    assert_true(opfor_dist(st->figures[0].pos, opfor_pt(36, 18)) < 0.01f);

    /* in flight it is a running target: the Reds hurt it less often than when it stands on the
       ground at the same spot */
    int hurt[2] = {0, 0};
    for (int flying = 0; flying < 2; flying++) {
        opfor_vk_state_init(ctx, st, 4);
        st->figures[0].pos = opfor_pt(36, 18);
        fx_activate(ctx, st, 1);
        st->ux[0].altitude = (uint8_t)flying;
        if (flying)
            st->figures[0].flags |= OPFOR_FIG_RUNNING;
        else
            st->figures[0].flags &= (uint16_t)~OPFOR_FIG_RUNNING;
        for (int s = 0; s < 2000; s++) {
            memcpy(s2, st, sizeof *s2);
            opfor_rng_seed(&s2->rng, (uint64_t)s, 11);
            assert_int_equal(opfor_vk_apply(ctx, s2, &rf, NULL), 0);
            hurt[flying] +=
                (s2->figures[0].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED)) != OPFOR_FIG_ALIVE;
        }
    }
    fprintf(stderr, "plane hurt: standing %d, flying %d of 2000\n", hurt[0], hurt[1]);
    assert_true(hurt[1] > 0);
    assert_true(hurt[1] * 10 < hurt[0] * 8); /* 596 vs 824 with these seeds */
    /* and the engine marks it so after each activation while it flies */
    opfor_vk_state_init(ctx, st, 4);
    fx_activate(ctx, st, 1);
    opfor_vk_action_t stand = fx_act(OPFOR_VK_STAND, 1);
    assert_int_equal(opfor_vk_apply(ctx, st, &stand, NULL), 0);
    assert_true(st->figures[0].flags & OPFOR_FIG_RUNNING);
    free(st);
    free(s2);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

/* XII.D (audit row 95): an aeroplane's bomb carriers drop bombs from the point on the table
 * beneath it, measuring 6 in from there; a burst on the ground does not reach a craft in the
 * air, the aeroplane over it included. */
static void machines_plane_drops_bombs_from_beneath(void **state) {
    (void)state;
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             HEAD
             "units:\n"
             "  - {name: Bomber, side: Blue, type: aeroplane, self_commanding: true,\n"
             "     position: [6, 4], figures: [{count: 1, quality: veteran, weapons: bombs}]}\n"
             "  - {name: Reds, side: Red, type: infantry, self_commanding: true,\n"
             "     position: [36, 30], figures: [{count: 4, weapons: rifle}]}\n");
    opfor_scenario_t *sc = load(yaml);
    opfor_vk_ctx_t *ctx = ctx_of(sc);
    opfor_vk_state_t *st = malloc(sizeof *st), *s2 = malloc(sizeof *s2);
    opfor_vk_state_init(ctx, st, 3);
    fx_activate(ctx, st, 0);
    assert_int_equal(st->ux[0].altitude, 1);
    opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
    int n = list(ctx, st, a), k = -1;
    for (int i = 0; i < n; i++)
        if (a[i].kind == OPFOR_VK_DRIVE && (a[i].flags & OPFOR_VK_AF_BOMB) && a[i].target == 1)
            k = i;
    assert_true(k >= 0); /* a bombing pass is offered */
    opfor_vk_action_t bomb = a[k];
    /* the flag survives the generic action of the adapter (the AI and the daemon) */
    opfor_action_t g = opfor_vk_rs_action_from_engine(&bomb);
    opfor_vk_action_t back;
    opfor_vk_rs_action_to_engine(&g, &back);
    assert_memory_equal(&back, &bomb, sizeof bomb);
    char words[160];
    opfor_vk_action_str(ctx, st, &bomb, words, sizeof words);
    assert_non_null(strstr(words, "dropping bombs on Reds"));
    int harmed = 0;
    for (int s = 0; s < 300; s++) {
        memcpy(s2, st, sizeof *s2);
        opfor_rng_seed(&s2->rng, (uint64_t)s, 5);
        char buf[1024];
        opfor_vk_events_t ev = {buf, sizeof buf, 0, 0};
        buf[0] = 0;
        assert_int_equal(opfor_vk_apply(ctx, s2, &bomb, &ev), 0);
        assert_non_null(strstr(buf, "throws 1 bomb at Reds"));
        /* the point beneath it is within 6 in of the Reds */
        assert_true(vk_nearest_pair(s2, 0, 1, NULL, NULL) <= 6.0f);
        harmed += fx_alive(s2, 1) < 4 || fx_wounded(s2, 1) > 0;
        assert_int_equal(fx_alive(s2, 0), 1);
    }
    assert_true(harmed > 30);
    /* a shell bursting right beneath it does not touch the aeroplane in the air */
    for (int s = 0; s < 200; s++) {
        memcpy(s2, st, sizeof *s2);
        opfor_rng_seed(&s2->rng, (uint64_t)s, 6);
        vk_blast(ctx, s2, s2->figures[0].pos, 6.0f, OPFOR_VK_BLAST_HEAVY, 1, NULL);
        assert_true((s2->figures[0].flags & (OPFOR_FIG_ALIVE | OPFOR_FIG_WOUNDED)) ==
                    OPFOR_FIG_ALIVE);
    }
    /* one pass drops bombs or fires, not both */
    opfor_vk_action_t both = bomb;
    both.flags = OPFOR_VK_AF_BOMB | OPFOR_VK_AF_FIRE;
    assert_false(legal(ctx, st, both));
    free(st);
    free(s2);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

/* ---------------------------------------------------------------- invariants */

/* Random games on the demo scenario: passengers stay on their vehicle's hull, trains on their
 * track, no figure of a unit in play stands in impassable ground; every listed action applies;
 * the machine actions are all used. */
static void machines_invariants_demo(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_machines_demo();
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.specials = 1;
    opt.weather_events = 1;
    opfor_vk_ctx_t *ctx = fx_ctx(sc, &opt);
    opfor_vk_state_t *st = malloc(sizeof *st);
    int games = (int)(300 * fx_scale());
    if (games < 20)
        games = 20;
    long seen_board = 0, seen_out = 0, seen_train = 0, seen_takeoff = 0, seen_fly = 0,
         seen_away = 0, seen_land = 0;
    for (int g = 0; g < games; g++) {
        opfor_rng_t prng;
        opfor_rng_seed(&prng, (uint64_t)g, 99);
        opfor_vk_state_init(ctx, st, (uint64_t)g + 1000);
        for (int step = 0; step < 5000 && !opfor_vk_is_terminal(ctx, st); step++) {
            opfor_vk_action_t a[OPFOR_VK_MAX_ACTIONS];
            int n = list(ctx, st, a);
            assert_true(n > 0);
            int k = (int)opfor_rng_below(&prng, (uint32_t)n);
            const opfor_vk_action_t *x = &a[k];
            if (st->phase == OPFOR_VK_PH_ACTION && (step % 3) == 0) {
                /* lazy listing agrees with the full list: groups are a superset, and each
                   group lists exactly the full list's actions of that group, in order */
                uint32_t gm = opfor_vk_legal_groups(ctx, st);
                for (int grp = 0; grp < OPFOR_VK_GROUP_COUNT; grp++) {
                    opfor_vk_action_t b[OPFOR_VK_MAX_ACTIONS], c[OPFOR_VK_MAX_ACTIONS];
                    int nc = 0;
                    for (int i = 0; i < n; i++) {
                        int ig = (a[i].kind == OPFOR_VK_ADVANCE || a[i].kind == OPFOR_VK_CRAWL) &&
                                         (a[i].flags & OPFOR_VK_AF_FIRE)
                                     ? OPFOR_VK_GROUP_MOVING_FIRE
                                     : a[i].kind;
                        if (ig == grp)
                            c[nc++] = a[i];
                    }
                    if (nc > 0)
                        assert_true(gm & (1u << grp));
                    int nb = opfor_vk_legal_group(ctx, st, grp, b, OPFOR_VK_MAX_ACTIONS);
                    assert_int_equal(nb, nc);
                    assert_memory_equal(b, c, sizeof b[0] * (size_t)nb);
                }
            }
            if (x->kind == OPFOR_VK_EMBARK || x->kind == OPFOR_VK_DRIVE) {
                char b[160];
                assert_string_not_equal(opfor_vk_action_str(ctx, st, x, b, sizeof b), "?");
            }
            if (x->kind == OPFOR_VK_EMBARK)
                (x->flags & OPFOR_VK_AF_DISEMBARK) ? seen_out++ : seen_board++;
            if (x->kind == OPFOR_VK_DRIVE) {
                if (st->units[x->unit].type == OPFOR_UT_VEHICLE)
                    seen_train++;
                else if (x->flags & OPFOR_VK_AF_TAKE_OFF)
                    seen_takeoff++;
                else if (x->flags & OPFOR_VK_AF_LAND)
                    seen_land++;
                else if (x->flags & OPFOR_VK_AF_OFF_TABLE)
                    seen_away++;
                else
                    seen_fly++;
            }
            int rc = opfor_vk_apply(ctx, st, x, NULL);
            if (rc != 0) {
                char b[160];
                fail_msg("game %d: listed action not applied (%d): %s [kind %d flags %x arc %d]", g,
                         rc, opfor_vk_action_str(ctx, st, x, b, sizeof b), x->kind, x->flags,
                         x->arc);
            }
            if (st->cur != OPFOR_VK_NONE)
                continue; /* check between activations */
            for (int u = 0; u < st->nunits; u++) {
                if (!opfor_vk_unit_in_play(st, u))
                    continue;
                const opfor_unit_t *un = &st->units[u];
                int v = st->ux[u].aboard ? st->ux[u].aboard - 1 : -1;
                int hull = v >= 0 ? hull_of(st, v) : -1;
                if (v >= 0) /* a rider's vehicle is in play and whole */
                    assert_true(opfor_vk_unit_in_play(st, v) && hull >= 0);
                for (int i = un->first; i < un->first + un->count; i++) {
                    const opfor_figure_t *f = &st->figures[i];
                    if (!(f->flags & OPFOR_FIG_ALIVE) || (f->flags & OPFOR_FIG_REAR))
                        continue;
                    if (v >= 0)
                        assert_true(f->pos.x == st->figures[hull].pos.x &&
                                    f->pos.y == st->figures[hull].pos.y);
                    if (sc->machine[u].track) {
                        float off;
                        opfor_route_project(&sc->routes[sc->machine[u].track - 1], f->pos, &off);
                        if (!(off < 0.01f))
                            fail_msg("train figure %d off its track by %.2f after %s (%d)", i,
                                     (double)off, opfor_vk_kind_name(x->kind), x->unit);
                    }
                    int mounted = (f->flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0;
                    if (opfor_terrain_impassable_at(&sc->table, f->pos, 0) >= 0)
                        fail_msg("figure %d of %s in impassable ground", i, un->name);
                    (void)mounted;
                }
            }
        }
    }
    fprintf(stderr,
            "machines demo, %d games: board %ld, get out %ld, train runs %ld, take-offs %ld, "
            "flights %ld, off table %ld, landings %ld\n",
            games, seen_board, seen_out, seen_train, seen_takeoff, seen_fly, seen_away, seen_land);
    assert_true(seen_out > 0 && seen_train > 0 && seen_takeoff > 0 && seen_fly > 0 &&
                seen_away > 0);
    free(st);
    opfor_vk_ctx_free(ctx);
    free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(machines_scenario_keys_and_errors),
        cmocka_unit_test(machines_embark_legality_and_capacity),
        cmocka_unit_test(machines_passengers_ride_and_fire_out),
        cmocka_unit_test(machines_passengers_harmed_when_destroyed),
        cmocka_unit_test(machines_train_track_and_speed),
        cmocka_unit_test(machines_plane_runway_and_climb),
        cmocka_unit_test(machines_plane_off_table_and_running_target),
        cmocka_unit_test(machines_plane_drops_bombs_from_beneath),
        cmocka_unit_test(machines_invariants_demo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
