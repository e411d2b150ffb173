/* rulesets/viktoria/cli/cmd_patrol_remote.c — `opfor patrol --connect ADDR`: the terminal Patrol
 * Mode game (Viktoria! XV) played against the daemon instead of in this process.
 *
 *   opfor patrol --connect ADDR [--token-file FILE] [--scenario NAME|FILE] [--seed S]
 *                [--level L] [--game ID]
 *
 * The same line commands as the local game (i, a, r, m, off, cap, s, u, q, help) plus
 * `resolve` (opford rolls the open order's dice) and `roll DICE`. Each becomes one RPC call
 * (docs/protocol.md); the daemon keeps the game, so quitting leaves it saved and `--game ID`
 * takes it up again, from this terminal or any other client. When the enemy gets the
 * initiative the AI's orders are asked for at once.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_patrol_int.h"
#include "game_rpc.h"
#include "opfor/rpc.h"

#define LINE_LEN 512
#define MAX_WORDS 24

typedef struct remote {
    opfor_client_t *c; /* the daemon */
    char game[64];     /* the game's id */
    int over;          /* 1 once the game finished or was closed */
    int interactive;   /* stdin is a terminal: prompts */
} remote_t;

static void help(void) {
    printf(
        "commands (one per line; the daemon keeps the game):\n"
        "  i                        press the initiative button (the AI's orders follow\n"
        "                           when the enemy gets it)\n"
        "  a UNIT [at X Y]          your unit UNIT used the initiative (now at X Y)\n"
        "  r UNIT killed N [wounded M]   casualties of UNIT (either side)\n"
        "  m UNIT X Y               UNIT's centre now stands at X Y (inches from the SW corner)\n"
        "  morale UNIT RESULT       solid, wavering, routed or surrendered\n"
        "  off UNIT | cap UNIT      UNIT left the table | was captured\n"
        "  resolve                  opford rolls the open order's dice and reports\n"
        "  roll DICE                opford rolls DICE (\"2D6\") with the game's dice\n"
        "  s | u                    the score | the units and the game\n"
        "  q                        leave (the game stays saved: --game ID resumes it)\n"
        "UNIT is a unit's name, or the start of one, in any case; quote a name with\n"
        "spaces if you like (\"Jager Picket\").\n");
}

/* Joins words[from..to) with spaces. */
static void join(char **w, int from, int to, char *buf, size_t n) {
    buf[0] = '\0';
    for (int i = from; i < to; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", i > from ? " " : "", w[i]);
    }
}

static void check_over(remote_t *r, const msgpack_object *res) {
    char st[32];
    opfor__rpc_str(res, "status", st, sizeof st);
    if (st[0] && strcmp(st, "active") != 0)
        r->over = 1;
}

/* Prints the events of a mutation's answer; asks for orders when the enemy holds the
 * initiative. */
/* Starts the params map {game: ID, ...} in a new sb, with room for nkeys more keys that the
 * caller packs with pk; the caller destroys sb. */
static void game_params(const remote_t *r, msgpack_sbuffer *sb, msgpack_packer *pk, size_t nkeys) {
    msgpack_sbuffer_init(sb);
    msgpack_packer_init(pk, sb, msgpack_sbuffer_write);
    msgpack_pack_map(pk, nkeys + 1);
    opfor_rpc_pack_cstr(pk, "game");
    opfor_rpc_pack_cstr(pk, r->game);
}

static void after_ack(remote_t *r, const msgpack_object *res) {
    const msgpack_object *evs = opfor__rpc_get(res, "events");
    for (uint32_t i = 0; evs && evs->type == MSGPACK_OBJECT_ARRAY && i < evs->via.array.size; i++)
        opfor__rpc_print_event(stdout, &evs->via.array.ptr[i]);
    check_over(r, res);
    char pending[16];
    opfor__rpc_str(res, "pending", pending, sizeof pending);
    if (r->over || strcmp(pending, "enemy") != 0) {
        if (strcmp(pending, "player") == 0)
            printf("  Report which unit acted with `a UNIT [at X Y]`, then casualties with `r`.\n");
        return;
    }
    msgpack_sbuffer sb;
    msgpack_packer pk;
    game_params(r, &sb, &pk, 0);
    const msgpack_object *order;
    if (opfor__rpc_call(r->c, "patrol", "ai.orders", &sb, &order) == 0) {
        opfor__rpc_print_order(stdout, order);
        printf(
            "  Carry it out and report the outcome (`r`, `m`, `morale`, `off`), or `resolve`.\n");
    }
    msgpack_sbuffer_destroy(&sb);
}

/* Sends a report whose body pack() writes after "game"; nkeys counts the body's keys. */
static void send_report(remote_t *r, int nkeys, void (*pack)(msgpack_packer *pk, void *ud),
                        void *ud) {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    game_params(r, &sb, &pk, (size_t)nkeys);
    pack(&pk, ud);
    const msgpack_object *res;
    if (opfor__rpc_call(r->c, "patrol", "report", &sb, &res) == 0)
        after_ack(r, res);
    msgpack_sbuffer_destroy(&sb);
}

typedef struct rep_args {
    const char *unit; /* unit name */
    double x, y;      /* a point */
    int has_pt;       /* 1 when x, y are given */
    long killed, wounded;
    const char *text; /* result, fate or dice */
    int kind;         /* which report */
} rep_args_t;

enum { R_ACTED, R_CAS, R_MOVE, R_MORALE, R_OFF, R_CAP, R_RESOLVE, R_ROLL };

/* Packs one `key: value` pair of a map. */
static void pack_kv_str(msgpack_packer *pk, const char *key, const char *s) {
    opfor_rpc_pack_cstr(pk, key);
    opfor_rpc_pack_cstr(pk, s);
}

static void pack_kv_int(msgpack_packer *pk, const char *key, int64_t v) {
    opfor_rpc_pack_cstr(pk, key);
    msgpack_pack_int64(pk, v);
}

static void pack_kv_num(msgpack_packer *pk, const char *key, double v) {
    opfor_rpc_pack_cstr(pk, key);
    msgpack_pack_double(pk, v);
}

/* Packs `key: [{unit: UNIT, ...}]` up to the unit: the caller packs the other nfields - 1
 * fields of that one entry. */
static void pack_unit_entry(msgpack_packer *pk, const char *key, uint32_t nfields,
                            const char *unit) {
    opfor_rpc_pack_cstr(pk, key);
    msgpack_pack_array(pk, 1);
    msgpack_pack_map(pk, nfields);
    pack_kv_str(pk, "unit", unit);
}

static void pack_rep(msgpack_packer *pk, void *ud) {
    const rep_args_t *a = ud;
    switch (a->kind) {
    case R_ACTED:
        pack_kv_str(pk, "acted", a->unit);
        if (a->has_pt) {
            opfor_rpc_pack_cstr(pk, "at");
            msgpack_pack_array(pk, 2);
            msgpack_pack_double(pk, a->x);
            msgpack_pack_double(pk, a->y);
        }
        break;
    case R_CAS:
        pack_unit_entry(pk, "casualties", 3, a->unit);
        pack_kv_int(pk, "killed", a->killed);
        pack_kv_int(pk, "wounded", a->wounded);
        break;
    case R_MOVE:
        pack_unit_entry(pk, "moves", 3, a->unit);
        pack_kv_num(pk, "x", a->x);
        pack_kv_num(pk, "y", a->y);
        break;
    case R_MORALE:
        pack_unit_entry(pk, "morale", 2, a->unit);
        pack_kv_str(pk, "result", a->text);
        break;
    case R_OFF:
    case R_CAP:
        pack_unit_entry(pk, "off_table", 2, a->unit);
        pack_kv_str(pk, "fate", a->kind == R_CAP ? "captured" : "driven_off");
        break;
    case R_RESOLVE:
        opfor_rpc_pack_cstr(pk, "resolve");
        msgpack_pack_true(pk);
        break;
    default:
        pack_kv_str(pk, "roll", a->text);
        break;
    }
}

static void call_game(remote_t *r, const char *method, int state) {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    game_params(r, &sb, &pk, 0);
    const msgpack_object *res;
    if (opfor__rpc_call(r->c, "patrol", method, &sb, &res) == 0) {
        if (state == 1) {
            opfor__rpc_print_state(stdout, res);
        } else if (state == 2) {
            const msgpack_object *sc = opfor__rpc_get(res, "score");
            printf("Score: %lld (survivors %lld, at half strength %lld, unscathed %lld, supply "
                   "%lld x2, HQ members %lld x2, driven off %lld, objectives %lld)\n",
                   (long long)opfor__rpc_int(sc, "total", 0),
                   (long long)opfor__rpc_int(sc, "survived", 0),
                   (long long)opfor__rpc_int(sc, "half_strength", 0),
                   (long long)opfor__rpc_int(sc, "unscathed", 0),
                   (long long)opfor__rpc_int(sc, "supply", 0),
                   (long long)opfor__rpc_int(sc, "hq_members", 0),
                   (long long)opfor__rpc_int(sc, "driven_off", 0),
                   (long long)opfor__rpc_int(sc, "objectives", 0));
        } else {
            after_ack(r, res);
        }
    }
    msgpack_sbuffer_destroy(&sb);
}

static int usage_line(const char *u) {
    printf("usage: %s\n", u);
    return 0;
}

static int command(remote_t *r, char **w, int n) {
    rep_args_t a;
    memset(&a, 0, sizeof a);
    char unit[256];
    a.unit = unit;
    const char *cmd = w[0];
    if (!strcmp(cmd, "i") || !strcmp(cmd, "initiative")) {
        call_game(r, "patrol.initiative", 0);
    } else if (!strcmp(cmd, "s") || !strcmp(cmd, "score")) {
        call_game(r, "game.state", 2);
    } else if (!strcmp(cmd, "u") || !strcmp(cmd, "units") || !strcmp(cmd, "l")) {
        call_game(r, "game.state", 1);
    } else if (!strcmp(cmd, "resolve")) {
        a.kind = R_RESOLVE;
        send_report(r, 1, pack_rep, &a);
    } else if (!strcmp(cmd, "roll")) {
        if (n != 2)
            return usage_line("roll DICE");
        a.kind = R_ROLL;
        a.text = w[1];
        send_report(r, 1, pack_rep, &a);
    } else if (!strcmp(cmd, "a") || !strcmp(cmd, "acted")) {
        int at = n;
        for (int i = 1; i < n; i++)
            if (!strcasecmp(w[i], "at"))
                at = i;
        if (at < 2 || (at < n && (n - at != 3 || opfor_cli_parse_double(w[at + 1], &a.x) ||
                                  opfor_cli_parse_double(w[at + 2], &a.y))))
            return usage_line("a UNIT [at X Y]");
        a.has_pt = at < n;
        join(w, 1, at, unit, sizeof unit);
        a.kind = R_ACTED;
        send_report(r, a.has_pt ? 2 : 1, pack_rep, &a);
    } else if (!strcmp(cmd, "r") || !strcmp(cmd, "report")) {
        int k = n;
        for (int i = 1; i < n; i++)
            if (!strcasecmp(w[i], "killed") || !strcasecmp(w[i], "k") ||
                !strcasecmp(w[i], "wounded") || !strcasecmp(w[i], "w")) {
                k = i;
                break;
            }
        if (k < 2 || k == n)
            return usage_line("r UNIT killed N [wounded M]");
        for (int i = k; i < n; i += 2) {
            long v;
            if (i + 1 >= n || opfor_cli_parse_long(w[i + 1], &v) != 0)
                return usage_line("r UNIT killed N [wounded M]");
            if (tolower((unsigned char)w[i][0]) == 'k')
                a.killed = v;
            else
                a.wounded = v;
        }
        join(w, 1, k, unit, sizeof unit);
        a.kind = R_CAS;
        send_report(r, 1, pack_rep, &a);
    } else if (!strcmp(cmd, "m") || !strcmp(cmd, "move")) {
        if (n < 4 || opfor_cli_parse_double(w[n - 2], &a.x) ||
            opfor_cli_parse_double(w[n - 1], &a.y))
            return usage_line("m UNIT X Y");
        join(w, 1, n - 2, unit, sizeof unit);
        a.kind = R_MOVE;
        send_report(r, 1, pack_rep, &a);
    } else if (!strcmp(cmd, "morale")) {
        if (n < 3)
            return usage_line("morale UNIT solid|wavering|routed|surrendered");
        join(w, 1, n - 1, unit, sizeof unit);
        a.text = w[n - 1];
        a.kind = R_MORALE;
        send_report(r, 1, pack_rep, &a);
    } else if (!strcmp(cmd, "off") || !strcmp(cmd, "cap") || !strcmp(cmd, "capture")) {
        if (n < 2)
            return usage_line(cmd[0] == 'o' ? "off UNIT" : "cap UNIT");
        join(w, 1, n, unit, sizeof unit);
        a.kind = cmd[0] == 'o' ? R_OFF : R_CAP;
        send_report(r, 1, pack_rep, &a);
    } else if (!strcmp(cmd, "help") || !strcmp(cmd, "h") || !strcmp(cmd, "?")) {
        help();
    } else {
        printf("Unknown command '%s': type `help` for the list.\n", cmd);
    }
    return 0;
}

int opfor__patrol_remote(int argc, char **argv) {
    const char *addr = NULL, *token_file = NULL, *scenario = NULL, *diff = NULL, *game = NULL;
    long seed = -1;
    int usage_rc;
    const opfor_cli_opt_t opts[] = {
        OPFOR_CLI_CONNECT_OPTS(&addr, &token_file),
        {.name = "--scenario",
         .type = OPFOR_CLI_STRING,
         .string = &scenario,
         .arg = "NAME|FILE",
         .help = "a built-in scenario or a scenario file (sent as YAML)"},
        OPFOR_CLI_SEED_OPT(&seed, "the game's seed (default: random)"),
        OPFOR_CLI_LEVEL_TEXT_OPT(&diff, "the AI's level: novice, standard, veteran, ruthless\n"
                                        "or challenge"),
        {.name = "--game",
         .type = OPFOR_CLI_STRING,
         .string = &game,
         .arg = "ID",
         .help = "resume this saved game instead of starting one"},
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "patrol",
        .usage = "--connect ADDR [--token-file FILE] [--scenario NAME|FILE] [--seed S]\n"
                 "                    [--level LEVEL] [--game ID]",
        .about = "Plays Patrol Mode at the table against the daemon (opford), which keeps the\n"
                 "game: --game ID resumes a saved game instead of starting one. Type `help` in\n"
                 "the game for its commands.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &usage_rc))
        return usage_rc;
    remote_t r;
    memset(&r, 0, sizeof r);
    r.interactive = isatty(0);
    r.c = opfor__rpc_open_token(addr, token_file);
    if (!r.c)
        return OPFOR_EXIT_FAIL;
    opfor_client_set_timeout(r.c, 120000);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    const msgpack_object *res;
    int rc;
    char *yaml = NULL;
    if (game) {
        msgpack_pack_map(&pk, 1);
        opfor_rpc_pack_cstr(&pk, "game");
        opfor_rpc_pack_cstr(&pk, game);
        rc = opfor__rpc_call(r.c, "patrol", "game.state", &sb, &res);
    } else {
        struct stat st;
        size_t ylen = 0;
        if (scenario && stat(scenario, &st) == 0 && S_ISREG(st.st_mode)) {
            FILE *f = fopen(scenario, "rb");
            yaml = malloc(1024 * 1024 + 1);
            ylen = f && yaml ? fread(yaml, 1, 1024 * 1024, f) : 0;
            if (f)
                fclose(f);
            if (!ylen) {
                free(yaml);
                opfor_client_close(r.c);
                return opfor_cli_fail("patrol: %s: cannot read the scenario", scenario);
            }
        }
        msgpack_pack_map(&pk, (size_t)(!!scenario + !!yaml + !!diff + (seed >= 0)));
        if (scenario) {
            opfor_rpc_pack_cstr(&pk, "scenario");
            const char *base = strrchr(scenario, '/');
            opfor_rpc_pack_cstr(&pk, yaml && base ? base + 1 : scenario);
        }
        if (yaml) {
            opfor_rpc_pack_cstr(&pk, "scenario_yaml");
            msgpack_pack_str(&pk, ylen);
            msgpack_pack_str_body(&pk, yaml, ylen);
        }
        if (diff) {
            opfor_rpc_pack_cstr(&pk, "difficulty");
            opfor_rpc_pack_cstr(&pk, diff);
        }
        if (seed >= 0) {
            opfor_rpc_pack_cstr(&pk, "seed");
            msgpack_pack_int64(&pk, seed);
        }
        rc = opfor__rpc_call(r.c, "patrol", "game.new", &sb, &res);
    }
    free(yaml);
    msgpack_sbuffer_destroy(&sb);
    if (rc) {
        opfor_client_close(r.c);
        return rc;
    }
    opfor__rpc_str(res, "game", r.game, sizeof r.game);
    printf("Viktoria! Patrol Mode against opford: game %s\n", r.game);
    opfor__rpc_print_state(stdout, res);
    check_over(&r, res);
    printf("Type `help` for the commands; `i` presses the initiative button.\n");
    char line[LINE_LEN];
    while (!r.over) {
        char *w[MAX_WORDS];
        int n = opfor__patrol_read_command(stdin, line, sizeof line, r.interactive, w, MAX_WORDS);
        if (n < 0)
            break;
        if (!strcmp(w[0], "q") || !strcmp(w[0], "quit"))
            break;
        command(&r, w, n);
        fflush(stdout);
    }
    printf("%s: `opfor patrol --connect ... --game %s` or `opfor state %s` takes it up again.\n",
           r.over ? "The game is over" : "The game stays saved in the daemon", r.game, r.game);
    opfor_client_close(r.c);
    return OPFOR_EXIT_OK;
}
