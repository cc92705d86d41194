"""Check traces against the reference before any build sees them.

A trace is a claim about what every correct build answers. One that the reference itself does not pass
(an observer the game does not have, a set-up the game refuses, a field no state view has, a string where
a score belongs, a value the rules do not give) is a bad check: the trace's fault, never the build's.
``verify`` and ``replay`` refuse such traces as bad input (exit 2) with the file, the line and the field,
before a build is started, as toml-test calls it a "bug in test case".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from ..errors import KitError
from ..games import GAMES, kit_of
from .driver import ReferenceDriver, Refused
from .replay import StepResult, replay
from .requests import Start
from .trace import Trace


@dataclass(frozen=True)
class BadCheck:
    """One check of a trace that no correct build could pass."""

    path: str
    line: int | None
    reason: str
    kind: str = "value"  # observer | start | schema: no build could even be judged; value: the rules disagree

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: bad check: {self.reason}"


class BadChecks(KitError):
    """Traces that hold bad checks (exit 2); the message names each, one per line."""

    def __init__(self, found: list[BadCheck]) -> None:
        super().__init__("\n".join(map(str, found)) + (
            "\n(no correct build could pass these checks: fix the traces, or report a bug of the reference)"))
        self.found = found


@cache
def view_validator(game: str) -> jsonschema.Draft202012Validator | None:
    """The published state-view schema of ``game`` (its unit's ``view_schema``), or None for a game nobody
    registered."""
    try:
        text = resources.files("refimpl").joinpath("schemas", *kit_of(game).view_schema.split("/")).read_text()
    except (KeyError, OSError):
        return None
    return jsonschema.Draft202012Validator(json.loads(text))


def _merge(view: Any, partial: Any) -> Any:
    """``view`` with the values ``partial`` names written over it (a partial view made whole)."""
    if isinstance(view, dict) and isinstance(partial, dict):
        return {**view, **{k: _merge(view.get(k), v) for k, v in partial.items()}}
    return partial


def _schema_reason(game: str, view: Any, partial: Any) -> str | None:
    """Why ``partial`` cannot be part of any state view of ``game`` (a field or a type), or None."""
    validator = view_validator(game)
    if validator is None or not isinstance(view, dict) or not isinstance(partial, dict):
        return None
    merged = _merge(view, partial)
    for error in sorted(validator.iter_errors(merged), key=lambda e: len(e.absolute_path)):
        where = ".".join(map(str, error.absolute_path))
        if error.validator == "additionalProperties":
            extra = [k for k in (error.instance or {}) if k not in (error.schema.get("properties") or {})]
            field = ".".join(filter(None, [where, extra[0] if extra else ""]))
            return f"expects the field {field}, which no {GAMES[game].info.title} state view has"
        value = error.instance
        return f"expects {where or 'the view'} = {json.dumps(value)}, which no state view can hold ({error.message})"
    return None


def _observers(trace: Trace) -> list[BadCheck]:
    players = GAMES[trace.game].info.players
    found = []
    for i, step in enumerate(trace.steps):
        for observer in step.views or {}:
            if observer not in players:
                found.append(BadCheck(trace.path, trace.line_of(("steps", i, "views", observer)),
                                      f"step {step.number}: expects the view of {observer!r}, which is not an "
                                      f"observer of {GAMES[trace.game].info.title} "
                                      f"(observers: {', '.join(players)})", "observer"))
    return found


def _start(trace: Trace) -> BadCheck | None:
    reference = ReferenceDriver()
    answer = next(iter(reference.batch([Start(trace.game, trace.ruleset, trace.seed, dict(trace.setup))])))
    if not isinstance(answer, Refused):
        return None
    key = "setup" if trace.setup else "seed"
    return BadCheck(trace.path, trace.line_of((key,)) or trace.line_of(("game",)),
                    f"the game refuses this start ({answer.code}: {answer.message}), so no build can play "
                    f"the trace", "start")


def _explain(trace: Trace, fail: StepResult) -> BadCheck:
    diff = fail.difference
    assert diff is not None
    where = "the start" if fail.step is None else f"step {fail.number}"
    reason = _schema_reason(trace.game, fail.answer, fail.expected) if diff.path != "rejected" else None
    kind = "schema"
    if reason is None:
        kind = "value"
        reason = (f"the reference itself answers {diff.path} = {json.dumps(diff.actual)} where the trace "
                  f"expects {json.dumps(diff.expected)}")
    line = fail.line if fail.line else trace.line_of(("start",))
    return BadCheck(trace.path, line, f"{where}: {reason}", kind)


def explain_failure(trace: Trace, fail: StepResult) -> BadCheck:
    """Why the reference itself does not pass ``trace`` at ``fail``: a view of an observer the game does not
    have (kind ``observer``), a field or type no state view has (``schema``), else a value the rules give
    otherwise (``value``)."""
    players = GAMES[trace.game].info.players
    if fail.step is not None:
        for observer in fail.step.views or {}:
            if observer not in players:
                return BadCheck(trace.path, trace.line_of(("steps", fail.number - 1, "views", observer)),
                                f"step {fail.number}: expects the view of {observer!r}, which is not an "
                                f"observer of {GAMES[trace.game].info.title} (observers: {', '.join(players)})",
                                "observer")
    return _explain(trace, fail)


def check_start(trace: Trace) -> list[BadCheck]:
    """The bad check of a start the game refuses, if any (one request, whatever the trace's length)."""
    bad_start = _start(trace)
    return [] if bad_start is None else [bad_start]


def check_trace(trace: Trace) -> list[BadCheck]:
    """The bad checks of one trace: observers, the start, then every expectation replayed on the
    reference (the first that fails is named)."""
    found = _observers(trace)
    if found:
        return found
    bad_start = _start(trace)
    if bad_start is not None:
        return [bad_start]
    result = replay(trace, ReferenceDriver())
    fail = result.failure
    return [] if fail is None else [_explain(trace, fail)]


def check_traces(traces: list[Trace]) -> None:
    """Raise BadChecks naming every bad check in ``traces``."""
    found = [bad for trace in traces for bad in check_trace(trace)]
    if found:
        raise BadChecks(found)


__all__ = ["BadCheck", "BadChecks", "check_start", "check_trace", "check_traces", "explain_failure",
           "view_validator"]
