"""tests/web/page_two_test.py BIN_DIR WORKDIR ARTEFACTS -- two browser sessions on one game see
each other's changes live (issue 19): two headless Chromiums at 360 px (two devices at the
table, each with its own profile and WebSocket) on loopback. The first starts a game; the
second opens it from its list; a press for the initiative from a third client (the terminal's
Unix socket) shows on both; the first closes the game with its button and the second sees the
`closed` event and status without doing anything. Screenshots of both go to ARTEFACTS.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from opford_lib import Client  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

bin_dir, work, artefacts, t = browser.args()
check = t.check

d, url = browser.loopback_page(t, bin_dir, work, "two")


def device(name):
    """A browser of its own (a second phone at the table: own profile, own WebSocket)."""
    drv = browser.chromium(f"{work}/{name}")
    browser.phone(drv)
    return drv


def text(drv, i):
    return browser.text(drv, i)


def waits(drv, cond, secs=15):
    return browser.wait_for(drv, lambda b: cond(), secs)


def ready(drv):
    drv.get(url)
    ok = waits(drv, lambda: drv.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
               == "1")
    drv.find_element(By.ID, "tab-games").click()
    return ok


a = b = None
try:
    a = device("chromium-a")
    check("first_page_ready", ready(a))
    Select(a.find_element(By.ID, "new-ruleset")).select_by_value("viktoria")
    a.find_element(By.ID, "new-seed").send_keys("7")
    a.find_element(By.ID, "new-start").click()
    check("first_starts_a_game",
          waits(a, lambda: a.find_element(By.TAG_NAME, "body").get_attribute("data-game")),
          text(a, "games-error"))
    gid = a.find_element(By.TAG_NAME, "body").get_attribute("data-game")

    b = device("chromium-b")
    check("second_page_ready", ready(b))
    row = f"#games-list tr[data-game='{gid}']"
    check("second_lists_the_game", waits(b, lambda: b.find_elements(By.CSS_SELECTOR, row)),
          text(b, "games-list"))
    b.find_element(By.CSS_SELECTOR, row + " button").click()
    check("second_opens_it", waits(b, lambda: "active" in text(b, "game-summary")),
          text(b, "game-summary"))
    check("second_follows_the_same_game",
          b.find_element(By.TAG_NAME, "body").get_attribute("data-game") == gid)

    u = Client(d.sock, timeout=10)
    u.rpc("hello", {"client": "table"})
    u.rpc("viktoria.initiative", {"game": gid})
    for name, drv in (("first", a), ("second", b)):
        check(f"{name}_sees_the_press", waits(drv, lambda: "initiative: player" in
                                              text(drv, "game-summary")),
              text(drv, "game-summary"))
    u.close()

    a.find_element(By.ID, "game-close").click()
    check("first_closed_it", waits(a, lambda: "closed" in text(a, "game-summary")),
          text(a, "game-summary"))
    check("second_sees_the_close_live",
          waits(b, lambda: "closed" in text(b, "game-events") and
                "closed" in text(b, "game-summary")),
          (text(b, "game-events"), text(b, "game-summary")))
    a.save_screenshot(os.path.join(artefacts, "two-first-360.png"))
    b.save_screenshot(os.path.join(artefacts, "two-second-360.png"))
finally:
    for drv in (a, b):
        if drv:
            drv.quit()
check("daemon_stops_cleanly", d.stop() == 0)
t.finish("page_two: ")
