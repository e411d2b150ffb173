#!/usr/bin/env python3
"""tests/cli/opford_splendid_test.py BIN_DIR WORKDIR -- A Splendid Victory! played through
opford by a stock MessagePack client: hello's ruleset_info lists each ruleset's built-in
scenarios ({name, title}) and modes (Viktoria!: competitive and patrol; the others none);
game.new with "ruleset": "splendid" and "scenario" plays that built-in scenario and refuses a
name that is not one (a file path among them) and a mode; game.state's unit fields offer
the units the rules allow now; game.report's initiative, losses, move and charge reports are
refused with the rules' reason and change nothing, or change the game; a charge with the table's die stops for the AI's reactions, given as orders; the
hand-to-hand dice thrown at the table, and the AI's attack then asked; a restarted daemon
replays the reports to the same state.

Run by tests/cli/opford_splendid.sh; ends with the line "N passed, N failed".
"""
import functools
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
OPFORD = os.path.join(BIN, "opford")
INVALID_PARAMS, ILLEGAL, UNSUPPORTED = -32602, 4, 7
checks = opford_lib.Checks(detail_max=800)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, OPFORD, WORK)

d = Daemon("sv")
check("daemon_ready", d.ready, d.logtext())
c = opford_lib.EventClient(d.sock, 30.0)
err, hello = c.call("hello", {"client": "opford_splendid_test", "api_level": 5})
info = {r["name"]: r for r in hello.get("ruleset_info", [])} if hello else {}
sv = info.get("splendid", {})
check("hello_splendid_scenarios",
      sv.get("scenarios") == [{"name": "encounter", "title": "Encounter at Marston Lane"},
                              {"name": "generated", "title": "Two Armies Rolled Up"}],
      repr(sv))
check("hello_splendid_no_modes", sv.get("modes") == [], repr(sv.get("modes")))
vk = info.get("viktoria", {})
check("hello_viktoria_modes", vk.get("modes") == ["competitive", "patrol"], repr(vk.get("modes")))
check("hello_viktoria_scenarios",
      [s["name"] for s in vk.get("scenarios", [])] == ["patrol_default", "competitive_default"]
      and all(s["title"] for s in vk["scenarios"]), repr(vk.get("scenarios")))
# every listed scenario and mode starts a game of its ruleset by name
for sc in vk.get("scenarios", []):
    err, vg = c.call("game.new", {"ruleset": "viktoria", "scenario": sc["name"], "seed": 1})
    check("viktoria_scenario_" + sc["name"], err is None and vg["scenario"] == sc["name"],
          repr(err))
for m in vk.get("modes", []):
    err, vg = c.call("game.new", {"ruleset": "viktoria", "mode": m, "seed": 1})
    check("viktoria_mode_" + m, err is None and vg["mode"] == m, repr(err))
check("hello_session_part", "session" in sv.get("parts", []), repr(sv.get("parts")))

# ---------------------------------------------------------------- game.new by scenario name
for bad in ("/etc/passwd", "../encounter", "nosuch"):
    err, _ = c.call("game.new", {"ruleset": "splendid", "scenario": bad})
    check("scenario_refused_" + bad.strip("/.").replace("/", "_"),
          err is not None and err[0] == UNSUPPORTED and "encounter, generated" in err[1],
          repr(err))
err, _ = c.call("game.new", {"ruleset": "splendid", "mode": "patrol"})
check("mode_refused", err is not None and err[0] == INVALID_PARAMS and "mode" in err[1], repr(err))
err, gg = c.call("game.new", {"ruleset": "splendid", "scenario": "generated", "id": "gen",
                              "seed": 4, "level": "novice"})
check("new_generated", err is None and gg["scenario"] == "generated", repr(err))
err, g = c.call("game.new", {"ruleset": "splendid", "scenario": "encounter", "id": "sv1",
                             "seed": 7, "level": "novice"})
check("new_encounter", err is None and g["scenario"] == "encounter" and g["to_move"] == "chance"
      and {r["name"] for r in g["reports"]} == {"initiative", "move", "formation", "losses", "charge",
                                                "reaction", "fire", "melee"},
      repr((err, g and g.get("reports"))))
check("generated_differs", gg and g and gg["hash"] != g["hash"], "")
err, dflt = c.call("game.new", {"ruleset": "splendid", "id": "sv0", "seed": 7})
check("default_is_encounter", err is None and dflt["hash"] == g["hash"], repr(err))


def state(game="sv1"):
    return c.call("game.state", {"game": game})[1]


def unchanged(before, name):
    st = state()
    check(name, st["log_seq"] == before["log_seq"] and st["hash"] == before["hash"],
          repr((before["log_seq"], st["log_seq"])))


def values(st, form, field):
    f = next(f for f in st["reports"] if f["name"] == form)
    return next(x for x in f["fields"] if x["name"] == field)["values"]


def side_of(st):
    """Each unit's side, by name (the scene names a unit with its stands: "Saker (1)")."""
    return {re.sub(r" \(\d+\)$", "", u["name"]): u["side"] for u in st["scene"]["units"]}


# ---------------------------------------------------------------- reports
st0 = state()
# the unit fields offer what the rules allow now (docs/splendid.md 11): before the initiative,
# no manoeuvre, charge, fire or hand-to-hand; losses on any unit on the table; a number has none
check("values_before_initiative",
      values(st0, "move", "unit") == [] and values(st0, "charge", "target") == [] and
      values(st0, "fire", "unit") == [] and values(st0, "melee", "enemy") == [] and
      sorted(values(st0, "losses", "unit")) == sorted(side_of(st0)) and
      values(st0, "losses", "stands") is None,
      repr([(f["name"], [(x["name"], x["values"]) for x in f["fields"]]) for f in st0["reports"]]))
err, _ = c.call("game.report", {"game": "sv1", "form": "initiative",
                                "fields": {"dice": "3,4", "other_dice": "2,5"}})
check("initiative_tie_refused", err is not None and err[0] == ILLEGAL and "a tie" in err[1],
      repr(err))
unchanged(st0, "tie_changes_nothing")
err, _ = c.call("game.report", {"game": "sv1", "form": "losses",
                                "fields": {"unit": "Fairfax's Horse", "stands": 5}})
check("losses_too_many", err is not None and err[0] == ILLEGAL and
      "Fairfax's Horse has 4 stands, not 5" in err[1], repr(err))
unchanged(st0, "losses_refused_changes_nothing")
err, _ = c.call("game.report", {"game": "sv1", "form": "move",
                                "fields": {"unit": "Hammond's Foot", "to": "20,14"}})
check("move_not_now", err is not None and err[0] == ILLEGAL and
      "the game is in the initiative phase" in err[1], repr(err))
err, _ = c.call("game.report", {"game": "sv1", "form": "formation",
                                "fields": {"unit": "Hammond's Foot", "formation": "square"}})
check("formation_bad_choice", err is not None and err[0] == INVALID_PARAMS and
      "road_column" in err[1], repr(err))
err, res = c.call("game.report", {"game": "sv1", "form": "losses",
                                  "fields": {"unit": "Rupert's Horse", "stands": 2}})
check("losses_accepted", err is None and any(
    e["kind"] == "session" and "Rupert's Horse loses 2 stands: 3 left" in e["data"]["text"]
    for e in res["events"]), repr((err, res and res["events"])))
err, res = c.call("game.report", {"game": "sv1", "form": "initiative",
                                  "fields": {"dice": "1,2", "other_dice": "6,5"}})
check("initiative_accepted", err is None and any(
    e["kind"] == "session" and "Parliament has the initiative" in e["data"]["text"]
    for e in res["events"]) and res["to_move"] != "chance", repr((err, res)))

# ---------------------------------------------------------------- a charge with the table's die
# The fire phase passes (the table's units hold, the AI orders, the daemon's dice), then in
# Parliament's movement phase Fairfax's Horse charges the Lifeguard with a 2 thrown at the
# table: the test passes (3 or less) and the Lifeguard's counter-charge, then its reaction,
# are the AI's decisions, each an order with its sentence.
def charge(dice):
    return c.call("game.report", {"game": "sv1", "form": "charge",
                                  "fields": {"unit": "Fairfax's Horse", "target": "Lifeguard",
                                             "dice": dice}})


charged = None
for _ in range(30):
    st = state()
    if st["to_move"] == "chance":
        c.call("game.roll", {"game": "sv1", "outcome": "auto"})
    elif st["to_move"] == 1:
        c.call("ai.orders", {"game": "sv1"})
    else:
        err, _ = charge("2,3")
        if err is not None and "cannot charge now" in err[1]:
            c.call("game.act", {"game": "sv1", "action": st["legal"][0]})
            continue
        sides = side_of(st)
        check("values_follow_the_rules",
              "Fairfax's Horse" in values(st, "charge", "unit") and
              "Lifeguard" in values(st, "charge", "target") and
              all(sides[u] == 0 for u in values(st, "charge", "unit") +
                  values(st, "move", "unit") + values(st, "formation", "unit")) and
              all(sides[u] == 1 for u in values(st, "charge", "target")) and
              values(st, "reaction", "unit") == [],
              repr([(f["name"], [(x["name"], x["values"]) for x in f["fields"]])
                    for f in st["reports"]]))
        check("charge_two_dice_refused", err is not None and err[0] == INVALID_PARAMS and
              "the charge test is 1D6" in err[1], repr(err))
        unchanged(st, "charge_refused_changes_nothing")
        err, charged = charge("2")
        break
texts = [e["data"]["text"] for e in (charged or {}).get("events", []) if e["kind"] == "session"]
check("charge_accepted", charged is not None and
      "Fairfax's Horse throws 2 for its charge test (3 or less): it charges" in texts and
      charged["to_move"] == 1, repr(texts))
orders = []
for _ in range(4):
    if state()["to_move"] != 1:
        break
    err, o = c.call("ai.orders", {"game": "sv1"})
    if err:
        break
    orders.append(o)
check("ai_reacts_with_orders", orders and all(o["unit"] == "Lifeguard" and o["sentence"] and
                                              o["reason"] for o in orders) and
      any("Fairfax's Horse" in o["sentence"] for o in orders),
      repr([(o["action"], o["sentence"]) for o in orders]))
check("back_to_the_table", state()["to_move"] == 0, repr(state()["to_move"]))

# ---------------------------------------------------------------- hand-to-hand dice at the table
# The table ends its movement phase and holds its fire; in the next hand-to-hand phase Fairfax's
# Horse attacks with the dice thrown at the table, and the Lifeguard's attack on it (the one
# unit it touches) waits for the AI's order, as every attack does once a table reports.
melee = None
for _ in range(60):
    st = state()
    if st["status"] != "active":
        break
    if st["to_move"] == "chance":
        err, _ = c.call("game.report", {"game": "sv1", "form": "initiative",
                                        "fields": {"dice": "1,2", "other_dice": "6,5"}})
        if err:
            c.call("game.roll", {"game": "sv1", "outcome": "auto"})
    elif st["to_move"] == 1:
        c.call("ai.orders", {"game": "sv1"})
    else:
        err, melee = c.call("game.report", {"game": "sv1", "form": "melee", "fields": {
            "unit": "Fairfax's Horse", "enemy": "Lifeguard", "dice": "1,1,1,1"}})
        if err is None:
            break
        melee = None
        legal = st["legal"]
        pick = next((a for a in legal if a == "end the movement phase"), None) or \
            next((a for a in legal if a.endswith(" holds")), legal[0])
        c.call("game.act", {"game": "sv1", "action": pick})
texts = [e["data"]["text"] for e in (melee or {}).get("events", []) if e["kind"] == "session"]
check("melee_dice_accepted", "Fairfax's Horse throws 1,1,1,1 at Lifeguard: 4 hits" in texts,
      repr(texts))
err, o = c.call("ai.orders", {"game": "sv1"})
check("ai_attack_asked", err is None and o["unit"] == "Lifeguard" and
      "attacks Fairfax's Horse" in o["sentence"], repr((err, o and o["sentence"])))
before = state()
check("sigterm_exit_0", d.stop() == 0, "")
d.start()
check("restarted", d.ready, d.logtext())
c.close()
c = opford_lib.EventClient(d.sock, 30.0)
c.call("hello", {"client": "opford_splendid_test", "api_level": 5})
after = state()
check("replayed_same_state", after["hash"] == before["hash"] and
      after["log_seq"] == before["log_seq"], repr((before["hash"], after and after["hash"])))
c.close()
check("sigterm_exit_0_again", d.stop() == 0, "")
checks.finish("opford_splendid: ")
