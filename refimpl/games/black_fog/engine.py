"""Black Fog and the Apple Trees: the rules of specs/black-fog.md as a pure engine.

A round is the action phase (keepers take up to three main actions each, free actions any time, then
``end-actions``), the animal phase (each wild animal in turn: a die per step, or a walk toward feed),
and the fog phase (odd rounds: fog appears on three tiles of a ring, a chance action; even rounds: it
spreads). Map generation, dice and fog tiles are chance: given explicitly, or drawn from the game's
seeded stream (SplitMix64, as in specs/ludo.md). Every open number lives in data/black-fog.yaml.

This module holds the metadata, the engine's surface and the dispatch of actions; the rules live in
modules by topic, as functions of the engine and a state: ``model`` (the values and the action forms),
``start`` (set-ups and the drawn map), ``keepers`` (the action phase), ``animals`` (the animal phase),
``fog`` (the fog phase and the end of a round), ``views`` (the score and the view), ``hexes`` (the
geometry).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from ..base import JSON, BadSetup, Game, GameInfo, IllegalAction, MalformedAction, evolve
from . import animals, fog, hexes, keepers, start, views
from .model import CHECKS, FORMS, FREE_ACTIONS, MAIN_ACTIONS, OPTIONAL, Animal, Keeper, State

__all__ = ["INFO", "BlackFog", "State", "Keeper", "Animal", "MAIN_ACTIONS", "FREE_ACTIONS", "CHECKS"]

INFO = GameInfo(
    name="black-fog",
    title="Black Fog",
    source="002_10955d7b022d9327.txt",
    rule_prefix="BF",
    players=("k1", "k2", "k3", "k4"),
    rulesets=("v1",),
    default_ruleset="v1",
    results=("finished",),
    typical_length=150,
    field_rules={  # the rules that decide each view field (and rejections, refusals, legal lists)
        "game": ("BF-VIEW-1",),
        "ruleset": ("BF-VIEW-1",),
        "seed": ("BF-START-1", "BF-R6", "BF-VIEW-1"),
        "round": ("BF-ROUND-1", "BF-FOG-1", "BF-FOG-2", "BF-START-1"),
        "phase": ("BF-ROUND-1", "BF-R9", "BF-ANIMAL-6", "BF-FOG-2"),
        "pending": ("BF-ANIMAL-6", "BF-ANIMAL-3", "BF-ANIMAL-1", "BF-FOG-1", "BF-R1", "BF-R15"),
        "keepers": ("BF-MOVE-1", "BF-MAP-1", "BF-TAME-1", "BF-ACT-1", "BF-FOG-4", "BF-KEEP-1", "BF-ACT-2",
                    "BF-WHISTLE-1", "BF-R8"),
        "animals": ("BF-ANIMAL-1", "BF-ANIMAL-2", "BF-ANIMAL-3", "BF-ANIMAL-4", "BF-ANIMAL-5", "BF-ANIMAL-6",
                    "BF-WHISTLE-1", "BF-RELEASE-1", "BF-FOG-4", "BF-WHISTLE-2", "BF-WHISTLE-3", "BF-R2", "BF-R3",
                    "BF-R4", "BF-R5", "BF-R10", "BF-R15", "BF-R16"),
        "map": ("BF-FOG-1", "BF-FOG-2", "BF-FOG-3", "BF-MAP-4", "BF-MAP-2", "BF-MAP-3", "BF-FEED-1", "BF-COLLECT-1",
                "BF-ROUND-1", "BF-VIEW-1", "BF-R5", "BF-R6", "BF-R7", "BF-R12", "BF-R14", "BF-R17"),
        "score": ("BF-SCORE-1", "BF-R13", "BF-R8", "BF-RELEASE-1", "BF-R11"),
        "draws": ("BF-R6", "BF-MAP-4", "BF-FOG-1", "BF-ANIMAL-1"),
        "rejected": ("BF-FORM-1", "BF-FORM-2", "BF-ACT-1", "BF-MOVE-1", "BF-MAP-1", "BF-FOG-1", "BF-R9", "BF-R14",
                     "BF-R17"),
        "error": ("BF-START-1", "BF-MAP-4", "BF-R7"),
        "legal": ("BF-LEGAL-1", "BF-ACT-1", "BF-ACT-2", "BF-MOVE-1", "BF-MAP-1"),
    },
    stream_fields=("draws",),
    stream_rules=("BF-R6",),
)


class BlackFog(Game[State, dict]):
    """The Black Fog engine: the profile's numbers, the surface the kit uses, and the dispatch of actions to
    the rules' steps.

    Each step of the rules is a function of a module of this package, bound below as a method, and the steps
    call one another through the engine: so a variant engine (tests/misreadings) replaces
    one step by overriding its method, and every step that uses it follows."""

    info = INFO
    FORMS = FORMS
    OPTIONAL = OPTIONAL

    def __init__(self, data: Mapping[str, Any]) -> None:
        """The engine of the profile ``data`` (data/black-fog.yaml, or a variant of it: ruling BF-R11)."""
        self.data = data
        self.rings = int(data["rings"])
        # BF-MAP-1 (ruling BF-R1): the map is the rings 1 (the house) to ``rings`` (the outer ring)
        self.tiles = frozenset(h for n in range(1, self.rings + 1) for h in hexes.ring(n))
        self.size_of = dict(data["species"])
        # Views name tiles, all of them tiles of the map (set-ups and moves stay on it): named once here.
        self.names = {h: hexes.name(h) for h in self.tiles}
        score = data["score"]  # BF-SCORE-1, ruling BF-R11: the values a-h the profile chose
        self.saved_points = {"small": score["a"], "medium": score["b"], "large": score["c"]}
        self.size_bonus = tuple((frozenset(sp for sp, sz in data["species"].items() if sz == size), score[key])
                                for size, key in (("small", "d"), ("medium", "e"), ("large", "f")))

    # --- creating ----------------------------------------------------------------------------
    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        """A new game. ``setup`` may give ``map`` ({apple, water: [tiles]}), ``animals`` ([{species, at}]),
        ``keepers`` ({k1: tile}), ``fog``, ``feed`` (tiles) and ``round``; what it leaves out comes from
        the profile, and a map it leaves out is generated from the seed. Implements BF-START-1. Raises
        BadSetup for anything the spec's section "Start and set-up" refuses."""
        state = self._mapped(ruleset, seed, setup)
        if state.apple & state.fog or state.water & state.feed:  # a drawn map is checked like a given one
            raise BadSetup("bad-setup", "fog never covers a healthy apple tree, and no feed lies on water")
        return state

    setup_of = start.setup_of
    explicit_setup = start.explicit_setup
    drawn_map_problem = start.drawn_map_problem

    # --- actions -----------------------------------------------------------------------------
    def parse_action(self, data: JSON) -> dict:
        """The action ``data`` as the engine takes it (a copy), once its form is right. Implements BF-FORM-1:
        raises MalformedAction ``malformed-action`` for what is not a mapping with a string type, then
        ``unknown-action`` for an unknown type, then ``malformed-action`` for keys other than the action's own,
        one of its own missing or a key of the wrong form, in this order."""
        if type(data) is not dict or not isinstance(data.get("type"), str):
            raise MalformedAction("malformed-action", f"an action must be a mapping with a type, got {data!r}")
        kind = data["type"]
        if kind not in self.FORMS:
            raise MalformedAction("unknown-action", f"Black Fog actions are {', '.join(self.FORMS)}; got {kind!r}")
        keys = set(data) - {"type"}
        needed = self.FORMS[kind] - self.OPTIONAL.get(kind, set())
        if not needed <= keys or keys - self.FORMS[kind]:
            raise MalformedAction("malformed-action", f"a {kind} action has keys {sorted(self.FORMS[kind])}: {data!r}")
        for key, ok in CHECKS.items():
            if key in data and not ok(data[key]):
                raise MalformedAction("malformed-action", f"{kind}: {key} has the wrong form: {data[key]!r}")
        return dict(data)

    def action_json(self, action: dict) -> JSON:
        """The JSON form of ``action``: the mapping itself (a copy)."""
        return dict(action)

    def actions_json(self, actions: list[dict]) -> list[JSON]:
        """The list itself: ``legal_actions`` and ``extra_actions`` make each action afresh, as JSON."""
        return actions

    def pending(self, state: State) -> str | None:
        """What the game waits for: actions, roll (a die for the moving animal), feed (the players choose
        a feed token for it), fog (the tiles where fog appears), or None once over (BF-ROUND-1)."""
        if state.phase == "actions":
            return "actions"
        if state.phase == "animals":
            return "feed" if len(self._feed_options(state)) > 1 else "roll"
        if state.phase == "fog":
            return "fog"
        return None

    def legal_actions(self, state: State, observer: str | None = None) -> list[dict]:
        """The referee's list (BF-LEGAL-1): the six throws when a die is wanted, one choose-feed per option
        when a choice is, the seeded fog in an odd round's fog phase, the keepers' actions in the action phase
        (keepers.keeper_actions), nothing once over. ``observer`` is ignored: nothing is hidden."""
        need = self.pending(state)
        if need == "roll":
            return [{"type": "roll", "face": f} for f in range(1, 7)]
        if need == "feed":
            return [{"type": "choose-feed", "feed": hexes.name(f) if f else None} for f in self._feed_options(state)]
        if need == "fog":
            return [{"type": "fog"}]
        if need != "actions":
            return []
        return keepers.keeper_actions(self, state)

    def extra_actions(self, state: State) -> list[dict]:
        """The seeded throw (a die drawn from the game's stream)."""
        return [{"type": "roll"}] if self.pending(state) == "roll" else []

    def explicit(self, state: State, action: dict) -> dict:
        """A seeded throw with the face the stream gives next; a seeded fog with the tiles it draws (ruling
        BF-R6); any other action unchanged."""
        need = self.pending(state)
        if action["type"] == "roll" and action.get("face") is None and need == "roll":
            return {"type": "roll", "face": self._seeded_face(state)[1]}
        if action["type"] == "fog" and action.get("tiles") is None and need == "fog":
            eligible = self._fog_eligible(state)
            _, chosen = self._pick(state, eligible, self._fog_want(eligible))
            return {"type": "fog", "tiles": [hexes.name(t) for t in chosen]}
        return action

    def apply(self, state: State, action: dict) -> State:
        """The state after ``action``: a keeper's action (keepers), ``end-actions`` (the animal phase begins:
        BF-ROUND-1), a die or a feed choice (animals), fog (fog). Keepers act in any order (ruling BF-R9); a
        keeper's fourth main action is refused, free actions never are (BF-ACT-1, BF-ACT-2). Raises
        IllegalAction with the first code that applies in the order of BF-FORM-2: ``game-over``,
        ``wrong-phase``, ``no-keeper``, ``keeper-lost``, ``no-actions-left``, then the action's own."""
        kind = action["type"]
        if state.phase == "over":
            raise IllegalAction("game-over", "the game is over")
        if kind in MAIN_ACTIONS or kind in FREE_ACTIONS or kind == "end-actions":
            if state.phase != "actions":
                raise IllegalAction("wrong-phase", f"{kind} belongs to the action phase; now: {state.phase}")
            if kind == "end-actions":
                return self._run_animals(evolve(state, phase="animals", mover=0, steps_left=0))
            keeper = self._keeper(state, action["keeper"])
            if kind in MAIN_ACTIONS:
                if keeper.actions >= int(self.data["actions_per_keeper"]):
                    raise IllegalAction("no-actions-left", f"{keeper.id} has taken its "
                                        f"{self.data['actions_per_keeper']} actions this round")
                state = getattr(self, f"_{kind}")(state, keeper, action)
                # one of the three, whatever the action did (ruling BF-R18: a whistle that moved nothing too)
                return self._set_keeper(state, evolve(self._keeper(state, keeper.id), actions=keeper.actions + 1))
            return getattr(self, f"_{kind}")(state, keeper, action)  # BF-ACT-2: release and collect are free
        need = self.pending(state)
        if kind == "roll":
            if need != "roll":
                raise IllegalAction("wrong-phase", f"no die is wanted now (waiting for {need})")
            return self._roll(state, action.get("face"))
        if kind == "choose-feed":
            if need != "feed":
                raise IllegalAction("wrong-phase", f"no feed choice is wanted now (waiting for {need})")
            return self._choose_feed(state, action["feed"])
        if need != "fog":
            raise IllegalAction("wrong-phase", f"fog appears in the fog phase of odd rounds (waiting for {need})")
        return self._appear(state, action.get("tiles"))

    # --- the steps of the rules (see the class's docstring) --------------------------------------
    # the start (start.py)
    _mapped = start.mapped
    _setup_tile = start.setup_tile
    _setup_tiles = start.setup_tiles
    _tile = start.tile
    _pick = start.pick
    _generate = start.generate
    # the action phase (keepers.py); apply calls a keeper's action by its name: _whistle for whistle
    _keeper = keepers.find_keeper
    _set_keeper = keepers.set_keeper
    _set_animals = keepers.set_animals
    _cost = keepers.cost
    _load = keepers.load
    _can_move = keepers.can_move
    _whistle = keepers.whistle
    _tame = keepers.tame
    _move = keepers.move
    _feed = keepers.feed
    _release = keepers.release
    _collect = keepers.collect
    # the animal phase (animals.py)
    _step = animals.step
    _moving = animals.moving
    _feed_options = animals.feed_options
    _run_animals = animals.run_animals
    _walk = animals.walk
    _land = animals.land
    _advance = animals.advance
    _roll = animals.roll
    _choose_feed = animals.choose_feed
    _seeded_face = animals.seeded_face
    # the fog phase (fog.py)
    _fog_phase = fog.fog_phase
    _appear = fog.appear
    _fog_eligible = fog.fog_eligible
    _fog_want = fog.fog_want
    _spread = fog.spread
    _engulf = fog.engulf
    _next_round = fog.next_round

    # --- scoring and views (views.py) --------------------------------------------------------------
    score = views.score
    view = views.view
    _listed = functools.lru_cache(maxsize=64)(views.listed)

    def outcome(self, state: State) -> str | None:
        """``finished`` once the game is over (BF-ROUND-1: after round 8), else None."""
        return "finished" if state.phase == "over" else None

    def outcome_of_view(self, view: Mapping[str, JSON]) -> str | None:
        """``finished`` when the view's phase is ``over``, else None."""
        return "finished" if view.get("phase") == "over" else None

