/* io/game_shell.c — the generic shell of a daemon game (io/game_ops.h): opening and freeing
 * one around its table game, the error setter, the event lists and the names of the counters'
 * values, shared by io/methods_game.c, the built-in table game (io/game_gen.c) and the
 * rulesets' daemon plug-ins.
 */
#include "game_ops.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/ruleset.h"
#include "pack_int.h"

int opfor__gerr_set(opfor__gerr_t *e, int code, int rc, const char *fmt, ...) {
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        e->code = code;
    }
    return rc;
}

const char *opfor__game_result_name(int result) {
    static const char *const n[] = {"", "won", "lost", "ended"};
    return result >= 0 && result < 4 ? n[result] : "";
}

const char *opfor__game_status_name(int status) {
    static const char *const n[] = {"active", "finished", "closed"};
    return status >= 0 && status < 3 ? n[status] : "active";
}

void opfor__evlist_init(opfor__evlist_t *e) {
    e->n = 0;
    for (int i = 0; i < OPFOR__GAME_EV_MAX; i++)
        msgpack_sbuffer_init(&e->buf[i]);
    msgpack_sbuffer_init(&e->scratch);
}

void opfor__evlist_free(opfor__evlist_t *e) {
    for (int i = 0; i < OPFOR__GAME_EV_MAX; i++)
        msgpack_sbuffer_destroy(&e->buf[i]);
    msgpack_sbuffer_destroy(&e->scratch);
    e->n = 0;
}

msgpack_packer *opfor__ev_begin(opfor__evlist_t *ev, msgpack_packer *pk, const char *game,
                                uint64_t *ev_seq, int turn, uint64_t log_seq, const char *kind) {
    ++*ev_seq;
    msgpack_sbuffer *sb = &ev->scratch;
    if (ev->n < OPFOR__GAME_EV_MAX)
        sb = &ev->buf[ev->n++];
    msgpack_sbuffer_clear(sb);
    msgpack_packer_init(pk, sb, msgpack_sbuffer_write);
    msgpack_pack_map(pk, 6);
    opfor__kv_str(pk, "game", game);
    opfor__kv_u64(pk, "seq", *ev_seq);
    opfor__kv_str(pk, "kind", kind);
    opfor__kv_int(pk, "turn", turn);
    opfor__kv_u64(pk, "log_seq", log_seq);
    opfor_rpc_pack_cstr(pk, "data");
    return pk;
}

int opfor__game_open(opfor__game_t **out, const opfor_store_game_t *row,
                     const struct opfor_ruleset *rs, const opfor__table_game_ops_t *ops,
                     const opfor__game_src_t *src, opfor__gerr_t *err) {
    *out = NULL;
    opfor__game_t *g = calloc(1, sizeof *g);
    if (!g)
        return opfor__gerr_set(err, OPFOR_RPC_E_INTERNAL, OPFOR_ENOMEM, "out of memory");
    g->row = *row;
    snprintf(g->row.ruleset, sizeof g->row.ruleset, "%s", rs->name);
    g->refs = 1;
    g->ops = ops ? ops : opfor__table_game_for(rs);
    for (int i = 0; i < OPFOR__GAME_EVENTS_KEEP; i++)
        msgpack_sbuffer_init(&g->ev[i]);
    opfor__game_src_t none = {NULL, 0, NULL};
    int rc = g->ops->open(g, rs, src ? src : &none, err);
    if (rc < 0) {
        g->tg = NULL;
        opfor__game_free(g);
        return rc;
    }
    *out = g;
    return 0;
}

void opfor__game_free(opfor__game_t *g) {
    if (!g)
        return;
    if (g->ops && g->tg)
        g->ops->free(g->tg);
    for (int i = 0; i < OPFOR__GAME_EVENTS_KEEP; i++)
        msgpack_sbuffer_destroy(&g->ev[i]);
    free(g->subs);
    free(g);
}

int opfor__game_not_here(const opfor__game_t *g, const char *method, opfor__gerr_t *err) {
    opfor_rpc_hint_t *h = opfor__gerr_hint(err);
    opfor_rpc_hint_set(h, OPFOR_RPC_HINT_USE_GAME_METHODS);
    opfor_rpc_hint_str(h, "method", method);
    opfor_rpc_hint_str(h, "ruleset", g->row.ruleset);
    return opfor__gerr_set(err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOTSUP,
                           "%s: not for %s games: use game.act, game.roll, game.report and "
                           "game.action",
                           method, g->row.ruleset);
}

/* ------------------------------------------------------------------ the rules a log was written
 * under */

/* The string under key in the map m, into buf ("" when absent, not a string or too long). */
static void map_str(const msgpack_object *m, const char *key, char *buf, size_t n) {
    const msgpack_object *v = opfor_rpc_params_get(m, key);
    buf[0] = '\0';
    if (v && v->type == MSGPACK_OBJECT_STR && v->via.str.size < n &&
        !memchr(v->via.str.ptr, '\0', v->via.str.size)) {
        memcpy(buf, v->via.str.ptr, v->via.str.size);
        buf[v->via.str.size] = '\0';
    }
}

void opfor__game_begin_payload(const opfor__game_t *g, const opfor_ruleset_t *rs,
                               msgpack_packer *pk) {
    const int player = g && g->player[0], cheat = g && g->cheat;
    msgpack_pack_map(pk, (size_t)(2 + player + cheat));
    opfor__kv_str(pk, "ruleset", rs->name);
    opfor__kv_str(pk, "rules_version", rs->rules_version ? rs->rules_version : "");
    if (player)
        opfor__kv_str(pk, "player", g->player);
    if (cheat) {
        opfor_rpc_pack_cstr(pk, "cheat");
        msgpack_pack_true(pk);
    }
}

void opfor__game_options_read(opfor__game_t *g, const void *payload, size_t len) {
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    if (len && msgpack_unpack_next(&u, payload, len, &off) == MSGPACK_UNPACK_SUCCESS &&
        u.data.type == MSGPACK_OBJECT_MAP) {
        map_str(&u.data, "player", g->player, sizeof g->player);
        const msgpack_object *c = opfor_rpc_params_get(&u.data, "cheat");
        g->cheat = c && c->type == MSGPACK_OBJECT_BOOLEAN && c->via.boolean;
    }
    msgpack_unpacked_destroy(&u);
}

int opfor__game_options_cheat(const void *payload, size_t len) {
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    int cheat = 0;
    if (len && msgpack_unpack_next(&u, payload, len, &off) == MSGPACK_UNPACK_SUCCESS &&
        u.data.type == MSGPACK_OBJECT_MAP) {
        const msgpack_object *c = opfor_rpc_params_get(&u.data, "cheat");
        cheat = c && c->type == MSGPACK_OBJECT_BOOLEAN && c->via.boolean;
    }
    msgpack_unpacked_destroy(&u);
    return cheat;
}

int opfor__game_rules_read(const opfor_store_game_t *row, const opfor_ruleset_t *rs,
                           const char *kind, const void *payload, size_t len, char *version,
                           size_t n, opfor__gerr_t *err) {
    char name[64] = "";
    version[0] = '\0';
    int ok = kind && strcmp(kind, "begin") == 0;
    if (ok) {
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        ok = msgpack_unpack_next(&u, payload, len, &off) == MSGPACK_UNPACK_SUCCESS &&
             u.data.type == MSGPACK_OBJECT_MAP;
        if (ok) {
            map_str(&u.data, "ruleset", name, sizeof name);
            map_str(&u.data, "rules_version", version, n);
        }
        msgpack_unpacked_destroy(&u);
    }
    if (!ok)
        return opfor__gerr_set(
            err, OPFOR_RPC_E_INTERNAL, OPFOR_EPROTO,
            "game %s: its log does not begin with the ruleset and rules version it was "
            "played under",
            row->id);
    if (strcmp(name, rs->name) != 0)
        return opfor__gerr_set(err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOTSUP,
                               "game %s was saved as a game of %s, not of %s", row->id,
                               name[0] ? name : "another ruleset", rs->name);
    return 0;
}

int opfor__game_rules_check(const opfor_store_game_t *row, const opfor_ruleset_t *rs,
                            const char *kind, const void *payload, size_t len, opfor__gerr_t *err) {
    char version[64];
    int rc = opfor__game_rules_read(row, rs, kind, payload, len, version, sizeof version, err);
    if (rc < 0)
        return rc;
    const char *mine = rs->rules_version ? rs->rules_version : "";
    if (strcmp(version, mine) != 0)
        return opfor__gerr_set(
            err, OPFOR_RPC_E_UNSUPPORTED, OPFOR_ENOTSUP,
            "game %s was saved under %s rules version '%s', and this build reads %s "
            "rules version '%s': it is not replayed under other rules (open it with a "
            "build of that version)",
            row->id, rs->name, version, rs->name, mine);
    return 0;
}
