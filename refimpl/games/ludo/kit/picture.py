"""Ludo as a picture: the cross-shaped board (the 52-square loop, each seat's yard, home column and goal) with
every piece at its position in its seat's colour, and a panel with the turn, phase, roll and counters. The loop
squares carry their numbers (the human seat's steps; a seat's step n is square 13 * seat + n) and each home
column its steps (51-56); drawn with the position before a step, each piece that moved has an arrow from where
it stood."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ....reports.pictures.boardparts import die, field_notes, short, tagged, whole
from ....reports.pictures.svg import (
    MARK,
    arrow,
    caption,
    changed,
    coord,
    esc,
    ghost_ring,
    is_marked,
    moved_halo,
    moved_tint,
    svg,
)

C, X0, Y0 = 36, 10, 10  # cell size and the board's top-left corner (the board is 15 x 15 cells)
PANEL_X, WIDTH = 566, 750
SEATS = ("human", "cpu1", "cpu2", "cpu3")  # bottom, left, top, right: each a quarter turn clockwise
COLOUR = {"human": "#1f77b4", "cpu1": "#2ca02c", "cpu2": "#d4a000", "cpu3": "#8e44ad"}  # no red: red marks
LIGHT = {"human": "#cfe2f3", "cpu1": "#d3ecd0", "cpu2": "#f6e7b0", "cpu3": "#e3d3ee"}
FIELDS = ("game", "ruleset", "seed", "turn", "phase", "roll", "sixes", "last_face", "throws", "decisions", "pieces",
          "result")
MAX_PIECES = 9  # pieces drawn per seat; a view may hold any list

# The human seat's quarter of the board, as (column, row) cells; the other seats' are turned a quarter
# clockwise per seat. Loop squares 0-12 run up from the human's start square, then left, then up the edge.
QUARTER = ((6, 13), (6, 12), (6, 11), (6, 10), (6, 9), (5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8), (0, 7),
           (0, 6))
COLUMN = ((7, 13), (7, 12), (7, 11), (7, 10), (7, 9), (7, 8))  # steps 51-56, from the loop towards the centre
GOAL = (6, 8)  # step 57: a corner of the centre, beside the column's last square
YARD = (2.5, 11.5)  # the centre of the 6 x 6 yard in the bottom-left corner


def _turned(cell: tuple[float, float], times: int) -> tuple[float, float]:
    """``cell`` turned a quarter clockwise about the board's centre ``times`` times."""
    c, r = cell
    for _ in range(times % 4):
        c, r = 14 - r, c
    return c, r


def _square(number: int) -> tuple[float, float]:
    """The cell of loop square ``number`` (0-51)."""
    quarter, i = divmod(number % 52, 13)
    return _turned(QUARTER[i], quarter)


def _cell(seat: int, step: int) -> tuple[float, float] | None:
    """The cell of a piece ``step`` steps from seat ``seat``'s start (None: the yard, or off the board)."""
    if 0 <= step <= 50:
        return _square(13 * seat + step)
    if 51 <= step <= 56:
        return _turned(COLUMN[step - 51], seat)
    return _turned(GOAL, seat) if step == 57 else None


def _px(cell: tuple[float, float]) -> tuple[float, float]:
    """The pixel centre of ``cell``."""
    return X0 + (cell[0] + 0.5) * C, Y0 + (cell[1] + 0.5) * C


def _rect(cell: tuple[float, float], fill: str) -> str:
    """One square of the board."""
    x, y = _px(cell)
    return f'<rect x="{x - C / 2:.0f}" y="{y - C / 2:.0f}" width="{C}" height="{C}" fill="{fill}" stroke="#777"/>'


def _star(cx: float, cy: float, r: float) -> str:
    """A five-pointed star, the mark of a safe star square."""
    points = " ".join(f"{cx + (r if i % 2 == 0 else r * 0.45) * math.sin(i * math.pi / 5):.1f},"
                      f"{cy - (r if i % 2 == 0 else r * 0.45) * math.cos(i * math.pi / 5):.1f}" for i in range(10))
    return f'<polygon points="{points}" fill="#bbb"/>'


def _board(turn: Any, marks: frozenset[str]) -> str:
    """The empty board: yards (the seat to play outlined), the loop with its safe squares, columns, goals."""
    out = [(f'<rect x="{X0}" y="{Y0}" width="{15 * C}" height="{15 * C}" fill="#fff" stroke="#333" '
           f'stroke-width="2"/>')]
    for k, seat in enumerate(SEATS):
        cx, cy = _px(_turned(YARD, k))
        out.append(f'<rect x="{cx - 3 * C:.0f}" y="{cy - 3 * C:.0f}" width="{6 * C}" height="{6 * C}" '
                   f'fill="{COLOUR[seat]}" stroke="#333"/>'
                   f'<rect x="{cx - 2 * C:.0f}" y="{cy - 2 * C:.0f}" width="{4 * C}" height="{4 * C}" rx="8" '
                   f'fill="#fff"/>'
                   f'<text x="{cx:.0f}" y="{cy - 2 * C - 6:.0f}" font-size="12" font-weight="bold" fill="#fff" '
                   f'text-anchor="middle" font-family="sans-serif">{seat}</text>')
        if turn == seat:
            stroke = MARK if is_marked("turn", marks) else "#111"
            out.append(f'<rect x="{cx - 3 * C + 3:.0f}" y="{cy - 3 * C + 3:.0f}" width="{6 * C - 6}" '
                       f'height="{6 * C - 6}" fill="none" stroke="{stroke}" stroke-width="5" '
                       f'stroke-dasharray="10 5"'
                       f'{tagged("turn", marks)}/>')
        for step, cell in enumerate(COLUMN, 51):
            out.append(_rect(_turned(cell, k), LIGHT[seat]))
            x, y = _px(_turned(cell, k))
            out.append(coord(x, y + 4, str(step), 10, fill="#777"))
        out.append(_rect(_turned(GOAL, k), COLOUR[seat]))
    out.append(_rect((7, 7), "#fff"))
    out.append(f'<text x="{_px((7, 7))[0]:.0f}" y="{_px((7, 7))[1] + 4:.0f}" font-size="10" text-anchor="middle" '
               f'font-family="sans-serif">goal</text>')
    for number in range(52):
        quarter, offset = divmod(number, 13)
        x, y = _px(_square(number))
        out.append(_rect(_square(number), LIGHT[SEATS[quarter]] if offset == 0 else "#fff"))
        if offset == 8:
            out.append(_star(x, y, C * 0.38))
        out.append(coord(x - C / 2 + 2, y - C / 2 + 11, str(number), 11, "start", "#555"))
    return "".join(out)


def _spots(centre: tuple[float, float], n: int, size: float) -> list[tuple[float, float, float]]:
    """``n`` disc centres and a radius, in a grid filling a ``size``-pixel square around ``centre``."""
    if n == 1:
        return [(centre[0], centre[1], size * 0.36)]
    side = math.ceil(math.sqrt(n))
    rows, step = math.ceil(n / side), size / side
    return [(centre[0] + (i % side - (side - 1) / 2) * step, centre[1] + (i // side - (rows - 1) / 2) * step,
             min(step * 0.44, C * 0.36)) for i in range(n)]


def _piece(x: float, y: float, r: float, seat: str, index: int, step: Any, marks: frozenset[str]) -> str:
    """One piece: a disc of its seat's colour with its number, outlined when its path differs."""
    path = f"pieces.{seat}[{index}]"
    stroke = f'stroke="{MARK}" stroke-width="3"' if is_marked(path, marks) else 'stroke="#fff" stroke-width="1.5"'
    n, k = whole(step), SEATS.index(seat)
    where = "in the yard" if n == -1 else "home" if n == 57 else \
        f"step {n} (square {(13 * k + n) % 52})" if n is not None and 0 <= n <= 50 else f"step {short(step)}"
    return (f'<g data-kind="piece"{tagged(path, marks)}><title>{esc(path)}: {esc(where)}</title>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" '
            f'fill="{COLOUR[seat]}" {stroke}/><text x="{x:.1f}" y="{y + r * 0.38:.1f}" font-size="{r:.0f}" '
            f'fill="#fff" text-anchor="middle" font-family="sans-serif">{index}</text></g>')


Spot = tuple[float, float, float]  # a piece's centre and radius


def _place(view: Mapping[str, Any], notes: list[str]) -> dict[tuple[str, int], tuple[Spot, Any]]:
    """Where each piece the view places on the board is drawn (seat, index) -> (spot, step); what cannot be
    placed goes to ``notes``."""
    pieces = view.get("pieces")
    if not isinstance(pieces, Mapping):
        if "pieces" in view:
            notes.append(f"pieces: {short(pieces, 40)} (not an object)")
        return {}
    notes.extend(f"pieces.{short(s)}: not a seat" for s in pieces if s not in SEATS)
    on_cell: dict[tuple[float, float], list[tuple[str, int]]] = {}
    out: dict[tuple[str, int], tuple[Spot, Any]] = {}
    for k, seat in enumerate(SEATS):
        steps = pieces.get(seat, "missing")
        if not isinstance(steps, list):
            why = "missing" if steps == "missing" else f"{short(steps, 40)} (not a list)"
            notes.append(f"pieces.{seat}: {why}")
            continue
        if len(steps) > MAX_PIECES:
            notes.append(f"pieces.{seat}: {len(steps) - MAX_PIECES} more pieces not drawn")
        yard = _spots(_px(_turned(YARD, k)), max(4, min(len(steps), MAX_PIECES)), 2.6 * C)
        for i, step in enumerate(steps[:MAX_PIECES]):
            n = whole(step)
            cell = None if n is None else _cell(k, n)
            if n == -1:
                out[(seat, i)] = (yard[i], step)
            elif cell is None:
                notes.append(f"pieces.{seat}[{i}]: {short(step)} (not on the board)")
            else:
                on_cell.setdefault(cell, []).append((seat, i))
    for cell, group in on_cell.items():
        for spot, (seat, i) in zip(_spots(_px(cell), len(group), C * 0.92), group):
            out[(seat, i)] = (spot, pieces[seat][i])
    return out


def _pieces(view: Mapping[str, Any], marks: frozenset[str], notes: list[str],
            before: Mapping[str, Any] | None) -> str:
    """Every piece the view places on the board and, with the position ``before``, where each piece that
    moved stood (a dashed ring) and an arrow from there."""
    placed = _place(view, notes)
    old = _place(before, []) if before is not None else {}
    ghosts, arrows, out, halos = [], [], [], []
    for (seat, i), ((x, y, r), step) in placed.items():
        was = old.get((seat, i))
        if was is not None and was[1] != step:
            (ox, oy, orad) = was[0]
            ghosts.append(ghost_ring(ox, oy, orad))
            arrows.append(arrow(ox, oy, x, y, orad + 1))
            halos.append(moved_halo(x - r - 4, y - r - 4, 2 * r + 8, 2 * r + 8, r + 4))
        out.append(_piece(x, y, r, seat, i, step, marks))
    return "".join(ghosts + arrows + out + halos)


def _panel(view: Mapping[str, Any], marks: frozenset[str], before: Mapping[str, Any] | None) -> str:
    """The turn, phase, roll, sixes, last face, counters and result, one field a row (a row the step changed
    tinted, given the position ``before`` it)."""
    def row(y: float, label: str, value: Any, path: str) -> str:
        fill, weight = (MARK, "bold") if is_marked(path, marks) else ("#222", "normal")
        tint = moved_tint(PANEL_X - 4, y - 15, 176, 20) if changed(before, view, path) else ""
        return tint + (f'<text x="{PANEL_X}" y="{y}" font-size="14" font-family="sans-serif" fill="{fill}" '
                f'font-weight="{weight}"{tagged(path, marks)}>{esc(label)}: {esc(short(value, 14))}</text>')

    turn, result = view.get("turn"), view.get("result", "?")
    out = [(f'<text x="{PANEL_X}" y="30" font-size="17" font-weight="bold" font-family="sans-serif">Ludo '
           f'{esc(short(view.get("ruleset", "?"), 8))}</text>'),
           row(56, "seed", view.get("seed", "?"), "seed"), row(84, "turn", turn, "turn")]
    if isinstance(turn, str) and turn in COLOUR:
        out.append(f'<circle cx="{PANEL_X + 150}" cy="79" r="8" fill="{COLOUR[turn]}"/>')
    out.append(row(112, "phase", view.get("phase", "?"), "phase"))
    out.append(row(140, "roll", "" if view.get("roll") is None else view.get("roll"), "roll"))
    if view.get("roll") is not None:
        out.append(die(PANEL_X + 60, 150, 44, view.get("roll"), "roll", marks, "#fffbe6"))
    sixes = whole(view.get("sixes"))
    out.append(row(222, "sixes in a row", view.get("sixes", "?"), "sixes"))
    for i in range(max(0, min(sixes or 0, 3))):
        out.append(f'<rect x="{PANEL_X + 130 + i * 16}" y="211" width="12" height="12" rx="2" fill="#333"/>')
    out.append(row(264, "last face", "" if view.get("last_face") is None else view.get("last_face"), "last_face"))
    if view.get("last_face") is not None:
        out.append(die(PANEL_X + 100, 248, 26, view.get("last_face"), "last_face", marks))
    out.append(row(300, "throws", view.get("throws", "?"), "throws"))
    out.append(row(326, "decisions", view.get("decisions", "?"), "decisions"))
    out.append(row(362, "result", "(game goes on)" if result is None else result, "result"))
    return "".join(out)


def draw(view: Mapping[str, Any], marks: frozenset[str], before: Mapping[str, Any] | None = None) -> str:
    """The board with every piece, the panel of counters beside it, and notes and marks under it; given the
    position ``before`` the step, what the step moved."""
    notes: list[str] = [] if isinstance(view, Mapping) else [f"view: {short(view, 60)} (not an object)"]
    view = view if isinstance(view, Mapping) else {}
    turn = view.get("turn")
    if "turn" in view and not (isinstance(turn, str) and turn in SEATS):
        notes.append(f"turn: {short(turn)} (not a seat)")
    parts = [_board(turn, marks), _pieces(view, marks, notes, before), _panel(view, marks, before)]
    notes.extend(field_notes(view, FIELDS))
    extra, bottom = caption(notes + [f"differs: {m}" for m in sorted(marks)], Y0 + 15 * C, WIDTH)
    return svg(WIDTH, bottom + 8, "".join(parts) + extra)
