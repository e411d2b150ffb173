/* tests/rulesets/test_engine_list_fast.c — the legal list's shortcuts answer as the plain code.
 *
 * The legal list (engine_list.c) measures the acting unit in one pass and keeps a profile of its
 * living figures (or-ed flags, weapons and skills, counts), then skips every helper whose
 * answer the profile shows must be no. Its waypoint search sorts out once the features that can
 * stop the unit and tests a formation's centre line and flanks against those alone, and the
 * searches round one feature for several destinations share which of its corners the unit can
 * reach. Games must not change, so this compares them with the plain computations: the profile
 * with the helpers on thousands of units from random games with their figures' flags, skills
 * and weapons scrambled, the blocker search with the three-line scan it replaced over many
 * random segments on the built-in table and on random crowded tables, and the listed ways
 * round with a search that tests every corner afresh. The cover search skips walls and hedges
 * far from the unit and aimed fire counts the target's figures from the listing's compact
 * copy: both are compared with the plain scans in games on the built-in and crowded tables.
 */
#include "rulesets/vk_walk_fixture.h"

#include "engine_int.h"
#include "opfor/rng.h"
#include "opfor/viktoria/builtin.h"

static float rnd(opfor_rng_t *r, float lo, float hi) {
    return lo + (hi - lo) * (float)opfor_rng_unit(r);
}

/* ---------------------------------------------------------------- the blocker search */

/* The first feature in ctx->block_feat order that stops a move along a-b, as first written. */
static int ref_move_blocker(const opfor_vk_ctx_t *ctx, opfor_pt_t a, opfor_pt_t b, int riders) {
    float lox = a.x < b.x ? a.x : b.x, hix = a.x > b.x ? a.x : b.x;
    float loy = a.y < b.y ? a.y : b.y, hiy = a.y > b.y ? a.y : b.y;
    for (int i = 0; i < ctx->nblock_feat; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[ctx->block_feat[i]];
        if (f->move != OPFOR_MOVE_IMPASSABLE && !riders)
            continue;
        if (f->hi.x < lox || f->lo.x > hix || f->hi.y < loy || f->lo.y > hiy)
            continue;
        if (opfor_feature_seg_enters(f, a, b))
            return ctx->block_feat[i];
    }
    return -1;
}

/* The centre line, then the two flanks, each against every feature (as first written). */
static int ref_move_blocker_wide(const opfor_vk_ctx_t *ctx, opfor_pt_t a, opfor_pt_t b, float r,
                                 int riders) {
    float lox = (a.x < b.x ? a.x : b.x) - r, hix = (a.x > b.x ? a.x : b.x) + r;
    float loy = (a.y < b.y ? a.y : b.y) - r, hiy = (a.y > b.y ? a.y : b.y) + r;
    int near = 0;
    for (int i = 0; i < ctx->nblock_feat && !near; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[ctx->block_feat[i]];
        near = (riders || f->move == OPFOR_MOVE_IMPASSABLE) && f->hi.x >= lox && f->lo.x <= hix &&
               f->hi.y >= loy && f->lo.y <= hiy;
    }
    if (!near)
        return -1;
    int fi = ref_move_blocker(ctx, a, b, riders);
    if (fi >= 0 || r <= 0.0f)
        return fi;
    opfor_vec_t side = opfor_vscale(opfor_vperp(opfor_vnorm(opfor_vsub(b, a))), r);
    if (side.x == 0.0f && side.y == 0.0f)
        return -1;
    fi = ref_move_blocker(ctx, opfor_vadd(a, side), opfor_vadd(b, side), riders);
    if (fi >= 0)
        return fi;
    return ref_move_blocker(ctx, opfor_vsub(a, side), opfor_vsub(b, side), riders);
}

/* A random table of n features crowded onto w x d: buildings and impassable ground (which block
 * moves), woods and hills (which do not), rivers, walls and hedges. */
static void random_table(opfor_rng_t *r, opfor_table_t *t, float w, float d, int n) {
    opfor_table_init(t, w, d, OPFOR_EDGE_TOP);
    t->rules = opfor_viktoria_terrain_rules;
    static const opfor_terrain_kind_t AREAS[] = {OPFOR_TK_BUILDING, OPFOR_TK_IMPASSABLE,
                                                 OPFOR_TK_BUILDING, OPFOR_TK_WOODS, OPFOR_TK_HILL};
    static const opfor_terrain_kind_t LINES[] = {OPFOR_TK_RIVER, OPFOR_TK_WALL, OPFOR_TK_HEDGE};
    for (int i = 0; i < n; i++) {
        opfor_terrain_feature_t f;
        opfor_pt_t p[OPFOR_POLY_MAX_PTS];
        float cx = rnd(r, 2, w - 8), cy = rnd(r, 2, d - 8);
        if (opfor_rng_below(r, 4) != 0) {
            opfor_terrain_kind_t k = AREAS[opfor_rng_below(r, 5)];
            if (opfor_rng_below(r, 2)) { /* a rectangle */
                float fw = rnd(r, 1, 7), fh = rnd(r, 1, 7);
                p[0] = opfor_pt(cx, cy);
                p[1] = opfor_pt(cx + fw, cy);
                p[2] = opfor_pt(cx + fw, cy + fh);
                p[3] = opfor_pt(cx, cy + fh);
            } else { /* a rough quadrilateral */
                p[0] = opfor_pt(cx, cy);
                p[1] = opfor_pt(cx + rnd(r, 2, 7), cy + rnd(r, -1, 1));
                p[2] = opfor_pt(cx + rnd(r, 2, 7), cy + rnd(r, 2, 7));
                p[3] = opfor_pt(cx + rnd(r, -1, 1), cy + rnd(r, 2, 7));
            }
            assert_int_equal(opfor_terrain_feature_init(&f, &opfor_viktoria_terrain_rules, k,
                                                        OPFOR_SHAPE_AREA, "a", p, 4, 0),
                             0);
        } else {
            opfor_terrain_kind_t k = LINES[opfor_rng_below(r, 3)];
            int np = 2 + (int)opfor_rng_below(r, 3);
            p[0] = opfor_pt(cx, cy);
            for (int k2 = 1; k2 < np; k2++)
                p[k2] = opfor_pt(p[k2 - 1].x + rnd(r, -10, 10), p[k2 - 1].y + rnd(r, -10, 10));
            float fw = k == OPFOR_TK_RIVER ? rnd(r, 1, 3) : rnd(r, 0.2f, 0.6f);
            assert_int_equal(opfor_terrain_feature_init(&f, &opfor_viktoria_terrain_rules, k,
                                                        OPFOR_SHAPE_LINE, "l", p, np, fw),
                             0);
        }
        assert_true(opfor_table_add(t, &f) >= 0);
    }
}

/* A random move on ctx's table: across it, short, degenerate, or toward a feature's corner
 * pushed out by the radius and an inch (as the waypoint search tries them), or grazing a
 * feature's box. */
static void random_move(opfor_rng_t *r, const opfor_vk_ctx_t *ctx, float rad, opfor_pt_t *a,
                        opfor_pt_t *b) {
    const opfor_table_t *t = &ctx->sc.table;
    *a = opfor_pt(rnd(r, 0, t->width), rnd(r, 0, t->depth));
    uint32_t k = opfor_rng_below(r, 6);
    const opfor_terrain_feature_t *f =
        t->nfeatures ? &t->features[opfor_rng_below(r, (uint32_t)t->nfeatures)] : NULL;
    if (k == 0)
        *b = opfor_pt(a->x + rnd(r, -2, 2), a->y + rnd(r, -2, 2));
    else if (k == 1)
        *b = *a;
    else if (k == 2 && f) {
        opfor_pt_t mid = opfor_pt(0.5f * (f->lo.x + f->hi.x), 0.5f * (f->lo.y + f->hi.y));
        opfor_pt_t p = f->pts[opfor_rng_below(r, (uint32_t)f->npts)];
        *b = opfor_vadd(p, opfor_vscale(opfor_vnorm(opfor_vsub(p, mid)), rad + 1.0f));
    } else if (k == 3 && f) { /* along an edge of the box grown by the radius */
        float x = opfor_rng_below(r, 2) ? f->lo.x - rad : f->hi.x + rad;
        *a = opfor_pt(x, rnd(r, 0, t->depth));
        *b = opfor_pt(x, rnd(r, 0, t->depth));
    } else {
        *b = opfor_pt(rnd(r, 0, t->width), rnd(r, 0, t->depth));
    }
}

/* Compares the blocker search over n random moves on ctx's table; returns how many met a
 * blocker. */
static int check_moves(opfor_rng_t *r, const opfor_vk_ctx_t *ctx, int n) {
    int blocked = 0;
    for (int i = 0; i < n; i++) {
        float rad = opfor_rng_below(r, 5) == 0 ? 0.0f : rnd(r, 0.5f, 7.0f);
        int riders = (int)opfor_rng_below(r, 2);
        opfor_pt_t a, b;
        random_move(r, ctx, rad, &a, &b);
        int want = ref_move_blocker_wide(ctx, a, b, rad, riders);
        assert_int_equal(vk_move_blocker_wide(ctx, a, b, rad, riders), want);
        blocked += want >= 0;
    }
    return blocked;
}

static void list_fast_move_blocker_matches_reference(void **state) {
    (void)state;
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    opfor_diag_t d;
    opfor_viktoria_model_t m;
    opfor_vk_ctx_t *ctx = NULL;
    assert_int_equal(opfor_viktoria_builtin_load("competitive_default", sc, &d), 0);
    assert_int_equal(opfor_viktoria_model_default(&m, &d), 0);
    opfor_rng_t r;
    opfor_rng_seed(&r, 11, 3);
    int per = (int)(4000 * fx_scale()) + 200, blocked = 0;
    /* the built-in table, then random crowded ones */
    int tables = (int)(12 * fx_scale()) + 2;
    for (int k = 0; k <= tables; k++) {
        if (k > 0)
            random_table(&r, &sc->table, sc->table.width, sc->table.depth,
                         8 + (int)opfor_rng_below(&r, 40));
        assert_int_equal(opfor_vk_ctx_init(&ctx, sc, &m, NULL, &d), 0);
        assert_true(ctx->nblock_feat > 0);
        blocked += check_moves(&r, ctx, per);
        opfor_vk_ctx_free(ctx);
        ctx = NULL;
    }
    assert_true(blocked * 10 > (tables + 1) * per); /* blockers met often enough to matter */
    fx_scenario_free(sc);
}

/* ---------------------------------------------------------------- the waypoints */

/* Whether some living figure of u has any of the flags in m (the plain loop). */
static int any_living_flag(const opfor_vk_state_t *st, int u, unsigned m) {
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & m))
            return 1;
    return 0;
}

static opfor_pt_t ref_clamp(const opfor_vk_ctx_t *ctx, opfor_pt_t p) {
    float w = ctx->sc.table.width, d = ctx->sc.table.depth;
    p.x = p.x < 1.0f ? 1.0f : p.x;
    p.y = p.y < 1.0f ? 1.0f : p.y;
    p.x = p.x > w - 1.0f ? w - 1.0f : p.x;
    p.y = p.y > d - 1.0f ? d - 1.0f : p.y;
    return p;
}

/* The way round feature fi for a unit (centre c, radius r) heading for dest, as first
 * written: every corner's reach tested afresh. */
static int ref_waypoint(const opfor_vk_ctx_t *ctx, int riders, int fi, opfor_pt_t c, float r,
                        opfor_pt_t dest, opfor_pt_t *via) {
    const opfor_terrain_feature_t *f = &ctx->sc.table.features[fi];
    opfor_pt_t mid = opfor_pt(0.5f * (f->lo.x + f->hi.x), 0.5f * (f->lo.y + f->hi.y));
    float off = r + 1.0f + (f->shape == OPFOR_SHAPE_LINE ? 0.5f * f->width : 0.0f);
    opfor_pt_t cand[OPFOR_POLY_MAX_PTS];
    float len[OPFOR_POLY_MAX_PTS];
    int n = 0;
    for (int k = 0; k < f->npts; k++) {
        opfor_pt_t p = f->pts[k];
        opfor_vec_t out = opfor_vnorm(opfor_vsub(p, mid));
        if (f->shape == OPFOR_SHAPE_LINE && f->npts >= 2 && (k == 0 || k == f->npts - 1))
            out = opfor_vnorm(opfor_vsub(p, f->pts[k == 0 ? 1 : f->npts - 2]));
        else if (f->shape == OPFOR_SHAPE_LINE)
            continue;
        if (out.x == 0.0f && out.y == 0.0f)
            continue;
        opfor_pt_t v = ref_clamp(ctx, opfor_vadd(p, opfor_vscale(out, off)));
        float d = opfor_dist(c, v) + opfor_dist(v, dest);
        int j = n++;
        while (j > 0 && len[j - 1] > d) {
            len[j] = len[j - 1];
            cand[j] = cand[j - 1];
            j--;
        }
        len[j] = d;
        cand[j] = v;
    }
    int fallback = -1;
    for (int j = 0; j < n; j++) {
        if (vk_move_blocker_wide(ctx, c, cand[j], r, riders) >= 0)
            continue;
        if (vk_move_blocker_wide(ctx, cand[j], dest, r, riders) < 0) {
            *via = cand[j];
            return 1;
        }
        if (fallback < 0)
            fallback = j;
    }
    if (fallback < 0)
        return 0;
    *via = cand[fallback];
    return 1;
}

/* Checks the acting unit's listed ways round (ADVANCE with a waypoint) against the plain
 * search over its listed destinations; returns how many it listed. */
static int check_waypoints(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                           const opfor_vk_action_t *acts, int n) {
    int u = st->cur;
    if (u == OPFOR_VK_NONE || vk_craft(ctx, st, u) != VK_CRAFT_NONE)
        return 0;
    opfor_pt_t dests[32], wd[32], wv[32];
    int nd = 0, nw = 0;
    for (int i = 0; i < n; i++) {
        if (acts[i].kind != OPFOR_VK_ADVANCE || acts[i].unit != u)
            continue;
        if (acts[i].flags == 0 && nd < 32)
            dests[nd++] = acts[i].dest;
        else if (acts[i].flags == OPFOR_VK_AF_VIA && nw < 32) {
            wd[nw] = acts[i].dest;
            wv[nw++] = acts[i].via;
        }
    }
    vk_ugeo_t g;
    vk_unit_geo(st, u, &g);
    int riders = any_living_flag(st, u, OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT);
    int k = 0;
    for (int i = 0, tries = 0; i < nd && k < VK_MAX_WAYPOINTS && tries < VK_MAX_WAYPOINTS; i++) {
        int fi = vk_move_blocker_wide(ctx, g.c, dests[i], g.r, riders);
        opfor_pt_t via;
        if (fi >= 0 && ++tries && ref_waypoint(ctx, riders, fi, g.c, g.r, dests[i], &via)) {
            assert_true(k < nw);
            assert_memory_equal(&wd[k], &dests[i], sizeof via);
            assert_memory_equal(&wv[k], &via, sizeof via);
            k++;
        }
    }
    assert_int_equal(k, nw);
    return nw;
}

/* ---------------------------------------------------------------- the unit profile */

/* Figures' flags, skills and weapons scrambled: the rare properties the profile looks for
 * turn up often, alone and together. */
static void scramble(opfor_rng_t *r, opfor_vk_state_t *st) {
    static const uint16_t FLAGS[] = {OPFOR_FIG_ALIVE,   OPFOR_FIG_REAR,  OPFOR_FIG_EQUIPMENT,
                                     OPFOR_FIG_MOUNTED, OPFOR_FIG_HORSE, OPFOR_FIG_WOUNDED};
    static const uint16_t SKILLS[] = {OPFOR_S_LEADER,    OPFOR_S_GENERAL,   OPFOR_S_MEDIC,
                                      OPFOR_S_MESMERIST, OPFOR_S_SIGNALLER, OPFOR_S_CREW};
    static const uint16_t WEAPONS[] = {OPFOR_W_MG, OPFOR_W_FIELD_GUN, OPFOR_W_BOMBS, OPFOR_W_RIFLE};
    for (int i = 0; i < st->nfigures; i++) {
        opfor_figure_t *f = &st->figures[i];
        for (int k = 0; k < 6; k++)
            if (opfor_rng_below(r, 5) == 0)
                f->flags ^= FLAGS[k];
        for (int k = 0; k < 6; k++)
            if (opfor_rng_below(r, 6) == 0)
                f->skills ^= SKILLS[k];
        for (int k = 0; k < 4; k++)
            if (opfor_rng_below(r, 6) == 0)
                f->weapons ^= WEAPONS[k];
        if (opfor_rng_below(r, 8) == 0)
            st->figx[i] ^= OPFOR_VK_FX_CONTROLLED;
        if (opfor_rng_below(r, 8) == 0)
            st->figx[i] ^= OPFOR_VK_FX_PROMOTED;
    }
    for (int u = 0; u < st->nunits; u++)
        if (opfor_rng_below(r, 8) == 0)
            st->units[u].flags ^= OPFOR_UNIT_GENERAL;
}

/* Checks every unit's profile against the helpers; returns how many skips it would allow. */
static int check_profiles(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    int skips = 0;
    for (int u = 0; u < st->nunits; u++) {
        vk_uprof_t p;
        vk_unit_profile(st, u, &p);
        assert_int_equal(p.alive, opfor_vk_unit_present(st, u));
        assert_int_equal(p.wounded, vk_wounded_count(st, u));
        assert_int_equal(p.gun, vk_gun_figure(st, u));
        assert_int_equal((p.weapons & OPFOR_W_MG) != 0, vk_mg_figure(st, u) >= 0);
        assert_int_equal((p.flags & OPFOR_FIG_MOUNTED) != 0, vk_can_dismount(st, u));
        assert_int_equal((p.flags & OPFOR_FIG_MOUNTED) != 0,
                         any_living_flag(st, u, OPFOR_FIG_MOUNTED));
        assert_int_equal((p.flags & (OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT)) != 0,
                         any_living_flag(st, u, OPFOR_FIG_MOUNTED | OPFOR_FIG_EQUIPMENT));
        /* skips: the helper must say no whenever the profile says it cannot say yes */
        if (!(p.skills & OPFOR_S_SIGNALLER) && ++skips)
            assert_false(vk_can_call_support(st, u));
        if (!(p.weapons & OPFOR_W_BOMBS) && ++skips)
            assert_int_equal(vk_bombers(st, u), 0);
        if (!(p.skills & OPFOR_S_MEDIC) && ++skips)
            assert_false(vk_can_heal(st, u));
        if (!(p.skills & OPFOR_S_MESMERIST) && ++skips)
            assert_int_equal(vk_mesmerists(st, u), 0);
        if (p.leaders < 2 && ++skips)
            assert_true(vk_split_leaders(st, u) < 2);
        if (!p.horse_free && ++skips)
            assert_false(vk_can_mount(ctx, st, u));
        if (p.gun < 0 && ++skips)
            assert_false(vk_can_fire_gun(ctx, st, u));
    }
    return skips;
}

/* Scratch of the profile walk: the scrambling stream, a state buffer and the counts. */
typedef struct {
    opfor_rng_t jr;
    opfor_vk_state_t tmp;
    int skips, ways;
} profile_walk_t;

/* At every action: the waypoints offered (the legal list asked again, as the walk has it),
 * then every unit's profile on the position as played and scrambled. Returns the profiles
 * checked. */
static long visit_profiles(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, void *user) {
    profile_walk_t *w = user;
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, st, acts, OPFOR_VK_MAX_ACTIONS);
    w->ways += check_waypoints(ctx, st, acts, n);
    w->skips += check_profiles(ctx, st);
    memcpy(&w->tmp, st, sizeof w->tmp);
    scramble(&w->jr, &w->tmp);
    w->skips += check_profiles(ctx, &w->tmp);
    return 2 * st->nunits;
}

static void list_fast_profile_matches_helpers(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_builtin("competitive_default");
    opfor_vk_ctx_t *ctx = fx_ctx(sc, NULL);
    opfor_rng_t pr;
    opfor_rng_seed(&pr, 7, 1);
    profile_walk_t *w = calloc(1, sizeof *w);
    assert_non_null(w);
    opfor_rng_seed(&w->jr, 8, 1);
    int games = (int)(20 * fx_scale()) + 2;
    fx_walk_t walk = {&pr, 100, 4000, visit_profiles, NULL, w};
    long checked = fx_walk(ctx, games, &walk);
    assert_true(checked > 4000 * fx_scale());
    assert_true(w->skips > checked);
    assert_true(w->ways > 0); /* the listing's ways round checked too */
    free(w);
    opfor_vk_ctx_free(ctx);
    fx_scenario_free(sc);
}

/* ---------------------------------------------------------------- cover and aimed fire */

/* The cover spots near p as first written (every feature looked at): the nearest within 14 in
 * that the unit may enter, the nearest within 6 in for anyone. */
static void ref_cover(const opfor_vk_ctx_t *ctx, opfor_pt_t p, int mounted, int *found14,
                      opfor_pt_t *out14, int *found6, opfor_pt_t *out6) {
    float best14 = 14.0f * 14.0f, best6 = 6.0f * 6.0f;
    *found14 = *found6 = 0;
    for (int i = 0; i < ctx->sc.table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &ctx->sc.table.features[i];
        if (f->cover == OPFOR_COVER_NONE || f->move == OPFOR_MOVE_IMPASSABLE)
            continue;
        opfor_pt_t c;
        if (f->shape == OPFOR_SHAPE_AREA)
            c = opfor_pt(0.5f * (f->lo.x + f->hi.x), 0.5f * (f->lo.y + f->hi.y));
        else {
            float bestd = 1e30f;
            c = p;
            for (int k = 0; k + 1 < f->npts; k++) {
                opfor_pt_t q = opfor_seg_closest(f->pts[k], f->pts[k + 1], p);
                float d = opfor_dist2(q, p);
                if (d < bestd) {
                    bestd = d;
                    c = q;
                }
            }
            opfor_vec_t back = opfor_vnorm(opfor_vsub(p, c));
            c = opfor_vadd(c, opfor_vscale(back, 0.5f * f->width + 0.7f));
        }
        float d = opfor_dist2(c, p);
        if (d < best14 && !(mounted && (f->flags & OPFOR_TF_NO_MOUNTED))) {
            best14 = d;
            *out14 = c;
            *found14 = 1;
        }
        if (d < best6) {
            best6 = d;
            *out6 = c;
            *found6 = 1;
        }
    }
}

/* Checks the acting unit's cover moves against ref_cover: the second crawl goes to the spot
 * within 6 in exactly when there is one, and the advance toward cover (the destination before
 * the last, "back toward the own edge") to the one within 14 in. Returns 1 when checked. */
static int check_cover(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                       const opfor_vk_action_t *acts, int n) {
    int u = st->cur;
    if (u == OPFOR_VK_NONE || vk_craft(ctx, st, u) != VK_CRAFT_NONE)
        return 0;
    opfor_pt_t adv[32], crawl[4];
    int nadv = 0, ncrawl = 0, nfire = 0;
    for (int i = 0; i < n; i++) {
        if (acts[i].unit != u)
            continue;
        if (acts[i].kind == OPFOR_VK_ADVANCE && acts[i].flags == 0 && nadv < 32)
            adv[nadv++] = acts[i].dest;
        /* a crawl that fires (VI) goes toward its target, not to cover: at most two, after
           the cover crawls */
        if (acts[i].kind == OPFOR_VK_CRAWL && (acts[i].flags & OPFOR_VK_AF_FIRE)) {
            assert_int_equal(acts[i].flags, OPFOR_VK_AF_FIRE);
            assert_true(acts[i].target < st->nunits);
            nfire++;
        } else if (acts[i].kind == OPFOR_VK_CRAWL && ncrawl < 4) {
            assert_int_equal(nfire, 0);
            crawl[ncrawl++] = acts[i].dest;
        }
    }
    assert_true(nfire <= 2);
    if (nadv == 0 || ncrawl == 0 || n >= OPFOR_VK_MAX_ACTIONS)
        return 0; /* no free move this activation, or a full list */
    vk_ugeo_t g;
    vk_unit_geo(st, u, &g);
    assert_memory_equal(&crawl[0], &g.c, sizeof g.c);
    int f14, f6;
    opfor_pt_t c14, c6;
    ref_cover(ctx, g.c, any_living_flag(st, u, OPFOR_FIG_MOUNTED), &f14, &c14, &f6, &c6);
    assert_int_equal(ncrawl, 1 + f6);
    if (f6)
        assert_memory_equal(&crawl[1], &c6, sizeof c6);
    if (f14) {
        assert_true(nadv >= 2);
        assert_memory_equal(&adv[nadv - 2], &c14, sizeof c14);
    }
    return 1;
}

/* The figure of unit t fire may name (IX), plainly: of the first of these skills that some
 * but not all of t's living people hold, the first holder in index order that is no leader
 * and touches no foe; -1 when none. */
static int ref_key_figure(const opfor_vk_state_t *st, int t) {
    static const unsigned KEY[] = {OPFOR_S_MESMERIST, OPFOR_S_SIGNALLER, OPFOR_S_SHARPSHOOTER,
                                   OPFOR_S_MEDIC,     OPFOR_S_COLOURS,   OPFOR_S_MUSICIAN};
    const opfor_unit_t *tu = &st->units[t];
    for (size_t k = 0; k < sizeof KEY / sizeof KEY[0]; k++) {
        int have = 0, lack = 0, first = -1;
        for (int f = tu->first; f < tu->first + tu->count; f++) {
            const opfor_figure_t *g = &st->figures[f];
            if (!vk_alive(st, f) || !vk_is_person(g))
                continue;
            if (!(g->skills & KEY[k])) {
                lack++;
                continue;
            }
            have++;
            if (first < 0 && !(g->skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)) &&
                !(vk_in_melee(st, t) && vk_in_contact(st, f)))
                first = f;
        }
        if (have > 0 && lack > 0 && first >= 0)
            return first;
    }
    return -1;
}

/* Checks aimed fire: each of the first two targets fired on gets the aim at its wounded (at its
 * leaders) exactly when some of its living persons are wounded (leaders) and some not, and
 * fire naming a figure exactly when ref_key_figure finds one (that figure). */
static int check_aims(const opfor_vk_state_t *st, const opfor_vk_action_t *acts, int n) {
    int seen = 0;
    for (int i = 0; i < n && seen < 2; i++) {
        if (acts[i].kind != OPFOR_VK_FIRE || acts[i].flags != 0 ||
            acts[i].figure != OPFOR_VK_NO_FIGURE)
            continue;
        int t = acts[i].target, w = 0, l = 0, np = 0;
        const opfor_unit_t *tu = &st->units[t];
        for (int f = tu->first; f < tu->first + tu->count; f++)
            if (vk_alive(st, f) && vk_is_person(&st->figures[f])) {
                np++;
                w += (st->figures[f].flags & OPFOR_FIG_WOUNDED) != 0;
                l += (st->figures[f].skills & (OPFOR_S_LEADER | OPFOR_S_GENERAL)) != 0;
            }
        int aw = 0, al = 0, named = 0, fig = -1;
        for (int j = 0; j < n; j++)
            if (acts[j].kind == OPFOR_VK_FIRE && acts[j].target == t) {
                aw += acts[j].flags == OPFOR_VK_AF_AIM_WOUNDED;
                al += acts[j].flags == OPFOR_VK_AF_AIM_GENERAL;
                if (acts[j].figure != OPFOR_VK_NO_FIGURE) {
                    assert_int_equal(acts[j].flags, 0);
                    named++;
                    fig = acts[j].figure;
                }
            }
        if (n < OPFOR_VK_MAX_ACTIONS) {
            assert_int_equal(aw, w > 0 && w < np);
            assert_int_equal(al, l > 0 && l < np);
            int key = ref_key_figure(st, t);
            assert_int_equal(named, key >= 0);
            if (key >= 0)
                assert_int_equal(fig, key);
        }
        seen++;
    }
    return seen;
}

/* The counts of the cover walk. */
typedef struct {
    int covers, aims, spots6;
} cover_walk_t;

/* At every action: the cover spots offered (and how often the 6 in spot comes too) and the
 * aimed fire, on the legal list asked again as the walk has it. Returns 0: the counts are
 * kept in user. */
static long visit_cover(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, void *user) {
    cover_walk_t *w = user;
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    int n = opfor_vk_legal(ctx, st, acts, OPFOR_VK_MAX_ACTIONS);
    int c = check_cover(ctx, st, acts, n);
    w->covers += c;
    for (int i = 0; i < n && c; i++)
        w->spots6 += acts[i].kind == OPFOR_VK_CRAWL && i > 0 && acts[i - 1].kind == OPFOR_VK_CRAWL;
    w->aims += check_aims(st, acts, n);
    return 0;
}

static void list_fast_cover_and_aims_match_reference(void **state) {
    (void)state;
    opfor_scenario_t *sc = fx_builtin("competitive_default");
    opfor_diag_t d;
    opfor_viktoria_model_t m;
    assert_int_equal(opfor_viktoria_model_default(&m, &d), 0);
    opfor_rng_t pr, tr;
    opfor_rng_seed(&pr, 17, 1);
    opfor_rng_seed(&tr, 18, 1);
    int tables = (int)(6 * fx_scale()) + 2, games = (int)(6 * fx_scale()) + 1;
    cover_walk_t w = {0, 0, 0};
    /* the built-in table, then crowded random ones (many walls, hedges and rivers) */
    for (int k = 0; k <= tables; k++) {
        if (k > 0)
            random_table(&tr, &sc->table, sc->table.width, sc->table.depth,
                         8 + (int)opfor_rng_below(&tr, 30));
        opfor_vk_ctx_t *ctx = NULL;
        assert_int_equal(opfor_vk_ctx_init(&ctx, sc, &m, NULL, &d), 0);
        fx_walk_t walk = {&pr, (uint64_t)(k * 100), 3000, visit_cover, NULL, &w};
        fx_walk(ctx, games, &walk);
        opfor_vk_ctx_free(ctx);
    }
    assert_true(w.covers > 200 * fx_scale());
    assert_true(w.spots6 > 0);
    assert_true(w.aims > 0);
    fx_scenario_free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(list_fast_move_blocker_matches_reference),
        cmocka_unit_test(list_fast_profile_matches_helpers),
        cmocka_unit_test(list_fast_cover_and_aims_match_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
