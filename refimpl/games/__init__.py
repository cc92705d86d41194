"""The registry: every game the kit knows, each one registered unit (``GameKit``, games/registry.py).

A game is one folder, ``refimpl/games/<game>/``: its engine, and in ``kit/`` its unit and the parts the other
rooms read (picture, scenario steps, own-chance judges, fuzzer hints, tables, profile fields). Adding a game is
that folder and its registration below (docs/architecture.md lists what every game has outside the code).
``GAMES`` maps each name to its engine, the one table the harness reads; a profile swaps an engine in it for the
run (rulebook/profiles.py ``using``).
"""

from __future__ import annotations

from typing import Any

from .base import JSON, BadSetup, Game, GameInfo, IllegalAction, MalformedAction, RuleViolation
from .beacon_lines import kit as _beacon_lines
from .black_fog import kit as _black_fog
from .conquest_king import kit as _conquest_king
from .lantern_quay import kit as _lantern_quay
from .ludo import kit as _ludo
from .registry import GameKit, kit_of, kits, load_data, register_game

for _unit in (_beacon_lines, _lantern_quay, _ludo, _conquest_king, _black_fog):
    register_game(_unit.KIT)

GAMES: dict[str, Game[Any, Any]] = {kit.name: kit.engine for kit in kits()}

__all__ = ["GAMES", "Game", "GameInfo", "GameKit", "RuleViolation", "IllegalAction", "MalformedAction",
           "BadSetup", "JSON", "kit_of", "kits", "load_data"]
