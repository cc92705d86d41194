"""The reports as text: replay's ledger per trace (like the seeds' tables) and verify's conformance matrix, with
each failure's fields side by side and the words of the rules that own them."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from rich.cells import cell_len

from .. import PROTOCOL_VERSION
from ..errors import Exit
from ..harness.compare import MISSING, flatten
from ..harness.replay import StepResult, TraceResult
from ..rulebook.rules import first_sentence
from ..status import Status
from .failures import rule_words
from .model import KINDS, STATUSES, Check, Failure, FieldDiff, Report
from .safetext import printable


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
    if result.status == Status.NOT_RUN:
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
    return (f"{sum(counts.values())} traces: {counts[Status.CONFORMS]} conform, {counts[Status.MISMATCH]} mismatch, "
            f"{counts[Status.NOT_RUN]} not run")


def text_report(results: list[TraceResult]) -> str:
    return printable("\n".join(ledger(r) for r in results) + "\n" + summary(results) + "\n")


# --- verify reports -------------------------------------------------------------------------------

def _verdict(report: Report) -> str:
    counts = ", ".join(f"{report.count(s)} {s}" for s in STATUSES if report.count(s))
    word = {Exit.CONFORMS: "CONFORMS", Exit.DOES_NOT_CONFORM: "DOES NOT CONFORM",
            Exit.BUILD_BROKE: "BUILD BROKE", Exit.INTERRUPTED: "INTERRUPTED (Ctrl-C)",
            Exit.TERMINATED: "INTERRUPTED (SIGTERM)"}[report.exit_code]
    level = f" at level {report.level}" if report.level != "full" else ""
    return f"Verdict: {word}{level} ({counts or 'nothing ran'})"


def _short_value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 40 else text[:39] + "…"


def verify_text(report: Report) -> str:
    """The conformance matrix (per game and rule ID), the failures with their diffs, and the verdict."""
    lines = [f"Build: {report.build or '?'}  ({report.command})",
             f"Kit:   {report.kit['name']} {report.kit['version']} (suite {report.kit['suite']})",
             f"Level: {report.level_words}"]
    lines += [f"Profile: {p['name']} for {p['game']} ({p['file']}): " + (
        ", ".join(f"{c['field']} {_short_value(c['default'])} -> {_short_value(c['value'])}" for c in p["changed"])
        or "the defaults") for p in report.profiles]
    if report.broke_at_start is not None:
        exc = report.broke_at_start
        lines += [f"The build did not start: {exc}", f'sent:  {{"id":0,"op":"hello","protocol":{PROTOCOL_VERSION}}}',
                  *_stderr_lines(exc.stderr_tail), _verdict(report)]
        return printable("\n".join(lines) + "\n")
    cols = STATUSES  # passed, failed, not-run, xfail, xpass, broke: their words head the columns
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
    bad = likeliest_first([c for c in report.checks if c.status in (Status.FAILED, Status.BROKE, Status.XPASS)])
    if bad:
        lines += ["", "Problems:"]
        lead = first_cause(bad)
        if lead is not None:
            rule, count = lead
            lines.append(f"  Most of them ({count} of {len(bad)}) trace back to {rule}: start there, with the first "
                         f"below (its shortest failing check).")
        for c in bad:
            label = {Status.FAILED: "FAILED", Status.BROKE: "BROKE",
                     Status.XPASS: "XPASS (expected to fail, but passed)"}[c.status]
            lines.append(f"  {label} {c.kind} {c.name} [{', '.join(c.credited)}]")
            if c.failure is not None:
                lines += ["    " + d for d in failure_lines(c.failure)]
            elif c.detail:
                lines += ["    " + d for d in c.detail.splitlines()[:12]]
            lines += ["    " + s for s in _stderr_lines(c.stderr)]
    xfails = [c for c in report.checks if c.status == Status.XFAIL]
    if xfails:
        lines += ["", "Expected failures (xfail):"]
        for c in xfails:
            lines.append(f"  {c.kind} {c.name} [{', '.join(c.credited)}]: {c.reason}")
            first = c.failure.message if c.failure is not None else c.detail.partition("\n")[0]
            if first:
                lines.append(f"    {_clip(first, 160)}")
    skipped = {c.detail for c in report.checks if c.status == Status.NOT_RUN and c.detail}
    if skipped:
        lines += ["", "Not run:"] + [f"  {reason}" for reason in sorted(skipped)]
    if report.reach:
        lines += reach_lines(report)
    if report.warnings:
        lines += ["", *[f"Warning: {w}" for w in report.warnings]]
    if report.stopped:
        lines += ["", f"Stopped early: {report.stopped}; what had not run is counted as not run."]
    lines += ["", _verdict(report)]
    return printable("\n".join(lines) + "\n")


def kit_place(spec: str, line: int) -> str:
    """Where a rule is stated, as a place in the kit that judged, not in the user's repository (issue 43):
    ``refimpl 0.4.0 specs/ludo.md:114`` (``refimpl rule ID`` prints it from the installed kit)."""
    from .. import __version__

    return f"refimpl {__version__} {spec}:{line}"


def first_cause(bad: list[Check]) -> tuple[str, int] | None:
    """(the rule most of the failing checks are credited to, how many), when one rule leads and more than one
    check failed; None otherwise."""
    counts: dict[str, int] = {}
    for c in bad:
        for rule in dict.fromkeys(c.credited):
            counts[rule] = counts.get(rule, 0) + 1
    if len(bad) < 2 or not counts:
        return None
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None  # no rule leads
    return ranked[0]


def _size(c: Check) -> tuple[int, int]:
    """How small a failing check is: the step it failed at (a scenario: its line's order), then its own length."""
    step = c.failure.step if c.failure is not None and c.failure.step is not None else 0
    return (step, len(c.failure.ledger) if c.failure is not None else 0)


def likeliest_first(bad: list[Check]) -> list[Check]:
    """The problems led by the likeliest first cause: the checks credited to the rule most of them trace back
    to, the smallest first; then the rest, each rule's group by how many checks it holds, in run order within a
    group (a rule's own short check before the long routes that also cross it)."""
    counts: dict[str, int] = {}
    for c in bad:
        for rule in dict.fromkeys(c.credited):
            counts[rule] = counts.get(rule, 0) + 1

    def key(item: tuple[int, Check]) -> tuple[int, tuple[int, int], int]:
        n, c = item
        top = max((counts[r] for r in c.credited), default=0)
        return (-top, _size(c), n)

    return [c for _, c in sorted(enumerate(bad), key=key)]


def reach_lines(report: Report) -> list[str]:
    """verify --coverage: each game's rules by how often the reference ran their cited code, by kind of check."""
    from ..rulebook.reach import KINDS, reach_table

    lines = ["", "Rule reach (--coverage): how often the reference ran each rule's cited code, by kind of check"]
    for game, rows, never, unmeasured in reach_table(report.reach, [c.game for c in report.checks]):
        lines += ["", f"{game}", "  " + "rule".ljust(14) + "".join(k.rjust(11) for k in KINDS)]
        for rule, hits in rows:
            lines.append("  " + rule.ljust(14) + "".join((str(hits[k]) if hits[k] else "-").rjust(11) for k in KINDS))
        if never:
            lines.append(f"  never reached: {', '.join(never)}")
        if unmeasured:
            lines.append(f"  not measurable (cited only where nothing runs in play): {', '.join(unmeasured)}")
    return lines


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
            lines.append(_clip(f"{rule} ({kit_place(found[1], found[2])}): {first_sentence(found[0])}", 200))
    for later in failure.later[:SHOWN_LATER]:
        lines.append("then, judged from the reference's position before the step (resynchronised):")
        lines += ["  " + line for line in failure_lines(replace(later, later=()))]
    if len(failure.later) > SHOWN_LATER:
        lines.append(f"... and {len(failure.later) - SHOWN_LATER} more later differences (the JSON report lists all)")
    return lines


def _stderr_lines(tail: str) -> list[str]:
    return ["build stderr (last lines):", *["  | " + s for s in tail.splitlines()]] if tail else []


# --- what the other commands print ------------------------------------------------------------------

def games_text() -> str:
    """``refimpl games``: each registered game, its title, its rulesets (the default marked) and its spec."""
    from ..games import GAMES

    out = []
    for name, engine in GAMES.items():
        info = engine.info
        rulesets = ", ".join(f"{r}{' (default)' if r == info.default_ruleset else ''}" for r in info.rulesets)
        out.append(f"{name:14} {info.title:16} rulesets: {rulesets}   spec: {info.spec}\n")
    return "".join(out)


def checks_text(found: list[tuple[str, str, str, tuple[str, ...]]]) -> str:
    """``verify --list``: each check that would run (kind, name, rules), then how many."""
    return ("".join(f"{k:9} {n} [{', '.join(r)}]\n" for k, _g, n, r in found)
            + f"{len(found)} checks (a build with its own random source also gets checks of its own chance)\n")


def perft_text(counts: Any) -> str:
    """``refimpl perft``: the action sequences to each depth (with the games finished there), then the finished
    games by result (``counts``: a harness.perft count)."""
    out = []
    for d, (n, finished) in enumerate(zip(counts.nodes, counts.results)):
        ended = ", ".join(f"{r} {k}" for r, k in finished)
        out.append(f"depth {d}: {n}" + (f"  (finished: {ended})" if ended else "") + "\n")
    out += [f"finished, {result}: {n}\n" for result, n in counts.totals().items()]
    return "".join(out)


def tables_text(chosen: dict[str, Any], markdown: bool = False) -> str:
    """``refimpl tables``: the tables ``chosen`` (name -> table), as text or markdown, each under its name when
    there are several."""
    from ..rulebook import tables

    render = tables.markdown if markdown else tables.text
    return "\n".join(f"{n}\n\n{render(t)}" if len(chosen) > 1 else render(t) for n, t in chosen.items())
