/* tests/cli/test_cli_opts.c — the table-driven option parser every `opfor` command uses
 * (tools/opfor/cli.c, opfor_cli_parse): each option type with its limits, old names kept as
 * aliases, "--name=value", repeated and once-only options, unknown flags, missing values,
 * positional arguments, and the usage generated from the table.
 *
 * cli.c is compiled into the opfor binary only, so this program includes it directly. What
 * the parser prints goes to stdout/stderr; each test captures both into temporary files.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.c"

/* ---- capturing stdout and stderr ---- */

typedef struct capture {
    FILE *file[2]; /* where stdout, stderr went */
    int saved[2];  /* the real descriptors 1 and 2 */
    char out[8192], err[8192];
} capture_t;

static void capture_begin(capture_t *c) {
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++) {
        c->file[k] = tmpfile();
        assert_non_null(c->file[k]);
        c->saved[k] = dup(k + 1);
        dup2(fileno(c->file[k]), k + 1);
    }
}

static void capture_end(capture_t *c) {
    fflush(stdout);
    fflush(stderr);
    char *dst[2] = {c->out, c->err};
    for (int k = 0; k < 2; k++) {
        dup2(c->saved[k], k + 1);
        close(c->saved[k]);
        rewind(c->file[k]);
        size_t n = fread(dst[k], 1, sizeof c->out - 1, c->file[k]);
        dst[k][n] = '\0';
        fclose(c->file[k]);
    }
}

/* ---- a command with one option of each type ---- */

static const opfor_name_t MODES[] = {
    {"d6", 0}, {"fine", 1}, {"2d6", 2}, {"two_dice", 2}, {NULL, 0},
};

typedef struct opts {
    int json, color;
    long seed, roll;
    double range, timeout;
    const char *scenario, *note, *mode_name;
    int mode;
    const char *moves[3], *move_flags[3];
    opfor_cli_list_t move;
    const char *pos[4];
    int npos;
    char words[512]; /* the command line's words, which the results point into */
} opts_t;

static int on_positional(void *ud, const char *arg) {
    opts_t *o = ud;
    if (o->npos >= 2)
        return opfor_cli_usage_error("test: at most 2 arguments, got '%s'", arg);
    o->pos[o->npos++] = arg;
    return 0;
}

#define GOES_ON (-1) /* parse(): the command would go on */

/* Parses the words of line (space-separated, at most 31) as "opfor test ..." would. */
static int parse(opts_t *o, const char *line, capture_t *c) {
    memset(o, 0, sizeof *o);
    o->color = 1;
    o->seed = 7;
    o->roll = 1;
    o->mode = -1;
    o->move = (opfor_cli_list_t){o->moves, o->move_flags, 3, 0};
    const opfor_cli_opt_t table[] = {
        {.name = "--json", .type = OPFOR_CLI_FLAG, .flag = &o->json, .help = "JSON"},
        {.name = "--no-color", .type = OPFOR_CLI_NOFLAG, .flag = &o->color, .help = "plain"},
        {.name = "--seed",
         .type = OPFOR_CLI_WHOLE,
         .whole = &o->seed,
         .lo = 0,
         .hi = LONG_MAX,
         .arg = "S",
         .help = "the seed"},
        {.name = "--roll",
         .type = OPFOR_CLI_WHOLE,
         .whole = &o->roll,
         .lo = 1,
         .hi = 60,
         .arg = "N",
         .help = "rolls\nsecond line"},
        {.name = "--range",
         .type = OPFOR_CLI_NUMBER,
         .number = &o->range,
         .min = 0,
         .max = 1000,
         .arg = "INCHES",
         .help = "range"},
        {.name = "--timeout",
         .type = OPFOR_CLI_NUMBER,
         .number = &o->timeout,
         .min = 0,
         .max = HUGE_VAL,
         .above = 1,
         .arg = "SECONDS",
         .help = "time"},
        {.name = "--scenario",
         .type = OPFOR_CLI_STRING,
         .string = &o->scenario,
         .arg = "FILE",
         .wants = "a file name",
         .help = "scenario"},
        {.name = "--note",
         .type = OPFOR_CLI_STRING,
         .string = &o->note,
         .once = 1,
         .arg = "TEXT",
         .help = "a note"},
        {.name = "--mode",
         .alias = "--method",
         .type = OPFOR_CLI_CHOICE,
         .choice = &o->mode,
         .string = &o->mode_name,
         .names = MODES,
         .arg = "M",
         .help = "how"},
        {.name = "--move",
         .type = OPFOR_CLI_LIST,
         .list = &o->move,
         .arg = "UNIT=X,Y",
         .help = "a move"},
        {.name = "--off",
         .type = OPFOR_CLI_LIST,
         .list = &o->move,
         .arg = "UNIT",
         .help = "left the table"},
        {0},
    };
    const opfor_cli_spec_t spec = {
        .cmd = "test",
        .args = "[GAME]",
        .about = "Tests the option parser.",
        .epilog = "The end.",
        .opts = table,
        .positional = on_positional,
        .ud = o,
    };
    char *argv[32];
    int argc = 0;
    argv[argc++] = "test";
    snprintf(o->words, sizeof o->words, "%s", line);
    for (char *save = NULL, *w = strtok_r(o->words, " ", &save); w && argc < 32;
         w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    int exit_code = -1;
    capture_begin(c);
    int stop = opfor_cli_parse(&spec, argc, argv, 1, &exit_code);
    capture_end(c);
    if (!stop)
        assert_int_equal(exit_code, 0);
    return stop ? exit_code : GOES_ON;
}

static void cli_opts_defaults_stay(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "", &c), GOES_ON);
    assert_int_equal(o.json, 0);
    assert_int_equal(o.color, 1);
    assert_int_equal(o.seed, 7);
    assert_int_equal(o.mode, -1);
    assert_null(o.scenario);
    assert_string_equal(c.err, "");
    assert_string_equal(c.out, "");
}

static void cli_opts_flags(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "--json --no-color", &c), GOES_ON);
    assert_int_equal(o.json, 1);
    assert_int_equal(o.color, 0);
    assert_int_equal(parse(&o, "--json=1", &c), OPFOR_EXIT_USAGE);
    assert_non_null(strstr(c.err, "opfor: test: --json takes no value, got '1'"));
}

static void cli_opts_whole_numbers_and_limits(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "--seed 0 --roll 60", &c), GOES_ON);
    assert_int_equal(o.seed, 0);
    assert_int_equal(o.roll, 60);
    assert_int_equal(parse(&o, "--roll 61", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err,
                        "opfor: test: --roll must be a whole number from 1 to 60, got '61'\n");
    assert_int_equal(parse(&o, "--roll 0", &c), OPFOR_EXIT_USAGE);
    assert_int_equal(parse(&o, "--seed -1", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: --seed must be a whole number >= 0, got '-1'\n");
    assert_int_equal(parse(&o, "--seed 1.5", &c), OPFOR_EXIT_USAGE);
    assert_int_equal(parse(&o, "--seed 99999999999999999999999", &c), OPFOR_EXIT_USAGE);
    assert_int_equal(parse(&o, "--seed x", &c), OPFOR_EXIT_USAGE);
    assert_non_null(strstr(c.err, "got 'x'"));
}

static void cli_opts_numbers_and_limits(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "--range 12.5 --timeout 0.25", &c), GOES_ON);
    assert_true(o.range == 12.5);
    assert_true(o.timeout == 0.25);
    assert_int_equal(parse(&o, "--range 0", &c), GOES_ON);
    assert_int_equal(parse(&o, "--range 1000.5", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err,
                        "opfor: test: --range must be a number from 0 to 1000, got '1000.5'\n");
    assert_int_equal(parse(&o, "--range nan", &c), OPFOR_EXIT_USAGE);
    /* above 0: zero itself is refused */
    assert_int_equal(parse(&o, "--timeout 0", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: --timeout must be a number > 0, got '0'\n");
    assert_int_equal(parse(&o, "--timeout 1e9", &c), GOES_ON);
}

static void cli_opts_strings_once_and_empty(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "--scenario a.yaml --scenario b.yaml", &c), GOES_ON);
    assert_string_equal(o.scenario, "b.yaml"); /* the last one wins */
    assert_int_equal(parse(&o, "--note hello --note again", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: --note given twice ('hello', then 'again')\n");
    assert_int_equal(parse(&o, "--scenario=", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: --scenario needs a value: a file name\n");
    /* a value may start with a dash */
    assert_int_equal(parse(&o, "--note -h", &c), GOES_ON);
    assert_string_equal(o.note, "-h");
}

static void cli_opts_choice_and_alias(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "--mode fine", &c), GOES_ON);
    assert_int_equal(o.mode, 1);
    assert_string_equal(o.mode_name, "fine");
    /* an alias of a value gives the canonical name; case is ignored */
    assert_int_equal(parse(&o, "--mode Two-Dice", &c), GOES_ON);
    assert_int_equal(o.mode, 2);
    assert_string_equal(o.mode_name, "2d6");
    /* the option's old name */
    assert_int_equal(parse(&o, "--method d6", &c), GOES_ON);
    assert_int_equal(o.mode, 0);
    assert_int_equal(parse(&o, "--method=2d6", &c), GOES_ON);
    assert_int_equal(o.mode, 2);
    assert_int_equal(parse(&o, "--mode 3d6", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: --mode must be d6, fine or 2d6, got '3d6'\n");
    /* the error names the option by its current name, even when the alias was typed */
    assert_int_equal(parse(&o, "--method 3d6", &c), OPFOR_EXIT_USAGE);
    assert_non_null(strstr(c.err, "test: --mode must be"));
}

static void cli_opts_equals_form(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "--seed=42 --range=3 --scenario=x=y.yaml --move=A=1,2", &c),
                     GOES_ON);
    assert_int_equal(o.seed, 42);
    assert_true(o.range == 3.0);
    assert_string_equal(o.scenario, "x=y.yaml"); /* only the first '=' splits */
    assert_int_equal(o.move.n, 1);
    assert_string_equal(o.moves[0], "A=1,2");
    /* "--seedling" is not "--seed" */
    assert_int_equal(parse(&o, "--seedling 3", &c), OPFOR_EXIT_USAGE);
    assert_non_null(strstr(c.err, "unknown flag '--seedling'"));
}

static void cli_opts_repeated_list(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "--move A=1,2 --off B --move C=3,4", &c), GOES_ON);
    assert_int_equal(o.move.n, 3);
    assert_string_equal(o.moves[0], "A=1,2");
    assert_string_equal(o.moves[1], "B");
    assert_string_equal(o.moves[2], "C=3,4");
    assert_string_equal(o.move_flags[0], "--move");
    assert_string_equal(o.move_flags[1], "--off");
    assert_string_equal(o.move_flags[2], "--move");
    assert_int_equal(parse(&o, "--move A --move B --move C --move D", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: --move may be given at most 3 times\n");
}

static void cli_opts_unknown_flags(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "--bogus", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: unknown flag '--bogus' (flags: --json, --no-color, "
                               "--seed, --roll, --range, --timeout, --scenario, --note, --mode, "
                               "--move, --off, --help)\n");
    assert_int_equal(parse(&o, "-x", &c), OPFOR_EXIT_USAGE);
    assert_non_null(strstr(c.err, "unknown flag '-x'"));
    /* parsing stops at the first error: later options are not read */
    assert_int_equal(parse(&o, "--bogus --seed 3", &c), OPFOR_EXIT_USAGE);
    assert_int_equal(o.seed, 7);
}

static void cli_opts_missing_values(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "--roll", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: --roll needs a value: a whole number from 1 to 60\n");
    assert_int_equal(parse(&o, "--mode", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: --mode needs a value: d6, fine or 2d6\n");
    assert_int_equal(parse(&o, "--note", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: --note needs a value: a value\n");
}

static void cli_opts_positionals(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    assert_int_equal(parse(&o, "g1 --json - ", &c), GOES_ON);
    assert_int_equal(o.npos, 2);
    assert_string_equal(o.pos[0], "g1");
    assert_string_equal(o.pos[1], "-");
    assert_int_equal(parse(&o, "-- --json", &c), GOES_ON); /* after "--", words are positional */
    assert_int_equal(o.json, 0);
    assert_string_equal(o.pos[0], "--json");
    assert_int_equal(parse(&o, "-5", &c), GOES_ON); /* a negative number is no flag */
    assert_string_equal(o.pos[0], "-5");
    /* the callback's error and exit code stop the parse */
    assert_int_equal(parse(&o, "a b c", &c), OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: test: at most 2 arguments, got 'c'\n");
}

static void cli_opts_no_positionals(void **state) {
    (void)state;
    const opfor_cli_opt_t table[] = {{0}};
    const opfor_cli_spec_t spec = {.cmd = "demo", .opts = table};
    char *argv[] = {"demo", "--fast", NULL};
    int code = -1;
    capture_t c;
    capture_begin(&c);
    int stop = opfor_cli_parse(&spec, 2, argv, 1, &code);
    capture_end(&c);
    assert_int_equal(stop, 1);
    assert_int_equal(code, OPFOR_EXIT_USAGE);
    assert_string_equal(c.err, "opfor: demo: unknown flag '--fast' (flags: --help)\n");
    argv[1] = "now";
    capture_begin(&c);
    stop = opfor_cli_parse(&spec, 2, argv, 1, &code);
    capture_end(&c);
    assert_int_equal(stop, 1);
    assert_non_null(strstr(c.err, "demo: unexpected argument 'now'"));
}

static void cli_opts_help(void **state) {
    (void)state;
    opts_t o;
    capture_t c;
    /* help stops the parse with exit 0, even after other options */
    assert_int_equal(parse(&o, "--seed 3 --help --bogus", &c), OPFOR_EXIT_OK);
    assert_string_equal(c.err, "");
    const char *want_start =
        "usage: opfor test [GAME] [--json] [--no-color] [--seed S] [--roll N]\n"
        "                  [--range INCHES] [--timeout SECONDS] [--scenario FILE]\n"
        "                  [--note TEXT] [--mode M] [--move UNIT=X,Y] [--off UNIT]\n";
    assert_memory_equal(c.out, want_start, strlen(want_start));
    assert_non_null(strstr(c.out, "\nTests the option parser.\n\noptions:\n"));
    assert_non_null(strstr(c.out, "\n  --json             JSON\n"));
    assert_non_null(strstr(c.out, "\n  --roll N           rolls\n"
                                  "                     second line\n"));
    assert_non_null(strstr(c.out, "\n  --mode M           how\n"
                                  "                     (--method is the old name, still "
                                  "accepted)\n"));
    assert_non_null(strstr(c.out, "\n  -h, --help         this text\n\nThe end.\n"));
    /* the help column follows the longest option ("  --timeout SECONDS") */
    /* every option of the table is in the usage */
    const char *names[] = {"--no-color",  "--timeout SECONDS", "--scenario FILE",
                           "--note TEXT", "--move UNIT=X,Y",   "--off UNIT"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        assert_non_null(strstr(c.out, names[k]));
    assert_int_equal(parse(&o, "-h", &c), OPFOR_EXIT_OK);
    assert_non_null(strstr(c.out, "usage: opfor test"));
}

/* A check for --panel: the two panels' names. */
static int panel_known(const char *v) {
    return strcmp(v, "2in13v4") == 0 || strcmp(v, "7in5v2") == 0;
}

static void cli_opts_valid_check(void **state) {
    (void)state;
    const char *panel = NULL, *addr = NULL, *token = NULL;
    const opfor_cli_opt_t table[] = {
        {.name = "--panel",
         .type = OPFOR_CLI_STRING,
         .string = &panel,
         .valid = panel_known,
         .wants = "one of 2in13v4, 7in5v2",
         .arg = "P",
         .help = "the panel"},
        OPFOR_CLI_CONNECT_OPTS(&addr, &token),
        {0},
    };
    const opfor_cli_spec_t spec = {.cmd = "display", .opts = table};
    char *argv[] = {"display", "--panel", "7in5v2", "--connect=unix:/x", "--token-file", "t"};
    int code = -1;
    capture_t c;
    capture_begin(&c);
    int stop = opfor_cli_parse(&spec, 6, argv, 1, &code);
    capture_end(&c);
    assert_string_equal(c.err, "");
    assert_int_equal(stop, 0);
    assert_string_equal(panel, "7in5v2");
    assert_string_equal(addr, "unix:/x");
    assert_string_equal(token, "t");
    argv[2] = "9in7";
    capture_begin(&c);
    stop = opfor_cli_parse(&spec, 3, argv, 1, &code);
    capture_end(&c);
    assert_int_equal(stop, 1);
    assert_int_equal(code, OPFOR_EXIT_USAGE);
    assert_string_equal(c.err,
                        "opfor: display: --panel must be one of 2in13v4, 7in5v2, got '9in7'\n");
    /* the shared connection options say what they want */
    char *argv2[] = {"display", "--token-file"};
    capture_begin(&c);
    stop = opfor_cli_parse(&spec, 2, argv2, 1, &code);
    capture_end(&c);
    assert_int_equal(stop, 1);
    assert_string_equal(c.err, "opfor: display: --token-file needs a value: a file (the "
                               "daemon's token, mode 0600)\n");
}

static void cli_opts_wants_text(void **state) {
    (void)state;
    char buf[128];
    opfor_cli_opt_t o = {
        .name = "--seconds", .type = OPFOR_CLI_NUMBER, .min = 0, .max = 60, .above = 1};
    assert_string_equal(opfor_cli_wants(&o, buf, sizeof buf), "a number above 0 and at most 60");
    o = (opfor_cli_opt_t){.name = "--x", .type = OPFOR_CLI_WHOLE, .lo = 1, .hi = LONG_MAX};
    assert_string_equal(opfor_cli_wants(&o, buf, sizeof buf), "a whole number >= 1");
    o = (opfor_cli_opt_t){.name = "--x", .type = OPFOR_CLI_NUMBER, .min = 0, .max = HUGE_VAL};
    assert_string_equal(opfor_cli_wants(&o, buf, sizeof buf), "a number >= 0");
    static const opfor_name_t two[] = {{"yes", 1}, {"no", 0}, {NULL, 0}};
    o = (opfor_cli_opt_t){.name = "--x", .type = OPFOR_CLI_CHOICE, .names = two};
    assert_string_equal(opfor_cli_wants(&o, buf, sizeof buf), "yes or no");
    /* a short buffer is cut, never overrun */
    char tiny[6];
    assert_int_equal(strlen(opfor_cli_wants(&o, tiny, sizeof tiny)), 5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cli_opts_defaults_stay),
        cmocka_unit_test(cli_opts_flags),
        cmocka_unit_test(cli_opts_whole_numbers_and_limits),
        cmocka_unit_test(cli_opts_numbers_and_limits),
        cmocka_unit_test(cli_opts_strings_once_and_empty),
        cmocka_unit_test(cli_opts_choice_and_alias),
        cmocka_unit_test(cli_opts_equals_form),
        cmocka_unit_test(cli_opts_repeated_list),
        cmocka_unit_test(cli_opts_unknown_flags),
        cmocka_unit_test(cli_opts_missing_values),
        cmocka_unit_test(cli_opts_positionals),
        cmocka_unit_test(cli_opts_no_positionals),
        cmocka_unit_test(cli_opts_help),
        cmocka_unit_test(cli_opts_valid_check),
        cmocka_unit_test(cli_opts_wants_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
