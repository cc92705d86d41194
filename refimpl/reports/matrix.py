"""Many builds' reports as one matrix (issue 47): builds as columns, games and rules as rows, each cell one
build's result for one rule; rows sorted so the rules most builds misread come first. Its forms: JSON (schema
``schemas/output/matrix.schema.json``, every build's whole verify report inside), text, markdown (the step
summary) and JUnit (one suite a build); the HTML page is ``matrixhtml.py``.

A cell's word, from the build's counts for the rule (``Report.matrix``): ``broke`` if a check of it broke,
else ``failed`` if one failed or passed unexpectedly, else ``xfail``, else ``passed``, else ``not-run``; a
build that did not judge the game (its ``games:``, or a game its hello does not declare) has ``-``, and one that
did not start ``broke`` everywhere. A rule's
share of builds misreading it counts ``failed`` and ``xfail`` (a known misreading is one) over the builds
that judged it (any word but ``-`` and ``not-run``)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from ..errors import Exit
from ..status import Status
from .jsondoc import dumps, fraction, snake, verify_json
from .model import STATUSES, VERDICTS, Check, Report
from .safetext import printable

MISREAD = ("failed", "xfail")
JUDGED = ("passed", "failed", "xfail", "broke")
ORDER = {Exit.INTERRUPTED: 4, Exit.TERMINATED: 4, Exit.BUILD_BROKE: 3, Exit.DOES_NOT_CONFORM: 2, Exit.CONFORMS: 0}


@dataclass
class Entry:
    """One build's column: its name, what it is (command, page or image), its report and its run's seconds."""

    name: str
    target: str
    report: Report
    seconds: float = 0.0
    games: tuple[str, ...] = ()  # the games it was asked to judge (empty: every game)

    @functools.cached_property
    def unplayed(self) -> set[str]:
        """The games the build does not declare (its cells there are ``-``)."""
        return undeclared(self.report)


@dataclass(frozen=True)
class Row:
    """One rule across the builds: each build's cell word and counts, and how many builds misread it."""

    game: str
    rule: str
    cells: dict[str, tuple[str, dict[str, int]]]  # build name -> (word, counts by status)

    @property
    def misread(self) -> int:
        return sum(word in MISREAD for word, _ in self.cells.values())

    @property
    def share(self) -> float:
        """The share of the builds that judged the rule which misread it (0 when none judged it)."""
        return self.misread / self.judged if self.judged else 0.0

    @property
    def failing(self) -> int:
        """Failing checks credited to the rule, over every build: among rules as many builds misread, the
        likelier cause (a rule credited by a build's every failure) before the rules a long route also crossed."""
        return sum(counts.get("failed", 0) + counts.get("xfail", 0) for _, counts in self.cells.values())

    @property
    def judged(self) -> int:
        return sum(word in JUDGED for word, _ in self.cells.values())


@dataclass
class Matrix:
    """The builds of one run and their reports, in the order the run named them; ``gate`` the builds whose
    verdicts decide the exit code (empty: all), ``planned`` every build the run named (those missing from
    ``entries`` did not finish: an interrupted run)."""

    entries: list[Entry]
    gate: tuple[str, ...] = ()
    planned: tuple[str, ...] = ()
    interrupted: str = ""
    kit: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.kit and self.entries:
            self.kit = dict(self.entries[0].report.kit)

    def gated(self, entry: Entry) -> bool:
        return not self.gate or entry.name in self.gate

    @property
    def not_run(self) -> list[str]:
        ran = {e.name for e in self.entries}
        return [n for n in self.planned if n not in ran]

    @property
    def exit_code(self) -> Exit:
        """Interrupted (130) if the run was cut short; else of the gated builds: 3 if any broke, 1 if any does not
        conform, 0 when every one conforms (docs/many-builds.md "Exit codes")."""
        if self.interrupted or any(n for n in self.not_run if not self.gate or n in self.gate):
            return Exit.TERMINATED if self.interrupted == "SIGTERM" else Exit.INTERRUPTED
        codes = [e.report.exit_code for e in self.entries if self.gated(e)]
        return max(codes, key=lambda c: ORDER.get(c, 5), default=Exit.CONFORMS)

    def rows(self) -> list[Row]:
        """Every rule any build judged, the largest share of builds misreading it first (then the most builds, the
        most failing checks, the most broken, then game and spec order)."""
        tables = {e.name: e.report.matrix() for e in self.entries}
        order: dict[tuple[str, str], int] = {}
        for table in tables.values():
            for game, rules in table.items():
                for rule in rules:
                    order.setdefault((game, rule), len(order))
        rows = [Row(game, rule, {e.name: cell(e, tables[e.name].get(game, {}).get(rule), game) for e in self.entries})
                for game, rule in order]
        return sorted(rows, key=lambda r: (-r.share, -r.misread, -r.failing,
                                           -sum(w == "broke" for w, _ in r.cells.values()), r.game,
                                           order[(r.game, r.rule)]))


def undeclared(report: Report) -> set[str]:
    """The games a build does not play: its hello declared none of their rulesets, so each of their checks is
    not run, saying so."""
    games: dict[str, bool] = {}
    for c in report.checks:
        games[c.game] = games.get(c.game, True) and c.status == Status.NOT_RUN and "does not declare" in c.detail
    return {game for game, none in games.items() if none}


def cell(entry: Entry, counts: dict[Status, int] | None, game: str) -> tuple[str, dict[str, int]]:
    """The word and counts of one build's cell (the module's words)."""
    if entry.report.broke_at_start is not None:
        return "broke", {}
    if counts is None or entry.games and game not in entry.games or game in entry.unplayed:
        return "-", {}
    got = {snake(s): n for s, n in counts.items() if n}
    word = ("broke" if got.get("broke") else "failed" if got.get("failed") or got.get("xpass") else
            "xfail" if got.get("xfail") else "passed" if got.get("passed") else "not-run" if got.get("not_run")
            else "-")
    return word, got


def first_failure(report: Report, rule: str, game: str) -> Check | None:
    """The build's first check (in the likeliest-first order of its own report) that failed, broke or was
    expected to fail, credited to ``rule``."""
    from .text import likeliest_first

    bad = [c for c in report.checks if c.game == game and rule in c.credited
           and c.status in (Status.FAILED, Status.BROKE, Status.XPASS, Status.XFAIL)]
    ordered = likeliest_first(bad)
    return ordered[0] if ordered else None


# --- JSON --------------------------------------------------------------------------------------------------

def matrix_document(m: Matrix) -> dict[str, Any]:
    """The matrix as a JSON document (matrix.schema.json)."""
    rows = m.rows()
    code = m.exit_code
    return {
        "kind": "refimpl-matrix", "version": 1, "kit": m.kit, "exit_code": int(code),
        "verdict": VERDICTS.get(code, "interrupted"), "gate": list(m.gate), "interrupted": m.interrupted,
        "not_run": m.not_run,
        "builds": [{"name": e.name, "target": e.target, "gated": m.gated(e), "games": list(e.games),
                    "exit_code": int(e.report.exit_code), "verdict": VERDICTS[e.report.exit_code],
                    "level": e.report.level, "seconds": round(e.seconds, 3),
                    "summary": {"checks": len(e.report.checks), **{snake(s): e.report.count(s) for s in STATUSES}},
                    "report": json.loads(verify_json(e.report))} for e in m.entries],
        "rules": [{"game": r.game, "rule": r.rule, "misread": r.misread, "judged": r.judged,
                   "share_misread": fraction(r.misread, r.judged),
                   "cells": [{"build": name, "status": word, **counts} for name, (word, counts) in r.cells.items()]}
                  for r in rows],
    }


def matrix_json(m: Matrix) -> str:
    return dumps(matrix_document(m))


# --- text and markdown -------------------------------------------------------------------------------------

MARK = {"passed": "ok", "failed": "FAIL", "xfail": "xfail", "broke": "BROKE", "not-run": "skip", "-": "-"}
WORDS = {Exit.CONFORMS: "conforms", Exit.DOES_NOT_CONFORM: "does not conform", Exit.BUILD_BROKE: "build broke",
         Exit.INTERRUPTED: "interrupted", Exit.TERMINATED: "interrupted"}
SHOWN_ROWS = 40  # rule rows the text and markdown show (the JSON and HTML have them all)
WIDE = 100  # characters of build names a text line holds before the columns are numbered


def _tally(report: Report) -> str:
    return ", ".join(f"{report.count(s)} {s}" for s in STATUSES if report.count(s)) or (
        f"did not start: {report.broke_at_start}" if report.broke_at_start is not None else "nothing ran")


def headline(m: Matrix) -> str:
    """One line: how many builds, how they fared, the exit code."""
    counts: dict[str, int] = {}
    for e in m.entries:
        word = WORDS[e.report.exit_code]
        counts[word] = counts.get(word, 0) + 1
    said = ", ".join(f"{n} {w}" for w, n in counts.items())
    more = f", {len(m.not_run)} not run" if m.not_run else ""
    gate = f"; gate: {', '.join(m.gate)}" if m.gate else ""
    return f"refimpl verify: {len(m.planned) or len(m.entries)} builds: {said}{more}{gate} (exit {int(m.exit_code)})"


def matrix_text(m: Matrix) -> str:
    """The builds and their verdicts, then the rules some build misreads or breaks on, most misread first."""
    names = [e.name for e in m.entries]
    width = max([len(n) for n in names] + [5])
    # more builds than a line holds by name: the columns are their numbers in the list of builds
    numbered = sum(max(len(n), 5) + 2 for n in names) > WIDE
    heads = [f"#{i}" for i in range(1, len(names) + 1)] if numbered else names
    lines = [f"Kit: {m.kit.get('name')} {m.kit.get('version')} (suite {m.kit.get('suite')})", "",
             "Builds:"]
    for i, e in enumerate(m.entries, 1):
        gate = "" if m.gated(e) else "  (not gated)"
        lines.append(f"  {f'#{i} ' if numbered else ''}{e.name.ljust(width)}  {WORDS[e.report.exit_code].upper():17} "
                     f"{_tally(e.report)}  [{e.seconds:.1f} s]{gate}")
        lines.append(f"  {'    ' if numbered else ''}{''.ljust(width)}  {e.target}")
    lines += [f"  {n.ljust(width)}  NOT RUN (the run was interrupted)" for n in m.not_run]
    bad = [r for r in m.rows() if r.misread or any(w == "broke" for w, _ in r.cells.values())]
    if bad:
        lines += ["", "Rules the builds misread, the largest share first (builds failing the rule of those judging "
                  "it):", "  " + "rule".ljust(16) + "share".rjust(7) + "  " + "  ".join(h.ljust(max(len(h), 5))
                                                                                   for h in heads)]
        for r in bad[:SHOWN_ROWS]:
            share = f"{r.misread}/{r.judged}"
            lines.append("  " + r.rule.ljust(16) + share.rjust(7) + "  " + "  ".join(
                MARK[r.cells[n][0]].ljust(max(len(h), 5)) for n, h in zip(names, heads)).rstrip())
        if len(bad) > SHOWN_ROWS:
            lines.append(f"  ... and {len(bad) - SHOWN_ROWS} more rules (the JSON and HTML reports have them all)")
    elif m.entries:
        lines += ["", "No build misreads a rule."]
    lines += _first_problems(m)
    if m.interrupted:
        lines += ["", f"Interrupted ({m.interrupted}): the builds above had finished; the others did not run."]
    lines += ["", headline(m)]
    return printable("\n".join(lines) + "\n")


def first_problem(e: Entry) -> str | None:
    """A build's likeliest first problem in a line, or None when it has none."""
    from .text import likeliest_first

    bad = likeliest_first([c for c in e.report.checks if c.status in (Status.FAILED, Status.BROKE, Status.XPASS)])
    if e.report.broke_at_start is not None:
        return f"did not start: {str(e.report.broke_at_start).partition(chr(10))[0][:160]}"
    if not bad:
        return None
    c = bad[0]
    said = c.failure.message if c.failure is not None and c.failure.message else c.detail
    return (f"{c.status} {c.kind} {c.name} [{', '.join(c.credited)}]"
            + (f": {said.partition(chr(10))[0][:160]}" if said else "")
            + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""))


def _first_problems(m: Matrix) -> list[str]:
    """Each build's likeliest first problem in a line (``refimpl report FILE --build NAME`` has them all)."""
    out = [f"  {e.name}: {said}" for e in m.entries if (said := first_problem(e)) is not None]
    return ["", "First problems (the likeliest cause first; refimpl report FILE.json --build NAME has them all):",
            *out] if out else []


def matrix_annotations(m: Matrix) -> str:
    """Under GitHub Actions: one error annotation for each gated build that does not conform or broke, its title
    the build's name and verdict, its message the build's first problem (escaped as every annotation is:
    github._escape), so the run's page names which builds failed the gate and why."""
    from .github import _escape

    out = []
    for e in m.entries:
        if not m.gated(e) or e.report.exit_code == Exit.CONFORMS:
            continue
        title = _escape(f"refimpl verify: {e.name} {WORDS[e.report.exit_code]}", True)
        out.append(f"::error title={title}::{_escape(first_problem(e) or WORDS[e.report.exit_code])}")
    return "\n".join(out) + ("\n" if out else "")


def matrix_markdown(m: Matrix) -> str:
    """The matrix as markdown (the GitHub step summary): every build's text from the build passes through
    ``markdown.code`` or ``plain``, so none of it becomes markup."""
    from .markdown import code as span, plain

    def code(text: object) -> str:  # a code span in a table cell: GitHub splits a cell at any unescaped |
        return span(text).replace("|", "\\|")

    names = [e.name for e in m.entries]
    lines = [f"### {plain(headline(m))}", "", "| build | verdict | checks | what |", "|---|---|---|---|"]
    for e in m.entries:
        lines.append(f"| {code(e.name)} | {WORDS[e.report.exit_code]} | {plain(_tally(e.report))} | "
                     f"{code(e.target)} |")
    lines += [f"| {code(n)} | not run | | |" for n in m.not_run]
    bad = [r for r in m.rows() if r.misread or any(w == "broke" for w, _ in r.cells.values())]
    if bad:
        lines += ["", "| rule | misread by | " + " | ".join(code(n) for n in names) + " |",
                  "|---|---|" + "---|" * len(names)]
        for r in bad[:SHOWN_ROWS]:
            lines.append(f"| {r.rule} | {r.misread} of {r.judged} | "
                         + " | ".join(MARK[r.cells[n][0]] for n in names) + " |")
        if len(bad) > SHOWN_ROWS:
            lines.append(f"\n{len(bad) - SHOWN_ROWS} more rules: the JSON and HTML reports have them all.")
    return "\n".join(lines) + "\n"


# --- JUnit -------------------------------------------------------------------------------------------------

def matrix_junit(m: Matrix) -> str:
    """JUnit XML with one testsuite a build, its testcases the build's checks (classname build.game.kind),
    made from each build's own JUnit report (junit.py)."""
    import xml.etree.ElementTree as ET

    from .junit import junit_xml

    root = ET.Element("testsuites", name="refimpl verify: many builds")
    for e in m.entries:
        own = ET.fromstring(junit_xml(e.report))
        cases = [(s, c) for s in own.findall("testsuite") for c in s.findall("testcase")]
        suite = ET.SubElement(root, "testsuite", name=e.name, tests=str(len(cases)),
                              failures=str(sum(c.find("failure") is not None for _, c in cases)),
                              errors=str(sum(c.find("error") is not None for _, c in cases)),
                              skipped=str(sum(c.find("skipped") is not None for _, c in cases)),
                              time=f"{e.seconds:.3f}")
        first = own.find("testsuite/properties")
        if first is not None:
            suite.append(first)
        for _, case in cases:
            case.set("classname", f"{e.name}.{case.get('classname', '')}")
            suite.append(case)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


__all__ = ["Entry", "Matrix", "Row", "first_failure", "first_problem", "matrix_annotations", "matrix_document",
           "matrix_json", "matrix_junit", "matrix_markdown", "matrix_text"]
