/* io/methods_calc.c — the `calc` and `calc.list` methods: the Viktoria! calculator over RPC.
 *
 * The calculator itself is rulesets/viktoria (opfor/viktoria/calc.h), the same tables and code
 * as `opfor calc`; this file only turns a params map into a request and a result struct into a
 * MessagePack map shaped like `opfor calc --json`. It runs on the loop thread: a calculation
 * takes microseconds and allocates nothing, so a worker hop would cost more than it saves. The
 * model is the daemon's (built in, or `model: FILE`, reloaded on SIGHUP); a request may carry
 * inline YAML overrides, which are applied to the built-in defaults.
 */
#include "methods_calc_int.h"

#include "methods_int.h"
#include "server_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/calc_list.h"

/* A string value; NULL packs as "". */
static void pack_text(msgpack_packer *pk, const char *v) {
    opfor_rpc_pack_cstr(pk, v ? v : "");
}

/* Numbers that may be infinite (no range limit) are sent as nil, as the JSON output does. */
static void pack_num(msgpack_packer *pk, double v) {
    if (isfinite(v))
        msgpack_pack_double(pk, v);
    else
        msgpack_pack_nil(pk);
}

/* Keys are string literals: their length is known at compile time (this is the hot path of
 * `opfor bench rpc`, so no strlen per key). */
#define KEY(pk, lit)                                                                               \
    (msgpack_pack_str((pk), sizeof(lit) - 1), msgpack_pack_str_body((pk), (lit), sizeof(lit) - 1))
#define kv_str(pk, lit, v) (KEY(pk, lit), pack_text((pk), (v)))
#define kv_int(pk, lit, v) (KEY(pk, lit), msgpack_pack_long_long((pk), (v)))
#define kv_num(pk, lit, v) (KEY(pk, lit), pack_num((pk), (v)))

/* The calculator's messages name fields as command-line flags ("--range"); clients send them
 * as map keys, so the dashes go. */
static void strip_flag_dashes(char *s) {
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (r[0] == '-' && r[1] == '-' && (r == s || r[-1] == ' ') && r[2] >= 'a' && r[2] <= 'z') {
            r++;
            continue;
        }
        *w++ = *r;
    }
    *w = '\0';
}

/* Fills msg and returns code (an OPFOR_RPC_E_* code, never 0). */
static int err_set(char *msg, size_t size, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int err_set(char *msg, size_t size, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, size, fmt, ap);
    va_end(ap);
    return code;
}

/* 0 when params name no ruleset or "viktoria"; else an RPC error code with msg filled. */
static int ruleset_check(const msgpack_object *params, char *msg, size_t size) {
    char rs[32], why[160];
    int rc = opfor_rpc_params_str(params, "ruleset", rs, sizeof rs, why, sizeof why);
    if (rc == OPFOR_EINVAL)
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
    if (rc == 0 && strcmp(rs, "viktoria") != 0)
        return err_set(msg, size, OPFOR_RPC_E_UNSUPPORTED,
                       "ruleset '%s' has no calculator; rulesets: viktoria", rs);
    return 0;
}

/* A field value as the text opfor_viktoria_req_set() parses. 1 = set it, 0 = leave the default
 * (nil), -1 = a type no field takes. */
static int value_text(const msgpack_object *v, char *buf, size_t size) {
    switch (v->type) {
    case MSGPACK_OBJECT_NIL:
        return 0;
    case MSGPACK_OBJECT_BOOLEAN:
        snprintf(buf, size, "%s", v->via.boolean ? "yes" : "no");
        return 1;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        snprintf(buf, size, "%llu", (unsigned long long)v->via.u64);
        return 1;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        snprintf(buf, size, "%lld", (long long)v->via.i64);
        return 1;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        if (!isfinite(v->via.f64))
            return -1;
        snprintf(buf, size, "%.17g", v->via.f64);
        return 1;
    case MSGPACK_OBJECT_STR:
        if (v->via.str.size >= size || memchr(v->via.str.ptr, 0, v->via.str.size))
            return -1;
        memcpy(buf, v->via.str.ptr, v->via.str.size);
        buf[v->via.str.size] = '\0';
        return 1;
    default:
        return -1;
    }
}

void opfor__calc_pack(msgpack_packer *pk, const opfor_viktoria_req_t *req,
                      const opfor_viktoria_result_t *res) {
    const opfor_viktoria_action_t *a = opfor_viktoria_action_get(res->action);
    char buf[160];
    msgpack_pack_map(pk, 11);
    kv_str(pk, "ruleset", "viktoria");
    kv_str(pk, "action", a->name);
    kv_str(pk, "title", a->title);
    kv_str(pk, "rules", a->rules);

    KEY(pk, "fields");
    msgpack_pack_map(pk, (size_t)a->nfields);
    for (int i = 0; i < a->nfields; i++) {
        const opfor_viktoria_action_field_t *af = &a->fields[i];
        int v = req->v[af->id];
        opfor_rpc_pack_cstr(pk, opfor_viktoria_field_get(af->id)->name);
        if (v == OPFOR_VK_UNSET)
            msgpack_pack_nil(pk);
        else if (af->kind == OPFOR_VK_FK_BOOL)
            v ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
        else if (v == OPFOR_VK_INCHES)
            msgpack_pack_double(pk, req->inches);
        else if (af->kind == OPFOR_VK_FK_INT)
            msgpack_pack_int(pk, v);
        else
            opfor_rpc_pack_cstr(pk, opfor_viktoria_req_value(req, af->id, buf, sizeof buf));
    }

    KEY(pk, "rolls");
    msgpack_pack_array(pk, (size_t)res->nrolls);
    for (int i = 0; i < res->nrolls; i++) {
        const opfor_viktoria_named_roll_t *r = &res->rolls[i];
        msgpack_pack_map(pk, 9);
        kv_str(pk, "name", r->name);
        kv_str(pk, "label", r->label);
        kv_str(pk, "dice", r->dice);
        kv_str(pk, "need", opfor_roll_format(&r->roll, buf, sizeof buf));
        kv_str(pk, "success", r->success);
        kv_int(pk, "favours", r->favours);
        kv_num(pk, "p_exact", r->roll.p_exact);
        kv_num(pk, "p_rendered", r->roll.p_rendered);
        kv_num(pk, "error", r->roll.error);
    }

    KEY(pk, "tables");
    msgpack_pack_array(pk, (size_t)res->ntables);
    for (int i = 0; i < res->ntables; i++) {
        const opfor_viktoria_table_t *t = &res->tables[i];
        msgpack_pack_map(pk, 4);
        kv_str(pk, "name", t->name);
        kv_str(pk, "label", t->label);
        kv_str(pk, "dice", t->dice);
        KEY(pk, "entries");
        msgpack_pack_array(pk, (size_t)t->n);
        for (int k = 0; k < t->n; k++) {
            const opfor_viktoria_entry_t *e = &t->e[k];
            int has = e->value != OPFOR_VK_UNSET;
            msgpack_pack_map(pk, has ? 5 : 4);
            kv_int(pk, "lo", e->lo);
            kv_int(pk, "hi", e->hi);
            kv_str(pk, "text", e->text);
            if (has && strcmp(t->name, "wind") == 0)
                kv_str(pk, "result", opfor_vocab_name(opfor_compass_names, e->value));
            else if (has)
                kv_int(pk, "result", e->value);
            kv_num(pk, "p", e->p);
        }
    }

    KEY(pk, "distances");
    msgpack_pack_array(pk, (size_t)res->ndists);
    for (int i = 0; i < res->ndists; i++) {
        const opfor_viktoria_distance_t *d = &res->dists[i];
        opfor_dice_t x = d->dice;
        x.inches = 0;
        msgpack_pack_map(pk, 7);
        kv_str(pk, "name", d->name);
        kv_str(pk, "label", d->label);
        opfor_dice_format(&x, buf, sizeof buf);
        kv_str(pk, "dice", buf);
        kv_num(pk, "scale", (double)d->num / d->den);
        kv_num(pk, "min", d->min);
        kv_num(pk, "max", d->max);
        kv_num(pk, "mean", d->mean);
    }

    KEY(pk, "outcomes");
    msgpack_pack_array(pk, (size_t)res->noutcomes);
    for (int i = 0; i < res->noutcomes; i++) {
        const opfor_viktoria_outcome_t *o = &res->outcomes[i];
        msgpack_pack_map(pk, 5);
        kv_str(pk, "name", o->name);
        kv_str(pk, "label", o->label);
        kv_int(pk, "favours", o->favours);
        kv_num(pk, "p_exact", o->p_exact);
        kv_num(pk, "p_rendered", o->p_rendered);
    }

    KEY(pk, "facts");
    msgpack_pack_map(pk, (size_t)res->nfacts);
    for (int i = 0; i < res->nfacts; i++) {
        const opfor_viktoria_fact_t *x = &res->facts[i];
        opfor_rpc_pack_cstr(pk, x->name);
        if (x->text)
            opfor_rpc_pack_cstr(pk, x->text);
        else
            pack_num(pk, x->value);
    }

    KEY(pk, "notes");
    msgpack_pack_array(pk, (size_t)res->nnotes);
    for (int i = 0; i < res->nnotes; i++)
        opfor_rpc_pack_cstr(pk, res->notes[i]);
}

int opfor__calc_eval(const opfor_viktoria_model_t *m, const msgpack_object *params,
                     opfor_viktoria_req_t *reqp, opfor_viktoria_result_t *resp, char *msg,
                     size_t size) {
    static const char *const allowed[] = {"ruleset", "action", "fields", "model", NULL};
    char why[160];
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0) {
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
    }
    int code = ruleset_check(params, msg, size);
    if (code)
        return code;
    char action[64], list[512];
    int rc = opfor_rpc_params_str(params, "action", action, sizeof action, why, sizeof why);
    if (rc < 0) {
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s; actions: %s",
                       rc == OPFOR_ENOENT ? "param 'action' is required" : why,
                       opfor_viktoria_action_list(list, sizeof list));
    }
    int id = opfor_viktoria_action_find(action);
    opfor_viktoria_req_t req;
    if (id < 0 || opfor_viktoria_req_init(&req, id) != 0) {
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "unknown action '%s'; actions: %s",
                       action, opfor_viktoria_action_list(list, sizeof list));
    }
    opfor_diag_t d;
    const msgpack_object *fields = opfor_rpc_params_get(params, "fields");
    if (fields && fields->type != MSGPACK_OBJECT_MAP && fields->type != MSGPACK_OBJECT_NIL) {
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                       "param 'fields' must be a map of field: value");
    }
    if (fields && fields->type == MSGPACK_OBJECT_MAP) {
        for (uint32_t i = 0; i < fields->via.map.size; i++) {
            const msgpack_object *k = &fields->via.map.ptr[i].key;
            const msgpack_object *v = &fields->via.map.ptr[i].val;
            char name[48], text[96];
            if (k->type != MSGPACK_OBJECT_STR || k->via.str.size >= sizeof name ||
                memchr(k->via.str.ptr, 0, k->via.str.size)) {
                return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                               "field names must be strings of at most %zu bytes", sizeof name - 1);
            }
            memcpy(name, k->via.str.ptr, k->via.str.size);
            name[k->via.str.size] = '\0';
            int t = value_text(v, text, sizeof text);
            if (t < 0) {
                return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                               "field '%s': give a string, a number, true/false or nil", name);
            }
            if (t == 0)
                continue;
            rc = opfor_viktoria_req_set(&req, name, text, &d);
            if (rc < 0) {
                strip_flag_dashes(d.msg);
                return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s", d.msg);
            }
        }
    }
    opfor_viktoria_model_t *custom = NULL;
    const msgpack_object *mo = opfor_rpc_params_get(params, "model");
    if (mo && mo->type != MSGPACK_OBJECT_NIL) {
        if (mo->type != MSGPACK_OBJECT_STR || memchr(mo->via.str.ptr, 0, mo->via.str.size)) {
            return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                           "param 'model' must be YAML text (model.yaml keys)");
        }
        char *text = malloc(mo->via.str.size + 1);
        custom = malloc(sizeof *custom);
        if (!text || !custom) {
            free(text);
            free(custom);
            return err_set(msg, size, OPFOR_RPC_E_INTERNAL, "out of memory");
        }
        memcpy(text, mo->via.str.ptr, mo->via.str.size);
        text[mo->via.str.size] = '\0';
        opfor_diag_clear(&d);
        rc = opfor_viktoria_model_load_string(text, "model", custom, &d);
        free(text);
        if (rc < 0) {
            char where[800];
            free(custom);
            return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s",
                           opfor_diag_format(&d, where, sizeof where));
        }
        m = custom;
    }
    d.msg[0] = '\0';
    rc = opfor_viktoria_calc(m, &req, resp, &d);
    free(custom);
    if (rc < 0) {
        strip_flag_dashes(d.msg);
        return err_set(msg, size, opfor_rpc_err_from_opfor(rc), "%s",
                       d.msg[0] ? d.msg : opfor_strerror(rc));
    }
    *reqp = req;
    return 0;
}

int opfor__method_calc(opfor_call_t *call, const msgpack_object *params) {
    opfor_viktoria_req_t req;
    opfor_viktoria_result_t res;
    char msg[768];
    int code =
        opfor__calc_eval(opfor__server_model(call->srv), params, &req, &res, msg, sizeof msg);
    if (code) {
        opfor_call_error(call, code, "%s", msg);
        return 0;
    }
    opfor__calc_pack(opfor_call_result_begin(call), &req, &res);
    opfor_call_result_end(call);
    return 0;
}

/* Distinct canonical names of a table (aliases share a value and are skipped). */
static void pack_names(msgpack_packer *pk, const opfor_name_t *names) {
    msgpack_pack_array(pk, opfor_viktoria_name_count(names));
    for (const opfor_name_t *p = opfor_viktoria_name_next(names, names); p;
         p = opfor_viktoria_name_next(names, p + 1))
        opfor_rpc_pack_cstr(pk, p->name);
}

int opfor__method_calc_list(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"ruleset", NULL};
    char why[160], buf[512];
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0) {
        opfor_call_error(call, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
        return 0;
    }
    int code = ruleset_check(params, why, sizeof why);
    if (code) {
        opfor_call_error(call, code, "%s", why);
        return 0;
    }
    const opfor_viktoria_model_t *m = opfor__server_model(call->srv);
    msgpack_packer *pk = opfor_call_result_begin(call);
    msgpack_pack_map(pk, 2);
    kv_str(pk, "ruleset", "viktoria");
    KEY(pk, "actions");
    msgpack_pack_array(pk, OPFOR_VK_A_COUNT);
    for (int id = 0; id < OPFOR_VK_A_COUNT; id++) {
        const opfor_viktoria_action_t *a = opfor_viktoria_action_get(id);
        opfor_viktoria_req_t req;
        opfor_viktoria_req_init(&req, id);
        msgpack_pack_map(pk, 5);
        kv_str(pk, "name", a->name);
        kv_str(pk, "title", a->title);
        kv_str(pk, "summary", a->summary);
        kv_str(pk, "rules", a->rules);
        KEY(pk, "fields");
        msgpack_pack_array(pk, (size_t)a->nfields);
        for (int i = 0; i < a->nfields; i++) {
            const opfor_viktoria_action_field_t *af = &a->fields[i];
            const opfor_viktoria_field_t *fd = opfor_viktoria_field_get(af->id);
            const opfor_name_t *names = opfor_viktoria_field_names(af);
            int is_int = af->kind == OPFOR_VK_FK_INT;
            msgpack_pack_map(pk, 5 + (names != NULL) + 2 * is_int);
            kv_str(pk, "name", fd->name);
            kv_str(pk, "label", fd->label);
            kv_str(pk, "kind", opfor_viktoria_kind_name(af->kind));
            kv_str(pk, "allowed", opfor_viktoria_field_allowed(m, id, af->id, buf, sizeof buf));
            kv_str(pk, "default", opfor_viktoria_req_value(&req, af->id, buf, sizeof buf));
            if (names) {
                KEY(pk, "values");
                pack_names(pk, names);
            }
            if (is_int) {
                kv_int(pk, "min", fd->min);
                kv_int(pk, "max", fd->max);
            }
        }
    }
    opfor_call_result_end(call);
    return 0;
}
