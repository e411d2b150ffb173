/* tools/opfor/cmd_selfplay.c — `opfor selfplay RULESET [--scenario FILE] --games N --seed S
 * [--policy-a P] [--policy-b P] [--max-steps N] [--json]`: whole games between two policies
 * on any registered two-player ruleset, each game seeded from S and its number, no timings
 * printed, so the same command prints the same output every time.
 *
 * A ruleset that brings its own selfplay (RULESET_COMMANDS in its ruleset.cmake, e.g.
 * one over its engine's own policies, whose output tests pin) gets it: the command is
 * handed on whole. The others play here over the interface: the policies of ai/arena's
 * catalogue (random, mcts:LEVEL, the ruleset's bots) through opfor_arena_play.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/arena.h"
#include "opfor/error.h"
#include "opfor/ruleset.h"

#define SELFPLAY_MAX_GAMES 1000000L

/* The registered rulesets' names, ", "-separated, into buf. */
static const char *ruleset_names(char *buf, size_t n) {
    size_t count = 0, len = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&count);
    buf[0] = '\0';
    for (size_t i = 0; i < count && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", list[i].name);
    return buf;
}

/* What the generic command reads. */
typedef struct selfplay_opts {
    const char *scenario, *pa, *pb;
    long games, seed, max_steps;
    int json;
} selfplay_opts_t;

/* One game of the run, printed as text or as a JSON object. */
static void print_game(const selfplay_opts_t *o, opfor_json_t *j, long g, const opfor_game_t *gm,
                       const void *state, const opfor_arena_game_t *r) {
    const char *res = r->outcome > 0 ? "won by a" : r->outcome == 0 ? "a draw" : "won by b";
    int winner = r->outcome > 0 ? 0 : r->outcome == 0 ? -1 : 1;
    opfor_progress_t pr;
    int have_pr = opfor_game_progress(gm, state, &pr) == 0;
    char hex[24] = "";
    if (gm->rs->hash)
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)opfor_game_hash(gm, state));
    if (o->json) {
        opfor_json_obj_begin(j);
        opfor_json_kv_int(j, "game", g + 1);
        opfor_json_kv_int(j, "winner_side", winner);
        opfor_json_kv_num(j, "return_a", r->ret_a);
        opfor_json_kv_int(j, "steps", r->steps);
        if (have_pr) {
            opfor_json_kv_int(j, "turns", (long)pr.turn);
            opfor_json_kv_int(j, "activations", (long)pr.activation);
        }
        if (hex[0])
            opfor_json_kv_str(j, "hash", hex);
        opfor_json_obj_end(j);
        return;
    }
    printf("game %ld: %s, return %.2f, steps %ld", g + 1, res, r->ret_a, r->steps);
    if (have_pr)
        printf(", turns %u, activations %u", (unsigned)pr.turn, (unsigned)pr.activation);
    if (hex[0])
        printf(", hash %s", hex);
    printf("\n");
}

/* Plays the run on rs; returns the exit code. */
static int play(const opfor_ruleset_t *rs, const selfplay_opts_t *o) {
    opfor_diag_t d;
    opfor_diag_clear(&d);
    void *ctx = NULL;
    int err = opfor_ruleset_ctx_new(rs, o->scenario, &ctx, &d);
    if (err == OPFOR_ENOTSUP)
        return opfor_cli_fail("selfplay: the ruleset '%s' cannot start a game (no ctx_new)",
                              rs->name);
    if (err) {
        char where[1024];
        opfor_diag_format(&d, where, sizeof where);
        return opfor_cli_fail("selfplay: %s", where);
    }
    opfor_game_t gm;
    if (opfor_game_init(&gm, rs, ctx, 0) != 0) {
        opfor_ruleset_ctx_free(rs, ctx);
        return opfor_cli_fail("selfplay: the ruleset '%s' has a bad descriptor", rs->name);
    }
    opfor_arena_policy_t pol[2];
    memset(pol, 0, sizeof pol);
    const char *spec[2] = {o->pa, o->pb};
    int rc = OPFOR_EXIT_OK, opened = 0;
    for (; opened < 2; opened++) {
        err = opfor_arena_policy_open(NULL, spec[opened], &gm, &pol[opened]);
        if (err) {
            rc = opfor_cli_fail("selfplay: policy '%s': %s", spec[opened], opfor_strerror(err));
            break;
        }
    }
    void *state = rc ? NULL : malloc(rs->state_size);
    opfor_action_t *acts = rc ? NULL : malloc((size_t)rs->max_actions * sizeof *acts);
    if (!rc && (!state || !acts))
        rc = opfor_cli_fail("selfplay: out of memory");
    opfor_json_t j;
    if (!rc && o->json) {
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "ruleset", rs->name);
        opfor_json_kv_int(&j, "seed", o->seed);
        opfor_json_kv_str(&j, "policy_a", pol[0].name);
        opfor_json_kv_str(&j, "policy_b", pol[1].name);
        opfor_json_key(&j, "games");
        opfor_json_arr_begin(&j);
    } else if (!rc) {
        printf("ruleset: %s\nsides: a (%s) vs b (%s), at most %ld steps a game\n", rs->name,
               pol[0].name, pol[1].name, o->max_steps);
    }
    long wins[2] = {0, 0}, draws = 0, errors = 0, steps = 0;
    opfor_arena_policy_t *const pp[2] = {&pol[0], &pol[1]};
    for (long g = 0; !rc && g < o->games; g++) {
        opfor_arena_game_t r;
        memset(&r, 0, sizeof r);
        err = opfor_arena_play(&gm, opfor_arena_game_seed((uint64_t)o->seed, g), pp, NULL,
                               o->max_steps, state, acts, &r);
        if (err) {
            errors++;
            fprintf(stderr, "opfor: selfplay: game %ld: %s\n", g + 1, opfor_strerror(err));
            continue;
        }
        wins[0] += r.outcome > 0;
        wins[1] += r.outcome < 0;
        draws += r.outcome == 0;
        steps += r.steps;
        print_game(o, &j, g, &gm, state, &r);
    }
    if (!rc) {
        long played = o->games - errors;
        double mean = played > 0 ? (double)steps / (double)played : 0.0;
        if (o->json) {
            opfor_json_arr_end(&j);
            opfor_json_key(&j, "summary");
            opfor_json_obj_begin(&j);
            opfor_json_kv_int(&j, "games", o->games);
            opfor_json_kv_int(&j, "wins_a", wins[0]);
            opfor_json_kv_int(&j, "wins_b", wins[1]);
            opfor_json_kv_int(&j, "draws", draws);
            opfor_json_kv_int(&j, "errors", errors);
            opfor_json_kv_num(&j, "mean_steps", mean);
            opfor_json_obj_end(&j);
            opfor_json_obj_end(&j);
            opfor_json_end(&j);
        } else {
            printf("summary: %ld games, a won %ld, b won %ld, %ld drawn, %ld failed; mean %.1f "
                   "steps\n",
                   o->games, wins[0], wins[1], draws, errors, mean);
        }
        if (errors)
            rc = OPFOR_EXIT_FAIL;
    }
    free(acts);
    free(state);
    for (int s = 0; s < opened; s++)
        if (pol[s].release)
            pol[s].release(pol[s].self);
    opfor_ruleset_ctx_free(rs, ctx);
    return rc;
}

int opfor_cmd_selfplay(int argc, char **argv) {
    selfplay_opts_t o = {NULL, "random", "random", -1, -1, 100000, 0};
    int rc = 0;
    const opfor_cli_opt_t opts[] = {
        {.name = "--scenario",
         .type = OPFOR_CLI_STRING,
         .string = &o.scenario,
         .arg = "FILE",
         .wants = "a file name",
         .help = "scenario file (default: the ruleset's own)"},
        {.name = "--games",
         .type = OPFOR_CLI_WHOLE,
         .whole = &o.games,
         .lo = 1,
         .hi = SELFPLAY_MAX_GAMES,
         .arg = "N",
         .help = "games to play, 1..1000000 (required)"},
        OPFOR_CLI_SEED_OPT(&o.seed, "seed, a whole number >= 0 (required)"),
        {.name = "--policy-a",
         .type = OPFOR_CLI_STRING,
         .string = &o.pa,
         .arg = "P",
         .help = "policy of side 0: random (default), mcts:LEVEL or one of the\n"
                 "ruleset's bots (opfor arena --ruleset NAME --help lists them)"},
        {.name = "--policy-b",
         .type = OPFOR_CLI_STRING,
         .string = &o.pb,
         .arg = "P",
         .help = "policy of side 1 (the same choices)"},
        {.name = "--max-steps",
         .type = OPFOR_CLI_WHOLE,
         .whole = &o.max_steps,
         .lo = 1,
         .hi = 100000000,
         .arg = "N",
         .help = "actions (chance included) before a game is a draw (default 100000)"},
        OPFOR_CLI_JSON_OPT(&o.json),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "selfplay",
        .args = "RULESET",
        .about = "Plays N seeded games of a two-player ruleset between two policies and prints\n"
                 "each result and a summary; the same command prints the same output every time.\n"
                 "A ruleset with a selfplay of its own runs that instead (below).",
        .opts = opts,
    };
    char names[256];
    if (argc < 2 || opfor_cli_is_help(argv[1])) {
        if (argc < 2)
            return opfor_cli_usage_error("selfplay: which ruleset? (%s; see opfor selfplay "
                                         "--help)",
                                         ruleset_names(names, sizeof names));
        opfor_cli_usage(stdout, &spec);
        for (const opfor_cli_ruleset_cmd_t *c = opfor_cli_ruleset_commands; c->ruleset; c++)
            if (strcmp(c->cmd.name, "selfplay") == 0) {
                char *help[] = {(char *)"selfplay", (char *)"--help", NULL};
                printf("\n");
                c->cmd.fn(2, help);
            }
        return OPFOR_EXIT_OK;
    }
    const opfor_ruleset_t *rs = opfor_ruleset_find(argv[1]);
    if (!rs)
        return opfor_cli_usage_error("selfplay: unknown ruleset '%s'; allowed: %s (see opfor "
                                     "selfplay --help)",
                                     argv[1], ruleset_names(names, sizeof names));
    const opfor_cli_cmd_t *own = opfor_cli_ruleset_command(rs->name, "selfplay");
    if (own) {
        /* Its own command line, with the ruleset as registered. */
        char **args = malloc((size_t)(argc + 1) * sizeof *args);
        if (!args)
            return opfor_cli_fail("selfplay: out of memory");
        memcpy(args, argv, (size_t)argc * sizeof *args);
        args[1] = (char *)rs->name;
        args[argc] = NULL;
        rc = own->fn(argc, args);
        free(args);
        return rc;
    }
    if (opfor_cli_parse(&spec, argc, argv, 2, &rc))
        return rc;
    if (o.games < 0)
        return opfor_cli_usage_error("selfplay: --games N is required (1 to %ld)",
                                     SELFPLAY_MAX_GAMES);
    if (o.seed < 0)
        return opfor_cli_usage_error("selfplay: --seed S is required (a whole number >= 0)");
    if (rs->max_players != 2)
        return opfor_cli_usage_error("selfplay: '%s' is not a two-player ruleset", rs->name);
    for (int s = 0; s < 2; s++) {
        const char *p = s ? o.pb : o.pa;
        if (!opfor_arena_policy_known(rs, p)) {
            char list[512];
            return opfor_cli_usage_error("selfplay: --policy-%c must be one of %s, got '%s'",
                                         s ? 'b' : 'a',
                                         opfor_arena_policy_list(rs, list, sizeof list), p);
        }
    }
    return play(rs, &o);
}
