/* tests/io/test_rpc_num.c — opfor_rpc_num: a MessagePack number however it was packed
 * (positive or negative integer, float32 or float64), NaN passed through, anything else and
 * NULL refused with the output untouched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include <msgpack.h>

#include "opfor/rpc_num.h"

static void reads_every_number_packing(void **state) {
    (void)state;
    const struct {
        msgpack_object o;
        double want;
    } cases[] = {
        {{.type = MSGPACK_OBJECT_POSITIVE_INTEGER, .via.u64 = 42}, 42.0},
        {{.type = MSGPACK_OBJECT_NEGATIVE_INTEGER, .via.i64 = -7}, -7.0},
        {{.type = MSGPACK_OBJECT_FLOAT32, .via.f64 = 2.5}, 2.5},
        {{.type = MSGPACK_OBJECT_FLOAT64, .via.f64 = -0.125}, -0.125},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = 0;
        assert_int_equal(opfor_rpc_num(&cases[i].o, &v), 0);
        assert_float_equal(v, cases[i].want, 0);
    }
    msgpack_object nan = {.type = MSGPACK_OBJECT_FLOAT64, .via.f64 = NAN};
    double v = 0;
    assert_int_equal(opfor_rpc_num(&nan, &v), 0);
    assert_true(isnan(v));
}

static void refuses_what_is_not_a_number(void **state) {
    (void)state;
    const msgpack_object others[] = {
        {.type = MSGPACK_OBJECT_STR, .via.str = {1, "1"}},
        {.type = MSGPACK_OBJECT_BOOLEAN, .via.boolean = true},
        {.type = MSGPACK_OBJECT_NIL},
    };
    double v = 3.0;
    assert_int_equal(opfor_rpc_num(NULL, &v), -1);
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        assert_int_equal(opfor_rpc_num(&others[i], &v), -1);
    assert_float_equal(v, 3.0, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_every_number_packing),
        cmocka_unit_test(refuses_what_is_not_a_number),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
