# tests/cli/display_drive.py SOCKET ACTION [GAME] — drives opford for tests/cli/display.sh.
#
# A stock MessagePack-RPC client (python3-msgpack). Actions:
#   order       new game (fixed seed), then press the initiative and report player activations
#               until the enemy holds it, then ask for its orders; prints the game id and the
#               order sentence on one line each
#   press GAME  one more press of the initiative button (reporting the pending order or
#               activation first when the rules ask for it); prints the kinds of the events
#   duel        a game of the test-only dice duel (another ruleset than the table engine's):
#               new game (fixed seed), the table plays its first legal action and rolls a
#               fixed outcome until the AI is to move, then asks for its orders; prints the
#               game id and the order sentence, or "SKIP" when opford has no duel
#   splendid    a game of A Splendid Victory! (its built-in encounter, fixed seed): the daemon
#               rolls, the table takes its first legal action until the AI is to move, then
#               asks for its orders; prints the game id and the order sentence
#   png FILE    prints WIDTHxHEIGHT of a PNG file (IHDR), or fails
#   golden FILE GOLDEN
#               compares an emulator frame with a golden PNG the way
#               tests/display/test_display_render.c does for text: the black pixels of the
#               header bar, the text column and the mini-map each within 3% (at least 12
#               pixels) of the golden's, the whole frame within 2%; prints the counts, fails
#               on a mismatch. OPFOR_UPDATE_GOLDEN=1 writes the golden instead.
import os
import shutil
import socket
import struct
import sys
import zlib

import msgpack


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise SystemExit(f"{path}: not a PNG file")
    w, h = struct.unpack(">II", head[16:24])
    return w, h


def png_gray(path):
    """Width, height and rows of grey levels of a PNG (8-bit greyscale, as the emulator
    writes them)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG file")
    i, idat, w, h = 8, b"", 0, 0
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        body = data[i + 8:i + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype != 0:
                raise SystemExit(f"{path}: not 8-bit greyscale (depth {depth}, type {ctype})")
        elif kind == b"IDAT":
            idat += body
        i += 12 + n
    raw = zlib.decompress(idat)
    rows, prev, o = [], bytearray(w), 0
    for _ in range(h):
        f, line = raw[o], bytearray(raw[o + 1:o + 1 + w])
        o += 1 + w
        for x in range(w):
            a = line[x - 1] if x else 0
            b = prev[x]
            c = prev[x - 1] if x else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows


def black(rows, x0, y0, x1, y1):
    return sum(1 for y in range(y0, y1) for x in range(x0, x1) if rows[y][x] < 128)


def golden(frame, gold):
    if os.environ.get("OPFOR_UPDATE_GOLDEN") == "1":
        shutil.copyfile(frame, gold)
        print(f"wrote {gold}")
        return
    w, h, got = png_gray(frame)
    gw, gh, want = png_gray(gold)
    if (w, h) != (gw, gh):
        raise SystemExit(f"{frame}: {w}x{h}, golden {gold} is {gw}x{gh}")
    hdr, col = h // 10, w * 42 // 100  # the large card's header bar and text column
    regions = [("header", 0, 0, w, hdr, 3), ("text column", 0, hdr, col, h, 3),
               ("mini-map", col, hdr, w, h, 3), ("frame", 0, 0, w, h, 2)]
    bad = []
    for name, x0, y0, x1, y1, pct in regions:
        g, k = black(got, x0, y0, x1, y1), black(want, x0, y0, x1, y1)
        tol = max(k * pct // 100, 12)
        print(f"{name}: {g} black pixels, golden {k} (tolerance {tol})")
        if abs(g - k) > tol:
            bad.append(name)
    if bad:
        raise SystemExit(f"{frame} differs from {gold} in: {', '.join(bad)}")


class Client:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.settimeout(30)
        self.s.connect(path)
        self.up = msgpack.Unpacker(raw=False)
        self.id = 0
        self.events = []

    def call(self, method, params=None):
        self.id += 1
        self.s.sendall(msgpack.packb([0, self.id, method, [params or {}]]))
        while True:
            for msg in self.up:
                if msg[0] == 1 and msg[1] == self.id:
                    return msg[2], msg[3]
                if msg[0] == 2 and msg[1] == "event":
                    self.events.append(msg[2][0]["kind"])
            data = self.s.recv(1 << 20)
            if not data:
                raise SystemExit(f"{method}: the daemon closed the connection")
            self.up.feed(data)

    def ok(self, method, params=None):
        err, res = self.call(method, params)
        if err:
            raise SystemExit(f"{method}: {err}")
        return res


def step(c, gid):
    """Makes one activation happen; returns the state after it."""
    st = c.ok("game.state", {"game": gid})
    if st["pending"] == "player" and st["ready"]:
        c.ok("report", {"game": gid, "acted": st["ready"][0]})
    elif st["pending"] == "enemy":
        order = st.get("order")
        if not order or order.get("resolved") or order.get("turn") != st["turn"]:
            c.ok("ai.orders", {"game": gid})
        else:
            err, _ = c.call("report", {"game": gid, "acted": order["unit"]})
            if err:
                c.ok("patrol.initiative", {"game": gid})
    else:
        c.ok("patrol.initiative", {"game": gid})
    return c.ok("game.state", {"game": gid})


def main():
    if sys.argv[1] == "golden":
        golden(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "png":
        w, h = png_size(sys.argv[2])
        print(f"{w}x{h}")
        return
    c = Client(sys.argv[1])
    c.ok("hello", {"client": "display-test"})
    if sys.argv[2] == "order":
        gid = c.ok("game.new", {"seed": 7})["game"]
        c.ok("subscribe", {"game": gid})
        for _ in range(40):
            st = c.ok("game.state", {"game": gid})
            if st["pending"] == "enemy":
                o = c.ok("ai.orders", {"game": gid})
                print(gid)
                print(o["sentence"])
                return
            if st["pending"] == "player" and st["ready"]:
                c.ok("report", {"game": gid, "acted": st["ready"][0]})
            else:
                c.ok("patrol.initiative", {"game": gid})
        raise SystemExit("the enemy never got the initiative in 40 steps")
    if sys.argv[2] == "duel":
        hello = c.ok("hello", {"client": "display-test", "api_level": 4})
        if "duel" not in hello.get("rulesets", []):
            print("SKIP")
            return
        gid = c.ok("game.new", {"ruleset": "duel", "seed": 2, "level": "novice"})["game"]
        for _ in range(40):
            st = c.ok("game.state", {"game": gid})
            if st["to_move"] == st["ai_side"]:
                o = c.ok("ai.orders", {"game": gid})
                print(gid)
                print(o["sentence"])
                return
            if st["to_move"] == "chance":
                c.ok("game.roll", {"game": gid, "outcome": 3})
            else:
                c.ok("game.act", {"game": gid, "action": st["legal"][0]})
        raise SystemExit("the AI was never to move in 40 steps")
    if sys.argv[2] == "splendid":
        gid = c.ok("game.new", {"ruleset": "splendid", "scenario": "encounter", "seed": 3,
                                "level": "novice"})["game"]
        for _ in range(200):
            st = c.ok("game.state", {"game": gid})
            if st["to_move"] == st["ai_side"]:
                o = c.ok("ai.orders", {"game": gid})
                print(gid)
                print(o["sentence"])
                return
            if st["to_move"] == "chance":
                c.ok("game.roll", {"game": gid})
            else:
                c.ok("game.act", {"game": gid, "action": st["legal"][0]})
        raise SystemExit("the AI was never to move in 200 steps")
    if sys.argv[2] == "press":
        gid = sys.argv[3]
        c.ok("subscribe", {"game": gid})
        for _ in range(6):
            before = len(c.events)
            step(c, gid)
            if len(c.events) > before:
                print(" ".join(c.events))
                return
        raise SystemExit("no event after 6 steps")
    raise SystemExit(f"unknown action {sys.argv[2]}")


if __name__ == "__main__":
    main()
