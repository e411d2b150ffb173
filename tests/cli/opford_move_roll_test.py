#!/usr/bin/env python3
"""tests/cli/opford_move_roll_test.py BIN_DIR WORKDIR -- `report` with `move_roll` (issue 15):
the table rolls the D3 of the open order's move and the daemon resolves the order with exactly
that die. With 2 the unit ends where the order said it stops ("stop", the engine's own end
point at the mean roll); with 1 no farther and with 3 no nearer along the move. move_roll
without resolve, outside 1..3, for an order that does not move or with no open order is
refused, naming why; `opfor report --move-roll` without --resolve is a usage error.

Run by tests/cli/opford_move_roll.sh; every wait is bounded, traffic only on a Unix socket in
WORKDIR; ends with the line "N passed, N failed".
"""
import functools
import math
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
OPFORD = os.path.join(BIN, "opford")
OPFOR = os.path.join(BIN, "opfor")
INVALID_PARAMS, ILLEGAL = -32602, 4
checks = opford_lib.Checks(detail_max=800)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, OPFORD, WORK)
MOVES = ("advance", "run", "crawl")


def centre(st, name):
    u = next(x for x in st["units"] if x["name"] == name)
    return u["at"]["x"], u["at"]["y"]


def next_order(c, game):
    """Plays (the player's units stay put, other orders resolved by the daemon) until the AI
    gives an order; returns (order, state) or (None, None) when the game ends."""
    for _ in range(200):
        err, st = c.call("game.state", {"game": game})
        if err or st["status"] != "active":
            return None, None
        if st["pending"] == "none":
            c.call("viktoria.initiative", {"game": game})
        elif st["pending"] == "player":
            c.call("report", {"game": game, "acted": st["ready"][0], "seen": st["log_seq"]})
        else:
            err, o = c.call("ai.orders", {"game": game})
            if err:
                return None, None
            return o, c.call("game.state", {"game": game})[1]
    return None, None


d = Daemon("moveroll")
check("daemon_ready", d.ready, d.logtext()[-2000:])
c = opford_lib.Client(d.sock, 20.0)
c.call("hello", {"client": "move-roll-test"})
c.call("game.new", {"seed": 5, "id": "mr", "difficulty": "novice"})

err, _ = c.call("report", {"game": "mr", "resolve": True, "move_roll": 2})
check("move_roll_needs_an_open_order", err is not None and err[0] == ILLEGAL and
      err[1].startswith("move_roll: there is no open order"), repr(err))

checked = {1: 0, 2: 0, 3: 0}
non_move_refused = False
refusals_checked = False
for k in range(40):
    order, st = next_order(c, "mr")
    if order is None:
        break
    act = order["action"].lower()
    check("order_has_limit_field_%d" % k, "limit" in order and
          (order["limit"] is None or set(order["limit"]) == {"x", "y", "why"}), repr(order)[:400])
    if act not in MOVES or not order.get("stop"):
        if not non_move_refused:
            err, _ = c.call("report", {"game": "mr", "resolve": True, "move_roll": 2})
            non_move_refused = True
            check("move_roll_refused_for_an_order_that_does_not_move",
                  err is not None and err[0] == ILLEGAL and
                  err[1].startswith("move_roll: the open order does not move"), repr(err))
        c.call("report", {"game": "mr", "resolve": True})
        continue
    if not refusals_checked:
        refusals_checked = True
        err, _ = c.call("report", {"game": "mr", "move_roll": 2})
        check("move_roll_goes_with_resolve", err is not None and err[0] == INVALID_PARAMS and
              "goes with resolve" in err[1], repr(err))
        for bad in (0, 4, "2", 2.5):
            err, _ = c.call("report", {"game": "mr", "resolve": True, "move_roll": bad})
            check("move_roll_out_of_range_%r" % (bad,), err is not None and
                  err[0] == INVALID_PARAMS and "must be 1, 2 or 3" in err[1], repr(err))
    roll = 1 + k % 3
    x0, y0 = centre(st, order["unit"])
    err, res = c.call("report", {"game": "mr", "resolve": True, "move_roll": roll})
    check("move_roll_resolves_%d" % k, err is None, repr(err))
    err, st2 = c.call("game.state", {"game": "mr"})
    x1, y1 = centre(st2, order["unit"])
    sx, sy = order["stop"]["x"], order["stop"]["y"]
    went, said = math.hypot(x1 - x0, y1 - y0), math.hypot(sx - x0, sy - y0)
    if roll == 2:
        ok = abs(x1 - sx) <= 0.06 and abs(y1 - sy) <= 0.06
    elif roll == 1:
        ok = went <= said + 0.06
    else:
        ok = went >= said - 0.06
    check("move_roll_%d_is_the_engines_%d" % (roll, k), ok,
          repr((order["sentence"], (x0, y0), (x1, y1), (sx, sy))))
    checked[roll] += 1
    if all(checked.values()) and non_move_refused and checked[2] >= 2:
        break
check("move_rolls_checked", all(checked.values()) and non_move_refused, repr(checked))

r = subprocess.run([OPFOR, "report", "mr", "--move-roll", "2"],
                   env=dict(os.environ, OPFOR_SOCKET=d.sock), capture_output=True, text=True,
                   timeout=30)
check("cli_move_roll_needs_resolve", r.returncode == 2 and "--move-roll goes with --resolve" in
      r.stderr, repr((r.returncode, r.stderr)))
r = subprocess.run([OPFOR, "report", "mr", "--resolve", "--move-roll", "4"],
                   env=dict(os.environ, OPFOR_SOCKET=d.sock), capture_output=True, text=True,
                   timeout=30)
check("cli_move_roll_range", r.returncode == 2 and "--move-roll" in r.stderr,
      repr((r.returncode, r.stderr)))
d.stop()
checks.finish("opford_move_roll: ")
