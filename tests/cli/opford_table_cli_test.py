#!/usr/bin/env python3
"""tests/cli/opford_table_cli_test.py BIN_DIR WORKDIR -- A Splendid Victory! (and the test-only
duel, when built) played through opford with the `opfor` commands only, as a player at a table
with a terminal would: `opfor state` names who is to move (the dice, the table, the AI) and
lists the legal actions (`opfor act N`), the dice's outcomes (`opfor roll N`) and each typed
report with its fields and the units they allow now; `opfor report --form NAME FIELD=VALUE`
reports the table's dice and charges, refused with the rules' reason and changing nothing;
`opfor act`, `opfor roll`, `opfor orders` and `opfor undo` move the game on. Run by
tests/cli/opford_table_cli.sh; ends with the line "N passed, N failed".
"""
import functools
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
OPFORD = os.path.join(BIN, "opford")
OPFOR = os.path.join(BIN, "opfor")
checks = opford_lib.Checks(detail_max=1200)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, OPFORD, WORK)

d = Daemon("tc")
env = dict(os.environ, OPFOR_SOCKET=d.sock)
env.pop("OPFOR_TOKEN", None)


def opfor(*args, timeout=120):
    p = subprocess.run([OPFOR, *args], env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def state(game="sv"):
    rc, out, err = opfor("state", game, "--json")
    return json.loads(out) if rc == 0 else {}


def values(st, form, field):
    f = next(f for f in st["reports"] if f["name"] == form)
    return next(x for x in f["fields"] if x["name"] == field)["values"]


rc, out, err = opfor("new", "--ruleset", "splendid", "--scenario", "encounter", "--seed", "7",
                     "--level", "novice", "--id", "sv")
check("new_says_how_to_play", rc == 0 and "opfor roll" in out and "opfor report --form" in out,
      out + err)
rc, out, err = opfor("state", "sv")
check("state_dice_to_move", rc == 0 and "to move: the dice (`opfor roll`" in out, out + err)
check("state_lists_reports", "Reports (`opfor report --form NAME FIELD=VALUE ...`):" in out and
      "    initiative: dice (dice: 3,5) other_dice" in out and
      "    charge: unit [none now] target [none now]" in out and
      "    losses: unit [Sir William, " in out, out)

# refused with the rules' reason, said once, and nothing changes
before = state()
rc, out, err = opfor("report", "sv", "--form", "initiative", "dice=3,4", "other_dice=2,5")
check("report_tie_refused", rc == 1 and "initiative: a tie (7 and 7)" in err and
      "initiative: initiative" not in err, err)
rc, out, err = opfor("report", "sv", "--form", "losses", "unit=Fairfax's Horse", "stands=5")
check("report_losses_refused", rc == 1 and "Fairfax's Horse has 4 stands, not 5" in err, err)
rc, out, err = opfor("report", "sv", "--form", "losses", "unit=Nobody", "stands=1")
check("report_unknown_unit", rc == 1 and "Nobody" in err, err)
rc, out, err = opfor("report", "sv", "--form", "charge", "colour=red")
check("report_unknown_field", rc == 2 and "no field 'colour'" in err and "target" in err, err)
rc, out, err = opfor("report", "sv", "--form", "nosuch")
check("report_unknown_form", rc == 2 and "'nosuch' is not one of" in err and "melee" in err, err)
check("refusals_change_nothing", state()["log_seq"] == before["log_seq"] and
      state()["hash"] == before["hash"], "")
# the command line's own checks
rc, out, err = opfor("report", "sv", "--form", "losses", "unit=A", "unit=B")
check("report_field_twice", rc == 2 and "field unit given twice" in err, err)
rc, out, err = opfor("report", "sv", "--form", "losses", "--action", "x")
check("report_form_and_action", rc == 2 and "not both" in err, err)
rc, out, err = opfor("report", "--form", "x", "--help")
check("report_form_help", rc == 0 and "FIELD=VALUE" in out and "--side" in out, out + err)
rc, out, err = opfor("report", "--help")
check("report_help_points_to_form", rc == 0 and "--form NAME FIELD=VALUE" in out, out)
rc, out, err = opfor("act", "sv", "1")
check("act_at_the_dice", rc == 1 and "no legal action" in err, out + err)

# the table's initiative dice, then its holds; the AI's orders and the daemon's dice between
rc, out, err = opfor("report", "sv", "--form", "initiative", "dice=1,2", "other_dice=6,5")
check("report_initiative", rc == 0 and "Report initiative (side 0): dice=1,2, other_dice=6,5"
      in out and "Parliament has the initiative in turn 1" in out, out + err)
st = state()
rc, out, err = opfor("state", "sv")
check("state_legal_numbered", st["to_move"] == 0 and
      "Legal actions (`opfor act N`):\n   1. " + st["legal"][0] + "\n" in out, out)
rc, out, err = opfor("act", "sv", str(len(st["legal"]) + 1))
check("act_out_of_range", rc == 1 and "is not one of the %d legal actions now (1 to %d"
      % (len(st["legal"]), len(st["legal"])) in err, err)
rc, out, err = opfor("roll", "sv")
check("roll_not_now", rc == 1 and "no dice to roll" in err, err)
rc, out, err = opfor("act", "sv", "1")
check("act_first", rc == 0 and "Side 0: " + st["legal"][0] in out, out + err)
rc, out, err = opfor("undo", "sv")
check("undo_takes_it_back", rc == 0 and state()["hash"] == st["hash"], out + err)
rc, out, err = opfor("act", "sv", st["legal"][0])
check("act_by_phrase", rc == 0 and "Side 0: " + st["legal"][0] in out, out + err)

# on to Parliament's movement phase, where Fairfax's Horse may charge the Lifeguard
charged = None
for _ in range(80):
    st = state()
    if st.get("status") != "active":
        break
    if st["to_move"] == "chance":
        opfor("roll", "sv")
    elif st["to_move"] == 1:
        rc, out, err = opfor("orders", "sv")
        if rc:
            print("orders failed: " + err)
            break
    elif "Fairfax's Horse" in values(st, "charge", "unit") and \
            "Lifeguard" in values(st, "charge", "target"):
        rc, out, err = opfor("state", "sv")
        check("state_shows_charge_values", "Fairfax's Horse" in out.split("    charge: unit [")[1]
              .split("]")[0], out)
        rc, out, err = opfor("report", "sv", "--form", "charge", "unit=Fairfax's Horse",
                             "target=Lifeguard", "dice=4,5")
        check("charge_two_dice_refused", rc == 2 and "the charge test is 1D6" in err, err)
        rc, charged, err = opfor("report", "sv", "--form", "charge", "unit=Fairfax's Horse",
                                 "target=Lifeguard", "dice=2")
        check("charge_reported", rc == 0, charged + err)
        break
    else:
        legal = st["legal"]
        pick = next((i for i, a in enumerate(legal) if a == "end the movement phase"), None)
        if pick is None:
            pick = next((i for i, a in enumerate(legal) if a.endswith(" holds")), 0)
        opfor("act", "sv", str(pick + 1))
check("charge_events_printed", charged is not None and
      "Fairfax's Horse throws 2 for its charge test (3 or less): it charges" in charged and
      "(log entry " in charged, charged)

# a game whose dice list their outcomes: the table's throw by its number
rc, out, err = opfor("new", "--ruleset", "duel", "--seed", "3", "--id", "du")
if rc == 0:
    for _ in range(6):
        st = state("du")
        if st["to_move"] == "chance":
            break
        opfor("act", "du", "1") if st["to_move"] != st["ai_side"] else opfor("orders", "du")
    rc, out, err = opfor("state", "du")
    check("duel_outcomes_listed", st["to_move"] == "chance" and "Outcomes (`opfor roll N`):" in out
          and "  1. " + st["outcomes"][0]["text"] in out, out)
    rc, out, err = opfor("roll", "du", "1")
    check("duel_roll_table", rc == 0 and "Dice (the table's): " + st["outcomes"][0]["text"] in out,
          out + err)
    rc, out, err = opfor("roll", "du", "99")
    check("duel_roll_out_of_range", rc == 1, out + err)
    rc, out, err = opfor("roll", "du", "two")
    check("roll_bad_word", rc == 2 and "N (`opfor state` lists them) or auto" in err, err)
check("sigterm_exit_0", d.stop() == 0, "")
checks.finish("opford_table_cli: ")
