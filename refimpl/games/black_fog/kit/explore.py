"""Black Fog's hints to the fuzzer (campaigns/fuzz/positions.py): animals, feed and fog around the keepers, late
rounds; and seeds whose drawn map meets an output the unbiased draw throws away."""

from __future__ import annotations

from functools import cache
from typing import Any

from ....campaigns.fuzz.draw import Draw
from ....campaigns.fuzz.positions import Hints
from ... import JSON, RuleViolation, streams
from .. import hexes


def black_fog(d: Draw, engine: Any, ruleset: str) -> dict[str, JSON]:
    tiles = sorted(engine.tiles - {(0, 0)})
    keepers = list(engine.data["keepers"])
    spot = d.pick(tiles)  # where the keepers and the animals meet
    near = sorted(t for t in tiles if hexes.distance(t, spot) <= 2)
    used: set[tuple[int, int]] = set()

    def free(pool: list[tuple[int, int]]) -> tuple[int, int]:
        tile = d.pick(pool)
        used.add(tile)
        return tile

    apple = {free(tiles) for _ in range(2 + d.below(8))}
    water = {free(tiles) for _ in range(d.below(6))} - apple
    placed = {k: free(near if not d.one_in(4) else tiles + [(0, 0)]) for k in keepers if not d.one_in(4)}
    animals = [{"species": d.pick(sorted(engine.size_of)), "at": hexes.name(free(near if not d.one_in(3) else tiles))}
               for _ in range(d.below(10) if d.one_in(2) else d.below(3))]  # often few or none: short rounds
    if placed and animals and d.one_in(3):  # a keeper and an animal on one tile (taming; on water, what may not follow)
        keeper = d.pick(sorted(placed))
        if water and d.one_in(2):
            placed[keeper] = d.pick(sorted(water))
        animals[d.below(len(animals))]["at"] = hexes.name(placed[keeper])
    fog = {t for t in (d.pick(tiles) for _ in range(d.below(5))) if t not in used}
    feed = {t for t in (d.pick(near) for _ in range(d.below(4))) if t not in water and t not in fog}
    rounds = int(engine.data["rounds"])
    return {"map": {"apple": sorted(map(hexes.name, apple)), "water": sorted(map(hexes.name, water))},
            "animals": animals, "keepers": {k: hexes.name(t) for k, t in placed.items()},
            "fog": sorted(map(hexes.name, fog)), "feed": sorted(map(hexes.name, feed)),
            "round": 1 + d.below(rounds) if not d.one_in(3) else rounds - d.below(2)}


MAP_OUTPUTS = 64  # outputs a drawn map takes at most (the default map: 27; a pool shrinks as the set-up fills it)
MOST_TILES = 128  # a pool has fewer tiles than this (the default map: 91 in all)


@cache
def stream_edge_seeds() -> tuple[int, ...]:
    """Seeds a start may name (0 to 2^53 - 1) one of whose first MAP_OUTPUTS outputs is one a draw over fewer than
    MOST_TILES tiles may throw away (ruling BF-R6: a draw over n tiles throws away 2^64 - (2^64 mod n) and above,
    so only outputs from 2^64 - MOST_TILES up): the stream run backwards from each of those outputs. A seed drawn at
    random meets one about once in 2^57 maps; there are a handful under 2^53."""
    found = set()
    for k in range(1, MAP_OUTPUTS + 1):  # output k of the stream
        for output in range((1 << 64) - MOST_TILES, 1 << 64):
            seed = (streams._state_of(output) - k * streams.GOLDEN) & streams.MASK  # the stream run backwards
            if seed < 1 << 53:
                found.add(seed)
    return tuple(sorted(found))


def map_stream_edges(engine: Any, setup: dict[str, JSON]) -> list[int]:
    """The seeds of ``stream_edge_seeds`` whose map, drawn from the seed around ``setup`` (its animals and keepers:
    the map's draws keep water off their tiles), meets an output it throws away (its drawing takes one output more
    than seed 0's, whose map throws none away) and starts the game: a map that puts water under feed or a tree
    under fog is refused, seed by seed. None for a set-up no map can start from."""
    try:
        plain = engine._mapped(None, 0, setup).draws  # the map as drawn, before the start's own checks
    except RuleViolation:
        return []
    found = []
    for seed in stream_edge_seeds():
        try:
            if engine._mapped(None, seed, setup).draws > plain:
                engine.new_state(None, seed, setup)
                found.append(seed)
        except RuleViolation:
            continue
    return found


def map_edge(d: Draw, engine: Any, setup: dict[str, JSON]) -> tuple[int, dict[str, JSON]] | None:
    """A seed whose map, drawn around the drawn set-up (its map left out), meets a thrown-away output, and that
    set-up; None where no seed does. The draws over more than 16 tiles take their limit from the general formula,
    not a table: only such a seed tells a build that gets it wrong."""
    around = {key: value for key, value in setup.items() if key != "map"}
    edges = map_stream_edges(engine, around)
    return (d.pick(edges), around) if edges else None


HINTS = Hints(setup=black_fog, edge=map_edge)
