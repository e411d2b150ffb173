/* tests/io/test_config.c — opford's settings: defaults and their environment rules, the YAML
 * file (values, unknown keys and bad values reported at line:col), value syntax (durations,
 * sizes, levels), listen addresses and the loopback rule, and the token file checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opfor/config.h"

static void config_default_socket_rules(void **state) {
    (void)state;
    char b[108];
    assert_int_equal(opfor_config_default_socket(b, sizeof b, "/run/opfor", "/run/user/1000", 0),
                     0);
    assert_string_equal(b, "/run/opfor/opford.sock");
    assert_int_equal(opfor_config_default_socket(b, sizeof b, "/run/opfor:/run/x", NULL, 0), 0);
    assert_string_equal(b, "/run/opfor/opford.sock");
    assert_int_equal(opfor_config_default_socket(b, sizeof b, "", "/run/user/1000", 1000), 0);
    assert_string_equal(b, "/run/user/1000/opfor/opford.sock");
    assert_int_equal(opfor_config_default_socket(b, sizeof b, NULL, NULL, 0), 0);
    assert_string_equal(b, "/run/opfor/opford.sock");
    assert_int_equal(opfor_config_default_socket(b, sizeof b, NULL, NULL, 1000), 0);
    assert_string_equal(b, "/tmp/opfor-1000/opford.sock");
    char longdir[200];
    memset(longdir, 'a', sizeof longdir - 1);
    longdir[0] = '/';
    longdir[sizeof longdir - 1] = '\0';
    assert_int_equal(opfor_config_default_socket(b, sizeof b, NULL, longdir, 5), OPFOR_ERANGE);

    char d[256];
    assert_int_equal(opfor_config_default_state_dir(d, sizeof d, "/var/lib/opfor", "/x", "/h"), 0);
    assert_string_equal(d, "/var/lib/opfor");
    assert_int_equal(opfor_config_default_state_dir(d, sizeof d, NULL, "/x", "/h"), 0);
    assert_string_equal(d, "/x/opfor");
    assert_int_equal(opfor_config_default_state_dir(d, sizeof d, NULL, "", "/h"), 0);
    assert_string_equal(d, "/h/.local/state/opfor");
}

static void config_defaults_values(void **state) {
    (void)state;
    opfor_config_t c;
    opfor_config_defaults(&c);
    assert_int_equal(c.log_level, OPFOR_LOG_INFO);
    assert_int_equal(c.hello_timeout_ms, 10000);
    assert_int_equal(c.idle_timeout_ms, 600000);
    assert_int_equal(c.max_inflight, 8);
    assert_int_equal(c.write_queue_max, 4u << 20);
    assert_string_equal(c.listen, "");
    assert_string_equal(c.token_file, "");
    assert_true(strstr(c.socket, "opford.sock") != NULL);
    assert_int_equal(opfor_config_check(&c, NULL), 0);
}

static void config_yaml_sets_options(void **state) {
    (void)state;
    opfor_config_t c;
    opfor_config_defaults(&c);
    const char *y = "# opford test\n"
                    "socket: /tmp/x/opford.sock\n"
                    "listen: tcp://127.0.0.1:7373\n"
                    "log-level: DEBUG\n"
                    "hello-timeout: 1500ms\n"
                    "idle-timeout: 2m\n"
                    "max-inflight: 3\n"
                    "write-queue-max: 64KiB\n"
                    "state-dir: /tmp/x/state\n";
    opfor_diag_t d;
    assert_int_equal(opfor_config_load_string(&c, y, strlen(y), "t.yaml", &d), 0);
    assert_string_equal(c.socket, "/tmp/x/opford.sock");
    assert_string_equal(c.listen, "tcp://127.0.0.1:7373");
    assert_int_equal(c.log_level, OPFOR_LOG_DEBUG);
    assert_int_equal(c.hello_timeout_ms, 1500);
    assert_int_equal(c.idle_timeout_ms, 120000);
    assert_int_equal(c.max_inflight, 3);
    assert_int_equal(c.write_queue_max, 65536);
    assert_string_equal(c.state_dir, "/tmp/x/state");
    /* An empty document and an explicit "none" both work. */
    assert_int_equal(opfor_config_load_string(&c, "", 0, "e.yaml", &d), 0);
    assert_int_equal(opfor_config_load_string(&c, "listen: none\n", 13, "n.yaml", &d), 0);
    assert_string_equal(c.listen, "");
}

static void config_yaml_errors_name_line_and_column(void **state) {
    (void)state;
    opfor_config_t c;
    opfor_config_defaults(&c);
    opfor_diag_t d;
    char buf[700];
    const char *unknown = "log-level: info\nsokcet: /tmp/a.sock\n";
    assert_int_equal(opfor_config_load_string(&c, unknown, strlen(unknown), "a.yaml", &d),
                     OPFOR_EPARSE);
    assert_string_equal(opfor_diag_format(&d, buf, sizeof buf),
                        "a.yaml:2:1: unknown option 'sokcet' (see opford --help)");
    const char *badval = "max-inflight: 3\nlog-level:   loud\n";
    assert_int_equal(opfor_config_load_string(&c, badval, strlen(badval), "b.yaml", &d),
                     OPFOR_EINVAL);
    assert_string_equal(opfor_diag_format(&d, buf, sizeof buf),
                        "b.yaml:2:14: log-level: 'loud' is not one of error, warn, info, debug");
    const char *nested = "listen:\n  - a\n";
    assert_int_equal(opfor_config_load_string(&c, nested, strlen(nested), "c.yaml", &d),
                     OPFOR_EPARSE);
    assert_int_equal(d.line, 1);
    const char *list = "- socket\n";
    assert_int_equal(opfor_config_load_string(&c, list, strlen(list), "d.yaml", &d), OPFOR_EPARSE);
    const char *broken = "socket: [unclosed\n";
    assert_int_equal(opfor_config_load_string(&c, broken, strlen(broken), "e.yaml", &d),
                     OPFOR_EPARSE);
    assert_string_equal(d.file, "e.yaml");
    assert_true(d.line >= 1);
    /* A syntax error is placed where libfyaml finds it (1-based, as every other error): the
     * second ':' of line 2. The reader added one to each before. */
    const char *nested2 = "log-level: info\nsocket: a: b\n";
    assert_int_equal(opfor_config_load_string(&c, nested2, strlen(nested2), "f.yaml", &d),
                     OPFOR_EPARSE);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 10);
    const char *comments = "# nothing set\n";
    assert_int_equal(opfor_config_load_string(&c, comments, strlen(comments), "g.yaml", &d), 0);
    assert_int_equal(opfor_config_load_file(&c, "/nonexistent/opford.yaml", &d), OPFOR_ENOENT);
    assert_string_equal(d.file, "/nonexistent/opford.yaml");
}

static void config_value_syntax(void **state) {
    (void)state;
    opfor_config_t c;
    opfor_config_defaults(&c);
    opfor_diag_t d;
    assert_int_equal(opfor_config_set(&c, "hello-timeout", "10", &d), 0);
    assert_int_equal(c.hello_timeout_ms, 10000);
    assert_int_equal(opfor_config_set(&c, "hello-timeout", "250ms", &d), 0);
    assert_int_equal(c.hello_timeout_ms, 250);
    assert_int_equal(opfor_config_set(&c, "idle-timeout", "1h", &d), 0);
    assert_int_equal(c.idle_timeout_ms, 3600000);
    assert_int_equal(opfor_config_set(&c, "idle-timeout", "0", &d), 0);
    assert_int_equal(c.idle_timeout_ms, 0);
    assert_int_equal(opfor_config_set(&c, "idle-timeout", "soon", &d), OPFOR_EINVAL);
    assert_int_equal(opfor_config_set(&c, "idle-timeout", "-1", &d), OPFOR_EINVAL);
    assert_int_equal(opfor_config_set(&c, "idle-timeout", "2000h", &d), OPFOR_ERANGE);
    assert_int_equal(opfor_config_set(&c, "write-queue-max", "2M", &d), 0);
    assert_int_equal(c.write_queue_max, 2u << 20);
    assert_int_equal(opfor_config_set(&c, "write-queue-max", "10", &d), OPFOR_ERANGE);
    assert_int_equal(opfor_config_set(&c, "write-queue-max", "5G", &d), OPFOR_EINVAL);
    assert_int_equal(opfor_config_set(&c, "max-inflight", "0", &d), OPFOR_ERANGE);
    assert_int_equal(opfor_config_set(&c, "max-inflight", "2x", &d), OPFOR_EINVAL);
    assert_int_equal(opfor_config_set(&c, "log-level", "Warn", &d), 0);
    assert_int_equal(c.log_level, OPFOR_LOG_WARN);
    assert_int_equal(opfor_config_set(&c, "socket", "none", &d), 0);
    assert_string_equal(c.socket, "");
    char longpath[200];
    memset(longpath, 'p', sizeof longpath - 1);
    longpath[0] = '/';
    longpath[sizeof longpath - 1] = '\0';
    assert_int_equal(opfor_config_set(&c, "socket", longpath, &d), OPFOR_ERANGE);
    assert_int_equal(opfor_config_set(&c, "nonsense", "1", &d), OPFOR_ENOENT);
    assert_string_equal(opfor_log_level_name(OPFOR_LOG_DEBUG), "debug");
    assert_int_equal(opfor_log_level_parse("ERROR"), OPFOR_LOG_ERROR);
    assert_int_equal(opfor_log_level_parse("loud"), -1);
    /* Every row of the option table is a key opfor_config_set knows. */
    int rows = 0;
    for (const opfor_config_option_t *o = opfor_config_options(); o->key; o++, rows++) {
        opfor_config_t t;
        opfor_config_defaults(&t);
        assert_int_not_equal(opfor_config_set(&t, o->key, "", &d), OPFOR_ENOENT);
    }
    /* 16 daemon settings (game-idle-unload, max-queued: h16; http: issue 19) + 9 display-* (h15) */
    assert_int_equal(rows, 25);
    /* The calculator model, worker threads and debug methods. */
    opfor_config_t t;
    opfor_config_defaults(&t);
    assert_string_equal(t.model, "");
    assert_int_equal(t.workers, 0);
    assert_int_equal(t.debug_methods, 0);
    /* Games leave memory after 10 minutes unused (issue 16); 0 = never by idleness. */
    assert_int_equal(t.game_idle_unload_ms, 10 * 60 * 1000);
    assert_int_equal(opfor_config_set(&t, "game-idle-unload", "300ms", &d), 0);
    assert_int_equal(t.game_idle_unload_ms, 300);
    assert_int_equal(opfor_config_set(&t, "game-idle-unload", "0", &d), 0);
    assert_int_equal(t.game_idle_unload_ms, 0);
    assert_int_equal(opfor_config_set(&t, "game-idle-unload", "soon", &d), OPFOR_EINVAL);
    assert_int_equal(opfor_config_set(&t, "model", "/etc/opfor/model.yaml", &d), 0);
    assert_string_equal(t.model, "/etc/opfor/model.yaml");
    assert_int_equal(opfor_config_set(&t, "model", "built-in", &d), 0);
    assert_string_equal(t.model, "");
    assert_int_equal(opfor_config_set(&t, "workers", "3", &d), 0);
    assert_int_equal(t.workers, 3);
    assert_int_equal(opfor_config_set(&t, "workers", "257", &d), OPFOR_ERANGE);
    /* The search queue's limit (issue 16): 1024 waiting unless set, at least 1. */
    assert_int_equal(t.max_queued, 1024);
    assert_int_equal(opfor_config_set(&t, "max-queued", "64", &d), 0);
    assert_int_equal(t.max_queued, 64);
    assert_int_equal(opfor_config_set(&t, "max-queued", "0", &d), OPFOR_ERANGE);
    assert_int_equal(opfor_config_set(&t, "debug-methods", "yes", &d), 0);
    assert_int_equal(t.debug_methods, 1);
    assert_int_equal(opfor_config_set(&t, "debug-methods", "maybe", &d), OPFOR_EINVAL);
    assert_non_null(strstr(d.msg, "yes, no"));
}

static void config_listen_and_loopback_rule(void **state) {
    (void)state;
    opfor_listen_addr_t a;
    opfor_diag_t d;
    assert_int_equal(opfor_config_parse_listen("tcp://127.0.0.1:7373", &a, &d), 0);
    assert_string_equal(a.host, "127.0.0.1");
    assert_int_equal(a.port, 7373);
    assert_true(a.loopback);
    assert_false(a.ipv6);
    assert_int_equal(opfor_config_parse_listen("tcp://localhost:0", &a, &d), 0);
    assert_string_equal(a.host, "127.0.0.1");
    assert_int_equal(opfor_config_parse_listen("tcp://[::1]:9", &a, &d), 0);
    assert_true(a.ipv6 && a.loopback);
    assert_int_equal(opfor_config_parse_listen("tcp://127.8.9.10:1", &a, &d), 0);
    assert_true(a.loopback);
    assert_int_equal(opfor_config_parse_listen("tcp://0.0.0.0:7373", &a, &d), 0);
    assert_false(a.loopback);
    assert_int_equal(opfor_config_parse_listen("tcp://[::]:7373", &a, &d), 0);
    assert_false(a.loopback);
    assert_int_equal(opfor_config_parse_listen("127.0.0.1:7373", &a, &d), OPFOR_EINVAL);
    assert_int_equal(opfor_config_parse_listen("tcp://127.0.0.1", &a, &d), OPFOR_EINVAL);
    assert_int_equal(opfor_config_parse_listen("tcp://127.0.0.1:65536", &a, &d), OPFOR_EINVAL);
    assert_int_equal(opfor_config_parse_listen("tcp://example.org:1", &a, &d), OPFOR_EINVAL);
    assert_non_null(strstr(d.msg, "not resolved"));
    assert_int_equal(opfor_config_parse_listen("tcp://::1:5", &a, &d), OPFOR_EINVAL);

    opfor_config_t c;
    opfor_config_defaults(&c);
    assert_int_equal(opfor_config_set(&c, "listen", "tcp://0.0.0.0:7373", &d), 0);
    assert_int_equal(opfor_config_check(&c, &d), OPFOR_EINVAL);
    assert_non_null(strstr(d.msg, "token-file"));
    assert_int_equal(opfor_config_set(&c, "token-file", "/etc/opfor/token", &d), 0);
    assert_int_equal(opfor_config_check(&c, &d), 0);
    assert_int_equal(opfor_config_set(&c, "socket", "none", &d), 0);
    assert_int_equal(opfor_config_set(&c, "listen", "none", &d), 0);
    assert_int_equal(opfor_config_check(&c, &d), OPFOR_EINVAL);
}

/* The table page (docs/web.md): `http: http://HOST:PORT`, also given as `--listen http://...`
 * (which leaves a TCP listen alone); any address, since the page's own tokens guard it beyond
 * loopback (tests/web/opford_web_test.py). */
static void config_http_listen(void **state) {
    (void)state;
    opfor_listen_addr_t a;
    opfor_diag_t d;
    assert_int_equal(opfor_config_parse_listen("http://127.0.0.1:0", &a, &d), 0);
    assert_true(a.http && a.loopback);
    assert_int_equal(a.port, 0);
    assert_int_equal(opfor_config_parse_listen("tcp://127.0.0.1:1", &a, &d), 0);
    assert_false(a.http);
    assert_int_equal(opfor_config_parse_listen("https://127.0.0.1:1", &a, &d), OPFOR_EINVAL);

    opfor_config_t c;
    opfor_config_defaults(&c);
    assert_string_equal(c.http, "");
    assert_int_equal(opfor_config_set(&c, "listen", "tcp://127.0.0.1:7373", &d), 0);
    assert_int_equal(opfor_config_set(&c, "listen", "http://127.0.0.1:8080", &d), 0);
    assert_string_equal(c.listen, "tcp://127.0.0.1:7373");
    assert_string_equal(c.http, "http://127.0.0.1:8080");
    assert_int_equal(opfor_config_check(&c, &d), 0);
    assert_int_equal(opfor_config_set(&c, "http", "tcp://127.0.0.1:1", &d), OPFOR_EINVAL);
    const char *y = "http: http://[::1]:0\n";
    assert_int_equal(opfor_config_load_string(&c, y, strlen(y), "h.yaml", &d), 0);
    assert_string_equal(c.http, "http://[::1]:0");
    assert_int_equal(opfor_config_set(&c, "http", "http://0.0.0.0:8080", &d), 0);
    assert_int_equal(opfor_config_check(&c, &d), 0);
    assert_int_equal(opfor_config_set(&c, "http", "none", &d), 0);
    assert_string_equal(c.http, "");
    assert_string_equal(c.listen, "tcp://127.0.0.1:7373");
}

static void write_file(const char *path, const char *text, mode_t mode) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(chmod(path, mode), 0);
}

/* A config file with bytes that are not UTF-8 is refused with its line and column before
 * libfyaml sees it (its 0.7 scanner can loop on such input); good files still load, and a
 * refused file changes nothing. */
static void config_file_rejects_bad_bytes(void **state) {
    (void)state;
    char dir[] = "/tmp/opfor-test-cfg-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char good[300], bad[300];
    snprintf(good, sizeof good, "%s/good.yaml", dir);
    snprintf(bad, sizeof bad, "%s/bad.yaml", dir);
    write_file(good, "log-level: debug\nmax-inflight: 7\n", 0600);
    write_file(bad, "log-level: warn\nsocket: /tmp/\xc3\x28.sock\n", 0600);
    opfor_config_t c;
    opfor_config_defaults(&c);
    opfor_diag_t d;
    assert_int_equal(opfor_config_load_file(&c, good, &d), 0);
    assert_int_equal(c.max_inflight, 7);
    opfor_config_t before = c;
    assert_int_equal(opfor_config_load_file(&c, bad, &d), OPFOR_EPARSE);
    assert_string_equal(d.file, bad);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 14);
    assert_int_equal(memcmp(&before, &c, sizeof c), 0);
    assert_int_equal(opfor_config_load_file(&c, dir, &d), OPFOR_EIO); /* a directory */
    unlink(good);
    unlink(bad);
    rmdir(dir);
}

static void config_token_file_checks(void **state) {
    (void)state;
    char dir[] = "/tmp/opfor-test-token-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], tok[256];
    snprintf(path, sizeof path, "%s/token", dir);
    opfor_diag_t d;
    write_file(path, "s3cret-t0ken-value\n", 0600);
    assert_int_equal(opfor_config_read_token(path, tok, sizeof tok, &d), 0);
    assert_string_equal(tok, "s3cret-t0ken-value");
    write_file(path, "s3cret-t0ken-value\n", 0644);
    assert_int_equal(opfor_config_read_token(path, tok, sizeof tok, &d), OPFOR_EAUTH);
    assert_non_null(strstr(d.msg, "chmod 600"));
    write_file(path, "short\n", 0600);
    assert_int_equal(opfor_config_read_token(path, tok, sizeof tok, &d), OPFOR_EINVAL);
    write_file(path, "has a space inside\n", 0600);
    assert_int_equal(opfor_config_read_token(path, tok, sizeof tok, &d), OPFOR_EINVAL);
    unlink(path);
    assert_int_equal(opfor_config_read_token(path, tok, sizeof tok, &d), OPFOR_ENOENT);
    assert_string_equal(d.file, path);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(config_default_socket_rules),
        cmocka_unit_test(config_defaults_values),
        cmocka_unit_test(config_yaml_sets_options),
        cmocka_unit_test(config_yaml_errors_name_line_and_column),
        cmocka_unit_test(config_value_syntax),
        cmocka_unit_test(config_listen_and_loopback_rule),
        cmocka_unit_test(config_http_listen),
        cmocka_unit_test(config_token_file_checks),
        cmocka_unit_test(config_file_rejects_bad_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
