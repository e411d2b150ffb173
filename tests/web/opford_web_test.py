"""tests/web/opford_web_test.py BIN_DIR WORKDIR -- opford's table page transport (io/web.c,
docs/web.md): `--listen http://127.0.0.1:0` picks a port and logs it; the page's files come over
HTTP; a WebSocket whose binary messages are MessagePack-RPC frames answers exactly as the Unix
socket does (calc against `opfor calc --json`, errors, subscriptions' events); a malformed
message (bad bytes, two frames in one message, a text message, one over the frame limit) closes
that connection only; an upgrade from another site's Origin is refused; beyond loopback the
game master's and the players' tokens (printed links, kept across restarts) are needed, and the
players' link opens the calculator and the games but not game.new (players_view_test.py has
the players' view itself). The WebSocket client is tests/web/ws_client.py.
"""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import msgpack  # noqa: E402
from opford_lib import Checks, Client, Daemon  # noqa: E402
from ws_client import Ws  # noqa: E402

bin_dir, work = sys.argv[1], sys.argv[2]
opford = os.path.join(bin_dir, "opford")
opfor = os.path.join(bin_dir, "opfor")
t = Checks(detail_max=400)
check = t.check


def closes_after_error(ws):
    """True when the server sends the `error` notification (-32700) and then closes."""
    op, p = ws.recv_msg()
    if op != 2:
        return False, f"first message opcode {op}"
    m = msgpack.unpackb(p, raw=False)
    ok = m[0] == 2 and m[1] == "error" and m[2][0]["code"] == -32700
    rest = ws.recv_msg()
    while rest[0] not in (None, 8):  # a close frame or EOF must follow
        rest = ws.recv_msg()
    return ok, m


d = Daemon(opford, work, "web", ["--listen", "http://127.0.0.1:0"])
check("daemon_started", d.ready, d.logtext())
m = d.wait_log(r"table page: http://127\.0\.0\.1:(\d+)/")
check("port_0_picked_and_logged", m is not None and int(m.group(1)) > 0, d.logtext())
port = int(m.group(1))
base = f"http://127.0.0.1:{port}"

# --- the page's files over HTTP
with urllib.request.urlopen(base + "/", timeout=10) as resp:
    page = resp.read().decode()
    check("index_served", resp.status == 200 and "app.js" in page and "msgpack.min.js" in page,
          page[:200])
    check("index_is_html", resp.headers["content-type"].startswith("text/html"),
          resp.headers["content-type"])
for f in ("/app.js", "/style.css", "/msgpack.min.js"):
    with urllib.request.urlopen(base + f, timeout=10) as resp:
        body = resp.read()
        check(f"served {f}", resp.status == 200 and len(body) > 100, len(body))
with urllib.request.urlopen(base + "/msgpack.min.js", timeout=10) as resp:
    check("msgpack_bundle_is_the_npm_package", b"MessagePack" in resp.read())
try:
    urllib.request.urlopen(base + "/no-such-file", timeout=10)
    check("unknown_path_404", False, "answered 200")
except urllib.error.HTTPError as e:
    check("unknown_path_404", e.code == 404, e.code)

# --- one WebSocket answers like the Unix socket
ws = Ws(port)
check("ws_upgrade", ws.status == 101, ws.status)
err, hello = ws.call("hello", {"client": "web-test", "api_level": 5})
check("ws_hello", err is None and hello["server"] == "opford", (err, hello))
u = Client(d.sock, timeout=10)
u.rpc("hello", {"client": "unix-test"})
params = {"ruleset": "viktoria", "action": "fire_rifle",
          "fields": {"actor": "veteran", "range": 20}, "schema": True}
err, wres = ws.call("calc", params)
check("ws_calc_answers", err is None, err)
ures = u.rpc("calc", params)
check("ws_calc_same_as_unix", wres == ures)
cli = json.loads(subprocess.run([opfor, "calc", "viktoria", "fire_rifle", "--actor", "veteran",
                                 "--range", "20", "--json"], capture_output=True, text=True,
                                timeout=20).stdout)
same = len(wres["rolls"]) == len(cli["rolls"]) and all(
    a["need"] == b["need"] and abs(a["p_exact"] - b["p_exact"]) < 1e-9  # --json keeps 10 places
    for a, b in zip(wres["rolls"], cli["rolls"]))
check("ws_calc_same_as_opfor_calc", same and wres["needed"] == "3+",
      (wres.get("needed"), wres.get("rolls", [None])[0], cli["rolls"][0]))
err, _ = ws.call("calc", {"action": "no_such_action"})
check("ws_error_answer_keeps_connection", err is not None and err[0] == -32602, err)
err, lst = ws.call("calc.list", {})
check("ws_calc_list", err is None and lst["actions"], err)

# --- events of a subscription arrive as binary messages
g = u.rpc("game.new", {"seed": 3, "id": "webev"})
err, sub = ws.call("subscribe", {"game": "webev"})
check("ws_subscribe", err is None and sub["subscribed"], err)
u.rpc("game.close", {"game": "webev"})
err, _ = ws.call("ping", {})
kinds = [n[2][0]["kind"] for n in ws.notes if n[1] == "event"]
check("ws_event_pushed", "closed" in kinds, ws.notes)

# --- malformed messages close that connection only
bad = Ws(port)
bad.send_frame(2, b"\xc1")
ok, m = closes_after_error(bad)
check("bad_bytes_close_with_error", ok, m)
two = Ws(port)
two.send_frame(2, msgpack.packb([0, 1, "ping", [{}]]) * 2)
ok, m = closes_after_error(two)
check("two_frames_in_one_message_close", ok, m)
txt = Ws(port)
txt.send_frame(1, b'[0,1,"ping",[{}]]')
ok, m = closes_after_error(txt)
check("text_message_closes", ok, m)
big = Ws(port)
big.send_frame(2, msgpack.packb([0, 1, "ping", [{"data": b"x" * (1 << 20)}]]))
ok, m = closes_after_error(big)
check("message_over_frame_limit_closes", ok, m)
# a message in two fragments is one frame
frag = Ws(port)
p = msgpack.packb([0, 9, "ping", [{"data": 7}]])
frag.send_frame(2, p[:5], fin=False)
frag.send_frame(0, p[5:])
err, res = frag.wait(9)
check("fragmented_message_is_one_frame", err is None and res.get("data") == 7, (err, res))
err, res = ws.call("ping", {"data": 1})
check("other_ws_unaffected", err is None and res["data"] == 1, (err, res))
check("unix_client_unaffected", u.rpc("ping", {"data": 2})["data"] == 2)

# --- Origin: this page's own is let in, another site's is refused
own = Ws(port, origin=base)
check("own_origin_upgrades", own.status == 101, own.status)
evil = Ws(port, origin="http://evil.example")
check("foreign_origin_refused", evil.status != 101, evil.status)
for c in (ws, bad, two, txt, big, frag, own, evil):
    c.close()
u.close()

check("daemon_survived", d.alive())
rc = d.stop()
check("daemon_stops_cleanly", rc == 0, rc)
check("log_names_the_ws_sessions", re.search(r"web 127\.0\.0\.1#\d+: connected", d.logtext())
      is not None, d.logtext()[-600:])
# --- beyond loopback: the two links' tokens (made once, kept in the state directory)
def links(daemon):
    """(gm token, players' token, port) from the last links the daemon printed."""
    gm = re.findall(r"game master's link: http://[^/]+:(\d+)/#t=([0-9a-f]+)", daemon.logtext())
    pl = re.findall(r"players' link: http://[^/]+/#t=([0-9a-f]+)",
                    daemon.logtext())
    return (gm[-1][1], pl[-1], int(gm[-1][0])) if gm and pl else (None, None, None)


w = Daemon(opford, work, "wide", ["--listen", "http://0.0.0.0:0"])
check("wildcard_address_starts", w.ready and w.wait_log(r"players' link") is not None,
      w.logtext())
gm, pl, wport = links(w)
check("links_printed_with_tokens", gm and pl and gm != pl, (gm, pl))
tok_file = os.path.join(w.state, "web-tokens")
check("tokens_file_0600", os.path.exists(tok_file) and os.stat(tok_file).st_mode & 0o077 == 0,
      oct(os.stat(tok_file).st_mode) if os.path.exists(tok_file) else "missing")
a = Ws(wport)
err, _ = a.call("calc.list", {})
check("token_required_before_hello", isinstance(err, list) and err[0] == 1, err)
err, _ = a.call("hello", {"client": "t"})
check("hello_without_token_refused", isinstance(err, list) and err[0] == 1, err)
check("then_closed", a.recv_msg()[0] in (None, 8))
b = Ws(wport)
err, _ = b.call("hello", {"token": "0" * 32})
check("wrong_token_refused", isinstance(err, list) and err[0] == 1, err)
p_ws = Ws(wport, origin=f"http://127.0.0.1:{wport}")
err, _ = p_ws.call("hello", {"token": pl})
check("players_link_hello", err is None, err)
err, res = p_ws.call("calc", params)
check("players_link_calc", err is None and res["needed"] == "3+", err)
err, _ = p_ws.call("game.list", {})
check("players_link_lists_games", err is None, err)
err, _ = p_ws.call("game.new", {})
check("players_link_starts_no_game", isinstance(err, list) and err[0] == 1 and
      "players' link" in err[1], err)
err, _ = p_ws.call("ping", {})
check("players_link_stays_open", err is None, err)
g_ws = Ws(wport)
err, _ = g_ws.call("hello", {"token": gm})
check("gm_link_hello", err is None, err)
err, res = g_ws.call("game.list", {})
check("gm_link_everything", err is None and "games" in res, err)
for c in (a, b, p_ws, g_ws):
    c.close()
check("wide_daemon_stops", w.stop() == 0)
w.start()
gm2, pl2, _ = links(w)
check("tokens_survive_a_restart", w.ready and (gm2, pl2) == (gm, pl), (gm2, pl2))
w.stop()

# --- max-clients counts WebSocket sessions like any other connection
f = Daemon(opford, work, "few", ["--listen", "http://127.0.0.1:0", "--max-clients", "1"])
fm = f.wait_log(r"table page: http://127\.0\.0\.1:(\d+)/")
for _ in range(50):  # the readiness probe's own connection may still be counted for a moment
    one = Ws(int(fm.group(1)))
    err, _ = one.call("hello", {})
    if err is None:
        break
    one.close()
    time.sleep(0.1)
check("first_session_served", err is None, err)
two_ = Ws(int(fm.group(1)))
op, p2 = two_.recv_msg()
m2 = msgpack.unpackb(p2, raw=False) if op == 2 else None
check("over_max_clients_told_why", m2 is not None and m2[1] == "error" and
      "too many connections" in m2[2][0]["message"], (op, m2))
check("then_closed_too", two_.recv_msg()[0] in (None, 8))
err, res = one.call("ping", {"data": 3})
check("first_session_unaffected", err is None and res["data"] == 3, err)
one.close()
two_.close()
check("few_daemon_stops", f.stop() == 0)

# --- `make run` (tools/run.sh) serves the page too and prints where
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
env = dict(os.environ, OPFOR_BIN=bin_dir, XDG_STATE_HOME=os.path.join(work, "run-state"),
           HOME=os.path.join(work, "run-home"), OPFOR_WEB="")
r = subprocess.run(["bash", os.path.join(src, "tools", "run.sh"), "unused"], input="q\n",
                   capture_output=True, text=True, env=env, timeout=60)
m = re.search(r"The table page \(calculator\): http://127\.0\.0\.1:(\d+)/", r.stdout)
check("make_run_prints_the_page", m is not None and int(m.group(1)) > 0, r.stdout[-400:])
t.finish("opford_web: ")
