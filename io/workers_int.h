/* io/workers_int.h — the worker pool's internals and the daemon's lock order.
 *
 * Lock order (take them in this order; never the reverse):
 *   1. opfor_workers.lock — the job queue, the running slots and the generation slots.
 *   2. opfor_server.post_lock — the post queue; a leaf lock held only inside
 *      opfor_server_post() and the loop's post pass, which call nothing else.
 * In practice the pool releases its lock before it posts, so the two are never nested. Jobs'
 * run callbacks hold no pool lock; they only read atomics (opfor_job_cancelled). The SQLite
 * store is used from the loop thread alone and has no lock of ours.
 *
 * Fair queueing. Waiting jobs stay on one list in submit order; a thread picks, under the lock,
 *   1. the owner (a client connection; 0 for jobs nobody asked for) served longest ago: each
 *      owner with jobs waiting has a record whose `last` is the pool tick at which it was last
 *      served, or at which it began waiting (so a new owner queues behind those already
 *      waiting, as in deficit round-robin, and cannot push ahead of them);
 *   2. among that owner's jobs, the one whose game key was served longest ago (the key's
 *      generation slot keeps `last` the same way; a job without a key uses its submit tick);
 *   3. among that key's jobs, the first submitted.
 * The scan is linear in the jobs waiting, which the queue limit (max_queued) bounds. A client
 * flooding many games therefore waits its turn like everyone: with C clients waiting, another
 * client's job starts within C picks of being queued.
 *
 * Shares. A job that starts with q jobs still waiting on n threads gets share 1 + q / n (at most
 * OPFOR_WORKERS_SHARE_MAX): the search spends 1/share of its level's budget, so the last table
 * of a burst of B waits about B / n searches of a quarter budget instead of B / n whole ones.
 * Under no load (fewer jobs waiting than threads) the share is 1 and nothing changes. The
 * floor per level is the AI's (opfor_ai_level_floor).
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
    uint64_t last;                /* pool tick when its key was last served (or first queued) */
} opfor__gen_slot_t;

/* An owner (a client) with jobs waiting: its place in the round-robin. */
typedef struct opfor__owner {
    struct opfor__owner *next; /* the pool's owner list */
    uint64_t id;               /* opfor_job_t.owner */
    uint64_t last;             /* pool tick when last served (or when it began waiting) */
    unsigned queued;           /* its jobs waiting; the record goes at 0 */
} opfor__owner_t;

/* Per-thread argument: the pool and the thread's index into running[]. */
typedef struct opfor__worker_arg {
    opfor_workers_t *w; /* the pool */
    unsigned index;     /* slot in running[] */
} opfor__worker_arg_t;

struct opfor_workers {
    opfor_server_t *srv;       /* completions are posted here */
    pthread_mutex_t lock;      /* guards everything below except the atomics */
    pthread_cond_t wake;       /* signalled when a job is queued or the pool stops */
    opfor_job_t *head, *tail;  /* jobs waiting for a thread, in submit order */
    unsigned queued;           /* length of that queue */
    unsigned max_queued;       /* more are refused (OPFOR_EFULL) */
    opfor__owner_t *owners;    /* owners with jobs waiting */
    uint64_t tick;             /* advances at each submit and each pick */
    unsigned logged_share;     /* loop thread: the share last logged (0 none yet) */
    int logged_full;           /* loop thread: 1 once a refusal was logged, until room again */
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
