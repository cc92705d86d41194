"""Conquest King drawn from a state view: the terrain grid, every unit the view holds on its cell (side by
colour, kind by letters, facing by a notch), castles, deployment zones while deploying, and what a side's
view leaves out (CK-HIDE-1) shown as hidden."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import islice
from typing import Any

from ....reports.pictures.boardparts import (
    Segment,
    as_int,
    changes,
    clean,
    differs,
    field_rows,
    notes,
    outline,
    path_attrs,
    show,
)
from ....reports.pictures.svg import MARK, MOVE, arrow, coord, esc, is_marked, moved_halo, svg
from ... import GAMES
from ..engine import INFO

MAX_SIDE = 40  # cells a side at most: a build's 10^9-cell map is drawn clipped
MAX_UNITS = 400
TERRAIN = {".": "#eef3df", "f": "#8fc48a", "h": "#d8c08a", "r": "#8cc0ea", "m": "#8d8d8d"}  # plain ... mountain
SIDE_COLOUR = {"sparkia": "#1f5fbf", "gaias": "#2e8b3e"}
KIND = {"king": "K", "light-infantry": "LI", "heavy-infantry": "HI", "cavalry": "Cv", "spearmen": "Sp",
        "archers": "Ar"}
FACING = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
COMPLETE = {0: "placing", 1: "confirming", 2: "done"}
LEGEND = ("sides: blue Sparkia, green Gaias; dashed square: castle; orange line: the combat waiting",
          "terrain: . plain, f forest, h hill, r river, m mountain",
          "units: K king, LI/HI light/heavy infantry, Cv cavalry, Sp spearmen, Ar archers",
          "A ambush (dashed: still hidden), dot: moved, notch: facing")
LEFT, TOP = 24, 62  # room for row numbers, the header and column numbers


def _profile() -> tuple[dict[str, tuple[int, int]], int]:
    """Castles and the deployment width: the view does not hold them, the ruleset profile does."""
    try:
        p = GAMES[INFO.name].p  # type: ignore[attr-defined]  # the Conquest King engine's profile
        return dict(p.castles), int(p.deploy_columns)
    except Exception:  # the picture must not depend on the engine loading
        return {"sparkia": (0, 0), "gaias": (15, 7)}, 5


def _square(at: Any) -> tuple[int, int] | None:
    """``[x, y]`` as a square, or None when it is not two whole numbers."""
    xy = [as_int(v) for v in at] if isinstance(at, list) and len(at) == 2 else [None]
    return None if None in xy else (xy[0], xy[1])  # type: ignore[return-value]  # no None left: ints


def _grid(terrain: list[str], cols: int, rows: int, c: float, marks: frozenset[str]) -> str:
    """Each row of ``terrain`` a group of cells (its letter in the corner), with the row and column numbers."""
    size = min(12.0, max(8.0, c * .34))
    out = [coord(LEFT + (x + .5) * c, TOP - 4, str(x), size) for x in range(cols)]
    for y in range(rows):
        line, cells, top = terrain[y] if y < len(terrain) else "", [], TOP + y * c
        for x in range(cols):
            letter = line[x] if x < len(line) else " "
            cells.append(f'<rect x="{LEFT + x * c:.1f}" y="{top:.1f}" width="{c:.1f}" height="{c:.1f}" '
                         f'fill="{TERRAIN.get(letter, "#fff")}" stroke="#b5b5a5" stroke-width="0.6"/>')
            if letter not in ". ":
                cells.append(f'<text x="{LEFT + x * c + 3:.1f}" y="{top + c - 3:.1f}" font-size="{c * .26:.1f}" '
                             f'fill="#444" font-family="monospace">{esc(clean(letter))}</text>')
        if y < len(terrain) and is_marked(f"terrain[{y}]", marks):
            cells.append(outline(LEFT - 1, top, cols * c + 2, c))
        attrs = path_attrs(f"terrain[{y}]", marks) if y < len(terrain) else ""
        out.append(f'<g{attrs}>{"".join(cells)}</g>' + coord(LEFT - 4, top + c * .6, str(y), size, "end"))
    return "".join(out)


def _zones(phase: Any, cols: int, rows: int, c: float, hidden_side: str | None) -> str:
    """Castles always; while deploying, each side's zone, and a grey "?" over the zone a side cannot see."""
    castles, width = _profile()
    out = []
    for side, (cx, cy) in castles.items():
        colour = SIDE_COLOUR.get(side, "#777")
        lo, hi = max(0, cx - width), min(cols - 1, cx + width)
        if phase == "deploy" and lo <= hi:
            out.append(f'<rect x="{LEFT + lo * c:.1f}" y="{TOP}" width="{(hi - lo + 1) * c:.1f}" '
                       f'height="{rows * c:.1f}" fill="{colour}" fill-opacity="0.08" stroke="{colour}" '
                       f'stroke-dasharray="6 4" stroke-width="1.5"><title>{esc(side)} deployment zone</title></rect>')
            if side == hidden_side:
                out.append(f'<text x="{LEFT + (lo + hi + 1) * c / 2:.1f}" y="{TOP + rows * c * .62:.1f}" fill="#999" '
                           f'font-size="{min(rows * c * .5, 120):.0f}" text-anchor="middle" fill-opacity="0.7">?'
                           f'<title>{esc(side)} placements hidden</title></text>')
        if 0 <= cx < cols and 0 <= cy < rows:
            out.append(f'<rect x="{LEFT + cx * c + 2:.1f}" y="{TOP + cy * c + 2:.1f}" width="{c - 4:.1f}" '
                       f'height="{c - 4:.1f}" fill="none" stroke="{colour}" stroke-width="2.5" stroke-dasharray="3 2">'
                       f'<title>{esc(side)} castle</title></rect>')
    return "".join(out)


def _box(x: int, y: int, slot: tuple[int, int], c: float) -> tuple[float, float, float]:
    """The left, top and side of a unit token on square (x, y); ``slot`` (index, count) shares the square."""
    k, n = slot
    s = c / (1 if n == 1 else 2)
    return LEFT + x * c + (k % 2) * s * (n > 1), TOP + y * c + (k // 2 % 2) * s * (n > 2), s


def _unit(i: int, u: Mapping[str, Any], x: int, y: int, slot: tuple[int, int], c: float,
          marks: frozenset[str]) -> str:
    """A unit token; ``slot`` (index, count) shares a cell when several units stand on it."""
    kind, uid, facing = u.get("kind"), u.get("id"), u.get("facing")
    ox, oy, s = _box(x, y, slot, c)
    hidden, ambush, moved = (u.get(f) is True for f in ("hidden", "ambush", "moved"))
    label = KIND.get(kind, show(kind, 2)) if isinstance(kind, str) else "?"
    number = uid.rpartition("-")[2] if isinstance(uid, str) and not uid.endswith("-king") else ""
    about = (f'{show(uid)} {show(kind)} at {x},{y} facing {show(facing)}{" moved" * moved}{" ambush" * ambush}'
             f'{" (hidden)" * hidden}')
    parts = [(f'<title>{esc(about)}</title><rect x="{ox + s * .1:.1f}" y="{oy + s * .1:.1f}" width="{s * .8:.1f}" '
             f'height="{s * .8:.1f}" rx="{s * .15:.1f}" fill="{SIDE_COLOUR.get(str(u.get("side")), "#777")}" '
             f'fill-opacity="{.45 if hidden else .95}" stroke="#111" stroke-width="1.2" '
             f'stroke-dasharray="{"3 2" if hidden else "none"}"/><text x="{ox + s / 2:.1f}" y="{oy + s * .6:.1f}" '
             f'font-size="{s * .3:.1f}" text-anchor="middle" font-weight="bold" fill="#fff" font-family="sans-serif">'
             f'{esc(label)}</text><text x="{ox + s * .86:.1f}" y="{oy + s * .86:.1f}" font-size="{s * .2:.1f}" '
             f'text-anchor="end" fill="#fff">{esc(clean(number, 4))}</text>')]
    if ambush:
        parts.append(f'<text x="{ox + s * .16:.1f}" y="{oy + s * .32:.1f}" font-size="{s * .2:.1f}" '
                     'fill="#ffd54a">A</text>')
    if moved:
        parts.append(f'<circle cx="{ox + s * .8:.1f}" cy="{oy + s * .22:.1f}" r="{s * .06:.1f}" fill="#fff"/>')
    dx, dy = FACING.get(facing, (0, 0)) if isinstance(facing, str) else (0, 0)
    if dx or dy:  # a notch on the side the unit faces
        tx, ty, h = ox + s / 2 + dx * s * .42, oy + s / 2 + dy * s * .42, s * .12
        parts.append(f'<polygon points="{tx + dx * h:.1f},{ty + dy * h:.1f} {tx - dy * h:.1f},{ty + dx * h:.1f} '
                     f'{tx + dy * h:.1f},{ty - dx * h:.1f}" fill="#111"/>')
    if is_marked(f"units[{i}]", marks):
        parts.append(outline(ox + 1, oy + 1, s - 2, s - 2, 3.5))
    return f'<g{path_attrs(f"units[{i}]", marks)} data-role="unit">{"".join(parts)}</g>'


def _fight(fight: Any, label: str, path: str) -> list[Segment]:
    """A ``combat`` or ``last_combat`` as words."""
    if not isinstance(fight, Mapping):
        return [(f"{label}: {'none' if fight is None else show(fight)}", path)]
    words = f"{label}: {show(fight.get('kind'))}"
    if isinstance(fight.get("attackers"), list):
        words += f" {' + '.join(show(a, 16) for a in fight['attackers'][:6])} -> {show(fight.get('target'))}"
    if "attack" in fight:
        words += f", attack {show(fight.get('attack'))} vs defence {show(fight.get('defence'))}"
    if "dice" in fight:
        words += (f", dice {show(fight.get('dice'))} totals {show(fight.get('totals'))}: "
                  f"{show(fight.get('winner'))} wins")
    elif label == "combat":
        words += " (waiting for dice)"
    if "destroyed" in fight:
        words += f"; destroyed {show(fight.get('destroyed'))}"
    return [(words, path)]


def _moves(units: list[Any], drawn: dict[int, tuple[float, float, float]], before: Mapping[str, Any] | None,
           same_eyes: bool, cols: int, rows: int, c: float) -> tuple[str, str]:
    """What the step did to the units, from the position ``before`` it (matched by unit id): a dashed square
    where a moved unit stood and an arrow from it, a frame around a unit that changed or appeared, and a
    crossed square where a unit stood that is gone (only when both views are seen by the same eyes: a unit a
    side's view leaves out is not gone). Returns what goes under the tokens and what goes over them."""
    old = before.get("units") if before is not None else None
    if not isinstance(old, list):
        return "", ""
    was = {u.get("id"): u for u in old[:MAX_UNITS] if isinstance(u, Mapping) and isinstance(u.get("id"), str)}
    under, over, seen = [], [], set()
    for i, (ox, oy, s) in drawn.items():
        u = units[i]
        uid = u.get("id")
        seen.add(uid)
        prev = was.get(uid)
        if prev == u or (prev is not None and not same_eyes and {**prev, "hidden": None} == {**u, "hidden": None}):
            continue  # (what one side sees of a unit may say "hidden" where the whole state does not)
        over.append(moved_halo(ox - 1, oy - 1, s + 2, s + 2))
        sq = _square(prev.get("at")) if prev is not None else None
        if (prev is not None and sq is not None and sq != _square(u.get("at"))
                and 0 <= sq[0] < cols and 0 <= sq[1] < rows):
            px, py = LEFT + sq[0] * c, TOP + sq[1] * c
            under.append(f'<rect class="moved" x="{px + 3:.1f}" y="{py + 3:.1f}" width="{c - 6:.1f}" '
                         f'height="{c - 6:.1f}" rx="4" fill="none" stroke="{MOVE}" stroke-width="2.5" '
                         f'stroke-dasharray="5 3"/>')
            over.append(arrow(px + c / 2, py + c / 2, ox + s / 2, oy + s / 2, s * .3))
    for uid, prev in was.items() if same_eyes else ():
        sq = _square(prev.get("at"))
        if uid not in seen and sq is not None and 0 <= sq[0] < cols and 0 <= sq[1] < rows:
            px, py = LEFT + sq[0] * c, TOP + sq[1] * c
            under.append(f'<g class="moved"><title>{esc(show(uid))} gone</title><rect x="{px + 3:.1f}" '
                         f'y="{py + 3:.1f}" width="{c - 6:.1f}" height="{c - 6:.1f}" rx="4" fill="none" '
                         f'stroke="{MOVE}" stroke-width="2.5" stroke-dasharray="5 3"/><path d="M{px + 8:.1f} '
                         f'{py + 8:.1f} L{px + c - 8:.1f} {py + c - 8:.1f} M{px + c - 8:.1f} {py + 8:.1f} '
                         f'L{px + 8:.1f} {py + c - 8:.1f}" stroke="{MOVE}" stroke-width="2.5"/></g>')
    return "".join(under), "".join(over)


def _units(units: list[Any], cols: int, rows: int, c: float,
           marks: frozenset[str]) -> tuple[str, list[str], dict[str, tuple[float, float]], dict[int, Any]]:
    """The unit tokens, notes on units not drawn, where each unit id stands (for the combat lines) and each
    drawn unit's token box (for what the step moved)."""
    # ignore: typed by the return annotation
    out, lines, on_cell, centre, boxes = [], [], {}, {}, {}  # type: ignore[var-annotated]
    for i, u in enumerate(units):
        sq = _square(u.get("at")) if isinstance(u, Mapping) else None
        if sq and 0 <= sq[0] < cols and 0 <= sq[1] < rows:
            on_cell.setdefault(sq, []).append(i)
        else:
            lines.append(f"units[{i}] not on the board: {show(u.get('at') if isinstance(u, Mapping) else u)}")
    for (x, y), idx in on_cell.items():
        for k, i in enumerate(idx[:4]):
            out.append(_unit(i, units[i], x, y, (k, min(len(idx), 4)), c, marks))
            centre[str(units[i].get("id"))] = (LEFT + (x + .5) * c, TOP + (y + .5) * c)
            boxes[i] = _box(x, y, (k, min(len(idx), 4)), c)
        if len(idx) > 4:
            lines.append(f"{len(idx) - 4} more units on {x},{y} not drawn")
    return "".join(out), lines, centre, boxes


def _arrows(fight: Any, centre: Mapping[str, tuple[float, float]], marks: frozenset[str]) -> str:
    """A line from each unit of the waiting fight to its target."""
    if not isinstance(fight, Mapping) or not isinstance(fight.get("attackers"), list):
        return ""
    target = centre.get(named) if isinstance(named := fight.get("target"), str) else None
    colour = MARK if is_marked("combat", marks) else "#e07b00"
    lines = [f'<line x1="{centre[a][0]:.1f}" y1="{centre[a][1]:.1f}" x2="{target[0]:.1f}" y2="{target[1]:.1f}" '
             f'stroke="{colour}" stroke-width="4" stroke-opacity="0.8"/>'
             for a in fight["attackers"][:8] if target and isinstance(a, str) and a in centre]
    return f'<g{path_attrs("combat", marks)}>{"".join(lines)}</g>'


def _texts(view: Mapping[str, Any], hidden_side: str | None) -> list[list[Segment]]:
    """Deployment, lobby and fights under the board."""
    deployment, lobby = view.get("deployment"), view.get("lobby")
    row: list[Segment] = [("deployment:", None)]
    for side in SIDE_COLOUR:
        d = deployment.get(side) if isinstance(deployment, Mapping) else None
        if isinstance(d, Mapping):
            # ignore: None finds no entry
            state = COMPLETE.get(as_int(d.get("complete")), show(d.get("complete")))  # type: ignore[arg-type]
            row.append((f"{side} {show(d.get('gold'))}G {state}", f"deployment.{side}"))
        elif side == hidden_side:
            row.append((f"{side} hidden", None))
    lobby = lobby if isinstance(lobby, Mapping) else {}
    reg = lobby.get("registered")
    reg = ", ".join(f"{s} {show(m)}" for s, m in islice(reg.items(), 4)) if isinstance(reg, Mapping) else show(reg)
    return [row, [("lobby:", None), (f"{show(lobby.get('field'))} field", "lobby.field"),
                  (f"clock {show(lobby.get('clock'))} min", "lobby.clock"), (f"registered {reg}", "lobby.registered"),
                  (f"archived {show(lobby.get('archived'))}", "lobby.archived")],
            _fight(view.get("combat"), "combat", "combat"),
            _fight(view.get("last_combat"), "last combat", "last_combat")]


def _result(result: Any) -> str:
    """``result`` in words."""
    if isinstance(result, Mapping):
        winner = result.get("winner")
        return f"result: {show(winner) + ' wins' if winner else 'no winner'} by {show(result.get('by'))}"
    return f"result: {'none' if result is None else show(result)}"


def draw(view: Mapping[str, Any], marks: frozenset[str], before: Mapping[str, Any] | None = None) -> str:
    """The picture of one Conquest King view, the marked paths outlined and listed; given the position
    ``before`` the step, what the step moved."""
    raw_terrain, raw_units = view.get("terrain"), view.get("units")
    terrain = [r if isinstance(r, str) else "" for r in raw_terrain[:MAX_SIDE]] if isinstance(raw_terrain, list) else []
    units = raw_units[:MAX_UNITS] if isinstance(raw_units, list) else []
    # the terrain's columns and rows (clipped), else the profile's 16 x 8
    cols, rows = (max(1, min(max(map(len, terrain)), MAX_SIDE)), len(terrain)) if terrain else (16, 8)
    c = max(12.0, min(40.0, 640 / cols, 400 / rows))
    width = max(560.0, LEFT + cols * c + 12)
    observer, phase = view.get("observer"), view.get("phase")
    seen_by_side = isinstance(observer, str) and observer in SIDE_COLOUR
    hidden_side = next((s for s in SIDE_COLOUR if seen_by_side and s != observer), None)
    # the default binds the comparison once, when the lambda is made
    moved = lambda path, changed=changes(before, view): path != "observer" and changed(path)  # noqa: E731, B008
    head, head_bottom = field_rows([[(f"observer {show(observer)}", "observer"), (f"phase {show(phase)}", "phase"),
                           (f"turn {show(view.get('turn'))}", "turn"), (f"{show(view.get('side'))} to play", "side"),
                           (_result(view.get("result")), "result")]], 0, width, marks, moved)
    tokens, lines, centre, boxes = _units(units, cols, rows, c, marks)
    same_eyes = before is not None and before.get("observer") == observer
    under, over = _moves(units, boxes, before, same_eyes, cols, rows, c)
    text, y = field_rows(_texts(view, hidden_side), TOP + rows * c + 4, width, marks, moved)
    body = [head, _grid(terrain, cols, rows, c, marks), _zones(phase, cols, rows, c, hidden_side), under, tokens,
            over, _arrows(view.get("combat"), centre, marks), text]
    if hidden_side:
        lines.append(f"{hidden_side}'s placements are hidden from {observer} while deploying" if phase == "deploy"
                     else f"{hidden_side}'s hidden ambush, if any, is not in {observer}'s view")
    if not isinstance(raw_units, list) or len(raw_units) > MAX_UNITS:
        lines.append(f"units: {show(raw_units)}, drawn: {len(units)}")
    if not terrain:
        lines.append(f"terrain: {show(raw_terrain)} (not rows of letters)")
    text, y = notes(lines, LEGEND, y, width)
    marked, y = differs(marks, y, width)
    shift = max(0.0, head_bottom - 26)  # a header wrapped onto more lines pushes the rest down
    board = f'<g transform="translate(0 {shift:.0f})">{"".join(body[1:])}{text}{marked}</g>'
    return svg(width, y + shift + 6, body[0] + board)
