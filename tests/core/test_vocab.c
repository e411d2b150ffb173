/* tests/core/test_vocab.c — error table and shared vocabulary lookups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "opfor/error.h"
#include "opfor/vocab.h"

static void error_names_and_messages(void **state) {
    (void)state;
    assert_string_equal(opfor_err_name(OPFOR_EINVAL), "EINVAL");
    assert_string_equal(opfor_err_name(OPFOR_EAUTH), "EAUTH");
    assert_string_equal(opfor_err_name(OPFOR_OK), "OK");
    assert_string_equal(opfor_err_name(-9999), "UNKNOWN");
    assert_string_equal(opfor_strerror(OPFOR_ENOMEM), "out of memory");
    assert_string_equal(opfor_strerror(12345), "unknown error");
    /* Codes are distinct and negative. */
    assert_true(OPFOR_EINVAL < 0);
    assert_true(OPFOR_EINVAL != OPFOR_ENOMEM);
    assert_int_equal(OPFOR_EINVAL, -1);
}

static void error_diag_format(void **state) {
    (void)state;
    opfor_diag_t d;
    char buf[600];
    opfor_diag_clear(&d);
    strcpy(d.file, "a.yaml");
    assert_int_equal(opfor_diag_set(&d, OPFOR_EPARSE, 3, 7, "expected %s", "a number"),
                     OPFOR_EPARSE);
    assert_string_equal(opfor_diag_format(&d, buf, sizeof buf), "a.yaml:3:7: expected a number");
    d.col = 0;
    assert_string_equal(opfor_diag_format(&d, buf, sizeof buf), "a.yaml:3: expected a number");
    d.file[0] = 0;
    d.line = 0;
    assert_string_equal(opfor_diag_format(&d, buf, sizeof buf), "<input>: expected a number");
    assert_int_equal(opfor_diag_set(NULL, OPFOR_EIO, 1, 1, "x"), OPFOR_EIO);
}

static void vocab_lookup_aliases(void **state) {
    (void)state;
    int v = -1;
    assert_int_equal(opfor_vocab_lookup(opfor_quality_names, "Veteran", &v), 0);
    assert_int_equal(v, OPFOR_Q_VETERAN);
    assert_int_equal(opfor_vocab_lookup(opfor_quality_names, "officer", &v), 0);
    assert_int_equal(v, OPFOR_Q_ELITE);
    assert_int_equal(opfor_vocab_lookup(opfor_cover_names, "fort", &v), 0);
    assert_int_equal(v, OPFOR_COVER_FORT);
    assert_int_equal(opfor_vocab_lookup(opfor_terrain_kind_names, "field-works", &v), 0);
    assert_int_equal(v, OPFOR_TK_FIELD_WORKS);
    assert_int_equal(opfor_vocab_lookup(opfor_compass_names, "south west", &v), 0);
    assert_int_equal(v, OPFOR_SW);
    assert_int_equal(opfor_vocab_lookup(opfor_quality_names, "hero", &v), OPFOR_ENOENT);
    assert_int_equal(opfor_vocab_lookup(opfor_quality_names, "", &v), OPFOR_ENOENT);
    assert_int_equal(opfor_vocab_lookup(opfor_quality_names, "veteranx", &v), OPFOR_ENOENT);
}

static void vocab_canonical_names_and_list(void **state) {
    (void)state;
    char buf[256];
    assert_string_equal(opfor_vocab_name(opfor_quality_names, OPFOR_Q_ELITE), "elite");
    assert_string_equal(opfor_vocab_name(opfor_cover_names, OPFOR_COVER_FORT), "fortification");
    assert_string_equal(opfor_vocab_name(opfor_cover_names, 99), "?");
    assert_string_equal(opfor_vocab_list(opfor_cover_names, buf, sizeof buf),
                        "none, soft, hard, fortification");
    assert_string_equal(opfor_vocab_list(opfor_quality_names, buf, sizeof buf),
                        "civilian, conscript, soldier, veteran, elite");
    /* A short buffer truncates at a whole name, never mid-name. */
    assert_string_equal(opfor_vocab_list(opfor_cover_names, buf, 12), "none, soft");
}

static void vocab_every_enum_value_has_a_name(void **state) {
    (void)state;
    for (int q = 0; q < OPFOR_Q_COUNT; q++)
        assert_string_not_equal(opfor_vocab_name(opfor_quality_names, q), "?");
    for (int c = 0; c < OPFOR_COVER_COUNT; c++)
        assert_string_not_equal(opfor_vocab_name(opfor_cover_names, c), "?");
    for (int t = 0; t < OPFOR_UT_COUNT; t++)
        assert_string_not_equal(opfor_vocab_name(opfor_unit_type_names, t), "?");
    for (int k = 0; k < OPFOR_TK_COUNT; k++)
        assert_string_not_equal(opfor_vocab_name(opfor_terrain_kind_names, k), "?");
    for (int c = 0; c < OPFOR_COMPASS_COUNT; c++)
        assert_string_not_equal(opfor_vocab_name(opfor_compass_names, c), "?");
    for (int b = 0; b < 10; b++) {
        assert_string_not_equal(opfor_vocab_name(opfor_weapon_names, 1 << b), "?");
        assert_string_not_equal(opfor_vocab_name(opfor_skill_names, 1 << b), "?");
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_names_and_messages),
        cmocka_unit_test(error_diag_format),
        cmocka_unit_test(vocab_lookup_aliases),
        cmocka_unit_test(vocab_canonical_names_and_list),
        cmocka_unit_test(vocab_every_enum_value_has_a_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
