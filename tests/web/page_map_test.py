"""tests/web/page_map_test.py BIN_DIR WORKDIR ARTEFACTS -- the table page's map (io/web/map.js)
in headless Chromium (Debian's chromium, chromium-driver, python3-selenium). A Unix client
starts a competitive and a Patrol Mode game (seed 5, AI level novice); the page opens each
from the games list and draws game.state's `scene` as SVG: one unit element per unit of the
scene the test reads itself, with the same ids, the AI's units marked; after a press and the
AI's order the acting unit is ringed and the order's arrows drawn as the scene has them; after
a report the reported unit stands elsewhere on the map; a unit placed after a spotting is
dashed and has its placement arrow; a tap names a unit; the command radii
show on demand; nothing is wider than a 360 px phone. Screenshots (360 px and a tablet's
820 px) go to ARTEFACTS.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from opford_lib import Client  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

bin_dir, work, artefacts, t = browser.args()
check = t.check

d, url = browser.loopback_page(t, bin_dir, work, "map")

drv = browser.chromium(f"{work}/chromium")


def text(i):
    return browser.text(drv, i)


def waits(cond, secs=15):
    return browser.wait_for(drv, cond, secs)


def drawn():
    return int(browser.attr(drv, "#map-svg", "data-drawn") or 0)


def svg_units():
    """The map's unit elements as {id: (classes, transform)}, read in one go (the map may be
    drawn again at any moment)."""
    rows = drv.execute_script(
        "return [...document.querySelectorAll('#map-svg .unit')].map((g) =>"
        " [g.dataset.id, g.getAttribute('class'), g.getAttribute('transform')])")
    return {int(i): (c, tr) for i, c, tr in rows}


def open_game(gid):
    """Opens game gid from the page's list and waits for its map."""
    before = drawn()
    drv.find_element(By.ID, "tab-games").click()  # lists the games again
    row = f"#games-list tr[data-game='{gid}'] button"
    waits(lambda b: b.find_elements(By.CSS_SELECTOR, row), 10)
    browser.click(drv, row)
    return waits(lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-game") == gid
                 and drawn() > before)


def shot(name):
    drv.execute_script("document.getElementById('map').scrollIntoView()")
    drv.save_screenshot(os.path.join(artefacts, name))


u = Client(d.sock, timeout=30)
try:
    browser.phone(drv)
    u.rpc("hello", {"client": "table"})
    comp = u.rpc("game.new", {"ruleset": "viktoria", "scenario": "competitive_default",
                              "mode": "competitive", "seed": 5, "level": "novice"})["game"]
    drv.get(url)
    check("page_ready", waits(lambda b: b.find_element(By.TAG_NAME, "body")
                              .get_attribute("data-ready") == "1"))
    drv.find_element(By.ID, "tab-games").click()
    check("map_drawn", open_game(comp), text("games-error"))

    # one unit element per unit of the scene, the same ids, the AI's side marked
    sc = u.rpc("game.state", {"game": comp})["scene"]
    units = svg_units()
    check("scene_has_units", len(sc["units"]) >= 4, len(sc["units"]))
    check("one_element_per_scene_unit", len(units) == len(sc["units"]) and
          set(units) == {x["id"] for x in sc["units"]}, (sorted(units), sc["units"]))
    ai_ids = {x["id"] for x in sc["units"] if x["flags"] & 1}
    check("ai_units_marked", ai_ids and {i for i, v in units.items() if " ai" in v[0]} == ai_ids,
          units)
    check("terrain_drawn", len(drv.find_elements(By.CSS_SELECTOR, "#map-svg .shape")) ==
          len(sc["shapes"]), len(sc["shapes"]))
    view = drv.execute_script("return document.getElementById('map-svg').getAttribute('viewBox')")
    check("viewbox_is_the_table", view == f"0 0 {sc['width']:g} {sc['depth']:g}", view)
    check("no_wider_than_a_phone",
          drv.execute_script("return document.documentElement.scrollWidth") <= 360 and
          drv.find_element(By.ID, "map-svg").size["width"] <= 360)

    # the command radii: hidden until asked for
    zones = drv.find_element(By.CSS_SELECTOR, "#map-svg .zones")
    check("zones_hidden_at_first", not zones.is_displayed())
    drv.find_element(By.ID, "map-zones").click()
    check("zones_on_demand", waits(lambda b: b.find_element(By.CSS_SELECTOR, "#map-svg .zones")
                                   .is_displayed(), 5))

    # a press and the AI's order: the map changes live (acting unit ringed, arrows drawn)
    n = drawn()
    u.rpc("viktoria.initiative", {"game": comp})
    st = u.rpc("game.state", {"game": comp})
    check("ai_holds_the_initiative", st["pending"] == "enemy", st["pending"])
    u.rpc("ai.orders", {"game": comp})
    sc2 = u.rpc("game.state", {"game": comp})["scene"]
    acting = [x for x in sc2["units"] if x["flags"] & 2]
    check("scene_has_an_acting_unit", len(acting) == 1, sc2["units"])
    check("map_follows_the_order", waits(lambda b: drawn() > n and
                                         len(b.find_elements(By.CSS_SELECTOR, "#map-svg .unit.acting")) == 1))
    if acting:
        gid = browser.attr(drv, "#map-svg .unit.acting", "data-id")
        check("acting_is_the_scenes", gid is not None and int(gid) == acting[0]["id"], gid)
    arrows = drv.find_elements(By.CSS_SELECTOR, "#map-svg .arrow")
    check("order_arrows_drawn", len(arrows) == len(sc2["arrows"]) and len(arrows) >= 1,
          (len(arrows), sc2["arrows"]))
    shot("map-360.png")

    # a tap on the acting unit names it
    if acting:
        browser.click(drv, "#map-svg .unit.acting")
        check("tap_names_the_unit", waits(lambda b: acting[0]["name"] in text("map-info") and
                                          "acting now" in text("map-info"), 5), text("map-info"))

    # Patrol Mode: a report moves a unit on the map
    pat = u.rpc("game.new", {"ruleset": "viktoria", "scenario": "patrol_default",
                             "mode": "patrol", "seed": 5, "level": "novice"})["game"]
    check("patrol_map_drawn", open_game(pat), text("games-error"))
    sc3 = u.rpc("game.state", {"game": pat})["scene"]
    check("patrol_one_element_per_unit", set(svg_units()) == {x["id"] for x in sc3["units"]},
          (svg_units(), sc3["units"]))
    u.rpc("viktoria.initiative", {"game": pat})
    st = u.rpc("game.state", {"game": pat})
    check("players_hold_the_initiative", st["pending"] == "player" and st["ready"], st["pending"])
    who = next(x for x in st["units"] if x["name"] == st["ready"][0])
    wid = who["index"]
    before = svg_units()[wid][1]
    x = min(who["at"]["x"] + 3.0, st["table"]["width"] - 1)
    y = min(who["at"]["y"] + 4.0, st["table"]["depth"] - 1)
    u.rpc("report", {"game": pat, "acted": who["name"], "at": {"x": x, "y": y}})
    check("report_moves_the_unit_on_the_map",
          waits(lambda b: svg_units().get(wid, ("", before))[1] != before), (before, svg_units()))
    sc4 = u.rpc("game.state", {"game": pat})["scene"]
    at = next(v for v in sc4["units"] if v["id"] == wid)["at"]
    check("moved_where_the_scene_says", f"translate({at[0]:g},{sc4['depth'] - at[1]:g})"
          in svg_units()[wid][1], (at, svg_units()[wid]))

    # play on until a spotting places a unit: it is dashed, with its placement arrow
    spotted = []
    for _ in range(40):
        st = u.rpc("game.state", {"game": pat})
        spotted = [x for x in st["scene"]["units"] if x["flags"] & 8]
        if spotted or st["status"] != "active":
            break
        if st["pending"] == "player" and st["ready"]:
            u.rpc("report", {"game": pat, "acted": st["ready"][0]})
        elif st["pending"] == "enemy" and not (st.get("order") or {}).get("turn") == st["turn"]:
            u.rpc("ai.orders", {"game": pat})
        else:
            u.rpc("viktoria.initiative", {"game": pat})
    check("a_unit_is_spotted", len(spotted) >= 1, st["pending"])
    if spotted:
        sid = spotted[0]["id"]
        check("spotted_unit_dashed_with_its_placement",
              waits(lambda b: "spotted" in svg_units().get(sid, ("", ""))[0] and
                    b.find_elements(By.CSS_SELECTOR, "#map-svg .arrow.a-place")), svg_units())

    # the tablet: the competitive game again, wider
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 820, "height": 1180, "deviceScaleFactor": 1, "mobile": True})
    drv.set_window_size(820, 1180)
    check("tablet_map_drawn", open_game(comp))
    check("tablet_map_wider", drv.find_element(By.ID, "map-svg").size["width"] > 500,
          drv.find_element(By.ID, "map-svg").size)
    shot("map-tablet.png")
finally:
    u.close()
    drv.quit()
check("daemon_stops_cleanly", d.stop() == 0)
t.finish("page_map: ")
