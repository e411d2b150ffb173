"""tests/cli/opford_unload_test.py BIN_DIR WORK -- games leave opford's memory and come back
(issue 16), over a real daemon with `--game-idle-unload 500ms`: a game left idle is unloaded
and the next call takes it up again from its log and snapshots with its state identical (the
whole game.state, hash included); a subscription outlives the unloading and its events resume
when the game is loaded again; unsubscribing from a game out of memory says it was subscribed;
a closed game leaves memory at once and reads back the same; closing a game while its AI
search runs answers that search CANCELLED and the daemon carries on.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
CANCELLED = 6
t = opford_lib.Checks(detail_max=1500)
check = t.check
Client = opford_lib.EventClient


def step(c, game):
    """One move of a table: press, a player unit acts, or the AI's order resolved."""
    st = c.rpc("game.state", {"game": game})
    if st["pending"] == "none":
        c.rpc("viktoria.initiative", {"game": game})
    elif st["pending"] == "player":
        c.rpc("report", {"game": game, "acted": st["ready"][0]})
    else:
        c.rpc("ai.orders", {"game": game})
        c.call("report", {"game": game, "resolve": True})


def unloads(d, game, why):
    return d.logtext().count(f"game {game}: unloaded ({why})")


def wait_unload(d, game, why, before, secs=5):
    end = time.time() + secs
    while time.time() < end:
        if unloads(d, game, why) > before:
            return True
        time.sleep(0.05)
    return False


d = opford_lib.Daemon(os.path.join(BIN, "opford"), WORK, "unload",
                      ["--workers", "1", "--game-idle-unload", "500ms"])
check("unload_daemon_ready", d.ready, d.logtext()[-2000:])
if not d.ready:
    t.finish("opford_unload: ")
a, b = Client(d.sock), Client(d.sock)
a.rpc("hello", {"client": "unload-a"})
b.rpc("hello", {"client": "unload-b"})

# --- idle: out of memory, back identical (20 moves: past a snapshot, so both paths replay)
a.rpc("game.new", {"seed": 7, "id": "idle1", "level": "novice"})
for _ in range(20):
    step(a, "idle1")
before = a.rpc("game.state", {"game": "idle1"})
sub = b.rpc("subscribe", {"game": "idle1"})
check("unload_subscribed", sub.get("subscribed") is True, repr(sub))
check("unload_idle_game_leaves_memory", wait_unload(d, "idle1", "idle", 0), d.logtext()[-1500:])
loads = d.logtext().count("game idle1: loaded")
after = a.rpc("game.state", {"game": "idle1"})
check("unload_idle_game_comes_back", d.logtext().count("game idle1: loaded") > loads,
      d.logtext()[-1500:])
check("unload_state_identical", after == before and after.get("hash") == before.get("hash"),
      repr((before.get("hash"), after.get("hash"), before.get("log_seq"), after.get("log_seq"))))

# --- the subscription outlived the unloading: the next change reaches it
check("unload_idle_again", wait_unload(d, "idle1", "idle", 1), d.logtext()[-1500:])
b.events.clear()
step(a, "idle1")
b.pump(0.5)
seqs = [e["seq"] for e in b.events]
check("unload_subscription_survives", len(seqs) >= 1 and seqs[0] == before["event_seq"] + 1,
      repr((seqs, before.get("event_seq"))))

# --- unsubscribing from a game out of memory
check("unload_idle_third", wait_unload(d, "idle1", "idle", 2), d.logtext()[-1500:])
loads = d.logtext().count("game idle1: loaded")
un = b.rpc("unsubscribe", {"game": "idle1"})
check("unload_unsubscribe_dormant", un.get("was_subscribed") == 1 and
      d.logtext().count("game idle1: loaded") == loads, repr(un))
b.events.clear()
step(a, "idle1")
b.pump(0.3)
check("unload_unsubscribed_gets_nothing", not b.events, repr(b.events))

# --- closed: out of memory at once, reads back the same
a.rpc("game.new", {"seed": 8, "id": "shut1", "level": "novice"})
for _ in range(6):
    step(a, "shut1")
a.rpc("game.close", {"game": "shut1"})
check("unload_closed_game_leaves_memory", wait_unload(d, "shut1", "closed", 0, secs=2),
      d.logtext()[-1500:])
closed = a.rpc("game.state", {"game": "shut1"})
check("unload_closed_reads_back", closed.get("status") == "closed", repr(closed.get("status")))
check("unload_closed_again", wait_unload(d, "shut1", "closed", 1, secs=1), d.logtext()[-1500:])
again = a.rpc("game.state", {"game": "shut1"})
check("unload_closed_state_identical", again == closed, repr((closed.get("hash"),
                                                              again.get("hash"))))

# --- a search running when its game is closed: answered CANCELLED, nothing breaks
a.rpc("game.new", {"seed": 9, "id": "race1", "level": "ruthless"})
for _ in range(40):
    st = a.rpc("game.state", {"game": "race1"})
    if st["pending"] == "enemy":
        break
    step(a, "race1")
check("unload_race_enemy_to_act", st["pending"] == "enemy", repr(st["pending"]))
i = a.send("ai.orders", {"game": "race1"})
time.sleep(0.05)
b.rpc("game.close", {"game": "race1"})
err, res = a.wait(i)
check("unload_search_cancelled", err is not None and err[0] == CANCELLED, repr((err, res)))
check("unload_race_closed_leaves", wait_unload(d, "race1", "closed", 0, secs=3),
      d.logtext()[-1500:])
check("unload_daemon_alive", a.call("ping")[0] is None and d.alive(), d.logtext()[-1500:])
a.close()
b.close()
rc = d.stop()
check("unload_daemon_exit_0", rc == 0, repr(rc))
t.finish("opford_unload: ")
