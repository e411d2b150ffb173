/* tools/opfor/cmd_calc.c — `opfor calc`: the Viktoria! calculator on the command line.
 *
 *   opfor calc viktoria ACTION [--FIELD VALUE ...] [--model FILE] [--json]
 *   opfor calc viktoria --list [--json]
 * Everything the app shows (seed 000, V.B) comes from rulesets/viktoria (calc.h); this file
 * only parses flags into a request and prints the result, so the daemon can share the same
 * tables. Exit 0 on success, 2 for a wrong ruleset, action, field or value, 1 when a model
 * file cannot be loaded.
 */
#include "cmd_calc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "game_rpc.h"
#include "json_out.h"
#include "opfor/viktoria/calc_list.h"

/* ------------------------------------------------------------------ text helpers */

const char *opfor_calc_pct(double p, char *buf, size_t size) {
    double pc = p * 100.0;
    if (pc > 0.0 && pc < 1.0)
        snprintf(buf, size, "%.2f%%", pc);
    else
        snprintf(buf, size, "%.1f%%", pc);
    return buf;
}

/* The CLI's list spells the class kind out; every other kind reads as calc.list gives it. */
static const char *kind_name(opfor_viktoria_field_kind_t k) {
    return k == OPFOR_VK_FK_CLASS ? "quality or transport" : opfor_viktoria_kind_name(k);
}

/* Dice text without the " inches" suffix: "2d6", "1d3+4". */
static const char *dice_text(const opfor_viktoria_distance_t *d, char *buf, size_t size) {
    opfor_dice_t x = d->dice;
    x.inches = 0;
    if (x.nterms == 1 && x.terms[0].count == 1 && x.terms[0].sides == 3 && x.bonus > 0)
        snprintf(buf, size, "%d plus 1d3", (int)x.bonus);
    else
        opfor_dice_format(&x, buf, size);
    return buf;
}

static const char *need_text(const opfor_viktoria_named_roll_t *r, char *buf, size_t size) {
    return opfor_roll_format(&r->roll, buf, size);
}

/* ------------------------------------------------------------------ text output */

static void print_fields(FILE *f, const opfor_viktoria_req_t *req) {
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(req->action);
    int n = 0;
    for (int i = 0; i < a->nfields; i++) {
        const opfor_viktoria_action_field_t *af = &a->fields[i];
        int v = req->v[af->id];
        /* Flags show only when set; unset optional fields not at all. */
        if ((af->kind == OPFOR_VK_FK_BOOL && v == 0) || v == OPFOR_VK_UNSET)
            continue;
        char val[64];
        opfor_viktoria_req_value(req, af->id, val, sizeof val);
        const opfor_viktoria_field_t *fd = opfor_viktoria_field_get(af->id);
        if (af->kind == OPFOR_VK_FK_BOOL)
            fprintf(f, "%s%s", n++ ? ", " : "", fd->name);
        else
            fprintf(f, "%s%s %s", n++ ? ", " : "", fd->name, val);
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

void opfor_calc_print_text(FILE *f, const opfor_viktoria_req_t *req,
                           const opfor_viktoria_result_t *res, int brief) {
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(res->action);
    char buf[160], pe[32], pr[32];
    if (!brief) {
        fprintf(f, "%s (Viktoria! %s): ", a->title, a->rules);
        print_fields(f, req);
        fputc('\n', f);
    }
    for (int i = 0; i < res->nrolls; i++) {
        const opfor_viktoria_named_roll_t *r = &res->rolls[i];
        need_text(r, buf, sizeof buf);
        /* The critical reads as the rule does: "6, then 6 kills". */
        if (r->roll.kind == OPFOR_ROLL_D6_THEN && strcmp(r->name, "critical") == 0)
            snprintf(buf, sizeof buf, "%d, then %d %s", r->roll.need, r->roll.need2, r->success);
        if (r->roll.error == 0.0)
            fprintf(f, "%s: %s (%s)\n", r->label, buf,
                    opfor_calc_pct(r->roll.p_rendered, pr, sizeof pr));
        else
            fprintf(f, "%s: %s (exact %s, as rolled %s)\n", r->label, buf,
                    opfor_calc_pct(r->roll.p_exact, pe, sizeof pe),
                    opfor_calc_pct(r->roll.p_rendered, pr, sizeof pr));
    }
    for (int i = 0; i < res->ntables; i++) {
        const opfor_viktoria_table_t *t = &res->tables[i];
        int len = fprintf(f, "%s (%s): ", t->label, t->dice);
        wrap_t w = {f, len, 0};
        for (int k = 0; k < t->n; k++) {
            const opfor_viktoria_entry_t *e = &t->e[k];
            char item[160], range[16], then[64] = "";
            if (e->lo == e->hi)
                snprintf(range, sizeof range, "%d", e->lo);
            else
                snprintf(range, sizeof range, "%d-%d", e->lo, e->hi);
            if (e->value != OPFOR_VK_UNSET && strcmp(t->name, "level") == 0)
                snprintf(then, sizeof then, " -> %d (%s)", e->value,
                         opfor_viktoria_level_title(e->value));
            else if (e->value != OPFOR_VK_UNSET && strcmp(t->name, "wind") == 0)
                snprintf(then, sizeof then, " -> %s",
                         opfor_vocab_name(opfor_compass_names, e->value));
            snprintf(item, sizeof item, "%s %s%s", range, e->text, then);
            wrap_item(&w, item);
        }
        fputc('\n', f);
    }
    for (int i = 0; i < res->ndists; i++) {
        const opfor_viktoria_distance_t *d = &res->dists[i];
        char dt[64];
        dice_text(d, dt, sizeof dt);
        if (d->num == d->den)
            fprintf(f, "%s: %s inches", d->label, dt);
        else
            fprintf(f, "%s: (%s) x %d/%d inches", d->label, dt, d->num, d->den);
        if (d->min == d->max)
            fprintf(f, " (%g in)\n", d->min);
        else
            fprintf(f, " (%g-%g in, mean %.3g)\n", d->min, d->max, d->mean);
    }
    if (res->noutcomes > 0) {
        int differ = 0;
        for (int i = 0; i < res->noutcomes; i++)
            if (fabs(res->outcomes[i].p_exact - res->outcomes[i].p_rendered) > 5e-4)
                differ = 1;
        int len = fprintf(f, "%s: ", differ ? "Outcome (exact / as rolled)" : "Outcome");
        wrap_t w = {f, len, 0};
        for (int i = 0; i < res->noutcomes; i++) {
            const opfor_viktoria_outcome_t *o = &res->outcomes[i];
            char item[160];
            if (differ)
                snprintf(item, sizeof item, "%s %s / %s", o->label,
                         opfor_calc_pct(o->p_exact, pe, sizeof pe),
                         opfor_calc_pct(o->p_rendered, pr, sizeof pr));
            else
                snprintf(item, sizeof item, "%s %s", o->label,
                         opfor_calc_pct(o->p_rendered, pr, sizeof pr));
            wrap_item(&w, item);
        }
        fputc('\n', f);
    }
    if (brief)
        return;
    if (res->nfacts > 0) {
        wrap_t w = {f, 0, 0};
        for (int i = 0; i < res->nfacts; i++) {
            const opfor_viktoria_fact_t *x = &res->facts[i];
            char item[160];
            if (x->text)
                snprintf(item, sizeof item, "%s: %s", x->label, x->text);
            else if (isinf(x->value))
                snprintf(item, sizeof item, "%s: no limit", x->label);
            else
                snprintf(item, sizeof item, "%s: %g%s%s", x->label, x->value, *x->unit ? " " : "",
                         x->unit);
            wrap_item(&w, item);
        }
        fputc('\n', f);
    }
    for (int i = 0; i < res->nnotes; i++)
        fprintf(f, "- %s\n", res->notes[i]);
}

/* ------------------------------------------------------------------ JSON output */

void opfor_calc_print_json(FILE *f, const opfor_viktoria_req_t *req,
                           const opfor_viktoria_result_t *res) {
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(res->action);
    opfor_json_t j;
    char buf[160];
    opfor_json_init(&j, f);
    opfor_json_obj_begin(&j);
    opfor_json_kv_str(&j, "ruleset", "viktoria");
    opfor_json_kv_str(&j, "action", a->name);
    opfor_json_kv_str(&j, "title", a->title);
    opfor_json_kv_str(&j, "rules", a->rules);
    opfor_json_key(&j, "fields");
    opfor_json_obj_begin(&j);
    for (int i = 0; i < a->nfields; i++) {
        const opfor_viktoria_action_field_t *af = &a->fields[i];
        const opfor_viktoria_field_t *fd = opfor_viktoria_field_get(af->id);
        int v = req->v[af->id];
        opfor_json_key(&j, fd->name);
        if (v == OPFOR_VK_UNSET)
            opfor_json_null(&j);
        else if (af->kind == OPFOR_VK_FK_BOOL)
            opfor_json_bool(&j, v);
        else if (v == OPFOR_VK_INCHES)
            opfor_json_num(&j, req->inches);
        else if (af->kind == OPFOR_VK_FK_INT)
            opfor_json_int(&j, v);
        else
            opfor_json_str(&j, opfor_viktoria_req_value(req, af->id, buf, sizeof buf));
    }
    opfor_json_obj_end(&j);
    opfor_json_key(&j, "rolls");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < res->nrolls; i++) {
        const opfor_viktoria_named_roll_t *r = &res->rolls[i];
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", r->name);
        opfor_json_kv_str(&j, "label", r->label);
        opfor_json_kv_str(&j, "dice", r->dice);
        opfor_json_kv_str(&j, "need", need_text(r, buf, sizeof buf));
        opfor_json_kv_str(&j, "success", r->success);
        opfor_json_kv_int(&j, "favours", r->favours);
        opfor_json_kv_num(&j, "p_exact", r->roll.p_exact);
        opfor_json_kv_num(&j, "p_rendered", r->roll.p_rendered);
        opfor_json_kv_num(&j, "error", r->roll.error);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_key(&j, "tables");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < res->ntables; i++) {
        const opfor_viktoria_table_t *t = &res->tables[i];
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", t->name);
        opfor_json_kv_str(&j, "label", t->label);
        opfor_json_kv_str(&j, "dice", t->dice);
        opfor_json_key(&j, "entries");
        opfor_json_arr_begin(&j);
        for (int k = 0; k < t->n; k++) {
            const opfor_viktoria_entry_t *e = &t->e[k];
            opfor_json_obj_begin(&j);
            opfor_json_kv_int(&j, "lo", e->lo);
            opfor_json_kv_int(&j, "hi", e->hi);
            opfor_json_kv_str(&j, "text", e->text);
            if (e->value != OPFOR_VK_UNSET && strcmp(t->name, "wind") == 0)
                opfor_json_kv_str(&j, "result", opfor_vocab_name(opfor_compass_names, e->value));
            else if (e->value != OPFOR_VK_UNSET)
                opfor_json_kv_int(&j, "result", e->value);
            opfor_json_kv_num(&j, "p", e->p);
            opfor_json_obj_end(&j);
        }
        opfor_json_arr_end(&j);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_key(&j, "distances");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < res->ndists; i++) {
        const opfor_viktoria_distance_t *d = &res->dists[i];
        opfor_dice_t x = d->dice;
        x.inches = 0;
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", d->name);
        opfor_json_kv_str(&j, "label", d->label);
        opfor_dice_format(&x, buf, sizeof buf);
        opfor_json_kv_str(&j, "dice", buf);
        opfor_json_kv_num(&j, "scale", (double)d->num / d->den);
        opfor_json_kv_num(&j, "min", d->min);
        opfor_json_kv_num(&j, "max", d->max);
        opfor_json_kv_num(&j, "mean", d->mean);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_key(&j, "outcomes");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < res->noutcomes; i++) {
        const opfor_viktoria_outcome_t *o = &res->outcomes[i];
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", o->name);
        opfor_json_kv_str(&j, "label", o->label);
        opfor_json_kv_num(&j, "p_exact", o->p_exact);
        opfor_json_kv_num(&j, "p_rendered", o->p_rendered);
        opfor_json_obj_end(&j);
    }
    opfor_json_arr_end(&j);
    opfor_json_key(&j, "facts");
    opfor_json_obj_begin(&j);
    for (int i = 0; i < res->nfacts; i++) {
        const opfor_viktoria_fact_t *x = &res->facts[i];
        opfor_json_key(&j, x->name);
        if (x->text)
            opfor_json_str(&j, x->text);
        else
            opfor_json_num(&j, x->value); /* +inf (no limit) is written as null */
    }
    opfor_json_obj_end(&j);
    opfor_json_key(&j, "notes");
    opfor_json_arr_begin(&j);
    for (int i = 0; i < res->nnotes; i++)
        opfor_json_str(&j, res->notes[i]);
    opfor_json_arr_end(&j);
    opfor_json_obj_end(&j);
    opfor_json_end(&j);
}

/* ------------------------------------------------------------------ --list, --help */

void opfor_calc_print_list_head(FILE *f) {
    fprintf(f, "Viktoria! calculator actions: opfor calc viktoria ACTION [--FIELD VALUE ...]\n");
}

void opfor_calc_print_list_action(FILE *f, const char *name, const char *title, const char *rules,
                                  const char *summary) {
    fprintf(f, "\n%s  %s (%s): %s\n", name, title, rules, summary);
}

void opfor_calc_print_list_field(FILE *f, const char *name, const char *allowed, const char *def) {
    fprintf(f, "  --%-15s %s [default %s]\n", name, allowed, def);
}

static void list_text(FILE *f, const opfor_viktoria_model_t *m) {
    char allowed[512], def[64];
    opfor_calc_print_list_head(f);
    for (int id = 0; id < OPFOR_VK_A_COUNT; id++) {
        const opfor_viktoria_action_t *a = opfor_viktoria_action_get(id);
        opfor_viktoria_req_t req;
        opfor_viktoria_req_init(&req, id);
        opfor_calc_print_list_action(f, a->name, a->title, a->rules, a->summary);
        for (int i = 0; i < a->nfields; i++) {
            const opfor_viktoria_action_field_t *af = &a->fields[i];
            const opfor_viktoria_field_t *fd = opfor_viktoria_field_get(af->id);
            opfor_viktoria_field_allowed(m, id, af->id, allowed, sizeof allowed);
            opfor_viktoria_req_value(&req, af->id, def, sizeof def);
            opfor_calc_print_list_field(f, fd->name, allowed, def);
        }
    }
}

static void list_json(FILE *f, const opfor_viktoria_model_t *m) {
    opfor_json_t j;
    char buf[512];
    opfor_json_init(&j, f);
    opfor_json_obj_begin(&j);
    opfor_json_kv_str(&j, "ruleset", "viktoria");
    opfor_json_key(&j, "actions");
    opfor_json_arr_begin(&j);
    for (int id = 0; id < OPFOR_VK_A_COUNT; id++) {
        const opfor_viktoria_action_t *a = opfor_viktoria_action_get(id);
        opfor_viktoria_req_t req;
        opfor_viktoria_req_init(&req, id);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "name", a->name);
        opfor_json_kv_str(&j, "title", a->title);
        opfor_json_kv_str(&j, "summary", a->summary);
        opfor_json_kv_str(&j, "rules", a->rules);
        opfor_json_key(&j, "fields");
        opfor_json_arr_begin(&j);
        for (int i = 0; i < a->nfields; i++) {
            const opfor_viktoria_action_field_t *af = &a->fields[i];
            const opfor_viktoria_field_t *fd = opfor_viktoria_field_get(af->id);
            opfor_json_obj_begin(&j);
            opfor_json_kv_str(&j, "name", fd->name);
            opfor_json_kv_str(&j, "label", fd->label);
            opfor_json_kv_str(&j, "kind", kind_name(af->kind));
            opfor_json_kv_str(&j, "allowed",
                              opfor_viktoria_field_allowed(m, id, af->id, buf, sizeof buf));
            opfor_json_kv_str(&j, "default",
                              opfor_viktoria_req_value(&req, af->id, buf, sizeof buf));
            const opfor_name_t *names = opfor_viktoria_field_names(af);
            if (names) {
                opfor_json_key(&j, "values");
                opfor_json_arr_begin(&j);
                for (const opfor_name_t *n = opfor_viktoria_name_next(names, names); n;
                     n = opfor_viktoria_name_next(names, n + 1))
                    opfor_json_str(&j, n->name);
                opfor_json_arr_end(&j);
            }
            if (af->kind == OPFOR_VK_FK_INT) {
                opfor_json_kv_int(&j, "min", fd->min);
                opfor_json_kv_int(&j, "max", fd->max);
            }
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
    fprintf(f,
            "usage: opfor calc RULESET ACTION [--FIELD VALUE ...] [--model FILE] [--json]\n"
            "       opfor calc RULESET --list [--json]\n"
            "       opfor calc RULESET ACTION --help\n\n"
            "The calculator the rules' game app provides: for an action and the fields the app\n"
            "asks for, the score needed on each roll (one D6, or 2D6 for morale, rally and\n"
            "off-board calls), the exact chance behind it, what a failed save does, deviation,\n"
            "movement distances and weather events.\n\n"
            "rulesets: viktoria\n\n"
            "options:\n"
            "  --list          list the actions with their fields and allowed values\n"
            "  --json          print one JSON document instead of text\n"
            "  --model FILE    use an edited model.yaml (a partial file overrides the defaults)\n"
            "  --connect ADDR  ask a daemon (opford) instead: unix:PATH, PATH or tcp://HOST:PORT\n"
            "  --FIELD VALUE   a field of the action (--FIELD=VALUE also works; flags such as\n"
            "                  --actor-mounted take no value, or =yes / =no)\n\n"
            "examples:\n"
            "  opfor calc viktoria fire_rifle --actor veteran --target soldier --cover soft "
            "--range 20\n"
            "  opfor calc viktoria attack_lance --actor soldier --charging\n"
            "  opfor calc viktoria check_morale --actor veteran --general --json\n"
            "  opfor calc viktoria advance --actor soldier --terrain rough --obstacles 1\n");
}

static void help_action(FILE *f, int id, const opfor_viktoria_model_t *m) {
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(id);
    opfor_viktoria_req_t req;
    char allowed[512], def[64];
    opfor_viktoria_req_init(&req, id);
    fprintf(f, "usage: opfor calc viktoria %s [--FIELD VALUE ...] [--model FILE] [--json]\n\n",
            a->name);
    fprintf(f, "%s (Viktoria! %s): %s\n\nfields:\n", a->title, a->rules, a->summary);
    if (a->nfields == 0)
        fprintf(f, "  (none)\n");
    for (int i = 0; i < a->nfields; i++) {
        const opfor_viktoria_action_field_t *af = &a->fields[i];
        const opfor_viktoria_field_t *fd = opfor_viktoria_field_get(af->id);
        opfor_viktoria_field_allowed(m, id, af->id, allowed, sizeof allowed);
        opfor_viktoria_req_value(&req, af->id, def, sizeof def);
        fprintf(f, "  --%-15s %s: %s [default %s]\n", fd->name, fd->label, allowed, def);
    }
}

/* ------------------------------------------------------------------ main */

static int report_diag(int rc, const opfor_diag_t *d, int exit_code) {
    char buf[900];
    opfor_diag_format(d, buf, sizeof buf);
    /* opfor_diag_format writes "<input>: " when no file is known; drop it for CLI errors. */
    const char *msg = strncmp(buf, "<input>: ", 9) == 0 ? buf + 9 : buf;
    (void)rc;
    /* "calc: " as in the usage errors, and as a daemon's answer reads under --connect */
    fprintf(stderr, "opfor: calc: %s\n", msg);
    return exit_code;
}

int opfor_cmd_calc(int argc, char **argv) {
    if (argc < 2)
        return opfor_cli_usage_error("calc: missing ruleset; allowed: viktoria "
                                     "(see `opfor calc --help`)");
    if (opfor_cli_is_help(argv[1])) {
        help_calc(stdout);
        return OPFOR_EXIT_OK;
    }
    if (strcmp(argv[1], "viktoria") != 0)
        return opfor_cli_usage_error("calc: unknown ruleset '%s'; allowed: viktoria", argv[1]);
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

    int json = 0, list = 0, help = 0, action = -1;
    const char *model_path = NULL;
    opfor_viktoria_req_t req;
    opfor_diag_t diag;
    char names[600];
    opfor_diag_clear(&diag);

    /* First pass: global options and the action (the first word that is not an option
     * or an option's value). Fields are parsed once the action is known. */
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--json") == 0)
            json = 1;
        else if (strcmp(s, "--list") == 0)
            list = 1;
        else if (opfor_cli_is_help(s))
            help = 1;
        else if (strcmp(s, "--model") == 0) {
            if (i + 1 >= argc)
                return opfor_cli_usage_error("calc: --model needs a file name");
            model_path = argv[++i];
        } else if (strncmp(s, "--model=", 8) == 0)
            model_path = s + 8;
        else if (strcmp(s, "--connect") == 0) /* only with --help, answered here */
            i++;
        else if (strncmp(s, "--connect=", 10) == 0)
            continue;
        else if (strncmp(s, "--", 2) == 0) {
            if (action < 0)
                return opfor_cli_usage_error("calc: '%s' before the action; write "
                                             "`opfor calc viktoria ACTION %s ...` (actions: %s)",
                                             s, s, opfor_viktoria_action_list(names, sizeof names));
            /* a field: skip its value if it takes one */
            if (!strchr(s, '=')) {
                int fid = opfor_viktoria_field_find(s + 2);
                const opfor_viktoria_action_field_t *af =
                    fid >= 0 ? opfor_viktoria_action_field(action, fid) : NULL;
                /* a known non-flag field takes the next word; so does an unknown one
                 * (reported below as unknown, not as a stray word) */
                if ((af && af->kind != OPFOR_VK_FK_BOOL) ||
                    (!af && i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0))
                    i++;
            }
        } else if (action < 0) {
            action = opfor_viktoria_action_find(s);
            if (action < 0)
                return opfor_cli_usage_error("calc: unknown action '%s'; allowed: %s", s,
                                             opfor_viktoria_action_list(names, sizeof names));
        } else {
            return opfor_cli_usage_error("calc: unexpected '%s' (a field's value? fields are "
                                         "written --FIELD VALUE)",
                                         s);
        }
    }

    opfor_viktoria_model_t model;
    int rc = model_path ? opfor_viktoria_model_load_file(model_path, &model, &diag)
                        : opfor_viktoria_model_default(&model, &diag);
    if (rc)
        return report_diag(rc, &diag, OPFOR_EXIT_FAIL);

    if (help) {
        if (action >= 0)
            help_action(stdout, action, &model);
        else
            help_calc(stdout);
        return OPFOR_EXIT_OK;
    }
    if (list) {
        if (json)
            list_json(stdout, &model);
        else
            list_text(stdout, &model);
        return OPFOR_EXIT_OK;
    }
    if (action < 0)
        return opfor_cli_usage_error("calc: missing action; allowed: %s (or --list)",
                                     opfor_viktoria_action_list(names, sizeof names));

    opfor_viktoria_req_init(&req, action);
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--json") == 0 || strcmp(s, "--list") == 0 || opfor_cli_is_help(s) ||
            strncmp(s, "--model=", 8) == 0)
            continue;
        if (strcmp(s, "--model") == 0) {
            i++;
            continue;
        }
        if (strncmp(s, "--", 2) != 0)
            continue; /* the action */
        char name[64];
        const char *value = NULL, *eq = strchr(s + 2, '=');
        size_t nlen = eq ? (size_t)(eq - (s + 2)) : strlen(s + 2);
        if (nlen >= sizeof name)
            nlen = sizeof name - 1;
        memcpy(name, s + 2, nlen);
        name[nlen] = 0;
        int fid = opfor_viktoria_field_find(name);
        int negate = 0;
        if (fid < 0 && strncmp(name, "no-", 3) == 0 && !eq) {
            fid = opfor_viktoria_field_find(name + 3);
            negate = fid >= 0;
        }
        const opfor_viktoria_action_field_t *af =
            fid >= 0 ? opfor_viktoria_action_field(action, fid) : NULL;
        /* --no-FIELD only turns a flag off; --no-actor veteran must not set the actor */
        if (negate && af && af->kind != OPFOR_VK_FK_BOOL)
            return opfor_cli_usage_error("calc: --%s: only flags take no- (--%s is not a flag; "
                                         "write --%s VALUE)",
                                         name, name + 3, name + 3);
        if (eq)
            value = eq + 1;
        else if (negate && af && af->kind == OPFOR_VK_FK_BOOL)
            value = "no";
        else if (!af && i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0)
            value = argv[++i]; /* an unknown field's value: req_set reports the field */
        else if (af && af->kind != OPFOR_VK_FK_BOOL) {
            if (i + 1 >= argc)
                return opfor_cli_usage_error(
                    "calc: --%s needs a value; allowed: %s", name,
                    opfor_viktoria_field_allowed(&model, action, fid, names, sizeof names));
            value = argv[++i];
        }
        rc = opfor_viktoria_req_set(&req, negate ? name + 3 : name, value, &diag);
        if (rc)
            return report_diag(rc, &diag, OPFOR_EXIT_USAGE);
    }

    opfor_viktoria_result_t res;
    rc = opfor_viktoria_calc(&model, &req, &res, &diag);
    if (rc)
        return report_diag(rc, &diag, OPFOR_EXIT_USAGE);
    if (json)
        opfor_calc_print_json(stdout, &req, &res);
    else
        opfor_calc_print_text(stdout, &req, &res, 0);
    return OPFOR_EXIT_OK;
}
