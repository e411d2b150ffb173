/* tests/rulesets/test_model.c — loading the Viktoria! model (model.yaml): defaults, every
 * key, partial overrides that change exactly what they name, and errors that point at the
 * right file, line and column.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model_int.h"
#include "opfor/viktoria/model.h"

static opfor_viktoria_model_t defaults(void) {
    opfor_viktoria_model_t m;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = opfor_viktoria_model_default(&m, &d);
    if (rc)
        fail_msg("default model: %s", d.msg);
    return m;
}

static void model_default_loads(void **state) {
    (void)state;
    opfor_viktoria_model_t m = defaults();
    assert_int_equal(m.version, 1);
    assert_true(m.fire_hit.sharpshooter == 0.7);
    assert_true(m.fire_hit.actor[OPFOR_Q_VETERAN] == 0.35);
    assert_true(m.fire_save.cover[OPFOR_COVER_SOFT] == 0.0); /* soft cover stops nothing */
    assert_true(m.range_edge[OPFOR_VK_R_PISTOL][OPFOR_VK_LONG] == 9.0);
    assert_true(m.range_edge[OPFOR_VK_R_CARBINE][OPFOR_VK_LONG] == 36.0);
    assert_true(isinf(m.range_edge[OPFOR_VK_R_RIFLE][OPFOR_VK_LONG]));
    assert_int_equal(m.support.need, 10);
    assert_int_equal(m.support.comms_fail, 3);
    assert_int_equal(m.artillery.deviation[OPFOR_VK_LONG].nterms, 1);
    assert_int_equal(m.artillery.deviation[OPFOR_VK_LONG].terms[0].count, 3);
    assert_int_equal(m.artillery.deviation[OPFOR_VK_LONG].terms[0].sides, 6);
    assert_int_equal(m.effect[OPFOR_VK_EFFECT_FIREARM].kill, 6);
    assert_int_equal(m.move.foot[OPFOR_VK_MOVE_ADVANCE][OPFOR_Q_SOLDIER], 4);
    assert_int_equal(m.weather.veer2, 12);
    /* Loading twice gives the same bytes: no hidden state. */
    opfor_viktoria_model_t m2 = defaults();
    assert_memory_equal(&m, &m2, sizeof m);
}

/* Turns "a.b.c" and a value into nested YAML. */
static void nested_yaml(const char *path, const char *value, char *out, size_t size) {
    size_t len = 0;
    int depth = 0;
    const char *p = path;
    out[0] = 0;
    while (*p) {
        size_t seg = strcspn(p, ".");
        len += (size_t)snprintf(out + len, size - len, "%*s%.*s:", depth * 2, "", (int)seg, p);
        p += seg;
        if (*p == '.') {
            p++;
            len += (size_t)snprintf(out + len, size - len, "\n");
            depth++;
        } else {
            snprintf(out + len, size - len, " %s\n", value);
        }
    }
}

/* Leaf lf's value in m as YAML text that loads back to the same bytes. */
static void leaf_text(const opfor_viktoria_model_t *m, const opfor__vk_leaf_t *lf, char *value,
                      size_t size) {
    const char *src = (const char *)m + lf->off;
    if (lf->type == OPFOR__VK_INT) {
        int v;
        memcpy(&v, src, sizeof v);
        snprintf(value, size, "%d", v);
    } else if (lf->type == OPFOR__VK_DICE) {
        opfor_dice_t d;
        char t[64];
        memcpy(&d, src, sizeof d);
        opfor_dice_format(&d, t, sizeof t);
        snprintf(value, size, "\"%s\"", t);
    } else {
        double v;
        memcpy(&v, src, sizeof v);
        if (isinf(v))
            snprintf(value, size, ".inf");
        else
            snprintf(value, size, "%.17g", v);
    }
}

/* Each leaf's default written back as a one-key override must load and change nothing:
 * proves every key in the schema is reachable by its path. */
static void model_every_key_round_trips(void **state) {
    (void)state;
    opfor_viktoria_model_t m = defaults();
    size_t n;
    const opfor__vk_leaf_t *s = opfor__viktoria_schema(&n);
    assert_true(n > 200);
    for (size_t i = 0; i < n; i++) {
        char value[96], yaml[512];
        leaf_text(&m, &s[i], value, sizeof value);
        nested_yaml(s[i].path, value, yaml, sizeof yaml);
        opfor_viktoria_model_t got;
        opfor_diag_t d;
        opfor_diag_clear(&d);
        int rc = opfor_viktoria_model_load_string(yaml, "leaf.yaml", &got, &d);
        if (rc)
            fail_msg("%s: %s\n%s", s[i].path, d.msg, yaml);
        assert_memory_equal(&got, &m, sizeof m);
    }
}

static void model_partial_override_changes_exactly_what_it_names(void **state) {
    (void)state;
    opfor_viktoria_model_t m = defaults(), got;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    const char *yaml = "# a game master's house rules\n"
                       "fire:\n"
                       "  hit:\n"
                       "    sharpshooter: 1.25\n"
                       "ranges:\n"
                       "  rifle: {long: 72}\n"
                       "support: {need: 9}\n"
                       "artillery:\n"
                       "  deviation: {long: \"4d6\"}\n";
    assert_int_equal(opfor_viktoria_model_load_string(yaml, "house.yaml", &got, &d), 0);
    opfor_viktoria_model_t want = m;
    want.fire_hit.sharpshooter = 1.25;
    want.range_edge[OPFOR_VK_R_RIFLE][OPFOR_VK_LONG] = 72;
    want.support.need = 9;
    want.artillery.deviation[OPFOR_VK_LONG].terms[0].count = 4;
    assert_memory_equal(&got, &want, sizeof want);
    assert_true(memcmp(&got, &m, sizeof m) != 0);
    /* An empty file (or only comments) changes nothing. */
    assert_int_equal(opfor_viktoria_model_load_string("# nothing\n", "empty.yaml", &got, &d), 0);
    assert_memory_equal(&got, &m, sizeof m);
}

/* Loads yaml expecting failure at line:col with a message containing what. */
static void expect_error(const char *yaml, int line, int col, const char *what) {
    opfor_viktoria_model_t m = defaults(), before;
    before = m;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = opfor_viktoria_model_load_string(yaml, "bad.yaml", &m, &d);
    if (rc != OPFOR_EPARSE)
        fail_msg("expected EPARSE for:\n%sgot %d", yaml, rc);
    assert_string_equal(d.file, "bad.yaml");
    if (d.line != line || d.col != col || !strstr(d.msg, what))
        fail_msg("expected %d:%d '%s', got %d:%d '%s'", line, col, what, d.line, d.col, d.msg);
    assert_memory_equal(&m, &before, sizeof m); /* untouched on error */
}

static void model_errors_name_line_and_column(void **state) {
    (void)state;
    /* unknown key, with the allowed keys listed */
    expect_error("fire:\n  hit:\n    sharpshootr: 1\n", 3, 5, "sharpshooter");
    expect_error("fire:\n  hit:\n    sharpshootr: 1\n", 3, 5, "unknown key 'fire.hit.sharpshootr'");
    expect_error("colour: 1\n", 1, 1, "unknown key 'colour'");
    /* bad values */
    expect_error("support:\n  need: ten\n", 2, 9, "not a whole number");
    expect_error("support:\n  need: 14\n", 2, 9, "out of range");
    expect_error("fire:\n  hit: {moving: fast}\n", 2, 17, "not a number");
    expect_error("bomb:\n  deviation: {long: \"2q6\"}\n", 2, 23, "bomb.deviation.long");
    /* a section given a value, a value given a section */
    expect_error("fire:\n  hit: 3\n", 2, 3, "expected a mapping");
    expect_error("fire:\n  hit:\n    moving: {a: 1}\n", 3, 5, "expected a single value");
    /* orders the rules imply */
    expect_error("fire:\n  hit:\n    actor: {veteran: -3}\n", 3, 22, "fire.hit.actor.veteran");
    expect_error("fire:\n  hit:\n    sharpshooter: -0.5\n", 3, 19, "must not be negative");
    expect_error("fire:\n  save:\n    cover:\n      hard: -1\n", 4, 13, "fire.save.cover.hard");
    expect_error("morale: {half_strength: 0.5}\n", 1, 25, "must not be positive");
    expect_error("ranges:\n  pistol: {long: 10}\n", 2, 18, "maximum range at 9");
    expect_error("ranges:\n  rifle: {short: 30}\n", 2, 18, "edges must increase");
    expect_error("effects:\n  sword: {kill: 2}\n", 2, 17, "kill must not be below wound");
    /* YAML syntax */
    expect_error("fire:\n  hit: [1, 2\n", 3, 1, "YAML syntax");
    expect_error("support: {need: 9, need: 8}\n", 1, 20, "duplicate key");
}

static void model_load_file_and_missing_file(void **state) {
    (void)state;
    char path[] = "/tmp/opfor_test_model_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *yaml = "heal:\n  actor: {soldier: 0.1}\n";
    assert_int_equal(write(fd, yaml, strlen(yaml)), (int)strlen(yaml));
    close(fd);
    opfor_viktoria_model_t m, want = defaults();
    opfor_diag_t d;
    opfor_diag_clear(&d);
    assert_int_equal(opfor_viktoria_model_load_file(path, &m, &d), 0);
    want.heal.actor[OPFOR_Q_SOLDIER] = 0.1;
    assert_memory_equal(&m, &want, sizeof m);
    /* an error in a file names that file */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("heal:\n  actor: {soldier: 9.9}\n", f); /* above veteran's 0.4 */
    fclose(f);
    assert_int_equal(opfor_viktoria_model_load_file(path, &m, &d), OPFOR_EPARSE);
    assert_string_equal(d.file, path);
    assert_int_equal(d.line, 2);
    unlink(path);
    assert_int_equal(opfor_viktoria_model_load_file(path, &m, &d), OPFOR_EIO);
    assert_string_equal(d.file, path);
}

static void model_bracket_of_maps_inches(void **state) {
    (void)state;
    opfor_viktoria_model_t m = defaults();
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_PISTOL, 0), OPFOR_VK_POINT_BLANK);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_PISTOL, 2), OPFOR_VK_POINT_BLANK);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_PISTOL, 2.01), OPFOR_VK_SHORT);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_PISTOL, 9), OPFOR_VK_LONG);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_PISTOL, 9.01), OPFOR_ERANGE);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_CARBINE, 36), OPFOR_VK_LONG);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_CARBINE, 37), OPFOR_ERANGE);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_RIFLE, 20), OPFOR_VK_MEDIUM);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_RIFLE, 5000), OPFOR_VK_LONG);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_BOMB, 6.5), OPFOR_ERANGE);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_RIFLE, -1), OPFOR_EINVAL);
    assert_int_equal(opfor_viktoria_bracket_of(&m, OPFOR_VK_R_RIFLE, NAN), OPFOR_EINVAL);
}

static void model_embedded_text_is_terminated(void **state) {
    (void)state;
    assert_true(opfor_viktoria_model_yaml_len > 1000);
    assert_int_equal(opfor_viktoria_model_yaml[opfor_viktoria_model_yaml_len], 0);
    assert_int_equal(strlen((const char *)opfor_viktoria_model_yaml),
                     opfor_viktoria_model_yaml_len);
}

/* The loader looks a key up as a leaf or as a section depending on its value's kind, which
 * is sound only while no path is both and no two rows share a path. */
static void model_schema_paths_are_leaves_or_sections(void **state) {
    (void)state;
    size_t n;
    const opfor__vk_leaf_t *s = opfor__viktoria_schema(&n);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(s[i].path);
        for (size_t j = 0; j < n; j++) {
            if (j != i && strcmp(s[i].path, s[j].path) == 0)
                fail_msg("two rows for %s", s[i].path);
            if (strncmp(s[j].path, s[i].path, len) == 0 && s[j].path[len] == '.')
                fail_msg("%s is a leaf and the section of %s", s[i].path, s[j].path);
        }
    }
}

/* Every leaf of m as one YAML document, rows in reverse schema order (sections too). */
static void reversed_yaml(const opfor_viktoria_model_t *m, char *out, size_t size) {
    size_t n, len = 0;
    const opfor__vk_leaf_t *s = opfor__viktoria_schema(&n);
    const char *prev = "";
    out[0] = 0;
    for (size_t r = n; r-- > 0;) {
        const char *p = s[r].path;
        /* skip the sections this row shares with the previous one */
        size_t same = 0, depth = 0;
        for (size_t k = 0; p[k] && p[k] == prev[k]; k++)
            if (p[k] == '.') {
                same = k + 1;
                depth++;
            }
        const char *q = p + same;
        for (;;) {
            size_t seg = strcspn(q, ".");
            len += (size_t)snprintf(out + len, size - len, "%*s%.*s:", (int)depth * 2, "", (int)seg,
                                    q);
            if (!q[seg])
                break;
            len += (size_t)snprintf(out + len, size - len, "\n");
            q += seg + 1;
            depth++;
        }
        char value[96];
        leaf_text(m, &s[r], value, sizeof value);
        len += (size_t)snprintf(out + len, size - len, " %s\n", value);
        assert_true(len < size);
        prev = p;
    }
}

/* The whole model written backwards loads to the same bytes: key lookups do not depend on
 * the file following the schema's order. */
static void model_keys_in_reverse_order_load_alike(void **state) {
    (void)state;
    opfor_viktoria_model_t m = defaults(), got;
    static char yaml[65536];
    reversed_yaml(&m, yaml, sizeof yaml);
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = opfor_viktoria_model_load_string(yaml, "reversed.yaml", &got, &d);
    if (rc)
        fail_msg("%d:%d %s", d.line, d.col, d.msg);
    assert_memory_equal(&got, &m, sizeof m);
}

/* A text loaded over a base parsed once (what the model fuzz target does) gives what
 * opfor_viktoria_model_load_string gives: model, code and diagnostic; the base is reusable. */
static void model_load_over_a_base_matches_load_string(void **state) {
    (void)state;
    static char reversed[65536];
    opfor_viktoria_model_t def = defaults();
    reversed_yaml(&def, reversed, sizeof reversed);
    const char *texts[] = {
        "",
        "# nothing\n",
        "fire:\n  hit:\n    sharpshooter: 1.25\nsupport: {need: 9}\n",
        reversed,
        "fire:\n  hit:\n    sharpshootr: 1\n",
        "colour: 1\n",
        "fire:\n  hit: 3\n",
        "fire:\n  hit:\n    moving: {a: 1}\n",
        "ranges:\n  rifle: {short: 30}\n", /* broken against an inherited edge */
        "ranges:\n  rifle: {medium: 2}\n",
        "weather: {level_up: 1}\n",
        "fire:\n  hit: [1, 2\n",
        "\x01",
        "support: {need: 9, need: 8}\n",
    };
    opfor__vk_model_base_t *base = NULL;
    opfor_diag_t d;
    assert_int_equal(opfor__viktoria_model_base_new(&base, &d), 0);
    assert_non_null(base);
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        opfor_viktoria_model_t a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        opfor_diag_t da, db;
        opfor_diag_clear(&da);
        opfor_diag_clear(&db);
        int ra = opfor_viktoria_model_load_string(texts[i], "t.yaml", &a, &da);
        int rb = opfor__viktoria_model_load_over(base, texts[i], "t.yaml", &b, &db);
        assert_int_equal(ra, rb);
        assert_memory_equal(&a, &b, sizeof a);
        assert_string_equal(da.file, db.file);
        assert_string_equal(da.msg, db.msg);
        assert_int_equal(da.line, db.line);
        assert_int_equal(da.col, db.col);
    }
    opfor__viktoria_model_base_free(base);
    opfor__viktoria_model_base_free(NULL);
    assert_int_equal(opfor__viktoria_model_base_new(NULL, NULL), OPFOR_EINVAL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_default_loads),
        cmocka_unit_test(model_every_key_round_trips),
        cmocka_unit_test(model_partial_override_changes_exactly_what_it_names),
        cmocka_unit_test(model_errors_name_line_and_column),
        cmocka_unit_test(model_load_file_and_missing_file),
        cmocka_unit_test(model_bracket_of_maps_inches),
        cmocka_unit_test(model_embedded_text_is_terminated),
        cmocka_unit_test(model_schema_paths_are_leaves_or_sections),
        cmocka_unit_test(model_keys_in_reverse_order_load_alike),
        cmocka_unit_test(model_load_over_a_base_matches_load_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
