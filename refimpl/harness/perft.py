"""Perft-style counts: how many action sequences (chance outcomes included, joint actions for
simultaneous games) lead from the start to each depth, and how many of them end the game there, by result.

Like the perft files chess engines are checked against: golden counts live beside the traces
(``traces/<game>/perft-<ruleset>.json``); the reference is checked against them by a test, and a
build's legal-action lists and results by ``refimpl verify --perft`` through the protocol.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .. import suite
from ..games import GAMES, JSON
from .driver import Driver, Refused, Rejected
from .requests import Apply, Legal, Op, Start

NOTE = ("nodes[d]: action sequences of exactly d actions from the start, finished or not (chance outcomes and "
        "joint actions count as actions); results[d]: those of them that end the game, by result")

Results = tuple[tuple[str, int], ...]  # (result, count) sorted by result


@dataclass(frozen=True)
class Counts:
    """Per depth d (0 is the start): the sequences of exactly d actions, and those that finished the game."""

    nodes: tuple[int, ...]
    results: tuple[Results, ...]

    def json(self) -> dict[str, Any]:
        return {"nodes": list(self.nodes), "results": [dict(r) for r in self.results]}

    def totals(self) -> dict[str, int]:
        """Finished games within the depth, by result."""
        out: dict[str, int] = {}
        for per_depth in self.results:
            for result, n in per_depth:
                out[result] = out.get(result, 0) + n
        return dict(sorted(out.items()))


def _leaf(result: str | None, left: int) -> Counts:
    ends: Results = ((result, 1),) if result is not None else ()
    return Counts((1,) + (0,) * left, (ends,) + ((),) * left)


def _zero(left: int) -> Counts:
    """No sequences at all: what an action one side does not list leads to."""
    return Counts((0,) * (left + 1), ((),) * (left + 1))


def _times(counts: Counts, n: int) -> Counts:
    """``counts`` of an action the build lists ``n`` times: each sequence through it counted ``n`` times."""
    return Counts(tuple(c * n for c in counts.nodes),
                  tuple(tuple((r, c * n) for r, c in per_depth) for per_depth in counts.results))


def _merge(children: list[Counts], left: int) -> Counts:
    """The counts of a position from its children's (each ``left - 1`` deep)."""
    nodes = [1] + [0] * left
    results: list[dict[str, int]] = [{} for _ in range(left + 1)]
    for child in children:
        for d, n in enumerate(child.nodes):
            nodes[d + 1] += n
        for d, per_depth in enumerate(child.results):
            for result, n in per_depth:
                results[d + 1][result] = results[d + 1].get(result, 0) + n
    return Counts(tuple(nodes), tuple(tuple(sorted(r.items())) for r in results))


def perft(game: str, ruleset: str | None = None, depth: int = 2) -> Counts:
    """Count the reference's action sequences from the start to ``depth``."""
    engine = GAMES[game]

    @cache
    def walk(state: Any, left: int) -> Counts:  # memoised per position
        result = engine.outcome(state)
        if result is not None or left == 0:
            return _leaf(result, left)
        return _merge([walk(engine.apply(state, a), left - 1) for a in engine.legal_actions(state)], left)

    return walk(engine.new_state(ruleset), depth)


def golden_path(game: str, ruleset: str) -> Path:
    """The golden perft file of ``game`` under ``ruleset``, beside the game's bundled traces."""
    return suite.trace_folder() / game / f"perft-{ruleset}.json"


def load_golden(game: str, ruleset: str) -> dict[str, Any] | None:
    path = golden_path(game, ruleset)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def golden_json(game: str, ruleset: str, depth: int) -> str:
    """The golden file's text for the reference's counts to ``depth``."""
    doc = {"game": game, "ruleset": ruleset, "depth": depth, **perft(game, ruleset, depth).json(), "note": NOTE}
    return json.dumps(doc, indent=1) + "\n"


def write_goldens() -> list[Path]:
    """Rewrite every golden file at its own depth from the reference (``make goldens``)."""
    written = []
    for game, engine in sorted(GAMES.items()):
        for ruleset in engine.info.rulesets:
            golden = load_golden(game, ruleset)
            if golden is not None:
                golden_path(game, ruleset).write_text(golden_json(game, ruleset, golden["depth"]), encoding="utf-8")
                written.append(golden_path(game, ruleset))
    return written


@dataclass(frozen=True)
class Divergence:
    """The first position (reached by ``path``) where the build's counts differ, action by action."""

    path: tuple[JSON, ...]
    depth: int
    expected: Counts
    actual: Counts
    breakdown: tuple[tuple[str, Counts, Counts], ...]  # (action, reference, build)

    def __str__(self) -> str:
        where = " -> ".join(json.dumps(a, separators=(",", ":")) for a in self.path) or "the start"
        lines = [f"after {where}: {_show(self.actual)} in {self.depth} more actions, expected {_show(self.expected)}"]
        lines += [f"  {action}: expected {_show(e)}, got {_show(a)}" for action, e, a in self.breakdown if e != a]
        return "\n".join(lines)


def _show(counts: Counts) -> str:
    total = counts.nodes[-1]
    finished = counts.totals()
    return f"{total} sequences" + (f" ({', '.join(f'{r} {n}' for r, n in finished.items())} finished)" if finished
                                   else "")


def check_build(driver: Driver, game: str, ruleset: str, depth: int) -> Divergence | None:
    """Walk the build's legal-action lists to ``depth``, reading each position's result off the build's view,
    and compare the counts with the reference's. Returns the deepest first differing position (a per-action
    breakdown of its children), or None. Raises DriverError / BuildBroke like any driver call."""
    engine = GAMES[game]

    def build_position(path: tuple[JSON, ...]) -> tuple[str | None, list[JSON]]:
        """(the result the build shows after ``path``, its legal actions there)."""
        ops: list[Op] = [Start(game, ruleset, None, {}), *(Apply(a) for a in path), Legal()]
        outcomes = list(driver.batch(ops))
        if any(isinstance(o, (Rejected, Refused)) for o in outcomes[:-1]):
            return None, []
        result = engine.outcome_of_view(outcomes[-2])  # type: ignore[arg-type]  # refusals returned above: a view
        legal = outcomes[-1]
        return result, (legal if isinstance(legal, list) else [])

    @cache
    def ref_counts(state: Any, left: int) -> Counts:
        result = engine.outcome(state)
        if result is not None or left == 0:
            return _leaf(result, left)
        return _merge([ref_counts(engine.apply(state, a), left - 1) for a in engine.legal_actions(state)], left)

    def build_counts(path: tuple[JSON, ...], left: int) -> Counts:
        result, legal = build_position(path)
        if result is not None or left == 0:
            return _leaf(result, left)
        return _merge([build_counts(path + (a,), left - 1) for a in legal], left)

    def key(action: JSON) -> str:
        return json.dumps(action, sort_keys=True, separators=(",", ":"))

    path: tuple[JSON, ...] = ()
    state = engine.new_state(ruleset)
    left = depth
    while left > 0:
        if engine.outcome(state) is not None:
            return None
        ours = {key(engine.action_json(a)): engine.apply(state, a) for a in engine.legal_actions(state)}
        _, listed = build_position(path)
        theirs = {key(a): a for a in listed}
        if len(theirs) != len(listed):  # an action listed twice: the lists differ here, whatever follows
            times = Counter(key(a) for a in listed)
            rows = []
            for k in sorted(set(ours) | set(theirs)):
                expected = ref_counts(ours[k], left - 1) if k in ours else _zero(left - 1)
                actual = build_counts(path + (theirs[k],), left - 1) if k in theirs else _zero(left - 1)
                rows.append((k, expected, _times(actual, times.get(k, 1))))
            return Divergence(path, left, _merge([e for _, e, _a in rows], left),
                              _merge([a for _, _e, a in rows], left), tuple(rows))
        rows = []
        for k in sorted(set(ours) | set(theirs)):
            expected = ref_counts(ours[k], left - 1) if k in ours else _zero(left - 1)
            actual = build_counts(path + (theirs[k],), left - 1) if k in theirs else _zero(left - 1)
            rows.append((k, expected, actual))
        if all(e == a for _, e, a in rows):
            return None
        total_expected = _merge([e for _, e, _a in rows], left)
        total_actual = _merge([a for _, _e, a in rows], left)
        wrong = next((k for k, e, a in rows if e != a and k in ours and k in theirs), None)
        if wrong is None or left == 1:  # the lists themselves (or the results right after them) differ here
            return Divergence(path, left, total_expected, total_actual, tuple(rows))
        path, state, left = path + (theirs[wrong],), ours[wrong], left - 1
    return None
