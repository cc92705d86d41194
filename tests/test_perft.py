"""Perft counts against the golden files, and ``verify --perft`` pointing at the first count that differs."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from refimpl.games import GAMES
from refimpl.harness.perft import golden_path, load_golden, perft

ROOT = Path(__file__).resolve().parent.parent
PY = shlex.quote(sys.executable)
GOLDEN = [(g, r) for g in sorted(GAMES) for r in GAMES[g].info.rulesets if golden_path(g, r).exists()]


def refimpl(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "refimpl", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, check=False)


def build(script: str, *args: str) -> str:
    return " ".join([PY, shlex.quote(str(ROOT / "tests" / "builds" / script)), *map(shlex.quote, args)])


def test_every_game_and_ruleset_has_golden_counts() -> None:
    assert sorted(GOLDEN) == sorted((g, r) for g in GAMES for r in GAMES[g].info.rulesets)


@pytest.mark.parametrize("game, ruleset", GOLDEN)
def test_the_reference_matches_its_golden_perft_counts(game: str, ruleset: str) -> None:
    golden = load_golden(game, ruleset)
    counts = perft(game, ruleset, golden["depth"])
    assert counts.json() == {"nodes": golden["nodes"], "results": golden["results"]}


def test_beacon_lines_counts_are_those_a_person_can_check() -> None:
    # 2 x 2 opening claims; every v0 game ends after round 3 (Beacon worth 1: nobody reaches 4 and leads
    # earlier), so all 938 three-round sequences are finished games.
    counts = perft("beacon-lines", "v0", 3)
    assert counts.nodes[:2] == (1, 4)
    assert sum(counts.totals().values()) == counts.nodes[3] == 938
    assert counts.results[:3] == ((), (), ())


def test_perft_command() -> None:
    proc = refimpl("perft", "lantern-quay", "--depth", "2", "--format", "json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["nodes"] == [1, 216, 1638]
    assert refimpl("perft", "chess").returncode == 2


def test_verify_perft_points_at_the_first_position_whose_count_differs() -> None:
    proc = refimpl("verify", "--impl", build("wrong.py", "crossroads-to-north-pass"), "--game", "beacon-lines",
                   "--no-scenarios", "--perft", "3")
    assert proc.returncode == 1
    assert "FAILED perft beacon-lines/perft-v1 to depth 3 [BL-LEGAL-1]" in proc.stdout
    rows = {line.split()[0]: line.split()[1:] for line in proc.stdout.splitlines() if line.startswith("  (")}
    assert rows["(perft)"] == ["-", "2", "-", "-", "-", "-"]  # both rulesets' walks fail: seen in the matrix
    assert rows["(traces)"][0] != "-"
    assert ('{"claims":{"blue":"north-pass","red":"beacon"},"type":"claim"}: expected 0 sequences, '
            'got 1 sequences (red 1 finished)') in proc.stdout


def test_perft_compares_the_finished_games_by_result_too() -> None:
    """A build whose wins are credited to the wrong faction lists the same actions everywhere: only the
    outcome counts tell it apart."""
    from refimpl.games import load_data
    from refimpl.games.base import evolve
    from refimpl.games.beacon_lines import BeaconLines
    from refimpl.harness.driver import ReferenceDriver
    from refimpl.harness.perft import check_build

    class WinnerSwapped(BeaconLines):
        def _finish_round(self, state):  # type: ignore[no-untyped-def]
            after = super()._finish_round(state)
            swapped = {"red": "blue", "blue": "red"}.get(after.result or "", after.result)
            return evolve(after, result=swapped)

    found = check_build(ReferenceDriver({"beacon-lines": WinnerSwapped(load_data("beacon-lines"))}),
                        "beacon-lines", "v1", 2)
    assert found is not None and found.expected.nodes == found.actual.nodes
    assert "expected 1 sequences (blue 1 finished), got 1 sequences (red 1 finished)" in str(found)
    assert check_build(ReferenceDriver(), "beacon-lines", "v1", 3) is None
