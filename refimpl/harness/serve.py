"""``refimpl serve``: the reference implementation speaking the build protocol (specs/protocol.md).

It is the default build under test and the template for implementers: read a line, answer a line,
flush. ``engines`` swaps in other engine objects (the deliberately wrong builds under tests/ use it).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TextIO

from .. import PROTOCOL_VERSION
from ..games import GAMES, Game, RuleViolation
from ..util import jsonio

MAX_SEED = (1 << 53) - 1  # every JSON parser reads integers up to 2^53 - 1 exactly
MAX_DEPTH = 64  # a request nested deeper is bad-request (specs/protocol.md)
MAX_MESSAGE = 300  # characters of a refusal's message
MAX_REQUEST_LINE = 1 << 20  # bytes of one request line (specs/protocol.md); a longer one is bad-request
Handler = Callable[["Session", dict[str, Any]], dict[str, Any]]


class RequestError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class Session:
    """One connection: the engines on offer and the game in progress."""

    def __init__(self, engines: Mapping[str, Game[Any, Any]], name: str, reuse_views: bool = False) -> None:
        self.engines, self.name = dict(engines), name
        self.game: Game[Any, Any] | None = None
        self.state: Any = None
        self.quitting = False
        self.started: tuple[Any, ...] = ()
        # With reuse_views (refimpl serve, where an answer is written and forgotten), the latest view is kept and
        # answered again while the state is the same object: states are immutable values, so a state request
        # after a rejection, or a second one, costs no rendering. Off for callers that keep the views they get.
        self.reuse_views = reuse_views
        self._shown: tuple[Any, Any, dict[str, Any]] | None = None  # (state, observer, its view)
        # The records of the games that keep statistics (Ludo, LD-STAT-1), over this session's games; a game
        # is counted once: when it ends, or when a start or restart leaves it unfinished.
        self.records: dict[str, dict[str, int]] = {
            n: {k: 0 for k in e.info.statistics} for n, e in self.engines.items() if e.info.statistics}
        self._counting = False  # the game in progress keeps statistics and is not counted yet

    def _count(self, result: str | None) -> None:
        if self._counting and self.game is not None:
            name = self.game.info.name
            self.records[name] = self.game.record(self.records[name], result)
            self._counting = False

    def _begun(self) -> None:
        """A game has begun (start or restart): it will be counted, at once if it is already over."""
        self._counting = bool(self.game is not None and self.game.info.statistics)
        self._ended()

    def _ended(self) -> None:
        if self._counting and self.game is not None:
            result = self.game.outcome(self.state)
            if result is not None:
                self._count(result)

    def _view(self, observer: Any = None) -> dict[str, Any]:
        """The current state's view for ``observer``. Raises RuleViolation for an observer the game refuses."""
        shown = self._shown
        if shown is not None and shown[0] is self.state and shown[1] == observer and type(shown[1]) is type(observer):
            return shown[2]
        view = self.current().view(self.state, observer)
        if self.reuse_views:
            self._shown = (self.state, observer, view)
        return view

    def current(self) -> Game[Any, Any]:
        if self.game is None:
            raise RequestError("no-game", "no game has been started")
        return self.game

    def hello(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"protocol": PROTOCOL_VERSION, "build": {"name": self.name, "version": _version()},
                "games": {n: list(e.info.rulesets) for n, e in self.engines.items()},
                "capabilities": ["legal", "stats"]}

    def start(self, req: dict[str, Any]) -> dict[str, Any]:
        """Start a game. The order of refusals is the protocol's: the form of each field (bad-request),
        then the game and ruleset (unsupported), then a seed or set-up the game cannot use (bad-request).
        A refused start leaves the game in progress as it was."""
        name, ruleset, seed, setup = (_field(req, k) for k in ("game", "ruleset", "seed", "setup"))
        if type(name) is not str or not (ruleset is None or type(ruleset) is str):
            raise RequestError("bad-request", "game is a name and ruleset a name or null")
        if seed is not None and not (type(seed) is int and 0 <= seed <= MAX_SEED):
            raise RequestError("bad-request", f"seed is null or an integer from 0 to 2^53 - 1, got {seed!r}")
        if type(setup) is not dict:
            raise RequestError("bad-request", f"setup is an object, got {setup!r}")
        if name not in self.engines:
            raise RequestError("unsupported", f"no game {name!r}")
        engine = self.engines[name]
        if ruleset is not None and ruleset not in engine.info.rulesets:
            raise RequestError("unsupported", f"no ruleset {ruleset!r} for {name}")
        started = (ruleset, seed, setup)
        try:
            state = engine.new_state(*started)
        except RuleViolation as exc:
            raise RequestError("bad-request", exc.message) from None
        self._count(None)  # the game in progress, if unfinished, is left
        self.state, self.game, self.started = state, engine, started
        self._begun()
        return {"state": self._view()}

    def apply(self, req: dict[str, Any]) -> dict[str, Any]:
        engine = self.current()
        try:
            self.state = engine.apply(self.state, engine.parse_action(_field(req, "action")))
        except RuleViolation as exc:
            return {"ok": False, "rejected": {"code": exc.code, "message": _clip(exc.message)}}
        self._ended()
        return {"state": self._view()}

    def view(self, req: dict[str, Any]) -> dict[str, Any]:
        try:
            return {"state": self._view(req.get("observer"))}
        except RuleViolation as exc:
            raise RequestError("bad-request", exc.message) from None

    def legal(self, req: dict[str, Any]) -> dict[str, Any]:
        engine = self.current()
        try:
            actions = engine.legal_actions(self.state, req.get("observer"))
        except RuleViolation as exc:
            raise RequestError("bad-request", exc.message) from None
        return {"actions": engine.actions_json(actions)}

    def restart(self, req: dict[str, Any]) -> dict[str, Any]:
        """The start state again, from any state: same ruleset, seed and set-up (BL-RESTART-1, LQ-RESTART-1);
        an unfinished game it leaves counts as played only (LD-STAT-1)."""
        engine = self.current()
        self._count(None)
        self.state = engine.new_state(*self.started)  # same ruleset, seed and set-up as start
        self._begun()
        return {"state": self._view()}

    def stats(self, req: dict[str, Any]) -> dict[str, Any]:
        """The records of the games that keep statistics, over this session (capability ``stats``)."""
        return {"stats": {name: dict(record) for name, record in self.records.items()}}

    def quit(self, req: dict[str, Any]) -> dict[str, Any]:
        self.quitting = True
        return {}

    OPS: dict[str, Handler] = {"hello": hello, "start": start, "apply": apply, "state": view,
                               "legal": legal, "restart": restart, "quit": quit, "stats": stats}

    def answer(self, line: str) -> dict[str, Any]:
        """The response to one request line (never raises)."""
        try:
            req = jsonio.loads(line)
        except RecursionError:
            return _error(None, "bad-request", f"JSON nested more than {MAX_DEPTH} deep")
        except ValueError:
            return _error(None, "bad-request", "not JSON")
        if not isinstance(req, dict):
            return _error(None, "bad-request", "a request is a JSON object")
        # Nesting needs an opening bracket per level: only a line with more than MAX_DEPTH of them is measured.
        if line.count("[") + line.count("{") > MAX_DEPTH and _depth(req) > MAX_DEPTH:
            rid = req.get("id")
            return _error(rid if type(rid) is int else None, "bad-request", f"JSON nested more than {MAX_DEPTH} deep")
        return self.handle(req)

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        """The response to one request (never raises)."""
        rid = req.get("id")
        handler = self.OPS.get(req.get("op"))  # type: ignore[arg-type]  # any other op value finds no handler
        if handler is None:
            return _error(rid, "unknown-op", f"unknown op {req.get('op')!r}")
        try:
            body = handler(self, req)
        except RequestError as exc:
            return _error(rid, exc.code, exc.message)
        return {"id": rid, "ok": True, **body}


def _field(req: dict[str, Any], key: str) -> Any:
    if key not in req:
        raise RequestError("bad-request", f"{req.get('op')} needs {key!r}")
    return req[key]


def _error(rid: Any, code: str, message: str) -> dict[str, Any]:
    return {"id": rid, "ok": False, "error": {"code": code, "message": _clip(message)}}


def _clip(message: str) -> str:
    """A message that quotes the request keeps the answer short, however big the request was."""
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + "…"


def _depth(value: Any) -> int:
    """How deeply ``value`` nests arrays and objects (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _version() -> str:
    from .. import __version__

    return __version__


def serve(stdin: TextIO, stdout: TextIO, engines: Mapping[str, Game[Any, Any]] | None = None,
          name: str = "refimpl", session_class: type[Session] = Session) -> None:
    """Answer requests from ``stdin`` on ``stdout`` until ``quit`` or the end of input.

    Each answer is written (flushed) as soon as it is ready; requests are read in whatever chunks
    have arrived, since the kit may pipeline them. A reader that goes away (a closed pipe) ends the session
    quietly, as the end of input does.
    """
    session = session_class(GAMES if engines is None else engines, name, reuse_views=True)
    read, write = _chunks(stdin), _writer(stdout)
    try:
        for line in request_lines(read):
            if line is None:
                write(jsonio.dumps(_error(None, "bad-request", f"a request line is at most {MAX_REQUEST_LINE} "
                                                              f"bytes")) + b"\n")
            elif line.strip():
                write(jsonio.dumps(session.answer(line.decode("utf-8", "replace"))) + b"\n")
            if session.quitting:
                return
    except BrokenPipeError:
        _quiet_stdout(stdout)


def _quiet_stdout(stdout: TextIO) -> None:
    """Point ``stdout``'s descriptor at the null device, so that nothing written at exit fails again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stdout.fileno())
        os.close(null)
    except (AttributeError, OSError, ValueError):
        pass


def request_lines(read: Callable[[], bytes], limit: int = MAX_REQUEST_LINE) -> Iterator[bytes | None]:
    """The lines of a byte stream read in chunks (``read`` returns b"" at the end), without their newline; None
    for a line over ``limit`` bytes, as soon as it passes the limit (the rest of it is skipped unread into
    memory). Linear in the input: a long line is gathered in pieces and joined once."""
    pieces: list[bytes] = []  # the start of the current line, not yet ended
    held = 0  # bytes in pieces
    skipping = False  # the current line is over the limit: drop it up to its newline
    while chunk := read():
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                rest = len(chunk) - start
                if not skipping and held + rest > limit:
                    pieces, held, skipping = [], 0, True
                    yield None
                elif not skipping and rest:
                    pieces.append(chunk[start:])
                    held += rest
                break
            if skipping:
                skipping = False
            elif held + end - start > limit:
                yield None
            elif pieces:
                pieces.append(chunk[start:end])
                yield b"".join(pieces)
            else:
                yield chunk[start:end]
            pieces, held, start = [], 0, end + 1
    if pieces and not skipping:
        yield b"".join(pieces)


def _chunks(stream: TextIO) -> Callable[[], bytes]:
    """Read what is there (at least one byte, b"" at the end): the raw descriptor when there is one."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return lambda: stream.readline().encode()
    return lambda: os.read(fd, 1 << 16)


def _writer(stream: TextIO) -> Callable[[bytes], None]:
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        def write_text(data: bytes) -> None:
            stream.write(data.decode())
            stream.flush()
        return write_text

    def write_fd(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    return write_fd
