/* rulesets/splendid/session.c — A Splendid Victory! at a real table (opfor/session.h): what the
 * players report besides the generic "act" and "roll" — the initiative dice they threw, a
 * unit's move as the place and facing it reached, a change of formation with its files, the
 * stands a unit lost, a charge with its test's die, their reaction to the AI's charge or move,
 * and the fire and hand-to-hand dice they threw — each checked against the rules and refused
 * with the reason, else applied as the rules say (docs/splendid.md 11; the table's dice reach
 * the engine through engine_table.c). The daemon applies a report to a copy of the game, so a
 * refused one changes nothing.
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

static const opfor_field_t CHARGE_FIELDS[] = {
    {.name = "unit",
     .label = "Unit",
     .help = "the unit that charges",
     .type = OPFOR_FIELD_UNIT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "target",
     .label = "Target",
     .help = "the enemy unit it charges",
     .type = OPFOR_FIELD_UNIT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "extended",
     .label = "Extended charge",
     .help = "beyond its charge allowance (up to 6 in more mounted, 2 in foot; one marker)",
     .type = OPFOR_FIELD_BOOL,
     .def = 0},
    {.name = "dice",
     .label = "Charge test (1D6)",
     .help = "the die thrown for its charge test, \"4\" (none in command; left out: opfor "
             "throws it)",
     .type = OPFOR_FIELD_DICE,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 1,
     .max = 6},
    {.name = "reach",
     .label = "Extended reach (1D6)",
     .help = "a mounted unit's extended charge: the die of its extra inches, \"4\" (left out: "
             "opfor throws it)",
     .type = OPFOR_FIELD_DICE,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 1,
     .max = 6},
};

static const char *const REACTION_CHOICES[] = {"stand",       "recoil",     "evade",
                                               "hasty_block", "about_face", "defensive_fire",
                                               "intercept",   "let_pass",   NULL};

/* The engine's action for each of REACTION_CHOICES. */
static const int REACTION_KIND[] = {SV_A_HOLD,      SV_A_RECOIL,  SV_A_EVADE,     SV_A_HASTY,
                                    SV_A_ABOUTFACE, SV_A_DEFFIRE, SV_A_INTERCEPT, SV_A_HOLD};

static const opfor_field_t REACTION_FIELDS[] = {
    {.name = "unit",
     .label = "Unit",
     .help = "your unit that was charged, or that may intercept the enemy's move",
     .type = OPFOR_FIELD_UNIT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "kind",
     .label = "Reaction",
     .help = "charged: stand, recoil, evade, hasty_block, about_face or defensive_fire; "
             "during a move: intercept or let_pass",
     .type = OPFOR_FIELD_CHOICE,
     .flags = OPFOR_FIELD_REQUIRED,
     .choices = REACTION_CHOICES},
    {.name = "dice",
     .label = "Test (1D6) or fire dice",
     .help = "the die of its test (intercept; the hasty block's pull-up-short or charge-home), "
             "\"2\", or its defensive fire's dice (left out: opfor throws them)",
     .type = OPFOR_FIELD_DICE,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 1,
     .max = 6},
};

static const opfor_field_t FIRE_FIELDS[] = {
    {.name = "unit",
     .label = "Unit",
     .help = "the unit whose fire dice were thrown",
     .type = OPFOR_FIELD_UNIT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "target",
     .label = "Target",
     .help = "the unit it declared its fire at",
     .type = OPFOR_FIELD_UNIT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "dice",
     .label = "Fire dice",
     .help = "every die it threw, \"6,5,2,1\" (as many as the rules give it at that target)",
     .type = OPFOR_FIELD_DICE,
     .flags = OPFOR_FIELD_REQUIRED,
     .min = 1,
     .max = 6},
    {.name = "bounce",
     .label = "Bounce-through dice",
     .help = "a regular or heavy gun: the dice of its misses bouncing through to the next unit "
             "(left out: opfor throws them)",
     .type = OPFOR_FIELD_DICE,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 1,
     .max = 6},
};

static const opfor_field_t MELEE_FIELDS[] = {
    {.name = "unit",
     .label = "Unit",
     .help = "the unit attacking (the one the hand-to-hand phase asks now)",
     .type = OPFOR_FIELD_UNIT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "enemy",
     .label = "Enemy",
     .help = "the enemy unit in contact it attacks with all its stands",
     .type = OPFOR_FIELD_UNIT,
     .flags = OPFOR_FIELD_REQUIRED},
    {.name = "dice",
     .label = "Attack dice",
     .help = "every die it threw, its pike (hand-to-hand) stands' first: \"6,5,2,1\"; a "
             "re-throw's dice when it re-throws",
     .type = OPFOR_FIELD_DICE,
     .flags = OPFOR_FIELD_REQUIRED,
     .min = 1,
     .max = 6},
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
    {.name = "charge",
     .title = "Charge",
     .help = "a unit of the side moving charges an enemy unit: its test (the table's die or "
             "opfor's), intercepts on the way and the charged unit's reaction follow",
     .section = "How does a unit charge?",
     .fields = CHARGE_FIELDS,
     .nfields = 5},
    {.name = "reaction",
     .title = "Reaction",
     .help = "your charged unit's reaction, or your mounted unit's intercept of a moving enemy",
     .section = "Reactions",
     .fields = REACTION_FIELDS,
     .nfields = 3},
    {.name = "fire",
     .title = "Fire dice",
     .help = "a unit's fire dice thrown at the table, once every unit has declared its target",
     .section = "The Firing Procedure",
     .fields = FIRE_FIELDS,
     .nfields = 4},
    {.name = "melee",
     .title = "Hand-to-hand dice",
     .help = "the attack dice of the unit the hand-to-hand phase asks now, thrown at the table",
     .section = "How do you resolve hand-to-hand combat?",
     .fields = MELEE_FIELDS,
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
    /* the path costs what the engine charges: terrain's move factors (docs/splendid.md 5) */
    float cost = sv_terrain_cost(c, u, opfor_pt(u->x, u->y), opfor_pt(a.x, a.y));
    if (cost > (a.sub ? 2.0f : 1.0f) * allow + 1e-3f) {
        char terrain[64] = "";
        if (fabsf(cost - len) > 1e-3f)
            snprintf(terrain, sizeof terrain, ", which costs %.1f in of it across terrain",
                     (double)cost);
        return refuse(
            out, OPFOR_EILLEGAL, "move: %s moved %.1f in%s; its allowance in %s is %.0f in%s", name,
            (double)len, terrain, sv_form_names[u->form], (double)(allow * (a.sub ? 2 : 1)),
            a.sub ? " at double time" : " (double time: twice that)");
    }
    if (!sv_move_check(c, s, &a))
        return refuse(out, OPFOR_EILLEGAL,
                      "move: %s cannot stand at (%.1f, %.1f) facing %.0f deg: %s", name, x, y,
                      v[2].set ? v[2].num : fmod(atan2(u->fx, u->fy) * 180.0 / M_PI + 360.0, 360.0),
                      a.sub ? "double time needs no enemy within 18 in, and the path and the "
                              "place must be clear of other units and of terrain closed to it"
                            : "the path and the place must be clear of other units and of "
                              "terrain closed to it");
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

/* The dice of a DICE value into d (at most max); their count, or -1 when unreadable. */
static int dice_of(const opfor_value_t *v, int *d, int max) {
    if (!v->set || !v->text)
        return 0;
    int n = 0;
    const char *p = v->text;
    while (*p) {
        char *end = NULL;
        long k = strtol(p, &end, 10);
        if (end == p || k < 1 || k > 6 || n >= max)
            return -1;
        d[n++] = (int)k;
        p = end;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return n;
}

static const char *dice_text(const int *d, int n, char *buf, size_t len) {
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%d", i ? "," : "", d[i]);
    return buf;
}

/* An enemy of unit ui named by v, alive; -1 with out->error when not. */
static int enemy_unit(const sv_ctx_t *c, const sv_state_t *s, int ui, const char *field,
                      const opfor_value_t *v, opfor_session_result_t *out) {
    int t = opfor__sv_unit_find(c, s, v->text);
    if (t < 0) {
        refuse(out, OPFOR_EINVAL, "%s: no unit called '%s' in this game", field,
               v->text ? v->text : "");
        return -1;
    }
    if (s->u[t].side == s->u[ui].side) {
        refuse(out, OPFOR_EILLEGAL, "%s: %s is a friend of %s", field, c->names[t], c->names[ui]);
        return -1;
    }
    if (!sv_alive(&s->u[t])) {
        refuse(out, OPFOR_EILLEGAL, "%s: %s has no stands left on the table", field, c->names[t]);
        return -1;
    }
    return t;
}

static int unit_quality(const sv_ctx_t *c, const sv_unit_t *u) {
    return c->opt.unit_quality ? u->quality : 1;
}

/* What the state shows after a charge or a reaction: who decides next. */
static void charge_outcome(const sv_ctx_t *c, const sv_state_t *s, int ui, int ti,
                           opfor_session_result_t *out) {
    if (s->phase == SV_P_INTERCEPT) {
        event(out, "intercept", "%s may intercept %s on its way (§Reactions 1): %s decides",
              c->names[s->cur], c->names[s->pend.unit], side_name(c, s->side));
    } else if (s->phase == SV_P_REACT) {
        event(out, "charged", "%s charges home on %s: %s's reaction is %s's decision (§Reactions)",
              c->names[s->charger], c->names[s->charged], c->names[s->charged],
              side_name(c, s->side));
    } else if (s->phase == SV_P_BREAK) {
        event(out, "break", "%s may break through (§Break-Throughs): %s decides", c->names[s->cur],
              side_name(c, s->side));
    } else if (ti >= 0 && !sv_alive(&s->u[ti])) {
        event(out, "overrun", "%s is gone", c->names[ti]);
    } else if (ti >= 0 && sv_alive(&s->u[ui]) && !sv_in_contact(c, &s->u[ui], &s->u[ti])) {
        event(out, "stopped", "%s stopped at (%.1f, %.1f), not in contact with %s", c->names[ui],
              (double)s->u[ui].x, (double)s->u[ui].y, c->names[ti]);
    }
}

/* §How does a unit charge?: the charge checked by the engine's own rules (sv_move_check),
 * its test thrown with the table's die (or the game's, said so), then the engine's charge:
 * intercepts on the way and the charged unit's reaction are the other side's decisions. */
static int report_charge(const sv_ctx_t *c, sv_state_t *s, int side, const opfor_value_t *v,
                         opfor_session_result_t *out) {
    int ui = own_unit(c, s, side, &v[0], out, 1);
    if (ui < 0)
        return OPFOR_EILLEGAL;
    const char *name = c->names[ui];
    sv_unit_t *u = &s->u[ui];
    if (s->phase != SV_P_MOVE)
        return refuse(out, OPFOR_EILLEGAL, "charge: %s cannot charge now: the game is in %s", name,
                      PHASE_TEXT[s->phase]);
    if (s->side != side)
        return refuse(out, OPFOR_EILLEGAL,
                      "charge: it is %s's movement phase: %s waits for its own (§The Movement "
                      "Phase)",
                      side_name(c, s->side), name);
    int ti = enemy_unit(c, s, ui, "target", &v[1], out);
    if (ti < 0)
        return OPFOR_EILLEGAL;
    const char *tname = c->names[ti];
    if (u->flags & SV_F_ACTED)
        return refuse(out, OPFOR_EILLEGAL, "charge: %s has already acted in this movement phase",
                      name);
    if (u->flags & SV_F_CHARGE_FAILED)
        return refuse(out, OPFOR_EILLEGAL,
                      "charge: %s failed a charge test this phase: it may still manoeuvre, not "
                      "charge",
                      name);
    if (u->flags & (SV_F_MOVED | SV_F_FORMED))
        return refuse(out, OPFOR_EILLEGAL,
                      "charge: %s has manoeuvred or changed formation this phase: a charge is "
                      "its whole action (§How does a unit charge?)",
                      name);
    if (s->retreating)
        return refuse(out, OPFOR_EILLEGAL,
                      "charge: %s retreated a unit voluntarily this phase: nothing else of the "
                      "side moves (§Can a unit be voluntarily retreated?)",
                      side_name(c, side));
    if (sv_engaged(c, s, ui))
        return refuse(out, OPFOR_EILLEGAL,
                      "charge: %s is in contact with the enemy: it may only disengage "
                      "(§Disengaging)",
                      name);
    float allow = sv_charge_allow(u);
    if (allow <= 0.0f)
        return refuse(out, OPFOR_EILLEGAL, "charge: %s (%s) never charges", name,
                      sv_kind_names[u->kind]);
    int d[8];
    int nd = dice_of(&v[3], d, 8);
    if (nd < 0 || nd > 1)
        return refuse(out, OPFOR_EINVAL, "dice: the charge test is 1D6, not '%s'",
                      v[3].text ? v[3].text : "");
    int in_cmd = sv_in_command(c, s, ui);
    if (nd && in_cmd)
        return refuse(out, OPFOR_EILLEGAL,
                      "dice: %s is in command: it charges without a test (§How does a unit "
                      "charge?)",
                      name);
    int r[8];
    int nr = dice_of(&v[4], r, 8);
    if (nr < 0 || nr > 1)
        return refuse(out, OPFOR_EINVAL, "reach: an extended charge's reach is 1D6, not '%s'",
                      v[4].text ? v[4].text : "");
    if (nr && !(v[2].set && v[2].num))
        return refuse(out, OPFOR_EILLEGAL,
                      "reach: only an extended charge throws for its reach (extended: yes)");
    if (nr && sv_is_foot(u))
        return refuse(out, OPFOR_EILLEGAL,
                      "reach: %s is foot: its extended charge reaches 2 in further, no die", name);
    opfor_action_t a = opfor_action_make(SV_A_CHARGE);
    a.unit = (uint8_t)ui;
    a.target = (uint8_t)ti;
    a.sub = v[2].set && v[2].num ? 1 : 0;
    if (!sv_move_check(c, s, &a))
        return refuse(out, OPFOR_EILLEGAL,
                      "charge: %s cannot charge %s (%.1f in away): it must reach the face that "
                      "looks at it, flush, by one straight move within 45 deg of its front, "
                      "within %.0f in%s, clear of other units and of terrain closed to it (§How "
                      "does a unit charge?)",
                      name, tname, (double)sv_unit_dist(c, u, &s->u[ti]), (double)allow,
                      a.sub ? "" : " (an extended charge goes further)");
    /* the dice the engine throws next, in its order: the test, then the extended reach */
    int load[2], nl = 0;
    int need = c->model.charge_need[unit_quality(c, u)];
    if (!in_cmd) {
        int die = nd ? d[0] : sv_table_peek(s);
        load[nl++] = die;
        event(out, die <= need ? "test" : "failed", "%s %s %d for its charge test (%d or less): %s",
              name, nd ? "throws" : "throws (opfor's die)", die, need,
              die <= need ? "it charges" : "it fails, and may still manoeuvre this phase");
    } else {
        event(out, "test", "%s is in command: it charges without a test", name);
    }
    if (nr)
        load[nl++] = r[0];
    if ((nd || nr) && sv_table_load(s, load, nl) < 0)
        return refuse(out, OPFOR_ERANGE, "dice: the table's dice could not be loaded");
    int rc = sv_engine_apply(c, s, &a);
    if (rc < 0)
        return refuse(out, rc, "charge: the rules refuse %s's charge", name);
    /* a die loaded and not thrown (a failed test, a charge stopped for an intercept before its
     * reach) is nobody else's: the game's dice go on from a fresh stream */
    if (nr && ((s->u[ui].flags & SV_F_CHARGE_FAILED) || s->phase == SV_P_INTERCEPT))
        sv_table_load(s, NULL, 0);
    if (s->u[ui].flags & SV_F_CHARGE_FAILED)
        return 0;
    if (a.sub && sv_is_foot(u))
        event(out, "charged", "%s makes an extended charge on %s (2 in beyond its allowance)", name,
              tname);
    else if (a.sub && nr && s->phase != SV_P_INTERCEPT)
        event(out, "charged", "%s makes an extended charge on %s: %d more inches", name, tname,
              r[0]);
    else if (a.sub)
        event(out, "charged",
              "%s makes an extended charge on %s (its extra 1D6 inches: opfor's "
              "die%s)",
              name, tname, nr ? ", an intercept may come first" : "");
    else
        event(out, "charged", "%s charges %s", name, tname);
    charge_outcome(c, s, ui, ti, out);
    return 0;
}

/* Why a charged unit may not take reaction `kind` (§Reactions 2-6), as the engine's list
 * refuses it. */
static const char *reaction_why(const sv_ctx_t *c, const sv_state_t *s, int kind, char *buf,
                                size_t len) {
    const sv_unit_t *t = &s->u[s->charged], *ch = &s->u[s->charger];
    const char *name = c->names[s->charged];
    switch (kind) {
    case SV_A_RECOIL:
        if (!sv_is_mounted(c, t) && !sv_is_cmd(t))
            snprintf(buf, len, "%s is foot: only mounted units recoil (§Reactions 2)", name);
        else if (t->form == SV_COLUMN)
            snprintf(buf, len, "%s is in road column: it cannot recoil (§Reactions 2)", name);
        else
            snprintf(buf, len, "%s has no room to recoil away from %s", name, c->names[s->charger]);
        break;
    case SV_A_EVADE:
        if (!sv_is_foot(t))
            snprintf(buf, len, "%s is mounted: only foot in open order evades (§Reactions 3)",
                     name);
        else if (t->form != SV_OPEN)
            snprintf(buf, len, "%s is in %s: only foot in open order evades (§Reactions 3)", name,
                     sv_form_names[t->form]);
        else if (!sv_is_foot(ch))
            snprintf(buf, len, "%s is charged by mounted %s: foot evades only foot (§Reactions 3)",
                     name, c->names[s->charger]);
        else
            snprintf(buf, len, "%s has no room to evade away from %s", name, c->names[s->charger]);
        break;
    case SV_A_HASTY:
        snprintf(buf, len, "%s cannot form a hasty defensive block: %s (§Reactions 4)", name,
                 !sv_is_foot(t) ? "only foot does"
                 : t->n < 2     ? "a single stand"
                                : "it is in one");
        break;
    case SV_A_ABOUTFACE:
        snprintf(buf, len, "%s cannot about-face: %s (§Reactions 5)", name,
                 !sv_is_foot(t) ? "only foot does" : "a defensive block faces every way");
        break;
    case SV_A_DEFFIRE:
        snprintf(buf, len, "%s cannot fire at %s: %s (§Reactions 6)", name, c->names[s->charger],
                 !sv_is_foot(t)       ? "only foot with muskets does"
                 : sv_muskets(t) == 0 ? "it has no muskets"
                                      : "it has fired this turn");
        break;
    default:
        snprintf(buf, len, "%s cannot react so", name);
    }
    return buf;
}

/* A reaction of the reporting side's unit (§Reactions): to a charge (SV_P_REACT) or an
 * intercept of a moving enemy (SV_P_INTERCEPT), one the engine lists for it, its test thrown
 * with the table's die when one is given. */
static int report_reaction(const sv_ctx_t *c, sv_state_t *s, int side, const opfor_value_t *v,
                           opfor_session_result_t *out) {
    int ui = own_unit(c, s, side, &v[0], out, 1);
    if (ui < 0)
        return OPFOR_EILLEGAL;
    const char *name = c->names[ui];
    int choice = (int)v[1].num, kind = REACTION_KIND[choice];
    const char *what = REACTION_CHOICES[choice];
    int d[32];
    int nd = dice_of(&v[2], d, 32);
    if (nd < 0 || (nd > 1 && kind != SV_A_DEFFIRE))
        return refuse(out, OPFOR_EINVAL, "dice: a reaction's test is 1D6, not '%s'",
                      v[2].text ? v[2].text : "");
    if (s->phase != SV_P_REACT && s->phase != SV_P_INTERCEPT)
        return refuse(out, OPFOR_EILLEGAL,
                      "reaction: nothing waits for a reaction: the game is in %s",
                      PHASE_TEXT[s->phase]);
    opfor_action_t a = opfor_action_make(kind);
    a.unit = (uint8_t)ui;
    const char *test = NULL;
    if (s->phase == SV_P_INTERCEPT) {
        if (ui != s->cur)
            return refuse(out, OPFOR_EILLEGAL, "reaction: %s may intercept %s now, not %s",
                          c->names[s->cur], c->names[s->pend.unit], name);
        if (kind != SV_A_INTERCEPT && choice != 7)
            return refuse(out, OPFOR_EILLEGAL,
                          "kind: %s may intercept %s on its way or let it pass (intercept, "
                          "let_pass), not %s",
                          name, c->names[s->pend.unit], what);
        if (kind == SV_A_INTERCEPT) {
            a.target = s->pend.unit;
            int counter = s->pend.kind == SV_A_CHARGE && s->pend.target == ui;
            if (!counter && !sv_in_command(c, s, ui))
                test = "intercept test (3 or less)";
        } else {
            a.target = OPFOR_ACTION_NONE;
        }
    } else {
        if (ui != s->charged)
            return refuse(out, OPFOR_EILLEGAL, "reaction: %s was not charged: %s was", name,
                          c->names[s->charged]);
        if (choice >= 6)
            return refuse(out, OPFOR_EILLEGAL,
                          "kind: %s was charged: intercepts come during a move; its reactions "
                          "are stand, recoil, evade, hasty_block, about_face, defensive_fire",
                          name);
        a.target = kind == SV_A_HOLD ? OPFOR_ACTION_NONE : s->charger;
        opfor_action_t list[16];
        int n = sv_react_legal(c, s, list, 16), ok = 0;
        for (int i = 0; i < n && !ok; i++)
            ok = list[i].kind == kind;
        char why[200];
        if (!ok)
            return refuse(out, OPFOR_EILLEGAL, "kind: %s",
                          reaction_why(c, s, kind, why, sizeof why));
        if (kind == SV_A_HASTY && sv_is_mounted(c, &s->u[s->charger]))
            test = s->charge_far ? "pull-up-short test of the charger" : "charge-home test";
        if (kind == SV_A_DEFFIRE && nd) { /* §Reactions 6 with the table's dice */
            int want = sv_table_deffire_dice(c, s), hits;
            if (nd != want)
                return refuse(out, OPFOR_EILLEGAL,
                              "dice: %s's defensive fire throws %d dice at %s (its muskets, "
                              "the target's modifiers), not %d",
                              name, want, c->names[s->charger], nd);
            int ch = s->charger;
            char buf[96];
            int rc = sv_table_deffire(c, s, d, nd, &hits);
            if (rc < 0)
                return refuse(out, rc, "reaction: the rules refuse %s's defensive fire", name);
            event(out, "fired", "%s fires %s at %s (%d or less hits): %d hit%s", name,
                  dice_text(d, nd, buf, sizeof buf), c->names[ch], sv_table_fire_need(c, &s->u[ui]),
                  hits, hits == 1 ? "" : "s");
            event(out, "reacted", "%s: %s (%d marker%s now)", name, what, s->u[ui].markers,
                  s->u[ui].markers == 1 ? "" : "s");
            charge_outcome(c, s, ui, -1, out);
            return 0;
        }
    }
    if (nd && !test)
        return refuse(out, OPFOR_EILLEGAL, "dice: %s's %s has no test to throw", name, what);
    if (test) {
        int die = nd ? d[0] : sv_table_peek(s);
        if (nd && sv_table_load(s, d, 1) < 0)
            return refuse(out, OPFOR_ERANGE, "dice: the die %d could not be loaded", d[0]);
        event(out, "test", "%s: %s %d", test, nd ? "the table throws" : "opfor throws", die);
    }
    if (kind == SV_A_DEFFIRE)
        event(out, "test", "%s's defensive fire: opfor throws the dice", name);
    int rc = sv_engine_apply(c, s, &a);
    if (rc < 0)
        return refuse(out, rc, "reaction: the rules refuse %s's %s", name, what);
    event(out, "reacted", "%s: %s (%d marker%s now)", name, what, s->u[ui].markers,
          s->u[ui].markers == 1 ? "" : "s");
    charge_outcome(c, s, ui, -1, out);
    return 0;
}

/* §The Firing Procedure: a unit's declared fire thrown at the table (engine_table.c). */
static int report_fire(const sv_ctx_t *c, sv_state_t *s, const opfor_value_t *v,
                       opfor_session_result_t *out) {
    int ui = own_unit(c, s, -1, &v[0], out, 0);
    if (ui < 0)
        return OPFOR_EILLEGAL;
    const char *name = c->names[ui];
    sv_unit_t *u = &s->u[ui];
    if (s->phase == SV_P_PIVOT || s->phase == SV_P_FIRE)
        return refuse(out, OPFOR_EILLEGAL,
                      "fire: the dice are thrown once every unit has declared its target "
                      "(§The Firing Procedure); the game is in %s",
                      PHASE_TEXT[s->phase]);
    if (s->phase != SV_P_FIRE_ROLL)
        return refuse(out, OPFOR_EILLEGAL, "fire: the game is in %s, not the fire phase",
                      PHASE_TEXT[s->phase]);
    int ti = enemy_unit(c, s, ui, "target", &v[1], out);
    if (ti < 0)
        return OPFOR_EILLEGAL;
    if (u->target == 0xFF)
        return refuse(out, OPFOR_EILLEGAL, "fire: %s %s", name,
                      (u->flags & SV_F_RED) ? "has thrown its fire dice already this turn"
                                            : "declared no fire this turn");
    if (u->target != ti)
        return refuse(out, OPFOR_EILLEGAL, "target: %s declared its fire at %s, not %s", name,
                      c->names[u->target], c->names[ti]);
    int d[32], b[32];
    int nd = dice_of(&v[2], d, 32), nb = dice_of(&v[3], b, 32);
    if (nd < 0 || nb < 0)
        return refuse(out, OPFOR_EINVAL, "dice: each die is 1 to 6");
    int want = sv_fire_dice(c, s, ui, ti);
    if (nd != want)
        return refuse(out, OPFOR_EILLEGAL,
                      "dice: %s throws %d dice at %s (its %s at that range and target), not %d",
                      name, want, c->names[ti], sv_is_art(u) ? "gun" : "muskets", nd);
    int need = sv_table_fire_need(c, u), hits = 0;
    for (int i = 0; i < nd; i++)
        hits += d[i] <= need;
    int bt = (u->kind == SV_GUN || u->kind == SV_HEAVYGUN) && hits < nd
                 ? sv_bounce_target(c, s, ui, ti)
                 : -1;
    if (nb && bt < 0)
        return refuse(out, OPFOR_EILLEGAL, "bounce: %s's fire bounces through to no unit", name);
    if (nb && nb != nd - hits)
        return refuse(out, OPFOR_EILLEGAL,
                      "bounce: %s's %d misses bounce through to %s: %d dice, not %d", name,
                      nd - hits, c->names[bt], nd - hits, nb);
    int h[2], bu;
    char buf[96];
    int rc = sv_table_fire(c, s, ui, d, nd, b, nb, h, &bu);
    if (rc < 0)
        return refuse(out, rc, "fire: the rules refuse %s's dice", name);
    event(out, "fired", "%s throws %s at %s (%d or less hits): %d hit%s", name,
          dice_text(d, nd, buf, sizeof buf), c->names[ti], need, h[0], h[0] == 1 ? "" : "s");
    if (bu >= 0)
        event(out, "bounce", "%d miss%s bounce through to %s%s: %d hit%s", nd - hits,
              nd - hits == 1 ? "" : "es", c->names[bu], nb ? "" : " (opfor's dice)", h[1],
              h[1] == 1 ? "" : "s");
    if (s->phase != SV_P_FIRE_ROLL)
        event(out, "phase", "every declared fire is thrown: the game goes on to %s",
              PHASE_TEXT[s->phase]);
    return 0;
}

/* §How do you resolve hand-to-hand combat?: the attack of the unit asked, thrown at the table
 * (engine_table.c); in its re-throw decision, the dice of the re-throw. */
static int report_melee(const sv_ctx_t *c, sv_state_t *s, int side, const opfor_value_t *v,
                        opfor_session_result_t *out) {
    int ui = own_unit(c, s, -1, &v[0], out, 0);
    if (ui < 0)
        return OPFOR_EILLEGAL;
    const char *name = c->names[ui];
    if (s->phase != SV_P_MELEE && s->phase != SV_P_RETHROW)
        return refuse(out, OPFOR_EILLEGAL,
                      "melee: the game is in %s, not the attacks of the "
                      "hand-to-hand phase",
                      PHASE_TEXT[s->phase]);
    if (s->cur != ui)
        return refuse(out, OPFOR_EILLEGAL,
                      "melee: the hand-to-hand phase asks %s now, not %s (units attack in turn)",
                      c->names[s->cur], name);
    int ti = enemy_unit(c, s, ui, "enemy", &v[1], out);
    if (ti < 0)
        return OPFOR_EILLEGAL;
    if (!sv_in_contact(c, &s->u[ui], &s->u[ti]))
        return refuse(out, OPFOR_EILLEGAL, "enemy: %s is not in contact with %s", name,
                      c->names[ti]);
    if (s->phase == SV_P_RETHROW && s->u[ui].target != ti)
        return refuse(out, OPFOR_EILLEGAL, "enemy: %s re-throws its attack on %s, not on %s", name,
                      c->names[s->u[ui].target], c->names[ti]);
    if (s->phase == SV_P_MELEE && s->u[ui].side != side) {
        int k = 0;
        for (int i = 0; i < s->nunits; i++)
            k += s->u[i].side != s->u[ui].side && sv_alive(&s->u[i]) &&
                 sv_in_contact(c, &s->u[ui], &s->u[i]);
        if (k > 1)
            return refuse(out, OPFOR_EILLEGAL,
                          "melee: %s touches %d enemy units: %s names the one it attacks (its "
                          "order) before its dice",
                          name, k, side_name(c, s->u[ui].side));
    }
    int d[40];
    int nd = dice_of(&v[2], d, 40);
    if (nd < 0)
        return refuse(out, OPFOR_EINVAL, "dice: each die is 1 to 6");
    int first, second, need[2];
    sv_table_melee_dice(c, s, ui, ti, &first, &second, need);
    if (nd != first + second)
        return refuse(out, OPFOR_EILLEGAL,
                      "dice: %s throws %d dice at %s (%d for its %s stands first, then %d), not "
                      "%d",
                      name, first + second, c->names[ti], first,
                      s->u[ui].kind == SV_PM ? "pike" : "first", second, nd);
    int rethrow = s->phase == SV_P_RETHROW, hits;
    char buf[128];
    int rc = sv_table_melee(c, s, ui, ti, d, nd, &hits);
    if (rc < 0)
        return refuse(out, rc, "melee: the rules refuse %s's dice", name);
    event(out, "attacked", "%s %s %s at %s: %d hit%s", name, rethrow ? "re-throws" : "throws",
          dice_text(d, nd, buf, sizeof buf), c->names[ti], hits, hits == 1 ? "" : "s");
    if (s->phase == SV_P_RETHROW)
        event(out, "rethrow",
              "%s is in command: it keeps the dice or re-throws them all (a melee report with "
              "the new dice) (§Re-throws)",
              name);
    return 0;
}

static int dispatch(const sv_ctx_t *c, sv_state_t *s, int side, const opfor_form_t *form,
                    const opfor_value_t *vals, opfor_session_result_t *out);

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
    /* a table that reports: every attack waits for its dice or its order (kept only when the
       report is accepted: a refused one changes nothing) */
    uint8_t was_table = s->table;
    s->table = 1;
    int rc = dispatch(c, s, side, form, vals, out);
    if (rc < 0)
        s->table = was_table;
    return rc;
}

static int dispatch(const sv_ctx_t *c, sv_state_t *s, int side, const opfor_form_t *form,
                    const opfor_value_t *vals, opfor_session_result_t *out) {
    if (form == &REPORTS[0])
        return report_initiative(c, s, side, vals, out);
    if (form == &REPORTS[1])
        return report_move(c, s, side, vals, out);
    if (form == &REPORTS[2])
        return report_formation(c, s, side, vals, out);
    if (form == &REPORTS[3])
        return report_losses(c, s, vals, out);
    if (form == &REPORTS[4])
        return report_charge(c, s, side, vals, out);
    if (form == &REPORTS[5])
        return report_reaction(c, s, side, vals, out);
    if (form == &REPORTS[6])
        return report_fire(c, s, vals, out);
    if (form == &REPORTS[7])
        return report_melee(c, s, side, vals, out);
    return refuse(out, OPFOR_EINVAL,
                  "report: '%s' is not one of A Splendid Victory!'s "
                  "(initiative, move, formation, losses, charge, reaction, fire, melee)",
                  form->name);
}

const opfor_ruleset_session_t opfor__sv_session = {
    .reports = REPORTS,
    .nreports = (int)(sizeof REPORTS / sizeof REPORTS[0]),
    .actions = NULL,
    .nactions = 0,
    .report = report,
    .action = NULL,
    .unit_values = opfor__sv_unit_values,
};
