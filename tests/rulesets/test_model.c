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
        const char *src = (const char *)&m + s[i].off;
        if (s[i].type == OPFOR__VK_INT) {
            int v;
            memcpy(&v, src, sizeof v);
            snprintf(value, sizeof value, "%d", v);
        } else if (s[i].type == OPFOR__VK_DICE) {
            opfor_dice_t d;
            char t[64];
            memcpy(&d, src, sizeof d);
            opfor_dice_format(&d, t, sizeof t);
            snprintf(value, sizeof value, "\"%s\"", t);
        } else {
            double v;
            memcpy(&v, src, sizeof v);
            if (isinf(v))
                snprintf(value, sizeof value, ".inf");
            else
                snprintf(value, sizeof value, "%.17g", v);
        }
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_default_loads),
        cmocka_unit_test(model_every_key_round_trips),
        cmocka_unit_test(model_partial_override_changes_exactly_what_it_names),
        cmocka_unit_test(model_errors_name_line_and_column),
        cmocka_unit_test(model_load_file_and_missing_file),
        cmocka_unit_test(model_bracket_of_maps_inches),
        cmocka_unit_test(model_embedded_text_is_terminated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
