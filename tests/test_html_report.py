"""The HTML report (verify --html) and refimpl show: one self-contained page, its matrix equal to the
report's counts, a failure's pictures drawn; a page that opens on the problem (every failure linked from the top,
failures before the matrix, a passing game folded), a build's hostile text escaped everywhere, coordinates on
every board and what a step moved drawn; then the same page in a real headless Chromium (skipped, with the
reason, where no browser is installed; .ci/run installs one): the first failure on the first screen, no text
under 13 px."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from refimpl.harness.driver import ReferenceDriver
from refimpl.harness.replay import replay_all
from refimpl.harness.tracefile import load_traces
from refimpl.reports import htmlpage as html_report
from refimpl.reports.htmlpage import is_view
from refimpl.reports.jsondoc import verify_json
from refimpl.reports.model import Report
from refimpl.status import Status
from refimpl.util.browser import FLAGS, BrowserMissing, chromium, playwright
from refimpl.verify.checks import trace_check
from tests.builds.wrong import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
TRACES = load_traces([ROOT / "traces"])
# one deliberately wrong build per game, so every game's board is drawn in a failure
WRONG = {game: name for name, (game, _, _) in reversed(list(VARIANTS.items()))}


def _report() -> Report:
    report = Report("several wrong builds", build="wrong builds 1.0")
    for game, variant in sorted(WRONG.items()):
        _, factory, _ = VARIANTS[variant]
        build = ReferenceDriver({game: factory()}, name=variant)
        mine = [t for t in TRACES if t.game == game]
        report.checks += [trace_check(r.trace, r) for r in replay_all(mine, build, oracle=ReferenceDriver())]
    return report


@pytest.fixture(scope="module")
def report() -> Report:
    return _report()


@pytest.fixture(scope="module")
def page(report: Report, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(html_report.render(report), encoding="utf-8")
    return path


class _Page(HTMLParser):
    """What the tests read off the page without a browser: matrix cells, resources, pictures."""

    def __init__(self) -> None:
        super().__init__()
        self.game = self.row = ""
        self.cells: dict[tuple[str, str, str], int] = {}
        self.status = ""
        self.external: list[str] = []
        self.tags: dict[str, int] = {}
        self.marked = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for key in ("src", "href", "srcset", "action"):
            if key in a and not (key == "href" and (a[key] or "").startswith("#")):  # a link within the page
                self.external.append(f"{tag} {key}={a[key]}")
        if tag == "table" and "data-game" in a:
            self.game = a["data-game"] or ""
        if tag == "tr":
            self.row = a.get("data-rule") or a.get("data-kind") or ("all" if a.get("class") == "total" else "")
        self.status = a.get("data-status") or "" if tag == "td" else ""
        if a.get("class") == "marked":
            self.marked += 1

    def handle_data(self, data: str) -> None:
        if self.status and data.strip():
            self.cells[(self.game, self.row, self.status)] = int(data)
            self.status = ""


def _parse(path: Path) -> _Page:
    parser = _Page()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_the_page_is_self_contained(page: Path) -> None:
    parsed = _parse(page)
    assert parsed.external == []  # no image, stylesheet, script or link to fetch
    assert "script" not in parsed.tags and "link" not in parsed.tags and "iframe" not in parsed.tags
    text = page.read_text(encoding="utf-8")
    assert "url(" not in text and "@import" not in text
    assert text.startswith("<!DOCTYPE html>")


def test_the_matrix_cells_are_the_report_s_counts(report: Report, page: Path) -> None:
    cells = _parse(page).cells
    doc = json.loads(verify_json(report))
    assert doc["verdict"] == "does_not_conform"
    for game in doc["matrix"]:
        for rule in game["rules"]:
            for status in ("passed", "failed", "not_run", "xfail", "xpass", "broke"):
                assert cells[(game["game"], rule["rule"], status)] == rule[status], (game["game"], rule["rule"])
        for status, n in game["all_checks"].items():
            assert cells[(game["game"], "all", status)] == n
    assert len(doc["matrix"]) == 5


def test_every_failure_is_drawn_before_and_after_with_what_differs_marked(report: Report, page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    failed = [c for c in report.checks if c.status == "failed"]
    assert {c.game for c in failed} == set(WRONG)
    assert text.count('<section class="problem failed"') == len(failed)
    both = [c for c in failed if is_view(c.failure.expected_view) and is_view(c.failure.actual_view)]
    assert len(both) >= len(failed) - 3  # the others differ in a legal list or a rejection code: no view to draw
    # a refusal due but the build moved on: the position before is the expected one
    moved_on = [c for c in failed if not is_view(c.failure.expected_view)
                and is_view(c.failure.before) and is_view(c.failure.actual_view)]
    assert text.count('data-picture="expected after"') == len(both) + len(moved_on)
    assert text.count('data-picture="actual after"') == sum(is_view(c.failure.actual_view) for c in failed)
    assert text.count('data-picture="before the step"') == sum(is_view(c.failure.before) for c in failed)
    assert _parse(page).marked >= 2 * len(both)  # each failure's differing field outlined on both sides
    assert "not drawn as a board" not in text  # every game's drawer read every view


def test_refimpl_show_draws_a_step_beside_a_build(tmp_path: Path) -> None:
    out = tmp_path / "show.html"
    wrong = f"{sys.executable} {ROOT / 'tests/builds/wrong.py'} capture-bonus"
    proc = subprocess.run([sys.executable, "-m", "refimpl", "show", "traces/ludo/capture.yaml", "--step", "2",
                           "--impl", wrong, "-o", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text(encoding="utf-8")
    assert "1 fields differ: turn" in text and text.count("<svg") == 3
    svg = tmp_path / "after.svg"
    proc = subprocess.run([sys.executable, "-m", "refimpl", "show", "traces/conquest-king/ambush.yaml",
                           "--observer", "gaias", "-o", str(svg)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert svg.read_text(encoding="utf-8").startswith("<svg")
    proc = subprocess.run([sys.executable, "-m", "refimpl", "show", "traces/conquest-king/ambush.yaml",
                           "--observer", "nobody"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "has no player 'nobody'" in proc.stderr


# --- in a real browser ---------------------------------------------------------------------------

def _browser_or_skip() -> tuple[Any, str]:
    """(sync_playwright, the Chromium to drive), as the kit finds them (refimpl/util/browser.py), or a skip with
    the kit's own words on what to install."""
    try:
        return playwright(), chromium()
    except BrowserMissing as exc:
        pytest.skip(f"{exc} (.ci/run installs both)")



@contextmanager
def opened(path: Path) -> Iterator[tuple[Any, list[str], list[str]]]:
    """(the tab, the errors it logged, the URLs it fetched) of the page at ``path`` in headless Chromium (skipped
    with a reason where there is none), loaded; the browser ends with the block."""
    sync_playwright, chromium = _browser_or_skip()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        try:
            tab = browser.new_page(viewport={"width": 1400, "height": 1000})
            errors: list[str] = []
            fetched: list[str] = []
            tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            tab.on("pageerror", lambda e: errors.append(str(e)))
            tab.on("request", lambda r: fetched.append(r.url))
            tab.goto(path.as_uri())
            tab.wait_for_load_state("load")
            yield tab, errors, fetched
        finally:
            browser.close()


def test_the_page_in_a_headless_browser(report: Report, page: Path) -> None:
    doc = json.loads(verify_json(report))
    with opened(page) as (tab, errors, fetched):
        assert errors == []
        assert fetched == [page.as_uri()]  # nothing but the page itself
        assert tab.inner_text("#verdict") == "does not conform"
        for game in doc["matrix"]:
            cells = tab.eval_on_selector_all(
                f'table.matrix[data-game="{game["game"]}"] tr.total td[data-status]',
                "cells => cells.map(c => [c.dataset.status, Number(c.textContent)])")
            assert dict(cells) == game["all_checks"]
            failed = tab.eval_on_selector_all(
                f'table.matrix[data-game="{game["game"]}"] tr[data-rule] td[data-status="failed"]',
                "cells => cells.reduce((n, c) => n + Number(c.textContent), 0)")
            assert failed == sum(r["failed"] for r in game["rules"])
        sizes = tab.eval_on_selector_all(
            "section.problem figure svg", "svgs => svgs.map(s => s.getBoundingClientRect().height)")
        failures = [c.failure for c in report.checks if c.status == "failed" and c.failure is not None]
        drawn = sum(is_view(v) for f in failures for v in (f.before, f.expected_view, f.actual_view)) + sum(
            not is_view(f.expected_view) and is_view(f.before) and is_view(f.actual_view) for f in failures)
        assert len(sizes) == drawn and all(h > 100 for h in sizes)  # every picture rendered with a size
        marked = tab.eval_on_selector_all(
            'figure[data-picture="actual after"] svg .marked',
            "els => els.filter(e => e.getBoundingClientRect().width > 0).length")
        assert marked >= sum(is_view(f.actual_view) for f in failures) - 3


def test_a_refusal_due_draws_the_unchanged_position_as_expected() -> None:
    """second-claim accepts a claim BL-TURN-4 rejects: 'expected after' is the position before, and what
    the build changed is outlined on both pictures."""
    game, factory, _ = VARIANTS["second-claim"]
    build = ReferenceDriver({game: factory()}, name="second-claim")
    report = Report("second-claim")
    mine = [t for t in TRACES if t.game == game]
    report.checks += [trace_check(r.trace, r) for r in replay_all(mine, build, oracle=ReferenceDriver())]
    moved_on = [c for c in report.checks if c.failure is not None and is_view(c.failure.actual_view)
                and not is_view(c.failure.expected_view)]
    assert moved_on
    html = html_report.render(Report("second-claim", checks=moved_on[:1]))
    expected = html[html.index('data-picture="expected after"'):html.index('data-picture="actual after"')]
    assert 'class="marked"' in expected


# --- a page that opens on the problem --------------------------------------------------------------------

class _Outline(HTMLParser):
    """The page's structure as the standard library reads it: where each id stands, the links of the list on
    top, the games' folds, every board's coordinate labels and moved marks, every tag and attribute, the text."""

    VOID = {"meta", "br", "img", "input", "link", "hr", "col", "wbr", "source", "area", "base", "embed", "track"}

    def __init__(self) -> None:
        super().__init__()
        self.order: list[str] = []  # ids and landmarks in document order
        self.ids: set[str] = set()
        self.nav_links: list[str] = []
        self.problems: list[str] = []  # section.problem ids
        self.folds: dict[str, bool] = {}  # game -> open
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str, str]] = []
        self.text: list[str] = []
        self.boards: list[dict[str, Any]] = []  # per <svg>: its figure, coordinate labels, moved marks
        self._stack: list[str] = []
        self._figure = ""
        self._game = ""
        self._coord = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.add(tag)
        self.attrs += [(tag, k, v) for k, v in a.items()]
        classes = a.get("class", "").split()
        if "id" in a:
            self.ids.add(a["id"])
            self.order.append(a["id"])
        if tag == "section" and "problem" in classes:
            self.problems.append(a["id"])
            self._game = a.get("data-game", "")
        if tag == "table" and "matrix" in classes:
            self.order.append("table.matrix")
        if tag == "a" and "nav" in self._stack:
            self.nav_links.append(a.get("href", ""))
        if tag == "details" and "game" in classes:
            self.folds[a["data-game"]] = "open" in a
        if tag == "figure":
            self._figure = a.get("data-picture", "")
        if tag == "svg":
            self.boards.append({"figure": self._figure, "game": self._game, "coords": [], "moved": 0})
        if self.boards and "svg" in self._stack + [tag]:
            self.boards[-1]["moved"] += "moved" in classes
            self._coord = "coord" in classes
        if tag not in self.VOID:
            self._stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._stack:
            while self._stack.pop() != tag:
                pass
        if tag == "figure":
            self._figure = ""

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._coord and self.boards:
            self.boards[-1]["coords"].append(data)
            self._coord = False


def _outline(html: str) -> _Outline:
    parsed = _Outline()
    parsed.feed(html)
    parsed.close()
    return parsed


def test_every_problem_is_linked_from_the_top_and_comes_before_the_matrix(report: Report, page: Path) -> None:
    parsed = _outline(page.read_text(encoding="utf-8"))
    failed = [c for c in report.checks if c.status == "failed"]
    assert len(parsed.problems) == len(failed) > 5
    assert [f"#{p}" for p in parsed.problems] == [link for link in parsed.nav_links if link.startswith("#problem-")]
    assert all(link[1:] in parsed.ids for link in parsed.nav_links)  # every link lands on its section
    order = parsed.order
    for landmark in ("verdict", "build", "kit", "counts"):
        assert order.index(landmark) < order.index("problems") < order.index(parsed.problems[0])
    assert order.index(parsed.problems[-1]) < order.index("table.matrix")
    assert all(parsed.folds.values())  # every game has a failure here: none folded


def test_a_passing_game_is_folded_and_a_failing_one_open() -> None:
    report = _report_of("capture-bonus")
    report.checks += [trace_check(r.trace, r) for r in
                      replay_all([t for t in TRACES if t.game == "lantern-quay"], ReferenceDriver(),
                                 oracle=ReferenceDriver())]
    assert {c.status for c in report.checks if c.game == "lantern-quay"} == {"passed"}
    parsed = _outline(html_report.render(report))
    assert parsed.folds == {"lantern-quay": False, "ludo": True}
    assert parsed.nav_links[:len(parsed.problems)] == [f"#{p}" for p in parsed.problems]


def _report_of(variant: str) -> Report:
    game, factory, _ = VARIANTS[variant]
    build = ReferenceDriver({game: factory()}, name=variant)
    report = Report(variant, build=variant)
    report.checks += [trace_check(r.trace, r) for r in
                      replay_all([t for t in TRACES if t.game == game], build, oracle=ReferenceDriver())]
    return report


def test_each_failure_quotes_its_rules_whole_and_lists_legal_differences_whole(report: Report, page: Path) -> None:
    from refimpl.games import GAMES
    from refimpl.rulebook.rules import spec_rules
    from refimpl.suite import spec_text

    text = " ".join("".join(_outline(page.read_text(encoding="utf-8")).text).split())
    for c in (c for c in report.checks if c.status == "failed"):
        rules = spec_rules(spec_text(GAMES[c.game].info.spec) or "")
        for field in c.failure.fields:
            words = rules[field.rule]
            plain = words.replace("`", "").replace("*", "")  # the page sets code, emphasis and citation apart
            assert " ".join(plain.split()) in text, (c.name, field.rule)
            legal = html_report.legal_of(field)
            if legal is not None:
                assert legal.extra and len(" ".join(legal.extra)) > 100  # what was cut to ~50 characters before
                assert f"extra in the build's list ({len(legal.extra)}; a duplicate is extra)" in text
                assert all(action in text for action in legal.missing + legal.extra)


HOSTILE = ['<script>alert("x")</script>', '"><img src=x onerror=alert(1)>', "</style><script>1</script>",
           "'><svg onload=alert(2)>", "{{ 7*7 }}{% if 1 %}", "</textarea></title><iframe src=//evil>", "\x1b[31m\x00"]


def _hostile_report() -> Report:
    from refimpl.reports.model import Check, Failure, FieldDiff

    h = " ".join(HOSTILE)
    view = {"game": "ludo", "ruleset": "v1", "seed": 1, "turn": h, "phase": h, "roll": h, "sixes": 0,
            "last_face": h, "throws": 1, "decisions": 0, "result": h, h: h,
            "pieces": {"human": [h, -1, 5, 57], "cpu1": [-1, -1, -1, -1], "cpu2": [-1, -1, -1, -1], h: [1]}}
    fields = (FieldDiff(f"turn{h}", h, {h: [h]}, "LD-CAP-2", (h,), False, (h,)),
              FieldDiff("legal", {"missing": [h]}, {"extra": [h, h]}, None))
    later = Failure(h, 3, 4, h, {"op": h}, {h: h}, fields, h, ({"step": 1, "line": 2, "action": h, "ok": False,
                                                                 "expected": [h], "actual": [h]},), view, view, view, h)
    failure = Failure(h, 1, 2, h, {"op": h}, {h: h}, fields, h, later.ledger, view, view, {**view, "turn": "x"}, h,
                      (later,))
    report = Report(f"./build {h}", build=f"build {h}", warnings=[h], stopped=h,
                    profiles=[{"name": h, "game": "ludo", "file": h, "changed": [{"field": h, "default": h,
                                                                                 "value": h}]}])
    for status in (Status.FAILED, Status.BROKE, Status.XPASS, Status.XFAIL, Status.NOT_RUN):
        report.checks.append(Check("trace", "ludo", f"{status} {h}", (h, "LD-CAP-2"), status, detail=h, stderr=h,
                                   reason=h, failure=failure if status in (Status.FAILED, Status.XFAIL) else None))
    report.checks.append(Check("trace", f"game {h}", h, (h,), Status.FAILED, detail=h, failure=failure))
    return report


def test_a_hostile_value_is_escaped_everywhere() -> None:
    html = html_report.render(_hostile_report())
    assert "<script" not in html.lower() and "<img" not in html.lower() and "<iframe" not in html.lower()
    assert "\x1b" not in html and "\x00" not in html
    parsed = _outline(html)
    assert not parsed.tags & {"script", "img", "iframe", "textarea", "object", "embed", "link", "base", "form"}
    assert not [(t, k) for t, k, v in parsed.attrs if k.startswith("on") or k == "src"]
    shown = "".join(parsed.text)
    for value in HOSTILE[:-1]:
        assert shown.count(value) > 10, value  # shown, as text, in the build's name, fields, views, lists...
    assert shown.count("\\x1b[31m\\x00") > 10  # a control character made visible, not sent to the reader
    assert "<title>refimpl verify: build &lt;script&gt;" in html


def test_every_board_has_coordinates_and_shows_what_the_step_moved(report: Report, page: Path) -> None:
    parsed = _outline(page.read_text(encoding="utf-8"))
    boards = [b for b in parsed.boards if b["figure"]]
    assert len(boards) > 40
    assert all(b["coords"] for b in boards)  # every board says what its squares, tiles, regions or slots are called
    ludo = next(i for i, c in enumerate(c for c in report.checks if c.status == "failed") if c.game == "ludo")
    capture = _outline(_section(page.read_text(encoding="utf-8"), f"problem-{ludo}"))
    pictures = {b["figure"]: b for b in capture.boards}
    assert {str(n) for n in range(52)} | {str(n) for n in range(51, 57)} <= set(pictures["actual after"]["coords"])
    # the piece that captured, and the two it sent home: where each stood, an arrow, a frame where it stands
    assert pictures["actual after"]["moved"] >= 9 and pictures["expected after"]["moved"] >= 9
    assert pictures["before the step"]["moved"] == 0
    for game, expected in (("conquest-king", {str(n) for n in range(16)}), ("black-fog", {"0,0", "-5,0", "5,-5"}),
                           ("beacon-lines", {"north-pass", "crossroads", "beacon", "red-home"}),
                           ("lantern-quay", {"dice[0]", "placed.salvage", "placed.forge", "placed.install"})):
        for b in (b for b in boards if b["game"] == game):
            assert expected <= set(b["coords"]) or game == "lantern-quay", (game, b["figure"])
        assert expected <= {t for b in boards if b["game"] == game for t in b["coords"]}, game


def _section(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    return html[start:html.index("</section>", start)]


def test_first_screen_of_a_failing_run_shows_the_first_failure(page: Path) -> None:
    sync_playwright, chromium = _browser_or_skip()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        try:
            tab = browser.new_page(viewport={"width": 1280, "height": 800})
            tab.goto(page.as_uri())
            tab.wait_for_load_state("load")
            assert tab.evaluate("window.scrollY") == 0
            first = tab.evaluate("""() => {
                const section = document.querySelector('section.problem');
                const box = e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; };
                return {section: box(section), heading: box(section.querySelector('h3')),
                        fields: box(section.querySelector('table.fields, pre')),
                        list: box(document.querySelector('#problems'))};
            }""")
            assert 0 < first["section"][0] < 800, first
            assert first["heading"][1] <= 800 and first["fields"][0] < 800, first  # its heading and what differs
            assert first["list"][0] < first["section"][0]
            small = tab.evaluate("""() => {
                const out = [];
                for (const e of document.body.querySelectorAll('*')) {
                    if (e.closest('svg') || e.closest('details:not([open])')) continue;
                    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
                    const size = parseFloat(getComputedStyle(e).fontSize);
                    if (own && e.getClientRects().length && size < 13) out.push([e.tagName, e.className, size]);
                }
                return out;
            }""")
            assert small == []  # captions, notes, tables, lists: no text under 13 px
        finally:
            browser.close()


def test_a_link_on_top_lands_on_its_failure(page: Path) -> None:
    sync_playwright, chromium = _browser_or_skip()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        try:
            tab = browser.new_page(viewport={"width": 1280, "height": 800})
            tab.goto(page.as_uri())
            tab.click('#problems a[href="#problem-7"]')
            top = tab.evaluate("document.getElementById('problem-7').getBoundingClientRect().top")
            assert 0 <= top < 40 and tab.evaluate("window.scrollY") > 1000
        finally:
            browser.close()
