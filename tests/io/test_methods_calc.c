/* tests/io/test_methods_calc.c — the calc method's one-pass packing (io/methods_calc.c) held to
 * the plain path it replaced: a ruleset's own parts written straight to MessagePack through the
 * answer's writer must give the bytes that building the answer's tree and walking it gives.
 *
 * Every registered calculator is asked every action with its defaults, each value of each field
 * alone, seeded random combinations, dice rolled at the table and the shared schema; each
 * question is answered both ways (parts_max 0: one pass; 1: the tree) and the codes, messages
 * and packed bytes compared. Random trees built through opfor_calc_extra_* (maps and arrays of
 * 16 and more entries, long strings, integers at every encoding boundary, non-finite numbers,
 * the node, depth and pool limits) compare the writer with the tree node for node, and a sweep
 * cuts the writer's buffer at every length to prove the fallback to the tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "../../io/methods_calc_int.h"
#include "io/pack_kv.h"
#include "opfor/rng.h"

/* ---------------------------------------------------------------- asking */

/* The answer to params (bytes of a packed map) with the writer given parts_max bytes: the
 * code, the message or the packed result in *out (freed by the caller), and whether the
 * one-pass packing was used. */
typedef struct {
    int code;
    char msg[768];
    msgpack_sbuffer out;
    int parts_ok;
    size_t parts_len;
} reply_t;

static opfor__calc_q_t Q; /* large: kept off the stack */

static void ask(const void *model, const char *params, size_t len, size_t parts_max, reply_t *r) {
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    assert_int_equal(msgpack_unpack_next(&u, params, len, &off), MSGPACK_UNPACK_SUCCESS);
    memset(&Q, 0xa5, sizeof Q); /* nothing may depend on what the stack held before */
    Q.parts_max = parts_max;
    r->msg[0] = '\0';
    r->code = opfor__calc_eval(model, &u.data, &Q, r->msg, sizeof r->msg);
    msgpack_sbuffer_init(&r->out);
    r->parts_ok = r->code == 0 && Q.parts_ok;
    r->parts_len = Q.parts.len;
    if (r->code == 0) {
        msgpack_packer pk;
        msgpack_packer_init(&pk, &r->out, msgpack_sbuffer_write);
        opfor__calc_pack(&pk, &Q);
    }
    msgpack_unpacked_destroy(&u);
}

/* Asks params both ways and fails unless code, message and bytes agree. Returns 1 when the
 * one-pass packing answered (with parts), 0 otherwise. */
static int same_both_ways(const void *model, const msgpack_sbuffer *params) {
    reply_t one, tree;
    ask(model, params->data, params->size, 0, &one);
    ask(model, params->data, params->size, 1, &tree);
    assert_int_equal(one.code, tree.code);
    assert_string_equal(one.msg, tree.msg);
    if (one.out.size != tree.out.size ||
        (one.out.size && memcmp(one.out.data, tree.out.data, one.out.size) != 0))
        fail_msg("one pass and tree differ (%zu and %zu bytes)", one.out.size, tree.out.size);
    assert_false(tree.parts_ok && tree.parts_len > 0); /* 1 byte: the tree answered */
    int used = one.parts_ok && one.parts_len > 0;
    msgpack_sbuffer_destroy(&one.out);
    msgpack_sbuffer_destroy(&tree.out);
    return used;
}

/* One field value to send. */
typedef struct {
    int kind; /* 0 string, 1 bool, 2 integer, 3 float */
    const char *s;
    int b;
    long long i;
    double f;
} val_t;

static void pack_val(msgpack_packer *pk, const val_t *v) {
    switch (v->kind) {
    case 0:
        opfor_rpc_pack_cstr(pk, v->s);
        break;
    case 1:
        v->b ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
        break;
    case 2:
        msgpack_pack_long_long(pk, v->i);
        break;
    default:
        msgpack_pack_double(pk, v->f);
        break;
    }
}

/* The values tried for field fd (at most max): its choices, flags, limits and beyond. */
static int values_of(const opfor_field_t *fd, val_t *out, int max) {
    int n = 0;
#define ADD(...)                                                                                   \
    do {                                                                                           \
        if (n < max)                                                                               \
            out[n++] = (val_t){__VA_ARGS__};                                                       \
    } while (0)
    for (int k = 0; fd->choices && fd->choices[k]; k++)
        ADD(.kind = 0, .s = fd->choices[k]);
    switch (fd->type) {
    case OPFOR_FIELD_BOOL:
        ADD(.kind = 1, .b = 1);
        ADD(.kind = 1, .b = 0);
        ADD(.kind = 0, .s = "yes");
        break;
    case OPFOR_FIELD_INT:
        ADD(.kind = 2, .i = (long long)fd->min);
        ADD(.kind = 2, .i = (long long)fd->max);
        ADD(.kind = 2, .i = (long long)((fd->min + fd->max) / 2));
        ADD(.kind = 2, .i = (long long)fd->max + 1); /* refused */
        ADD(.kind = 0, .s = "3");
        break;
    case OPFOR_FIELD_NUM:
        ADD(.kind = 2, .i = 0);
        ADD(.kind = 2, .i = 3);
        ADD(.kind = 3, .f = 7.5);
        ADD(.kind = 0, .s = "20");
        ADD(.kind = 0, .s = "20in");
        ADD(.kind = 2, .i = 40);
        ADD(.kind = 2, .i = 100);
        ADD(.kind = 2, .i = -1); /* refused */
        break;
    default:
        ADD(.kind = 0, .s = "1,2");
        break;
    }
    ADD(.kind = 0, .s = "nonsense"); /* refused (or read as a name) */
#undef ADD
    return n;
}

/* Packs a calc params map: the ruleset, the action, nf fields (names[i] = vals[i]), rolled
 * ("" none) and schema (-1 none). */
static void pack_params(msgpack_sbuffer *sb, const char *rs, const char *action, int nf,
                        const char *const *names, const val_t *vals, const char *rolled,
                        int schema) {
    msgpack_packer pk;
    pack_open(sb, &pk);
    msgpack_pack_map(&pk, 3 + (rolled[0] != 0) + (schema >= 0));
    kstr(&pk, "ruleset", rs);
    kstr(&pk, "action", action);
    pack_key(&pk, "fields");
    msgpack_pack_map(&pk, (size_t)nf);
    for (int i = 0; i < nf; i++) {
        opfor_rpc_pack_cstr(&pk, names[i]);
        pack_val(&pk, &vals[i]);
    }
    if (rolled[0])
        kstr(&pk, "rolled", rolled);
    if (schema >= 0) {
        pack_key(&pk, "schema");
        schema ? msgpack_pack_true(&pk) : msgpack_pack_false(&pk);
    }
}

static const char *const ROLLED[] = {"", "1", "4", "6", "2,5", "6,6", "6,1", "1,3", "x"};
#define NROLLED (int)(sizeof ROLLED / sizeof ROLLED[0])

/* Every calculator, every action, field by field and in random combinations: the one-pass
 * packing answers as the tree does, and answers most of them. */
static void calc_one_pass_packs_as_the_tree(void **state) {
    (void)state;
    size_t nrs;
    const opfor_ruleset_entry_t *e = opfor_ruleset_list(&nrs);
    opfor_rng_t rng;
    opfor_rng_seed(&rng, 14, 1);
    int asked = 0, one_pass = 0;
    for (size_t r = 0; r < nrs; r++) {
        const opfor_ruleset_calc_t *c = e[r].rs->calc;
        if (!c)
            continue;
        void *model = NULL;
        opfor_diag_t d;
        if (c->model_load)
            assert_int_equal(c->model_load(NULL, &model, &d), 0);
        /* the daemon's model is the default calculator's; others load their own per call */
        const void *daemon_model = e[r].rs == opfor__calc_default() ? model : NULL;
        for (int a = 0; a < c->nactions; a++) {
            const opfor_form_t *f = &c->actions[a];
            msgpack_sbuffer sb;
            const char *names[OPFOR__CALC_MAX_FIELDS];
            val_t vals[OPFOR__CALC_MAX_FIELDS];
            for (int schema = -1; schema <= 1; schema++)
                for (int k = 0; k < NROLLED; k++) {
                    pack_params(&sb, e[r].name, f->name, 0, names, vals, ROLLED[k], schema);
                    one_pass += same_both_ways(daemon_model, &sb);
                    asked++;
                    msgpack_sbuffer_destroy(&sb);
                }
            for (int i = 0; i < f->nfields; i++) {
                val_t tries[32];
                int n = values_of(&f->fields[i], tries, 32);
                for (int k = 0; k < n; k++) {
                    names[0] = f->fields[i].name;
                    vals[0] = tries[k];
                    pack_params(&sb, e[r].name, f->name, 1, names, vals, "", k % 2);
                    one_pass += same_both_ways(daemon_model, &sb);
                    asked++;
                    msgpack_sbuffer_destroy(&sb);
                }
            }
            for (int round = 0; round < 60; round++) {
                int nf = 0;
                for (int i = 0; i < f->nfields && nf < OPFOR__CALC_MAX_FIELDS; i++) {
                    val_t tries[32];
                    int n = values_of(&f->fields[i], tries, 32);
                    if (n == 0 || opfor_rng_chance(&rng, 0.4))
                        continue;
                    /* mostly values the rules take, now and then one they refuse */
                    int k = (int)opfor_rng_below(
                        &rng, (uint32_t)(opfor_rng_chance(&rng, 0.9) && n > 1 ? n - 1 : n));
                    names[nf] = f->fields[i].name;
                    vals[nf++] = tries[k];
                }
                const char *rolled = ROLLED[opfor_rng_below(&rng, NROLLED)];
                pack_params(&sb, e[r].name, f->name, nf, names, vals, rolled,
                            opfor_rng_range(&rng, -1, 1));
                one_pass += same_both_ways(daemon_model, &sb);
                asked++;
                msgpack_sbuffer_destroy(&sb);
            }
        }
        if (model && c->model_free)
            c->model_free(model);
    }
    assert_true(asked > 0);
    /* not vacuous: most questions get an answer with parts, packed in one pass */
    assert_true(one_pass * 3 > asked);
}

/* The writer's buffer cut at every length: each answer that does not fit is asked again
 * through the tree and comes out the same. */
static void calc_one_pass_falls_back_when_full(void **state) {
    (void)state;
    const opfor_ruleset_t *rs = opfor__calc_default();
    if (!rs) {
        skip();
        return;
    }
    const opfor_ruleset_calc_t *c = rs->calc;
    void *model = NULL;
    opfor_diag_t d;
    if (c->model_load)
        assert_int_equal(c->model_load(NULL, &model, &d), 0);
    int cut = 0;
    for (int a = 0; a < c->nactions; a++) {
        msgpack_sbuffer sb;
        pack_params(&sb, rs->name, c->actions[a].name, 0, NULL, NULL, "", 1);
        reply_t ref, got;
        ask(model, sb.data, sb.size, 1, &ref);
        ask(model, sb.data, sb.size, 0, &got);
        size_t need = got.parts_len;
        msgpack_sbuffer_destroy(&got.out);
        /* (the writer asks room for an entry's largest encoding: it fits from a few bytes
         * past what it used) */
        for (size_t max = 2; ref.code == 0 && max <= need + 32; max++) {
            ask(model, sb.data, sb.size, max, &got);
            assert_int_equal(got.code, 0);
            assert_true(got.parts_ok ? max >= need : max < need + 32);
            cut += !got.parts_ok;
            assert_int_equal(got.out.size, ref.out.size);
            assert_memory_equal(got.out.data, ref.out.data, ref.out.size);
            msgpack_sbuffer_destroy(&got.out);
        }
        msgpack_sbuffer_destroy(&ref.out);
        msgpack_sbuffer_destroy(&sb);
    }
    assert_true(cut > 0);
    if (model && c->model_free)
        c->model_free(model);
}

/* ---------------------------------------------------------------- random trees */

static const opfor_form_t EMPTY_FORM = {"t", "T", "", "", NULL, 0};

/* Integers at the edges of MessagePack's encodings (within what a double holds exactly). */
static const long long INTS[] = {0,
                                 1,
                                 -1,
                                 -32,
                                 -33,
                                 127,
                                 128,
                                 -128,
                                 -129,
                                 255,
                                 256,
                                 -32768,
                                 -32769,
                                 65535,
                                 65536,
                                 2147483647LL,
                                 -2147483648LL,
                                 -2147483649LL,
                                 4294967295LL,
                                 4294967296LL,
                                 1LL << 52,
                                 -(1LL << 52)};
#define NINTS (int)(sizeof INTS / sizeof INTS[0])

/* A random string of n bytes (letters) in buf. */
static const char *text_of(opfor_rng_t *rng, char *buf, size_t n) {
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)('a' + opfor_rng_below(rng, 26));
    buf[n] = '\0';
    return buf;
}

/* Appends the same random tree (seeded by seed) to a, through whatever a writes to. */
static void build_tree(opfor_calc_answer_t *a, uint64_t seed, int nodes) {
    opfor_rng_t rng;
    opfor_rng_seed(&rng, seed, 7);
    static char key[64], s[3000];
    int depth = 0, in_map[64] = {0};
    for (int k = 0; k < nodes; k++) {
        int map = depth == 0 || in_map[depth - 1];
        const char *kk = NULL;
        if (map && !opfor_rng_chance(&rng, 0.05))
            kk = text_of(&rng, key, opfor_rng_below(&rng, 40));
        else if (!map && opfor_rng_chance(&rng, 0.1))
            kk = "ignored"; /* keys inside arrays are not sent */
        int op = (int)opfor_rng_below(&rng, 100);
        if (op < 8 && depth < 63) {
            int m = opfor_rng_chance(&rng, 0.5);
            m ? opfor_calc_extra_map(a, kk) : opfor_calc_extra_array(a, kk);
            in_map[depth++] = m;
        } else if (op < 20) {
            if (depth > 0 || seed % 16 == 5) /* at depth 0: refused, as the tree refuses it */
                opfor_calc_extra_end(a);
            if (depth > 0)
                depth--;
        } else if (op < 45) {
            size_t n = opfor_rng_chance(&rng, 0.02)  ? 2000 + opfor_rng_below(&rng, 900)
                       : opfor_rng_chance(&rng, 0.1) ? 200 + opfor_rng_below(&rng, 100)
                                                     : opfor_rng_below(&rng, 40);
            opfor_calc_extra_str(a, kk, text_of(&rng, s, n));
        } else if (op < 65) {
            opfor_calc_extra_int(a, kk, INTS[opfor_rng_below(&rng, NINTS)]);
        } else if (op < 85) {
            static const double NUMS[] = {0.5, -0.0, 1e300, -2.25, 3.0};
            int w = (int)opfor_rng_below(&rng, 8);
            opfor_calc_extra_num(a, kk,
                                 w < 5    ? NUMS[w]
                                 : w == 5 ? INFINITY
                                 : w == 6 ? NAN
                                          : opfor_rng_unit(&rng));
        } else if (op < 93) {
            opfor_calc_extra_bool(a, kk, opfor_rng_chance(&rng, 0.5));
        } else {
            opfor_calc_extra_nil(a, kk);
        }
    }
    while (depth-- > 0)
        opfor_calc_extra_end(a);
}

/* The packed result of tree `seed` built through the writer (one = 1) or the tree. */
static void pack_tree(uint64_t seed, int nodes, int one, msgpack_sbuffer *out, int *overflow) {
    memset(&Q, 0x5a, sizeof Q);
    Q.rs = opfor__calc_default();
    Q.form = &EMPTY_FORM;
    Q.schema = 0;
    Q.ans.skip = 0;
    Q.ans.writer = NULL;
    if (one) {
        opfor__calc_parts_init(&Q.parts, 0);
        Q.ans.writer = &Q.parts.writer;
    }
    opfor_calc_answer_clear(&Q.ans);
    assert_ptr_equal(Q.ans.writer, one ? &Q.parts.writer : NULL); /* the clear keeps it */
    build_tree(&Q.ans, seed, nodes);
    Q.ans.writer = NULL;
    *overflow = Q.ans.overflow;
    Q.parts_ok = one && !Q.ans.overflow;
    msgpack_sbuffer_init(out);
    msgpack_packer pk;
    msgpack_packer_init(&pk, out, msgpack_sbuffer_write);
    opfor__calc_pack(&pk, &Q);
}

/* Random trees, small and past the tree's limits: the writer gets exactly the nodes the tree
 * holds (the same overflow), and packs them into the same bytes. */
static void calc_writer_packs_as_the_tree(void **state) {
    (void)state;
    if (!opfor__calc_default()) {
        skip();
        return;
    }
    int overflowed = 0, fitted = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        int nodes = seed % 4 == 0 ? 700 : (int)(seed % 97) + 1;
        msgpack_sbuffer one, tree;
        int ov1, ov2;
        pack_tree(seed, nodes, 1, &one, &ov1);
        pack_tree(seed, nodes, 0, &tree, &ov2);
        assert_int_equal(ov1, ov2);
        if (!ov1) {
            assert_int_equal(one.size, tree.size);
            assert_memory_equal(one.data, tree.data, one.size);
            fitted++;
        } else {
            overflowed++;
        }
        /* the bytes read back as one map */
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        assert_int_equal(msgpack_unpack_next(&u, tree.data, tree.size, &off),
                         MSGPACK_UNPACK_SUCCESS);
        assert_int_equal(off, tree.size);
        msgpack_unpacked_destroy(&u);
        msgpack_sbuffer_destroy(&one);
        msgpack_sbuffer_destroy(&tree);
    }
    print_message("%d trees fitted, %d overflowed\n", fitted, overflowed);
    assert_true(fitted > 100);
    assert_true(overflowed > 10);
}

/* ---------------------------------------------------------------- forbidden rolls */

/* The value of key in the packed map of r (NULL when absent). */
static const msgpack_object *answer_get(const msgpack_object *map, const char *key) {
    assert_int_equal(map->type, MSGPACK_OBJECT_MAP);
    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object *k = &map->via.map.ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == strlen(key) &&
            memcmp(k->via.str.ptr, key, k->via.str.size) == 0)
            return &map->via.map.ptr[i].val;
    }
    return NULL;
}

/* Asks ruleset's action with one field (name = value, a string or, with flag >= 0, a
 * boolean) and returns the reply. */
static void ask_one(const char *ruleset, const char *action, const char *name, const char *value,
                    int flag, const char *name2, const char *value2, reply_t *r) {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    pack_open(&sb, &pk);
    msgpack_pack_map(&pk, 3);
    kstr(&pk, "ruleset", ruleset);
    kstr(&pk, "action", action);
    msgpack_pack_map(pack_key(&pk, "fields"), name2 ? 2 : 1);
    if (flag >= 0)
        flag ? msgpack_pack_true(pack_key(&pk, name)) : msgpack_pack_false(pack_key(&pk, name));
    else
        kstr(&pk, name, value);
    if (name2)
        kstr(&pk, name2, value2);
    ask(NULL, sb.data, sb.size, 0, r);
    msgpack_sbuffer_destroy(&sb);
}

/* A roll the rules forbid is an answer with "allowed": false and the reason (worded for a
 * client: no flag dashes), not an RPC error; an allowed one says "allowed": true and has no
 * reason; bad input stays an INVALID_PARAMS error naming the field. */
static void calc_forbidden_roll_is_an_answer(void **state) {
    (void)state;
    static const struct {
        const char *ruleset, *action, *name, *value;
        int flag;
        const char *name2, *value2, *reason;
    } cases[] = {
        {"viktoria", "attack_lance", "actor-mounted", NULL, 0, NULL, NULL, "horseback"},
        {"splendid", "artillery", "gun", "frame", -1, "range", "25", "beyond 20 in"},
        {"splendid", "test", "kind", "charge", -1, "formation", "bent-line", "cannot charge"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (!opfor_ruleset_find(cases[c].ruleset))
            continue;
        reply_t r;
        ask_one(cases[c].ruleset, cases[c].action, cases[c].name, cases[c].value, cases[c].flag,
                cases[c].name2, cases[c].value2, &r);
        assert_int_equal(r.code, 0);
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        assert_int_equal(msgpack_unpack_next(&u, r.out.data, r.out.size, &off),
                         MSGPACK_UNPACK_SUCCESS);
        const msgpack_object *al = answer_get(&u.data, "allowed");
        const msgpack_object *why = answer_get(&u.data, "reason");
        assert_non_null(al);
        assert_int_equal(al->type, MSGPACK_OBJECT_BOOLEAN);
        assert_false(al->via.boolean);
        assert_non_null(why);
        assert_int_equal(why->type, MSGPACK_OBJECT_STR);
        char text[256];
        snprintf(text, sizeof text, "%.*s", (int)why->via.str.size, why->via.str.ptr);
        if (!strstr(text, cases[c].reason))
            fail_msg("%s %s: reason '%s' lacks '%s'", cases[c].ruleset, cases[c].action, text,
                     cases[c].reason);
        assert_null(strstr(text, "--"));
        msgpack_unpacked_destroy(&u);
        msgpack_sbuffer_destroy(&r.out);
    }
    /* allowed: "allowed": true, no reason */
    reply_t r;
    ask_one("splendid", "artillery", "gun", "heavy", -1, "range", "19", &r);
    if (r.code == 0) {
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        assert_int_equal(msgpack_unpack_next(&u, r.out.data, r.out.size, &off),
                         MSGPACK_UNPACK_SUCCESS);
        const msgpack_object *al = answer_get(&u.data, "allowed");
        assert_non_null(al);
        assert_true(al->via.boolean);
        assert_null(answer_get(&u.data, "reason"));
        msgpack_unpacked_destroy(&u);
    }
    msgpack_sbuffer_destroy(&r.out);
    /* a field naming a file (a collection) is refused: the daemon reads no client's file */
    ask_one("splendid", "army", "collection", "/etc/passwd", -1, NULL, NULL, &r);
    assert_int_equal(r.code, OPFOR_RPC_E_INVALID_PARAMS);
    assert_non_null(strstr(r.msg, "collection"));
    assert_non_null(strstr(r.msg, "names a file"));
    msgpack_sbuffer_destroy(&r.out);
    /* bad input is still an error naming the field */
    ask_one("splendid", "artillery", "gun", "siege", -1, NULL, NULL, &r);
    assert_int_equal(r.code, OPFOR_RPC_E_INVALID_PARAMS);
    assert_non_null(strstr(r.msg, "gun"));
    msgpack_sbuffer_destroy(&r.out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(calc_forbidden_roll_is_an_answer),
        cmocka_unit_test(calc_one_pass_packs_as_the_tree),
        cmocka_unit_test(calc_one_pass_falls_back_when_full),
        cmocka_unit_test(calc_writer_packs_as_the_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
