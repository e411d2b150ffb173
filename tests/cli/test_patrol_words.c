/* tests/cli/test_patrol_words.c — the table's command lines split into words
 * (rulesets/viktoria/cli/patrol_words.c): blanks, quoted names with spaces, unclosed quotes,
 * the word limit, and the reading of commands (blank lines and comments skipped, the command
 * lower-cased, a line too long for the buffer dropped whole).
 * The file is a part of the opfor binary, so this program includes it directly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cli/patrol_words.c"

static int words(const char *in, char *buf, size_t n, char **w, int max) {
    snprintf(buf, n, "%s", in);
    return opfor__patrol_words(buf, w, max);
}

static void test_blanks(void **state) {
    (void)state;
    char buf[128], *w[8];
    assert_int_equal(words("  r  Jager\tPicket killed 2\r\n", buf, sizeof buf, w, 8), 5);
    assert_string_equal(w[0], "r");
    assert_string_equal(w[1], "Jager");
    assert_string_equal(w[2], "Picket");
    assert_string_equal(w[3], "killed");
    assert_string_equal(w[4], "2");
    assert_int_equal(words("", buf, sizeof buf, w, 8), 0);
    assert_int_equal(words(" \t\n", buf, sizeof buf, w, 8), 0);
}

static void test_quotes(void **state) {
    (void)state;
    char buf[128], *w[8];
    assert_int_equal(words("r \"Jager Picket\" killed 1\n", buf, sizeof buf, w, 8), 4);
    assert_string_equal(w[1], "Jager Picket");
    assert_string_equal(w[2], "killed");
    assert_int_equal(words("m '1st Section' 24 10", buf, sizeof buf, w, 8), 4);
    assert_string_equal(w[1], "1st Section");
    assert_string_equal(w[3], "10");
    /* the other kind of quote inside stays */
    assert_int_equal(words("a \"O'Brien's Lot\"", buf, sizeof buf, w, 8), 2);
    assert_string_equal(w[1], "O'Brien's Lot");
    /* an empty quoted word is still a word */
    assert_int_equal(words("r \"\" killed 1", buf, sizeof buf, w, 8), 4);
    assert_string_equal(w[1], "");
    /* unclosed: to the end of the line, without the line end */
    assert_int_equal(words("off \"Hussar Troop\n", buf, sizeof buf, w, 8), 2);
    assert_string_equal(w[1], "Hussar Troop");
}

static void test_limit(void **state) {
    (void)state;
    char buf[128], *w[3];
    assert_int_equal(words("a b c d e", buf, sizeof buf, w, 3), 3);
    assert_string_equal(w[2], "c");
}

static void test_read_command(void **state) {
    (void)state;
    static const char text[] = "\n  \n# a comment\nR \"Jager Picket\" killed 1\n\nQ\n";
    FILE *in = fmemopen((void *)text, sizeof text - 1, "r");
    assert_non_null(in);
    char line[64], *w[8];
    /* blank lines and comments are skipped; the command word is lower-cased, the rest not */
    assert_int_equal(opfor__patrol_read_command(in, line, sizeof line, 0, w, 8), 4);
    assert_string_equal(w[0], "r");
    assert_string_equal(w[1], "Jager Picket");
    assert_int_equal(opfor__patrol_read_command(in, line, sizeof line, 0, w, 8), 1);
    assert_string_equal(w[0], "q");
    assert_int_equal(opfor__patrol_read_command(in, line, sizeof line, 0, w, 8), -1);
    fclose(in);
}

static void test_read_long_line(void **state) {
    (void)state;
    /* line holds 15 characters: a longer line is dropped whole (not read as two commands),
       one that fits exactly, with or without its line end, is read */
    static const char text[] = "r Jager killed 1 wounded 2\ns\nm 1st 24 10 xyz\nm 1st 24 10 xyz";
    FILE *in = fmemopen((void *)text, sizeof text - 1, "r");
    assert_non_null(in);
    char line[16], *w[8];
    assert_int_equal(opfor__patrol_read_command(in, line, sizeof line, 0, w, 8), 1);
    assert_string_equal(w[0], "s");
    assert_int_equal(opfor__patrol_read_command(in, line, sizeof line, 0, w, 8), 5);
    assert_string_equal(w[4], "xyz");
    assert_int_equal(opfor__patrol_read_command(in, line, sizeof line, 0, w, 8), 5);
    assert_string_equal(w[4], "xyz");
    assert_int_equal(opfor__patrol_read_command(in, line, sizeof line, 0, w, 8), -1);
    fclose(in);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blanks),         cmocka_unit_test(test_quotes),
        cmocka_unit_test(test_limit),          cmocka_unit_test(test_read_command),
        cmocka_unit_test(test_read_long_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
