/* rulesets/splendid/ai_table.c — the behaviour-table bot "table": a written rule card for A
 * Splendid Victory!, read top to bottom, the first rule that names a listed action wins
 * (docs/splendid.md 10.3):
 *
 *   Fire (§The Firing Phase): fire at the enemy you throw the most dice at; prefer one whose
 *     odd green marker a hit turns into a lost stand; hold only when nothing is in range.
 *   Join in (§Can a unit ... join in): join when your hand-to-hand dice match the enemy's,
 *     else try to hold back.
 *   Attack (§How do you resolve hand-to-hand combat?): the enemy you outflank, else the one you
 *     hit hardest.  Re-throw (§Re-throws): when the dice fell below their mean.
 *   Charged (§Reactions 1-7): foot charged by horse forms a hasty defensive block (4); charged
 *     from behind, about-face (5); muskets not yet fired give defensive fire (6); open order
 *     foot outmatched evades (3); horse outmatched recoils (2); else stand.
 *   Manoeuvre (§The Movement Phase), by priority:
 *     9 a road column near the enemy changes formation (it must);
 *     8 foot within reach of enemy horse forms a defensive block (§Defensive Block Formation);
 *     7 charge when the test is good and the fight favours you (§How does a unit charge?);
 *     6 guns unlimber facing the enemy in range (§How does artillery manoeuvre?);
 *     5 a defensive block with no horse near re-forms; dragoons dismount near the enemy;
 *     3 advance to your distance: shot to musket range, horse just outside it, pike to contact,
 *       guns to long range, commanders behind the line;
 *     1 end the phase.
 */
#include <string.h>

#include "ai_int.h"

/* The rule tier of a manoeuvre-phase action (0: the card never orders it). */
static int move_tier(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a, double sc,
                     const char **rule) {
    const sv_unit_t *u = a->unit < s->nunits ? &s->u[a->unit] : NULL;
    switch (a->kind) {
    case SV_A_DONE:
        *rule = "end the phase";
        return 1;
    case SV_A_FORM: {
        float de, dh;
        sv_ai_nearest_enemy(c, s, u, &de);
        int horse_near = sv_ai_nearest_horse(c, s, u, &dh) >= 0 && dh <= 10.0f;
        if (u->form == SV_COLUMN && de < 24.0f && (a->sub == SV_LINE || a->sub == SV_BLOCK)) {
            *rule = "a column near the enemy deploys";
            return 9;
        }
        if (a->sub == SV_DEFBLOCK && horse_near && sv_is_foot(u)) {
            *rule = "defensive block against horse";
            return 8;
        }
        if (u->form == SV_DEFBLOCK && !horse_near &&
            a->sub == (sv_pikes(u) > 0 ? SV_BLOCK : SV_LINE)) {
            *rule = "no horse near: re-form";
            return 5;
        }
        return 0;
    }
    case SV_A_CHARGE:
        if (sc > 0.0 && sv_ai_p_charge(c, s, a->unit) >= 0.5) {
            *rule = "charge: good test, good fight";
            return 7;
        }
        return 0;
    case SV_A_LIMBER:
        if (a->sub == 0 && sc > 0.4) {
            *rule = "guns unlimber in range";
            return 6;
        }
        if (a->sub == 1 && sc > 0.1) {
            *rule = "guns limber up to advance";
            return 3;
        }
        return 0;
    case SV_A_MOUNT:
        if (sc > 0.1) {
            *rule = a->sub ? "dragoons mount to ride" : "dragoons dismount to fire";
            return 5;
        }
        return 0;
    case SV_A_MOVE:
        if (a->sub == 1)
            return 0; /* the card never doubles */
        if (sc > 0.08) {
            *rule = "advance to fighting distance";
            return 3;
        }
        return 0;
    default:
        return 0;
    }
}

int sv_ai_table_pick(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *acts, int n,
                     const char **rule) {
    const char *r = "the only order";
    int best = 0;
    if (n <= 1) {
        if (rule)
            *rule = r;
        return 0;
    }
    if (s->phase == SV_P_MOVE) {
        int bt = -1;
        double bs = -1e30;
        for (int i = 0; i < n; i++) {
            const char *why = NULL;
            double sc = sv_ai_score(c, s, &acts[i], NULL);
            int t = move_tier(c, s, &acts[i], sc, &why);
            if (t > bt || (t == bt && sc > bs)) {
                bt = t;
                bs = sc;
                best = i;
                r = why ? why : "end the phase";
            }
        }
    } else if (s->phase == SV_P_REACT) {
        static const int order[] = {SV_A_HASTY, SV_A_ABOUTFACE, SV_A_DEFFIRE, SV_A_EVADE,
                                    SV_A_RECOIL};
        static const char *const why[] = {"defensive block against horse", "about-face",
                                          "defensive fire", "evade", "recoil"};
        const sv_unit_t *t = &s->u[s->charged], *ch = &s->u[s->charger];
        int horse = sv_is_mounted(c, ch);
        double mine = sv_ai_melee_hits(c, t, ch, 0), theirs = sv_ai_melee_hits(c, ch, t, 0);
        r = "stand and fight";
        for (int k = 0; k < 5; k++) {
            int ok = (order[k] == SV_A_HASTY && horse) ||
                     (order[k] == SV_A_ABOUTFACE && sv_ai_from_behind(t, ch)) ||
                     order[k] == SV_A_DEFFIRE ||
                     ((order[k] == SV_A_EVADE || order[k] == SV_A_RECOIL) && theirs > mine);
            for (int i = 0; ok && i < n; i++)
                if (acts[i].kind == order[k]) {
                    if (rule)
                        *rule = why[k];
                    return i;
                }
        }
    } else {
        double bs = -1e30;
        for (int i = 0; i < n; i++) {
            double sc = sv_ai_score(c, s, &acts[i], NULL);
            /* an attack on one unit (a split attack names none: target none, sub 1; keep and
               re-throw neither) */
            if (s->phase == SV_P_MELEE && acts[i].kind == SV_A_ATTACK &&
                acts[i].target < s->nunits &&
                sv_outflanks(c, &s->u[acts[i].unit], &s->u[acts[i].target]))
                sc += 10.0;
            if (sc > bs) {
                bs = sc;
                best = i;
            }
        }
        r = s->phase == SV_P_FIRE
                ? (acts[best].kind == SV_A_FIRE ? "fire the most dice" : "nothing in range")
            : s->phase == SV_P_JOIN
                ? (acts[best].kind == SV_A_JOIN ? "join: the fight is even or better"
                                                : "hold back: the fight is against us")
            : s->phase == SV_P_MELEE ? "attack where it hurts most"
            : s->phase == SV_P_RETHROW
                ? (acts[best].kind == SV_A_RETHROW ? "re-throw: below the mean" : "keep the dice")
                : r;
    }
    if (rule)
        *rule = r;
    return best;
}
