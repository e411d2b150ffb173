/* rulesets/splendid/session.c — A Splendid Victory! at a real table (opfor/session.h): what the
 * players report besides the generic "act" and "roll" — the initiative dice they threw, a
 * unit's move as the place and facing it reached, a change of formation with its files, the
 * stands a unit lost — each checked
 * against the rules and refused with the reason, else applied as the rules say
 * (docs/splendid.md 11). The daemon applies a report to a copy of the game, so a refused one
 * changes nothing.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine_int.h"
#include "opfor/session.h"
#include "session_int.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const opfor_field_t INITIATIVE_FIELDS[] = {
    {.name = "dice",
     .label = "Your 2D6",
     .help = "the two dice the reporting side threw for the initiative, \"3,5\"",
     .type = OPFOR_FIELD_DICE,
     .flags = OPFOR_FIELD_REQUIRED,
     .min = 1,
     .max = 6},
    {.name = "other_dice",
     .label = "The other side's 2D6",
     .help = "the two dice the other side threw, \"2,6\"",
     .type = OPFOR_FIELD_DICE,
     .flags = OPFOR_FIELD_REQUIRED,
     .min = 1,
     .max = 6},
};

static const opfor_field_t MOVE_FIELDS[] = {
    {.name = "unit",
     .label = "Unit",
     .help = "the unit that manoeuvred",
     .type = OPFOR_FIELD_UNIT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "to",
     .label = "Front centre (x,y in)",
     .help = "where the centre of its front edge stands now, inches from the bottom-left corner",
     .type = OPFOR_FIELD_POINT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "facing",
     .label = "Facing (degrees)",
     .help = "the way its front looks: 0 towards the top edge, 90 towards the right edge "
             "(default: as before)",
     .type = OPFOR_FIELD_NUM,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 0,
     .max = 360,
     .unit = "deg"},
    {.name = "double_time",
     .label = "Double time",
     .help = "it marched at double time (no enemy within 18 in)",
     .type = OPFOR_FIELD_BOOL,
     .def = 0},
};

static const char *const FORMATION_CHOICES[] = {"block",      "defensive_block", "line",
                                                "open_order", "road_column",     NULL};

static const opfor_field_t FORMATION_FIELDS[] = {
    {.name = "unit",
     .label = "Unit",
     .help = "the unit that changed formation",
     .type = OPFOR_FIELD_UNIT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "formation",
     .label = "Formation",
     .help = "the formation it took (its front centre stays where it was)",
     .type = OPFOR_FIELD_CHOICE,
     .flags = OPFOR_FIELD_REQUIRED,
     .choices = FORMATION_CHOICES},
    {.name = "files",
     .label = "Files",
     .help = "stands in its front rank (default: the formation's: a block's two ranks, a line's "
             "every stand)",
     .type = OPFOR_FIELD_INT,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 1,
     .max = 9},
};

static const opfor_field_t LOSSES_FIELDS[] = {
    {.name = "unit",
     .label = "Unit",
     .help = "the unit that lost stands",
     .type = OPFOR_FIELD_UNIT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "stands",
     .label = "Stands removed",
     .help = "how many stands were taken off the table",
     .type = OPFOR_FIELD_INT,
     .flags = OPFOR_FIELD_REQUIRED,
     .min = 1,
     .max = 9},
    {.name = "first",
     .label = "Of them pikes (hand-to-hand)",
     .help = "how many of them were pike stands (Pike and Musket) or hand-to-hand stands "
             "(Foot); default: the more numerous kind first",
     .type = OPFOR_FIELD_INT,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 0,
     .max = 9},
};

static const opfor_form_t REPORTS[] = {
    {.name = "initiative",
     .title = "Initiative dice",
     .help = "both sides threw 2D6 for the initiative at the table: the lower total wins",
     .section = "The Determine the Initiative Phase",
     .fields = INITIATIVE_FIELDS,
     .nfields = 2},
    {.name = "move",
     .title = "Manoeuvre",
     .help = "a unit of the side moving manoeuvred to a place and facing",
     .section = "How do I manoeuvre a unit?",
     .fields = MOVE_FIELDS,
     .nfields = 4},
    {.name = "formation",
     .title = "Change of formation",
     .help = "a unit of the side moving changed formation",
     .section = "Ok. How does a unit change formation?",
     .fields = FORMATION_FIELDS,
     .nfields = 3},
    {.name = "losses",
     .title = "Stands removed",
     .help = "stands taken off a unit at the table (before the initiative or in a movement "
             "phase)",
     .section = "The Remove Losses Phase",
     .fields = LOSSES_FIELDS,
     .nfields = 3},
};

static int refuse(opfor_session_result_t *out, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int refuse(opfor_session_result_t *out, int err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error, sizeof out->error, fmt, ap);
    va_end(ap);
    return err;
}

static void event(opfor_session_result_t *out, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void event(opfor_session_result_t *out, const char *kind, const char *fmt, ...) {
    if (out->nevents >= OPFOR_SESSION_MAX_EVENTS)
        return;
    opfor_session_event_t *e = &out->events[out->nevents++];
    snprintf(e->kind, sizeof e->kind, "%s", kind);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
}

static const char *side_name(const sv_ctx_t *c, int side) {
    return side >= 0 && side < 2 && c->side_names[side][0] ? c->side_names[side]
           : side == 0                                     ? "side 0"
                                                           : "side 1";
}

static const char *const PHASE_TEXT[SV_P_OVER + 1] = {
    "the initiative phase",   "the fire phase (pivots before firing)",
    "the fire phase",         "the fire phase (the dice)",
    "the hand-to-hand phase", "the hand-to-hand phase",
    "the hand-to-hand phase", "a movement phase",
    "a reaction to a charge", "an intercept",
    "a break-through",        "the end of the game"};

int opfor__sv_unit_find(const sv_ctx_t *c, const sv_state_t *s, const char *name) {
    if (!name || !name[0])
        return -1;
    for (int i = 0; i < s->nunits; i++)
        if (strcasecmp(c->names[i], name) == 0)
            return i;
    char *end = NULL;
    long k = strtol(name, &end, 10); /* or its index */
    if (end && *end == '\0' && end != name && k >= 0 && k < s->nunits)
        return (int)k;
    return -1;
}

/* The two dice of a DICE value ("3,5") into d; 0, or -1 when it is not two dice. */
static int two_dice(const opfor_value_t *v, int d[2]) {
    if (!v->set || !v->text || v->num != 2)
        return -1;
    char *end = NULL;
    d[0] = (int)strtol(v->text, &end, 10);
    if (!end || *end != ',')
        return -1;
    d[1] = (int)strtol(end + 1, NULL, 10);
    return 0;
}

/* §The Determine the Initiative Phase: 2D6 a side, the lower total wins, ties thrown again. */
static int report_initiative(const sv_ctx_t *c, sv_state_t *s, int side, const opfor_value_t *v,
                             opfor_session_result_t *out) {
    if (s->phase != SV_P_INITIATIVE)
        return refuse(out, OPFOR_EILLEGAL,
                      "initiative: the dice are thrown at the start of a turn, and the game is "
                      "in %s of turn %d",
                      PHASE_TEXT[s->phase], s->turn);
    int a[2], b[2];
    if (two_dice(&v[0], a) < 0)
        return refuse(out, OPFOR_EINVAL, "dice: the initiative is thrown with 2D6, not '%s'",
                      v[0].text ? v[0].text : "");
    if (two_dice(&v[1], b) < 0)
        return refuse(out, OPFOR_EINVAL, "other_dice: the initiative is thrown with 2D6, not '%s'",
                      v[1].text ? v[1].text : "");
    int mine = a[0] + a[1], theirs = b[0] + b[1];
    if (mine == theirs)
        return refuse(out, OPFOR_EILLEGAL,
                      "initiative: a tie (%d and %d): both sides throw again (§The Determine the "
                      "Initiative Phase)",
                      mine, theirs);
    s->init = (uint8_t)(mine < theirs ? side : 1 - side);
    event(out, "initiative", "%s throws %d, %s %d: %s has the initiative in turn %d",
          side_name(c, side), mine, side_name(c, 1 - side), theirs, side_name(c, s->init), s->turn);
    sv_start_fire(c, s);
    sv_settle(c, s);
    return 0;
}

/* A unit named by field `field` of the reporting side, alive; -1 with out->error when not. */
static int own_unit(const sv_ctx_t *c, const sv_state_t *s, int side, const opfor_value_t *v,
                    opfor_session_result_t *out, int must_be_own) {
    int u = opfor__sv_unit_find(c, s, v->text);
    if (u < 0) {
        refuse(out, OPFOR_EINVAL, "unit: no unit called '%s' in this game", v->text ? v->text : "");
        return -1;
    }
    if (must_be_own && s->u[u].side != side) {
        refuse(out, OPFOR_EILLEGAL, "unit: %s is a unit of %s, not of %s", c->names[u],
               side_name(c, s->u[u].side), side_name(c, side));
        return -1;
    }
    if (!sv_alive(&s->u[u])) {
        refuse(out, OPFOR_EILLEGAL, "unit: %s has no stands left on the table", c->names[u]);
        return -1;
    }
    return u;
}

/* §How do I manoeuvre a unit?: the place and facing reached, checked by the engine's own rules
 * for a manoeuvre (sv_move_check) after the reasons a player can read. */
/* The unit of a move or change of formation (field v, the report `what`): the reporting
 * side's, in its movement phase, free to act and out of contact; -1 with out->error when not. */
static int mover(const sv_ctx_t *c, const sv_state_t *s, int side, const opfor_value_t *v,
                 const char *what, opfor_session_result_t *out) {
    int ui = own_unit(c, s, side, v, out, 1);
    if (ui < 0)
        return -1;
    const char *name = c->names[ui];
    const char *verb = strcmp(what, "move") == 0 ? "manoeuvre" : "change formation";
    if (s->phase != SV_P_MOVE)
        return refuse(out, -1, "%s: %s cannot %s now: the game is in %s", what, name, verb,
                      PHASE_TEXT[s->phase]);
    if (s->side != side)
        return refuse(out, -1,
                      "%s: it is %s's movement phase: %s waits for its own (§The Movement "
                      "Phase)",
                      what, side_name(c, s->side), name);
    if (s->u[ui].flags & SV_F_ACTED)
        return refuse(out, -1, "%s: %s has already acted in this movement phase", what, name);
    if (s->retreating)
        return refuse(out, -1,
                      "%s: %s retreated a unit voluntarily this phase: nothing else of the side "
                      "moves (§Can a unit be voluntarily retreated?)",
                      what, side_name(c, side));
    if (sv_engaged(c, s, ui))
        return refuse(out, -1,
                      "%s: %s is in contact with the enemy: a unit in contact cannot %s, it may "
                      "only disengage (§Disengaging)",
                      what, name, verb);
    return ui;
}

static int report_move(const sv_ctx_t *c, sv_state_t *s, int side, const opfor_value_t *v,
                       opfor_session_result_t *out) {
    int ui = mover(c, s, side, &v[0], "move", out);
    if (ui < 0)
        return OPFOR_EILLEGAL;
    const char *name = c->names[ui];
    sv_unit_t *u = &s->u[ui];
    double x, y;
    if (sscanf(v[1].text ? v[1].text : "", "%lf,%lf", &x, &y) != 2)
        return refuse(out, OPFOR_EINVAL, "to: '%s' is not a point x,y in inches",
                      v[1].text ? v[1].text : "");
    opfor_action_t a = opfor_action_make(SV_A_MOVE);
    a.unit = (uint8_t)ui;
    a.sub = v[3].set && v[3].num ? 1 : 0;
    a.x = (float)x;
    a.y = (float)y;
    if (v[2].set) {
        double r = v[2].num * M_PI / 180.0;
        a.x2 = (float)sin(r);
        a.y2 = (float)cos(r);
        if (fabsf(a.x2) < 1e-6f)
            a.x2 = 0.0f;
        if (fabsf(a.y2) < 1e-6f)
            a.y2 = 0.0f;
    } else {
        a.x2 = u->fx;
        a.y2 = u->fy;
    }
    float allow = sv_move_allow(u);
    float len = hypotf(a.x - u->x, a.y - u->y);
    if (u->form == SV_UNLIMBERED)
        return refuse(out, OPFOR_EILLEGAL,
                      "move: %s is unlimbered: it limbers up before it moves, or prolongs "
                      "(§How does artillery manoeuvre?)",
                      name);
    if (allow <= 0.0f)
        return refuse(out, OPFOR_EILLEGAL, "move: %s in %s cannot manoeuvre (it may pivot)", name,
                      sv_form_names[u->form]);
    if (a.sub == 1 && sv_is_art(u))
        return refuse(out, OPFOR_EILLEGAL, "double_time: artillery never marches at double time");
    if (len > (a.sub ? 2.0f : 1.0f) * allow + 1e-3f)
        return refuse(out, OPFOR_EILLEGAL,
                      "move: %s moved %.1f in; its allowance in %s is %.0f in%s", name, (double)len,
                      sv_form_names[u->form], (double)(allow * (a.sub ? 2 : 1)),
                      a.sub ? " at double time" : " (double time: twice that)");
    if (!sv_move_check(c, s, &a))
        return refuse(out, OPFOR_EILLEGAL,
                      "move: %s cannot stand at (%.1f, %.1f) facing %.0f deg: %s", name, x, y,
                      v[2].set ? v[2].num : fmod(atan2(u->fx, u->fy) * 180.0 / M_PI + 360.0, 360.0),
                      a.sub ? "double time needs no enemy within 18 in, and the path and the "
                              "place must be clear of other units, of terrain closed to it and "
                              "of the table's edge"
                            : "the path and the place must be clear of other units, of terrain "
                              "closed to it and of the table's edge");
    int rc = sv_engine_apply(c, s, &a);
    if (rc < 0)
        return refuse(out, rc, "move: the rules refuse %s's move", name);
    event(out, "moved", "%s %s to (%.1f, %.1f)", name, a.sub ? "marches at double time" : "moves",
          (double)s->u[ui].x, (double)s->u[ui].y);
    if (s->phase == SV_P_INTERCEPT)
        event(out, "intercept", "%s may intercept %s on its way (§Reactions 1)",
              side_name(c, 1 - side), name);
    else if (fabsf(s->u[ui].x - a.x) > 1e-3f || fabsf(s->u[ui].y - a.y) > 1e-3f)
        event(out, "stopped", "%s was stopped at (%.1f, %.1f)", name, (double)s->u[ui].x,
              (double)s->u[ui].y);
    return 0;
}

/* §Ok. How does a unit change formation?: the formation and files taken, checked by the
 * engine's own rules (sv_move_check) after the reasons a player can read. */
static int report_formation(const sv_ctx_t *c, sv_state_t *s, int side, const opfor_value_t *v,
                            opfor_session_result_t *out) {
    int ui = mover(c, s, side, &v[0], "formation", out);
    if (ui < 0)
        return OPFOR_EILLEGAL;
    const char *name = c->names[ui];
    const sv_unit_t *u = &s->u[ui];
    int form = (int)v[1].num; /* FORMATION_CHOICES are the engine's first five formations */
    if (sv_is_art(u))
        return refuse(out, OPFOR_EILLEGAL,
                      "formation: %s is artillery: it limbers up or unlimbers instead", name);
    if (sv_is_cmd(u))
        return refuse(out, OPFOR_EILLEGAL, "formation: %s is a command unit, always in open order",
                      name);
    if (u->flags & SV_F_FORMED)
        return refuse(out, OPFOR_EILLEGAL,
                      "formation: %s has already changed formation in this movement phase", name);
    if (u->flags & SV_F_FLOWED)
        return refuse(out, OPFOR_EILLEGAL,
                      "formation: %s flowed around friends this phase: it keeps its formation "
                      "(§Flow Around)",
                      name);
    if (form == u->form)
        return refuse(out, OPFOR_EILLEGAL, "formation: %s is in %s already", name,
                      sv_form_names[form]);
    if (!sv_form_ok(u, form) || (form == SV_OPEN && u->kind == SV_MOUNTED && u->n >= 4))
        return refuse(out, OPFOR_EILLEGAL, "formation: a %d-stand %s unit%s cannot be in %s", u->n,
                      sv_kind_names[u->kind], u->kind == SV_PM && u->a ? " with pikes" : "",
                      sv_form_names[form]);
    if (form == SV_COLUMN)
        for (int i = 0; i < s->nunits; i++)
            if (s->u[i].side != u->side && sv_alive(&s->u[i]) &&
                sv_unit_dist(c, u, &s->u[i]) <= 24.0f)
                return refuse(out, OPFOR_EILLEGAL,
                              "formation: %s is within 24 in of %s: no road column so near the "
                              "enemy (§The Movement Phase)",
                              name, c->names[i]);
    int files = v[2].set ? (int)v[2].num : sv_default_files(u, form);
    if (files > u->n || ((form == SV_LINE || form == SV_OPEN) && files != u->n) ||
        (form == SV_COLUMN && files != 1))
        return refuse(out, OPFOR_EILLEGAL,
                      "files: %d files do not fit %s of %d stands (a line and open order: every "
                      "stand; a road column: 1)",
                      files, sv_form_names[form], u->n);
    opfor_action_t a = opfor_action_make(SV_A_FORM);
    a.unit = (uint8_t)ui;
    a.sub = (uint8_t)form;
    a.arg = (uint16_t)files;
    if (!sv_move_check(c, s, &a))
        return refuse(out, OPFOR_EILLEGAL,
                      "formation: %s has no room to form %s there (other units, terrain closed "
                      "to it, the table's edge)",
                      name, sv_form_names[form]);
    int rc = sv_engine_apply(c, s, &a);
    if (rc < 0)
        return refuse(out, rc, "formation: the rules refuse %s's change of formation", name);
    event(out, "formed", "%s forms %s, %d file%s", name, sv_form_names[form], files,
          files == 1 ? "" : "s");
    return 0;
}

/* Stands removed at the table (§The Remove Losses Phase, §Rout): k of the unit's n, `first` of
 * them of its first stand type; a unit that cannot keep its formation at its new size routs. */
static int report_losses(const sv_ctx_t *c, sv_state_t *s, const opfor_value_t *v,
                         opfor_session_result_t *out) {
    int ui = own_unit(c, s, -1, &v[0], out, 0);
    if (ui < 0)
        return OPFOR_EILLEGAL;
    const char *name = c->names[ui];
    sv_unit_t *u = &s->u[ui];
    if (s->phase != SV_P_INITIATIVE && s->phase != SV_P_MOVE)
        return refuse(out, OPFOR_EILLEGAL,
                      "losses: stands are reported before the initiative or in a movement phase; "
                      "the game is in %s (its losses are the engine's)",
                      PHASE_TEXT[s->phase]);
    int k = (int)v[1].num;
    if (k > u->n)
        return refuse(out, OPFOR_EILLEGAL, "stands: %s has %d stand%s, not %d", name, u->n,
                      u->n == 1 ? "" : "s", k);
    int first_kind = u->kind == SV_PM || u->kind == SV_FOOT;
    int first = -1;
    if (v[2].set) {
        first = (int)v[2].num;
        const char *what = u->kind == SV_PM ? "pike" : "hand-to-hand";
        if (!first_kind && first > 0)
            return refuse(out, OPFOR_EINVAL,
                          "first: %s is a %s unit: it has no pike or hand-to-hand stands", name,
                          sv_kind_names[u->kind]);
        if (first > k)
            return refuse(out, OPFOR_EINVAL, "first: %d of %d stands removed", first, k);
        if (first_kind && first > u->a)
            return refuse(out, OPFOR_EILLEGAL, "first: %s has %d %s stand%s, not %d", name, u->a,
                          what, u->a == 1 ? "" : "s", first);
        if (first_kind && k - first > u->n - u->a)
            return refuse(out, OPFOR_EILLEGAL, "stands: %s has %d %s stand%s, not %d", name,
                          u->n - u->a, u->kind == SV_PM ? "musket" : "light",
                          u->n - u->a == 1 ? "" : "s", k - first);
    }
    if (first >= 0 && first_kind) {
        u->a = (uint8_t)(u->a - first);
        u->n = (uint8_t)(u->n - k);
        s->tally[u->side] = (uint16_t)(s->tally[u->side] + k);
        if (u->n == 0) {
            u->flags |= SV_F_GONE;
            u->markers = 0;
        } else {
            sv_refit(u);
        }
    } else {
        sv_remove(s, ui, k);
    }
    if (u->n == 0) {
        event(out, "removed", "%s loses its last %s: the unit is gone", name,
              k == 1 ? "stand" : "stands");
        return 0;
    }
    event(out, "losses", "%s loses %d stand%s: %d left", name, k, k == 1 ? "" : "s", u->n);
    if (!sv_form_ok(u, u->form)) { /* §Rout: a formation that cannot be kept */
        int left = u->n;
        event(out, "routed", "%s cannot stay in %s with %d stand%s: it routs (§Rout)", name,
              sv_form_names[u->form], left, left == 1 ? "" : "s");
        sv_remove(s, ui, left);
    }
    return 0;
}

static int report(const void *ctx, void *state, int side, const opfor_form_t *form,
                  const opfor_value_t *vals, opfor_session_result_t *out) {
    if (!out)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    const sv_ctx_t *c = ctx;
    sv_state_t *s = state;
    if (!c || !s || !form || !vals)
        return refuse(out, OPFOR_EINVAL, "report: no game");
    char msg[200];
    if (opfor_form_check(form, vals, msg, sizeof msg) < 0)
        return refuse(out, OPFOR_EINVAL, "%s", msg);
    if (side < 0 || side > 1)
        return refuse(out, OPFOR_EINVAL, "side: %d is not a side of the game (0 or 1)", side);
    if (s->phase == SV_P_OVER)
        return refuse(out, OPFOR_EILLEGAL, "%s: the game is over", form->name);
    if (form == &REPORTS[0])
        return report_initiative(c, s, side, vals, out);
    if (form == &REPORTS[1])
        return report_move(c, s, side, vals, out);
    if (form == &REPORTS[2])
        return report_formation(c, s, side, vals, out);
    if (form == &REPORTS[3])
        return report_losses(c, s, vals, out);
    return refuse(out, OPFOR_EINVAL,
                  "report: '%s' is not one of A Splendid Victory!'s "
                  "(initiative, move, formation, losses)",
                  form->name);
}

const opfor_ruleset_session_t opfor__sv_session = {
    .reports = REPORTS,
    .nreports = (int)(sizeof REPORTS / sizeof REPORTS[0]),
    .actions = NULL,
    .nactions = 0,
    .report = report,
    .action = NULL,
};
