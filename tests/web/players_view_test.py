"""tests/web/players_view_test.py BIN_DIR WORKDIR -- the players' view (docs/web.md "The
players' view", io/players.c): opford on 0.0.0.0 (tokens needed) with debug-methods on, so the
game master's link may read everything. A session opened with the players' link lists, follows
and plays games (game.list, game.state, subscribe, viktoria.initiative, ai.orders, report,
game.act, game.undo) but never reads a game's seed (not in game.list, game.state, an answer or
an event), sees a game of another ruleset only as its first table side does ("all" and other
sides refused even with debug-methods), never sees a `cheat` game, and may not start, close or
debug (game.new, game.close, debug.*). The game master's link on the same daemon reads all of it.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opford_lib import Checks, Client, Daemon  # noqa: E402
from ws_client import Ws  # noqa: E402

bin_dir, work = sys.argv[1], sys.argv[2]
t = Checks(detail_max=500)
check = t.check


def has_key(obj, key):
    """True when key is a map key anywhere inside obj."""
    if isinstance(obj, dict):
        return key in obj or any(has_key(v, key) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(has_key(v, key) for v in obj)
    return False


def unauthorized(err):
    return isinstance(err, list) and err[0] == 1


d = Daemon(os.path.join(bin_dir, "opford"), work, "pv",
           ["--listen", "http://0.0.0.0:0", "--debug-methods", "yes"])
check("daemon_started", d.ready and d.wait_log(r"players' link") is not None, d.logtext())
gm = re.findall(r"game master's link: http://[^/]+:(\d+)/#t=([0-9a-f]+)", d.logtext())
pl = re.findall(r"players' link: http://[^/]+/#t=([0-9a-f]+)", d.logtext())
check("links_printed", gm and pl, d.logtext()[-400:])
port, gm_tok, pl_tok = int(gm[-1][0]), gm[-1][1], pl[-1]

u = Client(d.sock, timeout=20)
u.rpc("hello", {"client": "players-view-test"})
u.rpc("game.new", {"id": "pv", "scenario": "patrol_default", "mode": "patrol", "seed": 5,
                   "level": "novice"})
u.rpc("game.new", {"id": "pvc", "scenario": "patrol_default", "mode": "patrol", "seed": 6,
                   "level": "novice", "cheat": True})
u.rpc("game.new", {"id": "pd", "ruleset": "duel", "seed": 2, "level": "novice"})

p = Ws(port)
err, res = p.call("hello", {"client": "players-view-test", "token": pl_tok})
check("players_hello_says_players", err is None and res["link"] == "players", (err, res))
g = Ws(port)
err, res = g.call("hello", {"client": "players-view-test", "token": gm_tok})
check("gm_hello_says_game_master", err is None and res["link"] == "game_master", (err, res))

# --- the list: every game but the cheat one, and no seeds
err, lst = p.call("game.list", {})
ids = sorted(r["game"] for r in (lst or {}).get("games", []))
check("players_list_games", err is None and ids == ["pd", "pv"], (err, ids))
check("players_list_has_no_seed", lst and not has_key(lst, "seed"), lst)
err, glst = g.call("game.list", {})
check("gm_lists_every_game_with_seeds",
      err is None and sorted(r["game"] for r in glst["games"]) == ["pd", "pv", "pvc"] and
      all("seed" in r for r in glst["games"]), (err, glst))

# --- a Viktoria! game's state: the game master's, less the seed
err, ps = p.call("game.state", {"game": "pv"})
check("players_state", err is None and ps["units"], err)
check("players_state_has_no_seed", ps and not has_key(ps, "seed"), sorted(ps or {}))
err, gs = g.call("game.state", {"game": "pv"})
check("gm_state_has_the_seed", err is None and gs["seed"] == 5, err)
check("players_state_is_the_rest", ps and gs and
      {k: v for k, v in gs.items() if k != "seed"} == ps)

# --- a cheat game is not the players'
for method, params in (("game.state", {"game": "pvc"}), ("subscribe", {"game": "pvc"}),
                       ("viktoria.initiative", {"game": "pvc"}), ("ai.orders", {"game": "pvc"})):
    err, _ = p.call(method, params)
    check(f"players_refused_cheat_game_{method}", unauthorized(err) and "cheat" in err[1], err)
err, res = g.call("game.state", {"game": "pvc"})
check("gm_reads_the_cheat_game", err is None and res["seed"] == 6, err)

# --- another ruleset's game: the first table side's view only, debug-methods or not
err, pd = p.call("game.state", {"game": "pd"})
check("players_duel_state_first_side", err is None and pd["viewer"] == 0 and
      not has_key(pd, "seed"), (err, pd and pd.get("viewer")))
err, _ = p.call("game.state", {"game": "pd", "viewer": "all"})
check("players_refused_all", unauthorized(err), err)
err, _ = p.call("game.state", {"game": "pd", "viewer": 1})
check("players_refused_the_ai_side", err is not None, err)
err, res = p.call("game.state", {"game": "pd", "viewer": 0})
check("players_may_name_the_first_side", err is None and res["viewer"] == 0, err)
err, res = g.call("game.state", {"game": "pd", "viewer": "all"})
check("gm_reads_all_with_debug_methods", err is None and res["viewer"] == "all", err)

# --- not the players': starting, closing, debugging
for method, params in (("game.new", {}), ("game.close", {"game": "pv"}),
                       ("debug.sleep", {"ms": 0}), ("debug.game_changed", {"key": "pv"})):
    err, _ = p.call(method, params)
    check(f"players_refused_{method}", unauthorized(err) and "players' link" in err[1], err)
err, res = u.call("game.state", {"game": "pv"})
check("game_not_closed", err is None and res["status"] == "active", err)

# --- following and playing a Viktoria! game: events and answers carry no seed
err, sub = p.call("subscribe", {"game": "pv"})
check("players_subscribe", err is None and sub["subscribed"], err)
answers = []
for _ in range(12):
    err, st = p.call("game.state", {"game": "pv"})
    if err or st["status"] != "active":
        break
    if st["pending"] == "enemy":
        err, res = p.call("ai.orders", {"game": "pv"})
        check("players_ai_orders", err is None and res["unit"], err)
        answers.append(res)
        err, res = p.call("report", {"game": "pv", "resolve": True})
    elif st["pending"] == "player":
        err, res = p.call("report", {"game": "pv", "acted": st["ready"][0]})
    else:
        err, res = p.call("viktoria.initiative", {"game": "pv"})
    answers.append(res)
    if err:
        break
check("players_play", err is None, err)
err, res = p.call("game.undo", {"game": "pv"})
check("players_may_undo", not unauthorized(err), err)
answers.append(res)
kinds = {n[2][0]["kind"] for n in p.notes if n[1] == "event"}
check("players_events_arrive", {"initiative", "order", "report"} <= kinds, kinds)
check("players_events_have_no_seed", not has_key(p.notes, "seed"))
check("players_answers_have_no_seed", not has_key(answers, "seed"))

# --- another ruleset's game played: game.act and the events
err, sub = p.call("subscribe", {"game": "pd"})
err, st = p.call("game.state", {"game": "pd"})
if st and st["to_move"] == 0 and st["legal"]:
    err, res = p.call("game.act", {"game": "pd", "action": 0})
    check("players_game_act", err is None, err)
check("players_duel_events_have_no_seed", not has_key(p.notes, "seed"))

for c in (p, g):
    c.close()
u.close()
check("daemon_survived", d.alive())
check("daemon_stops", d.stop() == 0)
t.finish("players_view: ")
