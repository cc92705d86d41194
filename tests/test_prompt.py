"""``refimpl prompt GAME`` (issue 46): a prompt for an AI game maker, made from the spec: every rule with its ID,
the sections that fix the data, and the in-page contract --page speaks to."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from refimpl import suite
from refimpl.cli import main
from refimpl.games import GAMES
from refimpl.rulebook.prompt import SECTIONS, prompt
from refimpl.rulebook.rules import spec_rules


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_prompt_carries_every_rule_the_data_sections_and_the_contract(game: str) -> None:
    text = prompt(game)
    spec = suite.spec_text(GAMES[game].info.spec) or ""
    for rule in spec_rules(spec):
        assert f"- **{rule}** " in text, rule
    for section in SECTIONS:
        assert f"## {section}\n" in text
    assert "exposeInPage(handler)" in text and f"name: '{game}'" in text
    assert ("observers:" in text) == GAMES[game].info.hidden_information


def test_an_unknown_game_is_bad_input() -> None:
    done = CliRunner().invoke(main, ["prompt", "chess"])
    assert done.exit_code == 2 and "unknown game 'chess'" in done.output
