/* tests/rulesets/test_calc.c — the Viktoria! calculator: worked examples with fixed answers
 * (so the defaults cannot drift silently), request parsing and its error messages, rule
 * exceptions, and invariants of every action's default answer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "opfor/viktoria/calc.h"

static opfor_viktoria_model_t M;

static int setup(void **state) {
    (void)state;
    opfor_diag_t d;
    return opfor_viktoria_model_default(&M, &d);
}

/* The logistic function in libm, as an independent check of opfor_sigmoid. */
static double sig(double x) {
    return 1.0 / (1.0 + exp(-x));
}

/* Builds and answers a request from "field=value" pairs; fails the test on any error. */
static void ask(const char *action, opfor_viktoria_result_t *res, const char *const *kv) {
    opfor_viktoria_req_t req;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int id = opfor_viktoria_action_find(action);
    assert_true(id >= 0);
    assert_int_equal(opfor_viktoria_req_init(&req, id), 0);
    for (int i = 0; kv && kv[i]; i += 2)
        if (opfor_viktoria_req_set(&req, kv[i], kv[i + 1], &d) != 0)
            fail_msg("%s --%s %s: %s", action, kv[i], kv[i + 1] ? kv[i + 1] : "", d.msg);
    if (opfor_viktoria_calc(&M, &req, res, &d) != 0)
        fail_msg("%s: %s", action, d.msg);
}

/* Answers a request expected to fail with err and a message containing what. */
static void ask_fails(const char *action, const char *const *kv, int err, const char *what) {
    opfor_viktoria_req_t req;
    opfor_viktoria_result_t res;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int id = opfor_viktoria_action_find(action);
    assert_true(id >= 0);
    opfor_viktoria_req_init(&req, id);
    int rc = 0, called = 0;
    for (int i = 0; kv && kv[i] && rc == 0; i += 2)
        rc = opfor_viktoria_req_set(&req, kv[i], kv[i + 1], &d);
    if (rc == 0) {
        rc = opfor_viktoria_calc(&M, &req, &res, &d);
        called = 1;
    }
    if (rc != err || !strstr(d.msg, what))
        fail_msg("%s: expected %d '%s', got %d '%s'", action, err, what, rc, d.msg);
    if (called) /* a failed answer has no entries */
        assert_int_equal(res.nrolls + res.ntables + res.ndists + res.noutcomes + res.nfacts, 0);
}

static void need_is(const opfor_viktoria_result_t *res, const char *roll, const char *text,
                    double p_exact) {
    const opfor_viktoria_named_roll_t *r = opfor_viktoria_result_roll(res, roll);
    char buf[64];
    if (!r)
        fail_msg("no roll '%s'", roll);
    opfor_roll_format(&r->roll, buf, sizeof buf);
    if (strcmp(buf, text) != 0)
        fail_msg("%s: need '%s', got '%s' (p %.6f)", roll, text, buf, r->roll.p_exact);
    if (p_exact >= 0 && fabs(r->roll.p_exact - p_exact) > 1e-12)
        fail_msg("%s: p_exact %.15f, want %.15f", roll, r->roll.p_exact, p_exact);
    assert_true(fabs(r->roll.p_rendered - r->roll.p_exact - r->roll.error) < 1e-15);
}

static void table_is(const opfor_viktoria_result_t *res, const char *name, const char *want) {
    const opfor_viktoria_table_t *t = opfor_viktoria_result_table(res, name);
    char buf[512];
    size_t len = 0;
    if (!t)
        fail_msg("no table '%s'", name);
    buf[0] = 0;
    for (int i = 0; i < t->n; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%d-%d %s", i ? "; " : "",
                                t->e[i].lo, t->e[i].hi, t->e[i].text);
    if (strcmp(buf, want) != 0)
        fail_msg("table %s: '%s', want '%s'", name, buf, want);
}

/* ------------------------------------------------------------------ worked examples */

static void calc_rifle_veteran_at_soldier_in_soft_cover(void **state) {
    (void)state;
    opfor_viktoria_result_t r;
    const char *kv[] = {"actor", "veteran", "target", "soldier", "cover",
                        "soft",  "range",   "20",     NULL};
    ask("fire_rifle", &r, kv);
    double hit = sig(0.35 + 0.0 - 0.5 + 0.0), save = sig(-1.3);
    need_is(&r, "hit", "4+", hit);
    need_is(&r, "critical", "6, then 6+", 1.0 / 36.0);
    need_is(&r, "save", "6+", save);
    table_is(&r, "effect", "1-2 scratch; 3-5 wounded; 6-6 killed");
    const opfor_viktoria_outcome_t *k = opfor_viktoria_result_outcome(&r, "killed");
    assert_non_null(k);
    double harm = (hit - 1.0 / 36.0) * (1.0 - save);
    assert_true(fabs(k->p_exact - (1.0 / 36.0 + harm / 6.0)) < 1e-12);
    assert_true(fabs(k->p_rendered - (1.0 / 36.0 + (0.5 - 1.0 / 36.0) * (5.0 / 6.0) / 6.0)) <
                1e-12);
    assert_string_equal(r.facts[1].text, "medium");
}

static void calc_pistol_and_other_fire(void **state) {
    (void)state;
    opfor_viktoria_result_t r;
    const char *kv[] = {"actor", "elite", "target", "conscript", "range", "1", NULL};
    ask("fire_pistol", &r, kv);
    need_is(&r, "hit", "2+", sig(0.8 + 0.15 + 0.6));
    need_is(&r, "save", "6+", sig(-1.7 + 0.4 - 0.3));
    /* every modifier at once: a wounded, moving, mounted sharpshooter */
    const char *kv2[] = {"actor",
                         "soldier",
                         "target",
                         "veteran",
                         "cover",
                         "hard",
                         "range",
                         "long",
                         "actor-mounted",
                         NULL,
                         "moving",
                         "yes",
                         "actor-wounded",
                         "true",
                         "sharpshooter",
                         "1",
                         "target-wounded",
                         "on",
                         "target-mounted",
                         "",
                         "target-running",
                         "yes",
                         NULL};
    ask("fire_carbine", &r, kv2);
    double x = -0.2 - 0.1 - 0.8 - 0.9 - 0.6 - 0.5 - 0.5 + 0.3 - 0.6 + 0.4 + 0.7;
    need_is(&r, "hit", "6, then 5+", sig(x));
    need_is(&r, "save", "4+", sig(-1.0 + 1.2 + 0.2 + 0.3 - 0.4 - 0.2));
    table_is(&r, "effect", "1-2 scratch (already wounded); 3-6 killed");
}

static void calc_lance_charge(void **state) {
    (void)state;
    opfor_viktoria_result_t r;
    const char *kv[] = {"actor", "soldier", "target", "soldier", "charging", NULL, NULL};
    ask("attack_lance", &r, kv);
    need_is(&r, "hit", "2+", sig(0.0 + 0.0 + 0.0 + 0.2 + 0.4 + 0.6 + 0.4));
    need_is(&r, "save", "6+", sig(-1.3 - 0.4));
    table_is(&r, "effect", "1-1 scratch; 2-4 wounded; 5-6 killed");
    assert_null(opfor_viktoria_result_roll(&r, "critical")); /* criticals are for fire */
}

static void calc_morale_and_rally(void **state) {
    (void)state;
    opfor_viktoria_result_t r;
    const char *kv[] = {"actor", "veteran", "general", "yes", NULL};
    ask("check_morale", &r, kv);
    need_is(&r, "pass", "5+ on 2D6", sig(1.3 + 0.6));
    assert_string_equal(r.rolls[0].dice, "2D6");
    const char *kv2[] = {"actor", "conscript", "half-strength", NULL, NULL};
    ask("check_morale", &r, kv2);
    need_is(&r, "pass", "9+ on 2D6", sig(0.1 - 0.9));
    const char *kv3[] = {"actor", "soldier", "musician", "yes", "colours", "yes", NULL};
    ask("rally", &r, kv3);
    need_is(&r, "pass", "6+ on 2D6", sig(0.1 + 0.3 + 0.4));
}

static void calc_movement_distances(void **state) {
    (void)state;
    opfor_viktoria_result_t r;
    const char *kv[] = {"actor", "soldier", "terrain", "rough", "obstacles", "1", NULL};
    ask("advance", &r, kv);
    const opfor_viktoria_distance_t *d = opfor_viktoria_result_distance(&r, "move");
    assert_non_null(d);
    assert_true(d->min == 5 && d->max == 7 && d->mean == 6);
    d = opfor_viktoria_result_distance(&r, "adjusted");
    assert_non_null(d);
    assert_true(d->min == 2 && d->max == 3 && d->mean == 2.5);
    assert_int_equal(d->num, 1);
    assert_int_equal(d->den, 2);
    /* mounted in the rough: a quarter */
    const char *kv2[] = {"actor", "veteran", "actor-mounted", "yes", "terrain", "rough", NULL};
    ask("run_gallop", &r, kv2);
    d = opfor_viktoria_result_distance(&r, "adjusted");
    assert_true(d->min == 17 / 4.0 && d->max == 19 / 4.0);
    /* roads: figures gain nothing, transport and limbered guns double */
    const char *kv3[] = {"actor", "veteran", "actor-mounted", "yes", "terrain", "road", NULL};
    ask("run_gallop", &r, kv3);
    d = opfor_viktoria_result_distance(&r, "adjusted");
    assert_true(d->min == 17 && d->max == 19);
    const char *kv4[] = {"actor", "transport", "actor-mounted", "yes", "terrain", "road", NULL};
    ask("advance", &r, kv4);
    d = opfor_viktoria_result_distance(&r, "adjusted");
    assert_true(d->min == 14 && d->max == 18 && d->mean == 16);
    const char *kv5[] = {"actor", "soldier", "limbered", "yes", "terrain", "road", NULL};
    ask("advance", &r, kv5);
    d = opfor_viktoria_result_distance(&r, "adjusted");
    assert_true(d->min == 10 && d->max == 14);
    /* crawl is slowest; a wounded crawler slower still; never below zero */
    const char *kv6[] = {"actor", "civilian", "actor-wounded", "yes", "obstacles", "3", NULL};
    ask("crawl", &r, kv6);
    d = opfor_viktoria_result_distance(&r, "move");
    assert_true(d->min == 1 && d->max == 3);
    d = opfor_viktoria_result_distance(&r, "adjusted");
    assert_true(d->min == 0 && d->max == 0 && d->mean == 0);
}

static void calc_support_fire(void **state) {
    (void)state;
    opfor_viktoria_result_t r;
    ask("call_support_fire", &r, NULL);
    need_is(&r, "call", "10+ on 2D6", 6.0 / 36.0);
    const char *kv[] = {"registered", "2", "guns", "heavy", NULL};
    ask("call_support_fire", &r, kv);
    need_is(&r, "call", "8+ on 2D6", 15.0 / 36.0);
    table_is(&r, "natural",
             "2-3 communications fail: no fire, registration lost; 4-7 no fire "
             "this turn; +1 more next turn on this point; 8-12 fire arrives");
    need_is(&r, "on_target", "5+", sig(-0.6)); /* always the longest bracket */
    assert_true(r.facts[0].value == 6);        /* heavy guns: 6 in blast */
    const char *kv2[] = {"registered", "20", NULL};
    ask("call_support_fire", &r, kv2);
    need_is(&r, "call", "4+ on 2D6", 33.0 / 36.0); /* a natural 2-3 still fails */
    const opfor_viktoria_outcome_t *o = opfor_viktoria_result_outcome(&r, "comms_lost");
    assert_true(fabs(o->p_exact - 3.0 / 36.0) < 1e-15);
}

static void calc_artillery_and_bombs(void **state) {
    (void)state;
    opfor_viktoria_result_t r;
    const char *kv[] = {"range", "30", NULL};
    ask("fire_artillery", &r, kv);
    need_is(&r, "on_target", "4+", sig(0.0));
    const opfor_viktoria_distance_t *d = opfor_viktoria_result_distance(&r, "deviation");
    assert_true(d->min == 2 && d->max == 12 && d->mean == 7);
    const opfor_viktoria_table_t *t = opfor_viktoria_result_table(&r, "direction");
    assert_int_equal(t->n, 8);
    const char *kv2[] = {"actor", "veteran", "range", "2", NULL};
    ask("throw_bomb", &r, kv2);
    need_is(&r, "on_target", "3+", sig(0.6 + 0.4));
    assert_true(r.facts[r.nfacts - 1].value == 2); /* 2 in blast */
}

static void calc_tests_versus_mg_and_blast(void **state) {
    (void)state;
    opfor_viktoria_result_t r;
    const char *kv[] = {"actor", "soldier", "cover", "soft", NULL};
    ask("test_vs_mg", &r, kv);
    need_is(&r, "pass", "3+", sig(0.2 + 0.4 - 0.2));
    const char *kv2[] = {"actor", "transport", "cover", "fortification", NULL};
    ask("test_vs_blast", &r, kv2);
    need_is(&r, "pass", "2+, re-roll a 1 needing 3+", sig(0.6 + 2.2));
    table_is(&r, "effect", "1-1 no damage; 2-4 damaged; 5-6 destroyed");
    /* a walker (transport in fortifications) is proof against small arms and MGs (XII.E) */
    ask("test_vs_mg", &r, kv2);
    need_is(&r, "pass", "automatic", 1.0);
    const char *kv3[] = {"target", "transport", "cover", "fortification", NULL};
    ask("fire_rifle", &r, kv3);
    need_is(&r, "hit", "no chance", 0.0);
    need_is(&r, "critical", "no chance", 0.0);
    assert_true(opfor_viktoria_result_outcome(&r, "killed")->p_exact == 0.0);
}

static void calc_command_mesmerism_heal(void **state) {
    (void)state;
    opfor_viktoria_result_t r;
    const char *kv[] = {"actor", "veteran", "range", "30", NULL};
    ask("test_out_of_command", &r, kv);
    need_is(&r, "pass", "4+", sig(0.9 - 0.06 * 12));
    const char *kv2[] = {"actor", "veteran", "range", "30", "weather", "5", NULL};
    ask("test_out_of_command", &r, kv2);
    need_is(&r, "pass", "5+", sig(0.9 - 0.06 * 24));
    const char *kv3[] = {"actor", "veteran", "range", "18", NULL};
    ask("test_out_of_command", &r, kv3);
    need_is(&r, "pass", "automatic", 1.0);
    const char *kv4[] = {"range", "10", "weather", "high_winds", NULL};
    ask("test_out_of_command", &r, kv4);
    need_is(&r, "pass", "automatic", 1.0); /* 12 in radius at level 4 */
    const char *kv5[] = {"actor", "elite", "target", "civilian", "range", "1", NULL};
    ask("hypnotic_attack", &r, kv5);
    need_is(&r, "mesmerise", "2+", sig(0.4 + 0.6 + 0.6));
    const char *kv6[] = {"actor", "conscript", NULL};
    ask("test_vs_mesmerism", &r, kv6);
    need_is(&r, "break", "5+", sig(-1.0));
    ask("heal", &r, NULL);
    need_is(&r, "heal", "4+", 0.5);
}

static void calc_weather_event(void **state) {
    (void)state;
    opfor_viktoria_result_t r;
    const char *kv[] = {"level", "3", "wind", "nw", NULL};
    ask("weather_event", &r, kv);
    table_is(&r, "level", "1-1 falls one level; 2-5 no change; 6-6 rises one level");
    const opfor_viktoria_table_t *t = opfor_viktoria_result_table(&r, "level");
    assert_int_equal(t->e[0].value, 2);
    assert_int_equal(t->e[2].value, 4);
    t = opfor_viktoria_result_table(&r, "wind");
    assert_int_equal(t->n, 5);
    assert_int_equal(t->e[0].value, OPFOR_SW); /* backs (anticlockwise) two points from NW */
    assert_int_equal(t->e[1].value, OPFOR_W);
    assert_int_equal(t->e[3].value, OPFOR_N);  /* veers one */
    assert_int_equal(t->e[4].value, OPFOR_NE); /* veers two */
    assert_true(fabs(t->e[2].p - 24.0 / 36.0) < 1e-15);
    /* the random starting level: a D6 less two, at least 1 (XIII) */
    t = opfor_viktoria_result_table(&r, "start_level");
    assert_non_null(t);
    assert_int_equal(t->n, 4);
    assert_int_equal(t->e[0].value, 1);
    assert_true(fabs(t->e[0].p - 0.5) < 1e-15);
    assert_int_equal(t->e[3].value, 4);
    assert_true(fabs(t->e[3].p - 1.0 / 6.0) < 1e-15);
    /* clamped at the ends */
    const char *kv2[] = {"level", "gale", NULL};
    ask("weather_event", &r, kv2);
    t = opfor_viktoria_result_table(&r, "level");
    assert_int_equal(t->e[2].value, 5);
    assert_int_equal(opfor_viktoria_result_table(&r, "wind")->e[0].value, OPFOR_VK_UNSET);
    assert_int_equal(opfor_viktoria_command_radius(5), 6);
    assert_int_equal(opfor_viktoria_musician_radius(4), 18);
}

/* ------------------------------------------------------------------ errors */

static void calc_rule_errors(void **state) {
    (void)state;
    const char *a[] = {"range", "12", NULL};
    ask_fails("fire_pistol", a, OPFOR_ERANGE, "out of range: a pistol reaches 9 in at most");
    const char *b[] = {"range", "40", NULL};
    ask_fails("fire_carbine", b, OPFOR_ERANGE, "36 in at most");
    const char *c[] = {"range", "7", NULL};
    ask_fails("throw_bomb", c, OPFOR_ERANGE, "6 in at most");
    const char *d[] = {"range", "9.5", NULL};
    ask_fails("hypnotic_attack", d, OPFOR_ERANGE, "9 in at most");
    const char *e[] = {"actor-mounted", "no", NULL};
    ask_fails("attack_lance", e, OPFOR_EILLEGAL, "horseback");
    const char *f[] = {"target-running", NULL, "target-prone", NULL, NULL};
    ask_fails("fire_rifle", f, OPFOR_EILLEGAL, "running and prone");
}

static void calc_request_errors_list_what_is_allowed(void **state) {
    (void)state;
    const char *a[] = {"actor", "sergeant", NULL};
    ask_fails("fire_rifle", a, OPFOR_EINVAL,
              "bad value 'sergeant' for --actor (fire_rifle); allowed: civilian, conscript, "
              "soldier, veteran, elite");
    const char *b[] = {"colour", "yes", NULL};
    ask_fails("check_morale", b, OPFOR_ENOENT,
              "unknown field --colour; check_morale takes: --actor, --general, --musician, "
              "--colours, --half-strength");
    const char *c[] = {"general", NULL, NULL};
    ask_fails("fire_rifle", c, OPFOR_EINVAL, "fire_rifle has no field --general");
    const char *d[] = {"cover", "wall", NULL};
    ask_fails("fire_rifle", d, OPFOR_EINVAL, "allowed: none, soft, hard, fortification");
    const char *e[] = {"registered", "21", NULL};
    ask_fails("call_support_fire", e, OPFOR_ERANGE, "0..20");
    const char *f[] = {"range", "far", NULL};
    ask_fails("fire_rifle", f, OPFOR_EINVAL, "point_blank, short, medium, long");
    const char *g[] = {"range", "short", NULL};
    ask_fails("test_out_of_command", g, OPFOR_EINVAL, "inches");
    const char *h[] = {"actor", "transport", NULL};
    ask_fails("charge", h, OPFOR_EINVAL, "allowed: civilian");
    const char *i[] = {"actor-mounted", "maybe", NULL};
    ask_fails("advance", i, OPFOR_EINVAL, "yes, no");
    const char *j[] = {"wind", "up", NULL};
    ask_fails("weather_event", j, OPFOR_EINVAL, "N, NE, E");
    const char *k[] = {"range", "-3", NULL};
    ask_fails("fire_rifle", k, OPFOR_ERANGE, "bad value '-3'");
    assert_int_equal(opfor_viktoria_action_find("fire-rifle"), OPFOR_VK_A_FIRE_RIFLE);
    assert_int_equal(opfor_viktoria_action_find("FIRE_RIFLE"), OPFOR_VK_A_FIRE_RIFLE);
    assert_int_equal(opfor_viktoria_action_find("fire_cannon"), OPFOR_ENOENT);
    assert_int_equal(opfor_viktoria_field_find("half_strength"), OPFOR_VK_F_HALF_STRENGTH);
    assert_int_equal(opfor_viktoria_field_find("colors"), OPFOR_VK_F_COLOURS);
    /* a hand-filled request with a bad value is refused, not read out of bounds */
    opfor_viktoria_req_t req;
    opfor_viktoria_result_t res;
    opfor_diag_t dg;
    opfor_viktoria_req_init(&req, OPFOR_VK_A_FIRE_RIFLE);
    req.v[OPFOR_VK_F_ACTOR] = 9;
    assert_int_equal(opfor_viktoria_calc(&M, &req, &res, &dg), OPFOR_EINVAL);
    assert_int_equal(res.nrolls, 0);
    req.action = 999;
    assert_int_equal(opfor_viktoria_calc(&M, &req, &res, &dg), OPFOR_EINVAL);
}

static void calc_request_parsing_forms(void **state) {
    (void)state;
    opfor_viktoria_req_t req;
    opfor_diag_t d;
    char buf[64];
    opfor_viktoria_req_init(&req, OPFOR_VK_A_FIRE_RIFLE);
    assert_int_equal(req.v[OPFOR_VK_F_ACTOR], OPFOR_Q_SOLDIER); /* defaults */
    assert_int_equal(req.v[OPFOR_VK_F_RANGE], OPFOR_VK_SHORT);
    assert_int_equal(req.set, 0);
    assert_int_equal(opfor_viktoria_req_set(&req, "actor", "Officer", &d), 0);
    assert_int_equal(req.v[OPFOR_VK_F_ACTOR], OPFOR_Q_ELITE);
    const char *ranges[] = {"20", "20in", "20 in", "20\"", "20 inches", "20.0"};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        assert_int_equal(opfor_viktoria_req_set(&req, "range", ranges[i], &d), 0);
        assert_int_equal(req.v[OPFOR_VK_F_RANGE], OPFOR_VK_INCHES);
        assert_true(req.inches == 20.0);
    }
    assert_string_equal(opfor_viktoria_req_value(&req, OPFOR_VK_F_RANGE, buf, sizeof buf), "20 in");
    assert_int_equal(opfor_viktoria_req_set(&req, "range", "point-blank", &d), 0);
    assert_int_equal(req.v[OPFOR_VK_F_RANGE], OPFOR_VK_POINT_BLANK);
    assert_int_equal(opfor_viktoria_req_set(&req, "actor_mounted", NULL, &d), 0);
    assert_int_equal(req.v[OPFOR_VK_F_ACTOR_MOUNTED], 1);
    assert_int_equal(opfor_viktoria_req_set(&req, "actor-mounted", "no", &d), 0);
    assert_int_equal(req.v[OPFOR_VK_F_ACTOR_MOUNTED], 0);
    assert_true(req.set & (1u << OPFOR_VK_F_ACTOR_MOUNTED));
    opfor_viktoria_req_t before = req;
    assert_int_equal(opfor_viktoria_req_set(&req, "actor", "nobody", &d), OPFOR_EINVAL);
    assert_memory_equal(&req, &before, sizeof req); /* unchanged on error */
    opfor_viktoria_req_init(&req, OPFOR_VK_A_ATTACK_LANCE);
    assert_int_equal(req.v[OPFOR_VK_F_ACTOR_MOUNTED], 1); /* lancers ride */
    char allowed[256];
    opfor_viktoria_field_allowed(&M, OPFOR_VK_A_FIRE_PISTOL, OPFOR_VK_F_RANGE, allowed,
                                 sizeof allowed);
    assert_string_equal(allowed, "inches 0-9, or point_blank (to 2 in), short (to 4 in), medium "
                                 "(to 6 in), long (to 9 in)");
    opfor_viktoria_action_list(allowed, sizeof allowed);
    assert_non_null(strstr(allowed, "fire_pistol, fire_carbine, fire_rifle"));
}

static void same_rolls(const opfor_viktoria_result_t *a, const opfor_viktoria_result_t *b) {
    assert_int_equal(a->nrolls, b->nrolls);
    for (int i = 0; i < a->nrolls; i++) {
        const opfor_roll_t *x = &a->rolls[i].roll, *y = &b->rolls[i].roll;
        assert_string_equal(a->rolls[i].name, b->rolls[i].name);
        assert_true(x->kind == y->kind && x->need == y->need && x->need2 == y->need2);
        assert_true(x->p_exact == y->p_exact && x->p_rendered == y->p_rendered);
    }
}

/* Every action answers its defaults; chances are chances; rendering errs by at most 1/12;
 * tables and outcomes add up to one; the same request gives the same bytes. */
static void calc_every_action_default_is_sane(void **state) {
    (void)state;
    for (int id = 0; id < OPFOR_VK_A_COUNT; id++) {
        const opfor_viktoria_action_t *a = opfor_viktoria_action_get(id);
        assert_non_null(a);
        assert_int_equal(opfor_viktoria_action_find(a->name), id);
        opfor_viktoria_req_t req;
        opfor_viktoria_result_t r1, r2;
        opfor_diag_t d;
        opfor_viktoria_req_init(&req, id);
        if (opfor_viktoria_calc(&M, &req, &r1, &d) != 0)
            fail_msg("%s: %s", a->name, d.msg);
        assert_int_equal(r1.action, id);
        assert_true(r1.nrolls + r1.ndists + r1.ntables > 0);
        for (int i = 0; i < r1.nrolls; i++) {
            const opfor_roll_t *x = &r1.rolls[i].roll;
            assert_true(x->p_exact >= 0 && x->p_exact <= 1);
            assert_true(fabs(x->error) <= 1.0 / 12.0 + 1e-12);
        }
        for (int i = 0; i < r1.ntables; i++) {
            double sum = 0;
            for (int k = 0; k < r1.tables[i].n; k++)
                sum += r1.tables[i].e[k].p;
            if (fabs(sum - 1.0) > 1e-12)
                fail_msg("%s: table %s sums to %g", a->name, r1.tables[i].name, sum);
        }
        const opfor_viktoria_outcome_t *k = opfor_viktoria_result_outcome(&r1, "killed");
        if (k) {
            const opfor_viktoria_outcome_t *w = opfor_viktoria_result_outcome(&r1, "wounded");
            const opfor_viktoria_outcome_t *u = opfor_viktoria_result_outcome(&r1, "unharmed");
            assert_true(fabs(k->p_exact + w->p_exact + u->p_exact - 1) < 1e-12);
            assert_true(fabs(k->p_rendered + w->p_rendered + u->p_rendered - 1) < 1e-12);
        }
        assert_int_equal(opfor_viktoria_calc(&M, &req, &r2, &d), 0);
        same_rolls(&r1, &r2);
        /* the model is plain data: a memcpy'd copy answers the same */
        opfor_viktoria_model_t copy;
        memcpy(&copy, &M, sizeof copy);
        assert_int_equal(opfor_viktoria_calc(&copy, &req, &r2, &d), 0);
        same_rolls(&r1, &r2);
    }
}

/* XII.D: each altitude level between firer and target is one more range bracket. For every
 * firearm, MG and gun, every bracket and every level, the answer with --altitude equals the
 * answer at the shifted bracket (the engine's opfor_viktoria_bracket_aloft); past the last
 * bracket a pistol or carbine is out of range, a rifle, MG or gun stays at long. */
static void calc_altitude_adds_brackets(void **state) {
    (void)state;
    static const int acts[] = {OPFOR_VK_A_FIRE_PISTOL, OPFOR_VK_A_FIRE_CARBINE,
                               OPFOR_VK_A_FIRE_RIFLE, OPFOR_VK_A_TEST_VS_MG,
                               OPFOR_VK_A_FIRE_ARTILLERY};
    const char *first[] = {"hit", "hit", "hit", "pass", "on_target"};
    for (int k = 0; k < 5; k++) {
        const opfor_viktoria_action_t *a = opfor_viktoria_action_get(acts[k]);
        for (int b = 0; b < OPFOR_VK_BRACKET_COUNT; b++)
            for (int lv = 0; lv <= 9; lv++) {
                opfor_viktoria_req_t req, at;
                opfor_viktoria_result_t r1, r2;
                opfor_diag_t d;
                opfor_viktoria_req_init(&req, acts[k]);
                req.v[OPFOR_VK_F_RANGE] = b;
                req.v[OPFOR_VK_F_ALTITUDE] = lv;
                /* the same shot by inches: the bracket's upper edge, or 10 in beyond the last
                   finite one */
                double e = M.range_edge[a->ranged][b];
                double inches = isinf(e) ? M.range_edge[a->ranged][b - 1] + 10.0 : e;
                int want = opfor_viktoria_bracket_aloft(&M, (opfor_viktoria_ranged_t)a->ranged,
                                                        inches, lv);
                int rc = opfor_viktoria_calc(&M, &req, &r1, &d);
                if (want < 0) {
                    assert_int_equal(rc, OPFOR_ERANGE);
                    assert_non_null(strstr(d.msg, "altitude level"));
                    assert_true(b + lv >= OPFOR_VK_BRACKET_COUNT);
                    assert_true(acts[k] == OPFOR_VK_A_FIRE_PISTOL ||
                                acts[k] == OPFOR_VK_A_FIRE_CARBINE);
                    continue;
                }
                assert_int_equal(rc, 0);
                assert_int_equal(
                    want, b + lv < OPFOR_VK_BRACKET_COUNT ? b + lv : OPFOR_VK_BRACKET_COUNT - 1);
                opfor_viktoria_req_init(&at, acts[k]);
                at.v[OPFOR_VK_F_RANGE] = want;
                assert_int_equal(opfor_viktoria_calc(&M, &at, &r2, &d), 0);
                const opfor_viktoria_named_roll_t *x = opfor_viktoria_result_roll(&r1, first[k]);
                const opfor_viktoria_named_roll_t *y = opfor_viktoria_result_roll(&r2, first[k]);
                assert_non_null(x);
                assert_non_null(y);
                assert_true(x->roll.p_exact == y->roll.p_exact);
                assert_int_equal(x->roll.need, y->roll.need);
                /* by inches as well */
                req.v[OPFOR_VK_F_RANGE] = OPFOR_VK_INCHES;
                req.inches = inches;
                assert_int_equal(opfor_viktoria_calc(&M, &req, &r1, &d), 0);
                x = opfor_viktoria_result_roll(&r1, first[k]);
                assert_true(x->roll.p_exact == y->roll.p_exact);
            }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(calc_altitude_adds_brackets),
        cmocka_unit_test(calc_rifle_veteran_at_soldier_in_soft_cover),
        cmocka_unit_test(calc_pistol_and_other_fire),
        cmocka_unit_test(calc_lance_charge),
        cmocka_unit_test(calc_morale_and_rally),
        cmocka_unit_test(calc_movement_distances),
        cmocka_unit_test(calc_support_fire),
        cmocka_unit_test(calc_artillery_and_bombs),
        cmocka_unit_test(calc_tests_versus_mg_and_blast),
        cmocka_unit_test(calc_command_mesmerism_heal),
        cmocka_unit_test(calc_weather_event),
        cmocka_unit_test(calc_rule_errors),
        cmocka_unit_test(calc_request_errors_list_what_is_allowed),
        cmocka_unit_test(calc_request_parsing_forms),
        cmocka_unit_test(calc_every_action_default_is_sane),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
