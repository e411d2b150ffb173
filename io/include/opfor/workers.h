/* io/include/opfor/workers.h — opford's own worker threads for long work (AI searches).
 *
 * Searches must not run on the libuv loop (every client would wait) nor on libuv's shared
 * thread pool (file system requests and DNS would queue behind them). A pool of plain pthreads
 * takes jobs from one queue, fairly: round-robin over the clients (owners) with jobs waiting,
 * within a client round-robin over its game keys, within a key first come first served, so a
 * client flooding many games never starves another's. A job that starts while many wait is told
 * so (job->share): a search then spends a share of its budget, keeping every table's wait
 * bounded (the design is in io/workers_int.h). A finished job travels back to the loop thread
 * through opfor_server_post(), where its `done` callback answers the client. Jobs are caller-owned
 * structs (embed opfor_job_t), so submitting never allocates. A job is cancelled when its call
 * is (the client left, the server stops), when opfor_job_cancel() is called, or when the game it
 * belongs to changes (a generation counter per game key).
 */
#ifndef OPFOR_WORKERS_H
#define OPFOR_WORKERS_H

#include <stdatomic.h>
#include <stdint.h>

#include "opfor/server.h"

#define OPFOR_JOB_KEY_MAX 64                  /* bytes of a game key, NUL included */
#define OPFOR_WORKERS_SHARE_MAX 4             /* the smallest share of a budget: 1/4 */
#define OPFOR_WORKERS_MAX_QUEUED_DEFAULT 1024 /* jobs waiting at most, unless set */

typedef struct opfor_workers opfor_workers_t;
typedef struct opfor_job opfor_job_t;
struct opfor__gen_slot;
struct opfor__owner;

/* A job callback: run on a worker thread, done on the loop thread. */
typedef void (*opfor_job_fn)(opfor_job_t *job);

/* Embed this in the job's own struct (first member, or recover it with offsetof). The caller
 * fills run, done and optionally call, key and arg before opfor_workers_submit(); the struct
 * must stay alive until done has been called. */
struct opfor_job {
    opfor_job_fn run;            /* worker thread: does the work, polls opfor_job_cancelled() */
    opfor_job_fn done;           /* loop thread: answers the call, frees the job; always called */
    opfor_call_t *call;          /* the call this job answers, or NULL; cancelled with it */
    char key[OPFOR_JOB_KEY_MAX]; /* game key ("" = none): opfor_workers_game_changed() cancels */
    void *arg;                   /* free for the caller */
    uint64_t owner;              /* who asked, for fairness (0: the call's connection, if any) */
    int ran;                     /* set before done: 1 run was called, 0 cancelled before start */
    unsigned share;              /* set before run: 1, or n > 1 when the job started with many
                                    waiting: a search should spend 1/n of its budget (n at most
                                    OPFOR_WORKERS_SHARE_MAX); see opfor_workers_share() */
    unsigned waiting;            /* set before run: jobs still waiting when it started */
    /* --- internal: owned by the pool between submit and done --- */
    opfor_post_t post;            /* carries the completion to the loop thread */
    atomic_int cancel_flag;       /* set by opfor_job_cancel() or the pool */
    opfor_workers_t *pool;        /* the pool it was submitted to */
    struct opfor__gen_slot *slot; /* its key's generation counter, or NULL */
    struct opfor__owner *flow;    /* its owner's place in the round-robin while queued */
    uint64_t gen;                 /* the key's generation at submit */
    uint64_t seq;                 /* submit order (the turn of a job without a key) */
    opfor_job_t *qnext;           /* queue link */
};

/* One fewer than the online cores, at least 1. */
unsigned opfor_workers_default_count(void);

/* Starts nthreads worker threads (0 = opfor_workers_default_count()) that post completions to
 * srv. Call on the loop thread. Returns 0, OPFOR_ENOMEM, or OPFOR_EIO when a thread cannot be
 * started (then nothing is left running). */
int opfor_workers_new(opfor_workers_t **out, opfor_server_t *srv, unsigned nthreads);

/* The number of threads. */
unsigned opfor_workers_count(const opfor_workers_t *w);

/* The budget share of a job that starts with `waiting` jobs queued behind it on a pool of
 * nthreads: 1 + waiting / nthreads, at most OPFOR_WORKERS_SHARE_MAX (so 1 while fewer jobs
 * wait than there are threads). Pure; the pool uses it for job->share. */
unsigned opfor_workers_share(unsigned waiting, unsigned nthreads);

/* How many jobs may wait for a thread (loop thread; 0 = OPFOR_WORKERS_MAX_QUEUED_DEFAULT). A
 * smaller limit than the jobs now waiting refuses only new jobs. */
void opfor_workers_set_max_queued(opfor_workers_t *w, unsigned max);

/* Queues job (loop thread). run is called on some worker unless the job is cancelled before a
 * worker takes it; done is then called on the loop thread in every case, exactly once, with
 * job->ran telling which. Jobs are taken fairly (round-robin over owners, then over keys; see
 * the top of this file). Returns 0, or OPFOR_ECANCELED when the pool is shutting down,
 * OPFOR_EFULL when the queue holds its limit of waiting jobs, OPFOR_ENOMEM (done is then NOT
 * called), or OPFOR_EINVAL for a job without run or done. */
int opfor_workers_submit(opfor_workers_t *w, opfor_job_t *job);

/* Thread-safe: true once the job should stop: cancelled by opfor_job_cancel(), its call
 * cancelled (client gone, server stopping), its game key changed since submit, or the pool is
 * shutting down. Cheap (atomic loads only): poll it every few milliseconds of work. */
int opfor_job_cancelled(const opfor_job_t *job);

/* Thread-safe: asks the job to stop. */
void opfor_job_cancel(opfor_job_t *job);

/* Thread-safe: the game under key changed (a move, a report, a close): every job submitted
 * for key before this call sees itself cancelled. Jobs submitted afterwards are not. */
void opfor_workers_game_changed(opfor_workers_t *w, const char *key);

/* Thread-safe counts, for logs and tests: jobs waiting for a thread, and jobs running. */
void opfor_workers_stats(opfor_workers_t *w, unsigned *queued, unsigned *running);

/* Cancels every job, joins the threads and releases the pool (loop thread). The completions of
 * jobs still queued or running are posted to the server and run at its next post pass (the
 * server runs pending posts when it is freed); the pool's memory goes with the last of them,
 * so opfor_job_cancelled() stays safe to call from their done callbacks. */
void opfor_workers_free(opfor_workers_t *w);

#endif
