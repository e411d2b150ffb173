/* tests/ai/test_orders.c — orders as sentences, for fixed actions on positions built in code.
 *
 * Checks the words a player reads: the unit, the verb, the distance and compass direction,
 * the landmark and the end point in inches, the target with its distance, the scores needed
 * (which must match the calculator's answer for the same fields), the reason and the
 * runner-up with its value, and the verbose list of alternatives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ai/viktoria_fixture.h"
#include "ai/vkfix_units.h"
#include "opfor/orders.h"
#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/engine_query.h"

/* clang-format off */
static const char FIELD[] =
    VKFIX_HEAD
    "terrain:\n"
    "  - {name: Farmhouse, kind: building, rect: [46, 30, 6, 4]}\n"
    "  - {name: Long hedge, kind: hedge, line: [[2, 36], [30, 36]]}\n"
    "units:\n"
    VKFIX_UNIT("Fusiliers", "Red", "infantry", "[36, 14]")
    "      - {count: 10, quality: veteran, weapons: [rifle, bayonet]}\n"
    VKFIX_UNIT("Uhlans", "Red", "cavalry", "[60, 14]")
    "      - {count: 6, mounted: true, weapons: [lance, sword]}\n"
    VKFIX_UNIT("Jager", "Blue", "infantry", "[36, 30]") VKFIX_RIFLES(8)
    VKFIX_UNIT("Gunners", "Blue", "artillery", "[62, 22]") VKFIX_TEAM("field_gun")
    "objectives:\n"
    "  - {name: The Farm, position: [49, 32], radius: 4, points: 5}\n";
/* clang-format on */

static void orders_advance_sentence(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, FIELD, 1), 0);
    int u = vkfix_act(&f, "Fusiliers");
    opfor_pt_t c = vkfix_centre(&f, u);
    /* due north-east toward the farm, far beyond one move */
    opfor_action_t a = vkfix_action(OPFOR_VK_ADVANCE, u, -1, c.x + 10.0f, c.y + 10.0f);
    opfor_order_t o;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    float allow = opfor_vk_query_move(opfor_vk_rs_engine(f.ctx), &f.st->vk, u, OPFOR_VK_ADVANCE);
    assert_int_equal(o.unit, u);
    assert_string_equal(o.unit_name, "Fusiliers");
    assert_string_equal(o.verb, "advance");
    assert_int_equal(o.has_move, 1);
    assert_string_equal(o.direction, "NE");
    assert_float_equal(o.move_in, (float)(int)(allow * 2.0f + 0.5f) / 2.0f, 1e-6);
    assert_float_equal(o.x, c.x + allow * 0.70710678f, 0.05);
    assert_float_equal(o.y, c.y + allow * 0.70710678f, 0.05);
    assert_string_equal(o.landmark, "The Farm"); /* objectives first */
    assert_string_equal(o.landmark_rel, "toward");
    char want[160];
    snprintf(want, sizeof want, "Fusiliers: advance %g in NE toward The Farm, to x %.1f y %.1f",
             (double)o.move_in, (double)o.x, (double)o.y);
    assert_non_null(strstr(o.sentence, want));
    assert_non_null(strstr(o.sentence, "(move 1d3+")); /* the move roll, from the calculator */
    assert_int_equal(o.target, -1);
    assert_true(o.reason[0] != 0);
    assert_int_equal(o.has_runner_up, 0);

    /* a short move west stops at the point itself, near the hedge's end */
    a = vkfix_action(OPFOR_VK_ADVANCE, u, -1, c.x - 2.0f, c.y);
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_string_equal(o.direction, "W");
    assert_float_equal(o.move_in, 2.0, 1e-6);
    assert_float_equal(o.x, c.x - 2.0f, 1e-4);
    /* taking cover in place is not a move */
    a = vkfix_action(OPFOR_VK_CRAWL, u, -1, c.x, c.y);
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_int_equal(o.has_move, 0);
    assert_string_equal(o.sentence, "Fusiliers: take cover where it stands (go prone).");
    vkfix_close(&f);
}

static void orders_fire_quotes_the_calculator(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, FIELD, 2), 0);
    int u = vkfix_act(&f, "Fusiliers"), t = vkfix_unit(&f, "Jager");
    opfor_action_t a = vkfix_action(OPFOR_VK_FIRE, u, t, 0.0f, 0.0f);
    opfor_order_t o;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_string_equal(o.verb, "fire at");
    assert_string_equal(o.target_name, "Jager");
    float gap = opfor_vk_query_gap(&f.st->vk, u, t);
    assert_float_equal(o.target_gap, gap, 1e-4);
    /* the same question put to the calculator by hand */
    opfor_viktoria_req_t req;
    assert_int_equal(opfor_viktoria_req_init(&req, OPFOR_VK_A_FIRE_RIFLE), 0);
    char in[32];
    snprintf(in, sizeof in, "%.1f", (double)gap);
    assert_int_equal(opfor_viktoria_req_set(&req, "actor", "veteran", NULL), 0);
    assert_int_equal(opfor_viktoria_req_set(&req, "target", "soldier", NULL), 0);
    assert_int_equal(opfor_viktoria_req_set(&req, "range", in, NULL), 0);
    opfor_viktoria_result_t res;
    assert_int_equal(
        opfor_viktoria_calc(opfor_vk_query_model(opfor_vk_rs_engine(f.ctx)), &req, &res, NULL), 0);
    char hit[32], save[32];
    opfor_roll_format(&opfor_viktoria_result_roll(&res, "hit")->roll, hit, sizeof hit);
    opfor_roll_format(&opfor_viktoria_result_roll(&res, "save")->roll, save, sizeof save);
    /* the effect of each hit not saved, from the calculator's D6 effect table (IX) */
    const opfor_viktoria_table_t *eff = opfor_viktoria_result_table(&res, "effect");
    assert_non_null(eff);
    int wound = 0, kill = 0;
    for (int i = 0; i < eff->n; i++) {
        if (!wound && strcmp(eff->e[i].text, "wounded") == 0)
            wound = eff->e[i].lo;
        if (!kill && strcmp(eff->e[i].text, "killed") == 0)
            kill = eff->e[i].lo;
    }
    assert_true(wound > 0 && kill > wound);
    char effect[32];
    snprintf(effect, sizeof effect, "%d+ wounds / %d%s kills", wound, kill, kill < 6 ? "+" : "");
    assert_int_equal(o.nrolls, 3);
    assert_string_equal(o.rolls[2].label, "effect");
    assert_string_equal(o.rolls[2].need, effect);
    assert_string_equal(o.rolls[2].per, "unsaved hit");
    assert_string_equal(o.rolls[0].label, "to hit");
    assert_string_equal(o.rolls[0].need, hit);
    assert_string_equal(o.rolls[1].label, "save");
    assert_string_equal(o.rolls[1].need, save);
    /* how many figures fire and on how many dice: the engine's own count of shots */
    assert_int_equal(o.figures_how, OPFOR_ORDER_FIG_EXACT);
    assert_int_equal(o.figures, 10);
    assert_int_equal(o.rolls[0].dice, 10);
    assert_int_equal(o.rolls[1].dice, 0);
    assert_string_equal(o.rolls[1].per, "hit");
    char want[320];
    snprintf(want, sizeof want,
             "Fusiliers: fire at Jager, %.0f in away: 10 figures fire, to hit %s on 10 dice, "
             "save %s per hit, effect %s per unsaved hit.",
             (double)gap, hit, save, effect);
    assert_string_equal(o.sentence, want);
    opfor_vk_state_t *st = malloc(sizeof *st);
    assert_non_null(st);
    *st = f.st->vk;
    opfor_vk_action_t ea;
    opfor_vk_rs_action_to_engine(&a, &ea);
    char evbuf[2048] = "";
    opfor_vk_events_t ev = {evbuf, sizeof evbuf, 0, 0};
    assert_int_equal(opfor_vk_apply(opfor_vk_rs_engine(f.ctx), st, &ea, &ev), 0);
    snprintf(want, sizeof want, "Fusiliers fires at Jager: %d shots", o.figures);
    assert_non_null(strstr(evbuf, want));
    free(st);
    vkfix_close(&f);
}

/* A figure that cannot fire (no firearm, or each of its marks out of sight or behind another
 * figure) is not counted: the order counts the engine's own shooters. */
static void orders_fire_counts_only_shooters(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, FIELD, 2), 0);
    int u = vkfix_act(&f, "Fusiliers"), t = vkfix_unit(&f, "Jager");
    const opfor_unit_t *un = &f.st->vk.units[u];
    /* three of the ten carry only a bayonet; one stands right behind a comrade */
    for (int i = 0; i < 3; i++)
        f.st->vk.figures[un->first + i].weapons = OPFOR_W_BAYONET;
    opfor_pt_t p = f.st->vk.figures[un->first + 5].pos;
    f.st->vk.figures[un->first + 6].pos = opfor_pt(p.x, p.y - 1.1f);
    opfor_action_t a = vkfix_action(OPFOR_VK_FIRE, u, t, 0.0f, 0.0f);
    opfor_order_t o;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    int n = opfor_vk_query_shooters(opfor_vk_rs_engine(f.ctx), &f.st->vk, u, t, 0);
    assert_int_equal(o.figures, n);
    assert_true(n <= 7 && n > 0);
    char want[64];
    snprintf(want, sizeof want, ": %d figures fire, to hit ", n);
    assert_non_null(strstr(o.sentence, want));
    snprintf(want, sizeof want, " on %d dice, save ", n);
    assert_non_null(strstr(o.sentence, want));
    /* the engine fires exactly that many shots */
    opfor_vk_state_t *st = malloc(sizeof *st);
    assert_non_null(st);
    *st = f.st->vk;
    opfor_vk_action_t ea;
    opfor_vk_rs_action_to_engine(&a, &ea);
    char evbuf[2048] = "";
    opfor_vk_events_t ev = {evbuf, sizeof evbuf, 0, 0};
    assert_int_equal(opfor_vk_apply(opfor_vk_rs_engine(f.ctx), st, &ea, &ev), 0);
    snprintf(want, sizeof want, "Fusiliers fires at Jager: %d shots", n);
    assert_non_null(strstr(evbuf, want));
    free(st);
    vkfix_close(&f);
}

/* Moving fire in words (VI, IX): taking cover and firing, crawling and firing, firing first
 * and then moving; the count of shooters is the engine's in each. */
static void orders_moving_fire_sentences(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, FIELD, 2), 0);
    int u = vkfix_act(&f, "Fusiliers"), t = vkfix_unit(&f, "Jager");
    opfor_pt_t c = vkfix_centre(&f, u);
    opfor_order_t o;
    opfor_action_t a = vkfix_action(OPFOR_VK_CRAWL, u, t, c.x, c.y);
    a.flags = OPFOR_VK_AF_FIRE;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_string_equal(o.verb, "take cover and fire");
    if (!strstr(o.sentence, "Fusiliers: take cover where it stands and fire at Jager: 10 figures "
                            "fire, to hit "))
        fail_msg("%s", o.sentence);
    a = vkfix_action(OPFOR_VK_CRAWL, u, t, c.x, c.y + 10.0f);
    a.flags = OPFOR_VK_AF_FIRE;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_string_equal(o.verb, "crawl firing");
    if (!strstr(o.sentence, "Fusiliers: crawl ") || !strstr(o.sentence, ", firing at Jager: "))
        fail_msg("%s", o.sentence);
    /* fire first, then fall back south */
    a = vkfix_action(OPFOR_VK_ADVANCE, u, t, c.x, c.y - 10.0f);
    a.flags = OPFOR_VK_AF_FIRE | OPFOR_VK_AF_VIA | OPFOR_VK_AF_FIRE_VIA;
    a.x2 = c.x;
    a.y2 = c.y;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    if (!strstr(o.sentence, "Fusiliers: fire first at Jager, as moving fire: 10 figures fire, ") ||
        !strstr(o.sentence, "; then advance ") || strstr(o.sentence, "by way of"))
        fail_msg("%s", o.sentence);
    /* fire at a point on the way */
    a.x2 = c.x + 2.0f;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    char want[80];
    snprintf(want, sizeof want, ", firing at Jager on reaching x %.1f y %.1f: ", (double)a.x2,
             (double)a.y2);
    if (!strstr(o.sentence, "Fusiliers: advance ") || !strstr(o.sentence, want))
        fail_msg("%s", o.sentence);
    vkfix_close(&f);
}

/* Fire at a named figure (IX: the player chooses each firer's target): the order says whom,
 * by what it does and where it stands, and counts the engine's shooters. */
static void orders_fire_at_a_named_figure(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, FIELD, 2), 0);
    int u = vkfix_act(&f, "Fusiliers"), t = vkfix_unit(&f, "Jager");
    int sig = f.st->vk.units[t].first + 3;
    f.st->vk.figures[sig].skills |= OPFOR_S_SIGNALLER;
    opfor_action_t a = vkfix_action(OPFOR_VK_FIRE, u, t, 0.0f, 0.0f);
    a.arg = (uint16_t)sig;
    opfor_order_t o;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_string_equal(o.verb, "fire at the signaller of");
    int n = opfor_vk_query_shooters_at(opfor_vk_rs_engine(f.ctx), &f.st->vk, u, t, 0, sig);
    assert_true(n > 0);
    char want[160];
    opfor_pt_t p = f.st->vk.figures[sig].pos;
    snprintf(want, sizeof want,
             "Fusiliers: fire at the signaller of Jager (the figure at x %.1f y %.1f), %.0f in "
             "away: %d figures fire, to hit ",
             (double)p.x, (double)p.y, (double)o.target_gap, n);
    if (!strstr(o.sentence, want))
        fail_msg("%s", o.sentence);
    vkfix_close(&f);
}

/* A gun's order says where it aims (IX: the intended fall of shot, in the crew's sight). */
static void orders_gun_says_its_aim_point(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, FIELD, 2), 0);
    int u = vkfix_act(&f, "Gunners"), t = vkfix_unit(&f, "Fusiliers");
    int k = -1;
    for (int i = 0; i < f.n && k < 0; i++)
        if (f.acts[i].kind == OPFOR_VK_FIRE_ARTILLERY && f.acts[i].target == t)
            k = i;
    assert_true(k >= 0);
    opfor_order_t o;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &f.acts[k], &o), 0);
    char want[96];
    snprintf(want, sizeof want, "Gunners: fire the gun at Fusiliers (aim at x %.1f y %.1f), ",
             (double)f.acts[k].x, (double)f.acts[k].y);
    if (!strstr(o.sentence, want))
        fail_msg("%s", o.sentence);
    assert_int_equal(u, f.acts[k].unit);
    vkfix_close(&f);
}

/* clang-format off */
static const char MG_FIELD[] =
    VKFIX_HEAD
    "units:\n"
    VKFIX_UNIT("Maxim", "Red", "machinegun", "[36, 14]") VKFIX_TEAM("mg")
    VKFIX_UNIT("Jager", "Blue", "infantry", "[36, 30]") VKFIX_RIFLES(8)
    VKFIX_UNIT("Hussars", "Blue", "cavalry", "[8, 40]")
    "      - {count: 4, mounted: true, weapons: [sword]}\n";
/* clang-format on */

/* An MG order says on how many dice the targets test: one per figure in the arc, as many as
 * the engine's own tests. */
static void orders_mg_counts_tests(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, MG_FIELD, 4), 0);
    int u = vkfix_act(&f, "Maxim"), t = vkfix_unit(&f, "Jager");
    opfor_pt_t c = vkfix_centre(&f, t);
    opfor_action_t a = vkfix_action(OPFOR_VK_FIRE_MG, u, t, c.x, c.y);
    a.sub = OPFOR_ARC_45;
    opfor_order_t o;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_int_equal(o.nrolls, 1);
    assert_string_equal(o.rolls[0].label, "targets pass");
    int n = o.rolls[0].dice;
    assert_true(n >= 1 && n <= 8); /* the Jager, not the Hussars far off the arc */
    char want[64];
    snprintf(want, sizeof want, "targets pass %s on %d dice", o.rolls[0].need, n);
    if (n == 1)
        snprintf(want, sizeof want, "targets pass %s on 1 die", o.rolls[0].need);
    assert_non_null(strstr(o.sentence, want));
    /* the arc in words a player reads at the table (IX, Machineguns), not "(45)" */
    if (!strstr(o.sentence, "fire the MG at Jager, ") ||
        !strstr(o.sentence, " in away, over a 45-degree arc: targets pass"))
        fail_msg("%s", o.sentence);
    a.sub = OPFOR_ARC_90;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    if (!strstr(o.sentence, ", over a 90-degree arc: "))
        fail_msg("%s", o.sentence);
    a.sub = OPFOR_ARC_DOUBLE_45;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    if (!strstr(o.sentence, ", over a 45-degree arc fired twice (each figure in it tests twice)"))
        fail_msg("%s", o.sentence);
    a.sub = OPFOR_ARC_45;
    opfor_vk_state_t *st = malloc(sizeof *st);
    assert_non_null(st);
    *st = f.st->vk;
    opfor_vk_action_t ea;
    opfor_vk_rs_action_to_engine(&a, &ea);
    char evbuf[2048] = "";
    opfor_vk_events_t ev = {evbuf, sizeof evbuf, 0, 0};
    assert_int_equal(opfor_vk_apply(opfor_vk_rs_engine(f.ctx), st, &ea, &ev), 0);
    snprintf(want, sizeof want, "arc: %d test%s,", n, n == 1 ? "" : "s");
    if (!strstr(evbuf, want))
        fail_msg("order: %s; engine: %s", o.sentence, evbuf);
    free(st);
    vkfix_close(&f);
}

static void orders_charge_and_decision(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, FIELD, 3), 0);
    int u = vkfix_act(&f, "Uhlans"), t = vkfix_unit(&f, "Gunners");
    opfor_action_t a = vkfix_action(OPFOR_VK_CHARGE, u, t, 0.0f, 0.0f);
    opfor_action_t b = vkfix_action(OPFOR_VK_STAND, u, -1, 0.0f, 0.0f);
    /* a made-up search: the charge chosen, standing the runner-up */
    opfor_ai_decision_t d;
    memset(&d, 0, sizeof d);
    d.action = a;
    d.chosen = 0;
    d.level = OPFOR_AI_STANDARD;
    d.has_runner_up = 1;
    d.search.nchoices = 2;
    d.search.iterations = 100;
    d.search.top[0].action = a;
    d.search.top[0].visits = 70;
    d.search.top[0].value = 0.25;
    d.search.top[1].action = b;
    d.search.top[1].visits = 30;
    d.search.top[1].value = -0.125;
    d.runner_up = d.search.top[1];
    opfor_order_t o;
    assert_int_equal(opfor_order_from_decision(&f.game, f.st, &d, &o), 0);
    assert_string_equal(o.verb, "charge");
    assert_non_null(strstr(o.sentence, "Uhlans: charge Gunners, "));
    assert_non_null(strstr(o.sentence, "(charge 1d3+"));
    assert_non_null(strstr(o.sentence, ": to hit "));
    assert_non_null(strstr(o.sentence, ", save "));
    assert_non_null(strstr(o.reason, "value +0.25 over 70 of 100 playouts"));
    assert_null(strchr(o.reason, '\n'));
    assert_int_equal(o.has_runner_up, 1);
    assert_float_equal(o.runner_up_value, -0.125, 1e-12);
    assert_non_null(strstr(o.runner_up, "Uhlans"));
    assert_int_equal(o.nalts, 2);
    assert_int_equal(o.alts[0].chosen, 1);
    assert_int_equal(o.alts[1].visits, 30);
    char buf[2048];
    opfor_order_format(&o, 0, buf, sizeof buf);
    assert_non_null(strstr(buf, "  why: "));
    assert_non_null(strstr(buf, "  runner-up: "));
    assert_non_null(strstr(buf, "(value -0.12)"));
    assert_null(strstr(buf, "visits"));
    opfor_order_format(&o, 1, buf, sizeof buf);
    assert_non_null(strstr(buf, "* 1. "));
    assert_non_null(strstr(buf, "visits     70 ( 70.0%) value +0.25"));
    assert_non_null(strstr(buf, "search: 100 playouts"));
    /* another ruleset, or a chance node, is refused */
    opfor_game_t other = f.game;
    other.rs = NULL;
    assert_int_equal(opfor_order_from_action(&other, f.st, &a, &o), OPFOR_EINVAL);
    f.st->vk.phase = OPFOR_VK_PH_INITIATIVE;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), OPFOR_EINVAL);
    vkfix_close(&f);
}

/* X: the charged unit's orders. A move away says which move (a run, an advance or a crawl,
 * audit row 62) with its roll; defensive fire counts its shooters and quotes to hit and save;
 * a reaction that holds after the melee says so (row 68). */
static void orders_reactions_to_a_charge(void **state) {
    (void)state;
    int checked = 0;
    for (uint64_t seed = 1; seed < 30 && !checked; seed++) {
        vkfix_t f;
        assert_int_equal(vkfix_open(&f, FIELD, seed), 0);
        int u = vkfix_act(&f, "Uhlans"), t = vkfix_unit(&f, "Gunners");
        opfor_action_t a = vkfix_action(OPFOR_VK_CHARGE, u, t, 0.0f, 0.0f);
        assert_int_equal(opfor_game_apply(&f.game, f.st, &a), 0);
        if (f.st->vk.phase != OPFOR_VK_PH_REACTION) {
            vkfix_close(&f);
            continue;
        }
        f.n = opfor_game_legal(&f.game, f.st, f.acts, OPFOR_VK_RS_MAX_ACTIONS);
        int seen = 0;
        for (int i = 0; i < f.n; i++) {
            opfor_order_t o;
            assert_int_equal(opfor_order_from_action(&f.game, f.st, &f.acts[i], &o), 0);
            assert_int_equal(o.unit, t);
            const char *want = NULL;
            if (f.acts[i].kind == OPFOR_VK_REACT_FLEE) {
                want = f.acts[i].sub == OPFOR_VK_CRAWL     ? "Gunners: crawl away from the charge"
                       : f.acts[i].sub == OPFOR_VK_ADVANCE ? "Gunners: advance away from the charge"
                                                           : "Gunners: run away from the charge";
                if (!strstr(o.sentence, "(move 1d3"))
                    fail_msg("%s", o.sentence);
                seen |= 1 << (f.acts[i].sub & 15);
            } else if (f.acts[i].kind == OPFOR_VK_REACT_FIRE) {
                want = "Gunners: fire at the chargers";
                assert_true(o.figures > 0);
                if (!strstr(o.sentence, "figures fire, to hit "))
                    fail_msg("%s", o.sentence);
            }
            if (want && !strstr(o.sentence, want))
                fail_msg("%s", o.sentence);
            /* X steps 8-9: holding after the melee is said */
            int holds = (f.acts[i].flags & OPFOR_VK_AF_HOLD) != 0;
            int says = strstr(o.sentence, "After the melee, hold (no follow-up advance).") != NULL;
            if (holds != says)
                fail_msg("%s", o.sentence);
            seen |= f.acts[i].kind == OPFOR_VK_REACT_STAND && (f.acts[i].flags & OPFOR_VK_AF_HOLD)
                        ? 1 << 15
                        : 0;
        }
        assert_int_equal(seen,
                         1 << OPFOR_VK_RUN | 1 << OPFOR_VK_ADVANCE | 1 << OPFOR_VK_CRAWL | 1 << 15);
        checked = 1;
        vkfix_close(&f);
    }
    assert_true(checked);
}

/* clang-format off */
static const char LANDMARKS[] =
    VKFIX_HEAD
    "terrain:\n"
    "  - {name: Farmhouse, kind: building, rect: [46, 30, 6, 4]}\n"
    "  - {name: Copse, kind: wood, rect: [26, 16, 4, 4]}\n"
    "  - {name: Long hedge, kind: hedge, line: [[2, 36], [30, 36]]}\n"
    "units:\n"
    VKFIX_UNIT("Fusiliers", "Red", "infantry", "[36, 14]")
    "      - {count: 10, quality: veteran, weapons: [rifle, bayonet]}\n"
    VKFIX_UNIT("Pioneers", "Red", "infantry", "[49, 31]")
    "      - {count: 4, quality: veteran, weapons: [rifle]}\n"
    VKFIX_UNIT("Uhlans", "Red", "cavalry", "[60, 14]")
    "      - {count: 6, mounted: true, weapons: [lance, sword]}\n"
    VKFIX_UNIT("Jager", "Blue", "infantry", "[66, 44]") VKFIX_RIFLES(8)
    "objectives:\n"
    "  - {name: Farmhouse, position: [49, 32], radius: 6, points: 5}\n";
/* clang-format on */

/* The landmark a move names is the one nearest its end point, and what the order says of it
 * is true there: a crawl that leaves the farmhouse goes "out of" it (not "into" it because
 * the end point is still within the objective's circle); a move toward a hedge far beyond
 * its end names the copse it ends beside; a move that ends far from everything names none. */
static void orders_landmark_true_of_the_end_point(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, LANDMARKS, 1), 0);
    opfor_order_t o;
    int u = vkfix_act(&f, "Pioneers");
    opfor_action_t a = vkfix_action(OPFOR_VK_CRAWL, u, -1, 49.0f, 10.0f);
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_int_equal(o.has_move, 1);
    if (!(o.y < 30.0f && o.y > 26.0f)) /* out of the building, inside the circle */
        fail_msg("%s", o.sentence);
    assert_string_equal(o.landmark, "Farmhouse");
    if (strcmp(o.landmark_rel, "out of") != 0)
        fail_msg("%s", o.sentence);
    assert_null(strstr(o.sentence, "into"));
    /* into it only when the end point is inside: from the south wall northward */
    a = vkfix_action(OPFOR_VK_CRAWL, u, -1, 49.0f, 33.0f);
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_string_equal(o.landmark_rel, "within");
    vkfix_close(&f);

    assert_int_equal(vkfix_open(&f, LANDMARKS, 1), 0);
    u = vkfix_act(&f, "Fusiliers");
    a = vkfix_action(OPFOR_VK_ADVANCE, u, -1, 10.0f, 36.0f); /* aimed at the hedge, 34 in away */
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_int_equal(o.has_move, 1);
    if (strcmp(o.landmark, "Copse") != 0)
        fail_msg("%s", o.sentence);
    assert_null(strstr(o.sentence, "Long hedge"));
    vkfix_close(&f);

    assert_int_equal(vkfix_open(&f, LANDMARKS, 1), 0);
    u = vkfix_act(&f, "Uhlans");
    a = vkfix_action(OPFOR_VK_ADVANCE, u, -1, 70.0f, 10.0f); /* east, away from everything named */
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_int_equal(o.has_move, 1);
    if (o.landmark[0])
        fail_msg("%s", o.sentence);
    vkfix_close(&f);
}

/* clang-format off */
static const char FAR_FIELD[] =
    VKFIX_HEAD
    "terrain:\n"
    "  - {name: Dark wood, kind: woods, rect: [52, 30, 14, 14]}\n"
    "units:\n"
    VKFIX_UNIT("Landwehr", "Red", "infantry", "[8, 6]")
    "      - {count: 4, quality: conscript, weapons: [rifle]}\n"
    VKFIX_UNIT("Guards", "Blue", "infantry", "[59, 37]")
    "      - {count: 4, quality: elite, weapons: [rifle]}\n";
/* clang-format on */

/* A score too hard for one die ("6, then 3+") says how it is rolled: a 6 first, then the
 * second die; every other score is the calculator's own words. */
static void orders_two_step_roll_explained(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, FAR_FIELD, 1), 0);
    int u = vkfix_act(&f, "Landwehr"), t = vkfix_unit(&f, "Guards");
    opfor_action_t a = vkfix_action(OPFOR_VK_FIRE, u, t, 0.0f, 0.0f);
    opfor_order_t o;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    int two = 0;
    for (int i = 0; i < o.nrolls; i++)
        if (strstr(o.rolls[i].need, ", then ")) {
            two++;
            if (!strstr(o.rolls[i].need, "+ with a second die"))
                fail_msg("%s", o.sentence);
        }
    if (!two)
        fail_msg("no two-step roll in: %s", o.sentence);
    assert_non_null(strstr(o.sentence, "+ with a second die"));
    vkfix_close(&f);
}

/* clang-format off */
static const char BLOCKED[] =
    VKFIX_HEAD
    "terrain:\n"
    "  - {name: Farmhouse, kind: building, rect: [46, 30, 6, 4]}\n"
    "units:\n"
    VKFIX_UNIT("Hussars", "Red", "cavalry", "[43, 32]")
    "      - {count: 1, mounted: true, weapons: [sword, pistol]}\n"
    VKFIX_UNIT("Oberst", "Red", "infantry", "[20, 22]")
    "      - {count: 1, quality: veteran, weapons: [rifle]}\n"
    VKFIX_UNIT("Picket", "Red", "infantry", "[20, 20.9]")
    "      - {count: 8, weapons: [rifle]}\n"
    VKFIX_UNIT("Supply Wagon", "Red", "supply", "[10, 8]")
    "      - {count: 1, equipment: true}\n"
    "      - {count: 1, quality: soldier, weapons: rifle, skills: [leader, driver]}\n"
    VKFIX_UNIT("Jager", "Blue", "infantry", "[66, 44]") VKFIX_RIFLES(8)
    "objectives:\n"
    "  - {name: The Farm, position: [49, 32], radius: 4, points: 5}\n";
/* clang-format on */

/* The X of "(move 1d3+X)" in an order's sentence; -1 when it states no move dice. */
static int stated_x(const opfor_order_t *o) {
    for (int i = 0; i < o->nrolls; i++)
        if (strcmp(o->rolls[i].label, "move") == 0) {
            int x = 0;
            if (strncmp(o->rolls[i].need, "1d3 ", 4) == 0)
                return 0;
            if (sscanf(o->rolls[i].need, "1d3+%d", &x) == 1)
                return x;
        }
    return -1;
}

/* A move's end point in the order is the engine's own at the mean roll (d3 = 2), its distance
 * the engine's, and the dice it states are those the engine rolls for that unit (its slowest
 * mover: the wagon's, not the driver's). */
static void orders_move_is_the_engines(void **state) {
    (void)state;
    const char *names[] = {"Hussars", "Oberst", "Supply Wagon", "Picket"};
    const float dirs[][2] = {{12, 0}, {-12, 3}, {0, 14}, {5, -20}, {3, 1}};
    for (size_t ni = 0; ni < sizeof names / sizeof names[0]; ni++) {
        vkfix_t f;
        assert_int_equal(vkfix_open(&f, BLOCKED, 1), 0);
        int u = vkfix_act(&f, names[ni]);
        const opfor_vk_ctx_t *vk = opfor_vk_rs_engine(f.ctx);
        opfor_pt_t c = vkfix_centre(&f, u);
        for (size_t di = 0; di < sizeof dirs / sizeof dirs[0]; di++)
            for (int kind = OPFOR_VK_ADVANCE; kind <= OPFOR_VK_RUN; kind++) {
                opfor_action_t a = vkfix_action(kind, u, -1, c.x + dirs[di][0], c.y + dirs[di][1]);
                opfor_order_t o;
                assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
                opfor_vk_action_t ea;
                opfor_vk_rs_action_to_engine(&a, &ea);
                opfor_vk_move_result_t mean, best;
                assert_int_equal(opfor_vk_query_move_result(vk, &f.st->vk, &ea, 2, &mean), 0);
                assert_int_equal(opfor_vk_query_move_result(vk, &f.st->vk, &ea, 3, &best), 0);
                if (best.moved < 0.25f) {
                    assert_int_equal(o.has_move, 0);
                    assert_int_equal(o.nstops, 0);
                    continue;
                }
                if (!o.has_move || fabsf(o.x - mean.to.x) > 1e-4f || fabsf(o.y - mean.to.y) > 1e-4f)
                    fail_msg("%s: engine ends at x %.2f y %.2f", o.sentence, (double)mean.to.x,
                             (double)mean.to.y);
                assert_float_equal(o.move_in, (float)(int)(mean.moved * 2.0f + 0.5f) / 2.0f, 1e-6);
                /* the end for each face of the D3 is the engine's at that face */
                assert_int_equal(o.nstops, 3);
                for (int d3 = 1; d3 <= 3; d3++) {
                    opfor_vk_move_result_t r;
                    assert_int_equal(opfor_vk_query_move_result(vk, &f.st->vk, &ea, d3, &r), 0);
                    if (fabsf(o.stops_x[d3 - 1] - r.to.x) > 1e-4f ||
                        fabsf(o.stops_y[d3 - 1] - r.to.y) > 1e-4f)
                        fail_msg("%s: a D3 of %d ends at x %.2f y %.2f, the order says %.2f %.2f",
                                 o.sentence, d3, (double)r.to.x, (double)r.to.y,
                                 (double)o.stops_x[d3 - 1], (double)o.stops_y[d3 - 1]);
                }
                assert_true(o.stops_x[1] == o.x && o.stops_y[1] == o.y);
                if (stated_x(&o) + 3 != (int)(best.allowance + 0.5f))
                    fail_msg("%s: engine allowance at d3 = 3 is %.1f", o.sentence,
                             (double)best.allowance);
            }
        vkfix_close(&f);
    }
}

/* A move round closed ground turns at its waypoint: the order names it ("by way of"), and
 * each face of the die's end is the engine's along the bent path. */
static void orders_move_by_way_of_a_waypoint(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, BLOCKED, 1), 0);
    int u = vkfix_act(&f, "Hussars");
    opfor_pt_t c = vkfix_centre(&f, u);
    /* a gallop 3 in north first, then west */
    opfor_action_t a = vkfix_action(OPFOR_VK_RUN, u, -1, c.x - 12.0f, c.y + 3.0f);
    a.flags |= OPFOR_VK_AF_VIA;
    a.x2 = c.x;
    a.y2 = c.y + 3.0f;
    opfor_order_t o;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    if (!o.has_move || !o.has_via)
        fail_msg("%s", o.sentence);
    assert_float_equal(o.via_x, c.x, 1e-4);
    assert_float_equal(o.via_y, c.y + 3.0f, 1e-4);
    char by[48];
    snprintf(by, sizeof by, "by way of x %.1f y %.1f", (double)c.x, (double)(c.y + 3.0f));
    if (!strstr(o.sentence, by))
        fail_msg("%s: no '%s'", o.sentence, by);
    /* a straight move names no waypoint */
    a.flags &= (uint16_t)~OPFOR_VK_AF_VIA;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_int_equal(o.has_via, 0);
    assert_null(strstr(o.sentence, "by way of"));
    vkfix_close(&f);
}

/* A move the engine cuts short even at the best roll says where it stops and why, in the
 * fields and in the sentence; one that goes nowhere says it stays. */
static void orders_move_cut_short_says_why(void **state) {
    (void)state;
    vkfix_t f;
    assert_int_equal(vkfix_open(&f, BLOCKED, 1), 0);
    opfor_order_t o;
    /* a rider at the farmhouse wall, told to gallop into it */
    int u = vkfix_act(&f, "Hussars");
    opfor_pt_t c = vkfix_centre(&f, u);
    opfor_action_t a = vkfix_action(OPFOR_VK_RUN, u, -1, 49.0f, 32.0f);
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_int_equal(o.has_limit, 1);
    assert_string_equal(o.limit_why, "the Farmhouse is closed to riders");
    assert_true(o.limit_x <= 46.0f && o.limit_x > c.x);
    if (!strstr(o.sentence, "no further than x ") && !strstr(o.sentence, ", no further ("))
        fail_msg("%s", o.sentence);
    assert_non_null(strstr(o.sentence, "the Farmhouse is closed to riders)"));
    assert_null(strstr(o.sentence, "into Farmhouse"));
    /* the orders card reads the scores after the first ": " past the unit: a move has none */
    assert_null(strstr(o.sentence + strlen("Hussars: "), ": "));
    vkfix_close(&f);

    /* a man behind his own picket's bases, told to advance through them */
    assert_int_equal(vkfix_open(&f, BLOCKED, 1), 0);
    u = vkfix_act(&f, "Oberst");
    c = vkfix_centre(&f, u);
    a = vkfix_action(OPFOR_VK_ADVANCE, u, -1, c.x, c.y - 10.0f);
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    if (strstr(o.sentence, "Picket is in the way") == NULL)
        fail_msg("%s", o.sentence);
    assert_string_equal(o.limit_why, "Picket is in the way");
    assert_null(strstr(o.sentence + strlen("Oberst: "), ": "));
    vkfix_close(&f);

    /* the table edge */
    assert_int_equal(vkfix_open(&f, BLOCKED, 1), 0);
    u = vkfix_act(&f, "Supply Wagon");
    c = vkfix_centre(&f, u);
    a = vkfix_action(OPFOR_VK_RUN, u, -1, c.x, -20.0f);
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    if (!o.has_limit || strcmp(o.limit_why, "the table edge") != 0)
        fail_msg("%s", o.sentence);
    vkfix_close(&f);
}

/* XII.D, XII.E under the XII options: fire at a balloon itself quotes the calculator's roll for
 * a Civilian target without cover at the range bracket one level further out; a walker's split
 * shells name each aim point. */
/* clang-format off */
static const char AIR_FIELD[] =
    VKFIX_HEAD
    "units:\n"
    VKFIX_UNIT("Fusiliers", "Red", "infantry", "[36, 14]")
    "      - {count: 4, quality: veteran, weapons: [rifle, bayonet]}\n"
    VKFIX_UNIT("Tripod", "Red", "walker", "[20, 10]")
    "      - {count: 1, quality: elite, equipment: true, weapons: field_gun}\n"
    VKFIX_UNIT("Balloon", "Blue", "balloon", "[36, 24]")
    "      - {count: 2, weapons: pistol}\n"
    VKFIX_UNIT("Jager", "Blue", "infantry", "[10, 36]") VKFIX_RIFLES(4)
    VKFIX_UNIT("Pickets", "Blue", "infantry", "[56, 36]") VKFIX_RIFLES(4);
/* clang-format on */

static void orders_fire_at_a_balloon_and_split_shells(void **state) {
    (void)state;
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    assert_int_equal(
        opfor_viktoria_scenario_load_string(AIR_FIELD, strlen(AIR_FIELD), "air", sc, &d), 0);
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.specials = 1;
    vkfix_t f;
    memset(&f, 0, sizeof f);
    assert_int_equal(opfor_vk_rs_ctx_new(&f.ctx, sc, "air", &opt, &d), 0);
    opfor_scenario_free(sc);
    free(sc);
    f.st = calloc(1, sizeof *f.st);
    assert_non_null(f.st);
    opfor_game_init(&f.game, &opfor_viktoria_ruleset, f.ctx, 0);
    opfor_vk_rs_state_init(f.ctx, f.st, 3);
    f.st->vk.turn = 1;
    int u = vkfix_unit(&f, "Fusiliers"), b = vkfix_unit(&f, "Balloon");
    f.st->vk.ux[b].altitude = 1;
    vkfix_act(&f, "Fusiliers");
    opfor_action_t a = vkfix_action(OPFOR_VK_FIRE, u, b, 0.0f, 0.0f);
    a.flags = OPFOR_VK_AF_AT_CRAFT;
    opfor_order_t o;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    assert_string_equal(o.verb, "fire at the balloon of");
    assert_int_equal(o.figures_how, OPFOR_ORDER_FIG_EXACT);
    assert_int_equal(o.figures, 4);
    float gap = opfor_vk_query_gap(&f.st->vk, u, b);
    opfor_viktoria_req_t req;
    assert_int_equal(opfor_viktoria_req_init(&req, OPFOR_VK_A_FIRE_RIFLE), 0);
    char in[32];
    snprintf(in, sizeof in, "%.1f", (double)gap);
    assert_int_equal(opfor_viktoria_req_set(&req, "actor", "veteran", NULL), 0);
    assert_int_equal(opfor_viktoria_req_set(&req, "target", "civilian", NULL), 0);
    assert_int_equal(opfor_viktoria_req_set(&req, "range", in, NULL), 0);
    assert_int_equal(opfor_viktoria_req_set(&req, "altitude", "1", NULL), 0);
    opfor_viktoria_result_t res;
    assert_int_equal(
        opfor_viktoria_calc(opfor_vk_query_model(opfor_vk_rs_engine(f.ctx)), &req, &res, NULL), 0);
    char hit[32];
    opfor_roll_format(&opfor_viktoria_result_roll(&res, "hit")->roll, hit, sizeof hit);
    assert_string_equal(o.rolls[0].label, "to hit");
    assert_string_equal(o.rolls[0].need, hit);
    char want[160];
    snprintf(want, sizeof want,
             "Fusiliers: fire at the balloon of Balloon, %.0f in away: 4 figures fire",
             (double)gap);
    if (!strstr(o.sentence, want))
        fail_msg("%s", o.sentence);
    /* on the envelope a wound is damage and a kill destroys it (XII.D) */
    if (!strstr(o.sentence, " damages / 6 destroys per unsaved hit."))
        fail_msg("%s", o.sentence);
    /* the walker's three shells split between aim points */
    int w = vkfix_act(&f, "Tripod"), j = vkfix_unit(&f, "Jager"), p = vkfix_unit(&f, "Pickets");
    opfor_pt_t cj = vkfix_centre(&f, j), cp = vkfix_centre(&f, p);
    a = vkfix_action(OPFOR_VK_FIRE_ARTILLERY, w, j, cj.x, cj.y);
    a.flags = OPFOR_VK_AF_VIA;
    a.x2 = cp.x;
    a.y2 = cp.y;
    assert_int_equal(opfor_order_from_action(&f.game, f.st, &a, &o), 0);
    /* the first shell's aim point is said as for any gun (IX: in the crew's sight) */
    snprintf(want, sizeof want, "Tripod: fire its three shells, the first at Jager (aim at x ");
    if (!strstr(o.sentence, want))
        fail_msg("%s", o.sentence);
    snprintf(want, sizeof want, ", the other two at x %.0f y %.0f", (double)cp.x, (double)cp.y);
    if (!strstr(o.sentence, want))
        fail_msg("%s", o.sentence);
    vkfix_close(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(orders_advance_sentence),
        cmocka_unit_test(orders_fire_quotes_the_calculator),
        cmocka_unit_test(orders_fire_counts_only_shooters),
        cmocka_unit_test(orders_moving_fire_sentences),
        cmocka_unit_test(orders_fire_at_a_named_figure),
        cmocka_unit_test(orders_gun_says_its_aim_point),
        cmocka_unit_test(orders_mg_counts_tests),
        cmocka_unit_test(orders_charge_and_decision),
        cmocka_unit_test(orders_reactions_to_a_charge),
        cmocka_unit_test(orders_landmark_true_of_the_end_point),
        cmocka_unit_test(orders_two_step_roll_explained),
        cmocka_unit_test(orders_move_is_the_engines),
        cmocka_unit_test(orders_move_cut_short_says_why),
        cmocka_unit_test(orders_move_by_way_of_a_waypoint),
        cmocka_unit_test(orders_fire_at_a_balloon_and_split_shells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
