/* tools/opfor/cmd_arena.c — `opfor arena --a POLICY --b POLICY --games N --seed S
 * [--ruleset NAME] [--mode competitive|patrol] [--scenario FILE] [--threads T]
 * [--director on|off] [--band LO-HI] [--rollouts N] [--quiet] [--json]`: seeded matches
 * between policies (ai/arena.c) on a registered ruleset, by default the Viktoria! rules with
 * the Patrol Mode director as referee in patrol games; another ruleset gets random, mcts:LEVEL
 * and its own bots, on its default scenario (or --scenario).
 * Standard output is the same for the same command whatever the thread count; progress
 * and timing go to standard error. The first SIGINT/SIGTERM stops new games, lets the
 * games in progress finish and prints the summary of games 1..N marked as interrupted (exit
 * 128 + the signal); a second one ends the process at once.
 */
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/arena.h"
#include "opfor/scenario.h"
#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/director.h"
#include "opfor/viktoria/player_bots.h"

#define ARENA_MAX_GAMES 1000000L
#define ARENA_MAX_SCENARIOS 8

/* The help text; rs gives the policies (the --ruleset given before --help, else viktoria). */
static void help(FILE *f, const opfor_ruleset_t *rs) {
    char specs[256];
    opfor_arena_policy_list(rs, specs, sizeof specs);
    fprintf(f,
            "usage: opfor arena --a POLICY --b POLICY --games N --seed S [--ruleset NAME]\n"
            "                   [--mode competitive|patrol] [--scenario FILE] [--threads T]\n"
            "                   [--director on|off] [--band LO-HI] [--rollouts N]\n"
            "                   [--quiet] [--json]\n"
            "\n"
            "Plays N seeded Viktoria! games between two policies and reports wins, draws,\n"
            "win_rate_a with its Wilson 95%% interval. Competitive games swap the sides every\n"
            "other game and cycle through the built-in competitive scenarios (or --scenario).\n"
            "In Patrol Mode, policy a plays the non-player side and b the player side, on the\n"
            "built-in patrol scenario (or --scenario), with the director choosing spottings.\n"
            "The same command prints the same result whatever --threads is.\n"
            "Ctrl-C (SIGINT) or SIGTERM starts no new game, lets the games in progress end\n"
            "and prints the summary of games 1..N, marked \"interrupted after N of M games\"\n"
            "(JSON: \"interrupted\": true, \"games_played\": N), exit 130 (SIGTERM: 143);\n"
            "a second one quits at once.\n"
            "\n"
            "policies: %s\n"
            "(another ruleset: random, mcts:LEVEL and its own bots)\n"
            "\n"
            "options:\n"
            "  --a POLICY, --b POLICY  the two policies (required)\n"
            "  --ruleset NAME    the rules to play (default viktoria); the Patrol Mode options\n"
            "                    (--mode, --director, --band, --rollouts) are Viktoria!'s\n"
            "  --games N         games to play, 1..%ld (required; 400+ for a real measure)\n"
            "  --seed S          seed, a whole number >= 0 (required)\n"
            "  --mode M          competitive (default) or patrol\n"
            "  --scenario FILE   play this scenario file instead of the built-ins\n"
            "  --threads T       worker threads, 1..%d (default 1)\n"
            "  --director on|off patrol: the director steers spottings (default on)\n"
            "  --band LO-HI      patrol: the director's band for the player's win chance, in\n"
            "                    percent (default 40-60)\n"
            "  --rollouts N      patrol: the director's rollouts per estimate, 1..1000 (12)\n"
            "  --quiet           no progress on standard error\n"
            "  --json            print one JSON document instead of text\n"
            "  -h, --help        this text\n",
            specs, ARENA_MAX_GAMES, OPFOR_ARENA_MAX_THREADS);
}

/* The signal that asked the run to stop (0: none): the one global a handler needs. A lock-free
 * atomic, so the handler may set it and the arena's worker threads read it (C11 7.14.1.1). */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the stop flag must be lock-free");
static atomic_int arena_stop;

/* First SIGINT/SIGTERM: note it (SA_RESETHAND makes a second one fatal at once). */
static void on_stop_signal(int sig) {
    static const char msg[] = "\narena: interrupted: no new games; finishing the games in "
                              "progress (interrupt again to quit at once)\n";
    atomic_store_explicit(&arena_stop, sig, memory_order_relaxed);
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing to do: the summary still comes */
    }
}

/* The registered ruleset names, for error messages. */
static void ruleset_names(char *buf, size_t n) {
    size_t k = 0, len = 0;
    const opfor_ruleset_entry_t *list = opfor_ruleset_list(&k);
    buf[0] = 0;
    for (size_t i = 0; i < k && len < n; i++) {
        int w = snprintf(buf + len, n - len, "%s%s", i ? ", " : "", list[i].name);
        len += w > 0 ? (size_t)w : 0;
    }
}

typedef struct progress {
    int on;       /* print at all */
    long step;    /* print at most every step games ... */
    double start; /* seconds at the start */
    double last;  /* ... and every 5 seconds: when the last line was printed */
} progress_t;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_progress(void *user, long done, long total) {
    progress_t *p = user;
    if (!p->on || (done % p->step != 0 && done != total))
        return;
    double t = now_s() - p->start;
    if (t - p->last < 5.0)
        return;
    p->last = t;
    double eta = done > 0 ? t * (double)(total - done) / (double)done : 0.0;
    fprintf(stderr, "arena: %ld/%ld games, %.0f s, about %.0f s left\n", done, total, t, eta);
}

/* Loads a scenario (a file, or a built-in stem) into a context of the given mode. */
static int load_ctx(const char *file, const char *builtin, int mode, opfor_vk_rs_ctx_t **ctx,
                    char *name, size_t nname) {
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
        err = opfor_vk_rs_ctx_new(ctx, sc, label, NULL, &d);
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

int opfor_cmd_arena(int argc, char **argv) {
    const char *pa = NULL, *pb = NULL, *scenario = NULL, *patrol_flag = NULL;
    const opfor_ruleset_t *rs = &opfor_viktoria_ruleset;
    long games = -1, seed = -1, threads = 1, rollouts = 12;
    int json = 0, quiet = 0, mode = OPFOR_MODE_COMPETITIVE, director = 1, rc = 0;
    double band_lo = 0.40, band_hi = 0.60;
    const opfor_cli_long_flag_t numbers[] = {
        {"--games", 1, ARENA_MAX_GAMES, &games},
        {"--seed", 0, LONG_MAX, &seed},
        {"--threads", 1, OPFOR_ARENA_MAX_THREADS, &threads},
        {"--rollouts", 1, 1000, &rollouts},
    };
    opfor_cli_args_t args = {argc, argv, 1, "arena", 0};
    for (; args.i < argc; args.i++) {
        const char *a = argv[args.i], *v;
        if (opfor_cli_is_help(a)) {
            help(stdout, rs);
            return OPFOR_EXIT_OK;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
        } else if (opfor_cli_is_flag(a, "--a") || opfor_cli_is_flag(a, "--b")) {
            int isa = a[2] == 'a';
            if (!(v = opfor_cli_value(&args, NULL)))
                return OPFOR_EXIT_USAGE;
            if (isa)
                pa = v;
            else
                pb = v;
        } else if (opfor_cli_is_flag(a, "--ruleset")) {
            if (!(v = opfor_cli_value(&args, NULL)))
                return OPFOR_EXIT_USAGE;
            if (!(rs = opfor_ruleset_find(v))) {
                char names[256];
                ruleset_names(names, sizeof names);
                return opfor_cli_usage_error("arena: --ruleset must be one of %s; got '%s'", names,
                                             v);
            }
        } else if (opfor_cli_long_flag(&args, numbers, sizeof numbers / sizeof numbers[0], &rc)) {
            if (rc)
                return rc;
            if (strncmp(a, "--rollouts", 10) == 0)
                patrol_flag = "--rollouts";
        } else if (opfor_cli_is_flag(a, "--mode")) {
            patrol_flag = "--mode";
            if (!(v = opfor_cli_value(&args, NULL)))
                return OPFOR_EXIT_USAGE;
            if (strcasecmp(v, "competitive") == 0)
                mode = OPFOR_MODE_COMPETITIVE;
            else if (strcasecmp(v, "patrol") == 0)
                mode = OPFOR_MODE_PATROL;
            else
                return opfor_cli_usage_error(
                    "arena: --mode must be competitive or patrol, got '%s'", v);
        } else if (opfor_cli_is_flag(a, "--director")) {
            patrol_flag = "--director";
            if (!(v = opfor_cli_value(&args, NULL)))
                return OPFOR_EXIT_USAGE;
            if (strcasecmp(v, "on") == 0)
                director = 1;
            else if (strcasecmp(v, "off") == 0)
                director = 0;
            else
                return opfor_cli_usage_error("arena: --director must be on or off, got '%s'", v);
        } else if (opfor_cli_is_flag(a, "--band")) {
            patrol_flag = "--band";
            if (!(v = opfor_cli_value(&args, NULL)))
                return OPFOR_EXIT_USAGE;
            int lo = -1, hi = -1, used = 0;
            if (sscanf(v, "%d-%d%n", &lo, &hi, &used) != 2 || v[used] != 0 || lo < 0 || hi > 100 ||
                lo > hi)
                return opfor_cli_usage_error("arena: --band must be LO-HI in percent with 0 <= LO "
                                             "<= HI <= 100 (e.g. 40-60), got '%s'",
                                             v);
            band_lo = lo / 100.0;
            band_hi = hi / 100.0;
        } else if (opfor_cli_is_flag(a, "--scenario")) {
            if (!(scenario = opfor_cli_value(&args, NULL)))
                return OPFOR_EXIT_USAGE;
            if (!*scenario)
                return opfor_cli_usage_error("arena: --scenario needs a file name, got ''");
        } else {
            return opfor_cli_usage_error("arena: unknown option '%s'; allowed: --a, --b, --games, "
                                         "--seed, --ruleset, --mode, --scenario, --threads, "
                                         "--director, --band, --rollouts, --quiet, --json, --help",
                                         a);
        }
    }
    char specs[256];
    opfor_arena_policy_list(rs, specs, sizeof specs);
    if (!pa || !pb)
        return opfor_cli_usage_error("arena: --a POLICY and --b POLICY are required (%s)", specs);
    for (int k = 0; k < 2; k++)
        if (!opfor_arena_policy_known(rs, k ? pb : pa))
            return opfor_cli_usage_error("arena: %s must be one of %s; got '%s'", k ? "--b" : "--a",
                                         specs, k ? pb : pa);
    int viktoria = rs == &opfor_viktoria_ruleset;
    if (!viktoria && patrol_flag)
        return opfor_cli_usage_error("arena: %s is a Viktoria! Patrol Mode option; the ruleset "
                                     "'%s' has no patrol games",
                                     patrol_flag, rs->name);
    if (games < 0)
        return opfor_cli_usage_error("arena: --games N is required (1 to %ld)", ARENA_MAX_GAMES);
    if (seed < 0)
        return opfor_cli_usage_error("arena: --seed S is required (a whole number >= 0)");

    /* The scenarios: the file, or every built-in whose own mode is the one asked for; for
       another ruleset the file or its default scenario. */
    opfor_vk_rs_ctx_t *vctx = NULL;
    void *ctxs[ARENA_MAX_SCENARIOS] = {NULL};
    char names[ARENA_MAX_SCENARIOS][256];
    int nctx = 0;
    if (!viktoria) {
        opfor_diag_t d;
        opfor_diag_clear(&d);
        int err = opfor_ruleset_ctx_new(rs, scenario, &ctxs[0], &d);
        if (err == OPFOR_ENOTSUP && !scenario) {
            ctxs[0] = NULL; /* a ruleset without scenarios plays from its opening state */
        } else if (err != 0) {
            char where[1024];
            opfor_diag_format(&d, where, sizeof where);
            return opfor_cli_fail("arena: %s: %s", rs->name,
                                  d.msg[0] ? where : opfor_strerror(err));
        }
        snprintf(names[0], sizeof names[0], "%s", scenario ? scenario : "default");
        nctx = 1;
    } else if (scenario) {
        if ((rc = load_ctx(scenario, NULL, mode, &vctx, names[0], sizeof names[0])) != 0)
            return rc;
        ctxs[0] = vctx;
        nctx = 1;
    } else {
        for (size_t k = 0; k < opfor_viktoria_builtin_count() && nctx < ARENA_MAX_SCENARIOS; k++) {
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
            if ((rc = load_ctx(NULL, stem, mode, &vctx, names[nctx], sizeof names[0])) != 0)
                break;
            ctxs[nctx++] = vctx;
        }
        if (rc == 0 && nctx == 0)
            rc = opfor_cli_fail("arena: no built-in scenario for that mode");
        if (rc != 0) {
            for (int k = 0; k < nctx; k++)
                opfor_ruleset_ctx_free(rs, ctxs[k]);
            return rc;
        }
    }

    opfor_arena_config_t cfg;
    opfor_arena_config_default(&cfg);
    cfg.rs = rs;
    cfg.ctxs = (const void *const *)ctxs;
    cfg.nctx = nctx;
    cfg.a = pa;
    cfg.b = pb;
    cfg.games = games;
    cfg.seed = (uint64_t)seed;
    cfg.threads = (int)threads;
    opfor_director_config_t dcfg;
    opfor_director_config_default(&dcfg);
    dcfg.band_lo = band_lo;
    dcfg.band_hi = band_hi;
    dcfg.rollouts = (int)rollouts;
    dcfg.steer = director;
    /* The director models the players as the player bot b is (medium for any other policy)
       and the non-player side with the heuristic unless a is one of the scripted bots. */
    int model;
    dcfg.player_model = opfor_vocab_lookup(opfor_player_bot_names, pb, &model) == 0
                            ? model
                            : OPFOR_PLAYER_BOT_MEDIUM;
    dcfg.enemy_model = strcasecmp(pa, "heuristic") == 0 || strncasecmp(pa, "mcts:", 5) == 0
                           ? OPFOR_DIRECTOR_ENEMY_HEURISTIC
                           : OPFOR_DIRECTOR_ENEMY_TABLE;
    int player = 0, enemy = 1;
    if (mode == OPFOR_MODE_PATROL) {
        const opfor_patrol_config_t *pc = opfor_vk_rs_patrol(ctxs[0]);
        player = pc->player;
        enemy = pc->enemy;
        cfg.swap = 0;
        cfg.a_side = enemy;
        cfg.referee = opfor_arena_director; /* the ruleset's director, with dcfg */
        cfg.referee_user = &dcfg;
    }
    /* Every 5 percent of the games (every game under 20: a few slow games also take long). */
    progress_t prog = {!quiet, games >= 20 ? games / 20 : 1, now_s(), 0.0};
    cfg.progress = on_progress;
    cfg.progress_user = &prog;
    /* Ctrl-C or SIGTERM keeps the games already played (see on_stop_signal). */
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    atomic_store(&arena_stop, 0);
    /* A signal the caller ignores (SIGINT for `opfor arena ... &` in a script) stays ignored. */
    sigaction(SIGINT, NULL, &old_int);
    sigaction(SIGTERM, NULL, &old_term);
    if (old_int.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
    if (old_term.sa_handler != SIG_IGN)
        sigaction(SIGTERM, &sa, NULL);
    cfg.stop = &arena_stop;
    opfor_arena_result_t res;
    int err = opfor_arena_run(&cfg, &res);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (err != 0) {
        for (int k = 0; k < nctx; k++)
            opfor_ruleset_ctx_free(rs, ctxs[k]);
        if (err == OPFOR_ENOTSUP)
            return opfor_cli_fail("arena: a policy is not available in this build (%s)",
                                  opfor_strerror(err));
        return opfor_cli_fail("arena: %s", opfor_strerror(err));
    }
    long spottings = 0, steered = 0, generals = 0, quiet_games = 0, quiet_wins = 0;
    for (long i = 0; i < res.games; i++) {
        spottings += res.log[i].referee[0];
        steered += res.log[i].referee[1];
        generals += res.log[i].referee[2];
        if (res.log[i].referee[0] == 0 && res.log[i].outcome != -2) {
            quiet_games++; /* over before anything was spotted: out of the director's reach */
            quiet_wins += res.log[i].outcome == -1;
        }
    }
    long played = res.games - res.errors;
    double plo, phi, prate = played > 0 ? (double)res.wins_b / (double)played : 0.0;
    opfor_arena_wilson(res.wins_b, played, OPFOR_ARENA_Z95, &plo, &phi);
    const char *mname = mode == OPFOR_MODE_PATROL ? "patrol" : "competitive";
    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "ruleset", rs->name);
        opfor_json_kv_str(&j, "mode", mname);
        opfor_json_kv_str(&j, "a", pa);
        opfor_json_kv_str(&j, "b", pb);
        opfor_json_kv_int(&j, "seed", seed);
        opfor_json_key(&j, "scenarios");
        opfor_json_arr_begin(&j);
        for (int k = 0; k < nctx; k++)
            opfor_json_str(&j, names[k]);
        opfor_json_arr_end(&j);
        opfor_json_kv_int(&j, "games", res.games);
        opfor_json_kv_bool(&j, "interrupted", res.interrupted);
        if (res.interrupted) {
            opfor_json_kv_int(&j, "games_played", res.games);
            opfor_json_kv_int(&j, "games_requested", games);
        }
        opfor_json_kv_int(&j, "wins_a", res.wins_a);
        opfor_json_kv_int(&j, "wins_b", res.wins_b);
        opfor_json_kv_int(&j, "draws", res.draws);
        opfor_json_kv_int(&j, "losses_a", res.wins_b);
        opfor_json_kv_int(&j, "errors", res.errors);
        opfor_json_kv_num(&j, "win_rate_a", res.win_rate_a);
        opfor_json_key(&j, "ci95");
        opfor_json_arr_begin(&j);
        opfor_json_num(&j, res.ci_lo);
        opfor_json_num(&j, res.ci_hi);
        opfor_json_arr_end(&j);
        opfor_json_kv_num(&j, "score_a", res.score_a);
        opfor_json_key(&j, "a_by_side");
        opfor_json_arr_begin(&j);
        for (int s = 0; s < 2; s++) {
            opfor_json_obj_begin(&j);
            opfor_json_kv_int(&j, "side", s);
            opfor_json_kv_int(&j, "games", res.a_games_side[s]);
            opfor_json_kv_int(&j, "wins", res.a_wins_side[s]);
            opfor_json_obj_end(&j);
        }
        opfor_json_arr_end(&j);
        opfor_json_kv_num(&j, "mean_actions", res.mean_steps);
        if (mode == OPFOR_MODE_PATROL) {
            opfor_json_key(&j, "patrol");
            opfor_json_obj_begin(&j);
            opfor_json_kv_int(&j, "player_side", player);
            opfor_json_kv_int(&j, "enemy_side", enemy);
            opfor_json_kv_num(&j, "player_win_rate", prate);
            opfor_json_key(&j, "player_ci95");
            opfor_json_arr_begin(&j);
            opfor_json_num(&j, plo);
            opfor_json_num(&j, phi);
            opfor_json_arr_end(&j);
            opfor_json_kv_bool(&j, "director", director);
            opfor_json_key(&j, "band");
            opfor_json_arr_begin(&j);
            opfor_json_num(&j, band_lo);
            opfor_json_num(&j, band_hi);
            opfor_json_arr_end(&j);
            opfor_json_kv_int(&j, "rollouts", rollouts);
            opfor_json_kv_int(&j, "spottings", spottings);
            opfor_json_kv_int(&j, "steered", steered);
            opfor_json_kv_int(&j, "generals_placed", generals);
            opfor_json_kv_int(&j, "games_without_spotting", quiet_games);
            opfor_json_kv_int(&j, "player_wins_without_spotting", quiet_wins);
            opfor_json_obj_end(&j);
        }
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else {
        if (res.interrupted && res.games > 0)
            printf("arena: interrupted after %ld of %ld games (the summary covers games 1-%ld)\n",
                   res.games, games, res.games);
        else if (res.interrupted)
            printf("arena: interrupted after 0 of %ld games (no game finished)\n", games);
        printf("arena: %s (a) vs %s (b), %s, %ld games, seed %ld\n", pa, pb, mname, res.games,
               seed);
        for (int k = 0; k < nctx; k++)
            printf("scenario: %s\n", names[k]);
        printf("a wins %ld, b wins %ld, draws %ld, errors %ld\n", res.wins_a, res.wins_b, res.draws,
               res.errors);
        printf("win_rate_a %.3f (95%% CI %.3f-%.3f), score_a %.3f\n", res.win_rate_a, res.ci_lo,
               res.ci_hi, res.score_a);
        if (mode == OPFOR_MODE_PATROL)
            printf("player (b) win rate %.3f (95%% CI %.3f-%.3f); director %s, band %.0f-%.0f%%, "
                   "%ld spottings, %ld steered, %ld generals placed\n",
                   prate, plo, phi, director ? "on" : "off", band_lo * 100.0, band_hi * 100.0,
                   spottings, steered, generals);
        if (mode == OPFOR_MODE_PATROL)
            printf("%ld games over before any spotting, %ld of them won by the players\n",
                   quiet_games, quiet_wins);
        else
            printf("a as side 0: %ld of %ld won; as side 1: %ld of %ld won\n", res.a_wins_side[0],
                   res.a_games_side[0], res.a_wins_side[1], res.a_games_side[1]);
        printf("mean %.1f actions per game\n", res.mean_steps);
    }
    if (!quiet && now_s() - prog.start >= 5.0)
        fprintf(stderr, "arena: done in %.1f s\n", now_s() - prog.start);
    opfor_arena_result_free(&res);
    for (int k = 0; k < nctx; k++)
        opfor_ruleset_ctx_free(rs, ctxs[k]);
    int sig = atomic_load(&arena_stop);
    if (res.interrupted && sig)
        return 128 + sig; /* the shell's convention: 130 for SIGINT, 143 for SIGTERM */
    return OPFOR_EXIT_OK;
}
