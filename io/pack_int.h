/* io/pack_int.h — one call per key and value of a MessagePack map, for io's replies and events.
 *
 * Game states, acks, orders and events are long maps; packing each entry with one call keeps
 * the key beside its value. Each helper packs the key as opfor_rpc_pack_cstr() does and the
 * value with the msgpack-c call it names, so the bytes are exactly those of the two calls.
 */
#ifndef OPFOR_IO_PACK_INT_H
#define OPFOR_IO_PACK_INT_H

#include <stdint.h>

#include <msgpack.h>

#include "opfor/rpc.h"
#include "opfor/form.h"
#include "opfor/scene.h"

/* static inline void opfor__kv_NAME(msgpack_packer *pk, const char *key, TYPE v): key, then v
 * packed by PACK. */
#define OPFOR__KV_FN(NAME, TYPE, PACK)                                                             \
    static inline void opfor__kv_##NAME(msgpack_packer *pk, const char *key, TYPE v) {             \
        opfor_rpc_pack_cstr(pk, key);                                                              \
        PACK(pk, v);                                                                               \
    }

OPFOR__KV_FN(str, const char *, opfor_rpc_pack_cstr) /* a NUL-terminated string */
OPFOR__KV_FN(int, int, msgpack_pack_int)
OPFOR__KV_FN(i64, int64_t, msgpack_pack_int64)
OPFOR__KV_FN(u64, uint64_t, msgpack_pack_uint64)
OPFOR__KV_FN(double, double, msgpack_pack_double)
#undef OPFOR__KV_FN

/* key: true or false (msgpack_pack_true / msgpack_pack_false) */
static inline void opfor__kv_bool(msgpack_packer *pk, const char *key, int v) {
    opfor_rpc_pack_cstr(pk, key);
    if (v)
        msgpack_pack_true(pk);
    else
        msgpack_pack_false(pk);
}

/* A scene as game.state's `scene` (docs/protocol.md): {width, depth, shapes, units, arrows,
 * labels}. In io/game_gen.c. */
void opfor__pack_scene(msgpack_packer *pk, const opfor_scene_t *sc);

/* Packs the `values` of field k of form f (an array: the values the rules allow now) and
 * returns 1, or packs nothing and returns 0 (the field's `values` is then nil). */
typedef int (*opfor__form_values_fn)(void *ud, const opfor_form_t *f, int k, msgpack_packer *pk);
/* n forms as game.state's `reports` or `actions` (an array of {name, title, help, section,
 * fields: [{name, label, help, type, required, optional, list, min, max, default, choices,
 * values, unit}]}); fn (may be NULL) gives a field's `values`. In io/pack_forms.c. */
void opfor__pack_forms(msgpack_packer *pk, const opfor_form_t *forms, int n,
                       opfor__form_values_fn fn, void *ud);

#endif
