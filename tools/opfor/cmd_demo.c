/* tools/opfor/cmd_demo.c — `opfor demo`: a short tour of the calculator (what `make run`
 * shows).
 *
 * Four everyday questions a Viktoria! player asks the app (seed 000, V.B), each answered by
 * the real calculator and printed as `opfor calc` prints it, with the command to type and
 * one line on what the numbers mean. The meaning lines are built from the answers, so they
 * cannot drift from the model.
 */
#include <stdio.h>
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

/* One sentence on what the answer means, from its own numbers. */
static void meaning(FILE *f, int step, const opfor_viktoria_result_t *r) {
    char a[32], b[32];
    const opfor_viktoria_outcome_t *k = opfor_viktoria_result_outcome(r, "killed");
    const opfor_viktoria_outcome_t *w = opfor_viktoria_result_outcome(r, "wounded");
    switch (step) {
    case 0:
    case 1:
        fprintf(f, "  => each %s kills %s of the time and wounds %s, rolling real dice.\n",
                step == 0 ? "shot" : "attack", opfor_calc_pct(k->p_rendered, a, sizeof a),
                opfor_calc_pct(w->p_rendered, b, sizeof b));
        break;
    case 2: {
        const opfor_viktoria_named_roll_t *p = opfor_viktoria_result_roll(r, "pass");
        fprintf(f, "  => the unit holds %s of the time on 2D6; the model's exact chance is %s.\n",
                opfor_calc_pct(p->roll.p_rendered, a, sizeof a),
                opfor_calc_pct(p->roll.p_exact, b, sizeof b));
        break;
    }
    default: {
        const opfor_viktoria_distance_t *o = opfor_viktoria_result_distance(r, "move");
        const opfor_viktoria_distance_t *j = opfor_viktoria_result_distance(r, "adjusted");
        fprintf(f, "  => %g-%g inches in the open, but only %g-%g in the rough past the wall.\n",
                o->min, o->max, j->min, j->max);
        break;
    }
    }
}

int opfor_cmd_demo(int argc, char **argv) {
    int rc;
    const opfor_cli_opt_t opts[] = {{0}};
    const opfor_cli_spec_t spec = {
        .cmd = "demo",
        .about = "A short tour of the Viktoria! calculator: four questions a player asks the game\n"
                 "app, answered as `opfor calc viktoria` answers them.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    opfor_viktoria_model_t m;
    opfor_diag_t d;
    if (opfor_viktoria_model_default(&m, &d) != 0)
        return opfor_cli_fail("demo: built-in model: %s", d.msg);
    printf("opfor demo: the Viktoria! calculator, answering as the game app would.\n");
    for (size_t s = 0; s < NSTEPS; s++) {
        const demo_step_t *st = &STEPS[s];
        opfor_viktoria_req_t req;
        opfor_viktoria_result_t res;
        int id = opfor_viktoria_action_find(st->action);
        opfor_viktoria_req_init(&req, id);
        char cmd[256];
        int n = snprintf(cmd, sizeof cmd, "opfor calc viktoria %s", st->action);
        for (int i = 0; st->fields[i]; i += 2) {
            if (opfor_viktoria_req_set(&req, st->fields[i], st->fields[i + 1], &d) != 0)
                return opfor_cli_fail("demo: %s", d.msg);
            n += snprintf(cmd + n, sizeof cmd - (size_t)n, " --%s%s%s", st->fields[i],
                          st->fields[i + 1] ? " " : "", st->fields[i + 1] ? st->fields[i + 1] : "");
        }
        if (opfor_viktoria_calc(&m, &req, &res, &d) != 0)
            return opfor_cli_fail("demo: %s", d.msg);
        printf("\n%zu. %s\n   $ %s\n", s + 1, st->title, cmd);
        opfor_calc_print_text(stdout, &req, &res, 1);
        meaning(stdout, (int)s, &res);
    }
    return OPFOR_EXIT_OK;
}
