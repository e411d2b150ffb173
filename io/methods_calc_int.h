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
#include <stdint.h>

#include <msgpack.h>

#include "opfor/ruleset.h"
#include "opfor/ruleset_calc.h"

/* Most fields of a calculator action the daemon reads. */
#define OPFOR__CALC_MAX_FIELDS 32

/* Bytes of the ruleset's own parts packed in one pass (opfor__calc_parts_t): room for any
 * parts the answer's tree holds (512 nodes of at most 14 bytes besides the 8 KB of keys and
 * texts), so in practice only parts past the tree's own limits are asked again through it. */
#define OPFOR__CALC_PARTS_BYTES 16384

/* The ruleset's own parts of an answer, packed as MessagePack while the ruleset makes them (the
 * answer's writer, opfor/ruleset_calc.h): the top-level entries' keys and values, ready to be
 * copied between the answer's "fields" and "facts". A map or array holds one byte for its
 * header; when it closes, its header (now that its entries are counted) goes there, the
 * entries moving down for the 3 or 5 bytes of a count of 16 or more, so the bytes are those
 * msgpack_pack_map/array would have written. */
typedef struct opfor__calc_parts {
    opfor_calc_writer_t writer;           /* node() packs into buf; ctx is this */
    msgpack_packer pk;                    /* packs into buf */
    size_t len;                           /* bytes of buf in use */
    size_t cap;                           /* bytes of buf it may use */
    int full;                             /* 1: something did not fit */
    int ntop;                             /* top-level entries written */
    int depth;                            /* maps and arrays open */
    int is_map[OPFOR_CALC_MAX_DEPTH];     /* each open one: 1 a map, 0 an array */
    uint32_t count[OPFOR_CALC_MAX_DEPTH]; /* its entries so far */
    size_t at[OPFOR_CALC_MAX_DEPTH];      /* offset of its header */
    char buf[OPFOR__CALC_PARTS_BYTES];    /* the packed entries */
} opfor__calc_parts_t;

/* Makes p an empty writer (p->writer, for an answer's writer) of at most max bytes of p->buf
 * (0: all of them); p->full says when something did not fit. */
void opfor__calc_parts_init(opfor__calc_parts_t *p, size_t max);

/* One calc question and its answer. */
typedef struct opfor__calc_q {
    const opfor_ruleset_t *rs;                  /* the ruleset asked */
    const opfor_form_t *form;                   /* the action */
    opfor_value_t vals[OPFOR__CALC_MAX_FIELDS]; /* its fields, in field order */
    char texts[OPFOR__CALC_MAX_FIELDS][96];     /* the values as sent (vals' text) */
    opfor_calc_answer_t ans;                    /* the answer */
    opfor__calc_parts_t parts;                  /* the answer's own parts, packed (when parts_ok) */
    int parts_ok;                               /* 1: parts holds them; 0: the answer's tree does */
    size_t parts_max; /* set by the caller: bytes of parts.buf to use, 0 all of it (a test sets
                         a few, or 1 for the tree alone: the plain path it compares with) */
    int schema;       /* 1: pack the shared schema's keys too (param "schema", or a ruleset without
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
