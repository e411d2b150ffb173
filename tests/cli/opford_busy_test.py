#!/usr/bin/env python3
"""tests/cli/opford_busy_test.py BIN_DIR WORKDIR -- a full search queue (issue 16), over a real
opford with one worker, --max-queued 1 and the debug methods: one debug.sleep holds the worker,
a second waits (the queue's one place), so the AI's search has no room:

- ai.orders is answered BUSY (2) with the hint ask_again and a message that names the limit;
- the daemon's start line gives the limit, and one warn line says the queue is full;
- once the sleepers' clients leave (their jobs cancelled), the same ai.orders is answered.

Run by tests/cli/opford_busy.sh; every wait is bounded; ends with "N passed, N failed".
"""
import functools
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
checks = opford_lib.Checks(detail_max=1500)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, os.path.join(BIN, "opford"), WORK)
Client = opford_lib.Client
BUSY = 2

d = Daemon("busy", ["--workers", "1", "--max-queued", "1", "--debug-methods", "yes"])
check("daemon_ready", d.ready, d.logtext()[-2000:])
check("limit_logged", d.wait_log(r"1 worker thread for searches, at most 1 waiting") is not None,
      d.logtext()[-2000:])

# A game brought to the AI's initiative (no worker needed on the way at level standard).
c = Client(d.sock, 20)
g = c.rpc("game.new", {"seed": 2, "id": "b1"})["game"]
for _ in range(40):
    st = c.rpc("game.state", {"game": g})
    if st["pending"] == "enemy":
        break
    if st["pending"] == "player":
        c.call("report", {"game": g, "acted": st["ready"][0]})
    else:
        c.rpc("viktoria.initiative", {"game": g})
check("ai_initiative", st["pending"] == "enemy", repr(st.get("pending")))

# The worker held, the queue's one place taken.
holders = []
for _ in range(2):
    h = Client(d.sock, 20)
    h.send("debug.sleep", {"ms": 20000})
    holders.append(h)
    time.sleep(0.3)
err, res = c.call("ai.orders", {"game": g})
check("orders_refused_busy", err is not None and err[0] == BUSY and
      "search queue is full" in err[1] and "--max-queued" in err[1] and "1 searches" in err[1],
      repr(err))
check("busy_hint_ask_again", err is not None and len(err) == 3 and
      err[2] == {"hint": "ask_again", "args": {}}, repr(err))
err2, _ = c.call("ai.orders", {"game": g})
check("still_busy", err2 is not None and err2[0] == BUSY, repr(err2))
check("full_logged_once", d.wait_log(r"the search queue is full") is not None and
      d.logtext().count("the search queue is full") == 1, d.logtext()[-2000:])

# Room again: the sleepers' clients leave, their jobs are cancelled, the search runs.
for h in holders:
    h.close()
time.sleep(0.3)
err, o = c.call("ai.orders", {"game": g})
check("orders_after_room", err is None and o["sentence"] and "busy daemon" not in o["reason"],
      repr(err))
c.close()
d.stop()
checks.finish("opford_busy: ")
