"""Perft-style counts: how many action sequences (chance outcomes included, joint actions for
simultaneous games) lead from the start to each depth, and how many end the game, by result.

Like the perft files chess engines are checked against: golden counts live beside the traces
(``traces/<game>/perft-<ruleset>.json``); the reference is checked against them by a test, and a
build's legal-action lists by ``refimpl verify --perft`` through the protocol.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .driver import Driver, Op, Rejected
from .games import GAMES, JSON

KIT_ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Counts:
    """Sequences of exactly each length that are still going, and finished games by result."""

    nodes: list[int]  # nodes[d]: sequences of length d (d = 0 is the start)
    results: dict[str, int] = field(default_factory=dict)

    def json(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "results": dict(sorted(self.results.items()))}


def perft(game: str, ruleset: str | None = None, depth: int = 2) -> Counts:
    """Count the reference's action sequences from the start to ``depth``."""
    engine = GAMES[game]

    @lru_cache(maxsize=None)
    def walk(state: Any, left: int) -> tuple[tuple[int, ...], tuple[tuple[str, int], ...]]:
        # (sequences of each further length, finished games by result), memoised per position
        result = engine.outcome(state)
        if result is not None:
            return (1,) + (0,) * left, ((result, 1),)
        if left == 0:
            return (1,), ()
        below = [0] * left
        finished: dict[str, int] = {}
        for action in engine.legal_actions(state):
            counts, ends = walk(engine.apply(state, action), left - 1)
            for i, n in enumerate(counts):
                below[i] += n
            for r, n in ends:
                finished[r] = finished.get(r, 0) + n
        return (1, *below), tuple(sorted(finished.items()))

    counts, ends = walk(engine.new_state(ruleset), depth)
    return Counts(list(counts), dict(ends))


def golden_path(game: str, ruleset: str) -> Path:
    return KIT_ROOT / "traces" / game / f"perft-{ruleset}.json"


def load_golden(game: str, ruleset: str) -> dict[str, Any] | None:
    path = golden_path(game, ruleset)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


@dataclass(frozen=True)
class Divergence:
    """The first position (reached by ``path``) where the build's count differs, action by action."""

    path: tuple[JSON, ...]
    depth: int
    expected: int
    actual: int
    breakdown: tuple[tuple[str, int, int], ...]  # (action, reference count, build count)

    def __str__(self) -> str:
        where = " -> ".join(json.dumps(a, separators=(",", ":")) for a in self.path) or "the start"
        lines = [f"after {where}: {self.actual} sequences of {self.depth} more actions, expected {self.expected}"]
        lines += [f"  {action}: expected {e}, got {a}" for action, e, a in self.breakdown if e != a]
        return "\n".join(lines)


def check_build(driver: Driver, game: str, ruleset: str, depth: int) -> Divergence | None:
    """Walk the build's legal-action lists to ``depth`` and compare counts with the reference's.

    Returns the deepest first differing position (a per-action breakdown of its children), or None.
    Raises DriverError / BuildBroke like any driver call.
    """
    engine = GAMES[game]

    def build_children(path: tuple[JSON, ...]) -> list[JSON]:
        ops: list[Op] = [("start", game, ruleset, None, {})] + [("apply", a) for a in path] + [("legal",)]
        outcomes = list(driver.batch(ops))
        legal = outcomes[-1]
        if any(isinstance(o, Rejected) for o in outcomes[1:-1]):
            return []
        return legal if isinstance(legal, list) else []

    @lru_cache(maxsize=None)
    def ref_count(state: Any, left: int) -> int:
        if left == 0 or engine.outcome(state) is not None:
            return 1 if left == 0 else 0
        return sum(ref_count(engine.apply(state, a), left - 1) for a in engine.legal_actions(state))

    def build_count(path: tuple[JSON, ...], left: int) -> int:
        if left == 0:
            return 1
        return sum(build_count(path + (a,), left - 1) for a in build_children(path))

    def key(action: JSON) -> str:
        return json.dumps(action, sort_keys=True, separators=(",", ":"))

    path: tuple[JSON, ...] = ()
    state = engine.new_state(ruleset)
    left = depth
    while left > 0:
        ours = {key(engine.action_json(a)): engine.apply(state, a) for a in engine.legal_actions(state)}
        theirs = {key(a): a for a in build_children(path)}
        rows = []
        for k in sorted(set(ours) | set(theirs)):
            expected = ref_count(ours[k], left - 1) if k in ours else 0
            actual = build_count(path + (theirs[k],), left - 1) if k in theirs else 0
            rows.append((k, expected, actual))
        total_expected, total_actual = sum(r[1] for r in rows), sum(r[2] for r in rows)
        if total_expected == total_actual and all(e == a for _, e, a in rows):
            return None
        wrong = next((k for k, e, a in rows if e != a and k in ours and k in theirs), None)
        if wrong is None or left == 1:  # the lists themselves differ here
            return Divergence(path, left, total_expected, total_actual, tuple(rows))
        path, state, left = path + (theirs[wrong],), ours[wrong], left - 1
    return None
