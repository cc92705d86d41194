"""The reports as JSON, for machines: replay's and verify's documents (schemas: refimpl/schemas/output/), every one
strict, ASCII-only JSON whatever a build sent."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..harness.compare import MISSING
from ..harness.replay import StepResult, TraceResult
from ..status import Status
from .failures import rule_words
from .model import STATUSES, VERDICTS, Check, Failure, Report
from .safetext import json_safe


def dumps(doc: Any) -> str:
    """Machine output: strict, ASCII-only JSON (never raises for what a build sent)."""
    return json.dumps(json_safe(doc), indent=2, allow_nan=False) + "\n"


def fraction(numerator: int, denominator: int) -> dict[str, Any]:
    """A share in machine output: ``{"numerator": 26, "denominator": 36, "probability": 0.72...}``
    (probability null when the denominator is 0)."""
    return {"numerator": numerator, "denominator": denominator,
            "probability": numerator / denominator if denominator else None}


def snake(word: str) -> str:
    """A status word as machine output writes it (``not-run`` -> ``not_run``)."""
    return word.replace("-", "_")


def _step_json(step: StepResult) -> dict[str, Any]:
    d = step.difference
    return {"step": step.number, "line": step.line, "action": step.action,
            "expected": step.expected, "actual": step.actual, "ok": step.ok,
            "difference": None if d is None else {"path": d.path, "expected": d.expected, "actual": d.actual,
                                                  "by_reference": step.by_reference}}


def json_report(results: list[TraceResult]) -> str:
    """replay's JSON (schema: refimpl/schemas/output/replay.schema.json). ``expected`` and ``actual`` are
    the trace's and the build's values as the protocol has them (their keys are the spec's)."""
    counts = Counter(r.status for r in results)
    doc = {
        "summary": {"traces": len(results),
                    **{snake(s): counts[s] for s in (Status.CONFORMS, Status.MISMATCH, Status.NOT_RUN)}},
        "traces": [{"path": r.trace.path, "title": r.trace.title, "game": r.trace.game,
                    "ruleset": r.trace.ruleset, "rules": list(r.trace.rules), "status": snake(r.status),
                    "reason": r.reason, "steps": [_step_json(s) for s in r.steps],
                    "omitted_steps": r.omitted} for r in results],
    }
    return dumps(doc)


def _counts(report: Report, checks: Iterable[Check] | None = None) -> dict[str, int]:
    return {snake(s): report.count(s, checks) for s in STATUSES}


def verify_json(report: Report) -> str:
    """verify's JSON (schema: refimpl/schemas/output/verify.schema.json): status words snake_case, the
    matrix as lists (a game's rules, each with its counts by status)."""
    broke = report.broke_at_start
    doc = {
        "kit": report.kit,
        "profiles": report.profiles,
        "command": report.command, "build": report.build, "exit_code": int(report.exit_code),
        "verdict": VERDICTS[report.exit_code],
        "broke_at_start": None if broke is None else {"cause": broke.cause, "message": broke.message,
                                                      "stderr": broke.stderr_tail},
        "summary": {"checks": len(report.checks), **_counts(report)},
        "matrix": [{"game": game,
                    "rules": [{"rule": rule, **{snake(s): n for s, n in counts.items()}}
                              for rule, counts in rules.items()],
                    "all_checks": _counts(report, [c for c in report.checks if c.game == game])}
                   for game, rules in report.matrix().items()],
        "checks": [{"kind": c.kind, "game": c.game, "name": c.name, "ruleset": c.ruleset, "rules": list(c.rules),
                    "credited_rules": list(c.credited), "status": snake(c.status), "detail": c.detail,
                    "stderr": c.stderr, "reason": c.reason, "failure": failure_json(c.failure),
                    **({"reproducer": c.reproducer} if c.reproducer else {}),
                    **({"screens": list(c.screens)} if c.screens else {})}
                   for c in report.checks],
        "warnings": report.warnings,
        "explicit_chance": report.explicit_chance,
        "level": report.level,
        "stopped": report.stopped,
        "interrupted": report.interrupted,
        **({"reach": reach_json(report)} if report.reach else {}),
    }
    return dumps(doc)


def reach_json(report: Report) -> list[dict[str, Any]]:
    """verify --coverage: per game, each rule's hits by kind of check (rulebook/reach.py), the rules no kind
    reached, and those that have no site to reach (cited only outside the code that plays)."""
    from ..rulebook.reach import reach_table

    return [{"game": game, "rules": [{"rule": rule, **hits} for rule, hits in rows],
             "never_reached": never, "not_measurable": unmeasured}
            for game, rows, never, unmeasured in reach_table(report.reach, [c.game for c in report.checks])]


def _value_json(value: Any) -> Any:
    return None if value is MISSING else value


def failure_json(failure: Failure | None) -> dict[str, Any] | None:
    """A failure as machine output (the ``failure`` of a check in verify.schema.json)."""
    if failure is None:
        return None
    return {
        "file": failure.file, "line": failure.line, "step": failure.step, "action": failure.action,
        "request": failure.request, "asked": failure.asked, "message": failure.message,
        "fields": [{"path": f.path, "expected": _value_json(f.expected), "actual": _value_json(f.actual),
                    "expected_missing": f.expected is MISSING, "actual_missing": f.actual is MISSING,
                    "rule": f.rule, "owners": list(f.credited), "see_also": list(f.see_also),
                    "rule_text": (rule_words(f.rule) or ("",))[0] if f.rule else None,
                    # ignore: not None where the condition below holds
                    "spec": (f"{rule_words(f.rule)[1]}:{rule_words(f.rule)[2]}"  # type: ignore[index]
                             if f.rule and rule_words(f.rule) else None),
                    "source": "reference" if f.by_reference else "trace"} for f in failure.fields],
        "ledger": [dict(row) for row in failure.ledger],
        "views": {"observer": failure.observer, "before": failure.before,
                  "expected": _value_json(failure.expected_view), "actual": _value_json(failure.actual_view)},
        "later": [failure_json(f) for f in failure.later],
    }


# --- the other commands' machine output --------------------------------------------------------------

def checks_json(found: list[tuple[str, str, str, tuple[str, ...]]]) -> str:
    """``verify --list --format json``: each check that would run, with its kind, game, name and rules."""
    return json.dumps([{"kind": k, "game": g, "name": n, "rules": list(r)} for k, g, n, r in found],
                      indent=1, ensure_ascii=True) + "\n"


def perft_json(game: str, ruleset: str, depth: int, counts: Any) -> str:
    """``refimpl perft --format json`` (schema: refimpl/schemas/output/perft.schema.json)."""
    return dumps({
        "game": game, "ruleset": ruleset, "depth": depth,
        "nodes": list(counts.nodes),
        "finished": [{"depth": d, "result": r, "count": n} for d, per in enumerate(counts.results) for r, n in per],
        "totals": [{"result": r, "count": n} for r, n in counts.totals().items()]})


def map_json(seed: int, view: Any) -> str:
    """``refimpl map --format json`` (schema: refimpl/schemas/output/map.schema.json): a Black Fog view's tiles
    by kind, as axial coordinates."""
    from ..games.black_fog import hexes

    tiles = {kind: [dict(zip(("q", "r"), hexes.parse(t))) for t in view["map"][kind]] for kind in view["map"]}
    return dumps({"seed": seed, **tiles})


def tables_json(chosen: dict[str, Any]) -> str:
    """``refimpl tables --format json`` (schema: refimpl/schemas/output/tables.schema.json)."""
    from ..rulebook import tables

    return dumps({n: tables.as_json(t) for n, t in chosen.items()})


def fuzz_json(result: Any) -> str:
    """``refimpl fuzz --format json`` (schema: refimpl/schemas/output/fuzz.schema.json): the run's report
    (FuzzReport.json), indented."""
    return json.dumps(result.json(), indent=2) + "\n"
