"""Black Fog's hints to the fuzzer (campaigns/fuzz/positions.py): animals, feed and fog around the keepers, late
rounds; and seeds whose drawn map meets an output the unbiased draw throws away."""

from __future__ import annotations

from functools import cache
from typing import Any

from ....campaigns.fuzz.draw import Draw
from ....campaigns.fuzz.positions import Hints
from ... import JSON, streams
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


@cache
def map_stream_edges(engine: Any) -> tuple[int, ...]:
    """Seeds a start may name (0 to 2^53 - 1) whose map, drawn from the seed (a start without a set-up), meets an
    output the unbiased draw throws away (ruling BF-R6: each draw over the tiles left of a pool). A draw over n
    tiles throws away the outputs of 2^64 - (2^64 mod n) and above, so under 2^64 - n: the stream is run
    backwards from each of those for each output the map takes, and a seed is kept where the engine's start
    takes one output more than a plain one. A seed drawn at random meets one about once in 2^58 maps, and the
    draws over more than 16 tiles take their limit from the general formula rather than a table."""
    plain = engine.new_state(None, 0, {}).draws  # seed 0's map throws nothing away
    most = len(engine.tiles)
    found = set()
    for k in range(1, plain + 1):  # output k of the stream
        for output in range((1 << 64) - most, 1 << 64):
            seed = (streams._state_of(output) - k * streams.GOLDEN) & streams.MASK  # the stream run backwards
            if seed < 1 << 53 and engine.new_state(None, seed, {}).draws > plain:
                found.add(seed)
    return tuple(sorted(found))


def map_edge(d: Draw, engine: Any, setup: dict[str, JSON]) -> tuple[int, dict[str, JSON]] | None:
    """A seed whose drawn map meets a thrown-away output, started without a set-up (the map and where the
    animals and keepers stand are what the stream's draws depend on); None where the profile has none."""
    edges = map_stream_edges(engine)
    return (d.pick(edges), {}) if edges else None


HINTS = Hints(setup=black_fog, edge=map_edge)
