/* tests/io/test_notify.c — the hand-made sd_notify: a datagram reaches a bound socket (by
 * path and in the abstract namespace), and without $NOTIFY_SOCKET nothing is sent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "opfor/error.h"
#include "opfor/notify.h"

/* Binds a datagram socket at name ('@' = abstract). */
static int bound(const char *name) {
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    size_t n = strlen(name);
    memcpy(sa.sun_path, name, n);
    if (name[0] == '@')
        sa.sun_path[0] = '\0';
    assert_int_equal(
        bind(fd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)),
        0);
    return fd;
}

static void expect(int fd, const char *want) {
    char buf[256];
    ssize_t n = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);
    assert_int_equal(n, (ssize_t)strlen(want));
    buf[n] = '\0';
    assert_string_equal(buf, want);
}

static void notify_path_socket_receives_state(void **state) {
    (void)state;
    char dir[] = "/tmp/opfor-test-notify-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[100];
    snprintf(path, sizeof path, "%s/notify", dir);
    int fd = bound(path);
    assert_int_equal(opfor_sd_notify(path, "READY=1"), 1);
    expect(fd, "READY=1");
    /* Through the environment, as systemd passes it. */
    setenv("NOTIFY_SOCKET", path, 1);
    assert_int_equal(opfor_sd_notify(NULL, "STOPPING=1"), 1);
    expect(fd, "STOPPING=1");
    unsetenv("NOTIFY_SOCKET");
    close(fd);
    unlink(path);
    rmdir(dir);
}

static void notify_abstract_socket(void **state) {
    (void)state;
    char name[64];
    snprintf(name, sizeof name, "@opfor-test-notify-%ld", (long)getpid());
    int fd = bound(name);
    assert_int_equal(opfor_sd_notify(name, "RELOADING=1"), 1);
    expect(fd, "RELOADING=1");
    close(fd);
}

static void notify_without_socket_is_noop(void **state) {
    (void)state;
    unsetenv("NOTIFY_SOCKET");
    assert_int_equal(opfor_sd_notify(NULL, "READY=1"), 0);
    assert_int_equal(opfor_sd_notify("relative/path", "READY=1"), OPFOR_EINVAL);
    assert_int_equal(opfor_sd_notify("/nonexistent/dir/notify", "READY=1"), OPFOR_EIO);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(notify_path_socket_receives_state),
        cmocka_unit_test(notify_abstract_socket),
        cmocka_unit_test(notify_without_socket_is_noop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
