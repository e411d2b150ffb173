/* io/workers.c — the daemon's worker threads (see opfor/workers.h, lock order in workers_int.h).
 *
 * One mutex and one condition variable guard a queue of caller-owned jobs; N pthreads take
 * them fairly (round-robin over owners, then game keys: the design is in workers_int.h), each
 * told its budget share when it starts. Cancellation is cooperative and cheap to poll: a job looks
 * at its own flag, its call's flag (set by the server when the client leaves) and its game key's
 * generation counter, all atomics. Completions go back through opfor_server_post(), so `done`
 * always runs on the loop thread, where calls may be answered.
 */
#include "workers_int.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server_int.h"

unsigned opfor_workers_default_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 2 ? (unsigned)(n - 1) : 1u;
}

unsigned opfor_workers_share(unsigned waiting, unsigned nthreads) {
    unsigned share = 1 + waiting / (nthreads ? nthreads : 1);
    return share < OPFOR_WORKERS_SHARE_MAX ? share : OPFOR_WORKERS_SHARE_MAX;
}

static void pool_destroy(opfor_workers_t *w) {
    while (w->owners) { /* only when threads failed to start with jobs queued: never in use */
        opfor__owner_t *o = w->owners;
        w->owners = o->next;
        free(o);
    }
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w->running);
    free(w->threads);
    free(w->args);
    free(w);
}

/* Loop thread: the job's completion. */
static void on_job_posted(opfor_post_t *p) {
    opfor_job_t *job = (opfor_job_t *)((char *)p - offsetof(opfor_job_t, post));
    opfor_workers_t *w = job->pool;
    pthread_mutex_lock(&w->lock);
    opfor__gen_slot_t *slot = job->slot;
    if (slot && --slot->refs == 0) {
        opfor__gen_slot_t **pp = &w->slots;
        while (*pp != slot)
            pp = &(*pp)->next;
        *pp = slot->next;
        free(slot);
    }
    int last = --w->live == 0 && w->freed;
    unsigned waiting = w->queued;
    pthread_mutex_unlock(&w->lock);
    job->slot = NULL;
    if (job->ran && job->share != (w->logged_share ? w->logged_share : 1) && !w->freed) {
        if (job->share > 1)
            opfor_server_log(w->srv, OPFOR_LOG_INFO,
                             "busy: searches get 1/%u of their budgets (%u waiting for %u "
                             "worker%s)",
                             job->share, job->waiting, w->nthreads, w->nthreads == 1 ? "" : "s");
        else
            opfor_server_log(w->srv, OPFOR_LOG_INFO,
                             "searches are back to their whole budgets (%u waiting)", waiting);
        w->logged_share = job->share;
    }
    job->done(job);
    if (last)
        pool_destroy(w);
}

/* Takes the next job by the fair order of workers_int.h (the lock held, a job waiting). */
static opfor_job_t *take_next(opfor_workers_t *w) {
    opfor__owner_t *o = w->owners;
    for (opfor__owner_t *x = w->owners; x; x = x->next)
        if (x->last < o->last)
            o = x;
    opfor_job_t *job = NULL, *job_prev = NULL, *prev = NULL;
    uint64_t best = 0;
    for (opfor_job_t *j = w->head; j; prev = j, j = j->qnext) {
        if (j->flow != o)
            continue;
        uint64_t turn = j->slot ? j->slot->last : j->seq;
        if (!job || turn < best) {
            job = j;
            job_prev = prev;
            best = turn;
        }
    }
    if (job_prev)
        job_prev->qnext = job->qnext;
    else
        w->head = job->qnext;
    if (w->tail == job)
        w->tail = job_prev;
    job->qnext = NULL;
    job->flow = NULL;
    w->queued--;
    o->last = ++w->tick;
    if (job->slot)
        job->slot->last = w->tick;
    if (--o->queued == 0) {
        opfor__owner_t **pp = &w->owners;
        while (*pp != o)
            pp = &(*pp)->next;
        *pp = o->next;
        free(o);
    }
    job->waiting = w->queued;
    job->share = opfor_workers_share(w->queued, w->nthreads);
    return job;
}

static void *worker_main(void *arg) {
    opfor__worker_arg_t *a = arg;
    opfor_workers_t *w = a->w;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->head && !atomic_load(&w->stopping))
            pthread_cond_wait(&w->wake, &w->lock);
        if (!w->head)
            break; /* stopping and nothing left */
        opfor_job_t *job = take_next(w);
        w->running[a->index] = job;
        w->nrunning++;
        pthread_mutex_unlock(&w->lock);

        job->ran = !opfor_job_cancelled(job);
        if (job->ran)
            job->run(job);

        pthread_mutex_lock(&w->lock);
        w->running[a->index] = NULL;
        w->nrunning--;
        pthread_mutex_unlock(&w->lock);
        opfor_server_post(w->srv, &job->post); /* never under the pool lock */
        pthread_mutex_lock(&w->lock);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

int opfor_workers_new(opfor_workers_t **out, opfor_server_t *srv, unsigned nthreads) {
    *out = NULL;
    if (nthreads == 0)
        nthreads = opfor_workers_default_count();
    opfor_workers_t *w = calloc(1, sizeof *w);
    if (!w)
        return OPFOR_ENOMEM;
    w->srv = srv;
    w->max_queued = OPFOR_WORKERS_MAX_QUEUED_DEFAULT;
    atomic_init(&w->stopping, 0);
    w->running = calloc(nthreads, sizeof *w->running);
    w->threads = calloc(nthreads, sizeof *w->threads);
    w->args = calloc(nthreads, sizeof *w->args);
    if (!w->running || !w->threads || !w->args) {
        free(w->running);
        free(w->threads);
        free(w->args);
        free(w);
        return OPFOR_ENOMEM;
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    for (unsigned i = 0; i < nthreads; i++) {
        w->args[i].w = w;
        w->args[i].index = i;
        if (pthread_create(&w->threads[i], NULL, worker_main, &w->args[i]) != 0) {
            pthread_mutex_lock(&w->lock);
            atomic_store(&w->stopping, 1);
            pthread_cond_broadcast(&w->wake);
            pthread_mutex_unlock(&w->lock);
            for (unsigned k = 0; k < i; k++)
                pthread_join(w->threads[k], NULL);
            pool_destroy(w);
            return OPFOR_EIO;
        }
        w->nthreads = i + 1;
    }
    *out = w;
    return 0;
}

unsigned opfor_workers_count(const opfor_workers_t *w) {
    return w->nthreads;
}

void opfor_workers_set_max_queued(opfor_workers_t *w, unsigned max) {
    pthread_mutex_lock(&w->lock);
    w->max_queued = max ? max : OPFOR_WORKERS_MAX_QUEUED_DEFAULT;
    pthread_mutex_unlock(&w->lock);
}

int opfor_workers_submit(opfor_workers_t *w, opfor_job_t *job) {
    if (!job->run || !job->done)
        return OPFOR_EINVAL;
    job->pool = w;
    job->ran = 0;
    job->share = 1;
    job->waiting = 0;
    job->slot = NULL;
    job->flow = NULL;
    job->gen = 0;
    job->qnext = NULL;
    job->post.next = NULL;
    job->post.fn = on_job_posted;
    atomic_init(&job->cancel_flag, 0);
    if (!job->owner && job->call && job->call->client) /* loop thread: the call is ours */
        job->owner = job->call->client->serial;
    pthread_mutex_lock(&w->lock);
    if (atomic_load(&w->stopping)) {
        pthread_mutex_unlock(&w->lock);
        return OPFOR_ECANCELED;
    }
    if (w->queued >= w->max_queued) {
        unsigned max = w->max_queued;
        pthread_mutex_unlock(&w->lock);
        if (!w->logged_full)
            opfor_server_log(w->srv, OPFOR_LOG_WARN,
                             "the search queue is full (%u waiting, --max-queued): new searches "
                             "are refused BUSY until there is room",
                             max);
        w->logged_full = 1;
        return OPFOR_EFULL;
    }
    w->logged_full = 0;
    opfor__owner_t *o = w->owners;
    while (o && o->id != job->owner)
        o = o->next;
    if (!o) {
        o = calloc(1, sizeof *o);
        if (!o) {
            pthread_mutex_unlock(&w->lock);
            return OPFOR_ENOMEM;
        }
        o->id = job->owner;
        o->last = ++w->tick; /* behind every owner already waiting */
        o->next = w->owners;
        w->owners = o;
    }
    if (job->key[0]) {
        job->key[OPFOR_JOB_KEY_MAX - 1] = '\0';
        opfor__gen_slot_t *s = w->slots;
        while (s && strcmp(s->key, job->key) != 0)
            s = s->next;
        if (!s) {
            s = calloc(1, sizeof *s);
            if (!s) {
                if (o->queued == 0) { /* just made: nobody else points at it */
                    w->owners = o->next;
                    free(o);
                }
                pthread_mutex_unlock(&w->lock);
                return OPFOR_ENOMEM;
            }
            memcpy(s->key, job->key, sizeof s->key);
            s->last = ++w->tick; /* behind the keys already waiting */
            atomic_init(&s->gen, 0);
            s->next = w->slots;
            w->slots = s;
        }
        s->refs++;
        job->slot = s;
        job->gen = atomic_load(&s->gen);
    }
    o->queued++;
    job->flow = o;
    job->seq = ++w->tick;
    if (w->tail)
        w->tail->qnext = job;
    else
        w->head = job;
    w->tail = job;
    w->queued++;
    w->live++;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    return 0;
}

int opfor_job_cancelled(const opfor_job_t *job) {
    if (atomic_load_explicit(&job->cancel_flag, memory_order_relaxed))
        return 1;
    if (job->call && opfor_call_cancelled(job->call))
        return 1;
    if (job->slot && atomic_load_explicit(&job->slot->gen, memory_order_relaxed) != job->gen)
        return 1;
    return job->pool && atomic_load_explicit(&job->pool->stopping, memory_order_relaxed);
}

void opfor_job_cancel(opfor_job_t *job) {
    atomic_store(&job->cancel_flag, 1);
}

void opfor_workers_game_changed(opfor_workers_t *w, const char *key) {
    pthread_mutex_lock(&w->lock);
    for (opfor__gen_slot_t *s = w->slots; s; s = s->next)
        if (strcmp(s->key, key) == 0) {
            atomic_fetch_add(&s->gen, 1);
            break;
        }
    pthread_mutex_unlock(&w->lock);
}

void opfor_workers_stats(opfor_workers_t *w, unsigned *queued, unsigned *running) {
    pthread_mutex_lock(&w->lock);
    if (queued)
        *queued = w->queued;
    if (running)
        *running = w->nrunning;
    pthread_mutex_unlock(&w->lock);
}

void opfor_workers_free(opfor_workers_t *w) {
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    atomic_store(&w->stopping, 1); /* every job now sees itself cancelled */
    pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->lock);
    /* The threads drain the queue (skipping run for cancelled jobs) and post each completion. */
    for (unsigned i = 0; i < w->nthreads; i++)
        pthread_join(w->threads[i], NULL);
    /* The completions still need w (slots, counts): the last one to run frees the pool. */
    pthread_mutex_lock(&w->lock);
    w->freed = 1;
    int now = w->live == 0;
    pthread_mutex_unlock(&w->lock);
    if (now)
        pool_destroy(w);
}
