/* opfor/viktoria/calc.h — the Viktoria! calculator: what the game app is (seed 000, V.B).
 *
 * The app looks up the score needed for every roll of section VI's actions from a handful of
 * fields. Here one const table lists the actions, each with its fields, kinds and allowed
 * values, so the CLI (`opfor calc viktoria`), the daemon's `calc` method and the rules engine
 * all enumerate the same thing. A request is an action id plus field values (defaults for
 * the ones not set, parsed from strings by opfor_viktoria_req_set); the answer is a fixed-size
 * result of named rolls (exact chance, the dice roll that renders it and the difference),
 * effect and event tables, distances, outcome chances, facts and notes. Everything is pure,
 * allocation-free and fast: strings in a result point at constant text.
 */
#ifndef OPFOR_VIKTORIA_CALC_H
#define OPFOR_VIKTORIA_CALC_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/chance.h"
#include "opfor/dice.h"
#include "opfor/error.h"
#include "opfor/vocab.h"
#include "opfor/viktoria/model.h"

/* ------------------------------------------------------------------ fields */

/* Every field an action can take. CLI names use '-', e.g. "actor-mounted"; '_' also works. */
typedef enum opfor_viktoria_field_id {
    OPFOR_VK_F_ACTOR = 0,      /* quality (or transport) of who acts or tests */
    OPFOR_VK_F_TARGET,         /* quality (or transport) of who is acted on */
    OPFOR_VK_F_COVER,          /* the target's cover; the tester's for tests */
    OPFOR_VK_F_RANGE,          /* inches, or a bracket name */
    OPFOR_VK_F_ACTOR_MOUNTED,  /* actor on horseback (or transport drawn at speed) */
    OPFOR_VK_F_TARGET_MOUNTED, /* target on horseback */
    OPFOR_VK_F_SHARPSHOOTER,   /* firer is a sharpshooter */
    OPFOR_VK_F_CHARGING,       /* attacker is charging (or counter-charging) */
    OPFOR_VK_F_ACTOR_WOUNDED,
    OPFOR_VK_F_TARGET_WOUNDED,
    OPFOR_VK_F_MOVING,         /* firer moving (moving fire); for MG tests, the MG's platform */
    OPFOR_VK_F_TARGET_RUNNING, /* target running or galloping */
    OPFOR_VK_F_TARGET_PRONE,   /* target prone or crawling */
    OPFOR_VK_F_GENERAL,        /* general within 6 in of the unit */
    OPFOR_VK_F_MUSICIAN,       /* musician playing within 3 in */
    OPFOR_VK_F_COLOURS,        /* colours within 3 in */
    OPFOR_VK_F_HALF_STRENGTH,  /* half or more of the unit gone */
    OPFOR_VK_F_REGISTERED,     /* earlier turns of support fire called on the same point */
    OPFOR_VK_F_GUNS,           /* off-board guns: field or heavy */
    OPFOR_VK_F_BLAST,          /* what exploded: bomb, shell, heavy */
    OPFOR_VK_F_TERRAIN,        /* open, rough, road */
    OPFOR_VK_F_OBSTACLES,      /* linear obstacles crossed */
    OPFOR_VK_F_LIMBERED,       /* a limbered gun */
    OPFOR_VK_F_WEATHER,        /* wind/weather level 1..5 (command radius) */
    OPFOR_VK_F_LEVEL,          /* weather event: current level 1..5, or unset */
    OPFOR_VK_F_WIND,           /* weather event: current wind direction, or unset */
    OPFOR_VK_F_ALTITUDE,       /* altitude levels between firer and target, each one more range
                                  bracket (XII.D: fire at or from a flying craft) */
    OPFOR_VK_F_COUNT
} opfor_viktoria_field_id_t;

typedef enum opfor_viktoria_field_kind {
    OPFOR_VK_FK_QUALITY = 0, /* civilian, conscript, soldier, veteran, elite (officer, character) */
    OPFOR_VK_FK_CLASS,       /* a quality, or transport */
    OPFOR_VK_FK_ENUM,        /* one name of the field's table */
    OPFOR_VK_FK_BOOL,        /* yes/no; on the command line a bare flag means yes */
    OPFOR_VK_FK_INT,         /* whole number in [min, max] */
    OPFOR_VK_FK_RANGE,       /* inches (up to the weapon's maximum) or a bracket name */
    OPFOR_VK_FK_INCHES,      /* inches only */
} opfor_viktoria_field_kind_t;

/* A field as the app shows it. */
typedef struct opfor_viktoria_field {
    const char *name;                 /* CLI/protocol name, "actor-mounted" */
    const char *label;                /* the app's wording, "Actor Mounted" */
    opfor_viktoria_field_kind_t kind; /* its widest kind (actions may narrow it) */
    const opfor_name_t *values;       /* names for QUALITY/CLASS/ENUM, else NULL */
    int min, max;                     /* INT bounds */
    int ordered;                      /* 1 when values are ordered (qualities, cover, ranges) */
} opfor_viktoria_field_t;

/* ------------------------------------------------------------------ actions */

typedef enum opfor_viktoria_action_id {
    OPFOR_VK_A_FIRE_PISTOL = 0,
    OPFOR_VK_A_FIRE_CARBINE,
    OPFOR_VK_A_FIRE_RIFLE,
    OPFOR_VK_A_TEST_VS_MG,
    OPFOR_VK_A_FIRE_ARTILLERY,
    OPFOR_VK_A_CALL_SUPPORT_FIRE,
    OPFOR_VK_A_THROW_BOMB,
    OPFOR_VK_A_TEST_VS_BLAST,
    OPFOR_VK_A_ATTACK_SWORD,
    OPFOR_VK_A_ATTACK_LANCE,
    OPFOR_VK_A_ATTACK_BAYONET,
    OPFOR_VK_A_ATTACK_DAGGER,
    OPFOR_VK_A_HYPNOTIC_ATTACK,
    OPFOR_VK_A_TEST_VS_MESMERISM,
    OPFOR_VK_A_HEAL,
    OPFOR_VK_A_CHECK_MORALE,
    OPFOR_VK_A_RALLY,
    OPFOR_VK_A_TEST_OUT_OF_COMMAND,
    OPFOR_VK_A_ADVANCE,
    OPFOR_VK_A_RUN_GALLOP,
    OPFOR_VK_A_CHARGE,
    OPFOR_VK_A_CRAWL,
    OPFOR_VK_A_WEATHER_EVENT,
    OPFOR_VK_A_COUNT
} opfor_viktoria_action_id_t;

#define OPFOR_VK_MAX_ACTION_FIELDS 13

/* One field of one action. */
typedef struct opfor_viktoria_action_field {
    opfor_viktoria_field_id_t id;     /* which field */
    opfor_viktoria_field_kind_t kind; /* its kind for this action (actor may admit transport) */
    int def;                          /* default: value index, 0/1, count, bracket or inches */
} opfor_viktoria_action_field_t;

typedef struct opfor_viktoria_action {
    const char *name;    /* "fire_rifle" (CLI also accepts "fire-rifle") */
    const char *title;   /* "Fire Rifle" */
    const char *summary; /* one line for --list */
    const char *rules;   /* sections of the rules it implements, "VI, IX" */
    int ranged;          /* opfor_viktoria_ranged_t measured by its Range field, or -1 */
    int is_test;         /* 1 when the Actor is the figure at risk (tests v MG, blast) */
    int nfields;
    opfor_viktoria_action_field_t fields[OPFOR_VK_MAX_ACTION_FIELDS];
} opfor_viktoria_action_t;

/* The action table: id in [0, OPFOR_VK_A_COUNT). NULL for other ids. */
const opfor_viktoria_action_t *opfor_viktoria_action_get(int id);
/* Finds an action by name (case-insensitive, '-' as '_'): its id, or OPFOR_ENOENT. */
int opfor_viktoria_action_find(const char *name);
/* Writes the action names, comma-separated, into buf for error messages; returns buf. */
const char *opfor_viktoria_action_list(char *buf, size_t size);

/* The field table: id in [0, OPFOR_VK_F_COUNT); NULL otherwise. */
const opfor_viktoria_field_t *opfor_viktoria_field_get(int id);
/* Finds a field by name ("actor-mounted", "actor_mounted"): its id, or OPFOR_ENOENT. */
int opfor_viktoria_field_find(const char *name);
/* The action's entry for a field, or NULL when the action does not use it. */
const opfor_viktoria_action_field_t *opfor_viktoria_action_field(int action, int field);
/* Describes the values a field takes for an action ("civilian, conscript, ..." or
 * "inches 0-9, or point_blank (to 2 in), short (to 4 in), ..."); m may be NULL (brackets
 * are then given without edges). Returns buf. */
const char *opfor_viktoria_field_allowed(const opfor_viktoria_model_t *m, int action, int field,
                                         char *buf, size_t size);

/* ------------------------------------------------------------------ requests */

/* Special values in opfor_viktoria_req_t.v. */
#define OPFOR_VK_UNSET (-1)  /* LEVEL/WIND not given */
#define OPFOR_VK_INCHES (-2) /* RANGE given in inches: see req.inches */

typedef struct opfor_viktoria_req {
    int action;              /* opfor_viktoria_action_id_t */
    uint32_t set;            /* bit (1u << field id) for each field given explicitly */
    int v[OPFOR_VK_F_COUNT]; /* value per field: table value, 0/1, count, bracket, or
                                OPFOR_VK_UNSET / OPFOR_VK_INCHES */
    double inches;           /* RANGE in inches when v[RANGE] == OPFOR_VK_INCHES */
} opfor_viktoria_req_t;

/* Starts a request for action with every field at its default. Returns 0, or OPFOR_EINVAL
 * for an unknown action (req is then zeroed). */
int opfor_viktoria_req_init(opfor_viktoria_req_t *req, int action);
/* Sets one field from text, as typed on the command line or sent by a client. Booleans take
 * yes/no/true/false/on/off/1/0 (NULL or "" means yes); ranges take a number of inches
 * (optionally followed by "in" or '"') or a bracket name. Errors, with diag naming the field
 * and listing what is allowed: OPFOR_ENOENT unknown field, OPFOR_EINVAL a field this action
 * does not use or a bad value, OPFOR_ERANGE a number out of bounds. req is unchanged on
 * error. */
int opfor_viktoria_req_set(opfor_viktoria_req_t *req, const char *field, const char *value,
                           opfor_diag_t *diag);
/* The request's value of a field as text ("veteran", "20 in", "yes", "unset"); returns buf. */
const char *opfor_viktoria_req_value(const opfor_viktoria_req_t *req, int field, char *buf,
                                     size_t size);

/* ------------------------------------------------------------------ results */

#define OPFOR_VK_MAX_ROLLS 8
#define OPFOR_VK_MAX_TABLES 3
#define OPFOR_VK_MAX_ENTRIES 8
#define OPFOR_VK_MAX_DISTS 3
#define OPFOR_VK_MAX_OUTCOMES 4
#define OPFOR_VK_MAX_FACTS 6
#define OPFOR_VK_MAX_NOTES 6

/* One roll the player makes: the exact chance and the dice that render it. */
typedef struct opfor_viktoria_named_roll {
    const char *name;    /* key: "hit", "critical", "save", "pass", ... */
    const char *label;   /* as shown: "To hit" */
    const char *dice;    /* "D6" or "2D6" */
    const char *success; /* what success means: "hit", "saved", "stays Solid" */
    int favours;         /* +1 success is good for the actor, -1 good for the target */
    opfor_roll_t roll;   /* kind, scores, p_exact, p_rendered, error */
} opfor_viktoria_named_roll_t;

/* One line of a lookup table rolled on dice (effects, deviation direction, weather). */
typedef struct opfor_viktoria_entry {
    int lo, hi;       /* faces (D6, D8) or totals (2D6) this line covers */
    const char *text; /* what happens: "wounded", "backs one point" */
    int value;        /* resulting weather level or compass point; OPFOR_VK_UNSET if none */
    double p;         /* chance of this line */
} opfor_viktoria_entry_t;

typedef struct opfor_viktoria_table {
    const char *name;  /* key: "effect", "direction", "level", "wind", "natural" */
    const char *label; /* as shown */
    const char *dice;  /* "D6", "2D6", "D8" */
    int n;             /* entries used */
    opfor_viktoria_entry_t e[OPFOR_VK_MAX_ENTRIES];
} opfor_viktoria_table_t;

/* A distance rolled in inches: max(0, dice) * num / den. */
typedef struct opfor_viktoria_distance {
    const char *name;  /* key: "move", "adjusted", "deviation" */
    const char *label; /* as shown */
    opfor_dice_t dice; /* e.g. 1d3+4, or 2d6 */
    int num, den;      /* terrain scale (1/2 rough on foot, 2/1 transport on roads) */
    double min, max;   /* inches after scaling */
    double mean;       /* expected inches after scaling */
} opfor_viktoria_distance_t;

/* The chance of an end result over all the rolls (killed per shot, ...). */
typedef struct opfor_viktoria_outcome {
    const char *name;  /* key: "killed", "wounded", "unharmed" */
    const char *label; /* as shown */
    int favours;       /* +1 good for the actor, -1 good for the target, 0 neither */
    double p_exact;    /* from the exact chances */
    double p_rendered; /* from the rolls as rendered */
} opfor_viktoria_outcome_t;

/* A number or word worth showing: range bracket, blast radius, command radius. */
typedef struct opfor_viktoria_fact {
    const char *name;  /* key */
    const char *label; /* as shown */
    double value;      /* the number (when text is NULL) */
    const char *unit;  /* "in", "" */
    const char *text;  /* a word instead of a number, or NULL */
} opfor_viktoria_fact_t;

typedef struct opfor_viktoria_result {
    int action; /* the request's action */
    int nrolls, ntables, ndists, noutcomes, nfacts, nnotes;
    opfor_viktoria_named_roll_t rolls[OPFOR_VK_MAX_ROLLS];
    opfor_viktoria_table_t tables[OPFOR_VK_MAX_TABLES];
    opfor_viktoria_distance_t dists[OPFOR_VK_MAX_DISTS];
    opfor_viktoria_outcome_t outcomes[OPFOR_VK_MAX_OUTCOMES];
    opfor_viktoria_fact_t facts[OPFOR_VK_MAX_FACTS];
    const char *notes[OPFOR_VK_MAX_NOTES]; /* rule reminders, constant text */
} opfor_viktoria_result_t;

/* Answers a request with model m into *res. Pure and allocation-free. Errors, with diag
 * saying why: OPFOR_EINVAL (bad request), OPFOR_ERANGE (range beyond the weapon's maximum:
 * "out of range: a pistol reaches 9 in at most"), OPFOR_EILLEGAL (a combination the rules
 * forbid, such as a lance attack on foot or a target both running and prone). On error
 * *res has no entries (all counts 0). */
int opfor_viktoria_calc(const opfor_viktoria_model_t *m, const opfor_viktoria_req_t *req,
                        opfor_viktoria_result_t *res, opfor_diag_t *diag);

/* Finds a roll, table, outcome or distance of a result by name; NULL when absent. */
const opfor_viktoria_named_roll_t *opfor_viktoria_result_roll(const opfor_viktoria_result_t *res,
                                                              const char *name);
const opfor_viktoria_table_t *opfor_viktoria_result_table(const opfor_viktoria_result_t *res,
                                                          const char *name);
const opfor_viktoria_outcome_t *opfor_viktoria_result_outcome(const opfor_viktoria_result_t *res,
                                                              const char *name);
const opfor_viktoria_distance_t *opfor_viktoria_result_distance(const opfor_viktoria_result_t *res,
                                                                const char *name);

/* The result's rolls, tables, distances and outcomes worded as the app shows them, one line
 * each (tables and outcomes wrapped at 96 columns), into buf (size bytes). Returns buf. */
const char *opfor_viktoria_result_text(const opfor_viktoria_result_t *res, char *buf, size_t size);
/* The score a roll needs as shown ("4+", "8+ on 2D6"; the critical as "6, then 6 kills").
 * Returns buf. */
const char *opfor_viktoria_roll_text(const opfor_viktoria_named_roll_t *r, char *buf, size_t size);

/* The calculator through the shared interface (opfor/ruleset_calc.h): one form per action,
 * in action id order (form i is action i, its fields in the action's field order). */
struct opfor_ruleset_calc;
extern const struct opfor_ruleset_calc opfor_viktoria_calc_iface;

/* Canonical names used by the fields. */
extern const opfor_name_t opfor_viktoria_terrain_names[]; /* open, rough, road */
extern const opfor_name_t opfor_viktoria_guns_names[];    /* field, heavy */
extern const opfor_name_t opfor_viktoria_bool_names[];    /* no, yes (and aliases) */
/* Weather levels 1..5 by name ("calm", ..., "gale"), and their descriptions. */
extern const opfor_name_t opfor_viktoria_level_names[];
/* "Calm", "Light Airs", ... for levels 1..5 (XIII); "?" otherwise. */
const char *opfor_viktoria_level_title(int level);
/* Command radius of a general and of a playing musician at a weather level (VII, XIII). */
int opfor_viktoria_command_radius(int level);
int opfor_viktoria_musician_radius(int level);

#endif
