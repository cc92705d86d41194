"""Lantern Quay (spec: specs/lantern-quay.md): three dice, three slots, three rounds. The engine is ``engine.py``;
``kit/`` holds what the kit's other rooms need of the game (its unit: ``KIT``)."""

from .engine import INFO, Action, LanternQuay, Place, Roll, State, Tables

__all__ = ["INFO", "Action", "LanternQuay", "Place", "Roll", "State", "Tables"]
