/* io/methods.c — the method table built from OPFOR__METHODS, and the session methods.
 *
 * hello opens a session (and checks the token on connections that need one) and lists the
 * rulesets of the registry (rulesets/ruleset.c); ping answers at once. Game and calculator methods
 * live in their own files and only add a row to the list in methods_int.h. Handlers here answer
 * synchronously; see opfor_method_fn for deferred answers.
 */
#include "methods_int.h"
#include "web_int.h"

#include "game_ops.h"
#include "server_int.h"

#include <stdio.h>
#include <string.h>

#include "opfor/ruleset.h"

const opfor__method_t opfor__methods[OPFOR__METHOD_COUNT] = {
#define OPFOR__XX(id, name, fn, flags) [OPFOR__METHOD_##id] = {name, fn, flags},
    OPFOR__METHODS(OPFOR__XX)
#undef OPFOR__XX
};

static int name_is(const char *s, const char *name, size_t len) {
    return strlen(s) == len && memcmp(s, name, len) == 0;
}

/* The ruleset method a deprecated name stands for, or -1. */
static int alias_method(const opfor_method_alias_t *a) {
    for (int i = 0; i < OPFOR__METHOD_COUNT; i++)
        if ((opfor__methods[i].flags & OPFOR_METHOD_RULESET) &&
            strcmp(opfor__methods[i].name, a->verb) == 0)
            return i;
    return -1;
}

/* The k-th deprecated name of the registered rulesets' own methods (their method_aliases),
 * NULL past the last. */
static const opfor_method_alias_t *alias_at(size_t k) {
    size_t n = 0;
    const opfor_ruleset_entry_t *reg = opfor_ruleset_list(&n);
    for (size_t r = 0; r < n; r++)
        for (const opfor_method_alias_t *a = reg[r].rs->method_aliases; a && a->verb; a++)
            if (alias_method(a) >= 0 && k-- == 0)
                return a;
    return NULL;
}

/* Whether rs lists verb (len bytes) among its own methods. */
static int rs_has_verb(const opfor_ruleset_t *rs, const char *verb, size_t len) {
    for (const char *const *v = rs->methods; v && *v; v++)
        if (name_is(*v, verb, len))
            return 1;
    return 0;
}

int opfor__method_find(const char *name, size_t len, const opfor_ruleset_t **rs) {
    if (rs)
        *rs = NULL;
    for (int i = 0; i < OPFOR__METHOD_COUNT; i++)
        if (!(opfor__methods[i].flags & OPFOR_METHOD_RULESET) &&
            name_is(opfor__methods[i].name, name, len))
            return i;
    const opfor_method_alias_t *a;
    for (size_t k = 0; (a = alias_at(k)) != NULL; k++)
        if (name_is(a->old, name, len))
            return alias_method(a);
    const char *dot = memchr(name, '.', len);
    char prefix[64];
    if (!dot || dot == name || (size_t)(dot - name) >= sizeof prefix)
        return -1;
    memcpy(prefix, name, (size_t)(dot - name));
    prefix[dot - name] = '\0';
    const opfor_ruleset_t *r = opfor_ruleset_find(prefix);
    const char *verb = dot + 1;
    size_t vlen = len - (size_t)(verb - name);
    if (!r || !rs_has_verb(r, verb, vlen))
        return -1;
    for (int i = 0; i < OPFOR__METHOD_COUNT; i++)
        if ((opfor__methods[i].flags & OPFOR_METHOD_RULESET) &&
            name_is(opfor__methods[i].name, verb, vlen)) {
            if (rs)
                *rs = r;
            return i;
        }
    return -1;
}

/* hello's `deprecated`: each old name with the names to use now ("RULESET.VERB" for each
 * registered ruleset that lists a ruleset method's verb) and the api_level that drops it. */
static void pack_deprecated(msgpack_packer *pk, const opfor_ruleset_entry_t *reg, size_t nrs) {
    size_t naliases = 0;
    while (alias_at(naliases))
        naliases++;
    msgpack_pack_map(pk, naliases);
    for (size_t i = 0; i < naliases; i++) {
        const opfor_method_alias_t *a = alias_at(i);
        const opfor__method_t *m = &opfor__methods[alias_method(a)];
        opfor_rpc_pack_cstr(pk, a->old);
        msgpack_pack_map(pk, 2);
        opfor_rpc_pack_cstr(pk, "use"); /* an alias always stands for a ruleset method */
        size_t n = 0;
        for (size_t r = 0; r < nrs; r++)
            n += (size_t)rs_has_verb(reg[r].rs, m->name, strlen(m->name));
        msgpack_pack_array(pk, n);
        for (size_t r = 0; r < nrs; r++)
            if (rs_has_verb(reg[r].rs, m->name, strlen(m->name))) {
                char full[128];
                snprintf(full, sizeof full, "%s.%s", reg[r].rs->name, m->name);
                opfor_rpc_pack_cstr(pk, full);
            }
        opfor_rpc_pack_cstr(pk, "until");
        msgpack_pack_int(pk, a->until);
    }
}

/* The title of rs's built-in scenario `name`: its YAML's `name:` (the title `opfor scenario
 * list` prints) into buf, or the name itself when the text has none. Read from the compiled-in
 * text only (the top-level line), so hello loads no scenario. */
static void scenario_title(const opfor_ruleset_t *rs, const char *name, char *buf, size_t n) {
    snprintf(buf, n, "%s", name);
    size_t len = 0;
    const char *text = rs->builtin_text ? rs->builtin_text(name, &len) : NULL;
    for (const char *p = text; p && p < text + len; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, "name:", 5) != 0)
            continue;
        p += 5;
        while (*p == ' ' || *p == '\t')
            p++;
        size_t k = strcspn(p, "\r\n#");
        while (k > 0 && (p[k - 1] == ' ' || p[k - 1] == '\t'))
            k--;
        if (k >= 2 && (p[0] == '"' || p[0] == '\'') && p[k - 1] == p[0]) {
            p++;
            k -= 2;
        }
        if (k > 0)
            snprintf(buf, n, "%.*s", (int)k, p);
        return;
    }
}

/* hello's `scenarios` of one ruleset: [{name, title}] of its built-in scenarios. */
static void pack_scenarios(msgpack_packer *pk, const opfor_ruleset_t *rs) {
    size_t n = 0;
    while (rs->builtin_name && rs->builtin_name(n))
        n++;
    opfor_rpc_pack_cstr(pk, "scenarios");
    msgpack_pack_array(pk, n);
    for (size_t i = 0; i < n; i++) {
        char title[128];
        scenario_title(rs, rs->builtin_name(i), title, sizeof title);
        msgpack_pack_map(pk, 2);
        opfor_rpc_pack_cstr(pk, "name");
        opfor_rpc_pack_cstr(pk, rs->builtin_name(i));
        opfor_rpc_pack_cstr(pk, "title");
        opfor_rpc_pack_cstr(pk, title);
    }
}

/* One registered ruleset for hello's `ruleset_info`: what it is and which parts it has. */
static void pack_ruleset(msgpack_packer *pk, const opfor_ruleset_t *rs) {
    const char *parts[5];
    size_t n = 0;
    if (rs->ai)
        parts[n++] = "ai";
    if (rs->calc)
        parts[n++] = "calc";
    if (rs->session)
        parts[n++] = "session";
    if (rs->scene)
        parts[n++] = "scene";
    if (rs->view)
        parts[n++] = "view";
    msgpack_pack_map(pk, 8);
    opfor_rpc_pack_cstr(pk, "name");
    opfor_rpc_pack_cstr(pk, rs->name);
    opfor_rpc_pack_cstr(pk, "title");
    opfor_rpc_pack_cstr(pk, rs->title ? rs->title : rs->name);
    opfor_rpc_pack_cstr(pk, "players");
    msgpack_pack_int(pk, rs->max_players);
    opfor_rpc_pack_cstr(pk, "rules_version");
    opfor_rpc_pack_cstr(pk, rs->rules_version ? rs->rules_version : "");
    opfor_rpc_pack_cstr(pk, "parts");
    msgpack_pack_array(pk, n);
    for (size_t i = 0; i < n; i++)
        opfor_rpc_pack_cstr(pk, parts[i]);
    size_t nm = 0;
    for (const char *const *v = rs->methods; v && *v; v++)
        nm++;
    opfor_rpc_pack_cstr(pk, "methods");
    msgpack_pack_array(pk, nm);
    for (size_t i = 0; i < nm; i++) {
        char full[128];
        snprintf(full, sizeof full, "%s.%s", rs->name, rs->methods[i]);
        opfor_rpc_pack_cstr(pk, full);
    }
    pack_scenarios(pk, rs);
    size_t nmodes = 0;
    for (const char *const *v = rs->modes; v && *v; v++)
        nmodes++;
    opfor_rpc_pack_cstr(pk, "modes");
    msgpack_pack_array(pk, nmodes);
    for (size_t i = 0; i < nmodes; i++)
        opfor_rpc_pack_cstr(pk, rs->modes[i]);
}

int opfor__method_hello(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"token", "client", "api_level", NULL};
    char why[160];
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0) {
        opfor_call_error(call, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
        return 0;
    }
    char token[256] = "", client[64] = "";
    int64_t api = 0;
    int rc_tok = opfor_rpc_params_str(params, "token", token, sizeof token, why, sizeof why);
    if (rc_tok == OPFOR_EINVAL ||
        opfor_rpc_params_str(params, "client", client, sizeof client, why, sizeof why) ==
            OPFOR_EINVAL ||
        opfor_rpc_params_int(params, "api_level", 1, 1000000, &api, why, sizeof why) ==
            OPFOR_EINVAL) {
        opfor_call_error(call, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
        return 0;
    }
    opfor_peer_t *c = call->client;
    opfor_server_t *s = call->srv;
    /* A web session: the game master's or the players' token (docs/web.md); either may be
     * given on loopback too, where the players' one still opens only what it opens. */
    int role = c->is_web && rc_tok == 0 ? opfor__server_web_role(s, token) : 0;
    int tok_ok = c->is_web ? role != 0 : opfor__server_token_ok(s, token);
    if (c->token_required && (rc_tok != 0 || !tok_ok)) {
        opfor_server_log(s, OPFOR_LOG_WARN, "%s: hello with %s token", c->peer,
                         rc_tok ? "no" : "a wrong");
        opfor_rpc_hint_t h = {0};
        opfor_rpc_hint_set(&h, OPFOR_RPC_HINT_HELLO_TOKEN);
        opfor_rpc_hint_str(&h, "method", "hello");
        opfor_call_error_hint(call, OPFOR_RPC_E_UNAUTHORIZED, rc_tok ? &h : NULL, "%s",
                              rc_tok ? "this connection needs a token in hello" : "wrong token");
        opfor__peer_drain(c, "authentication failed");
        return 0;
    }
    if (role)
        c->players_link = role == OPFOR_WEB_PLAYER;
    opfor__peer_hello_ok(c, 1);
    opfor_server_log(s, OPFOR_LOG_INFO, "%s: hello from %s (api_level %lld)%s", c->peer,
                     client[0] ? client : "an unnamed client", (long long)api,
                     role == OPFOR_WEB_GM       ? ", game master's link"
                     : role == OPFOR_WEB_PLAYER ? ", players' link"
                                                : "");

    const opfor_config_t *cfg = opfor__server_cfg(s);
    msgpack_packer *pk = opfor_call_result_begin(call);
    size_t nrs = 0;
    const opfor_ruleset_entry_t *reg = opfor_ruleset_list(&nrs);
    msgpack_pack_map(pk, 9);
    opfor_rpc_pack_cstr(pk, "server");
    opfor_rpc_pack_cstr(pk, "opford");
    opfor_rpc_pack_cstr(pk, "version");
    opfor_rpc_pack_cstr(pk, opfor_server_version());
    opfor_rpc_pack_cstr(pk, "api_level");
    msgpack_pack_int(pk, OPFOR_API_LEVEL);
    opfor_rpc_pack_cstr(pk, "rulesets");
    msgpack_pack_array(pk, nrs);
    for (size_t i = 0; i < nrs; i++)
        opfor_rpc_pack_cstr(pk, reg[i].name);
    opfor_rpc_pack_cstr(pk, "ruleset_info");
    msgpack_pack_array(pk, nrs);
    for (size_t i = 0; i < nrs; i++)
        pack_ruleset(pk, reg[i].rs);
    opfor_rpc_pack_cstr(pk, "max_frame");
    msgpack_pack_uint32(pk, OPFOR_FRAME_MAX_SIZE_DEFAULT);
    opfor_rpc_pack_cstr(pk, "max_inflight");
    msgpack_pack_uint32(pk, cfg->max_inflight);
    opfor_rpc_pack_cstr(pk, "deprecated");
    pack_deprecated(pk, reg, nrs);
    /* which view this session has (docs/web.md): the page shows no new or close buttons to
       the players' link */
    opfor_rpc_pack_cstr(pk, "link");
    opfor_rpc_pack_cstr(pk, c->players_link ? "players" : "game_master");
    opfor_call_result_end(call);
    return 0;
}

int opfor__method_ping(opfor_call_t *call, const msgpack_object *params) {
    static const char *const allowed[] = {"data", NULL};
    char why[160];
    if (opfor_rpc_params_check(params, allowed, why, sizeof why) < 0) {
        opfor_call_error(call, OPFOR_RPC_E_INVALID_PARAMS, "%s", why);
        return 0;
    }
    const msgpack_object *data = opfor_rpc_params_get(params, "data");
    msgpack_packer *pk = opfor_call_result_begin(call);
    msgpack_pack_map(pk, data ? 2 : 1);
    opfor_rpc_pack_cstr(pk, "pong");
    msgpack_pack_true(pk);
    if (data) {
        opfor_rpc_pack_cstr(pk, "data");
        msgpack_pack_object(pk, *data);
    }
    opfor_call_result_end(call);
    return 0;
}
