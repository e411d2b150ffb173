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
