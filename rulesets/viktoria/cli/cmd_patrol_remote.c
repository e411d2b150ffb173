/* rulesets/viktoria/cli/cmd_patrol_remote.c — `opfor patrol --connect ADDR`: the terminal Patrol
 * Mode game (Viktoria! XV) played against the daemon instead of in this process.
 *
 *   opfor patrol --connect ADDR [--token-file FILE] [--scenario NAME|FILE] [--seed S]
 *                [--level L] [--game ID]
 *
 * The same line commands as the local game (i, a, r, m, off, cap, s, u, q, help) plus
 * `resolve` (opford rolls the open order's dice; `resolve N`: its move made with the D3 the
 * table rolled, N), `roll DICE` and `undo` (takes back the last report, any client's, until the
 * next press). Each becomes one RPC call (docs/protocol.md);
 * the daemon keeps the game, so quitting leaves it saved and `--game ID` takes it up again,
 * from this terminal or any other client. When the enemy gets the initiative the AI's orders
 * are asked for at once, and so they are when the game is taken up (or the connection comes
 * back) with the enemy holding the initiative and no orders given yet (an earlier client left
 * while the AI was thinking); `o` asks for them, or shows them again. Every report names the
 * state this terminal last saw (`seen`), so a report another client made meanwhile is never
 * counted twice: the daemon refuses ours and says what changed. What every client of the game
 * did (another terminal's report, an undo from anywhere, a game master's press) is printed once,
 * in order: the events after the last one printed are fetched before each prompt and before
 * each command runs (fetch_events).
 *
 * The daemon's errors are worded here from their hints (PATROL_HINTS), in this game's commands:
 * a player never reads a protocol method's name. A lost connection is tried again (1 s, 2 s ...
 * up to 30 s between attempts, tools/app/redial.h), then the events missed meanwhile are
 * printed from the last one seen. SIGINT and SIGTERM are taken by a thread of their own
 * (sigwait: no handler, no global), which prints the same closing line as `q` and exits.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_patrol_int.h"
#include "game_rpc.h"
#include "local_daemon.h"
#include "opfor/rpc.h"
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/patrol.h"
#include "opfor/viktoria/scenario.h"

#define LINE_LEN 512
#define MAX_WORDS 24

#define REDIAL_TRIES 8 /* attempts after a lost connection (1+2+4+8+16+30+30+30 s) */

typedef struct remote {
    opfor_client_t *c;      /* the daemon; NULL while the connection is down */
    opfor__rpc_dest_t dest; /* where it is, for connecting again */
    const char *addr;       /* --connect as given, for the closing line */
    const char *resume;     /* --resume-hint */
    pthread_mutex_t mu;     /* guards game and over for the signal thread */
    char game[64];          /* the game's id ("" before the daemon gave one) */
    int over;               /* 1 once the game finished or was closed */
    int interactive;        /* stdin is a terminal: prompts */
    uint64_t seen;          /* the game's log_seq as this terminal last saw it */
    int64_t ev;             /* the seq of the last event printed (or seen in a state) */
    int64_t order_shown;    /* the order_id of the last order printed by get_orders: its
                               `order` event is not printed again */
    int local;              /* 1: the daemon runs in this process (`opfor patrol`) */
    int verbose;            /* 1: the alternatives the AI weighed, the director's steering */
    const char *kept_in;    /* local: the state directory keeping the game; NULL: not kept */
    char tmpdir[128];       /* local: the private socket directory, removed on a signal too */
} remote_t;

static void help(void) {
    printf(
        "commands (one per line; the daemon keeps the game):\n"
        "  i                        press the initiative button (the AI's orders follow\n"
        "                           when the enemy gets it)\n"
        "  a UNIT [at X,Y]          your unit UNIT used the initiative (now at X,Y;\n"
        "                           \"X Y\" works too)\n"
        "  r UNIT killed N [wounded M]   casualties of UNIT (either side)\n"
        "  m UNIT X,Y               UNIT's centre now stands at X,Y (inches from the SW corner)\n"
        "  morale UNIT RESULT       solid, wavering, routed or surrendered\n"
        "  off UNIT | cap UNIT      UNIT left the table | was captured\n"
        "  resolve                  opford rolls the open order's dice and reports\n"
        "  resolve N                the same, the order's move made with the D3 the table\n"
        "                           rolled: N (1, 2 or 3)\n"
        "  roll DICE                opford rolls DICE (\"2D6\") with the game's dice\n"
        "  undo                     take back the last report (until the next press)\n"
        "  o                        the AI's orders: asks for them when the enemy holds the\n"
        "                           initiative, else shows the open order again\n"
        "  s | u | l                the score | the units and the game | the players'\n"
        "                           front line\n"
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

/* The players' line from a game.state answer's `front`: `l` and the briefing. */
static void print_front(const msgpack_object *st) {
    const msgpack_object *fr = opfor__rpc_get(st, "front");
    const msgpack_object *dot = opfor__rpc_get(fr, "dot");
    if (!opfor__rpc_get(st, "front"))
        printf("Front line: not known (the daemon does not say it)\n");
    else if (!dot || dot->type != MSGPACK_OBJECT_MAP)
        printf("Front line: none (no player unit on the table)\n");
    else
        printf("Front line: furthest-forward point at x %.1f, y %.1f; %.1f sq ft held\n",
               opfor__rpc_num(dot, "x", 0), opfor__rpc_num(dot, "y", 0),
               opfor__rpc_num(fr, "sq_ft", 0));
}

/* The side of a game.state answer that is (player 1) or is not (0) the players'. */
static const char *side_of(const msgpack_object *st, int player, char *buf, size_t n) {
    const msgpack_object *sides = opfor__rpc_get(st, "sides");
    buf[0] = '\0';
    for (uint32_t i = 0; sides && sides->type == MSGPACK_OBJECT_ARRAY && i < sides->via.array.size;
         i++)
        if (!opfor__rpc_int(&sides->via.array.ptr[i], "player", 0) == !player)
            opfor__rpc_str(&sides->via.array.ptr[i], "name", buf, n);
    return buf;
}

/* What a new game's scenario says that its state does not (its description, the table's north,
 * the objectives), read from the scenario this client sent (NULL: the daemon's default,
 * patrol_default); only what the state says when the scenario cannot be read here. */
static void briefing(const char *scenario, const msgpack_object *st) {
    const char *arg = scenario ? scenario : "patrol_default";
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    opfor_patrol_config_t *cfg = calloc(1, sizeof *cfg);
    opfor_diag_t d;
    struct stat sb;
    int rc = -1, north = -1;
    if (sc && cfg)
        rc = stat(arg, &sb) != 0 && opfor_viktoria_builtin_text(arg, NULL)
                 ? opfor_viktoria_builtin_load(arg, sc, &d)
                 : opfor_viktoria_scenario_load_file(arg, sc, &d);
    int patrol =
        rc == 0 && sc->mode == OPFOR_MODE_COOP && opfor_patrol_config_load(cfg, sc, arg, &d) == 0;
    if (rc == 0 && sc->description[0])
        printf("%s\n", sc->description);
    if (patrol)
        north = cfg->table.north;
    const msgpack_object *tb = opfor__rpc_get(st, "table");
    char you[64], them[64];
    printf("Table %g x %g inches", opfor__rpc_num(tb, "width", 0), opfor__rpc_num(tb, "depth", 0));
    if (north >= 0)
        printf("; north is the %s edge", opfor_vocab_name(opfor_edge_names, north));
    printf(". You command the %s; opfor plays the %s.\n", side_of(st, 1, you, sizeof you),
           side_of(st, 0, them, sizeof them));
    for (int k = 0; patrol && k < cfg->nobjectives; k++)
        printf("Objective: %s at x %.1f, y %.1f (within %g in), %d points.\n",
               cfg->objectives[k].name, (double)cfg->objectives[k].pos.x,
               (double)cfg->objectives[k].pos.y, (double)cfg->objectives[k].radius,
               cfg->objectives[k].points);
    if (rc == 0)
        opfor_scenario_free(sc);
    free(sc);
    free(cfg);
}

static void check_over(remote_t *r, const msgpack_object *res) {
    char st[32];
    opfor__rpc_str(res, "status", st, sizeof st);
    if (st[0] && strcmp(st, "active") != 0) {
        pthread_mutex_lock(&r->mu);
        r->over = 1;
        pthread_mutex_unlock(&r->mu);
    }
}

/* The closing line: how to take the game up again (or see it, once over). `q`, the end of
 * input and SIGINT/SIGTERM all print it. */
static void print_leave(remote_t *r) {
    pthread_mutex_lock(&r->mu);
    if (!r->game[0])
        ; /* no game yet: nothing to take up */
    else if (r->local && !r->kept_in)
        printf("The game was not kept (--no-save).\n");
    else if (r->local && r->over)
        printf("The game is over: `opfor patrol --game %s` shows it.\n", r->game);
    else if (r->local)
        printf("The game stays saved in %s: `opfor patrol --game %s` takes it up again.\n",
               r->kept_in, r->game);
    else if (r->over && r->resume)
        printf("The game is over: `%s%s` shows it.\n", r->resume, r->game);
    else if (r->over)
        printf("The game is over: `opfor state %s` shows it.\n", r->game);
    else if (r->resume)
        printf("The game stays saved in the daemon: `%s%s` takes it up again.\n", r->resume,
               r->game);
    else
        printf("The game stays saved in the daemon: `opfor patrol --connect %s --game %s` or "
               "`opfor state %s` takes it up again.\n",
               r->addr ? r->addr : "ADDR", r->game, r->game);
    fflush(stdout);
    pthread_mutex_unlock(&r->mu);
}

/* The signal thread: SIGINT and SIGTERM are blocked in every other thread, so only its sigwait
 * takes them; it prints the closing line and ends the process (128 + the signal). A call in
 * flight (the AI thinking) is simply dropped: the daemon keeps the game as it was before it. */
static void *signal_thread(void *ud) {
    remote_t *r = ud;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    int sig = 0;
    if (sigwait(&set, &sig) != 0)
        return NULL;
    if (r->interactive)
        printf("\n");
    print_leave(r);
    if (r->tmpdir[0]) /* the in-process daemon's socket (and a game not kept) */
        opfor__local_daemon_remove_dir(r->tmpdir);
    _exit(128 + sig);
}

/* How the daemon's hints (docs/protocol.md, Hints) read in this game: its own commands, never
 * the protocol's methods. A hint not here prints the daemon's message. */
static const opfor__rpc_wording_t PATROL_HINTS[] = {
    {"no_game", NULL, "there is no game '{game}' in the daemon (`opfor games` lists them)"},
    {"report_acted", NULL,
     "a unit of the {side} holds the initiative: say which one acted first (`a UNIT`)"},
    {"ask_orders", NULL, "the {side} hold the initiative: their orders come first"},
    {"press_first", NULL,
     "no initiative of the {side} is waiting: press the initiative button first (`i`)"},
    {"resolve_needs_order", NULL,
     "there is no open order to resolve (`o` gives the orders when the {side} hold the "
     "initiative)"},
    {"no_ai_initiative", "holder=player",
     "the {side} do not hold the initiative: one of your units does; say which acted (`a UNIT`)"},
    {"no_ai_initiative", "holder=none",
     "nobody holds the initiative: press the initiative button (`i`)"},
    {"press_again", "why=changed", "the game changed during the press: press again (`i`)"},
    {"press_again", NULL, "the press was cancelled: press again (`i`)"},
    {"ask_again", NULL, "the game changed while the AI was thinking: `o` asks again"},
    {"nothing_to_undo", "why=no_report", "nothing to undo: no report was made yet"},
    {"nothing_to_undo", "why=undone", "nothing to undo: the last report was undone already"},
    {"nothing_to_undo", "why=press",
     "nothing to undo: the initiative button was pressed after the last report"},
    {"nothing_to_undo", "why=order", "nothing to undo: an order came after the last report"},
    {"use_game_methods", NULL,
     "this is a {ruleset} game: this terminal plays Viktoria! Patrol Mode games only"},
    {NULL, NULL, NULL},
};

static void pack_prebuilt(msgpack_packer *pk, void *ud) {
    const msgpack_sbuffer *sb = ud;
    pk->callback(pk->data, sb->data, sb->size);
}

static void resync(remote_t *r);

/* The protocol's names that a refusal without a hint may still carry, in this game's words. */
static const char *const PATROL_NAMES[][2] = {
    {"ai.orders", "the orders (`o`)"},
    {"patrol.initiative", "the initiative button (`i`)"},
    {"off_table", "off or captured (`off`, `cap`)"},
    {"driven_off", "driven off"},
    {"resolve it without a move roll", "type `resolve` alone (opford rolls the dice)"},
    {NULL, NULL},
};

/* A daemon's message without a hint, for people: the field path it starts with (the report's
 * "casualties[0].killed: 7, but ...") goes, the field's value reading in the game's words ("7
 * killed, but ..."; "x 500 is off the table ..."), and the protocol's names are replaced. */
static void plain_words(const char *msg, char *out, size_t n) {
    const char *p = msg;
    size_t flen = 0; /* the path's last field: p - flen .. p */
    while (*p == '_' || (*p >= 'a' && *p <= 'z') || *p == '.' || *p == '[' || *p == ']' ||
           (*p >= '0' && *p <= '9' && p > msg)) {
        flen = *p == '.' || *p == '[' || *p == ']' || (*p >= '0' && *p <= '9') ? 0 : flen + 1;
        p++;
    }
    char field[32] = "";
    if (p > msg && p[0] == ':' && p[1] == ' ') {
        snprintf(field, sizeof field, "%.*s", (int)(flen < sizeof field ? flen : 0), p - flen);
        msg = p + 2;
    }
    char tmp[600];
    const char *num_end = msg + (*msg == '-');
    while (*num_end >= '0' && *num_end <= '9')
        num_end++;
    int has_num = num_end > msg + (*msg == '-');
    if ((!strcmp(field, "killed") || !strcmp(field, "wounded")) && has_num &&
        !strncmp(num_end, " is negative", 12))
        snprintf(tmp, sizeof tmp, "%.*s %s: a number of figures cannot be negative",
                 (int)(num_end - msg), msg, field);
    else if ((!strcmp(field, "killed") || !strcmp(field, "wounded")) && has_num)
        snprintf(tmp, sizeof tmp, "%.*s %s%s", (int)(num_end - msg), msg, field, num_end);
    else if (!strcmp(field, "x") || !strcmp(field, "y"))
        snprintf(tmp, sizeof tmp, "%s %s", field, msg);
    else if (!strcmp(field, "result"))
        snprintf(tmp, sizeof tmp, "the morale result %s", msg);
    else
        snprintf(tmp, sizeof tmp, "%s", msg);
    size_t len = 0;
    out[0] = '\0';
    for (const char *c = tmp; *c && len + 1 < n;) {
        int k = 0;
        while (PATROL_NAMES[k][0] && strncmp(c, PATROL_NAMES[k][0], strlen(PATROL_NAMES[k][0])))
            k++;
        const char *put = PATROL_NAMES[k][0] ? PATROL_NAMES[k][1] : NULL;
        if (put) {
            len += (size_t)snprintf(out + len, n - len, "%s", put);
            c += strlen(PATROL_NAMES[k][0]);
        } else {
            out[len++] = *c++;
            out[len] = '\0';
        }
        if (len >= n)
            len = n - 1;
    }
}

/* Prints the daemon's refusal of the last call, worded from its hint when PATROL_HINTS has it,
 * else from its message put in this game's words (plain_words). */
static void print_refusal(const remote_t *r) {
    char buf[512], plain[512];
    const char *words = opfor__rpc_words(r->c, PATROL_HINTS, buf, sizeof buf);
    if (!words) {
        plain_words(opfor_client_error_message(r->c), plain, sizeof plain);
        words = plain;
    }
    /* a report refused because another client changed the game first: said from this
       terminal's side ("the report answers the game as it stood at entry N, but ...") */
    static const char stale[] = "the report answers the game as it stood at entry ";
    char seen[32];
    const char *p = words + sizeof stale - 1;
    if (!strcmp(opfor_client_error_hint(r->c), "stale_state") &&
        !strncmp(words, stale, sizeof stale - 1) && *p >= '0' && *p <= '9') {
        size_t k = strspn(p, "0123456789");
        snprintf(seen, sizeof seen, "%.*s", (int)(k < 20 ? k : 20), p);
        fprintf(stderr,
                "opfor: patrol: your report answers the game as this terminal last saw it "
                "(entry %s)%s\n",
                seen, p + k);
        return;
    }
    fprintf(stderr, "opfor: patrol: %s\n", words);
}

/* Connects again after a lost connection (why: what the client said), then prints what the game
 * did meanwhile. 0, or -1 when the daemon did not come back (said). */
static int reconnect(remote_t *r, const char *why) {
    char lost[256];
    snprintf(lost, sizeof lost, "%s", why); /* why may be r->c's own message */
    opfor_client_close(r->c);
    r->c = NULL;
    r->c = opfor__rpc_redial(&r->dest, "patrol", lost, REDIAL_TRIES, 0);
    if (!r->c) {
        printf("Nothing was sent: the next command tries again (`q` leaves; the game stays "
               "saved).\n");
        return -1;
    }
    opfor_client_set_timeout(r->c, 120000);
    resync(r);
    return 0;
}

enum { CALL_OK = 0, CALL_REFUSED = 1, CALL_LOST = -1 };

/* Calls method with params sb. CALL_OK with *res; CALL_REFUSED when the daemon answered with an
 * error (printed, worded from its hint); CALL_LOST when the connection was lost on the way (the
 * game's events since are printed and the player told to check: the call may or may not have
 * reached the daemon). A connection found lost before the call is made again first. */
static int rcall(remote_t *r, const char *method, const msgpack_sbuffer *sb,
                 const msgpack_object **res) {
    fflush(stdout); /* what came before shows while the daemon works (the AI may think long) */
    if (!r->c || opfor_client_poll(r->c, 0) < 0) {
        uint64_t seen = r->seen;
        if (reconnect(r, r->c ? opfor_client_error_message(r->c) : "not connected") < 0)
            return CALL_LOST;
        if (r->seen != seen) {
            printf("The game changed while the connection was down (above): nothing was sent; "
                   "type the command again if it still applies.\n");
            return CALL_LOST;
        }
    }
    int rc = opfor_client_call(r->c, method, pack_prebuilt, (void *)sb, res);
    if (rc == 0)
        return CALL_OK;
    if (rc == OPFOR_CLIENT_REMOTE) {
        print_refusal(r);
        return CALL_REFUSED;
    }
    if (rc == OPFOR_ETIMEDOUT) {
        fprintf(stderr, "opfor: patrol: the daemon did not answer in time: `u` shows where the "
                        "game stands\n");
        return CALL_LOST;
    }
    char why[256];
    snprintf(why, sizeof why, "%s", opfor_client_error_message(r->c));
    if (reconnect(r, why) == 0)
        printf("The connection was lost on the way: the events above are all the game did "
               "since; type the command again if it is not among them.\n");
    return CALL_LOST;
}

/* Prints one event unless it was printed already (seq at or below r->ev). */
static void print_event(remote_t *r, const msgpack_object *ev) {
    int64_t seq = opfor__rpc_int(ev, "seq", 0);
    if (seq && seq <= r->ev)
        return;
    if (seq > r->ev)
        r->ev = seq;
    char kind[16];
    opfor__rpc_str(ev, "kind", kind, sizeof kind);
    if (!strcmp(kind, "order") && r->order_shown &&
        opfor__rpc_int(ev, "log_seq", 0) == r->order_shown)
        return; /* printed whole when this terminal asked for it (get_orders) */
    opfor__rpc_print_event(stdout, ev);
    if (!strcmp(kind, "game_over") || !strcmp(kind, "closed")) { /* another client ended it */
        pthread_mutex_lock(&r->mu);
        r->over = 1;
        pthread_mutex_unlock(&r->mu);
    }
    const msgpack_object *d = opfor__rpc_get(ev, "data");
    if (r->verbose && !strcmp(kind, "spotted") && opfor__rpc_int(d, "steered", 0))
        printf("    (the director chose it over the dice's draw)\n");
}

/* Starts the params map {game: ID, ...} in a new sb, with room for nkeys more keys that the
 * caller packs with pk; the caller destroys sb. */
static void game_params(const remote_t *r, msgpack_sbuffer *sb, msgpack_packer *pk, size_t nkeys) {
    msgpack_sbuffer_init(sb);
    msgpack_packer_init(pk, sb, msgpack_sbuffer_write);
    msgpack_pack_map(pk, nkeys + 1);
    opfor_rpc_pack_cstr(pk, "game");
    opfor_rpc_pack_cstr(pk, r->game);
}

/* Notes the log_seq of an answer (a mutation's or game.state's) as the state last seen. */
static void saw(remote_t *r, const msgpack_object *res) {
    int64_t s = opfor__rpc_int(res, "log_seq", -1);
    if (s >= 0)
        r->seen = (uint64_t)s;
}

/* Notes a game.state answer's event_seq: the events up to it are as good as printed (the
 * state shows what they did). */
static void saw_events(remote_t *r, const msgpack_object *st) {
    int64_t e = opfor__rpc_int(st, "event_seq", -1);
    if (e > r->ev)
        r->ev = e;
}

/* Prints the game's events after the last one this terminal printed (subscribe's kept events,
 * then unsubscribe): those another client caused too (its report, an undo from another terminal
 * or `opfor undo`, a game master's press), each once. Called before each prompt and before each
 * command runs, after a refused report and after a reconnection. redial: a connection found
 * lost is made again at once (reconnect). 0; -1 when the daemon did not answer (nothing
 * printed; the next call tries again); -2 when the connection was lost and did not come back
 * (said: nothing was sent). */
static int fetch_events(remote_t *r, int redial) {
    if (!r->c || !r->game[0])
        return -1;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    game_params(r, &sb, &pk, 1);
    opfor_rpc_pack_cstr(&pk, "after");
    msgpack_pack_int64(&pk, r->ev);
    const msgpack_object *res;
    int rc = opfor_client_poll(r->c, 0) < 0
                 ? OPFOR_EIO
                 : opfor_client_call(r->c, "subscribe", pack_prebuilt, &sb, &res);
    msgpack_sbuffer_destroy(&sb);
    if (rc != 0 && redial && rc != OPFOR_CLIENT_REMOTE && rc != OPFOR_ETIMEDOUT) {
        char why[256]; /* the connection was lost: connect again now, printing what was missed */
        snprintf(why, sizeof why, "%s", opfor_client_error_message(r->c));
        if (reconnect(r, why) < 0)
            return -2;
    }
    if (rc != 0)
        return -1;
    int64_t last = opfor__rpc_int(res, "seq", 0);
    if (opfor__rpc_int(res, "missed", 0))
        printf("(some events are no longer kept: `u` shows the game as it stands)\n");
    const msgpack_object *evs = opfor__rpc_get(res, "events");
    for (uint32_t i = 0; evs && evs->type == MSGPACK_OBJECT_ARRAY && i < evs->via.array.size; i++)
        print_event(r, &evs->via.array.ptr[i]);
    if (last > r->ev) /* events no longer kept: the game as it stands is what `u` shows */
        r->ev = last;
    game_params(r, &sb, &pk, 0);
    opfor_client_call(r->c, "unsubscribe", pack_prebuilt, &sb, NULL);
    msgpack_sbuffer_destroy(&sb);
    return 0;
}

/* 1 when an order (ai.orders' answer) moves its unit with a D3 (advance, run, crawl with an end
 * point): the move `resolve N` resolves with the table's die. */
static int order_moves(const msgpack_object *order) {
    char action[16];
    const msgpack_object *stop = opfor__rpc_get(order, "stop");
    opfor__rpc_str(order, "action", action, sizeof action);
    return stop && stop->type == MSGPACK_OBJECT_MAP &&
           (!strcmp(action, "advance") || !strcmp(action, "run") || !strcmp(action, "crawl"));
}

/* Asks for the AI's orders (the search may take a while) and prints them: the order just given
 * again when one is open. */
static void get_orders(remote_t *r) {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    game_params(r, &sb, &pk, 0);
    const msgpack_object *order;
    if (rcall(r, "ai.orders", &sb, &order) == CALL_OK) {
        int64_t id = opfor__rpc_int(order, "order_id", 0);
        if (id > 0 && (uint64_t)id > r->seen) /* the order entry is the game's last */
            r->seen = (uint64_t)id;
        if (id > 0)
            r->order_shown = id;
        opfor__rpc_print_order(stdout, order);
        if (r->verbose)
            opfor__rpc_print_alternatives(stdout, order);
        if (order_moves(order)) /* the table may roll the move's die itself */
            printf("  Roll the D3 for its move and type `resolve N` (N: the die), or carry it out "
                   "and report\n  what happened (`m`, `r`, `morale`, `off`); `resolve` alone rolls "
                   "opford's dice.\n");
        else
            printf("  Carry it out and report the outcome (`r`, `m`, `morale`, `off`), or "
                   "`resolve`.\n");
    }
    msgpack_sbuffer_destroy(&sb);
}

/* Picks the game up where a game.state answer says it stands: when the enemy holds the
 * initiative it has no orders yet (an order ends that), so they are asked for. */
static void pick_up(remote_t *r, const msgpack_object *st) {
    char pending[16];
    opfor__rpc_str(st, "pending", pending, sizeof pending);
    if (r->over || strcmp(pending, "enemy") != 0)
        return;
    printf("The enemy holds the initiative and has no orders yet: asking the AI.\n");
    get_orders(r);
}

/* After a reconnection: prints the events after the last one printed (fetch_events), reads the
 * game again, and asks for orders when they are due. */
static void resync(remote_t *r) {
    int fetched = fetch_events(r, 0);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    const msgpack_object *res;
    game_params(r, &sb, &pk, 0);
    int rc = opfor_client_call(r->c, "game.state", pack_prebuilt, &sb, &res);
    msgpack_sbuffer_destroy(&sb);
    if (rc == 0) {
        saw(r, res);
        if (fetched < 0) /* no events to print: the state shows what they did */
            saw_events(r, res);
        check_over(r, res);
        pick_up(r, res);
    }
}

/* Prints the events of a mutation's answer; asks for orders when the enemy holds the
 * initiative. */
static void after_ack(remote_t *r, const msgpack_object *res) {
    saw(r, res);
    const msgpack_object *evs = opfor__rpc_get(res, "events");
    if (evs && evs->type == MSGPACK_OBJECT_ARRAY && evs->via.array.size &&
        opfor__rpc_int(&evs->via.array.ptr[0], "seq", 0) > r->ev + 1)
        fetch_events(r, 0); /* another client's events came in between: first, in order */
    for (uint32_t i = 0; evs && evs->type == MSGPACK_OBJECT_ARRAY && i < evs->via.array.size; i++)
        print_event(r, &evs->via.array.ptr[i]);
    check_over(r, res);
    char pending[16];
    opfor__rpc_str(res, "pending", pending, sizeof pending);
    if (r->over || strcmp(pending, "enemy") != 0) {
        if (strcmp(pending, "player") == 0)
            printf("  Report which unit acted with `a UNIT [at X,Y]`, then casualties with `r`.\n");
        return;
    }
    get_orders(r);
}

/* Another client changed the game since this terminal last saw it (our report was refused,
 * the daemon saying what changed): reads where it stands now. */
static void catch_up(remote_t *r) {
    const char *hint = opfor_client_error_hint(r->c);
    if (strcmp(hint, "stale_state") != 0 && strcmp(hint, "already_answered") != 0)
        return;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    game_params(r, &sb, &pk, 0);
    const msgpack_object *res;
    if (rcall(r, "game.state", &sb, &res) == CALL_OK) {
        saw(r, res);
        fetch_events(r, 1); /* what the other client did, printed here once */
        printf("  Nothing was applied. The game changed meanwhile (see above): check the table,\n"
               "  then type what is still to report (`undo` takes back the last report).\n");
    }
    msgpack_sbuffer_destroy(&sb);
}

/* Sends a report whose body pack() writes after "game" and "seen"; nkeys counts the body's
 * keys. */
static void send_report(remote_t *r, int nkeys, void (*pack)(msgpack_packer *pk, void *ud),
                        void *ud) {
    msgpack_sbuffer sb;
    msgpack_packer pk;
    game_params(r, &sb, &pk, (size_t)nkeys + 1);
    opfor_rpc_pack_cstr(&pk, "seen");
    msgpack_pack_uint64(&pk, r->seen);
    pack(&pk, ud);
    const msgpack_object *res;
    int rc = rcall(r, "report", &sb, &res);
    if (rc == CALL_OK)
        after_ack(r, res);
    else if (rc == CALL_REFUSED)
        catch_up(r);
    msgpack_sbuffer_destroy(&sb);
}

typedef struct rep_args {
    const char *unit; /* unit name */
    double x, y;      /* a point */
    int has_pt;       /* 1 when x, y are given */
    long killed, wounded;
    long move_roll;   /* resolve: the D3 the table rolled for the order's move, 0: opford's */
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
        if (a->move_roll)
            pack_kv_int(pk, "move_roll", a->move_roll);
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
    int rc = rcall(r, method, &sb, &res);
    msgpack_sbuffer_destroy(&sb);
    if (rc == CALL_REFUSED && strcmp(opfor_client_error_hint(r->c), "ask_orders") == 0) {
        get_orders(r); /* the press waits for them: the dead end of a client that left early */
        return;
    }
    if (rc == CALL_OK) {
        if (state) /* the player looked at the game as it stands (its events: fetch_events) */
            saw(r, res);
        if (state == 1) {
            opfor__rpc_print_state(stdout, res);
        } else if (state == 3) {
            print_front(res);
        } else if (state == 2) {
            const msgpack_object *sc = opfor__rpc_get(res, "score");
            char parts[256];
            printf("Score: %lld (%s)\n", (long long)opfor__rpc_int(sc, "total", 0),
                   opfor__rpc_score_parts(sc, parts, sizeof parts));
        } else {
            after_ack(r, res);
        }
    }
}

/* `a X`: one letter is too short to spend the initiative on; says which of the players' units
 * on the table (the game as it stands) it might mean. */
static void too_short(remote_t *r, const char *letter) {
    printf("'%s' is too short to be sure which unit acted; it could be", letter);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    game_params(r, &sb, &pk, 0);
    const msgpack_object *st = NULL;
    int first = 1;
    if (opfor_client_call(r->c, "game.state", pack_prebuilt, &sb, &st) != 0)
        st = NULL;
    msgpack_sbuffer_destroy(&sb);
    const msgpack_object *units = opfor__rpc_get(st, "units");
    for (uint32_t i = 0; units && units->type == MSGPACK_OBJECT_ARRAY && i < units->via.array.size;
         i++) {
        const msgpack_object *u = &units->via.array.ptr[i];
        char name[128], state[16];
        opfor__rpc_str(u, "name", name, sizeof name);
        opfor__rpc_str(u, "state", state, sizeof state);
        if (!opfor__rpc_int(u, "player", 0) || (strcmp(state, "ready") && strcmp(state, "acted")))
            continue;
        int hit = 0; /* the letter starts the name or one of its words */
        for (const char *c = name; *c && !hit; c++)
            hit = (c == name || c[-1] == ' ') && strncasecmp(c, letter, 1) == 0;
        if (hit) {
            printf("%s %s", first ? "" : ",", name);
            first = 0;
        }
    }
    printf("%s; give more of the name (nothing changed).\n", !st ? " any of yours (`u` lists them)"
                                                             : first ? " none of yours"
                                                                     : "");
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
    } else if (!strcmp(cmd, "u") || !strcmp(cmd, "units")) {
        call_game(r, "game.state", 1);
    } else if (!strcmp(cmd, "l") || !strcmp(cmd, "line")) {
        call_game(r, "game.state", 3);
    } else if (!strcmp(cmd, "undo")) {
        call_game(r, "game.undo", 0);
    } else if (!strcmp(cmd, "o") || !strcmp(cmd, "orders")) {
        get_orders(r);
    } else if (!strcmp(cmd, "resolve")) {
        if (n > 2)
            return usage_line("resolve [N]  (N: the D3 the table rolled for the order's move)");
        if (n == 2 &&
            (opfor_cli_parse_long(w[1], &a.move_roll) != 0 || a.move_roll < 1 || a.move_roll > 3)) {
            fprintf(stderr,
                    "opfor: patrol: '%s' is not a D3's roll: `resolve N` takes the die the table "
                    "rolled for the order's move, 1, 2 or 3 (nothing was sent)\n",
                    w[1]);
            return 0;
        }
        a.kind = R_RESOLVE;
        send_report(r, a.move_roll ? 2 : 1, pack_rep, &a);
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
        char pt[128];
        join(w, at + 1 < n ? at + 1 : n, n, pt, sizeof pt);
        if (at < 2 || (at < n && (n - at > 4 || opfor_cli_parse_xy(pt, &a.x, &a.y))))
            return usage_line("a UNIT [at X,Y]");
        a.has_pt = at < n;
        join(w, 1, at, unit, sizeof unit);
        if (strlen(unit) == 1) {
            too_short(r, unit);
            return 0;
        }
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
        /* the point is the last word ("X,Y"), or the last two ("X Y", "X, Y") */
        int from = n - 1;
        char pt[128];
        if (n >= 3 && opfor_cli_parse_xy(w[n - 1], &a.x, &a.y) != 0)
            from = n - 2;
        join(w, from, n, pt, sizeof pt);
        if (from < 2 || opfor_cli_parse_xy(pt, &a.x, &a.y))
            return usage_line("m UNIT X,Y");
        join(w, 1, from, unit, sizeof unit);
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

static int remote_game(remote_t *r, const opfor__patrol_client_t *o);

int opfor__patrol_remote(int argc, char **argv) {
    const char *addr = NULL, *token_file = NULL, *scenario = NULL, *diff = NULL, *game = NULL;
    const char *resume = NULL, *name = NULL;
    long seed = -1;
    int usage_rc, cheat = 0, verbose = 0;
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
        PATROL_NAME_OPT(&name, "a new game's name for the high-score table (default: the\n"
                               "game's id)"),
        PATROL_CHEAT_OPT(&cheat),
        PATROL_VERBOSE_OPT(&verbose),
        {.name = "--resume-hint",
         .type = OPFOR_CLI_STRING,
         .string = &resume,
         .arg = "CMD",
         .wants = "a command",
         .help = "the command the closing line gives for taking the game up\n"
                 "again, the game's id appended (`make run` gives\n"
                 "\"make run GAME=\"; default: this command with --game ID)"},
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "patrol",
        .usage = "--connect ADDR [--token-file FILE] [--scenario NAME|FILE] [--seed S]\n"
                 "                    [--level LEVEL] [--name PLAYER] [--cheat] [--verbose]\n"
                 "                    [--game ID] [--resume-hint CMD]",
        .about = "Plays Patrol Mode at the table against the daemon (opford), which keeps the\n"
                 "game: --game ID resumes a saved game instead of starting one. Type `help` in\n"
                 "the game for its commands.",
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &usage_rc))
        return usage_rc;
    if (game && (name || cheat))
        return opfor_cli_usage_error("patrol: --name and --cheat set up a new game; a game taken "
                                     "up with --game keeps its own");
    opfor__patrol_client_t o = {.addr = addr,
                                .player = name,
                                .cheat = cheat,
                                .verbose = verbose,
                                .token_file = token_file,
                                .scenario = scenario,
                                .level = diff,
                                .game = game,
                                .resume = resume,
                                .seed = seed};
    return opfor__patrol_client(&o);
}

int opfor__patrol_client(const opfor__patrol_client_t *o) {
    remote_t r;
    memset(&r, 0, sizeof r);
    r.interactive = isatty(0);
    r.addr = o->addr;
    r.resume = o->resume;
    r.local = o->local;
    r.verbose = o->verbose;
    r.kept_in = o->state_dir;
    pthread_mutex_init(&r.mu, NULL);
    /* SIGINT and SIGTERM go to the signal thread only (see signal_thread) */
    sigset_t stop, old_mask;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, &old_mask);
    /* the local game: opford's server on a thread of this process, started with the signals
       blocked so that they stay the signal thread's */
    opfor__local_daemon_t *daemon = NULL;
    opfor__patrol_client_t lo = *o;
    if (o->local) {
        char err[600];
        if (opfor__local_daemon_start(&daemon, o->state_dir, o->scores_db, err, sizeof err) < 0) {
            pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
            pthread_mutex_destroy(&r.mu);
            return opfor_cli_fail("patrol: cannot start the game: %s", err);
        }
        snprintf(r.tmpdir, sizeof r.tmpdir, "%s", opfor__local_daemon_dir(daemon));
        lo.addr = opfor__local_daemon_socket(daemon);
    }
    pthread_t sig_tid;
    int have_sig_thread = pthread_create(&sig_tid, NULL, signal_thread, &r) == 0;
    int code = remote_game(&r, &lo);
    if (have_sig_thread) {
        pthread_cancel(sig_tid);
        pthread_join(sig_tid, NULL);
    }
    opfor__local_daemon_stop(daemon);
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    pthread_mutex_destroy(&r.mu);
    return code;
}

/* The game itself: start or resume it, then the command loop. */
static int remote_game(remote_t *r, const opfor__patrol_client_t *o) {
    const char *scenario = o->scenario, *diff = o->level, *game = o->game;
    long seed = o->seed;
    r->c = opfor__rpc_open_dest(o->addr, o->token_file, &r->dest);
    if (!r->c)
        return OPFOR_EXIT_FAIL;
    opfor_client_set_timeout(r->c, 120000);
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
        rc = opfor_client_call(r->c, "game.state", pack_prebuilt, &sb, &res);
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
                opfor_client_close(r->c);
                return opfor_cli_fail("patrol: %s: cannot read the scenario", scenario);
            }
        }
        msgpack_pack_map(
            &pk, (size_t)(!!scenario + !!yaml + !!diff + (seed >= 0) + !!o->player + !!o->cheat));
        if (o->player) { /* the high-score table's name, kept with the game */
            opfor_rpc_pack_cstr(&pk, "player");
            opfor_rpc_pack_cstr(&pk, o->player);
        }
        if (o->cheat) { /* the AI reads the true future spawns, kept with the game */
            opfor_rpc_pack_cstr(&pk, "cheat");
            msgpack_pack_true(&pk);
        }
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
        rc = opfor_client_call(r->c, "game.new", pack_prebuilt, &sb, &res);
    }
    free(yaml);
    msgpack_sbuffer_destroy(&sb);
    if (rc) {
        if (rc == OPFOR_CLIENT_REMOTE)
            print_refusal(r);
        else
            fprintf(stderr, "opfor: patrol: %s\n", opfor_client_error_message(r->c));
        rc =
            rc == OPFOR_CLIENT_REMOTE && opfor_client_error_code(r->c) == OPFOR_RPC_E_INVALID_PARAMS
                ? OPFOR_EXIT_USAGE
                : OPFOR_EXIT_FAIL;
        opfor_client_close(r->c);
        return rc;
    }
    pthread_mutex_lock(&r->mu);
    opfor__rpc_str(res, "game", r->game, sizeof r->game);
    pthread_mutex_unlock(&r->mu);
    saw(r, res);
    saw_events(r, res);
    if (!r->local)
        printf("Viktoria! Patrol Mode against opford: game %s\n", r->game);
    else if (r->kept_in)
        printf("Viktoria! Patrol Mode: game %s, kept in %s\n", r->game, r->kept_in);
    else
        printf("Viktoria! Patrol Mode: game %s, not kept (--no-save)\n", r->game);
    if (o->fresh_seed && !game)
        printf("A new game: `opfor patrol --seed %ld` plays it again.\n", seed);
    if (!game)
        briefing(scenario, res);
    if (!game && o->cheat)
        printf("The AI is cheating: it knows what will be spotted next.\n");
    opfor__rpc_print_state(stdout, res);
    print_front(res);
    check_over(r, res);
    printf("Type `help` for the commands; `i` presses the initiative button.\n");
    pick_up(r, res); /* a client that left while the AI was thinking: its orders now */
    fflush(stdout);
    char line[LINE_LEN];
    while (!r->over) {
        char *w[MAX_WORDS];
        fetch_events(r, 1); /* what any client did since: before the prompt */
        fflush(stdout);
        int n = opfor__patrol_read_command(stdin, line, sizeof line, r->interactive, w, MAX_WORDS);
        if (n < 0)
            break;
        if (!strcmp(w[0], "q") || !strcmp(w[0], "quit"))
            break;
        /* and while the player typed: before the command runs (not sent when the connection
           was lost and did not come back: the next command tries again) */
        if (fetch_events(r, 1) == -2)
            continue;
        command(r, w, n);
        fflush(stdout);
    }
    print_leave(r);
    opfor_client_close(r->c);
    return OPFOR_EXIT_OK;
}
