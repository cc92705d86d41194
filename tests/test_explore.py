"""The exploration inside verify, scenarios judged by the reference, faults below the top level, and the credit of a
difference (issue 41). Each test here fails on the kit before that issue: a misreading no trace or scenario reaches
is found; a scenario whose build refuses its ``When`` step fails; a fault inside a nested mapping is sent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from refimpl.campaigns.fuzz import FuzzSettings, fuzz
from refimpl.campaigns.fuzz.draw import Draw
from refimpl.campaigns.fuzz.inputs import _paths, bend_value
from refimpl.harness.driver import ReferenceDriver, Rejected
from refimpl.harness.oracle import ByReference, Oracled
from refimpl.scenarios import bundled, run_scenario
from refimpl.status import Status
from refimpl.verify import VerifySettings, verify
from refimpl.verify.explore import SEED, every_target

ROOT = Path(__file__).resolve().parents[1]


def build(*args: str) -> str:
    return " ".join([sys.executable, str(ROOT / "tests" / "builds" / args[0]), *args[1:]])


def kit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "refimpl", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_a_v0_last_round_misreading_no_trace_reaches_is_found_by_the_exploration(tmp_path: Path) -> None:
    """Beacon Lines v0 with a level game after round 3 given to the Beacon's holder: every trace and scenario
    passes; the default exploration finds it, credits BL-WIN-2, and writes a reproducer that replays."""
    wrong = build("wrong.py", "v0-tie-goes-to-the-beacon")
    alone = kit("verify", "--impl", wrong, "--game", "beacon-lines", "--no-explore", "--quiet")
    assert alone.returncode == 0, alone.stdout[-2000:]
    proc = kit("verify", "--impl", wrong, "--game", "beacon-lines", "--explore", "40", "--quiet", "--format", "json",
               "--reproducers", str(tmp_path / "found"))
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    checks = {c["name"]: c for c in json.loads(proc.stdout)["checks"] if c["kind"] == "explore"}
    assert set(checks) == {"beacon-lines/explore v0", "beacon-lines/explore v1"}
    found = checks["beacon-lines/explore v0"]
    assert found["status"] == "failed" and checks["beacon-lines/explore v1"]["status"] == "passed"
    assert "BL-WIN-2" in found["credited_rules"], found
    written = tmp_path / "found" / "explore-beacon-lines-v0.yaml"
    assert written.read_text() == found["reproducer"]
    again = kit("verify", "--impl", wrong, "--traces", str(written), "--no-scenarios", "--no-explore", "--quiet")
    assert again.returncode == 1 and "FAILED trace beacon-lines/explore-beacon-lines-v0" in again.stdout


def test_the_exploration_is_the_same_on_every_run_and_any_jobs() -> None:
    """A fixed seed and a fixed number of cases: the same checks, details and verdict, whatever the machine's
    speed or the number of workers (the seconds each check took aside)."""
    wrong = build("wrong.py", "v0-tie-goes-to-the-beacon")
    settings = VerifySettings(games=["beacon-lines"], scenarios=False, explore=40)
    one = verify(wrong, settings)
    two = verify(wrong, VerifySettings(games=["beacon-lines"], scenarios=False, explore=40, jobs=2))

    def shown(report: object) -> list[tuple[str, str, str, tuple[str, ...]]]:
        return [(c.name, c.status, c.detail, c.credited) for c in report.checks  # type: ignore[attr-defined]
                if c.kind == "explore"]

    assert shown(one) == shown(two) and len(shown(one)) == 2
    assert one.exit_code == two.exit_code == 1
    assert f"(seed {SEED})" in shown(one)[0][2]


def test_a_broken_build_is_not_explored() -> None:
    """Its verdict is "broke" already: the exploration is reported not run, with the reason, and costs no time."""
    report = verify(build("misbehave.py", "crash-mid"), VerifySettings(games=["beacon-lines"], explore=40,
                                                                       scenarios=False))
    explored = [c for c in report.checks if c.kind == "explore"]
    assert all(c.status == Status.NOT_RUN and "broke earlier" in c.detail for c in explored)
    assert explored or any(w.startswith("the exploration was not run: the build broke") for w in report.warnings)


def test_the_targets_are_every_selected_game_and_ruleset() -> None:
    assert every_target(VerifySettings(games=["lantern-quay"])) == [("lantern-quay", "v0"), ("lantern-quay", "v1")]
    assert every_target(VerifySettings(games=["lantern-quay"], rulesets=["v0"])) == [("lantern-quay", "v0")]


# --- faults below the top level ----------------------------------------------------------------------

def test_a_fault_is_put_inside_nested_mappings_too() -> None:
    """bend_value adds keys to mappings at every depth and repeats list items in place, not only at the top."""
    setup = {"keepers": {"k1": "1,0"}, "map": {"apple": ["2,0", "3,0"], "water": []}, "round": 2}
    nested_key = repeated = False
    for seed in range(1500):
        bent = bend_value(Draw(seed=seed), setup)
        for path in _paths(bent):
            here = bent
            for part in path:
                here = here[part]
            if len(path) == 1 and isinstance(here, dict) and any(k.startswith("x") for k in here):
                nested_key = True
        if isinstance(bent.get("map"), dict) and bent["map"].get("apple") in (["2,0", "2,0", "3,0"],
                                                                              ["2,0", "3,0", "3,0"]):
            repeated = True
    assert nested_key and repeated


def test_fuzz_finds_a_build_that_ignores_a_key_inside_a_nested_mapping(tmp_path: Path) -> None:
    """A Black Fog build that ignores an unknown keeper in the set-up's ``keepers``: the kit before issue 41 sent
    unknown keys at the top of a set-up only, and searched 20 s without finding it."""
    report = fuzz(build("wrong.py", "lenient-keepers"), FuzzSettings("black-fog", examples=400, shrink_time=5),
                  tmp_path)
    assert report.finding is not None and report.divergence is not None
    assert report.divergence.difference.path in ("error", "start")


# --- scenarios judged by the reference ---------------------------------------------------------------

class RefusesFirstMove(ReferenceDriver):
    """The reference, but the first action of each game is refused (as a build with a wrong precondition)."""

    def __init__(self) -> None:
        super().__init__(name="refuses its first move")
        self.fresh = True

    def batch(self, ops):  # type: ignore[no-untyped-def, override]
        for op in ops:
            if op[0] == "start":
                self.fresh = True
            if op[0] == "apply" and self.fresh:
                self.fresh = False
                yield Rejected("game-over", "refused")
                continue
            yield from super().batch([op])


def test_a_scenario_whose_build_refuses_its_when_step_fails_under_the_reference() -> None:
    """Without the reference's answers some scenarios pass though their ``When`` action was refused (nothing
    they check depends on it); judged by the reference, every scenario that sends an action fails at it."""
    scenarios = [s for s in bundled() if s.game == "beacon-lines"]
    passed_unjudged = []
    for scenario in scenarios:
        plain = run_scenario(scenario, RefusesFirstMove())
        judged = run_scenario(scenario, Oracled(RefusesFirstMove()))
        if plain.status == Status.PASSED and any(s.kind == "when" for s in scenario.steps):
            passed_unjudged.append(scenario.name)
        if judged.status == Status.FAILED:
            assert isinstance(judged.error, ByReference) or plain.status == Status.FAILED
    assert passed_unjudged, "no scenario passes with its action refused: the test shows nothing"
    for scenario in scenarios:
        if scenario.name in passed_unjudged:
            outcome = run_scenario(scenario, Oracled(RefusesFirstMove()))
            assert outcome.status == Status.FAILED and isinstance(outcome.error, ByReference), scenario.name
            assert outcome.error.path == "rejected"


@pytest.mark.parametrize("game", ["ludo", "conquest-king"])
def test_the_reference_judged_by_itself_passes_every_scenario(game: str) -> None:
    for scenario in (s for s in bundled() if s.game == game):
        outcome = run_scenario(scenario, Oracled(ReferenceDriver()))
        assert outcome.status in (Status.PASSED, Status.NOT_RUN), (scenario.name, outcome.detail)
