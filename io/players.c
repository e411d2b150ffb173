/* io/players.c — the players' view of a game (io/players_int.h, docs/web.md): a game's state
 * packed again without the keys the players' link must not see.
 */
#include "players_int.h"

#include <string.h>

#include "opfor/error.h"

int opfor__players_hidden_key(const char *k, size_t n) {
    return n == 4 && memcmp(k, "seed", 4) == 0;
}

static int hidden(const msgpack_object *key) {
    return key->type == MSGPACK_OBJECT_STR &&
           opfor__players_hidden_key(key->via.str.ptr, key->via.str.size);
}

int opfor__players_pack(msgpack_packer *pk, const char *data, size_t len) {
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    if (msgpack_unpack_next(&u, data, len, &off) != MSGPACK_UNPACK_SUCCESS) {
        msgpack_unpacked_destroy(&u);
        msgpack_pack_nil(pk);
        return OPFOR_EPARSE;
    }
    const msgpack_object *o = &u.data;
    if (o->type != MSGPACK_OBJECT_MAP) {
        msgpack_pack_object(pk, *o);
        msgpack_unpacked_destroy(&u);
        return 0;
    }
    uint32_t keep = 0;
    for (uint32_t i = 0; i < o->via.map.size; i++)
        keep += !hidden(&o->via.map.ptr[i].key);
    msgpack_pack_map(pk, keep);
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object_kv *kv = &o->via.map.ptr[i];
        if (hidden(&kv->key))
            continue;
        msgpack_pack_object(pk, kv->key);
        msgpack_pack_object(pk, kv->val);
    }
    msgpack_unpacked_destroy(&u);
    return 0;
}
