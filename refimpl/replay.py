"""Replay traces through a driver and record, step by step, what was expected and what happened.

Each trace stops at its first mismatch. The runner knows nothing of engines: it only talks to a
driver, so the same replay checks the reference and an outside build.
"""

from __future__ import annotations

import json
from contextlib import closing
from dataclasses import dataclass, replace
from typing import Any, Iterable, Iterator

from .compare import Difference, first_difference, project
from .driver import BuildBroke, Driver, DriverError, Op, Outcome, Rejected
from .games import JSON
from .trace import Step, Trace

CONFORMS, MISMATCH, NOT_RUN = "conforms", "mismatch", "not-run"


@dataclass(frozen=True)
class StepResult:
    number: int  # 0 is the start of the game
    line: int | None
    step: Step | None  # None for the start of the game
    expected: Any
    answer: Any  # what the build answered: its full view, or {"rejected": code}
    difference: Difference | None = None

    @property
    def ok(self) -> bool:
        return self.difference is None

    @property
    def action(self) -> str:
        return "start" if self.step is None else self.step.label()

    @property
    def actual(self) -> Any:
        """The part of the answer the expectation speaks about (worked out only when reported)."""
        return project(self.expected, self.answer)


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
    if step.reject is not None:
        expected = {"rejected": step.reject}
        if not isinstance(outcome, Rejected):
            return StepResult(step.number, step.line, step, expected, {"rejected": None},
                              Difference("rejected", step.reject, None))
        actual = {"rejected": outcome.code}
        return StepResult(step.number, step.line, step, expected, actual, first_difference(expected, actual))
    if isinstance(outcome, Rejected):
        return StepResult(step.number, step.line, step, step.expect, {"rejected": outcome.code},
                          Difference("rejected", None, f"{outcome.code}: {outcome.message}"))
    expected = step.expect or {}
    return StepResult(step.number, step.line, step, expected, outcome, first_difference(expected, outcome))


def _ops(trace: Trace, legal: bool = False) -> list[Op]:
    """The requests of a whole trace, so a driver can send them ahead of reading the answers.
    ``legal``: the driver lists legal actions, so steps that expect a list get one asked for."""
    ops: list[Op] = [("start", trace.game, trace.ruleset, trace.seed, dict(trace.setup))]
    for step in trace.steps:
        ops.append(("restart",) if step.is_restart else ("apply", step.action))
        ops += [("view", observer) for observer in step.views or {}]
        if legal and step.legal is not None:
            ops.append(("legal",))
        if step.reject is not None:
            ops.append(("view", None))  # a rejection must leave the state exactly as it was
    return ops


def _check(trace: Trace, outcomes: Iterator[Outcome], legal: bool = False) -> TraceResult:
    """Judge one trace on its outcomes; consumes exactly ``len(_ops(trace, legal))`` of them."""
    results: list[StepResult] = []
    pending = len(_ops(trace, legal))
    where = "the start"

    def take() -> Outcome:
        nonlocal pending
        pending -= 1
        return next(outcomes)

    def stop(status: str) -> TraceResult:
        for _ in range(pending):  # answers still due for this trace (sent ahead): read, not judged
            next(outcomes)
        return TraceResult(trace, status, tuple(results))

    try:
        view = take()
        if trace.start is not None:
            results.append(StepResult(0, None, None, trace.start, view, first_difference(trace.start, view)))
            if not results[-1].ok:
                return stop(MISMATCH)
        for step in trace.steps:
            where = f"step {step.number} (line {step.line})"
            outcome = take()
            result = _check_step(step, outcome)
            for observer, expected in (step.views or {}).items():
                seen = take()
                diff = first_difference(expected, seen) if result.ok else None
                if diff is not None:
                    result = replace(result, difference=Difference(f"view[{observer}].{diff.path}",
                                                                   diff.expected, diff.actual))
            if legal and step.legal is not None:
                listed = take()
                diff = _legal_difference(step.legal, listed) if result.ok else None
                if diff is not None:
                    result = replace(result, difference=diff)
            if step.reject is not None:
                after = take()
                diff = first_difference(view, after) if result.ok else None
                if diff is not None:
                    result = replace(result, difference=Difference(
                        f"unchanged-after-rejection.{diff.path}", diff.expected, diff.actual))
            if not result.ok:
                results.append(replace(result, line=step.line_of(result.difference.path)))
                return stop(MISMATCH)
            results.append(result)
            if not isinstance(outcome, Rejected):
                view = outcome  # type: ignore[assignment]
    except BuildBroke as exc:
        exc.where = f"{trace.path} {where}"
        raise
    return TraceResult(trace, CONFORMS, tuple(results))


def _legal_difference(expected: list[JSON], listed: Any) -> Difference | None:
    """Legal actions compared as sets; the difference names what is missing and what is extra."""
    key = lambda a: json.dumps(a, sort_keys=True, separators=(",", ":"))  # noqa: E731
    ours, theirs = {key(a) for a in expected}, {key(a) for a in listed or []}
    if ours == theirs:
        return None
    return Difference("legal", {"missing": sorted(ours - theirs)}, {"extra": sorted(theirs - ours)})


def _not_run(trace: Trace, driver: Driver) -> TraceResult | None:
    if driver.supports(trace.game, trace.ruleset):
        return None
    return TraceResult(trace, NOT_RUN, reason=f"{driver.name} does not declare {trace.game} {trace.ruleset}")


def replay(trace: Trace, driver: Driver, ruleset: str | None = None) -> TraceResult:
    """Run ``trace`` (optionally under another ruleset) through ``driver`` until its first mismatch.

    Raises DriverError when the driver cannot start the game, and BuildBroke (with ``where`` naming
    the trace and step) when the build crashes, hangs or breaks the protocol.
    """
    if ruleset is not None and ruleset != trace.ruleset:
        trace = replace(trace, ruleset=ruleset)
    skipped = _not_run(trace, driver)
    if skipped is not None:
        return skipped
    legal = getattr(driver, "lists_legal", False)
    with closing(driver.batch(_ops(trace, legal))) as outcomes:
        return _check(trace, outcomes, legal)


def replay_all(traces: Iterable[Trace], driver: Driver) -> Iterator[TraceResult]:
    """Replay many traces with every request sent ahead (one batch), yielding a result per trace.

    Requests of a trace after its first mismatch are still answered by the build but not judged.
    Raises what ``replay`` raises; results already yielded stand.
    """
    traces = list(traces)
    legal = getattr(driver, "lists_legal", False)
    runnable = [t for t in traces if _not_run(t, driver) is None]
    ops = [op for t in runnable for op in _ops(t, legal)]
    with closing(driver.batch(ops)) as outcomes:
        for trace in traces:
            skipped = _not_run(trace, driver)
            yield skipped if skipped is not None else _check(trace, outcomes, legal)


__all__ = ["replay", "replay_all", "TraceResult", "StepResult", "CONFORMS", "MISMATCH", "NOT_RUN", "DriverError"]
