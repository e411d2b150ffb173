#!/usr/bin/env python3
"""tests/cli/opford_test.py OPFORD WORKDIR -- end-to-end checks of the opford daemon.

Run by tests/cli/opford.sh. Every wait is bounded, every daemon is recorded in WORKDIR/pids
so the shell wrapper can kill it, and the run ends with the line "N passed, N failed".
Traffic goes only to a Unix socket in WORKDIR and to 127.0.0.1.
"""
import os
import random
import re
import signal
import socket
import stat
import subprocess
import sys
import time

import msgpack

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

# Under AddressSanitizer freed memory sits in a quarantine (256 MiB by default), which would
# hide or fake growth in the memory check below; keep it small for the daemons started here.
if "ASAN_OPTIONS" in os.environ:
    os.environ["ASAN_OPTIONS"] += ":quarantine_size_mb=1"

OPFORD, WORK = sys.argv[1], sys.argv[2]
checks = opford_lib.Checks()
check = checks.check


class Daemon(opford_lib.Process):
    """An opford process with a notify socket, its stderr in a file."""

    def __init__(self, name, args, wait_ready=True):
        super().__init__(WORK, name)
        self.notify_path = os.path.join(WORK, name + ".notify")
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(self.notify_path)
        self.notify.settimeout(0.2)
        env = dict(os.environ)
        env.pop("LISTEN_PID", None)
        env.pop("LISTEN_FDS", None)
        env["NOTIFY_SOCKET"] = self.notify_path
        self.spawn([OPFORD] + args, env=env)
        self.ready = self.wait_notify("READY=1", 10) if wait_ready else False

    def wait_notify(self, what, secs):
        end = time.time() + secs
        while time.time() < end:
            if self.proc.poll() is not None:
                return False
            try:
                if what in self.notify.recv(512).decode():
                    return True
            except socket.timeout:
                pass
        return False

    def stop(self, secs=10):
        rc = super().stop(secs)
        self.notify.close()
        return rc


class Client(opford_lib.Client):
    """Also reads one message at a time, keeps every other message in notes, takes a reset
    for a hang-up, and can send any object as a frame."""

    chunk = 65536

    def __init__(self, addr, timeout=5.0):
        super().__init__(addr, timeout)
        self.notes = []

    def send_raw(self, obj):
        self.s.sendall(msgpack.packb(obj))

    def read(self):
        try:
            return super().read()
        except (ConnectionResetError, BrokenPipeError):
            return b""

    def other(self, m):
        self.notes.append(m)

    def recv(self):
        """The next message, or None at EOF/reset; raises socket.timeout."""
        while True:
            for o in self.u:
                return o
            d = self.read()
            if not d:
                return None
            self.u.feed(d)

    def closed_within(self, secs):
        """Reads until EOF; True when the server closed within secs."""
        self.s.settimeout(0.2)
        end = time.time() + secs
        while time.time() < end:
            try:
                m = self.recv()
            except socket.timeout:
                continue
            except OSError:
                return True
            if m is None:
                return True
            self.notes.append(m)
        return False


def hello_ok(addr, **params):
    try:
        c = Client(addr)
        err, res = c.call("hello", params)
        c.close()
        return err is None and res.get("server") == "opford"
    except OSError:
        return False


def error_notes(c):
    return [n for n in c.notes if n[0] == 2 and n[1] == "error"]


# ---------------------------------------------------------------- daemon 1: basics
sockdir = os.path.join(WORK, "run", "opfor")  # does not exist yet: opford creates it 0700
sock = os.path.join(sockdir, "opford.sock")
d1 = Daemon("d1", ["--socket", sock, "--listen", "tcp://127.0.0.1:0",
                   "--state-dir", os.path.join(WORK, "state"), "--log-level", "debug"])
check("d1_ready_notified", d1.ready, d1.logtext())
m = d1.wait_log(r"listening on tcp://127\.0\.0\.1:(\d+)")
check("d1_tcp_port_logged", m is not None, d1.logtext())
tcp = ("127.0.0.1", int(m.group(1))) if m else ("127.0.0.1", 1)
check("socket_mode_0600", stat.S_IMODE(os.stat(sock).st_mode) == 0o600)
check("socket_dir_mode_0700", stat.S_IMODE(os.stat(sockdir).st_mode) == 0o700)
check("state_dir_created", os.path.isdir(os.path.join(WORK, "state")))
check("log_has_level_prefix", re.search(r"^opford: info: ", d1.logtext(), re.M) is not None)

for label, addr in (("unix", sock), ("tcp", tcp)):
    c = Client(addr)
    err, res = c.call("hello", {"client": "opford_test", "api_level": 1})
    check(f"{label}_hello", err is None and res["server"] == "opford" and res["api_level"] >= 2
          and res["rulesets"][:1] == ["viktoria"] and isinstance(res["version"], str)
          and res["max_frame"] == 1 << 20, repr((err, res)))
    err, res = c.call("ping")
    check(f"{label}_ping", err is None and res == {"pong": True}, repr((err, res)))
    err, res = c.call("ping", {"data": [1, "two", {"3": 4.5}]})
    check(f"{label}_ping_echo", err is None and res["data"] == [1, "two", {"3": 4.5}], repr(res))
    err, res = c.call("no.such.method")
    check(f"{label}_unknown_method", err is not None and err[0] == -32601
          and "no.such.method" in err[1], repr(err))
    err, res = c.call("ping", {"bogus": 1})
    check(f"{label}_bad_params", err is not None and err[0] == -32602, repr(err))
    c.send_raw([0, 77, "ping", {}])  # params not an array
    m = c.recv()
    check(f"{label}_params_not_array", m[0] == 1 and m[1] == 77 and m[2][0] == -32602, repr(m))
    err, res = c.call("ping")
    check(f"{label}_connection_stays_after_errors", err is None and res["pong"] is True)
    # Empty params array is accepted as an empty map.
    c.send_raw([0, 78, "ping", []])
    m = c.recv()
    check(f"{label}_empty_params_array", m[1] == 78 and m[2] is None, repr(m))

    # Byte by byte: a hello and a ping, one byte per send.
    raw = msgpack.packb([0, 500, "hello", [{}]]) + msgpack.packb([0, 501, "ping", [{}]])
    for i, b in enumerate(raw):
        c.s.sendall(bytes([b]))
        if i % 4 == 0:
            time.sleep(0.002)
    m1, m2 = c.recv(), c.recv()
    check(f"{label}_byte_by_byte", m1[1] == 500 and m1[2] is None and m2[1] == 501
          and m2[3] == {"pong": True}, repr((m1, m2)))

    # Many frames in one send, answered in order; a notification in the middle gets no answer.
    batch = b"".join(msgpack.packb([0, 1000 + i, "ping", [{"data": i}]]) for i in range(300))
    batch += msgpack.packb([2, "ping", [{}]]) + msgpack.packb([0, 2000, "ping", [{}]])
    c.s.sendall(batch)
    got = [c.recv() for _ in range(301)]
    check(f"{label}_many_frames_one_send",
          [g[1] for g in got] == list(range(1000, 1300)) + [2000]
          and all(g[3]["data"] == g[1] - 1000 for g in got[:300]), repr(got[:3]))
    c.close()

# Hostile frames, each on its own connection: error notification, close, daemon lives on.
rng = random.Random(1234)
hostile = [
    ("map_2p32", b"\xdf\xff\xff\xff\xff" + b"\xc0" * 10),
    ("array_2p32", b"\xdd\xff\xff\xff\xff" + b"\x01" * 10),
    ("nesting_33", b"\x91" * 33 + b"\x01"),
    ("nesting_17", b"\x91" * 17 + b"\x01"),
    ("str_4gib_header", b"\xdb\xff\xff\xff\xff" + b"x" * 10),
    ("bin_4gib_header", b"\xc6\xff\xff\xff\xff"),
    ("frame_over_1mib", b"\xdb" + ((1 << 20) - 4).to_bytes(4, "big") + b"x" * 100),
    ("byte_c1", b"\xc1"),
    ("not_rpc_string", msgpack.packb("hello")),
    ("response_from_client", msgpack.packb([1, 1, None, None])),
    ("random_1mib", bytes(rng.getrandbits(8) for _ in range(1 << 20))),
]
for label, addr in (("unix", sock), ("tcp", tcp)):
    for name, data in hostile:
        c = Client(addr)
        try:
            c.s.sendall(data)
        except OSError:
            pass  # the daemon may hang up before it has read everything
        closed = c.closed_within(8)
        notes = error_notes(c)
        c.close()
        check(f"{label}_hostile_{name}_closed", closed, "connection left open")
        if name != "random_1mib":  # a reset may swallow the notice when much is unread
            check(f"{label}_hostile_{name}_error_notice", len(notes) == 1, repr(c.notes))
        check(f"{label}_hostile_{name}_daemon_alive", d1.alive() and hello_ok(addr),
              d1.logtext()[-2000:])

# Memory stays flat: 30 more rounds of the small hostile frames (the big ones above already
# ran once) must not grow the daemon's resident set by more than 8 MiB. The scanner rejects
# them before msgpack-c allocates anything, so nothing should accumulate.
small = [(n, d) for n, d in hostile if len(d) < 4096]
before = opford_lib.rss_kib(d1.proc.pid)
for _ in range(30):
    for name, data in small:
        c = Client(sock)
        try:
            c.s.sendall(data)
        except OSError:
            pass
        c.closed_within(8)
        c.close()
after = opford_lib.rss_kib(d1.proc.pid)
check("hostile_memory_flat", d1.alive() and after - before < 8 * 1024,
      f"VmRSS {before} KiB -> {after} KiB after {30 * len(small)} hostile connections")

# A valid frame cut short stays pending (need more), and the rest completes it.
c = Client(sock)
raw = msgpack.packb([0, 9, "ping", [{"data": "x" * 5000}]])
c.s.sendall(raw[:3000])
time.sleep(0.2)
c.s.sendall(raw[3000:])
m = c.recv()
check("split_frame_completes", m[1] == 9 and m[3]["data"] == "x" * 5000)
c.close()

# A second daemon on the same live socket must refuse to start.
d_dup = Daemon("dup", ["--socket", sock, "--state-dir", os.path.join(WORK, "state-dup")],
               wait_ready=False)
rc = d_dup.exit_code()
check("live_socket_refused", rc == 1 and "already listening" in d_dup.logtext(), d_dup.logtext())
d_dup.stop()
check("first_daemon_unharmed", d1.alive() and hello_ok(sock))

# Non-loopback TCP without a token is refused before anything is bound.
d_open = Daemon("open", ["--socket", os.path.join(WORK, "o.sock"), "--listen",
                         "tcp://0.0.0.0:0", "--state-dir", os.path.join(WORK, "state")],
                wait_ready=False)
rc = d_open.exit_code()
check("non_loopback_needs_token", rc == 2 and "token-file" in d_open.logtext(), d_open.logtext())
d_open.stop()

rc = d1.stop()
check("sigterm_exit_0", rc == 0, repr(rc))
check("sigterm_removes_socket", not os.path.exists(sock))
check("sigterm_logged", "shutting down" in d1.logtext())

# ---------------------------------------------------------------- daemon 2: limits, token, reload
tokfile = os.path.join(WORK, "token")
with open(tokfile, "w") as f:
    f.write("correct-horse-battery\n")
os.chmod(tokfile, 0o600)
conf = os.path.join(WORK, "opford.yaml")
with open(conf, "w") as f:
    f.write("log-level: info\nhello-timeout: 600ms\nidle-timeout: 1200ms\n"
            "write-queue-max: 16KiB\n")
sock2 = os.path.join(WORK, "d2.sock")
# A stale socket file, as a crash would leave it: bound, then closed without unlinking.
stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
stale.bind(sock2)
stale.close()
d2 = Daemon("d2", ["--config", conf, "--socket", sock2, "--listen", "tcp://127.0.0.1:0",
                   "--token-file", tokfile, "--state-dir", os.path.join(WORK, "state")])
check("d2_ready_over_stale_socket", d2.ready and "stale socket" in d2.logtext(), d2.logtext())
m = d2.wait_log(r"listening on tcp://127\.0\.0\.1:(\d+)")
tcp2 = ("127.0.0.1", int(m.group(1))) if m else ("127.0.0.1", 1)

c = Client(tcp2)
err, res = c.call("ping")
check("token_ping_before_hello_refused", err is not None and err[0] == 1, repr(err))
err, res = c.call("hello", {"token": "correct-horse-battery"})
check("token_hello_right_token", err is None and res["server"] == "opford", repr(err))
err, res = c.call("ping")
check("token_ping_after_hello", err is None and res["pong"] is True, repr(err))
c.close()
c = Client(tcp2)
err, res = c.call("hello", {"token": "wrong-token-value"})
check("token_wrong_token_refused", err is not None and err[0] == 1, repr(err))
check("token_wrong_token_closes", c.closed_within(8))
c.close()
c = Client(tcp2)
err, res = c.call("hello", {})
check("token_missing_refused", err is not None and err[0] == 1, repr(err))
c.close()
check("token_not_needed_on_unix", hello_ok(sock2))

# Hello timeout: a silent client is dropped with a timeout notice (code 5).
c = Client(sock2)
t0 = time.time()
closed = c.closed_within(6)
el = time.time() - t0
notes = error_notes(c)
check("hello_timeout_closes", closed and 0.3 < el < 5, f"closed={closed} after {el:.2f}s")
check("hello_timeout_notice", len(notes) == 1 and notes[0][2][0]["code"] == 5, repr(c.notes))
c.close()
# An incomplete frame does not hold the connection open past the hello deadline either.
c = Client(sock2)
c.s.sendall(b"\xdc\xff\xff")  # array16 of 65535 elements, none sent
check("pending_frame_hits_hello_timeout", c.closed_within(6))
c.close()
# Idle timeout after hello.
c = Client(sock2)
err, _ = c.call("hello", {})
t0 = time.time()
closed = c.closed_within(8)
el = time.time() - t0
check("idle_timeout_closes", err is None and closed and 0.8 < el < 6, f"{closed} {el:.2f}s")
c.close()

# A client that never reads is dropped when its write queue passes the cap.
c = Client(sock2, timeout=10)
c.call("hello", {})
req = b"".join(msgpack.packb([0, i, "ping", [{"data": "y" * 2000}]]) for i in range(3000))
try:
    c.s.sendall(req)
except OSError:
    pass
m = d2.wait_log(r"wait to be read \(limit 16384\); disconnecting", 10)
check("write_queue_cap_disconnects", m is not None, d2.logtext()[-1500:])
c.close()
check("write_queue_daemon_alive", d2.alive() and hello_ok(sock2))

# SIGHUP reloads the config file: RELOADING=1 then READY=1, and the new level is in force.
with open(conf, "w") as f:
    f.write("log-level: debug\nhello-timeout: 5s\nidle-timeout: 1m\n")
d2.proc.send_signal(signal.SIGHUP)
check("sighup_reloading_notified", d2.wait_notify("RELOADING=1", 5))
check("sighup_ready_again", d2.wait_notify("READY=1", 5))
check("sighup_reloaded_logged", d2.wait_log(r"reloaded: log-level debug, hello-timeout 5000 ms")
      is not None, d2.logtext()[-800:])
c = Client(sock2)
c.call("ping")
check("sighup_debug_now_logged", d2.wait_log(r"debug: unix#\d+: request #1 ping") is not None)
c.close()
with open(conf, "w") as f:
    f.write("log-level: loud\n")
d2.proc.send_signal(signal.SIGHUP)
check("sighup_bad_config_kept_old", d2.wait_log(r"reload failed.*opford\.yaml:1:12") is not None
      and d2.alive() and hello_ok(sock2), d2.logtext()[-800:])
rc = d2.stop()
check("d2_sigterm_exit_0", rc == 0 and not os.path.exists(sock2), repr(rc))

# ---------------------------------------------------------------- daemon 3: socket activation
sock3 = os.path.join(WORK, "act.sock")
ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
ls.bind(sock3)
ls.listen(8)
# The socket arrives as stdin; the shell moves it to fd 3 and sets LISTEN_PID to its own pid,
# which exec hands on to opford.
env = dict(os.environ)
notify3 = os.path.join(WORK, "d3b.notify")
ns = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
ns.bind(notify3)
ns.settimeout(10)
env["NOTIFY_SOCKET"] = notify3
log3 = open(os.path.join(WORK, "d3b.log"), "wb")
p3 = subprocess.Popen(["bash", "-c", 'exec 3<&0 0</dev/null; LISTEN_PID=$$ LISTEN_FDS=1 '
                       'exec "$0" --state-dir "$1" --log-level info',
                       OPFORD, os.path.join(WORK, "state")],
                      stdin=ls.fileno(), stdout=log3, stderr=log3, env=env)
with open(os.path.join(WORK, "pids"), "a") as f:
    f.write(f"{p3.pid}\n")
try:
    ready3 = "READY=1" in ns.recv(512).decode()
except socket.timeout:
    ready3 = False
ls.close()
check("activation_ready", ready3)
check("activation_hello", hello_ok(sock3))
p3.send_signal(signal.SIGTERM)
try:
    rc3 = p3.wait(timeout=10)
except subprocess.TimeoutExpired:
    p3.kill()
    rc3 = "killed"
log3.close()
with open(os.path.join(WORK, "d3b.log")) as f:
    text3 = f.read()
check("activation_exit_0", rc3 == 0, repr(rc3))
check("activation_logged", "socket activation" in text3, text3)
check("activation_socket_left_for_systemd", os.path.exists(sock3))

# SIGINT stops as cleanly as SIGTERM.
sock4 = os.path.join(WORK, "d4.sock")
d4 = Daemon("d4", ["--socket", sock4, "--state-dir", os.path.join(WORK, "state")])
d4.proc.send_signal(signal.SIGINT)
rc4 = d4.exit_code()
check("sigint_exit_0", d4.ready and rc4 == 0 and not os.path.exists(sock4), repr(rc4))
d4.stop()

checks.finish("opford: ")
