"""The results of replay and verify, and their renderings: a readable ledger per trace (like the seeds'
tables), the verify report model (checks, matrix, exit code) with its text, JSON and JUnit forms."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Iterable, Sequence

from rich.cells import cell_len

from .. import PROTOCOL_VERSION, suite
from ..harness.compare import MISSING, Difference, flatten
from .safetext import bounded, json_safe, printable, xml_safe  # noqa: F401 (re-exported)
from ..harness.driver import BuildBroke
from ..errors import Exit
from ..games import GAMES
from ..games.base import owners
from ..harness.replay import CONFORMS, MISMATCH, NOT_RUN, StepResult, TraceResult
from ..harness.trace import Trace
from ..rulebook.rules import code_rules, first_sentence, rule_lines, spec_rules


# The status of one check in a verify run.
PASSED, FAILED, SKIPPED, XFAIL, XPASS, BROKE = "passed", "failed", "not-run", "xfail", "xpass", "broke"
STATUSES = (PASSED, FAILED, SKIPPED, XFAIL, XPASS, BROKE)


@dataclass(frozen=True)
class FieldDiff:
    """One field that differs in a failing answer, with the rule that owns it."""

    path: str  # scores.red, pieces.human[2], view[gaias].units, legal, rejected
    expected: Any
    actual: Any
    rule: str | None  # the rule the failure is credited to first (None: no rule owns this field)
    see_also: tuple[str, ...] = ()  # the other rules that decide this field
    by_reference: bool = False  # the expected value is the reference's answer, not the trace's own words
    owners: tuple[str, ...] = ()  # every rule the failure is credited to (games.base.owners); () = (rule,)

    @property
    def credited(self) -> tuple[str, ...]:
        return self.owners or ((self.rule,) if self.rule else ())


@dataclass(frozen=True)
class Failure:
    """Where and how a check failed: what a builder needs to act without replaying it by hand."""

    file: str  # the trace or feature file
    line: int | None
    step: int | None  # the trace step (0: the start), None for a scenario or perft
    action: str  # the step's action in a few words, or the Gherkin step
    request: Any = None  # the request the kit sent for that step (protocol JSON, without its id)
    asked: Any = None  # the request whose answer differed, when not the step's own (a view, a legal list)
    fields: tuple[FieldDiff, ...] = ()  # every differing field
    message: str = ""  # the failure in one line
    ledger: tuple[dict[str, Any], ...] = ()  # the trace's steps up to the failing one (step, action, ok...)
    before: Any = None  # the position before the step (a state view), for pictures
    expected_view: Any = None  # the answer the kit expected
    actual_view: Any = None  # the answer the build gave
    observer: str | None = None  # whose view differed
    # The differences found after this one, each judged from a resynchronised state: the build put in the
    # reference's position after the step before it (refimpl/verify/checks.py, ``resynchronise``).
    later: tuple["Failure", ...] = ()

    @property
    def where(self) -> str:
        """``file:line`` (or the file alone)."""
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True)
class Check:
    """One trace, scenario, perft walk or determinism check run against the build."""

    kind: str  # trace | scenario | perft | determinism | chance | protocol | rule
    game: str
    name: str
    rules: tuple[str, ...]  # the rules the check is tagged with
    status: str
    detail: str = ""
    ruleset: str | None = None
    stderr: str = ""
    reason: str = ""  # why it was expected to fail
    failure: Failure | None = None
    transcript: tuple[dict[str, Any], ...] = ()  # the raw exchanges of a failing check (verify --transcript)
    file: str = ""  # the trace or feature file, as reports name it
    line: int | None = None  # the scenario's line (a trace: None, its file is the place)
    seconds: float = 0.0  # how long the check took, as the run saw it (pipelined traces share their batch's)

    @property
    def credited(self) -> tuple[str, ...]:
        """The rules the matrix counts this check under: a failure with differing fields counts under the
        rules owning those fields (not every rule the trace is tagged with); anything else under its tags."""
        if self.status in (FAILED, XFAIL) and self.failure is not None:
            fields = [f for failure in (self.failure, *self.failure.later) for f in failure.fields]
            credited = tuple(dict.fromkeys(r for f in fields for r in f.credited))
            if credited:
                return credited
        return self.rules


@dataclass
class Report:
    command: str
    build: str = ""
    kit: dict[str, str] = field(default_factory=suite.identity)  # the kit that judged (suite.identity)
    profiles: list[dict[str, Any]] = field(default_factory=list)  # the builder's profiles (Profile.summary)
    checks: list[Check] = field(default_factory=list)
    broke_at_start: BuildBroke | None = None
    warnings: list[str] = field(default_factory=list)
    stopped: str = ""  # why the run stopped before every check ran (the rest is not run)
    interrupted: str = ""  # "Ctrl-C" or "SIGTERM": the run was cut short from outside
    explicit_chance: bool = False  # the build declared explicit-chance (refimpl/harness/chance.py)

    def count(self, status: str, checks: Iterable[Check] | None = None) -> int:
        return sum(1 for c in (self.checks if checks is None else checks) if c.status == status)

    @property
    def exit_code(self) -> Exit:
        if self.interrupted:
            return Exit.TERMINATED if self.interrupted == "SIGTERM" else Exit.INTERRUPTED
        if self.broke_at_start is not None or self.count(BROKE):
            return Exit.BUILD_BROKE
        if self.count(FAILED) or self.count(XPASS) or not (self.count(PASSED) or self.count(XFAIL)):
            return Exit.DOES_NOT_CONFORM
        return Exit.CONFORMS

    def matrix(self) -> dict[str, dict[str, dict[str, int]]]:
        """game -> rule ID -> status -> count, every rule of the game's spec included."""
        out: dict[str, dict[str, dict[str, int]]] = {}
        games = sorted({c.game for c in self.checks})
        for game in games:
            text = suite.spec_text(GAMES[game].info.spec) if game in GAMES else None
            rules = {r: dict.fromkeys(STATUSES, 0) for r in spec_rules(text or "")}
            for check in (c for c in self.checks if c.game == game):
                for rule in check.credited:
                    rules.setdefault(rule, dict.fromkeys(STATUSES, 0))[check.status] += 1
            out[game] = rules
        return out


# --- failures, as every report shows them ------------------------------------------------------

_CODES: dict[str, dict[str, tuple[str, ...]]] = {}


def _code_owners(game: str) -> dict[str, tuple[str, ...]]:
    """The game's codes and the rules that name them (read from its spec once)."""
    if game not in _CODES:
        text = suite.spec_text(GAMES[game].info.spec) if game in GAMES else None
        _CODES[game] = code_rules(text) if text else {}
    return _CODES[game]


def _code_of(value: Any) -> str | None:
    return value.split(":")[0].removeprefix("rejected ").removeprefix("error ").strip() \
        if isinstance(value, str) else None


@cache
def rule_words(rule: str) -> tuple[str, str, int] | None:
    """(the rule's whole text, its spec's repository name, the line stating it) for a rule or ruling ID of any
    game, or None for an ID no spec states."""
    prefix = rule.split("-", 1)[0]
    for engine in GAMES.values():
        if engine.info.rule_prefix == prefix:
            text = suite.spec_text(engine.info.spec) or ""
            body = spec_rules(text).get(rule)
            if body is None:
                return None
            return body, engine.info.spec, rule_lines(text).get(rule, 0)
    return None


def field_diffs(game: str, diffs: Iterable[tuple[Difference, bool]],
                *tagged: Sequence[str]) -> tuple[FieldDiff, ...]:
    """Differences with the rule owning each field: for a rejection or error code, the rules that name the
    code expected (else the one given); for any other field, the field's rules (GameInfo.field_rules).
    Among several, the first in the most particular group of ``tagged`` (a step's rules, then the
    trace's) wins, else the first (see games.base.owners)."""
    info = GAMES[game].info if game in GAMES else None
    out = []
    for diff, by_reference in diffs:
        rules = info.rules_of(diff.path) if info is not None else ()
        top = diff.path.rpartition("].")[2].split(".")[0] if diff.path.startswith("view[") else diff.path
        if top in ("rejected", "error", "start"):
            named = _code_owners(game).get(_code_of(diff.expected) or _code_of(diff.actual) or "", ())
            rules = tuple(dict.fromkeys((*named, *rules)))
        credited = owners(rules, *tagged)
        rule = credited[0] if credited else None
        out.append(FieldDiff(diff.path, diff.expected, diff.actual, rule, tuple(r for r in rules if r != rule),
                             by_reference, credited))
    return tuple(out)


def _ledger(result: TraceResult) -> tuple[dict[str, Any], ...]:
    """The trace's steps up to the failing one, as rows a report shows."""
    return tuple({"step": s.number, "line": s.line, "action": s.action, "ok": s.ok,
                  "expected": flatten(s.expected) if s.expected is not None else [],
                  "actual": [] if s.ok else flatten(s.actual)} for s in result.steps)


def shown_path(path: str) -> str:
    """A bundled file by its name in the kit's repository (``traces/ludo/capture.yaml``); another ``path``
    relative to the working folder when it lies inside it (shorter in reports), else as given."""
    bundled = suite.shown(path)
    if bundled is not None:
        return bundled
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


def trace_failure(trace: Trace, result: TraceResult) -> Failure:
    """The Failure of a trace that did not conform: where, what was sent, every differing field."""
    fail = result.failure
    assert fail is not None and fail.difference is not None
    detail = fail.failure
    diffs = detail.differences if detail is not None else ((fail.difference, fail.by_reference),)
    where = f"step {fail.number}" if fail.number else "the start"
    file = shown_path(trace.path)
    line = fail.line or trace.line_of(("start",)) or trace.line_of(("setup",)) or trace.line_of(("game",))
    message = f"{file}:{line} {where} ({fail.action}): {fail.describe()}" if line else \
        f"{file} {where} ({fail.action}): {fail.describe()}"
    fields = tuple(replace(f, expected=bounded(f.expected), actual=bounded(f.actual))  # a build's answer: cut
                   for f in field_diffs(trace.game, diffs, fail.step.rules if fail.step else (), trace.rules))
    return Failure(file, line, fail.number, fail.action,
                   detail.request if detail else None, detail.asked if detail else None, fields,
                   message, _ledger(result), bounded(detail.before if detail else None),
                   bounded(detail.expected_view if detail else fail.expected),
                   bounded(detail.actual_view if detail else fail.answer), detail.observer if detail else None)



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
        return printable(f"{head}\n  NOT RUN: {result.reason}\n")
    cells = [_cells(s) for s in result.steps]
    if result.omitted:  # a long trace: the steps between its first and last ones, counted in one row
        at = next((k for k, s in enumerate(result.steps) if s.number > result.steps[0].number + k), len(cells))
        cells.insert(at, [["..."], [f"{result.omitted} more steps"], [""], ["as expected"]])
    rows = [[["step"], ["action"], ["expected"], ["actual"]]] + cells
    widths = [max(cell_len(line) for r in rows for line in r[i]) for i in range(3)]
    lines = [head]
    for row in rows:
        for k in range(max(len(c) for c in row)):
            parts = [(c[k] if k < len(c) else "") for c in row]
            lines.append(("  " + " | ".join(pad(p, w) for p, w in zip(parts, widths)) + " | " + parts[3]).rstrip())
    fail = result.failure
    if fail is None:
        lines.append(f"  CONFORMS ({result.judged} checks)")
    else:
        where = f"step {fail.number} (line {fail.line})" if fail.number else "the start"
        lines.append(f"  MISMATCH at {where}: {fail.describe()}")
    return printable("\n".join(lines) + "\n")


def summary(results: Iterable[TraceResult]) -> str:
    counts = Counter(r.status for r in results)
    return (f"{sum(counts.values())} traces: {counts[CONFORMS]} conform, {counts[MISMATCH]} mismatch, "
            f"{counts[NOT_RUN]} not run")


def text_report(results: list[TraceResult]) -> str:
    return printable("\n".join(ledger(r) for r in results) + "\n" + summary(results) + "\n")


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
        "summary": {"traces": len(results), **{snake(s): counts[s] for s in (CONFORMS, MISMATCH, NOT_RUN)}},
        "traces": [{"path": r.trace.path, "title": r.trace.title, "game": r.trace.game,
                    "ruleset": r.trace.ruleset, "rules": list(r.trace.rules), "status": snake(r.status),
                    "reason": r.reason, "steps": [_step_json(s) for s in r.steps],
                    "omitted_steps": r.omitted} for r in results],
    }
    return dumps(doc)


# --- verify reports -------------------------------------------------------------------------------

# How the matrix names the rows that count checks by kind.
KINDS = {"trace": "traces", "scenario": "scenarios", "perft": "perft", "determinism": "twice", "rule": "rule entries",
         "chance": "own chance", "protocol": "protocol"}


def _verdict(report: Report) -> str:
    counts = ", ".join(f"{report.count(s)} {s}" for s in STATUSES if report.count(s))
    word = {Exit.CONFORMS: "CONFORMS", Exit.DOES_NOT_CONFORM: "DOES NOT CONFORM",
            Exit.BUILD_BROKE: "BUILD BROKE", Exit.INTERRUPTED: "INTERRUPTED (Ctrl-C)",
            Exit.TERMINATED: "INTERRUPTED (SIGTERM)"}[report.exit_code]
    return f"Verdict: {word} ({counts or 'nothing ran'})"


def _short_value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 40 else text[:39] + "…"


def verify_text(report: Report) -> str:
    """The conformance matrix (per game and rule ID), the failures with their diffs, and the verdict."""
    lines = [f"Build: {report.build or '?'}  ({report.command})",
             f"Kit:   {report.kit['name']} {report.kit['version']} (suite {report.kit['suite']})"]
    lines += [f"Profile: {p['name']} for {p['game']} ({p['file']}): " + (
        ", ".join(f"{c['field']} {_short_value(c['default'])} -> {_short_value(c['value'])}" for c in p["changed"])
        or "the defaults") for p in report.profiles]
    if report.broke_at_start is not None:
        exc = report.broke_at_start
        lines += [f"The build did not start: {exc}", f'sent:  {{"id":0,"op":"hello","protocol":{PROTOCOL_VERSION}}}',
                  *_stderr_lines(exc.stderr_tail), _verdict(report)]
        return printable("\n".join(lines) + "\n")
    cols = ("passed", "failed", "not-run", "xfail", "xpass", "broke")
    for game, rules in report.matrix().items():
        lines += ["", f"{game}", "  " + "rule".ljust(14) + "".join(c.rjust(9) for c in cols)]
        for rule, counts in rules.items():
            cells = "".join((str(counts[c]) if counts[c] else "-").rjust(9) for c in cols)
            lines.append("  " + rule.ljust(14) + cells)
        checks = [c for c in report.checks if c.game == game]
        for kind in sorted({c.kind for c in checks}):
            mine = [c for c in checks if c.kind == kind]
            lines.append("  " + f"({KINDS.get(kind, kind)})".ljust(14) + "".join(
                (str(report.count(c, mine)) if report.count(c, mine) else "-").rjust(9) for c in cols))
        lines.append("  " + "all checks".ljust(14) + "".join(str(report.count(c, checks)).rjust(9) for c in cols))
    if report.checks:
        lines += ["", "A check counts under each rule it covers (a failure only under the rules owning the fields that "
                  "differ),", "so the rule rows need not add up to 'all checks', which counts each check once; rows in "
                  "brackets count by kind."]
    bad = [c for c in report.checks if c.status in (FAILED, BROKE, XPASS)]
    if bad:
        lines += ["", "Problems:"]
        for c in bad:
            label = {FAILED: "FAILED", BROKE: "BROKE", XPASS: "XPASS (expected to fail, but passed)"}[c.status]
            lines.append(f"  {label} {c.kind} {c.name} [{', '.join(c.credited)}]")
            if c.failure is not None:
                lines += ["    " + d for d in failure_lines(c.failure)]
            elif c.detail:
                lines += ["    " + d for d in c.detail.splitlines()[:12]]
            lines += ["    " + s for s in _stderr_lines(c.stderr)]
    xfails = [c for c in report.checks if c.status == XFAIL]
    if xfails:
        lines += ["", "Expected failures (xfail):"]
        for c in xfails:
            lines.append(f"  {c.kind} {c.name} [{', '.join(c.credited)}]: {c.reason}")
            first = c.failure.message if c.failure is not None else c.detail.partition("\n")[0]
            if first:
                lines.append(f"    {_clip(first, 160)}")
    skipped = {c.detail for c in report.checks if c.status == SKIPPED and c.detail}
    if skipped:
        lines += ["", "Not run:"] + [f"  {reason}" for reason in sorted(skipped)]
    if report.warnings:
        lines += ["", *[f"Warning: {w}" for w in report.warnings]]
    if report.stopped:
        lines += ["", f"Stopped early: {report.stopped}; what had not run is counted as not run."]
    lines += ["", _verdict(report)]
    return printable("\n".join(lines) + "\n")


def _clip(text: str, size: int) -> str:
    return text if len(text) <= size else text[:size - 1] + "…"


def pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` columns as a terminal shows it (a CJK character takes two)."""
    return text + " " * max(0, width - cell_len(text))


def show_value(value: Any, size: int = 48) -> str:
    """A field's value in a report cell: JSON, ``<missing>`` for an absent key, clipped to ``size``."""
    return _clip("<missing>" if value is MISSING else json.dumps(value, ensure_ascii=False,
                                                                 separators=(",", ":")), size)


SHOWN_FIELDS = 12  # a text report lists this many differing fields of a failure (the JSON report all)


SHOWN_LATER = 3  # later differences of a trace shown in the text report
SHOWN_ACTIONS = 20  # actions of a legal list's missing or extra part listed in the text report


def list_change(expected: Any, actual: Any) -> str | None:
    """For two lists of different lengths, what one has and the other lacks (each element counted), pointed
    at in words: ``missing "3,-2"; extra "4,-2", "4,-3"``; None for anything else."""
    if not isinstance(expected, list) or not isinstance(actual, list) or len(expected) == len(actual):
        return None
    key = lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))  # noqa: E731
    ours, theirs = Counter(map(key, expected)), Counter(map(key, actual))
    parts = []
    for word, items in (("missing", ours - theirs), ("extra", theirs - ours)):
        if items:
            shown = list(items.elements())
            parts.append(f"{word} {', '.join(shown[:8])}" + (f" and {len(shown) - 8} more" if len(shown) > 8 else ""))
    return "; ".join(parts) or "the same elements, repeated otherwise"


def _legal_lines(f: FieldDiff) -> list[str]:
    """A legal-list difference in full below the table: what is missing and what is extra, with counts, one
    action a line (a duplicate is extra)."""
    missing = f.expected.get("missing") if isinstance(f.expected, dict) else None
    extra = f.actual.get("extra") if isinstance(f.actual, dict) else None
    if not isinstance(missing, list) or not isinstance(extra, list):
        return []
    lines = []
    for word, actions in (("missing", missing), ("extra", extra)):
        if actions:
            lines.append(f"{f.path} {word} ({len(actions)}):")
            lines += [f"  {_clip(str(a), 160)}" for a in actions[:SHOWN_ACTIONS]]
            if len(actions) > SHOWN_ACTIONS:
                lines.append(f"  ... and {len(actions) - SHOWN_ACTIONS} more (the JSON report lists all)")
    return lines


def failure_lines(failure: Failure) -> list[str]:
    """A failure as text: where, the request sent, then every differing field side by side with its rule."""
    step = "" if failure.step is None else (" the start:" if failure.step == 0 else f" step {failure.step}:")
    lines = [f"at {failure.where}{step} {failure.action}"]
    if failure.request is not None:
        lines.append(f"sent:  {_clip(json.dumps(failure.request, ensure_ascii=False, separators=(',', ':')), 200)}")
    if failure.asked is not None:
        lines.append(f"asked: {_clip(json.dumps(failure.asked, ensure_ascii=False, separators=(',', ':')), 200)}")
    if not failure.fields:
        return lines + [_clip(line, 400) for line in failure.message.splitlines()[:12]]
    rows = [("field", "expected", "actual", "rule")]
    for f in failure.fields[:SHOWN_FIELDS]:
        rule = (f.rule or "-") + (" (by the reference)" if f.by_reference else "")
        rows.append((_clip(f.path, 40), show_value(f.expected), show_value(f.actual), rule))
    widths = [max(cell_len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        lines.append(f"{pad(r[0], widths[0])}  {pad(r[1], widths[1])} | {pad(r[2], widths[2])}  {r[3]}".rstrip())
    if len(failure.fields) > SHOWN_FIELDS:
        lines.append(f"... and {len(failure.fields) - SHOWN_FIELDS} more fields (the JSON and HTML reports list all)")
    for f in failure.fields[:SHOWN_FIELDS]:
        lines += _legal_lines(f)
        change = list_change(f.expected, f.actual)
        if change is not None:
            lines.append(_clip(f"{f.path}: {change}", 300))
    for rule in dict.fromkeys(f.rule for f in failure.fields[:SHOWN_FIELDS] if f.rule):
        found = rule_words(rule)
        if found is not None:
            lines.append(_clip(f"{rule} ({found[1]}:{found[2]}): {first_sentence(found[0])}", 200))
    for later in failure.later[:SHOWN_LATER]:
        lines.append("then, judged from the reference's position before the step (resynchronised):")
        lines += ["  " + line for line in failure_lines(replace(later, later=()))]
    if len(failure.later) > SHOWN_LATER:
        lines.append(f"... and {len(failure.later) - SHOWN_LATER} more later differences (the JSON report lists all)")
    return lines


def _stderr_lines(tail: str) -> list[str]:
    return ["build stderr (last lines):", *["  | " + s for s in tail.splitlines()]] if tail else []


VERDICTS = {Exit.CONFORMS: "conforms", Exit.DOES_NOT_CONFORM: "does_not_conform", Exit.BUILD_BROKE: "build_broke",
            Exit.INTERRUPTED: "interrupted", Exit.TERMINATED: "interrupted"}


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
                    "stderr": c.stderr, "reason": c.reason, "failure": failure_json(c.failure)}
                   for c in report.checks],
        "warnings": report.warnings,
        "explicit_chance": report.explicit_chance,
        "stopped": report.stopped,
        "interrupted": report.interrupted,
    }
    return dumps(doc)


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
                    "spec": (f"{rule_words(f.rule)[1]}:{rule_words(f.rule)[2]}"  # type: ignore[index]
                             if f.rule and rule_words(f.rule) else None),
                    "source": "reference" if f.by_reference else "trace"} for f in failure.fields],
        "ledger": [dict(row) for row in failure.ledger],
        "views": {"observer": failure.observer, "before": failure.before,
                  "expected": _value_json(failure.expected_view), "actual": _value_json(failure.actual_view)},
        "later": [failure_json(f) for f in failure.later],
    }


def junit_xml(report: Report) -> str:
    """JUnit XML: one testsuite per game and kind, one testcase per trace or scenario. Characters XML
    cannot hold are replaced (see ``xml_safe``), so the file always parses."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites", name=f"refimpl verify: {report.build or report.command}")
    kit = {f"refimpl.{k}": v for k, v in report.kit.items() if k != "name"}

    def properties(suite_element: ET.Element) -> None:
        """The kit that judged (its version and suite digest) on every suite, as JUnit readers show them."""
        props = ET.SubElement(suite_element, "properties")
        for name, value in kit.items():
            ET.SubElement(props, "property", name=name, value=value)

    groups: dict[tuple[str, str], list[Any]] = {}
    for c in report.checks:
        groups.setdefault((c.game, c.kind), []).append(c)
    if report.broke_at_start is not None:
        suite_element = ET.SubElement(root, "testsuite", name="build", tests="1", failures="0", errors="1",
                                      skipped="0")
        properties(suite_element)
        case = ET.SubElement(suite_element, "testcase", classname="build", name="start")
        ET.SubElement(case, "error", type=report.broke_at_start.cause, message=str(report.broke_at_start))
        ET.SubElement(case, "system-err").text = report.broke_at_start.stderr_tail
    for (game, kind), checks in groups.items():
        suite_element = ET.SubElement(root, "testsuite", name=f"{game} {kind}s", tests=str(len(checks)),
                                      failures=str(sum(c.status in (FAILED, XPASS) for c in checks)),
                                      errors=str(sum(c.status == BROKE for c in checks)),
                                      skipped=str(sum(c.status in (SKIPPED, XFAIL) for c in checks)))
        properties(suite_element)
        for c in checks:
            case = ET.SubElement(suite_element, "testcase", classname=f"{game}.{kind}", name=c.name,
                                 time=f"{c.seconds:.3f}")
            where = c.failure if c.failure is not None and c.failure.file else c
            if where.file:
                case.set("file", where.file)
            if where.line:
                case.set("line", str(where.line))
            ET.SubElement(ET.SubElement(case, "properties"), "property", name="rules", value=" ".join(c.rules))
            if c.status == FAILED:
                text = "\n".join(failure_lines(c.failure)) if c.failure is not None else c.detail
                ET.SubElement(case, "failure", message=c.detail.splitlines()[0] if c.detail else "").text = text
            elif c.status == XPASS:
                ET.SubElement(case, "failure", message="expected to fail, but passed").text = c.reason
            elif c.status == BROKE:
                ET.SubElement(case, "error", message=c.detail.splitlines()[0] if c.detail else "").text = c.detail
            elif c.status in (SKIPPED, XFAIL):
                ET.SubElement(case, "skipped", message=c.reason or c.detail)
            if c.stderr:
                ET.SubElement(case, "system-err").text = c.stderr
    for element in root.iter():  # a build's names and stderr may hold what XML cannot
        element.text = None if element.text is None else xml_safe(element.text)
        element.attrib = {k: xml_safe(v) for k, v in element.attrib.items()}
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
