"""The small SVG toolkit every game's drawer shares: escaping, marks, a fallback picture."""

from __future__ import annotations

import json
from html import escape
from typing import Any, Callable, Mapping

MARK = "#d62728"  # what differs is outlined in this colour, everywhere


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
    """Text lines under a board, from ``y``; returns the SVG and the new bottom."""
    out = []
    for line in lines:
        y += 16
        out.append(f'<text x="6" y="{y:.0f}" font-size="12" font-family="monospace">{esc(line)}</text>')
    return "".join(out), y + 6


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


def safely(drawer: Callable[[Mapping[str, Any], frozenset[str]], str], view: Mapping[str, Any],
           marks: frozenset[str], title: str) -> str:
    """``drawer``'s picture, or the fallback naming why the view could not be drawn."""
    try:
        picture = drawer(view, marks)
    except Exception as exc:  # a build's view may be anything: the report must still be written
        return fallback(view, marks, title, f"(not drawn as a board: {type(exc).__name__}: {exc})")
    if title and picture.startswith("<svg"):
        head, _, rest = picture.partition(">")
        if not rest.startswith("<title>"):  # the picture's own title comes first; elements may have theirs
            picture = f"{head}><title>{esc(title)}</title>{rest}"
    return picture
