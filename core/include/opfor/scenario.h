/* opfor/scenario.h — scenario files: the table, its terrain, the two sides, their units
 * and figures, generals, objectives, weather, the mode, and the blocks a ruleset reads itself.
 *
 * A scenario is YAML (docs/scenario-format.md), parsed with libfyaml and checked before
 * anything uses it: every problem is reported as file:line:column with what was expected.
 * The result is one fixed-size struct: the table (shared read-only by every simulated
 * game) plus the starting unit and figure arrays, which a game copies with memcpy. Only
 * the top-level blocks a ruleset declares (opfor_scenario_block_rule_t) are kept as parsed YAML
 * nodes, for the ruleset to read (opfor_scenario_block).
 * The loader knows the format, not the rules: a ruleset hands it an opfor_scenario_rules_t
 * (its name, its distances, its words for the modes, its blocks, and hooks that check what its
 * rules allow), so every check a ruleset adds reports at file:line:column like the loader's own.
 */
#ifndef OPFOR_SCENARIO_H
#define OPFOR_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "opfor/error.h"
#include "opfor/geom.h"
#include "opfor/terrain.h"
#include "opfor/unit.h"
#include "opfor/vocab.h"

#define OPFOR_MAX_OBJECTIVES 8
#define OPFOR_MAX_SIDES 2
/* Warnings kept (more are counted in nwarnings_total). */
#define OPFOR_SCENARIO_MAX_WARNINGS 8
/* Largest scenario file accepted, in bytes. */
#define OPFOR_SCENARIO_MAX_BYTES (1024 * 1024)

/* How the game is played. A ruleset names the modes in its own words (opfor_scenario_rules_t
 * modes) and checks what each needs (its check hook). */
typedef enum opfor_mode {
    OPFOR_MODE_COMPETITIVE = 0, /* two sides against each other, initiative diced for */
    OPFOR_MODE_COOP,            /* the players together on one side; opfor plays the other */
    OPFOR_MODE_COUNT
} opfor_mode_t;
/* "competitive", "coop": the words `mode:` takes when the ruleset gives none. */
extern const opfor_name_t opfor_mode_neutral_names[];

/* A top-level block of the scenario file that a ruleset reads itself (the settings of
 * its cooperative mode, say): the loader accepts the key, checks that its value is a mapping and
 * keeps it parsed, its keys unchecked, until opfor_scenario_free (opfor_scenario_block). */
typedef struct opfor_scenario_block_rule {
    const char *name;   /* the top-level key; NULL ends a list */
    int mode;           /* the opfor_mode_t it serves: in another mode it is kept, with the
                         * warning "a NAME block is ignored unless mode is WORD"; -1 for any */
    const char *reader; /* who reads it, as tools say it ("the ... module"); NULL: the ruleset */
} opfor_scenario_block_rule_t;
/* Blocks a ruleset may declare. */
#define OPFOR_SCENARIO_MAX_BLOCKS 4

/* Bytes in a scenario's ruleset name, NUL included. */
#define OPFOR_SCENARIO_RULESET_MAX 32

/* One side of the battle. */
typedef struct opfor_side {
    char name[32];      /* unique, NUL-terminated */
    uint8_t player;     /* 1 when people play it, 0 when opfor does */
    int8_t edge;        /* opfor_edge_t it holds or enters from, -1 for none */
    uint8_t nterritory; /* points in territory, 0 for none */
    uint8_t pad;
    opfor_pt_t territory[OPFOR_POLY_MAX_PTS]; /* area it controls at the start */
} opfor_side_t;

/* A scenario objective (scored by the ruleset). */
typedef struct opfor_objective {
    char name[32];  /* NUL-terminated */
    opfor_pt_t pos; /* centre on the table */
    float radius;   /* inches: a figure within it holds the objective */
    int points;     /* score for taking it */
} opfor_objective_t;

/* Wind and weather. */
typedef struct opfor_weather {
    int level;            /* 1 calm .. 5 gale; 0: `random`, rolled by the ruleset at the start */
    opfor_compass_t wind; /* direction the wind blows from */
    int wind_random;      /* 1: `wind: random`, rolled by the ruleset at the start (wind N) */
} opfor_weather_t;

/* Routes of machines: a train's track and an aeroplane's runway. They are drawn in the
 * `terrain:` list (kinds `track` and `runway`) but kept apart from the terrain features:
 * they change neither sight, cover nor movement for anyone else. */
#define OPFOR_MAX_ROUTES 8
typedef enum opfor_route_kind {
    OPFOR_ROUTE_TRACK = 0, /* a railway: a polyline a train unit is confined to */
    OPFOR_ROUTE_RUNWAY,    /* a runway or airfield strip: one straight segment */
    OPFOR_ROUTE_COUNT
} opfor_route_kind_t;

/* One track or runway. */
typedef struct opfor_route {
    char name[32];                      /* scenario name, NUL-terminated, may be "" */
    uint8_t kind;                       /* opfor_route_kind_t */
    uint8_t npts;                       /* points in pts: 2 for a runway, 2.. for a track */
    uint8_t pad[2];                     /* zero */
    float length;                       /* total length along the points, inches */
    opfor_pt_t pts[OPFOR_POLY_MAX_PTS]; /* the polyline, on the table */
} opfor_route_t;

/* Per-unit machine settings read from the scenario; all zero for ordinary
 * units. Kept beside the unit array so that opfor_unit_t stays 48 bytes. */
typedef struct opfor_unit_machine {
    uint8_t payload;     /* passengers (figures) a vehicle may carry, 0 none */
    uint8_t fire_out;    /* of those, how many may fire out with personal weapons */
    uint8_t embarked_in; /* 1 + index of the vehicle the unit starts aboard, 0 none */
    uint8_t track;       /* 1 + index into routes of the track a train runs on, 0 not a train */
    uint8_t grounded;    /* aeroplanes: 1 when it starts on the ground (airborne: false) */
    uint8_t speed;       /* vehicles: opfor_speed_class_t, 0 (unset) = by the model's mount */
    uint8_t drive;       /* vehicles: opfor_drive_t (wheeled unless the scenario says) */
    uint8_t armour;      /* machines: 1 + opfor_cover_t of `armour:`, 0 (unset) = by type */
    uint8_t tethered;    /* balloons: 1 when tethered in place (`tethered: true`) */
    uint8_t shell;       /* dirigibles: 1 + opfor_quality_t of a hardened shell, 0 none */
} opfor_unit_machine_t;

/* A vehicle's speed class: slow moves as transport advancing on foot, fast
 * as transport advancing mounted, very fast and extremely fast twice those. */
typedef enum opfor_speed_class {
    OPFOR_SPEED_UNSET = 0, /* by the vehicle model: mounted is fast, else slow */
    OPFOR_SPEED_SLOW,
    OPFOR_SPEED_FAST,
    OPFOR_SPEED_VERY_FAST,
    OPFOR_SPEED_EXTREMELY_FAST,
} opfor_speed_class_t;

/* How a vehicle meets rough ground: wheels pay twice what a figure on foot pays,
 * tracks (and walkers' legs) the same as on foot. */
typedef enum opfor_drive {
    OPFOR_DRIVE_WHEELED = 0,
    OPFOR_DRIVE_TRACKED,
} opfor_drive_t;
/* "slow", "fast", "very_fast", "extremely_fast"; "wheeled", "tracked". */
extern const opfor_name_t opfor_speed_names[];
extern const opfor_name_t opfor_drive_names[];

struct fy_document;
struct fy_node;
struct opfor_scenario_rules;

/* A loaded scenario. Large (about 29 KiB): keep it off small stacks. */
typedef struct opfor_scenario {
    char name[64];                            /* title */
    char description[256];                    /* first 255 bytes of the description, "" when none */
    char ruleset[OPFOR_SCENARIO_RULESET_MAX]; /* `ruleset:`, else the loading ruleset's name */
    opfor_mode_t mode;
    int turn_limit;          /* 0 for none */
    opfor_weather_t weather; /* default level 1, wind from the north */
    opfor_table_t table;     /* size, north and terrain */
    opfor_side_t sides[OPFOR_MAX_SIDES];
    int nunits;
    int nfigures;
    int nobjectives;
    opfor_unit_t units[OPFOR_MAX_UNITS];
    opfor_figure_t figures[OPFOR_MAX_FIGURES];
    opfor_objective_t objectives[OPFOR_MAX_OBJECTIVES];
    int nroutes;                                   /* tracks and runways in routes */
    opfor_route_t routes[OPFOR_MAX_ROUTES];        /* tracks (trains), runways (aeroplanes) */
    opfor_unit_machine_t machine[OPFOR_MAX_UNITS]; /* per unit, by index */
    /* The ruleset's part it was read with (its mode words and blocks; the loader's rules
     * argument, which must outlive sc); NULL when read with none, or built by hand. */
    const struct opfor_scenario_rules *rules;
    /* The mapping of rules->blocks[i], NULL when absent; its keys are kept unchecked for the
     * ruleset (opfor_scenario_block, docs/scenario-format.md). */
    struct fy_node *blocks[OPFOR_SCENARIO_MAX_BLOCKS];
    struct fy_document *doc; /* owns blocks; NULL when no block is present */
    char *text;              /* the YAML text doc points into; NULL with doc */
    int nwarnings;           /* warnings kept in warnings[] */
    int nwarnings_total;     /* all warnings, kept or not */
    opfor_diag_t warnings[OPFOR_SCENARIO_MAX_WARNINGS];
} opfor_scenario_t;

/* What a ruleset checks while its scenario loads: the loader's view of one scenario (the
 * struct being filled, and where in the YAML each unit and route was written), handed to the
 * hooks of opfor_scenario_rules_t. Valid only during the hook. */
typedef struct opfor_scenario_ck opfor_scenario_ck_t;

/* What a scenario's item is: its diagnostics point into the YAML of one unit or route. */
typedef enum opfor_scenario_item {
    OPFOR_SCENARIO_UNIT = 0, /* index into units (generals included) */
    OPFOR_SCENARIO_ROUTE,    /* index into routes */
    OPFOR_SCENARIO_ROOT,     /* the scenario's top-level mapping (index ignored) */
} opfor_scenario_item_t;

/* A ruleset's part in loading a scenario. Every field may be zero: a zeroed struct loads the
 * format alone (any ruleset name, zero distances, the neutral mode words, no blocks, no rule
 * checks). */
typedef struct opfor_scenario_rules {
    /* The ruleset's name: the scenario's `ruleset:` must be it (case-insensitive), else it
     * fails as an unknown ruleset; sc->ruleset gets it when the key is absent. NULL accepts
     * any name (sc->ruleset is then "" when absent). */
    const char *name;
    /* Copied into sc->table.rules before the terrain is read; its radii size the bases the
     * loader places (opfor_unit_place) and checks for overlap. */
    opfor_terrain_rules_t terrain;
    /* Optional: called as the loader meets each of these, so that the ruleset's errors and
     * warnings come in the order the loader's own would (the first error is the one kept):
     *  (UNIT, u, "limbered"), (UNIT, u, "payload"), (UNIT, u, "airborne"): when unit u has
     *    the key, once its yes/no or number is in sc (OPFOR_UNIT_LIMBERED, machine[u]);
     *  (UNIT, u, "track"), (UNIT, u, "speed"), (UNIT, u, "drive"): when u has the key,
     *    before the loader resolves the name it gives;
     *  (UNIT, u, NULL): once u's own keys are read, before its figures are;
     *  (UNIT, u, "figures"): once u's figures are read and placed (not for generals);
     *  (UNIT, u, "embarked_in"): once u's carrier is found, before its room is counted;
     *  (ROUTE, r, "line"): once track or runway r is stored.
     * u indexes sc->units (while a unit is read, u == sc->nunits or, from "figures" on,
     * sc->nunits - 1). Returns 0, or the error of opfor_scenario_ck_fail. */
    int (*item)(opfor_scenario_ck_t *ck, opfor_scenario_item_t kind, int i, const char *key,
                void *user);
    /* Optional: called once the whole scenario is read and has passed the loader's own
     * checks; may complete sc and warn. What a mode needs (sides, units) is checked here,
     * failing at (ROOT, 0, NULL) for the whole scenario. Returns 0, or the error of
     * opfor_scenario_ck_fail. */
    int (*check)(opfor_scenario_ck_t *ck, void *user);
    void *user; /* passed to the hooks */
    /* Optional: the words `mode:` takes, {NULL, 0}-terminated, each for an opfor_mode_t
     * (aliases allowed; the first word for a mode is its name, in messages and
     * opfor_scenario_mode_name). NULL: opfor_mode_neutral_names. */
    const opfor_name_t *modes;
    /* Optional: the top-level blocks the ruleset reads itself, ended by a NULL name; at most
     * OPFOR_SCENARIO_MAX_BLOCKS, none named as a key of the format (else loading fails with
     * OPFOR_EINVAL). NULL: none. */
    const opfor_scenario_block_rule_t *blocks;
} opfor_scenario_rules_t;

/* The scenario being loaded (writable: a check may complete it). */
opfor_scenario_t *opfor_scenario_ck_scenario(opfor_scenario_ck_t *ck);
/* The loader's strict YAML reader, for a check that reads one of the ruleset's blocks
 * (opfor_scenario_block) with the typed readers of opfor/yamlread.h: its first error fails
 * the load at that node's file:line:column. */
struct opfor_yaml_rd *opfor_scenario_ck_reader(opfor_scenario_ck_t *ck);
/* Whether item (kind, i) was written with key (for a route: its terrain entry's key). */
int opfor_scenario_ck_has(opfor_scenario_ck_t *ck, opfor_scenario_item_t kind, int i,
                          const char *key);
/* Fails the load with code (a negative OPFOR_E*) and the message, at the value of key in item
 * (kind, i), or at the item itself when key is NULL or absent (for ROOT: the top-level key's
 * value, or the scenario's first line). Returns code (only the first
 * failure is kept). */
__attribute__((format(printf, 6, 7))) int opfor_scenario_ck_fail(opfor_scenario_ck_t *ck, int code,
                                                                 opfor_scenario_item_t kind, int i,
                                                                 const char *key, const char *fmt,
                                                                 ...);
/* Adds a warning to sc->warnings, placed as opfor_scenario_ck_fail places its error. */
__attribute__((format(printf, 5, 6))) void opfor_scenario_ck_warn(opfor_scenario_ck_t *ck,
                                                                  opfor_scenario_item_t kind, int i,
                                                                  const char *key, const char *fmt,
                                                                  ...);

/* Parses and checks a scenario from text[0..len) (need not be NUL-terminated; may hold
 * any bytes) for the ruleset described by rules (NULL: as a zeroed opfor_scenario_rules_t).
 * name labels diagnostics (a file name, or "builtin:NAME"); NULL
 * gives "". On success returns 0 and fills *sc (release with opfor_scenario_free). On
 * failure returns a negative OPFOR_E* code (EPARSE for YAML or schema errors, ERANGE for
 * values out of range or off the table, EFULL for exceeded maxima, EINVAL for bad
 * arguments; or a hook's error), fills *diag (when not NULL) with file:line:column and the
 * message, and leaves *sc needing no free. */
int opfor_scenario_load_string(const char *text, size_t len, const char *name,
                               const opfor_scenario_rules_t *rules, opfor_scenario_t *sc,
                               opfor_diag_t *diag);

/* Reads the file at path (at most OPFOR_SCENARIO_MAX_BYTES) and parses it as
 * opfor_scenario_load_string does, naming the file in diagnostics. OPFOR_EIO when it
 * cannot be read. */
int opfor_scenario_load_file(const char *path, const opfor_scenario_rules_t *rules,
                             opfor_scenario_t *sc, opfor_diag_t *diag);

/* Releases what a successful load holds (the ruleset's blocks). Safe to call twice, and on a
 * zeroed struct. */
void opfor_scenario_free(opfor_scenario_t *sc);

/* The mapping of the top-level block called name (exact match), one of the blocks sc's ruleset
 * declares; NULL when the scenario has none or the ruleset declares no such block. Valid until
 * opfor_scenario_free. */
struct fy_node *opfor_scenario_block(const opfor_scenario_t *sc, const char *name);
/* The name of mode in sc's ruleset's words (the first of its mode words for it), else the
 * neutral one (opfor_mode_neutral_names); "?" for no mode. sc may be NULL (neutral words). */
const char *opfor_scenario_mode_name(const opfor_scenario_t *sc, int mode);

/* Index of the side named name (case-insensitive), or -1. */
int opfor_scenario_side(const opfor_scenario_t *sc, const char *name);
/* Index of the unit named name (case-insensitive), or -1. */
int opfor_scenario_unit(const opfor_scenario_t *sc, const char *name);
/* Index of the track or runway named name (case-insensitive), or -1. */
int opfor_scenario_route(const opfor_scenario_t *sc, const char *name);
/* Where a point s inches along route r lies (s clamped to 0 .. length). */
opfor_pt_t opfor_route_point(const opfor_route_t *r, float s);
/* The distance along route r of the route point nearest p; *off gets how far p is from the
 * route (either may be NULL). */
float opfor_route_project(const opfor_route_t *r, opfor_pt_t p, float *off);

#endif
