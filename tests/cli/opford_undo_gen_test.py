#!/usr/bin/env python3
"""tests/cli/opford_undo_gen_test.py BIN_DIR WORKDIR -- game.undo for a game of a ruleset other
than the table engine's (issue 19), on the test-only dice duel: an act taken back leaves the
state's hash as before it, with an `undo` event to a subscriber; a second undo is refused
(nothing_to_undo, "undone"), as is one after the AI's order ("order") or before anything was
done ("no_report"); a restarted daemon replays the undo to the same state, and one that loads
a snapshot taken just after a table entry can still take it back. Skips (exit 0) when
the daemon's hello does not list "duel".

Run by tests/cli/opford_undo_gen.sh; ends with the line "N passed, N failed".
"""
import functools
import os
import sqlite3
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
ILLEGAL = 4
checks = opford_lib.Checks(detail_max=800)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, os.path.join(BIN, "opford"), WORK)


def hint(err):
    return err[2] if err and len(err) == 3 else None


d = Daemon("undo")
check("daemon_ready", d.ready, d.logtext())
c = opford_lib.EventClient(d.sock, 30.0)
err, hello = c.call("hello", {"client": "opford_undo_gen_test", "api_level": 4})
if err is None and "duel" not in hello.get("rulesets", []):
    print("opford_undo_gen: SKIP: this opford does not register the duel")
    c.close()
    d.stop()
    raise SystemExit(0)
err, st0 = c.call("game.new", {"ruleset": "duel", "id": "u1", "seed": 11, "level": "novice"})
check("new_duel", err is None and st0["can_undo"] is False and st0["undo_report"] is None,
      repr((err, st0 and st0.get("can_undo"))))
err, _ = c.call("game.undo", {"game": "u1"})
check("undo_nothing_yet", err is not None and err[0] == ILLEGAL and
      hint(err) == {"hint": "nothing_to_undo", "args": {"why": "no_report"}}, repr(err))

sub = opford_lib.EventClient(d.sock, 30.0)
sub.call("subscribe", {"game": "u1"})
err, res = c.call("game.act", {"game": "u1", "action": st0["legal"][0]})
check("act", err is None and res["to_move"] == "chance", repr(err))
err, st = c.call("game.state", {"game": "u1"})
check("can_undo_after_act", err is None and st["can_undo"] is True and
      st["undo_report"] == res["log_seq"] and st["hash"] != st0["hash"], repr(err or st["can_undo"]))
err, _ = c.call("game.undo", {"game": "u1", "report": res["log_seq"] + 7})
check("undo_names_wrong_entry", err is not None and err[0] == ILLEGAL, repr(err))
err, un = c.call("game.undo", {"game": "u1", "report": res["log_seq"]})
check("undo_answer", err is None and un["events"][0]["kind"] == "undo" and
      un["events"][0]["data"]["report"] == res["log_seq"] and
      st0["legal"][0] in un["events"][0]["data"]["text"], repr((err, un)))
err, st = c.call("game.state", {"game": "u1"})
check("undo_same_hash", err is None and st["hash"] == st0["hash"] and st["to_move"] == 0 and
      st["legal"] == st0["legal"] and st["can_undo"] is False and
      st["log_seq"] == un["log_seq"], repr((err, st0["hash"], st and st["hash"])))
sub.pump(0.3)
check("undo_event_to_subscriber", any(e["kind"] == "undo" for e in sub.events),
      repr([e["kind"] for e in sub.events]))
err, _ = c.call("game.undo", {"game": "u1"})
check("undo_twice_refused", err is not None and err[0] == ILLEGAL and
      hint(err) == {"hint": "nothing_to_undo", "args": {"why": "undone"}}, repr(err))

# act, roll: the AI moves; its order is a barrier
c.call("game.act", {"game": "u1", "action": st0["legal"][0]})
err, _ = c.call("game.roll", {"game": "u1", "outcome": 5})
err, o = c.call("ai.orders", {"game": "u1"})
check("ai_order", err is None and o["side"] == 1, repr(err))
err, st = c.call("game.state", {"game": "u1"})
check("no_undo_after_order", err is None and st["can_undo"] is False, repr(err))
err, _ = c.call("game.undo", {"game": "u1"})
check("undo_after_order_refused", err is not None and err[0] == ILLEGAL and
      hint(err) == {"hint": "nothing_to_undo", "args": {"why": "order"}} and "order" in err[1],
      repr(err))
check("undo_after_order_changes_nothing",
      c.call("game.state", {"game": "u1"})[1]["hash"] == st["hash"], "")

# a roll after the order can be taken back; then the daemon restarts and replays
err, before = c.call("game.state", {"game": "u1"})
err, r = c.call("game.roll", {"game": "u1", "outcome": "auto"})
check("roll_after_order", err is None, repr(err))
err, un = c.call("game.undo", {"game": "u1"})
check("undo_roll", err is None, repr(err))
err, mid = c.call("game.state", {"game": "u1"})
check("undo_roll_same_hash", err is None and mid["hash"] == before["hash"] and
      mid["order"] == before["order"], repr(err))
c.call("game.roll", {"game": "u1", "outcome": 2})
err, mid = c.call("game.state", {"game": "u1"})
c.close()
sub.close()
check("sigterm_exit_0", d.stop() == 0, "")
d.start()
c = opford_lib.EventClient(d.sock, 30.0)
err, st = c.call("game.state", {"game": "u1"})
check("restart_same_state", err is None and st["hash"] == mid["hash"] and
      st["log_seq"] == mid["log_seq"] and st["can_undo"] == mid["can_undo"] and
      st["undo_report"] == mid["undo_report"] and st["order"] == mid["order"],
      repr((err, mid, st)))
err, un = c.call("game.undo", {"game": "u1"})
err2, st2 = c.call("game.state", {"game": "u1"})
check("undo_after_restart", err is None and err2 is None and st2["hash"] == before["hash"],
      repr((err, err2)))

# a snapshot (every 16 entries) taken just after a table entry keeps what undo takes back
err, st = c.call("game.new", {"ruleset": "duel", "id": "u2", "seed": 4, "level": "novice"})
snap = None
for _ in range(60):
    if err or st["status"] != "active":
        break
    if st["to_move"] == 1:
        c.call("ai.orders", {"game": "u2"})
    else:
        if (st["log_seq"] + 1) % 16 == 0:
            snap = st
        if st["to_move"] == "chance":
            c.call("game.roll", {"game": "u2", "outcome": 0})
        else:
            c.call("game.act", {"game": "u2", "action": 0})
        if snap:
            break
    err, st = c.call("game.state", {"game": "u2"})
check("snapshot_point_reached", snap is not None, repr((err, st and st["log_seq"])))
c.close()
check("sigterm_exit_0_again", d.stop() == 0, "")
con = sqlite3.connect(os.path.join(d.state, "opfor.db"))
snaps = con.execute("SELECT count(*) FROM snapshots WHERE game_id = 'u2' AND seq = ?",
                    (snap["log_seq"] + 1 if snap else -1,)).fetchone()[0]
con.close()
check("snapshot_taken_after_the_entry", snaps == 1, repr(snaps))
d.start()
c = opford_lib.EventClient(d.sock, 30.0)
err, st = c.call("game.state", {"game": "u2"})
check("undo_kept_in_snapshot", err is None and snap and st["can_undo"] is True and
      st["undo_report"] == snap["log_seq"] + 1, repr((err, st and st["can_undo"])))
err, _ = c.call("game.undo", {"game": "u2"})
err2, st = c.call("game.state", {"game": "u2"})
check("undo_from_snapshot_same_hash", err is None and snap and st["hash"] == snap["hash"],
      repr(err))
c.close()
d.stop()
checks.finish("opford_undo_gen: ")
