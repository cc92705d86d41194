"""Black Fog's hints to the fuzzer (campaigns/fuzz/positions.py): animals, feed and fog around the keepers, late
rounds."""

from __future__ import annotations

from typing import Any

from ....campaigns.fuzz.draw import Draw
from ....campaigns.fuzz.positions import Hints
from ... import JSON
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


HINTS = Hints(setup=black_fog)
