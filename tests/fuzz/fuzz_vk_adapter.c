/* tests/fuzz/fuzz_vk_adapter.c — libFuzzer target for the Viktoria! ruleset adapter.
 *
 * The input drives a game on a built-in scenario (its first byte picks competitive or
 * Patrol Mode, the next 8 the seed): each following 25-byte record is either "play legal
 * action k" or a raw generic action with arbitrary fields (NaN and huge coordinates
 * included), which the adapter must either apply or refuse with OPFOR_EILLEGAL, leaving
 * the state untouched when it refuses. After every step the state must still be a valid
 * game: a known player, a legal list in bounds, a serialization that round-trips. The raw
 * input is also offered to deserialize, which must refuse anything it did not write.
 *
 * The round trip (two FNV sums over a 7 KB state) is most of a step's cost, so a step whose
 * action was refused, leaving the state byte for byte as last checked, does not repeat it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ruleset.h"
#include "opfor/viktoria/adapter.h"

static void *ctx[2];
static int ready;
static opfor_vk_rs_state_t st, copy, back;
static unsigned char ser[sizeof(opfor_vk_rs_state_t) + 64];
static opfor_action_t acts[OPFOR_VK_RS_MAX_ACTIONS];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const opfor_ruleset_t *rs = &opfor_viktoria_ruleset;
    if (!ready) {
        opfor_diag_t d;
        if (rs->ctx_new("competitive_default", &ctx[0], &d) != 0 ||
            rs->ctx_new("patrol_default", &ctx[1], &d) != 0)
            abort();
        ready = 1;
    }
    if (rs->deserialize(ctx[0], &back, data, size) == 0)
        abort(); /* nothing but our own bytes (with their checksum) may load */
    if (size < 9)
        return 0;
    opfor_game_t g;
    if (opfor_game_init(&g, rs, ctx[data[0] & 1], 0) != 0)
        abort();
    uint64_t seed;
    memcpy(&seed, data + 1, sizeof seed);
    opfor_game_new_state(&g, &st, seed);
    int checked = 0; /* st's bytes are those the last round trip checked */
    for (size_t off = 9; off + 25 <= size; off += 25) {
        int p = opfor_game_current(&g, &st);
        if (p == OPFOR_PLAYER_TERMINAL)
            break;
        if (p != OPFOR_PLAYER_CHANCE && (p < 0 || p > 1))
            abort();
        int n = opfor_game_legal(&g, &st, acts, OPFOR_VK_RS_MAX_ACTIONS);
        if (n < 1 || n > OPFOR_VK_RS_MAX_ACTIONS)
            abort();
        const uint8_t *rec = data + off;
        if (rec[0] < 192) {
            if (opfor_game_apply(&g, &st, &acts[rec[1] % n]) != 0)
                abort(); /* a listed action always applies */
            checked = 0;
        } else {
            opfor_action_t a;
            memcpy(&a, rec + 1, sizeof a);
            memcpy(&copy, &st, sizeof st);
            int rc = opfor_game_apply(&g, &st, &a);
            if (rc != 0 && rc != OPFOR_EILLEGAL)
                abort();
            if (rc != 0 && memcmp(&copy, &st, sizeof st) != 0)
                abort(); /* refused: untouched */
            if (rc == 0)
                checked = 0;
        }
        if (checked)
            continue;
        size_t len = 0;
        if (opfor_game_serialize(&g, &st, ser, sizeof ser, &len) != 0 ||
            opfor_game_deserialize(&g, &back, ser, len) != 0 || memcmp(&back, &st, sizeof st) != 0)
            abort();
        checked = 1;
    }
    return 0;
}
