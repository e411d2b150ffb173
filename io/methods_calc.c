/* io/methods_calc.c — the `calc` and `calc.list` methods: any registered ruleset's calculator
 * over RPC.
 *
 * The calculator itself is the ruleset's (opfor/ruleset_calc.h), the same forms and code as
 * `opfor calc`; this file only reads a params map into the action's field values through the
 * calculator's own parser, and packs the shared answer into a MessagePack map shaped like
 * `opfor calc --json`. The ruleset's own parts of an answer are packed as the ruleset makes them
 * (the answer's writer: opfor__calc_parts_t in methods_calc_int.h), not stored in the answer's
 * tree and walked, which cost a quarter of the daemon's rate; the tree stays the reference (and
 * the fallback for parts past its limits), and tests/io/test_methods_calc.c holds the two to the
 * same bytes. It runs on the loop thread: a calculation takes microseconds and
 * allocates nothing, so a worker hop would cost more than it saves. The model is the daemon's
 * (built in, or `model: FILE`, reloaded on SIGHUP) for the default calculator; a request may
 * carry inline YAML overrides, which are applied to the built-in defaults.
 */
#include "methods_calc_int.h"

#include "methods_int.h"
#include "server_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const opfor_ruleset_t *opfor__calc_default(void) {
    size_t n;
    const opfor_ruleset_entry_t *e = opfor_ruleset_list(&n);
    for (size_t i = 0; i < n; i++)
        if (e[i].rs->calc)
            return e[i].rs;
    return NULL;
}

/* The registered rulesets with a calculator, comma-separated. */
static const char *calc_rulesets(char *buf, size_t n) {
    size_t count, len = 0;
    const opfor_ruleset_entry_t *e = opfor_ruleset_list(&count);
    buf[0] = '\0';
    for (size_t i = 0; i < count && len + 1 < n; i++) {
        if (!e[i].rs->calc)
            continue;
        int w = snprintf(buf + len, n - len, "%s%s", len ? ", " : "", e[i].name);
        if (w > 0)
            len += (size_t)w < n - len ? (size_t)w : n - len - 1;
    }
    return buf;
}

/* The ruleset params name (the default calculator's when they name none) into *rs: 0, or an
 * RPC error code with msg filled. */
static int ruleset_get(const msgpack_object *params, const opfor_ruleset_t **rs, char *msg,
                       size_t size) {
    char name[32], why[160], list[160];
    int rc = opfor_rpc_params_str(params, "ruleset", name, sizeof name, why, sizeof why);
    if (rc == OPFOR_EINVAL)
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
    *rs = rc == 0 ? opfor_ruleset_find(name) : opfor__calc_default();
    if (!*rs || !(*rs)->calc)
        return err_set(msg, size, OPFOR_RPC_E_UNSUPPORTED,
                       "ruleset '%s' has no calculator; rulesets: %s", rc == 0 ? name : "",
                       calc_rulesets(list, sizeof list));
    return 0;
}

/* A field value as the text the calculator's parser reads. 1 = set it, 0 = leave the default
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

/* ---------------------------------------------------------------- the parts, in one pass */

/* The packer's sink (for the rare integer that is not a fixint): appends to parts->buf, or
 * marks it full. */
static int parts_append(void *data, const char *b, size_t n) {
    opfor__calc_parts_t *p = data;
    if (p->full || n > p->cap - p->len) {
        p->full = 1;
        return -1;
    }
    memcpy(p->buf + p->len, b, n);
    p->len += n;
    return 0;
}

/* The entries are encoded here byte by byte, as msgpack_pack_str/_double/_true/_false/_nil
 * and the fixint case of msgpack_pack_long_long encode them (pack_template.h), rather than
 * through a packer whose every header and body is a call and a copy: the packing is most of
 * a calc request's cost. tests/io/test_methods_calc.c holds the bytes to the packer's. */

/* A string header and body at w; returns the byte after it. */
static inline unsigned char *put_str(unsigned char *w, const char *s, size_t n) {
    if (n < 32) {
        *w++ = (unsigned char)(0xa0 | n);
    } else if (n < 256) {
        *w++ = 0xd9;
        *w++ = (unsigned char)n;
    } else if (n < 65536) {
        *w++ = 0xda;
        *w++ = (unsigned char)(n >> 8);
        *w++ = (unsigned char)n;
    } else {
        *w++ = 0xdb;
        for (int k = 3; k >= 0; k--)
            *w++ = (unsigned char)(n >> (8 * k));
    }
    if (n)
        memcpy(w, s, n);
    return w + n;
}

/* A float64 at w (big-endian bits), or nil when not finite (pack_num); returns the byte after
 * it. */
static inline unsigned char *put_num(unsigned char *w, double v) {
    if (!isfinite(v)) {
        *w++ = 0xc0;
        return w;
    }
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    *w++ = 0xcb;
    _msgpack_store64(w, bits); /* big-endian, as msgpack_pack_double */
    return w + 8;
}

/* A map or array header of n entries at w, as msgpack_pack_map/_array write it; returns its
 * length. */
static size_t put_header(unsigned char *w, int map, uint32_t n) {
    if (n < 16) {
        w[0] = (unsigned char)((map ? 0x80 : 0x90) | n);
        return 1;
    }
    if (n < 65536) {
        w[0] = map ? 0xde : 0xdc;
        w[1] = (unsigned char)(n >> 8);
        w[2] = (unsigned char)n;
        return 3;
    }
    w[0] = map ? 0xdf : 0xdd;
    for (int k = 0; k < 4; k++)
        w[1 + k] = (unsigned char)(n >> (8 * (3 - k)));
    return 5;
}

/* The writer's node(): the bytes pack_extra() packs for the same node of the tree. A
 * container's header waits in a byte held for it until its END has counted its entries. */
static int parts_node(void *ctx, int type, const char *key, size_t klen, const char *s, size_t slen,
                      double num) {
    opfor__calc_parts_t *p = ctx;
    if (type == OPFOR_CALC_NODE_END) {
        if (p->depth == 0)
            return -1;
        p->depth--;
        /* the header goes in the byte held for it; a count of 16 or more takes 3 or 5 bytes,
         * and the entries move down to make room */
        unsigned char hdr[5];
        size_t at = p->at[p->depth],
               hlen = put_header(hdr, p->is_map[p->depth], p->count[p->depth]);
        if (hlen > 1) {
            if (hlen - 1 > p->cap - p->len) {
                p->full = 1;
                return -1;
            }
            memmove(p->buf + at + hlen, p->buf + at + 1, p->len - at - 1);
            p->len += hlen - 1;
        }
        memcpy(p->buf + at, hdr, hlen);
        return 0;
    }
    /* room for the largest entry: a key, then a value (a string, a number, a header) */
    size_t need = 5 + klen + 9 + slen;
    if (need > p->cap - p->len) {
        p->full = 1;
        return -1;
    }
    unsigned char *w = (unsigned char *)p->buf + p->len;
    /* an entry of the innermost map or array, or of the top level (keyed, as a map's) */
    if (p->depth == 0) {
        p->ntop++;
        w = put_str(w, key, klen);
    } else {
        p->count[p->depth - 1]++;
        if (p->is_map[p->depth - 1])
            w = put_str(w, key, klen);
    }
    long long i;
    switch (type) {
    case OPFOR_CALC_NODE_MAP:
    case OPFOR_CALC_NODE_ARRAY:
        if (p->depth >= OPFOR_CALC_MAX_DEPTH) {
            p->full = 1;
            return -1;
        }
        p->is_map[p->depth] = type == OPFOR_CALC_NODE_MAP;
        p->count[p->depth] = 0;
        p->at[p->depth++] = (size_t)(w - (unsigned char *)p->buf);
        w += 1; /* its header's first byte, written at its END */
        break;
    case OPFOR_CALC_NODE_STR:
        w = put_str(w, s, slen);
        break;
    case OPFOR_CALC_NODE_INT:
        i = (long long)num;
        if (i >= -32 && i < 128) { /* a fixint */
            *w++ = (unsigned char)(i & 0xff);
        } else { /* any other integer: the packer's own rules */
            p->len = (size_t)(w - (unsigned char *)p->buf);
            msgpack_pack_long_long(&p->pk, i);
            return p->full ? -1 : 0;
        }
        break;
    case OPFOR_CALC_NODE_NUM:
        w = put_num(w, num);
        break;
    case OPFOR_CALC_NODE_BOOL:
        *w++ = num != 0.0 ? 0xc3 : 0xc2;
        break;
    default:
        *w++ = 0xc0;
        break;
    }
    p->len = (size_t)(w - (unsigned char *)p->buf);
    return 0;
}

void opfor__calc_parts_init(opfor__calc_parts_t *p, size_t max) {
    p->cap = max > 0 && max < sizeof p->buf ? max : sizeof p->buf;
    p->writer.ctx = p;
    p->writer.node = parts_node;
    msgpack_packer_init(&p->pk, p, parts_append);
    p->len = 0;
    p->full = p->ntop = p->depth = 0;
}

/* ---------------------------------------------------------------- calc */

/* A MessagePack string of known length from a C string. */
static void pack_cstr(msgpack_packer *pk, const char *s) {
    opfor_rpc_pack_cstr(pk, s ? s : "");
}

/* A key or text of the extra tree, at offset off of the pool with its length (-1: ""). */
static void pack_pooled(msgpack_packer *pk, const opfor_calc_answer_t *a, int off, int len) {
    if (off < 0)
        len = 0;
    msgpack_pack_str(pk, (size_t)len);
    if (len > 0)
        msgpack_pack_str_body(pk, a->pool + off, (size_t)len);
}

/* The extra tree from node i on (one value, or a whole map or array); returns the node after
 * it. */
static int pack_extra(msgpack_packer *pk, const opfor_calc_answer_t *a, int i) {
    const opfor_calc_node_t *x = &a->extra[i];
    switch (x->type) {
    case OPFOR_CALC_NODE_MAP:
    case OPFOR_CALC_NODE_ARRAY: {
        int map = x->type == OPFOR_CALC_NODE_MAP;
        size_t n = (size_t)opfor_calc_extra_count(a, i);
        map ? msgpack_pack_map(pk, n) : msgpack_pack_array(pk, n);
        int k = i + 1;
        while (k < a->nextra && a->extra[k].type != OPFOR_CALC_NODE_END) {
            if (map)
                pack_pooled(pk, a, a->extra[k].key, a->extra[k].klen);
            k = pack_extra(pk, a, k);
        }
        return k + 1;
    }
    case OPFOR_CALC_NODE_STR:
        pack_pooled(pk, a, x->str, x->slen);
        break;
    case OPFOR_CALC_NODE_INT:
        msgpack_pack_long_long(pk, (long long)x->num);
        break;
    case OPFOR_CALC_NODE_NUM:
        pack_num(pk, x->num);
        break;
    case OPFOR_CALC_NODE_BOOL:
        x->num != 0.0 ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
        break;
    default:
        msgpack_pack_nil(pk);
        break;
    }
    return i + 1;
}

/* One field's value as the answer gives it: a name, a flag, a number, or nil. */
static void pack_value(msgpack_packer *pk, const opfor_field_t *fd, const opfor_value_t *val) {
    opfor_value_t v;
    char buf[160];
    if (!opfor_field_resolve(fd, val, &v))
        msgpack_pack_nil(pk);
    else if (fd->type == OPFOR_FIELD_BOOL)
        v.num != 0.0 ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    else if (fd->type == OPFOR_FIELD_CHOICE || v.named)
        pack_cstr(pk, opfor_field_text(fd, &v, buf, sizeof buf));
    else if (fd->type == OPFOR_FIELD_INT)
        msgpack_pack_int(pk, (int)v.num);
    else if (fd->type == OPFOR_FIELD_NUM)
        msgpack_pack_double(pk, v.num);
    else
        pack_cstr(pk, v.text);
}

static void pack_schema(msgpack_packer *pk, const opfor_calc_answer_t *a);

void opfor__calc_pack(msgpack_packer *pk, const opfor__calc_q_t *q) {
    const opfor_form_t *form = q->form;
    const opfor_calc_answer_t *a = &q->ans;
    size_t ntop = 0;
    if (q->parts_ok)
        ntop = (size_t)q->parts.ntop;
    else
        for (int i = 0; i < a->nextra && opfor_calc_extra_next(a, i) >= 0;
             i = opfor_calc_extra_next(a, i))
            ntop++;
    int schema = q->schema || ntop == 0;
    msgpack_pack_map(pk,
                     6 + (a->allowed ? 0 : 1) + ntop + 2 + (schema ? 6 : 0) + (a->rolled ? 2 : 0));
    kv_str(pk, "ruleset", q->rs->name);
    kv_str(pk, "action", form->name);
    kv_str(pk, "title", a->title[0] ? a->title : form->title);
    kv_str(pk, "rules", form->section);
    /* every answer says whether the rules allow the roll; a forbidden one says why */
    KEY(pk, "allowed");
    a->allowed ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    if (!a->allowed)
        kv_str(pk, "reason", a->reason);

    KEY(pk, "fields");
    msgpack_pack_map(pk, (size_t)form->nfields);
    for (int i = 0; i < form->nfields; i++) {
        pack_cstr(pk, form->fields[i].name);
        pack_value(pk, &form->fields[i], &q->vals[i]);
    }

    /* the ruleset's own parts (packed as they were made, or its extra tree), between the
     * fields and the facts */
    if (q->parts_ok && q->parts.len > 0)
        pk->callback(pk->data, q->parts.buf, q->parts.len);
    for (int i = 0; !q->parts_ok && i < a->nextra && opfor_calc_extra_next(a, i) >= 0;
         i = opfor_calc_extra_next(a, i)) {
        pack_cstr(pk, opfor_calc_extra_key(a, i));
        pack_extra(pk, a, i);
    }

    KEY(pk, "facts");
    msgpack_pack_map(pk, (size_t)a->nfacts);
    for (int i = 0; i < a->nfacts; i++) {
        const opfor_calc_fact_t *x = &a->facts[i];
        pack_cstr(pk, x->name);
        if (x->text[0])
            pack_cstr(pk, x->text);
        else
            pack_num(pk, x->value);
    }

    KEY(pk, "notes");
    msgpack_pack_array(pk, (size_t)a->nnotes);
    for (int i = 0; i < a->nnotes; i++)
        pack_cstr(pk, a->notes[i]);

    if (schema)
        pack_schema(pk, a);
    if (a->rolled) {
        KEY(pk, "success");
        a->success ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
        kv_str(pk, "outcome", a->outcome);
    }
}

/* The shared schema's own keys (6). */
static void pack_schema(msgpack_packer *pk, const opfor_calc_answer_t *a) {
    kv_str(pk, "dice", a->dice);
    kv_str(pk, "needed", a->needed);
    kv_num(pk, "p", a->p);
    KEY(pk, "expected");
    a->has_expected ? pack_num(pk, a->expected) : msgpack_pack_nil(pk);
    KEY(pk, "distribution");
    msgpack_pack_array(pk, (size_t)a->ndist);
    for (int i = 0; i < a->ndist; i++) {
        msgpack_pack_map(pk, 3);
        kv_str(pk, "label", a->dist[i].label);
        kv_num(pk, "value", a->dist[i].value);
        kv_num(pk, "p", a->dist[i].p);
    }
    kv_str(pk, "text", a->text);
}

/* Reads the "fields" map of params into q->vals through the calculator's parser. 0, or an
 * RPC error code with msg filled. */
static int read_fields(const opfor_ruleset_calc_t *c, const void *model,
                       const msgpack_object *fields, opfor__calc_q_t *q, char *msg, size_t size) {
    char names[512], why[600];
    if (fields && fields->type != MSGPACK_OBJECT_MAP && fields->type != MSGPACK_OBJECT_NIL)
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                       "param 'fields' must be a map of field: value");
    for (uint32_t i = 0; fields && fields->type == MSGPACK_OBJECT_MAP && i < fields->via.map.size;
         i++) {
        const msgpack_object *k = &fields->via.map.ptr[i].key;
        const msgpack_object *v = &fields->via.map.ptr[i].val;
        char name[48], text[96];
        if (k->type != MSGPACK_OBJECT_STR || k->via.str.size >= sizeof name ||
            memchr(k->via.str.ptr, 0, k->via.str.size))
            return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                           "field names must be strings of at most %zu bytes", sizeof name - 1);
        memcpy(name, k->via.str.ptr, k->via.str.size);
        name[k->via.str.size] = '\0';
        int fid = opfor_form_field(q->form, name);
        if (fid < 0) {
            const opfor_field_t *other = opfor_calc_field_anywhere(c, name);
            if (other)
                return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                               "%s has no field %s; it takes: %s", q->form->name, other->name,
                               opfor_calc_field_list(q->form, "", names, sizeof names));
            return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "unknown field %s; %s takes: %s",
                           name, q->form->name,
                           opfor_calc_field_list(q->form, "", names, sizeof names));
        }
        if (q->form->fields[fid].flags & OPFOR_FIELD_PATH)
            return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                           "field '%s' names a file: the daemon reads no file a client names "
                           "(ask `opfor calc` on the machine that holds it)",
                           name);
        int t = value_text(v, text, sizeof text);
        if (t < 0)
            return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                           "field '%s': give a string, a number, true/false or nil", name);
        if (t == 0)
            continue;
        memcpy(q->texts[fid], text, sizeof text);
        why[0] = '\0';
        if (opfor_calc_parse(c, model, q->form, fid, q->texts[fid], &q->vals[fid], why,
                             sizeof why) != 0) {
            strip_flag_dashes(why);
            return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
        }
    }
    return 0;
}

int opfor__calc_eval(const void *model, const msgpack_object *params, opfor__calc_q_t *q, char *msg,
                     size_t size) {
    static const char *const allowed[] = {"ruleset", "action", "fields", "model",
                                          "rolled",  "schema", NULL};
    char why[160];
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0)
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
    memset(q->vals, 0, sizeof q->vals);
    q->parts_ok = 0;
    int code = ruleset_get(params, &q->rs, msg, size);
    if (code)
        return code;
    const opfor_ruleset_calc_t *c = q->rs->calc;
    char action[64], list[1024];
    int rc = opfor_rpc_params_str(params, "action", action, sizeof action, why, sizeof why);
    if (rc < 0)
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s; actions: %s",
                       rc == OPFOR_ENOENT ? "param 'action' is required" : why,
                       opfor_calc_action_list(c, list, sizeof list));
    q->form = opfor_form_find(c->actions, c->nactions, action);
    if (!q->form || q->form->nfields > OPFOR__CALC_MAX_FIELDS)
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "unknown action '%s'; actions: %s",
                       action, opfor_calc_action_list(c, list, sizeof list));
    const msgpack_object *so = opfor_rpc_params_get(params, "schema");
    if (so && so->type != MSGPACK_OBJECT_BOOLEAN && so->type != MSGPACK_OBJECT_NIL)
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                       "param 'schema' must be true or false");
    q->schema = so && so->type == MSGPACK_OBJECT_BOOLEAN && so->via.boolean;
    char rolled[64] = "";
    rc = opfor_rpc_params_str(params, "rolled", rolled, sizeof rolled, why, sizeof why);
    if (rc == OPFOR_EINVAL)
        return err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);

    /* the model: the daemon's for the default calculator, else one loaded for this call */
    void *own = NULL;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    if (q->rs != opfor__calc_default())
        model = NULL;
    if (!model && c->model_load && c->model_load(NULL, &own, &d) != 0)
        return err_set(msg, size, OPFOR_RPC_E_INTERNAL, "built-in model: %s", d.msg);
    code = read_fields(c, own ? own : model, opfor_rpc_params_get(params, "fields"), q, msg, size);
    const msgpack_object *mo = opfor_rpc_params_get(params, "model");
    if (!code && mo && mo->type != MSGPACK_OBJECT_NIL) {
        char *text = NULL;
        void *custom = NULL;
        if (mo->type != MSGPACK_OBJECT_STR || memchr(mo->via.str.ptr, 0, mo->via.str.size) ||
            !c->model_load_text)
            code = err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS,
                           c->model_load_text ? "param 'model' must be YAML text (model.yaml keys)"
                                              : "this calculator takes no inline model");
        else if (!(text = malloc(mo->via.str.size + 1)))
            code = err_set(msg, size, OPFOR_RPC_E_INTERNAL, "out of memory");
        if (!code) {
            memcpy(text, mo->via.str.ptr, mo->via.str.size);
            text[mo->via.str.size] = '\0';
            opfor_diag_clear(&d);
            if (c->model_load_text(text, "model", &custom, &d) < 0) {
                char where[800];
                code = err_set(msg, size, OPFOR_RPC_E_INVALID_PARAMS, "%s",
                               opfor_diag_format(&d, where, sizeof where));
            } else {
                if (own && c->model_free)
                    c->model_free(own);
                own = custom;
            }
        }
        free(text);
    }
    if (!code) {
        char why2[600];
        why2[0] = '\0';
        /* the ruleset's lines of text and the distribution travel only in the shared
         * schema's keys */
        unsigned skip = q->schema ? 0 : OPFOR_CALC_SKIP_TEXT | OPFOR_CALC_SKIP_DIST;
        /* the ruleset's own parts are packed as it makes them; parts that outgrow q->parts
         * (or the tree's limits) are asked again through the tree, which keeps the entries
         * that were complete */
        opfor__calc_parts_init(&q->parts, q->parts_max);
        q->ans.overflow = 0; /* (left as it was when the fields are refused) */
        rc = opfor_calc_run_to(c, own ? own : model, q->form, q->vals, rolled, skip,
                               &q->parts.writer, &q->ans, why2, sizeof why2);
        q->parts_ok = !q->ans.overflow;
        if (!q->parts_ok)
            rc = opfor_calc_run_to(c, own ? own : model, q->form, q->vals, rolled, skip, NULL,
                                   &q->ans, why2, sizeof why2);
        if (rc < 0) {
            strip_flag_dashes(why2);
            code = err_set(msg, size, opfor_rpc_err_from_opfor(rc), "%s",
                           why2[0] ? why2 : opfor_strerror(rc));
        } else if (!q->ans.allowed) {
            /* a combination the rules forbid is an answer, not an error: "allowed": false
             * and the reason, worded for a client (fields without their dashes) */
            strip_flag_dashes(q->ans.reason);
        }
    }
    if (own && c->model_free)
        c->model_free(own);
    return code;
}

int opfor__method_calc(opfor_call_t *call, const msgpack_object *params) {
    char msg[768];
    opfor__calc_q_t q; /* ~60 KB on the loop thread's stack: no allocation per call */
    q.parts_max = 0;
    int code = opfor__calc_eval(opfor__server_model(call->srv), params, &q, msg, sizeof msg);
    if (code)
        opfor_call_error(call, code, "%s", msg);
    else {
        opfor__calc_pack(opfor_call_result_begin(call), &q);
        opfor_call_result_end(call);
    }
    return 0;
}

/* ---------------------------------------------------------------- calc.list */

int opfor__method_calc_list(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"ruleset", NULL};
    char why[160], buf[512];
    const opfor_ruleset_t *rs = NULL;
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0) {
        opfor_call_error(call, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
        return 0;
    }
    int code = ruleset_get(params, &rs, why, sizeof why);
    if (code) {
        opfor_call_error(call, code, "%s", why);
        return 0;
    }
    const opfor_ruleset_calc_t *c = rs->calc;
    const void *m = rs == opfor__calc_default() ? opfor__server_model(call->srv) : NULL;
    void *own = NULL;
    opfor_diag_t d;
    if (!m && c->model_load && c->model_load(NULL, &own, &d) != 0) {
        opfor_call_error(call, OPFOR_RPC_E_INTERNAL, "built-in model: %s", d.msg);
        return 0;
    }
    if (own)
        m = own;
    msgpack_packer *pk = opfor_call_result_begin(call);
    msgpack_pack_map(pk, 2);
    kv_str(pk, "ruleset", rs->name);
    KEY(pk, "actions");
    msgpack_pack_array(pk, (size_t)c->nactions);
    for (int id = 0; id < c->nactions; id++) {
        const opfor_form_t *a = &c->actions[id];
        msgpack_pack_map(pk, 5);
        kv_str(pk, "name", a->name);
        kv_str(pk, "title", a->title);
        kv_str(pk, "summary", a->help);
        kv_str(pk, "rules", a->section);
        KEY(pk, "fields");
        msgpack_pack_array(pk, (size_t)a->nfields);
        for (int i = 0; i < a->nfields; i++) {
            const opfor_field_t *fd = &a->fields[i];
            int nchoices = 0;
            while (fd->choices && fd->choices[nchoices])
                nchoices++;
            int is_int = fd->type == OPFOR_FIELD_INT;
            opfor_value_t v;
            msgpack_pack_map(pk, 6 + (fd->choices != NULL) + 2 * is_int);
            kv_str(pk, "name", fd->name);
            kv_str(pk, "label", fd->label);
            kv_str(pk, "kind", fd->kind ? fd->kind : opfor_field_type_name(fd->type));
            kv_str(pk, "allowed", opfor_calc_allowed(c, m, a, i, buf, sizeof buf));
            opfor_field_resolve(fd, NULL, &v);
            kv_str(pk, "default", opfor_field_text(fd, &v, buf, sizeof buf));
            if (fd->choices) {
                KEY(pk, "values");
                msgpack_pack_array(pk, (size_t)nchoices);
                for (int k = 0; k < nchoices; k++)
                    pack_cstr(pk, fd->choices[k]);
            }
            if (is_int) {
                kv_int(pk, "min", (long long)fd->min);
                kv_int(pk, "max", (long long)fd->max);
            }
            kv_str(pk, "type", opfor_field_type_name(fd->type));
        }
    }
    opfor_call_result_end(call);
    if (own && c->model_free)
        c->model_free(own);
    return 0;
}
