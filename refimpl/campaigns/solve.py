"""``refimpl solve GAME``: a small game solved exactly from its start or from a trace's position (issue 45), by
the solver its unit gives (``GameKit.solve``): Beacon Lines' value and optimal first choices, Lantern Quay's
chance to restore best and at random and the best way to place a roll. Numbers are Fractions; reports give them
as numerator, denominator and a decimal."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice
from pathlib import Path
from typing import Any

from ..errors import KitError
from ..games import GAMES, IllegalAction, kit_of, kits


class SolveError(KitError):
    """Bad input to solve: a game too large to solve, a ruleset it lacks, a step past the trace's end, a roll
    where none is due."""


@dataclass(frozen=True)
class Solution:
    """What a solver found (its own keys: see each game's ``kit/solve.py``) from the position it was asked of."""

    game: str
    ruleset: str
    where: str  # "the start", or "after step N of TRACE"
    found: Mapping[str, Any]


def solvable() -> list[str]:
    """The games whose unit gives a solver."""
    return [kit.name for kit in kits() if kit.solve is not None]


def position(game: str, ruleset: str | None, trace: str | None, at: int | None,
             engine: Any = None) -> tuple[Any, str, str]:
    """(the state, its ruleset, where it is in words): the start under ``ruleset``, or the position after step
    ``at`` (default: the last) of ``trace``, played on ``engine`` (None: the reference's) as
    harness.versions.route plays a route.
    Raises SolveError, TraceError."""
    engine = engine if engine is not None else GAMES[game]
    if trace is None:
        name = ruleset or engine.info.default_ruleset
        if name not in engine.info.rulesets:
            raise SolveError(f"{game} has no ruleset {name!r} (rulesets: {', '.join(engine.info.rulesets)})")
        return engine.new_state(name), name, "the start"
    from ..harness.tracefile import load_trace
    from ..harness.versions import route

    t = load_trace(trace)
    if t.game != game:
        raise SolveError(f"--trace {trace}: a trace of {t.game}, not {game}")
    steps = len(t.steps) if at is None else at
    if not 0 <= steps <= len(t.steps):
        raise SolveError(f"--at {at}: the trace has {len(t.steps)} steps")
    state = engine.new_state(t.ruleset, seed=t.seed, setup=dict(t.setup) or None)
    for after, _ in islice(route(engine, t.ruleset, t), steps):
        state = after
    return state, t.ruleset, f"after step {steps} of {Path(trace).name}"


def solve(game: str, ruleset: str | None = None, trace: str | None = None, at: int | None = None,
          roll: tuple[int, ...] | None = None, profile: Any = None) -> Solution:
    """The solution of ``game`` from the position ``position`` gives (after ``roll``, where given), under
    ``profile`` (a rulebook Profile of the game, or None: the spec's values). Raises SolveError for a game
    without a solver or input the position refuses, TraceError for a bad trace."""
    part = kit_of(game).solve
    if part is None:
        raise SolveError(f"{game} is too large to solve exactly (solved: {', '.join(solvable())}); "
                         f"try refimpl simulate {game}")
    if profile is not None and profile.game != game:
        raise SolveError(f"the profile {profile.name} is of {profile.game}, not {game}")
    engine = profile.engine() if profile is not None else GAMES[game]
    state, name, where = position(game, ruleset, trace, at, engine)
    if profile is not None:
        where += f", under the profile {profile.name}"
    try:
        found = part.load()(engine, state, roll)
    except (ValueError, IllegalAction) as exc:
        raise SolveError(str(exc)) from None
    return Solution(game, name, where if roll is None else f"{where}, then the roll {list(roll)}", found)


def _number(value: Any) -> Any:
    """A Fraction as machine output gives it; containers walked; anything else as it is (a value's text)."""
    if isinstance(value, Fraction):
        return {"numerator": value.numerator, "denominator": value.denominator, "value": float(value)}
    if isinstance(value, Mapping):
        return {str(k): _number(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_number(v) for v in value]
    if hasattr(value, "to_json"):
        return value.to_json()
    if hasattr(value, "__dataclass_fields__"):
        return {k: _number(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


def solution_json(s: Solution) -> dict[str, Any]:
    """The solution for machines (schema: refimpl/schemas/output/solve.schema.json)."""
    return {"game": s.game, "ruleset": s.ruleset, "where": s.where, "solution": _number(dict(s.found))}


def _show(value: Any) -> str:
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator} ({float(value):.4f})" if value.denominator != 1 \
            else str(value.numerator)
    return str(value)


def solution_text(s: Solution) -> str:
    """The solution for people: each figure the solver gives, a Fraction with its decimal."""
    lines = [f"{s.game} {s.ruleset}, {s.where}:"]
    for key, value in s.found.items():
        if key == "position" or key == "ways" and not value:
            continue
        if key == "ways" and value:
            lines.append("ways to place the dice, best first (chance to restore: best play after, random after):")
            lines += [f"  {w.place.slot} <- {w.place.face}: {_show(w.best)}, {_show(w.random)}" for w in value]
        elif key == "matrix":
            lines.append("what each pair of claims is worth to red:")
            lines += [f"  red {c['red']}, blue {c['blue']}: {_show(c['worth'])}" for c in value]
        elif key in ("red", "blue"):
            lines.append(f"{key}'s optimal mix: " + ", ".join(f"{c['target']} {_show(c['weight'])}" for c in value))
        elif isinstance(value, list):
            lines.append(f"{key}: {', '.join(map(str, value)) or '-'}")
        else:
            lines.append(f"{key}: {_show(value)}")
    return "\n".join(lines) + "\n"
