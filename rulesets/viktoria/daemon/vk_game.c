/* rulesets/viktoria/daemon/vk_game.c — Viktoria!'s table game in the daemon: opening a game,
 * presses of the initiative button, orders, closing, events, replay of log entries, the state's
 * hash and its packed form.
 *
 * Everything here is a pure function of (scenario, seed, log): the game's own random stream
 * lives in the table state, so replaying the same entries in the same order rebuilds the same
 * bytes (and the same hash, and the same event numbers). Reports from the table are in
 * vk_game_report.c, the AI's orders in vk_game_order.c, the operations io calls in
 * vk_game_ops.c. Rules: Viktoria! V.A (competitive initiative),
 * XV.A (the initiative button), XV.B (spotting, placement, scoring).
 */
#include "vk_game_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opfor/ai.h"
#include "opfor/viktoria/director.h"
#include "opfor/hash.h"
#include "opfor/rpc.h"
#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/calc.h"
#include "pack_int.h"

#define DEFAULT_SCENARIO "patrol_default"

/* ------------------------------------------------------------------ small helpers */

const char *opfor__vkg_pending_name(int pending) {
    static const char *const n[] = {"none", "player", "enemy"};
    return pending >= 0 && pending < 3 ? n[pending] : "none";
}

msgpack_packer *opfor__vkg_ev_begin(opfor__evlist_t *ev, msgpack_packer *pk, const opfor__vkg_t *g,
                                    opfor__vkg_table_t *t, uint64_t log_seq, const char *kind) {
    return opfor__ev_begin(ev, pk, g->row->id, &t->ev_seq, t->ps.turn, log_seq, kind);
}

opfor_patrol_forces_t opfor__vkg_forces(opfor__vkg_table_t *t) {
    opfor_patrol_forces_t fo = {t->units, t->figures, t->nunits, t->nfigures};
    return fo;
}

int opfor__vkg_alive(const opfor__vkg_table_t *t, int u, int *wounded) {
    const opfor_unit_t *un = &t->units[u];
    int a = 0, w = 0;
    for (int i = un->first; i < un->first + un->count && i < t->nfigures; i++)
        if (t->figures[i].flags & OPFOR_FIG_ALIVE) {
            a++;
            w += (t->figures[i].flags & OPFOR_FIG_WOUNDED) != 0;
        }
    if (wounded)
        *wounded = w;
    return a;
}

int opfor__vkg_in_play(const opfor__vkg_table_t *t, int u) {
    if (u < 0 || u >= t->nunits || (t->units[u].flags & OPFOR_UNIT_OFF_TABLE))
        return 0;
    return opfor__vkg_alive(t, u, NULL) > 0;
}

int opfor__vkg_find_unit(const opfor__vkg_table_t *t, const char *name, size_t len) {
    int found = -1;
    for (int u = 0; u < t->nunits; u++)
        if (strlen(t->units[u].name) == len && strncasecmp(t->units[u].name, name, len) == 0)
            return u;
    for (int u = 0; u < t->nunits; u++)
        if (len > 0 && strncasecmp(t->units[u].name, name, len) == 0) {
            if (found >= 0)
                return -2;
            found = u;
        }
    return found;
}

void opfor__vkg_pack_pt(msgpack_packer *pk, opfor_pt_t p) {
    msgpack_pack_map(pk, 2);
    opfor_rpc_pack_cstr(pk, "x");
    msgpack_pack_double(pk,
                        (double)(int64_t)((double)p.x * 100.0 + (p.x < 0 ? -0.5 : 0.5)) / 100.0);
    opfor_rpc_pack_cstr(pk, "y");
    msgpack_pack_double(pk,
                        (double)(int64_t)((double)p.y * 100.0 + (p.y < 0 ? -0.5 : 0.5)) / 100.0);
}

/* Units of side that may act now: in play and not yet acted this turn. */
static int ready_units(const opfor__vkg_table_t *t, int side, int *list) {
    int n = 0;
    for (int u = 0; u < t->nunits; u++)
        if (t->units[u].side == side && !(t->units[u].flags & OPFOR_UNIT_ACTED) &&
            opfor__vkg_in_play(t, u))
            list[n++] = u;
    return n;
}

/* ------------------------------------------------------------------ open / free */

int opfor__vkg_rules_number(const char *version) {
    return !version ? 0 : strcmp(version, "1") == 0 ? 1 : strcmp(version, "2") == 0 ? 2 : 0;
}

int opfor__vkg_open(opfor__vkg_t **out, const opfor_store_game_t *row, const char *yaml,
                    size_t yaml_len, const void *m, opfor__gerr_t *err) {
    *out = NULL;
    if (strcasecmp(row->ruleset, "viktoria") != 0 && row->ruleset[0])
        return opfor__gerr_set(err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOTSUP,
                               "ruleset: '%s' is not supported here (rulesets: viktoria)",
                               row->ruleset);
    opfor__vkg_t *g = calloc(1, sizeof *g);
    if (!g)
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_ENOMEM, "out of memory");
    g->rowbuf = *row;
    g->row = &g->rowbuf;
    g->rules = opfor__vkg_rules_number(opfor_viktoria_ruleset.rules_version); /* a new game's */
    snprintf(g->rowbuf.ruleset, sizeof g->rowbuf.ruleset, "viktoria");
    g->sc = calloc(1, sizeof *g->sc);
    g->cfg = calloc(1, sizeof *g->cfg);
    if (!g->sc || !g->cfg) {
        opfor__vkg_free(g);
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_ENOMEM, "out of memory");
    }
    opfor_diag_t d;
    opfor_diag_clear(&d);
    char label[160], where[700];
    int rc;
    if (yaml) {
        snprintf(label, sizeof label, "%s", row->scenario_name[0] ? row->scenario_name : "inline");
        rc = opfor_viktoria_scenario_load_string(yaml, yaml_len, label, g->sc, &d);
    } else {
        const char *name = row->scenario_name[0] ? row->scenario_name : DEFAULT_SCENARIO;
        snprintf(label, sizeof label, "builtin:%s", name);
        rc = opfor_viktoria_builtin_load(name, g->sc, &d);
        if (!row->scenario_name[0])
            snprintf(g->rowbuf.scenario_name, sizeof g->rowbuf.scenario_name, "%s",
                     DEFAULT_SCENARIO);
    }
    if (rc < 0) {
        int code = rc == OPFOR_ENOENT ? OPFOR_RPC_E_NOT_FOUND : OPFOR_RPC_E_INVALID_PARAMS;
        opfor__gerr_set(err, code, rc, "scenario: %s", opfor_diag_format(&d, where, sizeof where));
        opfor__vkg_free(g);
        return rc;
    }
    int mode = g->sc->mode;
    if (row->mode[0] && opfor_vocab_lookup(opfor_viktoria_mode_names, row->mode, &mode) != 0) {
        opfor__vkg_free(g);
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "mode: '%s' is not a mode (patrol, competitive)", row->mode);
    }
    g->mode = mode;
    snprintf(g->rowbuf.mode, sizeof g->rowbuf.mode, "%s",
             opfor_vocab_name(opfor_viktoria_mode_names, mode));
    if (mode == OPFOR_MODE_COOP) {
        rc = opfor_patrol_config_load(g->cfg, g->sc, label, &d);
        if (rc < 0) {
            opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, rc, "scenario: %s",
                            opfor_diag_format(&d, where, sizeof where));
            opfor__vkg_free(g);
            return rc;
        }
        g->player = g->cfg->player;
        g->enemy = g->cfg->enemy;
    } else {
        opfor_patrol_config_default(g->cfg, g->sc);
        g->player = g->sc->sides[1].player && !g->sc->sides[0].player ? 1 : 0;
        g->enemy = 1 - g->player;
    }
    g->level = OPFOR_AI_STANDARD;
    if (row->difficulty[0] && opfor_ai_level_find(row->difficulty, &g->level) != 0) {
        opfor__vkg_free(g);
        return opfor__gerr_set(
            err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
            "difficulty: '%s' is not a level (novice, standard, veteran, ruthless, "
            "challenge)",
            row->difficulty);
    }
    snprintf(g->rowbuf.difficulty, sizeof g->rowbuf.difficulty, "%s",
             opfor_vocab_name(opfor_ai_level_names, g->level));
    {
        /* a `random` weather is rolled once from the game's seed, on a stream of its own so
           that the table's dice are the same with or without it (XIII) */
        opfor_rng_t wr;
        opfor_rng_seed(&wr, row->seed, 0x77656174u); /* "weat" */
        opfor_vk_weather_start(g->sc, &wr, &g->weather[0], &g->weather[1]);
    }
    rc = opfor_vk_ctx_init(&g->ctx, g->sc, m, NULL, &d);
    if (rc < 0) {
        opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, rc,
                        "scenario: the rules engine refuses it: %s",
                        opfor_diag_format(&d, where, sizeof where));
        opfor__vkg_free(g);
        return rc;
    }
    if (opfor_vk_rs_ctx_new_model(&g->rs, g->sc, label, NULL, m, &d) != 0)
        g->rs = NULL; /* orders then come from the engine's look-ahead */
    g->work = malloc(sizeof *g->work);
    if (!g->work) {
        opfor__vkg_free(g);
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_ENOMEM, "out of memory");
    }
    opfor__vkg_opening(g, &g->t);
    *out = g;
    return 0;
}

void opfor__vkg_opening(const opfor__vkg_t *g, opfor__vkg_table_t *t) {
    memset(t, 0, sizeof *t);
    t->magic = OPFOR__TABLE_MAGIC;
    t->size = (uint32_t)sizeof *t;
    opfor_rng_seed(&t->rng, g->row->seed, 0x70617472u); /* the same stream as `opfor patrol` */
    memcpy(t->units, g->sc->units, sizeof t->units);
    memcpy(t->figures, g->sc->figures, sizeof t->figures);
    t->nunits = g->sc->nunits;
    t->nfigures = g->sc->nfigures;
    opfor_patrol_forces_t fo = opfor__vkg_forces(t);
    if (g->mode == OPFOR_MODE_COOP)
        opfor_patrol_init(g->cfg, &t->ps, &fo);
    else
        t->ps.turn = 1;
    for (int u = 0; u < t->nunits; u++)
        t->units[u].flags &= (uint16_t)~OPFOR_UNIT_ACTED;
    t->order.target = -1;
    t->order.unit = -1;
    t->weather[0] = g->weather[0];
    t->weather[1] = g->weather[1];
}

void opfor__vkg_free(opfor__vkg_t *g) {
    if (!g)
        return;
    opfor_vk_ctx_free(g->ctx);
    opfor_vk_rs_ctx_free(g->rs);
    if (g->sc)
        opfor_scenario_free(g->sc);
    free(g->sc);
    free(g->cfg);
    free(g->work);
    free(g);
}

/* ------------------------------------------------------------------ score and end */

void opfor__vkg_pack_score(const opfor__vkg_t *g, const opfor__vkg_table_t *t, msgpack_packer *pk) {
    if (g->mode == OPFOR_MODE_COOP) {
        opfor__vkg_table_t *tt =
            (opfor__vkg_table_t *)t; /* forces point into it; nothing is written */
        opfor_patrol_forces_t fo = opfor__vkg_forces(tt);
        opfor_patrol_score_t s;
        opfor_patrol_score(g->cfg, &t->ps, &fo, &s);
        msgpack_pack_map(pk, 9);
        opfor__kv_int(pk, "total", s.total);
        opfor__kv_int(pk, "survived", s.survived);
        opfor__kv_int(pk, "half_strength", s.half_strength);
        opfor__kv_int(pk, "unscathed", s.unscathed);
        opfor__kv_int(pk, "supply", s.supply);
        opfor__kv_int(pk, "hq_members", s.hq_members);
        opfor__kv_int(pk, "driven_off", s.driven_off);
        opfor__kv_int(pk, "objectives", s.objectives);
        opfor__kv_int(pk, "lost", s.lost);
        return;
    }
    int units[2] = {0, 0}, alive[2] = {0, 0};
    for (int u = 0; u < t->nunits; u++)
        if (opfor__vkg_in_play(t, u)) {
            units[t->units[u].side & 1]++;
            alive[t->units[u].side & 1] += opfor__vkg_alive(t, u, NULL);
        }
    msgpack_pack_map(pk, 3);
    opfor_rpc_pack_cstr(pk, "total");
    msgpack_pack_array(pk, 2);
    msgpack_pack_int(pk, alive[0]);
    msgpack_pack_int(pk, alive[1]);
    opfor_rpc_pack_cstr(pk, "units");
    msgpack_pack_array(pk, 2);
    msgpack_pack_int(pk, units[0]);
    msgpack_pack_int(pk, units[1]);
    opfor__kv_int(pk, "lost", units[g->player] == 0);
}

int opfor__vkg_score_total(const opfor__vkg_t *g, const opfor__vkg_table_t *t) {
    if (g->mode == OPFOR_MODE_COOP) {
        opfor_patrol_forces_t fo = opfor__vkg_forces((opfor__vkg_table_t *)t);
        opfor_patrol_score_t s;
        opfor_patrol_score(g->cfg, &t->ps, &fo, &s);
        return s.lost ? 0 : s.total;
    }
    int alive = 0;
    for (int u = 0; u < t->nunits; u++)
        if (t->units[u].side == g->player && opfor__vkg_in_play(t, u))
            alive += opfor__vkg_alive(t, u, NULL);
    return alive;
}

const char *opfor__vkg_verdict(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                               const char **why) {
    const char *w = "";
    const char *v = "";
    if (t->status == OPFOR__GS_FINISHED && g->mode == OPFOR_MODE_COOP) {
        opfor_patrol_forces_t fo = opfor__vkg_forces((opfor__vkg_table_t *)t);
        opfor_patrol_score_t s;
        opfor_patrol_score(g->cfg, &t->ps, &fo, &s);
        v = opfor_patrol_verdict_name(opfor_patrol_verdict(&s));
        w = opfor_patrol_verdict_why(&s);
    } else if (t->status == OPFOR__GS_FINISHED) {
        v = t->result == OPFOR__RES_WON ? "won" : t->result == OPFOR__RES_LOST ? "lost" : "drawn";
        w = t->result == OPFOR__RES_WON    ? "every enemy unit is gone"
            : t->result == OPFOR__RES_LOST ? "every player unit is gone"
                                           : "the turn limit came with both sides standing";
    }
    if (why)
        *why = w;
    return v;
}

void opfor__vkg_ev_score(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                         opfor__evlist_t *ev) {
    msgpack_packer pk;
    opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "score");
    opfor__vkg_pack_score(g, t, &pk);
}

/* Ends play on t with status (nothing pending, no order open) and starts the event of kind
 * that says so; returns pk ready for the event's data. */
static msgpack_packer *stop_play(const opfor__vkg_t *g, opfor__vkg_table_t *t, int32_t status,
                                 uint64_t log_seq, opfor__evlist_t *ev, const char *kind,
                                 msgpack_packer *pk) {
    t->status = status;
    t->pending = OPFOR__PEND_NONE;
    t->order.open = 0;
    return opfor__vkg_ev_begin(ev, pk, g, t, log_seq, kind);
}

static void finish(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                   opfor__evlist_t *ev, int result) {
    t->result = result;
    msgpack_packer pk;
    stop_play(g, t, OPFOR__GS_FINISHED, log_seq, ev, "game_over", &pk);
    const char *why;
    const char *verdict = opfor__vkg_verdict(g, t, &why);
    msgpack_pack_map(&pk, 6);
    opfor__kv_str(&pk, "result", opfor__game_result_name(result));
    opfor__kv_int(&pk, "score", opfor__vkg_score_total(g, t));
    opfor__kv_int(&pk, "turns", t->ps.turn);
    opfor__kv_str(&pk, "verdict", verdict);
    opfor__kv_str(&pk, "why", why);
    opfor_rpc_pack_cstr(&pk, "breakdown");
    opfor__vkg_pack_score(g, t, &pk);
}

void opfor__vkg_check_end(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                          opfor__evlist_t *ev) {
    if (t->status != OPFOR__GS_ACTIVE)
        return;
    if (g->mode == OPFOR_MODE_COOP) {
        opfor_patrol_forces_t fo = opfor__vkg_forces(t);
        opfor_patrol_score_t s;
        opfor_patrol_score(g->cfg, &t->ps, &fo, &s);
        if (s.lost)
            finish(g, t, log_seq, ev, OPFOR__RES_LOST);
        else if (s.enemy_wiped)
            finish(g, t, log_seq, ev, OPFOR__RES_WON);
        return;
    }
    int units[2] = {0, 0};
    for (int u = 0; u < t->nunits; u++)
        if (opfor__vkg_in_play(t, u) && !(t->units[u].flags & OPFOR_UNIT_GENERAL))
            units[t->units[u].side & 1]++;
    if (units[g->player] == 0)
        finish(g, t, log_seq, ev, OPFOR__RES_LOST);
    else if (units[g->enemy] == 0)
        finish(g, t, log_seq, ev, OPFOR__RES_WON);
}

/* The events of a new turn begun (t->ps.turn is the new one, or the limit when ended): the
 * turn, or the game's end when the turn limit ended it. idle: the press sequence's report when
 * the turn ended because no unit of either side can act (the event says so), else NULL.
 * Returns ended. */
static int turn_begun(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                      opfor__evlist_t *ev, int limit, int ended,
                      const opfor_patrol_session_report_t *idle) {
    t->pending = OPFOR__PEND_NONE;
    if (ended) {
        finish(g, t, log_seq, ev, OPFOR__RES_ENDED);
        return 1;
    }
    msgpack_packer pk;
    opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "turn");
    msgpack_pack_map(&pk, idle ? 4 : 2);
    opfor__kv_int(&pk, "turn", t->ps.turn);
    opfor__kv_int(&pk, "last", limit > 0 && t->ps.turn == limit);
    if (idle) {
        opfor__kv_int(&pk, "idle", 1);
        opfor__kv_int(&pk, "spottings_left", idle->spots_left);
    }
    return 0;
}

/* A new turn of a competitive game; 1 when the turn limit ended the game. */
static int new_turn(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                    opfor__evlist_t *ev) {
    opfor_patrol_forces_t fo = opfor__vkg_forces(t);
    opfor_patrol_new_turn(&t->ps, &fo);
    int limit = g->sc->turn_limit, ended = limit > 0 && t->ps.turn > limit;
    if (ended)
        t->ps.turn = (uint16_t)limit;
    return turn_begun(g, t, log_seq, ev, limit, ended, NULL);
}

/* ------------------------------------------------------------------ presses */

static void ev_initiative(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                          opfor__evlist_t *ev, int side) {
    int list[OPFOR_MAX_UNITS];
    int n = ready_units(t, side, list);
    msgpack_packer pk;
    opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "initiative");
    int comp = g->mode != OPFOR_MODE_COOP;
    msgpack_pack_map(&pk, 4 + comp);
    opfor__kv_str(&pk, "holder", side == g->player ? "player" : "enemy");
    opfor__kv_str(&pk, "side", g->sc->sides[side].name);
    opfor_rpc_pack_cstr(&pk, "ready");
    msgpack_pack_array(&pk, (size_t)n);
    for (int i = 0; i < n; i++)
        opfor_rpc_pack_cstr(&pk, t->units[list[i]].name);
    opfor__kv_int(&pk, "press", t->presses);
    if (comp) {
        opfor_rpc_pack_cstr(&pk, "dice");
        msgpack_pack_array(&pk, 2);
        msgpack_pack_int(&pk, t->dice[0]);
        msgpack_pack_int(&pk, t->dice[1]);
    }
}

/* The compass point a unit faces, by the table's north ("" when it faces nowhere). */
static const char *facing_name(const opfor__vkg_t *g, opfor_vec_t v) {
    if (v.x == 0.0f && v.y == 0.0f)
        return "";
    return opfor_vocab_name(opfor_compass_names,
                            opfor_compass_nearest((opfor_table_north_t)g->cfg->table.north, v));
}

/* joined[k]: the unit new general k took post beside, or -1 (he stays by the new unit). */
static void ev_spotted(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                       opfor__evlist_t *ev, const opfor_patrol_spot_t *sp,
                       const opfor_patrol_placement_t *pl, const opfor_patrol_spawn_t *sw,
                       const int *joined, int steered) {
    char dice[32], text[256];
    opfor_dice_format(&sp->dice, dice, sizeof dice);
    opfor_patrol_spot_str(sp, text, sizeof text);
    int unit = pl->placed ? sw->unit : -1;
    msgpack_packer pk;
    opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "spotted");
    const char *why = "";
    int refused = opfor_patrol_rule_refused(pl->rule, &why);
    msgpack_pack_map(&pk, 20);
    opfor_rpc_pack_cstr(&pk, "steered"); /* the director chose it over the dice's draw */
    steered ? msgpack_pack_true(&pk) : msgpack_pack_false(&pk);
    opfor__kv_str(&pk, "type", opfor_vocab_name(opfor_patrol_type_names, sp->type));
    opfor__kv_str(&pk, "quality", opfor_vocab_name(opfor_quality_names, sp->quality));
    opfor__kv_str(&pk, "distance", dice);
    opfor__kv_int(&pk, "rolled", sp->rolled);
    opfor__kv_str(&pk, "direction", opfor_vocab_name(opfor_compass_names, sp->direction));
    opfor__kv_int(&pk, "placed", pl->placed ? 1 : 0);
    opfor__kv_str(&pk, "rule", opfor_vocab_name(opfor_patrol_rule_names, pl->rule));
    opfor__kv_str(&pk, "rule_text", opfor_patrol_rule_text(pl->rule));
    opfor_rpc_pack_cstr(&pk, "refused");
    refused ? msgpack_pack_true(&pk) : msgpack_pack_false(&pk);
    opfor__kv_str(&pk, "why", why);
    opfor_rpc_pack_cstr(&pk, "point");
    if (pl->placed)
        opfor__vkg_pack_pt(&pk, pl->point);
    else
        msgpack_pack_nil(&pk);
    opfor_rpc_pack_cstr(&pk, "unit");
    if (unit >= 0)
        opfor_rpc_pack_cstr(&pk, t->units[unit].name);
    else
        msgpack_pack_nil(&pk);
    opfor__kv_int(&pk, "figures", unit >= 0 ? t->units[unit].count : 0);
    opfor_rpc_pack_cstr(&pk, "generals");
    int ng = pl->placed && unit >= 0 ? sw->ngenerals : 0;
    msgpack_pack_array(&pk, (size_t)ng);
    for (int k = 0; k < ng; k++)
        opfor_rpc_pack_cstr(&pk, t->units[sw->generals[k]].name);
    opfor__kv_str(&pk, "text", text);
    /* how it stands: its formation, the way it faces, its centre (issue 15) */
    const opfor_unit_t *un = unit >= 0 ? &t->units[unit] : NULL;
    opfor__kv_str(&pk, "formation",
                  un ? opfor_vocab_name(opfor_formation_names, un->formation) : "");
    opfor__kv_str(&pk, "facing", un ? facing_name(g, un->facing) : "");
    opfor_pt_t c;
    opfor_rpc_pack_cstr(&pk, "centre");
    if (un && opfor_unit_centre(un, t->figures, &c))
        opfor__vkg_pack_pt(&pk, c);
    else
        msgpack_pack_nil(&pk);
    /* each general who came with it: where he stands and beside which unit */
    opfor_rpc_pack_cstr(&pk, "general_posts");
    msgpack_pack_array(&pk, (size_t)ng);
    for (int k = 0; k < ng; k++) {
        const opfor_unit_t *gu = &t->units[sw->generals[k]];
        int j = joined ? joined[k] : -1;
        opfor_pt_t at = t->figures[gu->first].pos;
        char gt[160];
        if (j >= 0 && j < t->nunits && j != unit) /* as the terminal game says it */
            snprintf(gt, sizeof gt,
                     "%s, a general, comes on with it and takes post beside %s, at x %.1f, y %.1f",
                     gu->name, t->units[j].name, (double)at.x, (double)at.y);
        else
            snprintf(gt, sizeof gt, "%s, a general, rides in with it at x %.1f, y %.1f", gu->name,
                     (double)at.x, (double)at.y);
        msgpack_pack_map(&pk, 4);
        opfor__kv_str(&pk, "name", gu->name);
        opfor_rpc_pack_cstr(&pk, "at");
        opfor__vkg_pack_pt(&pk, at);
        opfor_rpc_pack_cstr(&pk, "beside"); /* the unit he took post beside; nil: his own */
        if (j >= 0 && j < t->nunits && j != unit)
            opfor_rpc_pack_cstr(&pk, t->units[j].name);
        else
            msgpack_pack_nil(&pk);
        opfor__kv_str(&pk, "text", gt);
    }
}

static int press_state_ok(const opfor__vkg_t *g, const opfor__vkg_table_t *t, opfor__gerr_t *err) {
    if (t->status != OPFOR__GS_ACTIVE)
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL, "the game is %s",
                               t->status == OPFOR__GS_CLOSED ? "closed" : "over");
    if (t->pending == OPFOR__PEND_PLAYER) {
        opfor_rpc_hint_set(opfor__gerr_hint(err), OPFOR_RPC_HINT_REPORT_ACTED);
        opfor_rpc_hint_str(opfor__gerr_hint(err), "side", g->sc->sides[g->player].name);
        return opfor__gerr_set(
            err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
            "a unit of the %s holds the initiative: report which one acted first "
            "(report with `acted`)",
            g->sc->sides[g->player].name);
    }
    if (t->pending == OPFOR__PEND_ENEMY) {
        opfor_rpc_hint_set(opfor__gerr_hint(err), OPFOR_RPC_HINT_ASK_ORDERS);
        opfor_rpc_hint_str(opfor__gerr_hint(err), "side", g->sc->sides[g->enemy].name);
        return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                               "the %s hold the initiative: ask for its orders (ai.orders) first",
                               g->sc->sides[g->enemy].name);
    }
    return 0;
}

/* A Patrol Mode press as the shared press sequence (opfor_patrol_session_press) runs it: the
 * game, where its events go, and the table's press count kept in step with the patrol state's. */
typedef struct press_run {
    const opfor__vkg_t *g;
    opfor__vkg_table_t *t;
    uint64_t log_seq;
    opfor__evlist_t *ev;
    opfor__vkg_press_opt_t *opt;
    int seen; /* t->ps.presses when t->presses was last brought in step */
    const opfor_patrol_session_report_t *rep; /* the sequence's report as it runs */
} press_run_t;

static void press_count(press_run_t *r) {
    r->t->presses += (int)r->t->ps.presses - r->seen;
    r->seen = r->t->ps.presses;
}

/* A spotting drawn: the director's choice, or the logged outcome on replay. */
static int press_steer_spot(void *user, opfor_patrol_spot_t *spot) {
    press_run_t *r = user;
    press_count(r);
    if (r->opt->steer) {
        int rc = r->opt->steer(r->opt->ud, r->g, r->t, spot);
        if (rc < 0)
            return rc;
        r->opt->steered = rc == 1;
    } else if (r->opt->has_spot) {
        *spot = r->opt->spot;
    }
    return 0;
}

static void press_turn(void *user, int ended) {
    press_run_t *r = user;
    press_count(r);
    turn_begun(r->g, r->t, r->log_seq, r->ev, r->g->cfg->turn_limit, ended,
               r->rep->idle ? r->rep : NULL);
}

static int press_patrol(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                        opfor__vkg_press_opt_t *opt, opfor__evlist_t *ev, opfor__gerr_t *err) {
    opfor_patrol_forces_t fo = opfor__vkg_forces(t);
    opfor_patrol_session_report_t rep;
    press_run_t run = {g, t, log_seq, ev, opt, t->ps.presses, &rep};
    opfor_patrol_session_opts_t o;
    opfor_patrol_session_opts_table(
        &o); /* new generals take post beside the unit they keep most in command */
    o.idle_stop = g->rules >= 2; /* rules version 1 pressed on through idle turns */
    /* rules version 1 drew spotted units up where they fell, a building or pond included */
    g->cfg->clear_ground = g->rules >= 2;
    o.steer = opt ? press_steer_spot : NULL;
    o.turn = press_turn;
    o.user = &run;
    int rc = opfor_patrol_session_press(g->cfg, &t->ps, &fo, &t->rng, &o, &rep);
    press_count(&run);
    if (rc < 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, rc, "the director failed: %s",
                               opfor_strerror(rc));
    if (rep.nspots > 0) {
        const opfor_patrol_session_spotting_t *sp = &rep.spot[0];
        if (opt) {
            opt->spotted = 1;
            opt->used = sp->spot;
        }
        t->nunits = fo.nunits;
        t->nfigures = fo.nfigures;
        ev_spotted(g, t, log_seq, ev, &sp->spot, &sp->place, &sp->spawn, sp->joined,
                   opt && opt->steered);
        opfor__vkg_ev_score(g, t, log_seq, ev);
    } else if (rep.side >= 0) {
        t->pending = rep.side == g->player ? OPFOR__PEND_PLAYER : OPFOR__PEND_ENEMY;
        ev_initiative(g, t, log_seq, ev, rep.side);
    }
    return 0;
}

static int press_competitive(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                             opfor__evlist_t *ev) {
    for (int guard = 0; guard < 4 && t->status == OPFOR__GS_ACTIVE; guard++) {
        int list[OPFOR_MAX_UNITS];
        int ready[2] = {ready_units(t, 0, list), ready_units(t, 1, list)};
        t->presses++;
        if (!ready[0] && !ready[1]) {
            if (new_turn(g, t, log_seq, ev))
                return 0;
            continue;
        }
        int side;
        t->dice[0] = t->dice[1] = 0;
        if (!ready[0] || !ready[1]) {
            side = ready[0] ? 0 : 1;
        } else { /* V.A: a D6 each, the higher takes the initiative; ties roll again */
            int tries = 0;
            do {
                t->dice[0] = opfor_rng_d6(&t->rng);
                t->dice[1] = opfor_rng_d6(&t->rng);
            } while (t->dice[0] == t->dice[1] && ++tries < 32);
            side = t->dice[0] >= t->dice[1] ? 0 : 1;
        }
        t->pending = side == g->player ? OPFOR__PEND_PLAYER : OPFOR__PEND_ENEMY;
        ev_initiative(g, t, log_seq, ev, side);
        return 0;
    }
    return 0;
}

/* A press while the current order has no report of its move or outcome leaves the table and
 * the game apart: an `unreported` event (in the press's answer) says what is still open. */
static void unreported(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                       opfor__evlist_t *ev) {
    const opfor__vkg_order_t *o = &t->order;
    if (!opfor__vkg_order_current(t) || o->resolved)
        return;
    if (!o->has_dest && o->target < 0 && o->nneeds == 0)
        return; /* nothing moves, nothing is rolled (stand): nothing to report */
    const int no_report = !o->answered_by, no_move = o->has_dest && !o->answered_move;
    if (!no_report && !no_move)
        return;
    const char *unit = o->unit >= 0 && o->unit < t->nunits ? t->units[o->unit].name : "";
    char text[480];
    snprintf(text, sizeof text,
             "the order of entry %llu (%s) was never %s: opfor's game does not have %s; "
             "report it now (moves, casualties, morale; or resolve) before the next order",
             (unsigned long long)o->log_seq, o->sentence,
             no_report ? "reported" : "reported moving",
             no_report ? "its move or its outcome" : "the unit's new place");
    msgpack_packer pk;
    opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "unreported");
    msgpack_pack_map(&pk, 5);
    opfor_rpc_pack_cstr(&pk, "order");
    msgpack_pack_uint64(&pk, o->log_seq);
    opfor_rpc_pack_cstr(&pk, "unit");
    opfor_rpc_pack_cstr(&pk, unit);
    opfor_rpc_pack_cstr(&pk, "sentence");
    opfor_rpc_pack_cstr(&pk, o->sentence);
    opfor_rpc_pack_cstr(&pk, "missing");
    msgpack_pack_array(&pk, (size_t)(no_report + no_move));
    if (no_move)
        opfor_rpc_pack_cstr(&pk, "move");
    if (no_report)
        opfor_rpc_pack_cstr(&pk, "outcome");
    opfor_rpc_pack_cstr(&pk, "text");
    opfor_rpc_pack_cstr(&pk, text);
}

int opfor__vkg_press(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                     opfor__vkg_press_opt_t *opt, opfor__evlist_t *ev, opfor__gerr_t *err) {
    int rc = press_state_ok(g, t, err);
    if (rc < 0)
        return rc;
    unreported(g, t, log_seq, ev);
    opfor__vkg_undo_barrier(t, log_seq, "press");
    t->order.open = 0; /* the last order's outcome is settled once the button is pressed */
    if (g->mode == OPFOR_MODE_COOP) {
        rc = press_patrol(g, t, log_seq, opt, ev, err);
        if (rc < 0)
            return rc;
    } else
        press_competitive(g, t, log_seq, ev);
    opfor__vkg_check_end(g, t, log_seq, ev);
    {
        char what[80];
        snprintf(what, sizeof what, "turn %d, initiative: %s", (int)t->ps.turn,
                 opfor__vkg_pending_name(t->pending));
        opfor__vkg_hist_note(t, log_seq, "press", what);
    }
    t->log_seq = log_seq;
    return 0;
}

int opfor__vkg_close(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                     opfor__evlist_t *ev, opfor__gerr_t *err) {
    (void)err;
    msgpack_packer pk;
    stop_play(g, t, OPFOR__GS_CLOSED, log_seq, ev, "closed", &pk);
    msgpack_pack_map(&pk, 0);
    opfor__vkg_hist_note(t, log_seq, "close", "the game was closed");
    t->log_seq = log_seq;
    return 0;
}

int opfor__vkg_apply_entry(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t seq,
                           const char *kind, const void *payload, size_t len, opfor__evlist_t *ev,
                           opfor__gerr_t *err) {
    if (strcmp(kind, "press") == 0) {
        if (!len)
            return opfor__vkg_press(g, t, seq, NULL, ev, err);
        opfor__vkg_press_opt_t opt;
        memset(&opt, 0, sizeof opt);
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        int rc = msgpack_unpack_next(&u, payload, len, &off) == MSGPACK_UNPACK_SUCCESS
                     ? opfor__vkg_press_payload_read(g, &u.data, &opt.spot, err)
                     : opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                                       "log entry %llu: unreadable press payload",
                                       (unsigned long long)seq);
        const msgpack_object *st = rc < 0 ? NULL : opfor_rpc_params_get(&u.data, "steered");
        opt.steered = st && st->type == MSGPACK_OBJECT_BOOLEAN && st->via.boolean;
        msgpack_unpacked_destroy(&u);
        if (rc < 0)
            return rc;
        opt.has_spot = 1;
        return opfor__vkg_press(g, t, seq, &opt, ev, err);
    }
    if (strcmp(kind, "close") == 0)
        return opfor__vkg_close(g, t, seq, ev, err);
    if (strcmp(kind, "undo") == 0) {
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        int rc = len && msgpack_unpack_next(&u, payload, len, &off) != MSGPACK_UNPACK_SUCCESS
                     ? opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                                       "log entry %llu: unreadable undo payload",
                                       (unsigned long long)seq)
                     : opfor__vkg_undo(g, t, seq, len ? &u.data : NULL, ev, err);
        msgpack_unpacked_destroy(&u);
        return rc;
    }
    if (strcmp(kind, "report") != 0 && strcmp(kind, "order") != 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                               "log entry %llu: unknown kind '%s'", (unsigned long long)seq, kind);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    int rc;
    if (!len || msgpack_unpack_next(&u, payload, len, &off) != MSGPACK_UNPACK_SUCCESS ||
        u.data.type != MSGPACK_OBJECT_MAP)
        rc = opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                             "log entry %llu: unreadable payload", (unsigned long long)seq);
    else if (kind[0] == 'r')
        rc = opfor__vkg_report(g, t, seq, &u.data, ev, err);
    else
        rc = opfor__vkg_order(g, t, seq, &u.data, ev, err);
    msgpack_unpacked_destroy(&u);
    return rc;
}

/* ------------------------------------------------------------------ press payload */

void opfor__vkg_press_payload_pack(const opfor_patrol_spot_t *spot, int steered,
                                   msgpack_packer *pk) {
    msgpack_pack_map(pk, 1 + !!steered);
    if (steered) {
        opfor_rpc_pack_cstr(pk, "steered");
        msgpack_pack_true(pk);
    }
    opfor_rpc_pack_cstr(pk, "spot");
    msgpack_pack_map(pk, 5);
    opfor__kv_int(pk, "type", spot->type);
    opfor__kv_int(pk, "quality", spot->quality);
    opfor__kv_int(pk, "dist_opt", spot->dist_opt);
    opfor__kv_int(pk, "rolled", spot->rolled);
    opfor__kv_int(pk, "direction", spot->direction);
}

int opfor__vkg_press_payload_read(const opfor__vkg_t *g, const msgpack_object *o,
                                  opfor_patrol_spot_t *spot, opfor__gerr_t *err) {
    static const char *const keys[5] = {"type", "quality", "dist_opt", "rolled", "direction"};
    int64_t v[5];
    const msgpack_object *m = NULL;
    if (o->type == MSGPACK_OBJECT_MAP)
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            const msgpack_object_kv *kv = &o->via.map.ptr[i];
            if (kv->key.type == MSGPACK_OBJECT_STR && kv->key.via.str.size == 4 &&
                memcmp(kv->key.via.str.ptr, "spot", 4) == 0 && kv->val.type == MSGPACK_OBJECT_MAP)
                m = &kv->val;
        }
    if (!m)
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                               "press payload: no `spot` map");
    char why[160];
    for (int k = 0; k < 5; k++) {
        int rc = opfor_rpc_params_int(m, keys[k], -1000, 1000, &v[k], why, sizeof why);
        if (rc == OPFOR_ENOENT)
            snprintf(why, sizeof why, "missing");
        if (rc != 0)
            return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                                   "press payload: spot.%s: %s", keys[k], why);
    }
    memset(spot, 0, sizeof *spot);
    spot->type = (int)v[0];
    spot->quality = (int)v[1];
    spot->dist_opt = (int)v[2];
    spot->rolled = (int)v[3];
    spot->direction = (int)v[4];
    if (spot->type >= 0 && spot->type < OPFOR_PT_COUNT && spot->dist_opt >= 0 &&
        spot->dist_opt < g->cfg->ndist[spot->type])
        spot->dice = g->cfg->dist[spot->type][spot->dist_opt].dice;
    if (!opfor_director_allowed(g->cfg, spot))
        return opfor__gerr_set(
            err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
            "press payload: the spotting is not an allowed outcome of this scenario");
    return 0;
}

/* ------------------------------------------------------------------ reading */

uint64_t opfor__vkg_hash(const opfor__vkg_table_t *t) {
    return opfor_fnv1a(OPFOR_FNV1A_BASIS_SHORT, t, sizeof *t);
}

static void pack_unit(const opfor__vkg_t *g, const opfor__vkg_table_t *t, int u,
                      msgpack_packer *pk) {
    const opfor_unit_t *un = &t->units[u];
    int w, a = opfor__vkg_alive(t, u, &w);
    opfor_pt_t c = {0, 0};
    int has_c = opfor_unit_centre(un, t->figures, &c);
    const char *state = t->ps.fate[u] == OPFOR_PATROL_FATE_DRIVEN_OFF ? "driven_off"
                        : t->ps.fate[u] == OPFOR_PATROL_FATE_CAPTURED ? "captured"
                        : (un->flags & OPFOR_UNIT_OFF_TABLE)          ? "off_table"
                        : a == 0                                      ? "destroyed"
                        : (un->flags & OPFOR_UNIT_ACTED)              ? "acted"
                                                                      : "ready";
    msgpack_pack_map(pk, 12);
    opfor__kv_int(pk, "index", u);
    opfor__kv_str(pk, "name", un->name);
    opfor__kv_str(pk, "side", g->sc->sides[un->side & 1].name);
    opfor__kv_int(pk, "player", un->side == g->player);
    opfor__kv_str(pk, "type", opfor_vocab_name(opfor_unit_type_names, un->type));
    opfor__kv_str(pk, "quality", opfor_vocab_name(opfor_quality_names, un->quality));
    opfor__kv_str(pk, "status", opfor_vocab_name(opfor_status_names, un->status));
    opfor__kv_str(pk, "state", state);
    opfor__kv_int(pk, "alive", a);
    opfor__kv_int(pk, "wounded", w);
    opfor__kv_int(pk, "strength", un->strength);
    opfor_rpc_pack_cstr(pk, "at");
    if (has_c)
        opfor__vkg_pack_pt(pk, c);
    else
        msgpack_pack_nil(pk);
}

/* `front`: the players' line in a Patrol Mode game (XV.B), as the table reads it: the
 * furthest-forward point and the ground held; nil in other modes or with no player unit in
 * play. */
static void pack_front(const opfor__vkg_t *g, const opfor__vkg_table_t *t, msgpack_packer *pk) {
    opfor_rpc_pack_cstr(pk, "front");
    opfor_pt_t dot;
    opfor__vkg_table_t *tt = (opfor__vkg_table_t *)t; /* forces point into it; nothing written */
    opfor_patrol_forces_t fo = opfor__vkg_forces(tt);
    if (g->mode != OPFOR_MODE_COOP || opfor_patrol_dot(g->cfg, &t->ps, &fo, &dot) != 0) {
        msgpack_pack_nil(pk);
        return;
    }
    msgpack_pack_map(pk, 2);
    opfor_rpc_pack_cstr(pk, "dot");
    opfor__vkg_pack_pt(pk, dot);
    opfor__kv_double(pk, "sq_ft", (double)opfor_patrol_area(g->cfg, &t->ps) / 144.0);
}

void opfor__vkg_pack_state(const opfor__vkg_t *g, msgpack_packer *pk) {
    const opfor__vkg_table_t *t = &g->t;
    char hash[24];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)opfor__vkg_hash(t));
    int list[OPFOR_MAX_UNITS], nready = 0;
    if (t->pending == OPFOR__PEND_PLAYER || t->pending == OPFOR__PEND_ENEMY)
        nready = ready_units(t, t->pending == OPFOR__PEND_PLAYER ? g->player : g->enemy, list);
    msgpack_pack_map(pk, 31);
    opfor__kv_str(pk, "game", g->row->id);
    opfor__kv_str(pk, "ruleset", g->row->ruleset);
    opfor__kv_str(pk, "scenario", g->row->scenario_name);
    opfor__kv_str(pk, "title", g->sc->name);
    opfor__kv_str(pk, "mode", g->row->mode);
    opfor__kv_u64(pk, "seed", g->row->seed);
    opfor__kv_str(pk, "difficulty", g->row->difficulty);
    opfor__kv_str(pk, "status", opfor__game_status_name(t->status));
    opfor__kv_str(pk, "result", opfor__game_result_name(t->result));
    opfor__kv_str(pk, "verdict", opfor__vkg_verdict(g, t, NULL));
    opfor__kv_int(pk, "turn", t->ps.turn);
    opfor__kv_int(pk, "turn_limit",
                  g->mode == OPFOR_MODE_COOP ? g->cfg->turn_limit : g->sc->turn_limit);
    opfor__kv_int(pk, "presses", t->presses);
    opfor_rpc_pack_cstr(pk, "weather"); /* now: the start's, or the table's last event (XIII) */
    msgpack_pack_map(pk, 3);
    opfor__kv_int(pk, "level", t->weather[0]);
    opfor__kv_str(pk, "wind", opfor_vocab_name(opfor_compass_names, t->weather[1]));
    opfor__kv_int(pk, "command_radius", opfor_viktoria_command_radius(t->weather[0]));
    opfor__kv_str(pk, "pending", opfor__vkg_pending_name(t->pending));
    opfor_rpc_pack_cstr(pk, "ready");
    msgpack_pack_array(pk, (size_t)nready);
    for (int i = 0; i < nready; i++)
        opfor_rpc_pack_cstr(pk, t->units[list[i]].name);
    opfor__kv_u64(pk, "log_seq", t->log_seq);
    opfor__kv_u64(pk, "event_seq", t->ev_seq);
    opfor__kv_str(pk, "hash", hash);
    opfor_rpc_pack_cstr(pk, "sides");
    msgpack_pack_array(pk, 2);
    for (int s = 0; s < 2; s++) {
        msgpack_pack_map(pk, 2);
        opfor__kv_str(pk, "name", g->sc->sides[s].name);
        opfor__kv_int(pk, "player", s == g->player);
    }
    opfor_rpc_pack_cstr(pk, "table");
    msgpack_pack_map(pk, 2);
    opfor__kv_double(pk, "width", (double)g->cfg->table.width);
    opfor__kv_double(pk, "depth", (double)g->cfg->table.depth);
    opfor_rpc_pack_cstr(pk, "units");
    msgpack_pack_array(pk, (size_t)t->nunits);
    for (int u = 0; u < t->nunits; u++)
        pack_unit(g, t, u, pk);
    opfor_rpc_pack_cstr(pk, "order");
    if (t->order.active)
        opfor__vkg_order_pack(g, t, &t->order, pk);
    else
        msgpack_pack_nil(pk);
    opfor_rpc_pack_cstr(pk, "score");
    opfor__vkg_pack_score(g, t, pk);
    pack_front(g, t, pk);
    opfor_rpc_pack_cstr(pk, "scene");       /* the table as a picture (vk_game_scene.c) */
    opfor_scene_t *sc = malloc(sizeof *sc); /* large: not on the stack */
    if (sc) {
        opfor__vkg_scene(g, t, sc);
        opfor__pack_scene(pk, sc);
        free(sc);
    } else {
        msgpack_pack_nil(pk);
    }
    opfor__vkg_pack_session(g, t, pk); /* reports, actions, ai_to_order, can_undo, undo_report */
}

/* ------------------------------------------------------------------ an order's alternatives */

void opfor__vkg_alts_pack(const opfor__vkg_order_t *o, msgpack_packer *pk) {
    opfor_rpc_pack_cstr(pk, "alternatives");
    msgpack_pack_array(pk, (size_t)o->nalts);
    for (int i = 0; i < o->nalts; i++) {
        msgpack_pack_map(pk, 4);
        opfor__kv_str(pk, "text", o->alts[i].text);
        opfor__kv_int(pk, "visits", o->alts[i].visits);
        opfor_rpc_pack_cstr(pk, "value");
        msgpack_pack_double(pk, o->alts[i].value);
        opfor_rpc_pack_cstr(pk, "chosen");
        o->alts[i].chosen ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    }
}

void opfor__vkg_alts_read(const msgpack_object *payload, opfor__vkg_order_t *o) {
    const msgpack_object *a = opfor_rpc_params_get(payload, "alternatives");
    o->nalts = 0;
    for (uint32_t i = 0; a && a->type == MSGPACK_OBJECT_ARRAY && i < a->via.array.size &&
                         o->nalts < OPFOR__ORDER_ALTS;
         i++) {
        const msgpack_object *m = &a->via.array.ptr[i];
        if (m->type != MSGPACK_OBJECT_MAP)
            continue;
        opfor__vkg_alt_t *x = &o->alts[o->nalts++];
        memset(x, 0, sizeof *x);
        const msgpack_object *v = opfor_rpc_params_get(m, "text");
        if (v && v->type == MSGPACK_OBJECT_STR)
            snprintf(x->text, sizeof x->text, "%.*s", (int)v->via.str.size, v->via.str.ptr);
        v = opfor_rpc_params_get(m, "visits");
        x->visits = v && v->type == MSGPACK_OBJECT_POSITIVE_INTEGER && v->via.u64 <= UINT32_MAX
                        ? (uint32_t)v->via.u64
                        : 0;
        v = opfor_rpc_params_get(m, "value");
        x->value = v && (v->type == MSGPACK_OBJECT_FLOAT64 || v->type == MSGPACK_OBJECT_FLOAT32)
                       ? v->via.f64
                       : 0.0;
        v = opfor_rpc_params_get(m, "chosen");
        x->chosen = v && v->type == MSGPACK_OBJECT_BOOLEAN && v->via.boolean;
    }
}
