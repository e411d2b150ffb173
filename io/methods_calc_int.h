/* io/methods_calc_int.h — the calc method's logic without a connection, for the handler and the
 * fuzz target (tests/fuzz/fuzz_dispatch.c).
 *
 * opfor__calc_eval() turns a params map into a calculator request and result; the handler then
 * packs the result with opfor__calc_pack() or answers with the error. Separating them keeps the
 * whole path from untrusted params to packed bytes testable without sockets.
 */
#ifndef OPFOR_METHODS_CALC_INT_H
#define OPFOR_METHODS_CALC_INT_H

#include <stddef.h>

#include <msgpack.h>

#include "opfor/viktoria/calc.h"

/* Evaluates the params of a calc request (see docs/protocol.md) with model m (inline "model"
 * overrides apply to the built-in defaults instead). Returns 0 with *req and *res filled, or an
 * OPFOR_RPC_E_* code (never 0) with msg saying what is wrong. Allocates only for inline models. */
int opfor__calc_eval(const opfor_viktoria_model_t *m, const msgpack_object *params,
                     opfor_viktoria_req_t *req, opfor_viktoria_result_t *res, char *msg,
                     size_t size);

/* Packs the result map of a calc response (one object). */
void opfor__calc_pack(msgpack_packer *pk, const opfor_viktoria_req_t *req,
                      const opfor_viktoria_result_t *res);

#endif
