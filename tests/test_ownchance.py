"""A build's own chance, judged (issue 27): a build with its own random source is asked for outcomes of its
own, each answer must be an outcome the rules allow, and the outcomes must be distributed as the rules say."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from refimpl.games.black_fog.kit.chance import BLACK_FOG_ROLLS
from refimpl.games.ludo.kit.chance import ROLLS
from refimpl.harness.ownchance import ALPHA, Tally, chi2_sf

ROOT = Path(__file__).resolve().parent.parent
OWN = f"{sys.executable} {ROOT / 'tests/builds/own_random.py'}"


@pytest.mark.parametrize("x, df, p", [(3.841459, 1, 0.05), (11.0705, 5, 0.05), (23.2093, 10, 0.01),
                                      (0.554300, 5, 0.99), (40.0, 5, 1.4933679e-7), (2.0, 2, 0.3678794)])
def test_chi2_survival_matches_the_tables(x: float, df: int, p: float) -> None:
    """Table values; for 5 df at 40, the closed form erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) (1 + x/3)."""
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-3)


def _detected(n: int, weights: list[float], sims: int, seed: int) -> float:
    rng = random.Random(seed)
    hits = 0
    for _ in range(sims):
        tally = Tally()
        for face in rng.choices(range(6), weights=weights, k=n):
            tally.add(6, face)
        found = tally.test()
        hits += found is not None and found[2] < ALPHA
    return hits / sims


def test_a_die_with_one_face_twice_as_likely_is_caught() -> None:
    assert _detected(ROLLS, [2, 1, 1, 1, 1, 1], 1000, 1) == 1.0
    assert _detected(BLACK_FOG_ROLLS, [2, 1, 1, 1, 1, 1], 1000, 2) >= 0.995


def test_a_fair_die_fails_about_as_often_as_the_test_says() -> None:
    """The p-values of a fair die are uniform: about 1% of runs fall below 0.01, and none below ALPHA."""
    rng = random.Random(3)
    low = tiny = 0
    for _ in range(3000):
        tally = Tally()
        for face in rng.choices(range(6), k=ROLLS):
            tally.add(6, face)
        p = tally.test()[2]  # type: ignore[index]
        low += p < 0.01
        tiny += p < ALPHA
    assert 10 <= low <= 60 and tiny == 0


def verify(mode: str, game: str) -> dict:  # type: ignore[type-arg]
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", f"{OWN} {mode}".strip(), "--game",
                           game, "--no-scenarios", "-k", "no trace is named so", "--quiet", "--format", "json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    doc = json.loads(proc.stdout)
    doc["exit"] = proc.returncode
    return doc


def chance(doc: dict) -> dict[str, dict]:  # type: ignore[type-arg]
    return {c["name"]: c for c in doc["checks"] if c["kind"] == "chance"}


@pytest.mark.parametrize("game, names", [
    ("ludo", {"ludo/own dice", "ludo/own CPU draws", "ludo/own tie splits", "ludo/own chance by the seed",
              "ludo/own dice apart from the CPUs"}),
    ("black-fog", {"black-fog/own maps", "black-fog/own dice", "black-fog/own fog",
                   "black-fog/own chance by the seed"}),
    ("conquest-king", {"conquest-king/own maps"}),
])
def test_a_fair_build_of_its_own_passes_every_judged_stream(game: str, names: set[str]) -> None:
    doc = verify("", game)
    found = chance(doc)
    assert set(found) == names and all(c["status"] == "passed" for c in found.values()), found
    assert doc["exit"] == 0


@pytest.mark.parametrize("mode, game, failing, rule, words", [
    ("--die 2,1,1,1,1,1", "ludo", "ludo/own dice", "LD-ROLL-1", "not distributed as the rules say"),
    ("--die 1,0,0,0,0,0", "black-fog", "black-fog/own dice", "BF-ANIMAL-1", "not distributed as the rules say"),
    ("--first-pick", "ludo", "ludo/own CPU draws", "LD-CPU-1", "not distributed as the rules say"),
    ("--fresh-ties", "ludo", "ludo/own tie splits", "LD-CPU-4", "the game's seed gives one number for every tie"),
    ("--trees-map", "black-fog", "black-fog/own maps", "BF-MAP-2", "breaks the rules of a drawn map"),
    ("--fog-anywhere", "black-fog", "black-fog/own fog", "BF-FOG-1", "which the rules do not allow"),
    ("--mountain-castle", "conquest-king", "conquest-king/own maps", "CK-R1", "cannot be a mountain"),
])
def test_a_build_whose_own_chance_is_wrong_fails(mode: str, game: str, failing: str, rule: str,
                                                 words: str) -> None:
    doc = verify(mode, game)
    check = chance(doc)[failing]
    assert check["status"] == "failed" and rule in check["rules"] and words in check["detail"], check
    assert doc["exit"] == 1


def test_a_build_that_crashes_on_a_throw_of_its_own_breaks() -> None:
    doc = verify("--crash-on-roll", "ludo")
    assert doc["exit"] == 3
    assert any(c["kind"] == "chance" and c["status"] == "broke" for c in doc["checks"])


def test_the_own_chance_judgement_ends_at_max_time() -> None:
    """A slow die (1,200 throws of 50 ms: a minute) is not judged past --max-time: the run ends near its limit,
    and the streams it did not finish are listed as not run (issue 43)."""
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", f"{OWN} --slow-die 0.05", "--game",
                           "ludo", "--no-scenarios", "--no-explore", "-k", "no trace is named so", "--max-time", "4",
                           "--quiet", "--format", "json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    took = time.monotonic() - started
    doc = json.loads(proc.stdout)
    assert took < 30, took
    own = chance(doc)
    assert own and all(c["status"] == "not_run" and "--max-time 4 s ran out" in c["detail"] for c in own.values()), own
