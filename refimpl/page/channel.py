"""The page's fast lane to the bridge: one WebSocket on the static server that serves a local page (RFC 6455,
the little of it a browser and this bridge use: text frames, masked from the browser, a close).

Through Chromium's debugging protocol a request costs the bridge some milliseconds a round trip; through a
socket the page opens itself, under one (bench/page.py). The page's side is ``CONNECT`` (bridge.py), which the
bridge runs once the page has set its object; the bridge's side is ``Channel``. Python's standard library has no
WebSocket, and the kit depends on nothing more for this: the handshake and the framing are below."""

from __future__ import annotations

import base64
import hashlib
import secrets
import select
import socket
import struct
import threading
from typing import Any

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455, section 1.3


class Closed(Exception):
    """The page's end of the socket went away (it navigated, crashed or closed it)."""


class Channel:
    """The socket a page connects to at ``path`` (a fresh random one per bridge): ``accept`` is called by the
    static server's handler thread with the upgraded connection; ``send`` and ``receive`` are the bridge's."""

    def __init__(self) -> None:
        self.path = f"/__refimpl__/{secrets.token_hex(8)}"
        self.connected = threading.Event()
        self.sock: socket.socket | None = None
        self._ended = threading.Event()

    # --- the server's side: the handshake ------------------------------------------------------------------
    def accept(self, handler: Any) -> None:
        """Upgrade the request ``handler`` (a BaseHTTPRequestHandler for ``path``) to the WebSocket, once; then
        hold its thread until the bridge ends (the connection is the bridge's from here)."""
        key = handler.headers.get("Sec-WebSocket-Key")
        if key is None or self.connected.is_set():
            handler.send_error(400)
            return
        accept = base64.b64encode(hashlib.sha1((key + _GUID).encode()).digest()).decode()
        handler.send_response(101)
        handler.send_header("Upgrade", "websocket")
        handler.send_header("Connection", "Upgrade")
        handler.send_header("Sec-WebSocket-Accept", accept)
        handler.end_headers()
        handler.wfile.flush()
        handler.close_connection = True
        conn: socket.socket = handler.connection
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = conn
        self.connected.set()
        self._ended.wait()

    def close(self) -> None:
        self._ended.set()

    # --- the bridge's side ---------------------------------------------------------------------------------
    def send(self, text: str) -> None:
        """One text frame to the page. Raises Closed."""
        assert self.sock is not None
        data = text.encode("utf-8")
        n = len(data)
        head = bytes([0x81]) + (bytes([n]) if n < 126 else bytes([126]) + struct.pack(">H", n) if n < 1 << 16
                                else bytes([127]) + struct.pack(">Q", n))
        try:
            self.sock.sendall(head + data)
        except OSError:
            raise Closed() from None

    def ready(self, timeout: float) -> bool:
        """Whether the page has written something within ``timeout`` seconds."""
        assert self.sock is not None
        return bool(select.select([self.sock], [], [], timeout)[0])

    def receive(self) -> str:
        """The page's next message (frames joined until the last). Raises Closed."""
        parts: list[bytes] = []
        while True:
            first, second = self._exact(2)
            n = second & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._exact(8))[0]
            mask = self._exact(4) if second & 0x80 else b""
            data = self._exact(n)
            if mask:
                data = (int.from_bytes(data, "big") ^ int.from_bytes((mask * (n // 4 + 1))[:n], "big")).to_bytes(
                    n, "big")
            opcode = first & 0x0F
            if opcode == 0x8:
                raise Closed()
            if opcode in (0x1, 0x0):
                parts.append(data)
                if first & 0x80:
                    return b"".join(parts).decode("utf-8", "replace")
            # (a ping or a pong: browsers send none unasked; skipped)

    def _exact(self, n: int) -> bytes:
        assert self.sock is not None
        out = bytearray()
        while len(out) < n:
            try:
                chunk = self.sock.recv(n - len(out))
            except OSError:
                raise Closed() from None
            if not chunk:
                raise Closed()
            out += chunk
        return bytes(out)
