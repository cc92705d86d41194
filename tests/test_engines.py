"""The engine contract of refimpl/games/base.py, checked on every game of the registry, and a few examples.

The contract, game by game (``GAMES``): starting is deterministic and refuses what it cannot start with a typed
error; malformed JSON is a MalformedAction with a stable code; and one random simulation per seed, in the manner of
OpenSpiel's api tests (testing::RandomSimTest): Hypothesis draws seeds, each seed plays a random game (a random
ruleset, random legal or seeded actions) and checks at every state what every engine owes the kit: a stable legal
list whose actions survive their JSON and apply; deterministic, pure ``apply``; illegal actions refused with a code
the game's spec documents and the state unchanged; views that are JSON, fit the published view schema (per observer
when information is hidden) and tell the outcome; a state rebuilt from its view (tests/engine_extras.py) where the
game can; ``setup_of`` giving a set-up that starts; seeded chance made explicit playing the same game. The whole
game is then replayed on a second engine built from the same data, view for view."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings, strategies as st

from refimpl.games import GAMES, BadSetup, Game, IllegalAction, MalformedAction, load_data
from refimpl.games.beacon_lines import Claim
from refimpl.games.lantern_quay import Place, Roll
from tests.engine_extras import from_view

ROOT = Path(__file__).resolve().parent.parent
NAMES = sorted(GAMES)
CODE = re.compile(r"^[a-z][a-z0-9-]*$")
# Bounds that keep one random game to a few hundred milliseconds: the steps of one game, and the legal actions
# applied at each state (all of them when there are fewer; Conquest King's deployment lists hold hundreds).
MAX_STEPS = 120
APPLIED_PER_STATE = 24
DEEP_EVERY = 10  # every tenth state also checks its views against the published schema (a few ms each) and
# each observer's legal list against the referee's
EXAMPLES = 8  # random games per game and test run


def fresh(name: str) -> Game[Any, Any]:
    """A second engine of game ``name``, built from its data as the registry builds it."""
    return type(GAMES[name])(load_data(name))


@cache
def view_schema(name: str) -> jsonschema.Draft202012Validator:
    """The published schema of the game's state view (refimpl/schemas/views)."""
    path = ROOT / "refimpl" / "schemas" / "views" / f"{name}.schema.json"
    return jsonschema.Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


@cache
def documented_codes(name: str) -> frozenset[str]:
    """Every code the game's spec writes as code (between backquotes): the codes a rejection may carry."""
    text = (ROOT / GAMES[name].info.spec).read_text(encoding="utf-8")
    return frozenset(re.findall(r"`([a-z][a-z0-9-]*)`", text))


def without_streams(engine: Game[Any, Any], view: dict[str, Any]) -> dict[str, Any]:
    """``view`` without the fields that count what the seeded streams gave (GameInfo.stream_fields)."""
    return {k: v for k, v in view.items() if k not in engine.info.stream_fields}


def as_json(value: Any) -> Any:
    """``value`` through JSON text and back, as a build receives it."""
    return json.loads(json.dumps(value, allow_nan=False))


# --- starting --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_new_state_is_deterministic(name: str) -> None:
    engine, other = GAMES[name], fresh(name)
    for ruleset in engine.info.rulesets:
        for seed in (0, 1, 7, 2 ** 40):
            first = engine.new_state(ruleset, seed)
            assert engine.new_state(ruleset, seed) == first
            assert other.view(other.new_state(ruleset, seed)) == engine.view(first)


@pytest.mark.parametrize("name", NAMES)
def test_the_default_ruleset_is_one_of_the_rulesets(name: str) -> None:
    info = GAMES[name].info
    assert info.default_ruleset in info.rulesets
    assert GAMES[name].new_state().ruleset == info.default_ruleset


@pytest.mark.parametrize("name", NAMES)
def test_unknown_ruleset_and_setup_are_typed_errors(name: str) -> None:
    engine = GAMES[name]
    with pytest.raises(BadSetup) as info:
        engine.new_state("v9")
    assert info.value.code == "unknown-ruleset"
    with pytest.raises(BadSetup) as info:
        engine.new_state(None, None, {"board": "big"})
    assert CODE.match(info.value.code)


@pytest.mark.parametrize("name", NAMES)
def test_explicit_setup_starts_the_game_the_seed_draws(name: str) -> None:
    """A start with what the seed would draw given explicitly (a map) is the seeded start, streams aside."""
    engine = GAMES[name]
    for ruleset in engine.info.rulesets:
        for seed in (0, 3, 99):
            setup = engine.explicit_setup(ruleset, seed, {})
            seeded, given_ = engine.new_state(ruleset, seed), engine.new_state(ruleset, seed, setup)
            assert without_streams(engine, engine.view(given_)) == without_streams(engine, engine.view(seeded))


# --- actions as JSON ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("data", [None, [], "move", 5, 1.5, {}, {"type": 5}, {"type": None}, {"kind": "x"}])
def test_what_is_no_action_is_malformed(name: str, data: Any) -> None:
    with pytest.raises(MalformedAction) as info:
        GAMES[name].parse_action(data)
    assert info.value.code in ("malformed-action", "unknown-action")


@pytest.mark.parametrize("name", NAMES)
def test_an_unknown_action_type_is_unknown_action(name: str) -> None:
    with pytest.raises(MalformedAction) as info:
        GAMES[name].parse_action({"type": "no-such-action"})
    assert info.value.code == "unknown-action"


@pytest.mark.parametrize("name", NAMES)
def test_a_record_counts_exactly_the_games_statistics(name: str) -> None:
    engine = GAMES[name]
    for result in (*engine.info.results, None):
        record = engine.record({}, result)
        assert set(record) == set(engine.info.statistics)
        assert all(type(n) is int and n >= 0 for n in record.values())


# --- one random game: the contract at every state ----------------------------------------------------

class Playout:
    """One random game of ``name`` played from ``seed``, checking the contract at every state it passes."""

    def __init__(self, name: str, seed: int) -> None:
        self.name, self.engine, self.rng = name, GAMES[name], random.Random(seed)
        self.info = self.engine.info
        self.ruleset = self.rng.choice(self.info.rulesets)
        self.seed = seed
        self.played: list[Any] = []  # the actions of the game, in order
        self.tried: list[Any] = []  # actions legal somewhere in the game: candidates for illegal ones
        self.rebuilds: bool | None = None  # whether from_view rebuilds this game's states

    def play(self) -> list[dict[str, Any]]:
        """Play to the end or MAX_STEPS, checking each state; the views of the states passed."""
        state = self.engine.new_state(self.ruleset, self.seed)
        views = [self.check(state, 0)]
        for step in range(1, MAX_STEPS + 1):
            legal = self.engine.legal_actions(state)
            choices = legal or self.engine.extra_actions(state)
            if not choices:
                break
            action = self.rng.choice(choices)
            after = self.engine.apply(state, action)
            assert self.engine.apply(state, action) == after, f"apply is not deterministic: {action!r}"
            description = self.engine.describe(views[-1], self.engine.view(after))
            assert description is None or isinstance(description, str)
            self.played.append(action)
            state = after
            views.append(self.check(state, step))
        return views

    def check(self, state: Any, step: int) -> dict[str, Any]:
        """Every check of the state after ``step`` actions; its view."""
        engine, info = self.engine, self.info
        deep = step % DEEP_EVERY == 0
        view = engine.view(state)
        assert as_json(view) == view, "the view is not plain JSON"
        if deep:
            view_schema(self.name).validate(view)
        outcome = engine.outcome(state)
        assert outcome is None or outcome in info.results, outcome
        assert engine.outcome_of_view(as_json(view)) == outcome
        legal = engine.legal_actions(state)
        assert engine.legal_actions(state) == legal, "the legal list is not stable"
        if outcome is not None:
            assert legal == [], "actions are legal in a finished game"
        else:
            assert legal or engine.extra_actions(state), "a game that goes on offers no action"
        if info.hidden_information:
            for observer in info.players:
                seen = engine.view(state, observer)
                assert as_json(seen) == seen
                if deep:
                    view_schema(self.name).validate(seen)
                    keys = {self.key(a) for a in legal}
                    assert all(self.key(a) in keys for a in engine.legal_actions(state, observer))
        self.check_rebuild(state, view, legal)
        self.check_setup(state)
        self.check_legal(state, legal)
        self.check_extra(state)
        self.check_illegal(state, legal, view)
        assert engine.view(state) == view, "applying actions changed the state they were applied to"
        return view

    def check_rebuild(self, state: Any, view: dict[str, Any], legal: list[Any]) -> None:
        """from_view rebuilds the state from its JSON view, or refuses every view with BadSetup."""
        try:
            rebuilt = from_view(self.engine, as_json(view))
        except BadSetup as refused:
            assert self.rebuilds is not True, f"from_view refused a view after rebuilding others: {refused}"
            self.rebuilds = False
            return
        assert self.rebuilds is not False
        self.rebuilds = True
        assert rebuilt == state
        assert self.engine.legal_actions(rebuilt) == legal

    def check_setup(self, state: Any) -> None:
        """setup_of gives None or a JSON set-up that starts a game whose set-up is the same."""
        setup = self.engine.setup_of(state)
        if setup is None:
            return
        assert as_json(setup) == setup
        started = self.engine.new_state(self.ruleset, self.seed, as_json(setup))
        assert self.engine.setup_of(started) == setup

    def check_legal(self, state: Any, legal: list[Any]) -> None:
        """Each legal action survives its JSON form and applies, and its explicit form (the seeded chance it
        draws given explicitly) plays the same, streams aside (a sample of long lists)."""
        sample = legal if len(legal) <= APPLIED_PER_STATE else self.rng.sample(legal, APPLIED_PER_STATE)
        for action in sample:
            self.check_action(state, action)
        self.tried += sample

    def check_extra(self, state: Any) -> None:
        """Each extra action (a seeded throw, a CPU's choice) likewise."""
        for action in self.engine.extra_actions(state):
            self.check_action(state, action)

    def check_action(self, state: Any, action: Any) -> None:
        """``action`` survives its JSON form, applies, and its explicit form plays the same, streams aside."""
        engine = self.engine
        assert engine.parse_action(as_json(engine.action_json(action))) == action
        played = engine.apply(state, action)
        explicit = engine.explicit(state, action)
        if explicit != action:
            seeded, given_ = engine.view(played), engine.view(engine.apply(state, explicit))
            assert without_streams(engine, given_) == without_streams(engine, seeded), action

    def check_illegal(self, state: Any, legal: list[Any], view: dict[str, Any]) -> None:
        """Actions legal elsewhere in the game and not here: refused with IllegalAction and a documented code,
        the same code each time, or (an action the rules accept without listing it) applied."""
        engine = self.engine
        recent = self.tried[-200:]
        here = (*legal, *engine.extra_actions(state))
        for action in self.rng.sample(recent, min(len(recent), 8)):
            if action in here:
                continue
            try:
                engine.apply(state, action)
            except IllegalAction as refused:
                assert refused.code in documented_codes(self.name), f"{refused.code} is not in {self.info.spec}"
                with pytest.raises(IllegalAction) as again:
                    engine.apply(state, action)
                assert again.value.code == refused.code
                assert engine.view(state) == view

    def key(self, action: Any) -> str:
        """``action`` as a hashable text: its JSON form, keys sorted."""
        return json.dumps(self.engine.action_json(action), sort_keys=True)

    def replay(self, views: list[dict[str, Any]]) -> None:
        """The game's actions on a second engine of the same data give the same views."""
        other = fresh(self.name)
        state = other.new_state(self.ruleset, self.seed)
        assert other.view(state) == views[0]
        for action, view in zip(self.played, views[1:]):
            state = other.apply(state, other.parse_action(as_json(other.action_json(action))))
            assert other.view(state) == view


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_games_keep_the_engine_contract(name: str, seed: int) -> None:
    game = Playout(name, seed)
    game.replay(game.play())


# --- examples ----------------------------------------------------------------------------------------

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
        from_view(bl, view)
    with pytest.raises(BadSetup):
        from_view(GAMES["lantern-quay"], {"ruleset": "v1"})


def test_from_view_rebuilds_the_games_whose_views_hold_their_whole_state() -> None:
    """Beacon Lines, Lantern Quay and Ludo rebuild a state from its view; Conquest King (hidden deployments, a
    seeded stream) and Black Fog (a seeded stream) refuse with ``bad-view`` and are replayed instead."""
    for name in NAMES:
        engine = GAMES[name]
        start = engine.new_state()
        if name in ("conquest-king", "black-fog"):
            with pytest.raises(BadSetup) as info:
                from_view(engine, engine.view(start))
            assert info.value.code == "bad-view"
        else:
            assert from_view(engine, as_json(engine.view(start))) == start
