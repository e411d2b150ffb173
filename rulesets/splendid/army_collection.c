/* rulesets/splendid/army_collection.c — reads a player's collection for the army generator:
 * a YAML file listing the units they own (docs/splendid.md section 6), checked with the shared
 * strict readers so every error names its line and column.
 *
 *   units:
 *     - {name: Lord Saye's Regiment, type: pike_and_musket, stands: {pike: 2, musket: 4}}
 *     - {name: Rupert's Horse, type: mounted, stands: 5, lance: true, quality: veteran}
 *     - {type: regular_artillery, count: 2}
 */
#include <libfyaml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "opfor/yamlread.h"

static const char *const QUALITY[] = {"raw", "regular", "veteran"};

/* The one stand kind of a unit type that has one (-1 for Pike and Musket and Foot). */
static int only_kind(int type) {
    int kind = -1, n = 0;
    for (int k = 0; k < SV_S_COUNT; k++)
        if (opfor__sv_kind_fits(type, k)) {
            kind = k;
            n++;
        }
    return n == 1 ? kind : -1;
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

/* The stands of one entry: a number (the type's one kind; Pike and Musket a third pikes,
 * rounded down, the rest muskets; Foot all hand-to-hand) or a map of kind: number. */
static int read_stands(opfor_yaml_rd_t *rd, const opfor_sv_army_t *tab, struct fy_node *n,
                       struct fy_node *alt, int type, int *stands) {
    memset(stands, 0, sizeof(int) * SV_S_COUNT);
    if (!n) { /* left out: the table's default unit of the type */
        for (int k = 0; k < SV_S_COUNT; k++)
            stands[k] = tab->size[type][k];
        return 0;
    }
    if (fy_node_is_mapping(n)) {
        opfor_yaml_field_t f[SV_S_COUNT];
        for (int k = 0; k < SV_S_COUNT; k++)
            f[k] = (opfor_yaml_field_t){opfor__sv_stand_names[k], 0, 0};
        if (opfor_yaml_read_fields(rd, n, alt, "stands", f, SV_S_COUNT))
            return rd->err;
        for (int k = 0; k < SV_S_COUNT; k++) {
            if (!f[k].v)
                continue;
            if (!opfor__sv_kind_fits(type, k))
                return opfor_yaml_fail(rd, OPFOR_EPARSE, f[k].k, n, "a %s unit has no %s stands",
                                       opfor__sv_unit_titles[type], f[k].key);
            if (opfor_yaml_get_int(rd, f[k].v, f[k].k, f[k].key, 0, 99, &stands[k]))
                return rd->err;
        }
    } else {
        int total;
        if (opfor_yaml_get_int(rd, n, alt, "stands", 1, 99, &total))
            return rd->err;
        int kind = only_kind(type);
        if (kind >= 0)
            stands[kind] = total;
        else if (type == SV_U_PIKE_MUSKET) {
            stands[SV_S_PIKE] = total / 3;
            stands[SV_S_MUSKET] = total - total / 3;
        } else
            stands[SV_S_HAND_TO_HAND] = total;
    }
    int total = sv_stands_of(stands);
    if (total < tab->min[type])
        return opfor_yaml_fail(
            rd, OPFOR_ERANGE, n, alt, "a %s unit has at least %d stand%s (%d given)",
            opfor__sv_unit_titles[type], tab->min[type], tab->min[type] == 1 ? "" : "s", total);
    return 0;
}

static int read_unit(opfor_yaml_rd_t *rd, const opfor_sv_army_t *tab, struct fy_node *n,
                     struct fy_node *alt, sv_collection_t *c) {
    opfor_yaml_field_t f[6] = {{"name", 0, 0},    {"type", 0, 0},  {"stands", 0, 0},
                               {"quality", 0, 0}, {"lance", 0, 0}, {"count", 0, 0}};
    if (opfor_yaml_read_fields(rd, n, alt, "a unit of the collection", f, 6))
        return rd->err;
    sv_owned_t u;
    memset(&u, 0, sizeof u);
    u.quality = 1;
    opfor_yaml_mark(n, &u.line, &u.col);
    if (!f[1].v)
        return opfor_yaml_fail(rd, OPFOR_EPARSE, n, alt, "a unit needs a type (%s, ...)",
                               opfor__sv_unit_names[0]);
    if (read_name(rd, f[1].v, f[1].k, "type", opfor__sv_unit_names, SV_U_COUNT, &u.type))
        return rd->err;
    if (f[0].v && opfor_yaml_get_str(rd, f[0].v, f[0].k, "name", u.name, sizeof u.name))
        return rd->err;
    if (read_stands(rd, tab, f[2].v, f[2].v ? f[2].k : n, u.type, u.stands))
        return rd->err;
    if (f[3].v && read_name(rd, f[3].v, f[3].k, "quality", QUALITY, 3, &u.quality))
        return rd->err;
    if (f[4].v) {
        if (opfor_yaml_get_bool(rd, f[4].v, f[4].k, "lance", &u.lance))
            return rd->err;
        if (u.lance && u.type != SV_U_MOUNTED)
            return opfor_yaml_fail(rd, OPFOR_EPARSE, f[4].v, f[4].k,
                                   "lance: only Mounted units carry lances (§Mounted Units)");
    }
    int count = 1;
    if (f[5].v && opfor_yaml_get_int(rd, f[5].v, f[5].k, "count", 1, SV_COLLECTION_MAX, &count))
        return rd->err;
    for (int i = 0; i < count; i++) {
        if (c->n >= SV_COLLECTION_MAX)
            return opfor_yaml_fail(rd, OPFOR_ERANGE, n, alt, "a collection holds at most %d units",
                                   SV_COLLECTION_MAX);
        sv_owned_t *o = &c->u[c->n++];
        *o = u;
        if (f[0].v && count > 1) {
            char base[SV_NAME_MAX];
            memcpy(base, u.name, sizeof base);
            snprintf(o->name, sizeof o->name, "%.*s %d", SV_NAME_MAX - 12, base, i + 1);
        }
    }
    return 0;
}

int sv_collection_load_text(const opfor_sv_army_t *tab, const char *text, size_t len,
                            const char *name, sv_collection_t *c, opfor_diag_t *diag) {
    opfor_diag_t local;
    if (!diag)
        diag = &local;
    opfor_diag_clear(diag);
    memset(c, 0, sizeof *c);
    struct fy_document *doc = NULL;
    int rc = opfor_yaml_parse(text, len, &doc, diag);
    if (rc == 0) {
        opfor_yaml_rd_t rd = {diag, 0, 0};
        struct fy_node *root = fy_document_root(doc);
        opfor_yaml_field_t f[1] = {{"units", 0, 0}};
        if (!root)
            rc = opfor_diag_set(diag, OPFOR_EPARSE, 1, 1,
                                "an empty collection: write units: [...] (docs/splendid.md)");
        else if (opfor_yaml_read_fields(&rd, root, NULL, "the collection", f, 1))
            rc = rd.err;
        else if (!f[0].v)
            rc =
                opfor_yaml_fail(&rd, OPFOR_EPARSE, root, NULL, "the collection needs units: [...]");
        else if (opfor_yaml_want_seq(&rd, f[0].v, f[0].k, "units"))
            rc = rd.err;
        else {
            void *it = NULL;
            struct fy_node *item;
            int counts[SV_U_COUNT] = {0};
            while (!rc && (item = fy_node_sequence_iterate(f[0].v, &it)) != NULL) {
                int before = c->n;
                rc = read_unit(&rd, tab, item, f[0].v, c);
                /* unnamed units are numbered by type in the file's order */
                for (int i = before; !rc && i < c->n; i++) {
                    sv_owned_t *o = &c->u[i];
                    counts[o->type]++;
                    if (!o->name[0])
                        snprintf(o->name, sizeof o->name, "%s %d", opfor__sv_unit_titles[o->type],
                                 counts[o->type]);
                }
            }
        }
    }
    if (rc)
        snprintf(diag->file, sizeof diag->file, "%s", name ? name : "collection");
    if (doc)
        fy_document_destroy(doc);
    return rc;
}

int sv_collection_load(const opfor_sv_army_t *tab, const char *path, sv_collection_t *c,
                       opfor_diag_t *diag) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        int rc = opfor_diag_set(diag, OPFOR_ENOENT, 0, 0, "cannot open the collection file");
        if (diag)
            snprintf(diag->file, sizeof diag->file, "%s", path);
        return rc;
    }
    enum { MAX = 256 * 1024 };
    char *buf = malloc(MAX + 1);
    size_t len = buf ? fread(buf, 1, MAX + 1, f) : 0;
    fclose(f);
    if (!buf)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    int rc;
    if (len > MAX) {
        rc = opfor_diag_set(diag, OPFOR_ERANGE, 0, 0, "the collection file is over 256 KiB");
        if (diag)
            snprintf(diag->file, sizeof diag->file, "%s", path);
    } else
        rc = sv_collection_load_text(tab, buf, len, path, c, diag);
    free(buf);
    return rc;
}
