/* rulesets/viktoria/cli/cmd_demo.c — `opfor demo`: a short tour of the calculator (what
 * `make run` shows).
 *
 * Four everyday questions a Viktoria! player asks the app (seed 000, V.B), each answered by
 * the real calculator and printed as `opfor calc` prints it, with the command to type and
 * one line on what the numbers mean. The meaning lines are built from the answers, so they
 * cannot drift from the model. The calculator is asked through the shared interface
 * (opfor/ruleset_calc.h), as `opfor calc` asks it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_calc.h"

typedef struct demo_step {
    const char *title;      /* what is happening on the table */
    const char *action;     /* calculator action */
    const char *fields[12]; /* field, value pairs (value NULL for a flag), NULL-terminated */
} demo_step_t;

static const demo_step_t STEPS[] = {
    {"A veteran fires his rifle at a soldier in soft cover, 20 inches away",
     "fire_rifle",
     {"actor", "veteran", "target", "soldier", "cover", "soft", "range", "20", NULL}},
    {"Lancers charge home against steady infantry",
     "attack_lance",
     {"actor", "soldier", "target", "soldier", "charging", NULL, NULL}},
    {"A veteran unit has lost men; its general is close by",
     "check_morale",
     {"actor", "veteran", "general", NULL, NULL}},
    {"Soldiers advance through rough ground and over one wall",
     "advance",
     {"actor", "soldier", "terrain", "rough", "obstacles", "1", NULL}},
};
#define NSTEPS (sizeof STEPS / sizeof STEPS[0])
/* The ruleset whose calculator the tour asks. */
#define DEMO_RULESET "viktoria"

/* The chance of the distribution's outcome labelled label (0 when absent). */
static double dist_p(const opfor_calc_answer_t *a, const char *label) {
    for (int i = 0; i < a->ndist; i++)
        if (strcmp(a->dist[i].label, label) == 0)
            return a->dist[i].p;
    return 0;
}

/* The number under key in the entry of the ruleset's own list `list` whose "name" is name
 * (the first entry when name is NULL); 0 when absent. */
static double part_num(const opfor_calc_answer_t *a, const char *list, const char *name,
                       const char *key) {
    for (int i = 0; i >= 0 && i < a->nextra; i = opfor_calc_extra_next(a, i)) {
        if (strcmp(opfor_calc_extra_key(a, i), list) != 0)
            continue;
        for (int e = i + 1; e > 0 && e < a->nextra && a->extra[e].type != OPFOR_CALC_NODE_END;
             e = opfor_calc_extra_next(a, e)) {
            double num = 0;
            int match = name == NULL;
            for (int k = e + 1; k > 0 && k < a->nextra && a->extra[k].type != OPFOR_CALC_NODE_END;
                 k = opfor_calc_extra_next(a, k)) {
                if (name && !strcmp(opfor_calc_extra_key(a, k), "name"))
                    match = !strcmp(opfor_calc_extra_text(a, k), name);
                if (!strcmp(opfor_calc_extra_key(a, k), key))
                    num = a->extra[k].num;
            }
            if (match)
                return num;
        }
    }
    return 0;
}

/* One sentence on what the answer means, from its own numbers. */
static void meaning(FILE *f, int step, const opfor_calc_answer_t *r) {
    char a[32], b[32];
    switch (step) {
    case 0:
    case 1:
        fprintf(f, "  => each %s kills %s of the time and wounds %s, rolling real dice.\n",
                step == 0 ? "shot" : "attack", opfor_calc_pct(dist_p(r, "Killed"), a, sizeof a),
                opfor_calc_pct(dist_p(r, "Wounded"), b, sizeof b));
        break;
    case 2:
        fprintf(f, "  => the unit holds %s of the time on 2D6; the model's exact chance is %s.\n",
                opfor_calc_pct(part_num(r, "rolls", "pass", "p_rendered"), a, sizeof a),
                opfor_calc_pct(part_num(r, "rolls", "pass", "p_exact"), b, sizeof b));
        break;
    default:
        fprintf(f, "  => %g-%g inches in the open, but only %g-%g in the rough past the wall.\n",
                part_num(r, "distances", "move", "min"), part_num(r, "distances", "move", "max"),
                part_num(r, "distances", "adjusted", "min"),
                part_num(r, "distances", "adjusted", "max"));
        break;
    }
}

int opfor_vk_cmd_demo(int argc, char **argv);

int opfor_vk_cmd_demo(int argc, char **argv) {
    int prc;
    const opfor_cli_opt_t opts[] = {{0}};
    const opfor_cli_spec_t spec = {
        .cmd = "demo",
        .about = "A short tour of the Viktoria! calculator: four questions a player asks the game\n"
                 "app, answered as `opfor calc viktoria` answers them.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &prc))
        return prc;
    const opfor_ruleset_t *rs = opfor_ruleset_find(DEMO_RULESET);
    if (!rs || !rs->calc)
        return opfor_cli_fail("demo: no calculator registered as '%s'", DEMO_RULESET);
    const opfor_ruleset_calc_t *c = rs->calc;
    void *model = NULL;
    opfor_diag_t d;
    if (c->model_load && c->model_load(NULL, &model, &d) != 0)
        return opfor_cli_fail("demo: built-in model: %s", d.msg);
    opfor_calc_answer_t *ans = malloc(sizeof *ans);
    int rc = ans ? OPFOR_EXIT_OK : opfor_cli_fail("demo: out of memory");
    printf("opfor demo: the %s calculator, answering as the game app would.\n", rs->title);
    for (size_t s = 0; s < NSTEPS && rc == OPFOR_EXIT_OK; s++) {
        const demo_step_t *st = &STEPS[s];
        const opfor_form_t *form = opfor_form_find(c->actions, c->nactions, st->action);
        opfor_value_t vals[16];
        char cmd[256], msg[512];
        memset(vals, 0, sizeof vals);
        if (!form || form->nfields > 16) {
            rc = opfor_cli_fail("demo: no action '%s'", st->action);
            break;
        }
        int n = snprintf(cmd, sizeof cmd, "opfor calc %s %s", rs->name, st->action);
        for (int i = 0; st->fields[i] && rc == OPFOR_EXIT_OK; i += 2) {
            int fid = opfor_form_field(form, st->fields[i]);
            if (fid < 0 || opfor_calc_parse(c, model, form, fid, st->fields[i + 1], &vals[fid], msg,
                                            sizeof msg) != 0)
                rc = opfor_cli_fail("demo: %s: --%s", st->action, st->fields[i]);
            n += snprintf(cmd + n, sizeof cmd - (size_t)n, " --%s%s%s", st->fields[i],
                          st->fields[i + 1] ? " " : "", st->fields[i + 1] ? st->fields[i + 1] : "");
        }
        if (rc == OPFOR_EXIT_OK && opfor_calc_run(c, model, form, vals, NULL, ans, msg, sizeof msg))
            rc = opfor_cli_fail("demo: %s", msg);
        else if (rc == OPFOR_EXIT_OK && !ans->allowed)
            rc = opfor_cli_fail("demo: %s", ans->reason);
        if (rc != OPFOR_EXIT_OK)
            break;
        printf("\n%zu. %s\n   $ %s\n", s + 1, st->title, cmd);
        fputs(ans->text, stdout);
        meaning(stdout, (int)s, ans);
    }
    free(ans);
    if (c->model_free)
        c->model_free(model);
    return rc;
}
