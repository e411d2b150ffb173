/* rulesets/splendid/model.c — reads model.yaml (compiled in, or an edited copy laid over it:
 * a partial file changes only what it names) into opfor_sv_model_t with the shared strict
 * readers of opfor/yamlread.h, so every error names its line and column.
 */
#include <libfyaml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/yamlread.h"
#include "splendid_int.h"

extern const unsigned char opfor_splendid_model_yaml[];
extern const unsigned long opfor_splendid_model_yaml_len;

const opfor_sv_model_t opfor__sv_model_builtin = {
    .fire_need = {1, 2, 3},
    .charge_need = {2, 3, 4},
    .melee_bonus = {0, 0, 1},
    .command = {{.basic = 6, .top = {1, 5, 6}, .range = {9, 6, 3}},
                {.basic = 3, .top = {1, 3, 6}, .range = {6, 3, 1}}},
    .open_order_may_charge = SV_OO_MOUNTED,
    .command_stand_mounted = 1,
    .always_open_cv_penalty = 1,
    .bounce_any_band = 1,
    .quality_on_bounce = 1,
    .heavy_mounted_floor = 0,
    .terrain = {{1.0f, 0, 0, 0},
                {2.0f, 0, -1, 0},
                {2.0f, 0, -1, 1},
                {2.0f, 0, -1, 1},
                {2.0f, 0, 0, 0},
                {1.0f, 0, 0, 0},
                {1.0f, 0, 0, 0},
                {0.5f, 1, 0, 0}},
    /* .army: opfor__sv_army_builtin, copied in by model_new (sv_army_of for no model) */
};

static const opfor_name_t OO_NAMES[] = {
    {"none", SV_OO_NONE}, {"mounted", SV_OO_MOUNTED}, {"all", SV_OO_ALL}, {NULL, 0}};
static const opfor_name_t BOUNCE_NAMES[] = {{"any", 1}, {"round_shot", 0}, {NULL, 0}};
static const opfor_name_t RATIO_NAMES[] = {{"ceil", 0}, {"floor", 1}, {NULL, 0}};

const char *const opfor__sv_terrain_names[SV_T_COUNT + 1] = {
    "open", "woods", "enclosures", "town", "marsh", "river", "hill", "road", NULL};

static const char *const QNAMES[3] = {"raw", "regular", "veteran"};
static const char *const CQNAMES[3] = {"charismatic", "inspiring", "impersonal"};

static int read_int(opfor_yaml_rd_t *rd, opfor_yaml_field_t *f, long lo, long hi, int *out) {
    if (!f->v)
        return 0;
    return opfor_yaml_get_int(rd, f->v, f->k, f->key, lo, hi, out);
}

static int read_quality(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        opfor_sv_model_t *m) {
    opfor_yaml_field_t q[3] = {{"raw", 0, 0}, {"regular", 0, 0}, {"veteran", 0, 0}};
    if (opfor_yaml_read_fields(rd, n, alt, "quality", q, 3))
        return rd->err;
    for (int i = 0; i < 3; i++) {
        if (!q[i].v)
            continue;
        opfor_yaml_field_t f[3] = {{"fire", 0, 0}, {"charge", 0, 0}, {"melee", 0, 0}};
        if (opfor_yaml_read_fields(rd, q[i].v, q[i].k, QNAMES[i], f, 3) ||
            read_int(rd, &f[0], 0, 6, &m->fire_need[i]) ||
            read_int(rd, &f[1], 0, 6, &m->charge_need[i]) ||
            read_int(rd, &f[2], -6, 6, &m->melee_bonus[i]))
            return rd->err;
    }
    return 0;
}

static int read_rank(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt, const char *what,
                     opfor_sv_command_t *c) {
    opfor_yaml_field_t f[4] = {
        {"range", 0, 0}, {"charismatic", 0, 0}, {"inspiring", 0, 0}, {"impersonal", 0, 0}};
    if (opfor_yaml_read_fields(rd, n, alt, what, f, 4) || read_int(rd, &f[0], 0, 100, &c->basic))
        return rd->err;
    for (int i = 0; i < 3; i++) {
        if (!f[i + 1].v)
            continue;
        opfor_yaml_field_t g[2] = {{"top", 0, 0}, {"range", 0, 0}};
        if (opfor_yaml_read_fields(rd, f[i + 1].v, f[i + 1].k, CQNAMES[i], g, 2) ||
            read_int(rd, &g[0], 0, 6, &c->top[i]) || read_int(rd, &g[1], 0, 100, &c->range[i]))
            return rd->err;
    }
    if (c->top[0] > c->top[1] || c->top[1] > c->top[2] || c->top[2] != 6)
        return opfor_yaml_fail(rd, OPFOR_ERANGE, n, alt,
                               "%s: the tops of charismatic, inspiring and impersonal must rise "
                               "and end at 6",
                               what);
    return 0;
}

int opfor__sv_terrain_read(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                           opfor_sv_model_t *m) {
    opfor_yaml_field_t t[SV_T_COUNT];
    for (int i = 0; i < SV_T_COUNT; i++) {
        t[i].key = opfor__sv_terrain_names[i];
        t[i].k = NULL;
        t[i].v = NULL;
    }
    if (opfor_yaml_read_fields(rd, n, alt, "terrain", t, SV_T_COUNT))
        return rd->err;
    for (int i = 0; i < SV_T_COUNT; i++) {
        if (!t[i].v)
            continue;
        opfor_sv_terrain_t *d = &m->terrain[i];
        opfor_yaml_field_t f[4] = {
            {"move_factor", 0, 0}, {"column_only", 0, 0}, {"fire_dice", 0, 0}, {"cv", 0, 0}};
        double mf = d->move_factor;
        if (opfor_yaml_read_fields(rd, t[i].v, t[i].k, t[i].key, f, 4) ||
            (f[0].v && opfor_yaml_get_num(rd, f[0].v, f[0].k, f[0].key, 0.1, 10.0, &mf)) ||
            (f[1].v && opfor_yaml_get_bool(rd, f[1].v, f[1].k, f[1].key, &d->column_only)) ||
            read_int(rd, &f[2], -6, 6, &d->fire_dice) || read_int(rd, &f[3], -6, 6, &d->cv))
            return rd->err;
        d->move_factor = (float)mf;
    }
    return 0;
}

static int read_root(opfor_yaml_rd_t *rd, struct fy_node *root, opfor_sv_model_t *m) {
    opfor_yaml_field_t f[5] = {{"quality", 0, 0},
                               {"command", 0, 0},
                               {"readings", 0, 0},
                               {"army", 0, 0},
                               {"terrain", 0, 0}};
    if (opfor_yaml_read_fields(rd, root, NULL, "model", f, 5))
        return rd->err;
    if (f[4].v && opfor__sv_terrain_read(rd, f[4].v, f[4].k, m))
        return rd->err;
    if (f[3].v && opfor__sv_army_read(rd, f[3].v, f[3].k, &m->army))
        return rd->err;
    if (f[0].v && read_quality(rd, f[0].v, f[0].k, m))
        return rd->err;
    if (f[1].v) {
        opfor_yaml_field_t c[2] = {{"commander", 0, 0}, {"sub", 0, 0}};
        if (opfor_yaml_read_fields(rd, f[1].v, f[1].k, "command", c, 2))
            return rd->err;
        for (int i = 0; i < 2; i++)
            if (c[i].v && read_rank(rd, c[i].v, c[i].k, c[i].key, &m->command[i]))
                return rd->err;
    }
    if (f[2].v) {
        opfor_yaml_field_t r[6] = {
            {"open_order_may_charge", 0, 0},  {"command_stand_mounted", 0, 0},
            {"always_open_cv_penalty", 0, 0}, {"bounce_first_shot", 0, 0},
            {"quality_on_bounce", 0, 0},      {"heavy_mounted_ratio", 0, 0}};
        if (opfor_yaml_read_fields(rd, f[2].v, f[2].k, "readings", r, 6) ||
            (r[0].v && opfor_yaml_get_enum(rd, r[0].v, r[0].k, r[0].key, OO_NAMES,
                                           &m->open_order_may_charge)) ||
            (r[1].v &&
             opfor_yaml_get_bool(rd, r[1].v, r[1].k, r[1].key, &m->command_stand_mounted)) ||
            (r[2].v &&
             opfor_yaml_get_bool(rd, r[2].v, r[2].k, r[2].key, &m->always_open_cv_penalty)) ||
            (r[3].v && opfor_yaml_get_enum(rd, r[3].v, r[3].k, r[3].key, BOUNCE_NAMES,
                                           &m->bounce_any_band)) ||
            (r[4].v && opfor_yaml_get_bool(rd, r[4].v, r[4].k, r[4].key, &m->quality_on_bounce)) ||
            (r[5].v && opfor_yaml_get_enum(rd, r[5].v, r[5].k, r[5].key, RATIO_NAMES,
                                           &m->heavy_mounted_floor)))
            return rd->err;
    }
    return 0;
}

/* Lays text (named name) over *m. 0, or OPFOR_EPARSE / OPFOR_ERANGE... with diag. */
static int load_text(const char *text, size_t len, const char *name, opfor_sv_model_t *m,
                     opfor_diag_t *diag) {
    opfor_diag_clear(diag);
    struct fy_document *doc = NULL;
    int rc = opfor_yaml_parse(text, len, &doc, diag);
    if (rc == 0 && fy_document_root(doc)) {
        opfor_yaml_rd_t rd = {diag, 0, 0};
        rc = read_root(&rd, fy_document_root(doc), m);
    }
    if (diag && rc)
        snprintf(diag->file, sizeof diag->file, "%s", name);
    if (doc)
        fy_document_destroy(doc);
    return rc;
}

static int model_new(const char *text, size_t len, const char *name, void **model,
                     opfor_diag_t *diag) {
    opfor_diag_t local;
    if (!diag)
        diag = &local;
    opfor_sv_model_t *m = malloc(sizeof *m);
    if (!m)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    *m = opfor__sv_model_builtin;
    m->army = opfor__sv_army_builtin;
    int rc = load_text((const char *)opfor_splendid_model_yaml,
                       (size_t)opfor_splendid_model_yaml_len, "model.yaml (built in)", m, diag);
    if (!rc && text)
        rc = load_text(text, len, name, m, diag);
    if (rc) {
        free(m);
        return rc;
    }
    *model = m;
    return 0;
}

int opfor__sv_model_load(const char *path, void **model, opfor_diag_t *diag) {
    if (!path)
        return model_new(NULL, 0, NULL, model, diag);
    FILE *f = fopen(path, "rb");
    if (!f) {
        int rc = opfor_diag_set(diag, OPFOR_ENOENT, 0, 0, "cannot open the model file");
        if (diag)
            snprintf(diag->file, sizeof diag->file, "%s", path);
        return rc;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    char chunk[4096];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + got + 1 > cap) {
            size_t nc = (len + got + 1) * 2;
            char *nb = realloc(buf, nc);
            if (!nb) {
                free(buf);
                fclose(f);
                return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
            }
            buf = nb;
            cap = nc;
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    fclose(f);
    int rc = model_new(buf ? buf : "", len, path, model, diag);
    free(buf);
    return rc;
}

int opfor__sv_model_load_text(const char *text, const char *name, void **model,
                              opfor_diag_t *diag) {
    return model_new(text ? text : "", text ? strlen(text) : 0, name ? name : "", model, diag);
}

void opfor__sv_model_free(void *model) {
    free(model);
}
