"""``refimpl verify``: run every bundled trace and Gherkin scenario against a build, through the protocol.

Everything runs in this process: traces over a ProtocolDriver (pipelined), scenarios step by step through
the scenario runner (refimpl/scenarios) over another. Every build is started in the folder verify was run
from. Results become one list of checks, each tagged with its game and rule IDs, from which the matrix, the
reports and the exit code are made.
"""

from __future__ import annotations

import json
import time
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable

from . import suite
from .util import yamlsafe
from .harness.compare import first_difference
from .harness.chance import STREAM_RULES
from .harness.driver import BuildBroke, DriverError, ReferenceDriver, request
from .games import GAMES, Game, RuleViolation
from .games.base import owners
from .harness.protocol import DEFAULT_TIMEOUT, ProtocolDriver
from .harness.replay import CONFORMS, MISMATCH, NOT_RUN, TraceResult, outcome_difference, plan, replay_all, step_op
from .reports.model import (BROKE, FAILED, PASSED, SKIPPED, STATUSES, XFAIL, XPASS, Check, Failure, FieldDiff, Report,
                            shown_path, trace_failure)
from .reports.safetext import bounded
from .scenarios import (BROKE as SCENARIO_BROKE, FAILED as SCENARIO_FAILED, NOT_RUN as SCENARIO_NOT_RUN,
                        PASSED as SCENARIO_PASSED, Builds, FeatureError, Mismatch, NotRun, Outcome, Scenario,
                        Selected, UndefinedStep, bundled, check_steps, run_scenario)
from .scenarios.runner import transcript_of
from .harness.trace import Steps, Trace, TraceError, by_reference, load_traces
from .rulebook.profiles import Profile, by_game, using
from .reports.transcript import exchanges
from .errors import KitError


class VerifyError(KitError):
    """Bad input to verify (an unreadable expect-fail file, features that do not load...): exit 2."""


# --- expected failures ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Expectation:
    """One entry of an expect-fail file: a trace, scenario or rule the build is known to fail, and why."""

    kind: str  # trace | scenario | rule
    pattern: str
    reason: str
    where: str = ""  # FILE:LINE of the entry

    def names(self, kind: str, name: str, rules: Iterable[str] = ()) -> bool:
        """Whether the entry names a check of this kind and name (a rule entry: a check of that rule)."""
        if self.kind == "rule":
            return self.pattern in rules
        return self.kind == kind and self.pattern.lower() in name.lower()

    def matches(self, check: Check) -> bool:
        """Whether the entry covers ``check``: a trace or scenario by name; a rule entry only a failure it
        owns (a differing field of that rule's), or, with no fields to tell, a check tagged with it."""
        if self.kind != "rule":
            return self.names(check.kind, check.name)
        return self.pattern in check.credited


def load_expect_fail(path: str) -> list[Expectation]:
    """Read an expect-fail file: a YAML list of {trace|scenario|rule: TEXT, reason: TEXT}. Raises VerifyError
    naming the file and line of an entry that is not of that shape or has no reason."""
    try:
        text, data = yamlsafe.load_file(path)
    except yamlsafe.YamlError as exc:
        raise VerifyError(f"{exc} (the expect-fail file)") from None
    if data is None:
        return []
    if not isinstance(data, list):
        raise VerifyError(f"{path}:1: an expect-fail file is a YAML list of entries")
    try:
        lines = yamlsafe.line_map(yamlsafe.compose(text))  # type: ignore[arg-type]
    except Exception:  # the data loaded, so this does not happen; lines are a courtesy
        lines = {}
    out = []
    for i, entry in enumerate(data):
        where = f"{path}:{lines.get((i,), '?')}"
        keys = [k for k in ("trace", "scenario", "rule") if isinstance(entry, dict) and k in entry]
        if len(keys) != 1:
            raise VerifyError(f"{where}: an entry names exactly one of trace, scenario or rule, with a reason")
        unknown = sorted(set(entry) - {keys[0], "reason"})
        if unknown:
            raise VerifyError(f"{where}: unknown key {unknown[0]!r} (an entry has {keys[0]} and reason)")
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise VerifyError(f"{where}: the entry for {keys[0]} {entry[keys[0]]!r} has no reason (say why the "
                              f"build is expected to fail it, e.g. a ticket)")
        if not isinstance(entry[keys[0]], str) or not entry[keys[0]].strip():
            raise VerifyError(f"{where}: {keys[0]} must be a non-empty text")
        out.append(Expectation(keys[0], entry[keys[0]].strip(), reason.strip(), where))
    return out


def check_expectations(expected: list[Expectation], traces: list[Trace], scenarios: list[Scenario]) -> None:
    """Raise VerifyError (exit 2, naming the entry's file and line) for an entry that names no trace,
    scenario or rule the kit has: a misspelt entry must not pass silently."""
    from .rulebook.rules import spec_rules

    rules = {r for g in GAMES.values() for r in spec_rules(suite.spec_text(g.info.spec) or "")}
    names = [s.check_name for s in scenarios]
    for e in expected:
        if e.kind == "rule":
            known = e.pattern in rules
        elif e.kind == "trace":
            known = any(e.names("trace", f"{t.game}/{t.name}") for t in traces)
        else:
            known = any(e.names("scenario", name) for name in names)
        if not known:
            what = {"rule": "no spec has this rule ID", "trace": "no trace's name contains it",
                    "scenario": "no scenario's name contains it"}[e.kind]
            raise VerifyError(f"{e.where}: expect-fail entry {e.kind}: {e.pattern!r} matches nothing ({what})")


def apply_expectations(checks: list[Check], expected: list[Expectation]) -> tuple[list[Check], list[str]]:
    """Declared failures become xfail; a declared trace or scenario that passes becomes xpass.

    A ``rule`` entry covers only the failures that rule owns (see Expectation.matches); when none of the
    checks of that rule that ran fails so, the entry itself is reported as an xpass. An entry whose
    checks were not selected in this run is noted, not an error.
    """
    out, used = [], set()
    by_rule = {e.pattern: e for e in expected if e.kind == "rule"}
    for check in checks:
        hit = next((e for e in expected if e.kind != "rule" and e.matches(check)), None)
        fields = [f for f in check.failure.fields if f.credited] if check.failure is not None else []
        # rule entries cover a failure only when each differing field has an entry for one of the rules it is
        # credited to (the kit cannot tell which of them the build broke); a failure with no fields to tell (a
        # scenario's assertion) is covered by an entry for any rule it is tagged with
        if fields:
            covering = [[r for r in f.credited if r in by_rule] for f in fields]
            owners = [r for found in covering for r in found] if all(covering) else []
        else:
            owners = [r for r in check.credited if r in by_rule]
        if hit is None and check.status == FAILED and owners:
            entries = [by_rule[r] for r in dict.fromkeys(owners)]
            used.update(entries)
            check = replace(check, status=XFAIL, reason="; ".join(dict.fromkeys(e.reason for e in entries)))
        elif hit is not None and check.status == FAILED:
            used.add(hit)
            check = replace(check, status=XFAIL, reason=hit.reason)
        elif hit is not None and check.status == PASSED:
            used.add(hit)
            check = replace(check, status=XPASS, reason=hit.reason)
        elif hit is not None:
            used.add(hit)  # broke or not run: neither confirms nor refutes the entry
        out.append(check)
    notes = []
    unreviewed = [e for e in expected if e.reason.startswith(RECORDED)]
    if unreviewed:
        notes.append(f"{len(unreviewed)} expect-fail entries were recorded by --write-expect-fail and not reviewed "
                     f"(first: {unreviewed[0].where}): give each a real reason")
    for e in expected:
        if e in used:
            continue
        ran = [c for c in checks if c.status in (PASSED, FAILED) and e.names(c.kind, c.name, c.rules)]
        if e.kind == "rule" and ran:
            out.append(Check("rule", ran[0].game, e.pattern, (e.pattern,), XPASS,
                             f"no failure in this run is owned by {e.pattern} ({len(ran)} checks of it ran)",
                             reason=e.reason))
        elif not any(e.names(c.kind, c.name, c.rules) for c in checks):
            notes.append(f"{e.where}: expect-fail entry {e.kind}: {e.pattern!r} was not applied: "
                         f"nothing it names was selected in this run")
    return out, notes


# --- running ------------------------------------------------------------------------------------

BREAK_STREAK = 3  # a build that breaks the same way on this many checks in a row is not started again
Progress = Callable[[Check, int, int], None]  # (the check just done, checks done, checks known so far)


class _Run:
    """What one verify run knows while it runs: the report, and whether it must stop early."""

    def __init__(self, report: Report, deadline: float | None, fail_fast: bool, max_time: float | None,
                 progress: Progress | None, total: int, transcripts: bool = False,
                 told: Callable[[], str] | None = None) -> None:
        self.report, self.deadline, self.fail_fast, self.max_time = report, deadline, fail_fast, max_time
        self.progress, self.total, self.transcripts = progress, total, transcripts
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
        elif self.fail_fast and (report.count(FAILED) or report.count(BROKE)):
            report.stopped = "--fail-fast: stopped at the first failure"
        elif self.deadline is not None and time.monotonic() >= self.deadline:
            report.stopped = f"--max-time {self.max_time:g} s ran out"
        elif self.told is not None:
            report.stopped = self.told()
        return report.stopped

    def left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def not_run(self, traces: list[Trace]) -> None:
        for trace in traces:
            self.add(Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules, SKIPPED,
                           f"not run: {self.report.stopped}", trace.ruleset))


def _trace_check(trace: Trace, result: TraceResult) -> Check:
    name, file = f"{trace.game}/{trace.name}", shown_path(trace.path)
    if result.status == NOT_RUN:
        return Check("trace", trace.game, name, trace.rules, SKIPPED, result.reason, trace.ruleset, file=file)
    if result.status == CONFORMS:
        return Check("trace", trace.game, name, trace.rules, PASSED, trace.judged_by, trace.ruleset, file=file)
    failure = trace_failure(trace, result)
    return Check("trace", trace.game, name, trace.rules, FAILED, failure.message, trace.ruleset, failure=failure,
                 file=file)


def _broke(trace: Trace, exc: BuildBroke, transcript: tuple[dict[str, Any], ...] = ()) -> Check:
    detail = str(exc)
    if exc.request is not None:
        detail += "\nsent: " + json.dumps(exc.request, ensure_ascii=False, separators=(",", ":"))[:300]
    return Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules, BROKE, detail, trace.ruleset,
                 exc.stderr_tail, transcript=transcript)


def run_traces(command: str, traces: list[Trace], timeout: float, pipeline: bool, run: _Run,
               oracle: bool = True) -> None:
    """Replay ``traces`` against the build (all requests sent ahead when pipelining), starting the
    build again after it breaks, until the run must stop; with ``oracle``, every answer is also judged
    against the reference's. What was not replayed is recorded as not run, with the reason. With
    ``run.transcripts``, a failing or broken check keeps its raw exchanges."""
    reference = ReferenceDriver() if oracle else None
    report = run.report
    remaining = list(traces)
    while remaining and not run.stop_reason():
        record: list[dict[str, Any]] | None = [] if run.transcripts else None
        try:
            driver = ProtocolDriver(command, timeout, pipeline, transcript=record)
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
                    check = _trace_check(result.trace, result)
                    if check.status == FAILED and result.failure is not None:
                        failed.append((len(report.checks), result))
                    if record is not None and check.status == FAILED:
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
            trace = remaining.pop(0) if remaining else None
            if trace is not None:
                kept = tuple(exchanges(record, range(first_id, driver._next_id))) if record is not None else ()
                run.add(_broke(trace, exc, kept), exc.cause)
            driver.process.close()
        finally:
            driver.close()
    if run.stop_reason():
        run.not_run(remaining)


RESYNC_LIMIT = 10  # later differences reported for one trace at most
RESYNC_RUN_LIMIT = 60  # resynchronisations in one run at most: a build that fails everything gets its verdict


def resynchronise(failed: list[tuple[int, TraceResult]], driver: ProtocolDriver, reference: ReferenceDriver,
                  run: _Run) -> None:
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
    ops = [("start", trace.game, trace.ruleset, trace.seed, dict(trace.setup))] + \
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


def _declares_explicit_chance(command: str, timeout: float) -> bool:
    """Whether the build declares explicit-chance in its hello (False when it does not start)."""
    try:
        driver = ProtocolDriver(command, timeout)
    except BuildBroke:
        return False
    try:
        return driver.explicit_chance is not None
    finally:
        driver.close()


def run_perft(command: str, games: list[str] | None, rulesets: list[str] | None, depth: int, timeout: float,
              run: _Run) -> None:
    """Check the build's legal-action lists against the golden perft counts (where it lists them)."""
    from .harness.perft import check_build, load_golden

    driver: ProtocolDriver | None = None
    try:
        for game in sorted(GAMES):
            for ruleset in GAMES[game].info.rulesets:
                golden = load_golden(game, ruleset)
                if golden is None or (games and game not in games) or (rulesets and ruleset not in rulesets):
                    continue
                name = f"{game}/perft-{ruleset} to depth {min(depth, golden['depth'])}"
                rules = GAMES[game].info.field_rules.get("legal", ())[:1]  # the legal lists' first rule
                if run.stop_reason():
                    run.add(Check("perft", game, name, rules, SKIPPED, f"not run: {run.stop_reason()}", ruleset))
                    continue
                try:
                    driver = driver or ProtocolDriver(command, timeout)
                    if not driver.supports(game, ruleset) or not driver.lists_legal:
                        reason = "the build does not list legal actions" if driver.supports(game, ruleset) else \
                            f"{driver.name} does not declare {game} {ruleset}"
                        run.add(Check("perft", game, name, rules, SKIPPED, reason, ruleset))
                        continue
                    found = check_build(driver, game, ruleset, min(depth, golden["depth"]))
                except BuildBroke as exc:
                    run.add(Check("perft", game, name, rules, BROKE, str(exc), ruleset, exc.stderr_tail), exc.cause)
                    if driver is not None:
                        driver.process.close()
                    driver = None
                    continue
                run.add(Check("perft", game, name, rules, PASSED if found is None else FAILED,
                              "" if found is None else str(found), ruleset))
    finally:
        if driver is not None:
            driver.close()


# Requests a fresh build gets before any start (specs/protocol.md, "Edge cases, settled"): each is no-game.
BEFORE_START: tuple[tuple[str, Any], ...] = (
    ("apply without action", ("request", {"op": "apply"})),
    ("apply", ("request", {"op": "apply", "action": {"type": "end-actions"}})),
    ("state", ("view", None)),
    ("legal", ("legal", None)),
    ("restart", ("restart",)),
)


BEFORE_START_NAME = "protocol/before any start"


def run_before_start(command: str, timeout: float, run: _Run) -> bool | None:
    """Send a fresh build the requests of BEFORE_START before any game is started, and judge each answer by
    the reference's (one check, of the pseudo-game ``protocol``; run when no --game narrows the run). Returns
    whether the build declared explicit-chance in its hello (None when it did not start)."""
    name = BEFORE_START_NAME
    try:
        driver = ProtocolDriver(command, timeout, pipeline=False)
    except BuildBroke:
        return None  # reported by the checks that start the build
    explicit = driver.explicit_chance is not None
    try:
        reference = ReferenceDriver()
        for words, op in BEFORE_START:
            if op[0] == "legal" and not driver.lists_legal:
                continue
            theirs = next(iter(driver.batch([op])))
            ours = next(iter(reference.batch([op])))
            diff = outcome_difference(ours, theirs)
            if diff is not None:
                field = FieldDiff(diff.path, bounded(diff.expected), bounded(diff.actual), None)
                failure = Failure("specs/protocol.md", None, None, f"{words} before any start", request(op),
                                  fields=(field,), message=f"{words} before any start: {diff}")
                run.add(Check("protocol", "protocol", name, (), FAILED, failure.message, failure=failure))
                return explicit
        run.add(Check("protocol", "protocol", name, (), PASSED, "no-game for apply (with and without an action), state, "
                      "legal and restart"))
    except BuildBroke as exc:
        run.add(Check("protocol", "protocol", name, (), BROKE, str(exc), None, exc.stderr_tail), exc.cause)
    finally:
        driver.close()
    return explicit


def run_own_chance(command: str, games: list[str] | None, rulesets: list[str] | None, timeout: float,
                   run: _Run) -> None:
    """For a build with its own random source: send it chance requests without an outcome and judge each
    answer and, over the run, the outcomes' distribution (refimpl/harness/ownchance.py). One check per stream."""
    from .harness import ownchance

    driver: ProtocolDriver | None = None
    try:
        for game in sorted(ownchance.JUDGES):
            if (games and game not in games) or run.stop_reason():
                continue
            ruleset = GAMES[game].info.default_ruleset
            if rulesets and ruleset not in rulesets:
                continue
            driver = driver or ProtocolDriver(command, timeout, pipeline=False)
            if not driver.supports(game, ruleset):
                continue
            try:
                verdicts = list(ownchance.judge(driver, game, ruleset))
            except (BuildBroke, DriverError) as exc:
                stderr = exc.stderr_tail if isinstance(exc, BuildBroke) else ""
                run.add(Check("chance", game, f"{game}/own chance", (), BROKE if isinstance(exc, BuildBroke)
                              else FAILED, f"asked for its own chance outcomes: {exc}", ruleset, stderr),
                        exc.cause if isinstance(exc, BuildBroke) else None)
                if driver is not None:
                    driver.process.close()
                driver = None
                continue
            for v in verdicts:
                run.add(_chance_check(v, ruleset))
    finally:
        if driver is not None:
            driver.close()


def _chance_check(v: Any, ruleset: str) -> Check:
    """The Check of one judged stream of a build's own chance."""
    from .harness.ownchance import ALPHA

    found = v.tally.test() if v.tally is not None else None
    if v.impossible:
        failure = Failure(v.name, None, None, "its own chance", v.request, message=v.impossible)
        return Check("chance", v.game, v.name, v.rules, FAILED, f"after {v.judged} judged: {v.impossible}", ruleset,
                     failure=failure)
    if v.judged == 0:
        return Check("chance", v.game, v.name, v.rules, SKIPPED, f"not run: {v.note}", ruleset)
    words = f"{v.judged} outcomes, each one the rules allow"
    if v.tally is not None and v.tally.cells and {k for k, _ in v.tally.cells} == {6}:
        words += f"; faces 1-6 seen {', '.join(map(str, v.tally.counts(6)))} times"
    if found is None:
        return Check("chance", v.game, v.name, v.rules, PASSED, words + (
            "; too few draws for a distribution test" if v.tally is not None else " (judged allowed only)"), ruleset)
    statistic, df, p = found
    words += f"; chi-square {statistic:.1f} on {df} df, p = {p:.3g} (fails below {ALPHA:g})"
    if p < ALPHA:
        failure = Failure(v.name, None, None, "its own chance", None,
                          message=f"the outcomes are not distributed as the rules say: {words}")
        return Check("chance", v.game, v.name, v.rules, FAILED, failure.message, ruleset, failure=failure)
    return Check("chance", v.game, v.name, v.rules, PASSED, words, ruleset)


def run_twice(command: str, traces: list[Trace], timeout: float, run: _Run) -> None:
    """Send every trace's requests twice to a fresh build and report any answer that differs."""
    answers = []
    runnable: list[Trace] = []
    for _ in range(2):
        try:
            driver = ProtocolDriver(command, timeout)
        except BuildBroke as exc:
            run.add(Check("determinism", "", "the requests twice", (), BROKE, str(exc), None, exc.stderr_tail),
                    exc.cause)
            return
        runnable = [t for t in traces if driver.supports(t.game, t.ruleset)]
        try:
            answers.append([list(driver.batch([p.op for p in plan(t, driver.lists_legal)[0]])) for t in runnable])
        except BuildBroke as exc:
            run.add(Check("determinism", "", "the requests twice", (), BROKE, str(exc), None, exc.stderr_tail),
                    exc.cause)
            driver.process.close()
            return
        finally:
            driver.close()
    for trace, first, second in zip(runnable, *answers):
        name = f"{trace.game}/{trace.name} twice"
        differs = next(((i, a, b) for i, (a, b) in enumerate(zip(first, second)) if a != b), None)
        if differs is None:
            run.add(Check("determinism", trace.game, name, trace.rules, PASSED, "", trace.ruleset))
            continue
        i, a, b = differs
        diff = first_difference(a, b) if isinstance(a, dict) and isinstance(b, dict) else None
        detail = f"answer {i} differs between two runs of the same requests: " + (
            str(diff) if diff else f"{a!r} then {b!r}")
        run.add(Check("determinism", trace.game, name, trace.rules, FAILED, detail, trace.ruleset))


def _scenario_check(scenario: Scenario, outcome: Outcome, transcript: tuple[dict[str, Any], ...]) -> Check:
    """The Check of one scenario run: a mismatch's fields credited to the scenario's rules that decide them."""
    status = {SCENARIO_PASSED: PASSED, SCENARIO_FAILED: FAILED, SCENARIO_NOT_RUN: SKIPPED,
              SCENARIO_BROKE: BROKE}[outcome.status]
    failure = None
    if outcome.status == SCENARIO_FAILED and outcome.step is not None:
        fields: tuple[FieldDiff, ...] = ()
        error = outcome.error
        if isinstance(error, Mismatch):
            info = GAMES[scenario.game].info if scenario.game in GAMES else None
            deciding = [r for r in (info.rules_of(error.path) if info else ()) if r in scenario.rules]
            credited = owners(deciding, scenario.rules)
            fields = (FieldDiff(error.path, bounded(error.expected), bounded(error.actual),
                                credited[0] if credited else None, tuple(r for r in deciding if r not in credited),
                                owners=credited),)
        failure = Failure(scenario.file, outcome.step.line, None, outcome.step.label, outcome.request,
                          fields=fields, message=outcome.message)
    broke = outcome.error if isinstance(outcome.error, BuildBroke) else None
    return Check("scenario", scenario.game, scenario.check_name, scenario.rules, status, outcome.detail,
                 stderr=broke.stderr_tail if broke else "", failure=failure,
                 transcript=transcript if status in (FAILED, BROKE) else (), file=scenario.file, line=scenario.line)


def run_scenarios(command: str, scenarios: list[Scenario], timeout: float, games: list[str] | None,
                  rulesets: list[str] | None, run: _Run) -> None:
    """Run ``scenarios`` in this process against the build (one build process, started again after it
    breaks), one Check each, recorded as each ends, until the run must stop; the rest is not run. The run's
    deadline bounds them: a scenario is not started once it has passed."""
    builds = Builds(command, timeout, deadline=run.deadline)
    wanted_games, wanted_rulesets = set(games) if games else None, set(rulesets) if rulesets else None
    remaining = list(scenarios)
    try:
        while remaining and not run.stop_reason():
            scenario = remaining.pop(0)
            try:
                driver = Selected(builds.get(), wanted_games, wanted_rulesets)
            except NotRun as exc:
                run.add(Check("scenario", scenario.game, scenario.check_name, scenario.rules, SKIPPED, str(exc)))
                continue
            except BuildBroke as exc:
                if not run.report.checks:
                    run.report.broke_at_start = exc
                    break
                exc.where = f"{scenario.file}:{scenario.line} (starting the build)"
                run.add(Check("scenario", scenario.game, scenario.check_name, scenario.rules, BROKE, str(exc),
                              stderr=exc.stderr_tail), exc.cause)
                continue
            run.report.build = run.report.build or f"{driver.name} {driver.version}".strip()
            outcome = run_scenario(scenario, driver)
            kept = tuple(transcript_of(driver)) if run.transcripts and outcome.status in (
                SCENARIO_FAILED, SCENARIO_BROKE) else ()
            broke = outcome.error if isinstance(outcome.error, BuildBroke) else None
            run.add(_scenario_check(scenario, outcome, kept), broke.cause if broke else None)
    finally:
        builds.close()
    for scenario in remaining:
        run.add(Check("scenario", scenario.game, scenario.check_name, scenario.rules, SKIPPED,
                      f"not run: {run.report.stopped}"))


def select_scenarios(features: Path | None, games: list[str] | None, keyword: str | None) -> list[Scenario]:
    """The scenarios a run checks against an outside build: the bundled ones (or those in ``features``) of
    the selected games whose name contains ``keyword``, the kit's own @kit checks left out. Raises VerifyError
    for a feature file that does not parse or a step no definition matches (before any build starts)."""
    from .scenarios import gherkin

    try:
        found = bundled() if features is None else gherkin.load_folder(features)
        check_steps(found)
    except (FeatureError, UndefinedStep) as exc:
        raise VerifyError(f"the scenarios cannot run: {exc}") from None
    word = keyword.lower() if keyword else None
    return [s for s in found if not s.kit_only and (not games or s.game in games)
            and (word is None or word in f"{s.game} {s.check_name}".lower())]


def select_traces(paths: list[str] | None, games: list[str] | None, rulesets: list[str] | None,
                  keyword: str | None) -> list[Trace]:
    """The traces a run checks. Raises TraceError (every bad trace named) or BadChecks (exit 2)."""
    from .harness.preflight import check_traces

    selected = []
    for trace in load_traces(paths or [suite.trace_folder()]):
        if games and trace.game not in games or rulesets and trace.ruleset not in rulesets:
            continue
        if keyword and keyword.lower() not in f"{trace.game}/{trace.name} {trace.title}".lower():
            continue
        selected.append(trace)
    check_traces(selected)
    return selected


def check_selection(games: list[str] | None, rulesets: list[str] | None) -> None:
    """Raise VerifyError for a --game or --ruleset the kit does not have (naming the known ones)."""
    for game in games or []:
        if game not in GAMES:
            raise VerifyError(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    chosen = [GAMES[g] for g in games] if games else list(GAMES.values())
    known = sorted({r for g in chosen for r in g.info.rulesets})
    for ruleset in rulesets or []:
        if ruleset not in known:
            scope = f" for {', '.join(games)}" if games else ""
            raise VerifyError(f"unknown ruleset {ruleset!r}{scope} (known: {', '.join(known)})")


def _under_profiles(traces: list[Trace], scenarios: list[Scenario], mine: dict[str, Profile], oracle: bool,
                    run: _Run) -> tuple[list[Trace], list[Scenario]]:
    """The traces and scenarios to run under the profiles ``mine`` (the registry already swapped): each trace
    of a profiled game is replayed on the reference under its profile first; one it passes runs as written,
    one it fails is judged by the reference alone (its written expectations depend on a changed value), one
    whose start is refused is not run; a scenario the reference fails under the profile is not run."""
    from .harness.preflight import check_trace
    from .scenarios.runner import PASSED as SCENARIO_OK, run_scenario

    kept: list[Trace] = []
    for trace in traces:
        profile = mine.get(trace.game)
        bad = check_trace(trace) if profile is not None else []
        if not bad:
            kept.append(trace)
        elif bad[0].kind in ("start", "observer") or not oracle:
            why = (f"the profile {profile.name} makes its start impossible ({bad[0].reason})" if bad[0].kind
                   in ("start", "observer") else f"it depends on a value the profile {profile.name} changes, and "
                   f"--no-oracle leaves nothing to judge it by")  # type: ignore[union-attr]
            run.add(Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules, SKIPPED, f"not run: {why}",
                          trace.ruleset))
        else:
            kept.append(by_reference(trace, f"its written expectations depend on a value the profile "
                                            f"{profile.name} changes ({bad[0].reason}); every answer is judged "
                                            f"by the reference under the profile"))  # type: ignore[union-attr]
    runnable: list[Scenario] = []
    for scenario in scenarios:
        profile = mine.get(scenario.game)
        if profile is None:
            runnable.append(scenario)
            continue
        reference = ReferenceDriver()
        outcome = run_scenario(scenario, reference)
        if outcome.status == SCENARIO_OK:
            runnable.append(scenario)
        else:
            run.add(Check("scenario", scenario.game, scenario.check_name, scenario.rules, SKIPPED,
                          f"not run: the reference under the profile {profile.name} does not pass it (it depends "
                          f"on a value the profile changes): {outcome.detail.splitlines()[0] if outcome.detail else ''}"))
    return kept, runnable


def list_checks(traces: list[str] | None = None, features: str | None = None, games: list[str] | None = None,
                rulesets: list[str] | None = None, keyword: str | None = None, scenarios: bool = True,
                perft_depth: int = 0) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """The checks ``verify`` with these options would run, as (kind, game, name, rules), without starting a
    build (a build that declares explicit-chance also gets checks of its own chance). Raises what ``verify``
    raises for bad input."""
    from .harness.perft import load_golden

    check_selection(games, rulesets)
    out = [("trace", t.game, f"{t.game}/{t.name}", tuple(t.rules)) for t in select_traces(traces, games, rulesets,
                                                                                          keyword)]
    if scenarios:
        out += [("scenario", sc.game, sc.check_name, sc.rules) for sc in select_scenarios(
            Path(features) if features else None, games, keyword)]
    if not games and (keyword is None or keyword.lower() in BEFORE_START_NAME):
        out.append(("protocol", "protocol", BEFORE_START_NAME, ()))
    if perft_depth > 0:
        for game in sorted(GAMES):
            for ruleset in GAMES[game].info.rulesets:
                golden = load_golden(game, ruleset)
                if golden is None or (games and game not in games) or (rulesets and ruleset not in rulesets):
                    continue
                out.append(("perft", game, f"{game}/perft-{ruleset} to depth {min(perft_depth, golden['depth'])}",
                            GAMES[game].info.field_rules.get("legal", ())[:1]))
    return out


def write_expect_fail(report: Report, path: str) -> int:
    """Write this run's failures (failed and broken checks) as an expect-fail file, each entry's reason saying
    it was recorded, not reviewed; the number of entries. Raises OSError."""
    from datetime import date

    from .util.files import write_file

    reason = f"{RECORDED} {date.today().isoformat()}: not reviewed"
    entries = []
    for c in report.checks:
        if c.status not in (FAILED, BROKE) or c.kind not in ("trace", "scenario"):
            continue
        entries.append({c.kind: c.name, "reason": reason})
    import yaml

    text = ("# Written by refimpl verify --write-expect-fail: this run's failures, so that the same run passes.\n"
            "# Review each entry and give it a real reason; until then reports list them as unreviewed.\n")
    text += yaml.safe_dump(entries, sort_keys=False, allow_unicode=True, width=1000) if entries else "[]\n"
    write_file(path, text.encode("utf-8"))
    return len(entries)


RECORDED = "recorded by refimpl verify --write-expect-fail on"


def verify(command: str, *, traces: list[str] | None = None, features: str | None = None,
           games: list[str] | None = None, rulesets: list[str] | None = None, keyword: str | None = None,
           expect_fail: str | None = None, timeout: float = DEFAULT_TIMEOUT, scenarios: bool = True,
           pipeline: bool = True, perft_depth: int = 0, twice: bool = False, fail_fast: bool = False,
           oracle: bool = True, max_time: float | None = None, progress: Progress | None = None,
           transcripts: bool = False, profiles: list[Profile] | None = None, own_chance: bool = True,
           jobs: int = 1) -> Report:
    """Check the build started by ``command``.

    ``jobs``: the checks are spread over that many worker processes, each with build processes of its own, and
    the report is the one a single job gives (refimpl/shards.py says where it may differ: --fail-fast,
    --max-time, a build that keeps breaking).

    ``fail_fast`` stops at the first check that fails or breaks, ``max_time`` after that many seconds;
    a build that breaks the same way on BREAK_STREAK checks in a row is not started again. What did
    not run is in the report as not run, with the reason. With ``transcripts``, every failing or broken
    trace and scenario keeps its raw protocol exchanges (``Check.transcript``). Ctrl-C (KeyboardInterrupt) and SIGTERM
    (processes.Terminated) end the run: the report holds what ran and says so. Raises TraceError,
    BadChecks or VerifyError for bad input, before any build is started.

    ``profiles``: the builder's own chosen values (refimpl/rulebook/profiles.py); the reference plays those games under
    them. A trace the reference passes under the default values but not under the profile depends on a value
    the profile changes: it is judged by the reference's answers under the profile alone (its written
    expectations set aside); one whose start the profile makes impossible, and a scenario the reference fails
    under the profile, are not run, with the reason.
    """
    check_selection(games, rulesets)
    expected = load_expect_fail(expect_fail) if expect_fail else []
    selected = select_traces(traces, games, rulesets, keyword)
    chosen = select_scenarios(Path(features) if features else None, games, keyword)
    if expected:
        every = select_scenarios(Path(features) if features else None, None, None)
        check_expectations(expected, load_traces(traces or [suite.trace_folder()]), every)
    report = Report(command)
    mine = by_game(profiles or [])
    report.profiles = [p.summary() for p in mine.values()]
    with using(mine):
        return _verify(command, report, selected, chosen, expected, mine, timeout=timeout, scenarios=scenarios,
                       pipeline=pipeline, perft_depth=perft_depth, twice=twice, fail_fast=fail_fast,
                       oracle=oracle, max_time=max_time, progress=progress, transcripts=transcripts, games=games,
                       rulesets=rulesets, own_chance=own_chance, keyword=keyword, jobs=jobs,
                       selection=(traces, features))


def _run_in_order(command: str, report: Report, run: _Run, selected: list[Trace], chosen: list[Scenario], *,
                  timeout: float, pipeline: bool, oracle: bool, twice: bool, perft_depth: int, own_chance: bool,
                  scenarios: bool, games: list[str] | None, rulesets: list[str] | None, keyword: str | None) -> None:
    """One job: the traces, the checks between (twice, before any start, perft, own chance), the scenarios."""
    run_traces(command, selected, timeout, pipeline, run, oracle)
    if twice and not run.stop_reason():
        run_twice(command, selected, timeout, run)
    if not run.stop_reason() and report.broke_at_start is None and not games and (
            keyword is None or keyword.lower() in BEFORE_START_NAME):
        run_before_start(command, timeout, run)
    if perft_depth > 0:
        run_perft(command, games, rulesets, perft_depth, timeout, run)
    if own_chance and not run.stop_reason():
        if not selected and report.broke_at_start is None:  # no trace read the build's hello
            report.explicit_chance = _declares_explicit_chance(command, timeout)
        if report.explicit_chance:
            run_own_chance(command, games, rulesets, timeout, run)
    if scenarios and not run.stop_reason():
        run_scenarios(command, chosen, timeout, games, rulesets, run)
    elif scenarios:
        report.warnings.append(f"the scenarios were not run: {report.stopped}")


def _verify(command: str, report: Report, selected: list[Trace], chosen: list[Scenario],
            expected: list[Expectation], mine: dict[str, Profile], *, timeout: float, scenarios: bool,
            pipeline: bool, perft_depth: int, twice: bool, fail_fast: bool, oracle: bool, max_time: float | None,
            progress: Progress | None, transcripts: bool, games: list[str] | None,
            rulesets: list[str] | None, own_chance: bool = True, keyword: str | None = None, jobs: int = 1,
            selection: tuple[list[str] | None, str | None] = (None, None)) -> Report:
    """verify's run, with the reference already under the profiles ``mine``."""
    from .harness.processes import Terminated, acknowledge

    deadline = None if max_time is None else time.monotonic() + max_time
    run = _Run(report, deadline, fail_fast, max_time, progress, len(selected) + len(chosen) * scenarios,
               transcripts)
    if mine:
        selected, chosen = _under_profiles(selected, chosen, mine, oracle, run)
    try:
        if jobs > 1:
            from . import shards

            before_start = not games and (keyword is None or keyword.lower() in BEFORE_START_NAME)
            chosen_by = shards.Selection(tuple(selection[0]) if selection[0] else None, selection[1],
                                         tuple(games) if games else None, tuple(rulesets) if rulesets else None,
                                         keyword, tuple(mine.values()), oracle)
            shards.run_sharded(command, report, run, selected, chosen, chosen_by, jobs, timeout=timeout,
                               pipeline=pipeline, scenarios=scenarios, deadline=deadline,
                               between={"twice": twice, "before_start": before_start, "perft_depth": perft_depth,
                                        "own_chance": own_chance})
        else:
            _run_in_order(command, report, run, selected, chosen, timeout=timeout, pipeline=pipeline,
                          oracle=oracle, twice=twice, perft_depth=perft_depth, own_chance=own_chance,
                          scenarios=scenarios, games=games, rulesets=rulesets, keyword=keyword)
    except KeyboardInterrupt as exc:
        acknowledge()  # reported from here on, not raised again
        report.interrupted = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
        report.stopped = f"interrupted ({report.interrupted})"
    if not selected and report.checks and not report.interrupted:
        report.explicit_chance = _declares_explicit_chance(command, timeout)  # no trace run read its hello
    if report.explicit_chance:
        report.checks = [replace(c, rules=tuple(r for r in c.rules if r not in STREAM_RULES)) for c in report.checks]
        shown = sorted({r for c in report.checks if c.game in GAMES for r in GAMES[c.game].info.stream_rules})
        judged = sorted({c.name for c in report.checks if c.kind == "chance"})
        report.warnings.append("the build draws chance from its own random source (explicit-chance): the traces "
                               "gave it every chance outcome"
                               + (f"; its own outcomes were judged as the rules allow them and, where they are "
                                  f"counted, distributed ({', '.join(judged)})" if judged else "")
                               + (f"; {', '.join(shown)} (only the seeded streams show them) were not run"
                                  if shown else ""))
    report.checks, warnings = apply_expectations(report.checks, expected)
    report.warnings += warnings
    return report


__all__ = ["verify", "Report", "Check", "VerifyError", "TraceError", "STATUSES", "MISMATCH"]
