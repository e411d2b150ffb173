"""tests/web/page_calc_test.py BIN_DIR WORKDIR ARTEFACTS -- the table page's calculator in a real
browser: Debian's headless Chromium, driven through chromium-driver by python3-selenium, on a
phone-sized screen (360 px, as a phone held in one hand). It opens the players' link opford
prints (the page with its token), picks
an action and fields as a player would, and checks the score needed and the exact chance shown
against `opfor calc --json` (the same code in the terminal), then "I rolled these" against
`opfor calc --rolled`; then the daemon stops and comes back on the same port, and the page
reconnects by itself. Screenshots of the calculator at 360 px and at tablet size go to
ARTEFACTS (looked at, not compared pixel for pixel).
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from opford_lib import Checks, Daemon  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

bin_dir, work, artefacts = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(artefacts, exist_ok=True)
t = Checks(detail_max=400)
check = t.check


def opfor_calc(*args):
    r = subprocess.run([os.path.join(bin_dir, "opfor"), "calc", "viktoria", "fire_rifle",
                        "--json"] + list(args), capture_output=True, text=True, timeout=20)
    return json.loads(r.stdout)


def percent(p):  # as the page writes a chance (io/web/app.js)
    v = p * 100
    return f"{v:.2f} %" if 0 < v < 1 else f"{v:.1f} %"


d = Daemon(os.path.join(bin_dir, "opford"), work, "page", ["--listen", "http://127.0.0.1:0"])
m = d.wait_log(r"players' link: (http://127\.0\.0\.1:\d+/)#t=(\w+)")
check("daemon_serves_the_page", d.ready and m is not None, d.logtext())
url = m.group(1)
players_link = m.group(0).split(": ", 1)[1]  # the page as a player opens it: with the token

drv = browser.chromium(f"{work}/chromium")
try:
    # a phone: 360 css px wide, touch, twice the pixels
    browser.phone(drv)
    drv.get(players_link)
    wait = WebDriverWait(drv, 15)
    wait.until(lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    check("page_connected", drv.find_element(By.ID, "status").text == "connected",
          drv.find_element(By.ID, "status").text)
    check("players_link_said_hello", d.wait_log(r"hello from opfor-web .*players' link")
          is not None, d.logtext()[-500:])
    games = [o.get_attribute("value") for o in
             Select(drv.find_element(By.ID, "calc-ruleset")).options]
    check("games_from_hello", "viktoria" in games, games)
    actions = [o.get_attribute("value") for o in
               Select(drv.find_element(By.ID, "calc-action")).options]
    want = json.loads(subprocess.run([os.path.join(bin_dir, "opfor"), "calc", "viktoria",
                                      "--list", "--json"], capture_output=True, text=True,
                                     timeout=20).stdout)
    check("actions_from_calc_list", actions == [a["name"] for a in want["actions"]],
          (actions, [a["name"] for a in want["actions"]]))

    Select(drv.find_element(By.ID, "calc-action")).select_by_value("fire_rifle")
    wait.until(lambda b: b.find_elements(By.ID, "f-actor"))
    Select(drv.find_element(By.ID, "f-actor")).select_by_value("veteran")
    rng = drv.find_element(By.ID, "f-range")
    rng.clear()
    rng.send_keys("20", Keys.TAB)
    cli = opfor_calc("--actor", "veteran", "--range", "20")
    need = cli["rolls"][0]["need"]
    chance = "exact " + percent(cli["rolls"][0]["p_exact"])
    try:
        wait.until(lambda b: b.find_element(By.ID, "calc-needed").text == need and
                   b.find_element(By.ID, "calc-chance").text == chance)
        ok = True
    except Exception:
        ok = False
    check("score_needed_as_opfor_calc", ok,
          (drv.find_element(By.ID, "calc-needed").text, need,
           drv.find_element(By.ID, "calc-chance").text, chance))
    width = drv.execute_script("return document.documentElement.scrollWidth")
    check("fits_360_px", width <= 360, width)
    drv.execute_script("document.getElementById('calc-answer').scrollIntoView()")
    drv.save_screenshot(os.path.join(artefacts, "calc-360.png"))

    rolled = opfor_calc("--actor", "veteran", "--range", "20", "--rolled", "5")
    box = drv.find_element(By.ID, "calc-dice-in")
    box.send_keys("5", Keys.ENTER)
    try:
        wait.until(lambda b: b.find_element(By.ID, "calc-outcome").text == rolled["outcome"])
        ok = True
    except Exception:
        ok = False
    check("rolled_outcome_as_opfor_calc", ok,
          (drv.find_element(By.ID, "calc-outcome").text, rolled.get("outcome")))
    drv.save_screenshot(os.path.join(artefacts, "calc-360-rolled.png"))

    # the daemon goes away and comes back on the same address: the page reconnects by itself,
    # says hello again and asks for the answer again
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    check("daemon_stops_cleanly", d.stop() == 0)
    try:
        wait.until(lambda b: b.find_element(By.ID, "status").text == "reconnecting…")
        ok = True
    except Exception:
        ok = False
    check("page_sees_the_drop", ok, drv.find_element(By.ID, "status").text)
    drv.execute_script("document.getElementById('calc-needed').textContent = ''")
    d = Daemon(os.path.join(bin_dir, "opford"), work, "page2",
               ["--listen", f"http://127.0.0.1:{port}"])
    check("daemon_back_on_the_same_port", d.ready, d.logtext())
    try:
        wait.until(lambda b: b.find_element(By.ID, "status").text == "connected" and
                   b.find_element(By.TAG_NAME, "body").get_attribute("data-hellos") == "2" and
                   b.find_element(By.ID, "calc-needed").text == need)
        ok = True
    except Exception:
        ok = False
    check("page_reconnects_by_itself", ok,
          (drv.find_element(By.ID, "status").text,
           drv.find_element(By.TAG_NAME, "body").get_attribute("data-hellos"),
           drv.find_element(By.ID, "calc-needed").text))

    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 820, "height": 1180, "deviceScaleFactor": 2, "mobile": True})
    time.sleep(0.3)
    drv.save_screenshot(os.path.join(artefacts, "calc-tablet.png"))
    check("screenshots_written", all(os.path.getsize(os.path.join(artefacts, f)) > 10000 for f in
                                     ("calc-360.png", "calc-360-rolled.png", "calc-tablet.png")))
finally:
    drv.quit()
check("second_daemon_stops_cleanly", d.stop() == 0)
t.finish("page_calc: ")
