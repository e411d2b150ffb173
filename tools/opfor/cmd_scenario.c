/* tools/opfor/cmd_scenario.c — `opfor scenario`: check, list and show scenario files.
 *
 *   opfor scenario check FILE [--json]
 *   opfor scenario list [--json]
 *   opfor scenario show [NAME|FILE] [--json]
 *
 * A thin shell over core/scenario.c and the registry (each ruleset's built-in scenarios and
 * its scenario checks, rs->builtin_* and rs->scenario; a file is read for the ruleset its
 * `ruleset:` line names, else the registry's first ruleset that checks scenarios): it parses the
 * command line, loads, and prints. The mode is named in the ruleset's words, and the blocks a
 * ruleset reads itself (opfor_scenario_rules_t blocks) are listed by name. Diagnostics are
 * gcc-style "file:line:col: message" lines so editors can jump to them. Exit 0 valid, 1 invalid or
 * unreadable, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/scenario.h"
#include "opfor/ruleset.h"

/* The words of the command line that are not options: the command and its file or name (a
 * third one kept, so the command can say it takes one). */
typedef struct scenario_args {
    const char *pos[3];
    int n;
} scenario_args_t;

static int scenario_arg(void *ud, const char *a) {
    scenario_args_t *p = ud;
    if (p->n == 3)
        return opfor_cli_usage_error("scenario: too many arguments at '%s'", a);
    p->pos[p->n++] = a;
    return 0;
}

/* The ruleset a scenario file is read for: the registry's first with a scenario loader. */
static const opfor_ruleset_t *file_ruleset(void) {
    size_t n = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    for (size_t i = 0; i < n; i++)
        if (list[i].rs->scenario)
            return list[i].rs;
    return NULL;
}

/* The ruleset a scenario file names on a top-level `ruleset: NAME` line, when one registered
 * with a scenario loader has that name; NULL otherwise (the loader then reports the name). */
static const opfor_ruleset_t *named_ruleset(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char line[256], name[64];
    const opfor_ruleset_t *rs = NULL;
    while (!rs && fgets(line, sizeof line, f))
        if (sscanf(line, "ruleset: %63[A-Za-z0-9_-]", name) == 1) {
            rs = opfor_ruleset_find(name);
            if (rs && !rs->scenario)
                rs = NULL;
            break;
        }
    fclose(f);
    return rs;
}

/* The first built-in scenario of the registered rulesets (what `show` shows by default), or
 * NULL when none has one. */
static const char *default_builtin(void) {
    size_t n = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    for (size_t i = 0; i < n; i++)
        if (list[i].rs->builtin_name && list[i].rs->builtin_name(0))
            return list[i].rs->builtin_name(0);
    return NULL;
}

/* The built-in scenario called name ("NAME" or "builtin:NAME") of any registered ruleset:
 * its ruleset, text and length; 0, or -1 when none has it. */
static int builtin_find(const char *name, const opfor_ruleset_t **rs, const char **text,
                        size_t *len) {
    size_t n = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
    for (size_t i = 0; i < n; i++) {
        const char *t = list[i].rs->builtin_text ? list[i].rs->builtin_text(name, len) : NULL;
        if (t) {
            *rs = list[i].rs;
            *text = t;
            return 0;
        }
    }
    return -1;
}

/* Loads the built-in scenario text of rs called name, diagnostics naming "builtin:NAME". */
static int builtin_load(const opfor_ruleset_t *rs, const char *name, const char *text, size_t len,
                        opfor_scenario_t *sc, opfor_diag_t *d) {
    char label[128];
    if (strncmp(name, "builtin:", 8) == 0)
        name += 8;
    snprintf(label, sizeof label, "builtin:%s", name);
    return opfor_scenario_load_string(text, len, label, rs->scenario, sc, d);
}

/* Loads what arg names: an existing file first, else a built-in scenario ("NAME" or
 * "builtin:NAME"). */
static int load_any(const char *arg, opfor_scenario_t *sc, opfor_diag_t *d) {
    struct stat st;
    int missing = stat(arg, &st) != 0;
    const opfor_ruleset_t *rs = NULL;
    const char *text = NULL;
    size_t len = 0;
    if (missing && builtin_find(arg, &rs, &text, &len) == 0)
        return builtin_load(rs, arg, text, len, sc, d);
    rs = named_ruleset(arg);
    if (!rs)
        rs = file_ruleset();
    int rc = opfor_scenario_load_file(arg, rs ? rs->scenario : NULL, sc, d);
    if (rc && missing && !strchr(arg, '/')) { /* a misspelt built-in name, perhaps */
        size_t used = strlen(d->msg), n = 0, k = 0;
        snprintf(d->msg + used, sizeof d->msg - used, "; nor is it a built-in scenario:");
        const opfor_ruleset_entry_t *list = opfor_ruleset_list(&n);
        for (size_t i = 0; i < n; i++)
            for (size_t b = 0; list[i].rs->builtin_name && list[i].rs->builtin_name(b); b++) {
                used = strlen(d->msg);
                snprintf(d->msg + used, sizeof d->msg - used, "%s %s", k++ ? "," : "",
                         list[i].rs->builtin_name(b));
            }
    }
    return rc;
}

static void json_diag(opfor_json_t *j, const opfor_diag_t *d) {
    opfor_json_obj_begin(j);
    opfor_json_kv_str(j, "file", d->file);
    opfor_json_kv_int(j, "line", d->line);
    opfor_json_kv_int(j, "col", d->col);
    opfor_json_kv_str(j, "message", d->msg);
    opfor_json_obj_end(j);
}

static void print_warnings(FILE *f, const opfor_scenario_t *sc) {
    char buf[1024];
    for (int i = 0; i < sc->nwarnings; i++) {
        opfor_diag_t w = sc->warnings[i];
        w.msg[0] = '\0'; /* format only "file:line:col: " */
        fprintf(f, "%swarning: %s\n", opfor_diag_format(&w, buf, sizeof buf), sc->warnings[i].msg);
    }
    if (sc->nwarnings_total > sc->nwarnings)
        fprintf(f, "(%d more warnings)\n", sc->nwarnings_total - sc->nwarnings);
}

static int cmd_check(const char *file, int json) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    if (!sc)
        return opfor_cli_fail("scenario: out of memory");
    opfor_diag_t d;
    char buf[1024];
    int rc = load_any(file, sc, &d);
    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "file", file);
        opfor_json_kv_bool(&j, "valid", rc == 0);
        opfor_json_key(&j, "errors");
        opfor_json_arr_begin(&j);
        if (rc)
            json_diag(&j, &d);
        opfor_json_arr_end(&j);
        opfor_json_key(&j, "warnings");
        opfor_json_arr_begin(&j);
        for (int i = 0; rc == 0 && i < sc->nwarnings; i++)
            json_diag(&j, &sc->warnings[i]);
        opfor_json_arr_end(&j);
        if (rc == 0) {
            opfor_json_kv_str(&j, "name", sc->name);
            opfor_json_kv_int(&j, "units", sc->nunits);
            opfor_json_kv_int(&j, "figures", sc->nfigures);
            opfor_json_kv_int(&j, "features", sc->table.nfeatures);
        }
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else if (rc) {
        printf("%s\n", opfor_diag_format(&d, buf, sizeof buf));
    } else {
        print_warnings(stdout, sc);
        printf("%s: valid: '%s', %s, %d units, %d figures, %d terrain features\n", file, sc->name,
               opfor_scenario_mode_name(sc, sc->mode), sc->nunits, sc->nfigures,
               sc->table.nfeatures);
    }
    opfor_scenario_free(sc);
    free(sc);
    return rc ? OPFOR_EXIT_FAIL : OPFOR_EXIT_OK;
}

static int cmd_list(int json) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    if (!sc)
        return opfor_cli_fail("scenario: out of memory");
    opfor_json_t j;
    int bad = 0;
    if (json) {
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_key(&j, "scenarios");
        opfor_json_arr_begin(&j);
    }
    size_t nrs = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&nrs);
    for (size_t r = 0; r < nrs; r++)
        for (size_t i = 0; list[r].rs->builtin_name && list[r].rs->builtin_name(i); i++) {
            const opfor_ruleset_t *rs = list[r].rs;
            const char *name = rs->builtin_name(i);
            opfor_diag_t d;
            char buf[1024];
            size_t len = 0;
            const char *text = rs->builtin_text ? rs->builtin_text(name, &len) : NULL;
            int rc = text ? builtin_load(rs, name, text, len, sc, &d)
                          : opfor_diag_set(&d, OPFOR_ENOENT, 0, 0, "builtin:%s: no text", name);
            if (rc) {
                fprintf(stderr, "opfor: %s\n", opfor_diag_format(&d, buf, sizeof buf));
                bad = 1;
            }
            const char *mode = rc ? "?" : opfor_scenario_mode_name(sc, sc->mode);
            if (json) {
                opfor_json_obj_begin(&j);
                opfor_json_kv_str(&j, "name", name);
                opfor_json_kv_str(&j, "ruleset", rs->name);
                opfor_json_kv_str(&j, "mode", mode);
                opfor_json_kv_str(&j, "title", rc ? "" : sc->name);
                opfor_json_kv_bool(&j, "valid", rc == 0);
                opfor_json_obj_end(&j);
            } else {
                printf("%-22s %-12s %s\n", name, mode, rc ? "(invalid)" : sc->name);
            }
            opfor_scenario_free(sc);
        }
    if (json) {
        opfor_json_arr_end(&j);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    }
    free(sc);
    return bad ? OPFOR_EXIT_FAIL : OPFOR_EXIT_OK;
}

/* "N", "NE", ... nearest to a unit's facing. */
static const char *facing_name(const opfor_scenario_t *sc, opfor_vec_t v) {
    return opfor_vocab_name(opfor_compass_names,
                            opfor_compass_nearest((opfor_table_north_t)sc->table.north, v));
}

/* Writes "rifle, bayonet" style names of the bits set in bits. */
static const char *bit_names(const opfor_name_t *table, unsigned bits, char *buf, size_t size) {
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned b = 1; b && b <= 0x8000u; b <<= 1) {
        if (!(bits & b))
            continue;
        int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                         opfor_vocab_name(table, (int)b));
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
    }
    return buf;
}

/* The machine keys of unit u (XII.C-D) as one line into buf; 0 when it has none. */
static int machine_text(const opfor_scenario_t *sc, int u, char *buf, size_t n) {
    const opfor_unit_machine_t *m = &sc->machine[u];
    size_t len = 0;
    buf[0] = '\0';
#define ADD(...)                                                                                   \
    do {                                                                                           \
        int w_ = snprintf(buf + len, n - len, "%s", len ? ", " : "");                              \
        if (w_ > 0 && (size_t)w_ < n - len)                                                        \
            len += (size_t)w_;                                                                     \
        w_ = snprintf(buf + len, n - len, __VA_ARGS__);                                            \
        if (w_ > 0 && (size_t)w_ < n - len)                                                        \
            len += (size_t)w_;                                                                     \
    } while (0)
    if (m->payload)
        ADD("payload %d (fire out %d)", m->payload, m->fire_out);
    if (m->embarked_in)
        ADD("aboard %s", sc->units[m->embarked_in - 1].name);
    if (m->track)
        ADD("train on %s", sc->routes[m->track - 1].name);
    if (m->speed)
        ADD("speed %s", opfor_vocab_name(opfor_speed_names, m->speed));
    if (sc->units[u].type == OPFOR_UT_VEHICLE && !m->track)
        ADD("%s", opfor_vocab_name(opfor_drive_names, m->drive));
    if (sc->units[u].type == OPFOR_UT_AEROPLANE)
        ADD("%s", m->grounded ? "on the ground" : "airborne");
#undef ADD
    return len > 0;
}

static void show_text(const opfor_scenario_t *sc) {
    const opfor_table_t *t = &sc->table;
    char b1[256];
    printf("scenario   %s\n", sc->name);
    if (sc->description[0])
        printf("about      %s\n", sc->description);
    printf("ruleset    %s   mode %s   turn limit %d\n", sc->ruleset,
           opfor_scenario_mode_name(sc, sc->mode), sc->turn_limit);
    printf("table      %g x %g inches, north is the %s edge\n", (double)t->width, (double)t->depth,
           opfor_vocab_name(opfor_edge_names, t->north));
    printf("weather    level %d, wind %s\n", sc->weather.level,
           opfor_vocab_name(opfor_compass_names, sc->weather.wind));
    for (int i = 0; i < OPFOR_MAX_SIDES; i++) {
        const opfor_side_t *s = &sc->sides[i];
        printf("side %d     %s (%s)%s%s\n", i, s->name, s->player ? "player" : "opfor",
               s->edge >= 0 ? ", edge " : "",
               s->edge >= 0 ? opfor_vocab_name(opfor_edge_names, s->edge) : "");
    }
    if (sc->nroutes)
        printf("\nterrain (%d features, %d tracks and runways)\n", t->nfeatures, sc->nroutes);
    else
        printf("\nterrain (%d features)\n", t->nfeatures);
    for (int i = 0; i < t->nfeatures; i++) {
        const opfor_terrain_feature_t *f = &t->features[i];
        printf("  %2d %-12s %-20s %s of %2d points  cover %s, sight %s, move %s\n", i + 1,
               opfor_vocab_name(opfor_terrain_kind_names, f->kind), f->name[0] ? f->name : "-",
               f->shape == OPFOR_SHAPE_AREA ? "area" : "line", f->npts,
               opfor_vocab_name(opfor_cover_names, f->cover),
               opfor_vocab_name(opfor_sight_names, f->sight),
               opfor_vocab_name(opfor_move_class_names, f->move));
    }
    for (int i = 0; i < sc->nroutes; i++) {
        const opfor_route_t *r = &sc->routes[i];
        printf("  %2d %-12s %-20s line of %2d points  %.1f in long (XII.%s)\n",
               t->nfeatures + i + 1, r->kind == OPFOR_ROUTE_TRACK ? "track" : "runway",
               r->name[0] ? r->name : "-", r->npts, (double)r->length,
               r->kind == OPFOR_ROUTE_TRACK ? "C" : "D");
    }
    printf("\nunits (%d units, %d figures)\n", sc->nunits, sc->nfigures);
    for (int i = 0; i < sc->nunits; i++) {
        const opfor_unit_t *u = &sc->units[i];
        opfor_pt_t c = {0, 0};
        opfor_unit_centre(u, sc->figures, &c);
        printf("  %-23s %-10s %-12s %-9s %2d figure%s at [%.1f, %.1f] facing %s%s%s%s\n", u->name,
               sc->sides[u->side].name, opfor_vocab_name(opfor_unit_type_names, u->type),
               opfor_vocab_name(opfor_quality_names, u->quality), u->count,
               u->count == 1 ? " " : "s", (double)c.x, (double)c.y, facing_name(sc, u->facing),
               (u->flags & OPFOR_UNIT_GENERAL) ? ", general" : "",
               (u->flags & OPFOR_UNIT_LIMBERED) ? ", limbered" : "",
               (u->flags & OPFOR_UNIT_SELF_COMMANDING) ? ", self-commanding" : "");
        char mach[256];
        if (machine_text(sc, i, mach, sizeof mach))
            printf("      %s\n", mach);
        for (int k = u->first; k < u->first + u->count; k++) {
            const opfor_figure_t *f = &sc->figures[k];
            char b2[128];
            printf("      [%5.2f, %5.2f] %-9s %s%s%s%s%s\n", (double)f->pos.x, (double)f->pos.y,
                   opfor_vocab_name(opfor_quality_names, f->quality),
                   (f->flags & OPFOR_FIG_EQUIPMENT) ? "equipment; " : "",
                   (f->flags & OPFOR_FIG_MOUNTED) ? "mounted; " : "",
                   bit_names(opfor_weapon_names, f->weapons, b1, sizeof b1), f->skills ? "; " : "",
                   bit_names(opfor_skill_names, f->skills, b2, sizeof b2));
        }
    }
    if (sc->nobjectives)
        printf("\nobjectives\n");
    for (int i = 0; i < sc->nobjectives; i++) {
        const opfor_objective_t *o = &sc->objectives[i];
        printf("  %-20s at [%.1f, %.1f], radius %g, %d points\n", o->name, (double)o->pos.x,
               (double)o->pos.y, (double)o->radius, o->points);
    }
    const opfor_scenario_block_rule_t *br = sc->rules ? sc->rules->blocks : NULL;
    for (int b = 0; br && b < OPFOR_SCENARIO_MAX_BLOCKS && br[b].name; b++)
        if (sc->blocks[b])
            printf("\n%s block present (read by %s)\n", br[b].name,
                   br[b].reader ? br[b].reader : "the ruleset");
}

static void json_pt(opfor_json_t *j, const char *key, opfor_pt_t p) {
    opfor_json_key(j, key);
    opfor_json_arr_begin(j);
    opfor_json_num(j, p.x);
    opfor_json_num(j, p.y);
    opfor_json_arr_end(j);
}

static void json_bits(opfor_json_t *j, const char *key, const opfor_name_t *table, unsigned bits) {
    opfor_json_key(j, key);
    opfor_json_arr_begin(j);
    for (unsigned b = 1; b && b <= 0x8000u; b <<= 1)
        if (bits & b)
            opfor_json_str(j, opfor_vocab_name(table, (int)b));
    opfor_json_arr_end(j);
}

static void show_json(const opfor_scenario_t *sc) {
    const opfor_table_t *t = &sc->table;
    opfor_json_t j;
    opfor_json_init(&j, stdout);
    opfor_json_obj_begin(&j);
    opfor_json_kv_str(&j, "name", sc->name);
    opfor_json_kv_str(&j, "description", sc->description);
    opfor_json_kv_str(&j, "ruleset", sc->ruleset);
    opfor_json_kv_str(&j, "mode", opfor_scenario_mode_name(sc, sc->mode));
    opfor_json_kv_int(&j, "turn_limit", sc->turn_limit);
    opfor_json_key(&j, "table");
    opfor_json_obj_begin(&j);
    opfor_json_kv_num(&j, "width", t->width);
    opfor_json_kv_num(&j, "depth", t->depth);
    opfor_json_kv_str(&j, "north", opfor_vocab_name(opfor_edge_names, t->north));
    opfor_json_obj_end(&j);
    opfor_json_key(&j, "weather");
    opfor_json_obj_begin(&j);
    opfor_json_kv_int(&j, "level", sc->weather.level);
    opfor_json_kv_str(&j, "wind", opfor_vocab_name(opfor_compass_names, sc->weather.wind));
    opfor_json_obj_end(&j);
    opfor_json_key(&j, "sides");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < OPFOR_MAX_SIDES; i++) {
        const opfor_side_t *s = &sc->sides[i];
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", s->name);
        opfor_json_kv_bool(&j, "player", s->player);
        if (s->edge >= 0)
            opfor_json_kv_str(&j, "edge", opfor_vocab_name(opfor_edge_names, s->edge));
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_key(&j, "terrain");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < t->nfeatures; i++) {
        const opfor_terrain_feature_t *f = &t->features[i];
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", f->name);
        opfor_json_kv_str(&j, "kind", opfor_vocab_name(opfor_terrain_kind_names, f->kind));
        opfor_json_kv_str(&j, "shape", f->shape == OPFOR_SHAPE_AREA ? "area" : "line");
        if (f->shape == OPFOR_SHAPE_LINE)
            opfor_json_kv_num(&j, "width", f->width);
        opfor_json_kv_str(&j, "cover", opfor_vocab_name(opfor_cover_names, f->cover));
        opfor_json_kv_str(&j, "sight", opfor_vocab_name(opfor_sight_names, f->sight));
        opfor_json_kv_str(&j, "move", opfor_vocab_name(opfor_move_class_names, f->move));
        opfor_json_kv_bool(&j, "hides", (f->flags & OPFOR_TF_HIDES) != 0);
        opfor_json_kv_bool(&j, "closed_to_mounted", (f->flags & OPFOR_TF_NO_MOUNTED) != 0);
        opfor_json_key(&j, "points");
        opfor_json_arr_begin(&j);
        for (int k = 0; k < f->npts; k++) {
            opfor_json_arr_begin(&j);
            opfor_json_num(&j, f->pts[k].x);
            opfor_json_num(&j, f->pts[k].y);
            opfor_json_arr_end(&j);
        }
        opfor_json_arr_end(&j);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_key(&j, "routes");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < sc->nroutes; i++) {
        const opfor_route_t *r = &sc->routes[i];
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", r->name);
        opfor_json_kv_str(&j, "kind", r->kind == OPFOR_ROUTE_TRACK ? "track" : "runway");
        opfor_json_kv_num(&j, "length", r->length);
        opfor_json_key(&j, "points");
        opfor_json_arr_begin(&j);
        for (int k = 0; k < r->npts; k++) {
            opfor_json_arr_begin(&j);
            opfor_json_num(&j, r->pts[k].x);
            opfor_json_num(&j, r->pts[k].y);
            opfor_json_arr_end(&j);
        }
        opfor_json_arr_end(&j);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_key(&j, "units");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < sc->nunits; i++) {
        const opfor_unit_t *u = &sc->units[i];
        opfor_pt_t c = {0, 0};
        opfor_unit_centre(u, sc->figures, &c);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", u->name);
        opfor_json_kv_str(&j, "side", sc->sides[u->side].name);
        opfor_json_kv_str(&j, "type", opfor_vocab_name(opfor_unit_type_names, u->type));
        opfor_json_kv_str(&j, "quality", opfor_vocab_name(opfor_quality_names, u->quality));
        opfor_json_kv_str(&j, "status", opfor_vocab_name(opfor_status_names, u->status));
        opfor_json_kv_int(&j, "figures_count", u->count);
        json_pt(&j, "centre", c);
        json_pt(&j, "facing", u->facing);
        opfor_json_kv_str(&j, "facing_compass", facing_name(sc, u->facing));
        opfor_json_kv_bool(&j, "general", (u->flags & OPFOR_UNIT_GENERAL) != 0);
        opfor_json_kv_bool(&j, "limbered", (u->flags & OPFOR_UNIT_LIMBERED) != 0);
        opfor_json_kv_bool(&j, "self_commanding", (u->flags & OPFOR_UNIT_SELF_COMMANDING) != 0);
        opfor_json_kv_bool(&j, "off_table", (u->flags & OPFOR_UNIT_OFF_TABLE) != 0);
        const opfor_unit_machine_t *m = &sc->machine[i];
        if (m->payload) {
            opfor_json_kv_int(&j, "payload", m->payload);
            opfor_json_kv_int(&j, "fire_out", m->fire_out);
        }
        if (m->embarked_in)
            opfor_json_kv_str(&j, "embarked_in", sc->units[m->embarked_in - 1].name);
        if (m->track)
            opfor_json_kv_str(&j, "track", sc->routes[m->track - 1].name);
        if (m->speed)
            opfor_json_kv_str(&j, "speed", opfor_vocab_name(opfor_speed_names, m->speed));
        if (u->type == OPFOR_UT_VEHICLE && !m->track)
            opfor_json_kv_str(&j, "drive", opfor_vocab_name(opfor_drive_names, m->drive));
        if (u->type == OPFOR_UT_AEROPLANE)
            opfor_json_kv_bool(&j, "airborne", !m->grounded);
        opfor_json_key(&j, "figures");
        opfor_json_arr_begin(&j);
        for (int k = u->first; k < u->first + u->count; k++) {
            const opfor_figure_t *f = &sc->figures[k];
            opfor_json_obj_begin(&j);
            json_pt(&j, "pos", f->pos);
            opfor_json_kv_str(&j, "quality", opfor_vocab_name(opfor_quality_names, f->quality));
            json_bits(&j, "weapons", opfor_weapon_names, f->weapons);
            json_bits(&j, "skills", opfor_skill_names, f->skills);
            opfor_json_kv_bool(&j, "mounted", (f->flags & OPFOR_FIG_MOUNTED) != 0);
            opfor_json_kv_bool(&j, "equipment", (f->flags & OPFOR_FIG_EQUIPMENT) != 0);
            opfor_json_kv_bool(&j, "wounded", (f->flags & OPFOR_FIG_WOUNDED) != 0);
            opfor_json_obj_end(&j);
        }
        opfor_json_arr_end(&j);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_key(&j, "objectives");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < sc->nobjectives; i++) {
        const opfor_objective_t *o = &sc->objectives[i];
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", o->name);
        json_pt(&j, "position", o->pos);
        opfor_json_kv_num(&j, "radius", o->radius);
        opfor_json_kv_int(&j, "points", o->points);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    /* one yes/no per block the ruleset reads itself: present or not */
    const opfor_scenario_block_rule_t *br = sc->rules ? sc->rules->blocks : NULL;
    for (int b = 0; br && b < OPFOR_SCENARIO_MAX_BLOCKS && br[b].name; b++)
        opfor_json_kv_bool(&j, br[b].name, sc->blocks[b] != NULL);
    opfor_json_obj_end(&j);
    opfor_json_end(&j);
}

/* The help's description into buf: what a scenario holds, with the blocks of the ruleset files
 * are read for, and the built-in `show` shows by default. */
static const char *about_text(char *buf, size_t size) {
    const opfor_ruleset_t *rs = file_ruleset();
    const opfor_scenario_rules_t *r = rs ? rs->scenario : NULL;
    const opfor_scenario_block_rule_t *br = r ? r->blocks : NULL;
    const opfor_name_t *modes = r && r->modes ? r->modes : opfor_mode_neutral_names;
    const char *def = default_builtin();
    char held[256];
    size_t len = 0;
    int nb = 0;
    while (br && nb < OPFOR_SCENARIO_MAX_BLOCKS && br[nb].name)
        nb++;
    held[0] = '\0';
    for (int b = 0; b < nb && len < sizeof held; b++) {
        int w = br[b].mode >= 0 ? snprintf(held + len, sizeof held - len,
                                           "%s, in %s mode, a %s block", b + 1 == nb ? " and" : ",",
                                           opfor_vocab_name(modes, br[b].mode), br[b].name)
                                : snprintf(held + len, sizeof held - len, "%s a %s block",
                                           b + 1 == nb ? " and" : ",", br[b].name);
        len += w > 0 ? (size_t)w : 0;
    }
    char show[128];
    if (def)
        snprintf(show, sizeof show,
                 "(default\n               %s); anything else is read as a file.", def);
    else
        snprintf(show, sizeof show,
                 "(none is\n               registered); anything else is read as a file.");
    snprintf(buf, size,
             "Scenario files are YAML (docs/scenario-format.md): table, terrain, sides, units,\n"
             "generals%s%s.\n"
             "\n"
             "commands:\n"
             "  check FILE   parse and check FILE; prints FILE:LINE:COL: MESSAGE for the first\n"
             "               error and for each warning. Exit 0 valid, 1 invalid.\n"
             "  list         the built-in scenarios (name, mode, title)\n"
             "  show         summary of a scenario: table, terrain, sides, units (figure counts\n"
             "               and positions), objectives. NAME is a built-in scenario %s",
             nb ? ", objectives" : " and objectives", held, show);
    return buf;
}

static int cmd_show(const char *arg, int json) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    if (!sc)
        return opfor_cli_fail("scenario: out of memory");
    opfor_diag_t d;
    char buf[1024];
    int rc = load_any(arg, sc, &d);
    if (rc) {
        fprintf(stderr, "%s\n", opfor_diag_format(&d, buf, sizeof buf));
        free(sc);
        return OPFOR_EXIT_FAIL;
    }
    if (json) {
        show_json(sc);
    } else {
        print_warnings(stderr, sc);
        show_text(sc);
    }
    opfor_scenario_free(sc);
    free(sc);
    return OPFOR_EXIT_OK;
}

int opfor_cmd_scenario(int argc, char **argv) {
    scenario_args_t args = {{NULL, NULL, NULL}, 0};
    int json = 0, rc = 0;
    char about[1536];
    const opfor_cli_opt_t opts[] = {
        OPFOR_CLI_JSON_OPT(&json),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "scenario",
        .usage = "check FILE [--json]\n"
                 "       opfor scenario list [--json]\n"
                 "       opfor scenario show [NAME|FILE] [--json]",
        .about = about_text(about, sizeof about),
        .opts = opts,
        .positional = scenario_arg,
        .ud = &args,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    const char **pos = args.pos;
    int npos = args.n;
    if (npos == 0) {
        opfor_cli_usage(stderr, &spec);
        return opfor_cli_usage_error("scenario: missing command (allowed: check, list, show)");
    }
    const char *cmd = pos[0];
    if (strcmp(cmd, "check") == 0) {
        if (npos != 2)
            return opfor_cli_usage_error(npos < 2 ? "scenario check: missing FILE"
                                                  : "scenario check: takes one FILE");
        return cmd_check(pos[1], json);
    }
    if (strcmp(cmd, "list") == 0) {
        if (npos != 1)
            return opfor_cli_usage_error("scenario list: takes no arguments, found '%s'", pos[1]);
        return cmd_list(json);
    }
    if (strcmp(cmd, "show") == 0) {
        if (npos > 2)
            return opfor_cli_usage_error("scenario show: takes one NAME or FILE");
        const char *what = npos == 2 ? pos[1] : default_builtin();
        if (!what)
            return opfor_cli_usage_error("scenario show: no built-in scenario; give a FILE");
        return cmd_show(what, json);
    }
    return opfor_cli_usage_error("scenario: unknown command '%s' (allowed: check, list, show)",
                                 cmd);
}
