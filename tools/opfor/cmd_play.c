/* tools/opfor/cmd_play.c — `opfor play RULESET`: a game of any registered ruleset in the
 * terminal, the player on one side and the AI on the others.
 *
 * Generic by construction: it sees the game only through the ruleset interface (the player's
 * view, the ruleset's picture of it, legal actions numbered by their phrases, chance applied
 * from the state's own stream) and the AI only through ai/ (opfor_ai_decide with the ruleset's
 * evaluator and search settings, the order worded by the ruleset when it can). Commands come
 * from stdin one line at a time, so a pipe can play a whole game (tests/cli/play.sh).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/ai.h"
#include "opfor/mcts.h"
#include "opfor/order.h"
#include "opfor/ruleset.h"
#include "opfor/ruleset_ai.h"

#define PLAY_POOL_BYTES ((size_t)16 << 20)
#define PLAY_MAX_TURNS 100000 /* a game longer than this is a broken ruleset */

typedef struct play {
    const opfor_ruleset_t *rs;
    opfor_game_t g;
    void *ctx;
    unsigned char *state, *view;
    opfor_action_t *acts;
    opfor_scene_t *scene, *before; /* the player's picture now and before the last step */
    opfor_mcts_t *mcts;
    const opfor_evaluator_t *ev;
    int side, level, json;
    uint64_t seed, decisions;
    opfor_json_t j;
} play_t;

/* What `opfor play` says about itself after its usage line. */
#define PLAY_ABOUT                                                                                 \
    "Plays a game of RULESET in the terminal: you take side N (default 0), the AI the\n"           \
    "others at level L (novice, standard, veteran, ruthless; default standard). Each\n"            \
    "turn lists your legal actions numbered; type a number. Dice are rolled for you.\n"            \
    "Commands: a number, `show` (the table again), `help`, `quit`. Reads stdin line by\n"          \
    "line, so a pipe can play. --json prints one JSON object per line instead.\n"                  \
    "The game ends with a line `result: ...`."

/* ---------------------------------------------------------------- printing */

/* The player's picture: units and labels of the ruleset's scene for the player's side. */
static int draw(play_t *p, opfor_scene_t *sc) {
    return opfor_game_scene(&p->g, p->state, p->side, sc);
}

static void print_scene(play_t *p) {
    if (draw(p, p->scene) != 0)
        return;
    const opfor_scene_t *sc = p->scene;
    if (p->json) {
        opfor_json_obj_begin(&p->j);
        opfor_json_kv_str(&p->j, "type", "table");
        opfor_json_key(&p->j, "units");
        opfor_json_arr_begin(&p->j);
        for (int i = 0; i < sc->nunits; i++)
            opfor_json_str(&p->j, sc->units[i].name);
        opfor_json_arr_end(&p->j);
        opfor_json_key(&p->j, "labels");
        opfor_json_arr_begin(&p->j);
        for (int i = 0; i < sc->nlabels; i++)
            opfor_json_str(&p->j, sc->labels[i].text);
        opfor_json_arr_end(&p->j);
        opfor_json_obj_end(&p->j);
        opfor_json_end(&p->j);
        return;
    }
    printf("table:");
    for (int i = 0; i < sc->nunits; i++)
        printf("%s %s%s", i ? "," : "", sc->units[i].name,
               (sc->units[i].flags & OPFOR_SCENE_U_ACTING) ? " (to act)" : "");
    printf("\n");
    for (int i = 0; i < sc->nlabels; i++)
        printf("  %s\n", sc->labels[i].text);
}

/* A line of the game's story: kind "ai", "you", "chance". */
static void say(play_t *p, const char *kind, int side, const char *text) {
    if (p->json) {
        opfor_json_obj_begin(&p->j);
        opfor_json_kv_str(&p->j, "type", kind);
        if (side >= 0)
            opfor_json_kv_int(&p->j, "side", side);
        opfor_json_kv_str(&p->j, "text", text);
        opfor_json_obj_end(&p->j);
        opfor_json_end(&p->j);
    } else if (side >= 0) {
        printf("%s (side %d): %s\n", kind, side, text);
    } else {
        printf("%s: %s\n", kind, text);
    }
}

/* What the last step changed on the player's picture: its labels that are new. */
static void tell_news(play_t *p) {
    if (draw(p, p->scene) != 0)
        return;
    for (int i = 0; i < p->scene->nlabels; i++) {
        int seen = 0;
        for (int k = 0; k < p->before->nlabels && !seen; k++)
            seen = !strcmp(p->scene->labels[i].text, p->before->labels[k].text);
        if (!seen)
            say(p, "news", -1, p->scene->labels[i].text);
    }
}

/* ---------------------------------------------------------------- the steps */

static int step(play_t *p, const opfor_action_t *a) {
    draw(p, p->before);
    int rc = opfor_game_apply(&p->g, p->state, a);
    if (rc < 0)
        return opfor_cli_fail("play: the ruleset refused its own listed action: %s",
                              opfor_strerror(rc));
    tell_news(p);
    return 0;
}

static int chance(play_t *p) {
    int n = opfor_game_legal(&p->g, p->state, p->acts, p->rs->max_actions);
    if (n < 1)
        return opfor_cli_fail("play: a chance node with no roll listed");
    char phrase[256];
    opfor_game_action_str(&p->g, p->state, &p->acts[0], phrase, sizeof phrase);
    say(p, "dice", -1, phrase);
    return step(p, &p->acts[0]);
}

static int ai_turn(play_t *p, int side) {
    opfor_ai_decision_t *d = calloc(1, sizeof *d);
    if (!d)
        return opfor_cli_fail("play: out of memory");
    int rc = opfor_ai_decide_opts(p->mcts, &p->g, p->state, p->ev, p->level, p->decisions++, NULL,
                                  OPFOR_AI_EXACT, d);
    if (rc < 0) {
        free(d);
        return opfor_cli_fail("play: the AI could not decide: %s", opfor_strerror(rc));
    }
    opfor_action_t a = d->action;
    free(d);
    char text[320] = "";
    const opfor_ruleset_ai_t *ai = p->rs->ai;
    opfor_order_t o;
    if (ai && ai->order && ai->order(p->ctx, p->state, &a, &o) == 0 && o.sentence[0])
        snprintf(text, sizeof text, "%s", o.sentence);
    else
        opfor_game_action_str(&p->g, p->state, &a, text, sizeof text);
    say(p, "ai", side, text);
    return step(p, &a);
}

static void list_actions(play_t *p, int n) {
    char phrase[256];
    /* phrases from the player's view: they cannot show what the player cannot know */
    opfor_game_view(&p->g, p->state, p->side, p->view);
    if (p->json) {
        opfor_json_obj_begin(&p->j);
        opfor_json_kv_str(&p->j, "type", "prompt");
        opfor_json_kv_int(&p->j, "side", p->side);
        opfor_json_key(&p->j, "actions");
        opfor_json_arr_begin(&p->j);
        for (int i = 0; i < n; i++)
            opfor_json_str(
                &p->j, opfor_game_action_str(&p->g, p->view, &p->acts[i], phrase, sizeof phrase));
        opfor_json_arr_end(&p->j);
        opfor_json_obj_end(&p->j);
        opfor_json_end(&p->j);
        return;
    }
    printf("your move (side %d):\n", p->side);
    for (int i = 0; i < n; i++)
        printf("  %d. %s\n", i + 1,
               opfor_game_action_str(&p->g, p->view, &p->acts[i], phrase, sizeof phrase));
    printf("> ");
    fflush(stdout);
}

/* Reads commands until one is an action; 1 when the player quit or input ended (*rc set). */
static int player_turn(play_t *p, int *rc) {
    int n = opfor_game_legal(&p->g, p->state, p->acts, p->rs->max_actions);
    if (n < 1) {
        *rc = opfor_cli_fail("play: side %d has no legal action", p->side);
        return 1;
    }
    print_scene(p);
    list_actions(p, n);
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        char *w = line;
        while (*w == ' ' || *w == '\t')
            w++;
        long k;
        if (!*w)
            continue;
        if (!strcmp(w, "quit") || !strcmp(w, "q")) {
            say(p, "quit", -1, "you left the game");
            *rc = OPFOR_EXIT_OK;
            return 1;
        }
        if (!strcmp(w, "help") || !strcmp(w, "?")) {
            if (!p->json)
                printf("type the number of an action (1..%d), `show` for the table, `quit` to "
                       "leave\n",
                       n);
        } else if (!strcmp(w, "show")) {
            print_scene(p);
        } else if (opfor_cli_parse_long(w, &k) == 0 && k >= 1 && k <= n) {
            char phrase[256];
            opfor_game_action_str(&p->g, p->state, &p->acts[k - 1], phrase, sizeof phrase);
            say(p, "you", p->side, phrase);
            *rc = step(p, &p->acts[k - 1]);
            return *rc != 0;
        } else {
            say(p, "error", -1, "not a command: type a number from the list, or help");
        }
        list_actions(p, n);
    }
    *rc = opfor_cli_fail("play: input ended before the game did");
    return 1;
}

static void result(play_t *p) {
    double v[OPFOR_MAX_PLAYERS];
    opfor_game_returns(&p->g, p->state, v);
    int best = 0, ties = 0;
    for (int i = 1; i < p->rs->max_players; i++)
        if (v[i] > v[best])
            best = i;
    for (int i = 0; i < p->rs->max_players; i++)
        ties += v[i] == v[best];
    char text[256];
    size_t k;
    if (ties > 1)
        k = (size_t)snprintf(text, sizeof text, "a draw");
    else
        k = (size_t)snprintf(text, sizeof text, "side %d wins (%s)", best,
                             best == p->side ? "you" : "the AI");
    k += (size_t)snprintf(text + k, sizeof text - k, ", returns");
    for (int i = 0; i < p->rs->max_players && k < sizeof text; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, " %+.2f", v[i]);
    print_scene(p);
    if (p->json) {
        opfor_json_obj_begin(&p->j);
        opfor_json_kv_str(&p->j, "type", "result");
        opfor_json_kv_int(&p->j, "winner", ties > 1 ? -1 : best);
        opfor_json_key(&p->j, "returns");
        opfor_json_arr_begin(&p->j);
        for (int i = 0; i < p->rs->max_players; i++)
            opfor_json_num(&p->j, v[i]);
        opfor_json_arr_end(&p->j);
        opfor_json_kv_str(&p->j, "text", text);
        opfor_json_obj_end(&p->j);
        opfor_json_end(&p->j);
    } else {
        printf("result: %s\n", text);
    }
}

/* ---------------------------------------------------------------- setup */

static int open_game(play_t *p, const char *scenario) {
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    int rc = opfor_ruleset_ctx_new(p->rs, scenario, &p->ctx, &d);
    if (rc == OPFOR_ENOTSUP && !scenario)
        rc = 0;
    if (rc < 0) {
        char where[800];
        return opfor_cli_fail("play: %s: %s", opfor_strerror(rc),
                              d.msg[0] ? opfor_diag_format(&d, where, sizeof where)
                                       : (scenario ? scenario : "its default scenario"));
    }
    if (opfor_game_init(&p->g, p->rs, p->ctx, OPFOR_GAME_CHECK_LEGAL) != 0)
        return opfor_cli_fail("play: the ruleset '%s' has a bad descriptor", p->rs->name);
    p->state = calloc(1, p->rs->state_size);
    p->view = calloc(1, p->rs->state_size);
    p->acts = calloc((size_t)p->rs->max_actions, sizeof *p->acts);
    p->scene = calloc(1, sizeof *p->scene);
    p->before = calloc(1, sizeof *p->before);
    if (!p->state || !p->view || !p->acts || !p->scene || !p->before)
        return opfor_cli_fail("play: out of memory");
    if ((rc = opfor_game_new_state(&p->g, p->state, p->seed)) < 0)
        return opfor_cli_fail("play: cannot start a game: %s", opfor_strerror(rc));
    const opfor_ruleset_ai_t *ai = p->rs->ai;
    p->ev = ai ? ai->evaluator : NULL;
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    opfor_ai_search_tuning(p->rs, &cfg); /* as the daemon's games search */
    cfg.memory_bytes = PLAY_POOL_BYTES;
    cfg.seed = p->seed;
    if ((rc = opfor_mcts_create(&p->mcts, p->rs, &cfg, p->ev ? p->ev->scratch_size : 0)) < 0)
        return opfor_cli_fail("play: cannot set up the AI: %s", opfor_strerror(rc));
    return 0;
}

static void close_game(play_t *p) {
    opfor_mcts_free(p->mcts);
    free(p->state);
    free(p->view);
    free(p->acts);
    free(p->scene);
    free(p->before);
    opfor_ruleset_ctx_free(p->rs, p->ctx);
}

/* The registered names, for errors. */
static void names(char *buf, size_t n) {
    size_t k = 0, count = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&count);
    buf[0] = 0;
    for (size_t i = 0; i < count && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", list[i].name);
}

/* RULESET: the one positional argument of `opfor play`. */
static int ruleset_arg(void *ud, const char *arg) {
    const char **rsname = ud;
    if (*rsname)
        return opfor_cli_usage_error("play: one ruleset only; got '%s' after '%s'", arg, *rsname);
    *rsname = arg;
    return 0;
}

int opfor_cmd_play(int argc, char **argv) {
    play_t p;
    memset(&p, 0, sizeof p);
    p.seed = 1;
    p.level = OPFOR_AI_STANDARD;
    const char *rsname = NULL, *scenario = NULL;
    long side = 0, seed = 1;
    const opfor_cli_opt_t opts[] = {
        OPFOR_CLI_SEED_OPT(&seed, "the game's seed (default 1)"),
        {.name = "--level",
         .type = OPFOR_CLI_CHOICE,
         .choice = &p.level,
         .names = opfor_ai_level_names,
         .arg = "L",
         .help = "how well the AI plays (default standard; challenge plays as veteran)"},
        {.name = "--side",
         .type = OPFOR_CLI_WHOLE,
         .whole = &side,
         .lo = 0,
         .hi = OPFOR_MAX_PLAYERS - 1,
         .arg = "N",
         .help = "the side you take (default 0)"},
        {.name = "--scenario",
         .type = OPFOR_CLI_STRING,
         .string = &scenario,
         .arg = "FILE",
         .wants = "a scenario file or a built-in scenario's name",
         .help = "a scenario file, or a built-in scenario's name (default: the ruleset's)"},
        {.name = "--json",
         .type = OPFOR_CLI_FLAG,
         .flag = &p.json,
         .help = "one JSON object per line instead of text"},
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "play",
        .args = "RULESET",
        .about = PLAY_ABOUT,
        .opts = opts,
        .positional = ruleset_arg,
        .ud = &rsname,
    };
    int usage_rc;
    if (opfor_cli_parse(&spec, argc, argv, 1, &usage_rc))
        return usage_rc;
    char known[256];
    names(known, sizeof known);
    if (!rsname) {
        opfor_cli_usage(stderr, &spec);
        return opfor_cli_usage_error("play: which ruleset? (%s)", known);
    }
    p.rs = opfor_ruleset_find(rsname);
    if (!p.rs)
        return opfor_cli_usage_error("play: ruleset '%s' is not built in (this build has: %s; "
                                     "test-only rulesets need -DOPFOR_TEST_RULESETS=ON)",
                                     rsname, known);
    if (side >= p.rs->max_players)
        return opfor_cli_usage_error("play: --side must be from 0 to %d for %s; got %ld",
                                     p.rs->max_players - 1, p.rs->name, side);
    if (p.level == OPFOR_AI_CHALLENGE)
        p.level = OPFOR_AI_VETERAN; /* the director belongs to a ruleset's own table */
    p.side = (int)side;
    p.seed = (uint64_t)seed;
    opfor_json_init(&p.j, stdout);
    int rc = open_game(&p, scenario);
    if (rc == 0) {
        if (!p.json)
            printf("%s, seed %llu: you are side %d, the AI plays %s at %s\n", p.rs->title,
                   (unsigned long long)p.seed, p.side,
                   p.rs->max_players > 2 ? "the others" : "the other side",
                   opfor_ai_level_info(p.level)->name);
        for (long turn = 0;; turn++) {
            if (turn >= PLAY_MAX_TURNS) {
                rc = opfor_cli_fail("play: the game did not end in %d steps", PLAY_MAX_TURNS);
                break;
            }
            int who = opfor_game_current(&p.g, p.state);
            if (who == OPFOR_PLAYER_TERMINAL) {
                result(&p);
                break;
            }
            if (who == OPFOR_PLAYER_CHANCE)
                rc = chance(&p);
            else if (who == p.side) {
                if (player_turn(&p, &rc))
                    break;
            } else
                rc = ai_turn(&p, who);
            if (rc != 0)
                break;
        }
    }
    close_game(&p);
    fflush(stdout);
    return rc;
}
