/* core/vocab.c — name tables for the shared vocabulary declared in opfor/vocab.h. */
#include "opfor/vocab.h"

#include <stdio.h>
#include <string.h>

#include "opfor/error.h"

const opfor_name_t opfor_quality_names[] = {
    {"civilian", OPFOR_Q_CIVILIAN}, {"conscript", OPFOR_Q_CONSCRIPT},
    {"soldier", OPFOR_Q_SOLDIER},   {"veteran", OPFOR_Q_VETERAN},
    {"elite", OPFOR_Q_ELITE},       {"officer", OPFOR_Q_ELITE},
    {"character", OPFOR_Q_ELITE},   {NULL, 0},
};

const opfor_name_t opfor_cover_names[] = {
    {"none", OPFOR_COVER_NONE},           {"soft", OPFOR_COVER_SOFT},
    {"hard", OPFOR_COVER_HARD},           {"fortification", OPFOR_COVER_FORT},
    {"open", OPFOR_COVER_NONE},           {"fort", OPFOR_COVER_FORT},
    {"fortifications", OPFOR_COVER_FORT}, {NULL, 0},
};

const opfor_name_t opfor_unit_type_names[] = {
    {"infantry", OPFOR_UT_INFANTRY},
    {"cavalry", OPFOR_UT_CAVALRY},
    {"artillery", OPFOR_UT_ARTILLERY},
    {"machinegun", OPFOR_UT_MACHINEGUN},
    {"headquarters", OPFOR_UT_HEADQUARTERS},
    {"supply", OPFOR_UT_SUPPLY},
    {"vehicle", OPFOR_UT_VEHICLE},
    {"automaton", OPFOR_UT_AUTOMATON},
    {"balloon", OPFOR_UT_BALLOON},
    {"dirigible", OPFOR_UT_DIRIGIBLE},
    {"aeroplane", OPFOR_UT_AEROPLANE},
    {"walker", OPFOR_UT_WALKER},
    {"mg", OPFOR_UT_MACHINEGUN},
    {"hq", OPFOR_UT_HEADQUARTERS},
    {"supply_transport", OPFOR_UT_SUPPLY},
    {"transport", OPFOR_UT_SUPPLY},
    {NULL, 0},
};

const opfor_name_t opfor_weapon_names[] = {
    {"pistol", OPFOR_W_PISTOL},
    {"carbine", OPFOR_W_CARBINE},
    {"rifle", OPFOR_W_RIFLE},
    {"mg", OPFOR_W_MG},
    {"field_gun", OPFOR_W_FIELD_GUN},
    {"sword", OPFOR_W_SWORD},
    {"lance", OPFOR_W_LANCE},
    {"bayonet", OPFOR_W_BAYONET},
    {"dagger", OPFOR_W_DAGGER},
    {"bombs", OPFOR_W_BOMBS},
    {"machinegun", OPFOR_W_MG},
    {"gun", OPFOR_W_FIELD_GUN},
    {"club", OPFOR_W_DAGGER},
    {"improvised", OPFOR_W_DAGGER},
    {"spear", OPFOR_W_BAYONET},
    {"bomb", OPFOR_W_BOMBS},
    {NULL, 0},
};

const opfor_name_t opfor_skill_names[] = {
    {"leader", OPFOR_S_LEADER},
    {"general", OPFOR_S_GENERAL},
    {"sharpshooter", OPFOR_S_SHARPSHOOTER},
    {"medic", OPFOR_S_MEDIC},
    {"mesmerist", OPFOR_S_MESMERIST},
    {"signaller", OPFOR_S_SIGNALLER},
    {"musician", OPFOR_S_MUSICIAN},
    {"colours", OPFOR_S_COLOURS},
    {"crew", OPFOR_S_CREW},
    {"driver", OPFOR_S_DRIVER},
    {"nco", OPFOR_S_LEADER},
    {"officer", OPFOR_S_LEADER},
    {"spotter", OPFOR_S_SIGNALLER},
    {"colors", OPFOR_S_COLOURS},
    {"standard_bearer", OPFOR_S_COLOURS},
    {NULL, 0},
};

const opfor_name_t opfor_terrain_kind_names[] = {
    {"open", OPFOR_TK_OPEN},          {"woods", OPFOR_TK_WOODS},
    {"building", OPFOR_TK_BUILDING},  {"wall", OPFOR_TK_WALL},
    {"hedge", OPFOR_TK_HEDGE},        {"fence", OPFOR_TK_FENCE},
    {"hill", OPFOR_TK_HILL},          {"road", OPFOR_TK_ROAD},
    {"river", OPFOR_TK_RIVER},        {"field_works", OPFOR_TK_FIELD_WORKS},
    {"rough", OPFOR_TK_ROUGH},        {"impassable", OPFOR_TK_IMPASSABLE},
    {"wood", OPFOR_TK_WOODS},         {"forest", OPFOR_TK_WOODS},
    {"house", OPFOR_TK_BUILDING},     {"fieldworks", OPFOR_TK_FIELD_WORKS},
    {"rough_ground", OPFOR_TK_ROUGH}, {NULL, 0},
};

const opfor_name_t opfor_compass_names[] = {
    {"N", OPFOR_N},           {"NE", OPFOR_NE},        {"E", OPFOR_E},
    {"SE", OPFOR_SE},         {"S", OPFOR_S},          {"SW", OPFOR_SW},
    {"W", OPFOR_W},           {"NW", OPFOR_NW},        {"north", OPFOR_N},
    {"north_east", OPFOR_NE}, {"northeast", OPFOR_NE}, {"east", OPFOR_E},
    {"south_east", OPFOR_SE}, {"southeast", OPFOR_SE}, {"south", OPFOR_S},
    {"south_west", OPFOR_SW}, {"southwest", OPFOR_SW}, {"west", OPFOR_W},
    {"north_west", OPFOR_NW}, {"northwest", OPFOR_NW}, {NULL, 0},
};

const opfor_name_t opfor_status_names[] = {
    {"solid", OPFOR_SOLID},
    {"wavering", OPFOR_WAVERING},
    {NULL, 0},
};

int opfor__vocab_name_eq(const char *a, const char *b) {
    /* the bytes both have alike need no folding (names in one table share prefixes:
     * "actor", "actor-mounted") */
    while (*a && *a == *b) {
        a++;
        b++;
    }
    for (;; a++, b++) {
        char x = opfor_vocab_fold(*a), y = opfor_vocab_fold(*b);
        if (x != y)
            return 0;
        if (!x)
            return 1;
    }
}

int opfor_vocab_lookup(const opfor_name_t *table, const char *s, int *out) {
    if (!table || !s)
        return OPFOR_EINVAL;
    for (const opfor_name_t *n = table; n->name; n++) {
        if (opfor_vocab_name_eq(n->name, s)) {
            if (out)
                *out = n->value;
            return 0;
        }
    }
    return OPFOR_ENOENT;
}

const char *opfor_vocab_name(const opfor_name_t *table, int value) {
    for (const opfor_name_t *n = table; n && n->name; n++)
        if (n->value == value)
            return n->name;
    return "?";
}

const char *opfor_vocab_list(const opfor_name_t *table, char *buf, size_t size) {
    size_t len = 0;
    if (size == 0)
        return buf;
    buf[0] = '\0';
    for (const opfor_name_t *n = table; n && n->name; n++) {
        /* Only canonical names: skip an entry whose value already appeared. */
        int seen = 0;
        for (const opfor_name_t *m = table; m != n; m++)
            if (m->value == n->value)
                seen = 1;
        if (seen)
            continue;
        int w = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", n->name);
        if (w < 0 || (size_t)w >= size - len) {
            buf[len] = '\0'; /* drop the partly written name */
            break;
        }
        len += (size_t)w;
    }
    return buf;
}
