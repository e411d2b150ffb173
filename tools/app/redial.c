/* tools/app/redial.c — the bounded backoff and one reconnect attempt (see redial.h). */
#include "redial.h"

#include <stdio.h>

#include "opfor/rpc.h"

void opfor_redial_init(opfor_redial_t *b, long min_ms, long max_ms) {
    b->min_ms = min_ms > 0 ? min_ms : 1;
    b->max_ms = max_ms > b->min_ms ? max_ms : b->min_ms;
    opfor_redial_reset(b);
}

long opfor_redial_next(opfor_redial_t *b) {
    long wait = b->next_ms;
    b->next_ms = wait > b->max_ms / 2 ? b->max_ms : wait * 2;
    b->tries++;
    return wait;
}

void opfor_redial_reset(opfor_redial_t *b) {
    b->next_ms = b->min_ms;
    b->tries = 0;
}

int opfor_redial_connect(opfor_client_t **out, const char *addr, int connect_ms,
                         const char *client_name, const char *token, char *why, size_t n) {
    opfor_diag_t d;
    opfor_diag_clear(&d);
    *out = NULL;
    opfor_client_t *c = NULL;
    int rc = opfor_client_connect(&c, addr, connect_ms, &d);
    if (rc < 0) {
        snprintf(why, n, "%s", d.msg); /* names the address */
        return rc;
    }
    rc = opfor_client_hello(c, client_name, token && token[0] ? token : NULL);
    if (rc != 0) {
        int auth =
            rc == OPFOR_CLIENT_REMOTE && opfor_client_error_code(c) == OPFOR_RPC_E_UNAUTHORIZED;
        snprintf(why, n, "hello: %s", opfor_client_error_message(c));
        opfor_client_close(c);
        return auth ? OPFOR_EAUTH : (rc < 0 ? rc : OPFOR_EPROTO);
    }
    *out = c;
    return 0;
}
