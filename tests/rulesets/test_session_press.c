/* tests/rulesets/test_session_press.c — the shared Patrol Mode press sequence
 * (rulesets/viktoria/session_press.c): at a table it plays exactly as the loop the daemon and
 * `opfor patrol` wrote before (a ref_ test over whole games), the director's look ahead takes
 * back a press that is no spotting, steering replaces or stops a spotting, and the turn limit
 * ends a table game.
 */
#include "opfor/viktoria/director.h"
#include "opfor/viktoria/session_press.h"
#include "test_patrol_fixture.h"

/* The table's press as io/game.c and cmd_patrol_game.c wrote it before it was shared. Returns
 * the side given the initiative, -1 for a spotting, -2 when the turn limit ended the game. */
static int ref_press(pfx_t *x, opfor_rng_t *rng, int *turns) {
    const opfor_patrol_config_t *cfg = &x->cfg;
    opfor_patrol_observe(cfg, &x->ps, &x->fo);
    for (int guard = 0; guard < 4; guard++) {
        opfor_patrol_summary_t s;
        opfor_patrol_press_t pr;
        opfor_patrol_summarize(cfg, &x->ps, &x->fo, &s);
        opfor_patrol_press(cfg, &s, rng, &pr);
        x->ps.presses++;
        if (pr.kind == OPFOR_PRESS_END_TURN) {
            opfor_patrol_new_turn(&x->ps, &x->fo);
            ++*turns;
            if (cfg->turn_limit > 0 && x->ps.turn > cfg->turn_limit) {
                x->ps.turn = (uint16_t)cfg->turn_limit;
                return -2;
            }
            continue;
        }
        if (pr.kind == OPFOR_PRESS_PLAYER)
            return cfg->player;
        if (pr.kind == OPFOR_PRESS_ENEMY)
            return cfg->enemy;
        opfor_patrol_placement_t pl;
        opfor_patrol_spawn_t sw;
        opfor_patrol_resolve_spot(cfg, &x->ps, &x->fo, &pr.spot, rng, &pl, &sw);
        for (int k = 0; pl.placed && k < sw.ngenerals; k++)
            opfor_director_place_general(cfg, &x->fo, sw.generals[k],
                                         OPFOR_DIRECTOR_COMMAND_RADIUS);
        return -1;
    }
    return -3;
}

/* The table's answer to an initiative: the first ready unit of side acts. */
static void act(pfx_t *x, int side) {
    for (int u = 0; u < x->fo.nunits; u++)
        if (x->units[u].side == side && opfor_patrol_in_play(&x->fo, u) &&
            !(x->units[u].flags & OPFOR_UNIT_ACTED)) {
            x->units[u].flags |= OPFOR_UNIT_ACTED;
            return;
        }
}

typedef struct turns {
    int calls;
    int ended;
} turns_t;

static void on_turn(void *user, int ended) {
    turns_t *t = user;
    t->calls++;
    t->ended = ended;
}

/* A table press on x with the patrol stream rng, new turns counted in *tc. */
static int table_press(pfx_t *x, opfor_rng_t *rng, turns_t *tc,
                       opfor_patrol_session_report_t *rep) {
    opfor_patrol_session_opts_t o;
    opfor_patrol_session_opts_table(&o);
    o.turn = on_turn;
    o.user = tc;
    return opfor_patrol_session_press(&x->cfg, &x->ps, &x->fo, rng, &o, rep);
}

static void same_game(const pfx_t *a, const pfx_t *b, const opfor_rng_t *ra,
                      const opfor_rng_t *rb) {
    assert_int_equal(a->fo.nunits, b->fo.nunits);
    assert_int_equal(a->fo.nfigures, b->fo.nfigures);
    assert_memory_equal(&a->ps, &b->ps, sizeof a->ps);
    assert_memory_equal(a->units, b->units, sizeof a->units);
    assert_memory_equal(a->figures, b->figures, sizeof a->figures);
    assert_memory_equal(ra, rb, sizeof *ra);
}

/* Whole table games, seed by seed: the shared sequence draws and changes exactly what the
 * loop it replaced did, spottings, generals and new turns included. */
static void ref_session_press_table_matches_the_old_loop(void **state) {
    (void)state;
    long spots = 0, turns_seen = 0, generals = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        pfx_t *a = pfx_builtin(), *b = pfx_builtin();
        a->cfg.spot_base = b->cfg.spot_base = 0.25;
        a->cfg.turn_limit = b->cfg.turn_limit = 6;
        opfor_rng_t ra, rb;
        opfor_rng_seed(&ra, seed, 0x70617472u);
        rb = ra;
        for (int press = 0; press < 200; press++) {
            int ref_turns = 0;
            int side = ref_press(a, &ra, &ref_turns);
            turns_t tc = {0, 0};
            opfor_patrol_session_report_t rep;
            assert_int_equal(table_press(b, &rb, &tc, &rep), 0);
            same_game(a, b, &ra, &rb);
            assert_int_equal(rep.turns, ref_turns);
            assert_int_equal(tc.calls, ref_turns);
            turns_seen += rep.turns;
            if (side == -2) {
                assert_int_equal(rep.ended, 1);
                assert_int_equal(tc.ended, 1);
                break;
            }
            assert_int_equal(rep.ended, 0);
            if (side == -1) {
                assert_int_equal(rep.nspots, 1);
                assert_int_equal(rep.side, -1);
                assert_int_equal(rep.kind, OPFOR_PRESS_SPOTTING);
                spots++;
                generals += rep.generals;
                continue;
            }
            assert_int_equal(rep.nspots, 0);
            assert_int_equal(rep.side, side);
            act(a, side);
            act(b, side);
        }
        pfx_free(a);
        pfx_free(b);
    }
    /* the games went through what the comparison is about */
    assert_true(spots > 10);
    assert_true(turns_seen > 10);
    assert_true(generals > 0);
}

/* The director's look ahead with no chance of a spotting: the press is drawn but taken back,
 * so the engine's hook draws it again. */
static void session_press_peek_takes_back_a_press_that_is_no_spotting(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    x->cfg.spot_base = 0.0;
    x->cfg.spot_per_sqft = 0.0;
    opfor_rng_t rng, before;
    opfor_rng_seed(&rng, 7, 3);
    before = rng;
    int ready[2] = {1, 1};
    opfor_patrol_session_opts_t o;
    memset(&o, 0, sizeof o);
    o.mode = OPFOR_PATROL_SESSION_PEEK;
    o.max_presses = 15;
    o.ready = ready;
    opfor_patrol_session_report_t rep;
    uint16_t presses = x->ps.presses;
    assert_int_equal(opfor_patrol_session_press(&x->cfg, &x->ps, &x->fo, &rng, &o, &rep), 0);
    assert_true(rep.kind == OPFOR_PRESS_PLAYER || rep.kind == OPFOR_PRESS_ENEMY);
    assert_int_equal(rep.side, -1);
    assert_int_equal(rep.presses, 0);
    assert_int_equal(rep.nspots, 0);
    assert_int_equal(x->ps.presses, presses);
    assert_memory_equal(&rng, &before, sizeof rng);
    pfx_free(x);
}

typedef struct steer {
    int rc;                  /* what steer answers */
    int calls;               /* times called */
    opfor_patrol_spot_t use; /* the outcome it puts in when rc == 1 */
} steer_t;

static int steer(void *user, opfor_patrol_spot_t *spot) {
    steer_t *s = user;
    s->calls++;
    if (s->rc == 1)
        *spot = s->use;
    return s->rc;
}

/* A press certain to spot: steering replaces the draw, and a steering error stops the press
 * counted but unresolved. */
static void session_press_steer_replaces_or_stops_a_spotting(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    x->cfg.spot_base = 1.0;
    x->cfg.spot_max = 1.0;
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 11, 5);
    steer_t st = {1, 0, {0}};
    st.use.type = OPFOR_PT_INFANTRY;
    st.use.quality = OPFOR_Q_SOLDIER;
    st.use.dist_opt = 0;
    st.use.dice = x->cfg.dist[OPFOR_PT_INFANTRY][0].dice;
    st.use.rolled = opfor_dice_min(&st.use.dice);
    st.use.direction = OPFOR_N;
    assert_true(opfor_director_allowed(&x->cfg, &st.use));
    opfor_patrol_session_opts_t o;
    opfor_patrol_session_opts_table(&o);
    o.steer = steer;
    o.user = &st;
    opfor_patrol_session_report_t rep;
    assert_int_equal(opfor_patrol_session_press(&x->cfg, &x->ps, &x->fo, &rng, &o, &rep), 0);
    assert_int_equal(st.calls, 1);
    assert_int_equal(rep.nspots, 1);
    assert_int_equal(rep.steered, 1);
    assert_int_equal(rep.spot[0].steered, 1);
    assert_memory_equal(&rep.spot[0].spot, &st.use, sizeof st.use);
    assert_int_equal(x->ps.spottings, 1);

    st.rc = OPFOR_EINVAL;
    uint16_t presses = x->ps.presses;
    assert_int_equal(opfor_patrol_session_press(&x->cfg, &x->ps, &x->fo, &rng, &o, &rep),
                     OPFOR_EINVAL);
    assert_int_equal(rep.presses, 1);
    assert_int_equal(x->ps.presses, presses + 1);
    assert_int_equal(rep.nspots, 0);
    assert_int_equal(x->ps.spottings, 1); /* nothing resolved */
    pfx_free(x);
}

/* Every unit has acted in the last turn: the press ends the game at the turn limit. */
static void session_press_turn_limit_ends_a_table_game(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    x->cfg.turn_limit = 3;
    x->ps.turn = 3;
    for (int u = 0; u < x->fo.nunits; u++)
        x->units[u].flags |= OPFOR_UNIT_ACTED;
    opfor_rng_t rng, before;
    opfor_rng_seed(&rng, 3, 9);
    before = rng;
    turns_t tc = {0, 0};
    opfor_patrol_session_report_t rep;
    assert_int_equal(table_press(x, &rng, &tc, &rep), 0);
    assert_int_equal(rep.kind, OPFOR_PRESS_END_TURN);
    assert_int_equal(rep.ended, 1);
    assert_int_equal(rep.turns, 1);
    assert_int_equal(rep.side, -1);
    assert_int_equal(tc.calls, 1);
    assert_int_equal(tc.ended, 1);
    assert_int_equal(x->ps.turn, 3);
    assert_memory_equal(&rng, &before, sizeof rng); /* nothing to act: nothing drawn */
    pfx_free(x);
}

static void session_press_rejects_null(void **state) {
    (void)state;
    opfor_patrol_session_report_t rep;
    opfor_patrol_session_opts_t o;
    opfor_patrol_session_opts_table(&o);
    assert_int_equal(opfor_patrol_session_press(NULL, NULL, NULL, NULL, &o, &rep), OPFOR_EINVAL);
    assert_int_equal(rep.side, -1);
    assert_int_equal(rep.presses, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ref_session_press_table_matches_the_old_loop),
        cmocka_unit_test(session_press_peek_takes_back_a_press_that_is_no_spotting),
        cmocka_unit_test(session_press_steer_replaces_or_stops_a_spotting),
        cmocka_unit_test(session_press_turn_limit_ends_a_table_game),
        cmocka_unit_test(session_press_rejects_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
