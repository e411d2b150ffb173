/* io/notify.c — sd_notify by hand: one datagram to $NOTIFY_SOCKET (see opfor/notify.h).
 *
 * The socket is opened per message and closed again: notifications are rare (start, reload,
 * stop) and this keeps no state, so there is nothing to leak or to share between threads.
 */
#include "opfor/notify.h"

#include "opfor/error.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int opfor_sd_notify(const char *socket_path, const char *state) {
    const char *path = socket_path ? socket_path : getenv("NOTIFY_SOCKET");
    if (!path || !*path)
        return 0;
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    size_t n = strlen(path);
    if (n >= sizeof sa.sun_path || (path[0] != '/' && path[0] != '@'))
        return OPFOR_EINVAL;
    memcpy(sa.sun_path, path, n);
    if (path[0] == '@')
        sa.sun_path[0] = '\0'; /* abstract namespace */
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return OPFOR_EIO;
    ssize_t sent;
    do
        sent = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, len);
    while (sent < 0 && errno == EINTR);
    close(fd);
    return sent == (ssize_t)strlen(state) ? 1 : OPFOR_EIO;
}
