"""tests/web/browser.py -- what the table page's browser tests share: a headless Chromium
(Debian's chromium and chromium-driver, driven through python3-selenium) in a profile of its
own, a phone's screen for it (360 css px, touch, twice the pixels), waiting for a
condition without raising, the test's arguments and an opford serving the page on loopback.
"""
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from opford_lib import Checks, Daemon  # noqa: E402

# Headless, no sandbox (CI runs as root), and nothing that reaches the network on its own.
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=360,800")


def chromium(profile_dir):
    """A new headless Chromium whose profile lives in profile_dir (one per device)."""
    opts = Options()
    opts.binary_location = "/usr/bin/chromium"
    for a in FLAGS + (f"--user-data-dir={profile_dir}",):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def phone(drv):
    """Shows the page as a phone held in one hand would."""
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 360, "height": 800, "deviceScaleFactor": 2, "mobile": True})


def wait_for(drv, cond, secs=15):
    """True once cond(drv) holds, False when secs pass first."""
    try:
        WebDriverWait(drv, secs).until(cond)
        return True
    except Exception:
        return False


def text(drv, element_id):
    """The text of the element with that id (found again if the page redrew it meanwhile)."""
    for _ in range(5):
        try:
            return drv.find_element(By.ID, element_id).text
        except StaleElementReferenceException:
            continue
    return drv.find_element(By.ID, element_id).text


def attr(drv, css, name):
    """The attribute of the first element matching css, read in one step in the page (a map
    redrawn between finding and reading cannot make it stale); None when nothing matches."""
    return drv.execute_script(
        "const e = document.querySelector(arguments[0]);"
        " return e ? e.getAttribute(arguments[1]) : null", css, name)


def click(drv, css):
    """Clicks the first element matching css, found again if the page redrew it meanwhile."""
    for _ in range(5):
        try:
            drv.find_element(By.CSS_SELECTOR, css).click()
            return
        except StaleElementReferenceException:
            continue
    drv.find_element(By.CSS_SELECTOR, css).click()


def args(detail_max=400):
    """BIN_DIR WORKDIR ARTEFACTS from the command line (ARTEFACTS made) and the test's checks."""
    bin_dir, work, artefacts = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(artefacts, exist_ok=True)
    return bin_dir, work, artefacts, Checks(detail_max=detail_max)


def loopback_page(t, bin_dir, work, name):
    """An opford serving the page on a loopback port of its choosing (no token needed); checked
    as daemon_serves_the_page. Returns the daemon and the page's URL."""
    d = Daemon(os.path.join(bin_dir, "opford"), work, name, ["--listen", "http://127.0.0.1:0"])
    m = d.wait_log(r"table page at (http://127\.0\.0\.1:\d+/)")
    t.check("daemon_serves_the_page", d.ready and m is not None, d.logtext())
    return d, m.group(1) if m else "http://127.0.0.1:1/"
