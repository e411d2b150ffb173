/* tools/opfor/cmd_dice.c — `opfor dice`: tabulate and roll dice notation, and render a chance
 * as a roll players make.
 *
 *   opfor dice EXPR [--roll N] [--seed S] [--json]
 *   opfor dice chance P [--mode d6|fine|2d6] [--json]
 *
 * A thin shell over core/dice.c and core/chance.c: it parses flags, calls the library and
 * prints. Words of EXPR may be given unquoted (they are joined with spaces), so a bad
 * expression is echoed back with a caret under the column the parser reported.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "json_out.h"
#include "opfor/chance.h"
#include "opfor/dice.h"

#define DICE_MAX_ROLLS 1000000L
#define EXPR_MAX 512

/* What `opfor dice --help` says about EXPR (with the limits filled in). */
#define DICE_ABOUT                                                                                 \
    "Prints the canonical form of a dice expression, its smallest, largest and mean\n"             \
    "result, and every total with P(=total) and P(>=total), all exact.\n"                          \
    "\n"                                                                                           \
    "EXPR is dice notation (case-insensitive; quote it or give it as several words):\n"            \
    "  2d6, D6, d3 (a d6 halved, rounding up), 1d3+4, 2d6-1, 3 dice + 6 inches,\n"                 \
    "  a die + 2, 4 inches, 2d6+1d3+2. Up to %d dice terms of 1..%d dice with 2..100\n"            \
    "  sides, whole-number constants within -10000..10000; dice cannot be subtracted.\n"           \
    "  The highest total may exceed the lowest by at most 600 (6d100, not 7d100).\n"

static const opfor_name_t MODE_NAMES[] = {
    {"d6", OPFOR_RENDER_D6},
    {"fine", OPFOR_RENDER_D6_FINE},
    {"2d6", OPFOR_RENDER_2D6},
    {NULL, 0},
};

/* Prints the expression with a caret under 1-based column col, on stderr. */
static void show_caret(const char *expr, int col) {
    fputs("  ", stderr);
    for (const char *p = expr; *p; p++) {
        unsigned char c = (unsigned char)*p;
        fputc(c < 0x20 || c >= 0x7F ? (c == '\t' || c == '\n' ? ' ' : '?') : c, stderr);
    }
    fputs("\n  ", stderr);
    for (int k = 1; k < col; k++)
        fputc(' ', stderr);
    fputs("^\n", stderr);
}

/* EXPR as it is read: the words joined with spaces. */
typedef struct expr_buf {
    char text[EXPR_MAX];
    size_t len;
} expr_buf_t;

static int expr_word(void *ud, const char *a) {
    expr_buf_t *e = ud;
    size_t n = strlen(a);
    if (e->len + n + 2 > sizeof e->text)
        return opfor_cli_usage_error("dice: expression too long (at most %d characters)",
                                     EXPR_MAX - 2);
    if (e->len)
        e->text[e->len++] = ' ';
    memcpy(e->text + e->len, a, n + 1);
    e->len += n;
    return 0;
}

static int dice_expr(int argc, char **argv) {
    expr_buf_t e = {"", 0};
    int json = 0, rc = OPFOR_EXIT_OK;
    long nroll = 0, seed = 1;
    char about[1024];
    snprintf(about, sizeof about, DICE_ABOUT, OPFOR_DICE_MAX_TERMS, OPFOR_DICE_MAX_COUNT);
    const opfor_cli_opt_t opts[] = {
        {.name = "--roll",
         .type = OPFOR_CLI_WHOLE,
         .whole = &nroll,
         .lo = 1,
         .hi = DICE_MAX_ROLLS,
         .arg = "N",
         .help = "also roll the expression N times (1..1000000) and print the results"},
        OPFOR_CLI_SEED_OPT(&seed, "seed for --roll (default 1); same seed, same rolls"),
        OPFOR_CLI_JSON_OPT(&json),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "dice",
        .usage = "EXPR [--roll N] [--seed S] [--json]\n"
                 "       opfor dice chance P [--mode d6|fine|2d6] [--json]",
        .about = about,
        .epilog = "`opfor dice chance --help` describes rendering a chance as a roll.",
        .opts = opts,
        .positional = expr_word,
        .ud = &e,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    const char *expr = e.text;
    size_t elen = e.len;
    if (elen == 0)
        return opfor_cli_usage_error("dice: missing EXPR, e.g. `opfor dice 2d6+1` or "
                                     "`opfor dice 3 dice + 6 inches` (see opfor dice --help)");

    opfor_dice_t d;
    opfor_diag_t diag;
    opfor_diag_clear(&diag);
    int err = opfor_dice_parse(expr, &d, &diag);
    if (err != 0) {
        opfor_cli_usage_error("dice: bad expression at column %d: %s", diag.col, diag.msg);
        show_caret(expr, diag.col);
        return OPFOR_EXIT_USAGE;
    }
    static opfor_dist_t dist;
    err = opfor_dice_dist(&d, &dist);
    if (err != 0)
        return opfor_cli_fail("dice: cannot tabulate '%s': %s", expr, opfor_strerror(err));

    char canon[128];
    opfor_dice_format(&d, canon, sizeof canon);
    int lo = opfor_dice_min(&d), hi = opfor_dice_max(&d);
    double mean = opfor_dist_mean(&dist);

    int *rolls = NULL;
    double roll_mean = 0.0;
    if (nroll > 0) {
        rolls = malloc((size_t)nroll * sizeof *rolls);
        if (!rolls)
            return opfor_cli_fail("dice: out of memory for %ld rolls", nroll);
        opfor_rng_t rng;
        opfor_rng_seed(&rng, (uint64_t)seed, 0);
        double sum = 0.0;
        for (long k = 0; k < nroll; k++) {
            rolls[k] = opfor_dice_roll(&d, &rng);
            sum += rolls[k];
        }
        roll_mean = sum / (double)nroll;
    }

    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "expression", expr);
        opfor_json_kv_str(&j, "canonical", canon);
        opfor_json_kv_bool(&j, "inches", d.inches);
        opfor_json_kv_int(&j, "min", lo);
        opfor_json_kv_int(&j, "max", hi);
        opfor_json_kv_num(&j, "mean", mean);
        opfor_json_key(&j, "table");
        opfor_json_arr_begin(&j);
        for (int k = 0; k < dist.n; k++) {
            int t = dist.min + k;
            opfor_json_obj_begin(&j);
            opfor_json_kv_int(&j, "total", t);
            opfor_json_kv_num(&j, "p_eq", dist.p[k]);
            opfor_json_kv_num(&j, "p_at_least", opfor_dist_at_least(&dist, t));
            opfor_json_obj_end(&j);
        }
        opfor_json_arr_end(&j);
        if (rolls) {
            opfor_json_key(&j, "rolls");
            opfor_json_obj_begin(&j);
            opfor_json_kv_int(&j, "seed", seed);
            opfor_json_kv_int(&j, "count", nroll);
            opfor_json_kv_num(&j, "mean", roll_mean);
            opfor_json_key(&j, "results");
            opfor_json_arr_begin(&j);
            for (long k = 0; k < nroll; k++)
                opfor_json_int(&j, rolls[k]);
            opfor_json_arr_end(&j);
            opfor_json_obj_end(&j);
        }
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else {
        printf("expression  %s\n", canon);
        printf("min %d  max %d  mean %.6g%s\n\n", lo, hi, mean, d.inches ? "  (inches)" : "");
        printf("%7s  %10s  %10s\n", "total", "P(=)", "P(>=)");
        for (int k = 0; k < dist.n; k++) {
            int t = dist.min + k;
            printf("%7d  %10.6f  %10.6f\n", t, dist.p[k], opfor_dist_at_least(&dist, t));
        }
        if (rolls) {
            printf("\n%ld roll%s (seed %ld):", nroll, nroll == 1 ? "" : "s", seed);
            for (long k = 0; k < nroll; k++)
                printf("%s%d", k % 20 == 0 ? "\n  " : " ", rolls[k]);
            printf("\nmean of rolls %.6g\n", roll_mean);
        }
    }
    free(rolls);
    return OPFOR_EXIT_OK;
}

static const char *mode_name(opfor_render_mode_t m) {
    return m == OPFOR_RENDER_D6_FINE ? "fine" : m == OPFOR_RENDER_2D6 ? "2d6" : "d6";
}

static const char *kind_name(opfor_roll_kind_t k) {
    switch (k) {
    case OPFOR_ROLL_NEVER:
        return "never";
    case OPFOR_ROLL_ALWAYS:
        return "always";
    case OPFOR_ROLL_D6:
        return "d6";
    case OPFOR_ROLL_D6_THEN:
        return "d6_then";
    case OPFOR_ROLL_D6_REROLL:
        return "d6_reroll";
    case OPFOR_ROLL_2D6:
        return "2d6";
    }
    return "?";
}

/* Parses "0.37" (0..1) or "37%" (0..100%) into *p; -1 if it is neither. */
static int parse_chance(const char *s, double *p) {
    size_t n = strlen(s);
    if (n > 0 && s[n - 1] == '%') {
        char num[64];
        if (n - 1 >= sizeof num)
            return -1;
        memcpy(num, s, n - 1);
        num[n - 1] = '\0';
        double v;
        if (opfor_cli_parse_double(num, &v) != 0 || !(v >= 0.0 && v <= 100.0))
            return -1;
        *p = v / 100.0;
        return 0;
    }
    double v;
    if (opfor_cli_parse_double(s, &v) != 0 || !(v >= 0.0 && v <= 1.0))
        return -1;
    *p = v;
    return 0;
}

/* P as it is read: one positional argument. */
static int chance_word(void *ud, const char *a) {
    const char **ptext = ud;
    if (*ptext)
        return opfor_cli_usage_error("dice chance: one chance at a time, got '%s' and '%s'", *ptext,
                                     a);
    *ptext = a;
    return 0;
}

static int dice_chance(int argc, char **argv) {
    int json = 0, mode_value = OPFOR_RENDER_D6, rc;
    const char *ptext = NULL;
    const opfor_cli_opt_t opts[] = {
        {.name = "--mode",
         .type = OPFOR_CLI_CHOICE,
         .choice = &mode_value,
         .names = MODE_NAMES,
         .arg = "d6|fine|2d6",
         .help = "how the chance becomes a roll:\n"
                 "--mode d6    one die, \"N+\" (default; error at most 1/12)\n"
                 "--mode fine  as d6, plus \"6, then N+\" and \"2+, re-roll a 1\n"
                 "             needing N+\" near 0 and 1 (error at most 1/72\n"
                 "             below 1/12 and above 11/12)\n"
                 "--mode 2d6   two dice summed, \"N+ on 2D6\""},
        OPFOR_CLI_JSON_OPT(&json),
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "dice chance",
        .args = "P",
        .about = "Renders an exact chance P as the nearest roll players can make with six-sided\n"
                 "dice, and prints the roll, the exact chance, the chance of the roll as rendered\n"
                 "and the difference (rendered - exact).\n"
                 "\n"
                 "P is a number from 0 to 1 (0.37) or a percentage from 0% to 100% (37%).",
        .opts = opts,
        .positional = chance_word,
        .ud = &ptext,
    };
    if (opfor_cli_parse(&spec, argc, argv, 1, &rc))
        return rc;
    opfor_render_mode_t mode = (opfor_render_mode_t)mode_value;
    if (!ptext)
        return opfor_cli_usage_error("dice chance: missing P, a number from 0 to 1 or a "
                                     "percentage like 37%% (see opfor dice chance --help)");
    double p;
    if (parse_chance(ptext, &p) != 0)
        return opfor_cli_usage_error("dice chance: P must be a number from 0 to 1 or a "
                                     "percentage from 0%% to 100%%, got '%s'",
                                     ptext);

    opfor_roll_t r;
    opfor_roll_render(p, mode, &r);
    char text[64];
    opfor_roll_format(&r, text, sizeof text);
    if (json) {
        opfor_json_t j;
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_str(&j, "mode", mode_name(mode));
        opfor_json_kv_str(&j, "roll", text);
        opfor_json_kv_str(&j, "kind", kind_name(r.kind));
        opfor_json_kv_int(&j, "need", r.need);
        opfor_json_kv_int(&j, "need2", r.need2);
        opfor_json_kv_num(&j, "p_exact", r.p_exact);
        opfor_json_kv_num(&j, "p_rendered", r.p_rendered);
        opfor_json_kv_num(&j, "error", r.error);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    } else {
        printf("mode        %s\n", mode_name(mode));
        printf("roll        %s\n", text);
        printf("p_exact     %.10g (%.4g%%)\n", r.p_exact, r.p_exact * 100.0);
        printf("p_rendered  %.10g (%.4g%%)\n", r.p_rendered, r.p_rendered * 100.0);
        printf("error       %+.10g (%+.4g points)\n", r.error, r.error * 100.0);
    }
    return OPFOR_EXIT_OK;
}

int opfor_cmd_dice(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "chance") == 0)
        return dice_chance(argc - 1, argv + 1);
    return dice_expr(argc, argv);
}
