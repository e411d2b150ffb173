/* rulesets/splendid/session_values.c — which units each unit field of A Splendid Victory!'s
 * table reports (session.c) may name now, so that the table page offers only what the rules
 * allow (opfor/session.h `unit_values`, game.state's `values`; docs/splendid.md 11):
 *
 * - move, formation, charge: the reporting side's units for which the engine's legal list of
 *   its movement phase holds such an action (a manoeuvre with an allowance, a change of
 *   formation, a charge); a charge's target: the enemy units those charges reach;
 * - losses: every unit on the table, before the initiative or in a movement phase;
 * - reaction: the reporting side's unit that was charged, or that may intercept now;
 * - fire: the units whose declared fire waits for its dice, and the units they declared at;
 * - melee: the unit the hand-to-hand phase asks now, and the enemy units it touches (in a
 *   re-throw, the one it attacked).
 *
 * Each list is what the report's own checks accept, read from the state without changing it.
 */
#include <string.h>

#include "engine_int.h"
#include "session_int.h"

/* Adds unit i's name to names (once); the new count. */
static int add(const sv_ctx_t *c, int i, const char **names, int n, int max) {
    for (int k = 0; k < n; k++)
        if (names[k] == c->names[i])
            return n;
    if (n < max)
        names[n++] = c->names[i];
    return n;
}

/* move, formation, charge (unit or target): from the side's legal list in its movement
 * phase. */
static int from_legal(const sv_ctx_t *c, const sv_state_t *s, int side, int kind, int target,
                      const char **names, int max) {
    if (s->phase != SV_P_MOVE || sv_engine_current(s) != side)
        return 0;
    opfor_action_t acts[SV_MAX_ACTIONS];
    int na = sv_engine_legal(c, s, acts, SV_MAX_ACTIONS), n = 0;
    for (int i = 0; i < na; i++) {
        const opfor_action_t *a = &acts[i];
        if (a->kind != kind || a->unit >= s->nunits)
            continue;
        const sv_unit_t *u = &s->u[a->unit];
        if (kind == SV_A_MOVE && (u->form == SV_UNLIMBERED || sv_move_allow(u) <= 0.0f))
            continue; /* the move report's own refusals: it may pivot only */
        if (target) {
            if (a->target < s->nunits)
                n = add(c, a->target, names, n, max);
        } else {
            n = add(c, a->unit, names, n, max);
        }
    }
    return n;
}

static int losses(const sv_ctx_t *c, const sv_state_t *s, const char **names, int max) {
    int n = 0;
    if (s->phase != SV_P_INITIATIVE && s->phase != SV_P_MOVE)
        return 0;
    for (int i = 0; i < s->nunits; i++)
        if (sv_alive(&s->u[i]))
            n = add(c, i, names, n, max);
    return n;
}

static int reaction(const sv_ctx_t *c, const sv_state_t *s, int side, const char **names, int max) {
    int u = s->phase == SV_P_INTERCEPT ? s->cur : s->phase == SV_P_REACT ? s->charged : -1;
    if (u < 0 || u >= s->nunits || s->u[u].side != side || !sv_alive(&s->u[u]))
        return 0;
    return add(c, u, names, 0, max);
}

static int fire(const sv_ctx_t *c, const sv_state_t *s, int target, const char **names, int max) {
    int n = 0;
    if (s->phase != SV_P_FIRE_ROLL)
        return 0;
    for (int i = 0; i < s->nunits; i++) {
        const sv_unit_t *u = &s->u[i];
        if (!sv_alive(u) || u->target >= s->nunits)
            continue;
        if (!target)
            n = add(c, i, names, n, max);
        else if (sv_alive(&s->u[u->target]))
            n = add(c, u->target, names, n, max);
    }
    return n;
}

static int melee(const sv_ctx_t *c, const sv_state_t *s, int enemy, const char **names, int max) {
    if ((s->phase != SV_P_MELEE && s->phase != SV_P_RETHROW) || s->cur >= s->nunits ||
        !sv_alive(&s->u[s->cur]))
        return 0;
    const sv_unit_t *u = &s->u[s->cur];
    if (!enemy)
        return add(c, s->cur, names, 0, max);
    if (s->phase == SV_P_RETHROW)
        return u->target < s->nunits ? add(c, u->target, names, 0, max) : 0;
    int n = 0;
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].side != u->side && sv_alive(&s->u[i]) && sv_in_contact(c, u, &s->u[i]))
            n = add(c, i, names, n, max);
    return n;
}

int opfor__sv_unit_values(const void *ctx, const void *state, int side, const opfor_form_t *form,
                          int field, const char **names, int max) {
    const sv_ctx_t *c = ctx;
    const sv_state_t *s = state;
    if (!c || !s || !form || !names || field < 0 || field >= form->nfields || max <= 0)
        return -1;
    if (form->fields[field].type != OPFOR_FIELD_UNIT)
        return -1;
    if (s->phase == SV_P_OVER)
        return 0;
    const char *f = form->name, *fd = form->fields[field].name;
    const int second = strcmp(fd, "unit") != 0; /* target, enemy */
    if (strcmp(f, "move") == 0)
        return from_legal(c, s, side, SV_A_MOVE, 0, names, max);
    if (strcmp(f, "formation") == 0)
        return from_legal(c, s, side, SV_A_FORM, 0, names, max);
    if (strcmp(f, "charge") == 0)
        return from_legal(c, s, side, SV_A_CHARGE, second, names, max);
    if (strcmp(f, "losses") == 0)
        return losses(c, s, names, max);
    if (strcmp(f, "reaction") == 0)
        return reaction(c, s, side, names, max);
    if (strcmp(f, "fire") == 0)
        return fire(c, s, second, names, max);
    if (strcmp(f, "melee") == 0)
        return melee(c, s, second, names, max);
    return -1;
}
