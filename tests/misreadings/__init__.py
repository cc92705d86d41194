"""Misreadings: for every ruling of every spec, an engine that reads the seed the other way.

Each game module holds ``MISREADINGS``: ruling ID -> a factory of an engine that differs from the
reference exactly where the ruling decides. tests/test_rulings.py proves that some check tagged with the
ruling fails each one, so every ruling is a statement a build is judged on, not a comment.
"""

from __future__ import annotations

from typing import Any, Callable

from refimpl.games import Game

from . import beacon, black_fog, conquest, lantern, ludo

Factory = Callable[[], Game[Any, Any]]

MISREADINGS: dict[str, Factory] = {**beacon.MISREADINGS, **lantern.MISREADINGS, **ludo.MISREADINGS,
                                   **black_fog.MISREADINGS, **conquest.MISREADINGS}
