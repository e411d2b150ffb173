/* tools/opfor/cmd_table.c — the table's side of a daemon game of any ruleset, from the
 * terminal (docs/protocol.md game.act, game.roll, game.report, game.action):
 *
 *   opfor act [GAME] N|PHRASE          the table side to move takes legal action N (as
 *                                      `opfor state` numbers them) or the one so worded
 *   opfor roll [GAME] [N|auto]         the dice at a chance node: outcome N as the table
 *                                      threw it, or the daemon's own dice
 *   opfor report [GAME] --form NAME [FIELD=VALUE ...] [--side N] [--seen N]
 *   opfor report [GAME] --action NAME [FIELD=VALUE ...]
 *                                      one of the ruleset's typed reports or table actions
 *                                      (game.state's `reports` and `actions`)
 *
 * Nothing here names a ruleset: the forms, their fields and the units they allow now come from
 * game.state, and the daemon checks every value and says what is wrong.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_game.h"
#include "game_rpc.h"
#include "opfor/rpc.h"

#define MAX_FIELDS 16

/* The answer of game.act, game.roll, game.report or game.action, for people: its events and
 * where the game stands. */
static void print_move(const msgpack_object *res) {
    char buf[64];
    opfor__game_print_events(res);
    const msgpack_object *tm = opfor__rpc_get(res, "to_move");
    printf("(log entry %lld; turn %lld; status %s", (long long)opfor__rpc_int(res, "log_seq", 0),
           (long long)opfor__rpc_int(res, "turn", 0),
           opfor__rpc_str(res, "status", buf, sizeof buf));
    if (tm && tm->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        printf("; to move: side %llu", (unsigned long long)tm->via.u64);
    else if (tm && tm->type == MSGPACK_OBJECT_STR)
        printf("; to move: %.*s", (int)tm->via.str.size, tm->via.str.ptr);
    printf(")\n");
}

/* Calls method with params sb on game id; prints the answer (JSON with --json). */
static int call_print(opfor_client_t *c, const gopts_t *o, const char *method,
                      const msgpack_sbuffer *sb) {
    const msgpack_object *res;
    int rc = opfor__rpc_call_cmd(c, o->cmd, method, sb, &res);
    if (rc == 0) {
        if (o->json)
            opfor__rpc_print_json(stdout, res);
        else
            print_move(res);
    }
    return rc;
}

/* ------------------------------------------------------------------ opfor act, opfor roll */

typedef struct move_opts {
    gopts_t g;
    const char *what; /* N, PHRASE, auto */
} move_opts_t;

/* A whole number >= 1 in s into *n; 0, or -1 when s is not one. */
static int ordinal(const char *s, long *n) {
    return opfor_cli_parse_long(s, n) == 0 && *n >= 1 ? 0 : -1;
}

/* [GAME] WHAT: one word is WHAT; two are GAME WHAT (roll: a word that is no outcome is GAME). */
static int move_arg(void *ud, const char *a) {
    move_opts_t *m = ud;
    long n;
    if (strcmp(m->g.cmd, "roll") == 0 && !m->g.game && strcmp(a, "auto") != 0 &&
        ordinal(a, &n) < 0) { /* roll's WHAT is optional: a word that is no outcome is GAME */
        m->g.game = a;
        return 0;
    }
    if (!m->what) {
        m->what = a;
        return 0;
    }
    if (m->g.game)
        return opfor_cli_usage_error("%s: too many arguments ('%s'): give [GAME] and one %s",
                                     m->g.cmd, a,
                                     strcmp(m->g.cmd, "act") == 0 ? "action" : "outcome");
    m->g.game = m->what;
    m->what = a;
    return 0;
}

/* Whether N (from 1) names one of the game's legal actions (act) or outcomes (roll) now, as
 * `opfor state` numbers them; 0, or the error printed and OPFOR_EXIT_FAIL. */
static int check_number(opfor_client_t *c, const char *cmd, const char *id, long n) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    opfor__game_params(&sb, id);
    const msgpack_object *st;
    int rc = opfor__rpc_call_cmd(c, cmd, "game.state", &sb, &st);
    msgpack_sbuffer_destroy(&sb);
    if (rc)
        return rc;
    const int act = strcmp(cmd, "act") == 0;
    const msgpack_object *list = opfor__rpc_get(st, act ? "legal" : "outcomes");
    long have = list && list->type == MSGPACK_OBJECT_ARRAY ? (long)list->via.array.size : 0;
    if (n <= have)
        return 0;
    if (have == 0)
        return opfor_cli_fail("%s: %s", cmd,
                              act ? "the table has no legal action to take now (`opfor state` "
                                    "says who is to move)"
                                  : "the daemon lists no outcomes to choose from now: `opfor "
                                    "roll` throws its own dice when the dice are to move");
    return opfor_cli_fail("%s: %ld is not one of the %ld %s now (1 to %ld: `opfor state` lists "
                          "them)",
                          cmd, n, have, act ? "legal actions" : "outcomes", have);
}

static int move_cmd(int argc, char **argv, const char *cmd) {
    const int act = strcmp(cmd, "act") == 0;
    move_opts_t m = {.g = {.cmd = cmd}};
    int rc;
    const opfor_cli_opt_t opts[] = {GAME_OPTS(&m.g, "print one JSON document")};
    const opfor_cli_spec_t spec = {
        .cmd = cmd,
        .args = act ? "[GAME] N|PHRASE" : "[GAME] [N|auto]",
        .about = act ? "The table side to move takes one of its legal actions: N as `opfor state`\n"
                       "numbers them, or the action's phrase exactly as listed, in a game whose\n"
                       "state lists legal actions (a game with its own report options plays with\n"
                       "`opfor report`).\n"
                       "\n" GAME_DEFAULT
                     : "The dice at a chance node: outcome N as `opfor state` numbers them (the\n"
                       "table threw it), or auto (the default): the daemon throws the game's "
                       "own\n"
                       "dice.\n"
                       "\n" GAME_DEFAULT,
        .opts = opts,
        .positional = move_arg,
        .ud = &m,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    if (act && !m.what)
        return opfor_cli_usage_error("act: which action? give N (`opfor state` lists them) or "
                                     "its phrase");
    long n = 0;
    int is_num = m.what && ordinal(m.what, &n) == 0;
    if (!act && m.what && !is_num && strcmp(m.what, "auto") != 0)
        return opfor_cli_usage_error("roll: the outcome is N (`opfor state` lists them) or auto, "
                                     "got '%s'",
                                     m.what);
    opfor_client_t *c = opfor__rpc_open_token(m.g.connect, m.g.token_file);
    if (!c)
        return OPFOR_EXIT_FAIL;
    char id[64];
    rc = opfor__game_resolve(c, cmd, m.g.game, id, sizeof id);
    if (rc == 0 && is_num)
        rc = check_number(c, cmd, id, n);
    if (rc == 0) {
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_map(&pk, 2);
        opfor_rpc_pack_cstr(&pk, "game");
        opfor_rpc_pack_cstr(&pk, id);
        opfor_rpc_pack_cstr(&pk, act ? "action" : "outcome");
        if (is_num)
            msgpack_pack_uint64(&pk, (uint64_t)(n - 1)); /* the daemon counts from 0 */
        else
            opfor_rpc_pack_cstr(&pk, m.what ? m.what : "auto");
        rc = call_print(c, &m.g, act ? "game.act" : "game.roll", &sb);
        msgpack_sbuffer_destroy(&sb);
    }
    opfor_client_close(c);
    return rc;
}

int opfor_cmd_act(int argc, char **argv) {
    return move_cmd(argc, argv, "act");
}

int opfor_cmd_roll(int argc, char **argv) {
    return move_cmd(argc, argv, "roll");
}

/* ------------------------------------------------------------------ opfor report --form */

typedef struct form_opts {
    gopts_t g;
    const char *form;   /* --form NAME */
    const char *action; /* --action NAME */
    long side, seen;    /* -1: not given */
    const char *fields[MAX_FIELDS];
    int nfields;
} form_opts_t;

/* GAME, or FIELD=VALUE (a game's name has no '='). */
static int form_arg(void *ud, const char *a) {
    form_opts_t *f = ud;
    if (!strchr(a, '='))
        return opfor__game_arg(&f->g, a);
    if (a[0] == '=')
        return opfor_cli_usage_error("report: '%s' names no field: give FIELD=VALUE", a);
    if (f->nfields >= MAX_FIELDS)
        return opfor_cli_usage_error("report: at most %d fields", MAX_FIELDS);
    size_t n = (size_t)(strchr(a, '=') - a);
    for (int i = 0; i < f->nfields; i++)
        if (strncmp(f->fields[i], a, n) == 0 && f->fields[i][n] == '=')
            return opfor_cli_usage_error("report: field %.*s given twice ('%s', then '%s')", (int)n,
                                         a, f->fields[i] + n + 1, a + n + 1);
    f->fields[f->nfields++] = a;
    return 0;
}

int opfor__cmd_report_form(int argc, char **argv) {
    form_opts_t f = {.g = {.cmd = "report"}, .side = -1, .seen = -1};
    int rc;
    const opfor_cli_opt_t opts[] = {
        {.name = "--form",
         .type = OPFOR_CLI_STRING,
         .string = &f.form,
         .once = 1,
         .arg = "NAME",
         .help = "one of the game's reports (`opfor state` lists them)"},
        {.name = "--action",
         .type = OPFOR_CLI_STRING,
         .string = &f.action,
         .once = 1,
         .arg = "NAME",
         .help = "one of the ruleset's own table actions instead"},
        {.name = "--side",
         .type = OPFOR_CLI_WHOLE,
         .whole = &f.side,
         .lo = 0,
         .hi = 15,
         .arg = "N",
         .help = "the table side reporting (default: the first table side)"},
        {.name = "--seen",
         .type = OPFOR_CLI_WHOLE,
         .whole = &f.seen,
         .lo = 0,
         .hi = LONG_MAX,
         .arg = "N",
         .help = "the log entry you last saw: refused if the game has moved on since"},
        GAME_OPTS(&f.g, "print one JSON document"),
    };
    const opfor_cli_spec_t spec = {
        .cmd = "report",
        .usage = "[GAME] --form NAME [FIELD=VALUE ...] [--side N] [--seen N]\n"
                 "                    [GAME] --action NAME [FIELD=VALUE ...] [--seen N]\n"
                 "                    [--connect ADDR] [--token-file FILE] [--json]",
        .about = "Tells the daemon what happened at the table with one of the game's typed\n"
                 "reports (or presses one of its ruleset's table actions), for a game of any\n"
                 "ruleset: `opfor state` lists each report, its fields and the units they allow\n"
                 "now. Each FIELD=VALUE sets a field (quote values with spaces:\n"
                 "unit=\"Fairfax's Horse\"); the daemon checks them all against the rules and\n"
                 "refuses the report with the reason, changing nothing.\n"
                 "\n" GAME_DEFAULT,
        .opts = opts,
        .positional = form_arg,
        .ud = &f,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    if (!f.form == !f.action)
        return opfor_cli_usage_error("report: give --form NAME (a report) or --action NAME (a "
                                     "table action), not %s",
                                     f.form ? "both" : "neither");
    if (f.action && f.side >= 0)
        return opfor_cli_usage_error("report: --side goes with --form (a table action is no "
                                     "side's)");
    opfor_client_t *c = opfor__rpc_open_token(f.g.connect, f.g.token_file);
    if (!c)
        return OPFOR_EXIT_FAIL;
    char id[64];
    rc = opfor__game_resolve(c, "report", f.g.game, id, sizeof id);
    if (rc == 0) {
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_map(&pk, 3 + (f.side >= 0) + (f.seen >= 0));
        opfor_rpc_pack_cstr(&pk, "game");
        opfor_rpc_pack_cstr(&pk, id);
        opfor_rpc_pack_cstr(&pk, "form");
        opfor_rpc_pack_cstr(&pk, f.form ? f.form : f.action);
        if (f.side >= 0) {
            opfor_rpc_pack_cstr(&pk, "side");
            msgpack_pack_int64(&pk, f.side);
        }
        if (f.seen >= 0) {
            opfor_rpc_pack_cstr(&pk, "seen");
            msgpack_pack_int64(&pk, f.seen);
        }
        opfor_rpc_pack_cstr(&pk, "fields");
        msgpack_pack_map(&pk, (size_t)f.nfields);
        for (int i = 0; i < f.nfields; i++) {
            const char *eq = strchr(f.fields[i], '=');
            msgpack_pack_str(&pk, (size_t)(eq - f.fields[i]));
            msgpack_pack_str_body(&pk, f.fields[i], (size_t)(eq - f.fields[i]));
            opfor_rpc_pack_cstr(&pk, eq + 1);
        }
        rc = call_print(c, &f.g, f.form ? "game.report" : "game.action", &sb);
        msgpack_sbuffer_destroy(&sb);
    }
    opfor_client_close(c);
    return rc;
}
