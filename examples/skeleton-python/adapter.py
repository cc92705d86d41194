#!/usr/bin/env python3
"""THE PROTOCOL LOOP: do not edit. Your game goes in game.py.

Speaks the kit's build protocol, version 1 (specs/protocol.md), on stdin/stdout: one JSON request per line in,
one JSON response per line out, in request order, each flushed. Python 3.11, standard library only.

    .venv/bin/refimpl verify --impl "python3 examples/skeleton-python/adapter.py" --game beacon-lines

Standard output carries responses and nothing else: the real stdout is kept for them, and file descriptor 1
and sys.stdout are pointed at stderr, so a stray print() in your game code lands in the log, not in the
protocol. An exception in your game code is not hidden: it is logged with the request and the adapter
exits, which the kit reports as "build broke" with the last lines of stderr.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from typing import Any

import game

PROTOCOL = 1
MAX_SEED = 2**53 - 1


class Refused(Exception):
    """A request the build cannot serve: answered `ok: false` with an `error` (protocol section "Errors")."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _is_int(value: Any) -> bool:
    """A JSON integer: no fraction, no exponent (json reads `6.0` and `1e3` as float), and not a boolean."""
    return type(value) is int


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")  # Python's json would otherwise accept NaN and Infinity


def _parse(line: bytes) -> Any:
    """The request on one line, or Refused(bad-request) when the line is not one JSON value in UTF-8."""
    try:
        return json.loads(line.decode("utf-8"), parse_constant=_not_json)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise Refused("bad-request", f"not JSON: {exc}"[:300]) from None


def _has_legal() -> bool:
    return callable(getattr(game, "legal", None))


class Session:
    """One build process: at most one game in progress, and what its `start` was given (for `restart`)."""

    def __init__(self) -> None:
        self.state: Any = None
        self.started: tuple[str, int | None, dict[str, Any]] | None = None  # None: no game yet
        # Statistics (protocol "stats"): the record a game keeps over the session, if game.py has STATISTICS
        # (its keys) and record(record, result); a game counts once: when it ends (game.result), or unfinished
        # (result None) when a start or restart leaves it.
        keeps = getattr(game, "STATISTICS", None)
        self.records: dict[str, dict[str, int]] = {game.NAME: dict.fromkeys(keeps, 0)} if keeps else {}
        self.counting = False

    # --- one line in, one response out ----------------------------------------------------------------

    def answer(self, line: bytes) -> tuple[dict[str, Any], bool]:
        """The response to one request line, and whether the build must now exit (after `quit`)."""
        request_id = None
        try:
            request = _parse(line)
            if not isinstance(request, dict):
                raise Refused("bad-request", "a request is a JSON object")
            if not _is_int(request.get("id")) or request["id"] < 0:
                raise Refused("bad-request", "a request needs an integer id")
            request_id = request["id"]
            op = request.get("op")
            if not isinstance(op, str):
                raise Refused("bad-request", "a request needs an op (a string)")
            handler = getattr(self, "op_" + op, None) if op in OPS else None
            if handler is None:
                raise Refused("unknown-op", f"unknown op {op!r}"[:300])
            fields = handler(request)
        except Refused as refusal:
            return {"id": request_id, "ok": False, "error": {"code": refusal.code, "message": refusal.message}}, False
        if isinstance(fields, game.Rejection):
            return {"id": request_id, "ok": False, "rejected": {"code": fields.code, "message": fields.message}}, False
        return {"id": request_id, "ok": True, **fields}, op == "quit"

    # --- the ops (specs/protocol.md, "Requests and responses") --------------------------------------------

    def op_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        # Whatever `protocol` the kit asks for, the build answers with the one it speaks; the kit decides.
        return {"protocol": PROTOCOL,
                "build": dict(getattr(game, "BUILD", None) or {"name": "skeleton-python"}),
                "games": {game.NAME: list(game.RULESETS)},
                "capabilities": (["legal"] if _has_legal() else []) + ["stats"]
                + (["explicit-chance"] if getattr(game, "EXPLICIT_CHANCE", False) else [])}

    def op_start(self, request: dict[str, Any]) -> dict[str, Any]:
        # Refused in this order: the form of every field, then an undeclared game or ruleset, then the set-up
        # (the game's own checks). A refused start changes nothing: the game in progress goes on.
        if not isinstance(request.get("game"), str):
            raise Refused("bad-request", "start needs a game (a string)")
        if "ruleset" not in request or not (request["ruleset"] is None or isinstance(request["ruleset"], str)):
            raise Refused("bad-request", "start needs a ruleset (a string or null)")
        seed = request.get("seed", False)
        if not (seed is None or (_is_int(seed) and 0 <= seed <= MAX_SEED)):
            raise Refused("bad-request", "start needs a seed: null or an integer from 0 to 2^53 - 1")
        if not isinstance(request.get("setup"), dict):
            raise Refused("bad-request", "start needs a setup (an object)")
        if request["game"] != game.NAME:
            raise Refused("unsupported", f"no game {request['game']!r} in this build"[:300])
        ruleset = game.DEFAULT_RULESET if request["ruleset"] is None else request["ruleset"]
        if ruleset not in game.RULESETS:
            raise Refused("unsupported", f"no ruleset {ruleset!r} for {game.NAME}"[:300])
        setup = request["setup"]
        state = game.start(ruleset, seed, copy.deepcopy(setup))
        if isinstance(state, game.Rejection):
            raise Refused("bad-request", state.message or "a set-up this game cannot use")
        self._leave()
        self.state, self.started = state, (ruleset, seed, setup)
        self.counting = bool(self.records)
        return {"state": game.view(state, None)}

    def op_apply(self, request: dict[str, Any]) -> dict[str, Any] | game.Rejection:
        self._need_game()  # before the form of the request: apply without action and no game is no-game
        if "action" not in request:
            raise Refused("bad-request", "apply needs an action")
        result = game.apply(self.state, request["action"])
        if isinstance(result, game.Rejection):
            return result  # the state stays exactly as it was
        self.state = result
        ended = game.result(result) if self.counting and hasattr(game, "result") else None
        if ended is not None:
            self._count(ended)
        return {"state": game.view(result, None)}

    def op_state(self, request: dict[str, Any]) -> dict[str, Any]:
        self._need_game()
        return {"state": game.view(self.state, self._observer(request))}

    def op_legal(self, request: dict[str, Any]) -> dict[str, Any]:
        if not _has_legal():
            raise Refused("unsupported", "this build does not list legal actions")
        self._need_game()
        return {"actions": list(game.legal(self.state, self._observer(request)))}

    def op_restart(self, request: dict[str, Any]) -> dict[str, Any]:
        self._need_game()
        assert self.started is not None
        ruleset, seed, setup = self.started
        state = game.start(ruleset, seed, copy.deepcopy(setup))
        if isinstance(state, game.Rejection):  # it was accepted before: is game.start deterministic?
            raise Refused("bad-request", f"restart: game.start refused its own set-up: {state.message}"[:300])
        self._leave()
        self.state = state
        self.counting = bool(self.records)
        return {"state": game.view(state, None)}

    def op_stats(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"stats": copy.deepcopy(self.records)}

    def op_quit(self, request: dict[str, Any]) -> dict[str, Any]:
        return {}

    # --- helpers ---------------------------------------------------------------------------------------

    def _leave(self) -> None:
        """The game in progress is left unfinished (a start or restart): counted, if not counted yet."""
        if self.counting:
            self._count(None)

    def _count(self, result: str | None) -> None:
        self.records[game.NAME] = game.record(dict(self.records[game.NAME]), result)
        self.counting = False

    def _need_game(self) -> None:
        if self.started is None:
            raise Refused("no-game", "no game in progress: send start first")

    def _observer(self, request: dict[str, Any]) -> str | None:
        """The observer of a `state` or `legal` request: None (the full view, the referee's list) or a player.

        A game without hidden information (no OBSERVERS) ignores it; otherwise an unknown one is bad-request."""
        players = getattr(game, "OBSERVERS", None)
        observer = request.get("observer")
        if not players or observer is None:
            return None
        if not isinstance(observer, str) or observer not in players:
            raise Refused("bad-request", f"unknown observer {observer!r}"[:300])
        return observer


OPS = {"hello", "start", "apply", "state", "legal", "restart", "stats", "quit"}


def main() -> int:
    out = os.fdopen(os.dup(1), "wb")  # the protocol's channel: responses only
    os.dup2(2, 1)  # anything else written to fd 1 (print, a C library, a child process) goes to stderr
    sys.stdout = sys.stderr
    session = Session()
    try:
        for line in iter(sys.stdin.buffer.readline, b""):  # one line at a time: pipelined requests wait
            try:
                response, done = session.answer(line)
            except Exception:
                print(f"adapter.py: the game code failed on request {line[:300]!r}", file=sys.stderr)
                raise
            out.write(json.dumps(response, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
                      .encode("utf-8") + b"\n")
            out.flush()
            if done:
                break
    except BrokenPipeError:  # the kit stopped reading: nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
    return 0  # after quit, or when stdin closes


if __name__ == "__main__":
    sys.exit(main())
