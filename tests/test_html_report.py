"""The HTML report (verify --html) and refimpl show: one self-contained page, its matrix equal to the
report's counts, a failure's pictures drawn; then the same page in a real headless Chromium (skipped, with
the reason, where no browser is installed; .ci/run installs one)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from refimpl import html_report
from refimpl.html_report import is_view
from refimpl.driver import ReferenceDriver
from refimpl.replay import replay_all
from refimpl.report import Report, verify_json
from refimpl.trace import load_traces
from refimpl.verify import _trace_check
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
        report.checks += [_trace_check(r.trace, r) for r in replay_all(mine, build, oracle=ReferenceDriver())]
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
            if key in a:
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

def _chromium() -> str | None:
    found = os.environ.get("REFIMPL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser") \
        or shutil.which("google-chrome")
    return found


def _browser_or_skip() -> tuple[Any, str]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the browser tests need Playwright: pip install -e '.[browser]' (.ci/run does)")
    chromium = _chromium()
    if chromium is None:
        pytest.skip("no Chromium installed (apt-get install chromium; .ci/run does); set REFIMPL_CHROMIUM to use another")
    return sync_playwright, chromium


FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def test_the_page_in_a_headless_browser(report: Report, page: Path) -> None:
    sync_playwright, chromium = _browser_or_skip()
    doc = json.loads(verify_json(report))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        try:
            tab = browser.new_page(viewport={"width": 1400, "height": 1000})
            errors: list[str] = []
            fetched: list[str] = []
            tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            tab.on("pageerror", lambda e: errors.append(str(e)))
            tab.on("request", lambda r: fetched.append(r.url))
            tab.goto(page.as_uri())
            tab.wait_for_load_state("load")
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
        finally:
            browser.close()


def test_a_refusal_due_draws_the_unchanged_position_as_expected() -> None:
    """second-claim accepts a claim BL-TURN-4 rejects: 'expected after' is the position before, and what
    the build changed is outlined on both pictures."""
    game, factory, _ = VARIANTS["second-claim"]
    build = ReferenceDriver({game: factory()}, name="second-claim")
    report = Report("second-claim")
    mine = [t for t in TRACES if t.game == game]
    report.checks += [_trace_check(r.trace, r) for r in replay_all(mine, build, oracle=ReferenceDriver())]
    moved_on = [c for c in report.checks if c.failure is not None and is_view(c.failure.actual_view)
                and not is_view(c.failure.expected_view)]
    assert moved_on
    html = html_report.render(Report("second-claim", checks=moved_on[:1]))
    expected = html[html.index('data-picture="expected after"'):html.index('data-picture="actual after"')]
    assert 'class="marked"' in expected
