"""tests/web/page_games_test.py BIN_DIR WORKDIR ARTEFACTS -- the table page's games screen in
headless Chromium at 360 px (Debian's chromium, chromium-driver, python3-selenium): on the game
master's side (loopback, no token) it starts a game from the page, follows it live while
another client (a Unix socket) presses for the initiative and closes it, and lists it closed;
the players' link lists the games without the form to start one. A screenshot goes to ARTEFACTS.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from opford_lib import Client, Daemon  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

bin_dir, work, artefacts, t = browser.args()
check = t.check

d = Daemon(os.path.join(bin_dir, "opford"), work, "games", ["--listen", "http://127.0.0.1:0"])
m = d.wait_log(r"players' link: (http://127\.0\.0\.1:\d+/)#t=(\w+)")
check("daemon_serves_the_page", d.ready and m is not None, d.logtext())
url, players_link = m.group(1), m.group(0).split(": ", 1)[1]

drv = browser.chromium(f"{work}/chromium")


def text(i):
    return browser.text(drv, i)


def waits(cond, secs=15):
    return browser.wait_for(drv, cond, secs)


try:
    browser.phone(drv)
    drv.get(url)
    check("page_ready", waits(lambda b: b.find_element(By.TAG_NAME, "body")
                              .get_attribute("data-ready") == "1"))
    drv.find_element(By.ID, "tab-games").click()
    check("games_screen_shown", drv.find_element(By.ID, "games").is_displayed() and
          not drv.find_element(By.ID, "calc").is_displayed())
    Select(drv.find_element(By.ID, "new-ruleset")).select_by_value("viktoria")
    drv.find_element(By.ID, "new-seed").send_keys("5")
    drv.find_element(By.ID, "new-start").click()
    check("game_started_from_the_page",
          waits(lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-game")),
          text("games-error"))
    gid = drv.find_element(By.TAG_NAME, "body").get_attribute("data-game")
    check("game_summary_active", waits(lambda b: "active" in text("game-summary")),
          text("game-summary"))
    u = Client(d.sock, timeout=10)
    u.rpc("hello", {"client": "table"})
    st = u.rpc("game.state", {"game": gid})
    check("game_is_in_the_daemon", st["game"] == gid and st["seed"] == 5, st.get("seed"))
    u.rpc("viktoria.initiative", {"game": gid})
    check("press_seen_live", waits(lambda b: "initiative" in text("game-events")),
          text("game-events"))
    check("summary_follows", waits(lambda b: "initiative: player" in text("game-summary")),
          text("game-summary"))
    drv.save_screenshot(os.path.join(artefacts, "games-360.png"))
    u.rpc("game.close", {"game": gid})
    check("close_seen_live", waits(lambda b: "closed" in text("game-events") and
                                   "closed" in text("game-summary")),
          (text("game-events"), text("game-summary")))
    row = f"#games-list tr[data-game='{gid}'] .status-cell"
    check("list_shows_it_closed", waits(lambda b: b.find_element(By.CSS_SELECTOR, row).text ==
                                        "closed"))
    u.close()

    # the players' link: the games listed, no form to start one (page_player_test.py has more)
    drv.get(players_link)
    drv.refresh()
    check("players_page_ready", waits(lambda b: b.find_element(By.TAG_NAME, "body")
                                      .get_attribute("data-ready") == "1"))
    drv.find_element(By.ID, "tab-games").click()
    check("players_link_lists_games_without_the_form",
          waits(lambda b: b.find_elements(By.CSS_SELECTOR, f"#games-list tr[data-game='{gid}']"))
          and not drv.find_element(By.ID, "games-new").is_displayed(), text("games-note"))
finally:
    drv.quit()
check("daemon_stops_cleanly", d.stop() == 0)
t.finish("page_games: ")
