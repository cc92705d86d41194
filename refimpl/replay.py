"""Replay traces through a driver and record, step by step, what was expected and what happened.

Each trace stops at its first mismatch. The runner knows nothing of engines: it only talks to a
driver, so the same replay checks the reference and an outside build.
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass, replace
from typing import Any

from .compare import Difference, first_difference, project
from .driver import BuildBroke, Driver, DriverError, Op, Rejected
from .games import JSON
from .trace import Step, Trace

CONFORMS, MISMATCH, NOT_RUN = "conforms", "mismatch", "not-run"


@dataclass(frozen=True)
class StepResult:
    number: int  # 0 is the start of the game
    line: int | None
    action: str
    expected: Any
    actual: Any
    difference: Difference | None = None

    @property
    def ok(self) -> bool:
        return self.difference is None


@dataclass(frozen=True)
class TraceResult:
    trace: Trace
    status: str  # conforms | mismatch | not-run
    steps: tuple[StepResult, ...] = ()
    reason: str = ""  # why a trace was not run

    @property
    def failure(self) -> StepResult | None:
        return next((s for s in self.steps if not s.ok), None)


def _check_step(step: Step, outcome: dict[str, JSON] | Rejected) -> StepResult:
    """Compare one step's outcome with the trace: a rejection code, or a partial view."""
    label = step.label()
    if step.reject is not None:
        if not isinstance(outcome, Rejected):
            return StepResult(step.number, step.line, label, {"rejected": step.reject}, {"rejected": None},
                              Difference("rejected", step.reject, None))
        actual = {"rejected": outcome.code}
        diff = first_difference({"rejected": step.reject}, actual)
        return StepResult(step.number, step.line, label, {"rejected": step.reject}, actual, diff)
    if isinstance(outcome, Rejected):
        return StepResult(step.number, step.line, label, step.expect, {"rejected": outcome.code},
                          Difference("rejected", None, f"{outcome.code}: {outcome.message}"))
    expected = step.expect or {}
    return StepResult(step.number, step.line, label, expected, project(expected, outcome),
                      first_difference(expected, outcome))


def _ops(trace: Trace) -> list[Op]:
    """The requests of a whole trace, so a driver can send them ahead of reading the answers."""
    ops: list[Op] = [("start", trace.game, trace.ruleset, trace.seed, dict(trace.setup))]
    for step in trace.steps:
        ops.append(("restart",) if step.is_restart else ("apply", step.action))
        if step.reject is not None:
            ops.append(("view", None))  # a rejection must leave the state exactly as it was
    return ops


def replay(trace: Trace, driver: Driver, ruleset: str | None = None) -> TraceResult:
    """Run ``trace`` (optionally under another ruleset) through ``driver`` until its first mismatch.

    Raises DriverError when the driver cannot start the game, and BuildBroke (with ``where`` naming
    the trace and step) when the build crashes, hangs or breaks the protocol.
    """
    if ruleset is not None and ruleset != trace.ruleset:
        trace = replace(trace, ruleset=ruleset)
    if not driver.supports(trace.game, trace.ruleset):
        return TraceResult(trace, NOT_RUN, reason=f"{driver.name} does not declare {trace.game} {trace.ruleset}")
    results: list[StepResult] = []
    where = "the start"
    try:
        with closing(driver.batch(_ops(trace))) as outcomes:
            view = next(outcomes)
            if trace.start is not None:
                results.append(StepResult(0, None, "start", trace.start, project(trace.start, view),
                                          first_difference(trace.start, view)))
                if not results[-1].ok:
                    return TraceResult(trace, MISMATCH, tuple(results))
            for step in trace.steps:
                where = f"step {step.number} (line {step.line})"
                outcome = next(outcomes)
                result = _check_step(step, outcome)
                if step.reject is not None:
                    after = next(outcomes)
                    diff = first_difference(view, after) if result.ok else None
                    if diff is not None:
                        result = replace(result, difference=Difference(
                            f"unchanged-after-rejection.{diff.path}", diff.expected, diff.actual))
                if not result.ok:
                    results.append(replace(result, line=step.line_of(result.difference.path)))
                    return TraceResult(trace, MISMATCH, tuple(results))
                results.append(result)
                if not isinstance(outcome, Rejected):
                    view = outcome  # type: ignore[assignment]
    except BuildBroke as exc:
        exc.where = f"{trace.path} {where}"
        raise
    return TraceResult(trace, CONFORMS, tuple(results))


__all__ = ["replay", "TraceResult", "StepResult", "CONFORMS", "MISMATCH", "NOT_RUN", "DriverError"]
