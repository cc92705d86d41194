"""What fuzz sends that random play never would (refimpl/campaigns/fuzz/inputs.py and positions.py): each input a
misreading in the catalogue needed, drawn often enough to be found in seconds."""

from __future__ import annotations

from refimpl.campaigns.fuzz.draw import Draw
from refimpl.campaigns.fuzz.inputs import UI_TYPES, bend_value, odd_action
from refimpl.games import GAMES, RuleViolation
from refimpl.games.ludo.kit.explore import ludo


def test_actions_a_games_screens_often_have_are_sent() -> None:
    """Leaving, giving up, taking back: types these rules do not have (LD-R12 'leaving is an action')."""
    sent = {a.get("type") for a in (odd_action(Draw(seed=i), {"type": "roll"}) for i in range(600))
            if isinstance(a, dict) and isinstance(a.get("type"), str)}
    assert set(UI_TYPES) <= sent


def test_a_number_is_sometimes_written_as_text() -> None:
    """A face sent as "5" (LQ-FORM-1: a build reading numbers however they are written)."""
    bent = [bend_value(Draw(seed=i), {"type": "place", "face": 5}) for i in range(600)]
    assert {"type": "place", "face": "5"} in bent


def test_ludo_set_ups_sometimes_have_a_seat_home_already_which_the_game_refuses() -> None:
    """Ruling LD-R11: a set-up with a seat already home is refused; the drawer makes one now and then, so a
    build taking it (and ending the game at once) is found."""
    engine = GAMES["ludo"]
    refused = 0
    for i in range(300):
        setup = ludo(Draw(seed=i), engine, "v1")
        if any(all(s == engine.board.goal for s in steps) for steps in setup["pieces"].values()):
            try:
                engine.new_state("v1", 0, setup)
            except RuleViolation:
                refused += 1
    assert refused >= 5


def test_one_value_is_sometimes_sent_wrapped_in_a_list_or_beside_another() -> None:
    """A claim's region as ["south-pass"] (a builder reading one-item lists as malformed: BL-FORM-1), or as two
    values where one is due."""
    claim = {"type": "claim", "claims": {"red": "north-pass", "blue": "south-pass"}}
    bent = [bend_value(Draw(seed=s), claim, [claim]) for s in range(400)]
    assert {"type": "claim", "claims": {"red": "north-pass", "blue": ["south-pass"]}} in bent \
        or {"type": "claim", "claims": {"red": ["north-pass"], "blue": "south-pass"}} in bent
    assert {"type": "claim", "claims": {"red": "north-pass", "blue": ["south-pass", "south-pass"]}} in bent \
        or {"type": "claim", "claims": {"red": ["north-pass", "north-pass"], "blue": "south-pass"}} in bent
