"""`refimpl verify` end to end, through real subprocesses: right builds pass, wrong builds fail naming
their rule, misbehaving builds get exit 3 with their cause and leave nothing running."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.builds.wrong import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
PY = shlex.quote(sys.executable)
REFERENCE = f"{PY} -m refimpl serve"


def verify(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "refimpl", "verify", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, check=False)


def build(script: str, *args: str) -> str:
    return " ".join([PY, shlex.quote(str(ROOT / "tests" / "builds" / script)), *map(shlex.quote, args)])


def test_reference_conforms_with_a_full_matrix(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    proc = verify("--impl", REFERENCE, "--format", "json", "--junit-xml", str(junit))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["summary"]["failed"] == doc["summary"]["broke"] == doc["summary"]["not_run"] == 0
    assert {c["kind"] for c in doc["checks"]} == {"trace", "scenario"}
    for game in doc["matrix"]:
        unexercised = [r["rule"] for r in game["rules"] if r["passed"] == 0]
        assert not unexercised, f"{game['game']}: {unexercised}"
    from junitparser import JUnitXml

    xml = JUnitXml.fromfile(str(junit))
    suites = list(xml)
    assert sum(s.tests for s in suites) == len(doc["checks"])
    assert sum(s.failures + s.errors for s in suites) == 0


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_independent_node_build_conforms() -> None:
    proc = verify("--impl", f"node {ROOT / 'examples/node-build/main.js'}")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    assert "Verdict: CONFORMS" in proc.stdout and "failed" not in proc.stdout.splitlines()[-1]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_wrong_build_fails_naming_its_rule(variant: str, tmp_path: Path) -> None:
    game, _, rule = VARIANTS[variant]
    junit = tmp_path / "junit.xml"
    proc = verify("--impl", build("wrong.py", variant), "--game", game, "--format", "json",
                  "--junit-xml", str(junit))
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr
    doc = json.loads(proc.stdout)
    failed = [c for c in doc["checks"] if c["status"] == "failed"]
    assert any(rule in c["rules"] for c in failed), [c["rules"] for c in failed]
    (row,) = [r for g in doc["matrix"] if g["game"] == game for r in g["rules"] if r["rule"] == rule]
    assert row["failed"] > 0
    from junitparser import JUnitXml

    assert sum(s.failures for s in JUnitXml.fromfile(str(junit))) == len(failed)


def test_the_text_report_names_step_field_and_rule() -> None:
    proc = verify("--impl", build("wrong.py", "tied-beacon-scores"), "--game", "beacon-lines")
    assert proc.returncode == 1
    out = proc.stdout
    assert "FAILED trace beacon-lines/failed-route-v1 [BL-ROUTE-3, BL-TURN-5, BL-SCORE-1, BL-WIN-2]" in out
    assert "failed-route-v1.yaml step 3 (line 21): scores.red: expected 2, got 4" in out
    assert "features/beacon-lines.feature step 'And the score is Red 2, Blue 2 (line 156)'" in out
    assert "Verdict: DOES NOT CONFORM" in out


MISBEHAVIOUR = [
    # mode, cause, words that must appear
    ("crash-at-start", "crashed-at-start", "fatal: could not load the game assets"),
    ("silent-at-start", "hung-at-start", "no answer to request 0 within 1 s"),
    ("wrong-protocol", "wrong-protocol", "speaks protocol 2"),
    ("crash-mid", "exited", "KeyError: 'beacon'"),
    ("exit-early", "exited", "exit status 0"),
    ("hang-mid", "hung", "no answer to request 7 within 1 s"),
    ("not-json", "not-json", "Segmentation fault"),
    ("partial-line", "partial-line", "output ended in the middle of a line"),
    ("flood-stdout", "line-too-long", "longer than 1048576 bytes"),
    ("wrong-id", "bad-response", "answered id 999 where 7 was due"),
    ("child-left-behind", "hung", "no answer to request 7"),
]


def _running(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.parametrize("mode, cause, words", MISBEHAVIOUR, ids=[m[0] for m in MISBEHAVIOUR])
def test_a_misbehaving_build_gets_exit_3_and_nothing_is_left_running(
        mode: str, cause: str, words: str, tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    proc = verify("--impl", build("misbehave.py", mode, "--pidfile", str(pidfile)), "--timeout", "1",
                  "-k", "safe-route-v0", "--no-scenarios", "--format", "json")
    assert proc.returncode == 3, proc.stdout[-3000:] + proc.stderr
    doc = json.loads(proc.stdout)
    text = json.dumps(doc)
    assert f"({cause})" in text or doc["broke_at_start"]["cause"] == cause
    assert words in text
    if doc["broke_at_start"] is None:
        (broken,) = [c for c in doc["checks"] if c["status"] == "broke"]
        assert "safe-route-v0.yaml step 3" in broken["detail"]
    assert "Traceback" not in proc.stderr
    pids = [int(p) for p in pidfile.read_text().split()]
    assert not [p for p in pids if _running(p)], "the build or its child is still running"


def test_a_build_that_floods_stderr_then_crashes_shows_the_tail() -> None:
    proc = verify("--impl", build("misbehave.py", "flood-stderr-then-crash"), "--timeout", "20",
                  "-k", "safe-route-v0", "--no-scenarios")
    assert proc.returncode == 3
    assert "build broke (exited)" in proc.stdout and "panic: out of lenses" in proc.stdout


def test_a_noisy_stderr_does_not_stall_a_correct_build() -> None:
    proc = verify("--impl", build("misbehave.py", "noisy-stderr", "--after", "1000"), "--no-scenarios")
    assert proc.returncode == 0, proc.stdout[-2000:]


def test_undeclared_games_are_not_run_never_passed() -> None:
    proc = verify("--impl", build("partial.py"), "--format", "json")
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-2000:]
    beacon = [c for c in doc["checks"] if c["game"] == "beacon-lines"]
    assert beacon and all(c["status"] == "not_run" for c in beacon)
    v0 = [c for c in doc["checks"] if c["kind"] == "trace" and c["ruleset"] == "v0"]
    assert v0 and all(c["status"] == "not_run" for c in v0)
    legal_scenarios = [c for c in doc["checks"] if "may claim exactly" in c["detail"]]
    assert all(c["status"] == "not_run" for c in legal_scenarios)
    assert doc["summary"]["passed"] > 0


def test_expected_failures_and_an_unexpected_pass(tmp_path: Path) -> None:
    known = tmp_path / "known.yaml"
    known.write_text("- rule: BL-SCORE-1\n  reason: scores tied Beacons (issue 12)\n"
                     "- trace: safe-route-v0\n- scenario: continues to round 3\n")
    proc = verify("--impl", build("wrong.py", "tied-beacon-scores"), "--game", "beacon-lines",
                  "--expect-fail", str(known), "--format", "json")
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0, [c for c in doc["checks"] if c["status"] == "failed"]
    assert doc["summary"]["xfail"] >= 3 and doc["summary"]["failed"] == 0
    stale = tmp_path / "stale.yaml"
    stale.write_text("- trace: beacon-lines/round-1\n  reason: fixed long ago\n")
    proc = verify("--impl", REFERENCE, "--no-scenarios", "--expect-fail", str(stale))
    assert proc.returncode == 1
    assert "XPASS (expected to fail, but passed) trace beacon-lines/round-1" in proc.stdout


@pytest.mark.parametrize("args, words", [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--traces", "no/such/folder"], "no such file or folder"),
    (["--expect-fail", "pyproject.toml"], "(the expect-fail file)"),
    (["--timeout", "0"], "Invalid value for '--timeout'"),
])
def test_bad_input_exits_2(args: list[str], words: str) -> None:
    proc = verify("--impl", REFERENCE, *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert words in proc.stderr and "Traceback" not in proc.stderr


def test_lock_step_and_pipelined_agree() -> None:
    bundled = len(list((ROOT / "traces").rglob("*.yaml")))
    for mode in ([], ["--lock-step"]):
        proc = verify("--impl", REFERENCE, "--no-scenarios", *mode)
        assert proc.returncode == 0 and f"Verdict: CONFORMS ({bundled} passed)" in proc.stdout


def test_features_run_under_plain_pytest_against_an_outside_build() -> None:
    proc = subprocess.run([sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider",
                           "--impl", REFERENCE], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert " passed" in proc.stdout.splitlines()[-1]


def test_selecting_a_ruleset_still_runs_scenarios_that_name_it() -> None:
    proc = verify("--impl", REFERENCE, "--ruleset", "v0", "--format", "json")
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0
    ran = [c for c in doc["checks"] if c["kind"] == "scenario" and c["status"] == "passed"]
    assert any("under v0" in c["name"] or "v0" in c["name"] or "Draft" in c["name"] or "draft" in c["name"]
               for c in ran), [c["name"] for c in ran]
    assert all(c["ruleset"] in (None, "v0") for c in doc["checks"] if c["kind"] == "trace")
