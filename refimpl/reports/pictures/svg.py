"""The small SVG toolkit every game's drawer shares: escaping, marks, a fallback picture."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from html import escape
from typing import Any

MARK = "#d62728"  # what differs is outlined in this colour, everywhere
MOVE = "#00a3bf"  # what the step moved (a picture drawn with the position before it): this colour, everywhere
MOVE_TINT = "#b2ebf2"

# Where caption lines go while a page collects them (``captions_apart``): None draws them under the board.
_CAPTIONS: ContextVar[list[str] | None] = ContextVar("refimpl_picture_captions", default=None)


@contextmanager
def captions_apart() -> Iterator[list[str]]:
    """Caption lines drawn in the meantime are collected in the list this yields instead of being drawn
    under the board: a page shows them as its own text, at a size a scaled-down picture cannot give."""
    lines: list[str] = []
    token = _CAPTIONS.set(lines)
    try:
        yield lines
    finally:
        _CAPTIONS.reset(token)


def esc(value: Any) -> str:
    """Text fit for SVG/HTML content or an attribute."""
    return escape(value if isinstance(value, str) else json.dumps(value), quote=True)


def is_marked(path: str, marks: frozenset[str]) -> bool:
    """True when a differing field is ``path`` itself, inside it, or contains it (``pieces`` marks
    ``pieces.human[2]``; ``pieces.human[2]`` marks ``pieces.human``)."""
    for mark in marks:
        if mark == path or mark.startswith(path + ".") or mark.startswith(path + "["):
            return True
        if path.startswith(mark + ".") or path.startswith(mark + "["):
            return True
    return False


def caption(lines: list[str], y: float, width: float) -> tuple[str, float]:
    """Text lines under a board, from ``y``; returns the SVG and the new bottom (while ``captions_apart``
    collects them: nothing, and ``y``)."""
    collected = _CAPTIONS.get()
    if collected is not None:
        collected.extend(lines)
        return "", y
    out = []
    for line in lines:
        y += 16
        out.append(f'<text x="6" y="{y:.0f}" font-size="12" font-family="monospace">{esc(line)}</text>')
    return "".join(out), y + 6


def coord(x: float, y: float, text: str, size: float = 10, anchor: str = "middle", fill: str = "#666") -> str:
    """A coordinate label (a square's number, a tile's ``q,r``, a region's ID): what a trace or view calls
    the place, so a reader can find ``pieces.cpu1[0]: 18`` or ``"at": [6, 4]`` on the board."""
    return (f'<text class="coord" x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}" '
            f'font-family="sans-serif" fill="{fill}">{esc(text)}</text>')


def moved_halo(x: float, y: float, w: float, h: float, rx: float = 4) -> str:
    """The frame around an element the step changed (drawn with the position before it)."""
    return (f'<rect class="moved" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx:.1f}" '
            f'fill="none" stroke="{MOVE}" stroke-width="3.5" stroke-opacity="0.9"/>')


def moved_tint(x: float, y: float, w: float, h: float) -> str:
    """A tint behind a label whose value the step changed."""
    return (f'<rect class="moved" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="3" '
            f'fill="{MOVE_TINT}"/>')


def ghost_ring(x: float, y: float, r: float) -> str:
    """Where a moved piece stood before the step: a dashed ring."""
    return (f'<circle class="moved" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{MOVE_TINT}" fill-opacity="0.6" '
            f'stroke="{MOVE}" stroke-width="2" stroke-dasharray="4 3"/>')


def arrow(x1: float, y1: float, x2: float, y2: float, gap: float = 0.0) -> str:
    """An arrow from where a piece stood to where it stands, stopping ``gap`` short of both ends."""
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    if length <= 2 * gap + 4:
        return ""
    ux, uy = dx / length, dy / length
    sx, sy, ex, ey = x1 + ux * gap, y1 + uy * gap, x2 - ux * gap, y2 - uy * gap
    head = 9.0
    bx, by = ex - ux * head, ey - uy * head
    return (f'<g class="moved"><line x1="{sx:.1f}" y1="{sy:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{MOVE}" '
            f'stroke-width="3.5" stroke-linecap="round"/><polygon points="{ex:.1f},{ey:.1f} '
            f'{bx - uy * head * .6:.1f},{by + ux * head * .6:.1f} {bx + uy * head * .6:.1f},{by - ux * head * .6:.1f}" '
            f'fill="{MOVE}"/></g>')


def changed(before: Any, after: Any, key: str) -> bool:
    """True when a view drawn with the position ``before`` it holds another value of ``key`` than that
    position (False without a position before)."""
    if not isinstance(before, Mapping) or not isinstance(after, Mapping):
        return False
    return before.get(key) != after.get(key)


def svg(width: float, height: float, body: str, title: str = "") -> str:
    """A complete ``<svg>`` element of the given size (a <title> for screen readers and tooltips)."""
    head = f"<title>{esc(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" role="img">{head}{body}</svg>')


def fallback(view: Any, marks: frozenset[str], title: str = "", note: str = "") -> str:
    """A picture that is only text: each top-level field and its value, marked fields in the mark colour."""
    lines = [note] if note else []
    body, y = [], 0.0
    items = view.items() if isinstance(view, Mapping) else [("view", view)]
    for key, value in items:
        y += 16
        colour = MARK if is_marked(str(key), marks) else "#222"
        text = f"{key}: {json.dumps(value)[:110]}"
        body.append(f'<text x="6" y="{y:.0f}" font-size="12" font-family="monospace" fill="{colour}">'
                    f"{esc(text)}</text>")
    extra, y = caption(lines, y, 720)
    return svg(720, y + 10, "".join(body) + extra, title)


def safely(drawer: Callable[..., str], view: Mapping[str, Any], marks: frozenset[str], title: str,
           before: Mapping[str, Any] | None = None) -> str:
    """``drawer``'s picture (what changed since ``before`` drawn, when given), or the fallback naming why the
    view could not be drawn."""
    try:
        picture = drawer(view, marks) if before is None else drawer(view, marks, before)
    except Exception as exc:  # a build's view may be anything: the report must still be written
        return fallback(view, marks, title, f"(not drawn as a board: {type(exc).__name__}: {exc})")
    if title and picture.startswith("<svg"):
        head, _, rest = picture.partition(">")
        if not rest.startswith("<title>"):  # the picture's own title comes first; elements may have theirs
            picture = f"{head}><title>{esc(title)}</title>{rest}"
    return picture
