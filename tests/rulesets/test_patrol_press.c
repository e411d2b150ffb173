/* tests/rulesets/test_patrol_press.c — the initiative button (Viktoria! XV.A) and the
 * patrol: block: exact probabilities from the documented formulas, 100,000 presses checked
 * against them by chi-square with fixed seeds, determinism, and the config reader's
 * defaults, overrides and file:line:col errors.
 */
#include "test_patrol_fixture.h"

#define PRESSES 100000L

static void patrol_press_probs_exact(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    opfor_patrol_summary_t s = {{4, 2}, 2.0, 0};
    opfor_patrol_probs_t p;
    opfor_patrol_probs(&x->cfg, &s, &p);
    /* Spotting: 0.04 + 0.03 per square foot; the rest split 4:2 by ready units. */
    assert_float_equal(p.spot, 0.10, 1e-12);
    assert_float_equal(p.kind[OPFOR_PRESS_SPOTTING], 0.10, 1e-12);
    assert_float_equal(p.kind[OPFOR_PRESS_PLAYER], 0.90 * 4 / 6, 1e-12);
    assert_float_equal(p.kind[OPFOR_PRESS_ENEMY], 0.90 * 2 / 6, 1e-12);
    assert_float_equal(p.kind[OPFOR_PRESS_END_TURN], 0, 0);
    assert_float_equal(p.type[OPFOR_PT_INFANTRY], 0.50, 1e-12);
    assert_float_equal(p.type[OPFOR_PT_CAVALRY], 0.25, 1e-12);
    assert_float_equal(p.type[OPFOR_PT_ARTILLERY], 0.15, 1e-12);
    assert_float_equal(p.type[OPFOR_PT_HEADQUARTERS], 0.05, 1e-12);
    assert_float_equal(p.type[OPFOR_PT_SUPPLY], 0.05, 1e-12);
    assert_float_equal(p.quality[OPFOR_PT_SUPPLY][OPFOR_Q_CONSCRIPT], 0.60, 1e-12);
    assert_float_equal(p.quality[OPFOR_PT_HEADQUARTERS][OPFOR_Q_ELITE], 0.60, 1e-12);
    assert_float_equal(p.dist[OPFOR_PT_INFANTRY][1], 0.4, 1e-12);
    for (int d = 0; d < 8; d++)
        assert_float_equal(p.direction[d], 0.125, 1e-12);
    /* The ceiling, the limit, and the end of the turn. */
    s.fresh_sqft = 100;
    opfor_patrol_probs(&x->cfg, &s, &p);
    assert_float_equal(p.spot, 0.5, 1e-12);
    s.placed = 12;
    opfor_patrol_probs(&x->cfg, &s, &p);
    assert_float_equal(p.spot, 0, 0);
    assert_float_equal(p.kind[OPFOR_PRESS_PLAYER] + p.kind[OPFOR_PRESS_ENEMY], 1, 1e-12);
    s.ready[0] = s.ready[1] = 0;
    opfor_patrol_probs(&x->cfg, &s, &p);
    assert_float_equal(p.kind[OPFOR_PRESS_END_TURN], 1, 0);
    opfor_rng_t rng, copy;
    opfor_rng_seed(&rng, 5, 0);
    copy = rng;
    opfor_patrol_press_t pr;
    opfor_patrol_press(&x->cfg, &s, &rng, &pr);
    assert_int_equal(pr.kind, OPFOR_PRESS_END_TURN);
    assert_memory_equal(&rng, &copy, sizeof rng); /* nothing drawn */
    /* Only one side left to act: it gets every activation. */
    s.ready[1] = 3;
    s.placed = 0;
    s.fresh_sqft = 0;
    opfor_patrol_probs(&x->cfg, &s, &p);
    assert_float_equal(p.kind[OPFOR_PRESS_ENEMY], 0.96, 1e-12);
    assert_float_equal(p.kind[OPFOR_PRESS_PLAYER], 0, 0);
    pfx_free(x);
}

static void patrol_press_summary_from_position(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    opfor_patrol_summary_t s;
    opfor_patrol_summarize(&x->cfg, &x->ps, &x->fo, &s);
    /* General, sharpshooter, gun, section, hussars; one known picket. */
    assert_int_equal(s.ready[0], 5);
    assert_int_equal(s.ready[1], 1);
    assert_float_equal(s.fresh_sqft, 0, 0);
    x->fo.units[1].flags |= OPFOR_UNIT_ACTED;
    /* The players advance 12 inches with everything: fresh ground appears. */
    for (int i = 0; i < x->fo.nfigures; i++)
        if (x->fo.units[x->fo.figures[i].unit].side == x->cfg.player)
            x->fo.figures[i].pos.y += 12;
    opfor_patrol_observe(&x->cfg, &x->ps, &x->fo);
    opfor_patrol_summarize(&x->cfg, &x->ps, &x->fo, &s);
    assert_int_equal(s.ready[0], 4);
    assert_true(s.fresh_sqft > 2.0 && s.fresh_sqft < 12.0);
    pfx_free(x);
}

/* Tallies PRESSES presses at summary s and checks every marginal against p. */
static void check_presses(const opfor_patrol_config_t *cfg, const opfor_patrol_summary_t *s,
                          uint64_t seed, int perturb) {
    opfor_patrol_probs_t p;
    opfor_patrol_probs(cfg, s, &p);
    long kind[OPFOR_PRESS_KIND_COUNT] = {0}, type[OPFOR_PT_COUNT] = {0};
    long tq[OPFOR_PT_COUNT * OPFOR_Q_COUNT] = {0}, dir[OPFOR_COMPASS_COUNT] = {0};
    long td[OPFOR_PT_COUNT * OPFOR_PATROL_MAX_DIST] = {0};
    static long rolled[OPFOR_DIST_MAX];
    memset(rolled, 0, sizeof rolled);
    /* Rolled distances are checked for the likeliest type's likeliest choice. */
    int rt = 0, ro = 0;
    for (int t = 1; t < OPFOR_PT_COUNT; t++)
        if (cfg->type_weight[t] > cfg->type_weight[rt])
            rt = t;
    for (int i = 1; i < cfg->ndist[rt]; i++)
        if (cfg->dist[rt][i].weight > cfg->dist[rt][ro].weight)
            ro = i;
    opfor_rng_t rng;
    opfor_rng_seed(&rng, seed, 0);
    for (long k = 0; k < PRESSES; k++) {
        opfor_patrol_press_t pr;
        opfor_patrol_press(cfg, s, &rng, &pr);
        kind[pr.kind]++;
        if (pr.kind != OPFOR_PRESS_SPOTTING)
            continue;
        const opfor_patrol_spot_t *sp = &pr.spot;
        type[sp->type]++;
        tq[sp->type * OPFOR_Q_COUNT + sp->quality]++;
        td[sp->type * OPFOR_PATROL_MAX_DIST + sp->dist_opt]++;
        dir[sp->direction]++;
        assert_memory_equal(&sp->dice, &cfg->dist[sp->type][sp->dist_opt].dice, sizeof sp->dice);
        assert_true(sp->rolled >= opfor_dice_min(&sp->dice));
        assert_true(sp->rolled <= opfor_dice_max(&sp->dice));
        if (sp->type == rt && sp->dist_opt == ro)
            rolled[sp->rolled]++;
    }
    long spots = kind[OPFOR_PRESS_SPOTTING];
    /* Joint (type, quality) and (type, distance) cells: P(type) * P(. | type). */
    double ptq[OPFOR_PT_COUNT * OPFOR_Q_COUNT], ptd[OPFOR_PT_COUNT * OPFOR_PATROL_MAX_DIST];
    for (int t = 0; t < OPFOR_PT_COUNT; t++) {
        for (int q = 0; q < OPFOR_Q_COUNT; q++)
            ptq[t * OPFOR_Q_COUNT + q] = p.type[t] * p.quality[t][q];
        for (int i = 0; i < OPFOR_PATROL_MAX_DIST; i++)
            ptd[t * OPFOR_PATROL_MAX_DIST + i] = p.type[t] * p.dist[t][i];
    }
    if (perturb) { /* a wrong model must be rejected: the tests have power */
        p.type[OPFOR_PT_INFANTRY] -= 0.02;
        p.type[OPFOR_PT_CAVALRY] += 0.02;
        p.direction[OPFOR_N] += 0.01;
        p.direction[OPFOR_S] -= 0.01;
    }
    int df;
    double chi;
    chi = pfx_chi2(kind, p.kind, OPFOR_PRESS_KIND_COUNT, PRESSES, &df);
    if (!perturb)
        assert_true(chi < pfx_chi2_crit(df));
    chi = pfx_chi2(type, p.type, OPFOR_PT_COUNT, spots, &df);
    assert_true(df >= 1);
    assert_true(perturb ? chi > pfx_chi2_crit(df) : chi < pfx_chi2_crit(df));
    chi = pfx_chi2(dir, p.direction, OPFOR_COMPASS_COUNT, spots, &df);
    assert_true(df >= 1);
    assert_true(perturb ? chi > pfx_chi2_crit(df) : chi < pfx_chi2_crit(df));
    if (perturb)
        return;
    chi = pfx_chi2(tq, ptq, OPFOR_PT_COUNT * OPFOR_Q_COUNT, spots, &df);
    assert_true(chi < pfx_chi2_crit(df));
    chi = pfx_chi2(td, ptd, OPFOR_PT_COUNT * OPFOR_PATROL_MAX_DIST, spots, &df);
    assert_true(chi < pfx_chi2_crit(df));
    /* Those rolls against the exact distribution (3d6+6 for infantry by default), tails
     * below an expected 5 merged into their neighbours. */
    opfor_dist_t dist;
    assert_int_equal(opfor_dice_dist(&cfg->dist[rt][ro].dice, &dist), 0);
    long n = td[rt * OPFOR_PATROL_MAX_DIST + ro], cnt[64] = {0};
    double pe[64] = {0};
    int cells = 0;
    double acc_p = 0;
    long acc_c = 0;
    for (int i = 0; i < dist.n; i++) {
        acc_p += dist.p[i];
        acc_c += rolled[dist.min + i];
        if (acc_p * (double)n >= 5.0 || i == dist.n - 1) {
            pe[cells] = acc_p;
            cnt[cells++] = acc_c;
            acc_p = 0;
            acc_c = 0;
        }
    }
    chi = pfx_chi2(cnt, pe, cells, n, &df);
    assert_true(df >= 5);
    assert_true(chi < pfx_chi2_crit(df));
}

static void patrol_press_chi_square_default(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    /* Half the presses are spottings (the ceiling), the rest split 5:3. */
    opfor_patrol_summary_t s = {{5, 3}, 40.0, 0};
    check_presses(&x->cfg, &s, 20240601u, 0);
    /* A low spotting chance with few units left. */
    opfor_patrol_summary_t s2 = {{1, 2}, 0.5, 3};
    check_presses(&x->cfg, &s2, 77u, 0);
    pfx_free(x);
}

static void patrol_press_chi_square_has_power(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    opfor_patrol_summary_t s = {{5, 3}, 40.0, 0};
    check_presses(&x->cfg, &s, 20240601u, 1);
    pfx_free(x);
}

static void patrol_press_chi_square_scenario_odds(void **state) {
    (void)state;
    char u[512];
    pfx_t *x = pfx_table("top", pfx_unit(u, sizeof u, "Line", 36, 12, 6),
                         "patrol:\n"
                         "  initiative: {player: 2, enemy: 1}\n"
                         "  spotting: {base: 0.2, per_sqft: 0.1, max: 0.6, limit: 5}\n"
                         "  types: {cavalry: 3, supply: 1}\n"
                         "  quality: {veteran: 1, elite: 1}\n"
                         "  quality_by_type: {supply: {civilian: 1}}\n"
                         "  distance: \"2d6+6\"\n"
                         "  distance_by_type:\n"
                         "    cavalry: [{dice: 3 dice + 12 inches, weight: 1}, {dice: 1d6, "
                         "weight: 3}]\n"
                         "  directions: {N: 2, NE: 1, NW: 1}\n");
    const opfor_patrol_config_t *c = &x->cfg;
    assert_float_equal(c->side_weight[0], 2, 0);
    assert_int_equal(c->spot_limit, 5);
    assert_int_equal(c->type_weight[OPFOR_PT_INFANTRY], 0);
    assert_int_equal(c->type_weight[OPFOR_PT_CAVALRY], 3);
    assert_int_equal(c->quality_weight[OPFOR_PT_CAVALRY][OPFOR_Q_SOLDIER], 0);
    assert_int_equal(c->quality_weight[OPFOR_PT_SUPPLY][OPFOR_Q_CIVILIAN], 1);
    assert_int_equal(c->ndist[OPFOR_PT_INFANTRY], 1);
    assert_int_equal(c->ndist[OPFOR_PT_CAVALRY], 2);
    assert_int_equal(c->dist[OPFOR_PT_CAVALRY][0].dice.bonus, 12);
    assert_int_equal(c->dir_weight[OPFOR_S], 0);
    opfor_patrol_summary_t s = {{3, 3}, 1.0, 0};
    opfor_patrol_probs_t p;
    opfor_patrol_probs(c, &s, &p);
    assert_float_equal(p.spot, 0.3, 1e-12);
    assert_float_equal(p.kind[OPFOR_PRESS_PLAYER], 0.7 * 6 / 9, 1e-12);
    check_presses(c, &s, 99u, 0);
    pfx_free(x);
}

static void patrol_press_deterministic(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    opfor_patrol_summary_t s = {{3, 3}, 30.0, 0};
    opfor_rng_t a, b;
    opfor_rng_seed(&a, 42, 1);
    opfor_rng_seed(&b, 42, 1);
    for (int k = 0; k < 1000; k++) {
        opfor_patrol_press_t pa, pb;
        opfor_patrol_press(&x->cfg, &s, &a, &pa);
        opfor_patrol_press(&x->cfg, &s, &b, &pb);
        assert_memory_equal(&pa, &pb, sizeof pa);
    }
    /* A fixed seed gives a fixed first spotting, shown as a player reads it. */
    opfor_rng_seed(&a, 1, 0);
    opfor_patrol_press_t pr;
    do
        opfor_patrol_press(&x->cfg, &s, &a, &pr);
    while (pr.kind != OPFOR_PRESS_SPOTTING);
    char buf[128];
    opfor_patrol_spot_str(&pr.spot, buf, sizeof buf);
    assert_non_null(strstr(buf, " inches (rolled "));
    assert_non_null(strstr(buf, opfor_patrol_type_label(pr.spot.type)));
    pfx_free(x);
}

/* ---- the patrol: block reader ---- */

static void expect_error(const char *patrol, int err, int line, int col, const char *msg) {
    char yaml[4096];
    snprintf(yaml, sizeof yaml,
             "name: Bad\nmode: patrol\n"
             "sides:\n  - {name: Blue, player: true, edge: bottom}\n"
             "  - {name: Red, edge: top}\n"
             "units:\n  - {name: A, side: Blue, type: infantry, position: [10, 10],\n"
             "     figures: [{count: 2, skills: leader}]}\n"
             "patrol:\n%s",
             patrol);
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    opfor_patrol_config_t *cfg = calloc(1, sizeof *cfg);
    opfor_diag_t d;
    assert_int_equal(opfor_viktoria_scenario_load_string(yaml, strlen(yaml), "bad.yaml", sc, &d),
                     0);
    int rc = opfor_patrol_config_load(cfg, sc, "bad.yaml", &d);
    if (rc != err || d.line != line || d.col != col || !strstr(d.msg, msg))
        print_error("got %d %s:%d:%d: %s\n", rc, d.file, d.line, d.col, d.msg);
    assert_int_equal(rc, err);
    assert_string_equal(d.file, "bad.yaml");
    assert_int_equal(d.line, line);
    assert_int_equal(d.col, col);
    assert_non_null(strstr(d.msg, msg));
    opfor_scenario_free(sc);
    free(sc);
    free(cfg);
}

static void patrol_config_errors_name_place(void **state) {
    (void)state;
    /* The patrol block's first key is on line 10. */
    static const struct {
        const char *patrol;
        int err, line, col;
        const char *msg;
    } cases[] = {
        {"  front_line_gapp: 12\n", OPFOR_EPARSE, 10, 3,
         "unknown key 'front_line_gapp' in patrol; allowed keys: front_line_gap,"},
        {"  front_line_gap: wide\n", OPFOR_EPARSE, 10, 19,
         "expected a number for front_line_gap, found 'wide'"},
        {"  spotting: {base: 0.9, max: 0.5}\n", OPFOR_ERANGE, 10, 20,
         "spotting base (0.9) is above spotting max (0.5)"},
        {"  types: {infantry: 0}\n", OPFOR_ERANGE, 10, 11,
         "spotted type: at least one weight must be above 0"},
        {"  types: {zouaves: 1}\n", OPFOR_EPARSE, 10, 11,
         "unknown spotted type 'zouaves'; expected one of: infantry, cavalry, artillery,"},
        {"  directions:\n    N: 1\n    NNE: 2\n", OPFOR_EPARSE, 12, 5,
         "unknown compass direction 'NNE'"},
        {"  distance: [\"3 dice + lots\"]\n", OPFOR_EPARSE, 10, 15, "bad distance '3 dice + lots'"},
        {"  quality: {veteran: -1}\n", OPFOR_ERANGE, 10, 22,
         "a weight must be between 0 and 1000000, found -1"},
        {"  collection:\n    - {name: Walkers, type: walker, figures: [{count: 1}]}\n",
         OPFOR_EPARSE, 11, 29, "a walker stands for no spotted type by itself"},
        {"  collection:\n    - {name: Guns, type: artillery, figures: [{count: 1, "
         "equipment: true}]}\n",
         OPFOR_EPARSE, 11, 48, "has no figure able to lead it"},
        {"  generals: {per_units: 3, rank: major}\n", OPFOR_EPARSE, 10, 28,
         "unknown key 'rank' in generals"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        expect_error(cases[k].patrol, cases[k].err, cases[k].line, cases[k].col, cases[k].msg);
}

static void patrol_config_defaults_and_collection(void **state) {
    (void)state;
    char u[512];
    pfx_t *x = pfx_table("top", pfx_unit(u, sizeof u, "Line", 36, 12, 6), NULL);
    const opfor_patrol_config_t *c = &x->cfg;
    assert_int_equal(c->player, 0);
    assert_int_equal(c->enemy, 1);
    assert_float_equal(c->forward.x, 0, 0);
    assert_float_equal(c->forward.y, 1, 0);
    assert_float_equal(c->front_line_gap, 12, 0);
    assert_int_equal(c->ntemplates, 0);
    assert_int_equal(c->units_per_general, 3);
    pfx_free(x);
    x = pfx_table("top", pfx_unit(u, sizeof u, "Line", 36, 12, 6),
                  "patrol:\n"
                  "  collection:\n"
                  "    - name: Steam Walker\n"
                  "      type: walker\n"
                  "      stands_for: artillery\n"
                  "      figures: [{count: 1, equipment: true}, {count: 2, quality: veteran}]\n"
                  "    - name: Landwehr\n"
                  "      type: infantry\n"
                  "      quality: conscript\n"
                  "      qualities: [civilian, conscript]\n"
                  "      copies: 2\n"
                  "      figures: [{count: 1, skills: leader, quality: soldier}, {count: 9}]\n");
    c = &x->cfg;
    assert_int_equal(c->ntemplates, 2);
    assert_string_equal(c->templates[0].unit.name, "Steam Walker");
    assert_int_equal(c->templates[0].stands_for, 1 << OPFOR_PT_ARTILLERY);
    assert_int_equal(c->templates[0].unit.count, 3);
    /* The best figure on foot was made its leader. */
    assert_true(c->figs[c->templates[0].unit.first + 1].skills & OPFOR_S_LEADER);
    assert_int_equal(c->templates[1].stands_for, 1 << OPFOR_PT_INFANTRY);
    assert_int_equal(c->templates[1].qualities, (1 << OPFOR_Q_CIVILIAN) | (1 << OPFOR_Q_CONSCRIPT));
    assert_int_equal(c->templates[1].copies, 2);
    assert_int_equal(c->templates[1].unit.count, 10);
    assert_int_equal(c->figs[c->templates[1].unit.first].quality, OPFOR_Q_SOLDIER);
    assert_int_equal(c->figs[c->templates[1].unit.first + 1].quality, OPFOR_Q_CONSCRIPT);
    assert_int_equal(c->nfigs, 13);
    pfx_free(x);
}

static void patrol_config_builtin_block(void **state) {
    (void)state;
    pfx_t *x = pfx_builtin();
    const opfor_patrol_config_t *c = &x->cfg;
    assert_float_equal(c->front_line_gap, 12, 0);
    /* The default collection has something for every spotted type. */
    for (int t = 0; t < OPFOR_PT_COUNT; t++) {
        int n = 0;
        for (int i = 0; i < c->ntemplates; i++)
            n += (c->templates[i].stands_for >> t) & 1;
        assert_true(n >= 1);
    }
    pfx_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(patrol_press_probs_exact),
        cmocka_unit_test(patrol_press_summary_from_position),
        cmocka_unit_test(patrol_press_chi_square_default),
        cmocka_unit_test(patrol_press_chi_square_has_power),
        cmocka_unit_test(patrol_press_chi_square_scenario_odds),
        cmocka_unit_test(patrol_press_deterministic),
        cmocka_unit_test(patrol_config_errors_name_place),
        cmocka_unit_test(patrol_config_defaults_and_collection),
        cmocka_unit_test(patrol_config_builtin_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
