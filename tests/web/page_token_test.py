"""tests/web/page_token_test.py BIN_DIR WORKDIR ARTEFACTS -- a wrong token is refused (issue 19),
in headless Chromium at 360 px: opford serves the page on every address (0.0.0.0, where the
WebSocket needs one of the two tokens); the page opened with a wrong token, and with none, says
so, stops reconnecting, and gets nothing from the daemon (no games for the calculator, no RPC
answered, not even one made by hand from the page's own connection); the game master's link,
in the same browser, works. A screenshot of the refusal goes to ARTEFACTS.
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from opford_lib import Checks, Daemon  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

bin_dir, work, artefacts = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(artefacts, exist_ok=True)
t = Checks(detail_max=400)
check = t.check

d = Daemon(os.path.join(bin_dir, "opford"), work, "token", ["--listen", "http://0.0.0.0:0",
                                                            "--log-level", "info"])
m = d.wait_log(r"game master's link: http://[^/]+:(\d+)/#t=([0-9a-f]+)")
check("daemon_serves_the_page", d.ready and m is not None, d.logtext())
port, gm_token = m.group(1), m.group(2)
base = f"http://127.0.0.1:{port}/"  # the wildcard address takes loopback too: tokens still needed
wrong = "0" * len(gm_token)

drv = browser.chromium(f"{work}/chromium")


def text(i):
    return browser.text(drv, i)


def waits(cond, secs=15):
    return browser.wait_for(drv, cond, secs)


def by_hand(method):
    """An RPC made from the page's own connection object: 'answered' or why not."""
    return drv.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "calc.rpc.call(arguments[0], {}).then(() => done('answered'),"
        " (e) => done('refused: ' + (e && e.message)));"
        "setTimeout(() => done('no answer'), 3000);", method)


def refused(link, name, says):
    drv.get("about:blank")  # a change of the fragment alone would not load the page again
    drv.get(link)
    check(f"{name}_says_so", waits(lambda b: says in text("calc-error")), text("calc-error"))
    time.sleep(1.5)  # the page would have reconnected by now (after 0.5 s, then 1 s)
    check(f"{name}_page_not_ready",
          drv.find_element(By.TAG_NAME, "body").get_attribute("data-ready") != "1")
    opts_n = len(drv.find_elements(By.CSS_SELECTOR, "#calc-ruleset option"))
    check(f"{name}_no_calculator", opts_n == 0, opts_n)
    got = by_hand("calc.list")
    check(f"{name}_no_rpc_works", got != "answered", got)


try:
    browser.phone(drv)
    n0 = len(re.findall(r"hello with (?:no|a wrong) token", d.logtext()))
    refused(f"{base}#t={wrong}", "wrong_token", "token is not right")
    drv.save_screenshot(os.path.join(artefacts, "token-refused-360.png"))
    hellos = re.findall(r"hello with (no|a wrong) token", d.logtext())[n0:]
    check("wrong_token_tried_once", hellos == ["a wrong"], hellos)  # no retrying in a loop
    refused(base, "no_token", "Open the page with the link opford printed")

    # the same browser with the game master's link: everything answers
    drv.get("about:blank")
    drv.get(f"{base}#t={gm_token}")
    check("gm_link_ready", waits(lambda b: b.find_element(By.TAG_NAME, "body")
                                 .get_attribute("data-ready") == "1"), text("calc-error"))
    check("gm_link_connected", text("status") == "connected", text("status"))
    opts_n = len(drv.find_elements(By.CSS_SELECTOR, "#calc-ruleset option"))
    check("gm_link_calculator", opts_n > 0, opts_n)
    got = by_hand("game.list")
    check("gm_link_rpc_works", got == "answered", got)
finally:
    drv.quit()
check("daemon_stops_cleanly", d.stop() == 0)
t.finish("page_token: ")
