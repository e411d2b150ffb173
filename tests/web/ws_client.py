"""tests/web/ws_client.py -- a WebSocket client for opford's table page in a few lines (RFC
6455, client side; tests/web/opford_web_test.py, players_view_test.py): MessagePack-RPC calls over
binary messages, the notifications met on the way kept in `notes`.
"""
import base64
import os
import socket
import struct

import msgpack


class Ws:
    """A WebSocket client on 127.0.0.1:port; recv_msg() returns (opcode, payload)."""

    def __init__(self, port, origin=None, timeout=10.0):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        hdr = (f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               "Sec-WebSocket-Version: 13\r\n")
        if origin:
            hdr += f"Origin: {origin}\r\n"
        self.s.sendall((hdr + "\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            d = self.s.recv(4096)
            if not d:
                break
            self.buf += d
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
        self.next_id = 1

    def send_frame(self, opcode, payload, fin=True):
        b0 = (0x80 if fin else 0) | opcode
        n = len(payload)
        if n < 126:
            h = struct.pack("!BB", b0, 0x80 | n)
        elif n < 65536:
            h = struct.pack("!BBH", b0, 0x80 | 126, n)
        else:
            h = struct.pack("!BBQ", b0, 0x80 | 127, n)
        mask = os.urandom(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if n < 65536 else \
            (int.from_bytes(payload, "big") ^ int.from_bytes((mask * (n // 4 + 1))[:n], "big")
             ).to_bytes(n, "big")
        self.s.sendall(h + mask + body)

    def need(self, n):
        while len(self.buf) < n:
            d = self.s.recv(1 << 16)
            if not d:
                raise EOFError
            self.buf += d
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv_msg(self):
        """(opcode, payload) of the next message; (None, b"") at EOF."""
        try:
            b0, b1 = self.need(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self.need(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self.need(8))[0]
            return (b0 & 0x0F, self.need(n))
        except (EOFError, ConnectionResetError, socket.timeout):
            return (None, b"")

    def call(self, method, params=None):
        """(error, result) of one request; ("closed", None) when the server hangs up first.
        Notifications met on the way are kept in self.notes."""
        i = self.next_id
        self.next_id += 1
        self.send_frame(2, msgpack.packb([0, i, method, [params or {}]]))
        return self.wait(i)

    def wait(self, i):
        self.notes = getattr(self, "notes", [])
        while True:
            op, p = self.recv_msg()
            if op is None or op == 8:
                return ("closed", None)
            if op != 2:
                return (f"opcode {op}", None)
            m = msgpack.unpackb(p, raw=False, strict_map_key=False)
            if m[0] == 1 and m[1] == i:
                return (m[2], m[3])
            self.notes.append(m)

    def close(self):
        self.s.close()
