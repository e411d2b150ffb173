/* tests/rulesets/test_splendid_melee.c — A Splendid Victory!'s `melee` action
 * (§How do you resolve hand-to-hand combat?): the basic CV of every stand type, its five
 * modifiers and the veteran's +1 (§Variable Unit Quality), 2D6 a stand when outflanking, and
 * the text's example of two pike and musket units against a Foot unit.
 */
#include "test_splendid_helper.h"

static int cv_of(const char *stand, ...) {
    opfor_calc_answer_t a;
    va_list ap;
    const char *k[8] = {0}, *v[8] = {0};
    int n = 0;
    va_start(ap, stand);
    while (n < 4 && (k[n] = va_arg(ap, const char *)) != NULL) {
        v[n] = va_arg(ap, const char *);
        n++;
    }
    va_end(ap);
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", stand, k[0], v[0], k[1], v[1], k[2], v[2],
                            k[3], v[3], NULL),
                     0);
    return (int)sv_fact(&a, "cv");
}

static void basic_values(void **st) {
    (void)st;
    static const struct {
        const char *stand;
        int cv;
    } rows[] = {{"improvised", 2}, {"light", 2},   {"hand-to-hand", 3},  {"pikes", 4},
                {"dragoons", 3},   {"mounted", 4}, {"heavy-mounted", 5}, {"command", 2}};
    /* the command stand: basic 3, always in open order: -1 */
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_int_equal(cv_of(rows[i].stand, NULL), rows[i].cv);
}

/* Two pike and musket units (1 pike, 2 muskets, block) against a Foot unit of five stands
 * with hand-to-hand weapons in block; the second outflanks and doubles its dice. */
static void the_texts_example(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "pikes", "defender", "block", NULL), 0);
    assert_string_equal(a.dice, "1D6");
    assert_string_equal(a.needed, "4 or less");
    assert_int_equal(
        sv_ask(&a, "melee", NULL, "stand", "improvised", "stands", "2", "defender", "block", NULL),
        0);
    assert_string_equal(a.dice, "2D6");
    assert_string_equal(a.needed, "2 or less");
    assert_int_equal(
        sv_ask(&a, "melee", NULL, "stand", "pikes", "defender", "block", "outflank", NULL, NULL),
        0);
    assert_string_equal(a.dice, "2D6");
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "improvised", "stands", "2", "defender",
                            "block", "outflank", NULL, NULL),
                     0);
    assert_string_equal(a.dice, "4D6");
    assert_float_equal(sv_dist(&a, 0), 16.0 / 81, SV_EPS);
    /* the Foot unit: 5D6 needing 3 or less; it threw three hits */
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "hand-to-hand", "stands", "5", "defender",
                            "block", NULL),
                     0);
    assert_string_equal(a.dice, "5D6");
    assert_string_equal(a.needed, "3 or less");
    assert_float_equal(a.expected, 2.5, SV_EPS);
    assert_float_equal(sv_dist(&a, 3), 10.0 / 32, SV_EPS);
    assert_int_equal(sv_ask(&a, "melee", "1,3,2,5,6", "stand", "hand-to-hand", "stands", "5",
                            "defender", "block", NULL),
                     0);
    assert_non_null(strstr(a.outcome, "3 hits"));
}

static void modifiers(void **st) {
    (void)st;
    /* 1) own formation */
    assert_int_equal(cv_of("pikes", "formation", "road-column", NULL), 3);
    assert_int_equal(cv_of("improvised", "formation", "open-order", NULL), 1);
    assert_int_equal(cv_of("pikes", "formation", "line", NULL), 4);
    /* 2) mounted against non-mounted foot in open order or road column */
    assert_int_equal(cv_of("mounted", "defender", "open-order", NULL), 5);
    assert_int_equal(cv_of("mounted", "defender", "bent-road-column", NULL), 5);
    assert_int_equal(cv_of("mounted", "defender", "open-order", "defender-mounted", NULL, NULL), 4);
    assert_int_equal(cv_of("hand-to-hand", "defender", "open-order", NULL), 3);
    /* 3) mounted against a block with pikes */
    assert_int_equal(cv_of("mounted", "defender", "block", "pikes", NULL, NULL), 3);
    assert_int_equal(cv_of("mounted", "defender", "block", NULL), 4);
    assert_int_equal(cv_of("hand-to-hand", "defender", "block", "pikes", NULL, NULL), 3);
    /* 4), 5) mounted against a defensive block */
    assert_int_equal(cv_of("heavy-mounted", "defender", "defensive-block", NULL), 4);
    assert_int_equal(cv_of("heavy-mounted", "defender", "defensive-block", "pikes", NULL, NULL), 3);
    assert_int_equal(cv_of("dragoons", "defender", "defensive-block", "pikes", NULL, NULL), 1);
    /* a command stand is a mounted stand (R-2: §Reactions 1 counts command units as mounted):
     * 3 - 1 (open order, R-30) - 2 (a defensive block with pikes) = 0 */
    assert_int_equal(cv_of("command", "defender", "defensive-block", "pikes", NULL, NULL), 0);
    /* artillery: a crew 2 - 1; a mounted stand against guns +1 (non-mounted, open) */
    assert_int_equal(cv_of("improvised", "formation", "unlimbered", NULL), 1);
    assert_int_equal(cv_of("mounted", "defender", "limbered", NULL), 5);
    assert_int_equal(cv_of("mounted", "defender", "limbered", "defender-mounted", NULL, NULL), 5);
    /* veteran +1; raw changes nothing in hand-to-hand */
    assert_int_equal(cv_of("pikes", "quality", "veteran", NULL), 5);
    assert_int_equal(cv_of("pikes", "quality", "raw", NULL), 4);
}

static void limits(void **st) {
    (void)st;
    opfor_calc_answer_t a;
    /* heavy mounted veteran against foot in open order: 7, every die hits */
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "heavy-mounted", "stands", "2", "defender",
                            "open-order", "quality", "veteran", NULL),
                     0);
    assert_int_equal((int)sv_fact(&a, "cv"), 7);
    assert_string_equal(a.needed, "6 or less");
    assert_float_equal(a.p, 1.0, SV_EPS);
    assert_float_equal(sv_dist(&a, 2), 1.0, SV_EPS);
    /* light weapons in open order: 1; dragoons in road column against pikes in defensive
     * block: 3 - 1 - 2 = 0, never hits */
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "dragoons", "formation", "road-column",
                            "defender", "defensive-block", "pikes", NULL, NULL),
                     0);
    assert_int_equal((int)sv_fact(&a, "cv"), 0);
    assert_string_equal(a.needed, "cannot hit");
    assert_float_equal(a.p, 0.0, SV_EPS);
    assert_int_equal(sv_ask(&a, "melee", "1,1", "stand", "pikes", NULL), OPFOR_EINVAL);
    /* what the rules forbid: outflanking a defensive block; pikes or Heavy Mounted in open
     * order; a command stand out of open order; anyone but a crew as artillery */
    assert_int_equal(
        sv_ask(&a, "melee", NULL, "outflank", NULL, "defender", "defensive-block", NULL), 0);
    assert_int_equal(a.allowed, 0);
    assert_non_null(strstr(a.reason, "outflanked"));
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "pikes", "formation", "open-order", NULL),
                     0);
    assert_int_equal(a.allowed, 0);
    assert_int_equal(
        sv_ask(&a, "melee", NULL, "stand", "heavy-mounted", "formation", "bent-open-order", NULL),
        0);
    assert_int_equal(a.allowed, 0);
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "command", "formation", "block", NULL), 0);
    assert_int_equal(a.allowed, 0);
    assert_int_equal(sv_ask(&a, "melee", NULL, "stand", "pikes", "formation", "limbered", NULL), 0);
    assert_int_equal(a.allowed, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(basic_values),
        cmocka_unit_test(the_texts_example),
        cmocka_unit_test(modifiers),
        cmocka_unit_test(limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
