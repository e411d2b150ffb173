/* rulesets/splendid/calc.c — A Splendid Victory!'s calculator in the shared answer schema
 * (opfor/ruleset_calc.h): breakpoints, command, test, fire, artillery, melee and the army
 * generator (calc_army.c). Each answers the dice thrown, the score needed, the chance, and for
 * rolls of several dice the whole distribution of hits; given the dice rolled at the table
 * (--rolled), what happened; a roll the rules forbid, allowed 0 and the rule. Sections are the
 * seed's headings; the readings (R-n) are docs/splendid.md's section 7, switched in model.yaml.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc_army.h"
#include "splendid_int.h"

/* ---------------------------------------------------------------- choices */

static const char *const QUALITY[] = {"raw", "regular", "veteran", NULL};
enum { Q_RAW, Q_REGULAR, Q_VETERAN };
static const char *const RANK[] = {"commander", "sub", NULL};
static const char *const KIND[] = {"charge",      "intercept", "hold-back",  "pull-up-short",
                                   "charge-home", "extend",    "initiative", NULL};
enum { K_CHARGE, K_INTERCEPT, K_HOLD_BACK, K_PULL_UP, K_CHARGE_HOME, K_EXTEND, K_INITIATIVE };
static const char *const FORMATION[] = {
    "block",       "defensive-block",  "line",     "bent-line",  "open-order", "bent-open-order",
    "road-column", "bent-road-column", "limbered", "unlimbered", NULL};
enum {
    F_BLOCK,
    F_DEF_BLOCK,
    F_LINE,
    F_BENT_LINE,
    F_OPEN,
    F_BENT_OPEN,
    F_ROAD,
    F_BENT_ROAD,
    F_LIMBERED,
    F_UNLIMBERED
};
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
#define TERRAIN_FIELD(nm, lbl, hlp)                                                                \
    {                                                                                              \
        .name = nm, .label = lbl, .help = hlp, .type = OPFOR_FIELD_CHOICE, .def_text = "open",     \
        .choices = opfor__sv_terrain_names                                                         \
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
    {.name = "tally",
     .label = "Stands lost",
     .help = "the running tally of stands lost (as --rolled): what has happened",
     .type = OPFOR_FIELD_INT,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 0,
     .max = 10000},
    {.name = "opponent-stands",
     .label = "Opponent's stands",
     .help = "the other army's stands, for the game's result",
     .type = OPFOR_FIELD_INT,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 1,
     .max = 10000},
    {.name = "opponent-tally",
     .label = "Opponent's stands lost",
     .help = "the other army's running tally, for the game's result",
     .type = OPFOR_FIELD_INT,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 0,
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
    FLAG_FIELD("mounted", "Mounted", "the unit tested is a mounted unit (charge, extend)"),
    FLAG_FIELD("heavy", "Heavy charger",
               "charge-home: the charger is Heavy Mounted or lance-armed (one more marker)"),
    {.name = "gap",
     .label = "Gap",
     .help = "extend: inches beyond the charge allowance to the target",
     .type = OPFOR_FIELD_NUM,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 0,
     .max = 100,
     .unit = "in"},
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
    FLAG_FIELD("defensive", "Defensive fire",
               "at a charger (§Reactions 6): flinch, melee or light impact"),
    TERRAIN_FIELD("terrain", "Target's terrain",
                  "terrain the target stands in (model.yaml terrain: fire_dice)"),
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
    FLAG_FIELD("bounce", "Bounce-through",
               "the misses bounce on to a target at medium range (§Bounce-Through)"),
    FLAG_FIELD("defensive", "Defensive fire",
               "the gun is charged (§Reactions 7): the charger flinches or the gun is overrun"),
    TERRAIN_FIELD("terrain", "Target's terrain",
                  "terrain the target stands in (model.yaml terrain: fire_dice)"),
    TERRAIN_FIELD("bounce-terrain", "Bounce target's terrain",
                  "terrain the bounce-through's target stands in (its only modifier)"),
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
    TERRAIN_FIELD("terrain", "Own terrain",
                  "terrain the fighting unit stands in (model.yaml terrain: cv, foot stands)"),
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
    {.name = "army",
     .title = "Army generator",
     .section = "Appendix – Generating an Army",
     .help = "2D6 a throw: the units fielded (--rolled 9,3 or --seed N; --collection FILE; "
             "--out FILE writes the units for a scenario)",
     .fields = opfor__sv_army_fields,
     .nfields = SV_ARMY_NFIELDS},
};
enum { A_BREAK, A_COMMAND, A_TEST, A_FIRE, A_ART, A_MELEE, A_ARMY };

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
    opfor_calc_forbid(a, "%s", why);
}

/* Artillery (limbered or not) is in open order at all times (§Open Order Formation). */
static int is_open(int formation) {
    return formation == F_OPEN || formation == F_BENT_OPEN || formation == F_LIMBERED ||
           formation == F_UNLIMBERED;
}
/* The formations of melee modifiers 1 and 2: open order (artillery included), road column. */
static int is_loose(int formation) {
    return is_open(formation) || formation == F_ROAD || formation == F_BENT_ROAD;
}

/* The target modifiers of §The Firing Procedure, for muskets and artillery alike (R-10: a
 * defensive block +2, not +3). */
static int target_dice(int formation, int mounted) {
    int d = 0;
    if (formation == F_BLOCK)
        d += 1;
    else if (formation == F_DEF_BLOCK)
        d += 2;
    else if (is_open(formation))
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

/* The chance of exactly k hits of n dice each hitting with chance q. */
static double binom(int n, int k, double q) {
    return choose(n, k) * pow(q, k) * pow(1.0 - q, n - k);
}

/* §Reactions 6 and 7: a charger taking two hits or more flinches. Adds the facts for fire at
 * a charger of nd dice hitting with chance q: foot (gun 0) flinch / melee / light impact,
 * a gun flinch / overrun. */
static void defensive_facts(opfor_calc_answer_t *a, int nd, double q, int gun) {
    double p0 = binom(nd, 0, q), p1 = nd >= 1 ? binom(nd, 1, q) : 0.0;
    double flinch = 1.0 - p0 - p1;
    opfor_calc_fact(a, "flinch", "The charger flinches (2 hits or more)", flinch, NULL, NULL);
    if (gun) {
        opfor_calc_fact(a, "overrun", "The gun is overrun (0 or 1 hit)", p0 + p1, NULL, NULL);
        opfor_calc_note(a, "§Reactions 7: two hits or more and the charger flinches 3 in; "
                           "else the gun is overrun and the charger breaks through");
    } else {
        opfor_calc_fact(a, "melee", "Both wait for the melee (1 hit)", p1, NULL, NULL);
        opfor_calc_fact(a, "light_impact", "Light impact on the firer (no hit)", p0, NULL, NULL);
        opfor_calc_note(a, "§Reactions 6: two hits or more and the charger flinches 3 in; one "
                           "hit, both wait for the melee; none, a light impact on the firer");
    }
}

/* ---------------------------------------------------------------- actions */

/* The game's result when one side's tally passes its half (§The Determine Victory Phase):
 * the other side's tally against its own third and half. */
static const char *result_of(int over, int ostands, int otally) {
    int oq, ot, oh;
    opfor__sv_breakpoints(ostands, &oq, &ot, &oh);
    (void)oq;
    if (!over)
        return otally > oh ? "the opponent's army breaks: this side wins" : "the game goes on";
    if (otally > oh)
        return "a draw: both armies are past their half";
    if (otally > ot)
        return "the opponent gains A Minor Victory";
    return "the opponent gains A Splendid Victory!";
}

static int run_breakpoints(const opfor_form_t *f, const opfor_value_t *v, const char *rolled,
                           opfor_calc_answer_t *a, char *msg, size_t n) {
    int stands = ival(f, v, 0), q, t, h;
    opfor__sv_breakpoints(stands, &q, &t, &h);
    snprintf(a->title, sizeof a->title, "Breakpoints of an army of %d stands", stands);
    snprintf(a->dice, sizeof a->dice, "0D6");
    opfor_calc_fact(a, "quarter", "Quarter (sub-commanders go)", q, NULL, NULL);
    opfor_calc_fact(a, "third", "Third (the commander goes)", t, NULL, NULL);
    opfor_calc_fact(a, "half", "Half (the army's breakpoint)", h, NULL, NULL);
    opfor_calc_fact(a, "quarter_at", "Sub-commanders go at a tally of", q + 1, NULL, NULL);
    opfor_calc_fact(a, "third_at", "The commander goes at", t + 1, NULL, NULL);
    opfor_calc_fact(a, "half_at", "The game is over at", h + 1, NULL, NULL);
    opfor_calc_note(a, "each value rounded up; a tally that exceeds it takes effect");
    opfor_calc_extra_map(a, "working"); /* the values before rounding */
    opfor_calc_extra_int(a, "army", stands);
    opfor_calc_extra_num(a, "quarter_exact", stands / 4.0);
    opfor_calc_extra_num(a, "third_exact", stands / 3.0);
    opfor_calc_extra_num(a, "half_exact", stands / 2.0);
    opfor_calc_extra_end(a);
    int ti = opfor_form_field(f, "tally"), oi = opfor_form_field(f, "opponent-stands"),
        ui = opfor_form_field(f, "opponent-tally");
    long tally = -1;
    if (v && v[ti].set)
        tally = (long)v[ti].num;
    if (rolled && rolled[0]) {
        char *end = NULL;
        long r = strtol(rolled, &end, 10);
        if (end == rolled || *end || r < 0 || r > stands || (tally >= 0 && r != tally)) {
            snprintf(msg, n, "rolled: '%s' is not a tally of stands lost (0..%d)", rolled, stands);
            return OPFOR_EINVAL;
        }
        tally = r;
    }
    if (tally > stands) {
        snprintf(msg, n, "--tally: %ld stands lost of an army of %d", tally, stands);
        return OPFOR_EINVAL;
    }
    int has_opp = v && v[oi].set && v[ui].set;
    if (v && (v[oi].set != v[ui].set)) {
        snprintf(msg, n, "--opponent-stands and --opponent-tally go together");
        return OPFOR_EINVAL;
    }
    if (has_opp && v[ui].num > v[oi].num) {
        snprintf(msg, n, "--opponent-tally: more stands lost than the opponent has");
        return OPFOR_EINVAL;
    }
    if (tally >= 0) {
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
        if (has_opp) {
            size_t l = strlen(a->outcome);
            snprintf(a->outcome + l, sizeof a->outcome - l, "; %s",
                     result_of(tally > h, (int)v[oi].num, (int)v[ui].num));
            opfor_calc_fact(a, "result", "Result", 0, NULL,
                            result_of(tally > h, (int)v[oi].num, (int)v[ui].num));
        }
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

/* Formations that may not charge (§How does a unit charge?), nor intercept or counter-charge
 * (§Reactions 1); open order by the model's reading (R-16: the foot units' movement table says
 * units in open order cannot charge, the mounted table and the charge section say nothing). */
static const char *no_charge(const opfor_sv_model_t *m, int kind, int formation, int mounted) {
    switch (formation) {
    case F_DEF_BLOCK:
        return kind == K_CHARGE ? "a unit in defensive block cannot charge" : NULL;
    case F_BENT_LINE:
    case F_BENT_OPEN:
    case F_ROAD:
    case F_BENT_ROAD:
        return kind == K_CHARGE ? "a unit in a bent formation or road column cannot charge"
                                : "a unit in a bent formation or road column cannot intercept";
    case F_LIMBERED:
    case F_UNLIMBERED:
        return "artillery cannot charge or intercept";
    case F_OPEN:
        if (kind != K_CHARGE || m->open_order_may_charge == SV_OO_ALL ||
            (mounted && m->open_order_may_charge == SV_OO_MOUNTED))
            return NULL;
        return mounted ? "a unit in open order cannot charge (model: open_order_may_charge none)"
                       : "a foot unit in open order cannot charge (the foot units' movement table)";
    default:
        return NULL;
    }
}

/* §What if a potential target ... is just outside of the normal charge move distance?: a
 * mounted unit goes a further 1D6 in and reaches a target gap inches on; a foot unit 2 in. */
static int run_extend(const opfor_form_t *f, const opfor_value_t *v, const char *rolled,
                      opfor_calc_answer_t *a, char *msg, size_t n) {
    int gi = opfor_form_field(f, "gap");
    int mounted = ival(f, v, opfor_form_field(f, "mounted"));
    double gap = v && v[gi].set ? v[gi].num : 0.0;
    if (!(v && v[gi].set)) {
        snprintf(msg, n, "--gap: extend needs the inches beyond the charge allowance");
        return OPFOR_EINVAL;
    }
    snprintf(a->title, sizeof a->title, "Extended charge of %g in, %s", gap,
             mounted ? "mounted" : "foot");
    if (gap > (mounted ? 6.0 : 2.0)) {
        forbid(a, mounted ? "a mounted unit extends its charge at most 6 in"
                          : "a foot unit extends its charge at most 2 in");
        return 0;
    }
    opfor_calc_note(a, "the charge test is thrown first (test --kind charge); a unit that "
                       "extends takes one green marker when it charges");
    if (!mounted) { /* a further 2 in: no die */
        snprintf(a->dice, sizeof a->dice, "0D6");
        snprintf(a->needed, sizeof a->needed, "no roll");
        a->p = 1.0;
        opfor_calc_note(a, "a foot unit charges a further 2 in");
        if (rolled && rolled[0]) {
            a->rolled = 1;
            a->success = 1;
            snprintf(a->outcome, sizeof a->outcome, "reaches the target, 1 marker");
        }
        return 0;
    }
    int need = (int)ceil(gap - 1e-9);
    if (need < 1)
        need = 1;
    snprintf(a->dice, sizeof a->dice, "1D6");
    a->ndice = 1;
    snprintf(a->needed, sizeof a->needed, "%d or more", need);
    a->p = (7 - need) / 6.0;
    a->has_expected = 1;
    a->expected = 3.5;
    if (!(a->skip & OPFOR_CALC_SKIP_DIST)) {
        snprintf(a->dist[0].label, sizeof a->dist[0].label, "reaches");
        a->dist[0].value = 1;
        a->dist[0].p = a->p;
        snprintf(a->dist[1].label, sizeof a->dist[1].label, "stops short");
        a->dist[1].value = 0;
        a->dist[1].p = 1.0 - a->p;
        a->ndist = 2;
    }
    opfor_calc_note(a, "expected is the mean further inches; the mounted unit must go them");
    if (rolled && rolled[0]) {
        int face, cnt, rc = read_dice(rolled, 1, &face, 1, &cnt, msg, n);
        if (rc < 0)
            return rc;
        a->rolled = 1;
        a->success = face >= need;
        snprintf(a->outcome, sizeof a->outcome, "%d: %s, 1 marker", face,
                 face >= need ? "reaches the target" : "short of the target");
    }
    return 0;
}

/* §The Determine the Initiative Phase: each side 2D6, the lower total wins, ties again. */
static int run_initiative(const char *rolled, opfor_calc_answer_t *a, char *msg, size_t n) {
    snprintf(a->title, sizeof a->title, "Initiative: 2D6 each, the lower wins");
    snprintf(a->dice, sizeof a->dice, "2D6");
    a->ndice = 2;
    snprintf(a->needed, sizeof a->needed, "lower than the other side");
    a->p = 0.5;
    double tie = 0; /* sum over totals of P(total)^2 = 146/1296 */
    for (int t = 2; t <= 12; t++) {
        double p = (t <= 7 ? t - 1 : 13 - t) / 36.0;
        tie += p * p;
    }
    opfor_calc_fact(a, "tie", "A tie on one throw (thrown again)", tie, NULL, NULL);
    if (!(a->skip & OPFOR_CALC_SKIP_DIST)) {
        snprintf(a->dist[0].label, sizeof a->dist[0].label, "this side");
        a->dist[0].value = 1;
        a->dist[0].p = 0.5;
        snprintf(a->dist[1].label, sizeof a->dist[1].label, "the other side");
        a->dist[1].value = 0;
        a->dist[1].p = 0.5;
        a->ndist = 2;
    }
    if (rolled && rolled[0]) {
        int t[2], k = 0;
        const char *p = rolled;
        for (; k < 2 && *p; k++) {
            char *end = NULL;
            long v = strtol(p, &end, 10);
            if (end == p || v < 2 || v > 12)
                break;
            t[k] = (int)v;
            p = end;
            if (*p == ',')
                p++;
        }
        if (k != 2 || *p) {
            snprintf(msg, n, "rolled: give the two sides' 2D6 totals (5,8)");
            return OPFOR_EINVAL;
        }
        a->rolled = 1;
        a->success = t[0] < t[1];
        if (t[0] == t[1])
            snprintf(a->outcome, sizeof a->outcome, "%d and %d: a tie, both throw again", t[0],
                     t[1]);
        else
            snprintf(a->outcome, sizeof a->outcome,
                     "%d and %d: the side with %d has the initiative", t[0], t[1],
                     t[0] < t[1] ? t[0] : t[1]);
    }
    return 0;
}

static int run_test(const opfor_sv_model_t *m, const opfor_form_t *f, const opfor_value_t *v,
                    const char *rolled, opfor_calc_answer_t *a, char *msg, size_t n) {
    int kind = cval(f, v, 0), q = cval(f, v, 1), incmd = ival(f, v, 2), pikes = ival(f, v, 3),
        open = ival(f, v, 4), counter = ival(f, v, 6);
    int mounted = ival(f, v, opfor_form_field(f, "mounted"));
    int heavy = ival(f, v, opfor_form_field(f, "heavy"));
    int formation = v && v[5].set ? (int)v[5].num : open ? F_OPEN : -1;
    if (formation == F_OPEN || formation == F_BENT_OPEN)
        open = 1;
    snprintf(a->title, sizeof a->title, "Test: %s", KIND[kind]);
    if (kind == K_EXTEND)
        return run_extend(f, v, rolled, a, msg, n);
    if (kind == K_INITIATIVE)
        return run_initiative(rolled, a, msg, n);
    const char *why =
        kind == K_CHARGE || kind == K_INTERCEPT ? no_charge(m, kind, formation, mounted) : NULL;
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
        snprintf(a->dice, sizeof a->dice, "0D6");
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
    default: { /* §Reactions 4, charging home: 3 or less a light impact, else heavy; a Heavy
                * Mounted or lance-armed charger one marker more */
        int light = heavy ? 2 : 1, hard = heavy ? 3 : 2;
        char pass[48], fail[48];
        snprintf(pass, sizeof pass, "light impact (%d marker%s)", light, light == 1 ? "" : "s");
        snprintf(fail, sizeof fail, "heavy impact (%d markers)", hard);
        int rc = test_answer(a, 3, pass, fail, rolled, msg, n);
        if (a->ndist == 2) {
            a->dist[0].value = light;
            a->dist[1].value = hard;
        }
        a->has_expected = 1;
        a->expected = 0.5 * light + 0.5 * hard;
        opfor_calc_note(a, "expected is the green markers on the foot unit");
        return rc;
    }
    }
}

static int run_fire(const opfor_sv_model_t *m, const opfor_form_t *f, const opfor_value_t *v,
                    const char *rolled, opfor_calc_answer_t *a, char *msg, size_t n) {
    int stands = ival(f, v, 0), tgt = cval(f, v, 1), mounted = ival(f, v, 2), q = cval(f, v, 3);
    int defensive = ival(f, v, opfor_form_field(f, "defensive"));
    int ter = cval(f, v, opfor_form_field(f, "terrain")), tdice = m->terrain[ter].fire_dice;
    int mod = target_dice(tgt, mounted) + tdice, nd = stands + mod;
    if (nd < 0)
        nd = 0;
    snprintf(a->title, sizeof a->title, "%d musket stand%s at %s%s%s%s", stands,
             stands == 1 ? "" : "s", FORMATION[tgt], mounted ? ", mounted" : "", ter ? " in " : "",
             ter ? opfor__sv_terrain_names[ter] : "");
    if (nd == 0) { /* a stand left with no dice does not fire */
        forbid(a, "no dice after the target's modifiers: the stands cannot fire (R-12)");
        return 0;
    }
    opfor_calc_fact(a, "modifier", "Dice added for the target", mod, NULL, NULL);
    char note[160];
    snprintf(note, sizeof note, "%d stand%s %+d for the target (terrain %+d) = %dD6", stands,
             stands == 1 ? "" : "s", mod, tdice, nd);
    opfor_calc_note(a, note);
    opfor_calc_extra_map(a, "working");
    opfor_calc_extra_int(a, "stands", stands);
    opfor_calc_extra_int(a, "target_dice", mod);
    opfor_calc_extra_int(a, "terrain_dice", tdice);
    opfor_calc_extra_int(a, "hit_on", fire_need(m, q));
    opfor_calc_extra_end(a);
    if (defensive)
        defensive_facts(a, nd, fire_need(m, q) / 6.0, 0);
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
    int want_bounce = ival(f, v, opfor_form_field(f, "bounce"));
    int defensive = ival(f, v, opfor_form_field(f, "defensive"));
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
    int ter = cval(f, v, opfor_form_field(f, "terrain")), tdice = m->terrain[ter].fire_dice;
    int bter = cval(f, v, opfor_form_field(f, "bounce-terrain"));
    int bdice = m->terrain[bter].fire_dice;
    int mod = target_dice(tgt, mounted) + tdice, nd = ART_DICE[gun][band] + mod;
    if (nd < 0)
        nd = 0;
    if (nd == 0) { /* */
        forbid(a, "no dice after the target's modifiers: the gun cannot fire (R-12)");
        return 0;
    }
    /* §Bounce-Through: never frame guns, never from long range; the first shot at any band
     * where the gun threw dice (R-3, the text's example bounces from 19 in) or only round shot
     * at medium range (model: bounce_first_shot round_shot) */
    int bounce = gun != 0 && band < 3 && (m->bounce_any_band || band == 2);
    if (want_bounce && !bounce) {
        forbid(a, gun == 0    ? "frame guns never bounce through"
                  : band == 3 ? "long range round shot does not bounce through"
                              : "only round shot bounces through (model: bounce_first_shot)");
        return 0;
    }
    char basic[64];
    snprintf(basic, sizeof basic, "%d (%s)", ART_DICE[gun][band], BAND[band]);
    opfor_calc_fact(a, "basic", "Basic dice at this range", ART_DICE[gun][band], NULL, basic);
    opfor_calc_fact(a, "modifier", "Dice added for the target", mod, NULL, NULL);
    opfor_calc_fact(a, "bounce_through", "Bounce-through", bounce, NULL,
                    bounce ? "the misses are thrown again at a target at medium range" : "none");
    int need = fire_need(m, q);
    double qh = need / 6.0;
    opfor_calc_extra_map(a, "working");
    opfor_calc_extra_str(a, "band", BAND[band]);
    opfor_calc_extra_int(a, "basic", ART_DICE[gun][band]);
    opfor_calc_extra_int(a, "target_dice", mod);
    opfor_calc_extra_int(a, "terrain_dice", tdice);
    opfor_calc_extra_int(a, "hit_on", need);
    opfor_calc_extra_bool(a, "bounce_through", bounce);
    opfor_calc_extra_end(a);
    if (want_bounce) { /* the misses, plus the bounce target's terrain dice, thrown again */
        double qb = (m->quality_on_bounce ? qh : 2.0 / 6.0);
        int most = nd + (bdice > 0 ? bdice : 0);
        double dist[64] = {0};
        if (most > 63)
            most = 63;
        for (int h = 0; h <= nd; h++) { /* h hits on the first target: nd - h misses */
            int bd = nd - h + bdice;
            double ph = binom(nd, h, qh);
            if (bd <= 0) {
                dist[0] += ph;
                continue;
            }
            for (int k = 0; k <= bd && k <= most; k++)
                dist[k] += ph * binom(bd, k, qb);
        }
        double ex = 0.0;
        for (int k = 0; k <= most; k++)
            ex += k * dist[k];
        opfor_calc_fact(a, "bounce_expected", "Bounce hits expected", ex, NULL, NULL);
        opfor_calc_extra_map(a, "bounce");
        opfor_calc_extra_int(a, "terrain_dice", bdice);
        opfor_calc_extra_num(a, "expected", ex);
        opfor_calc_extra_array(a, "distribution");
        for (int k = 0; k <= most; k++) {
            opfor_calc_extra_map(a, NULL);
            opfor_calc_extra_int(a, "hits", k);
            opfor_calc_extra_num(a, "p", dist[k]);
            opfor_calc_extra_end(a);
        }
        opfor_calc_extra_end(a);
        opfor_calc_extra_end(a);
        opfor_calc_note(a, "bounce-through: one die per miss at the bounce target, no modifiers "
                           "but terrain, no further bounce");
    }
    if (defensive)
        defensive_facts(a, nd, qh, 1);
    int hits = 0, rc = hits_answer(a, nd, need, rolled, &hits, msg, n);
    if (rc < 0)
        return rc;
    if (a->rolled && bounce) {
        size_t l = strlen(a->outcome);
        int bd = nd - hits + bdice;
        snprintf(a->outcome + l, sizeof a->outcome - l, "; bounce-through: %dD6 at the next target",
                 bd > 0 ? bd : 0);
    }
    return 0;
}

/* Mounted stands for the hand-to-hand modifiers; a command stand by the model. */
static int is_mounted(const opfor_sv_model_t *m, int stand) {
    return stand == ST_DRAGOONS || stand == ST_MOUNTED || stand == ST_HEAVY ||
           (stand == ST_COMMAND && m->command_stand_mounted);
}

static int run_melee(const opfor_sv_model_t *m, const opfor_form_t *f, const opfor_value_t *v,
                     const char *rolled, opfor_calc_answer_t *a, char *msg, size_t n) {
    int stand = cval(f, v, 0), stands = ival(f, v, 1), own = cval(f, v, 2), def = cval(f, v, 3),
        dmounted = ival(f, v, 4), pikes = ival(f, v, 5), outflank = ival(f, v, 6),
        q = cval(f, v, 7);
    int own_set = v && v[2].set;
    int cv = BASIC_CV[stand];
    char note[160];
    snprintf(a->title, sizeof a->title, "%d %s stand%s against %s", stands, STAND[stand],
             stands == 1 ? "" : "s", FORMATION[def]);
    /* what the stand cannot be in or do (§Open Order Formation, §Can a unit be outflanked?) */
    if (outflank && def == F_DEF_BLOCK) {
        forbid(a, "a defensive block cannot be outflanked");
        return 0;
    }
    if (stand == ST_COMMAND && own_set && !is_open(own)) {
        forbid(a, "a command stand is in open order at all times");
        return 0;
    }
    if ((stand == ST_PIKES || stand == ST_HEAVY) && (own == F_OPEN || own == F_BENT_OPEN)) {
        forbid(a, stand == ST_PIKES ? "a unit with pikes cannot form open order"
                                    : "a Heavy Mounted unit cannot form open order");
        return 0;
    }
    if ((own == F_LIMBERED || own == F_UNLIMBERED) && stand != ST_IMPROVISED) {
        forbid(a, "only an artillery crew (improvised weapons) fights as artillery");
        return 0;
    }
    if (stand == ST_COMMAND)
        own = F_OPEN; /* always open order (§Open Order Formation) */
    snprintf(note, sizeof note, "basic CV %d", cv);
    opfor_calc_note(a, note);
    int always_open = stand == ST_COMMAND || own == F_LIMBERED || own == F_UNLIMBERED;
    if (is_loose(own) && (!always_open || m->always_open_cv_penalty)) {
        cv -= 1;
        opfor_calc_note(a, always_open ? "-1: in open order at all times (R-30)"
                                       : "-1: fighting in open order or road column");
    }
    if (is_mounted(m, stand)) {
        int dm = dmounted && def != F_LIMBERED && def != F_UNLIMBERED; /* artillery is foot */
        if (!dm && is_loose(def)) {
            cv += 1;
            opfor_calc_note(a, "+1: mounted against a non-mounted unit in open order or road "
                               "column");
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
    int ter = cval(f, v, opfor_form_field(f, "terrain"));
    int foot = !is_mounted(m, stand) && stand != ST_IMPROVISED && stand != ST_COMMAND;
    if (foot && m->terrain[ter].cv) { /* a foot stand fighting from terrain (docs 5) */
        cv += m->terrain[ter].cv;
        snprintf(note, sizeof note, "%+d: a foot stand fighting from %s", m->terrain[ter].cv,
                 opfor__sv_terrain_names[ter]);
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
    case A_ARMY:
        return opfor__sv_run_army(model, form, vals, rolled, out, msg, n);
    default:
        return run_melee(m, form, vals, rolled, out, msg, n);
    }
}

static int export_file(const void *model, const opfor_form_t *form, const opfor_value_t *vals,
                       const char *rolled, char *buf, size_t n, char *msg, size_t mn) {
    if (form != &ACTIONS[A_ARMY]) {
        snprintf(msg, mn, "out: only the army action writes a file");
        return OPFOR_ENOTSUP;
    }
    int rc = opfor_form_check(form, vals, msg, mn);
    if (rc)
        return rc;
    return opfor__sv_export_army(model, form, vals, rolled, buf, n, msg, mn);
}

const opfor_ruleset_calc_t opfor__sv_calc = {
    .actions = ACTIONS,
    .nactions = NF(ACTIONS),
    .model_load = opfor__sv_model_load,
    .model_free = opfor__sv_model_free,
    .run = run,
    .model_load_text = opfor__sv_model_load_text,
    .export_file = export_file,
    .help = "A Splendid Victory!: breakpoints, command quality, the 1D6 tests, musket and\n"
            "artillery fire, hand-to-hand and the army generator, each with the chance of\n"
            "every outcome.\n",
    .examples = "  opfor calc splendid fire --stands 4 --target block --mounted\n"
                "  opfor calc splendid artillery --gun heavy --range 19 --target block\n"
                "  opfor calc splendid breakpoints --stands 69\n"
                "  opfor calc splendid army --throws 12 --seed 7 --out army.yaml\n",
};
