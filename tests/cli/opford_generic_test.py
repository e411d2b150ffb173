#!/usr/bin/env python3
"""tests/cli/opford_generic_test.py BIN_DIR WORKDIR -- a game of a ruleset other than the
table engine's, played through opford's generic methods (game.act, game.roll, game.report,
ai.orders, game.state) by a stock MessagePack client (python3-msgpack) on a Unix socket: the
test-only dice duel (rulesets/duel, built with -DOPFOR_TEST_RULESETS=ON). hello lists it; the
table's view never shows the AI's hand; the AI's orders come with a reason; bad acts and
reports are refused with a clear message and change nothing; a subscriber sees every event in
order; a restarted daemon replays the game to the same state (snapshots included); a log
written under other rules is refused, naming both versions. Skips (exit 0) when the daemon's
hello does not list "duel".

Run by tests/cli/opford_generic.sh. Every wait is bounded, daemons are recorded in
WORKDIR/pids, and the run ends with the line "N passed, N failed".
"""
import functools
import os
import sqlite3
import sys

import msgpack

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
OPFORD = os.path.join(BIN, "opford")
INVALID_PARAMS, UNAUTHORIZED, ILLEGAL, UNSUPPORTED = -32602, 1, 4, 7
checks = opford_lib.Checks(detail_max=800)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, OPFORD, WORK)


class Client(opford_lib.EventClient):
    """An EventClient with a 30 s timeout."""

    def __init__(self, path, timeout=30.0):
        super().__init__(path, timeout)


def hand_labels(st):
    """The scene's hand labels, Red's then Blue's ("Red hand: 1 3 6" as "hand: 1 3 6")."""
    return [x["text"][x["text"].index("hand:"):] for x in (st.get("scene") or {}).get("labels", [])
            if "hand:" in x["text"]]


def unchanged(c, game, before, name):
    err, st = c.call("game.state", {"game": game})
    check(name, err is None and st["log_seq"] == before["log_seq"] and
          st["hash"] == before["hash"] and st["event_seq"] == before["event_seq"],
          repr((err, before["log_seq"], st and st["log_seq"])))


d = Daemon("gen", ["--debug-methods", "yes"])
check("daemon_ready", d.ready, d.logtext())
c = Client(d.sock)
err, hello = c.call("hello", {"client": "opford_generic_test", "api_level": 4})
if err is None and "duel" not in hello.get("rulesets", []):
    print("opford_generic: SKIP: this opford does not register the duel "
          "(build with -DOPFOR_TEST_RULESETS=ON)")
    c.close()
    d.stop()
    raise SystemExit(0)
info = {r["name"]: r for r in hello.get("ruleset_info", [])} if hello else {}
check("hello_api_level_4", err is None and hello["api_level"] >= 4, repr(err))
check("hello_ruleset_info", info.get("duel", {}).get("rules_version") == "1" and
      {"ai", "session", "view", "scene"} <= set(info["duel"]["parts"]) and
      info["duel"]["players"] == 2 and info["duel"]["title"] and
      list(info) == hello["rulesets"], repr(info))
check("hello_viktoria_rules_version", info.get("viktoria", {}).get("rules_version") == "2" and
      {"ai", "calc"} <= set(info["viktoria"]["parts"]), repr(info.get("viktoria")))

# ---------------------------------------------------------------- game.new: ruleset, level
err, _ = c.call("game.new", {"ruleset": "chess"})
check("unknown_ruleset_names_registered", err is not None and err[0] == UNSUPPORTED and
      "duel" in err[1] and "viktoria" in err[1], repr(err))
err, _ = c.call("game.new", {"ruleset": "duel", "level": "veteran", "difficulty": "novice"})
check("level_and_difficulty_disagree", err is not None and err[0] == INVALID_PARAMS and
      "level" in err[1], repr(err))
err, _ = c.call("game.new", {"ruleset": "duel", "level": "godlike"})
check("bad_level", err is not None and err[0] == INVALID_PARAMS and "novice" in err[1], repr(err))
err, _ = c.call("game.new", {"ruleset": "duel", "scenario": "/etc/passwd"})
check("no_scenario_files", err is not None and err[0] == UNSUPPORTED, repr(err))
# (issue 15) game.new's player and cheat: checked, and cheat only where the AI has something
# hidden to read (the Viktoria! table game; not the built-in one)
err, _ = c.call("game.new", {"ruleset": "duel", "cheat": True})
check("cheat_unsupported_here", err is not None and err[0] == UNSUPPORTED and "cheat" in err[1],
      repr(err))
err, _ = c.call("game.new", {"ruleset": "duel", "player": "x" * 64})
check("player_too_long", err is not None and err[0] == INVALID_PARAMS and "player" in err[1],
      repr(err))
err, _ = c.call("game.new", {"ruleset": "duel", "cheat": "yes"})
check("cheat_not_bool", err is not None and err[0] == INVALID_PARAMS and "cheat" in err[1],
      repr(err))
err, g2 = c.call("game.new", {"ruleset": "duel", "id": "alias", "difficulty": "veteran"})
check("difficulty_alias", err is None and g2["level"] == "veteran", repr(err))

err, g = c.call("game.new", {"ruleset": "duel", "id": "d1", "seed": 11, "level": "novice"})
check("new_duel", err is None and g["ruleset"] == "duel" and g["rules_version"] == "1" and
      g["level"] == "novice" and g["to_move"] == 0 and g["ai_side"] == 1 and g["viewer"] == 0 and
      g["log_seq"] == 1 and g["status"] == "active", repr((err, g)))
red, blue = hand_labels(g) if g else ("", "")
check("view_shows_own_hand", red.startswith("hand:") and "?" not in red and len(red) > 6,
      repr(red))
check("view_hides_ai_hand", blue == "hand: ? ? ?", repr(blue))
check("legal_phrases", g and len(g["legal"]) >= 2 and any("guards" in p for p in g["legal"]),
      repr(g and g["legal"]))
err, gm = c.call("game.state", {"game": "d1", "viewer": "all"})
check("game_master_sees_all", err is None and "?" not in hand_labels(gm)[1] and
      gm["hash"] != g["hash"], repr(err or hand_labels(gm)))
err, _ = c.call("game.state", {"game": "d1", "viewer": 1})
check("ai_side_view_refused", err is not None and err[0] == INVALID_PARAMS, repr(err))

sub = Client(d.sock)
err, res = sub.call("subscribe", {"game": "d1"})
check("subscribe", err is None and res["subscribed"], repr(err))

# ---------------------------------------------------------------- bad acts change nothing
err, st0 = c.call("game.state", {"game": "d1"})
err, _ = c.call("game.act", {"game": "d1", "action": "Red plays the ace of spades"})
check("bad_act_lists_legal", err is not None and err[0] == ILLEGAL and
      all(p in err[1] for p in st0["legal"]), repr(err))
unchanged(c, "d1", st0, "bad_act_changes_nothing")
err, _ = c.call("game.act", {"game": "d1", "action": 99})
check("bad_act_index", err is not None and err[0] == ILLEGAL, repr(err))
err, _ = c.call("game.roll", {"game": "d1", "outcome": 2})
check("roll_when_no_dice", err is not None and err[0] == ILLEGAL, repr(err))
check("hint_roll_table_to_move", len(err or []) == 3 and
      err[2] == {"hint": "table_to_move", "args": {"side": 0}}, repr(err))
err, _ = c.call("ai.orders", {"game": "d1"})
check("orders_when_table_moves", err is not None and err[0] == ILLEGAL and "table" in err[1],
      repr(err))
err, _ = c.call("game.report", {"game": "d1", "form": "play", "fields": {"card": 9}})
check("bad_report_field", err is not None and err[0] == INVALID_PARAMS and "card" in err[1],
      repr(err))
err, _ = c.call("game.report", {"game": "d1", "form": "cheat", "fields": {}})
check("bad_report_form", err is not None and err[0] == INVALID_PARAMS and "play" in err[1],
      repr(err))
held = [int(x) for x in red.split()[1:]]
absent = next(v for v in range(1, 7) if v not in held)
err, _ = c.call("game.report", {"game": "d1", "form": "play",
                                "fields": {"card": absent, "dice": "4"}})
check("report_refused_by_rules", err is not None and err[0] == ILLEGAL and
      f"holds no {absent}" in err[1], repr(err))
err, _ = c.call("game.report", {"game": "d1", "form": "play", "fields": {"card": 0},
                                "side": 1})
check("report_for_ai_side_refused", err is not None and err[0] == INVALID_PARAMS, repr(err))
err, _ = c.call("patrol.initiative", {"game": "d1"})
check("patrol_method_unsupported", err is not None and err[0] == UNSUPPORTED, repr(err))
err, _ = c.call("viktoria.initiative", {"game": "d1"})
check("viktoria_method_unsupported", err is not None and err[0] == UNSUPPORTED and
      err[1].startswith("viktoria.initiative: not for duel games") and len(err) == 3 and
      err[2] == {"hint": "use_game_methods",
                 "args": {"method": "viktoria.initiative", "ruleset": "duel"}}, repr(err))
err, _ = c.call("game.undo", {"game": "d1"})  # issue 19: every game's undo (opford_undo_gen)
check("undo_nothing_yet_for_generic_games", err is not None and err[0] == ILLEGAL and
      err[2] == {"hint": "nothing_to_undo", "args": {"why": "no_report"}}, repr(err))
err, _ = c.call("duel.initiative", {"game": "d1"})
check("duel_lists_no_initiative", err is not None and err[0] == -32601, repr(err))
err, _ = c.call("ai.orders", {"game": "d1"})
check("hint_orders_table_to_move", err is not None and len(err) == 3 and
      err[2] == {"hint": "table_to_move", "args": {"side": 0}}, repr(err))
c.call("game.new", {"id": "vk1", "seed": 3})
err, _ = c.call("game.act", {"game": "vk1", "action": 0})
check("hint_use_ruleset_methods", err is not None and err[0] == UNSUPPORTED and
      len(err) == 3 and err[2] == {"hint": "use_ruleset_methods", "args": {
          "ruleset": "viktoria", "methods": "viktoria.initiative, report, ai.orders"}}, repr(err))
unchanged(c, "d1", st0, "bad_reports_change_nothing")

# ---------------------------------------------------------------- a turn: act, roll, orders
err, res = c.call("game.act", {"game": "d1", "action": st0["legal"][0]})
check("act_by_phrase", err is None and res["to_move"] == "chance" and res["log_seq"] == 2 and
      [e["kind"] for e in res["events"]] == ["act", "to_move"], repr((err, res)))
err, st = c.call("game.state", {"game": "d1"})
check("outcomes_listed", err is None and len(st["outcomes"]) == 6 and
      abs(sum(o["p"] for o in st["outcomes"]) - 1) < 1e-9, repr(err or st["outcomes"]))
err, _ = c.call("game.act", {"game": "d1", "action": 0})
check("hint_roll_first", err is not None and err[0] == ILLEGAL and len(err) == 3 and
      err[2] == {"hint": "roll_first", "args": {}}, repr(err))
err, res = c.call("game.roll", {"game": "d1", "outcome": 5})
check("roll_outcome", err is None and res["to_move"] == 1 and
      res["events"][0]["data"]["outcome"] == st["outcomes"][5]["text"], repr((err, res)))
err, _ = c.call("game.act", {"game": "d1", "action": 0})
check("act_when_ai_moves", err is not None and err[0] == ILLEGAL and "ai.orders" in err[1],
      repr(err))
check("hint_ai_to_move", len(err or []) == 3 and
      err[2] == {"hint": "ai_to_move", "args": {"side": 1}}, repr(err))
err, o = c.call("ai.orders", {"game": "d1"})
check("ai_orders", err is None and o["side"] == 1 and o["reason"] and o["sentence"] and
      o["action"].startswith("Blue") and o["engine"] == "mcts" and o["level"] == "novice" and
      o["iterations"] > 0, repr((err, o)))
check("ai_orders_runner_up", o is not None and (o["runner_up"] is None or
                                                o["runner_up"]["sentence"]), repr(o))
err, o2 = c.call("ai.orders", {"game": "d1"})
check("ai_orders_again_same", err is None and o2["order_id"] == o["order_id"], repr(err))
err, st = c.call("game.state", {"game": "d1"})
played = [p for p in hand_labels(st)]
check("order_in_state", err is None and st["order"]["order_id"] == o["order_id"] and
      st["to_move"] == "chance" and hand_labels(st)[1].count("?") == 2, repr((err, played)))
err, res = c.call("game.roll", {"game": "d1", "outcome": "auto"})
check("roll_auto_hides_outcome", err is None and res["events"][0]["kind"] == "roll" and
      res["events"][0]["data"]["outcome"] is None and res["to_move"] == 0, repr((err, res)))
err, res = c.call("game.report", {"game": "d1", "form": "play", "fields": {"card": 0}})
kinds = [e["kind"] for e in res["events"]] if res else []
check("report_guard", err is None and kinds[:2] == ["report", "session"] and
      res["events"][1]["data"]["kind"] == "guarded" and res["to_move"] == 1, repr((err, res)))

# Play on to past a snapshot (every 16 log entries): the table attacks with its lowest card
# or guards, the AI orders, the dice are rolled by the daemon.
for _ in range(40):
    err, st = c.call("game.state", {"game": "d1"})
    if err or st["status"] != "active" or st["log_seq"] >= 20:
        break
    if st["to_move"] == "chance":
        err, _ = c.call("game.roll", {"game": "d1", "outcome": "auto"})
    elif st["to_move"] == 1:
        err, _ = c.call("ai.orders", {"game": "d1"})
    else:
        err, _ = c.call("game.act", {"game": "d1", "action": 0})
    if err:
        break
check("played_past_snapshot", err is None and st["log_seq"] >= 17, repr((err, st["log_seq"])))
err, mid = c.call("game.state", {"game": "d1"})
err, mid_all = c.call("game.state", {"game": "d1", "viewer": "all"})

sub.pump(0.5)
seqs = [e["seq"] for e in sub.events]
check("subscriber_events_in_order", seqs == list(range(1, mid["event_seq"] + 1)) and
      {"act", "roll", "order", "report", "session", "to_move"} <= {e["kind"] for e in sub.events},
      repr((seqs[:5], mid["event_seq"])))
check("events_never_show_ai_hand",
      all(e["data"].get("outcome") is None for e in sub.events
          if e["kind"] == "roll" and e["data"].get("auto")), "")
err, lst = c.call("game.list")
check("game_list_has_duel", err is None and
      any(x["game"] == "d1" and x["ruleset"] == "duel" for x in lst["games"]), repr(err))
c.close()
sub.close()

# ---------------------------------------------------------------- restart: the same game
check("sigterm_exit_0", d.stop() == 0, "")
con = sqlite3.connect(os.path.join(d.state, "opfor.db"))
snaps = con.execute("SELECT count(*) FROM snapshots WHERE game_id = 'd1'").fetchone()[0]
first = con.execute("SELECT kind FROM log WHERE game_id = 'd1' AND seq = 1").fetchone()
# A game saved under rules version "0" (another build): refused, never misread.
con.execute("INSERT INTO games (id, ruleset, seed, created, updated) "
            "VALUES ('old', 'duel', 3, 0, 0)")
con.execute("INSERT INTO log (game_id, seq, kind, payload, created) VALUES "
            "('old', 1, 'begin', ?, 0)",
            (msgpack.packb({"ruleset": "duel", "rules_version": "0"}),))
con.commit()
con.close()
check("snapshot_written", snaps >= 1, repr(snaps))
check("log_begins_with_rules", first == ("begin",), repr(first))

d.args = []  # no debug-methods now: no game master's view
d.start()
c = Client(d.sock)
err, st = c.call("game.state", {"game": "d1"})
check("restart_same_state", err is None and st["hash"] == mid["hash"] and
      st["log_seq"] == mid["log_seq"] and st["event_seq"] == mid["event_seq"] and
      st["scene"] == mid["scene"] and st["legal"] == mid["legal"] and st["order"] == mid["order"],
      repr((err, mid["hash"], st and st["hash"])))
err, _ = c.call("game.state", {"game": "d1", "viewer": "all"})
check("game_master_view_needs_debug_methods", err is not None and err[0] == UNAUTHORIZED,
      repr(err))
err, _ = c.call("game.state", {"game": "old"})
check("other_rules_version_refused", err is not None and err[0] == UNSUPPORTED and
      "'0'" in err[1] and "'1'" in err[1], repr(err))

# Play the game out.
for _ in range(80):
    err, st = c.call("game.state", {"game": "d1"})
    if err or st["status"] != "active":
        break
    if st["to_move"] == "chance":
        err, _ = c.call("game.roll", {"game": "d1", "outcome": "auto"})
    elif st["to_move"] == 1:
        err, _ = c.call("ai.orders", {"game": "d1"})
    else:
        err, _ = c.call("game.act", {"game": "d1", "action": 0})
    if err:
        break
check("game_over", err is None and st["status"] == "finished" and
      st["result"] in ("won", "lost", "ended") and len(st["returns"]) == 2 and
      st["to_move"] == "over", repr((err, st and st["status"])))
err, _ = c.call("game.act", {"game": "d1", "action": 0})
check("finished_refuses_acts", err is not None and err[0] == ILLEGAL, repr(err))
err, res = c.call("game.close", {"game": "d1"})
check("close", err is None and res["status"] == "closed" and
      res["events"][0]["kind"] == "closed", repr(err))
err, _ = c.call("game.act", {"game": "alias", "action": "nothing"})
check("other_game_unaffected", err is not None and err[0] == ILLEGAL, repr(err))
err, vg = c.call("game.new", {"seed": 5})
err, _ = c.call("game.act", {"game": vg["game"], "action": 0}) if vg else ("no game", None)
check("table_engine_game_refuses_act", err is not None and err[0] == UNSUPPORTED, repr(err))
c.close()
check("sigterm_exit_0_again", d.stop() == 0, "")
checks.finish("opford_generic: ")
