/* rulesets/viktoria/cli/cmd_arena.c — `opfor arena [--ruleset viktoria] --a POLICY --b POLICY
 * --games N --seed S [--mode competitive|patrol] [--scenario FILE] [--threads T]
 * [--director on|off] [--band LO-HI] [--rollouts N] [--quiet] [--json]`: Viktoria!'s own
 * version of the generic `opfor arena` (tools/opfor/cmd_arena.c; registered in ruleset.cmake).
 *
 * Competitive games swap the sides every other game and cycle through the built-in
 * competitive scenarios (or --scenario); in Patrol Mode policy a plays the non-player side and
 * b the player side, with the director as referee choosing spottings. The run and the report
 * are the generic ones (tools/opfor/arena_cli.h), with the Patrol Mode lines added.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arena_cli.h"
#include "opfor/scenario.h"
#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/director.h"
#include "opfor/viktoria/player_bots.h"

int opfor_vk_cmd_arena(int argc, char **argv);

static const opfor_name_t ON_OFF[] = {{"on", 1}, {"off", 0}, {NULL, 0}};
/* The modes --mode takes (opfor_viktoria_mode_names also has the scenario files' aliases). */
static const opfor_name_t MODES[] = {
    {"competitive", OPFOR_MODE_COMPETITIVE}, {"patrol", OPFOR_MODE_COOP}, {NULL, 0}};

/* Whether s is LO-HI in percent with 0 <= LO <= HI <= 100 (--band). */
static int band_ok(const char *s) {
    int lo = -1, hi = -1, used = 0;
    return sscanf(s, "%d-%d%n", &lo, &hi, &used) == 2 && s[used] == 0 && lo >= 0 && hi <= 100 &&
           lo <= hi;
}

/* Loads a scenario (a file, or a built-in stem) into a context of the given mode. */
static int load_ctx(const char *file, const char *builtin, int mode, void **ctx, char *name,
                    size_t nname) {
    opfor_scenario_t *sc = calloc(1, sizeof *sc);
    if (!sc)
        return opfor_cli_fail("arena: out of memory");
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int err = file ? opfor_viktoria_scenario_load_file(file, sc, &d)
                   : opfor_viktoria_builtin_load(builtin, sc, &d);
    if (err == 0) {
        snprintf(name, nname, "%s", file ? file : builtin);
        sc->mode = mode;
        char label[300];
        snprintf(label, sizeof label, "%s%s", file ? "" : "builtin:", file ? file : builtin);
        opfor_vk_rs_ctx_t *vctx = NULL;
        err = opfor_vk_rs_ctx_new(&vctx, sc, label, NULL, &d);
        *ctx = vctx;
        opfor_scenario_free(sc);
    }
    free(sc);
    if (err) {
        char where[1024];
        opfor_diag_format(&d, where, sizeof where);
        return opfor_cli_fail("arena: %s", where);
    }
    return 0;
}

/* The contexts: the file, or every built-in whose own mode is the one asked for. */
static int load_ctxs(opfor_cli_arena_t *ar, int mode) {
    if (ar->scenario) {
        int rc =
            load_ctx(ar->scenario, NULL, mode, &ar->ctxs[0], ar->names[0], sizeof ar->names[0]);
        ar->nctx = rc ? 0 : 1;
        return rc;
    }
    int rc = 0;
    for (size_t k = 0;
         k < opfor_viktoria_builtin_count() && ar->nctx < OPFOR_CLI_ARENA_MAX_SCENARIOS; k++) {
        const char *stem = opfor_viktoria_builtin_name(k);
        opfor_scenario_t *sc = calloc(1, sizeof *sc);
        opfor_diag_t d;
        int own = -1;
        if (sc && opfor_viktoria_builtin_load(stem, sc, &d) == 0) {
            own = sc->mode;
            opfor_scenario_free(sc);
        }
        free(sc);
        if (own != mode)
            continue;
        if ((rc = load_ctx(NULL, stem, mode, &ar->ctxs[ar->nctx], ar->names[ar->nctx],
                           sizeof ar->names[0])) != 0)
            break;
        ar->nctx++;
    }
    if (rc == 0 && ar->nctx == 0)
        rc = opfor_cli_fail("arena: no built-in scenario for that mode");
    if (rc != 0)
        opfor_cli_arena_free(ar);
    return rc;
}

/* What the Patrol Mode report needs. */
typedef struct patrol_report {
    int player, enemy, director;
    double band_lo, band_hi;
    long rollouts;
} patrol_report_t;

/* The director's counts over the run, and the players' win rate with its interval. */
typedef struct patrol_counts {
    long spottings, steered, generals, quiet_games, quiet_wins;
    double prate, plo, phi;
} patrol_counts_t;

static patrol_counts_t count(const opfor_arena_result_t *res) {
    patrol_counts_t c;
    memset(&c, 0, sizeof c);
    for (long i = 0; i < res->games; i++) {
        c.spottings += res->log[i].referee[0];
        c.steered += res->log[i].referee[1];
        c.generals += res->log[i].referee[2];
        if (res->log[i].referee[0] == 0 && res->log[i].outcome != -2) {
            c.quiet_games++; /* over before anything was spotted: out of the director's reach */
            c.quiet_wins += res->log[i].outcome == -1;
        }
    }
    long played = res->games - res->errors;
    c.prate = played > 0 ? (double)res->wins_b / (double)played : 0.0;
    opfor_arena_wilson(res->wins_b, played, OPFOR_ARENA_Z95, &c.plo, &c.phi);
    return c;
}

static void patrol_text(void *user, const opfor_arena_result_t *res) {
    const patrol_report_t *p = user;
    patrol_counts_t c = count(res);
    printf("player (b) win rate %.3f (95%% CI %.3f-%.3f); director %s, band %.0f-%.0f%%, "
           "%ld spottings, %ld steered, %ld generals placed\n",
           c.prate, c.plo, c.phi, p->director ? "on" : "off", p->band_lo * 100.0,
           p->band_hi * 100.0, c.spottings, c.steered, c.generals);
    printf("%ld games over before any spotting, %ld of them won by the players\n", c.quiet_games,
           c.quiet_wins);
}

static void patrol_json(void *user, opfor_json_t *j, const opfor_arena_result_t *res) {
    const patrol_report_t *p = user;
    patrol_counts_t c = count(res);
    opfor_json_key(j, "patrol");
    opfor_json_obj_begin(j);
    opfor_json_kv_int(j, "player_side", p->player);
    opfor_json_kv_int(j, "enemy_side", p->enemy);
    opfor_json_kv_num(j, "player_win_rate", c.prate);
    opfor_json_key(j, "player_ci95");
    opfor_json_arr_begin(j);
    opfor_json_num(j, c.plo);
    opfor_json_num(j, c.phi);
    opfor_json_arr_end(j);
    opfor_json_kv_bool(j, "director", p->director);
    opfor_json_key(j, "band");
    opfor_json_arr_begin(j);
    opfor_json_num(j, p->band_lo);
    opfor_json_num(j, p->band_hi);
    opfor_json_arr_end(j);
    opfor_json_kv_int(j, "rollouts", p->rollouts);
    opfor_json_kv_int(j, "spottings", c.spottings);
    opfor_json_kv_int(j, "steered", c.steered);
    opfor_json_kv_int(j, "generals_placed", c.generals);
    opfor_json_kv_int(j, "games_without_spotting", c.quiet_games);
    opfor_json_kv_int(j, "player_wins_without_spotting", c.quiet_wins);
    opfor_json_obj_end(j);
}

int opfor_vk_cmd_arena(int argc, char **argv) {
    opfor_cli_arena_t ar;
    opfor_cli_arena_init(&ar);
    ar.rs = &opfor_viktoria_ruleset;
    int mode = OPFOR_MODE_COMPETITIVE, director = 1, rc = 0;
    long rollouts = 12;
    const char *band = NULL;
    char specs[256], about[1400];
    snprintf(about, sizeof about,
             "Plays N seeded Viktoria! games between two policies and reports wins, draws,\n"
             "win_rate_a with its Wilson 95%% interval. Competitive games swap the sides every\n"
             "other game and cycle through the built-in competitive scenarios (or --scenario).\n"
             "In Patrol Mode, policy a plays the non-player side and b the player side, on the\n"
             "built-in patrol scenario (or --scenario), with the director choosing spottings.\n"
             "%s\n\npolicies: %s\n(another ruleset: random, mcts:LEVEL and its own bots)",
             OPFOR_CLI_ARENA_ABOUT_END, opfor_cli_arena_policies(ar.rs, specs, sizeof specs));
    const opfor_cli_opt_t opts[] = {
        OPFOR_CLI_ARENA_OPTS(&ar),
        {.name = "--mode",
         .type = OPFOR_CLI_CHOICE,
         .choice = &mode,
         .names = MODES,
         .arg = "M",
         .help = "competitive (default) or patrol"},
        {.name = "--director",
         .type = OPFOR_CLI_CHOICE,
         .choice = &director,
         .names = ON_OFF,
         .arg = "on|off",
         .help = "patrol: the director steers spottings (default on)"},
        {.name = "--band",
         .type = OPFOR_CLI_STRING,
         .string = &band,
         .valid = band_ok,
         .arg = "LO-HI",
         .wants = "LO-HI in percent with 0 <= LO <= HI <= 100 (e.g. 40-60)",
         .help = "patrol: the director's band for the player's win chance, in\n"
                 "percent (default 40-60)"},
        {.name = "--rollouts",
         .type = OPFOR_CLI_WHOLE,
         .whole = &rollouts,
         .lo = 1,
         .hi = 1000,
         .arg = "N",
         .help = "patrol: the director's rollouts per estimate, 1..1000 (12)"},
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "arena",
        .usage = OPFOR_CLI_ARENA_USAGE
        "\n"
        "                   [--mode competitive|patrol] [--scenario FILE] [--threads T]\n"
        "                   [--director on|off] [--band LO-HI] [--rollouts N]\n"
        "                   [--quiet] [--json]",
        .about = about,
        .opts = opts,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    if ((rc = opfor_cli_arena_check(&ar)) != 0)
        return rc;
    double band_lo = 0.40, band_hi = 0.60;
    if (band) {
        int lo = 0, hi = 0;
        sscanf(band, "%d-%d", &lo, &hi);
        band_lo = lo / 100.0;
        band_hi = hi / 100.0;
    }
    if ((rc = load_ctxs(&ar, mode)) != 0)
        return rc;
    ar.mode = mode == OPFOR_MODE_COOP ? "patrol" : "competitive";

    opfor_arena_config_t cfg;
    opfor_arena_config_default(&cfg);
    opfor_director_config_t dcfg;
    opfor_director_config_default(&dcfg);
    dcfg.band_lo = band_lo;
    dcfg.band_hi = band_hi;
    dcfg.rollouts = (int)rollouts;
    dcfg.steer = director;
    /* The director models the players as the player bot b is (medium for any other policy)
       and the non-player side with the heuristic unless a is one of the scripted bots. */
    int model;
    dcfg.player_model = opfor_vocab_lookup(opfor_player_bot_names, ar.b, &model) == 0
                            ? model
                            : OPFOR_PLAYER_BOT_MEDIUM;
    dcfg.enemy_model = strcasecmp(ar.a, "heuristic") == 0 || strncasecmp(ar.a, "mcts:", 5) == 0
                           ? OPFOR_DIRECTOR_ENEMY_HEURISTIC
                           : OPFOR_DIRECTOR_ENEMY_TABLE;
    patrol_report_t pr = {0, 1, director, band_lo, band_hi, rollouts};
    if (mode == OPFOR_MODE_COOP) {
        const opfor_patrol_config_t *pc = opfor_vk_rs_patrol(ar.ctxs[0]);
        pr.player = pc->player;
        pr.enemy = pc->enemy;
        cfg.swap = 0;
        cfg.a_side = pr.enemy;
        cfg.referee = opfor_arena_director; /* the ruleset's director, with dcfg */
        cfg.referee_user = &dcfg;
        ar.report_text = patrol_text;
        ar.report_json = patrol_json;
        ar.user = &pr;
    }
    return opfor_cli_arena_run(&ar, &cfg);
}
