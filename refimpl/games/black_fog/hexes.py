"""Hex geometry of the Black Fog map: axial coordinates (q, r), flat-topped hexes, the house at 0,0.

Directions follow the draft's die faces (relative to the house's orientation): 1 up, 2 upper right,
3 lower right, 4 down, 5 lower left, 6 upper left (ruling BF-R2). Rings are counted from the house, ring 1
(ruling BF-R1).
"""

from __future__ import annotations

import re

Hex = tuple[int, int]
# Ruling BF-R2: flat-topped hexes, the die's faces 1-6 name the six neighbours clockwise from straight up.
DIRECTIONS: tuple[tuple[str, Hex], ...] = (
    ("up", (0, -1)), ("upper-right", (1, -1)), ("lower-right", (1, 0)),
    ("down", (0, 1)), ("lower-left", (-1, 1)), ("upper-left", (-1, 0)),
)


def distance(a: Hex, b: Hex = (0, 0)) -> int:
    """The number of steps from ``a`` to ``b`` (the house by default): (|dq| + |dr| + |dq + dr|) / 2."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring_of(h: Hex) -> int:
    """The ring of tile ``h``, counted from the house (ruling BF-R1): the house is ring 1, its neighbours ring
    2, ..."""
    return distance(h) + 1


def neighbour(h: Hex, face: int) -> Hex:
    """The neighbour of ``h`` in the direction of die face ``face`` (1-6): the step a die moves an animal
    (BF-ANIMAL-1, ruling BF-R2)."""
    dq, dr = DIRECTIONS[face - 1][1]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> list[Hex]:
    """The six neighbours of ``h``, in die-face order (the order ruling BF-R3 breaks ties in)."""
    return [neighbour(h, f) for f in range(1, 7)]


def ring(n: int) -> list[Hex]:
    """The tiles of ring ``n`` (ruling BF-R1: ring 1 the house, ring n the 6(n - 1) tiles n - 1 steps from it;
    BF-MAP-1: the map is rings 1 to 6) in ring order: from the tile straight up, clockwise."""
    if n == 1:
        return [(0, 0)]
    k = n - 1
    tile, out = (0, -k), []
    for face in (3, 4, 5, 6, 1, 2):  # walk the six sides clockwise from the top
        for _ in range(k):
            out.append(tile)
            tile = neighbour(tile, face)
    return out


def toward(src: Hex, dst: Hex) -> Hex:
    """The neighbour of ``src`` one step closer to ``dst``; of two equally good, the first in die-face
    order (ruling BF-R3). ``src`` itself when they are the same tile."""
    if src == dst:
        return src
    here = distance(src, dst)
    return next(n for n in neighbours(src) if distance(n, dst) == here - 1)


def name(h: Hex) -> str:
    """The canonical name ``"q,r"`` of tile ``h``, as the view writes every tile (BF-VIEW-1)."""
    return f"{h[0]},{h[1]}"


# A tile is written one way only (specs/black-fog.md, "The map and its coordinates"): q and r in ASCII decimal,
# "-" before a negative number, "0" for zero; no "+", no leading zero, no space, no "-0", no "_".
_TILE = re.compile(r"(0|-?[1-9][0-9]*),(0|-?[1-9][0-9]*)")


def parse(text: str) -> Hex:
    """The tile a canonical name ``"q,r"`` names. Raises ValueError for any other spelling."""
    m = _TILE.fullmatch(text)
    if m is None:
        raise ValueError(f"{text!r} is not a tile name \"q,r\"")
    return int(m.group(1)), int(m.group(2))
