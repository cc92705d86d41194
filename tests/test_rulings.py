"""Every ruling of every spec is judged: for each, an engine that reads the seed the other way
(tests/misreadings/) fails at least one check tagged with the ruling's ID."""

from __future__ import annotations

from pathlib import Path

import pytest

from refimpl.driver import ReferenceDriver
from refimpl.games import GAMES
from refimpl.replay import MISMATCH, replay_all
from refimpl.rules import RULING_ID, spec_rules
from refimpl.trace import find_traces, load_trace
from tests.misreadings import MISREADINGS

ROOT = Path(__file__).resolve().parent.parent


def _rulings() -> list[tuple[str, str]]:
    out = []
    for name, engine in sorted(GAMES.items()):
        rules = spec_rules((ROOT / engine.info.spec).read_text(encoding="utf-8"))
        out += [(name, r) for r in rules if RULING_ID.match(r)]
    return out


RULINGS = _rulings()
TRACES = {name: [load_trace(p) for p in find_traces([ROOT / "traces" / name])] for name in GAMES}


def test_every_ruling_has_a_misreading() -> None:
    """The list of rulings no check is known to judge: it must be empty."""
    unchecked = [r for _, r in RULINGS if r not in MISREADINGS]
    assert not unchecked, f"rulings without a misreading that some check fails: {unchecked}"


@pytest.mark.parametrize("game, ruling", [r for r in RULINGS if r[1] in MISREADINGS], ids=[r for _, r in RULINGS
                                                                                           if r in MISREADINGS])
def test_a_check_of_the_ruling_fails_its_misreading(game: str, ruling: str) -> None:
    tagged = [t for t in TRACES[game] if ruling in t.rules]
    assert tagged, f"no trace is tagged {ruling}"
    misread = ReferenceDriver({game: MISREADINGS[ruling]()}, name=f"misreading of {ruling}")
    results = list(replay_all(tagged, misread, oracle=ReferenceDriver()))
    assert any(r.status == MISMATCH for r in results), \
        f"no trace tagged {ruling} tells the misreading from the reference: {[t.name for t in tagged]}"


def test_the_reference_passes_every_tagged_trace() -> None:
    """The misreadings fail for their own sake: the same traces pass on the reference."""
    for game, traces in TRACES.items():
        results = list(replay_all(traces, ReferenceDriver(), oracle=ReferenceDriver()))
        assert all(r.status != MISMATCH for r in results), [r.trace.name for r in results if r.status == MISMATCH]
