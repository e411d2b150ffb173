/* tests/rulesets/test_patrol_fixture.h — Patrol Mode positions for the test_patrol_* programs.
 *
 * A fixture is a scenario written as YAML (so the tests also exercise the patrol: block
 * reader), its config, a copy of its unit and figure arrays as the forces, and the patrol
 * state at the opening position. Everything is static so each program includes it alone.
 */
#ifndef OPFOR_TEST_PATROL_FIXTURE_H
#define OPFOR_TEST_PATROL_FIXTURE_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "opfor/scenario.h"
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/patrol.h"

typedef struct pfx {
    opfor_scenario_t sc;
    opfor_patrol_config_t cfg;
    opfor_patrol_state_t ps;
    opfor_unit_t units[OPFOR_MAX_UNITS];
    opfor_figure_t figures[OPFOR_MAX_FIGURES];
    opfor_patrol_forces_t fo;
} pfx_t;

static inline void pfx_forces(pfx_t *x) {
    memcpy(x->units, x->sc.units, sizeof x->units);
    memcpy(x->figures, x->sc.figures, sizeof x->figures);
    x->fo.units = x->units;
    x->fo.figures = x->figures;
    x->fo.nunits = x->sc.nunits;
    x->fo.nfigures = x->sc.nfigures;
    opfor_patrol_init(&x->cfg, &x->ps, &x->fo);
}

/* Loads yaml (a whole scenario) and prints any error before failing. */
static inline pfx_t *pfx_load(const char *yaml) {
    pfx_t *x = calloc(1, sizeof *x);
    assert_non_null(x);
    opfor_diag_t d;
    int rc = opfor_viktoria_scenario_load_string(yaml, strlen(yaml), "fixture", &x->sc, &d);
    if (rc)
        print_error("fixture: %d:%d: %s\n", d.line, d.col, d.msg);
    assert_int_equal(rc, 0);
    rc = opfor_patrol_config_load(&x->cfg, &x->sc, "fixture", &d);
    if (rc)
        print_error("fixture: %d:%d: %s\n", d.line, d.col, d.msg);
    assert_int_equal(rc, 0);
    pfx_forces(x);
    return x;
}

static inline pfx_t *pfx_builtin(void) {
    pfx_t *x = calloc(1, sizeof *x);
    assert_non_null(x);
    opfor_diag_t d;
    assert_int_equal(opfor_viktoria_builtin_load("patrol_default", &x->sc, &d), 0);
    assert_int_equal(opfor_patrol_config_load(&x->cfg, &x->sc, "builtin:patrol_default", &d), 0);
    pfx_forces(x);
    return x;
}

static inline void pfx_free(pfx_t *x) {
    opfor_scenario_free(&x->sc);
    free(x);
}

/* A 72 x 48 table, players (Blue) at the bottom, enemy (Red) at the top, north `north`;
 * extra is appended to the top level (terrain:, more units:, patrol:, ...) and units lists
 * further Blue units in YAML flow style. */
static inline pfx_t *pfx_table(const char *north, const char *units, const char *extra) {
    static char buf[8192];
    snprintf(buf, sizeof buf,
             "name: Fixture\n"
             "mode: patrol\n"
             "table: {width: 72, depth: 48, north: %s}\n"
             "sides:\n"
             "  - {name: Blue, player: true, edge: bottom}\n"
             "  - {name: Red, player: false, edge: top}\n"
             "units:\n%s"
             "%s",
             north, units, extra ? extra : "");
    return pfx_load(buf);
}

/* Flow-style YAML for a Blue infantry unit of n figures in line at (x, y). */
static inline const char *pfx_unit(char *buf, size_t size, const char *name, float x, float y,
                                   int n) {
    snprintf(buf, size,
             "  - {name: %s, side: Blue, type: infantry, position: [%g, %g], formation: line,\n"
             "     figures: [{count: 1, skills: leader, weapons: rifle},\n"
             "               {count: %d, weapons: rifle}]}\n",
             name, (double)x, (double)y, n - 1);
    return buf;
}

/* Marks every figure of unit u dead. */
static inline void pfx_kill_unit(pfx_t *x, int u) {
    const opfor_unit_t *un = &x->fo.units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        x->fo.figures[i].flags &= (uint16_t)~OPFOR_FIG_ALIVE;
}

/* Chi-square critical value for df degrees of freedom at upper tail 0.001 (z = 3.0902),
 * by the Wilson-Hilferty approximation (within 3% of the exact value for df >= 1). */
static inline double pfx_chi2_crit(int df) {
    double k = (double)df, a = 2.0 / (9.0 * k);
    double t = 1.0 - a + 3.0902 * sqrt(a);
    return k * t * t * t;
}

/* Chi-square statistic of counts against probabilities p (cells with p == 0 must have no
 * count, else the statistic is huge); *df gets the cells with p > 0, minus one. */
static inline double pfx_chi2(const long *count, const double *p, int n, long total, int *df) {
    double chi = 0.0;
    int cells = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] <= 0.0) {
            if (count[i] > 0)
                chi += 1e9;
            continue;
        }
        double e = p[i] * (double)total, dlt = (double)count[i] - e;
        chi += dlt * dlt / e;
        cells++;
    }
    *df = cells - 1;
    return chi;
}

#endif
