/* tests/fuzz/fuzz_dispatch_game.c — libFuzzer target for the game methods' params: the
 * `report` params and the logged `order` and `press` payloads, applied to a game in progress.
 *
 * The first byte picks what the rest is (mod 3: report params, an order's log payload, a
 * press's log payload); the rest is one MessagePack object as opford would receive it after
 * the frame scanner. A refusal must carry an RPC error code and a message; an accepted
 * mutation must be deterministic (applied twice to copies of the same table, the bytes agree,
 * as replay needs) and its events must read back as maps. Anything else (a crash, a sanitizer
 * report) aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "../../rulesets/viktoria/daemon/vk_game_int.h"
#include "opfor/viktoria/adapter.h"
#include "opfor/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static opfor__vkg_t *game;         /* a patrol game a few presses in */
static opfor__vkg_table_t opening; /* its table */

static void setup(void) {
    static opfor_viktoria_model_t m;
    if (opfor_viktoria_model_default(&m, NULL) != 0)
        abort();
    opfor_store_game_t row;
    memset(&row, 0, sizeof row);
    snprintf(row.id, sizeof row.id, "fz");
    row.seed = 3;
    opfor__gerr_t err;
    if (opfor__vkg_open(&game, &row, NULL, 0, &m, &err) != 0)
        abort();
    opfor_vk_rs_ctx_free(game->rs); /* orders here need no search */
    game->rs = NULL;
    for (int i = 0; i < 6 && game->t.pending != OPFOR__PEND_ENEMY; i++) {
        opfor__evlist_t ev;
        opfor__evlist_init(&ev);
        if (game->t.pending == OPFOR__PEND_PLAYER) { /* let the first ready unit act */
            msgpack_sbuffer sb;
            msgpack_sbuffer_init(&sb);
            msgpack_packer pk;
            msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
            msgpack_pack_map(&pk, 1);
            msgpack_pack_str_with_body(&pk, "acted", 5);
            for (int u = 0; u < game->t.nunits; u++)
                if (game->t.units[u].side == game->player &&
                    !(game->t.units[u].flags & OPFOR_UNIT_ACTED)) {
                    msgpack_pack_int(&pk, u);
                    break;
                }
            opfor__vkg_apply_entry(game, &game->t, game->t.log_seq + 1, "report", sb.data, sb.size,
                                   &ev, &err);
            msgpack_sbuffer_destroy(&sb);
        } else {
            opfor__vkg_press(game, &game->t, game->t.log_seq + 1, NULL, &ev, &err);
        }
        opfor__evlist_free(&ev);
    }
    memcpy(&opening, &game->t, sizeof opening);
}

/* mode 0: report params, 1: an order's payload, 2: a press's payload (the director's
 * choice of a spotting, raw bytes raw/len as the log holds them). */
static int apply(const msgpack_object *o, const uint8_t *raw, size_t len, int mode,
                 opfor__vkg_table_t *t, opfor__evlist_t *ev, opfor__gerr_t *err) {
    memcpy(t, &opening, sizeof *t);
    if (mode == 2)
        return opfor__vkg_apply_entry(game, t, t->log_seq + 1, "press", raw, len, ev, err);
    return mode ? opfor__vkg_order(game, t, t->log_seq + 1, o, ev, err)
                : opfor__vkg_report(game, t, t->log_seq + 1, o, ev, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!game)
        setup();
    if (size < 2)
        return 0;
    int mode = data[0] % 3;
    data++;
    size--;
    opfor_frame_result_t fr;
    if (opfor_frame_scan(data, size, NULL, &fr) != OPFOR_FRAME_COMPLETE)
        return 0;
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    if (msgpack_unpack_next(&u, (const char *)data, fr.len, &off) != MSGPACK_UNPACK_SUCCESS ||
        u.data.type != MSGPACK_OBJECT_MAP) {
        msgpack_unpacked_destroy(&u);
        return 0;
    }
    static opfor__vkg_table_t a, b;
    opfor__evlist_t ev, ev2;
    opfor__evlist_init(&ev);
    opfor__evlist_init(&ev2);
    opfor__gerr_t e1 = {0}, e2 = {0};
    int r1 = apply(&u.data, data, fr.len, mode, &a, &ev, &e1);
    int r2 = apply(&u.data, data, fr.len, mode, &b, &ev2, &e2);
    if (r1 != r2)
        abort();
    if (r1 < 0) {
        if (!e1.msg[0] || !e1.code || strcmp(e1.msg, e2.msg) != 0)
            abort();
    } else {
        if (memcmp(&a, &b, sizeof a) != 0 || ev.n != ev2.n || a.log_seq != opening.log_seq + 1)
            abort();
        for (int i = 0; i < ev.n; i++) {
            msgpack_unpacked back;
            msgpack_unpacked_init(&back);
            size_t used = 0;
            if (msgpack_unpack_next(&back, ev.buf[i].data, ev.buf[i].size, &used) !=
                    MSGPACK_UNPACK_SUCCESS ||
                used != ev.buf[i].size || back.data.type != MSGPACK_OBJECT_MAP)
                abort();
            msgpack_unpacked_destroy(&back);
        }
    }
    opfor__evlist_free(&ev);
    opfor__evlist_free(&ev2);
    msgpack_unpacked_destroy(&u);
    return 0;
}
