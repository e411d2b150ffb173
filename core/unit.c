/* core/unit.c — helpers over units and figures: base sizes, counts, best quality, centre,
 * leader, and drawing a unit up in formation.
 *
 * All of them read the caller's arrays and never allocate, so the rules engine can use
 * them inside its search. Placement is plain arithmetic on the facing vector (no angles).
 */
#include "opfor/unit.h"

const opfor_name_t opfor_formation_names[] = {
    {"line", OPFOR_FORMATION_LINE},         {"column", OPFOR_FORMATION_COLUMN},
    {"skirmish", OPFOR_FORMATION_SKIRMISH}, {"skirmishers", OPFOR_FORMATION_SKIRMISH},
    {"open", OPFOR_FORMATION_SKIRMISH},     {NULL, 0},
};

float opfor_figure_radius(const opfor_base_radii_t *r, const opfor_figure_t *f) {
    if (f->flags & OPFOR_FIG_EQUIPMENT)
        return r->equipment;
    if (f->flags & OPFOR_FIG_MOUNTED)
        return r->mounted;
    return r->foot;
}

opfor_circle_t opfor_figure_circle(const opfor_base_radii_t *r, const opfor_figure_t *f) {
    opfor_circle_t c = {f->pos, opfor_figure_radius(r, f)};
    return c;
}

int opfor_unit_alive(const opfor_unit_t *u, const opfor_figure_t *figs) {
    int n = 0;
    for (int i = u->first; i < u->first + u->count; i++)
        n += opfor_figure_alive(&figs[i]);
    return n;
}

int opfor_unit_wounded(const opfor_unit_t *u, const opfor_figure_t *figs) {
    int n = 0;
    for (int i = u->first; i < u->first + u->count; i++)
        n += opfor_figure_alive(&figs[i]) && (figs[i].flags & OPFOR_FIG_WOUNDED);
    return n;
}

int opfor_unit_best_quality(const opfor_unit_t *u, const opfor_figure_t *figs) {
    int best = -1;
    for (int i = u->first; i < u->first + u->count; i++)
        if (opfor_figure_alive(&figs[i]) && figs[i].quality > best)
            best = figs[i].quality;
    return best;
}

int opfor_unit_centre(const opfor_unit_t *u, const opfor_figure_t *figs, opfor_pt_t *out) {
    float sx = 0.0f, sy = 0.0f;
    int n = 0;
    for (int i = u->first; i < u->first + u->count; i++) {
        if (!opfor_figure_alive(&figs[i]))
            continue;
        sx += figs[i].pos.x;
        sy += figs[i].pos.y;
        n++;
    }
    if (n > 0 && out)
        *out = opfor_pt(sx / (float)n, sy / (float)n);
    return n;
}

int opfor_unit_leader(const opfor_unit_t *u, const opfor_figure_t *figs) {
    int best = -1, best_score = -1;
    for (int i = u->first; i < u->first + u->count; i++) {
        const opfor_figure_t *f = &figs[i];
        if (!opfor_figure_alive(f) || !(f->skills & OPFOR_S_LEADER))
            continue;
        int score = f->quality * 2 + !(f->flags & OPFOR_FIG_WOUNDED);
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return best;
}

int opfor_unit_has_skill(const opfor_unit_t *u, const opfor_figure_t *figs, unsigned mask) {
    for (int i = u->first; i < u->first + u->count; i++)
        if (opfor_figure_alive(&figs[i]) && (figs[i].skills & mask) == mask)
            return 1;
    return 0;
}

/* Offset (across, along) of the i-th of n figures in formation, spacing s. */
static void slot(opfor_formation_t formation, int i, int n, float s, float *across, float *along) {
    if (formation == OPFOR_FORMATION_COLUMN && n > 1) {
        int rows = (n + 1) / 2, row = i / 2, col = i % 2;
        int in_row = (row == rows - 1 && (n & 1)) ? 1 : 2;
        *across = ((float)col - 0.5f * (float)(in_row - 1)) * s;
        *along = (0.5f * (float)(rows - 1) - (float)row) * s;
        return;
    }
    if (formation == OPFOR_FORMATION_SKIRMISH)
        s += 1.5f;
    *across = ((float)i - 0.5f * (float)(n - 1)) * s;
    *along = 0.0f;
}

void opfor_unit_place(const opfor_base_radii_t *radii, opfor_figure_t *figs, int n,
                      opfor_pt_t centre, opfor_vec_t facing, opfor_formation_t formation) {
    opfor_vec_t f = opfor_vnorm(facing);
    if (f.x == 0.0f && f.y == 0.0f)
        f = opfor_pt(0.0f, 1.0f);
    opfor_vec_t right = opfor_pt(f.y, -f.x);
    float req = 0.0f, rmax = 0.0f;
    int ne = 0, no = 0;
    for (int i = 0; i < n; i++) {
        float r = opfor_figure_radius(radii, &figs[i]);
        if (figs[i].flags & OPFOR_FIG_EQUIPMENT) {
            ne++;
            req = r > req ? r : req;
        } else {
            no++;
            rmax = r > rmax ? r : rmax;
        }
    }
    float se = 2.0f * req + 0.5f, s = 2.0f * rmax + 0.5f;
    /* The rest stand behind the equipment: their front rank 0.5 inch behind its bases. */
    float front = 0.0f, shift = 0.0f;
    if (ne > 0 && no > 0) {
        float a, b;
        slot(formation, 0, no, s, &a, &b);
        front = b;
        shift = -(front + req + rmax + 0.5f);
    }
    int ke = 0, ko = 0;
    for (int i = 0; i < n; i++) {
        float a, b;
        if (figs[i].flags & OPFOR_FIG_EQUIPMENT) {
            a = ((float)ke - 0.5f * (float)(ne - 1)) * se;
            b = 0.0f;
            ke++;
        } else {
            slot(formation, ko, no, s, &a, &b);
            b += shift;
            ko++;
        }
        figs[i].pos = opfor_vadd(centre, opfor_vadd(opfor_vscale(right, a), opfor_vscale(f, b)));
    }
}
