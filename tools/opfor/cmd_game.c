/* tools/opfor/cmd_game.c — the `opfor` commands for games kept by the daemon (opford):
 *
 *   opfor new [--scenario NAME|FILE] [--mode M] [--seed S] [--level L] [--id ID]
 *   opfor games [--status S]
 *   opfor state [GAME]            opfor initiative [GAME]        opfor orders [GAME]
 *   opfor report [GAME] [--acted UNIT [--at X,Y]] [--move UNIT=X,Y] [--killed UNIT=N]
 *                [--wounded UNIT=N] [--morale UNIT=RESULT] [--off UNIT[=captured]]
 *                [--roll DICE] [--resolve] [--note TEXT]
 *   opfor watch [GAME] [--after SEQ] [--count N] [--timeout SECONDS]
 *   opfor close [GAME]
 *
 * Every command takes --connect ADDR (default: $OPFOR_SOCKET or the user's opford socket),
 * --token-file FILE (default: $OPFOR_TOKEN) and --json (one JSON document; `watch` prints one
 * JSON object per line, per event). GAME may be left out: the most recently changed active
 * game is meant. Each is one or two RPC calls
 * (docs/protocol.md); all game logic stays in the daemon.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "game_rpc.h"
#include "opfor/rpc.h"

#define MAX_LIST 32

/* Options every game command shares. */
typedef struct gopts {
    const char *connect;    /* --connect ADDR */
    const char *token_file; /* --token-file FILE */
    const char *game;       /* GAME, or NULL */
    int json;               /* --json */
} gopts_t;

/* Handles --connect, --json and GAME; returns 1 when argv[*i] was one of them, 0 when not,
 * or -1 after a usage error was printed. */
static int common_arg(const char *cmd, int argc, char **argv, int *i, gopts_t *o, int takes_game) {
    const char *a = argv[*i];
    if (strcmp(a, "--json") == 0) {
        o->json = 1;
        return 1;
    }
    if (strcmp(a, "--connect") == 0) {
        if (++*i >= argc) {
            opfor_cli_usage_error("%s: --connect needs an address (unix:PATH, PATH or "
                                  "tcp://HOST:PORT)",
                                  cmd);
            return -1;
        }
        o->connect = argv[*i];
        return 1;
    }
    if (strcmp(a, "--token-file") == 0) {
        if (++*i >= argc) {
            opfor_cli_usage_error("%s: --token-file needs a file (the daemon's token, mode 0600)",
                                  cmd);
            return -1;
        }
        o->token_file = argv[*i];
        return 1;
    }
    if (takes_game && a[0] != '-' && !o->game) {
        o->game = a;
        return 1;
    }
    return 0;
}

/* The options every game command takes, for the end of its --help. */
#define CONN_HELP                                                                                  \
    "  --connect ADDR        the daemon: unix:PATH, PATH or tcp://HOST:PORT\n"                     \
    "                        (default: $OPFOR_SOCKET, else the local opford socket)\n"             \
    "  --token-file FILE     the daemon's token (a file of mode 0600), needed over TCP when\n"     \
    "                        opford runs with --token-file (default: $OPFOR_TOKEN)\n"

static int unknown(const char *cmd, const char *a) {
    return opfor_cli_usage_error("%s: unknown argument '%s' (see opfor %s --help)", cmd, a, cmd);
}

/* A params map {"game": id} into sb. */
static void params_game(msgpack_sbuffer *sb, const char *id) {
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 1);
    opfor_rpc_pack_cstr(&pk, "game");
    opfor_rpc_pack_cstr(&pk, id);
}

/* GAME, or the most recently changed active game. Writes it into buf; prints and returns
 * OPFOR_EXIT_FAIL when there is none. */
static int resolve_game(opfor_client_t *c, const char *cmd, const char *given, char *buf,
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

/* Connects, finds the game, calls method with {"game": id}, prints the result. */
static int simple_call(const char *cmd, const gopts_t *o, const char *method,
                       void (*print)(const msgpack_object *res)) {
    opfor_client_t *c = opfor__rpc_open_token(o->connect, o->token_file);
    if (!c)
        return OPFOR_EXIT_FAIL;
    char id[64];
    int rc = resolve_game(c, cmd, o->game, id, sizeof id);
    if (rc == 0) {
        if (strcmp(method, "ai.orders") == 0)
            opfor_client_set_timeout(c, 120000);
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        params_game(&sb, id);
        const msgpack_object *res;
        rc = opfor__rpc_call_cmd(c, cmd, method, &sb, &res);
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

static void print_events_of(const msgpack_object *res) {
    const msgpack_object *evs = opfor__rpc_get(res, "events");
    for (uint32_t i = 0; evs && evs->type == MSGPACK_OBJECT_ARRAY && i < evs->via.array.size; i++)
        opfor__rpc_print_event(stdout, &evs->via.array.ptr[i]);
}

static void print_ack(const msgpack_object *res) {
    char buf[64];
    print_events_of(res);
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

static void new_help(FILE *f) {
    fprintf(f, "usage: opfor new [--scenario NAME|FILE] [--mode patrol|competitive] [--seed S]\n"
               "                 [--level LEVEL] [--id ID] [--connect ADDR]\n"
               "                 [--token-file FILE] [--json]\n"
               "\n"
               "Starts a game in the daemon (opford) and prints its id and opening position.\n"
               "The daemon keeps the game (its log survives restarts); the other game commands\n"
               "(initiative, report, orders, state, watch, close) take its id.\n"
               "\n"
               "options:\n"
               "  --scenario NAME|FILE  a built-in scenario (patrol_default, competitive_default)\n"
               "                        or a scenario file, sent to the daemon as YAML\n"
               "                        (default: patrol_default)\n"
               "  --mode M              patrol or competitive (default: the scenario's)\n"
               "  --seed S              the game's seed, a whole number >= 0 (default: random)\n"
               "  --level LEVEL         novice, standard, veteran, ruthless or challenge\n"
               "                        (--difficulty is the old name, still accepted)\n"
               "  --id ID               the game's id (letters, digits, - _ .; default "
               "generated)\n" CONN_HELP "  --json                print one JSON document\n");
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
    gopts_t o = {0};
    const char *scenario = NULL, *mode = NULL, *diff = NULL, *id = NULL;
    long seed = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r = common_arg("new", argc, argv, &i, &o, 0);
        if (r < 0)
            return OPFOR_EXIT_USAGE;
        if (r)
            continue;
        if (opfor_cli_is_help(a)) {
            new_help(stdout);
            return OPFOR_EXIT_OK;
        }
        const char **dst = strcmp(a, "--scenario") == 0     ? &scenario
                           : strcmp(a, "--mode") == 0       ? &mode
                           : strcmp(a, "--level") == 0      ? &diff
                           : strcmp(a, "--difficulty") == 0 ? &diff
                           : strcmp(a, "--id") == 0         ? &id
                                                            : NULL;
        if (dst) {
            if (++i >= argc)
                return opfor_cli_usage_error("new: %s needs a value", a);
            *dst = argv[i];
        } else if (strcmp(a, "--seed") == 0) {
            if (++i >= argc || opfor_cli_parse_long(argv[i], &seed) != 0 || seed < 0)
                return opfor_cli_usage_error("new: --seed needs a whole number >= 0");
        } else {
            return unknown("new", a);
        }
    }
    if (mode && strcmp(mode, "patrol") != 0 && strcmp(mode, "competitive") != 0)
        return opfor_cli_usage_error("new: --mode must be patrol or competitive");
    char *yaml = NULL;
    size_t ylen = 0;
    char stem[128] = "";
    struct stat st;
    size_t sl = scenario ? strlen(scenario) : 0;
    if (scenario && stat(scenario, &st) != 0 &&
        (strchr(scenario, '/') || (sl > 5 && strcmp(scenario + sl - 5, ".yaml") == 0) ||
         (sl > 4 && strcmp(scenario + sl - 4, ".yml") == 0)))
        return opfor_cli_fail("new: --scenario %s: no such file (built-in scenarios: "
                              "patrol_default, competitive_default)",
                              scenario);
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
    int n = (scenario ? 1 : 0) + (yaml ? 1 : 0) + (mode ? 1 : 0) + (diff ? 1 : 0) + (id ? 1 : 0) +
            (seed >= 0 ? 1 : 0);
    msgpack_pack_map(&pk, (size_t)n);
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
    int rc = opfor__rpc_call_cmd(c, "new", "game.new", &sb, &res);
    if (rc == 0) {
        if (o.json) {
            opfor__rpc_print_json(stdout, res);
        } else {
            char gid[64];
            printf("New game %s\n", opfor__rpc_str(res, "game", gid, sizeof gid));
            opfor__rpc_print_state(stdout, res);
            printf("Next: `opfor initiative %s` presses the initiative button.\n", gid);
        }
    }
    msgpack_sbuffer_destroy(&sb);
    opfor_client_close(c);
    return rc;
}

/* ------------------------------------------------------------------ games, state, ... */

int opfor_cmd_games(int argc, char **argv) {
    gopts_t o = {0};
    const char *status = NULL;
    for (int i = 1; i < argc; i++) {
        int r = common_arg("games", argc, argv, &i, &o, 0);
        if (r < 0)
            return OPFOR_EXIT_USAGE;
        if (r)
            continue;
        if (opfor_cli_is_help(argv[i])) {
            printf("usage: opfor games [--status active|finished|closed] [--connect ADDR]\n"
                   "                   [--token-file FILE] [--json]\n\n"
                   "Lists the daemon's saved games, most recently changed first.\n\n"
                   "options:\n"
                   "  --status S            only the active, finished or closed games\n" CONN_HELP
                   "  --json                print one JSON document\n");
            return OPFOR_EXIT_OK;
        }
        if (strcmp(argv[i], "--status") == 0) {
            if (++i >= argc || (strcmp(argv[i], "active") && strcmp(argv[i], "finished") &&
                                strcmp(argv[i], "closed")))
                return opfor_cli_usage_error("games: --status must be active, finished or "
                                             "closed");
            status = argv[i];
        } else {
            return unknown("games", argv[i]);
        }
    }
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
    int rc = opfor__rpc_call_cmd(c, "games", "game.list", &sb, &res);
    if (rc == 0 && o.json) {
        opfor__rpc_print_json(stdout, res);
    } else if (rc == 0) {
        const msgpack_object *g = opfor__rpc_get(res, "games");
        uint32_t n = g && g->type == MSGPACK_OBJECT_ARRAY ? g->via.array.size : 0;
        if (!n)
            printf("No games: start one with `opfor new`.\n");
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
    gopts_t o = {0};
    for (int i = 1; i < argc; i++) {
        int r = common_arg(cmd, argc, argv, &i, &o, 1);
        if (r < 0)
            return OPFOR_EXIT_USAGE;
        if (r)
            continue;
        if (opfor_cli_is_help(argv[i])) {
            printf("usage: opfor %s [GAME] [--connect ADDR] [--token-file FILE] [--json]\n\n%s\n"
                   "GAME defaults to the most recently changed active game.\n\n"
                   "options:\n" CONN_HELP "  --json                print one JSON document\n",
                   cmd, help);
            return OPFOR_EXIT_OK;
        }
        return unknown(cmd, argv[i]);
    }
    return simple_call(cmd, &o, method, print);
}

int opfor_cmd_state(int argc, char **argv) {
    return game_cmd(argc, argv, "state", "game.state",
                    "Prints a game's position: turn, initiative, units, the last order, score.",
                    print_state);
}

int opfor_cmd_initiative(int argc, char **argv) {
    return game_cmd(argc, argv, "initiative", "patrol.initiative",
                    "Presses the initiative button (Viktoria! XV.A; competitive games roll a\n"
                    "D6 each, V.A) and prints what happened: who may act, what was spotted.",
                    print_ack);
}

int opfor_cmd_orders(int argc, char **argv) {
    return game_cmd(argc, argv, "orders", "ai.orders",
                    "Asks the AI for the orders of the non-player unit holding the initiative:\n"
                    "the unit, the action, where, the target, the scores needed, and why.",
                    print_order);
}

int opfor_cmd_close(int argc, char **argv) {
    return game_cmd(argc, argv, "close", "game.close",
                    "Closes a game: it stays in the store (game.list) but takes no more "
                    "changes.",
                    print_ack);
}

/* ------------------------------------------------------------------ opfor report */

static void report_help(FILE *f) {
    fprintf(f, "usage: opfor report [GAME] [--acted UNIT [--at X,Y]] [--move UNIT=X,Y]\n"
               "                    [--killed UNIT=N] [--wounded UNIT=N] [--morale UNIT=RESULT]\n"
               "                    [--off UNIT[=captured]] [--roll DICE] [--resolve]\n"
               "                    [--note TEXT] [--connect ADDR] [--token-file FILE]\n"
               "                    [--json]\n"
               "\n"
               "Tells the daemon what happened at the table. The list options may repeat\n"
               "(--killed and --wounded once per unit).\n"
               "Coordinates are inches from the south-west corner. Nothing is applied when any\n"
               "part is wrong; the error names the part.\n"
               "\n"
               "  --acted UNIT          the player unit that used the initiative\n"
               "  --at X,Y              with --acted: where its centre now stands\n"
               "  --move UNIT=X,Y       a unit's centre now stands at X,Y\n"
               "  --killed UNIT=N       N figures of UNIT were killed\n"
               "  --wounded UNIT=N      N figures of UNIT were wounded\n"
               "  --morale UNIT=R       a morale result: solid, wavering, routed or surrendered\n"
               "  --off UNIT[=F]        UNIT left the table: driven_off (default) or captured\n"
               "  --roll DICE           the daemon rolls DICE (\"2D6\") with the game's dice\n"
               "  --resolve             the daemon resolves the open AI order with its dice\n"
               "  --note TEXT           a note kept in the game's log\n"
               "\n"
               "GAME defaults to the most recently changed active game.\n"
               "\n" CONN_HELP "  --json                print one JSON document\n");
}

typedef struct kv {
    char unit[64]; /* unit name */
    char val[64];  /* what follows '=' */
} kv_t;

static int split_kv(const char *cmd, const char *flag, const char *arg, kv_t *out, int need_val) {
    const char *eq = strrchr(arg, '=');
    if (!eq && need_val)
        return opfor_cli_usage_error("%s: %s needs UNIT=VALUE", cmd, flag);
    size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
    if (n == 0 || n >= sizeof out->unit)
        return opfor_cli_usage_error("%s: %s needs a unit name of 1 to 63 bytes", cmd, flag);
    memcpy(out->unit, arg, n);
    out->unit[n] = '\0';
    snprintf(out->val, sizeof out->val, "%s", eq ? eq + 1 : "");
    return 0;
}

static int parse_xy(const char *s, double *x, double *y) {
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    char *comma = strchr(buf, ',');
    if (!comma)
        return -1;
    *comma = '\0';
    return opfor_cli_parse_double(buf, x) || opfor_cli_parse_double(comma + 1, y) ? -1 : 0;
}

int opfor_cmd_report(int argc, char **argv) {
    gopts_t o = {0};
    const char *acted = NULL, *at = NULL, *roll = NULL, *note = NULL;
    int resolve = 0, nmove = 0, ncas = 0, nmor = 0, noff = 0;
    kv_t moves[MAX_LIST], mor[MAX_LIST], off[MAX_LIST];
    struct {
        char unit[64];
        long killed, wounded;
    } cas[MAX_LIST];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r = common_arg("report", argc, argv, &i, &o, 1);
        if (r < 0)
            return OPFOR_EXIT_USAGE;
        if (r)
            continue;
        if (opfor_cli_is_help(a)) {
            report_help(stdout);
            return OPFOR_EXIT_OK;
        }
        if (strcmp(a, "--resolve") == 0) {
            resolve = 1;
            continue;
        }
        if (i + 1 >= argc)
            return strncmp(a, "--", 2) == 0 ? opfor_cli_usage_error("report: %s needs a value", a)
                                            : unknown("report", a);
        const char *v = argv[++i];
        const char **once = strcmp(a, "--acted") == 0  ? &acted
                            : strcmp(a, "--at") == 0   ? &at
                            : strcmp(a, "--roll") == 0 ? &roll
                            : strcmp(a, "--note") == 0 ? &note
                                                       : NULL;
        if (once && *once)
            return opfor_cli_usage_error("report: %s given twice ('%s', then '%s')", a, *once, v);
        if (strcmp(a, "--acted") == 0) {
            acted = v;
        } else if (strcmp(a, "--at") == 0) {
            double x, y;
            if (parse_xy(v, &x, &y))
                return opfor_cli_usage_error("report: --at needs X,Y in inches");
            at = v;
        } else if (strcmp(a, "--roll") == 0) {
            roll = v;
        } else if (strcmp(a, "--note") == 0) {
            note = v;
        } else if (strcmp(a, "--move") == 0 || strcmp(a, "--morale") == 0 ||
                   strcmp(a, "--off") == 0) {
            int *n = a[2] == 'm' && a[3] == 'o' && a[4] == 'v' ? &nmove
                     : a[2] == 'm'                             ? &nmor
                                                               : &noff;
            kv_t *list = n == &nmove ? moves : n == &nmor ? mor : off;
            if (*n >= MAX_LIST)
                return opfor_cli_usage_error("report: at most %d %s", MAX_LIST, a);
            if (split_kv("report", a, v, &list[*n], n != &noff))
                return OPFOR_EXIT_USAGE;
            double x, y;
            if (n == &nmove && parse_xy(list[*n].val, &x, &y))
                return opfor_cli_usage_error("report: --move needs UNIT=X,Y in inches");
            (*n)++;
        } else if (strcmp(a, "--killed") == 0 || strcmp(a, "--wounded") == 0) {
            kv_t kv;
            long num;
            if (split_kv("report", a, v, &kv, 1))
                return OPFOR_EXIT_USAGE;
            if (opfor_cli_parse_long(kv.val, &num) != 0 || num < 0)
                return opfor_cli_usage_error("report: %s needs UNIT=N with a whole number >= 0", a);
            int k = 0;
            while (k < ncas && strcmp(cas[k].unit, kv.unit) != 0)
                k++;
            if (k == ncas) {
                if (ncas >= MAX_LIST)
                    return opfor_cli_usage_error("report: at most %d units with casualties",
                                                 MAX_LIST);
                snprintf(cas[k].unit, sizeof cas[k].unit, "%s", kv.unit);
                cas[k].killed = cas[k].wounded = -1; /* -1: not given */
                ncas++;
            }
            long *dst = a[2] == 'k' ? &cas[k].killed : &cas[k].wounded;
            if (*dst >= 0)
                return opfor_cli_usage_error("report: %s given twice for %s (%ld, then %ld)", a,
                                             kv.unit, *dst, num);
            *dst = num;
        } else {
            return unknown("report", a);
        }
    }
    if (at && !acted)
        return opfor_cli_usage_error("report: --at goes with --acted (use --move for others)");
    if (!acted && !nmove && !ncas && !nmor && !noff && !roll && !resolve)
        return opfor_cli_usage_error("report: nothing to report: give --acted, --move, --killed, "
                                     "--wounded, --morale, --off, --roll or --resolve (see opfor "
                                     "report --help)");
    opfor_client_t *c = opfor__rpc_open_token(o.connect, o.token_file);
    if (!c)
        return OPFOR_EXIT_FAIL;
    char id[64];
    int rc = resolve_game(c, "report", o.game, id, sizeof id);
    if (rc) {
        opfor_client_close(c);
        return rc;
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int n = 1 + !!acted + !!at + !!nmove + !!ncas + !!nmor + !!noff + !!roll + resolve + !!note;
    msgpack_pack_map(&pk, (size_t)n);
    opfor_rpc_pack_cstr(&pk, "game");
    opfor_rpc_pack_cstr(&pk, id);
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
    if (note) {
        opfor_rpc_pack_cstr(&pk, "note");
        opfor_rpc_pack_cstr(&pk, note);
    }
    const msgpack_object *res;
    rc = opfor__rpc_call_cmd(c, "report", "report", &sb, &res);
    if (rc == 0) {
        if (o.json)
            opfor__rpc_print_json(stdout, res);
        else
            print_ack(res);
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

int opfor_cmd_watch(int argc, char **argv) {
    gopts_t o = {0};
    long after = -1, count = 0;
    double timeout = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r = common_arg("watch", argc, argv, &i, &o, 1);
        if (r < 0)
            return OPFOR_EXIT_USAGE;
        if (r)
            continue;
        if (opfor_cli_is_help(a)) {
            printf("usage: opfor watch [GAME] [--after SEQ] [--count N] [--timeout SECONDS]\n"
                   "                   [--connect ADDR] [--token-file FILE] [--json]\n\n"
                   "Streams a game's events as they happen (one line each; with --json one\n"
                   "JSON object per line). --after SEQ first prints the kept events after SEQ\n"
                   "(a reconnecting watcher passes the last seq it saw); --count stops after N\n"
                   "events, --timeout after SECONDS; it also stops when the game is closed.\n"
                   "GAME defaults to the most recently changed active game.\n\n"
                   "options:\n" CONN_HELP
                   "  --json                one JSON object per event and line\n");
            return OPFOR_EXIT_OK;
        }
        if (strcmp(a, "--after") == 0) {
            if (++i >= argc || opfor_cli_parse_long(argv[i], &after) != 0 || after < 0)
                return opfor_cli_usage_error("watch: --after needs a whole number >= 0");
        } else if (strcmp(a, "--count") == 0) {
            if (++i >= argc || opfor_cli_parse_long(argv[i], &count) != 0 || count < 1)
                return opfor_cli_usage_error("watch: --count needs a whole number >= 1");
        } else if (strcmp(a, "--timeout") == 0) {
            if (++i >= argc || opfor_cli_parse_double(argv[i], &timeout) != 0 || timeout <= 0)
                return opfor_cli_usage_error("watch: --timeout needs seconds > 0");
        } else {
            return unknown("watch", a);
        }
    }
    opfor_client_t *c = opfor__rpc_open_token(o.connect, o.token_file);
    if (!c)
        return OPFOR_EXIT_FAIL;
    char id[64];
    int rc = resolve_game(c, "watch", o.game, id, sizeof id);
    if (rc) {
        opfor_client_close(c);
        return rc;
    }
    watch_t w = {o.json, 0, count, after >= 0 ? after : 0, 0};
    opfor_client_on_notify(c, on_notify, &w);
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
    rc = opfor__rpc_call_cmd(c, "watch", "subscribe", &sb, &res);
    msgpack_sbuffer_destroy(&sb);
    if (rc) {
        opfor_client_close(c);
        return rc;
    }
    int64_t now_seq = opfor__rpc_int(res, "seq", 0);
    if (opfor__rpc_int(res, "missed", 0) && !o.json)
        printf("(some events after %ld are no longer kept: `opfor state %s` shows the game)\n",
               after, id);
    const msgpack_object *evs = opfor__rpc_get(res, "events");
    for (uint32_t i = 0; evs && evs->type == MSGPACK_OBJECT_ARRAY && i < evs->via.array.size; i++)
        watch_event(&w, &evs->via.array.ptr[i]);
    if (w.last < now_seq)
        w.last = now_seq;
    if (!o.json && !w.closed && (!w.max || w.count < w.max))
        fprintf(stderr, "watching game %s from event %lld (Ctrl-C stops)\n", id,
                (long long)now_seq);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = OPFOR_EXIT_OK;
    int quiet_s = 0; /* a ping a minute keeps the daemon's idle timeout away */
    while (!w.closed && (!w.max || w.count < w.max)) {
        if (++quiet_s >= 60) {
            quiet_s = 0;
            if (opfor_client_call(c, "ping", NULL, NULL, NULL) < 0) {
                rc = opfor_cli_fail(
                    "watch: %s (`opfor watch %s --after %lld` goes on from the last event "
                    "seen)",
                    opfor_client_error_message(c), id, (long long)w.last);
                break;
            }
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
        int r = opfor_client_poll(c, wait);
        if (r < 0) {
            rc = opfor_cli_fail(
                "watch: %s (`opfor watch %s --after %lld` goes on from the last event "
                "seen)",
                opfor_client_error_message(c), id, (long long)w.last);
            break;
        }
    }
    opfor_client_close(c);
    return rc;
}
