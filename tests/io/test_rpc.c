/* tests/io/test_rpc.c — MessagePack-RPC envelopes: decoding requests, notifications and
 * responses, every malformed-envelope path (with and without a usable id), the params helpers,
 * the encoders (round-tripped through msgpack-c) and the error-code table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include <msgpack.h>

#include "io/pack_kv.h"
#include "opfor/error.h"
#include "opfor/rpc.h"

typedef struct {
    msgpack_sbuffer sb;
    msgpack_packer pk;
} buf_t;

static void buf_init(buf_t *b) {
    pack_open(&b->sb, &b->pk);
}

static void str(msgpack_packer *pk, const char *s) {
    opfor_rpc_pack_cstr(pk, s);
}

static int decode(buf_t *b, opfor_rpc_msg_t *m, opfor_rpc_fault_t *f) {
    return opfor_rpc_decode(m, b->sb.data, b->sb.size, f);
}

static void rpc_decode_request_with_map(void **state) {
    (void)state;
    buf_t b;
    buf_init(&b);
    opfor_rpc_pack_request_begin(&b.pk, 4000000000u, "game.new");
    msgpack_pack_map(&b.pk, 1);
    str(&b.pk, "seed");
    msgpack_pack_int(&b.pk, 42);
    opfor_rpc_msg_t m;
    opfor_rpc_fault_t f;
    assert_int_equal(decode(&b, &m, &f), 0);
    assert_int_equal(m.kind, OPFOR_RPC_REQUEST);
    assert_int_equal(m.id, 4000000000u);
    assert_true(opfor_rpc_method_is(&m, "game.new"));
    assert_false(opfor_rpc_method_is(&m, "game"));
    assert_non_null(m.params);
    assert_int_equal(m.params->type, MSGPACK_OBJECT_MAP);
    int64_t seed = 0;
    assert_int_equal(opfor_rpc_params_int(m.params, "seed", 0, 100, &seed, NULL, 0), 0);
    assert_int_equal(seed, 42);
    opfor_rpc_msg_free(&m);
    opfor_rpc_msg_free(&m); /* twice is harmless */
    msgpack_sbuffer_destroy(&b.sb);
}

static void rpc_decode_empty_params_and_notification(void **state) {
    (void)state;
    buf_t b;
    buf_init(&b);
    msgpack_pack_array(&b.pk, 4);
    msgpack_pack_int(&b.pk, 0);
    msgpack_pack_int(&b.pk, 9);
    str(&b.pk, "ping");
    msgpack_pack_array(&b.pk, 0);
    opfor_rpc_msg_t m;
    opfor_rpc_fault_t f;
    assert_int_equal(decode(&b, &m, &f), 0);
    assert_null(m.params);
    assert_int_equal(m.id, 9);
    opfor_rpc_msg_free(&m);
    msgpack_sbuffer_clear(&b.sb);

    opfor_rpc_pack_notify_begin(&b.pk, "log");
    msgpack_pack_map(&b.pk, 0);
    assert_int_equal(decode(&b, &m, &f), 0);
    assert_int_equal(m.kind, OPFOR_RPC_NOTIFY);
    assert_true(opfor_rpc_method_is(&m, "log"));
    assert_non_null(m.params);
    assert_int_equal(m.params->via.map.size, 0);
    opfor_rpc_msg_free(&m);
    msgpack_sbuffer_destroy(&b.sb);
}

static void rpc_decode_response(void **state) {
    (void)state;
    buf_t b;
    buf_init(&b);
    opfor_rpc_pack_response_begin(&b.pk, 5);
    msgpack_pack_int(&b.pk, -7);
    opfor_rpc_msg_t m;
    opfor_rpc_fault_t f;
    assert_int_equal(decode(&b, &m, &f), 0);
    assert_int_equal(m.kind, OPFOR_RPC_RESPONSE);
    assert_int_equal(m.id, 5);
    assert_int_equal(m.error->type, MSGPACK_OBJECT_NIL);
    assert_int_equal(m.result->type, MSGPACK_OBJECT_NEGATIVE_INTEGER);
    assert_int_equal(m.result->via.i64, -7);
    opfor_rpc_msg_free(&m);
    msgpack_sbuffer_destroy(&b.sb);
}

/* Each builder packs a malformed message; has_id says whether the fault names the id 77. */
typedef struct {
    const char *what;
    void (*build)(msgpack_packer *pk);
    int err;
    int code;
    int has_id;
} bad_t;

static void b_not_array(msgpack_packer *pk) {
    msgpack_pack_map(pk, 0);
}
static void b_short(msgpack_packer *pk) {
    msgpack_pack_array(pk, 2);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, 1);
}
static void b_type3(msgpack_packer *pk) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 3);
    msgpack_pack_int(pk, 77);
    str(pk, "ping");
    msgpack_pack_array(pk, 0);
}
static void b_negative_id(msgpack_packer *pk) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, -1);
    str(pk, "ping");
    msgpack_pack_array(pk, 0);
}
static void b_big_id(msgpack_packer *pk) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_uint64(pk, 1ull << 32);
    str(pk, "ping");
    msgpack_pack_array(pk, 0);
}
static void b_request3(msgpack_packer *pk) {
    msgpack_pack_array(pk, 3);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, 77);
    str(pk, "ping");
}
static void b_method_int(msgpack_packer *pk) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, 77);
    msgpack_pack_int(pk, 1);
    msgpack_pack_array(pk, 0);
}
static void b_method_empty(msgpack_packer *pk) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, 77);
    str(pk, "");
    msgpack_pack_array(pk, 0);
}
static void b_method_nul(msgpack_packer *pk) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, 77);
    msgpack_pack_str_with_body(pk, "pi\0g", 4);
    msgpack_pack_array(pk, 0);
}
static void b_params_map(msgpack_packer *pk) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, 77);
    str(pk, "ping");
    msgpack_pack_map(pk, 0);
}
static void b_params_int(msgpack_packer *pk) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, 77);
    str(pk, "ping");
    msgpack_pack_array(pk, 1);
    msgpack_pack_int(pk, 1);
}
static void b_params_two(msgpack_packer *pk) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, 77);
    str(pk, "ping");
    msgpack_pack_array(pk, 2);
    msgpack_pack_map(pk, 0);
    msgpack_pack_map(pk, 0);
}
static void b_notify_params(msgpack_packer *pk) {
    msgpack_pack_array(pk, 3);
    msgpack_pack_int(pk, 2);
    str(pk, "ping");
    msgpack_pack_nil(pk);
}
static void b_two_objects(msgpack_packer *pk) {
    b_params_two(pk);
    msgpack_pack_nil(pk);
}

static const bad_t bads[] = {
    {"not an array", b_not_array, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0},
    {"two elements", b_short, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0},
    {"type 3", b_type3, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0},
    {"negative id", b_negative_id, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0},
    {"id 2^32", b_big_id, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0},
    {"request of 3", b_request3, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_REQUEST, 0},
    {"method int", b_method_int, OPFOR_EINVAL, OPFOR_RPC_E_INVALID_REQUEST, 1},
    {"method empty", b_method_empty, OPFOR_EINVAL, OPFOR_RPC_E_INVALID_REQUEST, 1},
    {"method NUL", b_method_nul, OPFOR_EINVAL, OPFOR_RPC_E_INVALID_REQUEST, 1},
    {"params map", b_params_map, OPFOR_EINVAL, OPFOR_RPC_E_INVALID_PARAMS, 1},
    {"params [1]", b_params_int, OPFOR_EINVAL, OPFOR_RPC_E_INVALID_PARAMS, 1},
    {"params [{},{}]", b_params_two, OPFOR_EINVAL, OPFOR_RPC_E_INVALID_PARAMS, 1},
    {"notify nil params", b_notify_params, OPFOR_EPROTO, OPFOR_RPC_E_INVALID_PARAMS, 0},
    {"two objects", b_two_objects, OPFOR_EPROTO, OPFOR_RPC_E_PARSE, 0},
};

static void rpc_decode_malformed_envelopes(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        buf_t b;
        buf_init(&b);
        bads[i].build(&b.pk);
        opfor_rpc_msg_t m;
        opfor_rpc_fault_t f;
        int rc = decode(&b, &m, &f);
        if (rc != bads[i].err || f.code != bads[i].code || f.has_id != bads[i].has_id)
            fail_msg("%s: rc %d code %d has_id %d (%s)", bads[i].what, rc, f.code, f.has_id,
                     f.message);
        if (f.has_id)
            assert_int_equal(f.id, 77);
        assert_true(strlen(f.message) > 5);
        opfor_rpc_msg_free(&m);
        msgpack_sbuffer_destroy(&b.sb);
    }
}

static void rpc_params_helpers(void **state) {
    (void)state;
    buf_t b;
    buf_init(&b);
    msgpack_pack_map(&b.pk, 6);
    str(&b.pk, "name");
    str(&b.pk, "Hauptmann");
    str(&b.pk, "n");
    msgpack_pack_int(&b.pk, -5);
    str(&b.pk, "flag");
    msgpack_pack_true(&b.pk);
    str(&b.pk, "huge");
    msgpack_pack_uint64(&b.pk, UINT64_MAX);
    str(&b.pk, "nul");
    msgpack_pack_str_with_body(&b.pk, "a\0b", 3);
    str(&b.pk, "f");
    msgpack_pack_double(&b.pk, 1.25);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, b.sb.data, b.sb.size, NULL), MSGPACK_UNPACK_SUCCESS);
    const msgpack_object *p = &u.data;
    char why[128], s[16];
    static const char *const all[] = {"name", "n", "flag", "huge", "nul", "f", NULL};
    static const char *const some[] = {"name", "n", NULL};
    assert_int_equal(opfor_rpc_params_check(p, all, why, sizeof why), 0);
    assert_int_equal(opfor_rpc_params_check(p, some, why, sizeof why), OPFOR_EINVAL);
    assert_string_equal(why, "unknown param 'flag'");
    assert_int_equal(opfor_rpc_params_check(NULL, some, why, sizeof why), 0);

    assert_int_equal(opfor_rpc_params_str(p, "name", s, sizeof s, why, sizeof why), 0);
    assert_string_equal(s, "Hauptmann");
    assert_int_equal(opfor_rpc_params_str(p, "name", s, 5, why, sizeof why), OPFOR_EINVAL);
    assert_int_equal(opfor_rpc_params_str(p, "n", s, sizeof s, why, sizeof why), OPFOR_EINVAL);
    assert_string_equal(why, "param 'n' must be a string");
    assert_int_equal(opfor_rpc_params_str(p, "nul", s, sizeof s, why, sizeof why), OPFOR_EINVAL);
    assert_int_equal(opfor_rpc_params_str(p, "absent", s, sizeof s, why, sizeof why), OPFOR_ENOENT);

    int64_t v;
    assert_int_equal(opfor_rpc_params_int(p, "n", -10, 10, &v, why, sizeof why), 0);
    assert_int_equal(v, -5);
    assert_int_equal(opfor_rpc_params_int(p, "n", 0, 10, &v, why, sizeof why), OPFOR_EINVAL);
    assert_string_equal(why, "param 'n' must be between 0 and 10");
    assert_int_equal(opfor_rpc_params_int(p, "huge", 0, INT64_MAX, &v, why, sizeof why),
                     OPFOR_EINVAL);
    assert_int_equal(opfor_rpc_params_int(p, "name", 0, 1, &v, why, sizeof why), OPFOR_EINVAL);
    int flag = 0;
    assert_int_equal(opfor_rpc_params_bool(p, "flag", &flag, why, sizeof why), 0);
    assert_int_equal(flag, 1);
    assert_int_equal(opfor_rpc_params_bool(p, "n", &flag, why, sizeof why), OPFOR_EINVAL);
    assert_null(opfor_rpc_params_get(NULL, "n"));

    /* the lenient readers: the default (or "") for what is absent or not as expected */
    opfor_rpc_params_str_or(p, "name", s, sizeof s);
    assert_string_equal(s, "Hauptmann");
    static const char *const not_text[] = {"f", "n", "nul", "absent", NULL};
    for (int i = 0; not_text[i]; i++) {
        snprintf(s, sizeof s, "old");
        opfor_rpc_params_str_or(p, not_text[i], s, sizeof s);
        assert_string_equal(s, "");
    }
    snprintf(s, sizeof s, "old");
    opfor_rpc_params_str_or(p, "name", s, 5); /* does not fit */
    assert_string_equal(s, "");
    opfor_rpc_params_str_or(NULL, "name", s, sizeof s);
    assert_string_equal(s, "");
    assert_int_equal(opfor_rpc_params_int_or(p, "n", -10, 10, 7), -5);
    assert_int_equal(opfor_rpc_params_int_or(p, "n", 0, 10, 7), 7);
    assert_int_equal(opfor_rpc_params_int_or(p, "huge", 0, INT64_MAX, 7), 7);
    assert_int_equal(opfor_rpc_params_int_or(p, "name", 0, 10, 7), 7);
    assert_int_equal(opfor_rpc_params_int_or(p, "absent", 0, 10, 7), 7);
    assert_true(opfor_rpc_params_num_or(p, "f", 2.5) == 1.25);
    assert_true(opfor_rpc_params_num_or(p, "n", 2.5) == -5.0);
    assert_true(opfor_rpc_params_num_or(p, "huge", 2.5) == (double)UINT64_MAX);
    assert_true(opfor_rpc_params_num_or(p, "flag", 2.5) == 2.5);
    assert_true(opfor_rpc_params_num_or(p, "absent", 2.5) == 2.5);
    assert_true(opfor_rpc_params_num_or(NULL, "n", 2.5) == 2.5);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&b.sb);

    /* Duplicate and non-string keys. */
    buf_init(&b);
    msgpack_pack_map(&b.pk, 2);
    str(&b.pk, "n");
    msgpack_pack_int(&b.pk, 1);
    str(&b.pk, "n");
    msgpack_pack_int(&b.pk, 2);
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, b.sb.data, b.sb.size, NULL), MSGPACK_UNPACK_SUCCESS);
    assert_int_equal(opfor_rpc_params_check(&u.data, some, why, sizeof why), OPFOR_EINVAL);
    assert_string_equal(why, "param 'n' given twice");
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_clear(&b.sb);
    msgpack_pack_map(&b.pk, 1);
    msgpack_pack_int(&b.pk, 1);
    msgpack_pack_int(&b.pk, 2);
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, b.sb.data, b.sb.size, NULL), MSGPACK_UNPACK_SUCCESS);
    assert_int_equal(opfor_rpc_params_check(&u.data, some, why, sizeof why), OPFOR_EINVAL);
    assert_string_equal(why, "params keys must be strings");
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&b.sb);
}

static void rpc_encode_error_roundtrip(void **state) {
    (void)state;
    buf_t b;
    buf_init(&b);
    opfor_rpc_pack_error(&b.pk, 12, OPFOR_RPC_E_METHOD_NOT_FOUND, "unknown method 'x'");
    opfor_rpc_pack_error(&b.pk, 13, OPFOR_RPC_E_BUSY, NULL);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    assert_int_equal(msgpack_unpack_next(&u, b.sb.data, b.sb.size, &off), MSGPACK_UNPACK_SUCCESS);
    const msgpack_object *a = u.data.via.array.ptr;
    assert_int_equal(u.data.via.array.size, 4);
    assert_int_equal(a[0].via.u64, 1);
    assert_int_equal(a[1].via.u64, 12);
    assert_int_equal(a[2].type, MSGPACK_OBJECT_ARRAY);
    assert_int_equal(a[2].via.array.size, 2);
    assert_int_equal(a[2].via.array.ptr[0].via.i64, -32601);
    assert_int_equal(a[2].via.array.ptr[1].via.str.size, strlen("unknown method 'x'"));
    assert_int_equal(a[3].type, MSGPACK_OBJECT_NIL);
    assert_int_equal(msgpack_unpack_next(&u, b.sb.data, b.sb.size, &off), MSGPACK_UNPACK_SUCCESS);
    a = u.data.via.array.ptr;
    assert_int_equal(a[2].via.array.ptr[0].via.u64, 2);
    assert_memory_equal(a[2].via.array.ptr[1].via.str.ptr, "too many requests in flight",
                        a[2].via.array.ptr[1].via.str.size);
    assert_int_equal(off, b.sb.size);
    msgpack_unpacked_destroy(&u);

    /* The response decodes through opfor_rpc_decode too. */
    msgpack_sbuffer_clear(&b.sb);
    opfor_rpc_pack_error(&b.pk, 99, OPFOR_RPC_E_UNAUTHORIZED, "wrong token");
    opfor_rpc_msg_t m;
    opfor_rpc_fault_t f;
    assert_int_equal(decode(&b, &m, &f), 0);
    assert_int_equal(m.kind, OPFOR_RPC_RESPONSE);
    assert_int_equal(m.error->via.array.ptr[0].via.u64, OPFOR_RPC_E_UNAUTHORIZED);
    opfor_rpc_msg_free(&m);
    msgpack_sbuffer_destroy(&b.sb);
}

static void rpc_error_table(void **state) {
    (void)state;
    assert_string_equal(opfor_rpc_err_name(OPFOR_RPC_E_PARSE), "PARSE");
    assert_string_equal(opfor_rpc_err_name(-32602), "INVALID_PARAMS");
    assert_string_equal(opfor_rpc_err_name(12345), "UNKNOWN");
    assert_string_equal(opfor_rpc_err_message(OPFOR_RPC_E_METHOD_NOT_FOUND), "method not found");
    assert_string_equal(opfor_rpc_err_message(12345), "unknown error");
    /* Codes are distinct (a duplicate would also fail to compile in the name switch). */
    static const int codes[] = {
#define OPFOR__XX(name, num, msg) num,
        OPFOR_RPC_ERRORS(OPFOR__XX)
#undef OPFOR__XX
    };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        for (size_t j = 0; j < i; j++)
            assert_int_not_equal(codes[i], codes[j]);
    assert_int_equal(opfor_rpc_err_from_opfor(OPFOR_EINVAL), OPFOR_RPC_E_INVALID_PARAMS);
    assert_int_equal(opfor_rpc_err_from_opfor(OPFOR_ENOENT), OPFOR_RPC_E_NOT_FOUND);
    assert_int_equal(opfor_rpc_err_from_opfor(OPFOR_EILLEGAL), OPFOR_RPC_E_ILLEGAL);
    assert_int_equal(opfor_rpc_err_from_opfor(OPFOR_EBUSY), OPFOR_RPC_E_BUSY);
    assert_int_equal(opfor_rpc_err_from_opfor(OPFOR_ECANCELED), OPFOR_RPC_E_CANCELLED);
    assert_int_equal(opfor_rpc_err_from_opfor(OPFOR_EAUTH), OPFOR_RPC_E_UNAUTHORIZED);
    assert_int_equal(opfor_rpc_err_from_opfor(OPFOR_ENOMEM), OPFOR_RPC_E_INTERNAL);
    assert_int_equal(opfor_rpc_err_from_opfor(-999), OPFOR_RPC_E_INTERNAL);
}

/* An error with a hint packs [code, message, {"hint", "args"}]; args keep their order and
 * types, a fifth arg is dropped, long strings are cut; without a hint the error has two
 * elements. Hint codes are distinct and found back by name. */
static void rpc_error_hint(void **state) {
    (void)state;
    buf_t b;
    buf_init(&b);
    opfor_rpc_hint_t h = {0};
    opfor_rpc_pack_error_hint(&b.pk, 1, OPFOR_RPC_E_ILLEGAL, "no hint", &h);
    opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_ASK_ORDERS);
    opfor_rpc_hint_str(&h, "side", "Germans");
    opfor_rpc_hint_int(&h, "n", -3);
    char longs[300];
    memset(longs, 'x', sizeof longs - 1);
    longs[sizeof longs - 1] = '\0';
    opfor_rpc_hint_str(&h, "long", longs);
    opfor_rpc_hint_str(&h, "d", "4th");
    opfor_rpc_hint_str(&h, "e", "5th: dropped");
    assert_int_equal(h.nargs, OPFOR_RPC_HINT_MAX_ARGS);
    opfor_rpc_pack_error_hint(&b.pk, 2, OPFOR_RPC_E_ILLEGAL, "with hint", &h);
    opfor_rpc_hint_set(NULL, OPFOR_RPC_HINT_ASK_ORDERS); /* NULL: nothing happens */
    opfor_rpc_hint_str(NULL, "k", "v");
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    assert_int_equal(msgpack_unpack_next(&u, b.sb.data, b.sb.size, &off), MSGPACK_UNPACK_SUCCESS);
    assert_int_equal(u.data.via.array.ptr[2].via.array.size, 2);
    assert_int_equal(msgpack_unpack_next(&u, b.sb.data, b.sb.size, &off), MSGPACK_UNPACK_SUCCESS);
    const msgpack_object *e = &u.data.via.array.ptr[2];
    assert_int_equal(e->via.array.size, 3);
    const msgpack_object *hint = &e->via.array.ptr[2];
    const msgpack_object *code = opfor_rpc_params_get(hint, "hint");
    assert_non_null(code);
    assert_int_equal(code->via.str.size, strlen("ask_orders"));
    assert_memory_equal(code->via.str.ptr, "ask_orders", code->via.str.size);
    const msgpack_object *args = opfor_rpc_params_get(hint, "args");
    assert_int_equal(args->via.map.size, 4);
    assert_memory_equal(args->via.map.ptr[0].val.via.str.ptr, "Germans", 7);
    assert_int_equal(args->via.map.ptr[1].val.via.i64, -3);
    assert_int_equal(args->via.map.ptr[2].val.via.str.size, sizeof h.args[0].s - 1);
    assert_memory_equal(args->via.map.ptr[3].key.via.str.ptr, "d", 1);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&b.sb);

    for (int i = 1; i < OPFOR_RPC_HINT_COUNT; i++) {
        const char *c = opfor_rpc_hint_code(i);
        assert_non_null(c);
        assert_int_equal(opfor_rpc_hint_find(c, strlen(c)), i);
    }
    assert_null(opfor_rpc_hint_code(OPFOR_RPC_HINT_NONE));
    assert_null(opfor_rpc_hint_code(OPFOR_RPC_HINT_COUNT));
    assert_int_equal(opfor_rpc_hint_find("no_such_hint", 12), OPFOR_RPC_HINT_NONE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rpc_decode_request_with_map),
        cmocka_unit_test(rpc_decode_empty_params_and_notification),
        cmocka_unit_test(rpc_decode_response),
        cmocka_unit_test(rpc_decode_malformed_envelopes),
        cmocka_unit_test(rpc_params_helpers),
        cmocka_unit_test(rpc_encode_error_roundtrip),
        cmocka_unit_test(rpc_error_table),
        cmocka_unit_test(rpc_error_hint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
