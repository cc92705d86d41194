"""``refimpl verify``: run every bundled trace and Gherkin scenario against a build, through the protocol.

Traces run in this process over a ProtocolDriver (pipelined); scenarios run under pytest in a child
process with the refimpl plugin aimed at the same command. Results become one list of checks, each
tagged with its game and rule IDs, from which the matrix, the reports and the exit code are made.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from . import yamlsafe
from .compare import first_difference
from .driver import BuildBroke, ReferenceDriver
from .games import GAMES
from .protocol import DEFAULT_TIMEOUT, ProtocolDriver
from .replay import CONFORMS, MISMATCH, NOT_RUN, TraceResult, plan, replay_all
from .report import BROKE, FAILED, PASSED, SKIPPED, STATUSES, XFAIL, XPASS, Check, Report
from .trace import Trace, TraceError, load_traces

KIT_ROOT = Path(__file__).resolve().parent.parent


class VerifyError(Exception):
    """Bad input to verify (an unreadable expect-fail file, features that do not load...): exit 2."""


# --- expected failures ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Expectation:
    kind: str  # trace | scenario | rule
    pattern: str
    reason: str

    def matches(self, check: Check) -> bool:
        if self.kind == "rule":
            return self.pattern in check.rules
        return self.kind == check.kind and self.pattern.lower() in check.name.lower()


def load_expect_fail(path: str) -> list[Expectation]:
    """Read an expect-fail file: a YAML list of {trace|scenario|rule: TEXT, reason: TEXT}. Raises VerifyError."""
    try:
        data = yamlsafe.load_file(path)[1]
    except yamlsafe.YamlError as exc:
        raise VerifyError(f"{exc} (the expect-fail file)") from None
    if data is None:
        return []
    if not isinstance(data, list):
        raise VerifyError(f"{path}: an expect-fail file is a YAML list of entries")
    out = []
    for i, entry in enumerate(data, 1):
        keys = [k for k in ("trace", "scenario", "rule") if isinstance(entry, dict) and k in entry]
        if len(keys) != 1 or not isinstance(entry.get("reason", ""), str):
            raise VerifyError(f"{path}: entry {i} needs exactly one of trace, scenario, rule (and an optional reason)")
        out.append(Expectation(keys[0], str(entry[keys[0]]), str(entry.get("reason", ""))))
    return out


def apply_expectations(checks: list[Check], expected: list[Expectation]) -> tuple[list[Check], list[str]]:
    """Declared failures become xfail; a declared trace or scenario that passes becomes xpass.

    A ``rule`` entry covers the failing checks of that rule (its passing checks stay passed); when
    none of its checks fails, the entry itself is reported as an xpass.
    """
    out, used, failing_rules = [], set(), set()
    for check in checks:
        hit = next((e for e in expected if e.matches(check)), None)
        if hit is not None and check.status == FAILED:
            used.add(hit)
            failing_rules.add(hit.pattern if hit.kind == "rule" else None)
            check = replace(check, status=XFAIL, reason=hit.reason)
        elif hit is not None and hit.kind != "rule" and check.status == PASSED:
            used.add(hit)
            check = replace(check, status=XPASS, reason=hit.reason)
        out.append(check)
    warnings = []
    ran = {r for c in checks if c.status in (PASSED, FAILED) for r in c.rules}
    for e in expected:
        if e.kind == "rule" and e.pattern in ran and e not in used:
            out.append(Check("rule", next(c.game for c in checks if e.pattern in c.rules), e.pattern,
                             (e.pattern,), XPASS, "every check of this rule passed", reason=e.reason))
        elif e not in used and not (e.kind == "rule" and e.pattern in ran):
            warnings.append(f"expect-fail entry {e.kind}: {e.pattern!r} matched nothing that ran")
    return out, warnings


# --- running ------------------------------------------------------------------------------------

BREAK_STREAK = 3  # a build that breaks the same way on this many checks in a row is not started again
Progress = Callable[[Check, int, int], None]  # (the check just done, checks done, checks known so far)


class _Run:
    """What one verify run knows while it runs: the report, and whether it must stop early."""

    def __init__(self, report: Report, deadline: float | None, fail_fast: bool, max_time: float | None,
                 progress: Progress | None, total: int) -> None:
        self.report, self.deadline, self.fail_fast, self.max_time = report, deadline, fail_fast, max_time
        self.progress, self.total = progress, total
        self.streak: tuple[str, int] = ("", 0)

    def add(self, check: Check, cause: str | None = None) -> None:
        """Record a check; ``cause``: how the build broke, when it did."""
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
        return report.stopped

    def left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def not_run(self, traces: list[Trace]) -> None:
        for trace in traces:
            self.add(Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules, SKIPPED,
                           f"not run: {self.report.stopped}", trace.ruleset))


def _trace_check(trace: Trace, result: TraceResult) -> Check:
    name = f"{trace.game}/{trace.name}"
    if result.status == NOT_RUN:
        return Check("trace", trace.game, name, trace.rules, SKIPPED, result.reason, trace.ruleset)
    if result.status == CONFORMS:
        return Check("trace", trace.game, name, trace.rules, PASSED, "", trace.ruleset)
    fail = result.failure
    assert fail is not None and fail.difference is not None
    where = f"step {fail.number} (line {fail.line})" if fail.number else "the start"
    return Check("trace", trace.game, name, trace.rules, FAILED, f"{trace.path} {where}: {fail.describe()}",
                 trace.ruleset)


def _broke(trace: Trace, exc: BuildBroke) -> Check:
    return Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules, BROKE, str(exc), trace.ruleset,
                 exc.stderr_tail)


def run_traces(command: str, traces: list[Trace], timeout: float, pipeline: bool, run: _Run,
               oracle: bool = True) -> None:
    """Replay ``traces`` against the build (all requests sent ahead when pipelining), starting the
    build again after it breaks, until the run must stop; with ``oracle``, every answer is also judged
    against the reference's. What was not replayed is recorded as not run, with the reason."""
    reference = ReferenceDriver() if oracle else None
    report = run.report
    remaining = list(traces)
    while remaining and not run.stop_reason():
        try:
            driver = ProtocolDriver(command, timeout, pipeline)
        except BuildBroke as exc:
            if not report.checks:
                report.broke_at_start = exc
                break
            trace = remaining.pop(0)
            exc.where = f"{trace.path} (starting the build again)"
            run.add(_broke(trace, exc), exc.cause)
            continue
        report.build = f"{driver.name} {driver.version}".strip()
        try:
            with closing(replay_all(remaining, driver, oracle=reference)) as results:
                for result in results:
                    remaining.pop(0)
                    run.add(_trace_check(result.trace, result))
                    if run.stop_reason():
                        driver.process.close()  # answers still due are not waited for
                        break
        except BuildBroke as exc:
            trace = remaining.pop(0)
            run.add(_broke(trace, exc), exc.cause)
            driver.process.close()
        finally:
            driver.close()
    if run.stop_reason():
        run.not_run(remaining)


def run_perft(command: str, games: list[str] | None, rulesets: list[str] | None, depth: int, timeout: float,
              run: _Run) -> None:
    """Check the build's legal-action lists against the golden perft counts (where it lists them)."""
    from .perft import check_build, load_golden

    driver: ProtocolDriver | None = None
    try:
        for game in sorted(GAMES):
            for ruleset in GAMES[game].info.rulesets:
                golden = load_golden(game, ruleset)
                if golden is None or (games and game not in games) or (rulesets and ruleset not in rulesets):
                    continue
                name = f"{game}/perft-{ruleset} to depth {min(depth, golden['depth'])}"
                if run.stop_reason():
                    run.add(Check("perft", game, name, (), SKIPPED, f"not run: {run.stop_reason()}", ruleset))
                    continue
                try:
                    driver = driver or ProtocolDriver(command, timeout)
                    if not driver.supports(game, ruleset) or not driver.lists_legal:
                        reason = "the build does not list legal actions" if driver.supports(game, ruleset) else \
                            f"{driver.name} does not declare {game} {ruleset}"
                        run.add(Check("perft", game, name, (), SKIPPED, reason, ruleset))
                        continue
                    found = check_build(driver, game, ruleset, min(depth, golden["depth"]))
                except BuildBroke as exc:
                    run.add(Check("perft", game, name, (), BROKE, str(exc), ruleset, exc.stderr_tail), exc.cause)
                    if driver is not None:
                        driver.process.close()
                    driver = None
                    continue
                run.add(Check("perft", game, name, (), PASSED if found is None else FAILED,
                              "" if found is None else str(found), ruleset))
    finally:
        if driver is not None:
            driver.close()


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


def _scenario_check(r: dict[str, Any]) -> tuple[Check, str | None]:
    name = f"{r['feature']}: {r['scenario']}" + (f" [{r['example']}]" if r["example"] else "")
    broke = r.get("broke") or {}
    return (Check("scenario", r["game"], name, tuple(r["rules"]), r["status"], r["detail"],
                  stderr=broke.get("stderr", "")), broke.get("cause"))


def run_scenarios(command: str, features: Path, timeout: float, games: list[str] | None,
                  rulesets: list[str] | None, keyword: str | None, run: _Run) -> None:
    """Run the Gherkin features under pytest against the build; one Check per scenario (example),
    recorded as each finishes. The child stops by itself after a streak of the same break, at the
    run's deadline, or (--fail-fast) at the first failure; Ctrl-C and SIGTERM end it too."""
    with tempfile.TemporaryDirectory(prefix="refimpl-verify-") as tmp:
        out = Path(tmp) / "scenarios.jsonl"
        out.touch()
        args = [sys.executable, "-m", "pytest", str(features), "-q", "--no-header", "-p", "no:cacheprovider",
                "-o", "addopts=", "--impl", command, "--impl-timeout", str(timeout), "--kit-report", str(out),
                "--kit-break-streak", str(BREAK_STREAK)]
        if games:
            args += ["--kit-games", ",".join(games)]
        if rulesets:
            args += ["--kit-rulesets", ",".join(rulesets)]
        if keyword:
            args += ["-k", keyword]
        if run.fail_fast:
            args.append("-x")
        left = run.left()
        if left is not None:
            args += ["--kit-time", f"{left:.3f}"]
        child = subprocess.Popen(args, cwd=KIT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        output: list[str] = []
        read = 0
        try:
            with open(out, encoding="utf-8") as records:
                while True:
                    finished = child.poll() is not None
                    for line in records.readlines():
                        if line.endswith("\n"):
                            check, cause = _scenario_check(json.loads(line))
                            run.add(check, cause if check.status == BROKE else None)
                            read += 1
                    if finished:
                        break
                    time.sleep(0.05)
            output = child.stdout.read().splitlines() if child.stdout else []
        finally:
            if child.poll() is None:
                child.terminate()
                try:
                    child.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
            if child.stdout:
                child.stdout.close()
        if child.returncode not in (0, 1, 5) or (read == 0 and child.returncode != 5):
            tail = "\n".join(output[-15:])
            raise VerifyError(f"the features in {features} did not run (pytest exit {child.returncode}):\n{tail}")
    run.stop_reason()


def select_traces(paths: list[str] | None, games: list[str] | None, rulesets: list[str] | None,
                  keyword: str | None) -> list[Trace]:
    """The traces a run checks. Raises TraceError (every bad trace named) or BadChecks (exit 2)."""
    from .preflight import check_traces

    selected = []
    for trace in load_traces(paths or [KIT_ROOT / "traces"]):
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


def verify(command: str, *, traces: list[str] | None = None, features: str | None = None,
           games: list[str] | None = None, rulesets: list[str] | None = None, keyword: str | None = None,
           expect_fail: str | None = None, timeout: float = DEFAULT_TIMEOUT, scenarios: bool = True,
           pipeline: bool = True, perft_depth: int = 0, twice: bool = False, fail_fast: bool = False,
           oracle: bool = True, max_time: float | None = None, progress: Progress | None = None) -> Report:
    """Check the build started by ``command``.

    ``fail_fast`` stops at the first check that fails or breaks, ``max_time`` after that many seconds;
    a build that breaks the same way on BREAK_STREAK checks in a row is not started again. What did
    not run is in the report as not run, with the reason. Ctrl-C (KeyboardInterrupt) and SIGTERM
    (processes.Terminated) end the run: the report holds what ran and says so. Raises TraceError,
    BadChecks or VerifyError for bad input, before any build is started.
    """
    from .processes import Terminated

    check_selection(games, rulesets)
    expected = load_expect_fail(expect_fail) if expect_fail else []
    selected = select_traces(traces, games, rulesets, keyword)
    report = Report(command)
    deadline = None if max_time is None else time.monotonic() + max_time
    run = _Run(report, deadline, fail_fast, max_time, progress, len(selected))
    try:
        run_traces(command, selected, timeout, pipeline, run, oracle)
        if twice and not run.stop_reason():
            run_twice(command, selected, timeout, run)
        if perft_depth > 0:
            run_perft(command, games, rulesets, perft_depth, timeout, run)
        if scenarios and not run.stop_reason():
            run_scenarios(command, Path(features) if features else KIT_ROOT / "features",
                          timeout, games, rulesets, keyword, run)
        elif scenarios:
            report.warnings.append(f"the scenarios were not run: {report.stopped}")
    except KeyboardInterrupt as exc:
        report.interrupted = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
        report.stopped = f"interrupted ({report.interrupted})"
    report.checks, warnings = apply_expectations(report.checks, expected)
    report.warnings += warnings
    return report


__all__ = ["verify", "Report", "Check", "VerifyError", "TraceError", "STATUSES", "MISMATCH"]
