"""The start of a Black Fog game: the set-up read and checked, the map given or drawn from the seed.

Functions of the engine (``game``: its profile and its steps, which a variant engine may replace) and a
state; each returns a new state and never changes one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import streams
from ..base import JSON, BadSetup, evolve
from . import hexes
from .hexes import Hex
from .model import Animal, Keeper, Rules, State

SETUP_KEYS = {"map", "animals", "keepers", "fog", "feed", "round"}


def mapped(game: Rules, ruleset: str | None, seed: int | None, setup: Mapping[str, JSON] | None) -> State:
    """The game ``setup`` gives, with its map given or drawn, before the map is checked against the set-up's
    fog and feed. Implements BF-START-1 (the set-ups refused), BF-KEEP-1, BF-MAP-4 and ruling BF-R11 (what the
    set-up leaves out comes from the profile). Raises BadSetup for any other fault."""
    name = game._ruleset(ruleset)
    seed = 0 if seed is None else seed  # BF-R6: a game started without a seed plays seed 0
    if type(seed) is not int:
        raise BadSetup("bad-setup", f"the seed must be an integer, got {seed!r}")
    setup = dict(setup or {})
    unknown = sorted(set(setup) - SETUP_KEYS)
    if unknown:
        raise BadSetup("bad-setup", f"unknown set-up keys {unknown}")
    rows = setup.get("animals", game.data["animals"])
    if type(rows) is not list or not all(type(r) is dict and set(r) == {"species", "at"} for r in rows):
        raise BadSetup("bad-setup", "animals is a list of {species, at}")
    animals = []
    for i, row in enumerate(rows, 1):  # BF-ANIMAL-6: named a1, a2, ... in set-up order
        if type(row["species"]) is not str or row["species"] not in game.size_of:
            raise BadSetup("bad-setup", f"no species {row['species']!r} (species: {', '.join(game.size_of)})")
        animals.append(Animal(f"a{i}", row["species"], game.size_of[row["species"]], game._setup_tile(row["at"])))
    placed = setup.get("keepers", {})
    if type(placed) is not dict or set(placed) - set(game.data["keepers"]):
        raise BadSetup("bad-setup", f"keepers maps keepers ({', '.join(game.data['keepers'])}) to tiles")
    # BF-KEEP-1: always the four keepers; a set-up only places them (the others start where the profile says)
    keepers = tuple(Keeper(k, game._setup_tile(placed.get(k, game.data["keeper_start"])))
                    for k in game.data["keepers"])
    fog, feed = game._setup_tiles(setup, "fog"), game._setup_tiles(setup, "feed")
    round_ = setup.get("round", 1)
    if type(round_) is not int or not 1 <= round_ <= int(game.data["rounds"]):
        raise BadSetup("bad-setup", f"round is a whole number from 1 to {game.data['rounds']}")
    if any(k.at in fog for k in keepers) or any(a.at in fog for a in animals) or feed & fog:
        raise BadSetup("bad-setup", "nobody stands on fog and no feed lies there: the fog takes what it covers")
    state = State(name, seed, round_, "actions", keepers, tuple(animals), frozenset(), frozenset(), frozenset(),
                  fog, feed, stream=seed & streams.MASK)
    if "map" not in setup:  # BF-MAP-4: no map given, so it is drawn from the seed (ruling BF-R6)
        state = game._generate(state)
    else:
        given = setup["map"]
        if type(given) is not dict or set(given) - {"apple", "water"}:
            raise BadSetup("bad-setup", "map has apple and water, lists of tiles")
        apple, water = game._setup_tiles(given, "apple"), game._setup_tiles(given, "water")
        if apple & water or (0, 0) in apple | water:  # BF-MAP-4, ruling BF-R7
            raise BadSetup("bad-setup", "a tile is not both apple tree and water, and the house is neither")
        state = evolve(state, apple=apple, water=water)
    return state


def setup_of(game: Rules, state: State) -> dict[str, JSON] | None:
    """The set-up of ``state``'s map (healthy trees, water), wild animals, keepers, fog, feed and round (which the
    set-up begins in its action phase); animals carried, saved or lost and withered trees are left out. None once
    the game is over or a keeper is lost (a set-up cannot leave a keeper out)."""
    if state.phase == "over" or any(k.lost for k in state.keepers):
        return None
    names = lambda tiles: [hexes.name(t) for t in sorted(tiles)]  # noqa: E731
    return {"map": {"apple": names(state.apple), "water": names(state.water)},
            "animals": [{"species": a.species, "at": hexes.name(a.at)} for a in state.animals
                        if a.status == "wild" and a.at is not None],
            "keepers": {k.id: hexes.name(k.at) for k in state.keepers if not k.lost},
            "fog": names(state.fog), "feed": names(state.feed), "round": state.round}


def setup_tile(game: Rules, text: Any) -> Hex:
    """A tile of a set-up: ``"q,r"`` of the map (BF-START-1). Raises BadSetup."""
    try:
        if type(text) is not str:
            raise ValueError
        return game._tile(text)
    except ValueError:
        raise BadSetup("bad-setup", f"{text!r} is not a tile of the map (tiles are \"q,r\")") from None


def setup_tiles(game: Rules, mapping: Mapping[str, Any], key: str) -> frozenset[Hex]:
    """The tiles listed under ``key`` of a set-up mapping (none when it is left out; a tile named twice counts
    once). Raises BadSetup when they are not a list of tiles of the map."""
    tiles = mapping.get(key, [])
    if type(tiles) is not list:
        raise BadSetup("bad-setup", f"{key} is a list of tiles")
    return frozenset(game._setup_tile(t) for t in tiles)


def tile(game: Rules, text: str) -> Hex:
    """The tile of the map ``text`` names, spelled canonically (specs/black-fog.md, "The map and its
    coordinates"; BF-MAP-1: only the tiles of the map's rings). Raises ValueError for any other text."""
    found = hexes.parse(text)
    if found not in game.tiles:
        raise ValueError(f"{text!r} is not a tile of the map")
    return found


def pick(game: Rules, state: State, pool: list[Hex], k: int) -> tuple[State, list[Hex]]:
    """``k`` tiles drawn without replacement from ``pool`` (in ring order) with the seeded stream, each an
    unbiased draw over the tiles left, every output counted in ``draws`` (ruling BF-R6)."""
    pool, chosen = list(pool), []
    stream, draws = state.stream, state.draws
    for _ in range(min(k, len(pool))):
        stream, i, used = streams.draw(stream, len(pool))
        draws += used
        chosen.append(pool.pop(i))
    return evolve(state, stream=stream, draws=draws), chosen


def generate(game: Rules, state: State) -> State:
    """The map drawn from the seed: apple trees, then water, ring by ring from ring 2 outward (ruling BF-R6).
    Implements BF-MAP-2 (3 trees in every ring but the house and the outer ring), BF-MAP-3 (one water tile per
    six tiles), BF-MAP-4 and ruling BF-R7 (water never on a tree nor where an animal or keeper starts)."""
    d = game.data
    keep_dry = {a.at for a in state.animals} | {k.at for k in state.keepers}
    apple: set[Hex] = set()
    water: set[Hex] = set()
    for n in range(2, game.rings + 1):
        tiles = hexes.ring(n)
        if n < game.rings:
            state, trees = game._pick(state, tiles, int(d["apple_trees_per_ring"]))
            apple |= set(trees)
        pool = [t for t in tiles if t not in apple and t not in keep_dry]
        state, wet = game._pick(state, pool, len(tiles) // int(d["water_per_tiles"]))
        water |= set(wet)
    return evolve(state, apple=frozenset(apple), water=frozenset(water))


def drawn_map_problem(game: Rules, state: State) -> str | None:
    """What is wrong with ``state``'s map as one drawn at the start (a set-up may give any map; a drawn one
    follows BF-MAP-2, BF-MAP-3, BF-MAP-4 and BF-R7), or None: 3 apple trees in every ring but the house and the
    outer ring, one water tile per six tiles in every ring but the house, no tile both, the house neither, no
    water on a tile where an animal or keeper starts. The kit judges a build's own maps by it
    (refimpl/harness/ownchance.py)."""
    d = game.data
    if state.apple & state.water or (0, 0) in state.apple | state.water:
        return "a tile is both apple tree and water, or the house is one"
    starts = {a.at for a in state.animals} | {k.at for k in state.keepers}
    if state.water & starts:
        return f"water on {', '.join(sorted(hexes.name(t) for t in state.water & starts))}, where a piece starts"
    for n in range(1, game.rings + 1):
        ring = set(hexes.ring(n))
        trees, wet = len(state.apple & ring), len(state.water & ring)
        want_trees = int(d["apple_trees_per_ring"]) if 1 < n < game.rings else 0
        want_water = len(ring) // int(d["water_per_tiles"]) if n > 1 else 0
        if trees != want_trees:
            return f"ring {n} has {trees} apple trees, not {want_trees} (BF-MAP-2)"
        if wet != want_water:
            return f"ring {n} has {wet} water tiles, not {want_water} (BF-MAP-3)"
    return None


def explicit_setup(game: Rules, ruleset: str | None, seed: int | None,
                   setup: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """The set-up with the map the seed draws, when it gives none (ruling BF-R6); also when the drawn map then
    makes the set-up refused (feed on drawn water), so a build given the map refuses it too."""
    if "map" in setup:
        return setup
    try:
        state = game._mapped(ruleset, seed, setup)
    except BadSetup:
        return setup
    return {**setup, "map": {"apple": [hexes.name(t) for t in sorted(state.apple)],
                             "water": [hexes.name(t) for t in sorted(state.water)]}}
