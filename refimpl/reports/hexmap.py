"""Draw a Black Fog state view as a hex picture a person can read (``refimpl map``).

Flat-topped hexes in axial coordinates (q, r): column q, and row 2r + q, so every tile sits between
its upper and lower neighbours. Works from a state view, so it can draw any build's state.
"""

from __future__ import annotations

from typing import Any

LEGEND = ("H house   T apple tree   t withered tree   ~ water   # fog   * feed   "
          "K keeper   s/m/l small/medium/large animal   . forest")


def _tiles(view: dict[str, Any]) -> dict[tuple[int, int], str]:
    glyph: dict[tuple[int, int], str] = {}

    def put(names: list[str], mark: str) -> None:
        for name in names:
            q, r = map(int, name.split(","))
            glyph[(q, r)] = mark

    rings = max(abs(int(x)) for t in view["map"]["water"] + ["0,0"] for x in t.split(",")) or 1
    for q in range(-rings, rings + 1):
        for r in range(-rings, rings + 1):
            if abs(q) + abs(r) + abs(q + r) <= 2 * rings:
                glyph[(q, r)] = "."
    glyph[(0, 0)] = "H"
    m = view["map"]
    put(m["water"], "~")
    put(m["apple"], "T")
    put(m["withered"], "t")
    put(m["feed"], "*")
    for a in view["animals"].values():
        if a["at"]:
            put([a["at"]], a["size"][0])
    put([k["at"] for k in view["keepers"].values() if not k["lost"]], "K")
    put(m["fog"], "#")
    return glyph


def draw(view: dict[str, Any]) -> str:
    """The picture: one character a tile, the house in the middle, up at the top."""
    glyph = _tiles(view)
    qs = [q for q, _ in glyph]
    rows = [2 * r + q for q, r in glyph]
    lines = []
    for row in range(min(rows), max(rows) + 1):
        line = ""
        for q in range(min(qs), max(qs) + 1):
            if (row - q) % 2:
                line += "   "
                continue
            line += f" {glyph.get((q, (row - q) // 2), ' ')} "
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n\n" + LEGEND + "\n"
