/* io/include/opfor/rpc_num.h — reading a MessagePack number, whichever way it was packed.
 *
 * A client may send 3, -2 or 2.5 for the same kind of field; the daemon's methods
 * (a ruleset's daemon plug-in) and the display's card builder (tools/app/card_build.c) both read
 * such fields through this one function.
 */
#ifndef OPFOR_RPC_NUM_H
#define OPFOR_RPC_NUM_H

#include <msgpack.h>

/* A positive or negative integer, or a float, as a double in *out. Returns 0, or -1 (*out
 * untouched) when o is NULL or not a number. A float NaN is returned as it is. */
int opfor_rpc_num(const msgpack_object *o, double *out);

#endif
