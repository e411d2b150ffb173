/* tests/rulesets/test_engine_vehicles.c — how vehicles move under the Viktoria! XII options:
 * speed classes (slow and fast as transport on foot and mounted, very and extremely fast twice
 * those), the cost of turning (frontage times the angle, XII.C), tracks against wheels in rough
 * ground, the scenario keys that set them, and the trigonometry-free angle they rest on.
 *
 * Positions are written as YAML; each case moves the same vehicle with the same dice stream
 * and compares distances, so the d3 of the move cancels out.
 */
#include "vk_fixture.h"

#include "opfor/geom.h"

#include "engine_int.h"

/* A 72 x 48 table with one vehicle (facing north, +y) on the left and a far enemy picket;
 * `extra` is YAML added to the vehicle's keys, `terrain` a terrain list (may be ""). */
static opfor_scenario_t *vehicle_scenario(const char *extra, const char *terrain) {
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "name: Vehicle test\n"
             "mode: competitive\n"
             "table: {width: 72, depth: 48}\n"
             "sides:\n"
             "  - {name: Blue, edge: bottom}\n"
             "  - {name: Red, edge: top}\n"
             "%s"
             "units:\n"
             "  - name: Car\n"
             "    side: Blue\n"
             "    type: vehicle\n"
             "    self_commanding: true\n"
             "    position: [20, 10]\n"
             "    facing: N\n"
             "%s"
             "    figures:\n"
             "      - {count: 1, equipment: true, weapons: mg}\n"
             "      - {count: 1, weapons: pistol, skills: [leader, crew], positions: [[20, 8]]}\n"
             "  - name: Picket\n"
             "    side: Red\n"
             "    type: infantry\n"
             "    position: [66, 44]\n"
             "    figures:\n"
             "      - {count: 2, weapons: rifle, skills: leader}\n",
             terrain, extra);
    return fx_load(yaml, "vehicle.yaml");
}

/* Where the hull stands after the car makes a move of kind (advance or run) toward dest, from
 * the opening state of seed. */
static opfor_pt_t move_by(int kind, const char *extra, const char *terrain, opfor_pt_t dest,
                          uint64_t seed, int specials) {
    /* a scenario with a machine plays XII unless its rules block turns it off */
    char top[1024];
    snprintf(top, sizeof top, "%s%s", specials ? "" : "rules: {machines: no}\n", terrain);
    opfor_scenario_t *sc = vehicle_scenario(extra, top);
    opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, specials, 0);
    opfor_vk_state_t *st = calloc(1, sizeof *st);
    opfor_vk_state_init(ctx, st, seed);
    fx_activate(ctx, st, 0);
    opfor_vk_action_t a = fx_act(kind, 0);
    a.dest = dest;
    assert_int_equal(opfor_vk_apply(ctx, st, &a, NULL), 0);
    opfor_pt_t p = st->figures[st->units[0].first].pos;
    free(st);
    opfor_vk_ctx_free(ctx);
    fx_scenario_free(sc);
    return p;
}

/* Where the hull stands after the car advances toward dest, from the opening state of seed. */
static opfor_pt_t advance(const char *extra, const char *terrain, opfor_pt_t dest, uint64_t seed,
                          int specials) {
    return move_by(OPFOR_VK_ADVANCE, extra, terrain, dest, seed, specials);
}

static float moved(opfor_pt_t p) {
    return opfor_dist(p, opfor_pt(20, 10));
}

static void vehicle_angle_without_trig(void **state) {
    (void)state;
    const float PI = 3.14159265f;
    assert_float_equal(opfor_vangle(opfor_pt(0, 1), opfor_pt(0, 1)), 0.0f, 1e-6);
    assert_float_equal(opfor_vangle(opfor_pt(0, 1), opfor_pt(1, 0)), PI / 2, 1e-6);
    assert_float_equal(opfor_vangle(opfor_pt(0, 1), opfor_pt(0, -3)), PI, 1e-6);
    assert_float_equal(opfor_vangle(opfor_pt(1, 0), opfor_pt(1, 1)), PI / 4, 1e-6);
    assert_float_equal(opfor_vangle(opfor_pt(1, 0), opfor_pt(-1, 1)), 3 * PI / 4, 1e-6);
    assert_float_equal(opfor_vangle(opfor_pt(2, 0), opfor_pt(1, -1.7320508f)), PI / 3, 1e-6);
    assert_float_equal(opfor_vangle(opfor_pt(0, 0), opfor_pt(1, 0)), 0.0f, 0);
    /* against cos over a sweep: symmetric, within 1e-6 everywhere */
    for (int k = 0; k <= 360; k++) {
        float c = (float)(k - 180) / 180.0f; /* cosine from -1 to 1 */
        float s = sqrtf(1.0f - c * c);
        float ang = opfor_vangle(opfor_pt(1, 0), opfor_pt(c, s));
        assert_float_equal(cosf(ang), c, 2e-6);
        assert_float_equal(ang, opfor_vangle(opfor_pt(c, -s), opfor_pt(1, 0)), 0);
    }
}

/* XII.C: turning costs the frontage times the angle. Straight ahead and a right-angle turn
 * with the same dice differ by 2 * pi / 2 inches (within float noise); without the XII
 * options vehicles turn for free. */
static void vehicle_turning_costs_frontage_times_angle(void **state) {
    (void)state;
    const float PI = 3.14159265f;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        const char *fast = "    speed: fast\n";
        float ahead = moved(advance(fast, "", opfor_pt(20, 46), seed, 1));
        float right = moved(advance(fast, "", opfor_pt(70, 9), seed, 1)); /* from the centre */
        float back = moved(advance(fast, "", opfor_pt(20, 1.5f), seed, 1));
        assert_true(ahead > 5.0f);
        assert_float_equal(ahead - right, 2.0f * OPFOR_RADIUS_EQUIPMENT * PI / 2, 0.02);
        /* reversing is a half turn (the rules have no reverse gear), unless the edge stops it */
        assert_true(back <= ahead - 2.0f * OPFOR_RADIUS_EQUIPMENT * PI + 0.02f);
        float free_ahead = moved(advance(fast, "", opfor_pt(20, 46), seed, 0));
        float free_right = moved(advance(fast, "", opfor_pt(70, 10), seed, 0));
        assert_float_equal(free_ahead, free_right, 0.02);
    }
}

/* XII.C speed classes: slow as transport on foot, fast as transport mounted, very fast and
 * extremely fast twice those (the d3 is added once, so doubled X shows as the difference). */
static void vehicle_speed_classes(void **state) {
    (void)state;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        opfor_pt_t far = opfor_pt(20, 47);
        float slow = moved(advance("    speed: slow\n", "", far, seed, 1));
        float fast = moved(advance("    speed: fast\n", "", far, seed, 1));
        float vfast = moved(advance("    speed: very_fast\n", "", far, seed, 1));
        float xfast = moved(advance("    speed: extremely_fast\n", "", far, seed, 1));
        assert_true(slow > 0.5f && slow < fast);
        assert_true(fast < xfast && slow < vfast);
        /* X doubles: the extra distance is X itself */
        assert_float_equal(vfast - slow, xfast - fast - (fast - slow), 0.05);
        assert_true(vfast - slow >= 1.5f); /* X on foot, 2 in by the default model */
        float unset = moved(advance("", "", far, seed, 1));
        assert_float_equal(unset, slow, 0.01); /* an unmounted model is slow */
    }
}

/* XII.C: the speed class caps every move of a vehicle, a run too (audit row 90): with the same
 * dice a run goes exactly as far as an advance, in every class. */
static void vehicle_runs_are_capped_by_the_speed_class(void **state) {
    (void)state;
    static const char *const CLASS[] = {"    speed: slow\n", "    speed: fast\n",
                                        "    speed: very_fast\n", "    speed: extremely_fast\n"};
    for (uint64_t seed = 1; seed <= 4; seed++)
        for (int c = 0; c < 4; c++) {
            opfor_pt_t far = opfor_pt(20, 47);
            float adv = moved(advance(CLASS[c], "", far, seed, 1));
            float run = moved(move_by(OPFOR_VK_RUN, CLASS[c], "", far, seed, 1));
            assert_true(adv > 0.5f);
            assert_float_equal(run, adv, 0.01);
        }
}

/* XII.C: wheels pay twice the foot cost in rough ground, tracks the same as on foot. */
static void vehicle_tracks_cross_rough_ground(void **state) {
    (void)state;
    const char *rough = "terrain:\n  - {name: Scrub, kind: rough, rect: [10, 12, 20, 30]}\n";
    for (uint64_t seed = 1; seed <= 4; seed++) {
        opfor_pt_t far = opfor_pt(20, 40);
        float wheels = moved(advance("    speed: fast\n", rough, far, seed, 1));
        float tracks = moved(advance("    speed: fast\n    drive: tracked\n", rough, far, seed, 1));
        float open = moved(advance("    speed: fast\n", "", far, seed, 1));
        assert_true(wheels < tracks && tracks < open);
        /* the hull starts 1 in short of the scrub (its base edge at 11): the rest costs 4 in
           an inch on wheels, 2 on tracks */
        float pre = 12.0f - 10.0f;
        assert_float_equal((tracks - pre) * 2.0f, (wheels - pre) * 4.0f, 0.3);
    }
}

/* The scenario keys: named values, vehicles only, not on trains; errors say where. */
static void vehicle_scenario_keys(void **state) {
    (void)state;
    opfor_scenario_t *sc = vehicle_scenario("    speed: very_fast\n    drive: tracked\n", "");
    assert_int_equal(sc->machine[0].speed, OPFOR_SPEED_VERY_FAST);
    assert_int_equal(sc->machine[0].drive, OPFOR_DRIVE_TRACKED);
    assert_int_equal(sc->machine[1].speed, OPFOR_SPEED_UNSET);
    opfor_scenario_free(sc);
    free(sc);
    static const struct {
        const char *yaml, *msg;
        int line;
    } bad[] = {
        {"    speed: warp\n",
         "unknown speed 'warp'; expected one of: slow, fast, very_fast, "
         "extremely_fast",
         15},
        {"    drive: legs\n", "unknown drive 'legs'; expected one of: wheeled, tracked", 15},
        {"    armour: steel\n", "unknown armour 'steel'; expected one of: none, soft, hard", 15},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char yaml[2048];
        snprintf(yaml, sizeof yaml,
                 "name: Bad\nmode: competitive\ntable: {width: 72, depth: 48}\nsides:\n"
                 "  - {name: Blue, edge: bottom}\n  - {name: Red, edge: top}\nunits:\n"
                 "  - name: Car\n    side: Blue\n    type: vehicle\n    self_commanding: true\n"
                 "    position: [20, 10]\n    facing: N\n    figures: [{count: 1, equipment: "
                 "true}, {count: 1, skills: [leader, crew]}]\n%s",
                 bad[i].yaml);
        opfor_scenario_t *b = calloc(1, sizeof *b);
        opfor_diag_t d;
        assert_int_equal(opfor_viktoria_scenario_load_string(yaml, strlen(yaml), "bad.yaml", b, &d),
                         OPFOR_EPARSE);
        if (!strstr(d.msg, bad[i].msg))
            fprintf(stderr, "got %d: %s\n", d.line, d.msg);
        assert_non_null(strstr(d.msg, bad[i].msg));
        assert_int_equal(d.line, bad[i].line);
        opfor_scenario_free(b);
        free(b);
    }
    /* infantry cannot have a speed class */
    const char *inf = "name: Bad\nmode: competitive\ntable: {width: 72, depth: 48}\nsides:\n"
                      "  - {name: Blue, edge: bottom}\n  - {name: Red, edge: top}\nunits:\n"
                      "  - name: Foot\n    side: Blue\n    type: infantry\n    speed: fast\n"
                      "    position: [20, 10]\n    figures: [{count: 2, skills: leader}]\n";
    opfor_scenario_t *b = calloc(1, sizeof *b);
    opfor_diag_t d;
    assert_int_equal(opfor_viktoria_scenario_load_string(inf, strlen(inf), "bad.yaml", b, &d),
                     OPFOR_EPARSE);
    assert_non_null(strstr(d.msg, "speed applies to vehicles (Viktoria! XII.C)"));
    assert_int_equal(d.line, 11);
    opfor_scenario_free(b);
    free(b);
    /* nor armour */
    const char *armoured = "name: Bad\nmode: competitive\ntable: {width: 72, depth: 48}\nsides:\n"
                           "  - {name: Blue, edge: bottom}\n  - {name: Red, edge: top}\nunits:\n"
                           "  - name: Foot\n    side: Blue\n    type: infantry\n    armour: hard\n"
                           "    position: [20, 10]\n    figures: [{count: 2, skills: leader}]\n";
    b = calloc(1, sizeof *b);
    assert_int_equal(
        opfor_viktoria_scenario_load_string(armoured, strlen(armoured), "bad.yaml", b, &d),
        OPFOR_EPARSE);
    assert_non_null(strstr(d.msg, "armour applies to vehicles, automatons and walkers"));
    opfor_scenario_free(b);
    free(b);
}

/* XII.C: a vehicle is targeted at the quality it fires with, its crew's (audit row 94): the
 * same hull in the same blast, roll for roll, comes through more often crewed by the elite
 * than by conscripts (as transport, the old reading, both were hit alike). */
static void vehicle_targeted_at_its_crews_quality(void **state) {
    (void)state;
    static const char *const Q[2] = {"    quality: conscript\n", "    quality: elite\n"};
    int hurt[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        opfor_scenario_t *sc = vehicle_scenario(Q[k], "");
        opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
        for (int s = 0; s < 400; s++) {
            opfor_vk_state_t *st = calloc(1, sizeof *st);
            opfor_vk_state_init(ctx, st, (uint64_t)s);
            int hull = st->units[0].first;
            assert_int_equal(vk_target_class(ctx, st, hull), k ? OPFOR_Q_ELITE : OPFOR_Q_CONSCRIPT);
            vk_blast(ctx, st, opfor_pt(20, 12.5f), 4.0f, OPFOR_VK_BLAST_SHELL, 1, NULL);
            hurt[k] += (st->figures[hull].flags & OPFOR_FIG_WOUNDED) ||
                       !(st->figures[hull].flags & OPFOR_FIG_ALIVE);
            free(st);
        }
        opfor_vk_ctx_free(ctx);
        fx_scenario_free(sc);
    }
    assert_true(hurt[0] > 0);
    assert_true(hurt[1] < hurt[0]);
}

/* XII.A-C: armour is set per machine by the scenario (`armour:`), else by its type (a vehicle
 * hard); under the XII options a shot at it meets that cover (audit row 84). */
static void vehicle_armour_is_the_scenarios(void **state) {
    (void)state;
    static const struct {
        const char *yaml;
        int cover;
    } cases[] = {
        {"", OPFOR_COVER_HARD},
        {"    armour: none\n", OPFOR_COVER_NONE},
        {"    armour: soft\n", OPFOR_COVER_SOFT},
        {"    armour: fortification\n", OPFOR_COVER_FORT},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        opfor_scenario_t *sc = vehicle_scenario(cases[k].yaml, "");
        assert_int_equal(sc->machine[0].armour, cases[k].yaml[0] ? cases[k].cover + 1 : 0);
        opfor_vk_ctx_t *ctx = fx_ctx_opt(sc, 1, 0);
        opfor_vk_state_t *st = calloc(1, sizeof *st);
        opfor_vk_state_init(ctx, st, 1);
        int hull = st->units[0].first;
        assert_int_equal(vk_armour(ctx, st, 0), cases[k].cover);
        /* as the cover of a shot from the open: armour alone */
        assert_int_equal(vk_cover(ctx, st, hull, opfor_pt(20, 40)), cases[k].cover);
        free(st);
        opfor_vk_ctx_free(ctx);
        fx_scenario_free(sc);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vehicle_angle_without_trig),
        cmocka_unit_test(vehicle_turning_costs_frontage_times_angle),
        cmocka_unit_test(vehicle_speed_classes),
        cmocka_unit_test(vehicle_runs_are_capped_by_the_speed_class),
        cmocka_unit_test(vehicle_tracks_cross_rough_ground),
        cmocka_unit_test(vehicle_scenario_keys),
        cmocka_unit_test(vehicle_armour_is_the_scenarios),
        cmocka_unit_test(vehicle_targeted_at_its_crews_quality),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
