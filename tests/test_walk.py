"""``refimpl show --all TRACE`` (issue 45): the whole game on one page: every step with its request, what moved and
every observer's picture; with a build, the fields where it differs at each step; in Chromium, the slider and
the arrow keys move through the steps, the picture changes, and the page fetches nothing from ``file://``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.test_html_report import opened

ROOT = Path(__file__).resolve().parent.parent
COMBATS = ROOT / "traces" / "conquest-king" / "worked-combats.yaml"
CAPTURE = ROOT / "traces" / "ludo" / "capture.yaml"


def _show(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "refimpl", "show", "--all", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)


def test_every_step_and_every_observer_is_on_the_page(tmp_path: Path) -> None:
    from refimpl.harness.tracefile import load_trace
    from refimpl.reports.walk import frames

    trace = load_trace(COMBATS)
    shown = frames(trace)
    assert [f.number for f in shown] == list(range(len(trace.steps) + 1))
    assert all([w for w, _ in f.pictures] == ["the full state", "sparkia's view", "gaias's view"] for f in shown)
    assert shown[2].answer == "accepted" and "gaias-2" in shown[2].moved + json.dumps(shown[2].request)
    out = tmp_path / "walk.html"
    done = _show(str(COMBATS), "-o", str(out))
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert len(re.findall(r'<section class="step"', page)) == len(trace.steps) + 1
    assert "<script src" not in page and "http" not in page.split("<script>")[1]


def test_a_build_that_differs_is_shown_field_by_field_from_the_first_step_it_parts(tmp_path: Path) -> None:
    """A build that gives a capture an extra throw (LD-CAP-2 misread): the page says where the views first differ,
    and that step's table names the turn."""
    from refimpl.harness.protocol import Build
    from refimpl.harness.tracefile import load_trace
    from refimpl.reports.walk import frames

    wrong = f"{sys.executable} {ROOT / 'tests' / 'builds' / 'wrong.py'} capture-bonus"
    build = Build(wrong).start()
    try:
        shown = frames(load_trace(CAPTURE), build)
    finally:
        build.close()
    first = next(f for f in shown if f.differences)
    assert any(path == "turn" for path, _, _ in first.differences)
    assert all(not f.differences for f in shown[:first.number])
    done = _show(str(CAPTURE), "--impl", wrong, "-o", str(tmp_path / "w.html"))
    assert done.returncode == 0 and f'data-goto="{first.number}"' in (tmp_path / "w.html").read_text()


def test_bad_combinations_are_exit_2() -> None:
    done = _show(str(COMBATS), "--step", "2")
    assert done.returncode == 2 and "--all shows every step" in done.stderr


def test_the_slider_and_the_keys_step_through_the_game_in_chromium(tmp_path: Path) -> None:
    out = tmp_path / "walk.html"
    assert _show(str(COMBATS), "-o", str(out)).returncode == 0
    with opened(out) as (tab, errors, fetched):
        def shown() -> list[str]:
            found: list[str] = tab.eval_on_selector_all("section.step", "s => s.filter(x => !x.hidden).map(x => x.id)")
            return found

        def picture() -> str:
            found: str = tab.inner_html("section.step:not([hidden]) figure")
            return found

        assert shown() == ["step-0"] and tab.inner_text("#where") == "step 0 of 4"
        start = picture()
        tab.keyboard.press("ArrowRight")
        tab.keyboard.press("ArrowRight")
        assert shown() == ["step-2"] and picture() != start
        tab.fill("#slider", "4")
        tab.dispatch_event("#slider", "input")
        assert shown() == ["step-4"] and tab.inner_text("#where") == "step 4 of 4"
        tab.keyboard.press("ArrowRight")  # past the end: stays at the last step
        assert shown() == ["step-4"]
        tab.click("#prev")
        assert shown() == ["step-3"]
        assert errors == [] and fetched == [out.as_uri()]
