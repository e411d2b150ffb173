/* rulesets/viktoria/cli/cmd_patrol_game.c — `opfor patrol`: a Patrol Mode game at the table
 * (Viktoria! XV), line by line so it plays from a terminal or a script.
 *
 * The table is the truth: the game keeps its own unit and figure arrays, which the players
 * update with reports (who acted, where a unit now stands, casualties, units driven off or
 * captured; moves and casualties change the figures through rulesets/viktoria/table_report.c,
 * as in the daemon's game.report). opfor presses the initiative button
 * (rulesets/viktoria/patrol_press.c), places and brings on spotted enemies (patrol_place.c,
 * patrol_spawn.c), keeps the score live (patrol_score.c) and saves it (io/scores.c). When the enemy
 * has the initiative, the AI (ai/mcts.c with the heuristic planner, at the chosen level) searches
 * the position taken from the table and gives its orders as sentences with their reasons; opfor
 * keeps the engine's movement, while the dice at the table decide the casualties, which the players
 * report. Searches run on their iteration budget only, so the same seed and the same
 * reports give the same game; the AI reads the future spawns only with --cheat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_patrol_int.h"
#include "opfor/ai.h"
#include "opfor/mcts.h"
#include "opfor/orders.h"
#include "opfor/scores.h"
#include "opfor/viktoria/adapter.h"
#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/director.h"
#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/model.h"
#include "opfor/viktoria/session_plan.h"
#include "opfor/viktoria/session_press.h"
#include "opfor/viktoria/table_report.h"

#define LINE_MAX_LEN 512
#define MAX_WORDS 16

/* The game beyond its data: the AI, random streams, pending initiative. */
typedef struct play {
    opfor__patrol_game_t *g;
    opfor_vk_rs_ctx_t *ctx;      /* the ruleset's context, NULL when it could not be built */
    opfor_vk_rs_state_t *st;     /* the position handed to the AI */
    opfor_game_t game;           /* the ruleset bound to ctx */
    opfor_mcts_t *mcts;          /* the search */
    opfor_director_t *director;  /* level challenge: steers spottings into the band, or NULL */
    const opfor_evaluator_t *ev; /* the ruleset's planner as the search's evaluator */
    opfor_rng_t rng;             /* presses, spottings, substitution dice */
    uint64_t seed;
    int fresh_seed;     /* 1: the seed was drawn fresh: the briefing says how to replay */
    uint64_t decisions; /* AI decisions so far: with the seed, they key each search */
    int level;          /* opfor_ai_level_t */
    int cheat;          /* 1: the search reads the true future spawns */
    int verbose;        /* 1: print the alternatives the search weighed */
    int pending_player; /* 1: a player unit may act; waiting for `a UNIT` */
    int over;           /* 1: the game has ended */
    const char *why;    /* why it ended */
    int interactive;    /* stdin is a terminal: print prompts */
    const opfor_patrol_session_report_t *rep; /* the press sequence running, or NULL */
} play_t;

/* ---- small helpers ---- */

/* one when n is 1, else many: "1 figure", "2 figures". */
static const char *plural(long n, const char *one, const char *many) {
    return n == 1 ? one : many;
}

static const char *side_name(const play_t *p, int side) {
    return p->g->sc.sides[side].name;
}

static int alive_count(const opfor_patrol_forces_t *fo, int u, int *wounded) {
    const opfor_unit_t *un = &fo->units[u];
    int a = 0, w = 0;
    for (int i = un->first; i < un->first + un->count; i++)
        if (fo->figures[i].flags & OPFOR_FIG_ALIVE) {
            a++;
            w += (fo->figures[i].flags & OPFOR_FIG_WOUNDED) != 0;
        }
    if (wounded)
        *wounded = w;
    return a;
}

/* Finds a unit by name: exact (case-insensitive) first, else a unique prefix. Returns the
 * unit or -1 (-2 when the prefix is ambiguous). */
static int find_unit(const opfor_patrol_forces_t *fo, const char *name) {
    int found = -1;
    size_t len = strlen(name);
    for (int u = 0; u < fo->nunits; u++)
        if (strcasecmp(fo->units[u].name, name) == 0)
            return u;
    for (int u = 0; u < fo->nunits; u++)
        if (len > 0 && strncasecmp(fo->units[u].name, name, len) == 0) {
            if (found >= 0)
                return -2;
            found = u;
        }
    return found;
}

/* The longest run of words from w[0] naming a unit: returns the unit (or -1 / -2) and
 * how many words the name took in *used. */
static int unit_words(const opfor_patrol_forces_t *fo, char **w, int n, int *used) {
    char name[256];
    int best = -1;
    *used = 0;
    for (int k = n; k >= 1; k--) {
        name[0] = '\0';
        for (int i = 0; i < k; i++) {
            if (strlen(name) + strlen(w[i]) + 2 >= sizeof name)
                break;
            if (i)
                strcat(name, " ");
            strcat(name, w[i]);
        }
        int u = find_unit(fo, name);
        if (u >= 0) {
            *used = k;
            return u;
        }
        if (k == 1)
            best = u;
    }
    return best;
}

/* What became of unit u: "driven off", "captured", "destroyed", or NULL while on the table. */
static const char *unit_gone(const play_t *p, int u) {
    int fate = p->g->ps.fate[u];
    if (fate == OPFOR_PATROL_FATE_DRIVEN_OFF)
        return "driven off";
    if (fate == OPFOR_PATROL_FATE_CAPTURED)
        return "captured";
    if (!opfor_patrol_in_play(&p->g->fo, u))
        return alive_count(&p->g->fo, u, NULL) ? "off the table" : "destroyed";
    return NULL;
}

static void print_score(play_t *p) {
    opfor_patrol_score_t s;
    opfor_patrol_score(&p->g->cfg, &p->g->ps, &p->g->fo, &s);
    printf("Score: %d (survivors %d, at half strength %d, unscathed %d, supply %d x2, "
           "HQ members %d x2, driven off %d, objectives %d)%s\n",
           s.total, s.survived, s.half_strength, s.unscathed, s.supply, s.hq_members, s.driven_off,
           s.objectives, s.lost ? " - every unit lost" : "");
}

static void print_units(play_t *p) {
    const opfor_patrol_forces_t *fo = &p->g->fo;
    for (int side = p->g->cfg.player, k = 0; k < 2; k++, side = 1 - side) {
        printf("%s:\n", side_name(p, side));
        for (int u = 0; u < fo->nunits; u++) {
            const opfor_unit_t *un = &fo->units[u];
            if (un->side != side)
                continue;
            int w, a = alive_count(fo, u, &w);
            opfor_pt_t c = {0, 0};
            const char *gone = unit_gone(p, u);
            const char *state = gone ? gone : (un->flags & OPFOR_UNIT_ACTED) ? "acted" : "ready";
            char where[48] = "";
            if (opfor_unit_centre(un, fo->figures, &c)) /* none for a unit with no one left */
                snprintf(where, sizeof where, "at x %.1f, y %.1f", (double)c.x, (double)c.y);
            printf("  %-22s %-12s %-9s %2d/%-2d figures (%d wounded)  %-20s  %s\n", un->name,
                   opfor_vocab_name(opfor_unit_type_names, un->type),
                   opfor_vocab_name(opfor_quality_names, un->quality), a, un->strength, w, where,
                   state);
        }
    }
}

static void print_line(play_t *p) {
    opfor_pt_t dot;
    opfor_patrol_observe(&p->g->cfg, &p->g->ps, &p->g->fo);
    if (opfor_patrol_dot(&p->g->cfg, &p->g->ps, &p->g->fo, &dot) == 0)
        printf("Front line: furthest-forward point at x %.1f, y %.1f; %.1f sq ft held\n",
               (double)dot.x, (double)dot.y,
               (double)opfor_patrol_area(&p->g->cfg, &p->g->ps) / 144.0);
    else
        printf("Front line: none (no player unit on the table)\n");
}

static void help(void) {
    printf("commands (one per line):\n"
           "  i                    press the initiative button\n"
           "  a UNIT [at X,Y]      the player unit UNIT used the initiative (and now stands\n"
           "                       with its centre at X,Y; \"X Y\" works too)\n"
           "  r UNIT killed N [wounded M]\n"
           "                       UNIT (either side) lost N figures killed, M wounded\n"
           "  m UNIT X,Y           UNIT's centre now stands at X,Y (inches from the SW corner)\n"
           "  off UNIT             UNIT left the table (routed, fled, driven off)\n"
           "  cap UNIT             UNIT was captured (supply transport, headquarters)\n"
           "  s                    the score now\n"
           "  u                    the units, their strength, position and state\n"
           "  l                    the players' front line\n"
           "  q                    leave the game here (recorded as abandoned, never ranked)\n"
           "  help                 this list\n"
           "UNIT is a unit's name, or the start of one, in any case; quote a name with\n"
           "spaces if you like (\"Jager Picket\").\n");
}

/* ---- the enemy's orders through the AI ---- */

/* Search memory for the terminal game: the standard level uses a few MiB of it. */
#define PATROL_POOL_BYTES ((size_t)32 << 20)

static void ai_open(play_t *p) {
    opfor_diag_t d;
    memset(&d, 0, sizeof d);
    if (opfor_vk_rs_ctx_new(&p->ctx, &p->g->sc, p->g->label, NULL, &d) != 0) {
        p->ctx = NULL;
        return;
    }
    p->ev = opfor_ai_evaluator(&opfor_viktoria_ruleset);
    opfor_mcts_config_t cfg;
    opfor_mcts_config_default(&cfg);
    opfor_ai_search_tuning(&opfor_viktoria_ruleset, &cfg);
    cfg.memory_bytes = PATROL_POOL_BYTES;
    cfg.seed = p->seed;
    cfg.cheat = p->cheat;
    p->st = calloc(1, sizeof *p->st);
    if (!p->st || opfor_game_init(&p->game, &opfor_viktoria_ruleset, p->ctx, 0) != 0 ||
        opfor_mcts_create(&p->mcts, &opfor_viktoria_ruleset, &cfg, 0) != 0) {
        free(p->st);
        p->st = NULL;
        opfor_vk_rs_ctx_free(p->ctx);
        p->ctx = NULL;
        return;
    }
    if (p->level == OPFOR_AI_CHALLENGE) { /* the game master who keeps the game close */
        opfor_director_config_t dc;
        opfor_director_config_default(&dc);
        if (opfor_director_create(&p->director, &dc) != 0)
            p->director = NULL;
    }
}

static void ai_close(play_t *p) {
    opfor_director_free(p->director);
    opfor_mcts_free(p->mcts);
    opfor_vk_rs_ctx_free(p->ctx);
    free(p->st);
}

/* Moves the acting unit's figures from the AI's position into the game (movement only:
 * casualties are the table's to report). */
static void take_movement(play_t *p, int u) {
    const opfor_unit_t *eu = &p->st->vk.units[u];
    opfor_unit_t *gu = &p->g->fo.units[u];
    const uint16_t keep = OPFOR_FIG_MOUNTED | OPFOR_FIG_PRONE | OPFOR_FIG_RUNNING | OPFOR_FIG_MOVED;
    gu->facing = eu->facing;
    gu->flags = (uint16_t)((gu->flags & ~OPFOR_UNIT_LIMBERED) | (eu->flags & OPFOR_UNIT_LIMBERED));
    for (int i = gu->first; i < gu->first + gu->count; i++) {
        opfor_figure_t *f = &p->g->fo.figures[i];
        if (!(f->flags & OPFOR_FIG_ALIVE))
            continue;
        f->pos = p->st->vk.figures[i].pos;
        f->flags = (uint16_t)((f->flags & ~keep) | (p->st->vk.figures[i].flags & keep));
    }
}

/* Prints the AI's order for decision d taken at phase (the chosen unit, or its orders). */
static void print_order(play_t *p, const opfor_vk_rs_state_t *st, const opfor_ai_decision_t *d,
                        int phase) {
    char buf[4096];
    opfor_order_t o;
    if (opfor_order_from_decision(&p->game, st, d, &o) != 0)
        return;
    if (phase == OPFOR_VK_PH_SELECT_UNIT) {
        if (p->verbose)
            printf("  %s is chosen to act: %s\n", o.unit_name, o.reason);
        return;
    }
    printf("  Orders: %s\n    why: %s\n", o.sentence, o.reason);
    if (o.has_runner_up)
        printf("    runner-up: %s (value %+.2f)\n", o.runner_up, o.runner_up_value);
    if (p->verbose) {
        opfor_order_format(&o, 1, buf, sizeof buf);
        /* the alternatives: skip the three lines printed above */
        const char *alts = buf;
        for (int k = 0; k < 2 + o.has_runner_up && alts; k++) {
            alts = strchr(alts, '\n');
            if (alts)
                alts++;
        }
        if (alts && *alts)
            printf("%s", alts);
    }
}

/* The enemy activation: the AI picks a unit and its orders on the position taken from the
 * table, printing each order with its reason. Returns the unit that acted, or -1. */
static int enemy_orders_ai(play_t *p) {
    opfor__patrol_game_t *g = p->g;
    opfor_vk_rs_state_t *st = p->st;
    int enemy = g->cfg.enemy;
    /* The dice stream of the position is the game's; the patrol stream is the button's
       (the search redraws it unless it cheats). */
    uint64_t dice = opfor_rng_mix64(p->seed ^ ((uint64_t)g->ps.presses << 20));
    opfor_table_view_t tb = {g->units,   g->fo.nunits, g->figures, g->fo.nfigures,
                             g->ps.turn, &g->ps,       &p->rng};
    if (opfor_table_plan_begin(p->ctx, st, &tb, enemy, dice) != 0)
        return -1;
    char evbuf[2048];
    int acted = -1;
    for (int step = 0; step < 64; step++) {
        int next = opfor_table_plan_next(p->ctx, st, enemy);
        if (next == OPFOR_TABLE_PLAN_END)
            break;
        if (next == OPFOR_TABLE_PLAN_ANSWER) {
            printf("  (%s must answer: decide at the table)\n",
                   side_name(p, opfor_game_current(&p->game, st)));
            break;
        }
        if (next == OPFOR_TABLE_PLAN_CHANCE) {
            if (opfor_table_plan_roll(p->ctx, st) != 0)
                break;
            continue;
        }
        int phase = st->vk.phase;
        opfor_vk_events_t ev = {evbuf, sizeof evbuf, 0, 0};
        evbuf[0] = '\0';
        int rc = 0;
        if (next == OPFOR_TABLE_PLAN_COMMAND) { /* the engine rolls: no general spares it here */
            opfor_table_plan_command(opfor_vk_rs_engine(p->ctx), &st->vk, NULL, -1, -1.0f, &ev);
            rc = opfor_table_plan_over(st);
        } else {
            opfor_ai_decision_t d;
            if (opfor_ai_decide_opts(p->mcts, &p->game, st, p->ev, p->level, p->decisions++, NULL,
                                     OPFOR_AI_EXACT, &d) != 0)
                break;
            print_order(p, st, &d, phase);
            if (phase == OPFOR_VK_PH_SELECT_UNIT)
                acted = d.action.unit;
            rc = opfor_table_plan_apply(p->ctx, st, &d.action,
                                        phase == OPFOR_VK_PH_COMMAND ? &ev : NULL);
            if (rc < 0)
                break;
        }
        if (evbuf[0])
            for (char *line = strtok(evbuf, "\n"); line; line = strtok(NULL, "\n"))
                printf("  %s\n", line);
        if (rc > 0)
            break;
    }
    if (acted >= 0 && acted < g->fo.nunits)
        take_movement(p, acted);
    return acted;
}

/* Without the engine: the first ready enemy unit stands and fires at the nearest player
 * unit it can see. */
static int enemy_orders_simple(play_t *p) {
    opfor_patrol_forces_t *fo = &p->g->fo;
    for (int u = 0; u < fo->nunits; u++) {
        const opfor_unit_t *un = &fo->units[u];
        if (un->side != p->g->cfg.enemy || (un->flags & OPFOR_UNIT_ACTED) ||
            !opfor_patrol_in_play(fo, u))
            continue;
        printf("  Orders: %s stands ready and fires at the nearest player unit in sight\n",
               un->name);
        return u;
    }
    return -1;
}

/* ---- a press ---- */

static void check_end(play_t *p) {
    opfor_patrol_score_t s;
    opfor_patrol_score(&p->g->cfg, &p->g->ps, &p->g->fo, &s);
    if (s.lost) {
        p->over = 1;
        p->why = "lost";
    } else if (s.enemy_wiped) {
        p->over = 1;
        p->why = "won";
    }
}

/* A new turn has begun (the press sequence's turn callback). */
static void new_turn(void *user, int ended) {
    play_t *p = user;
    int limit = p->g->cfg.turn_limit;
    const opfor_patrol_session_report_t *rep = p->rep;
    if (rep && rep->idle && rep->spots_left < 0)
        printf("No unit of either side can act: turn %d ends at once. Spottings may still come "
               "(the scenario sets no limit).\n",
               ended ? limit : p->g->ps.turn - 1);
    else if (rep && rep->idle)
        printf("No unit of either side can act: turn %d ends at once. %d more spotting%s may "
               "still come.\n",
               ended ? limit : p->g->ps.turn - 1, rep->spots_left,
               plural(rep->spots_left, "", "s"));
    else
        printf("Every unit has acted.\n");
    if (ended) {
        p->over = 1;
        p->why = "ended";
        printf("Turn %d was the last: the game is over.\n", limit);
        return;
    }
    printf("--- Turn %d%s ---\n", p->g->ps.turn,
           limit > 0 && p->g->ps.turn == limit ? " (the last)" : "");
}

/* A spotting drawn (the press sequence's steer callback): at level challenge, the director
 * picks an allowed outcome that keeps the game close. */
static int steer_spot(void *user, opfor_patrol_spot_t *spot) {
    play_t *p = user;
    opfor__patrol_game_t *g = p->g;
    opfor_director_table_t tb = {
        {g->units, g->fo.nunits, g->figures, g->fo.nfigures, g->ps.turn, &g->ps, &p->rng},
        g->cfg.enemy,
        opfor_director_table_key(p->seed, g->ps.presses)};
    return opfor_director_steer_table(p->director, p->ctx, &tb, spot) == 1;
}

/* joined[k]: the unit new general k took post beside, or -1 (he stays by the new unit). */
static void report_spawn(play_t *p, const opfor_patrol_placement_t *pl,
                         const opfor_patrol_spawn_t *sw, const int *joined) {
    char buf[512];
    const opfor_patrol_forces_t *fo = &p->g->fo;
    printf("  Placement: %s\n", opfor__patrol_placement_str(pl, buf, sizeof buf));
    if (!pl->placed)
        return;
    if (sw->unit < 0) {
        printf("  No miniatures free for it: the game master may substitute or cancel it.\n");
        return;
    }
    const opfor_unit_t *u = &fo->units[sw->unit];
    opfor_pt_t c = pl->point;
    opfor_unit_centre(u, fo->figures, &c);
    printf(
        "  On the table: %s, %s %s, %d figure%s, centre x %.1f, y %.1f, facing %s, in %s%s%s%s\n",
        u->name, opfor_vocab_name(opfor_quality_names, u->quality),
        opfor_vocab_name(opfor_unit_type_names, u->type), u->count, plural(u->count, "", "s"),
        (double)c.x, (double)c.y,
        opfor_vocab_name(
            opfor_compass_names,
            opfor_compass_nearest((opfor_table_north_t)p->g->cfg.table.north, u->facing)),
        opfor_vocab_name(opfor_formation_names, u->formation),
        u->formation == OPFOR_FORMATION_SKIRMISH ? " order" : "",
        sw->candidates > 1 ? " (diced among the free units)" : "",
        sw->tmpl < 0 ? " (generic unit)" : "");
    for (int k = 0; k < sw->ngenerals; k++) {
        const opfor_unit_t *gu = &fo->units[sw->generals[k]];
        const opfor_figure_t *gf = &fo->figures[gu->first];
        if (joined[k] >= 0 && joined[k] != sw->unit)
            printf(
                "  %s, a general, comes on with it and takes post beside %s, at x %.1f, y %.1f\n",
                gu->name, fo->units[joined[k]].name, (double)gf->pos.x, (double)gf->pos.y);
        else
            printf("  %s, a general, rides in with it at x %.1f, y %.1f\n", gu->name,
                   (double)gf->pos.x, (double)gf->pos.y);
    }
}

static void press(play_t *p) {
    opfor__patrol_game_t *g = p->g;
    if (p->pending_player) {
        printf("A player unit still holds the initiative: report it with `a UNIT` first.\n");
        return;
    }
    opfor_patrol_session_opts_t o;
    opfor_patrol_session_opts_table(
        &o); /* new generals take post beside the unit they keep most in command */
    o.steer = p->director ? steer_spot : NULL;
    o.turn = new_turn;
    o.user = p;
    opfor_patrol_session_report_t rep;
    p->rep = &rep;
    opfor_patrol_session_press(&g->cfg, &g->ps, &g->fo, &p->rng, &o, &rep);
    p->rep = NULL;
    if (rep.side == g->cfg.player) {
        printf("Initiative: %s - one of your units may act:", side_name(p, g->cfg.player));
        for (int u = 0, first = 1; u < g->fo.nunits; u++)
            if (g->units[u].side == g->cfg.player && !(g->units[u].flags & OPFOR_UNIT_ACTED) &&
                opfor_patrol_in_play(&g->fo, u)) {
                printf("%s %s", first ? "" : ",", g->units[u].name);
                first = 0;
            }
        printf(".\n  Report it with `a UNIT [at X,Y]`, then any casualties with `r`.\n");
        p->pending_player = 1;
        return;
    }
    if (rep.side == g->cfg.enemy) {
        printf("Initiative: %s.\n", side_name(p, g->cfg.enemy));
        int u = p->ctx ? enemy_orders_ai(p) : -1;
        if (u < 0 || u >= g->fo.nunits || g->units[u].side != g->cfg.enemy ||
            (g->units[u].flags & OPFOR_UNIT_ACTED))
            u = enemy_orders_simple(p);
        if (u >= 0) {
            g->units[u].flags |= OPFOR_UNIT_ACTED;
            opfor_pt_t c = {0, 0};
            opfor_unit_centre(&g->units[u], g->figures, &c);
            printf("  %s acted; it now stands at x %.1f, y %.1f. Report casualties with `r`.\n",
                   g->units[u].name, (double)c.x, (double)c.y);
        }
        return;
    }
    if (rep.nspots > 0) {
        const opfor_patrol_session_spotting_t *sp = &rep.spot[0];
        char buf[256];
        printf("Spotted: %s%s\n", opfor_patrol_spot_str(&sp->spot, buf, sizeof buf),
               sp->steered && p->verbose ? " (the director chose it over the dice's draw)" : "");
        report_spawn(p, &sp->place, &sp->spawn, sp->joined);
        print_score(p);
    }
}

/* ---- reports ---- */

/* Moves unit u so its living figures' centre is at (x, y), unless a living figure would then
 * stand on ground it may not (an impassable feature, or a building or other ground closed to
 * horses, limbers and wagons for a figure that is mounted or equipment): then nothing moves,
 * the refusal names the ground, and 0 is returned. 1 when moved. */
static int move_unit(play_t *p, int u, double x, double y) {
    opfor_pt_t to = {(float)x, (float)y};
    const opfor_unit_t *un = &p->g->fo.units[u];
    opfor_figure_t *figs = p->g->fo.figures;
    opfor_pt_t saved[OPFOR_MAX_FIGURES];
    for (int i = 0; i < un->count; i++)
        saved[i] = figs[un->first + i].pos;
    opfor_vk_table_move(un, figs, &p->g->cfg.table, to);
    const opfor_table_t *tb = &p->g->cfg.table;
    int k = opfor_vk_table_forbidden(un, figs, tb);
    if (k >= 0) {
        for (int j = 0; j < un->count; j++)
            figs[un->first + j].pos = saved[j];
        const opfor_terrain_feature_t *ft = &tb->features[k];
        printf("%s cannot stand at x %.1f, y %.1f: %s would be in the %s (%s): nothing "
               "changed.\n",
               un->name, x, y, un->count > 1 ? "its figures" : "it",
               ft->name[0] ? ft->name : opfor_vocab_name(opfor_terrain_kind_names, ft->kind),
               ft->move == OPFOR_MOVE_IMPASSABLE ? "ground no unit may stand on"
                                                 : "closed to horses, guns and wagons");
        return 0;
    }
    return 1;
}

/* Parses the point in words w[0..n): "X,Y", "X, Y" or "X Y". 0 on success. */
static int parse_point(char **w, int n, double *x, double *y) {
    char buf[128] = "";
    for (int i = 0; i < n; i++) {
        size_t len = strlen(buf);
        if (len + strlen(w[i]) + 2 >= sizeof buf)
            return -1;
        snprintf(buf + len, sizeof buf - len, "%s%s", i ? " " : "", w[i]);
    }
    return n >= 1 && n <= 3 ? opfor_cli_parse_xy(buf, x, y) : -1;
}

static int need_unit(play_t *p, char **w, int n, int *used, const char *cmd) {
    const opfor_patrol_forces_t *fo = &p->g->fo;
    int u = n > 0 ? unit_words(fo, w, n, used) : -1;
    if (n == 0) {
        printf("%s needs a unit name (`u` lists them).\n", cmd);
    } else if (u == -2) {
        printf("'%s' could mean several units:", w[0]);
        for (int k = 0, first = 1; k < fo->nunits; k++)
            if (strncasecmp(fo->units[k].name, w[0], strlen(w[0])) == 0) {
                printf("%s %s", first ? "" : ",", fo->units[k].name);
                first = 0;
            }
        printf("; give more of the name.\n");
    } else if (u < 0) {
        printf("No unit is called '%s' (`u` lists them).\n", w[0]);
    }
    return u;
}

/* Whether unit u is still on the table to be reported on; says why not. */
static int still_on_table(play_t *p, int u) {
    const char *gone = unit_gone(p, u);
    if (gone)
        printf("%s is not on the table (%s): nothing changed.\n", p->g->units[u].name, gone);
    return gone == NULL;
}

/* Whether (x, y) is on the table; says why not. */
static int point_on_table(play_t *p, double x, double y) {
    double w = p->g->cfg.table.width, d = p->g->cfg.table.depth;
    if (x >= 0 && x <= w && y >= 0 && y <= d)
        return 1;
    printf("x %g, y %g is off the table (x 0 to %g, y 0 to %g inches): nothing changed.\n", x, y, w,
           d);
    return 0;
}

/* Whether a one-letter name (not a unit's whole name) is too short to spend the initiative
 * on: says which of the player's units it might mean and asks for more of the name. */
static int too_short(play_t *p, char **w, int used, int u) {
    const opfor__patrol_game_t *g = p->g;
    if (used != 1 || strlen(w[0]) != 1 || strcasecmp(g->units[u].name, w[0]) == 0)
        return 0;
    printf("'%s' is too short to be sure which unit acted; it could be", w[0]);
    int first = 1;
    for (int k = 0; k < g->fo.nunits; k++) {
        const char *nm = g->units[k].name;
        if (g->units[k].side != g->cfg.player || !opfor_patrol_in_play(&g->fo, k))
            continue;
        int hit = 0; /* the letter starts the name or one of its words */
        for (const char *c = nm; *c && !hit; c++)
            hit = (c == nm || c[-1] == ' ') && strncasecmp(c, w[0], 1) == 0;
        if (hit) {
            printf("%s %s", first ? "" : ",", nm);
            first = 0;
        }
    }
    printf("%s; give more of the name (nothing changed).\n", first ? " none of yours" : "");
    return 1;
}

static void cmd_acted(play_t *p, char **w, int n) {
    int used, u = need_unit(p, w, n, &used, "a");
    if (u < 0)
        return;
    opfor__patrol_game_t *g = p->g;
    if (!p->pending_player) {
        printf("No player initiative is waiting: press `i` first.\n");
        return;
    }
    if (too_short(p, w, used, u))
        return;
    if (g->units[u].side != g->cfg.player || !opfor_patrol_in_play(&g->fo, u)) {
        printf("%s is not one of your units on the table.\n", g->units[u].name);
        return;
    }
    if (g->units[u].flags & OPFOR_UNIT_ACTED) {
        printf("%s has already acted this turn.\n", g->units[u].name);
        return;
    }
    double x, y;
    if (used < n) {
        if (strcasecmp(w[used], "at") != 0 || parse_point(w + used + 1, n - used - 1, &x, &y)) {
            printf("usage: a UNIT [at X,Y]\n");
            return;
        }
        if (!point_on_table(p, x, y) || !move_unit(p, u, x, y))
            return;
    }
    g->units[u].flags |= OPFOR_UNIT_ACTED;
    p->pending_player = 0;
    opfor_patrol_observe(&g->cfg, &g->ps, &g->fo);
    printf("%s acted.\n", g->units[u].name);
}

/* XI: an enemy unit the players report killing figures of tests morale; the table rolls it
 * (the same line as the daemon's report). */
static void morale_owed(play_t *p, int u) {
    if (!p->ctx || !p->st)
        return;
    const opfor_vk_ctx_t *vk = opfor_vk_rs_engine(p->ctx);
    opfor_vk_state_t *st = &p->st->vk; /* scratch: every order builds its own position */
    opfor__patrol_game_t *g = p->g;
    opfor_vk_state_init(vk, st, 0);
    memcpy(st->units, g->units, sizeof st->units);
    memcpy(st->figures, g->figures, sizeof st->figures);
    st->nunits = (uint8_t)g->fo.nunits;
    st->nfigures = (uint16_t)g->fo.nfigures;
    for (int k = 0; k < g->fo.nunits; k++)
        st->ux[k].removed = !opfor_patrol_in_play(&g->fo, k);
    st->turn = g->ps.turn;
    opfor_vk_morale_owed_t mo;
    char how[64]; /* this game keeps no Wavering: only a flight changes the table */
    snprintf(how, sizeof how, "if it flees, type: off %s", g->units[u].name);
    if (opfor_vk_table_morale_owed(
            vk, st, u, (g->units[u].flags & OPFOR_UNIT_IN_MELEE) ? how : NULL, &mo) == 0)
        printf("%s.\n", mo.text);
}

static void cmd_report(play_t *p, char **w, int n) {
    int used, u = need_unit(p, w, n, &used, "r");
    if (u < 0)
        return;
    if (used == n) {
        printf("usage: r UNIT killed N [wounded M]\n");
        return;
    }
    long killed = 0, wounded = 0;
    for (int i = used; i < n; i += 2) {
        long v;
        if (i + 1 >= n || opfor_cli_parse_long(w[i + 1], &v) != 0 || v < 0 || v > 256) {
            printf("usage: r UNIT killed N [wounded M]\n");
            return;
        }
        if (strcasecmp(w[i], "killed") == 0 || strcasecmp(w[i], "k") == 0)
            killed = v;
        else if (strcasecmp(w[i], "wounded") == 0 || strcasecmp(w[i], "w") == 0)
            wounded = v;
        else {
            printf("usage: r UNIT killed N [wounded M]\n");
            return;
        }
    }
    if (!still_on_table(p, u))
        return;
    const opfor_unit_t *un = &p->g->fo.units[u];
    opfor_figure_t *figs = p->g->fo.figures;
    int wd, a = alive_count(&p->g->fo, u, &wd);
    if (killed > a) {
        printf("%s has only %d figure%s alive, not %ld to kill: nothing changed.\n", un->name, a,
               a == 1 ? "" : "s", killed);
        return;
    }
    /* the kills take the wounded first: count the unwounded left after them */
    uint16_t saved[OPFOR_MAX_FIGURES];
    for (int i = 0; i < un->count; i++)
        saved[i] = figs[un->first + i].flags;
    opfor_vk_table_casualties(un, figs, (int)killed, 0);
    a = alive_count(&p->g->fo, u, &wd);
    if (wounded > a - wd) {
        for (int i = 0; i < un->count; i++)
            figs[un->first + i].flags = saved[i];
        printf("%s would have only %d unwounded figure%s left to wound, not %ld: nothing "
               "changed.\n",
               un->name, a - wd, a - wd == 1 ? "" : "s", wounded);
        return;
    }
    opfor_vk_table_casualties(un, figs, 0, (int)wounded);
    a = alive_count(&p->g->fo, u, &wd);
    printf("%s: %ld killed, %ld wounded; %d of %d left (%d wounded)%s\n", p->g->units[u].name,
           killed, wounded, a, p->g->units[u].strength, wd, a == 0 ? " - destroyed" : "");
    if (killed > 0 && a > 0 && un->side == p->g->cfg.enemy)
        morale_owed(p, u);
    print_score(p);
}

static void cmd_fate(play_t *p, char **w, int n, int fate) {
    int used, u = need_unit(p, w, n, &used, fate == OPFOR_PATROL_FATE_CAPTURED ? "cap" : "off");
    if (u < 0)
        return;
    if (used < n) {
        printf("usage: %s UNIT\n", fate == OPFOR_PATROL_FATE_CAPTURED ? "cap" : "off");
        return;
    }
    if (!still_on_table(p, u))
        return;
    p->g->ps.fate[u] = (uint8_t)fate;
    p->g->units[u].flags |= OPFOR_UNIT_OFF_TABLE;
    printf("%s %s.\n", p->g->units[u].name,
           fate == OPFOR_PATROL_FATE_CAPTURED ? "is captured" : "has left the table");
    print_score(p);
}

static void cmd_move(play_t *p, char **w, int n) {
    int used, u = need_unit(p, w, n, &used, "m");
    double x, y;
    if (u < 0)
        return;
    if (parse_point(w + used, n - used, &x, &y)) {
        printf("usage: m UNIT X,Y\n");
        return;
    }
    if (!still_on_table(p, u) || !point_on_table(p, x, y) || !move_unit(p, u, x, y))
        return;
    opfor_patrol_observe(&p->g->cfg, &p->g->ps, &p->g->fo);
    printf("%s now stands at x %.1f, y %.1f.\n", p->g->units[u].name, x, y);
}

/* ---- the game ---- */

static void briefing(play_t *p) {
    opfor__patrol_game_t *g = p->g;
    printf("%s - Viktoria! Patrol Mode (%s), seed %llu\n", g->sc.name, g->label,
           (unsigned long long)p->seed);
    if (p->fresh_seed)
        printf("A new game: `opfor patrol --seed %llu` plays it again.\n",
               (unsigned long long)p->seed);
    if (g->sc.description[0])
        printf("%s\n", g->sc.description);
    printf("Table %g x %g inches; north is the %s edge. You command the %s; opfor plays the "
           "%s.\n",
           (double)g->cfg.table.width, (double)g->cfg.table.depth,
           opfor_vocab_name(opfor_edge_names, g->cfg.table.north), side_name(p, g->cfg.player),
           side_name(p, g->cfg.enemy));
    if (g->cfg.turn_limit > 0)
        printf("Turn limit: %d.\n", g->cfg.turn_limit);
    for (int k = 0; k < g->cfg.nobjectives; k++)
        printf("Objective: %s at x %.1f, y %.1f (within %g in), %d points.\n",
               g->cfg.objectives[k].name, (double)g->cfg.objectives[k].pos.x,
               (double)g->cfg.objectives[k].pos.y, (double)g->cfg.objectives[k].radius,
               g->cfg.objectives[k].points);
    print_units(p);
    print_line(p);
    if (!p->ctx)
        printf("(The AI is not available: enemy orders are simple.)\n");
    else
        printf(
            "The enemy is played by the AI at level %s%s%s.\n", opfor_ai_level_info(p->level)->name,
            p->cheat ? ", cheating: it knows what will be spotted next" : "",
            p->director ? "; the director keeps your chance to win between 40 and 60 percent" : "");
    printf("--- Turn %d ---\n", g->ps.turn);
    printf("Type `help` for the commands; `i` presses the initiative button.\n");
}

/* Ends the game: prints the result and records the score. Returns the exit code: failure
 * when the score was to be recorded and could not be. */
static int finish(play_t *p, const opfor__patrol_opts_t *o) {
    opfor__patrol_game_t *g = p->g;
    opfor_patrol_score_t s;
    opfor_patrol_score(&g->cfg, &g->ps, &g->fo, &s);
    /* A game quit (q, end of input) before its end is abandoned: its points, with every unit
     * still standing, would outrank any game played out, so it is never a high score. */
    const char *result = !p->over ? OPFOR_SCORES_ABANDONED
                         : s.lost ? "lost"
                         : p->why ? p->why
                                  : "ended";
    const char *how = s.lost || (p->why && strcmp(p->why, "lost") == 0) ? "every unit lost"
                      : p->why && strcmp(p->why, "won") == 0            ? "no enemy left to come"
                                                                        : "the turn limit";
    if (!p->over)
        printf("Game abandoned on turn %d (%d press%s, %d spotting%s, %d placed, %d refused): "
               "not a high score.\n",
               g->ps.turn, g->ps.presses, plural(g->ps.presses, "", "es"), g->ps.spottings,
               plural(g->ps.spottings, "", "s"), g->ps.placed, g->ps.refused);
    else
        printf("Game over (%s) after %d turn%s, %d press%s, %d spotting%s (%d placed, %d "
               "refused).\n",
               how, g->ps.turn, plural(g->ps.turn, "", "s"), g->ps.presses,
               plural(g->ps.presses, "", "es"), g->ps.spottings, plural(g->ps.spottings, "", "s"),
               g->ps.placed, g->ps.refused);
    int verdict = opfor_patrol_verdict(&s);
    printf("Verdict: %s%s - %s.\n", opfor_patrol_verdict_name(verdict), p->over ? "" : " so far",
           opfor_patrol_verdict_why(&s));
    print_score(p);
    fflush(stdout); /* before any error on stderr */
    if (o->no_save)
        return OPFOR_EXIT_OK;
    char path[4096], err[1024];
    const char *dbpath = o->db;
    if (!dbpath) {
        if (opfor_scores_default_path(path, sizeof path) != 0)
            return opfor_cli_fail("patrol: score not saved: no database path; set "
                                  "XDG_DATA_HOME or HOME, or give --db FILE");
        dbpath = path;
    }
    opfor_scores_t *db;
    if (opfor_scores_open(&db, dbpath, err, sizeof err) != 0)
        return opfor_cli_fail("patrol: score not saved: %s", err);
    opfor_score_row_t row;
    memset(&row, 0, sizeof row);
    const char *label = strncmp(g->label, "builtin:", 8) == 0 ? g->label + 8 : g->label;
    const char *base = strrchr(label, '/');
    base = base ? base + 1 : label;
    snprintf(row.scenario, sizeof row.scenario, "%.63s", base);
    char *dot = strrchr(row.scenario, '.');
    if (dot && (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0))
        *dot = '\0';
    const char *who = o->name ? o->name : getenv("USER");
    snprintf(row.player, sizeof row.player, "%.63s", who && *who ? who : "player");
    row.score = s.lost ? 0 : s.total;
    row.seed = p->seed;
    snprintf(row.result, sizeof row.result, "%s", result);
    row.turns = g->ps.turn;
    int rc = OPFOR_EXIT_OK;
    if (opfor_scores_add(db, &row, NULL) != 0)
        rc = opfor_cli_fail("patrol: score not saved: %s", opfor_scores_errmsg(db));
    else
        printf(p->over ? "Score %d recorded for %s on %s (%s).\n"
                       : "Abandoned game (%d points, not ranked) recorded for %s on %s (%s).\n",
               row.score, row.player, row.scenario, dbpath);
    opfor_scores_close(db);
    return rc;
}

int opfor__patrol_play(const opfor__patrol_opts_t *o) {
    play_t p;
    memset(&p, 0, sizeof p);
    p.g = calloc(1, sizeof *p.g);
    if (!p.g)
        return opfor_cli_fail("patrol: out of memory");
    int rc = opfor__patrol_open(p.g, o->scenario);
    if (rc) {
        free(p.g);
        return rc;
    }
    p.seed = o->seed;
    p.fresh_seed = o->fresh_seed;
    opfor_rng_seed(&p.rng, o->seed, 0x70617472u);
    p.level = o->level;
    p.cheat = o->cheat;
    p.verbose = o->verbose;
    p.interactive = isatty(0);
    ai_open(&p);
    briefing(&p);
    char line[LINE_MAX_LEN];
    while (!p.over) {
        char *w[MAX_WORDS];
        int n = opfor__patrol_read_command(stdin, line, sizeof line, p.interactive, w, MAX_WORDS);
        if (n < 0)
            break;
        if (strcmp(w[0], "i") == 0 || strcmp(w[0], "initiative") == 0)
            press(&p);
        else if (strcmp(w[0], "a") == 0 || strcmp(w[0], "acted") == 0)
            cmd_acted(&p, w + 1, n - 1);
        else if (strcmp(w[0], "r") == 0 || strcmp(w[0], "report") == 0)
            cmd_report(&p, w + 1, n - 1);
        else if (strcmp(w[0], "m") == 0 || strcmp(w[0], "move") == 0)
            cmd_move(&p, w + 1, n - 1);
        else if (strcmp(w[0], "off") == 0)
            cmd_fate(&p, w + 1, n - 1, OPFOR_PATROL_FATE_DRIVEN_OFF);
        else if (strcmp(w[0], "cap") == 0 || strcmp(w[0], "capture") == 0)
            cmd_fate(&p, w + 1, n - 1, OPFOR_PATROL_FATE_CAPTURED);
        else if (strcmp(w[0], "s") == 0 || strcmp(w[0], "score") == 0)
            print_score(&p);
        else if (strcmp(w[0], "u") == 0 || strcmp(w[0], "units") == 0)
            print_units(&p);
        else if (strcmp(w[0], "l") == 0 || strcmp(w[0], "line") == 0)
            print_line(&p);
        else if (strcmp(w[0], "q") == 0 || strcmp(w[0], "quit") == 0) {
            p.why = "ended";
            break;
        } else if (strcmp(w[0], "help") == 0 || strcmp(w[0], "h") == 0 || strcmp(w[0], "?") == 0)
            help();
        else
            printf("Unknown command '%s': type `help` for the list.\n", w[0]);
        if (!p.over)
            check_end(&p);
        fflush(stdout);
    }
    rc = finish(&p, o);
    ai_close(&p);
    opfor_scenario_free(&p.g->sc);
    free(p.g);
    return rc;
}
