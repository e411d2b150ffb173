/* rulesets/viktoria/calc.c — the calculator's tables and requests: which actions exist,
 * which fields each takes (Viktoria! VI), what values a field allows, and parsing them.
 *
 * The tables are const data so every front end (CLI, daemon, engine) lists the same thing.
 * Requests are plain structs of ints; opfor_viktoria_req_set parses text into them and
 * opfor_viktoria_calc checks them once before handing them to calc_rules.c.
 */
#include "calc_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ name tables */

const opfor_name_t opfor_viktoria_terrain_names[] = {
    {"open", 0}, {"rough", 1}, {"road", 2}, {"rough_ground", 1}, {NULL, 0},
};

const opfor_name_t opfor_viktoria_guns_names[] = {
    {"field", 0},
    {"heavy", 1},
    {NULL, 0},
};

const opfor_name_t opfor_viktoria_bool_names[] = {
    {"no", 0}, {"yes", 1}, {"false", 0}, {"true", 1}, {"off", 0}, {"on", 1},
    {"0", 0},  {"1", 1},   {"n", 0},     {"y", 1},    {NULL, 0},
};

const opfor_name_t opfor_viktoria_level_names[] = {
    {"calm", 1}, {"light_airs", 2}, {"steady_breeze", 3}, {"high_winds", 4},
    {"gale", 5}, {"light", 2},      {"steady", 3},        {"inclement", 4},
    {"high", 4}, {"gale_force", 5}, {"storm", 5},         {NULL, 0},
};

int opfor_viktoria_command_radius(int level) {
    return level >= 5 ? 6 : level == 4 ? 12 : 18; /* VII; XIII levels 4 and 5 */
}

int opfor_viktoria_musician_radius(int level) {
    return level >= 5 ? 12 : level == 4 ? 18 : 24; /* VII; XIII */
}

/* ------------------------------------------------------------------ fields */

#define FK(k) OPFOR_VK_FK_##k
static const opfor_viktoria_field_t FIELDS[OPFOR_VK_F_COUNT] = {
    [OPFOR_VK_F_ACTOR] = {"actor", "Actor", FK(CLASS), opfor_viktoria_class_names, 0, 0, 1},
    [OPFOR_VK_F_TARGET] = {"target", "Target", FK(CLASS), opfor_viktoria_class_names, 0, 0, 1},
    [OPFOR_VK_F_COVER] = {"cover", "Cover", FK(ENUM), opfor_cover_names, 0, 0, 1},
    [OPFOR_VK_F_RANGE] = {"range", "Range", FK(RANGE), opfor_viktoria_bracket_names, 0, 0, 1},
    [OPFOR_VK_F_ACTOR_MOUNTED] = {"actor-mounted", "Actor Mounted", FK(BOOL),
                                  opfor_viktoria_bool_names, 0, 1, 0},
    [OPFOR_VK_F_TARGET_MOUNTED] = {"target-mounted", "Target Mounted", FK(BOOL),
                                   opfor_viktoria_bool_names, 0, 1, 0},
    [OPFOR_VK_F_SHARPSHOOTER] = {"sharpshooter", "Sharpshooter", FK(BOOL),
                                 opfor_viktoria_bool_names, 0, 1, 1},
    [OPFOR_VK_F_CHARGING] = {"charging", "Attacker Charging", FK(BOOL), opfor_viktoria_bool_names,
                             0, 1, 1},
    [OPFOR_VK_F_ACTOR_WOUNDED] = {"actor-wounded", "Actor Wounded", FK(BOOL),
                                  opfor_viktoria_bool_names, 0, 1, 1},
    [OPFOR_VK_F_TARGET_WOUNDED] = {"target-wounded", "Target Wounded", FK(BOOL),
                                   opfor_viktoria_bool_names, 0, 1, 1},
    [OPFOR_VK_F_MOVING] = {"moving", "Moving Fire", FK(BOOL), opfor_viktoria_bool_names, 0, 1, 1},
    [OPFOR_VK_F_TARGET_RUNNING] = {"target-running", "Target Running/Galloping", FK(BOOL),
                                   opfor_viktoria_bool_names, 0, 1, 1},
    [OPFOR_VK_F_TARGET_PRONE] = {"target-prone", "Target Prone/Crawling", FK(BOOL),
                                 opfor_viktoria_bool_names, 0, 1, 1},
    [OPFOR_VK_F_GENERAL] = {"general", "General with Unit", FK(BOOL), opfor_viktoria_bool_names, 0,
                            1, 1},
    [OPFOR_VK_F_MUSICIAN] = {"musician", "Musician with Unit", FK(BOOL), opfor_viktoria_bool_names,
                             0, 1, 1},
    [OPFOR_VK_F_COLOURS] = {"colours", "Colours with Unit", FK(BOOL), opfor_viktoria_bool_names, 0,
                            1, 1},
    [OPFOR_VK_F_HALF_STRENGTH] = {"half-strength", "Half Strength", FK(BOOL),
                                  opfor_viktoria_bool_names, 0, 1, 1},
    [OPFOR_VK_F_REGISTERED] = {"registered", "Registered Turns", FK(INT), NULL, 0, 20, 1},
    [OPFOR_VK_F_GUNS] = {"guns", "Guns", FK(ENUM), opfor_viktoria_guns_names, 0, 0, 1},
    [OPFOR_VK_F_BLAST] = {"blast", "Blast", FK(ENUM), opfor_viktoria_blast_names, 0, 0, 1},
    [OPFOR_VK_F_TERRAIN] = {"terrain", "Terrain", FK(ENUM), opfor_viktoria_terrain_names, 0, 0, 0},
    [OPFOR_VK_F_OBSTACLES] = {"obstacles", "Linear Obstacles", FK(INT), NULL, 0, 10, 1},
    [OPFOR_VK_F_LIMBERED] = {"limbered", "Limbered Gun", FK(BOOL), opfor_viktoria_bool_names, 0, 1,
                             0},
    [OPFOR_VK_F_WEATHER] = {"weather", "Wind/Weather Level", FK(INT), opfor_viktoria_level_names, 1,
                            5, 1},
    [OPFOR_VK_F_LEVEL] = {"level", "Wind/Weather Level", FK(INT), opfor_viktoria_level_names, 1, 5,
                          1},
    [OPFOR_VK_F_WIND] = {"wind", "Wind Direction", FK(ENUM), opfor_compass_names, 0, 0, 0},
    [OPFOR_VK_F_ALTITUDE] = {"altitude", "Altitude Levels", FK(INT), NULL, 0, 9, 1},
};

/* ------------------------------------------------------------------ actions */

#define F(id, kind, def)                                                                           \
    { OPFOR_VK_F_##id, OPFOR_VK_FK_##kind, def }
#define B(id) F(id, BOOL, 0)
#define ACTOR_Q F(ACTOR, QUALITY, OPFOR_Q_SOLDIER)
#define ACTOR_C F(ACTOR, CLASS, OPFOR_Q_SOLDIER)
#define TARGET_Q F(TARGET, QUALITY, OPFOR_Q_SOLDIER)
#define TARGET_C F(TARGET, CLASS, OPFOR_Q_SOLDIER)
#define COVER F(COVER, ENUM, OPFOR_COVER_NONE)
#define RANGE F(RANGE, RANGE, OPFOR_VK_SHORT)
#define ALTITUDE F(ALTITUDE, INT, 0)
#define FIRE_FIELDS                                                                                \
    13, {                                                                                          \
        ACTOR_Q, TARGET_C, COVER, RANGE, B(ACTOR_MOUNTED), B(TARGET_MOUNTED), B(SHARPSHOOTER),     \
            B(ACTOR_WOUNDED), B(TARGET_WOUNDED), B(MOVING), B(TARGET_RUNNING), B(TARGET_PRONE),    \
            ALTITUDE                                                                               \
    }
#define MELEE_FIELDS(mounted_def)                                                                  \
    8, {                                                                                           \
        ACTOR_Q, TARGET_Q, COVER, F(ACTOR_MOUNTED, BOOL, mounted_def), B(TARGET_MOUNTED),          \
            B(CHARGING), B(ACTOR_WOUNDED), B(TARGET_WOUNDED)                                       \
    }
#define MORALE_FIELDS                                                                              \
    5, {                                                                                           \
        ACTOR_Q, B(GENERAL), B(MUSICIAN), B(COLOURS), B(HALF_STRENGTH)                             \
    }
#define MOVE_FIELDS(actor)                                                                         \
    6, {                                                                                           \
        actor, B(ACTOR_MOUNTED), B(ACTOR_WOUNDED), F(TERRAIN, ENUM, 0), F(OBSTACLES, INT, 0),      \
            B(LIMBERED)                                                                            \
    }

static const opfor_viktoria_action_t ACTIONS[OPFOR_VK_A_COUNT] = {
    [OPFOR_VK_A_FIRE_PISTOL] = {"fire_pistol", "Fire Pistol",
                                "to hit, critical, save and effect of a pistol shot (9 in max)",
                                "VI, IX", OPFOR_VK_R_PISTOL, 0, FIRE_FIELDS},
    [OPFOR_VK_A_FIRE_CARBINE] = {"fire_carbine", "Fire Carbine",
                                 "to hit, critical, save and effect of a carbine shot (36 in max)",
                                 "VI, IX", OPFOR_VK_R_CARBINE, 0, FIRE_FIELDS},
    [OPFOR_VK_A_FIRE_RIFLE] = {"fire_rifle", "Fire Rifle",
                               "to hit, critical, save and effect of a rifle shot (no limit)",
                               "VI, IX", OPFOR_VK_R_RIFLE, 0, FIRE_FIELDS},
    [OPFOR_VK_A_TEST_VS_MG] = {"test_vs_mg",
                               "Test versus MG",
                               "a figure in an MG's arc tests to escape; the effect if it fails",
                               "VI, IX",
                               OPFOR_VK_R_MG,
                               1,
                               7,
                               {ACTOR_C, COVER, RANGE, B(ACTOR_MOUNTED), B(ACTOR_WOUNDED),
                                B(MOVING), ALTITUDE}},
    [OPFOR_VK_A_FIRE_ARTILLERY] = {"fire_artillery",
                                   "Fire Artillery",
                                   "accuracy, deviation and blast (3 in) of a field gun",
                                   "VI, IX",
                                   OPFOR_VK_R_ARTILLERY,
                                   0,
                                   2,
                                   {F(RANGE, RANGE, OPFOR_VK_MEDIUM), ALTITUDE}},
    [OPFOR_VK_A_CALL_SUPPORT_FIRE] = {"call_support_fire",
                                      "Call for Supporting Fire",
                                      "2D6 call for off-board fire; accuracy at the longest "
                                      "bracket; 3 or 6 in blast",
                                      "VI, IX",
                                      -1,
                                      0,
                                      2,
                                      {F(REGISTERED, INT, 0), F(GUNS, ENUM, 0)}},
    [OPFOR_VK_A_THROW_BOMB] = {"throw_bomb",
                               "Throw Bomb",
                               "accuracy, deviation and blast (2 in) of a thrown bomb (6 in max)",
                               "VI, IX",
                               OPFOR_VK_R_BOMB,
                               0,
                               2,
                               {ACTOR_Q, RANGE}},
    [OPFOR_VK_A_TEST_VS_BLAST] = {"test_vs_blast",
                                  "Test versus Blast",
                                  "a figure or transport in a blast tests; the effect if it fails",
                                  "VI, IX",
                                  -1,
                                  1,
                                  5,
                                  {ACTOR_C, COVER, B(ACTOR_MOUNTED), B(ACTOR_WOUNDED),
                                   F(BLAST, ENUM, OPFOR_VK_BLAST_SHELL)}},
    [OPFOR_VK_A_ATTACK_SWORD] = {"attack_sword", "Attack with Sword",
                                 "to hit, save and effect of a sword (or similar) in melee",
                                 "VI, X", -1, 0, MELEE_FIELDS(0)},
    [OPFOR_VK_A_ATTACK_LANCE] = {"attack_lance", "Attack with Lance",
                                 "to hit, save and effect of a lance from horseback", "VI, X", -1,
                                 0, MELEE_FIELDS(1)},
    [OPFOR_VK_A_ATTACK_BAYONET] = {"attack_bayonet", "Attack with Bayonet",
                                   "to hit, save and effect of a bayonet or spear in melee",
                                   "VI, X", -1, 0, MELEE_FIELDS(0)},
    [OPFOR_VK_A_ATTACK_DAGGER] = {"attack_dagger", "Attack with Dagger/Club",
                                  "to hit, save and effect of a dagger, club or improvised weapon",
                                  "VI, X", -1, 0, MELEE_FIELDS(0)},
    [OPFOR_VK_A_HYPNOTIC_ATTACK] = {"hypnotic_attack",
                                    "Hypnotic/Mesmeric Attack",
                                    "chance to mesmerise a figure within 9 in",
                                    "VI, XII.B",
                                    OPFOR_VK_R_MESMERISM,
                                    0,
                                    3,
                                    {ACTOR_Q, TARGET_Q, RANGE}},
    [OPFOR_VK_A_TEST_VS_MESMERISM] = {"test_vs_mesmerism",
                                      "Test versus Mesmerism",
                                      "chance a mesmerised figure breaks the spell",
                                      "VI, XII.B",
                                      -1,
                                      1,
                                      1,
                                      {ACTOR_Q}},
    [OPFOR_VK_A_HEAL] = {"heal",
                         "Heal/Bind Wounds",
                         "chance a medic binds a figure's wounds",
                         "VI",
                         -1,
                         0,
                         1,
                         {ACTOR_Q}},
    [OPFOR_VK_A_CHECK_MORALE] = {"check_morale", "Check Morale",
                                 "2D6 morale check of a unit (fail: Wavering)", "VI, XI", -1, 1,
                                 MORALE_FIELDS},
    [OPFOR_VK_A_RALLY] = {"rally", "Rally",
                          "2D6 rally of a Wavering unit (fail: removed from play)", "VI, XI", -1, 1,
                          MORALE_FIELDS},
    [OPFOR_VK_A_TEST_OUT_OF_COMMAND] = {"test_out_of_command",
                                        "Test for Out-of-Command",
                                        "a unit beyond the command radius tests before acting",
                                        "VI, VII, XIII",
                                        -1,
                                        1,
                                        3,
                                        {ACTOR_Q, F(RANGE, INCHES, 24), F(WEATHER, INT, 1)}},
    [OPFOR_VK_A_ADVANCE] = {"advance", "Advance", "X plus 1d3 inches, walking or at a trot",
                            "VI, VIII", -1, 0, MOVE_FIELDS(ACTOR_C)},
    [OPFOR_VK_A_RUN_GALLOP] = {"run_gallop", "Run/Gallop",
                               "X plus 1d3 inches at the run or gallop (no fire)", "VI, VIII", -1,
                               0, MOVE_FIELDS(ACTOR_C)},
    [OPFOR_VK_A_CHARGE] = {"charge",
                           "Charge",
                           "X plus 1d3 inches into contact",
                           "VI, VIII, X",
                           -1,
                           0,
                           5,
                           {ACTOR_Q, B(ACTOR_MOUNTED), B(ACTOR_WOUNDED), F(TERRAIN, ENUM, 0),
                            F(OBSTACLES, INT, 0)}},
    [OPFOR_VK_A_CRAWL] = {"crawl",
                          "Crawl/Take Cover",
                          "X plus 1d3 inches prone (riders dismount)",
                          "VI, VIII",
                          -1,
                          0,
                          4,
                          {ACTOR_Q, B(ACTOR_WOUNDED), F(TERRAIN, ENUM, 0), F(OBSTACLES, INT, 0)}},
    [OPFOR_VK_A_WEATHER_EVENT] = {"weather_event",
                                  "Weather Event",
                                  "start-of-turn change of wind and weather",
                                  "V.A, XIII",
                                  -1,
                                  0,
                                  2,
                                  {F(LEVEL, INT, OPFOR_VK_UNSET), F(WIND, ENUM, OPFOR_VK_UNSET)}},
};

const opfor_viktoria_action_t *opfor_viktoria_action_get(int id) {
    return id >= 0 && id < OPFOR_VK_A_COUNT ? &ACTIONS[id] : NULL;
}

int opfor_viktoria_action_find(const char *name) {
    if (!name)
        return OPFOR_ENOENT;
    for (int i = 0; i < OPFOR_VK_A_COUNT; i++)
        if (opfor_vocab_name_eq(ACTIONS[i].name, name))
            return i;
    return OPFOR_ENOENT;
}

/* Appends s to buf (snprintf rules), keeping *len in bounds. */
static void append(char *buf, size_t size, size_t *len, const char *fmt, const char *s) {
    if (*len >= size)
        return;
    int w = snprintf(buf + *len, size - *len, fmt, s);
    if (w < 0)
        return;
    *len += (size_t)w < size - *len ? (size_t)w : size - *len - 1;
}

const char *opfor_viktoria_action_list(char *buf, size_t size) {
    size_t len = 0;
    if (!buf || size == 0)
        return buf;
    buf[0] = 0;
    for (int i = 0; i < OPFOR_VK_A_COUNT; i++)
        append(buf, size, &len, i ? ", %s" : "%s", ACTIONS[i].name);
    return buf;
}

const opfor_viktoria_field_t *opfor_viktoria_field_get(int id) {
    return id >= 0 && id < OPFOR_VK_F_COUNT ? &FIELDS[id] : NULL;
}

int opfor_viktoria_field_find(const char *name) {
    if (!name)
        return OPFOR_ENOENT;
    if (opfor_vocab_name_eq(name, "colors"))
        return OPFOR_VK_F_COLOURS;
    for (int i = 0; i < OPFOR_VK_F_COUNT; i++)
        if (opfor_vocab_name_eq(FIELDS[i].name, name))
            return i;
    return OPFOR_ENOENT;
}

const opfor_viktoria_action_field_t *opfor_viktoria_action_field(int action, int field) {
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(action);
    if (!a)
        return NULL;
    for (int i = 0; i < a->nfields; i++)
        if ((int)a->fields[i].id == field)
            return &a->fields[i];
    return NULL;
}

/* The field names of an action as "--actor, --target, ..." */
static const char *action_fields_text(int action, char *buf, size_t size) {
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(action);
    size_t len = 0;
    buf[0] = 0;
    if (!a)
        return buf;
    if (a->nfields == 0)
        append(buf, size, &len, "%s", "(none)");
    for (int i = 0; i < a->nfields; i++)
        append(buf, size, &len, i ? ", --%s" : "--%s", FIELDS[a->fields[i].id].name);
    return buf;
}

const char *opfor_viktoria_field_allowed(const opfor_viktoria_model_t *m, int action, int field,
                                         char *buf, size_t size) {
    const opfor_viktoria_action_field_t *af = opfor_viktoria_action_field(action, field);
    const opfor_viktoria_field_t *f = opfor_viktoria_field_get(field);
    size_t len = 0;
    if (!buf || size == 0)
        return buf;
    buf[0] = 0;
    if (!af || !f)
        return buf;
    char tmp[256];
    switch (af->kind) {
    case OPFOR_VK_FK_QUALITY:
        append(buf, size, &len, "%s (officer and character count as elite)",
               opfor_vocab_list(opfor_quality_names, tmp, sizeof tmp));
        break;
    case OPFOR_VK_FK_CLASS:
        append(buf, size, &len, "%s (officer and character count as elite)",
               opfor_vocab_list(opfor_viktoria_class_names, tmp, sizeof tmp));
        break;
    case OPFOR_VK_FK_ENUM:
        append(buf, size, &len, "%s", opfor_vocab_list(f->values, tmp, sizeof tmp));
        break;
    case OPFOR_VK_FK_BOOL:
        append(buf, size, &len, "%s", "yes, no (a bare flag means yes)");
        break;
    case OPFOR_VK_FK_INT:
        snprintf(tmp, sizeof tmp, "%d..%d", f->min, f->max);
        append(buf, size, &len, "%s", tmp);
        if (f->values) {
            char names[160];
            append(buf, size, &len, " or %s", opfor_vocab_list(f->values, names, sizeof names));
        }
        break;
    case OPFOR_VK_FK_INCHES:
        append(buf, size, &len, "%s", "inches (a number, 0 or more)");
        break;
    case OPFOR_VK_FK_RANGE: {
        const opfor_viktoria_action_t *a = opfor_viktoria_action_get(action);
        int r = a->ranged;
        if (!m) {
            append(buf, size, &len, "%s", "inches, or point_blank, short, medium, long");
            break;
        }
        double maxr = m->range_edge[r][OPFOR_VK_BRACKET_COUNT - 1];
        if (isinf(maxr))
            append(buf, size, &len, "%s", "inches (0 or more)");
        else {
            snprintf(tmp, sizeof tmp, "inches 0-%g", maxr);
            append(buf, size, &len, "%s", tmp);
        }
        append(buf, size, &len, "%s", ", or");
        for (int b = 0; b < OPFOR_VK_BRACKET_COUNT; b++) {
            double e = m->range_edge[r][b];
            if (isinf(e))
                snprintf(tmp, sizeof tmp, "%s %s (beyond %g in)", b ? "," : "",
                         opfor_vocab_name(opfor_viktoria_bracket_names, b),
                         m->range_edge[r][b - 1]);
            else
                snprintf(tmp, sizeof tmp, "%s %s (to %g in)", b ? "," : "",
                         opfor_vocab_name(opfor_viktoria_bracket_names, b), e);
            append(buf, size, &len, "%s", tmp);
        }
        break;
    }
    }
    return buf;
}

/* ------------------------------------------------------------------ requests */

int opfor_viktoria_req_init(opfor_viktoria_req_t *req, int action) {
    if (!req)
        return OPFOR_EINVAL;
    memset(req, 0, sizeof *req);
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(action);
    if (!a)
        return OPFOR_EINVAL;
    req->action = action;
    for (int i = 0; i < OPFOR_VK_F_COUNT; i++)
        req->v[i] = OPFOR_VK_UNSET;
    for (int i = 0; i < a->nfields; i++) {
        const opfor_viktoria_action_field_t *af = &a->fields[i];
        if (af->kind == OPFOR_VK_FK_INCHES) {
            req->v[af->id] = OPFOR_VK_INCHES;
            req->inches = af->def;
        } else {
            req->v[af->id] = af->def;
        }
    }
    return 0;
}

/* Parses "20", "20in", "20 in", "20\"", "20 inches"; 0 on success. */
static int parse_inches(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !isfinite(v))
        return -1;
    while (*end == ' ')
        end++;
    if (*end && strcmp(end, "in") != 0 && strcmp(end, "\"") != 0 && strcmp(end, "inch") != 0 &&
        strcmp(end, "inches") != 0)
        return -1;
    *out = v;
    return 0;
}

static int bad_value(opfor_diag_t *diag, int action, int field, const char *value, int err) {
    char allowed[400];
    opfor_viktoria_field_allowed(NULL, action, field, allowed, sizeof allowed);
    return opfor_diag_set(diag, err, 0, 0, "bad value '%s' for --%s (%s); allowed: %s", value,
                          FIELDS[field].name, ACTIONS[action].name, allowed);
}

int opfor_viktoria_req_set(opfor_viktoria_req_t *req, const char *field, const char *value,
                           opfor_diag_t *diag) {
    if (!req || !field)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no request or field");
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(req->action);
    if (!a)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "request has no valid action");
    int id = opfor_viktoria_field_find(field);
    char names[400];
    if (id < 0)
        return opfor_diag_set(diag, OPFOR_ENOENT, 0, 0, "unknown field --%s; %s takes: %s", field,
                              a->name, action_fields_text(req->action, names, sizeof names));
    const opfor_viktoria_action_field_t *af = opfor_viktoria_action_field(req->action, id);
    if (!af)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "%s has no field --%s; it takes: %s",
                              a->name, FIELDS[id].name,
                              action_fields_text(req->action, names, sizeof names));
    const opfor_viktoria_field_t *f = &FIELDS[id];
    int v = 0;
    double inches = req->inches;
    const char *shown = value ? value : "";
    switch (af->kind) {
    case OPFOR_VK_FK_QUALITY:
        if (!value || opfor_vocab_lookup(opfor_quality_names, value, &v) != 0)
            return bad_value(diag, req->action, id, shown, OPFOR_EINVAL);
        break;
    case OPFOR_VK_FK_CLASS:
    case OPFOR_VK_FK_ENUM:
        if (!value || opfor_vocab_lookup(f->values, value, &v) != 0)
            return bad_value(diag, req->action, id, shown, OPFOR_EINVAL);
        break;
    case OPFOR_VK_FK_BOOL:
        if (!value || !*value)
            v = 1;
        else if (opfor_vocab_lookup(opfor_viktoria_bool_names, value, &v) != 0)
            return bad_value(diag, req->action, id, shown, OPFOR_EINVAL);
        break;
    case OPFOR_VK_FK_INT: {
        char *end;
        long n;
        errno = 0;
        n = value ? strtol(value, &end, 10) : 0;
        if (!value || !*value || *end || errno) {
            if (!value || !f->values || opfor_vocab_lookup(f->values, value, &v) != 0)
                return bad_value(diag, req->action, id, shown, OPFOR_EINVAL);
        } else if (n < f->min || n > f->max) {
            return bad_value(diag, req->action, id, shown, OPFOR_ERANGE);
        } else {
            v = (int)n;
        }
        break;
    }
    case OPFOR_VK_FK_RANGE:
        if (value && opfor_vocab_lookup(opfor_viktoria_bracket_names, value, &v) == 0)
            break;
        /* not a bracket name: a number of inches, as below */
        /* fall through */
    case OPFOR_VK_FK_INCHES:
        if (!value || parse_inches(value, &inches) != 0)
            return bad_value(diag, req->action, id, shown, OPFOR_EINVAL);
        if (inches < 0 || inches > 10000) /* a distance, but not one on any table */
            return opfor_diag_set(
                diag, OPFOR_ERANGE, 0, 0,
                "bad value '%s' for --%s (%s): inches must be from 0 to 10000%s", shown, f->name,
                a->name,
                af->kind == OPFOR_VK_FK_RANGE ? ", or point_blank, short, medium, long" : "");
        v = OPFOR_VK_INCHES;
        break;
    }
    req->v[id] = v;
    if (v == OPFOR_VK_INCHES)
        req->inches = inches;
    req->set |= 1u << id;
    return 0;
}

const char *opfor_viktoria_req_value(const opfor_viktoria_req_t *req, int field, char *buf,
                                     size_t size) {
    if (!buf || size == 0)
        return buf;
    buf[0] = 0;
    const opfor_viktoria_action_field_t *af =
        req ? opfor_viktoria_action_field(req->action, field) : NULL;
    if (!af)
        return buf;
    int v = req->v[field];
    if (v == OPFOR_VK_UNSET) {
        snprintf(buf, size, "unset");
        return buf;
    }
    if (v == OPFOR_VK_INCHES) {
        snprintf(buf, size, "%g in", req->inches);
        return buf;
    }
    switch (af->kind) {
    case OPFOR_VK_FK_QUALITY:
        snprintf(buf, size, "%s", opfor_vocab_name(opfor_quality_names, v));
        break;
    case OPFOR_VK_FK_CLASS:
    case OPFOR_VK_FK_ENUM:
        snprintf(buf, size, "%s", opfor_vocab_name(FIELDS[field].values, v));
        break;
    case OPFOR_VK_FK_RANGE:
        snprintf(buf, size, "%s", opfor_vocab_name(opfor_viktoria_bracket_names, v));
        break;
    case OPFOR_VK_FK_BOOL:
        snprintf(buf, size, "%s", v ? "yes" : "no");
        break;
    case OPFOR_VK_FK_INT:
    case OPFOR_VK_FK_INCHES:
        snprintf(buf, size, "%d", v);
        break;
    }
    return buf;
}

/* ------------------------------------------------------------------ calc */

/* Checks every value of the request against its field (clients may fill the struct by
 * hand); 0 or OPFOR_EINVAL with diag. */
static int check_req(const opfor_viktoria_req_t *req, opfor_diag_t *diag) {
    const opfor_viktoria_action_t *a = &ACTIONS[req->action];
    for (int i = 0; i < a->nfields; i++) {
        const opfor_viktoria_action_field_t *af = &a->fields[i];
        const opfor_viktoria_field_t *f = &FIELDS[af->id];
        int v = req->v[af->id], ok = 0;
        switch (af->kind) {
        case OPFOR_VK_FK_QUALITY:
            ok = v >= 0 && v < OPFOR_Q_COUNT;
            break;
        case OPFOR_VK_FK_CLASS:
            ok = v >= 0 && v < OPFOR_VK_CLASS_COUNT;
            break;
        case OPFOR_VK_FK_ENUM:
            ok = (v == OPFOR_VK_UNSET && af->def == OPFOR_VK_UNSET) ||
                 (v >= 0 && strcmp(opfor_vocab_name(f->values, v), "?") != 0);
            break;
        case OPFOR_VK_FK_BOOL:
            ok = v == 0 || v == 1;
            break;
        case OPFOR_VK_FK_INT:
            ok = (v == OPFOR_VK_UNSET && af->def == OPFOR_VK_UNSET) || (v >= f->min && v <= f->max);
            break;
        case OPFOR_VK_FK_RANGE:
            ok = (v >= 0 && v < OPFOR_VK_BRACKET_COUNT) ||
                 (v == OPFOR_VK_INCHES && req->inches >= 0 && isfinite(req->inches));
            break;
        case OPFOR_VK_FK_INCHES:
            ok = v == OPFOR_VK_INCHES && req->inches >= 0 && isfinite(req->inches);
            break;
        }
        if (!ok)
            return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "%s: --%s has an invalid value (%d)",
                                  a->name, f->name, v);
    }
    return 0;
}

int opfor_viktoria_calc(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                        opfor_viktoria_result_t *res, opfor_diag_t *diag) {
    if (!res)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no result to fill");
    res->nrolls = res->ntables = res->ndists = res->noutcomes = res->nfacts = res->nnotes = 0;
    res->action = -1;
    if (!m || !req)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no model or request");
    if (!opfor_viktoria_action_get(req->action))
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "unknown action id %d", req->action);
    int rc = check_req(req, diag);
    if (rc)
        return rc;
    res->action = req->action;
    rc = opfor__viktoria_action_fn(req->action)(m, req, res, diag);
    if (rc) {
        res->nrolls = res->ntables = res->ndists = res->noutcomes = res->nfacts = res->nnotes = 0;
    }
    return rc;
}

/* ------------------------------------------------------------------ result lookups */

const opfor_viktoria_named_roll_t *opfor_viktoria_result_roll(const opfor_viktoria_result_t *res,
                                                              const char *name) {
    for (int i = 0; res && name && i < res->nrolls; i++)
        if (strcmp(res->rolls[i].name, name) == 0)
            return &res->rolls[i];
    return NULL;
}

const opfor_viktoria_table_t *opfor_viktoria_result_table(const opfor_viktoria_result_t *res,
                                                          const char *name) {
    for (int i = 0; res && name && i < res->ntables; i++)
        if (strcmp(res->tables[i].name, name) == 0)
            return &res->tables[i];
    return NULL;
}

const opfor_viktoria_outcome_t *opfor_viktoria_result_outcome(const opfor_viktoria_result_t *res,
                                                              const char *name) {
    for (int i = 0; res && name && i < res->noutcomes; i++)
        if (strcmp(res->outcomes[i].name, name) == 0)
            return &res->outcomes[i];
    return NULL;
}

const opfor_viktoria_distance_t *opfor_viktoria_result_distance(const opfor_viktoria_result_t *res,
                                                                const char *name) {
    for (int i = 0; res && name && i < res->ndists; i++)
        if (strcmp(res->dists[i].name, name) == 0)
            return &res->dists[i];
    return NULL;
}
