"""The registry: every game the kit knows, built from its data file. The one table the harness reads."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import Any

import yaml

from .base import JSON, BadSetup, Game, GameInfo, IllegalAction, MalformedAction, RuleViolation
from .beacon_lines import BeaconLines
from .black_fog import BlackFog
from .conquest_king import ConquestKing
from .lantern_quay import LanternQuay
from .ludo import Ludo

__all__ = ["GAMES", "Game", "GameInfo", "RuleViolation", "IllegalAction", "MalformedAction",
           "BadSetup", "JSON", "load_data"]


def load_data(name: str) -> Mapping[str, Any]:
    """The bundled data file of game ``name`` (board, tables, rulesets)."""
    text = resources.files(__package__).joinpath("data", f"{name}.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


GAMES: dict[str, Game[Any, Any]] = {
    engine.info.name: engine
    for engine in (
        BeaconLines(load_data("beacon-lines")),
        LanternQuay(load_data("lantern-quay")),
        Ludo(load_data("ludo")),
        ConquestKing(load_data("conquest-king")),
        BlackFog(load_data("black-fog")),
    )
}

