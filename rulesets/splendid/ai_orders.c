/* rulesets/splendid/ai_orders.c — A Splendid Victory!'s orders as a player carries them out at
 * the table (docs/splendid.md 10.1): for every legal action of the side to decide, the unit,
 * the verb, the target, where it goes and which way it faces, the dice to throw with the
 * score needed (the rules' "that or less" on 1D6) and their chance, one sentence, and a reason
 * (the action's score and the rule card's rule). The reactions the AI takes in the other
 * side's manoeuvre are orders too; the stands removed for losses are not decisions in the
 * engine (docs/splendid.md 9.2, S6) and so are not ordered. Also the inert test.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ai_int.h"

/* The order's sentence into S (n bytes): a long unit name cuts the sentence short rather
 * than overrunning it, which is what an order card of fixed width wants. */
__attribute__((format(printf, 3, 4))) static void say(char *S, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(S, n, fmt, ap);
    va_end(ap);
}

static const char *const FORM_WORDS[SV_FORM_COUNT] = {
    "block", "defensive block", "line", "open order", "road column", "limbered", "unlimbered"};

static const char *kind_word(const sv_unit_t *u) {
    static const char *const w[SV_KIND_COUNT] = {
        "pike and musket", "foot",    "heavy horse",   "horse",     "dragoons",
        "frame gun",       "battery", "heavy battery", "commander", "sub-commander"};
    return u->kind < SV_KIND_COUNT ? w[u->kind] : "unit";
}

static void roll(opfor_order_t *o, const char *label, int dice, int need, double p) {
    if (o->nrolls >= OPFOR_ORDER_MAX_ROLLS)
        return;
    opfor_order_roll_t *r = &o->rolls[o->nrolls++];
    snprintf(r->label, sizeof r->label, "%s", label);
    if (need <= 0)
        snprintf(r->need, sizeof r->need, "cannot succeed");
    else if (need >= 6)
        snprintf(r->need, sizeof r->need, "any score");
    else
        snprintf(r->need, sizeof r->need, "%d or less on 1D6", need);
    r->dice = dice;
    r->p = p;
}

static void term(opfor_order_t *o, const char *name, const char *label, double v) {
    if (o->nterms >= OPFOR_ORDER_MAX_TERMS)
        return;
    opfor_order_term_t *t = &o->terms[o->nterms++];
    snprintf(t->name, sizeof t->name, "%s", name);
    snprintf(t->label, sizeof t->label, "%s", label);
    t->value = v;
    o->total += v;
}

static const char *compass(float dx, float dy) {
    static const char *const pts[8] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
    if (fabsf(dx) + fabsf(dy) < 1e-4f)
        return "";
    double a = atan2((double)dx, (double)dy) * 180.0 / 3.14159265358979;
    int k = (int)floor((a + 22.5 + 360.0) / 45.0) % 8;
    return pts[k];
}

static void place(opfor_order_t *o, const sv_unit_t *u, float x, float y, float fx, float fy) {
    o->has_move = 1;
    o->x = x;
    o->y = y;
    o->move_in = sqrtf((x - u->x) * (x - u->x) + (y - u->y) * (y - u->y));
    snprintf(o->direction, sizeof o->direction, "%s",
             o->move_in > 0.05f ? compass(x - u->x, y - u->y) : compass(fx, fy));
    o->nstops = 3;
    for (int k = 0; k < 3; k++) {
        o->stops_x[k] = x;
        o->stops_y[k] = y;
    }
}

/* "Hammond's Foot (pike and musket, 6 stands in block)"; a gun is not "in" its state of
 * limber: "Rupert's Guns (frame gun, 1 stand, unlimbered)". */
static void describe(const sv_ctx_t *c, const sv_state_t *s, int i, char *buf, size_t n) {
    const sv_unit_t *u = &s->u[i];
    int f = u->form < SV_FORM_COUNT ? u->form : 2;
    int gun = f == SV_LIMBERED || f == SV_UNLIMBERED;
    snprintf(buf, n, "%s (%s, %d stand%s%s%s)", c->names[i], kind_word(u), u->n,
             u->n == 1 ? "" : "s", gun ? ", " : " in ", FORM_WORDS[f]);
}

static int fire_stands(const sv_unit_t *u) {
    if (sv_is_art(u))
        return 1;
    int all = u->form == SV_OPEN || u->form == SV_DEFBLOCK, m = sv_muskets(u);
    return all ? m : (m < u->files ? m : u->files);
}

int sv_ai_order(const void *ctx, const void *state, const opfor_action_t *a, opfor_order_t *out) {
    const sv_ctx_t *c = ctx;
    const sv_state_t *s = state;
    if (!c || !s || !a || !out || s->phase == SV_P_OVER || s->phase == SV_P_INITIATIVE ||
        s->phase == SV_P_FIRE_ROLL)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    out->side = s->side;
    out->kind = a->kind;
    out->unit = a->unit < s->nunits ? a->unit : -1;
    out->target = a->target < s->nunits ? a->target : -1;
    if (a->kind != SV_A_DONE && a->kind != SV_A_CONCEDE && out->unit < 0)
        return OPFOR_EINVAL;
    const sv_unit_t *u = out->unit >= 0 ? &s->u[out->unit] : NULL;
    const sv_unit_t *t = out->target >= 0 ? &s->u[out->target] : NULL;
    char who[96] = "", whom[96] = "";
    if (u) {
        snprintf(out->unit_name, sizeof out->unit_name, "%s", c->names[out->unit]);
        describe(c, s, out->unit, who, sizeof who);
    }
    if (t) {
        snprintf(out->target_name, sizeof out->target_name, "%s", c->names[out->target]);
        describe(c, s, out->target, whom, sizeof whom);
        if (u)
            out->target_gap = sv_unit_dist(c, u, t);
    }
    const char *why = NULL;
    double sc = sv_ai_score(c, s, a, &why);
    char *S = out->sentence;
    size_t SN = sizeof out->sentence;
    int q = u ? sv_ai_quality(c, u) : 1;
    switch (a->kind) {
    case SV_A_FIRE: {
        int dice = sv_fire_dice(c, s, a->unit, a->target);
        int need = c->model.fire_need[q];
        snprintf(out->verb, sizeof out->verb, "fire at");
        out->figures = fire_stands(u);
        out->figures_how = OPFOR_ORDER_FIG_EXACT;
        roll(out, "to hit", dice, need, need / 6.0);
        say(S, SN, "%s fires at %s %.1f\" away: %dD6, each %d or less hits (%.1f hits expected).",
            who, whom, (double)out->target_gap, dice, need, dice * need / 6.0);
        break;
    }
    case SV_A_HOLD:
        if (s->phase == SV_P_REACT) {
            snprintf(out->verb, sizeof out->verb, "stand");
            say(S, SN, "%s stands to receive the charge of %s: no test, the melee follows.", who,
                c->names[s->charger]);
        } else if (s->phase == SV_P_PIVOT) {
            snprintf(out->verb, sizeof out->verb, "no pivot");
            say(S, SN, "%s keeps its facing before the fire.", who);
        } else if (s->phase == SV_P_INTERCEPT) {
            int mv = s->pend.unit < s->nunits ? s->pend.unit : -1;
            snprintf(out->verb, sizeof out->verb, "let pass");
            say(S, SN, "%s lets %s go on with its move.", who,
                mv >= 0 ? c->names[mv] : "the moving unit");
        } else if (s->phase == SV_P_BREAK) {
            snprintf(out->verb, sizeof out->verb, "stop");
            say(S, SN, "%s stops where it is: no break-through.", who);
        } else {
            snprintf(out->verb, sizeof out->verb, "hold fire");
            say(S, SN, "%s holds its fire.", who);
        }
        break;
    case SV_A_JOIN:
    case SV_A_HOLDBACK: {
        int e = -1;
        float d = 0.0f;
        sv_join_dist(c, s, a->unit, &e, &d);
        if (e >= 0) {
            out->target = e;
            snprintf(out->target_name, sizeof out->target_name, "%s", c->names[e]);
        }
        if (a->kind == SV_A_JOIN) {
            snprintf(out->verb, sizeof out->verb, "join in");
            place(out, u, u->x + u->fx * d, u->y + u->fy * d, u->fx, u->fy);
            say(S, SN, "%s joins the fight: straight ahead %.1f\" into contact with %s.", who,
                (double)d, out->target_name);
        } else {
            int need = sv_in_command(c, s, a->unit) ? 6 : (u->form == SV_OPEN ? 5 : 3);
            snprintf(out->verb, sizeof out->verb, "hold back");
            roll(out, "hold back", 1, need, need / 6.0);
            if (need >= 6)
                say(S, SN, "%s holds back from %s: in command, no test.", who, out->target_name);
            else
                say(S, SN,
                    "%s tries to hold back from %s: 1D6, %d or less holds, else it "
                    "moves %.1f\" into contact.",
                    who, out->target_name, need, (double)d);
        }
        break;
    }
    case SV_A_ATTACK: {
        int fl = sv_outflanks(c, u, t), per = fl ? 2 : 1;
        int first = (u->kind == SV_PM || u->kind == SV_FOOT) ? u->a : u->n;
        int second = u->n - first, cv1 = sv_cv(c, u, 1, t), cv0 = sv_cv(c, u, 0, t);
        snprintf(out->verb, sizeof out->verb, "attack");
        const char *l1 = u->kind == SV_PM ? "pike" : u->kind == SV_FOOT ? "hand weapon" : "stand";
        const char *l0 = u->kind == SV_PM ? "musket" : "light weapon";
        if (first > 0)
            roll(out, l1, first * per, cv1, cv1 / 6.0);
        if (second > 0)
            roll(out, l0, second * per, cv0, cv0 / 6.0);
        int k = snprintf(S, SN, "%s attacks %s%s: ", who, whom,
                         fl ? ", outflanking (2D6 a stand)" : "");
        if (first > 0 && k >= 0 && (size_t)k < SN)
            k += snprintf(S + k, SN - (size_t)k, "%dD6 %s at CV %d or less", first * per, l1, cv1);
        if (second > 0 && k >= 0 && (size_t)k < SN)
            k += snprintf(S + k, SN - (size_t)k, "%s%dD6 %s at CV %d or less",
                          first > 0 ? ", " : "", second * per, l0, cv0);
        if (k >= 0 && (size_t)k < SN)
            snprintf(S + k, SN - (size_t)k, " (%.1f hits expected).",
                     sv_ai_melee_hits(c, u, t, fl));
        break;
    }
    case SV_A_KEEP:
    case SV_A_RETHROW: {
        const sv_unit_t *e = u->target < s->nunits ? &s->u[u->target] : NULL;
        double mean = e ? sv_ai_melee_hits(c, u, e, sv_outflanks(c, u, e)) : 0.0;
        if (a->kind == SV_A_KEEP) {
            snprintf(out->verb, sizeof out->verb, "keep the dice");
            say(S, SN, "%s keeps its %d hit%s (%.1f expected).", who, s->hits,
                s->hits == 1 ? "" : "s", mean);
        } else {
            snprintf(out->verb, sizeof out->verb, "re-throw");
            roll(out, "re-throw", u->n, 0, 0.0);
            snprintf(out->rolls[0].need, sizeof out->rolls[0].need, "all the attack's dice");
            say(S, SN,
                "%s re-throws its attack (in command, once this phase): %d hit%s "
                "against %.1f expected; the new throw stands.",
                who, s->hits, s->hits == 1 ? "" : "s", mean);
        }
        break;
    }
    case SV_A_MOVE: {
        static const char *const verbs[4] = {"manoeuvre", "double time", "about-face", "step"};
        snprintf(out->verb, sizeof out->verb, "%s", verbs[a->sub < 4 ? a->sub : 0]);
        place(out, u, a->x, a->y, a->x2, a->y2);
        if (a->sub == 4) { /* a pivot about the front centre */
            snprintf(out->verb, sizeof out->verb, "pivot");
            say(S, SN, "%s pivots about its front centre to face %s%s.", who, compass(a->x2, a->y2),
                s->phase == SV_P_PIVOT ? " before it fires" : "");
            break;
        }
        say(S, SN, "%s %s %.1f\" %s to (%.1f, %.1f), front facing %s.", who,
            a->sub == 1   ? "marches at double time"
            : a->sub == 2 ? "about-faces and moves"
            : a->sub == 3 ? "steps"
                          : "manoeuvres",
            (double)out->move_in, out->direction, (double)a->x, (double)a->y,
            compass(a->x2, a->y2));
        if (out->move_in < 0.05f)
            say(S, SN, "%s wheels in place to face %s.", who, compass(a->x2, a->y2));
        break;
    }
    case SV_A_FORM: {
        int f = a->sub < SV_FORM_COUNT ? a->sub : SV_LINE;
        snprintf(out->verb, sizeof out->verb, "form %s", FORM_WORDS[f]);
        say(S, SN, "%s forms %s, %d stand%s in the front rank, about its front centre.", who,
            FORM_WORDS[f], a->arg, a->arg == 1 ? "" : "s");
        break;
    }
    case SV_A_INTERCEPT: {
        /* §Reactions 1: no test for a counter-charge or a unit in command, else 1D6 3 or less */
        int counter = s->pend.kind == SV_A_CHARGE && s->pend.target == a->unit;
        int free = counter || sv_in_command(c, s, a->unit);
        snprintf(out->verb, sizeof out->verb, "%s", counter ? "counter-charge" : "intercept");
        if (free) {
            roll(out, "intercept test", 0, 6, 1.0);
            snprintf(out->rolls[0].need, sizeof out->rolls[0].need, "none: %s",
                     counter ? "a counter-charge" : "in command");
        } else
            roll(out, "intercept test", 1, 3, 0.5);
        if (t)
            place(out, u, t->x, t->y, -t->fx, -t->fy);
        if (free)
            say(S, SN, "%s %s %s straight ahead: no test (%s).", who,
                counter ? "counter-charges" : "intercepts", whom,
                counter ? "a counter-charge" : "in command");
        else
            say(S, SN, "%s intercepts %s straight ahead: test 1D6, 3 or less (50%%).", who, whom);
        break;
    }
    case SV_A_CHARGE: {
        if (s->phase == SV_P_BREAK) { /* §Break-Through: a charge without a test */
            snprintf(out->verb, sizeof out->verb, "%s",
                     a->sub ? "extended break-through charge" : "break-through charge");
            if (t)
                place(out, u, t->x, t->y, -t->fx, -t->fy);
            say(S, SN, "%s breaks through into %s %.1f\" away: a charge without a test%s.", who,
                whom, (double)out->target_gap,
                a->sub ? (sv_is_foot(u) ? ", one marker, 2\" more" : ", one marker, 1D6\" more")
                       : "");
            break;
        }
        int in = sv_in_command(c, s, a->unit), need = c->model.charge_need[q];
        snprintf(out->verb, sizeof out->verb, "%s", a->sub ? "extended charge" : "charge");
        if (in)
            roll(out, "charge test", 0, 6, 1.0);
        else
            roll(out, "charge test", 1, need, need / 6.0);
        if (in)
            snprintf(out->rolls[0].need, sizeof out->rolls[0].need, "none: in command");
        if (a->sub) {
            roll(out, "extra reach", sv_is_foot(u) ? 0 : 1, 0, 0.0);
            snprintf(out->rolls[out->nrolls - 1].need, sizeof out->rolls[0].need, "%s",
                     sv_is_foot(u) ? "2\" more" : "1D6\" more");
        }
        int fl = sv_ai_from_behind(t, u);
        place(out, u, t->x, t->y, -t->fx, -t->fy);
        int k;
        if (in)
            k = snprintf(S, SN, "%s %s %s %.1f\" away: no test (in command)", who,
                         a->sub ? "makes an extended charge at" : "charges", whom,
                         (double)out->target_gap);
        else
            k = snprintf(S, SN, "%s %s %s %.1f\" away: charge test 1D6, %d or less (%.0f%%)", who,
                         a->sub ? "makes an extended charge at" : "charges", whom,
                         (double)out->target_gap, need, 100.0 * need / 6.0);
        if (k >= 0 && (size_t)k < SN)
            snprintf(S + k, SN - (size_t)k, "%s; then %.1f hits expected against %.1f.",
                     a->sub
                         ? (sv_is_foot(u) ? ", one marker, 2\" more" : ", one marker, 1D6\" more")
                         : "",
                     sv_ai_melee_hits(c, u, t, fl), sv_ai_melee_hits(c, t, u, 0));
        break;
    }
    case SV_A_DISENGAGE:
        snprintf(out->verb, sizeof out->verb, "disengage");
        place(out, u, a->x, a->y, a->x2, a->y2);
        say(S, SN, "%s disengages to (%.1f, %.1f), facing %s, taking its marker%s.", who,
            (double)a->x, (double)a->y, compass(a->x2, a->y2), "s");
        break;
    case SV_A_LIMBER:
        snprintf(out->verb, sizeof out->verb, "%s", a->sub ? "limber up" : "unlimber");
        say(S, SN, "%s %s%s%s.", who, a->sub ? "limbers up" : "unlimbers", a->sub ? "" : " facing ",
            a->sub ? "" : compass(a->x2, a->y2));
        break;
    case SV_A_PROLONG:
        snprintf(out->verb, sizeof out->verb, "prolong");
        place(out, u, a->x, a->y, u->fx, u->fy);
        say(S, SN, "%s prolongs %.1f\" to (%.1f, %.1f).", who, (double)out->move_in, (double)a->x,
            (double)a->y);
        break;
    case SV_A_MOUNT:
        snprintf(out->verb, sizeof out->verb, "%s", a->sub ? "mount" : "dismount");
        say(S, SN, "%s %s.", who, a->sub ? "mounts its horses" : "dismounts to fight on foot");
        break;
    case SV_A_RETREAT:
        snprintf(out->verb, sizeof out->verb, "retreat");
        say(S, SN, "%s retreats from the field (its stand counts as lost).", who);
        break;
    case SV_A_DONE:
        snprintf(out->verb, sizeof out->verb, "end the phase");
        say(S, SN, "No more manoeuvres: end this movement phase.");
        break;
    case SV_A_CONCEDE:
        snprintf(out->verb, sizeof out->verb, "concede");
        say(S, SN, "Concede the field.");
        break;
    case SV_A_RECOIL:
        snprintf(out->verb, sizeof out->verb, "recoil");
        say(S, SN, "%s recoils up to 12\" from %s, taking one marker.", who, whom);
        break;
    case SV_A_EVADE:
        snprintf(out->verb, sizeof out->verb, "evade");
        say(S, SN, "%s evades up to 6\" from %s, no marker.", who, whom);
        break;
    case SV_A_HASTY: {
        snprintf(out->verb, sizeof out->verb, "hasty defensive block");
        int horse = sv_is_mounted(c, t);
        int k = snprintf(S, SN, "%s forms a hasty defensive block against %s, taking %d marker%s",
                         who, whom, u->form == SV_BLOCK ? 1 : 2, u->form == SV_BLOCK ? "" : "s");
        if (horse && s->charge_far) {
            int need = sv_pikes(u) > 0 ? 5 : 3;
            roll(out, "horse pulls up short", 1, need, need / 6.0);
            if (k >= 0 && (size_t)k < SN)
                snprintf(S + k, SN - (size_t)k,
                         "; the horse pulls up short on 1D6 %d or less (%.0f%%).", need,
                         100.0 * need / 6.0);
        } else if (horse) {
            roll(out, "light impact", 1, 3, 0.5);
            if (k >= 0 && (size_t)k < SN)
                snprintf(S + k, SN - (size_t)k,
                         "; the horse charges home: 1D6, 3 or less a light impact.");
        } else if (k >= 0 && (size_t)k < SN) {
            snprintf(S + k, SN - (size_t)k, ".");
        }
        break;
    }
    case SV_A_ABOUTFACE:
        snprintf(out->verb, sizeof out->verb, "about-face");
        say(S, SN, "%s makes an emergency about-face to meet %s, taking %d marker%s.", who, whom,
            sv_pikes(u) > 0 ? 2 : 1, sv_pikes(u) > 0 ? "s" : "");
        break;
    case SV_A_DEFFIRE: {
        int k = fire_stands(u), need = c->model.fire_need[q];
        int dice = k + (sv_is_mounted(c, t) ? 1 : 0) + (t->form == SV_BLOCK ? 1 : 0) -
                   (sv_open(t) ? 1 : 0);
        if (dice < 0)
            dice = 0;
        snprintf(out->verb, sizeof out->verb, "defensive fire");
        out->figures = k;
        out->figures_how = OPFOR_ORDER_FIG_EXACT;
        roll(out, "to hit", dice, need, need / 6.0);
        say(S, SN,
            "%s gives defensive fire at %s: %dD6, each %d or less hits; two hits "
            "flinch it 3\" back, none is a light impact.",
            who, whom, dice, need);
        break;
    }
    default:
        return OPFOR_EINVAL;
    }
    /* the reason: the action's score, the breakpoint race and the threat for the side */
    term(out, "score", why ? why : "score", sc);
    double terms[4];
    sv_ai_value(c, s, terms);
    double sign = s->side == 1 ? -1.0 : 1.0;
    term(out, "breakpoints", "breakpoint race", sign * terms[0]);
    term(out, "threat", "threat on the enemy", sign * terms[2]);
    char buf[160];
    opfor_order_terms_text(out->terms, out->nterms, 3, buf, sizeof buf);
    snprintf(out->reason, sizeof out->reason, "%s", buf);
    return 0;
}

int sv_ai_inert(const void *ctx, const void *state, const opfor_action_t *a) {
    const sv_ctx_t *c = ctx;
    const sv_state_t *s = state;
    if (!c || !s || !a)
        return OPFOR_EINVAL;
    if (a->kind == SV_A_MOVE && a->unit < s->nunits) {
        const sv_unit_t *u = &s->u[a->unit];
        return fabsf(a->x - u->x) < 1e-3f && fabsf(a->y - u->y) < 1e-3f &&
               fabsf(a->x2 - u->fx) < 1e-3f && fabsf(a->y2 - u->fy) < 1e-3f;
    }
    return 0;
}
