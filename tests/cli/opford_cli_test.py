#!/usr/bin/env python3
"""tests/cli/opford_cli_test.py BIN_DIR WORKDIR -- the `opfor` game commands (new, games,
report, watch, close) run as a game master would against an opford on a Unix socket in WORKDIR
and on 127.0.0.1 with a token file. Run by tests/cli/opford_cli.sh; ends with the line
"N passed, N failed".
"""
import functools
import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import opford_lib  # noqa: E402 (after the line above)

BIN, WORK = sys.argv[1], sys.argv[2]
OPFORD = os.path.join(BIN, "opford")
OPFOR = os.path.join(BIN, "opfor")
checks = opford_lib.Checks(detail_max=800)
check = checks.check
Daemon = functools.partial(opford_lib.Daemon, OPFORD, WORK)

token_file = os.path.join(WORK, "token")
with open(token_file, "w") as f:
    f.write("a-long-enough-token\n")
os.chmod(token_file, 0o600)
d = Daemon("cli", args=["--listen", "tcp://127.0.0.1:0", "--token-file", token_file])
env = dict(os.environ, OPFOR_SOCKET=d.sock)
env.pop("OPFOR_TOKEN", None)


def opfor(*args, timeout=60):
    p = subprocess.run([OPFOR, *args], env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


# ---------------------------------------------------------------- report's command line
opfor("new", "--seed", "5", "--id", "c1")
rc, out, err = opfor("report", "c1")
check("report_nothing_names_flags", rc == 2 and "--acted" in err and "--resolve" in err, err)
rc, out, err = opfor("report", "c1", "--note", "only a note")
check("report_note_alone_is_nothing", rc == 2 and "nothing to report" in err, err)
rc, out, err = opfor("report", "c1", "--acted", "Major", "--acted", "Hussar")
check("report_acted_twice", rc == 2 and "--acted given twice" in err, out + err)
rc, out, err = opfor("report", "c1", "--killed", "Jager=1", "--wounded", "Jager=1",
                     "--killed", "Jager=2")
check("report_killed_twice_same_unit", rc == 2 and "--killed given twice for Jager" in err, err)
rc, out, err = opfor("report", "c1", "--killed", "Jager=-1")
check("report_killed_negative", rc == 2 and ">= 0" in err and "casualties[0]" not in err, err)
rc, out, err = opfor("report", "c1", "--killed", "Jager=6", "--off", "Jager")
check("report_off_after_all_killed_says_destroyed",
      rc == 1 and "Jager Picket has no figure alive (destroyed)" in err, err)
opfor("report", "c1", "--off", "Jager")
rc, out, err = opfor("report", "c1", "--move", "Jager=10,10")
check("report_move_after_off_says_left", rc == 1 and "has already left the table" in err, err)

# issue 15: a one-letter unit does not spend the initiative; points as "X,Y" or "X Y"
rc, out, err = opfor("report", "c1", "--acted", "H")
check("report_acted_one_letter", rc == 2 and "--acted 'H' is too short" in err, out + err)
opfor("new", "--seed", "5", "--id", "xy1")
rc, out, err = opfor("report", "xy1", "--move", "Hussar=58 18", "--move", "1st=30, 12")
rc2, st, err2 = opfor("state", "xy1", "--json")
units = {u["name"]: u["at"] for u in json.loads(st or "{}").get("units", [])}
check("report_move_xy_forms", rc == 0 and units.get("Hussar Troop") == {"x": 58, "y": 18} and
      units.get("1st Section") == {"x": 30, "y": 12}, out + err + repr(units))

# ---------------------------------------------------------------- one name for the level
rc, out, err = opfor("new", "--seed", "5", "--id", "lv1", "--level", "veteran", "--json")
check("new_level_flag", rc == 0 and '"difficulty":"veteran"' in out.replace(" ", ""), out + err)
rc, out, err = opfor("new", "--seed", "5", "--id", "lv2", "--difficulty", "novice", "--json")
check("new_difficulty_alias", rc == 0 and '"difficulty":"novice"' in out.replace(" ", ""),
      out + err)

rc, out, err = opfor("new", "--scenario", "scens/no_such.yaml")
check("new_scenario_file_missing", rc == 1 and "scens/no_such.yaml: no such file" in err, err)

# ---------------------------------------------------------------- hints name commands
# The daemon's hints name protocol methods; the game commands print the command to type.
rc, out, err = opfor("state", "no-such-game")
check("hint_games_command", rc == 1 and "(`opfor games` lists them)" in err
      and "game.list" not in err, err)
opfor("new", "--seed", "5", "--id", "h1")
rc, out, err = opfor("report", "h1", "--resolve")
check("hint_orders_command", rc == 1 and "ask `opfor orders` when" in err
      and "ai.orders" not in err, err)
opfor("initiative", "h1")  # seed 5 gives the players the first initiative
rc, out, err = opfor("initiative", "h1")
check("hint_report_acted_command", rc == 1 and "(`opfor report --acted UNIT`)" in err
      and "report with `acted`" not in err, err)
rc, out, err = opfor("orders", "h1")
check("hint_unworded_prints_message", rc == 1 and
      "no unit of the Germans holds the initiative (the players hold it" in err, err)
rc, out, err = opfor("initiative", "no-such-game")
check("initiative_hint_games_command", rc == 1 and
      err == "opfor: initiative: game: no game 'no-such-game' (`opfor games` lists them)\n", err)

# `opfor initiative` presses with the game's ruleset's own method (viktoria.initiative, api
# level 5); a game whose ruleset has none is refused, saying how its table plays. `opfor new
# --ruleset` starts a game of any ruleset the daemon lists, and names them when it has not.
pc = opford_lib.Client(d.sock, 20.0)
e, hello = pc.call("hello", {"client": "opford_cli_test"})
if e is None and "duel" in hello["rulesets"]:
    rc, out, err = opfor("new", "--ruleset", "duel", "--id", "du1", "--seed", "3")
    check("new_other_ruleset", rc == 0 and "Dice duel" in out and
          "to move: side 0 (the table)" in out and "1. Red attacks" in out and
          "opfor act N" in out and "opfor initiative" not in out, out + err)
    rc, out, err = opfor("initiative", "du1")
    check("initiative_other_ruleset_refused", rc == 1 and
          "duel games have no initiative method" in err and "`opfor act`" in err and
          "patrol" not in err, err)
rc, out, err = opfor("new", "--ruleset", "nope")
check("new_unknown_ruleset", rc == 1 and "no ruleset 'nope'" in err and "viktoria" in err, err)
pc.close()
opfor("new", "--seed", "5", "--id", "vi1")
rc, out, err = opfor("initiative", "vi1")
check("initiative_presses", rc == 0 and "Initiative: British" in out and
      "initiative: player)" in out, out + err)

# ---------------------------------------------------------------- game over and games
opfor("new", "--seed", "5", "--id", "c2")
rc, out, err = opfor("report", "c2", "--killed", "Major=1", "--killed", "Sharp=1",
                     "--killed", "9-p=5", "--killed", "1st=12", "--killed", "Hussar=6")
check("game_over_one_turn", rc == 0 and
      "Game over: lost (every player unit is lost), score 0 after 1 turn\n" in out and
      "    survivors 0, at half strength 0, unscathed 0, " in out, out + err)
rc, out, err = opfor("games", "--status", "finished")
check("games_header", rc == 0 and out.split()[:7] ==
      ["game", "scenario", "mode", "status", "level", "seed", "log"], out + err)
check("games_one_entry", rc == 0 and any(x.startswith("c2 ") and x.endswith(" 1 entry")
                                         for x in out.splitlines()), out + err)

opfor("new", "--seed", "5", "--id", "k1", "--mode", "competitive")
rc, out, err = opfor("state", "k1")
check("state_competitive_score", rc == 0 and "\nScore: 25 figures v 6\n" in out, out + err)

# ---------------------------------------------------------------- watch
opfor("new", "--seed", "6", "--id", "w1")
opfor("initiative", "w1")
opfor("report", "w1", "--roll", "2D6")
opfor("report", "w1", "--roll", "D6")
rc, out, err = opfor("watch", "w1", "--after", "0", "--count", "2", "--json", timeout=30)
lines = [json.loads(x) for x in out.splitlines() if x.strip()]
check("watch_count_holds_for_kept_events", rc == 0 and [x["seq"] for x in lines] == [1, 2],
      out + err)
opfor("close", "w1")
t0 = time.time()
rc, out, err = opfor("watch", "w1", "--after", "0", "--timeout", "30", timeout=60)
check("watch_stops_at_closed_game", rc == 0 and time.time() - t0 < 20 and
      out.rstrip().endswith("The game was closed."), (time.time() - t0, out, err))

# a daemon gone for good: watch tries again until its --timeout, then says how to go on
w = subprocess.Popen([OPFOR, "watch", "c1", "--timeout", "6"], env=env, text=True,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
time.sleep(0.5)
d.stop()
try:
    out, err = w.communicate(timeout=20)
except subprocess.TimeoutExpired:
    w.kill()
    out, err = w.communicate()
check("watch_daemon_gone_says_how_to_go_on",
      w.returncode == 1 and "trying again in 1 s" in err and
      "`opfor watch c1 --after 2` goes on" in err, (w.returncode, err))
listeners = len(d.tcp_listeners())
d.start()

# ---------------------------------------------------------------- TCP and the token
# the restarted daemon's own port: its unix socket may answer before its TCP line is logged
port = d.tcp_port(secs=30, after=listeners)
tcp = f"tcp://127.0.0.1:{port}"
rc, out, err = opfor("games", "--connect", tcp)
check("tcp_without_token_says_how", rc == 1 and "--token-file" in err, err)
rc, out, err = opfor("games", "--connect", tcp, "--token-file", token_file, "--json")
check("tcp_token_file", rc == 0 and "games" in json.loads(out or "{}"), out + err)
rc, out, err = opfor("state", "c1", "--connect", tcp, "--token-file",
                     os.path.join(WORK, "missing"))
check("tcp_token_file_missing", rc == 1 and "token" in err, err)
rc, out, err = opfor("state", "c1", "--token-file")
check("token_file_needs_value", rc == 2 and "--token-file" in err, err)
rc, out, err = opfor("games", "--connect", "tcp://example.com:1")
check("connect_name_not_listen", rc == 1 and "listen:" not in err and "example.com" in err, err)
rc, out, err = opfor("report", "--help")
check("report_help_names_token_file", rc == 0 and "--token-file" in out, out)

d.stop()
checks.finish()
