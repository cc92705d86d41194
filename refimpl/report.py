"""Render replay results: a readable ledger per trace (like the seeds' tables) or JSON for machines."""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable

from .compare import flatten
from .replay import CONFORMS, MISMATCH, NOT_RUN, StepResult, TraceResult

if TYPE_CHECKING:
    from .verify import Report

# verify's statuses (kept here too so the report module does not import the runner)
PASSED, FAILED, SKIPPED, XFAIL, XPASS, BROKE = "passed", "failed", "not-run", "xfail", "xpass", "broke"
STATUSES = (PASSED, FAILED, SKIPPED, XFAIL, XPASS, BROKE)


def _wrap(items: list[str], width: int) -> list[str]:
    """Pack items into lines of at most ``width`` characters (a longer item gets a line of its own)."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 1 + len(item) <= width:
            lines[-1] += " " + item
        else:
            lines.append(item)
    return lines or [""]


WIDTH = 44


def _cells(step: StepResult) -> list[list[str]]:
    number = [str(step.number) if step.number else "start"]
    action = _wrap(step.action.split(" "), WIDTH)
    expected = _wrap(flatten(step.expected) if step.expected is not None else ["-"], WIDTH)
    actual = ["as expected"] if step.ok else _wrap(flatten(step.actual), WIDTH)
    return [number, action, expected, actual]


def ledger(result: TraceResult) -> str:
    """One trace as a table: step | action | expected | actual, then its verdict."""
    t = result.trace
    head = f"{t.path}: {t.title} [{t.game} {t.ruleset}]"
    if result.status == NOT_RUN:
        return f"{head}\n  NOT RUN: {result.reason}\n"
    rows = [[["step"], ["action"], ["expected"], ["actual"]]] + [_cells(s) for s in result.steps]
    widths = [max(len(line) for r in rows for line in r[i]) for i in range(3)]
    lines = [head]
    for row in rows:
        for k in range(max(len(c) for c in row)):
            parts = [(c[k] if k < len(c) else "") for c in row]
            lines.append(("  " + " | ".join(p.ljust(w) for p, w in zip(parts, widths)) + " | " + parts[3]).rstrip())
    fail = result.failure
    if fail is None:
        lines.append(f"  CONFORMS ({len(result.steps)} checks)")
    else:
        where = f"step {fail.number} (line {fail.line})" if fail.number else "the start"
        lines.append(f"  MISMATCH at {where}: {fail.difference}")
    return "\n".join(lines) + "\n"


def summary(results: Iterable[TraceResult]) -> str:
    counts = Counter(r.status for r in results)
    return (f"{sum(counts.values())} traces: {counts[CONFORMS]} conform, {counts[MISMATCH]} mismatch, "
            f"{counts[NOT_RUN]} not run")


def text_report(results: list[TraceResult]) -> str:
    return "\n".join(ledger(r) for r in results) + "\n" + summary(results) + "\n"


def _step_json(step: StepResult) -> dict[str, Any]:
    out: dict[str, Any] = {"step": step.number, "line": step.line, "action": step.action,
                           "expected": step.expected, "actual": step.actual, "ok": step.ok}
    if step.difference is not None:
        d = step.difference
        out["difference"] = {"path": d.path, "expected": d.expected, "actual": d.actual}
    return out


def json_report(results: list[TraceResult]) -> str:
    counts = Counter(r.status for r in results)
    doc = {
        "summary": {"traces": len(results), CONFORMS: counts[CONFORMS], MISMATCH: counts[MISMATCH],
                    NOT_RUN: counts[NOT_RUN]},
        "traces": [{"path": r.trace.path, "title": r.trace.title, "game": r.trace.game,
                    "ruleset": r.trace.ruleset, "rules": list(r.trace.rules), "status": r.status,
                    "reason": r.reason, "steps": [_step_json(s) for s in r.steps]} for r in results],
    }
    return json.dumps(doc, indent=2, default=repr) + "\n"


# --- verify reports -------------------------------------------------------------------------------

def _verdict(report: "Report") -> str:
    from .exitcodes import Exit

    counts = ", ".join(f"{report.count(s)} {s}" for s in STATUSES if report.count(s))
    word = {Exit.CONFORMS: "CONFORMS", Exit.DOES_NOT_CONFORM: "DOES NOT CONFORM",
            Exit.BUILD_BROKE: "BUILD BROKE"}[report.exit_code]
    return f"Verdict: {word} ({counts or 'nothing ran'})"


def verify_text(report: "Report") -> str:
    """The conformance matrix (per game and rule ID), the failures with their diffs, and the verdict."""
    lines = [f"Build: {report.build or '?'}  ({report.command})"]
    if report.broke_at_start is not None:
        exc = report.broke_at_start
        lines += [f"The build did not start: {exc}", *_stderr_lines(exc.stderr_tail), _verdict(report)]
        return "\n".join(lines) + "\n"
    cols = ("passed", "failed", "not-run", "xfail", "xpass", "broke")
    for game, rules in report.matrix().items():
        lines += ["", f"{game}", "  " + "rule".ljust(14) + "".join(c.rjust(9) for c in cols)]
        for rule, counts in rules.items():
            cells = "".join((str(counts[c]) if counts[c] else "-").rjust(9) for c in cols)
            lines.append("  " + rule.ljust(14) + cells)
        checks = [c for c in report.checks if c.game == game]
        lines.append("  " + "all checks".ljust(14) + "".join(str(report.count(c, checks)).rjust(9) for c in cols))
    bad = [c for c in report.checks if c.status in (FAILED, BROKE, XPASS)]
    if bad:
        lines += ["", "Problems:"]
        for c in bad:
            label = {FAILED: "FAILED", BROKE: "BROKE", XPASS: "XPASS (expected to fail, but passed)"}[c.status]
            lines.append(f"  {label} {c.kind} {c.name} [{', '.join(c.rules)}]")
            if c.detail:
                lines += ["    " + d for d in c.detail.splitlines()[:12]]
            lines += ["    " + s for s in _stderr_lines(c.stderr)]
    skipped = {c.detail for c in report.checks if c.status == SKIPPED and c.detail}
    if skipped:
        lines += ["", "Not run:"] + [f"  {reason}" for reason in sorted(skipped)]
    if report.warnings:
        lines += ["", *[f"Warning: {w}" for w in report.warnings]]
    lines += ["", _verdict(report)]
    return "\n".join(lines) + "\n"


def _stderr_lines(tail: str) -> list[str]:
    return ["build stderr (last lines):", *["  | " + s for s in tail.splitlines()]] if tail else []


def verify_json(report: "Report") -> str:
    broke = report.broke_at_start
    doc = {
        "command": report.command, "build": report.build, "exit_code": int(report.exit_code),
        "verdict": _verdict(report),
        "broke_at_start": None if broke is None else {"cause": broke.cause, "message": broke.message,
                                                      "stderr": broke.stderr_tail},
        "summary": {s: report.count(s) for s in STATUSES},
        "matrix": report.matrix(),
        "checks": [{"kind": c.kind, "game": c.game, "name": c.name, "ruleset": c.ruleset, "rules": list(c.rules),
                    "status": c.status, "detail": c.detail, "stderr": c.stderr, "reason": c.reason}
                   for c in report.checks],
        "warnings": report.warnings,
    }
    return json.dumps(doc, indent=2) + "\n"


def junit_xml(report: "Report") -> str:
    """JUnit XML: one testsuite per game and kind, one testcase per trace or scenario."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites", name=f"refimpl verify: {report.build or report.command}")
    groups: dict[tuple[str, str], list[Any]] = {}
    for c in report.checks:
        groups.setdefault((c.game, c.kind), []).append(c)
    if report.broke_at_start is not None:
        suite = ET.SubElement(root, "testsuite", name="build", tests="1", failures="0", errors="1", skipped="0")
        case = ET.SubElement(suite, "testcase", classname="build", name="start")
        ET.SubElement(case, "error", type=report.broke_at_start.cause, message=str(report.broke_at_start))
        ET.SubElement(case, "system-err").text = report.broke_at_start.stderr_tail
    for (game, kind), checks in groups.items():
        suite = ET.SubElement(root, "testsuite", name=f"{game} {kind}s", tests=str(len(checks)),
                              failures=str(sum(c.status in (FAILED, XPASS) for c in checks)),
                              errors=str(sum(c.status == BROKE for c in checks)),
                              skipped=str(sum(c.status in (SKIPPED, XFAIL) for c in checks)))
        for c in checks:
            case = ET.SubElement(suite, "testcase", classname=f"{game}.{kind}", name=c.name)
            ET.SubElement(ET.SubElement(case, "properties"), "property", name="rules", value=" ".join(c.rules))
            if c.status == FAILED:
                ET.SubElement(case, "failure", message=c.detail.splitlines()[0] if c.detail else "").text = c.detail
            elif c.status == XPASS:
                ET.SubElement(case, "failure", message="expected to fail, but passed").text = c.reason
            elif c.status == BROKE:
                ET.SubElement(case, "error", message=c.detail.splitlines()[0] if c.detail else "").text = c.detail
            elif c.status in (SKIPPED, XFAIL):
                ET.SubElement(case, "skipped", message=c.reason or c.detail)
            if c.stderr:
                ET.SubElement(case, "system-err").text = c.stderr
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
