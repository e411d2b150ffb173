# tests/cli/display_drive.py SOCKET ACTION [GAME] — drives opford for tests/cli/display.sh.
#
# A stock MessagePack-RPC client (python3-msgpack). Actions:
#   order       new game (fixed seed), then press the initiative and report player activations
#               until the enemy holds it, then ask for its orders; prints the game id and the
#               order sentence on one line each
#   press GAME  one more press of the initiative button (reporting the pending order or
#               activation first when the rules ask for it); prints the kinds of the events
#   png FILE    prints WIDTHxHEIGHT of a PNG file (IHDR), or fails
import socket
import struct
import sys

import msgpack


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise SystemExit(f"{path}: not a PNG file")
    w, h = struct.unpack(">II", head[16:24])
    return w, h


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
