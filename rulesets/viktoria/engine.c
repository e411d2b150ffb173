/* rulesets/viktoria/engine.c — the Viktoria! rules engine: context, state, the turn's phases,
 * the check and dispatch of apply (the legal lists are engine_list.c's, the words
 * engine_text.c's).
 *
 * The sequence of play (V.A) is a small state machine over opfor_vk_state_t.phase; the only
 * place that decides who activates next is vk_next_side (the mode hook). Legal lists are
 * generated from the situation in a fixed order and never allocate (each unit a listing needs
 * is measured once, its living figures copied to compact arrays, and passed down); apply checks
 * the action against the phase and the unit, then hands it to the rules files (engine_move.c,
 * _fire.c, _morale.c, _melee.c, _blast.c, _special.c). See engine_int.h for the design.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_list_int.h"
#include "opfor/yamlread.h"
#include "engine_machine_int.h"
#include "opfor/hash.h"

/* ---------------------------------------------------------------- events */

void vk_ev(opfor_vk_events_t *ev, const char *fmt, ...) {
    if (!ev || !ev->buf || ev->size == 0)
        return;
    if (ev->len >= ev->size - 1) {
        ev->truncated = 1;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(ev->buf + ev->len, ev->size - ev->len, fmt, ap);
    va_end(ap);
    if (w < 0)
        return;
    if ((size_t)w >= ev->size - ev->len - 1) {
        ev->len = ev->size - 1;
        ev->buf[ev->len] = 0;
        ev->truncated = 1;
        return;
    }
    ev->len += (size_t)w;
    ev->buf[ev->len++] = '\n';
    ev->buf[ev->len] = 0;
}

/* ---------------------------------------------------------------- units in play */

int opfor_vk_unit_in_play(const opfor_vk_state_t *st, int u) {
    return vk_unit_active(st, u);
}

int opfor_vk_unit_present(const opfor_vk_state_t *st, int u) {
    const opfor_unit_t *un = &st->units[u];
    int n = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        n += vk_alive(st, i);
    return n;
}

int opfor_vk_side_ready(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int side) {
    (void)ctx;
    for (int u = 0; u < st->nunits; u++)
        if (st->units[u].side == side && vk_unit_ready(st, u))
            return 1;
    return 0;
}

/* opfor_vk_side_ready for both sides in one pass, stopping once both are known. */
static void sides_ready(const opfor_vk_state_t *st, int r[2]) {
    r[0] = r[1] = 0;
    for (int u = 0; u < st->nunits && !(r[0] && r[1]); u++) {
        int s = st->units[u].side;
        if (s < 2 && !r[s] && vk_unit_ready(st, u))
            r[s] = 1;
    }
}

/* ---------------------------------------------------------------- harm */

void vk_harm(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int f, int effect, int melee,
             int by_side, opfor_vk_events_t *ev) {
    (void)ctx;
    opfor_figure_t *fg = &st->figures[f];
    int u = fg->unit;
    if (effect <= 0 || !(fg->flags & OPFOR_FIG_ALIVE))
        return;
    if (effect == 1 && !(fg->flags & OPFOR_FIG_WOUNDED)) {
        fg->flags |= OPFOR_FIG_WOUNDED;
        fg->flags &= (uint16_t)~OPFOR_FIG_BOUND;
        /* Walkers: wounds do nothing singly (a second counts as a kill), but a walker
           checks morale even when only wounded (XII.E). */
        if (st->units[u].type == OPFOR_UT_WALKER && (fg->flags & OPFOR_FIG_EQUIPMENT))
            st->ux[u].casualties++;
        return;
    }
    if (st->units[u].type == OPFOR_UT_WALKER && (fg->flags & OPFOR_FIG_EQUIPMENT)) {
        /* A kill makes the walker hesitate for a turn instead (XII.E): its next activation is
           spent recovering, this turn's when it has not acted yet, else the next turn's. */
        int later = (st->units[u].flags & OPFOR_UNIT_ACTED) || st->cur == u;
        fg->flags &= (uint16_t)~OPFOR_FIG_WOUNDED;
        st->ux[u].hesitate = (uint8_t)(st->turn + later);
        st->ux[u].casualties++;
        VK_EV(ev, "  %s is staggered and must recover %s", st->units[u].name,
              later ? "next turn" : "this turn");
        return;
    }
    fg->flags &= (uint16_t) ~(OPFOR_FIG_ALIVE | OPFOR_FIG_MESMERIZED);
    st->figx[f] &= (uint8_t)~OPFOR_VK_FX_CONTROLLED;
    st->ux[u].casualties++;
    /* Colours (XI): picked up by a nearby friend after fire, captured in melee. */
    if (fg->skills & OPFOR_S_COLOURS) {
        fg->skills &= (uint16_t)~OPFOR_S_COLOURS;
        if (melee) {
            if (by_side >= 0 && by_side < 2)
                st->colours_taken[by_side]++;
            VK_EV(ev, "  the colours of %s are captured!", st->units[u].name);
        } else {
            int best = -1;
            float bd = 1e30f;
            for (int i = 0; i < st->nfigures; i++) {
                if (!vk_alive(st, i) || st->units[st->figures[i].unit].side != st->units[u].side ||
                    !vk_is_person(&st->figures[i]) || st->ux[st->figures[i].unit].removed)
                    continue;
                float d = opfor_dist2(st->figures[i].pos, fg->pos);
                /* own unit first */
                if (st->figures[i].unit == u)
                    d *= 0.25f;
                if (d < bd) {
                    bd = d;
                    best = i;
                }
            }
            if (best >= 0 && bd <= 36.0f) {
                st->figures[best].skills |= OPFOR_S_COLOURS;
                VK_EV(ev, "  the colours of %s are picked up", st->units[u].name);
            }
        }
    }
}

/* ---------------------------------------------------------------- context */

int opfor_vk_ctx_init(opfor_vk_ctx_t **out, const opfor_scenario_t *sc,
                      const opfor_viktoria_model_t *m, const opfor_vk_options_t *options,
                      opfor_diag_t *diag) {
    if (!out || !sc || !m)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "no context, scenario or model");
    *out = NULL;
    if (sc->nunits <= 0 || sc->nunits > OPFOR_MAX_UNITS || sc->nfigures <= 0 ||
        sc->nfigures > OPFOR_MAX_FIGURES)
        return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "scenario has %d units and %d figures",
                              sc->nunits, sc->nfigures);
    for (int u = 0; u < sc->nunits; u++) {
        const opfor_unit_t *un = &sc->units[u];
        if (un->side > 1 || un->first + un->count > sc->nfigures || un->count == 0)
            return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0, "unit %d (%s) has bad figures or side",
                                  u, un->name);
        for (int i = un->first; i < un->first + un->count; i++)
            if (sc->figures[i].unit != u || sc->figures[i].quality >= OPFOR_Q_COUNT)
                return opfor_diag_set(diag, OPFOR_EINVAL, 0, 0,
                                      "figure %d does not belong to unit %d (%s)", i, u, un->name);
    }
    int team[2]; /* the support team (IX), from the scenario's support block */
    int trc = opfor_viktoria_support_team(sc, team, diag);
    if (trc)
        return trc;
    opfor_vk_ctx_t *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return opfor_diag_set(diag, OPFOR_ENOMEM, 0, 0, "no memory for the context");
    memcpy(&ctx->sc, sc, sizeof *sc);
    ctx->support_team[0] = (uint8_t)team[0];
    ctx->support_team[1] = (uint8_t)team[1];
    memset(ctx->sc.blocks, 0, sizeof ctx->sc.blocks);
    ctx->sc.doc = NULL;
    memcpy(&ctx->model, m, sizeof *m);
    if (options)
        ctx->opt = *options;
    if (sc->rules == &opfor_viktoria_scenario_rules) {
        /* a scenario read as Viktoria!'s: the optional rules its `rules:` block names (checked
           when it loaded; read here so that every road into the engine plays them) */
        opfor_yaml_rd_t rd = {diag, 0, 1};
        if (opfor_vk_scenario_options(&rd, sc, &ctx->opt)) {
            free(ctx);
            return rd.err;
        }
    }
    ctx->turn_limit = ctx->opt.turn_limit > 0 ? ctx->opt.turn_limit
                      : sc->turn_limit > 0    ? sc->turn_limit
                                              : 12;
    for (int s = 0; s < 2; s++) {
        /* Home direction: toward the side's edge, else away from the enemy's. */
        int e = sc->sides[s].edge;
        if (e < 0 || e >= OPFOR_EDGE_COUNT) {
            int oe = sc->sides[1 - s].edge;
            if (oe >= 0 && oe < OPFOR_EDGE_COUNT)
                ctx->home[s] = opfor_edge_inward((opfor_edge_t)oe);
            else
                ctx->home[s] = opfor_pt(0.0f, s == 0 ? -1.0f : 1.0f);
        } else {
            ctx->home[s] = opfor_vscale(opfor_edge_inward((opfor_edge_t)e), -1.0f);
        }
    }
    for (int i = 0; i < sc->table.nfeatures; i++) {
        const opfor_terrain_feature_t *f = &sc->table.features[i];
        if (f->move != OPFOR_MOVE_OPEN)
            ctx->move_feat[ctx->nmove_feat++] = (uint8_t)i;
        if (f->move == OPFOR_MOVE_IMPASSABLE || (f->flags & OPFOR_TF_NO_MOUNTED))
            ctx->block_feat[ctx->nblock_feat++] = (uint8_t)i;
    }
    /* Without the XII options the machine code can only matter through a scenario unit's
       machine keys (passengers aboard, payload): otherwise every hook is a no-op. */
    static const opfor_unit_machine_t no_machine;
    ctx->machines = ctx->opt.specials != 0;
    for (int u = 0; u < sc->nunits && !ctx->machines; u++)
        ctx->machines = memcmp(&sc->machine[u], &no_machine, sizeof no_machine) != 0;
    opfor_tgrid_build(&ctx->grid, &ctx->sc.table);
    /* With few features the bounding-box loops of core/terrain.c beat walking the grid's
       cells; measured (docs/BENCHMARKS.md): the short move and cover tests pay from about a
       dozen features, long sight lines only on very busy tables. */
    ctx->grid_move = sc->table.nfeatures >= VK_GRID_MOVE_MIN;
    ctx->grid_los = sc->table.nfeatures >= VK_GRID_LOS_MIN;
    int rc = vk_tabs_build(ctx, diag);
    if (rc) {
        free(ctx);
        return rc;
    }
    *out = ctx;
    return 0;
}

void opfor_vk_ctx_free(opfor_vk_ctx_t *ctx) {
    if (!ctx)
        return;
    free(ctx->tab);
    free(ctx);
}

const opfor_scenario_t *opfor_vk_ctx_scenario(const opfor_vk_ctx_t *ctx) {
    return &ctx->sc;
}

const opfor_vk_options_t *opfor_vk_ctx_options(const opfor_vk_ctx_t *ctx) {
    return &ctx->opt;
}

int opfor_vk_ctx_turn_limit(const opfor_vk_ctx_t *ctx) {
    return ctx->turn_limit;
}

/* ---------------------------------------------------------------- state */

void opfor_vk_weather_start(const opfor_scenario_t *sc, opfor_rng_t *rng, int *level, int *wind) {
    int lv = sc->weather.level;
    if (lv == 0) /* XIII: a die less two, never below 1 */
        lv = (int)opfor_rng_below(rng, 6) + 1 - 2;
    *level = lv < 1 ? 1 : lv > 5 ? 5 : lv;
    *wind = sc->weather.wind_random ? (int)opfor_rng_below(rng, 8) : (int)(sc->weather.wind & 7);
}

void opfor_vk_state_init(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, uint64_t seed) {
    memset(st, 0, sizeof *st);
    opfor_rng_seed(&st->rng, seed, 0x566b5f656e67696eULL); /* "Vk_engin" stream */
    st->phase = OPFOR_VK_PH_START_TURN;
    st->cur = OPFOR_VK_NONE;
    st->winner = -2;
    st->nunits = (uint8_t)ctx->sc.nunits;
    st->nfigures = (uint16_t)ctx->sc.nfigures;
    int lv, wind;
    opfor_vk_weather_start(&ctx->sc, &st->rng, &lv, &wind);
    st->level = (uint8_t)lv;
    st->wind = (uint8_t)wind;
    /* Copy units and figures field by field into the zeroed arrays (no padding bytes from the
       scenario reach the state, so hashes depend on values only). */
    for (int u = 0; u < ctx->sc.nunits; u++) {
        const opfor_unit_t *s = &ctx->sc.units[u];
        opfor_unit_t *d = &st->units[u];
        memcpy(d->name, s->name, sizeof d->name);
        d->name[OPFOR_UNIT_NAME_MAX - 1] = 0;
        d->facing = s->facing;
        d->first = s->first;
        d->count = s->count;
        d->strength = s->strength ? s->strength : s->count;
        d->flags = (uint16_t)(s->flags & ~OPFOR_UNIT_ACTED);
        d->side = s->side;
        d->type = s->type;
        d->status = s->status;
        d->quality = s->quality;
        d->formation = s->formation;
        /* Guns start loaded; MGs ready (IX). */
        d->flags |= OPFOR_UNIT_LOADED;
    }
    for (int i = 0; i < ctx->sc.nfigures; i++) {
        const opfor_figure_t *s = &ctx->sc.figures[i];
        opfor_figure_t *d = &st->figures[i];
        d->pos = s->pos;
        d->unit = s->unit;
        d->quality = s->quality;
        d->weapons = s->weapons;
        d->skills = s->skills;
        d->flags = (uint16_t)(s->flags & ~(OPFOR_FIG_ACTED | OPFOR_FIG_MOVED | OPFOR_FIG_RUNNING));
    }
    for (int s = 0; s < 2; s++)
        st->reg[s].point = opfor_pt(-1.0f, -1.0f);
    vk_machines_init(ctx, st); /* XII.C-D: passengers aboard, aeroplanes aloft */
}

/* ---------------------------------------------------------------- ending */

/* Units of each side still in the fight (generals apart), in one pass; with any_only, stops
 * once both sides have one (only whether each count is zero is then right). */
static void side_units(const opfor_vk_state_t *st, int n[2], int any_only) {
    n[0] = n[1] = 0;
    for (int u = 0; u < st->nunits && !(any_only && n[0] && n[1]); u++)
        if (!(st->units[u].flags & OPFOR_UNIT_GENERAL) &&
            !(any_only && n[st->units[u].side & 1]) && /* that side is known to have one */
            (vk_unit_active(st, u) || vk_air_away(st, u)))
            n[st->units[u].side & 1]++;
}

/* Score (XIV, XV.B guidance): objectives held, enemy units destroyed, colours taken. */
static void scores(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, int out[2]) {
    out[0] = out[1] = 0;
    for (int o = 0; o < ctx->sc.nobjectives; o++) {
        const opfor_objective_t *ob = &ctx->sc.objectives[o];
        int held[2] = {0, 0};
        float r2 = ob->radius * ob->radius;
        for (int i = 0; i < st->nfigures; i++) {
            if (!vk_alive(st, i) || !vk_is_person(&st->figures[i]) ||
                !vk_unit_active(st, st->figures[i].unit))
                continue;
            if (opfor_dist2(st->figures[i].pos, ob->pos) <= r2)
                held[st->units[st->figures[i].unit].side] = 1;
        }
        if (held[0] && !held[1])
            out[0] += ob->points;
        else if (held[1] && !held[0])
            out[1] += ob->points;
    }
    for (int u = 0; u < st->nunits; u++) {
        if (st->units[u].flags & OPFOR_UNIT_GENERAL)
            continue;
        int merged_away = st->units[u].count == 0;
        if (!vk_unit_active(st, u) && !merged_away && !vk_air_away(st, u))
            out[1 - st->units[u].side] += 1;
    }
    out[0] += st->colours_taken[0];
    out[1] += st->colours_taken[1];
}

/* Ends the game when a side has no units left or the turn limit has passed. Returns 1 when
 * over. */
static int check_end(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int turn_over,
                     opfor_vk_events_t *ev) {
    int n[2]; /* only whether each is zero matters */
    side_units(st, n, 1);
    int n0 = n[0], n1 = n[1];
    int over = 0, winner = -2;
    /* A side that may still gain units (a mode's reinforcements) has not lost yet. */
    if (ctx->opt.reinforce) {
        if (n0 == 0 && ctx->opt.reinforce(ctx, st, 0, ctx->opt.initiative_user))
            n0 = -1;
        if (n1 == 0 && ctx->opt.reinforce(ctx, st, 1, ctx->opt.initiative_user))
            n1 = -1;
    }
    if (n0 == 0 || n1 == 0) {
        over = 1;
        winner = n0 == 0 && n1 == 0 ? -1 : n0 == 0 ? 1 : 0;
    } else if (turn_over && st->turn >= ctx->turn_limit) {
        over = 1;
    }
    if (!over)
        return 0;
    int sc[2];
    scores(ctx, st, sc);
    st->score[0] = (int16_t)sc[0];
    st->score[1] = (int16_t)sc[1];
    if (winner == -2) {
        if (sc[0] != sc[1])
            winner = sc[0] > sc[1] ? 0 : 1;
        else {
            int k0 = 0, k1 = 0;
            for (int i = 0; i < st->nfigures; i++)
                if (!(st->figures[i].flags & OPFOR_FIG_ALIVE)) {
                    if (st->units[st->figures[i].unit].side == 0)
                        k1++;
                    else
                        k0++;
                }
            winner = k0 > k1 ? 0 : k1 > k0 ? 1 : -1;
        }
    }
    st->winner = (int8_t)winner;
    st->phase = OPFOR_VK_PH_OVER;
    st->cur = OPFOR_VK_NONE;
    VK_EV(ev, "Game over after turn %d: %s (score %d-%d)", st->turn,
          winner == -1  ? "a draw"
          : winner == 0 ? ctx->sc.sides[0].name
                        : ctx->sc.sides[1].name,
          sc[0], sc[1]);
    return 1;
}

int opfor_vk_is_terminal(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    (void)ctx;
    return st->phase == OPFOR_VK_PH_OVER;
}

void opfor_vk_result(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st, opfor_vk_result_t *r) {
    memset(r, 0, sizeof *r);
    r->over = st->phase == OPFOR_VK_PH_OVER;
    r->winner = r->over ? st->winner : -2;
    if (r->over) {
        r->score[0] = st->score[0];
        r->score[1] = st->score[1];
    } else {
        scores(ctx, st, r->score);
    }
    for (int i = 0; i < st->nfigures; i++) {
        int s = st->units[st->figures[i].unit].side;
        if (!(st->figures[i].flags & OPFOR_FIG_ALIVE))
            r->killed[s]++;
        else if (vk_alive(st, i) && vk_unit_active(st, st->figures[i].unit))
            r->alive[s]++;
    }
    side_units(st, r->units, 0);
    r->turn = st->turn;
}

/* ---------------------------------------------------------------- sequencing */

/* The mode hook (V.A, XV): who selects the next unit. -1 ends the turn. */
static int vk_next_side(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    int r[2];
    sides_ready(st, r);
    int r0 = r[0], r1 = r[1];
    if (!r0 && !r1)
        return -1;
    if (ctx->opt.initiative) {
        int s = ctx->opt.initiative(ctx, st, ctx->opt.initiative_user);
        /* The hook may have brought units on (Patrol Mode's spottings act at once, XV.B): ask
           again who can act. A mode may only hand the initiative to a side that can use it. */
        r0 = opfor_vk_side_ready(ctx, st, 0);
        r1 = opfor_vk_side_ready(ctx, st, 1);
        if (s == 0 && !r0)
            s = r1 ? 1 : -1;
        else if (s == 1 && !r1)
            s = r0 ? 0 : -1;
        return s;
    }
    if (ctx->opt.seq == OPFOR_VK_SEQ_SIDE_BY_SIDE ||
        ctx->opt.seq == OPFOR_VK_SEQ_SIDE_BY_SIDE_FIXED) {
        int first = st->seq_side;
        return (first == 0 ? r0 : r1) ? first : 1 - first;
    }
    if (!r0 || !r1)
        return r0 ? 0 : 1; /* only one side has units left to move: no roll needed */
    for (;;) {
        int a = vk_d6(st), b = vk_d6(st);
        st->init_die[0] = (uint8_t)a;
        st->init_die[1] = (uint8_t)b;
        if (a != b) {
            VK_EV(ev, "Initiative: %s %d, %s %d", ctx->sc.sides[0].name, a, ctx->sc.sides[1].name,
                  b);
            return a > b ? 0 : 1;
        }
    }
}

static void start_turn(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    st->turn++;
    VK_EV(ev, "Turn %d", st->turn);
    for (int u = 0; u < st->nunits; u++) {
        st->units[u].flags &= (uint16_t)~OPFOR_UNIT_ACTED;
        st->ux[u].flags &= (uint8_t) ~(OPFOR_VK_UX_FOUGHT | OPFOR_VK_UX_FLED);
    }
    for (int i = 0; i < st->nfigures; i++) {
        st->figures[i].flags &= (uint16_t)~OPFOR_FIG_ACTED;
        st->figx[i] &= (uint8_t) ~(OPFOR_VK_FX_PLAYING | OPFOR_VK_FX_RELAY | OPFOR_VK_FX_ATTACKED);
    }
    if (ctx->opt.weather_events)
        vk_weather_event(ctx, st, ev);
    if (ctx->opt.specials)
        vk_specials_turn(ctx, st, ev);
    /* side by side (V.A): a roll every turn, or one for the whole game (fixed) */
    if ((ctx->opt.seq == OPFOR_VK_SEQ_SIDE_BY_SIDE ||
         (ctx->opt.seq == OPFOR_VK_SEQ_SIDE_BY_SIDE_FIXED && st->turn == 1)) &&
        !ctx->opt.initiative) {
        int a, b;
        do {
            a = vk_d6(st);
            b = vk_d6(st);
        } while (a == b);
        st->seq_side = (uint8_t)(a > b ? 0 : 1);
        VK_EV(ev, "Initiative for the turn: %s", ctx->sc.sides[st->seq_side].name);
    }
    st->phase = OPFOR_VK_PH_INITIATIVE;
}

/* Ends the current activation: morale, promotions, melee links, game end, next phase. */
static void end_activation(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    if (ctx->machines)
        vk_machines_settle(ctx, st, ev); /* XII.C-D: passengers ride along, aeroplanes fly */
    vk_morale_after(ctx, st, ev);
    for (int u = 0; u < st->nunits; u++) {
        st->ux[u].flags &= (uint8_t)~OPFOR_VK_UX_CHARGED;
        /* vk_unit_active apart from its living-person scan: vk_promote looks for a living
           leader first and promotes only a living person, so it does nothing without one */
        if (st->ux[u].removed || (st->units[u].flags & OPFOR_UNIT_OFF_TABLE))
            continue;
        /* vk_promote returns at once when a living leader is left; the first figure usually
           is one */
        int f0 = st->units[u].first;
        if (st->units[u].count && (st->figures[f0].skills & OPFOR_S_LEADER) && vk_alive(st, f0) &&
            vk_is_person(&st->figures[f0]))
            continue;
        vk_promote(st, u, ev);
    }
    vk_melee_refresh(st);
    st->cur = OPFOR_VK_NONE;
    st->restricted = 0;
    st->charge.active = 0;
    if (check_end(ctx, st, 0, ev))
        return;
    st->phase = OPFOR_VK_PH_INITIATIVE;
}

/* After an action: go on to control of mesmerised figures, or end the activation. */
static void after_action(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    int u = st->cur;
    if (u != OPFOR_VK_NONE && vk_unit_active(st, u)) {
        const opfor_unit_t *un = &st->units[u];
        for (int i = un->first; i < un->first + un->count; i++)
            if (vk_alive(st, i) && (st->figx[i] & OPFOR_VK_FX_CONTROLLED)) {
                vk_morale_after(ctx, st, ev);
                if (!vk_unit_active(st, u))
                    break;
                st->phase = OPFOR_VK_PH_CONTROL;
                st->side = (uint8_t)(1 - un->side);
                st->charge.control = (uint8_t)(i - un->first);
                return;
            }
    }
    end_activation(ctx, st, ev);
}

int opfor_vk_current(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st) {
    (void)ctx;
    switch (st->phase) {
    case OPFOR_VK_PH_START_TURN:
    case OPFOR_VK_PH_INITIATIVE:
    case OPFOR_VK_PH_COMMAND:
        return OPFOR_VK_CHANCE;
    case OPFOR_VK_PH_SELECT_UNIT:
    case OPFOR_VK_PH_ACTION:
    case OPFOR_VK_PH_REACTION:
    case OPFOR_VK_PH_CONTROL:
        return st->side;
    default:
        return OPFOR_VK_TERMINAL;
    }
}

/* ---------------------------------------------------------------- apply */

/* A move with a remount or dismount as part of it (VIII): an advance or run (a crawl
 * dismounts anyway), one of the two at a point OPFOR_VK_AT_START or _AT_END; riders to
 * dismount, or horses to mount (where the unit stands, when before the move; where it stops
 * the riders mount if there is room, else stay on foot). */
static int mount_move_ok(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                         const opfor_vk_action_t *a) {
    unsigned fl = a->flags & (OPFOR_VK_AF_MOUNT | OPFOR_VK_AF_DISMOUNT);
    int u = a->unit;
    if (a->kind == OPFOR_VK_CRAWL || fl == (OPFOR_VK_AF_MOUNT | OPFOR_VK_AF_DISMOUNT) ||
        a->arc > OPFOR_VK_AT_END)
        return 0;
    if (fl == OPFOR_VK_AF_DISMOUNT)
        return vk_can_dismount(st, u);
    if (a->arc == OPFOR_VK_AT_START)
        return vk_can_mount(ctx, st, u);
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figures[i].flags & OPFOR_FIG_HORSE) &&
            !(st->figures[i].flags & OPFOR_FIG_MOUNTED))
            return 1;
    return 0;
}

static int check_action(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                        const opfor_vk_action_t *a) {
    int u = st->cur;
    if (a->kind >= OPFOR_VK_KIND_COUNT)
        return 0;
    switch (st->phase) {
    case OPFOR_VK_PH_START_TURN:
    case OPFOR_VK_PH_INITIATIVE:
    case OPFOR_VK_PH_COMMAND:
        return a->kind == OPFOR_VK_ROLL;
    case OPFOR_VK_PH_SELECT_UNIT:
        return a->kind == OPFOR_VK_SELECT_UNIT && a->unit < st->nunits &&
               st->units[a->unit].side == st->side && vk_unit_ready(st, a->unit);
    case OPFOR_VK_PH_REACTION:
        if (a->kind == OPFOR_VK_REACT_STAND)
            return 1;
        if (a->kind == OPFOR_VK_REACT_FLEE)
            return vk_flight_move(a->arc) >= 0 && a->dest.x == a->dest.x && a->dest.y == a->dest.y;
        if (a->kind == OPFOR_VK_REACT_FIRE)
            return vk_can_defensive_fire(st, st->charge.target);
        if (a->kind == OPFOR_VK_REACT_COUNTER)
            return vk_can_counter(ctx, st, st->charge.target);
        return 0;
    case OPFOR_VK_PH_CONTROL:
        if (a->kind != OPFOR_VK_CONTROL || a->figure != st->units[u].first + st->charge.control)
            return 0;
        if (a->target != OPFOR_VK_NONE &&
            (a->target >= st->nunits || st->units[a->target].side != st->units[u].side ||
             !vk_unit_active(st, a->target)))
            return 0;
        if (a->flags & ~(OPFOR_VK_AF_MOVE | OPFOR_VK_AF_STRIKE | OPFOR_VK_AF_SELF))
            return 0;
        if (a->flags == OPFOR_VK_AF_STRIKE) /* a fellow of that unit in contact */
            return a->target != OPFOR_VK_NONE &&
                   vk_fellow_in_contact(st, a->figure, a->target) >= 0;
        if (a->flags == OPFOR_VK_AF_SELF)
            return a->target == OPFOR_VK_NONE;
        return a->flags == 0 || a->flags == OPFOR_VK_AF_MOVE;
    case OPFOR_VK_PH_ACTION:
        break;
    default:
        return 0;
    }
    if (a->unit != u || u == OPFOR_VK_NONE)
        return 0;
    int mr = vk_machine_check(ctx, st, a); /* XII.C-D: decided there, or -1 */
    if (mr >= 0)
        return mr;
    unsigned k = vk_allowed_kinds(st, u);
    if (!(vk_kind_class(a->kind) & k))
        return 0;
    if (a->kind == OPFOR_VK_SELECT_UNIT || a->kind == OPFOR_VK_ROLL ||
        (a->kind >= OPFOR_VK_REACT_STAND && a->kind <= OPFOR_VK_CONTROL))
        return 0;
    const opfor_unit_t *un = &st->units[u];
    int side = un->side;
    int t = a->target;
    int needs_enemy = a->kind == OPFOR_VK_CHARGE || a->kind == OPFOR_VK_FIRE ||
                      a->kind == OPFOR_VK_THROW_BOMB || a->kind == OPFOR_VK_MESMERIZE ||
                      ((a->kind == OPFOR_VK_ADVANCE || a->kind == OPFOR_VK_CRAWL) &&
                       (a->flags & OPFOR_VK_AF_FIRE));
    if (needs_enemy && (t >= st->nunits || st->units[t].side == side || !vk_unit_active(st, t)))
        return 0;
    switch (a->kind) {
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_RUN:
    case OPFOR_VK_CRAWL:
        if (!vk_can_move(ctx, st, u))
            return 0;
        if (a->dest.x != a->dest.x || a->dest.y != a->dest.y)
            return 0;
        if (vk_craft(ctx, st, u) != VK_CRAFT_NONE) { /* XII.D: flights and climbs only */
            int dz = (a->flags & OPFOR_VK_AF_CLIMB)     ? a->arc
                     : (a->flags & OPFOR_VK_AF_DESCEND) ? -(int)a->arc
                                                        : 0;
            if (a->kind != OPFOR_VK_ADVANCE ||
                (a->flags & ~(OPFOR_VK_AF_CLIMB | OPFOR_VK_AF_DESCEND)) ||
                ((a->flags & OPFOR_VK_AF_CLIMB) && (a->flags & OPFOR_VK_AF_DESCEND)) ||
                (dz == 0 && (a->flags & (OPFOR_VK_AF_CLIMB | OPFOR_VK_AF_DESCEND))))
                return 0;
            return vk_fly_ok(ctx, st, u, dz);
        }
        if (a->flags & (OPFOR_VK_AF_CLIMB | OPFOR_VK_AF_DESCEND))
            return 0;
        if ((a->flags & OPFOR_VK_AF_FIRE) &&
            (!(k & VK_K_FIRE) || !vk_fire_target_ok(st, t) || a->kind == OPFOR_VK_RUN))
            return 0; /* no moving fire when the unit may not fire (XI Wavering, IX melee) */
        /* fire at the waypoint (IX: at any point of the move): a moving fire with a waypoint */
        if ((a->flags & OPFOR_VK_AF_FIRE_VIA) &&
            (!(a->flags & OPFOR_VK_AF_FIRE) || !(a->flags & OPFOR_VK_AF_VIA) ||
             a->via.x != a->via.x || a->via.y != a->via.y))
            return 0;
        if (a->flags & (OPFOR_VK_AF_MOUNT | OPFOR_VK_AF_DISMOUNT))
            return mount_move_ok(ctx, st, a);
        return 1;
    case OPFOR_VK_LOAD:
        return vk_can_load(st, u, vk_mg_figure(st, u) >= 0, vk_gun_figure(st, u));
    case OPFOR_VK_FIRE: {
        if (a->flags & OPFOR_VK_AF_AT_CRAFT) /* at a balloon's envelope (XII.D) */
            return a->flags == OPFOR_VK_AF_AT_CRAFT && vk_can_fire_craft(ctx, st, u, t);
        if (!vk_fire_target_ok(st, t))
            return 0;
        /* a named figure (IX): a person of the target that may be shot at */
        if (a->figure != OPFOR_VK_NO_FIGURE && !vk_fire_figure_ok(st, t, a->figure))
            return 0;
        /* one nearest-pair search for the reach and the sight test */
        vk_lfigs_t lf;
        vk_ugeo_t gt;
        int fa, fb;
        float gap = vk_measure_pair(st, u, t, &lf, &gt, &fa, &fb);
        int lv = vk_levels(st, u, t); /* altitude levels add brackets (XII.D) */
        return gap <= (lv ? vk_unit_reach_lv(&ctx->model, st, u, lv) : vk_unit_reach(st, u)) &&
               vk_unit_sees_from(ctx, st, u, t, &lf, gt.n, fa, fb, gap, 1e9f);
    }
    case OPFOR_VK_CHARGE: /* riders neither mount nor dismount during a charge (VIII) */
        return !(a->flags & (OPFOR_VK_AF_MOUNT | OPFOR_VK_AF_DISMOUNT)) &&
               vk_can_charge(ctx, st, u, t);
    case OPFOR_VK_FIRE_MG:
        return a->arc < OPFOR_ARC_180 && vk_can_fire_mg(st, u, a->arc);
    case OPFOR_VK_FIRE_ARTILLERY:
        /* the fall of shot in the crew's sight (IX) */
        if (!vk_can_fire_gun(ctx, st, u) || a->dest.x != a->dest.x || a->dest.y != a->dest.y ||
            !opfor_rect_contains(ctx->sc.table.width, ctx->sc.table.depth, a->dest) ||
            !vk_gun_sees(ctx, st, u, a->dest))
            return 0;
        if (a->flags == 0 && a->figure == OPFOR_VK_NO_FIGURE)
            return 1;
        /* more aim points (via; a figure's place) only for a walker's three shots (XII.E) */
        return vk_gun_shots(ctx, st, u) == 3 && !(a->flags & ~OPFOR_VK_AF_VIA) &&
               (!(a->flags & OPFOR_VK_AF_VIA) ||
                opfor_rect_contains(ctx->sc.table.width, ctx->sc.table.depth, a->via)) &&
               (a->figure == OPFOR_VK_NO_FIGURE ||
                (a->figure < st->nfigures && vk_alive(st, a->figure) &&
                 st->units[st->figures[a->figure].unit].side != side));
    case OPFOR_VK_CALL_SUPPORT:
        return vk_support_team_ok(ctx, st, u) && st->reg[side].lost < st->turn &&
               opfor_rect_contains(ctx->sc.table.width, ctx->sc.table.depth, a->dest);
    case OPFOR_VK_THROW_BOMB:
        return vk_bombers(st, u) > 0 && st->ux[t].altitude == 0 &&
               vk_nearest_pair(st, u, t, NULL, NULL) <= VK_BOMB_RANGE;
    case OPFOR_VK_HEAL:
        return vk_can_heal(st, u) || ((k & VK_K_OTHER) && vk_can_heal_rear(ctx, st, u));
    case OPFOR_VK_MESMERIZE:
        return vk_mesmerists(st, u) > 0 && a->figure < st->nfigures &&
               st->figures[a->figure].unit == t && vk_alive(st, a->figure);
    case OPFOR_VK_LIMBER:
        return vk_gun_unit(ctx, st, u) && !(un->flags & OPFOR_UNIT_LIMBERED);
    case OPFOR_VK_UNLIMBER:
        return vk_gun_unit(ctx, st, u) && (un->flags & OPFOR_UNIT_LIMBERED);
    case OPFOR_VK_MOUNT:
        return vk_can_mount(ctx, st, u);
    case OPFOR_VK_DISMOUNT:
        return vk_can_dismount(st, u);
    case OPFOR_VK_SPLIT:
        if (a->figure != OPFOR_VK_NO_FIGURE)
            return vk_split_ok(st, u, a->figure, a->dest);
        return vk_split_leaders(st, u) >= 2 && st->nunits < OPFOR_MAX_UNITS;
    case OPFOR_VK_MERGE:
        return t < st->nunits && t != u && st->units[t].side == side && vk_unit_active(st, t) &&
               !(st->units[t].flags & OPFOR_UNIT_GENERAL) && !(un->flags & OPFOR_UNIT_GENERAL) &&
               !vk_in_melee(st, t) && vk_nearest_pair(st, u, t, NULL, NULL) <= VK_MERGE_DIST;
    case OPFOR_VK_TO_REAR:
        if (a->flags & ~OPFOR_VK_AF_RETURN)
            return 0;
        return (a->flags & OPFOR_VK_AF_RETURN) ? vk_rear_bound(st, u) > 0
                                               : vk_rear_sendable(st, u) > 0;
    default:
        return 1;
    }
}

static void select_unit(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, int u,
                        opfor_vk_events_t *ev) {
    st->cur = (uint8_t)u;
    st->restricted = 0;
    st->activations++;
    for (int v = 0; v < st->nunits; v++)
        st->ux[v].casualties = 0;
    opfor_unit_t *un = &st->units[u];
    VK_EV(ev, "%s: %s activates", ctx->sc.sides[un->side].name, un->name);
    /* Running and moving marks last until the unit acts again. */
    unsigned spell = 0; /* a mesmerised or controlled figure: else vk_mesmer_tests does nothing */
    for (int i = un->first; i < un->first + un->count; i++) {
        st->figures[i].flags &= (uint16_t) ~(OPFOR_FIG_RUNNING | OPFOR_FIG_MOVED);
        spell |=
            (st->figures[i].flags & OPFOR_FIG_MESMERIZED) | (st->figx[i] & OPFOR_VK_FX_CONTROLLED);
    }
    if (spell)
        vk_mesmer_tests(ctx, st, u, ev);
    /* a balloon moves with the wind as its move, each time it activates (XII.D) */
    if (ctx->opt.specials && vk_craft(ctx, st, u) != VK_CRAFT_NONE) {
        vk_craft_drift(ctx, st, u, ev);
        if (!vk_unit_active(st, u)) { /* blown off the table */
            vk_mark_acted(st, u);
            end_activation(ctx, st, ev);
            return;
        }
    }
    if (!vk_in_melee(st, u) && vk_needs_command_test(ctx, st, u))
        st->phase = OPFOR_VK_PH_COMMAND;
    else
        st->phase = OPFOR_VK_PH_ACTION;
}

/* The actions with which a unit's musician plays (VII, XI: playing is his Stand, or his Advance
 * when he moves while playing; never while running or crawling, and not in a charge): when
 * the unit stands, loads or rallies, and when the others fire, he plays instead of firing
 * (engine_fire.c skips playing musicians); when it advances, and in a melee unless he made
 * an attack (his action then), he plays as the action ends (do_action). */
static int musician_plays_with(int kind) {
    switch (kind) {
    case OPFOR_VK_STAND:
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_FIRE:
    case OPFOR_VK_FIRE_MG:
    case OPFOR_VK_FIRE_ARTILLERY:
    case OPFOR_VK_LOAD:
    case OPFOR_VK_FIGHT:
    case OPFOR_VK_RALLY:
        return 1;
    default:
        return 0;
    }
}

static void do_control(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                       opfor_vk_events_t *ev) {
    int g = a->figure;
    int u = st->cur;
    st->figx[g] &= (uint8_t)~OPFOR_VK_FX_CONTROLLED;
    if (a->flags & (OPFOR_VK_AF_STRIKE | OPFOR_VK_AF_SELF)) {
        /* XII.B "self-injury, attacks on one's fellows": a blow with his best melee weapon,
           rolled as a melee attack (X), at a fellow in contact or at himself; no cover */
        int j = (a->flags & OPFOR_VK_AF_SELF) ? g : vk_fellow_in_contact(st, g, a->target);
        if (j >= 0) {
            int e = vk_melee_attack(ctx, st, g, j, 0, 0);
            VK_EV(ev, "  a mesmerised figure of %s %s: %s", st->units[u].name,
                  j == g ? "turns his weapon on himself" : "strikes a fellow",
                  e == 2   ? "killed"
                  : e == 1 ? "wounded"
                           : "no harm");
            if (e > 0)
                vk_harm(ctx, st, j, e, 0, 1 - st->units[u].side, ev);
        }
    } else if (a->flags & OPFOR_VK_AF_MOVE) {
        float allow = (float)(vk_move_x(ctx, st, g, VK_MV_ADVANCE) + vk_d3(st));
        float d = vk_move_figure(ctx, st, g, a->dest, allow, -1);
        VK_EV(ev, "  a mesmerised figure of %s walks %.1f in", st->units[u].name, d);
    } else if (a->target != OPFOR_VK_NONE) {
        int t = a->target;
        float d2;
        int j = -1;
        const opfor_unit_t *tu = &st->units[t];
        float bd = 1e30f;
        for (int i = tu->first; i < tu->first + tu->count; i++)
            if (i != g && vk_alive(st, i) && vk_is_person(&st->figures[i])) {
                d2 = opfor_dist2(st->figures[i].pos, st->figures[g].pos);
                if (d2 < bd) {
                    bd = d2;
                    j = i;
                }
            }
        if (j >= 0) {
            float gap = sqrtf(bd) - vk_radius(&st->figures[g]) - vk_radius(&st->figures[j]);
            int w = vk_firearm(&st->figures[g], gap < 0 ? 0 : gap);
            VK_EV(ev, "  a mesmerised figure of %s turns its weapon on %s", st->units[u].name,
                  st->units[t].name);
            if (w >= 0)
                vk_shoot(ctx, st, g, j, w, gap < 0 ? 0 : gap, 0, ev);
        }
    } else {
        VK_EV(ev, "  a mesmerised figure of %s stands idle", st->units[u].name);
    }
    /* next controlled figure, or done */
    const opfor_unit_t *un = &st->units[u];
    for (int i = un->first; i < un->first + un->count; i++)
        if (vk_alive(st, i) && (st->figx[i] & OPFOR_VK_FX_CONTROLLED)) {
            st->charge.control = (uint8_t)(i - un->first);
            return;
        }
    end_activation(ctx, st, ev);
}

/* The action phase: a done by its unit. move_d3: the d3 of a move (1..3), 0 to roll it. */
static void do_action(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                      int move_d3, opfor_vk_events_t *ev, vk_move_stop_t *stop) {
    int u = a->unit;
    opfor_unit_t *un = &st->units[u];
    /* SPLIT, MERGE and TO_REAR do not use the action (V.A, IX): the unit goes on to act. */
    if (a->kind == OPFOR_VK_SPLIT) {
        vk_split(ctx, st, u, a->figure == OPFOR_VK_NO_FIGURE ? -1 : (int)a->figure, a->dest, ev);
        return;
    }
    if (a->kind == OPFOR_VK_TO_REAR) {
        /* the wounded go out of line (or the bound come back) during their unit's action, and
           the unit then acts (IX): the activation goes on */
        if (a->flags & OPFOR_VK_AF_RETURN)
            vk_rear_return(ctx, st, u, ev);
        else
            vk_to_rear(ctx, st, u, ev);
        return;
    }
    if (a->kind == OPFOR_VK_MERGE) {
        int into = a->target;
        int joined_acted = (st->units[into].flags & OPFOR_UNIT_ACTED) != 0;
        vk_merge(ctx, st, u, into, ev);
        if (joined_acted) {
            vk_mark_acted(st, into);
            after_action(ctx, st, ev);
        } else {
            st->cur = (uint8_t)into; /* the whole new unit acts now */
        }
        return;
    }
    vk_mark_acted(st, u);
    if (musician_plays_with(a->kind) && a->kind != OPFOR_VK_ADVANCE && a->kind != OPFOR_VK_FIGHT)
        vk_musician_play(ctx, st, u);
    if (vk_machine_do(ctx, st, a, ev)) { /* XII.C-D: boarding, trains, aeroplanes, firing out */
        after_action(ctx, st, ev);
        return;
    }
    switch (a->kind) {
    case OPFOR_VK_STAND:
        VK_EV(ev, "  %s stands", un->name);
        break;
    case OPFOR_VK_RALLY:
        vk_rally(ctx, st, u, ev);
        break;
    case OPFOR_VK_LOAD:
        un->flags |= OPFOR_UNIT_LOADED;
        VK_EV(ev, "  %s loads", un->name);
        break;
    case OPFOR_VK_ADVANCE:
    case OPFOR_VK_RUN:
    case OPFOR_VK_CRAWL: {
        int flies = vk_craft(ctx, st, u) != VK_CRAFT_NONE;
        float moved = vk_do_move(ctx, st, a, move_d3, ev, stop);
        if (stop)
            stop->moved = moved;
        if (a->kind == OPFOR_VK_ADVANCE) /* upright now, even if prone before (VI) */
            vk_musician_play(ctx, st, u);
        if (flies)
            break; /* a craft flies: it does not fire on the move */
        /* moving fire (VI, IX) from where the move ended; vk_do_move made it at the
           waypoint when the action says so (OPFOR_VK_AF_FIRE_VIA) */
        if ((a->flags & OPFOR_VK_AF_FIRE) && !(a->flags & OPFOR_VK_AF_FIRE_VIA) &&
            a->kind != OPFOR_VK_RUN && vk_unit_active(st, a->target))
            vk_moving_fire(ctx, st, u, a->target, ev);
        break;
    }
    case OPFOR_VK_CHARGE:
        if (vk_charge(ctx, st, u, a->target, (a->flags & OPFOR_VK_AF_HOLD) != 0, ev)) {
            st->phase = OPFOR_VK_PH_REACTION;
            st->side = st->units[a->target].side;
            return;
        }
        break;
    case OPFOR_VK_FIRE:
        if (a->flags & OPFOR_VK_AF_AT_CRAFT)
            vk_fire_craft(ctx, st, u, a->target, vk_fire_aloft(ctx, st, u), ev);
        else
            vk_fire_unit_at(ctx, st, u, a->target, vk_fire_aloft(ctx, st, u),
                            a->flags & (OPFOR_VK_AF_AIM_WOUNDED | OPFOR_VK_AF_AIM_GENERAL),
                            a->figure == OPFOR_VK_NO_FIGURE ? -1 : a->figure, ev);
        break;
    case OPFOR_VK_FIRE_MG:
        vk_fire_mg(ctx, st, u, a->arc, a->dest, ev);
        break;
    case OPFOR_VK_FIRE_ARTILLERY: {
        /* a walker's three shots: at dest, at via, at the figure's place (XII.E) */
        opfor_pt_t aims[3] = {a->dest, a->dest, a->dest};
        int naims = 1;
        if (a->flags & OPFOR_VK_AF_VIA)
            aims[naims++] = a->via;
        if (a->figure != OPFOR_VK_NO_FIGURE && a->figure < st->nfigures)
            aims[naims++] = st->figures[a->figure].pos;
        vk_fire_gun(ctx, st, u, aims, naims, ev);
        break;
    }
    case OPFOR_VK_CALL_SUPPORT:
        vk_call_support(ctx, st, u, a->dest, ev);
        break;
    case OPFOR_VK_THROW_BOMB:
        vk_throw_bombs(ctx, st, u, a->target, ev);
        break;
    case OPFOR_VK_HEAL:
        vk_heal(ctx, st, u, !st->restricted, ev);
        break;
    case OPFOR_VK_MESMERIZE:
        vk_mesmerize(ctx, st, u, a->figure, ev);
        break;
    case OPFOR_VK_LIMBER:
        un->flags |= OPFOR_UNIT_LIMBERED;
        VK_EV(ev, "  %s limbers up", un->name);
        break;
    case OPFOR_VK_UNLIMBER: {
        un->flags &= (uint16_t)~OPFOR_UNIT_LIMBERED;
        vk_ugeo_t g;
        vk_unit_geo(st, u, &g);
        opfor_vec_t f = opfor_vnorm(opfor_vsub(a->dest, g.c));
        if (f.x != 0.0f || f.y != 0.0f)
            un->facing = f;
        VK_EV(ev, "  %s unlimbers", un->name);
        break;
    }
    case OPFOR_VK_MOUNT:
        vk_mount(ctx, st, u, 1, 0);
        VK_EV(ev, "  %s mounts", un->name);
        break;
    case OPFOR_VK_DISMOUNT:
        vk_mount(ctx, st, u, 0, 0);
        VK_EV(ev, "  %s dismounts", un->name);
        break;
    case OPFOR_VK_FIGHT:
        vk_fight(ctx, st, u, ev);
        vk_musician_play(ctx, st, u); /* unless he attacked (vk_musician_play) */
        break;
    default:
        break;
    }
    after_action(ctx, st, ev);
}

int opfor_vk_apply(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                   opfor_vk_events_t *ev) {
    if (!ctx || !st || !a || !check_action(ctx, st, a))
        return OPFOR_EILLEGAL;
    return opfor_vk_apply_listed(ctx, st, a, ev);
}

int opfor_vk_apply_listed(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st,
                          const opfor_vk_action_t *a, opfor_vk_events_t *ev) {
    switch (st->phase) {
    case OPFOR_VK_PH_START_TURN:
        if (check_end(ctx, st, 1, ev))
            return 0;
        start_turn(ctx, st, ev);
        return 0;
    case OPFOR_VK_PH_INITIATIVE: {
        int s = vk_next_side(ctx, st, ev);
        if (s < 0 || s > 1) {
            st->phase = OPFOR_VK_PH_START_TURN;
            check_end(ctx, st, 1, ev);
            return 0;
        }
        st->side = (uint8_t)s;
        st->phase = OPFOR_VK_PH_SELECT_UNIT;
        return 0;
    }
    case OPFOR_VK_PH_COMMAND:
        if (!vk_command_test(ctx, st, st->cur, ev))
            st->restricted = 1;
        st->phase = OPFOR_VK_PH_ACTION;
        st->side = st->units[st->cur].side;
        return 0;
    case OPFOR_VK_PH_SELECT_UNIT:
        select_unit(ctx, st, a->unit, ev);
        return 0;
    case OPFOR_VK_PH_ACTION:
        do_action(ctx, st, a, 0, ev, NULL);
        return 0;
    case OPFOR_VK_PH_REACTION:
        vk_charge_react(ctx, st, a, ev);
        st->side = st->units[st->cur].side;
        after_action(ctx, st, ev);
        return 0;
    case OPFOR_VK_PH_CONTROL:
        do_control(ctx, st, a, ev);
        return 0;
    default:
        return OPFOR_EILLEGAL;
    }
}

int opfor_vk_apply_move(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, const opfor_vk_action_t *a,
                        int d3, opfor_vk_events_t *ev, opfor_vk_move_result_t *out) {
    if (!ctx || !st || !a || d3 < 0 || d3 > 3 || a->unit >= st->nunits ||
        (a->kind != OPFOR_VK_ADVANCE && a->kind != OPFOR_VK_RUN && a->kind != OPFOR_VK_CRAWL))
        return OPFOR_EINVAL;
    if (st->phase != OPFOR_VK_PH_ACTION || !check_action(ctx, st, a))
        return OPFOR_EILLEGAL;
    vk_ugeo_t g0;
    vk_unit_geo(st, a->unit, &g0);
    vk_move_stop_t stop;
    memset(&stop, 0, sizeof stop);
    do_action(ctx, st, a, d3, ev, &stop);
    if (out)
        vk_move_result_fill(ctx, st, a, g0.c, stop.moved, &stop, out);
    return 0;
}

int opfor_vk_apply_move_roll(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st,
                             const opfor_vk_action_t *a, int d3, opfor_vk_events_t *ev) {
    if (d3 < 1 || d3 > 3)
        return OPFOR_EINVAL;
    return opfor_vk_apply_move(ctx, st, a, d3, ev, NULL);
}

void opfor_vk_settle(const opfor_vk_ctx_t *ctx, opfor_vk_state_t *st, opfor_vk_events_t *ev) {
    opfor_vk_action_t roll;
    memset(&roll, 0, sizeof roll);
    roll.kind = OPFOR_VK_ROLL;
    roll.unit = OPFOR_VK_NONE;
    roll.target = OPFOR_VK_NONE;
    roll.figure = OPFOR_VK_NO_FIGURE;
    while (opfor_vk_current(ctx, st) == OPFOR_VK_CHANCE)
        opfor_vk_apply(ctx, st, &roll, ev);
}

/* ---------------------------------------------------------------- hash, replay */

uint64_t opfor_vk_state_hash(const opfor_vk_state_t *st) {
    return opfor_fnv1a(OPFOR_FNV1A_BASIS, st, sizeof *st);
}

int opfor_vk_replay(const opfor_vk_ctx_t *ctx, uint64_t seed, const opfor_vk_action_t *log, int n,
                    opfor_vk_state_t *st, int *done) {
    opfor_vk_state_init(ctx, st, seed);
    for (int i = 0; i < n; i++) {
        if (opfor_vk_apply(ctx, st, &log[i], NULL) != 0) {
            if (done)
                *done = i;
            return OPFOR_EILLEGAL;
        }
    }
    if (done)
        *done = n;
    return 0;
}
