"""What a builder acts on: transcripts that replay into a build with no kit, and the pytest plugin's
failures as short as verify's, items named by game, traces collected as items."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRONG = f"{sys.executable} {ROOT / 'tests/builds/wrong.py'} capture-bonus"


def test_a_transcript_replays_into_the_build_with_no_kit(tmp_path: Path) -> None:
    out = tmp_path / "tr"
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", WRONG, "--game", "ludo", "--quiet",
                           "--transcript", str(out), "--json", str(tmp_path / "v.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads((tmp_path / "v.json").read_text())
    failed = [c["name"] for c in doc["checks"] if c["status"] == "failed"]
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == len(failed) and "ludo__capture.jsonl" in files
    lines = [json.loads(line) for line in (out / "ludo__capture.jsonl").read_text().splitlines()]
    assert lines[0]["request"] == {"id": 0, "op": "hello", "protocol": 1}
    assert [e["request"]["id"] for e in lines[1:]] == sorted(e["request"]["id"] for e in lines[1:])
    assert all(e["response"]["id"] == e["request"]["id"] for e in lines)
    # the same requests piped into the build by hand get the same answers: the failure reproduces
    requests = "".join(json.dumps(e["request"]) + "\n" for e in lines)
    again = subprocess.run(WRONG.split(), input=requests, capture_output=True, text=True, timeout=60)
    answers = [json.loads(line) for line in again.stdout.splitlines()]
    assert answers[:len(lines)] == [e["response"] for e in lines]
    scenario = next(p for p in out.iterdir() if not p.name.startswith("ludo__"))
    first = json.loads(scenario.read_text().splitlines()[0])
    assert first["request"]["op"] == "hello"  # a scenario's transcript starts with the build's hello too


def _pytest(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_pytest_runs_features_and_traces_with_verify_s_short_messages() -> None:
    proc = _pytest("features", "traces", "-q", "--impl", WRONG, "-k", "ludo")
    assert proc.returncode == 1, proc.stdout[-3000:]
    out = proc.stdout
    assert "at traces/ludo/capture.yaml:22 step 2: move piece=0" in out
    assert 'turn   "cpu1"   | "human"  LD-CAP-2' in out
    assert "features/ludo.feature:136 step 'And it is cpu1's turn to throw'" in out
    assert "Traceback" not in out and "refimpl/replay.py" not in out and "stepkit.py" not in out
    assert out.splitlines()[-1].startswith("4 failed, 56 passed")  # the 3 traces and 1 scenario verify finds


def test_items_are_named_by_game_and_traces_are_items() -> None:
    proc = _pytest("features", "traces", "--collect-only", "-q", "-k", "ludo")
    ids = [line for line in proc.stdout.splitlines() if "::" in line]
    assert ids and all(i.startswith(("features/test_ludo.py::", "traces/ludo/")) for i in ids)
    assert "traces/ludo/capture.yaml::ludo/capture" in ids
    traces = [i for i in ids if i.startswith("traces/")]
    assert len(traces) == len(list((ROOT / "traces/ludo").glob("*.yaml")))
    proc = _pytest("traces", "--collect-only", "-q", "-m", "LD-CAP-2")  # a rule's ID selects traces too
    assert "traces/ludo/capture.yaml::ludo/capture" in proc.stdout


def test_the_full_traceback_is_there_when_asked_for() -> None:
    proc = _pytest("traces/ludo/capture.yaml", "-q", "--impl", WRONG, "--kit-traceback")
    assert proc.returncode == 1 and "TraceMismatch" in proc.stdout
