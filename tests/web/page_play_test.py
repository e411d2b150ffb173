"""tests/web/page_play_test.py BIN_DIR WORKDIR ARTEFACTS -- the table page's Play section
(io/web/play.js) in headless Chromium as a 360 px phone. The page starts a Patrol game (seed 5,
AI level novice) and plays it through game.state's forms only: a refused report (a point off
the table) shows the daemon's reason beside its form, keeps what was typed and changes nothing
(log_seq as the Unix socket reads it); the initiative button presses; an activation is
reported (the unit from the form's list, the point tapped on the map) and the unit's rectangle
moves on the map to where the daemon puts it; Undo takes it back; play goes on from the page
until the AI holds the initiative, and "AI orders" shows the order whose sentence is the one
ai.orders answers over the Unix socket, with its reason. A game of the test-only duel ruleset
(when built) shows its table side's moves and plays one from the page. A Splendid game's unit
menus offer the units game.state's `values` allow (none to charge before the initiative), and
a loss reported from its menu is taken. Screenshots play-360.png and
play-tablet.png (820 px) go to ARTEFACTS.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from opford_lib import Client  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

bin_dir, work, artefacts, t = browser.args()
check = t.check

d, url = browser.loopback_page(t, bin_dir, work, "play")
drv = browser.chromium(f"{work}/chromium")


def text(i):
    """The element's text; the page may redraw it between finding and reading: read again."""
    for _ in range(5):
        try:
            return browser.text(drv, i)
        except StaleElementReferenceException:
            continue
    return browser.text(drv, i)


def waits(cond, secs=15):
    return browser.wait_for(drv, cond, secs)


def shown_seq():
    return int(drv.find_element(By.ID, "play").get_attribute("data-log-seq") or -1)


def report_form(name):
    Select(drv.find_element(By.ID, "play-report")).select_by_value(name)
    return drv.find_element(By.CSS_SELECTOR, f"#play-reports form[data-form='{name}']")


def unit_rect(index):
    return drv.execute_script(
        "const g = document.querySelector(`#map-svg .unit[data-id='${arguments[0]}']`);"
        " return g ? g.getAttribute('transform') : null", index)


def tap_table(x, y):
    """Taps the map at table point (x, y) in inches (y from the south edge); a tap lands on
    whole pixels (about 0.2 in at 360 px), and the page writes tenths."""
    drv.execute_script(
        "const svg = document.getElementById('map-svg'); svg.scrollIntoView();"
        " const depth = svg.viewBox.baseVal.height;"
        " const p = new DOMPoint(arguments[0], depth - arguments[1]).matrixTransform(svg.getScreenCTM());"
        " svg.dispatchEvent(new MouseEvent('click', {clientX: p.x, clientY: p.y, bubbles: true}));",
        x, y)


def open_game(gid, seq):
    """Opens game gid from the Games tab; whether the page then shows it at log_seq seq."""
    drv.find_element(By.ID, "tab-games").click()
    row = f"#games-list tr[data-game='{gid}'] button"
    waits(lambda b: b.find_elements(By.CSS_SELECTOR, row), 10)
    drv.find_element(By.CSS_SELECTOR, row).click()
    return waits(lambda b: shown_seq() == seq and
                 b.find_element(By.TAG_NAME, "body").get_attribute("data-game") == gid)


def step_to(u, gid, seq):
    """Waits until the page shows the game at log_seq >= seq."""
    return waits(lambda b: shown_seq() >= seq, 10)


u = Client(d.sock, timeout=30)
try:
    browser.phone(drv)
    u.rpc("hello", {"client": "table"})
    drv.get(url)
    check("page_ready", waits(lambda b: b.find_element(By.TAG_NAME, "body")
                              .get_attribute("data-ready") == "1"))
    drv.find_element(By.ID, "tab-games").click()
    Select(drv.find_element(By.ID, "new-ruleset")).select_by_value("viktoria")
    Select(drv.find_element(By.ID, "new-level")).select_by_visible_text("novice")
    drv.find_element(By.ID, "new-seed").send_keys("5")
    drv.find_element(By.ID, "new-start").click()
    check("game_started_from_the_page",
          waits(lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-game")),
          text("games-error"))
    gid = drv.find_element(By.TAG_NAME, "body").get_attribute("data-game")
    st = u.rpc("game.state", {"game": gid})
    check("a_patrol_game", st["mode"] == "patrol" and st["seed"] == 5, (st["mode"], st["seed"]))
    check("play_shown", waits(lambda b: b.find_element(By.ID, "play").is_displayed() and
                              shown_seq() == st["log_seq"]))
    buttons = [b.text for b in drv.find_elements(By.CSS_SELECTOR, "#play-actions button")]
    check("a_button_per_action", buttons == [f["title"] for f in st["actions"]], buttons)
    opts = [o.text for o in Select(drv.find_element(By.ID, "play-report")).options]
    check("a_form_per_report", opts == [f["title"] for f in st["reports"]], opts)
    names = drv.execute_script(
        "return [...document.querySelectorAll('#map-svg .unit')].map((g) => [g.dataset.name,"
        " [...document.querySelectorAll('#map-svg .names text.name')]"
        ".filter((t) => t.dataset.id === g.dataset.id).map((t) => t.textContent)])")
    check("a_name_label_per_unit", names and all(
        len(ts) == 1 and (ts[0] == n or (ts[0].endswith("…") and n.startswith(ts[0][:-1])))
        for n, ts in names), names)
    box = drv.execute_script(
        "const s = document.getElementById('map-svg').getBoundingClientRect();"
        " return [s.width, document.documentElement.scrollWidth]")
    check("labels_keep_the_map_narrow", box[0] <= 360 and box[1] <= 360, box)
    check("no_ai_orders_no_undo_yet", not drv.find_element(By.ID, "play-ai-box").is_displayed()
          and not drv.find_element(By.ID, "play-undo-box").is_displayed())

    # a refused report: the reason beside the form, the input kept, nothing changed
    form = report_form("move")
    unit_sel = Select(form.find_element(By.CSS_SELECTOR, "select[data-field='unit']"))
    move_values = next(f for f in st["reports"] if f["name"] == "move")["fields"][0]["values"]
    check("unit_choices_are_the_values", [o.get_attribute("value") for o in unit_sel.options][1:]
          == move_values, move_values)
    unit_sel.select_by_value(move_values[0])
    at = form.find_element(By.CSS_SELECTOR, "input[data-field='at']")
    at.send_keys("500,3")
    form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
    err = form.find_element(By.CSS_SELECTOR, ".error")
    check("refusal_shown_in_words", waits(lambda b: "off the table" in err.text, 5), err.text)
    st2 = u.rpc("game.state", {"game": gid})
    check("refusal_changes_nothing", st2["log_seq"] == st["log_seq"] and
          st2["hash"] == st["hash"], (st["log_seq"], st2["log_seq"]))
    check("refused_input_kept", at.get_attribute("value") == "500,3" and
          unit_sel.first_selected_option.get_attribute("value") == move_values[0])

    # the initiative button, then an activation reported with a point tapped on the map
    press = drv.find_element(By.CSS_SELECTOR, "#play-actions form[data-form='initiative'] button")
    press.click()
    check("press_from_the_page", step_to(u, gid, st["log_seq"] + 1),
          drv.find_element(By.CSS_SELECTOR, "#play-actions .error").text)
    st = u.rpc("game.state", {"game": gid})
    check("players_hold_it", st["pending"] == "player", st["pending"])
    form = report_form("acted")
    unit_sel = Select(form.find_element(By.CSS_SELECTOR, "select[data-field='unit']"))
    values = [o.get_attribute("value") for o in unit_sel.options][1:]
    check("acted_offers_the_ready_units", sorted(values) == sorted(st["ready"]) and values,
          (values, st["ready"]))
    name = values[0]
    unit = next(x for x in st["units"] if x["name"] == name)
    before = unit_rect(unit["index"])
    unit_sel.select_by_value(name)
    form.find_element(By.CSS_SELECTOR, "button.tap").click()
    want = (unit["at"]["x"] + 3.0, unit["at"]["y"])
    tap_table(*want)
    at = form.find_element(By.CSS_SELECTOR, "input[data-field='at']")
    typed = at.get_attribute("value")
    tx, ty = (float(v) for v in typed.split(",")) if "," in typed else (-1, -1)
    check("map_tap_fills_the_point", abs(tx - want[0]) < 0.35 and abs(ty - want[1]) < 0.35,
          (typed, want))
    check("tapped_point_marked", len(drv.find_elements(By.CSS_SELECTOR, "#map-svg .play-mark")) == 1)
    seq0 = st["log_seq"]
    form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
    check("activation_reported", step_to(u, gid, seq0 + 1),
          form.find_element(By.CSS_SELECTOR, ".error").text)
    st = u.rpc("game.state", {"game": gid})
    moved = next(x for x in st["units"] if x["name"] == name)
    check("daemon_took_it", moved["state"] == "acted" and abs(moved["at"]["x"] - tx) < 0.06 and
          abs(moved["at"]["y"] - ty) < 0.06, (moved, typed))
    check("map_changed", waits(lambda b: unit_rect(unit["index"]) not in (None, before), 5),
          (before, unit_rect(unit["index"])))
    after = unit_rect(unit["index"])

    # undo
    check("undo_offered", waits(lambda b: b.find_element(By.ID, "play-undo-box").is_displayed(), 5))
    drv.find_element(By.ID, "play-undo").click()
    check("undo_from_the_page", step_to(u, gid, seq0 + 2), text("play-undo-error"))
    st = u.rpc("game.state", {"game": gid})
    back = next(x for x in st["units"] if x["name"] == name)
    check("undo_took_it_back", back["state"] == "ready" and back["at"] == unit["at"] and
          not st["can_undo"], back)
    check("map_follows_the_undo", waits(lambda b: unit_rect(unit["index"]) == before, 5),
          (before, after, unit_rect(unit["index"])))
    check("undo_hidden_again", waits(lambda b: not b.find_element(By.ID, "play-undo-box")
                                     .is_displayed(), 5))

    # play on from the page until the AI holds the initiative
    for _ in range(12):
        st = u.rpc("game.state", {"game": gid})
        if st["pending"] == "enemy" or st["status"] != "active":
            break
        waits(lambda b: shown_seq() == st["log_seq"], 5)
        if st["pending"] == "none":
            drv.find_element(By.CSS_SELECTOR,
                             "#play-actions form[data-form='initiative'] button").click()
        else:
            form = report_form("acted")
            Select(form.find_element(By.CSS_SELECTOR, "select[data-field='unit']")) \
                .select_by_index(1)
            form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
        step_to(u, gid, st["log_seq"] + 1)
    check("ai_holds_it", st["pending"] == "enemy", st["pending"])
    check("ai_orders_offered", waits(lambda b: b.find_element(By.ID, "play-ai").is_displayed(), 5))
    drv.find_element(By.ID, "play-ai").click()
    check("order_shown", waits(lambda b: b.find_elements(By.ID, "play-sentence") and
                               text("play-sentence"), 20), text("play-ai-error"))
    order = u.rpc("ai.orders", {"game": gid})  # the same order, asked again
    check("sentence_is_the_daemons", text("play-sentence") == order["sentence"],
          (text("play-sentence"), order["sentence"]))
    check("reason_shown", order["reason"] and order["reason"] in text("play-reason"),
          text("play-reason"))
    if order.get("runner_up"):
        check("runner_up_shown", order["runner_up"]["sentence"] in text("play-runner"),
              text("play-runner"))
    if any(n.get("p") for n in order.get("needs") or []):
        check("needs_with_chances", "%" in text("play-needs"), text("play-needs"))
    check("ai_orders_hidden_after", waits(lambda b: not b.find_element(By.ID, "play-ai")
                                          .is_displayed(), 5))
    check("no_wider_than_a_phone",
          drv.execute_script("return document.documentElement.scrollWidth") <= 360)
    small = drv.execute_script(
        "return [...document.querySelectorAll('#play button, #play select, #play input')]"
        ".filter((e) => e.offsetParent && e.getBoundingClientRect().height < 48).length")
    check("touch_targets_48px", small == 0, small)
    drv.execute_script("document.getElementById('play').scrollIntoView()")
    drv.save_screenshot(os.path.join(artefacts, "play-360.png"))

    # a game of another ruleset (the test-only duel, when built): its table side's moves
    hello = u.rpc("hello", {"client": "table"})
    if "duel" in hello.get("rulesets", []):
        duel = u.rpc("game.new", {"ruleset": "duel", "seed": 3})["game"]
        ds = u.rpc("game.state", {"game": duel})
        check("duel_opened", open_game(duel, ds["log_seq"]))
        moves = drv.find_elements(By.CSS_SELECTOR, "#play-moves button.move")
        want = len(ds["legal"]) if ds["legal"] else len(ds["outcomes"]) + 1
        check("duel_moves_offered", len(moves) == want and want > 0, (len(moves), ds["to_move"]))
        check("duel_no_undo_yet", not drv.find_element(By.ID, "play-undo-box").is_displayed())
        if moves:
            moves[-1].click()
            check("duel_move_from_the_page", waits(lambda b: shown_seq() > ds["log_seq"], 10),
                  drv.find_element(By.ID, "play-moves").text)
        # issue 19: the page's Undo takes a duel game's move back
        check("duel_undo_offered",
              waits(lambda b: b.find_element(By.ID, "play-undo-box").is_displayed(), 5))
        drv.find_element(By.ID, "play-undo").click()
        check("duel_undo_from_the_page", waits(lambda b: shown_seq() == ds["log_seq"] + 2, 10),
              text("play-undo-error"))
        du = u.rpc("game.state", {"game": duel})
        check("duel_move_gone", du["hash"] == ds["hash"] and du["legal"] == ds["legal"] and
              du["to_move"] == ds["to_move"] and not du["can_undo"], du["log_seq"])
        check("duel_undo_hidden_again", waits(lambda b: not b.find_element(
            By.ID, "play-undo-box").is_displayed(), 5))

    # a Splendid game: each unit menu offers what the rules allow now (game.state's values)
    sv = u.rpc("game.new", {"ruleset": "splendid", "scenario": "encounter", "seed": 7,
                            "level": "novice"})["game"]
    ss = u.rpc("game.state", {"game": sv})
    check("splendid_opened", open_game(sv, ss["log_seq"]))

    def menu(form, field):
        report_form(form)
        sel = Select(drv.find_element(By.ID, f"pr-{form}-{field}"))
        return [o.get_attribute("value") for o in sel.options if o.get_attribute("value")]

    def allowed(st, form, field):
        f = next(f for f in st["reports"] if f["name"] == form)
        return next(x for x in f["fields"] if x["name"] == field)["values"]

    check("splendid_losses_menu", menu("losses", "unit") == allowed(ss, "losses", "unit")
          and len(allowed(ss, "losses", "unit")) >= 2, menu("losses", "unit"))
    check("splendid_no_charge_before_initiative", menu("charge", "unit") == [] and
          "none allowed now" in drv.find_element(By.ID, "pr-charge-unit").text,
          drv.find_element(By.ID, "pr-charge-unit").text)
    lf = report_form("losses")
    Select(drv.find_element(By.ID, "pr-losses-unit")).select_by_value("Rupert's Horse")
    stands = drv.find_element(By.ID, "pr-losses-stands")
    stands.clear()
    stands.send_keys("2")
    lf.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
    check("splendid_losses_reported", waits(lambda b: shown_seq() > ss["log_seq"], 10),
          lf.find_element(By.CSS_SELECTOR, "p.error").text)

    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 820, "height": 1180, "deviceScaleFactor": 1, "mobile": True})
    drv.set_window_size(820, 1180)
    row = f"#games-list tr[data-game='{gid}'] button"
    drv.find_element(By.ID, "tab-games").click()
    waits(lambda b: b.find_elements(By.CSS_SELECTOR, row), 10)
    drv.find_element(By.CSS_SELECTOR, row).click()
    waits(lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-game") == gid and
          b.find_elements(By.ID, "play-sentence"), 10)
    drv.execute_script("document.getElementById('map').scrollIntoView()")
    check("tablet_order_still_shown", text("play-sentence") == order["sentence"])
    drv.save_screenshot(os.path.join(artefacts, "play-tablet.png"))
finally:
    u.close()
    drv.quit()
check("daemon_stops_cleanly", d.stop() == 0)
t.finish("page_play: ")
