"""Render replay results: a readable ledger per trace (like the seeds' tables) or JSON for machines."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Iterable

from .compare import flatten
from .replay import CONFORMS, MISMATCH, NOT_RUN, StepResult, TraceResult


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
