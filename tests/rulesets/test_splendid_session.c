/* tests/rulesets/test_splendid_session.c — A Splendid Victory! at a real table
 * (rulesets/splendid/session.c) from small positions: each report the players send — the
 * initiative dice, a unit's move as place and facing, a change of formation, the stands a unit
 * lost, a charge with its test's die, the reaction to the AI's charge, the fire and hand-to-hand
 * dice thrown at the table — is refused with its reason when the rules forbid it, and changes
 * the state as the rules say when accepted.
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
    assert_int_equal(ss->nreports, 8);
    const opfor_form_t *ch = opfor_form_find(ss->reports, ss->nreports, "charge");
    assert_non_null(ch);
    assert_int_equal(ch->fields[opfor_form_field(ch, "target")].type, OPFOR_FIELD_UNIT);
    assert_int_equal(ch->fields[opfor_form_field(ch, "dice")].type, OPFOR_FIELD_DICE);
    const opfor_form_t *re = opfor_form_find(ss->reports, ss->nreports, "reaction");
    assert_int_equal(re->fields[opfor_form_field(re, "kind")].type, OPFOR_FIELD_CHOICE);
    const opfor_form_t *fi = opfor_form_find(ss->reports, ss->nreports, "fire");
    assert_int_equal(fi->fields[opfor_form_field(fi, "dice")].type, OPFOR_FIELD_DICE);
    const opfor_form_t *me = opfor_form_find(ss->reports, ss->nreports, "melee");
    assert_int_equal(me->fields[opfor_form_field(me, "enemy")].type, OPFOR_FIELD_UNIT);
    /* a die is 1 to 6: the form refuses a 7 */
    opfor_value_t v;
    char msg[200];
    assert_true(opfor_field_parse(&me->fields[opfor_form_field(me, "dice")], "6,7", &v, msg,
                                  sizeof msg) < 0);
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

/* A reported manoeuvre costs its path as the engine does (docs/splendid.md 5): 4" into woods
 * (factor 2) is more than a block's 4" allowance, and the refusal says so; 1" open and 1" of
 * woods is not; a road column on a road covers 10" for 5" of its 6". */
static void move_across_terrain(void **st) {
    (void)st;
    sv_ctx_t *c = two_units();
    opfor_table_init(&c->table, c->width, c->depth, OPFOR_EDGE_TOP);
    opfor_pt_t wood[4] = {opfor_pt(10, 9), opfor_pt(30, 9), opfor_pt(30, 20), opfor_pt(10, 20)};
    opfor_pt_t road[2] = {opfor_pt(5, 0), opfor_pt(5, 36)};
    opfor_terrain_feature_t f;
    assert_int_equal(opfor_terrain_feature_init(&f, NULL, OPFOR_TK_WOODS, OPFOR_SHAPE_AREA, "wood",
                                                wood, 4, 0.0f),
                     0);
    assert_true(opfor_table_add(&c->table, &f) >= 0);
    assert_int_equal(opfor_terrain_feature_init(&f, NULL, OPFOR_TK_ROAD, OPFOR_SHAPE_LINE, "road",
                                                road, 2, 2.0f),
                     0);
    assert_true(opfor_table_add(&c->table, &f) >= 0);
    int col = fx_unit(c, SV_FOOT, 0, SV_COLUMN, 2, 0, 1, 5, 5, 0, 1);
    snprintf(c->names[col], sizeof c->names[col], "Skippon");
    sv_state_t s, t;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_MOVE, 0, 9);
    memcpy(&t, &s, sizeof s);
    refused(
        send(c, &t, 0, "move", &out, "unit=Hammond", "to=20,12", NULL), &out,
        "moved 4.0 in, which costs 7.0 in of it across terrain; its allowance in block is 4 in");
    assert_int_equal(memcmp(&t, &s, sizeof s), 0);
    assert_int_equal(send(c, &t, 0, "move", &out, "unit=Hammond", "to=20,10", NULL), 0);
    assert_true(fabsf(t.u[0].y - 10.0f) < 1e-4f);
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "move", &out, "unit=Skippon", "to=5,15", NULL), 0);
    assert_true(fabsf(t.u[col].y - 15.0f) < 1e-4f);
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "move", &out, "unit=Skippon", "to=5,19", NULL), &out,
            "moved 14.0 in, which costs 7.0 in of it across terrain");
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

/* The Royalists' horse 12" in front of Hammond's pikes: its charge in their movement phase. */
static sv_ctx_t *charge_ctx(void) {
    sv_ctx_t *c = two_units();
    c->start.u[1].y = 20.0f;
    return c;
}

static void charge(void **st) {
    (void)st;
    sv_ctx_t *c = charge_ctx();
    sv_state_t s, t, r;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_MOVE, 1, 9);
    /* refused, with the reason, and nothing changes */
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "charge", &out, "unit=Hammond", "target=Rupert", NULL), &out,
            "it is Royalists's movement phase");
    refused(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Rupert", NULL), &out,
            "Rupert is a friend of Rupert");
    refused(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=4,5", NULL), &out,
            "the charge test is 1D6");
    t.u[1].y = 34.0f; /* 26" off: beyond 18", and beyond 24" extended */
    refused(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", NULL), &out,
            "Rupert cannot charge Hammond (26.0 in away)");
    /* 20" off: beyond the horse's 18", within an extended charge's 6" more */
    memcpy(&t, &s, sizeof s);
    t.u[1].y = 28.0f;
    refused(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=1", NULL), &out,
            "(an extended charge goes further)");
    refused(
        send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=1", "reach=4", NULL),
        &out, "only an extended charge throws for its reach");
    refused(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "extended=yes",
                 "reach=4,2", NULL),
            &out, "an extended charge's reach is 1D6");
    sv_state_t far;
    memcpy(&far, &t, sizeof t);
    /* the reach the table threw: 18" and 4 more reach Hammond 20" off, one marker */
    assert_int_equal(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "extended=yes",
                          "dice=1", "reach=4", NULL),
                     0);
    assert_non_null(
        strstr(out.events[1].text, "Rupert makes an extended charge on Hammond: 4 more"));
    assert_int_equal(t.u[1].markers, 1);
    assert_int_equal(t.phase, SV_P_REACT);
    /* 18" and 1 fall short: it stops on its way */
    memcpy(&t, &far, sizeof t);
    assert_int_equal(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "extended=yes",
                          "dice=1", "reach=1", NULL),
                     0);
    assert_int_equal(t.phase, SV_P_MOVE);
    assert_false(sv_in_contact(c, &t.u[1], &t.u[0]));
    assert_non_null(strstr(out.events[2].text, "not in contact with Hammond"));
    /* without the reach: opfor's die, said so */
    memcpy(&t, &far, sizeof t);
    assert_int_equal(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "extended=yes",
                          "dice=1", NULL),
                     0);
    assert_non_null(strstr(out.events[1].text, "its extra 1D6 inches: opfor's die"));
    memcpy(&t, &s, sizeof s);
    t.u[1].flags |= SV_F_MOVED;
    refused(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", NULL), &out,
            "a charge is its whole action");
    memcpy(&t, &s, sizeof s);
    t.phase = SV_P_FIRE;
    refused(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", NULL), &out,
            "cannot charge now: the game is in the fire phase");
    /* the table's die fails the test (regular: 3 or less): it stays, may still manoeuvre */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(
        send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=4", NULL), 0);
    assert_true(t.u[1].flags & SV_F_CHARGE_FAILED);
    assert_true(fabsf(t.u[1].y - 20.0f) < 1e-4f);
    assert_int_equal(t.phase, SV_P_MOVE);
    assert_non_null(strstr(out.events[0].text, "Rupert throws 4 for its charge test (3 or less)"));
    refused(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=1", NULL), &out,
            "failed a charge test this phase");
    /* the table's die passes: it charges home and the charged unit's reaction is the other
     * side's decision (the AI's, when it plays Parliament) */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(
        send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=3", NULL), 0);
    assert_int_equal(t.phase, SV_P_REACT);
    assert_int_equal(t.charger, 1);
    assert_int_equal(t.charged, 0);
    assert_int_equal(sv_engine_current(&t), 0);
    assert_true(sv_in_contact(c, &t.u[1], &t.u[0]));
    assert_true(fx_listed(c, &t, SV_A_HASTY, 0, 1));
    assert_non_null(strstr(out.events[2].text, "Hammond's reaction is Parliament's decision"));
    /* replayed from the log: the same report on the same state gives the same game */
    memcpy(&r, &s, sizeof s);
    assert_int_equal(
        send(c, &r, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=3", NULL), 0);
    assert_memory_equal(&r, &t, sizeof r);
    /* every die decides as the table threw it, whatever the game's stream held */
    for (int d = 1; d <= 6; d++) {
        char dice[8];
        snprintf(dice, sizeof dice, "dice=%d", d);
        memcpy(&t, &s, sizeof s);
        assert_int_equal(
            send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", dice, NULL), 0);
        assert_int_equal(t.phase == SV_P_REACT, d <= 3);
    }
    /* no dice: opfor throws the test and says so */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", NULL), 0);
    assert_non_null(strstr(out.events[0].text, "opfor's die"));
    /* in command: no test, so no die */
    int cmd = fx_unit(c, SV_COMMANDER, 1, SV_OPEN, 1, 0, 1, 24, 24, 0, -1);
    fx_state(c, &s, SV_P_MOVE, 1, 9);
    assert_true(sv_in_command(c, &s, 1));
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=2", NULL), &out,
            "Rupert is in command: it charges without a test");
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", NULL), 0);
    assert_int_equal(t.phase, SV_P_REACT);
    (void)cmd;
    free(c);
}

/* The AI's horse has charged Hammond: the players report the reaction. */
static void reaction(void **st) {
    (void)st;
    sv_ctx_t *c = charge_ctx();
    sv_state_t s, t;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_MOVE, 1, 9);
    assert_int_equal(
        send(c, &s, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=1", NULL), 0);
    assert_int_equal(s.phase, SV_P_REACT);
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=recoil", NULL), &out,
            "Hammond is foot: only mounted units recoil");
    refused(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=evade", NULL), &out,
            "Hammond is in block: only foot in open order evades");
    refused(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=intercept", NULL), &out,
            "intercepts come during a move");
    refused(send(c, &t, 1, "reaction", &out, "unit=Rupert", "kind=stand", NULL), &out,
            "Rupert was not charged: Hammond was");
    refused(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=about_face", "dice=3", NULL),
            &out, "has no test to throw");
    /* a foot unit in open order evades foot only */
    memcpy(&t, &s, sizeof s);
    t.u[0].form = SV_OPEN;
    t.u[0].a = 0;
    t.u[0].files = 6;
    refused(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=evade", NULL), &out,
            "foot evades only foot");
    /* the hasty defensive block: the charger came from 12" (over 9"), so it tests to pull up
     * short (5 or less against pikes); the table's 6 fails: the impact, a light one (1) and
     * the block's marker (1) */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(
        send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=hasty_block", "dice=6", NULL), 0);
    assert_int_equal(t.u[0].form, SV_DEFBLOCK);
    assert_int_equal(t.u[0].markers, 2);
    assert_true(t.u[0].flags & SV_F_REACTED);
    assert_int_equal(t.phase, SV_P_MOVE);
    assert_int_equal(t.side, 1);
    /* with a 2 it pulls up short: no impact, the block's marker taken back */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(
        send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=hasty_block", "dice=2", NULL), 0);
    assert_int_equal(t.u[0].markers, 0);
    /* defensive fire with the table's dice: Hammond's front rank of 3 muskets, +1 at a block,
     * +1 at mounted: 5 dice, 2 or less hits */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(sv_table_deffire_dice(c, &t), 5);
    refused(
        send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=defensive_fire", "dice=1,1", NULL),
        &out, "Hammond's defensive fire throws 5 dice at Rupert");
    /* two hits: two markers on Rupert, which flinches back 3" out of contact */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=defensive_fire",
                          "dice=1,2,6,6,6", NULL),
                     0);
    assert_int_equal(t.u[1].markers, 2);
    assert_false(sv_in_contact(c, &t.u[1], &t.u[0]));
    assert_true(t.u[0].flags & SV_F_RED);
    assert_int_equal(t.u[0].markers, 0);
    /* three hits: three markers */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=defensive_fire",
                          "dice=1,1,1,6,6", NULL),
                     0);
    assert_int_equal(t.u[1].markers, 3);
    /* one hit: it comes on, one marker */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=defensive_fire",
                          "dice=6,6,2,6,6", NULL),
                     0);
    assert_int_equal(t.u[1].markers, 1);
    assert_true(sv_in_contact(c, &t.u[1], &t.u[0]));
    assert_int_equal(t.u[0].markers, 0);
    /* none: a light impact on the firer */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=defensive_fire",
                          "dice=6,6,6,6,6", NULL),
                     0);
    assert_int_equal(t.u[1].markers, 0);
    assert_int_equal(t.u[0].markers, 1);
    assert_true(sv_in_contact(c, &t.u[1], &t.u[0]));
    /* standing: accepted */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=stand", NULL), 0);
    assert_int_equal(t.phase, SV_P_MOVE);
    /* nothing waits for a reaction any more */
    refused(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=stand", NULL), &out,
            "nothing waits for a reaction");
    free(c);
}

/* Hammond's muskets declared their fire at Rupert 12" off: the dice thrown at the table. */
static void fire(void **st) {
    (void)st;
    sv_ctx_t *c = charge_ctx();
    c->start.u[1].y = 14.0f; /* 6" off: within the muskets' 7" */
    sv_state_t s, t;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_FIRE_ROLL, 0, 9);
    s.u[0].target = 1;
    int want = sv_fire_dice(c, &s, 0, 1);
    assert_true(want >= 3 && want <= 8);
    char dice[40] = "dice=", wrong[40] = "dice=", msg[80];
    for (int i = 0; i < want; i++) /* 1, 2, 3, ...: need 2 or less (regular) */
        snprintf(dice + strlen(dice), sizeof dice - strlen(dice), "%s%d", i ? "," : "", i % 6 + 1);
    for (int i = 0; i < want - 1; i++)
        snprintf(wrong + strlen(wrong), sizeof wrong - strlen(wrong), "%s1", i ? "," : "");
    memcpy(&t, &s, sizeof s);
    snprintf(msg, sizeof msg, "Hammond throws %d dice at Rupert", want);
    refused(send(c, &t, 0, "fire", &out, "unit=Hammond", "target=Rupert", wrong, NULL), &out, msg);
    refused(send(c, &t, 0, "fire", &out, "unit=Rupert", "target=Hammond", dice, NULL), &out,
            "Rupert declared no fire this turn");
    t.phase = SV_P_FIRE;
    refused(send(c, &t, 0, "fire", &out, "unit=Hammond", "target=Rupert", dice, NULL), &out,
            "once every unit has declared its target");
    /* accepted: the dice of 2 or less hit; the node has nothing left: the turn goes on */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "fire", &out, "unit=Hammond", "target=Rupert", dice, NULL), 0);
    assert_true(t.u[0].flags & SV_F_RED);
    assert_true(t.phase != SV_P_FIRE_ROLL);
    assert_int_equal(t.u[1].n, 3); /* its 2 markers cost it a stand at the losses' removal */
    assert_int_equal(t.tally[1], 1);
    assert_non_null(strstr(out.events[0].text, ": 2 hits"));
    refused(send(c, &t, 0, "fire", &out, "unit=Hammond", "target=Rupert", dice, NULL), &out,
            "the game is in");
    /* another declared fire still waits: the node stays for it */
    int d2 = fx_unit(c, SV_PM, 0, SV_LINE, 4, 0, 4, 30, 8, 0, 1);
    fx_state(c, &s, SV_P_FIRE_ROLL, 0, 9);
    s.u[0].target = 1;
    s.u[d2].target = 1;
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "fire", &out, "unit=Hammond", "target=Rupert", dice, NULL), 0);
    assert_int_equal(t.phase, SV_P_FIRE_ROLL);
    refused(send(c, &t, 0, "fire", &out, "unit=Hammond", "target=Rupert", dice, NULL), &out,
            "has thrown its fire dice already");
    refused(send(c, &t, 0, "fire", &out, "unit=unit 2", "target=Hammond", dice, NULL), &out,
            "Hammond is a friend of unit 2");
    free(c);
}

/* Hammond's pikes and Rupert's horse in contact: the attacks' dice thrown at the table. */
static void melee(void **st) {
    (void)st;
    sv_ctx_t *c = two_units();
    c->start.u[1].y = 8.0f;
    sv_state_t s, t;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_MELEE, 0, 9);
    s.cur = 0;
    assert_true(sv_in_contact(c, &s.u[0], &s.u[1]));
    int first, second, need[2];
    sv_table_melee_dice(c, &s, 0, 1, &first, &second, need);
    assert_int_equal(first, 2); /* its 2 pikes, then its 4 muskets */
    assert_int_equal(second, 4);
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "melee", &out, "unit=Hammond", "enemy=Rupert", "dice=1,1,1", NULL), &out,
            "Hammond throws 6 dice at Rupert (2 for its pike stands first, then 4), not 3");
    refused(send(c, &t, 0, "melee", &out, "unit=Rupert", "enemy=Hammond", "dice=1,1,1,1", NULL),
            &out, "asks Hammond now, not Rupert");
    t.phase = SV_P_MOVE;
    refused(send(c, &t, 0, "melee", &out, "unit=Hammond", "enemy=Rupert", "dice=1,1,1,1,1,1", NULL),
            &out, "not the attacks of the hand-to-hand phase");
    memcpy(&t, &s, sizeof s);
    t.u[1].y = 12.0f;
    refused(send(c, &t, 0, "melee", &out, "unit=Hammond", "enemy=Rupert", "dice=1,1,1,1,1,1", NULL),
            &out, "Hammond is not in contact with Rupert");
    /* accepted: each die against its stand type's score */
    memcpy(&t, &s, sizeof s);
    /* pikes: 1, 6; muskets: 1, 1, 6, 6 */
    const char *dice = "dice=1,6,1,1,6,6";
    int hits = (1 <= need[0]) + (6 <= need[0]) + 2 * (1 <= need[1]) + 2 * (6 <= need[1]);
    assert_true(hits >= 1);
    assert_int_equal(send(c, &t, 0, "melee", &out, "unit=Hammond", "enemy=Rupert", dice, NULL), 0);
    assert_int_equal(t.u[1].markers, hits);
    assert_true(t.u[0].flags & SV_F_DECIDED);
    /* at a table, Rupert's attack on the one unit it touches waits for its dice too (the
     * engine would throw it at once) */
    assert_int_equal(t.phase, SV_P_MELEE);
    assert_int_equal(t.cur, 1);
    assert_int_equal(sv_engine_current(&t), 1);
    int f1, s1, need1[2];
    sv_table_melee_dice(c, &t, 1, 0, &f1, &s1, need1);
    assert_int_equal(f1 + s1, 4);
    int hits1 = 2 * (1 <= need1[0]) + 2 * (6 <= need1[0]);
    assert_true(hits1 >= 2);
    assert_int_equal(
        send(c, &t, 0, "melee", &out, "unit=Rupert", "enemy=Hammond", "dice=1,1,6,6", NULL), 0);
    /* both attacks thrown: the losses removed (a stand for two markers), the movement phase */
    assert_int_equal(t.phase, SV_P_MOVE);
    assert_int_equal(t.u[0].n, 6 - hits1 / 2);
    assert_int_equal(t.u[1].n, 4 - hits / 2);
    /* in command: the attack waits for its re-throw, which the table throws too */
    fx_unit(c, SV_COMMANDER, 0, SV_OPEN, 1, 0, 1, 25, 4, 0, 1);
    fx_state(c, &s, SV_P_MELEE, 0, 9);
    s.cur = 0;
    assert_true(sv_in_command(c, &s, 0));
    assert_int_equal(
        send(c, &s, 0, "melee", &out, "unit=Hammond", "enemy=Rupert", "dice=6,6,6,6,6,6", NULL), 0);
    assert_int_equal(s.phase, SV_P_RETHROW);
    assert_int_equal(s.hits, 0);
    assert_int_equal(
        send(c, &s, 0, "melee", &out, "unit=Hammond", "enemy=Rupert", "dice=1,1,1,1,1,1", NULL), 0);
    assert_int_equal(s.u[1].markers, 6);
    assert_true(s.u[0].flags & SV_F_RETHROWN);
    free(c);
}

/* The AI's horse rides across the front of the players' horse: the players' intercept. */
static void intercept(void **st) {
    (void)st;
    sv_ctx_t *c = two_units();
    c->start.u[1].x = 20.0f;
    c->start.u[1].y = 14.0f;
    c->start.u[1].fx = -1.0f;
    c->start.u[1].fy = 0.0f;
    int f = fx_unit(c, SV_MOUNTED, 0, SV_BLOCK, 4, 4, 2, 8, 8, 0, 1);
    snprintf(c->names[f], sizeof c->names[f], "Fairfax");
    sv_state_t s, t;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_MOVE, 1, 9);
    opfor_action_t a = opfor_action_make(SV_A_MOVE);
    a.unit = 1;
    a.x = 7.0f; /* 13" west, within the block's 14" */
    a.y = 14.0f;
    a.x2 = -1.0f;
    a.y2 = 0.0f;
    assert_int_equal(sv_engine_apply(c, &s, &a), 0);
    assert_int_equal(s.phase, SV_P_INTERCEPT);
    assert_int_equal(s.cur, f);
    assert_int_equal(sv_engine_current(&s), 0);
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "reaction", &out, "unit=Fairfax", "kind=stand", NULL), &out,
            "may intercept Rupert on its way or let it pass");
    refused(send(c, &t, 0, "reaction", &out, "unit=Hammond", "kind=intercept", NULL), &out,
            "Fairfax may intercept Rupert now, not Hammond");
    refused(send(c, &t, 0, "reaction", &out, "unit=Fairfax", "kind=let_pass", "dice=2", NULL), &out,
            "has no test to throw");
    /* the test passes with the table's 2 (3 or less): Rupert stops, the two in contact */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(
        send(c, &t, 0, "reaction", &out, "unit=Fairfax", "kind=intercept", "dice=2", NULL), 0);
    assert_true(sv_in_contact(c, &t.u[f], &t.u[1]));
    assert_true(t.u[1].x > 7.5f);
    /* it fails with a 5: Rupert goes on to the end of its move */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(
        send(c, &t, 0, "reaction", &out, "unit=Fairfax", "kind=intercept", "dice=5", NULL), 0);
    assert_true(fabsf(t.u[1].x - 7.0f) < 1e-3f);
    assert_false(sv_in_contact(c, &t.u[f], &t.u[1]));
    /* let it pass: the same */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "reaction", &out, "unit=Fairfax", "kind=let_pass", NULL), 0);
    assert_true(fabsf(t.u[1].x - 7.0f) < 1e-3f);
    free(c);
}

/* A regular gun's misses bounce through to the next unit behind its target (§Bounce-Through):
 * the table throws those dice too. */
static void fire_bounce(void **st) {
    (void)st;
    sv_ctx_t *c = two_units();
    c->start.u[1].x = 30.0f;
    c->start.u[1].y = 16.0f;
    int g = fx_unit(c, SV_GUN, 0, SV_UNLIMBERED, 1, 1, 1, 30, 4, 0, 1);
    int b = fx_unit(c, SV_MOUNTED, 1, SV_BLOCK, 4, 4, 2, 30, 32, 0, -1);
    snprintf(c->names[g], sizeof c->names[g], "Saker");
    snprintf(c->names[b], sizeof c->names[b], "Byron");
    sv_state_t s, t;
    opfor_session_result_t out;
    fx_state(c, &s, SV_P_FIRE_ROLL, 0, 9);
    s.u[g].target = 1;
    /* 12" off: 1 die, +1 at a block, +1 at mounted (R-10) */
    assert_int_equal(sv_fire_dice(c, &s, g, 1), 3);
    assert_int_equal(sv_bounce_target(c, &s, g, 1), b);
    memcpy(&t, &s, sizeof s);
    refused(send(c, &t, 0, "fire", &out, "unit=Saker", "target=Rupert", "dice=6,6,6", "bounce=1,1",
                 NULL),
            &out, "3 misses bounce through to Byron: 3 dice, not 2");
    refused(
        send(c, &t, 0, "fire", &out, "unit=Saker", "target=Rupert", "dice=1,1,1", "bounce=1", NULL),
        &out, "bounces through to no unit");
    /* three misses, two of their bounce dice hit (2 or less): Byron's 2 markers cost a stand */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "fire", &out, "unit=Saker", "target=Rupert", "dice=6,6,6",
                          "bounce=1,2,6", NULL),
                     0);
    assert_non_null(strstr(out.events[1].text, "3 misses bounce through to Byron: 2 hits"));
    assert_int_equal(t.u[1].n, 4);
    assert_int_equal(t.u[b].n, 3);
    free(c);
}

/* The units field `field` of report `form` may name now when side reports, as one string
 * "a,b" (or "-" for no list). */
static const char *values(const sv_ctx_t *c, const sv_state_t *s, int side, const char *form,
                          const char *field, char *buf, size_t len) {
    const opfor_ruleset_session_t *ss = session();
    assert_non_null(ss->unit_values);
    const opfor_form_t *f = opfor_form_find(ss->reports, ss->nreports, form);
    assert_non_null(f);
    int k = opfor_form_field(f, field);
    assert_true(k >= 0);
    sv_state_t before;
    memcpy(&before, s, sizeof before);
    const char *names[SV_MAX_UNITS];
    int n = ss->unit_values(c, s, side, f, k, names, SV_MAX_UNITS);
    assert_memory_equal(&before, s, sizeof before); /* it only reads */
    if (n < 0)
        return snprintf(buf, len, "-"), buf;
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? "," : "", names[i]);
    return buf;
}

/* Each report's unit fields offer what its checks accept now, for the side reporting, and
 * nothing they refuse (docs/splendid.md 11): the table page's menus. */
static void unit_values_offer_what_the_rules_allow(void **st) {
    (void)st;
    sv_ctx_t *c = charge_ctx(); /* Hammond (Parliament) 12" from Rupert (Royalists) */
    sv_state_t s, t;
    opfor_session_result_t out;
    char b[200];
    /* Parliament's movement phase: its unit moves and changes formation; Rupert waits */
    fx_state(c, &s, SV_P_MOVE, 0, 9);
    assert_string_equal(values(c, &s, 0, "move", "unit", b, sizeof b), "Hammond");
    assert_string_equal(values(c, &s, 0, "formation", "unit", b, sizeof b), "Hammond");
    assert_string_equal(values(c, &s, 1, "move", "unit", b, sizeof b), "");
    assert_string_equal(values(c, &s, 1, "charge", "unit", b, sizeof b), "");
    assert_string_equal(values(c, &s, 0, "losses", "unit", b, sizeof b), "Hammond,Rupert");
    /* a non-unit field has no list */
    assert_string_equal(values(c, &s, 0, "move", "to", b, sizeof b), "-");
    /* once it moved, nothing is left to manoeuvre */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(send(c, &t, 0, "move", &out, "unit=Hammond", "to=20,10", NULL), 0);
    assert_string_equal(values(c, &t, 0, "move", "unit", b, sizeof b), "");
    /* the Royalists' phase: the horse charges the pikes 12" off, and every listed pair is a
     * charge the report accepts */
    fx_state(c, &s, SV_P_MOVE, 1, 9);
    assert_string_equal(values(c, &s, 1, "charge", "unit", b, sizeof b), "Rupert");
    assert_string_equal(values(c, &s, 1, "charge", "target", b, sizeof b), "Hammond");
    memcpy(&t, &s, sizeof s);
    assert_int_equal(
        send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=1", NULL), 0);
    /* 26" off: beyond even an extended charge, so no charge is offered */
    memcpy(&t, &s, sizeof s);
    t.u[1].y = 34.0f;
    assert_string_equal(values(c, &t, 1, "charge", "unit", b, sizeof b), "");
    assert_string_equal(values(c, &t, 1, "charge", "target", b, sizeof b), "");
    refused(send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", NULL), &out,
            "cannot charge Hammond");
    /* charged: the pikes' reaction is Parliament's to report, not the Royalists' */
    memcpy(&t, &s, sizeof s);
    assert_int_equal(
        send(c, &t, 1, "charge", &out, "unit=Rupert", "target=Hammond", "dice=1", NULL), 0);
    assert_int_equal(t.phase, SV_P_REACT);
    assert_string_equal(values(c, &t, 0, "reaction", "unit", b, sizeof b), "Hammond");
    assert_string_equal(values(c, &t, 1, "reaction", "unit", b, sizeof b), "");
    assert_string_equal(values(c, &t, 0, "move", "unit", b, sizeof b), "");
    assert_string_equal(values(c, &t, 0, "losses", "unit", b, sizeof b), "");
    /* fire: the units whose declared fire waits for its dice, and their targets */
    c->start.u[1].y = 14.0f;
    fx_state(c, &s, SV_P_FIRE_ROLL, 0, 9);
    assert_string_equal(values(c, &s, 0, "fire", "unit", b, sizeof b), "");
    s.u[0].target = 1;
    assert_string_equal(values(c, &s, 0, "fire", "unit", b, sizeof b), "Hammond");
    assert_string_equal(values(c, &s, 0, "fire", "target", b, sizeof b), "Rupert");
    /* hand-to-hand: the unit asked now, and the enemy it touches */
    c->start.u[1].y = 8.0f;
    fx_state(c, &s, SV_P_MELEE, 0, 9);
    s.cur = 1;
    assert_true(sv_in_contact(c, &s.u[0], &s.u[1]));
    assert_string_equal(values(c, &s, 0, "melee", "unit", b, sizeof b), "Rupert");
    assert_string_equal(values(c, &s, 0, "melee", "enemy", b, sizeof b), "Hammond");
    s.phase = SV_P_OVER;
    assert_string_equal(values(c, &s, 0, "melee", "unit", b, sizeof b), "");
    free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forms_described),
        cmocka_unit_test(initiative),
        cmocka_unit_test(move),
        cmocka_unit_test(move_across_terrain),
        cmocka_unit_test(formation),
        cmocka_unit_test(guns_limber_first),
        cmocka_unit_test(losses),
        cmocka_unit_test(charge),
        cmocka_unit_test(reaction),
        cmocka_unit_test(intercept),
        cmocka_unit_test(fire),
        cmocka_unit_test(fire_bounce),
        cmocka_unit_test(melee),
        cmocka_unit_test(unit_values_offer_what_the_rules_allow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
