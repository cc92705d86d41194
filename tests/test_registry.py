"""Every registered game has the full set: metadata, spec, features, traces."""

from pathlib import Path

import pytest

from refimpl.games import GAMES
from refimpl.rulebook.rules import RULE_ID, spec_rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", sorted(GAMES))
def test_registered_game_has_spec_features_and_traces(name: str) -> None:
    info = GAMES[name].info
    assert info.name == name
    assert info.default_ruleset in info.rulesets
    assert (ROOT / info.spec).is_file(), f"{name} has no spec at {info.spec}"
    assert (ROOT / info.feature).is_file(), f"{name} has no feature file at {info.feature}"
    traces = list((ROOT / info.traces).glob("*.yaml"))
    assert traces, f"{name} has no traces in {info.traces}"
    assert (ROOT.parent / "shared" / "seeds" / info.source).exists() or not (ROOT.parent / "shared").exists()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_rule_ids_carry_the_game_prefix_and_a_citation(name: str) -> None:
    info = GAMES[name].info
    rules = spec_rules((ROOT / info.spec).read_text(encoding="utf-8"))
    assert len(rules) >= 10
    for rule_id, text in rules.items():
        assert RULE_ID.match(rule_id) and rule_id.startswith(info.rule_prefix + "-"), rule_id
        assert "*(" in text, f"{rule_id} cites no seed passage or ruling"
