/* opfor/vocab.h — the shared vocabulary of the rules: qualities, cover, unit types,
 * weapons, skills, terrain kinds, compass points, and their names in files and on the
 * command line.
 *
 * Every ruleset, scenario file, calculator field and protocol message uses these enums
 * and these names, so "veteran" or "soft" means the same thing everywhere. Lookups are
 * case-insensitive and accept a few aliases ("officer" is elite, "fort" is fortification).
 * A ruleset gives these words their effect (what a veteran or soft cover changes).
 */
#ifndef OPFOR_VOCAB_H
#define OPFOR_VOCAB_H

#include <stddef.h>

/* One name for one value; tables end with {NULL, 0}. Aliases follow their canonical name
 * and carry the same value; the first entry for a value is its canonical name. */
typedef struct opfor_name {
    const char *name;
    int value;
} opfor_name_t;

/* c as names compare: lower case, with '-' and ' ' as '_'. */
static inline char opfor_vocab_fold(char c) {
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c == '-' || c == ' ' ? '_' : c;
}
/* opfor_vocab_name_eq's whole compare (call that instead). */
int opfor__vocab_name_eq(const char *a, const char *b);
/* Whether a user-written name a matches name b: case-insensitive, with '-' and ' ' equal
 * to '_' ("Field-Works" matches "field_works"). Inline: most names of a table differ at
 * their first letter, and the daemon looks up several per request. */
static inline int opfor_vocab_name_eq(const char *a, const char *b) {
    return opfor_vocab_fold(a[0]) == opfor_vocab_fold(b[0]) && opfor__vocab_name_eq(a, b);
}
/* Finds s (case-insensitive, '-' and ' ' equal to '_') in table; 0 and *out on success,
 * OPFOR_ENOENT otherwise. */
int opfor_vocab_lookup(const opfor_name_t *table, const char *s, int *out);
/* The canonical name of value, or "?" when the table has none. */
const char *opfor_vocab_name(const opfor_name_t *table, int value);
/* Writes the canonical names, comma-separated ("none, soft, hard, fortification"), for
 * error messages and --list output. Returns buf. */
const char *opfor_vocab_list(const opfor_name_t *table, char *buf, size_t size);

/* Figure and unit quality (section IV). Ordered: a higher value is never worse. */
typedef enum opfor_quality {
    OPFOR_Q_CIVILIAN = 0,
    OPFOR_Q_CONSCRIPT,
    OPFOR_Q_SOLDIER,
    OPFOR_Q_VETERAN,
    OPFOR_Q_ELITE, /* also officers and characters */
    OPFOR_Q_COUNT
} opfor_quality_t;
extern const opfor_name_t opfor_quality_names[];

/* Cover enjoyed by a target (section IX). Ordered: a higher value protects more. */
typedef enum opfor_cover {
    OPFOR_COVER_NONE = 0,
    OPFOR_COVER_SOFT,
    OPFOR_COVER_HARD,
    OPFOR_COVER_FORT,
    OPFOR_COVER_COUNT
} opfor_cover_t;
extern const opfor_name_t opfor_cover_names[];

/* Unit types: troop types, headquarters, and machines (vehicles, aeroplanes, ...). */
typedef enum opfor_unit_type {
    OPFOR_UT_INFANTRY = 0,
    OPFOR_UT_CAVALRY,
    OPFOR_UT_ARTILLERY, /* field gun and crew, or an off-board observer team */
    OPFOR_UT_MACHINEGUN,
    OPFOR_UT_HEADQUARTERS,
    OPFOR_UT_SUPPLY,
    OPFOR_UT_VEHICLE,
    OPFOR_UT_AUTOMATON,
    OPFOR_UT_BALLOON,
    OPFOR_UT_DIRIGIBLE,
    OPFOR_UT_AEROPLANE,
    OPFOR_UT_WALKER,
    OPFOR_UT_COUNT
} opfor_unit_type_t;
extern const opfor_name_t opfor_unit_type_names[];

/* Weapons a figure carries, as bits (sections VI and IX). */
typedef enum opfor_weapon {
    OPFOR_W_PISTOL = 1u << 0,
    OPFOR_W_CARBINE = 1u << 1,
    OPFOR_W_RIFLE = 1u << 2,
    OPFOR_W_MG = 1u << 3,
    OPFOR_W_FIELD_GUN = 1u << 4,
    OPFOR_W_SWORD = 1u << 5,
    OPFOR_W_LANCE = 1u << 6,
    OPFOR_W_BAYONET = 1u << 7,
    OPFOR_W_DAGGER = 1u << 8, /* dagger, club or improvised weapon */
    OPFOR_W_BOMBS = 1u << 9,
} opfor_weapon_t;
extern const opfor_name_t opfor_weapon_names[];

/* Skills and roles a figure has, as bits (sections IV, VI, VII). */
typedef enum opfor_skill {
    OPFOR_S_LEADER = 1u << 0, /* officer, character or NCO able to lead a unit */
    OPFOR_S_GENERAL = 1u << 1,
    OPFOR_S_SHARPSHOOTER = 1u << 2,
    OPFOR_S_MEDIC = 1u << 3,
    OPFOR_S_MESMERIST = 1u << 4,
    OPFOR_S_SIGNALLER = 1u << 5, /* can call off-board support fire */
    OPFOR_S_MUSICIAN = 1u << 6,
    OPFOR_S_COLOURS = 1u << 7, /* carries the unit colours */
    OPFOR_S_CREW = 1u << 8,    /* crews a gun, MG or vehicle */
    OPFOR_S_DRIVER = 1u << 9,
} opfor_skill_t;
extern const opfor_name_t opfor_skill_names[];

/* Terrain kinds. */
typedef enum opfor_terrain_kind {
    OPFOR_TK_OPEN = 0,
    OPFOR_TK_WOODS,
    OPFOR_TK_BUILDING,
    OPFOR_TK_WALL,
    OPFOR_TK_HEDGE,
    OPFOR_TK_FENCE,
    OPFOR_TK_HILL,
    OPFOR_TK_ROAD,
    OPFOR_TK_RIVER,
    OPFOR_TK_FIELD_WORKS,
    OPFOR_TK_ROUGH,
    OPFOR_TK_IMPASSABLE,
    OPFOR_TK_COUNT
} opfor_terrain_kind_t;
extern const opfor_name_t opfor_terrain_kind_names[];

/* The 8 points of the compass, clockwise from north. */
typedef enum opfor_compass {
    OPFOR_N = 0,
    OPFOR_NE,
    OPFOR_E,
    OPFOR_SE,
    OPFOR_S,
    OPFOR_SW,
    OPFOR_W,
    OPFOR_NW,
    OPFOR_COMPASS_COUNT
} opfor_compass_t;
extern const opfor_name_t opfor_compass_names[];

/* Unit morale status (section XI). */
typedef enum opfor_status { OPFOR_SOLID = 0, OPFOR_WAVERING, OPFOR_STATUS_COUNT } opfor_status_t;
extern const opfor_name_t opfor_status_names[];

#endif
