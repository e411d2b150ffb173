/* tests/rulesets/test_calc_monotone.c — property tests: every Viktoria! calculator answer is
 * monotone wherever the rules imply an order, over the WHOLE grid of field values.
 *
 * For each action the test enumerates every combination of its fields (ranges as every
 * bracket name plus inches at and just past every bracket edge), answers it, then steps one
 * ordered field to its next value and checks that no roll, outcome or distance moved the
 * wrong way, for the exact chance and for the chance as rendered on dice. The orders come
 * from the rules: better quality never hurts the one acting, cover never helps whoever shoots
 * at it, a wound never helps the wounded, range never helps the firer, charging never hurts
 * the attacker, general/musician/colours never hurt morale, half strength never helps.
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

#define MAXV 40

/* One field's values, split into ordered chains (a value's successor is the next value of
 * the same chain). */
typedef struct dim {
    int field;           /* opfor_viktoria_field_id_t */
    int n;               /* number of values */
    int v[MAXV];         /* req.v value */
    double inches[MAXV]; /* req.inches when v == OPFOR_VK_INCHES */
    int chain[MAXV];     /* chain id */
    int dir;             /* +1 the next value helps the actor, -1 hurts it, 0 unordered */
} dim_t;

/* Which way a field's order should push the actor's chances (see the file comment). */
static int direction(const opfor_viktoria_action_t *a, int field) {
    switch (field) {
    case OPFOR_VK_F_ACTOR:
    case OPFOR_VK_F_SHARPSHOOTER:
    case OPFOR_VK_F_CHARGING:
    case OPFOR_VK_F_GENERAL:
    case OPFOR_VK_F_MUSICIAN:
    case OPFOR_VK_F_COLOURS:
    case OPFOR_VK_F_REGISTERED:
    case OPFOR_VK_F_TARGET_WOUNDED:
        return 1;
    case OPFOR_VK_F_TARGET:
    case OPFOR_VK_F_ACTOR_WOUNDED:
    case OPFOR_VK_F_TARGET_RUNNING:
    case OPFOR_VK_F_TARGET_PRONE:
    case OPFOR_VK_F_HALF_STRENGTH:
    case OPFOR_VK_F_OBSTACLES:
    case OPFOR_VK_F_WEATHER:
    case OPFOR_VK_F_BLAST:
        return -1;
    case OPFOR_VK_F_COVER: /* the tester's own cover in tests, the target's otherwise */
        return a->is_test ? 1 : -1;
    case OPFOR_VK_F_RANGE:    /* longer range helps only a figure testing versus an MG */
    case OPFOR_VK_F_ALTITUDE: /* each level is one more bracket of range (XII.D) */
        return strcmp(a->name, "test_vs_mg") == 0 ? 1 : -1;
    case OPFOR_VK_F_MOVING: /* moving fire hurts the firer, helps a figure an MG fires at */
        return strcmp(a->name, "test_vs_mg") == 0 ? 1 : -1;
    default:
        return 0; /* mounted, guns, terrain, limbered, level, wind */
    }
}

static void push(dim_t *d, int v, double inches, int chain) {
    if (d->n >= MAXV) {
        fail_msg("too many values for field %d", d->field);
        return;
    }
    d->v[d->n] = v;
    d->inches[d->n] = inches;
    d->chain[d->n] = chain;
    d->n++;
}

static void build_dim(const opfor_viktoria_action_t *a, const opfor_viktoria_action_field_t *af,
                      dim_t *d) {
    const opfor_viktoria_field_t *f = opfor_viktoria_field_get(af->id);
    memset(d, 0, sizeof *d);
    d->field = af->id;
    d->dir = f->ordered ? direction(a, af->id) : 0;
    switch (af->kind) {
    case OPFOR_VK_FK_QUALITY:
        for (int q = 0; q < OPFOR_Q_COUNT; q++)
            push(d, q, 0, 0);
        break;
    case OPFOR_VK_FK_CLASS:
        for (int q = 0; q < OPFOR_Q_COUNT; q++)
            push(d, q, 0, 0);
        push(d, OPFOR_VK_TRANSPORT, 0, 1); /* not ranked against the qualities */
        break;
    case OPFOR_VK_FK_BOOL:
        push(d, 0, 0, 0);
        push(d, 1, 0, 0);
        break;
    case OPFOR_VK_FK_ENUM:
        if (af->def == OPFOR_VK_UNSET)
            push(d, OPFOR_VK_UNSET, 0, 1);
        for (const opfor_name_t *n = f->values; n->name; n++) {
            int dup = 0;
            for (int i = 0; i < d->n; i++)
                dup |= d->v[i] == n->value;
            if (!dup)
                push(d, n->value, 0, 0);
        }
        break;
    case OPFOR_VK_FK_INT:
        if (af->def == OPFOR_VK_UNSET)
            push(d, OPFOR_VK_UNSET, 0, 1);
        /* The fire actions' grid is large: their altitude stays 0 here (a level is one more
           bracket; test_calc's calc_altitude_adds_brackets walks every level and bracket). */
        if (af->id == OPFOR_VK_F_ALTITUDE && a->ranged <= OPFOR_VK_R_RIFLE) {
            push(d, 0, 0, 0);
            break;
        }
        for (int i = f->min; i <= f->max; i++)
            push(d, i, 0, 0);
        break;
    case OPFOR_VK_FK_RANGE: {
        for (int b = 0; b < OPFOR_VK_BRACKET_COUNT; b++)
            push(d, b, 0, 0);
        const double *e = M.range_edge[a->ranged];
        push(d, OPFOR_VK_INCHES, 0, 1);
        for (int b = 0; b < OPFOR_VK_BRACKET_COUNT; b++) {
            if (isinf(e[b])) {
                push(d, OPFOR_VK_INCHES, e[b - 1] + 10, 1);
                push(d, OPFOR_VK_INCHES, 1000, 1);
                break;
            }
            push(d, OPFOR_VK_INCHES, e[b], 1);
            if (b + 1 < OPFOR_VK_BRACKET_COUNT)
                push(d, OPFOR_VK_INCHES, e[b] + 0.5, 1);
        }
        break;
    }
    case OPFOR_VK_FK_INCHES: {
        static const double in[] = {0,  3,    6,  6.5, 11.5, 12, 12.5, 17.5,
                                    18, 18.5, 24, 30,  36,   48, 72,   100};
        for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
            push(d, OPFOR_VK_INCHES, in[i], 0);
        break;
    }
    }
}

static void set_value(opfor_viktoria_req_t *req, const dim_t *d, int i) {
    req->v[d->field] = d->v[i];
    if (d->v[i] == OPFOR_VK_INCHES)
        req->inches = d->inches[i];
}

typedef struct stats {
    long combos;  /* requests answered */
    long refused; /* requests the rules refuse (out of range, lance on foot, ...) */
    long pairs;   /* ordered pairs compared */
    long checks;  /* individual comparisons */
} stats_t;

#define EPS 1e-12

static void describe(const opfor_viktoria_req_t *req, char *buf, size_t size) {
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(req->action);
    size_t len = (size_t)snprintf(buf, size, "%s", a->name);
    for (int i = 0; i < a->nfields && len < size; i++) {
        char v[48];
        opfor_viktoria_req_value(req, a->fields[i].id, v, sizeof v);
        len += (size_t)snprintf(buf + len, size - len, " --%s %s",
                                opfor_viktoria_field_get(a->fields[i].id)->name, v);
    }
}

static void bad(const opfor_viktoria_req_t *x, const opfor_viktoria_req_t *y, const char *what,
                double px, double py) {
    char a[512], b[512];
    describe(x, a, sizeof a);
    describe(y, b, sizeof b);
    fail_msg("not monotone: %s\n  %s -> %.15g\n  %s -> %.15g", what, a, px, b, py);
}

/* Checks the invariants of one answer. */
static void check_one(const opfor_viktoria_req_t *req, const opfor_viktoria_result_t *r) {
    for (int i = 0; i < r->nrolls; i++) {
        const opfor_roll_t *x = &r->rolls[i].roll;
        if (!(x->p_exact >= 0 && x->p_exact <= 1 && x->p_rendered >= 0 && x->p_rendered <= 1) ||
            fabs(x->error) > 1.0 / 12.0 + EPS)
            bad(req, req, r->rolls[i].name, x->p_exact, x->p_rendered);
    }
    for (int i = 0; i < r->ntables; i++) {
        double s = 0;
        for (int k = 0; k < r->tables[i].n; k++)
            s += r->tables[i].e[k].p;
        if (fabs(s - 1) > EPS)
            bad(req, req, r->tables[i].name, s, 1);
    }
    for (int i = 0; i < r->ndists; i++)
        if (!(r->dists[i].min >= 0 && r->dists[i].min <= r->dists[i].mean + EPS &&
              r->dists[i].mean <= r->dists[i].max + EPS))
            bad(req, req, r->dists[i].name, r->dists[i].min, r->dists[i].max);
}

static void compare(const opfor_viktoria_req_t *ra, const opfor_viktoria_result_t *a,
                    const opfor_viktoria_req_t *rb, const opfor_viktoria_result_t *b, int dir,
                    int field, stats_t *st) {
    st->pairs++;
    for (int i = 0; i < a->nrolls; i++) {
        const opfor_viktoria_named_roll_t *y = opfor_viktoria_result_roll(b, a->rolls[i].name);
        if (!y)
            continue;
        int s = dir * a->rolls[i].favours;
        const opfor_roll_t *p = &a->rolls[i].roll, *q = &y->roll;
        if (s * (q->p_exact - p->p_exact) < -EPS)
            bad(ra, rb, a->rolls[i].name, p->p_exact, q->p_exact);
        if (s * (q->p_rendered - p->p_rendered) < -EPS)
            bad(ra, rb, a->rolls[i].name, p->p_rendered, q->p_rendered);
        st->checks += 2;
    }
    int wound_axis = field == OPFOR_VK_F_ACTOR_WOUNDED || field == OPFOR_VK_F_TARGET_WOUNDED;
    for (int i = 0; i < a->noutcomes; i++) {
        const opfor_viktoria_outcome_t *o = &a->outcomes[i];
        const opfor_viktoria_outcome_t *y = opfor_viktoria_result_outcome(b, o->name);
        /* "unharmed" of a wounded figure means "no worse": not comparable across a wound */
        if (!y || o->favours == 0 || (wound_axis && strcmp(o->name, "unharmed") == 0))
            continue;
        int s = dir * o->favours;
        if (s * (y->p_exact - o->p_exact) < -EPS)
            bad(ra, rb, o->name, o->p_exact, y->p_exact);
        if (s * (y->p_rendered - o->p_rendered) < -EPS)
            bad(ra, rb, o->name, o->p_rendered, y->p_rendered);
        st->checks += 2;
    }
    for (int i = 0; i < a->ndists; i++) {
        const opfor_viktoria_distance_t *d = &a->dists[i];
        const opfor_viktoria_distance_t *y = opfor_viktoria_result_distance(b, d->name);
        if (!y || strcmp(d->name, "deviation") == 0)
            continue;
        if (dir * (y->min - d->min) < -EPS || dir * (y->max - d->max) < -EPS ||
            dir * (y->mean - d->mean) < -EPS)
            bad(ra, rb, d->name, d->mean, y->mean);
        st->checks += 3;
    }
    /* Deviation grows with range: a longer shot never lands closer (dir is -1 for range). */
    const opfor_viktoria_distance_t *d = opfor_viktoria_result_distance(a, "deviation");
    const opfor_viktoria_distance_t *y = opfor_viktoria_result_distance(b, "deviation");
    if (d && y && field == OPFOR_VK_F_RANGE) {
        if (y->mean < d->mean - EPS || y->max < d->max - EPS)
            bad(ra, rb, "deviation", d->mean, y->mean);
        st->checks++;
    }
}

/* Walks the whole grid of one action. */
static void grid(int action, stats_t *st) {
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(action);
    dim_t dims[OPFOR_VK_MAX_ACTION_FIELDS];
    int idx[OPFOR_VK_MAX_ACTION_FIELDS] = {0};
    int nd = a->nfields;
    for (int i = 0; i < nd; i++)
        build_dim(a, &a->fields[i], &dims[i]);
    opfor_viktoria_req_t req, nxt;
    opfor_viktoria_result_t res, res2;
    opfor_diag_t diag;
    opfor_viktoria_req_init(&req, action);
    for (;;) {
        for (int i = 0; i < nd; i++)
            set_value(&req, &dims[i], idx[i]);
        int rc = opfor_viktoria_calc(&M, &req, &res, &diag);
        if (rc == 0) {
            st->combos++;
            check_one(&req, &res);
            for (int i = 0; i < nd; i++) {
                int k = idx[i];
                if (dims[i].dir == 0 || k + 1 >= dims[i].n ||
                    dims[i].chain[k + 1] != dims[i].chain[k])
                    continue;
                nxt = req;
                set_value(&nxt, &dims[i], k + 1);
                if (opfor_viktoria_calc(&M, &nxt, &res2, &diag) != 0)
                    continue;
                compare(&req, &res, &nxt, &res2, dims[i].dir, dims[i].field, st);
            }
        } else {
            if (rc != OPFOR_ERANGE && rc != OPFOR_EILLEGAL)
                fail_msg("%s: unexpected error %d: %s", a->name, rc, diag.msg);
            st->refused++;
        }
        int i = 0;
        while (i < nd && ++idx[i] == dims[i].n)
            idx[i++] = 0;
        if (i == nd)
            break;
    }
}

static void run_actions(int first, int last) {
    for (int id = first; id <= last; id++) {
        stats_t st = {0, 0, 0, 0};
        grid(id, &st);
        const opfor_viktoria_action_t *a = opfor_viktoria_action_get(id);
        int ordered = 0;
        for (int i = 0; i < a->nfields; i++)
            ordered |= opfor_viktoria_field_get(a->fields[i].id)->ordered &&
                       direction(a, a->fields[i].id) != 0;
        print_message("%-20s %8ld answers %6ld refused %8ld pairs %9ld checks\n", a->name,
                      st.combos, st.refused, st.pairs, st.checks);
        assert_true(st.combos > 0);
        if (ordered)
            assert_true(st.checks > 0); /* the test can fail: something was compared */
    }
}

static void monotone_fire(void **state) {
    (void)state;
    run_actions(OPFOR_VK_A_FIRE_PISTOL, OPFOR_VK_A_FIRE_RIFLE);
}

static void monotone_tests_artillery_bombs(void **state) {
    (void)state;
    run_actions(OPFOR_VK_A_TEST_VS_MG, OPFOR_VK_A_TEST_VS_BLAST);
}

static void monotone_melee(void **state) {
    (void)state;
    run_actions(OPFOR_VK_A_ATTACK_SWORD, OPFOR_VK_A_ATTACK_DAGGER);
}

static void monotone_mesmerism_morale_command(void **state) {
    (void)state;
    run_actions(OPFOR_VK_A_HYPNOTIC_ATTACK, OPFOR_VK_A_TEST_OUT_OF_COMMAND);
}

static void monotone_movement_weather(void **state) {
    (void)state;
    run_actions(OPFOR_VK_A_ADVANCE, OPFOR_VK_A_WEATHER_EVENT);
    /* Rough ground never lengthens a move; roads never shorten one. */
    for (int id = OPFOR_VK_A_ADVANCE; id <= OPFOR_VK_A_CRAWL; id++) {
        for (int q = 0; q < OPFOR_Q_COUNT; q++) {
            opfor_viktoria_req_t req;
            opfor_viktoria_result_t r;
            opfor_diag_t d;
            opfor_viktoria_req_init(&req, id);
            req.v[OPFOR_VK_F_ACTOR] = q;
            for (int t = 1; t <= 2; t++) {
                req.v[OPFOR_VK_F_TERRAIN] = t;
                assert_int_equal(opfor_viktoria_calc(&M, &req, &r, &d), 0);
                const opfor_viktoria_distance_t *open = opfor_viktoria_result_distance(&r, "move");
                const opfor_viktoria_distance_t *adj =
                    opfor_viktoria_result_distance(&r, "adjusted");
                if (t == 1)
                    assert_true(adj->max < open->max && adj->mean < open->mean);
                else
                    assert_true(adj->max >= open->max && adj->mean >= open->mean);
            }
        }
    }
}

/* The order checks are not vacuous: a model that breaks an order is caught by the loader,
 * and a calculation that broke one would be caught here. */
static void monotone_detects_a_broken_order(void **state) {
    (void)state;
    opfor_viktoria_req_t a, b;
    opfor_viktoria_result_t ra, rb;
    opfor_diag_t d;
    opfor_viktoria_model_t m = M;
    opfor_viktoria_req_init(&a, OPFOR_VK_A_FIRE_RIFLE);
    b = a;
    a.v[OPFOR_VK_F_ACTOR] = OPFOR_Q_SOLDIER;
    b.v[OPFOR_VK_F_ACTOR] = OPFOR_Q_VETERAN;
    m.fire_hit.actor[OPFOR_Q_VETERAN] = -3; /* bypasses the loader's checks on purpose */
    assert_int_equal(opfor_viktoria_calc(&m, &a, &ra, &d), 0);
    assert_int_equal(opfor_viktoria_calc(&m, &b, &rb, &d), 0);
    assert_true(opfor_viktoria_result_roll(&rb, "hit")->roll.p_exact <
                opfor_viktoria_result_roll(&ra, "hit")->roll.p_exact);
    assert_int_equal(
        opfor_viktoria_model_load_string("fire: {hit: {actor: {veteran: -3}}}\n", "x.yaml", &m, &d),
        OPFOR_EPARSE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(monotone_fire),
        cmocka_unit_test(monotone_tests_artillery_bombs),
        cmocka_unit_test(monotone_melee),
        cmocka_unit_test(monotone_mesmerism_morale_command),
        cmocka_unit_test(monotone_movement_weather),
        cmocka_unit_test(monotone_detects_a_broken_order),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
