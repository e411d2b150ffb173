/* rulesets/splendid/army.c — the army generator (§Appendix – Generating an Army): each 2D6
 * throw fields the units of the table (model.yaml `army:`), taken from the player's collection
 * when there is one (a unit the player lacks is not fielded, or with substitution the nearest
 * type owned stands in), then the limits of §How do stands form a unit? hold: stands beyond a
 * unit's size or the averages are not fielded, and units that would break a count limit are
 * not fielded either, latest throw first. Command follows the rules: one
 * Commander and one Sub-Commander per sub_per units.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "army.h"

int sv_stands_of(const int *stands) {
    int n = 0;
    for (int k = 0; k < SV_S_COUNT; k++)
        n += stands[k];
    return n;
}

static int is_foot(int t) {
    return t == SV_U_PIKE_MUSKET || t == SV_U_FOOT;
}
static int is_mounted(int t) {
    return t == SV_U_HEAVY_MOUNTED || t == SV_U_MOUNTED || t == SV_U_DRAGOON;
}

/* The first owned unit of type t not yet used, or -1. */
static int next_owned(const sv_collection_t *c, const unsigned char *used, int t) {
    for (int i = 0; c && i < c->n; i++)
        if (!used[i] && c->u[i].type == t)
            return i;
    return -1;
}

/* Takes one stand off u: from the kind it has most of (the later kind on a tie, so pikes and
 * hand-to-hand stands are kept longest). */
static void shed_stand(sv_fielded_t *u) {
    int best = -1;
    for (int k = 0; k < SV_S_COUNT; k++)
        if (u->stands[k] > 0 && (best < 0 || u->stands[k] >= u->stands[best]))
            best = k;
    if (best >= 0) {
        u->stands[best]--;
        u->trimmed++;
    }
}

static int count_type(const sv_army_t *a, int t) {
    int n = 0;
    for (int i = 0; i < a->nunits; i++)
        n += !a->units[i].dropped && a->units[i].type == t;
    return n;
}

/* Drops the latest fielded unit of type t, saying why. */
static void drop_latest(sv_army_t *a, int t, const char *why) {
    for (int i = a->nunits - 1; i >= 0; i--)
        if (!a->units[i].dropped && a->units[i].type == t) {
            a->units[i].dropped = 1;
            snprintf(a->units[i].why, sizeof a->units[i].why, "%s", why);
            return;
        }
}

/* Sheds stands from the largest units of class cls (latest first on a tie) until they
 * average at most avg stands. */
static void hold_average(sv_army_t *a, const opfor_sv_army_t *tab, int (*cls)(int), int avg) {
    for (;;) {
        int sum = 0, n = 0, big = -1, bigsize = 0;
        for (int i = 0; i < a->nunits; i++) {
            sv_fielded_t *u = &a->units[i];
            if (u->dropped || !cls(u->type))
                continue;
            int s = sv_stands_of(u->stands);
            sum += s;
            n++;
            if (s > tab->min[u->type] && s >= bigsize) {
                big = i;
                bigsize = s;
            }
        }
        if (n == 0 || sum <= avg * n || big < 0)
            return;
        shed_stand(&a->units[big]);
    }
}

/* Fields one unit of type t for throw throw_no. */
static void field_one(const opfor_sv_army_t *tab, const sv_collection_t *c, unsigned char *used,
                      int subst, int t, int throw_no, int *named, sv_army_t *a) {
    int got = -1, as = t;
    if (c) {
        got = next_owned(c, used, t);
        for (int k = 0; got < 0 && subst && k < SV_ARMY_SUBST && tab->subst[t][k] >= 0; k++) {
            as = tab->subst[t][k];
            got = next_owned(c, used, as);
        }
        if (got < 0) {
            if (a->nmissing < SV_ARMY_MAX_UNITS) {
                sv_missing_t *m = &a->missing[a->nmissing++];
                m->throw_no = throw_no;
                m->type = t;
                snprintf(m->why, sizeof m->why, "no %s unit left in the collection%s",
                         opfor__sv_unit_titles[t], subst ? " nor a substitute" : "");
            }
            return;
        }
        used[got] = 1;
    }
    if (a->nunits >= SV_ARMY_MAX_UNITS)
        return;
    sv_fielded_t *u = &a->units[a->nunits++];
    memset(u, 0, sizeof *u);
    u->type = as;
    u->thrown = t;
    u->throw_no = throw_no;
    u->owned = got;
    u->quality = 1;
    if (got >= 0) {
        const sv_owned_t *o = &c->u[got];
        memcpy(u->stands, o->stands, sizeof u->stands);
        u->quality = o->quality;
        u->lance = o->lance;
        snprintf(u->name, sizeof u->name, "%s", o->name);
    } else {
        for (int k = 0; k < SV_S_COUNT; k++)
            u->stands[k] = tab->size[t][k];
        snprintf(u->name, sizeof u->name, "%s %d", opfor__sv_unit_titles[t], ++named[t]);
    }
}

/* The type a choice entry fields: by pick; auto keeps Pike and Musket units more numerous than
 * Foot units (Foot only while Pike and Musket would still outnumber them), else the first
 * option; with a collection, an option the player still owns before one they do not. */
static int choose(const opfor_sv_army_t *tab, const signed char *opts, int pick,
                  const sv_collection_t *c, const unsigned char *used, const sv_army_t *a) {
    int n = 0;
    while (n < SV_ARMY_PER_THROW && opts[n] >= 0)
        n++;
    int want = opts[0];
    if (pick == SV_PICK_SECOND && n > 1)
        want = opts[1];
    else if (pick == SV_PICK_AUTO) {
        int pm = count_type(a, SV_U_PIKE_MUSKET), ft = count_type(a, SV_U_FOOT);
        for (int i = 0; i < n; i++)
            if (opts[i] == SV_U_FOOT && pm > ft + 1)
                want = SV_U_FOOT;
    }
    if (c && next_owned(c, used, want) < 0)
        for (int i = 0; i < n; i++)
            if (next_owned(c, used, opts[i]) >= 0)
                return opts[i];
    (void)tab;
    return want;
}

/* count limits: Pike and Musket units outnumber Foot units (§Pike and Musket Units);
 * one Heavy Mounted unit in every heavy_per mounted units (§Heavy Mounted Units, R-15); then
 * the averages: stands beyond them are not fielded. */
static void army_limits(const opfor_sv_army_t *tab, int heavy_floor, sv_army_t *a) {
    while (count_type(a, SV_U_FOOT) > 0 &&
           count_type(a, SV_U_PIKE_MUSKET) <= count_type(a, SV_U_FOOT))
        drop_latest(a, SV_U_FOOT, "Pike and Musket units must outnumber Foot units");
    for (;;) {
        int hm = count_type(a, SV_U_HEAVY_MOUNTED);
        int mounted = hm + count_type(a, SV_U_MOUNTED) + count_type(a, SV_U_DRAGOON);
        int per = tab->heavy_per ? tab->heavy_per : 15;
        int allowed = heavy_floor ? mounted / per : (mounted + per - 1) / per;
        if (hm <= allowed)
            break;
        char why[96];
        snprintf(why, sizeof why, "at most one Heavy Mounted unit in every %d mounted units", per);
        drop_latest(a, SV_U_HEAVY_MOUNTED, why);
    }
    /* the averages: stands beyond them are not fielded */
    hold_average(a, tab, is_foot, tab->foot_average);
    hold_average(a, tab, is_mounted, tab->mounted_average);
}

void sv_army_field(const opfor_sv_army_t *tab, const int *totals, int n, const sv_collection_t *c,
                   int subst, int pick, int heavy_floor, sv_army_t *a) {
    unsigned char used[SV_COLLECTION_MAX] = {0};
    int named[SV_U_COUNT] = {0};
    memset(a, 0, sizeof *a);
    if (n > SV_ARMY_MAX_THROWS)
        n = SV_ARMY_MAX_THROWS;
    a->nthrows = n;
    for (int t = 0; t < n; t++) {
        int total = totals[t] < 2 ? 2 : totals[t] > 12 ? 12 : totals[t];
        a->totals[t] = total;
        const signed char *e = tab->table[total];
        if (tab->choice[total]) {
            field_one(tab, c, used, subst, choose(tab, e, pick, c, used, a), t + 1, named, a);
            continue;
        }
        for (int k = 0; k < SV_ARMY_PER_THROW && e[k] >= 0; k++)
            field_one(tab, c, used, subst, e[k], t + 1, named, a);
    }
    /* §How do stands form a unit?: stands beyond a unit's most are not fielded */
    for (int i = 0; i < a->nunits; i++)
        while (sv_stands_of(a->units[i].stands) > tab->max[a->units[i].type])
            shed_stand(&a->units[i]);
    /* The army's limits hold over the whole army: one throw alone is read as one throw of
     * an army still being rolled (the appendix's own examples are single throws), so they
     * are checked from two throws on. */
    if (n >= 2)
        army_limits(tab, heavy_floor, a);
    int fielded = 0;
    a->stands = 1; /* the Commander */
    for (int i = 0; i < a->nunits; i++)
        if (!a->units[i].dropped) {
            fielded++;
            a->stands += sv_stands_of(a->units[i].stands);
        }
    int per = tab->sub_per ? tab->sub_per : 4;
    a->subs = (fielded + per - 1) / per;
    a->stands += a->subs;
}

/* ---------------------------------------------------------------- the scenario's units */

typedef struct out {
    char *buf;
    size_t n, len;
    int full;
} out_t;

static void put(out_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out_t *o, const char *fmt, ...) {
    if (o->full)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(o->buf + o->len, o->n - o->len, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= o->n - o->len) {
        o->full = 1;
        return;
    }
    o->len += (size_t)w;
}

/* name as a double-quoted YAML scalar. */
static void put_quoted(out_t *o, const char *s) {
    put(o, "\"");
    for (; *s; s++)
        put(o, *s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
    put(o, "\"");
}

/* The stand's width, inches (40 mm bases, §Stands and Units; the scenario may change them). */
#define SV_BASE_IN 1.5748

static const char *const QNAME[3] = {"raw", "regular", "veteran"};

/* One unit line at the cursor (x, y), moving the cursor along the edge. */
static void put_unit(out_t *o, const char *name, const char *side, const char *type,
                     const char *extra, const int *stands, int quality, double *x, double *y,
                     int top_edge) {
    int n = stands ? sv_stands_of(stands) : 1;
    int across = n >= 4 ? (n + 1) / 2 : n; /* a block two ranks deep, else a line */
    double width = across * SV_BASE_IN;
    if (*x + width > 68.0) {
        *x = 4.0;
        *y += top_edge ? -6.0 : 6.0;
    }
    put(o, "  - {name: ");
    put_quoted(o, name);
    put(o, ", side: ");
    put_quoted(o, side);
    put(o, ", type: %s, quality: %s%s, position: [%.1f, %.1f], stands: {", type, QNAME[quality],
        extra, *x + width / 2, *y);
    int first = 1;
    for (int k = 0; stands && k < SV_S_COUNT; k++)
        if (stands[k] > 0) {
            put(o, "%s%s: %d", first ? "" : ", ", opfor__sv_stand_names[k], stands[k]);
            first = 0;
        }
    if (!stands)
        put(o, "command: 1");
    put(o, "}}\n");
    *x += width + 2.0;
}

int sv_army_yaml(const sv_army_t *a, const char *side, int top_edge, char *buf, size_t n) {
    out_t o = {buf, n, 0, 0};
    if (!buf || n == 0)
        return -1;
    buf[0] = 0;
    put(&o, "# A Splendid Victory! army (opfor calc splendid army, §Appendix – Generating an "
            "Army)\n# throws (2D6):");
    for (int t = 0; t < a->nthrows; t++)
        put(&o, "%s %d", t ? "," : "", a->totals[t]);
    put(&o,
        "\n# %d stands with command; positions are a default line-up along the %s edge\n"
        "units:\n",
        a->stands, top_edge ? "top" : "bottom");
    double x = 4.0, y = top_edge ? 44.0 : 4.0;
    for (int i = 0; i < a->nunits; i++) {
        const sv_fielded_t *u = &a->units[i];
        if (u->dropped)
            continue;
        const char *extra = "";
        switch (u->type) {
        case SV_U_PIKE_MUSKET:
        case SV_U_FOOT:
        case SV_U_HEAVY_MOUNTED:
            extra = ", formation: block";
            break;
        case SV_U_MOUNTED:
            extra = u->lance ? ", formation: block, lance: true" : ", formation: block";
            break;
        case SV_U_DRAGOON:
            extra = ", formation: line, mounted: true";
            break;
        default:
            extra = ", limbered: false";
            break;
        }
        char type[24];
        snprintf(type, sizeof type, "%s",
                 u->type >= SV_U_FRAME_GUN ? "artillery" : opfor__sv_unit_names[u->type]);
        char ex[80];
        if (u->type >= SV_U_FRAME_GUN) {
            snprintf(ex, sizeof ex, ", gun: %s%s",
                     u->type == SV_U_FRAME_GUN     ? "frame"
                     : u->type == SV_U_REGULAR_GUN ? "regular"
                                                   : "heavy",
                     extra);
            extra = ex;
        }
        put_unit(&o, u->name, side, type, extra, u->stands, u->quality, &x, &y, top_edge);
    }
    put_unit(&o, "Commander", side, "commander", "", NULL, 1, &x, &y, top_edge);
    for (int s = 0; s < a->subs; s++) {
        char name[32];
        snprintf(name, sizeof name, "Sub-Commander %d", s + 1);
        put_unit(&o, name, side, "sub_commander", "", NULL, 1, &x, &y, top_edge);
    }
    return o.full ? -1 : (int)o.len;
}
