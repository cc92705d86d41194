"""The features and traces catch each wrong Beacon Lines build the seed names (000 §5), served from the misreading
catalogue by the names tests/builds/wrong.py gives them."""

import subprocess
import sys
from pathlib import Path

import pytest

from refimpl.harness.replay import replay
from refimpl.harness.tracefile import find_traces, load_trace
from refimpl.status import Status
from tests.builds import wrong

ROOT = Path(__file__).resolve().parent.parent
WRONG = {
    "crossroads_to_north_pass": {"BL-MAP-2", "BL-MAP-3"},
    "tied_beacon_scores": {"BL-SCORE-1", "BL-ROUTE-2", "BL-ROUTE-3"},
    "second_claim": {"BL-TURN-4"},
}


@pytest.mark.parametrize("factory", sorted(WRONG))
def test_traces_catch_the_wrong_build(factory: str) -> None:
    driver = getattr(wrong, factory)()
    results = [replay(load_trace(p), driver) for p in find_traces([ROOT / "traces/beacon-lines"])]
    failed = [r for r in results if r.status == Status.MISMATCH]
    assert failed, f"no trace caught {factory}"
    assert set().union(*(r.trace.rules for r in failed)) & WRONG[factory]


@pytest.mark.parametrize("factory", sorted(WRONG))
def test_features_catch_the_wrong_build(factory: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "features/beacon-lines.feature",
         "-q", "-p", "no:cacheprovider", "--driver", f"tests.builds.wrong:{factory}",
         "-m", " or ".join(sorted(WRONG[factory]))],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert " failed" in proc.stdout.splitlines()[-1]


def test_features_pass_on_the_reference_through_the_same_option() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider",
         "--driver", "refimpl.harness.driver:ReferenceDriver"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:]
