/* tools/opfor/game_rpc.c — the daemon-side helpers of the `opfor` game commands
 * (see game_rpc.h): connection, calls, result readers, JSON and text printing.
 *
 * The daemon's answers are MessagePack maps whose shapes docs/protocol.md documents; the
 * printers read them by key and skip what is absent, so a newer daemon that adds keys prints
 * the same way.
 */
#define _POSIX_C_SOURCE 200809L
#include "game_rpc.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "opfor/config.h"
#include "opfor/rpc.h"
#include "opfor/ruleset.h"
#include "redial.h"

opfor_client_t *opfor__rpc_open(const char *addr) {
    return opfor__rpc_open_token(addr, NULL);
}

opfor_client_t *opfor__rpc_open_token(const char *addr, const char *token_file) {
    opfor__rpc_dest_t dest;
    return opfor__rpc_open_dest(addr, token_file, &dest);
}

opfor_client_t *opfor__rpc_open_dest(const char *addr, const char *token_file,
                                     opfor__rpc_dest_t *dest) {
    char *token = dest->token;
    const size_t token_size = sizeof dest->token;
    token[0] = '\0';
    dest->addr[0] = '\0';
    if (token_file) {
        opfor_diag_t td;
        char where[1024];
        if (opfor_config_read_token(token_file, token, token_size, &td) < 0) {
            opfor_cli_fail("--token-file: %s", opfor_diag_format(&td, where, sizeof where));
            return NULL;
        }
    } else if (getenv("OPFOR_TOKEN")) {
        snprintf(token, token_size, "%s", getenv("OPFOR_TOKEN"));
    }
    char resolved[256];
    if (opfor_client_default_addr(addr, resolved, sizeof resolved) < 0) {
        opfor_cli_fail("--connect: address too long");
        return NULL;
    }
    opfor_client_t *c = NULL;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = opfor_client_connect(&c, resolved, 3000, &d);
    if (rc != 0) {
        const char *shown = strncmp(resolved, "unix:", 5) == 0 ? resolved + 5 : resolved;
        if (rc == OPFOR_ENOENT || rc == OPFOR_EIO)
            opfor_cli_fail("no daemon at %s: start it with `opford`, or play without one "
                           "(`opfor play RULESET`, or a ruleset's own game in `opfor --help`)",
                           shown);
        else
            opfor_cli_fail("%s", d.msg);
        return NULL;
    }
    rc = opfor_client_hello(c, "opfor", token[0] ? token : NULL);
    if (rc != 0) {
        int auth =
            rc == OPFOR_CLIENT_REMOTE && opfor_client_error_code(c) == OPFOR_RPC_E_UNAUTHORIZED;
        opfor_cli_fail("the daemon at %s refused us: %s%s", resolved, opfor_client_error_message(c),
                       auth ? " (give the daemon's token with --token-file FILE or $OPFOR_TOKEN)"
                            : "");
        opfor_client_close(c);
        return NULL;
    }
    snprintf(dest->addr, sizeof dest->addr, "%s", resolved);
    return c;
}

/* How an address reads for people: a Unix socket as its path. */
static const char *shown_addr(const char *a) {
    return strncmp(a, "unix:", 5) == 0 ? a + 5 : a;
}

static long long mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

opfor_client_t *opfor__rpc_redial(const opfor__rpc_dest_t *dest, const char *what,
                                  const char *why_lost, int max_tries, long max_ms) {
    opfor_redial_t b;
    opfor_redial_init(&b, OPFOR_REDIAL_MIN_MS, OPFOR_REDIAL_MAX_MS);
    char why[600];
    snprintf(why, sizeof why, "%s", why_lost);
    const long long end = max_ms > 0 ? mono_ms() + max_ms : 0;
    for (;;) {
        long wait = b.next_ms;
        if (end && mono_ms() + wait > end)
            wait = (long)(end - mono_ms());
        if ((max_tries > 0 && b.tries >= max_tries) || (end && wait <= 0)) {
            fprintf(stderr, "opfor: %s: the daemon at %s does not answer (%s)\n", what,
                    shown_addr(dest->addr), why);
            return NULL;
        }
        opfor_redial_next(&b);
        if (b.tries == 1)
            fprintf(stderr, "opfor: %s: connection to %s lost (%s); trying again in %ld s\n", what,
                    shown_addr(dest->addr), why, wait / 1000);
        else
            fprintf(stderr, "opfor: %s: no daemon yet (%s); trying again in %ld s\n", what, why,
                    wait / 1000);
        fflush(stdout);
        struct timespec ts = {wait / 1000, (wait % 1000) * 1000000L};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
        opfor_client_t *c;
        int rc = opfor_redial_connect(&c, dest->addr, 3000, "opfor", dest->token, why, sizeof why);
        if (rc == 0) {
            fprintf(stderr, "opfor: %s: reconnected to %s\n", what, shown_addr(dest->addr));
            return c;
        }
        if (rc == OPFOR_EAUTH) {
            fprintf(stderr, "opfor: %s: the daemon at %s refused us: %s\n", what,
                    shown_addr(dest->addr), why);
            return NULL;
        }
    }
}

static void pack_prebuilt(msgpack_packer *pk, void *ud) {
    const msgpack_sbuffer *sb = ud;
    if (sb && sb->size)
        pk->callback(pk->data, sb->data, sb->size);
    else
        msgpack_pack_map(pk, 0);
}

/* The daemon's errors carry a hint (docs/protocol.md, Errors): a stable code and its args.
 * People at the game commands type commands, so those hints are worded here with the command to
 * type. A hint not listed here, or one whose args are missing, prints the daemon's own message. */
static const opfor__rpc_wording_t CMD_HINTS[] = {
    {"no_game", NULL, "game: no game '{game}' (`opfor games` lists them)"},
    {"report_acted", NULL,
     "a unit of the {side} holds the initiative: report which one acted first "
     "(`opfor report --acted UNIT`)"},
    {"ask_orders", NULL,
     "the {side} hold the initiative: ask for its orders first (`opfor orders`)"},
    {"resolve_needs_order", NULL,
     "resolve: there is no open order to resolve (ask `opfor orders` when the {side} hold the "
     "initiative)"},
    {"at_needs_acted", NULL, "--at goes with --acted (use --move UNIT=X,Y for other units)"},
    {"nothing_to_undo", "why=no_report", "nothing to undo: no report was made yet"},
    {"nothing_to_undo", "why=undone",
     "nothing to undo: the last report was undone already (`opfor state` shows the game)"},
    {"nothing_to_undo", "why=press",
     "nothing to undo: the initiative button was pressed after the last report (a report can be "
     "undone only until the next press or order)"},
    {"nothing_to_undo", "why=order",
     "nothing to undo: an order came after the last report (a report can be undone only until "
     "the next press or order)"},
    {NULL, NULL, NULL},
};

/* Whether the args of c's last error hold "KEY=VALUE" (when NULL: yes). */
static int when_holds(const opfor_client_t *c, const char *when) {
    if (!when)
        return 1;
    const char *eq = strchr(when, '=');
    char key[32], val[160];
    if (!eq || (size_t)(eq - when) >= sizeof key)
        return 0;
    snprintf(key, sizeof key, "%.*s", (int)(eq - when), when);
    return opfor_client_error_arg(c, key, val, sizeof val) && strcmp(val, eq + 1) == 0;
}

const char *opfor__rpc_words(const opfor_client_t *c, const opfor__rpc_wording_t *table, char *buf,
                             size_t n) {
    const char *hint = opfor_client_error_hint(c);
    for (size_t i = 0; hint[0] && n && table[i].hint; i++) {
        if (strcmp(hint, table[i].hint) != 0 || !when_holds(c, table[i].when))
            continue;
        size_t at = 0;
        for (const char *w = table[i].words; *w && at + 1 < n;) {
            const char *end = *w == '{' ? strchr(w, '}') : NULL;
            if (!end) {
                buf[at++] = *w++;
                continue;
            }
            char key[32], val[160];
            snprintf(key, sizeof key, "%.*s", (int)(end - w - 1), w + 1);
            if (!opfor_client_error_arg(c, key, val, sizeof val))
                return NULL;
            at += (size_t)snprintf(buf + at, n - at, "%s", val);
            if (at >= n)
                at = n - 1;
            w = end + 1;
        }
        buf[at] = '\0';
        return buf;
    }
    return NULL;
}

/* Prints the failure rc of the last call as "opfor: WHAT: ..." and returns the exit code. */
static int call_failed(opfor_client_t *c, const char *what, int rc, int cmd) {
    char buf[1024];
    const char *words =
        rc == OPFOR_CLIENT_REMOTE && cmd ? opfor__rpc_words(c, CMD_HINTS, buf, sizeof buf) : NULL;
    fprintf(stderr, "opfor: %s: %s\n", what, words ? words : opfor_client_error_message(c));
    if (rc == OPFOR_CLIENT_REMOTE && opfor_client_error_code(c) == OPFOR_RPC_E_INVALID_PARAMS)
        return OPFOR_EXIT_USAGE;
    return OPFOR_EXIT_FAIL;
}

static int call_as(opfor_client_t *c, const char *what, const char *method,
                   const msgpack_sbuffer *params, const msgpack_object **res, int cmd) {
    int rc = opfor_client_call(c, method, pack_prebuilt, (void *)params, res);
    return rc == 0 ? 0 : call_failed(c, what, rc, cmd);
}

/* The name verb had before api_level 5 in the registered rulesets (opfor_ruleset_t
 * method_aliases; the daemons of that time played one ruleset), or NULL. */
static const char *old_method(const char *verb) {
    size_t n = 0;
    const opfor_ruleset_entry_t *reg = opfor_ruleset_list(&n);
    for (size_t i = 0; i < n; i++)
        for (const opfor_method_alias_t *a = reg[i].rs->method_aliases; a && a->verb; a++)
            if (strcmp(a->verb, verb) == 0)
                return a->old;
    return NULL;
}

int opfor__rpc_call_ruleset(opfor_client_t *c, const char *what, const char *game, const char *verb,
                            const msgpack_sbuffer *params, const msgpack_object **res) {
    const char *old = old_method(verb);
    if (opfor_client_api_level(c) < 5) {
        if (old)
            return call_as(c, what, old, params, res, 1);
        fprintf(stderr, "opfor: %s: this daemon is too old (api_level %d) for ruleset methods\n",
                what, opfor_client_api_level(c));
        return OPFOR_EXIT_FAIL;
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 1);
    opfor_rpc_pack_cstr(&pk, "game");
    opfor_rpc_pack_cstr(&pk, game);
    const msgpack_object *st;
    int rc = call_as(c, what, "game.state", &sb, &st, 1);
    msgpack_sbuffer_destroy(&sb);
    if (rc)
        return rc;
    char rs[64], method[128];
    snprintf(method, sizeof method, "%s.%s", opfor__rpc_str(st, "ruleset", rs, sizeof rs), verb);
    rc = opfor_client_call(c, method, pack_prebuilt, (void *)params, res);
    if (rc == OPFOR_CLIENT_REMOTE && opfor_client_error_code(c) == OPFOR_RPC_E_METHOD_NOT_FOUND) {
        fprintf(stderr,
                "opfor: %s: %s games have no %s method: their table plays with `opfor act`, "
                "`opfor roll` and `opfor report --form` (game.act, game.roll, game.report; "
                "`opfor state` lists what waits)\n",
                what, rs, verb);
        return OPFOR_EXIT_FAIL;
    }
    return rc == 0 ? 0 : call_failed(c, what, rc, 1);
}

int opfor__rpc_call(opfor_client_t *c, const char *what, const char *method,
                    const msgpack_sbuffer *params, const msgpack_object **res) {
    return call_as(c, what, method, params, res, 0);
}

int opfor__rpc_call_cmd(opfor_client_t *c, const char *what, const char *method,
                        const msgpack_sbuffer *params, const msgpack_object **res) {
    return call_as(c, what, method, params, res, 1);
}

const msgpack_object *opfor__rpc_get(const msgpack_object *m, const char *key) {
    if (!m || m->type != MSGPACK_OBJECT_MAP)
        return NULL;
    size_t n = strlen(key);
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        const msgpack_object *k = &m->via.map.ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
            memcmp(k->via.str.ptr, key, n) == 0)
            return &m->via.map.ptr[i].val;
    }
    return NULL;
}

const char *opfor__rpc_str(const msgpack_object *m, const char *key, char *buf, size_t n) {
    const msgpack_object *v = opfor__rpc_get(m, key);
    buf[0] = '\0';
    if (v && v->type == MSGPACK_OBJECT_STR)
        snprintf(buf, n, "%.*s", (int)v->via.str.size, v->via.str.ptr);
    return buf;
}

int64_t opfor__rpc_int(const msgpack_object *m, const char *key, int64_t def) {
    const msgpack_object *v = opfor__rpc_get(m, key);
    if (!v)
        return def;
    if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        return (int64_t)v->via.u64;
    if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return v->via.i64;
    if (v->type == MSGPACK_OBJECT_BOOLEAN)
        return v->via.boolean;
    return def;
}

double opfor__rpc_num(const msgpack_object *m, const char *key, double def) {
    return opfor_rpc_params_num_or(m, key, def);
}

void opfor__rpc_json(opfor_json_t *j, const msgpack_object *o) {
    char buf[1024];
    switch (o->type) {
    case MSGPACK_OBJECT_NIL:
        opfor_json_null(j);
        break;
    case MSGPACK_OBJECT_BOOLEAN:
        opfor_json_bool(j, o->via.boolean);
        break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        if (o->via.u64 > (uint64_t)INT64_MAX)
            opfor_json_num(j, (double)o->via.u64);
        else
            opfor_json_int(j, (int64_t)o->via.u64);
        break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        opfor_json_int(j, o->via.i64);
        break;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        opfor_json_num(j, o->via.f64);
        break;
    case MSGPACK_OBJECT_STR:
        snprintf(buf, sizeof buf, "%.*s", (int)o->via.str.size, o->via.str.ptr);
        opfor_json_str(j, buf);
        break;
    case MSGPACK_OBJECT_ARRAY:
        opfor_json_arr_begin(j);
        for (uint32_t i = 0; i < o->via.array.size; i++)
            opfor__rpc_json(j, &o->via.array.ptr[i]);
        opfor_json_arr_end(j);
        break;
    case MSGPACK_OBJECT_MAP:
        opfor_json_obj_begin(j);
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            const msgpack_object *k = &o->via.map.ptr[i].key;
            if (k->type != MSGPACK_OBJECT_STR)
                continue;
            snprintf(buf, sizeof buf, "%.*s", (int)k->via.str.size, k->via.str.ptr);
            if (strcmp(buf, "raw") == 0) /* engine bytes: not for people */
                continue;
            opfor_json_key(j, buf);
            opfor__rpc_json(j, &o->via.map.ptr[i].val);
        }
        opfor_json_obj_end(j);
        break;
    default: /* bin and ext: their size */
        opfor_json_null(j);
        break;
    }
}

void opfor__rpc_print_json(FILE *f, const msgpack_object *o) {
    opfor_json_t j;
    opfor_json_init(&j, f);
    opfor__rpc_json(&j, o);
    opfor_json_end(&j);
}

static void print_pt(FILE *f, const msgpack_object *p) {
    fprintf(f, "x %.1f, y %.1f", opfor__rpc_num(p, "x", 0), opfor__rpc_num(p, "y", 0));
}

/* When p is a point (a map), prints lead and the point and returns 1; else prints nothing. */
static int print_lead_pt(FILE *f, const char *lead, const msgpack_object *p) {
    if (!p || p->type != MSGPACK_OBJECT_MAP)
        return 0;
    fputs(lead, f);
    print_pt(f, p);
    return 1;
}

/* Prints the strings of an array, comma-separated. */
static void print_names(FILE *f, const msgpack_object *a) {
    if (!a || a->type != MSGPACK_OBJECT_ARRAY)
        return;
    for (uint32_t i = 0; i < a->via.array.size; i++) {
        const msgpack_object *s = &a->via.array.ptr[i];
        if (s->type == MSGPACK_OBJECT_STR)
            fprintf(f, "%s%.*s", i ? ", " : "", (int)s->via.str.size, s->via.str.ptr);
    }
}

void opfor__rpc_print_alternatives(FILE *f, const msgpack_object *o) {
    const msgpack_object *alts = opfor__rpc_get(o, "alternatives");
    if (!alts || alts->type != MSGPACK_OBJECT_ARRAY || !alts->via.array.size)
        return;
    double total = 0.0;
    for (uint32_t i = 0; i < alts->via.array.size; i++)
        total += (double)opfor__rpc_int(&alts->via.array.ptr[i], "visits", 0);
    fprintf(f, "    alternatives weighed:\n");
    for (uint32_t i = 0; i < alts->via.array.size; i++) {
        const msgpack_object *a = &alts->via.array.ptr[i];
        char text[128];
        long long visits = (long long)opfor__rpc_int(a, "visits", 0);
        fprintf(f, "    %c %u. %-46s visits %6lld (%5.1f%%) value %+.2f\n",
                opfor__rpc_int(a, "chosen", 0) ? '*' : ' ', i + 1,
                opfor__rpc_str(a, "text", text, sizeof text), visits,
                total > 0 ? 100.0 * (double)visits / total : 0.0, opfor__rpc_num(a, "value", 0.0));
    }
}

const char *opfor__rpc_score_parts(const msgpack_object *bd, char *buf, size_t n) {
    snprintf(buf, n,
             "survivors %lld, at half strength %lld, unscathed %lld, supply %lld x2, HQ members "
             "%lld x2, driven off %lld, objectives %lld",
             (long long)opfor__rpc_int(bd, "survived", 0),
             (long long)opfor__rpc_int(bd, "half_strength", 0),
             (long long)opfor__rpc_int(bd, "unscathed", 0),
             (long long)opfor__rpc_int(bd, "supply", 0),
             (long long)opfor__rpc_int(bd, "hq_members", 0),
             (long long)opfor__rpc_int(bd, "driven_off", 0),
             (long long)opfor__rpc_int(bd, "objectives", 0));
    return buf;
}

void opfor__rpc_print_order(FILE *f, const msgpack_object *o) {
    char unit[64], sentence[320], reason[320], cmd[80], level[32], eng[32];
    opfor__rpc_str(o, "unit", unit, sizeof unit);
    opfor__rpc_str(o, "sentence", sentence, sizeof sentence);
    /* the sentence names the unit first ("Jager Picket: fire at ..."): not twice */
    const char *rest = sentence;
    size_t ul = strlen(unit);
    if (ul && strncmp(rest, unit, ul) == 0 && (rest[ul] == ':' || rest[ul] == ' ')) {
        rest += ul + (rest[ul] == ':');
        while (*rest == ' ')
            rest++;
    }
    fprintf(f, "  Orders for %s: %s\n", unit, rest);
    /* one order, one end point: the sentence's "to x, y" (the daemon's "stop"); a goal beyond
       it is only the way it heads. Orders without "stop" (older daemons) print the goal. */
    const msgpack_object *dest = opfor__rpc_get(o, "destination"),
                         *stop = opfor__rpc_get(o, "stop");
    if (stop && stop->type == MSGPACK_OBJECT_MAP) {
        double dx = opfor__rpc_num(dest, "x", 0) - opfor__rpc_num(stop, "x", 0);
        double dy = opfor__rpc_num(dest, "y", 0) - opfor__rpc_num(stop, "y", 0);
        if (dest && dest->type == MSGPACK_OBJECT_MAP && dx * dx + dy * dy > 1.0 &&
            print_lead_pt(f, "    heading for ", dest))
            fprintf(f, " (beyond where it stops this turn)\n");
    } else if (print_lead_pt(f, "    to ", dest)) {
        fprintf(f, "\n");
    }
    /* where each face of the move's die takes it (the engine's own; daemons before issue 15
       send none): the table rolls and goes there */
    const msgpack_object *stops = opfor__rpc_get(o, "stops");
    if (stops && stops->type == MSGPACK_OBJECT_ARRAY && stops->via.array.size == 3) {
        fprintf(f, "    by its D3:");
        for (uint32_t k = 0; k < 3; k++) {
            const msgpack_object *p = &stops->via.array.ptr[k];
            fprintf(f, "%s %u to x %.1f y %.1f", k ? ";" : "", k + 1, opfor__rpc_num(p, "x", 0),
                    opfor__rpc_num(p, "y", 0));
        }
        fprintf(f, "\n");
    }
    const msgpack_object *needs = opfor__rpc_get(o, "needs");
    if (needs && needs->type == MSGPACK_OBJECT_ARRAY && needs->via.array.size) {
        fprintf(f, "    needs:");
        for (uint32_t i = 0; i < needs->via.array.size; i++) {
            char label[64], need[64];
            const msgpack_object *n = &needs->via.array.ptr[i];
            char per[16];
            long long count = (long long)opfor__rpc_int(n, "count", 0);
            fprintf(f, "%s %s %s", i ? "," : "", opfor__rpc_str(n, "label", label, sizeof label),
                    opfor__rpc_str(n, "need", need, sizeof need));
            if (count > 0) /* one roll per figure that fires */
                fprintf(f, " on %s%lld %s", opfor__rpc_int(o, "figures_at_most", 0) ? "up to " : "",
                        count, count == 1 ? "die" : "dice");
            else if (opfor__rpc_str(n, "per", per, sizeof per)[0])
                fprintf(f, " per %s", per);
        }
        fprintf(f, "\n");
    }
    opfor__rpc_str(o, "command", cmd, sizeof cmd);
    if (strncmp(cmd, "failed", 6) == 0 || strcmp(cmd, "passed") == 0)
        fprintf(f, "    command test %s\n", cmd); /* a failure lists what the unit may do */
    else if (cmd[0])
        fprintf(f, "    command: %s\n", cmd);
    fprintf(f, "    why: %s\n", opfor__rpc_str(o, "reason", reason, sizeof reason));
    const msgpack_object *ru = opfor__rpc_get(o, "runner_up"); /* the best other choice */
    if (ru && ru->type == MSGPACK_OBJECT_MAP &&
        opfor__rpc_str(ru, "sentence", reason, sizeof reason)[0]) {
        fprintf(f, "    runner-up: %s", reason);
        if (opfor__rpc_get(ru, "value"))
            fprintf(f, " (value %+.2f)", opfor__rpc_num(ru, "value", 0.0));
        fprintf(f, "\n");
    }
    fprintf(f, "    (%s AI, %s)\n", opfor__rpc_str(o, "level", level, sizeof level),
            opfor__rpc_str(o, "engine", eng, sizeof eng));
}

void opfor__rpc_print_event(FILE *f, const msgpack_object *ev) {
    char kind[32], buf[320], buf2[64];
    const msgpack_object *d = opfor__rpc_get(ev, "data");
    opfor__rpc_str(ev, "kind", kind, sizeof kind);
    long long seq = (long long)opfor__rpc_int(ev, "seq", 0);
    fprintf(f, "[%lld] ", seq);
    if (strcmp(kind, "initiative") == 0) {
        fprintf(f, "Initiative: %s (%s)", opfor__rpc_str(d, "side", buf, sizeof buf),
                opfor__rpc_str(d, "holder", buf2, sizeof buf2));
        const msgpack_object *dice = opfor__rpc_get(d, "dice");
        if (dice && dice->type == MSGPACK_OBJECT_ARRAY && dice->via.array.size == 2 &&
            dice->via.array.ptr[0].via.u64)
            fprintf(f, " - dice %llu v %llu", (unsigned long long)dice->via.array.ptr[0].via.u64,
                    (unsigned long long)dice->via.array.ptr[1].via.u64);
        fprintf(f, "; ready: ");
        print_names(f, opfor__rpc_get(d, "ready"));
        fprintf(f, "\n");
    } else if (strcmp(kind, "spotted") == 0) {
        fprintf(f, "Spotted: %s\n", opfor__rpc_str(d, "text", buf, sizeof buf));
        char lead[sizeof buf + 24]; /* "    On the table: " + the unit + " at " */
        snprintf(lead, sizeof lead, "    On the table: %s at ",
                 opfor__rpc_str(d, "unit", buf, sizeof buf));
        if (print_lead_pt(f, lead, opfor__rpc_get(d, "point"))) {
            fprintf(f, " (%s)\n", opfor__rpc_str(d, "rule_text", buf, sizeof buf));
            /* how it stands, and the generals who came with it (older daemons send neither) */
            char form[32], facing[8];
            opfor__rpc_str(d, "formation", form, sizeof form);
            opfor__rpc_str(d, "facing", facing, sizeof facing);
            long long nf = (long long)opfor__rpc_int(d, "figures", 0);
            if (form[0] || facing[0]) {
                fprintf(f, "    %lld figure%s%s%s%s%s%s", nf, nf == 1 ? "" : "s",
                        form[0] ? " in " : "", form, strcmp(form, "skirmish") == 0 ? " order" : "",
                        facing[0] ? ", facing " : "", facing);
                print_lead_pt(f, ", centre ", opfor__rpc_get(d, "centre"));
                fprintf(f, "\n");
            }
            const msgpack_object *posts = opfor__rpc_get(d, "general_posts");
            const msgpack_object *gens = opfor__rpc_get(d, "generals");
            if (posts && posts->type == MSGPACK_OBJECT_ARRAY && posts->via.array.size) {
                for (uint32_t i = 0; i < posts->via.array.size; i++)
                    fprintf(f, "    %s\n",
                            opfor__rpc_str(&posts->via.array.ptr[i], "text", buf, sizeof buf));
            } else if (gens && gens->type == MSGPACK_OBJECT_ARRAY && gens->via.array.size) {
                fprintf(f, "    with general%s: ", gens->via.array.size == 1 ? "" : "s");
                print_names(f, gens);
                fprintf(f, "\n");
            }
        } else {
            fprintf(f, "    not placed: %s\n", opfor__rpc_str(d, "rule_text", buf, sizeof buf));
        }
    } else if (strcmp(kind, "order") == 0) {
        fprintf(f, "Order\n");
        opfor__rpc_print_order(f, d);
    } else if ((strcmp(kind, "report") == 0 || strcmp(kind, "action") == 0) &&
               opfor__rpc_get(d, "form")) { /* a typed report or table action (any ruleset) */
        fprintf(f, "%s %s", kind[0] == 'r' ? "Report" : "Table action",
                opfor__rpc_str(d, "form", buf, sizeof buf));
        if (opfor__rpc_get(d, "side"))
            fprintf(f, " (side %lld)", (long long)opfor__rpc_int(d, "side", 0));
        const msgpack_object *fl = opfor__rpc_get(d, "fields");
        for (uint32_t i = 0; fl && fl->type == MSGPACK_OBJECT_MAP && i < fl->via.map.size; i++) {
            const msgpack_object_kv *kv = &fl->via.map.ptr[i];
            if (kv->key.type == MSGPACK_OBJECT_STR && kv->val.type == MSGPACK_OBJECT_STR)
                fprintf(f, "%s%.*s=%.*s", i ? ", " : ": ", (int)kv->key.via.str.size,
                        kv->key.via.str.ptr, (int)kv->val.via.str.size, kv->val.via.str.ptr);
        }
        fprintf(f, "\n");
    } else if (strcmp(kind, "weather") == 0) {
        fprintf(f, "Weather: level %lld, wind %s (command radius %lld in)\n",
                (long long)opfor__rpc_int(d, "level", 0),
                opfor__rpc_str(d, "wind", buf, sizeof buf),
                (long long)opfor__rpc_int(d, "command_radius", 0));
    } else if (strcmp(kind, "session") == 0) {
        fprintf(f, "    %s\n", opfor__rpc_str(d, "text", buf, sizeof buf));
    } else if (strcmp(kind, "act") == 0) {
        fprintf(f, "Side %lld: %s\n", (long long)opfor__rpc_int(d, "side", 0),
                opfor__rpc_str(d, "action", buf, sizeof buf));
    } else if (strcmp(kind, "roll") == 0) {
        opfor__rpc_str(d, "outcome", buf, sizeof buf);
        fprintf(f, "Dice (%s): %s\n", opfor__rpc_int(d, "auto", 0) ? "the daemon's" : "the table's",
                buf[0] ? buf : "thrown");
    } else if (strcmp(kind, "to_move") == 0 && opfor__rpc_get(d, "chance")) {
        long long side = (long long)opfor__rpc_int(d, "side", -1);
        if (opfor__rpc_int(d, "chance", 0))
            fprintf(f, "To move: the dice (`opfor roll`)\n");
        else if (opfor__rpc_int(d, "ai", 0))
            fprintf(f, "To move: the AI, side %lld (`opfor orders`)\n", side);
        else
            fprintf(f, "To move: the table, side %lld\n", side);
    } else if (strcmp(kind, "report") == 0) {
        const msgpack_object *text = opfor__rpc_get(d, "text");
        fprintf(f, "Report (%s)\n", opfor__rpc_str(d, "kind", buf, sizeof buf));
        for (uint32_t i = 0; text && text->type == MSGPACK_OBJECT_ARRAY && i < text->via.array.size;
             i++)
            fprintf(f, "    %.*s\n", (int)text->via.array.ptr[i].via.str.size,
                    text->via.array.ptr[i].via.str.ptr);
    } else if (strcmp(kind, "morale") == 0) {
        fprintf(f, "Morale: %s is %s\n", opfor__rpc_str(d, "unit", buf, sizeof buf),
                opfor__rpc_str(d, "result", buf2, sizeof buf2));
    } else if (strcmp(kind, "score") == 0) {
        const msgpack_object *tot = opfor__rpc_get(d, "total");
        if (tot && tot->type == MSGPACK_OBJECT_ARRAY && tot->via.array.size == 2)
            fprintf(f, "Score: %lld figures v %lld\n", (long long)tot->via.array.ptr[0].via.i64,
                    (long long)tot->via.array.ptr[1].via.i64);
        else
            fprintf(f, "Score: %lld (survivors %lld, driven off %lld, objectives %lld)\n",
                    (long long)opfor__rpc_int(d, "total", 0),
                    (long long)opfor__rpc_int(d, "survived", 0),
                    (long long)opfor__rpc_int(d, "driven_off", 0),
                    (long long)opfor__rpc_int(d, "objectives", 0));
    } else if (strcmp(kind, "turn") == 0) {
        long long left = (long long)opfor__rpc_int(d, "spottings_left", -1);
        if (opfor__rpc_int(d, "idle", 0) && left < 0)
            fprintf(f, "No unit of either side can act: the turn ends at once. Spottings may still "
                       "come (the scenario sets no limit).\n     ");
        else if (opfor__rpc_int(d, "idle", 0))
            fprintf(f,
                    "No unit of either side can act: the turn ends at once. %lld more spotting%s "
                    "may still come.\n     ",
                    left, left == 1 ? "" : "s");
        fprintf(f, "--- Turn %lld%s ---\n", (long long)opfor__rpc_int(d, "turn", 0),
                opfor__rpc_int(d, "last", 0) ? " (the last)" : "");
    } else if (strcmp(kind, "game_over") == 0) {
        long long turns = (long long)opfor__rpc_int(d, "turns", 0);
        char why[128];
        opfor__rpc_str(d, "verdict", buf, sizeof buf); /* an older daemon: only the result */
        if (!buf[0])
            opfor__rpc_str(d, "result", buf, sizeof buf);
        opfor__rpc_str(d, "why", why, sizeof why);
        fprintf(f, "Game over: %s%s%s%s, score %lld after %lld turn%s\n", buf, why[0] ? " (" : "",
                why, why[0] ? ")" : "", (long long)opfor__rpc_int(d, "score", 0), turns,
                turns == 1 ? "" : "s");
        const msgpack_object *bd = opfor__rpc_get(d, "breakdown");
        char parts[256];
        if (opfor__rpc_get(bd, "survived"))
            fprintf(f, "    %s\n", opfor__rpc_score_parts(bd, parts, sizeof parts));
    } else if (strcmp(kind, "closed") == 0) {
        fprintf(f, "The game was closed.\n");
    } else if (strcmp(kind, "undo") == 0) {
        fprintf(f, "Undone: %s (initiative: %s)\n", opfor__rpc_str(d, "text", buf, sizeof buf),
                opfor__rpc_str(d, "pending", buf2, sizeof buf2));
    } else if (strcmp(kind, "unreported") == 0) {
        char text[512];
        fprintf(f, "Warning: %s\n", opfor__rpc_str(d, "text", text, sizeof text));
    } else {
        fprintf(f, "%s\n", kind);
    }
}

/* A form of game.state's `reports` or `actions` on one line: its name, then each field (its
 * name; "?" after an optional one), a unit field's allowed units in brackets. */
static void print_form(FILE *f, const msgpack_object *form) {
    char name[64], fname[64], type[16];
    fprintf(f, "    %s:", opfor__rpc_str(form, "name", name, sizeof name));
    const msgpack_object *fields = opfor__rpc_get(form, "fields");
    for (uint32_t k = 0;
         fields && fields->type == MSGPACK_OBJECT_ARRAY && k < fields->via.array.size; k++) {
        const msgpack_object *fd = &fields->via.array.ptr[k];
        fprintf(f, " %s%s", opfor__rpc_str(fd, "name", fname, sizeof fname),
                opfor__rpc_int(fd, "required", 0) ? "" : "?");
        const msgpack_object *vals = opfor__rpc_get(fd, "values");
        const msgpack_object *ch = opfor__rpc_get(fd, "choices");
        if (strcmp(opfor__rpc_str(fd, "type", type, sizeof type), "unit") == 0 && vals &&
            vals->type == MSGPACK_OBJECT_ARRAY) {
            fprintf(f, " [");
            if (vals->via.array.size)
                print_names(f, vals);
            else
                fprintf(f, "none now");
            fprintf(f, "]");
        } else if (ch && ch->type == MSGPACK_OBJECT_ARRAY) {
            fprintf(f, " (");
            for (uint32_t i = 0; i < ch->via.array.size; i++)
                if (ch->via.array.ptr[i].type == MSGPACK_OBJECT_STR)
                    fprintf(f, "%s%.*s", i ? "|" : "", (int)ch->via.array.ptr[i].via.str.size,
                            ch->via.array.ptr[i].via.str.ptr);
            fprintf(f, ")");
        } else if (strcmp(type, "dice") == 0 || strcmp(type, "point") == 0) {
            fprintf(f, " (%s)", strcmp(type, "dice") == 0 ? "dice: 3,5" : "x,y in");
        }
    }
    fprintf(f, "\n");
}

/* The turn of a game of the generic kind (game.state has "to_move" and "legal"): who is to
 * move and what the table may do about it: the legal actions (`opfor act N`), the dice's
 * outcomes (`opfor roll`), the AI's order (`opfor orders`), the typed reports and table
 * actions (`opfor report --form`, `--action`) and the undo. */
static void print_generic_turn(FILE *f, const msgpack_object *st) {
    char c[64], d[64];
    const msgpack_object *pr = opfor__rpc_get(st, "progress");
    const msgpack_object *tm = opfor__rpc_get(st, "to_move");
    long long to_move = (long long)opfor__rpc_int(st, "to_move", -1);
    long long ai = (long long)opfor__rpc_int(st, "ai_side", -2);
    fprintf(f, "Turn %lld; status %s", (long long)opfor__rpc_int(pr, "turn", 0),
            opfor__rpc_str(st, "status", c, sizeof c));
    opfor__rpc_str(st, "result", d, sizeof d);
    if (d[0])
        fprintf(f, ", %s", d);
    const int active = strcmp(c, "active") == 0;
    if (to_move >= 0)
        fprintf(f, "; to move: side %lld (%s)", to_move,
                to_move == ai ? "the AI: `opfor orders`" : "the table");
    else if (active && tm && tm->type == MSGPACK_OBJECT_STR && tm->via.str.size == 6 &&
             memcmp(tm->via.str.ptr, "chance", 6) == 0)
        fprintf(f, "; to move: the dice (`opfor roll`: the daemon throws; `opfor roll N`: the "
                   "table threw outcome N)");
    fprintf(f, "\n");
    const msgpack_object *legal = opfor__rpc_get(st, "legal");
    if (legal && legal->type == MSGPACK_OBJECT_ARRAY && legal->via.array.size)
        fprintf(f, "Legal actions (`opfor act N`):\n");
    for (uint32_t i = 0; legal && legal->type == MSGPACK_OBJECT_ARRAY && i < legal->via.array.size;
         i++) {
        const msgpack_object *a = &legal->via.array.ptr[i];
        if (a->type == MSGPACK_OBJECT_STR)
            fprintf(f, "  %2u. %.*s\n", i + 1, (int)a->via.str.size, a->via.str.ptr);
    }
    const msgpack_object *outs = opfor__rpc_get(st, "outcomes");
    if (outs && outs->type == MSGPACK_OBJECT_ARRAY && outs->via.array.size)
        fprintf(f, "Outcomes (`opfor roll N`):\n");
    for (uint32_t i = 0; outs && outs->type == MSGPACK_OBJECT_ARRAY && i < outs->via.array.size;
         i++) {
        char text[160];
        const msgpack_object *o = &outs->via.array.ptr[i];
        fprintf(f, "  %2u. %s (%.1f%%)\n", i + 1, opfor__rpc_str(o, "text", text, sizeof text),
                100.0 * opfor__rpc_num(o, "p", 0.0));
    }
    const char *const lists[2][2] = {
        {"reports", "Reports (`opfor report --form NAME FIELD=VALUE ...`)"},
        {"actions", "Table actions (`opfor report --action NAME`)"}};
    for (int l = 0; l < 2 && active; l++) {
        const msgpack_object *forms = opfor__rpc_get(st, lists[l][0]);
        if (!forms || forms->type != MSGPACK_OBJECT_ARRAY || !forms->via.array.size)
            continue;
        fprintf(f, "%s:\n", lists[l][1]);
        for (uint32_t i = 0; i < forms->via.array.size; i++)
            print_form(f, &forms->via.array.ptr[i]);
    }
    if (active && opfor__rpc_int(st, "can_undo", 0))
        fprintf(f, "`opfor undo` takes back log entry %lld.\n",
                (long long)opfor__rpc_int(st, "undo_report", 0));
}

void opfor__rpc_print_state(FILE *f, const msgpack_object *st) {
    char a[160], b[64], c[64], d[64], e[32];
    opfor__rpc_str(st, "mode", d, sizeof d);
    fprintf(f, "Game %s: %s (%s, %s%sseed %llu, %s AI)\n", opfor__rpc_str(st, "game", a, sizeof a),
            opfor__rpc_str(st, "title", b, sizeof b), opfor__rpc_str(st, "scenario", c, sizeof c),
            d, d[0] ? " mode, " : "", (unsigned long long)opfor__rpc_int(st, "seed", 0),
            opfor__rpc_str(st, "difficulty", e, sizeof e));
    if (opfor__rpc_get(st, "to_move")) {
        print_generic_turn(f, st);
    } else {
        long long limit = (long long)opfor__rpc_int(st, "turn_limit", 0);
        fprintf(f, "Turn %lld; status %s", (long long)opfor__rpc_int(st, "turn", 0),
                opfor__rpc_str(st, "status", c, sizeof c));
        if (limit)
            fprintf(f, " (turn limit %lld)", limit);
        opfor__rpc_str(st, "verdict", d, sizeof d); /* an older daemon: only the result */
        if (!d[0])
            opfor__rpc_str(st, "result", d, sizeof d);
        if (d[0])
            fprintf(f, ", %s", d);
        fprintf(f, "; initiative: %s", opfor__rpc_str(st, "pending", a, sizeof a));
        const msgpack_object *ready = opfor__rpc_get(st, "ready");
        if (ready && ready->type == MSGPACK_OBJECT_ARRAY && ready->via.array.size) {
            fprintf(f, " (ready: ");
            print_names(f, ready);
            fprintf(f, ")");
        }
        fprintf(f, "\n");
    }
    const msgpack_object *units = opfor__rpc_get(st, "units");
    for (uint32_t i = 0; units && units->type == MSGPACK_OBJECT_ARRAY && i < units->via.array.size;
         i++) {
        const msgpack_object *u = &units->via.array.ptr[i];
        char name[64], side[64], type[32], state[32], status[32];
        fprintf(
            f, "  %-22s %-10s %-12s %2lld/%-2lld (%lld wounded) %-9s %-10s",
            opfor__rpc_str(u, "name", name, sizeof name),
            opfor__rpc_str(u, "side", side, sizeof side),
            opfor__rpc_str(u, "type", type, sizeof type), (long long)opfor__rpc_int(u, "alive", 0),
            (long long)opfor__rpc_int(u, "strength", 0), (long long)opfor__rpc_int(u, "wounded", 0),
            opfor__rpc_str(u, "status", status, sizeof status),
            opfor__rpc_str(u, "state", state, sizeof state));
        print_lead_pt(f, " at ", opfor__rpc_get(u, "at"));
        fprintf(f, "\n");
    }
    const msgpack_object *order = opfor__rpc_get(st, "order");
    if (order && order->type == MSGPACK_OBJECT_MAP) {
        fprintf(f, "Last order%s:\n", opfor__rpc_int(order, "resolved", 0) ? " (resolved)" : "");
        opfor__rpc_print_order(f, order);
    }
    const msgpack_object *sc = opfor__rpc_get(st, "score");
    const msgpack_object *tot = opfor__rpc_get(sc, "total");
    if (tot && tot->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        fprintf(f, "Score: %lld\n", (long long)tot->via.u64);
    else if (tot && tot->type == MSGPACK_OBJECT_ARRAY && tot->via.array.size == 2) /* competitive */
        fprintf(f, "Score: %lld figures v %lld\n", (long long)tot->via.array.ptr[0].via.i64,
                (long long)tot->via.array.ptr[1].via.i64);
    fprintf(f, "Log entries %lld, events %lld, hash %s\n",
            (long long)opfor__rpc_int(st, "log_seq", 0),
            (long long)opfor__rpc_int(st, "event_seq", 0), opfor__rpc_str(st, "hash", a, sizeof a));
}
