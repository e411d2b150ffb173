/* rulesets/duel/duel_session.c — the duel at a real table: one report, `play`, says which
 * card a side played (0: it guarded) and the die it rolled; the state moves on through the
 * rules' own apply (the card, then the die as the forced chance outcome), so a report is
 * refused exactly when the rules would refuse the move.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duel_int.h"

static const opfor_field_t PLAY_FIELDS[] = {
    {.name = "card",
     .label = "Card played",
     .help = "the card's value, 0 to guard (pass)",
     .type = OPFOR_FIELD_INT,
     .flags = OPFOR_FIELD_REQUIRED,
     .min = 0,
     .max = OPFOR_DUEL_VALUES},
    {.name = "dice",
     .label = "Die rolled",
     .help = "the 1D6 rolled for the attack (not for a guard)",
     .type = OPFOR_FIELD_DICE,
     .min = 1,
     .max = OPFOR_DUEL_FACES},
};

static const opfor_form_t REPORTS[] = {
    {.name = "play",
     .title = "Play",
     .help = "a side played a card (and rolled the die) or guarded",
     .section = "turn",
     .fields = PLAY_FIELDS,
     .nfields = 2},
};

static int refuse(opfor_session_result_t *out, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int refuse(opfor_session_result_t *out, int err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error, sizeof out->error, fmt, ap);
    va_end(ap);
    return err;
}

static void event(opfor_session_result_t *out, const char *kind, const char *text) {
    if (out->nevents >= OPFOR_SESSION_MAX_EVENTS)
        return;
    opfor_session_event_t *e = &out->events[out->nevents++];
    snprintf(e->kind, sizeof e->kind, "%s", kind);
    snprintf(e->text, sizeof e->text, "%s", text);
}

static int report(const void *ctx, void *state, int side, const opfor_form_t *form,
                  const opfor_value_t *vals, opfor_session_result_t *out) {
    if (!out)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    opfor_duel_state_t *s = state;
    if (!ctx || !s || form != &REPORTS[0] || !vals)
        return refuse(out, OPFOR_EINVAL, "report: not one of the duel's (play)");
    char msg[200];
    if (opfor_form_check(form, vals, msg, sizeof msg) < 0)
        return refuse(out, OPFOR_EINVAL, "%s", msg);
    const char *who = opfor_duel_side_name(side);
    if (side < 0 || side >= OPFOR_DUEL_SIDES)
        return refuse(out, OPFOR_EINVAL, "side: %d is not a side of the duel (0 or 1)", side);
    if (s->phase == OPFOR_DUEL_OVER)
        return refuse(out, OPFOR_EILLEGAL, "%s: the duel is over", who);
    if (s->phase != OPFOR_DUEL_DECIDE || s->turn != side)
        return refuse(out, OPFOR_EILLEGAL, "%s: not this side's turn (%s is to %s)", who,
                      opfor_duel_side_name(s->turn),
                      s->phase == OPFOR_DUEL_ROLLING ? "roll" : "play");
    int card = (int)vals[0].num;
    char text[200];
    if (card == 0) {
        if (vals[1].set)
            return refuse(out, OPFOR_EINVAL, "dice: %s guards: no die is rolled", who);
        opfor_action_t a = opfor_duel_pass();
        int rc = opfor_duel_ruleset.apply(ctx, s, &a);
        if (rc < 0)
            return refuse(out, rc, "%s: cannot guard now", who);
        snprintf(text, sizeof text, "%s guards (%u hp)", who, s->hp[side]);
        event(out, "guarded", text);
        return 0;
    }
    if (!opfor__duel_holds(s, side, card))
        return refuse(out, OPFOR_EILLEGAL, "card: %s holds no %d", who, card);
    if (!vals[1].set || !vals[1].text || vals[1].num != 1)
        return refuse(out, OPFOR_EINVAL, "dice: %s's attack needs the one die rolled (1..%d)", who,
                      OPFOR_DUEL_FACES);
    int face = atoi(vals[1].text);
    if (face < 1 || face > OPFOR_DUEL_FACES)
        return refuse(out, OPFOR_EINVAL, "dice: '%s' is not a die from 1 to %d", vals[1].text,
                      OPFOR_DUEL_FACES);
    opfor_action_t play = opfor_duel_play(card), die = opfor_duel_force(face);
    int rc = opfor_duel_ruleset.apply(ctx, s, &play);
    if (rc == 0)
        rc = opfor_duel_ruleset.apply(ctx, s, &die);
    if (rc < 0)
        return refuse(out, rc, "card: %s cannot play the %d now", who, card);
    snprintf(text, sizeof text, "%s attacks with the %d", who, card);
    event(out, "played", text);
    snprintf(text, sizeof text, "%s rolls %d: %u damage to %s (%u hp left)", who, face,
             s->last_damage, opfor_duel_side_name(1 - side), s->hp[1 - side]);
    event(out, "rolled", text);
    if (s->phase == OPFOR_DUEL_OVER) {
        snprintf(text, sizeof text, "the duel is over: %s",
                 s->winner == OPFOR_DUEL_DRAW ? "a draw" : opfor_duel_side_name(s->winner));
        event(out, "ended", text);
    }
    return 0;
}

const opfor_ruleset_session_t opfor__duel_session = {
    .reports = REPORTS,
    .nreports = 1,
    .actions = NULL,
    .nactions = 0,
    .report = report,
    .action = NULL,
};
