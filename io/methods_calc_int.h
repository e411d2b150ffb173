/* io/methods_calc_int.h — the calc method's logic without a connection, for the handler and the
 * fuzz target (tests/fuzz/fuzz_dispatch.c).
 *
 * opfor__calc_eval() turns a params map into a ruleset's calculator question and its answer
 * (opfor/ruleset_calc.h); the handler then packs it with opfor__calc_pack() or answers with the
 * error. Separating them keeps the whole path from untrusted params to packed bytes testable
 * without sockets. Nothing here knows a ruleset: the registry and the forms say it all.
 */
#ifndef OPFOR_METHODS_CALC_INT_H
#define OPFOR_METHODS_CALC_INT_H

#include <stddef.h>

#include <msgpack.h>

#include "opfor/ruleset.h"
#include "opfor/ruleset_calc.h"

/* Most fields of a calculator action the daemon reads. */
#define OPFOR__CALC_MAX_FIELDS 32

/* One calc question and its answer. */
typedef struct opfor__calc_q {
    const opfor_ruleset_t *rs;                  /* the ruleset asked */
    const opfor_form_t *form;                   /* the action */
    opfor_value_t vals[OPFOR__CALC_MAX_FIELDS]; /* its fields, in field order */
    char texts[OPFOR__CALC_MAX_FIELDS][96];     /* the values as sent (vals' text) */
    opfor_calc_answer_t ans;                    /* the answer */
    int schema; /* 1: pack the shared schema's keys too (param "schema", or a ruleset without
                   its own parts); 0: the ruleset's own shape only, as before the schema */
} opfor__calc_q_t;

/* The ruleset that answers calc requests naming none, and whose model the daemon's `model:`
 * file is: the first registered ruleset with a calculator. NULL when none has one. */
const opfor_ruleset_t *opfor__calc_default(void);

/* Evaluates the params of a calc request (see docs/protocol.md) into *q. model is the daemon's
 * model of opfor__calc_default()'s calculator (NULL: its built-in one); another ruleset's
 * calculator, and inline "model" overrides, use a model loaded for the call. Returns 0 with *q
 * filled, or an OPFOR_RPC_E_* code (never 0) with msg saying what is wrong. Allocates only for
 * models loaded for the call. */
int opfor__calc_eval(const void *model, const msgpack_object *params, opfor__calc_q_t *q, char *msg,
                     size_t size);

/* Packs the result map of a calc response (one object). */
void opfor__calc_pack(msgpack_packer *pk, const opfor__calc_q_t *q);

#endif
