/* rulesets/splendid/engine_rules.c — the rules the engine's phases share: unit classes, who is
 * in command (§Command), what each formation allows at a unit's size (§Open Order Formation,
 * §Road Column Formation, §Defensive Block Formation, R-1, R-5), fire dice (§How many stands
 * fire?, §How do you resolve firing?, §To fire artillery), combat values (§How do you resolve
 * hand-to-hand combat?), allowances (§How do I manoeuvre a unit?, §How does a unit charge?),
 * dice and stand removal with the tally (§The Determine Victory Phase). The quality numbers
 * and the readings the calculator uses come from its model (model.yaml).
 */
#include <math.h>

#include "engine_int.h"

int sv_is_art(const sv_unit_t *u) {
    return u->kind == SV_FRAME || u->kind == SV_GUN || u->kind == SV_HEAVYGUN;
}

int sv_is_cmd(const sv_unit_t *u) {
    return u->kind == SV_COMMANDER || u->kind == SV_SUB;
}

int sv_is_foot(const sv_unit_t *u) {
    return u->kind == SV_PM || u->kind == SV_FOOT ||
           (u->kind == SV_DRAGOON && (u->flags & SV_F_DISMOUNTED));
}

int sv_is_mounted(const sv_ctx_t *c, const sv_unit_t *u) {
    if (sv_is_cmd(u))
        return c->model.command_stand_mounted;
    return u->kind == SV_HEAVY || u->kind == SV_MOUNTED ||
           (u->kind == SV_DRAGOON && !(u->flags & SV_F_DISMOUNTED));
}

int sv_muskets(const sv_unit_t *u) {
    if (u->kind == SV_PM)
        return u->n - u->a;
    if (u->kind == SV_DRAGOON && (u->flags & SV_F_DISMOUNTED))
        return u->n;
    return 0;
}

int sv_pikes(const sv_unit_t *u) {
    return u->kind == SV_PM ? u->a : 0;
}

int sv_open(const sv_unit_t *u) {
    return u->form == SV_OPEN || sv_is_art(u) || sv_is_cmd(u);
}

int sv_in_command(const sv_ctx_t *c, const sv_state_t *s, int ui) {
    const sv_unit_t *u = &s->u[ui];
    if (u->kind == SV_HEAVY || sv_is_cmd(u)) /* §Command: always in command */
        return 1;
    for (int i = 0; i < s->nunits; i++) {
        const sv_unit_t *k = &s->u[i];
        if (i == ui || !sv_alive(k) || !sv_is_cmd(k) || k->side != u->side)
            continue;
        if (sv_unit_near(c, u, k, (float)k->cmd10 / 10.0f + 1e-4f))
            return 1;
    }
    return 0;
}

int sv_engaged(const sv_ctx_t *c, const sv_state_t *s, int ui) {
    const sv_unit_t *u = &s->u[ui];
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].side != u->side && sv_alive(&s->u[i]) && sv_in_contact(c, u, &s->u[i]))
            return 1;
    return 0;
}

int sv_form_ok(const sv_unit_t *u, int form) {
    int n = u->n;
    if (sv_is_art(u))
        return form == SV_LIMBERED || form == SV_UNLIMBERED;
    if (sv_is_cmd(u))
        return form == SV_OPEN;
    switch (form) {
    case SV_BLOCK: /* foot and mounted units of two or more stands */
        return n >= 2;
    case SV_DEFBLOCK: /* foot units only */
        return n >= 2 && sv_is_foot(u);
    case SV_LINE:
        return 1;
    case SV_OPEN: /* §Open Order Formation */
        if (u->kind == SV_DRAGOON)
            return 1;
        if (u->kind == SV_PM)
            return n < 4 && u->a == 0;
        if (u->kind == SV_MOUNTED)
            return n < 4;
        return 0;
    case SV_COLUMN:
        return n >= 2;
    default:
        return 0;
    }
}

int sv_default_files(const sv_unit_t *u, int form) {
    switch (form) {
    case SV_BLOCK:
    case SV_DEFBLOCK: /* two ranks, the rear one partial when odd */
        return u->n <= 2 ? 1 : (u->n + 1) / 2;
    case SV_COLUMN:
        return 1;
    case SV_LIMBERED:
    case SV_UNLIMBERED:
        return 1;
    default:
        return u->n;
    }
}

/* Whether target rectangle rt lies at least partly in u's zones of fire out to range. */
static int in_zone(const sv_ctx_t *c, const sv_unit_t *u, const opfor_pt_t ru[4],
                   const opfor_pt_t rt[4], float range, int all_round) {
    if (all_round) /* §Open Order Formation, §Defensive Block Formation: all four sides */
        return sv_rect_near(ru, rt, range);
    (void)c;
    opfor_vec_t f = opfor_pt(u->fx, u->fy);
    opfor_pt_t z[4] = {opfor_pt(ru[0].x + f.x * range, ru[0].y + f.y * range),
                       opfor_pt(ru[1].x + f.x * range, ru[1].y + f.y * range), ru[1], ru[0]};
    return sv_rect_overlap(z, rt, 1e-3f);
}

int sv_fire_dice(const sv_ctx_t *c, const sv_state_t *s, int ui, int ti) {
    sv_geo_t g;
    sv_geo_build(c, s, &g);
    return sv_fire_dice_g(c, s, &g, ui, ti);
}

int sv_fire_dice_g(const sv_ctx_t *c, const sv_state_t *s, const sv_geo_t *g, int ui, int ti) {
    const sv_unit_t *u = &s->u[ui], *t = &s->u[ti];
    if (!sv_alive(u) || !sv_alive(t) || u->side == t->side)
        return 0;
    int art = sv_is_art(u), muskets = sv_muskets(u);
    if (art ? u->form != SV_UNLIMBERED : (muskets == 0 || u->form == SV_COLUMN))
        return 0;
    if (g->contact[ui])
        return 0; /* it fights instead */
    /* never at a unit in hand-to-hand combat with a friendly unit */
    if (g->contact[ti])
        return 0;
    float range = art ? (u->kind == SV_FRAME ? 20.0f : u->kind == SV_GUN ? 40.0f : 60.0f) : 7.0f;
    const opfor_pt_t *ru = g->r[ui], *rt = g->r[ti];
    float gap = sv_box_gap(g->box[ui], g->box[ti]);
    if (gap > range + 1e-4f)
        return 0;
    float d = sv_rect_dist_gap(ru, rt, gap);
    int all_round = !art && (u->form == SV_OPEN || u->form == SV_DEFBLOCK);
    if (d > range + 1e-4f)
        return 0;
    if (all_round ? !(gap <= range && d <= range) : !in_zone(c, u, ru, rt, range, 0))
        return 0;
    /* nothing of either side in between: the line from the firer's front (its centre when it
     * fires all round) to the target's centre crosses no other unit */
    opfor_pt_t from = all_round ? opfor_pt((ru[0].x + ru[2].x) * 0.5f, (ru[0].y + ru[2].y) * 0.5f)
                                : opfor_pt(u->x, u->y);
    opfor_pt_t to = opfor_pt((rt[0].x + rt[2].x) * 0.5f, (rt[0].y + rt[2].y) * 0.5f);
    if (sv_terrain_blocks_fire(c, from, to))
        return 0;
    for (int i = 0; i < s->nunits; i++) {
        if (i == ui || i == ti || !sv_alive(&s->u[i]))
            continue;
        if (sv_seg_hits_rect(from, to, g->r[i], 0.01f))
            return 0;
    }
    int dice;
    if (art) { /* §To fire artillery; band edges inclusive */
        static const int table[3][4] = {{1, 0, -1, -1}, {2, 1, 0, -1}, {4, 2, 1, 0}};
        int band = d <= 10.0f ? 0 : d <= 20.0f ? 1 : d <= 40.0f ? 2 : 3;
        dice = table[u->kind - SV_FRAME][band];
        if (dice < 0)
            return 0;
    } else { /* chains of musket stands: the front rank's muskets, or all of them all round */
        dice = all_round ? muskets : (muskets < u->files ? muskets : u->files);
    }
    /* target modifiers (R-10: block +1 or defensive block +2) */
    if (t->form == SV_BLOCK)
        dice += 1;
    else if (t->form == SV_DEFBLOCK)
        dice += 2;
    if (sv_is_mounted(c, t))
        dice += 1;
    if (sv_open(t))
        dice -= 1;
    /* terrain the target stands in (docs/splendid.md 5, model.yaml `terrain:`) */
    if (c->table.nfeatures)
        dice += sv_terrain_fire_dice(c, rt);
    return dice > 0 ? dice : 0; /* no dice, no fire */
}

int sv_cv(const sv_ctx_t *c, const sv_unit_t *u, int first, const sv_unit_t *t) {
    int cv;
    switch (u->kind) {
    case SV_PM:
        cv = first ? 4 : 2;
        break;
    case SV_FOOT:
        cv = first ? 3 : 2;
        break;
    case SV_HEAVY:
        cv = 5;
        break;
    case SV_MOUNTED:
        cv = 4;
        break;
    case SV_DRAGOON:
        cv = (u->flags & SV_F_DISMOUNTED) ? 2 : 3;
        break;
    case SV_COMMANDER:
    case SV_SUB:
        cv = 3;
        break;
    default: /* gun crews fight with improvised weapons */
        cv = 2;
        break;
    }
    if (sv_open(u) || u->form == SV_COLUMN) /* modifier 1 */
        cv -= 1;
    if (sv_is_mounted(c, u)) {
        int t_loose = sv_open(t) || t->form == SV_COLUMN;
        if (!sv_is_mounted(c, t) && t_loose) /* modifier 2 */
            cv += 1;
        if (t->form == SV_BLOCK && sv_pikes(t) > 0) /* modifier 3 */
            cv -= 1;
        if (t->form == SV_DEFBLOCK) /* modifiers 4 and 5 */
            cv -= sv_pikes(t) > 0 ? 2 : 1;
    }
    if (c->opt.unit_quality)
        cv += c->model.melee_bonus[u->quality];
    if (c->table.nfeatures && sv_is_foot(u)) { /* fighting from terrain (docs/splendid.md 5) */
        opfor_pt_t r[4];
        sv_rect(c, u, r);
        cv += sv_terrain_cv(c, r);
    }
    return cv < 0 ? 0 : cv > 6 ? 6 : cv; /* */
}

float sv_move_allow(const sv_unit_t *u) {
    if (u->form == SV_DEFBLOCK)
        return 0.0f;
    switch (u->kind) {
    case SV_PM:
    case SV_FOOT:
        if (u->form == SV_COLUMN || u->form == SV_OPEN)
            return 6.0f;
        return u->kind == SV_PM ? 4.0f : 5.0f;
    case SV_DRAGOON:
        if (u->flags & SV_F_DISMOUNTED) /* as Pike and Musket */
            return (u->form == SV_COLUMN || u->form == SV_OPEN) ? 6.0f : 4.0f;
        return 18.0f;
    case SV_MOUNTED:
        return 14.0f;
    case SV_HEAVY:
        return 10.0f;
    case SV_COMMANDER:
    case SV_SUB:
        return 22.0f;
    default:
        return u->form == SV_LIMBERED ? 4.0f : 0.0f;
    }
}

float sv_charge_allow(const sv_unit_t *u) {
    if (sv_is_art(u) || sv_is_cmd(u) || u->n < 2 || u->form == SV_DEFBLOCK || u->form == SV_COLUMN)
        return 0.0f;
    switch (u->kind) {
    case SV_PM:
        return 4.0f;
    case SV_FOOT:
        return 6.0f;
    case SV_DRAGOON:
        return (u->flags & SV_F_DISMOUNTED) ? 4.0f : 14.0f;
    case SV_MOUNTED:
        return 18.0f;
    case SV_HEAVY:
        return 22.0f;
    default:
        return 0.0f;
    }
}

int sv_roll(sv_state_t *s, int n, int need) {
    int hits = 0;
    for (int i = 0; i < n; i++)
        if (opfor_rng_d6(&s->rng) <= need)
            hits++;
    return hits;
}

void sv_refit(sv_unit_t *u) {
    if (u->n == 0)
        return;
    if (sv_is_art(u) || sv_is_cmd(u)) {
        u->files = 1;
        return;
    }
    if (u->n == 1 && u->form != SV_OPEN) /* the last stand stands as a line */
        u->form = SV_LINE;
    if (u->form == SV_LINE || u->form == SV_OPEN)
        u->files = u->n;
    else if (u->form == SV_COLUMN)
        u->files = 1;
    else if (u->files > u->n)
        u->files = u->n;
    if (u->files < 1)
        u->files = 1;
}

void sv_remove(sv_state_t *s, int ui, int k) {
    sv_unit_t *u = &s->u[ui];
    if (k > u->n)
        k = u->n;
    if (k <= 0)
        return;
    for (int i = 0; i < k; i++) { /* the owner's choice, fixed: the more numerous type first */
        int second = u->n - u->a;
        if (u->a > second)
            u->a--;
        u->n--;
    }
    if (u->a > u->n)
        u->a = u->n;
    s->tally[u->side] = (uint16_t)(s->tally[u->side] + k);
    if (u->n == 0) {
        u->flags |= SV_F_GONE;
        u->markers = 0;
    } else {
        sv_refit(u);
    }
}
