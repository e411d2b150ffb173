/* tests/rulesets/test_splendid_engine_scenario.c — A Splendid Victory!'s scenarios and state:
 * the state copies with one memcpy in at most 16 KiB; the built-in encounter loads (every unit
 * placed by the centre of its front edge, its kind, formation, files and pikes, generals as
 * a Commander); a scenario's mistakes are refused at their line and column (an unknown kind,
 * a unit's size, a unit without its entry, a formation it cannot take, a bent formation,
 * overlapping units, the army restrictions); terrain that prohibits fire or a unit's class;
 * variable command quality rolled once a game.
 */
#include "test_splendid_engine_helper.h"

#include "opfor/ruleset.h"

static void state_size(void **st) {
    (void)st;
    const opfor_ruleset_t *rs = opfor_ruleset_find("splendid");
    assert_non_null(rs);
    assert_true(rs->state_size <= 16384);
    assert_int_equal(rs->state_size, sizeof(sv_state_t));
}

static void builtin_encounter(void **st) {
    (void)st;
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    assert_int_equal(sv_ctx_load(NULL, &c, &d), 0);
    const sv_state_t *s = &c->start;
    assert_int_equal(s->nunits, 10);
    assert_int_equal(s->stands0[0], 16);
    assert_int_equal(s->stands0[1], 16);
    assert_int_equal(c->turn_limit, 8);
    int found = 0;
    for (int i = 0; i < s->nunits; i++) {
        const sv_unit_t *u = &s->u[i];
        if (strcmp(c->names[i], "Hammond's Foot") == 0) {
            found |= 1;
            assert_int_equal(u->kind, SV_PM);
            assert_int_equal(u->form, SV_BLOCK);
            assert_int_equal(u->files, 3);
            assert_int_equal(u->n, 6);
            assert_int_equal(u->a, 2);
            assert_true(fabsf(u->x - 20.0f) < 1e-3f && fabsf(u->y - 12.0f) < 1e-3f);
            assert_true(fabsf(u->fy - 1.0f) < 1e-3f); /* facing away from its edge */
        }
        if (strcmp(c->names[i], "Prince Rupert") == 0) {
            found |= 2;
            assert_int_equal(u->kind, SV_COMMANDER);
            assert_int_equal(u->side, 1);
            assert_int_equal(u->cmd10, 60);
        }
        if (strcmp(c->names[i], "Okey's Dragoons") == 0) {
            found |= 4;
            assert_true(u->flags & SV_F_DISMOUNTED);
            assert_int_equal(u->form, SV_OPEN);
        }
        if (strcmp(c->names[i], "Saker") == 0) {
            found |= 8;
            assert_int_equal(u->form, SV_UNLIMBERED);
        }
    }
    assert_int_equal(found, 15);
    /* one memcpy makes an equal game */
    sv_state_t a, b;
    assert_int_equal(sv_engine_init(c, &a, 7), 0);
    memcpy(&b, &a, sizeof a);
    assert_int_equal(memcmp(&a, &b, sizeof a), 0);
    sv_ctx_free(c);
}

#define HEAD                                                                                       \
    "name: T\n"                                                                                    \
    "sides:\n"                                                                                     \
    "  - {name: Red, edge: bottom}\n"                                                              \
    "  - {name: Blue, edge: top}\n"                                                                \
    "units:\n"                                                                                     \
    "  - {name: A, side: Red, type: infantry, position: [20, 10], figures: [{count: 6}]}\n"        \
    "  - {name: B, side: Blue, type: cavalry, position: [20, 30], figures: [{count: 4}]}\n"

/* Loads text and expects failure at line:column with msg in the message. */
static void refused(const char *text, int line, int col, const char *msg) {
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = sv_ctx_load_text(text, strlen(text), "t.yaml", &c, &d);
    if (rc == 0 || d.line != line || d.col != col || !strstr(d.msg, msg))
        fprintf(stderr, "rc %d at %d:%d: %s\n", rc, d.line, d.col, d.msg);
    assert_true(rc < 0);
    assert_null(c);
    assert_int_equal(d.line, line);
    assert_int_equal(d.col, col);
    assert_non_null(strstr(d.msg, msg));
}

static void errors_with_line_and_column(void **st) {
    (void)st;
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    const char *good =
        HEAD "splendid:\n  units:\n    A: {kind: pike_and_musket, pikes: 2, formation: "
             "block}\n    B: {kind: mounted}\n";
    assert_int_equal(sv_ctx_load_text(good, strlen(good), "t.yaml", &c, &d), 0);
    assert_int_equal(c->start.u[0].files, 3); /* two ranks by default */
    assert_int_equal(c->turn_limit, SV_DEFAULT_TURNS);
    sv_ctx_free(c);
    refused(HEAD "splendid:\n  units:\n    A: {kind: pikemen}\n    B: {kind: mounted}\n", 10, 15,
            "kind");
    refused(HEAD "splendid:\n  units:\n    A: {kind: heavy_mounted}\n    B: {kind: mounted}\n", 10,
            9, "2 to 4 stands");
    refused(HEAD "splendid:\n  units:\n    A: {kind: pike_and_musket}\n", 7, 6, "needs an entry");
    refused(HEAD "splendid:\n  units:\n    A: {kind: pike_and_musket, formation: open_order}\n"
                 "    B: {kind: mounted}\n",
            10, 9, "cannot be in open_order");
    refused(HEAD "splendid:\n  units:\n    A: {kind: pike_and_musket, formation: bent_line}\n"
                 "    B: {kind: mounted}\n",
            10, 43, "bent formations");
    refused(HEAD
            "  - {name: C, side: Red, type: infantry, position: [23.5, 9], figures: [{count: 2}]}\n"
            "splendid:\n  units:\n    A: {kind: pike_and_musket}\n    B: {kind: mounted}\n"
            "    C: {kind: foot}\n",
            8, 53, "overlap");
    refused(HEAD
            "  - {name: C, side: Red, type: infantry, position: [40, 10], figures: [{count: 2}]}\n"
            "splendid:\n  units:\n    A: {kind: foot}\n    B: {kind: mounted}\n"
            "    C: {kind: foot}\n",
            10, 3, "outnumber");
    refused(HEAD "terrain:\n  - {name: Farm, kind: building, rect: [18, 29, 4, 4]}\n"
                 "splendid:\n  units:\n    A: {kind: pike_and_musket}\n    B: {kind: mounted}\n",
            7, 53, "terrain closed to it");
    refused(HEAD "splendid:\n  units:\n    A: {kind: pike_and_musket}\n    Z: {kind: mounted}\n",
            11, 5, "no unit or general called 'Z'");
    refused(HEAD "splendid:\n  terrain:\n    woods: {fire_dice: -9}\n  units:\n"
                 "    A: {kind: pike_and_musket}\n    B: {kind: mounted}\n",
            10, 24, "fire_dice");
    refused(HEAD "splendid:\n  terrain:\n    swamp: {cv: 1}\n  units:\n"
                 "    A: {kind: pike_and_musket}\n    B: {kind: mounted}\n",
            10, 5, "swamp");
}

/* A game master's terrain numbers in the scenario's splendid: block, over model.yaml's. */
static void terrain_numbers(void **st) {
    (void)st;
    const char *text = HEAD "splendid:\n  terrain:\n    woods: {fire_dice: -2, move_factor: 3}\n"
                            "    road: {column_only: false}\n  units:\n"
                            "    A: {kind: pike_and_musket}\n    B: {kind: mounted}\n";
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    assert_int_equal(sv_ctx_load_text(text, strlen(text), "t.yaml", &c, &d), 0);
    assert_int_equal(c->model.terrain[SV_T_WOODS].fire_dice, -2);
    assert_true(fabsf(c->model.terrain[SV_T_WOODS].move_factor - 3.0f) < 1e-6f);
    assert_int_equal(c->model.terrain[SV_T_WOODS].cv, 0);
    assert_false(c->model.terrain[SV_T_ROAD].column_only);
    assert_true(fabsf(c->model.terrain[SV_T_ROAD].move_factor - 0.5f) < 1e-6f);
    assert_int_equal(c->model.terrain[SV_T_TOWN].cv, 1);
    sv_ctx_free(c);
}

/* Adds an area of kind over [x, y, w, d] to c's table, with the ruleset's terrain rules. */
static void fx_area(sv_ctx_t *c, int kind, float x, float y, float w, float d) {
    if (c->table.width == 0.0f)
        opfor_table_init(&c->table, c->width, c->depth, OPFOR_EDGE_TOP);
    opfor_pt_t p[4] = {{x, y}, {x + w, y}, {x + w, y + d}, {x, y + d}};
    opfor_terrain_feature_t f;
    assert_int_equal(opfor_terrain_feature_init(&f, &opfor__sv_scenario_rules.terrain,
                                                (opfor_terrain_kind_t)kind, OPFOR_SHAPE_AREA, "t",
                                                p, 4, 0.0f),
                     0);
    assert_true(opfor_table_add(&c->table, &f) >= 0);
}

static void terrain_prohibits(void **st) {
    (void)st;
    /* woods between firer and target prohibit the fire */
    sv_ctx_t *c = fx_ctx();
    int m = fx_unit(c, SV_PM, 0, SV_LINE, 4, 0, 0, 24, 10, 0, 1);
    int h = fx_unit(c, SV_MOUNTED, 1, SV_BLOCK, 6, 6, 3, 24, 15, 0, -1);
    sv_state_t s;
    fx_state(c, &s, SV_P_FIRE, 0, 1);
    assert_int_equal(sv_fire_dice(c, &s, m, h), 6);
    fx_area(c, OPFOR_TK_WOODS, 22, 11.5f, 4, 1);
    assert_int_equal(sv_fire_dice(c, &s, m, h), 0);
    /* a building: foot may stand in it, mounted units may not */
    sv_ctx_t *c2 = fx_ctx();
    fx_area(c2, OPFOR_TK_BUILDING, 20, 20, 8, 8);
    sv_unit_t foot = {
        .kind = SV_PM, .form = SV_LINE, .files = 2, .n = 2, .x = 24, .y = 24, .fy = 1};
    sv_unit_t horse = foot;
    horse.kind = SV_MOUNTED;
    opfor_pt_t r[4];
    sv_rect(c2, &foot, r);
    assert_true(sv_terrain_ok(c2, &foot, r));
    assert_false(sv_terrain_ok(c2, &horse, r));
    assert_false(sv_terrain_path_ok(c2, &horse, opfor_pt(10, 24), opfor_pt(30, 24)));
    assert_true(sv_terrain_path_ok(c2, &horse, opfor_pt(10, 10), opfor_pt(30, 10)));
    free(c);
    free(c2);
}

static void variable_command(void **st) {
    (void)st;
    const char *text = HEAD "generals:\n  - {name: Cmd, side: Red, position: [30, 4]}\n"
                            "  - {name: Sub, side: Red, position: [36, 4]}\n"
                            "splendid:\n  options: {variable_command: on}\n  units:\n"
                            "    A: {kind: pike_and_musket}\n    B: {kind: mounted}\n";
    sv_ctx_t *c = NULL;
    opfor_diag_t d;
    assert_int_equal(sv_ctx_load_text(text, strlen(text), "t.yaml", &c, &d), 0);
    int cmd = -1, sub = -1;
    for (int i = 0; i < c->start.nunits; i++) {
        if (c->start.u[i].kind == SV_COMMANDER)
            cmd = i;
        if (c->start.u[i].kind == SV_SUB)
            sub = i;
    }
    assert_true(cmd >= 0 && sub >= 0);
    int seen_c[100] = {0}, seen_s[100] = {0};
    for (uint64_t seed = 1; seed <= 600; seed++) {
        sv_state_t s;
        assert_int_equal(sv_engine_init(c, &s, seed), 0);
        assert_true(s.u[cmd].cmd10 < 100 && s.u[sub].cmd10 < 100);
        seen_c[s.u[cmd].cmd10]++;
        seen_s[s.u[sub].cmd10]++;
    }
    /* commander: 9" on a 1, 6" on 2-5, 3" on a 6; sub-commander: 6", 3" on 2-3, 1" on 4-6 */
    assert_int_equal(seen_c[90] + seen_c[60] + seen_c[30], 600);
    assert_true(seen_c[60] > 400 - 45 && seen_c[60] < 400 + 45);
    assert_int_equal(seen_s[60] + seen_s[30] + seen_s[10], 600);
    assert_true(seen_s[10] > 300 - 45 && seen_s[10] < 300 + 45);
    sv_ctx_free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(state_size),
        cmocka_unit_test(builtin_encounter),
        cmocka_unit_test(errors_with_line_and_column),
        cmocka_unit_test(terrain_numbers),
        cmocka_unit_test(terrain_prohibits),
        cmocka_unit_test(variable_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
