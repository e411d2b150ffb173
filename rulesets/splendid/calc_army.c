/* rulesets/splendid/calc_army.c — `opfor calc splendid army`: the army generator of §Appendix –
 * Generating an Army in the calculator. Without dice it gives the table with the chance of
 * each 2D6 total and the units expected; with the totals thrown at the table (--rolled 9,3)
 * or a seed (--seed N: the whole army rolled from core's seeded dice) it fields the army, from
 * the player's collection when one is named (--collection FILE), says what was not fielded
 * and why and what was substituted, and --out FILE (the export hook) writes it as a
 * scenario's `units:` list.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "calc_army.h"
#include "opfor/rng.h"

static const char *const PICK[] = {"auto", "first", "second", NULL};
static const char *const EDGE[] = {"bottom", "top", NULL};

const opfor_field_t opfor__sv_army_fields[SV_ARMY_NFIELDS] = {
    {.name = "throws",
     .label = "Throws",
     .help = "how many 2D6 throws the players agreed: 1 unless given (with --rolled: as many "
             "as totals given)",
     .type = OPFOR_FIELD_INT,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 1,
     .max = SV_ARMY_MAX_THROWS},
    {.name = "seed",
     .label = "Seed",
     .help = "roll every throw from this seed (the same seed, the same army)",
     .type = OPFOR_FIELD_INT,
     .flags = OPFOR_FIELD_OPTIONAL,
     .min = 0,
     .max = 999999},
    {.name = "collection",
     .label = "Collection",
     .help = "a YAML file of the units the player owns (docs/splendid.md section 6)",
     .type = OPFOR_FIELD_TEXT,
     .flags = OPFOR_FIELD_OPTIONAL | OPFOR_FIELD_PATH},
    {.name = "substitute",
     .label = "Substitute",
     .help = "a type the collection lacks is filled by the nearest owned type (model.yaml)",
     .type = OPFOR_FIELD_BOOL},
    {.name = "pick",
     .label = "Choice",
     .help = "where the table gives a choice (8): auto keeps Pike and Musket units more "
             "numerous than Foot units",
     .type = OPFOR_FIELD_CHOICE,
     .def_text = "auto",
     .choices = PICK},
    {.name = "side",
     .label = "Side",
     .help = "--out: the side's name in the scenario",
     .type = OPFOR_FIELD_TEXT,
     .def_text = "Red"},
    {.name = "edge",
     .label = "Edge",
     .help = "--out: the table edge the units are lined up along",
     .type = OPFOR_FIELD_CHOICE,
     .def_text = "bottom",
     .choices = EDGE},
};

/* The 2D6 ways to throw each total (of 36). */
static int ways(int total) {
    return total <= 7 ? total - 1 : 13 - total;
}

typedef struct ask {
    int throws, throws_set, has_seed, subst, pick, top;
    unsigned long long seed;
    const char *collection, *side;
} ask_t;

static void read_ask(const opfor_form_t *f, const opfor_value_t *v, ask_t *q) {
    memset(q, 0, sizeof *q);
    int i = opfor_form_field(f, "throws");
    q->throws = v && v[i].set ? (int)v[i].num : 1;
    q->throws_set = v && v[i].set;
    i = opfor_form_field(f, "seed");
    q->has_seed = v && v[i].set;
    q->seed = q->has_seed ? (unsigned long long)v[i].num : 0;
    i = opfor_form_field(f, "collection");
    q->collection = v && v[i].set && v[i].text && v[i].text[0] ? v[i].text : NULL;
    i = opfor_form_field(f, "substitute");
    q->subst = v && v[i].set && v[i].num != 0;
    i = opfor_form_field(f, "pick");
    q->pick = v && v[i].set ? (int)v[i].num : SV_PICK_AUTO;
    i = opfor_form_field(f, "side");
    q->side = v && v[i].set && v[i].text && v[i].text[0] ? v[i].text : "Red";
    i = opfor_form_field(f, "edge");
    q->top = v && v[i].set && (int)v[i].num == 1;
}

/* The throws: the totals rolled at the table, or rolled from the seed. *n 0: none (the
 * odds). 0, or OPFOR_EINVAL with msg. */
static int read_throws(const ask_t *q, const char *rolled, int *totals, int *n, char *msg,
                       size_t mn) {
    *n = 0;
    if (rolled && rolled[0] && q->has_seed) {
        snprintf(msg, mn, "rolled: give the totals thrown or --seed, not both");
        return OPFOR_EINVAL;
    }
    if (q->has_seed) {
        opfor_rng_t rng;
        opfor_rng_seed(&rng, (uint64_t)q->seed, 1803);
        for (int t = 0; t < q->throws; t++)
            totals[t] = opfor_rng_d6(&rng) + opfor_rng_d6(&rng);
        *n = q->throws;
        return 0;
    }
    if (!rolled || !rolled[0])
        return 0;
    const char *p = rolled;
    while (*p) {
        char *end = NULL;
        long v = strtol(p, &end, 10);
        if (end == p || v < 2 || v > 12) {
            snprintf(msg, mn, "rolled: '%s' is not a list of 2D6 totals (2 to 12)", rolled);
            return OPFOR_EINVAL;
        }
        if (*n >= SV_ARMY_MAX_THROWS) {
            snprintf(msg, mn, "rolled: at most %d throws at once", SV_ARMY_MAX_THROWS);
            return OPFOR_EINVAL;
        }
        totals[(*n)++] = (int)v;
        p = end;
        while (*p == ' ')
            p++;
        if (*p == ',')
            p++;
        else if (*p) {
            snprintf(msg, mn, "rolled: '%s' is not a list of 2D6 totals (2 to 12)", rolled);
            return OPFOR_EINVAL;
        }
    }
    if (q->throws_set && *n != q->throws) {
        snprintf(msg, mn, "rolled: %d total%s given, --throws %d", *n, *n == 1 ? "" : "s",
                 q->throws);
        return OPFOR_EINVAL;
    }
    return 0;
}

/* What an entry of the table fields, for people ("Pike and Musket + Regular Artillery"). */
static void entry_text(const opfor_sv_army_t *tab, int total, char *buf, size_t n) {
    size_t used = 0;
    buf[0] = 0;
    for (int k = 0; k < SV_ARMY_PER_THROW && tab->table[total][k] >= 0; k++)
        used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s",
                                 k ? (tab->choice[total] ? " or " : " + ") : "",
                                 opfor__sv_unit_titles[tab->table[total][k]]);
}

/* Loads the collection named by q (none: *c NULL). 0, or OPFOR_EINVAL with msg. */
static int load_collection(const opfor_sv_army_t *tab, const ask_t *q, sv_collection_t **c,
                           char *msg, size_t mn) {
    *c = NULL;
    if (!q->collection)
        return 0;
    *c = malloc(sizeof **c);
    if (!*c) {
        snprintf(msg, mn, "out of memory");
        return OPFOR_ENOMEM;
    }
    opfor_diag_t d;
    if (sv_collection_load(tab, q->collection, *c, &d) != 0) {
        char where[600];
        snprintf(msg, mn, "collection: %s", opfor_diag_format(&d, where, sizeof where));
        free(*c);
        *c = NULL;
        return OPFOR_EINVAL;
    }
    return 0;
}

/* Whether an owned unit (or, with subst, a substitute) can fill type t. */
static int owned_type(const opfor_sv_army_t *tab, const sv_collection_t *c, int subst, int t) {
    for (int i = 0; i < c->n; i++) {
        if (c->u[i].type == t)
            return 1;
        for (int k = 0; subst && k < SV_ARMY_SUBST && tab->subst[t][k] >= 0; k++)
            if (c->u[i].type == tab->subst[t][k])
                return 1;
    }
    return 0;
}

/* The odds: each total's chance and what it fields; the units expected over the throws. */
static void odds(const opfor_sv_army_t *tab, const ask_t *q, const sv_collection_t *c,
                 opfor_calc_answer_t *a) {
    double expect[SV_U_COUNT] = {0}, units = 0;
    int ways_some = 0; /* of 36: the throws that field something (exact, then divided) */
    snprintf(a->dice, sizeof a->dice, "2D6");
    a->ndice = 2;
    for (int total = 2; total <= 12; total++) {
        double p = ways(total) / 36.0;
        int some = 0;
        for (int k = 0; k < SV_ARMY_PER_THROW && tab->table[total][k] >= 0; k++) {
            int t = tab->table[total][k];
            if (!c || owned_type(tab, c, q->subst, t))
                some = 1;
            if (tab->choice[total] && k > 0)
                continue; /* a choice counts as its first option */
            expect[t] += p;
            units += p;
        }
        ways_some += some ? ways(total) : 0;
        if (!(a->skip & OPFOR_CALC_SKIP_DIST) && a->ndist < OPFOR_CALC_MAX_DIST) {
            opfor_calc_outcome_t *o = &a->dist[a->ndist++];
            char what[56];
            entry_text(tab, total, what, sizeof what);
            /* with a collection, a total that fields nothing from it says so */
            snprintf(o->label, sizeof o->label, "%d: %.44s%s", total, what,
                     some ? "" : " (none owned)");
            o->value = total;
            o->p = p;
        }
    }
    a->p = ways_some / 36.0;
    a->has_expected = 1;
    a->expected = units * q->throws;
    opfor_calc_fact(a, "throws", "Throws", q->throws, NULL, NULL);
    for (int t = 0; t < SV_U_COUNT; t++) {
        char label[48];
        snprintf(label, sizeof label, "Expected %s", opfor__sv_unit_titles[t]);
        opfor_calc_fact(a, opfor__sv_unit_names[t], label, expect[t] * q->throws, NULL, NULL);
    }
    opfor_calc_note(a, "expected is the units fielded over the throws (a throw of 8 counted "
                       "as its first choice)");
    if (c) {
        opfor_calc_fact(a, "fields_something", "A throw fields something owned", a->p, NULL, NULL);
        opfor_calc_note(a, "p is the chance a throw fields something from the collection; the "
                           "expected units are the table's, owned or not");
    } else
        opfor_calc_note(a, "give the totals thrown (--rolled 9,3) or --seed N to field the army");
}

/* "2 pike, 4 musket" */
static void mix_text(const int *stands, char *buf, size_t n) {
    size_t used = 0;
    buf[0] = 0;
    for (int k = 0; k < SV_S_COUNT; k++)
        if (stands[k] > 0)
            used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%d %s",
                                     used ? ", " : "", stands[k], opfor__sv_stand_names[k]);
}

static void text_add(opfor_calc_answer_t *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void text_add(opfor_calc_answer_t *a, const char *fmt, ...) {
    if (a->skip & OPFOR_CALC_SKIP_TEXT)
        return;
    size_t used = strlen(a->text);
    if (used + 48 >= sizeof a->text)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(a->text + used, sizeof a->text - used - 32, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= sizeof a->text - used - 32) {
        a->text[used] = 0;
        snprintf(a->text + used, sizeof a->text - used, "... (the rest: --json or --out)\n");
    }
}

/* The army fielded, into the answer. */
static void fielded(const opfor_sv_army_t *tab, const ask_t *q, const sv_collection_t *c,
                    const sv_army_t *army, opfor_calc_answer_t *a) {
    char mix[80];
    int nfield = 0;
    snprintf(a->dice, sizeof a->dice, "2D6");
    a->ndice = 2;
    a->p = 1.0;
    a->rolled = 1;
    text_add(a, "Throws (2D6):");
    for (int t = 0; t < army->nthrows; t++)
        text_add(a, "%s %d", t ? "," : "", army->totals[t]);
    if (q->has_seed)
        text_add(a, " (rolled from seed %llu)\n", q->seed);
    else
        text_add(a, "\n");
    opfor_calc_extra_map(a, "army");
    opfor_calc_extra_array(a, "throws");
    for (int t = 0; t < army->nthrows; t++)
        opfor_calc_extra_int(a, NULL, army->totals[t]);
    opfor_calc_extra_end(a);
    opfor_calc_extra_array(a, "units");
    for (int t = 0; t < army->nthrows; t++) {
        char what[56];
        entry_text(tab, army->totals[t], what, sizeof what);
        text_add(a, "%2d. %d (%s):", t + 1, army->totals[t], what);
        int any = 0;
        for (int i = 0; i < army->nunits; i++) {
            const sv_fielded_t *u = &army->units[i];
            if (u->throw_no != t + 1 || u->dropped)
                continue;
            nfield++;
            int s = sv_stands_of(u->stands);
            mix_text(u->stands, mix, sizeof mix);
            if (u->type == SV_U_PIKE_MUSKET || u->type == SV_U_FOOT)
                text_add(a, "%s %s (%d: %s)", any++ ? ";" : "", u->name, s, mix);
            else
                text_add(a, "%s %s (%d stand%s)", any++ ? ";" : "", u->name, s, s == 1 ? "" : "s");
            if (u->type != u->thrown)
                text_add(a, " for the %s thrown", opfor__sv_unit_titles[u->thrown]);
            if (u->trimmed)
                text_add(a, ", %d stand%s not fielded", u->trimmed, u->trimmed == 1 ? "" : "s");
            opfor_calc_extra_map(a, NULL);
            opfor_calc_extra_int(a, "throw", u->throw_no);
            opfor_calc_extra_str(a, "name", u->name);
            opfor_calc_extra_str(a, "type", opfor__sv_unit_names[u->type]);
            opfor_calc_extra_int(a, "stands", s);
            opfor_calc_extra_str(a, "mix", mix);
            if (u->quality != 1)
                opfor_calc_extra_str(a, "quality", u->quality == 0 ? "raw" : "veteran");
            if (c)
                opfor_calc_extra_str(a, "owned", c->u[u->owned].name);
            if (u->type != u->thrown)
                opfor_calc_extra_str(a, "substitute_for", opfor__sv_unit_names[u->thrown]);
            if (u->trimmed)
                opfor_calc_extra_int(a, "not_fielded_stands", u->trimmed);
            opfor_calc_extra_end(a);
        }
        if (!any)
            text_add(a, " nothing");
        text_add(a, "\n");
    }
    opfor_calc_extra_end(a);
    opfor_calc_extra_array(a, "not_fielded");
    int nmiss = 0;
    for (int i = 0; i < army->nmissing; i++) {
        const sv_missing_t *m = &army->missing[i];
        text_add(a, "%s throw %d: %s: %s", nmiss++ ? ";" : "Not fielded:", m->throw_no,
                 opfor__sv_unit_titles[m->type], m->why);
        opfor_calc_extra_map(a, NULL);
        opfor_calc_extra_int(a, "throw", m->throw_no);
        opfor_calc_extra_str(a, "type", opfor__sv_unit_names[m->type]);
        opfor_calc_extra_str(a, "why", m->why);
        opfor_calc_extra_end(a);
    }
    for (int i = 0; i < army->nunits; i++) {
        const sv_fielded_t *u = &army->units[i];
        if (!u->dropped)
            continue;
        text_add(a, "%s throw %d: %s: %s", nmiss++ ? ";" : "Not fielded:", u->throw_no, u->name,
                 u->why);
        opfor_calc_extra_map(a, NULL);
        opfor_calc_extra_int(a, "throw", u->throw_no);
        opfor_calc_extra_str(a, "type", opfor__sv_unit_names[u->type]);
        opfor_calc_extra_str(a, "name", u->name);
        opfor_calc_extra_str(a, "why", u->why);
        opfor_calc_extra_end(a);
    }
    if (nmiss)
        text_add(a, "\n");
    opfor_calc_extra_end(a);
    opfor_calc_extra_int(a, "commanders", 1);
    opfor_calc_extra_int(a, "sub_commanders", army->subs);
    opfor_calc_extra_int(a, "stands", army->stands);
    opfor_calc_extra_end(a);
    int qt, th, hf;
    opfor__sv_breakpoints(army->stands, &qt, &th, &hf);
    if (army->nthrows == 1)
        opfor_calc_note(a, "one throw: the army's count and average limits are checked over two "
                           "throws or more (give them all at once)");
    text_add(a, "Command: the Commander and %d Sub-Commander%s (R-2)\n", army->subs,
             army->subs == 1 ? "" : "s");
    text_add(a, "Army: %d units, %d stands with command; quarter %d, third %d, half %d\n", nfield,
             army->stands, qt, th, hf);
    opfor_calc_fact(a, "units", "Units fielded", nfield, NULL, NULL);
    opfor_calc_fact(a, "stands", "Stands with command", army->stands, NULL, NULL);
    opfor_calc_fact(a, "sub_commanders", "Sub-Commanders", army->subs, NULL, NULL);
    opfor_calc_fact(a, "quarter", "Quarter", qt, NULL, NULL);
    opfor_calc_fact(a, "third", "Third", th, NULL, NULL);
    opfor_calc_fact(a, "half", "Half", hf, NULL, NULL);
    a->success = nfield > 0;
    snprintf(a->outcome, sizeof a->outcome, "%d unit%s fielded, %d stands with command%s", nfield,
             nfield == 1 ? "" : "s", army->stands, nmiss ? "; some not fielded" : "");
}

int opfor__sv_run_army(const opfor_sv_model_t *model, const opfor_form_t *f, const opfor_value_t *v,
                       const char *rolled, opfor_calc_answer_t *a, char *msg, size_t mn) {
    const opfor_sv_army_t *tab = opfor__sv_army_of(model);
    ask_t q;
    int totals[SV_ARMY_MAX_THROWS], n = 0;
    read_ask(f, v, &q);
    int rc = read_throws(&q, rolled, totals, &n, msg, mn);
    if (rc)
        return rc;
    sv_collection_t *c = NULL;
    if ((rc = load_collection(tab, &q, &c, msg, mn)) != 0)
        return rc;
    snprintf(a->title, sizeof a->title, "Army of %d throw%s%s", n ? n : q.throws,
             (n ? n : q.throws) == 1 ? "" : "s", c ? " from the collection" : "");
    if (n == 0) {
        odds(tab, &q, c, a);
    } else {
        sv_army_t *army = malloc(sizeof *army);
        if (!army) {
            free(c);
            snprintf(msg, mn, "out of memory");
            return OPFOR_ENOMEM;
        }
        sv_army_field(tab, totals, n, c, q.subst, q.pick, model ? model->heavy_mounted_floor : 0,
                      army);
        fielded(tab, &q, c, army, a);
        free(army);
    }
    free(c);
    return 0;
}

int opfor__sv_export_army(const opfor_sv_model_t *model, const opfor_form_t *f,
                          const opfor_value_t *v, const char *rolled, char *buf, size_t n,
                          char *msg, size_t mn) {
    const opfor_sv_army_t *tab = opfor__sv_army_of(model);
    ask_t q;
    int totals[SV_ARMY_MAX_THROWS], nt = 0;
    read_ask(f, v, &q);
    int rc = read_throws(&q, rolled, totals, &nt, msg, mn);
    if (rc)
        return rc;
    if (nt == 0) {
        snprintf(msg, mn, "out: the army needs its throws: --rolled 9,3 or --seed N");
        return OPFOR_EINVAL;
    }
    sv_collection_t *c = NULL;
    if ((rc = load_collection(tab, &q, &c, msg, mn)) != 0)
        return rc;
    sv_army_t *army = malloc(sizeof *army);
    if (!army) {
        free(c);
        snprintf(msg, mn, "out of memory");
        return OPFOR_ENOMEM;
    }
    sv_army_field(tab, totals, nt, c, q.subst, q.pick, model ? model->heavy_mounted_floor : 0,
                  army);
    int len = sv_army_yaml(army, q.side, q.top, buf, n);
    free(army);
    free(c);
    if (len < 0) {
        snprintf(msg, mn, "out: the army does not fit in %zu bytes", n);
        return OPFOR_ERANGE;
    }
    return len;
}
