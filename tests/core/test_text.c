/* tests/core/test_text.c — opfor/text.h: appending to fixed-size buffers cuts, never
 * overruns, and stays terminated.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "opfor/text.h"

static void text_appends_and_counts(void **state) {
    (void)state;
    char buf[32];
    size_t len = 0;
    buf[0] = '\0';
    opfor_text_appendf(buf, sizeof buf, &len, "%s", "fire at");
    opfor_text_appendf(buf, sizeof buf, &len, " %s, %d in", "Jager", 12);
    assert_string_equal(buf, "fire at Jager, 12 in");
    assert_int_equal(len, strlen(buf));
}

static void text_cuts_at_the_end_and_stays_terminated(void **state) {
    (void)state;
    char buf[8 + 4];
    memset(buf, 'Z', sizeof buf);
    size_t len = 0;
    opfor_text_appendf(buf, 8, &len, "%s", "abcdefghijk");
    assert_string_equal(buf, "abcdefg");
    assert_int_equal(len, 7);
    opfor_text_appendf(buf, 8, &len, "%s", "more"); /* full: nothing more */
    assert_string_equal(buf, "abcdefg");
    assert_int_equal(len, 7);
    assert_int_equal(buf[8], 'Z'); /* nothing written past n */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_appends_and_counts),
        cmocka_unit_test(text_cuts_at_the_end_and_stays_terminated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
