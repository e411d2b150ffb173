/* rulesets/viktoria/daemon/vk_game_forms.c — Viktoria!'s table session as typed forms
 * (opfor/form.h), so a generic client (the table page) plays it without knowing the ruleset.
 *
 * game.state's `actions` (the initiative button) and `reports` (acted, move, casualties, morale,
 * off_table, roll, resolve; weather where the scenario rolls weather events) are the same shape as
 * every ruleset's session forms, and a UNIT field's `values` lists only the units the rules allow
 * now. game.action and game.report map a form onto the daemon's own paths: the press (the
 * `initiative` method, which may need a worker for the director) and the `report` entry, checked by
 * opfor__vkg_report_check and applied by opfor__vkg_report exactly as a `report` call with the same
 * params, `seen` included (docs/protocol.md, "Viktoria! games as forms").
 */
#include "vk_game_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/form.h"
#include "pack_int.h"

/* ------------------------------------------------------------------ the forms */

static const char *const k_morale[] = {"solid", "wavering", "routed", "surrendered", NULL};
static const char *const k_fate[] = {"driven_off", "captured", NULL};

#define UNIT_FIELD(help)                                                                           \
    {                                                                                              \
        "unit", "Unit", help, OPFOR_FIELD_UNIT, OPFOR_FIELD_REQUIRED, 0, 0, 0, NULL, NULL, NULL,   \
            NULL, NULL, NULL                                                                       \
    }

static const opfor_field_t f_acted[] = {
    {"unit", "Unit that acted", "the players' unit that used the initiative", OPFOR_FIELD_UNIT,
     OPFOR_FIELD_REQUIRED, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL},
    {"at", "Where it stands now", "its centre, x,y in inches from the south-west corner",
     OPFOR_FIELD_POINT, OPFOR_FIELD_OPTIONAL, 0, 0, 0, NULL, NULL, "in", NULL, NULL, NULL},
};
static const opfor_field_t f_move[] = {
    UNIT_FIELD("a unit on the table"),
    {"at", "Where it stands now", "its centre, x,y in inches from the south-west corner",
     OPFOR_FIELD_POINT, OPFOR_FIELD_REQUIRED, 0, 0, 0, NULL, NULL, "in", NULL, NULL, NULL},
};
static const opfor_field_t f_casualties[] = {
    UNIT_FIELD("a unit with figures alive"),
    {"killed", "Figures killed", "the wounded go first, leaders last", OPFOR_FIELD_INT, 0, 0, 99, 0,
     NULL, NULL, NULL, NULL, NULL, NULL},
    {"wounded", "Figures newly wounded", "at most the unwounded left", OPFOR_FIELD_INT, 0, 0, 99, 0,
     NULL, NULL, NULL, NULL, NULL, NULL},
};
static const opfor_field_t f_morale[] = {
    UNIT_FIELD("the unit that tested its morale"),
    {"result", "Result", "routed leaves the table driven off; surrendered is captured",
     OPFOR_FIELD_CHOICE, OPFOR_FIELD_REQUIRED, 0, 0, 0, NULL, k_morale, NULL, NULL, NULL, NULL},
};
static const opfor_field_t f_off[] = {
    UNIT_FIELD("the unit that left the table"),
    {"fate", "How it left", "for the score", OPFOR_FIELD_CHOICE, 0, 0, 0, 0, "driven_off", k_fate,
     NULL, NULL, NULL, NULL},
};
static const opfor_field_t f_roll[] = {
    {"dice", "Dice", "dice for the daemon to roll from the game's own stream: 2D6, D6+1",
     OPFOR_FIELD_TEXT, 0, 0, 0, 0, "2D6", NULL, NULL, NULL, NULL, NULL},
};
static const opfor_field_t f_resolve[] = {
    {"move_roll", "Move roll (D3)",
     "the D3 the table rolled for the order's move; empty: the "
     "daemon rolls",
     OPFOR_FIELD_INT, OPFOR_FIELD_OPTIONAL, 1, 3, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

static const char *const k_wind[] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW", NULL};
static const opfor_field_t f_weather[] = {
    {"level", "Weather level", "1 (fine) to 5; empty: as it was", OPFOR_FIELD_INT,
     OPFOR_FIELD_OPTIONAL, 1, 5, 0, NULL, NULL, NULL, NULL, NULL, NULL},
    {"wind", "Wind", "the way it blows now; empty: as it was", OPFOR_FIELD_CHOICE,
     OPFOR_FIELD_OPTIONAL, 0, 0, 0, NULL, k_wind, NULL, NULL, NULL, NULL},
};

#define FORM(name, title, help, section, fields)                                                   \
    { name, title, help, section, fields, (int)(sizeof fields / sizeof fields[0]) }

static const opfor_form_t k_reports[] = {
    FORM("acted", "A unit of ours acted", "the players' unit that used the initiative", "XV.A",
         f_acted),
    FORM("move", "A unit moved", "one unit now stands elsewhere", "VIII", f_move),
    FORM("casualties", "Casualties", "figures killed and wounded", "IX", f_casualties),
    FORM("morale", "Morale", "the result of a morale test", "XI", f_morale),
    FORM("off_table", "Left the table", "a unit left the table", "XV.B", f_off),
    FORM("roll", "Roll dice", "the daemon rolls dice for the table", NULL, f_roll),
    FORM("resolve", "Resolve the AI's order", "the rules engine carries out the open order", NULL,
         f_resolve),
    /* last: listed only in a game that rolls weather events (weather_reports) */
    FORM("weather", "Weather event", "the weather the table's weather event gave", "XIII",
         f_weather),
};
static const opfor_form_t k_actions[] = {
    {"initiative", "Press for the initiative", "who acts next (a unit of either side)", "XV.A",
     NULL, 0},
};
#define NREPORTS ((int)(sizeof k_reports / sizeof k_reports[0]))

/* The reports game.state lists: the weather event only where the scenario rolls them (the
 * report itself refuses it elsewhere, saying so). */
static int listed_reports(const opfor__vkg_t *g) {
    return g->ctx && opfor_vk_ctx_options(g->ctx)->weather_events ? NREPORTS : NREPORTS - 1;
}
#define NACTIONS ((int)(sizeof k_actions / sizeof k_actions[0]))

/* Whether unit u may be named in field `unit` of form f now. */
static int unit_allowed(const opfor__vkg_t *g, const opfor__vkg_table_t *t, const opfor_form_t *f,
                        int u) {
    if (!opfor__vkg_in_play(t, u))
        return 0;
    if (strcmp(f->name, "acted") == 0)
        return t->status == OPFOR__GS_ACTIVE && t->pending == OPFOR__PEND_PLAYER &&
               t->units[u].side == g->player && !(t->units[u].flags & OPFOR_UNIT_ACTED);
    return 1;
}

typedef struct values_ud {
    const opfor__vkg_t *g;
    const opfor__vkg_table_t *t;
} values_ud_t;

static int pack_values(void *ud, const opfor_form_t *f, int k, msgpack_packer *pk) {
    const values_ud_t *v = ud;
    if (f->fields[k].type != OPFOR_FIELD_UNIT)
        return 0;
    int n = 0;
    for (int u = 0; u < v->t->nunits; u++)
        n += unit_allowed(v->g, v->t, f, u);
    msgpack_pack_array(pk, (size_t)n);
    for (int u = 0; u < v->t->nunits; u++)
        if (unit_allowed(v->g, v->t, f, u))
            opfor_rpc_pack_cstr(pk, v->t->units[u].name);
    return 1;
}

void opfor__vkg_pack_session(const opfor__vkg_t *g, const opfor__vkg_table_t *t,
                             msgpack_packer *pk) {
    values_ud_t ud = {g, t};
    opfor_rpc_pack_cstr(pk, "reports");
    opfor__pack_forms(pk, k_reports, listed_reports(g), pack_values, &ud);
    opfor_rpc_pack_cstr(pk, "actions");
    opfor__pack_forms(pk, k_actions, NACTIONS, pack_values, &ud);
    /* the AI gives an order while one of its units holds the initiative: an order given sets
       the initiative to nobody (vk_game_order.c), so this is false once it is given */
    opfor__kv_bool(pk, "ai_to_order",
                   t->status == OPFOR__GS_ACTIVE && t->pending == OPFOR__PEND_ENEMY);
    const int undo = t->status == OPFOR__GS_ACTIVE && t->undo.report != 0;
    opfor__kv_bool(pk, "can_undo", undo);
    opfor_rpc_pack_cstr(pk, "undo_report");
    if (undo)
        msgpack_pack_uint64(pk, t->undo.report);
    else
        msgpack_pack_nil(pk);
}

/* ------------------------------------------------------------------ a form into a report */

/* A field's value as text: a string as it is, a number, a boolean, a list or an {x, y} joined
 * by commas. 0, or -1 when it is none of those or too long. */
static int value_text(const msgpack_object *o, char *buf, size_t n, int depth) {
    int w;
    switch (o->type) {
    case MSGPACK_OBJECT_STR:
        if (o->via.str.size >= n)
            return -1;
        memcpy(buf, o->via.str.ptr, o->via.str.size);
        buf[o->via.str.size] = '\0';
        return 0;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        w = snprintf(buf, n, "%llu", (unsigned long long)o->via.u64);
        break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        w = snprintf(buf, n, "%lld", (long long)o->via.i64);
        break;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        w = snprintf(buf, n, "%.17g", o->via.f64);
        break;
    case MSGPACK_OBJECT_BOOLEAN:
        w = snprintf(buf, n, "%s", o->via.boolean ? "yes" : "no");
        break;
    case MSGPACK_OBJECT_MAP: { /* {x, y} */
        const msgpack_object *x = opfor_rpc_params_get(o, "x"), *y = opfor_rpc_params_get(o, "y");
        char a[40], b[40];
        if (depth || !x || !y || value_text(x, a, sizeof a, 1) || value_text(y, b, sizeof b, 1))
            return -1;
        w = snprintf(buf, n, "%s,%s", a, b);
        break;
    }
    case MSGPACK_OBJECT_ARRAY: {
        size_t at = 0;
        buf[0] = '\0';
        for (uint32_t i = 0; i < o->via.array.size; i++) {
            char one[64];
            if (depth || value_text(&o->via.array.ptr[i], one, sizeof one, 1))
                return -1;
            w = snprintf(buf + at, n - at, "%s%s", i ? "," : "", one);
            if (w < 0 || (size_t)w >= n - at)
                return -1;
            at += (size_t)w;
        }
        return 0;
    }
    default:
        return -1;
    }
    return w < 0 || (size_t)w >= n ? -1 : 0;
}

#define MAX_FIELDS 4
#define MAX_TEXT 128

/* The form's fields (params' `fields`) read and checked against f: vals and their texts. */
static int read_fields(const opfor_form_t *f, const msgpack_object *params, opfor_value_t *vals,
                       char texts[][MAX_TEXT], opfor__gerr_t *err) {
    memset(vals, 0, sizeof *vals * MAX_FIELDS);
    const msgpack_object *fields = opfor_rpc_params_get(params, "fields");
    if (fields && fields->type != MSGPACK_OBJECT_MAP && fields->type != MSGPACK_OBJECT_NIL)
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                               "fields: a map of field name to value");
    for (uint32_t i = 0; fields && fields->type == MSGPACK_OBJECT_MAP && i < fields->via.map.size;
         i++) {
        const msgpack_object_kv *kv = &fields->via.map.ptr[i];
        char name[64], msg[256];
        if (kv->key.type != MSGPACK_OBJECT_STR || kv->key.via.str.size >= sizeof name)
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                   "fields: keys are field names (strings)");
        memcpy(name, kv->key.via.str.ptr, kv->key.via.str.size);
        name[kv->key.via.str.size] = '\0';
        int k = opfor_form_field(f, name);
        if (k < 0) {
            char list[160] = "";
            size_t at = 0;
            for (int j = 0; j < f->nfields && at < sizeof list; j++)
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", j ? ", " : "",
                                       f->fields[j].name);
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                   "fields: %s has no field '%s' (fields: %s)", f->name, name,
                                   f->nfields ? list : "none");
        }
        if (kv->val.type == MSGPACK_OBJECT_NIL)
            continue;
        if (value_text(&kv->val, texts[k], MAX_TEXT, 0) < 0)
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                   "fields.%s: give a string, a number or a point", name);
        int rc = opfor_field_parse(&f->fields[k], texts[k], &vals[k], msg, sizeof msg);
        if (rc < 0)
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL, "fields.%s", msg);
    }
    char msg[256];
    if (opfor_form_check(f, vals, msg, sizeof msg) < 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL, "fields.%s", msg);
    return 0;
}

/* The unit a UNIT field names, which the rules must allow now (its `values`). */
static int field_unit(const opfor__vkg_t *g, const opfor__vkg_table_t *t, const opfor_form_t *f,
                      const char *text, opfor__gerr_t *err) {
    int u = opfor__vkg_find_unit(t, text, strlen(text));
    if (u >= 0 && unit_allowed(g, t, f, u))
        return u;
    char list[300] = "";
    size_t at = 0;
    for (int k = 0; k < t->nunits && at < sizeof list; k++)
        if (unit_allowed(g, t, f, k))
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "",
                                   t->units[k].name);
    const char *why = u == -2 ? "could mean several units"
                      : u < 0 ? "is no unit of this game"
                              : "is not one the rules allow";
    return opfor__gerr_set(err,
                           u == -1                                   ? OPFOR_RPC_E_NOT_FOUND
                           : u >= 0 && strcmp(f->name, "acted") == 0 ? OPFOR_RPC_E_ILLEGAL
                                                                     : OPFOR_RPC_E_INVALID_PARAMS,
                           u == -1 ? OPFOR_ENOENT : OPFOR_EINVAL,
                           "fields.unit: '%.40s' %s here now (%s: %s)", text, why, f->name,
                           at ? list : "no unit can be named now");
}

static void pack_point(msgpack_packer *pk, const char *text) {
    double x = 0, y = 0;
    sscanf(text, "%lf , %lf", &x, &y); /* checked by opfor_field_parse */
    msgpack_pack_map(pk, 2);
    opfor__kv_double(pk, "x", x);
    opfor__kv_double(pk, "y", y);
}

/* The `report` params a report form stands for, into pk: {game, seen?, KEY...}. */
static int pack_report(const opfor__vkg_t *g, const opfor__vkg_table_t *t, const opfor_form_t *f,
                       const msgpack_object *params, const opfor_value_t *vals,
                       char texts[][MAX_TEXT], msgpack_packer *pk, opfor__gerr_t *err) {
    int unit = -1;
    for (int k = 0; k < f->nfields; k++)
        if (f->fields[k].type == OPFOR_FIELD_UNIT &&
            (unit = field_unit(g, t, f, texts[k], err)) < 0)
            return unit;
    const msgpack_object *seen = opfor_rpc_params_get(params, "seen");
    const char *name = unit >= 0 ? t->units[unit].name : "";
    const int at_set = f->nfields > 1 && vals[1].set && f->fields[1].type == OPFOR_FIELD_POINT;
    const int resolve_roll = strcmp(f->name, "resolve") == 0 && vals[0].set;
    if (strcmp(f->name, "weather") == 0) { /* {weather: {level?, wind?}} */
        msgpack_pack_map(pk, 2 + (seen != NULL));
        opfor__kv_str(pk, "game", g->row->id);
        if (seen) {
            opfor_rpc_pack_cstr(pk, "seen");
            msgpack_pack_object(pk, *seen);
        }
        opfor_rpc_pack_cstr(pk, "weather");
        msgpack_pack_map(pk, (size_t)(vals[0].set + vals[1].set));
        if (vals[0].set)
            opfor__kv_int(pk, "level", (int)vals[0].num);
        if (vals[1].set)
            opfor__kv_str(pk, "wind", k_wind[(int)vals[1].num]);
        return 0;
    }
    msgpack_pack_map(pk,
                     2 + (seen != NULL) + (strcmp(f->name, "acted") == 0 && at_set) + resolve_roll);
    opfor__kv_str(pk, "game", g->row->id);
    if (seen) {
        opfor_rpc_pack_cstr(pk, "seen");
        msgpack_pack_object(pk, *seen);
    }
    if (strcmp(f->name, "acted") == 0) {
        opfor__kv_str(pk, "acted", name);
        if (at_set) {
            opfor_rpc_pack_cstr(pk, "at");
            pack_point(pk, texts[1]);
        }
    } else if (strcmp(f->name, "move") == 0) {
        opfor_rpc_pack_cstr(pk, "moves");
        msgpack_pack_array(pk, 1);
        msgpack_pack_map(pk, 2);
        opfor__kv_str(pk, "unit", name);
        opfor_rpc_pack_cstr(pk, "at");
        pack_point(pk, texts[1]);
    } else if (strcmp(f->name, "casualties") == 0) {
        opfor_rpc_pack_cstr(pk, "casualties");
        msgpack_pack_array(pk, 1);
        msgpack_pack_map(pk, 3);
        opfor__kv_str(pk, "unit", name);
        opfor__kv_int(pk, "killed", vals[1].set ? (int)vals[1].num : 0);
        opfor__kv_int(pk, "wounded", vals[2].set ? (int)vals[2].num : 0);
    } else if (strcmp(f->name, "morale") == 0 || strcmp(f->name, "off_table") == 0) {
        const int morale = f->name[0] == 'm';
        opfor_value_t v;
        opfor_field_resolve(&f->fields[1], &vals[1], &v);
        opfor_rpc_pack_cstr(pk, f->name);
        msgpack_pack_array(pk, 1);
        msgpack_pack_map(pk, 2);
        opfor__kv_str(pk, "unit", name);
        opfor__kv_str(pk, morale ? "result" : "fate", f->fields[1].choices[(int)v.num]);
    } else if (strcmp(f->name, "roll") == 0) {
        opfor__kv_str(pk, "roll", vals[0].set ? texts[0] : f->fields[0].def_text);
    } else { /* resolve */
        opfor__kv_bool(pk, "resolve", 1);
        if (resolve_roll)
            opfor__kv_int(pk, "move_roll", (int)vals[0].num);
    }
    return 0;
}

/* The form named by params' `form` among forms, or NULL with err saying which there are. */
static const opfor_form_t *find_form(const opfor_form_t *forms, int n, const char *what,
                                     const msgpack_object *params, opfor__gerr_t *err) {
    char name[64], why[200];
    int rc = opfor_rpc_params_str(params, "form", name, sizeof name, why, sizeof why);
    if (rc < 0) {
        opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL, "%s",
                        rc == OPFOR_ENOENT ? "form: the form's name is required" : why);
        return NULL;
    }
    const opfor_form_t *f = opfor_form_find(forms, n, name);
    if (!f) {
        char list[200] = "";
        size_t at = 0;
        for (int i = 0; i < n && at < sizeof list; i++)
            at +=
                (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", forms[i].name);
        opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                        "form: '%.40s' is not one of this game's %s (%s)", name, what, list);
    }
    return f;
}

int opfor__vkg_form_prepare(const opfor__vkg_t *g, const char *method, const msgpack_object *params,
                            opfor__entry_t *e, opfor__gerr_t *err) {
    const int is_report = strcmp(method, "game.report") == 0;
    const opfor_form_t *f = is_report
                                ? find_form(k_reports, NREPORTS, "reports", params, err)
                                : find_form(k_actions, NACTIONS, "table actions", params, err);
    if (!f)
        return OPFOR_EINVAL;
    opfor_value_t vals[MAX_FIELDS];
    char texts[MAX_FIELDS][MAX_TEXT];
    memset(texts, 0, sizeof texts);
    int rc = read_fields(f, params, vals, texts, err);
    if (rc < 0)
        return rc;
    const opfor__vkg_table_t *t = &g->t;
    if (is_report) {
        if (opfor_rpc_params_get(params, "side"))
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                   "side: this game's reports name their units, not a side");
        msgpack_packer pk;
        msgpack_packer_init(&pk, e->sb, msgpack_sbuffer_write);
        if ((rc = pack_report(g, t, f, params, vals, texts, &pk, err)) < 0)
            return rc;
        /* the entry is exactly what `report` would log for the same params, checked the same
           way (counting once, `seen`) */
        msgpack_unpacked up;
        msgpack_unpacked_init(&up);
        if (msgpack_unpack_next(&up, e->sb->data, e->sb->size, NULL) != MSGPACK_UNPACK_SUCCESS) {
            msgpack_unpacked_destroy(&up);
            return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
                                   "%s: could not read the report back", f->name);
        }
        opfor__gerr_t why = {0};
        rc = opfor__vkg_report_check(g, t, &up.data, &why);
        msgpack_unpacked_destroy(&up);
        if (rc < 0) {
            if (err)
                *err = why;
            return rc;
        }
        snprintf(e->kind, sizeof e->kind, "report");
        return 0;
    }
    /* the initiative: the press, only against the state the client saw */
    uint64_t seen;
    const msgpack_object *s = opfor_rpc_params_get(params, "seen");
    if (s) {
        if (s->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
            return opfor__gerr_set(err, OPFOR_RPC_E_INVALID_PARAMS, OPFOR_EINVAL,
                                   "seen: the log_seq of the state the client saw (an integer)");
        seen = s->via.u64;
        if (seen != t->log_seq) {
            opfor_rpc_hint_set(opfor__gerr_hint(err), OPFOR_RPC_HINT_STALE_STATE);
            opfor_rpc_hint_int(opfor__gerr_hint(err), "seen", (int64_t)seen);
            opfor_rpc_hint_int(opfor__gerr_hint(err), "log_seq", (int64_t)t->log_seq);
            return opfor__gerr_set(err, OPFOR_RPC_E_ILLEGAL, OPFOR_EILLEGAL,
                                   "seen: the press answers the game as it stood at entry %llu, "
                                   "but it has %llu entries now: read the game again",
                                   (unsigned long long)seen, (unsigned long long)t->log_seq);
        }
    }
    snprintf(e->kind, sizeof e->kind, "%s", f->name); /* the method `initiative` */
    return 1;
}
