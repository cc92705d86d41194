"""Rule IDs reach the engine's door: every rule and ruling of every game's spec is cited (named as a word in a
comment or a docstring) somewhere in refimpl/'s Python source, looked for first in the game's own engine
(refimpl/rulebook.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refimpl import rulebook, suite
from refimpl.games import GAMES
from refimpl.rules import spec_rules


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_of_the_spec_is_cited_in_the_code(game: str) -> None:
    spec = GAMES[game].info.spec
    rules = list(spec_rules(suite.spec_text(spec) or ""))
    assert rules, f"{spec} states no rule"
    home = rulebook.home_of(game)
    cited = rulebook.citations()
    at_home = {r for r in rules if any(c.file.startswith(home) for c in cited.get(r, ()))}
    elsewhere = {r: sorted({c.file for c in cited[r]}) for r in rules if r not in at_home and r in cited}
    missing = [r for r in rules if r not in at_home and r not in elsewhere]
    assert not missing, (f"{len(missing)} of the {len(rules)} rules and rulings of {spec} are cited nowhere: not in "
                         f"{home} (looked there first), nor elsewhere in refimpl/ (cited only elsewhere: "
                         f"{elsewhere or 'none'}). Cite each in the docstring of the code that implements it "
                         f"(\"Implements {missing[0]}.\") or in a comment at the line: {', '.join(missing)}")


def test_a_citation_is_a_comment_or_a_docstring_never_a_data_table() -> None:
    source = '''"""Module: implements BL-MAP-1."""
TABLE = {"control": ("BL-CTRL-2", "BL-CTRL-3")}  # the fields' rules: BL-VIEW-1
x = "BL-WIN-1"


def f() -> None:
    """Implements BL-TURN-2,
    BL-R14 and not BL-R1x or XBL-R2."""
    return None
'''
    assert rulebook.cited_in(source) == [("BL-MAP-1", 1), ("BL-VIEW-1", 2), ("BL-TURN-2", 7), ("BL-R14", 8)]


def test_removing_a_citation_leaves_the_rule_uncited() -> None:
    path = Path(rulebook.PACKAGE, "games", "beacon_lines.py")
    text = path.read_text(encoding="utf-8")
    assert "BL-LEGAL-1" in {rule for rule, _line in rulebook.cited_in(text)}
    assert "BL-LEGAL-1" not in {rule for rule, _line in rulebook.cited_in(re.sub(r"\bBL-LEGAL-1\b", "", text))}


def test_the_games_engine_is_where_citations_are_looked_for_first() -> None:
    assert rulebook.home_of("ludo") == "refimpl/games/ludo/"
    assert rulebook.home_of("beacon-lines") == "refimpl/games/beacon_lines.py"
    places = rulebook.cited_at("LD-STAT-1")
    homes = [c.file.startswith("refimpl/games/ludo/") for c in places]
    assert homes[0] and homes == sorted(homes, reverse=True), places
