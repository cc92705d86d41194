"""The bridge between the kit and a web page: ``python -m refimpl.page [--within S] TARGET``.

It opens TARGET (a local file or folder, served from 127.0.0.1, or an http(s) URL) in the system's headless
Chromium, waits for the page's protocol object ``window.refimpl`` with a ``handle(request)`` that returns the
answer or a Promise of it (docs/page.md), then reads the protocol's JSON Lines on standard input and writes the
page's answers on standard output, one a line, in order. Requests read together are handed to the page as one
batch (over a socket the page opens to the bridge, channel.py, for a page the bridge serves; else over the
browser's debugging protocol) and answered together, or as they are made while one keeps the page waiting, so
a pipelining kit is not held to one browser round trip a request.

The page's misbehaviour ends the bridge with a line on standard error that says what happened, the page's errors
and the last of its console after it, and exit status 1, which the kit reports as a broken build (exit 3): a page
that throws at load or in ``handle``, never sets its object, navigates away, opens a dialog that would block it,
crashes, or floods its console. A page that hangs is the kit's to notice (the answer's timeout). A request for
anything outside the page's origin is refused (and named on standard error if the page then breaks): nothing
outside the machine is fetched for a local page.

``{"op": "x-refimpl-screenshot", "path": FILE}`` is the bridge's own request, never the page's: a PNG of the page
as it stands (the kit's failure reports).
"""

from __future__ import annotations

import argparse
import json
import os
import select
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlparse

from ..util.browser import FLAGS, BrowserMissing, chromium, playwright
from .channel import Channel, Closed
from .server import Server

STARTED = time.monotonic()  # the bridge's start: its first answer is due within --within seconds of it
CONSOLE_LIMIT = 1_000  # console messages a page may write at load or in answering one request: more is a flood
CONSOLE_BYTES = 4 << 20  # or bytes of console text in the whole run
CONSOLE_KEPT = 50  # messages of one request (or the load) passed on to the bridge; the rest only counted
# Counts the page's console in the page itself, so a flood costs the bridge nothing: ``most`` the messages of the
# busiest request so far, ``since`` those of the current one, ``bytes`` the text of them all.
COUNT_CONSOLE = """(() => {
  const counts = {most: 0, since: 0, bytes: 0, total: 0};
  Object.defineProperty(window, '__refimplConsole', {value: counts});
  for (const level of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table']) {
    const original = console[level] && console[level].bind(console);
    if (!original) continue;
    console[level] = (...args) => {
      counts.total++; counts.since++;
      if (counts.since > counts.most) counts.most = counts.since;
      let text = '';
      try { text = args.map(String).join(' '); } catch (e) { text = '?'; }
      counts.bytes += text.length;
      if (counts.since <= KEPT) original(...args);
    };
  }
})();""".replace("KEPT", str(CONSOLE_KEPT))
SCREENSHOT = "x-refimpl-screenshot"
READY = "() => !!(window.refimpl && typeof window.refimpl.handle === 'function')"
# The requests read together, handed to the page in order; each answer goes back through the binding as soon as
# it is ready (so a page that hangs on one has answered those before it), the last one awaited.
# One request, answered: the answer as JSON text. Throws for a flood or an answer that is no object.
ANSWER = """async (line, flush) => {
  let request;
  try { request = JSON.parse(line); } catch (e) {
    return JSON.stringify({id: null, ok: false, error: {code: 'bad-request', message: 'not JSON'}});
  }
  window.__refimplConsole.since = 0;
  let answer = window.refimpl.handle(request);
  if (answer !== null && typeof answer === 'object' && typeof answer.then === 'function') {
    const waiting = setTimeout(flush, 50);
    answer = await answer;
    clearTimeout(waiting);
  }
  const counts = window.__refimplConsole;
  if (counts.since > LIMIT || counts.bytes > BYTES) throw new Error('refimpl-flood');
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    throw new Error('window.refimpl.handle answered ' + String(JSON.stringify(answer)) + ' to request '
                    + JSON.stringify(request && request.id) + ': an answer is an object');
  }
  return JSON.stringify(answer);
}""".replace("LIMIT", str(CONSOLE_LIMIT)).replace("BYTES", str(CONSOLE_BYTES))
# The requests read together, over the debugging protocol (a page the bridge does not serve): the answers come
# back together when the batch is done; while a request keeps the page waiting longer than a moment, those
# already made go back at once through a binding (so a page that hangs on one has answered those before it).
BATCH = """async (lines) => {
  const ready = [];
  const flush = () => { if (ready.length) window.__refimplAnswer(ready.splice(0).join('\\n')); };
  for (const line of lines) ready.push(await window.__refimplOne(line, flush));
  return [window.__refimplConsole, ready.join('\\n')];
}"""
# The same over the bridge's socket (channel.py), for a page it serves: each message a batch of request lines;
# each reply 'a' + answers made so far (a request is keeping it waiting), 'd' + the console's counts, a newline
# and the rest of the answers (the batch is done), or 't' + what was thrown.
CONNECT = """(url) => new Promise((opened, failed) => {
  const socket = new WebSocket(url);
  let chain = Promise.resolve();
  socket.onmessage = (event) => { chain = chain.then(async () => {
    const ready = [];
    const flush = () => { if (ready.length) socket.send('a' + ready.splice(0).join('\\n')); };
    try {
      for (const line of event.data.split('\\n')) ready.push(await window.__refimplOne(line, flush));
      socket.send('d' + JSON.stringify(window.__refimplConsole) + '\\n' + ready.join('\\n'));
    } catch (error) {
      flush();
      socket.send('t' + String(error && error.message !== undefined ? error.message : error));
    }
  }); };
  socket.onopen = () => opened(true);
  socket.onerror = () => failed(new Error('no socket'));
})"""
CONSOLE = "() => window.__refimplConsole"
FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


class PageBroke(Exception):
    """The page misbehaved: ``cause`` in a line."""


class Bridge:
    """One page, opened and spoken to. ``notes`` keeps what the report shows of it: its errors, the requests it
    was refused, the last of its console."""

    def __init__(self, page: Any, origin: str, channel: Channel | None = None) -> None:
        self.page, self.origin, self.channel = page, origin, channel
        self.errors: list[str] = []
        self.refused: list[str] = []
        self.console: deque[str] = deque(maxlen=20)
        self.counts: dict[str, int] = {"most": 0, "bytes": 0, "total": 0}
        self.ready = False
        self.navigated: str | None = None
        self.dialog: str | None = None
        self.crashed = False
        self.out = sys.stdout.buffer
        page.on("pageerror", lambda error: self.errors.append(_line(str(error))))
        page.on("console", self._console)
        page.on("framenavigated", self._navigated)
        page.on("dialog", self._dialog)
        page.on("crash", lambda _page: setattr(self, "crashed", True))
        page.route("**/*", self._guard)
        page.add_init_script(COUNT_CONSOLE)
        # The batch function, defined before the page's own scripts (an init script: no eval, whatever the page's
        # content security policy), and called over a CDP session of its own: a call of a function the page
        # already holds costs a third of an evaluation that carries its source (bench/page.py).
        for name, function in (("__refimplOne", ANSWER), ("__refimplBatch", BATCH), ("__refimplConnect", CONNECT)):
            page.add_init_script(f"Object.defineProperty(window, '{name}', {{value: {function}}});")
        self.cdp = page.context.new_cdp_session(page)
        page.expose_function("__refimplAnswer", self._answer)

    # --- what the page does ------------------------------------------------------------------------------
    def _console(self, message: Any) -> None:
        self.console.append(_line(f"{message.type}: {message.text}"))

    def _navigated(self, frame: Any) -> None:
        if self.ready and frame == self.page.main_frame:
            self.navigated = frame.url

    def _dialog(self, dialog: Any) -> None:
        self.dialog = _line(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def _guard(self, route: Any) -> None:
        url = route.request.url
        scheme = urlparse(url).scheme
        if scheme in ("data", "blob") or _origin(url) == self.origin:
            route.continue_()
        else:
            if len(self.refused) < 20:
                self.refused.append(_line(url))
                _note(url)
            route.abort("blockedbyclient")

    def _answer(self, text: str) -> None:
        self.out.write(text.encode() + b"\n")

    # --- the protocol ------------------------------------------------------------------------------------
    def open(self, url: str, deadline: float) -> None:
        """Load the page and wait for its protocol object until ``deadline`` (time.monotonic): a page that threw
        while loading and has not set it half a second after its load is broken at once, without the wait. Raises
        PageBroke."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            self.page.goto(url, wait_until="load", timeout=max(0.1, deadline - time.monotonic()) * 1000)
            loaded = time.monotonic()
            while not self.page.evaluate(READY):
                now = time.monotonic()
                if self.errors and now > loaded + 0.5:
                    raise PageBroke(f"the page threw while loading: {self.errors[0]}")
                if now > deadline:
                    raise PageBroke(f"the page did not set window.refimpl with a handle function within "
                                    f"{deadline - loaded:.1f} s of its load ({url})")
                self.page.wait_for_timeout(50)
        except PlaywrightError as exc:
            if self.errors:
                raise PageBroke(f"the page threw while loading: {self.errors[0]}") from None
            if "Timeout" in type(exc).__name__ or "Timeout" in str(exc).split("\n")[0]:
                raise PageBroke(f"the page did not load before the first answer was due ({url})") from None
            raise PageBroke(f"the page could not be opened: {_line(str(exc))}") from None
        self.ready = True
        self.counts = self.page.evaluate(CONSOLE)
        self._healthy()
        if self.channel is not None:
            self._connect(max(0.5, deadline - time.monotonic()))

    def _connect(self, wait: float) -> None:
        """Open the page's socket to the bridge (channel.py); where the page cannot (its content security
        policy), the bridge goes on over the debugging protocol."""
        assert self.channel is not None
        url = self.origin.replace("http", "ws", 1) + self.channel.path
        done = self.cdp.send("Runtime.evaluate", {"expression": f"window.__refimplConnect({json.dumps(url)})",
                                                  "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in done or not self.channel.connected.wait(wait):
            self.channel = None

    def _healthy(self) -> None:
        if self.crashed:
            raise PageBroke("the page crashed")
        if self.navigated is not None:
            raise PageBroke(f"the page navigated away, to {self.navigated}")
        if self.dialog is not None:
            raise PageBroke(f"the page opened a dialog, which would stop it ({self.dialog})")
        if self.counts["most"] > CONSOLE_LIMIT or self.counts["bytes"] > CONSOLE_BYTES:
            raise PageBroke(f"the page flooded its console: {self.counts['most']:,} messages at once (at most "
                            f"{CONSOLE_LIMIT:,}), {self.counts['bytes']:,} characters in all")

    def serve(self, lines: list[bytes]) -> bool:
        """Hand ``lines`` (requests) to the page in order, writing each answer; the bridge's own requests are
        answered here. Returns False once ``quit`` is answered. Raises PageBroke."""
        pending: list[str] = []
        for line in lines:
            request = _peek(line)
            if request is not None and request.get("op") in (SCREENSHOT, "quit"):
                self._run(pending)
                pending = []
                if request["op"] == "quit":
                    self._run([line.decode("utf-8", "replace")])
                    return False
                self.page.evaluate(FRAME)  # what the page draws at its next frame is drawn
                self.page.screenshot(path=str(request.get("path")), full_page=True)
                self._answer(json.dumps({"id": request.get("id"), "ok": True}))
            else:
                pending.append(line.decode("utf-8", "replace"))
        self._run(pending)
        return True

    def _run(self, lines: list[str]) -> None:
        from playwright.sync_api import Error as PlaywrightError

        if not lines:
            return
        self._healthy()
        if self.channel is not None:
            self._over_socket(lines)
            return
        call = {"expression": "window.__refimplBatch(" + json.dumps(lines) + ")", "awaitPromise": True,
                "returnByValue": True}
        try:
            done = self.cdp.send("Runtime.evaluate", call)
        except PlaywrightError as exc:
            done = {"exceptionDetails": {"text": str(exc).split("\n")[0]}}
        thrown = done.get("exceptionDetails")
        if thrown is not None:
            self._thrown(str((thrown.get("exception") or {}).get("description") or thrown.get("text") or ""))
        self.counts, answers = done["result"]["value"]
        if answers:
            self._answer(answers)
        self._healthy()

    def _over_socket(self, lines: list[str]) -> None:
        """``_run`` over the page's socket: the batch sent, its answers written as they come. While the page keeps
        the bridge waiting, the browser's events are looked at every tenth of a second (a dialog, a crash, a
        navigation). Raises PageBroke."""
        assert self.channel is not None
        try:
            self.channel.send("\n".join(lines))
            while True:
                while not self.channel.ready(0.1):
                    self.page.wait_for_timeout(1)  # the browser's events, dispatched
                    self._healthy()
                message = self.channel.receive()
                kind, body = message[:1], message[1:]
                if kind == "a":
                    self._answer(body)
                    self.out.flush()
                elif kind == "d":
                    counts, _, answers = body.partition("\n")
                    self.counts = json.loads(counts)
                    if answers:
                        self._answer(answers)
                    self._healthy()
                    return
                else:
                    self._thrown(body)
        except Closed:
            self.page.wait_for_timeout(50)
            self._healthy()
            raise PageBroke("the page navigated away or closed while answering (its socket to the bridge "
                            "closed)") from None

    def _thrown(self, said: str) -> NoReturn:
        """The page threw while answering (``said``: what). Raises PageBroke with the likeliest cause."""
        self._healthy()  # navigated or crashed: that says more than the lost context
        first = said.split("\n")[0]
        if "refimpl-flood" in first:
            self.counts = self.page.evaluate(CONSOLE)
            self._healthy()
        if "context was destroyed" in first or "navigat" in first or "Cannot find context" in first:
            raise PageBroke("the page navigated away while answering (its script was gone before the answer)")
        raise PageBroke(f"the page threw while answering: {_line(first)}")

    def report(self, cause: str) -> str:
        """What standard error says of a page that broke: the last of its console, its errors, the requests it
        was refused, and the cause last (the kit's report shows the last lines)."""
        out = []
        if self.console:
            total = max(self.counts.get('total', 0), len(self.console))  # (0 when the page broke before it was counted)
            out.append(f"the page's console (last {len(self.console)} of {total:,}):")
            out += [f"  {c}" for c in self.console]
        out += [f"page error: {e}" for e in self.errors[:5]]
        out += [f"refused a request outside the page's origin: {u}" for u in self.refused[:5]]
        out.append(f"refimpl page: {cause}")
        return "\n".join(out) + "\n"


NOTES = "REFIMPL_PAGE_NOTES"  # a file the kit gives: each request refused, a line, for the report's warnings


def _note(url: str) -> None:
    """Add the refused ``url`` to the kit's notes file, if it gave one (a page that conforms is still told)."""
    where = os.environ.get(NOTES)
    if where:
        try:
            with open(where, "a", encoding="utf-8") as notes:
                notes.write(_line(url) + "\n")
        except OSError:
            pass


def _line(text: str, size: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[: size - 1] + "…"


def _origin(url: str) -> str:
    parsed = urlparse(url)
    return f"{parsed.scheme}://{parsed.netloc}"


def _peek(line: bytes) -> dict[str, Any] | None:
    """The request on ``line`` when it may be one the bridge answers itself (quit, a screenshot), else None."""
    if b"quit" not in line and SCREENSHOT.encode() not in line:
        return None
    try:
        request = json.loads(line)
    except ValueError:
        return None
    return request if isinstance(request, dict) else None


def _lines() -> Any:
    """Standard input's requests, a list of the whole lines read together at a time; an empty list at its end."""
    buffer = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            yield []
            return
        buffer += chunk
        while select.select([0], [], [], 0)[0]:  # everything already written: one batch
            more = os.read(0, 1 << 16)
            if not more:
                break
            buffer += more
        *whole, buffer = buffer.split(b"\n")
        if whole:
            yield [w for w in whole if w.strip()]


def _target(target: str) -> tuple[str, str | None]:
    """(the page's URL, the folder to serve or None) of a resolved target (refimpl.page.resolve)."""
    if urlparse(target).scheme in ("http", "https"):
        return target, None
    path = Path(target)
    folder, name = (path, "index.html") if path.is_dir() else (path.parent, path.name)
    return name, str(folder)


def run(target: str, deadline: float) -> int:
    """Bridge the page at ``target`` until standard input ends or ``quit``; the page must be ready by
    ``deadline`` (time.monotonic). Returns the exit status."""
    url, folder = _target(target)
    channel = Channel() if folder is not None else None  # a page the bridge serves gets the socket
    server = Server(folder, channel) if folder is not None else None
    if server is not None:
        url = f"{server.origin}/{url}"
    try:
        with playwright()() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=FLAGS, headless=True)
            try:
                bridge = Bridge(browser.new_page(viewport={"width": 1024, "height": 768}), _origin(url), channel)
                try:
                    bridge.open(url, deadline)
                    for lines in _lines():
                        if not lines or not bridge.serve(lines):
                            break
                        bridge.out.flush()
                except PageBroke as exc:
                    bridge.out.flush()
                    sys.stderr.write(bridge.report(str(exc)))
                    return 1
                bridge.out.flush()
                return 0
            finally:
                browser.close()
    finally:
        if channel is not None:
            channel.close()
        if server is not None:
            server.close()


def main(argv: list[str] | None = None) -> int:
    """The bridge's command line. Exit 0 after ``quit`` or at the end of input, 1 when the page broke, 2 when
    the browser is missing."""
    parser = argparse.ArgumentParser(prog="python -m refimpl.page", description=__doc__.split("\n\n")[0])
    parser.add_argument("--within", type=float, default=10.0,
                        help="seconds from the bridge's start by which the page must be ready (the first answer's "
                             "timeout: the bridge keeps half a second of it to say why, if the page is not)")
    parser.add_argument("target", help="a local file or folder (resolved), or an http(s) URL")
    args = parser.parse_args(argv)
    try:
        return run(args.target, STARTED + args.within - 0.5)
    except BrowserMissing as exc:
        sys.stderr.write(f"refimpl page: {exc}\n")
        return 2
    except BrokenPipeError:
        return 0
