/* tests/io/server_harness.h — runs an in-process opford server on its own loop thread.
 *
 * Shared by the io tests that talk to a real server through sockets (test_client,
 * test_workers). The test thread configures and starts the server, then the loop runs on a
 * second thread until harness_stop() posts a stop request (opfor_server_post is the only
 * thread-safe way in) and joins it. Everything lives in a temporary directory.
 */
#ifndef OPFOR_TEST_SERVER_HARNESS_H
#define OPFOR_TEST_SERVER_HARNESS_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "opfor/server.h"

typedef struct harness {
    char dir[64];           /* temporary directory */
    char addr[160];         /* "unix:DIR/s.sock" */
    opfor_config_t cfg;     /* the server's settings */
    uv_loop_t loop;         /* the server's loop */
    opfor_server_t *srv;    /* the server */
    uv_thread_t thread;     /* runs the loop */
    opfor_post_t stop_post; /* carries the stop request */
    int running;            /* 1 between start and stop */
} harness_t;

/* Fills h->cfg with defaults for a server in a fresh temporary directory. */
static inline void harness_init(harness_t *h) {
    memset(h, 0, sizeof *h);
    snprintf(h->dir, sizeof h->dir, "/tmp/opfor-test-io-XXXXXX");
    if (!mkdtemp(h->dir))
        abort();
    opfor_config_defaults(&h->cfg);
    snprintf(h->cfg.socket, sizeof h->cfg.socket, "%s/s.sock", h->dir);
    snprintf(h->cfg.state_dir, sizeof h->cfg.state_dir, "%s/state", h->dir);
    snprintf(h->addr, sizeof h->addr, "unix:%s", h->cfg.socket);
    h->cfg.log_level = OPFOR_LOG_ERROR;
}

static void harness_loop_main(void *arg) {
    harness_t *h = arg;
    uv_run(&h->loop, UV_RUN_DEFAULT);
}

/* Starts the server with h->cfg; returns 0 or the start error (message on stderr). */
static inline int harness_start(harness_t *h) {
    if (uv_loop_init(&h->loop) != 0)
        return -1;
    if (opfor_server_new(&h->srv, &h->loop, &h->cfg, NULL) != 0)
        return -1;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = opfor_server_start(h->srv, &d);
    if (rc < 0) {
        fprintf(stderr, "harness: start failed: %s\n", d.msg);
        opfor_server_free(h->srv);
        uv_loop_close(&h->loop);
        return rc;
    }
    h->running = 1;
    uv_thread_create(&h->thread, harness_loop_main, h);
    return 0;
}

static void harness_on_stop(opfor_post_t *p) {
    harness_t *h = (harness_t *)((char *)p - offsetof(harness_t, stop_post));
    opfor_server_stop(h->srv);
}

/* Stops the server, joins the loop thread, frees everything and removes the directory. */
static inline void harness_stop(harness_t *h) {
    if (h->running) {
        h->stop_post.fn = harness_on_stop;
        opfor_server_post(h->srv, &h->stop_post);
        uv_thread_join(&h->thread);
        opfor_server_free(h->srv);
        uv_loop_close(&h->loop);
        h->running = 0;
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", h->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "harness: could not remove %s\n", h->dir);
}

/* Monotonic milliseconds, for latency checks. */
static inline double harness_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

#endif
