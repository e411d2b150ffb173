#!/usr/bin/env python3
"""tests/cli/opford_deadends_test.py BIN_DIR WORKDIR -- the dead ends of the daemon's clients
(issue 15), over a real opford with one worker and the debug methods (a debug.sleep holds the
worker, so the AI's search waits: "the AI is thinking" for as long as the test needs):

- SIGINT (Ctrl-C) or SIGTERM to `opfor patrol --connect` while the AI thinks prints the closing
  line that `q` prints (with --resume-hint's wording under `make run`) and exits 128 + signal;
- the game taken up again with --game asks for the orders still due by itself, `o` and
  `orders` show them, and a press while they are due gives them rather than a dead end;
- no protocol method's name (ai.orders, game.state, ...) in anything the terminal game prints,
  refusals included;
- a daemon restart under a running terminal game and under `opfor watch`: both connect again,
  say so, and print every event once (none missed, none twice); a restart while the AI thinks
  ends with the orders given.

Run by tests/cli/opford_deadends.sh; every wait is bounded; ends with "N passed, N failed".
"""
import functools
import os
import re
import signal
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
OPFORD = os.path.join(BIN, "opford")
OPFOR = os.path.join(BIN, "opfor")
checks = opford_lib.Checks(detail_max=1500)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, OPFORD, WORK)
Client = opford_lib.Client
Term = functools.partial(opford_lib.Term, OPFOR, WORK)
leak = opford_lib.leak
# seed 2 of patrol_default: i, a Major, i, a Sharp, i gives the Germans the initiative
TO_ENEMY = "i\na Major\ni\na Sharp\ni\n"


def connect(d):
    c = Client(d.sock, 30)
    c.rpc("hello", {"client": "deadends-test"})
    return c


def hold_worker(d, ms=60000):
    """A client whose debug.sleep holds the daemon's one worker (the AI waits) until closed."""
    c = connect(d)
    c.send("debug.sleep", {"ms": ms})
    time.sleep(0.5)  # the sleep has the worker before anything else is queued
    return c


def patrol(d, *args):
    return Term(["patrol", "--connect", d.sock] + list(args))


d = Daemon("d", ["--workers", "1", "--debug-methods", "yes"])
check("daemon_ready", d.ready, d.logtext())

# ---------------------------------------------------------------- Ctrl-C while the AI thinks
blocker = hold_worker(d)
t = patrol(d, "--seed", "2")
t.send(TO_ENEMY)
check("sigint_reaches_enemy_initiative", t.wait_out(r"Initiative: Germans") is not None, t.out())
time.sleep(0.5)  # the orders are asked for; the worker is held
t.p.send_signal(signal.SIGINT)
rc = t.finish(10)
game = re.search(r"game (g[0-9a-f]+)", t.out())
game = game.group(1) if game else "?"
line = (f"The game stays saved in the daemon: `opfor patrol --connect {d.sock} --game {game}` or "
        f"`opfor state {game}` takes it up again.")
check("sigint_exits_130", rc == 130, repr(rc))
check("sigint_prints_resume_line", t.out().rstrip().endswith(line), t.out()[-600:])
check("sigint_no_orders_yet", "Orders for" not in t.out(), t.out()[-600:])
blocker.close()

# ---------------------------------------------------------------- taking it up again
t = patrol(d, "--game", game)
t.send("o\norders\ni\nq\n")
rc = t.finish(60)
out = t.out()
check("resume_exits_0", rc == 0, repr(rc) + t.err())
check("resume_asks_for_due_orders", "has no orders yet: asking the AI" in out and
      out.count("Orders for Jager Picket") >= 1, out[-1500:])
check("resume_orders_command", out.count("Orders for Jager Picket") == 3, out[-2500:])
check("resume_press_goes_on", re.search(r"\[\d+\] Initiative: ", out.split("Orders for")[-1])
      is not None, out[-1500:])
check("resume_no_unknown_command", "Unknown command" not in out, out[-800:])
check("resume_no_protocol_names", leak(out + t.err()) is None, leak(out + t.err()))

# a press while the AI's orders are due (another client gave the Germans the initiative): the
# orders, not a dead end
c = connect(d)
g2 = c.rpc("game.new", {"scenario": "patrol_default", "seed": 2})["game"]
c.rpc("patrol.initiative", {"game": g2})
c.rpc("report", {"game": g2, "acted": "Major Harcourt"})
c.rpc("patrol.initiative", {"game": g2})
c.rpc("report", {"game": g2, "acted": "Sharpshooter"})
t = patrol(d, "--game", g2)
check("press_due_started", t.wait_out(r"`i` presses the initiative button") is not None, t.out())
c.rpc("patrol.initiative", {"game": g2})  # the Germans' initiative, no orders asked for
t.send("i\nq\n")
rc = t.finish(60)
out, err = t.out(), t.err()
check("press_due_orders_gives_them", "the Germans hold the initiative: their orders come first"
      in err and "Orders for Jager Picket" in out and "asking the AI" not in out,
      out[-1200:] + err)
check("press_due_orders_no_protocol_names", leak(out + err) is None, leak(out + err))
c.close()

# ---------------------------------------------------------------- SIGTERM, make run's wording
blocker = hold_worker(d)
t = patrol(d, "--seed", "2", "--resume-hint", "make run GAME=")
t.send(TO_ENEMY)
check("sigterm_reaches_enemy_initiative", t.wait_out(r"Initiative: Germans") is not None, t.out())
time.sleep(0.5)
t.p.send_signal(signal.SIGTERM)
rc = t.finish(10)
g3 = re.search(r"game (g[0-9a-f]+)", t.out())
g3 = g3.group(1) if g3 else "?"
check("sigterm_exits_143", rc == 143, repr(rc))
check("sigterm_make_run_line", t.out().rstrip().endswith(
    f"The game stays saved in the daemon: `make run GAME={g3}` takes it up again."),
    t.out()[-400:])
blocker.close()

# ---------------------------------------------------------------- refusals, worded
t = patrol(d, "--seed", "3")
t.send("undo\nresolve\na Major\no\ni\na Major\ni\nq\n")
rc = t.finish(60)
out, err = t.out(), t.err()
check("refusals_worded", "nothing to undo: no report was made yet" in err and
      "there is no open order to resolve" in err and
      "press the initiative button first (`i`)" in err and
      "nobody holds the initiative: press the initiative button (`i`)" in err, err)
check("refusals_no_protocol_names", leak(out + err) is None, leak(out + err))
t = patrol(d, "--game", "nosuch")
rc = t.finish(20)
check("no_game_worded", rc == 1 and "there is no game 'nosuch'" in t.err() and
      leak(t.out() + t.err()) is None, t.err())

# ---------------------------------------------------------------- a daemon restart
t = patrol(d, "--seed", "2")
t.send("i\n")
check("restart_first_press", t.wait_out(r"\[1\] Initiative: British") is not None, t.out())
g4 = re.search(r"game (g[0-9a-f]+)", t.out()).group(1)
w = Term(["watch", g4, "--connect", d.sock, "--timeout", "40", "--count", "9"])
check("watch_started", w.wait_out(r"watching game", err=True) is not None, w.err())
d.stop()
d.start()
check("restart_ready", d.ready, d.logtext()[-500:])
c = connect(d)
c.rpc("report", {"game": g4, "acted": "Major Harcourt"})  # another client, while ours is away
t.send("u\ni\n")  # the first finds the connection gone: reconnects, prints what it missed
check("patrol_reconnects", t.wait_out(r"reconnected to", secs=30, err=True) is not None,
      t.err())
check("patrol_press_after_restart", t.wait_out(r"\[4\] Initiative", secs=30) is not None,
      t.out()[-1500:] + t.err())
out = t.out()
check("patrol_missed_events_once", out.count("[2] Report (acted)") == 1 and
      out.count("[1] Initiative") == 1 and out.count("[4] Initiative") == 1, out[-1500:])
check("patrol_never_not_connected", "not connected" not in t.err(), t.err())
# watch: the events after the restart, each once
check("watch_reconnects", w.wait_out(r"reconnected to", secs=30, err=True) is not None,
      w.err())
check("watch_gets_new_events", w.wait_out(r"\[4\] Initiative", secs=30) is not None,
      w.out() + w.err())
wo = w.out()
seqs = [int(x) for x in re.findall(r"^\[(\d+)\]", wo, re.M)]
check("watch_each_event_once", seqs == sorted(set(seqs)) and seqs[:1] == [2], repr(seqs))
w.p.send_signal(signal.SIGTERM)
w.finish(10)

# the AI thinking when the daemon goes: the client comes back and gets the orders
t.send("a Sharp\n")
blocker = hold_worker(d)
t.send("i\n")
check("restart_mid_search_enemy", t.wait_out(r"Initiative: Germans", secs=30) is not None,
      t.out()[-800:])
time.sleep(0.5)
blocker.close()
d.kill9()
d.start()
check("restart_mid_search_ready", d.ready, d.logtext()[-500:])
check("restart_mid_search_orders", t.wait_out(r"Orders for Jager Picket", secs=40) is not None,
      t.out()[-1500:] + t.err())
t.send("q\n")
rc = t.finish(20)
check("restart_patrol_exits_0", rc == 0, repr(rc) + t.err())
check("restart_no_protocol_names", leak(t.out() + t.err()) is None, leak(t.out() + t.err()))
c.close()
d.stop()
checks.finish()
