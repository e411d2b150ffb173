/* io/workers_int.h — the worker pool's internals and the daemon's lock order.
 *
 * Lock order (take them in this order; never the reverse):
 *   1. opfor_workers.lock — the job queue, the running slots and the generation slots.
 *   2. opfor_server.post_lock — the post queue; a leaf lock held only inside
 *      opfor_server_post() and the loop's post pass, which call nothing else.
 * In practice the pool releases its lock before it posts, so the two are never nested. Jobs'
 * run callbacks hold no pool lock; they only read atomics (opfor_job_cancelled). The SQLite
 * store is used from the loop thread alone and has no lock of ours.
 */
#ifndef OPFOR_WORKERS_INT_H
#define OPFOR_WORKERS_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "opfor/workers.h"

/* The generation counter of one game key. A slot exists while jobs for its key are queued or
 * running (refs counts them); a change to a key without live jobs has nobody to cancel. */
typedef struct opfor__gen_slot {
    struct opfor__gen_slot *next; /* the pool's slot list */
    char key[OPFOR_JOB_KEY_MAX];  /* the game key */
    atomic_uint_fast64_t gen;     /* bumped by opfor_workers_game_changed() */
    unsigned refs;                /* live jobs pointing here (guarded by the pool lock) */
} opfor__gen_slot_t;

/* Per-thread argument: the pool and the thread's index into running[]. */
typedef struct opfor__worker_arg {
    opfor_workers_t *w; /* the pool */
    unsigned index;     /* slot in running[] */
} opfor__worker_arg_t;

struct opfor_workers {
    opfor_server_t *srv;       /* completions are posted here */
    pthread_mutex_t lock;      /* guards everything below except the atomics */
    pthread_cond_t wake;       /* signalled when a job is queued or the pool stops */
    opfor_job_t *head, *tail;  /* FIFO of jobs waiting for a thread */
    unsigned queued;           /* length of that queue */
    opfor_job_t **running;     /* per thread: the job it runs, or NULL */
    unsigned nrunning;         /* non-NULL entries of running */
    opfor__gen_slot_t *slots;  /* generation slots of keys with live jobs */
    atomic_int stopping;       /* 1 once opfor_workers_free() began */
    unsigned live;             /* jobs submitted whose done has not run yet */
    int freed;                 /* 1: opfor_workers_free() ran; the last done frees the pool */
    unsigned nthreads;         /* threads started */
    pthread_t *threads;        /* their handles */
    opfor__worker_arg_t *args; /* their arguments */
};

#endif
