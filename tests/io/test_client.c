/* tests/io/test_client.c — the blocking RPC client (opfor/client.h) against a real in-process
 * server: address errors, hello and calls with results and remote errors, calc over the wire,
 * tokens on TCP, call timeouts that leave the connection usable, notifications, a server
 * that goes away, and errors with and without their hint (a real server's, and a fake
 * server's odd shapes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "io/server_harness.h"
#include "opfor/client.h"
#include "opfor/rpc.h"

/* Returns the map value under key in obj (a map), or NULL. */
static const msgpack_object *get(const msgpack_object *obj, const char *key) {
    return opfor_rpc_params_get(obj, key);
}

static int str_is(const msgpack_object *o, const char *s) {
    return o && o->type == MSGPACK_OBJECT_STR && o->via.str.size == strlen(s) &&
           memcmp(o->via.str.ptr, s, o->via.str.size) == 0;
}

/* Starts the server of h (set up by harness_init) and connects a client to it. */
static opfor_client_t *start_and_connect(harness_t *h) {
    assert_int_equal(harness_start(h), 0);
    opfor_client_t *c;
    opfor_diag_t d;
    assert_int_equal(opfor_client_connect(&c, h->addr, 2000, &d), 0);
    return c;
}

static void client_connect_errors_are_clear(void **state) {
    (void)state;
    opfor_client_t *c = NULL;
    opfor_diag_t d;
    opfor_diag_clear(&d);
    assert_int_equal(opfor_client_connect(&c, "unix:/nonexistent-dir/opford.sock", 500, &d),
                     OPFOR_ENOENT);
    assert_null(c);
    assert_non_null(strstr(d.msg, "is opford running?"));
    assert_int_equal(opfor_client_connect(&c, "opford", 500, &d), OPFOR_EINVAL);
    assert_non_null(strstr(d.msg, "unix:PATH"));
    assert_int_equal(opfor_client_connect(&c, "tcp://127.0.0.1:0", 500, &d), OPFOR_EINVAL);
    assert_int_equal(opfor_client_connect(&c, "tcp://example.org:7373", 500, &d), OPFOR_EINVAL);
    char buf[200];
    assert_int_equal(opfor_client_default_addr("tcp://127.0.0.1:9", buf, sizeof buf), 0);
    assert_string_equal(buf, "tcp://127.0.0.1:9");
    setenv("OPFOR_SOCKET", "unix:/x/y.sock", 1);
    assert_int_equal(opfor_client_default_addr(NULL, buf, sizeof buf), 0);
    assert_string_equal(buf, "unix:/x/y.sock");
    unsetenv("OPFOR_SOCKET");
    assert_int_equal(opfor_client_default_addr("", buf, sizeof buf), 0);
    assert_int_equal(strncmp(buf, "unix:/", 6), 0);
}

typedef struct calc_args {
    const char *action; /* action name */
    const char *actor;  /* actor quality or NULL */
    int range;          /* inches, or -1 */
} calc_args_t;

static void pack_calc(msgpack_packer *pk, void *ud) {
    const calc_args_t *a = ud;
    msgpack_pack_map(pk, 2);
    opfor_rpc_pack_cstr(pk, "action");
    opfor_rpc_pack_cstr(pk, a->action);
    opfor_rpc_pack_cstr(pk, "fields");
    msgpack_pack_map(pk, (a->actor != NULL) + (a->range >= 0));
    if (a->actor) {
        opfor_rpc_pack_cstr(pk, "actor");
        opfor_rpc_pack_cstr(pk, a->actor);
    }
    if (a->range >= 0) {
        opfor_rpc_pack_cstr(pk, "range");
        msgpack_pack_int(pk, a->range);
    }
}

static void pack_ping_data(msgpack_packer *pk, void *ud) {
    msgpack_pack_map(pk, 1);
    opfor_rpc_pack_cstr(pk, "data");
    opfor_rpc_pack_cstr(pk, ud);
}

static void client_calls_get_results_and_remote_errors(void **state) {
    (void)state;
    harness_t h;
    harness_init(&h);
    opfor_client_t *c = start_and_connect(&h);
    assert_true(opfor_client_fd(c) >= 0);
    assert_int_equal(opfor_client_hello(c, "test_client", NULL), 0);
    assert_int_equal(opfor_client_api_level(c), OPFOR_API_LEVEL);
    assert_string_equal(opfor_client_server_version(c), opfor_server_version());

    const msgpack_object *res;
    assert_int_equal(opfor_client_call(c, "ping", pack_ping_data, "echo me", &res), 0);
    assert_true(get(res, "pong")->via.boolean);
    assert_true(str_is(get(res, "data"), "echo me"));

    calc_args_t a = {"fire_rifle", "veteran", 20};
    assert_int_equal(opfor_client_call(c, "calc", pack_calc, &a, &res), 0);
    assert_true(str_is(get(res, "action"), "fire_rifle"));
    const msgpack_object *rolls = get(res, "rolls");
    assert_non_null(rolls);
    assert_int_equal(rolls->type, MSGPACK_OBJECT_ARRAY);
    assert_true(rolls->via.array.size >= 2);
    const msgpack_object *hit = &rolls->via.array.ptr[0];
    assert_true(str_is(get(hit, "name"), "hit"));
    double pe = get(hit, "p_exact")->via.f64, pr = get(hit, "p_rendered")->via.f64;
    assert_true(pe > 0.0 && pe < 1.0);
    /* The D6 rendering is within 1/12 of the exact chance (seed 000, XVI). */
    assert_true(pr - pe <= 1.0 / 12 + 1e-12 && pe - pr <= 1.0 / 12 + 1e-12);
    assert_true(str_is(get(get(res, "facts"), "bracket"), "medium"));

    /* A bad field value names the field and lists what is allowed. */
    a.actor = "sergeant";
    assert_int_equal(opfor_client_call(c, "calc", pack_calc, &a, &res), OPFOR_CLIENT_REMOTE);
    assert_int_equal(opfor_client_error_code(c), OPFOR_RPC_E_INVALID_PARAMS);
    assert_non_null(strstr(opfor_client_error_message(c), "actor"));
    assert_non_null(strstr(opfor_client_error_message(c), "veteran"));
    /* Out of range for a pistol: the rules' limit, named. */
    a = (calc_args_t){"fire_pistol", NULL, 20};
    assert_int_equal(opfor_client_call(c, "calc", pack_calc, &a, &res), OPFOR_CLIENT_REMOTE);
    assert_non_null(strstr(opfor_client_error_message(c), "9 in"));

    assert_int_equal(opfor_client_call(c, "no.such", NULL, NULL, &res), OPFOR_CLIENT_REMOTE);
    assert_int_equal(opfor_client_error_code(c), OPFOR_RPC_E_METHOD_NOT_FOUND);
    assert_null(res);
    /* debug methods are off by default: they do not exist. */
    assert_int_equal(opfor_client_call(c, "debug.sleep", NULL, NULL, NULL), OPFOR_CLIENT_REMOTE);
    assert_int_equal(opfor_client_error_code(c), OPFOR_RPC_E_METHOD_NOT_FOUND);
    /* The connection is still fine after errors. */
    assert_int_equal(opfor_client_call(c, "ping", NULL, NULL, &res), 0);
    assert_int_equal(opfor_client_error_code(c), 0);

    /* calc.list: every action, each with its fields. */
    assert_int_equal(opfor_client_call(c, "calc.list", NULL, NULL, &res), 0);
    const msgpack_object *acts = get(res, "actions");
    assert_int_equal(acts->via.array.size, 23);
    assert_true(str_is(get(&acts->via.array.ptr[0], "name"), "fire_pistol"));

    opfor_client_close(c);
    harness_stop(&h);
}

static void client_tcp_needs_token_when_configured(void **state) {
    (void)state;
    harness_t h;
    harness_init(&h);
    char tok[128];
    snprintf(tok, sizeof tok, "%s/token", h.dir);
    int fd = open(tok, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "s3cret-token-xyz\n", 17), 17);
    close(fd);
    snprintf(h.cfg.listen, sizeof h.cfg.listen, "tcp://127.0.0.1:0");
    snprintf(h.cfg.token_file, sizeof h.cfg.token_file, "%s", tok);
    assert_int_equal(harness_start(&h), 0);
    char addr[64];
    snprintf(addr, sizeof addr, "tcp://127.0.0.1:%d", opfor_server_tcp_port(h.srv));

    opfor_client_t *c;
    opfor_diag_t d;
    assert_int_equal(opfor_client_connect(&c, addr, 2000, &d), 0);
    assert_int_equal(opfor_client_call(c, "ping", NULL, NULL, NULL), OPFOR_CLIENT_REMOTE);
    assert_int_equal(opfor_client_error_code(c), OPFOR_RPC_E_UNAUTHORIZED);
    assert_int_equal(opfor_client_hello(c, "t", "s3cret-token-xyz"), 0);
    assert_int_equal(opfor_client_call(c, "ping", NULL, NULL, NULL), 0);
    opfor_client_close(c);

    assert_int_equal(opfor_client_connect(&c, addr, 2000, &d), 0);
    assert_int_equal(opfor_client_hello(c, "t", "wrong-token-123"), OPFOR_CLIENT_REMOTE);
    assert_int_equal(opfor_client_error_code(c), OPFOR_RPC_E_UNAUTHORIZED);
    /* The server hangs up after a wrong token. */
    assert_int_equal(opfor_client_poll(c, 3000), OPFOR_EIO);
    opfor_client_close(c);
    harness_stop(&h);
}

static void pack_sleep(msgpack_packer *pk, void *ud) {
    msgpack_pack_map(pk, 1);
    opfor_rpc_pack_cstr(pk, "ms");
    msgpack_pack_int(pk, *(int *)ud);
}

static void client_timeout_keeps_connection_usable(void **state) {
    (void)state;
    harness_t h;
    harness_init(&h);
    h.cfg.debug_methods = 1;
    h.cfg.workers = 1;
    opfor_client_t *c = start_and_connect(&h);
    opfor_client_set_timeout(c, 100);
    int ms = 600;
    double t0 = harness_ms();
    assert_int_equal(opfor_client_call(c, "debug.sleep", pack_sleep, &ms, NULL), OPFOR_ETIMEDOUT);
    double el = harness_ms() - t0;
    assert_true(el >= 90 && el < 500);
    assert_int_equal(opfor_client_error_code(c), 0);
    opfor_client_set_timeout(c, 5000);
    /* Answered while the sleep still runs (it is on a worker). */
    assert_int_equal(opfor_client_call(c, "ping", NULL, NULL, NULL), 0);
    /* The late answer to debug.sleep arrives first and is discarded by id. */
    uv_sleep(700);
    const msgpack_object *res;
    assert_int_equal(opfor_client_call(c, "ping", pack_ping_data, "after", &res), 0);
    assert_true(str_is(get(res, "data"), "after"));
    opfor_client_close(c);
    harness_stop(&h);
}

typedef struct notes {
    int n;         /* notifications seen */
    char last[32]; /* the last one's method */
    int code;      /* its "code" param */
} notes_t;

static void on_note(void *ud, const char *method, size_t len, const msgpack_object *params) {
    notes_t *n = ud;
    n->n++;
    snprintf(n->last, sizeof n->last, "%.*s", (int)len, method);
    const msgpack_object *code = opfor_rpc_params_get(params, "code");
    n->code = code ? (int)code->via.i64 : 0;
}

static void client_notifications_reach_callback(void **state) {
    (void)state;
    harness_t h;
    harness_init(&h);
    h.cfg.hello_timeout_ms = 200;
    opfor_client_t *c = start_and_connect(&h);
    notes_t n = {0, "", 0};
    opfor_client_on_notify(c, on_note, &n);
    assert_int_equal(opfor_client_poll(c, 0), 0); /* nothing yet, no wait */
    double t0 = harness_ms();
    assert_int_equal(opfor_client_poll(c, 3000), 1);
    assert_true(harness_ms() - t0 < 2000);
    assert_string_equal(n.last, "error");
    assert_int_equal(n.code, OPFOR_RPC_E_TIMEOUT);
    assert_int_equal(opfor_client_poll(c, 3000), OPFOR_EIO);
    assert_int_equal(opfor_client_call(c, "ping", NULL, NULL, NULL), OPFOR_EIO);
    assert_int_equal(opfor_client_fd(c), -1);
    opfor_client_close(c);
    harness_stop(&h);
}

/* Connects to h and says hello; returns hello's code, the client in *out (closed on failure,
 * with the message copied into why). */
static int connect_hello(harness_t *h, opfor_client_t **out, char *why, size_t n, int late) {
    opfor_diag_t d;
    assert_int_equal(opfor_client_connect(out, h->addr, 2000, &d), 0);
    if (late)
        uv_sleep(200); /* the server has long refused and closed: the hello's send fails */
    int rc = opfor_client_hello(*out, "t", NULL);
    snprintf(why, n, "%s", opfor_client_error_message(*out));
    if (rc != 0) {
        opfor_client_close(*out);
        *out = NULL;
    }
    return rc;
}

/* Over max-clients: the extra client is told why (its hello fails with the daemon's words,
 * whether it spoke at once or after the close), the others keep working, a refused client
 * does not hold a place, and once one leaves a new one is let in. */
static void client_over_max_clients_is_told_why(void **state) {
    (void)state;
    harness_t h;
    harness_init(&h);
    h.cfg.max_clients = 3;
    assert_int_equal(harness_start(&h), 0);
    opfor_client_t *c[3], *x;
    char why[512];
    for (int i = 0; i < 3; i++)
        assert_int_equal(connect_hello(&h, &c[i], why, sizeof why, 0), 0);
    for (int late = 0; late < 2; late++) {
        assert_int_equal(connect_hello(&h, &x, why, sizeof why, late), OPFOR_EIO);
        assert_non_null(strstr(why, "the server closed the connection: too many connections: "
                                    "3 of 3 in use; try again later, or raise the daemon's "
                                    "max-clients"));
    }
    for (int i = 0; i < 3; i++)
        assert_int_equal(opfor_client_call(c[i], "ping", NULL, NULL, NULL), 0);
    opfor_client_close(c[0]);
    /* The server sees the close soon; a refusal meanwhile is fine, an endless one is not. */
    int rc = -1;
    for (int tries = 0; tries < 100 && rc != 0; tries++) {
        rc = connect_hello(&h, &x, why, sizeof why, 0);
        if (rc != 0)
            uv_sleep(20);
    }
    assert_int_equal(rc, 0);
    assert_int_equal(opfor_client_call(x, "ping", NULL, NULL, NULL), 0);
    assert_int_equal(opfor_client_call(c[1], "ping", NULL, NULL, NULL), 0);
    opfor_client_close(x);
    opfor_client_close(c[1]);
    opfor_client_close(c[2]);
    harness_stop(&h);
}

static void client_sees_server_stop_as_eio(void **state) {
    (void)state;
    harness_t h;
    harness_init(&h);
    opfor_client_t *c = start_and_connect(&h);
    assert_int_equal(opfor_client_hello(c, NULL, NULL), 0);
    harness_stop(&h);
    int rc = opfor_client_call(c, "ping", NULL, NULL, NULL);
    assert_int_equal(rc, OPFOR_EIO);
    const char *m = opfor_client_error_message(c);
    assert_true(strstr(m, "closed the connection") || strstr(m, "connection lost"));
    opfor_client_close(c);
}

static void pack_game_id(msgpack_packer *pk, void *ud) {
    msgpack_pack_map(pk, 1);
    opfor_rpc_pack_cstr(pk, "game");
    opfor_rpc_pack_cstr(pk, ud);
}

/* A real server's errors: one with a hint (an unknown game) and one without (an unknown
 * method); success clears the hint. */
static void client_error_hint_from_server(void **state) {
    (void)state;
    harness_t h;
    harness_init(&h);
    opfor_client_t *c = start_and_connect(&h);
    assert_int_equal(opfor_client_hello(c, "test_client", NULL), 0);
    char buf[64];
    assert_int_equal(opfor_client_call(c, "game.state", pack_game_id, "nope", NULL),
                     OPFOR_CLIENT_REMOTE);
    assert_int_equal(opfor_client_error_code(c), OPFOR_RPC_E_NOT_FOUND);
    /* the message stays for clients that read only [code, message] */
    assert_non_null(strstr(opfor_client_error_message(c), "game.list lists them"));
    assert_string_equal(opfor_client_error_hint(c), "no_game");
    assert_non_null(opfor_client_error_args(c));
    assert_string_equal(opfor_client_error_arg(c, "game", buf, sizeof buf), "nope");
    assert_null(opfor_client_error_arg(c, "side", buf, sizeof buf));

    assert_int_equal(opfor_client_call(c, "no.such", NULL, NULL, NULL), OPFOR_CLIENT_REMOTE);
    assert_int_equal(opfor_client_error_code(c), OPFOR_RPC_E_METHOD_NOT_FOUND);
    assert_string_equal(opfor_client_error_hint(c), "");
    assert_null(opfor_client_error_args(c));
    assert_null(opfor_client_error_arg(c, "game", buf, sizeof buf));

    assert_int_equal(opfor_client_call(c, "game.state", pack_game_id, "nope", NULL),
                     OPFOR_CLIENT_REMOTE);
    assert_string_equal(opfor_client_error_hint(c), "no_game");
    assert_int_equal(opfor_client_call(c, "ping", NULL, NULL, NULL), 0);
    assert_string_equal(opfor_client_error_hint(c), "");
    assert_null(opfor_client_error_args(c));
    opfor_client_close(c);
    harness_stop(&h);
}

/* A fake server: answers each request, in turn, with the error object of one packer. */
typedef void (*fake_err_fn)(msgpack_packer *pk);

typedef struct fake_server {
    int lfd;                 /* listening socket */
    const fake_err_fn *errs; /* one error object per request */
    int n;                   /* how many */
} fake_server_t;

static void *fake_main(void *arg) {
    fake_server_t *f = arg;
    int fd = accept(f->lfd, NULL, NULL);
    if (fd < 0)
        return NULL;
    msgpack_unpacker u;
    msgpack_unpacker_init(&u, 4096);
    msgpack_unpacked m;
    msgpack_unpacked_init(&m);
    for (int i = 0; i < f->n;) {
        msgpack_unpacker_reserve_buffer(&u, 4096);
        ssize_t r = read(fd, msgpack_unpacker_buffer(&u), 4096);
        if (r <= 0)
            break;
        msgpack_unpacker_buffer_consumed(&u, (size_t)r);
        while (i < f->n && msgpack_unpacker_next(&u, &m) == MSGPACK_UNPACK_SUCCESS) {
            uint32_t id = (uint32_t)m.data.via.array.ptr[1].via.u64;
            msgpack_sbuffer sb;
            msgpack_sbuffer_init(&sb);
            msgpack_packer pk;
            msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
            msgpack_pack_array(&pk, 4);
            msgpack_pack_uint8(&pk, 1);
            msgpack_pack_uint32(&pk, id);
            f->errs[i++](&pk);
            msgpack_pack_nil(&pk);
            if (write(fd, sb.data, sb.size) != (ssize_t)sb.size)
                i = f->n;
            msgpack_sbuffer_destroy(&sb);
        }
    }
    msgpack_unpacked_destroy(&m);
    msgpack_unpacker_destroy(&u);
    close(fd);
    return NULL;
}

static void err_old(msgpack_packer *pk) { /* an old server: [code, message] */
    msgpack_pack_array(pk, 2);
    msgpack_pack_int(pk, OPFOR_RPC_E_ILLEGAL);
    opfor_rpc_pack_cstr(pk, "old words");
}

static void err_hint(msgpack_packer *pk) { /* [code, message, {hint, args}] */
    msgpack_pack_array(pk, 3);
    msgpack_pack_int(pk, OPFOR_RPC_E_ILLEGAL);
    opfor_rpc_pack_cstr(pk, "new words");
    msgpack_pack_map(pk, 2);
    opfor_rpc_pack_cstr(pk, "hint");
    opfor_rpc_pack_cstr(pk, "ai_to_move");
    opfor_rpc_pack_cstr(pk, "args");
    msgpack_pack_map(pk, 3);
    opfor_rpc_pack_cstr(pk, "side");
    msgpack_pack_int(pk, 1);
    opfor_rpc_pack_cstr(pk, "neg");
    msgpack_pack_int(pk, -7);
    opfor_rpc_pack_cstr(pk, "list");
    msgpack_pack_array(pk, 0);
}

static void err_hint_no_args(msgpack_packer *pk) { /* a hint without args, plus a new key */
    msgpack_pack_array(pk, 3);
    msgpack_pack_int(pk, OPFOR_RPC_E_ILLEGAL);
    opfor_rpc_pack_cstr(pk, "m");
    msgpack_pack_map(pk, 2);
    opfor_rpc_pack_cstr(pk, "later");
    msgpack_pack_true(pk);
    opfor_rpc_pack_cstr(pk, "hint");
    opfor_rpc_pack_cstr(pk, "roll_first");
}

static void err_odd_third(msgpack_packer *pk) { /* a third element of another shape */
    msgpack_pack_array(pk, 3);
    msgpack_pack_int(pk, OPFOR_RPC_E_BUSY);
    opfor_rpc_pack_cstr(pk, "odd");
    msgpack_pack_int(pk, 42);
}

static void err_hint_not_str(msgpack_packer *pk) { /* hint of the wrong type: ignored */
    msgpack_pack_array(pk, 3);
    msgpack_pack_int(pk, OPFOR_RPC_E_BUSY);
    opfor_rpc_pack_cstr(pk, "odd");
    msgpack_pack_map(pk, 1);
    opfor_rpc_pack_cstr(pk, "hint");
    msgpack_pack_int(pk, 3);
}

static void client_parses_errors_with_and_without_hint(void **state) {
    (void)state;
    char dir[] = "/tmp/opfor-test-hint-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s/s.sock", dir);
    static const fake_err_fn errs[] = {err_old,          err_hint,      err_old,
                                       err_hint_no_args, err_odd_third, err_hint_not_str};
    fake_server_t f = {socket(AF_UNIX, SOCK_STREAM, 0), errs, 6};
    assert_true(f.lfd >= 0);
    assert_int_equal(bind(f.lfd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(f.lfd, 1), 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, fake_main, &f), 0);
    char addr[160];
    snprintf(addr, sizeof addr, "unix:%s", sa.sun_path);
    opfor_client_t *c;
    opfor_diag_t d;
    assert_int_equal(opfor_client_connect(&c, addr, 2000, &d), 0);
    char buf[32];

    assert_int_equal(opfor_client_call(c, "x", NULL, NULL, NULL), OPFOR_CLIENT_REMOTE);
    assert_int_equal(opfor_client_error_code(c), OPFOR_RPC_E_ILLEGAL);
    assert_string_equal(opfor_client_error_message(c), "old words");
    assert_string_equal(opfor_client_error_hint(c), "");
    assert_null(opfor_client_error_args(c));

    assert_int_equal(opfor_client_call(c, "x", NULL, NULL, NULL), OPFOR_CLIENT_REMOTE);
    assert_string_equal(opfor_client_error_message(c), "new words");
    assert_string_equal(opfor_client_error_hint(c), "ai_to_move");
    assert_int_equal(opfor_client_error_args(c)->via.map.size, 3);
    assert_string_equal(opfor_client_error_arg(c, "side", buf, sizeof buf), "1");
    assert_string_equal(opfor_client_error_arg(c, "neg", buf, sizeof buf), "-7");
    assert_null(opfor_client_error_arg(c, "list", buf, sizeof buf));

    /* the next error without a hint clears the last one's */
    assert_int_equal(opfor_client_call(c, "x", NULL, NULL, NULL), OPFOR_CLIENT_REMOTE);
    assert_string_equal(opfor_client_error_hint(c), "");
    assert_null(opfor_client_error_arg(c, "side", buf, sizeof buf));

    assert_int_equal(opfor_client_call(c, "x", NULL, NULL, NULL), OPFOR_CLIENT_REMOTE);
    assert_string_equal(opfor_client_error_hint(c), "roll_first");
    assert_null(opfor_client_error_args(c));

    assert_int_equal(opfor_client_call(c, "x", NULL, NULL, NULL), OPFOR_CLIENT_REMOTE);
    assert_int_equal(opfor_client_error_code(c), OPFOR_RPC_E_BUSY);
    assert_string_equal(opfor_client_error_message(c), "odd");
    assert_string_equal(opfor_client_error_hint(c), "");

    assert_int_equal(opfor_client_call(c, "x", NULL, NULL, NULL), OPFOR_CLIENT_REMOTE);
    assert_string_equal(opfor_client_error_message(c), "odd");
    assert_string_equal(opfor_client_error_hint(c), "");

    opfor_client_close(c);
    pthread_join(th, NULL);
    close(f.lfd);
    unlink(sa.sun_path);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(client_connect_errors_are_clear),
        cmocka_unit_test(client_calls_get_results_and_remote_errors),
        cmocka_unit_test(client_tcp_needs_token_when_configured),
        cmocka_unit_test(client_timeout_keeps_connection_usable),
        cmocka_unit_test(client_notifications_reach_callback),
        cmocka_unit_test(client_sees_server_stop_as_eio),
        cmocka_unit_test(client_over_max_clients_is_told_why),
        cmocka_unit_test(client_error_hint_from_server),
        cmocka_unit_test(client_parses_errors_with_and_without_hint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
