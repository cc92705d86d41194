"""The static server a local page is opened from: one folder, on 127.0.0.1, a free port, for the bridge's
life. Module scripts need a server (a browser refuses ``import`` from ``file://``). It also holds the bridge's
socket to the page (channel.py) at a path of its own."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _Quiet(SimpleHTTPRequestHandler):
    """Files of one folder, with the types module scripts need, logging nothing (the bridge's stderr is the
    kit's report of the page)."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript",
                      ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    channel: Any = None  # the bridge's socket (channel.py): its path is upgraded, not served

    def do_GET(self) -> None:
        if self.channel is not None and self.path == self.channel.path:
            self.channel.accept(self)
            return
        super().do_GET()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class Server:
    """``folder`` served at ``origin`` (http://127.0.0.1:PORT) until ``close``."""

    def __init__(self, folder: str, channel: Any = None) -> None:
        handler = type("Handler", (_Quiet,), {"channel": channel})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=folder))
        self.httpd.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="refimpl-page-server", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
