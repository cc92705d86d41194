"""Example tests of the engine surface shared by every game."""

import pytest

from refimpl.games import GAMES, BadSetup, IllegalAction, MalformedAction
from refimpl.games.beacon_lines import Claim
from refimpl.games.lantern_quay import Place, Roll


def test_unknown_ruleset_and_setup_are_typed_errors() -> None:
    for game in GAMES.values():
        with pytest.raises(BadSetup) as info:
            game.new_state("v9")
        assert info.value.code == "unknown-ruleset"
        with pytest.raises(BadSetup):
            game.new_state(None, None, {"board": "big"})


def test_default_rulesets_are_v1() -> None:
    assert GAMES["beacon-lines"].new_state().ruleset == "v1"
    assert GAMES["lantern-quay"].new_state().ruleset == "v1"


def test_illegal_action_raises_and_the_old_state_is_untouched() -> None:
    bl = GAMES["beacon-lines"]
    start = bl.new_state()
    before = bl.view(start)
    with pytest.raises(IllegalAction) as info:
        bl.apply(start, Claim.of(red="beacon", blue="south-pass"))
    assert info.value.code == "illegal-target" and "Beacon" in info.value.message
    assert bl.view(start) == before


@pytest.mark.parametrize("data, code", [
    ({"type": "claim"}, "malformed-action"),
    ({"type": "move", "claims": {}}, "unknown-action"),
    ({"type": "move"}, "unknown-action"),
    ({"type": "claim", "claims": {"red": "north-pass"}, "extra": 1}, "malformed-action"),
    ({"type": "claim", "claims": {"red": []}}, "malformed-action"),
    ({"type": "claim", "claims": {"red": None}}, "malformed-action"),
    ({"type": "claim", "claims": {"red": 3}}, "malformed-action"),
    ("claim", "malformed-action"),
])
def test_beacon_malformed_actions(data, code) -> None:
    with pytest.raises(MalformedAction) as info:
        GAMES["beacon-lines"].parse_action(data)
    assert info.value.code == code


@pytest.mark.parametrize("data, code", [
    ({"type": "roll"}, "malformed-action"),
    ({"type": "roll", "dice": [1, "2", 3]}, "malformed-action"),
    ({"type": "place", "slot": "forge", "face": 1.5}, "malformed-action"),
    ({"type": "reroll", "dice": []}, "unknown-action"),
    ([], "malformed-action"),
])
def test_lantern_malformed_actions(data, code) -> None:
    with pytest.raises(MalformedAction) as info:
        GAMES["lantern-quay"].parse_action(data)
    assert info.value.code == code


def test_actions_round_trip_through_json() -> None:
    for game, action in [("beacon-lines", Claim.of(red="north-pass", blue="south-pass")),
                         ("lantern-quay", Roll((2, 4, 6))), ("lantern-quay", Place("forge", 4))]:
        engine = GAMES[game]
        assert engine.parse_action(engine.action_json(action)) == action


def test_opening_legal_actions() -> None:
    bl = GAMES["beacon-lines"]
    joint = [bl.action_json(a)["claims"] for a in bl.legal_actions(bl.new_state())]
    assert joint == [{"red": r, "blue": b} for r in ("north-pass", "crossroads")
                     for b in ("crossroads", "south-pass")]
    lq = GAMES["lantern-quay"]
    start = lq.new_state()
    assert start.phase == "roll" and len(lq.legal_actions(start)) == 216
    rolled = lq.apply(start, Roll((3, 3, 5)))
    assert rolled.phase != "roll"
    assert len(lq.legal_actions(rolled)) == 6  # 3 slots x 2 distinct faces


def test_no_legal_actions_once_over() -> None:
    bl = GAMES["beacon-lines"]
    s = bl.new_state("v1")
    for red, blue in [("north-pass", "south-pass"), ("beacon", "depot")]:
        s = bl.apply(s, Claim.of(red=red, blue=blue))
    assert bl.outcome(s) == "red" and bl.legal_actions(s) == []


def test_from_view_rejects_inconsistent_views() -> None:
    bl = GAMES["beacon-lines"]
    view = bl.view(bl.new_state())
    view["scores"] = {"red": 5, "blue": 1}
    with pytest.raises(BadSetup):
        bl.from_view(view)
    with pytest.raises(BadSetup):
        GAMES["lantern-quay"].from_view({"ruleset": "v1"})
