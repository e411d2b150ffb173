/* io/rpc_num.c — a MessagePack number of any packing as a double (opfor/rpc_num.h). */
#include "opfor/rpc_num.h"

int opfor_rpc_num(const msgpack_object *o, double *out) {
    if (!o)
        return -1;
    switch (o->type) {
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        *out = (double)o->via.u64;
        return 0;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        *out = (double)o->via.i64;
        return 0;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        *out = o->via.f64;
        return 0;
    default:
        return -1;
    }
}
