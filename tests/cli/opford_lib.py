"""tests/cli/opford_lib.py -- what the opford end-to-end scripts (opford_test.py,
opford_rpc_test.py, opford_game_test.py, opford_deadends_test.py, opford_clients_test.py) share:
the pass/fail tally, a MessagePack-RPC client, the handling of an opford process (its log file,
its pid in WORKDIR/pids for the shell wrapper to kill, a bounded wait for its socket, SIGTERM or
SIGKILL), a running `opfor` client read as it prints, and the protocol names a player must never
read.

The scripts import it from their own folder (python puts a script's folder first on sys.path).
"""
import os
import re
import signal
import socket
import subprocess
import time

import msgpack


class Checks:
    """Counts and prints named checks; detail_max cuts the detail printed with a failure."""

    def __init__(self, detail_max=None):
        self.passed = 0
        self.failed = 0
        self.detail_max = detail_max

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            if self.detail_max is not None:
                detail = str(detail)[:self.detail_max]
            print(f"FAIL {name} {detail}")

    def finish(self, prefix=""):
        """Prints the tally line "PREFIXN passed, N failed" and exits 1 when a check failed."""
        print(f"{prefix}{self.passed} passed, {self.failed} failed")
        raise SystemExit(1 if self.failed else 0)


def rss_kib(pid):
    """Resident memory of process pid in KiB (VmRSS in /proc/PID/status), 0 when unknown."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def player_steps(c, game, st):
    """The first ready player unit of state st acts: reported 1 in east and 1.5 in north of
    where it stands, kept on the table. Returns the report's (error, result)."""
    unit = st["ready"][0]
    u = next(x for x in st["units"] if x["name"] == unit)
    x = min(max(u["at"]["x"] + 1.0, 1.0), st["table"]["width"] - 1)
    y = min(max(u["at"]["y"] + 1.5, 1.0), st["table"]["depth"] - 1)
    return c.call("report", {"game": game, "acted": unit, "at": {"x": x, "y": y}})


class Client:
    """A MessagePack-RPC client on a Unix socket path or a (host, port) loopback address.

    Messages that are not the awaited response go to other(); a subclass keeps what it needs.
    """

    chunk = 1 << 20

    def __init__(self, addr, timeout):
        if isinstance(addr, tuple):
            self.s = socket.create_connection(addr, timeout=timeout)
        else:
            self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.s.settimeout(timeout)
            self.s.connect(addr)
        self.s.settimeout(timeout)
        self.u = msgpack.Unpacker(raw=False, strict_map_key=False)
        self.next_id = 1

    def send(self, method, params=None):
        """Sends a request without waiting; returns its id."""
        i = self.next_id
        self.next_id += 1
        self.s.sendall(msgpack.packb([0, i, method, [params if params is not None else {}]]))
        return i

    def read(self):
        """The next bytes from the server (empty at EOF)."""
        return self.s.recv(self.chunk)

    def other(self, m):
        """A message that is not the awaited response: dropped here."""

    def wait(self, i):
        """(error, result) of request i, or ("closed", None) when the server hangs up first."""
        while True:
            for m in self.u:
                if m[0] == 1 and m[1] == i:
                    return (m[2], m[3])
                self.other(m)
            d = self.read()
            if not d:
                return ("closed", None)
            self.u.feed(d)

    def call(self, method, params=None):
        return self.wait(self.send(method, params))

    def rpc(self, method, params=None):
        """The result of a call; raises RuntimeError naming the method when it fails."""
        err, res = self.call(method, params)
        if err is not None:
            raise RuntimeError(f"{method}: {err}")
        return res

    def close(self):
        self.s.close()


class EventClient(Client):
    """A Client that keeps the `event` notifications it receives (in events)."""

    def __init__(self, addr, timeout=20.0):
        super().__init__(addr, timeout)
        self.timeout = timeout
        self.events = []

    def other(self, m):
        if m[0] == 2 and m[1] == "event":
            self.events.append(m[2][0])

    def pump(self, secs=0.3):
        """Reads notifications for secs seconds."""
        end = time.time() + secs
        self.s.settimeout(0.05)
        try:
            while time.time() < end:
                try:
                    d = self.s.recv(1 << 20)
                except (socket.timeout, BlockingIOError):
                    continue
                if not d:
                    break
                self.u.feed(d)
                for m in self.u:
                    self.other(m)
        finally:
            self.s.settimeout(self.timeout)


class Process:
    """An opford process started by spawn(), its stdout and stderr in WORK/NAME.log."""

    def __init__(self, work, name):
        self.work = work
        self.name = name
        self.log_path = os.path.join(work, name + ".log")

    def spawn(self, cmd, mode="wb", **popen_kw):
        self.log = open(self.log_path, mode)
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=self.log, **popen_kw)
        with open(os.path.join(self.work, "pids"), "a") as f:
            f.write(f"{self.proc.pid}\n")

    def logtext(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def wait_log(self, pattern, secs=5):
        """The first match of pattern in the log within secs, or None."""
        end = time.time() + secs
        while time.time() < end:
            m = re.search(pattern, self.logtext())
            if m:
                return m
            time.sleep(0.05)
        return None

    def wait_socket(self, path, secs=10):
        """True once a client can connect to path; False when the process exits or time runs
        out first."""
        end = time.time() + secs
        while time.time() < end:
            if self.proc.poll() is not None:
                return False
            try:
                Client(path, timeout=1).close()
                return True
            except OSError:
                time.sleep(0.05)
        return False

    def alive(self):
        return self.proc.poll() is None

    def exit_code(self, secs=10):
        """The exit code once the process ends by itself within secs, else None."""
        try:
            return self.proc.wait(timeout=secs)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, secs=10):
        """SIGTERM, then SIGKILL after secs; returns the exit code, or ("killed", code)."""
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=secs)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = ("killed", self.proc.wait(timeout=5))
        self.log.close()
        return rc

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.log.close()


class Daemon(Process):
    """opford on WORK/NAME.sock at log level info, its state in WORK/NAME-state unless state is
    given; ready once its socket answers. start() again after stop() restarts it with the same
    socket, state and log (appended to)."""

    def __init__(self, opford, work, name, args=(), state=None, wait_ready=True):
        super().__init__(work, name)
        self.opford = opford
        self.sock = os.path.join(work, name + ".sock")
        self.state = state or os.path.join(work, name + "-state")
        self.args = list(args)
        self.start(wait_ready)

    def start(self, wait_ready=True):
        self.spawn([self.opford, "--socket", self.sock, "--log-level", "info", "--state-dir",
                    self.state] + self.args, mode="ab")
        self.ready = self.wait_socket(self.sock) if wait_ready else False

    def tcp_listeners(self):
        """The loopback TCP ports logged so far, oldest first (the log is kept across
        restarts)."""
        return [int(x) for x in re.findall(r"listening on tcp://127\.0\.0\.1:(\d+)",
                                           self.logtext())]

    def tcp_port(self, secs=5, after=0):
        """The port of the last loopback TCP listener logged within secs, once more than
        `after` have been logged (after a restart: the count before it), or None."""
        end = time.time() + secs
        while time.time() < end:
            m = self.tcp_listeners()
            if len(m) > after:
                return m[-1]
            time.sleep(0.05)
        return None


# protocol method names a player must never read
PROTOCOL = re.compile(r"\b(ai\.orders|game\.[a-z_]+|patrol\.initiative|viktoria\.initiative|"
                      r"unsubscribe|subscribe)\b")


def leak(text):
    """The first protocol method name in text, or None."""
    m = PROTOCOL.search(text)
    return m.group(0) if m else None


class Term:
    """`OPFOR ARGS` (a terminal game, `opfor watch` ...) with stdin a pipe and stdout, stderr in
    files WORK/termN.out, .err read as it runs; its pid in WORK/pids."""
    n = 0

    def __init__(self, opfor, work, args):
        Term.n += 1
        base = os.path.join(work, f"term{Term.n}")
        self.out_path, self.err_path = base + ".out", base + ".err"
        self.out_f, self.err_f = open(self.out_path, "w"), open(self.err_path, "w")
        self.p = subprocess.Popen([opfor] + args, stdin=subprocess.PIPE, stdout=self.out_f,
                                  stderr=self.err_f, text=True)
        with open(os.path.join(work, "pids"), "a") as f:
            f.write(f"{self.p.pid}\n")

    def send(self, text):
        self.p.stdin.write(text)
        self.p.stdin.flush()

    def out(self):
        with open(self.out_path) as f:
            return f.read()

    def err(self):
        with open(self.err_path) as f:
            return f.read()

    def wait_out(self, pattern, secs=20, err=False):
        """The first match of pattern in stdout (stderr with err) within secs, or None."""
        end = time.time() + secs
        while time.time() < end:
            m = re.search(pattern, self.err() if err else self.out())
            if m:
                return m
            time.sleep(0.05)
        return None

    def finish(self, secs=30):
        """Closes stdin and waits; the exit code, or ("killed", code) after secs."""
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            rc = self.p.wait(timeout=secs)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = ("killed", self.p.wait(timeout=5))
        self.out_f.close()
        self.err_f.close()
        return rc


# ---------------------------------------------------------------- Viktoria! Patrol games


def to_order(c, game):
    """Plays a Viktoria! game on client c (each report naming the state it saw) until the AI
    gives an order; returns it, or None when the game ends or a call fails first."""
    for _ in range(60):
        err, st = c.call("game.state", {"game": game})
        if err or st["status"] != "active":
            return None
        if st["pending"] == "none":
            c.call("viktoria.initiative", {"game": game})
        elif st["pending"] == "player":
            c.call("report", {"game": game, "acted": st["ready"][0], "seen": st["log_seq"]})
        else:
            return c.call("ai.orders", {"game": game})[1]
    return None


def victim(st, order):
    """A player unit on the table with at least 3 figures, the order's target if it is one."""
    units = [u for u in st["units"] if u["player"] and u["state"] in ("ready", "acted") and
             u["alive"] >= 3]
    named = [u for u in units if u["name"] == (order or {}).get("target")]
    return (named or units or [None])[0]
