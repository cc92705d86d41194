"""The misreading catalogue (issue 28): for every rule and every ruling of every spec, at least one engine that
reads the seed or the spec the way a builder plausibly might (tests/misreadings/), and some check tagged with
that rule (a trace or a scenario) fails it. A catalogue key is the rule ID, or ``ID#name`` for a further
misreading of the same rule.

The whole catalogue through the real protocol, with verify and default fuzz, is ``make misreadings``
(tests/misreadings/meter.py); here a fixed sample goes through verify.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from refimpl.games import GAMES
from refimpl.harness.driver import ReferenceDriver
from refimpl.harness.replay import replay_all
from refimpl.harness.tracefile import find_traces, load_trace
from refimpl.rulebook.rules import spec_rules
from refimpl.scenarios import bundled, run_scenario
from refimpl.status import Status
from tests.misreadings import MISREADINGS, game_of, rule_of

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = 12  # misreadings served through the protocol and judged by verify in make test


def _rules() -> list[tuple[str, str]]:
    out = []
    for name, engine in sorted(GAMES.items()):
        out += [(name, r) for r in spec_rules((ROOT / engine.info.spec).read_text(encoding="utf-8"))]
    return out


RULES = _rules()


@cache
def traces(game: str) -> list:  # type: ignore[type-arg]
    return [load_trace(p) for p in find_traces([ROOT / "traces" / game])]


@cache
def scenarios(game: str) -> list:  # type: ignore[type-arg]
    return [s for s in bundled() if s.game == game and not s.kit_only]


def test_every_rule_and_ruling_has_a_misreading() -> None:
    """The list of rules no realistic misreading judges: it must be empty."""
    covered = {rule_of(key) for key in MISREADINGS}
    missing = [r for _, r in RULES if r not in covered]
    assert not missing, f"{len(missing)} rules without a misreading: {missing}"


def test_every_misreading_names_a_rule_of_its_game_and_says_what_it_reads() -> None:
    known = dict((r, g) for g, r in RULES)
    for key, factory in MISREADINGS.items():
        assert rule_of(key) in known, f"{key}: no such rule"
        assert known[rule_of(key)] == game_of(key), key
        assert (factory.__doc__ or "").strip(), f"{key}: say in the docstring how the builder reads it"


def fails_a_tagged_check(key: str) -> list[str]:
    """The checks tagged with the misread rule that fail against the misreading (in this process)."""
    game, rule = game_of(key), rule_of(key)
    misread = ReferenceDriver({game: MISREADINGS[key]()}, name=f"misreading {key}")
    tagged = [t for t in traces(game) if rule in t.rules or any(rule in s.rules for s in t.steps)]
    failed = [r.trace.name for r in replay_all(tagged, misread, oracle=ReferenceDriver())
              if r.status == Status.MISMATCH]
    for scenario in scenarios(game):
        if rule in scenario.rules and run_scenario(scenario, ReferenceDriver({game: MISREADINGS[key]()})).status \
                in (Status.FAILED, Status.BROKE):
            failed.append(scenario.check_name)
    return failed


# Entries no trace or scenario reaches, kept to measure the exploration (each says so: ``explored_only``).
EXPLORED_ONLY = sorted(k for k, f in MISREADINGS.items() if getattr(f, "explored_only", False))


@pytest.mark.parametrize("key", sorted(set(MISREADINGS) - set(EXPLORED_ONLY)))
def test_a_check_tagged_with_the_rule_fails_its_misreading(key: str) -> None:
    assert fails_a_tagged_check(key), f"no trace or scenario tagged {rule_of(key)} tells {key} from the reference"


@pytest.mark.parametrize("key", EXPLORED_ONLY)
def test_a_misreading_kept_for_the_exploration_passes_every_tagged_check(key: str) -> None:
    """When a trace comes to catch it, it no longer measures the exploration: take ``explored_only`` off it."""
    assert not fails_a_tagged_check(key)


def test_the_reference_passes_every_trace() -> None:
    """The misreadings fail for their own sake: the same traces pass on the reference."""
    for game in GAMES:
        results = list(replay_all(traces(game), ReferenceDriver(), oracle=ReferenceDriver()))
        mismatched = [r.trace.name for r in results if r.status == Status.MISMATCH]
        assert not mismatched, mismatched


@pytest.mark.parametrize("key", sorted(random.Random(28).sample(sorted(MISREADINGS), min(SAMPLE, len(MISREADINGS)))))
def test_verify_fails_a_sample_of_the_catalogue_through_the_protocol(key: str) -> None:
    """Served as an outside build (tests/builds/misread.py), the misreading fails verify, and the matrix
    shows a failure under the rule it misreads (never only passes)."""
    game = game_of(key)
    build = f"{sys.executable} {ROOT / 'tests/builds/misread.py'} {key}"
    proc = subprocess.run([sys.executable, "-m", "refimpl", "verify", "--impl", build, "--game", game, "--quiet",
                           "--format", "json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    doc = json.loads(proc.stdout)
    (rows,) = [m["rules"] for m in doc["matrix"] if m["game"] == game]
    row = next(r for r in rows if r["rule"] == rule_of(key))
    assert row["failed"] >= 1, f"{key}: the matrix credits no failure to {rule_of(key)}: {row}"


LONG = sorted(k for k, f in MISREADINGS.items() if getattr(f, "shortest_reproducer", 0))


@pytest.mark.parametrize("key", LONG)
@settings(max_examples=60, deadline=None)
@given(choices=st.lists(st.integers(0, 10**6), min_size=40, max_size=40))
def test_a_misreading_said_to_need_a_long_reproducer_agrees_with_the_reference_until_then(
        key: str, choices: list[int]) -> None:
    """The meter allows a misreading a reproducer longer than 10 steps only where its game cannot show it
    sooner: played side by side with the reference, random legal games agree for one step less than it claims
    (and the claim is not idle: the meter's fuzz finds it at that length)."""
    game = game_of(key)
    reference, misread = GAMES[game], MISREADINGS[key]()
    shortest = MISREADINGS[key].shortest_reproducer
    ours, theirs = reference.new_state(None, None, {}), misread.new_state(None, None, {})
    for step in range(shortest - 1):
        legal = reference.legal_actions(ours)
        if not legal:
            break
        action = legal[choices[step] % len(legal)]
        ours = reference.apply(ours, action)
        theirs = misread.apply(theirs, misread.parse_action(reference.action_json(action)))
        assert misread.view(theirs) == reference.view(ours), f"{key} differs after {step + 1} steps"


def test_a_hidden_ambush_misread_as_hidden_when_placed_takes_its_square_in_the_list_too() -> None:
    """CK-AMB-2#HiddenWhenPlaced reads the ambush as hidden from its placement, its square still taken: its
    legal list (made from the runs of free squares) and its placements agree on that square (``_taken``, the one
    place a misreading says which squares are taken)."""
    misread = MISREADINGS["CK-AMB-2"]()
    state = misread.new_state(None, None, {})
    ambush = next(a for a in misread.legal_actions(state) if misread.action_json(a).get("ambush")
                  and misread.action_json(a)["at"] == [2, 1])
    state = misread.apply(state, ambush)
    assert any(u.hidden for u in state.units)
    listed = [misread.action_json(a) for a in misread.legal_actions(state)]
    assert listed and not [a for a in listed if a["type"] == "deploy" and a["at"] == [2, 1]]
