/* tests/fuzz/fuzz_frame.c — libFuzzer target for the frame scanner and the RPC decoder.
 *
 * Walks the input frame by frame as opford does. Every frame the scanner calls complete must be
 * exactly one object to msgpack-c (same length, success), and is then decoded as an RPC message
 * and probed with the params helpers; a NEED_MORE verdict must leave the buffer under the size
 * limit. Any disagreement aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdlib.h>

#include <msgpack.h>

#include "opfor/frame.h"
#include "opfor/rpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* Small limits as well as the defaults, so the size checks are reachable in short inputs. */
    const opfor_frame_limits_t lims[2] = {opfor_frame_limits_default(), {256, 4}};
    for (int l = 0; l < 2; l++) {
        size_t off = 0;
        while (off < size) {
            opfor_frame_result_t r;
            opfor_frame_status_t st = opfor_frame_scan(data + off, size - off, &lims[l], &r);
            if (st == OPFOR_FRAME_NEED_MORE) {
                if (size - off >= lims[l].max_size)
                    abort();
                break;
            }
            if (st == OPFOR_FRAME_INVALID) {
                if (!r.reason || !r.reason[0] || r.offset >= size - off)
                    abort();
                break;
            }
            if (r.len == 0 || r.len > size - off || r.len > lims[l].max_size)
                abort();
            msgpack_unpacked u;
            msgpack_unpacked_init(&u);
            size_t used = 0;
            if (msgpack_unpack_next(&u, (const char *)data + off, r.len, &used) !=
                    MSGPACK_UNPACK_SUCCESS ||
                used != r.len)
                abort();
            msgpack_unpacked_destroy(&u);

            opfor_rpc_msg_t m;
            opfor_rpc_fault_t f;
            if (opfor_rpc_decode(&m, data + off, r.len, &f) == 0 && m.kind != OPFOR_RPC_RESPONSE) {
                static const char *const allowed[] = {"token", "client", "data", NULL};
                char why[160], buf[64];
                int64_t v;
                int b;
                opfor_rpc_params_check(m.params, allowed, why, sizeof why);
                opfor_rpc_params_str(m.params, "token", buf, sizeof buf, why, sizeof why);
                opfor_rpc_params_int(m.params, "data", -5, 5, &v, why, sizeof why);
                opfor_rpc_params_bool(m.params, "client", &b, why, sizeof why);
            }
            opfor_rpc_msg_free(&m);
            off += r.len;
        }
    }
    return 0;
}
