/* tests/fuzz/fuzz_ruleset.c — libFuzzer target for every registered ruleset, through the
 * interface alone.
 *
 * The first byte picks a ruleset of the registry (its default scenario), the next 8 the seed;
 * each following 3-byte record plays legal action k (or, at a chance node with explicit
 * outcomes, outcome k), checking after every step that the state is still a game: a known
 * player, a legal list in bounds, a serialization that round-trips, views that are states of
 * the same size. The raw input is offered to deserialize (which must refuse anything it did
 * not write, or give back a state that serializes again) and, as text, to every field of the
 * ruleset's calculator and session forms (which must parse it or refuse it with a message).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/form.h"
#include "opfor/ruleset.h"
#include "opfor/ruleset_calc.h"
#include "opfor/session.h"

#define MAX_RULESETS 16
#define MAX_STATE (1u << 20)
#define MAX_ACTS 4096

static void *ctx[MAX_RULESETS];
static size_t nrs;
static const opfor_ruleset_entry_t *list;
static unsigned char st[MAX_STATE], back[MAX_STATE], view[MAX_STATE], ser[MAX_STATE + 4096];
static opfor_action_t acts[MAX_ACTS];
static opfor_chance_outcome_t outs[MAX_ACTS];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_forms(const opfor_form_t *forms, int n, const uint8_t *data, size_t size) {
    char text[256], msg[256];
    size_t k = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, k);
    text[k] = '\0';
    for (int i = 0; i < n; i++)
        for (int j = 0; j < forms[i].nfields; j++) {
            opfor_value_t v;
            msg[0] = '\0';
            int rc = opfor_field_parse(&forms[i].fields[j], text, &v, msg, sizeof msg);
            if (rc != 0 && msg[0] == '\0')
                abort(); /* a refusal always says why */
        }
}

static void check_state(const opfor_game_t *g) {
    const opfor_ruleset_t *rs = g->rs;
    size_t len = 0;
    if (opfor_game_serialize(g, st, ser, sizeof ser, &len) == 0) {
        if (opfor_game_deserialize(g, back, ser, len) != 0)
            abort();
        if (opfor_game_hash(g, back) != opfor_game_hash(g, st))
            abort();
    }
    for (int v = OPFOR_VIEW_ALL; v < rs->max_players; v++)
        if (opfor_game_view(g, st, v, view) != 0)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!list) {
        list = opfor_ruleset_list(&nrs);
        if (nrs > MAX_RULESETS)
            nrs = MAX_RULESETS;
        for (size_t i = 0; i < nrs; i++) {
            opfor_diag_t d;
            if (list[i].rs->state_size > MAX_STATE)
                abort();
            /* a ruleset without a context (no ctx_new hook) plays with a NULL one */
            int rc = opfor_ruleset_ctx_new(list[i].rs, NULL, &ctx[i], &d);
            if (rc != 0 && !(rc == OPFOR_ENOTSUP && !list[i].rs->ctx_new))
                abort();
        }
    }
    if (size < 1 || nrs == 0)
        return 0;
    size_t r = data[0] % nrs;
    const opfor_ruleset_t *rs = list[r].rs;
    opfor_game_t g;
    if (opfor_game_init(&g, rs, ctx[r], 0) != 0)
        abort();
    if (rs->calc)
        fuzz_forms(rs->calc->actions, rs->calc->nactions, data + 1, size - 1);
    if (rs->session) {
        fuzz_forms(rs->session->reports, rs->session->nreports, data + 1, size - 1);
        fuzz_forms(rs->session->actions, rs->session->nactions, data + 1, size - 1);
    }
    if (opfor_game_deserialize(&g, back, data + 1, size - 1) == 0) {
        size_t len = 0;
        if (opfor_game_serialize(&g, back, ser, sizeof ser, &len) != 0)
            abort(); /* what loads must be a state that saves again */
    }
    if (size < 9)
        return 0;
    uint64_t seed;
    memcpy(&seed, data + 1, sizeof seed);
    if (opfor_game_new_state(&g, st, seed) != 0)
        abort();
    int max = rs->max_actions < MAX_ACTS ? rs->max_actions : MAX_ACTS;
    for (size_t off = 9; off + 3 <= size; off += 3) {
        int p = opfor_game_current(&g, st);
        if (p == OPFOR_PLAYER_TERMINAL)
            break;
        if (p != OPFOR_PLAYER_CHANCE && (p < 0 || p >= rs->max_players))
            abort();
        const uint8_t *rec = data + off;
        unsigned k = (unsigned)rec[1] | (unsigned)rec[2] << 8;
        int n = 0;
        if (p == OPFOR_PLAYER_CHANCE && (rec[0] & 1))
            n = opfor_game_chance_outcomes(&g, st, outs, max);
        if (n > 0) {
            if (opfor_game_apply(&g, st, &outs[k % (unsigned)n].action) != 0)
                abort();
        } else {
            n = opfor_game_legal(&g, st, acts, max);
            if (n < 1 || n > max)
                abort();
            if (opfor_game_apply(&g, st, &acts[k % (unsigned)n]) != 0)
                abort(); /* a listed action always applies */
        }
        check_state(&g);
    }
    return 0;
}
