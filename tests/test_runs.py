"""Run-to-run tools and what CI shows (issue 29): verify --list, --write-expect-fail, refimpl report and diff
with their exit codes, the step summary, workflow annotations, and JUnit cases with time, file and line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WRONG = f"{sys.executable} {ROOT / 'tests/builds/wrong.py'} capture-bonus"
FAST = ("--game", "ludo", "--no-scenarios", "--quiet")


def kit(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "refimpl", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A conforming run's JSON, a failing run's JSON and JUnit."""
    d = tmp_path_factory.mktemp("runs")
    good, bad, junit = d / "good.json", d / "bad.json", d / "bad.xml"
    assert kit("verify", *FAST, "--json", str(good)).returncode == 0
    assert kit("verify", "--impl", WRONG, *FAST, "--json", str(bad), "--junit-xml", str(junit)).returncode == 1
    return good, bad, junit


def test_list_prints_the_checks_with_their_rules_without_a_build() -> None:
    out = kit("verify", "--list", "--game", "ludo", "--impl", "no-such-build-is-started", "--format", "json")
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert {"trace", "scenario"} <= {c["kind"] for c in found}
    capture = next(c for c in found if c["name"] == "ludo/capture")
    assert "LD-CAP-2" in capture["rules"]


def test_write_expect_fail_records_the_failures_so_the_same_run_passes(tmp_path: Path) -> None:
    known = tmp_path / "known.yaml"
    first = kit("verify", "--impl", WRONG, *FAST, "--write-expect-fail", str(known))
    assert first.returncode == 1
    again = kit("verify", "--impl", WRONG, *FAST, "--expect-fail", str(known))
    assert again.returncode == 0, again.stdout[-2000:]
    assert "recorded by --write-expect-fail and not reviewed" in again.stdout


def test_report_renders_a_saved_run_again_with_its_own_exit_code(saved: tuple[Path, Path, Path]) -> None:
    good, bad, _ = saved
    text = kit("report", str(bad))
    assert text.returncode == 1 and "Verdict: DOES NOT CONFORM" in text.stdout and "LD-CAP-2" in text.stdout
    assert kit("report", str(good)).returncode == 0
    same = kit("report", str(bad), "--format", "json")
    assert json.loads(same.stdout)["checks"] == json.loads(bad.read_text())["checks"]
    html = kit("report", str(bad), "--format", "html")
    assert html.stdout.lstrip().lower().startswith("<!doctype html")
    md = kit("report", str(bad), "--format", "markdown")
    assert "### refimpl verify: does not conform" in md.stdout and "| ludo |" in md.stdout
    broken = ROOT / "pyproject.toml"
    assert kit("report", str(broken)).returncode == 2


def test_diff_names_regressions_and_fixes_and_exits_1_on_a_regression(saved: tuple[Path, Path, Path]) -> None:
    good, bad, _ = saved
    worse = kit("diff", str(good), str(bad))
    assert worse.returncode == 1 and "regressions: 3" in worse.stdout
    assert "trace ludo/capture: passed -> failed" in worse.stdout
    better = kit("diff", str(bad), str(good))
    assert better.returncode == 0 and "fixes: 3" in better.stdout
    assert kit("diff", str(good), str(good)).returncode == 0
    assert kit("diff", str(good), "no-such.json").returncode == 2


def test_under_github_actions_annotations_follow_and_the_summary_is_written(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("before\n")
    out = kit("verify", "--impl", WRONG, *FAST, env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    assert out.returncode == 1
    notes = [line for line in out.stdout.splitlines() if line.startswith("::error ")]
    assert len(notes) == 3 and "file=traces/ludo/capture.yaml,line=23" in notes[0]
    written = summary.read_text()
    assert written.startswith("before\n") and "### refimpl verify: does not conform" in written
    assert "LD-CAP-2" in written


def test_junit_cases_carry_time_file_and_line(saved: tuple[Path, Path, Path]) -> None:
    _, _, junit = saved
    cases = list(ET.parse(junit).getroot().iter("testcase"))
    assert cases and all(float(c.get("time", "-1")) >= 0 for c in cases)
    capture = next(c for c in cases if c.get("name") == "ludo/capture")
    assert capture.get("file") == "traces/ludo/capture.yaml" and capture.get("line") == "23"
    passing = next(c for c in cases if c.get("name") == "ludo/triple-six")
    assert passing.get("file") == "traces/ludo/triple-six.yaml"


def test_the_summary_names_what_the_annotation_limit_drops_and_rules_are_placed_in_the_kit() -> None:
    """GitHub annotates ten problems a step: the step summary shows the same ten first, in the same order, and
    names every other; a rule's place is a place in the kit that judged, not a path in the user's repository
    (issue 43)."""
    from refimpl import __version__
    from refimpl.reports.github import MAX_ERRORS, annotations
    from refimpl.reports.markdown import markdown
    from refimpl.reports.text import verify_text
    from refimpl.verify import VerifySettings, verify

    report = verify(f"{sys.executable} {ROOT / 'tests/builds/misread.py'} LD-R2",
                    VerifySettings(games=["ludo"], explore=0))
    bad = [c for c in report.checks if c.status == "failed"]
    assert len(bad) > MAX_ERRORS + 2
    summary = markdown(report)
    from urllib.parse import unquote  # an annotation's title has ':' and ',' %-escaped

    annotated = [unquote(line.split("title=")[1].split("::")[0]) for line in annotations(report).splitlines()
                 if line.startswith("::error")]
    assert len(annotated) == MAX_ERRORS
    detailed = [line for line in summary.splitlines() if line.startswith("- **failed**")]
    assert [d.split("`")[1] for d in detailed] == [a.split(" ", 2)[2].rsplit(" [", 1)[0] for a in annotated]
    assert all(f"`{c.name}`" in summary for c in bad), "every failing check is named in the summary"
    text = verify_text(report)
    assert f"(refimpl {__version__} specs/ludo.md:" in text


def test_junit_names_a_kit_file_in_the_kit_not_as_a_path_of_the_users(tmp_path: Path) -> None:
    """Run from the user's folder, a bundled trace is not there: its JUnit case has no file= (a viewer would link
    to nothing) but a kit_file property naming the kit that judged (issue 43)."""
    import xml.etree.ElementTree as ET

    from refimpl import __version__

    junit = tmp_path / "junit.xml"
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl",
                           f"{sys.executable} {ROOT / 'tests/builds/wrong.py'} capture-bonus", "--game", "ludo", "-k",
                           "capture", "--no-scenarios", "--no-explore", "--quiet", "--junit-xml", str(junit)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr[-2000:]
    (case,) = [c for c in ET.parse(junit).iter("testcase") if c.get("name") == "ludo/capture"]
    assert case.get("file") is None
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert props["kit_file"] == f"refimpl {__version__} traces/ludo/capture.yaml:23"


def test_an_annotation_of_a_bundled_check_goes_on_the_users_build(tmp_path: Path) -> None:
    """A bundled trace is not in the user's repository, so GitHub would drop an annotation naming it: it goes on
    the build command's own file instead (issue 43)."""
    adapter = tmp_path / "adapter" / "build.py"
    adapter.parent.mkdir()
    adapter.write_text(f"import runpy, sys\nsys.argv = ['wrong.py', 'capture-bonus']\n"
                       f"runpy.run_path({str(ROOT / 'tests/builds/wrong.py')!r}, run_name='__main__')\n")
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", f"{sys.executable} adapter/build.py",
                           "--game", "ludo", "-k", "capture", "--no-scenarios", "--no-explore", "--quiet", "--format",
                           "github"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    errors = [line for line in proc.stdout.splitlines() if line.startswith("::error")]
    assert proc.returncode == 1 and errors, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert all(line.startswith("::error file=adapter/build.py,title=") for line in errors), errors
