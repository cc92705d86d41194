"""``refimpl verify``: run every bundled trace and Gherkin scenario against a build, through the protocol.

Traces run in this process over a ProtocolDriver (pipelined); scenarios run under pytest in a child
process with the refimpl plugin aimed at the same command. Results become one list of checks, each
tagged with its game and rule IDs, from which the matrix, the reports and the exit code are made.
"""

from __future__ import annotations

import json
import subprocess
from contextlib import closing
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from .compare import first_difference
from .driver import BuildBroke, ReferenceDriver
from .games import GAMES
from .protocol import DEFAULT_TIMEOUT, ProtocolDriver
from .replay import CONFORMS, MISMATCH, NOT_RUN, TraceResult, plan, replay_all
from .report import BROKE, FAILED, PASSED, SKIPPED, STATUSES, XFAIL, XPASS, Check, Report
from .trace import Trace, TraceError, find_traces, load_trace

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
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise VerifyError(f"{path}: cannot read the expect-fail file: {exc}") from None
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


def run_traces(command: str, traces: list[Trace], timeout: float, pipeline: bool,
               report: Report, fail_fast: bool = False, oracle: bool = True) -> None:
    """Replay ``traces`` against the build (all requests sent ahead when pipelining), starting the
    build again after it breaks; with ``oracle``, every answer is also judged against the reference's.
    ``fail_fast``: stop at the first trace that fails or breaks."""
    reference = ReferenceDriver() if oracle else None
    remaining = list(traces)
    while remaining:
        try:
            driver = ProtocolDriver(command, timeout, pipeline)
        except BuildBroke as exc:
            if not report.checks:
                report.broke_at_start = exc
                return
            trace = remaining.pop(0)
            exc.where = f"{trace.path} (starting the build again)"
            report.checks.append(Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules,
                                       BROKE, str(exc), trace.ruleset, exc.stderr_tail))
            if fail_fast:
                return
            continue
        report.build = f"{driver.name} {driver.version}".strip()
        try:
            with closing(replay_all(remaining, driver, oracle=reference)) as results:
                for result in results:
                    report.checks.append(_trace_check(result.trace, result))
                    remaining.pop(0)
                    if fail_fast and report.checks[-1].status == FAILED:
                        return
        except BuildBroke as exc:
            trace = remaining.pop(0)
            report.checks.append(Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules,
                                       BROKE, str(exc), trace.ruleset, exc.stderr_tail))
            driver.process.close()
            if fail_fast:
                return
            continue
        finally:
            driver.close()


def run_perft(command: str, games: list[str] | None, rulesets: list[str] | None, depth: int, timeout: float,
              report: Report) -> None:
    """Check the build's legal-action lists against the golden perft counts (where it lists them)."""
    from .perft import check_build, load_golden

    driver = ProtocolDriver(command, timeout)
    try:
        for game in sorted(GAMES):
            for ruleset in GAMES[game].info.rulesets:
                golden = load_golden(game, ruleset)
                if golden is None or (games and game not in games) or (rulesets and ruleset not in rulesets):
                    continue
                name = f"{game}/perft-{ruleset} to depth {min(depth, golden['depth'])}"
                if not driver.supports(game, ruleset) or not driver.lists_legal:
                    reason = "the build does not list legal actions" if driver.supports(game, ruleset) else \
                        f"{driver.name} does not declare {game} {ruleset}"
                    report.checks.append(Check("perft", game, name, (), SKIPPED, reason, ruleset))
                    continue
                try:
                    found = check_build(driver, game, ruleset, min(depth, golden["depth"]))
                except BuildBroke as exc:
                    report.checks.append(Check("perft", game, name, (), BROKE, str(exc), ruleset, exc.stderr_tail))
                    driver.process.close()
                    driver = ProtocolDriver(command, timeout)
                    continue
                report.checks.append(Check("perft", game, name, (), PASSED if found is None else FAILED,
                                           "" if found is None else str(found), ruleset))
    finally:
        driver.close()


def run_twice(command: str, traces: list[Trace], timeout: float, report: Report) -> None:
    """Send every trace's requests twice to a fresh build and report any answer that differs."""
    answers = []
    for _ in range(2):
        driver = ProtocolDriver(command, timeout)
        runnable = [t for t in traces if driver.supports(t.game, t.ruleset)]
        try:
            answers.append([list(driver.batch([p.op for p in plan(t, driver.lists_legal)[0]])) for t in runnable])
        finally:
            driver.close()
    for trace, first, second in zip(runnable, *answers):
        name = f"{trace.game}/{trace.name} twice"
        differs = next(((i, a, b) for i, (a, b) in enumerate(zip(first, second)) if a != b), None)
        if differs is None:
            report.checks.append(Check("determinism", trace.game, name, trace.rules, PASSED, "", trace.ruleset))
            continue
        i, a, b = differs
        diff = first_difference(a, b) if isinstance(a, dict) and isinstance(b, dict) else None
        detail = f"answer {i} differs between two runs of the same requests: " + (
            str(diff) if diff else f"{a!r} then {b!r}")
        report.checks.append(Check("determinism", trace.game, name, trace.rules, FAILED, detail, trace.ruleset))


def run_scenarios(command: str, features: Path, timeout: float, games: list[str] | None,
                  rulesets: list[str] | None, keyword: str | None, fail_fast: bool = False) -> list[Check]:
    """Run the Gherkin features under pytest against the build; one Check per scenario (example)."""
    with tempfile.TemporaryDirectory(prefix="refimpl-verify-") as tmp:
        out = Path(tmp) / "scenarios.json"
        args = [sys.executable, "-m", "pytest", str(features), "-q", "--no-header", "-p", "no:cacheprovider",
                "-o", "addopts=", "--impl", command, "--impl-timeout", str(timeout), "--kit-report", str(out)]
        if games:
            args += ["--kit-games", ",".join(games)]
        if rulesets:
            args += ["--kit-rulesets", ",".join(rulesets)]
        if keyword:
            args += ["-k", keyword]
        if fail_fast:
            args.append("-x")
        proc = subprocess.run(args, cwd=KIT_ROOT, capture_output=True, text=True, check=False)
        if proc.returncode not in (0, 1, 5) or not out.exists():
            tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-15:])
            raise VerifyError(f"the features in {features} did not run (pytest exit {proc.returncode}):\n{tail}")
        records: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
    checks = []
    for r in records:
        name = f"{r['feature']}: {r['scenario']}" + (f" [{r['example']}]" if r["example"] else "")
        broke = r.get("broke") or {}
        checks.append(Check("scenario", r["game"], name, tuple(r["rules"]), r["status"], r["detail"],
                            stderr=broke.get("stderr", "")))
    return checks


def verify(command: str, *, traces: list[str] | None = None, features: str | None = None,
           games: list[str] | None = None, rulesets: list[str] | None = None, keyword: str | None = None,
           expect_fail: str | None = None, timeout: float = DEFAULT_TIMEOUT, scenarios: bool = True,
           pipeline: bool = True, perft_depth: int = 0, twice: bool = False, fail_fast: bool = False,
           oracle: bool = True) -> Report:
    """Check the build started by ``command``; ``fail_fast`` stops at the first check that fails or
    breaks. Raises TraceError or VerifyError for bad input."""
    unknown = [g for g in games or [] if g not in GAMES]
    if unknown:
        raise VerifyError(f"unknown game {unknown[0]!r} (known: {', '.join(sorted(GAMES))})")
    expected = load_expect_fail(expect_fail) if expect_fail else []
    selected = []
    for path in find_traces(traces or [KIT_ROOT / "traces"]):
        trace = load_trace(path)
        if games and trace.game not in games or rulesets and trace.ruleset not in rulesets:
            continue
        if keyword and keyword.lower() not in f"{trace.game}/{trace.name} {trace.title}".lower():
            continue
        selected.append(trace)
    report = Report(command)

    def go_on() -> bool:
        return report.broke_at_start is None and not (fail_fast and (report.count(FAILED) or report.count(BROKE)))

    run_traces(command, selected, timeout, pipeline, report, fail_fast, oracle)
    if go_on() and twice:
        run_twice(command, selected, timeout, report)
    if go_on() and perft_depth > 0:
        run_perft(command, games, rulesets, perft_depth, timeout, report)
    if go_on() and scenarios:
        report.checks += run_scenarios(command, Path(features) if features else KIT_ROOT / "features",
                                       timeout, games, rulesets, keyword, fail_fast)
    report.checks, report.warnings = apply_expectations(report.checks, expected)
    return report


__all__ = ["verify", "Report", "Check", "VerifyError", "TraceError", "STATUSES", "MISMATCH"]
