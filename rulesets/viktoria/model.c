/* rulesets/viktoria/model.c — loading the Viktoria! model (model.yaml) into a plain struct.
 *
 * One flat schema (see model_int.h) lists every leaf; the loader walks the libfyaml document,
 * looks each scalar up by its dotted path, parses it by type and remembers where it came
 * from, then checks spans and the orders the rules imply so an edited file can never make a
 * veteran worse than a soldier. Errors name file:line:column. Loading is done once; the
 * calculator only reads the result.
 */
#include "model_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libfyaml.h>
#include "opfor/yamltext.h"
#include "opfor/yamlread.h"

/* ------------------------------------------------------------------ name tables */

const opfor_name_t opfor_viktoria_bracket_names[] = {
    {"point_blank", OPFOR_VK_POINT_BLANK}, {"short", OPFOR_VK_SHORT},
    {"medium", OPFOR_VK_MEDIUM},           {"long", OPFOR_VK_LONG},
    {"pb", OPFOR_VK_POINT_BLANK},          {NULL, 0},
};

const opfor_name_t opfor_viktoria_ranged_names[] = {
    {"pistol", OPFOR_VK_R_PISTOL},       {"carbine", OPFOR_VK_R_CARBINE},
    {"rifle", OPFOR_VK_R_RIFLE},         {"mg", OPFOR_VK_R_MG},
    {"artillery", OPFOR_VK_R_ARTILLERY}, {"bomb", OPFOR_VK_R_BOMB},
    {"mesmerism", OPFOR_VK_R_MESMERISM}, {NULL, 0},
};

const opfor_name_t opfor_viktoria_melee_names[] = {
    {"sword", OPFOR_VK_SWORD},       {"lance", OPFOR_VK_LANCE},
    {"bayonet", OPFOR_VK_BAYONET},   {"dagger", OPFOR_VK_DAGGER},
    {"spear", OPFOR_VK_BAYONET},     {"club", OPFOR_VK_DAGGER},
    {"improvised", OPFOR_VK_DAGGER}, {NULL, 0},
};

const opfor_name_t opfor_viktoria_blast_names[] = {
    {"bomb", OPFOR_VK_BLAST_BOMB},
    {"shell", OPFOR_VK_BLAST_SHELL},
    {"heavy", OPFOR_VK_BLAST_HEAVY},
    {"field", OPFOR_VK_BLAST_SHELL},
    {NULL, 0},
};

const opfor_name_t opfor_viktoria_effect_names[] = {
    {"firearm", OPFOR_VK_EFFECT_FIREARM}, {"mg", OPFOR_VK_EFFECT_MG},
    {"blast", OPFOR_VK_EFFECT_BLAST},     {"sword", OPFOR_VK_EFFECT_SWORD},
    {"lance", OPFOR_VK_EFFECT_LANCE},     {"bayonet", OPFOR_VK_EFFECT_BAYONET},
    {"dagger", OPFOR_VK_EFFECT_DAGGER},   {NULL, 0},
};

const opfor_name_t opfor_viktoria_move_names[] = {
    {"advance", OPFOR_VK_MOVE_ADVANCE},
    {"run_gallop", OPFOR_VK_MOVE_RUN},
    {"charge", OPFOR_VK_MOVE_CHARGE},
    {"crawl", OPFOR_VK_MOVE_CRAWL},
    {NULL, 0},
};

const opfor_name_t opfor_viktoria_class_names[] = {
    {"civilian", OPFOR_Q_CIVILIAN},
    {"conscript", OPFOR_Q_CONSCRIPT},
    {"soldier", OPFOR_Q_SOLDIER},
    {"veteran", OPFOR_Q_VETERAN},
    {"elite", OPFOR_Q_ELITE},
    {"transport", OPFOR_VK_TRANSPORT},
    {"officer", OPFOR_Q_ELITE},
    {"character", OPFOR_Q_ELITE},
    {NULL, 0},
};

/* ------------------------------------------------------------------ the schema */

#define LOGIT_MAX 20.0 /* no single term moves a chance further than 1 in 500 million */
#define OFF(f) offsetof(opfor_viktoria_model_t, f)
#define LD(p, f, s, o)                                                                             \
    { p, OFF(f), OPFOR__VK_DBL, s, o, -LOGIT_MAX, LOGIT_MAX }
#define LI(p, f, s, o, lo, hi)                                                                     \
    { p, OFF(f), OPFOR__VK_INT, s, o, lo, hi }
#define LE(p, f)                                                                                   \
    { p, OFF(f), OPFOR__VK_EDGE, 1, 0, 0.0, INFINITY }
#define LX(p, f)                                                                                   \
    { p, OFF(f), OPFOR__VK_DICE, 0, 0, 0.0, 0.0 }

/* Five qualities, civilian..elite; o orders each against the one before. */
#define Q5(p, f, o)                                                                                \
    LD(p ".civilian", f[0], 0, 0), LD(p ".conscript", f[1], 0, o), LD(p ".soldier", f[2], 0, o),   \
        LD(p ".veteran", f[3], 0, o), LD(p ".elite", f[4], 0, o)
/* The qualities then transport, which the rules do not rank against them. */
#define C6(p, f, o) Q5(p, f, o), LD(p ".transport", f[5], 0, 0)
#define CV(p, f, o)                                                                                \
    LD(p ".none", f[0], 0, 0), LD(p ".soft", f[1], 0, o), LD(p ".hard", f[2], 0, o),               \
        LD(p ".fortification", f[3], 0, o)
#define BR(p, f, o)                                                                                \
    LD(p ".point_blank", f[0], 0, 0), LD(p ".short", f[1], 0, o), LD(p ".medium", f[2], 0, o),     \
        LD(p ".long", f[3], 0, o)
#define EDGES(p, r)                                                                                \
    LE(p ".point_blank", range_edge[r][0]), LE(p ".short", range_edge[r][1]),                      \
        LE(p ".medium", range_edge[r][2]), LE(p ".long", range_edge[r][3])
#define DEV(p, f)                                                                                  \
    LX(p ".point_blank", f[0]), LX(p ".short", f[1]), LX(p ".medium", f[2]), LX(p ".long", f[3])
#define MELEE(p, f, s)                                                                             \
    LD(p ".sword", f[0], s, 0), LD(p ".lance", f[1], s, 0), LD(p ".bayonet", f[2], s, 0),          \
        LD(p ".dagger", f[3], s, 0)
#define EFFECT(p, e)                                                                               \
    LI(p ".wound", effect[e].wound, 0, 0, 1, 7), LI(p ".kill", effect[e].kill, 0, 0, 1, 7),        \
        LI(p ".wounded_kill", effect[e].wounded_kill, 0, 0, 1, 7)
#define MOVEQ(p, f)                                                                                \
    LI(p ".civilian", f[0], 1, 0, 0, 48), LI(p ".conscript", f[1], 1, 1, 0, 48),                   \
        LI(p ".soldier", f[2], 1, 1, 0, 48), LI(p ".veteran", f[3], 1, 1, 0, 48),                  \
        LI(p ".elite", f[4], 1, 1, 0, 48)
#define MORALE(p, f)                                                                               \
    Q5(p ".actor", f.actor, 1), LD(p ".general", f.general, 1, 0),                                 \
        LD(p ".musician", f.musician, 1, 0), LD(p ".colours", f.colours, 1, 0),                    \
        LD(p ".half_strength", f.half_strength, -1, 0)

static const opfor__vk_leaf_t SCHEMA[] = {
    LI("version", version, 0, 0, 1, 1),
    EDGES("ranges.pistol", OPFOR_VK_R_PISTOL),
    EDGES("ranges.carbine", OPFOR_VK_R_CARBINE),
    EDGES("ranges.rifle", OPFOR_VK_R_RIFLE),
    EDGES("ranges.mg", OPFOR_VK_R_MG),
    EDGES("ranges.artillery", OPFOR_VK_R_ARTILLERY),
    EDGES("ranges.bomb", OPFOR_VK_R_BOMB),
    EDGES("ranges.mesmerism", OPFOR_VK_R_MESMERISM),
    /* IX: better firers hit more; better, covered, running, prone targets are hit less. */
    Q5("fire.hit.actor", fire_hit.actor, 1),
    C6("fire.hit.target", fire_hit.target, -1),
    CV("fire.hit.cover", fire_hit.cover, -1),
    BR("fire.hit.range.pistol", fire_hit.range[OPFOR_VK_R_PISTOL], -1),
    BR("fire.hit.range.carbine", fire_hit.range[OPFOR_VK_R_CARBINE], -1),
    BR("fire.hit.range.rifle", fire_hit.range[OPFOR_VK_R_RIFLE], -1),
    LD("fire.hit.target_running", fire_hit.target_running, -1, 0),
    LD("fire.hit.target_prone", fire_hit.target_prone, -1, 0),
    LD("fire.hit.moving", fire_hit.moving, -1, 0),
    LD("fire.hit.actor_wounded", fire_hit.actor_wounded, -1, 0),
    LD("fire.hit.target_wounded", fire_hit.target_wounded, 1, 0),
    LD("fire.hit.actor_mounted", fire_hit.actor_mounted, 0, 0),
    LD("fire.hit.target_mounted", fire_hit.target_mounted, 0, 0),
    LD("fire.hit.sharpshooter", fire_hit.sharpshooter, 1, 0),
    C6("fire.save.target", fire_save.target, 1),
    CV("fire.save.cover", fire_save.cover, 1),
    LD("fire.save.weapon.pistol", fire_save.weapon[OPFOR_VK_R_PISTOL], 0, 0),
    LD("fire.save.weapon.carbine", fire_save.weapon[OPFOR_VK_R_CARBINE], 0, 0),
    LD("fire.save.weapon.rifle", fire_save.weapon[OPFOR_VK_R_RIFLE], 0, 0),
    BR("fire.save.range", fire_save.range, 1),
    LD("fire.save.target_wounded", fire_save.target_wounded, -1, 0),
    LD("fire.save.target_mounted", fire_save.target_mounted, 0, 0),
    /* Tests: the Actor is the figure at risk, so cover and range help it. */
    C6("mg.actor", mg.actor, 1),
    CV("mg.cover", mg.cover, 1),
    BR("mg.range", mg.range, 1),
    LD("mg.actor_mounted", mg.actor_mounted, 0, 0),
    LD("mg.moving", mg.moving, 1, 0),
    C6("blast.actor", blast.actor, 1),
    CV("blast.cover", blast.cover, 1),
    LD("blast.blast.bomb", blast.blast[OPFOR_VK_BLAST_BOMB], 0, 0),
    LD("blast.blast.shell", blast.blast[OPFOR_VK_BLAST_SHELL], 0, -1),
    LD("blast.blast.heavy", blast.blast[OPFOR_VK_BLAST_HEAVY], 0, -1),
    LD("blast.actor_mounted", blast.actor_mounted, 0, 0),
    BR("artillery.range", artillery.range, -1),
    DEV("artillery.deviation", artillery.deviation),
    Q5("bomb.actor", bomb.actor, 1),
    BR("bomb.range", bomb.range, -1),
    DEV("bomb.deviation", bomb.deviation),
    LI("support.need", support.need, 0, 0, 2, 13),
    LI("support.comms_fail", support.comms_fail, 0, 0, 1, 12),
    /* X: charging never hurts the attacker. */
    Q5("melee.hit.actor", melee_hit.actor, 1),
    Q5("melee.hit.target", melee_hit.target, -1),
    CV("melee.hit.cover", melee_hit.cover, -1),
    MELEE("melee.hit.weapon", melee_hit.weapon, 0),
    MELEE("melee.hit.weapon_charging", melee_hit.weapon_charging, 1),
    LD("melee.hit.charging", melee_hit.charging, 1, 0),
    LD("melee.hit.actor_mounted", melee_hit.actor_mounted, 0, 0),
    LD("melee.hit.target_mounted", melee_hit.target_mounted, 0, 0),
    LD("melee.hit.actor_wounded", melee_hit.actor_wounded, -1, 0),
    LD("melee.hit.target_wounded", melee_hit.target_wounded, 1, 0),
    Q5("melee.save.target", melee_save.target, 1),
    CV("melee.save.cover", melee_save.cover, 1),
    MELEE("melee.save.weapon", melee_save.weapon, 0),
    LD("melee.save.target_wounded", melee_save.target_wounded, -1, 0),
    LD("melee.save.target_mounted", melee_save.target_mounted, 0, 0),
    EFFECT("effects.firearm", OPFOR_VK_EFFECT_FIREARM),
    EFFECT("effects.mg", OPFOR_VK_EFFECT_MG),
    EFFECT("effects.blast", OPFOR_VK_EFFECT_BLAST),
    EFFECT("effects.sword", OPFOR_VK_EFFECT_SWORD),
    EFFECT("effects.lance", OPFOR_VK_EFFECT_LANCE),
    EFFECT("effects.bayonet", OPFOR_VK_EFFECT_BAYONET),
    EFFECT("effects.dagger", OPFOR_VK_EFFECT_DAGGER),
    Q5("mesmerism.attack.actor", mesmerise.actor, 1),
    Q5("mesmerism.attack.target", mesmerise.target, -1),
    BR("mesmerism.attack.range", mesmerise.range, -1),
    Q5("mesmerism.resist.actor", resist.actor, 1),
    Q5("heal.actor", heal.actor, 1),
    /* XI: generals, musicians and colours never hurt; half strength never helps. */
    MORALE("morale", morale),
    MORALE("rally", rally),
    Q5("command.actor", command.actor, 1),
    LD("command.per_inch", command.per_inch, -1, 0),
    MOVEQ("move.foot.advance", move.foot[OPFOR_VK_MOVE_ADVANCE]),
    MOVEQ("move.foot.run_gallop", move.foot[OPFOR_VK_MOVE_RUN]),
    MOVEQ("move.foot.charge", move.foot[OPFOR_VK_MOVE_CHARGE]),
    MOVEQ("move.foot.crawl", move.foot[OPFOR_VK_MOVE_CRAWL]),
    MOVEQ("move.mounted.advance", move.mounted[OPFOR_VK_MOVE_ADVANCE]),
    MOVEQ("move.mounted.run_gallop", move.mounted[OPFOR_VK_MOVE_RUN]),
    MOVEQ("move.mounted.charge", move.mounted[OPFOR_VK_MOVE_CHARGE]),
    LI("move.transport_foot.advance", move.transport_foot[0], 1, 0, 0, 48),
    LI("move.transport_foot.run_gallop", move.transport_foot[1], 1, 0, 0, 48),
    LI("move.transport_mounted.advance", move.transport_mounted[0], 1, 0, 0, 48),
    LI("move.transport_mounted.run_gallop", move.transport_mounted[1], 1, 0, 0, 48),
    LI("move.wounded", move.wounded, -1, 0, -48, 0),
    LI("move.crawl_wounded", move.crawl_wounded, -1, 0, -48, 0),
    LI("weather.level_down", weather.level_down, 0, 0, 0, 6),
    LI("weather.level_up", weather.level_up, 0, 0, 1, 7),
    LI("weather.back2", weather.back2, 0, 0, 1, 12),
    LI("weather.back1", weather.back1, 0, 0, 1, 12),
    LI("weather.veer1", weather.veer1, 0, 0, 2, 13),
    LI("weather.veer2", weather.veer2, 0, 0, 2, 13),
};
#define NSCHEMA (sizeof SCHEMA / sizeof SCHEMA[0])

const opfor__vk_leaf_t *opfor__viktoria_schema(size_t *count) {
    if (count)
        *count = NSCHEMA;
    return SCHEMA;
}

/* ------------------------------------------------------------------ loader state */

typedef struct mark {
    int line;          /* 1-based; 0 when unknown */
    int col;           /* 1-based */
    unsigned char own; /* set by the file being loaded (not inherited defaults) */
} mark_t;

typedef struct loader {
    opfor_viktoria_model_t m; /* work copy; copied out only on success */
    mark_t mark[NSCHEMA];     /* where each leaf was last set */
    const char *name;         /* file name for diagnostics */
    size_t next;              /* where walk's next key lookup starts: after the last leaf found */
    opfor_diag_t *diag;       /* may be NULL */
} loader_t;

static int fail(loader_t *L, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(loader_t *L, int line, int col, const char *fmt, ...) {
    char msg[sizeof L->diag->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int rc = opfor_diag_set(L->diag, OPFOR_EPARSE, line, col, "%s", msg);
    if (L->diag)
        snprintf(L->diag->file, sizeof L->diag->file, "%s", L->name);
    return rc;
}

static void node_mark(struct fy_node *n, int *line, int *col) {
    *line = 0;
    *col = 0;
    if (!n)
        return;
    struct fy_token *t = fy_node_get_scalar_token(n);
    if (!t)
        return;
    const struct fy_mark *mk = fy_token_start_mark(t);
    if (mk) {
        *line = mk->line + 1;
        *col = mk->column + 1;
    }
}

/* Index of the leaf with exactly this path, or -1. The scan starts at from and wraps round:
 * paths are unique, so the answer never depends on from, but a file written in the schema's
 * order (model.yaml is) finds each key at its first look instead of after hundreds. */
static int find_leaf_from(const char *path, size_t from) {
    for (size_t k = 0; k < NSCHEMA; k++) {
        size_t i = (from + k) % NSCHEMA;
        if (strcmp(SCHEMA[i].path, path) == 0)
            return (int)i;
    }
    return -1;
}

static int find_leaf(const char *path) {
    return find_leaf_from(path, 0);
}

/* True when some leaf lies below path (path is a section); the scan starts at from and wraps
 * round, as find_leaf_from's does. */
static int is_section(const char *path, size_t from) {
    size_t n = strlen(path);
    for (size_t k = 0; k < NSCHEMA; k++) {
        size_t i = (from + k) % NSCHEMA;
        if (strncmp(SCHEMA[i].path, path, n) == 0 && SCHEMA[i].path[n] == '.')
            return 1;
    }
    return 0;
}

/* Comma-separated names of the keys allowed directly under section (""= the root). */
static void children_of(const char *section, char *buf, size_t size) {
    size_t n = strlen(section), used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NSCHEMA; i++) {
        const char *p = SCHEMA[i].path;
        if (n) {
            if (strncmp(p, section, n) != 0 || p[n] != '.')
                continue;
            p += n + 1;
        }
        size_t len = strcspn(p, ".");
        /* skip names already listed */
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            const char *q = SCHEMA[j].path;
            if (n) {
                if (strncmp(q, section, n) != 0 || q[n] != '.')
                    continue;
                q += n + 1;
            }
            if (strncmp(q, p, len) == 0 && (q[len] == '.' || q[len] == 0))
                seen = 1;
        }
        if (seen || used + len + 3 >= size)
            continue;
        if (used) {
            memcpy(buf + used, ", ", 2);
            used += 2;
        }
        memcpy(buf + used, p, len);
        used += len;
        buf[used] = 0;
    }
}

static int parse_scalar(loader_t *L, int idx, const char *text, int line, int col) {
    const opfor__vk_leaf_t *lf = &SCHEMA[idx];
    char *dst = (char *)&L->m + lf->off;
    char *end;
    switch (lf->type) {
    case OPFOR__VK_DBL:
    case OPFOR__VK_EDGE: {
        double v;
        if (lf->type == OPFOR__VK_EDGE &&
            (strcmp(text, ".inf") == 0 || strcmp(text, ".Inf") == 0 || strcmp(text, ".INF") == 0 ||
             strcmp(text, "+.inf") == 0 || strcmp(text, "inf") == 0)) {
            v = INFINITY;
        } else {
            errno = 0;
            v = strtod(text, &end);
            if (!*text || *end || errno || !isfinite(v))
                return fail(L, line, col, "%s: '%s' is not a number", lf->path, text);
        }
        if (v < lf->lo || v > lf->hi || (lf->type == OPFOR__VK_EDGE && v <= 0.0))
            return fail(L, line, col,
                        lf->type == OPFOR__VK_EDGE
                            ? "%s: '%s' is out of range (a distance above 0 inches, or .inf)"
                            : "%s: '%s' is out of range (log-odds between -20 and 20)",
                        lf->path, text);
        memcpy(dst, &v, sizeof v);
        break;
    }
    case OPFOR__VK_INT: {
        errno = 0;
        long v = strtol(text, &end, 10);
        if (!*text || *end || errno)
            return fail(L, line, col, "%s: '%s' is not a whole number", lf->path, text);
        if ((double)v < lf->lo || (double)v > lf->hi)
            return fail(L, line, col, "%s: %ld is out of range (%.0f..%.0f)", lf->path, v, lf->lo,
                        lf->hi);
        int iv = (int)v;
        memcpy(dst, &iv, sizeof iv);
        break;
    }
    case OPFOR__VK_DICE: {
        opfor_dice_t d;
        opfor_diag_t dd;
        opfor_diag_clear(&dd);
        if (opfor_dice_parse(text, &d, &dd) != 0)
            return fail(L, line, col + (dd.col > 0 ? dd.col - 1 : 0), "%s: %s", lf->path, dd.msg);
        if (opfor_dice_min(&d) < 0)
            return fail(L, line, col, "%s: '%s' can be negative; deviation is a distance", lf->path,
                        text);
        memcpy(dst, &d, sizeof d);
        break;
    }
    }
    L->mark[idx].line = line;
    L->mark[idx].col = col;
    L->mark[idx].own = 1;
    return 0;
}

static int walk(loader_t *L, struct fy_node *map, const char *section, int depth) {
    void *it = NULL;
    struct fy_node_pair *pair;
    while ((pair = fy_node_mapping_iterate(map, &it)) != NULL) {
        struct fy_node *k = fy_node_pair_key(pair), *v = fy_node_pair_value(pair);
        int kl, kc;
        node_mark(k, &kl, &kc);
        size_t klen = 0;
        const char *ktext =
            k && fy_node_get_type(k) == FYNT_SCALAR ? fy_node_get_scalar(k, &klen) : NULL;
        if (!ktext || klen == 0 || klen > 64 || memchr(ktext, '.', klen))
            return fail(L, kl, kc, "%s%sexpected a plain key", section, *section ? ": " : "");
        char path[256];
        snprintf(path, sizeof path, "%s%s%.*s", section, *section ? "." : "", (int)klen, ktext);
        /* A path is a leaf or a section, never both (tests/rulesets/test_model.c checks the
         * schema), so the value's kind says which to look for first: the look that succeeds
         * is quick from L->next, and only a key that will be refused pays for both scans. */
        enum fy_node_type vt = v ? fy_node_get_type(v) : FYNT_SCALAR;
        int is_map = v && vt == FYNT_MAPPING;
        int sect = is_map && is_section(path, L->next);
        int idx = sect ? -1 : find_leaf_from(path, L->next);
        if (idx >= 0)
            L->next = (size_t)idx + 1;
        else if (!is_map)
            sect = is_section(path, L->next);
        if (idx < 0 && !sect) {
            char allowed[600];
            children_of(section, allowed, sizeof allowed);
            return fail(L, kl, kc, "unknown key '%s'; expected one of: %s", path, allowed);
        }
        if (idx >= 0) {
            if (!v || vt != FYNT_SCALAR)
                return fail(L, kl, kc, "%s: expected a single value%s", path, "");
            int vl, vc;
            node_mark(v, &vl, &vc);
            if (vl == 0) { /* an empty value has no token: point at its key */
                vl = kl;
                vc = kc;
            }
            size_t vlen = 0;
            const char *vtext = fy_node_get_scalar(v, &vlen);
            char buf[128];
            if (!vtext || vlen >= sizeof buf)
                return fail(L, vl, vc, "%s: value too long%s", path, "");
            memcpy(buf, vtext, vlen);
            buf[vlen] = 0;
            int rc = parse_scalar(L, idx, buf, vl, vc);
            if (rc)
                return rc;
        } else {
            if (!v || vt != FYNT_MAPPING) {
                char allowed[600];
                children_of(path, allowed, sizeof allowed);
                return fail(L, kl, kc, "%s: expected a mapping of: %s", path, allowed);
            }
            if (depth > 8)
                return fail(L, kl, kc, "%s: nested too deep%s", path, "");
            int rc = walk(L, v, path, depth + 1);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ checks */

static double leaf_value(const loader_t *L, size_t i) {
    const char *src = (const char *)&L->m + SCHEMA[i].off;
    if (SCHEMA[i].type == OPFOR__VK_INT) {
        int v;
        memcpy(&v, src, sizeof v);
        return v;
    }
    double v;
    memcpy(&v, src, sizeof v);
    return v;
}

/* Reports a broken rule between leaves a and b at whichever the file set (b first). */
static int fail_pair(loader_t *L, size_t a, size_t b, const char *why) {
    size_t at = L->mark[b].own || !L->mark[a].own ? b : a;
    return fail(L, L->mark[at].line, L->mark[at].col, "%s (%g) and %s (%g): %s", SCHEMA[a].path,
                leaf_value(L, a), SCHEMA[b].path, leaf_value(L, b), why);
}

static int check(loader_t *L) {
    for (size_t i = 0; i < NSCHEMA; i++) {
        const opfor__vk_leaf_t *lf = &SCHEMA[i];
        if (lf->type == OPFOR__VK_DICE)
            continue;
        double v = leaf_value(L, i);
        if ((lf->sign > 0 && v < 0) || (lf->sign < 0 && v > 0))
            return fail(L, L->mark[i].line, L->mark[i].col,
                        lf->sign > 0 ? "%s: must not be negative%s" : "%s: must not be positive%s",
                        lf->path, " (the rules fix which way this field works)");
        if (lf->order && i > 0) {
            double prev = leaf_value(L, i - 1);
            if ((lf->order > 0 && v < prev) || (lf->order < 0 && v > prev))
                return fail_pair(L, i - 1, i,
                                 lf->order > 0 ? "the second must not be below the first"
                                               : "the second must not be above the first");
        }
    }
    const opfor_viktoria_model_t *m = &L->m;
    /* Bracket edges increase; only the last may be unlimited; rule maxima are fixed. */
    static const struct {
        int r;
        double max; /* 0: no fixed maximum */
    } fixed[] = {{OPFOR_VK_R_PISTOL, 9},   {OPFOR_VK_R_CARBINE, 36},  {OPFOR_VK_R_RIFLE, 0},
                 {OPFOR_VK_R_MG, 0},       {OPFOR_VK_R_ARTILLERY, 0}, {OPFOR_VK_R_BOMB, 6},
                 {OPFOR_VK_R_MESMERISM, 9}};
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) {
        int r = fixed[k].r;
        char p0[64];
        snprintf(p0, sizeof p0, "ranges.%s.point_blank",
                 opfor_vocab_name(opfor_viktoria_ranged_names, r));
        size_t base = (size_t)find_leaf(p0);
        for (int b = 1; b < OPFOR_VK_BRACKET_COUNT; b++)
            if (!(m->range_edge[r][b] > m->range_edge[r][b - 1]) || isinf(m->range_edge[r][b - 1]))
                return fail_pair(L, base + b - 1, base + b,
                                 "bracket edges must increase (only the last may be .inf)");
        size_t last = base + OPFOR_VK_BRACKET_COUNT - 1;
        if (fixed[k].max > 0 && m->range_edge[r][OPFOR_VK_BRACKET_COUNT - 1] != fixed[k].max) {
            char why[32];
            snprintf(why, sizeof why, "%g", fixed[k].max);
            return fail(L, L->mark[last].line, L->mark[last].col,
                        "%s: the rules set this weapon's maximum range at %s in", SCHEMA[last].path,
                        why);
        }
    }
    /* Effects: a scratch below a wound below a kill; a wound never helps the wounded. */
    for (int e = 0; e < OPFOR_VK_EFFECT_COUNT; e++) {
        char p0[64];
        snprintf(p0, sizeof p0, "effects.%s.wound",
                 opfor_vocab_name(opfor_viktoria_effect_names, e));
        size_t w = (size_t)find_leaf(p0);
        if (m->effect[e].kill < m->effect[e].wound)
            return fail_pair(L, w, w + 1, "kill must not be below wound");
        if (m->effect[e].wounded_kill > m->effect[e].kill)
            return fail_pair(L, w + 1, w + 2, "a wounded figure must die at least as easily");
    }
    /* Deviation never shrinks with range. */
    const opfor_dice_t *devs[2] = {m->artillery.deviation, m->bomb.deviation};
    const char *devp[2] = {"artillery.deviation.point_blank", "bomb.deviation.point_blank"};
    for (int d = 0; d < 2; d++) {
        size_t base = (size_t)find_leaf(devp[d]);
        for (int b = 1; b < OPFOR_VK_BRACKET_COUNT; b++) {
            const opfor_dice_t *x = &devs[d][b - 1], *y = &devs[d][b];
            if (opfor_dice_max(y) < opfor_dice_max(x) ||
                opfor_dice_min(y) + opfor_dice_max(y) < opfor_dice_min(x) + opfor_dice_max(x))
                return fail(L, L->mark[base + b].line, L->mark[base + b].col,
                            "%s: deviation must not shrink at longer range%s",
                            SCHEMA[base + b].path, "");
        }
    }
    /* Weather faces are ordered. */
    size_t wd = (size_t)find_leaf("weather.level_down");
    if (m->weather.level_down >= m->weather.level_up)
        return fail_pair(L, wd, wd + 1, "level_down must be below level_up");
    if (m->weather.back2 > m->weather.back1)
        return fail_pair(L, wd + 2, wd + 3, "back2 must not be above back1");
    if (m->weather.back1 >= m->weather.veer1)
        return fail_pair(L, wd + 3, wd + 4, "back1 must be below veer1");
    if (m->weather.veer1 > m->weather.veer2)
        return fail_pair(L, wd + 4, wd + 5, "veer1 must not be above veer2");
    return 0;
}

/* ------------------------------------------------------------------ entry points */

static int load_text(loader_t *L, const char *text, size_t len) {
    int trc = opfor_yaml_text_check(text, len, L->diag);
    if (trc) {
        if (L->diag) /* name the file, not "<input>" */
            snprintf(L->diag->file, sizeof L->diag->file, "%s", L->name);
        return trc;
    }
    struct fy_document *doc = NULL;
    int rc = opfor_yaml_parse(text, len, &doc, L->diag);
    if (rc || !doc) { /* a syntax error, or only comments: nothing changes */
        if (rc && L->diag)
            snprintf(L->diag->file, sizeof L->diag->file, "%s", L->name);
        return rc;
    }
    struct fy_node *root = fy_document_root(doc);
    if (root && fy_node_get_type(root) != FYNT_MAPPING) {
        rc = fail(L, 1, 1, "expected a mapping of model sections%s%s", "", "");
    } else if (root) {
        rc = walk(L, root, "", 0);
    }
    fy_document_destroy(doc);
    return rc;
}

static int load_defaults(loader_t *L, opfor_diag_t *diag) {
    memset(L, 0, sizeof *L);
    L->name = "model.yaml (built in)";
    L->diag = diag;
    int rc = load_text(L, (const char *)opfor_viktoria_model_yaml,
                       (size_t)opfor_viktoria_model_yaml_len);
    if (rc)
        return rc;
    for (size_t i = 0; i < NSCHEMA; i++)
        if (!L->mark[i].own)
            return fail(L, 0, 0, "%s: missing from the built-in model%s", SCHEMA[i].path, "");
    return check(L);
}

/* Loads text (named name) over the defaults load_defaults left in L, then checks the whole:
 * marks of inherited values stay, so a broken order still points at the line that set it. */
static int load_over(loader_t *L, const char *text, const char *name) {
    for (size_t i = 0; i < NSCHEMA; i++)
        L->mark[i].own = 0;
    L->name = name ? name : "";
    int rc = load_text(L, text, strlen(text));
    return rc ? rc : check(L);
}

int opfor_viktoria_model_default(opfor_viktoria_model_t *m, opfor_diag_t *diag) {
    if (!m)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no model to fill");
    loader_t *L = calloc(1, sizeof *L);
    if (!L)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    int rc = load_defaults(L, diag);
    if (rc == 0)
        memcpy(m, &L->m, sizeof *m);
    free(L);
    return rc;
}

int opfor_viktoria_model_load_string(const char *text, const char *name, opfor_viktoria_model_t *m,
                                     opfor_diag_t *diag) {
    if (!m || !text)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no model text");
    loader_t *L = calloc(1, sizeof *L);
    if (!L)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    int rc = load_defaults(L, diag);
    if (rc == 0)
        rc = load_over(L, text, name);
    if (rc == 0)
        memcpy(m, &L->m, sizeof *m);
    free(L);
    return rc;
}

struct opfor__vk_model_base {
    loader_t L; /* load_defaults' result; its diag NULL */
};

int opfor__viktoria_model_base_new(opfor__vk_model_base_t **out, opfor_diag_t *diag) {
    if (!out)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no base to fill");
    *out = NULL;
    opfor__vk_model_base_t *b = calloc(1, sizeof *b);
    if (!b)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    int rc = load_defaults(&b->L, diag);
    if (rc) {
        free(b);
        return rc;
    }
    b->L.diag = NULL;
    *out = b;
    return 0;
}

void opfor__viktoria_model_base_free(opfor__vk_model_base_t *b) {
    free(b);
}

int opfor__viktoria_model_load_over(const opfor__vk_model_base_t *b, const char *text,
                                    const char *name, opfor_viktoria_model_t *m,
                                    opfor_diag_t *diag) {
    if (!b || !m || !text)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no model text");
    loader_t *L = malloc(sizeof *L);
    if (!L)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    memcpy(L, &b->L, sizeof *L);
    L->diag = diag;
    int rc = load_over(L, text, name);
    if (rc == 0)
        memcpy(m, &L->m, sizeof *m);
    free(L);
    return rc;
}

int opfor_viktoria_model_load_file(const char *path, opfor_viktoria_model_t *m,
                                   opfor_diag_t *diag) {
    if (!path)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no model file named");
    FILE *f = fopen(path, "rb");
    if (!f) {
        int rc = opfor_diag_set(diag, OPFOR_EIO, 0, 0, "cannot open: %s", strerror(errno));
        if (diag)
            snprintf(diag->file, sizeof diag->file, "%s", path);
        return rc;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    int rc = 0;
    while (buf) {
        if (len + 1 >= cap) {
            if (cap >= (size_t)16 << 20) {
                rc = opfor_diag_set(diag, OPFOR_ERANGE, 0, 0, "file larger than 16 MiB");
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
    }
    int rerr = ferror(f) ? errno : 0;
    fclose(f);
    if (!buf)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "out of memory");
    if (rc == 0 && rerr) /* a directory, say */
        rc = opfor_diag_set(diag, OPFOR_EIO, 0, 0, "cannot read: %s", strerror(rerr));
    if (rc == 0 && memchr(buf, 0, len))
        rc = opfor_diag_set(diag, OPFOR_EPARSE, 0, 0, "file contains a NUL byte");
    if (rc) {
        if (diag)
            snprintf(diag->file, sizeof diag->file, "%s", path);
        free(buf);
        return rc;
    }
    buf[len] = 0;
    rc = opfor_viktoria_model_load_string(buf, path, m, diag);
    free(buf);
    return rc;
}

int opfor_viktoria_bracket_of(const opfor_viktoria_model_t *m, opfor_viktoria_ranged_t r,
                              double inches) {
    if (!m || (int)r < 0 || r >= OPFOR_VK_R_COUNT || !(inches >= 0.0))
        return OPFOR_EINVAL;
    for (int b = 0; b < OPFOR_VK_BRACKET_COUNT; b++)
        if (inches <= m->range_edge[r][b])
            return b;
    return OPFOR_ERANGE;
}

int opfor_viktoria_bracket_aloft(const opfor_viktoria_model_t *m, opfor_viktoria_ranged_t r,
                                 double inches, int levels) {
    int b = opfor_viktoria_bracket_of(m, r, inches);
    if (b < 0 || levels <= 0)
        return b;
    /* each level is one more range bracket (XII.D) */
    b += levels;
    if (b < OPFOR_VK_BRACKET_COUNT)
        return b;
    return isinf(m->range_edge[r][OPFOR_VK_BRACKET_COUNT - 1]) ? OPFOR_VK_BRACKET_COUNT - 1
                                                               : OPFOR_ERANGE;
}
