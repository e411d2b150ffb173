/* tests/io/test_frame.c — the frame scanner: every MessagePack type, split and joined input,
 * hostile headers (huge counts and lengths, deep nesting, 0xc1) and a seeded property test
 * that compares the scanner's verdict with msgpack_unpack_next() on valid and mutated frames.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "io/pack_kv.h"
#include "opfor/frame.h"
#include "opfor/rng.h"

/* ---- helpers ---- */

typedef void (*pack_fn)(msgpack_packer *pk);

static opfor_frame_status_t scan(const uint8_t *b, size_t n, opfor_frame_result_t *r) {
    return opfor_frame_scan(b, n, NULL, r);
}

/* Full buffer: COMPLETE with exactly n bytes; every proper prefix: NEED_MORE (for big frames
 * the first and last 1024 prefixes and every 997th between, to stay linear-ish). */
static void assert_frame_exact(const uint8_t *b, size_t n) {
    opfor_frame_result_t r;
    assert_int_equal(scan(b, n, &r), OPFOR_FRAME_COMPLETE);
    assert_int_equal(r.len, n);
    for (size_t k = 0; k < n; k++) {
        if (n > 4096 && k > 1024 && k + 1024 < n && k % 997 != 0)
            continue;
        assert_int_equal(scan(b, k, &r), OPFOR_FRAME_NEED_MORE);
    }
}

static char big[70000]; /* zero bytes for str/bin bodies (read-only after start) */

static void p_fixstr(msgpack_packer *pk) {
    msgpack_pack_str_with_body(pk, "hello", 5);
}
static void p_fixarray(msgpack_packer *pk) {
    msgpack_pack_array(pk, 3);
    msgpack_pack_nil(pk);
    msgpack_pack_str_with_body(pk, "ab", 2);
    msgpack_pack_array(pk, 0);
}
static void p_array16(msgpack_packer *pk) {
    msgpack_pack_array(pk, 20);
    for (int i = 0; i < 20; i++)
        msgpack_pack_int(pk, i * 1000);
}
static void p_array32(msgpack_packer *pk) {
    msgpack_pack_array(pk, 70000);
    for (int i = 0; i < 70000; i++)
        msgpack_pack_int(pk, i & 0x7f);
}
static void p_fixmap(msgpack_packer *pk) {
    msgpack_pack_map(pk, 2);
    msgpack_pack_str_with_body(pk, "a", 1);
    msgpack_pack_map(pk, 0);
    msgpack_pack_str_with_body(pk, "b", 1);
    msgpack_pack_double(pk, 1.0);
}
static void p_map16(msgpack_packer *pk) {
    msgpack_pack_map(pk, 17);
    for (int i = 0; i < 17; i++) {
        msgpack_pack_int(pk, i);
        msgpack_pack_true(pk);
    }
}
static void p_map32(msgpack_packer *pk) {
    msgpack_pack_map(pk, 65536);
    for (int i = 0; i < 65536; i++) {
        msgpack_pack_int(pk, 1);
        msgpack_pack_nil(pk);
    }
}

/* One sample frame: how it is packed (a scalar, n zero bytes of a str, bin or ext 5 body, or
 * a function) and the type byte it must start with. */
typedef enum {
    S_NIL,
    S_TRUE,
    S_FALSE,
    S_U8,
    S_I8,
    S_U64,
    S_I64,
    S_F32,
    S_F64,
    S_STR,
    S_BIN,
    S_EXT,
    S_FN
} sample_kind_t;

typedef struct {
    uint8_t first; /* expected type byte */
    sample_kind_t kind;
    uint64_t u; /* S_U8, S_U64: the value; S_STR, S_BIN, S_EXT: the body's length */
    int64_t i;  /* S_I8, S_I64: the value */
    double d;   /* S_F32, S_F64: the value */
    pack_fn f;  /* S_FN: packs the sample */
} sample_t;

static void pack_sample(msgpack_packer *pk, const sample_t *s) {
    switch (s->kind) {
    case S_NIL:
        msgpack_pack_nil(pk);
        break;
    case S_U8:
        msgpack_pack_uint8(pk, (uint8_t)s->u);
        break;
    case S_U64:
        msgpack_pack_uint64(pk, s->u);
        break;
    case S_TRUE:
        msgpack_pack_true(pk);
        break;
    case S_STR:
        msgpack_pack_str_with_body(pk, big, (size_t)s->u);
        break;
    case S_I8:
        msgpack_pack_int8(pk, (int8_t)s->i);
        break;
    case S_FALSE:
        msgpack_pack_false(pk);
        break;
    case S_I64:
        msgpack_pack_int64(pk, s->i);
        break;
    case S_EXT:
        msgpack_pack_ext_with_body(pk, big, (size_t)s->u, 5);
        break;
    case S_F32:
        msgpack_pack_float(pk, (float)s->d);
        break;
    case S_BIN:
        msgpack_pack_bin_with_body(pk, big, (size_t)s->u);
        break;
    case S_F64:
        msgpack_pack_double(pk, s->d);
        break;
    case S_FN:
        s->f(pk);
        break;
    }
}

static const sample_t samples[] = {
    {0xc0, S_NIL, .f = NULL},      {0xc3, S_TRUE, .f = NULL},       {0xc2, S_FALSE, .f = NULL},
    {0x07, S_U8, .u = 7},          {0xfd, S_I8, .i = -3},           {0xcc, S_U64, .u = 200},
    {0xcd, S_U64, .u = 60000},     {0xce, S_U64, .u = 4000000000u}, {0xcf, S_U64, .u = UINT64_MAX},
    {0xd0, S_I64, .i = -100},      {0xd1, S_I64, .i = -30000},      {0xd2, S_I64, .i = -2000000000},
    {0xd3, S_I64, .i = INT64_MIN}, {0xca, S_F32, .d = 1.5},         {0xcb, S_F64, .d = 2.25},
    {0xa5, S_FN, .f = p_fixstr},   {0xd9, S_STR, .u = 200},         {0xda, S_STR, .u = 300},
    {0xdb, S_STR, .u = 66000},     {0xc4, S_BIN, .u = 3},           {0xc5, S_BIN, .u = 1000},
    {0xc6, S_BIN, .u = 65536},     {0xd4, S_EXT, .u = 1},           {0xd5, S_EXT, .u = 2},
    {0xd6, S_EXT, .u = 4},         {0xd7, S_EXT, .u = 8},           {0xd8, S_EXT, .u = 16},
    {0xc7, S_EXT, .u = 3},         {0xc8, S_EXT, .u = 400},         {0xc9, S_EXT, .u = 66000},
    {0x93, S_FN, .f = p_fixarray}, {0xdc, S_FN, .f = p_array16},    {0xdd, S_FN, .f = p_array32},
    {0x82, S_FN, .f = p_fixmap},   {0xde, S_FN, .f = p_map16},      {0xdf, S_FN, .f = p_map32},
};

/* Packs sample s into out (at most cap bytes); returns its length. */
static size_t packed(const sample_t *s, uint8_t *out, size_t cap) {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    pack_open(&sb, &pk);
    pack_sample(&pk, s);
    assert_true(sb.size <= cap);
    memcpy(out, sb.data, sb.size);
    size_t n = sb.size;
    msgpack_sbuffer_destroy(&sb);
    return n;
}

#define NSAMPLES (sizeof samples / sizeof samples[0])
#define SAMPLE_CAP (300 * 1024)

/* ---- tests ---- */

static void frame_each_type_complete_and_byte_by_byte(void **state) {
    (void)state;
    uint8_t *b = malloc(SAMPLE_CAP);
    for (size_t i = 0; i < NSAMPLES; i++) {
        size_t n = packed(&samples[i], b, SAMPLE_CAP);
        assert_int_equal(b[0], samples[i].first);
        assert_frame_exact(b, n);
    }
    free(b);
}

static void frame_many_frames_in_one_buffer(void **state) {
    (void)state;
    uint8_t *b = malloc(NSAMPLES * SAMPLE_CAP);
    size_t lens[NSAMPLES], total = 0;
    for (size_t i = 0; i < NSAMPLES; i++) {
        lens[i] = packed(&samples[i], b + total, SAMPLE_CAP);
        total += lens[i];
    }
    size_t off = 0;
    for (size_t i = 0; i < NSAMPLES; i++) {
        opfor_frame_result_t r;
        assert_int_equal(scan(b + off, total - off, &r), OPFOR_FRAME_COMPLETE);
        assert_int_equal(r.len, lens[i]);
        off += r.len;
    }
    assert_int_equal(off, total);
    free(b);
}

static size_t nested(uint8_t *b, int depth, int use_map, int empty_inner) {
    size_t n = 0;
    for (int i = 0; i < depth; i++) {
        int last = i == depth - 1;
        if (use_map) {
            b[n++] = (uint8_t)(last && empty_inner ? 0x80 : 0x81);
            if (!(last && empty_inner))
                b[n++] = 0xa1, b[n++] = 'k';
        } else {
            b[n++] = (uint8_t)(last && empty_inner ? 0x90 : 0x91);
        }
    }
    if (!empty_inner)
        b[n++] = 0x2a;
    return n;
}

static void frame_nesting_16_accepted_17_rejected(void **state) {
    (void)state;
    uint8_t b[256];
    opfor_frame_result_t r;
    for (int use_map = 0; use_map <= 1; use_map++) {
        for (int empty = 0; empty <= 1; empty++) {
            size_t n = nested(b, 16, use_map, empty);
            assert_frame_exact(b, n);
            n = nested(b, 17, use_map, empty);
            assert_int_equal(scan(b, n, &r), OPFOR_FRAME_INVALID);
            assert_non_null(strstr(r.reason, "nested"));
            assert_int_equal(r.offset, use_map ? (empty ? 16 * 3 : 16 * 3) : 16);
            /* Rejected as soon as the 17th header is seen, even with the rest missing. */
            assert_int_equal(scan(b, r.offset + 1, &r), OPFOR_FRAME_INVALID);
        }
    }
    /* Custom limit: depth 2 allows [[1]] but not [[[1]]]. */
    opfor_frame_limits_t lim = {1024, 2};
    assert_int_equal(opfor_frame_scan((const uint8_t *)"\x91\x91\x01", 3, &lim, &r),
                     OPFOR_FRAME_COMPLETE);
    assert_int_equal(opfor_frame_scan((const uint8_t *)"\x91\x91\x91\x01", 4, &lim, &r),
                     OPFOR_FRAME_INVALID);
}

static void frame_map_claiming_2p32_entries_rejected(void **state) {
    (void)state;
    uint8_t b[16] = {0xdf, 0xff, 0xff, 0xff, 0xff};
    memset(b + 5, 0xc0, 10);
    opfor_frame_result_t r;
    assert_int_equal(scan(b, 15, &r), OPFOR_FRAME_INVALID);
    assert_int_equal(r.offset, 0);
    assert_non_null(strstr(r.reason, "map count"));
    /* Also with only the header present: invalid, not "need more". */
    assert_int_equal(scan(b, 5, &r), OPFOR_FRAME_INVALID);
    /* Array32 likewise, and the same header nested inside a valid array. */
    uint8_t a[8] = {0x92, 0xc0, 0xdd, 0xff, 0xff, 0xff, 0xff, 0xc0};
    assert_int_equal(scan(a, 8, &r), OPFOR_FRAME_INVALID);
    assert_int_equal(r.offset, 2);
    assert_non_null(strstr(r.reason, "array count"));
}

static void frame_count_boundaries_at_size_limit(void **state) {
    (void)state;
    const uint32_t max = OPFOR_FRAME_MAX_SIZE_DEFAULT;
    opfor_frame_result_t r;
    uint8_t h[5] = {0xdd};
    /* 5-byte header + count one-byte elements: fits exactly when count = max - 5. */
    uint32_t count = max - 5;
    h[1] = (uint8_t)(count >> 24), h[2] = (uint8_t)(count >> 16), h[3] = (uint8_t)(count >> 8),
    h[4] = (uint8_t)count;
    assert_int_equal(scan(h, 5, &r), OPFOR_FRAME_NEED_MORE);
    count++;
    h[1] = (uint8_t)(count >> 24), h[2] = (uint8_t)(count >> 16), h[3] = (uint8_t)(count >> 8),
    h[4] = (uint8_t)count;
    assert_int_equal(scan(h, 5, &r), OPFOR_FRAME_INVALID);
    /* A map counts two elements per entry: (max - 5) / 2 entries fit, one more does not. */
    h[0] = 0xdf;
    count = (max - 5) / 2;
    h[1] = (uint8_t)(count >> 24), h[2] = (uint8_t)(count >> 16), h[3] = (uint8_t)(count >> 8),
    h[4] = (uint8_t)count;
    assert_int_equal(scan(h, 5, &r), OPFOR_FRAME_NEED_MORE);
    count++;
    h[1] = (uint8_t)(count >> 24), h[2] = (uint8_t)(count >> 16), h[3] = (uint8_t)(count >> 8),
    h[4] = (uint8_t)count;
    assert_int_equal(scan(h, 5, &r), OPFOR_FRAME_INVALID);
    /* A whole frame of exactly max bytes is accepted; max + 1 is not. */
    uint8_t *b = calloc(1, max + 1);
    b[0] = 0xdb;
    uint32_t len = max - 5;
    b[1] = (uint8_t)(len >> 24), b[2] = (uint8_t)(len >> 16), b[3] = (uint8_t)(len >> 8),
    b[4] = (uint8_t)len;
    assert_int_equal(scan(b, max, &r), OPFOR_FRAME_COMPLETE);
    assert_int_equal(r.len, max);
    len++;
    b[1] = (uint8_t)(len >> 24), b[2] = (uint8_t)(len >> 16), b[3] = (uint8_t)(len >> 8),
    b[4] = (uint8_t)len;
    assert_int_equal(scan(b, max + 1, &r), OPFOR_FRAME_INVALID);
    free(b);
}

static void frame_str_header_claiming_4gib_rejected(void **state) {
    (void)state;
    const uint8_t heads[][6] = {
        {0xdb, 0xff, 0xff, 0xff, 0xff, 'x'}, /* str32 */
        {0xc6, 0xff, 0xff, 0xff, 0xff, 'x'}, /* bin32 */
        {0xc9, 0xff, 0xff, 0xff, 0xff, 1},   /* ext32 */
    };
    opfor_frame_result_t r;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(scan(heads[i], 6, &r), OPFOR_FRAME_INVALID);
        assert_non_null(strstr(r.reason, "length"));
        assert_int_equal(scan(heads[i], 5, &r), OPFOR_FRAME_INVALID);
    }
    /* A str32 of 100 bytes with 10 present is merely incomplete. */
    uint8_t s[15] = {0xdb, 0, 0, 0, 100};
    assert_int_equal(scan(s, 15, &r), OPFOR_FRAME_NEED_MORE);
}

static void frame_truncated_and_empty_need_more(void **state) {
    (void)state;
    opfor_frame_result_t r;
    assert_int_equal(scan((const uint8_t *)"", 0, &r), OPFOR_FRAME_NEED_MORE);
    /* A request cut in the middle of its method name. */
    const uint8_t req[] = {0x94, 0x00, 0x01, 0xa4, 'p', 'i'};
    assert_int_equal(scan(req, sizeof req, &r), OPFOR_FRAME_NEED_MORE);
    /* A uint32 header without its payload. */
    assert_int_equal(scan((const uint8_t *)"\xce\x00\x01", 3, &r), OPFOR_FRAME_NEED_MORE);
}

static void frame_byte_c1_rejected(void **state) {
    (void)state;
    opfor_frame_result_t r;
    assert_int_equal(scan((const uint8_t *)"\xc1", 1, &r), OPFOR_FRAME_INVALID);
    assert_int_equal(scan((const uint8_t *)"\x92\x01\xc1", 3, &r), OPFOR_FRAME_INVALID);
    assert_int_equal(r.offset, 2);
    assert_non_null(strstr(r.reason, "0xc1"));
}

static void frame_small_custom_limit(void **state) {
    (void)state;
    opfor_frame_limits_t lim = {16, 16};
    opfor_frame_result_t r;
    uint8_t b[32] = {0xaf}; /* fixstr of 15 bytes: 16 bytes in all */
    assert_int_equal(opfor_frame_scan(b, 16, &lim, &r), OPFOR_FRAME_COMPLETE);
    assert_int_equal(r.len, 16);
    b[0] = 0xb0; /* 16 bytes of body: 17 in all */
    assert_int_equal(opfor_frame_scan(b, 3, &lim, &r), OPFOR_FRAME_INVALID);
    /* An array owing 15 elements after its header fills the limit; 16 do not fit. */
    assert_int_equal(opfor_frame_scan((const uint8_t *)"\x9f", 1, &lim, &r), OPFOR_FRAME_NEED_MORE);
    assert_int_equal(opfor_frame_scan((const uint8_t *)"\xdc\x00\x10", 3, &lim, &r),
                     OPFOR_FRAME_INVALID);
}

/* ---- property test: random objects, truncations, mutations, garbage ---- */

static void gen(msgpack_packer *pk, opfor_rng_t *rng, int depth) {
    uint32_t k = opfor_rng_below(rng, depth >= 6 ? 10 : 13);
    switch (k) {
    case 0:
        msgpack_pack_nil(pk);
        break;
    case 1:
        opfor_rng_below(rng, 2) ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
        break;
    case 2:
        msgpack_pack_uint64(pk, ((uint64_t)opfor_rng_u32(rng) << 32 | opfor_rng_u32(rng)) >>
                                    opfor_rng_below(rng, 64));
        break;
    case 3:
        msgpack_pack_int64(pk, -(int64_t)(opfor_rng_u32(rng) >> opfor_rng_below(rng, 32)) - 1);
        break;
    case 4:
        msgpack_pack_double(pk, (double)opfor_rng_u32(rng) / 7.0);
        break;
    case 5:
        msgpack_pack_float(pk, (float)opfor_rng_below(rng, 1000) / 3.0f);
        break;
    case 6: {
        uint32_t n = depth < 2 && opfor_rng_below(rng, 8) == 0 ? opfor_rng_below(rng, 70000)
                                                               : opfor_rng_below(rng, 40);
        msgpack_pack_str_with_body(pk, big, n);
        break;
    }
    case 7:
        msgpack_pack_bin_with_body(pk, big, opfor_rng_below(rng, 300));
        break;
    case 8: {
        static const uint32_t sizes[] = {1, 2, 4, 8, 16, 0, 3, 255, 256, 70000};
        msgpack_pack_ext_with_body(pk, big, sizes[opfor_rng_below(rng, depth < 2 ? 10 : 9)],
                                   (int8_t)opfor_rng_below(rng, 100));
        break;
    }
    case 9:
        msgpack_pack_uint8(pk, (uint8_t)opfor_rng_below(rng, 128));
        break;
    case 10:
    case 11: {
        uint32_t n = depth < 2 && opfor_rng_below(rng, 5) == 0 ? opfor_rng_below(rng, 40)
                                                               : opfor_rng_below(rng, 5);
        msgpack_pack_array(pk, n);
        for (uint32_t i = 0; i < n; i++)
            gen(pk, rng, depth + 1);
        break;
    }
    default: {
        uint32_t n = opfor_rng_below(rng, depth < 2 ? 20 : 4);
        msgpack_pack_map(pk, n);
        for (uint32_t i = 0; i < n; i++) {
            gen(pk, rng, depth + 1);
            gen(pk, rng, depth + 1);
        }
        break;
    }
    }
}

/* When the scanner calls a buffer complete, msgpack-c must decode exactly that many bytes. */
static void check_agrees(const uint8_t *b, size_t n, int *complete_count) {
    opfor_frame_result_t r;
    opfor_frame_status_t st = scan(b, n, &r);
    if (st == OPFOR_FRAME_NEED_MORE) {
        /* Only below the cap, and msgpack-c must also see an unfinished object. */
        assert_true(n < OPFOR_FRAME_MAX_SIZE_DEFAULT);
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        assert_int_equal(msgpack_unpack_next(&u, (const char *)b, n, &off),
                         MSGPACK_UNPACK_CONTINUE);
        msgpack_unpacked_destroy(&u);
        return;
    }
    if (st != OPFOR_FRAME_COMPLETE)
        return;
    (*complete_count)++;
    assert_true(r.len >= 1 && r.len <= n);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    msgpack_unpack_return rc = msgpack_unpack_next(&u, (const char *)b, n, &off);
    assert_int_equal(rc, MSGPACK_UNPACK_SUCCESS);
    assert_int_equal(off, r.len);
    msgpack_unpacked_destroy(&u);
}

static void frame_property_agrees_with_msgpack(void **state) {
    (void)state;
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 0x5eed0f4a3eULL, 7);
    int valid = 0, mutated_complete = 0, garbage_complete = 0;
    uint8_t *tmp = malloc(OPFOR_FRAME_MAX_SIZE_DEFAULT);
    for (int iter = 0; iter < 3000; iter++) {
        msgpack_sbuffer sb;
        msgpack_packer pk;
        pack_open(&sb, &pk);
        gen(&pk, &rng, 0);
        if (sb.size > OPFOR_FRAME_MAX_SIZE_DEFAULT) {
            msgpack_sbuffer_destroy(&sb);
            continue;
        }
        const uint8_t *b = (const uint8_t *)sb.data;
        size_t n = sb.size;
        /* A valid object within the depth limit (gen stays below 8 levels): exact length. */
        opfor_frame_result_t r;
        assert_int_equal(scan(b, n, &r), OPFOR_FRAME_COMPLETE);
        assert_int_equal(r.len, n);
        check_agrees(b, n, &valid);
        /* Random truncations are never complete. */
        for (int t = 0; t < 4 && n > 1; t++) {
            size_t k = opfor_rng_below(&rng, (uint32_t)n);
            assert_int_equal(scan(b, k, &r), OPFOR_FRAME_NEED_MORE);
        }
        /* Mutations: flip bytes; whatever the scanner calls complete msgpack-c agrees with. */
        for (int m = 0; m < 6; m++) {
            memcpy(tmp, b, n);
            int flips = 1 + (int)opfor_rng_below(&rng, 4);
            for (int f = 0; f < flips; f++)
                tmp[opfor_rng_below(&rng, (uint32_t)n)] = (uint8_t)opfor_rng_u32(&rng);
            check_agrees(tmp, n, &mutated_complete);
        }
        msgpack_sbuffer_destroy(&sb);
    }
    /* Pure garbage of assorted lengths. */
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = 1 + opfor_rng_below(&rng, iter % 100 == 0 ? 65536 : 64);
        for (size_t i = 0; i < n; i++)
            tmp[i] = (uint8_t)opfor_rng_u32(&rng);
        check_agrees(tmp, n, &garbage_complete);
    }
    free(tmp);
    assert_true(valid > 2900);
    assert_true(mutated_complete > 1000);
    assert_true(garbage_complete > 1000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frame_each_type_complete_and_byte_by_byte),
        cmocka_unit_test(frame_many_frames_in_one_buffer),
        cmocka_unit_test(frame_nesting_16_accepted_17_rejected),
        cmocka_unit_test(frame_map_claiming_2p32_entries_rejected),
        cmocka_unit_test(frame_count_boundaries_at_size_limit),
        cmocka_unit_test(frame_str_header_claiming_4gib_rejected),
        cmocka_unit_test(frame_truncated_and_empty_need_more),
        cmocka_unit_test(frame_byte_c1_rejected),
        cmocka_unit_test(frame_small_custom_limit),
        cmocka_unit_test(frame_property_agrees_with_msgpack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
