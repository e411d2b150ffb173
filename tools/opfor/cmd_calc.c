/* tools/opfor/cmd_calc.c — `opfor calc`: any registered ruleset's calculator on the command
 * line.
 *
 *   opfor calc RULESET ACTION [--FIELD VALUE ...] [--rolled DICE] [--model FILE] [--json]
 *       [--out FILE]
 *   opfor calc RULESET --list [--json]
 * The ruleset is found by name in the registry; its calculator (opfor/ruleset_calc.h) says
 * which actions exist and which fields each takes, so the flags are read from the action's
 * form by one table-driven reader (a bare flag means yes, --no-FLAG no), and the answer is
 * printed from the shared answer schema. Exit 0 with an answer (a roll the rules forbid is one:
 * "Not allowed: REASON", or "allowed": false and "reason" with --json), 2 for a wrong ruleset,
 * action, field or value, 1 when a model file cannot be loaded.
 */
#include "cmd_calc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "game_rpc.h"
#include "json_out.h"

/* ------------------------------------------------------------------ helpers */

const char *opfor_calc_rulesets(char *buf, size_t n) {
    size_t count, len = 0;
    const opfor_ruleset_entry_t *e = opfor_ruleset_list(&count);
    if (!buf || n == 0)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        if (!e[i].rs->calc || len + 1 >= n)
            continue;
        int w = snprintf(buf + len, n - len, "%s%s", len ? ", " : "", e[i].name);
        if (w > 0)
            len += (size_t)w < n - len ? (size_t)w : n - len - 1;
    }
    return buf;
}

/* The default of field fd as people read it ("soldier", "24 in", "unset"). */
static const char *default_text(const opfor_field_t *fd, char *buf, size_t n) {
    opfor_value_t v;
    opfor_field_resolve(fd, NULL, &v);
    return opfor_field_text(fd, &v, buf, n);
}

/* The kind of a field as the CLI's list words it. */
static const char *kind_text(const opfor_field_t *fd) {
    return fd->kind_text ? fd->kind_text : fd->kind ? fd->kind : opfor_field_type_name(fd->type);
}

/* ------------------------------------------------------------------ text output */

static void print_fields(FILE *f, const opfor_form_t *form, const opfor_value_t *vals) {
    int n = 0;
    for (int i = 0; i < form->nfields; i++) {
        const opfor_field_t *fd = &form->fields[i];
        opfor_value_t v;
        /* Flags show only when set; unset optional fields not at all. */
        if (!opfor_field_resolve(fd, vals ? &vals[i] : NULL, &v) ||
            (fd->type == OPFOR_FIELD_BOOL && v.num == 0.0))
            continue;
        char val[64];
        if (fd->type == OPFOR_FIELD_BOOL)
            fprintf(f, "%s%s", n++ ? ", " : "", fd->name);
        else
            fprintf(f, "%s%s %s", n++ ? ", " : "", fd->name,
                    opfor_field_text(fd, &v, val, sizeof val));
    }
    if (n == 0)
        fprintf(f, "no fields");
}

/* Prints items "a; b; c" wrapped at about 96 columns with a 4-space continuation. */
typedef struct wrap {
    FILE *f;
    int col; /* current column */
    int n;   /* items on this logical line */
} wrap_t;

static void wrap_item(wrap_t *w, const char *s) {
    int len = (int)strlen(s);
    if (w->n > 0) {
        if (w->col + 2 + len > 96) {
            fputs(";\n    ", w->f);
            w->col = 4;
        } else {
            fputs("; ", w->f);
            w->col += 2;
        }
    }
    fputs(s, w->f);
    w->col += len;
    w->n++;
}

/* The generic lines, for a ruleset that does not word its answers itself. */
static void print_generic(FILE *f, const opfor_calc_answer_t *a) {
    char pc[32], item[96];
    if (!a->allowed) {
        fprintf(f, "Not allowed: %s\n", a->reason);
        return;
    }
    if (a->dice[0] && a->needed[0])
        fprintf(f, "Roll %s, needing %s (%s)\n", a->dice, a->needed,
                opfor_calc_pct(a->p, pc, sizeof pc));
    else if (a->dice[0])
        fprintf(f, "Roll %s\n", a->dice);
    else
        fprintf(f, "Chance: %s\n", opfor_calc_pct(a->p, pc, sizeof pc));
    if (a->has_expected)
        fprintf(f, "Expected: %.3g\n", a->expected);
    if (a->ndist > 0) {
        int len = fprintf(f, "Outcome: ");
        wrap_t w = {f, len, 0};
        for (int i = 0; i < a->ndist; i++) {
            snprintf(item, sizeof item, "%s %s", a->dist[i].label,
                     opfor_calc_pct(a->dist[i].p, pc, sizeof pc));
            wrap_item(&w, item);
        }
        fputc('\n', f);
    }
}

void opfor_calc_print_text(FILE *f, const opfor_ruleset_t *rs, const opfor_form_t *form,
                           const opfor_value_t *vals, const opfor_calc_answer_t *a) {
    fprintf(f, "%s (%s %s): ", a->title[0] ? a->title : form->title, rs->title,
            form->section ? form->section : "");
    print_fields(f, form, vals);
    fputc('\n', f);
    if (a->text[0] && a->allowed)
        fputs(a->text, f);
    else
        print_generic(f, a);
    if (a->nfacts > 0) {
        wrap_t w = {f, 0, 0};
        for (int i = 0; i < a->nfacts; i++) {
            const opfor_calc_fact_t *x = &a->facts[i];
            char item[160];
            if (x->text[0])
                snprintf(item, sizeof item, "%s: %s", x->label, x->text);
            else if (isinf(x->value))
                snprintf(item, sizeof item, "%s: no limit", x->label);
            else
                snprintf(item, sizeof item, "%s: %g%s%s", x->label, x->value, x->unit[0] ? " " : "",
                         x->unit);
            wrap_item(&w, item);
        }
        fputc('\n', f);
    }
    for (int i = 0; i < a->nnotes; i++)
        fprintf(f, "- %s\n", a->notes[i]);
    if (a->rolled)
        fprintf(f, "Rolled: %s\n", a->outcome);
}

/* ------------------------------------------------------------------ JSON output */

/* The extra tree from node i on (one value, or a whole map or array); returns the node after
 * it. */
static int json_extra(opfor_json_t *j, const opfor_calc_answer_t *a, int i) {
    const opfor_calc_node_t *x = &a->extra[i];
    switch (x->type) {
    case OPFOR_CALC_NODE_MAP:
    case OPFOR_CALC_NODE_ARRAY: {
        int map = x->type == OPFOR_CALC_NODE_MAP;
        map ? opfor_json_obj_begin(j) : opfor_json_arr_begin(j);
        int k = i + 1;
        while (k < a->nextra && a->extra[k].type != OPFOR_CALC_NODE_END) {
            if (map)
                opfor_json_key(j, opfor_calc_extra_key(a, k));
            k = json_extra(j, a, k);
        }
        map ? opfor_json_obj_end(j) : opfor_json_arr_end(j);
        return k + 1;
    }
    case OPFOR_CALC_NODE_STR:
        opfor_json_str(j, opfor_calc_extra_text(a, i));
        break;
    case OPFOR_CALC_NODE_INT:
        opfor_json_int(j, (int64_t)x->num);
        break;
    case OPFOR_CALC_NODE_NUM:
        opfor_json_num(j, x->num); /* +inf (no limit) is written as null */
        break;
    case OPFOR_CALC_NODE_BOOL:
        opfor_json_bool(j, x->num != 0.0);
        break;
    default:
        opfor_json_null(j);
        break;
    }
    return i + 1;
}

/* One field's value as the answer gives it: a name, a flag, a number, or null. */
static void json_value(opfor_json_t *j, const opfor_field_t *fd, const opfor_value_t *val) {
    opfor_value_t v;
    char buf[160];
    if (!opfor_field_resolve(fd, val, &v))
        opfor_json_null(j);
    else if (fd->type == OPFOR_FIELD_BOOL)
        opfor_json_bool(j, v.num != 0.0);
    else if (fd->type == OPFOR_FIELD_CHOICE || v.named)
        opfor_json_str(j, opfor_field_text(fd, &v, buf, sizeof buf));
    else if (fd->type == OPFOR_FIELD_INT)
        opfor_json_int(j, (int64_t)v.num);
    else if (fd->type == OPFOR_FIELD_NUM)
        opfor_json_num(j, v.num);
    else
        opfor_json_str(j, v.text ? v.text : "");
}

void opfor_calc_print_json(FILE *f, const opfor_ruleset_t *rs, const opfor_form_t *form,
                           const opfor_value_t *vals, const opfor_calc_answer_t *a) {
    opfor_json_t j;
    opfor_json_init(&j, f);
    opfor_json_obj_begin(&j);
    opfor_json_kv_str(&j, "ruleset", rs->name);
    opfor_json_kv_str(&j, "action", form->name);
    opfor_json_kv_str(&j, "title", a->title[0] ? a->title : form->title);
    opfor_json_kv_str(&j, "rules", form->section ? form->section : "");
    /* every answer says whether the rules allow the roll; a forbidden one says why */
    opfor_json_kv_bool(&j, "allowed", a->allowed);
    if (!a->allowed)
        opfor_json_kv_str(&j, "reason", a->reason);
    opfor_json_key(&j, "fields");
    opfor_json_obj_begin(&j);
    for (int i = 0; i < form->nfields; i++) {
        opfor_json_key(&j, form->fields[i].name);
        json_value(&j, &form->fields[i], vals ? &vals[i] : NULL);
    }
    opfor_json_obj_end(&j);
    for (int i = 0; i < a->nextra && opfor_calc_extra_next(a, i) >= 0;
         i = opfor_calc_extra_next(a, i)) {
        opfor_json_key(&j, opfor_calc_extra_key(a, i));
        json_extra(&j, a, i);
    }
    opfor_json_key(&j, "facts");
    opfor_json_obj_begin(&j);
    for (int i = 0; i < a->nfacts; i++) {
        const opfor_calc_fact_t *x = &a->facts[i];
        opfor_json_key(&j, x->name);
        if (x->text[0])
            opfor_json_str(&j, x->text);
        else
            opfor_json_num(&j, x->value); /* +inf (no limit) is written as null */
    }
    opfor_json_obj_end(&j);
    opfor_json_key(&j, "notes");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < a->nnotes; i++)
        opfor_json_str(&j, a->notes[i]);
    opfor_json_arr_end(&j);
    /* the shared schema's own keys */
    opfor_json_kv_str(&j, "dice", a->dice);
    opfor_json_kv_str(&j, "needed", a->needed);
    opfor_json_kv_num(&j, "p", a->p);
    opfor_json_key(&j, "expected");
    a->has_expected ? opfor_json_num(&j, a->expected) : opfor_json_null(&j);
    opfor_json_key(&j, "distribution");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < a->ndist; i++) {
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "label", a->dist[i].label);
        opfor_json_kv_num(&j, "value", a->dist[i].value);
        opfor_json_kv_num(&j, "p", a->dist[i].p);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_kv_str(&j, "text", a->text);
    if (a->rolled) {
        opfor_json_kv_bool(&j, "success", a->success);
        opfor_json_kv_str(&j, "outcome", a->outcome);
    }
    opfor_json_obj_end(&j);
    opfor_json_end(&j);
}

/* ------------------------------------------------------------------ --list, --help */

void opfor_calc_print_list_head(FILE *f, const opfor_ruleset_t *rs) {
    fprintf(f, "%s calculator actions: opfor calc %s ACTION [--FIELD VALUE ...]\n", rs->title,
            rs->name);
}

void opfor_calc_print_list_action(FILE *f, const char *name, const char *title, const char *rules,
                                  const char *summary) {
    fprintf(f, "\n%s  %s (%s): %s\n", name, title, rules, summary);
}

void opfor_calc_print_list_field(FILE *f, const char *name, const char *allowed, const char *def) {
    fprintf(f, "  --%-15s %s [default %s]\n", name, allowed, def);
}

static void list_text(FILE *f, const opfor_ruleset_t *rs, const void *model) {
    const opfor_ruleset_calc_t *c = rs->calc;
    char allowed[512], def[64];
    opfor_calc_print_list_head(f, rs);
    for (int id = 0; id < c->nactions; id++) {
        const opfor_form_t *a = &c->actions[id];
        opfor_calc_print_list_action(f, a->name, a->title, a->section ? a->section : "",
                                     a->help ? a->help : "");
        for (int i = 0; i < a->nfields; i++) {
            const opfor_field_t *fd = &a->fields[i];
            opfor_calc_print_list_field(f, fd->name,
                                        opfor_calc_allowed(c, model, a, i, allowed, sizeof allowed),
                                        default_text(fd, def, sizeof def));
        }
    }
}

static void list_json(FILE *f, const opfor_ruleset_t *rs, const void *model) {
    const opfor_ruleset_calc_t *c = rs->calc;
    opfor_json_t j;
    char buf[512];
    opfor_json_init(&j, f);
    opfor_json_obj_begin(&j);
    opfor_json_kv_str(&j, "ruleset", rs->name);
    opfor_json_key(&j, "actions");
    opfor_json_arr_begin(&j);
    for (int id = 0; id < c->nactions; id++) {
        const opfor_form_t *a = &c->actions[id];
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", a->name);
        opfor_json_kv_str(&j, "title", a->title);
        opfor_json_kv_str(&j, "summary", a->help ? a->help : "");
        opfor_json_kv_str(&j, "rules", a->section ? a->section : "");
        opfor_json_key(&j, "fields");
        opfor_json_arr_begin(&j);
        for (int i = 0; i < a->nfields; i++) {
            const opfor_field_t *fd = &a->fields[i];
            opfor_json_obj_begin(&j);
            opfor_json_kv_str(&j, "name", fd->name);
            opfor_json_kv_str(&j, "label", fd->label);
            opfor_json_kv_str(&j, "kind", kind_text(fd));
            opfor_json_kv_str(&j, "allowed", opfor_calc_allowed(c, model, a, i, buf, sizeof buf));
            opfor_json_kv_str(&j, "default", default_text(fd, buf, sizeof buf));
            if (fd->choices) {
                opfor_json_key(&j, "values");
                opfor_json_arr_begin(&j);
                for (int k = 0; fd->choices[k]; k++)
                    opfor_json_str(&j, fd->choices[k]);
                opfor_json_arr_end(&j);
            }
            if (fd->type == OPFOR_FIELD_INT) {
                opfor_json_kv_int(&j, "min", (int64_t)fd->min);
                opfor_json_kv_int(&j, "max", (int64_t)fd->max);
            }
            opfor_json_kv_str(&j, "type", opfor_field_type_name(fd->type));
            opfor_json_obj_end(&j);
        }
        opfor_json_arr_end(&j);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_obj_end(&j);
    opfor_json_end(&j);
}

static void help_calc(FILE *f) {
    size_t n;
    char names[256];
    const opfor_ruleset_entry_t *e = opfor_ruleset_list(&n);
    fprintf(f, "usage: opfor calc RULESET ACTION [--FIELD VALUE ...] [--model FILE] [--json]\n"
               "       opfor calc RULESET --list [--json]\n"
               "       opfor calc RULESET ACTION --help\n\n");
    for (size_t i = 0; i < n; i++)
        if (e[i].rs->calc && e[i].rs->calc->help)
            fprintf(f, "%s\n", e[i].rs->calc->help);
    fprintf(f,
            "rulesets: %s\n\n"
            "options:\n"
            "  --list          list the actions with their fields and allowed values\n"
            "  --json          print one JSON document instead of text\n"
            "  --model FILE    use an edited model.yaml (a partial file overrides the defaults)\n"
            "  --rolled DICE   the dice rolled at the table (3,4): says what the roll did\n"
            "  --out FILE      write the answer as a file, for actions that make one (an army's\n"
            "                  units for a scenario)\n"
            "  --connect ADDR  ask a daemon (opford) instead: unix:PATH, PATH or tcp://HOST:PORT\n"
            "  --FIELD VALUE   a field of the action (--FIELD=VALUE also works; flags such as\n"
            "                  --actor-mounted take no value, or =yes / =no)\n\n"
            "examples:\n",
            opfor_calc_rulesets(names, sizeof names));
    for (size_t i = 0; i < n; i++)
        if (e[i].rs->calc && e[i].rs->calc->examples)
            fputs(e[i].rs->calc->examples, f);
}

static void help_action(FILE *f, const opfor_ruleset_t *rs, const opfor_form_t *a,
                        const void *model) {
    char allowed[512], def[64];
    fprintf(f, "usage: opfor calc %s %s [--FIELD VALUE ...] [--model FILE] [--json]\n\n", rs->name,
            a->name);
    fprintf(f, "%s (%s %s): %s\n\nfields:\n", a->title, rs->title, a->section ? a->section : "",
            a->help ? a->help : "");
    if (a->nfields == 0)
        fprintf(f, "  (none)\n");
    for (int i = 0; i < a->nfields; i++) {
        const opfor_field_t *fd = &a->fields[i];
        fprintf(f, "  --%-15s %s: %s [default %s]\n", fd->name, fd->label,
                opfor_calc_allowed(rs->calc, model, a, i, allowed, sizeof allowed),
                default_text(fd, def, sizeof def));
    }
}

/* ------------------------------------------------------------------ main */

static int report_diag(const opfor_diag_t *d, int exit_code) {
    char buf[900];
    opfor_diag_format(d, buf, sizeof buf);
    /* opfor_diag_format writes "<input>: " when no file is known; drop it for CLI errors. */
    const char *msg = strncmp(buf, "<input>: ", 9) == 0 ? buf + 9 : buf;
    /* "calc: " as in the usage errors, and as a daemon's answer reads under --connect */
    fprintf(stderr, "opfor: calc: %s\n", msg);
    return exit_code;
}

/* --out FILE: the action's answer as a file (the calculator's export_file hook). 0, or an
 * exit code after saying why. */
static int write_out(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                     const opfor_value_t *vals, const char *rolled, const char *path) {
    enum { MAX = 256 * 1024 };
    char msg[600];
    if (!c->export_file)
        return opfor_cli_usage_error("calc: --out: %s writes no file", form->name);
    char *buf = malloc(MAX);
    if (!buf)
        return opfor_cli_fail("calc: out of memory");
    msg[0] = '\0';
    int len = c->export_file(model, form, vals, rolled, buf, MAX, msg, sizeof msg);
    int rc = 0;
    if (len < 0)
        rc = len == OPFOR_ENOTSUP || len == OPFOR_EINVAL
                 ? opfor_cli_usage_error("calc: %s", msg[0] ? msg : opfor_strerror(len))
                 : opfor_cli_fail("calc: %s", msg[0] ? msg : opfor_strerror(len));
    else {
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(buf, 1, (size_t)len, f) != (size_t)len)
            rc = opfor_cli_fail("calc: %s: cannot write", path);
        if (f && fclose(f) != 0 && rc == 0)
            rc = opfor_cli_fail("calc: %s: cannot write", path);
    }
    free(buf);
    return rc;
}

/* The options every action takes besides its fields; 1 when argv[*i] is one (and its value,
 * if any, is skipped). */
static int is_option(int argc, char **argv, int *i) {
    const char *s = argv[*i];
    if (!strcmp(s, "--json") || !strcmp(s, "--list") || opfor_cli_is_help(s) ||
        !strncmp(s, "--model=", 8) || !strncmp(s, "--rolled=", 9) ||
        !strncmp(s, "--connect=", 10) || !strncmp(s, "--out=", 6))
        return 1;
    if (!strcmp(s, "--model") || !strcmp(s, "--rolled") || !strcmp(s, "--connect") ||
        !strcmp(s, "--out")) {
        if (*i + 1 < argc)
            (*i)++;
        return 1;
    }
    return 0;
}

/* Reads the fields of form from argv into vals (one per field, in field order). 0, or an exit
 * code after saying what is wrong. */
static int read_fields(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                       int argc, char **argv, opfor_value_t *vals) {
    char msg[600], names[600];
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (is_option(argc, argv, &i) || strncmp(s, "--", 2) != 0)
            continue; /* an option, or the action */
        char name[64];
        const char *value = NULL, *eq = strchr(s + 2, '=');
        size_t nlen = eq ? (size_t)(eq - (s + 2)) : strlen(s + 2);
        if (nlen >= sizeof name)
            nlen = sizeof name - 1;
        memcpy(name, s + 2, nlen);
        name[nlen] = 0;
        int fid = opfor_form_field(form, name), negate = 0;
        if (fid < 0 && !eq && strncmp(name, "no-", 3) == 0 &&
            (opfor_form_field(form, name + 3) >= 0 || opfor_calc_field_anywhere(c, name + 3))) {
            negate = 1;
            fid = opfor_form_field(form, name + 3);
        }
        const char *fname = negate ? name + 3 : name;
        if (fid < 0) {
            const opfor_field_t *other = opfor_calc_field_anywhere(c, fname);
            if (other)
                return opfor_cli_usage_error(
                    "calc: %s has no field --%s; it takes: %s", form->name, other->name,
                    opfor_calc_field_list(form, "--", names, sizeof names));
            return opfor_cli_usage_error("calc: unknown field --%s; %s takes: %s", fname,
                                         form->name,
                                         opfor_calc_field_list(form, "--", names, sizeof names));
        }
        const opfor_field_t *fd = &form->fields[fid];
        /* --no-FIELD only turns a flag off; --no-actor veteran must not set the actor */
        if (negate && fd->type != OPFOR_FIELD_BOOL)
            return opfor_cli_usage_error("calc: --%s: only flags take no- (--%s is not a flag; "
                                         "write --%s VALUE)",
                                         name, name + 3, name + 3);
        if (eq)
            value = eq + 1;
        else if (negate)
            value = "no";
        else if (fd->type != OPFOR_FIELD_BOOL) {
            if (i + 1 >= argc)
                return opfor_cli_usage_error(
                    "calc: --%s needs a value; allowed: %s", name,
                    opfor_calc_allowed(c, model, form, fid, names, sizeof names));
            value = argv[++i];
        }
        if (opfor_calc_parse(c, model, form, fid, value, &vals[fid], msg, sizeof msg) != 0)
            return opfor_cli_usage_error("calc: %s", msg);
    }
    return 0;
}

int opfor_cmd_calc(int argc, char **argv) {
    char names[600];
    if (argc < 2)
        return opfor_cli_usage_error("calc: missing ruleset; allowed: %s "
                                     "(see `opfor calc --help`)",
                                     opfor_calc_rulesets(names, sizeof names));
    if (opfor_cli_is_help(argv[1])) {
        help_calc(stdout);
        return OPFOR_EXIT_OK;
    }
    const opfor_ruleset_t *rs = opfor_ruleset_find(argv[1]);
    if (!rs || !rs->calc)
        return opfor_cli_usage_error("calc: unknown ruleset '%s'; allowed: %s", argv[1],
                                     opfor_calc_rulesets(names, sizeof names));
    const opfor_ruleset_calc_t *c = rs->calc;
    /* ask a daemon instead (cmd_calc_remote.c); --help is always answered here */
    int remote = 0;
    for (int i = 2; i < argc; i++) {
        if (opfor_cli_is_help(argv[i]))
            break;
        if (strncmp(argv[i], "--connect", 9) == 0 && (argv[i][9] == 0 || argv[i][9] == '='))
            remote = 1;
        if (i == argc - 1 && remote)
            return opfor__calc_remote(argc, argv);
    }

    int json = 0, list = 0, help = 0;
    const opfor_form_t *form = NULL;
    const char *model_path = NULL, *rolled = NULL, *out_path = NULL;
    opfor_diag_t diag;
    opfor_diag_clear(&diag);

    /* First pass: global options and the action (the first word that is not an option
     * or an option's value). Fields are read once the action is known. */
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--json") == 0)
            json = 1;
        else if (strcmp(s, "--list") == 0)
            list = 1;
        else if (opfor_cli_is_help(s))
            help = 1;
        else if (strcmp(s, "--model") == 0 || strcmp(s, "--rolled") == 0) {
            if (i + 1 >= argc)
                return opfor_cli_usage_error("calc: %s needs a %s", s,
                                             s[2] == 'm' ? "file name" : "value such as 3,5");
            *(s[2] == 'm' ? &model_path : &rolled) = argv[++i];
        } else if (strncmp(s, "--model=", 8) == 0)
            model_path = s + 8;
        else if (strncmp(s, "--rolled=", 9) == 0)
            rolled = s + 9;
        else if (strcmp(s, "--out") == 0) {
            if (i + 1 >= argc)
                return opfor_cli_usage_error("calc: --out needs a file name");
            out_path = argv[++i];
        } else if (strncmp(s, "--out=", 6) == 0)
            out_path = s + 6;
        else if (strcmp(s, "--connect") == 0) /* only with --help, answered here */
            i++;
        else if (strncmp(s, "--connect=", 10) == 0)
            continue;
        else if (strncmp(s, "--", 2) == 0) {
            if (!form)
                return opfor_cli_usage_error("calc: '%s' before the action; write "
                                             "`opfor calc %s ACTION %s ...` (actions: %s)",
                                             s, rs->name, s,
                                             opfor_calc_action_list(c, names, sizeof names));
            /* a field: skip its value if it takes one */
            if (!strchr(s, '=')) {
                int fid = opfor_form_field(form, s + 2);
                /* a known non-flag field takes the next word; so does an unknown one
                 * (reported below as unknown, not as a stray word) */
                if ((fid >= 0 && form->fields[fid].type != OPFOR_FIELD_BOOL) ||
                    (fid < 0 && i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0))
                    i++;
            }
        } else if (!form) {
            form = opfor_form_find(c->actions, c->nactions, s);
            if (!form)
                return opfor_cli_usage_error("calc: unknown action '%s'; allowed: %s", s,
                                             opfor_calc_action_list(c, names, sizeof names));
        } else {
            return opfor_cli_usage_error("calc: unexpected '%s' (a field's value? fields are "
                                         "written --FIELD VALUE)",
                                         s);
        }
    }

    void *model = NULL;
    if (c->model_load) {
        int rc = c->model_load(model_path, &model, &diag);
        if (rc)
            return report_diag(&diag, OPFOR_EXIT_FAIL);
    } else if (model_path) {
        return opfor_cli_usage_error("calc: %s has no model file to replace", rs->name);
    }

    int rc = OPFOR_EXIT_OK;
    opfor_value_t *vals = NULL;
    opfor_calc_answer_t *ans = NULL;
    if (help) {
        if (form)
            help_action(stdout, rs, form, model);
        else
            help_calc(stdout);
    } else if (list) {
        if (json)
            list_json(stdout, rs, model);
        else
            list_text(stdout, rs, model);
    } else if (!form) {
        rc = opfor_cli_usage_error("calc: missing action; allowed: %s (or --list)",
                                   opfor_calc_action_list(c, names, sizeof names));
    } else {
        char msg[600];
        vals = calloc((size_t)form->nfields + 1, sizeof *vals);
        ans = malloc(sizeof *ans);
        if (!vals || !ans)
            rc = opfor_cli_fail("calc: out of memory");
        else if ((rc = read_fields(c, model, form, argc, argv, vals)) != 0)
            ;
        else if (opfor_calc_run(c, model, form, vals, rolled, ans, msg, sizeof msg) != 0)
            rc = opfor_cli_usage_error("calc: %s", msg);
        else if (out_path && ans->allowed &&
                 (rc = write_out(c, model, form, vals, rolled, out_path)) != 0)
            ;
        else if (json) /* a roll the rules forbid is an answer too: "allowed": false */
            opfor_calc_print_json(stdout, rs, form, vals, ans);
        else {
            opfor_calc_print_text(stdout, rs, form, vals, ans);
            if (out_path && ans->allowed)
                printf("Written: %s\n", out_path);
        }
    }
    free(vals);
    free(ans);
    if (c->model_free)
        c->model_free(model);
    return rc;
}
