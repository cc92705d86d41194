"""The misreading catalogue: for every rule and ruling of every spec, an engine that reads the seed or the spec
the way a builder plausibly might, differing from the reference exactly where that rule decides.

Each game module holds ``MISREADINGS``: key -> a factory of such an engine. A key is the rule's ID
(``LD-CAP-2``), or ``ID#name`` for a further misreading of the same rule (``LD-CAP-2#bonus-on-safe``); the
factory's docstring says how the builder reads it. tests/test_misreadings.py proves that some check tagged with
the rule fails each one; ``make misreadings`` (tests/misreadings/meter.py) serves each through the real protocol
and records whether verify and default fuzz catch it, how fast and with how short a reproducer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from refimpl.games import GAMES, Game

from . import beacon, black_fog, conquest, lantern, ludo

Factory = Callable[[], Game[Any, Any]]

MISREADINGS: dict[str, Factory] = {**beacon.MISREADINGS, **lantern.MISREADINGS, **ludo.MISREADINGS,
                                   **black_fog.MISREADINGS, **conquest.MISREADINGS}

_PREFIXES = {engine.info.rule_prefix: name for name, engine in GAMES.items()}


def rule_of(key: str) -> str:
    """The rule a catalogue key misreads: ``LD-CAP-2#bonus-on-safe`` -> ``LD-CAP-2``."""
    return key.split("#", 1)[0]


def game_of(key: str) -> str:
    """The game whose rule a key misreads."""
    return _PREFIXES[rule_of(key).split("-", 1)[0]]
