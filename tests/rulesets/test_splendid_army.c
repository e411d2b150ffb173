/* tests/rulesets/test_splendid_army.c — A Splendid Victory!'s army generator (§Appendix –
 * Generating an Army) through the calculator's `army` action and its export: the table's exact
 * chances, the units each total fields, the seeded dice (fixed seeds: the same army, and the
 * totals' frequencies against the table's 2D6 chances), a collection's units drawn in order and
 * what is not fielded or substituted, the unit limits (sizes, averages, counts, R-22), the
 * collection file's errors with their line and column, and the scenario `units:` list.
 */
#include "test_splendid_helper.h"

#include <libfyaml.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../rulesets/splendid/army.h"

/* Runs army with name, value pairs (NULL value: a flag) and rolled; msg gets the error. */
static int army(opfor_calc_answer_t *a, const char *rolled, char *msg, size_t n, ...) {
    const opfor_ruleset_calc_t *c = sv_calc();
    const opfor_form_t *f = sv_form("army");
    opfor_value_t vals[16];
    memset(vals, 0, sizeof vals);
    va_list ap;
    va_start(ap, n);
    const char *name;
    while ((name = va_arg(ap, const char *)) != NULL) {
        const char *text = va_arg(ap, const char *);
        int i = opfor_form_field(f, name);
        assert_true(i >= 0);
        int rc = opfor_calc_parse(c, NULL, f, i, text, &vals[i], msg, n);
        if (rc) {
            va_end(ap);
            return rc;
        }
    }
    va_end(ap);
    memset(a, 0, sizeof *a);
    return opfor_calc_run(c, NULL, f, vals, rolled, a, msg, n);
}

/* The index of key name among the direct entries of the map at i (-1 at the top). */
static int entry(const opfor_calc_answer_t *a, int i, const char *name) {
    int k = i < 0 ? 0 : i + 1;
    int end = i < 0 ? a->nextra : a->extra[i].end - 1;
    while (k >= 0 && k < end) {
        if (strcmp(opfor_calc_extra_key(a, k), name) == 0)
            return k;
        k = opfor_calc_extra_next(a, k);
    }
    return -1;
}

/* The items of the array at i, as node indexes into out (at most max); their count. */
static int items(const opfor_calc_answer_t *a, int i, int *out, int max) {
    int n = 0;
    for (int k = i + 1; k >= 0 && k < a->extra[i].end - 1 && n < max;
         k = opfor_calc_extra_next(a, k))
        out[n++] = k;
    return n;
}

/* The text of key name in the map at i ("" when absent). */
static const char *str_at(const opfor_calc_answer_t *a, int i, const char *name) {
    int k = entry(a, i, name);
    return k < 0 ? "" : opfor_calc_extra_text(a, k);
}

/* The fielded units of an answer: their type names into types (comma-separated). */
static void unit_types(const opfor_calc_answer_t *a, char *buf, size_t n) {
    int ar = entry(a, -1, "army"), it[64];
    assert_true(ar >= 0);
    int cnt = items(a, entry(a, ar, "units"), it, 64);
    buf[0] = 0;
    for (int i = 0; i < cnt; i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, n - l, "%s%s", i ? "," : "", str_at(a, it[i], "type"));
    }
}

static opfor_calc_answer_t A;
static char MSG[600];

/* The table's chances: 2D6, 1/36 .. 6/36 .. 1/36; expected units per throw 49/36, Pike and
 * Musket 20/36 (8 counted as its first choice), times the throws. */
static void odds(void **st) {
    (void)st;
    assert_int_equal(army(&A, NULL, MSG, sizeof MSG, NULL), 0);
    assert_int_equal(A.allowed, 1);
    assert_string_equal(A.dice, "2D6");
    assert_int_equal(A.ndist, 11);
    for (int t = 2; t <= 12; t++)
        assert_float_equal(sv_dist(&A, t), (t <= 7 ? t - 1 : 13 - t) / 36.0, SV_EPS);
    assert_float_equal(A.expected, 49.0 / 36, SV_EPS);
    assert_float_equal(sv_fact(&A, "pike_and_musket"), 20.0 / 36, SV_EPS);
    assert_float_equal(sv_fact(&A, "mounted"), 8.0 / 36, SV_EPS);
    assert_float_equal(sv_fact(&A, "regular_artillery"), 7.0 / 36, SV_EPS);
    assert_float_equal(sv_fact(&A, "foot"), 7.0 / 36, SV_EPS);
    assert_float_equal(A.p, 1.0, SV_EPS);
    assert_non_null(strstr(A.dist[7].label, "9: Pike and Musket + Regular Artillery"));
    assert_int_equal(army(&A, NULL, MSG, sizeof MSG, "throws", "12", NULL), 0);
    assert_float_equal(A.expected, 12 * 49.0 / 36, SV_EPS);
    assert_float_equal(sv_fact(&A, "heavy_mounted"), 12.0 / 36, SV_EPS);
}

/* What each total fields (the appendix's table and its first example: a 3 is two Mounted). */
static void totals_field_units(void **st) {
    (void)st;
    static const struct {
        const char *rolled, *types;
    } rows[] = {{"2", "heavy_mounted"},
                {"3", "mounted,mounted"},
                {"4", "dragoon"},
                {"5", "mounted"},
                {"7", "pike_and_musket"},
                {"8", "pike_and_musket"},
                {"9", "pike_and_musket,regular_artillery"},
                {"10", "foot,regular_artillery"},
                {"11", "foot,heavy_artillery"},
                {"12", "foot,foot,frame_gun"}};
    char types[256];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        assert_int_equal(army(&A, rows[i].rolled, MSG, sizeof MSG, NULL), 0);
        assert_int_equal(A.rolled, 1);
        unit_types(&A, types, sizeof types);
        assert_string_equal(types, rows[i].types);
    }
    /* 9 then 3: 6 + 1 + 4 + 4 stands, one Commander and one Sub-Commander (4 units) */
    assert_int_equal(army(&A, "9,3", MSG, sizeof MSG, NULL), 0);
    assert_float_equal(sv_fact(&A, "units"), 4, SV_EPS);
    assert_float_equal(sv_fact(&A, "sub_commanders"), 1, SV_EPS);
    assert_float_equal(sv_fact(&A, "stands"), 17, SV_EPS);
    assert_float_equal(sv_fact(&A, "half"), 9, SV_EPS);
    /* 8: Foot only while Pike and Musket units would still outnumber Foot units */
    assert_int_equal(army(&A, "6,6,8", MSG, sizeof MSG, NULL), 0);
    unit_types(&A, types, sizeof types);
    assert_string_equal(types, "pike_and_musket,pike_and_musket,foot");
    assert_int_equal(army(&A, "6,8", MSG, sizeof MSG, NULL), 0);
    unit_types(&A, types, sizeof types);
    assert_string_equal(types, "pike_and_musket,pike_and_musket");
    assert_int_equal(army(&A, "6,8", MSG, sizeof MSG, "pick", "second", NULL), 0);
    assert_non_null(strstr(A.text, "Pike and Musket units must outnumber Foot units"));
    /* bad totals and mismatches are errors naming the roll */
    assert_int_equal(army(&A, "13", MSG, sizeof MSG, NULL), OPFOR_EINVAL);
    assert_non_null(strstr(MSG, "2D6 totals"));
    assert_int_equal(army(&A, "7,7", MSG, sizeof MSG, "throws", "3", NULL), OPFOR_EINVAL);
    assert_int_equal(army(&A, "7", MSG, sizeof MSG, "seed", "4", NULL), OPFOR_EINVAL);
}

/* The seeded dice: the same seed, the same army; 900 seeds of 20 throws give every total at
 * its 2D6 chance (within 1.5 points of 18000 throws) and a mean of 7. */
static void seeded(void **st) {
    (void)st;
    int it[SV_ARMY_MAX_THROWS], first[SV_ARMY_MAX_THROWS];
    assert_int_equal(army(&A, NULL, MSG, sizeof MSG, "throws", "20", "seed", "7", NULL), 0);
    int n = items(&A, entry(&A, entry(&A, -1, "army"), "throws"), it, SV_ARMY_MAX_THROWS);
    assert_int_equal(n, 20);
    for (int i = 0; i < n; i++)
        first[i] = (int)A.extra[it[i]].num;
    assert_int_equal(army(&A, NULL, MSG, sizeof MSG, "throws", "20", "seed", "7", NULL), 0);
    items(&A, entry(&A, entry(&A, -1, "army"), "throws"), it, SV_ARMY_MAX_THROWS);
    for (int i = 0; i < n; i++)
        assert_int_equal((int)A.extra[it[i]].num, first[i]);
    long count[13] = {0}, total = 0, sum = 0;
    char seed[16];
    for (int s = 1; s <= 900; s++) {
        snprintf(seed, sizeof seed, "%d", s);
        assert_int_equal(army(&A, NULL, MSG, sizeof MSG, "throws", "20", "seed", seed, NULL), 0);
        n = items(&A, entry(&A, entry(&A, -1, "army"), "throws"), it, SV_ARMY_MAX_THROWS);
        assert_int_equal(n, 20);
        for (int i = 0; i < n; i++) {
            int t = (int)A.extra[it[i]].num;
            assert_true(t >= 2 && t <= 12);
            count[t]++;
            sum += t;
            total++;
        }
    }
    for (int t = 2; t <= 12; t++)
        assert_true(fabs((double)count[t] / total - (t <= 7 ? t - 1 : 13 - t) / 36.0) < 0.015);
    assert_true(fabs((double)sum / total - 7.0) < 0.05);
}

static const char *COLLECTION = "units:\n"
                                "  - {name: Lord Saye's Regiment, type: pike_and_musket,\n"
                                "     stands: {pike: 3, musket: 8}, quality: veteran}\n"
                                "  - {type: foot, stands: 4}\n"
                                "  - {name: Rupert's Horse, type: mounted, stands: 5, lance: true,"
                                " count: 2}\n";

/* Writes text to a fresh temporary file; its path into path. */
static void temp_file(const char *text, char *path, size_t n) {
    snprintf(path, n, "/tmp/opfor_sv_collection_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len = strlen(text);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
}

/* A collection: owned units in the file's order, each once; a type not owned is not fielded
 * (the appendix's examples: a 10 without artillery fields the Foot unit only, a 4 without a
 * Dragoon unit nothing); with --substitute the nearest owned type stands in and is named. */
static void collection(void **st) {
    (void)st;
    char path[64], types[256];
    temp_file(COLLECTION, path, sizeof path);
    assert_int_equal(army(&A, "10", MSG, sizeof MSG, "collection", path, NULL), 0);
    unit_types(&A, types, sizeof types);
    assert_string_equal(types, "foot");
    int ar = entry(&A, -1, "army"), it[16];
    assert_int_equal(items(&A, entry(&A, ar, "not_fielded"), it, 16), 1);
    assert_string_equal(str_at(&A, it[0], "type"), "regular_artillery");
    assert_non_null(strstr(str_at(&A, it[0], "why"), "no Regular Artillery unit left"));
    assert_int_equal(army(&A, "4", MSG, sizeof MSG, "collection", path, NULL), 0);
    unit_types(&A, types, sizeof types);
    assert_string_equal(types, "");
    assert_int_equal(A.success, 0);
    /* odds with a collection: p is the chance a throw fields something: not 2 (no Heavy
     * Mounted) nor 4 (no Dragoon): 1 - 4/36 */
    assert_int_equal(army(&A, NULL, MSG, sizeof MSG, "collection", path, NULL), 0);
    assert_float_equal(A.p, 32.0 / 36, SV_EPS);
    assert_float_equal(sv_fact(&A, "fields_something"), 32.0 / 36, SV_EPS);
    assert_string_equal(A.dist[2].label, "4: Dragoon (none owned)");
    assert_string_equal(A.dist[3].label, "5: Mounted");
    /* substitution: a Mounted unit for the Dragoon thrown, named */
    assert_int_equal(army(&A, "4", MSG, sizeof MSG, "collection", path, "substitute", NULL, NULL),
                     0);
    unit_types(&A, types, sizeof types);
    assert_string_equal(types, "mounted");
    ar = entry(&A, -1, "army");
    items(&A, entry(&A, ar, "units"), it, 16);
    assert_string_equal(str_at(&A, it[0], "substitute_for"), "dragoon");
    assert_string_equal(str_at(&A, it[0], "owned"), "Rupert's Horse 1");
    assert_non_null(strstr(A.text, "for the Dragoon thrown"));
    assert_int_equal(army(&A, NULL, MSG, sizeof MSG, "collection", path, "substitute", NULL, NULL),
                     0);
    assert_float_equal(A.p, 1.0, SV_EPS); /* 2 and 4 now fall back on the Mounted units */
    /* used once each: three 5s, two Mounted units owned */
    assert_int_equal(army(&A, "5,5,5", MSG, sizeof MSG, "collection", path, NULL), 0);
    unit_types(&A, types, sizeof types);
    assert_string_equal(types, "mounted,mounted");
    /* sizes: the 11-stand regiment fields 9 (the most); over two throws the army's limits
     * hold too: the Foot unit of the 10 goes (Pike and Musket units must outnumber it), and
     * the foot average of 6 leaves the regiment 6 stands (5 not fielded) */
    assert_int_equal(army(&A, "7", MSG, sizeof MSG, "collection", path, NULL), 0);
    ar = entry(&A, -1, "army");
    items(&A, entry(&A, ar, "units"), it, 16);
    assert_int_equal((int)A.extra[entry(&A, it[0], "stands")].num, 9);
    assert_int_equal((int)A.extra[entry(&A, it[0], "not_fielded_stands")].num, 2);
    assert_string_equal(str_at(&A, it[0], "quality"), "veteran");
    assert_int_equal(army(&A, "7,10", MSG, sizeof MSG, "collection", path, NULL), 0);
    ar = entry(&A, -1, "army");
    items(&A, entry(&A, ar, "units"), it, 16);
    assert_int_equal((int)A.extra[entry(&A, it[0], "stands")].num, 6);
    assert_int_equal((int)A.extra[entry(&A, it[0], "not_fielded_stands")].num, 5);
    unit_types(&A, types, sizeof types);
    assert_string_equal(types, "pike_and_musket");
    /* a missing file */
    assert_int_equal(army(&A, "7", MSG, sizeof MSG, "collection", "/nonexistent/c.yaml", NULL),
                     OPFOR_EINVAL);
    assert_non_null(strstr(MSG, "/nonexistent/c.yaml"));
    unlink(path);
}

/* The army's count limits over two throws or more (R-22, latest first): Pike and Musket
 * units outnumber Foot units; Heavy Mounted units at most one in 15 mounted units, rounded
 * up, so two Heavy Mounted units alone keep one. */
static void count_limits(void **st) {
    (void)st;
    char types[256];
    assert_int_equal(army(&A, "10,6", MSG, sizeof MSG, NULL), 0);
    unit_types(&A, types, sizeof types);
    assert_string_equal(types, "regular_artillery,pike_and_musket");
    assert_non_null(strstr(A.text, "Foot 1: Pike and Musket units must outnumber Foot units"));
    assert_int_equal(army(&A, "2,2", MSG, sizeof MSG, NULL), 0);
    unit_types(&A, types, sizeof types);
    assert_string_equal(types, "heavy_mounted");
    /* the mounted average of 5: default Heavy Mounted 3 and Mounted 4 stay */
    assert_int_equal(army(&A, "2,5,5,5,5,5,5,5,5,5,5,5,5,5,5", MSG, sizeof MSG, NULL), 0);
    unit_types(&A, types, sizeof types);
    assert_non_null(strstr(types, "heavy_mounted"));
    /* one throw alone is one throw of an army still being rolled: no count limit */
    assert_int_equal(army(&A, "10", MSG, sizeof MSG, NULL), 0);
    unit_types(&A, types, sizeof types);
    assert_string_equal(types, "foot,regular_artillery");
}

/* A collection's errors name the file, line and column. */
static void collection_errors(void **st) {
    (void)st;
    static const struct {
        const char *text, *want;
    } rows[] = {
        {"units:\n  - {type: militia}\n", "c.yaml:2:12: type: unknown 'militia'"},
        {"units:\n  - {type: foot, colour: red}\n", "c.yaml:2:18: unknown key"},
        {"units:\n  - {type: mounted, stands: {pike: 2}}\n", "c.yaml:2:30: a Mounted unit has no"},
        {"units:\n  - {type: foot, stands: 1}\n", "c.yaml:2:26: a Foot unit has at least 2"},
        {"units:\n  - {type: foot, lance: true}\n", "c.yaml:2:25: lance: only Mounted"},
        {"units:\n  - {name: A}\n", "c.yaml:2:6: a unit needs a type"},
        {"units:\n  - {type: foot\n", "c.yaml:3:"},
        {"units: 3\n", "c.yaml:1:8"},
        {"regiments: []\n", "c.yaml:1:1: unknown key"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        sv_collection_t *c = malloc(sizeof *c);
        opfor_diag_t d;
        char buf[600];
        assert_non_null(c);
        assert_int_not_equal(sv_collection_load_text(&opfor__sv_army_builtin, rows[i].text,
                                                     strlen(rows[i].text), "c.yaml", c, &d),
                             0);
        opfor_diag_format(&d, buf, sizeof buf);
        if (!strstr(buf, rows[i].want))
            fail_msg("collection %zu: '%s' lacks '%s'", i, buf, rows[i].want);
        free(c);
    }
    /* through the calculator: an error naming the file and line */
    char path[64];
    temp_file("units:\n  - {type: foot}\n  - {type: cannon}\n", path, sizeof path);
    assert_int_equal(army(&A, "7", MSG, sizeof MSG, "collection", path, NULL), OPFOR_EINVAL);
    char want[96];
    snprintf(want, sizeof want, "%s:3:", path);
    assert_non_null(strstr(MSG, want));
    unlink(path);
}

/* --out: the army as a scenario's units: list (docs/splendid.md section 6), YAML that reads
 * back with one entry per unit fielded and the command stands. */
static void export_units(void **st) {
    (void)st;
    const opfor_ruleset_calc_t *c = sv_calc();
    const opfor_form_t *f = sv_form("army");
    opfor_value_t vals[16];
    memset(vals, 0, sizeof vals);
    int i = opfor_form_field(f, "side");
    assert_int_equal(opfor_calc_parse(c, NULL, f, i, "King's \"Army\"", &vals[i], MSG, sizeof MSG),
                     0);
    char *buf = malloc(65536);
    assert_non_null(buf);
    int len = c->export_file(NULL, f, vals, "9,3", buf, 65536, MSG, sizeof MSG);
    assert_true(len > 0);
    assert_int_equal((int)strlen(buf), len);
    struct fy_document *doc = fy_document_build_from_string(NULL, buf, (size_t)len);
    assert_non_null(doc);
    struct fy_node *units = fy_node_by_path(fy_document_root(doc), "/units", -1, FYNWF_DONT_FOLLOW);
    assert_non_null(units);
    assert_int_equal(fy_node_sequence_item_count(units), 4 + 2); /* and Commander, 1 Sub */
    char text[64];
    size_t sl;
    const char *type =
        fy_node_get_scalar(fy_node_by_path(units, "/0/type", -1, FYNWF_DONT_FOLLOW), &sl);
    snprintf(text, sizeof text, "%.*s", (int)sl, type);
    assert_string_equal(text, "pike_and_musket");
    const char *side =
        fy_node_get_scalar(fy_node_by_path(units, "/0/side", -1, FYNWF_DONT_FOLLOW), &sl);
    snprintf(text, sizeof text, "%.*s", (int)sl, side);
    assert_string_equal(text, "King's \"Army\"");
    const char *pk =
        fy_node_get_scalar(fy_node_by_path(units, "/0/stands/pike", -1, FYNWF_DONT_FOLLOW), &sl);
    assert_int_equal((int)strtol(pk, NULL, 10), 2);
    fy_document_destroy(doc);
    /* without throws there is no army to write; other actions write no file */
    assert_int_equal(c->export_file(NULL, f, vals, NULL, buf, 65536, MSG, sizeof MSG),
                     OPFOR_EINVAL);
    assert_int_equal(c->export_file(NULL, sv_form("fire"), vals, NULL, buf, 65536, MSG, sizeof MSG),
                     OPFOR_ENOTSUP);
    assert_int_equal(c->export_file(NULL, f, vals, "9,3", buf, 64, MSG, sizeof MSG), OPFOR_ERANGE);
    free(buf);
}

/* The built-in tables are model.yaml's `army:` as loaded. */
static void builtin_tables_are_the_yaml(void **st) {
    (void)st;
    void *m = NULL;
    opfor_diag_t d;
    assert_int_equal(sv_calc()->model_load(NULL, &m, &d), 0);
    const opfor_sv_army_t *y = &((const opfor_sv_model_t *)m)->army, *b = &opfor__sv_army_builtin;
    assert_memory_equal(y->table, b->table, sizeof b->table);
    assert_memory_equal(y->choice, b->choice, sizeof b->choice);
    assert_memory_equal(y->size, b->size, sizeof b->size);
    assert_memory_equal(y->min, b->min, sizeof b->min);
    assert_memory_equal(y->max, b->max, sizeof b->max);
    assert_memory_equal(y->subst, b->subst, sizeof b->subst);
    assert_int_equal(y->foot_average, b->foot_average);
    assert_int_equal(y->mounted_average, b->mounted_average);
    assert_int_equal(y->heavy_per, b->heavy_per);
    assert_int_equal(y->sub_per, b->sub_per);
    const opfor_sv_model_t *ym = m, *bm = &opfor__sv_model_builtin;
    assert_int_equal(ym->open_order_may_charge, bm->open_order_may_charge);
    assert_int_equal(ym->command_stand_mounted, bm->command_stand_mounted);
    assert_int_equal(ym->always_open_cv_penalty, bm->always_open_cv_penalty);
    assert_int_equal(ym->bounce_any_band, bm->bounce_any_band);
    assert_int_equal(ym->quality_on_bounce, bm->quality_on_bounce);
    assert_int_equal(ym->heavy_mounted_floor, bm->heavy_mounted_floor);
    sv_calc()->model_free(m);
    /* an edited table: a game master's 7 fields a Foot unit */
    assert_int_equal(
        sv_calc()->model_load_text("army:\n  table:\n    7: [foot]\n", "gm.yaml", &m, &d), 0);
    const opfor_sv_army_t *g = &((const opfor_sv_model_t *)m)->army;
    assert_int_equal(g->table[7][0], SV_U_FOOT);
    assert_int_equal(g->table[6][0], SV_U_PIKE_MUSKET);
    sv_calc()->model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(odds),         cmocka_unit_test(totals_field_units),
        cmocka_unit_test(seeded),       cmocka_unit_test(collection),
        cmocka_unit_test(count_limits), cmocka_unit_test(collection_errors),
        cmocka_unit_test(export_units), cmocka_unit_test(builtin_tables_are_the_yaml),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
