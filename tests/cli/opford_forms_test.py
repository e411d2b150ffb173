#!/usr/bin/env python3
"""tests/cli/opford_forms_test.py BIN_DIR WORKDIR -- the table session as typed forms (issue 19,
the page's Play section). A Viktoria! Patrol game's game.state carries `actions` (initiative)
and `reports` (acted, move, casualties, morale, off_table, roll, resolve) in the same shape as
every ruleset's forms, a UNIT field's `values` only the units the rules allow now, and the two
keys every game has: `ai_to_order` and `can_undo`. game.action presses for the initiative,
game.report reports through the same checks as `report`; a bad value is refused naming the
field and changes nothing (log_seq and hash); a stale `seen` is refused; undo takes a form's
report back. A game of the test-only duel ruleset has the same keys.

Run by tests/cli/opford_forms.sh; every wait is bounded, traffic only on a Unix socket in
WORKDIR; ends with the line "N passed, N failed".
"""
import functools
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
OPFORD = os.path.join(BIN, "opford")
INVALID_PARAMS, NOT_FOUND, ILLEGAL = -32602, 3, 4
checks = opford_lib.Checks(detail_max=800)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, OPFORD, WORK)
FIELD_KEYS = {"name", "label", "help", "type", "required", "optional", "list", "min", "max",
              "default", "choices", "values", "unit"}

d = Daemon("forms")
check("daemon_ready", d.ready, d.logtext()[-2000:])
c = opford_lib.Client(d.sock, 20.0)
c.call("hello", {"client": "forms-test"})
err, res = c.call("game.new", {"ruleset": "viktoria", "scenario": "patrol_default",
                               "mode": "patrol", "seed": 5, "level": "novice", "id": "pf"})
check("game_new", err is None, repr(err))


def state():
    return c.call("game.state", {"game": "pf"})[1]


def unchanged(name, before, err, code, words):
    after = state()
    check(name, err is not None and err[0] == code and all(w in err[1] for w in words) and
          after["log_seq"] == before["log_seq"] and after["hash"] == before["hash"],
          repr((err, before["log_seq"], after["log_seq"])))


st = state()
reports = {f["name"]: f for f in st.get("reports", [])}
check("reports_listed", list(reports) == ["acted", "move", "casualties", "morale", "off_table",
                                          "roll", "resolve"], repr(list(reports)))
check("actions_listed", [f["name"] for f in st.get("actions", [])] == ["initiative"],
      repr(st.get("actions")))
fields_ok = all(set(fd) == FIELD_KEYS for f in reports.values() for fd in f["fields"])
check("field_shape", fields_ok and reports["acted"]["fields"][0]["type"] == "unit" and
      reports["acted"]["fields"][0]["required"] and reports["acted"]["fields"][1]["type"] ==
      "point" and reports["acted"]["fields"][1]["optional"] and
      reports["morale"]["fields"][1]["choices"] == ["solid", "wavering", "routed", "surrendered"]
      and reports["resolve"]["fields"][0]["min"] == 1 and
      reports["resolve"]["fields"][0]["max"] == 3 and reports["roll"]["fields"][0]["default"]
      == "2D6", repr(reports.get("acted")))
alive = sorted(u["name"] for u in st["units"] if u["alive"] > 0 and u["state"] in
               ("ready", "acted"))
check("casualties_values_units_alive",
      sorted(reports["casualties"]["fields"][0]["values"]) == alive, repr(
          (reports["casualties"]["fields"][0]["values"], alive)))
check("acted_values_empty_before_press", reports["acted"]["fields"][0]["values"] == [],
      repr(reports["acted"]["fields"][0]["values"]))
check("generic_keys_start", st.get("ai_to_order") is False and st.get("can_undo") is False and
      st.get("undo_report") is None, repr((st.get("ai_to_order"), st.get("can_undo"))))

# ---------------------------------------------------------------- refusals change nothing
err, _ = c.call("game.action", {"game": "pf", "form": "wait", "fields": {}})
unchanged("unknown_action_refused", st, err, INVALID_PARAMS, ["form:", "initiative"])
err, _ = c.call("game.action", {"game": "pf", "form": "initiative", "seen": st["log_seq"] + 3})
unchanged("stale_seen_press_refused", st, err, ILLEGAL, ["seen:"])
err, _ = c.call("game.report", {"game": "pf", "form": "acted", "fields": {"unit": alive[0]}})
unchanged("acted_before_press_refused", st, err, ILLEGAL, ["fields.unit"])
err, _ = c.call("game.act", {"game": "pf", "action": 0})
check("game_act_still_unsupported", err is not None, repr(err))

# ---------------------------------------------------------------- play through the forms
saw_player = saw_enemy = False
for _ in range(60):
    st = state()
    if st["status"] != "active" or (saw_player and saw_enemy):
        break
    if st["pending"] == "none":
        err, res = c.call("game.action", {"game": "pf", "form": "initiative",
                                          "seen": st["log_seq"]})
        check("press_%d" % st["log_seq"], err is None and res["log_seq"] == st["log_seq"] + 1 and
              any(e["kind"] == "initiative" for e in res["events"]), repr((err, res))[:300])
        continue
    if st["pending"] == "enemy":
        check("ai_to_order_when_enemy", st["ai_to_order"] is True, repr(st["ai_to_order"]))
        err, o = c.call("ai.orders", {"game": "pf"})
        check("order_given", err is None and o.get("sentence"), repr(err))
        needs = o.get("needs") or []
        check("needs_have_chances", all("p" in n for n in needs) and
              all(n["p"] is None or 0 < n["p"] <= 1 for n in needs) and
              (not needs or any(n["p"] for n in needs)), repr(needs))
        st2 = state()
        check("ai_to_order_false_after_order", st2["ai_to_order"] is False and
              st2["can_undo"] is False, repr((st2["ai_to_order"], st2["can_undo"])))
        if not saw_enemy:  # resolve through the form
            err, res = c.call("game.report", {"game": "pf", "form": "resolve", "fields": {},
                                              "seen": st2["log_seq"]})
            check("resolve_form", err is None and any(e["kind"] == "report"
                                                      for e in res["events"]), repr(err))
        saw_enemy = True
        continue
    # the players hold the initiative
    check("ai_to_order_false_for_player", st["ai_to_order"] is False, repr(st["ai_to_order"]))
    acted = next(f for f in st["reports"] if f["name"] == "acted")["fields"][0]["values"]
    check("acted_values_are_ready", sorted(acted) == sorted(st["ready"]) and acted,
          repr((acted, st["ready"])))
    name = acted[0]
    enemy = next(u["name"] for u in st["units"] if not u["player"] and u["alive"] > 0)
    if not saw_player:
        err, _ = c.call("game.report", {"game": "pf", "form": "acted",
                                        "fields": {"unit": enemy}})
        unchanged("acted_enemy_refused_names_field", st, err, ILLEGAL, ["fields.unit", enemy])
        err, _ = c.call("game.report", {"game": "pf", "form": "acted",
                                        "fields": {"unit": name, "at": "nowhere"}})
        unchanged("bad_point_refused_names_field", st, err, INVALID_PARAMS, ["fields.at"])
        err, _ = c.call("game.report", {"game": "pf", "form": "acted",
                                        "fields": {"unit": name, "at": "500,3"}})
        unchanged("off_table_point_refused", st, err, INVALID_PARAMS, ["at.x"])
        err, _ = c.call("game.report", {"game": "pf", "form": "acted", "fields": {"at": "3,3"}})
        unchanged("missing_unit_refused", st, err, INVALID_PARAMS, ["fields.unit: required"])
        err, _ = c.call("game.report", {"game": "pf", "form": "acted",
                                        "fields": {"unit": name, "colour": "red"}})
        unchanged("unknown_field_refused", st, err, INVALID_PARAMS, ["colour"])
        err, _ = c.call("game.report", {"game": "pf", "form": "casualties",
                                        "fields": {"unit": name, "killed": 99}})
        unchanged("too_many_killed_refused", st, err, INVALID_PARAMS, ["killed"])
        err, _ = c.call("game.report", {"game": "pf", "form": "acted", "seen": st["log_seq"] - 1,
                                        "fields": {"unit": name}})
        unchanged("stale_seen_report_refused", st, err, ILLEGAL, ["seen:"])
        u0 = next(u for u in st["units"] if u["name"] == name)
        to = {"x": round(u0["at"]["x"] + 2.0, 2), "y": round(u0["at"]["y"], 2)}
        err, res = c.call("game.report", {"game": "pf", "form": "acted", "seen": st["log_seq"],
                                          "fields": {"unit": name, "at": [to["x"], to["y"]]}})
        after = state()
        u1 = next(u for u in after["units"] if u["name"] == name)
        check("acted_form_applied", err is None and u1["state"] == "acted" and
              abs(u1["at"]["x"] - to["x"]) < 0.02 and abs(u1["at"]["y"] - to["y"]) < 0.02,
              repr((err, u1["at"], to)))
        check("can_undo_after_report", after["can_undo"] is True and
              after["undo_report"] == after["log_seq"], repr((after["can_undo"],
                                                              after["undo_report"])))
        err, res = c.call("game.undo", {"game": "pf", "report": after["undo_report"]})
        back = state()
        u2 = next(u for u in back["units"] if u["name"] == name)
        check("undo_takes_the_form_back", err is None and u2["state"] == "ready" and
              u2["at"] == u0["at"] and back["can_undo"] is False and back["pending"] == "player",
              repr((err, u2)))
        saw_player = True
        st = back
    err, _ = c.call("game.report", {"game": "pf", "form": "acted", "seen": st["log_seq"],
                                    "fields": {"unit": name}})
    check("acted_%d" % st["log_seq"], err is None, repr(err))
check("saw_both_sides", saw_player and saw_enemy, repr((saw_player, saw_enemy)))

# ---------------------------------------------------------------- a game of another ruleset
err, hello = c.call("hello", {"client": "forms-test"})
if "duel" in hello.get("rulesets", []):
    err, _ = c.call("game.new", {"ruleset": "duel", "seed": 3, "id": "d1"})
    err, ds = c.call("game.state", {"game": "d1"})
    check("generic_game_keys", err is None and isinstance(ds.get("ai_to_order"), bool) and
          ds.get("can_undo") is False and ds["ai_to_order"] == (ds["to_move"] == ds["ai_side"]),
          repr(err))
    check("generic_forms_shape", all(set(fd) == FIELD_KEYS for f in ds["reports"] + ds["actions"]
                                     for fd in f["fields"]), repr(ds["reports"])[:300])
    if ds["reports"]:
        f = ds["reports"][0]
        err, _ = c.call("game.report", {"game": "d1", "form": f["name"], "fields": {},
                                        "seen": ds["log_seq"] + 1})
        after = c.call("game.state", {"game": "d1"})[1]
        check("generic_stale_seen_refused", err is not None and err[0] == ILLEGAL and
              "seen:" in err[1] and after["log_seq"] == ds["log_seq"], repr(err))
check("daemon_stops_cleanly", d.stop() == 0, d.logtext()[-2000:])
checks.finish("opford_forms: ")
