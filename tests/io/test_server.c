/* tests/io/test_server.c — the server in-process: opfor_server_post() from worker threads runs
 * every completion on the loop thread in per-thread order (the path deferred answers will use),
 * a live socket makes a second server refuse to start, a stale one is replaced, a non-socket
 * file is left alone, and the socket and its directory get modes 0600 and 0700; a state
 * directory in use makes a second server refuse to start, naming the holder's pid.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <uv.h>

#include "opfor/server.h"

#define THREADS 4
#define PER_THREAD 250

typedef struct job {
    opfor_post_t post; /* must stay first: fn recovers the job from it */
    struct ctx *ctx;   /* shared test state */
    int thread;        /* which worker posted it */
    int seq;           /* its order within that worker */
} job_t;

typedef struct ctx {
    opfor_server_t *srv;             /* server under test */
    uv_thread_t loop_thread;         /* the thread running uv_run */
    int done;                        /* completions run so far (loop thread only) */
    int wrong_thread;                /* completions run elsewhere */
    int last_seq[THREADS];           /* last seq seen per worker */
    int out_of_order;                /* seq went backwards */
    job_t jobs[THREADS][PER_THREAD]; /* the posts */
} ctx_t;

typedef struct worker {
    ctx_t *ctx; /* shared */
    int id;     /* index */
} worker_t;

static void on_post(opfor_post_t *p) {
    job_t *j = (job_t *)p;
    ctx_t *c = j->ctx;
    uv_thread_t self = uv_thread_self();
    if (!uv_thread_equal(&self, &c->loop_thread))
        c->wrong_thread++;
    if (j->seq <= c->last_seq[j->thread])
        c->out_of_order++;
    c->last_seq[j->thread] = j->seq;
    if (++c->done == THREADS * PER_THREAD)
        opfor_server_stop(c->srv);
}

static void worker_main(void *arg) {
    worker_t *w = arg;
    for (int i = 0; i < PER_THREAD; i++) {
        job_t *j = &w->ctx->jobs[w->id][i];
        j->post.fn = on_post;
        j->ctx = w->ctx;
        j->thread = w->id;
        j->seq = i;
        opfor_server_post(w->ctx->srv, &j->post);
        if (i % 50 == 0)
            uv_sleep(1);
    }
}

static void on_failsafe(uv_timer_t *t) {
    opfor_server_stop(t->data);
    uv_close((uv_handle_t *)t, NULL);
}

static void base_config(opfor_config_t *cfg, const char *dir, const char *sockname) {
    opfor_config_defaults(cfg);
    snprintf(cfg->socket, sizeof cfg->socket, "%s/%s", dir, sockname);
    snprintf(cfg->state_dir, sizeof cfg->state_dir, "%s/state", dir);
}

static void server_post_runs_on_loop_thread_in_order(void **state) {
    (void)state;
    char dir[] = "/tmp/opfor-test-srv-XXXXXX";
    assert_non_null(mkdtemp(dir));
    opfor_config_t cfg;
    base_config(&cfg, dir, "run/s.sock");
    uv_loop_t loop;
    assert_int_equal(uv_loop_init(&loop), 0);
    ctx_t *c = calloc(1, sizeof *c);
    for (int i = 0; i < THREADS; i++)
        c->last_seq[i] = -1;
    assert_int_equal(opfor_server_new(&c->srv, &loop, &cfg, NULL), 0);
    opfor_diag_t d;
    opfor_diag_clear(&d);
    assert_int_equal(opfor_server_start(c->srv, &d), 0);
    c->loop_thread = uv_thread_self();

    struct stat st;
    assert_int_equal(stat(cfg.socket, &st), 0);
    assert_true(S_ISSOCK(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0600);
    char run[128];
    snprintf(run, sizeof run, "%s/run", dir);
    assert_int_equal(stat(run, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);

    uv_timer_t failsafe;
    uv_timer_init(&loop, &failsafe);
    failsafe.data = c->srv;
    uv_timer_start(&failsafe, on_failsafe, 10000, 0);
    uv_unref((uv_handle_t *)&failsafe);

    worker_t w[THREADS];
    uv_thread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i].ctx = c;
        w[i].id = i;
        assert_int_equal(uv_thread_create(&th[i], worker_main, &w[i]), 0);
    }
    uv_run(&loop, UV_RUN_DEFAULT);
    for (int i = 0; i < THREADS; i++)
        uv_thread_join(&th[i]);
    if (!uv_is_closing((uv_handle_t *)&failsafe))
        uv_close((uv_handle_t *)&failsafe, NULL);
    opfor_server_free(c->srv); /* runs posts still queued, closes the rest */
    assert_int_equal(c->done, THREADS * PER_THREAD);
    assert_int_equal(c->wrong_thread, 0);
    assert_int_equal(c->out_of_order, 0);
    assert_int_not_equal(stat(cfg.socket, &st), 0); /* removed on stop */
    assert_int_equal(uv_loop_close(&loop), 0);
    free(c);
    rmdir(run);
    snprintf(run, sizeof run, "%s/state", dir);
    rmdir(run);
    rmdir(dir);
}

static void server_live_stale_and_foreign_socket_files(void **state) {
    (void)state;
    char dir[] = "/tmp/opfor-test-srv-XXXXXX";
    assert_non_null(mkdtemp(dir));
    opfor_config_t cfg;
    base_config(&cfg, dir, "s.sock");
    uv_loop_t loop;
    assert_int_equal(uv_loop_init(&loop), 0);
    opfor_diag_t d;

    /* A live server holds the path: a second one (on its own state directory) refuses and
     * leaves the file alone. */
    opfor_server_t *a, *b;
    assert_int_equal(opfor_server_new(&a, &loop, &cfg, NULL), 0);
    opfor_diag_clear(&d);
    assert_int_equal(opfor_server_start(a, &d), 0);
    opfor_config_t cfg_b = cfg;
    snprintf(cfg_b.state_dir, sizeof cfg_b.state_dir, "%s/state-b", dir);
    assert_int_equal(opfor_server_new(&b, &loop, &cfg_b, NULL), 0);
    opfor_diag_clear(&d);
    assert_int_equal(opfor_server_start(b, &d), OPFOR_EBUSY);
    assert_non_null(strstr(d.msg, "already listening"));
    opfor_server_free(b);
    struct stat st;
    assert_int_equal(stat(cfg.socket, &st), 0);
    opfor_server_free(a);
    assert_int_not_equal(stat(cfg.socket, &st), 0);

    /* A stale socket file (bound, never listened on, closed) is replaced. */
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", cfg.socket);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    close(fd);
    assert_int_equal(opfor_server_new(&a, &loop, &cfg, NULL), 0);
    opfor_diag_clear(&d);
    assert_int_equal(opfor_server_start(a, &d), 0);
    opfor_server_free(a);

    /* A regular file at the path is not ours to remove. */
    FILE *f = fopen(cfg.socket, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(opfor_server_new(&a, &loop, &cfg, NULL), 0);
    opfor_diag_clear(&d);
    assert_int_equal(opfor_server_start(a, &d), OPFOR_EBUSY);
    assert_non_null(strstr(d.msg, "not a socket"));
    opfor_server_free(a);
    assert_int_equal(stat(cfg.socket, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    unlink(cfg.socket);

    assert_int_equal(uv_loop_close(&loop), 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A state directory in use: a second server (another socket, same --state-dir) refuses to
 * start with OPFOR_EBUSY, naming the holder's pid, and touches neither the directory's lock
 * nor its own socket; another directory is fine meanwhile; once the holder is gone (its lock
 * released as the kernel does when a process dies) the directory can be taken again. */
static void server_state_dir_taken_once(void **state) {
    (void)state;
    char dir[] = "/tmp/opfor-test-srv-XXXXXX";
    assert_non_null(mkdtemp(dir));
    opfor_config_t cfg, cfg2, other;
    base_config(&cfg, dir, "a.sock");
    base_config(&cfg2, dir, "b.sock");
    base_config(&other, dir, "c.sock");
    snprintf(other.state_dir, sizeof other.state_dir, "%s/other", dir);
    uv_loop_t loop;
    assert_int_equal(uv_loop_init(&loop), 0);
    opfor_diag_t d;
    opfor_server_t *a, *b, *c;
    assert_int_equal(opfor_server_new(&a, &loop, &cfg, NULL), 0);
    opfor_diag_clear(&d);
    assert_int_equal(opfor_server_start(a, &d), 0);

    assert_int_equal(opfor_server_new(&b, &loop, &cfg2, NULL), 0);
    opfor_diag_clear(&d);
    assert_int_equal(opfor_server_start(b, &d), OPFOR_EBUSY);
    char pid[32];
    snprintf(pid, sizeof pid, "process %ld ", (long)getpid());
    assert_non_null(strstr(d.msg, pid));
    assert_non_null(strstr(d.msg, cfg.state_dir));
    assert_non_null(strstr(d.msg, "started "));
    opfor_state_holder_t holder;
    assert_int_equal(opfor_server_state_dir_holder(b, &holder), 1);
    assert_int_equal(holder.pid, (long)getpid());
    assert_non_null(strstr(holder.started, " UTC"));
    assert_int_equal(opfor_server_state_dir_holder(a, &holder), 0); /* a started fine */
    opfor_server_free(b);
    struct stat st;
    assert_int_not_equal(stat(cfg2.socket, &st), 0); /* refused before listening */

    /* The lock file says who holds it, and the refused server left it as it was. */
    char lock[OPFOR_CONFIG_PATH_MAX + 16], text[128] = "";
    snprintf(lock, sizeof lock, "%s/opford.lock", cfg.state_dir);
    FILE *f = fopen(lock, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    snprintf(pid, sizeof pid, "pid %ld\n", (long)getpid());
    assert_non_null(strstr(text, pid));

    assert_int_equal(opfor_server_new(&c, &loop, &other, NULL), 0);
    opfor_diag_clear(&d);
    assert_int_equal(opfor_server_start(c, &d), 0);
    opfor_server_free(c);

    opfor_server_free(a);
    assert_int_equal(opfor_server_new(&b, &loop, &cfg2, NULL), 0);
    opfor_diag_clear(&d);
    assert_int_equal(opfor_server_start(b, &d), 0);
    opfor_server_free(b);

    assert_int_equal(uv_loop_close(&loop), 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(server_post_runs_on_loop_thread_in_order),
        cmocka_unit_test(server_live_stale_and_foreign_socket_files),
        cmocka_unit_test(server_state_dir_taken_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
