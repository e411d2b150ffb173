/* tests/io/test_store.c — the SQLite game store (opfor/store.h): round trips of games, log
 * entries and snapshots; the append-only rules; refusal of damaged files and newer schemas;
 * and crash safety: a child process appending in a loop is killed with SIGKILL at random
 * moments (fixed seed, bounded rounds) and every entry it had acknowledged must be there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "opfor/rng.h"
#include "opfor/store.h"

typedef struct tmpdir {
    char dir[64]; /* the directory */
    char db[128]; /* dir/opfor.db */
} tmpdir_t;

static void tmp_make(tmpdir_t *t) {
    snprintf(t->dir, sizeof t->dir, "/tmp/opfor-test-store-XXXXXX");
    assert_non_null(mkdtemp(t->dir));
    assert_int_equal(opfor_store_path(t->db, sizeof t->db, t->dir), 0);
}

static void tmp_remove(tmpdir_t *t) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
    assert_int_equal(system(cmd), 0);
}

static opfor_store_game_t game(const char *id, uint64_t seed) {
    opfor_store_game_t g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    snprintf(g.ruleset, sizeof g.ruleset, "viktoria");
    snprintf(g.scenario_name, sizeof g.scenario_name, "patrol_default");
    snprintf(g.mode, sizeof g.mode, "patrol");
    snprintf(g.difficulty, sizeof g.difficulty, "normal");
    g.seed = seed;
    return g;
}

typedef struct collected {
    int n;                /* entries seen */
    uint64_t seq[16];     /* their seqs */
    char kind[16][16];    /* their kinds */
    char payload[16][32]; /* their payloads (text in these tests) */
    uint64_t snap_seq;    /* snapshot seq, 0 when none was given */
    char snap[32];        /* snapshot bytes */
} collected_t;

static int on_entry(void *ud, const opfor_store_entry_t *e) {
    collected_t *c = ud;
    if (c->n >= 16)
        return 1;
    c->seq[c->n] = e->seq;
    snprintf(c->kind[c->n], sizeof c->kind[0], "%s", e->kind);
    snprintf(c->payload[c->n], sizeof c->payload[0], "%.*s", (int)e->len, (const char *)e->payload);
    c->n++;
    return 0;
}

static int on_snap(void *ud, uint64_t seq, const void *state, size_t len) {
    collected_t *c = ud;
    c->snap_seq = seq;
    snprintf(c->snap, sizeof c->snap, "%.*s", (int)len, (const char *)state);
    return 0;
}

typedef struct listed {
    int n;            /* games seen */
    char ids[8][64];  /* in order */
    uint64_t last[8]; /* their last seq */
} listed_t;

static int on_game(void *ud, const opfor_store_game_t *g) {
    listed_t *l = ud;
    if (l->n < 8) {
        snprintf(l->ids[l->n], sizeof l->ids[0], "%s", g->id);
        l->last[l->n] = g->last_seq;
    }
    l->n++;
    return 0;
}

static void raw_exec_expect(const char *path, const char *sql, int want_ok) {
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    if (want_ok)
        assert_int_equal(rc, SQLITE_OK);
    else
        assert_int_not_equal(rc, SQLITE_OK);
    sqlite3_close(db);
}

static void store_round_trip(void **state) {
    (void)state;
    tmpdir_t t;
    tmp_make(&t);
    opfor_store_t *s;
    opfor_diag_t d;
    assert_int_equal(opfor_store_open(&s, t.db, &d), 0);
    assert_int_equal(opfor_store_schema_version(s), OPFOR_STORE_SCHEMA);
    char msg[64];
    assert_int_equal(opfor_store_check(s, msg, sizeof msg), 0);
    assert_string_equal(msg, "ok");

    opfor_store_game_t g = game("g-1", 0xfedcba9876543210ull);
    const char yaml[] = "name: patrol_default\nunits: []\n";
    assert_int_equal(opfor_store_game_create(s, &g, yaml, strlen(yaml)), 0);
    assert_int_equal(opfor_store_game_create(s, &g, NULL, 0), OPFOR_EBUSY);
    opfor_store_game_t bad = game("has space", 1);
    assert_int_equal(opfor_store_game_create(s, &bad, NULL, 0), OPFOR_EINVAL);
    opfor_store_game_t g2 = game("g-2", 7);
    g2.created = 1000; /* older: listed after g-1 */
    assert_int_equal(opfor_store_game_create(s, &g2, NULL, 0), 0);

    opfor_store_game_t back;
    assert_int_equal(opfor_store_game_get(s, "g-1", &back), 0);
    assert_string_equal(back.ruleset, "viktoria");
    assert_string_equal(back.mode, "patrol");
    assert_string_equal(back.status, "active");
    assert_true(back.seed == 0xfedcba9876543210ull);
    assert_true(back.created > 0 && back.updated == back.created);
    assert_int_equal(back.last_seq, 0);
    assert_int_equal(opfor_store_game_get(s, "nope", &back), OPFOR_ENOENT);
    char *y;
    size_t ylen;
    assert_int_equal(opfor_store_game_yaml(s, "g-1", &y, &ylen), 0);
    assert_string_equal(y, yaml);
    assert_int_equal(ylen, strlen(yaml));
    free(y);
    assert_int_equal(opfor_store_game_yaml(s, "g-2", &y, &ylen), 0);
    assert_null(y);

    static const char *const kinds[5] = {"action", "report", "report", "roll", "action"};
    for (int i = 0; i < 5; i++) {
        char p[16];
        snprintf(p, sizeof p, "payload-%d", i + 1);
        uint64_t seq = 0;
        assert_int_equal(opfor_store_append(s, "g-1", kinds[i], p, strlen(p), &seq), 0);
        assert_int_equal(seq, (uint64_t)i + 1);
    }
    assert_int_equal(opfor_store_append(s, "g-2", "action", "x", 1, NULL), 0);
    assert_int_equal(opfor_store_append(s, "nope", "action", "x", 1, NULL), OPFOR_ENOENT);
    assert_int_equal(opfor_store_append(s, "g-1", "", "x", 1, NULL), OPFOR_EINVAL);

    collected_t c;
    memset(&c, 0, sizeof c);
    assert_int_equal(opfor_store_entries(s, "g-1", 2, on_entry, &c), 0);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.seq[0], 3);
    assert_string_equal(c.kind[1], "roll");
    assert_string_equal(c.payload[2], "payload-5");

    assert_int_equal(opfor_store_snapshot_put(s, "g-1", 9, "s", 1), OPFOR_ERANGE);
    assert_int_equal(opfor_store_snapshot_put(s, "g-1", 2, "state@2", 7), 0);
    assert_int_equal(opfor_store_snapshot_put(s, "g-1", 3, "state@3", 7), 0);
    memset(&c, 0, sizeof c);
    assert_int_equal(opfor_store_load(s, "g-1", on_snap, on_entry, &c), 0);
    assert_int_equal(c.snap_seq, 3);
    assert_string_equal(c.snap, "state@3");
    assert_int_equal(c.n, 2);
    assert_int_equal(c.seq[0], 4);
    memset(&c, 0, sizeof c);
    assert_int_equal(opfor_store_load(s, "g-1", NULL, on_entry, &c), 0);
    assert_int_equal(c.n, 5); /* no snapshot wanted: the whole log */
    assert_int_equal(opfor_store_load(s, "nope", on_snap, on_entry, &c), OPFOR_ENOENT);

    listed_t l;
    memset(&l, 0, sizeof l);
    assert_int_equal(opfor_store_game_list(s, on_game, &l), 0);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.last[0] + l.last[1], 6);

    assert_int_equal(opfor_store_game_set_status(s, "g-2", "closed"), 0);
    assert_int_equal(opfor_store_game_get(s, "g-2", &back), 0);
    assert_string_equal(back.status, "closed");
    assert_int_equal(opfor_store_game_set_status(s, "nope", "closed"), OPFOR_ENOENT);
    opfor_store_close(s);

    /* The log is append-only, even for a raw connection; WAL is on. */
    raw_exec_expect(t.db, "UPDATE log SET kind = 'x' WHERE seq = 1", 0);
    raw_exec_expect(t.db, "DELETE FROM log WHERE game_id = 'g-1'", 0);
    sqlite3 *raw;
    assert_int_equal(sqlite3_open(t.db, &raw), SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(q, 0), "wal");
    sqlite3_finalize(q);
    sqlite3_close(raw);

    /* Reopened, everything is still there; deleting a game takes its log along. */
    assert_int_equal(opfor_store_open(&s, t.db, &d), 0);
    assert_int_equal(opfor_store_game_get(s, "g-1", &back), 0);
    assert_int_equal(back.last_seq, 5);
    assert_int_equal(opfor_store_game_delete(s, "g-1"), 0);
    assert_int_equal(opfor_store_game_delete(s, "g-1"), OPFOR_ENOENT);
    memset(&c, 0, sizeof c);
    assert_int_equal(opfor_store_entries(s, "g-1", 0, on_entry, &c), OPFOR_ENOENT);
    opfor_store_close(s);
    raw_exec_expect(t.db, "SELECT 1 FROM log WHERE game_id = 'g-1'", 1);
    assert_int_equal(opfor_store_open(&s, t.db, &d), 0);
    memset(&l, 0, sizeof l);
    assert_int_equal(opfor_store_game_list(s, on_game, &l), 0);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.ids[0], "g-2");
    opfor_store_close(s);
    tmp_remove(&t);
}

static void store_refuses_damaged_and_newer_files(void **state) {
    (void)state;
    tmpdir_t t;
    tmp_make(&t);
    /* Not a database at all. */
    FILE *f = fopen(t.db, "wb");
    assert_non_null(f);
    for (int i = 0; i < 8192; i++)
        fputc("garbage!"[i % 8], f);
    fclose(f);
    opfor_store_t *s = NULL;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    assert_int_equal(opfor_store_open(&s, t.db, &d), OPFOR_EIO);
    assert_null(s);
    assert_non_null(strstr(d.msg, "damaged"));
    assert_non_null(strstr(d.msg, "move the file aside"));
    unlink(t.db);

    /* A real store whose pages are then overwritten in the middle. */
    assert_int_equal(opfor_store_open(&s, t.db, &d), 0);
    opfor_store_game_t g = game("g", 1);
    assert_int_equal(opfor_store_game_create(s, &g, NULL, 0), 0);
    char big[2000];
    memset(big, 'p', sizeof big);
    for (int i = 0; i < 200; i++)
        assert_int_equal(opfor_store_append(s, "g", "report", big, sizeof big, NULL), 0);
    opfor_store_close(s); /* the last close checkpoints the WAL into the main file */
    int fd = open(t.db, O_WRONLY);
    assert_true(fd >= 0);
    char junk[4096];
    memset(junk, 0xa5, sizeof junk);
    for (off_t off = 3 * 4096; off < 40 * 4096; off += 7 * 4096)
        assert_int_equal(pwrite(fd, junk, sizeof junk, off), (ssize_t)sizeof junk);
    close(fd);
    opfor_diag_clear(&d);
    assert_int_equal(opfor_store_open(&s, t.db, &d), OPFOR_EIO);
    assert_non_null(strstr(d.msg, "damaged"));
    unlink(t.db);

    /* Written by a newer schema. */
    assert_int_equal(opfor_store_open(&s, t.db, &d), 0);
    opfor_store_close(s);
    raw_exec_expect(t.db, "UPDATE store_schema SET version = 99", 1);
    assert_int_equal(opfor_store_open(&s, t.db, &d), OPFOR_ENOTSUP);
    assert_non_null(strstr(d.msg, "newer"));
    tmp_remove(&t);
}

/* ------------------------------------------------------------------ crash safety */

#define CRASH_ROUNDS 8
#define MAX_ACKED 100000

/* The payload of entry seq: deterministic, of varying length, so a torn write would show. */
static size_t payload_of(uint64_t seq, uint8_t *buf) {
    size_t len = 16 + (size_t)(seq * 37 % 300);
    for (size_t i = 0; i < len; i++)
        buf[i] = (uint8_t)(seq * 131 + i * 7);
    return len;
}

/* The child: appends forever, writing each acknowledged seq to fd after append returned. */
static void child_append_loop(const char *path, int fd) {
    opfor_store_t *s;
    opfor_diag_t d;
    if (opfor_store_open(&s, path, &d) != 0)
        _exit(3);
    uint8_t buf[400];
    for (;;) {
        opfor_store_game_t g;
        if (opfor_store_game_get(s, "crash", &g) != 0)
            _exit(4);
        size_t len = payload_of(g.last_seq + 1, buf);
        uint64_t seq;
        if (opfor_store_append(s, "crash", "report", buf, len, &seq) != 0)
            _exit(5);
        if (seq != g.last_seq + 1)
            _exit(6);
        if (write(fd, &seq, sizeof seq) != (ssize_t)sizeof seq)
            _exit(7);
    }
}

typedef struct verify {
    uint64_t expect; /* next seq expected */
    int bad;         /* entries out of order or with a wrong payload */
} verify_t;

static int on_verify(void *ud, const opfor_store_entry_t *e) {
    verify_t *v = ud;
    uint8_t buf[400];
    size_t len = payload_of(e->seq, buf);
    if (e->seq != v->expect || e->len != len || memcmp(e->payload, buf, len) != 0 ||
        strcmp(e->kind, "report") != 0)
        v->bad++;
    v->expect = e->seq + 1;
    return 0;
}

static double mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void store_survives_sigkill_with_every_acked_entry(void **state) {
    (void)state;
    tmpdir_t t;
    tmp_make(&t);
    opfor_store_t *s;
    opfor_diag_t d;
    assert_int_equal(opfor_store_open(&s, t.db, &d), 0);
    opfor_store_game_t g = game("crash", 42);
    assert_int_equal(opfor_store_game_create(s, &g, NULL, 0), 0);
    opfor_store_close(s); /* no SQLite handle may cross the fork */

    opfor_rng_t rng;
    opfor_rng_seed(&rng, 20240601, 4);
    uint64_t max_acked = 0;
    int total_acked = 0;
    for (int round = 0; round < CRASH_ROUNDS; round++) {
        int p[2];
        assert_int_equal(pipe(p), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(p[0]);
            child_append_loop(t.db, p[1]);
        }
        close(p[1]);
        /* Let it run 5..120 ms (some rounds kill it before its first append), reading acks. */
        double until = mono_ms() + 5 + opfor_rng_below(&rng, 116);
        uint64_t seq;
        char *acc = (char *)&seq;
        size_t have = 0;
        int killed = 0;
        for (;;) {
            double left = until - mono_ms();
            if (left <= 0 && !killed) {
                kill(pid, SIGKILL);
                killed = 1;
            }
            struct pollfd pf = {p[0], POLLIN, 0};
            int r = poll(&pf, 1, killed ? 1000 : (int)left + 1);
            if (r <= 0)
                continue;
            ssize_t n = read(p[0], acc + have, sizeof seq - have);
            if (n <= 0)
                break; /* EOF: the child is dead and the pipe drained */
            have += (size_t)n;
            if (have == sizeof seq) {
                if (seq > max_acked)
                    max_acked = seq;
                total_acked++;
                have = 0;
            }
        }
        close(p[0]);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

        /* Reopened: quick_check passes, the log is 1..N without gaps, N >= every ack. */
        assert_int_equal(opfor_store_open(&s, t.db, &d), 0);
        char msg[128];
        assert_int_equal(opfor_store_check(s, msg, sizeof msg), 0);
        verify_t v = {1, 0};
        assert_int_equal(opfor_store_load(s, "crash", NULL, on_verify, &v), 0);
        assert_int_equal(v.bad, 0);
        assert_true(v.expect - 1 >= max_acked);
        /* At most one entry can be committed but not yet acknowledged. */
        assert_true(v.expect - 1 <= max_acked + 1);
        max_acked = v.expect - 1; /* the next child continues from there */
        opfor_store_close(s);
    }
    assert_true(total_acked > 0);
    print_message("crash test: %d kills, %d acknowledged appends, log ends at %llu\n", CRASH_ROUNDS,
                  total_acked, (unsigned long long)max_acked);
    tmp_remove(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(store_round_trip),
        cmocka_unit_test(store_refuses_damaged_and_newer_files),
        cmocka_unit_test(store_survives_sigkill_with_every_acked_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
