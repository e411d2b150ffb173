/* tests/rulesets/vk_calc_fixture.h — the calculator's answers for the engine tests.
 *
 * The engine tests compare what the engine does with the chances the calculator renders for
 * the same request; these helpers ask the default model so that each test only fills in its
 * request and names the roll or outcome it compares against.
 */
#ifndef OPFOR_TEST_VK_CALC_FIXTURE_H
#define OPFOR_TEST_VK_CALC_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/model.h"

/* A request for action by an actor of quality q, the range given as `inches`; every other
 * field at its default. */
static inline opfor_viktoria_req_t fx_req_at(int action, int q, double inches) {
    opfor_viktoria_req_t req;
    opfor_viktoria_req_init(&req, action);
    req.v[OPFOR_VK_F_ACTOR] = q;
    req.v[OPFOR_VK_F_RANGE] = OPFOR_VK_INCHES;
    req.inches = inches;
    return req;
}

/* The default model's answer to req; the calculator must accept the request. */
static inline void fx_calc(const opfor_viktoria_req_t *req, opfor_viktoria_result_t *res) {
    opfor_viktoria_model_t m;
    opfor_viktoria_model_default(&m, NULL);
    assert_int_equal(opfor_viktoria_calc(&m, req, res, NULL), 0);
}

/* The rendered chance of the named roll in res. */
static inline double fx_roll_p(const opfor_viktoria_result_t *res, const char *roll) {
    return opfor_viktoria_result_roll(res, roll)->roll.p_rendered;
}

/* The rendered chance of the named outcome in res. */
static inline double fx_outcome_p(const opfor_viktoria_result_t *res, const char *outcome) {
    return opfor_viktoria_result_outcome(res, outcome)->p_rendered;
}

/* The rendered chance of the named roll in the default model's answer to req. */
static inline double fx_calc_roll(const opfor_viktoria_req_t *req, const char *roll) {
    opfor_viktoria_result_t res;
    fx_calc(req, &res);
    return fx_roll_p(&res, roll);
}

/* The rendered chance of the named outcome in the default model's answer to req. */
static inline double fx_calc_outcome(const opfor_viktoria_req_t *req, const char *outcome) {
    opfor_viktoria_result_t res;
    fx_calc(req, &res);
    return fx_outcome_p(&res, outcome);
}

#endif
