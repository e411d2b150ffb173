/* io/methods_debug.c — debug.* methods: synthetic work for tests and diagnosis.
 *
 * They exist only when opford runs with `debug-methods: yes` (otherwise they answer
 * METHOD_NOT_FOUND, as if absent). debug.sleep occupies a worker thread the way a search does:
 * it sleeps in 1 ms steps, polling opfor_job_cancelled(), so tests can show that a long job
 * never delays another client's requests and that a client leaving frees its worker at once.
 */
#include "methods_int.h"

#include "server_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opfor/workers.h"

typedef struct sleep_job {
    opfor_job_t job;   /* must stay first */
    uint32_t ms;       /* how long to sleep */
    uint32_t slept;    /* milliseconds actually slept (worker thread writes, loop reads) */
    uint64_t start_ns; /* when run began */
    int cancelled;     /* 1 when run stopped early because the job was cancelled */
} sleep_job_t;

static uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_run(opfor_job_t *job) {
    sleep_job_t *s = (sleep_job_t *)job;
    s->start_ns = mono_ns();
    const uint64_t end = s->start_ns + (uint64_t)s->ms * 1000000u;
    struct timespec step = {0, 1000000}; /* 1 ms */
    while (mono_ns() < end) {
        if (opfor_job_cancelled(job)) {
            s->cancelled = 1;
            break;
        }
        nanosleep(&step, NULL);
    }
    s->slept = (uint32_t)((mono_ns() - s->start_ns) / 1000000u);
}

static void sleep_done(opfor_job_t *job) {
    sleep_job_t *s = (sleep_job_t *)job;
    if (s->cancelled || !job->ran)
        opfor_call_error(job->call, OPFOR_RPC_E_CANCELLED, "cancelled after %u ms", s->slept);
    else {
        msgpack_packer *pk = opfor_call_result_begin(job->call);
        msgpack_pack_map(pk, 1);
        opfor_rpc_pack_cstr(pk, "slept_ms");
        msgpack_pack_uint32(pk, s->slept);
        opfor_call_result_end(job->call);
    }
    free(s);
}

int opfor__method_debug_sleep(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"ms", "key", NULL};
    char why[160];
    int64_t ms = 0;
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0 ||
        opfor_rpc_params_int(params, "ms", 0, 60000, &ms, why, sizeof why) == OPFOR_EINVAL) {
        opfor_call_error(call, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
        return 0;
    }
    sleep_job_t *s = calloc(1, sizeof *s);
    if (!s)
        return OPFOR_ENOMEM;
    if (opfor_rpc_params_str(params, "key", s->job.key, sizeof s->job.key, why, sizeof why) ==
        OPFOR_EINVAL) {
        free(s);
        opfor_call_error(call, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
        return 0;
    }
    s->ms = (uint32_t)ms;
    s->job.run = sleep_run;
    s->job.done = sleep_done;
    s->job.call = call;
    int rc = opfor_workers_submit(opfor__server_workers(call->srv), &s->job);
    if (rc < 0) {
        free(s);
        return rc;
    }
    return 0; /* answered by sleep_done */
}

int opfor__method_debug_game_changed(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"key", NULL};
    char why[160], key[OPFOR_JOB_KEY_MAX];
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0 ||
        opfor_rpc_params_str(params, "key", key, sizeof key, why, sizeof why) < 0) {
        opfor_call_error(call, OPFOR_RPC_E_INVALID_PARAMS, "%s",
                         opfor_rpc_params_get(params, "key") ? why : "param 'key' is required");
        return 0;
    }
    opfor_workers_game_changed(opfor__server_workers(call->srv), key);
    msgpack_packer *pk = opfor_call_result_begin(call);
    msgpack_pack_map(pk, 0);
    opfor_call_result_end(call);
    return 0;
}
