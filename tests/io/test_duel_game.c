/* tests/io/test_duel_game.c — the daemon's games of other rulesets (io/game_gen.c) without
 * sockets, on the test-only dice duel: entries prepared from params and applied to copies,
 * replay of the same log rebuilding the same bytes and event numbers, refusals that leave the
 * committed game as it was, snapshots that round-trip (and bad ones refused), the rules
 * version check of the log's first entry, the viewer rule, and the AI's order repeating for
 * the same position. Built only with the duel (OPFOR_TEST_RULESETS).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../io/game_gen_int.h"
#include "io/pack_kv.h"
#include "opfor/duel/duel.h"
#include "opfor/rpc.h"

/* A log kept by the test: what the daemon would append to the store. */
typedef struct tlog {
    int n;
    char kind[64][8];
    msgpack_sbuffer p[64];
} tlog_t;

static opfor__game_t *open_duel(uint64_t seed) {
    opfor_store_game_t row;
    memset(&row, 0, sizeof row);
    snprintf(row.id, sizeof row.id, "t%llu", (unsigned long long)seed);
    snprintf(row.ruleset, sizeof row.ruleset, "duel");
    snprintf(row.difficulty, sizeof row.difficulty, "novice");
    row.seed = seed;
    opfor__game_t *g = NULL;
    opfor__gerr_t err = {0};
    assert_int_equal(opfor__gen_open(&g, &row, &opfor_duel_ruleset, &err), 0);
    assert_non_null(g);
    assert_non_null(opfor__gen_of(g));
    assert_int_equal(opfor__gen_of(g)->ai_side, 1);
    return g;
}

/* Applies one entry (kind, payload bytes) as the commit does: to copies, kept on success. */
static int apply_bytes(opfor__game_t *g, const char *kind, const char *data, size_t len,
                       opfor__gerr_t *err) {
    opfor__table_t *t = malloc(sizeof *t);
    assert_non_null(t);
    memcpy(t, &g->t, sizeof *t);
    opfor__gen_begin(opfor__gen_of(g));
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    const msgpack_object *pl = NULL;
    if (len && msgpack_unpack_next(&u, data, len, &off) == MSGPACK_UNPACK_SUCCESS)
        pl = &u.data;
    opfor__evlist_t ev;
    opfor__evlist_init(&ev);
    int rc = opfor__gen_apply(g, t, g->t.log_seq + 1, kind, pl, &ev, err);
    if (rc == 0) {
        memcpy(&g->t, t, sizeof *t);
        opfor__gen_keep(opfor__gen_of(g));
    }
    opfor__evlist_free(&ev);
    msgpack_unpacked_destroy(&u);
    free(t);
    return rc;
}

/* Prepares kind from params (packed into a map by the caller), applies it and logs it. */
static int request(opfor__game_t *g, tlog_t *log, const char *kind, msgpack_sbuffer *params,
                   opfor__gerr_t *err) {
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    assert_int_equal(msgpack_unpack_next(&u, params->data, params->size, &off),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    pack_open(&sb, &pk);
    int rc = opfor__gen_prepare(g, kind, &u.data, &pk, err);
    if (rc == 0)
        rc = apply_bytes(g, kind, sb.data, sb.size, err);
    if (rc == 0 && log) {
        snprintf(log->kind[log->n], sizeof log->kind[0], "%s", kind);
        log->p[log->n++] = sb;
    } else {
        msgpack_sbuffer_destroy(&sb);
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(params);
    return rc;
}

static int act(opfor__game_t *g, tlog_t *log, const char *phrase, int index, opfor__gerr_t *e) {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    pack_open(&sb, &pk);
    msgpack_pack_map(&pk, 1);
    if (phrase)
        kstr(&pk, "action", phrase);
    else
        kint(&pk, "action", index);
    return request(g, log, "act", &sb, e);
}

static int roll(opfor__game_t *g, tlog_t *log, int outcome, opfor__gerr_t *e) {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    pack_open(&sb, &pk);
    msgpack_pack_map(&pk, 1);
    if (outcome < 0)
        kstr(&pk, "outcome", "auto");
    else
        kint(&pk, "outcome", outcome);
    return request(g, log, "roll", &sb, e);
}

static int report(opfor__game_t *g, tlog_t *log, int card, const char *dice, opfor__gerr_t *e) {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    pack_open(&sb, &pk);
    msgpack_pack_map(&pk, 2);
    kstr(&pk, "form", "play");
    pack_key(&pk, "fields");
    msgpack_pack_map(&pk, dice ? 2 : 1);
    kint(&pk, "card", card);
    if (dice)
        kstr(&pk, "dice", dice);
    return request(g, log, "report", &sb, e);
}

/* The AI's order for the committed state, applied and logged. */
static int order(opfor__game_t *g, tlog_t *log, opfor__gen_order_t *o, opfor__gerr_t *e) {
    int rc = opfor__gen_plan(g, opfor__gen_of(g)->state, g->t.decisions, NULL, o);
    if (rc < 0)
        return rc;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    pack_open(&sb, &pk);
    opfor__gen_order_pack(g, o, &pk);
    rc = apply_bytes(g, "order", sb.data, sb.size, e);
    if (rc == 0 && log) {
        snprintf(log->kind[log->n], sizeof log->kind[0], "order");
        log->p[log->n++] = sb;
    } else {
        msgpack_sbuffer_destroy(&sb);
    }
    return rc;
}

static int cur(const opfor__game_t *g) {
    return opfor_game_current(&opfor__gen_of(g)->game, opfor__gen_of(g)->state);
}

/* Plays n moves the simple way (table: its first legal action; AI: its order; dice: auto). */
static void play(opfor__game_t *g, tlog_t *log, int n) {
    opfor__gerr_t e = {0};
    for (int i = 0; i < n && g->t.status == OPFOR__GS_ACTIVE; i++) {
        int c = cur(g);
        opfor__gen_order_t o;
        if (c == OPFOR_PLAYER_CHANCE)
            assert_int_equal(roll(g, log, -1, &e), 0);
        else if (c == opfor__gen_of(g)->ai_side)
            assert_int_equal(order(g, log, &o, &e), 0);
        else
            assert_int_equal(act(g, log, NULL, 0, &e), 0);
    }
}

static void free_log(tlog_t *log) {
    for (int i = 0; i < log->n; i++)
        msgpack_sbuffer_destroy(&log->p[i]);
}

static void same_game(const opfor__game_t *a, const opfor__game_t *b) {
    assert_memory_equal(opfor__gen_of(a)->state, opfor__gen_of(b)->state,
                        opfor_duel_ruleset.state_size);
    assert_int_equal(a->t.log_seq, b->t.log_seq);
    assert_int_equal(a->t.ev_seq, b->t.ev_seq);
    assert_int_equal(a->t.status, b->t.status);
    assert_int_equal(a->t.decisions, b->t.decisions);
    assert_int_equal(opfor__gen_of(a)->order.active, opfor__gen_of(b)->order.active);
    assert_string_equal(opfor__gen_of(a)->order.action, opfor__gen_of(b)->order.action);
    assert_string_equal(opfor__gen_of(a)->order.reason, opfor__gen_of(b)->order.reason);
}

static void duel_game_replay_rebuilds_the_same_game(void **st) {
    (void)st;
    opfor__game_t *g = open_duel(21);
    tlog_t *log = calloc(1, sizeof *log);
    assert_non_null(log);
    opfor__gerr_t e = {0};
    /* a turn by hand: the table attacks by phrase, rolls a 3, the AI orders, a report */
    char phrase[112];
    int n = opfor_game_legal(&opfor__gen_of(g)->game, opfor__gen_of(g)->state,
                             opfor__gen_of(g)->acts, 6);
    assert_true(n >= 2);
    opfor_game_action_str(&opfor__gen_of(g)->game, opfor__gen_of(g)->state,
                          &opfor__gen_of(g)->acts[0], phrase, sizeof phrase);
    assert_int_equal(act(g, log, phrase, 0, &e), 0);
    assert_int_equal(cur(g), OPFOR_PLAYER_CHANCE);
    assert_int_equal(roll(g, log, 2, &e), 0);
    assert_int_equal(cur(g), 1);
    opfor__gen_order_t o;
    assert_int_equal(order(g, log, &o, &e), 0);
    assert_true(o.reason[0] != '\0');
    assert_true(opfor__gen_of(g)->order.open);
    assert_int_equal(roll(g, log, -1, &e), 0);
    assert_false(opfor__gen_of(g)->order.open); /* the game moved on */
    assert_int_equal(report(g, log, 0, NULL, &e), 0);
    play(g, log, 12);
    /* a fresh game fed the same log is the same game */
    opfor__game_t *h = open_duel(21);
    for (int i = 0; i < log->n; i++)
        assert_int_equal(apply_bytes(h, log->kind[i], log->p[i].data, log->p[i].size, &e), 0);
    same_game(g, h);
    opfor__game_free(h);
    free_log(log);
    free(log);
    opfor__game_free(g);
}

static void duel_game_refusals_change_nothing(void **st) {
    (void)st;
    opfor__game_t *g = open_duel(5);
    unsigned char before[64];
    memcpy(before, opfor__gen_of(g)->state, sizeof before);
    opfor__table_t *t0 = malloc(sizeof *t0);
    assert_non_null(t0);
    memcpy(t0, &g->t, sizeof *t0);
    opfor__gerr_t e = {0};
    assert_int_equal(act(g, NULL, "Red plays the ace", 0, &e), OPFOR_EILLEGAL);
    assert_int_equal(e.code, OPFOR_RPC_E_ILLEGAL);
    assert_non_null(strstr(e.msg, "Red guards")); /* the legal phrases are listed */
    assert_int_equal(act(g, NULL, NULL, 6, &e), OPFOR_EILLEGAL);
    assert_int_equal(roll(g, NULL, 1, &e), OPFOR_EILLEGAL); /* no dice now */
    assert_true(report(g, NULL, 9, NULL, &e) < 0);
    assert_int_equal(e.code, OPFOR_RPC_E_INVALID_PARAMS);
    assert_non_null(strstr(e.msg, "card"));
    /* an order when the table is to move; an order naming an action the state has not */
    opfor__gen_order_t o;
    assert_int_equal(opfor__gen_plan(g, opfor__gen_of(g)->state, 0, NULL, &o), OPFOR_EILLEGAL);
    memset(&o, 0, sizeof o);
    snprintf(o.action, sizeof o.action, "Blue attacks with the 9");
    msgpack_sbuffer sb;
    msgpack_packer pk;
    pack_open(&sb, &pk);
    opfor__gen_order_pack(g, &o, &pk);
    assert_true(apply_bytes(g, "order", sb.data, sb.size, &e) < 0);
    msgpack_sbuffer_destroy(&sb);
    assert_true(apply_bytes(g, "nonsense", NULL, 0, &e) < 0);
    assert_memory_equal(opfor__gen_of(g)->state, before, sizeof before);
    assert_memory_equal(&g->t, t0, sizeof *t0);
    /* closed: nothing more */
    assert_int_equal(apply_bytes(g, "close", NULL, 0, &e), 0);
    assert_int_equal(g->t.status, OPFOR__GS_CLOSED);
    assert_int_equal(act(g, NULL, NULL, 0, &e), OPFOR_EILLEGAL);
    assert_non_null(strstr(e.msg, "closed"));
    free(t0);
    opfor__game_free(g);
}

static void duel_game_snapshot_round_trips(void **st) {
    (void)st;
    opfor__game_t *g = open_duel(9);
    play(g, NULL, 9);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    assert_int_equal(opfor__gen_snapshot(g, &sb), 0);
    opfor__game_t *h = open_duel(9);
    assert_int_equal(opfor__gen_restore(h, g->t.log_seq + 1, sb.data, sb.size), OPFOR_EPARSE);
    assert_int_equal(opfor__gen_restore(h, g->t.log_seq, sb.data, sb.size - 3), OPFOR_EPARSE);
    assert_int_equal(opfor__gen_restore(h, g->t.log_seq, sb.data, sb.size), 0);
    same_game(g, h);
    /* and both go on the same way */
    play(g, NULL, 5);
    play(h, NULL, 5);
    same_game(g, h);
    msgpack_sbuffer_destroy(&sb);
    opfor__game_free(h);
    opfor__game_free(g);
}

static void duel_game_rules_version_checked(void **st) {
    (void)st;
    opfor_store_game_t row;
    memset(&row, 0, sizeof row);
    snprintf(row.id, sizeof row.id, "old");
    msgpack_sbuffer sb;
    msgpack_packer pk;
    pack_open(&sb, &pk);
    opfor__gen_begin_payload(&opfor_duel_ruleset, &pk);
    opfor__gerr_t e = {0};
    assert_int_equal(
        opfor__gen_rules_check(&row, &opfor_duel_ruleset, "begin", sb.data, sb.size, &e), 0);
    msgpack_sbuffer_clear(&sb);
    msgpack_pack_map(&pk, 2);
    kstr(&pk, "ruleset", "duel");
    kstr(&pk, "rules_version", "0");
    assert_int_equal(
        opfor__gen_rules_check(&row, &opfor_duel_ruleset, "begin", sb.data, sb.size, &e),
        OPFOR_ENOTSUP);
    assert_int_equal(e.code, OPFOR_RPC_E_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "'0'"));
    assert_non_null(strstr(e.msg, "'1'"));
    assert_true(opfor__gen_rules_check(&row, &opfor_duel_ruleset, "act", sb.data, sb.size, &e) < 0);
    assert_true(opfor__gen_rules_check(&row, &opfor_duel_ruleset, NULL, NULL, 0, &e) < 0);
    msgpack_sbuffer_destroy(&sb);
}

static void duel_game_viewer_rule(void **st) {
    (void)st;
    opfor__game_t *g = open_duel(3);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    opfor__gerr_t e = {0};
    int viewer = -5;
    assert_int_equal(opfor__gen_viewer(g, NULL, 0, &viewer, &e), 0);
    assert_int_equal(viewer, 0);
    const struct {
        int as_int, value, gm, rc;
        const char *text;
    } cases[] = {
        {1, 1, 1, OPFOR_EINVAL, NULL}, /* the AI's side: never */
        {1, 2, 1, OPFOR_EINVAL, NULL}, /* no such side */
        {0, 0, 0, OPFOR_EAUTH, "all"}, /* the game master's view needs the switch */
        {0, 0, 1, 0, "all"},           /* ... and then sees everything */
        {1, 0, 0, 0, NULL},            /* a table side */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pack_open(&sb, &pk);
        msgpack_pack_map(&pk, 1);
        if (cases[i].text)
            kstr(&pk, "viewer", cases[i].text);
        else
            kint(&pk, "viewer", cases[i].value);
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, &off), MSGPACK_UNPACK_SUCCESS);
        assert_int_equal(opfor__gen_viewer(g, &u.data, cases[i].gm, &viewer, &e), cases[i].rc);
        if (cases[i].rc == 0)
            assert_int_equal(viewer, cases[i].text ? OPFOR_VIEW_ALL : cases[i].value);
        msgpack_unpacked_destroy(&u);
        msgpack_sbuffer_destroy(&sb);
    }
    opfor__game_free(g);
}

static void duel_game_orders_repeat(void **st) {
    (void)st;
    opfor__game_t *g = open_duel(17);
    play(g, NULL, 2); /* the table's act and its roll: the AI to move */
    assert_int_equal(cur(g), 1);
    opfor__gen_order_t a, b;
    assert_int_equal(opfor__gen_plan(g, opfor__gen_of(g)->state, 0, NULL, &a), 0);
    assert_int_equal(opfor__gen_plan(g, opfor__gen_of(g)->state, 0, NULL, &b), 0);
    assert_int_equal(a.index, b.index);
    assert_string_equal(a.action, b.action);
    assert_string_equal(a.reason, b.reason);
    assert_true(a.iterations > 0);
    assert_int_equal(a.side, 1);
    assert_string_equal(a.level, "novice");
    /* a busy daemon's share (issue 16): novice's floor, 50 of its 200 playouts, said so */
    assert_int_equal(opfor__gen_plan_share(g, opfor__gen_of(g)->state, 0, NULL, 4, &b), 0);
    assert_int_equal(b.iterations, 50);
    assert_string_equal(b.level, "novice");
    assert_non_null(strstr(b.reason, "; busy daemon: 50 of novice's 200 playouts"));
    assert_int_equal(opfor__gen_plan_share(g, opfor__gen_of(g)->state, 0, NULL, 1, &b), 0);
    assert_string_equal(a.reason, b.reason);
    assert_int_equal(a.iterations, b.iterations);
    opfor__game_free(g);
}

static void duel_game_open_refuses(void **st) {
    (void)st;
    opfor_store_game_t row;
    opfor__game_t *g = NULL;
    opfor__gerr_t e = {0};
    memset(&row, 0, sizeof row);
    snprintf(row.scenario_name, sizeof row.scenario_name, "../../etc/passwd");
    assert_true(opfor__gen_open(&g, &row, &opfor_duel_ruleset, &e) < 0);
    assert_int_equal(e.code, OPFOR_RPC_E_UNSUPPORTED);
    memset(&row, 0, sizeof row);
    snprintf(row.mode, sizeof row.mode, "patrol");
    assert_true(opfor__gen_open(&g, &row, &opfor_duel_ruleset, &e) < 0);
    assert_int_equal(e.code, OPFOR_RPC_E_INVALID_PARAMS);
    memset(&row, 0, sizeof row);
    snprintf(row.difficulty, sizeof row.difficulty, "godlike");
    assert_true(opfor__gen_open(&g, &row, &opfor_duel_ruleset, &e) < 0);
    assert_non_null(strstr(e.msg, "level"));
    assert_null(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(duel_game_replay_rebuilds_the_same_game),
        cmocka_unit_test(duel_game_refusals_change_nothing),
        cmocka_unit_test(duel_game_snapshot_round_trips),
        cmocka_unit_test(duel_game_rules_version_checked),
        cmocka_unit_test(duel_game_viewer_rule),
        cmocka_unit_test(duel_game_orders_repeat),
        cmocka_unit_test(duel_game_open_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
