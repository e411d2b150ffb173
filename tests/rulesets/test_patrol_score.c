/* tests/rulesets/test_patrol_score.c — Patrol Mode scoring (Viktoria! XV.B) of worked end
 * positions on the built-in scenario: survivors, half strength, unscathed, supply, HQ
 * members, units driven off, objectives held or contested, and the automatic loss.
 */
#include "test_patrol_fixture.h"

static int unit_named(pfx_t *x, const char *name) {
    for (int u = 0; u < x->fo.nunits; u++)
        if (strcmp(x->fo.units[u].name, name) == 0)
            return u;
    fail_msg("no unit %s", name);
    return -1;
}

/* From figure skip of unit u on, kills the first k living figures, then wounds the next w
 * living ones. */
static void hurt(pfx_t *x, int u, int skip, int k, int w) {
    const opfor_unit_t *un = &x->fo.units[u];
    for (int i = un->first + skip; i < un->first + un->count; i++) {
        opfor_figure_t *f = &x->fo.figures[i];
        if (!(f->flags & OPFOR_FIG_ALIVE))
            continue;
        if (k > 0) {
            f->flags &= (uint16_t)~OPFOR_FIG_ALIVE;
            k--;
        } else if (w > 0) {
            f->flags |= OPFOR_FIG_WOUNDED;
            w--;
        }
    }
}

static int spawn(pfx_t *x, int type, float px, float py, opfor_rng_t *rng) {
    opfor_patrol_spot_t sp;
    memset(&sp, 0, sizeof sp);
    sp.type = type;
    sp.quality = OPFOR_Q_SOLDIER;
    opfor_patrol_placement_t pl;
    memset(&pl, 0, sizeof pl);
    pl.placed = 1;
    pl.point = opfor_pt(px, py);
    pl.dot = opfor_pt(36, 10);
    opfor_patrol_spawn_t sw;
    assert_int_equal(opfor_patrol_spawn_unit(&x->cfg, &x->ps, &x->fo, &sp, &pl, rng, &sw), 0);
    return sw.unit;
}

static opfor_patrol_score_t score(pfx_t *x) {
    opfor_patrol_score_t s;
    opfor_patrol_score(&x->cfg, &x->ps, &x->fo, &s);
    assert_int_equal(s.total, s.survived + s.half_strength + s.unscathed + 2 * s.supply +
                                  2 * s.hq_members + s.driven_off + s.objectives);
    return s;
}

static void patrol_score_opening_position(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    opfor_patrol_score_t s = score(x);
    /* Four units (the general is not one), all whole: 3 points each. */
    assert_int_equal(s.survived, 4);
    assert_int_equal(s.half_strength, 4);
    assert_int_equal(s.unscathed, 4);
    assert_int_equal(s.supply + s.hq_members + s.driven_off + s.objectives, 0);
    assert_int_equal(s.total, 12);
    assert_false(s.lost);
    assert_false(s.enemy_wiped);
    pfx_free(x);
}

/* XV.B: wounded sent to the rear still count toward strength; the engine (vk_to_rear) lowers
 * the unit's strength for them, so the score must count them against the strength before, not
 * twice (audit row 119). 12 men, 2 wounded to the rear, 7 killed: 5 left of 12 is under half. */
static void patrol_score_wounded_at_the_rear_count_once(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    int section = unit_named(x, "1st Section");
    opfor_unit_t *un = &x->fo.units[section];
    assert_int_equal(un->strength, 12);
    hurt(x, section, 0, 0, 2); /* the first two wounded ... */
    for (int i = un->first; i < un->first + 2; i++) {
        x->fo.figures[i].flags |= OPFOR_FIG_REAR; /* ... and sent to the rear, as vk_to_rear */
        un->strength--;
    }
    opfor_patrol_score_t s = score(x);
    assert_int_equal(s.half_strength, 4); /* 12 of 12 alive (2 at the rear): half strength */
    assert_int_equal(s.unscathed, 4);     /* 2 hurt of 12: within a quarter */
    hurt(x, section, 2, 7, 0);
    s = score(x);
    assert_int_equal(s.survived, 4);
    assert_int_equal(s.half_strength, 3); /* 5 of 12 (2 of them at the rear): under half */
    assert_int_equal(s.unscathed, 3);
    pfx_free(x);
}

static void patrol_score_worked_battle(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 8, 0);
    int section = unit_named(x, "1st Section"), hussars = unit_named(x, "Hussar Troop");
    int sharp = unit_named(x, "Sharpshooter"), gun = unit_named(x, "9-pounder");
    int picket = unit_named(x, "Jager Picket");
    /* The players' losses. */
    hurt(x, section, 1, 5, 2); /* 7 of 12 left, 7 hit: half strength, not unscathed */
    hurt(x, hussars, 1, 4, 0); /* 2 of 6 left: survives only */
    hurt(x, sharp, 0, 1, 0);   /* dead */
    hurt(x, gun, 1, 0, 1);     /* 1 of 5 wounded: unscathed */
    /* The enemy: the picket destroyed, a wagon captured, two of three staff killed, a
     * general routed off the table, and a fresh infantry unit still fighting. */
    hurt(x, picket, 0, 6, 0);
    int wagon = spawn(x, OPFOR_PT_SUPPLY, 60, 40, &rng);
    x->ps.fate[wagon] = OPFOR_PATROL_FATE_CAPTURED;
    int staff = spawn(x, OPFOR_PT_HEADQUARTERS, 20, 44, &rng);
    assert_string_equal(x->fo.units[staff].name, "Divisional Staff");
    int general = staff + 1;
    assert_true(x->fo.units[general].flags & OPFOR_UNIT_GENERAL);
    hurt(x, staff, 0, 2, 0);
    x->ps.fate[general] = OPFOR_PATROL_FATE_DRIVEN_OFF;
    x->fo.units[general].flags |= OPFOR_UNIT_OFF_TABLE;
    int inf = spawn(x, OPFOR_PT_INFANTRY, 10, 44, &rng);
    /* A section figure stands in the farmhouse objective. */
    x->fo.figures[x->fo.units[section].first + 7].pos = opfor_pt(49, 31);
    opfor_patrol_score_t s = score(x);
    assert_int_equal(s.survived, 3);
    assert_int_equal(s.half_strength, 2);
    assert_int_equal(s.unscathed, 1);
    assert_int_equal(s.supply, 1);
    assert_int_equal(s.hq_members, 2);
    assert_int_equal(s.driven_off, 2); /* the picket and the general */
    assert_int_equal(s.objectives, 5);
    assert_int_equal(s.total, 6 + 2 + 4 + 2 + 5);
    /* An enemy figure in the objective contests it. */
    x->fo.figures[x->fo.units[inf].first].pos = opfor_pt(50, 34);
    assert_int_equal(score(x).objectives, 0);
    /* The wagon destroyed rather than captured scores the same. */
    x->ps.fate[wagon] = OPFOR_PATROL_FATE_NONE;
    assert_int_equal(score(x).supply, 0);
    hurt(x, wagon, 0, 1, 0); /* the wagon itself */
    assert_int_equal(score(x).supply, 1);
    /* The staff captured: all three count. */
    x->ps.fate[staff] = OPFOR_PATROL_FATE_CAPTURED;
    assert_int_equal(score(x).hq_members, 3);
    pfx_free(x);
}

static void patrol_score_thresholds(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    int section = unit_named(x, "1st Section");
    int base = score(x).total;
    hurt(x, section, 1, 0, 3); /* 3 of 12 hit: still unscathed */
    assert_int_equal(score(x).total, base);
    hurt(x, section, 1, 1, 0); /* a wounded man dies: still 3 hit */
    opfor_patrol_score_t s = score(x);
    assert_int_equal(s.unscathed, 4);
    hurt(x, section, 4, 1, 0); /* a whole one dies: 2 dead, 2 wounded, 4 hit */
    assert_int_equal(score(x).unscathed, 3);
    hurt(x, section, 1, 4, 0); /* 6 dead: 6 left of 12, half strength */
    s = score(x);
    assert_int_equal(s.half_strength, 4);
    hurt(x, section, 1, 1, 0); /* 5 left */
    assert_int_equal(score(x).half_strength, 3);
    /* Wounded figures sent to the rear still count toward strength. */
    const opfor_unit_t *u = &x->fo.units[section];
    for (int i = u->first; i < u->first + u->count; i++)
        if (x->fo.figures[i].flags & OPFOR_FIG_ALIVE)
            x->fo.figures[i].flags |= OPFOR_FIG_REAR | OPFOR_FIG_WOUNDED;
    assert_int_equal(score(x).survived, 4);
    /* A unit routed off the table does not survive. */
    x->ps.fate[section] = OPFOR_PATROL_FATE_DRIVEN_OFF;
    assert_int_equal(score(x).survived, 3);
    pfx_free(x);
}

static void patrol_score_all_destroyed_loses(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    for (int u = 0; u < x->fo.nunits; u++)
        if (x->fo.units[u].side == x->cfg.player && !(x->fo.units[u].flags & OPFOR_UNIT_GENERAL))
            pfx_kill_unit(x, u);
    opfor_patrol_score_t s = score(x);
    assert_int_equal(s.survived, 0);
    assert_true(s.lost);
    assert_int_equal(s.total, 0);
    pfx_free(x);
    /* The enemy is beaten when none is left and no more may come. */
    x = pfx_builtin();
    pfx_kill_unit(x, unit_named(x, "Jager Picket"));
    assert_false(score(x).enemy_wiped);
    x->ps.placed = (uint16_t)x->cfg.spot_limit;
    s = score(x);
    assert_true(s.enemy_wiped);
    assert_int_equal(s.driven_off, 1);
    assert_int_equal(s.total, 13);
    pfx_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(patrol_score_opening_position),
        cmocka_unit_test(patrol_score_wounded_at_the_rear_count_once),
        cmocka_unit_test(patrol_score_worked_battle),
        cmocka_unit_test(patrol_score_thresholds),
        cmocka_unit_test(patrol_score_all_destroyed_loses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
