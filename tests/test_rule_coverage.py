"""Each spec rule is exercised by at least one scenario or trace, and nothing cites a rule that does not exist."""

from pathlib import Path

import pytest

from refimpl.games import GAMES
from refimpl.harness.tracefile import find_traces, load_trace
from refimpl.rulebook.rules import feature_tags, spec_rules

ROOT = Path(__file__).resolve().parent.parent


def _coverage(name: str) -> tuple[dict[str, str], set[str], set[str]]:
    info = GAMES[name].info
    rules = spec_rules((ROOT / info.spec).read_text(encoding="utf-8"))
    tags = feature_tags(ROOT / info.feature)
    traced = {r for p in find_traces([ROOT / info.traces]) for t in [load_trace(p)]
              for r in (*t.rules, *(r for s in t.steps for r in s.rules))}
    return rules, tags, traced


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_rule_is_exercised(name: str) -> None:
    rules, tags, traced = _coverage(name)
    missing = [r for r in rules if r not in tags | traced]
    assert not missing, f"rules with no scenario or trace: {missing}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_scenario_or_trace_names_an_unknown_rule(name: str) -> None:
    rules, tags, traced = _coverage(name)
    assert sorted((tags | traced) - set(rules)) == []


def test_spec_rules_rejects_a_rule_stated_twice() -> None:
    with pytest.raises(ValueError, match="BL-X-1"):
        spec_rules("- **BL-X-1** one\n- **BL-X-1** two\n")
