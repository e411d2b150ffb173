/* tools/opfor/local_daemon.c — opford's server inside an `opfor` command (local_daemon.h).
 *
 * The same start-up as tools/opford/main.c (defaults, then the socket and state directory set
 * here), on a loop that a thread of its own runs; a uv_async_t carries the stop to that loop,
 * since the server's functions run on its thread only.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "local_daemon.h"
#include "opfor/config.h"
#include "opfor/server.h"

struct opfor__local_daemon {
    uv_loop_t loop;                    /* the server's loop, run by thread */
    uv_async_t stop;                   /* wakes the loop to stop the server */
    opfor_server_t *srv;               /* the server */
    pthread_t thread;                  /* runs the loop */
    int keep_in_dir;                   /* 1: the state is in dir (removed at stop) */
    char dir[96];                      /* the private directory */
    char sock[108];                    /* dir/opford.sock */
    char state[OPFOR_CONFIG_PATH_MAX]; /* the state directory */
};

static void *loop_thread(void *ud) {
    opfor__local_daemon_t *d = ud;
    uv_run(&d->loop, UV_RUN_DEFAULT);
    return NULL;
}

static void on_stop(uv_async_t *a) {
    opfor__local_daemon_t *d = a->data;
    uv_close((uv_handle_t *)&d->stop, NULL);
    opfor_server_stop(d->srv);
}

/* The server's errors (a high score not saved): the command's own stderr. */
static void log_line(void *ud, int level, const char *line) {
    (void)ud;
    (void)level;
    fprintf(stderr, "opfor: %s\n", line);
}

void opfor__local_daemon_remove_dir(const char *dir) {
    DIR *dh = opendir(dir);
    if (dh) {
        struct dirent *e;
        char path[512];
        while ((e = readdir(dh)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(dh);
    }
    rmdir(dir);
}

int opfor__local_daemon_start(opfor__local_daemon_t **out, const char *state_dir,
                              const char *scores_db, char *err, size_t errsize) {
    *out = NULL;
    opfor__local_daemon_t *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errsize, "out of memory");
        return OPFOR_ENOMEM;
    }
    const char *run = getenv("XDG_RUNTIME_DIR");
    if (!run || !*run || strlen(run) > 60 || access(run, W_OK) != 0)
        run = "/tmp";
    snprintf(d->dir, sizeof d->dir, "%s/opfor-game.XXXXXX", run);
    if (!mkdtemp(d->dir)) {
        snprintf(err, errsize, "cannot make a directory for the game's socket in %s", run);
        free(d);
        return OPFOR_EIO;
    }
    snprintf(d->sock, sizeof d->sock, "%s/opford.sock", d->dir);
    opfor_config_t cfg;
    opfor_config_defaults(&cfg);
    snprintf(cfg.socket, sizeof cfg.socket, "%s", d->sock);
    cfg.listen[0] = '\0';
    cfg.display[0] = '\0';
    cfg.log_level = OPFOR_LOG_ERROR;
    cfg.hello_timeout_ms = 0; /* the one client is this process: it never goes quiet on purpose */
    cfg.idle_timeout_ms = 0;
    d->keep_in_dir = state_dir == NULL;
    snprintf(cfg.state_dir, sizeof cfg.state_dir, "%s", state_dir ? state_dir : d->dir);
    snprintf(d->state, sizeof d->state, "%s", cfg.state_dir);
    if (scores_db && strlen(scores_db) >= sizeof cfg.scores_db) {
        snprintf(err, errsize, "--db: the path is too long");
        opfor__local_daemon_remove_dir(d->dir);
        free(d);
        return OPFOR_ERANGE;
    }
    snprintf(cfg.scores_db, sizeof cfg.scores_db, "%s", scores_db ? scores_db : "");
    opfor_server_hooks_t hooks = {.log = log_line};
    opfor_diag_t diag;
    opfor_diag_clear(&diag);
    int rc = OPFOR_EIO;
    if (uv_loop_init(&d->loop) != 0) {
        snprintf(err, errsize, "cannot start an event loop");
        goto fail_dir;
    }
    if ((rc = opfor_server_new(&d->srv, &d->loop, &cfg, &hooks)) < 0) {
        snprintf(err, errsize, "out of memory");
        goto fail_loop;
    }
    if ((rc = opfor_server_start(d->srv, &diag)) < 0) {
        opfor_state_holder_t holder;
        if (opfor_server_state_dir_holder(d->srv, &holder))
            snprintf(err, errsize,
                     "%s, a daemon that keeps its games there: play on it (--connect), or "
                     "stop it",
                     diag.msg);
        else
            snprintf(err, errsize, "%s", diag.msg);
        goto fail_srv;
    }
    uv_async_init(&d->loop, &d->stop, on_stop);
    d->stop.data = d;
    if (pthread_create(&d->thread, NULL, loop_thread, d) != 0) {
        rc = OPFOR_EIO;
        snprintf(err, errsize, "cannot start the game's thread");
        uv_close((uv_handle_t *)&d->stop, NULL);
        opfor_server_stop(d->srv);
        uv_run(&d->loop, UV_RUN_DEFAULT);
        goto fail_srv;
    }
    *out = d;
    return 0;
fail_srv:
    opfor_server_free(d->srv);
fail_loop:
    uv_loop_close(&d->loop);
fail_dir:
    opfor__local_daemon_remove_dir(d->dir);
    free(d);
    return rc;
}

const char *opfor__local_daemon_socket(const opfor__local_daemon_t *d) {
    return d->sock;
}

const char *opfor__local_daemon_state_dir(const opfor__local_daemon_t *d) {
    return d->state;
}

const char *opfor__local_daemon_dir(const opfor__local_daemon_t *d) {
    return d->dir;
}

void opfor__local_daemon_stop(opfor__local_daemon_t *d) {
    if (!d)
        return;
    uv_async_send(&d->stop);
    pthread_join(d->thread, NULL);
    opfor_server_free(d->srv);
    uv_loop_close(&d->loop);
    opfor__local_daemon_remove_dir(d->dir); /* the socket (gone already), and a kept-in-dir state */
    free(d);
}
