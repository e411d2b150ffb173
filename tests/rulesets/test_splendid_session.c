/* tests/rulesets/test_splendid_session.c — A Splendid Victory! at a real table
 * (rulesets/splendid/session.c) from small positions: each report the players send — the
 * initiative dice, a unit's move as place and facing, a change of formation, the stands a unit
 * lost — is refused with
 * its reason when the rules forbid it, and changes the state as the rules say when accepted.
 */
#include "test_splendid_engine_helper.h"

#include "opfor/form.h"
#include "opfor/ruleset.h"
#include "opfor/session.h"

static const opfor_ruleset_session_t *session(void) {
    const opfor_ruleset_t *rs = opfor_ruleset_find("splendid");
    assert_non_null(rs);
    assert_non_null(rs->session);
    return rs->session;
}

/* Sends report `form` from side with fields "name=value" (NULL-terminated) to s; returns the
 * code, out filled. */
static int send(const sv_ctx_t *c, sv_state_t *s, int side, const char *form,
                opfor_session_result_t *out, ...) {
    const opfor_ruleset_session_t *ss = session();
    const opfor_form_t *f = opfor_form_find(ss->reports, ss->nreports, form);
    assert_non_null(f);
    opfor_value_t vals[8];
    static char texts[8][64];
    memset(vals, 0, sizeof vals);
    va_list ap;
    va_start(ap, out);
    for (const char *kv; (kv = va_arg(ap, const char *)) != NULL;) {
        const char *eq = strchr(kv, '=');
        assert_non_null(eq);
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(eq - kv), kv);
        int k = opfor_form_field(f, name);
        assert_true(k >= 0);
        snprintf(texts[k], sizeof texts[k], "%s", eq + 1);
        char msg[200];
        assert_int_equal(opfor_field_parse(&f->fields[k], texts[k], &vals[k], msg, sizeof msg), 0);
    }
    va_end(ap);
    return ss->report(c, s, side, f, vals, out);
}

/* Expects a refusal whose reason holds want; the state is not trusted after it. */
static void refused(int rc, const opfor_session_result_t *out, const char *want) {
    if (rc == 0 || !strstr(out->error, want))
        fprintf(stderr, "rc %d: '%s' (wanted '%s')\n", rc, out->error, want);
    assert_true(rc < 0);
    assert_non_null(strstr(out->error, want));
}

static void forms_described(void **st) {
    (void)st;
    const opfor_ruleset_session_t *ss = session();
    assert_int_equal(ss->nreports, 4);
    assert_non_null(opfor_form_find(ss->reports, ss->nreports, "formation"));
    assert_non_null(opfor_form_find(ss->reports, ss->nreports, "initiative"));
    const opfor_form_t *m = opfor_form_find(ss->reports, ss->nreports, "move");
    assert_non_null(m);
    assert_int_equal(m->fields[opfor_form_field(m, "unit")].type, OPFOR_FIELD_UNIT);
    assert_int_equal(m->fields[opfor_form_field(m, "to")].type, OPFOR_FIELD_POINT);
    const opfor_form_t *l = opfor_form_find(ss->reports, ss->nreports, "losses");
    assert_int_equal(l->fields[opfor_form_field(l, "stands")].type, OPFOR_FIELD_INT);
}

/* Two units facing each other 20" apart: a Pike and Musket block (6: 2 pikes) of side 0, a
 * Mounted unit (4) of side 1. */
static sv_ctx_t *two_units(void) {
    sv_ctx_t *c = fx_ctx();
    snprintf(c->side_names[0], sizeof c->side_names[0], "Parliament");
    snprintf(c->side_names[1], sizeof c->side_names[1], "Royalists");
    fx_unit(c, SV_PM, 0, SV_BLOCK, 6, 2, 3, 20, 8, 0, 1);
    fx_unit(c, SV_MOUNTED, 1, SV_BLOCK, 4, 4, 2, 20, 28, 0, -1);
    snprintf(c->names[0], sizeof c->names[0], "Hammond");
    snprintf(c->names[1], sizeof c->names[1], "Rupert");
    return c;
}

static void initiative(void **st) {
    (void)st;
    sv_ctx_t *c = two_units();
    sv_state_t s;
    opfor_session_result_t out;
    assert_int_equal(sv_engine_init(c, &s, 5), 0);
    assert_int_equal(s.phase, SV_P_INITIATIVE);
    refused(send(c, &s, 0, "initiative", &out, "dice=3,4", "other_dice=5,2", NULL), &out,
            "a tie (7 and 7)");
    refused(send(c, &s, 0, "initiative", &out, "dice=3", "other_dice=5,2", NULL), &out,
            "2D6, not '3'");
    refused(send(c, &s, 0, "initiative", &out, "dice=3,4,1", "other_dice=5,2", NULL), &out, "2D6");
    /* the lower total wins: side 0 throws 9, side 1 throws 4 */
    assert_int_equal(send(c, &s, 0, "initiative", &out, "dice=5,4", "other_dice=1,3", NULL), 0);
    assert_int_equal(s.init, 1);
    assert_true(s.phase != SV_P_INITIATIVE);
    assert_int_equal(out.nevents, 1);
    assert_non_null(strstr(out.events[0].text, "Royalists has the initiative"));
    sv_state_t t;
    assert_int_equal(sv_engine_init(c, &t, 5), 0);
    assert_int_equal(send(c, &t, 0, "initiative", &out, "dice=1,2", "other_dice=6,6", NULL), 0);
    assert_int_equal(t.init, 0);
    /* not at the start of a turn any more */
    refused(send(c, &s, 0, "initiative", &out, "dice=1,2", "other_dice=6,6", NULL), &out,
            "start of a turn");
    free(c);
}

static void move(void **st) {
    (void)st;
    sv_ctx_t *c = two_units();
    sv_state_t s, t;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_MOVE, 0, 9);
    memcpy(&t, &s, sizeof s);
    /* accepted: 4" ahead (a Pike and Musket block's allowance), then a quarter turn */
    assert_int_equal(send(c, &t, 0, "move", &out, "unit=Hammond", "to=20,12", NULL), 0);
    assert_true(fabsf(t.u[0].x - 20.0f) < 1e-4f && fabsf(t.u[0].y - 12.0f) < 1e-4f);
    assert_true(t.u[0].flags & SV_F_ACTED);
    assert_non_null(strstr(out.events[0].text, "Hammond moves to (20.0, 12.0)"));
    refused(send(c, &t, 0, "move", &out, "unit=Hammond", "to=20,14", NULL), &out, "already acted");
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "move", &out, "unit=0", "to=22,10", "facing=90", NULL), 0);
    assert_true(fabsf(t.u[0].fx - 1.0f) < 1e-4f && fabsf(t.u[0].fy) < 1e-4f);
    /* refused, with the reason */
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "move", &out, "unit=Hammond", "to=20,14", NULL), &out,
            "moved 6.0 in; its allowance in block is 4 in");
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "move", &out, "unit=Fairfax", "to=20,10", NULL), &out,
            "no unit called 'Fairfax'");
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "move", &out, "unit=Rupert", "to=20,24", NULL), &out,
            "Rupert is a unit of Royalists, not of Parliament");
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 1, "move", &out, "unit=Rupert", "to=20,24", NULL), &out,
            "it is Parliament's movement phase");
    memcpy(&t, &s, sizeof s);
    t.phase = SV_P_FIRE;
    refused(send(c, &t, 0, "move", &out, "unit=Hammond", "to=20,10", NULL), &out,
            "cannot manoeuvre now: the game is in the fire phase");
    /* into the enemy: the place is not clear */
    memcpy(&t, &s, sizeof s);
    t.u[1].y = 11.0f; /* its stands from 11" to 14.1" */
    refused(send(c, &t, 0, "move", &out, "unit=Hammond", "to=20,12", NULL), &out,
            "cannot stand at (20.0, 12.0) facing 0 deg");
    /* in contact: only disengaging */
    memcpy(&t, &s, sizeof s);
    t.u[1].y = 8.0f;
    refused(send(c, &t, 0, "move", &out, "unit=Hammond", "to=20,5", NULL), &out,
            "a unit in contact cannot manoeuvre");
    free(c);
}

static void formation(void **st) {
    (void)st;
    sv_ctx_t *c = two_units();
    sv_state_t s, t;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_MOVE, 0, 9);
    /* accepted: the block of 3 files forms a line of 6, its front centre kept */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "formation", &out, "unit=Hammond", "formation=line", NULL), 0);
    assert_int_equal(t.u[0].form, SV_LINE);
    assert_int_equal(t.u[0].files, 6);
    assert_true(fabsf(t.u[0].x - 20.0f) < 1e-4f && fabsf(t.u[0].y - 8.0f) < 1e-4f);
    assert_true(t.u[0].flags & SV_F_ACTED); /* foot: its whole action */
    assert_non_null(strstr(out.events[0].text, "Hammond forms line, 6 files"));
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "formation", &out, "unit=Hammond", "formation=defensive_block",
                          "files=2", NULL),
                     0);
    assert_int_equal(t.u[0].form, SV_DEFBLOCK);
    assert_int_equal(t.u[0].files, 2); /* three ranks */
    /* refused, with the reason */
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "formation", &out, "unit=Hammond", "formation=block", NULL), &out,
            "Hammond is in block already");
    refused(send(c, &t, 0, "formation", &out, "unit=Hammond", "formation=open_order", NULL), &out,
            "a 6-stand pike_and_musket unit with pikes cannot be in open_order");
    refused(send(c, &t, 0, "formation", &out, "unit=Hammond", "formation=line", "files=3", NULL),
            &out, "3 files do not fit line of 6 stands");
    refused(send(c, &t, 0, "formation", &out, "unit=Hammond", "formation=road_column", NULL), &out,
            "within 24 in of Rupert");
    refused(send(c, &t, 1, "formation", &out, "unit=Rupert", "formation=line", NULL), &out,
            "it is Parliament's movement phase");
    t.phase = SV_P_FIRE;
    refused(send(c, &t, 0, "formation", &out, "unit=Hammond", "formation=line", NULL), &out,
            "cannot change formation now");
    /* mounted units may change formation and manoeuvre, but change formation once */
    memcpy(&t, &s, sizeof s);
    t.side = 1;
    assert_int_equal(send(c, &t, 1, "formation", &out, "unit=Rupert", "formation=line", NULL), 0);
    refused(send(c, &t, 1, "formation", &out, "unit=Rupert", "formation=block", NULL), &out,
            "Rupert has already changed formation in this movement phase");
    free(c);
}

static void guns_limber_first(void **st) {
    (void)st;
    sv_ctx_t *c = two_units();
    int g = fx_unit(c, SV_GUN, 0, SV_UNLIMBERED, 1, 1, 1, 30, 8, 0, 1);
    sv_state_t s;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_MOVE, 0, 9);
    refused(send(c, &s, 0, "move", &out, "unit=unit 2", "to=30,9", NULL), &out, "unlimbered");
    (void)g;
    free(c);
}

static void losses(void **st) {
    (void)st;
    sv_ctx_t *c = two_units();
    sv_state_t s, t;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_MOVE, 0, 9);
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "losses", &out, "unit=Rupert", "stands=5", NULL), &out,
            "Rupert has 4 stands, not 5");
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "losses", &out, "unit=Hammond", "stands=3", "first=3", NULL), &out,
            "Hammond has 2 pike stands, not 3");
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "losses", &out, "unit=Hammond", "stands=6", "first=1", NULL), &out,
            "Hammond has 4 musket stands, not 5");
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "losses", &out, "unit=Rupert", "stands=1", "first=1", NULL), &out,
            "no pike or hand-to-hand stands");
    memcpy(&t, &s, sizeof s);
    t.phase = SV_P_FIRE;
    refused(send(c, &t, 0, "losses", &out, "unit=Rupert", "stands=1", NULL), &out,
            "the game is in the fire phase");
    /* accepted: the stands go, the tally counts them, the kinds as reported */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "losses", &out, "unit=Hammond", "stands=2", "first=1", NULL),
                     0);
    assert_int_equal(t.u[0].n, 4);
    assert_int_equal(t.u[0].a, 1);
    assert_int_equal(t.tally[0], 2);
    assert_non_null(strstr(out.events[0].text, "Hammond loses 2 stands: 4 left"));
    /* the default: the more numerous kind first (the muskets) */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "losses", &out, "unit=Hammond", "stands=2", NULL), 0);
    assert_int_equal(t.u[0].n, 4);
    assert_int_equal(t.u[0].a, 2);
    /* the AI's unit too, and the last stands: gone */
    assert_int_equal(send(c, &t, 0, "losses", &out, "unit=Rupert", "stands=4", NULL), 0);
    assert_true(t.u[1].flags & SV_F_GONE);
    assert_int_equal(t.tally[1], 4);
    refused(send(c, &t, 0, "losses", &out, "unit=Rupert", "stands=1", NULL), &out,
            "no stands left");
    /* over: nothing more */
    t.phase = SV_P_OVER;
    refused(send(c, &t, 0, "losses", &out, "unit=Hammond", "stands=1", NULL), &out,
            "the game is over");
    free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forms_described),
        cmocka_unit_test(initiative),
        cmocka_unit_test(move),
        cmocka_unit_test(formation),
        cmocka_unit_test(guns_limber_first),
        cmocka_unit_test(losses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
