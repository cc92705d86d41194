"""Set-ups drawn straight from a game's set-up space, weighted toward what random play seldom reaches.

Random games stay near the opening; a set-up starts a case deep in a game at once. Each drawer builds a
``setup`` in the game's own form (its spec's section "Start and set-up") around one spot where the rules
are busy: Ludo pieces crowded around one square (captures, the CPU levels' risks), games a few throws
short of the cap, a seat down to its last piece (the win in the same throw as the cap, now and then);
Conquest King formations around one target (rear, flank and support, terrain, ambushes
next to where units will stop); Black Fog animals, feed and fog around the keepers, late rounds. A drawn
set-up the game refuses is still used: as a start the build must refuse the same way.

The drawers, and each game's other hints (``Hints``), live in the game's unit (``refimpl/games/<game>/kit/
explore.py``); this module reads them from there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...games import JSON
from ...games.registry import loaded
from .draw import Draw

Drawer = Callable[[Draw, Any, str], dict[str, JSON]]
Edge = Callable[[Draw, Any, dict[str, JSON]], tuple[int, dict[str, JSON]] | None]
Step = Callable[[Draw, Any, Any, list[JSON]], JSON | None]
Merge = Callable[[JSON, JSON], JSON | None]


@dataclass(frozen=True)
class Hints:
    """What a game tells the fuzzer beyond its engine (its unit's ``explore``), each None where it has none:
    ``setup`` draws a set-up around a busy spot; ``step`` now and then picks the next action of a case toward what
    random play seldom reaches (None: a random one); ``merge`` adds up two consecutive actions, for the shrinker;
    ``edge`` gives a seed at the edge of the game's seeded streams and the set-up to start it with, given the one
    drawn (None: no such seed)."""

    setup: Drawer | None = None
    step: Step | None = None
    merge: Merge | None = None
    edge: Edge | None = None


def hints(game: str) -> Hints:
    """The fuzzer's hints of ``game`` (empty for a game without, or not registered)."""
    found = loaded(game, "explore")
    return found if isinstance(found, Hints) else Hints()


def drawer(game: str) -> Drawer | None:
    """The set-up drawer of ``game``, or None for a game without set-ups."""
    return hints(game).setup
