#!/usr/bin/env python3
"""tests/cli/opford_game_test.py BIN_DIR WORKDIR -- a whole Patrol Mode game driven through
opford by a stock MessagePack client (python3-msgpack), over a Unix socket and loopback TCP;
events to a second subscriber; validation errors; SIGKILL during a stream of reports then a
restart (every acknowledged report is there and the state hash equals a clean replay of the
same reports); SIGTERM exits 0 and removes the socket; the `opfor` game commands.

Run by tests/cli/opford_game.sh. Every wait is bounded, daemons are recorded in WORKDIR/pids,
traffic goes only to Unix sockets in WORKDIR and to 127.0.0.1, and the run ends with the line
"N passed, N failed".
"""
import functools
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import time

import msgpack

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
OPFORD = os.path.join(BIN, "opford")
OPFOR = os.path.join(BIN, "opfor")
INVALID_PARAMS, NOT_FOUND, ILLEGAL = -32602, 3, 4
UNSUPPORTED = 7
checks = opford_lib.Checks(detail_max=800)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, OPFORD, WORK)


class Client(opford_lib.EventClient):
    """An EventClient on a Unix socket path, or on the loopback TCP port tcp."""

    def __init__(self, path=None, tcp=None, timeout=20.0):
        super().__init__(("127.0.0.1", tcp) if tcp else path, timeout)


def play_turns(c, game, presses, orders_log=None, until=None):
    """Presses the button and answers each initiative like a table would: a player unit acts
    (moving a little), the AI's orders are asked for and alternately resolved by the daemon
    or reported as casualties; stops early once until(state) holds. Returns (presses made,
    orders seen, errors)."""
    errors, orders, made = [], 0, 0
    for k in range(presses):
        err, st = c.call("game.state", {"game": game})
        if err or st["status"] != "active" or (until and until(st)):
            break
        if st["pending"] == "none":
            err, res = c.call("patrol.initiative", {"game": game})
            made += 1
            if err:
                errors.append(("press", err))
                break
            continue
        if st["pending"] == "player":
            err, res = opford_lib.player_steps(c, game, st)
            if err:
                errors.append(("acted", err))
                break
        else:
            err, order = c.call("ai.orders", {"game": game})
            if err:
                errors.append(("orders", err))
                break
            orders += 1
            if orders_log is not None:
                orders_log.append(order)
            if orders % 2:
                err, res = c.call("report", {"game": game, "resolve": True})
            elif order.get("target"):
                err, res = c.call("report", {"game": game, "casualties": [
                    {"unit": order["target"], "killed": 0, "wounded": 0}]})
            else:
                err = None
            if err and err[0] != ILLEGAL:
                errors.append(("outcome", err))
                break
    return made, orders, errors


# ---------------------------------------------------------------- a whole game, two transports
d = Daemon("game", ["--listen", "tcp://127.0.0.1:0"])
check("daemon_ready", d.ready, d.logtext()[-2000:])
port = d.tcp_port()
check("daemon_tcp_port", port is not None, d.logtext()[-2000:])

c = Client(d.sock)
err, hello = c.call("hello", {"client": "game-test"})
check("hello_api_level_3", err is None and hello["api_level"] >= 3, repr((err, hello)))

err, g = c.call("game.new", {"seed": 42, "id": "py1", "difficulty": "standard"})
check("game_new_defaults_to_builtin_patrol",
      err is None and g["game"] == "py1" and g["mode"] == "patrol" and
      g["scenario"] == "patrol_default" and g["turn"] == 1 and g["pending"] == "none" and
      len(g["units"]) >= 5 and g["log_seq"] == 0 and re.match(r"^[0-9a-f]{16}$", g["hash"]),
      repr((err, g))[:600])

# A watcher subscribed over TCP sees every event, numbered without gaps.
w = Client(tcp=port)
w.call("hello", {"client": "watcher"})  # a session: the hello timeout no longer applies
err, sub = w.call("subscribe", {"game": "py1"})
check("subscribe_over_tcp", err is None and sub["subscribed"] is True and sub["seq"] == 0,
      repr((err, sub)))

orders_seen = []
made, norders, errors = play_turns(c, "py1", 120, orders_seen)
check("whole_game_no_errors", not errors, repr(errors))
check("whole_game_pressed_and_ordered", made >= 10 and norders >= 3, repr((made, norders)))
o = orders_seen[0] if orders_seen else {}
check("order_format",
      set(o) >= {"game", "order_id", "turn", "side", "unit", "action", "sentence",
                 "destination", "target", "needs", "reason", "runner_up", "level", "engine",
                 "command", "resolved"} and o["side"] == "Germans" and o["sentence"] and
      o["reason"] and o["level"] == "standard", repr(o)[:600])
# An order to fire says how many figures fire, and each score on how many dice (issue 15).
fire_orders = [x for x in orders_seen if x.get("action") in ("FIRE", "fire")]
check("order_fire_counts_figures_and_dice", fire_orders and
      all("figures" in x and "figures_at_most" in x for x in orders_seen) and
      all(isinstance(x["figures"], int) and " figure" in x["sentence"] and
          all("count" in n and "per" in n for n in x["needs"]) and
          any(n["label"] == "to hit" and n["count"] == x["figures"] for n in x["needs"])
          for x in fire_orders if x["needs"] and x["figures"]),
      repr([(x["sentence"], x.get("figures"), x["needs"]) for x in fire_orders][:3])[:600])
# One order, one end point (issue 15): a move's "stop" is the sentence's "to x, y", and every
# order whose sentence names an end point carries it (its destination is only where it heads).
moves = [x for x in orders_seen if " to x " in x["sentence"]]


def said_end(sentence):  # the "to x A y B" of a sentence, as numbers
    w = sentence.split(" to x ", 1)[1].replace(",", " ").split()
    return float(w[0]), float(w[2])


check("order_move_one_end_point", moves and all(
      isinstance(x.get("stop"), dict) and
      abs(said_end(x["sentence"])[0] - x["stop"]["x"]) <= 0.06 and
      abs(said_end(x["sentence"])[1] - x["stop"]["y"]) <= 0.06 for x in moves),
      repr([(x["sentence"], x.get("stop"), x["destination"]) for x in moves][:3])[:600])
err, st = c.call("game.state", {"game": "py1"})
w.pump(0.5)
seqs = [e["seq"] for e in w.events]
check("events_numbered_without_gaps",
      seqs == list(range(1, len(seqs) + 1)) and seqs and seqs[-1] == st["event_seq"],
      repr((seqs[-5:], st and st["event_seq"])))
kinds = {e["kind"] for e in w.events}
check("event_kinds", {"initiative", "order", "report", "score"} <= kinds, repr(kinds))
# A spotting says how the unit stands and announces the generals who come with it (issue 15).
spots = [e["data"] for e in w.events if e["kind"] == "spotted" and e["data"]["placed"]]
check("spotted_formation_facing_generals", spots and all(
      sp["formation"] in ("line", "column", "skirmish") and sp["facing"] and sp["centre"] and
      [p["name"] for p in sp["general_posts"]] == sp["generals"] and
      all(p["at"] and p["text"].startswith(p["name"] + ", a general, ") for p in sp["general_posts"])
      for sp in spots) and any(sp["generals"] for sp in spots),
      repr(spots[:2])[:800])
check("event_shape", all(set(e) == {"game", "seq", "kind", "turn", "log_seq", "data"} and
                         e["game"] == "py1" for e in w.events), repr(w.events[:2])[:400])
ev_orders = [e["data"] for e in w.events if e["kind"] == "order"]
check("order_events_match_answers",
      [x["order_id"] for x in ev_orders] == [x["order_id"] for x in orders_seen[:len(ev_orders)]]
      and len(ev_orders) == len(orders_seen), repr((len(ev_orders), len(orders_seen))))

# The same game driven over TCP by another client.
t = Client(tcp=port)
t.call("hello", {"client": "tcp-player"})
err, st2 = t.call("game.state", {"game": "py1"})
check("state_over_tcp_equals_unix", err is None and st2["hash"] == st["hash"], repr(err))
made2, _, errors2 = play_turns(t, "py1", 20)
check("play_over_tcp", not errors2 and made2 >= 1, repr(errors2))

# A reconnecting watcher catches up from the last seq it saw.
last = w.events[-1]["seq"] if w.events else 0
w.close()
err, st3 = c.call("game.state", {"game": "py1"})
w2 = Client(d.sock)
w2.call("hello", {"client": "watcher-again"})
err, sub = w2.call("subscribe", {"game": "py1", "after": last})
check("resubscribe_reports_missed",
      err is None and sub["seq"] == st3["event_seq"] and
      ([e["seq"] for e in sub["events"]] == list(range(last + 1, st3["event_seq"] + 1))
       or sub["missed"]), repr((err, sub and sub["seq"], last))[:400])
err, res = w2.call("unsubscribe", {"game": "py1"})
check("unsubscribe", err is None and res["subscribed"] is False and res["was_subscribed"],
      repr((err, res)))
w2.close()
t.close()

# ---------------------------------------------------------------- validation over the wire
err, st = c.call("game.state", {"game": "py1"})
h0 = st["hash"]
bad = [
    ({"casualties": [{"unit": "Zeppelin Crew", "killed": 1}]}, NOT_FOUND,
     "casualties[0].unit"),
    ({"casualties": [{"unit": "1st Section", "killed": -1}]}, INVALID_PARAMS,
     "casualties[0].killed"),
    ({"casualties": [{"unit": "1st Section", "killed": 500}]}, INVALID_PARAMS,
     "casualties[0].killed"),
    ({"moves": [{"unit": "1st Section", "x": 10, "y": 480}]}, INVALID_PARAMS, "moves[0].y"),
    ({"morale": [{"unit": "1st Section", "result": "jolly"}]}, INVALID_PARAMS, "morale[0].result"),
    ({"off_table": [{"unit": "1st Section", "fate": "eaten"}]}, INVALID_PARAMS,
     "off_table[0].fate"),
    ({"roll": "7 cabbages"}, INVALID_PARAMS, "roll"),
    ({"colour": "red"}, INVALID_PARAMS, "colour"),
    ({}, INVALID_PARAMS, "nothing to report"),
]
problems = []
for p, code, field in bad:
    p = dict(p, game="py1")
    err, _ = c.call("report", p)
    if not err or err[0] != code or field not in err[1]:
        problems.append((p, err))
check("report_errors_name_the_field", not problems, repr(problems))
err, st = c.call("game.state", {"game": "py1"})
check("bad_reports_change_nothing", st["hash"] == h0, repr((h0, st["hash"])))
err, _ = c.call("game.state", {"game": "nope"})
check("unknown_game_not_found", err is not None and err[0] == NOT_FOUND, repr(err))

# ---------------------------------------------------------------- hints and Viktoria!'s methods
# api_level 5: an error that tells the client what to do next carries a third element
# {"hint": code, "args": {...}} (docs/protocol.md, Errors); the message stays as it was.


def hint_of(err):
    """(hint code, args) of an error, or (None, None) when it has no third element."""
    if err is None or len(err) < 3:
        return (None, None)
    return (err[2].get("hint"), err[2].get("args"))


check("hint_no_game", hint_of(err) == ("no_game", {"game": "nope"}) and
      "(game.list lists them)" in err[1], repr(err))
err, _ = c.call("no.such.method")
check("no_hint_keeps_two_elements", err is not None and len(err) == 2, repr(err))
err, hello5 = c.call("hello", {"client": "hints", "api_level": 5})
vk_info = {r["name"]: r for r in hello5["ruleset_info"]}.get("viktoria", {}) if hello5 else {}
check("hello_api_level_5", err is None and hello5["api_level"] >= 5, repr(err))
check("hello_lists_deprecated_alias",
      err is None and hello5["deprecated"].get("patrol.initiative") ==
      {"use": ["viktoria.initiative"], "until": 6}, repr(hello5 and hello5.get("deprecated")))
check("hello_lists_ruleset_methods", vk_info.get("methods") == ["viktoria.initiative"],
      repr(vk_info))
c.call("game.new", {"seed": 5, "id": "hint1"})  # seed 5: the players take the first initiative
err, _ = c.call("report", {"game": "hint1", "resolve": True})
check("hint_resolve_needs_order",
      hint_of(err) == ("resolve_needs_order", {"side": "Germans"}) and "ai.orders" in err[1],
      repr(err))
err, _ = c.call("report", {"game": "hint1", "at": {"x": 1, "y": 1}})
check("hint_at_needs_acted", hint_of(err) == ("at_needs_acted", {}), repr(err))
err, _ = c.call("report", {"game": "hint1", "acted": "Major"})
check("hint_press_first", hint_of(err) == ("press_first", {"side": "British"}), repr(err))
err, res = c.call("viktoria.initiative", {"game": "hint1"})
check("viktoria_initiative_presses", err is None and res["pending"] == "player" and
      res["events"][0]["kind"] == "initiative", repr((err, res))[:400])
err, _ = c.call("viktoria.initiative", {"game": "hint1"})
check("hint_report_acted", err is not None and err[0] == ILLEGAL and
      hint_of(err) == ("report_acted", {"side": "British"}) and "report with `acted`" in err[1],
      repr(err))
err, _ = c.call("ai.orders", {"game": "hint1"})
check("hint_no_ai_initiative",
      hint_of(err) == ("no_ai_initiative", {"side": "Germans", "holder": "player"}), repr(err))
for name in ("initiative", "viktoria.no_such", "viktoria.", "atlantis.initiative"):
    err, _ = c.call(name, {"game": "hint1"})
    check("no_method_" + name.replace(".", "_"), err is not None and err[0] == -32601, repr(err))
# The old name and the new one press alike: the same games, the same hashes.
hashes = []
for gid, method in (("old1", "patrol.initiative"), ("new1", "viktoria.initiative")):
    c.call("game.new", {"seed": 21, "id": gid})
    for _ in range(3):
        err, res = c.call(method, {"game": gid})
        if err is not None:
            break
        if res["pending"] == "player":
            err, st = c.call("game.state", {"game": gid})
            c.call("report", {"game": gid, "acted": st["ready"][0]})
        elif res["pending"] == "enemy":
            c.call("ai.orders", {"game": gid})
    st = c.call("game.state", {"game": gid})[1]
    hashes.append((st["hash"], st["log_seq"], st["presses"]))
check("old_and_new_initiative_alike", hashes[0] == hashes[1] and hashes[0][1] >= 3 and
      hashes[0][2] >= 1, repr(hashes))
err, _ = c.call("game.new", {"scenario": "atlantis"})
check("unknown_scenario_not_found", err is not None and err[0] == NOT_FOUND and
      "patrol_default" in err[1], repr(err))
err, _ = c.call("game.new", {"difficulty": "godlike"})
check("bad_difficulty", err is not None and err[0] == INVALID_PARAMS and "difficulty" in err[1],
      repr(err))
err, _ = c.call("game.new", {"scenario_yaml": "name: [broken"})
check("bad_inline_yaml", err is not None and err[0] == INVALID_PARAMS and "scenario" in err[1],
      repr(err))
err, r = c.call("report", {"game": "py1", "roll": "2D6"})
roll = [e for e in r["events"] if e["kind"] == "report"][0]["data"]["roll"] if r else None
check("roll_for_me", err is None and roll and 2 <= roll["total"] <= 12 and roll["dice"] == "2D6",
      repr((err, roll)))
# Each die of a roll is shown, not only the sum (issue 15): "rolled 2D6: 3 + 4 = 7".
rep = [e for e in r["events"] if e["kind"] == "report"][0]["data"] if r else {}
check("roll_shows_each_die",
      roll and len(roll.get("faces", [])) == 2 and all(1 <= f <= 6 for f in roll["faces"]) and
      sum(roll["faces"]) + roll.get("bonus", -99) == roll["total"] and
      "rolled 2D6: %d + %d = %d" % (roll["faces"][0], roll["faces"][1], roll["total"])
      in rep.get("text", []), repr((roll, rep.get("text"))))
# Killing figures of an enemy unit owes its morale test (XI), announced with the roll the table
# makes (issue 15); a report that gives the result, or kills player figures, owes none.
err, _ = c.call("game.new", {"seed": 3, "id": "mor1"})
err, r = c.call("report", {"game": "mor1", "casualties": [{"unit": "Jager Picket", "killed": 1},
                                                          {"unit": "1st Section", "killed": 1}]})
rep = [e for e in r["events"] if e["kind"] == "report"][0]["data"] if r else {}
owed = rep.get("morale_owed", [])
check("morale_owed_after_kills",
      err is None and len(owed) == 1 and owed[0]["unit"] == "Jager Picket" and
      owed[0]["dice"] == "2D6" and re.match(r"^\d+\+ on 2D6$|^automatic$|^no chance$",
                                            owed[0]["need"]) and
      owed[0]["fail"] == "wavering" and isinstance(owed[0]["boxes"], list) and
      any(t.startswith("Jager Picket must test morale (XI): roll " + owed[0]["need"])
          for t in rep["text"]), repr((err, rep))[:800])
err, r = c.call("report", {"game": "mor1", "casualties": [{"unit": "Jager Picket", "killed": 1}],
                           "morale": [{"unit": "Jager Picket", "result": "solid"}]})
rep = [e for e in r["events"] if e["kind"] == "report"][0]["data"] if r else {}
check("morale_given_owes_none", err is None and rep.get("morale_owed") == [] and
      not any("must test morale" in t for t in rep["text"]), repr((err, rep))[:600])
err, r = c.call("report", {"game": "py1", "roll": "3D6+2"})
roll = [e for e in r["events"] if e["kind"] == "report"][0]["data"]["roll"] if r else {}
check("roll_shows_each_die_and_bonus",
      len(roll.get("faces", [])) == 3 and roll.get("bonus") == 2 and
      sum(roll["faces"]) + 2 == roll["total"], repr(roll))

# Inline YAML: the built-in competitive scenario as text, played competitively.
src = os.environ.get("OPFOR_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
with open(os.path.join(src, "rulesets", "viktoria", "scenarios", "competitive_default.yaml")) as f:
    yaml_text = f.read()
err, cg = c.call("game.new", {"scenario_yaml": yaml_text, "scenario": "my_battle", "seed": 9,
                              "difficulty": "novice"})
check("inline_yaml_competitive", err is None and cg["mode"] == "competitive" and
      cg["scenario"] == "my_battle" and cg["difficulty"] == "novice", repr(err))
if cg:
    made, norders, errors = play_turns(c, cg["game"], 30)
    check("competitive_plays", not errors and made >= 3, repr(errors))

# The weather at the start (XIII): the scenario's, or rolled once from the game's seed when it
# says random (a die less two, at least 1; a direction die), the same for the same seed.
def weather_of(text, seed, gid):
    err, g = c.call("game.new", {"scenario_yaml": text, "scenario": "wx", "seed": seed, "id": gid,
                                 "difficulty": "novice"})
    if err:
        return err
    err, st = c.call("game.state", {"game": gid})
    return st.get("weather") if st else err
wx_line = re.search(r"^weather:.*$", yaml_text, re.M).group(0)
wx_set = yaml_text.replace(wx_line, "weather: {level: 4, wind: SW}", 1)
w = weather_of(wx_set, 9, "wx_set")
check("weather_as_the_scenario_says", w == {"level": 4, "wind": "SW", "command_radius": 12}, repr(w))
wx_rand = yaml_text.replace(wx_line, "weather: {level: random, wind: random}", 1)
rolled = [weather_of(wx_rand, s, "wx_r%d" % s) for s in range(1, 13)]
again = weather_of(wx_rand, 5, "wx_again")
check("weather_rolled_from_the_seed",
      all(isinstance(x, dict) and 1 <= x["level"] <= 4 for x in rolled) and
      len({x["level"] for x in rolled}) >= 2 and again == rolled[4], repr((rolled, again)))

# A weather event at the table (XIII, rules weather_events): the table reports the weather it
# gave; the state, the command radius the AI's orders use and the game's forms follow, an undo
# takes it back, and a game without weather events refuses it, saying why.
wx_ev = wx_set + "\nrules: {weather_events: yes}\n"
err, _ = c.call("game.new", {"scenario_yaml": wx_ev, "scenario": "wx", "seed": 9, "id": "wx_ev",
                             "difficulty": "novice"})
err, st = c.call("game.state", {"game": "wx_ev"})
check("weather_form_listed", st and "weather" in [f["name"] for f in st["reports"]] and
      "weather" not in [f["name"] for f in c.call("game.state", {"game": "wx_set"})[1]["reports"]],
      repr(st and [f["name"] for f in st["reports"]]))
err, r = c.call("report", {"game": "wx_ev", "weather": {"level": 5, "wind": "ne"}})
evs = {e["kind"]: e["data"] for e in (r or {}).get("events", [])}
check("weather_event_reported", err is None and
      evs.get("weather") == {"level": 5, "wind": "NE", "command_radius": 6} and
      "weather event: level 5, wind NE (command radius 6 in)" in evs.get("report", {}).get("text", []),
      repr((err, evs)))
err, st = c.call("game.state", {"game": "wx_ev"})
check("weather_now_in_state", st and st["weather"] == {"level": 5, "wind": "NE",
                                                      "command_radius": 6}, repr(st and st["weather"]))


def zone_radii(st):
    """The radii of the map's command zones (circles around the generals), to 0.1 in."""
    out = set()
    for sh in (st.get("scene") or {}).get("shapes", []):
        if sh["style"] == "zone" and sh["closed"] and len(sh["points"]) >= 8:
            xs = [p[0] for p in sh["points"]]
            out.add(round((max(xs) - min(xs)) / 2, 1))
    return out


err, before = c.call("game.state", {"game": "wx_set"})
check("weather_zones_follow", zone_radii(st) == {6.0} and zone_radii(before) == {12.0},
      repr((zone_radii(st), zone_radii(before))))
err, _ = c.call("game.undo", {"game": "wx_ev"})
err2, st = c.call("game.state", {"game": "wx_ev"})
check("weather_undone", err is None and st["weather"] == {"level": 4, "wind": "SW",
                                                         "command_radius": 12},
      repr((err, st and st["weather"])))
err, r = c.call("game.report", {"game": "wx_ev", "form": "weather", "fields": {"level": 1}})
err2, st = c.call("game.state", {"game": "wx_ev"})
check("weather_form_keeps_the_wind", err is None and st["weather"] == {
    "level": 1, "wind": "SW", "command_radius": 18}, repr((err, st and st["weather"])))
for bad, want in (({"level": 6}, "weather.level: must be a whole number from 1 to 5"),
                  ({"wind": "up"}, "weather.wind: must be a compass point"),
                  ({}, "weather: must be a map"), ({"rain": 1}, "rain")):
    err, _ = c.call("report", {"game": "wx_ev", "weather": bad})
    check("weather_refused_" + (list(bad) or ["empty"])[0],
          err is not None and err[0] == -32602 and want in err[1], repr(err))
err, _ = c.call("report", {"game": "wx_set", "weather": {"level": 5}})
check("weather_needs_weather_events", err is not None and err[0] == 4 and
      "rolls no weather events" in err[1] and "level 4, wind SW" in err[1], repr(err))

# Level challenge: the director picks spottings on a worker thread; the presses still answer,
# the spotted units appear, and the restarted daemon rebuilds the same game from its log.
# The search at this level takes seconds a decision in a sanitizer build: a patient client,
# and play only until the first spotting has placed its unit.
slow = Client(d.sock, timeout=300.0)
slow.call("hello", {"client": "patient"})  # the hello timeout (10 s) would close it mid-game
err, cg = slow.call("game.new", {"seed": 4, "id": "chal", "difficulty": "challenge"})
n0 = len(cg["units"]) if cg else 0
t0 = time.time()
made, orders, errors = play_turns(slow, "chal", 160, until=lambda st: len(st["units"]) > n0)
print("# challenge section: %d presses, %d orders, %.1f s" % (made, orders, time.time() - t0))
err, st = slow.call("game.state", {"game": "chal"})
slow.close()
check("challenge_plays", not errors and made >= 2 and err is None,
      repr((errors, err))[:400])
check("challenge_spots_units", st is not None and len(st["units"]) > n0,
      repr((n0, st and len(st["units"]))))
# The spotting's outcome (the director's choice, or the draw it kept) is in its press entry.
con = sqlite3.connect(os.path.join(d.state, "opfor.db"))
spots = [msgpack.unpackb(p, raw=False) for (p,) in con.execute(
    "SELECT payload FROM log WHERE game_id = 'chal' AND kind = 'press' AND payload IS NOT NULL "
    "AND length(payload) > 0")]
con.close()
check("challenge_press_logs_the_spotting", len(spots) >= 1 and all(
    set(x["spot"]) == {"type", "quality", "dist_opt", "rolled", "direction"} for x in spots),
    repr(spots)[:300])
chal_hash = st and st["hash"]
chal_seq = st and st["log_seq"]

# Game over: every British unit leaves the table; the score goes to the high-score table.
err, st = c.call("game.new", {"seed": 5, "id": "doomed"})
brit = [u["name"] for u in st["units"] if u["player"]]
err, res = c.call("report", {"game": "doomed",
                             "off_table": [{"unit": n} for n in brit]})
over = [e for e in (res or {}).get("events", []) if e["kind"] == "game_over"]
check("game_over_event", err is None and res["status"] == "finished" and over and
      over[0]["data"]["result"] == "lost", repr((err, res and res["status"])))
# issue 15: a verdict (won, lost, drawn) with the score broken down, beside the old result
check("game_over_verdict", over and over[0]["data"].get("verdict") == "lost" and
      over[0]["data"].get("why") == "every player unit is lost" and
      over[0]["data"].get("breakdown", {}).get("survived") == 0 and res.get("verdict") == "lost",
      repr(over and over[0]["data"]))
err, st = c.call("game.state", {"game": "doomed"})
check("state_verdict", err is None and st.get("verdict") == "lost" and st["result"] == "lost",
      repr(err or st.get("verdict")))
err, st = c.call("game.state", {"game": "py1"})
check("state_verdict_active_empty", err is None and st.get("verdict") == "", repr(err or st.get("verdict")))
# the turn limit of a one-turn patrol: drawn while neither side is beaten ("ended" stays)
with open(os.path.join(src, "rulesets/viktoria/scenarios/patrol_default.yaml")) as f:
    one_turn = f.read().replace("turn_limit: 15", "turn_limit: 1")
err, st = c.call("game.new", {"seed": 5, "id": "short", "scenario": "one_turn",
                              "scenario_yaml": one_turn})
check("one_turn_game", err is None, repr(err))
over = None
for _ in range(40):
    err, st = c.call("game.state", {"game": "short"})
    if err or st["status"] != "active":
        break
    if st["pending"] == "player":
        err, res = c.call("report", {"game": "short", "acted": st["ready"][0]})
    elif st["pending"] == "enemy":
        err, res = c.call("ai.orders", {"game": "short"})
        err, res = c.call("report", {"game": "short", "casualties": []})
    else:
        err, res = c.call("patrol.initiative", {"game": "short"})
    over = [e for e in (res or {}).get("events", []) if e["kind"] == "game_over"] or over
check("turn_limit_verdict_drawn", over and over[0]["data"]["result"] == "ended" and
      over[0]["data"].get("verdict") == "drawn" and
      over[0]["data"].get("why") == "neither side was beaten", repr((err, over)))
# no unit of either side can act (the reserve is off the table): a press ends one turn at
# once and says so, instead of running through four turns of nothing
with open(os.path.join(src, "rulesets/viktoria/scenarios/patrol_default.yaml")) as f:
    idle_yaml = f.read().replace("\nunits:\n", "\nunits:\n  - {name: Reserve, side: British, "
                                 "type: infantry, off_table: true, position: [30, 1], "
                                 "figures: [{count: 2}]}\n", 1)
err, st = c.call("game.new", {"seed": 3, "id": "idle", "scenario": "idle",
                              "scenario_yaml": idle_yaml})
dead = [{"unit": u["name"], "killed": u["alive"]} for u in (st or {}).get("units", [])
        if u["alive"] and u["name"] != "Reserve"]
err, res = c.call("report", {"game": "idle", "casualties": dead})
check("idle_setup", err is None and res["status"] == "active", repr(err or res["status"]))
err, res = c.call("patrol.initiative", {"game": "idle"})
turns = [e["data"] for e in (res or {}).get("events", []) if e["kind"] == "turn"]
check("idle_press_ends_one_turn", err is None and res["turn"] == 2 and len(turns) == 1 and
      turns[0].get("idle") == 1 and turns[0].get("spottings_left") == 12,
      repr((err, res and res["turn"], turns)))
err, _ = c.call("patrol.initiative", {"game": "doomed"})
check("finished_game_refuses_presses", err is not None and err[0] == ILLEGAL, repr(err))
con = sqlite3.connect(os.path.join(d.state, "opfor.db"))
rows = con.execute("SELECT scenario, player, result FROM scores").fetchall()
con.close()
check("high_score_in_same_db", ("patrol_default", "doomed", "lost") in rows, repr(rows))
err, res = c.call("game.close", {"game": "py1"})
check("game_close", err is None and res["status"] == "closed", repr(err))
# A game closed before its end is recorded as abandoned, never ranked as a high score.
con = sqlite3.connect(os.path.join(d.state, "opfor.db"))
rows = con.execute("SELECT player, result FROM scores").fetchall()
con.close()
check("closed_game_recorded_abandoned", ("py1", "abandoned") in rows and
      not [r for r in rows if r[0] == "py1" and r[1] != "abandoned"], repr(rows))
err, _ = c.call("game.close", {"game": "py1"})
con = sqlite3.connect(os.path.join(d.state, "opfor.db"))
n_py1 = con.execute("SELECT count(*) FROM scores WHERE player = 'py1'").fetchone()[0]
con.close()
check("closed_twice_recorded_once", err is None and n_py1 == 1, repr((err, n_py1)))
sc = subprocess.run([os.path.join(BIN, "opfor"), "scores", "--db", os.path.join(d.state, "opfor.db"),
                     "--json"], capture_output=True, text=True, timeout=30)
doc = json.loads(sc.stdout) if sc.returncode == 0 else {}
check("scores_rank_only_finished",
      [x["player"] for x in doc.get("scores", [])] == ["short", "doomed"] and
      [x["player"] for x in doc.get("abandoned", [])] == ["py1"] and
      "rank" not in doc["abandoned"][0], repr((sc.returncode, sc.stdout[:300], sc.stderr[:200])))
err, _ = c.call("report", {"game": "py1", "roll": "D6"})
check("closed_game_refuses_reports", err is not None and err[0] == ILLEGAL, repr(err))
err, lst = c.call("game.list")
ids = {x["game"]: x["status"] for x in lst["games"]} if lst else {}
check("game_list", ids.get("py1") == "closed" and ids.get("doomed") == "finished", repr(ids))
err, py1 = c.call("game.state", {"game": "py1"})
seqs = {x["game"]: x["log_seq"] for x in lst["games"]} if lst else {}
check("game_list_log_seq_as_state", err is None and seqs.get("py1") == py1["log_seq"],
      repr((err, seqs.get("py1"), py1 and py1["log_seq"])))
c.close()

# ---------------------------------------------------------------- SIGTERM
rc = d.stop()
check("sigterm_exit_0", rc == 0, repr(rc))
check("sigterm_removes_socket", not os.path.exists(d.sock), d.sock)

# The log names the rules it was written under; a log from before it did (no begin entry)
# replays as rules version "1", and one naming other rules is refused.
con = sqlite3.connect(os.path.join(d.state, "opfor.db"))
first = con.execute("SELECT kind, payload FROM log WHERE game_id = 'py1' AND seq = 1").fetchone()
check("log_begins_with_rules", first is not None and first[0] == "begin" and
      msgpack.unpackb(first[1]) == {"ruleset": "viktoria", "rules_version": "2"}, repr(first))
cols = "ruleset, scenario_name, scenario_yaml, mode, seed, difficulty, created, updated, status"
for gid, begin in (("legacy", None), ("vk0", {"ruleset": "viktoria", "rules_version": "0"}),
                   ("py1v1", {"ruleset": "viktoria", "rules_version": "1"})):
    con.execute(f"INSERT INTO games (id, {cols}) SELECT ?, {cols} FROM games WHERE id = 'py1'",
                (gid,))
    if begin is not None:
        con.execute("INSERT INTO log (game_id, seq, kind, payload, created) "
                    "VALUES (?, 1, 'begin', ?, 0)", (gid, msgpack.packb(begin)))
    con.execute("INSERT INTO log (game_id, seq, kind, payload, created) SELECT ?, seq - 1 + ?, "
                "kind, payload, created FROM log WHERE game_id = 'py1' AND seq > 1",
                (gid, 1 if begin is not None else 0))
# The idle game's log as rules version 1 wrote it: its press replays as those rules pressed
# (on through the idle turns, to the press guard), not as version 2 stops.
con.execute(f"INSERT INTO games (id, {cols}) SELECT 'idle1', {cols} FROM games WHERE id = 'idle'")
con.execute("INSERT INTO log (game_id, seq, kind, payload, created) SELECT 'idle1', seq, kind, "
            "CASE WHEN kind = 'begin' THEN ? ELSE payload END, created FROM log "
            "WHERE game_id = 'idle'", (msgpack.packb({"ruleset": "viktoria", "rules_version": "1"}),))
con.commit()
con.close()

# Restarted: the saved games are listed and rebuilt where they were.
d.args = []
d.start()
c = Client(d.sock)
err, st = c.call("game.state", {"game": "legacy"})
# A log without a begin entry replays exactly as the same log under rules version 1 (every
# entry, event and figure: the same hash and events). Under version 2 it may differ, where
# version 2 moved a spotted unit or general off ground it may not stand on (issue 15): py1,
# played under version 2, has met such a difference since the AI stopped ordering moves that
# go nowhere (its events part from the version 1 replay's), so only the replays are compared.
err1, st1 = c.call("game.state", {"game": "py1v1"})
check("log_without_begin_replays", err is None and err1 is None and
      st["hash"] == st1["hash"] and st["log_seq"] == py1["log_seq"] == st1["log_seq"] and
      st["event_seq"] == st1["event_seq"],
      repr((err, err1, st1 and st1["hash"], st and st["hash"])))
err, _ = c.call("game.state", {"game": "vk0"})
check("other_rules_version_refused", err is not None and err[0] == UNSUPPORTED and
      "'0'" in err[1] and "'1'" in err[1] and "'2'" in err[1], repr(err))
err, st1 = c.call("game.state", {"game": "idle1"})
err2, st2 = c.call("game.state", {"game": "idle"})
check("rules_version_1_replays_its_press", err is None and err2 is None and
      st2["turn"] == 2 and st1["turn"] > 2 and st1["log_seq"] == st2["log_seq"],
      repr((err, err2, st1 and st1["turn"], st2 and st2["turn"])))
err, lst = c.call("game.list")
check("restart_lists_games", err is None and {"py1", "doomed"} <= {x["game"] for x in lst["games"]},
      repr(err))
err, st = c.call("game.state", {"game": "py1"})
check("restart_keeps_state", err is None and st["status"] == "closed" and st["log_seq"] > 16,
      repr(err))
err, st = c.call("game.state", {"game": "chal"})
check("restart_replays_director_presses", err is None and st["hash"] == chal_hash and
      st["log_seq"] == chal_seq, repr((err, chal_hash, st and st["hash"])))
c.close()
check("quick_check_at_start", re.search(r"integrity ok", d.logtext()) is not None, "")
d.stop()

# ---------------------------------------------------------------- SIGKILL during reports
REPORTS = 400
rng = random.Random(1234)


def report_stream(n):
    """The same stream of reports every time: rolls and moves of the British units."""
    r = random.Random(99)
    out = []
    units = ["1st Section", "Hussar Troop", "Sharpshooter", "9-pounder"]
    for i in range(n):
        if i % 3 == 0:
            out.append({"roll": r.choice(["D6", "2D6", "3D6"])})
        else:
            out.append({"moves": [{"unit": r.choice(units), "x": round(r.uniform(2, 70), 2),
                                   "y": round(r.uniform(1, 20), 2)}]})
    return out


stream = report_stream(REPORTS)
k = Daemon("kill")
c = Client(k.sock)
err, _ = c.call("game.new", {"seed": 77, "id": "k1"})
check("kill_game_created", err is None, repr(err))
acked = 0
kill_at = rng.randint(40, 300)  # acknowledged reports before the kill: past a few snapshots
killed = False
try:
    for i, p in enumerate(stream):
        err, res = c.call("report", dict(p, game="k1"))
        if err is not None:
            break
        if res["log_seq"] != i + 1:
            check("ack_seq_in_order", False, repr((i, res["log_seq"])))
            break
        acked = i + 1
        if not killed and acked >= kill_at:
            # kill while the next report is in flight
            c.send("report", dict(stream[i + 1], game="k1"))
            k.kill9()
            killed = True
            break
except OSError:
    pass
c.close()
if not killed:
    k.kill9()
check("kill_happened_mid_stream", 0 < acked < REPORTS, repr(acked))
k.start()
c = Client(k.sock)
err, st = c.call("game.state", {"game": "k1"})
check("kill_restart_ready", k.ready and err is None, repr(err))
after = st["log_seq"] if st else -1
check("every_acked_report_kept", after in (acked, acked + 1), repr((acked, after)))
con = sqlite3.connect(os.path.join(k.state, "opfor.db"))
snaps = con.execute("SELECT max(seq) FROM snapshots WHERE game_id = 'k1'").fetchone()[0]
con.close()
check("snapshots_were_taken", snaps is not None and snaps % 16 == 0 and after - 16 < snaps <= after,
      repr((snaps, after)))
# A clean replay of the same reports in another daemon reaches the same hash.
c.close()
k.stop()
r = Daemon("replay")
c = Client(r.sock)
c.call("game.new", {"seed": 77, "id": "k1"})
for p in stream[:after]:
    c.call("report", dict(p, game="k1"))
err, st2 = c.call("game.state", {"game": "k1"})
check("kill_state_hash_matches_clean_replay", st and st2 and st["hash"] == st2["hash"] and
      st["event_seq"] == st2["event_seq"], repr((st and st["hash"], st2 and st2["hash"])))
# and one more report goes on from there in both
c.close()
r.stop()

# ---------------------------------------------------------------- the opfor commands
cl = Daemon("cli")
env = dict(os.environ, OPFOR_SOCKET=cl.sock)


def opfor(*args, ok=True):
    p = subprocess.run([OPFOR, *args], env=env, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


rc, out, errt = opfor("new", "--seed", "3", "--id", "cli1", "--json")
doc = json.loads(out) if rc == 0 else {}
check("opfor_new_json", rc == 0 and doc.get("game") == "cli1" and doc.get("mode") == "patrol",
      errt)
watcher = subprocess.Popen([OPFOR, "watch", "cli1", "--json", "--timeout", "20", "--count", "3"],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
time.sleep(0.5)
rc, out, errt = opfor("initiative")  # the most recent active game
check("opfor_initiative_default_game", rc == 0 and ("Initiative" in out or "Spotted" in out),
      out + errt)
rc, out, errt = opfor("state", "cli1")
check("opfor_state_text", rc == 0 and "Game cli1" in out and "1st Section" in out, errt)
pending = json.loads(opfor("state", "cli1", "--json")[1])["pending"]
if pending == "player":
    rc, out, errt = opfor("report", "cli1", "--acted", "1st Section", "--at", "25,12")
    check("opfor_report_acted", rc == 0 and "1st Section acted" in out, out + errt)
else:
    rc, out, errt = opfor("report", "cli1", "--roll", "2D6")
    check("opfor_report_roll", rc == 0 and "rolled 2D6" in out, out + errt)
rc, out, errt = opfor("report", "cli1", "--killed", "Zeppelin=1")
check("opfor_report_error_names_field", rc == 1 and "casualties[0].unit" in errt, errt)
rc, out, errt = opfor("report", "cli1", "--bogus")
check("opfor_report_usage_error", rc == 2 and "--bogus" in errt, errt)
hinted = False
for _ in range(8):
    st = json.loads(opfor("state", "cli1", "--json")[1])
    if st["pending"] == "enemy":
        break
    if st["pending"] == "player":
        if not hinted:  # asking for orders now says what to do instead
            rc, out, errt = opfor("orders", "cli1")
            check("opfor_orders_players_hold", rc == 1 and
                  "the players hold it: report which of their units acted first" in errt, errt)
            hinted = True
        opfor("report", "cli1", "--acted", st["ready"][0])
    else:
        opfor("initiative", "cli1")
if st["pending"] == "enemy":
    rc, out, errt = opfor("orders", "cli1")
    check("opfor_orders_text", rc == 0 and "Orders for" in out and "why:" in out, out + errt)
    head = out.splitlines()[0] if out else ""  # "  Orders for UNIT: what it does", once
    unit = head.split("Orders for ", 1)[-1].split(":", 1)[0]
    check("opfor_orders_names_unit_once", unit and head.count(unit) == 1, head)
    # one end point: a move's goal beyond it is worded as where it heads, never a second "to"
    check("opfor_orders_one_end_point", " to x " not in head or "\n    to x" not in out, out)
try:
    wout, werr = watcher.communicate(timeout=30)
except subprocess.TimeoutExpired:
    watcher.kill()
    wout, werr = watcher.communicate()
lines = [json.loads(x) for x in wout.splitlines() if x.strip()]
check("opfor_watch_streams_events", watcher.returncode == 0 and len(lines) == 3 and
      [x["seq"] for x in lines] == [1, 2, 3], repr((watcher.returncode, wout[-400:], werr)))
rc, out, errt = opfor("games")
check("opfor_games", rc == 0 and "cli1" in out, errt)

# A spotting printed by the command-line client (the same printer as `opfor watch` and the
# terminal game, issue 15): where it stands, in what formation, which way it faces, and the
# general who comes with the first unit spotted.
rc, out, errt = opfor("new", "--seed", "5", "--id", "spot1")
spotted_out = ""
for _ in range(80):
    st = json.loads(opfor("state", "spot1", "--json")[1])
    if st["status"] != "active":
        break
    if st["pending"] == "player":
        opfor("report", "spot1", "--acted", st["ready"][0])
    elif st["pending"] == "enemy":
        opfor("orders", "spot1")
        opfor("report", "spot1", "--resolve")
    else:
        rc, out, errt = opfor("initiative", "spot1")
        if "Spotted:" in out and "On the table:" in out:
            spotted_out = out
            break
check("opfor_spotting_formation_facing_general",
      re.search(r"\n    \d+ figures? in (line|column|skirmish order), facing [NSEW]{1,2}, "
                r"centre x [\d.]+, y [\d.]+\n", spotted_out) is not None and
      re.search(r"\n    \S.*, a general, (rides in with it|comes on with it and takes post "
                r"beside .*), at x [\d.]+, y [\d.]+\n", spotted_out) is not None,
      spotted_out + errt)
rc, out, errt = opfor("calc", "viktoria", "fire_rifle", "--actor", "veteran", "--range", "20",
                      "--json", "--connect", cl.sock)
doc = json.loads(out) if rc == 0 else {}
check("opfor_calc_connect", rc == 0 and doc.get("action") == "fire_rifle" and
      any(r["name"] == "hit" for r in doc.get("rolls", [])), errt)
rc, out, errt = opfor("calc", "viktoria", "fire_rifle", "--actor", "sergeant", "--connect",
                      cl.sock)
check("opfor_calc_connect_error", rc == 2 and "actor" in errt, errt)
rc, out, errt = opfor("close", "cli1")
check("opfor_close", rc == 0, errt)
cl.stop()
env["OPFOR_SOCKET"] = os.path.join(WORK, "nobody.sock")
rc, out, errt = opfor("state", "cli1")
check("opfor_without_daemon", rc == 1 and "no daemon at" in errt and "opfor play" in errt, errt)

# ---------------------------------------------------------------- reports that count once
# Issue 15: a player and a game master report the same order at once; one wins and the other
# is told which report answered it. The last report can be undone until the next press, every
# subscriber sees the undo, and a restarted daemon replays the game to the same hash.
on = Daemon("once")
env_once = dict(os.environ, OPFOR_SOCKET=on.sock)
pa, gm, sb = Client(on.sock), Client(on.sock), Client(on.sock)
for x, n in ((pa, "player"), (gm, "game-master"), (sb, "subscriber")):
    x.call("hello", {"client": n})
pa.call("game.new", {"seed": 3, "id": "once"})
sb.call("subscribe", {"game": "once"})
to_order, victim = opford_lib.to_order, opford_lib.victim
order = to_order(pa, "once")
err, st = pa.call("game.state", {"game": "once"})
v = victim(st, order)
check("once_order_given", order is not None and order.get("current") == 1 and
      order.get("answered_by") == 0 and v is not None, repr(order)[:300])
seen, alive = st["log_seq"], v and v["alive"]
# Both saw the same state; both send at once.
i1 = pa.send("report", {"game": "once", "seen": seen,
                        "casualties": [{"unit": v and v["name"], "killed": 2}]})
i2 = gm.send("report", {"game": "once", "seen": seen, "resolve": True})
r1, r2 = pa.wait(i1), gm.wait(i2)
won = [r for r in (r1, r2) if r[0] is None]
lost = [r for r in (r1, r2) if r[0] is not None]
check("once_one_report_wins", len(won) == 1 and len(lost) == 1, repr((r1, r2))[:600])
why = lost[0][0] if lost else None
check("once_loser_told_why", why is not None and why[0] == ILLEGAL and
      hint_of(why)[0] == "stale_state" and ("entry %d report" % (seen + 1)) in why[1],
      repr(why))
err, st = pa.call("game.state", {"game": "once"})
vu = next((u for u in st["units"] if v and u["name"] == v["name"]), None)
check("once_counted_once", st["log_seq"] == seen + 1 and st["order"]["answered_by"] == seen + 1 and
      (r1[0] is not None or vu["alive"] == alive - 2), repr((st["log_seq"], vu, alive)))
# A client that sends no number is refused too, naming the report that answered the order.
err, _ = gm.call("report", {"game": "once", "casualties": [{"unit": v and v["name"],
                                                            "killed": 1}]})
check("once_numberless_second_answer_refused",
      err is not None and hint_of(err)[0] == "already_answered" and
      ("report of entry %d" % (seen + 1)) in err[1], repr(err))
# Undo, by the other client: the table as before, an event for the subscriber.
before = pa.call("game.state", {"game": "once"})[1]
err, res = gm.call("game.undo", {"game": "once", "report": seen + 1})
undo_ev = [e for e in (res or {}).get("events", []) if e["kind"] == "undo"]
check("once_undo", err is None and undo_ev and undo_ev[0]["data"]["report"] == seen + 1,
      repr((err, res))[:400])
err, st = pa.call("game.state", {"game": "once"})
vu = next((u for u in st["units"] if v and u["name"] == v["name"]), None)
check("once_undo_restores", st["log_seq"] == seen + 2 and vu["alive"] == alive and
      st["order"]["answered_by"] == 0, repr((st["log_seq"], vu, alive)))
sb.pump(0.5)
check("once_subscriber_sees_undo",
      any(e["kind"] == "undo" and e["data"]["report"] == seen + 1 for e in sb.events),
      repr([e["kind"] for e in sb.events][-6:]))
err, _ = gm.call("game.undo", {"game": "once"})
check("once_undo_twice_refused", err is not None and err[0] == ILLEGAL and
      hint_of(err) == ("nothing_to_undo", {"why": "undone"}), repr(err))
# Answered again through the CLI, which names the order by itself; the CLI's undo works too.
rc, out, errt = (lambda p: (p.returncode, p.stdout, p.stderr))(subprocess.run(
    [OPFOR, "report", "once", "--killed", "%s=1" % (v and v["name"])], env=env_once,
    capture_output=True, text=True, timeout=60))
check("once_cli_report", rc == 0 and "--seen" in out, out + errt)
rc2, out2, errt2 = (lambda p: (p.returncode, p.stdout, p.stderr))(subprocess.run(
    [OPFOR, "report", "once", "--resolve"], env=env_once, capture_output=True, text=True,
    timeout=60))
check("once_cli_second_answer_refused", rc2 == 1 and "already answered" in errt2 and
      "--seen" in errt2, out2 + errt2)


def opfor_once(*args):
    p = subprocess.run([OPFOR, *args], env=env_once, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


rc3, out3, errt3 = opfor_once("undo", "once")
check("once_cli_undo", rc3 == 0 and "Undone: the report of entry" in out3, out3 + errt3)
rc4, out4, errt4 = opfor_once("report", "once", "--undo", "--resolve")
check("once_cli_undo_alone", rc4 == 2 and "--undo" in errt4, errt4)
opfor_once("report", "once", "--killed", "%s=1" % (v and v["name"]))
rc4, out4, errt4 = opfor_once("report", "once", "--undo")
check("once_cli_report_undo", rc4 == 0 and "Undone: the report of entry" in out4, out4 + errt4)
# Pressing with the order unreported warns, naming it; then undo is too late (a roll, which
# answers no order, is the last report).
err, st = pa.call("game.state", {"game": "once"})
err, _ = pa.call("report", {"game": "once", "roll": "D6", "seen": st["log_seq"]})
check("once_roll_with_seen", err is None, repr(err))
sb.events = []
rc5, out5, errt5 = opfor_once("initiative", "once")
check("once_cli_press_warns", rc5 == 0 and
      ("Warning: the order of entry %d" % order["order_id"]) in out5 and "never reported" in out5,
      out5 + errt5)
sb.pump(0.5)
warn = [e for e in sb.events if e["kind"] == "unreported"]
check("once_press_warns_unreported", warn and warn[0]["data"]["order"] == order["order_id"] and
      "outcome" in warn[0]["data"]["missing"] and warn[0]["data"]["sentence"] == order["sentence"],
      repr(sb.events)[:500])
err, _ = gm.call("game.undo", {"game": "once"})
check("once_undo_after_press_refused", err is not None and
      hint_of(err) == ("nothing_to_undo", {"why": "press"}), repr(err))
# The terminal game against the daemon names the state it saw in every report: a report made
# by another client meanwhile makes ours refused, saying what changed; typed again, it counts;
# `undo` takes it back.
pa.call("game.new", {"seed": 3, "id": "term"})
torder = to_order(pa, "term")
err, st = pa.call("game.state", {"game": "term"})
tv = victim(st, torder)
term = subprocess.Popen([OPFOR, "patrol", "--connect", on.sock, "--game", "term"], env=env_once,
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True)
term.stdin.write("u\n")
term.stdin.flush()
time.sleep(2.0)  # the terminal has read the game (bounded: the answer takes milliseconds)
err, st = pa.call("game.state", {"game": "term"})
err, _ = pa.call("report", {"game": "term", "roll": "D6", "seen": st["log_seq"]})
name = tv["name"] if tv else "?"
try:
    tout, terr = term.communicate("r %s killed 1\nr %s killed 1\nundo\nq\n" % (name, name),
                                  timeout=60)
except subprocess.TimeoutExpired:
    term.kill()
    tout, terr = term.communicate()
check("terminal_stale_report_refused", "has changed since" in terr and "rolled D6" in terr and
      "Nothing was applied" in tout, (tout + terr)[-1500:])
check("terminal_report_then_undo", term.returncode == 0 and
      ("%s: 1 killed" % name) in tout and "Undone: the report of entry" in tout,
      (tout + terr)[-1500:])
err, st = pa.call("game.state", {"game": "term"})
tu = next((u for u in st["units"] if u["name"] == name), None)
check("terminal_undo_restored", tv is not None and tu["alive"] == tv["alive"] and
      st["order"]["answered_by"] == 0, repr((tv, tu)))

err, st_before = pa.call("game.state", {"game": "once"})
for x in (pa, gm, sb):
    x.close()
on.stop()
on.start()
c = Client(on.sock)
err, st_after = c.call("game.state", {"game": "once"})
check("once_restart_replays_equal", err is None and st_after["hash"] == st_before["hash"] and
      st_after["log_seq"] == st_before["log_seq"] and
      st_after["event_seq"] == st_before["event_seq"],
      repr((err, st_before["hash"], st_after and st_after["hash"])))
c.close()
on.stop()

checks.finish()
