/* rulesets/splendid/splendid_int.h — A Splendid Victory!'s internals shared by its files:
 * the calculator's descriptor and the small pieces of the rules it and the game stub use.
 */
#ifndef OPFOR_SPLENDID_INT_H
#define OPFOR_SPLENDID_INT_H

#include "opfor/ruleset.h"
#include "opfor/ruleset_calc.h"

extern const opfor_ruleset_calc_t opfor__sv_calc;

/* One rank's command (§Command, §Variable Command Quality): the range without variable
 * quality, and per quality (charismatic, inspiring, impersonal) the highest face of 1D6 that
 * gives it and its range, inches. */
typedef struct opfor_sv_command {
    int basic;
    int top[3];
    int range[3];
} opfor_sv_command_t;

/* The calculator's model (model.yaml): per quality (raw, regular, veteran) the fire and
 * charge scores needed (that or less) and the hand-to-hand bonus; the commander's and a
 * sub-commander's command; the readings a game master may switch. */
typedef struct opfor_sv_model {
    int fire_need[3];
    int charge_need[3];
    int melee_bonus[3];
    opfor_sv_command_t command[2];
    int open_order_may_charge;
    int command_stand_mounted;
} opfor_sv_model_t;

/* The numbers of model.yaml as compiled in, used when a caller passes no model. */
extern const opfor_sv_model_t opfor__sv_model_builtin;

/* model.yaml compiled in (path NULL), or an edited copy over it; released with
 * opfor__sv_model_free. 0, OPFOR_ENOENT or a parse error with diag (line and column). */
int opfor__sv_model_load(const char *path, void **model, opfor_diag_t *diag);
int opfor__sv_model_load_text(const char *text, const char *name, void **model, opfor_diag_t *diag);
void opfor__sv_model_free(void *model);

/* The breakpoint values of an army of `stands` stands (§The Determine Victory Phase): a
 * quarter, a third and a half, each rounded up. */
void opfor__sv_breakpoints(int stands, int *quarter, int *third, int *half);

#endif
