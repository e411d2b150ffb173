/* io/rpc.c — MessagePack-RPC envelopes: decode checked frames, encode responses, error table.
 *
 * Decoding uses msgpack_unpack_next() on one frame that opfor_frame_scan() already bounded, so
 * msgpack-c only ever allocates for counts the bytes can back. Faults are split by whether the
 * request id could be read: with an id the client gets an error response; without one the
 * connection is beyond repair and the server closes it.
 */
#include "opfor/rpc.h"

#include "opfor/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The error table as data: one lookup serves both the name and the message. */
typedef struct rpc_err {
    int code;
    const char *name, *msg;
} rpc_err_t;

static const rpc_err_t rpc_errs[] = {
#define OPFOR__XX(name, num, msg) {num, #name, msg},
    OPFOR_RPC_ERRORS(OPFOR__XX)
#undef OPFOR__XX
};

/* The table's row for code, or NULL. */
static const rpc_err_t *err_find(int code) {
    for (size_t i = 0; i < sizeof rpc_errs / sizeof rpc_errs[0]; i++)
        if (rpc_errs[i].code == code)
            return &rpc_errs[i];
    return NULL;
}

const char *opfor_rpc_err_name(int code) {
    const rpc_err_t *e = err_find(code);
    return e ? e->name : "UNKNOWN";
}

const char *opfor_rpc_err_message(int code) {
    const rpc_err_t *e = err_find(code);
    return e ? e->msg : "unknown error";
}

/* ------------------------------------------------------------------ hints */

static const char *const rpc_hints[OPFOR_RPC_HINT_COUNT] = {
#define OPFOR__XX(id, code, args) [OPFOR_RPC_HINT_##id] = code,
    OPFOR_RPC_HINTS(OPFOR__XX)
#undef OPFOR__XX
};

const char *opfor_rpc_hint_code(int id) {
    return id > 0 && id < OPFOR_RPC_HINT_COUNT ? rpc_hints[id] : NULL;
}

int opfor_rpc_hint_find(const char *code, size_t len) {
    for (int i = 1; i < OPFOR_RPC_HINT_COUNT; i++)
        if (strlen(rpc_hints[i]) == len && memcmp(rpc_hints[i], code, len) == 0)
            return i;
    return OPFOR_RPC_HINT_NONE;
}

void opfor_rpc_hint_set(opfor_rpc_hint_t *h, int id) {
    if (!h)
        return;
    h->id = id;
    h->nargs = 0;
}

void opfor_rpc_hint_str(opfor_rpc_hint_t *h, const char *key, const char *val) {
    if (!h || h->nargs >= OPFOR_RPC_HINT_MAX_ARGS)
        return;
    h->args[h->nargs].key = key;
    h->args[h->nargs].is_int = 0;
    snprintf(h->args[h->nargs].s, sizeof h->args[h->nargs].s, "%s", val ? val : "");
    h->nargs++;
}

void opfor_rpc_hint_int(opfor_rpc_hint_t *h, const char *key, int64_t val) {
    if (!h || h->nargs >= OPFOR_RPC_HINT_MAX_ARGS)
        return;
    h->args[h->nargs].key = key;
    h->args[h->nargs].is_int = 1;
    h->args[h->nargs].i = val;
    h->nargs++;
}

int opfor_rpc_err_from_opfor(int opfor_err) {
    switch (opfor_err) {
    case OPFOR_EINVAL:
    case OPFOR_ERANGE:
    case OPFOR_EPARSE:
        return OPFOR_RPC_E_INVALID_PARAMS;
    case OPFOR_ENOENT:
        return OPFOR_RPC_E_NOT_FOUND;
    case OPFOR_ENOTSUP:
        return OPFOR_RPC_E_UNSUPPORTED;
    case OPFOR_EILLEGAL:
        return OPFOR_RPC_E_ILLEGAL;
    case OPFOR_EFULL:
    case OPFOR_EBUSY:
        return OPFOR_RPC_E_BUSY;
    case OPFOR_ETIMEDOUT:
        return OPFOR_RPC_E_TIMEOUT;
    case OPFOR_ECANCELED:
        return OPFOR_RPC_E_CANCELLED;
    case OPFOR_EPROTO:
        return OPFOR_RPC_E_INVALID_REQUEST;
    case OPFOR_EAUTH:
        return OPFOR_RPC_E_UNAUTHORIZED;
    default:
        return OPFOR_RPC_E_INTERNAL;
    }
}

static int fault_set(opfor_rpc_fault_t *f, int err, int code, int has_id, uint32_t id,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int fault_set(opfor_rpc_fault_t *f, int err, int code, int has_id, uint32_t id,
                     const char *fmt, ...) {
    if (f) {
        f->code = code;
        f->has_id = has_id;
        f->id = id;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->message, sizeof f->message, fmt, ap);
        va_end(ap);
    }
    return err;
}

/* Reads a MessagePack-RPC message id (uint32). */
static int get_u32(const msgpack_object *o, uint32_t *out) {
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > UINT32_MAX)
        return -1;
    *out = (uint32_t)o->via.u64;
    return 0;
}

/* Validates a method name object and the params array; fills m. */
static int method_and_params(opfor_rpc_msg_t *m, const msgpack_object *meth,
                             const msgpack_object *params, opfor_rpc_fault_t *f, int has_id) {
    if (meth->type != MSGPACK_OBJECT_STR || meth->via.str.size == 0 || meth->via.str.size > 64)
        return fault_set(f, has_id ? OPFOR_EINVAL : OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST,
                         has_id, m->id, "method must be a string of 1 to 64 bytes");
    if (memchr(meth->via.str.ptr, 0, meth->via.str.size))
        return fault_set(f, has_id ? OPFOR_EINVAL : OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST,
                         has_id, m->id, "method name holds a NUL byte");
    m->method = meth->via.str.ptr;
    m->method_len = meth->via.str.size;
    if (params->type != MSGPACK_OBJECT_ARRAY || params->via.array.size > 1 ||
        (params->via.array.size == 1 && params->via.array.ptr[0].type != MSGPACK_OBJECT_MAP))
        return fault_set(f, has_id ? OPFOR_EINVAL : OPFOR_EPROTO, OPFOR_RPC_E_INVALID_PARAMS,
                         has_id, m->id, "params must be an array holding one map");
    m->params = params->via.array.size == 1 ? &params->via.array.ptr[0] : NULL;
    return 0;
}

int opfor_rpc_decode(opfor_rpc_msg_t *m, const void *frame, size_t len, opfor_rpc_fault_t *fault) {
    memset(m, 0, sizeof *m);
    msgpack_unpacked_init(&m->unpacked);
    if (fault)
        memset(fault, 0, sizeof *fault);
    size_t off = 0;
    msgpack_unpack_return r = msgpack_unpack_next(&m->unpacked, frame, len, &off);
    if (r != MSGPACK_UNPACK_SUCCESS || off != len)
        return fault_set(fault, OPFOR_EPROTO, OPFOR_RPC_E_PARSE, 0, 0,
                         "frame is not one MessagePack object");
    const msgpack_object *root = &m->unpacked.data;
    if (root->type != MSGPACK_OBJECT_ARRAY || root->via.array.size < 3 || root->via.array.size > 4)
        return fault_set(fault, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0, 0,
                         "a message must be an array of 3 or 4 elements");
    const msgpack_object *el = root->via.array.ptr;
    const uint32_t n = root->via.array.size;
    if (el[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER || el[0].via.u64 > 2)
        return fault_set(fault, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0, 0,
                         "message type must be 0 (request), 1 (response) or 2 (notification)");
    m->kind = (opfor_rpc_kind_t)el[0].via.u64;
    switch (m->kind) {
    case OPFOR_RPC_REQUEST:
        if (n != 4)
            return fault_set(fault, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0, 0,
                             "a request must be [0, id, method, params]");
        if (get_u32(&el[1], &m->id) < 0)
            return fault_set(fault, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0, 0,
                             "request id must be an unsigned 32-bit integer");
        return method_and_params(m, &el[2], &el[3], fault, 1);
    case OPFOR_RPC_RESPONSE:
        if (n != 4)
            return fault_set(fault, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0, 0,
                             "a response must be [1, id, error, result]");
        if (get_u32(&el[1], &m->id) < 0)
            return fault_set(fault, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0, 0,
                             "response id must be an unsigned 32-bit integer");
        m->error = &el[2];
        m->result = &el[3];
        return 0;
    case OPFOR_RPC_NOTIFY:
    default:
        if (n != 3)
            return fault_set(fault, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0, 0,
                             "a notification must be [2, method, params]");
        return method_and_params(m, &el[1], &el[2], fault, 0);
    }
}

void opfor_rpc_msg_free(opfor_rpc_msg_t *m) {
    if (!m)
        return;
    msgpack_unpacked_destroy(&m->unpacked);
    memset(m, 0, sizeof *m);
}

int opfor_rpc_method_is(const opfor_rpc_msg_t *m, const char *name) {
    size_t n = strlen(name);
    return m->method && m->method_len == n && memcmp(m->method, name, n) == 0;
}

/* --- params --- */

static int why_set(char *why, size_t size, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int why_set(char *why, size_t size, int err, const char *fmt, ...) {
    if (why && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return err;
}

static int key_is(const msgpack_object *k, const char *key) {
    size_t n = strlen(key);
    return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
           memcmp(k->via.str.ptr, key, n) == 0;
}

int opfor_rpc_params_check(const msgpack_object *params, const char *const *allowed, char *why,
                           size_t why_size) {
    if (!params)
        return 0;
    if (params->type != MSGPACK_OBJECT_MAP)
        return why_set(why, why_size, OPFOR_EINVAL, "params must be a map");
    const msgpack_object_kv *kv = params->via.map.ptr;
    for (uint32_t i = 0; i < params->via.map.size; i++) {
        const msgpack_object *k = &kv[i].key;
        if (k->type != MSGPACK_OBJECT_STR)
            return why_set(why, why_size, OPFOR_EINVAL, "params keys must be strings");
        int known = 0;
        for (const char *const *a = allowed; a && *a; a++)
            if (key_is(k, *a)) {
                known = 1;
                break;
            }
        int klen = k->via.str.size > 40 ? 40 : (int)k->via.str.size;
        if (!known)
            return why_set(why, why_size, OPFOR_EINVAL, "unknown param '%.*s'", klen,
                           k->via.str.ptr);
        for (uint32_t j = 0; j < i; j++)
            if (kv[j].key.via.str.size == k->via.str.size &&
                memcmp(kv[j].key.via.str.ptr, k->via.str.ptr, k->via.str.size) == 0)
                return why_set(why, why_size, OPFOR_EINVAL, "param '%.*s' given twice", klen,
                               k->via.str.ptr);
    }
    return 0;
}

const msgpack_object *opfor_rpc_params_get(const msgpack_object *params, const char *key) {
    if (!params || params->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < params->via.map.size; i++)
        if (key_is(&params->via.map.ptr[i].key, key))
            return &params->via.map.ptr[i].val;
    return NULL;
}

int opfor_rpc_params_str(const msgpack_object *params, const char *key, char *buf, size_t size,
                         char *why, size_t why_size) {
    const msgpack_object *v = opfor_rpc_params_get(params, key);
    if (!v)
        return OPFOR_ENOENT;
    if (v->type != MSGPACK_OBJECT_STR)
        return why_set(why, why_size, OPFOR_EINVAL, "param '%s' must be a string", key);
    if (memchr(v->via.str.ptr, 0, v->via.str.size))
        return why_set(why, why_size, OPFOR_EINVAL, "param '%s' holds a NUL byte", key);
    if ((size_t)v->via.str.size >= size)
        return why_set(why, why_size, OPFOR_EINVAL, "param '%s' is longer than %zu bytes", key,
                       size ? size - 1 : 0);
    memcpy(buf, v->via.str.ptr, v->via.str.size);
    buf[v->via.str.size] = '\0';
    return 0;
}

int opfor_rpc_params_int(const msgpack_object *params, const char *key, int64_t lo, int64_t hi,
                         int64_t *out, char *why, size_t why_size) {
    const msgpack_object *v = opfor_rpc_params_get(params, key);
    if (!v)
        return OPFOR_ENOENT;
    int64_t x;
    if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
        if (v->via.u64 > (uint64_t)INT64_MAX)
            return why_set(why, why_size, OPFOR_EINVAL, "param '%s' out of range", key);
        x = (int64_t)v->via.u64;
    } else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
        x = v->via.i64;
    } else {
        return why_set(why, why_size, OPFOR_EINVAL, "param '%s' must be an integer", key);
    }
    if (x < lo || x > hi)
        return why_set(why, why_size, OPFOR_EINVAL, "param '%s' must be between %lld and %lld", key,
                       (long long)lo, (long long)hi);
    *out = x;
    return 0;
}

int opfor_rpc_params_bool(const msgpack_object *params, const char *key, int *out, char *why,
                          size_t why_size) {
    const msgpack_object *v = opfor_rpc_params_get(params, key);
    if (!v)
        return OPFOR_ENOENT;
    if (v->type != MSGPACK_OBJECT_BOOLEAN)
        return why_set(why, why_size, OPFOR_EINVAL, "param '%s' must be true or false", key);
    *out = v->via.boolean ? 1 : 0;
    return 0;
}

void opfor_rpc_params_str_or(const msgpack_object *params, const char *key, char *buf,
                             size_t size) {
    if (opfor_rpc_params_str(params, key, buf, size, NULL, 0) != 0)
        buf[0] = '\0';
}

int64_t opfor_rpc_params_int_or(const msgpack_object *params, const char *key, int64_t lo,
                                int64_t hi, int64_t def) {
    int64_t v;
    return opfor_rpc_params_int(params, key, lo, hi, &v, NULL, 0) == 0 ? v : def;
}

double opfor_rpc_params_num_or(const msgpack_object *params, const char *key, double def) {
    const msgpack_object *v = opfor_rpc_params_get(params, key);
    if (!v)
        return def;
    if (v->type == MSGPACK_OBJECT_FLOAT32 || v->type == MSGPACK_OBJECT_FLOAT64)
        return v->via.f64;
    if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        return (double)v->via.u64;
    if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return (double)v->via.i64;
    return def;
}

/* --- encoding --- */

void opfor_rpc_pack_cstr(msgpack_packer *pk, const char *s) {
    size_t n = strlen(s);
    if (n < 32) { /* a fixstr, header and body in one write (the daemon packs many) */
        char b[32];
        b[0] = (char)(0xa0 | n);
        memcpy(b + 1, s, n);
        pk->callback(pk->data, b, n + 1);
        return;
    }
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

void opfor_rpc_pack_response_begin(msgpack_packer *pk, uint32_t id) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint8(pk, OPFOR_RPC_RESPONSE);
    msgpack_pack_uint32(pk, id);
    msgpack_pack_nil(pk);
}

void opfor_rpc_pack_error(msgpack_packer *pk, uint32_t id, int code, const char *message) {
    opfor_rpc_pack_error_hint(pk, id, code, message, NULL);
}

void opfor_rpc_pack_error_hint(msgpack_packer *pk, uint32_t id, int code, const char *message,
                               const opfor_rpc_hint_t *hint) {
    const char *hc = hint ? opfor_rpc_hint_code(hint->id) : NULL;
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint8(pk, OPFOR_RPC_RESPONSE);
    msgpack_pack_uint32(pk, id);
    msgpack_pack_array(pk, hc ? 3 : 2);
    msgpack_pack_int(pk, code);
    opfor_rpc_pack_cstr(pk, message && *message ? message : opfor_rpc_err_message(code));
    if (hc) {
        msgpack_pack_map(pk, 2);
        opfor_rpc_pack_cstr(pk, "hint");
        opfor_rpc_pack_cstr(pk, hc);
        opfor_rpc_pack_cstr(pk, "args");
        msgpack_pack_map(pk, (size_t)hint->nargs);
        for (int i = 0; i < hint->nargs; i++) {
            opfor_rpc_pack_cstr(pk, hint->args[i].key);
            if (hint->args[i].is_int)
                msgpack_pack_int64(pk, hint->args[i].i);
            else
                opfor_rpc_pack_cstr(pk, hint->args[i].s);
        }
    }
    msgpack_pack_nil(pk);
}

void opfor_rpc_pack_notify_begin(msgpack_packer *pk, const char *method) {
    msgpack_pack_array(pk, 3);
    msgpack_pack_uint8(pk, OPFOR_RPC_NOTIFY);
    opfor_rpc_pack_cstr(pk, method);
    msgpack_pack_array(pk, 1);
}

void opfor_rpc_pack_request_begin(msgpack_packer *pk, uint32_t id, const char *method) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint8(pk, OPFOR_RPC_REQUEST);
    msgpack_pack_uint32(pk, id);
    opfor_rpc_pack_cstr(pk, method);
    msgpack_pack_array(pk, 1);
}
