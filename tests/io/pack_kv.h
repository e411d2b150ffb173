/* tests/io/pack_kv.h — packing helpers for the io and cli tests, which build the messages
 * they feed the daemon's code with msgpack-c: an empty buffer with its packer, and map
 * entries with a string key (packed as opfor_rpc_pack_cstr does).
 */
#ifndef OPFOR_TESTS_PACK_KV_H
#define OPFOR_TESTS_PACK_KV_H

#include <msgpack.h>

#include "opfor/rpc.h"

/* Initialises sb empty and pk to append to it (sb must not move while pk is in use). */
static inline void pack_open(msgpack_sbuffer *sb, msgpack_packer *pk) {
    msgpack_sbuffer_init(sb);
    msgpack_packer_init(pk, sb, msgpack_sbuffer_write);
}

/* Packs the key k of a map entry; the caller packs its value with the packer returned. */
static inline msgpack_packer *pack_key(msgpack_packer *pk, const char *k) {
    opfor_rpc_pack_cstr(pk, k);
    return pk;
}

/* A map entry: key k with the string v. */
static inline void kstr(msgpack_packer *pk, const char *k, const char *v) {
    opfor_rpc_pack_cstr(pack_key(pk, k), v);
}

/* A map entry: key k with the integer v. */
static inline void kint(msgpack_packer *pk, const char *k, int v) {
    msgpack_pack_int(pack_key(pk, k), v);
}

#endif
