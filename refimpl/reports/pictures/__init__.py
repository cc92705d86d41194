"""Pictures of a position: each game's board drawn as inline SVG from a state view (the protocol's JSON).

The HTML report draws the position before and after a failing step, and ``refimpl show`` draws any step of a trace.
Each game's drawer lives in its unit (``GameKit.picture``). A picture is drawn from whatever a build answered, so
drawing never raises: what a drawer cannot read is listed as text under the board. ``marks`` are the field paths
that differ (``pieces.human[2]``, ``scores.red``): the drawer outlines what they name on the board and lists the
others beside it. Given the position ``before`` the step, a drawer also draws what the step moved (in the MOVE
colour: where a piece stood, an arrow to where it stands, a frame around what changed). Every board labels its
places by what the views call them (``class="coord"``: squares, tiles, regions, slots).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..safetext import bounded, xml_safe
from .svg import captions_apart, fallback, safely

Drawer = Callable[..., str]  # (view, marks) or (view, marks, before) -> an <svg> element


def drawer(game: str) -> Drawer | None:
    """The drawer of ``game``: its unit's ``picture`` (refimpl/games/<game>/kit/picture.py), or None for a game
    nobody registered."""
    from ...games.registry import loaded

    found: Drawer | None = loaded(game, "picture")
    return found


def draw(game: str, view: Any, marks: Iterable[str] = (), title: str = "", before: Any = None) -> str:
    """An ``<svg>`` element (a string) picturing ``view`` of ``game``, with ``marks`` outlined and, given the
    position ``before`` the step (a view), what the step moved. Never raises: an unknown game or a view a drawer
    cannot read gives a picture listing its fields."""
    found = drawer(game)
    marked = frozenset(marks)
    view = bounded(view)  # a build's answer may be nested or sized past any use in a picture
    if found is None or not isinstance(view, Mapping):
        return xml_safe(fallback(view, marked, title))
    before = bounded(before) if isinstance(before, Mapping) else None
    # whatever a drawer let through: no control, no surrogate
    return xml_safe(safely(found, view, marked, title, before))


__all__ = ["Drawer", "captions_apart", "draw", "drawer"]
