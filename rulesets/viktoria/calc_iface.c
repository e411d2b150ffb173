/* rulesets/viktoria/calc_iface.c — the Viktoria! calculator through the shared interface
 * (opfor/ruleset_calc.h): each action of calc.c as a typed form, and its result as the shared
 * answer.
 *
 * The forms mirror calc.c's action table one to one (form i is action i, its fields in the
 * action's order; tests/rulesets/test_calc_iface.c holds them together), so a generic client
 * builds the same questions the app asks. Values are read by calc.c's own parser (the parse
 * hook), which keeps every spelling and message of the app ("20in", "officer", "colors"). An
 * answer carries the generic parts (the first roll's dice, score and chance; the expected
 * distance; a distribution; facts and notes) and Viktoria!'s own: its rolls, tables,
 * distances and outcomes as the extra tree (the wire and JSON shape of calc.c's result) and as
 * the app's lines of text (calc_text.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ruleset_calc.h"
#include "opfor/text.h"
#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/model.h"

/* ------------------------------------------------------------------ choices */

static const char *const QUALITIES[] = {"civilian", "conscript", "soldier",
                                        "veteran",  "elite",     NULL};
static const char *const CLASSES[] = {"civilian", "conscript", "soldier", "veteran",
                                      "elite",    "transport", NULL};
static const char *const COVERS[] = {"none", "soft", "hard", "fortification", NULL};
static const char *const BRACKETS[] = {"point_blank", "short", "medium", "long", NULL};
static const char *const GUNS[] = {"field", "heavy", NULL};
static const char *const BLASTS[] = {"bomb", "shell", "heavy", NULL};
static const char *const TERRAINS[] = {"open", "rough", "road", NULL};
static const char *const WINDS[] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW", NULL};

/* ------------------------------------------------------------------ fields */

#define CHOICE(nm, lb, hp, ch, df, kd, kt)                                                         \
    {                                                                                              \
        .name = nm, .label = lb, .help = hp, .type = OPFOR_FIELD_CHOICE, .def_text = df,           \
        .choices = ch, .kind = kd, .kind_text = kt                                                 \
    }
#define FLAG(nm, lb, hp, df)                                                                       \
    { .name = nm, .label = lb, .help = hp, .type = OPFOR_FIELD_BOOL, .def = df, .kind = "flag" }
#define FLAG_A(nm, lb, hp, al)                                                                     \
    { .name = nm, .label = lb, .help = hp, .type = OPFOR_FIELD_BOOL, .kind = "flag", .alias = al }
#define NUMBER(nm, lb, hp, lo, hi, df, fl)                                                         \
    {                                                                                              \
        .name = nm, .label = lb, .help = hp, .type = OPFOR_FIELD_INT, .flags = fl, .min = lo,      \
        .max = hi, .def = df, .kind = "number"                                                     \
    }

#define ACTOR_Q                                                                                    \
    CHOICE("actor", "Actor", "quality of who acts or tests", QUALITIES, "soldier", "quality", NULL)
#define ACTOR_C                                                                                    \
    CHOICE("actor", "Actor", "quality (or transport) of who acts or tests", CLASSES, "soldier",    \
           "class", "quality or transport")
#define TARGET_Q                                                                                   \
    CHOICE("target", "Target", "quality of who is acted on", QUALITIES, "soldier", "quality", NULL)
#define TARGET_C                                                                                   \
    CHOICE("target", "Target", "quality (or transport) of who is acted on", CLASSES, "soldier",    \
           "class", "quality or transport")
#define COVER                                                                                      \
    CHOICE("cover", "Cover", "the target's cover; the tester's for tests", COVERS, "none",         \
           "choice", NULL)
#define RANGE(df)                                                                                  \
    {                                                                                              \
        .name = "range", .label = "Range", .help = "inches, or a bracket name",                    \
        .type = OPFOR_FIELD_NUM, .min = 0, .max = 10000, .def_text = df, .choices = BRACKETS,      \
        .unit = "in", .kind = "range"                                                              \
    }
#define INCHES(df)                                                                                 \
    {                                                                                              \
        .name = "range", .label = "Range", .help = "inches", .type = OPFOR_FIELD_NUM, .min = 0,    \
        .max = 10000, .def = df, .unit = "in", .kind = "inches"                                    \
    }
#define ACTOR_MOUNTED(df)                                                                          \
    FLAG("actor-mounted", "Actor Mounted", "actor on horseback (or transport drawn at speed)", df)
#define TARGET_MOUNTED FLAG("target-mounted", "Target Mounted", "target on horseback", 0)
#define SHARPSHOOTER FLAG("sharpshooter", "Sharpshooter", "firer is a sharpshooter", 0)
#define CHARGING                                                                                   \
    FLAG("charging", "Attacker Charging", "attacker is charging (or counter-charging)", 0)
#define ACTOR_WOUNDED FLAG("actor-wounded", "Actor Wounded", "the actor is wounded", 0)
#define TARGET_WOUNDED FLAG("target-wounded", "Target Wounded", "the target is wounded", 0)
#define MOVING FLAG("moving", "Moving Fire", "firer moving (moving fire)", 0)
#define TARGET_RUNNING                                                                             \
    FLAG("target-running", "Target Running/Galloping", "target running or galloping", 0)
#define TARGET_PRONE FLAG("target-prone", "Target Prone/Crawling", "target prone or crawling", 0)
#define GENERAL FLAG("general", "General with Unit", "general within 6 in of the unit", 0)
#define MUSICIAN FLAG("musician", "Musician with Unit", "musician playing within 3 in", 0)
#define COLOURS FLAG_A("colours", "Colours with Unit", "colours within 3 in", "colors")
#define HALF_STRENGTH FLAG("half-strength", "Half Strength", "half or more of the unit gone", 0)
#define REGISTERED                                                                                 \
    NUMBER("registered", "Registered Turns",                                                       \
           "earlier turns of support fire called on the same point", 0, 20, 0, 0)
#define GUNS_F                                                                                     \
    CHOICE("guns", "Guns", "off-board guns: field or heavy", GUNS, "field", "choice", NULL)
#define BLAST_F CHOICE("blast", "Blast", "what exploded", BLASTS, "shell", "choice", NULL)
#define TERRAIN CHOICE("terrain", "Terrain", "open, rough, road", TERRAINS, "open", "choice", NULL)
#define OBSTACLES NUMBER("obstacles", "Linear Obstacles", "linear obstacles crossed", 0, 10, 0, 0)
#define LIMBERED FLAG("limbered", "Limbered Gun", "a limbered gun", 0)
#define WEATHER                                                                                    \
    NUMBER("weather", "Wind/Weather Level", "wind/weather level 1..5 (command radius)", 1, 5, 1, 0)
#define LEVEL                                                                                      \
    NUMBER("level", "Wind/Weather Level", "the current level 1..5, if known", 1, 5, 0,             \
           OPFOR_FIELD_OPTIONAL)
#define WIND                                                                                       \
    CHOICE("wind", "Wind Direction", "the current wind direction, if known", WINDS, NULL,          \
           "choice", NULL)

#define ALTITUDE                                                                                   \
    NUMBER("altitude", "Altitude Levels",                                                          \
           "altitude levels between firer and target, each one more range bracket", 0, 9, 0, 0)

static const opfor_field_t F_FIRE[] = {
    ACTOR_Q,        TARGET_C,     COVER,         RANGE("short"), ACTOR_MOUNTED(0),
    TARGET_MOUNTED, SHARPSHOOTER, ACTOR_WOUNDED, TARGET_WOUNDED, MOVING,
    TARGET_RUNNING, TARGET_PRONE, ALTITUDE};
static const opfor_field_t F_MG[] = {ACTOR_C,       COVER,  RANGE("short"), ACTOR_MOUNTED(0),
                                     ACTOR_WOUNDED, MOVING, ALTITUDE};
static const opfor_field_t F_ARTILLERY[] = {RANGE("medium"), ALTITUDE};
static const opfor_field_t F_SUPPORT[] = {REGISTERED, GUNS_F};
static const opfor_field_t F_BOMB[] = {ACTOR_Q, RANGE("short")};
static const opfor_field_t F_BLAST[] = {ACTOR_C, COVER, ACTOR_MOUNTED(0), ACTOR_WOUNDED, BLAST_F};
static const opfor_field_t F_MELEE[] = {ACTOR_Q,        TARGET_Q, COVER,         ACTOR_MOUNTED(0),
                                        TARGET_MOUNTED, CHARGING, ACTOR_WOUNDED, TARGET_WOUNDED};
static const opfor_field_t F_LANCE[] = {ACTOR_Q,        TARGET_Q, COVER,         ACTOR_MOUNTED(1),
                                        TARGET_MOUNTED, CHARGING, ACTOR_WOUNDED, TARGET_WOUNDED};
static const opfor_field_t F_HYPNOTIC[] = {ACTOR_Q, TARGET_Q, RANGE("short")};
static const opfor_field_t F_ACTOR[] = {ACTOR_Q};
static const opfor_field_t F_MORALE[] = {ACTOR_Q, GENERAL, MUSICIAN, COLOURS, HALF_STRENGTH};
static const opfor_field_t F_COMMAND[] = {ACTOR_Q, INCHES(24), WEATHER};
static const opfor_field_t F_MOVE[] = {ACTOR_C, ACTOR_MOUNTED(0), ACTOR_WOUNDED,
                                       TERRAIN, OBSTACLES,        LIMBERED};
static const opfor_field_t F_CHARGE[] = {ACTOR_Q, ACTOR_MOUNTED(0), ACTOR_WOUNDED, TERRAIN,
                                         OBSTACLES};
static const opfor_field_t F_CRAWL[] = {ACTOR_Q, ACTOR_WOUNDED, TERRAIN, OBSTACLES};
static const opfor_field_t F_WEATHER[] = {LEVEL, WIND};

/* ------------------------------------------------------------------ forms */

#define N(a) (int)(sizeof(a) / sizeof(a)[0])

/* In action id order. Names, titles, summaries and sections repeat calc.c's table (const data
 * cannot be copied from it at compile time); the tests check that they agree. */
static const opfor_form_t FORMS[OPFOR_VK_A_COUNT] = {
    {"fire_pistol", "Fire Pistol", "to hit, critical, save and effect of a pistol shot (9 in max)",
     "VI, IX", F_FIRE, N(F_FIRE)},
    {"fire_carbine", "Fire Carbine",
     "to hit, critical, save and effect of a carbine shot (36 in max)", "VI, IX", F_FIRE,
     N(F_FIRE)},
    {"fire_rifle", "Fire Rifle", "to hit, critical, save and effect of a rifle shot (no limit)",
     "VI, IX", F_FIRE, N(F_FIRE)},
    {"test_vs_mg", "Test versus MG",
     "a figure in an MG's arc tests to escape; the effect if it fails", "VI, IX", F_MG, N(F_MG)},
    {"fire_artillery", "Fire Artillery", "accuracy, deviation and blast (3 in) of a field gun",
     "VI, IX", F_ARTILLERY, N(F_ARTILLERY)},
    {"call_support_fire", "Call for Supporting Fire",
     "2D6 call for off-board fire; accuracy at the longest bracket; 3 or 6 in blast", "VI, IX",
     F_SUPPORT, N(F_SUPPORT)},
    {"throw_bomb", "Throw Bomb", "accuracy, deviation and blast (2 in) of a thrown bomb (6 in max)",
     "VI, IX", F_BOMB, N(F_BOMB)},
    {"test_vs_blast", "Test versus Blast",
     "a figure or transport in a blast tests; the effect if it fails", "VI, IX", F_BLAST,
     N(F_BLAST)},
    {"attack_sword", "Attack with Sword",
     "to hit, save and effect of a sword (or similar) in melee", "VI, X", F_MELEE, N(F_MELEE)},
    {"attack_lance", "Attack with Lance", "to hit, save and effect of a lance from horseback",
     "VI, X", F_LANCE, N(F_LANCE)},
    {"attack_bayonet", "Attack with Bayonet",
     "to hit, save and effect of a bayonet or spear in melee", "VI, X", F_MELEE, N(F_MELEE)},
    {"attack_dagger", "Attack with Dagger/Club",
     "to hit, save and effect of a dagger, club or improvised weapon", "VI, X", F_MELEE,
     N(F_MELEE)},
    {"hypnotic_attack", "Hypnotic/Mesmeric Attack", "chance to mesmerise a figure within 9 in",
     "VI, XII.B", F_HYPNOTIC, N(F_HYPNOTIC)},
    {"test_vs_mesmerism", "Test versus Mesmerism", "chance a mesmerised figure breaks the spell",
     "VI, XII.B", F_ACTOR, N(F_ACTOR)},
    {"heal", "Heal/Bind Wounds", "chance a medic binds a figure's wounds", "VI", F_ACTOR,
     N(F_ACTOR)},
    {"check_morale", "Check Morale", "2D6 morale check of a unit (fail: Wavering)", "VI, XI",
     F_MORALE, N(F_MORALE)},
    {"rally", "Rally", "2D6 rally of a Wavering unit (fail: removed from play)", "VI, XI", F_MORALE,
     N(F_MORALE)},
    {"test_out_of_command", "Test for Out-of-Command",
     "a unit beyond the command radius tests before acting", "VI, VII, XIII", F_COMMAND,
     N(F_COMMAND)},
    {"advance", "Advance", "X plus 1d3 inches, walking or at a trot", "VI, VIII", F_MOVE,
     N(F_MOVE)},
    {"run_gallop", "Run/Gallop", "X plus 1d3 inches at the run or gallop (no fire)", "VI, VIII",
     F_MOVE, N(F_MOVE)},
    {"charge", "Charge", "X plus 1d3 inches into contact", "VI, VIII, X", F_CHARGE, N(F_CHARGE)},
    {"crawl", "Crawl/Take Cover", "X plus 1d3 inches prone (riders dismount)", "VI, VIII", F_CRAWL,
     N(F_CRAWL)},
    {"weather_event", "Weather Event", "start-of-turn change of wind and weather", "V.A, XIII",
     F_WEATHER, N(F_WEATHER)},
};

/* The action id of form f (one of FORMS), or -1. */
static int action_of(const opfor_form_t *f) {
    if (!f || f < FORMS || f >= FORMS + OPFOR_VK_A_COUNT)
        return -1;
    return (int)(f - FORMS);
}

/* ------------------------------------------------------------------ models */

static int vk_model_load(const char *path, void **model, opfor_diag_t *diag) {
    opfor_viktoria_model_t *m = malloc(sizeof *m);
    if (!m)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    int rc = path ? opfor_viktoria_model_load_file(path, m, diag)
                  : opfor_viktoria_model_default(m, diag);
    if (rc) {
        free(m);
        return rc;
    }
    *model = m;
    return 0;
}

static int vk_model_load_text(const char *text, const char *name, void **model,
                              opfor_diag_t *diag) {
    opfor_viktoria_model_t *m = malloc(sizeof *m);
    if (!m)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    int rc = opfor_viktoria_model_load_string(text, name, m, diag);
    if (rc) {
        free(m);
        return rc;
    }
    *model = m;
    return 0;
}

static void vk_model_free(void *model) {
    free(model);
}

/* ------------------------------------------------------------------ fields */

static int vk_parse(const void *model, const opfor_form_t *form, int field, const char *text,
                    opfor_value_t *v, char *msg, size_t n) {
    (void)model;
    int action = action_of(form);
    if (action < 0 || field < 0 || field >= form->nfields || !v)
        return OPFOR_EINVAL;
    const opfor_viktoria_action_field_t *af = &opfor_viktoria_action_get(action)->fields[field];
    /* req_set reads the request's action and writes the one field: the defaults
     * (opfor_viktoria_req_init) would go unread */
    opfor_viktoria_req_t req = {.action = action};
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = opfor_viktoria_req_set(&req, form->fields[field].name, text, &d);
    if (rc) {
        if (msg && n)
            snprintf(msg, n, "%s", d.msg);
        return rc;
    }
    memset(v, 0, sizeof *v);
    v->set = 1;
    v->text = text;
    int x = req.v[af->id];
    if (x == OPFOR_VK_INCHES)
        v->num = req.inches;
    else {
        v->num = x;
        v->named = af->kind == OPFOR_VK_FK_RANGE;
    }
    return 0;
}

static const char *vk_allowed(const void *model, const opfor_form_t *form, int field, char *buf,
                              size_t n) {
    int action = action_of(form);
    if (action < 0 || field < 0 || field >= form->nfields) {
        if (buf && n)
            buf[0] = '\0';
        return buf;
    }
    return opfor_viktoria_field_allowed(
        model, action, opfor_viktoria_action_get(action)->fields[field].id, buf, n);
}

/* ------------------------------------------------------------------ answers */

/* The request for vals (checked by opfor_form_check): the action's defaults, then each value
 * given. */
static void to_req(int action, const opfor_value_t *vals, opfor_viktoria_req_t *req) {
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(action);
    opfor_viktoria_req_init(req, action);
    for (int i = 0; i < a->nfields; i++) {
        const opfor_viktoria_action_field_t *af = &a->fields[i];
        const opfor_value_t *v = &vals[i];
        if (!v->set)
            continue;
        if ((af->kind == OPFOR_VK_FK_RANGE && !v->named) || af->kind == OPFOR_VK_FK_INCHES) {
            req->v[af->id] = OPFOR_VK_INCHES;
            req->inches = v->num;
        } else if (af->kind == OPFOR_VK_FK_BOOL) {
            req->v[af->id] = v->num != 0.0;
        } else {
            req->v[af->id] = (int)v->num;
        }
        req->set |= 1u << af->id;
    }
}

/* Viktoria!'s own parts, in the shape of calc.c's result (`opfor calc --json` since 0.1).
 * need0 is the first roll's score needed, formatted (opfor_roll_format). */
static void extra(opfor_calc_answer_t *a, const opfor_viktoria_result_t *res, const char *need0) {
    char buf[160];
    opfor_calc_extra_array(a, "rolls");
    for (int i = 0; i < res->nrolls; i++) {
        const opfor_viktoria_named_roll_t *r = &res->rolls[i];
        opfor_calc_extra_map(a, NULL);
        opfor_calc_extra_str(a, "name", r->name);
        opfor_calc_extra_str(a, "label", r->label);
        opfor_calc_extra_str(a, "dice", r->dice);
        opfor_calc_extra_str(a, "need",
                             i == 0 ? need0 : opfor_roll_format(&r->roll, buf, sizeof buf));
        opfor_calc_extra_str(a, "success", r->success);
        opfor_calc_extra_int(a, "favours", r->favours);
        opfor_calc_extra_num(a, "p_exact", r->roll.p_exact);
        opfor_calc_extra_num(a, "p_rendered", r->roll.p_rendered);
        opfor_calc_extra_num(a, "error", r->roll.error);
        opfor_calc_extra_end(a);
    }
    opfor_calc_extra_end(a);
    opfor_calc_extra_array(a, "tables");
    for (int i = 0; i < res->ntables; i++) {
        const opfor_viktoria_table_t *t = &res->tables[i];
        opfor_calc_extra_map(a, NULL);
        opfor_calc_extra_str(a, "name", t->name);
        opfor_calc_extra_str(a, "label", t->label);
        opfor_calc_extra_str(a, "dice", t->dice);
        opfor_calc_extra_array(a, "entries");
        for (int k = 0; k < t->n; k++) {
            const opfor_viktoria_entry_t *e = &t->e[k];
            opfor_calc_extra_map(a, NULL);
            opfor_calc_extra_int(a, "lo", e->lo);
            opfor_calc_extra_int(a, "hi", e->hi);
            opfor_calc_extra_str(a, "text", e->text);
            if (e->value != OPFOR_VK_UNSET && strcmp(t->name, "wind") == 0)
                opfor_calc_extra_str(a, "result", opfor_vocab_name(opfor_compass_names, e->value));
            else if (e->value != OPFOR_VK_UNSET)
                opfor_calc_extra_int(a, "result", e->value);
            opfor_calc_extra_num(a, "p", e->p);
            opfor_calc_extra_end(a);
        }
        opfor_calc_extra_end(a);
        opfor_calc_extra_end(a);
    }
    opfor_calc_extra_end(a);
    opfor_calc_extra_array(a, "distances");
    for (int i = 0; i < res->ndists; i++) {
        const opfor_viktoria_distance_t *d = &res->dists[i];
        opfor_dice_t x = d->dice;
        x.inches = 0;
        opfor_dice_format(&x, buf, sizeof buf);
        opfor_calc_extra_map(a, NULL);
        opfor_calc_extra_str(a, "name", d->name);
        opfor_calc_extra_str(a, "label", d->label);
        opfor_calc_extra_str(a, "dice", buf);
        opfor_calc_extra_num(a, "scale", (double)d->num / d->den);
        opfor_calc_extra_num(a, "min", d->min);
        opfor_calc_extra_num(a, "max", d->max);
        opfor_calc_extra_num(a, "mean", d->mean);
        opfor_calc_extra_end(a);
    }
    opfor_calc_extra_end(a);
    opfor_calc_extra_array(a, "outcomes");
    for (int i = 0; i < res->noutcomes; i++) {
        const opfor_viktoria_outcome_t *o = &res->outcomes[i];
        opfor_calc_extra_map(a, NULL);
        opfor_calc_extra_str(a, "name", o->name);
        opfor_calc_extra_str(a, "label", o->label);
        opfor_calc_extra_int(a, "favours", o->favours);
        opfor_calc_extra_num(a, "p_exact", o->p_exact);
        opfor_calc_extra_num(a, "p_rendered", o->p_rendered);
        opfor_calc_extra_end(a);
    }
    opfor_calc_extra_end(a);
}

/* Adds one outcome to the answer's distribution. */
static void dist_add(opfor_calc_answer_t *a, const char *label, double value, double p) {
    if (a->ndist >= OPFOR_CALC_MAX_DIST) {
        a->overflow = 1;
        return;
    }
    opfor_calc_outcome_t *o = &a->dist[a->ndist++];
    opfor_text_copy(o->label, sizeof o->label, label);
    o->value = value;
    o->p = p;
}

/* The distribution of a distance after scaling: max(0, roll) * num / den inches. */
static void dist_of_distance(opfor_calc_answer_t *a, const opfor_viktoria_distance_t *d) {
    opfor_dist_t dist;
    if (opfor_dice_dist(&d->dice, &dist) != 0)
        return;
    for (int i = 0; i < dist.n; i++) {
        if (dist.p[i] <= 0.0)
            continue;
        int roll = dist.min + i;
        double inches = (roll > 0 ? roll : 0) * (double)d->num / d->den;
        int k = 0;
        while (k < a->ndist && a->dist[k].value != inches)
            k++;
        if (k < a->ndist) {
            a->dist[k].p += dist.p[i];
        } else {
            char label[32];
            snprintf(label, sizeof label, "%g in", inches);
            dist_add(a, label, inches, dist.p[i]);
        }
    }
}

/* The generic parts: the first roll as the dice, score and chance (need0: its score needed,
 * formatted); the last distance as the expected value; the outcomes (or the first table, or
 * the distance) as the distribution. */
static void generic(opfor_calc_answer_t *a, const opfor_viktoria_result_t *res, const char *need0) {
    a->p = 1.0; /* nothing to fail: a move, a weather event */
    if (res->nrolls > 0) {
        const opfor_viktoria_named_roll_t *r = &res->rolls[0];
        opfor_text_copy(a->dice, sizeof a->dice, r->dice);
        a->ndice = strcmp(r->dice, "2D6") == 0 ? 2 : 1;
        opfor_text_copy(a->needed, sizeof a->needed, need0);
        a->p = r->roll.p_rendered;
    }
    const opfor_viktoria_distance_t *last = res->ndists ? &res->dists[res->ndists - 1] : NULL;
    if (last) {
        a->has_expected = 1;
        a->expected = last->mean;
        if (res->nrolls == 0) {
            opfor_dice_t x = last->dice;
            x.inches = 0;
            opfor_dice_format(&x, a->dice, sizeof a->dice);
        }
    }
    if (a->skip & OPFOR_CALC_SKIP_DIST) {
        /* the caller does without the distribution */
    } else if (res->noutcomes > 0) {
        for (int i = 0; i < res->noutcomes; i++)
            dist_add(a, res->outcomes[i].label, i, res->outcomes[i].p_rendered);
    } else if (res->ntables > 0) {
        const opfor_viktoria_table_t *t = &res->tables[0];
        for (int k = 0; k < t->n; k++)
            dist_add(a, t->e[k].text, t->e[k].lo, t->e[k].p);
    } else if (last) {
        dist_of_distance(a, last);
    }
    /* The schema's distribution partitions the outcomes: outcomes that overlap (on target,
     * then the effect) or a table that lists only some results stay in the extra tree. */
    double sum = 0.0;
    for (int i = 0; i < a->ndist; i++)
        sum += a->dist[i].p;
    if (a->ndist > 0 && fabs(sum - 1.0) > 1e-6)
        a->ndist = 0;
}

/* Reads "2,5,1" into dice[max]; the count, or -1 on a bad die. */
static int read_dice(const char *rolled, int *dice, int max) {
    int n = 0;
    const char *s = rolled;
    while (*s) {
        char *end;
        long d = strtol(s, &end, 10);
        if (end == s || d < 1 || d > 6 || n >= max)
            return -1;
        dice[n++] = (int)d;
        s = end;
        while (*s == ' ')
            s++;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return n;
}

/* Judges the dice rolled at the table against the first roll. 0, or OPFOR_EINVAL with msg. */
static int judge(opfor_calc_answer_t *a, const opfor_viktoria_result_t *res, const char *rolled,
                 char *msg, size_t n) {
    int dice[4];
    int k = read_dice(rolled, dice, 4);
    if (k < 0) {
        snprintf(msg, n, "--rolled: '%s' is not dice such as 5 or 3,4 (each 1 to 6)", rolled);
        return OPFOR_EINVAL;
    }
    if (res->nrolls == 0) {
        snprintf(msg, n, "--rolled: this action has no roll to judge");
        return OPFOR_EINVAL;
    }
    const opfor_viktoria_named_roll_t *r = &res->rolls[0];
    const opfor_roll_t *x = &r->roll;
    int need = 0, ok = 0;
    char need_text[64], what[64];
    opfor_viktoria_roll_text(r, need_text, sizeof need_text);
    switch (x->kind) {
    case OPFOR_ROLL_NEVER:
    case OPFOR_ROLL_ALWAYS:
        need = 0;
        ok = x->kind == OPFOR_ROLL_ALWAYS;
        snprintf(what, sizeof what, "no roll needed");
        break;
    case OPFOR_ROLL_D6:
        need = 1;
        ok = k >= 1 && dice[0] >= x->need;
        snprintf(what, sizeof what, "%d", dice[0]);
        break;
    case OPFOR_ROLL_2D6:
        need = 2;
        ok = k >= 2 && dice[0] + dice[1] >= x->need;
        snprintf(what, sizeof what, "%d", k >= 2 ? dice[0] + dice[1] : 0);
        break;
    case OPFOR_ROLL_D6_THEN:     /* a 6, then a second die */
    case OPFOR_ROLL_D6_REROLL: { /* a 1 is rolled again */
        int first = x->kind == OPFOR_ROLL_D6_THEN ? 6 : 1;
        int again = k >= 1 && dice[0] == first && (first == 6 || x->need > 1);
        need = again ? 2 : 1;
        if (x->kind == OPFOR_ROLL_D6_THEN)
            ok = again && k >= 2 && dice[1] >= x->need2;
        else
            ok = again ? k >= 2 && dice[1] >= x->need2 : k >= 1 && dice[0] >= x->need;
        if (again && k >= 2)
            snprintf(what, sizeof what, "%d then %d", dice[0], dice[1]);
        else
            snprintf(what, sizeof what, "%d", k >= 1 ? dice[0] : 0);
        break;
    }
    }
    if (k != need) {
        snprintf(msg, n, "--rolled: %s takes %d %s here, not %d", r->label, need,
                 need == 1 ? "die" : "dice", k);
        return OPFOR_EINVAL;
    }
    a->rolled = 1;
    a->success = ok;
    snprintf(a->outcome, sizeof a->outcome, "%s: %s against %s: %s", r->label, what, need_text,
             ok ? r->success : "failed");
    return 0;
}

static int vk_run(const void *model, const opfor_form_t *form, const opfor_value_t *vals,
                  const char *rolled, opfor_calc_answer_t *out, char *msg, size_t n) {
    int action = action_of(form);
    if (action < 0 || !out || (form->nfields > 0 && !vals)) {
        snprintf(msg, n, "not a Viktoria! calculator action");
        return OPFOR_EINVAL;
    }
    if (!model) {
        snprintf(msg, n, "no model (load one with model_load)");
        return OPFOR_EINVAL;
    }
    opfor_viktoria_req_t req;
    opfor_viktoria_result_t res;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    to_req(action, vals, &req);
    opfor_calc_answer_clear(out); /* keeps out->skip */
    out->allowed = 1;
    int rc = opfor_viktoria_calc(model, &req, &res, &d);
    if (rc == OPFOR_EILLEGAL) { /* a combination the rules forbid */
        out->allowed = 0;
        snprintf(out->reason, sizeof out->reason, "%.*s", (int)sizeof out->reason - 1, d.msg);
        snprintf(out->title, sizeof out->title, "%s", form->title);
        return 0;
    }
    if (rc) {
        snprintf(msg, n, "%s", d.msg[0] ? d.msg : opfor_strerror(rc));
        return rc;
    }
    opfor_text_copy(out->title, sizeof out->title, form->title);
    char need0[160] = ""; /* the first roll's score needed, for the generic part and the roll */
    if (res.nrolls > 0)
        opfor_roll_format(&res.rolls[0].roll, need0, sizeof need0);
    generic(out, &res, need0);
    for (int i = 0; i < res.nfacts; i++) {
        const opfor_viktoria_fact_t *x = &res.facts[i];
        opfor_calc_fact(out, x->name, x->label, x->value, x->unit, x->text);
    }
    for (int i = 0; i < res.nnotes; i++)
        opfor_calc_note(out, res.notes[i]);
    if (!(out->skip & OPFOR_CALC_SKIP_TEXT))
        opfor_viktoria_result_text(&res, out->text, sizeof out->text);
    extra(out, &res, need0);
    if (rolled && rolled[0])
        return judge(out, &res, rolled, msg, n);
    return 0;
}

const opfor_ruleset_calc_t opfor_viktoria_calc_iface = {
    .actions = FORMS,
    .nactions = OPFOR_VK_A_COUNT,
    .model_load = vk_model_load,
    .model_free = vk_model_free,
    .run = vk_run,
    .model_load_text = vk_model_load_text,
    .parse = vk_parse,
    .allowed = vk_allowed,
    .help = "The calculator the rules' game app provides: for an action and the fields the app\n"
            "asks for, the score needed on each roll (one D6, or 2D6 for morale, rally and\n"
            "off-board calls), the exact chance behind it, what a failed save does, deviation,\n"
            "movement distances and weather events.\n",
    .examples = "  opfor calc viktoria fire_rifle --actor veteran --target soldier --cover soft "
                "--range 20\n"
                "  opfor calc viktoria attack_lance --actor soldier --charging\n"
                "  opfor calc viktoria check_morale --actor veteran --general --json\n"
                "  opfor calc viktoria advance --actor soldier --terrain rough --obstacles 1\n",
};
