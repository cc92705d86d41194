"""Chance given by the kit, for a build with its own random source (specs/protocol.md "Chance: seeded or given").

A build that declares the capability ``explicit-chance`` cannot reproduce the games' canonical streams. The
kit then never sends it a seeded form: ``Rewriter`` follows the requests as written on a shadow reference
session and turns each seeded one (a throw without its face, a CPU choice without its pick, fog without its
tiles, a Black Fog start without its map) into the explicit request with the outcome the stream would give,
so the game takes the same course as with the seed. ``ProtocolDriver`` rewrites what it sends to such a
build; ``ExplicitChance`` wraps the oracle so the reference answers the same explicit requests.
``explicit_trace`` adapts a trace: the written expectations of the stream counters are left to the oracle,
and the rules only the streams can show are not claimed.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..games import GAMES, JSON, RuleViolation
from .driver import CallsByBatch, Driver, Outcome
from .requests import Apply, Op, Start, Written
from .trace import Trace

CAPABILITY = "explicit-chance"
STREAM_RULES = frozenset(r for g in GAMES.values() for r in g.info.stream_rules)


class Rewriter:
    """Turns a stream of requests, as written, into the same requests with every seeded chance explicit."""

    def __init__(self) -> None:
        from .serve import Session  # the reference's own protocol session, as the shadow of the game

        self.shadow = Session(GAMES, "shadow")

    def rewrite(self, op: Op) -> Op:
        """The explicit form of ``op`` (itself when nothing in it is drawn from a stream); the shadow game
        then plays ``op`` as written."""
        body = op.body()
        kind, out = body.get("op"), op
        if kind == "apply" and self.shadow.game is not None and "action" in body:
            engine = self.shadow.game
            try:
                action = engine.parse_action(body["action"])
            except RuleViolation:
                action = None
            if action is not None:
                given = engine.explicit(self.shadow.state, action)
                if given != action:
                    out = _with(op, "action", engine.action_json(given))
        self.shadow.handle({**body, "id": 0})
        # A start the drawn map makes refused (feed on drawn water) is given its map too, so the build
        # refuses it for the same reason; explicit_setup leaves any other refused set-up as it is.
        game = body.get("game")
        if kind == "start" and isinstance(game, str) and game in GAMES and isinstance(body.get("setup"), dict):
            setup = GAMES[game].explicit_setup(body.get("ruleset"), body.get("seed"), body["setup"])
            if setup != body["setup"]:
                out = _with(op, "setup", dict(setup))
        return out


def _with(op: Op, key: str, value: JSON) -> Op:
    """``op`` with its ``action`` or ``setup`` replaced."""
    if isinstance(op, Written):
        return Written({**op.fields, key: value})
    if isinstance(op, Apply):
        return Apply(value)
    assert isinstance(op, Start), op  # (rewrite changes nothing else)
    return replace(op, setup=value)


class ExplicitChance(CallsByBatch):
    """A driver (the oracle) sent the explicit form of every request, as an explicit-chance build is."""

    def __init__(self, inner: Driver) -> None:
        self.inner, self.rewriter = inner, Rewriter()
        self.name, self.lists_legal = inner.name, inner.lists_legal

    def supports(self, game: str, ruleset: str | None) -> bool:
        return self.inner.supports(game, ruleset)

    def batch(self, ops: Iterable[Op]) -> Generator[Outcome, None, None]:
        return self.inner.batch(self.rewriter.rewrite(op) for op in ops)

    def close(self) -> None:
        self.inner.close()


def explicit_trace(trace: Trace) -> Trace:
    """``trace`` as judged for an explicit-chance build: no written expectation of a stream counter (the
    oracle still compares it), and none of the rules only the streams can show."""
    game = GAMES.get(trace.game)
    if game is None:
        return trace
    fields = set(game.info.stream_fields)

    def drop(expected: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
        if expected is None or not fields & set(expected):
            return expected
        return {k: v for k, v in expected.items() if k not in fields}

    steps = trace.steps.map(lambda s: replace(s, expect=drop(s.expect),
                                              rules=tuple(r for r in s.rules if r not in STREAM_RULES)))
    return replace(trace, steps=steps, start=drop(trace.start),
                   rules=tuple(r for r in trace.rules if r not in STREAM_RULES))


def is_explicit(driver: Any) -> bool:
    """Whether ``driver``'s build declared explicit-chance."""
    return CAPABILITY in getattr(driver, "capabilities", ())


__all__ = ["CAPABILITY", "STREAM_RULES", "ExplicitChance", "Rewriter", "explicit_trace", "is_explicit"]
