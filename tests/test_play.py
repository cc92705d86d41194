"""``refimpl play GAME`` (issue 45): a game played by hand from a script of answers, recorded as a trace with every
expected state that ``refimpl replay`` accepts as it is; chance thrown by the kit and recorded as the outcome it
was; undo where the game allows it; a session cut short still leaves a valid trace; bad answers asked again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


def play(tmp: Path, answers: str, *args: str) -> tuple[subprocess.CompletedProcess[str], Path | None]:
    proc = subprocess.run([sys.executable, "-m", "refimpl", "play", *args], cwd=tmp, input=answers,
                          capture_output=True, text=True, timeout=120, check=False)
    written = sorted(tmp.glob("*.yaml"))
    return proc, (written[-1] if written else None)


def replays(trace: Path) -> bool:
    proc = subprocess.run([sys.executable, "-m", "refimpl", "replay", str(trace)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    return proc.returncode == 0 and "1 conform" in proc.stdout


def test_a_whole_lantern_quay_game_is_a_trace_replay_accepts(tmp_path: Path) -> None:
    proc, trace = play(tmp_path, "1\n" * 9, "lantern-quay", "--seed", "4")
    assert proc.returncode == 0, proc.stderr
    assert "game over: " in proc.stdout and trace is not None and trace.name == "play-lantern-quay-seed4.yaml"
    doc = yaml.safe_load(trace.read_text())
    assert len(doc["steps"]) == 12 and doc["steps"][0]["action"]["type"] == "roll"  # the kit threw the dice
    assert all("expect" in s and s["expect"]["game"] == "lantern-quay" for s in doc["steps"])
    assert replays(trace)


def test_ludo_against_cpu_seats_cut_short_by_the_end_of_the_input(tmp_path: Path) -> None:
    """The human seat against three easy CPUs: the kit throws (an explicit face in the trace), the CPUs move; the
    input ends after a few answers and the route so far is a valid trace."""
    proc, trace = play(tmp_path, "1\n" * 6, "ludo", "--seed", "9", "--others", "easy", "--out", "route.yaml")
    assert proc.returncode == 0, proc.stderr
    assert trace is not None and trace.name == "route.yaml"
    doc = yaml.safe_load(trace.read_text())
    rolls = [s["action"] for s in doc["steps"] if s["action"]["type"] == "roll"]
    assert rolls and all(1 <= r["face"] <= 6 for r in rolls)
    assert any(s["action"]["type"] == "cpu" or s["action"].get("piece") is not None for s in doc["steps"])
    assert replays(trace)


def test_undo_takes_the_last_choice_back_where_the_game_allows_it(tmp_path: Path) -> None:
    for name in "abc":
        (tmp_path / name).mkdir()
    play(tmp_path / "a", "1\n" * 9, "lantern-quay", "--seed", "4")
    again, trace = play(tmp_path / "b", "2\nu\n1\n" + "1\n" * 8, "lantern-quay", "--seed", "4")
    assert "taken back" in again.stdout and trace is not None
    same = yaml.safe_load((tmp_path / "a" / "play-lantern-quay-seed4.yaml").read_text())["steps"]
    assert yaml.safe_load(trace.read_text())["steps"] == same
    ludo, _ = play(tmp_path / "c", "1\nu\n", "ludo", "--seed", "1")
    assert "no undo here" in ludo.stdout  # LD-HELP-1


def test_a_bad_answer_is_asked_again_and_a_recording_is_never_replaced(tmp_path: Path) -> None:
    proc, _ = play(tmp_path, "x\n99\n1\n", "beacon-lines")
    assert proc.stdout.count("answer 1 to") == 2
    play(tmp_path, "1\n", "beacon-lines")
    assert sorted(p.name for p in tmp_path.glob("*.yaml")) == ["play-beacon-lines-seed0-2.yaml",
                                                              "play-beacon-lines-seed0.yaml"]


@pytest.mark.parametrize(("args", "said"), [(["ludo", "--as", "nobody"], "no seat 'nobody'"),
                                            (["ludo", "--others", "genius"], "unknown policy 'genius'"),
                                            (["chess"], "unknown game 'chess'"),
                                            (["ludo", "--ruleset", "v0"], "no ruleset 'v0'")])
def test_bad_input_is_exit_2(tmp_path: Path, args: list[str], said: str) -> None:
    proc, trace = play(tmp_path, "", *args)
    assert proc.returncode == 2 and said in proc.stderr and "Traceback" not in proc.stderr and trace is None
