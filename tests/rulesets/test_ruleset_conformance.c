/* tests/rulesets/test_ruleset_conformance.c — one suite run over every ruleset.
 *
 * As open_spiel/tests/basic_tests.h: random playouts check who moves, legal lists empty only
 * at the end, one roll at chance nodes, outcome probabilities summing to 1, returns in
 * [-1, 1], clones staying equal under the same actions, serialization round trips,
 * resampling that keeps the observer's choices, unlisted actions refused. Then every
 * optional hook a ruleset has: views (the game master's is the state; a side's view is
 * stable and never shows what resampling for that side would change), scenes within the
 * table, the AI table (evaluator values in [-1, 1], priors, playout picks in range, every bot
 * choosing legal actions, orders with a sentence), the calculator's and the session's forms
 * (valid fields and defaults; a run on the defaults gives a chance in [0, 1] and a
 * distribution summing to 1). Runs over the registry and the toy games of tests/ai; then the
 * registry's and the wrapper's contracts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/toy_games.c"
#include "opfor/order.h"
#include "opfor/ruleset.h"
#include "opfor/ruleset_ai.h"
#include "opfor/ruleset_calc.h"
#include "opfor/session.h"

#define GAMES 24           /* random games per ruleset */
#define STEP_CAP 100000    /* a game longer than this does not end */
#define SER_CAP (1u << 20) /* serialization buffer */
#define AI_CHECKS 400      /* decisions per ruleset whose AI hooks are checked */
#define MAX_BOTS 12        /* bots of a ruleset the suite opens */

typedef struct suite {
    const opfor_ruleset_t *rs;
    const void *ctx;
    unsigned char *s, *t, *u; /* state buffers */
    opfor_action_t *acts, *acts2;
    opfor_chance_outcome_t *outs;
    unsigned char *ser;
    unsigned char *v1, *v2; /* views */
    opfor_scene_t *scene;
    void *scratch;                                    /* the evaluator's scratch */
    float *prior;                                     /* max_actions priors */
    opfor_policy_t bots[MAX_BOTS][OPFOR_MAX_PLAYERS]; /* each bot, one seat per side */
    int nbots;
    /* what the playouts met, so the suite can say it exercised each part */
    long decisions, chances, outcome_lists, serialized, resampled, terminals;
    long views, hidden_views, scenes, ai_checks, bot_moves, orders;
} suite_t;

static void check_values(const suite_t *S, const double *v, int zero_sum) {
    double sum = 0.0;
    for (int i = 0; i < S->rs->max_players; i++) {
        assert_true(v[i] >= -1.0 && v[i] <= 1.0);
        sum += v[i];
    }
    if (zero_sum)
        assert_true(fabs(sum) < 1e-9);
}

/* Views: the game master's is the state; a side's view of its view is the same view; and
 * when the ruleset resamples, a side cannot tell a state from one resampled for it. */
static void check_views(suite_t *S, opfor_game_t *g, int p, opfor_rng_t *rng) {
    const opfor_ruleset_t *rs = S->rs;
    size_t size = rs->state_size;
    assert_int_equal(opfor_game_view(g, S->s, OPFOR_VIEW_ALL, S->v1), 0);
    assert_memory_equal(S->v1, S->s, size);
    assert_int_equal(opfor_game_view(g, S->s, rs->max_players, S->v1), OPFOR_EINVAL);
    if (!rs->view)
        return;
    for (int side = 0; side < rs->max_players; side++) {
        assert_int_equal(opfor_game_view(g, S->s, side, S->v1), 0);
        assert_int_equal(opfor_game_view(g, S->v1, side, S->v2), 0);
        assert_memory_equal(S->v1, S->v2, size); /* stable */
        S->views++;
        if (!(rs->flags & OPFOR_RS_HIDDEN) || !rs->resample || p == OPFOR_PLAYER_TERMINAL)
            continue;
        memcpy(S->t, S->s, size);
        assert_int_equal(opfor_game_resample(g, S->t, side, rng), 0);
        assert_int_equal(opfor_game_view(g, S->t, side, S->v2), 0);
        assert_memory_equal(S->v1, S->v2, size); /* nothing resampling changes shows */
        S->hidden_views++;
    }
}

static void check_name(const char *name, size_t cap) {
    assert_true(memchr(name, 0, cap) != NULL);
}

/* Scenes: on the table, counts within the arrays, names terminated. */
static void check_scene(suite_t *S, opfor_game_t *g) {
    for (int viewer = OPFOR_VIEW_ALL; viewer < S->rs->max_players; viewer++) {
        opfor_scene_t *sc = S->scene;
        int rc = opfor_game_scene(g, S->s, viewer, sc);
        if (rc == OPFOR_ENOTSUP) {
            assert_null(S->rs->scene);
            return;
        }
        assert_int_equal(rc, 0);
        assert_true(sc->width > 0 && sc->depth > 0);
        assert_true(sc->nshapes <= OPFOR_SCENE_MAX_SHAPES && sc->nunits <= OPFOR_SCENE_MAX_UNITS &&
                    sc->narrows <= OPFOR_SCENE_MAX_ARROWS && sc->nlabels <= OPFOR_SCENE_MAX_LABELS);
#define ON_TABLE(pt)                                                                               \
    assert_true((pt).x >= 0 && (pt).x <= sc->width && (pt).y >= 0 && (pt).y <= sc->depth)
        for (int i = 0; i < sc->nunits; i++) {
            ON_TABLE(sc->units[i].at);
            assert_true(sc->units[i].side < OPFOR_MAX_PLAYERS);
            check_name(sc->units[i].name, sizeof sc->units[i].name);
        }
        for (int i = 0; i < sc->nshapes; i++) {
            assert_true(sc->shapes[i].n >= 2 && sc->shapes[i].n <= OPFOR_SCENE_MAX_VERTS);
            assert_true(sc->shapes[i].style < OPFOR_SCENE_STYLE_COUNT);
            for (int k = 0; k < sc->shapes[i].n; k++)
                ON_TABLE(sc->shapes[i].v[k]);
            check_name(sc->shapes[i].name, sizeof sc->shapes[i].name);
        }
        for (int i = 0; i < sc->narrows; i++) {
            ON_TABLE(sc->arrows[i].from);
            ON_TABLE(sc->arrows[i].to);
        }
        for (int i = 0; i < sc->nlabels; i++) {
            ON_TABLE(sc->labels[i].at);
            check_name(sc->labels[i].text, sizeof sc->labels[i].text);
        }
#undef ON_TABLE
        S->scenes++;
    }
}

static int listed_action(const suite_t *S, int n, const opfor_action_t *a) {
    for (int i = 0; i < n; i++)
        if (opfor_action_eq(&S->acts[i], a))
            return 1;
    return 0;
}

/* The AI table at a decision of side p with the n actions in S->acts (the first AI_CHECKS
 * decisions of the suite): evaluator, bots, orders. */
static void check_ai(suite_t *S, opfor_game_t *g, int p, int n, opfor_rng_t *rng) {
    const opfor_ruleset_ai_t *ai = S->rs->ai;
    if (!ai || S->ai_checks >= AI_CHECKS)
        return;
    S->ai_checks++;
    const opfor_evaluator_t *ev = ai->evaluator;
    if (ev) {
        double v[OPFOR_MAX_PLAYERS];
        if (ev->evaluate && ev->evaluate(ev->user, S->scratch, g, S->s, v) == 0)
            check_values(S, v, 0);
        if (ev->prior && ev->prior(ev->user, S->scratch, g, S->s, S->acts, n, S->prior) == 0)
            for (int i = 0; i < n; i++)
                assert_true(isfinite(S->prior[i]));
        if (ev->policy) {
            int k = ev->policy(ev->user, S->scratch, g, S->s, S->acts, n, rng);
            assert_true(k >= 0 && k < n);
        }
    }
    for (int b = 0; b < S->nbots; b++) {
        opfor_policy_t *bot = &S->bots[b][p];
        opfor_action_t a;
        assert_int_equal(bot->choose(bot->self, g, S->s, rng, &a), 0);
        assert_true(listed_action(S, n, &a));
        S->bot_moves++;
    }
    if (ai->order) {
        opfor_order_t o;
        const opfor_action_t *a = &S->acts[opfor_rng_below(rng, (uint32_t)n)];
        assert_int_equal(ai->order(S->ctx, S->s, a, &o), 0);
        assert_true(o.sentence[0] != 0);
        check_name(o.sentence, sizeof o.sentence);
        assert_int_equal(o.side, p);
        assert_true(o.nrolls >= 0 && o.nrolls <= OPFOR_ORDER_MAX_ROLLS);
        assert_true(o.nterms >= 0 && o.nterms <= OPFOR_ORDER_MAX_TERMS);
        for (int i = 0; i < o.nrolls; i++)
            assert_true(o.rolls[i].p >= 0.0 && o.rolls[i].p <= 1.0);
        S->orders++;
    }
}

/* Opens every bot the ruleset names (rs->ai->bots, comma-separated, and its rollout bot),
 * one instance per side. */
static void open_bots(suite_t *S, const opfor_game_t *g) {
    const opfor_ruleset_ai_t *ai = S->rs->ai;
    S->nbots = 0;
    if (!ai || !ai->bot_open)
        return;
    char names[256];
    snprintf(names, sizeof names, "%s,%s", ai->bots ? ai->bots : "",
             ai->rollout_bot ? ai->rollout_bot : "");
    char *save = NULL;
    for (char *tok = strtok_r(names, ", ", &save); tok && S->nbots < MAX_BOTS;
         tok = strtok_r(NULL, ", ", &save)) {
        if (!strcmp(tok, "random"))
            continue; /* the generic one, not the ruleset's */
        for (int side = 0; side < S->rs->max_players; side++) {
            opfor_policy_t *bot = &S->bots[S->nbots][side];
            assert_int_equal(ai->bot_open(tok, g, bot), 0);
            assert_non_null(bot->choose);
        }
        S->nbots++;
    }
    assert_int_equal(ai->bot_open("no-such-bot", g, &S->bots[MAX_BOTS - 1][0]), OPFOR_ENOENT);
}

static void close_bots(suite_t *S) {
    for (int b = 0; b < S->nbots; b++)
        for (int side = 0; side < S->rs->max_players; side++)
            if (S->bots[b][side].release)
                S->bots[b][side].release(S->bots[b][side].self);
    S->nbots = 0;
}

/* A form's fields: named uniquely, a known type, defaults within the limits and choices (a
 * required or optional field has no default to check). */
static void check_form(const opfor_form_t *f) {
    assert_non_null(f->name);
    assert_true(f->name[0] != 0);
    assert_non_null(f->title);
    assert_true(f->nfields >= 0 && (f->nfields == 0 || f->fields));
    for (int i = 0; i < f->nfields; i++) {
        const opfor_field_t *fd = &f->fields[i];
        assert_non_null(fd->name);
        assert_true(fd->name[0] != 0);
        assert_true(fd->type >= 0 && fd->type < OPFOR_FIELD_TYPE_COUNT);
        assert_int_equal(opfor_form_field(f, fd->name), i);
        assert_true(fd->min <= fd->max);
        if ((fd->type == OPFOR_FIELD_INT || fd->type == OPFOR_FIELD_NUM) &&
            !(fd->flags & (OPFOR_FIELD_REQUIRED | OPFOR_FIELD_OPTIONAL)) &&
            (fd->min != 0 || fd->max != 0))
            assert_true(fd->def >= fd->min && fd->def <= fd->max);
        if (fd->type == OPFOR_FIELD_CHOICE) {
            assert_non_null(fd->choices);
            assert_non_null(fd->choices[0]);
        }
    }
}

/* The calculator: every action's form valid; run on the defaults (when no field is
 * required) gives a chance in [0, 1] and a distribution summing to 1. */
static void check_calc(const opfor_ruleset_t *rs) {
    const opfor_ruleset_calc_t *calc = rs->calc;
    if (!calc)
        return;
    assert_true(calc->nactions > 0 && calc->actions && calc->run);
    void *model = NULL;
    if (calc->model_load) {
        opfor_diag_t d;
        assert_int_equal(calc->model_load(NULL, &model, &d), 0);
    }
    for (int i = 0; i < calc->nactions; i++) {
        const opfor_form_t *f = &calc->actions[i];
        check_form(f);
        assert_ptr_equal(opfor_form_find(calc->actions, calc->nactions, f->name), f);
        opfor_value_t vals[64];
        assert_true(f->nfields <= 64);
        memset(vals, 0, sizeof vals);
        char msg[256] = "";
        int required = 0;
        for (int k = 0; k < f->nfields; k++)
            required |= (f->fields[k].flags & OPFOR_FIELD_REQUIRED) != 0;
        if (required)
            continue;
        assert_int_equal(opfor_form_check(f, vals, msg, sizeof msg), 0);
        opfor_calc_answer_t *a = calloc(1, sizeof *a);
        assert_non_null(a);
        assert_int_equal(calc->run(model, f, vals, NULL, a, msg, sizeof msg), 0);
        assert_true(a->p >= 0.0 && a->p <= 1.0);
        assert_true(a->ndist >= 0 && a->ndist <= OPFOR_CALC_MAX_DIST);
        if (a->ndist > 0) {
            double sum = 0;
            for (int k = 0; k < a->ndist; k++) {
                assert_true(a->dist[k].p >= 0.0 && a->dist[k].p <= 1.0);
                sum += a->dist[k].p;
            }
            assert_true(fabs(sum - 1.0) < 1e-6);
        }
        assert_true(a->nfacts >= 0 && a->nfacts <= OPFOR_CALC_MAX_FACTS);
        assert_true(a->nnotes >= 0 && a->nnotes <= OPFOR_CALC_MAX_NOTES);
        free(a);
    }
    if (calc->model_free)
        calc->model_free(model);
}

/* The session: its reports and table actions are valid forms with a hook to apply them. */
static void check_session(const opfor_ruleset_t *rs) {
    const opfor_ruleset_session_t *ses = rs->session;
    if (!ses)
        return;
    assert_true(ses->nreports >= 0 && ses->nactions >= 0);
    assert_true(ses->nreports + ses->nactions > 0);
    if (ses->nreports)
        assert_true(ses->reports && ses->report);
    if (ses->nactions)
        assert_true(ses->actions && ses->action);
    for (int i = 0; i < ses->nreports; i++) {
        check_form(&ses->reports[i]);
        assert_ptr_equal(opfor_form_find(ses->reports, ses->nreports, ses->reports[i].name),
                         &ses->reports[i]);
    }
    for (int i = 0; i < ses->nactions; i++)
        check_form(&ses->actions[i]);
}

/* The ruleset's own daemon methods: verbs without dots, each help line (when given) beside
 * its verb, and each old name an alias of a listed verb, with a dot, dropped at a later
 * api_level than the one that brought ruleset methods (5). */
static void check_methods(const opfor_ruleset_t *rs) {
    size_t n = 0;
    for (; rs->methods && rs->methods[n]; n++) {
        assert_true(rs->methods[n][0] != '\0' && !strchr(rs->methods[n], '.'));
        if (rs->method_help)
            assert_true(rs->method_help[n] && rs->method_help[n][0] != '\0');
    }
    if (rs->method_help)
        assert_null(rs->method_help[n]);
    for (const opfor_method_alias_t *a = rs->method_aliases; a && a->verb; a++) {
        int listed = 0;
        for (size_t i = 0; i < n; i++)
            listed |= strcmp(rs->methods[i], a->verb) == 0;
        assert_true(listed);
        assert_non_null(a->old);
        assert_non_null(strchr(a->old, '.'));
        assert_true(a->until > 5);
    }
}

/* Checks made at every state of a playout. */
static void check_state(suite_t *S, opfor_game_t *g, int p, int n, opfor_rng_t *rng) {
    const opfor_ruleset_t *rs = S->rs;
    size_t size = rs->state_size;
    /* hash: equal states hash equally */
    memcpy(S->t, S->s, size);
    assert_true(opfor_game_hash(g, S->s) == opfor_game_hash(g, S->t));
    /* every listed action has a phrase, and none is listed twice */
    for (int i = 0; i < n; i++) {
        char buf[256] = "";
        opfor_game_action_str(g, S->s, &S->acts[i], buf, sizeof buf);
        assert_true(buf[0] != 0);
        for (int j = 0; j < i; j++)
            assert_false(opfor_action_eq(&S->acts[i], &S->acts[j]));
    }
    /* serialization round trip, when supported */
    size_t len = 0;
    int rc = opfor_game_serialize(g, S->s, S->ser, SER_CAP, &len);
    if (rc != OPFOR_ENOTSUP) {
        assert_int_equal(rc, 0);
        assert_true(len > 0 && len <= SER_CAP);
        memset(S->u, 0xA5, size);
        assert_int_equal(opfor_game_deserialize(g, S->u, S->ser, len), 0);
        assert_memory_equal(S->u, S->s, size);
        if (len > 1) /* a cut-off buffer is refused */
            assert_true(opfor_game_deserialize(g, S->u, S->ser, len - 1) < 0);
        S->serialized++;
    }
    /* the ruleset's own estimate, when it has one */
    double v[OPFOR_MAX_PLAYERS];
    if (p >= 0 && opfor_game_evaluate(g, S->s, v) == 0)
        check_values(S, v, 0);
    /* resampling keeps who moves and, for the observer, its own choices */
    if ((rs->flags & OPFOR_RS_HIDDEN) && rs->resample && p >= 0) {
        memcpy(S->t, S->s, size);
        assert_int_equal(opfor_game_resample(g, S->t, p, rng), 0);
        assert_int_equal(opfor_game_current(g, S->t), p);
        int n2 = opfor_game_legal(g, S->t, S->acts2, rs->max_actions);
        assert_int_equal(n2, n);
        assert_memory_equal(S->acts2, S->acts, (size_t)n * sizeof(opfor_action_t));
        S->resampled++;
    }
    check_views(S, g, p, rng);
    check_scene(S, g);
    if (p >= 0)
        check_ai(S, g, p, n, rng);
    /* an action nobody lists is refused, by the wrapper and by the ruleset itself, and
     * leaves the state as it was */
    opfor_action_t junk = opfor_action_make(0xEE);
    junk.unit = junk.target = 0xEE;
    junk.arg = 0xEEEE;
    junk.x = -1e9f;
    memcpy(S->t, S->s, size);
    assert_int_equal(opfor_game_apply(g, S->t, &junk), OPFOR_EILLEGAL);
    assert_int_equal(rs->apply(S->ctx, S->t, &junk), OPFOR_EILLEGAL);
    assert_memory_equal(S->t, S->s, size);
}

/* Plays one game with random choices (explicit outcomes half of the time at chance nodes
 * that have them) and checks every state and step. */
static void playout(suite_t *S, uint64_t seed) {
    const opfor_ruleset_t *rs = S->rs;
    size_t size = rs->state_size;
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, rs, S->ctx, OPFOR_GAME_CHECK_LEGAL), 0);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, seed, 0xC0F);
    memset(S->s, 0, size);
    assert_int_equal(opfor_game_new_state(&g, S->s, seed), 0);
    /* the same seed gives the same opening */
    memset(S->t, 0x5A, size);
    assert_int_equal(opfor_game_new_state(&g, S->t, seed), 0);
    assert_memory_equal(S->s, S->t, size);

    for (int b = 0; b < S->nbots; b++)
        for (int side = 0; side < rs->max_players; side++)
            if (S->bots[b][side].begin)
                assert_int_equal(S->bots[b][side].begin(S->bots[b][side].self, &g, seed, side), 0);

    opfor_progress_t last = {0, 0};
    int have_progress = opfor_game_progress(&g, S->s, &last) == 0;
    for (long step = 0;; step++) {
        assert_true(step < STEP_CAP);
        int p = opfor_game_current(&g, S->s);
        assert_true(p == OPFOR_PLAYER_TERMINAL || p == OPFOR_PLAYER_CHANCE ||
                    (p >= 0 && p < rs->max_players));
        int n = opfor_game_legal(&g, S->s, S->acts, rs->max_actions);
        assert_true(n >= 0 && n <= rs->max_actions);
        if (have_progress) {
            opfor_progress_t now;
            assert_int_equal(opfor_game_progress(&g, S->s, &now), 0);
            assert_true(now.turn >= last.turn && now.activation >= last.activation);
            last = now;
        }
        if (p == OPFOR_PLAYER_TERMINAL) {
            assert_int_equal(n, 0); /* nothing to do at the end ... */
            double v[OPFOR_MAX_PLAYERS];
            assert_int_equal(opfor_game_returns(&g, S->s, v), 0);
            check_values(S, v, (rs->flags & OPFOR_RS_ZERO_SUM) != 0);
            S->terminals++;
            check_state(S, &g, p, n, &rng);
            return;
        }
        assert_true(n > 0); /* ... and only there */
        check_state(S, &g, p, n, &rng);
        const opfor_action_t *a;
        if (p == OPFOR_PLAYER_CHANCE) {
            assert_true(rs->flags & OPFOR_RS_CHANCE);
            assert_int_equal(n, 1); /* the roll */
            S->chances++;
            a = &S->acts[0];
            int k = opfor_game_chance_outcomes(&g, S->s, S->outs, rs->max_actions);
            if (k != OPFOR_ENOTSUP)
                assert_true(k >= 0);
            if (k > 0) {
                double sum = 0.0;
                for (int i = 0; i < k; i++) {
                    assert_true(S->outs[i].p > 0.0 && S->outs[i].p <= 1.0);
                    sum += S->outs[i].p;
                    for (int j = 0; j < i; j++)
                        assert_false(opfor_action_eq(&S->outs[i].action, &S->outs[j].action));
                    /* each outcome applies (and passes the wrapper's check) */
                    memcpy(S->t, S->s, size);
                    assert_int_equal(opfor_game_apply(&g, S->t, &S->outs[i].action), 0);
                }
                assert_true(fabs(sum - 1.0) < 1e-9);
                S->outcome_lists++;
                if (opfor_rng_below(&rng, 2))
                    a = &S->outs[opfor_rng_below(&rng, (uint32_t)k)].action;
            }
        } else {
            S->decisions++;
            a = &S->acts[opfor_rng_below(&rng, (uint32_t)n)];
        }
        /* a clone stays equal to its original under the same action */
        memcpy(S->t, S->s, size);
        assert_int_equal(opfor_game_apply(&g, S->s, a), 0);
        assert_int_equal(opfor_game_apply(&g, S->t, a), 0);
        assert_memory_equal(S->s, S->t, size);
        /* re-seeding the dice changes nothing else a test can see: still a valid state */
        if (rs->reseed && opfor_rng_below(&rng, 8) == 0)
            assert_int_equal(opfor_game_reseed(&g, S->s, opfor_rng_u32(&rng)), 0);
    }
}

static void run_suite(const opfor_ruleset_t *rs, const void *ctx, suite_t *S) {
    memset(S, 0, sizeof *S);
    S->rs = rs;
    S->ctx = ctx;
    assert_non_null(rs->name);
    assert_non_null(rs->title);
    assert_true(rs->max_players >= 1 && rs->max_players <= OPFOR_MAX_PLAYERS);
    assert_true(rs->state_size > 0);
    assert_true(rs->max_actions >= 1);
    check_methods(rs);
    S->s = calloc(1, rs->state_size);
    S->t = calloc(1, rs->state_size);
    S->u = calloc(1, rs->state_size);
    S->acts = calloc((size_t)rs->max_actions, sizeof(opfor_action_t));
    S->acts2 = calloc((size_t)rs->max_actions, sizeof(opfor_action_t));
    S->outs = calloc((size_t)rs->max_actions, sizeof(opfor_chance_outcome_t));
    S->ser = malloc(SER_CAP);
    S->v1 = calloc(1, rs->state_size);
    S->v2 = calloc(1, rs->state_size);
    S->scene = calloc(1, sizeof *S->scene);
    S->prior = calloc((size_t)rs->max_actions, sizeof(float));
    const opfor_evaluator_t *ev = rs->ai ? rs->ai->evaluator : NULL;
    S->scratch = ev && ev->scratch_size ? calloc(1, ev->scratch_size) : NULL;
    assert_true(S->s && S->t && S->u && S->acts && S->acts2 && S->outs && S->ser && S->v1 &&
                S->v2 && S->scene && S->prior && (!ev || !ev->scratch_size || S->scratch));
    opfor_game_t g;
    assert_int_equal(opfor_game_init(&g, rs, ctx, 0), 0);
    open_bots(S, &g);
    for (uint64_t seed = 1; seed <= GAMES; seed++)
        playout(S, seed * 7919);
    close_bots(S);
    check_calc(rs);
    check_session(rs);
    assert_int_equal(S->terminals, GAMES);
    assert_true(S->decisions > 0);
    if (rs->flags & OPFOR_RS_CHANCE)
        assert_true(S->chances > 0);
    if (rs->chance_outcomes)
        assert_true(S->outcome_lists > 0);
    if (rs->serialize)
        assert_true(S->serialized > 0);
    if ((rs->flags & OPFOR_RS_HIDDEN) && rs->resample)
        assert_true(S->resampled > 0);
    if (rs->view)
        assert_true(S->views > 0);
    if (rs->view && (rs->flags & OPFOR_RS_HIDDEN) && rs->resample)
        assert_true(S->hidden_views > 0);
    if (rs->scene)
        assert_true(S->scenes > 0);
    if (rs->ai) {
        assert_true(S->ai_checks > 0);
        if (rs->ai->order)
            assert_true(S->orders > 0);
    }
    free(S->v1);
    free(S->v2);
    free(S->scene);
    free(S->prior);
    free(S->scratch);
    free(S->s);
    free(S->t);
    free(S->u);
    free(S->acts);
    free(S->acts2);
    free(S->outs);
    free(S->ser);
}

/* ---------------------------------------------------------------- the tests */

static void conformance_registered_rulesets(void **st) {
    size_t n = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    assert_non_null(list);
    for (size_t i = 0; i < n; i++) {
        const opfor_ruleset_t *rs = list[i].rs;
        assert_non_null(rs);
        void *ctx = NULL;
        opfor_diag_t d;
        int rc = opfor_ruleset_ctx_new(rs, NULL, &ctx, &d);
        if (rc != OPFOR_ENOTSUP)
            assert_int_equal(rc, 0);
        suite_t S;
        run_suite(rs, ctx, &S);
        opfor_ruleset_ctx_free(rs, ctx);
    }
}

/* Viktoria!'s hidden information lives in Patrol Mode (what the initiative button spots
 * next): the suite again on its Patrol scenario, so its view is checked where it hides
 * something. */
static void conformance_viktoria_patrol(void **st) {
    const opfor_ruleset_t *rs = opfor_ruleset_find("viktoria");
    assert_non_null(rs);
    void *ctx = NULL;
    opfor_diag_t d;
    assert_int_equal(opfor_ruleset_ctx_new(rs, "patrol_default", &ctx, &d), 0);
    suite_t S;
    run_suite(rs, ctx, &S);
    assert_true(S.hidden_views > 0);
    opfor_ruleset_ctx_free(rs, ctx);
}

static void conformance_toy_games(void **st) {
    int count = 0;
    for (const opfor_ruleset_t *const *p = toy_rulesets; *p; p++, count++) {
        suite_t S;
        run_suite(*p, toy_default_ctx(*p), &S);
    }
    assert_int_equal(count, 5);
}

static void ruleset_registry(void **st) {
    size_t n = 99;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    assert_non_null(list);
    assert_true(n < 99);
    assert_null(list[n].name); /* the sentinel */
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(list[i].name, list[i].rs->name);
        assert_ptr_equal(opfor_ruleset_find(list[i].name), list[i].rs);
        char upper[64];
        snprintf(upper, sizeof upper, "%s", list[i].name);
        for (char *c = upper; *c; c++)
            if (*c >= 'a' && *c <= 'z')
                *c = (char)(*c - 'a' + 'A');
        assert_ptr_equal(opfor_ruleset_find(upper), list[i].rs);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(list[i].name, list[j].name);
    }
    assert_null(opfor_ruleset_find("no-such-ruleset"));
    assert_null(opfor_ruleset_find(NULL));
    assert_non_null(opfor_ruleset_list(NULL));
}

static void ruleset_wrapper_contracts(void **st) {
    opfor_game_t g;
    /* required hooks and a sane descriptor */
    opfor_ruleset_t bad = toy_ttt_ruleset;
    bad.apply = NULL;
    assert_int_equal(opfor_game_init(&g, &bad, NULL, 0), OPFOR_EINVAL);
    bad = toy_ttt_ruleset;
    bad.max_players = 0;
    assert_int_equal(opfor_game_init(&g, &bad, NULL, 0), OPFOR_EINVAL);
    bad = toy_ttt_ruleset;
    bad.state_size = 0;
    assert_int_equal(opfor_game_init(&g, &bad, NULL, 0), OPFOR_EINVAL);

    /* tic-tac-toe has none of the optional hooks */
    assert_int_equal(opfor_game_init(&g, &toy_ttt_ruleset, NULL, 0), 0);
    toy_ttt_state_t s, t;
    assert_int_equal(opfor_game_new_state(&g, &s, 1), 0);
    unsigned char buf[64];
    size_t len;
    opfor_chance_outcome_t outs[4];
    opfor_progress_t pr;
    double v[2];
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 1, 1);
    assert_int_equal(opfor_game_serialize(&g, &s, buf, sizeof buf, &len), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_deserialize(&g, &s, buf, 4), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_chance_outcomes(&g, &s, outs, 4), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_progress(&g, &s, &pr), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_evaluate(&g, &s, v), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_reseed(&g, &s, 3), OPFOR_ENOTSUP);
    assert_int_equal(opfor_game_resample(&g, &s, 0, &rng), 0); /* nothing hidden */
    void *ctx = &g;
    assert_int_equal(opfor_ruleset_ctx_new(&toy_ttt_ruleset, NULL, &ctx, NULL), OPFOR_ENOTSUP);
    assert_null(ctx);
    opfor_ruleset_ctx_free(&toy_ttt_ruleset, NULL);

    /* the fallback hash and phrase */
    opfor_game_clone(&g, &t, &s);
    assert_memory_equal(&t, &s, sizeof s);
    assert_true(opfor_game_hash(&g, &s) == opfor_game_hash(&g, &t));
    opfor_action_t a = toy_ttt_action(4);
    assert_int_equal(opfor_game_apply(&g, &t, &a), 0);
    assert_true(opfor_game_hash(&g, &s) != opfor_game_hash(&g, &t));
    char phrase[128];
    assert_string_equal(opfor_game_action_str(&g, &s, &a, phrase, sizeof phrase), "mark b2");
    opfor_ruleset_t plain = toy_ttt_ruleset;
    plain.action_str = NULL;
    opfor_game_t gp;
    assert_int_equal(opfor_game_init(&gp, &plain, NULL, 0), 0);
    opfor_game_action_str(&gp, &s, &a, phrase, sizeof phrase);
    assert_non_null(strstr(phrase, "arg 4"));

    /* counters, and the debug check of apply */
    assert_int_equal(opfor_game_init(&g, &toy_ttt_ruleset, NULL, OPFOR_GAME_CHECK_LEGAL), 0);
    toy_ttt_set(&s, "x........", 1);
    t = s;
    opfor_action_t taken = toy_ttt_action(0);
    assert_int_equal(opfor_game_apply(&g, &s, &taken), OPFOR_EILLEGAL);
    assert_memory_equal(&s, &t, sizeof s);
    opfor_action_t odd = toy_ttt_action(3);
    odd.flags = 1; /* not a listed action, though the square is free */
    assert_int_equal(opfor_game_apply(&g, &s, &odd), OPFOR_EILLEGAL);
    assert_int_equal(opfor_game_apply(&g, &s, &a), 0);
    assert_int_equal(g.applies, 3);
    assert_int_equal(g.rejected, 2);
    assert_int_equal(opfor_game_legal(&g, &s, NULL, 3), OPFOR_EINVAL);

    /* actions: equality is bytewise; make() fills the "none" markers */
    opfor_action_t m = opfor_action_make(7);
    assert_int_equal(m.kind, 7);
    assert_int_equal(m.unit, OPFOR_ACTION_NONE);
    assert_int_equal(m.target, OPFOR_ACTION_NONE);
    opfor_action_t m2 = m;
    assert_true(opfor_action_eq(&m, &m2));
    m2.y2 = 0.5f;
    assert_false(opfor_action_eq(&m, &m2));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(conformance_registered_rulesets),
        cmocka_unit_test(conformance_viktoria_patrol),
        cmocka_unit_test(conformance_toy_games),
        cmocka_unit_test(ruleset_registry),
        cmocka_unit_test(ruleset_wrapper_contracts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
