/* io/include/opfor/notify.h — a tiny sd_notify(3) for Type=notify services, without libsystemd.
 *
 * systemd passes $NOTIFY_SOCKET, a datagram Unix socket (a path, or "@name" for the abstract
 * namespace); a state such as "READY=1" is one datagram. Outside systemd the variable is unset
 * and every call is a no-op, so callers need not care where they run.
 */
#ifndef OPFOR_NOTIFY_H
#define OPFOR_NOTIFY_H

/* Sends state (e.g. "READY=1", "STOPPING=1", "RELOADING=1\nSTATUS=...") to the socket named by
 * socket_path, or by $NOTIFY_SOCKET when socket_path is NULL. Returns 1 when sent, 0 when there
 * is no socket to send to, or a negative OPFOR_E* code on failure. */
int opfor_sd_notify(const char *socket_path, const char *state);

#endif
