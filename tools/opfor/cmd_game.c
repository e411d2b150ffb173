/* tools/opfor/cmd_game.c — the `opfor` commands for games kept by the daemon (opford):
 *
 *   opfor new [--ruleset NAME] [--scenario NAME|FILE] [--mode M] [--seed S] [--level L] [--id ID]
 *   opfor games [--status S]
 *   opfor state [GAME]            opfor initiative [GAME]        opfor orders [GAME]
 *   opfor report [GAME] [--acted UNIT [--at X,Y]] [--move UNIT=X,Y] [--killed UNIT=N]
 *                [--wounded UNIT=N] [--morale UNIT=RESULT] [--off UNIT[=captured]]
 *                [--roll DICE] [--resolve [--move-roll N]] [--note TEXT] [--order N | --seen N]
 *   opfor report [GAME] --undo [--seen N]      opfor undo [GAME]
 *   (opfor report --form/--action, opfor act, opfor roll: cmd_table.c)
 *   opfor watch [GAME] [--after SEQ] [--count N] [--timeout SECONDS]
 *   opfor close [GAME]
 *
 * Every command takes --connect ADDR (default: $OPFOR_SOCKET or the user's opford socket),
 * --token-file FILE (default: $OPFOR_TOKEN) and --json (one JSON document; `watch` prints one
 * JSON object per line, per event). GAME may be left out: the most recently changed active
 * game is meant. Each is one or two RPC calls
 * (docs/protocol.md); all game logic stays in the daemon.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "cmd_game.h"
#include "game_rpc.h"
#include "opfor/rpc.h"
#include "opfor/ruleset.h"
#include "opfor/scenario.h"

#define MAX_LIST 32

int opfor__game_arg(void *ud, const char *a) {
    gopts_t *o = ud;
    if (o->game)
        return opfor_cli_usage_error("%s: one GAME at a time, got '%s' and '%s' (see opfor %s "
                                     "--help)",
                                     o->cmd, o->game, a, o->cmd);
    o->game = a;
    return 0;
}

void opfor__game_params(msgpack_sbuffer *sb, const char *id) {
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 1);
    opfor_rpc_pack_cstr(&pk, "game");
    opfor_rpc_pack_cstr(&pk, id);
}

int opfor__game_resolve(opfor_client_t *c, const char *cmd, const char *given, char *buf,
                        size_t n) {
    if (given) {
        snprintf(buf, n, "%s", given);
        return 0;
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 1);
    opfor_rpc_pack_cstr(&pk, "status");
    opfor_rpc_pack_cstr(&pk, "active");
    const msgpack_object *res;
    int rc = opfor__rpc_call_cmd(c, cmd, "game.list", &sb, &res);
    msgpack_sbuffer_destroy(&sb);
    if (rc)
        return rc;
    const msgpack_object *games = opfor__rpc_get(res, "games");
    if (!games || games->type != MSGPACK_OBJECT_ARRAY || games->via.array.size == 0)
        return opfor_cli_fail("%s: no active game: start one with `opfor new`", cmd);
    opfor__rpc_str(&games->via.array.ptr[0], "game", buf, n);
    return 0;
}

/* Connects, finds the game, calls method with {"game": id}, prints the result. A method without
 * a dot is a ruleset's own verb ("initiative": the game's ruleset's, under its old name before
 * api_level 5). */
static int simple_call(const char *cmd, const gopts_t *o, const char *method,
                       void (*print)(const msgpack_object *res)) {
    opfor_client_t *c = opfor__rpc_open_token(o->connect, o->token_file);
    if (!c)
        return OPFOR_EXIT_FAIL;
    char id[64];
    int rc = opfor__game_resolve(c, cmd, o->game, id, sizeof id);
    if (rc == 0) {
        if (strcmp(method, "ai.orders") == 0)
            opfor_client_set_timeout(c, 120000);
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        opfor__game_params(&sb, id);
        const msgpack_object *res;
        if (strchr(method, '.'))
            rc = opfor__rpc_call_cmd(c, cmd, method, &sb, &res);
        else /* a ruleset's own verb, with its name before api_level 5 */
            rc = opfor__rpc_call_ruleset(c, cmd, id, method, &sb, &res);
        msgpack_sbuffer_destroy(&sb);
        if (rc == 0) {
            if (o->json)
                opfor__rpc_print_json(stdout, res);
            else
                print(res);
        }
    }
    opfor_client_close(c);
    return rc;
}

void opfor__game_print_events(const msgpack_object *res) {
    const msgpack_object *evs = opfor__rpc_get(res, "events");
    for (uint32_t i = 0; evs && evs->type == MSGPACK_OBJECT_ARRAY && i < evs->via.array.size; i++)
        opfor__rpc_print_event(stdout, &evs->via.array.ptr[i]);
}

static void print_ack(const msgpack_object *res) {
    char buf[64];
    opfor__game_print_events(res);
    printf("(log entry %lld; turn %lld; initiative: %s)\n",
           (long long)opfor__rpc_int(res, "log_seq", 0), (long long)opfor__rpc_int(res, "turn", 0),
           opfor__rpc_str(res, "pending", buf, sizeof buf));
}

static void print_state(const msgpack_object *res) {
    opfor__rpc_print_state(stdout, res);
}

static void print_order(const msgpack_object *res) {
    opfor__rpc_print_order(stdout, res);
}

/* ------------------------------------------------------------------ opfor new */

#define MAX_MODES 16

/* The modes `opfor new --mode` takes: each registered ruleset's word for each of its modes
 * (the first it lists; its scenario rules), into names (cap entries, NULL-terminated), and
 * "a|b" into arg. The daemon checks the mode against the game's ruleset. */
static void new_modes(opfor_name_t *names, size_t cap, char *arg, size_t n) {
    size_t reg_n = 0, k = 0, len = 0;
    const opfor_ruleset_entry_t *reg = opfor_ruleset_list(&reg_n);
    arg[0] = '\0';
    for (size_t r = 0; r < reg_n; r++) {
        const opfor_scenario_rules_t *sr = reg[r].rs->scenario;
        for (const opfor_name_t *m = sr ? sr->modes : NULL; m && m->name && k + 1 < cap; m++) {
            int seen = 0;
            for (const opfor_name_t *p = sr->modes; p < m; p++)
                seen |= p->value == m->value;
            for (size_t i = 0; i < k; i++)
                seen |= strcmp(names[i].name, m->name) == 0;
            if (seen)
                continue;
            names[k++] = *m;
            if (len < n)
                len += (size_t)snprintf(arg + len, n - len, "%s%s", len ? "|" : "", m->name);
        }
    }
    names[k].name = NULL;
}

/* The built-in scenarios of every registered ruleset, ", "-separated, into buf. */
static const char *builtins(char *buf, size_t n) {
    size_t reg_n = 0, len = 0;
    const opfor_ruleset_entry_t *reg = opfor_ruleset_list(&reg_n);
    buf[0] = '\0';
    for (size_t r = 0; r < reg_n; r++)
        for (size_t i = 0; reg[r].rs->builtin_name && reg[r].rs->builtin_name(i) && len < n; i++)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "",
                                    reg[r].rs->builtin_name(i));
    return buf;
}

/* Reads a whole file (at most 1 MiB) into a malloc'd buffer. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1024 * 1024 + 1);
    size_t n = buf ? fread(buf, 1, 1024 * 1024 + 1, f) : 0;
    fclose(f);
    if (!buf || n > 1024 * 1024) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int opfor_cmd_new(int argc, char **argv) {
    gopts_t o = {.cmd = "new"};
    const char *scenario = NULL, *mode = NULL, *diff = NULL, *id = NULL, *ruleset = NULL;
    long seed = -1;
    int rc;
    opfor_name_t modes[MAX_MODES];
    char mode_arg[128], scen_help[512], builtin_list[256], rs_help[256];
    new_modes(modes, MAX_MODES, mode_arg, sizeof mode_arg);
    size_t reg_n = 0, len = 0;
    const opfor_ruleset_entry_t *reg = opfor_ruleset_list(&reg_n);
    for (size_t r = 0; r < reg_n && len < sizeof rs_help; r++)
        len += (size_t)snprintf(rs_help + len, sizeof rs_help - len, "%s%s",
                                r ? ", " : "the game's ruleset: ", reg[r].name);
    if (len < sizeof rs_help)
        snprintf(rs_help + len, sizeof rs_help - len, "\n(default: the daemon's first)");
    const char *first = reg_n && reg[0].rs->builtin_name ? reg[0].rs->builtin_name(0) : NULL;
    snprintf(scen_help, sizeof scen_help,
             "a built-in scenario (%s)\nor a scenario file, sent to the daemon as YAML\n"
             "(default: %s)",
             builtins(builtin_list, sizeof builtin_list), first ? first : "the ruleset's");
    const opfor_cli_opt_t opts[] = {
        {.name = "--ruleset",
         .type = OPFOR_CLI_STRING,
         .string = &ruleset,
         .arg = "NAME",
         .help = rs_help},
        {.name = "--scenario",
         .type = OPFOR_CLI_STRING,
         .string = &scenario,
         .arg = "NAME|FILE",
         .help = scen_help},
        {.name = "--mode",
         .type = OPFOR_CLI_CHOICE,
         .string = &mode,
         .names = modes,
         .arg = mode_arg,
         .help = "the mode of play, in the ruleset's words (default: the scenario's)"},
        OPFOR_CLI_SEED_OPT(&seed, "the game's seed, a whole number >= 0 (default: random)"),
        OPFOR_CLI_LEVEL_TEXT_OPT(&diff, "novice, standard, veteran, ruthless or challenge"),
        {.name = "--id",
         .type = OPFOR_CLI_STRING,
         .string = &id,
         .arg = "ID",
         .help = "the game's id (letters, digits, - _ .; default generated)"},
        GAME_OPTS(&o, "print one JSON document"),
    };
    const opfor_cli_spec_t spec = {
        .cmd = "new",
        .about = "Starts a game in the daemon (opford) and prints its id and opening position.\n"
                 "The daemon keeps the game (its log survives restarts); the other game commands\n"
                 "(initiative, report, orders, state, watch, close) take its id.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    char *yaml = NULL;
    size_t ylen = 0;
    char stem[128] = "";
    struct stat st;
    size_t sl = scenario ? strlen(scenario) : 0;
    if (scenario && stat(scenario, &st) != 0 &&
        (strchr(scenario, '/') || (sl > 5 && strcmp(scenario + sl - 5, ".yaml") == 0) ||
         (sl > 4 && strcmp(scenario + sl - 4, ".yml") == 0)))
        return opfor_cli_fail("new: --scenario %s: no such file (built-in scenarios: %s)", scenario,
                              builtin_list);
    if (scenario && stat(scenario, &st) == 0 && S_ISREG(st.st_mode)) {
        yaml = read_file(scenario, &ylen);
        if (!yaml)
            return opfor_cli_fail("new: %s: cannot read the scenario (at most 1 MiB)", scenario);
        const char *base = strrchr(scenario, '/');
        snprintf(stem, sizeof stem, "%s", base ? base + 1 : scenario);
        char *dot = strrchr(stem, '.');
        if (dot)
            *dot = '\0';
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int n = (ruleset ? 1 : 0) + (scenario ? 1 : 0) + (yaml ? 1 : 0) + (mode ? 1 : 0) +
            (diff ? 1 : 0) + (id ? 1 : 0) + (seed >= 0 ? 1 : 0);
    msgpack_pack_map(&pk, (size_t)n);
    if (ruleset) {
        opfor_rpc_pack_cstr(&pk, "ruleset");
        opfor_rpc_pack_cstr(&pk, ruleset);
    }
    if (scenario) {
        opfor_rpc_pack_cstr(&pk, "scenario");
        opfor_rpc_pack_cstr(&pk, yaml ? stem : scenario);
    }
    if (yaml) {
        opfor_rpc_pack_cstr(&pk, "scenario_yaml");
        msgpack_pack_str(&pk, ylen);
        msgpack_pack_str_body(&pk, yaml, ylen);
    }
    if (mode) {
        opfor_rpc_pack_cstr(&pk, "mode");
        opfor_rpc_pack_cstr(&pk, mode);
    }
    if (diff) {
        opfor_rpc_pack_cstr(&pk, "difficulty");
        opfor_rpc_pack_cstr(&pk, diff);
    }
    if (id) {
        opfor_rpc_pack_cstr(&pk, "id");
        opfor_rpc_pack_cstr(&pk, id);
    }
    if (seed >= 0) {
        opfor_rpc_pack_cstr(&pk, "seed");
        msgpack_pack_int64(&pk, seed);
    }
    free(yaml);
    opfor_client_t *c = opfor__rpc_open_token(o.connect, o.token_file);
    if (!c) {
        msgpack_sbuffer_destroy(&sb);
        return OPFOR_EXIT_FAIL;
    }
    const msgpack_object *res;
    rc = opfor__rpc_call_cmd(c, "new", "game.new", &sb, &res);
    if (rc == 0) {
        if (o.json) {
            opfor__rpc_print_json(stdout, res);
        } else {
            char gid[64];
            printf("New game %s\n", opfor__rpc_str(res, "game", gid, sizeof gid));
            opfor__rpc_print_state(stdout, res);
            if (opfor__rpc_get(res, "to_move")) /* a game played through game.act */
                printf("Next: the table plays with `opfor roll`, `opfor act N` and `opfor "
                       "report --form NAME FIELD=VALUE ...`; `opfor orders %s` when the AI is to "
                       "move (`opfor state %s` says what waits).\n",
                       gid, gid);
            else
                printf("Next: `opfor initiative %s` presses the initiative button.\n", gid);
        }
    }
    msgpack_sbuffer_destroy(&sb);
    opfor_client_close(c);
    return rc;
}

/* ------------------------------------------------------------------ games, state, ... */

/* The statuses `opfor games --status` takes. */
static const opfor_name_t GAME_STATUSES[] = {
    {"active", 0}, {"finished", 1}, {"closed", 2}, {NULL, 0}};

int opfor_cmd_games(int argc, char **argv) {
    gopts_t o = {.cmd = "games"};
    const char *status = NULL;
    int rc;
    const opfor_cli_opt_t opts[] = {
        {.name = "--status",
         .type = OPFOR_CLI_CHOICE,
         .string = &status,
         .names = GAME_STATUSES,
         .arg = "active|finished|closed",
         .help = "only the active, finished or closed games"},
        GAME_OPTS(&o, "print one JSON document"),
    };
    const opfor_cli_spec_t spec = {
        .cmd = "games",
        .about = "Lists the daemon's saved games, most recently changed first.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    opfor_client_t *c = opfor__rpc_open_token(o.connect, o.token_file);
    if (!c)
        return OPFOR_EXIT_FAIL;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, status ? 1 : 0);
    if (status) {
        opfor_rpc_pack_cstr(&pk, "status");
        opfor_rpc_pack_cstr(&pk, status);
    }
    const msgpack_object *res;
    rc = opfor__rpc_call_cmd(c, "games", "game.list", &sb, &res);
    if (rc == 0 && o.json) {
        opfor__rpc_print_json(stdout, res);
    } else if (rc == 0) {
        const msgpack_object *g = opfor__rpc_get(res, "games");
        uint32_t n = g && g->type == MSGPACK_OBJECT_ARRAY ? g->via.array.size : 0;
        if (!n)
            printf("No games: start one with `opfor new`.\n");
        else
            printf("%-12s %-22s %-12s %-9s %-9s %-25s %s\n", "game", "scenario", "mode", "status",
                   "level", "seed", "log");
        for (uint32_t i = 0; i < n; i++) {
            char id[64], sc[128], mode[32], st[32], diff[32];
            const msgpack_object *r = &g->via.array.ptr[i];
            long long entries = (long long)opfor__rpc_int(r, "log_seq", 0);
            printf("%-12s %-22s %-12s %-9s %-9s seed %-20llu %lld entr%s\n",
                   opfor__rpc_str(r, "game", id, sizeof id),
                   opfor__rpc_str(r, "scenario", sc, sizeof sc),
                   opfor__rpc_str(r, "mode", mode, sizeof mode),
                   opfor__rpc_str(r, "status", st, sizeof st),
                   opfor__rpc_str(r, "difficulty", diff, sizeof diff),
                   (unsigned long long)opfor__rpc_int(r, "seed", 0), entries,
                   entries == 1 ? "y" : "ies");
        }
    }
    msgpack_sbuffer_destroy(&sb);
    opfor_client_close(c);
    return rc;
}

/* state, initiative, orders, close: [GAME] plus the common flags. */
static int game_cmd(int argc, char **argv, const char *cmd, const char *method, const char *help,
                    void (*print)(const msgpack_object *)) {
    gopts_t o = {.cmd = cmd};
    int rc;
    char about[512];
    snprintf(about, sizeof about, "%s\n\n" GAME_DEFAULT, help);
    const opfor_cli_opt_t opts[] = {GAME_OPTS(&o, "print one JSON document")};
    const opfor_cli_spec_t spec = {
        .cmd = cmd,
        .args = "[GAME]",
        .about = about,
        .opts = opts,
        .positional = opfor__game_arg,
        .ud = &o,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    return simple_call(cmd, &o, method, print);
}

int opfor_cmd_state(int argc, char **argv) {
    return game_cmd(argc, argv, "state", "game.state",
                    "Prints a game's position: turn, initiative, units, the last order, score.",
                    print_state);
}

int opfor_cmd_initiative(int argc, char **argv) {
    /* The game's ruleset's own `initiative` method, described by each ruleset that has it. */
    char help[768];
    size_t reg_n = 0, len = (size_t)snprintf(help, sizeof help,
                                             "Calls the game's ruleset's own initiative method "
                                             "and prints what happened.");
    const opfor_ruleset_entry_t *reg = opfor_ruleset_list(&reg_n);
    for (size_t r = 0; r < reg_n && len < sizeof help; r++) {
        const opfor_ruleset_t *rs = reg[r].rs;
        for (size_t i = 0; rs->methods && rs->methods[i] && len < sizeof help; i++)
            if (strcmp(rs->methods[i], "initiative") == 0 && rs->method_help && rs->method_help[i])
                len += (size_t)snprintf(help + len, sizeof help - len, "\n%s: %s", reg[r].name,
                                        rs->method_help[i]);
    }
    return game_cmd(argc, argv, "initiative", "initiative", help, print_ack);
}

int opfor_cmd_orders(int argc, char **argv) {
    return game_cmd(argc, argv, "orders", "ai.orders",
                    "Asks the AI for the orders of the non-player unit holding the initiative:\n"
                    "the unit, the action, where, the target, the scores needed, and why.",
                    print_order);
}

int opfor_cmd_undo(int argc, char **argv) {
    return game_cmd(argc, argv, "undo", "game.undo",
                    "Takes back the last report of a game (any client's), until the next press\n"
                    "of the initiative button or the next order; every client watching the\n"
                    "game is told. The same as `opfor report --undo`.",
                    print_ack);
}

int opfor_cmd_close(int argc, char **argv) {
    return game_cmd(argc, argv, "close", "game.close",
                    "Closes a game: it stays in the store (game.list) but takes no more "
                    "changes.",
                    print_ack);
}

/* ------------------------------------------------------------------ opfor report */

typedef struct kv {
    char unit[64]; /* unit name */
    char val[64];  /* what follows '=' */
} kv_t;

/* Splits "UNIT=VALUE" at its last '=' (VALUE "" when there is none); -1 when UNIT is not 1 to
 * 63 bytes, or when need_val and there is no '='. */
static int split_kv(const char *arg, kv_t *out, int need_val) {
    const char *eq = strrchr(arg, '=');
    if (!eq && need_val)
        return -1;
    size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
    if (n == 0 || n >= sizeof out->unit)
        return -1;
    memcpy(out->unit, arg, n);
    out->unit[n] = '\0';
    snprintf(out->val, sizeof out->val, "%s", eq ? eq + 1 : "");
    return 0;
}

static int parse_xy(const char *s, double *x, double *y) {
    return opfor_cli_parse_xy(s, x, y);
}

/* The checks of report's values (opfor_cli_opt_t.valid: 1 when v is right). */
static int xy_ok(const char *v) { /* --at X,Y */
    double x, y;
    return parse_xy(v, &x, &y) == 0;
}
static int move_ok(const char *v) { /* --move UNIT=X,Y */
    kv_t kv;
    return split_kv(v, &kv, 1) == 0 && xy_ok(kv.val);
}
static int morale_ok(const char *v) { /* --morale UNIT=RESULT */
    kv_t kv;
    return split_kv(v, &kv, 1) == 0;
}
static int off_ok(const char *v) { /* --off UNIT[=FATE] */
    kv_t kv;
    return split_kv(v, &kv, 0) == 0;
}
static int casualties_ok(const char *v) { /* --killed, --wounded UNIT=N */
    kv_t kv;
    long n;
    return split_kv(v, &kv, 1) == 0 && opfor_cli_parse_long(kv.val, &n) == 0 && n >= 0;
}

/* Reads a list of UNIT=VALUE (each already checked) into out. */
static void split_list(const opfor_cli_list_t *l, kv_t *out) {
    for (size_t k = 0; k < l->n; k++)
        split_kv(l->items[k], &out[k], 0);
}

/* The numbers a report names (docs/protocol.md, Counting once): the open order it answers, or
 * the state the user saw. Given on the command line, or read from the game now: a report of
 * moves, casualties, morale, units off the table or resolve names the current order (so a
 * second answer to it, from any client, is refused), any other report the log_seq now.
 * *seen_now gets the game's log_seq (for the advice after a refusal). */
static int report_numbers(opfor_client_t *c, const char *id, int answers, long *order, long *seen,
                          long *seen_now) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    opfor__game_params(&sb, id);
    const msgpack_object *st;
    int rc = opfor__rpc_call_cmd(c, "report", "game.state", &sb, &st);
    msgpack_sbuffer_destroy(&sb);
    if (rc)
        return rc;
    *seen_now = (long)opfor__rpc_int(st, "log_seq", 0);
    if (*order >= 0 || *seen >= 0)
        return 0;
    const msgpack_object *o = opfor__rpc_get(st, "order");
    if (answers && o && o->type == MSGPACK_OBJECT_MAP && opfor__rpc_int(o, "current", 0))
        *order = (long)opfor__rpc_int(o, "order_id", 0);
    else
        *seen = *seen_now;
    return 0;
}

/* Whether argv holds --form or --action (a typed report of any ruleset: cmd_table.c). */
static int typed_report(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (!strcmp(argv[i], "--form") || !strncmp(argv[i], "--form=", 7) ||
            !strcmp(argv[i], "--action") || !strncmp(argv[i], "--action=", 9))
            return 1;
    }
    return 0;
}

int opfor_cmd_report(int argc, char **argv) {
    if (typed_report(argc, argv))
        return opfor__cmd_report_form(argc, argv);
    gopts_t o = {.cmd = "report"};
    const char *acted = NULL, *at = NULL, *roll = NULL, *note = NULL;
    int resolve = 0, undo = 0, nmove = 0, ncas = 0, nmor = 0, noff = 0, rc;
    long order = -1, seen = -1, seen_now = 0, move_roll = 0;
    kv_t moves[MAX_LIST], mor[MAX_LIST], off[MAX_LIST];
    struct {
        char unit[64];
        long killed, wounded;
    } cas[MAX_LIST];
    const char *move_v[MAX_LIST], *mor_v[MAX_LIST], *off_v[MAX_LIST];
    const char *cas_v[2 * MAX_LIST], *cas_flag[2 * MAX_LIST];
    opfor_cli_list_t move_l = {move_v, NULL, MAX_LIST, 0}, mor_l = {mor_v, NULL, MAX_LIST, 0},
                     off_l = {off_v, NULL, MAX_LIST, 0}, cas_l = {cas_v, cas_flag, 2 * MAX_LIST, 0};
    const opfor_cli_opt_t opts[] = {
        {.name = "--acted",
         .type = OPFOR_CLI_STRING,
         .string = &acted,
         .once = 1,
         .arg = "UNIT",
         .help = "the player unit that used the initiative"},
        {.name = "--at",
         .type = OPFOR_CLI_STRING,
         .string = &at,
         .once = 1,
         .valid = xy_ok,
         .arg = "X,Y",
         .wants = "X,Y in inches",
         .help = "with --acted: where its centre now stands (X,Y; \"X Y\"\n"
                 "works too)"},
        {.name = "--move",
         .type = OPFOR_CLI_LIST,
         .list = &move_l,
         .valid = move_ok,
         .arg = "UNIT=X,Y",
         .wants = "UNIT=X,Y in inches (UNIT 1 to 63 bytes)",
         .help = "a unit's centre now stands at X,Y"},
        {.name = "--killed",
         .type = OPFOR_CLI_LIST,
         .list = &cas_l,
         .valid = casualties_ok,
         .arg = "UNIT=N",
         .wants = "UNIT=N with a whole number >= 0",
         .help = "N figures of UNIT were killed"},
        {.name = "--wounded",
         .type = OPFOR_CLI_LIST,
         .list = &cas_l,
         .valid = casualties_ok,
         .arg = "UNIT=N",
         .wants = "UNIT=N with a whole number >= 0",
         .help = "N figures of UNIT were wounded"},
        {.name = "--morale",
         .type = OPFOR_CLI_LIST,
         .list = &mor_l,
         .valid = morale_ok,
         .arg = "UNIT=R",
         .wants = "UNIT=RESULT (UNIT 1 to 63 bytes)",
         .help = "a morale result: solid, wavering, routed or surrendered"},
        {.name = "--off",
         .type = OPFOR_CLI_LIST,
         .list = &off_l,
         .valid = off_ok,
         .arg = "UNIT[=F]",
         .wants = "UNIT or UNIT=FATE (UNIT 1 to 63 bytes)",
         .help = "UNIT left the table: driven_off (default) or captured"},
        {.name = "--roll",
         .type = OPFOR_CLI_STRING,
         .string = &roll,
         .once = 1,
         .arg = "DICE",
         .help = "the daemon rolls DICE (\"2D6\") with the game's dice"},
        {.name = "--resolve",
         .type = OPFOR_CLI_FLAG,
         .flag = &resolve,
         .help = "the daemon resolves the open AI order with its dice"},
        {.name = "--move-roll",
         .type = OPFOR_CLI_WHOLE,
         .whole = &move_roll,
         .lo = 1,
         .hi = 3,
         .arg = "N",
         .help = "with --resolve: the D3 the table rolled for the order's move\n"
                 "(1 to 3); the move is resolved with that die"},
        {.name = "--note",
         .type = OPFOR_CLI_STRING,
         .string = &note,
         .once = 1,
         .arg = "TEXT",
         .help = "a note kept in the game's log"},
        {.name = "--order",
         .type = OPFOR_CLI_WHOLE,
         .whole = &order,
         .lo = 1,
         .hi = LONG_MAX,
         .arg = "N",
         .help = "the order this report answers (its log entry; default: the current one)"},
        {.name = "--seen",
         .type = OPFOR_CLI_WHOLE,
         .whole = &seen,
         .lo = 0,
         .hi = LONG_MAX,
         .arg = "N",
         .help = "the game's log entry you last saw (to add to a report already made)"},
        {.name = "--undo",
         .type = OPFOR_CLI_FLAG,
         .flag = &undo,
         .help = "take back the last report instead (until the next press)"},
        GAME_OPTS(&o, "print one JSON document"),
    };
    const opfor_cli_spec_t spec = {
        .cmd = "report",
        .usage = "[GAME] [--acted UNIT [--at X,Y]] [--move UNIT=X,Y]\n"
                 "                    [--killed UNIT=N] [--wounded UNIT=N] [--morale UNIT=RESULT]\n"
                 "                    [--off UNIT[=captured]] [--roll DICE]\n"
                 "                    [--resolve [--move-roll N]]\n"
                 "                    [--note TEXT] [--order N | --seen N] [--undo]\n"
                 "                    [--connect ADDR] [--token-file FILE] [--json]",
        .about = "Tells the daemon what happened at the table. The list options may repeat\n"
                 "(--killed and --wounded once per unit).\n"
                 "Coordinates are inches from the south-west corner. Nothing is applied when any\n"
                 "part is wrong; the error names the part.\n"
                 "A report counts once: one that gives the outcome of the current order names it\n"
                 "(--order, by default the current one), and once any client answered an order a\n"
                 "second answer is refused, saying which report answered it. To add to that\n"
                 "report give --seen N (the log entry it printed); --undo takes it back.\n"
                 "Any game's typed reports (every game of another ruleset plays with them):\n"
                 "opfor report --form NAME FIELD=VALUE ... (`opfor report --form x --help`).\n"
                 "\n" GAME_DEFAULT,
        .opts = opts,
        .positional = opfor__game_arg,
        .ud = &o,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    split_list(&move_l, moves);
    split_list(&mor_l, mor);
    split_list(&off_l, off);
    nmove = (int)move_l.n;
    nmor = (int)mor_l.n;
    noff = (int)off_l.n;
    for (size_t e = 0; e < cas_l.n; e++) {
        kv_t kv;
        long num;
        split_kv(cas_v[e], &kv, 1);
        opfor_cli_parse_long(kv.val, &num);
        int k = 0;
        while (k < ncas && strcmp(cas[k].unit, kv.unit) != 0)
            k++;
        if (k == ncas) {
            if (ncas >= MAX_LIST)
                return opfor_cli_usage_error("report: at most %d units with casualties", MAX_LIST);
            snprintf(cas[k].unit, sizeof cas[k].unit, "%s", kv.unit);
            cas[k].killed = cas[k].wounded = -1; /* -1: not given */
            ncas++;
        }
        long *dst = cas_flag[e][2] == 'k' ? &cas[k].killed : &cas[k].wounded;
        if (*dst >= 0)
            return opfor_cli_usage_error("report: %s given twice for %s (%ld, then %ld)",
                                         cas_flag[e], kv.unit, *dst, num);
        *dst = num;
    }
    if (at && !acted)
        return opfor_cli_usage_error("report: --at goes with --acted (use --move for others)");
    if (move_roll && !resolve)
        return opfor_cli_usage_error("report: --move-roll goes with --resolve (the daemon "
                                     "resolves the open order, its move with the table's die)");
    if (order >= 0 && seen >= 0)
        return opfor_cli_usage_error("report: give --order or --seen, not both");
    if (undo && (acted || nmove || ncas || nmor || noff || roll || resolve || note || order >= 0 ||
                 seen >= 0))
        return opfor_cli_usage_error("report: --undo takes back the last report: give it alone");
    if (undo) {
        const char *a[8];
        int k = 0;
        a[k++] = "undo";
        if (o.game)
            a[k++] = o.game;
        if (o.connect) {
            a[k++] = "--connect";
            a[k++] = o.connect;
        }
        if (o.token_file) {
            a[k++] = "--token-file";
            a[k++] = o.token_file;
        }
        if (o.json)
            a[k++] = "--json";
        a[k] = NULL;
        return opfor_cmd_undo(k, (char **)a);
    }
    if (acted && strlen(acted) == 1) /* it spends the initiative: no guessing from one letter */
        return opfor_cli_usage_error("report: --acted '%s' is too short to be sure which unit "
                                     "acted: give more of its name (`opfor state` lists them)",
                                     acted);
    if (!acted && !nmove && !ncas && !nmor && !noff && !roll && !resolve)
        return opfor_cli_usage_error("report: nothing to report: give --acted, --move, --killed, "
                                     "--wounded, --morale, --off, --roll or --resolve (see opfor "
                                     "report --help)");
    opfor_client_t *c = opfor__rpc_open_token(o.connect, o.token_file);
    if (!c)
        return OPFOR_EXIT_FAIL;
    char id[64];
    rc = opfor__game_resolve(c, "report", o.game, id, sizeof id);
    if (rc == 0)
        rc = report_numbers(c, id, nmove || ncas || nmor || noff || resolve, &order, &seen,
                            &seen_now);
    if (rc) {
        opfor_client_close(c);
        return rc;
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int n = 2 + !!acted + !!at + !!nmove + !!ncas + !!nmor + !!noff + !!roll + resolve + !!note +
            !!move_roll;
    msgpack_pack_map(&pk, (size_t)n);
    opfor_rpc_pack_cstr(&pk, "game");
    opfor_rpc_pack_cstr(&pk, id);
    opfor_rpc_pack_cstr(&pk, order >= 0 ? "order" : "seen");
    msgpack_pack_uint64(&pk, (uint64_t)(order >= 0 ? order : seen));
    double x, y;
    if (acted) {
        opfor_rpc_pack_cstr(&pk, "acted");
        opfor_rpc_pack_cstr(&pk, acted);
    }
    if (at) {
        parse_xy(at, &x, &y);
        opfor_rpc_pack_cstr(&pk, "at");
        msgpack_pack_array(&pk, 2);
        msgpack_pack_double(&pk, x);
        msgpack_pack_double(&pk, y);
    }
    if (nmove) {
        opfor_rpc_pack_cstr(&pk, "moves");
        msgpack_pack_array(&pk, (size_t)nmove);
        for (int i = 0; i < nmove; i++) {
            parse_xy(moves[i].val, &x, &y);
            msgpack_pack_map(&pk, 3);
            opfor_rpc_pack_cstr(&pk, "unit");
            opfor_rpc_pack_cstr(&pk, moves[i].unit);
            opfor_rpc_pack_cstr(&pk, "x");
            msgpack_pack_double(&pk, x);
            opfor_rpc_pack_cstr(&pk, "y");
            msgpack_pack_double(&pk, y);
        }
    }
    if (ncas) {
        opfor_rpc_pack_cstr(&pk, "casualties");
        msgpack_pack_array(&pk, (size_t)ncas);
        for (int i = 0; i < ncas; i++) {
            msgpack_pack_map(&pk, 3);
            opfor_rpc_pack_cstr(&pk, "unit");
            opfor_rpc_pack_cstr(&pk, cas[i].unit);
            opfor_rpc_pack_cstr(&pk, "killed");
            msgpack_pack_int64(&pk, cas[i].killed < 0 ? 0 : cas[i].killed);
            opfor_rpc_pack_cstr(&pk, "wounded");
            msgpack_pack_int64(&pk, cas[i].wounded < 0 ? 0 : cas[i].wounded);
        }
    }
    if (nmor) {
        opfor_rpc_pack_cstr(&pk, "morale");
        msgpack_pack_array(&pk, (size_t)nmor);
        for (int i = 0; i < nmor; i++) {
            msgpack_pack_map(&pk, 2);
            opfor_rpc_pack_cstr(&pk, "unit");
            opfor_rpc_pack_cstr(&pk, mor[i].unit);
            opfor_rpc_pack_cstr(&pk, "result");
            opfor_rpc_pack_cstr(&pk, mor[i].val);
        }
    }
    if (noff) {
        opfor_rpc_pack_cstr(&pk, "off_table");
        msgpack_pack_array(&pk, (size_t)noff);
        for (int i = 0; i < noff; i++) {
            msgpack_pack_map(&pk, off[i].val[0] ? 2 : 1);
            opfor_rpc_pack_cstr(&pk, "unit");
            opfor_rpc_pack_cstr(&pk, off[i].unit);
            if (off[i].val[0]) {
                opfor_rpc_pack_cstr(&pk, "fate");
                opfor_rpc_pack_cstr(&pk, off[i].val);
            }
        }
    }
    if (roll) {
        opfor_rpc_pack_cstr(&pk, "roll");
        opfor_rpc_pack_cstr(&pk, roll);
    }
    if (resolve) {
        opfor_rpc_pack_cstr(&pk, "resolve");
        msgpack_pack_true(&pk);
    }
    if (move_roll) {
        opfor_rpc_pack_cstr(&pk, "move_roll");
        msgpack_pack_int64(&pk, move_roll);
    }
    if (note) {
        opfor_rpc_pack_cstr(&pk, "note");
        opfor_rpc_pack_cstr(&pk, note);
    }
    const msgpack_object *res;
    rc = opfor__rpc_call_cmd(c, "report", "report", &sb, &res);
    if (rc == 0) {
        if (o.json) {
            opfor__rpc_print_json(stdout, res);
        } else {
            print_ack(res);
            long long now = (long long)opfor__rpc_int(res, "log_seq", 0);
            printf("(to add to this report: --seen %lld; to take it back: opfor undo)\n", now);
        }
    } else {
        const char *hint = opfor_client_error_hint(c);
        if (!strcmp(hint, "already_answered") || !strcmp(hint, "stale_state"))
            fprintf(stderr,
                    "opfor: report: the game is at log entry %ld: `opfor state` shows it; to add "
                    "to what was reported, run this again with --seen %ld; `opfor undo` takes "
                    "the last report back\n",
                    seen_now, seen_now);
    }
    msgpack_sbuffer_destroy(&sb);
    opfor_client_close(c);
    return rc;
}

/* ------------------------------------------------------------------ opfor watch */

typedef struct watch {
    int json;     /* one JSON object per line */
    long count;   /* events printed */
    long max;     /* stop after this many (0: never) */
    int64_t last; /* last seq seen */
    int closed;   /* 1 after the `closed` event: the game has no more to say */
} watch_t;

static void watch_event(watch_t *w, const msgpack_object *ev) {
    int64_t seq = opfor__rpc_int(ev, "seq", 0);
    if (seq <= w->last || (w->max && w->count >= w->max)) /* --count holds for kept ones too */
        return;
    w->last = seq;
    if (w->json)
        opfor__rpc_print_json(stdout, ev);
    else
        opfor__rpc_print_event(stdout, ev);
    fflush(stdout);
    w->count++;
    char kind[16];
    if (strcmp(opfor__rpc_str(ev, "kind", kind, sizeof kind), "closed") == 0)
        w->closed = 1;
}

static void on_notify(void *ud, const char *method, size_t len, const msgpack_object *params) {
    if (len == 5 && memcmp(method, "event", 5) == 0 && params)
        watch_event(ud, params);
}

/* Subscribes c to game id, printing the kept events after `after` (-1: none) that w has not
 * printed; w->last becomes the game's last event seq. Returns 0 or the exit code (printed). */
static int watch_subscribe(opfor_client_t *c, watch_t *w, const char *id, int64_t after) {
    opfor_client_on_notify(c, on_notify, w);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, after >= 0 ? 2 : 1);
    opfor_rpc_pack_cstr(&pk, "game");
    opfor_rpc_pack_cstr(&pk, id);
    if (after >= 0) {
        opfor_rpc_pack_cstr(&pk, "after");
        msgpack_pack_int64(&pk, after);
    }
    const msgpack_object *res;
    int rc = opfor__rpc_call_cmd(c, "watch", "subscribe", &sb, &res);
    msgpack_sbuffer_destroy(&sb);
    if (rc)
        return rc;
    int64_t now_seq = opfor__rpc_int(res, "seq", 0);
    if (opfor__rpc_int(res, "missed", 0) && !w->json)
        printf("(some events after %lld are no longer kept: `opfor state %s` shows the game)\n",
               (long long)after, id);
    const msgpack_object *evs = opfor__rpc_get(res, "events");
    for (uint32_t i = 0; evs && evs->type == MSGPACK_OBJECT_ARRAY && i < evs->via.array.size; i++)
        watch_event(w, &evs->via.array.ptr[i]);
    if (w->last < now_seq)
        w->last = now_seq;
    return 0;
}

int opfor_cmd_watch(int argc, char **argv) {
    gopts_t o = {.cmd = "watch"};
    long after = -1, count = 0;
    double timeout = 0;
    int rc;
    const opfor_cli_opt_t opts[] = {
        {.name = "--after",
         .type = OPFOR_CLI_WHOLE,
         .whole = &after,
         .lo = 0,
         .hi = LONG_MAX,
         .arg = "SEQ",
         .help = "first print the kept events after SEQ"},
        {.name = "--count",
         .type = OPFOR_CLI_WHOLE,
         .whole = &count,
         .lo = 1,
         .hi = LONG_MAX,
         .arg = "N",
         .help = "stop after N events"},
        {.name = "--timeout",
         .type = OPFOR_CLI_NUMBER,
         .number = &timeout,
         .min = 0,
         .max = HUGE_VAL,
         .above = 1,
         .arg = "SECONDS",
         .help = "stop after SECONDS"},
        GAME_OPTS(&o, "one JSON object per event and line"),
    };
    const opfor_cli_spec_t spec = {
        .cmd = "watch",
        .args = "[GAME]",
        .about = "Streams a game's events as they happen (one line each; with --json one\n"
                 "JSON object per line). --after SEQ first prints the kept events after SEQ\n"
                 "(a reconnecting watcher passes the last seq it saw); --count stops after N\n"
                 "events, --timeout after SECONDS; it also stops when the game is closed.\n"
                 "When the connection drops (a daemon restart) it connects again after 1, 2,\n"
                 "4 ... up to 30 s and goes on from the last event it printed.\n" GAME_DEFAULT,
        .opts = opts,
        .positional = opfor__game_arg,
        .ud = &o,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    opfor__rpc_dest_t dest;
    opfor_client_t *c = opfor__rpc_open_dest(o.connect, o.token_file, &dest);
    if (!c)
        return OPFOR_EXIT_FAIL;
    char id[64];
    rc = opfor__game_resolve(c, "watch", o.game, id, sizeof id);
    if (rc) {
        opfor_client_close(c);
        return rc;
    }
    watch_t w = {o.json, 0, count, after >= 0 ? after : 0, 0};
    rc = watch_subscribe(c, &w, id, after);
    if (rc) {
        opfor_client_close(c);
        return rc;
    }
    if (!o.json && !w.closed && (!w.max || w.count < w.max))
        fprintf(stderr, "watching game %s from event %lld (Ctrl-C stops)\n", id, (long long)w.last);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = OPFOR_EXIT_OK;
    int quiet_s = 0; /* a ping a minute keeps the daemon's idle timeout away */
    while (!w.closed && (!w.max || w.count < w.max)) {
        int lost = 0;
        if (++quiet_s >= 60) {
            quiet_s = 0;
            lost = opfor_client_call(c, "ping", NULL, NULL, NULL) < 0;
        }
        int wait = 1000;
        if (timeout > 0) {
            clock_gettime(CLOCK_MONOTONIC, &t1);
            double left = timeout - ((double)(t1.tv_sec - t0.tv_sec) +
                                     (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
            if (left <= 0)
                break;
            wait = left < 1.0 ? (int)(left * 1000) + 1 : 1000;
        }
        if (!lost && opfor_client_poll(c, wait) >= 0)
            continue;
        /* the connection is gone (a daemon restart): connect again and subscribe from the
           last event printed, so nothing is missed or printed twice */
        char why[256];
        snprintf(why, sizeof why, "%s", opfor_client_error_message(c));
        opfor_client_close(c);
        long left_ms = 0; /* --timeout holds while reconnecting too */
        if (timeout > 0) {
            clock_gettime(CLOCK_MONOTONIC, &t1);
            left_ms = (long)((timeout - ((double)(t1.tv_sec - t0.tv_sec) +
                                         (double)(t1.tv_nsec - t0.tv_nsec) / 1e9)) *
                             1000);
            if (left_ms <= 0)
                left_ms = 1;
        }
        c = opfor__rpc_redial(&dest, "watch", why, 0, left_ms);
        if (!c || watch_subscribe(c, &w, id, w.last) != 0) {
            rc = opfor_cli_fail("watch: `opfor watch %s --after %lld` goes on from the last "
                                "event seen",
                                id, (long long)w.last);
            break;
        }
        if (!o.json)
            fprintf(stderr, "watching game %s again from event %lld\n", id, (long long)w.last);
    }
    opfor_client_close(c);
    return rc;
}
