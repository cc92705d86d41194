"""The step definitions every game shares (``common``) and the Play record with the words-to-ids helpers
(``play``). Each game's own steps live in its unit (``refimpl/games/<game>/kit/steps.py``, ``GameKit.steps``);
``register`` imports them all, which registers every step. They talk to a driver only, never to an engine."""

from __future__ import annotations

from types import ModuleType

from . import common, play  # noqa: F401 (they register)


def register() -> list[ModuleType]:
    """Import every registered game's step definitions (registering them); the modules, in registration
    order."""
    from ...games import kits

    return [kit.steps.load() for kit in kits()]
