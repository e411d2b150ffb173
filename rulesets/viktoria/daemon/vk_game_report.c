/* rulesets/viktoria/daemon/vk_game_report.c — reports from the table: the unit that acted, moves,
 * casualties, morale results, units off the table; the daemon's dice when the players ask it to
 * roll, and the engine's resolution of the open AI order.
 *
 * The players are the truth for what happened at the table, so a report changes the game's
 * units directly; every field is checked first and the first fault is answered with a message
 * naming it ("casualties[1].killed: ..."), the whole report then changing nothing (the caller
 * works on a copy). The same function replays a logged report, so it must stay a pure
 * function of (table, params). Rules: Viktoria! IX (wounds), XI (morale: Solid, Wavering,
 * routed), XV.B (units driven off or captured count for the score).
 *
 * Reports never count twice: a new report names the open order it answers (`order`) or the
 * state its client saw (`seen`, a log_seq), and opfor__vkg_report_check refuses a second
 * answer to the same order, or a report against a state that changed since, saying which
 * report answered it or what changed. The last report can be taken back (an `undo` entry)
 * until the next press or order: each report keeps what it changed in t->undo.
 */
#include "vk_game_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opfor/dice.h"
#include "opfor/rpc.h"
#include "opfor/rpc_num.h"
#include "opfor/text.h"
#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/engine_query.h"
#include "opfor/viktoria/table_report.h"
#include "pack_int.h"

#define MAX_ITEMS 32 /* entries per list in one report */
#define TEXT_MAX 2048

static int fail(opfor__gerr_t *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(opfor__gerr_t *e, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->code = code;
    return code == OPFOR_RPC_E_ILLEGAL     ? OPFOR_EILLEGAL
           : code == OPFOR_RPC_E_NOT_FOUND ? OPFOR_ENOENT
                                           : OPFOR_EINVAL;
}

/* A number, NaN refused. */
static int num(const msgpack_object *o, double *out) {
    if (opfor_rpc_num(o, out) < 0)
        return -1;
    return *out == *out ? 0 : -1; /* NaN is not a number here */
}

/* A list of units' names for error messages. */
static const char *unit_list(const opfor__vkg_table_t *t, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = '\0';
    for (int u = 0; u < t->nunits && len + 4 < n; u++) {
        int w = snprintf(buf + len, n - len, "%s%s", u ? ", " : "", t->units[u].name);
        if (w < 0 || (size_t)w >= n - len) {
            snprintf(buf + (n > 4 ? n - 4 : 0), 4, "...");
            break;
        }
        len += (size_t)w;
    }
    return buf;
}

/* Reads a unit reference (a name, a unique prefix, or an index) at field `path`. */
static int get_unit(const opfor__vkg_table_t *t, const msgpack_object *v, const char *path,
                    opfor__gerr_t *e, int *u) {
    char names[300];
    if (!v)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s: a unit name is required", path);
    if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
        if (v->via.u64 >= (uint64_t)t->nunits)
            return fail(e, OPFOR_RPC_E_NOT_FOUND, "%s: no unit number %llu (0 to %d)", path,
                        (unsigned long long)v->via.u64, t->nunits - 1);
        *u = (int)v->via.u64;
        return 0;
    }
    if (v->type != MSGPACK_OBJECT_STR)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s: must be a unit name", path);
    int r = opfor__vkg_find_unit(t, v->via.str.ptr, v->via.str.size);
    if (r == -2)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                    "%s: '%.*s' could mean several units; give more of the name (%s)", path,
                    (int)(v->via.str.size > 40 ? 40 : v->via.str.size), v->via.str.ptr,
                    unit_list(t, names, sizeof names));
    if (r < 0)
        return fail(e, OPFOR_RPC_E_NOT_FOUND, "%s: no unit '%.*s' in this game (units: %s)", path,
                    (int)(v->via.str.size > 40 ? 40 : v->via.str.size), v->via.str.ptr,
                    unit_list(t, names, sizeof names));
    *u = r;
    return 0;
}

/* Reads a table point at path: {x, y} or [x, y], inside the table. */
static int get_point(const opfor__vkg_t *g, const msgpack_object *v, const char *path,
                     opfor__gerr_t *e, opfor_pt_t *p) {
    const msgpack_object *ox = NULL, *oy = NULL;
    if (v && v->type == MSGPACK_OBJECT_MAP) {
        ox = opfor_rpc_params_get(v, "x");
        oy = opfor_rpc_params_get(v, "y");
    } else if (v && v->type == MSGPACK_OBJECT_ARRAY && v->via.array.size == 2) {
        ox = &v->via.array.ptr[0];
        oy = &v->via.array.ptr[1];
    }
    double x, y;
    if (!ox || !oy || num(ox, &x) || num(oy, &y))
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                    "%s: must be a point {x, y} in inches from the south-west corner", path);
    double w = g->cfg->table.width, d = g->cfg->table.depth;
    if (x < 0 || x > w)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s.x: %g is off the table (0 to %g inches)",
                    path, x, w);
    if (y < 0 || y > d)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s.y: %g is off the table (0 to %g inches)",
                    path, y, d);
    p->x = (float)x;
    p->y = (float)y;
    return 0;
}

/* What the order's move does to unit u's figures besides their place, as the rules engine's
 * move does it (VIII; VI: riders dismount to crawl): a crawl leaves them prone and on foot, an
 * advance or a run stands them up, a run leaves them running; all have moved. Applied when a
 * report moves the unit of the order it answers, so a crawling rider may end in a building
 * closed to horses, as the engine lets him (rules version 2). */
static void order_move_flags(opfor__vkg_table_t *t, int u, int kind) {
    if (kind != OPFOR_VK_ADVANCE && kind != OPFOR_VK_RUN && kind != OPFOR_VK_CRAWL)
        return;
    const opfor_unit_t *un = &t->units[u];
    for (int i = un->first; i < un->first + un->count && i < OPFOR_MAX_FIGURES; i++) {
        opfor_figure_t *f = &t->figures[i];
        if (!(f->flags & OPFOR_FIG_ALIVE) || (f->flags & OPFOR_FIG_EQUIPMENT))
            continue;
        if (kind == OPFOR_VK_CRAWL) {
            f->flags &= (uint16_t)~OPFOR_FIG_MOUNTED;
            f->flags |= OPFOR_FIG_PRONE;
        } else {
            f->flags &= (uint16_t)~OPFOR_FIG_PRONE;
        }
        f->flags |= OPFOR_FIG_MOVED;
        if (kind == OPFOR_VK_RUN)
            f->flags |= OPFOR_FIG_RUNNING;
    }
}

/* Moves unit u so its living figures' centre is at p (figures stay on the table). Under
 * rules version 2 a move that would put a figure on ground it may not stand on (a pond, a
 * building closed to horses, guns and wagons: opfor_vk_table_forbidden) is refused, naming
 * the ground, and nothing moves; games of version 1 replay as they were played. 0, or the
 * refusal in e (path names the field). */
static int move_unit(const opfor__vkg_t *g, opfor__vkg_table_t *t, int u, opfor_pt_t p,
                     const char *path, opfor__gerr_t *e) {
    const opfor_unit_t *un = &t->units[u];
    opfor_pt_t saved[OPFOR_MAX_FIGURES];
    for (int i = 0; i < un->count && un->first + i < OPFOR_MAX_FIGURES; i++)
        saved[i] = t->figures[un->first + i].pos;
    opfor_vk_table_move(un, t->figures, &g->cfg->table, p);
    int k = g->rules >= 2 ? opfor_vk_table_forbidden_within(un, t->figures, &g->cfg->table,
                                                            OPFOR_VK_TABLE_EDGE_TOL)
                          : -1;
    if (k < 0)
        return 0;
    for (int i = 0; i < un->count && un->first + i < OPFOR_MAX_FIGURES; i++)
        t->figures[un->first + i].pos = saved[i];
    const opfor_terrain_feature_t *ft = &g->cfg->table.features[k];
    return fail(e, OPFOR_RPC_E_ILLEGAL,
                "%s: %s cannot stand at x %.1f, y %.1f: %s would be in the %s (%s)", path, un->name,
                (double)p.x, (double)p.y, un->count > 1 ? "its figures" : "it",
                ft->name[0] ? ft->name : opfor_vocab_name(opfor_terrain_kind_names, ft->kind),
                ft->move == OPFOR_MOVE_IMPASSABLE ? "ground no unit may stand on"
                                                  : "closed to horses, guns and wagons");
}

/* Kills k living figures of u (the wounded first, leaders last), then wounds w of the
 * unwounded ones (leaders last), as `opfor patrol` does. */
static void casualties(opfor__vkg_table_t *t, int u, int k, int w) {
    opfor_vk_table_casualties(&t->units[u], t->figures, k, w);
}

static int unwounded(const opfor__vkg_table_t *t, int u) {
    int w, a = opfor__vkg_alive(t, u, &w);
    return a - w;
}

/* Morale results a report may give (XI): Solid, Wavering, routed (leaves the table),
 * surrendered (captured). */
enum { MR_SOLID, MR_WAVERING, MR_ROUTED, MR_SURRENDERED, MR_COUNT };
static const char *const MORALE[MR_COUNT] = {"solid", "wavering", "routed", "surrendered"};

/* What the report said, kept for its event. */
typedef struct item {
    int unit;     /* unit index */
    int a, b;     /* killed/wounded, or a result/fate code */
    opfor_pt_t p; /* moves */
} item_t;

typedef struct rep {
    int acted;     /* unit, -1 none */
    int has_at;    /* 1 when `at` moved it */
    opfor_pt_t at; /* its new centre */
    int nmoves, ncas, nmor, noff;
    item_t moves[MAX_ITEMS], cas[MAX_ITEMS], mor[MAX_ITEMS], off[MAX_ITEMS];
    int rolled;                                             /* 1 with `roll` */
    char dice[48];                                          /* the dice rolled */
    int total;                                              /* their total */
    int nfaces;                                             /* dice rolled */
    int faces[OPFOR_DICE_MAX_TERMS * OPFOR_DICE_MAX_COUNT]; /* each die's face, in order */
    int bonus;                                              /* the constant added */
    int resolved;                                           /* 1 with `resolve` */
    int weather;                                            /* 1 with `weather` */
    int nowed;  /* morale tests owed (XI) by enemy units the report killed figures of */
    int nclose; /* figures the engine walked back into coherency after a resolved move (VIII) */
    struct {
        int unit;        /* unit index */
        int figure;      /* 1-based place of the figure in its unit */
        opfor_pt_t from; /* where the block's move left it (where the table has it) */
        opfor_pt_t to;   /* where it closes up to */
    } close[MAX_ITEMS];
    struct {
        int unit;      /* unit index */
        int bits;      /* OPFOR_VK_MORALE_* check-boxes */
        int melee;     /* 1: in melee, a failure is flight */
        char need[32]; /* "7+ on 2D6" */
    } owed[MAX_ITEMS];
    char text[TEXT_MAX]; /* readable lines, '\n'-separated */
} rep_t;

static void add_text(rep_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_text(rep_t *r, const char *fmt, ...) {
    size_t len = strlen(r->text);
    if (len + 2 >= sizeof r->text)
        return;
    if (len)
        r->text[len++] = '\n';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->text + len, sizeof r->text - len, fmt, ap);
    va_end(ap);
}

static const msgpack_object *list_of(const msgpack_object *params, const char *key,
                                     opfor__gerr_t *e, int *rc) {
    const msgpack_object *v = opfor_rpc_params_get(params, key);
    *rc = 0;
    if (!v || v->type == MSGPACK_OBJECT_NIL)
        return NULL;
    if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size > MAX_ITEMS) {
        *rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s: must be a list of at most %d maps", key,
                   MAX_ITEMS);
        return NULL;
    }
    for (uint32_t i = 0; i < v->via.array.size; i++)
        if (v->via.array.ptr[i].type != MSGPACK_OBJECT_MAP) {
            *rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s[%u]: must be a map", key, i);
            return NULL;
        }
    return v;
}

/* Checks that map m has only the listed keys. */
static int keys_ok(const msgpack_object *m, const char *const *allowed, const char *path,
                   opfor__gerr_t *e) {
    char why[160];
    if (opfor_rpc_params_check(m, allowed, why, sizeof why) < 0)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s: %s", path, why);
    return 0;
}

/* `weather`: {level, wind}, the weather a weather event at the table gave (XIII): the
 * level 1..5 and the wind's compass point, either left as it was. Only in a game whose
 * scenario rolls weather events (rules: weather_events). */
static int weather(const opfor__vkg_t *g, opfor__vkg_table_t *t, const msgpack_object *v, rep_t *r,
                   opfor__gerr_t *e) {
    static const char *const keys[] = {"level", "wind", NULL};
    char why[160], wind[8] = "";
    int64_t level = t->weather[0];
    if (v->type != MSGPACK_OBJECT_MAP || v->via.map.size == 0)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                    "weather: must be a map {level: 1..5, wind: N, NE, ... NW} (either or both)");
    int rc = keys_ok(v, keys, "weather", e);
    if (rc < 0)
        return rc;
    if (!g->ctx || !opfor_vk_ctx_options(g->ctx)->weather_events)
        return fail(e, OPFOR_RPC_E_ILLEGAL,
                    "weather: this game rolls no weather events (XIII: the scenario's rules: "
                    "weather_events: yes); the weather stays level %d, wind %s",
                    t->weather[0], opfor_vocab_name(opfor_compass_names, t->weather[1]));
    if (opfor_rpc_params_get(v, "level") &&
        opfor_rpc_params_int(v, "level", 1, 5, &level, why, sizeof why) < 0)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                    "weather.level: must be a whole number from 1 to 5 (XIII)");
    int w = t->weather[1];
    if (opfor_rpc_params_get(v, "wind")) {
        int k = -1;
        if (opfor_rpc_params_str(v, "wind", wind, sizeof wind, why, sizeof why) != 0 ||
            opfor_vocab_lookup(opfor_compass_names, wind, &k) != 0 || k < 0 || k > 7)
            return fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                        "weather.wind: must be a compass point: N, NE, E, SE, S, SW, W or NW");
        w = k;
    }
    t->weather[0] = (int32_t)level;
    t->weather[1] = w;
    r->weather = 1;
    add_text(r, "weather event: level %d, wind %s (command radius %d in)", t->weather[0],
             opfor_vocab_name(opfor_compass_names, w),
             opfor_viktoria_command_radius(t->weather[0]));
    return 0;
}

/* Entry i of list `key`: names it in path ("moves[2]"), checks its keys, reads its unit. */
static int entry_unit(const opfor__vkg_table_t *t, const msgpack_object *m, const char *key,
                      uint32_t i, const char *const *allowed, char *path, size_t n,
                      opfor__gerr_t *e, int *u) {
    char field[160];
    snprintf(path, n, "%s[%u]", key, i);
    int rc = keys_ok(m, allowed, path, e);
    if (rc < 0)
        return rc;
    snprintf(field, sizeof field, "%s.unit", path);
    return get_unit(t, opfor_rpc_params_get(m, "unit"), field, e, u);
}

/* Refuses unit u of the entry at path when it has left the table or has no figure alive. */
static int on_table(const opfor__vkg_table_t *t, int u, const char *path, opfor__gerr_t *e) {
    if (opfor__vkg_in_play(t, u))
        return 0;
    if (t->units[u].flags & OPFOR_UNIT_OFF_TABLE)
        return fail(e, OPFOR_RPC_E_ILLEGAL, "%s.unit: %s has already left the table", path,
                    t->units[u].name);
    return fail(e, OPFOR_RPC_E_ILLEGAL, "%s.unit: %s has no figure alive (destroyed)", path,
                t->units[u].name);
}

static int get_count(const msgpack_object *m, const char *key, const char *path, int *out,
                     opfor__gerr_t *e) {
    const msgpack_object *v = opfor_rpc_params_get(m, key);
    *out = 0;
    if (!v)
        return 0;
    if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s.%s: %lld is negative", path, key,
                    (long long)v->via.i64);
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > 4096)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s.%s: must be a whole number of figures", path,
                    key);
    *out = (int)v->via.u64;
    return 0;
}

/* VIII: after a move the engine walks stragglers back toward their unit (vk_cohere), which
 * the table cannot know from the move's block end alone. Given the state st0 the move was
 * made from, the state st1 just after it and what the move did (mr, from opfor_vk_apply_move),
 * lists in r each figure that does not stand where the block's move left
 * it, with both places. */
static void close_ups(const opfor_vk_state_t *st0, const opfor_vk_state_t *st1, int u,
                      const opfor_vk_move_result_t *mr, rep_t *r) {
    const opfor_unit_t *un = &st1->units[u];
    opfor_vec_t step = opfor_vsub(mr->to, mr->from);
    for (int i = un->first; i < un->first + un->count && r->nclose < MAX_ITEMS; i++) {
        if (!opfor_vk_query_fig_present(st1, i) || !opfor_vk_query_fig_present(st0, i))
            continue;
        opfor_pt_t from = opfor_vadd(st0->figures[i].pos, step), to = st1->figures[i].pos;
        if (opfor_dist(from, to) < 0.05f)
            continue;
        int k = r->nclose++;
        r->close[k].unit = u;
        r->close[k].figure = i - un->first + 1;
        r->close[k].from = from;
        r->close[k].to = to;
    }
}

/* The engine's resolution of the open order: the command test as planned, the action with
 * the engine's dice, and any reaction it calls for (the charged unit stands, X). */
/* Resolves the open order with the engine. move_roll: the D3 the table rolled for the
 * order's move (1..3), or 0 for the daemon's own die. */
static int resolve(const opfor__vkg_t *g, opfor__vkg_table_t *t, rep_t *r, uint64_t log_seq,
                   int move_roll, opfor__evlist_t *ev, opfor__gerr_t *e) {
    opfor__vkg_order_t *o = &t->order;
    if (!o->active || !o->open || o->resolved) {
        opfor_rpc_hint_set(&e->hint, OPFOR_RPC_HINT_RESOLVE_NEEDS_ORDER);
        opfor_rpc_hint_str(&e->hint, "side", g->sc->sides[g->enemy].name);
        return fail(e, OPFOR_RPC_E_ILLEGAL,
                    "%s: there is no open order to resolve (ask ai.orders when the %s hold "
                    "the initiative)",
                    move_roll ? "move_roll" : "resolve", g->sc->sides[g->enemy].name);
    }
    int kind = o->action.kind;
    /* a move order with no end point does not move: taking cover where it stands (and
       firing, VI), or a move barred from the start */
    if (move_roll && (!o->has_dest || !o->has_stop ||
                      (kind != OPFOR_VK_ADVANCE && kind != OPFOR_VK_RUN && kind != OPFOR_VK_CRAWL)))
        return fail(e, OPFOR_RPC_E_ILLEGAL,
                    "move_roll: the open order does not move (%s): resolve it without a move "
                    "roll",
                    o->sentence);
    opfor_vk_state_t *st = malloc(sizeof *st);
    if (!st)
        return fail(e, OPFOR_RPC_E_INTERNAL, "out of memory");
    uint8_t status[OPFOR_MAX_UNITS];
    int was[OPFOR_MAX_UNITS], alive[OPFOR_MAX_UNITS];
    uint16_t fflags[OPFOR_MAX_FIGURES];
    for (int u = 0; u < t->nunits; u++) {
        status[u] = t->units[u].status;
        was[u] = opfor__vkg_in_play(t, u);
        alive[u] = opfor__vkg_alive(t, u, NULL);
    }
    for (int i = 0; i < t->nfigures; i++)
        fflags[i] = t->figures[i].flags;
    /* the unit has acted already in the table; the engine must see it ready */
    opfor__vkg_table_t *copy = malloc(sizeof *copy);
    if (!copy) {
        free(st);
        return fail(e, OPFOR_RPC_E_INTERNAL, "out of memory");
    }
    memcpy(copy, t, sizeof *copy);
    copy->units[o->select.unit].flags &= (uint16_t)~OPFOR_UNIT_ACTED;
    opfor__vkg_engine_state(g, copy, st, opfor__vkg_decision_seed(g, o->decision), g->enemy);
    free(copy);
    char evbuf[TEXT_MAX];
    evbuf[0] = '\0';
    opfor_vk_events_t vev = {evbuf, sizeof evbuf, 0, 0};
    int moving = kind == OPFOR_VK_ADVANCE || kind == OPFOR_VK_RUN || kind == OPFOR_VK_CRAWL;
    opfor_vk_state_t *st0 = NULL; /* the state the move is made from, for close_ups */
    int rc = opfor_vk_apply(g->ctx, st, &o->select, NULL);
    if (rc == 0) {
        opfor__vkg_force_command(st, o->command); /* as the order was given */
        if (moving && (st0 = malloc(sizeof *st0)) != NULL)
            memcpy(st0, st, sizeof *st0);
        opfor_vk_move_result_t mr;
        rc = moving ? opfor_vk_apply_move(g->ctx, st, &o->action, move_roll, &vev, &mr)
                    : opfor_vk_apply(g->ctx, st, &o->action, &vev);
        if (rc == 0 && st0)
            close_ups(st0, st, o->action.unit, &mr, r);
    }
    free(st0);
    if (rc != 0) {
        free(st);
        return fail(e, OPFOR_RPC_E_ILLEGAL,
                    "resolve: the order no longer fits the table (%s): report its outcome "
                    "instead",
                    opfor_strerror(rc));
    }
    opfor_vk_action_t acts[OPFOR_VK_MAX_ACTIONS];
    for (int step = 0; step < 16; step++) {
        int ph = st->phase;
        if (ph == OPFOR_VK_PH_INITIATIVE || ph == OPFOR_VK_PH_START_TURN ||
            ph == OPFOR_VK_PH_OVER || ph == OPFOR_VK_PH_SELECT_UNIT)
            break;
        int n = opfor_vk_legal(g->ctx, st, acts, OPFOR_VK_MAX_ACTIONS);
        if (n <= 0)
            break;
        int k = 0;
        for (int i = 0; i < n && ph == OPFOR_VK_PH_REACTION; i++)
            if (acts[i].kind == OPFOR_VK_REACT_STAND) {
                k = i;
                break;
            }
        if (opfor_vk_apply(g->ctx, st, &acts[k], &vev) != 0)
            break;
    }
    opfor__vkg_take_engine(g, t, st);
    free(st);
    t->units[o->select.unit].flags |= OPFOR_UNIT_ACTED;
    o->resolved = 1;
    o->open = 0;
    r->resolved = 1;
    add_text(r, "%s", o->sentence);
    for (char *save = NULL, *line = strtok_r(evbuf, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save))
        add_text(r, "%s", line);
    for (int k = 0; k < r->nclose; k++)
        add_text(r, "%s closes up (VIII): figure %d, at x %.1f y %.1f, goes to x %.1f y %.1f",
                 t->units[r->close[k].unit].name, r->close[k].figure, (double)r->close[k].from.x,
                 (double)r->close[k].from.y, (double)r->close[k].to.x, (double)r->close[k].to.y);
    /* What the table must take off, counted on the figures. The engine's line counts shots:
       a figure wounded by one shot and killed by a later one (fire aims at the wounded) is in
       both its "wounded" and its "killed", and a wound on a wounded figure kills it (IX); so
       "2 wounded, 2 killed" may leave 0 wounded. Each unit's line here is what it lost. */
    for (int u = 0; u < t->nunits && r->ncas < MAX_ITEMS; u++) {
        const opfor_unit_t *un = &t->units[u];
        int now = opfor__vkg_alive(t, u, NULL), hurt = 0;
        for (int i = un->first; i < un->first + un->count && i < t->nfigures; i++)
            hurt += (t->figures[i].flags & OPFOR_FIG_ALIVE) &&
                    (t->figures[i].flags & OPFOR_FIG_WOUNDED) && !(fflags[i] & OPFOR_FIG_WOUNDED);
        if (now >= alive[u] && !hurt)
            continue;
        item_t *it = &r->cas[r->ncas++];
        it->unit = u;
        it->a = alive[u] > now ? alive[u] - now : 0;
        it->b = hurt;
        add_text(r, "%s: %d killed, %d wounded; %d of %d left%s", un->name, it->a, it->b, now,
                 un->strength, now == 0 ? " (destroyed)" : "");
    }
    for (int u = 0; u < t->nunits; u++) {
        int res = -1;
        if (was[u] && !opfor__vkg_in_play(t, u) && (t->units[u].flags & OPFOR_UNIT_OFF_TABLE))
            res = MR_ROUTED;
        else if (t->units[u].status != status[u])
            res = t->units[u].status == OPFOR_WAVERING ? MR_WAVERING : MR_SOLID;
        if (res < 0)
            continue;
        msgpack_packer pk;
        opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "morale");
        msgpack_pack_map(&pk, 2);
        opfor_rpc_pack_cstr(&pk, "unit");
        opfor_rpc_pack_cstr(&pk, t->units[u].name);
        opfor_rpc_pack_cstr(&pk, "result");
        opfor_rpc_pack_cstr(&pk, MORALE[res]);
    }
    return 0;
}

static void pack_items_unit(msgpack_packer *pk, const opfor__vkg_table_t *t, const item_t *it) {
    opfor_rpc_pack_cstr(pk, "unit");
    opfor_rpc_pack_cstr(pk, t->units[it->unit].name);
}

/* XI: a unit that lost figures checks morale. The players' report of killing figures of an
 * enemy unit still in play owes its test, unless the same report gives its morale result;
 * the table rolls it (the roll with the unit's check-boxes as they stand now). */
static void morale_owed(const opfor__vkg_t *g, const opfor__vkg_table_t *t, rep_t *r) {
    if (!g->ctx)
        return;
    opfor_vk_state_t *st = NULL;
    for (int i = 0; i < r->ncas && r->nowed < MAX_ITEMS; i++) {
        int u = r->cas[i].unit, dup = 0;
        if (r->cas[i].a <= 0 || t->units[u].side != g->enemy || !opfor__vkg_in_play(t, u) ||
            opfor__vkg_alive(t, u, NULL) == 0)
            continue;
        for (int k = 0; k < r->nmor; k++)
            dup |= r->mor[k].unit == u;
        for (int k = 0; k < r->nowed; k++)
            dup |= r->owed[k].unit == u;
        if (dup)
            continue;
        if (!st) {
            st = malloc(sizeof *st);
            if (!st)
                return;
            opfor__vkg_engine_state(g, t, st, 0, g->enemy);
        }
        opfor_vk_morale_owed_t mo;
        if (opfor_vk_table_morale_owed(g->ctx, st, u, "report the result (morale)", &mo) != 0)
            continue; /* only equipment left: transport never checks (XI) */
        int k = r->nowed++;
        r->owed[k].unit = u;
        r->owed[k].bits = mo.bits;
        r->owed[k].melee = mo.melee;
        snprintf(r->owed[k].need, sizeof r->owed[k].need, "%s", mo.need);
        add_text(r, "%s", mo.text);
    }
    free(st);
}

static void ev_report(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                      opfor__evlist_t *ev, const rep_t *r) {
    msgpack_packer pk;
    opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "report");
    msgpack_pack_map(&pk, 10);
    opfor_rpc_pack_cstr(&pk, "close_up"); /* stragglers walked back after a resolved move */
    msgpack_pack_array(&pk, (size_t)r->nclose);
    for (int i = 0; i < r->nclose; i++) {
        msgpack_pack_map(&pk, 4);
        opfor_rpc_pack_cstr(&pk, "unit");
        opfor_rpc_pack_cstr(&pk, t->units[r->close[i].unit].name);
        opfor_rpc_pack_cstr(&pk, "figure");
        msgpack_pack_int(&pk, r->close[i].figure);
        opfor_rpc_pack_cstr(&pk, "from");
        opfor__vkg_pack_pt(&pk, r->close[i].from);
        opfor_rpc_pack_cstr(&pk, "at");
        opfor__vkg_pack_pt(&pk, r->close[i].to);
    }
    opfor_rpc_pack_cstr(&pk, "morale_owed"); /* tests the table rolls now (XI), issue 15 */
    msgpack_pack_array(&pk, (size_t)r->nowed);
    for (int i = 0; i < r->nowed; i++) {
        static const char *const boxes[4] = {"half_strength", "colours", "musician", "general"};
        int nb = 0;
        for (int b = 0; b < 4; b++)
            nb += (r->owed[i].bits >> b) & 1;
        msgpack_pack_map(&pk, 5);
        opfor_rpc_pack_cstr(&pk, "unit");
        opfor_rpc_pack_cstr(&pk, t->units[r->owed[i].unit].name);
        opfor__kv_str(&pk, "dice", "2D6");
        opfor__kv_str(&pk, "need", r->owed[i].need);
        opfor__kv_str(&pk, "fail", r->owed[i].melee ? "flees" : "wavering");
        opfor_rpc_pack_cstr(&pk, "boxes"); /* the check-boxes that count for it */
        msgpack_pack_array(&pk, (size_t)nb);
        for (int b = 3; b >= 0; b--)
            if ((r->owed[i].bits >> b) & 1)
                opfor_rpc_pack_cstr(&pk, boxes[b]);
    }
    opfor_rpc_pack_cstr(&pk, "kind");
    opfor_rpc_pack_cstr(&pk, r->acted >= 0 ? "acted"
                             : r->resolved ? "resolve"
                             : r->rolled && !r->nmoves && !r->ncas && !r->nmor && !r->noff
                                 ? "roll"
                                 : "report");
    opfor_rpc_pack_cstr(&pk, "acted");
    if (r->acted >= 0)
        opfor_rpc_pack_cstr(&pk, t->units[r->acted].name);
    else
        msgpack_pack_nil(&pk);
    opfor_rpc_pack_cstr(&pk, "moves");
    msgpack_pack_array(&pk, (size_t)r->nmoves + (r->has_at ? 1 : 0));
    if (r->has_at) {
        msgpack_pack_map(&pk, 2);
        opfor_rpc_pack_cstr(&pk, "unit");
        opfor_rpc_pack_cstr(&pk, t->units[r->acted].name);
        opfor_rpc_pack_cstr(&pk, "at");
        opfor__vkg_pack_pt(&pk, r->at);
    }
    for (int i = 0; i < r->nmoves; i++) {
        msgpack_pack_map(&pk, 2);
        pack_items_unit(&pk, t, &r->moves[i]);
        opfor_rpc_pack_cstr(&pk, "at");
        opfor__vkg_pack_pt(&pk, r->moves[i].p);
    }
    opfor_rpc_pack_cstr(&pk, "casualties");
    msgpack_pack_array(&pk, (size_t)r->ncas);
    for (int i = 0; i < r->ncas; i++) {
        msgpack_pack_map(&pk, 4);
        pack_items_unit(&pk, t, &r->cas[i]);
        opfor_rpc_pack_cstr(&pk, "killed");
        msgpack_pack_int(&pk, r->cas[i].a);
        opfor_rpc_pack_cstr(&pk, "wounded");
        msgpack_pack_int(&pk, r->cas[i].b);
        opfor_rpc_pack_cstr(&pk, "alive");
        msgpack_pack_int(&pk, opfor__vkg_alive(t, r->cas[i].unit, NULL));
    }
    opfor_rpc_pack_cstr(&pk, "morale");
    msgpack_pack_array(&pk, (size_t)r->nmor);
    for (int i = 0; i < r->nmor; i++) {
        msgpack_pack_map(&pk, 2);
        pack_items_unit(&pk, t, &r->mor[i]);
        opfor_rpc_pack_cstr(&pk, "result");
        opfor_rpc_pack_cstr(&pk, MORALE[r->mor[i].a]);
    }
    opfor_rpc_pack_cstr(&pk, "off_table");
    msgpack_pack_array(&pk, (size_t)r->noff);
    for (int i = 0; i < r->noff; i++) {
        msgpack_pack_map(&pk, 2);
        pack_items_unit(&pk, t, &r->off[i]);
        opfor_rpc_pack_cstr(&pk, "fate");
        opfor_rpc_pack_cstr(&pk,
                            r->off[i].a == OPFOR_PATROL_FATE_CAPTURED ? "captured" : "driven_off");
    }
    opfor_rpc_pack_cstr(&pk, "roll");
    if (r->rolled) {
        msgpack_pack_map(&pk, 4);
        opfor_rpc_pack_cstr(&pk, "dice");
        opfor_rpc_pack_cstr(&pk, r->dice);
        opfor_rpc_pack_cstr(&pk, "total");
        msgpack_pack_int(&pk, r->total);
        opfor_rpc_pack_cstr(&pk, "faces"); /* each die, in the order of the dice */
        msgpack_pack_array(&pk, (size_t)r->nfaces);
        for (int i = 0; i < r->nfaces; i++)
            msgpack_pack_int(&pk, r->faces[i]);
        opfor_rpc_pack_cstr(&pk, "bonus"); /* the constant added to the dice */
        msgpack_pack_int(&pk, r->bonus);
    } else {
        msgpack_pack_nil(&pk);
    }
    opfor_rpc_pack_cstr(&pk, "text");
    int nlines = 0;
    for (const char *c = r->text; *c; c++)
        nlines += *c == '\n';
    nlines += r->text[0] != '\0';
    msgpack_pack_array(&pk, (size_t)nlines);
    for (const char *c = r->text; *c;) {
        const char *end = strchr(c, '\n');
        size_t n = end ? (size_t)(end - c) : strlen(c);
        msgpack_pack_str(&pk, n);
        msgpack_pack_str_body(&pk, c, n);
        c += n + (end ? 1 : 0);
    }
}

/* ------------------------------------------------------------------ counting once */

int opfor__vkg_order_current(const opfor__vkg_table_t *t) {
    return t->order.active && t->order.log_seq > t->undo.last_press;
}

void opfor__vkg_hist_note(opfor__vkg_table_t *t, uint64_t seq, const char *kind, const char *what) {
    opfor__vkg_hist_t *h = &t->hist[seq % OPFOR__HIST];
    memset(h, 0, sizeof *h);
    h->seq = seq;
    snprintf(h->kind, sizeof h->kind, "%s", kind);
    what = what ? what : "";
    size_t n = strlen(what);
    if (n < sizeof h->what) {
        memcpy(h->what, what, n + 1);
        return;
    }
    /* too long (an order's sentence): cut after a whole word, never inside a word or a
       number, and say so with "..." */
    n = sizeof h->what - 4;
    while (n > 0 && what[n] != ' ')
        n--;
    while (n > 0 && strchr(" ,;:", what[n - 1]))
        n--;
    if (n == 0) /* one long word */
        n = sizeof h->what - 4;
    snprintf(h->what, sizeof h->what, "%.*s...", (int)n, what);
}

void opfor__vkg_undo_barrier(opfor__vkg_table_t *t, uint64_t seq, const char *kind) {
    opfor__vkg_undo_t *u = &t->undo;
    if (kind[0] == 'p')
        u->last_press = seq;
    if (u->report) {
        u->report = 0;
        u->barrier = seq;
        snprintf(u->barrier_kind, sizeof u->barrier_kind, "%s", kind);
    }
}

/* "entry 13 report (Fusiliers: 2 killed ...); entry 14 press (...)" for the entries of t
 * after log entry since, oldest first, as far as t remembers. */
static void changes_since(const opfor__vkg_table_t *t, uint64_t since, char *buf, size_t n) {
    size_t len = 0;
    buf[0] = '\0';
    uint64_t from = t->log_seq > OPFOR__HIST ? t->log_seq - OPFOR__HIST + 1 : 1;
    if (from <= since)
        from = since + 1;
    if (from > since + 1 && len < n)
        len += (size_t)snprintf(buf + len, n - len, "%llu earlier entr%s, then ",
                                (unsigned long long)(from - since - 1),
                                from - since - 1 == 1 ? "y" : "ies");
    for (uint64_t s = from; s <= t->log_seq && len < n; s++) {
        const opfor__vkg_hist_t *h = &t->hist[s % OPFOR__HIST];
        if (h->seq != s)
            continue;
        len += (size_t)snprintf(buf + len, n - len, "%sentry %llu %s%s%s%s", s > from ? "; " : "",
                                (unsigned long long)s, h->kind, h->what[0] ? " (" : "", h->what,
                                h->what[0] ? ")" : "");
    }
}

/* Whether a report with these params answers the order (gives its outcome). */
static int answers_order(const msgpack_object *params) {
    static const char *const keys[] = {"moves", "casualties", "morale", "off_table", NULL};
    for (int i = 0; keys[i]; i++) {
        const msgpack_object *v = opfor_rpc_params_get(params, keys[i]);
        if (v && v->type == MSGPACK_OBJECT_ARRAY && v->via.array.size)
            return 1;
    }
    const msgpack_object *v = opfor_rpc_params_get(params, "resolve");
    return v && v->type == MSGPACK_OBJECT_BOOLEAN && v->via.boolean;
}

/* Reads an optional sequence number at key: 1 with *out, 0 when absent, or a negative code. */
static int get_seq(const msgpack_object *params, const char *key, uint64_t *out, opfor__gerr_t *e) {
    const msgpack_object *v = opfor_rpc_params_get(params, key);
    if (!v || v->type == MSGPACK_OBJECT_NIL)
        return 0;
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                    "%s: must be a log sequence number (a whole number, 0 or more)", key);
    *out = v->via.u64;
    return 1;
}

/* Refuses a second answer to order o, naming the report that answered it. */
static int already_answered(const opfor__vkg_table_t *t, const char *why, opfor__gerr_t *e) {
    const opfor__vkg_order_t *o = &t->order;
    const opfor__vkg_hist_t *h = &t->hist[o->answered_by % OPFOR__HIST];
    const char *unit = o->unit >= 0 && o->unit < t->nunits ? t->units[o->unit].name : "?";
    opfor_rpc_hint_set(&e->hint, OPFOR_RPC_HINT_ALREADY_ANSWERED);
    opfor_rpc_hint_int(&e->hint, "order", (int64_t)o->log_seq);
    opfor_rpc_hint_int(&e->hint, "report", (int64_t)o->answered_by);
    opfor_rpc_hint_int(&e->hint, "turn", o->answered_turn);
    return fail(e, OPFOR_RPC_E_ILLEGAL,
                "%sthe order of entry %llu (%s) was already answered by the report of entry "
                "%llu, turn %d%s%s%s: it is not counted twice (undo that report first to "
                "report the order again)",
                why, (unsigned long long)o->log_seq, unit, (unsigned long long)o->answered_by,
                (int)o->answered_turn, h->seq == o->answered_by && h->what[0] ? ": \"" : "",
                h->seq == o->answered_by ? h->what : "",
                h->seq == o->answered_by && h->what[0] ? "\"" : "");
}

int opfor__vkg_report_check(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                            const msgpack_object *params, opfor__gerr_t *e) {
    uint64_t seen = 0, order = 0;
    int has_seen = get_seq(params, "seen", &seen, e);
    if (has_seen < 0)
        return has_seen;
    int has_order = get_seq(params, "order", &order, e);
    if (has_order < 0)
        return has_order;
    const opfor__vkg_order_t *o = &t->order;
    const int current = opfor__vkg_order_current(t), answers = answers_order(params);
    if (has_seen && seen != t->log_seq) {
        char what[OPFOR__HIST * 100];
        opfor_rpc_hint_set(&e->hint, OPFOR_RPC_HINT_STALE_STATE);
        opfor_rpc_hint_int(&e->hint, "seen", (int64_t)seen);
        opfor_rpc_hint_int(&e->hint, "log_seq", (int64_t)t->log_seq);
        if (seen > t->log_seq)
            return fail(e, OPFOR_RPC_E_ILLEGAL,
                        "seen: entry %llu is not in this game's log (it has %llu entries)",
                        (unsigned long long)seen, (unsigned long long)t->log_seq);
        changes_since(t, seen, what, sizeof what);
        return fail(e, OPFOR_RPC_E_ILLEGAL,
                    "seen: the report answers the game as it stood at entry %llu, but it has "
                    "changed since (%s): look at the table again and report what is still to "
                    "report",
                    (unsigned long long)seen, what);
    }
    if (has_order) {
        if (!o->active || o->log_seq != order) {
            opfor_rpc_hint_set(&e->hint, OPFOR_RPC_HINT_STALE_STATE);
            opfor_rpc_hint_int(&e->hint, "seen", (int64_t)order);
            opfor_rpc_hint_int(&e->hint, "log_seq", (int64_t)t->log_seq);
            if (!o->active)
                return fail(e, OPFOR_RPC_E_ILLEGAL,
                            "order: no order of entry %llu: no order was given in this game yet",
                            (unsigned long long)order);
            return fail(e, OPFOR_RPC_E_ILLEGAL,
                        "order: the order of entry %llu is not the last order (that is entry "
                        "%llu, %s): report the order the table carried out",
                        (unsigned long long)order, (unsigned long long)o->log_seq, o->sentence);
        }
        if (!current) {
            opfor_rpc_hint_set(&e->hint, OPFOR_RPC_HINT_STALE_STATE);
            opfor_rpc_hint_int(&e->hint, "seen", (int64_t)order);
            opfor_rpc_hint_int(&e->hint, "log_seq", (int64_t)t->log_seq);
            return fail(e, OPFOR_RPC_E_ILLEGAL,
                        "order: the order of entry %llu is closed: the initiative button was "
                        "pressed after it (entry %llu)",
                        (unsigned long long)order, (unsigned long long)t->undo.last_press);
        }
        if (o->answered_by && answers)
            return already_answered(t, "order: ", e);
    }
    if (current && o->answered_by && answers) {
        /* resolve settles the whole order: never on top of what the table reported */
        const msgpack_object *rv = opfor_rpc_params_get(params, "resolve");
        if (rv && rv->type == MSGPACK_OBJECT_BOOLEAN && rv->via.boolean)
            return already_answered(t, "resolve: ", e);
        /* no number (an older client): accepted only while nothing answered the order */
        if (!has_seen && !has_order)
            return already_answered(t, "", e);
    }
    return 0;
}

int opfor__vkg_undo(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                    const msgpack_object *params, opfor__evlist_t *ev, opfor__gerr_t *e) {
    static const char *const keys[] = {"game", "report", NULL};
    opfor__vkg_undo_t *u = &t->undo;
    uint64_t want = 0;
    int has_want = 0;
    if (params && params->type == MSGPACK_OBJECT_MAP) {
        int rc = keys_ok(params, keys, "undo", e);
        if (rc < 0)
            return rc;
        if ((has_want = get_seq(params, "report", &want, e)) < 0)
            return has_want;
    }
    if (t->status != OPFOR__GS_ACTIVE)
        return fail(e, OPFOR_RPC_E_ILLEGAL, "undo: the game is %s: nothing can be taken back",
                    t->status == OPFOR__GS_CLOSED ? "closed" : "over");
    opfor_rpc_hint_t *h = &e->hint;
    if (!u->report) {
        opfor_rpc_hint_set(h, OPFOR_RPC_HINT_NOTHING_TO_UNDO);
        if (!u->last_report) {
            opfor_rpc_hint_str(h, "why", "no_report");
            return fail(e, OPFOR_RPC_E_ILLEGAL, "undo: nothing to undo: no report was made yet");
        }
        if (u->last_undo > u->last_report) {
            opfor_rpc_hint_str(h, "why", "undone");
            return fail(e, OPFOR_RPC_E_ILLEGAL,
                        "undo: nothing to undo: the last report (entry %llu) was already undone "
                        "at entry %llu",
                        (unsigned long long)u->last_report, (unsigned long long)u->last_undo);
        }
        opfor_rpc_hint_str(h, "why", u->barrier_kind);
        return fail(e, OPFOR_RPC_E_ILLEGAL,
                    "undo: nothing to undo: %s after the last report (entry %llu, %s "
                    "entry %llu); a report can be undone only until the next press or order",
                    strcmp(u->barrier_kind, "order") == 0 ? "an order came"
                                                          : "the initiative button was pressed",
                    (unsigned long long)u->last_report, u->barrier_kind,
                    (unsigned long long)u->barrier);
    }
    if (has_want && want != u->report)
        return fail(e, OPFOR_RPC_E_ILLEGAL,
                    "report: entry %llu is not the last report (that is entry %llu): only the "
                    "last report can be undone",
                    (unsigned long long)want, (unsigned long long)u->report);
    const uint64_t undone = u->report;
    t->pending = u->pending;
    t->rng = u->rng;
    t->ps = u->ps;
    t->order = u->order;
    t->weather[0] = u->weather[0];
    t->weather[1] = u->weather[1];
    memcpy(t->units, u->units, sizeof t->units);
    memcpy(t->figures, u->figures, sizeof t->figures);
    u->report = 0;
    u->last_undo = log_seq;
    char text[200];
    const opfor__vkg_hist_t *hr = &t->hist[undone % OPFOR__HIST];
    snprintf(text, sizeof text, "the report of entry %llu is taken back%s%s%s",
             (unsigned long long)undone, hr->seq == undone && hr->what[0] ? ": \"" : "",
             hr->seq == undone ? hr->what : "", hr->seq == undone && hr->what[0] ? "\"" : "");
    msgpack_packer pk;
    opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "undo");
    msgpack_pack_map(&pk, 3);
    opfor_rpc_pack_cstr(&pk, "report");
    msgpack_pack_uint64(&pk, undone);
    opfor_rpc_pack_cstr(&pk, "pending");
    opfor_rpc_pack_cstr(&pk, opfor__vkg_pending_name(t->pending));
    opfor_rpc_pack_cstr(&pk, "text");
    opfor_rpc_pack_cstr(&pk, text);
    opfor__vkg_ev_score(g, t, log_seq, ev);
    char what[80];
    snprintf(what, sizeof what, "took back entry %llu", (unsigned long long)undone);
    opfor__vkg_hist_note(t, log_seq, "undo", what);
    t->log_seq = log_seq;
    return 0;
}

int opfor__vkg_report(const opfor__vkg_t *g, opfor__vkg_table_t *t, uint64_t log_seq,
                      const msgpack_object *params, opfor__evlist_t *ev, opfor__gerr_t *e) {
    static const char *const top[] = {"game",   "acted",     "at",        "moves",   "casualties",
                                      "morale", "off_table", "roll",      "resolve", "note",
                                      "order",  "seen",      "move_roll", "weather", NULL};
    static const char *const k_move[] = {"unit", "x", "y", "at", NULL};
    static const char *const k_cas[] = {"unit", "killed", "wounded", NULL};
    static const char *const k_mor[] = {"unit", "result", NULL};
    static const char *const k_off[] = {"unit", "fate", NULL};
    int rc = keys_ok(params, top, "report", e);
    if (rc < 0)
        return rc;
    if (t->status != OPFOR__GS_ACTIVE)
        return fail(e, OPFOR_RPC_E_ILLEGAL, "the game is %s: it takes no more reports",
                    t->status == OPFOR__GS_CLOSED ? "closed" : "over");
    rep_t *r = calloc(1, sizeof *r);
    if (!r)
        return fail(e, OPFOR_RPC_E_INTERNAL, "out of memory");
    r->acted = -1;
    /* what this report may change, for an undo (a failed report leaves t garbage anyway) */
    opfor__vkg_undo_t *ud = &t->undo;
    ud->pending = t->pending;
    ud->rng = t->rng;
    ud->ps = t->ps;
    ud->order = t->order;
    ud->weather[0] = t->weather[0];
    ud->weather[1] = t->weather[1];
    memcpy(ud->units, t->units, sizeof ud->units);
    memcpy(ud->figures, t->figures, sizeof ud->figures);
    const int current = opfor__vkg_order_current(t);
    char path[64], why[160];
    int any = 0;
    const msgpack_object *v;

    /* note: free text, kept in the log only */
    v = opfor_rpc_params_get(params, "note");
    if (v && (v->type != MSGPACK_OBJECT_STR || v->via.str.size > 500)) {
        rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS, "note: must be text of at most 500 bytes");
        goto out;
    }

    /* acted (+ at): the player unit that used the initiative */
    v = opfor_rpc_params_get(params, "acted");
    const msgpack_object *at = opfor_rpc_params_get(params, "at");
    if (at && !v) {
        opfor_rpc_hint_set(&e->hint, OPFOR_RPC_HINT_AT_NEEDS_ACTED);
        rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                  "at: goes with `acted` (use moves: [{unit, x, y}] for other units)");
        goto out;
    }
    if (v) {
        int u;
        if ((rc = get_unit(t, v, "acted", e, &u)) < 0)
            goto out;
        if (t->pending != OPFOR__PEND_PLAYER) {
            opfor_rpc_hint_set(&e->hint, OPFOR_RPC_HINT_PRESS_FIRST);
            opfor_rpc_hint_str(&e->hint, "side", g->sc->sides[g->player].name);
            rc = fail(e, OPFOR_RPC_E_ILLEGAL,
                      "acted: no initiative of the %s is waiting (press the initiative button "
                      "first)",
                      g->sc->sides[g->player].name);
            goto out;
        }
        if (t->units[u].side != g->player || !opfor__vkg_in_play(t, u)) {
            rc = fail(e, OPFOR_RPC_E_ILLEGAL, "acted: %s is not a unit of the %s on the table",
                      t->units[u].name, g->sc->sides[g->player].name);
            goto out;
        }
        if (t->units[u].flags & OPFOR_UNIT_ACTED) {
            rc = fail(e, OPFOR_RPC_E_ILLEGAL, "acted: %s has already acted this turn",
                      t->units[u].name);
            goto out;
        }
        if (at) {
            if ((rc = get_point(g, at, "at", e, &r->at)) < 0)
                goto out;
            if ((rc = move_unit(g, t, u, r->at, "at", e)) < 0)
                goto out;
            r->has_at = 1;
        }
        t->units[u].flags |= OPFOR_UNIT_ACTED;
        t->pending = OPFOR__PEND_NONE;
        r->acted = u;
        add_text(r, "%s acted", t->units[u].name);
        any = 1;
    }

    /* moves */
    v = list_of(params, "moves", e, &rc);
    if (rc < 0)
        goto out;
    for (uint32_t i = 0; v && i < v->via.array.size; i++) {
        const msgpack_object *m = &v->via.array.ptr[i];
        item_t *it = &r->moves[r->nmoves];
        if ((rc = entry_unit(t, m, "moves", i, k_move, path, sizeof path, e, &it->unit)) < 0)
            goto out;
        const msgpack_object *pt = opfor_rpc_params_get(m, "at");
        rc = pt ? get_point(g, pt, path, e, &it->p) : get_point(g, m, path, e, &it->p);
        if (rc < 0)
            goto out;
        if ((rc = on_table(t, it->unit, path, e)) < 0)
            goto out;
        /* the move of the order it answers: the figures change as the order's move changes
           them (a crawl dismounts), then stand where the table put them */
        if (g->rules >= 2 && current && t->order.active && t->order.unit == it->unit)
            order_move_flags(t, it->unit, t->order.action.kind);
        if ((rc = move_unit(g, t, it->unit, it->p, path, e)) < 0)
            goto out;
        add_text(r, "%s moved to x %.1f, y %.1f", t->units[it->unit].name, (double)it->p.x,
                 (double)it->p.y);
        r->nmoves++;
        any = 1;
    }

    /* casualties */
    v = list_of(params, "casualties", e, &rc);
    if (rc < 0)
        goto out;
    for (uint32_t i = 0; v && i < v->via.array.size; i++) {
        const msgpack_object *m = &v->via.array.ptr[i];
        item_t *it = &r->cas[r->ncas];
        if ((rc = entry_unit(t, m, "casualties", i, k_cas, path, sizeof path, e, &it->unit)) < 0)
            goto out;
        if ((rc = get_count(m, "killed", path, &it->a, e)) < 0 ||
            (rc = get_count(m, "wounded", path, &it->b, e)) < 0)
            goto out;
        const char *name = t->units[it->unit].name;
        int alive = opfor__vkg_alive(t, it->unit, NULL);
        if (it->a > alive) {
            rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s.killed: %d, but %s has %d figure%s alive",
                      path, it->a, name, alive, alive == 1 ? "" : "s");
            goto out;
        }
        casualties(t, it->unit, it->a, 0);
        int fit = unwounded(t, it->unit);
        if (it->b > fit) {
            rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                      "%s.wounded: %d, but %s has %d unwounded figure%s left", path, it->b, name,
                      fit, fit == 1 ? "" : "s");
            goto out;
        }
        casualties(t, it->unit, 0, it->b);
        int left = opfor__vkg_alive(t, it->unit, NULL);
        add_text(r, "%s: %d killed, %d wounded; %d of %d left%s", name, it->a, it->b, left,
                 t->units[it->unit].strength, left == 0 ? " (destroyed)" : "");
        r->ncas++;
        any = 1;
    }

    /* morale results */
    v = list_of(params, "morale", e, &rc);
    if (rc < 0)
        goto out;
    for (uint32_t i = 0; v && i < v->via.array.size; i++) {
        const msgpack_object *m = &v->via.array.ptr[i];
        item_t *it = &r->mor[r->nmor];
        if ((rc = entry_unit(t, m, "morale", i, k_mor, path, sizeof path, e, &it->unit)) < 0)
            goto out;
        const msgpack_object *res = opfor_rpc_params_get(m, "result");
        it->a = -1;
        for (int k = 0; res && res->type == MSGPACK_OBJECT_STR && k < MR_COUNT; k++)
            if (strlen(MORALE[k]) == res->via.str.size &&
                strncasecmp(MORALE[k], res->via.str.ptr, res->via.str.size) == 0)
                it->a = k;
        if (it->a < 0) {
            rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                      "%s.result: must be solid, wavering, routed or surrendered", path);
            goto out;
        }
        if ((rc = on_table(t, it->unit, path, e)) < 0)
            goto out;
        opfor_unit_t *un = &t->units[it->unit];
        if (it->a == MR_SOLID || it->a == MR_WAVERING) {
            un->status = (uint8_t)(it->a == MR_SOLID ? OPFOR_SOLID : OPFOR_WAVERING);
        } else {
            un->flags |= OPFOR_UNIT_OFF_TABLE;
            if (g->mode == OPFOR_MODE_COOP)
                t->ps.fate[it->unit] = (uint8_t)(it->a == MR_ROUTED ? OPFOR_PATROL_FATE_DRIVEN_OFF
                                                                    : OPFOR_PATROL_FATE_CAPTURED);
        }
        add_text(r, "%s: %s", un->name, MORALE[it->a]);
        r->nmor++;
        any = 1;
    }

    /* units off the table */
    v = list_of(params, "off_table", e, &rc);
    if (rc < 0)
        goto out;
    for (uint32_t i = 0; v && i < v->via.array.size; i++) {
        const msgpack_object *m = &v->via.array.ptr[i];
        item_t *it = &r->off[r->noff];
        if ((rc = entry_unit(t, m, "off_table", i, k_off, path, sizeof path, e, &it->unit)) < 0)
            goto out;
        char fate[24] = "driven_off";
        if (opfor_rpc_params_str(m, "fate", fate, sizeof fate, why, sizeof why) == OPFOR_EINVAL ||
            (strcasecmp(fate, "driven_off") != 0 && strcasecmp(fate, "captured") != 0)) {
            rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS, "%s.fate: must be driven_off or captured",
                      path);
            goto out;
        }
        if ((rc = on_table(t, it->unit, path, e)) < 0)
            goto out;
        it->a = strcasecmp(fate, "captured") == 0 ? OPFOR_PATROL_FATE_CAPTURED
                                                  : OPFOR_PATROL_FATE_DRIVEN_OFF;
        t->units[it->unit].flags |= OPFOR_UNIT_OFF_TABLE;
        if (g->mode == OPFOR_MODE_COOP)
            t->ps.fate[it->unit] = (uint8_t)it->a;
        add_text(r, "%s %s", t->units[it->unit].name,
                 it->a == OPFOR_PATROL_FATE_CAPTURED ? "is captured" : "has left the table");
        r->noff++;
        any = 1;
    }

    /* resolve: the daemon's dice settle the open order */
    int flag = 0;
    v = opfor_rpc_params_get(params, "resolve");
    if (v && opfor_rpc_params_bool(params, "resolve", &flag, why, sizeof why) < 0) {
        rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS, "resolve: must be true or false");
        goto out;
    }
    /* move_roll: the D3 the table rolled for the order's move, which resolve then uses */
    int64_t move_roll = 0;
    if (opfor_rpc_params_get(params, "move_roll")) {
        if (opfor_rpc_params_int(params, "move_roll", 1, 3, &move_roll, why, sizeof why) < 0) {
            rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                      "move_roll: must be 1, 2 or 3 (the D3 the table rolled for the order's "
                      "move)");
            goto out;
        }
        if (!flag) {
            rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                      "move_roll: goes with resolve: true (the rules engine resolves the open "
                      "order, its move with the table's die)");
            goto out;
        }
    }
    if (flag) {
        if ((rc = resolve(g, t, r, log_seq, (int)move_roll, ev, e)) < 0)
            goto out;
        any = 1;
    }

    /* roll: any dice, from the game's own stream */
    v = opfor_rpc_params_get(params, "roll");
    if (v) {
        opfor_dice_t dice;
        opfor_diag_t d;
        opfor_diag_clear(&d);
        if (v->type != MSGPACK_OBJECT_STR || v->via.str.size >= sizeof r->dice) {
            rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS, "roll: must be dice such as \"2D6\"");
            goto out;
        }
        memcpy(r->dice, v->via.str.ptr, v->via.str.size);
        r->dice[v->via.str.size] = '\0';
        if (opfor_dice_parse(r->dice, &dice, &d) < 0) {
            rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS, "roll: '%s' is not dice (%s)", r->dice, d.msg);
            goto out;
        }
        /* each die shown: the same draws, the same total as opfor_dice_roll */
        r->total = opfor_dice_roll_each(&dice, &t->rng, r->faces,
                                        (int)(sizeof r->faces / sizeof r->faces[0]), &r->nfaces);
        r->bonus = dice.bonus;
        r->rolled = 1;
        char each[1100];
        size_t el = 0;
        each[0] = '\0';
        for (int i = 0; i < r->nfaces; i++)
            opfor_text_appendf(each, sizeof each, &el, "%s%d", i ? " + " : "", r->faces[i]);
        if (r->bonus)
            opfor_text_appendf(each, sizeof each, &el, " %c %d", r->bonus < 0 ? '-' : '+',
                               r->bonus < 0 ? -r->bonus : r->bonus);
        if (r->nfaces == 1 && !r->bonus)
            add_text(r, "rolled %s: %d", r->dice, r->total);
        else
            add_text(r, "rolled %s: %s = %d", r->dice, each, r->total);
        any = 1;
    }

    /* weather: the table's weather event (XIII) */
    v = opfor_rpc_params_get(params, "weather");
    if (v) {
        if ((rc = weather(g, t, v, r, e)) < 0)
            goto out;
        any = 1;
    }

    if (!any) {
        rc = fail(e, OPFOR_RPC_E_INVALID_PARAMS,
                  "report: nothing to report (give acted, moves, casualties, morale, off_table, "
                  "roll, resolve or weather)");
        goto out;
    }
    morale_owed(g, t, r);
    if (g->mode == OPFOR_MODE_COOP) {
        opfor_patrol_forces_t fo = opfor__vkg_forces(t);
        opfor_patrol_observe(g->cfg, &t->ps, &fo);
    }
    /* the first report that answers the current order answers it */
    opfor__vkg_order_t *o = &t->order;
    if (current && (r->nmoves || r->ncas || r->nmor || r->noff || r->resolved)) {
        if (!o->answered_by) {
            o->answered_by = log_seq;
            o->answered_turn = t->ps.turn;
        }
        for (int i = 0; i < r->nmoves; i++)
            o->answered_move |= r->moves[i].unit == o->unit; /* its move was reported */
        o->answered_move |= r->resolved;
    }
    ud->report = log_seq;
    ud->last_report = log_seq;
    {
        char what[320]; /* the text's first line; the note cuts it at a word */
        const char *nl = strchr(r->text, '\n');
        size_t n = nl ? (size_t)(nl - r->text) : strlen(r->text);
        snprintf(what, sizeof what, "%.*s", (int)(n < sizeof what ? n : sizeof what - 1), r->text);
        opfor__vkg_hist_note(t, log_seq, "report", what);
    }
    ev_report(g, t, log_seq, ev, r);
    for (int i = 0; i < r->nmor; i++) {
        msgpack_packer pk;
        opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "morale");
        msgpack_pack_map(&pk, 2);
        opfor_rpc_pack_cstr(&pk, "unit");
        opfor_rpc_pack_cstr(&pk, t->units[r->mor[i].unit].name);
        opfor_rpc_pack_cstr(&pk, "result");
        opfor_rpc_pack_cstr(&pk, MORALE[r->mor[i].a]);
    }
    if (r->weather) {
        msgpack_packer pk;
        opfor__vkg_ev_begin(ev, &pk, g, t, log_seq, "weather");
        msgpack_pack_map(&pk, 3);
        opfor__kv_int(&pk, "level", t->weather[0]);
        opfor__kv_str(&pk, "wind", opfor_vocab_name(opfor_compass_names, t->weather[1]));
        opfor__kv_int(&pk, "command_radius", opfor_viktoria_command_radius(t->weather[0]));
    }
    if (r->ncas || r->nmor || r->noff || r->resolved || r->acted >= 0 || r->nmoves)
        opfor__vkg_ev_score(g, t, log_seq, ev);
    opfor__vkg_check_end(g, t, log_seq, ev);
    t->log_seq = log_seq;
    rc = 0;
out:
    free(r);
    return rc;
}
