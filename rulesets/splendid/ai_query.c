/* rulesets/splendid/ai_query.c — the questions the AI side asks of a Splendid position that
 * the engine does not answer itself: chances of a fire die and a charge test, expected hits of
 * an attack, a stand's worth, the nearest enemy and the nearest horse, and whether a charger
 * comes from behind. Read-only over engine_int.h (the engine's files are not changed).
 */
#include "ai_int.h"

int sv_ai_quality(const sv_ctx_t *c, const sv_unit_t *u) {
    return c->opt.unit_quality && u->quality <= 2 ? u->quality : 1;
}

double sv_ai_p_fire(const sv_ctx_t *c, const sv_unit_t *u) {
    return c->model.fire_need[sv_ai_quality(c, u)] / 6.0;
}

double sv_ai_p_charge(const sv_ctx_t *c, const sv_state_t *s, int u) {
    if (sv_in_command(c, s, u))
        return 1.0;
    return c->model.charge_need[sv_ai_quality(c, &s->u[u])] / 6.0;
}

double sv_ai_melee_hits(const sv_ctx_t *c, const sv_unit_t *u, const sv_unit_t *t, int outflank) {
    int per = outflank ? 2 : 1;
    int first = (u->kind == SV_PM || u->kind == SV_FOOT) ? u->a : u->n;
    int second = u->n - first;
    double h = first * per * sv_cv(c, u, 1, t) / 6.0;
    if (second > 0)
        h += second * per * sv_cv(c, u, 0, t) / 6.0;
    return h;
}

double sv_ai_stand_worth(const sv_unit_t *u) {
    static const double w[SV_KIND_COUNT] = {1.0, 0.9, 1.3, 1.1, 1.0, 0.7, 0.9, 1.0, 1.6, 1.2};
    return u->kind < SV_KIND_COUNT ? w[u->kind] : 1.0;
}

int sv_ai_nearest_enemy(const sv_ctx_t *c, const sv_state_t *s, const sv_unit_t *u, float *d) {
    int best = -1;
    float bd = 1e30f;
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].side != u->side && sv_alive(&s->u[i]) && sv_unit_near(c, u, &s->u[i], bd)) {
            float x = sv_unit_dist(c, u, &s->u[i]);
            if (x < bd) {
                bd = x;
                best = i;
            }
        }
    if (d)
        *d = bd;
    return best;
}

int sv_ai_nearest_horse(const sv_ctx_t *c, const sv_state_t *s, const sv_unit_t *u, float *d) {
    int best = -1;
    float bd = 1e30f;
    for (int i = 0; i < s->nunits; i++) {
        const sv_unit_t *e = &s->u[i];
        if (e->side == u->side || !sv_alive(e) || !sv_is_mounted(c, e) ||
            sv_charge_allow(e) <= 0.0f || !sv_unit_near(c, u, e, bd))
            continue;
        float x = sv_unit_dist(c, u, e);
        if (x < bd) {
            bd = x;
            best = i;
        }
    }
    if (d)
        *d = bd;
    return best;
}

int sv_ai_from_behind(const sv_unit_t *t, const sv_unit_t *ch) {
    float dx = ch->x - t->x, dy = ch->y - t->y;
    return dx * t->fx + dy * t->fy < -0.5f;
}

int sv_ai_horse_threat(const sv_ctx_t *c, const sv_state_t *s, int ui) {
    const sv_unit_t *u = &s->u[ui];
    if (!sv_is_foot(u))
        return 0;
    for (int i = 0; i < s->nunits; i++) {
        const sv_unit_t *e = &s->u[i];
        float reach = sv_charge_allow(e);
        if (e->side == u->side || !sv_alive(e) || !sv_is_mounted(c, e) || reach <= 0.0f ||
            !sv_unit_near(c, u, e, reach + 2.0f))
            continue;
        sv_unit_t as = *u; /* judged against the unit out of its defensive block */
        if (as.form == SV_DEFBLOCK)
            as.form = sv_pikes(u) > 0 ? SV_BLOCK : SV_LINE;
        if (sv_ai_melee_hits(c, e, &as, 0) >= sv_ai_melee_hits(c, &as, e, 0))
            return 1;
    }
    return 0;
}
