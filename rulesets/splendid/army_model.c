/* rulesets/splendid/army_model.c — the army generator's tables (§Appendix – Generating an
 * Army) as data: the names of unit types and stand kinds, the built-in tables (the same as
 * model.yaml's `army:`, which tests hold equal), and the reader of model.yaml's `army:` map
 * with the shared strict readers, so an edited table's errors name their line and column.
 */
#include <libfyaml.h>
#include <stdio.h>
#include <string.h>

#include "opfor/yamlread.h"
#include "splendid_int.h"

const char *const opfor__sv_unit_names[SV_U_COUNT] = {
    "pike_and_musket", "foot",      "heavy_mounted",     "mounted",
    "dragoon",         "frame_gun", "regular_artillery", "heavy_artillery"};
const char *const opfor__sv_unit_titles[SV_U_COUNT] = {
    "Pike and Musket", "Foot",      "Heavy Mounted",     "Mounted",
    "Dragoon",         "Frame Gun", "Regular Artillery", "Heavy Artillery"};
const char *const opfor__sv_stand_names[SV_S_COUNT] = {
    "pike",    "musket",    "hand_to_hand",      "light",          "heavy_mounted", "mounted",
    "dragoon", "frame_gun", "regular_artillery", "heavy_artillery"};

#define E -1
const opfor_sv_army_t opfor__sv_army_builtin = {
    .table = {{E, E, E},
              {E, E, E},
              {SV_U_HEAVY_MOUNTED, E, E},
              {SV_U_MOUNTED, SV_U_MOUNTED, E},
              {SV_U_DRAGOON, E, E},
              {SV_U_MOUNTED, E, E},
              {SV_U_PIKE_MUSKET, E, E},
              {SV_U_PIKE_MUSKET, E, E},
              {SV_U_PIKE_MUSKET, SV_U_FOOT, E},
              {SV_U_PIKE_MUSKET, SV_U_REGULAR_GUN, E},
              {SV_U_FOOT, SV_U_REGULAR_GUN, E},
              {SV_U_FOOT, SV_U_HEAVY_GUN, E},
              {SV_U_FOOT, SV_U_FOOT, SV_U_FRAME_GUN}},
    .choice = {[8] = 1},
    .size = {[SV_U_PIKE_MUSKET] = {[SV_S_PIKE] = 2, [SV_S_MUSKET] = 4},
             [SV_U_FOOT] = {[SV_S_HAND_TO_HAND] = 5},
             [SV_U_HEAVY_MOUNTED] = {[SV_S_HEAVY_MOUNTED] = 3},
             [SV_U_MOUNTED] = {[SV_S_MOUNTED] = 4},
             [SV_U_DRAGOON] = {[SV_S_DRAGOON] = 4},
             [SV_U_FRAME_GUN] = {[SV_S_FRAME_GUN] = 1},
             [SV_U_REGULAR_GUN] = {[SV_S_REGULAR_GUN] = 1},
             [SV_U_HEAVY_GUN] = {[SV_S_HEAVY_GUN] = 1}},
    .min = {2, 2, 2, 2, 2, 1, 1, 1},
    .max = {9, 9, 4, 7, 7, 1, 1, 1},
    .subst = {[SV_U_PIKE_MUSKET] = {E, E, E},
              [SV_U_FOOT] = {SV_U_PIKE_MUSKET, E, E},
              [SV_U_HEAVY_MOUNTED] = {SV_U_MOUNTED, E, E},
              [SV_U_MOUNTED] = {E, E, E},
              [SV_U_DRAGOON] = {SV_U_MOUNTED, E, E},
              [SV_U_FRAME_GUN] = {E, E, E},
              [SV_U_REGULAR_GUN] = {SV_U_FRAME_GUN, E, E},
              [SV_U_HEAVY_GUN] = {SV_U_REGULAR_GUN, SV_U_FRAME_GUN, E}},
    .foot_average = 6,
    .mounted_average = 5,
    .heavy_per = 15,
    .sub_per = 4,
};
#undef E

/* Which stand kinds a unit type may hold (§How do stands form a unit?). */
int opfor__sv_kind_fits(int type, int kind) {
    switch (type) {
    case SV_U_PIKE_MUSKET:
        return kind == SV_S_PIKE || kind == SV_S_MUSKET;
    case SV_U_FOOT:
        return kind == SV_S_HAND_TO_HAND || kind == SV_S_LIGHT;
    case SV_U_HEAVY_MOUNTED:
        return kind == SV_S_HEAVY_MOUNTED;
    case SV_U_MOUNTED:
        return kind == SV_S_MOUNTED;
    case SV_U_DRAGOON:
        return kind == SV_S_DRAGOON;
    case SV_U_FRAME_GUN:
        return kind == SV_S_FRAME_GUN;
    case SV_U_REGULAR_GUN:
        return kind == SV_S_REGULAR_GUN;
    default:
        return kind == SV_S_HEAVY_GUN;
    }
}

/* Index of name (len bytes, '-' and ' ' as '_', any case) among names[n], or -1. */
int opfor__sv_name_index(const char *const *names, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (opfor_vocab_name_eq(name, names[i]))
            return i;
    return -1;
}

static int read_name(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt, const char *what,
                     const char *const *names, int count, int *out) {
    char buf[64], list[300];
    if (opfor_yaml_get_str(rd, n, alt, what, buf, sizeof buf))
        return rd->err;
    int i = opfor__sv_name_index(names, count, buf);
    if (i < 0) {
        size_t used = 0;
        list[0] = 0;
        for (int k = 0; k < count && used < sizeof list; k++)
            used +=
                (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", names[k]);
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "%s: unknown '%s'; allowed: %s", what, buf,
                               list);
    }
    *out = i;
    return 0;
}

/* A list of at most max unit type names into out (the rest -1). */
static int read_types(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt, const char *what,
                      signed char *out, int max) {
    if (opfor_yaml_want_seq(rd, n, alt, what))
        return rd->err;
    if (fy_node_sequence_item_count(n) > max)
        return opfor_yaml_fail(rd, OPFOR_ERANGE, n, alt, "%s: at most %d unit types", what, max);
    for (int i = 0; i < max; i++)
        out[i] = -1;
    void *it = NULL;
    struct fy_node *item;
    int k = 0, t;
    while ((item = fy_node_sequence_iterate(n, &it)) != NULL) {
        if (read_name(rd, item, n, what, opfor__sv_unit_names, SV_U_COUNT, &t))
            return rd->err;
        out[k++] = (signed char)t;
    }
    return 0;
}

static int read_table(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                      opfor_sv_army_t *a) {
    static const char *const keys[11] = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"};
    opfor_yaml_field_t f[11];
    for (int i = 0; i < 11; i++)
        f[i] = (opfor_yaml_field_t){keys[i], 0, 0};
    if (opfor_yaml_read_fields(rd, n, alt, "army.table (2D6 totals 2 to 12)", f, 11))
        return rd->err;
    for (int i = 0; i < 11; i++) {
        if (!f[i].v)
            continue;
        char what[32];
        snprintf(what, sizeof what, "army.table.%s", keys[i]);
        if (fy_node_is_mapping(f[i].v)) { /* {or: [a, b]}: the player's choice */
            opfor_yaml_field_t o[1] = {{"or", 0, 0}};
            if (opfor_yaml_read_fields(rd, f[i].v, f[i].k, what, o, 1))
                return rd->err;
            if (!o[0].v)
                return opfor_yaml_fail(rd, OPFOR_EPARSE, f[i].v, f[i].k,
                                       "%s: a choice is written {or: [type, type]}", what);
            if (read_types(rd, o[0].v, o[0].k, what, a->table[i + 2], SV_ARMY_PER_THROW))
                return rd->err;
            if (fy_node_sequence_item_count(o[0].v) < 2)
                return opfor_yaml_fail(rd, OPFOR_ERANGE, o[0].v, o[0].k,
                                       "%s: a choice needs two types or more", what);
            a->choice[i + 2] = 1;
        } else {
            if (read_types(rd, f[i].v, f[i].k, what, a->table[i + 2], SV_ARMY_PER_THROW))
                return rd->err;
            a->choice[i + 2] = 0;
        }
    }
    return 0;
}

/* One field per unit type, in SV_U_* order. */
static void unit_fields(opfor_yaml_field_t *f) {
    for (int i = 0; i < SV_U_COUNT; i++)
        f[i] = (opfor_yaml_field_t){opfor__sv_unit_names[i], 0, 0};
}

static int read_sizes(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                      opfor_sv_army_t *a) {
    opfor_yaml_field_t f[SV_U_COUNT];
    unit_fields(f);
    if (opfor_yaml_read_fields(rd, n, alt, "army.sizes", f, SV_U_COUNT))
        return rd->err;
    for (int t = 0; t < SV_U_COUNT; t++) {
        if (!f[t].v)
            continue;
        opfor_yaml_field_t s[SV_S_COUNT];
        for (int k = 0; k < SV_S_COUNT; k++)
            s[k] = (opfor_yaml_field_t){opfor__sv_stand_names[k], 0, 0};
        if (opfor_yaml_read_fields(rd, f[t].v, f[t].k, f[t].key, s, SV_S_COUNT))
            return rd->err;
        unsigned char size[SV_S_COUNT] = {0};
        int total = 0;
        for (int k = 0; k < SV_S_COUNT; k++) {
            int v = 0;
            if (!s[k].v)
                continue;
            if (!opfor__sv_kind_fits(t, k))
                return opfor_yaml_fail(rd, OPFOR_EPARSE, s[k].k, f[t].v,
                                       "army.sizes.%s: a %s unit has no %s stands", f[t].key,
                                       opfor__sv_unit_titles[t], s[k].key);
            if (opfor_yaml_get_int(rd, s[k].v, s[k].k, s[k].key, 0, 99, &v))
                return rd->err;
            size[k] = (unsigned char)v;
            total += v;
        }
        if (total < 1)
            return opfor_yaml_fail(rd, OPFOR_ERANGE, f[t].v, f[t].k,
                                   "army.sizes.%s: a unit needs a stand", f[t].key);
        memcpy(a->size[t], size, sizeof size);
    }
    return 0;
}

static int read_limits(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                       opfor_sv_army_t *a) {
    opfor_yaml_field_t f[SV_U_COUNT];
    unit_fields(f);
    if (opfor_yaml_read_fields(rd, n, alt, "army.limits", f, SV_U_COUNT))
        return rd->err;
    for (int t = 0; t < SV_U_COUNT; t++) {
        if (!f[t].v)
            continue;
        if (opfor_yaml_want_seq(rd, f[t].v, f[t].k, f[t].key))
            return rd->err;
        if (fy_node_sequence_item_count(f[t].v) != 2)
            return opfor_yaml_fail(rd, OPFOR_EPARSE, f[t].v, f[t].k,
                                   "army.limits.%s: write [fewest, most] stands", f[t].key);
        int lo, hi;
        if (opfor_yaml_get_int(rd, fy_node_sequence_get_by_index(f[t].v, 0), f[t].v, f[t].key, 1,
                               99, &lo) ||
            opfor_yaml_get_int(rd, fy_node_sequence_get_by_index(f[t].v, 1), f[t].v, f[t].key, lo,
                               99, &hi))
            return rd->err;
        a->min[t] = (unsigned char)lo;
        a->max[t] = (unsigned char)hi;
    }
    return 0;
}

int opfor__sv_army_read(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        opfor_sv_army_t *a) {
    opfor_yaml_field_t f[8] = {{"table", 0, 0},
                               {"sizes", 0, 0},
                               {"limits", 0, 0},
                               {"foot_average", 0, 0},
                               {"mounted_average", 0, 0},
                               {"heavy_mounted_per", 0, 0},
                               {"sub_commander_per", 0, 0},
                               {"substitutes", 0, 0}};
    if (opfor_yaml_read_fields(rd, n, alt, "army", f, 8))
        return rd->err;
    if ((f[0].v && read_table(rd, f[0].v, f[0].k, a)) ||
        (f[1].v && read_sizes(rd, f[1].v, f[1].k, a)) ||
        (f[2].v && read_limits(rd, f[2].v, f[2].k, a)))
        return rd->err;
    int v;
    unsigned char *small[4] = {&a->foot_average, &a->mounted_average, &a->heavy_per, &a->sub_per};
    for (int i = 0; i < 4; i++) {
        if (!f[3 + i].v)
            continue;
        if (opfor_yaml_get_int(rd, f[3 + i].v, f[3 + i].k, f[3 + i].key, 1, 99, &v))
            return rd->err;
        *small[i] = (unsigned char)v;
    }
    if (f[7].v) {
        opfor_yaml_field_t s[SV_U_COUNT];
        unit_fields(s);
        if (opfor_yaml_read_fields(rd, f[7].v, f[7].k, "army.substitutes", s, SV_U_COUNT))
            return rd->err;
        for (int t = 0; t < SV_U_COUNT; t++)
            if (s[t].v && read_types(rd, s[t].v, s[t].k, s[t].key, a->subst[t], SV_ARMY_SUBST))
                return rd->err;
    }
    return 0;
}
