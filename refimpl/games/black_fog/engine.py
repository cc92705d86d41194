"""Black Fog and the Apple Trees: the rules of specs/black-fog.md as a pure engine.

A round is the action phase (keepers take up to three main actions each, free actions any time, then
``end-actions``), the animal phase (each wild animal in turn: a die per step, or a walk toward feed),
and the fog phase (odd rounds: fog appears on three tiles of a ring, a chance action; even rounds: it
spreads). Map generation, dice and fog tiles are chance: given explicitly, or drawn from the game's
seeded stream (SplitMix64, as in specs/ludo.md). Every open number lives in data/black-fog.yaml.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .. import streams
from ..base import JSON, BadSetup, Game, GameInfo, IllegalAction, MalformedAction, evolve
from . import hexes
from .hexes import Hex

INFO = GameInfo(
    name="black-fog",
    title="Black Fog",
    source="002_10955d7b022d9327.txt",
    rule_prefix="BF",
    players=("k1", "k2", "k3", "k4"),
    rulesets=("v1",),
    default_ruleset="v1",
    simultaneous=False,
    chance=True,
    results=("finished",),
    typical_length=150,
    field_rules={  # the rules that decide each view field (and rejections, refusals, legal lists)
        "game": ("BF-VIEW-1",),
        "ruleset": ("BF-VIEW-1",),
        "seed": ("BF-START-1", "BF-R6", "BF-VIEW-1"),
        "round": ("BF-ROUND-1", "BF-FOG-1", "BF-FOG-2", "BF-START-1"),
        "phase": ("BF-ROUND-1", "BF-R9", "BF-ANIMAL-6", "BF-FOG-2"),
        "pending": ("BF-ANIMAL-6", "BF-ANIMAL-3", "BF-ANIMAL-1", "BF-FOG-1", "BF-R1", "BF-R15"),
        "keepers": ("BF-MOVE-1", "BF-TAME-1", "BF-ACT-1", "BF-FOG-4", "BF-KEEP-1", "BF-ACT-2", "BF-WHISTLE-1",
                    "BF-R8"),
        "animals": ("BF-ANIMAL-1", "BF-ANIMAL-2", "BF-ANIMAL-3", "BF-ANIMAL-4", "BF-ANIMAL-5", "BF-ANIMAL-6",
                    "BF-WHISTLE-1", "BF-RELEASE-1", "BF-FOG-4", "BF-WHISTLE-2", "BF-WHISTLE-3", "BF-R2", "BF-R3",
                    "BF-R4", "BF-R5", "BF-R10", "BF-R15", "BF-R16"),
        "map": ("BF-FOG-1", "BF-FOG-2", "BF-FOG-3", "BF-MAP-4", "BF-MAP-2", "BF-MAP-3", "BF-FEED-1", "BF-COLLECT-1",
                "BF-ROUND-1", "BF-VIEW-1", "BF-R5", "BF-R6", "BF-R7", "BF-R12", "BF-R14", "BF-R17"),
        "score": ("BF-SCORE-1", "BF-R13", "BF-R8", "BF-RELEASE-1", "BF-R11"),
        "draws": ("BF-R6", "BF-MAP-4", "BF-FOG-1", "BF-ANIMAL-1"),
        "rejected": ("BF-FORM-1", "BF-FORM-2", "BF-ACT-1", "BF-MOVE-1", "BF-FOG-1", "BF-R9", "BF-R14", "BF-R17"),
        "error": ("BF-START-1", "BF-MAP-4", "BF-R7"),
        "legal": ("BF-LEGAL-1", "BF-ACT-1", "BF-ACT-2", "BF-MOVE-1"),
    },
    stream_fields=("draws",),
    stream_rules=("BF-R6",),
)
MAIN_ACTIONS = ("whistle", "tame", "move", "feed")
FREE_ACTIONS = ("release", "collect")


@dataclass(frozen=True)
class Keeper:
    id: str
    at: Hex
    carrying: tuple[str, ...] = ()
    lost: bool = False
    actions: int = 0  # main actions taken this round


@dataclass(frozen=True)
class Animal:
    id: str
    species: str
    size: str
    at: Hex | None  # None while carried, saved or lost
    status: str = "wild"  # wild | carried | saved | lost


@dataclass(frozen=True)
class State:
    ruleset: str
    seed: int
    round: int
    phase: str  # actions | animals | fog | over
    keepers: tuple[Keeper, ...]
    animals: tuple[Animal, ...]
    apple: frozenset[Hex]
    withered: frozenset[Hex]
    water: frozenset[Hex]
    fog: frozenset[Hex]
    feed: frozenset[Hex]
    mover: int = 0  # animal phase: index of the animal moving
    steps_left: int = 0  # animal phase: steps still to take for that animal
    stream: int = 0  # the seeded chance stream's state
    draws: int = 0  # outputs taken from it


def _names(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


# The form of each key of an action, wherever it appears (rule BF-FORM-1), checked in this order.
CHECKS: dict[str, Callable[[object], bool]] = {
    "keeper": lambda v: isinstance(v, str), "to": lambda v: isinstance(v, str), "animals": _names,
    "tiles": _names, "face": lambda v: type(v) is int, "feed": lambda v: v is None or isinstance(v, str)}


class BlackFog(Game[State, dict]):
    info = INFO

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.rings = int(data["rings"])
        self.tiles = frozenset(h for n in range(1, self.rings + 1) for h in hexes.ring(n))
        self.size_of = dict(data["species"])
        # Views name tiles, all of them tiles of the map (set-ups and moves stay on it): named once here.
        self.names = {h: hexes.name(h) for h in self.tiles}
        score = data["score"]
        self.saved_points = {"small": score["a"], "medium": score["b"], "large": score["c"]}
        self.size_bonus = tuple((frozenset(sp for sp, sz in data["species"].items() if sz == size), score[key])
                                for size, key in (("small", "d"), ("medium", "e"), ("large", "f")))

    # --- creating ----------------------------------------------------------------------------
    def new_state(self, ruleset: str | None = None, seed: int | None = None,
                  setup: Mapping[str, JSON] | None = None) -> State:
        """A new game. ``setup`` may give ``map`` ({apple, water: [tiles]}), ``animals`` ([{species, at}]),
        ``keepers`` ({k1: tile}), ``fog``, ``feed`` (tiles) and ``round``; what it leaves out comes from
        the profile, and a map it leaves out is generated from the seed. Raises BadSetup for anything the
        spec's section "Start and set-up" refuses."""
        state = self._mapped(ruleset, seed, setup)
        if state.apple & state.fog or state.water & state.feed:
            raise BadSetup("bad-setup", "fog never covers a healthy apple tree, and no feed lies on water")
        return state

    def _mapped(self, ruleset: str | None, seed: int | None, setup: Mapping[str, JSON] | None) -> State:
        """The game ``setup`` gives, with its map given or drawn, before the map is checked against the
        set-up's fog and feed. Raises BadSetup for any other fault."""
        name = self._ruleset(ruleset)
        seed = 0 if seed is None else seed
        if type(seed) is not int:
            raise BadSetup("bad-setup", f"the seed must be an integer, got {seed!r}")
        setup = dict(setup or {})
        unknown = sorted(set(setup) - {"map", "animals", "keepers", "fog", "feed", "round"})
        if unknown:
            raise BadSetup("bad-setup", f"unknown set-up keys {unknown}")
        rows = setup.get("animals", self.data["animals"])
        if type(rows) is not list or not all(type(r) is dict and set(r) == {"species", "at"} for r in rows):
            raise BadSetup("bad-setup", "animals is a list of {species, at}")
        animals = []
        for i, row in enumerate(rows, 1):
            if type(row["species"]) is not str or row["species"] not in self.size_of:
                raise BadSetup("bad-setup", f"no species {row['species']!r} (species: {', '.join(self.size_of)})")
            animals.append(Animal(f"a{i}", row["species"], self.size_of[row["species"]], self._setup_tile(row["at"])))
        placed = setup.get("keepers", {})
        if type(placed) is not dict or set(placed) - set(self.data["keepers"]):
            raise BadSetup("bad-setup", f"keepers maps keepers ({', '.join(self.data['keepers'])}) to tiles")
        keepers = tuple(Keeper(k, self._setup_tile(placed.get(k, self.data["keeper_start"])))
                        for k in self.data["keepers"])
        fog, feed = self._setup_tiles(setup, "fog"), self._setup_tiles(setup, "feed")
        round_ = setup.get("round", 1)
        if type(round_) is not int or not 1 <= round_ <= int(self.data["rounds"]):
            raise BadSetup("bad-setup", f"round is a whole number from 1 to {self.data['rounds']}")
        if any(k.at in fog for k in keepers) or any(a.at in fog for a in animals) or feed & fog:
            raise BadSetup("bad-setup", "nobody stands on fog and no feed lies there: the fog takes what it covers")
        state = State(name, seed, round_, "actions", keepers, tuple(animals), frozenset(), frozenset(), frozenset(),
                      fog, feed, stream=seed & streams.MASK)
        if "map" not in setup:
            state = self._generate(state)
        else:
            given = setup["map"]
            if type(given) is not dict or set(given) - {"apple", "water"}:
                raise BadSetup("bad-setup", "map has apple and water, lists of tiles")
            apple, water = self._setup_tiles(given, "apple"), self._setup_tiles(given, "water")
            if apple & water or (0, 0) in apple | water:
                raise BadSetup("bad-setup", "a tile is not both apple tree and water, and the house is neither")
            state = evolve(state, apple=apple, water=water)
        return state

    def setup_of(self, state: State) -> dict[str, JSON] | None:
        """The set-up of ``state``'s map (healthy trees, water), wild animals, keepers, fog, feed and round
        (which the set-up begins in its action phase); animals carried, saved or lost and withered trees
        are left out. None once the game is over or a keeper is lost (a set-up cannot leave a keeper out)."""
        if state.phase == "over" or any(k.lost for k in state.keepers):
            return None
        names = lambda tiles: [hexes.name(t) for t in sorted(tiles)]  # noqa: E731
        return {"map": {"apple": names(state.apple), "water": names(state.water)},
                "animals": [{"species": a.species, "at": hexes.name(a.at)} for a in state.animals
                            if a.status == "wild" and a.at is not None],
                "keepers": {k.id: hexes.name(k.at) for k in state.keepers if not k.lost},
                "fog": names(state.fog), "feed": names(state.feed), "round": state.round}

    def _setup_tile(self, text: Any) -> Hex:
        """A tile of a set-up: ``"q,r"`` of the map. Raises BadSetup."""
        try:
            if type(text) is not str:
                raise ValueError
            return self._tile(text)
        except ValueError:
            raise BadSetup("bad-setup", f"{text!r} is not a tile of the map (tiles are \"q,r\")") from None

    def _setup_tiles(self, mapping: Mapping[str, Any], key: str) -> frozenset[Hex]:
        tiles = mapping.get(key, [])
        if type(tiles) is not list:
            raise BadSetup("bad-setup", f"{key} is a list of tiles")
        return frozenset(self._setup_tile(t) for t in tiles)

    def _tile(self, text: str) -> Hex:
        tile = hexes.parse(text)
        if tile not in self.tiles:
            raise ValueError(f"{text!r} is not a tile of the map")
        return tile

    def _pick(self, state: State, pool: list[Hex], k: int) -> tuple[State, list[Hex]]:
        """``k`` tiles drawn without replacement from ``pool`` (in ring order) with the seeded stream."""
        pool, chosen = list(pool), []
        stream, draws = state.stream, state.draws
        for _ in range(min(k, len(pool))):
            stream, i, used = streams.draw(stream, len(pool))
            draws += used
            chosen.append(pool.pop(i))
        return evolve(state, stream=stream, draws=draws), chosen

    def _generate(self, state: State) -> State:
        """Apple trees, then water, ring by ring from ring 2 outward (ruling BF-R6)."""
        d = self.data
        keep_dry = {a.at for a in state.animals} | {k.at for k in state.keepers}
        apple: set[Hex] = set()
        water: set[Hex] = set()
        for n in range(2, self.rings + 1):
            tiles = hexes.ring(n)
            if n < self.rings:
                state, trees = self._pick(state, tiles, int(d["apple_trees_per_ring"]))
                apple |= set(trees)
            pool = [t for t in tiles if t not in apple and t not in keep_dry]
            state, wet = self._pick(state, pool, len(tiles) // int(d["water_per_tiles"]))
            water |= set(wet)
        return evolve(state, apple=frozenset(apple), water=frozenset(water))

    def drawn_map_problem(self, state: State) -> str | None:
        """What is wrong with ``state``'s map as one drawn at the start (a set-up may give any map; a drawn one
        follows BF-MAP-2, BF-MAP-3, BF-MAP-4 and BF-R7), or None: 3 apple trees in every ring but the house
        and the outer ring, one water tile per six tiles in every ring but the house, no tile both, the house
        neither, no water on a tile where an animal or keeper starts."""
        d = self.data
        if state.apple & state.water or (0, 0) in state.apple | state.water:
            return "a tile is both apple tree and water, or the house is one"
        starts = {a.at for a in state.animals} | {k.at for k in state.keepers}
        if state.water & starts:
            return f"water on {', '.join(sorted(hexes.name(t) for t in state.water & starts))}, where a piece starts"
        for n in range(1, self.rings + 1):
            ring = set(hexes.ring(n))
            trees, wet = len(state.apple & ring), len(state.water & ring)
            want_trees = int(d["apple_trees_per_ring"]) if 1 < n < self.rings else 0
            want_water = len(ring) // int(d["water_per_tiles"]) if n > 1 else 0
            if trees != want_trees:
                return f"ring {n} has {trees} apple trees, not {want_trees} (BF-MAP-2)"
            if wet != want_water:
                return f"ring {n} has {wet} water tiles, not {want_water} (BF-MAP-3)"
        return None

    # --- actions -----------------------------------------------------------------------------
    FORMS = {"whistle": {"keeper"}, "tame": {"keeper", "animals"}, "move": {"keeper", "to"},
             "feed": {"keeper"}, "release": {"keeper", "animals"}, "collect": {"keeper"},
             "end-actions": set(), "roll": {"face"}, "choose-feed": {"feed"}, "fog": {"tiles"}}
    OPTIONAL = {"roll": {"face"}, "fog": {"tiles"}, "release": {"animals"}}

    def parse_action(self, data: JSON) -> dict:
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
        return dict(action)

    def is_chance(self, state: State) -> bool:
        return self.pending(state) in ("roll", "fog")

    def pending(self, state: State) -> str | None:
        """What the game waits for: actions, roll (a die for the moving animal), feed (the players choose
        a feed token for it), fog (the tiles where fog appears), or None once over."""
        if state.phase == "actions":
            return "actions"
        if state.phase == "animals":
            return "feed" if len(self._feed_options(state)) > 1 else "roll"
        if state.phase == "fog":
            return "fog"
        return None

    def legal_actions(self, state: State, observer: str | None = None) -> list[dict]:
        need = self.pending(state)
        if need == "roll":
            return [{"type": "roll", "face": f} for f in range(1, 7)]
        if need == "feed":
            return [{"type": "choose-feed", "feed": hexes.name(f) if f else None} for f in self._feed_options(state)]
        if need == "fog":
            return [{"type": "fog"}]
        if need != "actions":
            return []
        out: list[dict] = [{"type": "end-actions"}]
        for k in state.keepers:
            if k.lost:
                continue
            if k.actions < int(self.data["actions_per_keeper"]):
                out.append({"type": "whistle", "keeper": k.id})
                out += [{"type": "move", "keeper": k.id, "to": hexes.name(n)} for n in hexes.neighbours(k.at)
                        if self._can_move(state, k, n)]
                if k.at not in state.water and k.at not in state.feed:
                    out.append({"type": "feed", "keeper": k.id})
                here = [a for a in state.animals if a.status == "wild" and a.at == k.at]
                room = int(self.data["tame_capacity"]) - self._load(state, k)
                out += [{"type": "tame", "keeper": k.id, "animals": [a.id for a in group]} for group in _subsets(here)
                        if sum(self._cost(a) for a in group) <= room]
            if k.carrying and k.at not in state.water:
                carried = [a for a in state.animals if a.id in k.carrying]
                out += [{"type": "release", "keeper": k.id, "animals": [a.id for a in group]}
                        for group in _subsets(carried)]
            if k.at in state.feed:
                out.append({"type": "collect", "keeper": k.id})
        return out

    def extra_actions(self, state: State) -> list[dict]:
        """The seeded throw (a die drawn from the game's stream)."""
        return [{"type": "roll"}] if self.pending(state) == "roll" else []

    def explicit(self, state: State, action: dict) -> dict:
        """A seeded throw with the face the stream gives next; a seeded fog with the tiles it draws."""
        need = self.pending(state)
        if action["type"] == "roll" and action.get("face") is None and need == "roll":
            return {"type": "roll", "face": self._seeded_face(state)[1]}
        if action["type"] == "fog" and action.get("tiles") is None and need == "fog":
            eligible = self._fog_eligible(state)
            _, chosen = self._pick(state, eligible, self._fog_want(eligible))
            return {"type": "fog", "tiles": [hexes.name(t) for t in chosen]}
        return action

    def explicit_setup(self, ruleset: str | None, seed: int | None,
                       setup: Mapping[str, JSON]) -> Mapping[str, JSON]:
        """The set-up with the map the seed draws, when it gives none (ruling BF-R6); also when the drawn map
        then makes the set-up refused (feed on drawn water), so a build given the map refuses it too."""
        if "map" in setup:
            return setup
        try:
            state = self._mapped(ruleset, seed, setup)
        except BadSetup:
            return setup
        return {**setup, "map": {"apple": [hexes.name(t) for t in sorted(state.apple)],
                                 "water": [hexes.name(t) for t in sorted(state.water)]}}

    def apply(self, state: State, action: dict) -> State:
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
                return self._set_keeper(state, evolve(self._keeper(state, keeper.id), actions=keeper.actions + 1))
            return getattr(self, f"_{kind}")(state, keeper, action)
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

    # --- the action phase ----------------------------------------------------------------------
    def _keeper(self, state: State, kid: Any) -> Keeper:
        keeper = next((k for k in state.keepers if k.id == kid), None)
        if keeper is None:
            raise IllegalAction("no-keeper", f"keepers are {', '.join(k.id for k in state.keepers)}; got {kid!r}")
        if keeper.lost:
            raise IllegalAction("keeper-lost", f"{kid} was taken by the fog")
        return keeper

    def _set_keeper(self, state: State, keeper: Keeper) -> State:
        return evolve(state, keepers=tuple(keeper if k.id == keeper.id else k for k in state.keepers))

    def _set_animals(self, state: State, changed: Mapping[str, Animal]) -> State:
        return evolve(state, animals=tuple(changed.get(a.id, a) for a in state.animals))

    def _cost(self, animal: Animal) -> int:
        return int(self.data["sizes"][animal.size]["cost"])

    def _load(self, state: State, keeper: Keeper) -> int:
        return sum(self._cost(a) for a in state.animals if a.id in keeper.carrying)

    def _can_move(self, state: State, keeper: Keeper, to: Hex) -> bool:
        return (to in self.tiles and hexes.distance(keeper.at, to) == 1 and to not in state.fog
                and not (keeper.carrying and to in state.water))

    def _whistle(self, state: State, keeper: Keeper, action: dict) -> State:
        """Every wild animal within 2 tiles takes one step toward the keeper (ruling BF-R4 on water)."""
        changed = {}
        for a in state.animals:
            if a.status != "wild" or not 1 <= hexes.distance(a.at, keeper.at) <= int(self.data["whistle_range"]):
                continue
            step = hexes.toward(a.at, keeper.at)
            if step in state.water and step != keeper.at:
                continue  # water between the animal and the keeper: it stays
            if step == keeper.at and keeper.at in state.water:
                continue  # never onto a keeper standing on water
            changed[a.id] = self._step(state, a, step)
        return self._set_animals(state, changed)

    def _step(self, state: State, animal: Animal, to: Hex) -> Animal:
        """An animal's move onto ``to``; into fog it is lost."""
        if to in state.fog:
            return evolve(animal, at=None, status="lost")
        return evolve(animal, at=to)

    def _tame(self, state: State, keeper: Keeper, action: dict) -> State:
        ids = action["animals"]
        if not isinstance(ids, list) or not ids:
            raise IllegalAction("no-animal", "name the animals to tame")
        chosen = []
        for aid in ids:
            animal = next((a for a in state.animals if a.id == aid), None)
            if animal is None or animal.status != "wild" or animal.at != keeper.at or animal in chosen:
                raise IllegalAction("not-here", f"{aid} is not a wild animal on {keeper.id}'s tile "
                                    "(or is named twice)")
            chosen.append(animal)
        cost = self._load(state, keeper) + sum(self._cost(a) for a in chosen)
        if cost > int(self.data["tame_capacity"]):
            raise IllegalAction("over-capacity", f"{keeper.id} can keep animals costing "
                                f"{self.data['tame_capacity']} at most; these would make {cost}")
        state = self._set_animals(state, {a.id: evolve(a, at=None, status="carried") for a in chosen})
        return self._set_keeper(state, evolve(keeper, carrying=keeper.carrying + tuple(ids)))

    def _move(self, state: State, keeper: Keeper, action: dict) -> State:
        try:
            to = self._tile(action["to"])
        except (ValueError, TypeError, AttributeError):
            raise IllegalAction("off-map", f"{action['to']!r} is not a tile of the map") from None
        if hexes.distance(keeper.at, to) != 1:
            raise IllegalAction("not-adjacent", f"{keeper.id} moves one tile at a time")
        if to in state.fog:
            raise IllegalAction("into-fog", f"{hexes.name(to)} is covered by the fog")
        if keeper.carrying and to in state.water:
            raise IllegalAction("water-while-carrying", f"{keeper.id} carries animals and cannot enter water")
        return self._set_keeper(state, evolve(keeper, at=to))

    def _feed(self, state: State, keeper: Keeper, action: dict) -> State:
        if keeper.at in state.water:
            raise IllegalAction("feed-on-water", "feed cannot be put on a water tile")
        if keeper.at in state.feed:
            raise IllegalAction("feed-here", "this tile already has a feed token")
        return evolve(state, feed=state.feed | {keeper.at})

    def _release(self, state: State, keeper: Keeper, action: dict) -> State:
        ids = action.get("animals", list(keeper.carrying))
        if not isinstance(ids, list) or not ids or any(i not in keeper.carrying for i in ids) or len(set(ids)) < len(ids):
            raise IllegalAction("not-carried", f"{keeper.id} carries {list(keeper.carrying)}; got {ids!r}")
        if keeper.at in state.water:
            raise IllegalAction("release-on-water", "animals cannot be released on a water tile")
        home = keeper.at == (0, 0)
        changed = {a.id: evolve(a, at=None if home else keeper.at, status="saved" if home else "wild")
                   for a in state.animals if a.id in ids}
        state = self._set_animals(state, changed)
        return self._set_keeper(state, evolve(keeper, carrying=tuple(i for i in keeper.carrying if i not in ids)))

    def _collect(self, state: State, keeper: Keeper, action: dict) -> State:
        if keeper.at not in state.feed:
            raise IllegalAction("no-feed", "no feed token on this tile")
        return evolve(state, feed=state.feed - {keeper.at})

    # --- the animal phase ----------------------------------------------------------------------
    def _moving(self, state: State) -> Animal | None:
        return state.animals[state.mover] if state.mover < len(state.animals) else None

    def _feed_options(self, state: State) -> list[Hex | None]:
        """The feed tokens the moving animal may head for, when the players must choose (else [] or one)."""
        animal = self._moving(state)
        if animal is None or animal.status != "wild":
            return []
        near = sorted(f for f in state.feed if hexes.distance(f, animal.at) <= int(self.data["feed_range"]))
        if animal.at in state.feed:
            others = [f for f in near if f != animal.at]
            return [None] + others if others else [None]  # None: it stays on its feed
        return near

    def _run_animals(self, state: State) -> State:
        """Move animals until a die or a choice is needed, or the phase is over."""
        while True:
            animal = self._moving(state)
            if animal is None:
                return self._fog_phase(evolve(state, phase="fog", mover=0, steps_left=0))
            if animal.status != "wild":
                state = evolve(state, mover=state.mover + 1, steps_left=0)
                continue
            if state.steps_left == 0:
                state = evolve(state, steps_left=int(self.data["sizes"][animal.size]["rolls"]))
            options = self._feed_options(state)
            if len(options) > 1:
                return state  # the players choose
            if len(options) == 1:
                state = self._walk(state, animal, options[0])
                continue
            return state  # a die is wanted

    def _walk(self, state: State, animal: Animal, target: Hex | None) -> State:
        """One step of the moving animal toward ``target`` (None: it stays), then on to the next step."""
        moved = animal
        if target is not None:
            moved = self._land(state, animal, hexes.toward(animal.at, target))
        return self._advance(self._set_animals(state, {animal.id: moved}), moved)

    def _land(self, state: State, animal: Animal, to: Hex) -> Animal:
        if to not in self.tiles or to in state.water:
            return animal  # off the map or onto water: no move
        return self._step(state, animal, to)

    def _advance(self, state: State, animal: Animal) -> State:
        left = state.steps_left - 1
        if left <= 0 or animal.status != "wild":
            return evolve(state, mover=state.mover + 1, steps_left=0)
        return evolve(state, steps_left=left)

    def _roll(self, state: State, face: Any) -> State:
        if face is None:
            state, face = self._seeded_face(state)
        elif type(face) is not int or not 1 <= face <= 6:
            raise IllegalAction("bad-face", f"a die shows 1 to 6, got {face!r}")
        animal = self._moving(state)
        assert animal is not None and animal.at is not None
        moved = self._land(state, animal, hexes.neighbour(animal.at, face))
        return self._run_animals(self._advance(self._set_animals(state, {animal.id: moved}), moved))

    def _choose_feed(self, state: State, feed: Any) -> State:
        options = self._feed_options(state)
        try:
            target = None if feed is None else self._tile(feed)
        except ValueError:
            target = "not a tile"  # type: ignore[assignment]
        if target not in options:
            raise IllegalAction("not-an-option", f"choose one of {[hexes.name(o) if o else None for o in options]}")
        animal = self._moving(state)
        assert animal is not None
        return self._run_animals(self._walk(state, animal, target))

    # --- the fog phase -------------------------------------------------------------------------
    def _fog_phase(self, state: State) -> State:
        """Odd rounds wait for the fog's tiles (chance); even rounds spread at once."""
        if state.round % 2 == 1:
            return state
        return self._next_round(self._spread(state))

    def _appear(self, state: State, tiles: Any) -> State:
        ring = int(self.data["fog_appears"][state.round])
        eligible = self._fog_eligible(state)
        want = self._fog_want(eligible)
        if tiles is None:
            state, chosen = self._pick(state, eligible, want)
        else:
            try:
                chosen = [self._tile(t) for t in tiles]
            except (ValueError, TypeError, AttributeError):
                raise IllegalAction("bad-fog", f"fog tiles must be tiles of the map: {tiles!r}") from None
            if len(set(chosen)) != want or not set(chosen) <= set(eligible):
                raise IllegalAction("bad-fog", f"round {state.round}: fog appears on {want} tiles of ring {ring} "
                                    "that are not apple trees or fog already")
        return self._next_round(self._engulf(state, frozenset(chosen)))

    def _fog_eligible(self, state: State) -> list[Hex]:
        """The tiles of this round's ring fog may appear on, in ring order."""
        ring = int(self.data["fog_appears"][state.round])
        return [t for t in hexes.ring(ring) if t not in state.apple and t not in state.withered and t not in state.fog]

    def _fog_want(self, eligible: list[Hex]) -> int:
        """How many tiles the fog takes: the profile's number, or every eligible tile when fewer are left."""
        return min(int(self.data["fog_tiles"]), len(eligible))

    def _seeded_face(self, state: State) -> tuple[State, int]:
        """The state after the stream throws a die, and its face."""
        stream, k, used = streams.draw(state.stream, 6)
        return evolve(state, stream=stream, draws=state.draws + used), k + 1

    def _spread(self, state: State) -> State:
        """Fog spreads one tile from every fog tile: a healthy tree withers instead, a withered tree is taken."""
        reach = {n for f in state.fog for n in hexes.neighbours(f) if n in self.tiles} - state.fog
        withering = {t for t in reach if t in state.apple}
        taken = state.withered
        new_fog = (reach - withering) | taken
        state = evolve(state, apple=state.apple - withering, withered=(state.withered | withering) - taken)
        return self._engulf(state, frozenset(new_fog))

    def _engulf(self, state: State, tiles: frozenset[Hex]) -> State:
        """Fog covers ``tiles``: keepers there are lost with the animals they carry, and animals there."""
        lost_keepers = {k.id for k in state.keepers if not k.lost and k.at in tiles}
        carried = {a for k in state.keepers if k.id in lost_keepers for a in k.carrying}
        keepers = tuple(evolve(k, lost=True, carrying=()) if k.id in lost_keepers else k for k in state.keepers)
        animals = tuple(evolve(a, at=None, status="lost") if a.id in carried or
                        (a.status == "wild" and a.at in tiles) else a for a in state.animals)
        return evolve(state, fog=state.fog | tiles, feed=state.feed - tiles, keepers=keepers, animals=animals)

    def _next_round(self, state: State) -> State:
        if state.round >= int(self.data["rounds"]):
            return evolve(state, phase="over")
        keepers = tuple(evolve(k, actions=0) for k in state.keepers)
        return evolve(state, round=state.round + 1, phase="actions", keepers=keepers)

    # --- scoring and views ---------------------------------------------------------------------
    def score(self, state: State) -> dict[str, int]:
        s = self.data["score"]
        saved = [a for a in state.animals if a.status == "saved"]
        points = {"saved": sum(self.saved_points[a.size] for a in saved)}
        species = {a.species for a in saved}
        points["species_bonus"] = sum(bonus for kinds, bonus in self.size_bonus if kinds and kinds <= species)
        points["lost_keepers"] = -s["g"] * sum(k.lost for k in state.keepers)
        points["lost_animals"] = -s["h"] * sum(a.status == "lost" for a in state.animals)
        points["total"] = sum(points.values())
        return points

    def outcome(self, state: State) -> str | None:
        return "finished" if state.phase == "over" else None

    def outcome_of_view(self, view: Mapping[str, JSON]) -> str | None:
        return "finished" if view.get("phase") == "over" else None

    def view(self, state: State, observer: str | None = None) -> dict[str, JSON]:
        name = self.names.__getitem__
        names = lambda tiles: list(self._listed(tiles))  # noqa: E731
        moving = self._moving(state) if state.phase == "animals" else None
        pending = None
        if moving is not None:
            pending = {"animal": moving.id, "steps_left": state.steps_left, "needs": self.pending(state)}
            if pending["needs"] == "feed":
                pending["options"] = [hexes.name(o) if o else None for o in self._feed_options(state)]
        elif state.phase == "fog":
            pending = {"needs": "fog", "ring": int(self.data["fog_appears"][state.round])}
        return {
            "game": INFO.name,
            "ruleset": state.ruleset,
            "seed": state.seed,
            "round": state.round,
            "phase": state.phase,
            "pending": pending,
            "keepers": {k.id: {"at": name(k.at), "carrying": list(k.carrying), "lost": k.lost,
                               "actions": k.actions} for k in state.keepers},
            "animals": {a.id: {"species": a.species, "size": a.size, "at": name(a.at) if a.at else None,
                               "status": a.status} for a in state.animals},
            "map": {"apple": names(state.apple), "withered": names(state.withered), "water": names(state.water),
                    "fog": names(state.fog), "feed": names(state.feed)},
            "score": self.score(state),
            "draws": state.draws,
        }

    def from_view(self, view: Mapping[str, JSON]) -> State:
        raise BadSetup("bad-view", "Black Fog states are rebuilt by replaying their actions")

    @functools.lru_cache(maxsize=64)
    def _listed(self, tiles: frozenset[Hex]) -> tuple[str, ...]:
        """The names of ``tiles`` in tile order, as a view lists them; kept for the sets that come back (most
        actions leave the trees, the water, the fog and the feed as they were)."""
        return tuple(self.names[t] for t in sorted(tiles))


def _subsets(items: list[Any]) -> list[list[Any]]:
    """Every non-empty subset of ``items``, each in the order of ``items``."""
    return [[x for i, x in enumerate(items) if mask >> i & 1] for mask in range(1, 1 << len(items))]
