#!/usr/bin/env python3
"""tests/cli/opford_club_test.py BIN_DIR WORKDIR -- opford as a club runs it (issue 16).

- One daemon per state directory: a second opford on the same --state-dir exits 1 naming the
  first one's pid, and the first keeps serving; a daemon on another directory starts; after
  the first is killed with SIGKILL (no chance to clean up) the next start on its directory
  succeeds; a socket-activated opford and the daemon inside `opfor patrol` are held to the
  same rule.
- Connection limit: with --max-clients 2 and two clients connected, `opfor games` fails with
  the daemon's reason (too many connections, 2 of 2 in use), not a bare "connection closed";
  the two keep working, and once one leaves `opfor games` works. The open-file limit is
  raised for the default max-clients, and a hard limit too low for it is logged.

Run by tests/cli/opford_club.sh; ends with the line "N passed, N failed".
"""
import functools
import os
import socket
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
OPFORD = os.path.join(BIN, "opford")
OPFOR = os.path.join(BIN, "opfor")
checks = opford_lib.Checks(detail_max=1500)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, OPFORD, WORK)
state = os.path.join(WORK, "club-state")


def hello_ok(sock):
    try:
        c = opford_lib.Client(sock, 5)
        err, res = c.call("hello", {})
        c.close()
        return err is None and res.get("server") == "opford"
    except OSError:
        return False


# ---------------------------------------------------------------- one daemon per state dir
first = Daemon("first", state=state)
check("first_ready", first.ready, first.logtext())
second = Daemon("second", state=state, wait_ready=False)
rc = second.exit_code()
log = second.logtext()
check("second_refused_exit_1", rc == 1, f"rc {rc}: {log}")
check("second_names_first_pid", f"is in use by process {first.proc.pid} (opford, started " in log
      and "--state-dir" in log, log)
check("second_made_no_socket", not os.path.exists(second.sock))
second.stop()
check("first_unharmed", first.alive() and hello_ok(first.sock), first.logtext())

other = Daemon("other", state=os.path.join(WORK, "other-state"))
check("other_state_dir_starts", other.ready and hello_ok(other.sock), other.logtext())
other.stop()

# Socket activation: systemd hands opford a socket (fd 3); the state directory rule holds.
act = os.path.join(WORK, "act.sock")
ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
ls.bind(act)
ls.listen(8)
with open(os.path.join(WORK, "act.log"), "wb") as log3:
    p = subprocess.Popen(["bash", "-c", 'exec 3<&0 0</dev/null; LISTEN_PID=$$ LISTEN_FDS=1 '
                          'exec "$0" --state-dir "$1"', OPFORD, state],
                         stdin=ls.fileno(), stdout=log3, stderr=log3)
    with open(os.path.join(WORK, "pids"), "a") as f:
        f.write(f"{p.pid}\n")
    try:
        rc = p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "hung"
ls.close()
with open(os.path.join(WORK, "act.log")) as f:
    text = f.read()
check("activated_refused", rc == 1 and f"process {first.proc.pid}" in text, f"rc {rc}: {text}")

# The daemon inside `opfor patrol` keeps its games in $XDG_STATE_HOME/opfor: the same rule,
# worded for the player.
xdg = os.path.join(WORK, "xdg")
held = Daemon("xdg", state=os.path.join(xdg, "opfor"))
p = subprocess.run([OPFOR, "patrol", "--seed", "3"], input="q\n", capture_output=True, text=True,
                   timeout=30, env=dict(os.environ, XDG_STATE_HOME=xdg))
check("patrol_refused_names_daemon", p.returncode != 0 and f"is in use by process "
      f"{held.proc.pid} (opford, started " in p.stderr and "play on it (--connect)" in p.stderr,
      p.stdout[-500:] + p.stderr)
held.stop()

first.kill9()  # no cleanup at all: the kernel drops the lock
again = Daemon("again", state=state)
check("after_sigkill_starts", again.ready and hello_ok(again.sock), again.logtext())
again.stop()

# ---------------------------------------------------------------- the connection limit
full = Daemon("full", state=os.path.join(WORK, "full-state"), args=["--max-clients", "2"])
held = []
for i in range(2):
    c = opford_lib.Client(full.sock, 5)
    err, _ = c.call("hello", {})
    held.append(c)
    check(f"held_{i}_hello", err is None, repr(err))
env = dict(os.environ, OPFOR_SOCKET=full.sock)
env.pop("OPFOR_TOKEN", None)
p = subprocess.run([OPFOR, "games"], env=env, capture_output=True, text=True, timeout=30)
check("cli_told_why", p.returncode != 0 and "too many connections: 2 of 2 in use; try again "
      "later, or raise the daemon's max-clients" in p.stderr, p.stderr)
check("daemon_logged_refusal", full.wait_log(r"warn: unix#\d+: too many connections") is not None,
      full.logtext())
for i, c in enumerate(held):
    err, _ = c.call("ping")
    check(f"held_{i}_still_served", err is None, repr(err))
held[0].close()
ok = False
for _ in range(50):  # the daemon sees the close within moments
    p = subprocess.run([OPFOR, "games"], env=env, capture_output=True, text=True, timeout=30)
    if p.returncode == 0:
        ok = True
        break
check("cli_served_after_one_left", ok, p.stderr)
held[1].close()
full.stop()

# ---------------------------------------------------------------- open files for max-clients
# A soft limit below max-clients is raised to the hard one; a hard limit too low is said.
for name, limits, want in (
        ("nofile_raised", "ulimit -Sn 256",
         r"open-file limit raised from 256 to \d+ for max-clients 1024"),
        ("nofile_short", "ulimit -Sn 256; ulimit -Hn 512",
         r"max-clients 1024 needs about \d+ open files but this process may open only 512 "
         r"\(hard limit 512\): about \d+ clients can connect")):
    sock = os.path.join(WORK, name + ".sock")
    d = opford_lib.Process(WORK, name)
    d.spawn(["bash", "-c", limits + '; exec "$0" --socket "$1" --state-dir "$2" --log-level info',
             OPFORD, sock, os.path.join(WORK, name + "-state")])
    m = d.wait_log(want, 10)
    check(name, m is not None and d.wait_socket(sock), d.logtext())
    d.stop()

checks.finish("opford_club: ")
