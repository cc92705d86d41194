"""The checks of a verify run, as they run: the traces (pipelined over a ProtocolDriver, each failed one
resynchronised to show its later differences) and the Gherkin scenarios (step by step through the scenario
runner, refimpl/scenarios, over another), each recorded as a Check in the run's report as it ends. Every build
is started in the folder verify was run from. ``Run`` is what the run knows while it runs: its report and
settings, and whether it must stop early."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import replace
from typing import Any

from ..games import GAMES, Game, RuleViolation
from ..games.base import owners
from ..harness.credit import decided_by
from ..harness.driver import BuildBroke, ReferenceDriver
from ..harness.oracle import ByReference, Oracled
from ..harness.plan import step_op
from ..harness.protocol import Build, ProtocolDriver
from ..harness.replay import TraceResult, replay_all
from ..harness.requests import Start
from ..harness.trace import Steps, Trace
from ..reports.failures import field_diffs, shown_path, trace_failure
from ..reports.model import Check, Failure, FieldDiff, Report
from ..reports.safetext import bounded
from ..reports.transcript import exchanges
from ..scenarios import Builds, Mismatch, NotRun, Outcome, Scenario, Selected, run_scenario
from ..scenarios.runner import transcript_of
from ..status import Status
from .settings import VerifySettings


@contextmanager
def reaching(report: Report, kind: str, on: bool) -> Iterator[None]:
    """With ``on`` (verify --coverage): count the rules the reference reaches inside the block into
    ``report.reach[kind]`` (rulebook/reach.py); kind: traces, scenarios, between, explore."""
    if not on:
        yield
        return
    from ..rulebook.reach import Reach, merge

    with Reach() as reach:
        yield
    merge(report.reach, {kind: reach.rules()})


BREAK_STREAK = 3  # a build that breaks the same way on this many checks in a row is not started again
Progress = Callable[[Check, int, int], None]  # (the check just done, checks done, checks known so far)


class Run:
    """What one verify run knows while it runs: the report, its settings, and whether it must stop early."""

    def __init__(self, report: Report, settings: VerifySettings, deadline: float | None = None,
                 progress: Progress | None = None, total: int = 0, told: Callable[[], str] | None = None) -> None:
        self.report, self.settings, self.deadline = report, settings, deadline
        self.progress, self.total = progress, total
        self.told = told  # why another part of the run (a verify --jobs worker) says to stop, "" to go on
        self.streak: tuple[str, int] = ("", 0)
        self._last = time.monotonic()

    def add(self, check: Check, cause: str | None = None) -> None:
        """Record a check (with the time since the one before); ``cause``: how the build broke, when it did."""
        now = time.monotonic()
        check = replace(check, seconds=round(now - self._last, 3))
        self._last = now
        self.report.checks.append(check)
        if cause is None:
            self.streak = ("", 0)
        else:
            self.streak = (cause, self.streak[1] + 1 if self.streak[0] == cause else 1)
        if self.progress is not None:
            self.progress(check, len(self.report.checks), max(self.total, len(self.report.checks)))

    def stop_reason(self) -> str:
        """Why the run must stop now ("" to go on); once set, it stays."""
        if self.report.stopped:
            return self.report.stopped
        report = self.report
        if report.broke_at_start is not None:
            report.stopped = "the build did not start"
        elif self.streak[1] >= BREAK_STREAK:
            report.stopped = (f"the build broke the same way ({self.streak[0]}) on {self.streak[1]} checks in a "
                              f"row, so it was not started again")
        elif self.settings.fail_fast and (report.count(Status.FAILED) or report.count(Status.BROKE)):
            report.stopped = "--fail-fast: stopped at the first failure"
        elif self.deadline is not None and time.monotonic() >= self.deadline:
            report.stopped = f"--max-time {self.settings.max_time:g} s ran out"
        elif self.told is not None:
            report.stopped = self.told()
        return report.stopped

    def left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def not_run(self, traces: list[Trace]) -> None:
        for trace in traces:
            self.add(Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules, Status.NOT_RUN,
                           f"not run: {self.report.stopped}", trace.ruleset))


def trace_check(trace: Trace, result: TraceResult) -> Check:
    """The Check of one replayed trace."""
    name, file = f"{trace.game}/{trace.name}", shown_path(trace.path)
    if result.status == Status.NOT_RUN:
        return Check("trace", trace.game, name, trace.rules, Status.NOT_RUN, result.reason, trace.ruleset, file=file)
    if result.status == Status.CONFORMS:
        return Check("trace", trace.game, name, trace.rules, Status.PASSED, trace.judged_by, trace.ruleset, file=file)
    step = result.failure.number if result.failure is not None else 0
    failure = trace_failure(trace, result, decided_by(trace, step))
    return Check("trace", trace.game, name, trace.rules, Status.FAILED, failure.message, trace.ruleset, failure=failure,
                 file=file)


def _broke(trace: Trace, exc: BuildBroke, transcript: tuple[dict[str, Any], ...] = ()) -> Check:
    detail = str(exc)
    if exc.request is not None:
        detail += "\nsent: " + json.dumps(exc.request, ensure_ascii=False, separators=(",", ":"))[:300]
    return Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules, Status.BROKE, detail, trace.ruleset,
                 exc.stderr_tail, transcript=transcript)


def run_traces(build: Build, traces: list[Trace], run: Run) -> None:
    """Replay ``traces`` against the build (all requests sent ahead when pipelining), starting the
    build again after it breaks, until the run must stop; with ``oracle``, every answer is also judged
    against the reference's. What was not replayed is recorded as not run, with the reason. With
    ``transcripts``, a failing or broken check keeps its raw exchanges."""
    pipeline = run.settings.pipeline
    reference = ReferenceDriver() if run.settings.oracle else None
    report = run.report
    remaining = list(traces)
    while remaining and not run.stop_reason():
        record: list[dict[str, Any]] | None = [] if run.settings.transcripts else None
        try:
            driver = build.start(pipeline, transcript=record)
        except BuildBroke as exc:
            if not report.checks:
                report.broke_at_start = exc
                break
            trace = remaining.pop(0)
            exc.where = f"{trace.path} (starting the build again)"
            run.add(_broke(trace, exc, tuple(exchanges(record)) if record is not None else ()), exc.cause)
            continue
        report.build = f"{driver.name} {driver.version}".strip()
        report.explicit_chance = driver.explicit_chance is not None
        first_id = 1  # the hello is request 0; the traces' requests follow in order
        failed: list[tuple[int, TraceResult]] = []  # (the check's place in the report, the trace's result)
        try:
            with closing(replay_all(remaining, driver, oracle=reference)) as results:
                for result in results:
                    remaining.pop(0)
                    check = trace_check(result.trace, result)
                    if check.status == Status.FAILED and result.failure is not None:
                        failed.append((len(report.checks), result))
                    if record is not None and check.status == Status.FAILED:
                        check = replace(check, transcript=tuple(
                            exchanges(record, range(first_id, first_id + result.requests))))
                    first_id += result.requests
                    run.add(check)
                    if run.stop_reason():
                        driver.process.close()  # answers still due are not waited for
                        break
            if failed and reference is not None and not run.stop_reason():
                resynchronise(failed, driver, reference, run)
        except BuildBroke as exc:
            unfinished = remaining.pop(0) if remaining else None
            if unfinished is not None:
                kept = tuple(exchanges(record, range(first_id, driver._next_id))) if record is not None else ()
                run.add(_broke(unfinished, exc, kept), exc.cause)
            driver.process.close()
        finally:
            driver.close()
    if run.stop_reason():
        run.not_run(remaining)


RESYNC_LIMIT = 10  # later differences reported for one trace at most
RESYNC_RUN_LIMIT = 60  # resynchronisations in one run at most: a build that fails everything gets its verdict


def resynchronise(failed: list[tuple[int, TraceResult]], driver: ProtocolDriver, reference: ReferenceDriver,
                  run: Run) -> None:
    """Go on with each failed trace after its first difference: put the build in the reference's position
    before the next step (a start with the set-up that gives it, ``Game.setup_of``), send the rest of the
    trace, judge it by the reference's answers, and so on after each later difference; the differences are
    added to the check's failure as ``later``. A game without set-ups, a position no set-up can give, or a
    difference at the last step ends it. Raises BuildBroke."""
    budget = RESYNC_RUN_LIMIT
    for index, result in failed:
        trace, check = result.trace, run.report.checks[index]
        later: list[Failure] = []
        current = result
        while current.failure is not None and len(later) < RESYNC_LIMIT and budget > 0 and not run.stop_reason():
            budget -= 1
            number = current.failure.number
            rest = [st for st in trace.steps[number:] if st.number > number] if number < len(trace.steps) else []
            setup = _position_after(trace, number)
            if not rest or setup is None:
                break
            derived = replace(trace, setup=setup, start=None, steps=Steps.of(rest),
                              judged_by=f"resynchronised after step {number}")
            current = next(replay_all([derived], driver, oracle=reference))
            if current.failure is not None:
                later.append(trace_failure(derived, current))
        if later and check.failure is not None:
            run.report.checks[index] = replace(check, failure=replace(check.failure, later=tuple(later)))


def _position_after(trace: Trace, number: int) -> dict[str, Any] | None:
    """The set-up that gives the reference's position after step ``number`` of ``trace`` (0: the start), or
    None when the game has no set-ups or cannot give it."""
    engine = GAMES[trace.game]
    if type(engine).setup_of is Game.setup_of:
        return None
    session = ReferenceDriver()
    ops = [Start(trace.game, trace.ruleset, trace.seed, dict(trace.setup))] + \
        [step_op(trace, st) for st in trace.steps[:number]]
    for _ in session.batch(ops):
        pass
    state = session.session.state
    if state is None or session.session.game is not engine:
        return None
    setup = engine.setup_of(state)
    if setup is None:
        return None
    try:
        engine.new_state(trace.ruleset, trace.seed, setup)
    except RuleViolation:
        return None
    return setup


def _scenario_check(scenario: Scenario, outcome: Outcome, transcript: tuple[dict[str, Any], ...]) -> Check:
    """The Check of one scenario run: a mismatch's fields credited to the scenario's rules that decide them."""
    status = outcome.status  # passed, failed, not-run or broke: a scenario's outcome is its check's status
    failure = None
    if outcome.status == Status.FAILED and outcome.step is not None:
        fields: tuple[FieldDiff, ...] = ()
        error = outcome.error
        request, asked = outcome.request, None
        if isinstance(error, ByReference):  # credited as a trace's difference from the reference's answer is
            fields = tuple(replace(f, expected=bounded(f.expected), actual=bounded(f.actual)) for f in
                           field_diffs(scenario.game, [(error.difference, True)], (), scenario.rules,
                                       reached=error.reached))
            request, asked = error.sent, error.asked
        elif isinstance(error, Mismatch):
            info = GAMES[scenario.game].info if scenario.game in GAMES else None
            deciding = [r for r in (info.rules_of(error.path) if info else ()) if r in scenario.rules]
            credited = owners(deciding, scenario.rules)
            fields = (FieldDiff(error.path, bounded(error.expected), bounded(error.actual),
                                credited[0] if credited else None, tuple(r for r in deciding if r not in credited),
                                owners=credited),)
        failure = Failure(scenario.file, outcome.step.line, None, outcome.step.label, request, asked,
                          fields=fields, message=outcome.message)
    broke = outcome.error if isinstance(outcome.error, BuildBroke) else None
    return Check("scenario", scenario.game, scenario.check_name, scenario.rules, status, outcome.detail,
                 stderr=broke.stderr_tail if broke else "", failure=failure,
                 transcript=transcript if status in (Status.FAILED, Status.BROKE) else (), file=scenario.file,
                 line=scenario.line)


def run_scenarios(build: Build, scenarios: list[Scenario], run: Run, keep: bool = False) -> ProtocolDriver | None:
    """Run ``scenarios`` in this process against the build (one build process, started again after it
    breaks), one Check each, recorded as each ends, until the run must stop; the rest is not run. The run's
    deadline bounds them: a scenario is not started once it has passed. With ``keep``, the build process is
    handed back, still running and in step, for the exploration (a slow build, a page, starts once less);
    else, and when it broke, it is closed and None returned."""
    builds = Builds(build, deadline=run.deadline)
    games, rulesets = run.settings.games, run.settings.rulesets
    wanted_games, wanted_rulesets = set(games) if games else None, set(rulesets) if rulesets else None
    remaining = list(scenarios)
    try:
        while remaining and not run.stop_reason():
            scenario = remaining.pop(0)
            try:
                started = builds.get()
                driver = Selected(Oracled(started) if run.settings.oracle else started, wanted_games,
                                  wanted_rulesets)
            except NotRun as exc:
                run.add(Check("scenario", scenario.game, scenario.check_name, scenario.rules, Status.NOT_RUN, str(exc)))
                continue
            except BuildBroke as exc:
                if not run.report.checks:
                    run.report.broke_at_start = exc
                    break
                exc.where = f"{scenario.file}:{scenario.line} (starting the build)"
                run.add(Check("scenario", scenario.game, scenario.check_name, scenario.rules, Status.BROKE, str(exc),
                              stderr=exc.stderr_tail), exc.cause)
                continue
            run.report.build = run.report.build or f"{driver.name} {driver.version}".strip()
            outcome = run_scenario(scenario, driver)
            kept = tuple(transcript_of(driver)) if run.settings.transcripts and outcome.status in (
                Status.FAILED, Status.BROKE) else ()
            broke = outcome.error if isinstance(outcome.error, BuildBroke) else None
            run.add(_scenario_check(scenario, outcome, kept), broke.cause if broke else None)
    finally:
        current = builds.current
        if keep and current is not None and current.alive and not current.process.broken:
            builds.current = None
            current.transcript = None
        else:
            builds.close()
            current = None
    for scenario in remaining:
        run.add(Check("scenario", scenario.game, scenario.check_name, scenario.rules, Status.NOT_RUN,
                      f"not run: {run.report.stopped}"))
    return current
