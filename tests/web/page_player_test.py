"""tests/web/page_player_test.py BIN_DIR WORKDIR ARTEFACTS -- the players' link's games screen,
dragging a unit on the map, and the new-game form's choices (issue 19; docs/web.md), in
headless Chromium at 360 px. opford serves every address (0.0.0.0: tokens needed); a Unix client
starts a Patrol Mode game and a `cheat` one. The page opened with the players' link lists the
first only, has no button to start or close a game, follows it (the map drawn), and what
game.state answers it holds no seed; game.new from its connection is refused. Dragging a unit
(a mouse drag, and a finger's long press then drag) sends the report that it stands there: the
`report` event shows and the map draws it where it was dropped; a drag onto the Mill pond, or
off the table, is refused by the daemon, the unit goes back and the map says why; a tap still
names a unit. The game master's link in the same browser shows the form with the scenario and
mode lists built from hello's ruleset_info (given to the page by hand when this build's hello
lists none) and starts the chosen game. Screenshots go to ARTEFACTS.
"""
import json
import math
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from opford_lib import Checks, Client, Daemon  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

bin_dir, work, artefacts = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(artefacts, exist_ok=True)
t = Checks(detail_max=500)
check = t.check

d = Daemon(os.path.join(bin_dir, "opford"), work, "player", ["--listen", "http://0.0.0.0:0"])
check("daemon_started", d.ready and d.wait_log(r"players' link") is not None, d.logtext())
gm = re.findall(r"game master's link: http://[^/]+:(\d+)/#t=([0-9a-f]+)", d.logtext())
pl = re.findall(r"players' link: http://[^/]+/#t=([0-9a-f]+)", d.logtext())
port, gm_tok, pl_tok = gm[-1][0], gm[-1][1], pl[-1]
base = f"http://127.0.0.1:{port}/"  # the wildcard address takes loopback too: tokens needed

drv = browser.chromium(f"{work}/chromium")


def text(i):
    return browser.text(drv, i)


def waits(cond, secs=15):
    return browser.wait_for(drv, cond, secs)


def body(attr):
    return drv.find_element(By.TAG_NAME, "body").get_attribute(attr)


def by_hand(method, params):
    """An RPC from the page's own connection: ["ok", result] or ["error", message]."""
    return json.loads(drv.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "calc.rpc.call(arguments[0], arguments[1]).then((r) => done(JSON.stringify(['ok', r])),"
        " (e) => done(JSON.stringify(['error', String(e && e.message)])));", method, params))


def drawn():
    return int(drv.find_element(By.ID, "map-svg").get_attribute("data-drawn") or 0)


def unit_transform(uid):
    return drv.execute_script(
        "const g = document.querySelector(`#map-svg .unit[data-id=\"${arguments[0]}\"]`);"
        "return g && g.getAttribute('transform');", str(uid))


def screen(x, y):
    """Where the table's point (x, y) inches is in the viewport's CSS pixels."""
    return drv.execute_script(
        "const svg = document.getElementById('map-svg'), m = svg.getScreenCTM();"
        "const depth = svg.viewBox.baseVal.height;"
        "const p = new DOMPoint(arguments[0], depth - arguments[1]).matrixTransform(m);"
        "return [p.x, p.y];", x, y)


def mouse(kind, p, buttons=1):
    drv.execute_cdp_cmd("Input.dispatchMouseEvent", {
        "type": kind, "x": p[0], "y": p[1], "button": "left", "buttons": buttons,
        "clickCount": 1})


def mouse_drag(a, b):
    """A mouse drag from table point a to table point b (inches)."""
    pa, pb = screen(*a), screen(*b)
    mouse("mouseMoved", pa, 0)
    mouse("mousePressed", pa)
    for k in range(1, 9):
        mouse("mouseMoved", (pa[0] + (pb[0] - pa[0]) * k / 8, pa[1] + (pb[1] - pa[1]) * k / 8))
    mouse("mouseReleased", pb, 0)


def touch_drag(a, b):
    """A finger held on table point a, then dragged to b and lifted."""
    pa, pb = screen(*a), screen(*b)
    drv.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": "touchStart", "touchPoints": [{"x": pa[0], "y": pa[1]}]})
    time.sleep(0.6)  # the long press
    for k in range(1, 9):
        drv.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": pa[0] + (pb[0] - pa[0]) * k / 8, "y": pa[1] + (pb[1] - pa[1]) * k / 8}]})
    drv.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def drop_state():
    return drv.find_element(By.ID, "map").get_attribute("data-drop") or ""


def reset_drop():
    drv.execute_script("delete document.getElementById('map').dataset.drop")


u = Client(d.sock, timeout=30)
try:
    browser.phone(drv)
    drv.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    u.rpc("hello", {"client": "table"})
    pat = u.rpc("game.new", {"id": "pp", "scenario": "patrol_default", "mode": "patrol",
                             "seed": 5, "level": "novice"})["game"]
    u.rpc("game.new", {"id": "ppc", "scenario": "patrol_default", "mode": "patrol", "seed": 6,
                       "level": "novice", "cheat": True})

    # --- the players' link: the games, no new or close buttons, no seed
    drv.get(base + "#t=" + pl_tok)
    check("players_page_ready", waits(lambda b: body("data-ready") == "1"), text("calc-error"))
    check("page_knows_the_players_link", body("data-link") == "players", body("data-link"))
    drv.find_element(By.ID, "tab-games").click()
    check("players_see_the_games_list",
          waits(lambda b: b.find_elements(By.CSS_SELECTOR, "#games-list tr[data-game='pp']")),
          text("games-error"))
    check("cheat_game_not_listed",
          not drv.find_elements(By.CSS_SELECTOR, "#games-list tr[data-game='ppc']"))
    check("no_new_game_form", not drv.find_element(By.ID, "games-new").is_displayed())
    check("no_old_note", "still to come" not in text("games-note"), text("games-note"))
    before = drawn()
    drv.find_element(By.CSS_SELECTOR, "#games-list tr[data-game='pp'] button").click()
    check("players_follow_the_game", waits(lambda b: body("data-game") == "pp" and
                                           drawn() > before), text("games-error"))
    check("no_close_button", not drv.find_element(By.ID, "game-close").is_displayed())
    r = by_hand("game.state", {"game": "pp"})
    check("players_state_has_no_seed", r[0] == "ok" and "seed" not in r[1] and r[1]["units"],
          r[0] == "ok" and sorted(r[1]))
    r = by_hand("game.new", {})
    check("players_game_new_refused", r[0] == "error" and "players' link" in r[1], r)
    drv.save_screenshot(os.path.join(artefacts, "player-games-360.png"))

    # --- a tap still names a unit
    st = u.rpc("game.state", {"game": pat})
    sec = next(x for x in st["units"] if x["name"] == "1st Section")
    sid = sec["index"]
    drv.execute_script("document.getElementById('map').scrollIntoView({block: 'center'})")
    p = screen(sec["at"]["x"], sec["at"]["y"])
    mouse("mouseMoved", p, 0)
    mouse("mousePressed", p)
    mouse("mouseReleased", p, 0)
    check("tap_names_the_unit", waits(lambda b: "1st Section" in text("map-info"), 5),
          text("map-info"))

    # --- a mouse drag reports the unit where it was dropped
    target = (30.0, 14.0)
    n_before = drawn()
    mouse_drag((sec["at"]["x"], sec["at"]["y"]), target)
    check("drag_reported", waits(lambda b: drop_state() == "done", 10),
          (drop_state(), text("map-info")))
    check("report_event_shown", waits(lambda b: "1st Section moved" in text("game-events"), 10),
          text("game-events"))
    st = u.rpc("game.state", {"game": pat})
    at = next(x for x in st["units"] if x["index"] == sid)["at"]
    check("daemon_has_it_where_dropped",
          abs(at["x"] - target[0]) < 0.3 and abs(at["y"] - target[1]) < 0.3, at)
    check("map_draws_it_there", waits(lambda b: drawn() > n_before and
                                      f"translate({at['x']:g},{48 - at['y']:g})"
                                      in (unit_transform(sid) or ""), 10),
          (at, unit_transform(sid)))
    drv.save_screenshot(os.path.join(artefacts, "player-drag-360.png"))

    # --- refused: onto the Mill pond, and off the table; the unit goes back, saying why
    pond = next(s for s in st["scene"]["shapes"] if s.get("name") == "Mill pond")
    cx = sum(q[0] for q in pond["points"]) / len(pond["points"])
    cy = sum(q[1] for q in pond["points"]) / len(pond["points"])
    placed = unit_transform(sid)
    reset_drop()
    mouse_drag((at["x"], at["y"]), (cx, cy))
    check("pond_drag_refused", waits(lambda b: drop_state() == "refused", 10),
          (drop_state(), text("map-info")))
    check("pond_refusal_says_why", "Mill pond" in text("map-info"), text("map-info"))
    check("pond_drag_snaps_back", unit_transform(sid) == placed, (placed, unit_transform(sid)))
    drv.save_screenshot(os.path.join(artefacts, "player-refused-360.png"))
    reset_drop()
    mouse_drag((at["x"], at["y"]), (at["x"], 48 + 2.5))  # beyond the table's far edge
    check("off_table_drag_refused", waits(lambda b: drop_state() == "refused", 10),
          (drop_state(), text("map-info")))
    check("off_table_refusal_says_why", "off the table" in text("map-info"), text("map-info"))
    check("off_table_drag_snaps_back", unit_transform(sid) == placed,
          (placed, unit_transform(sid)))
    st2 = u.rpc("game.state", {"game": pat})
    check("refused_drags_changed_nothing", st2["log_seq"] == st["log_seq"],
          (st["log_seq"], st2["log_seq"]))

    # --- a finger: a long press picks the unit up, the drag moves it
    reset_drop()
    target2 = (34.0, 18.0)
    touch_drag((at["x"], at["y"]), target2)
    check("touch_drag_reported", waits(lambda b: drop_state() == "done", 10),
          (drop_state(), text("map-info")))
    at2 = next(x for x in u.rpc("game.state", {"game": pat})["units"] if x["index"] == sid)["at"]
    check("touch_drag_where_dropped",
          abs(at2["x"] - target2[0]) < 0.3 and abs(at2["y"] - target2[1]) < 0.3, at2)

    # --- the game master's link: the new-game form with the scenario and mode lists
    drv.get(base + "#t=" + gm_tok)
    drv.refresh()
    check("gm_page_ready", waits(lambda b: body("data-ready") == "1" and
                                 body("data-link") == "game_master"), body("data-link"))
    drv.find_element(By.ID, "tab-games").click()
    check("gm_sees_the_form", waits(lambda b: b.find_element(By.ID, "games-new").is_displayed()))
    Select(drv.find_element(By.ID, "new-ruleset")).select_by_value("viktoria")
    listed = drv.execute_script(
        "return (games.info.find((i) => i.name === 'viktoria') || {}).scenarios || null")
    if not listed:  # this build's hello lists no scenarios: no list shown, then given by hand
        check("no_scenario_list_without_the_keys",
              not drv.find_element(By.ID, "new-scenario").is_displayed() and
              not drv.find_element(By.ID, "new-mode").is_displayed())
        drv.execute_script(
            "const i = games.info.find((x) => x.name === 'viktoria');"
            "i.scenarios = [{name: 'patrol_default', title: 'Patrol'},"
            " {name: 'competitive_default', title: 'Competitive'}];"
            "i.modes = ['patrol', 'competitive']; newGameChoices();")
    check("scenario_and_mode_lists_shown",
          drv.find_element(By.ID, "new-scenario").is_displayed() and
          drv.find_element(By.ID, "new-mode").is_displayed())
    Select(drv.find_element(By.ID, "new-scenario")).select_by_value("competitive_default")
    Select(drv.find_element(By.ID, "new-mode")).select_by_value("competitive")
    drv.find_element(By.ID, "new-seed").send_keys("7")
    drv.find_element(By.ID, "new-start").click()
    check("gm_started_the_chosen_game",
          waits(lambda b: body("data-game") not in (None, "", "pp")), text("games-error"))
    gid = body("data-game")
    st = u.rpc("game.state", {"game": gid})
    check("chosen_scenario_and_mode", st["scenario"] == "competitive_default" and
          st["mode"] == "competitive" and st["seed"] == 7, (st["scenario"], st["mode"]))
    check("gm_has_the_close_button", drv.find_element(By.ID, "game-close").is_displayed())
    drv.save_screenshot(os.path.join(artefacts, "player-gm-new-360.png"))
finally:
    u.close()
    drv.quit()
check("daemon_stops_cleanly", d.stop() == 0)
t.finish("page_player: ")
