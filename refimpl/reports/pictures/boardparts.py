"""Small parts the games' drawers share: safe text, field labels that carry their ``data-path`` and mark, the list
of every differing path under a board, a die."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from .svg import MARK, caption, esc, is_marked, moved_tint

CHAR_W = 7.2  # the width of one character of 12 px monospace
MAX_MARKS = 40  # "differs:" lines under a board; the rest are counted
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

Segment = tuple[str, "str | None"]  # a piece of text and the field path it shows (None: plain text)
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_ABSENT = object()


def value_at(view: Any, path: str) -> Any:
    """The value ``path`` (``deployment.gaias``, ``units[3].at``) names in ``view`` (a marker object when
    there is none)."""
    for name, index in _STEP.findall(path):
        if name and isinstance(view, Mapping) and name in view:
            view = view[name]
        elif index and isinstance(view, list) and int(index) < len(view):
            view = view[int(index)]
        else:
            return _ABSENT
    return view


def changes(before: Mapping[str, Any] | None, view: Mapping[str, Any]) -> Callable[[str], bool]:
    """Whether the step changed the value at a path: always False without the position ``before`` it."""
    if before is None:
        return lambda path: False
    return lambda path: value_at(before, path) != value_at(view, path)


def clean(text: str, limit: int = 100) -> str:
    """``text`` cut to ``limit`` characters, without the characters XML forbids."""
    text = _NOT_XML.sub("?", text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def show(value: Any, limit: int = 40) -> str:
    """A short readable form of any JSON value; big containers only by their size (never dumped whole)."""
    if isinstance(value, str):
        return clean(value, limit)
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value)
    if isinstance(value, (list, dict)):
        return f"<{type(value).__name__} of {len(value)}>"
    return f"<{type(value).__name__}>"


def as_int(value: Any) -> int | None:
    """``value`` if it is a whole number (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def path_attrs(path: str, marks: frozenset[str]) -> str:
    """The ``data-path`` attribute, and ``class="marked"`` when the path differs."""
    marked = ' class="marked"' if is_marked(path, marks) else ""
    return f' data-path="{esc(clean(path, 200))}"{marked}'


def outline(x: float, y: float, w: float, h: float, stroke: float = 3.0) -> str:
    """The thick mark-coloured frame around a differing element."""
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="none" stroke="{MARK}" '
            f'stroke-width="{stroke}"/>')


def field_text(x: float, y: float, text: str, path: str | None, marks: frozenset[str], moved: bool = False) -> str:
    """One label; with a path it is that field's element, outlined in the mark colour when it differs (and
    tinted when the step changed it)."""
    text = clean(text)
    plain = f'<text x="{x:.1f}" y="{y:.1f}" font-size="12" font-family="monospace"'
    if path is None:
        return f'{plain} fill="#222">{esc(text)}</text>'
    marked = is_marked(path, marks)
    tint = moved_tint(x - 3, y - 12, len(text) * CHAR_W + 6, 16) if moved else ""
    box = outline(x - 3, y - 12, len(text) * CHAR_W + 6, 16, 2.5) if marked else ""
    colour = MARK if marked else "#222"
    return f'{tint}<g{path_attrs(path, marks)}>{box}{plain} fill="{colour}">{esc(text)}</text></g>'


def field_rows(rows: list[list[Segment]], y: float, width: float, marks: frozenset[str],
               moved: Callable[[str], bool] = lambda path: False) -> tuple[str, float]:
    """Rows of labels from ``y``, wrapped at ``width`` (a label whose path ``moved`` tinted); returns the SVG
    and the new bottom."""
    out = []
    for row in rows:
        y += 18
        x = 6.0
        for text, path in row:
            w = len(clean(text)) * CHAR_W
            if x > 6 and x + w > width - 6:
                y, x = y + 18, 6.0
            out.append(field_text(x, y, text, path, marks, path is not None and moved(path)))
            x += w + 12
    return "".join(out), y + 4


def differs(marks: frozenset[str], y: float, width: float) -> tuple[str, float]:
    """Every differing path as a caption line ("differs: units[3].at"), so none is lost off the board."""
    listed = sorted(marks)
    lines = [f"differs: {clean(m)}" for m in listed[:MAX_MARKS]]
    if len(listed) > MAX_MARKS:
        lines.append(f"... and {len(listed) - MAX_MARKS} more paths differ")
    return caption(lines, y, width)


def notes(lines: list[str], legend: tuple[str, ...], y: float, width: float, most: int = 30) -> tuple[str, float]:
    """Plain caption lines (at most ``most``, the rest counted) then the legend, without what XML forbids."""
    shown = [clean(line, 110) for line in lines[:most]]
    if len(lines) > most:
        shown.append(f"... and {len(lines) - most} more notes")
    return caption(shown + list(legend), y, width)


# Pip positions on a 3x3 grid (0..2, 0..2) per face.
PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}


def tagged(path: str, marks: frozenset[str]) -> str:
    """The attributes of an element drawn for field ``path``: its data-path, and class="marked" if it differs."""
    return f' data-path="{esc(path)}"' + (' class="marked"' if is_marked(path, marks) else "")


def whole(value: Any) -> int | None:
    """``value`` if it is a whole number (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def short(value: Any, limit: int = 24) -> str:
    """``value`` as text of at most ``limit`` characters (a build may answer anything)."""
    try:
        text = value if isinstance(value, str) else str(value)
    except ValueError:  # an integer too long to print
        text = "(a huge number)"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def field_notes(view: Mapping[str, Any], fields: tuple[str, ...]) -> list[str]:
    """A note for every field of ``fields`` the view lacks and every field it has beyond them."""
    return ([f"{field}: missing" for field in fields if field not in view]
            + [f"{short(key)}: unexpected field" for key in view if key not in fields])


def die(x: float, y: float, size: float, face: Any, path: str, marks: frozenset[str], colour: str = "#fff") -> str:
    """A die at (x, y) showing ``face`` as pips (a face that is not 1-6 is written as text)."""
    marked = is_marked(path, marks)
    stroke = f'stroke="{MARK}" stroke-width="3"' if marked else 'stroke="#333" stroke-width="1.5"'
    out = [(f'<g{tagged(path, marks)}><rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}" '
           f'rx="{size * 0.15:.1f}" fill="{colour}" {stroke}/>')]
    f = whole(face)
    if f in PIPS:
        step, r = size / 4, size * 0.085
        for col, row in PIPS[f]:
            out.append(f'<circle cx="{x + step * (col + 1):.1f}" cy="{y + step * (row + 1):.1f}" r="{r:.1f}" '
                       f'fill="#222"/>')
    else:
        text = "?" if face is None else short(face, 4)
        out.append(f'<text x="{x + size / 2:.1f}" y="{y + size * 0.62:.1f}" font-size="{size * 0.4:.0f}" '
                   f'text-anchor="middle" font-family="sans-serif">{esc(text)}</text>')
    return "".join(out) + "</g>"
