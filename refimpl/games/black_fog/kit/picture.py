"""Black Fog and the Apple Trees drawn from a state view: the hex map (flat-topped, axial ``"q,r"``, the house
in the middle, up at the top) with water, apple trees, withered trees, fog and feed tokens; keepers and wild
animals on their tiles; every keeper and animal listed beside the map; round, phase, pending and score above.
Each tile carries its ``q,r``; drawn with the position before a step, each keeper or animal that moved has an
arrow from the tile it left, and tiles that became (or stopped being) fog, feed or withered are framed."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any, TypeGuard

from ....reports.pictures.boardparts import (
    Segment,
    as_int,
    changes,
    clean,
    differs,
    field_rows,
    field_text,
    notes,
    outline,
    path_attrs,
    show,
)
from ....reports.pictures.svg import MARK, MOVE, arrow, coord, esc, ghost_ring, is_marked, moved_halo, svg
from ..hexes import distance, ring

Hex = tuple[int, int]
TILE = re.compile(r"(-?[0-9]{1,6}),(-?[0-9]{1,6})\Z")
RADIUS, MAX_RADIUS = 5, 9  # the map's radius (rings 1-6); a build's tiles beyond MAX_RADIUS are only listed
MAX_TILES, MAX_LINES = 500, 20  # tiles read from each list; keeper and animal lines beside the map
TOP, PANEL_W = 48, 250
LAYERS = {"water": "#8cc0ea", "apple": "#2f7d32", "withered": "#8a6d3b", "fog": "#2b2b2b", "feed": "#f2c200"}
KEEPER_COLOUR = {"k1": "#7b3fa0", "k2": "#d4760a", "k3": "#0a7fa0", "k4": "#a0560a"}
ANIMAL_R = {"small": .24, "medium": .3, "large": .36}  # token radius, in hex radii
LEGEND = ("H house, blue: water, green tree: apple tree, brown tree: withered, dark: fog, yellow: feed",
          "squares: keepers (grey x: lost); circles: wild animals (species' first letters, size by radius)",
          "orange ring: the animal the game waits for; dashed tiles: the feed on offer or the fog's ring")


def _initials(species: Any) -> str:
    """Two letters naming a species on its token (bear and boar differ)."""
    return clean(species[:2], 2) if isinstance(species, str) else "?"


def _tile(name: Any) -> Hex | None:
    """``"q,r"`` as a hex, or None when it is not one."""
    found = TILE.match(name) if isinstance(name, str) else None
    return (int(found[1]), int(found[2])) if found else None


class _Map:
    """The geometry of one picture: hex size and where each tile's centre lies."""

    def __init__(self, radius: int) -> None:
        self.radius = radius
        self.size = min(28.0, 476 / (3 * radius + 2))
        self.cx = self.size * (1.5 * radius + 1) + 6
        self.cy = TOP + self.size * math.sqrt(3) * (radius + .5)
        self.width = 2 * self.cx
        self.bottom = 2 * self.cy - TOP

    def on(self, h: Hex | None) -> TypeGuard[Hex]:
        """True when ``h`` is a tile this picture draws."""
        return h is not None and distance(h) <= self.radius

    def centre(self, h: Hex) -> tuple[float, float]:
        q, r = h
        return self.cx + self.size * 1.5 * q, self.cy + self.size * math.sqrt(3) * (r + q / 2)

    def hexagon(self, h: Hex, attrs: str, scale: float = 1.0) -> str:
        x, y = self.centre(h)
        s = self.size * scale
        points = " ".join(f"{x + s * math.cos(math.pi * k / 3):.1f},{y + s * math.sin(math.pi * k / 3):.1f}"
                          for k in range(6))
        return f'<polygon points="{points}" {attrs}/>'


def _tiles(view: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The map's tile lists (each cut to MAX_TILES); a list that is missing or not a list is empty."""
    m = view.get("map")
    m = m if isinstance(m, Mapping) else {}
    return {name: (tiles if isinstance(tiles := m.get(name), list) else [])[:MAX_TILES] for name in LAYERS}


def _layers(g: _Map, tiles: dict[str, list[Any]], marks: frozenset[str], lines: list[str]) -> str:
    """Water, trees, fog and feed, each listed tile an element with its ``map.<list>[i]`` path."""
    out = []
    for name in ("water", "apple", "withered", "fog", "feed"):
        for i, raw in enumerate(tiles[name]):
            h, path = _tile(raw), f"map.{name}[{i}]"
            if h is None or not g.on(h):
                lines.append(f"{path} not on the map: {show(raw)}")
                continue
            x, y = g.centre(h)
            s, marked = g.size, is_marked(path, marks)
            if name in ("water", "fog"):
                opacity = ' fill-opacity="0.82"' if name == "fog" else ""
                stroke = f'stroke="{MARK}" stroke-width="3"' if marked else 'stroke="#777" stroke-width="0.6"'
                shape = g.hexagon(h, f'fill="{LAYERS[name]}"{opacity} {stroke}')
            elif name == "feed":
                shape = (f'<rect x="{x + s * .3:.1f}" y="{y + s * .38:.1f}" width="{s * .22:.1f}" '
                         f'height="{s * .22:.1f}" fill="{LAYERS[name]}" stroke="#7a6000"/>')
            else:  # a tree: trunk and crown above the tile's centre, leaving the centre to keepers and animals
                shape = (f'<rect x="{x - s * .05:.1f}" y="{y - s * .5:.1f}" width="{s * .1:.1f}" '
                         f'height="{s * .22:.1f}" fill="#6b4a2b"/><circle cx="{x:.1f}" cy="{y - s * .58:.1f}" '
                         f'r="{s * .2:.1f}" fill="{LAYERS[name]}" stroke="#1d3d1e" stroke-width="0.8"/>')
            if marked and name not in ("water", "fog"):
                shape += outline(x - s * .5, y - s * .85, s, s * 1.4)
            out.append(f'<g{path_attrs(path, marks)}><title>{esc(name)} {esc(show(raw))}</title>{shape}</g>')
    return "".join(out)


def _occupants(g: _Map, view: Mapping[str, Any], marks: frozenset[str], lines: list[str],
               spots: dict[str, tuple[float, float, float]] | None = None) -> str:
    """Keepers (squares) and wild animals (circles) on their tiles, several on a tile set around its centre;
    the animal the game waits for (``pending.animal``) ringed. ``spots`` gets each piece's path, centre and
    half size."""
    pending = view.get("pending")
    moving = pending.get("animal") if isinstance(pending, Mapping) else None
    found: dict[Hex, list[tuple[str, str, Mapping[str, Any]]]] = {}
    for group in ("keepers", "animals"):
        pieces = view.get(group)
        for name, piece in islice(pieces.items(), MAX_TILES) if isinstance(pieces, Mapping) else []:
            if not isinstance(piece, Mapping) or (group == "animals" and piece.get("at") is None):
                continue
            h = _tile(piece.get("at"))
            if g.on(h):
                found.setdefault(h, []).append((group, str(name), piece))
            else:
                lines.append(f"{group}.{clean(str(name), 20)} not on the map: {show(piece.get('at'))}")
    out = []
    for h, here in found.items():
        x0, y0 = g.centre(h)
        for k, (group, name, piece) in enumerate(here[:7]):
            angle, reach = math.pi * (k - 1) / 3, (0 if k == 0 else g.size * .5)  # the first one in the middle
            x, y, s, path = x0 + reach * math.cos(angle), y0 + reach * math.sin(angle), g.size, f"{group}.{name}"
            if group == "keepers":
                lost = piece.get("lost") is True
                shape = (f'<rect x="{x - s * .2:.1f}" y="{y - s * .2:.1f}" width="{s * .4:.1f}" height="{s * .4:.1f}" '
                         f'fill="{"#9a9a9a" if lost else KEEPER_COLOUR.get(name, "#555")}" stroke="#111"/>'
                         f'<text x="{x:.1f}" y="{y + s * .12:.1f}" font-size="{s * .32:.1f}" text-anchor="middle" '
                         f'fill="#fff">{"x" if lost else esc(clean(name[-1:], 1))}</text>')
                box = s * .24
            else:
                size = piece.get("size")
                rad = s * (ANIMAL_R.get(size, .2) if isinstance(size, str) else .2)
                shape = (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad:.1f}" fill="#fff7e6" stroke="#5a3d1e" '
                         f'stroke-width="1.4"/><text x="{x:.1f}" y="{y + rad * .35:.1f}" font-size="{rad * .95:.1f}" '
                         f'text-anchor="middle">{esc(_initials(piece.get("species")))}</text>')
                box = rad + 1
                if name == moving:
                    shape += (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad + 3:.1f}" fill="none" stroke="#e07b00" '
                              'stroke-width="2.5"/>')
            if is_marked(path, marks):
                shape += outline(x - box, y - box, 2 * box, 2 * box)
            if spots is not None:
                spots[path] = (x, y, box)
            out.append(f'<g{path_attrs(path, marks)}><title>{esc(clean(name, 20))} at {esc(show(piece.get("at")))}'
                       f'</title>{shape}</g>')
        if len(here) > 7:
            lines.append(f"{len(here) - 7} more pieces on {h[0]},{h[1]} not drawn")
    return "".join(out)


def _pending(g: _Map, pending: Any, marks: frozenset[str]) -> tuple[str, Segment]:
    """What the game waits for: its tiles outlined (the feed options, the fog's ring) and a line of text."""
    if not isinstance(pending, Mapping):
        return "", (f"pending: {'none' if pending is None else show(pending)}", "pending")
    out, needs = [], pending.get("needs")
    options = listed if isinstance(listed := pending.get("options"), list) else []
    for i, h in enumerate(map(_tile, options[:12])):
        if h is not None and g.on(h):
            path = f"pending.options[{i}]"
            stroke = MARK if is_marked(path, marks) else "#f2c200"
            out.append(g.hexagon(h, f'{path_attrs(path, marks)} fill="none" stroke="{stroke}" stroke-width="3" '
                                    'stroke-dasharray="5 3"', .9))
    n = as_int(pending.get("ring"))
    if needs == "fog" and n is not None and 2 <= n <= g.radius + 1:
        dotted = 'fill="none" stroke="#555" stroke-width="2" stroke-dasharray="2 3"'
        out.extend(g.hexagon(h, dotted, .85) for h in ring(n))
    animal = show(pending.get("animal"))
    words = {"roll": f"roll for {animal} ({show(pending.get('steps_left'))} steps left)",
             "feed": f"choose feed for {animal}: {', '.join(show(o, 8) for o in options[:6])}",
             "fog": f"fog appears on ring {show(n)}"}
    return "".join(out), (f"pending: {words.get(needs, show(needs)) if isinstance(needs, str) else show(needs)}",
                          "pending")


def _moves(g: _Map, view: Mapping[str, Any], before: Mapping[str, Any] | None,
           spots: dict[str, tuple[float, float, float]]) -> tuple[str, str]:
    """What the step did, from the position ``before`` it: a dashed ring on the tile a keeper or animal left
    and an arrow from it, a frame around one that changed; a solid frame on a tile that became fog, feed,
    water, apple or withered, a dashed one on a tile that stopped being one. Returns what goes under the pieces
    and what goes over them."""
    if before is None:
        return "", ""
    under, over = [], []
    was, now = _tiles(before), _tiles(view)
    for name in LAYERS:
        old = {h for h in map(_tile, was[name]) if h is not None and g.on(h)}
        new = {h for h in map(_tile, now[name]) if h is not None and g.on(h)}
        for h in sorted(new - old):
            under.append(g.hexagon(h, f'class="moved" fill="none" stroke="{MOVE}" stroke-width="3.5"', .86))
        for h in sorted(old - new):
            under.append(g.hexagon(h, f'class="moved" fill="none" stroke="{MOVE}" stroke-width="2.5" '
                                      'stroke-dasharray="4 3"', .86))
    for group in ("keepers", "animals"):
        then, pieces = before.get(group), view.get(group)
        if not isinstance(then, Mapping) or not isinstance(pieces, Mapping):
            continue
        for name, piece in islice(pieces.items(), MAX_TILES):
            path, prev = f"{group}.{name}", then.get(name)
            if path not in spots or prev == piece:
                continue
            x, y, box = spots[path]
            over.append(moved_halo(x - box - 3, y - box - 3, 2 * box + 6, 2 * box + 6, box))
            at = _tile(prev.get("at")) if isinstance(prev, Mapping) else None
            if at is not None and g.on(at) and isinstance(piece, Mapping) and at != _tile(piece.get("at")):
                ox, oy = g.centre(at)
                under.append(ghost_ring(ox, oy, g.size * .42))
                over.append(arrow(ox, oy, x, y, box + 2))
    return "".join(under), "".join(over)


def _panel(view: Mapping[str, Any], x: float, marks: frozenset[str],
           moved: Callable[[str], bool] = lambda path: False) -> tuple[str, float]:
    """Every keeper and animal as a line beside the map; returns the SVG and its bottom."""
    lines: list[tuple[str, str | None]] = []
    for group in ("keepers", "animals"):
        pieces = view.get(group)
        lines.append((f"{group}:" if isinstance(pieces, Mapping) else f"{group}: {show(pieces)}", None))
        for name, p in islice(pieces.items(), MAX_LINES) if isinstance(pieces, Mapping) else []:
            p = p if isinstance(p, Mapping) else {}
            if group == "keepers":
                carrying = p.get("carrying")
                held = ", ".join(show(a, 8) for a in carrying[:6]) if isinstance(carrying, list) else show(carrying)
                text = (f"{name} {'LOST ' if p.get('lost') is True else ''}at {show(p.get('at'))}, "
                        f"{show(p.get('actions'))} actions{', carrying ' + held if held else ''}")
            else:
                where = f" at {show(p.get('at'))}" if p.get("at") is not None else ""
                text = f"{name} {show(p.get('species'), 12)} ({show(p.get('size'), 8)}) {show(p.get('status'))}{where}"
            lines.append((clean(text, 34), f"{group}.{name}"))
        if isinstance(pieces, Mapping) and len(pieces) > MAX_LINES:
            lines.append((f"... {len(pieces) - MAX_LINES} more", None))
    svg_lines = "".join(field_text(x, TOP + 14 + 16 * k, t, p, marks, p is not None and moved(p))
                        for k, (t, p) in enumerate(lines))
    return svg_lines, TOP + 16 * len(lines)


def draw(view: Mapping[str, Any], marks: frozenset[str], before: Mapping[str, Any] | None = None) -> str:
    """The picture of one Black Fog view, the marked paths outlined and listed; given the position ``before``
    the step, what the step moved."""
    tiles = _tiles(view)
    far = [distance(h) for h in map(_tile, (t for ts in tiles.values() for t in ts)) if h is not None]
    g = _Map(max([RADIUS] + [d for d in far if d <= MAX_RADIUS]))
    width = g.width + PANEL_W
    lines: list[str] = []
    board = [g.hexagon(h, 'fill="#dfeac8" stroke="#999" stroke-width="0.6"')
             for n in range(1, g.radius + 2) for h in ring(n)]
    hx, hy = g.centre((0, 0))
    board.append(g.hexagon((0, 0), 'fill="#c9a26b" stroke="#6b4a2b" stroke-width="1.5"') +
                 f'<text x="{hx:.1f}" y="{hy - g.size * .45:.1f}" font-size="{g.size * .3:.1f}" text-anchor="middle" '
                 'font-weight="bold">H</text>')
    board.append(_layers(g, tiles, marks, lines))
    label = max(7.0, g.size * .3)
    board += [coord(x, y + g.size * .8, f"{h[0]},{h[1]}", label, fill="#556")
              for n in range(1, g.radius + 2) for h in ring(n) for x, y in [g.centre(h)]]
    waiting, pending_text = _pending(g, view.get("pending"), marks)
    panel, panel_bottom = _panel(view, g.width + 4, marks, changes(before, view))
    spots: dict[str, tuple[float, float, float]] = {}
    pieces = _occupants(g, view, marks, lines, spots)
    under, over = _moves(g, view, before, spots)
    board += [under, pieces, over, waiting, panel]
    score = given if isinstance(given := view.get("score"), Mapping) else {}
    head, head_bottom = field_rows(
        [[(f"seed {show(view.get('seed'))}", "seed"), (f"round {show(view.get('round'))}", "round"),
          (f"phase {show(view.get('phase'))}", "phase"), (f"draws {show(view.get('draws'))}", "draws"), pending_text],
         [("score:", None), *((f"{key.replace('_', ' ')} {show(score.get(key))}", f"score.{key}")
                              for key in ("saved", "species_bonus", "lost_keepers", "lost_animals", "total"))]],
        -4, width, marks, changes(before, view))
    for name in ("map", "keepers", "animals", "score"):
        if not isinstance(view.get(name), Mapping):
            lines.append(f"{name}: {show(view.get(name))} (not an object)")
    text, y = notes(lines, LEGEND, max(g.bottom, panel_bottom), width)
    marked, y = differs(marks, y, width)
    shift = max(0.0, head_bottom - 36)  # a header wrapped onto more lines pushes the rest down
    rest = f'<g transform="translate(0 {shift:.0f})">{"".join(board)}{text}{marked}</g>'
    return svg(width, y + shift + 6, head + rest)
