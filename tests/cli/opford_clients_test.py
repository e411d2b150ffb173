#!/usr/bin/env python3
"""tests/cli/opford_clients_test.py BIN_DIR WORKDIR -- real clients together on one opford
(issue 15, "concurrency tests over the real daemon"):

- two `opfor patrol --connect` terminals on one game report the same order's casualties at the
  same moment: exactly one report is applied (the unit loses its figures once), the other
  terminal is told in words that the game changed and nothing was applied; the same between a
  terminal and a one-shot `opfor report`, at once and with the CLI first;
- `undo` typed in one terminal takes back the other terminal's report: the figures come back,
  the order is open again, and the undo is printed by that terminal and by `opfor watch`;
- after a daemon restart on the same socket and state folder the one-shot commands (`opfor
  games`, `state`, `orders`, `report`, `undo`) work on the same game: the same position and the
  same open order (not a new one), a report counted once, its undo;
- refusals said once and whole: a second resolve quotes the first cut after a whole word, an
  undo after a press says so in the daemon's words and in the CLI's (no "undo: undo:").

- every terminal prints what the other clients did, once: the race loser the winner's report,
  the terminal whose report another terminal undid the undo, one prints `opfor undo`'s, one
  prints a game master's presses and the orders his client asked for.

A raw MessagePack client (opford_lib) sets the game up and reads the state to check it; every
check reads what the real binaries printed. Run by tests/cli/opford_clients.sh; every wait is
bounded; ends with "N passed, N failed".
"""
import functools
import os
import re
import subprocess
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
to_order, victim = opford_lib.to_order, opford_lib.victim


def opfor(*args):
    p = subprocess.run([OPFOR, *args, "--connect", d.sock], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


def unit(st, name):
    return next((u for u in st["units"] if u["name"] == name), None)


def terminal(game):
    """A terminal game on game, once it has read the game (its reports name that state)."""
    t = Term(["patrol", "--connect", d.sock, "--game", game])
    ok = t.wait_out(r"`i` presses the initiative button") is not None
    return t, ok


d = Daemon("d")
check("daemon_ready", d.ready, d.logtext())
c = Client(d.sock, 60)
c.rpc("hello", {"client": "clients-test"})
c.rpc("game.new", {"scenario": "patrol_default", "seed": 3, "id": "race"})
order = to_order(c, "race")
st0 = c.rpc("game.state", {"game": "race"})
v = victim(st0, order)
check("race_order_given", order is not None and v is not None and
      st0["order"]["answered_by"] == 0, repr(order)[:300])
name, alive0, seq0 = v["name"], v["alive"], st0["log_seq"]

# ---------------------------------------------------------------- two terminals, one order
w = Term(["watch", "race", "--connect", d.sock, "--timeout", "120"])
check("watch_started", w.wait_out(r"watching game", err=True) is not None, w.err())
t1, ok1 = terminal("race")
t2, ok2 = terminal("race")
check("race_terminals_ready", ok1 and ok2, t1.out()[-600:] + t2.out()[-600:])
line = f"r {name} killed 2\n"
t1.send(line)
t2.send(line)
applied = re.compile(re.escape(f"{name}: 2 killed"))
refused = re.compile(r"Nothing was applied")
for t in (t1, t2):
    t.wait_out(f"{applied.pattern}|{refused.pattern}", secs=30)
time.sleep(0.3)  # the other one answers within milliseconds
# both print the report (the loser prints the winner's, as every client of the game does): the
# winner is the one not told that nothing was applied
lost = [t for t in (t1, t2) if refused.search(t.out())]
won = [t for t in (t1, t2) if applied.search(t.out()) and t not in lost]
check("race_exactly_one_applied", len(won) == 1 and len(lost) == 1 and won[0] is not lost[0],
      t1.out()[-800:] + t1.err() + "\n-----\n" + t2.out()[-800:] + t2.err())
st = c.rpc("game.state", {"game": "race"})
check("race_unit_loses_figures_once", unit(st, name)["alive"] == alive0 - 2 and
      st["log_seq"] == seq0 + 1 and st["order"]["answered_by"] == seq0 + 1,
      repr((unit(st, name), alive0, st["log_seq"], seq0)))
if won and lost:
    winner, loser = won[0], lost[0]
    why = loser.err()
    # the refusal says what came first: the other report, in the order's own words
    check("race_loser_told_why", "has changed since" in why and
          f"entry {seq0 + 1} report" in why and "look at the table again" in why, why)
    check("race_loser_no_protocol_names", leak(loser.out() + why) is None,
          leak(loser.out() + why))
    check("race_loser_no_parameter_names", "seen:" not in why and
          why.startswith("opfor: patrol: your report answers the game as this terminal last "
                         "saw it (entry %d), but it has changed since" % seq0), why)
    # the report the other terminal made is printed by this one too, once, before the refusal
    check("race_loser_prints_the_winners_report",
          loser.out().count(f"{name}: 2 killed") == 1 and
          loser.out().index(f"{name}: 2 killed") < loser.out().index("Nothing was applied"),
          loser.out()[-800:])
    check("race_watch_prints_report_once",
          w.wait_out(re.escape(f"{name}: 2 killed"), secs=10) is not None and
          w.out().count(f"{name}: 2 killed") == 1, w.out())

    # ------------------------------------------------------------ undo from the other terminal
    loser.send("undo\n")
    check("undo_printed_by_its_terminal",
          loser.wait_out(rf"Undone: the report of entry {seq0 + 1}") is not None,
          loser.out()[-800:] + loser.err())
    check("undo_printed_by_watch",
          w.wait_out(rf"Undone: the report of entry {seq0 + 1}", secs=10) is not None, w.out())
    st = c.rpc("game.state", {"game": "race"})
    check("undo_restores_figures", unit(st, name)["alive"] == alive0 and
          st["order"]["answered_by"] == 0 and st["order"]["current"] == 1,
          repr((unit(st, name), st["order"])))
    # the terminal whose report was taken back: its next report is refused, naming the undo
    # (the table may have to change back first); typed again, it counts, once
    winner.send(f"r {name} killed 1\n")
    check("undo_told_to_the_other_terminal",
          winner.wait_out(rf"undo \(took back entry {seq0 + 1}\)", err=True) is not None and
          winner.wait_out("Nothing was applied") is not None, winner.out()[-800:] + winner.err())
    check("undo_printed_by_the_other_terminal",
          winner.out().count(f"Undone: the report of entry {seq0 + 1}") == 1, winner.out()[-800:])
    winner.send(f"r {name} killed 1\n")
    check("undo_then_report_again",
          winner.wait_out(re.escape(f"{name}: 1 killed"), secs=20) is not None,
          winner.out()[-800:] + winner.err())
    st = c.rpc("game.state", {"game": "race"})
    check("undo_then_report_counted_once", unit(st, name)["alive"] == alive0 - 1,
          repr(unit(st, name)))
    loser.send("undo\n")
    loser.wait_out(r"Undone: the report of entry %d" % (st["log_seq"]), secs=20)
for t in (t1, t2):
    t.send("q\n")
    t.finish(20)

# ---------------------------------------------------------------- a terminal and `opfor report`
st = c.rpc("game.state", {"game": "race"})
check("cli_race_order_open", unit(st, name)["alive"] == alive0 and
      st["order"]["answered_by"] == 0, repr((unit(st, name), st["order"])))
seq1 = st["log_seq"]
t3, ok3 = terminal("race")
check("cli_race_terminal_ready", ok3, t3.out()[-600:])
cli = subprocess.Popen([OPFOR, "report", "race", "--killed", f"{name}=1", "--connect", d.sock],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
t3.send(f"r {name} killed 1\n")
cout, cerr = cli.communicate(timeout=60)
t3.wait_out(re.escape(f"{name}: 1 killed") + "|Nothing was applied", secs=30)
time.sleep(0.3)
term_lost = "Nothing was applied" in t3.out()
term_won = re.search(re.escape(f"{name}: 1 killed"), t3.out()) is not None and not term_lost
cli_won = cli.returncode == 0
check("cli_race_exactly_one_applied", term_won + cli_won == 1 and term_lost + term_won == 1,
      repr((cli.returncode, cout, cerr)) + t3.out()[-600:] + t3.err())
st = c.rpc("game.state", {"game": "race"})
check("cli_race_unit_loses_figure_once", unit(st, name)["alive"] == alive0 - 1 and
      st["log_seq"] == seq1 + 1, repr((unit(st, name), st["log_seq"], seq1)))
if cli_won:
    check("cli_race_terminal_told_why", "has changed since" in t3.err() and
          leak(t3.out() + t3.err()) is None, t3.err())
else:
    check("cli_race_cli_told_why", cli.returncode == 1 and "already answered" in cerr and
          "opfor undo" in cerr and leak(cerr) is None, cerr)
t3.send("q\n")
t3.finish(20)
# The other way round, whoever won above: `opfor report` answers first while a terminal still
# shows the order open; the terminal's report is refused, saying what came first.
c.rpc("game.undo", {"game": "race"})
t4, ok4 = terminal("race")
rc, out, err = opfor("report", "race", "--killed", f"{name}=1")
t4.send(f"r {name} killed 1\n")
check("cli_first_terminal_told_why", ok4 and rc == 0 and
      t4.wait_out("Nothing was applied") is not None and
      t4.wait_out(r"has changed since .*report \(" + re.escape(f"{name}: 1 killed"), err=True)
      is not None and leak(t4.out() + t4.err()) is None, out + err + t4.out()[-600:] + t4.err())
st = c.rpc("game.state", {"game": "race"})
check("cli_first_unit_loses_figure_once", unit(st, name)["alive"] == alive0 - 1,
      repr(unit(st, name)))
# `opfor undo` takes that report back (the order open again over the restart below): the
# terminal prints the undo once, before what its next command shows
rc, out, err = opfor("undo", "race")
t4.send("s\n")
t4.wait_out(r"Score: \d+ \(survivors \d+, at half strength")
undone = f"Undone: the report of entry {st['log_seq']}"
check("cli_undo_printed_by_the_terminal", rc == 0 and t4.out().count(undone) == 1 and
      t4.out().index(undone) < t4.out().rindex("at half strength"), out + err + t4.out()[-800:])
t4.send("q\n")
t4.finish(20)

# ---------------------------------------------------------------- the CLI after a restart
st_before = c.rpc("game.state", {"game": "race"})
undone_before = w.out().count("Undone:")
c.close()
d.stop()
d.start()
check("restart_ready", d.ready, d.logtext()[-500:])
rc, out, err = opfor("games", "--json")
check("restart_games_lists_it", rc == 0 and '"race"' in out and '"active"' in out, out + err)
rc, out, err = opfor("state", "race", "--json")
check("restart_state_same", rc == 0 and st_before["hash"] in out and
      f'"log_seq":{st_before["log_seq"]}' in out.replace(" ", ""), out[:600] + err)
rc, out, err = opfor("orders", "race")
check("restart_orders_same_order", rc == 0 and order["sentence"] in out, out + err)
c = Client(d.sock, 60)
st = c.rpc("game.state", {"game": "race"})
check("restart_orders_no_new_order", st["log_seq"] == st_before["log_seq"] and
      st["order"]["order_id"] == order["order_id"], repr((st["log_seq"], st["order"])))
rc, out, err = opfor("report", "race", "--killed", f"{name}=2")
check("restart_report_counts", rc == 0 and f"{name}: 2 killed" in out, out + err)
rc, out2, err2 = opfor("report", "race", "--killed", f"{name}=2")
check("restart_second_report_refused", rc == 1 and "already answered" in err2, out2 + err2)
st = c.rpc("game.state", {"game": "race"})
check("restart_report_counted_once", unit(st, name)["alive"] == alive0 - 2, repr(unit(st, name)))
rc, out, err = opfor("undo", "race")
st = c.rpc("game.state", {"game": "race"})
check("restart_undo", rc == 0 and "Undone: the report of entry" in out and
      unit(st, name)["alive"] == alive0, out + err + repr(unit(st, name)))
check("restart_cli_no_protocol_names", leak(out + err + out2 + err2) is None,
      leak(out + err + out2 + err2))
check("watch_undo_after_restart", w.wait_out(r"reconnected to", secs=30, err=True) is not None and
      w.wait_out(r"(?s)(Undone:.*){%d}" % (undone_before + 1), secs=20) is not None,
      w.out()[-1500:] + w.err())
w.p.terminate()
w.finish(10)

# ---------------------------------------------------------------- refusals, said once in words
# A second resolve quotes the report that answered the order: its sentence whole, or cut after
# a whole word with "..." (never "... 6 figures fire, to ").
rc, out, err = opfor("report", "race", "--resolve")
check("resolve_counts", rc == 0 and "Report (resolve)" in out, out + err)
rc, out, err = opfor("report", "race", "--resolve")
q = re.search(r'turn \d+: "(.*)": it is not counted twice', err)
head = q.group(1)[:-3] if q and q.group(1).endswith("...") else None
check("resolve_twice_quote_whole_words", rc == 1 and q is not None and
      (q.group(1) == order["sentence"] or
       (head and order["sentence"].startswith(head) and
        order["sentence"][len(head):len(head) + 1] in (" ", ",", ";", ":"))),
      err + "\n" + order["sentence"])
opfor("initiative", "race")
err_u, _ = c.call("game.undo", {"game": "race"})
check("undo_after_press_daemon_words", err_u is not None and
      "nothing to undo: the initiative button was pressed after the last report (entry" in
      err_u[1], repr(err_u))
rc, out, err = opfor("undo", "race")
check("undo_after_press_cli_words", rc == 1 and err.startswith(
    "opfor: undo: nothing to undo: the initiative button was pressed after the last report") and
    "undo: undo:" not in err, err)

# ---------------------------------------------------------------- a game master's client
# Another client presses, reports which unit acted and asks for the AI's orders while a terminal
# waits at its prompt: the terminal prints all of it, once, before what its next command shows.
c.rpc("game.new", {"scenario": "patrol_default", "seed": 3, "id": "gm"})
t5, ok5 = terminal("gm")
o5 = to_order(c, "gm")
t5.send("s\n")
t5.wait_out(r"Score: \d+ \(survivors \d+, at half strength")
out5 = t5.out()
shown = "Orders for " + (o5 or {}).get("unit", "?")
check("gm_events_printed_by_the_terminal", ok5 and o5 is not None and
      out5.count("[1] Initiative: British") == 1 and out5.count(shown) == 1 and
      out5.index("[1] Initiative") < out5.index(shown) < out5.rindex("at half strength"),
      out5[-1500:])
t5.send("q\n")
t5.finish(20)
c.close()
d.stop()
checks.finish()
