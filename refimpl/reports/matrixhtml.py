"""The many-builds matrix as one self-contained HTML page (``verify --builds FILE --html PAGE``, issue 47):
builds as columns, rules as rows, the rules most builds misread first with the share misreading each; a click
on a cell that failed or broke opens that build's first failure for the rule (its request, field table, rule
text and pictures: the single-build report's own section, ``_failure.html``). No script: a cell is a link to
its failure's section, which CSS shows while it is the page's target, so the page works from ``file://`` and
in a mail client alike. A failure shared by several cells of one build is drawn once."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..status import Status
from .htmlpage import FailureView, Rule, _environment, _failure, _rule, _screens, _summary
from .matrix import MARK, WORDS, Matrix, Row, first_failure
from .model import VERDICTS, Check


@dataclass
class Cell:
    word: str  # passed | failed | xfail | broke | not-run | -
    mark: str
    counts: str  # "3 failed, 1 passed", for the cell's title
    target: str | None  # the anchor of the failure it opens


@dataclass
class Detail:
    anchor: str
    build: str
    check: Check
    status: str
    summary: str
    rules: list[Rule]
    failure: FailureView | None
    later: int  # differences after the first, left to the build's own report


def render(m: Matrix) -> str:
    """The whole page (UTF-8 text)."""
    details: dict[tuple[str, int], Detail] = {}
    rows = [(r, _cells(m, r, details)) for r in m.rows()]
    code = m.exit_code
    verdict = VERDICTS.get(code, "interrupted")
    page = _environment().get_template("matrix.html").render(
        m=m, rows=rows, details=list(details.values()), verdict=verdict, verdict_words=verdict.replace("_", " "),
        builds=[(e, WORDS[e.report.exit_code], VERDICTS[e.report.exit_code],
                 ", ".join(f"{e.report.count(s)} {s}" for s in (Status.PASSED, Status.FAILED, Status.XFAIL,
                                                               Status.BROKE, Status.NOT_RUN) if e.report.count(s)))
                for e in m.entries],
        misread=sum(1 for r, _ in rows if r.misread), title=f"refimpl verify: {len(m.entries)} builds: {verdict}")
    return page if page.endswith("\n") else page + "\n"


def _cells(m: Matrix, row: Row, details: dict[tuple[str, int], Detail]) -> list[Cell]:
    out = []
    for col, e in enumerate(m.entries):  # anchors by column: two names may make the same anchor ("a.b", "a-b")
        word, counts = row.cells[e.name]
        target = None
        if word in ("failed", "xfail", "broke") and e.report.broke_at_start is None:
            check = first_failure(e.report, row.rule, row.game)
            if check is not None:
                target = _detail(col, e.name, e.report.checks.index(check), check, details).anchor
        elif word == "broke":
            target = f"build-{col}"
        said = ", ".join(f"{n} {k.replace('_', '-')}" for k, n in counts.items())
        shown = {"failed": counts.get("failed", 0) + counts.get("xpass", 0)}.get(word, counts.get(word, 0))
        out.append(Cell(word, f"{MARK[word]} {shown}" if shown else MARK[word],
                        f"{e.name}: {row.rule}: {said or word}", target))
    return out


def _detail(col: int, build: str, index: int, check: Check, details: dict[tuple[str, int], Detail]) -> Detail:
    key = (build, index)
    if key not in details:
        prefix = f"f-{col}-{index}"
        # the first difference alone: the later ones (each with its pictures) are in the build's own report
        first = replace(check.failure, later=()) if check.failure is not None else None
        failure = _failure(check, first, prefix) if first is not None else None
        if failure is not None:
            failure.screens = _screens(check)
        details[key] = Detail(prefix, build, check, str(check.status).replace("-", "_"), _summary(check),
                              [_rule(check.game, r, prefix) for r in check.credited], failure,
                              len(check.failure.later) if check.failure is not None else 0)
    return details[key]


__all__ = ["render"]
