/* rulesets/viktoria/cli/cmd_selfplay.c — `opfor selfplay viktoria [--scenario FILE] --games N
 * --seed S
 * [--policy-a P] [--policy-b P] [--turns N] [--weather] [--specials] [--json]`: whole games
 * between built-in policies on the Viktoria! rules engine. Each game's seed derives from S and
 * its number, and no timings are printed, so the same command prints the same output every
 * time. A thin shell over opfor/viktoria/engine.h and policy.c: Viktoria!'s own version of the
 * generic `opfor selfplay RULESET` (tools/opfor/cmd_selfplay.c), registered in ruleset.cmake.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/rng.h"
#include "opfor/scenario.h"
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/model.h"

#define SELFPLAY_MAX_GAMES 1000000L

int opfor_vk_cmd_selfplay(int argc, char **argv);

int opfor_vk_cmd_selfplay(int argc, char **argv) {
    const char *scenario = NULL;
    long games = -1, seed = -1, turns = 0;
    int json = 0, rc = 0;
    opfor_vk_policy_t pa = OPFOR_VK_POLICY_RANDOM, pb = OPFOR_VK_POLICY_RANDOM;
    opfor_vk_options_t opt;
    memset(&opt, 0, sizeof opt);
    int pol_a = OPFOR_VK_POLICY_RANDOM, pol_b = OPFOR_VK_POLICY_RANDOM;
    const opfor_cli_opt_t opts[] = {
        {.name = "--scenario",
         .type = OPFOR_CLI_STRING,
         .string = &scenario,
         .arg = "FILE",
         .wants = "a file name",
         .help = "scenario YAML (default: the built-in competitive_default)"},
        {.name = "--games",
         .type = OPFOR_CLI_WHOLE,
         .whole = &games,
         .lo = 1,
         .hi = SELFPLAY_MAX_GAMES,
         .arg = "N",
         .help = "games to play, 1..1000000 (required)"},
        OPFOR_CLI_SEED_OPT(&seed, "seed, a whole number >= 0 (required)"),
        {.name = "--policy-a",
         .type = OPFOR_CLI_CHOICE,
         .choice = &pol_a,
         .names = opfor_vk_policy_names,
         .arg = "P",
         .help = "policy of the first side: random (default, uniform over the\n"
                 "legal actions), greedy (one ply), or random_kind (an action\n"
                 "group first, then one of its actions; lists lazily)"},
        {.name = "--policy-b",
         .type = OPFOR_CLI_CHOICE,
         .choice = &pol_b,
         .names = opfor_vk_policy_names,
         .arg = "P",
         .help = "policy of the second side: random, greedy or random_kind"},
        {.name = "--turns",
         .type = OPFOR_CLI_WHOLE,
         .whole = &turns,
         .lo = 1,
         .hi = 1000,
         .arg = "N",
         .help = "turn limit, 1..1000 (default: the scenario's, else 12)"},
        {.name = "--weather",
         .type = OPFOR_CLI_FLAG,
         .flag = &opt.weather_events,
         .help = "roll a weather event every turn (XIII)"},
        {.name = "--specials",
         .type = OPFOR_CLI_FLAG,
         .flag = &opt.specials,
         .help = "vehicles, automatons, walkers and flying craft rules (XII)"},
        OPFOR_CLI_JSON_OPT(&json),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "selfplay",
        .usage = "viktoria [--scenario FILE] --games N --seed S\n"
                 "                               [--policy-a P] [--policy-b P]\n"
                 "                               [--turns N] [--weather] [--specials] [--json]",
        .about = "Plays N whole Viktoria! games with simple built-in policies and prints each\n"
                 "result (winner, score, turns, casualties, activations, final state hash) and a\n"
                 "summary. The same command prints the same output every time.",
        .opts = opts,
    };
    if (argc > 1 && opfor_cli_is_help(argv[1])) {
        opfor_cli_usage(stdout, &spec);
        return OPFOR_EXIT_OK;
    }
    if (argc < 2 || strcmp(argv[1], "viktoria") != 0)
        return opfor_cli_usage_error("selfplay: the first argument must be a ruleset; allowed: "
                                     "viktoria (see opfor selfplay --help)");
    if (opfor_cli_parse(&spec, argc, argv, 2, &rc))
        return rc;
    pa = (opfor_vk_policy_t)pol_a;
    pb = (opfor_vk_policy_t)pol_b;
    if (games < 0)
        return opfor_cli_usage_error("selfplay: --games N is required (1 to %ld)",
                                     SELFPLAY_MAX_GAMES);
    if (seed < 0)
        return opfor_cli_usage_error("selfplay: --seed S is required (a whole number >= 0)");
    opt.turn_limit = (int)turns;

    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    if (!sc)
        return opfor_cli_fail("selfplay: out of memory");
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int err = scenario ? opfor_viktoria_scenario_load_file(scenario, sc, &d)
                       : opfor_viktoria_builtin_load("competitive_default", sc, &d);
    if (err) {
        char where[1024];
        opfor_diag_format(&d, where, sizeof where);
        free(sc);
        return opfor_cli_fail("selfplay: %s", where);
    }
    opfor_viktoria_model_t model;
    if (opfor_viktoria_model_default(&model, &d) != 0) {
        opfor_scenario_free(sc);
        free(sc);
        return opfor_cli_fail("selfplay: model: %s", d.msg);
    }
    opfor_vk_ctx_t *ctx = NULL;
    if (opfor_vk_ctx_init(&ctx, sc, &model, &opt, &d) != 0) {
        opfor_scenario_free(sc);
        free(sc);
        return opfor_cli_fail("selfplay: %s", d.msg);
    }
    const char *names[2] = {sc->sides[0].name, sc->sides[1].name};
    opfor_json_t j;
    if (json) {
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "ruleset", "viktoria");
        opfor_json_kv_str(&j, "scenario", sc->name);
        opfor_json_kv_int(&j, "seed", seed);
        opfor_json_kv_str(&j, "policy_a", opfor_vocab_name(opfor_vk_policy_names, pa));
        opfor_json_kv_str(&j, "policy_b", opfor_vocab_name(opfor_vk_policy_names, pb));
        opfor_json_kv_int(&j, "turn_limit", opfor_vk_ctx_turn_limit(ctx));
        opfor_json_kv_bool(&j, "weather", opt.weather_events);
        opfor_json_kv_bool(&j, "specials", opt.specials);
        opfor_json_key(&j, "games");
        opfor_json_arr_begin(&j);
    } else {
        printf("scenario: %s\nsides: %s (%s) vs %s (%s), turn limit %d\n", sc->name, names[0],
               opfor_vocab_name(opfor_vk_policy_names, pa), names[1],
               opfor_vocab_name(opfor_vk_policy_names, pb), opfor_vk_ctx_turn_limit(ctx));
    }
    long wins[2] = {0, 0}, draws = 0, total_turns = 0, total_acts = 0;
    long killed[2] = {0, 0};
    opfor_vk_state_t *fin = malloc(sizeof *fin);
    if (!fin) {
        opfor_vk_ctx_free(ctx);
        opfor_scenario_free(sc);
        free(sc);
        return opfor_cli_fail("selfplay: out of memory");
    }
    for (long g = 0; g < games; g++) {
        uint64_t gseed = opfor_rng_mix64((uint64_t)seed * 0x9E3779B97F4A7C15ULL + (uint64_t)g);
        uint64_t pseed = opfor_rng_mix64(gseed ^ 0x5bd1e995ULL);
        opfor_vk_result_t r;
        long acts = opfor_vk_play(ctx, gseed, pa, pb, pseed, &r, fin, NULL, 0, NULL);
        uint64_t h = opfor_vk_state_hash(fin);
        if (r.winner == 0 || r.winner == 1)
            wins[r.winner]++;
        else
            draws++;
        total_turns += r.turn;
        total_acts += acts;
        killed[0] += r.killed[0];
        killed[1] += r.killed[1];
        const char *w = r.winner == 0 ? names[0] : r.winner == 1 ? names[1] : "draw";
        char hex[24];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
        if (json) {
            opfor_json_obj_begin(&j);
            opfor_json_kv_int(&j, "game", g + 1);
            opfor_json_kv_str(&j, "winner", w);
            opfor_json_kv_int(&j, "winner_side", r.winner);
            opfor_json_key(&j, "score");
            opfor_json_arr_begin(&j);
            opfor_json_int(&j, r.score[0]);
            opfor_json_int(&j, r.score[1]);
            opfor_json_arr_end(&j);
            opfor_json_key(&j, "killed");
            opfor_json_arr_begin(&j);
            opfor_json_int(&j, r.killed[0]);
            opfor_json_int(&j, r.killed[1]);
            opfor_json_arr_end(&j);
            opfor_json_key(&j, "units_left");
            opfor_json_arr_begin(&j);
            opfor_json_int(&j, r.units[0]);
            opfor_json_int(&j, r.units[1]);
            opfor_json_arr_end(&j);
            opfor_json_kv_int(&j, "turns", r.turn);
            opfor_json_kv_int(&j, "activations", acts);
            opfor_json_kv_str(&j, "hash", hex);
            opfor_json_obj_end(&j);
        } else {
            char res[64]; /* "won by Austrians" or "a draw" */
            if (r.winner == 0 || r.winner == 1)
                snprintf(res, sizeof res, "won by %s", w);
            else
                snprintf(res, sizeof res, "a draw");
            printf("game %ld: %s, score %d-%d, turns %d, killed %d-%d, units left %d-%d, "
                   "activations %ld, hash %s\n",
                   g + 1, res, r.score[0], r.score[1], r.turn, r.killed[0], r.killed[1], r.units[0],
                   r.units[1], acts, hex);
        }
    }
    if (json) {
        opfor_json_arr_end(&j);
        opfor_json_key(&j, "summary");
        opfor_json_obj_begin(&j);
        opfor_json_kv_int(&j, "games", games);
        opfor_json_kv_int(&j, "wins_a", wins[0]);
        opfor_json_kv_int(&j, "wins_b", wins[1]);
        opfor_json_kv_int(&j, "draws", draws);
        opfor_json_kv_num(&j, "mean_turns", (double)total_turns / (double)games);
        opfor_json_kv_num(&j, "mean_activations", (double)total_acts / (double)games);
        opfor_json_kv_num(&j, "mean_killed_a", (double)killed[0] / (double)games);
        opfor_json_kv_num(&j, "mean_killed_b", (double)killed[1] / (double)games);
        opfor_json_obj_end(&j);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else {
        printf("summary: %ld games, %s won %ld, %s won %ld, %ld drawn; mean %.2f turns, %.1f "
               "activations, killed %.2f-%.2f\n",
               games, names[0], wins[0], names[1], wins[1], draws,
               (double)total_turns / (double)games, (double)total_acts / (double)games,
               (double)killed[0] / (double)games, (double)killed[1] / (double)games);
    }
    free(fin);
    opfor_vk_ctx_free(ctx);
    opfor_scenario_free(sc);
    free(sc);
    return OPFOR_EXIT_OK;
}
