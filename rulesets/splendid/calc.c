/* rulesets/splendid/calc.c — A Splendid Victory!'s calculator in the shared answer schema
 * (opfor/ruleset_calc.h): breakpoints, command, test, fire, artillery and melee. Each
 * answers the dice thrown, the score needed, the chance, and for rolls of several dice the
 * whole distribution of hits; given the dice rolled at the table (--rolled), what happened.
 * Sections are the seed's headings; the readings taken where it is silent are in
 * CALC-NOTES.md beside this file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "splendid_int.h"

/* ---------------------------------------------------------------- choices */

static const char *const QUALITY[] = {"raw", "regular", "veteran", NULL};
enum { Q_RAW, Q_REGULAR, Q_VETERAN };
static const char *const RANK[] = {"commander", "sub", NULL};
static const char *const KIND[] = {"charge",        "intercept",   "hold-back",
                                   "pull-up-short", "charge-home", NULL};
enum { K_CHARGE, K_INTERCEPT, K_HOLD_BACK, K_PULL_UP, K_CHARGE_HOME };
static const char *const FORMATION[] = {
    "block",       "defensive-block",  "line",     "bent-line",  "open-order", "bent-open-order",
    "road-column", "bent-road-column", "limbered", "unlimbered", NULL};
enum { F_BLOCK, F_DEF_BLOCK, F_LINE, F_BENT_LINE, F_OPEN, F_BENT_OPEN, F_ROAD, F_BENT_ROAD };
static const char *const GUN[] = {"frame", "regular", "heavy", NULL};
static const char *const STAND[] = {"improvised",    "light",    "hand-to-hand",
                                    "pikes",         "dragoons", "mounted",
                                    "heavy-mounted", "command",  NULL};
enum { ST_IMPROVISED, ST_LIGHT, ST_HTH, ST_PIKES, ST_DRAGOONS, ST_MOUNTED, ST_HEAVY, ST_COMMAND };

/* §How do you resolve hand-to-hand combat?: the basic Combat Value of each stand type. */
static const int BASIC_CV[] = {2, 2, 3, 4, 3, 4, 5, 3};

#define QUALITY_FIELD                                                                              \
    {                                                                                              \
        .name = "quality", .label = "Quality",                                                     \
        .help = "raw, regular or veteran (§Variable Unit "                                        \
                "Quality)",                                                                        \
        .type = OPFOR_FIELD_CHOICE, .def_text = "regular", .choices = QUALITY                      \
    }
#define TARGET_FIELD(nm, lbl)                                                                      \
    {                                                                                              \
        .name = nm, .label = lbl, .help = "the target unit's formation",                           \
        .type = OPFOR_FIELD_CHOICE, .def_text = "line", .choices = FORMATION                       \
    }
#define FLAG_FIELD(nm, lbl, hlp)                                                                   \
    { .name = nm, .label = lbl, .help = hlp, .type = OPFOR_FIELD_BOOL }

static const opfor_field_t BREAK_FIELDS[] = {
    {.name = "stands",
     .label = "Stands in the army",
     .help = "every stand, artillery and command too",
     .type = OPFOR_FIELD_INT,
     .flags = OPFOR_FIELD_REQUIRED,
     .min = 1,
     .max = 10000},
};
static const opfor_field_t COMMAND_FIELDS[] = {
    {.name = "rank",
     .label = "Rank",
     .help = "the commander or a sub-commander",
     .type = OPFOR_FIELD_CHOICE,
     .def_text = "commander",
     .choices = RANK},
};
static const opfor_field_t TEST_FIELDS[] = {
    {.name = "kind",
     .label = "Test",
     .help = "which test",
     .type = OPFOR_FIELD_CHOICE,
     .flags = OPFOR_FIELD_REQUIRED,
     .choices = KIND},
    QUALITY_FIELD,
    FLAG_FIELD("in-command", "In command", "within a command stand's range (no test needed)"),
    FLAG_FIELD("pikes", "Pikes", "pull-up-short: the unit charged contains pike stands"),
    FLAG_FIELD("open-order", "Open order", "the unit tested is in open order"),
    {.name = "formation",
     .label = "Formation",
     .help = "the unit tested's formation, if it matters",
     .type = OPFOR_FIELD_CHOICE,
     .flags = OPFOR_FIELD_OPTIONAL,
     .choices = FORMATION},
    FLAG_FIELD("counter", "Counter-charge", "intercept: the enemy is charging this unit"),
};
static const opfor_field_t FIRE_FIELDS[] = {
    {.name = "stands",
     .label = "Musket stands firing",
     .help = "eligible musket stands",
     .type = OPFOR_FIELD_INT,
     .min = 1,
     .max = 12,
     .def = 1},
    TARGET_FIELD("target", "Target formation"),
    FLAG_FIELD("mounted", "Mounted target", "the target is a mounted unit"),
    QUALITY_FIELD,
};
static const opfor_field_t ART_FIELDS[] = {
    {.name = "gun",
     .label = "Gun",
     .help = "frame, regular or heavy",
     .type = OPFOR_FIELD_CHOICE,
     .def_text = "regular",
     .choices = GUN},
    {.name = "range",
     .label = "Range",
     .help = "to the target, inches",
     .type = OPFOR_FIELD_NUM,
     .flags = OPFOR_FIELD_REQUIRED,
     .min = 0,
     .max = 1000,
     .unit = "in"},
    TARGET_FIELD("target", "Target formation"),
    FLAG_FIELD("mounted", "Mounted target", "the target is a mounted unit"),
    QUALITY_FIELD,
};
static const opfor_field_t MELEE_FIELDS[] = {
    {.name = "stand",
     .label = "Stand type",
     .help = "the stands fighting",
     .type = OPFOR_FIELD_CHOICE,
     .def_text = "hand-to-hand",
     .choices = STAND},
    {.name = "stands",
     .label = "Stands fighting",
     .help = "how many of them",
     .type = OPFOR_FIELD_INT,
     .min = 1,
     .max = 12,
     .def = 1},
    {.name = "formation",
     .label = "Own formation",
     .help = "the fighting unit's formation",
     .type = OPFOR_FIELD_CHOICE,
     .def_text = "block",
     .choices = FORMATION},
    TARGET_FIELD("defender", "Defender formation"),
    FLAG_FIELD("defender-mounted", "Mounted defender", "the unit attacked is mounted"),
    FLAG_FIELD("pikes", "Pikes", "the unit attacked contains pike stands"),
    FLAG_FIELD("outflank", "Outflanked", "the attacker has outflanked the unit it attacks"),
    QUALITY_FIELD,
};

#define NF(a) ((int)(sizeof(a) / sizeof(a)[0]))
static const opfor_form_t ACTIONS[] = {
    {.name = "breakpoints",
     .title = "Breakpoints",
     .section = "The Determine Victory Phase",
     .help = "an army's quarter, third and half (--rolled: the running tally of stands lost)",
     .fields = BREAK_FIELDS,
     .nfields = NF(BREAK_FIELDS)},
    {.name = "command",
     .title = "Command quality",
     .section = "Variable Command Quality",
     .help = "1D6 for a commander's quality and command range",
     .fields = COMMAND_FIELDS,
     .nfields = NF(COMMAND_FIELDS)},
    {.name = "test",
     .title = "Test",
     .section = "Charging; Reactions; Holding back",
     .help = "a 1D6 test: charge, intercept, hold back, pull up short, charge home",
     .fields = TEST_FIELDS,
     .nfields = NF(TEST_FIELDS)},
    {.name = "fire",
     .title = "Musket fire",
     .section = "The Firing Procedure",
     .help = "1D6 a musket stand with the target's modifiers; 2 or less hits",
     .fields = FIRE_FIELDS,
     .nfields = NF(FIRE_FIELDS)},
    {.name = "artillery",
     .title = "Artillery fire",
     .section = "The Firing Procedure",
     .help = "an artillery stand's dice by range band and target; 2 or less hits",
     .fields = ART_FIELDS,
     .nfields = NF(ART_FIELDS)},
    {.name = "melee",
     .title = "Hand-to-hand",
     .section = "How do you resolve hand-to-hand combat?",
     .help = "1D6 a stand (2D6 outflanking); the modified CV or less hits",
     .fields = MELEE_FIELDS,
     .nfields = NF(MELEE_FIELDS)},
};
enum { A_BREAK, A_COMMAND, A_TEST, A_FIRE, A_ART, A_MELEE };

/* ---------------------------------------------------------------- helpers */

static int ival(const opfor_form_t *f, const opfor_value_t *v, int i) {
    return (int)(v && v[i].set ? v[i].num : f->fields[i].def);
}
static double nval(const opfor_form_t *f, const opfor_value_t *v, int i) {
    return v && v[i].set ? v[i].num : f->fields[i].def;
}
/* A choice's index, its default when left out. */
static int cval(const opfor_form_t *f, const opfor_value_t *v, int i) {
    if (v && v[i].set)
        return (int)v[i].num;
    const opfor_field_t *fd = &f->fields[i];
    for (int k = 0; fd->choices && fd->choices[k]; k++)
        if (fd->def_text && strcmp(fd->choices[k], fd->def_text) == 0)
            return k;
    return 0;
}

void opfor__sv_breakpoints(int stands, int *quarter, int *third, int *half) {
    *quarter = (stands + 3) / 4;
    *third = (stands + 2) / 3;
    *half = (stands + 1) / 2;
}

/* Reads n dice of 1..6 ("1,2,2,4"); want < 0: any count. 0, or OPFOR_EINVAL with msg. */
static int read_dice(const char *rolled, int want, int *faces, int max, int *count, char *msg,
                     size_t n) {
    int k = 0;
    const char *p = rolled;
    while (*p) {
        char *end = NULL;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > 6 || k >= max) {
            snprintf(msg, n, "rolled: '%s' is not a list of dice from 1 to 6", rolled);
            return OPFOR_EINVAL;
        }
        faces[k++] = (int)v;
        p = end;
        while (*p == ' ')
            p++;
        if (*p == ',')
            p++;
        else if (*p) {
            snprintf(msg, n, "rolled: '%s' is not a list of dice from 1 to 6", rolled);
            return OPFOR_EINVAL;
        }
    }
    if (want >= 0 && k != want) {
        snprintf(msg, n, "rolled: %d dice given, %d thrown", k, want);
        return OPFOR_EINVAL;
    }
    *count = k;
    return 0;
}

static double choose(int n, int k) {
    double c = 1.0;
    for (int i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

/* Fills the answer of `ndice` dice each hitting on `need` or less: the distribution of hits,
 * their mean, and p, the chance of at least one hit; with rolled, the hits scored. */
static int hits_answer(opfor_calc_answer_t *a, int ndice, int need, const char *rolled,
                       int *hits_out, char *msg, size_t n) {
    int nd = need < 0 ? 0 : need > 6 ? 6 : need;
    double q = nd / 6.0;
    snprintf(a->dice, sizeof a->dice, "%dD6", ndice);
    a->ndice = ndice;
    if (nd == 0)
        snprintf(a->needed, sizeof a->needed, "cannot hit");
    else if (nd == 1)
        snprintf(a->needed, sizeof a->needed, "1");
    else
        snprintf(a->needed, sizeof a->needed, "%d or less", nd);
    a->p = 1.0 - pow(1.0 - q, ndice);
    a->has_expected = 1;
    a->expected = ndice * q;
    if (!(a->skip & OPFOR_CALC_SKIP_DIST))
        for (int k = 0; k <= ndice && a->ndist < OPFOR_CALC_MAX_DIST; k++) {
            opfor_calc_outcome_t *o = &a->dist[a->ndist++];
            snprintf(o->label, sizeof o->label, "%d hit%s", k, k == 1 ? "" : "s");
            o->value = k;
            o->p = choose(ndice, k) * pow(q, k) * pow(1.0 - q, ndice - k);
        }
    if (rolled && rolled[0]) {
        int faces[64], cnt = 0, hits = 0;
        int rc = read_dice(rolled, ndice, faces, 64, &cnt, msg, n);
        if (rc < 0)
            return rc;
        for (int i = 0; i < cnt; i++)
            hits += faces[i] <= nd;
        a->rolled = 1;
        a->success = hits > 0;
        snprintf(a->outcome, sizeof a->outcome, "%d hit%s, %d miss%s (%s hits)", hits,
                 hits == 1 ? "" : "s", cnt - hits, cnt - hits == 1 ? "" : "es", a->needed);
        if (hits_out)
            *hits_out = hits;
    }
    return 0;
}

/* A single 1D6 test passed on `need` or less. */
static int test_answer(opfor_calc_answer_t *a, int need, const char *pass, const char *fail,
                       const char *rolled, char *msg, size_t n) {
    opfor_calc_extra_map(a, "working");
    opfor_calc_extra_bool(a, "tested", 1);
    opfor_calc_extra_int(a, "pass_on", need);
    opfor_calc_extra_str(a, "pass", pass);
    opfor_calc_extra_str(a, "fail", fail);
    opfor_calc_extra_end(a);
    snprintf(a->dice, sizeof a->dice, "1D6");
    a->ndice = 1;
    snprintf(a->needed, sizeof a->needed, "%d or less", need);
    a->p = need / 6.0;
    if (!(a->skip & OPFOR_CALC_SKIP_DIST)) {
        snprintf(a->dist[0].label, sizeof a->dist[0].label, "%s", pass);
        a->dist[0].value = 1;
        a->dist[0].p = need / 6.0;
        snprintf(a->dist[1].label, sizeof a->dist[1].label, "%s", fail);
        a->dist[1].value = 0;
        a->dist[1].p = 1.0 - need / 6.0;
        a->ndist = 2;
    }
    if (rolled && rolled[0]) {
        int face, cnt;
        int rc = read_dice(rolled, 1, &face, 1, &cnt, msg, n);
        if (rc < 0)
            return rc;
        a->rolled = 1;
        a->success = face <= need;
        snprintf(a->outcome, sizeof a->outcome, "%d %s: %s", face,
                 face <= need ? "passes" : "fails", face <= need ? pass : fail);
    }
    return 0;
}

static void forbid(opfor_calc_answer_t *a, const char *why) {
    a->allowed = 0;
    snprintf(a->reason, sizeof a->reason, "%s", why);
}

/* The target modifiers of §The Firing Procedure, for muskets and artillery alike. */
static int target_dice(int formation, int mounted) {
    int d = 0;
    if (formation == F_BLOCK)
        d += 1;
    else if (formation == F_DEF_BLOCK)
        d += 2;
    else if (formation == F_OPEN || formation == F_BENT_OPEN)
        d -= 1;
    if (mounted)
        d += 1;
    return d;
}

/* §Variable Unit Quality: a raw stand hits on 1, a veteran on 3 or less, others on 2 or
 * less (model.yaml, quality). */
static int fire_need(const opfor_sv_model_t *m, int quality) {
    return m->fire_need[quality];
}

/* ---------------------------------------------------------------- actions */

static int run_breakpoints(const opfor_form_t *f, const opfor_value_t *v, const char *rolled,
                           opfor_calc_answer_t *a, char *msg, size_t n) {
    int stands = ival(f, v, 0), q, t, h;
    opfor__sv_breakpoints(stands, &q, &t, &h);
    snprintf(a->title, sizeof a->title, "Breakpoints of an army of %d stands", stands);
    opfor_calc_fact(a, "quarter", "Quarter (sub-commanders go)", q, NULL, NULL);
    opfor_calc_fact(a, "third", "Third (the commander goes)", t, NULL, NULL);
    opfor_calc_fact(a, "half", "Half (the army's breakpoint)", h, NULL, NULL);
    opfor_calc_note(a, "each value rounded up; a tally that exceeds it takes effect");
    opfor_calc_extra_map(a, "working"); /* the values before rounding */
    opfor_calc_extra_int(a, "army", stands);
    opfor_calc_extra_num(a, "quarter_exact", stands / 4.0);
    opfor_calc_extra_num(a, "third_exact", stands / 3.0);
    opfor_calc_extra_num(a, "half_exact", stands / 2.0);
    opfor_calc_extra_end(a);
    if (rolled && rolled[0]) {
        char *end = NULL;
        long tally = strtol(rolled, &end, 10);
        if (end == rolled || *end || tally < 0 || tally > stands) {
            snprintf(msg, n, "rolled: '%s' is not a tally of stands lost (0..%d)", rolled, stands);
            return OPFOR_EINVAL;
        }
        a->rolled = 1;
        a->success = tally <= h;
        if (tally > h)
            snprintf(a->outcome, sizeof a->outcome,
                     "tally %ld exceeds the half (%d): the game is over", tally, h);
        else if (tally > t)
            snprintf(a->outcome, sizeof a->outcome,
                     "tally %ld exceeds the third (%d): the commander and sub-commanders go", tally,
                     t);
        else if (tally > q)
            snprintf(a->outcome, sizeof a->outcome,
                     "tally %ld exceeds the quarter (%d): every sub-commander goes", tally, q);
        else
            snprintf(a->outcome, sizeof a->outcome, "tally %ld exceeds no breakpoint", tally);
    }
    return 0;
}

static const char *const CQ[] = {"charismatic", "inspiring", "impersonal"};

static int run_command(const opfor_sv_model_t *m, const opfor_form_t *f, const opfor_value_t *v,
                       const char *rolled, opfor_calc_answer_t *a, char *msg, size_t n) {
    int r = cval(f, v, 0);
    const opfor_sv_command_t *cmd = &m->command[r];
    snprintf(a->title, sizeof a->title, "Command quality of the %s",
             r == 0 ? "commander" : "sub-commander");
    snprintf(a->dice, sizeof a->dice, "1D6");
    a->ndice = 1;
    a->has_expected = 1;
    opfor_calc_extra_array(a, "qualities"); /* the faces giving each quality */
    int lo = 1;
    for (int k = 0; k < 3; k++) {
        opfor_calc_extra_map(a, NULL);
        opfor_calc_extra_str(a, "quality", CQ[k]);
        opfor_calc_extra_int(a, "from", lo);
        opfor_calc_extra_int(a, "to", cmd->top[k]);
        opfor_calc_extra_int(a, "range", cmd->range[k]);
        opfor_calc_extra_end(a);
        double p = (cmd->top[k] - lo + 1) / 6.0;
        if (!(a->skip & OPFOR_CALC_SKIP_DIST)) {
            opfor_calc_outcome_t *o = &a->dist[a->ndist++];
            snprintf(o->label, sizeof o->label, "%s, %d in", CQ[k], cmd->range[k]);
            o->value = cmd->range[k];
            o->p = p;
        }
        a->expected += p * cmd->range[k];
        lo = cmd->top[k] + 1;
    }
    opfor_calc_extra_end(a);
    a->p = 1.0;
    opfor_calc_fact(a, "basic_range", "Range without variable quality", cmd->basic, "in", NULL);
    opfor_calc_note(a, "expected is the mean command range in inches");
    if (rolled && rolled[0]) {
        int face, cnt, rc = read_dice(rolled, 1, &face, 1, &cnt, msg, n);
        if (rc < 0)
            return rc;
        int k = 0;
        while (face > cmd->top[k])
            k++;
        a->rolled = 1;
        a->success = 1;
        snprintf(a->outcome, sizeof a->outcome, "%d: %s, units within %d in are in command", face,
                 CQ[k], cmd->range[k]);
    }
    return 0;
}

/* Formations that may not charge (§Charging), nor intercept or counter-charge (§Reactions 1);
 * open order by the model's reading (the Quick Reference Sheet forbids it, §Charging not). */
static const char *no_charge(const opfor_sv_model_t *m, int kind, int formation) {
    switch (formation) {
    case F_DEF_BLOCK:
        return kind == K_CHARGE ? "a unit in defensive block cannot charge" : NULL;
    case F_BENT_LINE:
    case F_BENT_OPEN:
    case F_ROAD:
    case F_BENT_ROAD:
        return kind == K_CHARGE ? "a unit in a bent formation or road column cannot charge"
                                : "a unit in a bent formation or road column cannot intercept";
    case F_OPEN:
        return kind == K_CHARGE && !m->open_order_may_charge ? "a unit in open order cannot charge"
                                                             : NULL;
    default:
        return NULL;
    }
}

static int run_test(const opfor_sv_model_t *m, const opfor_form_t *f, const opfor_value_t *v,
                    const char *rolled, opfor_calc_answer_t *a, char *msg, size_t n) {
    int kind = cval(f, v, 0), q = cval(f, v, 1), incmd = ival(f, v, 2), pikes = ival(f, v, 3),
        open = ival(f, v, 4), counter = ival(f, v, 6);
    int formation = v && v[5].set ? (int)v[5].num : open ? F_OPEN : -1;
    if (formation == F_OPEN || formation == F_BENT_OPEN)
        open = 1;
    snprintf(a->title, sizeof a->title, "Test: %s", KIND[kind]);
    const char *why =
        kind == K_CHARGE || kind == K_INTERCEPT ? no_charge(m, kind, formation) : NULL;
    if (why) {
        forbid(a, why);
        return 0;
    }
    const char *free_pass = NULL;
    if (kind == K_INTERCEPT && counter)
        free_pass = "a counter-charge needs no test"; /* §Reactions 1 */
    else if (incmd && (kind == K_CHARGE || kind == K_INTERCEPT || kind == K_HOLD_BACK))
        free_pass = "in command: no test is needed"; /* §Command; §Charging; §Reactions 1 */
    if (free_pass) {
        snprintf(a->dice, sizeof a->dice, "0");
        snprintf(a->needed, sizeof a->needed, "no test");
        a->p = 1.0;
        opfor_calc_note(a, free_pass);
        opfor_calc_extra_map(a, "working");
        opfor_calc_extra_bool(a, "tested", 0);
        opfor_calc_extra_end(a);
        if (rolled && rolled[0]) {
            a->rolled = 1;
            a->success = 1;
            snprintf(a->outcome, sizeof a->outcome, "%s: passes without testing", free_pass);
        }
        return 0;
    }
    switch (kind) {
    case K_CHARGE: /* §Charging: 3 or less; by quality (§Variable Unit Quality, model.yaml) */
        return test_answer(a, m->charge_need[q], "charges", "does not charge", rolled, msg, n);
    case K_INTERCEPT: /* §Reactions 1: 3 or less */
        return test_answer(a, 3, "intercepts", "does not intercept", rolled, msg, n);
    case K_HOLD_BACK: /* §Joining in: 3 or less, 5 or less in open order */
        return test_answer(a, open ? 5 : 3, "held back", "joins in", rolled, msg, n);
    case K_PULL_UP: /* §Reactions 4: 5 or less against pikes, else 3 or less */
        return test_answer(a, pikes ? 5 : 3, "pulls up short", "light impact", rolled, msg, n);
    default: /* §Reactions 4, charging home: 3 or less a light impact, else heavy */
        return test_answer(a, 3, "light impact", "heavy impact", rolled, msg, n);
    }
}

static int run_fire(const opfor_sv_model_t *m, const opfor_form_t *f, const opfor_value_t *v,
                    const char *rolled, opfor_calc_answer_t *a, char *msg, size_t n) {
    int stands = ival(f, v, 0), tgt = cval(f, v, 1), mounted = ival(f, v, 2), q = cval(f, v, 3);
    int mod = target_dice(tgt, mounted), nd = stands + mod;
    if (nd < 0)
        nd = 0;
    snprintf(a->title, sizeof a->title, "%d musket stand%s at %s%s", stands, stands == 1 ? "" : "s",
             FORMATION[tgt], mounted ? ", mounted" : "");
    opfor_calc_fact(a, "modifier", "Dice added for the target", mod, NULL, NULL);
    char note[160];
    snprintf(note, sizeof note, "%d stand%s %+d for the target = %dD6", stands,
             stands == 1 ? "" : "s", mod, nd);
    opfor_calc_note(a, note);
    opfor_calc_extra_map(a, "working");
    opfor_calc_extra_int(a, "stands", stands);
    opfor_calc_extra_int(a, "target_dice", mod);
    opfor_calc_extra_int(a, "hit_on", fire_need(m, q));
    opfor_calc_extra_end(a);
    return hits_answer(a, nd, fire_need(m, q), rolled, NULL, msg, n);
}

/* §The Firing Procedure: basic dice by gun and band (-1: cannot), bands' upper ends. */
static const int ART_DICE[3][4] = {{1, 0, -1, -1}, {2, 1, 0, -1}, {4, 2, 1, 0}};
static const double BAND_TOP[4] = {10, 20, 40, 60};
static const char *const BAND[4] = {"point blank hail shot", "close range hail shot",
                                    "medium range round shot", "long range round shot"};

static int run_artillery(const opfor_sv_model_t *m, const opfor_form_t *f, const opfor_value_t *v,
                         const char *rolled, opfor_calc_answer_t *a, char *msg, size_t n) {
    int gun = cval(f, v, 0), tgt = cval(f, v, 2), mounted = ival(f, v, 3), q = cval(f, v, 4);
    double range = nval(f, v, 1);
    int band = 0;
    while (band < 4 && range > BAND_TOP[band])
        band++;
    snprintf(a->title, sizeof a->title, "%s gun at %g in, %s%s", GUN[gun], range, FORMATION[tgt],
             mounted ? ", mounted" : "");
    if (band == 4 || ART_DICE[gun][band] < 0) {
        char why[120];
        int top = 0;
        while (top < 4 && ART_DICE[gun][top] >= 0)
            top++;
        snprintf(why, sizeof why, "a %s gun cannot fire beyond %g in", GUN[gun], BAND_TOP[top - 1]);
        forbid(a, why);
        return 0;
    }
    int mod = target_dice(tgt, mounted), nd = ART_DICE[gun][band] + mod;
    if (nd < 0)
        nd = 0;
    char basic[64];
    snprintf(basic, sizeof basic, "%d (%s)", ART_DICE[gun][band], BAND[band]);
    opfor_calc_fact(a, "basic", "Basic dice at this range", ART_DICE[gun][band], NULL, basic);
    opfor_calc_fact(a, "modifier", "Dice added for the target", mod, NULL, NULL);
    int bounce = band == 2 && gun != 0; /* only round shot at medium range, never frame guns */
    opfor_calc_fact(a, "bounce_through", "Bounce-through", bounce, NULL,
                    bounce ? "the misses are thrown again at the next target" : "none");
    opfor_calc_extra_map(a, "working");
    opfor_calc_extra_str(a, "band", BAND[band]);
    opfor_calc_extra_int(a, "basic", ART_DICE[gun][band]);
    opfor_calc_extra_int(a, "target_dice", mod);
    opfor_calc_extra_int(a, "hit_on", fire_need(m, q));
    opfor_calc_extra_bool(a, "bounce_through", bounce);
    opfor_calc_extra_end(a);
    int hits = 0, rc = hits_answer(a, nd, fire_need(m, q), rolled, &hits, msg, n);
    if (rc < 0)
        return rc;
    if (a->rolled && bounce) {
        size_t l = strlen(a->outcome);
        snprintf(a->outcome + l, sizeof a->outcome - l, "; bounce-through: %dD6 at the next target",
                 nd - hits);
    }
    return 0;
}

/* Mounted stands for the hand-to-hand modifiers; a command stand when the model says so. */
static int is_mounted(const opfor_sv_model_t *m, int stand) {
    return stand == ST_DRAGOONS || stand == ST_MOUNTED || stand == ST_HEAVY ||
           (stand == ST_COMMAND && m->command_stand_mounted);
}
static int is_loose(int formation) {
    return formation == F_OPEN || formation == F_BENT_OPEN || formation == F_ROAD ||
           formation == F_BENT_ROAD;
}

static int run_melee(const opfor_sv_model_t *m, const opfor_form_t *f, const opfor_value_t *v,
                     const char *rolled, opfor_calc_answer_t *a, char *msg, size_t n) {
    int stand = cval(f, v, 0), stands = ival(f, v, 1), own = cval(f, v, 2), def = cval(f, v, 3),
        dmounted = ival(f, v, 4), pikes = ival(f, v, 5), outflank = ival(f, v, 6),
        q = cval(f, v, 7);
    int cv = BASIC_CV[stand];
    char note[160];
    snprintf(a->title, sizeof a->title, "%d %s stand%s against %s", stands, STAND[stand],
             stands == 1 ? "" : "s", FORMATION[def]);
    snprintf(note, sizeof note, "basic CV %d", cv);
    opfor_calc_note(a, note);
    if (is_loose(own)) {
        cv -= 1;
        opfor_calc_note(a, "-1: fighting in open order or road column");
    }
    if (is_mounted(m, stand)) {
        if (!dmounted && is_loose(def)) {
            cv += 1;
            opfor_calc_note(a, "+1: mounted against foot in open order or road column");
        }
        if (def == F_BLOCK && pikes) {
            cv -= 1;
            opfor_calc_note(a, "-1: mounted against a block with pikes");
        }
        if (def == F_DEF_BLOCK) {
            cv -= pikes ? 2 : 1;
            opfor_calc_note(a, pikes ? "-2: mounted against a defensive block with pikes"
                                     : "-1: mounted against a defensive block");
        }
    }
    if (m->melee_bonus[q]) { /* §Variable Unit Quality: a veteran stand +1 */
        cv += m->melee_bonus[q];
        snprintf(note, sizeof note, "%+d: %s", m->melee_bonus[q], QUALITY[q]);
        opfor_calc_note(a, note);
    }
    opfor_calc_fact(a, "cv", "Modified combat value", cv, NULL, NULL);
    int nd = stands * (outflank ? 2 : 1);
    opfor_calc_extra_map(a, "working");
    opfor_calc_extra_int(a, "basic_cv", BASIC_CV[stand]);
    opfor_calc_extra_int(a, "cv", cv);
    opfor_calc_extra_int(a, "dice_per_stand", outflank ? 2 : 1);
    opfor_calc_extra_end(a);
    return hits_answer(a, nd, cv, rolled, NULL, msg, n);
}

static int run(const void *model, const opfor_form_t *form, const opfor_value_t *vals,
               const char *rolled, opfor_calc_answer_t *out, char *msg, size_t n) {
    const opfor_sv_model_t *m = model ? model : &opfor__sv_model_builtin;
    char scratch[8];
    if (!msg || n == 0) {
        msg = scratch;
        n = sizeof scratch;
    }
    msg[0] = 0;
    if (!form || !out || form < ACTIONS || form >= ACTIONS + NF(ACTIONS)) {
        snprintf(msg, n, "action: not one of this calculator's");
        return OPFOR_EINVAL;
    }
    out->allowed = 1;
    switch ((int)(form - ACTIONS)) {
    case A_BREAK:
        return run_breakpoints(form, vals, rolled, out, msg, n);
    case A_COMMAND:
        return run_command(m, form, vals, rolled, out, msg, n);
    case A_TEST:
        return run_test(m, form, vals, rolled, out, msg, n);
    case A_FIRE:
        return run_fire(m, form, vals, rolled, out, msg, n);
    case A_ART:
        return run_artillery(m, form, vals, rolled, out, msg, n);
    default:
        return run_melee(m, form, vals, rolled, out, msg, n);
    }
}

const opfor_ruleset_calc_t opfor__sv_calc = {
    .actions = ACTIONS,
    .nactions = NF(ACTIONS),
    .model_load = opfor__sv_model_load,
    .model_free = opfor__sv_model_free,
    .run = run,
    .model_load_text = opfor__sv_model_load_text,
    .help = "A Splendid Victory!: breakpoints, command quality, the 1D6 tests, musket and\n"
            "artillery fire and hand-to-hand, each with the chance of every outcome.\n",
    .examples = "  opfor calc splendid fire --stands 4 --target block --mounted\n"
                "  opfor calc splendid artillery --gun heavy --range 19 --target block\n"
                "  opfor calc splendid breakpoints --stands 69\n",
};
