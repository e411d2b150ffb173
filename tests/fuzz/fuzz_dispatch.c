/* tests/fuzz/fuzz_dispatch.c — libFuzzer target for the calc method's params handling.
 *
 * The input is one MessagePack object, used as the params map of a `calc` request exactly as
 * opford would receive it (after the frame scanner). opfor__calc_eval() must either refuse it
 * with an RPC error code and a non-empty message, or produce a result that packs into a single
 * valid MessagePack object; anything else (a crash, a sanitizer report, an empty message, bytes
 * msgpack-c cannot read back) aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "../../io/methods_calc_int.h"
#include "opfor/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static opfor__calc_q_t q; /* large: kept out of the stack */
    static void *model;       /* the default calculator's built-in model, loaded once */
    static int loaded;
    if (!loaded) {
        const opfor_ruleset_t *rs = opfor__calc_default();
        opfor_diag_t d;
        if (!rs || (rs->calc->model_load && rs->calc->model_load(NULL, &model, &d) != 0))
            abort();
        loaded = 1;
    }
    opfor_frame_result_t fr;
    if (opfor_frame_scan(data, size, NULL, &fr) != OPFOR_FRAME_COMPLETE)
        return 0;
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    if (msgpack_unpack_next(&u, (const char *)data, fr.len, &off) != MSGPACK_UNPACK_SUCCESS) {
        msgpack_unpacked_destroy(&u);
        return 0;
    }
    const msgpack_object *params = u.data.type == MSGPACK_OBJECT_MAP ? &u.data : NULL;
    char msg[768];
    msg[0] = '\0';
    int code = opfor__calc_eval(model, params, &q, msg, sizeof msg);
    if (code) {
        if (!msg[0])
            abort();
    } else {
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        opfor__calc_pack(&pk, &q);
        msgpack_unpacked back;
        msgpack_unpacked_init(&back);
        size_t used = 0;
        if (msgpack_unpack_next(&back, sb.data, sb.size, &used) != MSGPACK_UNPACK_SUCCESS ||
            used != sb.size || back.data.type != MSGPACK_OBJECT_MAP)
            abort();
        msgpack_unpacked_destroy(&back);
        msgpack_sbuffer_destroy(&sb);
    }
    msgpack_unpacked_destroy(&u);
    return 0;
}
